//! `osr` rules pinned with scripted dice, and checked statistically against
//! exact values.

use super::*;
use crate::dice::{RngDice, ScriptedDice};
use crate::engine::{Encounter, Fight, Outcome};
use crate::testkit::{as_turn, encounter, fight};

/// A scenario: `opts` go into `[options]`, `body` holds `[units.*]` and
/// `[sides.*]`. Weapons: `sword` (melee 1d8), `bow` (ranged 1d6, 120 ft).
fn scen(opts: &str, body: &str) -> Encounter<Osr> {
    encounter(&format!(
        r#"
name = "t"
rules = "osr"
[options]
{opts}
[weapons.sword]
damage = "1d8"
[weapons.bow]
kind = "ranged"
damage = "1d6"
[weapons.spear]
damage = "1d6"
range = 10
{body}
"#
    ))
}

/// Red `a` (unit 0: STR 16, DEX 14, +5 with the sword) against blue `b`
/// (unit 1: AC 15, 30 HP), morale off unless `opts` says otherwise.
fn duel(opts: &str, a_extra: &str, a_entry: &str, b_extra: &str, b_entry: &str) -> Encounter<Osr> {
    // a's defaults, less the keys `a_extra` sets.
    let a_base: String = [
        "hp = 20",
        "str = 16",
        "dex = 14",
        "weapons = [\"sword\", \"bow\"]",
    ]
    .iter()
    .filter(|line| {
        let key = line.split(' ').next().unwrap_or_default();
        !a_extra.lines().any(|l| l.starts_with(&format!("{key} =")))
    })
    .map(|line| format!("{line}\n"))
    .collect();
    scen(
        &format!("morale = \"off\"\n{opts}"),
        &format!(
            r#"
[units.a]
{a_base}
{a_extra}
[units.b]
hp = 30
ac = 15
weapons = ["sword"]
{b_extra}
[sides.red]
a = {{ {a_entry} }}
[sides.blue]
b = {{ {b_entry} }}
"#
        ),
    )
}

/// One attack by unit 0 on unit 1 with its weapon `w` (0: sword, 1: bow).
fn swing(enc: &Encounter<Osr>, w: usize, rolls: &[(u32, u32)]) -> (AttackResult, Fight<Osr>) {
    let mut f = fight(enc);
    let r = hit_with(enc, &mut f, 0, 1, w, rolls);
    (r, f)
}

fn hit_with(
    enc: &Encounter<Osr>,
    f: &mut Fight<Osr>,
    attacker: usize,
    target: usize,
    w: usize,
    rolls: &[(u32, u32)],
) -> AttackResult {
    let mut dice = ScriptedDice::new(rolls);
    let weapon = enc.units[attacker].stats.weapons[w];
    let r = as_turn(enc, f, &mut dice, attacker, |t| attack(t, target, &weapon));
    dice.assert_done();
    r
}

/// Unit `actor` plays one turn with `rolls`; all rolls must be used.
fn play(enc: &Encounter<Osr>, f: &mut Fight<Osr>, actor: usize, rolls: &[(u32, u32)]) {
    let mut dice = ScriptedDice::new(rolls);
    as_turn(enc, f, &mut dice, actor, Osr::take_turn);
    dice.assert_done();
}

fn gap(f: &Fight<Osr>, a: usize, b: usize) -> i32 {
    (f.units[a].position - f.units[b].position).abs()
}

// ---- Initiative and actions ----

#[test]
fn initiative_is_a_fixed_order_by_dex_score_with_delay_and_random_ties() {
    let body = r#"
[units.quick]
hp = 5
dex = 17
weapons = ["sword"]
[units.mid]
hp = 5
dex = 13
weapons = ["sword"]
[units.slow]
hp = 5
dex = 8
weapons = ["sword"]
[units.waiter]
hp = 5
dex = 18
delay_to = 9
weapons = ["sword"]
[sides.red]
slow = {}
waiter = {}
[sides.blue]
mid = {}
quick = {}
"#;
    let enc = scen("", body);
    let mut f = fight(&enc);
    // No dice: 17, 13, 9 (the waiter, DEX 18 delaying), 8.
    f.make_order(&enc, &mut ScriptedDice::new(&[]));
    assert_eq!(f.turn_order(), &[3, 2, 1, 0]);
    // The modifier does not matter: DEX 13 and 12 are both +1, and 13 goes first.
    let enc = scen("", &body.replace("dex = 8", "dex = 12"));
    let mut f = fight(&enc);
    f.make_order(&enc, &mut ScriptedDice::new(&[]));
    assert_eq!(f.turn_order(), &[3, 2, 0, 1]);
    // A tie (both 13) is broken at random once per fight (one d2 here) ...
    let enc = scen("", &body.replace("dex = 8", "dex = 13"));
    let mut f = fight(&enc);
    f.make_order(&enc, &mut ScriptedDice::new(&[(2, 2)]));
    assert_eq!(f.turn_order(), &[3, 0, 2, 1]);
    // ... and the whole fight keeps that order: `fixed` makes it once.
    assert_eq!(enc.initiative.kind, InitiativeKind::Fixed);
    // Delay only to a slower place.
    let bad = crate::scenario::compile::compile_str::<Osr>(
        "name = \"t\"\nrules = \"osr\"\n[weapons.w]\ndamage = \"1d4\"\n[units.u]\nhp = 1\ndex = 10\ndelay_to = 12\nweapons = [\"w\"]\n[sides.a]\nu = {}\n[sides.b]\nu = {}\n",
    );
    assert!(bad
        .err()
        .expect("rejected")
        .to_string()
        .contains("delay_to"));
}

#[test]
fn advancing_units_trade_the_active_action_down_to_a_second_move() {
    let enc = duel("", "", "", "", "distance = 70");
    assert_eq!(enc.units[0].tactic, Tactic::Hold, "a bow: holds by default");
    let enc = duel("", "", "tactic = \"advance\"", "", "distance = 70");
    let mut f2 = fight(&enc);
    // 70 ft: Movement 30, nothing but the bow reaches at 40 ft: it shoots.
    play(&enc, &mut f2, 0, &[(20, 2)]);
    assert_eq!(gap(&f2, 0, 1), 40);
    // A swordsman only: Movement 30, then the Active action as a Movement.
    let enc = duel("", "weapons = [\"sword\"]", "", "", "distance = 70");
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[]);
    assert_eq!(gap(&f, 0, 1), 10);
    // Next turn: 5 ft of movement, then the attack.
    play(&enc, &mut f, 0, &[(20, 2)]);
    assert_eq!(gap(&f, 0, 1), 5);
    assert_eq!(f.counters[counter::ATTACKS], 1);
}

#[test]
fn load_above_str_costs_5_ft_each_and_disadvantage_on_checks() {
    // STR 16 carrying 18 loads: 2 over, 20 ft; the attack rolls twice, keeps the worse.
    let enc = duel(
        "",
        "weapons = [\"sword\"]\nload = 18",
        "",
        "",
        "distance = 70",
    );
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[]);
    assert_eq!(gap(&f, 0, 1), 30, "20 + 20 ft");
    f.units[0].position = f.units[1].position;
    let r = hit_with(&enc, &mut f, 0, 1, 0, &[(20, 18), (20, 4)]);
    assert_eq!(r.natural, 4);
    // Movement Actions: "traveling in difficult terrain ... half speed".
    let enc = duel(
        "difficult_terrain = true",
        "weapons = [\"sword\"]",
        "",
        "",
        "distance = 70",
    );
    let f = fight(&enc);
    assert_eq!(speed(&enc.units[0].stats, &f.units[0], &enc.options), 15);
    // Grappled: held fast, 0 ft.
    let enc = duel(
        "",
        "weapons = [\"sword\"]",
        "conditions = [\"grappled\"]",
        "",
        "distance = 70",
    );
    let f = fight(&enc);
    assert_eq!(speed(&enc.units[0].stats, &f.units[0], &enc.options), 0);
}

// ---- Attacks ----

#[test]
fn an_attack_is_d20_plus_str_mod_plus_proficiency_vs_ac() {
    let enc = duel("", "", "", "", "");
    // 10 + 3 + 2 = 15 = AC: a hit, 1d8 + 3.
    let (r, f) = swing(&enc, 0, &[(20, 10), (8, 5)]);
    assert!(r.hit && !r.doubled);
    assert_eq!((r.total, r.target_number, r.damage), (15, 15, 8));
    assert_eq!(f.units[1].state.hp, 22);
    let (r, _) = swing(&enc, 0, &[(20, 9)]);
    assert!(!r.hit);
    // Hit on beating AC, as an option.
    let enc = duel("hit_on = \"beat\"", "", "", "", "");
    let (r, _) = swing(&enc, 0, &[(20, 10)]);
    assert!(!r.hit);
    // Not proficient: no +2. Ranged attacks use DEX (14: +2).
    let enc = duel("", "proficient = false", "", "", "distance = 30");
    let (r, _) = swing(&enc, 0, &[(20, 11)]);
    assert_eq!(r.total, 14);
    let (r, _) = swing(&enc, 1, &[(20, 13), (6, 1)]);
    assert_eq!((r.total, r.damage), (15, 3));
    // Natural 1 misses, natural 20 hits (options).
    let enc = duel("", "str = 30", "", "", "");
    assert!(!swing(&enc, 0, &[(20, 1)]).0.hit);
    let enc = duel(
        "nat1_misses = false",
        "str = 30\nproficiency = 4",
        "",
        "",
        "",
    );
    assert!(swing(&enc, 0, &[(20, 1), (8, 1)]).0.hit);
    let enc = duel("", "str = 1", "", "", "");
    assert!(swing(&enc, 0, &[(20, 20), (8, 1)]).0.hit);
    // 20 − 5 + 0 = 15, not above AC 15.
    let enc = duel(
        "nat20_hits = false\nhit_on = \"beat\"",
        "str = 1\nproficiency = 0",
        "",
        "",
        "",
    );
    assert!(!swing(&enc, 0, &[(20, 20)]).0.hit);
}

