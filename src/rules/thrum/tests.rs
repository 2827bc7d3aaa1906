//! `thrum` rules pinned with scripted dice, and checked statistically
//! against exact 2d6 probabilities.

use super::*;
use crate::dice::{RngDice, ScriptedDice};
use crate::engine::{Encounter, Fight};
use crate::testkit::{as_turn, assert_within_four_se, encounter, fight, fight_rate, four_se, rate};

/// Unit 0 (`a`, side red) and unit 1.. (`b`, side blue), both at the front
/// line (adjacent). `ability` is the body of `[weapons.w]`; `a` and `b` add
/// stat-block lines; the entries are the inline tables of the unit groups.
fn duel(opts: &str, ability: &str, a: &str, b: &str, b_entry: &str) -> Encounter<Thrum> {
    duel_entries(opts, ability, a, "", b, b_entry)
}

/// [`duel`] with an inline table for `a`'s unit group too.
fn duel_entries(
    opts: &str,
    ability: &str,
    a: &str,
    a_entry: &str,
    b: &str,
    b_entry: &str,
) -> Encounter<Thrum> {
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
a = {{ {a_entry} }}
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
    evades_fresh_then_resists_when_vulnerable(&enc);
}

/// Two attacks on unit 1 (defending `evasion-unless-vulnerable`, with
/// Resilience 2): fresh, it evades with the Boon (three dice) and becomes
/// Vulnerable; Vulnerable, it defends with Resilience (+2, two dice) and
/// gains no new stack.
fn evades_fresh_then_resists_when_vulnerable(enc: &Encounter<Thrum>) {
    let mut f = fight(enc);
    let r = swing_on(enc, &mut f, &rolls(&[&d(3, 3), &d(3, 4), &[(6, 1)]]));
    assert!(r.evaded && !r.hit);
    assert_eq!(f.units[1].state.vulnerable, 1);
    let r = swing_on(enc, &mut f, &rolls(&[&d(3, 3), &d(2, 2)]));
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

/// Every face of every die, for up to three net boons or banes: the roll
/// keeps the two highest (boons) or lowest (banes) of all the dice, read
/// from a sort of them, and reads exactly 2 + |net| dice.
#[test]
fn boons_and_banes_keep_the_best_or_worst_two_of_every_roll() {
    for net in -3i32..=3 {
        let n = 2 + net.unsigned_abs() as usize;
        let mut faces = vec![1u32; n];
        loop {
            let script: Vec<(u32, u32)> = faces.iter().map(|&f| (6, f)).collect();
            let mut dice = ScriptedDice::new(&script);
            let got = roll_2d6(&mut dice, net, BoonEffect::ExtraDie);
            dice.assert_done();
            let mut sorted: Vec<i32> = faces.iter().map(|&f| f as i32).collect();
            sorted.sort_unstable();
            let expected = if net >= 0 {
                sorted[n - 1] + sorted[n - 2]
            } else {
                sorted[0] + sorted[1]
            };
            assert_eq!(got, expected, "net {net}, dice {faces:?}");
            // Next combination of faces (odometer).
            let Some(i) = faces.iter().position(|&f| f < 6) else {
                break;
            };
            faces[i] += 1;
            faces[..i].fill(1);
        }
    }
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
fn advancing_shooters_close_to_melee_reach_though_their_ranged_ability_already_reaches() {
    // README, "The battlefield", `advance`: "picks a target, closes to melee
    // reach, attacks once in reach; on the way it shoots if a ranged weapon
    // reaches" (issue 30, item 4: a unit whose only ability already reaches
    // still closes in). Thrum's melee reach is adjacent ("Movement": the
    // eight squares around). "Start of Turn": Move up to Speed (4), then an
    // Action. A crossbow (range 12, Ranged) at 10 squares: move to 6 and
    // shoot, to 2 and shoot, to 1 and shoot with the Ranged tag's +1 Bane
    // ("Ranged": an adjacent enemy, three dice); then it stays and shoots.
    let enc = duel_entries(
        "",
        "range = 12\nranged = true",
        "",
        "tactic = \"advance\"",
        "",
        "distance = 10, tactic = \"hold\"",
    );
    assert_eq!(enc.units[0].stats.kit.advance_reach, ADJACENT);
    // Each shot misses: the attack 2 against the defence 12.
    let miss = rolls(&[&d(1, 1), &d(6, 6)]);
    let miss_bane = rolls(&[&d(1, 1), &[(6, 1)], &d(6, 6)]);
    let mut f = fight(&enc);
    let gap = |f: &Fight<Thrum>| (f.units[1].position - f.units[0].position).abs();
    assert_eq!(gap(&f), 10);
    for (want_gap, attacks, dice) in [
        (6, 1, &miss),
        (2, 2, &miss),
        (1, 3, &miss_bane),
        (1, 4, &miss_bane),
    ] {
        play(&enc, &mut f, 0, dice);
        assert_eq!(gap(&f), want_gap);
        assert_eq!(f.counters[counter::ATTACKS], attacks);
    }
}

#[test]
fn cover_applies_only_from_beyond_its_source_and_only_to_physical_attacks() {
    // "Cover": characters next to a source of cover "have Cover against
    // Physical Attacks originating from spaces on the opposite side of ...
    // the source of cover"; "An attacker targeting a character with Cover
    // rolls their attack at +1 Bane." The source is adjacent to the target,
    // so an adjacent attacker is never beyond it. (This test used to pin a
    // bane on adjacent attackers too.)
    for cover in ["half", "three-quarters"] {
        // Adjacent: two dice, no bane.
        let enc = duel("", "range = 5", "", "", &format!("cover = \"{cover}\""));
        let (r, _) = swing(&enc, &rolls(&[&d(6, 6), &d(1, 1)]));
        assert_eq!(r.offence, 12, "{cover}, adjacent");
        // Three squares off, beyond the source: three dice, keep the lowest
        // two.
        let far = format!("cover = \"{cover}\", distance = 3");
        let enc = duel("", "range = 5", "", "", &far);
        let (r, _) = swing(&enc, &rolls(&[&d(6, 6), &[(6, 3)], &d(1, 1)]));
        assert_eq!(r.offence, 9, "{cover}, beyond");
        // Mental attacks ignore cover, from anywhere.
        let enc = duel("", "range = 5\nkind = \"mental\"", "", "", &far);
        let (r, _) = swing(&enc, &rolls(&[&d(6, 6), &d(1, 1)]));
        assert_eq!(r.offence, 12, "{cover}, mental");
    }
}

#[test]
fn full_cover_obstructs_physical_attacks_from_beyond_only() {
    // "Cover": if both squares flanking the source also give cover, "the
    // path between the attacker and target is Obstructed and that space or
    // a character in it cannot be targeted by that attack". Obstruction is
    // part of the cover rule, "against Physical Attacks", and concerns only
    // attackers beyond the source.
    let hold = "tactic = \"hold\"";
    // Adjacent: attacked, without a bane (two dice each).
    let enc = duel_entries("", "range = 5", "", hold, "", "cover = \"full\"");
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &rolls(&[&d(6, 6), &d(1, 1)]));
    assert_eq!(f.counters[counter::ATTACKS], 1);
    // From beyond: a physical attack cannot target it; a holding attacker
    // does nothing.
    let far = "cover = \"full\", distance = 3";
    let enc = duel_entries("", "range = 5", "", hold, "", far);
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[]);
    assert_eq!(f.counters[counter::ATTACKS], 0);
    // An advancing attacker closes to adjacent instead of stopping at its
    // reach (5), then attacks.
    let enc = duel("", "range = 5", "", "", far);
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &rolls(&[&d(6, 6), &d(1, 1)]));
    assert_eq!(f.units[0].position, 2);
    assert_eq!(f.counters[counter::ATTACKS], 1);
    // A mental attack from beyond targets it (`obstruction = "physical"`,
    // the default), with no bane...
    let mind = "range = 5\nkind = \"mental\"";
    let enc = duel_entries("", mind, "", hold, "", far);
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &rolls(&[&d(6, 6), &d(1, 1)]));
    assert_eq!(f.counters[counter::ATTACKS], 1);
    // ... and does not with `obstruction = "all"`.
    let enc = duel_entries("obstruction = \"all\"", mind, "", hold, "", far);
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[]);
    assert_eq!(f.counters[counter::ATTACKS], 0);
}

/// Unit 0's attack with its first ability on unit `target`.
fn swing_at(
    enc: &Encounter<Thrum>,
    f: &mut Fight<Thrum>,
    target: usize,
    script: &[(u32, u32)],
) -> AttackResult {
    let mut dice = ScriptedDice::new(script);
    let ability = enc.units[0].stats.abilities()[0];
    let r = as_turn(enc, f, &mut dice, 0, |t| attack(t, target, &ability));
    dice.assert_done();
    r
}

