//! `thrum` rules pinned with scripted dice, and checked statistically
//! against exact 2d6 probabilities.

use super::*;
use crate::dice::{RngDice, ScriptedDice};
use crate::engine::{Encounter, Fight};
use crate::testkit::{as_turn, encounter, fight, four_se, rate};

/// Unit 0 (`a`, side red) and unit 1.. (`b`, side blue), both at the front
/// line (adjacent). `ability` is the body of `[weapons.w]`; `a` and `b` add
/// stat-block lines; the entries are the inline tables of the unit groups.
fn duel(opts: &str, ability: &str, a: &str, b: &str, b_entry: &str) -> Encounter<Thrum> {
    encounter(&format!(
        r#"
name = "t"
rules = "thrum"
[options]
{opts}
[weapons.w]
{ability}
[units.a]
fatigue_tolerance = 3
stress_tolerance = 3
weapons = ["w"]
{a}
[units.b]
fatigue_tolerance = 3
stress_tolerance = 3
weapons = ["w"]
{b}
[sides.red]
a = {{}}
[sides.blue]
b = {{ {b_entry} }}
"#
    ))
}

fn plain(a: &str, b: &str) -> Encounter<Thrum> {
    duel("", "", a, b, "")
}

/// Two d6 faces.
fn d(a: u32, b: u32) -> [(u32, u32); 2] {
    [(6, a), (6, b)]
}

fn rolls(groups: &[&[(u32, u32)]]) -> Vec<(u32, u32)> {
    groups.iter().flat_map(|g| g.iter().copied()).collect()
}

/// One attack by unit 0 on unit 1 with unit 0's first ability, on fight `f`.
fn swing_on(enc: &Encounter<Thrum>, f: &mut Fight<Thrum>, script: &[(u32, u32)]) -> AttackResult {
    let mut dice = ScriptedDice::new(script);
    let ability = enc.units[0].stats.abilities()[0];
    let r = as_turn(enc, f, &mut dice, 0, |t| attack(t, 1, &ability));
    dice.assert_done();
    r
}

fn swing(enc: &Encounter<Thrum>, script: &[(u32, u32)]) -> (AttackResult, Fight<Thrum>) {
    let mut f = fight(enc);
    let r = swing_on(enc, &mut f, script);
    (r, f)
}

/// Unit `actor`'s whole turn with the given dice.
fn play(enc: &Encounter<Thrum>, f: &mut Fight<Thrum>, actor: usize, script: &[(u32, u32)]) {
    let mut dice = ScriptedDice::new(script);
    as_turn(enc, f, &mut dice, actor, Thrum::take_turn);
    dice.assert_done();
}

#[test]
fn initiative_is_2d6_plus_modifier_and_delay_keeps_a_unit_later() {
    let enc = plain("initiative = 1", "initiative = 0");
    let mut f = fight(&enc);
    // 3+3+1 = 7 v 5+4 = 9: b first.
    f.make_order(&enc, &mut ScriptedDice::new(&rolls(&[&d(3, 3), &d(5, 4)])));
    assert_eq!(f.turn_order(), &[1, 0]);
    // b delays by 3: 9 − 3 = 6 < 7, for the whole fight (one order).
    let enc = plain("initiative = 1", "delay = 3");
    let mut f = fight(&enc);
    f.make_order(&enc, &mut ScriptedDice::new(&rolls(&[&d(3, 3), &d(5, 4)])));
    assert_eq!(f.turn_order(), &[0, 1]);
    // Ties: random by default (one d2), roster order as an option.
    let enc = plain("", "");
    let mut f = fight(&enc);
    f.make_order(
        &enc,
        &mut ScriptedDice::new(&rolls(&[&d(3, 4), &d(5, 2), &[(2, 1)]])),
    );
    assert_eq!(f.turn_order(), &[1, 0]);
    let enc = duel("initiative_ties = \"roster\"", "", "", "", "");
    let mut f = fight(&enc);
    f.make_order(&enc, &mut ScriptedDice::new(&rolls(&[&d(3, 4), &d(5, 2)])));
    assert_eq!(f.turn_order(), &[0, 1]);
}

