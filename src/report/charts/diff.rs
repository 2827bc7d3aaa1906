//! `diff.png`: each cell's change in win rate between two reports, one dot
//! with its 95% whiskers per (cell, side), highlighted where the interval
//! excludes zero; a line at zero (no change). Cells are numbered as in
//! `diff.md`. The legend sits above the plot, so it never covers a point,
//! and the change axis prints as many decimals as its tick step needs.

use plotters::chart::ChartBuilder;
use plotters::coord::ranged1d::Ranged;
use plotters::coord::types::RangedCoordf64;
use plotters::element::ErrorBar;
use plotters::series::LineSeries;
use plotters::style::{Color, WHITE};

use super::style::{
    draw_legend, draw_title, render_png, series_colour, text, tick_decimals, DARK_GREY, LABEL_SIZE,
    LIGHT_GREY, TICK_SIZE,
};
use crate::report::error::ReportError;
use crate::report::labels::signed;
use crate::report::model::Diff;
use crate::report::names::DIFF_PNG;

const FILE: &str = DIFF_PNG;
/// Most labels on the change axis.
const Y_TICKS: usize = 10;

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
    let width = (120 + 40 * cells as u32).clamp(760, 2400);
    let height = 546;
    let reach = diff
        .changes
        .iter()
        .flat_map(|c| [c.difference.ci.lo.abs(), c.difference.ci.hi.abs()])
        .fold(0.01f64, f64::max)
        * 1.1;
    // Short: the chart can be as narrow as 760 px. diff.md explains the rest
    // (95% intervals; solid = moved, faint = within noise).
    let title = format!("{}: win rate, new − old", diff.name);
    // The ticks plotters will draw for 10 labels, so their labels can carry
    // exactly the decimals the step needs.
    let ticks = RangedCoordf64::from(-reach..reach).key_points(Y_TICKS);
    let decimals = tick_decimals(&ticks);
    render_png(FILE, (width, height), |canvas| {
        draw_title(canvas, &title, width)?;
        draw_legend(canvas, &sides, width, 58)?;
        let (_, lower) = canvas.split_vertically(76);
        let n = cells as f64;
        let mut chart = ChartBuilder::on(&lower)
            .margin(16)
            .y_label_area_size(70)
            .x_label_area_size(50)
            .build_cartesian_2d(-0.5..(n - 0.5), -reach..reach)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(cells.min(40))
            .x_label_formatter(&|v| format!("{}", v.round() as i64))
            .y_labels(Y_TICKS)
            .y_label_formatter(&|v| signed(*v, decimals))
            .x_desc("cell")
            .y_desc("change in win rate")
            .label_style(text(TICK_SIZE))
            .axis_desc_style(text(LABEL_SIZE))
            .bold_line_style(LIGHT_GREY)
            .light_line_style(WHITE)
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
            let bars = diff.changes.iter().filter(|c| c.side == *side).map(|c| {
                let style = if c.moved {
                    colour.filled().stroke_width(2)
                } else {
                    colour.mix(0.35).stroke_width(1)
                };
                ErrorBar::new_vertical(
                    c.cell as f64 + offset,
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
