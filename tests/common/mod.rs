//! Helpers for the CLI integration tests: a scratch folder to write scenarios
//! into and run the `skirmish` binary in, and small readers for its output.

#![allow(dead_code)] // each test crate that includes this module uses a subset

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use tempfile::TempDir;

/// The 2×2 fixture scenario (`name = "small"`, crit rule × hit points).
pub const SMALL: &str = include_str!("../fixtures/small.toml");

/// The files every report folder holds, sorted by name: the manifest
/// recording what skirmish wrote, then the report.
pub const REPORT_FILES: [&str; 8] = [
    ".skirmish-report",
    "cells.csv",
    "fights.md",
    "plays.csv",
    "rounds.csv",
    "rounds.png",
    "summary.md",
    "win_rate.png",
];

/// What one invocation of the binary did.
#[derive(Debug)]
pub struct Output {
    /// The exit code; -1 if the process was killed by a signal.
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// A temporary folder that is the working directory of every run, so that
/// file names in messages are the short relative names the test passed and
/// nothing can land in the repository (not even the default `reports/`).
pub struct Sandbox {
    dir: TempDir,
}

impl Sandbox {
    /// Runs `git args` in the sandbox (a throwaway identity, no signing);
    /// panics if git fails.
    pub fn git(&self, args: &[&str]) {
        let st = Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@t"])
            .args(["-c", "commit.gpgsign=false"])
            .args(args)
            .current_dir(self.path())
            .output()
            .expect("git runs");
        assert!(st.status.success(), "git {args:?}: {st:?}");
    }

    pub fn new() -> Self {
        Sandbox {
            dir: tempfile::Builder::new()
                .prefix("skirmish-cli-")
                .tempdir()
                .expect("create a temporary folder"),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// `rel` inside the sandbox.
    pub fn join(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// Writes `text` to `rel` (creating parent folders) and returns `rel`,
    /// ready to pass as an argument.
    pub fn write<'a>(&self, rel: &'a str, text: &str) -> &'a str {
        let path = self.join(rel);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).expect("create fixture folder");
        }
        fs::write(&path, text).expect("write fixture");
        rel
    }

    /// Creates an empty folder `rel` and returns `rel`.
    pub fn mkdir<'a>(&self, rel: &'a str) -> &'a str {
        fs::create_dir_all(self.join(rel)).expect("create folder");
        rel
    }

    /// Runs `skirmish ARGS...` with the sandbox as working directory.
    pub fn run(&self, args: &[&str]) -> Output {
        skirmish_in(self.path(), args)
    }

    /// Writes the `small` fixture and runs it into `out` (quietly, with
    /// `extra` arguments); asserts success.
    pub fn run_small(&self, out: &str, extra: &[&str]) -> Output {
        let file = self.write("small.toml", SMALL);
        let mut args = vec!["run", file, "--out", out, "--quiet"];
        args.extend_from_slice(extra);
        let o = self.run(&args);
        assert_eq!(o.code, 0, "run {extra:?} failed: {o:#?}");
        o
    }

    /// A git repository holding the `small` fixture's report, committed
    /// at `reports/small` (for `diff --rev`).
    pub fn commit_small_report(&self) {
        self.git(&["init", "-q"]);
        self.run_small("reports", &[]);
        self.git(&["add", "reports"]);
        self.git(&["commit", "-qm", "report"]);
    }

    /// Sorted names of the entries of folder `rel` (`""` for the sandbox).
    pub fn entries(&self, rel: &str) -> Vec<String> {
        entries(&self.join(rel))
    }
}

/// Runs the binary in `cwd` and captures everything it says.
pub fn skirmish_in(cwd: &Path, args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(args)
        .current_dir(cwd)
        .env_remove("RAYON_NUM_THREADS")
        .output()
        .expect("spawn the skirmish binary");
    Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Sorted names of the entries of `dir`; empty if it does not exist.
pub fn entries(dir: &Path) -> Vec<String> {
    let Ok(read) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = read
        .map(|e| {
            e.expect("read folder entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

/// Every file of a report folder, by name, as bytes.
pub fn read_report(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    entries(dir)
        .into_iter()
        .map(|name| {
            let bytes = fs::read(dir.join(&name)).expect("read report file");
            (name, bytes)
        })
        .collect()
}

/// `base` with every `(from, to)` replacement applied in turn. Panics if a
/// `from` does not occur, so that a change to the fixture cannot silently
/// turn a bad-input case into a valid scenario.
pub fn edit(base: &str, edits: &[(&str, &str)]) -> String {
    let mut text = base.to_owned();
    for (from, to) in edits {
        assert!(
            text.contains(from),
            "fixture edit: `{from}` does not occur in the scenario"
        );
        text = text.replacen(from, to, 1);
    }
    text
}

/// The 1-based number of the first line of `text` containing `needle`.
pub fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|line| line.contains(needle))
        .unwrap_or_else(|| panic!("`{needle}` does not occur in the scenario"))
        + 1
}

/// A CSV file as a header and rows of fields (the reports quote nothing).
pub fn parse_csv(text: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut lines = text.lines();
    let header = lines
        .next()
        .expect("CSV has a header")
        .split(',')
        .map(str::to_owned)
        .collect();
    let rows = lines
        .map(|l| l.split(',').map(str::to_owned).collect())
        .collect();
    (header, rows)
}

/// Checks one bad-input invocation: exit 2, `expect` on stderr, and nothing
/// in the sandbox but `files` and an empty `out`. Returns the output and what
/// went wrong.
pub fn check_rejected(
    sb: &Sandbox,
    args: &[&str],
    files: &[&str],
    expect: &[&str],
) -> (Output, Vec<String>) {
    let o = sb.run(args);
    let mut problems = Vec::new();
    if o.code != 2 {
        problems.push(format!("exit code {} instead of 2", o.code));
    }
    if !o.stderr.starts_with("error: ") {
        problems.push("stderr does not start with `error: `".into());
    }
    for s in expect {
        if !o.stderr.contains(s) {
            problems.push(format!("stderr lacks {s:?}"));
        }
    }
    if o.stderr.contains("panicked") {
        problems.push("panicked".into());
    }
    if !sb.entries("out").is_empty() {
        problems.push(format!("wrote into --out: {:?}", sb.entries("out")));
    }
    let mut expected: Vec<String> = files
        .iter()
        .map(|f| f.split('/').next().unwrap().to_owned())
        .collect();
    expected.push("out".into());
    expected.sort();
    expected.dedup();
    if sb.entries("") != expected {
        problems.push(format!("sandbox holds {:?}", sb.entries("")));
    }
    if !problems.is_empty() {
        problems.push(format!(
            "skirmish {args:?}\nstdout: {}\nstderr: {}",
            o.stdout, o.stderr
        ));
    }
    (o, problems)
}
