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
use plotters::style::{Color, FontTransform, RGBColor, TextStyle, BLACK, WHITE};

use super::fonts;
use super::style::{
    bold, draw_title, render_png, series_colour, text, text_width, Canvas, DrawError, DARK_GREY,
    LABEL_SIZE, LIGHT_GREY, TICK_SIZE, TITLE_SIZE,
};
use crate::analysis::Proportion;
use crate::report::error::ReportError;
use crate::report::labels::{axes_title, axis_levels, fixed, side_names, truncate, values_label};
use crate::report::model::Report;
use crate::report::names::WIN_RATE_PNG;

const FILE: &str = WIN_RATE_PNG;

/// Longest tick label, in characters, before it is cut with `…`.
const MAX_LABEL_CHARS: usize = 40;
/// Least height of the plotting area of the whisker chart.
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

/// What goes under the x axis of the whisker chart.
struct Categories {
    /// One tick label per cell.
    ticks: Vec<String>,
    /// Groups of cells by first axis value (empty unless three or more axes).
    groups: Vec<Group>,
    /// The axes the tick labels show, e.g. `options.crit / options.initiative`.
    title: String,
}

/// Pixel sizes of the whisker chart.
struct Layout {
    width: u32,
    height: u32,
    /// Title and legend, above the plot.
    top: u32,
    /// Y tick labels and title, left of the plot.
    left: u32,
    right: u32,
    /// Bands under the plot: tick labels, group captions, axis title.
    tick_band: u32,
    group_band: u32,
    title_band: u32,
    /// Whether tick labels are drawn vertically because they do not fit.
    vertical: bool,
}

/// Win rate per cell and side with Wilson whiskers.
fn whiskers(report: &Report) -> Result<Vec<u8>, ReportError> {
    let sides = side_names(report.info);
    let categories = categories(report);
    let title = format!(
        "{}: win rate per cell (95% Wilson intervals)",
        report.info.name
    );
    let layout = layout(&categories, &title, sides.len());
    render_png(FILE, (layout.width, layout.height), |canvas| {
        draw_title(canvas, &title, layout.width)?;
        draw_legend(canvas, &sides, layout.width, 48)?;
        let (_, lower) = canvas.split_vertically(layout.top);
        let n = report.cells.len().max(1) as f64;
        let mut chart = ChartBuilder::on(&lower)
            .margin_left(8)
            .margin_right(layout.right)
            .y_label_area_size(layout.left)
            .x_label_area_size(layout.tick_band + layout.group_band + layout.title_band)
            .build_cartesian_2d(-0.5..(n - 0.5), 0.0..1.0)?;
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

        if sides.len() >= 2 {
            // Even odds: where every side would sit if the matchup were fair.
            let even = 1.0 / sides.len() as f64;
            let line = [(-0.5, even), (n - 0.5, even)];
            chart.draw_series(LineSeries::new(line, DARK_GREY.mix(0.6)))?;
        }
        for group in categories.groups.iter().skip(1) {
            let x = group.start as f64 - 0.5;
            chart.draw_series(LineSeries::new([(x, 0.0), (x, 1.0)], DARK_GREY))?;
        }
        for k in 0..sides.len() {
            let offset = side_offset(k, sides.len());
            let style = series_colour(k).filled().stroke_width(2);
            let bars = report.summaries.iter().enumerate().filter_map(|(i, s)| {
                let p: &Proportion = s.wins.get(k)?;
                let x = i as f64 + offset;
                Some(ErrorBar::new_vertical(
                    x, p.ci.lo, p.estimate, p.ci.hi, style, 10,
                ))
            });
            chart.draw_series(bars)?;
        }
        // Backend coordinates are canvas coordinates: the labels go on the
        // canvas, under the plot.
        let axis_y = chart.backend_coord(&(0.0, 0.0)).1;
        let x_px = |x: f64| chart.backend_coord(&(x, 0.0)).0;
        draw_categories(canvas, &categories, &layout, axis_y, &x_px)
    })
}

