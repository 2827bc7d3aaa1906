//! Squares and what is measured between them: the 2-byte [`Square`], the
//! distance metrics the texts ask for ([`Metric`]), adjacency and the
//! flanking test by position ([`opposite_sides`], [`flanked`]), and thrum's
//! area shapes ([`Shape`]).
//!
//! Everything here is pure arithmetic on coordinates: no terrain (that is
//! [`super::Map`]), no units. Coordinates are columns (`x`, left to right)
//! and rows (`y`, top to bottom) counted from 0; errors and reports name them
//! 1-based.

/// One square of a map: a column and a row, each below [`super::MAX_SIDE`].
///
/// Two bytes and `Copy`, so a unit's position fits the fight's fixed-size
/// `Copy` state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square {
    /// Column, from 0 at the left.
    pub x: u8,
    /// Row, from 0 at the top.
    pub y: u8,
}

/// The eight steps to a neighbour, orthogonal ones first, each group
/// clockwise from north (y grows downwards). This order is the documented
/// tie-break of every search and step in the module: when two steps are
/// equally good, the earlier one in this list is taken, so a unit prefers a
/// straight step to a diagonal one, and north, east, south, west in that
/// order.
pub const STEPS: [(i8, i8); 8] = [
    (0, -1),
    (1, 0),
    (0, 1),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
];

impl Square {
    pub const fn new(x: u8, y: u8) -> Square {
        Square { x, y }
    }

    /// The square `dx` columns and `dy` rows away, if its coordinates stay
    /// within `0..=255` (the map checks its own bounds).
    #[inline]
    pub fn offset(self, dx: i32, dy: i32) -> Option<Square> {
        let x = self.x as i32 + dx;
        let y = self.y as i32 + dy;
        if (0..=255).contains(&x) && (0..=255).contains(&y) {
            Some(Square::new(x as u8, y as u8))
        } else {
            None
        }
    }

    /// Column and row differences `other - self`.
    #[inline]
    pub fn delta(self, other: Square) -> (i32, i32) {
        (
            other.x as i32 - self.x as i32,
            other.y as i32 - self.y as i32,
        )
    }

    /// One of the eight squares around `self` (never `self` itself).
    #[inline]
    pub fn adjacent(self, other: Square) -> bool {
        Metric::Chebyshev.distance(self, other) == 1
    }
}

/// How many squares lie between two squares, as a text counts them.
///
/// The map's core counts in squares; the scenario layer multiplies by the
/// map's scale (metres, feet, spaces per square).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Metric {
    /// `max(|dx|, |dy|)`: every step to one of the eight neighbours counts 1.
    /// thrum ("Movement": "The distance between any two squares is always
    /// the longer of the two of the horizontal distance … and the vertical
    /// distance"); escalation (spaces on a grid with a melee zone of "all the
    /// squares adjacent to a unit"; the text gives no diagonal rule, and its
    /// 8-square zone reads as Chebyshev); trenches by default (its
    /// "Movement" section encourages "a 5m grid-system" and says nothing of
    /// diagonals: the d20 family's default of one square per step is taken;
    /// [`Metric::Alternating`] is the option).
    #[default]
    Chebyshev,
    /// `max + min / 2`: "treat every second diagonal space moved as 2m
    /// instead of 1m" (dicestep, "Movement and Distances"). Three diagonals
    /// cost 1 + 2 + 1 = 4 m.
    Alternating,
    /// `|dx| + |dy|`: no diagonal steps (a designer's option for any text).
    Manhattan,
}

