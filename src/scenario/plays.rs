//! The scenario side of `skirmish tactics`: each side's candidate plays
//! (`[plays.SIDE]`), checked when the scenario loads, and the cells that
//! fight every pair of strategies.
//!
//! **What a play is.** A `[plays.SIDE]` table maps dotted paths to lists of
//! values, like `[matrix]`, but every path must be a choice that side makes:
//! - `sides.SIDE.GROUP.tactic` or `.target` of one of its own unit groups;
//! - `units.UNIT.FIELD` of a stat block the side fields, where `FIELD` is one
//!   of the ruleset's policies ([`crate::rules::Ruleset::POLICIES`]: what a
//!   player decides, such as escalation's `aim` or the `weapons` carried),
//!   never a stat (hit points are not a play).
//!
//! Anything else is refused, with why: a path of another side, the rules
//! (`options`), the map, a stat, a top-level key. A side's strategies are
//! the combinations of its paths' values (the last path varying fastest).
//! The game has two sides: a scenario with more is refused; a side without
//! a `[plays]` table plays the scenario's own play, its one strategy.
//!
//! **Copies.** A play on a stat block that the other side fields too is
//! applied to that side's copy only (the copy is made the way `sensitivity`
//! makes its copies, [`super::sensitivity::own_copy`]), so the two sides'
//! choices stay independent.
//!
//! **Cells.** [`Scenario::tactics`] takes one cell of the scenario's matrix
//! (the baseline unless told otherwise) and returns a scenario whose matrix
//! is the first side's play paths then the second's: its cells, in matrix
//! order, are the strategy pairs row by row (`i × second + j`), all fought
//! with the same random numbers batch by batch.

use super::doc::{Node, Table, Value};
use super::error::{list_choices, suggest, ScenarioError};
use super::matrix::{read_axes, Axis, Cell};
use super::schema::Ctx;
use super::sensitivity::{own_copy, sides_fielding, subjects, table_at};
use super::Scenario;
use crate::rules::Ruleset;

/// The fields of a unit group that are plays.
pub const GROUP_PLAYS: &[&str] = &["tactic", "target"];

/// One side's candidate plays.
#[derive(Clone, Debug, PartialEq)]
pub struct SidePlays {
    /// The side's name.
    pub side: String,
    /// Its play paths and their values, as written.
    pub axes: Vec<Axis>,
}

impl SidePlays {
    /// How many strategies: the product of the lists' lengths.
    pub fn strategies(&self) -> usize {
        self.axes.iter().map(|a| a.values.len()).product()
    }
}

/// The two sides of the game, with their strategies' labels, and the
/// scenario whose cells are the strategy pairs.
#[derive(Clone, Debug)]
pub struct Game {
    /// The first and second side's names (the scenario's order).
    pub sides: [String; 2],
    /// Each side's play paths, as written (empty: its own play only).
    pub paths: [Vec<String>; 2],
    /// Each side's strategies, labelled by their values joined by ` + `.
    pub strategies: [Vec<String>; 2],
    /// Each side's strategy that is the scenario's own play, when it is
    /// among the candidates.
    pub own: [Option<usize>; 2],
    /// The matrix cell the plays are fought in.
    pub base: Cell,
    /// The scenario whose cells are the strategy pairs, row-major.
    pub scenario: Scenario,
}

/// Read and check the `[plays]` table (`node`) of a scenario with tree
/// `root`, ruleset `rules`.
pub(super) fn read(
    ctx: Ctx,
    node: &Node,
    root: &Table,
    rules: &str,
) -> Result<Vec<SidePlays>, ScenarioError> {
    let Value::Table(table) = &node.value else {
        return Err(ctx.error(
            &node.span,
            "plays",
            format!(
                "expected a table of sides (`[plays.SIDE]`), found {}",
                node.value.type_name()
            ),
        ));
    };
    let sides: Vec<String> = table_at(root, &["sides"])
        .map(|t| t.keys().map(str::to_string).collect())
        .unwrap_or_default();
    let policies = crate::with_ruleset!(rules, R => R::POLICIES,
        _ => unreachable!("the scenario layer accepts only known rulesets"));
    let mut plays = Vec::new();
    for entry in &table.entries {
        let side = &entry.key;
        let here = format!("plays.{side}");
        if !sides.contains(side) {
            let hint = match suggest(side, sides.iter().map(String::as_str)) {
                Some(s) => format!("; did you mean `{s}`?"),
                None => String::new(),
            };
            return Err(ctx.error(
                &entry.key_span,
                &here,
                format!(
                    "`{side}` is not a side{hint} (sides: {})",
                    list_choices(sides.iter().map(String::as_str))
                ),
            ));
        }
        let axes = read_axes(ctx, &entry.node, &here)?;
        if axes.is_empty() {
            return Err(ctx.error(
                &entry.node.span,
                &here,
                "a side's plays need at least one `\"path\" = [values]`; this table is empty",
            ));
        }
        for axis in &axes {
            check_path(ctx, root, side, &sides, policies, axis, &here)?;
        }
        plays.push(SidePlays {
            side: side.clone(),
            axes,
        });
    }
    if !plays.is_empty() && sides.len() != 2 {
        return Err(ctx.error(
            &node.span,
            "plays",
            format!(
                "plays make a game of two sides, and this scenario has {} ({}): fight the \
                 plays of a side against one opponent side at a time",
                sides.len(),
                list_choices(sides.iter().map(String::as_str))
            ),
        ));
    }
    Ok(plays)
}

