//! `diff.csv`: one row per (cell, side) of the cells two compared reports
//! both have: the cell's number in the new report (`cell`) and in the old one
//! (`old_cell`: cells are matched by axis values, so numbers shift when a
//! value is added), axis values, old and new win rate, the change with its
//! 95% interval, and whether it moved. Cells only one report has are listed
//! in `diff.md`.

use super::frame::TableBuilder;
use crate::report::error::ReportError;
use crate::report::labels::RATE_DECIMALS;
use crate::report::model::{Change, Diff};
use crate::report::names::DIFF_CSV;

/// `diff.csv` as bytes.
pub(crate) fn render(diff: &Diff) -> Result<Vec<u8>, ReportError> {
    let mut b = TableBuilder::new(DIFF_CSV);
    let rows = &diff.changes;
    b.ints("cell", rows.iter().map(|c| c.cell as u64).collect());
    b.ints("old_cell", rows.iter().map(|c| c.old_cell as u64).collect());
    for (i, axis) in diff.axes.iter().enumerate() {
        b.texts(
            axis,
            rows.iter()
                .map(|c| c.values.get(i).cloned().unwrap_or_default())
                .collect(),
        );
    }
    b.texts("side", rows.iter().map(|c| c.side.clone()).collect());
    let rate = |name: &str, b: &mut TableBuilder, f: fn(&Change) -> f64| {
        b.floats(name, rows.iter().map(f).collect(), RATE_DECIMALS);
    };
    rate("old", &mut b, |c| c.old);
    rate("new", &mut b, |c| c.new);
    rate("change", &mut b, |c| c.difference.estimate);
    rate("change_lo", &mut b, |c| c.difference.ci.lo);
    rate("change_hi", &mut b, |c| c.difference.ci.hi);
    b.ints("moved", rows.iter().map(|c| u64::from(c.moved)).collect());
    b.finish(rows.len())?.to_csv()
}
