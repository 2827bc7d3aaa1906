//! `win_rate.png` for two to four axes: faceted heatmaps, every side shown.
//!
//! One block per side (stacked), each the side's win rate in every cell,
//! coloured on one diverging scale around 0.5. Within a panel the last two
//! axes are rows and columns; with three axes the first makes one panel per
//! value side by side, with four the first two are rows and columns of
//! panels. Squares shrink so the chart stays within [`MAX_SIDE`] pixels a
//! side (text in them only when it fits, labels thinned when they would
//! overlap); when even the smallest readable square does not fit, [`render`]
//! returns `None` and the caller draws the ranked chart instead.

use std::collections::HashMap;

use plotters::element::Rectangle;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, FontTransform, RGBColor, WHITE};

use super::style::{
    bold, draw_diamond, draw_title, fit, ink_on, render_png, text, text_width, Canvas, DrawError,
    DARK_GREY, DIAMOND, LABEL_SIZE, LIGHT_GREY, MAX_SIDE, TICK_SIZE, TITLE_SIZE,
};
use super::win_rate::under_axis;
use crate::analysis::Proportion;
use crate::report::error::ReportError;
use crate::report::labels::{axis_levels, fixed, truncate};
use crate::report::model::Report;

/// Largest square (the size of a two-axis heatmap with few values).
const SQUARE: (u32, u32) = (118, 64);
/// Smallest square worth drawing; below it the ranked chart is drawn.
const MIN_SQUARE: u32 = 6;
/// Longest row or column label, in characters: room for an axis over a
/// whole table (`{initiative = alternating, opening = second}`), whose
/// values differ only past their first words.
const MAX_LABEL_CHARS: usize = 44;
/// Space between panels, and the band above a panel naming its facet.
const GAP: u32 = 14;
const FACET_HEAD: u32 = 22;
/// Band above each side's block naming the side.
const SIDE_HEAD: u32 = 30;
/// Title and subtitle.
const TOP: u32 = 70;
/// Colour bar and its labels, right of the panels.
const RIGHT: u32 = 130;
/// Least pixels between two row or column labels.
const LABEL_PITCH: u32 = 14;

/// Which axis plays which part, and the levels of each.
struct Facets<'a> {
    /// Level index of every cell on every axis.
    rows: Vec<&'a str>,
    cols: Vec<&'a str>,
    facet_rows: Vec<&'a str>,
    facet_cols: Vec<&'a str>,
    /// Axis index of (facet row, facet column, row, column); `None` for a
    /// facet part the matrix does not have.
    parts: [Option<usize>; 4],
    /// `cell[((fr * nfc + fc) * nr + r) * nc + c]`: the cell there, if any.
    cell: Vec<Option<usize>>,
}

fn facets<'a>(report: &Report<'a>) -> Option<Facets<'a>> {
    let k = report.info.axes.len();
    let parts = match k {
        2 => [None, None, Some(0), Some(1)],
        3 => [None, Some(0), Some(1), Some(2)],
        4 => [Some(0), Some(1), Some(2), Some(3)],
        _ => return None,
    };
    let levels = |p: Option<usize>| p.map_or_else(|| vec![""], |a| axis_levels(report.cells, a));
    let [fr, fc, r, c] = parts.map(levels);
    let index: Vec<HashMap<&str, usize>> = (0..k)
        .map(|a| {
            axis_levels(report.cells, a)
                .into_iter()
                .enumerate()
                .map(|(i, v)| (v, i))
                .collect()
        })
        .collect();
    let total = fr.len() * fc.len() * r.len() * c.len();
    // A matrix that is not a full product could make a sparse grid far
    // larger than its cells: not a heatmap's job.
    if total > 4 * report.cells.len() + 16 {
        return None;
    }
    let mut cell = vec![None; total];
    for (i, cv) in report.cells.iter().enumerate() {
        let at = |p: Option<usize>| -> usize {
            p.and_then(|a| index[a].get(cv.axis_values[a].as_str()).copied())
                .unwrap_or(0)
        };
        let [a, b, x, y] = parts.map(at);
        cell[((a * fc.len() + b) * r.len() + x) * c.len() + y] = Some(i);
    }
    Some(Facets {
        rows: r,
        cols: c,
        facet_rows: fr,
        facet_cols: fc,
        parts,
        cell,
    })
}

