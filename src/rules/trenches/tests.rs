//! `trenches` rules pinned with scripted dice, and checked statistically
//! against exact probabilities.

use super::*;
use crate::dice::{RngDice, ScriptedDice};
use crate::engine::{Condition, Conditions, Encounter, Fight, Outcome, Tactic};
use crate::testkit::{as_turn, encounter, fight, four_se, with_options};

/// Unit 0 (`a`, side red) attacks unit 1 (`b`, side blue: AC 16, 30 HP).
/// `weapon` is the body of `[weapons.w]`; `opts` of `[options]`; the entries
/// are the inline tables of the two unit groups.
fn duel(opts: &str, weapon: &str, a_entry: &str, b_entry: &str) -> Encounter<Trenches> {
    encounter(&duel_text(opts, weapon, a_entry, b_entry))
}

/// The scenario text [`duel`] compiles.
fn duel_text(opts: &str, weapon: &str, a_entry: &str, b_entry: &str) -> String {
    format!(
        r#"
name = "t"
rules = "trenches"
[options]
{opts}
[weapons.w]
{weapon}
[units.a]
hp = 30
weapons = ["w"]
[units.b]
hp = 30
endurance = 3
armor = 3
weapons = ["w"]
[sides.red]
a = {{ {a_entry} }}
[sides.blue]
b = {{ {b_entry} }}
"#
    )
}

const SWORD: &str = "attack = 5\ndamage = \"1d8+3\"";
const RIFLE: &str = "kind = \"firearm\"\nattack = 5\ndamage = \"1d10+2\"";

/// One attack by unit 0 on unit 1 with unit 0's first weapon.
fn swing(enc: &Encounter<Trenches>, rolls: &[(u32, u32)]) -> (AttackResult, Fight<Trenches>) {
    let mut f = fight(enc);
    let mut dice = ScriptedDice::new(rolls);
    let weapon = enc.units[0].stats.weapons[0];
    let r = as_turn(enc, &mut f, &mut dice, 0, |t| attack(t, 1, &weapon));
    dice.assert_done();
    (r, f)
}

#[test]
fn prepare_unit_settles_the_fast_path_attack() {
    // An advancing swordsman who targets at random: his first weapon, in
    // its reach, at its bonus (proficiency only with the option).
    let quick =
        |opts: &str, weapon: &str, entry: &str| duel(opts, weapon, entry, "").units[0].stats.quick;
    let enc = duel("", SWORD, "", "");
    let stats = enc.units[0].stats;
    assert_eq!(stats.proficiency, 2);
    assert_eq!(
        stats.quick,
        Some(QuickAttack {
            reach: REACH,
            bonus: 5
        })
    );
    let with_proficiency = quick("proficiency_on_attacks = true", SWORD, "");
    assert_eq!(with_proficiency.map(|q| q.bonus), Some(7));
    // A rifleman told to advance closes to melee reach although his rifle
    // reaches from much farther (README, "The battlefield": advance
    // "closes to melee reach ... on the way it shoots"; issue 30): the
    // fast path shoots without moving only once he is that close.
    let rifle = quick("", RIFLE, "tactic = \"advance\"");
    let rifle_range = duel("", RIFLE, "", "").units[0].stats.weapons[0].range;
    assert!(rifle_range > REACH);
    assert_eq!(rifle.map(|q| q.reach), Some(REACH));
    // Turns the fast path never takes.
    assert_eq!(quick("", RIFLE, ""), None, "riflemen hold by default");
    assert_eq!(quick("", SWORD, "tactic = \"hold\""), None);
    assert_eq!(quick("", SWORD, "target = \"weakest\""), None);
    assert_eq!(quick("", SWORD, "target = \"focus\""), None);
    let mut tired = enc.units[0];
    tired.stats.exhaustion = 3;
    Trenches::prepare_unit(&mut tired, &enc.options);
    assert_eq!(tired.stats.quick, None, "exhaustion 3: disadvantage");
}

#[test]
fn initiative_is_d20_plus_dex_then_natural_then_roll_order() {
    let enc = duel("initiative_ties = \"roster\"", SWORD, "", "");
    let mut f = fight(&enc);
    // Totals 15 v 14: a first.
    f.make_order(&enc, &mut ScriptedDice::new(&[(20, 15), (20, 11)]));
    assert_eq!(f.turn_order(), &[0, 1]);
    // b has DEX +0 too: make b faster with a higher roll.
    f.make_order(&enc, &mut ScriptedDice::new(&[(20, 9), (20, 12)]));
    assert_eq!(f.turn_order(), &[1, 0]);

    // Tied totals: the higher natural roll (lower DEX) goes first.
    let enc = encounter::<Trenches>(
        r#"
name = "t"
rules = "trenches"
[options]
initiative_ties = "roster"
[weapons.w]
damage = "1d4"
[units.slow]
hp = 5
dex = 0
weapons = ["w"]
[units.quick]
hp = 5
dex = 3
weapons = ["w"]
[sides.red]
quick = {}
[sides.blue]
slow = {}
"#,
    );
    let mut f = fight(&enc);
    f.make_order(&enc, &mut ScriptedDice::new(&[(20, 10), (20, 13)]));
    assert_eq!(
        f.turn_order(),
        &[1, 0],
        "13+0 ties 10+3: the natural 13 goes first"
    );

    // Identical totals and naturals: roster order (who rolled first) ...
    let enc = duel("initiative_ties = \"roster\"", SWORD, "", "");
    let mut f = fight(&enc);
    f.make_order(&enc, &mut ScriptedDice::new(&[(20, 10), (20, 10)]));
    assert_eq!(f.turn_order(), &[0, 1]);
    // ... or, by default, a random order among the tied (one d2).
    let enc = duel("", SWORD, "", "");
    let mut f = fight(&enc);
    f.make_order(&enc, &mut ScriptedDice::new(&[(20, 10), (20, 10), (2, 1)]));
    assert_eq!(f.turn_order(), &[1, 0]);
    f.make_order(&enc, &mut ScriptedDice::new(&[(20, 10), (20, 10), (2, 2)]));
    assert_eq!(f.turn_order(), &[0, 1]);
}

#[test]
fn fixed_initiative_orders_by_dex_without_rolling() {
    let enc = encounter::<Trenches>(
        r#"
name = "t"
rules = "trenches"
[options]
initiative = "fixed"
[weapons.w]
damage = "1d4"
[units.slow]
hp = 5
weapons = ["w"]
[units.quick]
hp = 5
dex = 2
weapons = ["w"]
[sides.red]
slow = {}
[sides.blue]
quick = {}
"#,
    );
    let mut f = fight(&enc);
    f.make_order(&enc, &mut ScriptedDice::new(&[]));
    assert_eq!(f.turn_order(), &[1, 0]);
}

#[test]
fn a_hit_needs_total_at_least_ac() {
    let enc = duel("", SWORD, "", "");
    // 11 + 5 = 16 = AC: hit, 1d8+3 with a 4 = 7 damage.
    let (r, f) = swing(&enc, &[(20, 11), (8, 4)]);
    assert!(r.hit && !r.crit);
    assert_eq!((r.total, r.ac, r.damage), (16, 16, 7));
    assert_eq!(f.units[1].state.hp, 23);
    assert_eq!(f.damage[0], 7);
    // 10 + 5 = 15: miss, no damage rolled.
    let (r, f) = swing(&enc, &[(20, 10)]);
    assert!(!r.hit);
    assert_eq!(f.units[1].state.hp, 30);
}

#[test]
fn advantage_and_disadvantage_cancel_whatever_their_number() {
    // Attacker prone and frightened (two disadvantages), target restrained
    // (one advantage): a single d20.
    let enc = duel(
        "",
        SWORD,
        "conditions = [\"prone\", \"frightened\"]",
        "conditions = [\"restrained\"]",
    );
    let (r, _) = swing(&enc, &[(20, 11), (8, 1)]);
    assert_eq!(r.natural, 11);
    // Advantage only: the higher of two.
    let enc = duel("", SWORD, "", "conditions = [\"restrained\"]");
    let (r, _) = swing(&enc, &[(20, 3), (20, 14), (8, 1)]);
    assert_eq!(r.natural, 14);
    // Disadvantage only: the lower of two.
    let enc = duel("", SWORD, "conditions = [\"prone\"]", "");
    let (r, _) = swing(&enc, &[(20, 3), (20, 14)]);
    assert_eq!(r.natural, 3);
    assert!(!r.hit);
}

#[test]
fn cover_raises_ac_against_firearms_only() {
    for (cover, firearm_ac) in [
        ("none", 16),
        ("half", 18),
        ("three-quarters", 21),
        ("full", 26),
    ] {
        let entry = format!("cover = \"{cover}\"");
        let enc = duel("", RIFLE, "", &entry);
        // A natural 19 + 5 = 24: hits up to three-quarters cover.
        let mut rolls = vec![(20, 19)];
        if 24 >= firearm_ac {
            rolls.push((10, 5));
        }
        let (r, _) = swing(&enc, &rolls);
        assert_eq!(r.ac, firearm_ac, "{cover}");
        assert_eq!(r.hit, 24 >= firearm_ac, "{cover}");
        // Melee ignores cover.
        let enc = duel("", SWORD, "", &entry);
        let (r, _) = swing(&enc, &[(20, 11), (8, 1)]);
        assert_eq!(r.ac, 16, "melee vs {cover}");
        assert!(r.hit);
    }
}

#[test]
fn full_cover_cuts_firearm_damage_rounding_down() {
    let strong_rifle = "kind = \"firearm\"\nattack = 15\ndamage = \"1d10+2\"";
    let enc = duel("", strong_rifle, "", "cover = \"full\"");
    // 11 + 15 = 26 = AC 16 + 10: hit; 7 + 2 = 9 damage, halved to 4.
    let (r, f) = swing(&enc, &[(20, 11), (10, 7)]);
    assert_eq!((r.hit, r.damage), (true, 4));
    assert_eq!(f.units[1].state.hp, 26);
    let enc = duel(
        "full_cover_damage = 0.25",
        strong_rifle,
        "",
        "cover = \"full\"",
    );
    let (r, _) = swing(&enc, &[(20, 11), (10, 7)]);
    assert_eq!(r.damage, 2);
    // Melee against full cover: no cut.
    let strong_sword = "attack = 15\ndamage = \"1d10+2\"";
    let enc = duel("", strong_sword, "", "cover = \"full\"");
    let (r, _) = swing(&enc, &[(20, 11), (10, 7)]);
    assert_eq!(r.damage, 9);
}

#[test]
fn each_crit_option_scales_damage_as_documented() {
    for (option, rolls, damage) in [
        ("double-dice", vec![(20, 20), (8, 5), (8, 2)], 5 + 2 + 3),
        ("double-total", vec![(20, 20), (8, 5)], 2 * (5 + 3)),
        ("max-plus-roll", vec![(20, 20), (8, 5)], 8 + 5 + 3),
        ("none", vec![(20, 20), (8, 5)], 5 + 3),
    ] {
        let enc = duel(&format!("crit = \"{option}\""), SWORD, "", "");
        let (r, _) = swing(&enc, &rolls);
        assert!(r.crit, "{option}");
        assert_eq!(r.damage, damage, "{option}");
    }
}

#[test]
fn natural_one_and_twenty_options() {
    let sure = "attack = 30\ndamage = \"1d4\"";
    let (r, _) = swing(&duel("", sure, "", ""), &[(20, 1)]);
    assert!(!r.hit, "a natural 1 misses by default, whatever the bonus");
    let (r, _) = swing(
        &duel("nat1_misses = false", sure, "", ""),
        &[(20, 1), (4, 2)],
    );
    assert!(r.hit);

    let hopeless = "attack = -20\ndamage = \"1d4\"";
    let (r, _) = swing(&duel("", hopeless, "", ""), &[(20, 20), (4, 1), (4, 1)]);
    assert!(r.hit && r.crit, "a natural 20 hits and crits by default");
    let (r, _) = swing(&duel("nat20_hits = false", hopeless, "", ""), &[(20, 20)]);
    assert!(!r.hit && !r.crit);
    // "Critical Successes and Critical Failures" is cut off, so what a
    // natural 20 does is the options' business; `nat20_hits` is about
    // hitting only: with it off, a natural 20 that hits anyway (20 + 5 vs
    // AC 16) is still a critical (1d8 twice + 3), as in `osr` and
    // `escalation`.
    let (r, _) = swing(
        &duel("nat20_hits = false", SWORD, "", ""),
        &[(20, 20), (8, 3), (8, 2)],
    );
    assert!(r.hit && r.crit);
    assert_eq!(r.damage, 8);
}

