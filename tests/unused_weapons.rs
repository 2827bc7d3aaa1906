//! A unit that never uses its weapons (issue 26, section 1): when every
//! unit holds, no unit ever moves toward an enemy, so a weapon whose reach
//! is shorter than the nearest the two sides' units start from each other
//! is never used. The loader warns, naming the group and the weapon, on the
//! terminal and in summary.md; it never warns where a unit may close in.

mod common;

use std::fs;

use common::{edit, parse_csv, Sandbox, SMALL};

/// The fixture (knife fighters) with both sides holding, the defenders
/// `distance` metres behind the line.
fn holding(distance: u32) -> String {
    edit(
        SMALL,
        &[
            (
                "brawler = { count = 2 }",
                "brawler = { count = 2, tactic = \"hold\" }",
            ),
            (
                "brawler = { count = 2, cover = \"half\" }",
                &format!("brawler = {{ count = 2, tactic = \"hold\", distance = {distance} }}"),
            ),
        ],
    )
}

#[test]
fn knife_fighters_holding_out_of_reach_are_told_they_never_attack() {
    let sb = Sandbox::new();
    let file = sb.write("s.toml", &holding(10));
    let warning = "`brawler` of side `attackers` never uses its `knife` (reach";
    let o = sb.run(&["validate", file]);
    assert_eq!(o.code, 0, "{o:#?}");
    assert!(
        o.stderr.contains(&format!("small: warning: {warning}")),
        "{}",
        o.stderr
    );
    assert!(o.stderr.contains("so it never attacks"), "{}", o.stderr);
    assert!(
        o.stderr.contains("`brawler` of side `defenders`"),
        "{}",
        o.stderr
    );
    let o = sb.run(&["run", file, "--out", "out", "--quiet"]);
    assert_eq!(o.code, 0, "{o:#?}");
    // Said once, when the scenario is loaded (not again after the run).
    assert_eq!(o.stderr.matches(warning).count(), 1, "{}", o.stderr);
    let summary = fs::read_to_string(sb.join("out/small/summary.md")).expect("summary");
    assert!(summary.contains("## Read this first"), "{summary}");
    assert!(summary.contains(warning), "{summary}");
    // And it is so: nobody dealt any harm in any cell.
    let csv = fs::read_to_string(sb.join("out/small/cells.csv")).expect("cells.csv");
    let (header, rows) = parse_csv(&csv);
    for name in ["damage_attackers", "damage_defenders"] {
        let at = header.iter().position(|h| h == name).expect(name);
        assert!(
            rows.iter().all(|r| r[at].parse::<f64>() == Ok(0.0)),
            "{csv}"
        );
    }
}

#[test]
fn no_warning_where_a_unit_may_close_in_or_is_already_in_reach() {
    for (text, why) in [
        (SMALL.to_owned(), "both sides advance"),
        (holding(0), "both hold, in reach of each other"),
        (
            edit(
                &holding(10),
                &[("tactic = \"hold\" }", "tactic = \"advance\" }")],
            ),
            "the attackers advance",
        ),
    ] {
        let sb = Sandbox::new();
        let file = sb.write("s.toml", &text);
        let o = sb.run(&["validate", file]);
        assert_eq!(o.code, 0, "{why}: {o:#?}");
        assert!(!o.stderr.contains("warning"), "{why}: {}", o.stderr);
    }
}

#[test]
fn among_the_examples_only_holding_shooters_with_bayonets_and_clubs_are_warned() {
    // Every example scenario loads without a false warning: those that warn
    // are the ones where every unit holds, out of reach of a melee weapon
    // (over_the_top's and trench_raid's defenders' bayonets, the raiders'
    // trench clubs).
    let mut warned = Vec::new();
    for entry in fs::read_dir("scenarios").expect("scenarios") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let o = common::skirmish_in(
            std::path::Path::new("."),
            &["validate", path.to_str().unwrap()],
        );
        assert_eq!(o.code, 0, "{o:#?}");
        for line in o.stderr.lines().filter(|l| l.contains("warning")) {
            assert!(
                line.contains("`bayonet` (reach 5 m)")
                    || line.contains("`trench_club` (reach 5 m)"),
                "{line}"
            );
            warned.push(path.file_stem().unwrap().to_string_lossy().into_owned());
        }
    }
    warned.sort();
    warned.dedup();
    assert_eq!(warned, ["over_the_top", "trench_raid"]);
}
