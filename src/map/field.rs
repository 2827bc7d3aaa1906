//! Paths: distance fields over a map and steps along them.
//!
//! - [`Costs`]: what a step costs under a text (its metric's diagonals,
//!   difficult terrain, elevation, the corner rule), with a preset per
//!   ruleset.
//! - [`Graph`]: every legal step of a map and its cost, computed once per
//!   map and cost model (terrain only).
//! - [`Field`]: for each square, the cost of the cheapest path to the
//!   nearest of a set of goal squares ([`Graph::field`]); [`Graph::next_step`]
//!   walks it, [`Graph::reach`] finds the best square within a movement
//!   budget.
//! - [`Workspace`]: every buffer a search needs, sized once per map, so
//!   computing a field or a reach allocates nothing.
//! - [`FieldCache`]: terrain-only fields (nothing blocked) to chosen goal
//!   squares, computed once per compiled cell, read by every fight.
//!
//! The search is Dijkstra's with a bucket queue (Dial's algorithm): step
//! costs are small integers (below [`BUCKETS`]), so the queue is a ring of
//! buckets holding intrusive doubly linked lists over the states, and every
//! push, pop and decrease is O(1) with no heap.
//!
//! A state is a square and, for [`Metric::Alternating`], the parity of the
//! diagonals moved so far (dicestep's "every second diagonal space moved"
//! costs 2: the next diagonal's cost depends on it). Fields store both
//! parities; the value a mover reads is the one of its own parity (0 at the
//! start of a move: the count starts afresh with each move, as the text's
//! "moved" reads).
//!
//! Units are not terrain: the squares a path may not enter (enemies: "cannot
//! move into the space of an enemy", thrum "Movement") are a [`SquareSet`]
//! passed to each search, and the squares where a unit may pass but not stop
//! (allies: "can move through the space of allies … but cannot stop there",
//! thrum) another, read by [`Graph::reach`]; so one terrain [`Graph`] serves
//! every fight.

use super::geometry::{Metric, Square, STEPS};
use super::{Map, SquareSet};

/// A distance no path achieves (off the map, walled in, or blocked).
pub const UNREACHABLE: u32 = u32::MAX;

/// Buckets of the queue's ring; every step costs less than this.
pub const BUCKETS: usize = 32;

const NIL: u32 = u32::MAX;

/// What difficult terrain does to a step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Difficult {
    /// A step into a difficult square costs double: "difficult terrain which
    /// will halve movement speed across it" (trenches "Movement"); dicestep
    /// and escalation have no difficult-terrain rule of their own and take
    /// this reading by default (escalation's "you move half spaces" when
    /// climbing or swimming is the same halving).
    #[default]
    Double,
    /// A step out of a difficult square costs 1 more: "Exiting a space
    /// designated as Difficult Terrain costs +1 square of movement" (thrum
    /// "Movement").
    ExitPlusOne,
    /// Difficult terrain costs nothing extra.
    Ignore,
}

/// Whether a diagonal step may cut the corner between two squares it passes
/// beside (the two orthogonal neighbours it skips). Terrain only: units never
/// close a diagonal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Corners {
    /// A diagonal step is refused only between two impassable squares (two
    /// walls meeting at a corner are one wall: no gap). Past a single wall's
    /// corner it is allowed: the texts count diagonal steps as ordinary
    /// moves and name no exception. The same rule as sight's
    /// ([`super::sight`]).
    #[default]
    BothBlock,
    /// A diagonal step is refused beside any impassable square (a stricter
    /// table rule: no squeezing round corners).
    EitherBlocks,
    /// Diagonals ignore the squares beside them.
    Free,
}

/// The cost model of a step, per text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Costs {
    pub metric: Metric,
    pub difficult: Difficult,
    /// thrum's elevation: "Characters can ascend or descend one elevation
    /// level as part of moving to an adjacent square without any additional
    /// movement cost. For each increment beyond the first, it costs +1 square
    /// of movement" (the descent roll is the ruleset's business).
    pub climb: bool,
    pub corners: Corners,
}

