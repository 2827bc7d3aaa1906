//! `escalation` on a map (issue 29, part 3): the rules the text writes for
//! squares, with the map's geometry.
//!
//! - "Melee Zone": "all the squares adjacent to a unit" (Reach: 2 spaces),
//!   Chebyshev distance on the grid (diagonals are adjacent).
//! - "Free Hits": "when an enemy moves out of your melee zone or moves more
//!   than 2 spaces within your melee zone", followed square by square along
//!   the path the mover took ([`crate::engine::Turn::last_path`]).
//! - "Disengage": leaving zones provokes nothing for the round (moving more
//!   than 2 spaces inside one still does, as on the front).
//! - "Flanking": "attacking a unit from behind", read by the `flanking`
//!   option ([`Flanking`]): by default the attacker stands on the opposite
//!   side of the target from another enemy in the target's melee zone
//!   ([`crate::map::opposite_sides`]).
//! - Attacks need a line of sight ([`crate::engine::Turn::sees`], called by
//!   the turn's target choices in the parent module).
//!
//! Everything here runs only on a map: out of line and cold, so the front's
//! turns cost what they did.

use super::{free_hit, stamp, Escalation, Flanking, Swing};
use crate::dice::Dice;
use crate::engine::ground::Ground;
use crate::engine::{Bits, Turn, MAX_UNITS};
use crate::map::{opposite_sides, Square};

/// Whether a move from `from` along `path` (its squares in order, `from`
/// left out) provokes a free hit from a unit standing at `at` with a melee
/// zone of `zone` ("Free Hits": "when an enemy moves out of your melee zone
/// or moves more than 2 spaces within your melee zone"), and if so the
/// distance it strikes at: the nearest the mover came, within the zone.
///
/// It provokes when a step of the move goes from a square of the zone to
/// one outside it (moving through a zone is moving out of it, wherever the
/// move began or ends), unless the mover has `disengaged` ("Disengage":
/// leaving zones "without provoking free hits"); or when it moves more than
/// `allowance` spaces within the zone: steps from a square of the zone to
/// another (one space each, the map's scale per square), disengaged or not.
pub fn provokes_on_path(
    g: &Ground,
    from: Square,
    path: &[Square],
    at: Square,
    zone: i32,
    disengaged: bool,
    allowance: i32,
) -> Option<i32> {
    let mut nearest = g.distance(from, at);
    let mut inside = nearest <= zone;
    let mut leaves = false;
    let mut within = 0;
    for &s in path {
        let d = g.distance(s, at);
        let now = d <= zone;
        if now && inside {
            within += g.scale;
        }
        leaves |= inside && !now;
        inside = now;
        nearest = nearest.min(d);
    }
    ((leaves && !disengaged) || within > allowance).then_some(nearest.min(zone))
}

/// Whether a move of at most `steps` squares from `from` to `to` may
/// provoke a free hit from a unit at `at` with a melee zone of `zone`
/// (see [`provokes_on_path`]), by the two ends alone: `false` only when no
/// path of that length can. A step changes the (Chebyshev) distance to
/// `at` by one square at most, so the squares `i` steps into the move that
/// can lie in the zone are those with `distance(from) - i` and
/// `distance(to) - (steps - i)` both within it: a window of `m` squares in
/// a row. Nothing in it: the move never touches the zone. A move that ends
/// in the zone leaves it on the way only by going out and back in (3
/// squares of the window at least), and moves `(m - 1)` squares within it
/// at most.
pub fn may_provoke(
    g: &Ground,
    (from, to): (Square, Square),
    steps: i32,
    at: Square,
    zone: i32,
    allowance: i32,
) -> bool {
    let s = g.scale.max(1);
    let beyond = |d: i32| ((d - zone).max(0) + s - 1) / s;
    let (d_from, d_to) = (g.distance(from, at), g.distance(to, at));
    let first = beyond(d_from);
    let last = steps.saturating_sub(beyond(d_to));
    let m = last.saturating_sub(first).saturating_add(1);
    m >= 1 && (d_to > zone || m >= 3 || (m - 1).saturating_mul(s) > allowance)
}

/// [`super::moving`] on a map: move the actor with `step` (it returns the
/// movement spent, in spaces, or [`super::UNKNOWN_MOVE`]), then every
/// enemy whose zone the path provokes takes its free hit, in unit order (as
/// on the front). The mover is struck where it ends (the abstraction the
/// front makes too: a move is not cut short by a free hit).
#[inline(never)]
#[cold]
pub(super) fn moving<D: Dice>(
    turn: &mut Turn<'_, Escalation, D>,
    step: impl FnOnce(&mut Turn<'_, Escalation, D>) -> i32,
) {
    // Only units whose plan is on a map come here: they have a ground.
    let Some(g) = turn.ground() else {
        step(turn);
        return;
    };
    let me = turn.actor;
    let round = turn.fight.round;
    let disengaged = turn.unit(me).state.disengaged_round == stamp(round);
    let allowance = turn.options().free_zone_move;
    let side = turn.unit(me).side as usize;
    let watch = turn.in_fight() & !turn.side_units(side);
    let start = turn.unit(me).position;
    let from = turn.square(me);
    let spent = step(turn);
    let to = turn.square(me);
    if to == from {
        // No move, no zone left and no space moved in one.
        return;
    }
    // Every step costs a square of movement at least (difficult terrain
    // more), so the move has at most this many steps.
    let steps = if spent == super::UNKNOWN_MOVE {
        i32::MAX
    } else {
        spent / g.scale.max(1)
    };
    // Worked out for every watcher before anybody strikes (a free hit moves
    // nobody, but the path is this thread's until the next move).
    let mut provoked = 0u64;
    let mut distance = [0i32; MAX_UNITS];
    for e in Bits(watch) {
        let (at, zone) = (turn.square(e), turn.spec(e).stats.reach);
        // The path of a move that walked without a search is searched when
        // read: only for a watcher whose zone the move may have provoked.
        if !may_provoke(g, (from, to), steps, at, zone, allowance) {
            continue;
        }
        // `last_path` starts with `from`; `provokes_on_path` takes it apart.
        let hit = turn.last_path(start, |path| {
            provokes_on_path(g, from, &path[1..], at, zone, disengaged, allowance)
        });
        if let Some(d) = hit {
            provoked |= 1 << e;
            distance[e] = d;
        }
    }
    for enemy in Bits(provoked) {
        if turn.unit(me).out {
            return;
        }
        free_hit::<D, true>(turn, enemy, me, distance[enemy], Swing::Free, 0);
    }
}

/// [`super::flanked`] on a map: whether the actor, attacking `target`
/// (whose melee zone is `zone`), flanks it by the `flanking` option's
/// reading of "attacking a unit from behind". The caller has checked that
/// the actor is in the zone.
///
/// One pass over the target's other enemies, each measured where it
/// stands (no mask of the zone built first): the first in the zone (and,
/// read `behind`, on the opposite side of the target from the actor)
/// answers.
#[inline(never)]
#[cold]
pub(super) fn flanked<D: Dice>(turn: &Turn<'_, Escalation, D>, target: usize, zone: i32) -> bool {
    let Some(g) = turn.ground() else {
        return false;
    };
    let me = turn.actor;
    let side = turn.unit(target).side as usize;
    let others = turn.in_fight() & !turn.side_units(side) & !(1u64 << me);
    let (t, a) = (turn.square(target), turn.square(me));
    let behind = turn.options().flanking == Flanking::Behind;
    Bits(others).any(|e| {
        let s = turn.square(e);
        (!behind || opposite_sides(t, a, s)) && g.distance(t, s) <= zone
    })
}