#[test]
fn ranged_attacks_at_close_range_have_disadvantage() {
    // Bow at 0 ft (engaged): two dice, the worse kept.
    let enc = duel("", "weapons = [\"bow\"]", "", "", "");
    let (r, _) = swing(&enc, 0, &[(20, 17), (20, 3)]);
    assert_eq!(r.natural, 3);
    // At 10 ft, the far edge of the close band ("within 5-10 ft"): still two.
    let enc = duel("", "weapons = [\"bow\"]", "", "", "distance = 10");
    let (r, _) = swing(&enc, 0, &[(20, 17), (20, 3)]);
    assert_eq!(r.natural, 3);
    // At 30 ft: one die.
    let enc = duel("", "weapons = [\"bow\"]", "", "", "distance = 30");
    let (r, _) = swing(&enc, 0, &[(20, 17), (6, 2)]);
    assert_eq!(r.natural, 17);
    // Melee at close range: one die.
    let enc = duel("", "", "", "", "");
    let (r, _) = swing(&enc, 0, &[(20, 3)]);
    assert_eq!(r.natural, 3);
}

#[test]
fn light_levels_and_darksight() {
    // Darkness: every attack at disadvantage ...
    let enc = duel("light = \"darkness\"", "", "", "", "");
    assert_eq!(swing(&enc, 0, &[(20, 15), (20, 5)]).0.natural, 5);
    // ... and at advantage with darksight.
    let enc = duel("light = \"darkness\"", "darksight = true", "", "", "");
    assert_eq!(swing(&enc, 0, &[(20, 5), (20, 15), (8, 1)]).0.natural, 15);
    // Dim: ranged attacks only.
    let enc = duel("light = \"dim\"", "", "", "", "distance = 30");
    assert_eq!(swing(&enc, 1, &[(20, 15), (20, 5)]).0.natural, 5);
    let enc = duel("light = \"dim\"", "", "", "", "");
    assert_eq!(swing(&enc, 0, &[(20, 15), (8, 1)]).0.natural, 15);
    // Brilliant: long-range attacks (beyond half of the bow's 120 ft).
    let enc = duel("light = \"brilliant\"", "", "", "", "distance = 100");
    assert_eq!(swing(&enc, 1, &[(20, 15), (20, 5)]).0.natural, 5);
    let enc = duel("light = \"brilliant\"", "", "", "", "distance = 60");
    assert_eq!(swing(&enc, 1, &[(20, 15), (6, 1)]).0.natural, 15);
    // Well lit: nothing.
    let enc = duel("", "", "", "", "distance = 100");
    assert_eq!(swing(&enc, 1, &[(20, 15), (6, 1)]).0.natural, 15);
}

#[test]
fn flanking_advantage_is_an_option() {
    let body = |opts: &str| {
        scen(
            &format!("morale = \"off\"\n{opts}"),
            r#"
[units.a]
hp = 10
weapons = ["sword"]
[units.b]
hp = 10
weapons = ["sword"]
[sides.red]
a = { count = 2 }
[sides.blue]
b = {}
"#,
        )
    };
    let enc = body("");
    let mut f = fight(&enc);
    assert_eq!(hit_with(&enc, &mut f, 0, 2, 0, &[(20, 4)]).natural, 4);
    let enc = body("flanking = true");
    let mut f = fight(&enc);
    assert_eq!(
        hit_with(&enc, &mut f, 0, 2, 0, &[(20, 4), (20, 14), (8, 1)]).natural,
        14
    );
}

#[test]
fn natural_20_doubles_the_total_or_the_dice() {
    // 1d8 + 3: a 5 → 8, doubled → 16.
    let enc = duel("", "", "", "", "");
    let (r, f) = swing(&enc, 0, &[(20, 20), (8, 5)]);
    assert!(r.doubled);
    assert_eq!(r.damage, 16);
    assert_eq!(f.counters[counter::CRITS], 1);
    // Double dice: 5 + 2 + 3.
    let enc = duel("crit = \"double-dice\"", "", "", "", "");
    let (r, _) = swing(&enc, 0, &[(20, 20), (8, 5), (8, 2)]);
    assert_eq!(r.damage, 10);
}

#[test]
fn a_pcs_natural_1_on_a_defense_check_doubles_the_damage_it_takes() {
    // b is a PC; a (NPC, +5) attacks it. With defense checks b rolls
    // d20 + (15 − 10) vs 12 + 5 = 17.
    let enc = duel("defense_checks = true", "", "", "pc = true", "");
    let (r, _) = swing(&enc, 0, &[(20, 12)]);
    assert!(r.defended && !r.hit, "12 + 5 = 17: defended");
    assert_eq!((r.total, r.target_number), (17, 17));
    let (r, _) = swing(&enc, 0, &[(20, 11), (8, 5)]);
    assert!(r.hit && !r.doubled);
    assert_eq!(r.damage, 8);
    // The natural 1: hit, damage doubled.
    let (r, f) = swing(&enc, 0, &[(20, 1), (8, 5)]);
    assert!(r.hit && r.doubled);
    assert_eq!(r.damage, 16);
    assert_eq!(f.units[1].state.hp, 14);
    let enc = duel(
        "defense_checks = true\nnat1_doubles = false",
        "",
        "",
        "pc = true",
        "",
    );
    assert_eq!(swing(&enc, 0, &[(20, 1), (8, 5)]).0.damage, 8);
    // NPC targets, or the option off: the attacker rolls as usual.
    let enc = duel("defense_checks = true", "", "", "", "");
    assert!(!swing(&enc, 0, &[(20, 1)]).0.defended);
    let enc = duel("", "", "", "pc = true", "");
    assert!(!swing(&enc, 0, &[(20, 1)]).0.defended);
}

#[test]
fn statistically_one_swing_averages_4_5_with_nat_20_doubling_the_total() {
    // +5 vs AC 15: hits on 10..=19 (10/20) for 1d8+3 (mean 7.5, E[X²] 61.5),
    // crits on 20 (1/20) for 2(1d8+3) (mean 15, E[X²] 246): mean 4.5,
    // E[X²] = 30.75 + 12.3 = 43.05, variance 22.8.
    const N: u32 = 200_000;
    let enc = duel("", "", "", "", "");
    let weapon = enc.units[0].stats.weapons[0];
    let mut f = fight(&enc);
    let mut dice = RngDice::for_batch(11, 0);
    let mut total = 0i64;
    for _ in 0..N {
        f.reset(&enc);
        total += as_turn(&enc, &mut f, &mut dice, 0, |t| attack(t, 1, &weapon)).damage as i64;
    }
    let mean = total as f64 / N as f64;
    let se = (22.8f64 / N as f64).sqrt();
    assert!(
        (mean - 4.5).abs() < 4.0 * se,
        "mean damage {mean}, exactly 4.5"
    );
}

#[test]
fn statistically_darkness_cuts_a_hit_to_a_quarter() {
    // +5 vs AC 15 needs 10+: 11/20 of a die; with disadvantage (11/20)² = 0.3025.
    const N: u32 = 200_000;
    let enc = duel("light = \"darkness\"", "", "", "", "");
    let weapon = enc.units[0].stats.weapons[0];
    let mut f = fight(&enc);
    let mut dice = RngDice::for_batch(12, 0);
    let mut hits = 0;
    for _ in 0..N {
        f.reset(&enc);
        hits += as_turn(&enc, &mut f, &mut dice, 0, |t| attack(t, 1, &weapon)).hit as u32;
    }
    let p = 0.3025;
    let rate = hits as f64 / N as f64;
    assert!(
        (rate - p).abs() < 4.0 * (p * (1.0 - p) / N as f64).sqrt(),
        "P(hit) {rate}, exactly 0.3025"
    );
}

// ---- 0 HP, the death clock, stabilising, injuries ----

/// Red: `a` (unit 0) and its ally `c` (unit 1, WIS 14); blue `b` (unit 2).
fn party(opts: &str) -> Encounter<Osr> {
    party_placed(opts, "{}", "{}")
}

/// [`party`] with `c` and `b` placed by their unit-group entries.
fn party_placed(opts: &str, c: &str, b: &str) -> Encounter<Osr> {
    scen(
        &format!("morale = \"off\"\n{opts}"),
        &format!(
            r#"
[units.a]
hp = 10
str = 12
weapons = ["sword"]
[units.c]
hp = 10
wis = 14
weapons = ["sword"]
[units.b]
hp = 10
weapons = ["sword"]
[sides.red]
a = {{}}
c = {c}
[sides.blue]
b = {b}
"#
        ),
    )
}

/// Unit 0 is dropped to 0 HP by unit 2 in round `round`.
fn drop_a(enc: &Encounter<Osr>, f: &mut Fight<Osr>, round: u32) {
    f.round = round;
    f.units[0].state.hp = 2;
    hit_with(enc, f, 2, 0, 0, &[(20, 15), (8, 4)]);
    assert!(f.units[0].out && f.units[0].state.dying && !f.units[0].lingering);
}

/// End the fight at round `round` with `winner`.
fn end_at(enc: &Encounter<Osr>, f: &mut Fight<Osr>, round: u32, winner: Option<u8>) {
    f.round = round;
    Osr::finish(
        f,
        enc,
        Outcome {
            winner,
            rounds: round,
        },
    );
}

#[test]
fn dying_units_die_after_a_minute_or_the_end_of_the_fight_whichever_is_later() {
    // Fell in round 3; the minute (10 rounds) runs out in round 13.
    let enc = party("stabilise = \"never\"");
    let mut f = fight(&enc);
    drop_a(&enc, &mut f, 3);
    assert_eq!(f.counters[counter::DOWNED], 1);
    // No death while the fight lasts, however long it goes on.
    for round in 3..=30 {
        f.round = round;
        play(&enc, &mut f, 0, &[]);
        assert!(f.units[0].state.dying, "round {round}");
    }
    // The fight ends in round 12, inside the minute, with an ally standing:
    // not a death (it may still be stabilised after the fight).
    let mut f = fight(&enc);
    drop_a(&enc, &mut f, 3);
    end_at(&enc, &mut f, 12, Some(0));
    assert_eq!(f.counters[counter::DEATHS], 0);
    assert_eq!(f.counters[counter::DYING_AT_END], 1);
    // It ends in round 13: the minute is over too, so it is dead.
    let mut f = fight(&enc);
    drop_a(&enc, &mut f, 3);
    end_at(&enc, &mut f, 13, Some(0));
    assert_eq!(f.counters[counter::DEATHS], 1);
    assert!(!f.units[0].state.dying);
    // Inside the minute but nobody of its side standing: dead.
    let mut f = fight(&enc);
    drop_a(&enc, &mut f, 3);
    let mut dice = ScriptedDice::new(&[]);
    as_turn(&enc, &mut f, &mut dice, 0, |t| t.take_out(1));
    end_at(&enc, &mut f, 4, Some(1));
    assert_eq!(f.counters[counter::DEATHS], 1);
    // The minute is an option.
    let enc = party("stabilise = \"never\"\ndeath_clock = 2");
    let mut f = fight(&enc);
    drop_a(&enc, &mut f, 1);
    end_at(&enc, &mut f, 3, Some(0));
    assert_eq!(f.counters[counter::DEATHS], 1);
}

