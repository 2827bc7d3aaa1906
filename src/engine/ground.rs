//! [`Ground`]: the map a compiled cell is fought on, with everything about it
//! that depends only on the terrain worked out once, when the cell is
//! compiled (issue 29, part 2).
//!
//! - The grid ([`Map`]), the ruleset's step costs ([`Graph`], inside the
//!   [`FieldCache`]) and the scale (how many of the ruleset's distance units
//!   one square is).
//! - Terrain-only distance fields to every passable square ([`FieldCache`]):
//!   "nearest by path" is a table look-up, not a search per turn.
//! - Line of sight between every pair of squares ([`SightTable`]) when the
//!   map is small enough for the table (see [`SIGHT_TABLE_CELLS`]); otherwise
//!   [`line_of_sight`] per question.
//! - The cover terrain gives a target against an attacker, for every pair of
//!   squares ([`CoverTable`], the same size limit): an attack's cover is a
//!   look-up ([`Ground::cover`]).
//!
//! A [`Ground`] is shared read-only by every fight of its cell (and every
//! thread): an [`Encounter`](super::Encounter) holds a `&'static Ground`
//! so that it stays `Copy`. Grounds are interned ([`Ground::intern`]): the
//! same map, scale and costs compiled again (each matrix cell, each balance
//! step) reuse the first one, so the memory kept is one per distinct map of
//! a run, not one per compilation.
//!
//! A unit's place on a map is a [`Square`] packed into the `position` of its
//! [`Combatant`](super::Combatant) ([`pack`], [`unpack`]): the fight state
//! keeps its size and layout, so fights without a map cost what they did.
//!
//! Searches that depend on where units stand (a path around enemies, a
//! retreat) need buffers: a per-thread [`Scratch`] sized for the map on its
//! first use, reused by every later fight of that thread (no allocation per
//! fight or move).

use std::cell::RefCell;
use std::sync::Mutex;

use super::Cover;
use crate::map::{
    cover_between, line_of_sight, Costs, CoverTable, Field, FieldCache, Map, Reach, SightTable,
    Square, SquareSet, Workspace, UNREACHABLE,
};

/// Largest map (in cells) whose sight between every pair is tabulated:
/// 48 × 48 cells is a 648 KiB table built in well under a second; larger
/// maps answer each question by walking the line.
pub const SIGHT_TABLE_CELLS: usize = 48 * 48;

/// Largest map (in cells) whose terrain-only fields to every square are kept
/// ([`FieldCache::all`]): 48 × 48 is about 38 MiB. Beyond it, "nearest by
/// path" falls back to the metric distance.
pub const FIELD_CACHE_CELLS: usize = 48 * 48;

/// A map ready for fights: terrain-only work done once.
#[derive(Debug)]
pub struct Ground {
    pub map: Map,
    /// The ruleset's distance units per square.
    pub scale: i32,
    pub costs: Costs,
    pub cache: Option<FieldCache>,
    pub graph: crate::map::Graph,
    /// [`Ground::path_distance`] between every pair of squares, read from
    /// the cache's fields once (`None` without the cache).
    paths: Option<PathTable>,
    pub sight: Option<SightTable>,
    pub cover: Option<CoverTable>,
    /// The map's text and legend, as compiled (the interning key).
    key: String,
}

/// Every ground compiled so far in this process (see the module doc).
static INTERNED: Mutex<Vec<&'static Ground>> = Mutex::new(Vec::new());

