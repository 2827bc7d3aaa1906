//! `summary.md`: the report a designer reads first. The scenario in words,
//! the results table, both charts (relative links, so it renders on any git
//! host), the ruleset's counters, and the largest effects of the matrix on
//! the first side's win rate compared with the baseline cell: only the
//! differences whose paired 95% interval excludes zero.
//!
//! Contains nothing volatile (no timings, dates, paths or thread counts).

use super::labels::{cell_label, fixed, signed, values_label, MEAN_DECIMALS, RATE_DECIMALS};
use super::{Report, CELLS_CSV, LARGEST_EFFECTS, ROUNDS_CSV, ROUNDS_PNG, WIN_RATE_PNG};
use crate::analysis::{self, Effect, Interval, Method, Proportion};
use crate::results::Streams;

/// `summary.md` as text.
pub(crate) fn render(report: &Report) -> String {
    let mut md = Markdown::default();
    scenario(&mut md, report);
    results_table(&mut md, report);
    charts(&mut md);
    counters(&mut md, report);
    largest_effects(&mut md, report);
    md.text
}

/// Lines of Markdown; every line ends with `\n`, blocks are separated by one
/// blank line.
#[derive(Default)]
struct Markdown {
    text: String,
}

impl Markdown {
    fn line(&mut self, line: impl AsRef<str>) {
        self.text.push_str(line.as_ref());
        self.text.push('\n');
    }

    fn blank(&mut self) {
        self.text.push('\n');
    }

    fn heading(&mut self, level: usize, title: &str) {
        self.line(format!("{} {title}", "#".repeat(level)));
        self.blank();
    }

    /// A table row; cells are escaped so `|` in a value cannot split it.
    fn row<S: AsRef<str>>(&mut self, cells: &[S]) {
        let cells: Vec<String> = cells.iter().map(|c| escape(c.as_ref())).collect();
        self.line(format!("| {} |", cells.join(" | ")));
    }
}

