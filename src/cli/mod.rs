//! The command line: argument parsing (clap), dispatch, terminal output and
//! exit codes. Nothing below this module knows about clap or indicatif.
//!
//! Exit codes: 0 success; 2 bad input (scenario or arguments), with nothing
//! written; 1 any other failure, or `run --check` finding a difference.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Parser, Subcommand};

use crate::report::Kind;
use crate::run::{plan, Plan};
use crate::scenario::{self, ScenarioError};

/// `println!` that survives a closed stdout: see [`output::say`].
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cli::output::say(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` that survives a closed stdout: see [`output::say`].
macro_rules! say_part {
    ($($arg:tt)*) => {
        $crate::cli::output::say(format_args!($($arg)*))
    };
}

mod balance;
mod cells;
mod exact;
mod merge;
mod output;
mod play_check;
mod progress;
mod replay;
mod rules_help;
mod rules_json;
mod run;
mod sensitivity;
mod signals;
mod tactics;

#[derive(Parser, Debug)]
#[command(
    name = "skirmish",
    version,
    about = "Monte Carlo combat-balance simulator for tabletop RPG designers",
    long_about = "Fights each cell of a scenario's variant matrix many times in parallel and \
                  writes win rates with confidence intervals, fight lengths, survivors and \
                  damage as CSV tables, PNG charts and a markdown summary."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Simulate scenarios and write their reports (reports/<name>/).
    /// Interrupted runs resume when the same command is run again.
    Run(RunArgs),
    /// Write the report of a run from its shards' journals (`run --shard`).
    Merge(merge::MergeArgs),
    /// Parse, expand and compile scenarios without simulating.
    Validate {
        /// Scenario files (TOML).
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Compare two reports of one scenario: which cells' win rates moved
    /// beyond their joint uncertainty (writes diff.md, diff.csv, diff.png).
    Diff(DiffArgs),
    /// Search a numeric value (a unit count, hit points, a bonus, a distance)
    /// for where a side's win rate crosses a target (reports/<name>-balance/).
    Balance(balance::BalanceArgs),
    /// Step each numeric stat of each unit type one step up and down and
    /// rank the stats by their effect on each side's win rate
    /// (reports/<name>-sensitivity/).
    Sensitivity(sensitivity::SensitivityArgs),
    /// Fight every pair of the two sides' candidate plays (`[plays.SIDE]`)
    /// and solve the game: payoffs, best replies, dominated strategies, and
    /// each side's best play with the fight's value
    /// (reports/<name>-tactics/).
    Tactics(tactics::TacticsArgs),
    /// Fight one fight of a run again, exactly as the run fought it, and
    /// print it turn by turn (every die, every roll, why it ended).
    Replay(replay::ReplayArgs),
    /// Enumerate cells' fights exactly instead of sampling them: every
    /// outcome of every die, no sampling error (reports/<name>-exact/).
    Exact(exact::ExactArgs),
    /// List rulesets, or show one ruleset's stat-block fields and options.
    Rules {
        /// Ruleset name, e.g. `trenches`.
        name: Option<String>,
        /// Print the ruleset's fields, weapon fields, options (type, range,
        /// default, help, text section), counters and conformance table as
        /// one JSON document.
        #[arg(long, requires = "name")]
        json: bool,
    },
    /// Print a JSON Schema of a scenario file for one ruleset, for an
    /// editor's TOML language server (a `#:schema` comment or the editor's
    /// setting).
    Schema {
        /// Ruleset name, e.g. `trenches`.
        name: String,
    },
}

/// The options of every command that simulates a scenario's cells
/// (`run`, `balance`, `sensitivity`, `tactics`).
#[derive(Args, Debug)]
pub(crate) struct Simulation {
    /// Fights per cell, or per probe of `balance` (overrides the scenario's
    /// `fights`).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_fights)]
    fights: Option<u64>,
    /// Random seed (overrides the scenario's `seed`).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_seed)]
    seed: Option<u64>,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

/// A precision target: `--precision` and `--max-fights` (of `run` and
/// `tactics`), over the scenario's `precision` and `max_fights`.
#[derive(Args, Debug)]
pub(crate) struct Target {
    /// Keep adding batches until the 95% half-widths that decide the answer
    /// are at most this (`run`: every cell's win rates and differences from
    /// the baseline; `tactics`: the payoffs of the strategies that decide
    /// the game). Overrides the scenario's `precision`; 0 turns it off.
    #[arg(long, value_parser = parse_precision)]
    precision: Option<f64>,
    /// With a precision target: most fights per cell, or per pair of
    /// strategies (overrides the scenario's `max_fights`).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_fights)]
    max_fights: Option<u64>,
}

impl Target {
    /// The precision target in force for `s`, if any.
    fn precision(&self, s: &scenario::Scenario) -> Option<f64> {
        self.precision.or(s.precision).filter(|&t| t > 0.0)
    }