#[test]
fn characters_give_cover_only_with_character_cover() {
    // "Cover": a character adjacent to a square occupied "by another
    // character" has Cover against attacks from beyond it "and at a lower
    // elevation level than the source of cover". The front is flat: the
    // attacker is never lower, so by default characters give no cover;
    // `character_cover = true` drops the elevation clause.
    let scenario = |opts: &str| {
        encounter::<Thrum>(&format!(
            r#"
name = "t"
rules = "thrum"
[options]
{opts}
[weapons.w]
range = 5
[units.a]
fatigue_tolerance = 3
stress_tolerance = 3
weapons = ["w"]
[sides.red]
a = {{ count = 2 }}
[sides.blue]
a = {{ distance = 3 }}
"#
        ))
    };
    // Unit 0 at 0 shoots unit 2 at 3; unit 1 (its ally) stands at 2, next
    // to the target on the shooter's side.
    let enc = scenario("");
    let mut f = fight(&enc);
    f.units[1].position = 2;
    let r = swing_at(&enc, &mut f, 2, &rolls(&[&d(6, 6), &d(1, 1)]));
    assert_eq!(r.offence, 12, "default: no cover from characters");
    let enc = scenario("character_cover = true");
    let mut f = fight(&enc);
    f.units[1].position = 2;
    let r = swing_at(&enc, &mut f, 2, &rolls(&[&d(6, 6), &[(6, 3)], &d(1, 1)]));
    assert_eq!(r.offence, 9, "a character between: +1 Bane");
    // Incapacitated, it still stands there.
    as_turn(&enc, &mut f, &mut ScriptedDice::new(&[]), 1, |t| {
        t.unit_mut(1).state.fatigue_load = 5;
        incapacitate(t, 1);
    });
    let r = swing_at(&enc, &mut f, 2, &rolls(&[&d(6, 6), &[(6, 3)], &d(1, 1)]));
    assert_eq!(r.offence, 9, "an incapacitated character between");
    // Beside the target (same square of the front), not between: no cover.
    let mut f = fight(&enc);
    f.units[1].position = 3;
    let r = swing_at(&enc, &mut f, 2, &rolls(&[&d(6, 6), &d(1, 1)]));
    assert_eq!(r.offence, 12, "beside, not between");
    // An attacker next to the target is never beyond the source.
    let mut f = fight(&enc);
    (f.units[0].position, f.units[1].position) = (2, 2);
    let r = swing_at(&enc, &mut f, 2, &rolls(&[&d(6, 6), &d(1, 1)]));
    assert_eq!(r.offence, 12, "adjacent attacker");
}

