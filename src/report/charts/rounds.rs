//! `rounds.png`: how long fights last, per cell.
//!
//! Each cell's fight-length distribution is drawn as the share of its fights
//! ending in each round. Up to [`OVERLAY_MAX`] cells share one panel (one
//! coloured line each, legend naming the cell by its axis values and median);
//! more cells, up to [`SMALL_MAX`], get a grid of small panels with
//! identical axes and axis titles, one per cell, so shapes stay comparable.
//! Beyond that the chart would outgrow any screen, so one panel shows the
//! spread of every cell (a grey band from the least to the largest share in
//! each round) with the baseline cell and the cells of the shortest and the
//! longest mean fight drawn as lines: the same size at any number of cells. The x axis stops where 99% of every cell's
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
use crate::report::labels::{cell_label, cell_label_within, fixed, truncate};
use crate::report::model::Report;
use crate::report::names::ROUNDS_PNG;

const FILE: &str = ROUNDS_PNG;

/// Most cells drawn as lines in one panel; more get small multiples.
const OVERLAY_MAX: usize = 6;
/// Size of the single panel, and of each small-multiple panel.
const PANEL: (u32, u32) = (1000, 520);
const SMALL_PANEL: (u32, u32) = (340, 240);
/// Most characters of a small panel's caption (about 7 pixels each).
const SMALL_CAPTION_CHARS: usize = (SMALL_PANEL.0 / 7) as usize;
/// Most small-multiple columns, and most small multiples.
const GRID_COLUMNS: usize = 6;
const SMALL_MAX: usize = 36;
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
                // A small panel's caption: every axis keeps a say.
                cell_label_within(cell, SMALL_CAPTION_CHARS)
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
    if report.cells.len() > SMALL_MAX {
        let (width, height) = (PANEL.0, PANEL.1 + TITLE_BAND);
        let note = format!(
            "Grey: from the least to the largest share of any of the {} cells.",
            report.cells.len()
        );
        return render_png(FILE, (width, height), |canvas| {
            draw_title(canvas, &title, width)?;
            let style = text(TICK_SIZE)
                .color(&DARK_GREY)
                .pos(Pos::new(HPos::Center, VPos::Top));
            canvas.draw_text(&truncate(&subtitle, 150), &style, (width as i32 / 2, 40))?;
            canvas.draw_text(&note, &style, (width as i32 / 2, 56))?;
            let (_, area) = canvas.split_vertically(TITLE_BAND);
            let picked = representatives(report);
            let lines: Vec<Line> = picked
                .iter()
                .enumerate()
                .map(|(k, (what, i))| Line {
                    label: truncate(
                        &format!(
                            "{what}: {} (median {})",
                            cell_label(&report.cells[*i]),
                            report.summaries[*i].rounds_p50
                        ),
                        70,
                    ),
                    colour: series_colour(k),
                    bins: &report.summaries[*i].lengths,
                })
                .collect();
            let band = envelope(report, axes.x_max);
            panel(&area, &lines, axes, None, true, Some(&band))
        });
    }
    if overlay {
        let (width, height) = (PANEL.0, PANEL.1 + TITLE_BAND);
        render_png(FILE, (width, height), |canvas| {
            headings(canvas, width)?;
            let (_, area) = canvas.split_vertically(TITLE_BAND);
            panel(&area, &lines, axes, None, lines.len() > 1, None)
        })
    } else {
        let columns = GRID_COLUMNS.min(lines.len());
        let rows = lines.len().div_ceil(columns);
        let width = SMALL_PANEL.0 * columns as u32;
        let height = SMALL_PANEL.1 * rows as u32 + TITLE_BAND;
        render_png(FILE, (width, height), |canvas| {
            headings(canvas, width)?;
            let (_, grid) = canvas.split_vertically(TITLE_BAND);
            for (area, line) in grid.split_evenly((rows, columns)).iter().zip(&lines) {
                let caption = truncate(&line.label, SMALL_CAPTION_CHARS);
                let single = Line {
                    label: String::new(),
                    colour: series_colour(0),
                    bins: line.bins,
                };
                panel(area, &[single], axes, Some(&caption), false, None)?;
            }
            Ok(())
        })
    }
}

/// The cells drawn as lines when there are too many for small multiples:
/// the baseline, then the cells with the shortest and the longest mean
/// fight (each once).
fn representatives(report: &Report) -> Vec<(&'static str, usize)> {
    let mean = |i: &usize| report.summaries[*i].rounds_mean;
    let all = 0..report.cells.len();
    let shortest = all.clone().min_by(|a, b| mean(a).total_cmp(&mean(b)));
    let longest = all.max_by(|a, b| mean(a).total_cmp(&mean(b)).then(b.cmp(a)));
    let mut picked = vec![("baseline", report.info.baseline)];
    for (what, i) in [("shortest", shortest), ("longest", longest)] {
        if let Some(i) = i.filter(|i| picked.iter().all(|(_, p)| p != i)) {
            picked.push((what, i));
        }
    }
    picked
}

/// Least and largest share of any cell in each round `0..=x_max`: memory in
/// rounds, not cells.
fn envelope(report: &Report, x_max: u32) -> Vec<(f64, f64)> {
    let mut band = vec![(f64::INFINITY, 0.0f64); x_max as usize + 1];
    for s in &report.summaries {
        for (r, share) in points(&s.lengths, x_max) {
            let b = &mut band[r as usize];
            *b = (b.0.min(share), b.1.max(share));
        }
    }
    band
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
    band: Option<&[(f64, f64)]>,
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
        .x_label_area_size(if small { 40 } else { 54 })
        .y_label_area_size(if small { 56 } else { 70 });
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
    // Every panel, small ones too, says what its axes are.
    if small {
        mesh.x_desc("rounds").y_desc("share");
    } else {
        mesh.x_desc("rounds").y_desc("share of fights");
    }
    mesh.draw()?;
    if let Some(band) = band {
        let upper = band.iter().enumerate().map(|(r, b)| (r as u32, b.1));
        let lower = band.iter().enumerate().rev().map(|(r, b)| (r as u32, b.0));
        let outline: Vec<(u32, f64)> = upper.chain(lower).collect();
        chart.draw_series(std::iter::once(plotters::element::Polygon::new(
            outline,
            LIGHT_GREY.mix(0.8).filled(),
        )))?;
    }

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
