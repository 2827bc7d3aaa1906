//! The plays `run` tries besides the scenario's own (issue 30, item 3): a
//! cheap, fixed set of alternatives that tells a designer when a side's
//! fixed play leaves it well below what it could do.
//!
//! **The alternatives.** In every cell of the run, for every side, each of
//! the engine's tactics ([`Tactic`]) and targetings ([`Targeting`]) played by
//! *every* group of that side at once (`sides.SIDE.GROUP.tactic` or
//! `.target` set on each of its groups), the other sides keeping their own
//! plays: one side changes its mind, the others do not (a unilateral
//! deviation, the test of a best response). An alternative every group
//! already plays is the side's own play and is not tried again. Each side's
//! own play is fought too, as a trial of its own, so that every alternative
//! is compared with it batch by batch on the same random numbers.
//!
//! Why side-wide and not group by group: the set stays small (at most 4 + 5
//! per side, 5 + 6 where the ruleset plays smart, whatever the number of groups) and the question it answers is
//! the common blunder (a side standing off with clubs, a side spreading its
//! fire); the full search over each group's choices and the ruleset's own
//! policies is `skirmish tactics` with a `[plays]` table.
//!
//! An alternative the ruleset refuses for a cell (it cannot be compiled) is
//! not a play there and is left out.

use super::doc::{Node, Value};
use super::matrix::Cell;
use super::sensitivity::{table_at, table_at_mut};
use super::Scenario;
use crate::engine::tactic::{SMART, TACTIC_NAMES};
use crate::engine::targeting::Targeting;

/// The group fields the check varies, with every value each can take.
/// `smart` is among them: a strong baseline is exactly what the check
/// should try.
pub const CHECKED: &[(&str, &[&str])] = &[("tactic", TACTIC_NAMES), ("target", Targeting::NAMES)];

/// One play fought in one cell: the scenario's own (`play` `None`) or one
/// side-wide alternative.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trial {
    /// The run's cell (its index in the run's matrix).
    pub cell: usize,
    /// The side that plays differently (for the own play: the side whose
    /// alternatives are compared with it).
    pub side: usize,
    /// `(field, value)` set on every group of the side, or `None`: the
    /// scenario's own play.
    pub play: Option<(String, String)>,
}

impl Scenario {
    /// The trials of the check in `cells` (see the module doc), with the
    /// cells that fight them, in the same order: per cell, per side, the
    /// own play then the alternatives in [`CHECKED`] order.
    pub fn play_trials(&self, cells: &[Cell]) -> Vec<(Trial, Cell)> {
        let mut out = Vec::new();
        for cell in cells {
            let Some(sides) = table_at(&cell.root, &["sides"]) else {
                continue;
            };
            let side_names: Vec<String> = sides.keys().map(str::to_string).collect();
            for (s, side) in side_names.iter().enumerate() {
                let groups: Vec<String> = table_at(sides, &[side.as_str()])
                    .map(|t| {
                        t.entries
                            .iter()
                            .filter(|e| matches!(e.node.value, Value::Table(_)))
                            .map(|e| e.key.clone())
                            .collect()
                    })
                    .unwrap_or_default();
                if groups.is_empty() {
                    continue;
                }
                let trial = |play| Trial {
                    cell: cell.index,
                    side: s,
                    play,
                };
                out.push((trial(None), cell.clone()));
                for &(field, values) in CHECKED {
                    let current: Vec<String> = groups
                        .iter()
                        .map(|g| current_value(cell, side, g, field))
                        .collect();
                    for value in values.iter().copied() {
                        if current.iter().all(|c| c == value) {
                            continue;
                        }
                        let mut changed = cell.clone();
                        let side_table = table_at_mut(&mut changed.root, &["sides", side])
                            .expect("the side was just read");
                        for g in &groups {
                            if let Some(Node {
                                value: Value::Table(group),
                                span,
                            }) = side_table.get_mut(g)
                            {
                                let span = span.clone();
                                group.set(
                                    field,
                                    Node {
                                        value: Value::Str(value.to_string()),
                                        span,
                                    },
                                );
                            }
                        }
                        changed.label = format!(
                            "{} with every group of `{side}` on {field} = \"{value}\"",
                            cell.label
                        );
                        out.push((trial(Some((field.to_string(), value.to_string()))), changed));
                    }
                }
            }
        }
        out
    }
}