#[test]
fn proficiency_adds_to_attacks_only_with_the_option() {
    let (r, _) = swing(&duel("", SWORD, "", ""), &[(20, 9)]);
    assert_eq!(r.total, 14);
    let (r, _) = swing(
        &duel("proficiency_on_attacks = true", SWORD, "", ""),
        &[(20, 9), (8, 1)],
    );
    assert_eq!(r.total, 16);
    assert!(r.hit);
}

#[test]
fn hits_on_paralyzed_or_unconscious_targets_within_5_m_are_crits() {
    // "Paralyzed" and "Unconscious": "Attack rolls against the creature have
    // advantage"; "Any attack that hits the creature is a critical hit if
    // the attacker is within 5m of the creature."
    for cond in ["paralyzed", "unconscious"] {
        let entry = format!("conditions = [\"{cond}\"]");
        // Advantage (two d20, keep 12): 12 + 5 hits and, within 5 m, crits.
        let (r, _) = swing(
            &duel("", SWORD, "", &entry),
            &[(20, 12), (20, 3), (8, 4), (8, 4)],
        );
        assert!(r.hit && r.crit, "{cond}");
        assert_eq!(r.damage, 11);
    }
    // From 10 m with a rifle: no automatic crit. Paralyzed: advantage (two
    // d20, keep 12).
    let far = "conditions = [\"paralyzed\"], distance = 10";
    let (r, _) = swing(&duel("", RIFLE, "", far), &[(20, 12), (20, 3), (10, 4)]);
    assert!(r.hit && !r.crit, "paralyzed at 10 m");
    // Unconscious: the creature "falls prone", and "Prone": an attack from
    // beyond 5 m "has disadvantage". Advantage and disadvantage cancel
    // ("Advantage/Disadvantage"): one d20.
    let far = "conditions = [\"unconscious\"], distance = 10";
    let (r, _) = swing(&duel("", RIFLE, "", far), &[(20, 12), (10, 4)]);
    assert!(r.hit && !r.crit, "unconscious at 10 m");
    assert_eq!(r.natural, 12);
    // Stunned: advantage but no automatic crit.
    let (r, _) = swing(
        &duel("", SWORD, "", "conditions = [\"stunned\"]"),
        &[(20, 12), (20, 3), (8, 4)],
    );
    assert!(r.hit && !r.crit);
}

#[test]
fn blinded_attackers() {
    let blind = "conditions = [\"blinded\"]";
    // Melee: disadvantage.
    let (r, _) = swing(&duel("", SWORD, blind, ""), &[(20, 15), (20, 4)]);
    assert_eq!(r.natural, 4);
    // Ranged within 10 m: no penalty.
    let near = format!("{blind}, distance = 10");
    let (r, _) = swing(&duel("", RIFLE, &near, ""), &[(20, 15), (10, 1)]);
    assert_eq!((r.natural, r.total), (15, 20));
    // Ranged beyond 10 m: disadvantage and −5.
    let far = format!("{blind}, distance = 11");
    let (r, _) = swing(&duel("", RIFLE, &far, ""), &[(20, 15), (20, 18)]);
    assert_eq!((r.natural, r.total), (15, 15));
    assert!(!r.hit);
    // Attacks against a blinded unit have advantage.
    let (r, _) = swing(&duel("", SWORD, "", blind), &[(20, 2), (20, 17), (8, 1)]);
    assert_eq!(r.natural, 17);
}

#[test]
fn prone_targets_are_easy_up_close_and_hard_from_afar() {
    let prone = "conditions = [\"prone\"]";
    let (r, _) = swing(&duel("", SWORD, "", prone), &[(20, 2), (20, 17), (8, 1)]);
    assert_eq!(r.natural, 17, "advantage within 5 m");
    let far = format!("{prone}, distance = 6");
    let (r, _) = swing(&duel("", RIFLE, "", &far), &[(20, 2), (20, 17)]);
    assert_eq!(r.natural, 2, "disadvantage beyond 5 m");
}

#[test]
fn exhaustion_levels() {
    let enc = encounter::<Trenches>(
        r#"
name = "t"
rules = "trenches"
[weapons.w]
attack = 5
damage = "1d4"
[units.tired]
hp = 30
exhaustion = 3
weapons = ["w"]
[units.spent]
hp = 31
exhaustion = 4
weapons = ["w"]
[units.gone]
hp = 30
exhaustion = 6
weapons = ["w"]
[sides.red]
tired = {}
gone = {}
[sides.blue]
spent = {}
"#,
    );
    let f = fight(&enc);
    // Level 4 halves HP (rounded down); level 6 is death: out from the start.
    assert_eq!(f.units[2].state.hp, 15);
    assert!(f.units[1].out && !f.units[0].out);
    assert_eq!(f.standing(0), 1);
    // Level 3: disadvantage on attacks.
    let mut f = fight(&enc);
    // (The target, `spent`, has AC 10: 6 + 5 still hits.)
    let mut dice = ScriptedDice::new(&[(20, 18), (20, 6), (4, 1)]);
    let weapon = enc.units[0].stats.weapons[0];
    let r = as_turn(&enc, &mut f, &mut dice, 0, |t| attack(t, 2, &weapon));
    assert_eq!(r.natural, 6);
    dice.assert_done();
}

#[test]
fn units_that_cannot_act_roll_nothing() {
    for cond in ["incapacitated", "paralyzed", "stunned", "unconscious"] {
        let entry = format!("conditions = [\"{cond}\"]");
        let enc = duel("", SWORD, &entry, "");
        let mut f = fight(&enc);
        let mut dice = ScriptedDice::new(&[]);
        as_turn(&enc, &mut f, &mut dice, 0, Trenches::take_turn);
        assert_eq!(f.counters[counter::ATTACKS], 0, "{cond}");
    }
}

#[test]
fn zero_hp_takes_a_unit_out_and_counts_only_hp_removed() {
    let enc = duel("", "attack = 5\ndamage = \"1d8+40\"", "", "");
    let (r, f) = swing(&enc, &[(20, 15), (8, 1)]);
    assert_eq!(r.damage, 41);
    assert_eq!(f.units[1].state.hp, 0);
    assert!(f.units[1].out);
    assert!(f.units[1].conditions.has(Condition::Unconscious));
    assert_eq!(f.damage[0], 30, "harm counts hit points removed");
    assert_eq!(f.counters[counter::DOWNED], 1);
    assert_eq!(f.standing(1), 0);
}

#[test]
fn a_fight_runs_to_a_winner_and_the_round_cap_is_a_draw() {
    let enc = duel(
        "initiative_ties = \"roster\"",
        "attack = 5\ndamage = \"1d8+40\"",
        "",
        "",
    );
    let mut f = Fight::new();
    // Initiative 10 v 5: a first, hits with 15, kills with any damage.
    let mut dice = ScriptedDice::new(&[(20, 10), (20, 5), (20, 15), (8, 1)]);
    assert_eq!(
        f.run(&enc, &mut dice),
        Outcome {
            winner: Some(0),
            rounds: 1
        }
    );
    dice.assert_done();

    let harmless = encounter::<Trenches>(
        r#"
name = "t"
rules = "trenches"
max_rounds = 3
[options]
initiative = "fixed"
initiative_ties = "roster"
[weapons.w]
attack = -20
damage = "1d4"
[units.a]
hp = 5
weapons = ["w"]
[sides.red]
a = {}
[sides.blue]
a = {}
"#,
    );
    // Three rounds of two misses each (fixed order rolls nothing).
    let mut dice = ScriptedDice::new(&[(20, 5); 6]);
    assert_eq!(
        f.run(&harmless, &mut dice),
        Outcome {
            winner: None,
            rounds: 3
        }
    );
    dice.assert_done();
}

#[test]
fn team_alternating_activation_and_side_initiative() {
    let text = |scheme: &str| {
        format!(
            r#"
name = "t"
rules = "trenches"
[options]
initiative = "{scheme}"
initiative_ties = "roster"
[weapons.w]
damage = "1d4"
[units.a]
hp = 5
weapons = ["w"]
[sides.red]
a = {{ count = 1 }}
[sides.blue]
a = {{ count = 3 }}
"#
        )
    };
    // Alternating: each side's units in rolled order (blue: 2, 3, 1), red
    // first; red runs out after one activation and blue finishes.
    let enc = encounter::<Trenches>(&text("alternating"));
    let mut f = fight(&enc);
    f.make_order(
        &enc,
        &mut ScriptedDice::new(&[(20, 1), (20, 5), (20, 15), (20, 10)]),
    );
    assert_eq!(f.turn_order(), &[2, 3, 1, 0]);
    // Side initiative: one roll per side (its first unit's); blue wins 12 v 4
    // and all of blue acts, in roster order, before red.
    let enc = encounter::<Trenches>(&text("side"));
    let mut f = fight(&enc);
    f.make_order(&enc, &mut ScriptedDice::new(&[(20, 4), (20, 12)]));
    assert_eq!(f.turn_order(), &[1, 2, 3, 0]);
}

#[test]
fn targeting_policies() {
    let text = |policy: &str| {
        format!(
            r#"
name = "t"
rules = "trenches"
[weapons.w]
attack = 50
damage = "1d4"
[units.a]
hp = 10
weapons = ["w"]
[sides.red]
a = {{ target = "{policy}" }}
[sides.blue]
a = {{ count = 3 }}
"#
        )
    };
    let hurt = |f: &mut Fight<Trenches>| {
        f.units[1].state.hp = 9;
        f.units[2].state.hp = 3;
        f.units[3].state.hp = 6;
    };
    // Weakest: unit 2 (3/10), no tie, no roll for the choice.
    let enc = encounter::<Trenches>(&text("weakest"));
    let mut f = fight(&enc);
    hurt(&mut f);
    let mut dice = ScriptedDice::new(&[]);
    assert_eq!(
        as_turn(&enc, &mut f, &mut dice, 0, |t| t.choose_target(|_, _| true)),
        Some(2)
    );
    let enc = encounter::<Trenches>(&text("strongest"));
    let mut f = fight(&enc);
    hurt(&mut f);
    assert_eq!(
        as_turn(&enc, &mut f, &mut dice, 0, |t| t.choose_target(|_, _| true)),
        Some(1)
    );
    // Random: one d3 among three candidates.
    let enc = encounter::<Trenches>(&text("random"));
    let mut f = fight(&enc);
    let mut dice = ScriptedDice::new(&[(3, 2)]);
    assert_eq!(
        as_turn(&enc, &mut f, &mut dice, 0, |t| t.choose_target(|_, _| true)),
        Some(2)
    );
    // Focus: picks at random once, then sticks to it while it stands.
    let enc = encounter::<Trenches>(&text("focus"));
    let mut f = fight(&enc);
    let mut dice = ScriptedDice::new(&[(3, 3)]);
    assert_eq!(
        as_turn(&enc, &mut f, &mut dice, 0, |t| t.choose_target(|_, _| true)),
        Some(3)
    );
    assert_eq!(
        as_turn(&enc, &mut f, &mut dice, 0, |t| t.choose_target(|_, _| true)),
        Some(3)
    );
    dice.assert_done();
    // Targets the rules forbid are never chosen.
    let mut dice = ScriptedDice::new(&[]);
    assert_eq!(
        as_turn(&enc, &mut f, &mut dice, 0, |t| t
            .choose_target(|_, i| i == 1)),
        Some(1)
    );
}

/// Fraction of `n` trials for which `trial` is true, with fixed-seed dice.
fn rate(n: u32, trial: impl FnMut(&mut RngDice) -> bool) -> f64 {
    crate::testkit::rate(n, 99, trial)
}

