//! The scenario side of `skirmish sensitivity`: pick the unchanged cell of
//! the matrix, list the stats of every unit type as each side fields it, and
//! build one cell per step of a stat (one up, one down).
//!
//! **Stats.** A stat is a numeric field of a stat block (`[units.NAME]`) or
//! of a weapon it carries, as declared by the scenario's ruleset. By default
//! only the fields the unchanged cell writes (in the file, or by a matrix
//! axis) are stepped: those are the stats the designer set, and the others
//! are listed as not ranked ([`Sensitivity::unranked`]); with `all_fields`
//! (`--all`) the fields left at their defaults are stepped too. How a stat
//! steps is [`crate::rules::step`]'s business (±1, one die size, the
//! ruleset's own step); fields the ruleset marks as not combat stats are not
//! listed. Each stat carries what its ruleset declares about it: whether it
//! is one of the health stats equivalent points are stated in, and why its
//! step up may lower its side's win rate.
//!
//! **Rule options.** Every numeric rule option (`[options]`) of the
//! ruleset is stepped too, written or not (only the written ones with
//! `written_only`): "which rule number matters most in this scenario". An
//! option belongs to no side; its step sets `options.NAME` in the unchanged
//! cell's tree. With `in_field` (`--in FIELD`), that stat-block field is
//! stepped for every unit type, so that equivalent points can be stated in
//! it.
//!
//! **Subjects.** Stats belong to a unit type *as one side fields it*: in a
//! duel of two `fighter`s on sides `red` and `blue`, red's fighter and
//! blue's fighter have stats of their own, since +1 HP for both would
//! measure nothing. A step of a stat of a unit type that also fights on
//! another side gives that side's groups a copy of the stat block (and a
//! weapon's step gives the stat block a copy of the weapon when others carry
//! it too) with the one value changed; everything else is the unchanged
//! cell's tree, in the same order, so the cells fight the same fights but
//! for that value.
//!
//! A step the field's range does not allow, or a value the ruleset rejects
//! when the cell is compiled, is not taken, and the reason is kept for the
//! report.

use super::compile::compile;
use super::doc::{Node, Table, Value};
use super::error::{list_choices, suggest, Place, ScenarioError};
use super::matrix::Cell;
use super::schema::Ctx;
use super::Scenario;
use crate::rules::step::{contrary_reason, neighbours, step_of, StatValue, Stepped};
use crate::rules::{Field, FieldTable, Kind, Ruleset, StatStep};

/// Which matrix cell is left unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CellChoice {
    /// The scenario's baseline cell.
    Baseline,
    /// `--cell N`.
    Index(usize),
    /// `--where AXIS=VALUE ...`: the baseline with these axis values.
    Where(Vec<(String, String)>),
}

/// One stat of one unit type as one side fields it.
#[derive(Clone, Debug, PartialEq)]
pub struct Stat {
    /// The side whose units have it.
    pub side: String,
    /// The stat block's name.
    pub unit: String,
    /// The weapon, for a weapon's field.
    pub weapon: Option<String>,
    pub field: String,
    /// A rule option (`[options]`), which belongs to no side: `side` and
    /// `unit` are empty.
    pub rule: bool,
    /// The unit type also fights on another side: labels name the side.
    pub shared: bool,
    /// The value in the unchanged cell, as written in a scenario.
    pub value: String,
    /// The unchanged cell writes the field (else it is at its default).
    pub written: bool,
    /// Its place in the ruleset's health stats
    /// ([`crate::rules::Ruleset::HEALTH_STATS`]), for a stat-block field.
    pub health: Option<usize>,
    /// Why its step up may lower its own side's win rate, if the ruleset
    /// says ([`crate::rules::Ruleset::CONTRARY_STATS`]).
    pub contrary: Option<&'static str>,
    /// One step down and one step up: the cell fought with it and the value
    /// there, or why that step is not taken.
    pub steps: [Result<(usize, String), String>; 2],
}

impl Stat {
    /// `raider hp`, `raider rifle attack`; `fighter (red) hp` when the unit
    /// type fights on several sides.
    pub fn label(&self) -> String {
        if self.rule {
            return self.path();
        }
        let mut label = self.unit.clone();
        if self.shared {
            label.push_str(&format!(" ({})", self.side));
        }
        if let Some(w) = &self.weapon {
            label.push(' ');
            label.push_str(w);
        }
        label.push(' ');
        label.push_str(&self.field);
        label
    }

