//! No wrong report, no panic, no lost file (issue 26, section 2): journals
//! are read as untrusted input (a line lost, a count lied about, a device
//! given as a journal, bytes that are not text), planted links and
//! hand-edited manifests never make skirmish write or delete a file it did
//! not write, a closed stdout does not stop the work, a run is the same run
//! whatever the spelling of its scenario's path, and settings skirmish
//! would ignore or could not honour are refused before any work.

mod common;

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{read_report, Output, Sandbox, SMALL};

/// Fights per cell of the shard runs: 20,000 in batches of 625, so a shard
/// journal holds one `B` line per batch (nothing folded).
const FIGHTS: &str = "20000";

/// Runs shards 1/2 and 2/2 of the fixture into `out`, spelling the
/// scenario's path `spelling[k]` for shard k+1.
fn shards(sb: &Sandbox, out: &str, spelling: [&str; 2]) {
    sb.write("small.toml", SMALL);
    for (k, file) in spelling.iter().enumerate() {
        let o = run_shard(sb, file, &format!("{}/2", k + 1), out, &[]);
        assert_eq!(o.code, 0, "{o:#?}");
    }
}

/// `skirmish run FILE --shard SHARD --out OUT --quiet --fights FIGHTS`,
/// then `extra`.
fn run_shard(sb: &Sandbox, file: &str, shard: &str, out: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "run", file, "--shard", shard, "--out", out, "--quiet", "--fights", FIGHTS,
    ];
    args.extend_from_slice(extra);
    sb.run(&args)
}

/// `skirmish merge` of both shards [`shards`] wrote in `out/`, into `into`.
fn merge_both(sb: &Sandbox, into: &str) -> Output {
    sb.run(&[
        "merge",
        "out/small.shard-1-of-2.journal",
        "out/small.shard-2-of-2.journal",
        "--out",
        into,
    ])
}

/// The first line of the journal at `path` starting with `prefix`, without
/// its checksum.
fn line_body(path: &Path, prefix: &str) -> String {
    let text = fs::read_to_string(path).unwrap();
    let line = text.lines().find(|l| l.starts_with(prefix)).unwrap();
    line.rsplit_once(" #").unwrap().0.to_owned()
}

