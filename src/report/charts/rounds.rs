//! `rounds.png`: how long fights last, per cell.
//!
//! Each cell's fight-length distribution is drawn as the share of its fights
//! ending in each round. Up to [`OVERLAY_MAX`] cells share one panel (one
//! coloured line each, legend naming the cell by its axis values and median);
//! more cells get a grid of small panels with identical axes, one per cell,
//! so shapes stay comparable. The x axis stops where 99% of every cell's
//! fights that ended before the round cap are in view
//! ([`analysis::rounds_axis_limit`]), so a long tail or the spike of draws at
//! the cap does not squash the bulk of the distribution; a subtitle says so.

use plotters::chart::{ChartBuilder, SeriesLabelPosition};
use plotters::element::{Circle, PathElement};
use plotters::series::LineSeries;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, RGBColor, WHITE};

use super::fonts;
use super::style::{
    draw_title, render_png, series_colour, text, Canvas, DrawError, DARK_GREY, LABEL_SIZE,
    LIGHT_GREY, TICK_SIZE,
};
use crate::analysis::{self, LengthBin};
use crate::report::error::ReportError;
use crate::report::labels::{cell_label, fixed, truncate};
use crate::report::model::Report;
use crate::report::names::ROUNDS_PNG;

const FILE: &str = ROUNDS_PNG;

/// Most cells drawn as lines in one panel; more get small multiples.
const OVERLAY_MAX: usize = 6;
/// Size of the single panel, and of each small-multiple panel.
const PANEL: (u32, u32) = (1000, 520);
const SMALL_PANEL: (u32, u32) = (320, 210);
/// Most small-multiple columns.
const GRID_COLUMNS: usize = 5;
/// Title and subtitle.
const TITLE_BAND: u32 = 72;
/// Share of the fights ending before the cap the x axis keeps in view.
const AXIS_PERCENTILE: u32 = 99;
/// Above this many rounds on the x axis, lines get no point markers.
const MARKERS_MAX_ROUNDS: u32 = 40;

/// One cell's line.
struct Line<'a> {
    label: String,
    colour: RGBColor,
    bins: &'a [LengthBin],
}

/// The x and y ranges every panel shares.
#[derive(Clone, Copy)]
struct Axes {
    /// Last round shown.
    x_max: u32,
    /// Top of the share axis.
    y_max: f64,
}

/// Renders `rounds.png`.
pub(crate) fn render(report: &Report) -> Result<Vec<u8>, ReportError> {
    fonts::ensure_registered(FILE)?;
    let axes = shared_axes(report);
    let overlay = report.cells.len() <= OVERLAY_MAX;
    let lines: Vec<Line> = report
        .cells
        .iter()
        .zip(&report.summaries)
        .enumerate()
        .map(|(i, (cell, s))| Line {
            label: if overlay {
                format!("{} (median {})", cell_label(cell), s.rounds_p50)
            } else {
                cell_label(cell)
            },
            colour: series_colour(i),
            bins: &s.lengths,
        })
        .collect();
    let title = format!("{}: fight length", report.info.name);
    let cap = report.info.max_rounds;
    let subtitle = if axes.x_max >= cap {
        format!("Share of fights ending in each round, up to the {cap}-round cap.")
    } else {
        format!(
            "Share of fights ending in each round, up to round {}, by which {AXIS_PERCENTILE}% of \
             every cell's fights that ended before the {cap}-round cap had ended.",
            axes.x_max
        )
    };
    let headings = |canvas: &Canvas, width: u32| -> Result<(), DrawError> {
        draw_title(canvas, &title, width)?;
        let style = text(TICK_SIZE)
            .color(&DARK_GREY)
            .pos(Pos::new(HPos::Center, VPos::Top));
        canvas.draw_text(&subtitle, &style, (width as i32 / 2, 44))
    };
    if overlay {
        let (width, height) = (PANEL.0, PANEL.1 + TITLE_BAND);
        render_png(FILE, (width, height), |canvas| {
            headings(canvas, width)?;
            let (_, area) = canvas.split_vertically(TITLE_BAND);
            panel(&area, &lines, axes, None, lines.len() > 1)
        })
    } else {
        let columns = GRID_COLUMNS.min(lines.len());
        let rows = lines.len().div_ceil(columns);
        let width = SMALL_PANEL.0 * columns as u32;
        let height = SMALL_PANEL.1 * rows as u32 + TITLE_BAND;
        render_png(FILE, (width, height), |canvas| {
            headings(canvas, width)?;
            let (_, grid) = canvas.split_vertically(TITLE_BAND);
            let max_chars = (SMALL_PANEL.0 / 8) as usize;
            for (area, line) in grid.split_evenly((rows, columns)).iter().zip(&lines) {
                let caption = truncate(&line.label, max_chars);
                let single = Line {
                    label: String::new(),
                    colour: series_colour(0),
                    bins: line.bins,
                };
                panel(area, &[single], axes, Some(&caption), false)?;
            }
            Ok(())
        })
    }
}