    /// The dotted path of the field in the scenario: `units.raider.hp`,
    /// `weapons.rifle.attack`.
    pub fn path(&self) -> String {
        if self.rule {
            return format!("options.{}", self.field);
        }
        match &self.weapon {
            Some(w) => format!("weapons.{w}.{}", self.field),
            None => format!("units.{}.{}", self.unit, self.field),
        }
    }
}

/// Everything a sensitivity run fights.
#[derive(Clone, Debug)]
pub struct Sensitivity {
    /// The scenario as the report describes it: the unchanged cell's tree as
    /// its base, no matrix.
    pub scenario: Scenario,
    /// How the unchanged cell is named in the matrix (`cell 3 (options.crit
    /// = none)`, or `base scenario` without a matrix).
    pub base_label: String,
    /// The unchanged cell first, then one cell per step taken.
    pub cells: Vec<Cell>,
    /// Every stat stepped, in side, unit, field order.
    pub stats: Vec<Stat>,
    /// The stats not stepped because the unchanged cell leaves them at
    /// their defaults (none with `all_fields`), in the same order.
    pub unranked: Vec<Stat>,
}

/// Which fields `skirmish sensitivity` steps (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// `--all`: the stat-block and weapon fields the unchanged cell leaves
    /// at their defaults too.
    pub all: bool,
    /// `--written-only`: only the rule options the unchanged cell writes
    /// (by default every numeric rule option is stepped).
    pub written_only: bool,
    /// `--in FIELD`: the stat-block field equivalent points are stated in,
    /// stepped for every unit type whether written or not.
    pub in_field: Option<String>,
}

impl Scenario {
    /// The matrix cell `choice` names; errors name the option and the valid
    /// choices.
    pub fn pick_cell(&self, choice: &CellChoice) -> Result<Cell, ScenarioError> {
        let err = |key: &str, message: String| ScenarioError::Invalid {
            at: Place::file(&self.source.path).key(key),
            message,
        };
        let count = self.cell_count();
        let index = match choice {
            CellChoice::Baseline => self.baseline,
            CellChoice::Index(i) if *i < count => *i,
            CellChoice::Index(i) => {
                return Err(err(
                    "--cell",
                    format!(
                        "there is no cell {i}: the matrix has {count} cell{} (0 to {})",
                        if count == 1 { "" } else { "s" },
                        count - 1
                    ),
                ))
            }
            CellChoice::Where(pairs) => self.cell_where(pairs).map_err(|m| err("--where", m))?,
        };
        let mut cells = self.cells()?;
        Ok(cells.swap_remove(index))
    }

    /// The index of the baseline cell with the axis values of `pairs` put in.
    fn cell_where(&self, pairs: &[(String, String)]) -> Result<usize, String> {
        let count = self.cell_count();
        // The baseline's value on every axis, as mixed-radix digits.
        let mut choice = vec![0usize; self.axes.len()];
        let mut rest = self.baseline;
        for (a, axis) in self.axes.iter().enumerate().rev() {
            choice[a] = rest % axis.values.len();
            rest /= axis.values.len();
        }
        let mut named: Vec<&str> = Vec::new();
        for (path, wanted) in pairs {
            let Some(a) = self.axes.iter().position(|x| x.path == *path) else {
                let paths = self.axes.iter().map(|x| x.path.as_str());
                if self.axes.is_empty() {
                    return Err(format!(
                        "`{path}` is not a matrix axis: the scenario has no `[matrix]`, so its \
                         one cell is the unchanged one"
                    ));
                }
                let hint = match suggest(path, paths.clone()) {
                    Some(s) => format!("; did you mean `{s}`?"),
                    None => String::new(),
                };
                return Err(format!(
                    "`{path}` is not a matrix axis{hint} (axes: {})",
                    list_choices(paths)
                ));
            };
            if named.contains(&path.as_str()) {
                return Err(format!("axis `{path}` is given twice"));
            }
            named.push(path);
            let values: Vec<String> = self.axes[a]
                .values
                .iter()
                .map(|v| v.value.render())
                .collect();
            let Some(i) = values.iter().position(|v| v == wanted) else {
                return Err(format!(
                    "`{wanted}` is not a value of axis `{path}` (values: {})",
                    list_choices(values.iter().map(String::as_str))
                ));
            };
            choice[a] = i;
        }
        let index = self
            .axes
            .iter()
            .zip(&choice)
            .fold(0, |index, (axis, &c)| index * axis.values.len() + c);
        debug_assert!(index < count);
        Ok(index)
    }