impl Costs {
    pub const fn new(metric: Metric) -> Costs {
        Costs {
            metric,
            difficult: Difficult::Double,
            climb: false,
            corners: Corners::BothBlock,
        }
    }

    /// thrum: Chebyshev, difficult terrain +1 on exit, elevation climbing.
    pub const fn thrum() -> Costs {
        Costs {
            difficult: Difficult::ExitPlusOne,
            climb: true,
            ..Costs::new(Metric::Chebyshev)
        }
    }

    /// escalation: Chebyshev, difficult terrain doubles.
    pub const fn escalation() -> Costs {
        Costs::new(Metric::Chebyshev)
    }

    /// dicestep: every second diagonal costs 2, difficult terrain doubles.
    pub const fn dicestep() -> Costs {
        Costs::new(Metric::Alternating)
    }

    /// trenches: Chebyshev (the text is silent on diagonals), difficult
    /// terrain halves speed.
    pub const fn trenches() -> Costs {
        Costs::new(Metric::Chebyshev)
    }

    /// States per square: 2 for the alternating metric (the parity of the
    /// diagonals moved), else 1.
    #[inline]
    pub fn layers(&self) -> usize {
        if self.metric == Metric::Alternating {
            2
        } else {
            1
        }
    }
}

/// Every legal step of a map under a cost model, with its cost: the
/// terrain-only part of path finding, computed once per map.
///
/// Internally the grid is padded with a border of cells with no legal step
/// in or out, so the searches' inner loops index neighbours by a fixed
/// offset with no bounds checks; [`Field`]s and the [`Workspace`] use the
/// same padded layout.
#[derive(Clone, Debug)]
pub struct Graph {
    width: u8,
    height: u8,
    /// Padded width (`width + 2`) and cells (`(width + 2) × (height + 2)`).
    pw: usize,
    n: usize,
    costs: Costs,
    /// Index offset of each step of [`STEPS`] in the padded grid.
    off: [isize; 8],
    /// 1 where a step flips the parity of diagonals moved.
    flip: [u8; 8],
    /// `cost[(cell * 2 + parity) * 8 + dir]`: the cost of the step
    /// `STEPS[dir]` out of the padded `cell` at that parity; 0 when it is not
    /// a move.
    cost: Vec<u8>,
    /// Squares a unit can stand on, padded.
    open: Vec<bool>,
}

impl Graph {
    pub fn new(map: &Map, costs: Costs) -> Graph {
        let pw = map.width() + 2;
        let n = pw * (map.height() + 2);
        let alternating = costs.metric == Metric::Alternating;
        let mut g = Graph {
            width: map.width() as u8,
            height: map.height() as u8,
            pw,
            n,
            costs,
            off: STEPS.map(|(dx, dy)| dy as isize * pw as isize + dx as isize),
            flip: std::array::from_fn(|dir| (dir >= 4 && alternating) as u8),
            cost: vec![0u8; n * 16],
            open: vec![false; n],
        };
        for s in map.squares() {
            let ts = map.at(s);
            if !ts.passable() {
                continue;
            }
            let i = g.index(s);
            g.open[i] = true;
            for (dir, &(dx, dy)) in STEPS.iter().enumerate() {
                let Some(t) = map.neighbour(s, dx, dy) else {
                    continue;
                };
                let tt = map.at(t);
                if !tt.passable() {
                    continue;
                }
                let diagonal = dx != 0 && dy != 0;
                if diagonal {
                    if !costs.metric.diagonals() {
                        continue;
                    }
                    // The two squares beside the step are on the map: they
                    // lie in the box of `s` and `t`.
                    let side = |x: i8, y: i8| !map.at(map.neighbour(s, x, y).unwrap()).passable();
                    let (a, b) = (side(dx, 0), side(0, dy));
                    let refused = match costs.corners {
                        Corners::BothBlock => a && b,
                        Corners::EitherBlocks => a || b,
                        Corners::Free => false,
                    };
                    if refused {
                        continue;
                    }
                }
                for parity in 0..2 {
                    let mut c: u32 = 1;
                    if diagonal && parity == 1 && alternating {
                        c = 2;
                    }
                    match costs.difficult {
                        Difficult::Double if tt.difficult => c *= 2,
                        Difficult::ExitPlusOne if ts.difficult => c += 1,
                        _ => {}
                    }
                    if costs.climb {
                        let rise = (tt.elevation as i32 - ts.elevation as i32).unsigned_abs();
                        c += rise.saturating_sub(1);
                    }
                    // At most 2 × 2 + 17 (elevations are -9..=9).
                    debug_assert!((c as usize) < BUCKETS);
                    g.cost[(i * 2 + parity) * 8 + dir] = c as u8;
                }
            }
        }
        g
    }

