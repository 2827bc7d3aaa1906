//! End-to-end tests of the `skirmish` binary: the CLI and report contracts of
//! DESIGN.md ("CLI (contract)", "Reports (contract)").
//!
//! Every test runs the real binary in its own temporary folder (see
//! `common::Sandbox`), with small fights so the whole file takes seconds.

mod common;

use std::fs;

use common::{
    check_rejected, edit, line_of, parse_csv, read_report, Output, Sandbox, REPORT_FILES, SMALL,
};

/// An edit of the `small` fixture that surely moves its win rates.
const ONE_DEFENDER: (&str, &str) = ("count = 2, cover", "count = 1, cover");

/// Asserts two report folders hold the same files with the same bytes.
fn assert_same_report(sb: &Sandbox, a: &str, b: &str) {
    let (ra, rb) = (read_report(&sb.join(a)), read_report(&sb.join(b)));
    assert_eq!(
        ra.keys().collect::<Vec<_>>(),
        rb.keys().collect::<Vec<_>>(),
        "{a} and {b} hold different files"
    );
    for (name, bytes) in &ra {
        assert!(bytes == &rb[name], "{name} differs between {a} and {b}");
    }
}

// ---------------------------------------------------------------------------
// run
// ---------------------------------------------------------------------------

#[test]
fn run_writes_the_five_report_files_and_nothing_else() {
    let sb = Sandbox::new();
    sb.mkdir("out");
    sb.run_small("out", &[]);

    // Only the report folder: no `*.tmp-*` folder left behind.
    assert_eq!(sb.entries("out"), ["small"]);
    assert_eq!(sb.entries("out/small"), REPORT_FILES);
    // Nothing outside --out (no default `reports/`).
    assert_eq!(sb.entries(""), ["out", "small.toml"]);

    let report = read_report(&sb.join("out/small"));
    for png in ["win_rate.png", "rounds.png"] {
        assert!(
            report[png].starts_with(b"\x89PNG\r\n\x1a\n"),
            "{png} is not a PNG"
        );
    }
    let summary = String::from_utf8(report["summary.md"].clone()).unwrap();
    assert!(
        summary.contains("small"),
        "summary.md does not name the scenario"
    );
    for png in ["win_rate.png", "rounds.png"] {
        assert!(summary.contains(png), "summary.md does not embed {png}");
    }
}

#[test]
fn run_creates_a_missing_out_folder() {
    let sb = Sandbox::new();
    sb.run_small("deep/er/out", &[]);
    assert_eq!(sb.entries("deep/er/out"), ["small"]);
    assert_eq!(sb.entries("deep/er/out/small"), REPORT_FILES);
}

#[test]
fn cells_csv_has_one_row_per_cell_and_the_axis_columns() {
    let sb = Sandbox::new();
    sb.run_small("out", &[]);
    let text = fs::read_to_string(sb.join("out/small/cells.csv")).unwrap();
    let (header, rows) = parse_csv(&text);

    // `cell`, then one column per axis named by its path, then `fights`.
    assert_eq!(
        header[..4],
        ["cell", "options.crit", "units.brawler.hp", "fights"],
        "header: {header:?}"
    );
    for side in ["attackers", "defenders"] {
        for col in [
            format!("wins_{side}"),
            format!("win_rate_{side}"),
            format!("win_rate_{side}_lo"),
            format!("win_rate_{side}_hi"),
        ] {
            assert!(header.contains(&col), "no column {col}: {header:?}");
        }
    }
    for col in ["draws", "rounds_mean", "rounds_p50", "rounds_p90"] {
        assert!(
            header.contains(&col.to_owned()),
            "no column {col}: {header:?}"
        );
    }

    assert_eq!(rows.len(), 4, "a 2×2 matrix has 4 cells:\n{text}");
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let num = |row: &[String], name: &str| -> f64 {
        row[col(name)]
            .parse()
            .unwrap_or_else(|_| panic!("{name} = {:?} is not a number", row[col(name)]))
    };
    let mut combos = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), header.len(), "row {i} has the wrong width");
        assert_eq!(row[0], i.to_string(), "cells are numbered in order");
        assert_eq!(num(row, "fights"), 2000.0);
        let wins = num(row, "wins_attackers") + num(row, "wins_defenders") + num(row, "draws");
        assert_eq!(
            wins, 2000.0,
            "row {i}: wins and draws do not add up to fights"
        );
        for side in ["attackers", "defenders"] {
            let rate = num(row, &format!("win_rate_{side}"));
            let lo = num(row, &format!("win_rate_{side}_lo"));
            let hi = num(row, &format!("win_rate_{side}_hi"));
            assert!(lo <= rate && rate <= hi, "row {i}: {lo} <= {rate} <= {hi}");
        }
        combos.push((row[1].clone(), row[2].clone()));
    }
    combos.sort();
    assert_eq!(
        combos,
        [
            ("double-dice".into(), "12".into()),
            ("double-dice".into(), "8".into()),
            ("none".into(), "12".into()),
            ("none".into(), "8".into()),
        ] as [(String, String); 4]
    );

    // rounds.csv: the fight-length histogram, every fight counted once.
    let rounds = fs::read_to_string(sb.join("out/small/rounds.csv")).unwrap();
    let (header, rows) = parse_csv(&rounds);
    assert_eq!(header, ["cell", "rounds", "fights"]);
    let mut per_cell = [0u64; 4];
    for row in &rows {
        let cell: usize = row[0].parse().unwrap();
        per_cell[cell] += row[2].parse::<u64>().unwrap();
    }
    assert_eq!(per_cell, [2000; 4], "rounds.csv:\n{rounds}");
}

#[test]
fn fights_flag_overrides_the_scenario() {
    let sb = Sandbox::new();
    sb.run_small("out", &["--fights", "1000"]);
    let text = fs::read_to_string(sb.join("out/small/cells.csv")).unwrap();
    let (header, rows) = parse_csv(&text);
    let fights = header.iter().position(|h| h == "fights").unwrap();
    assert!(rows.iter().all(|r| r[fights] == "1000"), "{text}");
}

