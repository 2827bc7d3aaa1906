//! The data every output of the report layer reads: [`Report`] (one run and
//! its per-cell statistics, for cells.csv, rounds.csv, the charts and
//! summary.md) and [`Diff`] (two reports compared, for diff.csv, diff.md and
//! diff.png), plus [`ReportFile`], one rendered file.
//!
//! A leaf of the layer: tables, charts and documents import it, it imports
//! none of them, so no two parts of the report layer import each other.

use super::error::ReportError;
use crate::analysis::sensitivity::{self, Equivalence, StatCells, StatEffect};
use crate::analysis::{self, Comparison, Difference, Interval, Summary};
use crate::engine::tally::{MAX_COUNTERS, MAX_SIDES};
use crate::results::{CellResult, RunResults, ScenarioInfo, SensitivityResults, ShownFight};

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
    /// The cell's number in the new report.
    pub cell: usize,
    /// Its number in the old report: cells are matched by their axis
    /// values, so a value added to an axis shifts the numbers after it.
    pub old_cell: usize,
    /// Its axis values, in the new report's axis order.
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

/// A cell only one of two compared reports has, with its win rates.
#[derive(Clone, Debug, PartialEq)]
pub struct LoneCell {
    /// Its number in the report that has it.
    pub cell: usize,
    /// Its axis values, in that report's axis order.
    pub values: Vec<String>,
    pub fights: u64,
    /// Per side, in the report's side order: the win rate.
    pub wins: Vec<crate::analysis::Proportion>,
}

impl LoneCell {
    /// Its axis values, as the report's tables show them.
    pub fn label(&self) -> String {
        super::labels::values_label(&self.values)
    }
}

/// What changed in the scenario between two reports, as far as the reports
/// record it: the values of each matrix axis (from `cells.csv`) and the lines
/// of `summary.md`'s "Scenario" section (ruleset, seed, fights, round cap,
/// options in force, the stat blocks in brief).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScenarioChanges {
    /// Per axis (new report's order) with a change: the values only the
    /// new report has, and those only the old one has.
    pub values: Vec<AxisValues>,
    /// Lines of the old report's Scenario section the new one lacks, and the
    /// other way round (nested bullets with their parents, ` › ` between).
    pub removed: Vec<String>,
    pub added: Vec<String>,
}

/// The values of one axis one report has and the other has not.
#[derive(Clone, Debug, PartialEq)]
pub struct AxisValues {
    pub axis: String,
    pub added: Vec<String>,
    pub removed: Vec<String>,
}

/// The comparison of two reports.
#[derive(Clone, Debug, PartialEq)]
pub struct Diff {
    pub name: String,
    /// The new report's axes.
    pub axes: Vec<String>,
    pub old: String,
    pub new: String,
    /// Every (cell, side) of the cells both reports have, in the new
    /// report's cell order, sides in order.
    pub changes: Vec<Change>,
    /// The cells only the old report has, and only the new one has.
    pub only_old: Vec<LoneCell>,
    pub only_new: Vec<LoneCell>,
    /// The sides, in order.
    pub sides: Vec<String>,
    pub scenario: ScenarioChanges,
}

impl Diff {
    /// The changes that moved beyond their joint uncertainty.
    pub fn moved(&self) -> impl Iterator<Item = &Change> {
        self.changes.iter().filter(|c| c.moved)
    }
}

/// What every output of a sensitivity report reads: the results plus the
/// effects, rankings and equivalent points computed once from them.
pub(crate) struct SensitivityModel<'a> {
    pub(crate) results: &'a SensitivityResults,
    pub(crate) info: &'a ScenarioInfo,
    /// The unchanged cell.
    pub(crate) base: Summary,
    /// One per stat, in stat order.
    pub(crate) effects: Vec<StatEffect>,
    /// Stat indices (stat-block and weapon fields), largest effect on any
    /// side first.
    pub(crate) order: Vec<usize>,
    /// Rule option indices, largest effect on any side first.
    pub(crate) rule_order: Vec<usize>,
    /// Per side, each stat's 1-based rank by its effect on that side, among
    /// the stats of its kind (stats, or rule options).
    pub(crate) side_ranks: Vec<Vec<usize>>,
    pub(crate) equivalences: Vec<Equivalence>,
    /// The stats whose step up lowers their own side's win rate
    /// significantly, in ranking order.
    pub(crate) against_own_side: Vec<usize>,
    /// Batches of the unchanged cell (every cell has as many).
    pub(crate) batches: usize,
}

impl<'a> SensitivityModel<'a> {
    pub(crate) fn new(results: &'a SensitivityResults) -> Result<Self, ReportError> {
        validate(&results.run)?;
        let info = &results.run.scenario;
        let cells = results.run.cells.len();
        let cell_of = |step: &Result<(usize, String), String>| step.as_ref().ok().map(|s| s.0);
        let mut stats = Vec::with_capacity(results.stats.len());
        for (i, s) in results.stats.iter().enumerate() {
            let (down, up) = (cell_of(&s.down), cell_of(&s.up));
            if s.side >= info.sides.len()
                || [down, up].iter().flatten().any(|&c| c == 0 || c >= cells)
            {
                return Err(ReportError::Inconsistent(format!(
                    "stat {i} ({}) names a side or cell the run does not have",
                    s.label
                )));
            }
            stats.push(StatCells {
                down,
                up,
                subject: s.subject,
                side: s.side,
                health: s.health,
                preferred: s.preferred,
                rule: s.rule,
            });
        }
        let sides = info.sides.len();
        let summaries: Vec<Summary> = results
            .run
            .cells
            .iter()
            .map(|c| analysis::summarize(&c.tally, sides, info.counters.len()))
            .collect();
        let pairs: Vec<(&Summary, &[crate::engine::BatchStat])> = summaries
            .iter()
            .zip(&results.run.cells)
            .map(|(s, c)| (s, c.batches.as_slice()))
            .collect();
        let effects = sensitivity::effects(&pairs, &stats, sides);
        let kind = |rule: bool| -> Vec<usize> {
            (0..stats.len())
                .filter(|&i| stats[i].rule == rule)
                .collect()
        };
        let order = sensitivity::ranking_of(&effects, None, kind(false));
        let rule_order = sensitivity::ranking_of(&effects, None, kind(true));
        let side_ranks = (0..sides)
            .map(|side| {
                let mut rank = vec![0; effects.len()];
                for rule in [false, true] {
                    for (r, &i) in sensitivity::ranking_of(&effects, Some(side), kind(rule))
                        .iter()
                        .enumerate()
                    {
                        rank[i] = r + 1;
                    }
                }
                rank
            })
            .collect();
        let equivalences = sensitivity::equivalences(&pairs, &stats, &effects);
        let against = sensitivity::against_own_side(&stats, &effects);
        let against_own_side = order
            .iter()
            .copied()
            .filter(|i| against.contains(i))
            .collect();
        Ok(SensitivityModel {
            results,
            info,
            base: summaries[0].clone(),
            effects,
            order,
            rule_order,
            side_ranks,
            equivalences,
            against_own_side,
            batches: results.run.cells[0].batches.len(),
        })
    }
}
