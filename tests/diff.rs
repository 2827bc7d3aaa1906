//! `skirmish diff` end to end (README "Commands" and "Comparing variants",
//! report diffs): reports of matrices that differ are compared on the cells
//! they share, matched by axis values; what changed in the scenario is said;
//! reports that share no cell are refused with their cells one a line; and
//! `--rev` never reaches git as an option.

mod common;

use std::fs;

use common::{edit, parse_csv, Sandbox, SMALL};

/// The `small` fixture's hit-point axis, and the same axis with a value
/// added in the middle (which shifts the numbers of the cells after it).
const HP_AXIS: &str = "\"units.brawler.hp\" = [8, 12]";
const HP_AXIS_ADDED: &str = "\"units.brawler.hp\" = [8, 10, 12]";

#[test]
fn a_matrix_with_an_added_value_is_compared_on_the_cells_both_have() {
    let sb = Sandbox::new();
    sb.run_small("a", &[]);
    // A value added to an axis, and a stat of the base scenario changed.
    sb.write(
        "small.toml",
        &edit(SMALL, &[(HP_AXIS, HP_AXIS_ADDED), ("dex = 1", "dex = 2")]),
    );
    let o = sb.run(&["run", "small.toml", "--out", "b", "--quiet"]);
    assert_eq!(o.code, 0, "{o:#?}");
    let o = sb.run(&["diff", "a/small", "b/small", "--out", "d"]);
    assert_eq!(o.code, 0, "{o:#?}");
    assert!(
        o.stdout
            .contains("2 cells only in the new report, not compared")
            && o.stdout.contains("  1: double-dice / 10\n  4: none / 10\n"),
        "{}",
        o.stdout
    );

    // diff.csv: the four shared cells, each side, matched by axis values:
    // new cells 0, 2, 3, 5 are old cells 0, 1, 2, 3.
    let (header, rows) = parse_csv(&fs::read_to_string(sb.join("d/small/diff.csv")).unwrap());
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let pairs: Vec<(String, String, String, String)> = rows
        .iter()
        .map(|r| {
            (
                r[col("cell")].clone(),
                r[col("old_cell")].clone(),
                r[col("options.crit")].clone(),
                r[col("units.brawler.hp")].clone(),
            )
        })
        .collect();
    let expected: Vec<(String, String, String, String)> = [
        ("0", "0", "double-dice", "8"),
        ("2", "1", "double-dice", "12"),
        ("3", "2", "none", "8"),
        ("5", "3", "none", "12"),
    ]
    .iter()
    .flat_map(|&(c, o, crit, hp)| {
        let row = (c.into(), o.into(), crit.into(), hp.into());
        [row.clone(), row]
    })
    .collect();
    assert_eq!(pairs, expected);

    // diff.md: the shared cells with both numbers, what changed in the
    // scenario, and the cells only the new report has.
    let md = fs::read_to_string(sb.join("d/small/diff.md")).unwrap();
    assert!(
        md.contains("| 1 → 2 | double-dice / 12 | attackers |"),
        "{md}"
    );
    assert!(
        md.contains("- axis `units.brawler.hp`: added `10`\n"),
        "{md}"
    );
    let dex_line = |prefix: &str, dex: &str| {
        md.lines()
            .any(|l| l.starts_with(prefix) && l.contains("brawler") && l.contains(dex))
    };
    assert!(dex_line("- old only: **Sides:**", "DEX +1"), "{md}");
    assert!(dex_line("- new only: **Sides:**", "DEX +2"), "{md}");
    assert!(
        !md.contains("**Seed:**"),
        "unchanged lines are not listed: {md}"
    );
    let lone = md
        .split("## Cells only in the new report")
        .nth(1)
        .unwrap_or_else(|| panic!("{md}"));
    assert!(lone.contains("| 1 | double-dice / 10 | 2,000 |"), "{md}");
    assert!(lone.contains("| 4 | none / 10 | 2,000 |"), "{md}");
    assert!(!md.contains("only in the old report"), "{md}");

    // The other way round, the same cells are only in the old report.
    let o = sb.run(&["diff", "b/small", "a/small", "--out", "e"]);
    assert_eq!(o.code, 0, "{o:#?}");
    let md = fs::read_to_string(sb.join("e/small/diff.md")).unwrap();
    assert!(
        md.contains("- axis `units.brawler.hp`: removed `10`\n"),
        "{md}"
    );
    assert!(md.contains("## Cells only in the old report"), "{md}");
}