/// Tick labels, group captions and axis title of the whisker chart.
fn categories(report: &Report) -> Categories {
    let axes = &report.info.axes;
    // Two axes always make a heatmap, so grouping means three or more.
    let grouped = axes.len() >= 2;
    let skip = usize::from(grouped);
    let ticks = report
        .cells
        .iter()
        .map(|c| {
            let values = c.axis_values.get(skip..).unwrap_or_default();
            truncate(&values_label(values), MAX_LABEL_CHARS)
        })
        .collect();
    Categories {
        ticks,
        groups: if grouped { groups(report) } else { Vec::new() },
        title: axes_title(axes.get(skip..).unwrap_or_default()),
    }
}

/// Sizes the chart: a slot per cell wide enough for its sides' whiskers (and
/// for the title), tick labels vertical when they do not fit their slot.
fn layout(categories: &Categories, title: &str, sides: usize) -> Layout {
    let (top, left, right) = (80, 72, 28);
    let frame = left + 8 + right;
    let n = categories.ticks.len().max(1) as u32;
    let slot = (SLOT_PER_SIDE * sides as u32 + SLOT_PADDING).max(36);
    let title_width = text_width(title, &bold(TITLE_SIZE)) + 40;
    let plot_width = (slot * n)
        .max(MIN_PLOT_WIDTH)
        .max(title_width.saturating_sub(frame));
    let tick_style = text(TICK_SIZE);
    let widest = categories
        .ticks
        .iter()
        .map(|t| text_width(t, &tick_style))
        .max()
        .unwrap_or(0);
    let vertical = widest + 8 > plot_width / n;
    let tick_band = if vertical { widest } else { TICK_SIZE } + 14;
    let group_band = if categories.groups.is_empty() {
        0
    } else {
        LABEL_SIZE + 14
    };
    let title_band = if categories.title.is_empty() {
        10
    } else {
        LABEL_SIZE + 18
    };
    // Wide charts get taller, so many cells do not make a thin strip.
    let plot_height = (plot_width / 3).clamp(PLOT_HEIGHT, 2 * PLOT_HEIGHT);
    Layout {
        width: frame + plot_width,
        height: top + plot_height + tick_band + group_band + title_band,
        top,
        left,
        right,
        tick_band,
        group_band,
        title_band,
        vertical,
    }
}

