//! `skirmish replay` and `fights.md` read like the rules:
//!
//! - every attack line names the weapon of the attack;
//! - a dodge says whether it worked, and a dicestep unit whose policy
//!   reacts but cannot says why (no stamina, none left, ...);
//! - thrum harm names the track (Fatigue or Stress) and its load against
//!   its tolerance;
//! - a unit brought back by another (resuscitated, stabilised) is brought
//!   back by a line naming who did it;
//! - units of one stat block are named alike;
//! - the typical fight of `fights.md` is a decided fight unless draws are
//!   most of the cell's fights, and says so when it stands for less than
//!   half of them;
//! - `fights.md` names the scenario file as the run was given it, the same
//!   whatever its spelling, and stays small however long its fights, with
//!   the command that prints a shortened fight whole.

use skirmish::engine::observe::Event;
use skirmish::replay::{self, narrate, Watched};
use skirmish::results::Streams;
use skirmish::run::{batch_size, plan, Plan};
use skirmish::scenario::{self, Scenario};

mod common;

/// The example scenario `file` with `edits` (see [`common::edit`]), its
/// plan, and the first `fights` fights of each of its cells, watched.
fn watched(file: &str, edits: &[(&str, &str)], fights: u64) -> (Scenario, Plan, Vec<Watched>) {
    let base = std::fs::read_to_string(format!("scenarios/{file}")).expect("example");
    let dir = tempfile::tempdir().expect("temporary folder");
    let path = dir.path().join(file);
    std::fs::write(&path, common::edit(&base, edits)).expect("write variant");
    let s = scenario::load(&path).expect("scenario loads");
    let p = plan(&s).expect("scenario plans");
    let size = batch_size(s.fights);
    let mut all = Vec::new();
    for cell in 0..p.cells.len() {
        for k in 0..fights {
            all.push(replay::watch(&p, cell, s.seed, Streams::Common, size, k));
        }
    }
    (s, p, all)
}

/// Every example scenario's file name.
fn examples() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir("scenarios")
        .expect("scenarios/")
        .map(|e| {
            e.expect("readable")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(".toml"))
        .collect();
    names.sort();
    names
}

/// The fight in words, without colours.
fn told(p: &Plan, w: &Watched) -> String {
    narrate::narrate(w, &replay::roster(p, w.cell), false)
}

/// Whether a narrated line is an attack's roll: a check whose result is a
/// hit or a miss (`...: 12 + 4 = 16 vs 14: hit [d20 12]`).
fn is_attack_line(line: &str) -> bool {
    let result = line.split(" [").next().unwrap_or(line);
    result.ends_with(": hit") || result.ends_with(": miss")
}

#[test]
fn every_attack_names_its_weapon() {
    let mut rulesets = std::collections::BTreeSet::new();
    for file in examples() {
        let (s, p, fights) = watched(&file, &[], 6);
        let mut attacks = 0;
        for w in &fights {
            let weapons = replay::roster(&p, w.cell).weapons;
            for line in told(&p, w).lines().filter(|l| is_attack_line(l)) {
                attacks += 1;
                assert!(
                    weapons
                        .iter()
                        .any(|name| line.contains(&format!(" with {name}: "))),
                    "{file}, cell {}, fight {}: an attack without its weapon (weapons: \
                     {weapons:?}): {line}",
                    w.cell,
                    w.fight
                );
            }
        }
        assert!(attacks > 0, "{file}: no attack told");
        rulesets.insert(s.rules.clone());
    }
    assert_eq!(rulesets.len(), skirmish::rules::NAMES.len(), "{rulesets:?}");
}

