//! Tests of the enumerator on whole fights: probabilities sum to one, the
//! simulator's rates fall within 4 standard errors of the exact ones, and
//! small fights come out exactly as the rule texts give them by hand (one
//! d20 attack, one opposed 2d6 roll with boons and banes, one critical
//! chain, Markov chains of tiny duels), within the answer's own rounding
//! bound.

use super::*;
use crate::engine::{Encounter, Fight, Tally};
use crate::rules::{escalation, thrum, trenches, Escalation, Thrum, Trenches};
use crate::testkit::encounter;

const DUEL: &str = r#"
name = "t"
rules = "trenches"
fights = 1
max_rounds = 100

[weapons.sword]
kind = "melee"
attack = 5
damage = "1d8+3"

[units.fighter]
hp = 30
endurance = 3
armor = 3
dex = 1
weapons = ["sword"]

[sides.red]
fighter = { count = 1 }

[sides.blue]
fighter = { count = 1 }
"#;

#[test]
fn the_duel_sums_to_one_and_the_simulator_agrees() {
    let enc = encounter::<Trenches>(DUEL);
    let answer = solve(&enc, &Limits::default()).expect("the duel fits");
    assert!(
        (answer.total() - 1.0).abs() <= 4.0 * answer.error(),
        "{answer:?}"
    );
    let mut fight = Fight::<Trenches>::new();
    let mut tally = Tally::default();
    let mut dice = crate::dice::RngDice::for_batch(7, 0);
    let n = 100_000u32;
    fight.run_into(&enc, &mut dice, n, &mut tally);
    let p = answer.wins[0];
    let sim = tally.wins[0] as f64 / n as f64;
    assert!(
        (sim - p).abs() <= crate::testkit::four_se(p, n),
        "sim {sim} exact {p}"
    );
    eprintln!("{answer:#?}");
}

/// `got` is the exact `want` within a few times the answer's stated
/// rounding bound (`want` is computed here in `f64` too, with a handful of
/// roundings of its own, far below the bound).
#[track_caller]
fn assert_exact(what: &str, got: f64, want: f64, answer: &Answer) {
    let bound = 4.0 * answer.error() * want.abs().max(1.0);
    assert!(
        (got - want).abs() <= bound,
        "{what}: enumerated {got:e}, by hand {want:e}, off by {:e} > {bound:e}",
        (got - want).abs()
    );
}

/// The answer's probabilities sum to one within the stated bound.
#[track_caller]
fn assert_sums_to_one(answer: &Answer) {
    assert!(
        (answer.total() - 1.0).abs() <= 4.0 * answer.error(),
        "total {:e}, error {:e}",
        answer.total(),
        answer.error()
    );
}

/// Enumerate `enc` within the default limits, printing its size (states,
/// outcomes, seconds: `--nocapture`).
fn solve_all<R: crate::rules::Ruleset>(enc: &Encounter<R>) -> Answer {
    let t = std::time::Instant::now();
    let answer = solve(enc, &Limits::default()).expect("fits the default limits");
    eprintln!(
        "{}: {} states, {} outcomes, {:.2} s",
        R::NAME,
        answer.states,
        answer.outcomes,
        t.elapsed().as_secs_f64()
    );
    answer
}

/// A probability mass function of damage (or any small count): `pmf[k]` is
/// P(k).
type Pmf = Vec<f64>;

/// Trenches, "Critical Successes and Critical Failures" (cut off: the
/// options' defaults, a natural 1 always misses and a natural 20 always
/// hits) with the implied 5e attack, d20 + attack bonus ≥ AC: the naturals
/// of the d20 that hit when the die must show `need` (AC − bonus).
fn d20_hits(need: i32) -> u32 {
    (1..=20i32)
        .filter(|&n| n == 20 || (n >= 2 && n >= need))
        .count() as u32
}

/// The sums of `count` dice of `sides` faces: `pmf[s]`.
fn dice_sum(count: u32, sides: u32) -> Pmf {
    let mut pmf = vec![1.0];
    for _ in 0..count {
        let mut next = vec![0.0; pmf.len() + sides as usize];
        for (s, &p) in pmf.iter().enumerate() {
            for f in 1..=sides as usize {
                next[s + f] += p / f64::from(sides);
            }
        }
        pmf = next;
    }
    pmf
}

