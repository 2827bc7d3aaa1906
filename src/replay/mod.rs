//! Watching one fight of a run: which fight (a cell and a fight number, or a
//! fight picked for what it shows), and the fight told event by event, for
//! people ([`narrate`]) or for tools ([`json`]).
//!
//! The fight itself comes from [`crate::run::Plan::watch`]: fight `K` of a
//! cell is fight `K % size` of batch `K / size` (`size` the run's batch
//! size), fought from that batch's stream after the fights before it, so it
//! is the very fight the run tallied. The kernel reports what happens
//! through its observer ([`crate::engine::observe`]); this module only
//! finds fights and puts events into words, and, for `fights.md`, gives
//! each fight the command that replays it ([`command`]) and keeps a long
//! one short ([`narrate::narrate_within`]).

pub mod command;
pub mod json;
pub mod narrate;
pub mod pick;
pub mod places;

use std::path::Path;

use crate::engine::observe::NOBODY;
use crate::results::{RunResults, ShownFight, Streams};
use crate::run::{Plan, Tape};

pub use pick::{pick, typical_note, Pick, PickError};

/// About how many bytes of `fights.md` one fight may take: a longer fight
/// is shown by its first rounds and its last, with the command that prints
/// it all, so that the file stays small enough to read (two fights: about
/// 40 KB at most) whatever the scenario.
pub const SHOWN_FIGHT_BYTES: usize = 16 * 1024;

/// Who is who in a fight: unit names and sides, for the words.
#[derive(Clone, Debug)]
pub struct Roster {
    /// Side names, in scenario order.
    pub sides: Vec<String>,
    /// Each unit's name and side index, in encounter order.
    pub units: Vec<(String, u8)>,
    /// The ruleset's unit of distance on the front (`m`, `ft`, ...).
    pub distance_unit: &'static str,
    /// Weapon names by weapon number (the scenario's `[weapons]` tables).
    pub weapons: Vec<String>,
    /// The map's scale when the fight is on a map: positions are squares.
    pub map_scale: Option<i32>,
    /// On a map, each unit's start square, in encounter order (empty on the
    /// front).
    pub starts: Vec<crate::map::Square>,
}

/// How a replay writes a square of a map: `[column,row]`, both counted
/// from 1, columns from the left and rows from the top (the map's first
/// line is row 1), as `map.png`, `falls.png`, fights.md's pictures and
/// the errors on a map and a scenario's `at` count them.
pub fn square(s: crate::map::Square) -> String {
    format!("[{},{}]", s.x as u32 + 1, s.y as u32 + 1)
}

/// The line a replay's heading gives on a map, saying how [`square`]
/// counts.
pub const SQUARES_NOTE: &str = "Squares are [column,row]: columns count from 1 at the left, rows \
     from 1 at the top (the map's first line) down, as a scenario's `at` counts them.";

impl Roster {
    /// Unit `i`'s name. Units of a stat block that several sides field all
    /// get their side added (`soldier 1 (red)`, ..., `soldier 4 (blue)`,
    /// even when only blue has a fourth), so every name says who it is and
    /// one stat block's units are all named alike.
    pub fn unit(&self, i: u8) -> String {
        if i == NOBODY {
            return String::new();
        }
        let Some((name, side)) = self.units.get(i as usize) else {
            return format!("unit {i}");
        };
        let block = stat_block(name);
        let shared = self
            .units
            .iter()
            .any(|(n, s)| s != side && stat_block(n) == block);
        if shared {
            format!("{name} ({})", self.side(*side))
        } else {
            name.clone()
        }
    }

    /// Weapon number `w`'s name.
    pub fn weapon(&self, w: u16) -> String {
        self.weapons
            .get(w as usize)
            .cloned()
            .unwrap_or_else(|| format!("weapon {w}"))
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

/// The stat block a unit's name comes from: the name without the number a
/// group of several gets (`soldier 4` → `soldier`).
fn stat_block(name: &str) -> &str {
    match name.rsplit_once(' ') {
        Some((block, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => block,
        _ => name,
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
        weapons: plan.weapon_names.get(cell).cloned().unwrap_or_default(),
        map_scale: plan.map_scale.get(cell).copied().flatten(),
        starts: plan
            .maps
            .get(cell)
            .and_then(|m| m.as_ref())
            .map_or_else(Vec::new, |m| m.starts.clone()),
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
/// batches of `size`, from the scenario file at `scenario`, for the report
/// folder `report_dir`, on which the command's path is anchored): a typical
/// fight and an upset of the baseline cell, each with the command that
/// replays it, and a long fight cut to about [`SHOWN_FIGHT_BYTES`].
pub fn shown_fights(
    plan: &Plan,
    results: &RunResults,
    size: u32,
    scenario: &Path,
    report_dir: &Path,
) -> Vec<ShownFight> {
    let info = &results.scenario;
    let cell = info.baseline;
    let Some(result) = results.cells.get(cell) else {
        return Vec::new();
    };
    let sides: Vec<String> = info.sides.iter().map(|s| s.name.clone()).collect();
    let roster = roster(plan, cell);
    let path = command::shown_path(scenario, report_dir);
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
            let note = match which {
                Pick::Typical => typical_note(&result.tally, &sides),
                _ => None,
            };
            match picked {
                Ok(k) => {
                    let watched = watch(plan, cell, info.seed, info.streams, size, k);
                    let command = command::replay_command(&path, info, cell, k);
                    let (start, end) = places::start_and_end(plan, cell, &watched.tape.events);
                    ShownFight {
                        start,
                        end,
                        pick: which.name().to_string(),
                        cell,
                        fight: Some(k),
                        text: narrate::narrate_within(
                            &watched,
                            &roster,
                            SHOWN_FIGHT_BYTES,
                            &command,
                        ),
                        command,
                        note,
                    }
                }
                Err(e) => ShownFight {
                    pick: which.name().to_string(),
                    cell,
                    fight: None,
                    text: format!("{}.", capitalise_first(&e.to_string())),
                    command: String::new(),
                    note,
                    start: Vec::new(),
                    end: Vec::new(),
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