#[test]
fn zero_hp_dead_is_an_option() {
    let enc = party("at_zero_hp = \"dead\"");
    let mut f = fight(&enc);
    f.units[0].state.hp = 2;
    hit_with(&enc, &mut f, 2, 0, 0, &[(20, 15), (8, 4)]);
    assert!(f.units[0].out && !f.units[0].lingering && !f.units[0].state.dying);
    assert_eq!(f.counters[counter::DEATHS], 1);
}

/// Unit 1 tends unit 0, which fell in round 1, in round 11, once its minute
/// has run out: a WIS check (`check`: d20 + 2 vs DC 11), then the injury
/// table (`injury`, then its extra dice). Returns the fight.
fn tend_with(opts: &str, rolls: &[(u32, u32)]) -> Fight<Osr> {
    let enc = party(opts);
    let mut f = fight(&enc);
    drop_a(&enc, &mut f, 1);
    f.round = 11;
    play(&enc, &mut f, 1, rolls);
    f
}

#[test]
fn allies_stabilise_with_their_active_action_and_a_failed_check_keeps_the_clock() {
    // 8 + 2 = 10 < 11: failed, the ally spent its action (no attack rolled).
    let f = tend_with("", &[(20, 8)]);
    assert!(f.units[0].state.dying);
    assert_eq!(
        f.counters[counter::ATTACKS],
        1,
        "only the blow that felled a"
    );
    // The DC is an option: 10 is enough for DC 10.
    let f = tend_with("stabilise_dc = 10", &[(20, 8), (20, 10)]);
    assert!(!f.units[0].state.dying);
    // Nobody stabilises with `never`: the ally attacks instead.
    let f = tend_with("stabilise = \"never\"", &[(20, 2)]);
    assert!(f.units[0].state.dying);
    // `medics`: only medics tend.
    let f = tend_with("stabilise = \"medics\"", &[(20, 2)]);
    assert!(f.units[0].state.dying);
}

#[test]
fn the_injury_table_band_by_band() {
    // 1: a false hope.
    let f = tend_with("", &[(20, 9), (20, 1)]);
    assert_eq!(f.counters[counter::STABILISED], 1);
    assert_eq!(f.counters[counter::DEATHS], 1);
    assert!(f.units[0].out && !f.units[0].lingering);
    // 2..=7: lose 1d6 of STR, DEX, CON, INT, WIS, CHA; back at 1 HP.
    for (roll, ability) in [(2, STR), (3, DEX), (4, CON), (5, INT), (6, WIS), (7, CHA)] {
        let f = tend_with("", &[(20, 9), (20, roll), (6, 4)]);
        let before = if ability == STR { 12 } else { 10 };
        assert_eq!(
            f.units[0].state.abilities[ability],
            before - 4,
            "roll {roll}"
        );
        assert_eq!(f.counters[counter::INJURY_ABILITY], 1);
        assert_eq!((f.units[0].state.hp, f.units[0].out), (1, false));
        assert_eq!(f.counters[counter::BACK], 1);
    }
    // An ability at 0: dead (DEX 10 − 6 = 4 lives; a 4 of CHA... use WIS 10 − 6 = 4).
    let enc = party("");
    let mut f = fight(&enc);
    drop_a(&enc, &mut f, 1);
    f.round = 11;
    f.units[0].state.abilities[CON] = 3;
    play(&enc, &mut f, 1, &[(20, 9), (20, 4), (6, 3)]);
    assert_eq!(f.counters[counter::DEATHS], 1);
    assert!(f.units[0].out);
    // 8..=13: a body part.
    for roll in [8, 13] {
        let f = tend_with("", &[(20, 9), (20, roll)]);
        assert_eq!(f.counters[counter::INJURY_BODY], 1);
        assert_eq!((f.units[0].state.hp, f.units[0].out), (1, false));
    }
    // 14..=19: disadvantage on all checks.
    for roll in [14, 19] {
        let f = tend_with("", &[(20, 9), (20, roll)]);
        assert_eq!(f.counters[counter::INJURY_HAMPERED], 1);
        assert!(f.units[0].state.injured && !f.units[0].out);
    }
    let enc = party("");
    let mut f = fight(&enc);
    f.units[0].state.injured = true;
    let r = hit_with(&enc, &mut f, 0, 2, 0, &[(20, 16), (20, 6)]);
    assert_eq!(r.natural, 6, "an injured unit attacks at disadvantage");
    // Injury Table, 20: "Standing: instantly heal 1d8 HP", on top of the
    // 1 HP every survivor returns to ("If not a 1 (dead), they return to 1
    // HP"): 1 + 6.
    let f = tend_with("", &[(20, 9), (20, 20), (8, 6)]);
    assert_eq!((f.units[0].state.hp, f.units[0].out), (7, false));
    // At most 1 + 8 = 9: within a's 10 HP.
    let f = tend_with("", &[(20, 9), (20, 20), (8, 8)]);
    assert_eq!(f.units[0].state.hp, 9);
    assert_eq!(f.counters[counter::BACK], 1);
    // rejoin = standing: only a 20 comes back into the fight.
    let f = tend_with("rejoin = \"standing\"", &[(20, 9), (20, 10)]);
    assert!(f.units[0].out && !f.units[0].state.dying);
    assert_eq!(f.counters[counter::BACK], 0);
    let f = tend_with("rejoin = \"standing\"", &[(20, 9), (20, 20), (8, 3)]);
    assert!(!f.units[0].out);
}

// ---- Morale ----

/// Red PCs `hero` ×`pcs` against blue NPCs: `grunt` ×`grunts` (group 1) and a
/// `boss` (group 2, a leader, WIS 14).
fn warband(opts: &str, pcs: u32, grunts: u32) -> Encounter<Osr> {
    scen(
        opts,
        &format!(
            r#"
[units.hero]
hp = 10
pc = true
weapons = ["sword"]
[units.grunt]
hp = 10
weapons = ["sword"]
[units.boss]
hp = 10
wis = 14
leader = true
weapons = ["sword"]
[sides.red]
hero = {{ count = {pcs} }}
[sides.blue]
grunt = {{ count = {grunts} }}
boss = {{}}
"#
        ),
    )
}

fn fled(f: &Fight<Osr>, from: usize, to: usize) -> Vec<bool> {
    f.units[from..to].iter().map(|u| u.out).collect()
}

#[test]
fn battle_begins_one_roll_for_the_npc_side_by_its_leader() {
    // 3 PCs v 2 grunts + boss (even: no disadvantage). The boss rolls for the
    // side: 8 + 2 = 10 < 11: the whole side flees; PCs do not check.
    let enc = warband("", 3, 2);
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(20, 8)]);
    assert_eq!(fled(&f, 3, 6), [true, true, true]);
    assert_eq!(f.counters[counter::ROUTS], 3);
    // 9 + 2 = 11: they stand; the first turn then goes on (the hero attacks).
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(20, 9), (3, 1), (20, 2)]);
    assert_eq!(f.counters[counter::ROUTS], 0);
    assert!(f.units[..enc.n].iter().all(|u| u.state.begun));
}

#[test]
fn outnumbered_sides_roll_at_disadvantage_and_groups_or_individuals_roll_apart() {
    // 4 PCs v 3: disadvantage, the worse of 15 and 8 fails.
    let enc = warband("", 4, 2);
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(20, 15), (20, 8)]);
    assert_eq!(f.counters[counter::ROUTS], 3);
    let enc = warband("morale_outnumbered = false", 4, 2);
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(20, 15), (3, 1), (20, 2)]);
    assert_eq!(f.counters[counter::ROUTS], 0);
    // By group: grunts (WIS 10) roll once, the boss once.
    let enc = warband("morale_groups = \"group\"\nmorale_tide = 0", 3, 2);
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(20, 10), (20, 12), (20, 2)]);
    assert_eq!(fled(&f, 3, 6), [true, true, false]);
    // Individually: each its own roll.
    let enc = warband("morale_groups = \"individual\"\nmorale_tide = 0", 3, 2);
    let mut f = fight(&enc);
    play(
        &enc,
        &mut f,
        0,
        &[(20, 11), (20, 10), (20, 9), (2, 1), (20, 2)],
    );
    assert_eq!(fled(&f, 3, 6), [false, true, false]);
    // morale = "all": PCs roll too, individually (red's three, then blue's one).
    let enc = warband("morale = \"all\"", 3, 2);
    let mut f = fight(&enc);
    play(
        &enc,
        &mut f,
        0,
        &[(20, 11), (20, 10), (20, 11), (20, 11), (3, 1), (20, 2)],
    );
    assert_eq!(fled(&f, 0, 3), [false, true, false]);
    // Off: no rolls.
    let enc = warband("morale = \"off\"", 3, 2);
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(3, 1), (20, 2)]);
}

