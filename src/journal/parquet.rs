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
//!
//! The file is written whole or not at all: into `<file>.tmp-<pid>`,
//! renamed into place. A temporary left by a process that is gone (a kill
//! during an export) is removed by the next export to the same file, if
//! it is one (a Parquet file, or empty). Whether the file can be written is
//! checked before any simulating ([`check_target`]).

use std::path::{Path, PathBuf};

use polars::prelude::*;

use crate::journal::ledger::{Ledger, LedgerError};

/// Why the export failed.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    // The source is printed after this by the error chain.
    #[error("{path}: cannot write")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}")]
    Polars { path: String, source: PolarsError },
    // Transparent: `{0}` would print the cause, and the error chain again.
    #[error(transparent)]
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
    remove_stale_temporaries(path);
    let tmp = temporary(path, std::process::id());
    let io = |source| ExportError::Io {
        path: shown.clone(),
        source,
    };
    let mut file = crate::files::create(&tmp).map_err(io)?;
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
        dir => crate::report::probe(dir.unwrap_or(Path::new("."))).map_err(|e| {
            format!(
                "--export-batches {}: {:#}",
                path.display(),
                anyhow::Error::from(e)
            )
        }),
    }
}

/// The first bytes of every Parquet file.
const PARQUET_MAGIC: &[u8] = b"PAR1";

/// `<file>.tmp-<pid>`: where an export is written before it is renamed.
fn temporary(path: &Path, pid: u32) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".tmp-{pid}"));
    PathBuf::from(name)
}

/// Removes `<file>.tmp-<pid>` files of exports whose process is gone, if
/// they are regular files holding a Parquet file's start or nothing (a
/// kill right after creating it): anything else is not skirmish's.
fn remove_stale_temporaries(path: &Path) {
    let (Some(name), dir) = (path.file_name().and_then(|n| n.to_str()), path.parent()) else {
        return;
    };
    let dir = dir
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let prefix = format!("{name}.tmp-");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.strip_prefix(&prefix))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        let ours = crate::files::head(&entry.path(), PARQUET_MAGIC.len())
            .is_ok_and(|b| b.is_empty() || b == PARQUET_MAGIC);
        if ours && pid != std::process::id() && !crate::process::is_running(pid) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}
