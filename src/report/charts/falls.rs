//! `falls.png`: where units fell, one panel per side, each a heat map over
//! the map's terrain (drawn pale: walls and cover in greys, open ground
//! light) on one colour scale shared by every panel, so the sides compare.
//! A square where no unit of the side fell is left uncoloured: the terrain
//! shows through.
//!
//! Coordinates on the rulers: x counts columns from 1 at the left, y rows
//! from 1 at the top, as the map text reads (see [`super::map`]).
//!
//! Size: panels go side by side (two sides), or in whichever grid gives the
//! largest cells; cells are at most [`MAX_CELL`] (48) pixels and shrink so that
//! all panels' grids stay within [`PANELS`] pixels each way (9-pixel cells
//! for two sides on a 128 × 128 map). Up to [`crate::engine::MAX_SIDES`]
//! sides the canvas is at most [`MAX_CANVAS`] = 3690 × 2800 pixels.
//!
//! Plain data in, PNG bytes out: the caller sums the falls of every fight of
//! the baseline cell per side and square; nothing here reads a journal.

use plotters::element::{PathElement, Rectangle};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, RGBColor};

use super::ground::{self, Edges, Grid, Tone};
use super::style::{
    bold, draw_title, fit, render_png, text, text_width, Canvas, DrawError, DARK_GREY, LABEL_SIZE,
    TICK_SIZE, TITLE_SIZE,
};
use crate::engine::MAX_SIDES;
use crate::map::Map;
use crate::report::error::ReportError;
use crate::report::labels::truncate;
use crate::report::names::FALLS_PNG;
use crate::report::numbers::grouped;

const FILE: &str = FALLS_PNG;

/// Largest cell, in pixels.
pub const MAX_CELL: u32 = 48;
/// Most pixels all panels' grids take together, across and down.
pub const PANELS: u32 = 2400;
/// Largest canvas for up to [`MAX_SIDES`] sides on any map: every panel's
/// furniture (or its least width) beside the shared grid budget. Loose (no
/// layout has four panels in a row each at its least width and at the full
/// budget), and within the house limit [`super::style::MAX_SIDE`].
pub const MAX_CANVAS: (u32, u32) = (
    PAD + PANELS + MAX_SIDES as u32 * MIN_PANEL_W + (MAX_SIDES as u32 - 1) * GAP + BAR_BAND,
    TOP + PANELS
        + MAX_SIDES as u32 * (HEAD + PANEL_RULER + PANEL_BOTTOM)
        + (MAX_SIDES as u32 - 1) * GAP
        + MARGIN,
);

/// Left of the first panel.
const PAD: u32 = 10;
/// Title and subtitle.
const TOP: u32 = 70;
/// Within a panel: the y ruler at its left, a margin at its right.
const PANEL_LEFT: u32 = 44;
const PANEL_RIGHT: u32 = 16;
/// Above a panel's grid: its heading and its x ruler; below it, a margin.
const HEAD: u32 = 26;
const PANEL_RULER: u32 = 20;
const PANEL_BOTTOM: u32 = 10;
/// Narrowest panel: room for its heading beside a tiny map.
const MIN_PANEL_W: u32 = 260;
/// Between panels.
const GAP: u32 = 30;
/// The colour bar's band at the right.
const BAR_BAND: u32 = 150;
const BAR_H: i32 = 300;
const BAR_W: i32 = 22;
const MARGIN: u32 = 16;
/// Shortest canvas below the title: room for the colour bar and its note.
const MIN_BODY: u32 = BAR_H as u32 + 90;

/// The panels' arrangement and size.
struct Layout {
    cols: usize,
    rows: usize,
    cell: i32,
    /// A panel's size, furniture included.
    panel: (u32, u32),
}

