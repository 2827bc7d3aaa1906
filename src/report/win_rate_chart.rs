//! `win_rate.png`: how often each side wins in each cell.
//!
//! - Matrix with exactly two axes: a heatmap, first axis as rows, second as
//!   columns, each square coloured by the first side's win rate (diverging
//!   around 0.5, even odds) with the rate and its 95% interval printed in it.
//! - Otherwise: one column per cell with a dot and 95% Wilson whiskers per
//!   side. With three or more axes, cells are grouped by the first axis
//!   (separators, and a caption per group under the tick labels); tick labels
//!   show the remaining axes' values. Tick labels turn vertical when they do
//!   not fit, so ~40 cells stay readable. No axes: a single column.

use plotters::chart::ChartBuilder;
use plotters::element::{ErrorBar, Rectangle};
use plotters::series::LineSeries;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, FontTransform, RGBColor, BLACK, WHITE};

use super::error::ReportError;
use super::fonts;
use super::labels::{axes_title, axis_levels, fixed, side_names, truncate, values_label};
use super::style::{
    bold, draw_title, render_png, series_colour, text, text_width, Canvas, DrawError, DARK_GREY, LABEL_SIZE, LIGHT_GREY,
    TICK_SIZE, TITLE_SIZE,
};
use super::{Report, WIN_RATE_PNG};
use crate::analysis::Proportion;

const FILE: &str = WIN_RATE_PNG;

/// Longest tick label, in characters, before it is cut with `…`.
const MAX_LABEL_CHARS: usize = 40;
/// Height of the plotting area of the whisker chart.
const PLOT_HEIGHT: u32 = 440;
/// Width the whisker chart gives each side within a cell, and padding.
const SLOT_PER_SIDE: u32 = 18;
const SLOT_PADDING: u32 = 24;
/// Narrowest plotting area, so a single cell still makes a sensible chart.
const MIN_PLOT_WIDTH: u32 = 560;
/// Heatmap square size.
const SQUARE: (u32, u32) = (118, 64);

/// Renders `win_rate.png`.
pub(crate) fn render(report: &Report) -> Result<Vec<u8>, ReportError> {
    // Registered before measuring any text.
    fonts::ensure_registered(FILE)?;
    if report.info.axes.len() == 2 {
        heatmap(report)
    } else {
        whiskers(report)
    }
}

/// A run of consecutive cells sharing the first axis value.
struct Group {
    start: usize,
    end: usize,
    caption: String,
}