impl Ground {
    /// The ground for `map` at `scale` under `costs`, built once per process
    /// for each distinct `key` (the map's text and legend), scale and costs.
    pub fn intern(key: String, map: Map, scale: i32, costs: Costs) -> &'static Ground {
        let mut all = INTERNED.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(g) = all
            .iter()
            .find(|g| g.key == key && g.scale == scale && g.costs == costs)
        {
            return g;
        }
        let cache = (map.len() <= FIELD_CACHE_CELLS).then(|| FieldCache::all(&map, costs));
        let paths = cache.as_ref().and_then(|c| PathTable::new(&map, c));
        let sight = (map.len() <= SIGHT_TABLE_CELLS).then(|| SightTable::new(&map));
        let cover = (map.len() <= SIGHT_TABLE_CELLS).then(|| CoverTable::new(&map));
        let graph = crate::map::Graph::new(&map, costs);
        // Leaked on purpose: an `Encounter` is `Copy` and its fights read the
        // ground by reference; interned, so at most one per distinct map.
        let g: &'static Ground = Box::leak(Box::new(Ground {
            map,
            scale,
            costs,
            cache,
            graph,
            paths,
            sight,
            cover,
            key,
        }));
        all.push(g);
        g
    }

    /// Whether `a` and `b` see each other.
    #[inline]
    pub fn sees(&self, a: Square, b: Square) -> bool {
        match &self.sight {
            Some(t) => t.sees(a, b),
            None => line_of_sight(&self.map, a, b),
        }
    }

    /// The cover terrain gives `target` against `attacker`: terrain next to
    /// the target on the line between them, or the cover dug where it stands
    /// ([`cover_between`] with `near = 1`).
    #[inline]
    pub fn cover(&self, attacker: Square, target: Square) -> Cover {
        match &self.cover {
            Some(t) => t.cover(attacker, target),
            None => cover_between(&self.map, attacker, target, 1),
        }
    }

    /// Distance by the ruleset's metric, in its units.
    #[inline]
    pub fn distance(&self, a: Square, b: Square) -> i32 {
        self.costs.metric.distance(a, b) as i32 * self.scale
    }

    /// Distance along the cheapest path by terrain, in the ruleset's units
    /// (the metric's when the map is too large for the cache; a very large
    /// number when no path exists).
    #[inline(always)]
    pub fn path_distance(&self, from: Square, to: Square) -> i64 {
        if let Some(t) = &self.paths {
            return match t.get(from, to) {
                PathTable::UNREACHABLE => i64::MAX / 4,
                PathTable::NOT_CACHED => self.distance(from, to) as i64,
                d => d as i64 * self.scale as i64,
            };
        }
        match self.cache.as_ref().and_then(|c| c.distance(from, to)) {
            Some(UNREACHABLE) => i64::MAX / 4,
            Some(d) => d as i64 * self.scale as i64,
            None => self.distance(from, to) as i64,
        }
    }
}

/// The cheapest path by terrain from every square to every square (row:
/// from; column: to), the cache's fields read once into one flat table: a
/// [`Ground::path_distance`] is one load, not a look-up of the field then
/// of its padded layout (nearest-by-path targeting asks it for every enemy
/// of every unit that targets the nearest, every turn). `u16` a pair (a
/// 48 × 48 map: about 10 MiB, a quarter of its fields); a map whose paths
/// do not fit has none and reads the fields.
#[derive(Debug)]
struct PathTable {
    width: usize,
    cells: usize,
    d: Vec<u16>,
}

impl PathTable {
    /// No path between the two squares.
    const UNREACHABLE: u16 = u16::MAX;
    /// The destination has no cached field (impassable): the metric's
    /// distance, as [`Ground::path_distance`] answers without the table.
    const NOT_CACHED: u16 = u16::MAX - 1;

    fn new(map: &Map, cache: &FieldCache) -> Option<PathTable> {
        let cells = map.len();
        let mut d = vec![0u16; cells * cells];
        for from in 0..cells {
            for to in 0..cells {
                d[from * cells + to] = match cache.distance(map.square(from), map.square(to)) {
                    None => PathTable::NOT_CACHED,
                    Some(UNREACHABLE) => PathTable::UNREACHABLE,
                    Some(v) if v < u32::from(PathTable::NOT_CACHED) => v as u16,
                    Some(_) => return None,
                };
            }
        }
        Some(PathTable {
            width: map.width(),
            cells,
            d,
        })
    }

    /// The entry for a path from `from` to `to` (both on the map).
    #[inline(always)]
    fn get(&self, from: Square, to: Square) -> u16 {
        let at = |s: Square| s.y as usize * self.width + s.x as usize;
        self.d[at(from) * self.cells + at(to)]
    }
}