/// The damage one trenches attack deals with a weapon of `1d{sides}`, when
/// the d20 must show `need`: a miss deals 0, a hit 1d`sides`, a natural 20
/// (a critical, "Critical Successes and Critical Failures", default
/// `double-dice`: the dice rolled twice) 2d`sides`.
fn trenches_attack(need: i32, sides: u32) -> Pmf {
    let hits = d20_hits(need);
    let normal = hits - 1; // the natural 20 is among the hits
    let mut pmf = vec![0.0; 2 * sides as usize + 1];
    pmf[0] = f64::from(20 - hits) / 20.0;
    for (d, p) in dice_sum(1, sides).iter().enumerate() {
        pmf[d] += f64::from(normal) / 20.0 * p;
    }
    for (d, p) in dice_sum(2, sides).iter().enumerate() {
        pmf[d] += p / 20.0;
    }
    pmf
}

/// Two trenches units, `a` (side red, DEX +1) and `b` (side blue, DEX 0),
/// in melee at the front line, with fixed initiative (DEX: `a` acts first
/// every round). `wa` / `wb` are the bodies of their weapons, `a` / `b` add
/// stat-block lines (`hp` at least).
fn trenches_pair(max_rounds: u32, wa: &str, a: &str, wb: &str, b: &str) -> Encounter<Trenches> {
    encounter(&format!(
        r#"
name = "t"
rules = "trenches"
max_rounds = {max_rounds}
[options]
initiative = "fixed"
[weapons.wa]
{wa}
[weapons.wb]
{wb}
[units.a]
dex = 1
weapons = ["wa"]
{a}
[units.b]
dex = 0
weapons = ["wb"]
{b}
[sides.red]
a = {{}}
[sides.blue]
b = {{}}
"#
    ))
}

#[test]
fn one_d20_attack_that_kills_wins_with_the_chance_to_hit() {
    // One round. `a` swings first: d20 + attack vs b's AC 10 + Endurance 2
    // = 12 ("Armor Class (AC)"), a natural 1 misses and a natural 20 hits;
    // any hit takes b's 1 HP. If b still stands it swings back at a's AC
    // 10 (d20 ≥ 10: 11 naturals) and kills a with any hit; else the round
    // cap leaves both standing.
    for attack in [-15, 3, 15] {
        let enc = trenches_pair(
            1,
            &format!("attack = {attack}\ndamage = \"1d4\""),
            "hp = 1",
            "damage = \"1d4\"",
            "hp = 1\nendurance = 2",
        );
        let h = f64::from(d20_hits(12 - attack)) / 20.0;
        let g = 11.0 / 20.0;
        let a = solve_all(&enc);
        assert_sums_to_one(&a);
        assert_exact("red wins", a.wins[0], h, &a);
        assert_exact("blue wins", a.wins[1], (1.0 - h) * g, &a);
        assert_exact("draws", a.draws, (1.0 - h) * (1.0 - g), &a);
        assert_exact("draws at cap", a.draws_at_cap, (1.0 - h) * (1.0 - g), &a);
        assert_exact("one round", a.rounds[1], 1.0, &a);
        // Harm booked is the HP removed: 1 per kill.
        assert_exact("red's harm", a.damage[0], h, &a);
        assert_exact("blue's harm", a.damage[1], (1.0 - h) * g, &a);
        assert_exact("red standing", a.survivors[0], 1.0 - (1.0 - h) * g, &a);
        assert_exact("blue standing", a.survivors[1], 1.0 - h, &a);
    }
    // The three bonuses give the three textbook chances: only the natural
    // 20, 12 naturals (9 to 20), all but the natural 1.
    assert_eq!([d20_hits(27), d20_hits(9), d20_hits(-3)], [1, 12, 19]);
}

#[test]
fn one_d20_attack_that_kills_only_on_a_critical() {
    // As above, but b has 7 HP and a's weapon deals 1d6: a plain hit
    // (naturals 9 to 19) never kills; a natural 20 is a critical hit
    // ("Critical Successes and Critical Failures"; default double-dice:
    // 2d6) and kills on 7 or more, 21 of 36. a has 100 HP: b's answer
    // (d20 ≥ 10, 1d6, 2d6 on a 20) never kills it.
    let enc = trenches_pair(
        1,
        "attack = 3\ndamage = \"1d6\"",
        "hp = 100",
        "damage = \"1d6\"",
        "hp = 7\nendurance = 2",
    );
    let a = solve_all(&enc);
    assert_sums_to_one(&a);
    let kill = 1.0 / 20.0 * 21.0 / 36.0;
    assert_exact("red wins", a.wins[0], kill, &a);
    assert_eq!(a.wins[1], 0.0);
    assert_exact("draws at cap", a.draws_at_cap, 1.0 - kill, &a);
    // Harm: the HP removed, so a kill books 7.
    let red: f64 = trenches_attack(9, 6)
        .iter()
        .enumerate()
        .map(|(d, p)| p * d.min(7) as f64)
        .sum();
    assert_exact("red's harm", a.damage[0], red, &a);
    let blue: f64 = trenches_attack(10, 6)
        .iter()
        .enumerate()
        .map(|(d, p)| p * d as f64)
        .sum();
    assert_exact("blue's harm", a.damage[1], (1.0 - kill) * blue, &a);
    use trenches::counter;
    assert_exact("crits", a.counters[counter::CRITS], (2.0 - kill) / 20.0, &a);
    let hits = 12.0 / 20.0 + (1.0 - kill) * 11.0 / 20.0;
    assert_exact("hits", a.counters[counter::HITS], hits, &a);
    assert_exact("attacks", a.counters[counter::ATTACKS], 2.0 - kill, &a);
}