/// Win rate per cell and side with Wilson whiskers.
fn whiskers(report: &Report) -> Result<Vec<u8>, ReportError> {
    let info = report.info;
    let cells = report.cells;
    let n = cells.len().max(1);
    let sides = side_names(info);
    // Two axes always make a heatmap, so "grouped" means three or more.
    let grouped = info.axes.len() >= 2;
    let shown_axes = if grouped { &info.axes[1..] } else { &info.axes[..] };
    let ticks: Vec<String> = cells
        .iter()
        .map(|c| {
            let values = if grouped { &c.axis_values[1..] } else { &c.axis_values[..] };
            truncate(&values_label(values), MAX_LABEL_CHARS)
        })
        .collect();
    let groups = if grouped { groups(report) } else { Vec::new() };
    let x_title = axes_title(shown_axes);

    let title = format!("{}: win rate per cell (95% Wilson intervals)", info.name);
    let (top, left, right) = (80, 72, 28);
    let frame = left + 8 + right;
    let tick_style = text(TICK_SIZE);
    let widest = ticks.iter().map(|t| text_width(t, &tick_style)).max().unwrap_or(0);
    let slot = (SLOT_PER_SIDE * sides.len() as u32 + SLOT_PADDING).max(36);
    let plot_width = (slot * n as u32)
        .max(MIN_PLOT_WIDTH)
        .max((text_width(&title, &bold(TITLE_SIZE)) + 40).saturating_sub(frame));
    let vertical = widest + 8 > plot_width / n as u32;
    let tick_band = if vertical { widest + 14 } else { TICK_SIZE + 14 };
    let group_band = if grouped { LABEL_SIZE + 14 } else { 0 };
    let title_band = if x_title.is_empty() { 10 } else { LABEL_SIZE + 18 };
    let width = frame + plot_width;
    let height = top + PLOT_HEIGHT + tick_band + group_band + title_band;

    render_png(FILE, (width, height), |canvas| {
        draw_title(canvas, &title, width)?;
        draw_legend(canvas, &sides, width, 48)?;
        let (_, lower) = canvas.split_vertically(top);
        let mut chart = ChartBuilder::on(&lower)
            .margin_left(8)
            .margin_right(right)
            .y_label_area_size(left)
            .x_label_area_size(tick_band + group_band + title_band)
            .build_cartesian_2d(-0.5..(n as f64 - 0.5), 0.0..1.0)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(0)
            .y_labels(11)
            .y_label_formatter(&|v| fixed(*v, 1))
            .y_desc("win rate")
            .label_style(text(TICK_SIZE))
            .axis_desc_style(text(LABEL_SIZE))
            .bold_line_style(LIGHT_GREY)
            .light_line_style(WHITE)
            .draw()?;

        let x_range = (-0.5, n as f64 - 0.5);
        if sides.len() >= 2 {
            // Even odds: where every side would sit if the matchup were fair.
            let even = 1.0 / sides.len() as f64;
            chart.draw_series(LineSeries::new([(x_range.0, even), (x_range.1, even)], DARK_GREY.mix(0.6)))?;
        }
        for group in groups.iter().skip(1) {
            let x = group.start as f64 - 0.5;
            chart.draw_series(LineSeries::new([(x, 0.0), (x, 1.0)], DARK_GREY.stroke_width(1)))?;
        }
        for (k, _) in sides.iter().enumerate() {
            let offset = side_offset(k, sides.len());
            let colour = series_colour(k);
            chart.draw_series(report.summaries.iter().enumerate().filter_map(|(i, s)| {
                let p: &Proportion = s.wins.get(k)?;
                Some(ErrorBar::new_vertical(
                    i as f64 + offset,
                    p.ci.lo,
                    p.estimate,
                    p.ci.hi,
                    colour.filled().stroke_width(2),
                    10,
                ))
            }))?;
        }

        // Tick labels, group captions and the x title, placed in pixels
        // under the axis (backend coordinates are canvas coordinates).
        let axis_y = chart.backend_coord(&(0.0, 0.0)).1;
        let x_px = |x: f64| chart.backend_coord(&(x, 0.0)).0;
        for (i, tick) in ticks.iter().enumerate() {
            let at = (x_px(i as f64), axis_y + 8);
            if vertical {
                // Reads bottom to top, ending just under the axis.
                let style = tick_style.transform(FontTransform::Rotate270).pos(Pos::new(HPos::Right, VPos::Center));
                canvas.draw_text(tick, &style, at)?;
            } else {
                canvas.draw_text(tick, &tick_style.pos(Pos::new(HPos::Center, VPos::Top)), at)?;
            }
        }
        let group_y = axis_y + tick_band as i32;
        for group in &groups {
            let (x0, x1) = (x_px(group.start as f64 - 0.5), x_px(group.end as f64 - 0.5));
            let style = bold(LABEL_SIZE - 2).pos(Pos::new(HPos::Center, VPos::Top));
            let room = ((x1 - x0).max(0) as usize) / 8;
            canvas.draw_text(&truncate(&group.caption, room.max(4)), &style, ((x0 + x1) / 2, group_y + 4))?;
        }
        if !x_title.is_empty() {
            let style = text(LABEL_SIZE).color(&DARK_GREY).pos(Pos::new(HPos::Center, VPos::Top));
            let centre = (x_px(x_range.0) + x_px(x_range.1)) / 2;
            canvas.draw_text(&x_title, &style, (centre, group_y + group_band as i32 + 6))?;
        }
        Ok(())
    })
}

/// Consecutive cells sharing the first axis value (cells are in matrix
/// order, first axis slowest).
fn groups(report: &Report) -> Vec<Group> {
    let path = report.info.axes.first().map_or("", String::as_str);
    let mut groups: Vec<Group> = Vec::new();
    for (i, cell) in report.cells.iter().enumerate() {
        let value = cell.axis_values.first().map_or("", String::as_str);
        let caption = format!("{path} = {value}");
        match groups.last_mut() {
            Some(g) if g.caption == caption => g.end = i + 1,
            _ => groups.push(Group {
                start: i,
                end: i + 1,
                caption,
            }),
        }
    }
    groups
}

/// Horizontal offset of side `k` of `sides` within its cell, so whiskers of
/// different sides sit side by side instead of on top of each other.
fn side_offset(k: usize, sides: usize) -> f64 {
    const SPREAD: f64 = 0.6;
    (k as f64 - (sides as f64 - 1.0) / 2.0) * SPREAD / sides as f64
}