/// A square packed into a combatant's `position`.
#[inline]
pub fn pack(s: Square) -> i32 {
    ((s.y as i32) << 8) | s.x as i32
}

/// The square a map position holds.
#[inline]
pub fn unpack(position: i32) -> Square {
    Square::new((position & 0xff) as u8, ((position >> 8) & 0xff) as u8)
}

/// Per-thread search buffers for one ground.
pub struct Scratch {
    ground: &'static Ground,
    pub ws: Workspace,
    pub field: Field,
    pub goals: Vec<Square>,
    pub blocked: SquareSet,
    pub no_stop: SquareSet,
    /// The squares of the last move on this thread's map, in order, where
    /// it began included ([`crate::engine::Turn::last_path`]); capacity for
    /// every square of the map, so recording a move allocates nothing.
    pub path: Vec<Square>,
    /// The cached terrain-only fields of a move's goals ([`near_fields`]),
    /// room for [`NEAR_GOALS`].
    pub near: Vec<&'static Field>,
    /// A move [`near_reach`] walked without a search: the field of the goal
    /// it went to. Its path (in `path`, only its two ends so far) is
    /// searched when a rule asks for it ([`write_walked_path`]).
    pub walked: Option<&'static Field>,
    /// Answers of earlier moves on this ground ([`MoveCache`]).
    pub moves: MoveCache,
}

/// Most units besides the mover a move may be among to be kept in the
/// [`MoveCache`] (its key lists their squares).
pub const MOVE_CACHE_UNITS: usize = 16;

/// Longest path (squares after the start) the [`MoveCache`] keeps.
pub const MOVE_CACHE_PATH: usize = 16;

/// Slots of the [`MoveCache`] (a power of two).
pub const MOVE_CACHE_SLOTS: usize = 8192;

/// Everything a move toward a unit ([`crate::engine::Turn::approach`]) on a
/// ground depends on: where it starts, the target's square, the movement
/// and how close it stops, and every other unit in the fight (its square
/// and whether it is the mover's ally), in unit order. Two moves with the
/// same key on the same ground go to the same square by the same path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveKey {
    /// The start and the target's squares ([`pack`]), the movement in
    /// squares, and a bit per other unit that is an ally.
    head: u64,
    stop_at: i32,
    /// Other units; `u8::MAX` in an empty slot.
    n: u8,
    /// The others' squares ([`pack`]); unused entries 0.
    units: [u16; MOVE_CACHE_UNITS],
}

impl MoveKey {
    const EMPTY: MoveKey = MoveKey {
        head: 0,
        stop_at: 0,
        n: u8::MAX,
        units: [0; MOVE_CACHE_UNITS],
    };

    /// The key of a move from `from` toward `at` with `squares` of movement
    /// stopping within `stop_at`, among `others` (each unit's square and
    /// whether it is an ally, in unit order); `None` among more than
    /// [`MOVE_CACHE_UNITS`] units or beyond `u16::MAX` squares (not kept).
    #[inline]
    pub fn new(
        (from, at): (Square, Square),
        squares: u32,
        stop_at: i32,
        others: impl Iterator<Item = (Square, bool)>,
    ) -> Option<MoveKey> {
        if squares > u16::MAX as u32 {
            return None;
        }
        let mut key = MoveKey {
            head: pack(from) as u64 | (pack(at) as u64) << 16 | (squares as u64) << 32,
            stop_at,
            n: 0,
            units: [0; MOVE_CACHE_UNITS],
        };
        for (s, ally) in others {
            let n = key.n as usize;
            if n == MOVE_CACHE_UNITS {
                return None;
            }
            key.units[n] = pack(s) as u16;
            key.head |= (ally as u64) << (48 + n);
            key.n += 1;
        }
        Some(key)
    }

    /// The key's slot in the cache.
    #[inline]
    fn slot(&self) -> usize {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut h = (self.head ^ (self.stop_at as u32 as u64).rotate_left(24)).wrapping_mul(K);
        for pair in self.units[..self.n as usize].chunks(2) {
            let w = pair[0] as u64 | (pair.get(1).copied().unwrap_or(0) as u64) << 16;
            h = (h.rotate_left(26) ^ w).wrapping_mul(K);
        }
        (h >> 40) as usize & (MOVE_CACHE_SLOTS - 1)
    }
}

