//! The rulesets' fast paths (`Ruleset::quick_turn`) change nothing: every
//! cell of every example scenario, fought with them and without them (every
//! turn through `Ruleset::take_turn`) from the same dice, gives the same
//! tally: same winners, rounds, survivors, harm and counters, which it could
//! not if a fast path rolled a die more, less or in another order.

use skirmish::dice::RngDice;
use skirmish::engine::{Fight, Tally};
use skirmish::rules::Ruleset;
use skirmish::scenario::{self, compile::compile};

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
        let mut dice = RngDice::for_batch(s.seed, i as u64);
        fight.run_into(&enc, &mut dice, FIGHTS, &mut quick);
        let mut dice = RngDice::for_batch(s.seed, i as u64);
        fight.run_into_without_quick_turns(&enc, &mut dice, FIGHTS, &mut full);
        assert_eq!(
            quick, full,
            "{name}, cell {i}: the fast path changed the fights"
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
