//! `skirmish exact` and `run --exact` end to end: cells refused by the
//! limits (exit 2, nothing written), selecting cells, the report and its
//! manifest, `--check`, the columns and decimals of cells.csv, and the
//! run's report with and without `--exact`.
//!
//! On the reference duel, whose cells each enumerate in a fraction of a
//! second.

mod common;

use std::fs;

use common::{check_rejected, parse_csv, read_report, Output, Sandbox};

const DUEL: &str = include_str!("../scenarios/duel.toml");

/// Writes the duel and runs `skirmish exact duel.toml --out out -q EXTRA...`.
fn exact(sb: &Sandbox, extra: &[&str]) -> Output {
    let file = sb.write("duel.toml", DUEL);
    let mut args = vec!["exact", file, "--out", "out", "-q"];
    args.extend_from_slice(extra);
    sb.run(&args)
}

/// A CSV column by name.
fn column<'a>(header: &[String], rows: &'a [Vec<String>], name: &str) -> Vec<&'a str> {
    let i = header
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name} in {header:?}"));
    rows.iter().map(|r| r[i].as_str()).collect()
}

#[test]
fn a_cell_too_large_for_the_limits_writes_nothing_and_exits_2() {
    let sb = Sandbox::new();
    sb.write("duel.toml", DUEL);
    sb.mkdir("out");
    let args = [
        "exact",
        "duel.toml",
        "--max-states",
        "10",
        "--cell",
        "2",
        "--cell",
        "0",
        "--out",
        "out",
    ];
    let (o, problems) = check_rejected(
        &sb,
        &args,
        &["duel.toml"],
        &[
            "2 of 2 selected cells are too large to enumerate",
            "nothing was written",
            "duel: cell 0 (options.crit = double-dice, options.initiative = rolled): more than \
             10 fight states (--max-states)",
            "duel: cell 2 (",
            "None of them fit.",
            "--cell N, --where AXIS=VALUE",
            "raise --max-states / --max-outcomes",
        ],
    );
    assert!(problems.is_empty(), "{problems:#?}");
    // Without -q, each cell's line says it was refused.
    assert!(
        o.stdout
            .contains("cell 0 (options.crit = double-dice, options.initiative = rolled): refused"),
        "{o:#?}"
    );
}

#[test]
fn the_cells_that_fit_are_named_when_others_do_not() {
    let sb = Sandbox::new();
    sb.write("duel.toml", DUEL);
    // A duel with a fighter more a side: far more states.
    sb.write(
        "melee.toml",
        &DUEL
            .replace("name = \"duel\"", "name = \"melee\"")
            .replace("fighter = { count = 1 }", "fighter = { count = 2 }"),
    );
    sb.mkdir("out");
    let args = [
        "exact",
        "duel.toml",
        "melee.toml",
        "--cell",
        "0",
        "--max-states",
        "5000",
        "--out",
        "out",
        "-q",
    ];
    let (o, problems) = check_rejected(
        &sb,
        &args,
        &["duel.toml", "melee.toml"],
        &[
            "1 of 2 selected cells is too large",
            "melee: cell 0 (",
            "These fit: duel: cell 0.",
        ],
    );
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(o.stdout.is_empty(), "-q prints no line per cell: {o:#?}");
}

#[test]
fn bad_cells_are_refused_before_any_work() {
    let sb = Sandbox::new();
    sb.write("duel.toml", DUEL);
    sb.mkdir("out");
    for (extra, expect) in [
        (
            &["--cell", "12"][..],
            "duel.toml: --cell 12 is not a cell of this scenario: it has cells 0 to 11",
        ),
        (
            &["--where", "options.crit=huge"][..],
            "duel.toml: --where options.crit: `huge` is not one of its values",
        ),
        (
            &["--where", "units.fighter.hp=30"][..],
            "`units.fighter.hp` is not an axis of this scenario's matrix",
        ),
        (&["--max-states", "0"][..], "expected a whole number from 1"),
    ] {
        let mut args = vec!["exact", "duel.toml", "--out", "out"];
        args.extend_from_slice(extra);
        let (_, problems) = check_rejected(&sb, &args, &["duel.toml"], &[expect]);
        assert!(problems.is_empty(), "{extra:?}: {problems:#?}");
    }
}

