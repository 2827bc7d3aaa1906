//! `skirmish merge`: the report of a run from its shards' journals.
//!
//! Every shard's journal carries the scenario's text and the work's
//! identity, so merging needs nothing but the journals. The shards of one
//! scenario must be the same work, all `N` of them, each once and complete;
//! anything else is refused, naming the files; so is a shard whose counts
//! fall short of what its header promises (a lost line: see
//! [`journal::audit`]), naming the shard, the cells and the batches.
//! Journals of several scenarios may be given at once: each scenario gets
//! its report. A merge takes the lock a run into the same folder takes, so
//! merges and runs into one `--out` never write one report at once.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{anyhow, Context};
use clap::Args;

use super::{output, Failure};
use crate::journal::{self, Header, Ledger};
use crate::report::numbers::grouped;
use crate::report::Kind;
use crate::run::{plan, Work};
use crate::scenario::{self, Source};

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The shards' journals (`<name>.shard-K-of-N.journal`, from
    /// `skirmish run --shard K/N`).
    #[arg(required = true, value_name = "JOURNAL")]
    journals: Vec<PathBuf>,
    /// Folder the reports go in, one subfolder per scenario name.
    #[arg(long, default_value = "reports")]
    out: PathBuf,
    /// Also write the merged batch records to this Parquet file (one
    /// scenario only).
    #[arg(long, value_name = "FILE.parquet")]
    export_batches: Option<PathBuf>,
    #[command(flatten)]
    plays: super::play_check::PlayCheckArgs,
}

/// One shard as read.
struct Part {
    path: PathBuf,
    header: Header,
    ledger: Ledger,
}

pub fn merge(args: &MergeArgs) -> Result<ExitCode, Failure> {
    let bad = |e: anyhow::Error| Failure::BadInput(e);
    // Read everything first: any problem is found before anything is written.
    let mut by_name: BTreeMap<String, Vec<Part>> = BTreeMap::new();
    for path in &args.journals {
        let (header, ledger) = journal::read(path).map_err(|e| match e {
            // Given as an input, not found at a name skirmish needs.
            journal::JournalError::NotOurs { path } => bad(anyhow!(
                "{} is not a skirmish journal: give the shards' journals \
                 (`<name>.shard-K-of-N.journal`, from `skirmish run --shard K/N`)",
                path.display()
            )),
            e => bad(e.into()),
        })?;
        by_name.entry(header.name.clone()).or_default().push(Part {
            path: path.clone(),
            header,
            ledger,
        });
    }
    if args.export_batches.is_some() && by_name.len() > 1 {
        return Err(bad(anyhow!(
            "--export-batches writes one run's batches, and these journals are of {} \
             scenarios",
            by_name.len()
        )));
    }
    if let Some(file) = &args.export_batches {
        crate::journal::parquet::check_target(file).map_err(|e| bad(anyhow!(e)))?;
    }
    let mut merged = Vec::new();
    for (name, mut parts) in by_name {
        check_parts(&name, &mut parts).map_err(bad)?;
        let first = &parts[0].header;
        let scenario = scenario::parse(Source {
            path: first.path.clone(),
            text: first.text.clone(),
        })
        .with_context(|| format!("the scenario in {}", parts[0].path.display()))
        .map_err(bad)?;
        let p = plan(&scenario)
            .with_context(|| format!("the scenario in {}", parts[0].path.display()))
            .map_err(bad)?;
        let work = Work::whole(first.amount, first.seed, streams(&first.streams));
        let differences = first.differences(&p.header(&scenario, &work));
        if !differences.is_empty() {
            return Err(bad(anyhow!(
                "{} cannot be merged by this skirmish ({}): {}; merge with the version \
                 that ran it",
                parts[0].path.display(),
                journal::program(),
                differences.join("; ")
            )));
        }
        let dir = args.out.join(&name);
        let inputs: Vec<&Path> = args.journals.iter().map(PathBuf::as_path).collect();
        output::preflight(Kind::Run, &dir, &inputs)?;
        merged.push((scenario, p, work, parts, dir));
    }
    for (scenario, p, work, parts, dir) in merged {
        // The lock of a run of this scenario into this folder.
        std::fs::create_dir_all(&args.out)
            .with_context(|| format!("cannot create {}", args.out.display()))
            .map_err(Failure::Other)?;
        let lock = journal::Lock::take(&super::run::journal_path(&args.out, &scenario.name, None))
            .map_err(super::run::journal_failure)?;
        let count = parts.len();
        let mut parts = parts.into_iter();
        let mut ledger = p.ledger(&work);
        for part in parts.by_ref() {
            let path = part.path.display().to_string();
            ledger
                .absorb(part.ledger)
                .with_context(|| format!("merging {path}"))
                .map_err(bad)?;
        }
        let fights = journal::fights_done(&mut ledger)
            .context("aggregating the shards")
            .map_err(Failure::Other)?;
        if let Some(file) = &args.export_batches {
            super::run::export(&p, &scenario, &mut ledger, file)?;
        }
        let results = p
            .results(&work, &mut ledger)
            .context("aggregating the shards")
            .map_err(Failure::Other)?;
        let results =
            super::run::with_fights(&p, results, &work, Path::new(&scenario.source.path), &dir);
        let (results, _) = super::play_check::with_plays(
            &args.plays,
            &scenario,
            work.budget.fights(),
            work.seed,
            false,
            results,
        )?;
        crate::report::write(&results, &dir)
            .with_context(|| format!("writing the report of {}", scenario.name))
            .map_err(Failure::Other)?;
        lock.release();
        say!(
            "{}: {count} shard{}, {} fights → {}",
            scenario.name,
            if count == 1 { "" } else { "s" },
            grouped(fights),
            dir.display()
        );
        super::run::print_caveats(&scenario.name, &results);
    }
    Ok(ExitCode::SUCCESS)
}

