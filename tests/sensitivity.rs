//! `skirmish sensitivity`: its report, determinism across thread counts,
//! `--check`, bad input, the folders it refuses, and effects measured against
//! a duel whose win probabilities a Markov chain gives exactly.

mod common;

use std::fs;

use common::{check_rejected, edit, parse_csv, read_report, Output, Sandbox, SMALL};
use skirmish::analysis::batch_means::t975;
use skirmish::rules::dicestep::Dicestep;
use skirmish::rules::step::contrary_reason;
use skirmish::rules::{FieldTable, Ruleset};

/// `skirmish sensitivity small.toml --fights 2000 --out OUT --quiet EXTRA...`.
fn sensitivity_small(sb: &Sandbox, out: &str, extra: &[&str]) -> Output {
    let file = sb.write("small.toml", SMALL);
    let mut args = vec![
        "sensitivity",
        file,
        "--fights",
        "2000",
        "--out",
        out,
        "--quiet",
    ];
    args.extend_from_slice(extra);
    sb.run(&args)
}

/// A CSV row's field by column name.
fn field<'a>(header: &[String], row: &'a [String], name: &str) -> &'a str {
    let i = header
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name} in {header:?}"));
    &row[i]
}

#[test]
fn sensitivity_writes_its_report_and_prints_the_ranking() {
    let sb = Sandbox::new();
    // Every field, written or not (the default ranks the written ones: see
    // `only_the_fields_the_scenario_writes_are_ranked_unless_all`).
    let o = sensitivity_small(&sb, "out", &["--all"]);
    assert_eq!(o.code, 0, "{o:#?}");
    assert_eq!(sb.entries("out"), ["small-sensitivity"]);
    assert_eq!(
        sb.entries("out/small-sensitivity"),
        [
            ".skirmish-report",
            "sensitivity.csv",
            "sensitivity.png",
            "summary.md"
        ]
    );
    // The unchanged cell is the baseline, cell 0.
    assert!(
        o.stdout
            .contains("unchanged: cell 0 (options.crit = double-dice, units.brawler.hp = 8)"),
        "{o:#?}"
    );
    assert!(o.stdout.contains("attackers win rate per step"), "{o:#?}");
    let csv = fs::read_to_string(sb.join("out/small-sensitivity/sensitivity.csv")).unwrap();
    let (header, rows) = stat_rows(&csv);
    assert_eq!(
        header[..11],
        [
            "rank",
            "stat",
            "side",
            "path",
            "value",
            "down",
            "up",
            "per_step_attackers",
            "per_step_attackers_lo",
            "per_step_attackers_hi",
            "rank_attackers"
        ]
    );
    // The brawler fights on both sides: 10 stat-block fields and 3 knife
    // fields of trenches, for each side.
    assert_eq!(rows.len(), 2 * 13, "{csv}");
    let hp = rows
        .iter()
        .find(|r| r[1] == "brawler (attackers) hp")
        .expect("the attackers' hp");
    assert_eq!(
        (
            field(&header, hp, "value"),
            field(&header, hp, "down"),
            field(&header, hp, "up")
        ),
        ("8", "7", "9")
    );
    let effect: f64 = field(&header, hp, "per_step_attackers").parse().unwrap();
    assert!(effect > 0.0, "more hp helps the attackers: {csv}");
    // Ranked by the largest effect on any side.
    let size = |r: &Vec<String>| {
        ["per_step_attackers", "per_step_defenders"]
            .iter()
            .map(|c| field(&header, r, c).parse::<f64>().map_or(0.0, f64::abs))
            .fold(0.0, f64::max)
    };
    for pair in rows.windows(2) {
        assert!(size(&pair[0]) >= size(&pair[1]), "not ranked: {csv}");
    }
    // The knife's range 0 means the default reach: listed, not stepped.
    let range = rows
        .iter()
        .find(|r| r[1] == "brawler (attackers) knife range")
        .expect("the knife's range");
    assert_eq!(field(&header, range, "per_step_attackers"), "");
    let md = fs::read_to_string(sb.join("out/small-sensitivity/summary.md")).unwrap();
    assert!(
        md.contains("![the effect of each stat](sensitivity.png)"),
        "{md}"
    );
    assert!(
        md.contains("`brawler (attackers) knife range` (0), step down: 0 means"),
        "{md}"
    );
}