/// Pixel geometry.
struct Geometry {
    sq: (u32, u32),
    left: u32,
    panel: (u32, u32),
    /// Height of one side's block, and of the column-label band in it.
    block: u32,
    col_band: u32,
    vertical: bool,
    width: u32,
    height: u32,
    /// Margin that centres the panels when the title is wider.
    slack: u32,
}

fn geometry(f: &Facets, sides: u32, title_width: u32) -> Option<Geometry> {
    let style = text(LABEL_SIZE - 1);
    let widest = |labels: &[&str]| {
        labels
            .iter()
            .map(|t| text_width(&truncate(t, MAX_LABEL_CHARS), &style))
            .max()
            .unwrap_or(0)
    };
    let (nr, nc) = (f.rows.len() as u32, f.cols.len() as u32);
    let (nfr, nfc) = (f.facet_rows.len() as u32, f.facet_cols.len() as u32);
    let left = 40 + widest(&f.rows) + 12;
    let avail_w = MAX_SIDE.saturating_sub(left + RIGHT + (nfc - 1) * GAP);
    let sq_w = (avail_w / (nfc * nc)).min(SQUARE.0);
    let vertical = widest(&f.cols) + 8 > sq_w;
    let col_band = if vertical {
        widest(&f.cols)
    } else {
        LABEL_SIZE
    } + 14;
    let facet_head = if f.parts[1].is_some() { FACET_HEAD } else { 0 };
    let fixed_h = SIDE_HEAD + nfr * facet_head + (nfr - 1) * GAP + col_band + LABEL_SIZE + 20;
    let avail_h = MAX_SIDE.saturating_sub(TOP + sides * fixed_h);
    let sq_h = (avail_h / (sides * nfr * nr)).min(SQUARE.1);
    if sq_w < MIN_SQUARE || sq_h < MIN_SQUARE {
        return None;
    }
    let panel = (sq_w * nc, sq_h * nr);
    let grid_w = nfc * panel.0 + (nfc - 1) * GAP;
    let block = fixed_h + nfr * panel.1;
    let width = (left + grid_w + RIGHT).max(title_width + 40).min(MAX_SIDE);
    // Room for the colour bar under a short block.
    let height = TOP + (sides * block).max(260) + 10;
    Some(Geometry {
        sq: (sq_w, sq_h),
        left,
        panel,
        block,
        col_band,
        vertical,
        width,
        height,
        slack: width.saturating_sub(left + grid_w + RIGHT) / 2,
    })
}

/// Renders the faceted heatmaps, or `None` when they cannot fit.
pub(crate) fn render(report: &Report, file: &'static str) -> Result<Option<Vec<u8>>, ReportError> {
    let Some(f) = facets(report) else {
        return Ok(None);
    };
    let info = report.info;
    let title = truncate(&format!("{}: win rate of each side", info.name), 90);
    let Some(g) = geometry(
        &f,
        info.sides.len() as u32,
        text_width(&title, &bold(TITLE_SIZE)),
    ) else {
        return Ok(None);
    };
    let axis = |p: Option<usize>| p.and_then(|a| info.axes.get(a)).map_or("", String::as_str);
    let short = |p: Option<usize>| {
        let a = axis(p);
        a.rsplit('.').next().unwrap_or(a)
    };
    // The axes' full paths, or their last parts when the paths do not fit.
    let exact = (0..report.cells.len()).any(|i| report.exact_of(i).is_some());
    let subtitle = |name: [&str; 4]| {
        let grid = format!(
            "Rows {}, columns {}; 95% Wilson intervals in cells.csv.{}",
            name[2],
            name[3],
            if exact {
                " ◆: exact win rate (enumerated)."
            } else {
                ""
            }
        );
        let panels = match (f.parts[0], f.parts[1]) {
            (_, None) => String::new(),
            (Some(_), Some(_)) => format!("Panels: rows {}, columns {}. ", name[0], name[1]),
            (None, Some(_)) => format!("One panel per {}. ", name[1]),
        };
        panels + &grid
    };
    let full = f.parts.map(axis);
    let shortened = f.parts.map(short);
    let sub_style = text(TICK_SIZE).color(&DARK_GREY);
    let subtitle = fit(
        &[subtitle(full), subtitle(shortened)],
        &sub_style,
        g.width.saturating_sub(20),
    );
    let png = render_png(file, (g.width, g.height), |canvas| {
        draw_title(canvas, &title, g.width)?;
        let style = text(TICK_SIZE)
            .color(&DARK_GREY)
            .pos(Pos::new(HPos::Center, VPos::Top));
        canvas.draw_text(&subtitle, &style, (g.width as i32 / 2, 42))?;
        for (k, side) in info.sides.iter().enumerate() {
            let y0 = TOP + k as u32 * g.block;
            block(canvas, report, &f, &g, k, &side.name, y0)?;
        }
        let x = g.slack + g.left + f.facet_cols.len() as u32 * (g.panel.0 + GAP);
        let bar_h = (g.block - SIDE_HEAD - g.col_band - 30).clamp(160, 400);
        draw_colour_bar(
            canvas,
            (x as i32 + 10, (TOP + SIDE_HEAD) as i32),
            bar_h as i32,
            "win rate",
        )
    })?;
    Ok(Some(png))
}

