//! `skirmish exact FILE... [--cell N]... [--where AXIS=VALUE]...`: enumerate
//! the selected cells' fights exactly ([`crate::exact`]) and write
//! `reports/<name>-exact/` ([`crate::report::exact`]), or compare with it
//! (`--check`). Also the enumeration `run --exact` adds to a run
//! ([`exact_wins`]).
//!
//! Everything the arguments can get wrong is found before any work: the
//! scenarios, the cells (`--cell`, `--where`, read as `replay` reads them)
//! and the output folders. A cell too large for the limits (`--max-states`,
//! `--max-outcomes`) is never answered in part: when any selected cell is
//! refused, the command says which, and which cells fit, writes nothing and
//! exits 2.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::anyhow;
use clap::Args;

use super::{cells, plan_all, progress, Failure};
use crate::exact::{Limits, DEFAULT_MAX_OUTCOMES, DEFAULT_MAX_STATES};
use crate::report::exact as report;
use crate::report::numbers::{self, grouped};
use crate::report::Kind;
use crate::results::{ExactCell, ExactResults, ExactWin};
use crate::run::Plan;

#[derive(Args, Debug)]
pub(super) struct ExactArgs {
    /// Scenario files (TOML).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Enumerate this cell, by its number in cells.csv (column `cell`, from
    /// 0); repeatable. Without --cell or --where: every cell.
    #[arg(long, value_name = "N", conflicts_with = "where_")]
    cell: Vec<usize>,
    /// Enumerate the cells with this value on an axis: AXIS=VALUE with the
    /// axis path as in the matrix and the value as in cells.csv; once per
    /// axis, every matching cell.
    #[arg(long = "where", value_name = "AXIS=VALUE")]
    where_: Vec<String>,
    #[command(flatten)]
    limits: ExactLimits,
    /// Folder the reports go in, as `<name>-exact/`.
    #[arg(long, default_value = "reports")]
    out: PathBuf,
    /// Enumerate again and compare with the report already in --out instead
    /// of writing: exit 0 if identical, 1 if anything differs.
    #[arg(long)]
    check: bool,
    /// Worker threads (default: all cores). Answers do not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// No line per cell.
    #[arg(long, short)]
    quiet: bool,
}

/// How far an enumeration may go (`exact`, `run --exact`, `balance --exact`).
#[derive(Args, Debug)]
pub(crate) struct ExactLimits {
    /// Refuse a cell whose fight reaches more distinct states than this
    /// (memory; default 4,000,000).
    #[arg(long, value_name = "N", value_parser = parse_limit)]
    max_states: Option<u64>,
    /// Refuse a cell whose enumeration would run more outcomes of turns'
    /// dice than this (time; default 200,000,000).
    #[arg(long, value_name = "N", value_parser = parse_limit)]
    max_outcomes: Option<u64>,
}

impl ExactLimits {
    /// The limits, with the defaults for those not given.
    pub(crate) fn limits(&self) -> Limits {
        Limits {
            max_states: self.max_states.unwrap_or(DEFAULT_MAX_STATES),
            max_outcomes: self.max_outcomes.unwrap_or(DEFAULT_MAX_OUTCOMES),
        }
    }

    /// Whether either limit was given.
    pub(crate) fn given(&self) -> bool {
        self.max_states.is_some() || self.max_outcomes.is_some()
    }
}

/// `--max-states`, `--max-outcomes`: a whole number from 1, written as in a
/// scenario (`4_000_000`) or in powers of ten (`4e6`).
fn parse_limit(text: &str) -> Result<u64, String> {
    let digits: String = text.chars().filter(|&c| c != '_').collect();
    let value = match digits.split_once(['e', 'E']) {
        None => digits.parse::<u64>().ok(),
        Some(_) => digits
            .parse::<f64>()
            .ok()
            .filter(|v| v.fract() == 0.0 && *v >= 0.0 && *v <= u64::MAX as f64)
            .map(|v| v as u64),
    };
    value.filter(|&v| v >= 1).ok_or_else(|| {
        format!("expected a whole number from 1 (e.g. 4000000, 4_000_000 or 4e6), found `{text}`")
    })
}

