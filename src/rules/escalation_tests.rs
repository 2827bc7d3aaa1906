//! `escalation` rules pinned with scripted dice, and checked statistically
//! against exact probabilities.
//!
//! Dice order of one attack: d20; on a natural 20 the d4 (and on a 4 the
//! d6); on a natural 1 in the target's zone the d4 (and on a 4 the d6), then
//! the target's free hit; on a hit the damage dice, the sneak d4 if
//! undetected, the fatal aim's d4 if it wounds.

use super::*;
use crate::dice::{RngDice, ScriptedDice};
use crate::engine::{Encounter, Fight};
use crate::testkit::{as_turn, assert_within_four_se, encounter, fight, fight_rate, four_se, rate};

/// Unit 0 (`a`, side red: ACC +2, 1d8 sword, aim slowing) and unit 1 (`b`,
/// side blue: AGI +1, so hit on 11; 1d6 sword, aim slowing), both 30 HP,
/// both on the front line (distance 0, in each other's zone). `a_extra` and
/// `b_extra` are added to the stat blocks, `opts` to `[options]`.
fn duel(opts: &str, a_extra: &str, b_extra: &str) -> Encounter<Escalation> {
    let a = block(
        &[
            ("hp", "30"),
            ("accuracy", "2"),
            ("aim", "\"slowing\""),
            ("weapons", "[\"sword\"]"),
        ],
        a_extra,
    );
    let b = block(
        &[
            ("hp", "30"),
            ("agility", "1"),
            ("aim", "\"slowing\""),
            ("weapons", "[\"knife\"]"),
        ],
        b_extra,
    );
    encounter(&format!(
        r#"
name = "t"
rules = "escalation"
[options]
{opts}
[weapons.sword]
damage = "1d8"
[weapons.knife]
damage = "1d6"
[weapons.bow]
kind = "ranged"
damage = "1d6"
range = 20
[units.a]
{a}
[units.b]
{b}
[sides.red]
a = {{}}
[sides.blue]
b = {{}}
"#
    ))
}

/// A stat block: `defaults` (key, value) except the keys `extra` sets, then
/// `extra`.
fn block(defaults: &[(&str, &str)], extra: &str) -> String {
    let set = |k: &str| {
        extra
            .lines()
            .any(|l| l.split('=').next().map(str::trim) == Some(k))
    };
    let mut s: String = defaults
        .iter()
        .filter(|(k, _)| !set(k))
        .map(|(k, v)| format!("{k} = {v}\n"))
        .collect();
    s.push_str(extra);
    s
}

/// One `swing` by unit 0 on unit 1 with its first weapon, in round 1.
fn swing_as(
    enc: &Encounter<Escalation>,
    f: &mut Fight<Escalation>,
    swing: Swing,
    rolls: &[(u32, u32)],
) -> AttackResult {
    let mut dice = ScriptedDice::new(rolls);
    let weapon = enc.units[0].stats.weapons[0];
    let r = as_turn(enc, f, &mut dice, 0, |t| attack(t, 1, &weapon, swing));
    dice.assert_done();
    r
}

fn swing(enc: &Encounter<Escalation>, rolls: &[(u32, u32)]) -> (AttackResult, Fight<Escalation>) {
    let mut f = fight(enc);
    f.round = 1;
    let r = swing_as(enc, &mut f, Swing::Main, rolls);
    (r, f)
}

/// Play unit `actor`'s whole turn with `rolls`.
fn play(
    enc: &Encounter<Escalation>,
    f: &mut Fight<Escalation>,
    actor: usize,
    rolls: &[(u32, u32)],
) {
    let mut dice = ScriptedDice::new(rolls);
    as_turn(enc, f, &mut dice, actor, Escalation::take_turn);
    dice.assert_done();
}

#[test]
fn order_is_descending_agility_and_the_initiator_goes_last() {
    let enc = encounter::<Escalation>(
        r#"
name = "t"
rules = "escalation"
[options]
initiative_ties = "roster"
[weapons.w]
damage = "1d4"
[units.slow]
hp = 5
weapons = ["w"]
[units.quick]
hp = 5
agility = 3
weapons = ["w"]
[units.ambusher]
hp = 5
agility = 5
initiator = true
weapons = ["w"]
[units.mid]
hp = 5
agility = 1
weapons = ["w"]
[sides.red]
slow = {}
ambusher = {}
[sides.blue]
quick = {}
mid = {}
"#,
    );
    let mut f = fight(&enc);
    // No dice: the order is fixed. quick (3), mid (1), slow (0), then the
    // ambusher (5, but it started the fight).
    f.make_order(&enc, &mut ScriptedDice::new(&[]));
    assert_eq!(f.turn_order(), &[2, 3, 0, 1]);

    // Delay: quick (3) delaying by 3 acts as 0, after mid (1); tied with
    // slow (0) it keeps roster order (initiative_ties = roster).
    let delayed = encounter::<Escalation>(
        r#"
name = "t"
rules = "escalation"
[options]
initiative_ties = "roster"
[weapons.w]
damage = "1d4"
[units.slow]
hp = 5
weapons = ["w"]
[units.quick]
hp = 5
agility = 3
delay = 3
weapons = ["w"]
[units.mid]
hp = 5
agility = 1
weapons = ["w"]
[sides.red]
slow = {}
[sides.blue]
quick = {}
mid = {}
"#,
    );
    let mut f = fight(&delayed);
    f.make_order(&delayed, &mut ScriptedDice::new(&[]));
    assert_eq!(f.turn_order(), &[2, 0, 1]);

    // Ties: random by default, one draw per fight.
    let enc = duel("", "", "agility = 0");
    let mut f = fight(&enc);
    f.make_order(&enc, &mut ScriptedDice::new(&[(2, 1)]));
    assert_eq!(f.turn_order(), &[1, 0]);
    f.make_order(&enc, &mut ScriptedDice::new(&[(2, 2)]));
    assert_eq!(f.turn_order(), &[0, 1]);
}

#[test]
fn a_hit_needs_d20_plus_accuracy_at_least_ten_plus_agility() {
    let enc = duel("", "", "");
    // 9 + 2 = 11 = 10 + 1: hit, 1d8 = 5.
    let (r, f) = swing(&enc, &[(20, 9), (8, 5)]);
    assert!(r.hit);
    assert_eq!((r.total, r.target_number, r.damage), (11, 11, 5));
    assert_eq!(f.units[1].state.hp, 25);
    assert_eq!(f.damage[0], 5);
    // 8 + 2 = 10: miss.
    let (r, _) = swing(&enc, &[(20, 8)]);
    assert!(!r.hit);
    // Center-mass aim: +1.
    let enc = duel("", "aim = \"center-mass\"", "");
    let (r, _) = swing(&enc, &[(20, 8), (8, 5)]);
    assert!(r.hit);
    assert_eq!(r.total, 11);
    // Weapon accuracy and Strength on melee damage.
    let enc = duel("", "strength = 2", "");
    let (r, _) = swing(&enc, &[(20, 9), (8, 5)]);
    assert_eq!(r.damage, 7);
}

