//! `diff.png`: each cell's change in win rate between two reports, one dot
//! with its 95% whiskers per (cell, side), highlighted where the interval
//! excludes zero; a line at zero (no change). Cells are numbered as in
//! `diff.md`. The legend sits above the plot, so it never covers a point,
//! and the change axis prints as many decimals as its tick step needs. A
//! matrix too large to show every cell readably shows the cells that
//! changed most (the title says how many of how many); `diff.md` and
//! `diff.csv` keep every cell.

use plotters::chart::ChartBuilder;
use plotters::coord::ranged1d::Ranged;
use plotters::coord::types::RangedCoordf64;
use plotters::element::ErrorBar;
use plotters::series::LineSeries;
use plotters::style::Color;

use super::style::{
    draw_legend, draw_title, house_mesh, render_png, series_colour, tick_decimals, DARK_GREY,
};
use crate::report::error::ReportError;
use crate::report::labels::signed;
use crate::report::model::Diff;
use crate::report::names::DIFF_PNG;

const FILE: &str = DIFF_PNG;
/// Most labels on the change axis.
const Y_TICKS: usize = 10;
/// Most cells drawn: 40 px a cell at the widest chart.
const MAX_CELLS: usize = 56;

/// Renders `diff.png`.
pub(crate) fn render(diff: &Diff) -> Result<Vec<u8>, ReportError> {
    let cells = diff.changes.iter().map(|c| c.cell + 1).max().unwrap_or(1);
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
            largest[c.cell] = largest[c.cell].max(c.difference.estimate.abs());
        }
        shown.sort_by(|&a, &b| largest[b].total_cmp(&largest[a]).then(a.cmp(&b)));
        shown.truncate(MAX_CELLS);
        shown.sort_unstable();
    }
    let mut position = vec![None; cells];
    for (x, &cell) in shown.iter().enumerate() {
        position[cell] = Some(x);
    }
    let width = (120 + 40 * shown.len() as u32).clamp(760, 2400);
    let height = 546;
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
        let (_, lower) = canvas.split_vertically(76);
        let n = shown.len() as f64;
        let mut chart = ChartBuilder::on(&lower)
            .margin(16)
            .y_label_area_size(70)
            .x_label_area_size(50)
            .build_cartesian_2d(-0.5..(n - 0.5), -reach..reach)?;
        house_mesh(&mut chart.configure_mesh())
            .disable_x_mesh()
            .x_labels(shown.len().min(40))
            .x_label_formatter(&|v| {
                let x = v.round().max(0.0) as usize;
                shown.get(x).map_or_else(String::new, |c| c.to_string())
            })
            .y_labels(Y_TICKS)
            .y_label_formatter(&|v| signed(*v, decimals))
            .x_desc("cell")
            .y_desc("change in win rate")
            .draw()?;
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
                .filter_map(|c| Some((position[c.cell]?, c)));
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