#[test]
fn an_ability_deals_the_load_it_names() {
    // "Fatigue and Stress": "attacks will usually specify that they deal
    // Fatigue or Stress when they connect". The Load comes from the
    // ability's `deals`, not from its Physical/Mental type (which picks the
    // defence). (The Load used to follow the type.)
    let enc = duel("", "deals = \"stress\"", "", "resolve = -5", "");
    let (r, f) = swing(&enc, &rolls(&[&d(4, 4), &d(4, 4)]));
    assert!(!r.hit, "physical: Resilience defends (8 v 8), not Resolve");
    assert_eq!(f.units[1].state.stress_load, 0);
    let (r, f) = swing(&enc, &rolls(&[&d(6, 6), &d(1, 1)]));
    assert!(r.hit);
    let s = f.units[1].state;
    assert_eq!((s.fatigue_load, s.stress_load), (0, 1));
    // A mental ability dealing Fatigue: Resolve defends, Fatigue is taken.
    let enc = duel(
        "",
        "kind = \"mental\"\ndeals = \"fatigue\"",
        "",
        "resolve = 2\nresilience = -5",
        "",
    );
    let (r, _) = swing(&enc, &rolls(&[&d(4, 4), &d(3, 3)]));
    assert!(!r.hit, "8 v 6 + 2: Resolve");
    let (r, f) = swing(&enc, &rolls(&[&d(6, 6), &d(1, 1)]));
    assert!(r.hit);
    let s = f.units[1].state;
    assert_eq!((s.fatigue_load, s.stress_load), (1, 0));
    // `deals = "kind"` (the default): physical Fatigue, mental Stress.
    let enc = duel("", "kind = \"mental\"", "", "", "");
    let (_, f) = swing(&enc, &rolls(&[&d(6, 6), &d(1, 1)]));
    assert_eq!(f.units[1].state.stress_load, 1);
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
    let falls = rolls(&[&d(1, 1), &[(6, 1)], &d(6, 6), &d(2, 2)]);
    play(&enc, &mut f, 1, &falls);
    let u = f.units[1];
    // Its stance ends; b's gives no boons or banes, and is kept (ending it
    // would change no roll).
    assert!(u.out && u.lingering && u.state.incapacitated && u.state.stance);
    let stanced = plain("", "resilience = 1\nstance_defence = 1");
    let mut g = fight(&stanced);
    g.units[1].state.fatigue_load = 5;
    play(&stanced, &mut g, 1, &falls);
    assert!(g.units[1].state.incapacitated && !g.units[1].state.stance);
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

/// For the exact engine, a removed unit is one state and gone for good:
/// what it carried out of combat (here Load 2 at Tolerance 0) is cleared,
/// its Wounds kept; a unit still in the fight keeps everything.
#[test]
fn a_removed_unit_is_one_exact_state_and_gone_for_good() {
    let (enc, mut f) = downed(2, 5);
    let standing = f.units[0];
    for _ in 0..3 {
        play(&enc, &mut f, 1, &[]);
    }
    let mut u = f.units[1];
    assert!(u.state.removed && u.state.fatigue_load > 0);
    assert!(Thrum::gone_for_good(&u) && !Thrum::gone_for_good(&standing));
    Thrum::forget_round(&mut u.state, 4);
    assert_eq!(
        u.state,
        State {
            wounds: 3,
            stance: u.state.stance,
            removed: true,
            ..State::default()
        }
    );
    let mut kept = standing.state;
    Thrum::forget_round(&mut kept, 4);
    assert_eq!(kept, standing.state);
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
    // A stance of no boons or banes is never left (ending it would change
    // no roll).
    assert!(u.state.stance);
    // One that gives something: without it until its next stance phase.
    let enc = duel("", "finisher = true", "", "stance_offence = 1", "");
    let mut f = fight(&enc);
    f.units[1].state.fatigue_tolerance = 5;
    f.units[1].state.fatigue_load = 5;
    swing_on(&enc, &mut f, &rolls(&[&d(6, 6), &d(1, 1), &d(1, 1)]));
    assert!(f.units[1].state.incapacitated && !f.units[1].state.stance);
    for _ in 0..5 {
        play(&enc, &mut f, 1, &[]);
    }
    let u = f.units[1];
    assert!(!u.state.incapacitated && !u.out && !u.state.stance);
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

#[test]
fn a_member_who_cannot_act_never_costs_its_team_an_activation() {
    // "Incapacitated": "they cannot move, act, or take stances". Under
    // team-alternating activation (`initiative = "alternating"`) a team
    // activates a member who can act. Red: `stiff` (initiative 10,
    // paralyzed: cannot act) and `ready` (5); blue: `x` (7, fragile) and
    // `y` (1, which does not Resuscitate). Red's activation goes to `ready`,
    // which fells `x` with a Finisher; blue's to `y` (`x` is down); red has
    // nobody left who can act, nor has blue; then the turns of those who
    // could not act: `stiff` (nothing) and `x` (decay, a Wound).
    let enc = encounter::<Thrum>(
        r#"
name = "t"
rules = "thrum"
max_rounds = 1
[options]
initiative = "alternating"
[weapons.axe]
finisher = true
load = 3
[units.stiff]
fatigue_tolerance = 3
stress_tolerance = 3
initiative = 10
weapons = ["axe"]
[units.ready]
fatigue_tolerance = 3
stress_tolerance = 3
initiative = 5
weapons = ["axe"]
[units.x]
fatigue_tolerance = 0
stress_tolerance = 3
resilience = -5
initiative = 7
weapons = ["axe"]
[units.y]
fatigue_tolerance = 3
stress_tolerance = 3
initiative = 1
resuscitate = false
weapons = ["axe"]
[sides.red]
stiff = { conditions = ["paralyzed"] }
ready = {}
[sides.blue]
x = {}
y = {}
"#,
    );
    let script = rolls(&[
        // Initiative, roster order: 12, 7, 9, 3.
        &d(1, 1),
        &d(1, 1),
        &d(1, 1),
        &d(1, 1),
        // ready: picks x (of x, y), 12 v 2 − 5: hit, Load 3 > 0: the
        // Finisher's Incapacity Roll 2 − 5 does not exceed 3: down.
        &[(2, 1)],
        &d(6, 6),
        &d(1, 1),
        &d(1, 1),
        // y (x is down): picks stiff (of stiff, ready), 2 v 12: miss.
        &[(2, 1)],
        &d(1, 1),
        &d(6, 6),
    ]);
    let mut f = Fight::new();
    let mut dice = ScriptedDice::new(&script);
    f.run(&enc, &mut dice);
    dice.assert_done();
    assert_eq!(f.counters[counter::ATTACKS], 2);
    let x = f.units[2].state;
    assert!(x.incapacitated);
    assert_eq!(
        (x.fatigue_load, x.wounds),
        (1, 1),
        "x had its turn: decay, Wound"
    );
}

#[test]
fn who_can_act_when_its_team_is_activated() {
    // "Incapacitated": "cannot move, act, or take stances"; Stunned (not
    // defined by the text) still moves or acts under the draft's reading,
    // not under `stunned = "lose-turn"`.
    let enc = plain("", "");
    let mut f = fight(&enc);
    assert!(Thrum::can_act(&f, &enc, 1));
    f.units[1].conditions.set(Condition::Stunned);
    assert!(Thrum::can_act(&f, &enc, 1), "move-or-act: can act");
    let lose = duel("stunned = \"lose-turn\"", "", "", "", "");
    assert!(!Thrum::can_act(&f, &lose, 1), "lose-turn: cannot");
    f.units[1].conditions = Conditions::NONE;
    f.units[1].conditions.set(Condition::Unconscious);
    assert!(!Thrum::can_act(&f, &enc, 1), "helpless");
    let mut f = fight(&enc);
    as_turn(&enc, &mut f, &mut ScriptedDice::new(&[]), 1, |t| {
        t.unit_mut(1).state.fatigue_load = 5;
        incapacitate(t, 1);
    });
    assert!(f.units[1].takes_turns() && !Thrum::can_act(&f, &enc, 1));
}

#[test]
fn an_incapacitated_enemy_can_be_struck() {
    // "Targets": an Enemy is "a character fighting on an opposing side"; an
    // Incapacitated one cannot act, but nothing bars it as a target. A unit
    // with no standing enemy to attack this turn strikes one in reach (each
    // hit keeps it down longer). (Incapacitated units used to be
    // untargetable.)
    let hold = "tactic = \"hold\"";
    let enc = duel_entries("", "", "", hold, "", "count = 2");
    let down = |f: &mut Fight<Thrum>| {
        as_turn(&enc, f, &mut ScriptedDice::new(&[]), 1, |t| {
            t.unit_mut(1).state.fatigue_load = 5;
            incapacitate(t, 1);
        });
    };
    // Unit 2 standing next to it: that one is attacked (no choice to roll).
    let mut f = fight(&enc);
    down(&mut f);
    play(&enc, &mut f, 0, &rolls(&[&d(6, 6), &d(1, 1)]));
    assert_eq!(f.units[2].state.fatigue_load, 1);
    assert_eq!(f.units[1].state.fatigue_load, 4);
    // Unit 2 out of reach: the fallen unit 1 is struck (it still defends:
    // "they always have the chance to defend themselves").
    let mut f = fight(&enc);
    down(&mut f);
    f.units[2].position = 20;
    play(&enc, &mut f, 0, &rolls(&[&d(6, 6), &d(1, 1)]));
    assert_eq!(f.units[1].state.fatigue_load, 5);
    assert!(f.units[1].state.incapacitated);
    // `strike_downed = false`: it does nothing.
    let enc = duel_entries("", "", "strike_downed = false", hold, "", "count = 2");
    let mut f = fight(&enc);
    down(&mut f);
    f.units[2].position = 20;
    play(&enc, &mut f, 0, &[]);
    assert_eq!(f.counters[counter::ATTACKS], 0);
}

#[test]
fn resuscitation_can_halve_loads_as_the_games_ability_does() {
    // "Incapacitated": incapacity ends when "another character targets them
    // with the Resuscitate action"; the text says nothing more, so by
    // default Loads stay (see `an_ally_resuscitates_an_incapacitated_unit`).
    // `resuscitation = "halve"`: the game's Resuscitate ability (Fatigue and
    // Stress halved, rounded down; negative statuses cleared).
    let enc = encounter::<Thrum>(
        r#"
name = "t"
rules = "thrum"
[options]
resuscitation = "halve"
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
    as_turn(&enc, &mut f, &mut ScriptedDice::new(&[]), 1, |t| {
        let s = &mut t.unit_mut(1).state;
        (s.fatigue_load, s.stress_load, s.vulnerable) = (6, 3, 2);
        incapacitate(t, 1);
    });
    play(&enc, &mut f, 0, &[]);
    let s = f.units[1].state;
    assert!(!s.incapacitated);
    assert_eq!((s.fatigue_load, s.stress_load, s.vulnerable), (2, 1, 0));
}

/// Distribution of the kept two of 2d6 with `net` boons (extra dice, keep
/// the best two) or banes (keep the worst two), by enumeration.
fn kept_2d6(net: i32) -> [f64; 13] {
    let n = 2 + net.unsigned_abs();
    let total = 6u32.pow(n);
    let mut p = [0.0f64; 13];
    for k in 0..total {
        let mut faces: Vec<i32> = (0..n).map(|i| (k / 6u32.pow(i) % 6 + 1) as i32).collect();
        faces.sort_unstable();
        let sum = if net >= 0 {
            faces[faces.len() - 1] + faces[faces.len() - 2]
        } else {
            faces[0] + faces[1]
        };
        p[sum as usize] += 1.0 / total as f64;
    }
    p
}

/// Exact P(offence > defence) (ties to the defender): kept 2d6 with
/// `off_net` boons + `off`, against kept 2d6 with `def_net` boons + `def`.
fn p_hit(off_net: i32, off: i32, def_net: i32, def: i32) -> f64 {
    let (x, y) = (kept_2d6(off_net), kept_2d6(def_net));
    let mut p = 0.0;
    for (a, pa) in x.iter().enumerate() {
        for (b, pb) in y.iter().enumerate() {
            if a as i32 + off > b as i32 + def {
                p += pa * pb;
            }
        }
    }
    p
}

/// Exact P(2d6 + `bonus` > `load`): an Incapacity Roll holds.
fn p_holds(bonus: i32, load: i32) -> f64 {
    let d = kept_2d6(0);
    d.iter()
        .enumerate()
        .filter(|&(s, _)| s as i32 + bonus > load)
        .map(|(_, p)| p)
        .sum()
}

#[test]
fn a_unit_in_cover_struck_from_next_to_it_or_from_beyond_falls_at_the_exact_rate() {
    // "Cover" (only from beyond the source) with "Finisher" and "Exhausted"
    // over four rounds. Red's attacker (art 0, Finisher, Load 1 a hit)
    // against blue's paralyzed defender in half cover (Fatigue Tolerance 0,
    // Resilience −4: it defends with 2d6 − 4 and must roll 2d6 − 4 above its
    // Load after every Finisher once Exhausted). Blue does nothing, so each
    // round is one attack: a hit (probability p) adds 1 Load; then, if the
    // Load exceeds 0, the defender falls unless 2d6 − 4 > Load; falling at
    // Load 1 it revives at once ("Incapacitated": Load −1 on falling; Load 0
    // ends it). Red wins when it stays down; after four rounds, a draw. Adjacent, p has no bane (the
    // bug gave it one: 3d6 keep the lowest two); three squares off, it has.
    let n = 40_000;
    for (distance, banes, seed) in [(0, 0, 41), (3, -1, 42)] {
        let p = p_hit(banes, 0, 0, -4);
        // Markov chain over the defender's Load while it stands.
        let mut standing = [0.0f64; 6];
        standing[0] = 1.0;
        let mut fallen = 0.0;
        for _ in 0..4 {
            let mut next = [0.0f64; 6];
            for (load, &here) in standing.iter().enumerate().take(5) {
                for (hit, ph) in [(1, p), (0, 1.0 - p)] {
                    let l = load + hit;
                    let mass = here * ph;
                    if l == 0 {
                        next[l] += mass;
                        continue;
                    }
                    // Falling takes 1 Load off at once: from Load 1 it
                    // revives on the spot (Load 0 ends the incapacity).
                    let q = p_holds(-4, l as i32);
                    next[l] += mass * q;
                    if l == 1 {
                        next[0] += mass * (1.0 - q);
                    } else {
                        fallen += mass * (1.0 - q);
                    }
                }
            }
            standing = next;
        }
        let enc = encounter::<Thrum>(&format!(
            r#"
name = "t"
rules = "thrum"
max_rounds = 4
[weapons.w]
range = 5
finisher = true
[units.a]
fatigue_tolerance = 3
stress_tolerance = 3
weapons = ["w"]
[units.b]
fatigue_tolerance = 0
stress_tolerance = 3
resilience = -4
weapons = ["w"]
[sides.red]
a = {{}}
[sides.blue]
b = {{ cover = "half", distance = {distance}, conditions = ["paralyzed"] }}
"#
        ));
        let got = fight_rate(&enc, n, seed, |_, o| o.winner == Some(0));
        assert_within_four_se(&format!("distance {distance}"), got, fallen, n);
    }
}

#[test]
fn a_team_with_a_member_down_races_at_the_exact_rate_under_alternating_activation() {
    // "Incapacitated" / team-alternating activation: red's `dozer`
    // (unconscious, far off, initiative 20) cannot act and must not take
    // red's activation from `striker` (initiative 0). Each round: striker
    // attacks blue's `guard` (hit p1), then guard, if standing, attacks
    // striker (hit p2). Both defend with Evasion, always with its Boon
    // (the Vulnerable stack of the last evasion ticks away at the end of the
    // evader's own turn, before the next attack). A hit fells either (Load
    // 3 > Tolerance 0, the Finisher's Incapacity Roll at Resilience −10 never exceeds 3);
    // striker, carrying two Wounds, is removed at its next turn, and red
    // cannot win. Red wins within four rounds with probability
    // p1 · (1 + q + q² + q³), q = (1 − p1)(1 − p2). If dozer took red's
    // activations, guard would strike first every round:
    // (1 − p2) · p1 · (1 + q + q² + q³).
    let p1 = p_hit(0, 2, 1, 0);
    let p2 = p_hit(0, 1, 1, 0);
    let q = (1.0 - p1) * (1.0 - p2);
    let exact = p1 * (1.0 + q + q * q + q * q * q);
    let enc = encounter::<Thrum>(
        r#"
name = "t"
rules = "thrum"
max_rounds = 4
[options]
initiative = "alternating"
[weapons.blade]
finisher = true
load = 3
[units.striker]
fatigue_tolerance = 0
stress_tolerance = 3
resilience = -10
defence = "evasion"
art = 2
wounds = 2
weapons = ["blade"]
[units.dozer]
fatigue_tolerance = 3
stress_tolerance = 3
initiative = 20
weapons = ["blade"]
[units.guard]
fatigue_tolerance = 0
stress_tolerance = 3
resilience = -10
defence = "evasion"
art = 1
weapons = ["blade"]
[sides.red]
striker = {}
dozer = { distance = 20, conditions = ["unconscious"] }
[sides.blue]
guard = { tactic = "hold" }
"#,
    );
    let n = 40_000;
    let got = fight_rate(&enc, n, 43, |_, o| o.winner == Some(0));
    assert_within_four_se("red wins", got, exact, n);
}

#[test]
fn striking_a_fallen_enemy_wounds_it_out_at_the_exact_rate() {
    // "Incapacitated" and "Wounds" with an incapacitated enemy as a target:
    // blue's unit fell at Fatigue Tolerance 2, Load 3 (on falling: 1 and
    // 2). Each round red's holding striker, with no standing enemy in reach,
    // hits it with probability p (2d6 + 0 v 2d6 + 0; a hit adds 1 Load);
    // then its turn: Tolerance and Load −1; Load 0 revives it; otherwise at
    // Tolerance 0 a Wound, the third removes it. Hits H1, H2, H3 ∈ {0, 1}:
    // Load after each of its turns is 1 + H1, then H1 + H2, then
    // H1 + H2 + H3 − 1, so it is removed at the end of round 3 (before
    // reviving) iff H1 + H2 ≥ 1 and H1 + H2 + H3 ≥ 2, i.e. iff at least two
    // of the three hit: 3p²(1 − p) + p³. Left alone it revives in round 2.
    let p = p_hit(0, 0, 0, 0);
    let exact = 3.0 * p * p * (1.0 - p) + p * p * p;
    let enc = duel_entries("", "", "", "tactic = \"hold\"", "", "count = 2");
    let n = 40_000;
    let mut f = fight(&enc);
    let got = rate(n, 44, |dice| {
        f.reset(&enc);
        f.units[2].position = 20;
        as_turn(&enc, &mut f, dice, 1, |t| {
            let s = &mut t.unit_mut(1).state;
            (s.fatigue_tolerance, s.fatigue_load) = (2, 3);
            incapacitate(t, 1);
        });
        for _ in 0..3 {
            as_turn(&enc, &mut f, dice, 0, Thrum::take_turn);
            as_turn(&enc, &mut f, dice, 1, Thrum::take_turn);
            if !f.units[1].state.incapacitated {
                return f.units[1].state.removed;
            }
        }
        false
    });
    assert_within_four_se("removed", got, exact, n);
}

// ---------------------------------------------------------------------
// The numbers of the text as options (issue 27): each test sets one to a
// value other than the text's and checks that the rule it names moves the
// way the text implies. Defaults are pinned by the tests above.
// ---------------------------------------------------------------------

#[test]
fn actions_gives_further_actions_where_the_unit_stands() {
    // "Turn": "Move up to their Speed", "Take an Action"; "Once a
    // character stops moving to take an action, they cannot continue moving
    // afterwards". `actions = 2`: a second Action, from where it stands.
    let one = plain("", "");
    let mut f = fight(&one);
    play(&one, &mut f, 0, &rolls(&[&d(6, 6), &d(1, 1)]));
    assert_eq!(f.counters[counter::ATTACKS], 1, "the text: one Action");
    let two = duel("actions = 2", "", "", "", "");
    let mut f = fight(&two);
    play(
        &two,
        &mut f,
        0,
        &rolls(&[&d(6, 6), &d(1, 1), &d(6, 6), &d(1, 1)]),
    );
    assert_eq!(f.counters[counter::ATTACKS], 2);
    assert_eq!(f.units[1].state.fatigue_load, 2);
    // Three squares off: it moves next to the target, then both Actions.
    let two_far = duel("actions = 2", "", "", "", "distance = 3");
    let mut f = fight(&two_far);
    play(
        &two_far,
        &mut f,
        0,
        &rolls(&[&d(6, 6), &d(1, 1), &d(6, 6), &d(1, 1)]),
    );
    assert_eq!((f.units[0].position, f.counters[counter::ATTACKS]), (2, 2));
    // No movement after an Action: with nothing in reach where it stands,
    // the second Action is not taken. Unit 2 is far off; unit 1 falls to
    // the first attack (Load 3 over Tolerance 0, a Finisher at Resilience
    // −10), and `a` does not strike fallen enemies.
    let enc = duel(
        "actions = 2",
        "finisher = true\nload = 3",
        "strike_downed = false",
        "resilience = -10",
        "count = 2",
    );
    let mut f = fight(&enc);
    f.units[1].state.fatigue_tolerance = 0;
    f.units[2].position = 10;
    f.units[0].position = 0;
    play(
        &enc,
        &mut f,
        0,
        &rolls(&[&[(2, 1)], &d(6, 6), &d(1, 1), &d(1, 1)]),
    );
    assert!(f.units[1].state.incapacitated);
    assert_eq!(f.counters[counter::ATTACKS], 1, "unit 2 is out of reach");
    assert_eq!(f.units[0].position, 0);
    // "Exhausted": an Incapacity Roll after each Action; falling ends the
    // turn's Actions.
    let mut f = fight(&two);
    f.units[0].state.fatigue_load = 4;
    play(
        &two,
        &mut f,
        0,
        &rolls(&[
            &d(6, 6),
            &[(6, 6)],
            &d(1, 1),
            &d(6, 6),
            &d(6, 6),
            &[(6, 6)],
            &d(1, 1),
            &d(6, 6),
        ]),
    );
    assert_eq!(
        (
            f.counters[counter::ATTACKS],
            f.counters[counter::INCAPACITY_ROLLS]
        ),
        (2, 2)
    );
    let mut f = fight(&two);
    f.units[0].state.fatigue_load = 4;
    play(
        &two,
        &mut f,
        0,
        &rolls(&[&d(6, 6), &[(6, 6)], &d(1, 1), &d(1, 1)]),
    );
    assert!(f.units[0].state.incapacitated);
    assert_eq!(f.counters[counter::ATTACKS], 1, "fell after the first");
}

#[test]
fn ranged_bane_sets_the_banes_per_adjacent_enemy() {
    // "Ranged": "+1 Bane on the roll for each enemy adjacent to the ability
    // user". Two banes each: one adjacent enemy, four dice, keep the lowest
    // two; none: two dice.
    let bow = "range = 10\nranged = true";
    let enc = duel("ranged_bane = 2", bow, "", "", "");
    let (r, _) = swing(&enc, &rolls(&[&d(6, 6), &d(5, 2), &d(1, 1)]));
    assert_eq!(r.offence, 7);
    let enc = duel("ranged_bane = 0", bow, "", "", "");
    let (r, _) = swing(&enc, &rolls(&[&d(6, 6), &d(1, 1)]));
    assert_eq!(r.offence, 12);
}

#[test]
fn cover_bane_sets_the_banes_of_cover() {
    // "Cover": "An attacker targeting a character with Cover rolls their
    // attack at +1 Bane". From beyond the source (3 squares off).
    let far = "cover = \"half\", distance = 3";
    let enc = duel("cover_bane = 2", "range = 5", "", "", far);
    let (r, _) = swing(&enc, &rolls(&[&d(6, 6), &d(5, 3), &d(1, 1)]));
    assert_eq!(r.offence, 8, "four dice, the lowest two");
    let enc = duel("cover_bane = 0", "range = 5", "", "", far);
    let (r, _) = swing(&enc, &rolls(&[&d(6, 6), &d(1, 1)]));
    assert_eq!(r.offence, 12, "no bane");
    // Still only against physical attacks.
    let enc = duel(
        "cover_bane = 3",
        "range = 5\nkind = \"mental\"",
        "",
        "",
        far,
    );
    let (r, _) = swing(&enc, &rolls(&[&d(6, 6), &d(1, 1)]));
    assert_eq!(r.offence, 12);
}

#[test]
fn evasion_boons_sets_the_boons_of_a_fresh_evader() {
    // "Defensive rolls": Evasion "gain[s] an automatic +1 Boon on the roll
    // if they are not Vulnerable". Two: four dice, the best two.
    let evader = "defence = \"evasion\"";
    let enc = duel("evasion_boons = 2", "", "", evader, "");
    let (r, _) = swing(&enc, &rolls(&[&d(3, 4), &d(1, 2), &d(6, 5)]));
    assert_eq!(r.defence, 11);
    let enc = duel("evasion_boons = 0", "", "", evader, "");
    let (r, _) = swing(&enc, &rolls(&[&d(3, 4), &d(1, 2)]));
    assert_eq!((r.defence, r.hit), (3, true));
}

#[test]
fn evasion_vulnerable_stacks_are_options() {
    // "Defensive rolls": Evasion "Success: Avoid the effect but take +1
    // Vulnerable"; "Failure: Take the effect and take +1 Vulnerable".
    let evader = "defence = \"evasion\"";
    let opts = "evasion_success_vulnerable = 2\nevasion_failure_vulnerable = 3";
    let enc = duel(opts, "", "", evader, "");
    // Success by less than the critical margin (7 v 2, 1, 6 keep 6 + 2 = 8).
    let (r, f) = swing(&enc, &rolls(&[&d(3, 4), &d(2, 1), &[(6, 6)]]));
    assert!(!r.hit && !r.crit);
    assert_eq!(f.units[1].state.vulnerable, 2);
    assert_eq!(f.counters[counter::VULNERABLE], 2);
    // Failure.
    let (r, f) = swing(&enc, &rolls(&[&d(6, 6), &d(2, 1), &[(6, 3)]]));
    assert!(r.hit);
    assert_eq!(f.units[1].state.vulnerable, 3);
    assert_eq!(f.counters[counter::VULNERABLE], 3);
    // A critical still gives none.
    let (r, f) = swing(&enc, &rolls(&[&d(3, 4), &d(5, 6), &[(6, 6)]]));
    assert!(r.crit);
    assert_eq!(f.units[1].state.vulnerable, 0);
    // None: an evader keeps its Boon.
    let enc = duel("evasion_success_vulnerable = 0", "", "", evader, "");
    let mut f = fight(&enc);
    swing_on(&enc, &mut f, &rolls(&[&d(3, 4), &d(2, 1), &[(6, 6)]]));
    assert_eq!(f.units[1].state.vulnerable, 0);
    let r = swing_on(&enc, &mut f, &rolls(&[&d(3, 4), &d(2, 1), &[(6, 6)]]));
    assert_eq!(r.defence, 8, "three dice again: still not Vulnerable");
}

#[test]
fn loads_can_start_above_zero() {
    // "Fatigue and Stress": "These load scores start out at 0". Starting
    // at 4, over Tolerance 3: the attacker is Exhausted (a bane on its
    // offence), the defender Frayed (a bane on its defence), from the
    // first roll.
    let enc = duel("start_fatigue_load = 4", "", "", "", "");
    let f = fight(&enc);
    assert_eq!(f.units[0].state.fatigue_load, 4);
    let (r, _) = swing(&enc, &rolls(&[&d(6, 6), &[(6, 1)], &d(1, 1)]));
    assert_eq!(r.offence, 7);
    let enc = duel("start_stress_load = 4", "", "", "", "");
    let f = fight(&enc);
    assert_eq!(f.units[1].state.stress_load, 4);
    let (r, _) = swing(&enc, &rolls(&[&d(1, 1), &d(6, 6), &[(6, 2)]]));
    assert_eq!(r.defence, 8);
}

#[test]
fn frayed_bane_sets_the_banes_on_a_frayed_defence() {
    // "Frayed and Panic Roll": "Frayed characters have +1 Bane on all
    // defensive rolls". Two: four dice, the lowest two.
    let enc = duel("frayed_bane = 2", "", "", "", "");
    let mut f = fight(&enc);
    f.units[1].state.stress_load = 4;
    let r = swing_on(&enc, &mut f, &rolls(&[&d(1, 1), &d(6, 5), &d(4, 6)]));
    assert_eq!(r.defence, 9);
    let enc = duel("frayed_bane = 0", "", "", "", "");
    let mut f = fight(&enc);
    f.units[1].state.stress_load = 4;
    let r = swing_on(&enc, &mut f, &rolls(&[&d(1, 1), &d(6, 5)]));
    assert_eq!(r.defence, 11);
}

#[test]
fn panic_ties_can_hold() {
    // "Frayed and Panic Roll": "The total must exceed (not tie) the
    // character's Stress Load". With `panic_ties = "pass"`, 2 + 2 + 1 = 5
    // against Load 5 holds (it panics by default:
    // `panic_roll_must_exceed_stress_load`); 4 still fails.
    let enc = duel("panic_ties = \"pass\"", "", "", "resolve = 1", "");
    let mut f = fight(&enc);
    f.units[1].state.stress_load = 5;
    let mut dice = ScriptedDice::new(&d(2, 2));
    assert!(!as_turn(&enc, &mut f, &mut dice, 1, |t| panic_roll(t, 1)));
    assert_eq!(f.units[1].state.stress_load, 5);
    let mut dice = ScriptedDice::new(&d(2, 1));
    assert!(as_turn(&enc, &mut f, &mut dice, 1, |t| panic_roll(t, 1)));
}

#[test]
fn panic_stun_and_tolerance_loss_are_options() {
    // "Frayed and Panic Roll": a failed Panic Roll: "They are Stunned" (for
    // that turn by default) and "Their Stress Tolerance decreases by 1".
    let enc = duel(
        "panic_stun = 2\npanic_tolerance_loss = 2",
        "",
        "",
        "",
        "distance = 6",
    );
    let mut f = fight(&enc);
    f.units[1].state.stress_load = 4;
    play(&enc, &mut f, 1, &d(1, 1));
    let s = f.units[1].state;
    assert_eq!(
        (s.stress_tolerance, s.stunned),
        (1, 1),
        "3 − 2; one turn left"
    );
    assert_eq!(f.units[1].position, 2);
    // Its next turn: still Stunned, it moves next to the enemy and does not
    // attack.
    play(&enc, &mut f, 1, &[]);
    assert_eq!((f.units[1].position, f.counters[counter::ATTACKS]), (1, 0));
    assert_eq!(f.units[1].state.stunned, 0);
    // The text's reading: Stunned for that turn only, Tolerance −1; the
    // next turn it moves and attacks (Exhausted by the panic's Fatigue: a
    // bane, then an Incapacity Roll).
    let enc = duel("", "", "", "", "distance = 6");
    let mut f = fight(&enc);
    f.units[1].state.stress_load = 4;
    play(&enc, &mut f, 1, &d(1, 1));
    assert_eq!(f.units[1].state.stress_tolerance, 2);
    assert_eq!(f.units[1].state.stunned, 0);
    play(
        &enc,
        &mut f,
        1,
        &rolls(&[&d(6, 6), &[(6, 6)], &d(1, 1), &d(6, 6)]),
    );
    assert_eq!(f.counters[counter::ATTACKS], 1);
}

#[test]
fn exhausted_bane_sets_the_banes_on_an_exhausted_offence() {
    // "Exhausted and Incapacity Roll": "Exhausted characters have +1 Bane
    // on all offensive rolls". Two: four dice, the lowest two.
    let enc = duel("exhausted_bane = 2", "", "", "", "");
    let mut f = fight(&enc);
    f.units[0].state.fatigue_load = 4;
    let r = swing_on(&enc, &mut f, &rolls(&[&d(6, 5), &d(6, 4), &d(1, 1)]));
    assert_eq!(r.offence, 9);
    let enc = duel("exhausted_bane = 0", "", "", "", "");
    let mut f = fight(&enc);
    f.units[0].state.fatigue_load = 4;
    let r = swing_on(&enc, &mut f, &rolls(&[&d(6, 5), &d(1, 1)]));
    assert_eq!(r.offence, 11);
}

#[test]
fn incapacity_ties_can_hold() {
    // "Exhausted and Incapacity Roll": "The total must exceed (not tie) the
    // character's Fatigue Load, or else they are Incapacitated". 2 + 2 + 1
    // ties Load 5: down by default
    // (`exhausted_units_roll_for_incapacity_after_acting_exceed_not_tie`),
    // standing with `incapacity_ties = "pass"`.
    let enc = duel("incapacity_ties = \"pass\"", "", "", "resilience = 1", "");
    let mut f = fight(&enc);
    f.units[1].state.fatigue_load = 5;
    let mut dice = ScriptedDice::new(&d(2, 2));
    assert!(!as_turn(&enc, &mut f, &mut dice, 1, |t| incapacity_roll(
        t, 1
    )));
    let mut dice = ScriptedDice::new(&d(2, 1));
    assert!(as_turn(&enc, &mut f, &mut dice, 1, |t| incapacity_roll(
        t, 1
    )));
}

/// [`downed`] under options `opts`.
fn downed_with(opts: &str, tol: i32, load: i32) -> (Encounter<Thrum>, Fight<Thrum>) {
    let enc = duel(opts, "finisher = true", "", "", "");
    let mut f = fight(&enc);
    f.units[1].state.fatigue_tolerance = tol;
    f.units[1].state.fatigue_load = load;
    swing_on(&enc, &mut f, &rolls(&[&d(6, 6), &d(1, 1), &d(1, 1)]));
    assert!(f.units[1].state.incapacitated);
    (enc, f)
}

#[test]
fn incapacity_losses_are_options() {
    // "Incapacitated": "Upon becoming Incapacitated, and at the end of each
    // of their turns while Incapacitated, the character's Fatigue Tolerance
    // and Fatigue Load are both decreased by 1." Tolerance 5, Load 5 + 1.
    let state = |f: &Fight<Thrum>| {
        let s = f.units[1].state;
        (s.fatigue_tolerance, s.fatigue_load)
    };
    let (_, f) = downed_with("", 5, 5);
    assert_eq!(state(&f), (4, 5), "the text: 1 and 1");
    let (enc, mut f) = downed_with("incapacity_tolerance_loss = 2", 5, 5);
    assert_eq!(state(&f), (3, 5));
    play(&enc, &mut f, 1, &[]);
    assert_eq!(state(&f), (1, 4));
    // Load 2 a time: it revives sooner (Load 6 → 4 → 2 → 0).
    let (enc, mut f) = downed_with("incapacity_load_loss = 2", 5, 5);
    assert_eq!(state(&f), (4, 4));
    play(&enc, &mut f, 1, &[]);
    assert!(f.units[1].state.incapacitated);
    play(&enc, &mut f, 1, &[]);
    assert!(!f.units[1].state.incapacitated, "Load 0 after two turns");
    assert_eq!(f.counters[counter::SELF_REVIVALS], 1);
    // None: it never revives by itself.
    let (enc, mut f) = downed_with("incapacity_load_loss = 0", 5, 5);
    for _ in 0..3 {
        play(&enc, &mut f, 1, &[]);
    }
    assert!(f.units[1].state.incapacitated);
    assert_eq!(state(&f), (1, 6));
}

#[test]
fn resuscitate_reach_sets_how_far_resuscitate_reaches() {
    // "Incapacitated": incapacity ends when "another character targets them
    // with the Resuscitate action" (the game's ability: range 1). With
    // reach 3 an ally 7 squares off (Speed 4 + 3) is reached, from 3 away;
    // with the default it is not (4 + 1 < 7).
    let scenario = |opts: &str| {
        encounter::<Thrum>(&format!(
            r#"
name = "t"
rules = "thrum"
[options]
{opts}
[weapons.w]
[units.a]
fatigue_tolerance = 3
stress_tolerance = 3
weapons = ["w"]
[sides.red]
a = {{ count = 2 }}
[sides.blue]
a = {{ distance = 20 }}
"#
        ))
    };
    let down = |enc: &Encounter<Thrum>, f: &mut Fight<Thrum>| {
        f.units[1].position = -7;
        as_turn(enc, f, &mut ScriptedDice::new(&[]), 1, |t| {
            t.unit_mut(1).state.fatigue_load = 4;
            incapacitate(t, 1);
        });
    };
    let enc = scenario("resuscitate_reach = 3");
    let mut f = fight(&enc);
    down(&enc, &mut f);
    play(&enc, &mut f, 0, &[]);
    assert_eq!(f.counters[counter::RESUSCITATIONS], 1);
    assert_eq!(f.units[0].position, -4, "moved to 3 squares off");
    assert!(!f.units[1].state.incapacitated);
    let enc = scenario("");
    let mut f = fight(&enc);
    down(&enc, &mut f);
    play(&enc, &mut f, 0, &[]);
    assert_eq!(f.counters[counter::RESUSCITATIONS], 0);
    assert!(f.units[1].state.incapacitated);
}

#[test]
fn wound_tolerance_and_wounds_removed_are_options() {
    // "Wounds": "If a character ends a turn Incapacitated while their
    // Fatigue Tolerance is zero, they take a Wound. Upon accumulating three
    // Wounds, they are removed from combat."
    // Tolerance 3, Load 5 + 1: on falling 2 and 5; its turn: 1 and 4.
    let (enc, mut f) = downed_with("", 3, 5);
    play(&enc, &mut f, 1, &[]);
    assert_eq!(f.units[1].state.wounds, 0, "the text: at zero only");
    let (enc, mut f) = downed_with("wound_tolerance = 1", 3, 5);
    play(&enc, &mut f, 1, &[]);
    assert_eq!(f.units[1].state.wounds, 1, "at 1 or below");
    // Two Wounds remove it (three by default: `tolerance_decays_and_wounds_remove`).
    let (enc, mut f) = downed_with("wounds_removed = 2", 1, 5);
    play(&enc, &mut f, 1, &[]);
    assert!(!f.units[1].state.removed);
    play(&enc, &mut f, 1, &[]);
    assert!(f.units[1].state.removed && f.units[1].out);
    // Five: a unit carrying three is not removed by them, nor by a fourth.
    let enc = duel(
        "wounds_removed = 5",
        "finisher = true",
        "",
        "wounds = 3",
        "",
    );
    let mut f = fight(&enc);
    assert!(!f.units[1].out);
    f.units[1].state.fatigue_tolerance = 1;
    f.units[1].state.fatigue_load = 5;
    swing_on(&enc, &mut f, &rolls(&[&d(6, 6), &d(1, 1), &d(1, 1)]));
    play(&enc, &mut f, 1, &[]);
    assert_eq!(f.units[1].state.wounds, 4);
    assert!(!f.units[1].state.removed);
    // A unit carrying as many Wounds as remove one starts removed.
    let enc = duel("wounds_removed = 2", "", "", "wounds = 2", "");
    let f = fight(&enc);
    assert!(f.units[1].out && f.units[1].state.removed);
    assert!(!f.units[1].takes_turns());
    let enc = plain("", "wounds = 2");
    assert!(!fight(&enc).units[1].out, "two of the text's three");
}

#[test]
fn an_option_out_of_its_range_is_refused_naming_it() {
    // Banes are counted, not negative; Wounds remove at one or more.
    for (opts, range) in [
        ("cover_bane = 4", "from 0 to 3"),
        ("wounds_removed = 0", "from 1 to 10"),
        ("actions = 0", "from 1 to 4"),
    ] {
        let text = format!(
            "name = \"t\"\nrules = \"thrum\"\n[options]\n{opts}\n[weapons.w]\n[units.u]\nfatigue_tolerance = 3\nstress_tolerance = 3\nweapons = [\"w\"]\n[sides.a]\nu = {{}}\n[sides.b]\nu = {{}}\n"
        );
        let err = crate::scenario::compile::compile_str::<Thrum>(&text)
            .err()
            .expect("refused")
            .to_string();
        let name = opts.split(' ').next().unwrap();
        assert!(err.contains(name) && err.contains(range), "{err}");
    }
}

mod on_map {
    //! `thrum` on a map (issue 29, part 3), pinned with scripted dice on
    //! small maps written here: distance, the Ranged tag's adjacency, exact
    //! cover and obstruction, sight, movement costs, areas. One square is
    //! one square (`Thrum::MAP_SCALE`). Each test names the text's section.

    use super::*;
    use crate::engine::ground::unpack;
    use crate::map::{Shape, Square};

    /// Red's groups against blue's on `grid` (`legend`: a `[map.legend]`
    /// body); `[weapons.w]` is `ability`, `[weapons.v]` is `other`; units
    /// `a` (weapon w) and `b`, `c` (weapon v); `red`, `blue`: the sides'
    /// bodies (e.g. `a = { at = "A" }`).
    fn on_map(
        grid: &str,
        legend: &str,
        ability: &str,
        other: &str,
        red: &str,
        blue: &str,
    ) -> Encounter<Thrum> {
        encounter(&format!(
            r#"
name = "t"
rules = "thrum"
[map]
grid = """
{grid}
"""
[map.legend]
{legend}
[weapons.w]
{ability}
[weapons.v]
{other}
[units.a]
fatigue_tolerance = 3
stress_tolerance = 3
weapons = ["w"]
[units.b]
fatigue_tolerance = 3
stress_tolerance = 3
weapons = ["v"]
[units.c]
fatigue_tolerance = 3
stress_tolerance = 3
weapons = ["v"]
[sides.red]
{red}
[sides.blue]
{blue}
"#
        ))
    }

    /// Unit `a` at A against unit `b` at B.
    fn pair(grid: &str, ability: &str) -> Encounter<Thrum> {
        on_map(
            grid,
            "",
            ability,
            "",
            "a = { at = \"A\" }",
            "b = { at = \"B\" }",
        )
    }

    fn square(f: &Fight<Thrum>, i: usize) -> Square {
        unpack(f.units[i].position)
    }

    #[test]
    fn on_a_map_distance_is_the_longer_of_columns_and_rows() {
        // "Grid and distance": "the longer of the two of the horizontal
        // distance between their respective columns and the vertical
        // distance"; "A target is valid for an ability with Range X if the
        // distance between them is X or less".
        let grid = "A....\n.....\n...B.";
        let enc = pair(grid, "range = 3");
        let f = fight(&enc);
        let dist = as_turn(&enc, &mut f.clone(), &mut ScriptedDice::new(&[]), 0, |t| {
            t.enemy_distance(1)
        });
        assert_eq!(dist, 3);
        // In range 3: a holding unit attacks (two dice each side, no banes).
        let enc = on_map(
            grid,
            "",
            "range = 3",
            "",
            "a = { at = \"A\", tactic = \"hold\" }",
            "b = { at = \"B\" }",
        );
        let mut f = fight(&enc);
        play(&enc, &mut f, 0, &rolls(&[&d(6, 6), &d(1, 1)]));
        assert_eq!(f.counters[counter::ATTACKS], 1);
        // Range 2: out of reach, nothing rolled.
        let enc = on_map(
            grid,
            "",
            "range = 2",
            "",
            "a = { at = \"A\", tactic = \"hold\" }",
            "b = { at = \"B\" }",
        );
        let mut f = fight(&enc);
        play(&enc, &mut f, 0, &[]);
        assert_eq!(f.counters[counter::ATTACKS], 0);
    }

    #[test]
    fn on_a_map_a_ranged_ability_takes_a_bane_per_enemy_on_the_eight_squares_around() {
        // "Ranged": "+1 Bane on the roll for each enemy adjacent to the
        // ability user"; "Grid and distance": adjacent = orthogonally or
        // diagonally. b diagonal to a, c two squares off: one bane (three
        // dice, the lowest two kept).
        let grid = "A.C\n.B.";
        let enc = on_map(
            grid,
            "",
            "range = 5\nranged = true",
            "",
            "a = { at = \"A\" }",
            "b = { at = \"B\" }\nc = { at = \"C\" }",
        );
        let (r, _) = swing(&enc, &rolls(&[&d(6, 6), &[(6, 2)], &d(1, 1)]));
        assert_eq!(r.offence, 8);
        // c moved next to a too (below it): two banes.
        let mut f = fight(&enc);
        f.units[2].position = crate::engine::ground::pack(Square::new(0, 1));
        let r = swing_on(&enc, &mut f, &rolls(&[&d(6, 6), &d(2, 5), &d(1, 1)]));
        assert_eq!(r.offence, 7);
    }

    #[test]
    fn on_a_map_terrain_two_levels_up_next_to_the_target_gives_cover_from_beyond_and_below() {
        // "Cover": adjacent to terrain "+2 or more levels of elevation
        // higher than their space", against Physical Attacks "from spaces on
        // the opposite side of and at a lower elevation level than the
        // source of cover"; "+1 Bane". The source: the `2` left of B.
        let bane = rolls(&[&d(6, 6), &[(6, 3)], &d(1, 1)]);
        let none = rolls(&[&d(6, 6), &d(1, 1)]);
        let enc = pair(".....\nA.2B.\n.....", "range = 5");
        assert_eq!(swing(&enc, &bane).0.offence, 9, "beyond the source: a bane");
        // Not beyond the line through the source: no cover.
        let enc = pair("..2B.\n.....\n...A.", "range = 5");
        assert_eq!(swing(&enc, &none).0.offence, 12, "beside the target");
        // The attacker as high as the source: no cover.
        let enc = on_map(
            "2.2B.",
            "",
            "range = 5",
            "",
            "a = { at = [[1, 1]] }",
            "b = { at = \"B\" }",
        );
        assert_eq!(swing(&enc, &none).0.offence, 12, "as high as the source");
        // One level up is not a source.
        let enc = pair("A.1B.", "range = 5");
        assert_eq!(swing(&enc, &none).0.offence, 12, "one level is not cover");
        // Mental attacks ignore cover.
        let enc = pair(".....\nA.2B.\n.....", "range = 5\nkind = \"mental\"");
        assert_eq!(swing(&enc, &none).0.offence, 12, "mental");
    }

    #[test]
    fn on_a_map_a_character_next_to_the_target_gives_cover() {
        // "Cover": adjacent to a space occupied "by another character"; a
        // character stands 2 levels above its square (as tall as the terrain
        // that gives cover, `map::thrum_cover`), so on flat ground an attacker
        // beyond it is lower. c, b's ally, stands between a and b.
        let enc = on_map(
            "A..CB",
            "",
            "range = 5",
            "",
            "a = { at = \"A\" }",
            "b = { at = \"B\" }\nc = { at = \"C\" }",
        );
        let (r, _) = swing(&enc, &rolls(&[&d(6, 6), &[(6, 3)], &d(1, 1)]));
        assert_eq!(r.offence, 9);
        // On a map `character_cover` would be ignored: refused.
        let err = crate::scenario::compile::compile_str::<Thrum>(
            "name = \"t\"\nrules = \"thrum\"\n[options]\ncharacter_cover = true\n[map]\ngrid = \"A.B\"\n[weapons.w]\n[units.u]\nfatigue_tolerance = 3\nstress_tolerance = 3\nweapons = [\"w\"]\n[sides.a]\nu = { at = \"A\" }\n[sides.b]\nu = { at = \"B\" }\n"
        )
        .err()
        .expect("refused")
        .to_string();
        assert!(
            err.contains("character_cover") && err.contains("on a map"),
            "{err}"
        );
    }

    #[test]
    fn on_a_map_an_obstructed_target_cannot_be_targeted() {
        // "Cover": "If the two squares adjacent to the one providing cover
        // along the dividing line also qualify ... the path between the
        // attacker and target is Obstructed and that space or a character in
        // it cannot be targeted by that attack." Three `2`s in a column.
        let grid = "..2..\nA.2B.\n..2..";
        let hold = "a = { at = \"A\", tactic = \"hold\" }";
        let enc = on_map(grid, "", "range = 5", "", hold, "b = { at = \"B\" }");
        let mut f = fight(&enc);
        play(&enc, &mut f, 0, &[]);
        assert_eq!(f.counters[counter::ATTACKS], 0, "obstructed");
        // A mental attack is not stopped (`obstruction = "physical"`), and
        // takes no cover bane.
        let enc = on_map(
            grid,
            "",
            "range = 5\nkind = \"mental\"",
            "",
            hold,
            "b = { at = \"B\" }",
        );
        let mut f = fight(&enc);
        play(&enc, &mut f, 0, &rolls(&[&d(6, 6), &d(1, 1)]));
        assert_eq!(f.counters[counter::ATTACKS], 1, "mental");
    }

    #[test]
    fn on_a_map_a_wall_blocks_an_attack() {
        // No sight rule in the text; a drawn wall stops what is aimed
        // through it (the map's symmetric line of sight).
        let hold = "a = { at = \"A\", tactic = \"hold\" }";
        let enc = on_map("A.#.B", "", "range = 5", "", hold, "b = { at = \"B\" }");
        let mut f = fight(&enc);
        play(&enc, &mut f, 0, &[]);
        assert_eq!(f.counters[counter::ATTACKS], 0);
    }

    #[test]
    fn on_a_map_leaving_difficult_terrain_costs_one_more() {
        // "Difficult Terrain": "Exiting a space designated as Difficult Terrain costs
        // +1 square of movement." Speed 4 on a row: open, 4 squares; through
        // one difficult square, 3 (1 into it, 2 out of it, 1 more).
        let far = |grid: &str| {
            let enc = pair(grid, "");
            let mut f = fight(&enc);
            play(&enc, &mut f, 0, &[]);
            square(&f, 0).x
        };
        assert_eq!(far("A.........B"), 4);
        assert_eq!(far("A~........B"), 3);
        // Entering it costs nothing extra: the square before the move is
        // left at 1.
        assert_eq!(far("A.~.......B"), 3);
    }

    #[test]
    fn on_a_map_units_pass_through_allies() {
        // "Movement": "Characters can move through the space of allies as if
        // the square were open but cannot stop there". c, a's ally, stands in
        // the one-square corridor: a walks through it, 4 squares.
        let enc = on_map(
            "AC........B",
            "",
            "",
            "",
            "a = { at = \"A\" }\nc = { at = \"C\", tactic = \"hold\" }",
            "b = { at = \"B\" }",
        );
        let mut f = fight(&enc);
        play(&enc, &mut f, 0, &[]);
        assert_eq!(square(&f, 0).x, 4);
    }

    #[test]
    fn on_a_map_each_elevation_level_beyond_the_first_in_one_step_costs_one_more() {
        // "Elevation": "Characters can ascend or descend one elevation level
        // as part of moving to an adjacent square without any additional
        // movement cost. For each increment beyond the first, it costs +1".
        let far = |grid: &str| {
            let enc = pair(grid, "");
            let mut f = fight(&enc);
            play(&enc, &mut f, 0, &[]);
            square(&f, 0).x
        };
        // Up 1, down 1: free; 4 squares.
        assert_eq!(far("A01.......B"), 4);
        // Up 3 in one step: 3; the move ends there (1 + 3 = 4).
        assert_eq!(far("A03.......B"), 2);
    }

    #[test]
    fn an_area_attacks_every_character_in_it_even_an_obstructed_one() {
        // "Areas": "Abilities that target an Area affect all characters in
        // the area"; "Cover": obstructed characters "can still be affected
        // by areas however, provided some other space in the area is not
        // obstructed". An Area 2 from range 5 on b (obstructed behind the
        // column of `2`s) and c (in cover behind b): each its own opposed
        // roll with its cover's bane.
        let grid = "..2..\nA.2BC\n..2..";
        let enc = on_map(
            grid,
            "",
            "range = 5\narea = \"area\"\nsize = 2",
            "",
            "a = { at = \"A\", tactic = \"hold\", target = \"nearest\" }",
            "b = { at = \"B\" }\nc = { at = \"C\" }",
        );
        let mut f = fight(&enc);
        let one = rolls(&[&d(6, 6), &[(6, 3)], &d(1, 1)]);
        play(&enc, &mut f, 0, &rolls(&[&one, &one]));
        assert_eq!(f.counters[counter::ATTACKS], 2);
        assert_eq!(f.counters[counter::HITS], 2);
    }

    #[test]
    fn an_area_is_aimed_where_it_catches_the_most_enemies() {
        // "Areas": "An Area X consists of a square on the grid which is X unit
        // squares on a side"; it must "have at least one space within the
        // range". The 2 × 2 with its corner at (4, 1) catches three enemies;
        // every other catches two or fewer.
        let grid = "...B..\nA...BB\n....B.";
        let blue = "b = { at = \"B\", count = 4 }";
        let enc = on_map(
            grid,
            "",
            "range = 5\narea = \"area\"\nsize = 2",
            "",
            "a = { at = \"A\" }",
            blue,
        );
        let f = fight(&enc);
        let a = enc.units[0].stats.abilities()[0];
        let g = enc.ground.expect("a map");
        let shape = as_turn(&enc, &mut f.clone(), &mut ScriptedDice::new(&[]), 0, |t| {
            map::place_area(t, g, &a)
        });
        assert_eq!(
            shape,
            Some(Shape::Area {
                corner: Square::new(4, 1),
                size: 2
            })
        );
        // Range 3: no square of that one is within range; the best within
        // range catch two, the first found the one with (3, 0).
        let enc = on_map(
            grid,
            "",
            "range = 3\narea = \"area\"\nsize = 2",
            "",
            "a = { at = \"A\" }",
            blue,
        );
        let a = enc.units[0].stats.abilities()[0];
        let shape = as_turn(
            &enc,
            &mut fight(&enc),
            &mut ScriptedDice::new(&[]),
            0,
            |t| map::place_area(t, g, &a),
        );
        assert_eq!(
            shape,
            Some(Shape::Area {
                corner: Square::new(3, 0),
                size: 2
            })
        );
    }

    #[test]
    fn a_line_covers_a_row_column_or_diagonal_and_an_aura_everything_around_but_its_user() {
        // "Areas": "A Line X consists of X consecutive squares sharing a row,
        // column, or diagonal"; "An Aura X area consists of all squares at a
        // distance X or less from the ability user other than the ability
        // user's space itself".
        let grid = "A....\n.B...\n..B..\n...B.";
        let enc = on_map(
            grid,
            "",
            "range = 1\narea = \"line\"\nsize = 3",
            "",
            "a = { at = \"A\", tactic = \"hold\", target = \"nearest\" }",
            "b = { at = \"B\", count = 3 }",
        );
        let mut f = fight(&enc);
        let one = rolls(&[&d(6, 6), &d(1, 1)]);
        let bane = rolls(&[&d(6, 6), &[(6, 3)], &d(1, 1)]);
        // The first b is adjacent: the diagonal line from it catches all three
        // (the second and third in cover behind the one before them: a bane).
        play(&enc, &mut f, 0, &rolls(&[&one, &bane, &bane]));
        assert_eq!(f.counters[counter::ATTACKS], 3);
        // An Aura 1 around a: both enemies next to it and its ally too
        // (friendly fire, "unless otherwise specified"): three attacks.
        let enc = on_map(
            "B..\n.AC\n..B",
            "",
            "area = \"aura\"\nsize = 1",
            "",
            "a = { at = \"A\", tactic = \"hold\" }\nc = { at = \"C\" }",
            "b = { at = \"B\", count = 2 }",
        );
        let mut f = fight(&enc);
        // (A d2 first: its target at random between the two b, which the
        // aura does not care about.)
        play(&enc, &mut f, 0, &rolls(&[&[(2, 1)], &one, &one, &one]));
        assert_eq!(f.counters[counter::ATTACKS], 3);
        // It reaches `size`: `range` with an aura is refused.
        let err = crate::scenario::compile::compile_str::<Thrum>(
            "name = \"t\"\nrules = \"thrum\"\n[map]\ngrid = \"A.B\"\n[weapons.w]\narea = \"aura\"\nrange = 3\n[units.u]\nfatigue_tolerance = 3\nstress_tolerance = 3\nweapons = [\"w\"]\n[sides.a]\nu = { at = \"A\" }\n[sides.b]\nu = { at = \"B\" }\n",
        )
        .err()
        .expect("refused")
        .to_string();
        assert!(err.contains("range") && err.contains("aura"), "{err}");
    }

    #[test]
    fn an_area_worth_less_than_its_friendly_fire_is_not_used() {
        // The aiming heuristic: a placement must catch more enemies than
        // allies. An Aura 1 with one enemy and one ally next to the user:
        // not used, nothing rolled.
        let enc = on_map(
            "B..\n.AC",
            "",
            "area = \"aura\"\nsize = 1",
            "",
            "a = { at = \"A\", tactic = \"hold\" }\nc = { at = \"C\" }",
            "b = { at = \"B\" }",
        );
        let mut f = fight(&enc);
        play(&enc, &mut f, 0, &[]);
        assert_eq!(f.counters[counter::ATTACKS], 0);
    }

    #[test]
    fn area_and_size_need_a_map() {
        // The front has no squares around a unit for an area to catch: a
        // setting it would ignore is refused.
        for (weapon, key) in [("area = \"area\"\nsize = 2", "area"), ("size = 2", "size")] {
            let err = crate::scenario::compile::compile_str::<Thrum>(&format!(
                "name = \"t\"\nrules = \"thrum\"\n[weapons.w]\n{weapon}\n[units.u]\nfatigue_tolerance = 3\nstress_tolerance = 3\nweapons = [\"w\"]\n[sides.a]\nu = {{}}\n[sides.b]\nu = {{}}\n"
            ))
            .err()
            .expect("refused")
            .to_string();
            assert!(err.contains(key) && err.contains("[map]"), "{err}");
        }
        // On a map, `size` without `area` is refused too.
        let err = crate::scenario::compile::compile_str::<Thrum>(
            "name = \"t\"\nrules = \"thrum\"\n[map]\ngrid = \"A.B\"\n[weapons.w]\nsize = 2\n[units.u]\nfatigue_tolerance = 3\nstress_tolerance = 3\nweapons = [\"w\"]\n[sides.a]\nu = { at = \"A\" }\n[sides.b]\nu = { at = \"B\" }\n",
        )
        .err()
        .expect("refused")
        .to_string();
        assert!(err.contains("size") && err.contains("area"), "{err}");
    }

    #[test]
    fn a_duel_adjacent_on_an_open_map_is_the_fronts_duel() {
        // Nothing geometric differs between two adjacent units on open
        // ground and on the front: the same win rate within 4 SE.
        let front = plain("", "");
        let n = 20_000;
        let p = fight_rate(&front, n, 7, |f, _| f.units[1].out);
        let on = pair("AB", "");
        let q = fight_rate(&on, n, 7, |f, _| f.units[1].out);
        assert_within_four_se("red wins on a map", q, p, n);
    }
}

/// Smart (issue 30 item 5): what a turn deals, in Tolerance left (thrum's
/// health), is its best ability's Load a hit plus its Overexert Load when
/// it always overexerts ("Overexert"), once per Action: (2 + 1) × 2 = 6.
/// A melee-only smart unit advances and targets `smart`; a smart defender
/// chooses Evasion while not Vulnerable, else Resilience ("Defensive
/// rolls"), whatever `defence` it wrote.
#[test]
fn smart_settles_a_turns_load_and_evades_unless_vulnerable() {
    let enc = duel_entries(
        "actions = 2",
        "load = 2\noverexert = 1",
        "overexert = \"always\"",
        "tactic = \"smart\"",
        "defence = \"resilience\"\nresilience = 2",
        "tactic = \"smart\"",
    );
    assert_eq!(enc.units[0].drops, 6);
    assert_eq!(enc.units[0].tactic, Tactic::Advance);
    assert_eq!(enc.units[0].targeting, crate::engine::Targeting::Smart);
    // No Overexert policy: the Load alone, per Action.
    assert_eq!(enc.units[1].drops, 4);
    assert_eq!(enc.units[1].stats.defence, Defence::EvasionUnlessVulnerable);
    // Fresh it evades, Vulnerable it resists (the attacker overexerts, a
    // Stress first, then rolls).
    evades_fresh_then_resists_when_vulnerable(&enc);
    // Without smart, the written `defence` stands.
    let plain = duel_entries("", "", "", "", "defence = \"resilience\"", "");
    assert_eq!(plain.units[1].stats.defence, Defence::Resilience);
    assert_eq!(plain.units[0].drops, 1);
}
