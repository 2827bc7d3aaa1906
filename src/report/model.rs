//! The data every output of the report layer reads: [`Report`] (one run and
//! its per-cell statistics, for cells.csv, rounds.csv, the charts and
//! summary.md), [`Diff`] (two reports compared, for diff.csv, diff.md and
//! diff.png), [`ExactModel`] (exact answers, for the exact report),
//! [`Lengths`] (the fight-length distributions `rounds.png` draws, built
//! from a run or from exact answers), plus [`ReportFile`], one rendered
//! file.
//!
//! A leaf of the layer: tables, charts and documents import it, it imports
//! none of them, so no two parts of the report layer import each other.

use super::error::ReportError;
use super::labels::decimals_good_to;
use crate::analysis::game;
use crate::analysis::sensitivity::{self, Equivalence, StatCells, StatEffect};
use crate::analysis::{self, Comparison, Difference, Interval, Summary};
use crate::engine::tally::{MAX_COUNTERS, MAX_SIDES};
use crate::results::{
    CellResult, ExactCell, ExactResults, ExactWin, GroundReport, RunResults, ScenarioInfo,
    SensitivityResults, ShownFight,
};

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
    /// With `run --exact`: each cell's exact win rates, or why it has none,
    /// in cell order; empty without `--exact`.
    pub(crate) exact: &'a [Result<ExactWin, String>],
    /// Decimals of the exact win rates in cells.csv: what the largest
    /// rounding bound of any of them allows ([`decimals_good_to`]).
    pub(crate) exact_decimals: usize,
    /// The play check: every alternative against its side's own play, and
    /// the margin, or `None` when the run did not check.
    pub(crate) plays: Option<Plays>,
    /// On a map: the baseline cell's map, its start squares and where
    /// units fell (map.png, falls.png, fights.md's pictures).
    pub(crate) ground: Option<&'a GroundReport>,
}

/// The play check as the report reads it ([`crate::analysis::plays`]).
pub(crate) struct Plays {
    pub(crate) fights: u64,
    pub(crate) margin: f64,
    pub(crate) alternatives: Vec<crate::analysis::plays::Alternative>,
}

impl Plays {
    /// Per cell and side, the best alternative beating the own play by
    /// more than the margin with 95% confidence.
    pub(crate) fn far_from_best(&self) -> Vec<&crate::analysis::plays::Alternative> {
        crate::analysis::plays::far_from_best(&self.alternatives, self.margin)
    }
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
        let error = results
            .exact
            .iter()
            .flatten()
            .map(|e| e.error)
            .fold(0.0, f64::max);
        Ok(Report {
            info,
            cells: &results.cells,
            fights: &results.fights,
            summaries,
            comparisons,
            exact: &results.exact,
            exact_decimals: decimals_good_to(error),
            plays: results.plays.as_ref().map(|check| Plays {
                fights: check.fights,
                margin: check.margin,
                alternatives: crate::analysis::plays::alternatives(check, info.sides.len()),
            }),
            ground: results.ground.as_ref(),
        })
    }

    /// Cell `i`'s exact win rates, if it was enumerated.
    pub(crate) fn exact_of(&self, i: usize) -> Option<&ExactWin> {
        self.exact.get(i).and_then(|e| e.as_ref().ok())
    }
}

