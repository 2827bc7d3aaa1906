//! `run`'s play check (issue 30, item 3): a side whose fixed play leaves it
//! far below another it could play gets a line naming the better play; the
//! check is the same bytes at 1 and 2 threads and after shards are merged;
//! `--no-play-check` leaves it out; a bad margin exits 2.

mod common;

use common::{check_rejected, parse_csv, read_report, Sandbox};

/// A strong swordsman and a weak one, 30 spaces apart, both holding: no
/// one ever comes within reach, so every fight is a draw at the round cap
/// (each side scores 0.5). The strong side advancing wins nearly every
/// fight: a gain near 0.5, far above the margin. The weak side advancing
/// only walks to its death: never reported.
const STANDOFF: &str = r#"
name = "standoff"
rules = "escalation"
fights = 4000
seed = 11
max_rounds = 20

[weapons.sword]
damage = "1d8"

[units.strong]
hp = 30
weapons = ["sword"]

[units.weak]
hp = 6
weapons = ["sword"]

[sides.first]
strong = { tactic = "hold", distance = 15 }

[sides.second]
weak = { tactic = "hold", distance = 15 }
"#;

fn row<'a>(header: &[String], rows: &'a [Vec<String>], want: &[(&str, &str)]) -> &'a Vec<String> {
    let col = |name: &str| header.iter().position(|h| h == name).expect(name);
    rows.iter()
        .find(|r| want.iter().all(|(k, v)| r[col(k)] == *v))
        .unwrap_or_else(|| panic!("no row {want:?} in plays.csv"))
}

#[test]
fn a_side_far_below_a_better_play_is_told_which() {
    let sb = Sandbox::new();
    let file = sb.write("standoff.toml", STANDOFF);
    let o = sb.run(&["run", file, "--out", "one", "--threads", "1", "--quiet"]);
    assert_eq!(o.code, 0, "{o:#?}");
    assert!(
        o.stderr.contains("plays far from best: in 1 of 1 cell"),
        "the terminal hears it: {}",
        o.stderr
    );
    let report = read_report(&sb.join("one/standoff"));
    let csv = String::from_utf8(report["plays.csv"].clone()).unwrap();
    let (header, rows) = parse_csv(&csv);
    let col = |name: &str| header.iter().position(|h| h == name).expect(name);
    let advance = row(&header, &rows, &[("side", "first"), ("value", "advance")]);
    assert_eq!(advance[col("beats_margin")], "true", "{csv}");
    assert_eq!(advance[col("own_score")], "0.5000", "all draws: {csv}");
    let weak = row(&header, &rows, &[("side", "second"), ("value", "advance")]);
    assert_eq!(weak[col("beats_margin")], "false", "{csv}");
    let gain: f64 = weak[col("gain")].parse().unwrap();
    assert!(gain < 0.0, "the weak side loses by advancing: {csv}");
    let summary = String::from_utf8(report["summary.md"].clone()).unwrap();
    assert!(summary.contains("## Other plays"), "{summary}");
    assert!(
        summary.contains("| first | 0.5000 | every group: tactic = \""),
        "the better play is named: {summary}"
    );
    assert!(!summary.contains("| second |"), "{summary}");

    // The same bytes at 2 threads.
    let o = sb.run(&["run", file, "--out", "two", "--threads", "2", "--quiet"]);
    assert_eq!(o.code, 0, "{o:#?}");
    assert_eq!(report, read_report(&sb.join("two/standoff")));

    // Shards then merge: the merged report checks the same plays.
    for k in ["1/2", "2/2"] {
        let o = sb.run(&["run", file, "--out", "shards", "--shard", k, "--quiet"]);
        assert_eq!(o.code, 0, "{o:#?}");
    }
    let o = sb.run(&[
        "merge",
        "shards/standoff.shard-1-of-2.journal",
        "shards/standoff.shard-2-of-2.journal",
        "--out",
        "merged",
    ]);
    assert_eq!(o.code, 0, "{o:#?}");
    assert_eq!(report, read_report(&sb.join("merged/standoff")));
}

#[test]
fn no_play_check_leaves_it_out() {
    let sb = Sandbox::new();
    let file = sb.write("standoff.toml", STANDOFF);
    let o = sb.run(&["run", file, "--out", "out", "--no-play-check", "--quiet"]);
    assert_eq!(o.code, 0, "{o:#?}");
    let report = read_report(&sb.join("out/standoff"));
    assert!(!report.contains_key("plays.csv"));
    let summary = String::from_utf8(report["summary.md"].clone()).unwrap();
    assert!(!summary.contains("Other plays"), "{summary}");
    assert!(!o.stderr.contains("plays far from best"), "{}", o.stderr);
}

#[test]
fn a_bad_margin_exits_2_before_anything_is_written() {
    let sb = Sandbox::new();
    let file = sb.write("standoff.toml", STANDOFF);
    sb.mkdir("out");
    for bad in ["1.5", "-0.1", "x"] {
        let (o, problems) = check_rejected(
            &sb,
            &["run", file, "--out", "out", "--play-margin", bad],
            &[file],
            &["--play-margin", "expected a gain in win rate"],
        );
        assert!(problems.is_empty(), "{bad}: {problems:?}\n{o:#?}");
    }
}