#[test]
fn sensitivity_is_identical_across_thread_counts_and_checks_clean() {
    let sb = Sandbox::new();
    for (out, threads) in [("one", "1"), ("two", "2")] {
        let o = sensitivity_small(&sb, out, &["--threads", threads]);
        assert_eq!(o.code, 0, "{o:#?}");
    }
    let (one, two) = (
        read_report(&sb.join("one/small-sensitivity")),
        read_report(&sb.join("two/small-sensitivity")),
    );
    assert_eq!(
        one.keys().collect::<Vec<_>>(),
        two.keys().collect::<Vec<_>>()
    );
    for (name, bytes) in &one {
        assert!(
            bytes == &two[name],
            "{name} differs between 1 and 2 threads"
        );
    }
    let o = sensitivity_small(&sb, "one", &["--check"]);
    assert_eq!(o.code, 0, "{o:#?}");
    assert!(o.stdout.contains("identical to"), "{o:#?}");
    let o = sensitivity_small(&sb, "one", &["--check", "--seed", "8"]);
    assert_eq!(o.code, 1, "{o:#?}");
    assert!(o.stdout.contains("differs from"), "{o:#?}");
}

#[test]
fn another_cell_is_picked_by_index_or_by_axis_values() {
    let sb = Sandbox::new();
    let o = sensitivity_small(&sb, "a", &["--cell", "3"]);
    assert_eq!(o.code, 0, "{o:#?}");
    assert!(
        o.stdout
            .contains("unchanged: cell 3 (options.crit = none, units.brawler.hp = 12)"),
        "{o:#?}"
    );
    let o = sensitivity_small(
        &sb,
        "b",
        &[
            "--where",
            "units.brawler.hp=12",
            "--where",
            "options.crit=none",
        ],
    );
    assert_eq!(o.code, 0, "{o:#?}");
    assert!(
        read_report(&sb.join("a/small-sensitivity"))
            == read_report(&sb.join("b/small-sensitivity")),
        "--cell 3 and --where naming cell 3 differ"
    );
}

