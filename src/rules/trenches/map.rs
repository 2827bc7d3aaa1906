//! `trenches`' geometry on a map (issue 29): cover by the place, and the
//! path of a move square by square for attacks of opportunity. Called from
//! the turn functions' `MAP = true` halves (see `Plan`), out of line, so the
//! front's turns carry none of it.

use super::Trenches;
use crate::dice::Dice;
use crate::engine::{ground, Turn};

/// On a map, the target's cover against the actor is the place's: terrain
/// on the line next to the target (a low wall, a parapet) or the cover dug
/// where it stands (a trench, a foxhole, a firing position), against an
/// attacker that is not next to it ("Cover"). Set before each attack, so the
/// attack rolls read it as they read the front's cover.
#[inline(never)]
pub(super) fn aim<D: Dice>(turn: &mut Turn<'_, Trenches, D>, target: usize) {
    if let Some(g) = turn.ground() {
        let cover = g.cover(turn.square(turn.actor), turn.square(target));
        turn.unit_mut(target).cover = cover;
    }
}

/// The closest the actor's last move, from `from`, came to position `at`:
/// the nearest square of its path ([`Turn::last_path`]). The attack of
/// opportunity is rolled at that distance ("rolled with whatever modifiers
/// would be appropriate as they left their immediate 5m radius", Combat
/// Rounds), as on the front.
#[inline(never)]
pub(super) fn closest_on_path<D: Dice>(turn: &Turn<'_, Trenches, D>, from: i32, at: i32) -> i32 {
    let Some(g) = turn.ground() else {
        return turn.gap(from, at);
    };
    let at = ground::unpack(at);
    turn.last_path(from, |path| {
        path.iter()
            .map(|&s| g.distance(s, at))
            .min()
            .unwrap_or(i32::MAX)
    })
}

/// Whether the actor's last move, from `from`, left the `reach` of an enemy
/// at position `at` at some step: a square within it followed by one beyond
/// ("Any creature within 5m of an enemy who attempts to leave the 5m radius
/// of that creature", Combat Rounds), wherever the move began. With
/// `passing_provokes`: a unit that only passes by an enemy (starting and
/// ending beyond its reach) provokes it as it leaves.
#[inline(never)]
pub(super) fn leaves_reach_on_path<D: Dice>(
    turn: &Turn<'_, Trenches, D>,
    from: i32,
    at: i32,
    reach: i32,
) -> bool {
    let Some(g) = turn.ground() else {
        return false;
    };
    let at = ground::unpack(at);
    turn.last_path(from, |path| {
        path.windows(2)
            .any(|w| g.distance(w[0], at) <= reach && g.distance(w[1], at) > reach)
    })
}