impl Metric {
    /// Every metric, in declaration order (of [`Metric::NAMES`]).
    pub const ALL: [Metric; 3] = [Metric::Chebyshev, Metric::Alternating, Metric::Manhattan];
    /// Names for scenario files.
    pub const NAMES: [&'static str; 3] = ["chebyshev", "alternating", "manhattan"];

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    pub fn parse(name: &str) -> Option<Metric> {
        Self::NAMES
            .iter()
            .position(|n| *n == name)
            .map(|i| Self::ALL[i])
    }

    /// The distance between two squares in squares (on open ground; paths
    /// around walls are [`super::field`]'s business).
    #[inline]
    pub fn distance(self, a: Square, b: Square) -> u32 {
        let dx = a.x.abs_diff(b.x) as u32;
        let dy = a.y.abs_diff(b.y) as u32;
        let (hi, lo) = if dx >= dy { (dx, dy) } else { (dy, dx) };
        match self {
            Metric::Chebyshev => hi,
            Metric::Alternating => hi + lo / 2,
            Metric::Manhattan => dx + dy,
        }
    }

    /// `distance(a, b) <= r`: "a target is valid for an ability with Range X
    /// if the distance between them is X or less" (thrum), "within 1 m"
    /// (dicestep), "within 5m" (trenches, one square).
    #[inline]
    pub fn within(self, a: Square, b: Square, r: u32) -> bool {
        self.distance(a, b) <= r
    }

    /// Whether a step to a diagonal neighbour is a move at all.
    #[inline]
    pub fn diagonals(self) -> bool {
        !matches!(self, Metric::Manhattan)
    }
}

/// Whether `a` and `b` are on opposite sides of `t`: on each axis, the sign
/// of `a`'s offset from `t` is the reverse of `b`'s (an axis on which one
/// is level with `t` must find the other level too).
///
/// For two squares adjacent to `t` this is exactly "surrounded on two
/// opposite sides" (dicestep, "Attacks": flanking): north and south, east and
/// west, or two opposite corners. For squares farther away it is the
/// line-through-the-target reading of "attacking a unit from behind"
/// (escalation, "Flanking": units have no facing, so "behind" is the side of
/// the target opposite another of its enemies). `a == t` or `b == t` is never
/// opposite. Symmetric in `a` and `b`.
#[inline]
pub fn opposite_sides(t: Square, a: Square, b: Square) -> bool {
    let (ax, ay) = t.delta(a);
    let (bx, by) = t.delta(b);
    (ax, ay) != (0, 0) && ax.signum() == -bx.signum() && ay.signum() == -by.signum()
}

/// Whether `t` is "surrounded on two opposite sides" (dicestep): some pair
/// of opposite neighbours of `t` both satisfy `flanker` (the caller's "an
/// enemy of `t` stands there and can flank"). Four pairs are checked:
/// north/south, east/west and the two diagonals.
#[inline]
pub fn flanked(t: Square, mut flanker: impl FnMut(Square) -> bool) -> bool {
    STEPS[..2].iter().chain(&STEPS[4..6]).any(|&(dx, dy)| {
        match (
            t.offset(dx as i32, dy as i32),
            t.offset(-dx as i32, -dy as i32),
        ) {
            (Some(a), Some(b)) => flanker(a) && flanker(b),
            _ => false,
        }
    })
}

/// thrum's areas of effect ("Movement": "its area of effect is either listed
/// as Area X, Line X or Aura X"). Which squares a shape covers; who stands
/// there, and where an attacker places it, are the engine's and the
/// ruleset's business ("Abilities that target an Area affect all characters
/// in the area unless otherwise specified").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// "An Area X consists of a square on the grid which is X unit squares on
    /// a side": `size` × `size` squares with `corner` at the top left.
    Area { corner: Square, size: u8 },
    /// "A Line X consists of X consecutive squares sharing a row, column, or
    /// diagonal": `len` squares from `start` (included) in direction
    /// `STEPS[dir]`.
    Line { start: Square, dir: u8, len: u8 },
    /// "An Aura X area consists of all squares at a distance X or less from
    /// the ability user other than the ability user's space itself":
    /// Chebyshev distance 1..=`radius` from `centre`.
    Aura { centre: Square, radius: u8 },
}

impl Shape {
    /// Whether the shape covers `s`.
    #[inline]
    pub fn contains(self, s: Square) -> bool {
        match self {
            Shape::Area { corner, size } => {
                let (dx, dy) = corner.delta(s);
                (0..size as i32).contains(&dx) && (0..size as i32).contains(&dy)
            }
            Shape::Line { start, dir, len } => {
                let (sx, sy) = STEPS[dir as usize % 8];
                let (dx, dy) = start.delta(s);
                // s = start + k (sx, sy) for some k in 0..len.
                let k = if sx != 0 {
                    dx * sx as i32
                } else {
                    dy * sy as i32
                };
                (0..len as i32).contains(&k) && dx == k * sx as i32 && dy == k * sy as i32
            }
            Shape::Aura { centre, radius } => {
                let d = Metric::Chebyshev.distance(centre, s);
                d >= 1 && d <= radius as u32
            }
        }
    }

    /// "Area and Line effects must have at least one space within the range
    /// of the ability that places it" (for Range 0, the user's own square
    /// must be in it): whether some square of the shape is within `range`
    /// (Chebyshev) of `user`. An Aura is always centred on its user.
    #[inline]
    pub fn in_range(self, user: Square, range: u32) -> bool {
        match self {
            Shape::Area { corner, size } => {
                // Nearest square of the box to the user, axis by axis.
                let near = |u: u8, lo: u8| {
                    let hi = lo as i32 + size as i32 - 1;
                    (u as i32).clamp(lo as i32, hi.max(lo as i32))
                };
                let (x, y) = (near(user.x, corner.x), near(user.y, corner.y));
                size > 0
                    && (user.x as i32 - x)
                        .unsigned_abs()
                        .max((user.y as i32 - y).unsigned_abs())
                        <= range
            }
            Shape::Line { start, dir, len } => {
                let (sx, sy) = STEPS[dir as usize % 8];
                (0..len as i32).any(|k| {
                    start
                        .offset(k * sx as i32, k * sy as i32)
                        .is_some_and(|s| Metric::Chebyshev.distance(user, s) <= range)
                })
            }
            Shape::Aura { .. } => true,
        }
    }
}