/// Thrum's boons and banes (undefined in the text; the draft's rule the
/// ruleset defaults to: each net boon (bane) rolls one more d6 and drops the
/// lowest (highest)): how many of the `6^(2 + |net|)` throws keep each sum
/// of two dice, counted over every throw.
fn kept_2d6(net: i32) -> ([u64; 13], u64) {
    let n = 2 + net.unsigned_abs();
    let throws = 6u64.pow(n);
    let mut count = [0u64; 13];
    for code in 0..throws {
        let mut faces: Vec<u64> = (0..n).map(|i| code / 6u64.pow(i) % 6 + 1).collect();
        faces.sort_unstable();
        let kept = if net >= 0 {
            faces[n as usize - 2] + faces[n as usize - 1]
        } else {
            faces[0] + faces[1]
        };
        count[kept as usize] += 1;
    }
    (count, throws)
}

/// P(`f(offence, defence)`) for an offence of 2d6 with `net_o` net boons
/// and a defence of 2d6 with `net_d`, counted exactly and divided once.
fn opposed(net_o: i32, net_d: i32, f: impl Fn(i32, i32) -> bool) -> f64 {
    let ((o, no), (d, nd)) = (kept_2d6(net_o), kept_2d6(net_d));
    let mut favourable = 0u64;
    for (x, &cx) in o.iter().enumerate() {
        for (y, &cy) in d.iter().enumerate() {
            if f(x as i32, y as i32) {
                favourable += cx * cy;
            }
        }
    }
    favourable as f64 / (no * nd) as f64
}

#[test]
fn one_opposed_2d6_roll_with_boons_and_banes() {
    // Thrum, "Defensive rolls" (Evasion: the defender gains +1 Boon if not
    // Vulnerable; critical: avoid; success: avoid but +1 Vulnerable;
    // failure: take the effect and +1 Vulnerable) with the draft's boons
    // and banes (they cancel one for one; ties go to the defender; a
    // critical is winning by 5). a attacks first (fixed initiative) with
    // its stance's 2 boons: 4d6 keep the best two, + Art 1. b evades (+1
    // Boon) in a stance with 2 banes on defence: net 1 bane, 3d6 keep the
    // worst two, + Evasion 2. The ability deals 10 Fatigue and is a
    // Finisher ("Exhausted and Incapacity Roll"): b, over its Fatigue
    // Tolerance of 0, rolls 2d6 + Resilience −10 against 10 at once and
    // always fails: Incapacitated, its side is out. b, if it stands,
    // attacks a (2d6 v 2d6 + Resilience 0), which cannot end the fight (a
    // tolerates 100 Fatigue), and the round cap ends it.
    let enc = encounter::<Thrum>(
        r#"
name = "t"
rules = "thrum"
max_rounds = 1
[options]
initiative = "fixed"
[weapons.blow]
finisher = true
load = 10
[units.a]
fatigue_tolerance = 100
stress_tolerance = 100
art = 1
initiative = 1
stance_offence = 2
weapons = ["blow"]
[units.b]
fatigue_tolerance = 0
stress_tolerance = 100
resilience = -10
evasion = 2
defence = "evasion"
stance_defence = -2
weapons = ["blow"]
[sides.red]
a = {}
[sides.blue]
b = {}
"#,
    );
    let a = solve_all(&enc);
    assert_sums_to_one(&a);
    let hit = opposed(2, -1, |o, d| o + 1 > d + 2);
    let crit = opposed(2, -1, |o, d| (d + 2) - (o + 1) >= 5);
    let back = opposed(0, 0, |o, d| o > d);
    assert_exact("red wins", a.wins[0], hit, &a);
    assert_eq!(a.wins[1], 0.0);
    assert_exact("draws at cap", a.draws_at_cap, 1.0 - hit, &a);
    use thrum::counter;
    assert_exact(
        "evasion crits",
        a.counters[counter::EVASION_CRITS],
        crit,
        &a,
    );
    assert_exact(
        "vulnerable",
        a.counters[counter::VULNERABLE],
        1.0 - crit,
        &a,
    );
    assert_exact("attacks", a.counters[counter::ATTACKS], 2.0 - hit, &a);
    let hits = hit + (1.0 - hit) * back;
    assert_exact("hits", a.counters[counter::HITS], hits, &a);
    assert_exact(
        "incapacitations",
        a.counters[counter::INCAPACITATIONS],
        hit,
        &a,
    );
    // Harm is Load inflicted: 10 a hit.
    assert_exact("red's harm", a.damage[0], 10.0 * hit, &a);
    assert_exact("blue's harm", a.damage[1], 10.0 * (1.0 - hit) * back, &a);
    // The dice themselves: 4d6 keep two, 3d6 keep two, 2d6.
    assert_eq!(
        kept_2d6(2).0[12],
        6u64.pow(4) - 5u64.pow(4) - 4 * 5u64.pow(3)
    );
    assert_eq!(kept_2d6(-1).0[2], 1 + 3 * 5);
    assert_eq!(kept_2d6(0).0[7], 6);
}

