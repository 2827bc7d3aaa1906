//! The ground both map charts draw on ([`super::map`] and [`super::falls`]):
//! each cell's terrain as a square of colour, the coordinate rulers round a
//! grid, and the names of the kinds of terrain a map holds.
//!
//! A cell is painted in layers: its fill (the obstacle's grey, darker the
//! more it blocks; else the brown of a trench dug into it; else open ground
//! shaded by elevation), diagonal hatching on difficult ground, a brown
//! frame round an obstacle that also stands in a trench, and the elevation
//! level printed in the cell where the cell is large enough to read it.
//! [`Tone::Muted`] paints the same layers paler, for a chart whose own
//! colours (the falls' heat) go on top.
//!
//! Coordinates on every ruler are 1-based, x columns from the left and y rows
//! from the top: what the map text and [`crate::map::Square`] (0-based, same
//! directions) read, and how errors and reports name squares.

use plotters::element::{PathElement, Rectangle};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, RGBColor};

use super::style::{ink_on, text, Canvas, DrawError, DARK_GREY, TICK_SIZE};
use crate::engine::Cover;
use crate::map::{Map, Obstacle, Terrain};

/// How strongly terrain is painted.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tone {
    /// The map itself is the subject (`map.png`).
    Full,
    /// The terrain is the background of something else (`falls.png`).
    Muted,
}

/// Open ground at level 0: a light warm grey, so white rulers and gaps
/// still frame the grid.
const OPEN: RGBColor = RGBColor(244, 242, 234);
const OPEN_MUTED: RGBColor = RGBColor(248, 248, 246);

/// The fill of a cell (without hatching, frames or numbers).
pub(crate) fn fill(t: Terrain, tone: Tone) -> RGBColor {
    let muted = tone == Tone::Muted;
    match t.obstacle {
        // Darker the more it blocks: a reader sees at a glance where units
        // cannot go (high cover, walls) and cannot see (walls).
        Obstacle::Wall => pick(muted, (50, 50, 50), (105, 105, 105)),
        Obstacle::High => pick(muted, (138, 138, 138), (172, 172, 172)),
        Obstacle::Low => pick(muted, (196, 196, 196), (218, 218, 218)),
        Obstacle::None => match t.dug {
            Cover::None if muted => elevated(OPEN_MUTED, t.elevation, 0.35),
            Cover::None => elevated(OPEN, t.elevation, 0.7),
            // Deeper works darker, in the earth brown of a dug trench.
            Cover::Half => pick(muted, (214, 180, 134), (232, 214, 188)),
            Cover::ThreeQuarters => pick(muted, (186, 146, 98), (218, 196, 166)),
            Cover::Full => pick(muted, (150, 110, 68), (204, 180, 150)),
        },
    }
}

fn pick(muted: bool, full: (u8, u8, u8), pale: (u8, u8, u8)) -> RGBColor {
    let (r, g, b) = if muted { pale } else { full };
    RGBColor(r, g, b)
}

/// Open ground shaded by elevation: towards a hill's green above level 0
/// and towards water's blue below it, a step per level (the number in the
/// cell says the level exactly where it fits). Not brown, which is a
/// trench's.
/// `strength` is how far level 9 goes towards the hue (paler in the
/// background of another chart).
fn elevated(base: RGBColor, level: i8, strength: f64) -> RGBColor {
    if level == 0 {
        return base;
    }
    let toward = if level > 0 {
        RGBColor(96, 150, 72)
    } else {
        RGBColor(96, 140, 196)
    };
    let t = f64::from(level.unsigned_abs()) / 9.0 * strength;
    mix(base, toward, t)
}

/// `a` moved a fraction `t` of the way to `b`.
pub(crate) fn mix(a: RGBColor, b: RGBColor, t: f64) -> RGBColor {
    let m = |x: u8, y: u8| (f64::from(x) + (f64::from(y) - f64::from(x)) * t).round() as u8;
    RGBColor(m(a.0, b.0), m(a.1, b.1), m(a.2, b.2))
}

