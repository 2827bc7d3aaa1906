//! The runner: compile every cell of a scenario, then fight all cells in
//! parallel, deterministically: a fixed number of fights per cell, or (with a
//! precision target) rounds of batches until every cell is precise enough.
//!
//! Work is split into (cell, batch) items of [`BATCH`] fights. Batch `b` of
//! every cell draws from the stream seeded by `(seed, b)` alone, so results
//! do not depend on the thread count or on scheduling, and all cells share
//! random numbers batch by batch (common random numbers: differences between
//! cells are far less noisy than between independent runs). Tallies are
//! integers merged with `+=`, so the reduction order cannot change a result.

use std::sync::Mutex;

use rayon::prelude::*;

use crate::analysis::{self, batch_means::half_width};
use crate::dice::RngDice;
use crate::engine::{BatchStat, Encounter, Fight, Tally};
use crate::results::{CellResult, Precision, RunResults, ScenarioInfo, SideInfo, Streams};
use crate::rules::Ruleset;
use crate::scenario::compile::{compile, Compiled};
use crate::scenario::schema::Ctx;
use crate::scenario::{Cell, Scenario, ScenarioError};

/// Fights per batch: the unit of parallel work, of random streams and of
/// the per-batch statistics kept for paired comparisons.
pub const BATCH: u32 = 4096;

/// A scenario with every cell compiled and checked: ready to fight.
pub struct Plan {
    pub info: ScenarioInfo,
    /// Each cell's axis values, in cell order.
    pub cells: Vec<Vec<String>>,
    sim: Box<dyn Simulate>,
}

/// One cell's batches, for one ruleset; the only dynamic dispatch is here,
/// once per batch, so the fight loop itself is monomorphised.
trait Simulate: Send + Sync {
    fn batch(&self, cell: usize, seed: u64, batch: u64, fights: u32, tally: &mut Tally);
}

struct Cells<R: Ruleset> {
    encounters: Vec<Encounter<R>>,
}

impl<R: Ruleset> Simulate for Cells<R> {
    fn batch(&self, cell: usize, seed: u64, batch: u64, fights: u32, tally: &mut Tally) {
        let mut dice = RngDice::for_batch(seed, batch);
        let mut fight = Fight::<R>::new();
        fight.run_into(&self.encounters[cell], &mut dice, fights, tally);
    }
}

/// Compile every cell of `scenario` (this is `skirmish validate`).
pub fn plan(scenario: &Scenario) -> Result<Plan, ScenarioError> {
    crate::with_ruleset!(scenario.rules.as_str(), R => plan_for::<R>(scenario),
        _ => unreachable!("the scenario layer accepts only known rulesets"))
}

fn plan_for<R: Ruleset>(scenario: &Scenario) -> Result<Plan, ScenarioError> {
    let cells = scenario.cells()?;
    // The report's round cap: the largest, when `max_rounds` is an axis.
    let max_rounds = cells
        .iter()
        .map(|c| c.max_rounds)
        .max()
        .unwrap_or(scenario.max_rounds);
    let mut encounters = Vec::with_capacity(cells.len());
    let mut first: Option<Compiled<R>> = None;
    for cell in &cells {
        let compiled = compile_cell::<R>(scenario, cell)?;
        encounters.push(compiled.encounter);
        if first.is_none() {
            first = Some(compiled);
        }
    }
    // Describe the base scenario; if only the matrix makes it valid, the
    // first cell.
    let base = compile::<R>(scenario.ctx(), &scenario.root, scenario.max_rounds).ok();
    let described = base.or(first).expect("a matrix has at least one cell");
    let info = ScenarioInfo {
        name: scenario.name.clone(),
        description: scenario.description.clone(),
        rules: R::NAME.to_string(),
        seed: scenario.seed,
        fights: scenario.fights,
        max_rounds,
        sides: described
            .sides
            .iter()
            .map(|s| SideInfo {
                name: s.name.clone(),
                units: s.groups.clone(),
            })
            .collect(),
        axes: scenario.axes.iter().map(|a| a.path.clone()).collect(),
        counters: R::COUNTERS.to_vec(),
        options: described.options.clone(),
        baseline: scenario.baseline,
        streams: Streams::Common,
        precision: None,
    };
    Ok(Plan {
        info,
        cells: cells.into_iter().map(|c| c.axis_values).collect(),
        sim: Box::new(Cells { encounters }),
    })
}