    /// The stats of `base` (a cell of this scenario) and one cell per step
    /// of each: see the module docs. `all_fields`: step the fields `base`
    /// leaves at their defaults too.
    pub fn sensitivity(&self, base: Cell, which: &Selection) -> Result<Sensitivity, ScenarioError> {
        let (unit_fields, weapon_fields, options, steps, health_stats, contrary) = crate::with_ruleset!(
            self.rules.as_str(),
            R => (R::UNIT_FIELDS, R::WEAPON_FIELDS, R::OPTIONS, R::STEPS, R::HEALTH_STATS, R::CONTRARY_STATS),
            _ => unreachable!("the scenario layer accepts only known rulesets"));
        if let Some(field) = &which.in_field {
            let numeric = unit_fields
                .iter()
                .find(|f| f.name == field)
                .and_then(|f| step_of(steps, FieldTable::Unit, f))
                .is_some_and(|step| !matches!(step, crate::rules::Step::Not(_)));
            if !numeric {
                let choices = unit_fields
                    .iter()
                    .filter(|f| {
                        step_of(steps, FieldTable::Unit, f)
                            .is_some_and(|step| !matches!(step, crate::rules::Step::Not(_)))
                    })
                    .map(|f| f.name);
                return Err(ScenarioError::Invalid {
                    at: Place::file(&self.source.path).key("--in"),
                    message: format!(
                        "`{field}` is not a numeric stat-block field of `{}`, which --in \
                         states equivalent points in (valid: {})",
                        self.rules,
                        list_choices(choices)
                    ),
                });
            }
        }
        let base_label = if self.axes.is_empty() {
            "base scenario".to_owned()
        } else {
            base.label.clone()
        };
        let mut scenario = self.clone();
        scenario.root = base.root.clone();
        scenario.axes = Vec::new();
        scenario.baseline = 0;
        scenario.precision = None;
        scenario.max_rounds = base.max_rounds;

        let root = &base.root;
        let mut stats = Vec::new();
        let mut unranked = Vec::new();
        let mut cells = vec![Cell {
            index: 0,
            choice: Vec::new(),
            axis_values: Vec::new(),
            label: base_label.clone(),
            root: root.clone(),
            spans: Vec::new(),
            max_rounds: base.max_rounds,
        }];
        // One cell per step taken: the unchanged cell's tree with the one
        // value changed, if the ruleset compiles it.
        let take_steps = |stat: &mut Stat,
                          field: &Field,
                          step: crate::rules::Step,
                          value: &StatValue,
                          cells: &mut Vec<Cell>| {
            let stepped: [Stepped; 2] = neighbours(field, step, value);
            for (dir, to) in stepped.into_iter().enumerate() {
                stat.steps[dir] = to.and_then(|to| {
                    let tree = stepped_tree(root, stat, &to);
                    let label = format!("{} = {}", stat.label(), to.render());
                    self.check_cell(&tree, base.max_rounds, &label)?;
                    cells.push(Cell {
                        index: cells.len(),
                        choice: Vec::new(),
                        axis_values: Vec::new(),
                        label,
                        root: tree,
                        spans: Vec::new(),
                        max_rounds: base.max_rounds,
                    });
                    Ok((cells.len() - 1, to.render()))
                });
            }
        };
        for (side, unit) in subjects(root) {
            let shared = sides_fielding(root, &unit).len() > 1;
            let Some(unit_table) = table_at(root, &["units", &unit]) else {
                continue; // not a stat block: compiling the base said so already
            };
            let mut places: Vec<(Option<String>, &Table, &[Field], FieldTable)> =
                vec![(None, unit_table, unit_fields, FieldTable::Unit)];
            for weapon in carried(unit_table) {
                if let Some(t) = table_at(root, &["weapons", &weapon]) {
                    places.push((Some(weapon), t, weapon_fields, FieldTable::Weapon));
                }
            }
            for (weapon, table, fields, kind) in places {
                for field in fields {
                    let Some((value, step)) = stat_value(table, field, steps, kind) else {
                        continue;
                    };
                    let written = table.get(field.name).is_some();
                    let mut stat = Stat {
                        side: side.clone(),
                        unit: unit.clone(),
                        weapon: weapon.clone(),
                        field: field.name.to_owned(),
                        rule: false,
                        shared,
                        value: value.render(),
                        written,
                        health: match kind {
                            FieldTable::Unit => health_stats.iter().position(|h| *h == field.name),
                            FieldTable::Weapon | FieldTable::Options => None,
                        },
                        contrary: contrary_reason(contrary, kind, field.name),
                        steps: [Err(String::new()), Err(String::new())],
                    };
                    let named = which.in_field.as_deref() == Some(field.name)
                        && matches!(kind, FieldTable::Unit);
                    if !written && !which.all && !named {
                        stat.steps = [(); 2].map(|_| Err("left at its default".to_owned()));
                        unranked.push(stat);
                        continue;
                    }
                    take_steps(&mut stat, field, step, &value, &mut cells);
                    stats.push(stat);
                }
            }
        }
        // The rule options: every numeric one (the written ones with
        // `written_only`), whichever side it favours.
        let written_options = table_at(root, &["options"]);
        for field in options {
            let Some((value, step)) = stat_value(
                written_options.unwrap_or(&Table::default()),
                field,
                steps,
                FieldTable::Options,
            ) else {
                continue;
            };
            let written = written_options.is_some_and(|t| t.get(field.name).is_some());
            let mut stat = Stat {
                side: String::new(),
                unit: String::new(),
                weapon: None,
                field: field.name.to_owned(),
                rule: true,
                shared: false,
                value: value.render(),
                written,
                health: None,
                contrary: None,
                steps: [Err(String::new()), Err(String::new())],
            };
            if !written && which.written_only {
                stat.steps = [(); 2].map(|_| Err("left at its default".to_owned()));
                unranked.push(stat);
                continue;
            }
            take_steps(&mut stat, field, step, &value, &mut cells);
            stats.push(stat);
        }
        Ok(Sensitivity {
            scenario,
            base_label,
            cells,
            stats,
            unranked,
        })
    }

