//! Helpers for tests (unit tests, integration tests, benches): build an
//! encounter from scenario text and play single turns with chosen dice.
//! Not used by the simulator itself.

use crate::dice::{Dice, RngDice};
use crate::engine::{Encounter, Fight, Turn};
use crate::rules::Ruleset;
use crate::scenario::compile::compile_str;

/// Compile scenario text (matrix ignored); panics with the error message if
/// it does not compile, since a test's own scenario must be valid.
pub fn encounter<R: Ruleset>(text: &str) -> Encounter<R> {
    match compile_str::<R>(text) {
        Ok(c) => c.encounter,
        Err(e) => panic!("test scenario does not compile: {e}"),
    }
}

/// `scenario` (a fixture's text, whose `[options]` table is empty) with
/// `opts`, the body of an `[options]` table, put into it; panics if the
/// fixture has no `[options]` line.
pub fn with_options(scenario: &str, opts: &str) -> String {
    let (head, tail) = scenario
        .split_once("[options]\n")
        .expect("the fixture has an [options] table");
    format!("{head}[options]\n{opts}\n{tail}")
}

/// A fight reset to its start.
pub fn fight<R: Ruleset>(enc: &Encounter<R>) -> Fight<R> {
    let mut f = Fight::new();
    f.reset(enc);
    f
}

/// Run `body` as unit `actor`'s turn.
pub fn as_turn<R: Ruleset, D: Dice, T>(
    enc: &Encounter<R>,
    fight: &mut Fight<R>,
    dice: &mut D,
    actor: usize,
    body: impl FnOnce(&mut Turn<'_, R, D>) -> T,
) -> T {
    body(&mut Turn {
        enc,
        fight,
        dice,
        actor,
    })
}

/// Fraction of `n` trials for which `trial` holds, with dice seeded `seed`.
pub fn rate(n: u32, seed: u64, mut trial: impl FnMut(&mut RngDice) -> bool) -> f64 {
    let mut dice = RngDice::for_batch(seed, 0);
    (0..n).filter(|_| trial(&mut dice)).count() as f64 / n as f64
}

/// Four standard errors of a proportion `p` estimated from `n` trials:
/// 4·√(p(1−p)/n), the bound statistical tests use.
pub fn four_se(p: f64, n: u32) -> f64 {
    4.0 * (p * (1.0 - p) / n as f64).sqrt()
}

/// Fraction of `n` whole fights of `enc` (dice seeded `seed`) for which
/// `event` holds of the fight as it ended: for statistical checks of
/// multi-turn situations against exact probabilities.
pub fn fight_rate<R: Ruleset>(
    enc: &Encounter<R>,
    n: u32,
    seed: u64,
    mut event: impl FnMut(&Fight<R>, crate::engine::Outcome) -> bool,
) -> f64 {
    let mut dice = RngDice::for_batch(seed, 0);
    let mut f = Fight::new();
    let mut hits = 0u32;
    for _ in 0..n {
        let outcome = f.run(enc, &mut dice);
        R::finish(&mut f, enc, outcome);
        hits += event(&f, outcome) as u32;
    }
    hits as f64 / n as f64
}

/// Assert that a rate measured over `n` trials lies within four standard
/// errors of the exact probability `p`.
#[track_caller]
pub fn assert_within_four_se(what: &str, got: f64, p: f64, n: u32) {
    let bound = four_se(p, n);
    assert!(
        (got - p).abs() < bound,
        "{what}: measured {got:.5}, exact {p:.5}, 4 SE = {bound:.5} over {n} trials"
    );
}