#[test]
fn one_critical_chain() {
    // Escalation, "Combat specific Fails/Criticals": a natural 20 doubles
    // the damage dealt; then a d4 of 4 makes it a super critical (doubled
    // again: ×4); then a d6 of 6 is a decisive victory, the target defeated
    // at once. "Attacking": d20 + Accuracy ≥ 10 + the target's Agility; a
    // center-mass aim gives +1 ("Wounds/Aiming"). a (Agility 1: first in
    // the fixed order) throws a javelin (1d6) at b (7 HP, Agility 0) from 100
    // spaces; b cannot reach it this round, and a natural 1 outside b's
    // melee zone is a fumble without a free hit. a spends its Bonus Actions
    // on dodging (none on accuracy), so it hits on a natural 9 or more (9 to
    // 19: plain hits, whose 1d6 never kills) and kills with:
    // - a critical (×2, d4 of 1-3): 2·d6 ≥ 7, 3 of 6;
    // - a super critical (×4, d4 of 4, d6 not 6): 4·d6 ≥ 7, 5 of 6;
    // - a decisive victory (d4 of 4, d6 of 6): always.
    let enc = encounter::<Escalation>(
        r#"
name = "t"
rules = "escalation"
max_rounds = 1
[weapons.javelin]
kind = "ranged"
damage = "1d6"
range = 200
[weapons.sword]
damage = "1d6"
[units.a]
hp = 20
agility = 1
bonus = "dodge"
weapons = ["javelin"]
[units.b]
hp = 7
weapons = ["sword"]
[sides.red]
a = { distance = 100 }
[sides.blue]
b = {}
"#,
    );
    let a = solve_all(&enc);
    assert_sums_to_one(&a);
    let crit = 1.0 / 20.0;
    let (plain, super_, decisive) = (3.0 / 4.0, 1.0 / 4.0 * 5.0 / 6.0, 1.0 / 4.0 / 6.0);
    let kill = crit * (plain * 3.0 / 6.0 + super_ * 5.0 / 6.0 + decisive);
    assert_exact("red wins", a.wins[0], kill, &a);
    assert_exact("draws at cap", a.draws_at_cap, 1.0 - kill, &a);
    // The harm distribution: HP removed, 7 at most.
    let d6 = |k: i32| -> f64 { (1..=6).map(|d| f64::from((k * d).min(7))).sum::<f64>() / 6.0 };
    let harm = 11.0 / 20.0 * d6(1) + crit * (plain * d6(2) + super_ * d6(4) + decisive * 7.0);
    assert_exact("red's harm", a.damage[0], harm, &a);
    assert_eq!(a.damage[1], 0.0);
    use escalation::counter;
    assert_exact("crits", a.counters[counter::CRITS], crit, &a);
    assert_exact(
        "super crits",
        a.counters[counter::SUPER_CRITS],
        crit / 4.0,
        &a,
    );
    assert_exact(
        "instant defeats",
        a.counters[counter::INSTANT_DEFEATS],
        crit / 24.0,
        &a,
    );
    assert_exact("hits", a.counters[counter::HITS], 12.0 / 20.0, &a);
    assert_exact("fumbles", a.counters[counter::FUMBLES], 1.0 / 20.0, &a);
    assert_eq!(
        a.counters[counter::FREE_HITS],
        0.0,
        "outside the zone: no free hit"
    );
    assert_eq!(
        a.counters[counter::TRAGEDIES],
        0.0,
        "outside the zone: no tragedy"
    );
    // Wounds (6 net damage or more, "Wounds/Aiming"): a plain 6, a
    // critical's 2·d6 of 6 or more, every super critical's 4·d6 but 4.
    let wound = 11.0 / 20.0 / 6.0 + crit * (plain * 4.0 / 6.0 + super_ * 5.0 / 6.0);
    assert_exact("wounds", a.counters[counter::WOUNDS], wound, &a);
}

