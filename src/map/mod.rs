//! The battlefield in two dimensions (issue 29): a grid of terrain cells
//! parsed from a scenario's `map` string, and the geometry the rulesets'
//! texts play on it.
//!
//! - [`Map`] (this file): the grid, parsed once at compile time, with the
//!   start cells of each lettered group; [`SquareSet`], a fixed-size bit set
//!   of squares (occupied squares passed to sight, cover and paths).
//! - [`terrain`]: what a cell is made of and the legend.
//! - [`geometry`]: [`Square`], the distance [`Metric`]s, flanking by position,
//!   thrum's area shapes ([`Shape`]).
//! - [`sight`]: the symmetric grid line, line of sight, cover between an
//!   attacker and a target (trenches' by the place, thrum's exact rule).
//! - [`field`]: distance fields and steps along them, allocation-free with a
//!   reusable [`Workspace`]; [`FieldCache`] for terrain-only fields computed
//!   once per compiled cell.
//!
//! The core counts in squares: the scenario layer owns the scale (how many
//! of a ruleset's native units a square is). Maps are at most
//! [`MAX_SIDE`] × [`MAX_SIDE`] cells, so a [`Square`] is two `u8`s.

pub mod field;
pub mod geometry;
pub mod sight;
pub mod terrain;
#[cfg(test)]
mod tests;

pub use field::{
    Corners, Costs, Difficult, Field, FieldCache, Graph, Reach, Workspace, UNREACHABLE,
};
pub use geometry::{flanked, opposite_sides, Metric, Shape, Square, STEPS};
pub use sight::{
    cover_between, line_of_sight, thrum_cover, walk_line, CoverTable, Crossing, SightTable,
    ThrumCover,
};
pub use terrain::{Obstacle, Terrain};

use thiserror::Error;

/// The largest width and height of a map, in cells: 128 keeps a coordinate
/// in a `u8` with room to spare and a map's cells at 16,384.
pub const MAX_SIDE: usize = 128;

/// Squares a [`SquareSet`] can hold: every square of the largest map.
pub const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;

/// A map the parser refused. Rows and columns are 1-based, as an editor
/// shows them (row 1 is the first non-blank line of the string).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum MapError {
    #[error("the map has no cells (write one line of characters per row)")]
    Empty,
    #[error(
        "row {row} has {found} cells but row 1 has {expected}: every row of a map is as long as the first (row {row}, column {column})"
    )]
    Ragged {
        row: usize,
        column: usize,
        expected: usize,
        found: usize,
    },
    #[error("row {row}, column {column}: unknown map character {found:?}; valid: {valid}")]
    Unknown {
        row: usize,
        column: usize,
        found: char,
        valid: String,
    },
    #[error(
        "row {row}, column {column}: the map is larger than {MAX_SIDE} x {MAX_SIDE} cells, the most a map may be"
    )]
    TooLarge { row: usize, column: usize },
    #[error("map legend: key {key:?}: {reason}")]
    Legend { key: String, reason: String },
}

/// A parsed map: terrain per cell, row-major, and each group's start cells.
///
/// Built once when a scenario is compiled (it allocates); read-only in the
/// fight loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    width: u8,
    height: u8,
    cells: Vec<Terrain>,
    /// Start cells, sorted by letter then row-major; `starts_at[l]..starts_at[l + 1]`
    /// are letter `l`'s (0 for `A`).
    starts: Vec<Square>,
    starts_at: [u32; 27],
}