fn bad(message: String) -> Failure {
    Failure::BadInput(anyhow!(message))
}

pub(super) fn exact(args: &ExactArgs) -> Result<ExitCode, Failure> {
    let plans = plan_all(&args.files)?;
    let mut selected: Vec<Vec<usize>> = Vec::with_capacity(plans.len());
    for (s, p) in &plans {
        let cells = select(p, args).map_err(|m| bad(format!("{}: {m}", s.source.path)))?;
        selected.push(cells);
    }
    if !args.check {
        let inputs: Vec<&Path> = args.files.iter().map(PathBuf::as_path).collect();
        for (s, _) in &plans {
            let dir = args.out.join(report::folder_name(&s.name));
            super::output::preflight(Kind::Exact, &dir, &inputs)?;
        }
    }
    let pool = super::worker_pool(args.threads)?;
    let threads = pool.current_num_threads();
    let limits = args.limits.limits();
    let mut done: Vec<(ExactResults, String)> = Vec::with_capacity(plans.len());
    let mut refused: Vec<String> = Vec::new();
    let mut fitted: Vec<String> = Vec::new();
    for ((s, p), cells) in plans.iter().zip(&selected) {
        let started = Instant::now();
        let mut answers = Vec::with_capacity(cells.len());
        let mut fit: Vec<String> = Vec::new();
        for &c in cells {
            let cell_started = Instant::now();
            let spinner = progress::spinner(&s.name, &format!("cell {c}"), args.quiet);
            let answer = pool.install(|| p.exact(c, &limits));
            spinner.finish_and_clear();
            let seconds = cell_started.elapsed().as_secs_f64();
            match answer {
                Ok(answer) => {
                    if !args.quiet {
                        say!(
                            "{}: {}: {} states in {seconds:.2} s: {}",
                            s.name,
                            cells::describe(p, c),
                            grouped(answer.states),
                            win_rates(p, &ExactWin::of(&answer))
                        );
                    }
                    fit.push(c.to_string());
                    answers.push(ExactCell {
                        index: c,
                        axis_values: p.cells[c].clone(),
                        answer,
                    });
                }
                Err(e) => {
                    if !args.quiet {
                        say!(
                            "{}: {}: refused after {seconds:.2} s",
                            s.name,
                            cells::describe(p, c)
                        );
                    }
                    refused.push(format!("{}: {}: {e}", s.name, cells::describe(p, c)));
                }
            }
        }
        if !fit.is_empty() {
            fitted.push(format!(
                "{}: cell{} {}",
                s.name,
                if fit.len() == 1 { "" } else { "s" },
                fit.join(", ")
            ));
        }
        let seconds = started.elapsed().as_secs_f64();
        let states: u64 = answers.iter().map(|a| a.answer.states).sum();
        let timing = format!(
            "{} cell{}, {} states in {seconds:.2} s on {threads} thread{}",
            grouped(answers.len() as u64),
            if answers.len() == 1 { "" } else { "s" },
            grouped(states),
            if threads == 1 { "" } else { "s" },
        );
        done.push((
            ExactResults {
                scenario: p.info.clone(),
                cells: answers,
            },
            timing,
        ));
    }
    if !refused.is_empty() {
        let total: usize = selected.iter().map(Vec::len).sum();
        return Err(bad(format!(
            "{} of {total} selected cell{} {} too large to enumerate within the limits \
             (--max-states {}, --max-outcomes {}), so nothing was written:\n  {}\n{}\n\
             Enumerate only cells that fit (--cell N, --where AXIS=VALUE), or raise \
             --max-states / --max-outcomes (more memory and time).",
            refused.len(),
            if total == 1 { "" } else { "s" },
            if refused.len() == 1 { "is" } else { "are" },
            grouped(limits.max_states),
            grouped(limits.max_outcomes),
            refused.join("\n  "),
            if fitted.is_empty() {
                "None of them fit.".to_owned()
            } else {
                format!("These fit: {}.", fitted.join("; "))
            }
        )));
    }
    let mut differs = false;
    for ((results, timing), (s, _)) in done.iter().zip(&plans) {
        let dir = args.out.join(report::folder_name(&s.name));
        let code = super::write_or_check(
            Kind::Exact,
            report::render(results),
            &s.name,
            &dir,
            timing,
            args.check,
        )?;
        differs |= code != ExitCode::SUCCESS;
    }
    Ok(if differs {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The cells `--cell` or `--where` select, in cell order; every cell when
/// neither is given.
fn select(p: &Plan, args: &ExactArgs) -> Result<Vec<usize>, String> {
    let n = p.cells.len();
    if !args.cell.is_empty() {
        if let Some(c) = args.cell.iter().find(|&&c| c >= n) {
            return Err(format!(
                "--cell {c} is not a cell of this scenario: it has cells 0 to {}",
                n - 1
            ));
        }
        let mut cells = args.cell.clone();
        cells.sort_unstable();
        cells.dedup();
        return Ok(cells);
    }
    let matching = cells::matching(p, &args.where_)?;
    if matching.cells.is_empty() {
        return Err(format!(
            "no cell of the matrix has every value --where names ({})",
            args.where_.join(", ")
        ));
    }
    Ok(matching.cells)
}

/// `red 0.493012, blue 0.493012`: each side's exact win rate, to 6
/// decimals (more where it would print as 0 or 1 though it is not).
fn win_rates(p: &Plan, e: &ExactWin) -> String {
    p.info
        .sides
        .iter()
        .zip(&e.wins)
        .map(|(side, &w)| format!("{} {}", side.name, numbers::exact(w, e.error, 6, 12)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `run --exact`: every cell of `p` enumerated on `pool` within `limits`,
/// in cell order, or the reason it was not (said on stderr, naming the
/// scenario `name`); with the seconds it took. A spinner shows the cell
/// under way unless `quiet`.
pub(super) fn exact_wins(
    name: &str,
    p: &Plan,
    limits: &Limits,
    pool: &rayon::ThreadPool,
    quiet: bool,
) -> (Vec<Result<ExactWin, String>>, f64) {
    let started = Instant::now();
    let wins: Vec<Result<ExactWin, String>> = (0..p.cells.len())
        .map(|c| {
            let spinner = progress::spinner(name, &format!("exact: cell {c}"), quiet);
            let answer = pool.install(|| p.exact(c, limits));
            spinner.finish_and_clear();
            answer.map(|answer| ExactWin::of(&answer)).map_err(|e| {
                eprintln!(
                    "{name}: {}: not enumerated (--exact): {e}",
                    cells::describe(p, c)
                );
                e.to_string()
            })
        })
        .collect();
    (wins, started.elapsed().as_secs_f64())
}

/// `exact: 12 of 12 cells in 1.23 s`, for the run's timing line.
pub(super) fn exact_timing(wins: &[Result<ExactWin, String>], seconds: f64) -> String {
    let solved = wins.iter().filter(|w| w.is_ok()).count();
    format!(
        "exact: {solved} of {} cell{} in {seconds:.2} s",
        wins.len(),
        if wins.len() == 1 { "" } else { "s" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_read_like_fights() {
        assert_eq!(parse_limit("10"), Ok(10));
        assert_eq!(parse_limit("4_000_000"), Ok(4_000_000));
        assert_eq!(parse_limit("4e6"), Ok(4_000_000));
        for bad in ["0", "-1", "1.5", "x", ""] {
            assert!(parse_limit(bad).is_err(), "{bad}");
        }
    }
}
