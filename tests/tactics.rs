//! `skirmish tactics`: a play that clearly dominates is reported as
//! dominating, the report is the same bytes at 1 and 2 threads, and bad
//! `[plays]` tables exit 2 with nothing written.

mod common;

use common::{check_rejected, parse_csv, read_report, Sandbox};

/// Two escalation duellists. The first side chooses its weapon: a sword
/// (1d8) or a twig (1 damage, which armour 1 stops entirely, so a twig can
/// never win); and its aim. The second side holds its own play. The sword
/// must dominate the twig confidently, and an aim with the twig cannot
/// matter (the twig never wounds).
const DUEL: &str = r#"
name = "twig"
rules = "escalation"
fights = 4000
seed = 7
max_rounds = 30

[weapons.sword]
damage = "1d8"

[weapons.twig]
damage = "1"

[units.a]
hp = 12
armor = 1
weapons = ["sword"]

[units.b]
hp = 12
armor = 1
weapons = ["sword"]

[sides.first]
a = {}

[sides.second]
b = {}

[plays.first]
"units.a.weapons" = [["sword"], ["twig"]]
"units.a.aim" = ["center-mass", "fatal"]

[plays.second]
"units.b.bonus" = ["accuracy", "dodge"]
"#;

#[test]
fn a_dominating_play_is_reported_and_the_report_is_the_same_at_any_thread_count() {
    let sb = Sandbox::new();
    let file = sb.write("twig.toml", DUEL);
    let one = sb.run(&["tactics", file, "--out", "one", "--threads", "1", "--quiet"]);
    assert_eq!(one.code, 0, "{one:#?}");
    let two = sb.run(&["tactics", file, "--out", "two", "--threads", "2", "--quiet"]);
    assert_eq!(two.code, 0, "{two:#?}");
    let (a, b) = (
        read_report(&sb.join("one/twig-tactics")),
        read_report(&sb.join("two/twig-tactics")),
    );
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        [
            ".skirmish-report",
            "payoff.csv",
            "payoff.png",
            "strategies.csv",
            "summary.md"
        ]
    );
    assert!(a == b, "the report differs between 1 and 2 threads");

    // Each twig strategy is confidently dominated by a sword strategy.
    let text = String::from_utf8(a["strategies.csv"].clone()).unwrap();
    let (header, rows) = parse_csv(&text);
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let twigs: Vec<_> = rows
        .iter()
        .filter(|r| r[col("strategy")].starts_with("[twig]"))
        .collect();
    assert_eq!(twigs.len(), 2, "{text}");
    for r in &twigs {
        assert!(r[col("dominated_by")].starts_with("[sword]"), "{text}");
        assert_eq!(r[col("dominance")], "confident", "{text}");
        assert_eq!(r[col("equilibrium")].parse::<f64>().unwrap(), 0.0, "{text}");
    }
    let summary = String::from_utf8(a["summary.md"].clone()).unwrap();
    assert!(summary.contains("is dominated by **[sword]"), "{summary}");
    // The verdict is printed too.
    assert!(
        one.stdout.contains("value under best play"),
        "{}",
        one.stdout
    );
    // --check re-fights and finds the same report.
    let check = sb.run(&["tactics", file, "--out", "one", "--check", "--quiet"]);
    assert_eq!(check.code, 0, "{check:#?}");
}

