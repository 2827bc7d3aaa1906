//! Lines between squares: the symmetric grid line ([`walk_line`]), line of
//! sight ([`line_of_sight`], [`SightTable`] for every pair of a map at
//! once), and the cover rules' geometry: terrain between an attacker and a
//! target ([`cover_between`], trenches' cover by the place; [`CoverTable`]
//! for every pair of a map at once) and thrum's exact cover rule
//! ([`thrum_cover`]).
//!
//! # The line
//!
//! The line from `a` to `b` is the segment between the centres of the two
//! squares. It passes through a square when the open segment meets the
//! square's interior; where it passes exactly through a grid corner (a
//! diagonal, or a slope like 2:2 or 3:1 at a vertex) it touches the two
//! squares beside the corner only at that point: a [`Crossing::Corner`].
//! Both are properties of the segment, not of the direction it is walked in,
//! so the line from `b` to `a` passes the same squares and corners: sight is
//! symmetric by construction (and tested on every pair of random maps). The
//! walk is exact integer arithmetic (the "supercover" walk on doubled
//! coordinates), a few additions per square.
//!
//! # The corner rule
//!
//! A line through a corner is cut only when **both** squares beside the
//! corner cut it: a line grazing one wall's corner is a shot past it, a line
//! between two walls that meet diagonally goes through no gap. Paths follow
//! the same rule ([`super::field::Corners`]), so a unit can walk where it can
//! see along a diagonal.

use super::geometry::{Metric, Square, STEPS};
use super::Map;
use crate::engine::Cover;

/// What a line passes between its ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Crossing {
    /// Through the interior of a square.
    Cell(Square),
    /// Exactly through the corner shared by these two squares (the two
    /// squares beside the corner the line crosses; the line touches neither
    /// interior).
    Corner(Square, Square),
}

/// Walk the line from `a` to `b` (see the module doc), calling `visit` for
/// each square strictly between the ends and each corner crossed, in order
/// from `a`. Stops when `visit` returns `false`, and returns whether the walk
/// reached `b`.
#[inline]
pub fn walk_line(a: Square, b: Square, mut visit: impl FnMut(Crossing) -> bool) -> bool {
    let (dx, dy) = a.delta(b);
    let (nx, ny) = (dx.abs(), dy.abs());
    let (sx, sy) = (dx.signum(), dy.signum());
    let (mut x, mut y) = (a.x as i32, a.y as i32);
    let (mut ix, mut iy) = (0, 0);
    while ix < nx || iy < ny {
        // Compare where the segment next crosses a vertical grid line
        // ((ix + 1/2) / nx of the way) and a horizontal one ((iy + 1/2) / ny),
        // cross-multiplied to stay in integers.
        let d = (1 + 2 * ix) * ny - (1 + 2 * iy) * nx;
        if d == 0 {
            let p = Square::new((x + sx) as u8, y as u8);
            let q = Square::new(x as u8, (y + sy) as u8);
            if !visit(Crossing::Corner(p, q)) {
                return false;
            }
            x += sx;
            y += sy;
            ix += 1;
            iy += 1;
        } else if d < 0 {
            x += sx;
            ix += 1;
        } else {
            y += sy;
            iy += 1;
        }
        if (ix < nx || iy < ny) && !visit(Crossing::Cell(Square::new(x as u8, y as u8))) {
            return false;
        }
    }
    true
}

/// Whether the line from `a` to `b` is clear of squares for which `opaque`
/// holds, under the corner rule (a corner is cut when both squares beside it
/// are opaque). The ends themselves never cut the line. Symmetric.
#[inline]
pub fn line_clear(a: Square, b: Square, mut opaque: impl FnMut(Square) -> bool) -> bool {
    walk_line(a, b, |c| match c {
        Crossing::Cell(s) => !opaque(s),
        Crossing::Corner(p, q) => !(opaque(p) && opaque(q)),
    })
}

/// Line of sight between two squares of `map`: no wall on the line (nor two
/// walls meeting at a corner it crosses). Units, cover and elevation do not
/// cut it. Symmetric.
#[inline]
pub fn line_of_sight(map: &Map, a: Square, b: Square) -> bool {
    line_clear(a, b, |s| map.at(s).blocks_sight())
}

