//! What skirmish knows of other processes: whether one is still running,
//! so that what a killed run left behind (a staging folder, a journal's
//! temporary file) can be told from what a live run is writing; and the
//! failpoints tests use to kill a run at an exact moment.

use std::path::Path;

/// Whether process `pid` is running. Known only where `/proc` exists
/// (Linux); elsewhere every process counts as running, so nothing that may
/// still be in use is removed.
pub fn is_running(pid: u32) -> bool {
    let proc = Path::new("/proc");
    !proc.join("self").exists() || proc.join(pid.to_string()).exists()
}

/// A named moment at which a test may have this process killed, exactly
/// as `kill -9` would kill it: when the environment variable
/// `SKIRMISH_FAILPOINT` is `name`, the process sends itself SIGKILL (no
/// destructor runs, nothing is flushed). The moments are: `journal-written`
/// (a journal rewrite renamed into place), `report-staged` (a new report's
/// files written to its temporary folder, not yet renamed), `report-half-swapped`
/// (one file of an existing report replaced), `report-written` (the report
/// complete, its journal not yet removed).
pub fn failpoint(name: &str) {
    if std::env::var_os("SKIRMISH_FAILPOINT").is_some_and(|v| v == name) {
        let _ = signal_hook::low_level::raise(signal_hook::consts::SIGKILL);
    }
}