/// Checks the invariants the outputs rely on, so they can index freely.
fn validate(results: &RunResults) -> Result<(), ReportError> {
    let info = &results.scenario;
    let fail = |msg: String| Err(ReportError::Inconsistent(msg));
    if results.cells.is_empty() {
        return fail("no cells".to_owned());
    }
    if let Some(check) = &results.plays {
        if let Some(t) = check
            .trials
            .iter()
            .find(|t| t.trial.cell >= results.cells.len() || t.trial.side >= info.sides.len())
        {
            return fail(format!(
                "a play trial of cell {} side {} in a run of {} cells and {} sides",
                t.trial.cell,
                t.trial.side,
                results.cells.len(),
                info.sides.len()
            ));
        }
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
    if !results.exact.is_empty() && results.exact.len() != results.cells.len() {
        return fail(format!(
            "exact answers for {} of {} cells",
            results.exact.len(),
            results.cells.len()
        ));
    }
    if let Some(i) = results
        .exact
        .iter()
        .position(|e| e.as_ref().is_ok_and(|e| e.wins.len() != info.sides.len()))
    {
        return fail(format!(
            "cell {i}'s exact win rates are not one per side ({} sides)",
            info.sides.len()
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

/// Share of every cell's fights ending before the round cap that the x axis
/// of `rounds.png` keeps in view, in percent.
pub(crate) const AXIS_PERCENTILE: u32 = 99;

/// What `rounds.png` draws: each cell's fight-length distribution, as
/// shares of a run's fights or as an exact answer's probabilities. Both
/// reports build it; the chart draws either the same way.
pub(crate) struct Lengths {
    /// The scenario's name (the title).
    pub(crate) name: String,
    /// Probabilities of an exact answer, not shares of fights fought.
    pub(crate) exact: bool,
    /// The round cap (the largest, with a `max_rounds` axis).
    pub(crate) max_rounds: u32,
    /// Position in `cells` of the baseline cell, when it is one of them.
    pub(crate) baseline: Option<usize>,
    /// Last round on the x axis: by then [`AXIS_PERCENTILE`]% of every
    /// cell's fights that ended before the cap have ended.
    pub(crate) x_max: u32,
    pub(crate) cells: Vec<LengthCell>,
}

/// One cell's fight lengths.
pub(crate) struct LengthCell {
    /// The cell's number and axis values (its label).
    pub(crate) index: usize,
    pub(crate) values: Vec<String>,
    /// `(rounds, share)` of every length with a share above zero, in
    /// increasing rounds.
    pub(crate) shares: Vec<(u32, f64)>,
    pub(crate) median: u32,
    pub(crate) mean: f64,
}

impl Lengths {
    /// A run's fight lengths: the share of each cell's fights.
    pub(crate) fn of_run(report: &Report) -> Lengths {
        let info = report.info;
        Lengths {
            name: info.name.clone(),
            exact: false,
            max_rounds: info.max_rounds,
            baseline: Some(info.baseline),
            // From the counts, as the run's report has always done.
            x_max: analysis::rounds_axis_limit(&report.summaries, info.max_rounds, AXIS_PERCENTILE),
            cells: report
                .cells
                .iter()
                .zip(&report.summaries)
                .map(|(cell, s)| LengthCell {
                    index: cell.index,
                    values: cell.axis_values.clone(),
                    shares: s.lengths.iter().map(|b| (b.rounds, b.share)).collect(),
                    median: s.rounds_p50,
                    mean: s.rounds_mean,
                })
                .collect(),
        }
    }

    /// Exact answers' fight lengths: the probability of each length.
    pub(crate) fn of_exact(m: &ExactModel) -> Lengths {
        let cells: Vec<LengthCell> = m
            .cells
            .iter()
            .enumerate()
            .map(|(i, cell)| LengthCell {
                index: cell.index,
                values: cell.axis_values.clone(),
                shares: cell
                    .answer
                    .rounds
                    .iter()
                    .enumerate()
                    .filter(|&(_, &p)| p > 0.0)
                    .map(|(r, &p)| (u32::try_from(r).unwrap_or(u32::MAX), p))
                    .collect(),
                median: m.rounds_p50[i],
                mean: m.rounds_mean[i],
            })
            .collect();
        let x_max = axis_limit(&cells, m.info.max_rounds, AXIS_PERCENTILE);
        Lengths {
            name: m.info.name.clone(),
            exact: true,
            max_rounds: m.info.max_rounds,
            baseline: m.baseline,
            x_max,
            cells,
        }
    }
}

/// [`analysis::rounds_axis_limit`] of probabilities: the largest over
/// cells of the `percent`th percentile of their lengths below `cap`; at
/// least 1; `cap` when no cell has a length below it.
fn axis_limit(cells: &[LengthCell], cap: u32, percent: u32) -> u32 {
    let mut limit = None;
    for cell in cells {
        let below: Vec<(u32, f64)> = cell
            .shares
            .iter()
            .copied()
            .filter(|&(r, _)| r < cap)
            .collect();
        let total: f64 = below.iter().map(|b| b.1).sum();
        if below.is_empty() || total <= 0.0 {
            continue;
        }
        let wanted = total * f64::from(percent.min(100)) / 100.0;
        let mut cumulative = 0.0;
        let mut at = below.last().map_or(0, |b| b.0);
        for &(r, p) in &below {
            cumulative += p;
            if cumulative >= wanted {
                at = r;
                break;
            }
        }
        limit = Some(limit.map_or(at, |l: u32| l.max(at)));
    }
    limit.map_or(cap.max(1), |l| l.max(1))
}

/// What every output of the exact report reads: the answers plus what is
/// computed once from them (fight-length statistics, the baseline, the
/// decimals every value is printed with).
pub(crate) struct ExactModel<'a> {
    pub(crate) info: &'a ScenarioInfo,
    /// The selected cells, in cell order.
    pub(crate) cells: &'a [ExactCell],
    /// Position in `cells` of the scenario's baseline cell, when selected.
    pub(crate) baseline: Option<usize>,
    /// Per cell: expected rounds, and the median and 90th percentile.
    pub(crate) rounds_mean: Vec<f64>,
    pub(crate) rounds_p50: Vec<u32>,
    pub(crate) rounds_p90: Vec<u32>,
    /// The largest rounding bound of any value the report prints: a
    /// probability's [`Answer::error`](crate::exact::Answer::error), a
    /// mean's relative error times the mean, a difference's the sum of its
    /// two terms'.
    pub(crate) error: f64,
    /// Decimals of every value the CSV files print ([`decimals_good_to`]
    /// of `error`).
    pub(crate) decimals: usize,
}

impl<'a> ExactModel<'a> {
    pub(crate) fn new(results: &'a ExactResults) -> Result<Self, ReportError> {
        let info = &results.scenario;
        let fail = |msg: String| Err(ReportError::Inconsistent(msg));
        if results.cells.is_empty() {
            return fail("no cells".to_owned());
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
            if position > 0 && cell.index <= results.cells[position - 1].index {
                return fail(format!(
                    "cell {} after cell {}: not in cell order",
                    cell.index,
                    results.cells[position - 1].index
                ));
            }
            if cell.axis_values.len() != info.axes.len() {
                return fail(format!(
                    "cell {} has {} axis values for {} axes",
                    cell.index,
                    cell.axis_values.len(),
                    info.axes.len()
                ));
            }
            if cell.answer.sides != info.sides.len() || cell.answer.rounds.is_empty() {
                return fail(format!(
                    "cell {}'s answer has {} sides and {} fight lengths",
                    cell.index,
                    cell.answer.sides,
                    cell.answer.rounds.len()
                ));
            }
        }
        let baseline = results.cells.iter().position(|c| c.index == info.baseline);
        let answers = || results.cells.iter().map(|c| &c.answer);
        let rounds_mean: Vec<f64> = answers().map(|a| a.rounds_mean()).collect();
        let mut m = ExactModel {
            info,
            cells: &results.cells,
            baseline,
            rounds_p50: answers().map(|a| a.rounds_quantile(0.5)).collect(),
            rounds_p90: answers().map(|a| a.rounds_quantile(0.9)).collect(),
            rounds_mean,
            error: 0.0,
            decimals: 0,
        };
        m.error = m.largest_error();
        m.decimals = decimals_good_to(m.error);
        Ok(m)
    }

    /// The largest rounding bound of any value printed (see `error`).
    fn largest_error(&self) -> f64 {
        let sides = self.info.sides.len();
        let counters = self.info.counters.len();
        let mean_error = |i: usize| {
            let a = &self.cells[i].answer;
            let means = a.survivors[..sides]
                .iter()
                .chain(&a.damage[..sides])
                .chain(&a.counters[..counters])
                .chain(std::iter::once(&self.rounds_mean[i]));
            means
                .map(|v| a.relative_error * v.abs())
                .fold(0.0, f64::max)
        };
        let mut error = 0.0f64;
        for (i, cell) in self.cells.iter().enumerate() {
            error = error.max(cell.answer.error()).max(mean_error(i));
            if let Some(b) = self.baseline {
                let base = &self.cells[b].answer;
                error = error.max(cell.answer.error() + base.error()).max(
                    cell.answer.relative_error * self.rounds_mean[i].abs()
                        + base.relative_error * self.rounds_mean[b].abs(),
                );
            }
        }
        error
    }

    /// Cell `i`'s win probability of `side` minus the baseline's, when the
    /// baseline is selected.
    pub(crate) fn delta_win(&self, i: usize, side: usize) -> Option<f64> {
        let b = self.baseline?;
        Some(self.cells[i].answer.wins[side] - self.cells[b].answer.wins[side])
    }

    /// Cell `i`'s expected rounds minus the baseline's, when it is selected.
    pub(crate) fn delta_rounds(&self, i: usize) -> Option<f64> {
        let b = self.baseline?;
        Some(self.rounds_mean[i] - self.rounds_mean[b])
    }
}

/// What a tactics report reads: the payoff of every pair of strategies and
/// what the game says of them ([`crate::analysis::game`]).
pub struct TacticsModel<'a> {
    pub results: &'a crate::results::TacticsResults,
    pub info: &'a ScenarioInfo,
    /// Per-batch payoffs of every pair, row-major.
    pub payoffs: game::Payoffs,
    /// Mean payoffs.
    pub means: game::Matrix,
    /// Each pair's payoff with its batch-means interval, row-major.
    pub intervals: Vec<Option<Difference>>,
    /// Each pair's summary (win rates, draws, length), row-major.
    pub summaries: Vec<Summary>,
    pub equilibrium: game::Equilibrium,
    /// The value's 95% interval from the batches.
    pub value: Option<Difference>,
    /// Each side's best replies to each strategy of the other.
    pub best: [Vec<game::BestResponse>; 2],
    /// Each side's dominated strategies.
    pub dominated: [Vec<game::Dominance>; 2],
    /// Each side's strategies outside its equilibrium support that do as
    /// well within noise.
    pub rivals: [Vec<usize>; 2],
}

impl<'a> TacticsModel<'a> {
    pub fn new(results: &'a crate::results::TacticsResults) -> Result<Self, ReportError> {
        let info = &results.run.scenario;
        let (rows, cols) = (results.strategies[0].len(), results.strategies[1].len());
        if results.run.cells.len() != rows * cols {
            return Err(ReportError::Inconsistent(format!(
                "{} strategy pairs but {} cells",
                rows * cols,
                results.run.cells.len()
            )));
        }
        let payoffs = game::Payoffs::from_stats(
            rows,
            cols,
            results.run.cells.iter().map(|c| c.batches.as_slice()),
        );
        let means = payoffs.means();
        let equilibrium = game::equilibrium(&means)
            .map_err(|e| ReportError::Inconsistent(format!("the tactics game: {e}")))?;
        let intervals = (0..rows * cols)
            .map(|k| payoffs.payoff(k / cols, k % cols))
            .collect();
        let summaries = results
            .run
            .cells
            .iter()
            .map(|c| analysis::summarize(&c.tally, info.sides.len(), info.counters.len()))
            .collect();
        use game::Player::{First, Second};
        Ok(TacticsModel {
            value: game::value_interval(&payoffs, &equilibrium),
            best: [
                game::best_responses(&payoffs, First),
                game::best_responses(&payoffs, Second),
            ],
            dominated: [
                game::dominated(&payoffs, First),
                game::dominated(&payoffs, Second),
            ],
            rivals: [
                equilibrium.close_rivals(&payoffs, First),
                equilibrium.close_rivals(&payoffs, Second),
            ],
            results,
            info,
            payoffs,
            means,
            intervals,
            summaries,
            equilibrium,
        })
    }

    /// The first side's payoff of the pair (i, j).
    pub fn payoff(&self, i: usize, j: usize) -> f64 {
        self.means.get(i, j)
    }

    /// The payoff of the scenario's own plays, when both are candidates.
    pub fn own_payoff(&self) -> Option<(usize, usize, Option<Difference>)> {
        match self.results.own {
            [Some(i), Some(j)] => Some((i, j, self.payoffs.payoff(i, j))),
            _ => None,
        }
    }

    /// A strategy of side `side` that confidently dominates every other
    /// of that side, if there is one.
    pub fn dominant(&self, side: usize) -> Option<usize> {
        let player = [game::Player::First, game::Player::Second][side];
        game::dominant(&self.payoffs, player)
    }
}
