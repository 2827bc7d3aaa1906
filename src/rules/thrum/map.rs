//! `thrum` on a map (issue 29, part 3): the text's geometric rules worked
//! out from where the units stand.
//!
//! - **Cover** ("Cover"): [`crate::map::thrum_cover`] for each attack, from
//!   the attacker's and the target's squares, the terrain's elevation and
//!   every character still on the map (standing or Incapacitated; not one
//!   removed from combat). Cover: +1 Bane on physical attacks; Obstructed:
//!   the target cannot be targeted by that attack (physical ones, or every
//!   one with `obstruction = "all"`).
//! - **Ranged** ("Ranged"): +1 Bane per enemy on one of the eight squares
//!   around the user.
//! - **Line of sight**: an attack targets only a character its user sees
//!   (the map's symmetric grid line). The text has no sight rule; a designer
//!   drawing a wall expects it to stop what is aimed through it.
//! - **Areas** ("Areas"): an ability with an `area` attacks every character
//!   in its shape, allies included ("Abilities that target an Area affect
//!   all characters in the area"), each with its own opposed roll (see
//!   [`fire_area`] for where it is aimed).
//!
//! Each function here is out of line and cold: the front's turns keep only a
//! test of the encounter's ground, so they cost what they did.

use super::{
    enemy_units, strike, strike_covered, Ability, AbilityKind, AreaKind, Obstruction, Thrum,
    ADJACENT,
};
use crate::dice::Dice;
use crate::engine::ground;
use crate::engine::{Bits, Ground, Turn};
use crate::map::{thrum_cover, Metric, Shape, Square, ThrumCover, STEPS};

/// The squares within two of a centre on which a character stands (any
/// unit not removed from combat: Incapacitated ones still occupy their
/// square), as a 5 × 5 bit mask: built with one pass over the units, then
/// each question of the cover rule (the eight squares around the target and
/// the two beside each source, all within two of it) is a bit test, not a
/// pass over the units.
#[derive(Clone, Copy)]
struct Near {
    centre: Square,
    bits: u32,
}

impl Near {
    #[inline]
    fn around<D: Dice>(turn: &Turn<'_, Thrum, D>, centre: Square) -> Near {
        let mut bits = 0;
        for i in 0..turn.enc.n {
            let u = turn.unit(i);
            let (dx, dy) = centre.delta(ground::unpack(u.position));
            if !u.state.removed && dx.abs() <= 2 && dy.abs() <= 2 {
                bits |= 1 << ((dy + 2) * 5 + dx + 2);
            }
        }
        Near { centre, bits }
    }

    /// [`Near::around`] from the squares of the characters on the map.
    #[inline]
    fn of(squares: impl Iterator<Item = Square>, centre: Square) -> Near {
        let mut bits = 0;
        for s in squares {
            let (dx, dy) = centre.delta(s);
            if dx.abs() <= 2 && dy.abs() <= 2 {
                bits |= 1 << ((dy + 2) * 5 + dx + 2);
            }
        }
        Near { centre, bits }
    }

    /// A character stands on `s` (which must be within two of the centre;
    /// farther squares answer no).
    #[inline]
    fn has(&self, s: Square) -> bool {
        let (dx, dy) = self.centre.delta(s);
        dx.abs() <= 2 && dy.abs() <= 2 && self.bits & (1 << ((dy + 2) * 5 + dx + 2)) != 0
    }
}

/// Distance from the actor to unit `i` on the map ([`Turn::enemy_distance`]
/// without its test of the ground and its call: the map's turns ask it
/// for every enemy they weigh).
#[inline]
pub(super) fn apart<D: Dice>(turn: &Turn<'_, Thrum, D>, g: &Ground, i: usize) -> i32 {
    g.distance(turn.square(turn.actor), turn.square(i))
}

/// Whether the actor sees unit `i` ([`Turn::sees`], as [`apart`]).
#[inline]
fn seen<D: Dice>(turn: &Turn<'_, Thrum, D>, g: &Ground, i: usize) -> bool {
    g.sees(turn.square(turn.actor), turn.square(i))
}