#[test]
fn resilience_success_avoids_failure_takes_one_fatigue() {
    let enc = plain("art = 1", "resilience = 1");
    // 4+3+1 = 8 v 4+3+1 = 8: a tie goes to the defender.
    let (r, f) = swing(&enc, &rolls(&[&d(4, 3), &d(4, 3)]));
    assert_eq!(
        (r.offence, r.defence, r.hit, r.evaded),
        (8, 8, false, false)
    );
    assert_eq!(f.units[1].state.fatigue_load, 0);
    assert_eq!(f.units[1].state.vulnerable, 0);
    // 9 v 8: the effect is taken, +1 Fatigue Load, 1 harm booked.
    let (r, f) = swing(&enc, &rolls(&[&d(4, 4), &d(4, 3)]));
    assert!(r.hit);
    assert_eq!(f.units[1].state.fatigue_load, 1);
    assert_eq!(f.units[1].state.stress_load, 0);
    assert_eq!(f.damage[0], 1);
    assert_eq!(f.counters[counter::HITS], 1);
}

#[test]
fn ties_can_go_to_the_attacker() {
    let enc = duel("attack_ties = \"attacker\"", "", "", "", "");
    let (r, _) = swing(&enc, &rolls(&[&d(4, 3), &d(4, 3)]));
    assert!(r.hit);
}

#[test]
fn evasion_outcomes_and_vulnerable() {
    let enc = plain("", "defence = \"evasion\"\nevasion = 1");
    // Not Vulnerable: +1 Boon, three dice keep the best two.
    // Critical: 5+6+1 = 12 v 7 (margin 5): avoids, no Vulnerable.
    let (r, f) = swing(&enc, &rolls(&[&d(3, 4), &d(5, 1), &[(6, 6)]]));
    assert_eq!(
        (r.defence, r.crit, r.hit, r.evaded),
        (12, true, false, true)
    );
    assert_eq!(f.units[1].state.vulnerable, 0);
    assert_eq!(f.counters[counter::EVASION_CRITS], 1);
    // Success by less than 5 (2, 1, 5 keep 5 + 2, +1 = 8 v 7): avoids but
    // +1 Vulnerable.
    let (r, f) = swing(&enc, &rolls(&[&d(3, 4), &d(2, 1), &[(6, 5)]]));
    assert_eq!((r.defence, r.crit, r.hit), (8, false, false));
    assert_eq!(f.units[1].state.vulnerable, 1);
    // Failure: takes the effect and +1 Vulnerable.
    let mut f = fight(&enc);
    let r = swing_on(&enc, &mut f, &rolls(&[&d(6, 6), &d(2, 1), &[(6, 3)]]));
    assert!(r.hit && !r.crit);
    assert_eq!(f.units[1].state.vulnerable, 1);
    assert_eq!(f.units[1].state.fatigue_load, 1);
    // Now Vulnerable: no Boon, two dice only; a success adds another stack.
    let r = swing_on(&enc, &mut f, &rolls(&[&d(1, 1), &d(2, 1)]));
    assert_eq!((r.defence, r.hit), (4, false));
    assert_eq!(f.units[1].state.vulnerable, 2);
    assert_eq!(f.counters[counter::VULNERABLE], 2);
}

#[test]
fn evasion_unless_vulnerable_falls_back_to_resilience() {
    let enc = plain(
        "",
        "defence = \"evasion-unless-vulnerable\"\nresilience = 2",
    );
    let mut f = fight(&enc);
    // Fresh: evades with the Boon (three dice).
    let r = swing_on(&enc, &mut f, &rolls(&[&d(3, 3), &d(3, 4), &[(6, 1)]]));
    assert!(r.evaded && !r.hit);
    assert_eq!(f.units[1].state.vulnerable, 1);
    // Vulnerable: Resilience (+2), two dice, no new stack.
    let r = swing_on(&enc, &mut f, &rolls(&[&d(3, 3), &d(2, 2)]));
    assert_eq!((r.evaded, r.defence, r.hit), (false, 6, false));
    assert_eq!(f.units[1].state.vulnerable, 1);
}

