//! `balance.png`: the searched side's win rate against the axis value, one
//! dot with 95% Wilson whiskers per probe (numbered in probe order), the two
//! bracket probes highlighted, the target as a dashed horizontal line and
//! the interpolated crossing as a faint vertical line.

use plotters::chart::ChartBuilder;
use plotters::element::{Circle, ErrorBar, Text};
use plotters::series::{DashedLineSeries, LineSeries};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, WHITE};

use super::style::{
    draw_title, house_mesh, render_png, series_colour, text, DARK_GREY, LIGHT_GREY, TICK_SIZE,
};
use crate::report::error::ReportError;
use crate::report::labels::fixed;
use crate::report::names::BALANCE_PNG;
use crate::results::BalanceResults;

const FILE: &str = BALANCE_PNG;
const SIZE: (u32, u32) = (860, 540);

/// Renders `balance.png`.
pub(crate) fn render(r: &BalanceResults) -> Result<Vec<u8>, ReportError> {
    let c = &r.crossing;
    let width = r.to - r.from;
    let pad = if r.integer {
        0.5
    } else {
        (width * 0.05).max(f64::MIN_POSITIVE)
    };
    let (x0, x1) = (r.from - pad, r.to + pad);
    // Sorted by value, for the line through the probes.
    let mut by_value: Vec<(f64, f64)> = c
        .probes
        .iter()
        .map(|p| (p.value, p.rate.estimate))
        .collect();
    by_value.sort_by(|a, b| a.0.total_cmp(&b.0));
    let title = format!("{}: {} win rate vs {}", r.scenario.name, r.side, r.axis);
    let base = series_colour(0);
    let bracket = series_colour(1);
    let integer = r.integer;
    let ticks = if integer {
        (width as usize + 1).clamp(2, 16)
    } else {
        10
    };
    render_png(FILE, SIZE, |canvas| {
        draw_title(canvas, &title, SIZE.0)?;
        let (_, lower) = canvas.split_vertically(50);
        let mut chart = ChartBuilder::on(&lower)
            .margin(16)
            .y_label_area_size(60)
            .x_label_area_size(50)
            .build_cartesian_2d(x0..x1, 0.0..1.0)?;
        house_mesh(&mut chart.configure_mesh())
            .x_labels(ticks)
            .x_label_formatter(&|v| {
                if integer {
                    format!("{}", v.round() as i64)
                } else {
                    format!("{}", (v * 1e6).round() / 1e6)
                }
            })
            .y_label_formatter(&|v| fixed(*v, 1))
            .x_desc(r.axis.as_str())
            .y_desc(format!("{} win rate", r.side))
            .draw()?;
        chart
            .draw_series(DashedLineSeries::new(
                [(x0, r.target), (x1, r.target)],
                8,
                5,
                DARK_GREY.stroke_width(1),
            ))?
            .label(format!("target {}", r.target))
            .legend(move |(x, y)| {
                plotters::element::PathElement::new([(x, y), (x + 16, y)], DARK_GREY)
            });
        // Within noise there is no crossing to mark.
        let noise = c.within_noise();
        if !noise {
            chart.draw_series(LineSeries::new(
                [(c.estimate, 0.0), (c.estimate, 1.0)],
                bracket.mix(0.4),
            ))?;
        }
        chart.draw_series(LineSeries::new(by_value, base.mix(0.35)))?;
        let whiskers = |indices: Vec<usize>, colour: plotters::style::RGBColor| {
            indices.into_iter().map(move |i| {
                let p = &c.probes[i];
                ErrorBar::new_vertical(
                    p.value,
                    p.rate.ci.lo,
                    p.rate.estimate,
                    p.rate.ci.hi,
                    colour.filled().stroke_width(2),
                    10,
                )
            })
        };
        let others: Vec<usize> = (0..c.probes.len())
            .filter(|&i| i != c.lower && i != c.upper)
            .collect();
        chart
            .draw_series(whiskers(others, base))?
            .label(if r.exact.is_some() {
                "probe (exact win rate)"
            } else {
                "probe (95% interval)"
            })
            .legend(move |(x, y)| Circle::new((x + 8, y), 4, base.filled()));
        chart
            .draw_series(whiskers(vec![c.lower, c.upper], bracket))?
            .label(if noise {
                "bracket: within noise, no crossing".to_owned()
            } else {
                format!("bracket; crossing ≈ {}", r.estimate_label())
            })
            .legend(move |(x, y)| Circle::new((x + 8, y), 4, bracket.filled()));
        let number = text(TICK_SIZE)
            .color(&DARK_GREY)
            .pos(Pos::new(HPos::Left, VPos::Bottom));
        chart.draw_series(c.probes.iter().enumerate().map(|(i, p)| {
            Text::new(
                format!("{}", i + 1),
                (p.value + pad * 0.12, p.rate.estimate + 0.015),
                number.clone(),
            )
        }))?;
        chart
            .configure_series_labels()
            .position(plotters::chart::SeriesLabelPosition::UpperLeft)
            .label_font(text(TICK_SIZE))
            .background_style(WHITE.mix(0.9))
            .border_style(LIGHT_GREY)
            .draw()?;
        Ok(())
    })
}