#[test]
fn nobody_can_hurt_anybody_a_draw_at_the_cap() {
    // Trenches melee fighters who hold their ground 100 m apart never come
    // within 5 m ("Combat Rounds"): no die is ever rolled (fixed
    // initiative), so the draw at the cap is exactly 1, and with it every
    // round's state is the same one.
    let enc = encounter::<Trenches>(
        r#"
name = "t"
rules = "trenches"
max_rounds = 50
[options]
initiative = "fixed"
[weapons.w]
damage = "1d8"
[units.a]
hp = 5
dex = 1
weapons = ["w"]
[units.b]
hp = 5
weapons = ["w"]
[sides.red]
a = { tactic = "hold" }
[sides.blue]
b = { tactic = "hold", distance = 100 }
"#,
    );
    let a = solve_all(&enc);
    assert_eq!(a.draws_at_cap, 1.0);
    assert_eq!(a.draws, 1.0);
    assert_eq!(a.wins[..2], [0.0, 0.0]);
    assert_eq!(a.rounds[50], 1.0);
    assert_eq!(a.rounds_mean(), 50.0);
    assert_eq!(a.survivors[..2], [1.0, 1.0]);
    assert_eq!(a.last_round, 50);
    assert!(a.states <= 4, "{} states", a.states);
    // In reach but harmless: 1d4−8 is never more than 0 damage, even
    // doubled by a critical (2d4−8, "double-dice"). The dice
    // are rolled (a d20 each turn), so the draw is 1 within the bound; the
    // rules do not read the round, so the one state is worked out once.
    let enc = trenches_pair(
        50,
        "damage = \"1d4-8\"",
        "hp = 5",
        "damage = \"1d4-8\"",
        "hp = 5",
    );
    let a = solve_all(&enc);
    assert_sums_to_one(&a);
    assert_exact("draws at cap", a.draws_at_cap, 1.0, &a);
    assert_exact("fifty rounds", a.rounds[50], 1.0, &a);
    assert_eq!(a.damage[..2], [0.0, 0.0]);
    assert!(a.states <= 3, "{} states", a.states);
}

#[test]
fn too_many_states_is_refused_with_the_states_and_round_named() {
    let enc = encounter::<Trenches>(DUEL);
    let limits = Limits {
        max_states: 10,
        ..Limits::default()
    };
    let err = solve(&enc, &limits).expect_err("the duel has thousands of states");
    let ExactError::TooManyStates {
        limit,
        states,
        round,
        max_rounds,
    } = err.clone()
    else {
        panic!("not TooManyStates: {err}");
    };
    assert_eq!((limit, max_rounds), (10, 100));
    assert!(states > 10 && round >= 1, "{err}");
    let message = err.to_string();
    assert!(
        message.contains(&format!("{states} reached by round {round} of 100")),
        "{message}"
    );
    assert!(message.contains("more than 10 fight states"), "{message}");
}

/// A 1v1 osr fight of 40 HP a side: more than a chunk's 256 states start
/// most rounds (`SKIRMISH_EXACT_TRACE=1` prints them), so those layers are
/// split among the threads.
const OSR_DUEL: &str = r#"
name = "t"
rules = "osr"
max_rounds = 10
[options]
morale = "off"
[weapons.sword]
damage = "1d8"
[units.a]
hp = 40
ac = 13
str = 14
dex = 12
weapons = ["sword"]
[units.b]
hp = 40
ac = 12
str = 12
weapons = ["sword"]
[sides.red]
a = {}
[sides.blue]
b = {}
"#;

fn bits(a: &Answer) -> Vec<u64> {
    let mut v: Vec<u64> = a.wins.iter().map(|x| x.to_bits()).collect();
    v.extend(
        [a.draws, a.draws_at_cap, a.relative_error]
            .iter()
            .map(|x| x.to_bits()),
    );
    v.extend(a.rounds.iter().map(|x| x.to_bits()));
    v.extend(a.survivors.iter().map(|x| x.to_bits()));
    v.extend(a.damage.iter().map(|x| x.to_bits()));
    v.extend(a.counters.iter().map(|x| x.to_bits()));
    v.extend([a.states, a.outcomes, u64::from(a.last_round)]);
    v
}