    pub fn costs(&self) -> Costs {
        self.costs
    }

    /// Padded index of a square on the map.
    #[inline]
    fn index(&self, s: Square) -> usize {
        (s.y as usize + 1) * self.pw + s.x as usize + 1
    }

    /// The square of a padded index inside the border.
    #[inline]
    fn square(&self, i: usize) -> Square {
        Square::new((i % self.pw - 1) as u8, (i / self.pw - 1) as u8)
    }

    #[inline]
    fn contains(&self, s: Square) -> bool {
        s.x < self.width && s.y < self.height
    }

    /// Whether the square is on the map and a unit can stand on it.
    #[inline]
    pub fn passable(&self, s: Square) -> bool {
        self.contains(s) && self.open[self.index(s)]
    }

    /// The cost of one step `STEPS[dir]` out of `s` at `parity`, the square
    /// it lands on and the parity after it; `None` when the step is not a
    /// legal move by terrain.
    #[inline]
    pub fn step(&self, s: Square, parity: u8, dir: usize) -> Option<(Square, u32, u8)> {
        debug_assert!(self.contains(s));
        let c = self.cost[(self.index(s) * 2 + parity as usize) * 8 + dir];
        if c == 0 {
            return None;
        }
        let (dx, dy) = STEPS[dir];
        let t = Square::new(
            (s.x as i32 + dx as i32) as u8,
            (s.y as i32 + dy as i32) as u8,
        );
        Some((t, c as u32, parity ^ self.flip[dir]))
    }

    /// A field sized for this graph (compute it with [`Graph::field`]).
    pub fn new_field(&self) -> Field {
        Field {
            width: self.width,
            height: self.height,
            pw: self.pw as u32,
            n: self.n as u32,
            layers: self.costs.layers() as u8,
            dist: vec![UNREACHABLE; self.n * self.costs.layers()],
        }
    }