/// One side's block of panels, from pixel row `y0`.
fn block(
    canvas: &Canvas,
    report: &Report,
    f: &Facets,
    g: &Geometry,
    side: usize,
    name: &str,
    y0: u32,
) -> Result<(), DrawError> {
    let x0 = (g.slack + g.left) as i32;
    let y0 = y0 as i32;
    canvas.draw_text(
        &format!("win rate of {name}"),
        &bold(LABEL_SIZE).pos(Pos::new(HPos::Left, VPos::Top)),
        (x0, y0 + 6),
    )?;
    let (nr, nc) = (f.rows.len(), f.cols.len());
    let (sw, sh) = (g.sq.0 as i32, g.sq.1 as i32);
    let (pw, ph) = (g.panel.0 as i32, g.panel.1 as i32);
    let facet_head = if f.parts[1].is_some() {
        FACET_HEAD as i32
    } else {
        0
    };
    let gap = GAP as i32;
    let label = text(if g.sq.1 < 16 {
        TICK_SIZE - 3
    } else {
        LABEL_SIZE - 1
    });
    let row_step = (LABEL_PITCH as usize).div_ceil(g.sq.1 as usize).max(1);
    let col_step = if g.vertical {
        (LABEL_PITCH as usize).div_ceil(g.sq.0 as usize).max(1)
    } else {
        1
    };
    let info = report.info;
    let short = |p: Option<usize>| {
        p.and_then(|a| info.axes.get(a))
            .map_or("", |s| s.rsplit('.').next().unwrap_or(s))
    };
    let mut panel_top = y0 + SIDE_HEAD as i32;
    for (fr, fr_value) in f.facet_rows.iter().enumerate() {
        let top = panel_top + facet_head;
        for (fc, fc_value) in f.facet_cols.iter().enumerate() {
            let left = x0 + fc as i32 * (pw + gap);
            if f.parts[1].is_some() {
                // `rejoin = all`, or just `all` when the names do not fit
                // (the subtitle names the axes): the values tell panels apart.
                let (named, bare) = match f.parts[0] {
                    Some(_) => (
                        format!(
                            "{} = {fr_value}, {} = {fc_value}",
                            short(f.parts[0]),
                            short(f.parts[1])
                        ),
                        format!("{fr_value}, {fc_value}"),
                    ),
                    None => (
                        format!("{} = {fc_value}", short(f.parts[1])),
                        fc_value.to_string(),
                    ),
                };
                let style = text(TICK_SIZE - 1);
                let head = fit(&[named, bare], &style, pw.max(0) as u32);
                canvas.draw_text(
                    &head,
                    &style.pos(Pos::new(HPos::Center, VPos::Bottom)),
                    (left + pw / 2, top - 4),
                )?;
            }
            for r in 0..nr {
                for c in 0..nc {
                    let i = ((fr * f.facet_cols.len() + fc) * nr + r) * nc + c;
                    let rate = f.cell[i].and_then(|cell| report.summaries[cell].wins.get(side));
                    let exact = f.cell[i]
                        .and_then(|cell| report.exact_of(cell))
                        .and_then(|e| e.wins.get(side).copied());
                    let corner = (left + c as i32 * sw, top + r as i32 * sh);
                    draw_square(canvas, corner, (sw, sh), rate, exact)?;
                }
            }
        }
        for (r, value) in f.rows.iter().enumerate().step_by(row_step) {
            let at = (x0 - 8, top + r as i32 * sh + sh / 2);
            let style = label.pos(Pos::new(HPos::Right, VPos::Center));
            canvas.draw_text(&truncate(value, MAX_LABEL_CHARS), &style, at)?;
        }
        panel_top = top + ph + gap;
    }
    let below = panel_top - gap + 6;
    for fc in 0..f.facet_cols.len() {
        let left = x0 + fc as i32 * (pw + gap);
        for (c, value) in f.cols.iter().enumerate().step_by(col_step) {
            let at = (left + c as i32 * sw + sw / 2, below);
            canvas.draw_text(
                &truncate(value, MAX_LABEL_CHARS),
                &under_axis(&label, g.vertical),
                at,
            )?;
        }
    }
    let title = text(LABEL_SIZE).color(&DARK_GREY);
    let axis = |p: Option<usize>| p.and_then(|a| info.axes.get(a)).map_or("", String::as_str);
    let grid_w = f.facet_cols.len() as i32 * (pw + gap) - gap;
    canvas.draw_text(
        axis(f.parts[3]),
        &title.pos(Pos::new(HPos::Center, VPos::Top)),
        (x0 + grid_w / 2, below + g.col_band as i32 - 4),
    )?;
    let rotated = title
        .transform(FontTransform::Rotate270)
        .pos(Pos::new(HPos::Center, VPos::Top));
    let middle = (y0 + SIDE_HEAD as i32 + below) / 2;
    canvas.draw_text(
        &truncate(axis(f.parts[2]), 40),
        &rotated,
        ((g.slack + 6) as i32, middle),
    )
}
/// One heatmap square: colour, rate and interval; grey with a dash when the
/// matrix has no cell for this combination. With an exact win rate, a
/// line `◆ 0.4930` under them where it fits, else a diamond in the
/// square's corner.
fn draw_square(
    canvas: &Canvas,
    (x, y): (i32, i32),
    (w, h): (i32, i32),
    rate: Option<&Proportion>,
    exact: Option<f64>,
) -> Result<(), DrawError> {
    let fill = rate.map_or(LIGHT_GREY, |p| heat_colour(p.estimate));
    canvas.draw(&Rectangle::new([(x, y), (x + w, y + h)], fill.filled()))?;
    // White borders separate squares while they are big enough to spare it.
    if w >= 12 && h >= 12 {
        canvas.draw(&Rectangle::new(
            [(x, y), (x + w, y + h)],
            WHITE.stroke_width(if w >= 40 { 2 } else { 1 }),
        ))?;
    }
    let ink = ink_on(fill);
    let centre = Pos::new(HPos::Center, VPos::Center);
    let (cx, cy) = (x + w / 2, y + h / 2);
    let big = w >= 100 && h >= 48;
    if let (Some(value), true) = (exact, big) {
        return draw_exact_square(canvas, (cx, cy), h, rate, value, ink);
    }
    if exact.is_some() && w >= 12 && h >= 12 {
        let r = (w.min(h) / 8).clamp(3, DIAMOND - 1);
        draw_diamond(canvas, (x + w - r - 3, y + r + 3), r)?;
    }
    // Text only where it fits: rate and interval, the rate alone, or none.
    if w < 40 || h < 18 {
        return Ok(());
    }
    if w < 100 || h < 48 {
        if let Some(p) = rate {
            let style = text(TICK_SIZE - 2).color(&ink).pos(centre);
            canvas.draw_text(&fixed(p.estimate, 2), &style, (cx, cy))?;
        }
        return Ok(());
    }
    match rate {
        Some(p) => {
            canvas.draw_text(
                &fixed(p.estimate, 3),
                &bold(LABEL_SIZE + 1).color(&ink).pos(centre),
                (cx, cy - 9),
            )?;
            let interval = format!("{}–{}", fixed(p.ci.lo, 3), fixed(p.ci.hi, 3));
            canvas.draw_text(
                &interval,
                &text(TICK_SIZE - 2).color(&ink).pos(centre),
                (cx, cy + 12),
            )?;
        }
        None => canvas.draw_text("–", &text(LABEL_SIZE).color(&ink).pos(centre), (cx, cy))?,
    }
    Ok(())
}