fn layout(n: usize, (w, h): (usize, usize)) -> Layout {
    let cell_for = |cols: usize| {
        let rows = n.div_ceil(cols);
        let across = PANELS / (cols * w) as u32;
        let down = PANELS / (rows * h) as u32;
        across.min(down).clamp(1, MAX_CELL)
    };
    // Two sides side by side when that is as good as any: a reader compares
    // them left and right. Otherwise the arrangement with the largest cells.
    let preferred = n.clamp(1, 2);
    let mut cols = preferred;
    for c in 1..=n.max(1) {
        if cell_for(c) > cell_for(cols) {
            cols = c;
        }
    }
    let cell = cell_for(cols);
    let rows = n.max(1).div_ceil(cols);
    let gw = w as u32 * cell;
    let gh = h as u32 * cell;
    Layout {
        cols,
        rows,
        cell: cell as i32,
        panel: (
            (PANEL_LEFT + gw + PANEL_RIGHT).max(MIN_PANEL_W),
            HEAD + PANEL_RULER + gh + PANEL_BOTTOM,
        ),
    }
}

/// Renders `falls.png` for the scenario called `name`: for each side
/// (`sides[k]`), `falls[k][i]` units of that side fell on square `i` of
/// `map` (row-major, [`Map::index`]), summed over the fights shown.
/// `falls` holds one count per square for each side, else the results are
/// inconsistent.
pub fn render(
    name: &str,
    map: &Map,
    sides: &[&str],
    falls: &[&[u32]],
) -> Result<Vec<u8>, ReportError> {
    if falls.len() != sides.len() || sides.is_empty() {
        return Err(ReportError::Inconsistent(format!(
            "{FILE}: {} sides but falls for {}",
            sides.len(),
            falls.len()
        )));
    }
    if let Some((k, f)) = falls.iter().enumerate().find(|(_, f)| f.len() != map.len()) {
        return Err(ReportError::Inconsistent(format!(
            "{FILE}: side {} has {} squares of falls, the map {}",
            k + 1,
            f.len(),
            map.len()
        )));
    }
    let n = sides.len();
    let l = layout(n, (map.width(), map.height()));
    let max = falls
        .iter()
        .flat_map(|f| f.iter())
        .copied()
        .max()
        .unwrap_or(0);
    let title = truncate(&format!("{name}: where units fell"), 90);
    super::fonts::ensure_registered(FILE)?;
    let title_w = text_width(&title, &bold(TITLE_SIZE)) + 40;
    let panels_w = l.cols as u32 * l.panel.0 + (l.cols as u32 - 1) * GAP;
    let panels_h = l.rows as u32 * l.panel.1 + (l.rows as u32 - 1) * GAP;
    let width = (PAD + panels_w + BAR_BAND).max(title_w).min(MAX_CANVAS.0);
    let height = TOP + panels_h.max(MIN_BODY) + MARGIN;
    let subtitle = fit(
        &[
            "Squares where units of each side fell, over every fight; no colour: none \
             fell there. x counts columns from 1 at the left, y rows from 1 at the top."
                .to_string(),
            "Where units of each side fell; no colour: none. x from the left, y from the top."
                .to_string(),
        ],
        &text(TICK_SIZE).color(&DARK_GREY),
        width - 20,
    );
    render_png(FILE, (width, height), |canvas| {
        draw_title(canvas, &title, width)?;
        let style = text(TICK_SIZE)
            .color(&DARK_GREY)
            .pos(Pos::new(HPos::Center, VPos::Top));
        canvas.draw_text(&subtitle, &style, (width as i32 / 2, 42))?;
        for (k, side) in sides.iter().enumerate() {
            let (c, r) = (k % l.cols, k / l.cols);
            let x = PAD + c as u32 * (l.panel.0 + GAP);
            let y = TOP + r as u32 * (l.panel.1 + GAP);
            panel(canvas, map, &l, (x as i32, y as i32), side, falls[k], max)?;
        }
        let bar_x = (PAD + panels_w) as i32 + 30;
        colour_bar(canvas, (bar_x, TOP as i32 + HEAD as i32 + 24), max)
    })
}

