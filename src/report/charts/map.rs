//! `map.png`: a scenario's map as a designer laid it out: every cell's
//! terrain, each unit group's start cells marked in its side's colour, and
//! rulers to read a square's coordinates off the picture.
//!
//! Coordinates: x counts columns from 1 at the left, y rows from 1 at the
//! top, as the map text reads (row 1 is its first line) and as
//! [`crate::map::Square`] counts them (from 0, same directions); the
//! subtitle says so on the chart.
//!
//! Size: cells are [`MAX_CELL`] pixels on small maps and shrink as the map
//! grows so its longer side stays within [`GRID`] pixels (12-pixel cells at
//! [`crate::map::MAX_SIDE`] = 128). The legend stops at [`GRID`] pixels
//! high too (some 55 start groups) and says how many groups it leaves out.
//! The canvas is therefore at most [`MAX_CANVAS`] = 2012 × 1684 pixels for
//! every map from 1 × 1 to 128 × 128.
//!
//! Plain data in, PNG bytes out: the caller (the report) finds the groups'
//! start cells and side names; nothing here reads a scenario.

use plotters::element::{Circle, Polygon};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, RGBColor, WHITE};

use super::ground::{self, Edges, Grid, Tone};
use super::style::{
    bold, draw_title, fit, render_png, series_colour, text, text_width, Canvas, DrawError,
    DARK_GREY, LABEL_SIZE, TICK_SIZE, TITLE_SIZE,
};
use crate::map::{Map, Square};
use crate::report::error::ReportError;
use crate::report::labels::truncate;
use crate::report::names::MAP_PNG;

const FILE: &str = MAP_PNG;

/// Largest cell, in pixels (maps up to 32 cells a side).
pub const MAX_CELL: u32 = 48;
/// Longest side of the map's grid, in pixels: cells shrink to keep within it.
pub const GRID: u32 = 1536;
/// Largest canvas any map gives, in pixels (width, height).
pub const MAX_CANVAS: (u32, u32) = (
    LEFT + GRID + RULER + GAP + LEGEND_W + MARGIN,
    GRID_TOP + GRID + RULER + MARGIN,
);

/// Left of the grid: the y ruler.
const LEFT: u32 = 56;
/// Above the grid: title, subtitle, the x ruler.
const GRID_TOP: u32 = 92;
/// Room for the ruler right of and below the grid.
const RULER: u32 = 40;
/// Between the right ruler and the legend.
const GAP: u32 = 24;
/// The legend's column.
const LEGEND_W: u32 = 340;
const MARGIN: u32 = 16;
/// Height of one legend row, and the side of its swatch.
const ROW: u32 = 24;
const SWATCH: i32 = 18;
/// Narrowest canvas: room for the legend and a short title beside a tiny map.
const MIN_WIDTH: u32 = 640;
/// Most elevation swatches in a legend row (26 pixels each).
const LEVELS_PER_ROW: usize = 13;

/// One unit group's start cells: drawn in its side's colour with a marker
/// shape of its own among its side's groups, named in the legend.
#[derive(Clone, Copy, Debug)]
pub struct StartGroup<'a> {
    /// The group's name as the scenario gives it.
    pub name: &'a str,
    /// Index into the side names.
    pub side: usize,
    /// Its start cells on the map (cells off the map are not drawn).
    pub starts: &'a [Square],
}

/// What the legend lists, row by row.
enum Entry {
    Heading(String),
    Terrain(crate::map::Terrain),
    /// Elevation swatches for these levels.
    Levels(Vec<i8>),
    Side(usize, String),
    /// A group: side, its marker among its side's groups, text.
    Group(usize, usize, String),
    Note(String),
}

impl Entry {
    fn height(&self) -> u32 {
        match self {
            Entry::Heading(_) => ROW + 6,
            _ => ROW,
        }
    }
}

