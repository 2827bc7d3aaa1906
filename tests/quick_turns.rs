//! The rulesets' fast paths (`Ruleset::quick_turn`, `Ruleset::quick_batch`)
//! change nothing: every cell of every example scenario, fought with them
//! and without them (every turn through `Ruleset::take_turn`) from the same
//! dice, gives the same tally (same winners, rounds, survivors, harm and
//! counters) and leaves the dice at the same place, which it could not if a
//! fast path rolled a die more, less or in another order.

use skirmish::dice::{Dice, RngDice};
use skirmish::engine::{Fight, Tally};
use skirmish::rules::Ruleset;
use skirmish::scenario::{self, compile::compile, Source};

const FIGHTS: u32 = 2_000;

/// Compare both paths on every cell of `s`; returns the cells compared.
fn compare_paths<R: Ruleset>(s: &scenario::Scenario, name: &str) -> usize {
    let cells = s.cells().expect("example scenarios expand");
    for (i, c) in cells.iter().enumerate() {
        let enc = compile::<R>(s.ctx(), &c.root, s.max_rounds)
            .expect("example scenarios compile")
            .encounter;
        let mut fight = Fight::<R>::new();
        let (mut quick, mut full) = (Tally::default(), Tally::default());
        let mut quick_dice = RngDice::for_batch(s.seed, i as u64);
        fight.run_into(&enc, &mut quick_dice, FIGHTS, &mut quick);
        let mut full_dice = RngDice::for_batch(s.seed, i as u64);
        fight.run_into_without_quick_turns(&enc, &mut full_dice, FIGHTS, &mut full);
        assert_eq!(
            quick, full,
            "{name}, cell {i}: the fast path changed the fights"
        );
        // Both left the dice where the batch's last fight ended.
        assert_eq!(
            quick_dice.roll(1 << 30),
            full_dice.roll(1 << 30),
            "{name}, cell {i}: the fast path rolled a die more or less"
        );
    }
    cells.len()
}

#[test]
fn quick_turns_change_nothing() {
    let mut trenches = 0;
    for entry in std::fs::read_dir("scenarios").expect("scenarios/ exists") {
        let path = entry.expect("readable").path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let s = scenario::load(&path).expect("example scenarios load");
        let name = path.display().to_string();
        let cells = skirmish::with_ruleset!(s.rules.as_str(), R => compare_paths::<R>(&s, &name),
            _ => panic!("unknown ruleset in {name}"));
        if s.rules == "trenches" {
            trenches += cells;
        }
    }
    // duel, trench_raid, gas_attack, over_the_top and their matrices.
    assert!(
        trenches >= 4,
        "found the trenches scenarios ({trenches} cells)"
    );
}

/// Duels of every kind `trenches` fights in one loop (`Ruleset::quick_batch`):
/// weapons of one die and of several (and damage that can come out below
/// 0), melee and firearms against every cover, every crit rule, every
/// initiative scheme (alternating ones are declined and fought turn by
/// turn), with and without `nat20_hits`, units dropping out or rolling
/// death saves, and a round cap short enough to be reached. Each cell is
/// fought with the fast paths and without them from the same dice: the
/// tallies must be equal. Both units advance (a firearm's default is to
/// hold, which the duel loop declines). Breaking the cover cut or the
/// floor at 0 damage in the loop fails this test (checked by hand).
#[test]
fn trenches_duels_fought_in_one_loop_change_nothing() {
    let text = r#"
name = "duels"
rules = "trenches"
fights = 500
seed = 7
max_rounds = 6

[weapons.w]
kind = "melee"
attack = 5
damage = "1d8+3"
range = 5

[units.fighter]
hp = 14
endurance = 3
armor = 3
dex = 1
weapons = ["w"]

[sides.red]
fighter = { count = 1, tactic = "advance" }

[sides.blue]
fighter = { count = 1, cover = "none", tactic = "advance" }

[matrix]
"weapons.w.kind" = ["melee", "firearm"]
"weapons.w.damage" = ["1d8+3", "2d6", "1d4-2"]
"sides.blue.fighter.cover" = ["none", "half", "full"]
"options.crit" = ["double-dice", "double-total", "max-plus-roll", "none"]
"options.initiative" = ["rolled", "rerolled", "alternating", "fixed", "side"]
"options.nat20_hits" = [true, false]
"options.at_zero_hp" = ["out", "death-saves"]
"#;
    let s = scenario::parse(Source {
        path: "duels.toml".into(),
        text: text.into(),
    })
    .expect("the duels scenario parses");
    let cells = compare_paths::<skirmish::rules::Trenches>(&s, "duels");
    assert_eq!(cells, 2 * 3 * 3 * 4 * 5 * 2 * 2);
}
