//! Watching one fight of a run: which fight (a cell and a fight number, or a
//! fight picked for what it shows), and the fight told event by event, for
//! people ([`narrate`]) or for tools ([`json`]).
//!
//! The fight itself comes from [`crate::run::Plan::watch`]: fight `K` of a
//! cell is fight `K % size` of batch `K / size` (`size` the run's batch
//! size), fought from that batch's stream after the fights before it, so it
//! is the very fight the run tallied. The kernel reports what happens
//! through its observer ([`crate::engine::observe`]); this module only
//! finds fights and puts events into words.

pub mod json;
pub mod narrate;
pub mod pick;

use crate::engine::observe::NOBODY;
use crate::results::{RunResults, ShownFight, Streams};
use crate::run::{Plan, Tape};

pub use pick::{pick, Pick, PickError};

/// Who is who in a fight: unit names and sides, for the words.
#[derive(Clone, Debug)]
pub struct Roster {
    /// Side names, in scenario order.
    pub sides: Vec<String>,
    /// Each unit's name and side index, in encounter order.
    pub units: Vec<(String, u8)>,
    /// The ruleset's unit of distance on the front (`m`, `ft`, ...).
    pub distance_unit: &'static str,
}

impl Roster {
    /// Unit `i`'s name; a name that units of several sides share gets its
    /// side added (`fighter (blue)`), so every name says who it is.
    pub fn unit(&self, i: u8) -> String {
        if i == NOBODY {
            return String::new();
        }
        let Some((name, side)) = self.units.get(i as usize) else {
            return format!("unit {i}");
        };
        let shared = self.units.iter().any(|(n, s)| n == name && s != side);
        if shared {
            format!("{name} ({})", self.side(*side))
        } else {
            name.clone()
        }
    }

    /// Unit `i`'s side index.
    pub fn side_of(&self, i: u8) -> Option<u8> {
        self.units.get(i as usize).map(|u| u.1)
    }

    /// Side `s`'s name.
    pub fn side(&self, s: u8) -> &str {
        self.sides.get(s as usize).map_or("?", String::as_str)
    }
}

/// One fight to show: where it is in the run, and what happened.
#[derive(Clone, Debug)]
pub struct Watched {
    /// The cell's index and a label of its axis values (empty without a
    /// matrix).
    pub cell: usize,
    pub cell_label: String,
    /// The fight's number within the cell (0-based).
    pub fight: u64,
    /// The run's batch size (fight `fight` is fight `fight % size` of batch
    /// `fight / size`).
    pub batch_size: u32,
    pub seed: u64,
    pub tape: Tape,
}

/// Who is who in cell `cell` of `plan`.
pub fn roster(plan: &Plan, cell: usize) -> Roster {
    Roster {
        sides: plan.info.sides.iter().map(|s| s.name.clone()).collect(),
        units: plan.unit_names.get(cell).cloned().unwrap_or_default(),
        distance_unit: crate::with_ruleset!(plan.info.rules.as_str(), R => <R as crate::rules::Ruleset>::DISTANCE_UNIT,
            _ => ""),
    }
}

/// Cell `cell`'s axis values as `axis = value, ...` (empty without a matrix).
pub fn cell_label(plan: &Plan, cell: usize) -> String {
    plan.info
        .axes
        .iter()
        .zip(plan.cells.get(cell).map_or(&[][..], Vec::as_slice))
        .map(|(axis, value)| format!("{axis} = {value}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Fight `fight` of cell `cell` of the run of `plan` with `seed`,
/// `streams` and batches of `size`, fought again and recorded.
pub fn watch(
    plan: &Plan,
    cell: usize,
    seed: u64,
    streams: Streams,
    size: u32,
    fight: u64,
) -> Watched {
    Watched {
        cell,
        cell_label: cell_label(plan, cell),
        fight,
        batch_size: size,
        seed,
        tape: plan.watch(cell, seed, streams, size, fight),
    }
}

/// The fights `fights.md` shows for a run's `results` (of `plan`, in
/// batches of `size`): a typical fight and an upset of the baseline cell.
pub fn shown_fights(plan: &Plan, results: &RunResults, size: u32) -> Vec<ShownFight> {
    let info = &results.scenario;
    let cell = info.baseline;
    let Some(result) = results.cells.get(cell) else {
        return Vec::new();
    };
    let sides: Vec<String> = info.sides.iter().map(|s| s.name.clone()).collect();
    let roster = roster(plan, cell);
    [Pick::Typical, Pick::Upset]
        .into_iter()
        .map(|which| {
            let picked = pick(
                plan,
                cell,
                info.seed,
                info.streams,
                size,
                &result.tally,
                &sides,
                which,
            );
            match picked {
                Ok(k) => {
                    let watched = watch(plan, cell, info.seed, info.streams, size, k);
                    ShownFight {
                        pick: which.name().to_string(),
                        cell,
                        fight: Some(k),
                        text: narrate::narrate(&watched, &roster, false),
                    }
                }
                Err(e) => ShownFight {
                    pick: which.name().to_string(),
                    cell,
                    fight: None,
                    text: format!("{}.", capitalise_first(&e.to_string())),
                },
            }
        })
        .collect()
}

fn capitalise_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
