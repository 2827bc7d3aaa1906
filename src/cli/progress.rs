//! Progress bar factory: one indicatif bar over all fights of a run, with
//! rate and ETA, hidden when stderr is not a terminal or with `--quiet`.
//!
//! The line fits an 80-column terminal whatever the numbers: the label (the
//! scenario's name) is cut to [`LABEL_WIDTH`] characters, counts and rates
//! are printed for people with at most four characters before the unit
//! (`1.5M/12M fights · 1.5M fights/s · ETA 3m20s`, see [`human`]), and the
//! bar takes what is left of the terminal's width.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// Columns the label may take (longer names are cut with `…`).
pub const LABEL_WIDTH: usize = 20;

/// Whether the bar's total is the exact number of fights, or an upper bound
/// (a precision run's cap, a balance search's most probes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Total {
    Exact,
    AtMost,
}

/// A bar over `total` fights labelled `label`.
pub fn fights_bar(total: u64, kind: Total, label: &str, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
    }
    styled(ProgressBar::new(total), kind, label)
}

/// A spinner with the time spent, for work whose size is not known in
/// advance (`skirmish exact` enumerating a cell): `label` cut to
/// [`LABEL_WIDTH`], then `what`; hidden like the bar.
pub fn spinner(label: &str, what: &str, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
    }
    let bar = ProgressBar::new_spinner();
    if let Ok(style) = ProgressStyle::with_template("{msg} {spinner} {elapsed}") {
        bar.set_style(style);
    }
    bar.set_message(format!("{} {what}", label_text(label)));
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// `bar` with the fights style and `label`.
fn styled(bar: ProgressBar, kind: Total, label: &str) -> ProgressBar {
    // The template is a constant; a typo in it is a bug caught the first
    // time any run shows a bar (and by the tests), so fall back to the
    // default style.
    if let Ok(style) = ProgressStyle::with_template("{msg} {wide_bar} {status}") {
        bar.set_style(style.with_key(
            "status",
            move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&status(
                    state.pos(),
                    state.len().unwrap_or(0),
                    kind,
                    state.per_sec(),
                    state.eta(),
                ));
            },
        ));
    }
    bar.set_message(label_text(label));
    bar
}

/// The label cut or padded to exactly [`LABEL_WIDTH`] characters.
fn label_text(label: &str) -> String {
    let mut text: String = if label.chars().count() > LABEL_WIDTH {
        let kept: String = label.chars().take(LABEL_WIDTH - 1).collect();
        format!("{kept}…")
    } else {
        label.to_owned()
    };
    while text.chars().count() < LABEL_WIDTH {
        text.push(' ');
    }
    text
}

/// `1.5M/12M fights · 1.5M fights/s · ETA 3m20s` (`≤12M` for an upper
/// bound); at most 46 characters.
pub fn status(done: u64, total: u64, kind: Total, per_sec: f64, eta: Duration) -> String {
    let bound = match kind {
        Total::Exact => "",
        Total::AtMost => "≤",
    };
    let mut text = format!(
        "{}/{bound}{} fights · {} fights/s",
        human(done as f64),
        human(total as f64),
        human(per_sec)
    );
    // No rate yet: no estimate either.
    if per_sec > 0.0 && done < total {
        let _ = write!(text, " · ETA {}", short_duration(eta));
    }
    text
}

/// A count or rate for people: exact below 1000, then two significant
/// digits with k, M, G, T (`950`, `1.5k`, `15k`, `152k`, `1.5M`): at most
/// four characters. Not a number or negative: `0`.
pub fn human(x: f64) -> String {
    if !x.is_finite() || x <= 0.0 {
        return "0".to_owned();
    }
    if x < 999.5 {
        return format!("{x:.0}");
    }
    for (unit, scale) in [("k", 1e3), ("M", 1e6), ("G", 1e9), ("T", 1e12)] {
        let v = x / scale;
        // Decide on the rounded value, so 999.7k becomes 1.0M, not 1000k.
        if v < 9.95 {
            return format!("{v:.1}{unit}");
        }
        if v < 999.5 {
            return format!("{v:.0}{unit}");
        }
    }
    format!("{:.0}T", x / 1e12)
}