#[test]
fn rerun_replaces_an_existing_report_in_place() {
    let sb = Sandbox::new();
    sb.run_small("a", &[]);
    sb.run_small("b", &[]);
    sb.run_small("b", &[]);
    assert_eq!(
        sb.entries("b"),
        ["small"],
        "no temporary folder left behind"
    );
    assert_same_report(&sb, "a/small", "b/small");
}

#[test]
fn report_holds_nothing_volatile() {
    let sb = Sandbox::new();
    sb.run_small("out", &["--threads", "2"]);
    let sandbox = sb.path().to_string_lossy().into_owned();
    for name in ["cells.csv", "rounds.csv", "summary.md"] {
        let text = fs::read_to_string(sb.join("out/small").join(name)).unwrap();
        assert!(
            !text.contains(&sandbox),
            "{name} contains this machine's path"
        );
        assert!(!text.contains("thread"), "{name} mentions the thread count");
    }
}

// ---------------------------------------------------------------------------
// determinism
// ---------------------------------------------------------------------------

#[test]
fn thread_count_does_not_change_a_byte() {
    let sb = Sandbox::new();
    sb.run_small("one", &["--threads", "1"]);
    sb.run_small("two", &["--threads", "2"]);
    assert_eq!(sb.entries("one/small"), REPORT_FILES);
    assert_same_report(&sb, "one/small", "two/small");
}

#[test]
fn same_seed_twice_is_byte_identical() {
    let sb = Sandbox::new();
    sb.run_small("first", &["--seed", "99"]);
    sb.run_small("second", &["--seed", "99"]);
    assert_eq!(sb.entries("first/small"), REPORT_FILES);
    assert_same_report(&sb, "first/small", "second/small");
}

#[test]
fn another_seed_changes_cells_csv() {
    let sb = Sandbox::new();
    sb.run_small("scenario_seed", &[]);
    sb.run_small("other_seed", &["--seed", "8"]);
    let a = fs::read(sb.join("scenario_seed/small/cells.csv")).unwrap();
    let b = fs::read(sb.join("other_seed/small/cells.csv")).unwrap();
    assert_ne!(
        a, b,
        "--seed 8 gave the same cells.csv as the scenario's seed 7"
    );
    // The scenario's seed is 7: --seed 7 must be the same as no --seed.
    sb.run_small("explicit", &["--seed", "7"]);
    assert_same_report(&sb, "scenario_seed/small", "explicit/small");
}

// ---------------------------------------------------------------------------
// run --check
// ---------------------------------------------------------------------------

#[test]
fn check_passes_on_a_fresh_report_and_writes_nothing() {
    let sb = Sandbox::new();
    sb.run_small("out", &[]);
    let before = read_report(&sb.join("out/small"));
    let o = sb.run(&["run", "small.toml", "--out", "out", "--quiet", "--check"]);
    assert_eq!(o.code, 0, "{o:#?}");
    // Another thread count must check as identical too.
    let o = sb.run(&[
        "run",
        "small.toml",
        "--out",
        "out",
        "--quiet",
        "--check",
        "--threads",
        "1",
    ]);
    assert_eq!(o.code, 0, "{o:#?}");
    assert_eq!(sb.entries("out"), ["small"]);
    assert!(
        read_report(&sb.join("out/small")) == before,
        "--check changed the report"
    );
}

#[test]
fn check_fails_naming_the_file_with_one_changed_byte() {
    let sb = Sandbox::new();
    sb.run_small("out", &[]);
    let path = sb.join("out/small/cells.csv");
    let text = fs::read_to_string(&path).unwrap();
    let edited = edit(&text, &[(",2000,", ",2001,")]);
    fs::write(&path, &edited).unwrap();

    let o = sb.run(&["run", "small.toml", "--out", "out", "--quiet", "--check"]);
    assert_eq!(o.code, 1, "{o:#?}");
    assert!(
        o.stdout.contains("cells.csv"),
        "does not name cells.csv: {o:#?}"
    );
    for other in ["rounds.csv", "summary.md", "win_rate.png", "rounds.png"] {
        assert!(
            !o.stdout.contains(other),
            "names {other}, which is unchanged: {o:#?}"
        );
    }
    // --check reports; it does not repair.
    assert_eq!(fs::read_to_string(&path).unwrap(), edited);
    assert_eq!(sb.entries("out"), ["small"]);
}

#[test]
fn check_fails_against_another_seed() {
    let sb = Sandbox::new();
    sb.run_small("out", &[]);
    let o = sb.run(&[
        "run",
        "small.toml",
        "--out",
        "out",
        "--quiet",
        "--check",
        "--seed",
        "8",
    ]);
    assert_eq!(o.code, 1, "{o:#?}");
    assert!(
        o.stdout.contains("cells.csv"),
        "does not name cells.csv: {o:#?}"
    );
}

#[test]
fn check_fails_when_a_report_file_is_missing() {
    let sb = Sandbox::new();
    sb.run_small("out", &[]);
    fs::remove_file(sb.join("out/small/rounds.png")).unwrap();
    let o = sb.run(&["run", "small.toml", "--out", "out", "--quiet", "--check"]);
    assert_eq!(o.code, 1, "{o:#?}");
    assert!(
        o.stdout.contains("rounds.png"),
        "does not name rounds.png: {o:#?}"
    );
}

#[test]
fn check_fails_when_there_is_no_report() {
    let sb = Sandbox::new();
    let file = sb.write("small.toml", SMALL);
    let o = sb.run(&["run", file, "--out", "nowhere", "--quiet", "--check"]);
    assert_eq!(o.code, 1, "{o:#?}");
    assert!(
        format!("{}{}", o.stdout, o.stderr).contains("nowhere"),
        "does not name the missing folder: {o:#?}"
    );
    assert_eq!(sb.entries(""), ["small.toml"], "--check created something");
}

#[test]
fn check_with_a_bad_scenario_exits_2() {
    let sb = Sandbox::new();
    sb.run_small("out", &[]);
    let bad = sb.write("bad.toml", &edit(SMALL, &[("fights = 2000", "fights = 0")]));
    let o = sb.run(&["run", bad, "--out", "out", "--quiet", "--check"]);
    assert_eq!(o.code, 2, "{o:#?}");
    assert!(o.stderr.contains("bad.toml"), "{o:#?}");
}

// ---------------------------------------------------------------------------
// validate, rules, help
// ---------------------------------------------------------------------------

