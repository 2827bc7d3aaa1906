//! `diff.png`: each compared cell's change in win rate between two
//! reports, one dot with its 95% whiskers per (cell, side), highlighted
//! where the interval excludes zero; a line at zero (no change). Cells are
//! labelled by their axis values (vertically when they do not fit side by
//! side), the axes' paths under them, as in `win_rate.png`. The legend sits
//! above the plot, so it never covers a point, and the change axis prints as
//! many decimals as its tick step needs. A matrix too large to show every
//! cell readably shows the cells that changed most (the title says how many
//! of how many); `diff.md` and `diff.csv` keep every cell.

use plotters::chart::ChartBuilder;
use plotters::coord::ranged1d::Ranged;
use plotters::coord::types::RangedCoordf64;
use plotters::element::ErrorBar;
use plotters::series::LineSeries;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::Color;

use super::fonts;
use super::style::{
    draw_legend, draw_title, house_mesh, render_png, series_colour, text, text_width,
    tick_decimals, DARK_GREY, LABEL_SIZE, TICK_SIZE,
};
use super::win_rate::under_axis;
use crate::report::error::ReportError;
use crate::report::labels::{axes_title, signed, truncate, values_label};
use crate::report::model::Diff;
use crate::report::names::DIFF_PNG;

const FILE: &str = DIFF_PNG;
/// Most labels on the change axis.
const Y_TICKS: usize = 10;
/// Most cells drawn: 40 px a cell at the widest chart.
const MAX_CELLS: usize = 56;
/// Width of a cell's slot, in pixels.
const SLOT: u32 = 40;
/// Longest cell label, in characters.
const MAX_LABEL_CHARS: usize = 32;
/// Title and legend, above the plot; the plot's height.
const TOP: u32 = 76;
const PLOT_HEIGHT: u32 = 420;

