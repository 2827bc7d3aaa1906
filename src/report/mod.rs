//! The report layer: turns [`RunResults`] into the files of `reports/<name>/`
//! (cells.csv, rounds.csv, win_rate.png, rounds.png, summary.md), writes them
//! atomically, and compares a rendered report with one on disk (`--check`).
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
mod fonts;
mod frame;
mod labels;
pub mod numbers;
mod rounds_chart;
mod rounds_csv;
mod style;
mod summary_md;
mod win_rate_chart;

use std::fs;
use std::path::{Path, PathBuf};

pub use check::{check, compare, Difference};
pub use error::ReportError;

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

/// Renders the report and writes it to `out_dir` atomically.
///
/// The files go into a fresh sibling folder `<out_dir>.tmp-<pid>`, which is
/// then renamed to `out_dir`; an existing `out_dir` is first renamed aside to
/// `<out_dir>.old-<pid>` and deleted once the new report is in place. So
/// `out_dir` is always either the old report or the complete new one, and a
/// failure removes the temporary folder. Parent folders are created as needed.
///
/// An existing `out_dir` is only replaced if it looks like a report: a folder
/// holding nothing but `.csv`, `.png` and `.md` files. Anything else (e.g.
/// `--out .` or `--out src`) is refused rather than deleted.
pub fn write(results: &RunResults, out_dir: &Path) -> Result<(), ReportError> {
    let files = render(results)?;
    write_files(&files, out_dir)
}

/// Writes rendered files to `out_dir` atomically (see [`write`]).
pub fn write_files(files: &[ReportFile], out_dir: &Path) -> Result<(), ReportError> {
    let (parent, name) = split_dir(out_dir)?;
    if out_dir.exists() {
        ensure_replaceable(out_dir)?;
    }
    fs::create_dir_all(&parent).map_err(ReportError::io("create folder", &parent))?;

    let pid = std::process::id();
    let tmp = parent.join(format!("{name}.tmp-{pid}"));
    // A folder with our pid can only be left over from a crashed run that
    // happened to have the same pid; it is ours to replace.
    remove_if_present(&tmp)?;
    fs::create_dir(&tmp).map_err(ReportError::io("create folder", &tmp))?;
    if let Err(e) = fill(&tmp, files) {
        // Best effort: the error being reported matters more than a failure
        // to clean up after it.
        let _ = fs::remove_dir_all(&tmp);
        return Err(e);
    }

    if !out_dir.exists() {
        return fs::rename(&tmp, out_dir).map_err(|e| {
            let _ = fs::remove_dir_all(&tmp);
            ReportError::io("rename into place", out_dir)(e)
        });
    }
    let old = parent.join(format!("{name}.old-{pid}"));
    remove_if_present(&old)?;
    if let Err(e) = fs::rename(out_dir, &old) {
        let _ = fs::remove_dir_all(&tmp);
        return Err(ReportError::io("move aside", out_dir)(e));
    }
    if let Err(e) = fs::rename(&tmp, out_dir) {
        // Put the old report back so the folder is never left empty.
        let _ = fs::rename(&old, out_dir);
        let _ = fs::remove_dir_all(&tmp);
        return Err(ReportError::io("rename into place", out_dir)(e));
    }
    fs::remove_dir_all(&old).map_err(ReportError::io("remove the previous report", &old))
}

/// `out_dir`'s parent folder (`.` for a bare name) and its own name.
fn split_dir(out_dir: &Path) -> Result<(PathBuf, String), ReportError> {
    let name = out_dir
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| ReportError::NotAReport {
            path: out_dir.to_path_buf(),
            reason: "the output folder needs a plain UTF-8 name (not `.`, `..` or `/`)".to_owned(),
        })?;
    let parent = match out_dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok((parent, name.to_owned()))
}

/// Refuses to replace anything that is not a folder of report-like files.
fn ensure_replaceable(out_dir: &Path) -> Result<(), ReportError> {
    let refuse = |reason: String| ReportError::NotAReport {
        path: out_dir.to_path_buf(),
        reason,
    };
    if !out_dir.is_dir() {
        return Err(refuse("it exists and is not a folder".to_owned()));
    }
    let entries = fs::read_dir(out_dir).map_err(ReportError::io("read folder", out_dir))?;
    for entry in entries {
        let entry = entry.map_err(ReportError::io("read folder", out_dir))?;
        let path = entry.path();
        if !path.is_file() || !check::looks_like_report_file(&path) {
            return Err(refuse(format!(
                "it contains {}, which a report never contains",
                entry.file_name().to_string_lossy()
            )));
        }
    }
    Ok(())
}

fn remove_if_present(dir: &Path) -> Result<(), ReportError> {
    match fs::remove_dir_all(dir) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(ReportError::io("remove stale folder", dir)(e))
        }
        _ => Ok(()),
    }
}

/// Writes every file into `dir` and flushes it to disk, so the rename that
/// follows publishes complete files.
fn fill(dir: &Path, files: &[ReportFile]) -> Result<(), ReportError> {
    for file in files {
        let path = dir.join(file.name);
        fs::write(&path, &file.bytes).map_err(ReportError::io("write", &path))?;
        fs::File::open(&path)
            .and_then(|f| f.sync_all())
            .map_err(ReportError::io("flush", &path))?;
    }
    Ok(())
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