#[test]
fn validate_accepts_valid_files_with_a_line_each_and_writes_nothing() {
    let sb = Sandbox::new();
    let small = sb.write("small.toml", SMALL);
    let scenarios = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios");
    let duel = format!("{scenarios}/duel.toml");
    let raid = format!("{scenarios}/trench_raid.toml");
    let files = [small, duel.as_str(), raid.as_str()];

    let mut args = vec!["validate"];
    args.extend_from_slice(&files);
    let o = sb.run(&args);
    assert_eq!(o.code, 0, "{o:#?}");
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert_eq!(lines.len(), files.len(), "one line per file: {o:#?}");
    for (line, file) in lines.iter().zip(files) {
        assert!(line.contains(file), "line {line:?} does not name {file}");
    }
    assert!(lines[0].contains("4 cells"), "{:?}", lines[0]);
    assert_eq!(sb.entries(""), ["small.toml"], "validate wrote something");
}

#[test]
fn rules_lists_trenches() {
    let o = Sandbox::new().run(&["rules"]);
    assert_eq!(o.code, 0, "{o:#?}");
    assert!(o.stdout.contains("trenches"), "{o:#?}");
}

/// `skirmish rules NAME` succeeds and mentions every one of `words`.
fn rules_mention(name: &str, words: &[&str]) {
    let o = Sandbox::new().run(&["rules", name]);
    assert_eq!(o.code, 0, "{o:#?}");
    for word in words {
        assert!(
            o.stdout.contains(word),
            "`rules {name}` does not mention {word}"
        );
    }
}

#[test]
fn rules_trenches_describes_fields_options_and_counters() {
    rules_mention(
        "trenches",
        &[
            "hp",
            "weapons",
            "damage",
            "crit",
            "double-dice",
            "full_cover_damage",
            "initiative",
            "cover",
            "three-quarters",
            "hits",
        ],
    );
}

#[test]
fn rules_dicestep_describes_fields_options_and_counters() {
    rules_mention(
        "dicestep",
        &[
            "evasion",
            "endurance",
            "cannot_be_surprised",
            "reaction",
            "crit_damage",
            "luck_die",
            "surprise",
            "alternating",
            "misfires",
        ],
    );
}

#[test]
fn rules_thrum_describes_fields_options_and_counters() {
    rules_mention(
        "thrum",
        &[
            "fatigue_tolerance",
            "stress_tolerance",
            "evasion-unless-vulnerable",
            "stance_defence",
            "finisher",
            "boon_effect",
            "crit_margin",
            "panics",
            "self_revivals",
        ],
    );
}

#[test]
fn rules_prints_every_rulesets_conformance_table() {
    // Each ruleset's table: sections of its text, how each rule is
    // modelled, and the tests that pin it (`rules::conformance` checks that
    // those tests exist).
    for name in ["trenches", "osr", "dicestep", "escalation", "thrum"] {
        rules_mention(name, &["Conformance to the text", "as written", "tests: "]);
    }
}

#[test]
fn rules_with_an_unknown_name_exits_2_listing_the_rulesets() {
    let o = Sandbox::new().run(&["rules", "nope"]);
    assert_eq!(o.code, 2, "{o:#?}");
    assert!(o.stderr.contains("nope"), "{o:#?}");
    assert!(o.stderr.contains("trenches"), "{o:#?}");
}

#[test]
fn help_exits_0() {
    let sb = Sandbox::new();
    let o = sb.run(&["--help"]);
    assert_eq!(o.code, 0, "{o:#?}");
    for sub in ["run", "validate", "rules"] {
        assert!(o.stdout.contains(sub), "--help does not mention {sub}");
    }
    let o = sb.run(&["run", "--help"]);
    assert_eq!(o.code, 0, "{o:#?}");
    for flag in [
        "--fights",
        "--seed",
        "--threads",
        "--out",
        "--quiet",
        "--check",
    ] {
        assert!(
            o.stdout.contains(flag),
            "run --help does not mention {flag}"
        );
    }
    assert_eq!(sb.entries(""), Vec::<String>::new());
}

// ---------------------------------------------------------------------------
// bad scenarios: exit 2, a precise message, nothing written
// ---------------------------------------------------------------------------

/// A bad scenario made from the fixture by text replacement.
struct BadScenario {
    name: &'static str,
    edits: &'static [(&'static str, &'static str)],
    /// Substrings stderr must contain (besides the file name).
    expect: &'static [&'static str],
    /// Text on the line the message must point at as `file:LINE:COL`.
    at: Option<&'static str>,
}

const NO_CRIT_AXIS: (&str, &str) = ("\"options.crit\" = [\"double-dice\", \"none\"]\n", "");
const NO_HP_AXIS: (&str, &str) = ("\"units.brawler.hp\" = [8, 12]\n", "");