/// thrum's exact cover of `target` against `attacker` ("Cover").
///
/// An attacker on one of the eight squares around the target never has it
/// in cover (the front's rule says the same: cover needs the attacker
/// beyond ADJACENT): a source `c = target + v` covers only against an
/// attacker with `(attacker - c) · v > 0`, and an adjacent attacker
/// `target + a` has `(a - v) · v = a · v - v · v <= 0` for any two steps
/// `a` and `v` (`a · v` is at most 1 for a straight `v`, at most 2 = `v · v`
/// for a diagonal one). So the melee attack, the commonest, costs a
/// distance and no look at the ground or the units.
#[inline]
pub(super) fn cover<D: Dice>(
    turn: &Turn<'_, Thrum, D>,
    g: &Ground,
    attacker: usize,
    target: usize,
) -> ThrumCover {
    let (from, at) = (turn.square(attacker), turn.square(target));
    if Metric::Chebyshev.distance(from, at) <= 1 {
        return ThrumCover::None;
    }
    exact_cover(turn, g, from, at)
}

/// [`cover`] from beyond the eight squares around the target: the rule
/// read from the ground and the characters near the target.
#[inline(never)]
#[cold]
fn exact_cover<D: Dice>(
    turn: &Turn<'_, Thrum, D>,
    g: &Ground,
    from: Square,
    at: Square,
) -> ThrumCover {
    let near = Near::around(turn, at);
    thrum_cover(&g.map, from, at, |s| near.has(s))
}

/// Whether cover `c` Obstructs ability `a` ("Cover": physical attacks, or
/// every one with `obstruction = "all"`).
#[inline]
fn obstructs<D: Dice>(turn: &Turn<'_, Thrum, D>, c: ThrumCover, a: &Ability) -> bool {
    c == ThrumCover::Obstructed
        && (a.kind == AbilityKind::Physical || turn.options().obstruction == Obstruction::All)
}

/// The Ranged tag's count on a map: enemies on the eight squares around
/// unit `me` (Incapacitated ones too, as on the front; removed ones not).
#[inline(never)]
#[cold]
pub(super) fn adjacent_enemies<D: Dice>(turn: &Turn<'_, Thrum, D>, g: &Ground, me: usize) -> i32 {
    let at = turn.square(me);
    let mut count = 0;
    for i in Bits(enemy_units(turn, me)) {
        let u = turn.unit(i);
        count += i32::from(
            (!u.out || u.state.incapacitated)
                && g.costs.metric.distance(at, turn.square(i)) as i32 <= ADJACENT,
        );
    }
    count
}

/// The actor's first (best) ability that may target unit `i` from where it
/// stands: within range, in sight, and (for a single target) not
/// Obstructed. An area ability only needs the target in range and in
/// sight: where it lands is decided when it is used ([`fire_area`]).
#[inline(never)]
#[cold]
pub(super) fn usable<'t, D: Dice>(
    turn: &Turn<'t, Thrum, D>,
    g: &Ground,
    i: usize,
) -> Option<&'t Ability> {
    let d = apart(turn, g, i);
    // Out of every ability's range (most enemies, for a melee unit): no
    // look at the sight table.
    if d > turn.spec(turn.actor).stats.kit.max_range || !seen(turn, g, i) {
        return None;
    }
    usable_in_sight(turn, g, i, d)
}

/// [`usable`] for unit `i`, `d` away, already known to be in sight.
#[inline]
fn usable_in_sight<'t, D: Dice>(
    turn: &Turn<'t, Thrum, D>,
    g: &Ground,
    i: usize,
    d: i32,
) -> Option<&'t Ability> {
    if d > turn.spec(turn.actor).stats.kit.max_range {
        return None;
    }
    // The target's cover, worked out once and only if a single-target
    // ability in range asks.
    let mut known: Option<ThrumCover> = None;
    // By reference: most callers only ask whether there is one.
    turn.spec(turn.actor).stats.abilities().iter().find(|a| {
        d <= a.range
            && (a.area != AreaKind::None || {
                let c = *known.get_or_insert_with(|| cover(turn, g, turn.actor, i));
                !obstructs(turn, c, a)
            })
    })
}

/// An advancing unit's reach on a map and whether it must move: a target
/// out of reach or out of sight (round a corner) is closed on (the approach
/// ends where it is seen); one in reach and sight that no ability may
/// target from here (Obstructed) is closed on to adjacent, where nothing
/// obstructs.
#[inline(never)]
#[cold]
pub(super) fn closing<D: Dice>(
    turn: &Turn<'_, Thrum, D>,
    g: &Ground,
    target: usize,
    reach: i32,
) -> (i32, bool) {
    let d = apart(turn, g, target);
    if d > reach || !seen(turn, g, target) {
        return (reach, true);
    }
    if usable_in_sight(turn, g, target, d).is_none() {
        return (ADJACENT, d > ADJACENT);
    }
    (reach, false)
}