/// Renders `diff.png`.
pub(crate) fn render(diff: &Diff) -> Result<Vec<u8>, ReportError> {
    // Labels are measured before drawing.
    fonts::ensure_registered(FILE)?;
    // The compared cells, in the new report's order, with their axis values
    // (the changes hold every side of a cell one after the other).
    let mut compared: Vec<&[String]> = Vec::new();
    let mut index_of = vec![0usize; diff.changes.iter().map(|c| c.cell + 1).max().unwrap_or(0)];
    for (i, c) in diff.changes.iter().enumerate() {
        if i == 0 || diff.changes[i - 1].cell != c.cell {
            index_of[c.cell] = compared.len();
            compared.push(&c.values);
        }
    }
    let cells = compared.len().max(1);
    let sides: Vec<&str> = {
        let mut s: Vec<&str> = Vec::new();
        for c in &diff.changes {
            if !s.contains(&c.side.as_str()) {
                s.push(&c.side);
            }
        }
        s
    };
    // The cells drawn, in cell order: every cell, or the MAX_CELLS whose
    // largest change (over the sides) is largest.
    let mut shown: Vec<usize> = (0..cells).collect();
    if cells > MAX_CELLS {
        let mut largest = vec![0f64; cells];
        for c in &diff.changes {
            let i = index_of[c.cell];
            largest[i] = largest[i].max(c.difference.estimate.abs());
        }
        shown.sort_by(|&a, &b| largest[b].total_cmp(&largest[a]).then(a.cmp(&b)));
        shown.truncate(MAX_CELLS);
        shown.sort_unstable();
    }
    let mut position = vec![None; cells];
    for (x, &cell) in shown.iter().enumerate() {
        position[cell] = Some(x);
    }
    let labels: Vec<String> = shown
        .iter()
        .map(|&i| {
            compared
                .get(i)
                .map_or_else(String::new, |v| truncate(&values_label(v), MAX_LABEL_CHARS))
        })
        .collect();
    let width = (120 + SLOT * shown.len() as u32).clamp(760, 2400);
    let tick_style = text(TICK_SIZE);
    let widest = labels
        .iter()
        .map(|l| text_width(l, &tick_style))
        .max()
        .unwrap_or(0);
    let slot = (width - 120) / shown.len().max(1) as u32;
    let vertical = widest + 8 > slot;
    let tick_band = if vertical { widest } else { TICK_SIZE } + 14;
    let title_band = LABEL_SIZE + 18;
    let height = TOP + PLOT_HEIGHT + tick_band + title_band;
    let reach = diff
        .changes
        .iter()
        .flat_map(|c| [c.difference.ci.lo.abs(), c.difference.ci.hi.abs()])
        .fold(0.01f64, f64::max)
        * 1.1;
    // Short: the chart can be as narrow as 760 px. diff.md explains the rest
    // (95% intervals; solid = moved, faint = within noise).
    let title = if shown.len() < cells {
        format!(
            "{}: win rate, new − old ({} of {} cells: most changed)",
            diff.name,
            shown.len(),
            cells
        )
    } else {
        format!("{}: win rate, new − old", diff.name)
    };
    // The ticks plotters will draw for 10 labels, so their labels can carry
    // exactly the decimals the step needs.
    let ticks = RangedCoordf64::from(-reach..reach).key_points(Y_TICKS);
    let decimals = tick_decimals(&ticks);
    render_png(FILE, (width, height), |canvas| {
        draw_title(canvas, &title, width)?;
        draw_legend(canvas, &sides, width, 58)?;
        let (_, lower) = canvas.split_vertically(TOP);
        let n = shown.len() as f64;
        let mut chart = ChartBuilder::on(&lower)
            .margin(16)
            .margin_bottom(0)
            .y_label_area_size(70)
            .x_label_area_size(tick_band + title_band)
            .build_cartesian_2d(-0.5..(n - 0.5), -reach..reach)?;
        house_mesh(&mut chart.configure_mesh())
            .disable_x_mesh()
            .x_labels(0)
            .y_labels(Y_TICKS)
            .y_label_formatter(&|v| signed(*v, decimals))
            .y_desc("change in win rate")
            .draw()?;
        // Cell labels and the axes' paths, on the canvas under the plot
        // (backend coordinates are canvas coordinates).
        let axis_y = chart.backend_coord(&(0.0, -reach)).1;
        let x_px = |x: f64| chart.backend_coord(&(x, 0.0)).0;
        let label_style = under_axis(&tick_style, vertical);
        for (x, label) in labels.iter().enumerate() {
            canvas.draw_text(label, &label_style, (x_px(x as f64), axis_y + 8))?;
        }
        let title_style = text(LABEL_SIZE)
            .color(&DARK_GREY)
            .pos(Pos::new(HPos::Center, VPos::Top));
        let centre = (x_px(-0.5) + x_px(n - 0.5)) / 2;
        canvas.draw_text(
            &truncate(&axes_title(&diff.axes), 120),
            &title_style,
            (centre, axis_y + tick_band as i32 + 6),
        )?;
        chart.draw_series(LineSeries::new(
            [(-0.5, 0.0), (n - 0.5, 0.0)],
            DARK_GREY.mix(0.8),
        ))?;
        for (k, side) in sides.iter().enumerate() {
            let offset = if sides.len() < 2 {
                0.0
            } else {
                -0.2 + 0.4 * k as f64 / (sides.len() - 1) as f64
            };
            let colour = series_colour(k);
            let drawn = diff
                .changes
                .iter()
                .filter(|c| c.side == *side)
                .filter_map(|c| Some((position[index_of[c.cell]]?, c)));
            let bars = drawn.map(|(x, c)| {
                let style = if c.moved {
                    colour.filled().stroke_width(2)
                } else {
                    colour.mix(0.35).stroke_width(1)
                };
                ErrorBar::new_vertical(
                    x as f64 + offset,
                    c.difference.ci.lo,
                    c.difference.estimate,
                    c.difference.ci.hi,
                    style,
                    8,
                )
            });
            chart.draw_series(bars)?;
        }
        Ok(())
    })
}