#[test]
fn first_fall_leader_and_tide_triggers() {
    // With `morale_killed = "falls"`, falling to 0 HP is being killed.
    let enc = warband(
        "morale_start = false\nmorale_tide = 0\nmorale_killed = \"falls\"",
        3,
        3,
    );
    // The first fall: its side checks (3 left v 3: no disadvantage).
    let mut f = fight(&enc);
    f.units[3].state.hp = 1;
    hit_with(&enc, &mut f, 0, 3, 0, &[(20, 15), (8, 1), (20, 8)]);
    assert_eq!(fled(&f, 3, 7), [true, true, true, true]);
    // A second fall does not trigger again.
    let mut f = fight(&enc);
    f.units[3].state.hp = 1;
    f.units[4].state.hp = 1;
    hit_with(&enc, &mut f, 0, 3, 0, &[(20, 15), (8, 1), (20, 12)]);
    hit_with(&enc, &mut f, 1, 4, 0, &[(20, 15), (8, 1)]);
    assert_eq!(f.counters[counter::ROUTS], 0);
    // The leader's fall: its side checks (the first grunt rolls).
    let enc = warband(
        "morale_start = false\nmorale_tide = 0\nmorale_first_fall = false\nmorale_killed = \"falls\"",
        3,
        3,
    );
    let mut f = fight(&enc);
    f.units[6].state.hp = 1;
    hit_with(&enc, &mut f, 0, 6, 0, &[(20, 15), (8, 1), (20, 10)]);
    assert_eq!(fled(&f, 3, 6), [true, true, true]);
    // The tide: once half the side is out (2 of 4 down), it checks once.
    let enc = warband("morale_start = false\nmorale_first_fall = false", 3, 3);
    let mut f = fight(&enc);
    f.units[3].state.hp = 1;
    f.units[4].state.hp = 1;
    f.units[5].state.hp = 1;
    hit_with(&enc, &mut f, 0, 3, 0, &[(20, 15), (8, 1)]);
    // 2 standing v 3: outnumbered, at disadvantage (11 and 12: 11 + 2 stands).
    hit_with(
        &enc,
        &mut f,
        1,
        4,
        0,
        &[(20, 15), (8, 1), (20, 11), (20, 12)],
    );
    assert_eq!(f.counters[counter::ROUTS], 0);
    hit_with(&enc, &mut f, 2, 5, 0, &[(20, 15), (8, 1)]);
    assert!(!f.units[6].out);
}

#[test]
fn a_side_that_has_all_fled_loses() {
    let enc = warband("", 3, 2);
    let mut f = Fight::new();
    // 3 PCs v 3 NPCs (DEX 10 all): the NPC side checks at the start at even
    // odds (WIS 14 boss: needs 9+, 60 %), so it often flees and loses.
    let mut dice = RngDice::for_batch(3, 0);
    let mut wins = [0u32; 2];
    let mut routs = 0;
    for _ in 0..2000 {
        let o = f.run(&enc, &mut dice);
        Osr::finish(&mut f, &enc, o);
        routs += f.counters[counter::ROUTS];
        wins[o.winner.expect("someone wins") as usize] += 1;
    }
    assert!(routs > 0 && wins[0] > wins[1]);
    assert_eq!(wins[0] + wins[1], 2000);
}

// ---- Retreat ----

#[test]
fn retreat_takes_the_turn_and_fails_on_a_failed_check_or_any_hit() {
    let opts = "";
    let enc = duel(opts, "retreat_at = 5", "", "", "");
    let mut f = fight(&enc);
    f.units[0].state.hp = 5;
    // DEX 14: 9 + 2 = 11 passes; b swings (needs 10 vs AC 10 with +0... b has
    // STR 10 and +2: 8 + 2 = 10 hits AC 10): the retreat fails.
    play(&enc, &mut f, 0, &[(20, 9), (20, 8), (8, 1)]);
    assert!(!f.units[0].out);
    assert_eq!(f.counters[counter::RETREATS], 0);
    // A miss: it escapes.
    let mut f = fight(&enc);
    f.units[0].state.hp = 5;
    play(&enc, &mut f, 0, &[(20, 9), (20, 7)]);
    assert!(f.units[0].out);
    assert_eq!(f.counters[counter::RETREATS], 1);
    // A failed check: no attacks, no escape.
    let mut f = fight(&enc);
    f.units[0].state.hp = 5;
    play(&enc, &mut f, 0, &[(20, 8)]);
    assert!(!f.units[0].out);
    // Not engaged: it simply leaves.
    let enc = duel(opts, "retreat_at = 5", "", "", "distance = 30");
    let mut f = fight(&enc);
    f.units[0].state.hp = 5;
    play(&enc, &mut f, 0, &[]);
    assert!(f.units[0].out);
}

#[test]
fn whole_fights_run_and_tally() {
    let enc = warband("", 4, 4);
    let mut f = Fight::new();
    let mut dice = RngDice::for_batch(5, 0);
    let mut tally = crate::engine::Tally::default();
    f.run_into(&enc, &mut dice, 500, &mut tally);
    assert_eq!(tally.fights, 500);
    // Nobody is left dying after a fight.
    assert!(f.units.iter().all(|u| !u.state.dying));
}

#[test]
fn darkness_hurts_morale_and_darksight_turns_it_into_an_advantage() {
    let body = |darksight: bool| {
        format!(
            "[units.a]\nhp = 10\nweapons = [\"sword\"]\n[units.b]\nhp = 10\ndarksight = {darksight}\n\
             weapons = [\"sword\"]\n[sides.red]\na = {{}}\n[sides.blue]\nb = {{}}\n"
        )
    };
    let opts = "light = \"darkness\"\nmorale_outnumbered = false";
    // WIS 10 (+0) vs DC 11. Without darksight: disadvantage, 5 kept: fails.
    let enc = scen(opts, &body(false));
    let mut f = fight(&enc);
    let mut dice = ScriptedDice::new(&[(20, 15), (20, 5)]);
    assert!(!as_turn(&enc, &mut f, &mut dice, 1, |t| morale_roll(
        t, 1, false
    )));
    // With darksight: advantage, 15 kept: holds.
    let enc = scen(opts, &body(true));
    let mut f = fight(&enc);
    let mut dice = ScriptedDice::new(&[(20, 5), (20, 15)]);
    assert!(as_turn(&enc, &mut f, &mut dice, 1, |t| morale_roll(
        t, 1, false
    )));
    dice.assert_done();
}

// ---- Rules as written: close range, defense checks, standing, stabilising,
// killed, retainers, who can act ----

#[test]
fn melee_combat_is_close_range_10_ft() {
    // Range & Attacks: "A melee attack must be within 5-10 ft (close
    // range)": no melee weapon reaches beyond 10 ft.
    let bad = crate::scenario::compile::compile_str::<Osr>(
        "name = \"t\"\nrules = \"osr\"\n[weapons.pike]\ndamage = \"1d8\"\nrange = 15\n[units.u]\nhp = 1\nweapons = [\"pike\"]\n[sides.a]\nu = {}\n[sides.b]\nu = {}\n",
    );
    assert!(bad.err().expect("rejected").to_string().contains("range"));
    let body = |a_tactic: &str| {
        format!(
            r#"
[units.a]
hp = 5
dex = 14
retreat_at = 5
weapons = ["bow"]
[units.b]
hp = 30
weapons = ["spear"]
[sides.red]
a = {{ {a_tactic} }}
[sides.blue]
b = {{ distance = 10 }}
"#
        )
    };
    // Retreat: an enemy 10 ft away (its spear reaches) is melee combat: the
    // DEX check (9 + 2 = 11 passes), then the spear (8 + 2 = 10 hits AC 10,
    // 1d6 = 1): the retreat fails.
    let enc = scen("morale = \"off\"", &body(""));
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(20, 9), (20, 8), (6, 1)]);
    assert!(!f.units[0].out);
    assert_eq!(f.units[0].state.hp, 4);
    // Keeping range: a shooter with an enemy 10 ft away backs out of close
    // range (30 ft, to 40) before it shoots, with one die.
    let enc = scen(
        "morale = \"off\"",
        &body("tactic = \"keep-range\"").replace("retreat_at = 5", ""),
    );
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(20, 2)]);
    assert_eq!(gap(&f, 0, 1), 40);
    // Positioning: flankers stand anywhere in close range (10 ft).
    let enc = scen(
        "morale = \"off\"\nflanking = true",
        r#"
[units.a]
hp = 10
weapons = ["spear"]
[units.b]
hp = 10
weapons = ["sword"]
[sides.red]
a = { count = 2 }
[sides.blue]
b = { distance = 10 }
"#,
    );
    let mut f = fight(&enc);
    assert_eq!(
        hit_with(&enc, &mut f, 0, 2, 0, &[(20, 4), (20, 14), (6, 1)]).natural,
        14
    );
}

#[test]
fn a_defense_check_under_hit_on_beat_holds_on_a_tie() {
    // PC Attacks (a check against AC) with `hit_on = "beat"`: the attacker
    // must beat AC 15 with d20 + 5, i.e. roll 11+. The PC's defense check
    // (Light: "defense checks") keeps those odds: d20 + 5 vs 11 + 5 = 16,
    // holding on a tie, so it holds on 11+ (half the time, as the attack
    // misses on 1-10).
    let enc = duel(
        "defense_checks = true\nhit_on = \"beat\"",
        "",
        "",
        "pc = true",
        "",
    );
    let (r, _) = swing(&enc, 0, &[(20, 11)]);
    assert!(r.defended && !r.hit);
    assert_eq!((r.total, r.target_number), (16, 16));
    let (r, _) = swing(&enc, 0, &[(20, 10), (8, 5)]);
    assert!(r.hit && !r.doubled);
    assert_eq!(r.damage, 8);
    // The attack roll under `beat`: 10 + 5 = 15 misses, 11 + 5 hits.
    let enc = duel("hit_on = \"beat\"", "", "", "pc = true", "");
    assert!(!swing(&enc, 0, &[(20, 10)]).0.hit);
    assert!(swing(&enc, 0, &[(20, 11), (8, 1)]).0.hit);
    // `meet`: the same roll of 11 falls short of 12 + 5.
    let enc = duel("defense_checks = true", "", "", "pc = true", "");
    assert!(swing(&enc, 0, &[(20, 11), (8, 1)]).0.hit);
}

