//! Bad input, every key class: every setting of a scenario either changes
//! the simulation as documented or is refused at load time with exit 2, a
//! message naming the file, the line and the key and why, and nothing
//! written (issue 17, section 2). Also the command line's rough edges
//! (`--fights -1`, `--fights 1e12`), `validate` on several files, CRLF
//! scenarios, duplicate TOML keys and malformed reports given to `diff`.
//!
//! Cases are edits of the `small` fixture (tests/fixtures/small.toml), as in
//! tests/cli.rs, so each is one line of data.

mod common;

use std::fs;

use common::{edit, line_of, parse_csv, read_report, Output, Sandbox, SMALL};

/// One bad scenario: edits of `small.toml`, what stderr must contain, and
/// the text on the line the error must name.
struct Case {
    name: &'static str,
    edits: &'static [(&'static str, &'static str)],
    expect: &'static [&'static str],
    at: &'static str,
}

/// A tiny `osr` scenario (osr has no cover rules and no deafened or
/// frightened condition).
const OSR: &str = r#"name = "osr_small"
rules = "osr"
fights = 500

[weapons.sword]
damage = "1d8"

[units.guard]
hp = 8
weapons = ["sword"]

[sides.a]
guard = { count = 1 }

[sides.b]
guard = { count = 1 }
"#;