    /// Fill `out` with the cost of the cheapest path from every square to
    /// the nearest of `goals`, never entering a square of `blocked` (nor an
    /// impassable one). Goals are where paths end, at cost 0, whether or not
    /// they are blocked: a goal on an enemy's square measures the way up to
    /// that enemy (the last step, into its square, is counted). Goals off the
    /// map are ignored.
    ///
    /// Allocates nothing: `ws` and `out` were sized for this map.
    pub fn field(
        &self,
        ws: &mut Workspace,
        goals: &[Square],
        blocked: &SquareSet,
        out: &mut Field,
    ) {
        let layers = self.costs.layers();
        let nn = self.n;
        assert!(out.dist.len() == nn * layers && out.pw as usize == self.pw && ws.fits(nn));
        out.dist.fill(UNREACHABLE);
        ws.head = [NIL; BUCKETS];
        let mut queued = 0usize;
        for &g in goals {
            if !self.contains(g) {
                continue;
            }
            for p in 0..layers {
                let st = p * nn + self.index(g);
                if out.dist[st] != 0 {
                    out.dist[st] = 0;
                    ws.push(st as u32, 0);
                    queued += 1;
                }
            }
        }
        // Blocked squares get a fence: a distance of 0 no relaxation can
        // improve, so the inner loop needs no test; lifted at the end.
        for b in blocked.iter().filter(|&b| self.contains(b)) {
            for p in 0..layers {
                out.dist[p * nn + self.index(b)] = 0;
            }
        }
        let mut cur = 0u32;
        while queued > 0 {
            let st = ws.pop(&mut cur);
            queued -= 1;
            let p_to = (st >= nn) as usize;
            let t = st - p_to * nn;
            // Relax every state from which one step reaches (t, p_to): its
            // square is `t - off[dir]`, its parity `p_to ^ flip[dir]`.
            for dir in 0..8 {
                let s = (t as isize - self.off[dir]) as usize;
                let p = p_to ^ self.flip[dir] as usize;
                let c = self.cost[(s * 2 + p) * 8 + dir];
                if c == 0 {
                    continue;
                }
                let from = p * nn + s;
                let d = cur + c as u32;
                let old = out.dist[from];
                if d < old {
                    if old != UNREACHABLE {
                        ws.unlink(from as u32, old);
                    } else {
                        queued += 1;
                    }
                    out.dist[from] = d;
                    ws.push(from as u32, d);
                }
            }
        }
        for b in blocked.iter().filter(|&b| self.contains(b)) {
            if !goals.contains(&b) {
                for p in 0..layers {
                    out.dist[p * nn + self.index(b)] = UNREACHABLE;
                }
            }
        }
    }

    /// The next square from `from` (a mover at `parity`) along `field`
    /// towards its goals: the step minimising its cost plus the field's value
    /// where it lands, never into `blocked`. Ties go to the earlier step in
    /// [`STEPS`] (straight before diagonal; north, east, south, west).
    /// `None` at a goal, or when no step gets closer.
    #[inline]
    pub fn next_step(
        &self,
        field: &Field,
        from: Square,
        parity: u8,
        blocked: &SquareSet,
    ) -> Option<(Square, u8)> {
        let here = field.get(from, parity);
        if here == 0 || here == UNREACHABLE {
            return None;
        }
        let mut best = (UNREACHABLE, None);
        for dir in 0..8 {
            let Some((t, c, p)) = self.step(from, parity, dir) else {
                continue;
            };
            if blocked.contains(t) {
                continue;
            }
            let rest = field.get(t, p);
            if rest != UNREACHABLE && c + rest < best.0 {
                best = (c + rest, Some((t, p)));
            }
        }
        best.1
    }

    /// The best square a mover at `start` (a square and its parity of
    /// diagonals moved, 0 at the start of a move) can reach with
    /// `budget` of movement, towards the goals of `field`: never entering
    /// `blocked`, passing through but not stopping on `no_stop` (allies).
    /// Best is the lowest field value (read at parity 0: the next move starts
    /// its diagonal count afresh), then the least movement spent, then the
    /// lowest row, then the lowest column. The start square (spent 0) is always
    /// a candidate, so a unit that cannot get closer stays put.
    ///
    /// The path to the answer is then [`Workspace::path`]. Allocates nothing;
    /// the work is proportional to the squares within the budget, not to the
    /// map.
    pub fn reach(
        &self,
        ws: &mut Workspace,
        field: &Field,
        start: (Square, u8),
        budget: u32,
        blocked: &SquareSet,
        no_stop: &SquareSet,
    ) -> Reach {
        assert!(field.pw as usize == self.pw);
        self.reach_by::<true>(
            ws,
            |i| field.dist[i],
            start,
            budget,
            u32::MAX,
            blocked,
            no_stop,
        )
    }