#[test]
fn mental_attacks_meet_resolve_and_add_stress() {
    let enc = duel(
        "",
        "kind = \"mental\"",
        "",
        "resilience = 5\nresolve = -1",
        "",
    );
    // 7 v 7 − 1 = 6: hit (Resolve, not Resilience).
    let (r, f) = swing(&enc, &rolls(&[&d(3, 4), &d(3, 4)]));
    assert_eq!(r.defence, 6);
    assert!(r.hit);
    assert_eq!(f.units[1].state.stress_load, 1);
    assert_eq!(f.units[1].state.fatigue_load, 0);
}

#[test]
fn boons_and_banes_add_dice_and_cancel_one_for_one() {
    // One boon: three dice, keep the highest two.
    let mut dice = ScriptedDice::new(&[(6, 2), (6, 5), (6, 4)]);
    assert_eq!(roll_2d6(&mut dice, 1, BoonEffect::ExtraDie), 9);
    // Two banes: four dice, keep the lowest two.
    let mut dice = ScriptedDice::new(&[(6, 6), (6, 5), (6, 2), (6, 3)]);
    assert_eq!(roll_2d6(&mut dice, -2, BoonEffect::ExtraDie), 5);
    // Flat: ±1 per net boon, two dice.
    let mut dice = ScriptedDice::new(&[(6, 6), (6, 5)]);
    assert_eq!(roll_2d6(&mut dice, -2, BoonEffect::Flat), 9);
    dice.assert_done();
    assert_eq!(net_boons(2, 1, Cancel::OneForOne), 1);
    assert_eq!(net_boons(1, 3, Cancel::OneForOne), -2);
    assert_eq!(net_boons(2, 1, Cancel::Single), 0);
    assert_eq!(net_boons(3, 0, Cancel::Single), 1);
    assert_eq!(net_boons(0, 2, Cancel::Single), -1);

    // In an attack: stance +2 boons against Exhaustion's bane = one boon.
    let enc = plain("stance_offence = 2", "");
    let mut f = fight(&enc);
    f.units[0].state.fatigue_load = 4; // Exhausted (4 > 3)
    let r = swing_on(&enc, &mut f, &rolls(&[&d(1, 2), &[(6, 6)], &d(3, 3)]));
    assert_eq!(r.offence, 8);
    // A stance +1 against Exhaustion: cancelled, two dice.
    let enc = plain("stance_offence = 1", "");
    let mut f = fight(&enc);
    f.units[0].state.fatigue_load = 4;
    let r = swing_on(&enc, &mut f, &rolls(&[&d(1, 2), &d(3, 3)]));
    assert_eq!(r.offence, 3);
    // With `cancel = "single"`, two boons and one bane cancel entirely.
    let enc = duel("cancel = \"single\"", "", "stance_offence = 2", "", "");
    let mut f = fight(&enc);
    f.units[0].state.fatigue_load = 4;
    let r = swing_on(&enc, &mut f, &rolls(&[&d(1, 2), &d(3, 3)]));
    assert_eq!(r.offence, 3);
}

#[test]
fn frayed_defends_and_exhausted_attacks_with_a_bane() {
    let enc = plain("", "");
    let mut f = fight(&enc);
    f.units[1].state.stress_load = 4; // Frayed (4 > 3)
    f.units[0].state.fatigue_load = 4; // Exhausted
                                       // Both roll three dice and keep the lowest two.
    let r = swing_on(
        &enc,
        &mut f,
        &rolls(&[&d(6, 5), &[(6, 1)], &d(6, 2), &[(6, 6)]]),
    );
    assert_eq!((r.offence, r.defence), (6, 8));
    // Stances cancel them (guarding: +1 on defence).
    let enc = plain("stance_offence = 1", "stance_defence = 1");
    let mut f = fight(&enc);
    f.units[1].state.stress_load = 4;
    f.units[0].state.fatigue_load = 4;
    let r = swing_on(&enc, &mut f, &rolls(&[&d(6, 5), &d(6, 2)]));
    assert_eq!((r.offence, r.defence), (11, 8));
    // A unit out of its stance (after an incapacity) gets no stance boon.
    f.units[1].state.stance = false;
    let r = swing_on(&enc, &mut f, &rolls(&[&d(1, 1), &d(6, 2), &[(6, 1)]]));
    assert_eq!(r.defence, 3);
}

