//! The data every output of the report layer reads: [`Report`] (one run and
//! its per-cell statistics, for cells.csv, rounds.csv, the charts and
//! summary.md) and [`Diff`] (two reports compared, for diff.csv, diff.md and
//! diff.png), plus [`ReportFile`], one rendered file.
//!
//! A leaf of the layer: tables, charts and documents import it, it imports
//! none of them, so no two parts of the report layer import each other.

use super::error::ReportError;
use crate::analysis::{self, Comparison, Difference, Interval, Summary};
use crate::engine::tally::{MAX_COUNTERS, MAX_SIDES};
use crate::results::{CellResult, RunResults, ScenarioInfo, ShownFight};

/// How many cells "Largest effects" in summary.md lists.
pub(crate) const LARGEST_EFFECTS: usize = 5;

/// One rendered file of a report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportFile {
    /// File name inside the report folder, e.g. `cells.csv`.
    pub name: &'static str,
    pub bytes: Vec<u8>,
}

/// What every output module reads: the run plus its per-cell summaries.
pub(crate) struct Report<'a> {
    pub(crate) info: &'a ScenarioInfo,
    pub(crate) cells: &'a [CellResult],
    /// Fights told turn by turn (fights.md).
    pub(crate) fights: &'a [ShownFight],
    /// One per cell, in cell order.
    pub(crate) summaries: Vec<Summary>,
    /// Each cell compared with the baseline cell, in cell order.
    pub(crate) comparisons: Vec<Comparison>,
}

impl<'a> Report<'a> {
    pub(crate) fn new(results: &'a RunResults) -> Result<Self, ReportError> {
        validate(results)?;
        let info = &results.scenario;
        let summaries = results
            .cells
            .iter()
            .map(|c| analysis::summarize(&c.tally, info.sides.len(), info.counters.len()))
            .collect::<Vec<Summary>>();
        let pairs: Vec<(&Summary, &[crate::engine::BatchStat])> = summaries
            .iter()
            .zip(&results.cells)
            .map(|(s, c)| (s, c.batches.as_slice()))
            .collect();
        let comparisons = analysis::compare_all(&pairs, info.baseline);
        Ok(Report {
            info,
            cells: &results.cells,
            fights: &results.fights,
            summaries,
            comparisons,
        })
    }
}

/// Checks the invariants the outputs rely on, so they can index freely.
fn validate(results: &RunResults) -> Result<(), ReportError> {
    let info = &results.scenario;
    let fail = |msg: String| Err(ReportError::Inconsistent(msg));
    if results.cells.is_empty() {
        return fail("no cells".to_owned());
    }
    if info.baseline >= results.cells.len() {
        return fail(format!(
            "baseline cell {} of {} cells",
            info.baseline,
            results.cells.len()
        ));
    }
    if info.sides.is_empty() || info.sides.len() > MAX_SIDES {
        return fail(format!(
            "{} sides (expected 1 to {MAX_SIDES})",
            info.sides.len()
        ));
    }
    if info.counters.len() > MAX_COUNTERS {
        return fail(format!(
            "{} counters (at most {MAX_COUNTERS})",
            info.counters.len()
        ));
    }
    for (position, cell) in results.cells.iter().enumerate() {
        if cell.index != position {
            return fail(format!(
                "cell at position {position} has index {}",
                cell.index
            ));
        }
        if cell.axis_values.len() != info.axes.len() {
            return fail(format!(
                "cell {position} has {} axis values for {} axes",
                cell.axis_values.len(),
                info.axes.len()
            ));
        }
    }
    Ok(())
}

/// One cell's change in one side's win rate.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub cell: usize,
    pub values: Vec<String>,
    pub side: String,
    pub old: f64,
    pub new: f64,
    /// The Wilson 95% intervals of `old` and `new` (how many of their digits
    /// to print).
    pub old_ci: Interval,
    pub new_ci: Interval,
    /// `new − old` with Newcombe's 95% interval.
    pub difference: Difference,
    /// The interval excludes zero.
    pub moved: bool,
}

/// The comparison of two reports.
#[derive(Clone, Debug, PartialEq)]
pub struct Diff {
    pub name: String,
    pub axes: Vec<String>,
    pub old: String,
    pub new: String,
    /// Every (cell, side), cells in order, sides in order.
    pub changes: Vec<Change>,
}

impl Diff {
    /// The changes that moved beyond their joint uncertainty.
    pub fn moved(&self) -> impl Iterator<Item = &Change> {
        self.changes.iter().filter(|c| c.moved)
    }
}
