//! The exact table: which cells of the example scenarios `skirmish exact`
//! answers at its default limits, the states and seconds of each, and why
//! the others are refused.
//!
//! Run: `cargo bench --bench exact` (scenario names after `--` to measure
//! only those). It prints Markdown: the README's table of what fits is this
//! output. Every cell of every `scenarios/*.toml` is enumerated as
//! `skirmish exact` enumerates it (`Plan::exact`, default
//! [`Limits`], rayon's pool on every core); a refused cell counts the
//! seconds it took to be refused. Seconds are wall time on the machine the
//! table names.

use std::path::PathBuf;
use std::time::Instant;

use skirmish::exact::{ExactError, Limits};
use skirmish::run::plan;
use skirmish::scenario;

/// One cell enumerated: its units, and its states or why it was refused,
/// with the seconds it took.
struct Cell {
    units: usize,
    answer: Result<u64, ExactError>,
    seconds: f64,
}

fn main() {
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let mut files: Vec<PathBuf> = std::fs::read_dir("scenarios")
        .expect("run from the repository's root")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    let limits = Limits::default();
    println!("{}\n", machine());
    println!(
        "| scenario | units | cells that fit | states per cell | seconds per cell | the others refused: the first reason |"
    );
    println!("|---|---:|---:|---:|---:|---|");
    for file in files {
        let s = scenario::load(&file).expect("an example loads");
        if !only.is_empty() && !only.contains(&s.name) {
            continue;
        }
        let plan = plan(&s).expect("an example compiles");
        let cells: Vec<Cell> = (0..plan.cells.len())
            .map(|c| {
                let t = Instant::now();
                let answer = plan.exact(c, &limits).map(|a| a.states);
                Cell {
                    units: plan.unit_names[c].len(),
                    answer,
                    seconds: t.elapsed().as_secs_f64(),
                }
            })
            .collect();
        println!("{}", row(&s.name, &cells));
    }
}

/// A scenario's row of the table.
fn row(name: &str, cells: &[Cell]) -> String {
    let fit: Vec<&Cell> = cells.iter().filter(|c| c.answer.is_ok()).collect();
    let states: Vec<f64> = fit
        .iter()
        .map(|c| *c.answer.as_ref().expect("fits") as f64)
        .collect();
    let seconds: Vec<f64> = fit.iter().map(|c| c.seconds).collect();
    let refused = cells.iter().find_map(|c| c.answer.as_ref().err());
    let refused = match refused {
        None => String::new(),
        Some(e) => {
            let slow = cells
                .iter()
                .filter(|c| c.answer.is_err())
                .map(|c| c.seconds)
                .fold(0.0, f64::max);
            format!("{e} (refused within {})", seconds_text(slow))
        }
    };
    let units = range(
        &cells.iter().map(|c| c.units as f64).collect::<Vec<_>>(),
        |v| format!("{v}"),
    );
    format!(
        "| `{name}` | {units} | {} of {} | {} | {} | {refused} |",
        fit.len(),
        cells.len(),
        range(&states, |v| thousands(v as u64)),
        range(&seconds, seconds_text),
    )
}

/// `a–b` over the values (one value if they are all equal), empty if none.
fn range(values: &[f64], show: impl Fn(f64) -> String) -> String {
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if values.is_empty() {
        String::new()
    } else if show(lo) == show(hi) {
        show(lo)
    } else {
        format!("{}–{}", show(lo), show(hi))
    }
}

fn seconds_text(s: f64) -> String {
    if s < 0.1 {
        format!("{s:.3} s")
    } else if s < 10.0 {
        format!("{s:.2} s")
    } else {
        format!("{s:.0} s")
    }
}

fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// The machine the seconds were measured on: its processor and cores.
fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "an unknown processor".into());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    format!("Measured on {cpu}, {cores} threads, default limits ({})", {
        let l = Limits::default();
        format!(
            "--max-states {}, --max-outcomes {}",
            thousands(l.max_states),
            thousands(l.max_outcomes)
        )
    })
}