/// Smallest cell, in pixels, that gets its elevation printed in it.
const LEVEL_TEXT_CELL: i32 = 14;

/// Paints one cell of `size` pixels with its top-left corner at `(x, y)`.
pub(crate) fn paint_cell(
    canvas: &Canvas,
    (x, y): (i32, i32),
    size: i32,
    t: Terrain,
    tone: Tone,
) -> Result<(), DrawError> {
    let colour = fill(t, tone);
    canvas.draw(&Rectangle::new(
        // A filled rectangle covers [x0, x1) × [y0, y1): `size` pixels.
        [(x, y), (x + size, y + size)],
        colour.filled(),
    ))?;
    if t.difficult {
        hatch(canvas, (x, y), size, tone)?;
    }
    if t.obstacle != Obstacle::None && t.dug != Cover::None && size >= 6 {
        // A dug cell that is also an obstacle (a legend's own mix): the
        // obstacle fills the cell, the trench frames it.
        let brown = fill(
            Terrain {
                obstacle: Obstacle::None,
                ..t
            },
            tone,
        );
        let w = (size / 6).max(1);
        for k in 0..w {
            canvas.draw(&Rectangle::new(
                [(x + k, y + k), (x + size - 1 - k, y + size - 1 - k)],
                brown,
            ))?;
        }
    }
    if t.elevation != 0 && size >= LEVEL_TEXT_CELL && tone == Tone::Full {
        let px = (size * 3 / 5).min(16) as u32;
        let ink = ink_on(colour);
        let style = text(px)
            .color(&ink)
            .pos(Pos::new(HPos::Center, VPos::Center));
        canvas.draw_text(
            &t.elevation.to_string(),
            &style,
            (x + size / 2, y + size / 2),
        )?;
    }
    Ok(())
}

/// Diagonal hatching (top left to bottom right) over a cell: lines on the
/// diagonals `x - y ≡ 0` of a canvas-wide lattice, so hatching runs on
/// unbroken across a patch of difficult cells.
fn hatch(canvas: &Canvas, (x, y): (i32, i32), size: i32, tone: Tone) -> Result<(), DrawError> {
    let colour = match tone {
        Tone::Full => RGBColor(84, 108, 40),
        Tone::Muted => RGBColor(178, 192, 150),
    };
    let step = (size / 3).clamp(3, 8);
    let s = size - 1;
    // Lines u - v = d within the cell's square [0, s] × [0, s], with
    // (x + u) - (y + v) a multiple of `step`.
    let first = -s + (y - x + s).rem_euclid(step);
    let mut d = first;
    while d <= s {
        let (u0, v0) = (d.max(0), (-d).max(0));
        let (u1, v1) = (s + d.min(0), s - d.max(0));
        canvas.draw(&PathElement::new(
            [(x + u0, y + v0), (x + u1, y + v1)],
            colour,
        ))?;
        d += step;
    }
    Ok(())
}

/// Ruler spacing in cells for cells of `cell` pixels: the least of 1, 2, 5,
/// 10, 20, 25, 50 that puts tick labels (up to three digits) at least 30
/// pixels apart.
pub(crate) fn ruler_step(cell: i32) -> usize {
    [1, 2, 5, 10, 20, 25, 50]
        .into_iter()
        .find(|&k| k as i32 * cell >= 30)
        .unwrap_or(50)
}

/// The 0-based cells that get a ruler label along a side of `n` cells of
/// `cell` pixels: the first, then every multiple of `step` (1-based), and
/// the last when it is far enough (28 pixels) from the one before for both
/// labels to read, so the map's size can be read off its edge.
pub(crate) fn ruler_cells(n: usize, step: usize, cell: i32) -> Vec<usize> {
    let mut at = vec![0];
    at.extend((2..=n).filter(|k| k % step == 0).map(|k| k - 1));
    let (last, prev) = (n - 1, at[at.len() - 1]);
    if last != prev && (last - prev) as i32 * cell >= 28 {
        at.push(last);
    }
    at
}

