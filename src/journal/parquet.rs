//! `--export-batches FILE.parquet`: the batch records of a run for
//! analysts, one row per batch group of each cell (per batch while a cell
//! has at most [`FIXED_GROUPS`](super::FIXED_GROUPS) batches, and under a
//! precision target).
//!
//! Columns: `cell`, one column per matrix axis (named by its path, as in
//! cells.csv), `group`, `batches`, `fights`, `draws`, `draws_at_cap` (of
//! the draws, fights still running at the round cap), `rounds_sum`, then
//! per side `wins_<side>`, `survivors_<side>`, `damage_<side>`, then the
//! ruleset's counters by name: counts and sums, never rates.

use std::fs::File;
use std::path::Path;

use polars::prelude::*;

use crate::journal::ledger::{Ledger, LedgerError};

/// Why the export failed.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("{path}: cannot write: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: {source}")]
    Polars { path: String, source: PolarsError },
    #[error("{0}")]
    Ledger(#[from] LedgerError),
}

/// Writes the ledger's batch groups to `path` (Parquet), with the columns
/// named by `sides` and `counters`, and each cell's axis values.
pub fn write(
    ledger: &mut Ledger,
    axes: &[String],
    cell_values: &[Vec<String>],
    sides: &[String],
    counters: &[&str],
    path: &Path,
) -> Result<(), ExportError> {
    let shown = path.display().to_string();
    let polars = |source| ExportError::Polars {
        path: shown.clone(),
        source,
    };
    let mut frame = ledger.groups()?.clone();
    // Column names for people: sides and counters by name.
    let mut renames: Vec<(String, String)> = Vec::new();
    for what in ["wins", "survivors", "damage"] {
        for (s, side) in sides.iter().enumerate() {
            renames.push((format!("{what}_{s}"), format!("{what}_{side}")));
        }
    }
    for (c, name) in counters.iter().enumerate() {
        renames.push((format!("counter_{c}"), (*name).to_owned()));
    }
    for (from, to) in &renames {
        frame.rename(from, to.as_str().into()).map_err(polars)?;
    }
    let cells = frame
        .column("cell")
        .map_err(polars)?
        .u32()
        .map_err(polars)?
        .clone();
    for (a, axis) in axes.iter().enumerate().rev() {
        let values: Vec<String> = cells
            .iter()
            .map(|c| {
                c.and_then(|c| cell_values.get(c as usize))
                    .and_then(|v| v.get(a))
                    .cloned()
                    .unwrap_or_default()
            })
            .collect();
        frame
            .insert_column(1, Column::new(axis.as_str().into(), values))
            .map_err(polars)?;
    }
    // Written whole or not at all: into a temporary file, renamed into
    // place.
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp-{}", std::process::id()));
    let tmp = std::path::PathBuf::from(tmp);
    let io = |source| ExportError::Io {
        path: shown.clone(),
        source,
    };
    let mut file = File::create(&tmp).map_err(io)?;
    let written = ParquetWriter::new(&mut file)
        .finish(&mut frame)
        .map_err(polars)
        .and_then(|_| file.sync_all().map_err(io))
        .and_then(|()| std::fs::rename(&tmp, path).map_err(io));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// Refuses, before any work, an export over an existing file (skirmish
/// never overwrites a file it did not write) or into a missing folder.
pub fn check_target(path: &Path) -> Result<(), String> {
    if std::fs::symlink_metadata(path).is_ok() {
        return Err(format!(
            "--export-batches {}: the file exists, and skirmish does not overwrite files: \
             remove it or give another name",
            path.display()
        ));
    }
    match path.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(dir) if !dir.is_dir() => Err(format!(
            "--export-batches {}: the folder {} does not exist",
            path.display(),
            dir.display()
        )),
        _ => Ok(()),
    }
}