/// Attack `target` from where the actor stands with the best ability that
/// may: a single-target ability strikes it; an area ability is aimed where
/// it catches the most enemies ([`fire_area`]), or passed over if no
/// placement is worth it. Returns true if it acted.
#[inline(never)]
#[cold]
pub(super) fn attack_if_in_reach<D: Dice>(
    turn: &mut Turn<'_, Thrum, D>,
    g: &Ground,
    target: usize,
) -> bool {
    let d = apart(turn, g, target);
    if !seen(turn, g, target) {
        return false;
    }
    let stats = &turn.enc.units[turn.actor].stats;
    // The target's cover against the actor, worked out once for the attack
    // (whether an ability is Obstructed, then the Bane of the one used) and
    // only if a single-target ability in range asks.
    let mut known: Option<ThrumCover> = None;
    for a in stats.abilities() {
        if d > a.range {
            continue;
        }
        if a.area != AreaKind::None {
            if fire_area(turn, g, a) {
                return true;
            }
            continue;
        }
        let c = *known.get_or_insert_with(|| cover(turn, g, turn.actor, target));
        if obstructs(turn, c, a) {
            continue;
        }
        strike_covered::<D, false, true>(turn, target, a, Some(c != ThrumCover::None));
        return true;
    }
    false
}

/// Use ability `a` on unit `target`, both already chosen: an area ability
/// is aimed as [`fire_area`] aims it (returns false if no placement is
/// worth it), any other strikes the target.
#[inline(never)]
#[cold]
pub(super) fn use_ability<D: Dice>(
    turn: &mut Turn<'_, Thrum, D>,
    g: &Ground,
    target: usize,
    a: &Ability,
) -> bool {
    if a.area != AreaKind::None {
        return fire_area(turn, g, a);
    }
    strike::<D, false, true>(turn, target, a);
    true
}

/// Where an area ability lands, if anywhere is worth it: the placement the
/// text allows ("Area and Line effects must have at least one space within
/// the range of the ability that places it"; an Aura is centred on its
/// user) that catches the most standing enemies less the allies (standing
/// or Incapacitated) it also catches; ties go to the one with fewer allies,
/// then to the first found. It must catch at least one more enemy than
/// allies, never its own user, and have a square within range that the user
/// sees and that is not Obstructed from it for this ability (the text: an
/// Obstructed character "can still be affected by areas however, provided
/// some other space in the area is not obstructed").
///
/// Candidates: every Area X square and every Line X (eight directions) that
/// covers a standing enemy: the best placement catches at least one, so it
/// is among them.
pub fn place_area<D: Dice>(turn: &Turn<'_, Thrum, D>, g: &Ground, a: &Ability) -> Option<Shape> {
    aim_area(turn, g, a).map(|(shape, _)| shape)
}