/// Renders `map.png` for the scenario called `name`: the terrain of `map`,
/// the start cells of `groups`, and a legend naming the terrain on the map
/// and each group under its side (`sides[g.side]`).
pub fn render(
    name: &str,
    map: &Map,
    sides: &[&str],
    groups: &[StartGroup],
) -> Result<Vec<u8>, ReportError> {
    let (w, h) = (map.width(), map.height());
    let cell = (GRID / w.max(h) as u32).clamp(1, MAX_CELL) as i32;
    let grid = Grid {
        x: LEFT as i32,
        y: GRID_TOP as i32,
        cell,
        width: w,
        height: h,
    };
    let (gw, gh) = grid.size();
    let title = truncate(&format!("{name}: map and start cells"), 90);
    let entries = legend(map, sides, groups, GRID);
    let legend_h: u32 = entries.iter().map(Entry::height).sum();
    super::fonts::ensure_registered(FILE)?;
    let title_w = text_width(&title, &bold(TITLE_SIZE)) + 40;
    let width = (LEFT + gw as u32 + RULER + GAP + LEGEND_W + MARGIN)
        .max(title_w)
        .clamp(MIN_WIDTH, MAX_CANVAS.0);
    let height = GRID_TOP + (gh as u32 + RULER).max(legend_h) + MARGIN;
    let subtitle = format!(
        "{w} × {h} squares. x counts columns from 1 at the left, y rows from 1 at the \
         top, as the map text reads."
    );
    let sub_style = text(TICK_SIZE).color(&DARK_GREY);
    let subtitle = fit(
        &[
            subtitle,
            format!("{w} × {h} squares; x from the left, y from the top, 1-based."),
        ],
        &sub_style,
        width - 20,
    );
    render_png(FILE, (width, height), |canvas| {
        draw_title(canvas, &title, width)?;
        canvas.draw_text(
            &subtitle,
            &sub_style.pos(Pos::new(HPos::Center, VPos::Top)),
            (width as i32 / 2, 44),
        )?;
        ground::paint_map(canvas, map, grid, Tone::Full)?;
        draw_starts(canvas, map, grid, groups)?;
        ground::draw_rulers(
            canvas,
            grid,
            Edges {
                top: true,
                left: true,
                bottom: true,
                right: true,
            },
        )?;
        let x = LEFT as i32 + gw + (RULER + GAP) as i32;
        draw_legend(canvas, &entries, (x, GRID_TOP as i32))
    })
}

/// Each group's marker on its start cells, groups in order (a later group
/// on the same cell is drawn over an earlier one).
fn draw_starts(
    canvas: &Canvas,
    map: &Map,
    grid: Grid,
    groups: &[StartGroup],
) -> Result<(), DrawError> {
    for (g, group) in groups.iter().enumerate() {
        let shape = shape_of(groups, g);
        for &s in group.starts.iter().filter(|&&s| map.contains(s)) {
            let (x, y) = grid.corner(s.x as usize, s.y as usize);
            let centre = (x + grid.cell / 2, y + grid.cell / 2);
            marker(canvas, centre, grid.cell, shape, series_colour(group.side))?;
        }
    }
    Ok(())
}

/// A group's marker shape: its rank among the groups of its side.
fn shape_of(groups: &[StartGroup], g: usize) -> usize {
    let side = groups[g].side;
    groups[..g].iter().filter(|o| o.side == side).count()
}

/// Marker shapes, cycled through a side's groups.
const SHAPES: usize = 5;

/// Marker `shape` in `colour`, centred on `(cx, cy)`, filling most of a cell
/// of `cell` pixels, with a white rim so it reads on any terrain.
fn marker(
    canvas: &Canvas,
    (cx, cy): (i32, i32),
    cell: i32,
    shape: usize,
    colour: RGBColor,
) -> Result<(), DrawError> {
    let r = (cell * 2 / 5).max(1);
    let outline = |r: i32| -> Vec<(i32, i32)> {
        match shape % SHAPES {
            // Square.
            1 => vec![
                (cx - r * 4 / 5, cy - r * 4 / 5),
                (cx + r * 4 / 5, cy - r * 4 / 5),
                (cx + r * 4 / 5, cy + r * 4 / 5),
                (cx - r * 4 / 5, cy + r * 4 / 5),
            ],
            // Triangle, point up.
            2 => vec![
                (cx, cy - r),
                (cx + r, cy + r * 4 / 5),
                (cx - r, cy + r * 4 / 5),
            ],
            // Diamond.
            3 => vec![(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)],
            // Triangle, point down.
            4 => vec![
                (cx, cy + r),
                (cx + r, cy - r * 4 / 5),
                (cx - r, cy - r * 4 / 5),
            ],
            _ => Vec::new(),
        }
    };
    if shape.is_multiple_of(SHAPES) {
        if cell >= 6 {
            canvas.draw(&Circle::new((cx, cy), r + 1, WHITE.filled()))?;
        }
        return canvas.draw(&Circle::new((cx, cy), r * 4 / 5, colour.filled()));
    }
    if cell >= 6 {
        canvas.draw(&Polygon::new(outline(r + 1), WHITE.filled()))?;
    }
    canvas.draw(&Polygon::new(outline(r), colour.filled()))
}