/// A group's value of `field` in `cell`: as written, else the default.
fn current_value(cell: &Cell, side: &str, group: &str, field: &str) -> String {
    let written = |field| {
        table_at(&cell.root, &["sides", side, group])
            .and_then(|g| g.get(field))
            .map(|n| n.value.render())
    };
    // An unwritten `target` is `smart` under `tactic = "smart"`.
    if field == "target"
        && written("target").is_none()
        && written("tactic").as_deref() == Some(SMART)
    {
        return SMART.to_string();
    }
    written(field)
        .or_else(|| {
            crate::engine::SIDE_ENTRY_FIELDS
                .iter()
                .find(|f| f.name == field)
                .and_then(|f| f.default)
                .map(|d| d.render())
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use crate::scenario::{parse, Source};

    #[test]
    fn every_side_gets_its_own_play_and_each_alternative_once() {
        let s = parse(Source {
            path: "t.toml".into(),
            text: r#"
name = "t"
rules = "escalation"
[weapons.sword]
damage = "1d8"
[units.fighter]
hp = 10
weapons = ["sword"]
[sides.red]
fighter = { count = 2, tactic = "hold" }
[sides.blue]
fighter = { count = 1 }
[matrix]
"units.fighter.hp" = [5, 10]
"#
            .into(),
        })
        .unwrap();
        let cells = s.cells().unwrap();
        let trials = s.play_trials(&cells);
        // Per cell and side: the own play, 3 other tactics and smart, 4
        // other targets and smart (escalation plays smart).
        let tactics = crate::engine::tactic::Tactic::NAMES.len();
        let targets = crate::engine::targeting::Targeting::NAMES.len() - 1;
        assert_eq!(trials.len(), 2 * 2 * (1 + tactics + targets));
        let red: Vec<_> = trials
            .iter()
            .filter(|(t, _)| t.cell == 1 && t.side == 0)
            .collect();
        assert_eq!(red[0].0.play, None);
        assert!(!red
            .iter()
            .any(|(t, _)| t.play == Some(("tactic".into(), "hold".into()))));
        let (_, advance) = red
            .iter()
            .find(|(t, _)| t.play == Some(("tactic".into(), "advance".into())))
            .unwrap();
        let group = super::table_at(&advance.root, &["sides", "red", "fighter"]).unwrap();
        assert_eq!(group.get("tactic").unwrap().value.render(), "advance");
        assert_eq!(group.get("count").unwrap().value.render(), "2");
        // The other side keeps its play.
        let blue = super::table_at(&advance.root, &["sides", "blue", "fighter"]).unwrap();
        assert!(blue.get("tactic").is_none());
    }

    #[test]
    fn smart_is_tried_where_the_ruleset_plays_it() {
        let s = parse(Source {
            path: "t.toml".into(),
            text: r#"
name = "t"
rules = "trenches"
[weapons.club]
kind = "melee"
damage = "1d6"
[units.raider]
hp = 10
weapons = ["club"]
[sides.red]
raider = { count = 1, tactic = "smart" }
[sides.blue]
raider = { count = 1 }
"#
            .into(),
        })
        .unwrap();
        let cells = s.cells().unwrap();
        let trials = s.play_trials(&cells);
        let plays = |side| -> Vec<_> {
            trials
                .iter()
                .filter(|(t, _)| t.side == side)
                .filter_map(|(t, _)| t.play.clone())
                .collect()
        };
        let smart = |f: &str| Some((f.to_string(), "smart".to_string()));
        // Red plays smart (its target unwritten: smart): neither is tried again.
        assert!(!plays(0).iter().any(|p| Some(p.clone()) == smart("tactic")));
        assert!(!plays(0).iter().any(|p| Some(p.clone()) == smart("target")));
        assert!(plays(0).contains(&("target".into(), "random".into())));
        // Blue does not: both smarts are alternatives.
        assert!(plays(1).contains(&("tactic".into(), "smart".into())));
        assert!(plays(1).contains(&("target".into(), "smart".into())));
    }
}