#[test]
fn the_answer_does_not_depend_on_the_number_of_threads() {
    fn on(threads: usize, solve: &(impl Fn() -> Answer + Sync)) -> Answer {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool")
            .install(solve)
    }
    // Osr: every round one class, a death clock in the states.
    let osr = encounter::<crate::rules::Osr>(OSR_DUEL);
    let solve_o = || solve_all(&osr);
    let (one, two) = (on(1, &solve_o), on(2, &solve_o));
    assert!(
        one.states > 2_000,
        "{} states: too few to split",
        one.states
    );
    assert_eq!(bits(&one), bits(&two));
    assert_eq!(one, two);
    // Trenches (the round not read): transitions kept for the whole fight.
    let duel = encounter::<Trenches>(DUEL);
    let solve_t = || solve_all(&duel);
    let (one, two) = (on(1, &solve_t), on(2, &solve_t));
    assert!(one.states > 1_000, "{} states", one.states);
    assert_eq!(bits(&one), bits(&two));
}

/// What a Markov chain computed by hand gives for a duel of two units that
/// act in a fixed order, `a` then `b`, every round: states are what the
/// units carry between rounds (`S`).
struct Chain {
    wins: [f64; 2],
    /// `rounds[r]`: the fight ends in round `r` (the cap's draws included).
    rounds: Vec<f64>,
    draws_at_cap: f64,
    harm: [f64; 2],
}

/// Run the chain from `start` for `cap` rounds. `turn(side, state)` is one
/// turn of side `side`'s unit: its outcomes, each `(probability, next
/// state, harm it books, winner if it ends the fight)`.
fn markov<S: Clone + Eq + std::hash::Hash + Ord>(
    start: S,
    cap: u32,
    turn: impl Fn(usize, &S) -> Vec<(f64, S, f64, Option<usize>)>,
) -> Chain {
    use std::collections::BTreeMap;
    let mut chain = Chain {
        wins: [0.0; 2],
        rounds: vec![0.0; cap as usize + 1],
        draws_at_cap: 0.0,
        harm: [0.0; 2],
    };
    let mut alive: BTreeMap<S, f64> = BTreeMap::from([(start, 1.0)]);
    for r in 1..=cap {
        for side in 0..2 {
            let mut next: BTreeMap<S, f64> = BTreeMap::new();
            for (s, p) in &alive {
                for (q, t, harm, won) in turn(side, s) {
                    chain.harm[side] += p * q * harm;
                    match won {
                        Some(w) => {
                            chain.wins[w] += p * q;
                            chain.rounds[r as usize] += p * q;
                        }
                        None => *next.entry(t).or_insert(0.0) += p * q,
                    }
                }
            }
            alive = next;
        }
    }
    chain.draws_at_cap = alive.values().sum();
    chain.rounds[cap as usize] += chain.draws_at_cap;
    chain
}

#[track_caller]
fn assert_chain(answer: &Answer, chain: &Chain) {
    assert_sums_to_one(answer);
    assert_exact("red wins", answer.wins[0], chain.wins[0], answer);
    assert_exact("blue wins", answer.wins[1], chain.wins[1], answer);
    assert_exact(
        "draws at cap",
        answer.draws_at_cap,
        chain.draws_at_cap,
        answer,
    );
    assert_exact("draws", answer.draws, chain.draws_at_cap, answer);
    assert_eq!(answer.rounds.len(), chain.rounds.len());
    for (r, (&got, &want)) in answer.rounds.iter().zip(&chain.rounds).enumerate() {
        assert_exact(&format!("lasts {r} rounds"), got, want, answer);
    }
    let mean: f64 = chain
        .rounds
        .iter()
        .enumerate()
        .map(|(r, p)| r as f64 * p)
        .sum();
    assert_exact("mean rounds", answer.rounds_mean(), mean, answer);
    assert_exact("red's harm", answer.damage[0], chain.harm[0], answer);
    assert_exact("blue's harm", answer.damage[1], chain.harm[1], answer);
}

#[test]
fn a_tiny_trenches_duel_is_its_markov_chain() {
    // Trenches does not read the round (its transitions are reused every
    // round). a (3 HP, 1d4 at +2) and b (4 HP, AC 11, 1d4 at +0 against
    // a's AC 10), a first every round; a hit removes 1d4 HP, a natural 20
    // 2d4 ("Critical Successes and Critical Failures", default
    // double-dice); 0 HP is out ("Suffocating": dying; default `out`), and
    // with it the fight. States: (a's HP, b's HP).
    let cap = 12;
    let enc = trenches_pair(
        cap,
        "attack = 2\ndamage = \"1d4\"",
        "hp = 3",
        "damage = \"1d4\"",
        "hp = 4\nendurance = 1",
    );
    let by = [trenches_attack(11 - 2, 4), trenches_attack(10, 4)];
    let chain = markov((3i32, 4i32), cap, |side, &(ha, hb)| {
        let hp = if side == 0 { hb } else { ha };
        by[side]
            .iter()
            .enumerate()
            .filter(|(_, p)| **p > 0.0)
            .map(|(d, &p)| {
                let left = (hp - d as i32).max(0);
                let state = if side == 0 { (ha, left) } else { (left, hb) };
                let won = (left == 0).then_some(side);
                (p, state, f64::from(hp - left), won)
            })
            .collect()
    });
    let a = solve_all(&enc);
    assert_chain(&a, &chain);
    assert!(
        chain.rounds[1..=5].iter().all(|&p| p > 1e-3),
        "{:?}",
        chain.rounds
    );
}