/// The first side's win rate over the two axes.
fn heatmap(report: &Report) -> Result<Vec<u8>, ReportError> {
    let info = report.info;
    let rows = axis_levels(report.cells, 0);
    let cols = axis_levels(report.cells, 1);
    let side = info.sides.first().map_or("", |s| s.name.as_str());
    let rate_at = |r: &str, c: &str| {
        report
            .cells
            .iter()
            .zip(&report.summaries)
            .find(|(cell, _)| cell.axis_values.first().map(String::as_str) == Some(r) && cell.axis_values.get(1).map(String::as_str) == Some(c))
            .and_then(|(_, s)| s.wins.first())
    };

    let row_labels: Vec<String> = rows.iter().map(|r| truncate(r, MAX_LABEL_CHARS)).collect();
    let col_labels: Vec<String> = cols.iter().map(|c| truncate(c, MAX_LABEL_CHARS)).collect();
    let tick_style = text(LABEL_SIZE - 1);
    let widest_row = row_labels.iter().map(|t| text_width(t, &tick_style)).max().unwrap_or(0);
    let widest_col = col_labels.iter().map(|t| text_width(t, &tick_style)).max().unwrap_or(0);
    let (sq_w, sq_h) = SQUARE;
    let vertical = widest_col + 8 > sq_w;
    let col_band = if vertical { widest_col + 14 } else { LABEL_SIZE + 14 };
    let grid_w = sq_w * cols.len() as u32;
    let grid_h = sq_h * rows.len() as u32;
    let bar_h = grid_h.max(200);
    let (top, left) = (64, LABEL_SIZE + 30 + widest_row);
    let right = 150;
    let title = format!("{}: win rate of {side} (95% Wilson interval)", info.name);
    let title_width = text_width(&title, &bold(TITLE_SIZE)) + 40;
    let width = (left + grid_w + right).max(title_width);
    let height = top + bar_h + col_band + LABEL_SIZE + 30;

    render_png(FILE, (width, height), |canvas| {
        draw_title(canvas, &title, width)?;
        let (x0, y0) = (left as i32, top as i32);
        let (w, h) = (sq_w as i32, sq_h as i32);
        for (r, row) in rows.iter().enumerate() {
            for (c, col) in cols.iter().enumerate() {
                let corner = (x0 + c as i32 * w, y0 + r as i32 * h);
                draw_square(canvas, corner, (w, h), rate_at(row, col))?;
            }
        }
        for (r, label) in row_labels.iter().enumerate() {
            let style = tick_style.pos(Pos::new(HPos::Right, VPos::Center));
            canvas.draw_text(label, &style, (x0 - 10, y0 + r as i32 * h + h / 2))?;
        }
        let below = y0 + grid_h as i32 + 8;
        for (c, label) in col_labels.iter().enumerate() {
            let x = x0 + c as i32 * w + w / 2;
            if vertical {
                let style = tick_style.transform(FontTransform::Rotate270).pos(Pos::new(HPos::Right, VPos::Center));
                canvas.draw_text(label, &style, (x, below))?;
            } else {
                canvas.draw_text(label, &tick_style.pos(Pos::new(HPos::Center, VPos::Top)), (x, below))?;
            }
        }
        let axis_title = text(LABEL_SIZE).color(&DARK_GREY);
        let x_title = info.axes.get(1).map_or("", String::as_str);
        canvas.draw_text(
            x_title,
            &axis_title.pos(Pos::new(HPos::Center, VPos::Top)),
            (x0 + grid_w as i32 / 2, below + col_band as i32),
        )?;
        let y_title = info.axes.first().map_or("", String::as_str);
        canvas.draw_text(
            y_title,
            &axis_title.transform(FontTransform::Rotate270).pos(Pos::new(HPos::Center, VPos::Top)),
            (8, y0 + grid_h as i32 / 2),
        )?;
        draw_colour_bar(canvas, (x0 + grid_w as i32 + 36, y0), bar_h as i32, side)
    })
}

/// One heatmap square: colour, rate and interval; grey with a dash when the
/// matrix has no cell for this combination.
fn draw_square(canvas: &Canvas, (x, y): (i32, i32), (w, h): (i32, i32), rate: Option<&Proportion>) -> Result<(), DrawError> {
    let fill = rate.map_or(LIGHT_GREY, |p| heat_colour(p.estimate));
    canvas.draw(&Rectangle::new([(x, y), (x + w, y + h)], fill.filled()))?;
    canvas.draw(&Rectangle::new([(x, y), (x + w, y + h)], WHITE.stroke_width(2)))?;
    let ink = ink_on(fill);
    let centre = Pos::new(HPos::Center, VPos::Center);
    let (cx, cy) = (x + w / 2, y + h / 2);
    match rate {
        Some(p) => {
            canvas.draw_text(&fixed(p.estimate, 3), &bold(LABEL_SIZE + 1).color(&ink).pos(centre), (cx, cy - 9))?;
            let interval = format!("{}–{}", fixed(p.ci.lo, 3), fixed(p.ci.hi, 3));
            canvas.draw_text(&interval, &text(TICK_SIZE - 2).color(&ink).pos(centre), (cx, cy + 12))?;
        }
        None => canvas.draw_text("–", &text(LABEL_SIZE).color(&ink).pos(centre), (cx, cy))?,
    }
    Ok(())
}