#[test]
fn where_selects_cells_and_the_report_checks_after_writing() {
    let sb = Sandbox::new();
    // One cell: every axis named.
    let o = exact(
        &sb,
        &[
            "--where",
            "options.crit=none",
            "--where",
            "options.initiative=alternating",
        ],
    );
    assert_eq!(o.code, 0, "{o:#?}");
    assert!(
        o.stdout.contains("duel: 1 cell, 4,374 states in "),
        "{o:#?}"
    );
    assert!(o.stdout.contains("→ out/duel-exact"), "{o:#?}");
    assert_eq!(sb.entries("out"), ["duel-exact"]);
    assert_eq!(
        sb.entries("out/duel-exact"),
        [
            ".skirmish-report",
            "cells.csv",
            "rounds.csv",
            "rounds.png",
            "summary.md"
        ]
    );
    let manifest = fs::read_to_string(sb.join("out/duel-exact/.skirmish-report")).unwrap();
    assert!(manifest.contains("kind = exact\n"), "{manifest}");
    let (_, rows) = parse_csv(&fs::read_to_string(sb.join("out/duel-exact/cells.csv")).unwrap());
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0][..3], ["11", "none", "alternating"]);

    // --check right after writing: identical.
    let o = exact(
        &sb,
        &[
            "--where",
            "options.crit=none",
            "--where",
            "options.initiative=alternating",
            "--check",
        ],
    );
    assert_eq!(o.code, 0, "{o:#?}");
    assert!(
        o.stdout.contains("duel: identical to out/duel-exact"),
        "{o:#?}"
    );
    // Another selection differs from it: exit 1, and nothing is written.
    let before = read_report(&sb.join("out/duel-exact"));
    let o = exact(&sb, &["--where", "options.crit=none", "--check"]);
    assert_eq!(o.code, 1, "{o:#?}");
    assert!(o.stdout.contains("differs from out/duel-exact"), "{o:#?}");
    assert_eq!(read_report(&sb.join("out/duel-exact")), before);

    // One axis named: every cell with that value, in cell order.
    let o = exact(&sb, &["--where", "options.crit=none"]);
    assert_eq!(o.code, 0, "{o:#?}");
    let (_, rows) = parse_csv(&fs::read_to_string(sb.join("out/duel-exact/cells.csv")).unwrap());
    let cells: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(cells, ["9", "10", "11"]);
}

#[test]
fn cells_csv_has_the_columns_and_decimals_it_promises() {
    let sb = Sandbox::new();
    let o = exact(&sb, &["--cell", "2", "--cell", "0", "--threads", "1"]);
    assert_eq!(o.code, 0, "{o:#?}");
    let text = fs::read_to_string(sb.join("out/duel-exact/cells.csv")).unwrap();
    let (header, rows) = parse_csv(&text);
    let expected: Vec<&str> = [
        "cell",
        "options.crit",
        "options.initiative",
        "states",
        "win_rate_red",
        "win_rate_blue",
        "draw_rate",
        "draws_at_cap_rate",
        "rounds_mean",
        "rounds_p50",
        "rounds_p90",
        "survivors_red",
        "survivors_blue",
        "damage_red",
        "damage_blue",
        "attacks",
        "hits",
        "crits",
        "downed",
        "opportunity_attacks",
        "sprints",
        "deaths",
        "revived",
        // Cell 0 is the baseline, and it was selected.
        "delta_win_rate_red",
        "delta_win_rate_blue",
        "delta_rounds_mean",
        "error",
    ]
    .into();
    assert_eq!(header, expected);
    assert_eq!(column(&header, &rows, "cell"), ["0", "2"]);
    // Every float has the same decimals D: the most, up to 12, with
    // 10^-D at least ten times the largest error.
    let ints = ["cell", "states", "rounds_p50", "rounds_p90"];
    let decimals: Vec<usize> = header
        .iter()
        .enumerate()
        .filter(|(_, h)| !ints.contains(&h.as_str()) && !h.starts_with("options.") && *h != "error")
        .flat_map(|(i, _)| {
            rows.iter()
                .map(move |r| r[i].split('.').nth(1).map_or(0, str::len))
        })
        .collect();
    let d = decimals[0];
    assert!(decimals.iter().all(|&x| x == d), "{decimals:?}");
    assert!((1..=12).contains(&d), "{d}");
    let largest = column(&header, &rows, "error")
        .iter()
        .map(|e| e.parse::<f64>().unwrap())
        .fold(0.0, f64::max);
    assert!(largest > 0.0 && largest < 1e-9, "{largest}");
    assert!(
        10f64.powi(-(d as i32)) >= 10.0 * largest,
        "{d} decimals, error {largest}"
    );
    // The rolled duel between identical fighters is even: exactly.
    let red = column(&header, &rows, "win_rate_red");
    assert_eq!(red[0], format!("0.5{}", "0".repeat(d - 1)));
    assert!(red[1].starts_with("0.5472"), "{red:?}");
    assert_eq!(
        column(&header, &rows, "delta_win_rate_red")[0],
        format!("0.{}", "0".repeat(d))
    );
    // rounds.csv: probabilities summing to 1 per cell.
    let text = fs::read_to_string(sb.join("out/duel-exact/rounds.csv")).unwrap();
    let (header, rows) = parse_csv(&text);
    assert_eq!(header, ["cell", "rounds", "probability"]);
    let total: f64 = rows
        .iter()
        .filter(|r| r[0] == "0")
        .map(|r| r[2].parse::<f64>().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-6, "{total}");
}