/// Which edges of a grid get rulers.
pub(crate) struct Edges {
    pub top: bool,
    pub left: bool,
    pub bottom: bool,
    pub right: bool,
}

/// The grid of a `width` × `height` map with `cell`-pixel cells whose
/// top-left corner is `(x, y)`.
#[derive(Clone, Copy)]
pub(crate) struct Grid {
    pub x: i32,
    pub y: i32,
    pub cell: i32,
    pub width: usize,
    pub height: usize,
}

impl Grid {
    /// Pixel corner of cell `(cx, cy)`.
    pub(crate) fn corner(&self, cx: usize, cy: usize) -> (i32, i32) {
        (
            self.x + cx as i32 * self.cell,
            self.y + cy as i32 * self.cell,
        )
    }

    /// Pixels across and down.
    pub(crate) fn size(&self) -> (i32, i32) {
        (
            self.width as i32 * self.cell,
            self.height as i32 * self.cell,
        )
    }
}

/// Paints every cell of `map` on `grid`, a thin frame round it, faint lines
/// between cells where cells are 16 pixels or more, and darker lines every
/// ruler step so a reader can follow a row or a column from the rulers.
pub(crate) fn paint_map(
    canvas: &Canvas,
    map: &Map,
    grid: Grid,
    tone: Tone,
) -> Result<(), DrawError> {
    for s in map.squares() {
        let at = grid.corner(s.x as usize, s.y as usize);
        paint_cell(canvas, at, grid.cell, map.at(s), tone)?;
    }
    let (w, h) = grid.size();
    let step = ruler_step(grid.cell);
    let faint = RGBColor(255, 255, 255).mix(0.55);
    let guide = RGBColor(120, 120, 120).mix(0.35);
    let lines = |n: usize, horizontal: bool| -> Result<(), DrawError> {
        for k in 1..n {
            let major = step > 1 && k % step == 0;
            // Lines between every two cells only where cells are large:
            // on small ones they would grey the whole map.
            if !major && grid.cell < 16 {
                continue;
            }
            let style = if major { guide } else { faint };
            let d = k as i32 * grid.cell;
            let (a, b) = if horizontal {
                ((grid.x, grid.y + d), (grid.x + w - 1, grid.y + d))
            } else {
                ((grid.x + d, grid.y), (grid.x + d, grid.y + h - 1))
            };
            canvas.draw(&PathElement::new([a, b], style))?;
        }
        Ok(())
    };
    lines(grid.width, false)?;
    lines(grid.height, true)?;
    canvas.draw(&Rectangle::new(
        [(grid.x - 1, grid.y - 1), (grid.x + w, grid.y + h)],
        DARK_GREY,
    ))
}

/// 1-based coordinate labels round `grid` on the chosen edges: x above and
/// below, y left and right. Labels sit at the middle of their cell.
pub(crate) fn draw_rulers(canvas: &Canvas, grid: Grid, edges: Edges) -> Result<(), DrawError> {
    let step = ruler_step(grid.cell);
    let size = if grid.cell >= 10 {
        TICK_SIZE - 2
    } else {
        TICK_SIZE - 3
    };
    let style = text(size).color(&DARK_GREY);
    let (w, h) = grid.size();
    let half = grid.cell / 2;
    for cx in ruler_cells(grid.width, step, grid.cell) {
        let x = grid.x + cx as i32 * grid.cell + half;
        let label = (cx + 1).to_string();
        if edges.top {
            let s = style.pos(Pos::new(HPos::Center, VPos::Bottom));
            canvas.draw_text(&label, &s, (x, grid.y - 5))?;
        }
        if edges.bottom {
            let s = style.pos(Pos::new(HPos::Center, VPos::Top));
            canvas.draw_text(&label, &s, (x, grid.y + h + 5))?;
        }
    }
    for cy in ruler_cells(grid.height, step, grid.cell) {
        let y = grid.y + cy as i32 * grid.cell + half;
        let label = (cy + 1).to_string();
        if edges.left {
            let s = style.pos(Pos::new(HPos::Right, VPos::Center));
            canvas.draw_text(&label, &s, (grid.x - 6, y))?;
        }
        if edges.right {
            let s = style.pos(Pos::new(HPos::Left, VPos::Center));
            canvas.draw_text(&label, &s, (grid.x + w + 6, y))?;
        }
    }
    Ok(())
}

