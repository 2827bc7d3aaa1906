//! Machinery shared by rulesets that is not tied to one dice chassis.

use crate::dice::Dice;
use crate::engine::{Bits, Turn};
use crate::rules::{Ruleset, MAX_WEAPONS};

/// Move the actor with `step` (an [`Turn::approach`] or [`Turn::back_off`])
/// and return, as a bit set, the units of `watch` whose reaction the move
/// provokes: those for which `provokes(turn, unit, from)` holds after the
/// move, `from` being the mover's position before it. The caller resolves
/// the reactions (attacks of opportunity, free hits), in unit order, while
/// the mover is still in the fight. Used by trenches (leaving 5 m reach) and
/// escalation (leaving a melee zone or moving more than 2 spaces in it).
#[inline]
pub fn provoking_move<R: Ruleset, D: Dice>(
    turn: &mut Turn<'_, R, D>,
    watch: u64,
    step: impl FnOnce(&mut Turn<'_, R, D>),
    provokes: impl Fn(&Turn<'_, R, D>, usize, i32) -> bool,
) -> u64 {
    let from = turn.unit(turn.actor).position;
    step(turn);
    let mut provoked = 0;
    for unit in Bits(watch) {
        if provokes(turn, unit, from) {
            provoked |= 1 << unit;
        }
    }
    provoked
}

/// A stat block's weapons, best expected damage (`mean`) first, in a fixed
/// array: turns use the first one that reaches. Ties keep list order.
pub fn best_first<W: Copy + Default>(
    weapons: &[W],
    mean: impl Fn(&W) -> f64,
) -> ([W; MAX_WEAPONS], u8) {
    let mut sorted = weapons.to_vec();
    sorted.sort_by(|a, b| mean(b).total_cmp(&mean(a)));
    let mut out = [W::default(); MAX_WEAPONS];
    out[..sorted.len()].copy_from_slice(&sorted);
    (out, sorted.len() as u8)
}