/// Refuse a play path that is not a choice of `side` (see the module doc).
fn check_path(
    ctx: Ctx,
    root: &Table,
    side: &str,
    sides: &[String],
    policies: &[&str],
    axis: &Axis,
    here: &str,
) -> Result<(), ScenarioError> {
    let key = format!("{here}.\"{}\"", axis.path);
    let refuse = |message: String| Err(ctx.error(&axis.span, &key, message));
    let parts: Vec<&str> = axis.path.split('.').collect();
    match parts.as_slice() {
        ["sides", owner, group, field] => {
            if owner != &side {
                return if sides.iter().any(|s| s == owner) {
                    refuse(format!(
                        "`{}` is a play of side `{owner}`, not of `{side}`: put it in \
                         `[plays.{owner}]`",
                        axis.path
                    ))
                } else {
                    refuse(format!("there is no side `{owner}`"))
                };
            }
            let groups: Vec<String> = table_at(root, &["sides", side])
                .map(|t| t.keys().map(str::to_string).collect())
                .unwrap_or_default();
            if !groups.iter().any(|g| g == group) {
                return refuse(format!(
                    "side `{side}` has no unit group `{group}` (groups: {})",
                    list_choices(groups.iter().map(String::as_str))
                ));
            }
            if !GROUP_PLAYS.contains(field) {
                return refuse(format!(
                    "`{field}` of a unit group is not a play (the plays of a group are {}); \
                     what the scenario sets up, such as how many or where, is varied with \
                     `[matrix]`",
                    list_choices(GROUP_PLAYS.iter().copied())
                ));
            }
            Ok(())
        }
        ["units", unit, field] => {
            let fielding = sides_fielding(root, unit);
            if !fielding.iter().any(|s| s == side) {
                let own: Vec<String> = subjects(root)
                    .into_iter()
                    .filter(|(s, _)| s == side)
                    .map(|(_, u)| u)
                    .collect();
                return refuse(format!(
                    "side `{side}` fields no `{unit}` (it fields {})",
                    list_choices(own.iter().map(String::as_str))
                ));
            }
            if !policies.contains(field) {
                return refuse(format!(
                    "`{field}` is not a play of a stat block: the ruleset's plays (the \
                     player's choices, not stats) are {}",
                    list_choices(policies.iter().copied())
                ));
            }
            Ok(())
        }
        [first, ..] => refuse(format!(
            "`{}` is not a play of a side: a play is a unit group's `tactic` or `target` \
             (`sides.{side}.GROUP.tactic`) or a policy of a stat block the side fields \
             (`units.UNIT.FIELD`){}",
            axis.path,
            match *first {
                "options" => "; rule options are the same for both sides: vary them with `[matrix]`",
                "map" => "; the map is the same for both sides: vary it with `[matrix]`",
                "weapons" => "; a weapon's numbers are stats: choose which weapons a unit carries with `units.UNIT.weapons`",
                _ => "",
            }
        )),
        [] => unreachable!("axis paths are non-empty"),
    }
}