/// A thrum duel for [`a_tiny_thrum_duel_is_its_markov_chain`]: a (Art 1,
/// Resilience 0) and b (Art 0, Resilience 1), Fatigue Tolerances
/// `tolerance`, trading a physical ability that deals `load` Fatigue.
fn thrum_duel(cap: u32, load: i32, tolerance: [i32; 2]) -> Encounter<Thrum> {
    encounter(&format!(
        r#"
name = "t"
rules = "thrum"
max_rounds = {cap}
[options]
initiative = "fixed"
[weapons.w]
load = {load}
[units.a]
fatigue_tolerance = {}
stress_tolerance = 5
art = 1
initiative = 1
weapons = ["w"]
[units.b]
fatigue_tolerance = {}
stress_tolerance = 5
resilience = 1
weapons = ["w"]
[sides.red]
a = {{}}
[sides.blue]
b = {{}}
"#,
        tolerance[0], tolerance[1]
    ))
}

/// The Markov chain of [`thrum_duel`]. States: each unit's (Fatigue Load,
/// Fatigue Tolerance). A turn ("Turn": Move, Action, Stance, End of Turn):
/// an attack, 2d6 + Art against 2d6 + Resilience, ties to the defender
/// ("Defensive rolls", the draft's tie rule); a hit adds `load` Fatigue Load
/// ("Fatigue and Stress"). Over its Tolerance a unit is Exhausted
/// ("Exhausted and Incapacity Roll"): +1 Bane on its attacks (3d6, the
/// worst two) and, after its Action, an Incapacity Roll: 2d6 + Resilience
/// must exceed its Load, else it is Incapacitated ("Incapacitated"): its
/// Tolerance and Load drop by 1 on falling and again at the end of its turn
/// (the default `same_turn_decay`), and a Load of 0 ends the incapacity at
/// once; a unit still down when its turn ends has lost, its side being out
/// ("End of Combat": all incapacitated).
fn thrum_chain(cap: u32, load: i32, tolerance: [i32; 2]) -> Chain {
    let (art, resilience) = ([1, 0], [0, 1]);
    let (two, _) = kept_2d6(0);
    let fails = |me: usize, fatigue: i32| -> f64 {
        let bad: u64 = (2..=12)
            .filter(|&s| s + resilience[me] <= fatigue)
            .map(|s| two[s as usize])
            .sum();
        bad as f64 / 36.0
    };
    let start = [(0, tolerance[0]), (0, tolerance[1])];
    markov(start, cap, |me, units| {
        let other = 1 - me;
        let (fatigue, tol) = units[me];
        let exhausted = fatigue > tol;
        let hit = opposed(-i32::from(exhausted), 0, |o, d| {
            o + art[me] > d + resilience[other]
        });
        let mut out = Vec::new();
        for (p, harm) in [(hit, load), (1.0 - hit, 0)] {
            let mut after = *units;
            after[other].0 += harm;
            let harm = f64::from(harm);
            if !exhausted {
                out.push((p, after, harm, None));
                continue;
            }
            let f = fails(me, fatigue);
            out.push((p * (1.0 - f), after, harm, None));
            // Incapacitated: two decrements, reviving at a Load of 0.
            let (mut l, mut t) = (fatigue, tol);
            let mut revived = false;
            for _ in 0..2 {
                (l, t) = ((l - 1).max(0), (t - 1).max(0));
                if l == 0 {
                    revived = true;
                    break;
                }
            }
            if revived {
                after[me] = (0, t);
                out.push((p * f, after, harm, None));
            } else {
                out.push((p * f, after, harm, Some(other)));
            }
        }
        out
    })
}

