//! `diff.md`: two reports compared, in words and as a table of every
//! (cell, side) change with its interval, linking `diff.png`; then what
//! changed in the scenario (axis values added or removed, lines of the
//! Scenario section that differ) and the cells only one report has.

use std::fmt::Write as _;

use crate::report::labels::values_label;
use crate::report::model::{Diff, LoneCell};
use crate::report::names::DIFF_PNG;
use crate::report::numbers;

/// A cell's number: `3`, or `2 → 3` when the old report numbered it 2.
pub(crate) fn cell_number(old: usize, new: usize) -> String {
    if old == new {
        new.to_string()
    } else {
        format!("{old} → {new}")
    }
}

/// Text for a Markdown table cell.
fn escaped(text: &str) -> String {
    text.replace('|', "\\|")
}

/// The table of changes as Markdown lines (also printed by the CLI).
pub fn table(diff: &Diff, only_moved: bool) -> String {
    let mut text = String::from(
        "| cell | axis values | side | old | new | change | 95% interval | moved? |\n\
         |---:|---|---|---:|---:|---:|---|---|\n",
    );
    for c in diff.changes.iter().filter(|c| c.moved || !only_moved) {
        // For people: each number to the precision its interval supports
        // (diff.csv keeps fixed decimals).
        text.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
            cell_number(c.old_cell, c.cell),
            escaped(&values_label(&c.values)),
            c.side,
            numbers::rate(c.old, &c.old_ci),
            numbers::rate(c.new, &c.new_ci),
            numbers::difference(&c.difference),
            numbers::difference_interval(&c.difference),
            if c.moved { "yes" } else { "no" },
        ));
    }
    text
}

/// The cells only one report has, as a table with their win rates.
fn lone_cells(md: &mut String, diff: &Diff, title: &str, cells: &[LoneCell]) {
    if cells.is_empty() {
        return;
    }
    let _ = writeln!(md, "## Cells only in the {title} report\n");
    let sides: String = diff
        .sides
        .iter()
        .map(|s| format!(" {s} win rate |"))
        .collect();
    let _ = writeln!(md, "| cell | axis values | fights |{sides}");
    let _ = writeln!(md, "|---:|---|---:|{}", "---|".repeat(diff.sides.len()));
    for c in cells {
        let rates: String = c
            .wins
            .iter()
            .map(|p| format!(" {} |", numbers::rate_with_interval(p.estimate, &p.ci)))
            .collect();
        let _ = writeln!(
            md,
            "| {} | {} | {} |{rates}",
            c.cell,
            escaped(&values_label(&c.values)),
            numbers::grouped(c.fights)
        );
    }
    let _ = writeln!(md);
}

/// "What changed in the scenario", as far as the two reports record it.
fn scenario_changes(md: &mut String, diff: &Diff) {
    let s = &diff.scenario;
    let _ = writeln!(md, "## What changed in the scenario\n");
    if s.values.is_empty() && s.added.is_empty() && s.removed.is_empty() {
        let _ = writeln!(
            md,
            "Nothing the reports record: the same values on every axis and the same \
             Scenario section in summary.md. A report records the ruleset, seed, fights, \
             round cap, options and each side's units in brief, not every field: a \
             change elsewhere shows only in the win rates.\n"
        );
        return;
    }
    let list = |values: &[String]| {
        values
            .iter()
            .map(|v| format!("`{v}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    for v in &s.values {
        let mut parts = Vec::new();
        if !v.added.is_empty() {
            parts.push(format!("added {}", list(&v.added)));
        }
        if !v.removed.is_empty() {
            parts.push(format!("removed {}", list(&v.removed)));
        }
        let _ = writeln!(md, "- axis `{}`: {}", v.axis, parts.join("; "));
    }
    for line in &s.removed {
        let _ = writeln!(md, "- old only: {line}");
    }
    for line in &s.added {
        let _ = writeln!(md, "- new only: {line}");
    }
    let _ = writeln!(
        md,
        "\nAxis values from cells.csv; the other lines from the Scenario section of each \
         summary.md (its bullets, nested ones after their parents), which records the \
         ruleset, seed, fights, round cap, options and each side's units in brief, not \
         every field.\n"
    );
}

/// `diff.md` as text.
pub(crate) fn render(diff: &Diff) -> String {
    let moved = diff.moved().count();
    let shared = diff.changes.len() / diff.sides.len().max(1);
    let mut md = format!(
        "# {name}: report diff\n\n\
         - **Old:** {old}\n- **New:** {new}\n\n\
         Change in each side's win rate, new − old, with Newcombe's 95% interval for two \
         independent proportions, in the {shared} cell{s} both reports have (matched by \
         their axis values; numbered as in the new report, `old → new` where the old one \
         numbered it otherwise). A cell *moved* when the interval excludes zero: \
         {moved} of {total} (cell, side) pairs. In the chart, solid dots moved, faint ones \
         are within noise.\n\n{table}\n![change in win rate]({DIFF_PNG})\n\n",
        name = diff.name,
        old = diff.old,
        new = diff.new,
        s = if shared == 1 { "" } else { "s" },
        total = diff.changes.len(),
        table = table(diff, false),
    );
    scenario_changes(&mut md, diff);
    lone_cells(&mut md, diff, "old", &diff.only_old);
    lone_cells(&mut md, diff, "new", &diff.only_new);
    md.truncate(md.trim_end().len());
    md.push('\n');
    md
}