/// The cover terrain gives `target` against `attacker` ("obscured by any
/// trench, fortification, or other form of cover", trenches "Cover"): the
/// best [`Terrain::cover`](super::Terrain::cover) of the squares on the line
/// within `near` squares (Chebyshev) of the target (at a corner, the lesser
/// of the two squares beside it), and the target's own dug cover
/// ([`Terrain::dug`](super::Terrain::dug)) unless the attacker is next to it.
///
/// `near = 1` is "behind cover" in the sense of dicestep's Seek Cover and of
/// a designer's map: a low wall next to the target covers it, one next to the
/// attacker (which the attacker fires over) does not. `near = u32::MAX`
/// counts every square between. A wall on the line gives `Full`; whether the
/// target can be seen at all is [`line_of_sight`]'s answer.
///
/// The line is walked from the target's end (it crosses the same squares
/// either way) and only as far as `near` of the target: moving along a
/// straight line away from the target, the squares it crosses never come
/// back closer (by Chebyshev distance), so nothing past the first square
/// beyond `near` can count.
pub fn cover_between(map: &Map, attacker: Square, target: Square, near: u32) -> Cover {
    let close = |s: Square| Metric::Chebyshev.distance(s, target) <= near;
    let mut best = Cover::None;
    walk_line(target, attacker, |c| match c {
        Crossing::Cell(s) => {
            if !close(s) {
                return false;
            }
            best = best.max(map.at(s).cover());
            true
        }
        Crossing::Corner(p, q) => {
            if close(p) && close(q) {
                best = best.max(map.at(p).cover().min(map.at(q).cover()));
            }
            // A corner's squares are each other's neighbours: when neither
            // is near, the line is past `near`.
            close(p) || close(q)
        }
    });
    if Metric::Chebyshev.distance(attacker, target) > 1 {
        best = best.max(map.at(target).dug);
    }
    best
}

/// thrum's cover for one attack.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ThrumCover {
    #[default]
    None,
    /// "An attacker targeting a character with Cover rolls their attack at
    /// +1 Bane."
    Cover,
    /// "The path between the attacker and target is Obstructed and that
    /// space or a character in it cannot be targeted by that attack."
    Obstructed,
}

/// thrum's "Cover (exact)" for an attack from `attacker` on `target`;
/// `occupied` says where a character stands (any side; the attacker's and
/// the target's own squares are ignored).
///
/// The text: "Characters adjacent to spaces occupied by terrain which is +2
/// or more levels of elevation higher than their space or by another
/// character have Cover against Physical Attacks originating from spaces on
/// the opposite side of and at a lower elevation level than the source of
/// cover. … draw a line perpendicular to the one connecting the target and
/// the adjacent source of cover (whether cardinal or diagonal). If the
/// attacker is on the opposite side of the line, then cover applies." and
/// "If the two squares adjacent to the one providing cover along the
/// dividing line also qualify … the path … is Obstructed".
///
/// In squares: for each neighbour `c` of the target with `v = c - target`,
/// the dividing line runs through `c` perpendicular to `v`, and the attacker
/// is beyond it when `(attacker - c) · v > 0` (squares on the line are not
/// beyond it). Decisions where the text is silent:
/// - a source's level is its top ([`Terrain::top`](super::Terrain::top):
///   elevation plus obstacle height, a wall above everything); a character
///   counts as 2 levels above its square (as tall as the terrain that gives
///   cover), so on flat ground every adjacent character gives cover;
/// - the two squares along the dividing line are `c ± (-v.y, v.x)`; off the
///   map they do not qualify.
pub fn thrum_cover(
    map: &Map,
    attacker: Square,
    target: Square,
    occupied: impl Fn(Square) -> bool,
) -> ThrumCover {
    let ground = map.at(target).elevation as i16;
    let from = map.at(attacker).elevation as i16;
    // The level of a square as a source of cover, if it is one.
    let source = |s: Square| -> Option<i16> {
        let t = map.at(s);
        let terrain = (t.top() >= ground + 2).then_some(t.top());
        let unit = (s != attacker && s != target && occupied(s)).then_some(t.elevation as i16 + 2);
        terrain.max(unit)
    };
    let mut best = ThrumCover::None;
    for &(vx, vy) in &STEPS {
        let Some(c) = map.neighbour(target, vx, vy) else {
            continue;
        };
        let (ax, ay) = c.delta(attacker);
        if ax * vx as i32 + ay * vy as i32 <= 0 {
            continue;
        }
        let Some(level) = source(c) else {
            continue;
        };
        if from >= level {
            continue;
        }
        let (px, py) = (-vy, vx);
        let qualifies = |n: Option<Square>| n.is_some_and(|n| source(n).is_some());
        let obstructed =
            qualifies(map.neighbour(c, px, py)) && qualifies(map.neighbour(c, -px, -py));
        best = best.max(if obstructed {
            ThrumCover::Obstructed
        } else {
            ThrumCover::Cover
        });
        if best == ThrumCover::Obstructed {
            break;
        }
    }
    best
}