#[test]
fn a_dodge_says_whether_it_worked_and_a_reaction_not_taken_says_why() {
    // dicestep_skirmish's fighters dodge, parry or block as a matrix axis,
    // with 4 stamina and a shield of durability 4; with 2 stamina they run
    // out sooner. Rule text: "Reactions" (one a round, 1 stamina each) and
    // "Block" (the shield takes the hit until it breaks).
    let (_, p, fights) = watched(
        "dicestep_skirmish.toml",
        &[("stamina = 4", "stamina = 2")],
        12,
    );
    let mut verdicts = std::collections::BTreeMap::new();
    let mut reasons = std::collections::BTreeMap::new();
    for w in &fights {
        for line in told(&p, w).lines() {
            if line.contains(" dodge (") {
                let verdict = line
                    .split(" [")
                    .next()
                    .and_then(|l| l.rsplit(": ").next())
                    .unwrap_or_default()
                    .to_string();
                assert!(
                    verdict == "dodged" || verdict == "not dodged, the attack hits",
                    "a dodge says whether it worked: {line}"
                );
                *verdicts.entry(verdict).or_insert(0) += 1;
            }
            if let Some((_, why)) = line.split_once(": no reaction: ") {
                *reasons.entry(why.to_string()).or_insert(0) += 1;
            }
        }
        // A reaction the unit's policy would take is either taken or
        // explained: every attack on a unit that dodges is followed, once it
        // hits, by its dodge or preceded by why there is none.
        let events = &w.tape.events;
        for (i, e) in events.iter().enumerate() {
            let Event::Attack { target, .. } = *e else {
                continue;
            };
            if replay::cell_label(&p, w.cell).contains("reaction = dodge") {
                let rest = &events[i + 1..];
                let end = rest
                    .iter()
                    .position(|e| matches!(e, Event::Attack { .. } | Event::Turn { .. }))
                    .unwrap_or(rest.len());
                let attack = &rest[..end];
                // A misfire's new target chose no defence: only hits on the
                // unit attacked count.
                let hit = attack.iter().any(|e| {
                    matches!(e, Event::Check { target: t, rule, passed: true, .. }
                        if *t == target && rule.starts_with("attack"))
                });
                let dodged = attack.iter().any(|e| {
                    matches!(e, Event::Check { unit, rule, .. } if *unit == target && rule.starts_with("dodge"))
                });
                let why = attack.iter().any(|e| {
                    matches!(e, Event::Note { unit, what, .. } if *unit == target && what.starts_with("no reaction: "))
                });
                assert!(
                    !hit || dodged || why,
                    "cell {}, fight {}: a hit on a dodging unit neither dodged nor \
                     explained: {attack:?}",
                    w.cell,
                    w.fight
                );
                // Dodges are declared before the roll (the default
                // `declare_reactions`), so a miss spends one too: every
                // attack on a dodging unit says it declared one, or why not.
                let declared = attack.iter().any(|e| {
                    matches!(e, Event::Note { unit, what, .. } if *unit == target && what.starts_with("declares a dodge"))
                });
                assert!(
                    declared || why,
                    "cell {}, fight {}: an attack on a dodging unit neither \
                     declared its dodge nor said why not: {attack:?}",
                    w.cell,
                    w.fight
                );
            }
        }
    }
    assert!(verdicts.len() == 2, "both verdicts seen: {verdicts:?}");
    for why in [
        "no stamina left",
        "none left this round",
        "its shield is broken",
    ] {
        assert!(reasons.contains_key(why), "`{why}` never told: {reasons:?}");
    }
}

/// The dice shown on a narrated line: `[d6 2, d6 1]` → 2.
fn dice_on(line: &str) -> usize {
    line.rsplit_once(" [")
        .filter(|(_, d)| d.starts_with('d'))
        .map_or(0, |(_, d)| d.split(", ").count())
}

#[test]
fn dice_sit_on_the_line_of_the_roll_they_belong_to() {
    // dicestep's tests: attribute die + skill die, then the luck die
    // alongside ("Tests"); a thrown or projectile attack whose luck die
    // shows its lowest face misfires into a random character within 1 m
    // ("Misfire"). Thrown spears make misfires happen.
    let (_, p, fights) = watched(
        "dicestep_skirmish.toml",
        &[(
            "damage_type = \"piercing\"",
            "damage_type = \"piercing\"\nkind = \"thrown\"",
        )],
        40,
    );
    let mut misfires = 0;
    for w in &fights {
        let text = told(&p, w);
        assert!(!text.contains("dice not yet read"), "{text}");
        for line in text.lines() {
            if line.contains(" luck die (+ luck): ") {
                assert_eq!(dice_on(line), 1, "the luck die alone: {line}");
            }
            if line.contains(" attack (") || line.contains(" dodge (") {
                // Two dice, more when they explode or with advantage.
                assert!(dice_on(line) >= 2, "the test's own dice: {line}");
            }
            if line.contains("misfire") {
                misfires += 1;
                assert!(dice_on(line) <= 1, "only the die that chose: {line}");
            }
        }
    }
    assert!(misfires > 0, "no misfire in the fights watched");
}

