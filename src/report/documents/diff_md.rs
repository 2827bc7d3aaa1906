//! `diff.md`: two reports compared, in words and as a table of every
//! (cell, side) change with its interval, linking `diff.png`.

use crate::report::labels::values_label;
use crate::report::model::Diff;
use crate::report::names::DIFF_PNG;
use crate::report::numbers;

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
            c.cell,
            values_label(&c.values).replace('|', "\\|"),
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

/// `diff.md` as text.
pub(crate) fn render(diff: &Diff) -> String {
    let moved = diff.moved().count();
    format!(
        "# {name}: report diff\n\n\
         - **Old:** {old}\n- **New:** {new}\n\n\
         Change in each side's win rate, new − old, with Newcombe's 95% interval for two \
         independent proportions. A cell *moved* when the interval excludes zero: \
         {moved} of {total} (cell, side) pairs. In the chart, solid dots moved, faint ones \
         are within noise.\n\n{table}\n![change in win rate]({DIFF_PNG})\n",
        name = diff.name,
        old = diff.old,
        new = diff.new,
        total = diff.changes.len(),
        table = table(diff, false),
    )
}
