//! `sensitivity.csv` of a sensitivity report: one row per stat, largest
//! effect first, with the per-step effect on every side's win rate and the
//! two steps it was measured from.

use super::frame::TableBuilder;
use crate::analysis::Difference;
use crate::report::error::ReportError;
use crate::report::labels::RATE_DECIMALS;
use crate::report::model::SensitivityModel;
use crate::report::names::SENSITIVITY_CSV;

/// `sensitivity.csv`: the stats, then the rule options, each ranked in its
/// own kind: `rank`, `kind` (`stat` or `rule`), `stat`, `side` (the side
/// that fields it; empty for a rule option),
/// `path`, `value`, `down`, `up` (the values stepped to; empty when a step
/// was not taken, see summary.md for why); then per side `per_step_<side>`
/// with its 95% interval `_lo` / `_hi` and `rank_<side>`; then per side
/// `up_<side>` and `down_<side>` (each step minus the unchanged cell) with
/// theirs. Differences of win rates, 4 decimals; empty where there is no
/// step.
pub(crate) fn render(m: &SensitivityModel) -> Result<Vec<u8>, ReportError> {
    let stats = &m.results.stats;
    let rows: Vec<usize> = m.order.iter().chain(&m.rule_order).copied().collect();
    let rows = &rows;
    let ranks: Vec<u64> = (1..=m.order.len() as u64)
        .chain(1..=m.rule_order.len() as u64)
        .collect();
    let mut b = TableBuilder::new(SENSITIVITY_CSV);
    let text = |f: &dyn Fn(usize) -> String| rows.iter().map(|&i| f(i)).collect::<Vec<_>>();
    let value = |step: &Result<(usize, String), String>| step.as_ref().ok().map(|s| s.1.clone());
    b.ints("rank", ranks)
        .texts(
            "kind",
            text(&|i| if stats[i].rule { "rule" } else { "stat" }.to_owned()),
        )
        .texts("stat", text(&|i| stats[i].label.clone()))
        .optional_texts(
            "side",
            rows.iter()
                .map(|&i| (!stats[i].rule).then(|| m.info.sides[stats[i].side].name.clone()))
                .collect(),
        )
        .texts("path", text(&|i| stats[i].path.clone()))
        .texts("value", text(&|i| stats[i].value.clone()))
        .optional_texts(
            "down",
            rows.iter().map(|&i| value(&stats[i].down)).collect(),
        )
        .optional_texts("up", rows.iter().map(|&i| value(&stats[i].up)).collect());
    let columns = |name: &str, pick: &dyn Fn(usize) -> Option<Difference>| {
        let of = |f: &dyn Fn(&Difference) -> f64| -> Vec<Option<f64>> {
            rows.iter().map(|&i| pick(i).map(|d| f(&d))).collect()
        };
        [
            (name.to_owned(), of(&|d| d.estimate)),
            (format!("{name}_lo"), of(&|d| d.ci.lo)),
            (format!("{name}_hi"), of(&|d| d.ci.hi)),
        ]
    };
    for (k, side) in m.info.sides.iter().enumerate() {
        for (name, values) in columns(&format!("per_step_{}", side.name), &|i| {
            m.effects[i].per_step[k]
        }) {
            b.optional_floats(&name, values, RATE_DECIMALS);
        }
        b.ints(
            &format!("rank_{}", side.name),
            rows.iter().map(|&i| m.side_ranks[k][i] as u64).collect(),
        );
    }
    for (k, side) in m.info.sides.iter().enumerate() {
        for (name, values) in columns(&format!("up_{}", side.name), &|i| m.effects[i].up[k])
            .into_iter()
            .chain(columns(&format!("down_{}", side.name), &|i| {
                m.effects[i].down[k]
            }))
        {
            b.optional_floats(&name, values, RATE_DECIMALS);
        }
    }
    b.finish(rows.len())?.to_csv()
}