/// One side's panel with its top-left corner at `(x, y)`.
fn panel(
    canvas: &Canvas,
    map: &Map,
    l: &Layout,
    (x, y): (i32, i32),
    side: &str,
    falls: &[u32],
    max: u32,
) -> Result<(), DrawError> {
    let grid = Grid {
        x: x + PANEL_LEFT as i32,
        y: y + (HEAD + PANEL_RULER) as i32,
        cell: l.cell,
        width: map.width(),
        height: map.height(),
    };
    let total: u64 = falls.iter().map(|&c| u64::from(c)).sum();
    // The square where most fell, the first in reading order on a tie.
    let most = falls
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(&a.0)));
    let fell = match total {
        1 => "1 unit fell".to_string(),
        n => format!("{} units fell", grouped(n)),
    };
    let mut heads = Vec::new();
    if let Some((i, &c)) = most.filter(|&(_, &c)| c > 0) {
        let s = map.square(i);
        heads.push(format!(
            "{side}: {fell}; most at x {}, y {} ({})",
            s.x + 1,
            s.y + 1,
            grouped(u64::from(c))
        ));
    }
    heads.push(format!("{side}: {fell}"));
    heads.push(side.to_string());
    let style = bold(LABEL_SIZE - 1);
    let head = fit(&heads, &style, l.panel.0 - 4);
    canvas.draw_text(
        &head,
        &style.pos(Pos::new(HPos::Left, VPos::Top)),
        (x + 4, y + 4),
    )?;
    ground::paint_map(canvas, map, grid, Tone::Muted)?;
    // A pixel's gap right of and below each coloured square where cells
    // can spare it, so neighbouring squares of one colour stay apart.
    let inset = i32::from(l.cell >= 8);
    for (i, &c) in falls.iter().enumerate().filter(|(_, &c)| c > 0) {
        let s = map.square(i);
        let (cx, cy) = grid.corner(s.x as usize, s.y as usize);
        let colour = heat(scale(c, max));
        canvas.draw(&Rectangle::new(
            [(cx, cy), (cx + l.cell - inset, cy + l.cell - inset)],
            colour.filled(),
        ))?;
    }
    ground::draw_rulers(
        canvas,
        grid,
        Edges {
            top: true,
            left: true,
            bottom: false,
            right: false,
        },
    )
}

/// Where a count of `c` falls lies on the colour scale, 0 to 1: the scale
/// runs from 1 fall (0) to the most on any square (`max`, 1), so its
/// whole range tells counts apart; with a most of 1 every square is 0.
fn scale(c: u32, max: u32) -> f64 {
    if max <= 1 {
        return 0.0;
    }
    f64::from(c.saturating_sub(1)) / f64::from(max - 1)
}

/// Sequential scale (ColorBrewer YlOrRd, interpolated) from pale yellow for
/// the fewest falls to dark red for the most; never white, so a coloured
/// square stands out from open ground.
fn heat(v: f64) -> RGBColor {
    const STOPS: [RGBColor; 4] = [
        RGBColor(255, 226, 120),
        RGBColor(253, 160, 60),
        RGBColor(232, 52, 32),
        RGBColor(128, 0, 38),
    ];
    let v = if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
    let scaled = v * (STOPS.len() - 1) as f64;
    let i = (scaled.floor() as usize).min(STOPS.len() - 2);
    ground::mix(STOPS[i], STOPS[i + 1], scaled - i as f64)
}

/// Ticks for a count scale from 0 to `max`: multiples of 1, 2 or 5 × 10^k,
/// at most six, above 0.
fn ticks(max: u32) -> Vec<u32> {
    if max == 0 {
        return Vec::new();
    }
    let mut step = 1u32;
    'found: for p in 0..10 {
        for m in [1, 2, 5] {
            let s = m * 10u32.pow(p);
            if max / s <= 5 {
                step = s;
                break 'found;
            }
        }
    }
    (1..=max / step).map(|k| k * step).collect()
}

