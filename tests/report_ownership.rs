//! "Nothing the user wrote is ever lost" (issue 17, section 1): a report
//! folder is skirmish's only when its manifest (`.skirmish-report`) says so;
//! skirmish replaces only the files it wrote, never touches a folder that is
//! not its report, never writes into or over its own input, and finds every
//! problem with an output location before simulating.
//!
//! Every case compares the user's files byte for byte before and after.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use common::{edit, Output, Sandbox, REPORT_FILES, SMALL};

const MANIFEST: &str = ".skirmish-report";

/// Every file under `dir`, recursively, by relative path, as bytes; folders
/// appear as `name/` with no bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Option<Vec<u8>>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Option<Vec<u8>>>) {
        for entry in fs::read_dir(dir).expect("read folder") {
            let path = entry.expect("entry").path();
            let rel = path
                .strip_prefix(root)
                .expect("inside")
                .to_string_lossy()
                .into_owned();
            if path.is_dir() {
                out.insert(format!("{rel}/"), None);
                walk(root, &path, out);
            } else {
                out.insert(rel, Some(fs::read(&path).expect("read file")));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// `skirmish ARGS...` in `sb`, with `--quiet` for the commands that have a
/// progress bar.
fn run(sb: &Sandbox, args: &[&str]) -> Output {
    let mut argv = args.to_vec();
    if args[0] != "diff" {
        argv.push("--quiet");
    }
    sb.run(&argv)
}

/// Asserts `o` is bad input (exit 2) whose message contains every `needle`.
fn assert_refused(o: &Output, needles: &[&str]) {
    assert_eq!(o.code, 2, "expected exit 2: {o:#?}");
    for needle in needles {
        assert!(o.stderr.contains(needle), "stderr lacks `{needle}`: {o:#?}");
    }
    assert!(!o.stderr.contains("panicked"), "{o:#?}");
}

// ---------------------------------------------------------------------------
// the designer's files in a report folder
// ---------------------------------------------------------------------------

#[test]
fn a_rerun_keeps_the_designers_files_byte_for_byte() {
    let sb = Sandbox::new();
    sb.run_small("out", &[]);
    // Files a report could hold by their extension, and some it never does.
    sb.write("out/small/notes.md", "# Why cover matters\n");
    sb.write("out/small/sketch.png", "\u{89}PNG not really");
    sb.write("out/small/mine.csv", "a,b\n1,2\n");
    sb.write("out/small/drafts/idea.md", "more\n");
    sb.write("out/small/.gitattributes", "*.png binary\n");
    let mine = |s: &BTreeMap<String, Option<Vec<u8>>>| {
        s.iter()
            .filter(|(k, _)| !REPORT_FILES.contains(&k.as_str()) && !k.starts_with(".skirmish-tmp"))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect::<BTreeMap<_, _>>()
    };
    let before = snapshot(&sb.join("out/small"));

    sb.run_small("out", &["--seed", "8"]);
    let after = snapshot(&sb.join("out/small"));
    assert_eq!(mine(&after), mine(&before), "the designer's files changed");
    assert_ne!(
        after["cells.csv"], before["cells.csv"],
        "the report itself was not replaced"
    );
    assert_eq!(after[MANIFEST], before[MANIFEST], "manifest is byte-stable");
    assert_eq!(sb.entries("out"), ["small"], "nothing left next to it");

    // --check names them, allowed: they are not differences.
    let o = run(
        &sb,
        &[
            "run",
            "small.toml",
            "--out",
            "out",
            "--check",
            "--seed",
            "8",
        ],
    );
    assert_eq!(o.code, 0, "{o:#?}");
    for name in [
        "notes.md",
        "sketch.png",
        "mine.csv",
        "drafts",
        ".gitattributes",
    ] {
        assert!(
            o.stdout.contains(name),
            "--check does not name {name}: {o:#?}"
        );
    }
    assert_eq!(snapshot(&sb.join("out/small")), after, "--check wrote");
}

#[test]
fn a_file_skirmish_would_write_but_did_not_is_never_overwritten() {
    let sb = Sandbox::new();
    sb.run_small("out", &[]);
    // The designer's own summary.md, in a folder whose manifest does not
    // list one (as if a newer skirmish added a file the designer already had).
    let manifest = fs::read_to_string(sb.join("out/small").join(MANIFEST)).unwrap();
    sb.write(
        "out/small/.skirmish-report",
        &edit(&manifest, &[("file = summary.md\n", "")]),
    );
    sb.write("out/small/summary.md", "my own summary\n");
    let before = snapshot(&sb.join("out/small"));
    let o = run(&sb, &["run", "small.toml", "--out", "out"]);
    assert_refused(&o, &["out/small", "`summary.md`", "did not write"]);
    assert_eq!(snapshot(&sb.join("out/small")), before);
}

// ---------------------------------------------------------------------------
// folders that are not skirmish's
// ---------------------------------------------------------------------------

#[test]
fn a_folder_named_like_the_scenario_is_never_replaced() {
    let sb = Sandbox::new();
    sb.write("small.toml", SMALL);
    // The designer's own folder, holding only .md/.png/.csv files.
    sb.write("out/small/plan.md", "plan\n");
    sb.write("out/small/map.png", "map");
    sb.write("out/small/cells.csv", "my own table\n");
    let before = snapshot(&sb.join("out"));
    let o = run(&sb, &["run", "small.toml", "--out", "out"]);
    assert_refused(
        &o,
        &["out/small", "`plan.md`", "not a folder skirmish wrote"],
    );
    assert_eq!(snapshot(&sb.join("out")), before, "the folder was touched");
}

#[test]
fn output_problems_are_found_before_anything_is_simulated() {
    let sb = Sandbox::new();
    sb.write("small.toml", SMALL);
    sb.write(
        "other.toml",
        &edit(SMALL, &[("name = \"small\"", "name = \"other\"")]),
    );
    sb.write("out/other/notes.md", "mine\n");
    let before = snapshot(&sb.join("out"));
    // The first scenario's folder is fine, the second's is not: the first
    // must not be simulated and written either.
    let o = run(&sb, &["run", "small.toml", "other.toml", "--out", "out"]);
    assert_refused(&o, &["out/other", "`notes.md`"]);
    assert!(o.stdout.is_empty(), "something ran: {o:#?}");
    assert_eq!(snapshot(&sb.join("out")), before);
}

#[test]
fn an_old_report_without_a_manifest_is_adopted_only_when_it_holds_only_report_files() {
    let sb = Sandbox::new();
    sb.run_small("out", &[]);
    fs::remove_file(sb.join("out/small").join(MANIFEST)).unwrap();
    // --check: the missing manifest is a difference.
    let o = run(&sb, &["run", "small.toml", "--out", "out", "--check"]);
    assert_eq!(o.code, 1, "{o:#?}");
    assert!(o.stdout.contains(MANIFEST), "{o:#?}");
    // Only report files: adopted, and given its manifest.
    sb.run_small("out", &[]);
    assert_eq!(sb.entries("out/small"), REPORT_FILES);

    // Without a manifest, a foreign file makes it somebody else's folder:
    // --check says so (today's notes.txt no longer passes unnoticed) and
    // run refuses.
    fs::remove_file(sb.join("out/small").join(MANIFEST)).unwrap();
    sb.write("out/small/notes.txt", "mine\n");
    let before = snapshot(&sb.join("out/small"));
    let o = run(&sb, &["run", "small.toml", "--out", "out", "--check"]);
    assert_eq!(o.code, 1, "{o:#?}");
    assert!(
        o.stdout.contains("notes.txt: not written by skirmish"),
        "{o:#?}"
    );
    let o = run(&sb, &["run", "small.toml", "--out", "out"]);
    assert_refused(&o, &["out/small", "`notes.txt`"]);
    assert_eq!(snapshot(&sb.join("out/small")), before);
}

#[test]
fn a_report_of_another_kind_is_never_written_over() {
    let sb = Sandbox::new();
    sb.run_small("a", &[]);
    sb.run_small("b", &[]);
    sb.run_small("reports", &[]);
    let before = snapshot(sb.path());
    // reports/small is a run report, not a diff, and not an input here.
    let o = run(&sb, &["diff", "a/small", "b/small", "--out", "reports"]);
    assert_refused(&o, &["reports/small", "scenario report", "not a diff"]);
    assert_eq!(snapshot(sb.path()), before);
}

#[test]
fn a_report_is_never_written_inside_another() {
    let sb = Sandbox::new();
    sb.run_small("out", &[]);
    let before = snapshot(sb.path());
    let o = run(&sb, &["run", "small.toml", "--out", "out/small"]);
    assert_refused(&o, &["out/small/small", "inside out/small"]);
    assert_eq!(snapshot(sb.path()), before);
}

#[test]
fn an_output_under_a_file_is_refused() {
    let sb = Sandbox::new();
    sb.write("small.toml", SMALL);
    sb.write("notes.txt", "mine\n");
    let before = snapshot(sb.path());
    let o = run(&sb, &["run", "small.toml", "--out", "notes.txt"]);
    assert_refused(&o, &["notes.txt/small", "notes.txt is a file"]);
    assert_eq!(snapshot(sb.path()), before);
}

#[test]
fn an_unwritable_output_is_refused_before_simulating() {
    use std::os::unix::fs::PermissionsExt;
    let sb = Sandbox::new();
    sb.write("small.toml", SMALL);
    let locked = sb.mkdir("locked");
    fs::set_permissions(sb.join(locked), fs::Permissions::from_mode(0o555)).unwrap();
    // Where permissions do not bind (root, as in CI), a read-only file
    // system stands in for the read-only folder: sysfs refuses new entries
    // to everyone.
    if fs::write(sb.join("locked/probe"), "").is_ok() {
        fs::remove_file(sb.join("locked/probe")).unwrap();
        let o = run(&sb, &["run", "small.toml", "--out", "/sys/skirmish-out"]);
        assert_refused(&o, &["cannot write into", "/sys"]);
        assert!(o.stdout.is_empty(), "{o:#?}");
        assert!(!Path::new("/sys/skirmish-out").exists());
        return;
    }
    let o = run(&sb, &["run", "small.toml", "--out", "locked/deeper"]);
    assert_refused(&o, &["cannot write into", "locked"]);
    assert!(o.stdout.is_empty(), "{o:#?}");
    fs::set_permissions(sb.join(locked), fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(sb.entries("locked"), Vec::<String>::new());
}

// ---------------------------------------------------------------------------
// no command writes into or over its own input
// ---------------------------------------------------------------------------

#[test]
fn run_never_writes_into_the_folder_holding_its_scenario() {
    let sb = Sandbox::new();
    sb.write("small/small.toml", SMALL);
    let before = snapshot(sb.path());
    // --out . puts the report in ./small, where the scenario file is.
    let o = run(&sb, &["run", "small/small.toml", "--out", "."]);
    assert_refused(&o, &["./small", "holds small/small.toml"]);
    assert_eq!(snapshot(sb.path()), before);

    // Even a folder skirmish owns: the scenario inside it stays unwritten.
    sb.run_small("out", &[]);
    sb.write("out/small/small.toml", SMALL);
    let before = snapshot(sb.path());
    let o = run(&sb, &["run", "out/small/small.toml", "--out", "out"]);
    assert_refused(&o, &["out/small", "holds out/small/small.toml"]);
    assert_eq!(snapshot(sb.path()), before);
}

#[test]
fn diff_never_writes_over_a_report_it_compares() {
    let sb = Sandbox::new();
    sb.run_small("a", &[]);
    sb.run_small("b", &[]);
    let before = snapshot(sb.path());
    for (args, folder) in [
        (["diff", "a/small", "b/small", "--out", "b"], "b/small"),
        (["diff", "a/small", "b/small", "--out", "a"], "a/small"),
        (
            ["diff", "a/small", "b/small", "--out", "a/small"],
            "a/small/small",
        ),
    ] {
        let o = run(&sb, &args);
        assert_refused(&o, &[folder]);
        assert_eq!(snapshot(sb.path()), before, "{args:?} touched something");
    }
}

#[test]
fn diff_against_a_revision_never_writes_over_the_report() {
    let sb = Sandbox::new();
    sb.commit_small_report();
    let before = snapshot(&sb.join("reports"));
    // The case: this used to delete the report it compares.
    let o = run(
        &sb,
        &["diff", "reports/small", "--rev", "HEAD", "--out", "reports"],
    );
    assert_refused(&o, &["reports/small", "which this command reads"]);
    assert_eq!(snapshot(&sb.join("reports")), before);
}

#[test]
fn balance_never_writes_into_the_scenarios_report() {
    let sb = Sandbox::new();
    sb.run_small("reports", &[]);
    let before = snapshot(sb.path());
    let o = run(
        &sb,
        &[
            "balance",
            "small.toml",
            "--axis",
            "units.brawler.hp",
            "--side-copy",
            "attackers",
            "--from",
            "6",
            "--to",
            "14",
            "--fights",
            "500",
            "--out",
            "reports/small",
        ],
    );
    assert_refused(&o, &["reports/small/small-balance", "inside reports/small"]);
    assert!(o.stdout.is_empty(), "the search ran: {o:#?}");
    assert_eq!(snapshot(sb.path()), before);
}

// ---------------------------------------------------------------------------
// atomic writes and what they leave behind
// ---------------------------------------------------------------------------

#[test]
fn an_interrupted_write_is_seen_by_check_and_finished_by_the_next_run() {
    let sb = Sandbox::new();
    sb.run_small("out", &[]);
    let path = sb.join("out/small").join(MANIFEST);
    let complete = fs::read_to_string(&path).unwrap();
    fs::write(
        &path,
        edit(
            &complete,
            &[("kind = run\n", "kind = run\nstate = writing\n")],
        ),
    )
    .unwrap();
    let o = run(&sb, &["run", "small.toml", "--out", "out", "--check"]);
    assert_eq!(o.code, 1, "{o:#?}");
    assert!(o.stdout.contains("state = writing"), "{o:#?}");
    sb.run_small("out", &[]);
    assert_eq!(fs::read_to_string(&path).unwrap(), complete);
}

#[test]
fn temporary_folders_of_dead_runs_are_cleaned_up_and_others_kept() {
    let sb = Sandbox::new();
    // Process ids this large are beyond Linux's pid_max: surely not running.
    sb.write("out/small.tmp-4999999/cells.csv", "half written\n");
    sb.write("out/small.tmp-4999998/mine.txt", "not skirmish's\n");
    sb.run_small("out", &[]);
    assert_eq!(sb.entries("out"), ["small", "small.tmp-4999998"]);
    assert_eq!(
        fs::read(sb.join("out/small.tmp-4999998/mine.txt")).unwrap(),
        b"not skirmish's\n"
    );

    // A staging folder inside the report, left by a run killed mid-write.
    sb.write("out/small/.skirmish-tmp-4999999/cells.csv", "half\n");
    sb.run_small("out", &[]);
    assert_eq!(sb.entries("out/small"), REPORT_FILES);
}