#[test]
fn sensitivity_bad_input_exits_2_and_writes_nothing() {
    let sb = Sandbox::new();
    sb.write("small.toml", SMALL);
    sb.mkdir("out");
    let cases: &[(&[&str], &str)] = &[
        (
            &["--cell", "4"],
            "small.toml: `--cell`: there is no cell 4: the matrix has 4 cells (0 to 3)",
        ),
        (
            &["--where", "options.crt=none"],
            "`options.crt` is not a matrix axis; did you mean `options.crit`?",
        ),
        (
            &["--where", "options.crit=half"],
            "`half` is not a value of axis `options.crit` (values: `double-dice` or `none`)",
        ),
        (
            &["--where", "options.crit"],
            "expected AXIS=VALUE, e.g. `options.crit=none`, found `options.crit`",
        ),
        (
            &[
                "--where",
                "options.crit=none",
                "--where",
                "options.crit=none",
            ],
            "axis `options.crit` is given twice",
        ),
        (
            &["--cell", "1", "--where", "options.crit=none"],
            "cannot be used with",
        ),
        (&["--fights", "0"], "expected a whole number of fights"),
    ];
    for (extra, wanted) in cases {
        let mut args = vec!["sensitivity", "small.toml", "--out", "out", "--quiet"];
        args.extend_from_slice(extra);
        let (_, problems) = check_rejected(&sb, &args, &["small.toml"], &[wanted]);
        assert!(problems.is_empty(), "{extra:?}: {problems:#?}");
    }
    // A scenario that does not compile: the usual located error.
    sb.write(
        "bad.toml",
        &common::edit(SMALL, &[("damage = \"1d6+1\"", "damage = \"1d6+x\"")]),
    );
    let (_, problems) = check_rejected(
        &sb,
        &["sensitivity", "bad.toml", "--out", "out"],
        &["small.toml", "bad.toml"],
        &["bad.toml:", "weapons.knife.damage", "bad dice notation"],
    );
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn sensitivity_never_writes_over_files_it_did_not_write() {
    let sb = Sandbox::new();
    // A folder of the report's name, not skirmish's: refused before any
    // fight, untouched.
    sb.write("out/small-sensitivity/notes.md", "my notes\n");
    let o = sensitivity_small(&sb, "out", &[]);
    assert_eq!(o.code, 2, "{o:#?}");
    assert!(o.stderr.contains("refusing to write into"), "{o:#?}");
    assert!(o.stdout.is_empty(), "it simulated: {o:#?}");
    assert_eq!(sb.entries("out/small-sensitivity"), ["notes.md"]);
    // In a report skirmish wrote, a designer's file is kept.
    assert_eq!(sensitivity_small(&sb, "z", &[]).code, 0);
    sb.write("z/small-sensitivity/notes.md", "my notes\n");
    assert_eq!(sensitivity_small(&sb, "z", &["--seed", "3"]).code, 0);
    assert_eq!(
        fs::read(sb.join("z/small-sensitivity/notes.md")).unwrap(),
        b"my notes\n"
    );
    // Never inside a scenario's own report folder.
    sb.run_small("reports", &[]);
    let o = sensitivity_small(&sb, "reports/small", &[]);
    assert_eq!(o.code, 2, "{o:#?}");
    assert!(o.stderr.contains("inside reports/small"), "{o:#?}");
    // A run's report, under the sensitivity report's name, is not one.
    fs::create_dir(sb.join("y")).unwrap();
    fs::rename(sb.join("reports/small"), sb.join("y/small-sensitivity")).unwrap();
    let o = sensitivity_small(&sb, "y", &[]);
    assert_eq!(o.code, 2, "{o:#?}");
    assert!(o.stderr.contains("not a sensitivity report"), "{o:#?}");
}

/// A duel whose win probability a Markov chain gives exactly: `a` (6 HP, AC
/// 11, +2 to hit) always acts first (fixed initiative by DEX), `b` (7 HP, AC
/// 10, +1) second; each attack hits on a natural 20, or on a natural 2 or
/// more that meets the AC, for 1d4; no crit effect.
const EXACT: &str = r#"
name = "exact"
rules = "trenches"
seed = 11
max_rounds = 100

[options]
crit = "none"
initiative = "fixed"

[weapons.club]
kind = "melee"
attack = 2
damage = "1d4"

[weapons.knife]
kind = "melee"
attack = 1
damage = "1d4"

[units.a]
hp = 6
dex = 1
endurance = 1
weapons = ["club"]

[units.b]
hp = 7
weapons = ["knife"]

[sides.a]
a = { count = 1 }

[sides.b]
b = { count = 1 }
"#;

/// Probability that a d20 attack with `bonus` hits AC `ac`.
fn p_hit(bonus: i32, ac: i32) -> f64 {
    let hits = (1..=20)
        .filter(|&n| n == 20 || (n >= 2 && n + bonus >= ac))
        .count();
    hits as f64 / 20.0
}

/// `a`'s exact win probability: `a` attacks first each round, 100 rounds at
/// most (then a draw).
fn p_a_wins(hp_a: i32, hp_b: i32, hit_a: f64, hit_b: f64) -> f64 {
    const ROUNDS: usize = 100;
    let (na, nb) = (hp_a as usize, hp_b as usize);
    // win[x][y]: a's chance from the start of a round with x and y HP left,
    // for the rounds still to play; 0 rounds left: a draw.
    let mut win = vec![vec![0.0f64; nb + 1]; na + 1];
    // One round from x and y HP, given `win` for the rounds after it.
    let round = |win: &[Vec<f64>], x: usize, y: usize| -> f64 {
        if x == 0 || y == 0 {
            return 0.0;
        }
        let mut p = 0.0;
        // a's attack: miss, or 1..=4 damage.
        let after_a = std::iter::once((1.0 - hit_a, y))
            .chain((1..=4).map(|d| (hit_a / 4.0, y.saturating_sub(d))));
        for (pa, y2) in after_a {
            if y2 == 0 {
                p += pa;
                continue;
            }
            p += pa * (1.0 - hit_b) * win[x][y2];
            for d in (1..=4).filter(|&d| x > d) {
                p += pa * hit_b / 4.0 * win[x - d][y2];
            }
        }
        p
    };
    for _ in 0..ROUNDS {
        win = (0..=na)
            .map(|x| (0..=nb).map(|y| round(&win, x, y)).collect())
            .collect();
    }
    win[na][nb]
}

#[test]
fn measured_effects_match_a_markov_chain_within_4_standard_errors() {
    let sb = Sandbox::new();
    let file = sb.write("exact.toml", EXACT);
    let fights = "100000";
    let o = sb.run(&[
        "sensitivity",
        file,
        "--fights",
        fights,
        "--out",
        "out",
        "--quiet",
    ]);
    assert_eq!(o.code, 0, "{o:#?}");
    let csv = fs::read_to_string(sb.join("out/exact-sensitivity/sensitivity.csv")).unwrap();
    let (header, rows) = stat_rows(&csv);
    // 100,000 fights per cell: 32 batches, so t(31) turns half-widths into
    // standard errors.
    let t = t975(31);
    // a: 6 HP, AC 11, +2; b: 7 HP, AC 10, +1.
    let win = |hp_a: i32, ac_a: i32, bonus_a: i32, hp_b: i32| {
        p_a_wins(hp_a, hp_b, p_hit(bonus_a, 10), p_hit(1, ac_a))
    };
    let base = win(6, 11, 2, 7);
    let cases: [(&str, f64, f64); 4] = [
        ("a hp", win(5, 11, 2, 7), win(7, 11, 2, 7)),
        ("a club attack", win(6, 11, 1, 7), win(6, 11, 3, 7)),
        ("a endurance", win(6, 10, 2, 7), win(6, 12, 2, 7)),
        ("b hp", win(6, 11, 2, 6), win(6, 11, 2, 8)),
    ];
    let mut report = Vec::new();
    for (stat, down, up) in cases {
        let row = rows
            .iter()
            .find(|r| r[1] == stat)
            .unwrap_or_else(|| panic!("no {stat} in {csv}"));
        for (column, exact) in [
            ("per_step_a", (up - down) / 2.0),
            ("up_a", up - base),
            ("down_a", down - base),
        ] {
            let get = |c: &str| -> f64 { field(&header, row, c).parse().unwrap() };
            let (est, lo, hi) = (
                get(column),
                get(&format!("{column}_lo")),
                get(&format!("{column}_hi")),
            );
            let se = (hi - lo) / 2.0 / t;
            report.push(format!(
                "{stat} {column}: measured {est:.4} ± {se:.4} (se), exact {exact:.4}"
            ));
            assert!(se > 0.0 && se < 0.01, "{stat} {column}: se {se}");
            assert!(
                (est - exact).abs() <= 4.0 * se,
                "{stat} {column}: {est} vs exact {exact} (se {se})\n{}",
                report.join("\n")
            );
        }
    }
    println!("{}", report.join("\n"));
}

/// The stat rows of a sensitivity.csv (`kind = stat`), without the `kind`
/// column: the rule options' rows have tests of their own.
fn stat_rows(csv: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let (mut header, rows) = parse_csv(csv);
    let kind = header
        .iter()
        .position(|h| h == "kind")
        .expect("a kind column");
    header.remove(kind);
    let rows = rows
        .into_iter()
        .filter(|r| r[kind] == "stat")
        .map(|mut r| {
            r.remove(kind);
            r
        })
        .collect();
    (header, rows)
}

/// The stats of a sensitivity.csv, by label.
fn stat_labels(rows: &[Vec<String>]) -> Vec<&str> {
    rows.iter().map(|r| r[1].as_str()).collect()
}

/// README "Which stat matters", "Which stats": the fields the scenario
/// writes are ranked, the others listed as not ranked; `--all` ranks every
/// one.
#[test]
fn only_the_fields_the_scenario_writes_are_ranked_unless_all() {
    let sb = Sandbox::new();
    let o = sensitivity_small(&sb, "out", &[]);
    assert_eq!(o.code, 0, "{o:#?}");
    let csv = fs::read_to_string(sb.join("out/small-sensitivity/sensitivity.csv")).unwrap();
    let (_, rows) = stat_rows(&csv);
    let mut ranked = stat_labels(&rows);
    ranked.sort_unstable();
    // small.toml writes the brawler's hp and dex, the knife's attack and
    // damage (its kind is not a number).
    let written: Vec<String> = ["attackers", "defenders"]
        .iter()
        .flat_map(|side| {
            ["dex", "hp", "knife attack", "knife damage"].map(|f| format!("brawler ({side}) {f}"))
        })
        .collect();
    assert_eq!(ranked, written, "{csv}");
    // The 9 other numeric fields of each side's brawler: not ranked, said so.
    assert!(
        o.stdout.contains(
            "Not ranked: 18 stats the scenario leaves at their defaults (`--all` ranks the stats"
        ),
        "{}",
        o.stdout
    );
    let md = fs::read_to_string(sb.join("out/small-sensitivity/summary.md")).unwrap();
    let section = md
        .split("## Not ranked")
        .nth(1)
        .unwrap_or_else(|| panic!("{md}"));
    for stat in [
        "`brawler (attackers) armor` (0)",
        "`brawler (defenders) speed` (30)",
        "`brawler (defenders) knife range` (0)",
    ] {
        assert!(section.contains(stat), "{stat}: {md}");
    }
    assert!(section.contains("`--all`"), "{md}");
    // Not stepped: no step of theirs in "Steps not taken" either.
    assert!(!md.contains("knife range` (0), step"), "{md}");

    // --all: all 13 of each side, and nothing left unranked.
    let o = sensitivity_small(&sb, "all", &["--all"]);
    assert_eq!(o.code, 0, "{o:#?}");
    let csv = fs::read_to_string(sb.join("all/small-sensitivity/sensitivity.csv")).unwrap();
    let (_, rows) = stat_rows(&csv);
    assert_eq!(rows.len(), 2 * 13, "{csv}");
    assert!(stat_labels(&rows).contains(&"brawler (attackers) armor"));
    assert!(!o.stdout.contains("Not ranked"), "{}", o.stdout);
    let md = fs::read_to_string(sb.join("all/small-sensitivity/summary.md")).unwrap();
    assert!(!md.contains("## Not ranked"), "{md}");
}

/// `scenarios/dicestep_skirmish.toml` without its matrix: four fighters a
/// side.
fn dicestep_four_a_side() -> String {
    let text = include_str!("../scenarios/dicestep_skirmish.toml");
    let matrix = text.find("[matrix]").expect("the example has a matrix");
    edit(&text[..matrix], &[("count = 6", "count = 4")])
}

/// README "Which stat matters", equivalent points and stats that work
/// against their side, on dicestep (seed 002, "Damage & health": a
/// knock-out comes from missing health above constitution; resuscitating is
/// a test against the missing health): a step up of `health` lowers its
/// side's win rate, so equivalent points are never stated in it, and the
/// report gives the ruleset's reason.
#[test]
fn equivalences_are_never_in_a_stat_that_lowers_the_win_rate_and_contrary_stats_say_why() {
    let sb = Sandbox::new();
    let file = sb.write("four.toml", &dicestep_four_a_side());
    let o = sb.run(&[
        "sensitivity",
        file,
        "--fights",
        "20000",
        "--out",
        "out",
        "--quiet",
    ]);
    assert_eq!(o.code, 0, "{o:#?}");
    let dir = "out/dicestep_skirmish-sensitivity";
    let csv = fs::read_to_string(sb.join(&format!("{dir}/sensitivity.csv"))).unwrap();
    let (header, rows) = stat_rows(&csv);
    let own = |stat: &str| -> (f64, f64) {
        let row = rows
            .iter()
            .find(|r| r[1] == stat)
            .unwrap_or_else(|| panic!("no {stat} in {csv}"));
        let side = field(&header, row, "side");
        let get = |c: String| field(&header, row, &c).parse::<f64>().unwrap();
        (
            get(format!("per_step_{side}_lo")),
            get(format!("per_step_{side}_hi")),
        )
    };
    // The premise, measured: health works against the party.
    let health = "fighter (party) health";
    assert!(own(health).1 < 0.0, "{:?}\n{csv}", own(health));

    let md = fs::read_to_string(sb.join(&format!("{dir}/summary.md"))).unwrap();
    // Every reference of equivalent points raises its own side's win rate
    // significantly.
    let references: Vec<&str> = md
        .lines()
        .filter(|l| l.starts_with("- one step up of "))
        .filter_map(|l| l.split("steps up of `").nth(1)?.split('`').next())
        .collect();
    assert!(!references.is_empty(), "{md}");
    for r in &references {
        assert!(own(r).0 > 0.0, "reference {r}: {:?}\n{md}", own(r));
    }
    // Health is expressed in the reference's steps, with a negative ratio.
    assert!(
        md.lines()
            .any(|l| l.starts_with(&format!("- one step up of `{health}` is worth about -"))),
        "{md}"
    );
    // The ruleset's reason, next to the effect, in the report and on the
    // terminal.
    let why = contrary_reason(Dicestep::CONTRARY_STATS, FieldTable::Unit, "health")
        .expect("dicestep declares why health can hurt");
    let section = md
        .split("## Stats that work against their own side")
        .nth(1)
        .unwrap_or_else(|| panic!("{md}"));
    let line = section
        .lines()
        .find(|l| l.starts_with(&format!("- `{health}`: -")))
        .unwrap_or_else(|| panic!("{md}"));
    assert!(
        line.ends_with(&format!("on the win rate of `party`: {why}")),
        "{line}"
    );
    assert!(
        o.stdout.contains(&format!("`{health}`: -")) && o.stdout.contains(why),
        "{}",
        o.stdout
    );
}

/// README "Which stat matters", "Which rule number matters most": every
/// numeric rule option is stepped and ranked in its own section, written or
/// not; one the fight never reaches shows no effect; `--written-only`
/// leaves the unwritten ones unranked; `--in` must name a numeric stat.
#[test]
fn rule_options_are_ranked_in_their_own_section() {
    let sb = Sandbox::new();
    let o = sensitivity_small(&sb, "out", &[]);
    assert_eq!(o.code, 0, "{o:#?}");
    let csv = fs::read_to_string(sb.join("out/small-sensitivity/sensitivity.csv")).unwrap();
    let (header, rows) = parse_csv(&csv);
    let rules: Vec<&Vec<String>> = rows.iter().filter(|r| r[1] == "rule").collect();
    // Every numeric option of trenches, each once.
    use skirmish::rules::Ruleset;
    let numeric = skirmish::rules::Trenches::OPTIONS
        .iter()
        .filter(|f| f.numeric())
        .count();
    assert_eq!(rules.len(), numeric, "{csv}");
    // Rule rows follow the stat rows, ranked from 1 among themselves.
    let first_rule = rows.iter().position(|r| r[1] == "rule").unwrap();
    assert!(rows[first_rule..].iter().all(|r| r[1] == "rule"), "{csv}");
    assert_eq!(rules[0][0], "1");
    // Half cover's AC: the defenders are in half cover, but cover does not
    // stop a knife ("Cover"): stepped both ways, and no fight changed.
    let half = rules
        .iter()
        .find(|r| r[2] == "options.half_cover_ac")
        .unwrap_or_else(|| panic!("{csv}"));
    assert_eq!(
        (
            field(&header, half, "value"),
            field(&header, half, "down"),
            field(&header, half, "up"),
            field(&header, half, "side"),
            field(&header, half, "per_step_attackers"),
        ),
        ("2", "1", "3", "", "0.0000")
    );
    let md = fs::read_to_string(sb.join("out/small-sensitivity/summary.md")).unwrap();
    assert!(md.contains("## Rule options"), "{md}");
    assert!(
        md.contains("| options.half_cover_ac | 2 | 1 / 3 | 0 (no effect) | 0 (no effect) |"),
        "{md}"
    );
    assert!(o.stdout.contains("rule option"), "{}", o.stdout);

    // --written-only: small.toml writes no option but through its matrix
    // (`options.crit`, a choice): no rule row, and they are listed.
    let o = sensitivity_small(&sb, "written", &["--written-only"]);
    assert_eq!(o.code, 0, "{o:#?}");
    let csv = fs::read_to_string(sb.join("written/small-sensitivity/sensitivity.csv")).unwrap();
    assert!(!csv.contains(",rule,"), "{csv}");
    let md = fs::read_to_string(sb.join("written/small-sensitivity/summary.md")).unwrap();
    assert!(md.contains("`options.half_cover_ac` (2)"), "{md}");

    // --in must name a numeric stat-block field.
    let o = sensitivity_small(&sb, "bad", &["--in", "weapons"]);
    assert_eq!(o.code, 2, "{o:#?}");
    assert!(
        o.stderr
            .contains("`weapons` is not a numeric stat-block field of `trenches`"),
        "{o:#?}"
    );
    assert!(o.stderr.contains("`hp`"), "{o:#?}");
    assert!(!sb.join("bad").exists());
    // --all and --written-only contradict each other.
    let o = sensitivity_small(&sb, "both", &["--all", "--written-only"]);
    assert_eq!(o.code, 2, "{o:#?}");
}