/// Draws tick labels (at `x_px(cell index)`), group captions and the axis
/// title under the axis at pixel row `axis_y`.
fn draw_categories(
    canvas: &Canvas,
    categories: &Categories,
    layout: &Layout,
    axis_y: i32,
    x_px: &dyn Fn(f64) -> i32,
) -> Result<(), DrawError> {
    let tick_style = under_axis(&text(TICK_SIZE), layout.vertical);
    for (i, tick) in categories.ticks.iter().enumerate() {
        canvas.draw_text(tick, &tick_style, (x_px(i as f64), axis_y + 8))?;
    }
    let group_y = axis_y + layout.tick_band as i32;
    let caption_style = bold(LABEL_SIZE - 2).pos(Pos::new(HPos::Center, VPos::Top));
    for group in &categories.groups {
        let (x0, x1) = (x_px(group.start as f64 - 0.5), x_px(group.end as f64 - 0.5));
        // About 8 pixels per character at this size.
        let room = (x1 - x0).max(0) as usize / 8;
        let caption = truncate(&group.caption, room.max(4));
        canvas.draw_text(&caption, &caption_style, ((x0 + x1) / 2, group_y + 4))?;
    }
    if !categories.title.is_empty() {
        let style = text(LABEL_SIZE)
            .color(&DARK_GREY)
            .pos(Pos::new(HPos::Center, VPos::Top));
        let n = categories.ticks.len() as f64;
        let centre = (x_px(-0.5) + x_px(n - 0.5)) / 2;
        let y = group_y + layout.group_band as i32 + 6;
        canvas.draw_text(&categories.title, &style, (centre, y))?;
    }
    Ok(())
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

/// Pixel geometry of the heatmap.
struct Grid {
    /// Top-left corner of the first square.
    origin: (i32, i32),
    square: (i32, i32),
    rows: usize,
    cols: usize,
    /// Whether column labels are drawn vertically because they do not fit.
    vertical: bool,
    /// Height of the column-label band under the grid.
    col_band: i32,
}

impl Grid {
    fn width(&self) -> i32 {
        self.square.0 * self.cols as i32
    }

    fn height(&self) -> i32 {
        self.square.1 * self.rows as i32
    }

    /// Top-left corner of the square in row `r`, column `c`.
    fn corner(&self, r: usize, c: usize) -> (i32, i32) {
        (
            self.origin.0 + c as i32 * self.square.0,
            self.origin.1 + r as i32 * self.square.1,
        )
    }
}

/// The first side's win rate over the two axes.
fn heatmap(report: &Report) -> Result<Vec<u8>, ReportError> {
    let info = report.info;
    let rows: Vec<String> = axis_levels(report.cells, 0)
        .iter()
        .map(|r| truncate(r, MAX_LABEL_CHARS))
        .collect();
    let cols: Vec<String> = axis_levels(report.cells, 1)
        .iter()
        .map(|c| truncate(c, MAX_LABEL_CHARS))
        .collect();
    // The win rate at each (row, column); `None` where the matrix has no
    // cell (only if the matrix was not a full product).
    let rates: Vec<Vec<Option<&Proportion>>> = axis_levels(report.cells, 0)
        .iter()
        .map(|row| {
            axis_levels(report.cells, 1)
                .iter()
                .map(|col| rate_at(report, row, col))
                .collect()
        })
        .collect();
    let side = info.sides.first().map_or("", |s| s.name.as_str());

    let label_style = text(LABEL_SIZE - 1);
    let widest = |labels: &[String]| {
        labels
            .iter()
            .map(|t| text_width(t, &label_style))
            .max()
            .unwrap_or(0)
    };
    let (sq_w, sq_h) = SQUARE;
    let vertical = widest(&cols) + 8 > sq_w;
    let col_band = if vertical { widest(&cols) } else { LABEL_SIZE } + 14;
    let (grid_w, grid_h) = (sq_w * cols.len() as u32, sq_h * rows.len() as u32);
    let bar_h = grid_h.max(200);
    let (top, left, right) = (64, LABEL_SIZE + 30 + widest(&rows), 150);
    let title = format!("{}: win rate of {side} (95% Wilson interval)", info.name);
    let width = (left + grid_w + right).max(text_width(&title, &bold(TITLE_SIZE)) + 40);
    // Column labels and the axis title sit under the grid; the colour bar
    // may reach further down on a grid of one or two rows.
    let height = top + (grid_h + col_band + LABEL_SIZE + 30).max(bar_h + 20);
    // Centred when the title made the canvas wider than the grid needs.
    let slack = width.saturating_sub(left + grid_w + right) / 2;
    let grid = Grid {
        origin: ((slack + left) as i32, top as i32),
        square: (sq_w as i32, sq_h as i32),
        rows: rows.len(),
        cols: cols.len(),
        vertical,
        col_band: col_band as i32,
    };

    render_png(FILE, (width, height), |canvas| {
        draw_title(canvas, &title, width)?;
        for (r, row) in rates.iter().enumerate() {
            for (c, rate) in row.iter().enumerate() {
                draw_square(canvas, grid.corner(r, c), grid.square, *rate)?;
            }
        }
        draw_grid_labels(canvas, &grid, &rows, &cols, &info.axes, slack as i32)?;
        let (x, y) = grid.corner(0, grid.cols);
        draw_colour_bar(canvas, (x + 36, y), bar_h as i32, side)
    })
}

/// The first side's win rate in the cell with these two axis values.
fn rate_at<'a>(report: &'a Report, row: &str, col: &str) -> Option<&'a Proportion> {
    report
        .cells
        .iter()
        .zip(&report.summaries)
        .find(|(cell, _)| {
            cell.axis_values.first().map(String::as_str) == Some(row)
                && cell.axis_values.get(1).map(String::as_str) == Some(col)
        })
        .and_then(|(_, s)| s.wins.first())
}