/// Every key class: top-level keys, options, weapons, units, sides, matrix.
const CASES: &[Case] = &[
    // --- top-level keys -------------------------------------------------
    Case {
        name: "duplicate_top_level_key",
        edits: &[("seed = 7\n", "seed = 7\nseed = 8\n")],
        expect: &["duplicate key `seed`", "already set on line 9"],
        at: "seed = 8",
    },
    Case {
        name: "max_rounds_zero",
        edits: &[("max_rounds = 50", "max_rounds = 0")],
        expect: &["`max_rounds`", "from 1 to", "found 0"],
        at: "max_rounds = 0",
    },
    Case {
        name: "precision_out_of_range",
        edits: &[("seed = 7", "seed = 7\nprecision = 0.9")],
        expect: &["`precision`", "0.9"],
        at: "precision = 0.9",
    },
    Case {
        name: "description_not_text",
        edits: &[(
            "description = \"Two knife fighters a side: crit rule x hit points\"",
            "description = 3",
        )],
        expect: &["`description`", "expected a string"],
        at: "description = 3",
    },
    // --- options ----------------------------------------------------------
    Case {
        name: "unknown_option",
        edits: &[(
            "[weapons.knife]",
            "[options]\ncritt = \"none\"\n\n[weapons.knife]",
        )],
        expect: &["`options.critt`", "did you mean `crit`"],
        at: "critt",
    },
    Case {
        name: "engine_option_bad_choice",
        edits: &[(
            "[weapons.knife]",
            "[options]\ninitiative = \"fastest\"\n\n[weapons.knife]",
        )],
        expect: &["`options.initiative`", "fastest", "rerolled"],
        at: "initiative = \"fastest\"",
    },
    // --- weapons ----------------------------------------------------------
    Case {
        name: "unknown_weapon_key",
        edits: &[("attack = 3", "attak = 3")],
        expect: &["`weapons.knife.attak`", "did you mean `attack`"],
        at: "attak",
    },
    Case {
        name: "weapon_bad_dice",
        edits: &[("damage = \"1d6+1\"", "damage = \"1d\"")],
        expect: &["`weapons.knife.damage`", "1d"],
        at: "damage = \"1d\"",
    },
    Case {
        name: "weapon_kind_unknown",
        edits: &[("kind = \"melee\"", "kind = \"laser\"")],
        expect: &["`weapons.knife.kind`", "laser", "firearm"],
        at: "kind = \"laser\"",
    },
    // --- units ------------------------------------------------------------
    Case {
        name: "duplicate_unit_table",
        edits: &[(
            "[sides.attackers]",
            "[units.brawler] # again\nhp = 3\n\n[sides.attackers]",
        )],
        expect: &["the table `[units.brawler]` is written twice", "line 17"],
        at: "# again",
    },
    Case {
        name: "unit_dex_out_of_range",
        edits: &[("dex = 1", "dex = -40")],
        expect: &["`units.brawler.dex`", "-40"],
        at: "dex = -40",
    },
    // --- sides ------------------------------------------------------------
    Case {
        name: "duplicate_key_in_inline_table",
        edits: &[(
            "brawler = { count = 2 }",
            "brawler = { count = 2, count = 3 }",
        )],
        expect: &["duplicate key `count`", "already set on line"],
        at: "count = 3",
    },
    Case {
        name: "unknown_condition",
        edits: &[(
            "brawler = { count = 2 }",
            "brawler = { count = 2, conditions = [\"sleepy\"] }",
        )],
        expect: &["`sides.attackers.brawler.conditions`", "sleepy", "prone"],
        at: "sleepy",
    },
    Case {
        name: "unknown_target_policy",
        edits: &[(
            "brawler = { count = 2 }",
            "brawler = { count = 2, target = \"closest\" }",
        )],
        expect: &["`sides.attackers.brawler.target`", "closest", "nearest"],
        at: "closest",
    },
    // --- matrix: run-wide keys are not axes --------------------------------
    Case {
        name: "axis_on_seed",
        edits: &[("[matrix]\n", "[matrix]\nseed = [1, 2]\n")],
        expect: &["`seed` cannot be a matrix axis", "--seed"],
        at: "seed = [1, 2]",
    },
    Case {
        name: "axis_on_fights",
        edits: &[("[matrix]\n", "[matrix]\nfights = [100, 200]\n")],
        expect: &["`fights` cannot be a matrix axis", "precision"],
        at: "fights = [100, 200]",
    },
    Case {
        name: "axis_on_precision",
        edits: &[("[matrix]\n", "[matrix]\nprecision = [0.01, 0.02]\n")],
        expect: &["`precision` cannot be a matrix axis", "whole run"],
        at: "precision = [0.01",
    },
    Case {
        name: "axis_on_max_fights",
        edits: &[("[matrix]\n", "[matrix]\nmax_fights = [10000, 20000]\n")],
        expect: &["`max_fights` cannot be a matrix axis", "whole run"],
        at: "max_fights = [",
    },
    Case {
        name: "axis_on_description",
        edits: &[("[matrix]\n", "[matrix]\ndescription = [\"a\", \"b\"]\n")],
        expect: &["`description` cannot be a matrix axis"],
        at: "description = [",
    },
    Case {
        name: "axis_on_rules",
        edits: &[("[matrix]\n", "[matrix]\nrules = [\"trenches\", \"osr\"]\n")],
        expect: &["`rules` cannot be a matrix axis", "one scenario"],
        at: "rules = [",
    },
    Case {
        name: "max_rounds_axis_value_out_of_range",
        edits: &[("[matrix]\n", "[matrix]\nmax_rounds = [10, 0]\n")],
        expect: &["max_rounds = 0", "`max_rounds`", "from 1 to"],
        at: "max_rounds = [10, 0]",
    },
    Case {
        name: "axis_path_missing",
        edits: &[(
            "\"units.brawler.hp\" = [8, 12]",
            "\"units.bruiser.hp\" = [8, 12]",
        )],
        expect: &["`units.bruiser.hp`", "has no `bruiser`", "`brawler`"],
        at: "units.bruiser.hp",
    },
    Case {
        // Every cell overrides the base's hit points, so the base's value
        // would be ignored: a bad one is refused, not passed over.
        name: "base_value_every_cell_overrides",
        edits: &[("hp = 10\n", "hp = -4\n")],
        expect: &["`units.brawler.hp`", "-4"],
        at: "hp = -4",
    },
];

/// Runs one invocation that must be refused (see
/// [`common::check_rejected`]); returns what went wrong.
fn refused(sb: &Sandbox, args: &[&str], files: &[&str], expect: &[&str]) -> Vec<String> {
    common::check_rejected(sb, args, files, expect).1
}