    /// [`Graph::reach`] searching only the states a mover can be in on its
    /// way to the answer when that answer's movement spent plus its field
    /// value is at most `limit` minus [`Graph::slack`]: the same answer,
    /// by the same path, whenever it does (every state on a path to it, and
    /// every state that could be its parent, lies within the limit; the
    /// others only lose). A caller that knows it (a walked move's path:
    /// the goal, at the movement it cost) searches a band along the
    /// cheapest paths instead of the whole budget's disc.
    #[allow(clippy::too_many_arguments)]
    pub fn reach_within(
        &self,
        ws: &mut Workspace,
        field: &Field,
        start: (Square, u8),
        budget: u32,
        limit: u32,
        blocked: &SquareSet,
        no_stop: &SquareSet,
    ) -> Reach {
        assert!(field.pw as usize == self.pw);
        self.reach_by::<true>(
            ws,
            |i| field.dist[i],
            start,
            budget,
            limit,
            blocked,
            no_stop,
        )
    }

    /// [`Graph::reach`] searching every state within the budget, with no
    /// bound: the reference the bounded searches are tested against.
    #[cfg(test)]
    pub(crate) fn reach_exhaustive(
        &self,
        ws: &mut Workspace,
        field: &Field,
        start: (Square, u8),
        budget: u32,
        blocked: &SquareSet,
        no_stop: &SquareSet,
    ) -> Reach {
        let value = |i| field.dist[i];
        self.reach_by::<false>(ws, value, start, budget, u32::MAX, blocked, no_stop)
    }

    /// What a state's field value read at parity 0 (as the searches read
    /// it) can fall short of its own: 1 under the alternating metric (the
    /// next diagonal may cost 2), 0 otherwise.
    #[inline]
    pub fn slack(&self) -> u32 {
        self.costs.layers() as u32 - 1
    }

    /// [`Graph::reach`] towards the nearest of several goals, each with its
    /// own field (terrain-only fields from a [`FieldCache`]): the value of a
    /// square is the least of theirs, the field [`Graph::field`] would build
    /// for those goals with nothing blocked, read only where the search
    /// goes, so no field over the whole map is built. The answer is the one
    /// [`Graph::reach`] gives on the field built with `blocked` whenever the
    /// square it names is as far from the goals around the blocked squares
    /// as by terrain (every other square can only be farther with blocked
    /// squares; check it with [`Graph::clear_descent`]).
    pub fn reach_nearest(
        &self,
        ws: &mut Workspace,
        fields: &[&Field],
        start: (Square, u8),
        budget: u32,
        blocked: &SquareSet,
        no_stop: &SquareSet,
    ) -> Reach {
        self.reach_nearest_within(ws, fields, start, budget, u32::MAX, blocked, no_stop)
    }

    /// [`Graph::reach_nearest`] within `limit`, as [`Graph::reach_within`].
    #[allow(clippy::too_many_arguments)]
    pub fn reach_nearest_within(
        &self,
        ws: &mut Workspace,
        fields: &[&Field],
        start: (Square, u8),
        budget: u32,
        limit: u32,
        blocked: &SquareSet,
        no_stop: &SquareSet,
    ) -> Reach {
        assert!(fields.iter().all(|f| f.pw as usize == self.pw));
        self.reach_by::<true>(
            ws,
            |i| fields.iter().fold(UNREACHABLE, |m, f| m.min(f.dist[i])),
            start,
            budget,
            limit,
            blocked,
            no_stop,
        )
    }

