//! Progress bar factory: one indicatif bar over all fights of a run, with
//! rate and ETA, hidden when stderr is not a terminal or with `--quiet`.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar over `total` fights.
pub fn fights_bar(total: u64, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
    }
    let bar = ProgressBar::new(total);
    // The template is a constant; a typo in it is a bug caught the first
    // time any run shows a bar, so fall back to the default style.
    if let Ok(style) = ProgressStyle::with_template(
        "{msg} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} fights ({per_sec}, ETA {eta})",
    ) {
        bar.set_style(style);
    }
    bar
}