#[test]
fn bad_plays_exit_2_with_nothing_written() {
    let sb = Sandbox::new();
    sb.mkdir("out");
    let cases: &[(&str, &str, &str)] = &[
        (
            "\"units.a.aim\" = [\"center-mass\", \"fatal\"]\n",
            "\"units.b.aim\" = [\"center-mass\", \"fatal\"]\n",
            "side `first` fields no `b`",
        ),
        (
            "\"units.a.aim\" = [\"center-mass\", \"fatal\"]\n",
            "\"units.a.hp\" = [10, 12]\n",
            "`hp` is not a play of a stat block",
        ),
        (
            "[plays.second]\n",
            "[plays.third]\n",
            "`third` is not a side",
        ),
        (
            "\"units.a.aim\" = [\"center-mass\", \"fatal\"]\n",
            "\"units.a.aim\" = []\n",
            "empty",
        ),
        (
            "\"units.a.aim\" = [\"center-mass\", \"fatal\"]\n",
            "\"sides.second.b.tactic\" = [\"hold\"]\n",
            "is a play of side `second`, not of `first`",
        ),
        (
            "\"units.a.aim\" = [\"center-mass\", \"fatal\"]\n",
            "\"units.a.aim\" = [\"center-mass\", \"nowhere\"]\n",
            "nowhere",
        ),
    ];
    let mut failures = Vec::new();
    for (from, to, expect) in cases {
        let text = common::edit(DUEL, &[(from, to)]);
        let file = sb.write("bad.toml", &text);
        let (o, problems) = check_rejected(
            &sb,
            &["tactics", file, "--out", "out"],
            &["bad.toml", "out"],
            &[expect],
        );
        if !problems.is_empty() {
            failures.push(format!("{to:?}: {problems:?}\n{}", o.stderr));
        }
    }
    // A scenario without plays has nothing to fight.
    let text = DUEL[..DUEL.find("[plays.first]").unwrap()].to_string();
    let file = sb.write("bad.toml", &text);
    let (o, problems) = check_rejected(
        &sb,
        &["tactics", file, "--out", "out"],
        &["bad.toml", "out"],
        &["names no plays"],
    );
    if !problems.is_empty() {
        failures.push(format!("no plays: {problems:?}\n{}", o.stderr));
    }
    // A cap with no precision target would be ignored: refused.
    let file = sb.write("bad.toml", DUEL);
    let (o, problems) = check_rejected(
        &sb,
        &["tactics", file, "--out", "out", "--max-fights", "9000"],
        &["bad.toml", "out"],
        &["--max-fights caps a precision target"],
    );
    if !problems.is_empty() {
        failures.push(format!("--max-fights alone: {problems:?}\n{}", o.stderr));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// `tactics --precision` races (issue 30, item 2): the pairs that decide
/// the game (the sword strategies against the second side's) get more
/// fights than the twig's, which are confidently dominated and keep their
/// starting fights; the report says so, and is the same at 1 and 2 threads.
#[test]
fn a_precision_target_spends_fights_where_the_game_is_decided() {
    let sb = Sandbox::new();
    let file = sb.write("twig.toml", DUEL);
    let raced = |out: &str, threads: &str| {
        let o = sb.run(&[
            "tactics",
            file,
            "--out",
            out,
            "--threads",
            threads,
            "--quiet",
            "--precision",
            "0.01",
            "--max-fights",
            "64000",
        ]);
        assert_eq!(o.code, 0, "{o:#?}");
        read_report(&sb.join(&format!("{out}/twig-tactics")))
    };
    let (a, b) = (raced("one", "1"), raced("two", "2"));
    assert!(a == b, "the raced report differs between 1 and 2 threads");
    let text = String::from_utf8(a["payoff.csv"].clone()).unwrap();
    let (header, rows) = parse_csv(&text);
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let fights = |r: &Vec<String>| r[col("fights")].parse::<u64>().unwrap();
    let (twig, sword): (Vec<_>, Vec<_>) = rows
        .iter()
        .partition(|r| r[col("first")].starts_with("[twig]"));
    let most = rows.iter().map(fights).max().unwrap();
    let least = rows.iter().map(fights).min().unwrap();
    assert!(most > least, "nothing was raced:\n{text}");
    for r in &twig {
        assert_eq!(
            fights(r),
            least,
            "a dominated pair got more fights:\n{text}"
        );
    }
    assert!(sword.iter().any(|r| fights(r) == most), "{text}");
    // Every pair that reached the most is within the target, or says it
    // stopped at the cap.
    for r in rows.iter().filter(|r| fights(r) == most) {
        let (lo, hi) = (
            r[col("payoff_lo")].parse::<f64>().unwrap(),
            r[col("payoff_hi")].parse::<f64>().unwrap(),
        );
        assert!(
            (hi - lo) / 2.0 <= 0.01 + 1e-9 || r[col("capped")] == "true",
            "{text}"
        );
    }
    let summary = String::from_utf8(a["summary.md"].clone()).unwrap();
    assert!(summary.contains("raced to ±0.01"), "{summary}");
}
