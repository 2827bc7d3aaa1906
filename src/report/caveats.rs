//! The caveats of a run in words (see [`crate::analysis::caveats`]), after
//! the warnings found when the scenario was loaded: the
//! lines summary.md shows under "Read this first" and the run prints on the
//! terminal, one source for both so they always say the same.

use crate::analysis::caveats::{cut_short, inert_axes, CAP_DRAWS_NOTED};
use crate::engine::Tally;
use crate::report::labels::{cell_label, fixed, RATE_DECIMALS};
use crate::report::model::Report;
use crate::results::{ScenarioInfo, Streams};

/// Most cells a caveat lists by name; the rest are counted.
const MAX_LISTED: usize = 6;

/// What the report's reader must know before its numbers: the warnings
/// found when the scenario was loaded, then what the fights showed
/// ([`found`]); one line each, Markdown inline text (plain enough for a
/// terminal). Empty when nothing.
pub(crate) fn lines(report: &Report) -> Vec<String> {
    let mut out = report.info.warnings.clone();
    out.extend(found(report));
    out
}

/// What the fights showed: draws at the round cap, axes with no effect.
pub(crate) fn found(report: &Report) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(line) = round_cap(report) {
        out.push(line);
    }
    if let Some(line) = plays_far_from_best(report) {
        out.push(line);
    }
    for axis in no_effect_axes(report) {
        out.push(format!(
            "`{}`: no effect: no fight changed (every value of this axis gave identical \
             tallies with the same dice, whatever the other axes).",
            report.info.axes[axis]
        ));
    }
    out
}

/// The cells where a side's own play is well below another it could play
/// (the play check), counted, with the first named.
fn plays_far_from_best(report: &Report) -> Option<String> {
    let plays = report.plays.as_ref()?;
    let far = plays.far_from_best();
    let first = far.first()?;
    let mut cells: Vec<usize> = far.iter().map(|a| a.cell).collect();
    cells.dedup();
    Some(format!(
        "plays far from best: in {} of {} cell{} a side's own play scores more than {} \
         below another it could play; e.g. in {}, `{}` scores {} with its own play and {} \
         with every group on {} = \"{}\" (see \"Other plays\" in summary.md).",
        cells.len(),
        report.cells.len(),
        if report.cells.len() == 1 { "" } else { "s" },
        fixed(plays.margin, 2),
        cell_label(&report.cells[first.cell]),
        report.info.sides[first.side].name,
        fixed(first.own, RATE_DECIMALS),
        fixed(first.score, RATE_DECIMALS),
        first.field,
        first.value
    ))
}

/// The axes along which no fight changed: only claimed when the cells
/// shared their random numbers, and there is more than one cell.
pub(crate) fn no_effect_axes(report: &Report) -> Vec<usize> {
    if report.info.streams != Streams::Common || report.cells.len() < 2 {
        return Vec::new();
    }
    let cells: Vec<(&[String], &Tally)> = report
        .cells
        .iter()
        .map(|c| (c.axis_values.as_slice(), &c.tally))
        .collect();
    inert_axes(&cells, report.info.axes.len())
}

/// The cells whose fights were too often cut short by the round cap, with
/// their shares, and what to do.
fn round_cap(report: &Report) -> Option<String> {
    let cells = cut_short(&report.summaries);
    let cut: Vec<(String, f64)> = cells
        .iter()
        .map(|&c| {
            (
                cell_label(&report.cells[c]),
                report.summaries[c].draws_at_cap.estimate,
            )
        })
        .collect();
    let line = round_cap_line(report.info, &cut, report.cells.len())?;
    Some(match walled_off(report, &cells) {
        Some(why) => format!("{line} {why}"),
        None => line,
    })
}

/// Why fights on a map drew at the round cap, when groups there can reach
/// no enemy by terrain (found when the scenario was loaded, see
/// [`crate::scenario::map::unreachable_groups`]): a sentence naming them,
/// for the cells of `cut` that have such groups.
fn walled_off(report: &Report, cut: &[usize]) -> Option<String> {
    let ground = report.ground?;
    let walled: Vec<usize> = cut
        .iter()
        .copied()
        .filter(|&c| ground.unreachable.get(c).is_some_and(|g| !g.is_empty()))
        .collect();
    let first = *walled.first()?;
    let groups = &ground.unreachable[first];
    let names = match groups.as_slice() {
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        [] => return None,
    };
    let verb = if groups.len() == 1 { "it" } else { "they" };
    let where_ = if report.cells.len() == 1 {
        String::new()
    } else if walled.len() == 1 {
        format!(" (in {})", cell_label(&report.cells[first]))
    } else {
        format!(
            " (in {}, and in {} more of these cells)",
            cell_label(&report.cells[first]),
            walled.len() - 1
        )
    };
    Some(format!(
        "Why{where_}: {names} can reach no enemy on the map (walls close every way), so \
         unless {verb} can shoot, nothing happens until the cap; more rounds change nothing: \
         open a way through the walls."
    ))
}

/// The "Read this first" line on draws at the round cap, shared by the
/// run's report and the exact one: `cut` holds the label and share of
/// draws at the cap of each cell above
/// [`CAP_DRAWS_NOTED`](crate::analysis::caveats::CAP_DRAWS_NOTED), of
/// `cells` cells in the report. `None` when there are none.
pub(crate) fn round_cap_line(
    info: &ScenarioInfo,
    cut: &[(String, f64)],
    cells: usize,
) -> Option<String> {
    if cut.is_empty() {
        return None;
    }
    let listed: Vec<String> = cut
        .iter()
        .take(MAX_LISTED)
        .map(|(label, share)| {
            let share = percent(*share);
            if cells == 1 {
                share
            } else {
                format!("{label} ({share})")
            }
        })
        .collect();
    let more = match cut.len().saturating_sub(MAX_LISTED) {
        0 => String::new(),
        n => format!(" and {n} more cells"),
    };
    let cap = if info.axes.iter().any(|a| a == "max_rounds") {
        "its round cap (matrix axis `max_rounds`)".to_owned()
    } else {
        format!("round {}", info.max_rounds)
    };
    let noted = CAP_DRAWS_NOTED * 100.0;
    let advice = format!(
        "the win rates describe fights cut short, not the fight: raise `max_rounds` until \
         that share (`draws_at_cap_rate` in cells.csv) is below {noted}%."
    );
    Some(if cells == 1 {
        format!(
            "Draws at the round cap: {} of the fights were still running after {cap} and \
             count as draws (more than {noted}%): {advice}",
            listed.join("")
        )
    } else {
        format!(
            "Draws at the round cap: in {} of {} cells more than {noted}% of the fights were \
             still running after {cap} and count as draws ({}{more}); there {advice}",
            cut.len(),
            cells,
            listed.join("; ")
        )
    })
}

/// A share as a percentage to one decimal (`49.2%`); never rounded to 0 or
/// 100 when it is not.
fn percent(share: f64) -> String {
    let p = share * 100.0;
    let text = format!("{p:.1}");
    match text.as_str() {
        "100.0" if share < 1.0 => "99.9%".to_owned(),
        "0.0" if share > 0.0 => "0.1%".to_owned(),
        _ => format!("{text}%"),
    }
}