impl Scenario {
    /// The game of the scenario's plays, fought in matrix cell `base`
    /// (see the module doc). Errors when the scenario has no plays.
    pub fn tactics(&self, base: Cell) -> Result<Game, ScenarioError> {
        if self.plays.is_empty() {
            return Err(self.ctx().error(
                &(0..0),
                "plays",
                "the scenario names no plays: add a `[plays.SIDE]` table mapping a side's \
                 choices (`\"sides.SIDE.GROUP.tactic\" = [\"hold\", \"advance\"]`, a policy of a \
                 stat block it fields) to their candidate values",
            ));
        }
        let sides: Vec<String> = table_at(&base.root, &["sides"])
            .map(|t| t.keys().map(str::to_string).collect())
            .unwrap_or_default();
        let sides: [String; 2] = [sides[0].clone(), sides[1].clone()];
        // First the copies: every stat block a side's play changes and the
        // other side fields too becomes that side's own, so that each side's
        // plays (its groups' and its stat blocks') name its own copy.
        let mut root = base.root.clone();
        let mut copies: Vec<(String, String, String)> = Vec::new();
        for plays in &self.plays {
            for axis in &plays.axes {
                if let ["units", unit, _] = axis.path.split('.').collect::<Vec<_>>().as_slice() {
                    let made = copies.iter().any(|(s, u, _)| *s == plays.side && u == unit);
                    if !made && sides_fielding(&root, unit).len() > 1 {
                        let (tree, table) = own_copy(&root, &plays.side, unit, None, true)
                            .expect("checked when the scenario loaded");
                        root = tree;
                        let copy = table.trim_start_matches("units.").to_string();
                        copies.push((plays.side.clone(), unit.to_string(), copy));
                    }
                }
            }
        }
        let renamed = |side: &str, unit: &str| {
            copies
                .iter()
                .find(|(s, u, _)| s == side && u == unit)
                .map_or(unit.to_string(), |(_, _, c)| c.clone())
        };
        let mut axes = Vec::new();
        let mut paths: [Vec<String>; 2] = Default::default();
        let mut strategies: [Vec<String>; 2] = Default::default();
        let mut own: [Option<usize>; 2] = [Some(0), Some(0)];
        for (k, side) in sides.iter().enumerate() {
            let Some(plays) = self.plays.iter().find(|p| &p.side == side) else {
                strategies[k] = vec!["its own play".to_string()];
                continue;
            };
            let mut own_digits = Some(Vec::new());
            for axis in &plays.axes {
                paths[k].push(axis.path.clone());
                // The scenario's own value: as the cell writes it, else the
                // field's default.
                let current = value_at(&base.root, &axis.path)
                    .map(|n| n.value.render())
                    .or_else(|| default_of(&self.rules, &axis.path));
                let found = axis
                    .values
                    .iter()
                    .position(|v| Some(v.value.render()) == current);
                own_digits = own_digits.and_then(|mut d: Vec<(usize, usize)>| {
                    d.push((found?, axis.values.len()));
                    Some(d)
                });
                let path = match axis.path.split('.').collect::<Vec<_>>().as_slice() {
                    ["units", unit, field] => format!("units.{}.{field}", renamed(side, unit)),
                    ["sides", s, group, field] => {
                        format!("sides.{s}.{}.{field}", renamed(side, group))
                    }
                    _ => axis.path.clone(),
                };
                axes.push(Axis {
                    path,
                    span: axis.span.clone(),
                    values: axis.values.clone(),
                });
            }
            own[k] = own_digits.map(|d| d.iter().fold(0, |i, &(c, n)| i * n + c));
            strategies[k] = labels(&plays.axes);
        }
        let mut scenario = self.clone();
        scenario.root = root;
        scenario.axes = axes;
        scenario.baseline = match own {
            [Some(i), Some(j)] => i * strategies[1].len() + j,
            _ => 0,
        };
        scenario.max_rounds = base.max_rounds;
        scenario.plays = Vec::new();
        Ok(Game {
            sides,
            paths,
            strategies,
            own,
            base,
            scenario,
        })
    }
}

/// The value written at a dotted path of `root`, if any.
fn value_at<'a>(root: &'a Table, path: &str) -> Option<&'a Node> {
    let parts: Vec<&str> = path.split('.').collect();
    let (last, parents) = parts.split_last()?;
    table_at(root, parents)?.get(last)
}

/// The default of a play's field, rendered as a value is, when the
/// scenario does not write it.
fn default_of(rules: &str, path: &str) -> Option<String> {
    let field = path.rsplit('.').next()?;
    let fields = if path.starts_with("sides.") {
        crate::engine::SIDE_ENTRY_FIELDS
    } else {
        crate::with_ruleset!(rules, R => R::UNIT_FIELDS, _ => return None)
    };
    Some(fields.iter().find(|f| f.name == field)?.default?.render())
}

/// Each strategy's label: its values in path order, joined by ` + `.
fn labels(axes: &[Axis]) -> Vec<String> {
    let mut labels = vec![String::new()];
    for axis in axes {
        labels = labels
            .iter()
            .flat_map(|prefix| {
                axis.values.iter().map(move |v| {
                    let value = v.value.render();
                    if prefix.is_empty() {
                        value
                    } else {
                        format!("{prefix} + {value}")
                    }
                })
            })
            .collect();
    }
    labels
}

#[cfg(test)]
mod tests {
    use crate::rules::Ruleset;
    use crate::scenario::{parse, CellChoice, Scenario, ScenarioError, Source};