#[test]
fn statistically_plus_5_vs_ac_16_hits_half_the_time_and_three_quarters_with_advantage() {
    const N: u32 = 200_000;
    let enc = duel("", SWORD, "", "");
    let weapon = enc.units[0].stats.weapons[0];
    let mut f = fight(&enc);
    let plain = rate(N, |dice| {
        f.reset(&enc);
        as_turn(&enc, &mut f, dice, 0, |t| attack(t, 1, &weapon)).hit
    });
    assert!(
        (plain - 0.5).abs() < four_se(0.5, N),
        "P(hit) = {plain}, exactly 1/2"
    );

    let enc = duel("", SWORD, "", "conditions = [\"restrained\"]");
    let with_advantage = rate(N, |dice| {
        f.reset(&enc);
        as_turn(&enc, &mut f, dice, 0, |t| attack(t, 1, &weapon)).hit
    });
    assert!(
        (with_advantage - 0.75).abs() < four_se(0.75, N),
        "P(hit | advantage) = {with_advantage}, exactly 3/4"
    );
}

#[test]
fn statistically_one_swing_of_1d8_plus_3_averages_159_over_40() {
    // Hits on 11..=19 (9/20) for 1d8+3 (mean 7.5, E[X²] 61.5) and crits on
    // 20 (1/20) for 2d8+3 (mean 12, E[X²] 154.5): mean 159/40 = 3.975,
    // variance 35.4 − 3.975² ≈ 19.60.
    const N: u32 = 200_000;
    let enc = duel("", SWORD, "", "");
    let weapon = enc.units[0].stats.weapons[0];
    let mut f = fight(&enc);
    let mut dice = RngDice::for_batch(7, 0);
    let mut total = 0i64;
    for _ in 0..N {
        f.reset(&enc);
        total += as_turn(&enc, &mut f, &mut dice, 0, |t| attack(t, 1, &weapon)).damage as i64;
    }
    let mean = total as f64 / N as f64;
    let se = (35.4f64 - 3.975 * 3.975).sqrt() / (N as f64).sqrt();
    assert!(
        (mean - 159.0 / 40.0).abs() < 4.0 * se,
        "mean damage {mean}, exactly 3.975"
    );
}

// ---- The battlefield: movement, tactics, reach and range, reactions ----

/// A red `a` (unit 0) against blue `b` (unit 1) with custom entries and
/// weapons; `a` has `a_weapons`, `b` has `b_weapons`.
fn field(
    opts: &str,
    a_weapons: &str,
    a_entry: &str,
    b_weapons: &str,
    b_entry: &str,
    a_extra: &str,
) -> Encounter<Trenches> {
    encounter(&format!(
        r#"
name = "t"
rules = "trenches"
[options]
{opts}
[weapons.bayonet]
attack = 5
damage = "1d6+2"
[weapons.rifle]
kind = "firearm"
attack = 5
damage = "1d10+2"
[weapons.pistol]
kind = "firearm"
attack = 5
damage = "1d8"
range = 50
[units.a]
hp = 30
weapons = [{a_weapons}]
{a_extra}
[units.b]
hp = 30
endurance = 3
armor = 3
weapons = [{b_weapons}]
[sides.red]
a = {{ {a_entry} }}
[sides.blue]
b = {{ {b_entry} }}
"#
    ))
}

/// Distance between units 0 and 1.
fn gap(f: &Fight<Trenches>) -> i32 {
    (f.units[0].position - f.units[1].position).abs()
}

/// Unit `actor` plays one turn with `rolls`; all rolls must be used.
fn play(enc: &Encounter<Trenches>, f: &mut Fight<Trenches>, actor: usize, rolls: &[(u32, u32)]) {
    let mut dice = ScriptedDice::new(rolls);
    as_turn(enc, f, &mut dice, actor, Trenches::take_turn);
    dice.assert_done();
}

#[test]
fn the_default_tactic_follows_the_weapons() {
    let enc = field("", "\"bayonet\"", "", "\"rifle\", \"bayonet\"", "", "");
    assert_eq!(enc.units[0].tactic, Tactic::Advance);
    assert_eq!(enc.units[1].tactic, Tactic::Hold);
}

#[test]
fn advancing_units_move_30_m_and_sprint_when_nothing_reaches() {
    let enc = field("", "\"bayonet\"", "distance = 60", "\"rifle\"", "", "");
    let mut f = fight(&enc);
    // 60 m away: move 30, still 30 away, no firearm: Sprint another 25 m,
    // stopping at 5 m reach. No dice.
    play(&enc, &mut f, 0, &[]);
    assert_eq!(gap(&f), 5);
    assert_eq!(f.counters[counter::SPRINTS], 1);
    // Next turn: already in reach, attack (hit 11 + 5 vs AC 16, 1d6+2).
    play(&enc, &mut f, 0, &[(20, 11), (6, 3)]);
    assert_eq!(f.units[1].state.hp, 25);
    assert_eq!(f.counters[counter::SPRINTS], 1);
}

#[test]
fn advancing_units_attack_after_moving_into_reach() {
    let enc = field("", "\"bayonet\"", "distance = 20", "\"rifle\"", "", "");
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(20, 15), (6, 1)]);
    assert_eq!(gap(&f), 5);
    assert_eq!(f.counters[counter::ATTACKS], 1);
    // Out of reach after a full move (40 m): no attack, sprint closes in.
    let enc = field("", "\"bayonet\"", "distance = 65", "\"rifle\"", "", "");
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[]);
    assert_eq!(gap(&f), 5);
}

#[test]
fn advancing_riflemen_shoot_on_the_way() {
    let enc = field(
        "",
        "\"pistol\", \"bayonet\"",
        "distance = 80, tactic = \"advance\"",
        "\"rifle\"",
        "",
        "",
    );
    let mut f = fight(&enc);
    // Move 30 to 50 m: the pistol (range 50) reaches; shoot instead of sprinting.
    play(&enc, &mut f, 0, &[(20, 2)]);
    assert_eq!(gap(&f), 50);
    assert_eq!(f.counters[counter::SPRINTS], 0);
    assert_eq!(f.counters[counter::ATTACKS], 1);
}

#[test]
fn advancing_shooters_close_to_melee_reach_though_their_gun_already_reaches() {
    // README, "The battlefield": advance "closes to melee reach, attacks
    // once in reach; on the way it shoots" (issue 30: an advancing unit
    // whose only weapon already reaches still closes in). A pistol (range
    // 50) at 40 m: move 30 m to 10 m, then shoot; next turn 5 m more, to
    // melee reach (5 m), and shoot again; then stay there.
    let enc = field(
        "",
        "\"pistol\"",
        "distance = 40, tactic = \"advance\"",
        "\"rifle\"",
        "",
        "",
    );
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(20, 2)]);
    assert_eq!(gap(&f), 10);
    assert_eq!(f.counters[counter::ATTACKS], 1);
    assert_eq!(f.counters[counter::SPRINTS], 0);
    play(&enc, &mut f, 0, &[(20, 2)]);
    assert_eq!(gap(&f), 5);
    play(&enc, &mut f, 0, &[(20, 2)]);
    assert_eq!(gap(&f), 5);
    assert_eq!(f.counters[counter::ATTACKS], 3);
}

#[test]
fn weapons_need_reach_or_range() {
    // A pistol (range 50) cannot reach 60 m: a holding unit does nothing.
    let enc = field("", "\"pistol\"", "distance = 60", "\"rifle\"", "", "");
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[]);
    assert_eq!(f.counters[counter::ATTACKS], 0);
    // At 50 m it shoots.
    let enc = field("", "\"pistol\"", "distance = 50", "\"rifle\"", "", "");
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(20, 2)]);
    assert_eq!(f.counters[counter::ATTACKS], 1);
    // A bayonet reaches 5 m and no further; holding at 6 m, nothing.
    let enc = field(
        "",
        "\"bayonet\"",
        "distance = 6, tactic = \"hold\"",
        "\"rifle\"",
        "",
        "",
    );
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[]);
    assert_eq!(f.counters[counter::ATTACKS], 0);
}

#[test]
fn backing_off_provokes_attacks_of_opportunity_once_per_round() {
    // Red keeps range with a rifle; blue stands next to it with a bayonet.
    let enc = field(
        "",
        "\"rifle\"",
        "tactic = \"keep-range\"",
        "\"bayonet\"",
        "",
        "",
    );
    let mut f = fight(&enc);
    // Red backs off 30 m: blue's attack of opportunity (d20 12 + 5 = 17 vs
    // AC 10: hit, 1d6+2 with a 4), then red shoots from 30 m (miss on 2).
    play(&enc, &mut f, 0, &[(20, 12), (6, 4), (20, 2)]);
    assert_eq!(gap(&f), 30);
    assert_eq!(f.units[0].state.hp, 24);
    assert_eq!(f.counters[counter::OPPORTUNITY], 1);
    assert!(f.units[1].state.reacted);
    // Blue's reaction is spent until its own turn: a second escape in the
    // same round draws no attack.
    f.units[0].position = f.units[1].position;
    play(&enc, &mut f, 0, &[(20, 2)]);
    assert_eq!(f.counters[counter::OPPORTUNITY], 1);
    // Blue's turn restores its reaction (it advances 25 m and attacks).
    f.units[0].position = f.units[1].position - 30;
    play(&enc, &mut f, 1, &[(20, 2)]);
    assert!(!f.units[1].state.reacted);
}

#[test]
fn attacks_of_opportunity_with_any_weapon_unless_the_option_says_melee() {
    // "Attacks of opportunity": the mover exposes itself "to an easy attack
    // by whoever they might be in combat with"; the text names no weapon,
    // so by default a rifleman shoots the unit that backs away from him
    // (12 + 5 vs AC 10: hit, 1d10+2 with a 4); red then shoots back (2).
    let enc = field(
        "",
        "\"rifle\"",
        "tactic = \"keep-range\"",
        "\"rifle\"",
        "",
        "",
    );
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(20, 12), (10, 4), (20, 2)]);
    assert_eq!(f.counters[counter::OPPORTUNITY], 1);
    assert_eq!(f.units[0].state.hp, 24);
    // `opportunity_weapons = "melee"` (the 5e habit): no melee weapon, no
    // attack of opportunity.
    let enc = field(
        "opportunity_weapons = \"melee\"",
        "\"rifle\"",
        "tactic = \"keep-range\"",
        "\"rifle\"",
        "",
        "",
    );
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(20, 2)]);
    assert_eq!(f.counters[counter::OPPORTUNITY], 0);
    // "Incapacitated" (stunned includes it): no reactions.
    let enc = field(
        "",
        "\"rifle\"",
        "tactic = \"keep-range\"",
        "\"bayonet\"",
        "conditions = [\"stunned\"]",
        "",
    );
    let mut f = fight(&enc);
    // (Red's shot at the stunned unit has advantage: two d20.)
    play(&enc, &mut f, 0, &[(20, 2), (20, 3)]);
    assert_eq!(f.counters[counter::OPPORTUNITY], 0);
}

#[test]
fn flanked_means_two_enemies_within_reach() {
    let enc = encounter::<Trenches>(
        r#"
name = "t"
rules = "trenches"
[weapons.w]
damage = "1d4"
[units.a]
hp = 5
weapons = ["w"]
[sides.red]
a = { count = 2 }
[sides.blue]
a = { distance = 0 }
"#,
    );
    let mut f = fight(&enc);
    let mut dice = ScriptedDice::new(&[]);
    assert!(as_turn(&enc, &mut f, &mut dice, 0, |t| t.flanked(2, REACH)));
    f.units[1].position = -6;
    assert!(!as_turn(&enc, &mut f, &mut dice, 0, |t| t.flanked(2, REACH)));
}

