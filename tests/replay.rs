//! `skirmish replay` fights the very fights the run tallied, and its events
//! tell them truly:
//!
//! - every fight of a cell, replayed one by one with the observer, adds up
//!   to the run's tally of that cell (same winners, lengths, survivors, harm
//!   and counters), so fight K is the run's fight K;
//! - for every ruleset, each replayed fight's events add up to that fight's
//!   tally: harm per side, rounds, winner;
//! - for every ruleset, every die rolled is explained by the rule that read
//!   it (a check, a roll, initiative, a target choice, a rule's note) before
//!   the next turn begins: no rule rolls dice the narration does not show.

use std::collections::BTreeMap;

use skirmish::engine::observe::{EndCause, Event, NOBODY};
use skirmish::engine::Tally;
use skirmish::results::Streams;
use skirmish::run::{batch_size, plan, Budget, Plan};
use skirmish::scenario::{self, Scenario};

mod common;

/// Every example scenario of ruleset `rules`, with its plan, plus
/// `variants`: an example with text replaced (`(file, [(from, to)])`), for
/// rules no example turns on.
fn scenarios_with(
    rules: &str,
    variants: &[(&str, &[(&str, &str)])],
) -> Vec<(String, Scenario, Plan)> {
    let mut found = scenarios_of(rules);
    let dir = tempfile::tempdir().expect("temporary folder");
    for (i, (file, edits)) in variants.iter().enumerate() {
        let base = std::fs::read_to_string(format!("scenarios/{file}")).expect("example");
        let path = dir.path().join(format!("variant-{i}.toml"));
        std::fs::write(&path, common::edit(&base, edits)).expect("write variant");
        let s = scenario::load(&path).expect("variant loads");
        let p = plan(&s).expect("variant plans");
        found.push((format!("{file} with {edits:?}"), s, p));
    }
    found
}