/// A large square's text with an exact win rate: the sampled rate, its
/// interval, and a diamond with the exact rate, in three lines around the
/// centre `(cx, cy)` of a square `h` pixels high.
fn draw_exact_square(
    canvas: &Canvas,
    (cx, cy): (i32, i32),
    h: i32,
    rate: Option<&Proportion>,
    exact: f64,
    ink: RGBColor,
) -> Result<(), DrawError> {
    let centre = Pos::new(HPos::Center, VPos::Center);
    if let Some(p) = rate {
        canvas.draw_text(
            &fixed(p.estimate, 3),
            &bold(LABEL_SIZE).color(&ink).pos(centre),
            (cx, cy - h * 22 / 100),
        )?;
        let interval = format!("{}–{}", fixed(p.ci.lo, 3), fixed(p.ci.hi, 3));
        canvas.draw_text(
            &interval,
            &text(TICK_SIZE - 3).color(&ink).pos(centre),
            (cx, cy + h * 4 / 100),
        )?;
    }
    let style = text(TICK_SIZE - 2).color(&ink);
    let label = fixed(exact, EXACT_DECIMALS);
    let width = text_width(&label, &style) as i32;
    let y = cy + h * 30 / 100;
    let r = DIAMOND - 1;
    // The diamond and the value, centred together.
    let left = cx - (2 * r + 4 + width) / 2;
    draw_diamond(canvas, (left + r, y), r)?;
    canvas.draw_text(
        &label,
        &style.pos(Pos::new(HPos::Left, VPos::Center)),
        (left + 2 * r + 4, y),
    )
}

