//! `summary.md` of an exact report: the scenario in words, what an exact
//! answer is, how many of its digits are right (the rounding bound in plain
//! words, and the rule that sets the decimals of the CSV files), a "Read
//! this first" section when the fights are often cut short by the round cap
//! (the run's wording), the results table (one row per cell), the exact
//! differences from the baseline cell, the fight-length chart and the
//! ruleset's counters.
//!
//! Numbers here are rounded for people (4 decimals, means 3, more when a
//! value that is not 0 or 1 would print as one: [`numbers::exact`]); the
//! CSV files have every value to the report's decimals.

use std::fmt::Write as _;

use crate::analysis::caveats::CAP_DRAWS_NOTED;
use crate::report::caveats::round_cap_line;
use crate::report::labels::{
    axis_levels_of, cell_label_of, fixed, scientific, signed, values_label, MEAN_DECIMALS,
    RATE_DECIMALS,
};
use crate::report::model::ExactModel;
use crate::report::names::{CELLS_CSV, ROUNDS_CSV, ROUNDS_PNG};
use crate::report::numbers::{self, grouped};
use crate::report::variants::varying;
use crate::results::{ScenarioInfo, Setup};

/// `summary.md` as text.
pub(crate) fn render(m: &ExactModel) -> String {
    let mut md = String::new();
    scenario(&mut md, m);
    read_this_first(&mut md, m);
    exactness(&mut md, m);
    results(&mut md, m);
    differences(&mut md, m);
    chart(&mut md);
    counters(&mut md, m);
    md
}

fn code(text: &str) -> String {
    format!("`{text}`")
}

/// A table row; cells are escaped so `|` in a value cannot split it.
fn row<S: AsRef<str>>(md: &mut String, cells: &[S]) {
    let cells: Vec<String> = cells
        .iter()
        .map(|c| c.as_ref().replace('|', "\\|").replace('\n', " "))
        .collect();
    let _ = writeln!(md, "| {} |", cells.join(" | "));
}

/// A probability of cell `i` for people.
fn probability(m: &ExactModel, i: usize, value: f64) -> String {
    numbers::exact(
        value,
        m.cells[i].answer.error(),
        RATE_DECIMALS,
        m.decimals.max(RATE_DECIMALS),
    )
}

fn scenario(md: &mut String, m: &ExactModel) {
    let info = m.info;
    let _ = writeln!(md, "# {} (exact)\n", info.name);
    if !info.description.trim().is_empty() {
        let _ = writeln!(md, "{}\n", info.description.trim());
    }
    md.push_str("## Scenario\n\n");
    let _ = writeln!(md, "- **Ruleset:** {}", code(&info.rules));
    if info.axes.iter().any(|a| a == "max_rounds") {
        let _ = writeln!(
            md,
            "- **Round cap:** per cell (matrix axis `max_rounds`), at most {}; a fight still \
             running after its cell's cap is a draw",
            info.max_rounds
        );
    } else {
        let _ = writeln!(
            md,
            "- **Round cap:** {} (a fight still running after round {} is a draw)",
            info.max_rounds, info.max_rounds
        );
    }
    let cells: Vec<(usize, &[String])> = m
        .cells
        .iter()
        .map(|c| (c.index, c.axis_values.as_slice()))
        .collect();
    if info.options.is_empty() {
        md.push_str("- **Options in force:** the ruleset's defaults\n");
    } else {
        md.push_str("- **Options in force:**\n");
        for option in &info.options {
            // Matched by name, as in the run's summary.
            let name = option.split(" = ").next();
            setup_line(md, info, &cells, option, "  ", code, |setup| {
                setup
                    .options
                    .iter()
                    .find(|line| line.split(" = ").next() == name)
                    .map(String::as_str)
            });
        }
    }
    md.push_str("- **Sides:**\n");
    for (s, side) in info.sides.iter().enumerate() {
        let _ = writeln!(md, "  - **{}**", side.name);
        for (g, unit) in side.units.iter().enumerate() {
            setup_line(md, info, &cells, unit, "    ", str::to_owned, |setup| {
                setup
                    .sides
                    .get(s)
                    .and_then(|side| side.units.get(g))
                    .map(String::as_str)
            });
        }
    }
    let n = m.cells.len();
    if info.axes.is_empty() {
        md.push_str("- **Matrix:** none (a single cell)\n");
    } else {
        let of = match info.setups.len() {
            0 => String::new(),
            all => format!(" of the matrix's {}", grouped(all as u64)),
        };
        let _ = writeln!(
            md,
            "- **Cells enumerated:** {}{of}, with these values of its axes:",
            grouped(n as u64)
        );
        for (axis, path) in info.axes.iter().enumerate() {
            let _ = writeln!(
                md,
                "  - {}: {}",
                code(path),
                axis_levels_of(m.cells.iter().map(|c| &c.axis_values), axis).join(", ")
            );
        }
        match m.baseline {
            Some(b) => {
                let c = &m.cells[b];
                let _ = writeln!(
                    md,
                    "- **Baseline:** {}",
                    cell_label_of(c.index, &c.axis_values)
                );
            }
            None => {
                let _ = writeln!(
                    md,
                    "- **Baseline:** cell {} (not enumerated here)",
                    info.baseline
                );
            }
        }
    }
    md.push('\n');
}