impl Map {
    /// Parse a map string with the default legend (see [`terrain`]) extended
    /// (and overridden) by a designer's legend: pairs of a one-character key
    /// and a terrain name ([`Terrain::parse_name`]), e.g. a TOML table
    /// `[map.legend]` read as strings. An uppercase letter in the legend keeps
    /// its start-cell meaning and changes only its terrain (`A = "trench"`:
    /// group A starts dug in).
    ///
    /// Whitespace rules: blank lines before the first row and after the last
    /// are ignored (a TOML multi-line string starts with a newline); trailing
    /// spaces, tabs and `\r` of each line are trimmed (invisible in an
    /// editor); any other space is a cell and an error unless the legend
    /// defines `" "`. A blank line between rows is a ragged row.
    pub fn parse<K, V>(
        text: &str,
        legend: impl IntoIterator<Item = (K, V)>,
    ) -> Result<Map, MapError>
    where
        K: AsRef<str>,
        V: AsRef<str>,
    {
        let mut extra: Vec<(char, Terrain)> = Vec::new();
        for (key, name) in legend {
            let key = key.as_ref();
            let mut chars = key.chars();
            let c = match (chars.next(), chars.next()) {
                (Some(c), None) => c,
                _ => {
                    return Err(MapError::Legend {
                        key: key.to_string(),
                        reason: "a legend key is exactly one character".to_string(),
                    })
                }
            };
            if c == '\n' || c == '\r' || c == '\t' {
                return Err(MapError::Legend {
                    key: key.to_string(),
                    reason: "a legend key cannot be a line break or a tab".to_string(),
                });
            }
            let t = Terrain::parse_name(name.as_ref()).map_err(|reason| MapError::Legend {
                key: key.to_string(),
                reason,
            })?;
            extra.retain(|&(k, _)| k != c);
            extra.push((c, t));
        }
        let lookup = |c: char| {
            extra
                .iter()
                .find(|&&(k, _)| k == c)
                .map(|&(_, t)| t)
                .or_else(|| terrain::default_terrain(c))
        };

        let lines: Vec<&str> = text
            .lines()
            .map(|l| l.trim_end_matches([' ', '\t', '\r']))
            .collect();
        let first = lines.iter().position(|l| !l.is_empty());
        let Some(first) = first else {
            return Err(MapError::Empty);
        };
        let last = lines.iter().rposition(|l| !l.is_empty()).unwrap_or(first);
        let rows = &lines[first..=last];

        let width = rows[0].chars().count();
        let mut cells = Vec::with_capacity(width.min(MAX_SIDE) * rows.len().min(MAX_SIDE));
        let mut starts: Vec<(u8, Square)> = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            if y >= MAX_SIDE {
                return Err(MapError::TooLarge {
                    row: y + 1,
                    column: 1,
                });
            }
            let found = row.chars().count();
            if found != width {
                return Err(MapError::Ragged {
                    row: y + 1,
                    column: found.min(width) + 1,
                    expected: width,
                    found,
                });
            }
            for (x, c) in row.chars().enumerate() {
                if x >= MAX_SIDE {
                    return Err(MapError::TooLarge {
                        row: y + 1,
                        column: x + 1,
                    });
                }
                let t = lookup(c).ok_or_else(|| MapError::Unknown {
                    row: y + 1,
                    column: x + 1,
                    found: c,
                    valid: valid_chars(&extra),
                })?;
                if c.is_ascii_uppercase() {
                    starts.push((c as u8 - b'A', Square::new(x as u8, y as u8)));
                }
                cells.push(t);
            }
        }
        // Row-major within a letter: the order in which cells were read.
        starts.sort_by_key(|&(l, s)| (l, s.y, s.x));
        let mut starts_at = [0u32; 27];
        for &(l, _) in &starts {
            starts_at[l as usize + 1] += 1;
        }
        for l in 0..26 {
            starts_at[l + 1] += starts_at[l];
        }
        Ok(Map {
            width: width as u8,
            height: rows.len() as u8,
            cells,
            starts: starts.into_iter().map(|(_, s)| s).collect(),
            starts_at,
        })
    }

    /// A map of open ground, `width` × `height` (each 1..=[`MAX_SIDE`]).
    pub fn open(width: usize, height: usize) -> Map {
        assert!((1..=MAX_SIDE).contains(&width) && (1..=MAX_SIDE).contains(&height));
        Map {
            width: width as u8,
            height: height as u8,
            cells: vec![Terrain::OPEN; width * height],
            starts: Vec::new(),
            starts_at: [0; 27],
        }
    }

    /// Columns.
    #[inline]
    pub fn width(&self) -> usize {
        self.width as usize
    }

    /// Rows.
    #[inline]
    pub fn height(&self) -> usize {
        self.height as usize
    }

    /// Cells (width × height).
    #[inline]
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Never true for a parsed map; here for clippy's sake.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// Whether a square lies on the map.
    #[inline]
    pub fn contains(&self, s: Square) -> bool {
        s.x < self.width && s.y < self.height
    }

    /// Row-major index of a square on the map.
    #[inline]
    pub fn index(&self, s: Square) -> usize {
        debug_assert!(self.contains(s));
        s.y as usize * self.width as usize + s.x as usize
    }

    /// The square of a row-major index.
    #[inline]
    pub fn square(&self, i: usize) -> Square {
        Square::new((i % self.width()) as u8, (i / self.width()) as u8)
    }

    /// The terrain of a square on the map.
    #[inline]
    pub fn at(&self, s: Square) -> Terrain {
        self.cells[self.index(s)]
    }

    /// The terrain of a square, or `None` off the map.
    #[inline]
    pub fn get(&self, s: Square) -> Option<Terrain> {
        self.contains(s).then(|| self.at(s))
    }

    /// Replace a square's terrain (maps built in code and tests).
    pub fn set(&mut self, s: Square, t: Terrain) {
        let i = self.index(s);
        self.cells[i] = t;
    }

    /// The neighbour `(dx, dy)` of `s`, if it is on the map.
    #[inline]
    pub fn neighbour(&self, s: Square, dx: i8, dy: i8) -> Option<Square> {
        s.offset(dx as i32, dy as i32).filter(|&n| self.contains(n))
    }

    /// Every square of the map, row-major.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.len()).map(|i| self.square(i))
    }

    /// The start cells of the group placed by `letter` (`'A'..='Z'`),
    /// row-major; empty for any other character or a letter not on the map.
    pub fn starts(&self, letter: char) -> &[Square] {
        if !letter.is_ascii_uppercase() {
            return &[];
        }
        let l = (letter as u8 - b'A') as usize;
        &self.starts[self.starts_at[l] as usize..self.starts_at[l + 1] as usize]
    }

    /// The letters that have start cells, in order.
    pub fn start_letters(&self) -> impl Iterator<Item = char> + '_ {
        (0..26)
            .filter(|&l| self.starts_at[l + 1] > self.starts_at[l])
            .map(|l| (b'A' + l as u8) as char)
    }
}