/// x up to [`analysis::rounds_axis_limit`]; y up to the largest share within
/// that range, plus headroom.
fn shared_axes(report: &Report) -> Axes {
    let x_max =
        analysis::rounds_axis_limit(&report.summaries, report.info.max_rounds, AXIS_PERCENTILE);
    let top = report
        .summaries
        .iter()
        .flat_map(|s| &s.lengths)
        .filter(|b| b.rounds <= x_max)
        .map(|b| b.share)
        .fold(0.0, f64::max);
    Axes {
        x_max,
        y_max: (top * 1.1).max(0.01),
    }
}

/// The share of fights ending in each round `0..=x_max` (0 where no fight
/// ended), so lines do not skip over empty rounds.
fn points(bins: &[LengthBin], x_max: u32) -> Vec<(u32, f64)> {
    let mut shares = vec![0.0; x_max as usize + 1];
    for bin in bins.iter().filter(|b| b.rounds <= x_max) {
        shares[bin.rounds as usize] = bin.share;
    }
    shares
        .into_iter()
        .zip(0..)
        .map(|(share, r)| (r, share))
        .collect()
}

/// One panel with one line per entry of `lines`.
fn panel(
    area: &Canvas,
    lines: &[Line],
    axes: Axes,
    caption: Option<&str>,
    legend: bool,
) -> Result<(), DrawError> {
    let small = caption.is_some();
    let (tick, label) = if small {
        (TICK_SIZE - 3, TICK_SIZE - 1)
    } else {
        (TICK_SIZE, LABEL_SIZE)
    };
    let mut builder = ChartBuilder::on(area);
    builder
        .margin(if small { 6 } else { 12 })
        .margin_right(if small { 12 } else { 30 })
        .x_label_area_size(if small { 24 } else { 54 })
        .y_label_area_size(if small { 40 } else { 70 });
    if let Some(caption) = caption {
        builder.caption(caption, text(label));
    }
    // Integer rounds on x, so ticks fall on whole rounds; one spare round on
    // the right keeps the last point off the border.
    let mut chart = builder.build_cartesian_2d(0..axes.x_max + 1, 0.0..axes.y_max)?;
    let mut mesh = chart.configure_mesh();
    mesh.label_style(text(tick))
        .axis_desc_style(text(label))
        .bold_line_style(LIGHT_GREY)
        .light_line_style(WHITE)
        .x_labels(if small { 6 } else { 12 })
        .y_labels(if small { 4 } else { 8 })
        .y_label_formatter(&|y| fixed(*y, 2));
    if !small {
        mesh.x_desc("rounds").y_desc("share of fights");
    }
    mesh.draw()?;

    for line in lines {
        let pts = points(line.bins, axes.x_max);
        let colour = line.colour;
        let series =
            chart.draw_series(LineSeries::new(pts.iter().copied(), colour.stroke_width(2)))?;
        if legend {
            series.label(line.label.as_str()).legend(move |(x, y)| {
                PathElement::new([(x, y), (x + 20, y)], colour.stroke_width(3))
            });
        }
        if !small && axes.x_max <= MARKERS_MAX_ROUNDS {
            chart.draw_series(pts.iter().map(|&p| Circle::new(p, 3, colour.filled())))?;
        }
    }
    if legend {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .label_font(text(TICK_SIZE))
            .background_style(WHITE.mix(0.9))
            .border_style(LIGHT_GREY)
            .draw()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_fill_empty_rounds_and_clip() {
        let bins = [
            LengthBin {
                rounds: 1,
                fights: 1,
                share: 0.25,
            },
            LengthBin {
                rounds: 3,
                fights: 2,
                share: 0.5,
            },
            LengthBin {
                rounds: 9,
                fights: 1,
                share: 0.25,
            },
        ];
        assert_eq!(
            points(&bins, 3),
            vec![(0, 0.0), (1, 0.25), (2, 0.0), (3, 0.5)]
        );
    }
}