#[test]
fn with_defense_checks_the_light_acts_on_the_defender() {
    // Darkness: "disadvantage to ... all defense checks": the PC who cannot
    // see defends at disadvantage (1 and 14: the 1 kept, a doubled hit;
    // Critical Failure).
    let dark = "defense_checks = true\nlight = \"darkness\"";
    let enc = duel(dark, "", "", "pc = true", "");
    let (r, _) = swing(&enc, 0, &[(20, 14), (20, 1), (8, 5)]);
    assert_eq!(r.natural, 1);
    assert!(r.hit && r.doubled);
    assert_eq!(r.damage, 16);
    // The attacker's own darksight does not help it: no attack roll is made.
    let enc = duel(dark, "darksight = true", "", "pc = true", "");
    assert_eq!(swing(&enc, 0, &[(20, 14), (20, 1), (8, 5)]).0.natural, 1);
    // Darksight: "the disadvantages a human suffers in darkness are
    // advantages": a PC with darksight defends at advantage (14 + 5 >= 17).
    let enc = duel(dark, "", "", "pc = true\ndarksight = true", "");
    let (r, _) = swing(&enc, 0, &[(20, 1), (20, 14)]);
    assert!(r.natural == 14 && !r.hit);
    // Dim light: "defense vs. ranged" at disadvantage: a bow at 30 ft (+4:
    // DC 16), 15 and 3 kept 3; 1d6 + 2.
    let dim = "defense_checks = true\nlight = \"dim\"";
    let enc = duel(dim, "", "", "pc = true", "distance = 30");
    let (r, _) = swing(&enc, 1, &[(20, 15), (20, 3), (6, 2)]);
    assert_eq!((r.natural, r.target_number, r.damage), (3, 16, 4));
    // ... but not vs melee: one die.
    let enc = duel(dim, "", "", "pc = true", "");
    assert_eq!(swing(&enc, 0, &[(20, 15)]).0.natural, 15);
    // A blinded PC cannot see either: disadvantage in good light.
    let enc = duel(
        "defense_checks = true",
        "",
        "",
        "pc = true",
        "conditions = [\"blinded\"]",
    );
    assert_eq!(swing(&enc, 0, &[(20, 15), (20, 4), (8, 1)]).0.natural, 4);
}

#[test]
fn a_prone_unit_stands_up_as_a_quick_action_or_with_its_movement() {
    // Quick Actions: "brief actions ... anything that takes a second". The
    // text has no prone rules; standing is a Quick action, so a prone
    // swordsman 70 ft off stands and moves 30 + 30 ft.
    let enc = duel(
        "",
        "weapons = [\"sword\"]",
        "conditions = [\"prone\"]",
        "",
        "distance = 70",
    );
    let mut f = fight(&enc);
    assert!(f.units[0].conditions.has(Condition::Prone));
    play(&enc, &mut f, 0, &[]);
    assert!(!f.units[0].conditions.has(Condition::Prone));
    assert_eq!(gap(&f, 0, 1), 10);
    // `stand_up = "movement"`: standing is its Movement; the Active action
    // traded down still moves 30 ft.
    let enc = duel(
        "stand_up = \"movement\"",
        "weapons = [\"sword\"]",
        "conditions = [\"prone\"]",
        "",
        "distance = 70",
    );
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[]);
    assert!(!f.units[0].conditions.has(Condition::Prone));
    assert_eq!(gap(&f, 0, 1), 40);
    assert!(!f.units[0].state.standing_up, "cleared when the turn ends");
    // Next turn, standing, it moves 30 and trades its Active action down.
    play(&enc, &mut f, 0, &[]);
    assert_eq!(gap(&f, 0, 1), 5);
    // A prone unit that cannot act stays down.
    let enc = duel(
        "",
        "weapons = [\"sword\"]",
        "conditions = [\"prone\", \"stunned\"]",
        "",
        "distance = 70",
    );
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[]);
    assert!(f.units[0].conditions.has(Condition::Prone));
    assert_eq!(gap(&f, 0, 1), 70);
}

#[test]
fn allies_stabilise_once_the_minute_has_run_out_or_first() {
    // Death & Injury: "dead if not stabilized within 1 minute or by the end
    // of the fight (whichever is later)": while the minute runs the ally
    // cannot die before the fight ends, so allies fight on (a fell in round
    // 1; with 10 rounds to the minute, c attacks b in round 10) ...
    let enc = party("");
    let mut f = fight(&enc);
    drop_a(&enc, &mut f, 1);
    f.round = 10;
    play(&enc, &mut f, 1, &[(20, 2)]);
    assert!(f.units[0].state.dying);
    assert_eq!(f.counters[counter::ATTACKS], 2);
    // ... and from round 11 the end of the fight is its deadline: c tends
    // (9 + 2 = 11), the injury table (10) puts a back at 1 HP.
    f.round = 11;
    play(&enc, &mut f, 1, &[(20, 9), (20, 10)]);
    assert_eq!((f.units[0].state.hp, f.units[0].out), (1, false));
    // `stabilise_when = "first"`: as soon as it is in reach.
    let enc = party("stabilise_when = \"first\"");
    let mut f = fight(&enc);
    drop_a(&enc, &mut f, 1);
    play(&enc, &mut f, 1, &[(20, 9), (20, 10)]);
    assert!(!f.units[0].out);
}

#[test]
fn killed_means_dead_unless_morale_killed_is_falls() {
    // When To Check Morale: "...the first combatant is killed". Falling to
    // 0 HP is "incapacitated", not dead (Death & Injury): no check.
    let enc = warband("morale_start = false\nmorale_tide = 0", 3, 3);
    let mut f = fight(&enc);
    f.units[3].state.hp = 1;
    hit_with(&enc, &mut f, 0, 3, 0, &[(20, 15), (8, 1)]);
    assert!(f.units[3].out && f.units[3].state.dying);
    // The fallen grunt dies of a false hope (Injury Table 1) when its
    // fellow stabilises it after its minute: the first combatant killed;
    // the boss rolls for the side (8 + 2 < 11) and the side flees.
    f.round = 11;
    play(&enc, &mut f, 4, &[(20, 11), (20, 1), (20, 8)]);
    assert_eq!(f.counters[counter::DEATHS], 1);
    assert_eq!(fled(&f, 4, 7), [true, true, true]);
    // Dead at 0 HP (`at_zero_hp = "dead"`): falling is being killed.
    let enc = warband(
        "morale_start = false\nmorale_tide = 0\nat_zero_hp = \"dead\"",
        3,
        3,
    );
    let mut f = fight(&enc);
    f.units[3].state.hp = 1;
    hit_with(&enc, &mut f, 0, 3, 0, &[(20, 15), (8, 1), (20, 8)]);
    assert_eq!(f.counters[counter::ROUTS], 3);
    // A leader who only falls: no check; with "falls", a check.
    let opts = "morale_start = false\nmorale_tide = 0\nmorale_first_fall = false";
    let enc = warband(opts, 3, 3);
    let mut f = fight(&enc);
    f.units[6].state.hp = 1;
    hit_with(&enc, &mut f, 0, 6, 0, &[(20, 15), (8, 1)]);
    let enc = warband(&format!("{opts}\nmorale_killed = \"falls\""), 3, 3);
    let mut f = fight(&enc);
    f.units[6].state.hp = 1;
    hit_with(&enc, &mut f, 0, 6, 0, &[(20, 15), (8, 1), (20, 10)]);
    assert_eq!(f.counters[counter::ROUTS], 3);
}

/// Red: PC `hero` (unit 0: DEX 14, AC 12, retreats at once) and its
/// retainer `hireling` (unit 1, an NPC far behind); blue: `foe` (unit 2),
/// with a spear `foe_distance` ft from the hero. Morale only on a PC's
/// retreat (plus `opts`).
fn retreat_party(opts: &str, foe_distance: i32) -> Encounter<Osr> {
    scen(
        &format!("morale_start = false\nmorale_tide = 0\n{opts}"),
        &format!(
            r#"
[units.hero]
hp = 1
ac = 12
dex = 14
pc = true
retreat_at = 1
weapons = ["sword"]
[units.hireling]
hp = 10
weapons = ["sword"]
[units.foe]
hp = 1000
dex = 12
weapons = ["spear"]
[sides.red]
hero = {{}}
hireling = {{ distance = 200 }}
[sides.blue]
foe = {{ distance = {foe_distance}, target = "nearest" }}
"#
        ),
    )
}

#[test]
fn a_pcs_retreat_sends_its_retainers_to_a_morale_check_at_disadvantage() {
    // Retreat: "Any retainers or NPCs following a PC who retreats must
    // immediately make a morale check at disadvantage. If they fail, they
    // rout." Not engaged, the hero simply leaves; the hireling rolls twice,
    // keeps 8: 8 < 11, it flees.
    let enc = retreat_party("", 40);
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(20, 15), (20, 8)]);
    assert_eq!(f.counters[counter::RETREATS], 1);
    assert_eq!(fled(&f, 0, 2), [true, true]);
    assert_eq!(f.counters[counter::ROUTS], 1);
    // Both 11 or better: it stands.
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(20, 15), (20, 11)]);
    assert_eq!(fled(&f, 0, 2), [true, false]);
    // `morale_retreat = false`: no check.
    let enc = retreat_party("morale_retreat = false", 40);
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[]);
    assert_eq!(fled(&f, 0, 2), [true, false]);
    // An NPC that retreats sends nobody.
    let enc2 = scen(
        "morale_start = false\nmorale_tide = 0",
        "[units.h]\nhp = 1\nretreat_at = 1\nweapons = [\"sword\"]\n[units.k]\nhp = 10\nweapons = [\"sword\"]\n[units.f]\nhp = 10\nweapons = [\"sword\"]\n[sides.red]\nh = {}\nk = { distance = 200 }\n[sides.blue]\nf = { distance = 40 }\n",
    );
    let mut f = fight(&enc2);
    play(&enc2, &mut f, 0, &[]);
    assert_eq!(fled(&f, 0, 2), [true, false]);
}

#[test]
fn under_alternating_activation_a_unit_that_cannot_act_costs_no_activation() {
    // Death & Injury: an incapacitated combatant is "unable to act"; so are
    // stunned ones. Red: `s` (stunned, DEX 18) and `a` (DEX 10); blue: `b`
    // (DEX 14, 1 HP). Red opens: its activation goes to a, not to s, and
    // a's blow (15, then 1 on the d8) fells b before b can swing. Had s
    // used red's activation, b would have rolled those dice and hit a, and
    // a's attack would find no dice left.
    let mut enc = scen(
        "morale = \"off\"\ninitiative = \"alternating\"",
        r#"
[units.s]
hp = 10
dex = 18
weapons = ["sword"]
[units.a]
hp = 10
dex = 10
weapons = ["sword"]
[units.b]
hp = 1
dex = 14
weapons = ["sword"]
[sides.red]
s = { conditions = ["stunned"] }
a = {}
[sides.blue]
b = {}
"#,
    );
    enc.max_rounds = 1;
    let mut f = Fight::new();
    f.reset(&enc);
    assert!(!Osr::can_act(&f, &enc, 0) && Osr::can_act(&f, &enc, 1));
    // First the initiative rolls the alternating scheme orders each team by
    // (d20 + DEX mod, ties to the higher score: s before a), then a's blow.
    let mut dice = ScriptedDice::new(&[(20, 10), (20, 10), (20, 10), (20, 15), (8, 1)]);
    let outcome = f.run(&enc, &mut dice);
    dice.assert_done();
    assert_eq!(outcome.winner, Some(0));
    assert_eq!(f.units[1].state.hp, 10);
    assert_eq!(f.counters[counter::ATTACKS], 1);
}