/// A move the [`MoveCache`] keeps: where it ended, the movement spent, and
/// its path when known.
#[derive(Clone, Copy, Debug)]
pub struct CachedMove {
    pub to: Square,
    pub spent: u16,
    /// The squares of the path after the start, `len` of them; `len` is
    /// [`CachedMove::UNKNOWN`] for a move walked without a search whose
    /// path no rule has read yet (then `walked` is its goal's field, as in
    /// [`Scratch::walked`]).
    pub len: u8,
    pub path: [Square; MOVE_CACHE_PATH],
    pub walked: Option<&'static Field>,
}

impl CachedMove {
    pub const UNKNOWN: u8 = u8::MAX;

    const NONE: CachedMove = CachedMove {
        to: Square { x: 0, y: 0 },
        spent: 0,
        len: 0,
        path: [Square { x: 0, y: 0 }; MOVE_CACHE_PATH],
        walked: None,
    };

    /// A move whose path is `path` (the squares after the start), or not
    /// yet known (`None`, with the walked goal's field); `None` when the
    /// path is too long to keep.
    pub fn new(
        to: Square,
        spent: u32,
        path: Option<&[Square]>,
        walked: Option<&'static Field>,
    ) -> Option<CachedMove> {
        let mut m = CachedMove {
            to,
            spent: spent as u16,
            len: CachedMove::UNKNOWN,
            walked,
            ..CachedMove::NONE
        };
        if let Some(p) = path {
            if p.len() > MOVE_CACHE_PATH {
                return None;
            }
            m.path[..p.len()].copy_from_slice(p);
            m.len = p.len() as u8;
        }
        Some(m)
    }
}

/// The answers of earlier moves toward a unit on one ground, by their
/// [`MoveKey`]: fights start from the same squares against units holding
/// theirs, so the same moves recur, and a move found here is not searched
/// again. The same answer as the search by construction (the key holds
/// everything the search reads besides the ground, compared whole), in a
/// fixed number of slots ([`MOVE_CACHE_SLOTS`], 96 bytes each), each key
/// in one slot (a later move with the same slot replaces it): allocated
/// with the thread's [`Scratch`], never per fight.
#[derive(Clone, Debug)]
pub struct MoveCache {
    slots: Vec<(MoveKey, CachedMove)>,
    /// The slot of the last move, while its path is not known yet
    /// ([`Scratch::walk_path`] fills it in).
    pending: Option<usize>,
}

impl MoveCache {
    pub fn new() -> MoveCache {
        MoveCache {
            slots: vec![(MoveKey::EMPTY, CachedMove::NONE); MOVE_CACHE_SLOTS],
            pending: None,
        }
    }

    /// Forget every move (another ground).
    pub fn clear(&mut self) {
        self.slots.fill((MoveKey::EMPTY, CachedMove::NONE));
        self.pending = None;
    }

    /// The move kept under `key`, and its slot.
    #[inline]
    pub fn get(&self, key: &MoveKey) -> Option<(usize, &CachedMove)> {
        let i = key.slot();
        let (k, m) = &self.slots[i];
        (k == key).then_some((i, m))
    }

    /// Keep `m` under `key`; its slot.
    #[inline]
    pub fn put(&mut self, key: MoveKey, m: CachedMove) -> usize {
        let i = key.slot();
        self.slots[i] = (key, m);
        i
    }

    /// The last move's path is not known yet: it is `slot`'s.
    #[inline]
    pub fn set_pending(&mut self, slot: Option<usize>) {
        self.pending = slot;
    }
}

impl Default for MoveCache {
    fn default() -> Self {
        MoveCache::new()
    }
}

/// Most goals a move reads from the [`FieldCache`] one field each
/// ([`near_reach`], [`near_fields`]); beyond, one search over the map is
/// cheaper than that many look-ups per square (a shooter's ring of squares
/// in range and in sight).
pub const NEAR_GOALS: usize = 32;

