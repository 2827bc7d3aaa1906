//! What skirmish knows of processes: whether one is still running, so that
//! what a killed run left behind (a staging folder, a journal's temporary
//! file) can be told from what a live run is writing; the failpoints tests
//! use to kill a run at an exact moment; and how this process's allocator
//! is told to give memory back.

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

/// Keep the allocator from holding on to freed memory, so that a run's
/// peak memory depends on what it keeps (cells and batch groups), not on
/// how long it ran. Called once, before any work.
///
/// glibc's malloc serves blocks of at least `M_MMAP_THRESHOLD` (128 KiB)
/// with their own mappings, returned to the system when freed, but raises
/// that threshold (up to 32 MiB) each time such a block is freed. The
/// ledger's folds allocate and free large polars columns on several
/// threads, so after a few folds they came from the threads' heaps, where
/// freed memory stays resident: a 1,000-cell duel matrix peaked at 89, 117
/// and 123 MiB for 10^6, 10^7 and 10^8 fights. Fixing the threshold (which
/// also stops its raising) gave 78, 86 and 86 MiB, at the same speed.
/// Elsewhere (other C libraries, other systems): nothing to do.
pub fn settle_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        const THRESHOLD: libc::c_int = 128 * 1024;
        // SAFETY: mallopt only sets a malloc parameter; no allocation is
        // in flight on another thread (this runs first thing in `main`).
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, THRESHOLD);
        }
    }
}
