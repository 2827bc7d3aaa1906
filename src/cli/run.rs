//! `skirmish run`: simulate scenarios and write their reports, journalled
//! so that an interrupted run resumes, or fight one shard of a run.
//!
//! A run keeps its journal at `<out>/<name>.journal` while it works and
//! removes it once the report is written; the same command finds an
//! unfinished journal and resumes it. A shard (`--shard K/N`) writes
//! `<out>/<name>.shard-K-of-N.journal` and no report: `skirmish merge`
//! writes the report from all N.
//!
//! A run of several scenarios keeps each finished scenario's journal
//! (marked complete) until the last report is written, so that running the
//! same command again after an interruption does not fight the finished
//! scenarios again: their journals hold the work and only their reports
//! are written again (the same bytes). A finished journal is audited
//! against its header ([`crate::journal::audit`]) before it makes a report.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{anyhow, Context};

use super::{output, plan_all, progress, Failure, RunArgs};
use crate::journal::{Journal, Opened, Shard};
use crate::report::numbers::grouped;
use crate::report::Kind;
use crate::results::{RunResults, Streams};
use crate::run::{Budget, Finish, Plan, Work};
use crate::scenario::{self, Scenario};

/// `--shard` as given: explicit, or from the scheduler's environment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardArg {
    Fixed(Shard),
    /// `auto` (`None`) or `auto/N`.
    Auto(Option<u32>),
}

/// Most shards a run may be split into.
const MAX_SHARDS: u32 = 1_000_000;

/// `--shard K/N`, `auto` or `auto/N`.
pub fn parse_shard(text: &str) -> Result<ShardArg, String> {
    let count = |n: &str| -> Result<u32, String> {
        match n.parse::<u32>() {
            Ok(n) if (1..=MAX_SHARDS).contains(&n) => Ok(n),
            _ => Err(format!(
                "expected the number of shards N from 1 to {MAX_SHARDS}, found `{n}`"
            )),
        }
    };
    match text.split_once('/') {
        None if text == "auto" => Ok(ShardArg::Auto(None)),
        Some(("auto", n)) => Ok(ShardArg::Auto(Some(count(n)?))),
        Some((k, n)) => {
            let n = count(n)?;
            match k.parse::<u32>() {
                Ok(k) if (1..=n).contains(&k) => Ok(ShardArg::Fixed(Shard { index: k, count: n })),
                _ => Err(format!(
                    "expected the shard K from 1 to {n} in K/{n}, found `{k}`"
                )),
            }
        }
        None => Err(format!(
            "expected K/N (shard K of N, from 1), `auto` (a Slurm job array) or `auto/N`, \
             found `{text}`"
        )),
    }
}

/// The shard `arg` names, reading a scheduler's variables through `env`.
pub fn resolve_shard(arg: ShardArg, env: &dyn Fn(&str) -> Option<String>) -> Result<Shard, String> {
    let n = match arg {
        ShardArg::Fixed(shard) => return Ok(shard),
        ShardArg::Auto(n) => n,
    };
    let number = |name: &str| -> Result<Option<u64>, String> {
        env(name)
            .map(|v| {
                v.trim()
                    .parse::<u64>()
                    .map_err(|_| format!("{name} is `{v}`, not a whole number"))
            })
            .transpose()
    };
    let slurm = number("SLURM_ARRAY_TASK_ID")?;
    let k8s = number("JOB_COMPLETION_INDEX")?;
    let (index, count) = match (k8s, slurm) {
        (Some(i), _) => (i + 1, n.map(u64::from)),
        (None, Some(id)) => {
            let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let slurm_count = number("SLURM_ARRAY_TASK_COUNT")?;
            if let (Some(given), Some(c)) = (n, slurm_count) {
                if u64::from(given) != c {
                    return Err(format!(
                        "--shard auto/{given} but the Slurm array has {c} tasks \
                         (SLURM_ARRAY_TASK_COUNT)"
                    ));
                }
            }
            (
                id.checked_sub(min).map_or(0, |k| k + 1),
                n.map(u64::from).or(slurm_count),
            )
        }
        (None, None) => {
            return Err(
                "--shard auto needs a scheduler's index in the environment: \
                        SLURM_ARRAY_TASK_ID (a Slurm job array) or JOB_COMPLETION_INDEX \
                        (a Kubernetes Indexed Job); neither is set"
                    .into(),
            )
        }
    };
    let Some(count) = count else {
        return Err(
            "JOB_COMPLETION_INDEX gives the shard's index but not how many there are: \
                    write --shard auto/N with N the Job's completions"
                .into(),
        );
    };
    if index == 0 || index > count || count > u64::from(MAX_SHARDS) {
        return Err(format!(
            "the scheduler's index makes this shard {index} of {count}: a job array must \
             count its tasks from its first index in steps of 1 (e.g. --array=0-7)"
        ));
    }
    Ok(Shard {
        index: index as u32,
        count: count as u32,
    })
}

