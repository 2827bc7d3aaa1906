//! `sensitivity.png`: which stats move the win rates most.
//!
//! One row per stat, and per rule option whose step changed any fight,
//! largest effect on any side on top, the two kinds ranked together (a rule
//! option with no effect is left to summary.md); per side a bar from zero to the change in that side's
//! win rate per step up, with its paired 95% interval as a whisker. A stat
//! whose steps were not taken is listed without bars. At most [`RANKED`]
//! rows: beyond, the title says how many of how many stats are shown (every
//! stat is in sensitivity.csv), so the chart's size is bounded whatever the
//! number of stats and sides.

use plotters::element::{ErrorBar, Rectangle};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::Color;

use super::ranked::{self, BOTTOM, TOP, WIDTH};
use super::style::{render_png, series_colour, text, MAX_SIDE, TICK_SIZE};
use crate::report::error::ReportError;
use crate::report::labels::{side_names, truncate};
use crate::report::model::SensitivityModel;
use crate::report::names::SENSITIVITY_PNG;

/// Most stats the chart ranks.
pub(crate) const RANKED: usize = 40;
/// Height of a row: a base plus a bar per side.
const ROW_BASE: u32 = 12;
const ROW_PER_SIDE: u32 = 10;
const LABEL_WIDTH: u32 = 440;
/// Title, subtitle and legend; axis and its title.
/// Longest stat label, in characters.
const MAX_LABEL_CHARS: usize = 56;

/// Renders the chart.
pub(crate) fn render(m: &SensitivityModel) -> Result<Vec<u8>, ReportError> {
    // Stats and the rule options that changed any fight, ranked together:
    // a rule option no fight reached is in summary.md, not worth a row.
    let mut all: Vec<usize> = m
        .order
        .iter()
        .chain(
            m.rule_order
                .iter()
                .filter(|&&i| m.effects[i].largest() > 0.0),
        )
        .copied()
        .collect();
    all.sort_by(|&a, &b| {
        m.effects[b]
            .largest()
            .total_cmp(&m.effects[a].largest())
            .then(m.results.stats[a].rule.cmp(&m.results.stats[b].rule))
            .then(a.cmp(&b))
    });
    let rules = all.iter().filter(|&&i| m.results.stats[i].rule).count();
    let total = all.len();
    let rows: Vec<usize> = all.into_iter().take(RANKED).collect();
    let sides = side_names(m.info);
    let n = rows.len().max(1);
    let row = ROW_BASE + ROW_PER_SIDE * sides.len() as u32;
    let height = (TOP + row * n as u32 + BOTTOM).min(MAX_SIDE);
    let reach = rows
        .iter()
        .flat_map(|&i| m.effects[i].per_step.iter().flatten())
        .flat_map(|d| [d.ci.lo.abs(), d.ci.hi.abs(), d.estimate.abs()])
        .filter(|v| v.is_finite())
        .fold(0.01f64, f64::max)
        * 1.1;
    let what = if rules > 0 {
        "stats and rule options"
    } else {
        "stats"
    };
    let title = truncate(
        &if total > rows.len() {
            format!(
                "{}: the {} of {total} {what} that move win rates most",
                m.info.name,
                rows.len()
            )
        } else if rules > 0 {
            format!(
                "{}: which stat or rule option moves the win rates most",
                m.info.name
            )
        } else {
            format!("{}: which stat moves the win rates most", m.info.name)
        },
        100,
    );
    let subtitle = truncate(
        &format!(
            "Per step up of each stat, with paired 95% intervals; unchanged: {}",
            m.results.base_label
        ),
        170,
    );
    let frame = ranked::Frame {
        title: &title,
        subtitle: &subtitle,
        sides: &sides,
        diamond: None,
        rows: n,
        reach,
        x_desc: "change in win rate per step up",
        label_width: LABEL_WIDTH,
    };
    let count = n as f64;
    render_png(SENSITIVITY_PNG, (WIDTH, height), |canvas| {
        ranked::draw(canvas, &frame, |chart| {
            // Largest on top: rank r sits at y = count − 1 − r; each side has a
            // band of the row, the first side on top.
            let y_of = |rank: usize| count - 1.0 - rank as f64;
            let band = 0.8 / sides.len() as f64;
            for k in 0..sides.len() {
                let centre = |rank: usize| y_of(rank) + 0.4 - band * (k as f64 + 0.5);
                let colour = series_colour(k);
                let bars = rows.iter().enumerate().filter_map(|(rank, &i)| {
                    let d = m.effects[i].per_step[k]?;
                    let y = centre(rank);
                    Some(Rectangle::new(
                        [(0.0, y - band * 0.35), (d.estimate, y + band * 0.35)],
                        colour.mix(0.55).filled(),
                    ))
                });
                chart.draw_series(bars)?;
                let whiskers = rows.iter().enumerate().filter_map(|(rank, &i)| {
                    let d = m.effects[i].per_step[k]?;
                    Some(ErrorBar::new_horizontal(
                        centre(rank),
                        d.ci.lo,
                        d.estimate,
                        d.ci.hi,
                        colour.filled().stroke_width(2),
                        6,
                    ))
                });
                chart.draw_series(whiskers)?;
            }
            let label = text(TICK_SIZE).pos(Pos::new(HPos::Right, VPos::Center));
            for (rank, &i) in rows.iter().enumerate() {
                let (x, y) = chart.backend_coord(&(-reach, y_of(rank)));
                let stat = &m.results.stats[i];
                let what = if m.effects[i].per_step.iter().all(Option::is_none) {
                    "not stepped".to_owned()
                } else {
                    stat.value.clone()
                };
                let text = format!("{} ({what})", truncate(&stat.label, MAX_LABEL_CHARS));
                canvas.draw_text(&text, &label, (x - 8, y))?;
            }
            Ok(())
        })
    })
}