    /// Whether a cheapest path by terrain from `from` (starting a move) to
    /// `field`'s goal avoids `blocked`: a walk down `field` (each step onto
    /// a square no dearer than the field says, the first such in [`STEPS`]
    /// order that is not blocked). `false` when the walk is stuck (another
    /// cheapest path may still exist: callers then search).
    pub fn clear_descent(&self, field: &Field, from: Square, blocked: &SquareSet) -> bool {
        let (mut at, mut parity) = (from, 0u8);
        let mut here = field.get(at, parity);
        if here == UNREACHABLE {
            return false;
        }
        'walk: while here > 0 {
            for dir in 0..8 {
                let Some((t, c, p)) = self.step(at, parity, dir) else {
                    continue;
                };
                let there = field.get(t, p);
                if there != UNREACHABLE && c + there == here && !blocked.contains(t) {
                    (at, parity, here) = (t, p, there);
                    continue 'walk;
                }
            }
            return false;
        }
        true
    }

    /// [`Graph::reach`] with the goals' field read through `value` (by
    /// padded index, at parity 0), searching only states whose movement
    /// spent plus value is within `limit` and within the best value found so
    /// far plus the budget (plus [`Graph::slack`] for both).
    ///
    /// Why that changes nothing: let B be the answer of the search without
    /// bounds, reached at cost `dB` with value `vB`. A field value drops by
    /// at most a step's cost per step, so every state on a path to B, and
    /// every state from which a cheapest step reaches such a state, has
    /// cost plus value at most `dB + vB + slack`; and `vB` is at most the
    /// best value found at any time, `dB` at most the budget. Those states
    /// are all searched, at their costs, in the same order (a bucket is a
    /// stack: leaving other states out does not reorder it), with the same
    /// parents; a state left out would only have lost to B.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn reach_by<const BOUNDED: bool>(
        &self,
        ws: &mut Workspace,
        value: impl Fn(usize) -> u32,
        start: (Square, u8),
        budget: u32,
        limit: u32,
        blocked: &SquareSet,
        no_stop: &SquareSet,
    ) -> Reach {
        let slack = self.slack();
        let limit = limit.saturating_add(slack);
        // Without `BOUNDED`, the search with no bound at all (the
        // reference tests compare with).
        let budget_slack = if BOUNDED {
            budget.saturating_add(slack)
        } else {
            u32::MAX
        };
        let (from, parity) = start;
        let nn = self.n;
        let layers = self.costs.layers();
        assert!(ws.fits(nn) && self.contains(from));
        for &st in &ws.touched {
            ws.fwd[st as usize] = UNREACHABLE;
        }
        ws.touched.clear();
        ws.head = [NIL; BUCKETS];
        // Fences on blocked squares, as in `field`.
        for b in blocked.iter().filter(|&b| self.contains(b) && b != from) {
            for p in 0..layers {
                let st = p * nn + self.index(b);
                ws.fwd[st] = 0;
                ws.touched.push(st as u32);
            }
        }
        let start = (parity as usize).min(layers - 1) * nn + self.index(from);
        ws.fwd[start] = 0;
        ws.parent[start] = NIL;
        ws.touched.push(start as u32);
        ws.push(start as u32, 0);
        let mut queued = 1usize;
        let mut best_key = (value(self.index(from)), 0, from.y, from.x);
        let mut best_state = start as u32;
        let mut cur = 0u32;
        while queued > 0 {
            let st = ws.pop(&mut cur);
            // At a goal (value 0), only squares reached as cheaply can
            // still be better (by row and column): past that, every state
            // left loses, so the rest of the budget is not searched. The
            // states popped so far, and their parents, are final.
            if best_key.0 == 0 && cur > best_key.1 {
                break;
            }
            queued -= 1;
            let p = (st >= nn) as usize;
            let i = st - p * nn;
            let s = self.square(i);
            if !no_stop.contains(s) {
                let k = (value(i), cur, s.y, s.x);
                if k < best_key {
                    best_key = k;
                    best_state = st as u32;
                }
            }
            // Beyond this, cost plus value loses to the best found (see
            // above): such states are not searched.
            let bound = limit.min(best_key.0.saturating_add(budget_slack));
            for dir in 0..8 {
                let c = self.cost[(i * 2 + p) * 8 + dir];
                let d = cur + c as u32;
                if c == 0 || d > budget {
                    continue;
                }
                let ti = (i as isize + self.off[dir]) as usize;
                let to = (p ^ self.flip[dir] as usize) * nn + ti;
                let old = ws.fwd[to];
                if d < old {
                    if d.saturating_add(value(ti)) > bound {
                        continue;
                    }
                    if old == UNREACHABLE {
                        ws.touched.push(to as u32);
                        queued += 1;
                    } else {
                        ws.unlink(to as u32, old);
                    }
                    ws.fwd[to] = d;
                    ws.parent[to] = st as u32;
                    ws.push(to as u32, d);
                }
            }
        }
        ws.reached = best_state;
        ws.reach_n = nn as u32;
        ws.reach_pw = self.pw as u32;
        let b = best_state as usize;
        let p = (b >= nn) as usize;
        Reach {
            to: self.square(b - p * nn),
            parity: p as u8,
            spent: best_key.1,
            remaining: best_key.0,
        }
    }
}