#[test]
fn run_exact_adds_the_exact_column_and_leaves_the_report_without_it_unchanged() {
    let sb = Sandbox::new();
    let file = sb.write("duel.toml", DUEL);
    let run = |out: &str, extra: &[&str]| {
        let mut args = vec!["run", file, "--fights", "2000", "--out", out, "--quiet"];
        args.extend_from_slice(extra);
        sb.run(&args)
    };
    let o = run("plain", &[]);
    assert_eq!(o.code, 0, "{o:#?}");
    let o = run("exact", &["--exact"]);
    assert_eq!(o.code, 0, "{o:#?}");
    assert!(o.stdout.contains("; exact: 12 of 12 cells in "), "{o:#?}");
    let plain = read_report(&sb.join("plain/duel"));
    let exact = read_report(&sb.join("exact/duel"));
    for name in ["rounds.csv", "rounds.png", "fights.md", ".skirmish-report"] {
        assert!(plain[name] == exact[name], "{name} differs");
    }
    for name in ["cells.csv", "summary.md", "win_rate.png"] {
        assert!(plain[name] != exact[name], "{name} is the same");
    }
    // cells.csv: the exact columns after each side's interval; the rest
    // is the plain run's.
    let (header, rows) = parse_csv(&String::from_utf8(exact["cells.csv"].clone()).unwrap());
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    assert_eq!(at("exact_win_rate_red"), at("win_rate_red_hi") + 1);
    assert_eq!(at("exact_win_rate_blue"), at("win_rate_blue_hi") + 1);
    assert!(
        rows[0][at("exact_win_rate_red")].starts_with("0.5000"),
        "{rows:?}"
    );
    let keep: Vec<usize> = (0..header.len())
        .filter(|&i| !header[i].starts_with("exact_"))
        .collect();
    let (plain_header, plain_rows) =
        parse_csv(&String::from_utf8(plain["cells.csv"].clone()).unwrap());
    let strip = |row: &Vec<String>| keep.iter().map(|&i| row[i].clone()).collect::<Vec<_>>();
    assert_eq!(strip(&header), plain_header);
    assert_eq!(rows.iter().map(strip).collect::<Vec<_>>(), plain_rows);
    let summary = String::from_utf8(exact["summary.md"].clone()).unwrap();
    assert!(
        summary.contains("Exact win rates (`--exact`, column `exact`): 12 of 12 cells enumerated"),
        "{summary}"
    );

    // --check: each report checks with the flags it was written with.
    assert_eq!(run("plain", &["--check"]).code, 0);
    assert_eq!(run("exact", &["--check", "--exact"]).code, 0);
    let o = run("exact", &["--check"]);
    assert_eq!(o.code, 1, "{o:#?}");
    assert!(o.stdout.contains("cells.csv"), "{o:#?}");

    // A limit that refuses every cell: the report is the plain one, and
    // stderr says why.
    let o = run("limited", &["--exact", "--max-states", "10"]);
    assert_eq!(o.code, 0, "{o:#?}");
    assert!(
        o.stderr.contains("duel: cell 0 (options.crit = double-dice, options.initiative = rolled): not enumerated (--exact): more than 10 fight states"),
        "{o:#?}"
    );
    let limited = read_report(&sb.join("limited/duel"));
    let summary = String::from_utf8(limited["summary.md"].clone()).unwrap();
    assert!(summary.contains("0 of 12 cells enumerated"), "{summary}");

    // The limits belong to --exact.
    let o = sb.run(&["run", file, "--out", "other", "--max-states", "10"]);
    assert_eq!(o.code, 2, "{o:#?}");
    assert!(o.stderr.contains("add --exact"), "{o:#?}");
    assert!(sb.entries("other").is_empty());
}