    /// The most fights a cell may get under the target in force, if any.
    fn max_fights(&self, s: &scenario::Scenario) -> Option<u64> {
        self.precision(s)
            .map(|_| self.max_fights.unwrap_or(s.max_fights))
    }

    /// How `s`'s cells get their fights: `fights` each, or rounds toward
    /// the precision target.
    fn budget(&self, s: &scenario::Scenario, fights: u64) -> crate::run::Budget {
        match (self.precision(s), self.max_fights(s)) {
            (Some(target), Some(max_fights)) => crate::run::Budget::Precision {
                fights,
                target,
                max_fights,
            },
            _ => crate::run::Budget::Fights(fights),
        }
    }

    /// `--max-fights` without a target in force is refused: it would be
    /// ignored.
    fn check(&self, s: &scenario::Scenario) -> Result<(), Failure> {
        if self.max_fights.is_some() && self.precision(s).is_none() {
            return Err(Failure::BadInput(anyhow::anyhow!(
                "--max-fights caps a precision target, and {} has none: add --precision \
                 (or `precision` in the file), or leave --max-fights out",
                s.source.path
            )));
        }
        Ok(())
    }
}

#[derive(Args, Debug)]
pub(crate) struct RunArgs {
    /// Scenario files (TOML).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    sim: Simulation,
    /// Folder the reports go in, one subfolder per scenario name.
    #[arg(long, default_value = "reports")]
    out: PathBuf,
    /// Re-simulate and compare with the report already in --out instead of
    /// writing: exit 0 if identical, 1 if anything differs.
    #[arg(long)]
    check: bool,
    #[command(flatten)]
    target: Target,
    /// Give every cell its own random streams instead of sharing them batch
    /// by batch (common random numbers): differences get wider intervals.
    #[arg(long)]
    independent_streams: bool,
    /// Fight only shard K of N of every cell's batches and write its
    /// journal (<out>/<name>.shard-K-of-N.journal) for `skirmish merge`.
    /// `auto` takes K and N from a Slurm job array; `auto/N` takes K from
    /// Kubernetes' JOB_COMPLETION_INDEX (or Slurm's array index).
    #[arg(long, value_name = "K/N|auto|auto/N", value_parser = run::parse_shard)]
    shard: Option<run::ShardArg>,
    /// Discard the journal of an earlier, different run of this scenario
    /// (instead of refusing it) and start over.
    #[arg(long)]
    fresh: bool,
    /// Also write the run's batch records (counts and sums per batch of
    /// each cell) to this Parquet file, for analysis in a notebook.
    #[arg(long, value_name = "FILE.parquet")]
    export_batches: Option<PathBuf>,
    /// After the run, also enumerate every cell's fight exactly (as
    /// `skirmish exact` does) and show the exact win rates beside the
    /// sampled ones; cells too large for the limits are left as they are.
    #[arg(long)]
    exact: bool,
    #[command(flatten)]
    limits: exact::ExactLimits,
    #[command(flatten)]
    plays: play_check::PlayCheckArgs,
}

#[derive(Args, Debug)]
struct DiffArgs {
    /// The old report folder (with --rev: the report folder, compared with
    /// its own version at that revision).
    old: PathBuf,
    /// The new report folder (not with --rev).
    new: Option<PathBuf>,
    /// Compare OLD on disk with OLD at this git revision (e.g. HEAD~1; not
    /// empty, not starting with `-`).
    #[arg(long)]
    rev: Option<String>,
    /// Folder the diff goes in, one subfolder per scenario name.
    #[arg(long, default_value = "diffs")]
    out: PathBuf,
    /// Exit 1 when any cell moved (for a designer's own CI).
    #[arg(long)]
    fail_on_change: bool,
}

/// `--fights`, `--max-fights`: a whole number of fights from 1 to
/// [`scenario::MAX_FIGHTS`], written as in a scenario (`1_000_000`) or in
/// powers of ten (`1e6`). Negative numbers reach this parser (rather than
/// clap's "unexpected argument '-1'"), so the message says what is wanted.
pub(crate) fn parse_fights(text: &str) -> Result<u64, String> {
    let max = scenario::MAX_FIGHTS as u64;
    let expected = || {
        format!(
            "expected a whole number of fights from 1 to {max} (e.g. 100000, 100_000 or 1e5), \
             found `{text}`"
        )
    };
    let digits: String = text.chars().filter(|&c| c != '_').collect();
    let value = match digits.split_once(['e', 'E']) {
        None => digits.parse::<u64>().ok(),
        // 1e6, 2.5e6: a power-of-ten shorthand, whole numbers only.
        Some(_) => digits
            .parse::<f64>()
            .ok()
            .filter(|v| v.fract() == 0.0 && *v >= 0.0 && *v <= u64::MAX as f64)
            .map(|v| v as u64),
    };
    match value {
        Some(v) if (1..=max).contains(&v) => Ok(v),
        Some(v) if v > max => Err(format!(
            "{} fights is more than a run can fight ({max}, all cells together: years of \
             work even on a cluster)",
            text
        )),
        _ => Err(expected()),
    }
}

/// `--seed`: a whole number from 0 to 2^64 − 1.
pub(crate) fn parse_seed(text: &str) -> Result<u64, String> {
    let digits: String = text.chars().filter(|&c| c != '_').collect();
    digits.parse().map_err(|_| {
        format!(
            "expected a whole number from 0 to {} as the seed, found `{text}`",
            u64::MAX
        )
    })
}

/// `--precision`: a number in [0, 0.5].
fn parse_precision(text: &str) -> Result<f64, String> {
    let v: f64 = text
        .parse()
        .map_err(|_| format!("expected a number from 0 to 0.5, found `{text}`"))?;
    if (0.0..=0.5).contains(&v) {
        Ok(v)
    } else {
        Err(format!("expected a number from 0 to 0.5, found {v}"))
    }
}

/// Why a command failed, and so which exit code it gets.
pub(crate) enum Failure {
    /// The user's input is wrong: exit 2.
    BadInput(anyhow::Error),
    /// Anything else: exit 1.
    Other(anyhow::Error),
}

impl From<ScenarioError> for Failure {
    fn from(e: ScenarioError) -> Self {
        Failure::BadInput(e.into())
    }
}

/// Run the command line; the binary's `main` is just this.
pub fn main() -> ExitCode {
    crate::process::settle_allocator();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version are "errors" that print to stdout.
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let result = match cli.command {
        Command::Run(args) => run::run(&args),
        Command::Merge(args) => merge::merge(&args),
        Command::Validate { files } => validate(&files),
        Command::Diff(args) => diff(&args),
        Command::Balance(args) => balance::balance(&args),
        Command::Sensitivity(args) => sensitivity::sensitivity(&args),
        Command::Tactics(args) => tactics::tactics(&args),
        Command::Replay(args) => replay::replay(&args),
        Command::Exact(args) => exact::exact(&args),
        Command::Rules { name, json } => rules(name.as_deref(), json),
        Command::Schema { name } => schema(&name),
    };
    match result {
        Ok(code) => code,
        Err(Failure::BadInput(e)) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
        Err(Failure::Other(e)) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}

/// Fight every cell of `plan` with `fights` fights each on common random
/// numbers (`sensitivity`, `tactics`: cells compared with each other), with
/// a progress bar labelled `label`; the results and how fast it went
/// (`N fights in S s: R fights/s on T threads`).
pub(crate) fn fight_cells(
    plan: &Plan,
    sim: &Simulation,
    fights: u64,
    seed: u64,
    label: &str,
) -> Result<(crate::results::RunResults, String), Failure> {
    simulate_cells(
        plan,
        sim,
        crate::run::Budget::Fights(fights),
        seed,
        label,
        None,
    )
}

/// Fight every cell of `plan` in memory under `budget` (with a precision
/// target, in rounds that `decide` decides), with a progress bar labelled
/// `label`; the results and the line of speed the command prints.
pub(crate) fn simulate_cells(
    plan: &Plan,
    sim: &Simulation,
    budget: crate::run::Budget,
    seed: u64,
    label: &str,
    decide: Option<&mut crate::run::Decide<'_>>,
) -> Result<(crate::results::RunResults, String), Failure> {
    use crate::run::Budget;
    let pool = worker_pool(sim.threads)?;
    let (total, kind) = match budget {
        Budget::Fights(fights) => (plan.total_fights(fights), progress::Total::Exact),
        Budget::Precision { max_fights, .. } => {
            (plan.total_fights(max_fights), progress::Total::AtMost)
        }
    };
    let bar = progress::fights_bar(total, kind, label, sim.quiet);
    let started = std::time::Instant::now();
    let progress = |n| bar.inc(n);
    let run = pool.install(|| match (budget, decide) {
        (Budget::Precision { .. }, Some(decide)) => plan.race(budget, seed, &progress, decide),
        _ => plan.run_with(budget, seed, crate::results::Streams::Common, &progress),
    });
    let seconds = started.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let total: u64 = run.cells.iter().map(|c| c.tally.fights).sum();
    let threads = pool.current_num_threads();
    let speed = format!(
        "{} fights in {seconds:.2} s: {} fights/s on {threads} thread{}",
        crate::report::numbers::grouped(total),
        progress::human(total as f64 / seconds.max(1e-9)),
        if threads == 1 { "" } else { "s" },
    );
    Ok((run, speed))
}

/// The pool of `threads` worker threads (default: one per core) a command
/// simulates on.
pub(crate) fn worker_pool(threads: Option<u16>) -> Result<rayon::ThreadPool, Failure> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        builder = builder.num_threads(usize::from(t));
    }
    builder
        .build()
        .context("cannot start the worker threads")
        .map_err(Failure::Other)
}