#[test]
fn ranged_abilities_take_a_bane_per_adjacent_enemy() {
    let bow = "range = 10\nranged = true";
    let enc = duel("", bow, "", "", "count = 2");
    // Two enemies adjacent: four dice, keep the lowest two.
    let (r, _) = swing(&enc, &rolls(&[&d(6, 6), &d(2, 5), &d(1, 1)]));
    assert_eq!(r.offence, 7);
    // One of them farther away: one bane.
    let enc = duel("", bow, "", "", "count = 2");
    let mut f = fight(&enc);
    f.units[2].position = 5;
    let r = swing_on(&enc, &mut f, &rolls(&[&d(6, 6), &[(6, 2)], &d(1, 1)]));
    assert_eq!(r.offence, 8);
    // An incapacitated enemy still stands there: two banes. One removed from
    // combat is gone: one bane.
    let enc = duel("", bow, "", "", "count = 2");
    let mut f = fight(&enc);
    as_turn(&enc, &mut f, &mut ScriptedDice::new(&[]), 0, |t| {
        t.unit_mut(2).state.incapacitated = true;
        t.unit_mut(2).lingering = true;
        t.take_out(2);
    });
    let r = swing_on(&enc, &mut f, &rolls(&[&d(6, 6), &d(2, 5), &d(1, 1)]));
    assert_eq!(r.offence, 7);
    let u = &mut f.units[2];
    (u.state.incapacitated, u.state.removed, u.lingering) = (false, true, false);
    let r = swing_on(&enc, &mut f, &rolls(&[&d(6, 6), &[(6, 2)], &d(1, 1)]));
    assert_eq!(r.offence, 8);
    // A melee ability takes no such bane.
    let enc = duel("", "", "", "", "count = 2");
    let (r, _) = swing(&enc, &rolls(&[&d(6, 6), &d(1, 1)]));
    assert_eq!(r.offence, 12);
}

#[test]
fn cover_gives_a_bane_to_physical_attacks_and_full_cover_blocks_targeting() {
    for cover in ["half", "three-quarters"] {
        let entry = format!("cover = \"{cover}\"");
        let enc = duel("", "", "", "", &entry);
        let (r, _) = swing(&enc, &rolls(&[&d(6, 6), &[(6, 3)], &d(1, 1)]));
        assert_eq!(r.offence, 9, "{cover}");
        // Mental attacks ignore cover.
        let enc = duel("", "kind = \"mental\"", "", "", &entry);
        let (r, _) = swing(&enc, &rolls(&[&d(6, 6), &d(1, 1)]));
        assert_eq!(r.offence, 12, "{cover}");
    }
    // Full cover: never targeted, so a holding attacker rolls nothing.
    let enc = duel("", "", "", "", "cover = \"full\"");
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[]);
    assert_eq!(f.counters[counter::ATTACKS], 0);
}

#[test]
fn panic_roll_must_exceed_stress_load() {
    let enc = plain("", "resolve = 1");
    let mut f = fight(&enc);
    f.units[1].state.stress_load = 5; // Frayed
                                      // 2+2+1 = 5 ties the Load: panic.
    let mut dice = ScriptedDice::new(&d(2, 2));
    let panicked = as_turn(&enc, &mut f, &mut dice, 1, |t| panic_roll(t, 1));
    dice.assert_done();
    assert!(panicked);
    let s = f.units[1].state;
    assert_eq!(
        (s.stunned, s.fatigue_load, s.stress_load, s.stress_tolerance),
        (1, 5, 0, 2)
    );
    assert_eq!(f.counters[counter::PANICS], 1);
    // 6 > 5: holds.
    let mut f = fight(&enc);
    f.units[1].state.stress_load = 5;
    let mut dice = ScriptedDice::new(&d(3, 2));
    assert!(!as_turn(&enc, &mut f, &mut dice, 1, |t| panic_roll(t, 1)));
    assert_eq!(f.units[1].state.stress_load, 5);
}