/// FNV-1a, 32 bits: the journal's line checksum.
fn checksum(text: &str) -> u32 {
    text.bytes().fold(0x811c_9dc5u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// Replaces the journal line whose body starts with `prefix` by `body`,
/// sealed with a valid checksum: a line that reads as skirmish's own.
fn reseal(path: &Path, prefix: &str, body: &str) {
    let text = fs::read_to_string(path).expect("read journal");
    let mut found = false;
    let lines: Vec<String> = text
        .lines()
        .map(|l| {
            if !found && l.starts_with(prefix) {
                found = true;
                format!("{body} #{:08x}", checksum(body))
            } else {
                l.to_owned()
            }
        })
        .collect();
    assert!(found, "no line `{prefix}` in {}", path.display());
    fs::write(path, lines.join("\n") + "\n").expect("write journal");
}

/// The 1-based number of the first line of the file starting with `prefix`.
fn line_number(path: &Path, prefix: &str) -> usize {
    fs::read_to_string(path)
        .expect("read journal")
        .lines()
        .position(|l| l.starts_with(prefix))
        .expect("line present")
        + 1
}

fn assert_bad_input(o: &Output, needles: &[&str]) {
    assert_eq!(o.code, 2, "{o:#?}");
    assert!(!o.stderr.contains("panicked"), "{o:#?}");
    for n in needles {
        assert!(o.stderr.contains(n), "stderr lacks {n:?}: {o:#?}");
    }
}

// ---------------------------------------------------------------------------
// merge: every count checked against what the header promises
// ---------------------------------------------------------------------------

#[test]
fn merge_refuses_a_finished_shard_with_a_batch_line_removed() {
    let sb = Sandbox::new();
    shards(&sb, "out", ["small.toml", "small.toml"]);
    let journal = sb.join("out/small.shard-1-of-2.journal");
    // Batch 7 of cell 2, gone; the journal still says it is finished.
    let text = fs::read_to_string(&journal).unwrap();
    let kept: Vec<&str> = text.lines().filter(|l| !l.starts_with("B 2 7 ")).collect();
    assert_eq!(kept.len() + 1, text.lines().count());
    fs::write(&journal, kept.join("\n") + "\n").unwrap();
    let o = merge_both(&sb, "merged");
    assert_bad_input(
        &o,
        &[
            "small.shard-1-of-2.journal",
            "shard 1/2",
            "cell 2",
            "batch 7 missing",
        ],
    );
    assert!(!sb.join("merged/small").exists(), "no report: {o:#?}");
    // `run` fights the gap again; then the merge is whole.
    let o = run_shard(&sb, "small.toml", "1/2", "out", &[]);
    assert_eq!(o.code, 0, "{o:#?}");
    let o = merge_both(&sb, "merged");
    assert_eq!(o.code, 0, "{o:#?}");
    assert!(o.stdout.contains("80,000 fights"), "{o:#?}");
}

#[test]
fn merge_refuses_a_shard_whose_counts_fall_short_of_its_header() {
    let sb = Sandbox::new();
    shards(&sb, "out", ["small.toml", "small.toml"]);
    let journal = sb.join("out/small.shard-2-of-2.journal");
    // Batch 20 of cell 1 says it fought 1 fight instead of 625: every batch
    // is there, but the fights are not.
    let body = line_body(&journal, "B 1 20 ");
    let mut words: Vec<&str> = body.split(' ').collect();
    assert_eq!(words[3], "625");
    words[3] = "1";
    reseal(&journal, "B 1 20 ", &words.join(" "));
    let o = merge_both(&sb, "merged");
    assert_bad_input(
        &o,
        &[
            "small.shard-2-of-2.journal",
            "cell 1",
            "9376 fights",
            "10000",
        ],
    );
    assert!(!sb.join("merged").join("small").exists());
}

// ---------------------------------------------------------------------------
// journals are untrusted input: read line by line, counts bounded first
// ---------------------------------------------------------------------------

#[test]
fn a_header_count_that_lies_is_an_error_on_its_line_not_a_panic() {
    let sb = Sandbox::new();
    shards(&sb, "out", ["small.toml", "small.toml"]);
    let journal = sb.join("out/small.shard-1-of-2.journal");
    let original = fs::read(&journal).unwrap();
    let lines_at = line_number(&journal, "lines ");
    for lie in ["18446744073709551615", "1000000000", "32"] {
        fs::write(&journal, &original).unwrap();
        reseal(&journal, "lines ", &format!("lines {lie}"));
        let started = Instant::now();
        let o = sb.run(&["merge", "out/small.shard-1-of-2.journal", "--out", "m"]);
        // `32` (one more than the text has) reads the first record as text.
        let at = if lie == "32" {
            format!("line {}", lines_at + 32)
        } else {
            format!("line {lines_at}")
        };
        assert_bad_input(&o, &["small.shard-1-of-2.journal", &at, "damaged"]);
        assert!(started.elapsed() < Duration::from_secs(10), "{lie}");
    }
    // Every header line is named by its own number, not `line 1`.
    fs::write(&journal, &original).unwrap();
    reseal(&journal, "seed ", "seed x7");
    let o = sb.run(&["merge", "out/small.shard-1-of-2.journal", "--out", "m"]);
    let at = format!("line {}", line_number(&journal, "seed "));
    assert_bad_input(&o, &[&at, "`x7` is not a number"]);
    reseal(&journal, "seed ", "seed 7");
    reseal(&journal, "shape ", "shape 4294967295 2 8");
    let o = sb.run(&["merge", "out/small.shard-1-of-2.journal", "--out", "m"]);
    let at = format!("line {}", line_number(&journal, "shape "));
    assert_bad_input(&o, &[&at, "cells 4294967295"]);
}

#[test]
fn a_line_naming_a_batch_beyond_the_work_is_refused_before_it_is_sized() {
    let sb = Sandbox::new();
    shards(&sb, "out", ["small.toml", "small.toml"]);
    let journal = sb.join("out/small.shard-1-of-2.journal");
    // The per-group table is sized by the largest group a line names.
    let body = line_body(&journal, "B 3 5 ");
    let forged = body.replacen("B 3 5 ", "B 3 1000000000000 ", 1);
    reseal(&journal, "B 3 5 ", &forged);
    let at = format!("line {}", line_number(&journal, "B 3 1000000000000 "));
    let started = Instant::now();
    let o = merge_both(&sb, "m");
    assert_bad_input(&o, &[&at, "batch 1000000000000", "beyond the work"]);
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn merge_refuses_what_is_not_a_journal_after_reading_its_first_bytes() {
    let sb = Sandbox::new();
    shards(&sb, "out", ["small.toml", "small.toml"]);
    // /dev/zero never ends: reading it whole grew to 24 GB.
    let started = Instant::now();
    let o = sb.run(&[
        "merge",
        "out/small.shard-1-of-2.journal",
        "/dev/zero",
        "--out",
        "m",
    ]);
    assert_bad_input(&o, &["/dev/zero", "is not a skirmish journal"]);
    assert!(started.elapsed() < Duration::from_secs(10));
    // A journal line with no end (no newline within a megabyte).
    let journal = sb.join("out/small.shard-2-of-2.journal");
    let mut bytes = fs::read(&journal).unwrap();
    bytes.extend(std::iter::repeat_n(b'7', 3 << 20));
    bytes.push(b'\n');
    fs::write(&journal, bytes).unwrap();
    let o = sb.run(&["merge", "out/small.shard-2-of-2.journal", "--out", "m"]);
    assert_bad_input(&o, &["small.shard-2-of-2.journal", "longer than"]);
}

#[test]
fn fresh_discards_a_journal_with_bytes_that_are_not_text() {
    let sb = Sandbox::new();
    shards(&sb, "out", ["small.toml", "small.toml"]);
    let journal = sb.join("out/small.shard-1-of-2.journal");
    let mut bytes = fs::read(&journal).unwrap();
    let at = fs::read_to_string(&journal).unwrap().lines().count() + 1;
    bytes.extend_from_slice(b"B \xff\xfe 0\n");
    fs::write(&journal, bytes).unwrap();
    let o = run_shard(&sb, "small.toml", "1/2", "out", &[]);
    assert_bad_input(&o, &[&format!("line {at}"), "not UTF-8", "--fresh"]);
    let o = run_shard(&sb, "small.toml", "1/2", "out", &["--fresh"]);
    assert_eq!(o.code, 0, "{o:#?}");
    assert!(fs::read_to_string(&journal).is_ok(), "rewritten as text");
}

// ---------------------------------------------------------------------------
// a run is its scenario's content, not the spelling of its path
// ---------------------------------------------------------------------------

#[test]
fn shards_started_with_different_spellings_of_the_path_merge() {
    let sb = Sandbox::new();
    let absolute = sb.join("small.toml").display().to_string();
    shards(&sb, "out", ["./small.toml", &absolute]);
    let o = merge_both(&sb, "merged");
    assert_eq!(o.code, 0, "{o:#?}");
    // And a shard resumed by another spelling is the same work.
    let o = run_shard(&sb, "small.toml", "2/2", "out", &[]);
    assert_eq!(o.code, 0, "{o:#?}");
    assert!(o.stderr.contains("holds the finished work"), "{o:#?}");
}

// ---------------------------------------------------------------------------
// nothing skirmish did not write is written, replaced or deleted
// ---------------------------------------------------------------------------

#[test]
fn a_name_added_to_the_manifest_is_never_deleted() {
    let sb = Sandbox::new();
    sb.run_small("out", &[]);
    sb.write("out/small/notes.md", "my notes\n");
    let manifest = sb.join("out/small/.skirmish-report");
    let mut text = fs::read_to_string(&manifest).unwrap();
    text.push_str("file = notes.md\n");
    fs::write(&manifest, text).unwrap();
    sb.run_small("out", &[]);
    assert_eq!(
        fs::read_to_string(sb.join("out/small/notes.md")).unwrap(),
        "my notes\n"
    );
    assert!(!fs::read_to_string(&manifest).unwrap().contains("notes.md"));
}

#[test]
fn a_planted_link_never_makes_a_run_write_outside_the_folder() {
    use std::os::unix::fs::symlink;
    let sb = Sandbox::new();
    sb.write("small.toml", SMALL);
    sb.write("victim.txt", "precious\n");
    sb.mkdir("out");
    for (planted, target) in [
        ("out/small.journal.lock", "victim.txt"),
        ("out/small.journal.lock", "created.txt"),
        ("out/small.journal", "victim.txt"),
    ] {
        symlink(sb.join(target), sb.join(planted)).unwrap();
        let o = sb.run(&["run", "small.toml", "--out", "out", "--quiet"]);
        assert_bad_input(&o, &[planted, "symbolic link"]);
        assert_eq!(
            fs::read_to_string(sb.join("victim.txt")).unwrap(),
            "precious\n"
        );
        assert!(!sb.join("created.txt").exists(), "{planted} -> {target}");
        assert!(!sb.join("out/small").exists());
        fs::remove_file(sb.join(planted)).unwrap();
    }
}

// ---------------------------------------------------------------------------
// a closed stdout ends the output, not the work
// ---------------------------------------------------------------------------

/// Runs `skirmish args` in the sandbox with stdout a pipe whose reading end
/// is already closed (`... | head -0`).
fn run_into_closed_pipe(sb: &Sandbox, args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(args)
        .current_dir(sb.path())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("spawn skirmish");
    Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::new(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn a_closed_stdout_ends_quietly_and_every_scenario_still_runs() {
    let sb = Sandbox::new();
    sb.write("small.toml", SMALL);
    sb.write(
        "other.toml",
        &SMALL.replace("name = \"small\"", "name = \"other\""),
    );
    let o = run_into_closed_pipe(
        &sb,
        &["run", "small.toml", "other.toml", "--out", "out", "--quiet"],
    );
    assert!(o.code == 0 || o.code == 141, "{o:#?}");
    assert!(!o.stderr.contains("panicked"), "{o:#?}");
    assert!(sb.join("out/small/cells.csv").exists(), "{o:#?}");
    assert!(sb.join("out/other/cells.csv").exists(), "{o:#?}");
    assert_eq!(common::entries(&sb.join("out")), ["other", "small"]);
    // --check and diff print their answers: the same.
    let o = run_into_closed_pipe(&sb, &["run", "small.toml", "--out", "out", "--check", "-q"]);
    assert!(
        (o.code == 0 || o.code == 141) && !o.stderr.contains("panicked"),
        "{o:#?}"
    );
    let o = run_into_closed_pipe(&sb, &["diff", "out/small", "out/small", "--out", "d"]);
    assert!(
        (o.code == 0 || o.code == 141) && !o.stderr.contains("panicked"),
        "{o:#?}"
    );
    assert!(sb.join("d/small/diff.md").exists(), "{o:#?}");
    let o = run_into_closed_pipe(
        &sb,
        &[
            "sensitivity",
            "small.toml",
            "--fights",
            "2000",
            "--out",
            "s",
            "-q",
        ],
    );
    assert!(
        (o.code == 0 || o.code == 141) && !o.stderr.contains("panicked"),
        "{o:#?}"
    );
    assert!(
        sb.join("s/small-sensitivity/sensitivity.csv").exists(),
        "{o:#?}"
    );
}

// ---------------------------------------------------------------------------
// runs and merges into one folder exclude each other
// ---------------------------------------------------------------------------

#[test]
fn merge_takes_the_lock_a_run_into_the_same_folder_holds() {
    let sb = Sandbox::new();
    shards(&sb, "shards", ["small.toml", "small.toml"]);
    // A long run into `out` holds out/small.journal.lock while it works.
    let mut child = Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args([
            "run",
            "small.toml",
            "--out",
            "out",
            "--quiet",
            "--threads",
            "1",
        ])
        .args(["--fights", "40960000"])
        .current_dir(sb.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let journal = sb.join("out/small.journal");
    let started = Instant::now();
    while !journal.exists() {
        assert!(started.elapsed() < Duration::from_secs(60), "no journal");
        std::thread::sleep(Duration::from_millis(20));
    }
    let o = sb.run(&[
        "merge",
        "shards/small.shard-1-of-2.journal",
        "shards/small.shard-2-of-2.journal",
        "--out",
        "out",
    ]);
    child.kill().expect("kill");
    child.wait().expect("wait");
    assert_bad_input(&o, &["being written by another skirmish"]);
    assert!(!sb.join("out/small").exists(), "{o:#?}");
}

// ---------------------------------------------------------------------------
// a multi-file run resumes without fighting finished scenarios again
// ---------------------------------------------------------------------------

#[test]
fn resuming_a_multi_file_run_does_not_fight_finished_scenarios_again() {
    let sb = Sandbox::new();
    sb.write("small.toml", SMALL);
    let long = SMALL.replace("name = \"small\"", "name = \"long\"");
    sb.write(
        "long.toml",
        &long.replace("fights = 2000", "fights = 40960000"),
    );
    let args = [
        "run",
        "small.toml",
        "long.toml",
        "--out",
        "out",
        "--quiet",
        "--threads",
        "1",
    ];
    let mut child = Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(args)
        .current_dir(sb.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    // Killed while the second scenario runs, after the first's report.
    let started = Instant::now();
    while !sb.join("out/long.journal").exists() {
        assert!(started.elapsed() < Duration::from_secs(60), "no journal");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().expect("kill -9");
    child.wait().expect("wait");
    let first = read_report(&sb.join("out/small"));
    assert!(first.contains_key("cells.csv"));
    // The finished scenario alone (the same work): found in its journal.
    let o = sb.run(&[
        "run",
        "small.toml",
        "--out",
        "out",
        "--quiet",
        "--threads",
        "1",
    ]);
    assert_eq!(o.code, 0, "{o:#?}");
    assert!(
        o.stderr
            .contains("small: out/small.journal holds the finished work"),
        "the finished scenario was fought again: {o:#?}"
    );
    assert!(o.stdout.contains(", 0 fights in"), "{o:#?}");
    assert_eq!(read_report(&sb.join("out/small")), first);
    // Once its report is written, the journal goes.
    assert!(!sb.join("out/small.journal").exists());
}

// ---------------------------------------------------------------------------
// settings that would fail later, or be ignored, are refused at once
// ---------------------------------------------------------------------------

#[test]
fn a_name_too_long_for_a_file_name_is_refused_at_load() {
    let sb = Sandbox::new();
    let name = "n".repeat(250);
    sb.write(
        "long.toml",
        &SMALL.replace("name = \"small\"", &format!("name = \"{name}\"")),
    );
    let o = sb.run(&["validate", "long.toml"]);
    assert_bad_input(&o, &["long.toml", "name", "at most 200", "found 250"]);
}

#[test]
fn a_matrix_value_given_twice_is_refused() {
    let sb = Sandbox::new();
    let text = SMALL.replace("= [8, 12]", "= [8, 8]");
    sb.write("twice.toml", &text);
    let o = sb.run(&["validate", "twice.toml"]);
    let line = common::line_of(&text, "= [8, 8]");
    assert_bad_input(&o, &[&format!("twice.toml:{line}:"), "`8` is given twice"]);
}

#[test]
fn max_fights_without_a_precision_target_is_refused() {
    let sb = Sandbox::new();
    sb.write("small.toml", SMALL);
    let o = sb.run(&["run", "small.toml", "--max-fights", "50000", "--out", "out"]);
    assert_bad_input(&o, &["--max-fights", "precision"]);
    assert!(!sb.join("out").exists());
    sb.write(
        "capped.toml",
        &SMALL.replace("seed = 7\n", "seed = 7\nmax_fights = 50000\n"),
    );
    let o = sb.run(&["validate", "capped.toml"]);
    assert_bad_input(&o, &["capped.toml", "max_fights", "precision"]);
}

#[test]
fn an_unwritable_export_is_refused_before_simulating() {
    let sb = Sandbox::new();
    sb.write("small.toml", SMALL);
    // /proc takes no new files, even from root.
    let o = sb.run(&[
        "run",
        "small.toml",
        "--out",
        "out",
        "--quiet",
        "--export-batches",
        "/proc/batches.parquet",
    ]);
    assert_bad_input(
        &o,
        &["--export-batches", "/proc/batches.parquet", "cannot write"],
    );
    assert!(!sb.join("out").exists(), "nothing simulated or written");
}

#[test]
fn an_export_killed_midway_leaves_no_temporary_for_good() {
    let sb = Sandbox::new();
    // What a kill during an export leaves (pid beyond the kernel's
    // maximum: surely gone), and a file of the same pattern that is not.
    sb.write("b.parquet.tmp-4194999", "PAR1 cut short");
    sb.write("b.parquet.tmp-4194998", "my data");
    sb.run_small("out", &["--export-batches", "b.parquet"]);
    assert!(sb.join("b.parquet").exists());
    assert!(!sb.join("b.parquet.tmp-4194999").exists());
    assert_eq!(
        fs::read_to_string(sb.join("b.parquet.tmp-4194998")).unwrap(),
        "my data"
    );
}

#[test]
fn error_messages_say_their_cause_once() {
    let sb = Sandbox::new();
    let o = sb.run(&["merge", "absent.journal", "--out", "m"]);
    assert_eq!(o.code, 2, "{o:#?}");
    assert_eq!(o.stderr.matches("os error 2").count(), 1, "{o:#?}");
    // A batch recorded twice.
    shards(&sb, "out", ["small.toml", "small.toml"]);
    let journal = sb.join("out/small.shard-1-of-2.journal");
    let text = fs::read_to_string(&journal).unwrap();
    let line = text.lines().find(|l| l.starts_with("B 0 7 ")).unwrap();
    fs::write(&journal, format!("{text}{line}\n")).unwrap();
    let o = sb.run(&["merge", "out/small.shard-1-of-2.journal", "--out", "m"]);
    let at = format!("line {}", text.lines().count() + 1);
    assert_bad_input(&o, &[&at, "batch 7 of cell 0 is recorded twice"]);
    assert_eq!(o.stderr.matches("recorded twice").count(), 1, "{o:#?}");
}