/// Where the journal of `name`'s run, or of its shard, goes.
pub fn journal_path(out: &Path, name: &str, shard: Option<Shard>) -> PathBuf {
    match shard {
        None => out.join(format!("{name}.journal")),
        Some(shard) => out.join(format!(
            "{name}.shard-{}-of-{}.journal",
            shard.index, shard.count
        )),
    }
}

pub fn run(args: &RunArgs) -> Result<ExitCode, Failure> {
    let bad = |message: String| Failure::BadInput(anyhow!(message));
    let plans = plan_all(&args.files)?;
    // A shard (even 1/1) writes its journal for `merge`, not a report.
    let sharded = match args.shard {
        None => None,
        Some(arg) => Some(resolve_shard(arg, &|name| std::env::var(name).ok()).map_err(bad)?),
    };
    let shard = sharded.unwrap_or(Shard::WHOLE);
    if args.shard.is_some() && args.check {
        return Err(bad(
            "--check compares a whole run with its report; a shard writes no report \
             (check the merged report instead)"
                .into(),
        ));
    }
    if args.limits.given() && !args.exact {
        return Err(bad(
            "--max-states and --max-outcomes limit the enumeration of --exact: add --exact, \
             or leave them out"
                .into(),
        ));
    }
    if args.exact && args.shard.is_some() {
        return Err(bad(
            "--exact adds exact win rates to a run's report; a shard writes no report \
             (run `skirmish exact` on the scenario instead)"
                .into(),
        ));
    }
    if args.export_batches.is_some() && (args.check || plans.len() > 1) {
        return Err(bad(
            "--export-batches writes one run's batches: give one scenario, without --check".into(),
        ));
    }
    if let Some(file) = &args.export_batches {
        crate::journal::parquet::check_target(file).map_err(bad)?;
    }
    // The command line may ask for more fights than the files did: refuse
    // before any work a run that could not be done.
    for (s, p) in &plans {
        args.target.check(s)?;
        let precise = args.target.precision(s).is_some();
        if precise && args.shard.is_some() {
            return Err(bad(format!(
                "{}: a precision target decides after every round, from all of a cell's \
                 batches, which cells need more; a shard sees only its own share, so \
                 precision runs cannot be sharded: run it on one machine (it resumes if \
                 interrupted) or shard a fixed --fights",
                s.source.path
            )));
        }
        scenario::check_run_size(
            &s.source.path,
            p.cells.len(),
            args.sim.fights.unwrap_or(s.fights),
            args.target.max_fights(s),
        )?;
    }
    if !args.check && sharded.is_none() {
        let mut inputs: Vec<&Path> = args.files.iter().map(PathBuf::as_path).collect();
        if let Some(e) = &args.export_batches {
            inputs.push(e);
        }
        for (s, _) in &plans {
            output::preflight(Kind::Run, &args.out.join(&s.name), &inputs)?;
        }
    }
    let pool = super::worker_pool(args.sim.threads)?;
    // Only a journalled run has work to save on Ctrl-C; `--check` keeps the
    // default, ending at once.
    let signals = if args.check {
        None
    } else {
        Some(
            super::signals::Signals::install()
                .context("cannot handle Ctrl-C")
                .map_err(Failure::Other)?,
        )
    };
    let never = std::sync::atomic::AtomicBool::new(false);
    let mut differs = false;
    // Journals of the scenarios finished so far, kept until the last one
    // is (see the module docs).
    let mut finished: Vec<Journal> = Vec::new();
    for (s, p) in &plans {
        let work = Work {
            budget: budget(args, s),
            seed: args.sim.seed.unwrap_or(s.seed),
            streams: if args.independent_streams {
                Streams::Independent
            } else {
                Streams::Common
            },
            shard,
        };
        let dir = args.out.join(&s.name);
        // With a precision target the number of fights is only known at the
        // end: the bar counts toward the cap, an upper bound, and says so.
        let kind = match work.budget {
            Budget::Precision { .. } => progress::Total::AtMost,
            Budget::Fights(_) => progress::Total::Exact,
        };
        let bar = progress::fights_bar(p.shard_fights(&work), kind, &s.name, args.sim.quiet);
        let started = Instant::now();
        if args.check {
            let results =
                pool.install(|| p.run_with(work.budget, work.seed, work.streams, &|n| bar.inc(n)));
            bar.finish_and_clear();
            let total = results.cells.iter().map(|c| c.tally.fights).sum();
            let timing = timing(p, total, started, pool.current_num_threads());
            let results =
                pool.install(|| with_fights(p, results, &work, Path::new(&s.source.path), &dir));
            let (results, timing) = with_exact(args, s, p, &pool, results, timing);
            let (results, timing) = with_plays(args, s, &work, &pool, results, timing)?;
            differs |= check(&results, &dir, &timing)?;
            continue;
        }
        let path = journal_path(&args.out, &s.name, sharded);
        let header = p.header(s, &work);
        let (mut journal, mut ledger, opened) =
            Journal::open(&path, &header, args.fresh).map_err(journal_failure)?;
        let total = p.shard_fights(&work);
        let before = match opened {
            Opened::Started => 0,
            Opened::Resumed { fights } => {
                eprintln!(
                    "{}: resuming from {}: {} of {} fights already done ({:.0}%)",
                    s.name,
                    path.display(),
                    grouped(fights),
                    grouped(total),
                    100.0 * fights as f64 / total.max(1) as f64
                );
                fights
            }
            Opened::Complete { fights } => {
                eprintln!(
                    "{}: {} holds the finished work ({} fights); writing its {}",
                    s.name,
                    path.display(),
                    grouped(fights),
                    if sharded.is_none() { "report" } else { "shard" }
                );
                fights
            }
        };
        bar.set_position(before);
        bar.reset_eta();
        let finish = pool
            .install(|| {
                p.execute(
                    &work,
                    &mut ledger,
                    Some(&mut journal),
                    &|n| bar.inc(n),
                    signals.as_ref().map_or(&never, |s| s.stop()),
                )
            })
            .with_context(|| format!("running {}", s.source.path))
            .map_err(Failure::Other)?;
        bar.finish_and_clear();
        let done = crate::journal::fights_done(&mut ledger)
            .context("reading the journal back")
            .map_err(Failure::Other)?;
        let timing = timing(p, done - before, started, pool.current_num_threads());
        if finish == Finish::Stopped {
            for kept in finished.drain(..) {
                let shown = kept.path().display().to_string();
                kept.close()
                    .with_context(|| format!("saving {shown}"))
                    .map_err(Failure::Other)?;
            }
            journal
                .close()
                .with_context(|| format!("saving {}", path.display()))
                .map_err(Failure::Other)?;
            eprintln!(
                "{}: interrupted: {} of {} fights saved in {}; run the same command to \
                 resume",
                s.name,
                grouped(done),
                grouped(total),
                path.display()
            );
            return Ok(ExitCode::from(
                signals.as_ref().map_or(130, |s| s.exit_code()),
            ));
        }
        let problems = crate::journal::audit(&header, &mut ledger)
            .context("reading the journal back")
            .map_err(Failure::Other)?;
        if !problems.is_empty() {
            return Err(Failure::BadInput(anyhow!(
                "{} is marked finished but does not hold its work: {}; the journal is \
                 damaged (--fresh starts over)",
                path.display(),
                problems.join("; ")
            )));
        }
        if let Some(file) = &args.export_batches {
            export(p, s, &mut ledger, file)?;
        }
        if sharded.is_some() {
            journal
                .close()
                .with_context(|| format!("saving {}", path.display()))
                .map_err(Failure::Other)?;
            say!("{}: shard {shard}: {timing} → {}", s.name, path.display());
            continue;
        }
        let results = p
            .results(&work, &mut ledger)
            .context("aggregating the journal")
            .map_err(Failure::Other)?;
        let results =
            pool.install(|| with_fights(p, results, &work, Path::new(&s.source.path), &dir));
        let (results, timing) = with_exact(args, s, p, &pool, results, timing);
        let (results, timing) = with_plays(args, s, &work, &pool, results, timing)?;
        crate::report::write(&results, &dir)
            .with_context(|| format!("writing the report of {}", s.source.path))
            .map_err(Failure::Other)?;
        crate::process::failpoint("report-written");
        finished.push(journal);
        say!("{}: {timing} → {}", s.name, dir.display());
        print_caveats(&s.name, &results);
    }
    // Every report is written: the journals' work is in them.
    for journal in finished {
        journal
            .remove()
            .context("removing the finished journal")
            .map_err(Failure::Other)?;
    }
    Ok(if differs {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Prints on stderr what the fights showed that the report lists under
/// "Read this first" (fights cut short by the round cap, axes that changed
/// no fight), so a designer sees it without opening summary.md.
pub(super) fn print_caveats(name: &str, results: &crate::results::RunResults) {
    // The report was just written from these results: they are consistent.
    for line in crate::report::caveats(results).unwrap_or_default() {
        eprintln!("{name}: warning: {line}");
    }
}

/// The exit code a journal's error gets: the user's to fix, or not.
pub(super) fn journal_failure(e: crate::journal::JournalError) -> Failure {
    if e.is_bad_input() {
        Failure::BadInput(e.into())
    } else {
        Failure::Other(e.into())
    }
}

/// `results` with the fights its report tells (fights.md: the baseline
/// cell's typical fight and upset, found by fighting them again, with the
/// command that replays each from the scenario file at `scenario`, named
/// from the folder holding `report_dir`'s reports folder), and on a map
/// what the report draws of the ground (`map.png`, `falls.png`: where
/// units fell, found by fighting the baseline cell again with an
/// observer). They are the report's, not the run's, so they come after
/// the timing.
pub(crate) fn with_fights(
    p: &Plan,
    mut results: RunResults,
    work: &Work,
    scenario: &Path,
    report_dir: &Path,
) -> RunResults {
    results.fights =
        crate::replay::shown_fights(p, &results, work.budget.batch(), scenario, report_dir);
    results.ground = crate::replay::places::ground_report(p, &results, work.budget.batch());
    results
}

/// With `--exact`, `results` with every cell's exact win rates (or why a
/// cell has none, said on stderr) and `timing` with what that took;
/// without, both as they are.
fn with_exact(
    args: &RunArgs,
    s: &Scenario,
    p: &Plan,
    pool: &rayon::ThreadPool,
    mut results: RunResults,
    timing: String,
) -> (RunResults, String) {
    if !args.exact {
        return (results, timing);
    }
    let (wins, seconds) =
        super::exact::exact_wins(&s.name, p, &args.limits.limits(), pool, args.sim.quiet);
    let timing = format!("{timing}; {}", super::exact::exact_timing(&wins, seconds));
    results.exact = wins;
    (results, timing)
}

/// `results` with the play check ([`super::play_check`]) fought on `pool`,
/// and `timing` with what that took.
fn with_plays(
    args: &RunArgs,
    s: &Scenario,
    work: &Work,
    pool: &rayon::ThreadPool,
    results: RunResults,
    timing: String,
) -> Result<(RunResults, String), Failure> {
    let (results, took) = pool.install(|| {
        super::play_check::with_plays(
            &args.plays,
            s,
            work.budget.fights(),
            work.seed,
            args.sim.quiet,
            results,
        )
    })?;
    let timing = match took {
        Some(took) => format!("{timing}; {took}"),
        None => timing,
    };
    Ok((results, timing))
}

fn budget(args: &RunArgs, s: &Scenario) -> Budget {
    args.target.budget(s, args.sim.fights.unwrap_or(s.fights))
}

/// `12 cells, 120,000 fights in 0.52 s: 231k fights/s on 2 threads`.
fn timing(p: &Plan, fights: u64, started: Instant, threads: usize) -> String {
    let seconds = started.elapsed().as_secs_f64();
    let rate = fights as f64 / seconds.max(1e-9);
    format!(
        "{} cell{}, {} fights in {seconds:.2} s: {} fights/s on {threads} thread{}",
        grouped(p.cells.len() as u64),
        if p.cells.len() == 1 { "" } else { "s" },
        grouped(fights),
        progress::human(rate),
        if threads == 1 { "" } else { "s" },
    )
}

/// Writes the batch records of `s`'s run to `file`.
pub(crate) fn export(
    p: &Plan,
    s: &Scenario,
    ledger: &mut crate::journal::Ledger,
    file: &Path,
) -> Result<(), Failure> {
    let sides: Vec<String> = p.info.sides.iter().map(|side| side.name.clone()).collect();
    let counters: Vec<&str> = p.info.counters.iter().map(|c| c.name).collect();
    crate::journal::parquet::write(ledger, &p.info.axes, &p.cells, &sides, &counters, file)
        .with_context(|| format!("exporting the batches of {}", s.source.path))
        .map_err(Failure::Other)?;
    say!("{}: batch records → {}", s.name, file.display());
    Ok(())
}

/// Compare a fresh run with the report on disk; true if anything differs.
fn check(results: &RunResults, dir: &Path, timing: &str) -> Result<bool, Failure> {
    let rendered = crate::report::render(results)
        .context("rendering the report")
        .map_err(Failure::Other)?;
    let checked = crate::report::compare(Kind::Run, &rendered, dir)
        .with_context(|| format!("reading {}", dir.display()))
        .map_err(Failure::Other)?;
    Ok(print_check(&results.scenario.name, dir, timing, &checked))
}

/// Prints what `--check` found; true if the report differs. Files skirmish
/// did not write are listed but allowed (see [`crate::report::Checked`]).
pub(crate) fn print_check(
    name: &str,
    dir: &Path,
    timing: &str,
    checked: &crate::report::Checked,
) -> bool {
    let differs = !checked.differences.is_empty();
    if differs {
        say!("{name}: differs from {} ({timing}):", dir.display());
        for d in &checked.differences {
            say!("  {d}");
        }
    } else {
        say!("{name}: identical to {} ({timing})", dir.display());
    }
    for kept in &checked.kept {
        say!("  {kept}: not written by skirmish (kept, not compared)");
    }
    differs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    #[test]
    fn shards_are_parsed_and_read_from_the_scheduler() {
        let fixed = |index, count| Ok(Shard { index, count });
        assert_eq!(
            parse_shard("3/8"),
            Ok(ShardArg::Fixed(Shard { index: 3, count: 8 }))
        );
        for bad in ["0/8", "9/8", "3/0", "3", "auto/0", "a/b", ""] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
        let auto = ShardArg::Auto(None);
        let auto8 = ShardArg::Auto(Some(8));
        // Slurm: --array=0-7 and --array=1-8 give the same shards.
        let slurm = [
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "8"),
        ];
        assert_eq!(resolve_shard(auto, &env(&slurm)), fixed(1, 8));
        let slurm1 = [
            ("SLURM_ARRAY_TASK_ID", "8"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "8"),
        ];
        assert_eq!(resolve_shard(auto, &env(&slurm1)), fixed(8, 8));
        assert_eq!(resolve_shard(auto8, &env(&slurm1)), fixed(8, 8));
        let e = resolve_shard(ShardArg::Auto(Some(4)), &env(&slurm1)).unwrap_err();
        assert!(e.contains("8 tasks"), "{e}");
        // Kubernetes: the index from 0, the count from the command line.
        let k8s = [("JOB_COMPLETION_INDEX", "7")];
        assert_eq!(resolve_shard(auto8, &env(&k8s)), fixed(8, 8));
        let e = resolve_shard(auto, &env(&k8s)).unwrap_err();
        assert!(e.contains("auto/N"), "{e}");
        let e = resolve_shard(ShardArg::Auto(Some(7)), &env(&k8s)).unwrap_err();
        assert!(e.contains("8 of 7"), "{e}");
        // Nothing in the environment.
        let e = resolve_shard(auto8, &env(&[])).unwrap_err();
        assert!(e.contains("JOB_COMPLETION_INDEX"), "{e}");
    }
}
