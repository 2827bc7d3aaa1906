//! `rounds.csv` of an exact report: the fight-length distribution in long
//! format, `cell,rounds,probability`, one row per selected cell and fight
//! length with a probability above zero, ordered by cell then rounds. The
//! probabilities have the report's decimals ([`ExactModel::decimals`]); a
//! missing row means the fight cannot last that long.

use super::frame::{Table, TableBuilder};
use crate::report::error::ReportError;
use crate::report::model::ExactModel;
use crate::report::names::ROUNDS_CSV;

/// The rounds table (kept apart from the bytes so tests can inspect it).
pub(crate) fn table(m: &ExactModel) -> Result<Table, ReportError> {
    let rows: Vec<(u64, u64, f64)> = m
        .cells
        .iter()
        .flat_map(|cell| {
            cell.answer
                .rounds
                .iter()
                .enumerate()
                .filter(|&(_, &p)| p > 0.0)
                .map(move |(r, &p)| (cell.index as u64, r as u64, p))
        })
        .collect();
    let mut b = TableBuilder::new(ROUNDS_CSV);
    b.ints("cell", rows.iter().map(|r| r.0).collect())
        .ints("rounds", rows.iter().map(|r| r.1).collect())
        .floats(
            "probability",
            rows.iter().map(|r| r.2).collect(),
            m.decimals,
        );
    b.finish(rows.len())
}

/// `rounds.csv` as bytes.
pub(crate) fn render(m: &ExactModel) -> Result<Vec<u8>, ReportError> {
    table(m)?.to_csv()
}