#[test]
fn a_frayed_unit_panics_at_the_start_of_its_turn_and_then_moves_or_acts() {
    // b is Frayed and far away: it panics (Stunned), so it moves but cannot
    // attack after moving.
    let enc = duel("", "", "", "", "distance = 3");
    let mut f = fight(&enc);
    f.units[1].state.stress_load = 4;
    play(&enc, &mut f, 1, &d(1, 1));
    assert_eq!(
        f.units[1].position, 1,
        "moved 2 of its 4 squares to be adjacent"
    );
    assert_eq!(f.counters[counter::ATTACKS], 0);
    assert_eq!(
        f.units[1].state.stunned, 0,
        "Stunned ticked down at end of turn"
    );
    assert_eq!(f.units[1].state.fatigue_load, 4);
    // Adjacent and Stunned: it acts instead (and, now Exhausted, rolls for
    // Incapacity after the action).
    let enc = plain("", "");
    let mut f = fight(&enc);
    f.units[1].state.stress_load = 4;
    play(
        &enc,
        &mut f,
        1,
        &rolls(&[&d(1, 1), &d(1, 1), &[(6, 1)], &d(6, 6), &d(6, 6)]),
    );
    assert_eq!(f.counters[counter::ATTACKS], 1);
    assert_eq!(f.counters[counter::INCAPACITY_ROLLS], 1);
    // `stunned = "lose-turn"`: no move, no action.
    let enc = duel("stunned = \"lose-turn\"", "", "", "", "distance = 3");
    let mut f = fight(&enc);
    f.units[1].state.stress_load = 4;
    play(&enc, &mut f, 1, &d(1, 1));
    assert_eq!(f.units[1].position, 3);
}

#[test]
fn exhausted_units_roll_for_incapacity_after_acting_exceed_not_tie() {
    let enc = plain("", "resilience = 1");
    // b: Fatigue Load 5 > 3. Attacks (4 dice: its bane), then 2d6+1 must
    // exceed 5: 3+2+1 = 6 holds.
    let mut f = fight(&enc);
    f.units[1].state.fatigue_load = 5;
    play(
        &enc,
        &mut f,
        1,
        &rolls(&[&d(1, 1), &[(6, 1)], &d(6, 6), &d(3, 2)]),
    );
    assert!(!f.units[1].out);
    // 2+2+1 = 5 ties: Incapacitated. On falling, Tolerance 3 → 2 and Load
    // 5 → 4; at the end of the same turn again: 1 and 3.
    let mut f = fight(&enc);
    f.units[1].state.fatigue_load = 5;
    play(
        &enc,
        &mut f,
        1,
        &rolls(&[&d(1, 1), &[(6, 1)], &d(6, 6), &d(2, 2)]),
    );
    let u = f.units[1];
    assert!(u.out && u.lingering && u.state.incapacitated && !u.state.stance);
    assert_eq!((u.state.fatigue_tolerance, u.state.fatigue_load), (1, 3));
    assert_eq!(f.counters[counter::INCAPACITATIONS], 1);
    assert_eq!(f.standing(1), 0);
    // `same_turn_decay = false`: only the decrement on falling.
    let enc = duel("same_turn_decay = false", "", "", "resilience = 1", "");
    let mut f = fight(&enc);
    f.units[1].state.fatigue_load = 5;
    play(
        &enc,
        &mut f,
        1,
        &rolls(&[&d(1, 1), &[(6, 1)], &d(6, 6), &d(2, 2)]),
    );
    let s = f.units[1].state;
    assert_eq!((s.fatigue_tolerance, s.fatigue_load), (2, 4));
}

