//! `rounds.png`: how long fights last, per cell.
//!
//! Draws a [`Lengths`]: each cell's fight-length distribution, the share of
//! its fights ending in each round (a run), or the probability that its
//! fight ends in each round (an exact answer, titled so). Up to
//! [`OVERLAY_MAX`] cells share one panel (one
//! coloured line each, legend naming the cell by its axis values and median);
//! more cells, up to [`SMALL_MAX`], get a grid of small panels with
//! identical axes and axis titles, one per cell, so shapes stay comparable.
//! Beyond that the chart would outgrow any screen, so one panel shows the
//! spread of every cell (a grey band from the least to the largest share in
//! each round) with the baseline cell and the cells of the shortest and the
//! longest mean fight drawn as lines: the same size at any number of cells. The x axis stops where 99% of every cell's
//! fights that ended before the round cap are in view
//! ([`Lengths::x_max`]), so a long tail or the spike of draws at
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
use crate::report::error::ReportError;
use crate::report::labels::{cell_label_of, cell_label_within, fixed, truncate};
use crate::report::model::{LengthCell, Lengths, AXIS_PERCENTILE};
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
/// Above this many rounds on the x axis, lines get no point markers.
const MARKERS_MAX_ROUNDS: u32 = 40;

/// One cell's line.
struct Line<'a> {
    label: String,
    colour: RGBColor,
    bins: &'a [(u32, f64)],
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
pub(crate) fn render(lengths: &Lengths) -> Result<Vec<u8>, ReportError> {
    fonts::ensure_registered(FILE)?;
    let axes = shared_axes(lengths);
    let cells = &lengths.cells;
    let overlay = cells.len() <= OVERLAY_MAX;
    let label = |cell: &LengthCell| cell_label_of(cell.index, &cell.values);
    let lines: Vec<Line> = cells
        .iter()
        .enumerate()
        .map(|(i, cell)| Line {
            label: if overlay {
                format!("{} (median {})", label(cell), cell.median)
            } else {
                // A small panel's caption: every axis keeps a say.
                cell_label_within(cell.index, &cell.values, SMALL_CAPTION_CHARS)
            },
            colour: series_colour(i),
            bins: &cell.shares,
        })
        .collect();
    let (title, what) = if lengths.exact {
        (
            format!("{}: fight length (exact)", lengths.name),
            "Probability of a fight ending in each round",
        )
    } else {
        (
            format!("{}: fight length", lengths.name),
            "Share of fights ending in each round",
        )
    };
    let cap = lengths.max_rounds;
    let subtitle = if axes.x_max >= cap {
        format!("{what}, up to the {cap}-round cap.")
    } else {
        let (end, ended) = if lengths.exact {
            ("end", "have")
        } else {
            ("ended", "had")
        };
        format!(
            "{what}, up to round {}, by which {AXIS_PERCENTILE}% of \
             every cell's fights that {end} before the {cap}-round cap {ended} ended.",
            axes.x_max
        )
    };
    let y_desc = if lengths.exact {
        ("probability", "probability")
    } else {
        ("share of fights", "share")
    };
    let headings = |canvas: &Canvas, width: u32| -> Result<(), DrawError> {
        draw_title(canvas, &title, width)?;
        let style = text(TICK_SIZE)
            .color(&DARK_GREY)
            .pos(Pos::new(HPos::Center, VPos::Top));
        canvas.draw_text(&subtitle, &style, (width as i32 / 2, 44))
    };
    if cells.len() > SMALL_MAX {
        let (width, height) = (PANEL.0, PANEL.1 + TITLE_BAND);
        let note = format!(
            "Grey: from the least to the largest {} of any of the {} cells.",
            y_desc.1,
            cells.len()
        );
        return render_png(FILE, (width, height), |canvas| {
            draw_title(canvas, &title, width)?;
            let style = text(TICK_SIZE)
                .color(&DARK_GREY)
                .pos(Pos::new(HPos::Center, VPos::Top));
            canvas.draw_text(&truncate(&subtitle, 150), &style, (width as i32 / 2, 40))?;
            canvas.draw_text(&note, &style, (width as i32 / 2, 56))?;
            let (_, area) = canvas.split_vertically(TITLE_BAND);
            let picked = representatives(lengths);
            let lines: Vec<Line> = picked
                .iter()
                .enumerate()
                .map(|(k, (what, i))| Line {
                    label: truncate(
                        &format!(
                            "{what}: {} (median {})",
                            label(&cells[*i]),
                            cells[*i].median
                        ),
                        70,
                    ),
                    colour: series_colour(k),
                    bins: &cells[*i].shares,
                })
                .collect();
            let band = envelope(lengths, axes.x_max);
            panel(&area, &lines, axes, None, y_desc, true, Some(&band))
        });
    }
    if overlay {
        let (width, height) = (PANEL.0, PANEL.1 + TITLE_BAND);
        render_png(FILE, (width, height), |canvas| {
            headings(canvas, width)?;
            let (_, area) = canvas.split_vertically(TITLE_BAND);
            panel(&area, &lines, axes, None, y_desc, lines.len() > 1, None)
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
                panel(area, &[single], axes, Some(&caption), y_desc, false, None)?;
            }
            Ok(())
        })
    }
}