#[test]
fn speed_conditions_and_terrain() {
    let opts = Options::default();
    let base = encounter::<Trenches>(
        "name = \"t\"\nrules = \"trenches\"\n[weapons.w]\ndamage = \"1d4\"\n[units.a]\nhp = 5\nweapons = [\"w\"]\n[sides.r]\na = {}\n[sides.b]\na = {}\n",
    )
    .units[0]
        .stats;
    let c = |cs: &[Condition]| cs.iter().copied().collect::<Conditions>();
    assert_eq!(speed(&base, c(&[]), &opts), 30);
    assert_eq!(speed(&base, c(&[Condition::Deafened]), &opts), 15);
    for rooted in [
        Condition::Grappled,
        Condition::Restrained,
        Condition::Paralyzed,
        Condition::Stunned,
        Condition::Unconscious,
    ] {
        assert_eq!(speed(&base, c(&[rooted]), &opts), 0, "{rooted:?}");
    }
    let rough = Options {
        difficult_terrain: true,
        ..opts
    };
    assert_eq!(speed(&base, c(&[]), &rough), 15);
    assert_eq!(
        speed(&base, c(&[Condition::Deafened]), &rough),
        7,
        "halved twice, rounded down"
    );
    let tired = Unit {
        exhaustion: 2,
        ..base
    };
    assert_eq!(speed(&tired, c(&[]), &opts), 15);
    let spent = Unit {
        exhaustion: 5,
        ..base
    };
    assert_eq!(speed(&spent, c(&[]), &opts), 0);
    let deaf_quarter = Options {
        deafened_speed_loss: 0.25,
        ..opts
    };
    assert_eq!(speed(&base, c(&[Condition::Deafened]), &deaf_quarter), 22);
}

#[test]
fn grappled_units_stay_put_and_frightened_units_do_not_close_in() {
    let enc = field(
        "",
        "\"bayonet\"",
        "distance = 20, conditions = [\"grappled\"]",
        "\"rifle\"",
        "",
        "",
    );
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[]);
    assert_eq!(gap(&f), 20);
    let enc = field(
        "",
        "\"bayonet\"",
        "distance = 20, conditions = [\"frightened\"]",
        "\"rifle\"",
        "",
        "",
    );
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[]);
    assert_eq!(gap(&f), 20);
    assert_eq!(f.counters[counter::SPRINTS], 0);
}

#[test]
fn prone_units_stand_up_for_half_their_movement() {
    let enc = field(
        "",
        "\"bayonet\"",
        "distance = 40, conditions = [\"prone\"]",
        "\"rifle\"",
        "",
        "",
    );
    let mut f = fight(&enc);
    // Stand (15 m of 30), move 15 to 25 m; Sprint adds the full 30: 5 m.
    play(&enc, &mut f, 0, &[]);
    assert!(!f.units[0].conditions.has(Condition::Prone));
    assert_eq!(gap(&f), 5);
    let enc = field(
        "stand_up_cost = 1.0",
        "\"bayonet\"",
        "distance = 40, conditions = [\"prone\"]",
        "\"rifle\"",
        "",
        "",
    );
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[]);
    assert_eq!(
        gap(&f),
        10,
        "standing took all movement; the sprint moved 30"
    );
}

#[test]
fn drop_prone_units_go_down_in_the_open_then_fight_from_the_ground() {
    let enc = field(
        "",
        "\"rifle\"",
        "distance = 40",
        "\"rifle\"",
        "",
        "drop_prone = true",
    );
    let mut f = fight(&enc);
    // First turn: the action is spent dropping prone.
    play(&enc, &mut f, 0, &[]);
    assert!(f.units[0].conditions.has(Condition::Prone));
    // Then it shoots prone: disadvantage (two d20, keep the lower).
    play(&enc, &mut f, 0, &[(20, 18), (20, 3)]);
    assert_eq!(f.counters[counter::ATTACKS], 1);
    // Enemy fire from beyond 5 m has disadvantage against it.
    // (Red has AC 10: a kept 4 + 5 misses.)
    let weapon = enc.units[1].stats.weapons[0];
    let mut dice = ScriptedDice::new(&[(20, 17), (20, 4)]);
    let r = as_turn(&enc, &mut f, &mut dice, 1, |t| attack(t, 0, &weapon));
    assert_eq!(r.natural, 4);
    // In cover, no need to drop.
    let enc = field(
        "",
        "\"rifle\"",
        "distance = 40, cover = \"half\"",
        "\"rifle\"",
        "",
        "drop_prone = true",
    );
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(20, 2)]);
    assert!(!f.units[0].conditions.has(Condition::Prone));
}

#[test]
fn keep_range_units_close_only_to_firing_range() {
    let enc = field(
        "",
        "\"pistol\"",
        "distance = 90, tactic = \"keep-range\"",
        "\"rifle\"",
        "",
        "",
    );
    let mut f = fight(&enc);
    // 90 m: pistol range 50, move 30 to 60 m, still out of range: no shot.
    play(&enc, &mut f, 0, &[]);
    assert_eq!(gap(&f), 60);
    // Next turn: move 10 to 50 m and shoot.
    play(&enc, &mut f, 0, &[(20, 2)]);
    assert_eq!(gap(&f), 50);
}

#[test]
fn death_saves_option() {
    let enc = field(
        "at_zero_hp = \"death-saves\"",
        "\"bayonet\"",
        "",
        "\"bayonet\"",
        "",
        "",
    );
    let mut f = fight(&enc);
    // Drop unit 1 to 0 HP.
    let weapon = enc.units[0].stats.weapons[0];
    f.units[1].state.hp = 3;
    let mut dice = ScriptedDice::new(&[(20, 15), (6, 6)]);
    as_turn(&enc, &mut f, &mut dice, 0, |t| attack(t, 1, &weapon));
    assert!(f.units[1].out && f.units[1].lingering);
    assert!(
        f.units[1].conditions.has(Condition::Unconscious)
            && f.units[1].conditions.has(Condition::Prone)
    );
    // Its turns are death saves: a 1 counts twice, a 5 once: dead.
    play(&enc, &mut f, 1, &[(20, 1)]);
    assert_eq!(f.units[1].state.failures, 2);
    play(&enc, &mut f, 1, &[(20, 5)]);
    assert!(!f.units[1].lingering);
    assert_eq!(f.counters[counter::DEATHS], 1);

    // A natural 20 brings it back with 1 HP, still prone.
    let mut f = fight(&enc);
    f.units[1].state.hp = 3;
    let mut dice = ScriptedDice::new(&[(20, 15), (6, 6)]);
    as_turn(&enc, &mut f, &mut dice, 0, |t| attack(t, 1, &weapon));
    play(&enc, &mut f, 1, &[(20, 12)]);
    assert_eq!(f.units[1].state.saves, 1);
    play(&enc, &mut f, 1, &[(20, 20)]);
    assert!(!f.units[1].out && !f.units[1].lingering);
    assert_eq!(f.units[1].state.hp, 1);
    assert_eq!(f.standing(1), 1);
    assert_eq!(f.counters[counter::REVIVED], 1);

    // Three successes: stable, out for good, no more rolls.
    let mut f = fight(&enc);
    f.units[1].state.hp = 3;
    let mut dice = ScriptedDice::new(&[(20, 15), (6, 6)]);
    as_turn(&enc, &mut f, &mut dice, 0, |t| attack(t, 1, &weapon));
    for _ in 0..3 {
        play(&enc, &mut f, 1, &[(20, 10)]);
    }
    assert!(f.units[1].out && !f.units[1].lingering);

    // By default a downed unit never rolls: it is out for good.
    let enc = field("", "\"bayonet\"", "", "\"bayonet\"", "", "");
    let mut f = fight(&enc);
    f.units[1].state.hp = 3;
    let mut dice = ScriptedDice::new(&[(20, 15), (6, 6)]);
    as_turn(&enc, &mut f, &mut dice, 0, |t| attack(t, 1, &weapon));
    assert!(f.units[1].out && !f.units[1].lingering);
}

#[test]
fn statistically_a_blinded_swordsman_hits_a_quarter_of_the_time() {
    // Disadvantage: both d20 must show 11+ (a natural 1 misses anyway):
    // (10/20)² = 1/4 exactly.
    const N: u32 = 200_000;
    let enc = duel("", SWORD, "conditions = [\"blinded\"]", "");
    let weapon = enc.units[0].stats.weapons[0];
    let mut f = fight(&enc);
    let p = rate(N, |dice| {
        f.reset(&enc);
        as_turn(&enc, &mut f, dice, 0, |t| attack(t, 1, &weapon)).hit
    });
    assert!(
        (p - 0.25).abs() < four_se(0.25, N),
        "P(hit | blinded) = {p}, exactly 1/4"
    );
}

#[test]
fn prone_fighters_crawl_at_half_speed_and_cannot_sprint() {
    // A drop_prone pistol unit keeping range, already down, 90 m out: it
    // crawls 15 m toward pistol range (50 m) and stays down.
    let enc = field(
        "",
        "\"pistol\"",
        "distance = 90, tactic = \"keep-range\", conditions = [\"prone\"]",
        "\"rifle\"",
        "",
        "drop_prone = true",
    );
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[]);
    assert_eq!(gap(&f), 75);
    assert!(f.units[0].conditions.has(Condition::Prone));
    assert_eq!(f.counters[counter::SPRINTS], 0);
}

// ---- Rules as written: movement, reactions, conditions ----

/// Red `s` (unit 0, a swordsman: AC 10 by default, 30 HP) against blue
/// `near` (unit 1) at the front line and `far` (unit 2) 20 m behind it,
/// both with bayonets (+5, 1d6+2) and holding. `s_entry` places red;
/// `opts` is the body of `[options]`.
fn two_deep(opts: &str, s_entry: &str) -> Encounter<Trenches> {
    let text = with_options(include_str!("../../../tests/fixtures/two_deep.toml"), opts);
    encounter(&text.replace("s = {}", &format!("s = {{ {s_entry} }}")))
}

#[test]
fn leaving_an_enemys_reach_provokes_whichever_way_the_unit_moves() {
    // "Attacks of opportunity": "Any creature within 5m of an enemy who
    // attempts to leave the 5m radius of that creature without disengaging
    // will take such an attack". Advancing counts as much as backing off.
    let enc = two_deep("", "distance = 5");
    let mut f = fight(&enc);
    // Red, 5 m from `near`, picks `far` (d2: 2) and advances 20 m, leaving
    // `near`'s 5 m: `near` attacks (12 + 5 vs AC 10, 1d6+2 with 4 = 6); red
    // then swings at `far` (a 2 misses).
    play(&enc, &mut f, 0, &[(2, 2), (20, 12), (6, 4), (20, 2)]);
    assert_eq!(f.counters[counter::OPPORTUNITY], 1);
    assert_eq!(f.units[0].state.hp, 24);
    assert_eq!(f.units[0].position, 15);
    assert!(f.units[1].state.reacted && !f.units[2].state.reacted);
    // Back toward `near` (d2: 1): leaving `far`'s 5 m provokes `far`.
    play(&enc, &mut f, 0, &[(2, 1), (20, 11), (6, 1), (20, 2)]);
    assert_eq!(f.counters[counter::OPPORTUNITY], 2);
    assert_eq!(f.units[0].position, 5);
    assert_eq!(f.units[0].state.hp, 21);

    // Closing on an enemy without leaving anyone's reach provokes nothing:
    // red 20 m out picks `near` (d2: 1), moves 15 m and swings (a 2).
    let enc = two_deep("", "distance = 20");
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(2, 1), (20, 2)]);
    assert_eq!(f.counters[counter::OPPORTUNITY], 0);
}

#[test]
fn passing_through_an_enemys_reach_provokes_only_with_the_option() {
    // "Combat Rounds", attacks of opportunity: "attacks taken when an
    // enemy, previously within melee distance, attempts to disengage by
    // turning their backs and fleeing the fight", from "whoever they might
    // be in combat with by being adjacent to them". A unit that only passes
    // through an enemy's 5 m was never in a fight with it to flee: red
    // starts 20 m out and charges `far` (d2: 2), past `near`: 30 m, to 10 m
    // beyond the line, and `near` does not attack; nothing reaches `far`,
    // so red sprints the last 5 m.
    let enc = two_deep("", "distance = 20");
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(2, 2)]);
    assert_eq!(f.counters[counter::OPPORTUNITY], 0);
    assert_eq!(f.counters[counter::SPRINTS], 1);
    assert_eq!(f.units[0].position, 15);
    assert!(!f.units[1].state.reacted);
    // `passing_provokes = true` (any creature within 5 m of a mover that
    // leaves its 5 m, however it came there): `near` attacks as red passes
    // (a 3 misses), then red sprints.
    let enc = two_deep("passing_provokes = true", "distance = 20");
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(2, 2), (20, 3)]);
    assert_eq!(f.counters[counter::OPPORTUNITY], 1);
    assert_eq!(f.counters[counter::SPRINTS], 1);
    assert_eq!(f.units[0].position, 15);
    assert!(f.units[1].state.reacted);
}

