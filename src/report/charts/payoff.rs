//! `payoff.png` of a tactics report: the payoff matrix as a heatmap.
//!
//! Rows are the first side's strategies, columns the second side's; each
//! square is coloured by the first side's payoff (its win rate plus half the
//! draws) on the diverging scale of the win-rate heatmaps, with the payoff
//! written in it when it fits. A black frame marks the first side's best
//! reply in each column, a black dot the second side's best reply in each
//! row: a square with both is a pure equilibrium (a saddle point). Each
//! label carries the strategy's probability in its side's optimal mix when
//! it is played. Squares shrink with many strategies so that the chart
//! stays within [`MAX_SIDE`] pixels a side.

use plotters::element::{Circle, Rectangle};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, BLACK, WHITE};

use super::heatmap::{draw_colour_bar, heat_colour};
use super::style::{
    bold, draw_title, fit, ink_on, render_png, text, text_width, DARK_GREY, LABEL_SIZE, MAX_SIDE,
    TICK_SIZE,
};
use super::win_rate::under_axis;
use crate::report::error::ReportError;
use crate::report::labels::fixed;
use crate::report::model::TacticsModel;
use crate::report::names::PAYOFF_PNG;

/// Largest and smallest square.
const SQUARE: (u32, u32) = (110, 48);
const MIN_SQUARE: u32 = 8;
/// Longest strategy label drawn, in pixels.
const MAX_LABEL: u32 = 360;
const TOP: u32 = 70;
const RIGHT: u32 = 130;
const MARGIN: u32 = 20;

/// `payoff.png`.
pub(crate) fn render(m: &TacticsModel) -> Result<Vec<u8>, ReportError> {
    // Fonts first: a text style made before they are registered has no
    // font, and fails when drawn.
    super::fonts::ensure_registered(PAYOFF_PNG)?;
    let r = m.results;
    let (rows, cols) = (m.means.rows as u32, m.means.cols as u32);
    let label_style = text(TICK_SIZE);
    let mix_label = |s: usize, k: usize| {
        let q = [&m.equilibrium.first, &m.equilibrium.second][s][k];
        let name = &r.strategies[s][k];
        if q > 0.0 {
            format!("{name} ({})", fixed(q, 2))
        } else {
            name.clone()
        }
    };
    let widest = |s: usize| {
        (0..r.strategies[s].len())
            .map(|k| text_width(&mix_label(s, k), &label_style))
            .max()
            .unwrap_or(0)
            .min(MAX_LABEL)
    };
    let left = widest(0) + 24;
    let band = widest(1) + 24;
    let room_w = MAX_SIDE - left - RIGHT - 2 * MARGIN;
    let room_h = MAX_SIDE - TOP - band - 2 * MARGIN - 40;
    let sw = (room_w / cols.max(1)).clamp(MIN_SQUARE, SQUARE.0);
    let sh = (room_h / rows.max(1)).clamp(MIN_SQUARE, SQUARE.1);
    let title = format!(
        "{}: payoff of {} (win rate + half the draws)",
        m.info.name, r.sides[0]
    );
    let width = (MARGIN * 2 + left + cols * sw + RIGHT)
        .max(text_width(&title, &bold(24)) + 40)
        .min(MAX_SIDE);
    let height = (TOP + band + rows * sh + MARGIN * 2 + 40).clamp(TOP + 260, MAX_SIDE);
    render_png(PAYOFF_PNG, (width, height), |canvas| {
        draw_title(canvas, &title, width)?;
        let subtitle = format!(
            "rows: {} · columns: {} · frame: {}'s best reply · dot: {}'s best reply",
            r.sides[0], r.sides[1], r.sides[0], r.sides[1]
        );
        canvas.draw_text(
            &subtitle,
            &text(TICK_SIZE)
                .color(&DARK_GREY)
                .pos(Pos::new(HPos::Center, VPos::Top)),
            (width as i32 / 2, 44),
        )?;
        let x0 = (MARGIN + left) as i32;
        let y0 = TOP as i32;
        let (w, h) = (sw as i32, sh as i32);
        // Column labels under the grid, turned to read upwards (as the
        // win-rate heatmap's).
        let below = y0 + rows as i32 * h + 6;
        for k in 0..cols as usize {
            let label = fit(&[mix_label(1, k)], &label_style, band - 16);
            canvas.draw_text(
                &label,
                &under_axis(&label_style, true),
                (x0 + k as i32 * w + w / 2, below),
            )?;
        }
        for i in 0..rows as usize {
            let label = fit(&[mix_label(0, i)], &label_style, left - 16);
            let style = label_style.clone().pos(Pos::new(HPos::Right, VPos::Center));
            canvas.draw_text(&label, &style, (x0 - 8, y0 + i as i32 * h + h / 2))?;
        }
        for i in 0..rows as usize {
            for j in 0..cols as usize {
                let (x, y) = (x0 + j as i32 * w, y0 + i as i32 * h);
                let v = m.payoff(i, j);
                let fill = heat_colour(v);
                canvas.draw(&Rectangle::new([(x, y), (x + w, y + h)], fill.filled()))?;
                if w >= 12 && h >= 12 {
                    canvas.draw(&Rectangle::new(
                        [(x, y), (x + w, y + h)],
                        WHITE.stroke_width(1),
                    ))?;
                }
                if m.best[0][j].best == i {
                    canvas.draw(&Rectangle::new(
                        [(x + 2, y + 2), (x + w - 2, y + h - 2)],
                        BLACK.stroke_width(if w >= 40 { 3 } else { 1 }),
                    ))?;
                }
                if m.best[1][i].best == j {
                    let r = (w.min(h) / 8).clamp(2, 5);
                    canvas.draw(&Circle::new((x + w - r - 5, y + r + 5), r, BLACK.filled()))?;
                }
                if w >= 40 && h >= 18 {
                    let ink = ink_on(fill);
                    let style = text(if h >= 40 { LABEL_SIZE } else { TICK_SIZE - 2 })
                        .color(&ink)
                        .pos(Pos::new(HPos::Center, VPos::Center));
                    canvas.draw_text(&fixed(v, 2), &style, (x + w / 2, y + h / 2))?;
                }
            }
        }
        let bar_h = (rows as i32 * h).clamp(160, 400);
        draw_colour_bar(canvas, (x0 + cols as i32 * w + 20, y0), bar_h, "payoff")
    })
}
