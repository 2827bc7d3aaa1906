//! Which side opens under team-alternating activation (issue 26, section
//! 1): `[options] opening = "first" | "second" | "random"`, so that "the
//! bigger side" and "the side that opens" can be separated in one matrix.
//! The rules: seeds/002 (dicestep), "Initiative and Rounds": teams take
//! turns, one member each, the team that started the fight first.

mod common;

use common::{check_rejected, edit, line_of, Sandbox, SMALL};
use skirmish::dice::RngDice;
use skirmish::engine::observe::{Event, Recorder};
use skirmish::engine::{Encounter, Fight, Tally};
use skirmish::rules::Dicestep;
use skirmish::testkit::{encounter, four_se};

/// Two spear fighters against three, in dicestep (team-alternating by
/// default), with `options` added to `[options]`.
fn patrol(options: &str) -> String {
    format!(
        r#"name = "patrol"
rules = "dicestep"
fights = 200
seed = 2
max_rounds = 30

[options]
{options}

[weapons.spear]
attribute = "either"
damage = 4

[units.fighter]
str = 6
dex = 6
combat = 6
evasion = 6
endurance = 10
health = 10
weapons = ["spear"]

[sides.party]
fighter = {{ count = 2, distance = 3 }}

[sides.patrol]
fighter = {{ count = 3, distance = 3 }}
"#
    )
}

/// For each of `fights` fights (dice seeded 26), the side of the unit that
/// took the first turn of round 1.
fn openers(enc: &Encounter<Dicestep>, fights: u32) -> Vec<u8> {
    let mut dice = RngDice::for_batch(26, 0);
    let mut fight = Fight::new();
    fight.prepare(enc);
    (0..fights)
        .map(|_| {
            let mut tape = Recorder::default();
            fight.next_fight_watched(enc, &mut dice, &mut tape);
            let first = tape.events.iter().find_map(|e| match e {
                Event::Turn { unit } => Some(*unit),
                _ => None,
            });
            enc.units[first.expect("a turn was taken") as usize].side
        })
        .collect()
}

fn tally(enc: &Encounter<Dicestep>) -> Tally {
    let mut t = Tally::default();
    Fight::new().run_into(enc, &mut RngDice::for_batch(26, 0), 2000, &mut t);
    t
}

#[test]
fn the_first_listed_side_opens_unless_opening_names_the_second() {
    // "Initiative and Rounds": without surprise the first listed team opens
    // every round; `opening = "second"` hands that to the second team.
    let default = encounter::<Dicestep>(&patrol(""));
    let first = encounter::<Dicestep>(&patrol("opening = \"first\""));
    let second = encounter::<Dicestep>(&patrol("opening = \"second\""));
    assert!(openers(&default, 50).iter().all(|&s| s == 0));
    assert!(openers(&first, 50).iter().all(|&s| s == 0));
    assert!(openers(&second, 50).iter().all(|&s| s == 1));
    // Naming the default changes no fight (same dice, same tally), and
    // the second side opening does change them.
    assert_eq!(tally(&default), tally(&first));
    assert_ne!(tally(&default), tally(&second));
}

#[test]
fn a_random_opening_is_drawn_each_fight_with_even_odds() {
    let random = encounter::<Dicestep>(&patrol("opening = \"random\""));
    let n = 4000u32;
    let second = openers(&random, n).iter().filter(|&&s| s == 1).count();
    let share = second as f64 / f64::from(n);
    let bound = four_se(0.5, n);
    assert!(
        (share - 0.5).abs() < bound,
        "the second side opened {share:.4} of {n} fights; expected 0.5 ± {bound:.4}"
    );
}

#[test]
fn opening_is_refused_where_nothing_would_read_it() {
    let cases = [
        // Individual initiative: units act in their own order.
        (
            patrol("initiative = \"rolled\"\nopening = \"second\""),
            "opening = \"second\"",
            vec!["`options.opening`", "initiative is `rolled`", "ignored"],
        ),
        // Side initiative rolls who opens every fight.
        (
            patrol("initiative = \"side\"\nopening = \"first\""),
            "opening = \"first\"",
            vec!["`options.opening`", "initiative is `side`"],
        ),
        // dicestep's surprise already says who opens: the surprisers.
        (
            patrol("surprise = \"first\"\nopening = \"random\""),
            "opening = \"random\"",
            vec!["`options.opening`", "`surprise`", "already decide"],
        ),
        // trenches rolls initiative by default: said so.
        (
            edit(
                SMALL,
                &[(
                    "[weapons.knife]",
                    "[options]\nopening = \"second\"\n\n[weapons.knife]",
                )],
            ),
            "opening = \"second\"",
            vec!["initiative is `rolled` here (the `trenches` default)"],
        ),
        // Through a matrix axis: the cell is named.
        (
            format!(
                "{}\n[matrix]\n\"options.opening\" = [\"first\", \"second\"]\n",
                patrol("initiative = \"fixed\"")
            ),
            "\"options.opening\"",
            vec!["cell 0", "initiative is `fixed`"],
        ),
    ];
    let mut failures = Vec::new();
    for (text, at, expect) in &cases {
        let sb = Sandbox::new();
        sb.mkdir("out");
        let file = sb.write("p.toml", text);
        let mut expect: Vec<String> = expect.iter().map(|s| s.to_string()).collect();
        expect.push(format!("p.toml:{}:", line_of(text, at)));
        let expect: Vec<&str> = expect.iter().map(String::as_str).collect();
        for args in [
            vec!["validate", file],
            vec!["run", file, "--out", "out", "--quiet"],
        ] {
            let (_, problems) = check_rejected(&sb, &args, &[file], &expect);
            if !problems.is_empty() {
                failures.push(format!("{at}: {}", problems.join("; ")));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_dicestep_skirmish_scenario_fights_both_openings() {
    // Issue 26, section 4: the bigger side's edge and the opening side's
    // edge, apart. The scenario validates and its matrix has the patrol
    // opening for every patrol size.
    let sb = Sandbox::new();
    let text = std::fs::read_to_string("scenarios/dicestep_skirmish.toml").expect("scenario");
    assert!(text.contains("opening = \"second\""));
    let file = sb.write("d.toml", &text);
    let o = sb.run(&["validate", file]);
    assert_eq!(o.code, 0, "{o:#?}");
    assert!(o.stdout.contains("36 cells"), "{}", o.stdout);
}