    /// Whether a stepped tree compiles; the ruleset's reason if not.
    fn check_cell(&self, root: &Table, max_rounds: u32, label: &str) -> Result<(), String> {
        let ctx = Ctx {
            source: &self.source,
            cell: Some(label),
        };
        let compiled = crate::with_ruleset!(self.rules.as_str(),
            R => compile::<R>(ctx, root, max_rounds).map(|_| ()),
            _ => unreachable!("the scenario layer accepts only known rulesets"));
        compiled.map_err(|e| match e {
            ScenarioError::Invalid { message, .. } | ScenarioError::Syntax { message, .. } => {
                format!("the ruleset refuses it: {message}")
            }
            other => other.to_string(),
        })
    }
}

/// Every (side, unit type) the sides field, in side then group order.
pub(super) fn subjects(root: &Table) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if let Some(Value::Table(sides)) = root.get("sides").map(|n| &n.value) {
        for side in &sides.entries {
            if let Value::Table(groups) = &side.node.value {
                for g in &groups.entries {
                    out.push((side.key.clone(), g.key.clone()));
                }
            }
        }
    }
    out
}

/// The sides that field unit type `unit`.
pub(super) fn sides_fielding(root: &Table, unit: &str) -> Vec<String> {
    let mut sides: Vec<String> = subjects(root)
        .into_iter()
        .filter(|(_, u)| u == unit)
        .map(|(s, _)| s)
        .collect();
    sides.dedup();
    sides
}

/// The table at `path`, if every step is a table.
pub(super) fn table_at<'a>(root: &'a Table, path: &[&str]) -> Option<&'a Table> {
    path.iter()
        .try_fold(root, |t, key| match &t.get(key)?.value {
            Value::Table(t) => Some(t),
            _ => None,
        })
}

/// The mutable table at `path`.
pub(super) fn table_at_mut<'a>(root: &'a mut Table, path: &[&str]) -> Option<&'a mut Table> {
    path.iter()
        .try_fold(root, |t, key| match &mut t.get_mut(key)?.value {
            Value::Table(t) => Some(t),
            _ => None,
        })
}