/// One line of the base scenario (`base`, an option or a unit group) as a
/// list item at `indent`, `show`n, followed by how the enumerated `cells`
/// differ on it (`line_of` their setup, see [`varying`]); when they all
/// agree on a line other than the base scenario's (a selection of cells
/// sharing an axis value), that line.
fn setup_line<'a>(
    md: &mut String,
    info: &'a ScenarioInfo,
    cells: &[(usize, &'a [String])],
    base: &str,
    indent: &str,
    show: impl Fn(&str) -> String,
    line_of: impl Fn(&'a Setup) -> Option<&'a str>,
) {
    let lines: Vec<Option<&str>> = cells
        .iter()
        .map(|&(i, _)| info.setups.get(i).and_then(&line_of))
        .collect();
    if let Some(&Some(first)) = lines.first() {
        if first != base && lines.iter().all(|l| *l == Some(first)) {
            let _ = writeln!(
                md,
                "{indent}- {} in the base scenario; in every cell here: {}",
                show(base),
                show(first)
            );
            return;
        }
    }
    let per_cell = varying(info, cells, line_of);
    let _ = writeln!(md, "{indent}- {}{}", show(base), per_cell.intro());
    for line in per_cell.lines(&format!("{indent}  "), &show) {
        let _ = writeln!(md, "{line}");
    }
}

/// The warnings found when the scenario was loaded, and the draws at the
/// round cap, before the numbers they qualify.
fn read_this_first(md: &mut String, m: &ExactModel) {
    let cut: Vec<(String, f64)> = m
        .cells
        .iter()
        .filter(|c| c.answer.draws_at_cap > CAP_DRAWS_NOTED)
        .map(|c| {
            (
                cell_label_of(c.index, &c.axis_values),
                c.answer.draws_at_cap,
            )
        })
        .collect();
    let mut lines = m.info.warnings.clone();
    lines.extend(round_cap_line(m.info, &cut, m.cells.len()));
    if lines.is_empty() {
        return;
    }
    md.push_str("## Read this first\n\n");
    for line in lines {
        let _ = writeln!(md, "- {line}");
    }
    md.push('\n');
}

fn exactness(md: &mut String, m: &ExactModel) {
    md.push_str("## What an exact answer is\n\n");
    md.push_str(
        "Each cell's fight was enumerated, not sampled: every outcome of every die the rules \
         roll, each with its probability, run through the same rules code that `skirmish run` \
         samples (the same fight loop, rules, options, tactics and targeting, and the same \
         random choices of the engine: initiative and its ties, random targets, the opening \
         side). Fight states that are equal are merged, so a long fight costs its distinct \
         states, not its paths. There is no sampling error, no seed and no interval: these \
         are the probabilities of the scenario as written.\n\n",
    );
    // Stopping short of the cap is part of the answer: say where.
    let stopped: Vec<u32> = m
        .cells
        .iter()
        .filter(|c| c.answer.unfinished > 0.0)
        .map(|c| c.answer.last_round)
        .collect();
    if let (Some(lo), Some(hi)) = (stopped.iter().min(), stopped.iter().max()) {
        let after = if lo == hi {
            format!("round {lo}")
        } else {
            format!("rounds {lo} to {hi}")
        };
        let _ = writeln!(
            md,
            "In {} of the {} cells the enumeration stopped following the fights after {after}, \
             before the round cap, once fewer than 2⁻¹⁰⁰ (about 8·10⁻³¹) of them were still \
             running: those count in no outcome, so a probability may be low by that much \
             (part of its `error`), and expected values count what they did up to then.\n",
            stopped.len(),
            m.cells.len()
        );
    }
    md.push_str("## How many digits are right\n\n");
    let _ = writeln!(
        md,
        "The answers are sums of floating-point numbers, and their rounding error is bounded: \
         no value printed here is off by more than {} (a probability by at most its cell's \
         `error` in [{CELLS_CSV}]({CELLS_CSV}); an expected value by its relative rounding \
         error times the value; a difference by the sum of its two terms' bounds). The CSV \
         files print every value to {} decimals: the most decimals, at most 12, whose last \
         place is still at least ten times that bound. Every digit printed is right, but \
         the last, which may be one off when the exact value lies that close to a rounding \
         boundary. The tables below round further, to {RATE_DECIMALS} decimals (means \
         {MEAN_DECIMALS}), with more digits where a value that is not 0 or 1 would print as \
         one.\n",
        scientific(m.error),
        m.decimals
    );
}

fn results(md: &mut String, m: &ExactModel) {
    let info = m.info;
    md.push_str("## Results\n\n");
    let _ = writeln!(
        md,
        "Exact probabilities; fight length in rounds (mean, median, 90th percentile); the \
         fight states enumerated. Every column is in [{CELLS_CSV}]({CELLS_CSV}), fight \
         lengths in [{ROUNDS_CSV}]({ROUNDS_CSV}).\n"
    );
    let mut header = vec!["cell".to_owned()];
    header.extend(info.axes.iter().map(|a| code(a)));
    header.extend(info.sides.iter().map(|s| format!("{} win rate", s.name)));
    header.extend(
        [
            "draws",
            "draws at cap",
            "rounds (mean)",
            "p50",
            "p90",
            "states",
        ]
        .map(str::to_owned),
    );
    row(md, &header);
    let mut rule = vec!["---:"];
    rule.extend(info.axes.iter().map(|_| "---"));
    rule.extend(info.sides.iter().map(|_| "---:"));
    rule.extend(["---:"; 6]);
    let _ = writeln!(md, "|{}|", rule.join("|"));
    for (i, cell) in m.cells.iter().enumerate() {
        let a = &cell.answer;
        let mut cells = vec![cell.index.to_string()];
        cells.extend(cell.axis_values.iter().cloned());
        cells.extend(a.wins[..a.sides].iter().map(|&w| probability(m, i, w)));
        cells.push(probability(m, i, a.draws));
        cells.push(probability(m, i, a.draws_at_cap));
        cells.push(fixed(m.rounds_mean[i], MEAN_DECIMALS));
        cells.push(m.rounds_p50[i].to_string());
        cells.push(m.rounds_p90[i].to_string());
        cells.push(grouped(a.states));
        row(md, &cells);
    }
    md.push('\n');
}

fn differences(md: &mut String, m: &ExactModel) {
    md.push_str("## Differences from the baseline\n\n");
    let Some(b) = m.baseline else {
        let _ = writeln!(
            md,
            "The baseline cell (cell {}) is not among the cells enumerated, so there is \
             nothing to compare with; enumerate it too (`--cell {}`) for the differences.\n",
            m.info.baseline, m.info.baseline
        );
        return;
    };
    if m.cells.len() < 2 {
        md.push_str("Only the baseline cell was enumerated, so there is nothing to compare.\n\n");
        return;
    }
    let base = &m.cells[b];
    let _ = writeln!(
        md,
        "Each cell's exact win rates and mean fight length minus those of the baseline, {}. \
         Nothing here is noise: a difference of 0 means none at all, within the rounding \
         bound. Also the `delta_` columns of [{CELLS_CSV}]({CELLS_CSV}).\n",
        cell_label_of(base.index, &base.axis_values)
    );
    let mut header = vec!["cell".to_owned(), "axis values".to_owned()];
    header.extend(m.info.sides.iter().map(|s| format!("{} win rate", s.name)));
    header.push("rounds (mean)".to_owned());
    row(md, &header);
    let mut rule = vec!["---:", "---"];
    rule.extend(m.info.sides.iter().map(|_| "---:"));
    rule.push("---:");
    let _ = writeln!(md, "|{}|", rule.join("|"));
    for (i, cell) in m.cells.iter().enumerate() {
        if i == b {
            continue;
        }
        let error = cell.answer.error() + base.answer.error();
        let mut cells = vec![cell.index.to_string(), values_label(&cell.axis_values)];
        for s in 0..m.info.sides.len() {
            let d = m.delta_win(i, s).unwrap_or(0.0);
            cells.push(numbers::exact_difference(
                d,
                error,
                RATE_DECIMALS,
                m.decimals.max(RATE_DECIMALS),
            ));
        }
        let d = m.delta_rounds(i).unwrap_or(0.0);
        cells.push(signed(d, MEAN_DECIMALS));
        row(md, &cells);
    }
    md.push('\n');
}

fn chart(md: &mut String) {
    md.push_str("## Chart\n\n");
    let _ = writeln!(md, "![fight length]({ROUNDS_PNG})\n");
}

fn counters(md: &mut String, m: &ExactModel) {
    if m.info.counters.is_empty() {
        return;
    }
    md.push_str("## Ruleset counters\n\n");
    let _ = writeln!(
        md,
        "Expected values per fight, one column each in [{CELLS_CSV}]({CELLS_CSV}):\n"
    );
    for counter in &m.info.counters {
        let _ = writeln!(md, "- {}: {}", code(counter.name), counter.doc);
    }
    md.push('\n');
}