/// The legend's rows, cut to `max_height` pixels with a note of what is
/// left out (start groups are what a long legend has many of).
fn legend(map: &Map, sides: &[&str], groups: &[StartGroup], max_height: u32) -> Vec<Entry> {
    let mut rows = vec![Entry::Heading("Terrain".to_string())];
    rows.extend(ground::kinds(map).into_iter().map(Entry::Terrain));
    if let Some((lo, hi)) = ground::levels(map) {
        rows.push(Entry::Heading(
            "Elevation (the level, in its cells)".to_string(),
        ));
        let all: Vec<i8> = (lo..=hi).collect();
        // As many to a row as fit, the rows as even as can be.
        let lines = all.len().div_ceil(LEVELS_PER_ROW);
        rows.extend(
            all.chunks(all.len().div_ceil(lines))
                .map(|c| Entry::Levels(c.to_vec())),
        );
    }
    rows.push(Entry::Heading("Start cells".to_string()));
    let mut people = Vec::new();
    for (k, side) in sides.iter().enumerate() {
        people.push(Entry::Side(k, side.to_string()));
        let mine: Vec<usize> = (0..groups.len()).filter(|&g| groups[g].side == k).collect();
        if mine.is_empty() {
            people.push(Entry::Note("no start cells".to_string()));
        }
        for g in mine {
            let group = &groups[g];
            let on_map = group.starts.iter().filter(|&&s| map.contains(s)).count();
            let cells = match on_map {
                0 => "no start cells".to_string(),
                1 => "1 cell".to_string(),
                n => format!("{n} cells"),
            };
            people.push(Entry::Group(
                k,
                shape_of(groups, g),
                format!("{}: {cells}", group.name),
            ));
        }
    }
    // Groups of a side index beyond the side names: drawn, and listed.
    for (g, group) in groups.iter().enumerate() {
        if group.side >= sides.len() {
            people.push(Entry::Group(
                group.side,
                shape_of(groups, g),
                format!("{} (side {})", group.name, group.side + 1),
            ));
        }
    }
    let used: u32 = rows.iter().map(Entry::height).sum();
    let mut room = max_height.saturating_sub(used);
    let is_group = |e: &Entry| matches!(e, Entry::Group(..));
    let total = people.iter().filter(|e| is_group(e)).count();
    let mut shown = 0;
    let n = people.len();
    for (i, e) in people.into_iter().enumerate() {
        // Keep a row for the note of what is left out, unless this is last.
        let reserve = if i + 1 < n { ROW } else { 0 };
        if e.height() + reserve > room {
            break;
        }
        room -= e.height();
        shown += usize::from(is_group(&e));
        rows.push(e);
    }
    if shown < total {
        rows.push(Entry::Note(format!("… and {} more groups", total - shown)));
    }
    rows
}

