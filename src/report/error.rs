//! [`ReportError`]: everything that can go wrong while rendering, writing or
//! checking a report. Every variant names the file or folder concerned.

use std::path::PathBuf;

/// An error from the report layer.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// Reading, writing, renaming or removing a file or folder failed.
    #[error("cannot {action} {}", path.display())]
    Io {
        /// What was being done, e.g. `"write"`, `"rename into place"`.
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The output folder exists but is not skirmish's to write (see
    /// [`super::folder`]), so nothing in it is touched (protects e.g.
    /// `--out .` from overwriting a working tree).
    #[error("refusing to write into {}: {reason}", path.display())]
    NotAReport { path: PathBuf, reason: String },
    /// The output would be written into or over one of the command's own
    /// inputs (a compared report, the scenario file).
    #[error(
        "refusing to write into {}: it {relation} {}, which this command reads; \
         choose another --out",
        output.display(),
        input.display()
    )]
    Overlap {
        output: PathBuf,
        /// `is`, `holds` or `is inside`.
        relation: &'static str,
        input: PathBuf,
    },
    /// The output would be a folder inside another report folder.
    #[error(
        "refusing to write into {}: it is inside {}, a folder skirmish wrote \
         (a report never goes inside another); choose another --out",
        output.display(),
        report.display()
    )]
    Nested { output: PathBuf, report: PathBuf },
    /// The output location cannot be written (permissions, a read-only file
    /// system), found by creating and removing a file there before any work.
    #[error("cannot write into {}", path.display())]
    Unwritable {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The run results contradict themselves (a bug upstream, not bad input).
    #[error("inconsistent run results: {0}")]
    Inconsistent(String),
    /// plotters failed while drawing a chart.
    #[error("cannot draw {file}: {message}")]
    Chart { file: &'static str, message: String },
    /// The embedded DejaVu Sans font could not be registered with plotters.
    #[error("cannot register the embedded DejaVu Sans font for {file}")]
    Font { file: &'static str },
    /// Encoding a rendered chart as PNG failed.
    #[error("cannot encode {file} as PNG")]
    Png {
        file: &'static str,
        #[source]
        source: png::EncodingError,
    },
    /// polars failed while building or serialising a table.
    #[error("cannot build the table of {file}")]
    Frame {
        file: &'static str,
        #[source]
        source: polars::prelude::PolarsError,
    },
}

impl ReportError {
    /// Wraps an I/O error with what was being done and to which path.
    pub(crate) fn io(
        action: &'static str,
        path: impl Into<PathBuf>,
    ) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.into();
        move |source| ReportError::Io {
            action,
            path,
            source,
        }
    }
}