/// The weapon names a stat block lists, in order.
pub(super) fn carried(unit: &Table) -> Vec<String> {
    match unit.get("weapons").map(|n| &n.value) {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|n| match &n.value {
                Value::Str(s) => Some(s.clone()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The value of a numeric stat `field` in `table` (written, or its
/// default) and its step; `None` for fields that are not stats.
fn stat_value(
    table: &Table,
    field: &Field,
    steps: &[StatStep],
    kind: FieldTable,
) -> Option<(StatValue, crate::rules::Step)> {
    let step = step_of(steps, kind, field)?;
    if matches!(step, crate::rules::Step::Not(_)) {
        return None;
    }
    let value = match (table.get(field.name).map(|n| &n.value), field.kind) {
        (None, _) => StatValue::default_of(field)?,
        (Some(Value::Int(i)), Kind::Int { .. }) => StatValue::Int(*i),
        (Some(Value::Int(i)), Kind::Float { .. }) => StatValue::Float(*i as f64),
        (Some(Value::Float(f)), Kind::Float { .. }) => StatValue::Float(*f),
        (Some(Value::Str(s)), Kind::Dice) => StatValue::Dice(s.clone()),
        _ => return None,
    };
    Some((value, step))
}

fn as_value(v: &StatValue) -> Value {
    match v {
        StatValue::Int(i) => Value::Int(*i),
        StatValue::Float(f) => Value::Float(*f),
        StatValue::Dice(d) => Value::Str(d.clone()),
    }
}

/// A name for a copy of `name` in `table` that no entry has yet.
fn fresh_name(table: &Table, name: &str, owner: &str) -> String {
    let first = format!("{name} ({owner})");
    let mut candidate = first.clone();
    let mut n = 2;
    while table.get(&candidate).is_some() {
        candidate = format!("{first} {n}");
        n += 1;
    }
    candidate
}

/// `root` with `stat` at value `to` (see the module docs on copies).
fn stepped_tree(root: &Table, stat: &Stat, to: &StatValue) -> Table {
    let node = Node {
        value: as_value(to),
        span: 0..0,
    };
    if stat.rule {
        // `[options]` may be left out of a scenario.
        let mut tree = root.clone();
        if tree.get("options").is_none() {
            let table = Node {
                value: Value::Table(Table::default()),
                span: 0..0,
            };
            tree.set("options", table);
        }
        table_at_mut(&mut tree, &["options"])
            .expect("just made")
            .set(&stat.field, node);
        return tree;
    }
    let (mut tree, path) = own_copy(
        root,
        &stat.side,
        &stat.unit,
        stat.weapon.as_deref(),
        stat.shared,
    )
    .expect("the base compiled");
    let segments: Vec<&str> = path.split('.').collect();
    table_at_mut(&mut tree, &segments)
        .expect("own_copy names a table")
        .set(&stat.field, node);
    tree
}

/// `root` where side `side`'s groups of stat block `unit` have a stat block
/// of their own (a copy, when `shared`: other sides field it too) and, for
/// a weapon, where that stat block carries a weapon of its own (a copy of
/// `weapon`, when other stat blocks carry it too); with the dotted path of
/// the table to change (`units.NAME` or `weapons.NAME`). `None` when the tree has no such unit or weapon.
/// Everything else is `root` as it was, in the same order, so the cells
/// fight the same fights but for the value changed there.
pub(super) fn own_copy(
    root: &Table,
    side: &str,
    unit: &str,
    weapon: Option<&str>,
    shared: bool,
) -> Option<(Table, String)> {
    let mut tree = root.clone();
    let mut unit = unit.to_owned();
    if shared {
        // This side's groups get a copy of the stat block.
        let units = table_at_mut(&mut tree, &["units"])?;
        let copy = fresh_name(units, &unit, side);
        let node = units.get(&unit)?.clone();
        units.set(&copy, node);
        let groups = table_at_mut(&mut tree, &["sides", side])?;
        for entry in groups.entries.iter_mut().filter(|e| e.key == unit) {
            entry.key = copy.clone();
        }
        unit = copy;
    }
    let Some(weapon) = weapon else {
        table_at(&tree, &["units", &unit])?;
        return Some((tree, format!("units.{unit}")));
    };
    let others_carry = table_at(&tree, &["units"]).is_some_and(|units| {
        units.entries.iter().filter(|e| e.key != unit).any(
            |e| matches!(&e.node.value, Value::Table(t) if carried(t).contains(&weapon.to_owned())),
        )
    });
    let mut name = weapon.to_owned();
    if others_carry {
        let weapons = table_at_mut(&mut tree, &["weapons"])?;
        name = fresh_name(weapons, weapon, &unit);
        let copy = weapons.get(weapon)?.clone();
        weapons.set(&name, copy);
        let table = table_at_mut(&mut tree, &["units", &unit])?;
        if let Some(Node {
            value: Value::Array(items),
            ..
        }) = table.get_mut("weapons")
        {
            for item in items.iter_mut() {
                if matches!(&item.value, Value::Str(s) if s == weapon) {
                    item.value = Value::Str(name.clone());
                }
            }
        }
    }
    table_at(&tree, &["weapons", &name])?;
    Some((tree, format!("weapons.{name}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{parse, Source};

    /// Every stat, written or not (`--all`).
    const ALL: Selection = Selection {
        all: true,
        written_only: false,
        in_field: None,
    };

    fn scenario(text: &str) -> Scenario {
        parse(Source {
            path: "t.toml".into(),
            text: text.into(),
        })
        .unwrap()
    }

    const DUEL: &str = "name = \"t\"\nrules = \"trenches\"\n\
        [weapons.knife]\nkind = \"melee\"\nattack = 3\ndamage = \"1d6+1\"\n\
        [weapons.rifle]\nkind = \"firearm\"\ndamage = \"1d10\"\nrange = 100\n\
        [units.b]\nhp = 10\nweapons = [\"knife\"]\n\
        [units.r]\nhp = 8\nexhaustion = 6\nweapons = [\"rifle\", \"knife\"]\n\
        [sides.a]\nb = { count = 2 }\n\
        [sides.d]\nb = { count = 1 }\nr = { count = 1 }\n\
        [matrix]\n\"units.b.hp\" = [10, 12]\n\"options.crit\" = [\"none\", \"double-dice\"]\n";

    #[test]
    fn picks_cells_by_index_and_by_axis_values() {
        let s = scenario(DUEL);
        assert_eq!(s.pick_cell(&CellChoice::Baseline).unwrap().index, 0);
        assert_eq!(s.pick_cell(&CellChoice::Index(3)).unwrap().index, 3);
        let e = s.pick_cell(&CellChoice::Index(4)).unwrap_err().to_string();
        assert!(
            e.contains("there is no cell 4: the matrix has 4 cells (0 to 3)"),
            "{e}"
        );
        let pick = |pairs: &[(&str, &str)]| {
            s.pick_cell(&CellChoice::Where(
                pairs
                    .iter()
                    .map(|(a, v)| (a.to_string(), v.to_string()))
                    .collect(),
            ))
        };
        assert_eq!(pick(&[("options.crit", "double-dice")]).unwrap().index, 1);
        assert_eq!(pick(&[("units.b.hp", "12")]).unwrap().index, 2);
        let e = pick(&[("options.crt", "none")]).unwrap_err().to_string();
        assert!(e.contains("did you mean `options.crit`?"), "{e}");
        let e = pick(&[("options.crit", "half")]).unwrap_err().to_string();
        assert!(
            e.contains(
                "`half` is not a value of axis `options.crit` (values: `none` or `double-dice`)"
            ),
            "{e}"
        );
    }

    #[test]
    fn lists_stats_per_side_with_defaults_and_skipped_steps() {
        let s = scenario(DUEL);
        let base = s.pick_cell(&CellChoice::Index(2)).unwrap();
        let sens = s.sensitivity(base, &ALL).unwrap();
        assert_eq!(
            sens.base_label,
            "cell 2 (units.b.hp = 12, options.crit = none)"
        );
        let find = |label: &str| {
            sens.stats
                .iter()
                .find(|s| s.label() == label)
                .unwrap_or_else(|| panic!("no {label}"))
        };
        // b fights on both sides: a stat of each side's b.
        let hp = find("b (a) hp");
        assert_eq!(hp.value, "12");
        assert_eq!(hp.steps[0].as_ref().unwrap().1, "11");
        assert!(find("b (d) hp").shared);
        // A default value is a stat too.
        assert_eq!(find("b (a) armor").value, "0");
        // Range 0 means the default reach: not stepped.
        assert!(find("b (a) knife range").steps[0].is_err());
        // Exhaustion 6 is the most the field allows.
        let ex = find("r exhaustion");
        assert!(
            ex.steps[1].as_ref().unwrap_err().contains("outside"),
            "{ex:?}"
        );
        assert_eq!(find("r rifle damage").steps[1].as_ref().unwrap().1, "1d12");
        // One cell per step taken, plus the unchanged one.
        let taken: usize = sens
            .stats
            .iter()
            .map(|s| s.steps.iter().filter(|x| x.is_ok()).count())
            .sum();
        assert_eq!(sens.cells.len(), 1 + taken);
    }

    #[test]
    fn a_step_changes_one_side_and_one_value() {
        let s = scenario(DUEL);
        let base = s.pick_cell(&CellChoice::Baseline).unwrap();
        let sens = s.sensitivity(base, &ALL).unwrap();
        let stat = sens
            .stats
            .iter()
            .find(|s| s.label() == "b (d) knife attack")
            .unwrap();
        let (cell, value) = stat.steps[1].as_ref().unwrap();
        assert_eq!(value, "4");
        let tree = &sens.cells[*cell].root;
        // Side d's b is a copy carrying a copy of the knife; side a's is not.
        let d = table_at(tree, &["sides", "d"]).unwrap();
        assert_eq!(d.keys().collect::<Vec<_>>(), ["b (d)", "r"]);
        let copy = table_at(tree, &["units", "b (d)"]).unwrap();
        assert_eq!(carried(copy), ["knife (b (d))"]);
        let knife = table_at(tree, &["weapons", "knife (b (d))"]).unwrap();
        assert_eq!(knife.get("attack").unwrap().value, Value::Int(4));
        let original = table_at(tree, &["weapons", "knife"]).unwrap();
        assert_eq!(original.get("attack").unwrap().value, Value::Int(3));
        assert_eq!(
            carried(table_at(tree, &["units", "r"]).unwrap()),
            ["rifle", "knife"]
        );
    }

    /// Every example scenario: every stat either has a cell or a reason for
    /// each step, and dicestep's die sizes step along the ladder.
    #[test]
    fn every_example_scenario_steps_its_stats() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
        // Only the scenario files: scenarios/ also holds the batch-system
        // examples (scenarios/cluster/).
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .collect();
        files.sort();
        assert!(files.len() >= 5);
        for file in files {
            let s = crate::scenario::load(&file).unwrap();
            let base = s.pick_cell(&CellChoice::Baseline).unwrap();
            let sens = s
                .sensitivity(
                    base,
                    &Selection {
                        all: true,
                        ..Selection::default()
                    },
                )
                .unwrap();
            assert!(!sens.stats.is_empty(), "{}", file.display());
            for stat in &sens.stats {
                for step in &stat.steps {
                    match step {
                        Ok((cell, _)) => assert!(*cell > 0 && *cell < sens.cells.len()),
                        Err(why) => assert!(!why.is_empty(), "{}: {stat:?}", file.display()),
                    }
                }
                if s.rules == "dicestep" && stat.field == "combat" && stat.weapon.is_none() {
                    let values: Vec<&str> = stat
                        .steps
                        .iter()
                        .filter_map(|x| x.as_ref().ok().map(|v| v.1.as_str()))
                        .collect();
                    assert!(
                        values
                            .iter()
                            .all(|v| ["4", "6", "8", "10", "12"].contains(v)),
                        "{stat:?}"
                    );
                }
            }
        }
    }

    /// A copy of a shared stat block (and of a weapon) with the unchanged
    /// value fights exactly the fights of the unchanged cell: a step changes
    /// nothing but its value.
    #[test]
    fn a_copy_with_the_same_value_fights_the_same_fights() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/duel.toml");
        let s = crate::scenario::load(&path).unwrap();
        let base = s.pick_cell(&CellChoice::Baseline).unwrap();
        let sens = s.sensitivity(base.clone(), &ALL).unwrap();
        let mut cells = vec![sens.cells[0].clone()];
        for label in ["fighter (red) hp", "fighter (blue) longsword attack"] {
            let stat = sens.stats.iter().find(|x| x.label() == label).unwrap();
            let value = match stat.value.parse::<i64>() {
                Ok(i) => StatValue::Int(i),
                Err(_) => StatValue::Dice(stat.value.clone()),
            };
            let tree = stepped_tree(&base.root, stat, &value);
            assert_ne!(tree, base.root, "{label}: the copy is a different tree");
            cells.push(Cell {
                index: cells.len(),
                root: tree,
                ..sens.cells[0].clone()
            });
        }
        let plan = crate::run::plan_cells(&sens.scenario, cells).unwrap();
        let run = plan.run(4096, 99, &|_| {});
        assert_eq!(run.cells[1].tally, run.cells[0].tally);
        assert_eq!(run.cells[2].tally, run.cells[0].tally);
        assert_eq!(run.cells[1].batches, run.cells[0].batches);
    }
}