/// Where [`Graph::reach`] says to go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    pub to: Square,
    /// Parity of diagonals moved on arrival (alternating metric).
    pub parity: u8,
    /// Movement spent getting there.
    pub spent: u32,
    /// The field's value there ([`UNREACHABLE`] if the goals cannot be
    /// reached from it).
    pub remaining: u32,
}

/// The cost of the cheapest path from each square to the nearest goal, per
/// parity of diagonals moved ([`Costs::layers`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    width: u8,
    height: u8,
    /// The graph's padded layout: width and cells.
    pw: u32,
    n: u32,
    layers: u8,
    dist: Vec<u32>,
}

impl Field {
    /// The value for a mover at `s` that has moved an even number of
    /// diagonals (any mover, for metrics without parity).
    #[inline]
    pub fn at(&self, s: Square) -> u32 {
        self.get(s, 0)
    }

    /// The value for a mover at `s` with that parity of diagonals moved.
    #[inline]
    pub fn get(&self, s: Square, parity: u8) -> u32 {
        if s.x >= self.width || s.y >= self.height {
            return UNREACHABLE;
        }
        let p = (parity as usize).min(self.layers as usize - 1);
        let i = (s.y as usize + 1) * self.pw as usize + s.x as usize + 1;
        self.dist[p * self.n as usize + i]
    }
}

/// Every buffer a search needs, sized once for a map: computing a field or a
/// reach allocates nothing. One per thread (it is scratch, not fight state).
#[derive(Clone, Debug)]
pub struct Workspace {
    head: [u32; BUCKETS],
    next: Vec<u32>,
    prev: Vec<u32>,
    /// Forward search (reach): distances, parents, and the states touched
    /// (to reset only those).
    fwd: Vec<u32>,
    parent: Vec<u32>,
    touched: Vec<u32>,
    reached: u32,
    /// The padded layout of the last reach's graph.
    reach_n: u32,
    reach_pw: u32,
}

impl Workspace {
    /// Buffers for a map (any cost model).
    pub fn new(map: &Map) -> Workspace {
        let states = (map.width() + 2) * (map.height() + 2) * 2;
        Workspace {
            head: [NIL; BUCKETS],
            next: vec![NIL; states],
            prev: vec![NIL; states],
            fwd: vec![UNREACHABLE; states],
            parent: vec![NIL; states],
            touched: Vec::with_capacity(states),
            reached: NIL,
            reach_n: 1,
            reach_pw: 1,
        }
    }

    /// Whether the buffers hold a graph of `n` padded cells.
    fn fits(&self, n: usize) -> bool {
        self.next.len() >= n * 2
    }

    /// The bytes of buffer this workspace holds (tests check it stays the
    /// same across searches: nothing grows).
    pub fn capacity(&self) -> usize {
        (self.next.capacity()
            + self.prev.capacity()
            + self.fwd.capacity()
            + self.parent.capacity()
            + self.touched.capacity())
            * 4
    }

    #[inline]
    fn push(&mut self, st: u32, d: u32) {
        let b = d as usize % BUCKETS;
        let h = self.head[b];
        self.next[st as usize] = h;
        self.prev[st as usize] = NIL;
        if h != NIL {
            self.prev[h as usize] = st;
        }
        self.head[b] = st;
    }