// ---- Statistical checks of multi-turn situations against exact values ----

/// Per-attack outcome of a PC's defense check at disadvantage that holds on
/// a kept die of `holds_from` or better: (miss, plain hit, doubled hit),
/// by enumerating the 400 pairs of d20s.
fn defense_at_disadvantage(holds_from: u32) -> (f64, f64, f64) {
    let (mut miss, mut hit, mut double) = (0, 0, 0);
    for a in 1..=20u32 {
        for b in 1..=20u32 {
            match a.min(b) {
                1 => double += 1,
                k if k >= holds_from => miss += 1,
                _ => hit += 1,
            }
        }
    }
    (
        miss as f64 / 400.0,
        hit as f64 / 400.0,
        double as f64 / 400.0,
    )
}

#[test]
fn statistically_defense_checks_under_beat_in_dim_light_vs_a_bow() {
    // An NPC archer (DEX 14, proficient: +4; bow "1d1": 1 + 2 = 3 damage, 6
    // doubled) shoots a PC (AC 14, 7 HP) 30 ft away for three rounds; the
    // PC's sword never reaches. Defense checks under `hit_on = "beat"`: d20
    // + 4 vs 11 + 4, holding on 11+; Dim Light: "defense vs. ranged" at
    // disadvantage, so the worse of two d20s; a natural 1 doubles the damage
    // (Critical Failure). Exact: a Markov chain on damage taken (0, 3, 6,
    // down at 7+) over three attacks.
    let enc = encounter::<Osr>(
        r#"
name = "t"
rules = "osr"
max_rounds = 3
[options]
morale = "off"
defense_checks = true
hit_on = "beat"
light = "dim"
[weapons.bow]
kind = "ranged"
damage = "1d1"
[weapons.sword]
damage = "1d8"
[units.archer]
hp = 10
dex = 14
weapons = ["bow"]
[units.pc]
hp = 7
ac = 14
pc = true
weapons = ["sword"]
[sides.red]
archer = {}
[sides.blue]
pc = { distance = 30, tactic = "hold" }
"#,
    );
    let (miss, hit, double) = defense_at_disadvantage(11);
    assert!((miss - 0.25).abs() < 1e-12 && (double - 39.0 / 400.0).abs() < 1e-12);
    // p[d]: probability of having taken d (0..=6) damage and still standing.
    let mut p = [0.0f64; 7];
    p[0] = 1.0;
    let mut down = 0.0;
    for _ in 0..3 {
        let mut next = [0.0f64; 7];
        for (d, &q) in p.iter().enumerate() {
            for (chance, dmg) in [(miss, 0), (hit, 3), (double, 6)] {
                let t = d + dmg;
                if t >= 7 {
                    down += q * chance;
                } else {
                    next[t] += q * chance;
                }
            }
        }
        p = next;
    }
    const N: u32 = 200_000;
    let got = crate::testkit::fight_rate(&enc, N, 21, |_, o| o.winner == Some(0));
    crate::testkit::assert_within_four_se("PC down within 3 rounds", got, down, N);
}

#[test]
fn statistically_a_retreat_from_a_spear_and_its_retainer() {
    // Retreat, from melee combat at 10 ft (close range): the hero (1 HP)
    // retreats every turn: a DEX check (d20 + 2 >= 11: 0.6), then the foe's
    // spear (d20 + 2 >= AC 12: 0.55) stops it with any hit (and drops it);
    // a failed check leaves it to the foe's turn, which hits at 0.55 too.
    // Per round: away 0.6 * 0.45 = 0.27, still trying 0.4 * 0.45 = 0.18,
    // else down. Three rounds: P(away) = 0.27 (1 + 0.18 + 0.18^2). Its
    // retainer then checks morale at disadvantage: stands on the worse of
    // two d20s >= 11, (10/20)^2 = 0.25, so it routs with P(away) * 0.75.
    let mut enc = retreat_party("", 10);
    enc.max_rounds = 3;
    let away = 0.27 * (1.0 + 0.18 + 0.18 * 0.18);
    const N: u32 = 200_000;
    let got = crate::testkit::fight_rate(&enc, N, 22, |f, _| f.counters[counter::RETREATS] == 1);
    crate::testkit::assert_within_four_se("hero away within 3 rounds", got, away, N);
    let got = crate::testkit::fight_rate(&enc, N, 23, |f, _| f.counters[counter::ROUTS] == 1);
    crate::testkit::assert_within_four_se("retainer routs", got, away * 0.75, N);
}

#[test]
fn statistically_a_due_ally_is_back_after_the_minute() {
    // Death & Injury / Stabilizing & Injuries / Injury Table. `a` fell in
    // round 1 with a 3-round minute (`death_clock = 3`); its ally `c` (WIS
    // 14: d20 + 2 >= 11, 0.6) fights on (nothing in reach) while the minute
    // runs, and tries from round 4, when the end of the fight becomes a's
    // deadline: three tries by round 6, 1 - 0.4^3 = 0.936. The injury table
    // then kills on a 1 (ability losses of 1d6 from 10 or 12 never reach 0):
    // back in the fight with 0.936 * 19/20; with more than 1 HP (a 20: 1 +
    // 1d8) with 0.936 / 20, and at 9 HP with 0.936 / 160.
    let enc = party_placed(
        "death_clock = 3",
        "{ tactic = \"hold\" }",
        "{ distance = 500 }",
    );
    const N: u32 = 100_000;
    let mut f = fight(&enc);
    let mut outcomes = [0u32; 3];
    let mut dice = RngDice::for_batch(24, 0);
    for _ in 0..N {
        f.reset(&enc);
        f.units[0].state.hp = 0;
        f.units[0].state.dying = true;
        // Down in round 1 with a 3-round clock.
        f.units[0].state.clock_out = 4;
        as_turn(&enc, &mut f, &mut dice, 0, |t| t.take_out(0));
        for round in 1..=6 {
            f.round = round;
            as_turn(&enc, &mut f, &mut dice, 1, Osr::take_turn);
            if round <= 3 {
                assert!(f.units[0].state.dying, "nobody tends in the minute");
            }
        }
        let hp = f.units[0].state.hp;
        outcomes[0] += u32::from(!f.units[0].out);
        outcomes[1] += u32::from(!f.units[0].out && hp > 1);
        outcomes[2] += u32::from(hp == 9);
    }
    let tried = 1.0 - 0.4f64.powi(3);
    for (what, count, p) in [
        ("back in the fight", outcomes[0], tried * 0.95),
        ("back with more than 1 HP", outcomes[1], tried / 20.0),
        ("back with 9 HP", outcomes[2], tried / 160.0),
    ] {
        crate::testkit::assert_within_four_se(what, count as f64 / N as f64, p, N);
    }
}

// ---- The text's numbers as options: each moved off the text's value ----

