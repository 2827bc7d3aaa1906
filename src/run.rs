//! The runner: compile every cell of a scenario, then fight all cells in
//! parallel, deterministically.
//!
//! Work is split into (cell, batch) items of [`BATCH`] fights. Batch `b` of
//! every cell draws from the stream seeded by `(seed, b)` alone, so results
//! do not depend on the thread count or on scheduling, and all cells share
//! random numbers batch by batch (common random numbers: differences between
//! cells are far less noisy than between independent runs). Tallies are
//! integers merged with `+=`, so the reduction order cannot change a result.

use std::sync::Mutex;

use rayon::prelude::*;

use crate::dice::RngDice;
use crate::engine::{BatchStat, Encounter, Fight, Tally};
use crate::results::{CellResult, RunResults, ScenarioInfo, SideInfo};
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
        max_rounds: scenario.max_rounds,
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
    compile::<R>(ctx, &cell.root, scenario.max_rounds).map_err(|e| {
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

impl Plan {
    /// Total fights a run of `fights` per cell will fight.
    pub fn total_fights(&self, fights: u64) -> u64 {
        fights * self.cells.len() as u64
    }

    /// Fight `fights` fights in every cell with `seed`, on the current rayon
    /// pool, calling `progress` with the fights done after each batch.
    pub fn run(&self, fights: u64, seed: u64, progress: &(dyn Fn(u64) + Sync)) -> RunResults {
        let batches = fights.div_ceil(BATCH as u64);
        let n_cells = self.cells.len();
        let acc: Vec<Mutex<(Tally, Vec<BatchStat>)>> = (0..n_cells)
            .map(|_| {
                Mutex::new((
                    Tally::default(),
                    vec![BatchStat::default(); batches as usize],
                ))
            })
            .collect();
        (0..n_cells as u64 * batches)
            .into_par_iter()
            .for_each(|item| {
                let cell = (item / batches) as usize;
                let batch = item % batches;
                let size = (fights - batch * BATCH as u64).min(BATCH as u64) as u32;
                let mut tally = Tally::default();
                self.sim.batch(cell, seed, batch, size, &mut tally);
                let stat = batch_stat(&tally);
                {
                    // Poisoning needs a panic inside this block, which only
                    // integer addition runs; recover the data regardless.
                    let mut slot = acc[cell].lock().unwrap_or_else(|p| p.into_inner());
                    slot.0 += &tally;
                    slot.1[batch as usize] = stat;
                }
                progress(size as u64);
            });
        let cells = acc
            .into_iter()
            .zip(&self.cells)
            .enumerate()
            .map(|(index, (m, values))| {
                let (tally, batches) = m.into_inner().unwrap_or_else(|p| p.into_inner());
                CellResult {
                    index,
                    axis_values: values.clone(),
                    tally,
                    batches,
                }
            })
            .collect();
        let mut info = self.info.clone();
        info.seed = seed;
        info.fights = fights;
        RunResults {
            scenario: info,
            cells,
        }
    }
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
