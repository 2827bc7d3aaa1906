//! The report layer: turns [`RunResults`] into the files of `reports/<name>/`
//! (cells.csv, rounds.csv, win_rate.png, rounds.png, summary.md), writes them
//! atomically, and compares a rendered report with one on disk (`--check`).
//! Which folders skirmish may write, and how it writes one without touching
//! files it did not write, is [`folder`]'s business.
//!
//! Statistics come from [`crate::analysis`]; this layer only lays out tables
//! (polars), draws charts (plotters) and writes text. Every output is a pure
//! function of the run results: no timings, dates, paths or thread counts, so
//! a re-run with the same seed gives byte-identical files.
//!
//! `skirmish balance` has its own report ([`balance`]: probes.csv,
//! balance.md, balance.png), written and checked with the same helpers.
//!
//! One module per output file; `frame` (tables → CSV), `labels` (numbers and
//! cell names), `style` (colours, fonts, PNG canvas) and `fonts` are shared.

pub mod balance;
mod balance_chart;
mod cells_csv;
mod check;
pub mod diff;
mod diff_chart;
mod error;
mod folder;
mod fonts;
mod frame;
mod labels;
mod rounds_chart;
mod rounds_csv;
mod style;
mod summary_md;
mod win_rate_chart;

use std::path::Path;

pub use check::{check, compare, Checked, Difference};
pub use error::ReportError;
pub use folder::{preflight, write_files, Kind, MANIFEST};

use crate::analysis::{self, Comparison, Summary};
use crate::engine::tally::{MAX_COUNTERS, MAX_SIDES};
use crate::results::{CellResult, RunResults, ScenarioInfo};

/// File name of the per-cell table.
pub const CELLS_CSV: &str = "cells.csv";
/// File name of the fight-length histogram.
pub const ROUNDS_CSV: &str = "rounds.csv";
/// File name of the win-rate chart.
pub const WIN_RATE_PNG: &str = "win_rate.png";
/// File name of the fight-length chart.
pub const ROUNDS_PNG: &str = "rounds.png";
/// File name of the summary.
pub const SUMMARY_MD: &str = "summary.md";

/// How many cells "Largest effects" in summary.md lists.
const LARGEST_EFFECTS: usize = 5;

/// One rendered file of a report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportFile {
    /// File name inside the report folder, e.g. `cells.csv`.
    pub name: &'static str,
    pub bytes: Vec<u8>,
}

/// What every output module reads: the run plus its per-cell summaries.
pub(crate) struct Report<'a> {
    pub(crate) info: &'a ScenarioInfo,
    pub(crate) cells: &'a [CellResult],
    /// One per cell, in cell order.
    pub(crate) summaries: Vec<Summary>,
    /// Each cell compared with the baseline cell, in cell order.
    pub(crate) comparisons: Vec<Comparison>,
}

impl<'a> Report<'a> {
    fn new(results: &'a RunResults) -> Result<Self, ReportError> {
        validate(results)?;
        let info = &results.scenario;
        let summaries = results
            .cells
            .iter()
            .map(|c| analysis::summarize(&c.tally, info.sides.len(), info.counters.len()))
            .collect::<Vec<Summary>>();
        let pairs: Vec<(&Summary, &[crate::engine::BatchStat])> = summaries
            .iter()
            .zip(&results.cells)
            .map(|(s, c)| (s, c.batches.as_slice()))
            .collect();
        let comparisons = analysis::compare_all(&pairs, info.baseline);
        Ok(Report {
            info,
            cells: &results.cells,
            summaries,
            comparisons,
        })
    }
}

/// Renders every file of the report in memory, in a fixed order.
pub fn render(results: &RunResults) -> Result<Vec<ReportFile>, ReportError> {
    let report = Report::new(results)?;
    Ok(vec![
        ReportFile {
            name: CELLS_CSV,
            bytes: cells_csv::render(&report)?,
        },
        ReportFile {
            name: ROUNDS_CSV,
            bytes: rounds_csv::render(&report)?,
        },
        ReportFile {
            name: WIN_RATE_PNG,
            bytes: win_rate_chart::render(&report)?,
        },
        ReportFile {
            name: ROUNDS_PNG,
            bytes: rounds_chart::render(&report)?,
        },
        ReportFile {
            name: SUMMARY_MD,
            bytes: summary_md::render(&report).into_bytes(),
        },
    ])
}

/// Renders the report and writes it to `out_dir`: atomically, replacing
/// only the files skirmish wrote there (see [`folder`]).
pub fn write(results: &RunResults, out_dir: &Path) -> Result<(), ReportError> {
    let files = render(results)?;
    write_files(Kind::Run, &files, out_dir)
}

/// Checks the invariants the outputs rely on, so they can index freely.
fn validate(results: &RunResults) -> Result<(), ReportError> {
    let info = &results.scenario;
    let fail = |msg: String| Err(ReportError::Inconsistent(msg));
    if results.cells.is_empty() {
        return fail("no cells".to_owned());
    }
    if info.baseline >= results.cells.len() {
        return fail(format!(
            "baseline cell {} of {} cells",
            info.baseline,
            results.cells.len()
        ));
    }
    if info.sides.is_empty() || info.sides.len() > MAX_SIDES {
        return fail(format!(
            "{} sides (expected 1 to {MAX_SIDES})",
            info.sides.len()
        ));
    }
    if info.counters.len() > MAX_COUNTERS {
        return fail(format!(
            "{} counters (at most {MAX_COUNTERS})",
            info.counters.len()
        ));
    }
    for (position, cell) in results.cells.iter().enumerate() {
        if cell.index != position {
            return fail(format!(
                "cell at position {position} has index {}",
                cell.index
            ));
        }
        if cell.axis_values.len() != info.axes.len() {
            return fail(format!(
                "cell {position} has {} axis values for {} axes",
                cell.axis_values.len(),
                info.axes.len()
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
