//! Ctrl-C and SIGTERM (Slurm's and Kubernetes' "stop now") during a run:
//! the first one asks the run to stop after the batches in flight, so what
//! is done is saved in the journal; a second Ctrl-C ends the process at
//! once. The exit code is the shell's convention: 128 + the signal's
//! number (130 for SIGINT, 143 for SIGTERM).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use signal_hook::consts::{SIGINT, SIGTERM};

/// The stop request, and which signal made it.
pub struct Signals {
    stop: Arc<AtomicBool>,
    int: Arc<AtomicBool>,
    term: Arc<AtomicBool>,
}

impl Signals {
    /// Installs the handlers for the rest of the process.
    pub fn install() -> std::io::Result<Signals> {
        let stop = Arc::new(AtomicBool::new(false));
        let int = Arc::new(AtomicBool::new(false));
        let term = Arc::new(AtomicBool::new(false));
        for (signal, seen, code) in [(SIGINT, &int, 130), (SIGTERM, &term, 143)] {
            // Registered first, so it sees the flag as the previous signal
            // left it: a second signal of the same kind exits at once.
            signal_hook::flag::register_conditional_shutdown(signal, code, Arc::clone(seen))?;
            signal_hook::flag::register(signal, Arc::clone(seen))?;
            signal_hook::flag::register(signal, Arc::clone(&stop))?;
        }
        Ok(Signals { stop, int, term })
    }

    /// The flag a run polls between batches.
    pub fn stop(&self) -> &AtomicBool {
        &self.stop
    }

    /// The exit code for the signal that stopped the run: 143 for SIGTERM,
    /// else 130.
    pub fn exit_code(&self) -> u8 {
        if self.term.load(Ordering::Relaxed) && !self.int.load(Ordering::Relaxed) {
            143
        } else {
            130
        }
    }
}