fn draw_legend(canvas: &Canvas, entries: &[Entry], (x, y0): (i32, i32)) -> Result<(), DrawError> {
    let label = text(TICK_SIZE);
    let left = Pos::new(HPos::Left, VPos::Center);
    let text_x = x + SWATCH + 10;
    let room = LEGEND_W - (SWATCH as u32 + 10);
    let mut y = y0;
    for e in entries {
        let mid = y + e.height() as i32 / 2;
        match e {
            Entry::Heading(t) => {
                let style = bold(LABEL_SIZE).pos(Pos::new(HPos::Left, VPos::Bottom));
                canvas.draw_text(t, &style, (x, y + e.height() as i32 - 4))?;
            }
            Entry::Terrain(t) => {
                ground::paint_cell(canvas, (x, mid - SWATCH / 2), SWATCH, *t, Tone::Full)?;
                canvas.draw(&plotters::element::Rectangle::new(
                    [
                        (x - 1, mid - SWATCH / 2 - 1),
                        (x + SWATCH, mid + SWATCH / 2),
                    ],
                    DARK_GREY,
                ))?;
                let name = fit(&ground::kind_names(*t), &label, room);
                canvas.draw_text(&name, &label.pos(left), (text_x, mid))?;
            }
            Entry::Levels(levels) => {
                let size = 22;
                for (i, &level) in levels.iter().enumerate() {
                    let t = crate::map::Terrain {
                        elevation: level,
                        ..crate::map::Terrain::OPEN
                    };
                    let at = (x + i as i32 * (size + 4), mid - size / 2);
                    ground::paint_cell(canvas, at, size, t, Tone::Full)?;
                    if level == 0 {
                        // Level 0 has no number on the map; say it here.
                        let style = text(13).pos(Pos::new(HPos::Center, VPos::Center));
                        canvas.draw_text("0", &style, (at.0 + size / 2, mid))?;
                    }
                }
            }
            Entry::Side(k, name) => {
                let colour = series_colour(*k);
                let style = bold(TICK_SIZE + 1).color(&colour).pos(left);
                let name = fit(std::slice::from_ref(name), &style, LEGEND_W);
                canvas.draw_text(&name, &style, (x, mid))?;
            }
            Entry::Group(side, shape, t) => {
                let cx = x + SWATCH / 2;
                marker(canvas, (cx, mid), SWATCH + 4, *shape, series_colour(*side))?;
                let t = fit(std::slice::from_ref(t), &label, room);
                canvas.draw_text(&t, &label.pos(left), (text_x, mid))?;
            }
            Entry::Note(t) => {
                let style = text(TICK_SIZE - 1).color(&DARK_GREY).pos(left);
                canvas.draw_text(t, &style, (text_x, mid))?;
            }
        }
        y += e.height() as i32;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::ground::fixtures::{
        self, decoded_size, every_terrain, largest, save, typical,
    };
    use super::*;

    fn groups_of<'a>(map: &'a Map, named: &[(&'a str, char, usize)]) -> Vec<StartGroup<'a>> {
        named
            .iter()
            .map(|&(name, letter, side)| StartGroup {
                name,
                side,
                starts: map.starts(letter),
            })
            .collect()
    }

    fn within_bound(size: (u32, u32)) {
        fixtures::within(size, MAX_CANVAS);
    }

    #[test]
    fn the_bound_is_within_the_house_limit() {
        assert_eq!(MAX_CANVAS, (2012, 1684));
        fixtures::bound_within_house_limit(MAX_CANVAS);
    }

    #[test]
    fn one_cell() {
        let map = Map::open(1, 1);
        let starts = [Square::new(0, 0)];
        let groups = [StartGroup {
            name: "hero",
            side: 0,
            starts: &starts,
        }];
        let png = render("duel", &map, &["heroes", "monsters"], &groups).expect("render");
        save("map-1x1.png", &png);
        let size = decoded_size(&png);
        within_bound(size);
        assert_eq!(size.0, MIN_WIDTH);
    }

    #[test]
    fn every_terrain_and_typical() {
        let map = every_terrain();
        let groups = groups_of(&map, &[("scouts", 'A', 0), ("raiders", 'B', 1)]);
        let png = render("terrain", &map, &["blue", "red"], &groups).expect("render");
        save("map-terrain.png", &png);
        within_bound(decoded_size(&png));
        // Every kind is in the legend, once.
        assert_eq!(super::super::ground::kinds(&map).len(), 10);

        let map = typical();
        let groups = groups_of(
            &map,
            &[
                ("vanguard", 'A', 0),
                ("archers", 'B', 0),
                ("goblins", 'C', 1),
            ],
        );
        let png = render("ambush", &map, &["knights", "goblins"], &groups).expect("render");
        save("map-typical.png", &png);
        let size = decoded_size(&png);
        within_bound(size);
        // 20 × 12 cells of 48 pixels, rulers and the legend beside them.
        assert_eq!(
            size,
            (
                LEFT + 20 * 48 + RULER + GAP + LEGEND_W + MARGIN,
                GRID_TOP + 12 * 48 + RULER + MARGIN
            )
        );
        // Same input, same bytes.
        assert_eq!(
            render("ambush", &map, &["knights", "goblins"], &groups).expect("render"),
            png
        );
    }

    #[test]
    fn largest_map_stays_within_the_bound() {
        let map = largest();
        let groups = groups_of(&map, &[("north army", 'A', 0), ("south army", 'B', 1)]);
        let png = render("the town", &map, &["north", "south"], &groups).expect("render");
        save("map-128x128.png", &png);
        let size = decoded_size(&png);
        within_bound(size);
        assert_eq!(size, (MAX_CANVAS.0, MAX_CANVAS.1));
        // A long, thin map: its long side sets the cells.
        let thin = Map::open(128, 1);
        let size = decoded_size(&render("row", &thin, &["a", "b"], &[]).expect("render"));
        within_bound(size);
    }

    #[test]
    fn a_long_legend_is_cut_and_says_so() {
        let map = typical();
        let starts = map.starts('A');
        let names: Vec<String> = (0..200).map(|i| format!("group {i}")).collect();
        let groups: Vec<StartGroup> = names
            .iter()
            .enumerate()
            .map(|(i, name)| StartGroup {
                name,
                side: i % 2,
                starts,
            })
            .collect();
        let rows = legend(&map, &["a", "b"], &groups, GRID);
        let height: u32 = rows.iter().map(Entry::height).sum();
        assert!(height <= GRID, "{height}");
        let Some(Entry::Note(note)) = rows.last() else {
            panic!("no note at the end");
        };
        let shown = rows
            .iter()
            .filter(|e| matches!(e, Entry::Group(..)))
            .count();
        assert_eq!(note, &format!("… and {} more groups", 200 - shown));
        let png = render("crowd", &map, &["a", "b"], &groups).expect("render");
        within_bound(decoded_size(&png));
    }
}
