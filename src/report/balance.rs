//! The report of `skirmish balance`, in `reports/<name>-balance/`:
//! `probes.csv` (every probe in the order it was made), `balance.md` (the
//! question, the answer, the table, the chart) and `balance.png` (see
//! [`super::charts::balance`]).
//!
//! Like every report, a pure function of the results: the same seed gives
//! the same bytes at any thread count. Written atomically with
//! [`super::write_files`], checked with [`super::compare`].

use std::path::Path;

use super::charts;
use super::documents::balance_md;
use super::error::ReportError;
use super::tables::probes_csv;
use super::{write_files, ReportFile};
use crate::results::BalanceResults;

pub use super::documents::balance_md::{answer, rate_label};
pub use super::names::{BALANCE_MD, BALANCE_PNG, PROBES_CSV};

/// The report folder's name for scenario `name`: `<name>-balance`.
pub fn folder_name(name: &str) -> String {
    format!("{name}-balance")
}

/// Renders every file of the balance report in memory, in a fixed order.
pub fn render(results: &BalanceResults) -> Result<Vec<ReportFile>, ReportError> {
    if results.crossing.probes.is_empty()
        || results.crossing.lower >= results.crossing.probes.len()
        || results.crossing.upper >= results.crossing.probes.len()
    {
        return Err(ReportError::Inconsistent(
            "a balance search without its bracket probes".to_owned(),
        ));
    }
    Ok(vec![
        ReportFile {
            name: PROBES_CSV,
            bytes: probes_csv::render(results)?,
        },
        ReportFile {
            name: BALANCE_MD,
            bytes: balance_md::render(results).into_bytes(),
        },
        ReportFile {
            name: BALANCE_PNG,
            bytes: charts::balance::render(results)?,
        },
    ])
}

/// Renders the balance report and writes it to `out_dir` atomically.
pub fn write(results: &BalanceResults, out_dir: &Path) -> Result<(), ReportError> {
    write_files(super::Kind::Balance, &render(results)?, out_dir)
}