#[test]
fn thrum_harm_names_its_track_and_its_load_against_tolerance() {
    // Thrum's text, "Load and Tolerance": a hit adds to the Fatigue or the
    // Stress Load; over the Tolerance a unit is Exhausted or Frayed.
    let mut tracks = std::collections::BTreeSet::new();
    for file in examples() {
        let (s, p, fights) = watched(&file, &[], 8);
        if s.rules != "thrum" {
            continue;
        }
        for w in &fights {
            let text = told(&p, w);
            let mut loads = w.tape.events.iter().filter_map(|e| match *e {
                Event::Load {
                    amount,
                    track,
                    load,
                    tolerance,
                    ..
                } => Some((amount, track.name(), load, tolerance)),
                _ => None,
            });
            for line in text.lines().filter(|l| l.contains(" takes ")) {
                let (amount, track, load, tolerance) =
                    loads.next().expect("a harm line per harm event");
                let said = format!(" takes {amount} {track} from ");
                let against = format!("({track} Load {load} vs Tolerance {tolerance}");
                assert!(
                    line.contains(&said) && line.contains(&against),
                    "{file}: {line}"
                );
                assert_eq!(
                    line.contains(", over it: "),
                    load > tolerance,
                    "{file}: {line}"
                );
                tracks.insert(track);
            }
            assert!(loads.next().is_none(), "{file}: every harm is told");
        }
    }
    assert!(
        tracks.contains("Fatigue") && tracks.contains("Stress"),
        "{tracks:?}"
    );
}

#[test]
fn a_unit_brought_back_by_another_is_brought_back_by_name() {
    // Every ruleset that lets one unit bring another back: dicestep's
    // Resuscitate, osr's stabilising check, thrum's Resuscitate.
    let mut rescues = 0;
    for file in examples() {
        let (_, p, fights) = watched(&file, &[], 40);
        for w in &fights {
            let events = &w.tape.events;
            let mut turn_start = 0;
            let mut actor = None;
            for (i, e) in events.iter().enumerate() {
                match *e {
                    Event::Turn { unit } => {
                        turn_start = i;
                        actor = Some(unit);
                    }
                    Event::Round { .. } => actor = None,
                    Event::Back { unit } if actor.is_some_and(|a| a != unit) => {
                        let by = actor.expect("an actor");
                        let named = events[turn_start..i].iter().any(|e| match *e {
                            Event::Check {
                                unit: u, target, ..
                            }
                            | Event::Note {
                                unit: u, target, ..
                            }
                            | Event::Roll {
                                unit: u, target, ..
                            } => u == by && target == unit,
                            _ => false,
                        });
                        assert!(
                            named,
                            "{file}, cell {}, fight {}: {} back in {}'s turn with no line \
                             naming who brought it back:\n{}",
                            w.cell,
                            w.fight,
                            unit,
                            by,
                            told(&p, w)
                        );
                        rescues += 1;
                    }
                    _ => {}
                }
            }
        }
    }
    assert!(rescues > 0, "no unit brought back by another");
}

#[test]
fn units_of_one_stat_block_are_named_alike() {
    // osr_death_clock: red fields 3 soldiers and a medic, blue 4 soldiers;
    // blue's fourth soldier is a soldier of blue like the other three.
    let (_, p, _) = watched("osr_death_clock.toml", &[], 0);
    let roster = replay::roster(&p, 0);
    let names: Vec<String> = (0..roster.units.len())
        .map(|i| roster.unit(i as u8))
        .collect();
    assert!(names.contains(&"soldier 4 (blue)".to_string()), "{names:?}");
    assert!(names.contains(&"soldier 1 (red)".to_string()), "{names:?}");
    assert!(names.contains(&"medic".to_string()), "{names:?}");
}