/// Writes a rendered report of `kind` to `dir` and says so, or with
/// `check` compares it with the one there (exit 1 if it differs).
pub(crate) fn write_or_check(
    kind: Kind,
    rendered: Result<Vec<crate::report::ReportFile>, crate::report::ReportError>,
    name: &str,
    dir: &Path,
    timing: &str,
    check: bool,
) -> Result<ExitCode, Failure> {
    let files = rendered
        .with_context(|| format!("rendering the {} report", kind.label()))
        .map_err(Failure::Other)?;
    if check {
        let checked = crate::report::compare(kind, &files, dir)
            .with_context(|| format!("reading {}", dir.display()))
            .map_err(Failure::Other)?;
        return Ok(if run::print_check(name, dir, timing, &checked) {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        });
    }
    crate::report::write_files(kind, &files, dir)
        .with_context(|| format!("writing the {} report of {name}", kind.label()))
        .map_err(Failure::Other)?;
    say!("{name}: {timing} → {}", dir.display());
    Ok(ExitCode::SUCCESS)
}

/// Load and compile every file; any error stops everything before anything
/// is simulated or written.
pub(crate) fn plan_all(files: &[PathBuf]) -> Result<Vec<(scenario::Scenario, Plan)>, Failure> {
    let mut plans: Vec<(scenario::Scenario, Plan)> = Vec::new();
    for file in files {
        let s = scenario::load(file)?;
        let p = plan(&s)?;
        print_warnings(&s.name, &p);
        if let Some((other, _)) = plans.iter().find(|(o, _)| o.name == s.name) {
            return Err(Failure::BadInput(anyhow::anyhow!(
                "{} and {} are both named `{}`: their reports would overwrite each other",
                other.source.path,
                s.source.path,
                s.name
            )));
        }
        plans.push((s, p));
    }
    Ok(plans)
}