#[test]
fn a_tiny_thrum_duel_is_its_markov_chain() {
    // Thrum does not read the round either. With hits of 3 Fatigue and
    // Tolerance 1 the fight can end from the first round on; with hits of 2
    // (Tolerances 1 and 2) it takes two rounds at least, and a unit failing
    // at a Load of 2 revives in the same turn.
    let (cap, enc) = (12, thrum_duel(12, 3, [1, 1]));
    let a = solve_all(&enc);
    let chain = thrum_chain(cap, 3, [1, 1]);
    assert_chain(&a, &chain);
    assert!(
        chain.rounds[1..=5].iter().all(|&p| p > 1e-3),
        "{:?}",
        chain.rounds
    );
    let (cap, enc) = (20, thrum_duel(20, 2, [1, 2]));
    let a = solve_all(&enc);
    let chain = thrum_chain(cap, 2, [1, 2]);
    assert_chain(&a, &chain);
    assert_eq!(chain.rounds[1], 0.0);
    assert!(
        chain.rounds[2..=5].iter().all(|&p| p > 1e-3),
        "{:?}",
        chain.rounds
    );
    assert!(
        a.counters[thrum::counter::SELF_REVIVALS] > 0.01,
        "the revival is exercised"
    );
}

/// Not a test: states, outcomes and seconds of every example cell
/// (`cargo test --release --lib exact::tests::measure -- --ignored --nocapture`).
#[test]
#[ignore]
fn measure() {
    let dir = std::env::var("DIR").unwrap_or("scenarios".into());
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    let only = std::env::var("ONLY").unwrap_or_default();
    for f in files {
        if !f.to_string_lossy().contains(&only) {
            continue;
        }
        let s = crate::scenario::load(&f).unwrap();
        let p = crate::run::plan(&s).unwrap();
        for c in 0..p.cells.len().min(2) {
            let t = std::time::Instant::now();
            let a = p.exact(
                c,
                &Limits {
                    max_states: 20_000_000,
                    max_outcomes: 400_000_000,
                },
            );
            let secs = t.elapsed().as_secs_f64();
            match a {
                Ok(a) => eprintln!(
                    "{} cell {c}: {} states {} outcomes {:.3}s win {:.6} err {:.1e}",
                    s.name,
                    a.states,
                    a.outcomes,
                    secs,
                    a.wins[0],
                    a.error()
                ),
                Err(e) => eprintln!("{} cell {c}: {e} ({secs:.3}s)", s.name),
            }
        }
    }
}

/// `Fight::settle_order`: a unit gone for good (trenches: dead) goes to the
/// end of the turn order and out of the round's units that have acted, so
/// that two fights that differ only in where it stood, or whether it had
/// acted, become one state; the round goes on with the same units next.
#[test]
fn a_unit_gone_for_good_moves_to_the_end_of_the_order() {
    let enc: Encounter<Trenches> = encounter(
        r#"
name = "t"
rules = "trenches"
[options]
initiative = "fixed"
[weapons.w]
damage = "1d6"
[units.a]
hp = 5
dex = 3
weapons = ["w"]
[units.b]
hp = 5
dex = 2
weapons = ["w"]
[units.c]
hp = 5
dex = 1
weapons = ["w"]
[units.d]
hp = 5
dex = 0
weapons = ["w"]
[sides.red]
a = {}
b = {}
[sides.blue]
c = {}
d = {}
"#,
    );
    // Two fights two turns into a round, unit 0 dead in both: in one it
    // acted first, in the other second (orders 0 1 2 3 and 1 0 2 3).
    let mut first = crate::testkit::fight(&enc);
    first.make_order(&enc, &mut crate::dice::ScriptedDice::new(&[]));
    assert_eq!(first.turn_order(), &[0, 1, 2, 3]);
    let mut second = first;
    second.set_order_for_exact(&[1, 0, 2, 3]);
    let mut cursors = [first.round_start_for_exact(); 2];
    for (f, cursor) in [&mut first, &mut second].into_iter().zip(&mut cursors) {
        for _ in 0..2 {
            f.next_actor(&enc, cursor).expect("a unit to act");
        }
        f.units[0].out = true;
        f.settle_order(cursor);
        assert_eq!(f.turn_order(), &[1, 2, 3, 0]);
    }
    assert_eq!(cursors[0], cursors[1]);
    // The round goes on with units 2 and 3, as it would have.
    let rest: Vec<usize> = std::iter::from_fn(|| first.next_actor(&enc, &mut cursors[0])).collect();
    assert_eq!(rest, [2, 3]);
    // A dying unit (lingering: it rolls death saves) is not gone.
    let mut dying = crate::testkit::fight(&enc);
    dying.make_order(&enc, &mut crate::dice::ScriptedDice::new(&[]));
    dying.units[0].out = true;
    dying.units[0].lingering = true;
    let mut cursor = dying.round_start_for_exact();
    dying.settle_order(&mut cursor);
    assert_eq!(dying.turn_order(), &[0, 1, 2, 3]);
}