#[test]
fn prone_units_that_keep_range_pay_to_stand_before_backing_off() {
    // "Prone": "Choosing to stand from prone costs the creature ? of that
    // turn's movement speed" (the lost fraction: `stand_up_cost`, ½). A
    // prone rifleman next to a bayonet stands (15 m of 30) and backs off
    // the 15 m left; the bayonet's attack of opportunity misses (a 2) and
    // the rifleman shoots (a 2).
    let enc = field(
        "",
        "\"rifle\"",
        "tactic = \"keep-range\", conditions = [\"prone\"]",
        "\"bayonet\"",
        "",
        "",
    );
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(20, 2), (20, 2)]);
    assert!(!f.units[0].conditions.has(Condition::Prone));
    assert_eq!(gap(&f), 15, "standing took half the 30 m");
    assert_eq!(f.counters[counter::OPPORTUNITY], 1);
    // With standing free (`stand_up_cost = 0`) the whole 30 m is left.
    let enc = field(
        "stand_up_cost = 0.0",
        "\"rifle\"",
        "tactic = \"keep-range\", conditions = [\"prone\"]",
        "\"bayonet\"",
        "",
        "",
    );
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(20, 2), (20, 2)]);
    assert_eq!(gap(&f), 30);
}

#[test]
fn cover_is_left_behind_when_a_unit_moves_unless_carried() {
    // "Cover": cover is being "obscured by some form of cover": the trench,
    // foxhole or pillbox the unit stands in. A rifleman in half cover backs
    // away from an adjacent rifleman: the attack of opportunity is rolled
    // "as they left", in the open: 6 + 5 = 11 hits AC 10 (1d10+2 with a 1)
    // but would miss AC 12 behind the cover.
    let entry = "tactic = \"keep-range\", cover = \"half\"";
    let enc = field("", "\"rifle\"", entry, "\"rifle\"", "", "");
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(20, 6), (10, 1), (20, 2)]);
    assert_eq!(f.units[0].state.hp, 27);
    assert_eq!(f.units[0].cover, Cover::None);
    // Back on its starting position, the unit is in its cover again.
    let mut dice = ScriptedDice::new(&[]);
    as_turn(&enc, &mut f, &mut dice, 0, |t| {
        stride::<_, _, false>(t, |s| s.approach(1, 30, 0))
    });
    assert_eq!(f.units[0].cover, Cover::Half);
    // `cover_when_moving = "carried"`: the same 11 misses AC 12.
    let enc = field(
        "cover_when_moving = \"carried\"",
        "\"rifle\"",
        entry,
        "\"rifle\"",
        "",
        "",
    );
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(20, 6), (20, 2)]);
    assert_eq!(f.units[0].state.hp, 30);
    assert_eq!(f.units[0].cover, Cover::Half);
}

#[test]
fn a_unit_that_starts_unconscious_is_prone() {
    // "Unconscious": "The creature drops whatever it's holding and falls
    // prone." A scenario's unconscious unit starts prone, as does a unit
    // knocked to 0 HP (see `zero_hp_takes_a_unit_out_and_counts_only_hp_removed`).
    let enc = duel("", SWORD, "", "conditions = [\"unconscious\"]");
    let f = fight(&enc);
    assert!(f.units[1].conditions.has(Condition::Prone));
    assert!(!f.units[0].conditions.has(Condition::Prone));
    let enc = duel("", SWORD, "", "conditions = [\"paralyzed\"]");
    assert!(!fight(&enc).units[1].conditions.has(Condition::Prone));
}

#[test]
fn incapacitated_units_move_but_take_no_action() {
    // "Incapacitated": "can't take actions, reactions, or special actions";
    // the text does not stop it moving (paralyzed, stunned and unconscious
    // units "can't move": `units_that_cannot_act_roll_nothing`). An
    // incapacitated bayonet 60 m out advances its 30 m, but neither attacks
    // nor sprints (an action).
    let entry = "distance = 60, conditions = [\"incapacitated\"]";
    let enc = field("", "\"bayonet\"", entry, "\"rifle\"", "", "");
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[]);
    assert_eq!(gap(&f), 30);
    assert_eq!(f.counters[counter::SPRINTS], 0);
    // In reach, it does not attack.
    let entry = "conditions = [\"incapacitated\"]";
    let enc = field("", "\"bayonet\"", entry, "\"rifle\"", "", "");
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[]);
    assert_eq!(f.counters[counter::ATTACKS], 0);
    // Keeping range, it backs away (provoking: a 2 misses) but does not shoot.
    let entry = "tactic = \"keep-range\", conditions = [\"incapacitated\"]";
    let enc = field("", "\"rifle\"", entry, "\"bayonet\"", "", "");
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(20, 2)]);
    assert_eq!(gap(&f), 30);
    assert_eq!(f.counters[counter::ATTACKS], 1, "only the reaction");
    // Nor does it react: an incapacitated bayonet lets red back off freely.
    let enc = field(
        "",
        "\"rifle\"",
        "tactic = \"keep-range\"",
        "\"bayonet\"",
        "conditions = [\"incapacitated\"]",
        "",
    );
    let mut f = fight(&enc);
    // (Red's shot has no advantage: incapacitated alone gives none.)
    play(&enc, &mut f, 0, &[(20, 2)]);
    assert_eq!(f.counters[counter::OPPORTUNITY], 0);
}

#[test]
fn under_alternating_activation_a_member_who_cannot_act_costs_no_activation() {
    // "Incapacitated" (and stunned, paralyzed, unconscious, which include
    // it): no actions. Under `initiative = "alternating"` red's first
    // activation goes to `ready` (d4 knife), not to the higher-initiative
    // member who cannot act; blue's `foe` (d6 club) answers; the member who
    // cannot act has its turn last (an incapacitated one walks 15 m closer,
    // no dice). Had it taken red's activation, the club's d6 would come
    // before the knife's d4 and the script would fail.
    for cond in ["stunned", "incapacitated", "paralyzed", "unconscious"] {
        let enc = encounter::<Trenches>(&format!(
            r#"
name = "t"
rules = "trenches"
max_rounds = 1
[options]
initiative = "alternating"
initiative_ties = "roster"
[weapons.knife]
attack = 5
damage = "1d4"
[weapons.club]
attack = 5
damage = "1d6"
[units.dazed]
hp = 10
dex = 5
weapons = ["knife"]
[units.ready]
hp = 10
weapons = ["knife"]
[units.foe]
hp = 20
weapons = ["club"]
[sides.red]
dazed = {{ distance = 20, conditions = ["{cond}"] }}
ready = {{}}
[sides.blue]
foe = {{ tactic = "hold" }}
"#
        ));
        let mut f = Fight::new();
        let mut dice = ScriptedDice::new(&[
            (20, 10),
            (20, 10),
            (20, 10),
            (20, 15),
            (4, 1),
            (20, 15),
            (6, 1),
        ]);
        f.run(&enc, &mut dice);
        dice.assert_done();
        assert_eq!(f.turn_order(), &[0, 1, 2], "{cond}");
        assert_eq!(f.units[2].state.hp, 19, "{cond}: ready's knife");
        assert_eq!(f.units[1].state.hp, 9, "{cond}: foe's club");
        let left = if cond == "incapacitated" { 5 } else { 20 };
        assert_eq!(-f.units[0].position, left, "{cond}: metres from the line");
    }
}

// ---- Statistical checks of whole fights against exact probabilities ----

/// The distribution of a sum of `n` dice with `sides` faces plus `bonus`:
/// `p[v]` is the probability of total `v` (totals are non-negative here).
fn dice_sum(n: u32, sides: u32, bonus: usize) -> Vec<f64> {
    let mut p = vec![1.0];
    for _ in 0..n {
        let mut next = vec![0.0; p.len() + sides as usize];
        for (v, &q) in p.iter().enumerate() {
            for face in 1..=sides as usize {
                next[v + face] += q / sides as f64;
            }
        }
        p = next;
    }
    let mut shifted = vec![0.0; bonus];
    shifted.extend(p);
    shifted
}

/// Add `w` times the distribution `d` into `into` (a mixture).
fn mix(into: &mut Vec<f64>, d: &[f64], w: f64) {
    if into.len() < d.len() {
        into.resize(d.len(), 0.0);
    }
    for (v, &q) in d.iter().enumerate() {
        into[v] += w * q;
    }
}

/// The distribution of the sum of `rounds` independent draws from `per`.
fn total_over(per: &[f64], rounds: u32) -> Vec<f64> {
    let mut total = vec![1.0];
    for _ in 0..rounds {
        let mut next = vec![0.0; total.len() + per.len()];
        for (a, &p) in total.iter().enumerate() {
            for (b, &q) in per.iter().enumerate() {
                next[a + b] += p * q;
            }
        }
        total = next;
    }
    total
}

/// P(X ≥ k) for X ~ Binomial(n, p).
fn binomial_at_least(n: u32, p: f64, k: u32) -> f64 {
    let choose = |n: u32, k: u32| (1..=k).fold(1.0, |c, i| c * (n - k + i) as f64 / i as f64);
    (k..=n)
        .map(|j| choose(n, j) * p.powi(j as i32) * (1.0 - p).powi((n - j) as i32))
        .sum()
}

/// A red attacker (unit 0) against a blue target (unit 1, AC 16, `hp`)
/// who starts unconscious, for `rounds` rounds; `red` is red's entry.
fn helpless_target(weapon: &str, red: &str, hp: u32, rounds: u32) -> Encounter<Trenches> {
    encounter(&format!(
        r#"
name = "t"
rules = "trenches"
max_rounds = {rounds}
[weapons.w]
{weapon}
[units.a]
hp = 30
weapons = ["w"]
[units.b]
hp = {hp}
endurance = 3
armor = 3
weapons = ["w"]
[sides.red]
a = {{ {red} }}
[sides.blue]
b = {{ conditions = ["unconscious"] }}
"#
    ))
}

const TRIALS: u32 = 100_000;

#[test]
fn statistically_an_unconscious_target_in_melee_falls_as_the_crits_add_up() {
    // "Unconscious": attacks against it have advantage and every hit from
    // within 5 m is a critical. A swordsman (+5, 1d8+3) against an
    // unconscious target (AC 16, 30 HP) for three rounds: each swing hits
    // unless both d20 show 10 or less, 1 − (10/20)² = 3/4, and every hit is
    // a crit, 2d8+3 (at most 19: two hits at least are needed). The target
    // never acts, so the fight is three independent swings: P(down) =
    // P(sum of three swings ≥ 30), each swing 0 with 1/4 and 2d8+3 with 3/4.
    let mut per = vec![0.25];
    mix(&mut per, &dice_sum(2, 8, 3), 0.75);
    let exact: f64 = total_over(&per, 3)[30..].iter().sum();
    let enc = helpless_target(SWORD, "", 30, 3);
    let got = crate::testkit::fight_rate(&enc, TRIALS, 11, |f, _| f.units[1].out);
    crate::testkit::assert_within_four_se("unconscious target, melee", got, exact, TRIALS);
}

