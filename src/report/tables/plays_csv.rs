//! `plays.csv`: the play check of a run, one row per alternative play tried
//! ([`crate::analysis::plays`]).
//!
//! Columns: `cell`, one column per axis (its dotted path, as in
//! `cells.csv`), `side` (the side that plays differently), `field` and
//! `value` (set on every group of that side), `fights` (of the trial),
//! `score` (the side's win rate plus its share of the draws with this
//! play), `own_score` (with its own play, the same fights), `draw_rate`
//! (the share of the trial's fights that were draws), `gain`
//! (`score − own_score`, paired batch by batch) with its 95% interval
//! `gain_lo` / `gain_hi` (empty with fewer than two batches), and
//! `beats_margin`: whether `gain_lo` is above the report's margin (the
//! rows summary.md points out). Rates have 4 decimals.

use super::frame::TableBuilder;
use crate::report::error::ReportError;
use crate::report::labels::RATE_DECIMALS;
use crate::report::model::{Plays, Report};
use crate::report::names::PLAYS_CSV;

pub(crate) fn render(report: &Report, plays: &Plays) -> Result<Vec<u8>, ReportError> {
    let rows = &plays.alternatives;
    let mut b = TableBuilder::new(PLAYS_CSV);
    b.ints("cell", rows.iter().map(|a| a.cell as u64).collect());
    for (axis, path) in report.info.axes.iter().enumerate() {
        b.texts(
            path,
            rows.iter()
                .map(|a| {
                    report.cells[a.cell]
                        .axis_values
                        .get(axis)
                        .cloned()
                        .unwrap_or_default()
                })
                .collect(),
        );
    }
    b.texts(
        "side",
        rows.iter()
            .map(|a| report.info.sides[a.side].name.clone())
            .collect(),
    )
    .texts("field", rows.iter().map(|a| a.field.clone()).collect())
    .texts("value", rows.iter().map(|a| a.value.clone()).collect())
    .ints("fights", rows.iter().map(|a| a.fights).collect())
    .floats(
        "score",
        rows.iter().map(|a| a.score).collect(),
        RATE_DECIMALS,
    )
    .floats(
        "own_score",
        rows.iter().map(|a| a.own).collect(),
        RATE_DECIMALS,
    )
    .floats(
        "draw_rate",
        rows.iter().map(|a| a.draws).collect(),
        RATE_DECIMALS,
    )
    .optional_floats(
        "gain",
        rows.iter().map(|a| a.gain.map(|g| g.estimate)).collect(),
        RATE_DECIMALS,
    )
    .optional_floats(
        "gain_lo",
        rows.iter().map(|a| a.gain.map(|g| g.ci.lo)).collect(),
        RATE_DECIMALS,
    )
    .optional_floats(
        "gain_hi",
        rows.iter().map(|a| a.gain.map(|g| g.ci.hi)).collect(),
        RATE_DECIMALS,
    )
    .texts(
        "beats_margin",
        rows.iter()
            .map(|a| a.beats_by(plays.margin).to_string())
            .collect(),
    );
    b.finish(rows.len())?.to_csv()
}