fn streams(name: &str) -> crate::results::Streams {
    if name == "independent" {
        crate::results::Streams::Independent
    } else {
        crate::results::Streams::Common
    }
}

/// The parts of one scenario are the same work, shards 1..=N each once,
/// each complete.
fn check_parts(name: &str, parts: &mut [Part]) -> anyhow::Result<()> {
    let first = &parts[0];
    for part in &parts[1..] {
        let differences = first.header.differences(&part.header);
        if !differences.is_empty() {
            return Err(anyhow!(
                "{} and {} are shards of different runs of `{name}`: {}",
                first.path.display(),
                part.path.display(),
                differences
                    .join("; ")
                    .replace("in the journal", "in the first")
                    .replace(" now", " in the second")
            ));
        }
        if part.header.shard.count != first.header.shard.count {
            return Err(anyhow!(
                "{} is shard {} and {} is shard {}: a run is split into one number of shards",
                first.path.display(),
                first.header.shard,
                part.path.display(),
                part.header.shard
            ));
        }
    }
    let n = first.header.shard.count;
    let mut seen: BTreeMap<u32, &Path> = BTreeMap::new();
    for part in parts.iter() {
        if let Some(other) = seen.insert(part.header.shard.index, &part.path) {
            return Err(anyhow!(
                "{} and {} are both shard {} of `{name}`",
                other.display(),
                part.path.display(),
                part.header.shard
            ));
        }
        if !part.ledger.complete {
            return Err(anyhow!(
                "{} (shard {} of `{name}`) is not finished: run its command again to \
                 finish it (it resumes), then merge",
                part.path.display(),
                part.header.shard
            ));
        }
    }
    let missing: Vec<String> = (1..=n)
        .filter(|k| !seen.contains_key(k))
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(anyhow!(
            "shard{} {} of `{name}` {} missing (given: {})",
            if missing.len() == 1 { "" } else { "s" },
            abbreviate(&missing),
            if missing.len() == 1 { "is" } else { "are" },
            abbreviate(&seen.keys().map(|k| format!("{k}/{n}")).collect::<Vec<_>>())
        ));
    }
    // Every count of a finished shard against what its header promises.
    for part in parts.iter_mut() {
        let problems = journal::audit(&part.header, &mut part.ledger)
            .with_context(|| format!("reading {}", part.path.display()))?;
        if !problems.is_empty() {
            return Err(anyhow!(
                "{} (shard {} of `{name}`) is marked finished but does not hold its work: \
                 {}; the journal is damaged: run the shard's command again (it fights \
                 missing batches; with --fresh it starts the shard over), then merge",
                part.path.display(),
                part.header.shard,
                problems.join("; ")
            ));
        }
    }
    Ok(())
}

/// At most 10 items, then `and K more`.
fn abbreviate(items: &[String]) -> String {
    if items.len() <= 10 {
        items.join(", ")
    } else {
        format!("{}, and {} more", items[..10].join(", "), items.len() - 10)
    }
}