/// The cells drawn as lines when there are too many for small multiples:
/// the baseline (when it is one of them), then the cells with the shortest
/// and the longest mean fight (each once); positions in `lengths.cells`.
fn representatives(lengths: &Lengths) -> Vec<(&'static str, usize)> {
    let mean = |i: &usize| lengths.cells[*i].mean;
    let all = 0..lengths.cells.len();
    let shortest = all.clone().min_by(|a, b| mean(a).total_cmp(&mean(b)));
    let longest = all.max_by(|a, b| mean(a).total_cmp(&mean(b)).then(b.cmp(a)));
    let mut picked: Vec<(&'static str, usize)> = lengths
        .baseline
        .map(|b| ("baseline", b))
        .into_iter()
        .collect();
    for (what, i) in [("shortest", shortest), ("longest", longest)] {
        if let Some(i) = i.filter(|i| picked.iter().all(|(_, p)| p != i)) {
            picked.push((what, i));
        }
    }
    picked
}

/// Least and largest share of any cell in each round `0..=x_max`: memory in
/// rounds, not cells.
fn envelope(lengths: &Lengths, x_max: u32) -> Vec<(f64, f64)> {
    let mut band = vec![(f64::INFINITY, 0.0f64); x_max as usize + 1];
    for cell in &lengths.cells {
        for (r, share) in points(&cell.shares, x_max) {
            let b = &mut band[r as usize];
            *b = (b.0.min(share), b.1.max(share));
        }
    }
    band
}

/// x up to [`Lengths::x_max`]; y up to the largest share within that
/// range, plus headroom.
fn shared_axes(lengths: &Lengths) -> Axes {
    let x_max = lengths.x_max;
    let top = lengths
        .cells
        .iter()
        .flat_map(|c| &c.shares)
        .filter(|b| b.0 <= x_max)
        .map(|b| b.1)
        .fold(0.0, f64::max);
    Axes {
        x_max,
        y_max: (top * 1.1).max(0.01),
    }
}

/// The share of fights ending in each round `0..=x_max` (0 where no fight
/// ended), so lines do not skip over empty rounds.
fn points(bins: &[(u32, f64)], x_max: u32) -> Vec<(u32, f64)> {
    let mut shares = vec![0.0; x_max as usize + 1];
    for &(rounds, share) in bins.iter().filter(|b| b.0 <= x_max) {
        shares[rounds as usize] = share;
    }
    shares
        .into_iter()
        .zip(0..)
        .map(|(share, r)| (r, share))
        .collect()
}

/// One panel with one line per entry of `lines`; `y_desc` names the y axis
/// of a large panel and of a small one.
fn panel(
    area: &Canvas,
    lines: &[Line],
    axes: Axes,
    caption: Option<&str>,
    y_desc: (&str, &str),
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
        mesh.x_desc("rounds").y_desc(y_desc.1);
    } else {
        mesh.x_desc("rounds").y_desc(y_desc.0);
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
        let bins = [(1, 0.25), (3, 0.5), (9, 0.25)];
        assert_eq!(
            points(&bins, 3),
            vec![(0, 0.0), (1, 0.25), (2, 0.0), (3, 0.5)]
        );
    }
}