/// The kinds of terrain on `map` other than their elevation (which has its
/// own scale), in a fixed order: open ground first, then by obstacle, dug
/// cover and difficulty.
pub(crate) fn kinds(map: &Map) -> Vec<Terrain> {
    let mut kinds: Vec<Terrain> = map
        .squares()
        .map(|s| Terrain {
            elevation: 0,
            ..map.at(s)
        })
        .collect();
    kinds.sort_by_key(|t| (t.obstacle, t.dug, t.difficult));
    kinds.dedup();
    kinds
}

/// The elevation levels on `map` from the lowest to the highest, or `None`
/// when every cell is at level 0.
pub(crate) fn levels(map: &Map) -> Option<(i8, i8)> {
    let (lo, hi) = map
        .squares()
        .map(|s| map.at(s).elevation)
        .fold((0, 0), |(lo, hi), e| (e.min(lo), e.max(hi)));
    (lo != 0 || hi != 0).then_some((lo, hi))
}

/// A legend's names for a kind of terrain (elevation aside), the clearest
/// first: what it is and what it does to movement and sight, so the chart
/// reads without the legend table of the docs; then shorter ones for a
/// mix that does not fit.
pub(crate) fn kind_names(t: Terrain) -> Vec<String> {
    let obstacle = match t.obstacle {
        Obstacle::None => None,
        Obstacle::Low => Some(("low cover", "low cover")),
        Obstacle::High => Some(("high cover (no passing)", "high cover")),
        Obstacle::Wall => Some(("wall (no passing, no sight)", "wall")),
    };
    let dug = match t.dug {
        Cover::None => None,
        Cover::Half => Some(("trench or foxhole (½ cover)", "trench (½)")),
        Cover::ThreeQuarters => Some(("firing position (¾ cover)", "firing position (¾)")),
        Cover::Full => Some(("deep trench (full cover)", "deep trench (full)")),
    };
    let difficult = t.difficult.then_some(("difficult ground", "difficult"));
    let parts: Vec<(&str, &str)> = [obstacle, dug, difficult].into_iter().flatten().collect();
    if parts.is_empty() {
        return vec!["open ground".to_string()];
    }
    let join = |long: bool| {
        parts
            .iter()
            .map(|&(l, s)| if long { l } else { s })
            .collect::<Vec<_>>()
            .join(" + ")
    };
    vec![join(true), join(false)]
}

/// Maps and PNG checks the map charts' tests share.
#[cfg(test)]
pub(crate) mod fixtures {
    use crate::map::{Map, Square};

    /// A 14 × 6 map with every kind of terrain the legend can name: the
    /// default characters, elevations 1 to 9 and -3, the deeper works and
    /// mixes a designer's legend may add; groups A and B start on it.
    pub(crate) fn every_terrain() -> Map {
        let text = "
#########.....
#..A..-=~_u.m#
#.123456789.n#
#..f.d.h.p...#
#B...........#
##############
";
        let legend = [
            ("f", "firing-position"),
            ("d", "deep-trench"),
            ("h", "low-cover+difficult"),
            ("p", "high-cover+trench"),
            ("m", "difficult+elevation:2"),
            ("n", "elevation:-3"),
        ];
        Map::parse(text, legend).expect("every-terrain map")
    }

