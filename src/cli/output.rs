//! The output-location preflight: before any scenario is simulated (or any
//! report is read for a diff), every folder a command will write is checked
//! with [`crate::report::preflight`]: it must be skirmish's to write (a new
//! folder, or one skirmish wrote), not inside another report, not one of the
//! command's own inputs nor overlapping one, and writable. A problem is bad
//! input (exit 2) and nothing has been simulated or written.
//!
//! Also where the commands' answers go to standard output ([`say`], through
//! the `say!` macro): a closed stdout (`skirmish run ... | head -1`) is not
//! a failure of the work. `println!` would panic (exit 101) and stop the
//! scenarios still to run; here the output ends quietly, the work goes on
//! (every report is written, every journal kept) and the exit code is the
//! work's.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use super::Failure;
use crate::report::{self, Kind};

/// Checks that a report of `kind` can be written to `dir` by a command that
/// reads `inputs`.
pub(super) fn preflight(kind: Kind, dir: &Path, inputs: &[&Path]) -> Result<(), Failure> {
    // The error names the folder and the problem; no context to add.
    report::preflight(kind, dir, inputs).map_err(|e| Failure::BadInput(e.into()))
}

/// Set once stdout could not be written: nothing more is tried.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Writes `text` to stdout; once a write fails (the reader went away),
/// says nothing more, without failing.
pub(crate) fn say(text: std::fmt::Arguments) {
    if STDOUT_CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut out = std::io::stdout().lock();
    if out.write_fmt(text).and_then(|()| out.flush()).is_err() {
        STDOUT_CLOSED.store(true, Ordering::Relaxed);
    }
}