/// The error compiling [`duel`]'s scenario with `opts`, as printed.
fn refused(opts: &str) -> String {
    let text = format!(
        "name = \"t\"\nrules = \"osr\"\n[options]\n{opts}\n[weapons.w]\ndamage = \"1d4\"\n[units.u]\nhp = 1\nweapons = [\"w\"]\n[sides.a]\nu = {{}}\n[sides.b]\nu = {{}}\n"
    );
    match crate::scenario::compile::compile_str::<Osr>(&text) {
        Ok(_) => panic!("`{opts}` was accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn crit_on_widens_the_critical_range_and_its_automatic_hits() {
    // Critical Hits: "an attack that rolled a natural 20". A 19 (+5: 24 vs
    // AC 15) is a plain hit as written, 1d8 + 3 = 8 ...
    let enc = duel("", "", "", "", "");
    let (r, f) = swing(&enc, 0, &[(20, 19), (8, 5)]);
    assert!(r.hit && !r.doubled);
    assert_eq!((r.damage, f.counters[counter::CRITS]), (8, 0));
    // ... and critical with crit_on = 19: doubled.
    let enc = duel("crit_on = 19", "", "", "", "");
    let (r, f) = swing(&enc, 0, &[(20, 19), (8, 5)]);
    assert!(r.hit && r.doubled);
    assert_eq!((r.damage, f.counters[counter::CRITS]), (16, 1));
    // A critical roll always hits (nat20_hits): 19 - 5 = 14 misses AC 15 as
    // written, hits with crit_on = 19.
    let weak = "str = 1\nproficiency = 0";
    let enc = duel("", weak, "", "", "");
    assert!(!swing(&enc, 0, &[(20, 19)]).0.hit);
    let enc = duel("crit_on = 19", weak, "", "", "");
    assert!(swing(&enc, 0, &[(20, 19), (8, 8)]).0.hit);
    // With defense checks the attacker's critical range is the defender's
    // automatic failure turned around: a PC's 2 that meets its DC holds as
    // written, fails with crit_on = 19 (not doubled: that is fumble_on's).
    // The weak attacker's bonus is -5: the PC's 2 + 5 meets 12 - 5 = 7.
    let enc = duel("defense_checks = true", weak, "", "pc = true", "");
    assert!(!swing(&enc, 0, &[(20, 2)]).0.hit);
    let enc = duel(
        "defense_checks = true\ncrit_on = 19",
        weak,
        "",
        "pc = true",
        "",
    );
    let (r, _) = swing(&enc, 0, &[(20, 2), (8, 8)]);
    assert!(r.hit && !r.doubled);
    assert_eq!(r.damage, 3);
}

#[test]
fn crit_multiplier_scales_a_critical_hit() {
    // Critical Hits: "damage is doubled". 1d8 + 3 with a 5: 16 as written,
    // 24 tripled, 8 with no extra (multiplier 1).
    for (opts, want) in [
        ("", 16),
        ("crit_multiplier = 3", 24),
        ("crit_multiplier = 1", 8),
    ] {
        let enc = duel(opts, "", "", "", "");
        let (r, _) = swing(&enc, 0, &[(20, 20), (8, 5)]);
        assert_eq!(r.damage, want, "{opts}");
    }
    // Double-dice: the dice three times (5, 2, 4), the modifier once.
    let enc = duel(
        "crit = \"double-dice\"\ncrit_multiplier = 3",
        "",
        "",
        "",
        "",
    );
    let (r, _) = swing(&enc, 0, &[(20, 20), (8, 5), (8, 2), (8, 4)]);
    assert_eq!(r.damage, 14);
}

#[test]
fn fumble_on_and_fumble_multiplier_set_the_critical_failure() {
    // Critical Failure: "Rolling a natural 1 on a check that damages a PC
    // doubles the damage the PC suffers": the PC's defense check. A 2 fails
    // (7 vs 17) with plain damage as written ...
    let pc = "pc = true";
    let enc = duel("defense_checks = true", "", "", pc, "");
    let (r, _) = swing(&enc, 0, &[(20, 2), (8, 5)]);
    assert!(r.hit && !r.doubled);
    assert_eq!(r.damage, 8);
    // ... and doubles it with fumble_on = 2.
    let enc = duel("defense_checks = true\nfumble_on = 2", "", "", pc, "");
    let (r, f) = swing(&enc, 0, &[(20, 2), (8, 5)]);
    assert!(r.hit && r.doubled);
    assert_eq!((r.damage, f.units[1].state.hp), (16, 14));
    // fumble_multiplier: a natural 1 triples it (3 × 8), or adds nothing.
    for (opts, want) in [
        ("", 16),
        ("fumble_multiplier = 3", 24),
        ("fumble_multiplier = 1", 8),
    ] {
        let enc = duel(&format!("defense_checks = true\n{opts}"), "", "", pc, "");
        assert_eq!(swing(&enc, 0, &[(20, 1), (8, 5)]).0.damage, want, "{opts}");
    }
}

#[test]
fn close_range_widens_melee_combat() {
    // Range & Attacks: "a ranged attack can be made in melee combat,
    // however the attack roll is made at disadvantage"; close range is
    // "within 5-10 ft". A bow at 30 ft: one die as written, two (the worse
    // kept) when close range reaches 30 ft.
    let enc = duel("", "weapons = [\"bow\"]", "", "", "distance = 30");
    assert_eq!(swing(&enc, 0, &[(20, 17), (6, 1)]).0.natural, 17);
    let enc = duel(
        "close_range = 30",
        "weapons = [\"bow\"]",
        "",
        "",
        "distance = 30",
    );
    assert_eq!(swing(&enc, 0, &[(20, 17), (20, 3)]).0.natural, 3);
    // Retreat from melee combat: at 30 ft no check as written (it simply
    // leaves); with close_range = 30 the DEX check (9 + 2 < 11 fails).
    let enc = duel("", "retreat_at = 5", "", "", "distance = 30");
    let mut f = fight(&enc);
    f.units[0].state.hp = 5;
    play(&enc, &mut f, 0, &[]);
    assert_eq!(f.counters[counter::RETREATS], 1);
    let enc = duel(
        "close_range = 30",
        "retreat_at = 5",
        "",
        "",
        "distance = 30",
    );
    let mut f = fight(&enc);
    f.units[0].state.hp = 5;
    play(&enc, &mut f, 0, &[(20, 8)]);
    assert_eq!(f.counters[counter::RETREATS], 0);
    assert!(!f.units[0].out);
    // Narrower than the longest melee reach (10 ft) is refused.
    let e = refused("close_range = 5");
    assert!(e.contains("close_range") && e.contains("10"), "{e}");
}

#[test]
fn reach_sets_an_unlisted_melee_weapons_reach_and_the_stabilising_distance() {
    // Range & Attacks: "a melee attack must be within 5-10 ft". A sword
    // lists no range: 5 ft as written, 10 ft with reach = 10; the spear's
    // listed 10 ft does not move.
    let enc = duel("reach = 10", "weapons = [\"sword\", \"spear\"]", "", "", "");
    let stats = &enc.units[0].stats;
    assert!(stats.weapons().iter().all(|w| w.range == 10));
    assert_eq!((stats.melee_reach, stats.advance_reach), (10, 10));
    let enc = duel("reach = 3", "weapons = [\"sword\", \"spear\"]", "", "", "");
    let ranges: Vec<i32> = enc.units[0]
        .stats
        .weapons()
        .iter()
        .map(|w| w.range)
        .collect();
    assert_eq!(ranges, [3, 10], "the sword (1d8) first");
    // Holding at 10 ft with a sword only: nothing in reach as written ...
    let sword = "weapons = [\"sword\"]";
    let enc = duel("", sword, "tactic = \"hold\"", "", "distance = 10");
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[]);
    assert_eq!(f.counters[counter::ATTACKS], 0);
    // ... a swing with reach = 10.
    let enc = duel(
        "reach = 10",
        sword,
        "tactic = \"hold\"",
        "",
        "distance = 10",
    );
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(20, 15), (8, 1)]);
    assert_eq!(f.counters[counter::ATTACKS], 1);
    // Stabilizing & Injuries: the ally must reach the dying unit. c is 40
    // ft from a: 30 ft of movement + 5 ft is short, + 10 ft is enough.
    let far = |opts: &str| party_placed(opts, "{ distance = 40 }", "{ distance = 500 }");
    let enc = far("");
    let mut f = fight(&enc);
    drop_a(&enc, &mut f, 1);
    f.round = 11;
    play(&enc, &mut f, 1, &[]);
    assert!(f.units[0].state.dying);
    let enc = far("reach = 10");
    let mut f = fight(&enc);
    drop_a(&enc, &mut f, 1);
    f.round = 11;
    play(&enc, &mut f, 1, &[(20, 9), (20, 10)]);
    assert_eq!((f.units[0].state.hp, f.units[0].out), (1, false));
    assert_eq!(gap(&f, 0, 1), 10);
}

#[test]
fn default_range_sets_an_unlisted_ranged_weapons_range() {
    // Range & Attacks: "all weapons and spells have a listed range"; a bow
    // listing none shoots 120 ft here, and only 60 with default_range = 60:
    // at 100 ft it holds its fire.
    let bow = "weapons = [\"bow\"]";
    let enc = duel("", bow, "", "", "distance = 100");
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(20, 15), (6, 1)]);
    assert_eq!(f.counters[counter::ATTACKS], 1);
    let enc = duel("default_range = 60", bow, "", "", "distance = 100");
    assert_eq!(enc.units[0].stats.ranged_range, 60);
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[]);
    assert_eq!(f.counters[counter::ATTACKS], 0);
    // The unused-weapon warning reads the range the unit carries.
    let text = |opts: &str| {
        format!(
            "name = \"t\"\nrules = \"osr\"\n[options]\n{opts}\n[weapons.bow]\nkind = \"ranged\"\ndamage = \"1d6\"\n[units.u]\nhp = 5\nweapons = [\"bow\"]\n[sides.a]\nu = {{ distance = 50 }}\n[sides.b]\nu = {{ distance = 50 }}\n"
        )
    };
    let warned = |opts: &str| {
        let c = crate::scenario::compile::compile_str::<Osr>(&text(opts)).expect("compiles");
        !c.warnings.is_empty()
    };
    assert!(!warned(""));
    assert!(warned("default_range = 60"));
}

#[test]
fn flankers_sets_how_many_enemies_flank() {
    // Positioning: "multiple allies flanking a target": two as written.
    // Two red swordsmen on b: advantage (4 and 14, 14 kept) with flanking
    // on; with flankers = 3, two are not enough: one die.
    let body = |opts: &str| {
        scen(
            &format!("morale = \"off\"\nflanking = true\n{opts}"),
            "[units.a]\nhp = 10\nweapons = [\"sword\"]\n[units.b]\nhp = 10\nweapons = [\"sword\"]\n[sides.red]\na = { count = 2 }\n[sides.blue]\nb = {}\n",
        )
    };
    let enc = body("");
    let mut f = fight(&enc);
    assert_eq!(
        hit_with(&enc, &mut f, 0, 2, 0, &[(20, 4), (20, 14), (8, 1)]).natural,
        14
    );
    let enc = body("flankers = 3");
    let mut f = fight(&enc);
    assert_eq!(hit_with(&enc, &mut f, 0, 2, 0, &[(20, 4)]).natural, 4);
}

#[test]
fn active_actions_and_movement_actions_set_the_actions_of_a_turn() {
    // PC Actions: "a PC can only take one of each action per round". One
    // swing as written; two with active_actions = 2 (15 + 5 hits AC 15,
    // 1 + 3 each).
    let enc = duel("", "", "", "", "");
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(20, 15), (8, 1)]);
    assert_eq!((f.counters[counter::ATTACKS], f.units[1].state.hp), (1, 26));
    let enc = duel("active_actions = 2", "", "", "", "");
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(20, 15), (8, 1), (20, 15), (8, 1)]);
    assert_eq!((f.counters[counter::ATTACKS], f.units[1].state.hp), (2, 22));
    // An advancing swordsman 100 ft off: 30 ft of Movement and 30 more for
    // the Active action traded down as written; a second Active action
    // trades down too (30 more), and a second Movement action adds 30.
    let sword = "weapons = [\"sword\"]";
    for (opts, left) in [
        ("", 40),
        ("active_actions = 2", 10),
        ("movement_actions = 2", 10),
        ("movement_actions = 0", 70),
    ] {
        let enc = duel(opts, sword, "", "", "distance = 100");
        let mut f = fight(&enc);
        play(&enc, &mut f, 0, &[]);
        assert_eq!(gap(&f, 0, 1), left, "{opts}");
    }
}

