//! The ranked "largest effects" chart: what `win_rate.png` shows when the
//! matrix has too many cells to draw each (a long axis of names, or more
//! heatmap squares than fit in [`MAX_SIDE`] pixels).
//!
//! One row per cell, the [`RANKED`] cells whose win rates moved most from
//! the baseline (largest absolute change of any side, ties by cell order),
//! largest on top; per side a dot at the change with its paired 95%
//! interval (the same intervals as the `delta_` columns of cells.csv). A
//! line at zero marks no change. With `run --exact`, a black diamond marks
//! each exact difference (cell and baseline both enumerated). Its size does
//! not depend on the number of cells.

use plotters::element::ErrorBar;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::Color;

use super::ranked::{self, BOTTOM, TOP, WIDTH};
use super::style::{draw_diamond, render_png, series_colour, text, DIAMOND, MAX_SIDE, TICK_SIZE};
use crate::report::error::ReportError;
use crate::report::labels::{cell_label, fixed, side_names, truncate};
use crate::report::model::Report;

/// How many cells the chart ranks.
pub(crate) const RANKED: usize = 40;
/// Height of one cell's row, width of the chart and of its label column.
const ROW: u32 = 30;
const LABEL_WIDTH: u32 = 460;
/// Longest cell label, in characters.
const MAX_LABEL_CHARS: usize = 60;

/// The cells to show, largest change first.
fn ranked(report: &Report) -> Vec<usize> {
    let size = |i: usize| {
        report.comparisons[i]
            .win_rates
            .iter()
            .map(|d| d.estimate.abs())
            .fold(0.0, f64::max)
    };
    let mut cells: Vec<usize> = (0..report.cells.len())
        .filter(|&i| i != report.info.baseline)
        .collect();
    cells.sort_by(|&a, &b| size(b).total_cmp(&size(a)).then(a.cmp(&b)));
    cells.truncate(RANKED);
    cells
}

/// Cell `i`'s exact win rate of side `k` minus the baseline's, when both
/// were enumerated (`run --exact`).
fn exact_difference(report: &Report, i: usize, k: usize) -> Option<f64> {
    let cell = report.exact_of(i)?.wins.get(k)?;
    let base = report.exact_of(report.info.baseline)?.wins.get(k)?;
    Some(cell - base)
}

/// Renders the ranked chart as `file`.
pub(crate) fn render(report: &Report, file: &'static str) -> Result<Vec<u8>, ReportError> {
    let cells = ranked(report);
    let sides = side_names(report.info);
    let n = cells.len().max(1);
    let height = (TOP + ROW * n as u32 + BOTTOM).min(MAX_SIDE);
    let exact = |i: usize, k: usize| exact_difference(report, i, k);
    let reach = cells
        .iter()
        .flat_map(|&i| &report.comparisons[i].win_rates)
        .flat_map(|d| [d.ci.lo.abs(), d.ci.hi.abs(), d.estimate.abs()])
        .chain(
            cells
                .iter()
                .flat_map(|&i| (0..sides.len()).filter_map(move |k| exact(i, k)))
                .map(f64::abs),
        )
        .filter(|v| v.is_finite())
        .fold(0.01f64, f64::max)
        * 1.1;
    let any_exact = cells
        .iter()
        .any(|&i| (0..sides.len()).any(|k| exact(i, k).is_some()));
    let title = truncate(
        &format!(
            "{}: the {} of {} cells whose win rates moved most",
            report.info.name,
            cells.len(),
            report.cells.len()
        ),
        100,
    );
    let baseline = report
        .cells
        .get(report.info.baseline)
        .map_or_else(String::new, cell_label);
    let subtitle = truncate(
        &format!(
            "Change from the baseline ({baseline}) with paired 95% intervals; \
             every cell is in cells.csv (delta_ columns)."
        ),
        170,
    );
    let frame = ranked::Frame {
        title: &title,
        subtitle: &subtitle,
        sides: &sides,
        diamond: any_exact.then_some("exact (enumerated)"),
        rows: n,
        reach,
        x_desc: "change in win rate from the baseline",
        label_width: LABEL_WIDTH,
    };
    let rows = n as f64;
    render_png(file, (WIDTH, height), |canvas| {
        ranked::draw(canvas, &frame, |chart| {
            // Largest on top: rank r sits at y = rows − 1 − r.
            let y_of = |rank: usize| rows - 1.0 - rank as f64;
            for k in 0..sides.len() {
                let spread = 0.5 / sides.len() as f64;
                let offset = (k as f64 - (sides.len() as f64 - 1.0) / 2.0) * spread;
                let style = series_colour(k).filled().stroke_width(2);
                let bars = cells.iter().enumerate().filter_map(|(rank, &i)| {
                    let d = report.comparisons[i].win_rates.get(k)?;
                    Some(ErrorBar::new_horizontal(
                        y_of(rank) - offset,
                        d.ci.lo,
                        d.estimate,
                        d.ci.hi,
                        style,
                        8,
                    ))
                });
                chart.draw_series(bars)?;
                for (rank, &i) in cells.iter().enumerate() {
                    if let Some(d) = exact(i, k) {
                        let at = chart.backend_coord(&(d, y_of(rank) - offset));
                        draw_diamond(canvas, at, DIAMOND - 1)?;
                    }
                }
            }
            let label = text(TICK_SIZE).pos(Pos::new(HPos::Right, VPos::Center));
            for (rank, &i) in cells.iter().enumerate() {
                let (x, y) = chart.backend_coord(&(-reach, y_of(rank)));
                let cell = &report.cells[i];
                let first = report.summaries[i].wins.first().map_or(0.0, |p| p.estimate);
                let text = format!(
                    "{} ({})",
                    truncate(&cell_label(cell), MAX_LABEL_CHARS),
                    fixed(first, 2)
                );
                canvas.draw_text(&text, &label, (x - 8, y))?;
            }
            Ok(())
        })
    })
}