#[test]
fn statistically_an_unconscious_target_shot_from_10_m_gives_no_edge() {
    // "Unconscious": advantage against it, and it "falls prone"; "Prone":
    // from beyond 5 m, disadvantage. The two cancel ("Advantage/
    // Disadvantage"): a rifleman (+5, 1d10+2) 10 m away hits AC 16 on a
    // plain 11+ (1/2); no automatic crit beyond 5 m, only the natural 20
    // (1/20: 2d10+2). A target of 12 HP, two rounds: P(down) = P(two shots
    // total ≥ 12), each shot 0 with 10/20, 1d10+2 with 9/20, 2d10+2 with
    // 1/20. (With the advantage the prone rule cancels, it would be 3/4 a
    // shot.)
    let mut per = vec![0.5];
    mix(&mut per, &dice_sum(1, 10, 2), 9.0 / 20.0);
    mix(&mut per, &dice_sum(2, 10, 2), 1.0 / 20.0);
    let exact: f64 = total_over(&per, 2)[12..].iter().sum();
    let enc = helpless_target(RIFLE, "distance = 10", 12, 2);
    let got = crate::testkit::fight_rate(&enc, TRIALS, 12, |f, _| f.units[1].out);
    crate::testkit::assert_within_four_se("unconscious target, 10 m", got, exact, TRIALS);
}

#[test]
fn statistically_charging_past_an_enemy_provokes_it() {
    // "Attacks of opportunity": leaving an enemy's 5 m provokes, whichever
    // way. Red (AC 16, 9 HP, acts first: fixed initiative) stands 5 m from
    // blue `near`; blue `far` is 20 m behind it. Both blues hold with
    // bayonets (+5: a hit on 11+, 1/2; 4 damage, so three hits drop red)
    // and never fall (1000 HP). Each turn red picks one of the two at
    // random (1/2) and, if it is not the one beside it, charges over to it,
    // leaving the other's 5 m: an attack of opportunity. Then whichever
    // blue is beside red attacks on its turn. So over three rounds red
    // takes 3 + M attacks, M ~ Binomial(3, 1/2) moves, and
    // P(red down) = Σ_m C(3,m)/8 · P(Binomial(3 + m, 1/2) ≥ 3) = 103/256
    // (without the attacks of opportunity it would be 1/8).
    let enc = encounter::<Trenches>(
        r#"
name = "t"
rules = "trenches"
max_rounds = 3
[options]
initiative = "fixed"
[weapons.sword]
attack = 5
damage = "1d4"
[weapons.bayonet]
attack = 5
damage = "4"
[units.s]
hp = 9
dex = 5
endurance = 3
armor = 3
weapons = ["sword"]
[units.near]
hp = 1000
dex = 1
weapons = ["bayonet"]
[units.far]
hp = 1000
weapons = ["bayonet"]
[sides.red]
s = { distance = 5 }
[sides.blue]
near = { tactic = "hold" }
far = { distance = 20, tactic = "hold" }
"#,
    );
    let exact: f64 = (0..=3)
        .map(|m| {
            let ways = [1.0, 3.0, 3.0, 1.0][m as usize];
            ways / 8.0 * binomial_at_least(3 + m, 0.5, 3)
        })
        .sum();
    assert!((exact - 103.0 / 256.0).abs() < 1e-12);
    let got = crate::testkit::fight_rate(&enc, TRIALS, 13, |f, _| f.units[0].out);
    crate::testkit::assert_within_four_se("charging past", got, exact, TRIALS);
}

#[test]
fn statistically_backing_out_of_a_trench_costs_the_cover_and_draws_fire() {
    // "Attacks of opportunity" and "Cover". Red (AC 16, 9 HP, half cover,
    // keep-range, acts first) starts beside a blue rifleman (+5, 4 damage,
    // never falls). Red's first turn backs off 30 m: blue shoots it as it
    // leaves (any weapon: `opportunity_weapons = "any"`), and red has left
    // its cover behind (`cover_when_moving = "left-behind"`): AC 16, a hit
    // on 11+, 1/2. Then blue shoots once a round. Over three rounds red
    // takes four shots: P(down) = P(Binomial(4, 1/2) ≥ 3) = 5/16. With the
    // cover carried, every shot faces AC 18 (a hit on 13+, 2/5):
    // P(Binomial(4, 2/5) ≥ 3).
    let text = |opts: &str| {
        format!(
            r#"
name = "t"
rules = "trenches"
max_rounds = 3
[options]
initiative = "fixed"
{opts}
[weapons.rifle]
kind = "firearm"
attack = 5
damage = "4"
[weapons.popgun]
kind = "firearm"
damage = "1d4"
[units.r]
hp = 9
dex = 5
endurance = 3
armor = 3
weapons = ["popgun"]
[units.e]
hp = 1000
weapons = ["rifle"]
[sides.red]
r = {{ tactic = "keep-range", cover = "half" }}
[sides.blue]
e = {{ tactic = "hold" }}
"#
        )
    };
    for (opts, exact) in [
        ("", binomial_at_least(4, 0.5, 3)),
        (
            "cover_when_moving = \"carried\"",
            binomial_at_least(4, 0.4, 3),
        ),
    ] {
        let enc = encounter::<Trenches>(&text(opts));
        let got = crate::testkit::fight_rate(&enc, TRIALS, 14, |f, _| f.units[0].out);
        crate::testkit::assert_within_four_se(&format!("backing off [{opts}]"), got, exact, TRIALS);
    }
    assert!((binomial_at_least(4, 0.5, 3) - 5.0 / 16.0).abs() < 1e-12);
}

// ---- The text's numbers as options: each moves its rule ----

#[test]
fn cover_ac_options_set_each_levels_bonus() {
    // "Cover": half cover gives "+2 AC against firearms", three-quarters
    // "+5", full "+10" (options `half_cover_ac`, `three_quarters_cover_ac`,
    // `full_cover_ac`). A +15 rifle's natural roll that just hits the
    // text's AC (16 + 2, + 5, + 10) misses once each level gives 2 more.
    let strong_rifle = "kind = \"firearm\"\nattack = 15\ndamage = \"1d10+2\"";
    let raised = "half_cover_ac = 4\nthree_quarters_cover_ac = 7\nfull_cover_ac = 12";
    for (cover, text_ac) in [("half", 18), ("three-quarters", 21), ("full", 26)] {
        let entry = format!("cover = \"{cover}\"");
        let natural = (text_ac - 15) as u32;
        let (r, _) = swing(
            &duel("", strong_rifle, "", &entry),
            &[(20, natural), (10, 5)],
        );
        assert_eq!((r.ac, r.hit), (text_ac, true), "{cover}, the text's AC");
        let (r, _) = swing(&duel(raised, strong_rifle, "", &entry), &[(20, natural)]);
        assert_eq!((r.ac, r.hit), (text_ac + 2, false), "{cover}, 2 more");
        // Melee still ignores cover.
        let (r, _) = swing(&duel(raised, SWORD, "", &entry), &[(20, 11), (8, 1)]);
        assert_eq!((r.ac, r.hit), (16, true), "melee vs {cover}");
    }
    // Less than the text's: half cover worth nothing is no cover.
    let (r, _) = swing(
        &duel("half_cover_ac = 0", RIFLE, "", "cover = \"half\""),
        &[(20, 11), (10, 1)],
    );
    assert_eq!((r.ac, r.hit), (16, true));
}