    /// The first state of the lowest non-empty bucket at or after the
    /// distance `*cur` (moved up to it), taken out of its bucket. The
    /// caller knows one is queued.
    #[inline]
    fn pop(&mut self, cur: &mut u32) -> usize {
        let st = loop {
            let h = self.head[*cur as usize % BUCKETS];
            if h != NIL {
                break h as usize;
            }
            *cur += 1;
        };
        self.unlink(st as u32, *cur);
        st
    }

    #[inline]
    fn unlink(&mut self, st: u32, d: u32) {
        let (p, n) = (self.prev[st as usize], self.next[st as usize]);
        if p == NIL {
            self.head[d as usize % BUCKETS] = n;
        } else {
            self.next[p as usize] = n;
        }
        if n != NIL {
            self.prev[n as usize] = p;
        }
    }

    /// The squares of the path the last [`Graph::reach`] chose, from its
    /// destination back to (not including) the start: walk it in reverse
    /// for the move square by square.
    pub fn path(&self) -> impl Iterator<Item = Square> + '_ {
        let (n, pw) = (self.reach_n as usize, self.reach_pw as usize);
        let mut st = self.reached;
        std::iter::from_fn(move || {
            if st == NIL || self.parent[st as usize] == NIL {
                return None;
            }
            let i = st as usize % n;
            st = self.parent[st as usize];
            Some(Square::new((i % pw - 1) as u8, (i / pw - 1) as u8))
        })
    }
}

/// Terrain-only fields to chosen goal squares (nothing blocked), computed
/// once when a scenario cell is compiled and shared read-only by every
/// fight: the path distance between two squares by terrain
/// ([`FieldCache::distance`]), and the way towards a square when no unit is
/// in the way.
///
/// Memory: `4 × (width + 2) × (height + 2) × layers` bytes per goal (about
/// 17 KiB for a 64 × 64 map, twice that for the alternating metric), and one
/// Dijkstra per goal to build; [`FieldCache::all`] keeps one field per
/// passable square (64 × 64 of open ground: 68 MiB, and seconds to build),
/// which suits maps up to about 48 × 48; beyond, cache the squares that
/// matter (start cells, chokepoints) and compute the rest per move with
/// [`Graph::field`].
#[derive(Clone, Debug)]
pub struct FieldCache {
    graph: Graph,
    /// Field index per square of the map (row-major, unpadded), `u32::MAX`
    /// when not cached.
    slot: Vec<u32>,
    fields: Vec<Field>,
}

impl FieldCache {
    /// A field to each of `goals` (each alone; duplicates and impassable
    /// squares skipped).
    pub fn new(map: &Map, costs: Costs, goals: impl IntoIterator<Item = Square>) -> FieldCache {
        let graph = Graph::new(map, costs);
        let mut ws = Workspace::new(map);
        let none = SquareSet::new();
        let mut slot = vec![u32::MAX; map.len()];
        let mut fields = Vec::new();
        for g in goals {
            if !graph.passable(g) || slot[map.index(g)] != u32::MAX {
                continue;
            }
            let mut f = graph.new_field();
            graph.field(&mut ws, &[g], &none, &mut f);
            slot[map.index(g)] = fields.len() as u32;
            fields.push(f);
        }
        FieldCache {
            graph,
            slot,
            fields,
        }
    }

    /// A field to every passable square.
    pub fn all(map: &Map, costs: Costs) -> FieldCache {
        FieldCache::new(map, costs, map.squares())
    }

    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    /// The field to `goal`, if cached.
    #[inline]
    pub fn get(&self, goal: Square) -> Option<&Field> {
        if !self.graph.contains(goal) {
            return None;
        }
        let i = self.slot[goal.y as usize * self.graph.width as usize + goal.x as usize];
        (i != u32::MAX).then(|| &self.fields[i as usize])
    }

    /// The cost of the cheapest path from `from` (starting a move) to `to`
    /// by terrain alone, if `to`'s field is cached; [`UNREACHABLE`] when no
    /// path exists.
    #[inline]
    pub fn distance(&self, from: Square, to: Square) -> Option<u32> {
        self.get(to).map(|f| f.at(from))
    }
}