#[test]
fn every_key_class_is_refused_at_its_line_with_the_reason() {
    let mut failures = Vec::new();
    for case in CASES {
        let sb = Sandbox::new();
        sb.mkdir("out");
        let text = edit(SMALL, case.edits);
        let file = format!("{}.toml", case.name);
        sb.write(&file, &text);
        let mut expect = vec![format!("{file}:{}:", line_of(&text, case.at))];
        expect.extend(case.expect.iter().map(|s| s.to_string()));
        let expect: Vec<&str> = expect.iter().map(String::as_str).collect();
        for args in [
            vec!["run", &file, "--out", "out", "--quiet"],
            vec!["validate", &file],
        ] {
            let problems = refused(&sb, &args, &[&file], &expect);
            if !problems.is_empty() {
                failures.push(format!("[{}] {}", case.name, problems.join("\n  ")));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}

/// Settings a ruleset does not model: refused, naming the ruleset, the key
/// and the reason; directly or through a matrix axis (then naming the cell).
#[test]
fn cover_and_conditions_a_ruleset_ignores_are_refused() {
    let osr_cover = edit(
        OSR,
        &[(
            "guard = { count = 1 }\n\n",
            "guard = { count = 1, cover = \"half\" }\n\n",
        )],
    );
    let osr_deafened = edit(
        OSR,
        &[(
            "guard = { count = 1 }\n\n",
            "guard = { count = 1, conditions = [\"prone\", \"deafened\"] }\n\n",
        )],
    );
    let osr_cover_axis =
        format!("{OSR}\n[matrix]\n\"sides.b.guard.cover\" = [\"none\", \"full\"]\n");
    // dicestep models cover, but only through the Seek Cover action: a unit
    // that never seeks it gains nothing from standing in cover.
    let dicestep_cover = r#"name = "d"
rules = "dicestep"
fights = 10

[weapons.knife]
damage = 4

[units.scout]
evasion = 6
endurance = 4
health = 4
weapons = ["knife"]

[sides.a]
scout = { cover = "half" }

[sides.b]
scout = { distance = 3 }
"#;
    let cases: &[(&str, &str, &str, &[&str])] = &[
        (
            "cover.toml",
            &osr_cover,
            "cover = \"half\"",
            &[
                "`sides.a.guard.cover`",
                "`osr` does not model cover",
                "no cover rules",
            ],
        ),
        (
            "deafened.toml",
            &osr_deafened,
            "deafened",
            &[
                "`sides.a.guard.conditions`",
                "`deafened`",
                "conditions it models",
                "`prone`",
            ],
        ),
        (
            "seek.toml",
            dicestep_cover,
            "cover = \"half\"",
            &["`sides.a.scout.cover`", "Seek Cover", "seek_cover = true"],
        ),
        (
            "axis.toml",
            &osr_cover_axis,
            "\"sides.b.guard.cover\"",
            &["in cell 1", "full", "does not model cover"],
        ),
    ];
    let mut failures = Vec::new();
    for (file, text, at, expect) in cases {
        let sb = Sandbox::new();
        sb.mkdir("out");
        sb.write(file, text);
        let mut all = vec![format!("{file}:{}:", line_of(text, at))];
        all.extend(expect.iter().map(|s| s.to_string()));
        let all: Vec<&str> = all.iter().map(String::as_str).collect();
        for args in [
            vec!["validate", *file],
            vec!["run", *file, "--out", "out", "-q"],
        ] {
            failures.extend(refused(&sb, &args, &[file], &all));
        }
    }
    // The same settings where the ruleset models them are accepted: cover
    // and `prone` in trenches (the fixture has half cover).
    let sb = Sandbox::new();
    let ok = edit(
        SMALL,
        &[(
            "brawler = { count = 2 }",
            "brawler = { count = 2, conditions = [\"prone\", \"deafened\"] }",
        )],
    );
    sb.write("ok.toml", &ok);
    let o = sb.run(&["validate", "ok.toml"]);
    if o.code != 0 {
        failures.push(format!("trenches cover/conditions refused: {o:#?}"));
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// `skirmish rules NAME` says which shared settings it ignores.
#[test]
fn rules_lists_the_shared_settings_a_ruleset_does_not_model() {
    let sb = Sandbox::new();
    let osr = sb.run(&["rules", "osr"]);
    assert_eq!(osr.code, 0, "{osr:#?}");
    let section = osr
        .stdout
        .split("Shared axes not modelled")
        .nth(1)
        .expect("a section on unmodelled shared axes");
    let section = section.split("\n\n").next().unwrap();
    for word in [
        "refused",
        "cover",
        "deafened",
        "frightened",
        "no cover rules",
    ] {
        assert!(section.contains(word), "lacks {word}: {section}");
    }
    assert!(
        !section.contains("\"prone\""),
        "osr models prone: {section}"
    );
    let thrum = sb.run(&["rules", "thrum"]).stdout;
    assert!(thrum.contains("conditions = [\"prone\"]"), "{thrum}");
    let trenches = sb.run(&["rules", "trenches"]).stdout;
    assert!(
        trenches.contains("none: cover and every condition have an effect"),
        "{trenches}"
    );
}

/// `max_rounds` as an axis works: how often fights time out, per cell.
#[test]
fn max_rounds_axis_changes_how_often_fights_time_out() {
    let sb = Sandbox::new();
    let text = edit(
        SMALL,
        &[
            ("\"options.crit\" = [\"double-dice\", \"none\"]\n", ""),
            ("\"units.brawler.hp\" = [8, 12]", "max_rounds = [1, 3, 50]"),
        ],
    );
    sb.write("small.toml", &text);
    let o = sb.run(&["run", "small.toml", "--out", "out", "-q"]);
    assert_eq!(o.code, 0, "{o:#?}");
    let csv = fs::read_to_string(sb.join("out/small/cells.csv")).unwrap();
    let (header, rows) = parse_csv(&csv);
    assert_eq!(header[1], "max_rounds", "{csv}");
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let draws: Vec<u64> = rows
        .iter()
        .map(|r| r[col("draws")].parse().unwrap())
        .collect();
    let rounds_max: Vec<f64> = rows
        .iter()
        .map(|r| r[col("rounds_p90")].parse().unwrap())
        .collect();
    // Two knife fighters a side rarely finish in one round: nearly every
    // fight is a draw at cap 1, fewer at 3, (almost) none at 50.
    assert!(draws[0] >= 1900, "{csv}");
    assert!(draws[1] < draws[0] && draws[2] < draws[1], "{csv}");
    assert!(rounds_max[0] <= 1.0 && rounds_max[1] <= 3.0, "{csv}");
    let summary = fs::read_to_string(sb.join("out/small/summary.md")).unwrap();
    assert!(
        summary.contains("per cell (matrix axis `max_rounds`)"),
        "{summary}"
    );
}

/// Command-line numbers: clear messages, exit 2, nothing written; a run too
/// big to finish is refused before any work.
#[test]
fn fight_counts_on_the_command_line_are_checked_before_any_work() {
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["--fights", "-1"],
            &["--fights", "whole number of fights", "`-1`"],
        ),
        (
            &["--fights", "1e16"],
            &["--fights", "more than a run can fight"],
        ),
        (&["--fights", "2.5"], &["--fights", "`2.5`"]),
        (&["--max-fights", "-5"], &["--max-fights", "`-5`"]),
        (&["--seed", "-1"], &["--seed", "`-1`"]),
        // 4 cells × 3e14 fights: each cell is within bounds, the run is not.
        (
            &["--fights", "3e14"],
            &[
                "small.toml",
                "4 cells",
                "1200000000000000 fights",
                "at most",
            ],
        ),
        (
            &["--precision", "0.01", "--max-fights", "5e14"],
            &["small.toml", "`max_fights`", "at most"],
        ),
    ];
    let mut failures = Vec::new();
    for (extra, expect) in cases {
        let sb = Sandbox::new();
        sb.mkdir("out");
        sb.write("small.toml", SMALL);
        let mut args = vec!["run", "small.toml", "--out", "out", "--quiet"];
        args.extend_from_slice(extra);
        failures.extend(refused(&sb, &args, &["small.toml"], expect));
    }
    // The shorthand itself is accepted.
    let sb = Sandbox::new();
    sb.write("small.toml", SMALL);
    let o = sb.run(&["run", "small.toml", "--out", "out", "-q", "--fights", "1e3"]);
    if o.code != 0 || !o.stdout.contains("4,000 fights") {
        failures.push(format!("--fights 1e3: {o:#?}"));
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// `validate` checks every file and reports each, then exits 2 if any failed.
#[test]
fn validate_reports_every_bad_file_not_just_the_first() {
    let sb = Sandbox::new();
    sb.write("good.toml", SMALL);
    sb.write(
        "bad1.toml",
        &edit(
            SMALL,
            &[
                ("name = \"small\"", "name = \"b1\""),
                ("attack = 3", "attack = \"x\""),
            ],
        ),
    );
    sb.write(
        "bad2.toml",
        &edit(
            SMALL,
            &[
                ("name = \"small\"", "name = \"b2\""),
                ("[matrix]\n", "[matrix]\nseed = [1]\n"),
            ],
        ),
    );
    let o: Output = sb.run(&["validate", "bad1.toml", "good.toml", "bad2.toml"]);
    assert_eq!(o.code, 2, "{o:#?}");
    assert!(
        o.stderr.contains("bad1.toml:") && o.stderr.contains("`weapons.knife.attack`"),
        "{o:#?}"
    );
    assert!(
        o.stderr.contains("bad2.toml:") && o.stderr.contains("`seed` cannot be"),
        "{o:#?}"
    );
    assert!(o.stderr.contains("2 of 3 files failed"), "{o:#?}");
    assert!(o.stdout.contains("good.toml: ok"), "{o:#?}");
    assert_eq!(sb.entries(""), ["bad1.toml", "bad2.toml", "good.toml"]);
}

/// A scenario saved with Windows line ends reads exactly like the same file
/// with Unix ones: the same report, byte for byte, and `--check` passes
/// across the two (a multi-line description used to carry `\r` into
/// summary.md).
#[test]
fn a_crlf_scenario_gives_the_same_report_and_checks_clean() {
    let sb = Sandbox::new();
    let lf = edit(
        SMALL,
        &[(
            "description = \"Two knife fighters a side: crit rule x hit points\"",
            "description = \"\"\"Two knife fighters a side:\ncrit rule x hit points\"\"\"",
        )],
    );
    let crlf = lf.replace('\n', "\r\n");
    // One file, saved each way in turn: fights.md names the scenario file
    // in its commands, so both runs read it at the same path.
    for (text, out) in [(&lf, "out_lf"), (&crlf, "out_crlf")] {
        sb.write("small.toml", text);
        let o = sb.run(&["run", "small.toml", "--out", out, "-q"]);
        assert_eq!(o.code, 0, "{o:#?}");
    }
    let (a, b) = (
        read_report(&sb.join("out_lf/small")),
        read_report(&sb.join("out_crlf/small")),
    );
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (name, bytes) in &a {
        assert!(
            bytes == &b[name],
            "{name} differs between the LF and CRLF runs"
        );
        assert!(
            !bytes.windows(2).any(|w| w == b"\r\n") || name.ends_with(".png"),
            "{name} has CRLF"
        );
    }
    let o = sb.run(&["run", "small.toml", "--out", "out_lf", "-q", "--check"]);
    assert_eq!(o.code, 0, "{o:#?}");
}

/// `diff` refuses a report whose counts no run could have written.
#[test]
fn diff_refuses_a_report_whose_wins_exceed_its_fights() {
    let sb = Sandbox::new();
    sb.write("small.toml", SMALL);
    let o = sb.run(&["run", "small.toml", "--out", "a", "-q"]);
    assert_eq!(o.code, 0, "{o:#?}");
    let o = sb.run(&["run", "small.toml", "--out", "b", "-q"]);
    assert_eq!(o.code, 0, "{o:#?}");
    let csv_path = sb.join("b/small/cells.csv");
    let csv = fs::read_to_string(&csv_path).unwrap();
    let (header, rows) = parse_csv(&csv);
    let wins = header.iter().position(|h| h == "wins_attackers").unwrap();
    let fights: u64 = rows[1][header.iter().position(|h| h == "fights").unwrap()]
        .parse()
        .unwrap();
    let mut lines: Vec<String> = csv.lines().map(str::to_string).collect();
    let mut fields: Vec<String> = lines[2].split(',').map(str::to_string).collect();
    fields[wins] = (fights + 1).to_string();
    lines[2] = fields.join(",");
    fs::write(&csv_path, lines.join("\n") + "\n").unwrap();
    sb.mkdir("out");
    let before = sb.entries("");
    let o = sb.run(&["diff", "a/small", "b/small", "--out", "out"]);
    assert_eq!(o.code, 2, "{o:#?}");
    for s in ["b/small/cells.csv line 3", "`wins`", "at most `fights`"] {
        assert!(o.stderr.contains(s), "lacks {s}: {o:#?}");
    }
    assert!(
        sb.entries("out").is_empty(),
        "diff wrote {:?}",
        sb.entries("out")
    );
    assert_eq!(sb.entries(""), before);
}
