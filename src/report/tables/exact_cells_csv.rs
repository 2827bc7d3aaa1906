//! `cells.csv` of an exact report: one row per selected cell with its exact
//! probabilities and expected values.
//!
//! Column order: `cell`, one column per axis (its dotted path), `states`
//! (distinct fight states enumerated), per side `win_rate_<side>`, then
//! `draw_rate`, `draws_at_cap_rate` (still running at the round cap, a part
//! of `draw_rate`), `rounds_mean`, `rounds_p50`, `rounds_p90`, per side
//! `survivors_<side>`, per side `damage_<side>`, one column per ruleset
//! counter (its expected value per fight), then, when the scenario's
//! baseline cell is among the selected cells, the exact differences from
//! it: per side `delta_win_rate_<side>`, then `delta_rounds_mean`; last,
//! `error`, the cell's bound on the rounding error of any of its
//! probabilities ([`Answer::error`](crate::exact::Answer::error), two
//! significant digits in scientific notation). The names are the run's
//! cells.csv names where they mean the same; there are no intervals and no
//! counts: nothing was sampled.
//!
//! **Decimals.** Every float column has the same number of decimals `D`,
//! chosen once per report from the answers' rounding bounds: `D` is the
//! largest `d ≤ 12` with `10^-d ≥ 10 × e`, where `e` is the largest
//! absolute error of any value printed (a probability's `error`, a mean's
//! relative error times the mean, a difference's the sum of its two
//! terms'). So the computed value is within a tenth of a unit of the last
//! printed place of the exact one, and the printed digit is the exact
//! value's, or one off when the exact value lies that close to a rounding
//! boundary ([`ExactModel::decimals`]).

use super::frame::{Table, TableBuilder};
use crate::exact::Answer;
use crate::report::error::ReportError;
use crate::report::labels::scientific;
use crate::report::model::ExactModel;
use crate::report::names::CELLS_CSV;

/// The cells table (kept apart from the bytes so tests can inspect it).
pub(crate) fn table(m: &ExactModel) -> Result<Table, ReportError> {
    let info = m.info;
    let d = m.decimals;
    let answers: Vec<&Answer> = m.cells.iter().map(|c| &c.answer).collect();
    let floats = |f: &dyn Fn(&Answer) -> f64| answers.iter().map(|a| f(a)).collect::<Vec<f64>>();

    let mut b = TableBuilder::new(CELLS_CSV);
    b.ints("cell", m.cells.iter().map(|c| c.index as u64).collect());
    for (axis, path) in info.axes.iter().enumerate() {
        let values = m
            .cells
            .iter()
            .map(|c| c.axis_values.get(axis).cloned().unwrap_or_default())
            .collect();
        b.texts(path, values);
    }
    b.ints("states", answers.iter().map(|a| a.states).collect());
    for (i, side) in info.sides.iter().enumerate() {
        b.floats(
            &format!("win_rate_{}", side.name),
            floats(&|a| a.wins[i]),
            d,
        );
    }
    b.floats("draw_rate", floats(&|a| a.draws), d);
    b.floats("draws_at_cap_rate", floats(&|a| a.draws_at_cap), d);
    b.floats("rounds_mean", m.rounds_mean.clone(), d);
    b.ints(
        "rounds_p50",
        m.rounds_p50.iter().map(|&r| u64::from(r)).collect(),
    );
    b.ints(
        "rounds_p90",
        m.rounds_p90.iter().map(|&r| u64::from(r)).collect(),
    );
    for (i, side) in info.sides.iter().enumerate() {
        b.floats(
            &format!("survivors_{}", side.name),
            floats(&|a| a.survivors[i]),
            d,
        );
    }
    for (i, side) in info.sides.iter().enumerate() {
        b.floats(
            &format!("damage_{}", side.name),
            floats(&|a| a.damage[i]),
            d,
        );
    }
    for (i, counter) in info.counters.iter().enumerate() {
        b.floats(counter.name, floats(&|a| a.counters[i]), d);
    }
    if m.baseline.is_some() {
        let cells = 0..m.cells.len();
        for (s, side) in info.sides.iter().enumerate() {
            let deltas = cells
                .clone()
                .map(|i| m.delta_win(i, s).unwrap_or(0.0))
                .collect();
            b.floats(&format!("delta_win_rate_{}", side.name), deltas, d);
        }
        let deltas = cells.map(|i| m.delta_rounds(i).unwrap_or(0.0)).collect();
        b.floats("delta_rounds_mean", deltas, d);
    }
    b.texts(
        "error",
        answers.iter().map(|a| scientific(a.error())).collect(),
    );
    b.finish(m.cells.len())
}

/// `cells.csv` as bytes.
pub(crate) fn render(m: &ExactModel) -> Result<Vec<u8>, ReportError> {
    table(m)?.to_csv()
}