/// [`place_area`], with the cover found on the way: the square of the
/// placement whose cover rule was read to find it open, and that cover
/// (the cover of a character standing there against the user: the same
/// rule, from the same squares).
fn aim_area<D: Dice>(
    turn: &Turn<'_, Thrum, D>,
    g: &Ground,
    a: &Ability,
) -> Option<(Shape, Option<(Square, ThrumCover)>)> {
    let me = turn.actor;
    let user = turn.square(me);
    let side = turn.unit(me).side;
    // The characters on the map, read once (a placement is judged against
    // every one of them, dozens of placements a use): each square with what
    // it counts for, +1 a standing enemy, -1 an ally (standing or
    // Incapacitated), 0 an enemy out of the fight (it still gives cover).
    let mut on_map = [(Square::default(), 0i8); crate::engine::MAX_UNITS];
    let mut n = 0;
    for i in 0..turn.enc.n {
        let u = turn.unit(i);
        if u.state.removed {
            continue;
        }
        let worth = if u.side == side { -1 } else { i8::from(!u.out) };
        on_map[n] = (turn.square(i), worth);
        n += 1;
    }
    let on_map = &on_map[..n];
    // (score, allies) of a shape the text allows that is worth it, before
    // the test of an open square (the dear part: sight and cover).
    let judge = |shape: Shape| -> Option<(i32, i32)> {
        if shape.contains(user) {
            return None;
        }
        let (mut enemies, mut allies) = (0, 0);
        // An Area X (the commonest) by two subtractions a character: the
        // shape's own test matches on its kind for each one.
        let inside = |s: Square| match shape {
            Shape::Area { corner, size } => {
                ((s.x as i32 - corner.x as i32) as u32) < size as u32
                    && ((s.y as i32 - corner.y as i32) as u32) < size as u32
            }
            _ => shape.contains(s),
        };
        for &(s, worth) in on_map {
            if inside(s) {
                enemies += i32::from(worth > 0);
                allies += i32::from(worth < 0);
            }
        }
        (enemies > allies && shape.in_range(user, a.range as u32))
            .then_some((enemies - allies, allies))
    };
    // Obstruction stops this ability (it decides which squares are open).
    let stops = a.kind == AbilityKind::Physical || turn.options().obstruction == Obstruction::All;
    // A square next to the user is never Obstructed from it (see
    // [`cover`]): the cover rule is read only for the farther ones.
    let open = |shape: Shape, read: &mut Option<(Square, ThrumCover)>| {
        any_square(shape, &g.map, |s| {
            let d = Metric::Chebyshev.distance(user, s);
            d <= a.range as u32
                && g.sees(user, s)
                && !(stops && d > 1 && {
                    let near = Near::of(on_map.iter().map(|&(o, _)| o), s);
                    let c = thrum_cover(&g.map, user, s, |o| o != s && near.has(o));
                    *read = Some((s, c));
                    c == ThrumCover::Obstructed
                })
        })
    };
    // An Area 1 is one square: with one character a square (checked), each
    // candidate (an enemy in the fight, in order) catches that enemy alone,
    // so every one worth it scores 1 with no ally, and the best open one is
    // the first in range whose square is open: no judging.
    if a.area == AreaKind::Area && a.size == 1 && apart_squares(on_map) {
        for i in Bits(enemy_units(turn, me) & turn.in_fight()) {
            let e = turn.square(i);
            if turn.unit(i).state.removed
                || e == user
                || Metric::Chebyshev.distance(user, e) > a.range as u32
            {
                continue;
            }
            let shape = Shape::Area { corner: e, size: 1 };
            let mut read = None;
            if open(shape, &mut read) {
                return Some((shape, read));
            }
        }
        return None;
    }
    // The best placement is the first open one in the order of (score,
    // fewer allies, first found). One pass over the candidates keeps the
    // ones worth it (up to `KEPT`), then the best is tested for an open
    // square, the next best if it is closed, and so on (the best is nearly
    // always open). More than `KEPT` worth it (a wide area over a crowd):
    // each pass finds the best below the last one found closed.
    type Key = (i32, i32, u32);
    const KEPT: usize = 48;
    let mut kept = [(
        Shape::Aura {
            centre: user,
            radius: 0,
        },
        (0, 0, 0),
    ); KEPT];
    let (mut n_kept, mut found) = (0usize, 0u32);
    let mut overflow = false;
    candidates(turn, g, a, |shape| {
        found += 1;
        let Some((score, allies)) = judge(shape) else {
            return;
        };
        // Higher is better: more score, fewer allies, found earlier.
        let key = (score, -allies, u32::MAX - found);
        if n_kept < KEPT {
            kept[n_kept] = (shape, key);
            n_kept += 1;
        } else {
            overflow = true;
        }
    });
    if !overflow {
        let kept = &mut kept[..n_kept];
        loop {
            let (at, &(shape, _)) = kept.iter().enumerate().max_by_key(|(_, (_, k))| *k)?;
            if kept[at].1 .0 == i32::MIN {
                return None;
            }
            let mut read = None;
            if open(shape, &mut read) {
                return Some((shape, read));
            }
            // Closed: below every other key.
            kept[at].1 = (i32::MIN, 0, 0);
        }
    }
    let mut below: Option<Key> = None;
    loop {
        let mut best: Option<(Shape, Key)> = None;
        let mut found = 0u32;
        candidates(turn, g, a, |shape| {
            found += 1;
            let Some((score, allies)) = judge(shape) else {
                return;
            };
            let key = (score, -allies, u32::MAX - found);
            if below.is_none_or(|b| key < b) && best.is_none_or(|(_, k)| key > k) {
                best = Some((shape, key));
            }
        });
        let (shape, key) = best?;
        let mut read = None;
        if open(shape, &mut read) {
            return Some((shape, read));
        }
        below = Some(key);
    }
}