fn valid_chars(extra: &[(char, Terrain)]) -> String {
    let mut s = terrain::DEFAULT_CHARS.to_string();
    let mut mine: Vec<char> = extra
        .iter()
        .map(|&(c, _)| c)
        .filter(|&c| terrain::default_terrain(c).is_none())
        .collect();
    mine.sort_unstable();
    for c in mine {
        s.push(' ');
        if c == ' ' {
            s.push_str("' '");
        } else {
            s.push(c);
        }
    }
    s
}

/// A set of squares as a fixed-size bit set (2 KiB, `Copy`, no allocation):
/// occupied squares, units a path may not cross, places a unit may not stop.
/// Indexed by coordinates with a stride of [`MAX_SIDE`], so one set suits
/// every map.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct SquareSet {
    words: [u64; MAX_CELLS / 64],
}

impl Default for SquareSet {
    fn default() -> Self {
        SquareSet::new()
    }
}

impl std::fmt::Debug for SquareSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl SquareSet {
    pub const fn new() -> SquareSet {
        SquareSet {
            words: [0; MAX_CELLS / 64],
        }
    }

    #[inline]
    fn bit(s: Square) -> (usize, u64) {
        let i = s.y as usize * MAX_SIDE + s.x as usize;
        (i / 64, 1u64 << (i % 64))
    }

    #[inline]
    pub fn contains(&self, s: Square) -> bool {
        if s.x as usize >= MAX_SIDE || s.y as usize >= MAX_SIDE {
            return false;
        }
        let (w, b) = Self::bit(s);
        self.words[w] & b != 0
    }

    #[inline]
    pub fn insert(&mut self, s: Square) {
        let (w, b) = Self::bit(s);
        self.words[w] |= b;
    }

    #[inline]
    pub fn remove(&mut self, s: Square) {
        let (w, b) = Self::bit(s);
        self.words[w] &= !b;
    }

    pub fn clear(&mut self) {
        self.words = [0; MAX_CELLS / 64];
    }

    /// [`SquareSet::clear`] for a set that holds squares of the first
    /// `rows` rows only (a map's): only their words are zeroed. A move
    /// clears its sets every call, and the whole set (2 KiB) cost more than
    /// the search on a small map.
    #[inline]
    pub fn clear_rows(&mut self, rows: usize) {
        let n = (rows * MAX_SIDE).div_ceil(64).min(self.words.len());
        self.words[..n].fill(0);
    }

    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The squares in the set, row-major.
    pub fn iter(&self) -> impl Iterator<Item = Square> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &bits)| {
            let mut bits = bits;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let i = w * 64 + b;
                Some(Square::new((i % MAX_SIDE) as u8, (i / MAX_SIDE) as u8))
            })
        })
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        let mut set = SquareSet::new();
        for s in iter {
            set.insert(s);
        }
        set
    }
}
