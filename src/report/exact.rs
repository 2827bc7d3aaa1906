//! The report of `skirmish exact`, in `reports/<name>-exact/`: `cells.csv`
//! (every selected cell's exact probabilities and expected values, see
//! [`super::tables::exact_cells_csv`] for the columns and the decimals
//! rule), `rounds.csv` (the probability of each fight length),
//! `rounds.png` (the run's fight-length chart, drawn from the exact
//! distributions, see [`super::charts::rounds`]) and `summary.md`.
//!
//! Like every report, a pure function of the results: no timings, and the
//! answers themselves do not depend on the thread count, so a re-run gives
//! the same bytes. Written atomically with [`super::write_files`], checked
//! with [`super::compare`].

use std::path::Path;

use super::charts;
use super::documents::exact_md;
use super::error::ReportError;
use super::model::{ExactModel, Lengths};
use super::names::{CELLS_CSV, ROUNDS_CSV, ROUNDS_PNG, SUMMARY_MD};
use super::tables::{exact_cells_csv, exact_rounds_csv};
use super::{write_files, Kind, ReportFile};
use crate::results::ExactResults;

/// The report folder's name for scenario `name`: `<name>-exact`.
pub fn folder_name(name: &str) -> String {
    format!("{name}-exact")
}

/// Renders every file of the exact report in memory, in a fixed order.
pub fn render(results: &ExactResults) -> Result<Vec<ReportFile>, ReportError> {
    let m = ExactModel::new(results)?;
    Ok(vec![
        ReportFile {
            name: CELLS_CSV,
            bytes: exact_cells_csv::render(&m)?,
        },
        ReportFile {
            name: ROUNDS_CSV,
            bytes: exact_rounds_csv::render(&m)?,
        },
        ReportFile {
            name: ROUNDS_PNG,
            bytes: charts::rounds::render(&Lengths::of_exact(&m))?,
        },
        ReportFile {
            name: SUMMARY_MD,
            bytes: exact_md::render(&m).into_bytes(),
        },
    ])
}

/// Decimals the exact report prints its values with
/// ([`super::labels::decimals_good_to`] of the largest rounding bound of
/// any value it prints): what the terminal shows too.
pub fn decimals(results: &ExactResults) -> Result<usize, ReportError> {
    Ok(ExactModel::new(results)?.decimals)
}

/// Renders the exact report and writes it to `out_dir` atomically.
pub fn write(results: &ExactResults, out_dir: &Path) -> Result<(), ReportError> {
    write_files(Kind::Exact, &render(results)?, out_dir)
}
