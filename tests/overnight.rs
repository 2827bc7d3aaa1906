//! Overnight runs: a run killed (kill -9) at any moment, or stopped by
//! SIGINT/SIGTERM, resumes from its journal when the same command is run
//! again and writes a report byte-identical to an uninterrupted run's;
//! shards merge into that same report at any number of shards; journals
//! that do not belong together are refused. Every test kills or signals a
//! real child process.

mod common;

use std::fs;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{read_report, skirmish_in, Sandbox, SMALL};

/// The fixture with enough fights that a single-threaded run takes a few
/// seconds even on a fast machine (journal lines show at the first sync,
/// after a second): time to interrupt it. 4 cells × 1000 batches of 4096.
const FIGHTS: &str = "4096000";

fn long_args<'a>(file: &'a str, out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "run",
        file,
        "--out",
        out,
        "--quiet",
        "--fights",
        FIGHTS,
        "--threads",
        "1",
    ];
    args.extend_from_slice(extra);
    args
}

fn spawn(sb: &Sandbox, args: &[&str], env: &[(&str, &str)]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(args)
        .current_dir(sb.path())
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn skirmish")
}

/// Waits until the journal at `path` holds at least `batches` finished
/// batches (lines `B ...` or folded groups), or panics after a minute.
fn wait_for_batches(path: &Path, batches: usize, child: &mut Child) {
    let start = Instant::now();
    loop {
        if journalled(path) >= batches {
            return;
        }
        if let Ok(Some(status)) = child.try_wait() {
            panic!("the run ended ({status}) before {batches} batches were journalled");
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no {batches} batches in {} after a minute",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Batches (or folded groups) in the journal at `path` now.
fn journalled(path: &Path) -> usize {
    fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter(|l| l.starts_with("B ") || l.starts_with("G "))
        .count()
}

fn signal(child: &Child, name: &str) {
    let st = Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(st.success());
}

fn finish(child: Child) -> (i32, String, String) {
    let out = child.wait_with_output().expect("wait");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `12,345` → 12345.
fn number(text: &str) -> u64 {
    text.replace(',', "").parse().expect("a number")
}

/// From a resumed run's messages: (fights already done, fights in all),
/// and the fights this run fought.
fn resumed_counts(stderr: &str, stdout: &str) -> (u64, u64, u64) {
    let line = stderr
        .lines()
        .find(|l| l.contains("resuming from"))
        .unwrap_or_else(|| panic!("no resume message in {stderr}"));
    let after = line.split(": ").nth(2).expect("counts");
    let words: Vec<&str> = after.split(' ').collect();
    let fought = stdout
        .split("cells, ")
        .nth(1)
        .and_then(|s| s.split(" fights in").next())
        .unwrap_or_else(|| panic!("no timing in {stdout}"));
    (number(words[0]), number(words[2]), number(fought))
}

/// The reference: the same run, uninterrupted.
fn reference(
    sb: &Sandbox,
    file: &str,
    extra: &[&str],
) -> std::collections::BTreeMap<String, Vec<u8>> {
    let o = sb.run(&long_args(file, "reference", extra));
    assert_eq!(o.code, 0, "{o:#?}");
    read_report(&sb.join("reference/small"))
}

#[test]
fn a_run_killed_during_the_simulation_resumes_to_the_same_report() {
    let sb = Sandbox::new();
    let file = sb.write("small.toml", SMALL);
    let expected = reference(&sb, file, &[]);
    let journal = sb.join("out/small.journal");
    // Killed twice at different points, resumed each time.
    for batches in [40, 400] {
        let mut child = spawn(&sb, &long_args(file, "out", &[]), &[]);
        wait_for_batches(&journal, batches, &mut child);
        child.kill().expect("kill -9");
        let (code, _, _) = finish(child);
        assert_eq!(code, -1, "killed by a signal");
        assert!(journal.exists());
        assert!(!sb.join("out/small").exists(), "no report that looks whole");
        if batches == 400 {
            break;
        }
        // Resume, and kill the resumed run too.
        let mut child = spawn(&sb, &long_args(file, "out", &[]), &[]);
        wait_for_batches(&journal, batches + 200, &mut child);
        child.kill().expect("kill -9");
        finish(child);
    }
    let o = sb.run(&long_args(file, "out", &[]));
    assert_eq!(o.code, 0, "{o:#?}");
    let (before, total, fought) = resumed_counts(&o.stderr, &o.stdout);
    assert!(before > 0 && before < total, "{before} of {total}");
    // Nothing done before is fought again.
    assert_eq!(before + fought, total, "{o:#?}");
    assert_eq!(read_report(&sb.join("out/small")), expected);
    // The finished run leaves only its report.
    assert_eq!(sb.entries("out"), vec!["small"]);
}

#[test]
fn a_run_killed_while_writing_resumes_to_the_same_report() {
    let sb = Sandbox::new();
    let file = sb.write("small.toml", SMALL);
    let expected = reference(&sb, file, &[]);
    let older = {
        let o = sb.run(&long_args(file, "older", &["--seed", "99"]));
        assert_eq!(o.code, 0, "{o:#?}");
        read_report(&sb.join("older/small"))
    };
    assert_ne!(older, expected);
    for point in [
        "journal-written",
        "report-staged",
        "report-written",
        "report-half-swapped",
    ] {
        let out = format!("out-{point}");
        if point == "report-half-swapped" {
            // Over an existing report of another seed.
            let o = sb.run(&long_args(file, &out, &["--seed", "99"]));
            assert_eq!(o.code, 0, "{o:#?}");
        }
        let killed = spawn(
            &sb,
            &long_args(file, &out, &[]),
            &[("SKIRMISH_FAILPOINT", point)],
        );
        let (code, _, stderr) = finish(killed);
        assert_eq!(code, -1, "{point}: killed at the failpoint: {stderr}");
        let o = sb.run(&long_args(file, &out, &[]));
        assert_eq!(o.code, 0, "{point}: {o:#?}");
        assert_eq!(
            read_report(&sb.join(&out).join("small")),
            expected,
            "{point}"
        );
        assert_eq!(
            sb.entries(&out),
            vec!["small"],
            "{point}: nothing left behind"
        );
    }
}

#[test]
fn sigint_and_sigterm_save_the_work_and_exit_130_and_143() {
    let sb = Sandbox::new();
    let file = sb.write("small.toml", SMALL);
    let expected = reference(&sb, file, &[]);
    let journal = sb.join("out/small.journal");
    for (name, code) in [("INT", 130), ("TERM", 143)] {
        // Batches in the journal already (the second run resumes the first).
        let before = journalled(&journal);
        let mut child = spawn(&sb, &long_args(file, "out", &[]), &[]);
        wait_for_batches(&journal, before + 40, &mut child);
        signal(&child, name);
        let (got, _, stderr) = finish(child);
        assert_eq!(got, code, "SIG{name}: {stderr}");
        assert!(stderr.contains("interrupted: "), "{stderr}");
        assert!(
            stderr.contains("fights saved in out/small.journal"),
            "{stderr}"
        );
        assert!(
            stderr.contains("run the same command to resume"),
            "{stderr}"
        );
        assert!(journal.exists());
    }
    let o = sb.run(&long_args(file, "out", &[]));
    assert_eq!(o.code, 0, "{o:#?}");
    let (before, total, fought) = resumed_counts(&o.stderr, &o.stdout);
    assert_eq!(before + fought, total);
    assert_eq!(read_report(&sb.join("out/small")), expected);
}

#[test]
fn ctrl_c_ends_a_check_at_once() {
    // `--check` writes nothing and has nothing to save: SIGINT keeps its
    // default action and ends the process.
    let sb = Sandbox::new();
    let file = sb.write("small.toml", SMALL);
    let child = spawn(&sb, &long_args(file, "out", &["--check"]), &[]);
    std::thread::sleep(Duration::from_millis(300));
    signal(&child, "INT");
    let start = Instant::now();
    let (code, _, stderr) = finish(child);
    assert_eq!(code, -1, "ended by the signal: {stderr}");
    assert!(start.elapsed() < Duration::from_secs(1));
    assert!(!sb.join("out").exists());
}

#[test]
fn a_second_run_of_the_same_report_is_refused_while_the_first_runs() {
    let sb = Sandbox::new();
    let file = sb.write("small.toml", SMALL);
    let mut first = spawn(&sb, &long_args(file, "out", &[]), &[]);
    wait_for_batches(&sb.join("out/small.journal"), 1, &mut first);
    let o = sb.run(&long_args(file, "out", &[]));
    assert_eq!(o.code, 2, "{o:#?}");
    assert!(
        o.stderr.contains(&format!(
            "out/small.journal is being written by another skirmish (process {})",
            first.id()
        )),
        "{}",
        o.stderr
    );
    first.kill().expect("kill");
    finish(first);
}

#[test]
fn another_runs_journal_is_refused_and_fresh_starts_over() {
    let sb = Sandbox::new();
    let file = sb.write("small.toml", SMALL);
    let mut child = spawn(&sb, &long_args(file, "out", &[]), &[]);
    wait_for_batches(&sb.join("out/small.journal"), 10, &mut child);
    child.kill().expect("kill");
    finish(child);
    let o = sb.run(&long_args(file, "out", &["--seed", "8"]));
    assert_eq!(o.code, 2, "{o:#?}");
    assert!(
        o.stderr.contains("seed: 7 in the journal, 8 now"),
        "{}",
        o.stderr
    );
    assert!(o.stderr.contains("--fresh"), "{}", o.stderr);
    // A changed scenario is another run too.
    sb.write("small.toml", &SMALL.replace("attack = 3", "attack = 4"));
    let o = sb.run(&long_args(file, "out", &[]));
    assert_eq!(o.code, 2, "{o:#?}");
    assert!(
        o.stderr.contains("scenario text: small.toml"),
        "{}",
        o.stderr
    );
    sb.write("small.toml", SMALL);
    let expected = reference(&sb, file, &["--seed", "8"]);
    let o = sb.run(&long_args(file, "out", &["--seed", "8", "--fresh"]));
    assert_eq!(o.code, 0, "{o:#?}");
    assert_eq!(read_report(&sb.join("out/small")), expected);
}

/// Runs shards `order` of `n` into `dir` (small fights, fast).
fn run_shards(sb: &Sandbox, file: &str, dir: &str, n: u32, order: &[u32]) {
    for &k in order {
        let shard = format!("{k}/{n}");
        let o = sb.run(&["run", file, "--out", dir, "--quiet", "--shard", &shard]);
        assert_eq!(o.code, 0, "shard {shard}: {o:#?}");
        assert!(o.stdout.contains(&format!("shard {shard}")), "{}", o.stdout);
    }
}

fn shard_files(dir: &str, n: u32) -> Vec<String> {
    (1..=n)
        .map(|k| format!("{dir}/small.shard-{k}-of-{n}.journal"))
        .collect()
}

#[test]
fn shards_merge_to_the_single_run_report_at_any_number_of_shards() {
    let sb = Sandbox::new();
    let file = sb.write("small.toml", SMALL);
    // The fixture's 2000 fights a cell are 16 batches of 128: 1, 2, 3, 7
    // and 20 shards (4 with nothing to do) in scrambled orders.
    let o = sb.run(&["run", file, "--out", "single", "--quiet"]);
    assert_eq!(o.code, 0, "{o:#?}");
    let expected = read_report(&sb.join("single/small"));
    for n in [1u32, 2, 3, 7, 20] {
        let dir = format!("shards{n}");
        let order: Vec<u32> = (1..=n).rev().collect();
        run_shards(&sb, file, &dir, n, &order);
        let files = shard_files(&dir, n);
        let out = format!("merged{n}");
        let mut args = vec!["merge", "--out", &out];
        args.extend(files.iter().map(String::as_str));
        let o = sb.run(&args);
        assert_eq!(o.code, 0, "{o:#?}");
        assert!(o.stdout.contains(&format!("{n} shard")), "{}", o.stdout);
        assert_eq!(
            read_report(&sb.join(&out).join("small")),
            expected,
            "{n} shards"
        );
        // The shards stay: they are the cluster's output.
        assert!(files.iter().all(|f| sb.join(f).exists()));
    }
    // A shard run again is already complete: nothing fought again, and
    // its journal is left byte for byte as it was.
    let journal = sb.join("shards3/small.shard-2-of-3.journal");
    let before = fs::read(&journal).expect("journal");
    let o = sb.run(&["run", file, "--out", "shards3", "--quiet", "--shard", "2/3"]);
    assert_eq!(o.code, 0, "{o:#?}");
    assert_eq!(fs::read(&journal).expect("journal"), before);
    assert!(o.stderr.contains("holds the finished work"), "{}", o.stderr);
    assert!(o.stdout.contains(" 0 fights in"), "{}", o.stdout);
}

#[test]
fn merge_refuses_missing_duplicated_mismatched_and_unfinished_shards() {
    let sb = Sandbox::new();
    let file = sb.write("small.toml", SMALL);
    run_shards(&sb, file, "a", 3, &[1, 2, 3]);
    let a = shard_files("a", 3);
    let refused = |args: &[&str], needle: &str| {
        let mut all = vec!["merge", "--out", "merged"];
        all.extend_from_slice(args);
        let o = sb.run(&all);
        assert_eq!(o.code, 2, "{args:?}: {o:#?}");
        assert!(o.stderr.contains(needle), "{args:?}: {}", o.stderr);
        assert!(!sb.join("merged").exists(), "nothing written");
    };
    refused(
        &[&a[0], &a[2]],
        "shard 2/3 of `small` is missing (given: 1/3, 3/3)",
    );
    fs::copy(sb.join(&a[1]), sb.join("copy.journal")).expect("copy");
    refused(
        &[&a[0], &a[1], "copy.journal", &a[2]],
        "a/small.shard-2-of-3.journal and copy.journal are both shard 2/3 of `small`",
    );
    // Shard 3 of a run with another seed.
    let o = sb.run(&[
        "run", file, "--out", "b", "--quiet", "--shard", "3/3", "--seed", "8",
    ]);
    assert_eq!(o.code, 0, "{o:#?}");
    refused(
        &[&a[0], &a[1], "b/small.shard-3-of-3.journal"],
        "are shards of different runs of `small`: seed: 7 in the first, 8 in the second",
    );
    // Shards of a split into 2 with shards of a split into 3.
    run_shards(&sb, file, "c", 2, &[1]);
    refused(
        &[&a[0], &a[1], "c/small.shard-1-of-2.journal"],
        "a run is split into one number of shards",
    );
    // An unfinished shard: its journal without the line saying it is done.
    let text = fs::read_to_string(sb.join(&a[2])).expect("read");
    let cut = text.trim_end_matches('\n').rfind('\n').expect("lines") + 1;
    assert!(text[cut..].starts_with("E "), "{}", &text[cut..]);
    sb.write("unfinished.journal", &text[..cut]);
    refused(
        &[&a[0], &a[1], "unfinished.journal"],
        "unfinished.journal (shard 3/3 of `small`) is not finished",
    );
    // Not a journal at all.
    sb.write("notes.txt", "hello\n");
    refused(&["notes.txt"], "notes.txt is not a skirmish journal");
}

#[test]
fn sharding_a_precision_run_or_a_check_is_refused() {
    let sb = Sandbox::new();
    let file = sb.write("small.toml", SMALL);
    for (extra, needle) in [
        (
            vec!["--precision", "0.02"],
            "precision runs cannot be sharded",
        ),
        (vec!["--check"], "a shard writes no report"),
        (vec![], "JOB_COMPLETION_INDEX"),
    ] {
        let shard = if extra.is_empty() { "auto" } else { "1/2" };
        let mut args = vec!["run", file, "--quiet", "--shard", shard];
        args.extend(extra.iter().copied());
        let out = Command::new(env!("CARGO_BIN_EXE_skirmish"))
            .args(&args)
            .current_dir(sb.path())
            .env_remove("SLURM_ARRAY_TASK_ID")
            .env_remove("JOB_COMPLETION_INDEX")
            .output()
            .expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert!(
            sb.entries("").iter().all(|e| e == "small.toml"),
            "nothing written"
        );
    }
}

#[test]
fn a_precision_run_resumes_to_the_same_report() {
    let sb = Sandbox::new();
    let file = sb.write("small.toml", SMALL);
    let args = |out: &'static str| {
        vec![
            "run",
            file,
            "--out",
            out,
            "--quiet",
            "--threads",
            "1",
            "--precision",
            "0.004",
            "--max-fights",
            "2000000",
        ]
    };
    let o = skirmish_in(sb.path(), &args("reference"));
    assert_eq!(o.code, 0, "{o:#?}");
    let expected = read_report(&sb.join("reference/small"));
    let journal = sb.join("out/small.journal");
    let mut child = spawn(&sb, &args("out"), &[]);
    wait_for_batches(&journal, 60, &mut child);
    child.kill().expect("kill -9");
    finish(child);
    let text = fs::read_to_string(&journal).expect("journal");
    assert!(
        text.lines().any(|l| l.starts_with("W ")),
        "a round's decision is journalled"
    );
    let o = skirmish_in(sb.path(), &args("out"));
    assert_eq!(o.code, 0, "{o:#?}");
    assert!(o.stderr.contains("resuming from"), "{}", o.stderr);
    assert_eq!(read_report(&sb.join("out/small")), expected);
}

#[test]
fn export_batches_writes_every_batch_record() {
    use polars::prelude::{ParquetReader, SerReader};
    let sb = Sandbox::new();
    let file = sb.write("small.toml", SMALL);
    let o = sb.run(&[
        "run",
        file,
        "--out",
        "out",
        "--quiet",
        "--export-batches",
        "batches.parquet",
    ]);
    assert_eq!(o.code, 0, "{o:#?}");
    let frame = ParquetReader::new(fs::File::open(sb.join("batches.parquet")).expect("file"))
        .finish()
        .expect("reads");
    // 4 cells × 16 batches of 128 (the last of 80).
    assert_eq!(frame.height(), 4 * 16);
    let names: Vec<String> = frame
        .get_column_names()
        .iter()
        .map(|n| n.to_string())
        .collect();
    for name in [
        "cell",
        "options.crit",
        "units.brawler.hp",
        "group",
        "batches",
        "fights",
        "wins_attackers",
        "wins_defenders",
        "damage_defenders",
    ] {
        assert!(names.contains(&name.to_owned()), "{name} in {names:?}");
    }
    let fights: u64 = frame
        .column("fights")
        .and_then(|c| c.u64().map(|c| c.iter().flatten().sum()))
        .expect("fights");
    assert_eq!(fights, 4 * 2000);
    // An existing file is never overwritten: refused before any work.
    let o = sb.run(&[
        "run",
        file,
        "--out",
        "again",
        "--quiet",
        "--export-batches",
        "batches.parquet",
    ]);
    assert_eq!(o.code, 2, "{o:#?}");
    assert!(o.stderr.contains("the file exists"), "{}", o.stderr);
    assert!(!sb.join("again").exists());
    // The export agrees with the report: attackers' wins per cell.
    let cells = fs::read_to_string(sb.join("out/small/cells.csv")).expect("cells.csv");
    let (header, rows) = common::parse_csv(&cells);
    let at = header
        .iter()
        .position(|h| h == "wins_attackers")
        .expect("column");
    let cell = frame
        .column("cell")
        .and_then(|c| c.u32().cloned())
        .expect("cell");
    let wins = frame
        .column("wins_attackers")
        .and_then(|c| c.u64().cloned())
        .expect("wins");
    for (c, row) in rows.iter().enumerate() {
        let sum: u64 = cell
            .iter()
            .zip(wins.iter())
            .filter(|(k, _)| *k == Some(c as u32))
            .map(|(_, w)| w.unwrap_or(0))
            .sum();
        assert_eq!(sum.to_string(), row[at], "cell {c}");
    }
}