#[test]
fn reports_sharing_no_cell_are_refused_with_their_cells_one_a_line() {
    let sb = Sandbox::new();
    sb.run_small("a", &[]);
    // An axis added: no cell of one report can be matched with the other's.
    sb.write(
        "small.toml",
        &edit(
            SMALL,
            &[(
                HP_AXIS,
                &format!("{HP_AXIS}\n\"units.brawler.dex\" = [1, 2]"),
            )],
        ),
    );
    let o = sb.run(&["run", "small.toml", "--out", "b", "--quiet"]);
    assert_eq!(o.code, 0, "{o:#?}");
    let o = sb.run(&["diff", "a/small", "b/small", "--out", "x"]);
    assert_eq!(o.code, 2, "{o:#?}");
    assert!(o.stderr.contains("share no cell"), "{}", o.stderr);
    assert!(
        o.stderr
            .contains("axes only in the new report: `units.brawler.dex`"),
        "{}",
        o.stderr
    );
    assert!(
        o.stderr.contains(
            "old report's cells (4):\n  0: options.crit = double-dice, units.brawler.hp = 8\n"
        ),
        "{}",
        o.stderr
    );
    assert!(
        o.stderr
            .contains("\n  7: options.crit = none, units.brawler.hp = 12, units.brawler.dex = 2"),
        "{}",
        o.stderr
    );
    assert_eq!(sb.entries("x"), Vec::<String>::new());

    // Same axes, no value in common.
    sb.write(
        "small.toml",
        &edit(SMALL, &[(HP_AXIS, "\"units.brawler.hp\" = [9, 14]")]),
    );
    let o = sb.run(&["run", "small.toml", "--out", "c", "--quiet"]);
    assert_eq!(o.code, 0, "{o:#?}");
    let o = sb.run(&["diff", "a/small", "c/small", "--out", "x"]);
    assert_eq!(o.code, 2, "{o:#?}");
    assert!(o.stderr.contains("share no cell"), "{}", o.stderr);
    assert!(
        o.stderr
            .contains("\n  3: options.crit = none, units.brawler.hp = 14"),
        "{}",
        o.stderr
    );
    assert_eq!(sb.entries("x"), Vec::<String>::new());
}

#[test]
fn a_revision_git_would_read_as_an_option_or_the_index_is_refused() {
    let sb = Sandbox::new();
    sb.commit_small_report();
    // `git show --output=F:./summary.md` would write F:./summary.md: give
    // it a folder to write into, so that nothing but the refusal stops it.
    fs::create_dir(sb.join("reports/small/written:.")).unwrap();
    let o = sb.run(&[
        "diff",
        "reports/small",
        "--rev=--output=written",
        "--out",
        "x",
    ]);
    assert_eq!(o.code, 2, "{o:#?}");
    assert!(
        o.stderr.contains("--rev `--output=written`") && o.stderr.contains("starts with `-`"),
        "{}",
        o.stderr
    );
    assert_eq!(
        sb.entries("reports/small/written:."),
        Vec::<String>::new(),
        "git wrote a file"
    );
    assert_eq!(sb.entries("x"), Vec::<String>::new());
    // An empty revision: `git show :./file` would read the index.
    for rev in ["", " "] {
        let o = sb.run(&["diff", "reports/small", "--rev", rev, "--out", "x"]);
        assert_eq!(o.code, 2, "{rev:?}: {o:#?}");
        assert!(o.stderr.contains("it is empty"), "{}", o.stderr);
        assert_eq!(sb.entries("x"), Vec::<String>::new());
    }
    // A real revision still works.
    let o = sb.run(&["diff", "reports/small", "--rev", "HEAD", "--out", "x"]);
    assert_eq!(o.code, 0, "{o:#?}");
}