/// Line of sight between every pair of squares of a map, computed once (a
/// bit matrix, symmetric by construction of the line and filled from one
/// half). It depends only on the terrain, so a compiled scenario cell builds
/// it once and every fight reads it.
///
/// Size: `cells² / 8` bytes (2 MiB for 64 × 64); building walks one line per
/// pair, about a second for 64 × 64 on one core. For larger maps call
/// [`line_of_sight`] per question instead.
#[derive(Clone, Debug)]
pub struct SightTable {
    width: u8,
    cells: usize,
    bits: Vec<u64>,
}

impl SightTable {
    pub fn new(map: &Map) -> SightTable {
        let n = map.len();
        let mut t = SightTable {
            width: map.width() as u8,
            cells: n,
            bits: vec![0; (n * n).div_ceil(64)],
        };
        for i in 0..n {
            let a = map.square(i);
            t.set(i, i);
            if map.at(a).blocks_sight() {
                continue;
            }
            for j in i + 1..n {
                let b = map.square(j);
                if !map.at(b).blocks_sight() && line_of_sight(map, a, b) {
                    t.set(i, j);
                    t.set(j, i);
                }
            }
        }
        t
    }

    fn set(&mut self, i: usize, j: usize) {
        let k = i * self.cells + j;
        self.bits[k / 64] |= 1 << (k % 64);
    }

    /// Whether `a` and `b` see each other (as [`line_of_sight`]; a wall
    /// square sees only itself).
    #[inline]
    pub fn sees(&self, a: Square, b: Square) -> bool {
        let w = self.width as usize;
        let k = (a.y as usize * w + a.x as usize) * self.cells + b.y as usize * w + b.x as usize;
        self.bits[k / 64] & (1 << (k % 64)) != 0
    }
}

/// [`cover_between`] with `near = 1` (the reading every ruleset on a map
/// uses: terrain next to the target covers it) for every ordered pair of
/// squares of a map, worked out once: an attack's cover is then a look-up,
/// not a walk along the line. Not symmetric (the cover is the target's).
///
/// Size: `cells²` bytes (4 MiB for 48 × 48, 28 KiB for a 13 × 13 map).
#[derive(Clone, Debug)]
pub struct CoverTable {
    width: u8,
    cells: usize,
    cover: Vec<Cover>,
}

impl CoverTable {
    pub fn new(map: &Map) -> CoverTable {
        let n = map.len();
        let mut cover = vec![Cover::None; n * n];
        for i in 0..n {
            let a = map.square(i);
            for j in 0..n {
                cover[i * n + j] = cover_between(map, a, map.square(j), 1);
            }
        }
        CoverTable {
            width: map.width() as u8,
            cells: n,
            cover,
        }
    }

    /// The cover `target` has against `attacker` ([`cover_between`] with
    /// `near = 1`).
    #[inline]
    pub fn cover(&self, attacker: Square, target: Square) -> Cover {
        let w = self.width as usize;
        let a = attacker.y as usize * w + attacker.x as usize;
        let t = target.y as usize * w + target.x as usize;
        self.cover[a * self.cells + t]
    }
}