/// `fights.md` of `file` run in `sb` into `out`.
fn fights_md(sb: &common::Sandbox, file: &str, out: &str, extra: &[&str]) -> String {
    let mut args = vec!["run", file, "--out", out, "--quiet"];
    args.extend_from_slice(extra);
    let o = sb.run(&args);
    assert_eq!(o.code, 0, "{o:#?}");
    let name = std::fs::read_dir(sb.join(out))
        .expect("out")
        .next()
        .expect("a report")
        .expect("readable")
        .file_name();
    std::fs::read_to_string(sb.join(out).join(name).join("fights.md")).expect("fights.md")
}

#[test]
fn the_typical_fight_is_decided_unless_draws_are_most() {
    // A round cap of 3 makes draws of many knife fights: in cell 0 (9 HP)
    // draws are more than either side's wins but not half the fights; in
    // cell 1 (11 HP) they are most of them.
    let sb = common::Sandbox::new();
    let text = common::edit(
        common::SMALL,
        &[
            ("max_rounds = 50", "max_rounds = 3"),
            (
                "\"units.brawler.hp\" = [8, 12]",
                "\"units.brawler.hp\" = [9, 11]",
            ),
        ],
    );
    let file = sb.write("capped.toml", &text);
    let fights = fights_md(&sb, file, "out", &[]);
    let (header, rows) = common::parse_csv(
        &std::fs::read_to_string(sb.join("out/small/cells.csv")).expect("cells.csv"),
    );
    let col = |name: &str| header.iter().position(|h| h == name).expect(name);
    let count = |row: usize, name: &str| rows[row][col(name)].parse::<u64>().expect(name);
    let draws = |row: usize| {
        count(row, "fights") - count(row, "wins_attackers") - count(row, "wins_defenders")
    };
    // The set-up: draws lead cell 0 without being most of it, and are most
    // of cell 1.
    assert!(draws(0) > count(0, "wins_attackers") && draws(0) > count(0, "wins_defenders"));
    assert!(2 * draws(0) <= count(0, "fights"));
    assert!(2 * draws(1) > count(1, "fights"));

    let typical = fights
        .split("## Typical fight")
        .nth(1)
        .and_then(|t| t.split("## Upset").next())
        .expect("a typical fight");
    assert!(typical.contains(": won by "), "{typical}");
    assert!(!typical.contains(": a draw"), "{typical}");
    assert!(
        typical.contains("Not most of the cell's fights"),
        "it says it stands for less than half: {typical}"
    );
    // Where draws are most, the typical fight is one, and replay says so.
    let o = sb.run(&["replay", file, "--cell", "1"]);
    assert_eq!(o.code, 0, "{o:#?}");
    assert!(o.stdout.contains(": a draw (round cap)"), "{}", o.stdout);
    assert!(
        o.stderr.contains("Draws are most of this cell's fights"),
        "{o:#?}"
    );
}

#[test]
fn fights_md_names_the_scenario_file_the_same_whatever_its_spelling() {
    let sb = common::Sandbox::new();
    let file = sb.write("scenarios/small.toml", common::SMALL);
    let first = fights_md(&sb, file, "a", &[]);
    assert!(
        first.contains(
            "    skirmish replay scenarios/small.toml --fights 2000 --seed 7 --cell 0 --fight "
        ),
        "{first}"
    );
    let absolute = sb.join("scenarios/small.toml");
    let absolute = absolute.to_str().expect("a UTF-8 path");
    let dotted = sb.join("scenarios/../scenarios/./small.toml");
    let dotted = dotted.to_str().expect("a UTF-8 path");
    for (i, spelling) in [
        "./scenarios/small.toml",
        "scenarios//small.toml",
        absolute,
        dotted,
    ]
    .into_iter()
    .enumerate()
    {
        let out = format!("b{i}");
        assert_eq!(fights_md(&sb, spelling, &out, &[]), first, "{spelling}");
        // And `run --check` of the first report agrees, with any spelling.
        let o = sb.run(&["run", spelling, "--out", "a", "--quiet", "--check"]);
        assert_eq!(o.code, 0, "{spelling}: {o:#?}");
    }
    // A file outside the current folder: its name alone, nothing of this
    // machine.
    let elsewhere = tempfile::tempdir().expect("temporary folder");
    let outside = elsewhere.path().join("small.toml");
    std::fs::write(&outside, common::SMALL).expect("write");
    let told = fights_md(&sb, outside.to_str().expect("UTF-8"), "c", &[]);
    assert!(
        told.contains("    skirmish replay small.toml --fights"),
        "{told}"
    );
    let machine = elsewhere.path().to_string_lossy().into_owned();
    assert!(!told.contains(&machine), "{told}");
}