/// `45s`, `3m20s`, `2h05m`, `3d04h`: at most six characters below 100 days.
fn short_duration(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m{:02}s", s / 60, s % 60),
        3600..=86_399 => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
        _ => format!("{}d{:02}h", s / 86_400, s % 86_400 / 3600),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[test]
    fn human_numbers() {
        assert_eq!(human(0.0), "0");
        assert_eq!(human(950.0), "950");
        assert_eq!(human(999.6), "1.0k");
        assert_eq!(human(1_500.0), "1.5k");
        assert_eq!(human(15_200.0), "15k");
        assert_eq!(human(152_000.0), "152k");
        assert_eq!(human(999_700.0), "1.0M");
        assert_eq!(human(1_523_456.0), "1.5M");
        assert_eq!(human(9_960_000.0), "10M");
        assert_eq!(human(1e12), "1.0T");
        assert_eq!(human(f64::NAN), "0");
        assert_eq!(human(f64::INFINITY), "0");
    }

    #[test]
    fn durations() {
        assert_eq!(short_duration(Duration::from_secs(45)), "45s");
        assert_eq!(short_duration(Duration::from_secs(200)), "3m20s");
        assert_eq!(short_duration(Duration::from_secs(7500)), "2h05m");
        assert_eq!(short_duration(Duration::from_secs(273_600)), "3d04h");
    }

    #[test]
    fn status_reads_like_a_person_wrote_it() {
        assert_eq!(
            status(
                1_200_000,
                12_000_000,
                Total::Exact,
                1_523_000.0,
                Duration::from_secs(200)
            ),
            "1.2M/12M fights · 1.5M fights/s · ETA 3m20s"
        );
        assert_eq!(
            status(0, 40_000, Total::AtMost, 0.0, Duration::ZERO),
            "0/≤40k fights · 0 fights/s"
        );
    }

    /// An 80-column terminal that keeps what is drawn on it.
    #[derive(Debug, Clone, Default)]
    struct Screen(Arc<Mutex<Vec<String>>>);

    impl indicatif::TermLike for Screen {
        fn width(&self) -> u16 {
            80
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.write_str(s)
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            self.0.lock().unwrap().push(s.to_owned());
            Ok(())
        }
        fn clear_line(&self) -> std::io::Result<()> {
            Ok(())
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_bar_fits_80_columns() {
        // The worst case: a long name, the largest counts, a huge rate, a
        // long ETA, and an upper bound.
        let widest = status(
            888_888_888_888,
            999_000_000_000,
            Total::AtMost,
            888_888_888.0,
            Duration::from_secs(99 * 86_400 + 23 * 3600),
        );
        assert!(widest.chars().count() <= 46, "{widest}");
        for (label, total) in [
            ("duel", 120_000),
            (
                "a-very-long-scenario-name-that-goes-on-and-on",
                999_000_000_000,
            ),
        ] {
            let screen = Screen::default();
            let bar = styled(
                ProgressBar::with_draw_target(
                    Some(total),
                    ProgressDrawTarget::term_like(Box::new(screen.clone())),
                ),
                Total::AtMost,
                label,
            );
            bar.set_position(total / 3);
            bar.tick();
            bar.force_draw();
            let drawn = screen.0.lock().unwrap().clone();
            let lines: Vec<&str> = drawn
                .iter()
                .filter(|l| l.contains("fights"))
                .map(String::as_str)
                .collect();
            assert!(!lines.is_empty(), "nothing drawn: {drawn:?}");
            for line in lines {
                // No colours in this style, so characters are columns.
                assert!(
                    line.chars().count() <= 80,
                    "{} columns: {line}",
                    line.chars().count()
                );
                assert!(line.contains("fights/s"), "{line}");
            }
        }
    }
}
