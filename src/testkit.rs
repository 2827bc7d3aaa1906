//! Helpers for tests (unit tests, integration tests, benches): build an
//! encounter from scenario text and play single turns with chosen dice.
//! Not used by the simulator itself.

use crate::dice::Dice;
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