#[test]
fn fights_md_names_the_scenario_file_from_the_report_not_the_current_folder() {
    // The same report written from the repository root and from a
    // subfolder (`cd scenarios; skirmish run small.toml --out ../reports`)
    // must be the same bytes: the command's path is anchored on the folder
    // that holds the reports folder, where the command is to be run.
    let sb = common::Sandbox::new();
    let file = sb.write("scenarios/small.toml", common::SMALL);
    let from_root = fights_md(&sb, file, "reports", &[]);
    assert!(
        from_root.contains("    skirmish replay scenarios/small.toml --fights 2000"),
        "{from_root}"
    );
    let o = common::skirmish_in(
        &sb.join("scenarios"),
        &[
            "run",
            "small.toml",
            "--out",
            "../reports",
            "--quiet",
            "--check",
        ],
    );
    assert_eq!(o.code, 0, "{o:#?}");
    let o = common::skirmish_in(
        &sb.join("scenarios"),
        &["run", "small.toml", "--out", "../elsewhere", "--quiet"],
    );
    assert_eq!(o.code, 0, "{o:#?}");
    let from_sub =
        std::fs::read_to_string(sb.join("elsewhere/small/fights.md")).expect("fights.md");
    assert_eq!(from_sub, from_root);
}

#[test]
fn fights_md_stays_small_and_says_how_to_see_a_long_fight_whole() {
    // Thrum fights run to dozens of rounds of six units: whole, the two
    // fights of thrum_skirmish's fights.md took 132 KB.
    let sb = common::Sandbox::new();
    for example in ["thrum_skirmish.toml", "thrum_panic.toml"] {
        let text = std::fs::read_to_string(format!("scenarios/{example}")).expect("example");
        let file = format!("scenarios/{example}");
        sb.write(&file, &text);
        let out = example.trim_end_matches(".toml");
        let fights = fights_md(&sb, &file, out, &[]);
        assert!(
            fights.len() < 40 * 1024,
            "{example}: {} bytes",
            fights.len()
        );
        let mut shortened = 0;
        for block in fights.split("```text\n").skip(1) {
            let shown = block.split("```").next().expect("a text block");
            let Some((head, rest)) = shown.split_once("\n[… ") else {
                continue;
            };
            shortened += 1;
            let (said, tail) = rest.split_once("]\n").expect("the line ends");
            let command = said.split_once("the whole fight: ").expect("the command").1;
            let args: Vec<&str> = command.split_whitespace().skip(1).collect();
            let o = sb.run(&args);
            assert_eq!(o.code, 0, "{command}: {o:#?}");
            let whole = o.stdout;
            assert!(
                whole.starts_with(&format!("{head}\n")),
                "{example}: the head"
            );
            assert!(whole.ends_with(tail), "{example}: the tail");
            let left_out = whole.len() - head.len() - 1 - tail.len();
            let lines: usize = said
                .split(' ')
                .next()
                .expect("a count")
                .parse()
                .expect("lines");
            assert_eq!(
                whole[head.len() + 1..head.len() + 1 + left_out]
                    .lines()
                    .count(),
                lines,
                "{example}: {said}"
            );
        }
        assert!(shortened > 0, "{example}: no fight shortened");
    }
}
