//! `win_rate.png`: how often each side wins in each cell, every side shown,
//! drawn as whichever chart shows the matrix best while staying within
//! [`MAX_SIDE`] pixels a side:
//!
//! - no axis, or one axis of names with few enough cells to give each a slot:
//!   one column per cell with a dot and 95% Wilson whiskers per side;
//! - one numeric axis (every value a number): a line per side over the axis
//!   values, with whiskers ([`line`]);
//! - two to four axes: heatmaps, one block per side, the last two axes as
//!   rows and columns of each panel, the others as rows and columns of
//!   panels ([`super::heatmap`]);
//! - anything too big for those (a long axis of names, or more squares than
//!   fit): the cells whose win rates moved most from the baseline, ranked
//!   ([`super::effects`]); every cell is still in cells.csv.
//!
//! With `run --exact`, each cell's exact win rates are drawn too, as small
//! black diamonds ([`super::style::draw_diamond`]) on the whiskers and
//! lines (the legend names them), in the heatmap's squares and on the
//! ranked chart's differences; cells too large to enumerate have none.

use plotters::chart::ChartBuilder;
use plotters::element::ErrorBar;
use plotters::series::LineSeries;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, FontTransform, TextStyle};

use super::style::{
    bold, draw_diamond, draw_legend_with, draw_title, house_mesh, render_png, series_colour, text,
    text_width, Canvas, DrawError, DARK_GREY, DIAMOND, LABEL_SIZE, MAX_SIDE, TICK_SIZE, TITLE_SIZE,
};
use super::{effects, fonts, heatmap};
use crate::analysis::Proportion;
use crate::report::error::ReportError;
use crate::report::labels::{axes_title, fixed, side_names, truncate, values_label};
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
/// Size of the line chart.
const LINE_SIZE: (u32, u32) = (1200, 640);
/// Up to this many points the line chart draws whiskers; beyond, the
/// interval's ends as faint lines.
const LINE_WHISKERS_MAX: usize = 200;

/// Renders `win_rate.png`.
pub(crate) fn render(report: &Report) -> Result<Vec<u8>, ReportError> {
    // Registered before measuring any text.
    fonts::ensure_registered(FILE)?;
    let sides = report.info.sides.len();
    match report.info.axes.len() {
        0 => whiskers(report),
        1 => match numeric_axis(report) {
            Some(xs) => line(report, &xs),
            None if report.cells.len() <= whisker_max(sides) => whiskers(report),
            None => effects::render(report, FILE),
        },
        _ => match heatmap::render(report, FILE)? {
            Some(png) => Ok(png),
            None => effects::render(report, FILE),
        },
    }
}

/// Most cells the whisker chart can give a slot within [`MAX_SIDE`].
fn whisker_max(sides: usize) -> usize {
    let frame = 72 + 8 + 28;
    ((MAX_SIDE - frame) / slot(sides)) as usize
}

/// Width of one cell's slot in the whisker chart.
fn slot(sides: usize) -> u32 {
    (SLOT_PER_SIDE * sides as u32 + SLOT_PADDING).max(36)
}

/// The single axis' values as numbers, if every one is a finite number.
fn numeric_axis(report: &Report) -> Option<Vec<f64>> {
    report
        .cells
        .iter()
        .map(|c| {
            c.axis_values
                .first()
                .and_then(|v| v.trim().parse::<f64>().ok())
                .filter(|x| x.is_finite())
        })
        .collect()
}

/// One line per side through the win rate at each value of the numeric
/// axis (sorted by value), with 95% Wilson whiskers.
fn line(report: &Report, xs: &[f64]) -> Result<Vec<u8>, ReportError> {
    let sides = side_names(report.info);
    let (width, height) = LINE_SIZE;
    let axis = report.info.axes.first().map_or("", String::as_str);
    let title = truncate(
        &format!(
            "{}: win rate by {axis} (95% Wilson intervals)",
            report.info.name
        ),
        90,
    );
    let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let pad = ((hi - lo) * 0.04).max(if hi > lo { 0.0 } else { 1.0 });
    let mut order: Vec<usize> = (0..xs.len()).collect();
    order.sort_by(|&a, &b| xs[a].total_cmp(&xs[b]).then(a.cmp(&b)));
    render_png(FILE, (width, height), |canvas| {
        draw_title(canvas, &title, width)?;
        draw_legend_with(canvas, &sides, exact_legend(report), width, 58)?;
        let (_, lower) = canvas.split_vertically(80);
        let mut chart = ChartBuilder::on(&lower)
            .margin(16)
            .margin_right(30)
            .y_label_area_size(72)
            .x_label_area_size(56)
            .build_cartesian_2d((lo - pad)..(hi + pad), 0.0..1.0)?;
        house_mesh(&mut chart.configure_mesh())
            .y_labels(11)
            .y_label_formatter(&|v| fixed(*v, 1))
            .x_labels(12)
            .x_desc(axis)
            .y_desc("win rate")
            .draw()?;
        for k in 0..sides.len() {
            let colour = series_colour(k);
            let rate = |i: usize| report.summaries[i].wins.get(k);
            let points = order
                .iter()
                .filter_map(|&i| Some((xs[i], rate(i)?.estimate)));
            chart.draw_series(LineSeries::new(points, colour.stroke_width(2)))?;
            if xs.len() <= LINE_WHISKERS_MAX {
                let bars = order.iter().filter_map(|&i| {
                    let p: &Proportion = rate(i)?;
                    let style = colour.filled().stroke_width(1);
                    Some(ErrorBar::new_vertical(
                        xs[i], p.ci.lo, p.estimate, p.ci.hi, style, 8,
                    ))
                });
                chart.draw_series(bars)?;
            } else {
                for end in [|p: &Proportion| p.ci.lo, |p: &Proportion| p.ci.hi] {
                    let points = order.iter().filter_map(|&i| Some((xs[i], end(rate(i)?))));
                    chart.draw_series(LineSeries::new(points, colour.mix(0.35)))?;
                }
            }
        }
        for k in 0..sides.len() {
            for &i in &order {
                if let Some(w) = report.exact_of(i).and_then(|e| e.wins.get(k)) {
                    draw_diamond(canvas, chart.backend_coord(&(xs[i], *w)), DIAMOND - 1)?;
                }
            }
        }
        Ok(())
    })
}

