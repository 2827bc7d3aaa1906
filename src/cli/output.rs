//! The output-location preflight: before any scenario is simulated (or any
//! report is read for a diff), every folder a command will write is checked
//! with [`crate::report::preflight`]: it must be skirmish's to write (a new
//! folder, or one skirmish wrote), not inside another report, not one of the
//! command's own inputs nor overlapping one, and writable. A problem is bad
//! input (exit 2) and nothing has been simulated or written.

use std::path::Path;

use super::Failure;
use crate::report::{self, Kind};

/// Checks that a report of `kind` can be written to `dir` by a command that
/// reads `inputs`.
pub(super) fn preflight(kind: Kind, dir: &Path, inputs: &[&Path]) -> Result<(), Failure> {
    // The error names the folder and the problem; no context to add.
    report::preflight(kind, dir, inputs).map_err(|e| Failure::BadInput(e.into()))
}