#[test]
fn no_incapacity_roll_without_an_action() {
    // Exhausted, nothing in reach after moving: no action, no roll.
    let enc = duel("", "", "", "speed = 1", "distance = 5");
    let mut f = fight(&enc);
    f.units[1].state.fatigue_load = 5;
    play(&enc, &mut f, 1, &[]);
    assert_eq!(f.counters[counter::INCAPACITY_ROLLS], 0);
}

#[test]
fn finishers_force_an_incapacity_roll_on_an_exhausted_target() {
    let enc = duel("", "finisher = true", "", "", "");
    let mut f = fight(&enc);
    f.units[1].state.fatigue_load = 3; // the hit makes it 4 > 3
    let r = swing_on(&enc, &mut f, &rolls(&[&d(6, 6), &d(1, 1), &d(2, 2)]));
    assert!(r.hit);
    assert!(f.units[1].state.incapacitated);
    assert_eq!(f.units[1].state.fatigue_load, 3);
    // "After the attack resolves", hit or miss: a miss on an Exhausted
    // target still forces the roll (12 + Resilience exceeds 4: it stands).
    let mut f = fight(&enc);
    f.units[1].state.fatigue_load = 4;
    let r = swing_on(&enc, &mut f, &rolls(&[&d(1, 1), &d(6, 6), &d(6, 6)]));
    assert!(!r.hit);
    assert_eq!(f.counters[counter::INCAPACITY_ROLLS], 1);
    assert!(!f.units[1].state.incapacitated);
    // Not Exhausted after the hit: no roll.
    let mut f = fight(&enc);
    f.units[1].state.fatigue_load = 1;
    swing_on(&enc, &mut f, &rolls(&[&d(6, 6), &d(1, 1)]));
    assert_eq!(f.counters[counter::INCAPACITY_ROLLS], 0);
    // A plain ability: no roll either.
    let enc = plain("", "");
    let mut f = fight(&enc);
    f.units[1].state.fatigue_load = 3;
    swing_on(&enc, &mut f, &rolls(&[&d(6, 6), &d(1, 1)]));
    assert!(!f.units[1].out);
}

/// Incapacitate unit 1 with a Finisher and Fatigue Load `load` before the
/// hit, Tolerance `tol`.
fn downed(tol: i32, load: i32) -> (Encounter<Thrum>, Fight<Thrum>) {
    let enc = duel("", "finisher = true", "", "", "");
    let mut f = fight(&enc);
    f.units[1].state.fatigue_tolerance = tol;
    f.units[1].state.fatigue_load = load;
    swing_on(&enc, &mut f, &rolls(&[&d(6, 6), &d(1, 1), &d(1, 1)]));
    assert!(f.units[1].state.incapacitated);
    (enc, f)
}

#[test]
fn tolerance_decays_and_wounds_remove() {
    // Tolerance 2, Load 5 + 1 → on falling 1 and 5.
    let (enc, mut f) = downed(2, 5);
    assert_eq!(
        (
            f.units[1].state.fatigue_tolerance,
            f.units[1].state.fatigue_load
        ),
        (1, 5)
    );
    // Its turn: 0 and 4, ending Incapacitated at Tolerance 0: a Wound.
    play(&enc, &mut f, 1, &[]);
    assert_eq!(
        (
            f.units[1].state.fatigue_tolerance,
            f.units[1].state.fatigue_load
        ),
        (0, 4)
    );
    assert_eq!(f.units[1].state.wounds, 1);
    // Tolerance stays at 0: a Wound every turn; the third removes it.
    play(&enc, &mut f, 1, &[]);
    assert_eq!(f.units[1].state.wounds, 2);
    assert!(f.units[1].lingering);
    play(&enc, &mut f, 1, &[]);
    let u = f.units[1];
    assert_eq!(u.state.wounds, 3);
    assert!(u.state.removed && u.out && !u.lingering && !u.takes_turns());
    assert_eq!(
        (f.counters[counter::WOUNDS], f.counters[counter::REMOVALS]),
        (3, 1)
    );
    // Wounds carried in count toward the three.
    let enc = duel("", "finisher = true", "", "wounds = 2", "");
    let mut f = fight(&enc);
    f.units[1].state.fatigue_tolerance = 1;
    f.units[1].state.fatigue_load = 5;
    swing_on(&enc, &mut f, &rolls(&[&d(6, 6), &d(1, 1), &d(1, 1)]));
    play(&enc, &mut f, 1, &[]);
    assert!(f.units[1].state.removed);
}