/// Row labels left of the grid, column labels under it, and both axis
/// titles (the first axis' rotated, `left` pixels from the canvas edge).
fn draw_grid_labels(
    canvas: &Canvas,
    grid: &Grid,
    rows: &[String],
    cols: &[String],
    axes: &[String],
    left: i32,
) -> Result<(), DrawError> {
    let style = text(LABEL_SIZE - 1);
    let (x0, y0) = grid.origin;
    let (w, h) = grid.square;
    for (r, label) in rows.iter().enumerate() {
        let at = (x0 - 10, y0 + r as i32 * h + h / 2);
        canvas.draw_text(label, &style.pos(Pos::new(HPos::Right, VPos::Center)), at)?;
    }
    let below = y0 + grid.height() + 8;
    for (c, label) in cols.iter().enumerate() {
        let at = (x0 + c as i32 * w + w / 2, below);
        canvas.draw_text(label, &under_axis(&style, grid.vertical), at)?;
    }
    let title = text(LABEL_SIZE).color(&DARK_GREY);
    let x_title = axes.get(1).map_or("", String::as_str);
    let at = (x0 + grid.width() / 2, below + grid.col_band);
    canvas.draw_text(x_title, &title.pos(Pos::new(HPos::Center, VPos::Top)), at)?;
    let y_title = axes.first().map_or("", String::as_str);
    let rotated = title
        .transform(FontTransform::Rotate270)
        .pos(Pos::new(HPos::Center, VPos::Top));
    canvas.draw_text(y_title, &rotated, (left + 8, y0 + grid.height() / 2))
}

/// `style` for a label hanging under an axis at its anchor: centred, or
/// vertical (reading bottom to top, ending at the anchor) when labels do not
/// fit side by side.
fn under_axis<'a>(style: &TextStyle<'a>, vertical: bool) -> TextStyle<'a> {
    if vertical {
        style
            .transform(FontTransform::Rotate270)
            .pos(Pos::new(HPos::Right, VPos::Center))
    } else {
        style.pos(Pos::new(HPos::Center, VPos::Top))
    }
}

/// One heatmap square: colour, rate and interval; grey with a dash when the
/// matrix has no cell for this combination.
fn draw_square(
    canvas: &Canvas,
    (x, y): (i32, i32),
    (w, h): (i32, i32),
    rate: Option<&Proportion>,
) -> Result<(), DrawError> {
    let fill = rate.map_or(LIGHT_GREY, |p| heat_colour(p.estimate));
    canvas.draw(&Rectangle::new([(x, y), (x + w, y + h)], fill.filled()))?;
    canvas.draw(&Rectangle::new(
        [(x, y), (x + w, y + h)],
        WHITE.stroke_width(2),
    ))?;
    let ink = ink_on(fill);
    let centre = Pos::new(HPos::Center, VPos::Center);
    let (cx, cy) = (x + w / 2, y + h / 2);
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

/// Vertical colour scale from 1 (top) to 0 (bottom) with ticks every 0.25.
fn draw_colour_bar(
    canvas: &Canvas,
    (x, y): (i32, i32),
    height: i32,
    side: &str,
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
    let title = truncate(&format!("win rate of {side}"), 30);
    let style = text(LABEL_SIZE - 2)
        .color(&DARK_GREY)
        .transform(FontTransform::Rotate270)
        .pos(Pos::new(HPos::Center, VPos::Top));
    canvas.draw_text(&title, &style, (x + BAR_WIDTH + 52, y + height / 2))?;
    Ok(())
}

/// Diverging colour scale (ColorBrewer RdBu, 5 classes, interpolated): red
/// when the first side rarely wins, near-white at even odds, blue when it
/// usually wins.
fn heat_colour(v: f64) -> RGBColor {
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
    let total: i32 = sides
        .iter()
        .map(|s| MARK + text_width(s, &style) as i32 + GAP)
        .sum::<i32>()
        - GAP;
    let mut x = (width as i32 - total) / 2;
    for (k, side) in sides.iter().enumerate() {
        let colour = series_colour(k);
        canvas.draw(&ErrorBar::new_vertical(
            x + 6,
            y - 7,
            y,
            y + 7,
            colour.filled().stroke_width(2),
            10,
        ))?;
        canvas.draw_text(
            side,
            &style.pos(Pos::new(HPos::Left, VPos::Center)),
            (x + MARK - 4, y),
        )?;
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
