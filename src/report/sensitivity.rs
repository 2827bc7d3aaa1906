//! The report of `skirmish sensitivity`, in `reports/<name>-sensitivity/`:
//! `sensitivity.csv` (every stat, ranked), `sensitivity.png` (the ranked
//! chart, see [`super::charts::sensitivity`]) and `summary.md`; plus the
//! table the command prints.
//!
//! Like every report, a pure function of the results: the same seed gives
//! the same bytes at any thread count. Written atomically with
//! [`super::write_files`], checked with [`super::compare`].

use std::path::Path;

use super::charts;
use super::documents::sensitivity_md;
use super::error::ReportError;
use super::model::SensitivityModel;
use super::names::{SENSITIVITY_CSV, SENSITIVITY_PNG, SUMMARY_MD};
use super::tables::sensitivity_csv;
use super::{write_files, ReportFile};
use crate::results::SensitivityResults;

/// The report folder's name for scenario `name`: `<name>-sensitivity`.
pub fn folder_name(name: &str) -> String {
    format!("{name}-sensitivity")
}

/// Renders every file of the sensitivity report in memory, in a fixed order.
pub fn render(results: &SensitivityResults) -> Result<Vec<ReportFile>, ReportError> {
    let m = SensitivityModel::new(results)?;
    Ok(vec![
        ReportFile {
            name: SENSITIVITY_CSV,
            bytes: sensitivity_csv::render(&m)?,
        },
        ReportFile {
            name: SENSITIVITY_PNG,
            bytes: charts::sensitivity::render(&m)?,
        },
        ReportFile {
            name: SUMMARY_MD,
            bytes: sensitivity_md::render(&m).into_bytes(),
        },
    ])
}

/// Renders the sensitivity report and writes it to `out_dir` atomically.
pub fn write(results: &SensitivityResults, out_dir: &Path) -> Result<(), ReportError> {
    write_files(super::Kind::Sensitivity, &render(results)?, out_dir)
}

/// What the command prints: the `limit` stats with the largest effects as
/// an aligned table, how many more there are, and the equivalent points.
pub fn terminal(results: &SensitivityResults, limit: usize) -> Result<String, ReportError> {
    let m = SensitivityModel::new(results)?;
    let mut table = vec![sensitivity_md::header(&m)];
    table.extend(sensitivity_md::rows(&m, limit));
    let columns = table[0].len();
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            table
                .iter()
                .map(|r| r[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in &table {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (text, &w))| {
                if c == 1 {
                    format!("{text:<w$}")
                } else {
                    format!("{text:>w$}")
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    let more = results.stats.len().saturating_sub(limit);
    if more > 0 {
        out.push_str(&format!(
            "… and {more} more stat{} in {SENSITIVITY_CSV}\n",
            if more == 1 { "" } else { "s" }
        ));
    }
    for e in m.equivalences.iter().take(limit) {
        out.push_str(&format!("{}\n", sensitivity_md::equivalence(&m, e)));
    }
    let more = m.equivalences.len().saturating_sub(limit);
    if more > 0 {
        out.push_str(&format!(
            "… and {more} more equivalent point{} in {SUMMARY_MD}\n",
            if more == 1 { "" } else { "s" }
        ));
    }
    Ok(out)
}