#[test]
fn fatigue_load_reaching_zero_ends_incapacity() {
    // Tolerance 5, Load 5 + 1: on falling 4 and 5. Load and Tolerance drop
    // together, so Tolerance reaches 0 one turn before Load does.
    let (enc, mut f) = downed(5, 5);
    for _ in 0..4 {
        play(&enc, &mut f, 1, &[]);
    }
    let s = f.units[1].state;
    assert_eq!((s.fatigue_tolerance, s.fatigue_load, s.wounds), (0, 1, 1));
    assert!(f.units[1].out);
    // Load 1 → 0: back in the fight, no further Wound at Tolerance 0.
    play(&enc, &mut f, 1, &[]);
    let u = f.units[1];
    assert!(!u.out && !u.lingering && !u.state.incapacitated);
    assert_eq!((u.state.fatigue_tolerance, u.state.wounds), (0, 1));
    assert_eq!(f.counters[counter::SELF_REVIVALS], 1);
    assert_eq!(f.standing(1), 1);
    // Without a stance until its next stance phase.
    assert!(!u.state.stance);
}

#[test]
fn an_ally_resuscitates_an_incapacitated_unit() {
    let enc = encounter::<Thrum>(
        r#"
name = "t"
rules = "thrum"
[weapons.w]
[units.a]
fatigue_tolerance = 3
stress_tolerance = 3
weapons = ["w"]
[sides.red]
a = { count = 2 }
[sides.blue]
a = { distance = 10 }
"#,
    );
    let mut f = fight(&enc);
    f.units[1].position = -4;
    let mut dice = ScriptedDice::new(&[]);
    as_turn(&enc, &mut f, &mut dice, 1, |t| {
        t.unit_mut(1).state.fatigue_load = 4;
        incapacitate(t, 1);
    });
    // Unit 0 at 0 is 4 away: moves 3 squares and resuscitates.
    play(&enc, &mut f, 0, &[]);
    assert_eq!(f.units[0].position, -3);
    let u = f.units[1];
    assert!(!u.out && !u.lingering && !u.state.incapacitated);
    assert_eq!(u.state.fatigue_load, 3, "loads stay");
    assert_eq!(f.counters[counter::RESUSCITATIONS], 1);
    assert_eq!(f.counters[counter::ATTACKS], 0);
}

#[test]
fn overexert_takes_stress_before_rolling_for_more_load() {
    let ability = "overexert = 1";
    let enc = duel("", ability, "overexert = \"calm\"", "", "");
    let mut f = fight(&enc);
    swing_on(&enc, &mut f, &rolls(&[&d(6, 6), &d(1, 1)]));
    assert_eq!(f.units[0].state.stress_load, 1);
    assert_eq!(f.units[1].state.fatigue_load, 2);
    // Calm: not when the Stress would fray it.
    let mut f = fight(&enc);
    f.units[0].state.stress_load = 3;
    swing_on(&enc, &mut f, &rolls(&[&d(6, 6), &d(1, 1)]));
    assert_eq!(f.units[0].state.stress_load, 3);
    assert_eq!(f.units[1].state.fatigue_load, 1);
    // Never (the default).
    let enc = duel("", ability, "", "", "");
    let (_, f) = swing(&enc, &rolls(&[&d(6, 6), &d(1, 1)]));
    assert_eq!(f.units[0].state.stress_load, 0);
}