/// Decimals of an exact win rate in a square.
const EXACT_DECIMALS: usize = 4;

/// Vertical colour scale from 1 (top) to 0 (bottom) with ticks every 0.25.
/// The colour scale, `height` pixels tall at `(x, y)`, ticks 0 to 1 and
/// `title` beside it (what the colours measure).
pub(crate) fn draw_colour_bar(
    canvas: &Canvas,
    (x, y): (i32, i32),
    height: i32,
    title: &str,
) -> Result<(), DrawError> {
    const BAR_WIDTH: i32 = 22;
    for dy in 0..height {
        let v = 1.0 - f64::from(dy) / f64::from((height - 1).max(1));
        canvas.draw(&Rectangle::new(
            [(x, y + dy), (x + BAR_WIDTH, y + dy + 1)],
            heat_colour(v).filled(),
        ))?;
    }
    canvas.draw(&Rectangle::new(
        [(x, y), (x + BAR_WIDTH, y + height)],
        DARK_GREY.stroke_width(1),
    ))?;
    for tick in [0.0, 0.25, 0.5, 0.75, 1.0] {
        let ty = y + ((1.0 - tick) * f64::from(height - 1)).round() as i32;
        canvas.draw(&Rectangle::new(
            [(x + BAR_WIDTH, ty), (x + BAR_WIDTH + 5, ty + 1)],
            DARK_GREY.filled(),
        ))?;
        let style = text(TICK_SIZE).pos(Pos::new(HPos::Left, VPos::Center));
        canvas.draw_text(&fixed(tick, 2), &style, (x + BAR_WIDTH + 8, ty))?;
    }
    let style = text(LABEL_SIZE - 2)
        .color(&DARK_GREY)
        .transform(FontTransform::Rotate270)
        .pos(Pos::new(HPos::Center, VPos::Top));
    canvas.draw_text(title, &style, (x + BAR_WIDTH + 52, y + height / 2))?;
    Ok(())
}

/// Diverging colour scale (ColorBrewer RdBu, 5 classes, interpolated): red
/// when the side rarely wins, near-white at even odds, blue when it usually
/// wins.
pub(crate) fn heat_colour(v: f64) -> RGBColor {
    const STOPS: [(u8, u8, u8); 5] = [
        (202, 0, 32),
        (244, 165, 130),
        (247, 247, 247),
        (146, 197, 222),
        (5, 113, 176),
    ];
    let v = if v.is_nan() { 0.5 } else { v.clamp(0.0, 1.0) };
    let scaled = v * (STOPS.len() - 1) as f64;
    let i = (scaled.floor() as usize).min(STOPS.len() - 2);
    let t = scaled - i as f64;
    let mix = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * t).round() as u8;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heat_colour_ends_and_middle() {
        assert_eq!(heat_colour(0.0), RGBColor(202, 0, 32));
        assert_eq!(heat_colour(0.5), RGBColor(247, 247, 247));
        assert_eq!(heat_colour(1.0), RGBColor(5, 113, 176));
        assert_eq!(heat_colour(f64::NAN), RGBColor(247, 247, 247));
    }
}
