//! `cells.csv`: one row per matrix cell with its win rates (Wilson 95%
//! intervals), draws, fight length and per-side and ruleset means.
//!
//! Column order: `cell`, one column per axis (its dotted path), `fights`, per
//! side `wins_<side>`, `win_rate_<side>`, `win_rate_<side>_lo`,
//! `win_rate_<side>_hi` (with `run --exact` also `exact_win_rate_<side>`:
//! the cell's fight enumerated, empty for a cell too large to enumerate,
//! to the decimals the largest rounding bound allows, see
//! [`decimals_good_to`](crate::report::labels::decimals_good_to)), then
//! `draws`, `draw_rate`, `draws_at_cap` and
//! `draws_at_cap_rate` (the draws still running at the round cap, a part
//! of `draws`: the rest had no side standing), `rounds_mean`,
//! `rounds_p50`, `rounds_p90`, per side `survivors_<side>`, per side
//! `damage_<side>`, then one column per ruleset counter, then the comparison
//! with the baseline cell: per side `delta_win_rate_<side>` with its 95%
//! interval `_lo`/`_hi`, then `delta_rounds_mean` with `_lo`/`_hi` (paired
//! batch means over common random numbers, see
//! [`crate::analysis::batch_means`]); with a precision target, last, `capped`
//! (1 if the cell stopped at `max_fights` before reaching it). Rates and
//! differences of rates have 4 decimals, means 3, counts are integers.

use super::frame::{Table, TableBuilder};
use crate::analysis::{Comparison, Difference, Interval, Proportion, Summary};
use crate::report::error::ReportError;
use crate::report::labels::{MEAN_DECIMALS, RATE_DECIMALS};
use crate::report::model::Report;
use crate::report::names::CELLS_CSV;

/// The cells table (kept apart from the bytes so tests can inspect it).
pub(crate) fn table(report: &Report) -> Result<Table, ReportError> {
    let info = report.info;
    let rows = &report.summaries;
    let floats = |f: &dyn Fn(&Summary) -> f64| rows.iter().map(f).collect::<Vec<f64>>();
    let ints = |f: &dyn Fn(&Summary) -> u64| rows.iter().map(f).collect::<Vec<u64>>();

    let mut b = TableBuilder::new(CELLS_CSV);
    b.ints(
        "cell",
        report.cells.iter().map(|c| c.index as u64).collect(),
    );
    for (axis, path) in info.axes.iter().enumerate() {
        let values = report
            .cells
            .iter()
            .map(|c| c.axis_values.get(axis).cloned().unwrap_or_default())
            .collect();
        b.texts(path, values);
    }
    b.ints("fights", ints(&|s| s.fights));
    for (i, side) in info.sides.iter().enumerate() {
        let name = &side.name;
        // `render` checked that every summary has a rate per side; the
        // fallback only keeps this function total.
        let win = |s: &Summary| s.wins.get(i).copied().unwrap_or(EMPTY);
        b.ints(&format!("wins_{name}"), ints(&|s| win(s).count));
        for (suffix, value) in RATE_COLUMNS {
            b.floats(
                &format!("win_rate_{name}{suffix}"),
                floats(&|s| value(&win(s))),
                RATE_DECIMALS,
            );
        }
        if !report.exact.is_empty() {
            let exact = (0..report.cells.len())
                .map(|c| report.exact_of(c).and_then(|e| e.wins.get(i).copied()))
                .collect();
            b.optional_floats(
                &format!("exact_win_rate_{name}"),
                exact,
                report.exact_decimals,
            );
        }
    }
    b.ints("draws", ints(&|s| s.draws.count));
    b.floats("draw_rate", floats(&|s| s.draws.estimate), RATE_DECIMALS);
    b.ints("draws_at_cap", ints(&|s| s.draws_at_cap.count));
    b.floats(
        "draws_at_cap_rate",
        floats(&|s| s.draws_at_cap.estimate),
        RATE_DECIMALS,
    );
    b.floats("rounds_mean", floats(&|s| s.rounds_mean), MEAN_DECIMALS);
    b.ints("rounds_p50", ints(&|s| u64::from(s.rounds_p50)));
    b.ints("rounds_p90", ints(&|s| u64::from(s.rounds_p90)));
    for (prefix, means) in PER_SIDE_MEANS {
        for (i, side) in info.sides.iter().enumerate() {
            let column = floats(&|s| means(s).get(i).copied().unwrap_or(0.0));
            b.floats(&format!("{prefix}_{}", side.name), column, MEAN_DECIMALS);
        }
    }
    for (i, counter) in info.counters.iter().enumerate() {
        let column = floats(&|s| s.counters.get(i).copied().unwrap_or(0.0));
        b.floats(counter.name, column, MEAN_DECIMALS);
    }
    let deltas = &report.comparisons;
    let bounds =
        |name: &str, b: &mut TableBuilder, d: &dyn Fn(&Comparison) -> Difference, decimals| {
            b.floats(
                name,
                deltas.iter().map(|c| d(c).estimate).collect(),
                decimals,
            );
            b.floats(
                &format!("{name}_lo"),
                deltas.iter().map(|c| d(c).ci.lo).collect(),
                decimals,
            );
            b.floats(
                &format!("{name}_hi"),
                deltas.iter().map(|c| d(c).ci.hi).collect(),
                decimals,
            );
        };
    for (i, side) in info.sides.iter().enumerate() {
        bounds(
            &format!("delta_win_rate_{}", side.name),
            &mut b,
            &|c| c.win_rates.get(i).copied().unwrap_or(NO_DIFFERENCE),
            RATE_DECIMALS,
        );
    }
    bounds(
        "delta_rounds_mean",
        &mut b,
        &|c| c.rounds_mean,
        MEAN_DECIMALS,
    );
    if info.precision.is_some() {
        b.ints(
            "capped",
            report.cells.iter().map(|c| u64::from(c.capped)).collect(),
        );
    }
    b.finish(rows.len())
}

/// `cells.csv` as bytes.
pub(crate) fn render(report: &Report) -> Result<Vec<u8>, ReportError> {
    table(report)?.to_csv()
}

/// Stand-in for a missing side in an inconsistent summary (never written).
const EMPTY: Proportion = Proportion {
    count: 0,
    trials: 0,
    estimate: 0.0,
    ci: Interval { lo: 0.0, hi: 1.0 },
};

/// Stand-in for a missing side in an inconsistent comparison (never written).
const NO_DIFFERENCE: Difference = Difference {
    estimate: 0.0,
    ci: Interval { lo: 0.0, hi: 0.0 },
};

/// A column suffix and how to get its value from a win rate.
type RateColumn = (&'static str, fn(&Proportion) -> f64);
/// A column prefix and the per-side means it shows.
type SideMeans = (&'static str, fn(&Summary) -> &[f64]);

/// The three float columns of a side's win rate: suffix and value.
const RATE_COLUMNS: [RateColumn; 3] = [
    ("", |p| p.estimate),
    ("_lo", |p| p.ci.lo),
    ("_hi", |p| p.ci.hi),
];

/// The per-side means after the rounds columns: column prefix and values.
const PER_SIDE_MEANS: [SideMeans; 2] = [("survivors", |s| &s.survivors), ("damage", |s| &s.damage)];