/// Compile one cell; errors caused by an axis value name the cell.
fn compile_cell<R: Ruleset>(
    scenario: &Scenario,
    cell: &Cell,
) -> Result<Compiled<R>, ScenarioError> {
    let ctx = Ctx {
        source: &scenario.source,
        cell: None,
    };
    compile::<R>(ctx, &cell.root, cell.max_rounds).map_err(|e| {
        // An error inside a value the matrix put in (an axis value, or an
        // item of a list value) belongs to the cell.
        let line_col = |offset| scenario.source.line_col(offset);
        let from_axis = e.place().and_then(|p| p.line_col).is_some_and(|at| {
            cell.spans
                .iter()
                .any(|s| line_col(s.start) <= at && at < line_col(s.end))
        });
        if from_axis {
            e.in_cell(&cell.label)
        } else {
            e
        }
    })
}

/// Starting batches of a cell under a precision target (batch means need a
/// few batches before their spread means anything).
pub const PRECISION_MIN_BATCHES: u64 = 8;
/// Fewest batches an unfinished cell gains in a round of a precision run.
pub const PRECISION_STEP: u64 = 8;

/// How a run decides how many fights each cell gets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Exactly this many fights per cell.
    Fights(u64),
    /// Start with `fights` per cell (at least [`PRECISION_MIN_BATCHES`]
    /// batches), then add batches until [`crate::analysis::precise_enough`]
    /// or the cap.
    Precision {
        fights: u64,
        target: f64,
        max_fights: u64,
    },
}

/// One cell's fights so far.
#[derive(Clone)]
struct Acc {
    tally: Tally,
    batches: Vec<BatchStat>,
}

impl Plan {
    /// Total fights a run of `fights` per cell will fight.
    pub fn total_fights(&self, fights: u64) -> u64 {
        fights * self.cells.len() as u64
    }

    /// Fight `fights` fights in every cell with `seed`, on the current rayon
    /// pool, calling `progress` with the fights done after each batch.
    pub fn run(&self, fights: u64, seed: u64, progress: &(dyn Fn(u64) + Sync)) -> RunResults {
        self.run_with(Budget::Fights(fights), seed, Streams::Common, progress)
    }

    /// Fight every cell under `budget`, with common or independent random
    /// streams, on the current rayon pool.
    ///
    /// A precision run proceeds in rounds: after each round the statistics of
    /// every cell (all its batches so far) decide which cells are not yet
    /// precise enough, and each of those is given more whole batches (enough
    /// to reach the target if the half-width shrinks like 1/√batches, at least
    /// [`PRECISION_STEP`], at most up to the cap). The baseline always has at
    /// least as many batches as any cell, so every difference is paired over
    /// all of the cell's batches. Decisions depend only on the results of
    /// whole rounds, never on timing, so the result is the same at any thread
    /// count.
    pub fn run_with(
        &self,
        budget: Budget,
        seed: u64,
        streams: Streams,
        progress: &(dyn Fn(u64) + Sync),
    ) -> RunResults {
        let n_cells = self.cells.len();
        let batch = BATCH as u64;
        let mut acc = vec![
            Acc {
                tally: Tally::default(),
                batches: Vec::new(),
            };
            n_cells
        ];
        let mut capped = vec![false; n_cells];
        let precision = match budget {
            Budget::Fights(fights) => {
                let sizes = batch_sizes(fights);
                self.fight(&mut acc, &vec![sizes; n_cells], seed, streams, progress);
                None
            }
            Budget::Precision {
                fights,
                target,
                max_fights,
            } => {
                let cap = max_fights.div_ceil(batch).max(1);
                let start = fights.div_ceil(batch).max(PRECISION_MIN_BATCHES).min(cap);
                let mut wanted = vec![start; n_cells];
                loop {
                    let plan: Vec<Vec<u32>> = wanted
                        .iter()
                        .zip(&acc)
                        .map(|(&w, a)| vec![BATCH; (w as usize).saturating_sub(a.batches.len())])
                        .collect();
                    if plan.iter().all(Vec::is_empty) {
                        break;
                    }
                    self.fight(&mut acc, &plan, seed, streams, progress);
                    wanted = self.next_batches(&acc, target, cap, &mut capped);
                }
                Some(Precision { target, max_fights })
            }
        };
        let cells = acc
            .into_iter()
            .zip(&self.cells)
            .zip(capped)
            .enumerate()
            .map(|(index, ((a, values), capped))| CellResult {
                index,
                axis_values: values.clone(),
                tally: a.tally,
                batches: a.batches,
                capped,
            })
            .collect();
        let mut info = self.info.clone();
        info.seed = seed;
        info.fights = match budget {
            Budget::Fights(f) | Budget::Precision { fights: f, .. } => f,
        };
        info.streams = streams;
        info.precision = precision;
        RunResults {
            scenario: info,
            cells,
        }
    }

