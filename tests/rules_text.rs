//! Readings of the rule texts, through the library's public API: where a
//! text is silent or easily misread, the default is its most literal
//! reading and the other reading an option, and the two differ where it
//! matters. Each test names the section of the text it pins; the rulesets'
//! own tests (`src/rules/NAME_tests.rs`) pin the details with scripted dice.

use skirmish::dice::ScriptedDice;
use skirmish::engine::Fight;
use skirmish::rules::{dicestep, escalation, trenches, Dicestep, Escalation, Ruleset, Trenches};
use skirmish::testkit::{
    as_turn, assert_within_four_se, encounter, fight, fight_rate, four_se, with_options,
};

/// A medic (1 m back), a fragile fighter and a brute, for three rounds
/// (`fixtures/revival.toml`, shared with the ruleset's own tests). Any hit
/// of the brute knocks the fighter out (1 damage through deflection 100,
/// missing health 1 above constitution 0, no fortify); the medic, always
/// first of red (luck +20), revives it for sure at the start of each
/// round; the brute swings once a round at the nearest, the fighter: d6 +
/// d6 + 1 against evasion 9, no criticals. Nobody else attacks, reacts or
/// guards.
fn revival(opts: &str) -> String {
    with_options(include_str!("fixtures/revival.toml"), opts)
}

#[test]
fn dicestep_a_resuscitated_fighter_is_on_its_feet_unless_knock_out_prone() {
    // dicestep, "Damage" and "Death": a character "become[s] unconscious";
    // nothing lays it prone (prone comes from Drop Prone and the rescuer's
    // Resuscitate). So every swing of the brute meets a fighter on its feet,
    // and the fighter is down after three rounds iff the last swing hit:
    // p = P(d6 + d6 + 1 ≥ 9) = 15/36. With `knock_out_prone = true` the
    // revived fighter is prone when the brute swings (advantage), so it is
    // down more often.
    let n = 20_000;
    let p = 15.0 / 36.0;
    let down = |opts: &str| {
        let enc = encounter::<Dicestep>(&revival(opts));
        fight_rate(&enc, n, 26, |f, _| f.units[1].out)
    };
    let as_written = down("");
    assert_within_four_se("fighter down, as written", as_written, p, n);
    let laid_down = down("knock_out_prone = true");
    let apart = (four_se(as_written, n).powi(2) + four_se(laid_down, n).powi(2)).sqrt();
    assert!(
        laid_down - as_written > apart,
        "laid prone: {laid_down:.4} against {as_written:.4} (4 SE of the difference {apart:.4})"
    );
}

#[test]
fn dicestep_after_hit_a_misfires_new_target_chooses_its_defence() {
    // dicestep, "Attacks": on a luck roll of 1 the attack goes to a
    // character next to the target, and "She finishes the attack as normal,
    // but with her ally as the new target". Under `declare_reactions =
    // "after-hit"` the one hit chooses its defence once hit: the shot at
    // `front` (3 + 3 + 1 = 7 ≥ 6) goes to `other` (the only one beside it)
    // on a luck roll of 1, and `other` dodges (6 + 4 ≥ 7).
    let enc = encounter::<Dicestep>(
        r#"
name = "misfire"
rules = "dicestep"
[options]
declare_reactions = "after-hit"
[weapons.bow]
kind = "projectile"
attribute = "dex"
damage = 3
[units.archer]
evasion = 6
endurance = 12
health = 12
weapons = ["bow"]
[units.x]
evasion = 6
endurance = 12
health = 12
reaction = "dodge"
weapons = ["bow"]
[sides.red]
archer = { distance = 20 }
[sides.blue]
x = { count = 2 }
"#,
    );
    let mut f = fight(&enc);
    let mut dice = ScriptedDice::new(&[(6, 3), (6, 3), (20, 1), (6, 6), (4, 4), (20, 5)]);
    let r = as_turn(&enc, &mut f, &mut dice, 0, |t| dicestep::attack(t, 1, 0));
    dice.assert_done();
    assert!(r.misfire && r.hit);
    assert_eq!(r.target, 2);
    assert!(r.dodged, "the misfire's new target dodged");
    assert_eq!(f.units[2].state.endurance, 12);
    assert_eq!(f.units[2].state.stamina, 2);
    assert_eq!(
        f.units[1].state.stamina, 3,
        "the first target chose nothing"
    );
}

#[test]
fn trenches_passing_an_enemy_provokes_only_with_passing_provokes() {
    // trenches, "Combat Rounds": attacks of opportunity are "taken when an
    // enemy, previously within melee distance, attempts to disengage by
    // turning their backs and fleeing the fight". Red, 20 m out, picks
    // `far` (20 m behind `near`; a d2 of 2) and runs past `near` (30 m),
    // then sprints to `far`: it was never within `near`'s 5 m before the
    // move, so `near` does not attack; with `passing_provokes = true` it
    // does (a natural 3 misses).
    // `fixtures/two_deep.toml`, shared with the ruleset's own tests.
    let text = |opts: &str| {
        with_options(include_str!("fixtures/two_deep.toml"), opts)
            .replace("s = {}", "s = { distance = 20 }")
    };
    for (opts, rolls, provoked) in [
        ("", &[(2, 2)][..], 0),
        ("passing_provokes = true", &[(2, 2), (20, 3)][..], 1),
    ] {
        let enc = encounter::<Trenches>(&text(opts));
        let mut f = fight(&enc);
        let mut dice = ScriptedDice::new(rolls);
        as_turn(&enc, &mut f, &mut dice, 0, Trenches::take_turn);
        dice.assert_done();
        assert_eq!(
            f.counters[trenches::counter::OPPORTUNITY],
            provoked,
            "[{opts}]"
        );
        assert_eq!(f.units[0].position, 15, "red ran past `near` to `far`");
    }
}

#[test]
fn escalation_the_opening_attack_has_a_switch() {
    // escalation, "Initiative/Initiating": "if someone initiates combat by
    // attacking before the battle officially starts, they are placed last".
    // Two one-hit units, the initiator `a` slower in the lineup anyway. The
    // same dice (a d20 of 15 hits either, a d4 of 3 fells either): with the
    // opening attack (default) `a` strikes first and wins; with
    // `opening_attack = false` `b`'s turn comes first and `b` wins.
    let text = |opts: &str| {
        format!(
            r#"
name = "opening"
rules = "escalation"
max_rounds = 1
[options]
{opts}
[weapons.knife]
damage = "1d4"
[units.a]
hp = 1
initiator = true
weapons = ["knife"]
[units.b]
hp = 1
agility = 1
weapons = ["knife"]
[sides.red]
a = {{}}
[sides.blue]
b = {{}}
"#
        )
    };
    for (opts, winner) in [("", 0), ("opening_attack = false", 1)] {
        let enc = encounter::<Escalation>(&text(opts));
        let mut f = Fight::<Escalation>::new();
        let mut dice = ScriptedDice::new(&[(20, 15), (4, 3)]);
        let outcome = f.run(&enc, &mut dice);
        dice.assert_done();
        assert_eq!(outcome.winner, Some(winner), "[{opts}]");
        assert_eq!(f.counters[escalation::counter::ATTACKS], 1, "[{opts}]");
    }
}