/// Vertical colour scale from 1 (top) to 0 (bottom) with ticks every 0.25.
fn draw_colour_bar(canvas: &Canvas, (x, y): (i32, i32), height: i32, side: &str) -> Result<(), DrawError> {
    const BAR_WIDTH: i32 = 22;
    for dy in 0..height {
        let v = 1.0 - f64::from(dy) / f64::from((height - 1).max(1));
        canvas.draw(&Rectangle::new([(x, y + dy), (x + BAR_WIDTH, y + dy + 1)], heat_colour(v).filled()))?;
    }
    canvas.draw(&Rectangle::new([(x, y), (x + BAR_WIDTH, y + height)], DARK_GREY.stroke_width(1)))?;
    for tick in [0.0, 0.25, 0.5, 0.75, 1.0] {
        let ty = y + ((1.0 - tick) * f64::from(height - 1)).round() as i32;
        canvas.draw(&Rectangle::new([(x + BAR_WIDTH, ty), (x + BAR_WIDTH + 5, ty + 1)], DARK_GREY.filled()))?;
        let style = text(TICK_SIZE).pos(Pos::new(HPos::Left, VPos::Center));
        canvas.draw_text(&fixed(tick, 2), &style, (x + BAR_WIDTH + 8, ty))?;
    }
    let title = truncate(&format!("win rate of {side}"), 30);
    let style = text(LABEL_SIZE - 2).color(&DARK_GREY).transform(FontTransform::Rotate270).pos(Pos::new(HPos::Center, VPos::Top));
    canvas.draw_text(&title, &style, (x + BAR_WIDTH + 52, y + height / 2))?;
    Ok(())
}

/// Diverging colour scale (ColorBrewer RdBu, 5 classes, interpolated): red
/// when the first side rarely wins, near-white at even odds, blue when it
/// usually wins.
fn heat_colour(v: f64) -> RGBColor {
    const STOPS: [(u8, u8, u8); 5] = [(202, 0, 32), (244, 165, 130), (247, 247, 247), (146, 197, 222), (5, 113, 176)];
    let v = if v.is_nan() { 0.5 } else { v.clamp(0.0, 1.0) };
    let scaled = v * (STOPS.len() - 1) as f64;
    let i = (scaled.floor() as usize).min(STOPS.len() - 2);
    let t = scaled - i as f64;
    let mix = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * t).round() as u8;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// Black or white, whichever reads better on `background`.
fn ink_on(background: RGBColor) -> RGBColor {
    let RGBColor(r, g, b) = background;
    let luma = 0.2126 * f64::from(r) + 0.7152 * f64::from(g) + 0.0722 * f64::from(b);
    if luma < 140.0 {
        WHITE
    } else {
        BLACK
    }
}

/// A one-line legend of the sides, centred at height `y`.
fn draw_legend(canvas: &Canvas, sides: &[&str], width: u32, y: i32) -> Result<(), DrawError> {
    let style = text(LABEL_SIZE);
    const MARK: i32 = 22;
    const GAP: i32 = 26;
    let total: i32 = sides.iter().map(|s| MARK + text_width(s, &style) as i32 + GAP).sum::<i32>() - GAP;
    let mut x = (width as i32 - total) / 2;
    for (k, side) in sides.iter().enumerate() {
        let colour = series_colour(k);
        canvas.draw(&ErrorBar::new_vertical(x + 6, y - 7, y, y + 7, colour.filled().stroke_width(2), 10))?;
        canvas.draw_text(side, &style.pos(Pos::new(HPos::Left, VPos::Center)), (x + MARK - 4, y))?;
        x += MARK + text_width(side, &style) as i32 + GAP;
    }
    Ok(())
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

    #[test]
    fn side_offsets_are_centred() {
        assert_eq!(side_offset(0, 1), 0.0);
        assert_eq!(side_offset(0, 2), -side_offset(1, 2));
    }
}
