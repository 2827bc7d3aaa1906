//! `dicestep` on a map (issue 29, part 3): the geometric halves of its
//! rules, read from where the units stand.
//!
//! A square is 1 m and distances are the alternating metric's ("Movement
//! and Distances": "treat every second diagonal space moved as 2m instead of
//! 1m"), so "within 1 m" is the eight neighbours and reach, range, speed and
//! the Step are counted in metres along the grid; paths and sight are the
//! engine's ([`Turn::approach`], [`Turn::sees`]).
//!
//! - Flanking ("Attacks"): the target "surrounded on two opposite sides":
//!   two of its enemies within `reach` on opposite sides of it
//!   ([`crate::map::opposite_sides`]: north and south, east and west, or
//!   opposite corners), for any attacker, one outside the flank included.
//! - Seek Cover ("Actions in Combat"): "while behind cover": a unit can seek
//!   cover only where terrain covers it from an enemy (a low wall, high
//!   cover or a wall next to it on the line from that enemy, or a trench it
//!   stands in: [`crate::map::cover_between`] with `near = 1`), and a ranged
//!   attack has the disadvantage only if that cover lies between its
//!   attacker and the unit.
//! - Misfire ("Attacks"): the characters "within 1m" of the target are those
//!   within `misfire_radius` metres of its square (the mod's `misfire_target`,
//!   through [`Turn::gap`]).
//! - Intercept ("Table: Reactions"): "move and displace an ally": the
//!   bodyguard and the ally it guards swap squares.
//!
//! Every function here runs only on a map; each is out of line and cold so
//! that the front's turns cost what they did.

use super::Dicestep;
use crate::dice::Dice;
use crate::engine::{Bits, Cover, Turn};

/// Flanking on the map: enemies of `target` within `reach` of it on two
/// opposite sides ([`Turn::flanked`]).
#[inline(never)]
#[cold]
pub(super) fn flanked<D: Dice>(turn: &Turn<'_, Dicestep, D>, target: usize) -> bool {
    turn.flanked(target, turn.options().reach)
}

/// Whether `unit` stands behind cover from some enemy in the fight: the
/// terrain next to it on the line from that enemy covers it (or it stands
/// in a trench against an enemy not next to it). Where this is false, Seek
/// Cover has nothing to hide behind.
#[inline(never)]
#[cold]
pub(super) fn behind_cover<D: Dice>(turn: &Turn<'_, Dicestep, D>, unit: usize) -> bool {
    let Some(g) = turn.ground() else {
        return false;
    };
    let at = turn.square(unit);
    let side = turn.unit(unit).side as usize;
    Bits(turn.in_fight() & !turn.side_units(side))
        .any(|e| g.cover(turn.square(e), at) != Cover::None)
}

/// Whether `target`'s cover lies between the actor and it: "ranged
/// attackers have disadvantage while behind cover" is read per attacker, so
/// a shot from a side the cover does not face has none.
#[inline(never)]
#[cold]
pub(super) fn covered_from_actor<D: Dice>(turn: &Turn<'_, Dicestep, D>, target: usize) -> bool {
    let Some(g) = turn.ground() else {
        return false;
    };
    g.cover(turn.square(turn.actor), turn.square(target)) != Cover::None
}

/// Intercept on the map: `guard` takes `ward`'s square and `ward` takes
/// the guard's ("displace an ally"), so no two units share a square.
#[inline(never)]
#[cold]
pub(super) fn swap_places<D: Dice>(turn: &mut Turn<'_, Dicestep, D>, guard: usize, ward: usize) {
    let (a, b) = (turn.unit(guard).position, turn.unit(ward).position);
    turn.unit_mut(guard).position = b;
    turn.unit_mut(ward).position = a;
}