/// The colour bar from 1 fall (bottom) to `max` (top) at `(x, y)`, titled,
/// with a note that uncoloured squares saw no falls.
fn colour_bar(canvas: &Canvas, (x, y): (i32, i32), max: u32) -> Result<(), DrawError> {
    let head = bold(TICK_SIZE).pos(Pos::new(HPos::Left, VPos::Bottom));
    canvas.draw_text("falls per square", &head, (x, y - 10))?;
    let note = text(TICK_SIZE - 2)
        .color(&DARK_GREY)
        .pos(Pos::new(HPos::Left, VPos::Top));
    if max == 0 {
        return canvas.draw_text("no unit fell", &note, (x, y));
    }
    // One swatch when every coloured square holds one fall.
    let bar_h = if max == 1 { BAR_W } else { BAR_H };
    for dy in 0..bar_h {
        let v = 1.0 - f64::from(dy) / f64::from(bar_h - 1);
        let v = if max == 1 { 0.0 } else { v };
        canvas.draw(&Rectangle::new(
            [(x, y + dy), (x + BAR_W, y + dy + 1)],
            heat(v).filled(),
        ))?;
    }
    canvas.draw(&Rectangle::new(
        [(x - 1, y - 1), (x + BAR_W, y + bar_h)],
        DARK_GREY,
    ))?;
    let label = text(TICK_SIZE).pos(Pos::new(HPos::Left, VPos::Center));
    let mut marks = ticks(max);
    if marks.first() != Some(&1) {
        marks.insert(0, 1);
    }
    if marks.last() != Some(&max) {
        marks.push(max);
    }
    let at = |c: u32| {
        if max == 1 {
            y + bar_h / 2
        } else {
            y + ((1.0 - scale(c, max)) * f64::from(bar_h - 1)).round() as i32
        }
    };
    let mut last_y = i32::MIN / 2;
    for &c in marks.iter().rev() {
        let ty = at(c);
        // Skip a label that would touch the one above it (1 beside 2).
        if ty - last_y < 14 {
            continue;
        }
        canvas.draw(&PathElement::new(
            [(x + BAR_W, ty), (x + BAR_W + 4, ty)],
            DARK_GREY,
        ))?;
        canvas.draw_text(&c.to_string(), &label, (x + BAR_W + 8, ty))?;
        last_y = ty;
    }
    canvas.draw_text("no colour: none fell", &note, (x, y + bar_h + 10))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_few() {
        assert_eq!(ticks(0), Vec::<u32>::new());
        assert_eq!(ticks(1), vec![1]);
        assert_eq!(ticks(5), vec![1, 2, 3, 4, 5]);
        assert_eq!(ticks(7), vec![2, 4, 6]);
        assert_eq!(ticks(100), vec![20, 40, 60, 80, 100]);
        assert_eq!(ticks(1234), vec![500, 1000]);
    }

    #[test]
    fn the_scale_runs_from_one_fall_to_the_most() {
        assert_eq!(scale(1, 40), 0.0);
        assert_eq!(scale(40, 40), 1.0);
        assert_eq!(scale(1, 1), 0.0);
    }

    #[test]
    fn heat_is_never_white() {
        for v in [0.0, 0.001, 0.5, 1.0] {
            let RGBColor(r, g, b) = heat(v);
            assert!(u32::from(r) + u32::from(g) + u32::from(b) < 3 * 235, "{v}");
        }
    }
}

#[cfg(test)]
mod chart_tests {
    use super::super::ground::fixtures::{
        self, decoded_size, every_terrain, largest, save, typical,
    };
    use super::*;
    use crate::map::Square;

    fn within_bound(size: (u32, u32)) {
        fixtures::within(size, MAX_CANVAS);
    }