    /// A typical small map, 20 × 12: a wall with a gap, a trench line, low
    /// cover, high cover, mud; groups A, B (one side) and C (the other).
    pub(crate) fn typical() -> Map {
        let text = "
....................
..AAA.........~~~...
..AAA.....#...~~~.CC
..........#.......CC
...BB.....#.......CC
...BB.....#.........
..........#..-----..
....................
.....____.#.........
..........#...==....
..........#...==....
..........#.........
";
        Map::parse(text, std::iter::empty::<(&str, &str)>()).expect("typical map")
    }

    /// The largest map: 128 × 128 with a walled town, a trench line,
    /// hills, mud, and groups in two corners.
    pub(crate) fn largest() -> Map {
        use crate::map::Terrain;
        let n = crate::map::MAX_SIDE;
        let mut rows: Vec<Vec<char>> = vec![vec!['.'; n]; n];
        for (y, row) in rows.iter_mut().enumerate() {
            for (x, c) in row.iter_mut().enumerate() {
                // A ring of wall round a town, with gates.
                let ring = (x == 40 || x == 88) && (40..=88).contains(&y)
                    || (y == 40 || y == 88) && (40..=88).contains(&x);
                let gate = (60..=67).contains(&x) || (60..=67).contains(&y);
                if ring && !gate {
                    *c = '#';
                } else if y == 100 && (10..118).contains(&x) {
                    *c = '_';
                } else if (x + 2 * y) % 37 == 0 && x > 95 {
                    *c = '-';
                } else if (x as i32 - 20).pow(2) + (y as i32 - 100).pow(2) < 80 {
                    *c = '~';
                }
            }
        }
        for y in 0..6 {
            for x in 0..6 {
                rows[2 + y][2 + x] = 'A';
                rows[120 - y][120 - x] = 'B';
            }
        }
        let text: String = rows
            .iter()
            .map(|r| r.iter().collect::<String>() + "\n")
            .collect();
        let mut map = Map::parse(&text, std::iter::empty::<(&str, &str)>()).expect("largest");
        // A hill rising to level 5 north-east of the town.
        for y in 5i32..30 {
            for x in 100i32..125 {
                let d = (x - 112).abs().max((y - 17).abs());
                let s = Square::new(x as u8, y as u8);
                if d < 12 {
                    map.set(
                        s,
                        Terrain {
                            elevation: (5 - d / 2).max(1) as i8,
                            ..Terrain::OPEN
                        },
                    );
                }
            }
        }
        map
    }

    /// Decodes a PNG (panics if it does not) and returns its size.
    pub(crate) fn decoded_size(png: &[u8]) -> (u32, u32) {
        let decoder = png::Decoder::new(std::io::Cursor::new(png));
        let mut reader = decoder.read_info().expect("PNG header");
        let mut pixels = vec![0; reader.output_buffer_size()];
        let frame = reader.next_frame(&mut pixels).expect("PNG pixels");
        assert_eq!(frame.color_type, png::ColorType::Rgb);
        assert_eq!(frame.bit_depth, png::BitDepth::Eight);
        (frame.width, frame.height)
    }

    /// Asserts a decoded size is within a chart's stated `bound`.
    pub(crate) fn within((w, h): (u32, u32), bound: (u32, u32)) {
        assert!(w <= bound.0 && h <= bound.1, "{w} × {h} over {bound:?}");
    }

    /// Asserts a chart's stated bound is within the house limit on a
    /// side ([`super::super::style::MAX_SIDE`]).
    pub(crate) fn bound_within_house_limit(bound: (u32, u32)) {
        assert!(bound.0 <= super::super::style::MAX_SIDE);
        assert!(bound.1 <= super::super::style::MAX_SIDE);
    }

    /// Writes a chart to `$SKIRMISH_CHART_DIR/<name>` when that is set, to
    /// look at.
    pub(crate) fn save(name: &str, png: &[u8]) {
        let Some(dir) = std::env::var_os("SKIRMISH_CHART_DIR") else {
            return;
        };
        let dir = std::path::Path::new(&dir);
        std::fs::create_dir_all(dir).expect("chart dir");
        std::fs::write(dir.join(name), png).expect("save chart");
    }
}