/// Fill `near` with the cached terrain-only field of each of `goals`;
/// `false` (and `near` unusable) when the map has no cache, a goal has no
/// field, or there are more than [`NEAR_GOALS`].
pub fn near_fields(g: &'static Ground, near: &mut Vec<&'static Field>, goals: &[Square]) -> bool {
    near.clear();
    let Some(cache) = g.cache.as_ref() else {
        return false;
    };
    if goals.len() > NEAR_GOALS {
        return false;
    }
    for &s in goals {
        match cache.get(s) {
            Some(f) => near.push(f),
            None => return false,
        }
    }
    true
}

/// [`Graph::reach`](crate::map::Graph::reach) from `from` (not a goal)
/// with `squares` of movement towards `goals` (none of them blocked or an
/// ally's), around `blocked`, without building the field to the goals: the
/// goals' cached terrain-only fields stand for it. Units only lengthen
/// paths, so every square is at least as far from the goals as by terrain;
/// where the answer is a square no farther around the blocked squares than
/// by terrain, it is the one the search on the full field gives.
///
/// - No goal: nowhere is nearer, the mover stays (as the search says).
/// - The nearest goal by terrain (ties by row, then column: `reach`'s
///   order) within the budget, by a cheapest terrain path clear of blocked
///   squares ([`Graph::clear_descent`](crate::map::Graph::clear_descent)):
///   that goal, at that cost, with no search at all. Every other goal is at
///   least as dear, and loses the tie. Its path is left to be searched
///   only if a rule reads it: the second value, the goal's field (see
///   [`write_walked_path`]).
/// - No goal within the budget: where the terrain says the search ends,
///   when the units leave the way to it and on from it open, with no
///   search either ([`far_walk`]; the goal field returned is that
///   square's).
/// - Otherwise the forward search within the budget on the goals' fields
///   ([`Graph::reach_nearest`](crate::map::Graph::reach_nearest)); its
///   square is kept when it is a goal, no goal is reachable at all, or a
///   cheapest terrain path from it avoids the blocked squares (then its
///   path is the full search's: the forward search is the same).
///
/// `None` when the cache cannot answer: then search
/// ([`Graph::field`](crate::map::Graph::field) and `reach`). The common
/// move of a melee unit (a handful of goals around its target, nobody in
/// its way) costs a few table look-ups per goal and per square walked.
#[allow(clippy::type_complexity)]
pub fn near_reach(
    g: &'static Ground,
    near: &mut Vec<&'static Field>,
    goals: &[Square],
    ws: &mut Workspace,
    (from, squares): (Square, u32),
    blocked: &SquareSet,
    no_stop: &SquareSet,
) -> Option<(Reach, Option<&'static Field>)> {
    if !near_fields(g, near, goals) {
        return None;
    }
    let stay = Reach {
        to: from,
        parity: 0,
        spent: 0,
        remaining: UNREACHABLE,
    };
    let Some((d, goal, f)) = near
        .iter()
        .zip(goals)
        .map(|(&f, &s)| (f.at(from), s, f))
        .min_by_key(|&(d, s, _)| (d, s.y, s.x))
    else {
        return Some((stay, None));
    };
    if d == UNREACHABLE {
        return Some((stay, None));
    }
    if d <= squares && g.graph.clear_descent(f, from, blocked) {
        let walked = Reach {
            to: goal,
            parity: 0,
            spent: d,
            remaining: 0,
        };
        return Some((walked, Some(f)));
    }
    if let Some(far) = far_walk(g, near, goals, (from, squares), d, blocked, no_stop) {
        return Some(far);
    }
    // A goal within the budget: first the search within the terrain
    // distance (`reach_nearest_within`), whose answer is the full one when
    // it reaches a goal at that cost (nothing can be better: a goal, as
    // cheaply as terrain allows); the common move round a unit in the way
    // searches a band along the cheapest paths, not the budget's disc.
    let within = (d <= squares)
        .then(|| {
            g.graph
                .reach_nearest_within(ws, near, (from, 0), squares, d, blocked, no_stop)
        })
        .filter(|r| r.remaining == 0 && r.spent <= d);
    let r = within.unwrap_or_else(|| {
        g.graph
            .reach_nearest(ws, near, (from, 0), squares, blocked, no_stop)
    });
    if r.remaining == 0 || r.remaining == UNREACHABLE {
        return Some((r, None));
    }
    near.iter()
        .any(|f| f.at(r.to) == r.remaining && g.graph.clear_descent(f, r.to, blocked))
        .then_some((r, None))
}