/// Escapes the characters that would break a table cell or a line.
fn escape(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

fn code(text: &str) -> String {
    format!("`{text}`")
}

fn rate_with_interval(p: &Proportion) -> String {
    format!(
        "{} {}",
        fixed(p.estimate, RATE_DECIMALS),
        interval(&p.ci, false)
    )
}

fn interval(ci: &Interval, signs: bool) -> String {
    let number = |v| {
        if signs {
            signed(v, RATE_DECIMALS)
        } else {
            fixed(v, RATE_DECIMALS)
        }
    };
    format!("[{}, {}]", number(ci.lo), number(ci.hi))
}

fn scenario(md: &mut Markdown, report: &Report) {
    let info = report.info;
    md.heading(1, &info.name);
    if !info.description.trim().is_empty() {
        md.line(info.description.trim());
        md.blank();
    }
    md.heading(2, "Scenario");
    md.line(format!("- **Ruleset:** {}", code(&info.rules)));
    md.line(format!("- **Seed:** {}", info.seed));
    match &info.precision {
        None => md.line(format!("- **Fights per cell:** {}", info.fights)),
        Some(p) => {
            let fights = report.summaries.iter().map(|s| s.fights);
            let (least, most) = (fights.clone().min().unwrap_or(0), fights.max().unwrap_or(0));
            md.line(format!(
                "- **Fights per cell:** until the 95% half-width of every win rate and of \
                 every difference from the baseline is at most {} (from {} fights, at most {} \
                 per cell, in whole batches of {}): {least} to {most}",
                p.target,
                info.fights,
                p.max_fights,
                crate::run::BATCH
            ));
            let capped: Vec<String> = report
                .cells
                .iter()
                .filter(|c| c.capped)
                .map(cell_label)
                .collect();
            if capped.is_empty() {
                md.line("  - every cell reached the target");
            } else {
                md.line(format!(
                    "  - stopped at the cap before reaching the target (column `capped`): {}",
                    capped.join("; ")
                ));
            }
        }
    }
    md.line(format!(
        "- **Random numbers:** {}",
        match info.streams {
            Streams::Common => "common: batch b of every cell shares its random stream",
            Streams::Independent => "independent streams per cell (--independent-streams)",
        }
    ));
    if info.axes.iter().any(|a| a == "max_rounds") {
        md.line(format!(
            "- **Round cap:** per cell (matrix axis `max_rounds`), at most {}; a fight still \
             running after its cell's cap is a draw",
            info.max_rounds
        ));
    } else {
        md.line(format!(
            "- **Round cap:** {} (a fight still running after round {} is a draw)",
            info.max_rounds, info.max_rounds
        ));
    }
    if info.options.is_empty() {
        md.line("- **Options in force:** the ruleset's defaults");
    } else {
        md.line("- **Options in force:**");
        for option in &info.options {
            md.line(format!("  - {}", code(option)));
        }
    }
    md.line("- **Sides:**");
    for side in &info.sides {
        md.line(format!("  - **{}**", side.name));
        for unit in &side.units {
            md.line(format!("    - {unit}"));
        }
    }
    if info.axes.is_empty() {
        md.line("- **Matrix:** none (a single cell)");
    } else {
        md.line(format!(
            "- **Matrix:** {} cells, one per combination of:",
            report.cells.len()
        ));
        for (axis, path) in info.axes.iter().enumerate() {
            let levels = super::labels::axis_levels(report.cells, axis);
            md.line(format!("  - {}: {}", code(path), levels.join(", ")));
        }
        if let Some(base) = report.cells.get(info.baseline) {
            md.line(format!("- **Baseline:** {}", cell_label(base)));
        }
    }
    md.blank();
}

fn results_table(md: &mut Markdown, report: &Report) {
    let info = report.info;
    md.heading(2, "Results");
    md.line(format!(
        "Win rates with 95% Wilson intervals; fight length in rounds (mean, median, \
         90th percentile). Every column is in [{CELLS_CSV}]({CELLS_CSV}), fight lengths \
         in [{ROUNDS_CSV}]({ROUNDS_CSV})."
    ));
    md.blank();
    let mut header = vec!["cell".to_owned()];
    header.extend(info.axes.iter().map(|a| code(a)));
    header.extend(info.sides.iter().map(|s| format!("{} win rate", s.name)));
    header.extend(["draws", "rounds (mean)", "p50", "p90"].map(str::to_owned));
    md.row(&header);
    let mut rule = vec!["---:"];
    rule.extend(info.axes.iter().map(|_| "---"));
    rule.extend(info.sides.iter().map(|_| "---"));
    rule.extend(["---:"; 4]);
    md.line(format!("|{}|", rule.join("|")));
    for (cell, s) in report.cells.iter().zip(&report.summaries) {
        let mut row = vec![cell.index.to_string()];
        row.extend(cell.axis_values.iter().cloned());
        row.extend(s.wins.iter().map(rate_with_interval));
        row.push(fixed(s.draws.estimate, RATE_DECIMALS));
        row.push(fixed(s.rounds_mean, MEAN_DECIMALS));
        row.push(s.rounds_p50.to_string());
        row.push(s.rounds_p90.to_string());
        md.row(&row);
    }
    md.blank();
}

fn charts(md: &mut Markdown) {
    md.heading(2, "Charts");
    md.line(format!("![win rate]({WIN_RATE_PNG})"));
    md.blank();
    md.line(format!("![fight length]({ROUNDS_PNG})"));
    md.blank();
}

fn counters(md: &mut Markdown, report: &Report) {
    if report.info.counters.is_empty() {
        return;
    }
    md.heading(2, "Ruleset counters");
    md.line(format!(
        "Means per fight, one column each at the end of [{CELLS_CSV}]({CELLS_CSV}):"
    ));
    md.blank();
    for counter in &report.info.counters {
        md.line(format!("- {}: {}", code(counter.name), counter.doc));
    }
    md.blank();
}

fn largest_effects(md: &mut Markdown, report: &Report) {
    md.heading(2, "Largest effects (95% interval excludes zero)");
    let base_index = report.info.baseline;
    let (Some(side), Some(base_cell), Some(base)) = (
        report.info.sides.first(),
        report.cells.get(base_index),
        report
            .summaries
            .get(base_index)
            .and_then(|s| s.wins.first()),
    ) else {
        return;
    };
    if report.cells.len() < 2 {
        md.line("The matrix has a single cell, so there is nothing to compare.");
        return;
    }
    let effects = analysis::largest_effects(
        &report.summaries,
        &report.comparisons,
        base_index,
        0,
        LARGEST_EFFECTS,
    );
    let method = match report.comparisons.first().map(|c| c.method) {
        Some(Method::BatchMeans { .. }) => {
            "Intervals are paired batch-means 95% intervals: batch b of every cell is \
             compared with batch b of the baseline (t quantile for the number of batches)"
        }
        _ => {
            "Intervals are Newcombe hybrid-score 95% intervals for independent samples \
             (too few batches to pair)"
        }
    };
    md.line(format!(
        "Change in the win rate of **{}** from the baseline, {} (win rate {}). {method}. \
         Listed: the {LARGEST_EFFECTS} largest differences whose interval excludes zero, \
         i.e. that are unlikely to be noise. Every cell's differences, with intervals, are \
         the `delta_` columns of [{CELLS_CSV}]({CELLS_CSV}).",
        side.name,
        cell_label(base_cell),
        fixed(base.estimate, RATE_DECIMALS)
    ));
    md.blank();
    if effects.is_empty() {
        md.line(
            "No cell's difference from the baseline excludes zero: every change could be noise.",
        );
        return;
    }
    md.row(&[
        "cell",
        "axis values",
        "win rate",
        "difference",
        "95% interval",
    ]);
    md.line("|---:|---|---:|---:|---|");
    for effect in &effects {
        effect_row(md, report, effect);
    }
}

fn effect_row(md: &mut Markdown, report: &Report, effect: &Effect) {
    let values = report
        .cells
        .get(effect.cell)
        .map_or_else(String::new, |c| values_label(&c.axis_values));
    md.row(&[
        effect.cell.to_string(),
        values,
        fixed(effect.win_rate, RATE_DECIMALS),
        signed(effect.difference.estimate, RATE_DECIMALS),
        interval(&effect.difference.ci, true),
    ]);
}