#[test]
fn flat_footed_and_prone_targets() {
    // Flat-footed (stat block): hit on 5 whatever the Agility.
    let enc = duel("", "", "flat_footed = true\nagility = 6");
    let (r, _) = swing(&enc, &[(20, 3), (8, 1)]);
    assert_eq!(r.target_number, 5);
    assert!(r.hit);
    // Tied up / frozen / paralyzed: the shared conditions, flat-footed too.
    for c in [
        "restrained",
        "paralyzed",
        "stunned",
        "incapacitated",
        "unconscious",
    ] {
        let mut enc = duel("", "", "agility = 6");
        enc.units[1].conditions.set(Condition::parse(c).unwrap());
        let (r, _) = swing(&enc, &[(20, 3), (8, 1)]);
        assert_eq!(r.target_number, 5, "{c}");
    }
    // Prone: 5 + Agility (and no dodge).
    let mut enc = duel("", "", "agility = 3");
    enc.units[1].conditions.set(Condition::Prone);
    let (r, _) = swing(&enc, &[(20, 6), (8, 1)]);
    assert_eq!(r.target_number, 8);
    assert!(r.hit);
}

#[test]
fn undetected_attackers_sneak_a_d4_that_crits_multiply() {
    let enc = duel("", "undetected = true", "agility = 6");
    let mut f = fight(&enc);
    f.round = 1;
    // First attack: target flat-footed (5), 1d8 = 3 + sneak 1d4 = 2.
    let r = swing_as(&enc, &mut f, Swing::Main, &[(20, 3), (8, 3), (4, 2)]);
    assert_eq!((r.target_number, r.damage), (5, 5));
    // Seen now: 10 + 6 again, no sneak die.
    let r = swing_as(&enc, &mut f, Swing::Main, &[(20, 3)]);
    assert_eq!(r.target_number, 16);
    assert!(!r.hit);
    // A sneak critical doubles the sneak die too: (3 + 2) × 2 = 10.
    let (r, _) = swing(&enc, &[(20, 20), (4, 1), (8, 3), (4, 2)]);
    assert_eq!(r.damage, 10);
}

/// `count` attackers `a` (with `a_extra` in their stat block) on one side
/// against a lone `b`: 30 hp each, a 1d4 weapon.
fn gang(count: usize, a_extra: &str) -> Encounter<Escalation> {
    encounter::<Escalation>(&format!(
        r#"
name = "t"
rules = "escalation"
[weapons.w]
damage = "1d4"
[units.a]
hp = 30
{a_extra}
weapons = ["w"]
[units.b]
hp = 30
weapons = ["w"]
[sides.red]
a = {{ count = {count} }}
[sides.blue]
b = {{}}
"#
    ))
}