    /// Falls piling up round `centre`, `peak` on it, fewer farther out,
    /// only on squares a unit can stand on.
    fn falls_round(map: &Map, centre: Square, peak: u32) -> Vec<u32> {
        map.squares()
            .map(|s| {
                let d = crate::map::Metric::Chebyshev.distance(s, centre);
                if map.at(s).passable() {
                    peak.saturating_sub(d * d * peak / 16)
                } else {
                    0
                }
            })
            .collect()
    }

    #[test]
    fn the_bound_is_within_the_house_limit() {
        assert_eq!(MAX_CANVAS, (3690, 2800));
        fixtures::bound_within_house_limit(MAX_CANVAS);
    }

    #[test]
    fn one_cell_and_no_falls() {
        let map = Map::open(1, 1);
        let png = render("duel", &map, &["heroes", "monsters"], &[&[3], &[0]]).expect("render");
        save("falls-1x1.png", &png);
        within_bound(decoded_size(&png));
        let png = render("duel", &map, &["heroes", "monsters"], &[&[0], &[0]]).expect("render");
        within_bound(decoded_size(&png));
    }

    #[test]
    fn every_terrain_and_typical() {
        let map = every_terrain();
        let a = falls_round(&map, Square::new(4, 2), 9);
        let b = falls_round(&map, Square::new(10, 3), 4);
        let png = render("terrain", &map, &["blue", "red"], &[&a, &b]).expect("render");
        save("falls-terrain.png", &png);
        within_bound(decoded_size(&png));

        let map = typical();
        let a = falls_round(&map, Square::new(12, 3), 40);
        let b = falls_round(&map, Square::new(16, 4), 25);
        let png = render("ambush", &map, &["knights", "goblins"], &[&a, &b]).expect("render");
        save("falls-typical.png", &png);
        let size = decoded_size(&png);
        within_bound(size);
        // Two 20 × 12 panels of the largest cells side by side.
        let panel = PANEL_LEFT + 20 * MAX_CELL + PANEL_RIGHT;
        assert_eq!(size.0, PAD + 2 * panel + GAP + BAR_BAND);
        // Three sides: a two-by-two grid.
        let c = falls_round(&map, Square::new(5, 10), 7);
        let png = render("three", &map, &["a", "b", "c"], &[&a, &b, &c]).expect("render");
        save("falls-three.png", &png);
        within_bound(decoded_size(&png));
    }

    #[test]
    fn largest_map_stays_within_the_bound() {
        let map = largest();
        let a = falls_round(&map, Square::new(64, 40), 120);
        let b = falls_round(&map, Square::new(64, 88), 300);
        let png = render("the town", &map, &["north", "south"], &[&a, &b]).expect("render");
        save("falls-128x128.png", &png);
        let size = decoded_size(&png);
        within_bound(size);
        // Four sides, the most there are.
        let four: [&[u32]; 4] = [&a, &b, &a, &b];
        let png = render("four", &map, &["a", "b", "c", "d"], &four).expect("render");
        save("falls-128x128-four.png", &png);
        within_bound(decoded_size(&png));
        // Four sides on a long, thin map.
        let thin = Map::open(128, 1);
        let z = vec![1u32; 128];
        let four: [&[u32]; 4] = [&z, &z, &z, &z];
        let png = render("row", &thin, &["a", "b", "c", "d"], &four).expect("render");
        within_bound(decoded_size(&png));
    }

    #[test]
    fn counts_that_do_not_fit_the_map_are_refused() {
        let map = Map::open(2, 2);
        let err = render("x", &map, &["a", "b"], &[&[0; 4], &[0; 3]]).expect_err("short");
        assert!(err.to_string().contains("side 2 has 3 squares"), "{err}");
        let err = render("x", &map, &["a", "b"], &[&[0; 4]]).expect_err("one side");
        assert!(err.to_string().contains("2 sides but falls for 1"), "{err}");
    }
}