/// The warnings found when `plan` was compiled, on stderr.
fn print_warnings(name: &str, plan: &Plan) {
    for warning in &plan.info.warnings {
        eprintln!("{name}: warning: {warning}");
    }
}

/// Check every file and report on each, good or bad (a designer fixing a
/// folder of scenarios sees every problem at once); exit 2 if any failed.
fn validate(files: &[PathBuf]) -> Result<ExitCode, Failure> {
    let mut failed = 0usize;
    let mut names: Vec<(String, String)> = Vec::new();
    for file in files {
        let checked = scenario::load(file).and_then(|s| Ok((plan(&s)?, s)));
        match checked {
            Ok((p, s)) => {
                if let Some((_, other)) = names.iter().find(|(n, _)| *n == s.name) {
                    failed += 1;
                    eprintln!(
                        "error: {other} and {} are both named `{}`: their reports would \
                         overwrite each other",
                        s.source.path, s.name
                    );
                    continue;
                }
                print_warnings(&s.name, &p);
                names.push((s.name.clone(), s.source.path.clone()));
                say!(
                    "{}: ok — `{}`, rules {}, {} cell{}, {} fights per cell",
                    s.source.path,
                    s.name,
                    s.rules,
                    p.cells.len(),
                    if p.cells.len() == 1 { "" } else { "s" },
                    s.fights
                );
            }
            Err(e) => {
                failed += 1;
                eprintln!("error: {:#}", anyhow::Error::from(e));
            }
        }
    }
    if failed == 0 {
        Ok(ExitCode::SUCCESS)
    } else {
        if files.len() > 1 {
            eprintln!("{failed} of {} files failed", files.len());
        }
        Ok(ExitCode::from(2))
    }
}

