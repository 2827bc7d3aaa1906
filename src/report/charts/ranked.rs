//! The frame the ranked charts share (the largest effects of a big matrix,
//! `effects`, and the stats of `sensitivity`): a title, a subtitle, the
//! sides' legend, and one row per ranked item, largest on top, over a
//! symmetric axis of changes in win rate with a line at zero. Each chart
//! draws its own marks and labels into it.

use plotters::chart::{ChartBuilder, ChartContext};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::drawing::DrawingArea;
use plotters::prelude::{BitMapBackend, Cartesian2d};
use plotters::series::LineSeries;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::Color;

use super::style::{
    draw_legend_with, draw_title, house_mesh, text, Canvas, DrawError, DARK_GREY, TICK_SIZE,
};
use crate::report::labels::signed;

/// Width of a ranked chart.
pub(crate) const WIDTH: u32 = 1400;
/// Title, subtitle and legend; axis and its title.
pub(crate) const TOP: u32 = 104;
pub(crate) const BOTTOM: u32 = 64;

/// What a ranked chart's frame shows.
pub(crate) struct Frame<'a> {
    pub title: &'a str,
    pub subtitle: &'a str,
    pub sides: &'a [&'a str],
    /// The legend's entry for exact values' diamonds, when drawn.
    pub diamond: Option<&'a str>,
    /// Ranked items (rows).
    pub rows: usize,
    /// The axis runs from −reach to reach.
    pub reach: f64,
    pub x_desc: &'a str,
    /// Width of the label column left of the chart.
    pub label_width: u32,
}

/// The chart a ranked chart draws into: x is the change, y the row
/// (`rows − 1 − rank`: rank 0 on top).
pub(crate) type Rows<'a, 'b> =
    ChartContext<'a, BitMapBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Draws `frame` on `canvas`, then `marks` into its chart.
pub(crate) fn draw(
    canvas: &Canvas,
    frame: &Frame,
    marks: impl FnOnce(&mut Rows) -> Result<(), DrawError>,
) -> Result<(), DrawError> {
    draw_title(canvas, frame.title, WIDTH)?;
    let style = text(TICK_SIZE)
        .color(&DARK_GREY)
        .pos(Pos::new(HPos::Center, VPos::Top));
    canvas.draw_text(frame.subtitle, &style, (WIDTH as i32 / 2, 44))?;
    draw_legend_with(canvas, frame.sides, frame.diamond, WIDTH, 84)?;
    let (_, lower): (_, DrawingArea<_, Shift>) = canvas.split_vertically(TOP - 8);
    let count = frame.rows as f64;
    let reach = frame.reach;
    let mut chart = ChartBuilder::on(&lower)
        .margin_right(30)
        .margin_top(8)
        .y_label_area_size(frame.label_width)
        .x_label_area_size(BOTTOM - 8)
        .build_cartesian_2d(-reach..reach, -0.5..(count - 0.5))?;
    house_mesh(&mut chart.configure_mesh())
        .disable_y_mesh()
        .y_labels(0)
        .x_labels(9)
        .x_label_formatter(&|v| signed(*v, 3))
        .x_desc(frame.x_desc)
        .draw()?;
    chart.draw_series(LineSeries::new(
        [(0.0, -0.5), (0.0, count - 0.5)],
        DARK_GREY.mix(0.8),
    ))?;
    marks(&mut chart)
}
