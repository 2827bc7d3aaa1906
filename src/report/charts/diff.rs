//! `diff.png`: each cell's change in win rate between two reports, one dot
//! with its 95% whiskers per (cell, side), highlighted where the interval
//! excludes zero; a line at zero (no change). Cells are numbered as in
//! `diff.md`.

use plotters::chart::ChartBuilder;
use plotters::element::ErrorBar;
use plotters::series::LineSeries;
use plotters::style::{Color, WHITE};

use super::style::{
    draw_title, render_png, series_colour, text, DARK_GREY, LABEL_SIZE, LIGHT_GREY, TICK_SIZE,
};
use crate::report::error::ReportError;
use crate::report::labels::signed;
use crate::report::model::Diff;
use crate::report::names::DIFF_PNG;

const FILE: &str = DIFF_PNG;

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
    let height = 520;
    let reach = diff
        .changes
        .iter()
        .flat_map(|c| [c.difference.ci.lo.abs(), c.difference.ci.hi.abs()])
        .fold(0.01f64, f64::max)
        * 1.1;
    // Short: the chart can be as narrow as 760 px. diff.md explains the rest
    // (95% intervals; solid = moved, faint = within noise).
    let title = format!("{}: win rate, new − old", diff.name);
    render_png(FILE, (width, height), |canvas| {
        draw_title(canvas, &title, width)?;
        let (_, lower) = canvas.split_vertically(50);
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
            .y_label_formatter(&|v| signed(*v, 2))
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
            chart
                .draw_series(bars)?
                .label(side.to_string())
                .legend(move |(x, y)| {
                    plotters::element::Circle::new((x + 8, y), 4, colour.filled())
                });
        }
        chart
            .configure_series_labels()
            .label_font(text(TICK_SIZE))
            .background_style(WHITE.mix(0.9))
            .border_style(LIGHT_GREY)
            .draw()?;
        Ok(())
    })
}