/// No two of the characters on the map share a square (moves end on free
/// squares; checked, not assumed, where a placement relies on it).
#[inline]
fn apart_squares(on_map: &[(Square, i8)]) -> bool {
    on_map
        .iter()
        .enumerate()
        .all(|(k, &(s, _))| on_map[k + 1..].iter().all(|&(o, _)| o != s))
}

/// Every placement of area ability `a` that [`place_area`] weighs, in a
/// fixed order: the user's Aura; every Area X square and every Line X
/// (eight directions) that covers a standing enemy (the best placement
/// catches at least one, so it is among them).
fn candidates<D: Dice>(
    turn: &Turn<'_, Thrum, D>,
    g: &Ground,
    a: &Ability,
    mut consider: impl FnMut(Shape),
) {
    let me = turn.actor;
    let x = a.size;
    if a.area == AreaKind::Aura {
        consider(Shape::Aura {
            centre: turn.square(me),
            radius: x,
        });
        return;
    }
    for i in Bits(enemy_units(turn, me) & turn.in_fight()) {
        let e = turn.square(i);
        match a.area {
            AreaKind::Area => {
                for dy in 0..x as i32 {
                    for dx in 0..x as i32 {
                        if let Some(corner) = e.offset(-dx, -dy) {
                            consider(Shape::Area { corner, size: x });
                        }
                    }
                }
            }
            AreaKind::Line => {
                for dir in 0..8u8 {
                    let (sx, sy) = STEPS[dir as usize];
                    for k in 0..x as i32 {
                        let start = e.offset(-k * sx as i32, -k * sy as i32);
                        // The whole line on the map: a line cut by the edge
                        // is a shorter line, found from its other end.
                        let end = start.and_then(|s| {
                            s.offset((x as i32 - 1) * sx as i32, (x as i32 - 1) * sy as i32)
                        });
                        if let (Some(start), Some(end)) = (start, end) {
                            if g.map.contains(end) {
                                consider(Shape::Line { start, dir, len: x });
                            }
                        }
                    }
                }
            }
            AreaKind::Aura | AreaKind::None => {}
        }
    }
}

/// Whether `open` holds for some square of `shape` on `map` (plain loops
/// over the shape: this runs for every area an adept aims).
#[inline]
fn any_square(shape: Shape, map: &crate::map::Map, mut open: impl FnMut(Square) -> bool) -> bool {
    let mut on_map = |s: Option<Square>| s.is_some_and(|s| map.contains(s) && open(s));
    match shape {
        Shape::Area { corner, size } => {
            (0..size as i32).any(|dy| (0..size as i32).any(|dx| on_map(corner.offset(dx, dy))))
        }
        Shape::Line { start, dir, len } => {
            let (sx, sy) = STEPS[dir as usize % 8];
            (0..len as i32).any(|k| on_map(start.offset(k * sx as i32, k * sy as i32)))
        }
        Shape::Aura { centre, radius } => {
            let r = radius as i32;
            (-r..=r)
                .any(|dy| (-r..=r).any(|dx| (dx, dy) != (0, 0) && on_map(centre.offset(dx, dy))))
        }
    }
}

/// Use area ability `a`: aim it ([`place_area`]) and attack every character
/// in the shape, allies included, in unit order, each with its own opposed
/// roll and its own cover against the user (the text: a character "is
/// targeted by an ability with the Attack type" and defends; "Abilities
/// that target an Area affect all characters in the area"). Overexert is
/// declared once, before any roll, for the whole ability. Returns false,
/// rolling nothing, if no placement is worth it.
#[inline(never)]
#[cold]
pub(super) fn fire_area<D: Dice>(turn: &mut Turn<'_, Thrum, D>, g: &Ground, a: &Ability) -> bool {
    let Some((shape, read)) = aim_area(turn, g, a) else {
        return false;
    };
    let me = turn.actor;
    turn.note_unit(me, "uses its area of effect");
    let mut each = *a;
    each.load = super::overexert_load(turn, a);
    each.overexert = 0;
    // The cover read while aiming holds for the first character struck
    // (nothing has moved or fallen yet): not read again.
    let mut read = read;
    for i in 0..turn.enc.n {
        let u = turn.unit(i);
        if i == me || u.state.removed || !shape.contains(turn.square(i)) {
            continue;
        }
        let known = read
            .take()
            .filter(|&(s, _)| s == turn.square(i))
            .map(|(_, c)| c != ThrumCover::None);
        strike_covered::<D, false, true>(turn, i, &each, known);
        read = None;
    }
    true
}