const BAD_SCENARIOS: &[BadScenario] = &[
    BadScenario {
        name: "toml_syntax",
        edits: &[("max_rounds = 50", "max_rounds = 50 50")],
        expect: &["TOML"],
        at: Some("max_rounds"),
    },
    BadScenario {
        name: "duplicate_key",
        edits: &[("seed = 7\n", "seed = 7\nseed = 8\n")],
        expect: &["duplicate"],
        at: Some("seed = 8"),
    },
    BadScenario {
        name: "unknown_top_level_key",
        edits: &[("seed = 7", "seeed = 7")],
        expect: &["seeed", "did you mean `seed`"],
        at: Some("seeed"),
    },
    BadScenario {
        name: "unknown_unit_key",
        edits: &[("hp = 10", "hpp = 10")],
        expect: &["units.brawler.hpp", "did you mean `hp`"],
        at: Some("hpp"),
    },
    BadScenario {
        name: "missing_hp",
        edits: &[("hp = 10\n", ""), NO_HP_AXIS],
        expect: &["units.brawler", "missing", "`hp`"],
        at: Some("[units.brawler]"),
    },
    BadScenario {
        name: "hp_wrong_type",
        edits: &[("hp = 10", "hp = \"ten\""), NO_HP_AXIS],
        expect: &["units.brawler.hp", "ten", "integer"],
        at: Some("hp = \"ten\""),
    },
    BadScenario {
        name: "unknown_ruleset",
        edits: &[("rules = \"trenches\"", "rules = \"trench\"")],
        expect: &["`rules`", "`trench`", "trenches"],
        at: Some("rules ="),
    },
    BadScenario {
        name: "unknown_option",
        edits: &[("[matrix]", "[options]\ncritt = \"none\"\n\n[matrix]")],
        expect: &["options.critt", "did you mean `crit`"],
        at: Some("critt"),
    },
    BadScenario {
        name: "unknown_option_value",
        edits: &[
            ("[matrix]", "[options]\ncrit = \"triple\"\n\n[matrix]"),
            NO_CRIT_AXIS,
        ],
        expect: &[
            "options.crit",
            "triple",
            "double-dice",
            "double-total",
            "max-plus-roll",
            "none",
        ],
        at: Some("triple"),
    },
    BadScenario {
        name: "option_out_of_range",
        edits: &[("[matrix]", "[options]\nfull_cover_damage = 2\n\n[matrix]")],
        expect: &["options.full_cover_damage", "0", "1", "found 2"],
        at: Some("full_cover_damage"),
    },
    BadScenario {
        name: "dice_without_sides",
        edits: &[("\"1d6+1\"", "\"1d\"")],
        expect: &["weapons.knife.damage", "`1d`"],
        at: Some("damage ="),
    },
    BadScenario {
        name: "dice_zero_sides",
        edits: &[("\"1d6+1\"", "\"d0\"")],
        expect: &["weapons.knife.damage", "`d0`", "zero sides"],
        at: Some("damage ="),
    },
    BadScenario {
        name: "dice_double_sign",
        edits: &[("\"1d6+1\"", "\"2d6++1\"")],
        expect: &["weapons.knife.damage", "`2d6++1`"],
        at: Some("damage ="),
    },
    BadScenario {
        name: "dice_zero_dice",
        edits: &[("\"1d6+1\"", "\"0d6\"")],
        expect: &["weapons.knife.damage", "`0d6`", "zero dice"],
        at: Some("damage ="),
    },
    BadScenario {
        name: "undefined_weapon",
        edits: &[("weapons = [\"knife\"]", "weapons = [\"knife\", \"sword\"]")],
        expect: &["units.brawler.weapons", "`sword`", "not defined", "knife"],
        at: Some("sword"),
    },
    BadScenario {
        name: "undefined_unit",
        edits: &[("brawler = { count = 2, cover", "brawlr = { count = 2, cover")],
        expect: &["sides.defenders.brawlr", "not defined", "did you mean `brawler`"],
        at: Some("brawlr"),
    },
    BadScenario {
        name: "side_without_units",
        edits: &[("[sides.defenders]", "[sides.empty]\n\n[sides.defenders]")],
        expect: &["sides.empty", "no units"],
        at: Some("[sides.empty]"),
    },
    BadScenario {
        name: "only_one_side",
        edits: &[(
            "[sides.defenders]\nbrawler = { count = 2, cover = \"half\" }\n",
            "",
        )],
        expect: &["`sides`", "one side", "attackers"],
        at: Some("[sides.attackers]"),
    },
    BadScenario {
        name: "over_capacity",
        edits: &[
            ("brawler = { count = 2 }", "brawler = { count = 40 }"),
            ("{ count = 2, cover", "{ count = 40, cover"),
        ],
        expect: &["count", "80", "capacity", "64"],
        at: Some("count = 40, cover"),
    },
    BadScenario {
        name: "count_zero",
        edits: &[("brawler = { count = 2 }", "brawler = { count = 0 }")],
        expect: &["sides.attackers.brawler.count", "found 0"],
        at: Some("count = 0"),
    },
    BadScenario {
        name: "unknown_cover",
        edits: &[("cover = \"half\"", "cover = \"behind\"")],
        expect: &[
            "sides.defenders.brawler.cover",
            "`behind`",
            "half",
            "three-quarters",
            "full",
        ],
        at: Some("behind"),
    },
    BadScenario {
        name: "matrix_path_missing",
        edits: &[(
            "\"units.brawler.hp\" = [8, 12]",
            "\"units.brawler.hp\" = [8, 12]\n\"sides.defenders.nobody.cover\" = [\"none\"]",
        )],
        expect: &["sides.defenders.nobody.cover", "`nobody`", "brawler"],
        at: Some("nobody"),
    },
    BadScenario {
        name: "matrix_value_wrong_type",
        edits: &[("\"units.brawler.hp\" = [8, 12]", "\"units.brawler.hp\" = [\"ten\"]")],
        expect: &["cell 0", "units.brawler.hp", "ten", "integer"],
        at: Some("[\"ten\"]"),
    },
    BadScenario {
        name: "matrix_second_value_bad",
        edits: &[(
            "\"units.brawler.hp\" = [8, 12]",
            "\"units.brawler.hp\" = [8, 12]\n\"sides.defenders.brawler.cover\" = [\"none\", \"sandbags\"]",
        )],
        expect: &["cell 1", "sides.defenders.brawler.cover", "sandbags", "three-quarters"],
        at: Some("sandbags"),
    },
    BadScenario {
        name: "matrix_empty_axis",
        edits: &[(
            "\"options.crit\" = [\"double-dice\", \"none\"]",
            "\"options.crit\" = []",
        )],
        expect: &["options.crit", "empty"],
        at: Some("\"options.crit\" = []"),
    },
    BadScenario {
        name: "fights_zero",
        edits: &[("fights = 2000", "fights = 0")],
        expect: &["`fights`", "found 0"],
        at: Some("fights = 0"),
    },
    BadScenario {
        name: "unsafe_report_name",
        edits: &[("name = \"small\"", "name = \"../escape\"")],
        expect: &["`name`", "../escape"],
        at: Some("name = \"../escape\""),
    },
];