/// The legend entry of the exact win rates' diamonds, when there are any.
fn exact_legend(report: &Report) -> Option<&'static str> {
    (0..report.cells.len())
        .any(|i| report.exact_of(i).is_some())
        .then_some("exact (enumerated)")
}

/// What goes under the x axis of the whisker chart.
struct Categories {
    /// One tick label per cell.
    ticks: Vec<String>,
    /// The axis the tick labels show.
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
    /// Bands under the plot: tick labels, axis title.
    tick_band: u32,
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
        draw_legend_with(canvas, &sides, exact_legend(report), layout.width, 48)?;
        let (_, lower) = canvas.split_vertically(layout.top);
        let n = report.cells.len().max(1) as f64;
        let mut chart = ChartBuilder::on(&lower)
            .margin_left(8)
            .margin_right(layout.right)
            .y_label_area_size(layout.left)
            .x_label_area_size(layout.tick_band + layout.title_band)
            .build_cartesian_2d(-0.5..(n - 0.5), 0.0..1.0)?;
        house_mesh(&mut chart.configure_mesh())
            .disable_x_mesh()
            .x_labels(0)
            .y_labels(11)
            .y_label_formatter(&|v| fixed(*v, 1))
            .y_desc("win rate")
            .draw()?;

        if sides.len() >= 2 {
            // Even odds: where every side would sit if the matchup were fair.
            let even = 1.0 / sides.len() as f64;
            let line = [(-0.5, even), (n - 0.5, even)];
            chart.draw_series(LineSeries::new(line, DARK_GREY.mix(0.6)))?;
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
        for k in 0..sides.len() {
            let offset = side_offset(k, sides.len());
            for i in 0..report.cells.len() {
                if let Some(w) = report.exact_of(i).and_then(|e| e.wins.get(k)) {
                    let at = chart.backend_coord(&(i as f64 + offset, *w));
                    draw_diamond(canvas, at, DIAMOND - 1)?;
                }
            }
        }
        // Backend coordinates are canvas coordinates: the labels go on the
        // canvas, under the plot.
        let axis_y = chart.backend_coord(&(0.0, 0.0)).1;
        let x_px = |x: f64| chart.backend_coord(&(x, 0.0)).0;
        draw_categories(canvas, &categories, &layout, axis_y, &x_px)
    })
}

/// Tick labels and axis title of the whisker chart.
fn categories(report: &Report) -> Categories {
    let ticks = report
        .cells
        .iter()
        .map(|c| truncate(&values_label(&c.axis_values), MAX_LABEL_CHARS))
        .collect();
    Categories {
        ticks,
        title: axes_title(&report.info.axes),
    }
}

/// Sizes the chart: a slot per cell wide enough for its sides' whiskers (and
/// for the title), tick labels vertical when they do not fit their slot.
fn layout(categories: &Categories, title: &str, sides: usize) -> Layout {
    let (top, left, right) = (80, 72, 28);
    let frame = left + 8 + right;
    let n = categories.ticks.len().max(1) as u32;
    let slot = slot(sides);
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
    let title_band = if categories.title.is_empty() {
        10
    } else {
        LABEL_SIZE + 18
    };
    // Wide charts get taller, so many cells do not make a thin strip.
    let plot_height = (plot_width / 3).clamp(PLOT_HEIGHT, 2 * PLOT_HEIGHT);
    Layout {
        width: frame + plot_width,
        height: top + plot_height + tick_band + title_band,
        top,
        left,
        right,
        tick_band,
        title_band,
        vertical,
    }
}

/// Draws tick labels (at `x_px(cell index)`) and the axis
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
    if !categories.title.is_empty() {
        let style = text(LABEL_SIZE)
            .color(&DARK_GREY)
            .pos(Pos::new(HPos::Center, VPos::Top));
        let n = categories.ticks.len() as f64;
        let centre = (x_px(-0.5) + x_px(n - 0.5)) / 2;
        let y = group_y + 6;
        canvas.draw_text(&categories.title, &style, (centre, y))?;
    }
    Ok(())
}

/// Horizontal offset of side `k` of `sides` within its cell, so whiskers of
/// different sides sit side by side instead of on top of each other.
fn side_offset(k: usize, sides: usize) -> f64 {
    const SPREAD: f64 = 0.6;
    (k as f64 - (sides as f64 - 1.0) / 2.0) * SPREAD / sides as f64
}

/// `style` for a label hanging under an axis at its anchor: centred, or
/// vertical (reading bottom to top, ending at the anchor) when labels do not
/// fit side by side.
pub(crate) fn under_axis<'a>(style: &TextStyle<'a>, vertical: bool) -> TextStyle<'a> {
    if vertical {
        style
            .transform(FontTransform::Rotate270)
            .pos(Pos::new(HPos::Right, VPos::Center))
    } else {
        style.pos(Pos::new(HPos::Center, VPos::Top))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_offsets_are_centred() {
        assert_eq!(side_offset(0, 1), 0.0);
        assert_eq!(side_offset(0, 2), -side_offset(1, 2));
    }
}
