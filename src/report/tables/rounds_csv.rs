//! `rounds.csv`: the fight-length histogram in long format, `cell,rounds,fights`,
//! one row per cell and fight length that occurred, ordered by cell then
//! rounds. Lengths no fight had are left out (a missing row means 0 fights).

use super::frame::{Table, TableBuilder};
use crate::report::error::ReportError;
use crate::report::model::Report;
use crate::report::names::ROUNDS_CSV;

/// The rounds table (kept apart from the bytes so tests can inspect it).
pub(crate) fn table(report: &Report) -> Result<Table, ReportError> {
    let rows: Vec<(u64, u64, u64)> = report
        .cells
        .iter()
        .zip(&report.summaries)
        .flat_map(|(cell, summary)| {
            summary
                .lengths
                .iter()
                .map(move |bin| (cell.index as u64, u64::from(bin.rounds), bin.fights))
        })
        .collect();
    let mut b = TableBuilder::new(ROUNDS_CSV);
    b.ints("cell", rows.iter().map(|r| r.0).collect())
        .ints("rounds", rows.iter().map(|r| r.1).collect())
        .ints("fights", rows.iter().map(|r| r.2).collect());
    b.finish(rows.len())
}

/// `rounds.csv` as bytes.
pub(crate) fn render(report: &Report) -> Result<Vec<u8>, ReportError> {
    table(report)?.to_csv()
}