#[test]
fn bad_scenarios_exit_2_with_a_precise_message_and_write_nothing() {
    let mut failures = Vec::new();
    for case in BAD_SCENARIOS {
        let sb = Sandbox::new();
        sb.mkdir("out");
        let text = edit(SMALL, case.edits);
        let file = format!("{}.toml", case.name);
        sb.write(&file, &text);

        let mut expect: Vec<String> = vec![file.clone()];
        if let Some(needle) = case.at {
            // `file:LINE:` followed by a column number.
            expect.push(format!("{file}:{}:", line_of(&text, needle)));
        }
        expect.extend(case.expect.iter().map(|s| s.to_string()));
        let expect: Vec<&str> = expect.iter().map(String::as_str).collect();

        for args in [
            vec!["run", &file, "--out", "out", "--quiet"],
            vec!["validate", &file],
        ] {
            let (o, mut problems) = check_rejected(&sb, &args, &[&file], &expect);
            if let Some(needle) = case.at {
                let loc = format!("{file}:{}:", line_of(&text, needle));
                let col_follows = o.stderr.find(&loc).is_some_and(|i| {
                    o.stderr[i + loc.len()..].starts_with(|c: char| c.is_ascii_digit())
                });
                if !col_follows {
                    problems.push(format!("no column after {loc}: {}", o.stderr));
                }
            }
            if !problems.is_empty() {
                failures.push(format!("[{}] {}", case.name, problems.join("\n  ")));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}

/// A bad command line: arguments (before `--out out --quiet`), files to
/// create as (name, text), and what stderr must contain.
type BadCommand<'a> = (&'a [&'a str], &'a [(&'a str, &'a str)], &'a [&'a str]);

/// Bad command lines and bad files: exit 2, a message, nothing written.
#[test]
fn bad_arguments_and_files_exit_2_and_write_nothing() {
    let bad_fights = edit(SMALL, &[("fights = 2000", "fights = 0")]);
    let cases: &[BadCommand] = &[
        (
            &["run", "small.toml", "--fights", "0"],
            &[("small.toml", SMALL)],
            &["--fights", "0"],
        ),
        (
            &["run", "small.toml", "--fights", "many"],
            &[("small.toml", SMALL)],
            &["--fights", "many"],
        ),
        (
            &["run", "small.toml", "--threads", "0"],
            &[("small.toml", SMALL)],
            &["--threads"],
        ),
        (
            &["run", "small.toml", "--seed", "-1"],
            &[("small.toml", SMALL)],
            &["-1"],
        ),
        (&["run"], &[], &["FILES"]),
        (&["frobnicate"], &[], &["frobnicate"]),
        (&["run", "nosuch.toml"], &[], &["nosuch.toml"]),
        (
            &["run", "adir"],
            &[("adir/keep.txt", "")],
            &["adir", "directory"],
        ),
        // The second file is bad: the first, valid one must not be run either.
        (
            &["run", "small.toml", "bad.toml"],
            &[("small.toml", SMALL), ("bad.toml", &bad_fights)],
            &["bad.toml:", "`fights`"],
        ),
        // Two scenarios with one name would overwrite each other's report.
        (
            &["run", "small.toml", "copy/small.toml"],
            &[("small.toml", SMALL), ("copy/small.toml", SMALL)],
            &["small.toml", "copy/small.toml", "`small`"],
        ),
    ];
    let mut failures = Vec::new();
    for (args, files, expect) in cases {
        let sb = Sandbox::new();
        sb.mkdir("out");
        for (name, text) in *files {
            sb.write(name, text);
        }
        let mut argv = args.to_vec();
        argv.extend_from_slice(&["--out", "out", "--quiet"]);
        let names: Vec<&str> = files.iter().map(|(n, _)| *n).collect();
        let (_, problems) = check_rejected(&sb, &argv, &names, expect);
        if !problems.is_empty() {
            failures.push(problems.join("\n  "));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}

#[test]
fn validate_rejects_a_missing_file_and_a_directory() {
    let sb = Sandbox::new();
    sb.mkdir("adir");
    for (file, expect) in [("nosuch.toml", "nosuch.toml"), ("adir", "directory")] {
        let o = sb.run(&["validate", file]);
        assert_eq!(o.code, 2, "{o:#?}");
        assert!(
            o.stderr.contains(file) && o.stderr.contains(expect),
            "{o:#?}"
        );
    }
}

#[test]
fn missing_file_message_states_the_os_error_once() {
    let o = Sandbox::new().run(&["validate", "nosuch.toml"]);
    assert_eq!(o.code, 2, "{o:#?}");
    assert_eq!(o.stderr.matches("os error 2").count(), 1, "{}", o.stderr);
}

/// Determinism holds with the battlefield in: scenarios where units move,
/// sprint, provoke attacks of opportunity (trenches) or alternate
/// activations, react and misfire (dicestep) give byte-identical reports at
/// one and two threads.
#[test]
fn reports_with_movement_are_identical_across_thread_counts() {
    identical_across_thread_counts("over_the_top");
}

/// The same for `osr`: morale routs, death clocks, stabilising and units
/// coming back into the fight.
#[test]
fn osr_reports_are_identical_across_thread_counts() {
    identical_across_thread_counts("osr_patrol");
}

/// The same for `dicestep`: team-alternating activation, reactions paid with
/// stamina, knock-outs and death luck tests.
#[test]
fn dicestep_reports_are_identical_across_thread_counts() {
    identical_across_thread_counts("dicestep_skirmish");
}

/// The same for `thrum`: units incapacitated and resuscitated, reviving
/// on their own, wounded and removed.
#[test]
fn thrum_reports_are_identical_across_thread_counts() {
    identical_across_thread_counts("thrum_skirmish");
}

fn identical_across_thread_counts(name: &str) {
    let scenario =
        std::fs::canonicalize(format!("scenarios/{name}.toml")).expect("example scenario");
    let dir = tempfile::tempdir().expect("temp dir");
    for threads in ["1", "2"] {
        let out = dir.path().join(format!("t{threads}"));
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"))
            .args([
                "run",
                "--quiet",
                "--fights",
                "3000",
                "--threads",
                threads,
                "--out",
            ])
            .arg(&out)
            .arg(&scenario)
            .output()
            .expect("runs");
        assert!(
            status.status.success(),
            "{}",
            String::from_utf8_lossy(&status.stderr)
        );
    }
    for file in [
        "cells.csv",
        "rounds.csv",
        "win_rate.png",
        "rounds.png",
        "summary.md",
    ] {
        let a = std::fs::read(dir.path().join("t1").join(name).join(file)).expect("written");
        let b = std::fs::read(dir.path().join("t2").join(name).join(file)).expect("written");
        assert!(a == b, "{file} differs between 1 and 2 threads");
    }
}

// ---------------------------------------------------------------------------
// comparisons with the baseline, precision targets
// ---------------------------------------------------------------------------

/// The `delta_win_rate_attackers` value, interval and `fights` of every row.
fn deltas(sb: &Sandbox, report: &str) -> Vec<(f64, f64, f64, f64)> {
    let text = fs::read_to_string(sb.join(&format!("{report}/cells.csv"))).unwrap();
    let (header, rows) = parse_csv(&text);
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    rows.iter()
        .map(|r| {
            let v = |name: &str| r[col(name)].parse::<f64>().unwrap();
            (
                v("delta_win_rate_attackers"),
                v("delta_win_rate_attackers_lo"),
                v("delta_win_rate_attackers_hi"),
                v("fights"),
            )
        })
        .collect()
}

#[test]
fn paired_intervals_are_narrower_than_independent_ones() {
    let sb = Sandbox::new();
    // 49 batches per cell: enough for the batch-means spread to be stable.
    sb.run_small("paired", &["--fights", "200000"]);
    sb.run_small("indep", &["--fights", "200000", "--independent-streams"]);
    let (paired, indep) = (deltas(&sb, "paired/small"), deltas(&sb, "indep/small"));
    // The baseline (cell 0) differs from itself by exactly 0.
    assert_eq!(paired[0].0, 0.0);
    assert_eq!((paired[0].1, paired[0].2), (0.0, 0.0));
    let width = |d: &[(f64, f64, f64, f64)]| d[1..].iter().map(|r| r.2 - r.1).sum::<f64>();
    assert!(
        width(&paired) < width(&indep),
        "paired {paired:?} vs independent {indep:?}"
    );
    let md = fs::read_to_string(sb.join("indep/small/summary.md")).unwrap();
    assert!(md.contains("independent streams"), "{md}");
}

#[test]
fn a_named_baseline_is_compared_with() {
    let sb = Sandbox::new();
    let text = edit(
        SMALL,
        &[(
            "\"units.brawler.hp\" = [8, 12]",
            "\"units.brawler.hp\" = [8, 12]\nbaseline = { \"options.crit\" = \"none\", \"units.brawler.hp\" = 12 }",
        )],
    );
    sb.write("small.toml", &text);
    let o = sb.run(&["run", "small.toml", "--out", "out", "--quiet"]);
    assert_eq!(o.code, 0, "{o:#?}");
    let d = deltas(&sb, "out/small");
    // Cells: (double-dice, 8), (double-dice, 12), (none, 8), (none, 12).
    assert_eq!((d[3].0, d[3].1, d[3].2), (0.0, 0.0, 0.0));
    assert_ne!(d[0].0, 0.0);
    let md = fs::read_to_string(sb.join("out/small/summary.md")).unwrap();
    assert!(md.contains("**Baseline:** cell 3: none / 12"), "{md}");

    for (baseline, needle) in [
        ("{ \"options.nope\" = 1 }", "is not an axis of the matrix"),
        (
            "{ \"units.brawler.hp\" = 9 }",
            "is not one of this axis's values (valid: `8` or `12`)",
        ),
        ("3", "expected a table"),
    ] {
        let text = edit(
            SMALL,
            &[(
                "\"units.brawler.hp\" = [8, 12]",
                &format!("\"units.brawler.hp\" = [8, 12]\nbaseline = {baseline}"),
            )],
        );
        sb.write("bad.toml", &text);
        let o = sb.run(&["run", "bad.toml", "--out", "bad", "--quiet"]);
        assert_eq!(o.code, 2, "{baseline}: {o:#?}");
        assert!(o.stderr.contains("matrix.baseline"), "{}", o.stderr);
        assert!(o.stderr.contains(needle), "{}", o.stderr);
        assert!(o.stderr.contains("bad.toml:"), "{}", o.stderr);
        assert_eq!(sb.entries("bad"), Vec::<String>::new());
    }
}

#[test]
fn precision_runs_are_deterministic_and_report_the_cap() {
    let sb = Sandbox::new();
    let args = ["--precision", "0.01", "--max-fights", "200000"];
    let mut one = vec!["--threads", "1"];
    one.extend(args);
    let mut two = vec!["--threads", "2"];
    two.extend(args);
    sb.run_small("t1", &one);
    sb.run_small("t2", &two);
    assert_same_report(&sb, "t1/small", "t2/small");
    let text = fs::read_to_string(sb.join("t1/small/cells.csv")).unwrap();
    let (header, rows) = parse_csv(&text);
    assert_eq!(header.last().map(String::as_str), Some("capped"));
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    // The fixture's 2000 fights to start, a cap of 200,000: batches of 128.
    let batch = f64::from(
        skirmish::run::Budget::Precision {
            fights: 2000,
            target: 0.01,
            max_fights: 200_000,
        }
        .batch(),
    );
    assert_eq!(batch, 128.0);
    for row in &rows {
        let f = |name: &str| row[col(name)].parse::<f64>().unwrap();
        assert_eq!(row[col("capped")], "0", "{text}");
        // Whole batches, at least 8 of them, and the target is met.
        assert_eq!(f("fights") % batch, 0.0);
        assert!(f("fights") >= 8.0 * batch);
        assert!((f("win_rate_attackers_hi") - f("win_rate_attackers_lo")) / 2.0 <= 0.01 + 1e-4);
        assert!(
            (f("delta_win_rate_attackers_hi") - f("delta_win_rate_attackers_lo")) / 2.0
                <= 0.01 + 1e-4
        );
    }
    // A cap too small for the target: every cell stops on it, and says so.
    sb.run_small("cap", &["--precision", "0.001", "--max-fights", "40000"]);
    let text = fs::read_to_string(sb.join("cap/small/cells.csv")).unwrap();
    let (header, rows) = parse_csv(&text);
    let capped = header.iter().position(|h| h == "capped").unwrap();
    assert!(rows.iter().all(|r| r[capped] == "1"), "{text}");
    let md = fs::read_to_string(sb.join("cap/small/summary.md")).unwrap();
    assert!(md.contains("stopped at the cap"), "{md}");
    // A precision out of range is bad input.
    let o = sb.run(&["run", "small.toml", "--precision", "2", "--out", "bad"]);
    assert_eq!(o.code, 2, "{o:#?}");
}

// ---------------------------------------------------------------------------
// diff
// ---------------------------------------------------------------------------

#[test]
fn diff_finds_no_change_between_identical_reports_and_a_changed_rule() {
    let sb = Sandbox::new();
    sb.run_small("a", &[]);
    sb.run_small("b", &[]);
    let o = sb.run(&["diff", "a/small", "b/small", "--fail-on-change"]);
    assert_eq!(o.code, 0, "{o:#?}");
    assert!(o.stdout.contains("no cell moved"), "{}", o.stdout);
    assert_eq!(
        sb.entries("diffs/small"),
        [".skirmish-report", "diff.csv", "diff.md", "diff.png"]
    );

    // One defender fewer: both sides' rates move. (A better knife would
    // not do: both sides carry it, so it moves the rates by chance only.)
    sb.write("small.toml", &edit(SMALL, &[ONE_DEFENDER]));
    let o = sb.run(&["run", "small.toml", "--out", "c", "--quiet"]);
    assert_eq!(o.code, 0, "{o:#?}");
    let o = sb.run(&["diff", "a/small", "c/small", "--out", "d"]);
    assert_eq!(o.code, 0, "without --fail-on-change: {o:#?}");
    assert!(
        o.stdout.contains("moved beyond the 95% interval"),
        "{}",
        o.stdout
    );
    let o = sb.run(&[
        "diff",
        "a/small",
        "c/small",
        "--out",
        "d",
        "--fail-on-change",
    ]);
    assert_eq!(o.code, 1, "{o:#?}");
    let md = fs::read_to_string(sb.join("d/small/diff.md")).unwrap();
    assert!(md.contains("| yes |"), "{md}");
    let png = fs::read(sb.join("d/small/diff.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
}

#[test]
fn diff_against_a_git_revision() {
    let sb = Sandbox::new();
    sb.commit_small_report();
    let o = sb.run(&["diff", "reports/small", "--rev", "HEAD", "--fail-on-change"]);
    assert_eq!(o.code, 0, "{o:#?}");
    sb.write("small.toml", &edit(SMALL, &[ONE_DEFENDER]));
    let o = sb.run(&["run", "small.toml", "--out", "reports", "--quiet"]);
    assert_eq!(o.code, 0, "{o:#?}");
    let o = sb.run(&["diff", "reports/small", "--rev", "HEAD", "--fail-on-change"]);
    assert_eq!(o.code, 1, "{o:#?}");
    assert!(o.stdout.contains("at HEAD"), "{}", o.stdout);
    // A revision that does not exist: bad input.
    let o = sb.run(&["diff", "reports/small", "--rev", "nope", "--out", "x"]);
    assert_eq!(o.code, 2, "{o:#?}");
    assert!(o.stderr.contains("git show nope"), "{}", o.stderr);
    assert_eq!(sb.entries("x"), Vec::<String>::new());
}

#[test]
fn diff_of_different_scenarios_is_bad_input() {
    let sb = Sandbox::new();
    sb.run_small("a", &[]);
    sb.write(
        "other.toml",
        &edit(SMALL, &[("name = \"small\"", "name = \"other\"")]),
    );
    let o = sb.run(&["run", "other.toml", "--out", "b", "--quiet"]);
    assert_eq!(o.code, 0, "{o:#?}");
    let o = sb.run(&["diff", "a/small", "b/other", "--out", "x"]);
    assert_eq!(o.code, 2, "{o:#?}");
    assert!(o.stderr.contains("not of one scenario"), "{}", o.stderr);
    assert_eq!(sb.entries("x"), Vec::<String>::new());
    // Another matrix under the same name, sharing no cell (tests/diff.rs
    // has matrices that share some).
    sb.write(
        "small.toml",
        &edit(
            SMALL,
            &[(
                "\"units.brawler.hp\" = [8, 12]",
                "\"units.brawler.hp\" = [9, 14]",
            )],
        ),
    );
    let o = sb.run(&["run", "small.toml", "--out", "c", "--quiet"]);
    assert_eq!(o.code, 0, "{o:#?}");
    let o = sb.run(&["diff", "a/small", "c/small", "--out", "x"]);
    assert_eq!(o.code, 2, "{o:#?}");
    assert!(o.stderr.contains("share no cell"), "{}", o.stderr);
    // Not a report at all.
    let o = sb.run(&["diff", "a/small", "nowhere", "--out", "x"]);
    assert_eq!(o.code, 2, "{o:#?}");
    assert!(o.stderr.contains("nowhere/summary.md"), "{}", o.stderr);
    assert_eq!(sb.entries("x"), Vec::<String>::new());
}

// ---------------------------------------------------------------------------
// balance
// ---------------------------------------------------------------------------

/// `skirmish balance small.toml --axis sides.attackers.brawler.count --from 1
/// --to 6 --fights 2000 --out OUT --quiet EXTRA...` in `sb`: how many
/// attackers make an even fight against two defenders.
fn balance_small(sb: &Sandbox, out: &str, extra: &[&str]) -> Output {
    let file = sb.write("small.toml", SMALL);
    let mut args = vec![
        "balance",
        file,
        "--axis",
        "sides.attackers.brawler.count",
        "--side",
        "attackers",
        "--from",
        "1",
        "--to",
        "6",
        "--fights",
        "2000",
        "--out",
        out,
        "--quiet",
    ];
    args.extend_from_slice(extra);
    sb.run(&args)
}

#[test]
fn balance_writes_its_report_and_prints_the_bracket() {
    let sb = Sandbox::new();
    let o = balance_small(&sb, "out", &[]);
    assert_eq!(o.code, 0, "{o:#?}");
    assert_eq!(sb.entries("out"), ["small-balance"]);
    assert_eq!(
        sb.entries("out/small-balance"),
        [
            ".skirmish-report",
            "balance.md",
            "balance.png",
            "probes.csv"
        ]
    );
    assert!(
        o.stdout.contains("crosses 0.5 between the adjacent values"),
        "{o:#?}"
    );
    assert!(o.stdout.contains("(an estimate)"), "{o:#?}");
    let csv = fs::read_to_string(sb.join("out/small-balance/probes.csv")).unwrap();
    let (header, rows) = parse_csv(&csv);
    assert_eq!(
        header,
        ["probe", "value", "fights", "wins", "win_rate", "lo", "hi"]
    );
    // The two ends first; then bisection of 1..6 to adjacent values.
    assert_eq!((rows[0][1].as_str(), rows[1][1].as_str()), ("1", "6"));
    assert!(rows.len() >= 3 && rows.len() <= 5, "{csv}");
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row[0], (i + 1).to_string());
        assert_eq!(row[2], "2000");
    }
    let md = fs::read_to_string(sb.join("out/small-balance/balance.md")).unwrap();
    assert!(md.contains("![") && md.contains("balance.png"), "{md}");
    assert_eq!(md.matches("| bracket |").count(), 2, "{md}");
}

#[test]
fn balance_is_identical_across_thread_counts_and_checks_clean() {
    let sb = Sandbox::new();
    for (out, threads) in [("one", "1"), ("two", "2")] {
        let o = balance_small(&sb, out, &["--threads", threads]);
        assert_eq!(o.code, 0, "{o:#?}");
    }
    assert_same_report(&sb, "one/small-balance", "two/small-balance");
    let o = balance_small(&sb, "one", &["--check"]);
    assert_eq!(o.code, 0, "{o:#?}");
    assert!(o.stdout.contains("identical to"), "{o:#?}");
    // Another seed: the check finds a difference (exit 1).
    let o = balance_small(&sb, "one", &["--check", "--seed", "8"]);
    assert_eq!(o.code, 1, "{o:#?}");
    assert!(o.stdout.contains("differs from"), "{o:#?}");
}

/// Four riflemen shoot at one in full cover: the share of damage full cover
/// lets through (`options.full_cover_damage`, a float) decides the fight.
const REAL: &str = r#"
name = "real"
rules = "trenches"
fights = 2000
seed = 3
max_rounds = 30

[options]
full_cover_damage = 0.5

[weapons.rifle]
kind = "firearm"
attack = 4
damage = "1d10+2"
range = 600

[units.rifleman]
hp = 12
weapons = ["rifle"]

[sides.attackers]
rifleman = { count = 4 }

[sides.defenders]
rifleman = { count = 1, cover = "full" }
"#;

#[test]
fn balance_on_a_real_axis_bisects_to_the_tolerance() {
    let sb = Sandbox::new();
    let file = sb.write("real.toml", REAL);
    let o = sb.run(&[
        "balance",
        file,
        "--axis",
        "options.full_cover_damage",
        "--from",
        "0",
        "--to",
        "1",
        "--tolerance",
        "0.05",
        "--out",
        "out",
        "--quiet",
    ]);
    assert_eq!(o.code, 0, "{o:#?}");
    assert!(o.stdout.contains("crosses 0.5 in the interval"), "{o:#?}");
    let csv = fs::read_to_string(sb.join("out/real-balance/probes.csv")).unwrap();
    let (_, rows) = parse_csv(&csv);
    // 0, 1, then halvings until the bracket is at most 0.05 wide: 1/32.
    assert_eq!(rows.len(), 2 + 5, "{csv}");
    assert_eq!((rows[0][1].as_str(), rows[2][1].as_str()), ("0", "0.5"));
    // An integer axis takes no tolerance.
    let o = sb.run(&[
        "balance",
        file,
        "--axis",
        "units.rifleman.hp",
        "--side-copy",
        "attackers",
        "--from",
        "1",
        "--to",
        "30",
        "--tolerance",
        "0.5",
    ]);
    assert_eq!(o.code, 2, "{o:#?}");
    assert!(o.stderr.contains("--tolerance is for real axes"), "{o:#?}");
}

#[test]
fn balance_bad_input_exits_2_and_writes_nothing() {
    let sb = Sandbox::new();
    sb.write("small.toml", SMALL);
    let cases: &[(&[&str], &str)] = &[
        (
            &[
                "--axis",
                "sides.defenders.brawler.cover",
                "--from",
                "1",
                "--to",
                "3",
            ],
            "non-numeric balance axis `sides.defenders.brawler.cover`",
        ),
        (
            &["--axis", "units.brawler.hpp", "--from", "1", "--to", "3"],
            "did you mean `hp`?",
        ),
        (
            &[
                "--axis",
                "units.brawler.hp",
                "--side-copy",
                "attackers",
                "--side",
                "nobody",
            ],
            "`nobody` is not a side of the scenario (sides: `attackers` or `defenders`)",
        ),
        (
            &["--axis", "units.brawler.hp", "--from", "8", "--to", "12"],
            "`units.brawler` is fielded by sides attackers and defenders",
        ),
        (
            &[
                "--axis",
                "units.brawler.hp",
                "--side-copy",
                "nobody",
                "--from",
                "8",
                "--to",
                "12",
            ],
            "side `nobody` does not field `units.brawler`",
        ),
        (
            &[
                "--axis",
                "sides.attackers.brawler.count",
                "--from",
                "5",
                "--to",
                "6",
            ],
            "unreachable target: `attackers` wins",
        ),
        (
            &[
                "--axis",
                "sides.attackers.brawler.count",
                "--from",
                "0",
                "--to",
                "3",
            ],
            "in cell 0 (sides.attackers.brawler.count = 0)",
        ),
        (
            &["--axis", "units.brawler.hp", "--target", "1"],
            "strictly between 0 and 1",
        ),
        (
            &[
                "--axis",
                "units.brawler.hp",
                "--side-copy",
                "attackers",
                "--from",
                "9",
                "--to",
                "3",
            ],
            "less than the upper bound",
        ),
        (
            &["--axis", "sides.attackers.brawler.count", "--from", "1"],
            "give --from and --to",
        ),
    ];
    for (extra, wanted) in cases {
        let mut args = vec!["balance", "small.toml", "--fights", "500", "--quiet"];
        args.extend_from_slice(extra);
        let o = sb.run(&args);
        assert_eq!(o.code, 2, "{extra:?}: {o:#?}");
        assert!(
            o.stderr.contains(wanted),
            "{extra:?}: wanted {wanted:?} in {o:#?}"
        );
        assert_eq!(sb.entries(""), ["small.toml"], "{extra:?} wrote something");
    }
}