/// The error compiling [`duel_text`] with `opts` gives (panics if none).
fn refused(opts: &str) -> String {
    match crate::scenario::compile::compile_str::<Trenches>(&duel_text(opts, RIFLE, "", "")) {
        Ok(_) => panic!("[{opts}] compiled"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn half_cover_above_three_quarters_cover_is_refused() {
    // "Cover": half cover is less of the unit obscured than three-quarters
    // cover, so it cannot give more AC.
    let e = refused("half_cover_ac = 6");
    assert!(e.contains("half_cover_ac"), "{e}");
    assert!(e.contains("expected 0 to 5"), "{e}");
    assert!(e.contains("three_quarters_cover_ac = 5"), "{e}");
    let e = refused("half_cover_ac = 8\nthree_quarters_cover_ac = 7");
    assert!(
        e.contains("expected 0 to 7") && e.contains("found 8"),
        "{e}"
    );
    // Equal is allowed, and so is raising both.
    duel("half_cover_ac = 5", RIFLE, "", "");
    duel(
        "half_cover_ac = 7\nthree_quarters_cover_ac = 7",
        RIFLE,
        "",
        "",
    );
}

#[test]
fn three_quarters_cover_above_full_cover_is_refused() {
    // "Cover": three-quarters cover is less than full cover.
    let e = refused("three_quarters_cover_ac = 11");
    assert!(e.contains("three_quarters_cover_ac"), "{e}");
    assert!(e.contains("expected 2 to 10"), "{e}");
    assert!(
        e.contains("full_cover_ac = 10") && e.contains("found 11"),
        "{e}"
    );
    let e = refused("full_cover_ac = 4");
    assert!(
        e.contains("three_quarters_cover_ac") && e.contains("expected 2 to 4"),
        "{e}"
    );
    duel("three_quarters_cover_ac = 10", RIFLE, "", "");
    duel(
        "three_quarters_cover_ac = 11\nfull_cover_ac = 11",
        RIFLE,
        "",
        "",
    );
}

#[test]
fn crit_on_option_makes_lower_natural_rolls_critical() {
    // "Critical Successes and Critical Failures": "the joyous revealing of a
    // natural 20" (`crit_on`, 20). By default a natural 19 that hits is a
    // plain hit (1d8+3 with a 4).
    let (r, _) = swing(&duel("", SWORD, "", ""), &[(20, 19), (8, 4)]);
    assert!(r.hit && !r.crit);
    assert_eq!(r.damage, 7);
    // `crit_on = 19`: the same 19 is critical (the dice twice: 4 + 2 + 3).
    let (r, f) = swing(
        &duel("crit_on = 19", SWORD, "", ""),
        &[(20, 19), (8, 4), (8, 2)],
    );
    assert!(r.hit && r.crit);
    assert_eq!(r.damage, 9);
    assert_eq!(f.counters[counter::CRITS], 1);
    // A critical roll must still hit: only a natural 20 hits whatever the
    // AC (19 − 20 misses AC 16).
    let hopeless = "attack = -20\ndamage = \"1d4\"";
    let (r, _) = swing(&duel("crit_on = 19", hopeless, "", ""), &[(20, 19)]);
    assert!(!r.hit && !r.crit);
}

#[test]
fn reach_option_sets_melee_reach_and_the_opportunity_radius() {
    // "Combat Rounds": attacks of opportunity guard an enemy's "5m radius",
    // the melee distance (`reach`, 5 m). With `reach = 10` a bayonet (no
    // range of its own) reaches 10 m: an advancing bayonet 10 m out
    // attacks from there (11 + 5 vs AC 16, 1d6+2 with a 3) instead of
    // closing to 5 m first.
    for (opts, gap_after) in [("", 5), ("reach = 10", 10)] {
        let enc = field(opts, "\"bayonet\"", "distance = 10", "\"rifle\"", "", "");
        let mut f = fight(&enc);
        play(&enc, &mut f, 0, &[(20, 11), (6, 3)]);
        assert_eq!(gap(&f), gap_after, "[{opts}]");
        assert_eq!(f.units[1].state.hp, 25, "[{opts}]");
    }
    // A rifleman keeping range 8 m from a bayonet: beyond 5 m he is not
    // engaged and just shoots (a 2); within a 10 m reach he backs off 30 m
    // and the bayonet's attack of opportunity comes (12 + 5 vs AC 10, 1d6+2
    // with a 4) before his shot.
    let keep = "tactic = \"keep-range\", distance = 8";
    let enc = field("", "\"rifle\"", keep, "\"bayonet\"", "", "");
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(20, 2)]);
    assert_eq!((gap(&f), f.counters[counter::OPPORTUNITY]), (8, 0));
    let enc = field("reach = 10", "\"rifle\"", keep, "\"bayonet\"", "", "");
    let mut f = fight(&enc);
    play(&enc, &mut f, 0, &[(20, 12), (6, 4), (20, 2)]);
    assert_eq!((gap(&f), f.counters[counter::OPPORTUNITY]), (38, 1));
    assert_eq!(f.units[0].state.hp, 24);
    // A weapon that gives its own reach keeps it; the fast path reads the
    // settled reach.
    let short = "attack = 5\ndamage = \"1d8+3\"\nrange = 3";
    assert_eq!(
        duel("reach = 10", short, "", "").units[0].stats.weapons[0].range,
        3
    );
    let stats = duel("reach = 10", SWORD, "", "").units[0].stats;
    assert_eq!(stats.weapons[0].range, 10);
    assert_eq!(stats.quick.map(|q| q.reach), Some(10));
}

#[test]
fn sprint_multiplier_option_sets_how_far_sprint_goes() {
    // "Combat Rounds": Sprint moves "double their usual movement speed"
    // (`sprint_multiplier`, 2). A bayonet 100 m out moves 30 m and sprints
    // 30 more (40 m left); at 3 times its speed the sprint is 60 m (10 m).
    for (opts, gap_after) in [
        ("", 40),
        ("sprint_multiplier = 3", 10),
        ("sprint_multiplier = 1.5", 55),
    ] {
        let enc = field(opts, "\"bayonet\"", "distance = 100", "\"rifle\"", "", "");
        let mut f = fight(&enc);
        play(&enc, &mut f, 0, &[]);
        assert_eq!(gap(&f), gap_after, "[{opts}]");
        assert_eq!(f.counters[counter::SPRINTS], 1);
    }
}

#[test]
fn difficult_terrain_speed_option_sets_what_rough_ground_leaves() {
    // "Combat Rounds": difficult terrain "will halve movement speed"
    // (`difficult_terrain_speed`, 0.5). A bayonet 100 m out on rough
    // ground moves and sprints 15 m each (70 m left); keeping a quarter,
    // 7 m each (86 m left).
    for (opts, gap_after) in [
        ("difficult_terrain = true", 70),
        (
            "difficult_terrain = true\ndifficult_terrain_speed = 0.25",
            86,
        ),
        ("difficult_terrain_speed = 0.25", 40),
    ] {
        let enc = field(opts, "\"bayonet\"", "distance = 100", "\"rifle\"", "", "");
        let mut f = fight(&enc);
        play(&enc, &mut f, 0, &[]);
        assert_eq!(gap(&f), gap_after, "[{opts}]");
    }
}

#[test]
fn default_speed_option_moves_stat_blocks_that_give_no_speed() {
    // "Combat Rounds": "most humanoid characters or NPCs are allowed 30m of
    // movement" (`default_speed`, 30). At 20 m a bayonet 100 m out moves
    // and sprints 20 m each (60 m left, not 40); a stat block that writes
    // its speed keeps it.
    for (opts, extra, gap_after) in [
        ("", "", 40),
        ("default_speed = 20", "", 60),
        ("default_speed = 20", "speed = 30", 40),
        ("default_speed = 45", "", 10),
    ] {
        let enc = field(
            opts,
            "\"bayonet\"",
            "distance = 100",
            "\"rifle\"",
            "",
            extra,
        );
        let mut f = fight(&enc);
        play(&enc, &mut f, 0, &[]);
        assert_eq!(gap(&f), gap_after, "[{opts}] {extra}");
    }
}

#[test]
fn ac_base_option_moves_every_ac() {
    // "Armor Class (AC)": "AC starts with a base of 10" (`ac_base`). Unit b
    // (Endurance 3, armour 3) has AC 16; at base 12, AC 18 vs melee and
    // firearms alike: 11 + 5 = 16 hits the first and misses the second.
    let (r, _) = swing(&duel("", SWORD, "", ""), &[(20, 11), (8, 1)]);
    assert_eq!((r.ac, r.hit), (16, true));
    for weapon in [SWORD, RIFLE] {
        let (r, _) = swing(&duel("ac_base = 12", weapon, "", ""), &[(20, 11)]);
        assert_eq!((r.ac, r.hit), (18, false), "{weapon}");
    }
    // Cover adds to it.
    let (r, _) = swing(
        &duel("ac_base = 12", RIFLE, "", "cover = \"half\""),
        &[(20, 11)],
    );
    assert_eq!(r.ac, 20);
}

#[test]
fn blind_range_option_sets_where_blinded_shots_suffer() {
    // "Blinded": "Any ranged attack rolls beyond 10m are on disadvantage and
    // have a -5 penalty" (`blind_range`, 10 m). At 15 m: by default both;
    // with `blind_range = 20`, neither (one d20, no penalty).
    let at_15 = "conditions = [\"blinded\"], distance = 15";
    let (r, _) = swing(&duel("", RIFLE, at_15, ""), &[(20, 15), (20, 18)]);
    assert_eq!((r.natural, r.total, r.hit), (15, 15, false));
    let (r, _) = swing(
        &duel("blind_range = 20", RIFLE, at_15, ""),
        &[(20, 15), (10, 1)],
    );
    assert_eq!((r.natural, r.total, r.hit), (15, 20, true));
}

#[test]
fn blind_penalty_option_sets_the_blinded_shots_penalty() {
    // "Blinded": beyond 10 m, disadvantage "and a -5 penalty"
    // (`blind_penalty`, 5). At 11 m with a kept 15: 15 + 5 − 5 = 15 misses
    // AC 16; with a −2 penalty, 18 hits.
    let at_11 = "conditions = [\"blinded\"], distance = 11";
    let (r, _) = swing(&duel("", RIFLE, at_11, ""), &[(20, 15), (20, 18)]);
    assert_eq!((r.total, r.hit), (15, false));
    let (r, _) = swing(
        &duel("blind_penalty = 2", RIFLE, at_11, ""),
        &[(20, 15), (20, 18), (10, 1)],
    );
    assert_eq!((r.natural, r.total, r.hit), (15, 18, true));
}

#[test]
fn prone_close_range_option_sets_where_prone_targets_are_easy() {
    // "Prone": an attack "has advantage if the attacker is within 5m of the
    // creature. Otherwise, the attack roll has disadvantage"
    // (`prone_close_range`, 5 m). A shot from 8 m: disadvantage by default
    // (keep 2), advantage within a 10 m range (keep 17).
    let at_8 = "conditions = [\"prone\"], distance = 8";
    let (r, _) = swing(&duel("", RIFLE, "", at_8), &[(20, 2), (20, 17)]);
    assert_eq!(r.natural, 2);
    let (r, _) = swing(
        &duel("prone_close_range = 10", RIFLE, "", at_8),
        &[(20, 2), (20, 17), (10, 1)],
    );
    assert_eq!(r.natural, 17);
    // And a range of 0: even at 5 m, disadvantage.
    let (r, _) = swing(
        &duel(
            "prone_close_range = 0",
            SWORD,
            "",
            "conditions = [\"prone\"], distance = 5",
        ),
        &[(20, 2), (20, 17)],
    );
    assert_eq!(r.natural, 2);
}

#[test]
fn helpless_crit_range_option_sets_where_hits_on_the_helpless_crit() {
    // "Paralyzed": "Any attack that hits the creature is a critical hit if
    // the attacker is within 5m of the creature" (`helpless_crit_range`,
    // 5 m). A rifle hit from 10 m (advantage: keep 12) is a plain hit by
    // default, critical within a 10 m range (1d10 twice + 2).
    let at_10 = "conditions = [\"paralyzed\"], distance = 10";
    let (r, _) = swing(&duel("", RIFLE, "", at_10), &[(20, 12), (20, 3), (10, 4)]);
    assert!(r.hit && !r.crit);
    let (r, _) = swing(
        &duel("helpless_crit_range = 10", RIFLE, "", at_10),
        &[(20, 12), (20, 3), (10, 4), (10, 4)],
    );
    assert!(r.hit && r.crit);
    assert_eq!(r.damage, 10);
    // A range of 0: a sword's hit from 5 m is plain.
    let (r, _) = swing(
        &duel(
            "helpless_crit_range = 0",
            SWORD,
            "",
            "conditions = [\"paralyzed\"], distance = 5",
        ),
        &[(20, 12), (20, 3), (8, 4)],
    );
    assert!(r.hit && !r.crit);
}

#[test]
fn exhaustion_hp_option_sets_what_exhaustion_4_leaves() {
    // "Exhaustion": level 4, "HP points halved" (`exhaustion_hp`, 0.5).
    // A 31 HP unit at level 4 has 15 HP; keeping a quarter, 7, and a hit
    // of 7 (1d4+5 with a 2) downs it.
    let text = |opts: &str| {
        format!(
            "name = \"t\"\nrules = \"trenches\"\n[options]\n{opts}\n[weapons.w]\nattack = 5\ndamage = \"1d4+5\"\n[units.a]\nhp = 30\nweapons = [\"w\"]\n[units.spent]\nhp = 31\nexhaustion = 4\nweapons = [\"w\"]\n[sides.red]\na = {{}}\n[sides.blue]\nspent = {{}}\n"
        )
    };
    for (opts, hp, down) in [("", 15, false), ("exhaustion_hp = 0.25", 7, true)] {
        let enc = encounter::<Trenches>(&text(opts));
        let (_, f) = swing(&enc, &[(20, 15), (4, 2)]);
        assert_eq!(f.units[1].state.hp, hp - 7, "[{opts}]");
        assert_eq!(f.units[1].out, down, "[{opts}]");
        let f = fight(&enc);
        assert_eq!(f.units[1].state.hp, hp, "[{opts}]");
    }
}

#[test]
fn fast_paths_follow_the_rule_number_options() {
    // `quick_turn` and `quick_batch` read the options `take_turn` reads:
    // duels fought with and without them under non-default rule numbers
    // (cover, crits, the AC base, reach, speed) give the same tallies and
    // leave the dice at the same place.
    let opts = "crit_on = 15\nac_base = 12\nhalf_cover_ac = 4\nthree_quarters_cover_ac = 8\n\
                full_cover_ac = 12\nreach = 10\ndefault_speed = 20";
    let mut compared = 0;
    for kind in ["melee", "firearm"] {
        for cover in ["none", "half", "three-quarters", "full"] {
            for distance in [0, 10, 40] {
                let text = format!(
                    "name = \"d\"\nrules = \"trenches\"\nmax_rounds = 8\n[options]\n{opts}\n\
                     [weapons.w]\nkind = \"{kind}\"\nattack = 5\ndamage = \"1d8+3\"\n\
                     [units.f]\nhp = 30\nendurance = 3\nweapons = [\"w\"]\n\
                     [sides.red]\nf = {{ tactic = \"advance\" }}\n\
                     [sides.blue]\nf = {{ tactic = \"advance\", cover = \"{cover}\", distance = {distance} }}\n"
                );
                let enc = encounter::<Trenches>(&text);
                let mut f = Fight::<Trenches>::new();
                let (mut quick, mut full) = (Tally::default(), Tally::default());
                let mut quick_dice = RngDice::for_batch(11, compared);
                f.run_into(&enc, &mut quick_dice, 300, &mut quick);
                let mut full_dice = RngDice::for_batch(11, compared);
                f.run_into_without_quick_turns(&enc, &mut full_dice, 300, &mut full);
                assert_eq!(quick, full, "{kind}, {cover}, {distance} m");
                assert_eq!(quick_dice.roll(1 << 30), full_dice.roll(1 << 30));
                assert!(quick.counters[counter::CRITS] > 0);
                compared += 1;
            }
        }
    }
}

mod on_map {
    //! `trenches` on a map (issue 29, part 2), pinned with scripted dice on
    //! small maps: sight for shots, cover by the place, paths around walls,
    //! advancing units spreading to free squares, attacks of opportunity by
    //! leaving reach. One square is 5 m (`Trenches::MAP_SCALE`).

    use super::*;
    use crate::dice::ScriptedDice;
    use crate::engine::ground::unpack;
    use crate::engine::{Encounter, Fight};
    use crate::map::Square;
    use crate::testkit::{as_turn, encounter, fight};

    /// Red `a` groups against blue `b` on `grid` (a `[map.legend]` body in
    /// `legend`); weapons as named; entries are the groups' inline tables.
    fn on_map(
        grid: &str,
        legend: &str,
        a_weapons: &str,
        a_entry: &str,
        b_weapons: &str,
        b_entry: &str,
    ) -> Encounter<Trenches> {
        encounter(&format!(
            r#"
name = "t"
rules = "trenches"
[map]
grid = """
{grid}
"""
[map.legend]
{legend}
[weapons.bayonet]
attack = 5
damage = "1d6+2"
[weapons.rifle]
kind = "firearm"
attack = 5
damage = "1d10+2"
[units.a]
hp = 30
weapons = [{a_weapons}]
[units.b]
hp = 30
endurance = 3
armor = 3
weapons = [{b_weapons}]
[sides.red]
a = {{ {a_entry} }}
[sides.blue]
b = {{ {b_entry} }}
"#
        ))
    }

    fn square(f: &Fight<Trenches>, i: usize) -> Square {
        unpack(f.units[i].position)
    }

    fn play(
        enc: &Encounter<Trenches>,
        f: &mut Fight<Trenches>,
        actor: usize,
        rolls: &[(u32, u32)],
    ) {
        let mut dice = ScriptedDice::new(rolls);
        as_turn(enc, f, &mut dice, actor, Trenches::take_turn);
        dice.assert_done();
    }

    #[test]
    fn units_start_on_their_cells_and_distances_are_squares_times_5_m() {
        let enc = on_map(
            "A...B",
            "",
            "\"rifle\"",
            "at = \"A\"",
            "\"rifle\"",
            "at = \"B\"",
        );
        let f = fight(&enc);
        assert_eq!(square(&f, 0), Square::new(0, 0));
        assert_eq!(square(&f, 1), Square::new(4, 0));
        let mut dice = ScriptedDice::new(&[]);
        let d = as_turn(&enc, &mut f.clone(), &mut dice, 0, |t| t.enemy_distance(1));
        assert_eq!(d, 20);
    }

    #[test]
    fn a_wall_blocks_a_shot() {
        // No line of sight: the holding rifleman has no target, rolls nothing.
        let enc = on_map(
            "A.#.B",
            "",
            "\"rifle\"",
            "at = \"A\"",
            "\"rifle\"",
            "at = \"B\"",
        );
        let mut f = fight(&enc);
        play(&enc, &mut f, 0, &[]);
        assert_eq!(f.counters[counter::ATTACKS], 0);
        // Open ground: the shot is fired (a miss on a natural 2).
        let enc = on_map(
            "A...B",
            "",
            "\"rifle\"",
            "at = \"A\"",
            "\"rifle\"",
            "at = \"B\"",
        );
        let mut f = fight(&enc);
        play(&enc, &mut f, 0, &[(20, 2)]);
        assert_eq!(f.counters[counter::ATTACKS], 1);
    }

    #[test]
    fn a_trench_gives_its_cover_and_a_low_wall_next_to_the_target_too() {
        let ac = |grid: &str, legend: &str| {
            let enc = on_map(
                grid,
                legend,
                "\"rifle\"",
                "at = \"A\"",
                "\"rifle\"",
                "at = \"B\"",
            );
            let mut f = fight(&enc);
            let mut dice = ScriptedDice::new(&[(20, 2)]);
            let weapon = enc.units[0].stats.weapons[0];
            let r = as_turn(&enc, &mut f, &mut dice, 0, |t| attack(t, 1, &weapon));
            dice.assert_done();
            r.ac
        };
        let open = ac("A...B", "");
        // B dug in: half cover, +2 AC against firearms ("Cover").
        assert_eq!(ac("A...B", "B = \"trench\""), open + 2);
        // A firing position: three-quarters, +5.
        assert_eq!(ac("A...B", "B = \"firing-position\""), open + 5);
        // A low wall in front of the target: half cover; in front of the
        // shooter (who fires over it): none.
        assert_eq!(ac("A..-B", ""), open + 2);
        assert_eq!(ac("A-..B", ""), open);
    }

    #[test]
    fn the_path_goes_around_a_wall() {
        // A bayonet charge on B behind a wall: the only square next to B a path
        // reaches is below it, three steps round the wall's end (15 m).
        let grid = "A#B\n.#.\n...";
        let enc = on_map(
            grid,
            "",
            "\"bayonet\"",
            "at = \"A\"",
            "\"rifle\"",
            "at = \"B\"",
        );
        let mut f = fight(&enc);
        // It arrives and strikes (a miss on a natural 2).
        play(&enc, &mut f, 0, &[(20, 2)]);
        assert_eq!(square(&f, 0), Square::new(2, 1));
        assert_eq!(f.counters[counter::ATTACKS], 1);
    }

    #[test]
    fn advancing_units_take_the_free_squares_next_to_the_target() {
        let grid = "A....\nA...B";
        let enc = on_map(
            grid,
            "",
            "\"bayonet\"",
            "count = 2, at = \"A\"",
            "\"rifle\"",
            "at = \"B\"",
        );
        let mut f = fight(&enc);
        play(&enc, &mut f, 0, &[(20, 2)]);
        play(&enc, &mut f, 1, &[(20, 2)]);
        let (a, b, t) = (square(&f, 0), square(&f, 1), square(&f, 2));
        assert_ne!(a, b, "the second takes another square");
        assert!(a.adjacent(t) && b.adjacent(t), "{a:?} {b:?} next to {t:?}");
    }

    #[test]
    fn backing_off_out_of_reach_provokes_an_attack_of_opportunity() {
        // Red keeps range with a rifle, blue's bayonet next to it: red backs off
        // away from blue, as far as 30 m (6 squares) and the map allow (4
        // squares, to the end of the row); blue's attack of opportunity (a miss
        // on 2), then red shoots (a miss on 2).
        let grid = "....BA....";
        let enc = on_map(
            grid,
            "",
            "\"rifle\"",
            "at = \"A\", tactic = \"keep-range\"",
            "\"bayonet\"",
            "at = \"B\"",
        );
        let mut f = fight(&enc);
        play(&enc, &mut f, 0, &[(20, 2), (20, 2)]);
        assert_eq!(square(&f, 0), Square::new(9, 0));
        assert_eq!(f.counters[counter::OPPORTUNITY], 1);
        assert_eq!(f.counters[counter::ATTACKS], 2);
    }

    #[test]
    fn backing_off_stops_in_cover_from_the_enemy() {
        // As above, with a trench (half cover, "Cover": dug where the target
        // stands) three squares away: keep-range backs off into it and stays
        // there (README, "The battlefield": a keep-range unit stays in cover
        // where it can), one square short of the end of the row.
        let grid = "....BA.._.";
        let enc = on_map(
            grid,
            "",
            "\"rifle\"",
            "at = \"A\", tactic = \"keep-range\"",
            "\"bayonet\"",
            "at = \"B\"",
        );
        let mut f = fight(&enc);
        play(&enc, &mut f, 0, &[(20, 2), (20, 2)]);
        assert_eq!(square(&f, 0), Square::new(8, 0));
        assert_eq!(f.counters[counter::OPPORTUNITY], 1);
        assert_eq!(f.counters[counter::ATTACKS], 2);
    }

    #[test]
    fn passing_by_an_enemy_on_a_map_provokes_it_only_with_passing_provokes() {
        // Combat Rounds: "Any creature within 5m of an enemy who attempts to
        // leave the 5m radius of that creature ... will take such an attack".
        // Red goes around the wall to the far blue (unit 2): every way round
        // passes next to the near blue (unit 1) and leaves it 10 m behind,
        // though red starts and ends beyond its 5 m. With `passing_provokes`
        // the path, square by square, leaves its reach: its attack of
        // opportunity (a miss on 2); without, only a move that starts within
        // 5 m provokes (the option's default reading), and nothing is rolled.
        let grid = "......\nA#B..B\n......";
        for (passing, rolls) in [(true, &[(20, 2)][..]), (false, &[][..])] {
            let enc = encounter(&format!(
                r#"
name = "t"
rules = "trenches"
[options]
passing_provokes = {passing}
[map]
grid = """
{grid}
"""
[weapons.bayonet]
attack = 5
damage = "1d6+2"
[units.a]
hp = 30
weapons = ["bayonet"]
[units.b]
hp = 30
weapons = ["bayonet"]
[sides.red]
a = {{ at = "A" }}
[sides.blue]
b = {{ at = "B", count = 2 }}
"#
            ));
            let mut f = fight(&enc);
            assert_eq!(square(&f, 1), Square::new(2, 1));
            assert_eq!(square(&f, 2), Square::new(5, 1));
            let mut dice = ScriptedDice::new(rolls);
            as_turn(&enc, &mut f, &mut dice, 0, |t| {
                stride::<_, _, true>(t, |s| s.approach(2, 30, 5))
            });
            dice.assert_done();
            assert!(square(&f, 0).adjacent(square(&f, 2)), "{:?}", square(&f, 0));
            assert_eq!(
                f.counters[counter::OPPORTUNITY],
                u32::from(passing),
                "passing_provokes = {passing}"
            );
        }
    }
}

/// Smart targeting (issue 30 item 5) on the engine's `Turn::choose_target`,
/// through trenches' number of what a turn deals: one attack a turn ("every
/// attack is a full Action", Action economy), so the best weapon's mean
/// damage (1d4: 2.5, counted as 2).
#[test]
fn smart_targeting_drops_what_it_can_else_focuses_the_weakest() {
    let text = r#"
name = "t"
rules = "trenches"
[weapons.w]
attack = 50
damage = "1d4"
[units.a]
hp = 10
weapons = ["w"]
[sides.red]
a = { tactic = "smart" }
[sides.blue]
a = { count = 3 }
"#;
    let enc = encounter::<Trenches>(text);
    assert_eq!(enc.units[0].targeting, crate::engine::Targeting::Smart);
    assert_eq!(enc.units[0].drops, 2);
    let mut f = fight(&enc);
    let mut dice = ScriptedDice::new(&[]);
    let mut choose =
        |f: &mut Fight<Trenches>| as_turn(&enc, f, &mut dice, 0, |t| t.choose_target(|_, _| true));
    // Nobody it can drop: the weakest (unit 2, 5 of 10) becomes the focus,
    // with no roll.
    f.units[1].state.hp = 9;
    f.units[2].state.hp = 5;
    f.units[3].state.hp = 6;
    assert_eq!(choose(&mut f), Some(2));
    // The focus holds although unit 3 is now weaker (3 > 2: not droppable).
    f.units[3].state.hp = 3;
    assert_eq!(choose(&mut f), Some(2));
    // Unit 3 at 2 HP can be dropped this turn: it goes first, then the
    // lowest of those it can drop (unit 1 at 1 HP).
    f.units[3].state.hp = 2;
    assert_eq!(choose(&mut f), Some(3));
    f.units[1].state.hp = 1;
    assert_eq!(choose(&mut f), Some(1));
    // Out of the allowed ones only.
    assert_eq!(
        as_turn(&enc, &mut f, &mut ScriptedDice::new(&[]), 0, |t| t
            .choose_target(|_, i| i == 2)),
        Some(2)
    );
}

/// Smart movement: a unit with a firearm keeps its range (out of melee),
/// a melee-only unit advances; an explicit `target` is obeyed.
#[test]
fn smart_moves_by_the_weapons_and_obeys_a_written_target() {
    let text = |weapon: &str, target: &str| {
        format!(
            r#"
name = "t"
rules = "trenches"
[weapons.rifle]
kind = "firearm"
damage = "1d10"
[weapons.club]
damage = "1d6"
[units.a]
hp = 10
weapons = ["{weapon}"]
[sides.red]
a = {{ tactic = "smart"{target} }}
[sides.blue]
a = {{ count = 1 }}
"#
        )
    };
    let enc = encounter::<Trenches>(&text("rifle", ""));
    assert!(enc.units[0].smart);
    assert_eq!(enc.units[0].tactic, Tactic::KeepRange);
    assert_eq!(enc.units[0].stats.plan, Plan::KeepRange);
    // It does not drop prone by itself (Conditions: Prone: "its attacks
    // have disadvantage").
    assert!(!enc.units[0].stats.drop_prone);
    let enc = encounter::<Trenches>(&text("club", ", target = \"nearest\""));
    assert_eq!(enc.units[0].tactic, Tactic::Advance);
    assert_eq!(enc.units[0].targeting, crate::engine::Targeting::Nearest);
    // The other side, which does not play smart, targets at random.
    assert_eq!(enc.units[1].targeting, crate::engine::Targeting::Random);
    assert!(!enc.units[1].smart);
}
