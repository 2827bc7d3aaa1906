//! The report layer: turns [`RunResults`] into the files of `reports/<name>/`
//! (cells.csv, rounds.csv, win_rate.png, rounds.png, summary.md, fights.md), writes them
//! atomically, and compares a rendered report with one on disk (`--check`).
//! Which folders skirmish may write, and how it writes one without touching
//! files it did not write, is `folder`'s business.
//!
//! Statistics come from [`crate::analysis`]; this layer only lays out tables
//! (polars), draws charts (plotters) and writes text. Every output is a pure
//! function of the run results: no timings, dates, paths or thread counts, so
//! a re-run with the same seed gives byte-identical files.
//!
//! `skirmish balance` has its own report ([`balance`]: probes.csv,
//! balance.md, balance.png), and so have `skirmish sensitivity`
//! ([`sensitivity`]: sensitivity.csv, sensitivity.png, summary.md) and
//! `skirmish exact` ([`exact`]: cells.csv, rounds.csv, rounds.png,
//! summary.md) and `skirmish tactics` ([`tactics`]: payoff.csv,
//! strategies.csv, payoff.png, summary.md), written and checked with the
//! same helpers.
//!
//! Layout (each part imports only the parts above it, never a sibling part):
//!
//! - leaves: `names` (every file name), `labels` (cell names, fixed decimals),
//!   [`numbers`] (numbers for people, to the precision of their intervals),
//!   `error`, `folder` (which folders skirmish may write, and the
//!   writing), `model` (what the outputs read: `Report`,
//!   the [`Diff`](diff::Diff) of two reports, the exact report's
//!   `ExactModel`, the fight lengths `Lengths` both reports chart,
//!   [`ReportFile`]), `variants` (how a matrix's cells differ on a line of
//!   the scenario), `caveats` (what to know before reading the numbers,
//!   over `model`);
//! - `tables/`: one module per CSV file, over `tables::frame` (polars);
//! - `charts/`: one module per PNG file, over `charts::style` and
//!   `charts::fonts` (plotters);
//! - `documents/`: one module per Markdown file (summary.md, diff.md,
//!   balance.md, a sensitivity report's summary.md);
//! - the assemblers: this module's [`render`] (a run's report), [`diff`]
//!   (reads and compares two reports), [`balance`], [`sensitivity`] and
//!   [`exact`], which call the tables,
//!   charts and documents in a fixed order; `check` compares a rendered
//!   report with one on disk.

pub mod balance;
mod caveats;
pub mod charts;
mod check;
pub mod diff;
pub mod documents;
mod error;
pub mod exact;
mod folder;
mod labels;
mod model;
mod names;
pub mod numbers;
pub mod sensitivity;
mod tables;
pub mod tactics;
mod variants;

use std::path::Path;

pub use check::{check, compare, Checked, Difference};
pub use error::ReportError;
pub use folder::{preflight, probe, write_files, Kind, MANIFEST};
pub use model::ReportFile;
pub use names::{CELLS_CSV, FIGHTS_MD, ROUNDS_CSV, ROUNDS_PNG, SUMMARY_MD, WIN_RATE_PNG};

use crate::results::RunResults;
use documents::{fights_md, summary_md};
use model::Report;
use tables::{cells_csv, rounds_csv};

/// What the fights showed that a designer must know before reading the
/// report's numbers (fights cut short by the round cap, axes that changed
/// no fight), one line each, for the terminal: summary.md lists them under
/// "Read this first", after the warnings found when the scenario was
/// loaded (which the terminal heard then).
pub fn caveats(results: &RunResults) -> Result<Vec<String>, ReportError> {
    Ok(caveats::found(&Report::new(results)?))
}

/// Renders every file of the report in memory, in a fixed order.
pub fn render(results: &RunResults) -> Result<Vec<ReportFile>, ReportError> {
    let report = Report::new(results)?;
    let mut files = vec![
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
            bytes: charts::win_rate::render(&report)?,
        },
        ReportFile {
            name: ROUNDS_PNG,
            bytes: charts::rounds::render(&model::Lengths::of_run(&report))?,
        },
        ReportFile {
            name: SUMMARY_MD,
            bytes: summary_md::render(&report).into_bytes(),
        },
        ReportFile {
            name: FIGHTS_MD,
            bytes: fights_md::render(&report).into_bytes(),
        },
    ];
    if let Some(plays) = &report.plays {
        files.push(ReportFile {
            name: names::PLAYS_CSV,
            bytes: tables::plays_csv::render(&report, plays)?,
        });
    }
    // On a map: its picture and where units fell (a report without a map
    // is what it was).
    if let Some(ground) = report.ground {
        files.extend(ground_files(&report, ground)?);
    }
    Ok(files)
}

/// `map.png` and `falls.png` for a run on a map.
fn ground_files(
    report: &Report,
    ground: &crate::results::GroundReport,
) -> Result<Vec<ReportFile>, ReportError> {
    let info = report.info;
    let sides: Vec<&str> = info.sides.iter().map(|s| s.name.as_str()).collect();
    let groups: Vec<charts::map::StartGroup> = ground
        .groups
        .iter()
        .map(|(name, side, starts)| charts::map::StartGroup {
            name,
            side: *side,
            starts,
        })
        .collect();
    let falls: Vec<&[u32]> = ground.falls.iter().map(Vec::as_slice).collect();
    Ok(vec![
        ReportFile {
            name: names::MAP_PNG,
            bytes: charts::map::render(&info.name, &ground.map, &sides, &groups)?,
        },
        ReportFile {
            name: names::FALLS_PNG,
            bytes: charts::falls::render(&info.name, &ground.map, &sides, &falls)?,
        },
    ])
}

/// Renders the report and writes it to `out_dir`: atomically, replacing
/// only the files skirmish wrote there (see `folder`).
pub fn write(results: &RunResults, out_dir: &Path) -> Result<(), ReportError> {
    let files = render(results)?;
    write_files(Kind::Run, &files, out_dir)
}

#[cfg(test)]
mod tests;
