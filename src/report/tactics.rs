//! The report of `skirmish tactics`, in `reports/<name>-tactics/`:
//! `payoff.csv` (every pair of strategies), `strategies.csv` (every
//! strategy: its optimal probability, worst case, dominance), `payoff.png`
//! (the matrix as a heatmap) and `summary.md` (the verdict); plus what the
//! command prints.
//!
//! Like every report, a pure function of the results: the same seed gives
//! the same bytes at any thread count. Written atomically with
//! [`super::write_files`], checked with [`super::compare`].

use super::charts;
use super::documents::tactics_md;
use super::error::ReportError;
use super::model::TacticsModel;
use super::names::{PAYOFF_CSV, PAYOFF_PNG, STRATEGIES_CSV, SUMMARY_MD};
use super::tables::payoff_csv;
use super::ReportFile;
use crate::results::TacticsResults;

/// The report folder's name for scenario `name`: `<name>-tactics`.
pub fn folder_name(name: &str) -> String {
    format!("{name}-tactics")
}

/// Renders every file of the tactics report in memory, in a fixed order.
pub fn render(results: &TacticsResults) -> Result<Vec<ReportFile>, ReportError> {
    let m = TacticsModel::new(results)?;
    Ok(vec![
        ReportFile {
            name: PAYOFF_CSV,
            bytes: payoff_csv::render(&m)?,
        },
        ReportFile {
            name: STRATEGIES_CSV,
            bytes: payoff_csv::render_strategies(&m)?,
        },
        ReportFile {
            name: PAYOFF_PNG,
            bytes: charts::payoff::render(&m)?,
        },
        ReportFile {
            name: SUMMARY_MD,
            bytes: tactics_md::render(&m).into_bytes(),
        },
    ])
}

/// What the command prints: the verdict.
pub fn terminal(results: &TacticsResults) -> Result<String, ReportError> {
    let m = TacticsModel::new(results)?;
    Ok(tactics_md::verdict(&m))
}