/// A move toward goals beyond its budget (`d`, the nearest goal by terrain,
/// more than `squares` away) without a search, when the terrain says where
/// the search would end and the units are not in the way; `None` to search.
///
/// With one layer of costs (no parity of diagonals), every square `s` the
/// move reaches has a value (its distance to the goals around the blocked
/// squares) of at least `d - spent(s)` (a path from `from` through `s` is at
/// least as dear as the cheapest by terrain), so at least `T = d - squares`;
/// one of value `T` was reached with the whole budget spent, and
/// [`Graph::reach`](crate::map::Graph::reach) breaks the ties by row, then
/// column. The candidates are the squares at `squares` from `from` by terrain
/// with a terrain value `T`, free and not an ally's: the first in row
/// order, if a cheapest terrain path to it from `from` and one from it to a
/// goal both avoid the blocked squares
/// ([`Graph::clear_descent`](crate::map::Graph::clear_descent)), is the
/// search's answer (the squares the search could name are among the
/// candidates, and it is one of them). Its path is the search's too: the
/// field to that square stands for the goals' ([`write_walked_path`]).
/// A mover held up by the units (a crowd in its way) still searches.
fn far_walk(
    g: &'static Ground,
    near: &[&'static Field],
    goals: &[Square],
    (from, squares): (Square, u32),
    d: u32,
    blocked: &SquareSet,
    no_stop: &SquareSet,
) -> Option<(Reach, Option<&'static Field>)> {
    let cache = g.cache.as_ref()?;
    if g.costs.layers() != 1 || squares == 0 || d <= squares {
        return None;
    }
    let t = d - squares;
    let r = squares.min(crate::map::MAX_SIDE as u32) as i32;
    let (w, h) = (g.map.width() as i32, g.map.height() as i32);
    let (fx, fy) = (from.x as i32, from.y as i32);
    // A step costs at least its Chebyshev length (one layer: Chebyshev or
    // Manhattan), so a candidate lies within `squares` of `from` and
    // within `t` of some goal: the box around `from` cut by the goals' box
    // grown by `t`, in row order.
    let t_box = t.min(crate::map::MAX_SIDE as u32) as i32;
    let (mut x0, mut y0, mut x1, mut y1) = (w, h, -1, -1);
    for s in goals {
        (x0, y0) = (x0.min(s.x as i32), y0.min(s.y as i32));
        (x1, y1) = (x1.max(s.x as i32), y1.max(s.y as i32));
    }
    let (x0, x1) = (
        (fx - r).max(x0 - t_box).max(0),
        (fx + r).min(x1 + t_box).min(w - 1),
    );
    let (y0, y1) = (
        (fy - r).max(y0 - t_box).max(0),
        (fy + r).min(y1 + t_box).min(h - 1),
    );
    for y in y0..=y1 {
        for x in x0..=x1 {
            let s = Square::new(x as u8, y as u8);
            if blocked.contains(s) || no_stop.contains(s) {
                continue;
            }
            let Some(to_s) = cache.get(s) else {
                continue;
            };
            if to_s.at(from) != squares {
                continue;
            }
            // The terrain value: the least of the goals' fields (none
            // below `t` here, by the bound above).
            if !near.iter().any(|f| f.at(s) == t) {
                continue;
            }
            // The first candidate: the search's answer if the units leave
            // both halves of the way open, else search.
            let clear = g.graph.clear_descent(to_s, from, blocked)
                && near
                    .iter()
                    .any(|f| f.at(s) == t && g.graph.clear_descent(f, s, blocked));
            if !clear {
                return None;
            }
            let walked = Reach {
                to: s,
                parity: 0,
                spent: squares,
                remaining: t,
            };
            return Some((walked, Some(to_s)));
        }
    }
    None
}

/// The path of a move [`near_reach`] walked (from `from`, `spent` of
/// movement, to the goal of `goal_field`), square by square, the one the
/// full search takes: the forward search within `spent`, whose states up to
/// that cost are popped, and so parented, as in the search with the whole
/// budget. Into `path`, `from` first.
pub fn write_walked_path(
    g: &Ground,
    ws: &mut Workspace,
    goal_field: &Field,
    (from, spent): (Square, u32),
    blocked: &SquareSet,
    no_stop: &SquareSet,
    path: &mut Vec<Square>,
) {
    // The answer is known (the goal, at `spent`): only the states on a
    // cheapest path to it are searched.
    g.graph
        .reach_within(ws, goal_field, (from, 0), spent, spent, blocked, no_stop);
    path.clear();
    path.push(from);
    path.extend(ws.path());
    path[1..].reverse();
}

impl Scratch {
    /// The squares of the last move, searched now if it walked without a
    /// search ([`Scratch::walked`]; `start` is where it began), and kept in
    /// the [`MoveCache`] with its answer.
    pub fn walk_path(&mut self, g: &Ground, start: Square) {
        if let Some(f) = self.walked.take() {
            let spent = f.at(start);
            write_walked_path(
                g,
                &mut self.ws,
                f,
                (start, spent),
                &self.blocked,
                &self.no_stop,
                &mut self.path,
            );
            if let Some(i) = self.moves.pending.take() {
                let m = &mut self.moves.slots[i].1;
                let after = &self.path[1..];
                if after.len() <= MOVE_CACHE_PATH {
                    m.path[..after.len()].copy_from_slice(after);
                    m.len = after.len() as u8;
                }
            }
        }
    }

    /// Forget what the searches of another ground left (the searches clear
    /// what they use themselves; the last move's path belongs to the old
    /// ground).
    fn reset(&mut self) {
        self.goals.clear();
        self.blocked.clear();
        self.no_stop.clear();
        self.path.clear();
        self.near.clear();
        self.walked = None;
        self.moves.clear();
    }
}

thread_local! {
    static SCRATCH: RefCell<Option<Box<Scratch>>> = const { RefCell::new(None) };
}

/// Run `body` with this thread's buffers for `ground` (built on the first
/// use of that ground on this thread, reused after, and by any other ground
/// of the same shape).
///
/// [`Fight::prepare`](crate::engine::Fight::prepare) calls it once per batch
/// on a map, so the buffers are built while a batch is set up, never while
/// its fights run (DESIGN.md: nothing allocated per fight).
pub fn with_scratch<T>(ground: &'static Ground, body: impl FnOnce(&mut Scratch) -> T) -> T {
    SCRATCH.with(|cell| {
        let mut slot = cell.borrow_mut();
        // The buffers depend only on the map's size and the cost model's
        // layers (states per square): another ground of that shape (a
        // matrix axis over a map's legend) takes them over, reset, so
        // switching cells allocates nothing.
        if let Some(s) = slot.as_mut() {
            let old = s.ground;
            if !std::ptr::eq(old, ground)
                && old.map.width() == ground.map.width()
                && old.map.height() == ground.map.height()
                && old.costs.layers() == ground.costs.layers()
            {
                s.ground = ground;
                s.reset();
            }
        }
        let fresh = !matches!(&*slot, Some(s) if std::ptr::eq(s.ground, ground));
        if fresh {
            *slot = Some(Box::new(Scratch {
                ground,
                ws: Workspace::new(&ground.map),
                field: ground.graph.new_field(),
                goals: Vec::with_capacity(ground.map.len()),
                blocked: SquareSet::new(),
                no_stop: SquareSet::new(),
                path: Vec::with_capacity(ground.map.len() + 1),
                near: Vec::with_capacity(NEAR_GOALS),
                walked: None,
                moves: MoveCache::new(),
            }));
        }
        body(slot.as_mut().expect("just built"))
    })
}