#[test]
fn vulnerable_ticks_down_at_the_end_of_its_owners_turn() {
    let enc = duel("", "", "", "", "distance = 10");
    let mut f = fight(&enc);
    f.units[1].state.vulnerable = 2;
    play(&enc, &mut f, 1, &[]);
    assert_eq!(f.units[1].state.vulnerable, 1);
    let enc = duel("vulnerable_ticks = false", "", "", "", "distance = 10");
    let mut f = fight(&enc);
    f.units[1].state.vulnerable = 2;
    play(&enc, &mut f, 1, &[]);
    assert_eq!(f.units[1].state.vulnerable, 2);
}

#[test]
fn a_side_all_incapacitated_loses() {
    let enc = plain("art = 20\nresilience = 20", "resilience = -10");
    let mut f = Fight::new();
    let mut dice = RngDice::for_batch(7, 0);
    let outcome = f.run(&enc, &mut dice);
    assert_eq!(outcome.winner, Some(0));
    assert!(f.units[1].out);
}

/// Exact P(X + bonus > Y) for X, Y the kept sum of 2d6 (X with `boons`
/// extra dice keeping the best two), by enumeration.
fn exact_beats(boons: u32, bonus: i32) -> f64 {
    let dist = |extra: u32| {
        let n = 2 + extra;
        let mut p = [0.0f64; 13];
        let total = 6u32.pow(n);
        for k in 0..total {
            let mut faces: Vec<i32> = (0..n).map(|i| (k / 6u32.pow(i) % 6 + 1) as i32).collect();
            faces.sort_unstable_by(|a, b| b.cmp(a));
            p[(faces[0] + faces[1]) as usize] += 1.0 / total as f64;
        }
        p
    };
    let (x, y) = (dist(boons), dist(0));
    let mut p = 0.0;
    for (a, pa) in x.iter().enumerate() {
        for (b, pb) in y.iter().enumerate() {
            if a as i32 + bonus > b as i32 {
                p += pa * pb;
            }
        }
    }
    p
}

#[test]
fn hit_rates_match_exact_2d6_probabilities() {
    // Art +1 v Resilience 0, ties to the defender: a hit is 2d6+1 > 2d6.
    // Exact: P = (1 + P(tie))/2 with P(tie) = Σ p_k² = 146/1296, so
    // 0.5563; the test checks the enumeration agrees.
    let p = exact_beats(0, 1);
    assert!((p - (1.0 + 146.0 / 1296.0) / 2.0).abs() < 1e-12);
    let n = 40_000;
    let enc = plain("art = 1", "");
    let mut f = fight(&enc);
    let ability = enc.units[0].stats.abilities()[0];
    let got = rate(n, 4, |dice| {
        f.units[1].state.fatigue_load = 0;
        as_turn(&enc, &mut f, dice, 0, |t| attack(t, 1, &ability)).hit
    });
    // Bound: 4 standard errors of a proportion p over n trials.
    assert!((got - p).abs() < four_se(p, n), "{got} v {p}");

    // With one boon (a stance): 3d6 keep the best two, +1, v 2d6.
    let p = exact_beats(1, 1);
    assert!(p > 0.7 && p < 0.8, "{p}");
    let enc = plain("art = 1\nstance_offence = 1", "");
    let mut f = fight(&enc);
    let got = rate(n, 5, |dice| {
        f.units[1].state.fatigue_load = 0;
        as_turn(&enc, &mut f, dice, 0, |t| attack(t, 1, &ability)).hit
    });
    assert!((got - p).abs() < four_se(p, n), "{got} v {p}");
}

#[test]
fn incapacity_roll_rate_matches_exact_probability() {
    // 2d6 + 1 must exceed 7: P(2d6 ≥ 7) = 21/36 holds.
    let p = 21.0 / 36.0;
    let n = 40_000;
    let enc = plain("", "resilience = 1");
    let mut f = fight(&enc);
    let got = rate(n, 6, |dice| {
        f.units[1].state.fatigue_load = 7;
        f.units[1].state.incapacitated = false;
        let fell = as_turn(&enc, &mut f, dice, 1, |t| {
            let fell = incapacity_roll(t, 1);
            if fell {
                revive(t, 1);
            }
            fell
        });
        !fell
    });
    assert!((got - p).abs() < four_se(p, n), "{got} v {p}");
}