#[test]
fn flanking_gives_plus_one() {
    let enc = gang(2, r#"aim = "slowing""#);
    let mut f = fight(&enc);
    f.round = 1;
    let w = enc.units[0].stats.weapons[0];
    let mut dice = ScriptedDice::new(&[(20, 9), (4, 1)]);
    let r = as_turn(&enc, &mut f, &mut dice, 0, |t| {
        attack(t, 2, &w, Swing::Main)
    });
    dice.assert_done();
    assert_eq!(r.total, 10, "two enemies in its zone: flanked, +1");
    assert!(r.hit);
    // The second attacker steps away: no flank.
    f.units[1].position = -5;
    let mut dice = ScriptedDice::new(&[(20, 9)]);
    let r = as_turn(&enc, &mut f, &mut dice, 0, |t| {
        attack(t, 2, &w, Swing::Main)
    });
    assert_eq!(r.total, 9);
    assert!(!r.hit);
}

#[test]
fn the_attacks_flanking_count_agrees_with_the_engines_at_every_placement() {
    // The attack's own count (masks first, then stopping at the second
    // enemy in the zone) against `Turn::flanked` (every enemy measured):
    // three attackers at every placement from 2 spaces before the target to
    // 2 behind it, each in or out of the fight, for zones of 1 and 2.
    let enc = gang(3, "");
    let mut f = fight(&enc);
    let mut dice = ScriptedDice::new(&[]);
    let (mut yes, mut no) = (0, 0);
    as_turn(&enc, &mut f, &mut dice, 0, |t| {
        let target = 3;
        let at = t.unit(target).position;
        for zone in 1..=2 {
            for placement in 0..125u32 {
                for out in 0..8u32 {
                    for u in 0..3 {
                        let offset = (placement / 5u32.pow(u as u32) % 5) as i32 - 2;
                        t.unit_mut(u).position = at + offset;
                        if out & (1 << u) != 0 {
                            t.take_out(u);
                        } else {
                            t.bring_back(u);
                        }
                    }
                    let engine = t.flanked(target, zone);
                    assert_eq!(
                        flanked(t, target, zone),
                        engine,
                        "zone {zone}, placement {placement}, out {out:03b}"
                    );
                    if engine {
                        yes += 1;
                    } else {
                        no += 1;
                    }
                }
            }
        }
    });
    assert!(
        yes > 0 && no > 0,
        "both answers came up ({yes} flanked, {no} not)"
    );
}

#[test]
fn crit_chain_doubles_quadruples_then_defeats_instantly() {
    let enc = duel("", "", "agility = 15");
    // Natural 20 hits even against 25, damage ×2; the d4 is not a 4.
    let (r, _) = swing(&enc, &[(20, 20), (4, 3), (8, 5)]);
    assert!(r.hit);
    assert_eq!((r.multiplier, r.damage), (2, 10));
    // d4 = 4: super critical, ×4; the d6 is not a 6.
    let (r, f) = swing(&enc, &[(20, 20), (4, 4), (6, 5), (8, 5)]);
    assert_eq!((r.multiplier, r.damage), (4, 20));
    assert_eq!(f.counters[counter::SUPER_CRITS], 1);
    // d6 = 6: the target is defeated instantly, no damage roll.
    let (r, f) = swing(&enc, &[(20, 20), (4, 4), (6, 6)]);
    assert!(r.instant_defeat);
    assert!(f.units[1].out);
    assert_eq!(f.units[1].state.hp, 0);
    assert_eq!(f.damage[0], 30, "the harm booked is the HP it had");
    assert_eq!(f.counters[counter::INSTANT_DEFEATS], 1);
    // Without nat20_hits, a natural 20 that misses is just a miss.
    let enc = duel("nat20_hits = false", "", "agility = 15");
    let (r, _) = swing(&enc, &[(20, 20)]);
    assert!(!r.hit);
}

#[test]
fn fumble_chain_free_hit_then_free_crit_then_the_attackers_death() {
    let enc = duel("", "", "");
    // Natural 1 inside b's zone: miss; d4 not 4: b's free hit (a slot:
    // AGI 1 gives 2), rolled 15 + 0 vs 10: hit for 1d6 = 4.
    let (r, f) = swing(&enc, &[(20, 1), (4, 2), (20, 15), (6, 4)]);
    assert!(!r.hit);
    assert_eq!(r.fumble, 1);
    assert_eq!(f.units[0].state.hp, 26);
    assert_eq!(f.units[1].state.slots_used, 1);
    assert_eq!(f.counters[counter::FREE_HITS], 1);
    assert_eq!(f.damage[1], 4);
    // d4 = 4: tragedy: a free critical, auto-hit, ×2, with no slots left.
    let mut f = fight(&enc);
    f.round = 1;
    f.units[1].state.slot_round = stamp(1);
    f.units[1].state.slots_used = 2;
    let r = swing_as(
        &enc,
        &mut f,
        Swing::Main,
        &[(20, 1), (4, 4), (6, 3), (6, 4)],
    );
    assert_eq!(r.fumble, 2);
    assert_eq!(f.units[0].state.hp, 22);
    assert_eq!(f.counters[counter::TRAGEDIES], 1);
    // ... and without a tragedy, no slots means no free hit.
    let r = swing_as(&enc, &mut f, Swing::Main, &[(20, 1), (4, 1)]);
    assert_eq!(r.fumble, 1);
    assert_eq!(f.units[0].state.hp, 22);
    // d6 = 6: the attacker dies.
    let (r, f) = swing(&enc, &[(20, 1), (4, 4), (6, 6)]);
    assert_eq!(r.fumble, 3);
    assert!(f.units[0].out);
    assert_eq!(f.damage[1], 30, "booked to the target's side");
    assert_eq!(f.counters[counter::FATAL_FUMBLES], 1);
    // Option: the tragedy's free critical is rolled (15 hits, ×2).
    let enc = duel("tragedy_hit = \"rolled\"", "", "");
    let (_, f) = swing(&enc, &[(20, 1), (4, 4), (6, 1), (20, 15), (6, 3)]);
    assert_eq!(f.units[0].state.hp, 24);
}

#[test]
fn a_helpless_target_delivers_no_fatal_blow() {
    let enc = duel("", "", "");
    let mut f = fight(&enc);
    f.units[1].conditions.set(Condition::Paralyzed);
    let r = swing_as(&enc, &mut f, Swing::Main, &[(20, 1), (4, 4), (6, 6)]);
    assert_eq!(r.fumble, 3);
    assert!(
        !f.units[0].out,
        "a paralyzed target cannot strike the fatal blow"
    );
    assert_eq!(f.counters[counter::FATAL_FUMBLES], 0);
}

#[test]
fn fumbles_outside_the_melee_zone_roll_no_chain_unless_the_option_says() {
    let enc = duel("", "weapons = [\"bow\"]", "");
    let mut f = fight(&enc);
    f.round = 1;
    f.units[0].position = -10;
    let r = swing_as(&enc, &mut f, Swing::Main, &[(20, 1)]);
    assert_eq!(r.fumble, 1);
    assert_eq!(f.counters[counter::FUMBLES], 1);
    // fumble_needs_zone = false: the chain runs at any range (b's knife
    // cannot reach 10 spaces, so only the fatal blow bites).
    let enc = duel("fumble_needs_zone = false", "weapons = [\"bow\"]", "");
    let mut f = fight(&enc);
    f.round = 1;
    f.units[0].position = -10;
    let r = swing_as(&enc, &mut f, Swing::Main, &[(20, 1), (4, 4), (6, 6)]);
    assert_eq!(r.fumble, 3);
    assert!(f.units[0].out);
}

#[test]
fn free_hit_slots_are_agility_plus_one_per_round() {
    let enc = duel("", "", "agility = 1");
    let b = enc.units[1].stats;
    let s = State::default();
    assert_eq!(s.slots_left(&b, 1), 2);
    for (agility, slots) in [(-3, 0), (-1, 0), (0, 1), (3, 4)] {
        let u = Unit { agility, ..b };
        assert_eq!(s.slots_left(&u, 1), slots, "agility {agility}");
    }
    // Used slots come back when the round changes.
    let used = State {
        slots_used: 2,
        slot_round: stamp(3),
        ..State::default()
    };
    assert_eq!(used.slots_left(&b, 3), 0);
    assert_eq!(used.slots_left(&b, 4), 2);
    // Slowing wounds cut Agility, so slots too.
    let slowed = State {
        slowed: 1,
        ..State::default()
    };
    assert_eq!(slowed.slots_left(&b, 1), 1);
}

#[test]
fn free_hit_triggers_leaving_the_zone_or_moving_more_than_2_in_it() {
    // "Free Hits/Free Hit Slots (FHS)": "When an enemy moves out of your
    // melee zone or moves more than 2 spaces within your melee zone."
    // Unit at 0 with a zone of 1 / 4.
    assert!(provokes_free_hit(1, 7, 0, 1, false), "leaves");
    assert!(!provokes_free_hit(2, 8, 0, 1, false), "was never in");
    assert!(!provokes_free_hit(8, 1, 0, 1, false), "enters");
    assert!(!provokes_free_hit(4, 2, 0, 4, false), "2 spaces inside");
    assert!(provokes_free_hit(4, 1, 0, 4, false), "3 spaces inside");
    assert!(
        provokes_free_hit(9, 1, 0, 4, false),
        "enters, then 3 spaces inside"
    );
    // Passing through the zone is moving out of it.
    assert!(provokes_free_hit(-6, 3, 0, 1, false), "through it");
    assert!(
        provokes_free_hit(6, -6, 0, 4, false),
        "through a long reach"
    );
    // "Disengage": "leave enemy melee zones for the round without provoking
    // free hits"; moving more than 2 spaces inside one still provokes.
    assert!(!provokes_free_hit(1, 7, 0, 1, true), "leaves, disengaged");
    assert!(!provokes_free_hit(-6, 3, 0, 1, true), "through, disengaged");
    assert!(
        provokes_free_hit(4, 1, 0, 4, true),
        "3 spaces inside, disengaged"
    );
}

/// Unit 0 (`runner`, red, advancing from 6 spaces out, targeting at random)
/// against a blocker (unit 1, 1 space out, holding, 1 Free Hit Slot, a club
/// doing 10) and a paralyzed dummy behind it (unit 2, 4 spaces out). The
/// blocker delays 5 so that the runner acts first.
fn gauntlet(runner_hp: i32, max_rounds: u32) -> Encounter<Escalation> {
    encounter::<Escalation>(&format!(
        r#"
name = "t"
rules = "escalation"
max_rounds = {max_rounds}
[weapons.sword]
damage = "1d8"
[weapons.club]
damage = "10"
[units.runner]
hp = {runner_hp}
agility = -1
aim = "slowing"
weapons = ["sword"]
[units.blocker]
hp = 1000
delay = 5
aim = "slowing"
weapons = ["club"]
[units.dummy]
hp = 1000
agility = -9
weapons = ["sword"]
[sides.red]
runner = {{ distance = 6 }}
[sides.blue]
blocker = {{ distance = 1, tactic = "hold" }}
dummy = {{ distance = 4, tactic = "hold", conditions = ["paralyzed"] }}
"#
    ))
}

#[test]
fn passing_through_a_melee_zone_provokes_a_free_hit() {
    // "Free Hits/Free Hit Slots (FHS)": a free hit "when an enemy moves out
    // of your melee zone". The runner (at -6) picks the dummy (d2 = 2) and
    // runs 9 spaces (Move Action 6, both Bonus Actions 2 each) to 3, through
    // the blocker's zone (0 to 2) and out of it: the blocker's free hit (d20
    // 12 + 0 vs 10 - 1 hits, club 10). Then the runner attacks the dummy
    // (paralyzed: hit on 5; 6 hits, 1d8 = 4).
    let enc = gauntlet(30, 1);
    let mut f = fight(&enc);
    f.round = 1;
    play(&enc, &mut f, 0, &[(2, 2), (20, 12), (20, 6), (8, 4)]);
    assert_eq!(f.units[0].position, 3);
    assert_eq!(f.counters[counter::FREE_HITS], 1);
    assert_eq!(f.units[1].state.slots_used, 1);
    assert_eq!(f.units[0].state.hp, 20);
    assert_eq!(f.units[2].state.hp, 996);
    // Picking the blocker instead (d2 = 1): it stops in the zone, no free
    // hit; both Bonus Actions go to accuracy (9 + 2 = 11 vs 10 hits).
    let mut f = fight(&enc);
    f.round = 1;
    play(&enc, &mut f, 0, &[(2, 1), (20, 9), (8, 4)]);
    assert_eq!(f.units[0].position, 0);
    assert_eq!(f.counters[counter::FREE_HITS], 0);
}

/// A keep-range archer (unit 0, on the line) engaged by a swordsman (unit
/// 1, adjacent): backing off leaves the zone.
fn skirmish(disengage: &str, b_agility: i32) -> (Encounter<Escalation>, Fight<Escalation>) {
    let enc = encounter::<Escalation>(&format!(
        r#"
name = "t"
rules = "escalation"
[weapons.bow]
kind = "ranged"
damage = "1d6"
range = 20
[weapons.sword]
damage = "1d8"
[units.archer]
hp = 30
aim = "slowing"
disengage = "{disengage}"
weapons = ["bow"]
[units.fighter]
hp = 30
agility = {b_agility}
aim = "slowing"
weapons = ["sword"]
[sides.red]
archer = {{ tactic = "keep-range" }}
[sides.blue]
fighter = {{ distance = 1 }}
"#
    ));
    let mut f = fight(&enc);
    f.round = 1;
    (enc, f)
}

#[test]
fn backing_off_provokes_a_free_hit_unless_disengaged() {
    // No disengage: leaving the zone gives the fighter a free hit (20 + 0 vs
    // 10 is a critical: d4 1, 1d8 3 → 6, a wound: slowing), then the
    // archer shoots (its 2 BA: +2 to hit).
    let (enc, mut f) = skirmish("none", 0);
    play(
        &enc,
        &mut f,
        0,
        &[(20, 20), (4, 1), (8, 3), (20, 10), (6, 2)],
    );
    assert_eq!(f.units[0].position, -6);
    assert_eq!(f.units[0].state.hp, 24);
    assert_eq!(f.units[0].state.slowed, 1);
    assert_eq!(f.units[1].state.hp, 28);
    assert_eq!(f.counters[counter::FREE_HITS], 1);
    // Both Bonus Actions disengage: no free hit; the shot has no +2 (10 + 0
    // hits 10).
    let (enc, mut f) = skirmish("bonus", 0);
    play(&enc, &mut f, 0, &[(20, 10), (6, 2)]);
    assert_eq!(f.counters[counter::FREE_HITS], 0);
    assert_eq!(f.units[1].state.hp, 28);
    // The Attack Action: no free hit and no shot; the BAs go to dodge.
    let (enc, mut f) = skirmish("attack", 0);
    play(&enc, &mut f, 0, &[]);
    assert_eq!(f.counters[counter::FREE_HITS], 0);
    assert_eq!(f.units[0].state.dodge, 2);
    // No slots (Agility −1): no free hit either.
    let (enc, mut f) = skirmish("none", -1);
    play(&enc, &mut f, 0, &[(20, 10), (6, 2)]);
    assert_eq!(f.counters[counter::FREE_HITS], 0);
}

#[test]
fn a_long_reach_gets_a_free_hit_on_units_closing_more_than_2_inside_it() {
    let enc = encounter::<Escalation>(
        r#"
name = "t"
rules = "escalation"
[weapons.pike]
damage = "1d8"
[weapons.sword]
damage = "1d8"
[units.piker]
hp = 30
reach = 4
aim = "slowing"
weapons = ["pike"]
[units.fighter]
hp = 30
aim = "slowing"
weapons = ["sword"]
[sides.red]
piker = { tactic = "hold" }
[sides.blue]
fighter = { distance = 4 }
"#,
    );
    let mut f = fight(&enc);
    f.round = 1;
    // The fighter moves 4 → 1: 3 spaces in the pike's zone. Free hit (miss:
    // 5 vs 10), then the fighter attacks with +2 (8 + 2 = 10 hits 10).
    play(&enc, &mut f, 1, &[(20, 5), (20, 8), (8, 2)]);
    assert_eq!(f.counters[counter::FREE_HITS], 1);
    assert_eq!(f.units[0].state.hp, 28);
    assert_eq!(f.units[0].state.slots_used, 1);
}

#[test]
fn bonus_actions_buy_accuracy_damage_dodge_or_an_extra_attack() {
    // Accuracy (default): +2 on this turn's attack: 7 + 2 + 2 = 11 hits.
    let enc = duel("", "", "");
    let mut f = fight(&enc);
    f.round = 1;
    play(&enc, &mut f, 0, &[(20, 7), (8, 4)]);
    assert_eq!(f.units[1].state.hp, 26);
    assert_eq!(f.units[0].state.hit_bonus, 0, "gone after the turn");
    // Not stacking: +1 only (7 + 2 + 1 = 10 misses).
    let enc = duel("bonus_stacks = false", "", "");
    let mut f = fight(&enc);
    f.round = 1;
    play(&enc, &mut f, 0, &[(20, 7)]);
    assert_eq!(f.units[1].state.hp, 30);

    // Damage: +2 melee damage for the round, free hits included.
    let enc = duel("", "bonus = \"damage\"", "");
    let mut f = fight(&enc);
    f.round = 1;
    play(&enc, &mut f, 0, &[(20, 9), (8, 4)]);
    assert_eq!(f.units[1].state.hp, 24);
    // b fumbles against a in the same round: a's free hit still has +2.
    let mut dice = ScriptedDice::new(&[(20, 1), (4, 1), (20, 9), (8, 1)]);
    let knife = enc.units[1].stats.weapons[0];
    as_turn(&enc, &mut f, &mut dice, 1, |t| {
        attack(t, 0, &knife, Swing::Main)
    });
    dice.assert_done();
    assert_eq!(f.units[1].state.hp, 21);
    // Next round it is gone.
    f.round = 2;
    let mut dice = ScriptedDice::new(&[(20, 1), (4, 1), (20, 9), (8, 1)]);
    as_turn(&enc, &mut f, &mut dice, 1, |t| {
        attack(t, 0, &knife, Swing::Main)
    });
    assert_eq!(f.units[1].state.hp, 20);

    // Dodge: +2 to b's defence until b's next turn.
    let enc = duel("", "", "bonus = \"dodge\"");
    let mut f = fight(&enc);
    f.round = 1;
    play(&enc, &mut f, 1, &[(20, 2)]);
    assert_eq!(f.units[1].state.dodge, 2);
    let r = swing_as(&enc, &mut f, Swing::Main, &[(20, 10)]);
    assert_eq!(r.target_number, 13);
    assert!(!r.hit);

    // Extra attack: Move Action + both Bonus Actions, no Strength.
    let enc = duel("", "bonus = \"extra-attack\"\nstrength = 3", "");
    let mut f = fight(&enc);
    f.round = 1;
    play(&enc, &mut f, 0, &[(20, 9), (8, 4), (20, 9), (8, 4)]);
    assert_eq!(f.units[1].state.hp, 30 - 7 - 4);
    assert_eq!(f.counters[counter::EXTRA_ATTACKS], 1);
}

#[test]
fn moving_spends_the_move_action_and_bonus_actions_for_spaces() {
    let text = |bonus: &str, distance: i32| {
        format!(
            r#"
name = "t"
rules = "escalation"
[weapons.w]
damage = "1d8"
[units.a]
hp = 30
aim = "slowing"
bonus = "{bonus}"
weapons = ["w"]
[units.b]
hp = 30
weapons = ["w"]
[sides.red]
a = {{}}
[sides.blue]
b = {{ distance = {distance}, tactic = "hold" }}
"#
        )
    };
    // 5 spaces away: the Move Action's 6 spaces reach; no extra attack (the
    // MA is spent), the BAs go to accuracy: 8 + 2 = 10 hits.
    let enc = encounter::<Escalation>(&text("extra-attack", 5));
    let mut f = fight(&enc);
    f.round = 1;
    play(&enc, &mut f, 0, &[(20, 8), (8, 3)]);
    assert_eq!(f.units[0].position, 4);
    assert_eq!(f.counters[counter::EXTRA_ATTACKS], 0);
    // 10 spaces: 6 + 2 + 2 reach 1 space off; attack with no bonus left.
    let enc = encounter::<Escalation>(&text("accuracy", 10));
    let mut f = fight(&enc);
    f.round = 1;
    play(&enc, &mut f, 0, &[(20, 9)]);
    assert_eq!(f.units[0].position, 9);
    // 9 spaces: one BA is enough; one left for +1: 9 + 1 = 10 hits.
    let enc = encounter::<Escalation>(&text("accuracy", 9));
    let mut f = fight(&enc);
    f.round = 1;
    play(&enc, &mut f, 0, &[(20, 9), (8, 3)]);
    assert_eq!(f.units[0].position, 8);
    assert_eq!(f.units[1].state.hp, 27);
}

#[test]
fn standing_up_costs_a_bonus_action_and_weakened_units_have_fewer() {
    // "Prone": standing up takes "1 Attack Action (AA), 1 Move Action (MA),
    // or 1 Bonus Action (BA)": the cheapest, a BA (off-turn at the start of
    // the fight by default, from its first turn). "Weakening Targets":
    // "remove 1 Bonus Action from them".
    let mut enc = duel("", "", "");
    enc.units[0].conditions.set(Condition::Prone);
    let mut f = fight(&enc);
    f.round = 1;
    // One BA left for +1: 8 + 2 + 1 = 11 hits.
    play(&enc, &mut f, 0, &[(20, 8), (8, 3)]);
    assert!(!f.units[0].conditions.has(Condition::Prone));
    assert_eq!(f.units[1].state.hp, 27);
    // Two weakening wounds: no Bonus Actions.
    let enc = duel("", "", "");
    let mut f = fight(&enc);
    f.round = 1;
    f.units[0].state.weakened = 2;
    play(&enc, &mut f, 0, &[(20, 8)]);
    assert_eq!(f.units[1].state.hp, 30);
}

#[test]
fn wounds_need_six_net_damage_after_armour() {
    let enc = duel("", "", "armor = 2");
    // 1d8 = 7, − 2 armour = 5: no wound.
    let (r, f) = swing(&enc, &[(20, 12), (8, 7)]);
    assert_eq!(r.damage, 5);
    assert!(!r.wound);
    assert_eq!(f.units[1].state.slowed, 0);
    // 8 − 2 = 6: a wound (slowing).
    let (r, f) = swing(&enc, &[(20, 12), (8, 8)]);
    assert!(r.wound);
    assert_eq!(f.counters[counter::WOUNDS], 1);
    assert_eq!(f.units[1].state.slowed, 1);
    // Armour above the damage: nothing, not negative.
    let enc = duel("", "", "armor = 20");
    let (r, f) = swing(&enc, &[(20, 12), (8, 8)]);
    assert_eq!(r.damage, 0);
    assert_eq!(f.units[1].state.hp, 30);
}

#[test]
fn each_aim_has_its_wound_effect() {
    // Fatal: a d4 of 4 adds 16 (not doubled by default); otherwise nothing.
    let enc = duel("", "aim = \"fatal\"", "");
    let (r, _) = swing(&enc, &[(20, 12), (8, 7), (4, 4)]);
    assert_eq!(r.damage, 23);
    let (r, _) = swing(&enc, &[(20, 12), (8, 7), (4, 3)]);
    assert_eq!(r.damage, 7);
    let (r, _) = swing(&enc, &[(20, 20), (4, 1), (8, 3), (4, 4)]);
    assert_eq!(r.damage, 6 + 16);
    let enc = duel("fatal_bonus_multiplied = true", "aim = \"fatal\"", "");
    let (r, _) = swing(&enc, &[(20, 20), (4, 1), (8, 3), (4, 4)]);
    assert_eq!(r.damage, 6 + 32);
    // Slowing: −2 spaces, −1 Agility (defence and slots).
    let enc = duel("", "", "");
    let (_, f) = swing(&enc, &[(20, 12), (8, 7)]);
    let b = &f.units[1];
    assert_eq!(b.state.agility(&enc.units[1].stats), 0);
    let t_speed = as_turn(&enc, &mut f.clone(), &mut ScriptedDice::new(&[]), 1, |t| {
        speed(t, 1)
    });
    assert_eq!(t_speed, 4);
    // Weakening: −1 Strength on melee damage, −1 Bonus Action.
    let enc = duel("", "aim = \"weakening\"", "strength = 2");
    let (_, mut f) = swing(&enc, &[(20, 12), (8, 7)]);
    assert_eq!(f.units[1].state.weakened, 1);
    // b attacks: 1d6 4 + (2 − 1) = 5; one BA: +1 to hit (9 + 1 + 0 = 10).
    play(&enc, &mut f, 1, &[(20, 9), (6, 4)]);
    assert_eq!(f.units[0].state.hp, 25);
    // Disrupting: see the test below.
}

/// Unit 1's free hit on unit 0 in round `round`, with a d20 of 10 and a
/// knife's d6 of 1: its total.
fn knife_total(enc: &Encounter<Escalation>, f: &mut Fight<Escalation>, round: u32) -> i32 {
    f.round = round;
    let knife = enc.units[1].stats.weapons[0];
    let mut dice = ScriptedDice::new(&[(20, 10), (6, 1)]);
    let r = as_turn(enc, f, &mut dice, 1, |t| attack(t, 0, &knife, Swing::Free));
    dice.assert_done();
    r.total
}

#[test]
fn a_disrupting_wound_is_minus_3_this_round_and_minus_1_after() {
    // "Wounds/Aiming", Disrupting Targets: "lower the target's Accuracy
    // modifier by 1 for the entire battle and by 3 for the current round":
    // -3 in the round of the wound (not -1 - 3 = -4), -1 from then on.
    let enc = duel("", "aim = \"disrupting\"", "accuracy = 5");
    let (_, mut f) = swing(&enc, &[(20, 12), (8, 7)]);
    assert_eq!(knife_total(&enc, &mut f, 1), 10 + 5 - 3);
    assert_eq!(knife_total(&enc, &mut f, 2), 10 + 5 - 1);
    // A second disrupting wound in a later round: -1 for the first, -3 for
    // the new one that round; -2 after.
    f.round = 2;
    swing_as(&enc, &mut f, Swing::Main, &[(20, 12), (8, 7)]);
    assert_eq!(knife_total(&enc, &mut f, 2), 10 + 5 - 1 - 3);
    assert_eq!(knife_total(&enc, &mut f, 3), 10 + 5 - 2);
    // disrupting_adds = true: the -1 and the -3 add up that round.
    let enc = duel(
        "disrupting_adds = true",
        "aim = \"disrupting\"",
        "accuracy = 5",
    );
    let (_, mut f) = swing(&enc, &[(20, 12), (8, 7)]);
    assert_eq!(knife_total(&enc, &mut f, 1), 10 + 5 - 1 - 3);
    assert_eq!(knife_total(&enc, &mut f, 2), 10 + 5 - 1);
}

#[test]
fn critical_hits_double_the_damage_after_armour() {
    // "Combat specific Fails/Criticals": "you double the damage dealt"; the
    // damage dealt is what gets through armour ("Wounds/Aiming": "net
    // damage, calculated after accounting for all reductions from armor").
    // 1d8 = 5 against armour 2: (5 - 2) x 2 = 6, a wound.
    let enc = duel("", "", "armor = 2");
    let (r, f) = swing(&enc, &[(20, 20), (4, 1), (8, 5)]);
    assert_eq!((r.multiplier, r.damage), (2, 6));
    assert!(r.wound);
    assert_eq!(f.units[1].state.hp, 24);
    // Super critical: (5 - 2) x 4 = 12.
    let (r, _) = swing(&enc, &[(20, 20), (4, 4), (6, 2), (8, 5)]);
    assert_eq!((r.multiplier, r.damage), (4, 12));
    // Armour that stops the damage stops the doubled damage too.
    let enc = duel("", "", "armor = 9");
    let (r, _) = swing(&enc, &[(20, 20), (4, 1), (8, 5)]);
    assert_eq!(r.damage, 0);
    // crit_multiplies = "rolled": 5 x 2 - 2 = 8, 5 x 4 - 2 = 18.
    let enc = duel("crit_multiplies = \"rolled\"", "", "armor = 2");
    let (r, _) = swing(&enc, &[(20, 20), (4, 1), (8, 5)]);
    assert_eq!(r.damage, 8);
    let (r, _) = swing(&enc, &[(20, 20), (4, 4), (6, 2), (8, 5)]);
    assert_eq!(r.damage, 18);
}

#[test]
fn the_initiator_attacks_before_the_first_turn_then_acts_last() {
    // "Initiative/Initiating": "if someone initiates combat by attacking
    // before the battle officially starts, they are placed last in the
    // initiative lineup". a (initiator, Agility 0) opens with an attack
    // before b's (Agility 1) first turn: 12 + 2 vs 11 hits, 1d8 = 5, with
    // no Bonus Actions (it is not a turn). Then b's turn: 9 + 0 + 2 vs 10
    // hits, 1d6 = 3.
    let enc = duel("", "initiator = true", "");
    let mut f = fight(&enc);
    f.round = 1;
    play(&enc, &mut f, 1, &[(20, 12), (8, 5), (20, 9), (6, 3)]);
    assert_eq!(f.units[1].state.hp, 25);
    assert_eq!(f.units[0].state.hp, 27);
    assert_eq!(f.counters[counter::ATTACKS], 2);
    // a's own turn, last in the round: one attack, no second opening.
    play(&enc, &mut f, 0, &[(20, 9), (8, 1)]);
    assert_eq!(f.units[1].state.hp, 24);
    // The opening attack is a plain attack: without Bonus Actions, 7 + 2 +
    // 0 misses 11 (its turn's +2 would have hit).
    let mut f = fight(&enc);
    f.round = 1;
    play(&enc, &mut f, 1, &[(20, 7), (20, 9), (6, 3)]);
    assert_eq!(f.units[1].state.hp, 30);
    // Whole fight, one round: b's turn comes first and begins with a's
    // opening attack (which here defeats b outright: 20, d4 4, d6 6).
    let one_round = duel("", "initiator = true", "");
    let mut f = Fight::<Escalation>::new();
    let mut dice = ScriptedDice::new(&[(20, 20), (4, 4), (6, 6)]);
    let outcome = f.run(&one_round, &mut dice);
    dice.assert_done();
    assert_eq!(outcome.winner, Some(0));
    assert_eq!(outcome.rounds, 1);
    // Nothing in reach where it stands: no opening attack (no dice).
    let mut f = fight(&enc);
    f.round = 1;
    f.units[0].position = -5;
    let mut dice = ScriptedDice::new(&[]);
    as_turn(&enc, &mut f, &mut dice, 1, before_the_first_turn);
    assert_eq!(f.counters[counter::ATTACKS], 0);
    assert!(!f.units[0].state.opening, "the chance is gone");
}

#[test]
fn without_the_opening_attack_the_initiator_only_goes_last() {
    // "Initiative/Initiating": "if someone initiates combat by attacking
    // before the battle officially starts, they are placed last in the
    // initiative lineup". By default the initiator makes that attack
    // (`the_initiator_attacks_before_the_first_turn_then_acts_last`);
    // `opening_attack = false`, for comparing with and without it, drops
    // the attack and keeps the place: b's first turn begins with nothing
    // from a (b: 9 + 0 + 2 vs 10 hits, 1d6 = 3), and a still acts last.
    let enc = duel("opening_attack = false", "initiator = true", "");
    let mut f = fight(&enc);
    f.make_order(&enc, &mut ScriptedDice::new(&[]));
    assert_eq!(f.turn_order(), &[1, 0]);
    f.round = 1;
    play(&enc, &mut f, 1, &[(20, 9), (6, 3)]);
    assert_eq!(f.units[1].state.hp, 30);
    assert_eq!(f.units[0].state.hp, 27);
    assert_eq!(f.counters[counter::ATTACKS], 1);
    // a's own turn: its one attack (9 + 2 + 2 vs 11 hits, 1d8 = 1).
    play(&enc, &mut f, 0, &[(20, 9), (8, 1)]);
    assert_eq!(f.units[1].state.hp, 29);
    assert_eq!(f.counters[counter::ATTACKS], 2);
}

#[test]
fn a_prone_unit_stands_up_off_turn_at_the_cost_of_a_bonus_action() {
    // "Prone": "Standing up can be done regardless of whether it is your
    // turn, but it consumes the action you chose to use from your next
    // turn"; "While prone you cannot dodge attacks" (hit on 5 + Agility).
    // b (Agility 1) starts prone; the fight's first turn is a's here
    // (played by hand). With the default, b is up before it: a's 6 + 2 + 2
    // misses 11.
    let mut enc_prone = duel("", "", "");
    enc_prone.units[1].conditions.set(Condition::Prone);
    let mut f = fight(&enc_prone);
    f.round = 1;
    play(&enc_prone, &mut f, 0, &[(20, 6)]);
    assert!(!f.units[1].conditions.has(Condition::Prone));
    assert_eq!(f.units[1].state.owed_bonus, 1);
    // b's first turn has one Bonus Action left: 8 + 0 + 1 misses 10.
    play(&enc_prone, &mut f, 1, &[(20, 8)]);
    assert_eq!(f.units[1].state.owed_bonus, 0);
    // Its next turn has both: 8 + 2 hits.
    f.round = 2;
    play(&enc_prone, &mut f, 1, &[(20, 8), (6, 2)]);
    assert_eq!(f.units[0].state.hp, 28);
    // stand_off_turn = false: b is still prone at a's turn (hit on 5 + 1: 6
    // + 2 + 2 hits), and stands on its own turn with a Bonus Action.
    let mut enc = duel("stand_off_turn = false", "", "");
    enc.units[1].conditions.set(Condition::Prone);
    let mut f = fight(&enc);
    f.round = 1;
    play(&enc, &mut f, 0, &[(20, 6), (8, 3)]);
    assert_eq!(f.units[1].state.hp, 27);
    assert!(f.units[1].conditions.has(Condition::Prone));
    play(&enc, &mut f, 1, &[(20, 8)]);
    assert!(!f.units[1].conditions.has(Condition::Prone));
}

#[test]
fn helpless_units_cost_their_team_no_activation_under_alternating() {
    // "Flat Footed": "tied up, froze, paralyzed and so on": such a unit
    // cannot act. Under team-alternating activation (`initiative =
    // "alternating"`), red's first activation goes to its unit that can
    // act, not to its stunned one. Red: stunner (stunned, initiative 20 +
    // 9), fighter (10 + 0); blue: foe (10 + 1). Red opens: the fighter
    // attacks the foe (d20 then its 1d8), then the foe (d2 for its target,
    // d20, 1d6), then the stunned unit's turn, which does nothing. Were the
    // stunned unit activated first, the foe's d2 would come first.
    let enc = encounter::<Escalation>(
        r#"
name = "t"
rules = "escalation"
max_rounds = 1
[options]
initiative = "alternating"
initiative_ties = "roster"
[weapons.sword]
damage = "1d8"
[weapons.knife]
damage = "1d6"
[units.stunner]
hp = 30
agility = 9
weapons = ["sword"]
[units.fighter]
hp = 30
aim = "slowing"
weapons = ["sword"]
[units.foe]
hp = 30
agility = 1
aim = "slowing"
weapons = ["knife"]
[sides.red]
stunner = { conditions = ["stunned"] }
fighter = {}
[sides.blue]
foe = {}
"#,
    );
    let f = fight(&enc);
    assert!(!Escalation::can_act(&f, &enc, 0), "stunned");
    assert!(Escalation::can_act(&f, &enc, 1));
    let mut f = Fight::<Escalation>::new();
    let mut dice = ScriptedDice::new(&[
        (20, 20),
        (20, 10),
        (20, 10),
        (20, 15),
        (8, 4),
        (2, 2),
        (20, 10),
        (6, 3),
    ]);
    f.run(&enc, &mut dice);
    dice.assert_done();
    assert_eq!(f.units[2].state.hp, 26);
    assert_eq!(f.units[1].state.hp, 27);
}

#[test]
fn zero_hp_defeats_and_the_fight_ends() {
    let enc = duel("", "", "");
    let mut f = fight(&enc);
    f.round = 1;
    f.units[1].state.hp = 3;
    let r = swing_as(&enc, &mut f, Swing::Main, &[(20, 12), (8, 7)]);
    assert_eq!(r.damage, 7);
    assert!(f.units[1].out);
    assert_eq!(f.damage[0], 3, "only the HP it had is booked");
    // Whole fights run to a winner.
    let mut dice = RngDice::for_batch(3, 0);
    let mut f = Fight::<Escalation>::new();
    for _ in 0..200 {
        let o = f.run(&enc, &mut dice);
        assert!(o.winner.is_some() || o.rounds == enc.max_rounds);
    }
}

#[test]
fn a_side_may_lose_the_will_to_fight() {
    let enc = encounter::<Escalation>(
        r#"
name = "t"
rules = "escalation"
[options]
flee_at = 0.5
[weapons.w]
damage = "1d8"
[units.a]
hp = 30
aim = "slowing"
weapons = ["w"]
[sides.red]
a = { count = 2 }
[sides.blue]
a = { count = 2 }
"#,
    );
    let mut f = fight(&enc);
    f.round = 1;
    // Unit 1 (red) down: red is at half strength and flees at unit 0's turn;
    // both Bonus Actions disengage it, so no free hits.
    as_turn(&enc, &mut f, &mut ScriptedDice::new(&[]), 2, |t| {
        t.take_out(1)
    });
    play(&enc, &mut f, 0, &[]);
    assert!(f.units[0].out);
    assert_eq!(f.counters[counter::FLED], 1);
    assert_eq!(f.counters[counter::FREE_HITS], 0);
}

/// Per-attack counters of `n` attacks by unit 0 on unit 1, each from a fresh
/// fight (so instant defeats and fatal blows do not carry over).
fn chain_counts(n: u32, seed: u64) -> [f64; 12] {
    // b: no Free Hit Slots (Agility −1), so b never rolls: every count is
    // a's one attack. Armour 100: no damage, no wound dice.
    let enc = duel("", "", "hp = 1000\nagility = -1\narmor = 100");
    let mut dice = RngDice::for_batch(seed, 0);
    let mut f = Fight::<Escalation>::new();
    let weapon = enc.units[0].stats.weapons[0];
    let mut totals = [0u64; 12];
    for _ in 0..n {
        f.reset(&enc);
        f.round = 1;
        as_turn(&enc, &mut f, &mut dice, 0, |t| {
            attack(t, 1, &weapon, Swing::Main);
        });
        for (t, c) in totals.iter_mut().zip(f.counters) {
            *t += c as u64;
        }
    }
    totals.map(|t| t as f64 / n as f64)
}

#[test]
fn statistically_the_crit_chain_is_1_in_20_80_480() {
    // Exact per attack: crit 1/20; super crit 1/20 · 1/4 = 1/80; instant
    // defeat 1/80 · 1/6 = 1/480. Bounds: 4 standard errors of each.
    let n = 1_000_000;
    let c = chain_counts(n, 2024);
    for (got, p, what) in [
        (c[counter::CRITS], 1.0 / 20.0, "crit"),
        (c[counter::SUPER_CRITS], 1.0 / 80.0, "super crit"),
        (c[counter::INSTANT_DEFEATS], 1.0 / 480.0, "instant defeat"),
    ] {
        assert!((got - p).abs() < four_se(p, n), "{what}: {got} vs {p}");
    }
}

#[test]
fn statistically_the_fumble_chain_is_1_in_20_80_480() {
    // Same chain on a natural 1 (the attacker is in the target's zone):
    // fumble 1/20, tragedy 1/80, fatal blow 1/480.
    let n = 1_000_000;
    let c = chain_counts(n, 1999);
    for (got, p, what) in [
        (c[counter::FUMBLES], 1.0 / 20.0, "fumble"),
        (c[counter::TRAGEDIES], 1.0 / 80.0, "tragedy"),
        (c[counter::FATAL_FUMBLES], 1.0 / 480.0, "fatal blow"),
    ] {
        assert!((got - p).abs() < four_se(p, n), "{what}: {got} vs {p}");
    }
}

#[test]
fn statistically_plus_2_vs_11_hits_twelve_twentieths() {
    // d20 + 2 ≥ 11 on 9..20 (natural 1 never; 20 always): 12/20.
    let enc = duel("", "", "hp = 1000\narmor = 100");
    let weapon = enc.units[0].stats.weapons[0];
    let mut f = Fight::<Escalation>::new();
    let n = 200_000;
    let p = rate(n, 5, |dice| {
        f.reset(&enc);
        f.round = 1;
        as_turn(&enc, &mut f, dice, 0, |t| {
            attack(t, 1, &weapon, Swing::Main).hit
        })
    });
    assert!((p - 0.6).abs() < four_se(0.6, n), "{p}");
}

/// `P(d20 = k)` summed over `faces` faces: `faces / 20`.
fn d20(faces: u32) -> f64 {
    faces as f64 / 20.0
}

#[test]
fn statistically_a_runner_passing_through_a_zone_falls_as_computed() {
    // "Free Hits/Free Hit Slots (FHS)" (leaving a zone, passing through it
    // included), "Combat specific Fails/Criticals" (the fumble chain). The
    // gauntlet, one round, runner with 10 HP (one club blow of 10 fells
    // it). The blocker hits the runner (10 - 1 Agility) with a free hit on
    // d20 >= 9 (h = 12/20, natural 20 included) and on its own turn, both
    // Bonus Actions on +2, on d20 >= 7 (t = 14/20). The runner picks its
    // target at random:
    // - the dummy (1/2): it runs through the blocker's zone: free hit, h.
    //   Nothing else can fell it (the blocker's fumble only hurts the
    //   blocker; the blocker cannot reach it on its own turn, 2 spaces off;
    //   the dummy is paralyzed).
    // - the blocker (1/2): it stops in the zone, no free hit, and attacks:
    //   natural 1 (1/20): d4 = 4 (1/4): a free critical of 20 or the fatal
    //   blow, fallen either way; else the blocker's free hit (its one slot)
    //   fells it with h, and if that misses (8/20, less 1/480 for the
    //   blocker's own fumble escalating to its death: 1/20 * 1/4 * 1/6)
    //   the blocker's turn attack does with t. An instant defeat of the
    //   blocker (1/480: 20, d4 4, d6 6) saves it. Otherwise the blocker's
    //   turn attack, t.
    // Before passing through provoked, the first branch was 0 (exact 0.35
    // instead of 0.65).
    let (h, t) = (d20(12), d20(14));
    let death = 1.0 / 480.0;
    let engaged = d20(1) * (0.25 + 0.75 * (h + (d20(8) - death) * t)) + (1.0 - d20(1) - death) * t;
    let exact = 0.5 * h + 0.5 * engaged;
    let n = 200_000;
    let got = fight_rate(&gauntlet(10, 1), n, 2003, |f, _| f.units[0].out);
    assert_within_four_se("runner fallen after round 1", got, exact, n);
}

/// Probability that `rounds` attacks, each dealing damage `d` with
/// probability `p` for `(p, d)` in `outcomes`, deal at least `hp` in all
/// (exact, by dynamic programming over the damage dealt so far, capped at
/// `hp`).
fn p_felled(outcomes: &[(f64, i32)], hp: i32, rounds: u32) -> f64 {
    let cap = hp as usize;
    let mut dist = vec![0.0; cap + 1];
    dist[0] = 1.0;
    for _ in 0..rounds {
        let mut next = vec![0.0; cap + 1];
        for (dealt, &q) in dist.iter().enumerate() {
            if dealt == cap {
                next[cap] += q;
                continue;
            }
            for &(p, d) in outcomes {
                next[(dealt + d as usize).min(cap)] += q * p;
            }
        }
        dist = next;
    }
    dist[cap]
}

#[test]
fn statistically_crits_double_the_net_damage_over_two_rounds() {
    // "Combat specific Fails/Criticals": a critical doubles "the damage
    // dealt", a super critical doubles it again, d6 = 6 defeats; damage
    // dealt is net of armour ("Wounds/Aiming"). An attacker (Accuracy 0,
    // center mass +1, both Bonus Actions +2) against a paralyzed dummy
    // (flat-footed: hit on 5) with armour 2 and 4 HP, a flat 3 damage, 2
    // rounds. Per attack: natural 1 misses (1/20); 2..19 hit for 3 - 2 = 1
    // (18/20); 20 (1/20): d4 not 4 (3/4): (3 - 2) x 2 = 2; d4 4, d6 not 6
    // (1/4 * 5/6): x 4 = 4; d6 6 (1/24): defeated. P(felled within 2
    // attacks) by dynamic programming over the damage dealt.
    let enc = |opts: &str| {
        encounter::<Escalation>(&format!(
            r#"
name = "t"
rules = "escalation"
max_rounds = 2
[options]
{opts}
[weapons.blade]
damage = "3"
[units.a]
hp = 100
weapons = ["blade"]
[units.dummy]
hp = 4
armor = 2
weapons = ["blade"]
[sides.red]
a = {{}}
[sides.blue]
dummy = {{ conditions = ["paralyzed"] }}
"#
        ))
    };
    let crit = d20(1);
    let net = [
        (d20(1), 0),
        (d20(18), 1),
        (crit * 0.75, 2),
        (crit * 0.25 * 5.0 / 6.0, 4),
        (crit / 24.0, 4),
    ];
    let n = 200_000;
    let exact = p_felled(&net, 4, 2);
    let got = fight_rate(&enc(""), n, 303, |f, _| f.units[1].out);
    assert_within_four_se("dummy felled, net crits", got, exact, n);
    // crit_multiplies = "rolled": 3 x 2 - 2 = 4 and 3 x 4 - 2 = 10: every
    // critical fells it.
    let rolled = [
        (d20(1), 0),
        (d20(18), 1),
        (crit * 0.75, 4),
        (crit * 0.25, 4),
    ];
    let exact_rolled = p_felled(&rolled, 4, 2);
    let got = fight_rate(&enc("crit_multiplies = \"rolled\""), n, 304, |f, _| {
        f.units[1].out
    });
    assert_within_four_se("dummy felled, rolled crits", got, exact_rolled, n);
    // The readings differ by about 0.07 (some 40 standard errors here): a
    // doubled critical alone does not fell it.
    assert!(
        exact_rolled - exact > 10.0 * four_se(exact, n),
        "the readings differ: {exact} vs {exact_rolled}"
    );
}

#[test]
fn statistically_an_opening_disrupting_wound_costs_3_accuracy_that_round() {
    // "Initiative/Initiating" (the initiator attacks before the battle and
    // is placed last) and "Wounds/Aiming" (Disrupting: -1 for the battle,
    // -3 for the current round). a (initiator, Agility -1, no Free Hit
    // Slots, Accuracy 0, aim disrupting, a flat 6: every hit wounds) opens
    // on b (Agility -1, no slots, Accuracy 3, 1 damage), one round. Event:
    // a loses HP in round 1.
    // Opening (no Bonus Actions), a needs d20 >= 9:
    // - 20, d4 4, d6 6 (1/480): b defeated, the fight is over: no harm;
    // - other hits (12/20 - 1/480): b disrupted this round;
    // - natural 1 (1/20): d4 4 (1/80): b's free critical (or the fatal
    //   blow): harmed; otherwise nothing (b has no slot);
    // - 2..8 (7/20): miss.
    // b's turn (+2 Bonus Actions): hits a (10 - 1 = 9) on d20 + 5 >= 9
    // (17/20) or, disrupted, d20 + 2 >= 9 (14/20; 13/20 with
    // `disrupting_adds`); its natural 1 escalating to its own death (1/480)
    // ends the fight; a's turn then harms itself only by a tragedy (1/80).
    // P(unharmed | b hits with p) = g(p) = f + (1 - p - f)(1 - 1/80), f =
    // 1/480.
    let enc = |opts: &str| {
        encounter::<Escalation>(&format!(
            r#"
name = "t"
rules = "escalation"
max_rounds = 1
[options]
{opts}
[weapons.dagger]
damage = "6"
[weapons.stick]
damage = "1"
[units.a]
hp = 100
agility = -1
aim = "disrupting"
initiator = true
weapons = ["dagger"]
[units.b]
hp = 100
agility = -1
accuracy = 3
aim = "slowing"
weapons = ["stick"]
[sides.red]
a = {{}}
[sides.blue]
b = {{}}
"#
        ))
    };
    let f = 1.0 / 480.0;
    let g = |p: f64| f + (1.0 - p - f) * (1.0 - 1.0 / 80.0);
    let unharmed = |disrupted_hit: f64| {
        f + (d20(1) * 0.75 + d20(7)) * g(d20(17)) + (d20(12) - f) * g(disrupted_hit)
    };
    let n = 300_000;
    let harmed = |f: &Fight<Escalation>, _| f.units[0].state.hp < 100;
    let exact = 1.0 - unharmed(d20(14));
    let got = fight_rate(&enc(""), n, 404, harmed);
    assert_within_four_se("a harmed in round 1", got, exact, n);
    let exact_adds = 1.0 - unharmed(d20(13));
    let got = fight_rate(&enc("disrupting_adds = true"), n, 405, harmed);
    assert_within_four_se("a harmed, disrupting_adds", got, exact_adds, n);
}