    const BASE: &str = r#"
name = "t"
rules = "escalation"
fights = 100
[weapons.sword]
damage = "1d8"
[units.fighter]
hp = 10
weapons = ["sword"]
[units.archer]
hp = 8
weapons = ["sword"]
[sides.red]
fighter = { count = 2 }
[sides.blue]
fighter = { count = 1 }
archer = { count = 1, tactic = "hold" }
"#;

    fn load(plays: &str) -> Result<Scenario, ScenarioError> {
        parse(Source {
            path: "t.toml".into(),
            text: format!("{BASE}{plays}"),
        })
    }

    fn refused(plays: &str, expect: &str) {
        let message = load(plays).expect_err(plays).to_string();
        assert!(
            message.contains(expect),
            "{message}\n  should say: {expect}"
        );
    }

    #[test]
    fn bad_plays_are_refused_with_why() {
        refused(
            "[plays.blue]\n\"sides.red.fighter.tactic\" = [\"hold\"]\n",
            "is a play of side `red`, not of `blue`",
        );
        refused("[plays.green]\n\"x\" = [1]\n", "`green` is not a side");
        refused(
            "[plays.red]\n\"options.nat20_hits\" = [true, false]\n",
            "rule options are the same for both sides",
        );
        refused(
            "[plays.red]\n\"units.fighter.hp\" = [5, 10]\n",
            "`hp` is not a play of a stat block",
        );
        refused(
            "[plays.red]\n\"units.archer.aim\" = [\"fatal\"]\n",
            "side `red` fields no `archer`",
        );
        refused(
            "[plays.red]\n\"sides.red.fighter.count\" = [1, 2]\n",
            "`count` of a unit group is not a play",
        );
        refused("[plays.red]\n\"sides.red.fighter.tactic\" = []\n", "empty");
        refused("[plays.red]\n", "this table is empty");
        refused(
            "[plays.red]\n\"weapons.sword.damage\" = [\"1d6\"]\n",
            "choose which weapons a unit carries",
        );
    }

    #[test]
    fn more_than_two_sides_is_refused() {
        let text = format!(
            "{BASE}[sides.green]\nfighter = {{ count = 1 }}\n[plays.red]\n\"sides.red.fighter.tactic\" = [\"hold\"]\n"
        );
        let err = parse(Source {
            path: "t.toml".into(),
            text,
        })
        .unwrap_err()
        .to_string();
        assert!(err.contains("plays make a game of two sides"), "{err}");
    }

    #[test]
    fn strategies_are_the_combinations_and_a_shared_block_is_copied() {
        let s = load(
            "[plays.red]\n\"sides.red.fighter.tactic\" = [\"auto\", \"advance\"]\n\
             \"units.fighter.aim\" = [\"center-mass\", \"fatal\", \"slowing\"]\n\
             [plays.blue]\n\"sides.blue.archer.tactic\" = [\"advance\", \"hold\"]\n",
        )
        .unwrap();
        let base = s.pick_cell(&CellChoice::Baseline).unwrap();
        let game = s.tactics(base).unwrap();
        assert_eq!(game.sides, ["red".to_string(), "blue".to_string()]);
        assert_eq!(game.strategies[0].len(), 6);
        assert_eq!(game.strategies[0][1], "auto + fatal");
        assert_eq!(game.strategies[1], vec!["advance", "hold"]);
        // The scenario's own plays: red's defaults (auto, center-mass) are
        // its first strategy; blue's archer holds, its second.
        assert_eq!(game.own, [Some(0), Some(1)]);
        assert_eq!(game.scenario.baseline, 1);
        let cells = game.scenario.cells().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(cells.len(), 12);
        // Both sides field `fighter`: red's aim goes to red's own copy.
        let cell = &cells[2 * 2 + 1]; // red: auto + slowing; blue: hold
        let units = super::table_at(&cell.root, &["units"]).unwrap();
        let copy = super::table_at(units, &["fighter (red)"]).expect("red's copy");
        assert_eq!(copy.get("aim").unwrap().value.render(), "slowing");
        assert!(super::table_at(units, &["fighter"])
            .unwrap()
            .get("aim")
            .is_none());
    }

    #[test]
    fn every_rulesets_policies_are_fields_of_its_stat_blocks() {
        for name in crate::rules::NAMES {
            let (policies, fields) = crate::with_ruleset!(*name,
                R => (R::POLICIES, R::UNIT_FIELDS), _ => unreachable!());
            for p in policies {
                assert!(
                    fields.iter().any(|f| f.name == *p),
                    "{name}: policy `{p}` is not a stat-block field"
                );
            }
        }
    }

    #[test]
    fn no_plays_is_an_error_for_tactics() {
        let s = load("").unwrap();
        let base = s.pick_cell(&CellChoice::Baseline).unwrap();
        let err = s.tactics(base).unwrap_err().to_string();
        assert!(err.contains("names no plays"), "{err}");
    }
}