#[test]
fn load_speed_penalty_and_difficult_terrain_divisor_set_the_speed() {
    // Movement Actions: "each load you carry above your STR score reduces
    // your speed by 5 ft"; STR 16 with 18 loads: 30 - 2 × 5 = 20, or
    // 30 - 2 × 10 = 10 with load_speed_penalty = 10.
    for (opts, want) in [
        ("", 20),
        ("load_speed_penalty = 10", 10),
        ("load_speed_penalty = 0", 30),
    ] {
        let enc = duel(opts, "weapons = [\"sword\"]\nload = 18", "", "", "");
        let f = fight(&enc);
        assert_eq!(
            speed(&enc.units[0].stats, &f.units[0], &enc.options),
            want,
            "{opts}"
        );
    }
    // "Difficult terrain ... half speed": 15, a third with divisor 3: 10.
    for (opts, want) in [("", 15), ("difficult_terrain_divisor = 3", 10)] {
        let enc = duel(&format!("difficult_terrain = true\n{opts}"), "", "", "", "");
        let f = fight(&enc);
        assert_eq!(
            speed(&enc.units[0].stats, &f.units[0], &enc.options),
            want,
            "{opts}"
        );
    }
}

#[test]
fn stabilised_hp_sets_the_hp_a_survivor_returns_with() {
    // Stabilizing & Injuries: "If not a 1 (dead), they return to 1 HP".
    assert_eq!(tend_with("", &[(20, 9), (20, 10)]).units[0].state.hp, 1);
    let f = tend_with("stabilised_hp = 4", &[(20, 9), (20, 10)]);
    assert_eq!((f.units[0].state.hp, f.units[0].out), (4, false));
    // Standing (20) heals on top: 4 + 6; never above the max (a's 10 HP).
    let f = tend_with("stabilised_hp = 4", &[(20, 9), (20, 20), (8, 6)]);
    assert_eq!(f.units[0].state.hp, 10);
    let f = tend_with("stabilised_hp = 50", &[(20, 9), (20, 10)]);
    assert_eq!(f.units[0].state.hp, 10);
}

#[test]
fn the_injury_table_bands_are_options() {
    // Injury Table: 1 dead; 2-7 an ability; 8-13 a body part; 14-19
    // hampered; 20 Standing. A 3 costs DEX as written ...
    let f = tend_with("", &[(20, 9), (20, 3), (6, 2)]);
    assert_eq!(
        (f.counters[counter::DEATHS], f.units[0].state.abilities[DEX]),
        (0, 8)
    );
    // ... and is a false hope with injury_death_max = 3; the ability band
    // then starts at 4, with STR.
    let f = tend_with("injury_death_max = 3", &[(20, 9), (20, 3)]);
    assert_eq!(f.counters[counter::DEATHS], 1);
    let f = tend_with("injury_death_max = 3", &[(20, 9), (20, 4), (6, 2)]);
    assert_eq!(f.units[0].state.abilities[STR], 10);
    // No false hope at all: injury_death_max = 0 (a 1 costs STR).
    let f = tend_with("injury_death_max = 0", &[(20, 9), (20, 1), (6, 2)]);
    assert_eq!(
        (f.counters[counter::DEATHS], f.units[0].state.abilities[STR]),
        (0, 10)
    );
    // A 9 is a body part as written, DEX (the band's eighth roll: STR,
    // DEX, ... in turn) with injury_ability_max = 9.
    let f = tend_with("", &[(20, 9), (20, 9)]);
    assert_eq!(f.counters[counter::INJURY_BODY], 1);
    let f = tend_with("injury_ability_max = 9", &[(20, 9), (20, 9), (6, 4)]);
    assert_eq!(f.counters[counter::INJURY_ABILITY], 1);
    assert_eq!(f.units[0].state.abilities[DEX], 6);
    // A 15 hampers as written, is a body part with injury_body_max = 16.
    let f = tend_with("", &[(20, 9), (20, 15)]);
    assert!(f.units[0].state.injured);
    let f = tend_with("injury_body_max = 16", &[(20, 9), (20, 15)]);
    assert!(!f.units[0].state.injured);
    assert_eq!(f.counters[counter::INJURY_BODY], 1);
    // injury_hampered_max = 20: no Standing (a 20 hampers, no 1d8; under
    // rejoin = "standing" it stays down) ...
    let f = tend_with("injury_hampered_max = 20", &[(20, 9), (20, 20)]);
    assert!(f.units[0].state.injured);
    assert_eq!(f.units[0].state.hp, 1);
    let f = tend_with(
        "injury_hampered_max = 20\nrejoin = \"standing\"",
        &[(20, 9), (20, 20)],
    );
    assert!(f.units[0].out);
    // ... = 17: an 18 stands, heals 1d8 and rejoins even under "standing".
    let f = tend_with(
        "injury_hampered_max = 17\nrejoin = \"standing\"",
        &[(20, 9), (20, 18), (8, 6)],
    );
    assert_eq!((f.units[0].state.hp, f.units[0].out), (7, false));
}

#[test]
fn injury_dice_are_options() {
    // Injury Table: "lose 1d6 STR"; with a d10, a 9 (STR 12 - 9 = 3).
    let f = tend_with("injury_ability_die = 10", &[(20, 9), (20, 2), (10, 9)]);
    assert_eq!(f.units[0].state.abilities[STR], 3);
    // 12 - 12 would be death: the larger die kills where the d6 cannot.
    let f = tend_with("injury_ability_die = 12", &[(20, 9), (20, 2), (12, 12)]);
    assert_eq!(f.counters[counter::DEATHS], 1);
    // "Standing: instantly heal 1d8 HP"; with a d4: 1 + 3.
    let f = tend_with("standing_heal_die = 4", &[(20, 9), (20, 20), (4, 3)]);
    assert_eq!(f.units[0].state.hp, 4);
}

#[test]
fn injury_bands_out_of_order_are_refused() {
    // Injury Table: the bands run 1, 2-7, 8-13, 14-19, 20; a band cannot
    // end before the one it follows.
    let e = refused("injury_body_max = 5");
    assert!(
        e.contains("injury_body_max")
            && e.contains("at least 7")
            && e.contains("injury_ability_max"),
        "{e}"
    );
    let e = refused("injury_death_max = 9");
    assert!(
        e.contains("injury_ability_max") && e.contains("at least 9"),
        "{e}"
    );
    let e = refused("injury_hampered_max = 12");
    assert!(
        e.contains("injury_hampered_max") && e.contains("at least 13"),
        "{e}"
    );
    // Equal limits are an empty band: accepted.
    let enc = duel("injury_ability_max = 1", "", "", "", "");
    assert_eq!(enc.options.injury_ability_max, 1);
}

#[test]
fn new_rule_numbers_default_to_the_text_and_stay_out_of_the_options_in_force() {
    // Every option left out compiles to the text's numbers (Options::default).
    let enc = duel("", "", "", "", "");
    let (o, d) = (enc.options, Options::default());
    assert_eq!(
        (
            o.crit_on,
            o.crit_multiplier,
            o.fumble_on,
            o.fumble_multiplier
        ),
        (
            d.crit_on,
            d.crit_multiplier,
            d.fumble_on,
            d.fumble_multiplier
        )
    );
    assert_eq!(
        (o.close_range, o.reach, o.default_range, o.flankers),
        (10, 5, 120, 2)
    );
    assert_eq!(
        (o.active_actions, o.movement_actions, o.load_speed_penalty),
        (1, 1, 5)
    );
    assert_eq!((o.difficult_terrain_divisor, o.stabilised_hp), (2, 1));
    assert_eq!(
        (
            o.injury_death_max,
            o.injury_ability_max,
            o.injury_body_max,
            o.injury_hampered_max
        ),
        (1, 7, 13, 19)
    );
    assert_eq!((o.injury_ability_die, o.standing_heal_die), (6, 8));
    // Every option names its text section.
    for field in Osr::OPTIONS {
        assert!(!field.section.is_empty(), "{} names no section", field.name);
    }
    // A report lists the new numbers among the options in force only when
    // the scenario writes them (its existing lines stay as they were).
    let text = |opts: &str| {
        format!(
            "name = \"t\"\nrules = \"osr\"\n[options]\n{opts}\n[weapons.w]\ndamage = \"1d4\"\n[units.u]\nhp = 1\nweapons = [\"w\"]\n[sides.a]\nu = {{}}\n[sides.b]\nu = {{}}\n"
        )
    };
    let listed = |opts: &str| {
        crate::scenario::compile::compile_str::<Osr>(&text(opts))
            .expect("compiles")
            .options
    };
    let plain = listed("");
    assert!(plain.iter().any(|l| l == "morale_dc = 11"));
    assert!(!plain.iter().any(|l| l.starts_with("crit_on")));
    assert!(listed("crit_on = 19").iter().any(|l| l == "crit_on = 19"));
}

/// Smart (issue 30 item 5): "A PC can only take one of each action per
/// round" (PC Actions), so a turn deals one attack with the best weapon: a
/// 1d8 sword's mean 4.5, counted as 4. A unit with a bow keeps its range,
/// a sword-only unit advances; smart targeting drops the enemy at 4 HP or
/// less before the side's focus.
#[test]
fn smart_settles_one_attack_a_round_and_moves_by_the_weapons() {
    let text = r#"
name = "t"
rules = "osr"
[weapons.sword]
damage = "1d8"
[weapons.bow]
kind = "ranged"
damage = "1d6"
[units.fighter]
hp = 10
weapons = ["sword"]
[units.archer]
hp = 10
weapons = ["bow"]
[sides.red]
fighter = { tactic = "smart" }
archer = { tactic = "smart" }
[sides.blue]
fighter = { count = 2 }
"#;
    let enc = encounter::<Osr>(text);
    assert_eq!(enc.units[0].drops, 4);
    assert_eq!(enc.units[0].tactic, crate::engine::Tactic::Advance);
    assert_eq!(enc.units[1].tactic, crate::engine::Tactic::KeepRange);
    assert_eq!(enc.units[1].drops, 3);
    let mut f = fight(&enc);
    let mut dice = ScriptedDice::new(&[]);
    f.units[2].state.hp = 6;
    f.units[3].state.hp = 5;
    // Neither can be dropped (5 > 4): the weakest is the focus.
    assert_eq!(
        as_turn(&enc, &mut f, &mut dice, 0, |t| t.choose_target(|_, _| true)),
        Some(3)
    );
    // Unit 2 at 4 HP can be: it comes before the focus.
    f.units[2].state.hp = 4;
    assert_eq!(
        as_turn(&enc, &mut f, &mut dice, 0, |t| t.choose_target(|_, _| true)),
        Some(2)
    );
    dice.assert_done();
}