/// Every example scenario of ruleset `rules`, with its plan.
fn scenarios_of(rules: &str) -> Vec<(String, Scenario, Plan)> {
    let mut found = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir("scenarios")
        .expect("scenarios/ exists")
        .map(|e| e.expect("readable").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    paths.sort();
    for path in paths {
        let s = scenario::load(&path).expect("example scenarios load");
        if s.rules != rules {
            continue;
        }
        let p = plan(&s).expect("example scenarios plan");
        found.push((path.display().to_string(), s, p));
    }
    assert!(!found.is_empty(), "no example scenario of {rules}");
    found
}

#[test]
fn replaying_every_fight_of_a_cell_gives_the_runs_tally() {
    // 300 fights: batches of 128, the last one partial (44), so fight K is
    // found across batch boundaries; every cell of every ruleset's first
    // example.
    const FIGHTS: u64 = 300;
    let size = batch_size(FIGHTS);
    assert_eq!(size, 128);
    for rules in skirmish::rules::NAMES {
        let (name, s, p) = scenarios_of(rules).swap_remove(0);
        for streams in [Streams::Common, Streams::Independent] {
            let results = p.run_with(Budget::Fights(FIGHTS), s.seed, streams, &|_| {});
            for (cell, result) in results.cells.iter().enumerate() {
                let mut replayed = Tally::default();
                for k in 0..FIGHTS {
                    replayed += &p.watch(cell, s.seed, streams, size, k).tally;
                }
                assert_eq!(
                    replayed, result.tally,
                    "{name}, cell {cell}, {streams:?}: the replayed fights are not the run's"
                );
            }
        }
    }
}

/// Check that each of the first `fights` fights of every cell of every
/// example scenario of `rules` (and of `variants`, see [`scenarios_with`])
/// adds up to its tally, that no die goes unexplained, and that each rule
/// in `rules_rolling_dice` was seen at least once.
fn events_tell_the_fights(
    rules: &str,
    fights: u64,
    variants: &[(&str, &[(&str, &str)])],
    rules_rolling_dice: &[&str],
) {
    let mut seen: BTreeMap<&'static str, u64> = BTreeMap::new();
    for (name, s, p) in scenarios_with(rules, variants) {
        let size = batch_size(s.fights);
        for cell in 0..p.cells.len() {
            let units = &p.unit_names[cell];
            for k in 0..fights {
                let tape = p.watch(cell, s.seed, Streams::Common, size, k);
                let at = format!("{name}, cell {cell}, fight {k}");
                let mut harm = [0u64; skirmish::engine::MAX_SIDES];
                let mut last_round = 0;
                let mut end = None;
                let mut unexplained: Vec<(u32, u32)> = Vec::new();
                for (i, event) in tape.events.iter().enumerate() {
                    match *event {
                        Event::Die { sides, face } => unexplained.push((sides, face)),
                        Event::Check { rule, .. }
                        | Event::Roll { rule, .. }
                        | Event::Note { what: rule, .. } => {
                            *seen.entry(rule).or_insert(0) += 1;
                            unexplained.clear()
                        }
                        Event::Initiative { .. } | Event::Target { .. } => unexplained.clear(),
                        Event::Turn { .. } | Event::Round { .. } | Event::End { .. } => {
                            assert!(
                                unexplained.is_empty(),
                                "{at}: dice {unexplained:?} rolled but never explained (event \
                                 {i}, {event:?}; before it: {:?})",
                                &tape.events[i.saturating_sub(12)..i]
                            );
                        }
                        _ => {}
                    }
                    match *event {
                        Event::Harm { unit, amount, .. } | Event::Load { unit, amount, .. } => {
                            assert_ne!(unit, NOBODY, "{at}: harm by nobody");
                            harm[units[unit as usize].1 as usize] += u64::from(amount);
                        }
                        Event::Round { round } => {
                            assert_eq!(round, last_round + 1, "{at}: rounds in order");
                            last_round = round;
                        }
                        Event::End {
                            winner,
                            rounds,
                            cause,
                        } => {
                            assert!(end.is_none(), "{at}: one end");
                            end = Some((winner, rounds, cause));
                        }
                        _ => {}
                    }
                }
                let (winner, rounds, cause) = end.expect("every fight ends with an End event");
                assert_eq!(
                    Some(&Event::End {
                        winner,
                        rounds,
                        cause
                    }),
                    tape.events.last(),
                    "{at}: End is the last event"
                );
                let t = &tape.tally;
                assert_eq!(t.fights, 1, "{at}");
                assert_eq!(&harm[..], &t.damage[..], "{at}: harm events vs tally");
                assert_eq!(t.rounds[rounds as usize], 1, "{at}: rounds vs tally");
                // A fight over before round 1 (a side with nobody standing)
                // has no round; any other ends in the last round begun.
                assert_eq!(last_round, rounds, "{at}: last round vs the end");
                match winner {
                    Some(w) => {
                        assert_eq!(t.wins[w as usize], 1, "{at}: winner vs tally");
                        assert_eq!(cause, EndCause::LastSideStanding, "{at}");
                    }
                    None => {
                        assert_eq!(t.draws, 1, "{at}: a draw in the tally");
                        assert_ne!(cause, EndCause::LastSideStanding, "{at}");
                    }
                }
            }
        }
    }
    for rule in rules_rolling_dice {
        assert!(
            seen.contains_key(rule),
            "{rules}: the rule `{rule}` never showed in the fights watched (seen: {seen:#?})"
        );
    }
}

#[test]
fn trenches_events_add_up_to_each_fights_tally() {
    // Death saves are an option no example turns on.
    let death_saves: &[(&str, &str)] = &[(
        "[units.rifleman]",
        "[options]\nat_zero_hp = \"death-saves\"\n\n[units.rifleman]",
    )];
    events_tell_the_fights(
        "trenches",
        40,
        &[("trench_raid.toml", death_saves)],
        &[
            "shot",
            "shot with advantage",
            "shot with disadvantage",
            "melee attack",
            "melee attack with advantage",
            "damage",
            "critical hit",
            "death save",
        ],
    );
}

#[test]
fn osr_events_add_up_to_each_fights_tally() {
    // Defense checks (PCs roll against NPC attacks) and retreating are
    // options and stats no example turns on.
    let defended: &[(&str, &str)] = &[
        (
            "[units.fighter]",
            "[options]\ndefense_checks = true\n\n[units.fighter]",
        ),
        ("hp = 7", "hp = 7\nretreat_at = 4"),
    ];
    events_tell_the_fights(
        "osr",
        60,
        &[("osr_patrol.toml", defended)],
        &[
            "attack",
            "defense check",
            "damage",
            "damage doubled",
            "morale (WIS)",
            "stabilise (WIS)",
            "break away (DEX)",
            "injury table",
            "ability loss",
            "healed (natural 20)",
        ],
    );
}

#[test]
fn dicestep_events_add_up_to_each_fights_tally() {
    events_tell_the_fights(
        "dicestep",
        60,
        &[],
        &[
            "attack (attribute + skill + proficiency − multiple attack penalty vs evasion)",
            "luck die (+ luck)",
            "dodge (DEX + athletics + guard + luck vs the attack)",
            "resuscitate (STR + athletics + luck)",
            "cheat death (luck vs death difficulty)",
            "critical (luck die at the weapon's threshold)",
        ],
    );
}

#[test]
fn escalation_events_add_up_to_each_fights_tally() {
    events_tell_the_fights(
        "escalation",
        100,
        &[],
        &[
            "attack (d20 + Accuracy vs 10 + Agility)",
            "damage",
            "critical escalation: a d4 of 4 makes it x4",
            "critical escalation: a d6 of 6 defeats outright",
            "fatal aim: a d4 of 4 adds to a wound",
            "fumble escalation: a d4 of 4 makes it a tragedy",
            "fumble escalation: a d6 of 6 is a fatal blow",
        ],
    );
}

#[test]
fn thrum_events_add_up_to_each_fights_tally() {
    events_tell_the_fights(
        "thrum",
        60,
        &[],
        &[
            "offence (2d6 + Art + ability)",
            "defence (2d6 + Evasion)",
            "defence (2d6 + Resilience)",
            "defence (2d6 + Resolve)",
            "attack (offence vs defence)",
            "panic roll (2d6 + Resolve over Stress Load)",
            "incapacity roll (2d6 + Resilience over Fatigue Load)",
        ],
    );
}

// ---- The command line ----

/// The JSON lines of `replay ARGS --json` in the sandbox, parsed.
fn json_of(sb: &common::Sandbox, args: &[&str]) -> Vec<serde_json::Value> {
    let mut all = vec!["replay"];
    all.extend_from_slice(args);
    all.push("--json");
    let o = sb.run(&all);
    assert_eq!(o.code, 0, "{o:#?}");
    o.stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

#[test]
fn replay_tells_a_fight_in_words_and_json_that_agree() {
    let sb = common::Sandbox::new();
    let file = sb.write("small.toml", common::SMALL);
    let text = sb.run(&["replay", file, "--cell", "3", "--fight", "1500"]);
    assert_eq!(text.code, 0, "{text:#?}");
    assert!(
        text.stdout
            .starts_with("Fight 1500 of cell 3 (options.crit = none, units.brawler.hp = 12)"),
        "{}",
        text.stdout
    );
    assert!(text.stdout.contains("\nRound 1\n"), "{}", text.stdout);
    assert!(
        text.stdout.contains("melee attack → brawler"),
        "{}",
        text.stdout
    );
    assert!(
        !text.stdout.contains('\x1b'),
        "no colours when stdout is not a terminal"
    );
    // --where names the same cell.
    let by_axes = sb.run(&[
        "replay",
        file,
        "--where",
        "units.brawler.hp=12",
        "--where",
        "options.crit=none",
        "--fight",
        "1500",
    ]);
    assert_eq!(by_axes.stdout, text.stdout);

    let lines = json_of(&sb, &[file, "--cell", "3", "--fight", "1500"]);
    let kind = |v: &serde_json::Value| v["event"].as_str().unwrap_or_default().to_string();
    assert_eq!(kind(&lines[0]), "fight");
    assert_eq!(lines[0]["fight"], 1500);
    let tally = lines.last().expect("lines");
    assert_eq!(kind(tally), "tally");
    let end = &lines[lines.len() - 2];
    assert_eq!(kind(end), "end");
    assert_eq!(end["winner"], tally["winner"]);
    assert_eq!(end["rounds"], tally["rounds"]);
    // Harm per side, summed from the events, is the fight's tally.
    for side in tally["damage"].as_array().expect("damage per side") {
        let name = side["side"].as_str().expect("side name");
        let summed: u64 = lines
            .iter()
            .filter(|l| kind(l) == "harm" && l["side"] == name)
            .map(|l| l["amount"].as_u64().expect("amount"))
            .sum();
        assert_eq!(summed, side["harm"].as_u64().expect("harm"), "{name}");
    }
    // Each attack names its weapon, in JSON as in words.
    let attacks: Vec<_> = lines.iter().filter(|l| kind(l) == "attack").collect();
    assert!(!attacks.is_empty());
    assert!(
        attacks.iter().all(|a| a["weapon"] == "knife"),
        "{attacks:?}"
    );
    assert_eq!(
        text.stdout.matches(" with knife: ").count(),
        attacks.len(),
        "{}",
        text.stdout
    );
    // Every die is in the JSON too, and the text shows as many.
    let dice = lines.iter().filter(|l| kind(l) == "die").count();
    assert!(dice > 0);
    assert_eq!(
        text.stdout.matches("d20 ").count()
            + text.stdout.matches("d6 ").count()
            + text.stdout.matches("d2 ").count(),
        dice,
        "{}",
        text.stdout
    );
}

#[test]
fn picked_fights_are_what_they_say_and_the_same_every_time() {
    let sb = common::Sandbox::new();
    let file = sb.write("small.toml", common::SMALL);
    let rounds = |pick: &str| {
        let lines = json_of(&sb, &[file, "--cell", "0", "--pick", pick]);
        let again = json_of(&sb, &[file, "--cell", "0", "--pick", pick]);
        assert_eq!(lines, again, "--pick {pick} picks one fight");
        let end = &lines[lines.len() - 1];
        (
            end["winner"].clone(),
            end["rounds"].as_u64().expect("rounds"),
        )
    };
    let (_, shortest) = rounds("shortest");
    let (_, longest) = rounds("longest");
    let (typical_winner, typical) = rounds("typical");
    let (upset_winner, _) = rounds("upset");
    assert!(
        shortest <= typical && typical <= longest,
        "{shortest} {typical} {longest}"
    );
    assert!(shortest < longest);
    assert_ne!(
        typical_winner, upset_winner,
        "an upset is won by the other side"
    );
    // Against the run: the typical winner is the side that wins most in
    // cells.csv, and the longest fight is the longest in rounds.csv.
    let o = sb.run(&["run", file, "--out", "out", "--quiet"]);
    assert_eq!(o.code, 0, "{o:#?}");
    let (header, rows) =
        common::parse_csv(&std::fs::read_to_string(sb.join("out/small/cells.csv")).expect("cells"));
    let col = |name: &str| header.iter().position(|h| h == name).expect(name);
    let wins = |side: &str| {
        rows[0][col(&format!("wins_{side}"))]
            .parse::<u64>()
            .expect("wins")
    };
    let favourite = if wins("attackers") >= wins("defenders") {
        "attackers"
    } else {
        "defenders"
    };
    assert_eq!(typical_winner, favourite);
    let (_, lengths) = common::parse_csv(
        &std::fs::read_to_string(sb.join("out/small/rounds.csv")).expect("rounds"),
    );
    let most = lengths
        .iter()
        .filter(|r| r[0] == "0")
        .map(|r| r[1].parse::<u64>().expect("rounds"))
        .max()
        .expect("cell 0 has fights");
    assert_eq!(longest, most);
    // fights.md tells the baseline's typical fight and its upset, linked
    // from summary.md.
    let fights = std::fs::read_to_string(sb.join("out/small/fights.md")).expect("fights.md");
    assert!(
        fights.contains("## Typical fight: cell 0, fight"),
        "{fights}"
    );
    assert!(fights.contains("## Upset fight: cell 0, fight"), "{fights}");
    // Each is what `replay` prints for the fight its command names.
    for block in fights.split("\n## ").skip(1) {
        let command = block
            .lines()
            .find(|l| l.trim_start().starts_with("skirmish replay"))
            .expect("a command under each heading");
        // The command names the scenario file as the run was given it.
        let args: Vec<&str> = command.split_whitespace().skip(1).collect();
        assert_eq!(args[1], file, "{command}");
        let o = sb.run(&args);
        assert_eq!(o.code, 0, "{command}: {o:#?}");
        let told = block
            .split("```text\n")
            .nth(1)
            .and_then(|t| t.split("```").next())
            .expect("the fight in a text block");
        assert_eq!(o.stdout, told, "{command}");
    }
    let summary = std::fs::read_to_string(sb.join("out/small/summary.md")).expect("summary");
    assert!(summary.contains("](fights.md)"), "{summary}");
    let check = sb.run(&["run", file, "--out", "out", "--quiet", "--check"]);
    assert_eq!(check.code, 0, "{check:#?}");
}

#[test]
fn a_cell_without_an_upset_says_so() {
    let sb = common::Sandbox::new();
    let text = common::edit(
        common::SMALL,
        &[
            (
                "[sides.attackers]",
                "[units.giant]\nhp = 500\nweapons = [\"knife\"]\n\n[sides.attackers]",
            ),
            (
                "brawler = { count = 2, cover = \"half\" }",
                "giant = { count = 2 }",
            ),
        ],
    );
    let file = sb.write("giants.toml", &text);
    sb.mkdir("out");
    let (o, problems) = common::check_rejected(
        &sb,
        &["replay", file, "--pick", "upset"],
        &[file],
        &["no upset to show", "only defenders ever wins"],
    );
    assert!(problems.is_empty(), "{problems:?}: {o:#?}");
    // fights.md says so too, and shows the typical fight.
    let o = sb.run(&["run", file, "--out", "out", "--quiet"]);
    assert_eq!(o.code, 0, "{o:#?}");
    let fights = std::fs::read_to_string(sb.join("out/small/fights.md")).expect("fights.md");
    assert!(fights.contains("No upset to show"), "{fights}");
    assert!(
        fights.contains("## Typical fight: cell 0, fight"),
        "{fights}"
    );
}

#[test]
fn replay_refuses_what_names_no_fight() {
    let sb = common::Sandbox::new();
    let file = sb.write("small.toml", common::SMALL);
    // Nothing is written: the sandbox keeps its scenario and an empty `out`.
    sb.mkdir("out");
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["--where", "units.brawler.dex=1"],
            &[
                "`units.brawler.dex` is not an axis",
                "axes: options.crit, units.brawler.hp",
            ],
        ),
        (
            &["--where", "units.brawler.hp=9"],
            &["`9` is not one of its values", "values: 8, 12"],
        ),
        (
            &["--where", "hp"],
            &["--where expects AXIS=VALUE, found `hp`"],
        ),
        (
            &["--where", "options.crit=none"],
            &["2 cells match", "units.brawler.hp (8, 12)"],
        ),
        (
            &["--cell", "4"],
            &["--cell 4 is not a cell", "cells 0 to 3"],
        ),
        (
            &["--fight", "2000"],
            &["--fight 2000 is not a fight of cell 0", "fights 0 to 1999"],
        ),
        (
            &["--fight", "1", "--pick", "upset"],
            &["cannot be used with"],
        ),
        (
            &["--pick", "median"],
            &["typical, upset, longest, shortest"],
        ),
        (
            &["--cell", "1", "--where", "options.crit=none"],
            &["cannot be used with"],
        ),
    ];
    for (extra, expect) in cases {
        let mut args = vec!["replay", file];
        args.extend_from_slice(extra);
        let (o, problems) = common::check_rejected(&sb, &args, &[file], expect);
        assert!(problems.is_empty(), "{extra:?}: {problems:?}: {o:#?}");
    }
}