    /// How many batches each cell should have after the next round of a
    /// precision run (equal to what it has: done). Marks cells that are
    /// unfinished but at the cap.
    fn next_batches(&self, acc: &[Acc], target: f64, cap: u64, capped: &mut [bool]) -> Vec<u64> {
        let sides = self.info.sides.len();
        let summaries: Vec<analysis::Summary> = acc
            .iter()
            .map(|a| analysis::summarize(&a.tally, sides, 0))
            .collect();
        let pairs: Vec<(&analysis::Summary, &[BatchStat])> = summaries
            .iter()
            .zip(acc)
            .map(|(s, a)| (s, a.batches.as_slice()))
            .collect();
        let base = self.info.baseline;
        let comparisons = analysis::compare_all(&pairs, base);
        let mut wanted: Vec<u64> = Vec::with_capacity(acc.len());
        for (i, ((s, c), a)) in summaries.iter().zip(&comparisons).zip(acc).enumerate() {
            let have = a.batches.len() as u64;
            if analysis::precise_enough(s, c, target) {
                capped[i] = false;
                wanted.push(have);
                continue;
            }
            // Half-widths shrink like 1/√batches: aim for the widest.
            let widest = s
                .wins
                .iter()
                .map(|p| half_width(&p.ci))
                .chain(c.win_rates.iter().map(|d| half_width(&d.ci)))
                .fold(0.0f64, f64::max);
            let ratio = (widest / target).powi(2);
            let aim = if ratio.is_finite() {
                (have as f64 * ratio).ceil().min(cap as f64) as u64
            } else {
                cap
            };
            let next = aim.max(have + PRECISION_STEP).min(cap);
            capped[i] = next == have;
            wanted.push(next);
        }
        // The baseline keeps up with every cell, so all pairs are complete.
        let most = wanted.iter().copied().max().unwrap_or(0);
        if let Some(w) = wanted.get_mut(base) {
            *w = (*w).max(most);
        }
        wanted
    }

    /// Fight the batches in `plan[cell]` (their sizes), appended after each
    /// cell's existing batches, in parallel over (cell, batch).
    fn fight(
        &self,
        acc: &mut [Acc],
        plan: &[Vec<u32>],
        seed: u64,
        streams: Streams,
        progress: &(dyn Fn(u64) + Sync),
    ) {
        let items: Vec<(usize, u64, u32)> = plan
            .iter()
            .enumerate()
            .flat_map(|(cell, sizes)| {
                let first = acc[cell].batches.len() as u64;
                sizes
                    .iter()
                    .enumerate()
                    .map(move |(k, &size)| (cell, first + k as u64, size))
            })
            .collect();
        let slots: Vec<Mutex<&mut Acc>> = acc
            .iter_mut()
            .zip(plan)
            .map(|(a, sizes)| {
                let len = a.batches.len() + sizes.len();
                a.batches.resize(len, BatchStat::default());
                Mutex::new(a)
            })
            .collect();
        items.par_iter().for_each(|&(cell, batch, size)| {
            let stream = match streams {
                Streams::Common => batch,
                // A stream of its own per (cell, batch): cell + 1 in the high
                // bits keeps it apart from every common stream.
                Streams::Independent => ((cell as u64 + 1) << 40) | batch,
            };
            let mut tally = Tally::default();
            self.sim.batch(cell, seed, stream, size, &mut tally);
            let stat = batch_stat(&tally);
            {
                // Poisoning needs a panic inside this block, which only
                // integer addition runs; recover the data regardless.
                let mut slot = slots[cell].lock().unwrap_or_else(|p| p.into_inner());
                slot.tally += &tally;
                slot.batches[batch as usize] = stat;
            }
            progress(u64::from(size));
        });
    }
}

/// The sizes of the batches of `fights` fights: full batches, the last one
/// partial.
fn batch_sizes(fights: u64) -> Vec<u32> {
    let batch = BATCH as u64;
    (0..fights.div_ceil(batch))
        .map(|b| (fights - b * batch).min(batch) as u32)
        .collect()
}

fn batch_stat(t: &Tally) -> BatchStat {
    let mut wins = [0u32; crate::engine::MAX_SIDES];
    for (w, &t) in wins.iter_mut().zip(&t.wins) {
        *w = t as u32;
    }
    BatchStat {
        fights: t.fights as u32,
        wins,
        draws: t.draws as u32,
        rounds: t
            .rounds
            .iter()
            .enumerate()
            .map(|(r, &n)| r as u64 * n)
            .sum::<u64>() as u32,
    }
}