fn unknown_ruleset(name: &str) -> Failure {
    Failure::BadInput(anyhow::anyhow!(
        "unknown ruleset `{name}` (valid: {})",
        crate::rules::NAMES.join(", ")
    ))
}

fn schema(name: &str) -> Result<ExitCode, Failure> {
    let text = rules_json::schema(name).ok_or_else(|| unknown_ruleset(name))?;
    say_part!("{text}");
    Ok(ExitCode::SUCCESS)
}

fn rules(name: Option<&str>, json: bool) -> Result<ExitCode, Failure> {
    if let (Some(n), true) = (name, json) {
        let text = rules_json::rules(n).ok_or_else(|| unknown_ruleset(n))?;
        say_part!("{text}");
        return Ok(ExitCode::SUCCESS);
    }
    match name {
        None => say_part!("{}", rules_help::list()),
        Some(n) => match rules_help::describe(n) {
            Some(text) => say_part!("{text}"),
            None => {
                return Err(Failure::BadInput(anyhow::anyhow!(
                    "unknown ruleset `{n}` (valid: {})",
                    crate::rules::NAMES.join(", ")
                )))
            }
        },
    }
    Ok(ExitCode::SUCCESS)
}

fn diff(args: &DiffArgs) -> Result<ExitCode, Failure> {
    use crate::report::diff::{self, Source};
    let (old, new) = match (&args.new, &args.rev) {
        (Some(new), None) => (
            Source::Folder(args.old.clone()),
            Source::Folder(new.clone()),
        ),
        (None, Some(rev)) => (
            Source::git(args.old.clone(), rev).map_err(|e| Failure::BadInput(e.into()))?,
            Source::Folder(args.old.clone()),
        ),
        (Some(_), Some(_)) => {
            return Err(Failure::BadInput(anyhow::anyhow!(
                "give either two report folders or one folder and --rev, not both"
            )))
        }
        (None, None) => {
            return Err(Failure::BadInput(anyhow::anyhow!(
                "give a second report folder (NEW), or --rev REV to compare with a git revision"
            )))
        }
    };
    let d = diff::compare_sources(&old, &new).map_err(|e| Failure::BadInput(e.into()))?;
    let dir = args.out.join(&d.name);
    let inputs: Vec<&Path> = [Some(&args.old), args.new.as_ref()]
        .into_iter()
        .flatten()
        .map(PathBuf::as_path)
        .collect();
    output::preflight(Kind::Diff, &dir, &inputs)?;
    let files = diff::render(&d)
        .context("rendering the diff")
        .map_err(Failure::Other)?;
    crate::report::write_files(Kind::Diff, &files, &dir)
        .context("writing the diff")
        .map_err(Failure::Other)?;
    let moved = d.moved().count();
    if moved == 0 {
        say!(
            "{}: no cell moved beyond its 95% interval ({} → {}) → {}",
            d.name,
            d.old,
            d.new,
            dir.display()
        );
    } else {
        say!(
            "{}: {moved} (cell, side) pair{} moved beyond the 95% interval ({} → {}) → {}",
            d.name,
            if moved == 1 { "" } else { "s" },
            d.old,
            d.new,
            dir.display()
        );
        say_part!("{}", diff::table(&d, true));
    }
    for (cells, which) in [(&d.only_old, "old"), (&d.only_new, "new")] {
        if !cells.is_empty() {
            say!(
                "{} cell{} only in the {which} report, not compared (listed in {}):",
                cells.len(),
                if cells.len() == 1 { "" } else { "s" },
                diff::DIFF_MD,
            );
            const SHOWN: usize = 10;
            for c in cells.iter().take(SHOWN) {
                say!("  {}: {}", c.cell, c.label());
            }
            if cells.len() > SHOWN {
                say!("  … and {} more", cells.len() - SHOWN);
            }
        }
    }
    Ok(if moved > 0 && args.fail_on_change {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
