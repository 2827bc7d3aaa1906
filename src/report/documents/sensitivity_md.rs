//! `summary.md` of a sensitivity report: the question, the unchanged cell,
//! every stat ranked by its effect per step with 95% intervals, the chart,
//! the stats whose step up lowers their own side's win rate (with the
//! ruleset's reason), equivalent points, the stats not ranked (left at their
//! defaults), and the steps not taken with the reason. The ranked rows, the
//! against-their-side lines and the not-ranked line are also what `skirmish
//! sensitivity` prints ([`rows`], [`against_own_side`], [`unranked_line`]).

use std::fmt::Write as _;

use crate::analysis::sensitivity::Equivalence;
use crate::analysis::Difference;
use crate::report::labels::fixed;
use crate::report::model::SensitivityModel;
use crate::report::names::{SENSITIVITY_CSV, SENSITIVITY_PNG};
use crate::report::numbers::rate_with_interval;
use crate::report::numbers::{decimals_for, difference, difference_interval, grouped};

/// An effect and its interval: `+0.081 [+0.074, +0.088]`; `0 (no effect)`
/// when every batch gave exactly 0 (the rules never read the stat here);
/// `—` without a step.
fn effect(d: Option<Difference>) -> String {
    match d {
        None => "—".to_owned(),
        Some(d) if d.estimate == 0.0 && d.ci.lo == 0.0 && d.ci.hi == 0.0 => {
            "0 (no effect)".to_owned()
        }
        Some(d) => format!("{} {}", difference(&d), difference_interval(&d)),
    }
}

/// The header of the ranked table: rank, stat, value, steps, then one
/// column per side.
pub(crate) fn header(m: &SensitivityModel) -> Vec<String> {
    let mut h: Vec<String> = ["rank", "stat", "value", "down / up"]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    h.extend(
        m.info
            .sides
            .iter()
            .map(|s| format!("{} win rate per step", s.name)),
    );
    h
}

/// The ranked rows of the stats, largest effect first, at most `limit` of
/// them.
pub(crate) fn rows(m: &SensitivityModel, limit: usize) -> Vec<Vec<String>> {
    rows_of(m, &m.order, limit)
}

/// The ranked rows of the rule options, largest effect first, at most
/// `limit` of them.
pub(crate) fn rule_rows(m: &SensitivityModel, limit: usize) -> Vec<Vec<String>> {
    rows_of(m, &m.rule_order, limit)
}

fn rows_of(m: &SensitivityModel, order: &[usize], limit: usize) -> Vec<Vec<String>> {
    order
        .iter()
        .take(limit)
        .enumerate()
        .map(|(rank, &i)| {
            let stat = &m.results.stats[i];
            let step = |s: &Result<(usize, String), String>| {
                s.as_ref().map_or_else(|_| "—".to_owned(), |s| s.1.clone())
            };
            let mut row = vec![
                (rank + 1).to_string(),
                stat.label.clone(),
                stat.value.clone(),
                format!("{} / {}", step(&stat.down), step(&stat.up)),
            ];
            row.extend(m.effects[i].per_step.iter().map(|d| effect(*d)));
            row
        })
        .collect()
}

/// `one step up of raider attack (4 → 5) is worth about 3.8 [3.1, 4.6]
/// steps up of raider hp, on the raiders' win rate`.
pub(crate) fn equivalence(m: &SensitivityModel, e: &Equivalence) -> String {
    let stats = &m.results.stats;
    let d = decimals_for((e.ci.hi - e.ci.lo) / 2.0, 0);
    format!(
        "one step up of `{}` is worth about {} [{}, {}] steps up of `{}`, on the win rate \
         of `{}`",
        stats[e.stat].label,
        fixed(e.ratio, d),
        fixed(e.ci.lo, d),
        fixed(e.ci.hi, d),
        stats[e.reference].label,
        m.info.sides[e.side].name
    )
}

/// One line per stat whose step up lowers its own side's win rate
/// significantly, largest effect first: the effect and the ruleset's reason.
pub(crate) fn against_own_side(m: &SensitivityModel) -> Vec<String> {
    m.against_own_side
        .iter()
        .map(|&i| {
            let stat = &m.results.stats[i];
            let side = &m.info.sides[stat.side].name;
            let why = stat.contrary.clone().unwrap_or_else(|| {
                format!(
                    "the ruleset declares no reason (`skirmish rules {}`): worth a look",
                    m.info.rules
                )
            });
            format!(
                "`{}`: {} per step up on the win rate of `{side}`: {why}",
                stat.label,
                effect(m.effects[i].per_step[stat.side])
            )
        })
        .collect()
}

/// The stats left at their defaults, in one line; `None` when every stat
/// was ranked.
pub(crate) fn unranked_line(m: &SensitivityModel) -> Option<String> {
    let unranked = &m.results.unranked;
    if unranked.is_empty() {
        return None;
    }
    let list: Vec<String> = unranked
        .iter()
        .map(|(label, value)| format!("`{label}` ({value})"))
        .collect();
    Some(format!(
        "Not ranked: {} (`--all` steps and ranks the stats too; without `--written-only` \
         every rule option is): {}",
        left_at_defaults(unranked.len()),
        list.join(", ")
    ))
}

/// `14 stats the scenario leaves at their defaults`.
pub(crate) fn left_at_defaults(n: usize) -> String {
    if n == 1 {
        "1 stat the scenario leaves at its default".to_owned()
    } else {
        format!("{n} stats the scenario leaves at their defaults")
    }
}

/// `summary.md`.
pub(crate) fn render(m: &SensitivityModel) -> String {
    let info = m.info;
    let r = m.results;
    let mut md = String::new();
    let _ = writeln!(md, "# {}: which stat matters\n", info.name);
    if !info.description.is_empty() {
        let _ = writeln!(md, "{}\n", info.description);
    }
    let cells = r.run.cells.len();
    let fights: u64 = r.run.cells.iter().map(|c| c.tally.fights).sum();
    let _ = writeln!(
        md,
        "**Question.** Which stat moves each side's win rate most? Every numeric stat of \
         every unit type, as each side fields it (and of the weapons it carries), that \
         the scenario writes (every one with `--all`) is stepped one step down and one \
         step up from the unchanged cell, {}; each step \
         is a cell of its own. The effect per step is (up − down) / 2, or the one step \
         taken when the other is not, signed as a step up.\n",
        r.base_label
    );
    let _ = writeln!(
        md,
        "Rules `{}`, seed {}, {} fights per cell in {} batches, {} cells (the unchanged \
         one and {} steps): {} fights. Fights longer than {} rounds are draws. Every cell \
         draws batch *b* from the same random stream (common random numbers), so each \
         effect is a paired difference with a batch-means 95% interval (Student's t, {} \
         degrees of freedom).\n",
        info.rules,
        info.seed,
        grouped(info.fights),
        m.batches,
        grouped(cells as u64),
        grouped(cells as u64 - 1),
        grouped(fights),
        info.max_rounds,
        m.batches.saturating_sub(1),
    );
    let _ = writeln!(md, "Win rates in the unchanged cell:\n");
    for (side, p) in info.sides.iter().zip(&m.base.wins) {
        let _ = writeln!(
            md,
            "- `{}`: {}",
            side.name,
            rate_with_interval(p.estimate, &p.ci)
        );
    }
    let _ = writeln!(md, "\n## Ranking\n");
    let _ = writeln!(
        md,
        "Largest effect on any side's win rate first; a stat with no effect (the \
         rules never read it in this fight) or no step taken comes last. \
         `{SENSITIVITY_CSV}` holds the same ranking with the rank by each side, \
         and each step's own effect.\n"
    );
    let header = header(m);
    let _ = writeln!(md, "| {} |", header.join(" | "));
    let align: Vec<&str> = header
        .iter()
        .enumerate()
        .map(|(i, _)| if i == 1 { "---" } else { "---:" })
        .collect();
    let _ = writeln!(md, "|{}|", align.join("|"));
    for row in rows(m, usize::MAX) {
        let _ = writeln!(md, "| {} |", row.join(" | "));
    }
    let _ = writeln!(md, "\n![the effect of each stat]({SENSITIVITY_PNG})\n");
    if !m.rule_order.is_empty() {
        let _ = writeln!(md, "## Rule options\n");
        let _ = writeln!(
            md,
            "Which rule number matters most in this scenario: every numeric rule option of \
             `skirmish rules {}`{} stepped one step down and one step up from its value in \
             the unchanged cell (its default unless the scenario sets it), each step a cell \
             of its own, ranked as the stats are. A rule the fight never reaches shows no \
             effect: no fight changed.\n",
            info.rules,
            if m.results
                .unranked
                .iter()
                .any(|(l, _)| l.starts_with("options."))
            {
                " that the scenario writes (`--written-only`)"
            } else {
                ""
            }
        );
        let mut rule_header = header.clone();
        rule_header[1] = "rule option".to_owned();
        let _ = writeln!(md, "| {} |", rule_header.join(" | "));
        let _ = writeln!(md, "|{}|", align.join("|"));
        for row in rule_rows(m, usize::MAX) {
            let _ = writeln!(md, "| {} |", row.join(" | "));
        }
        let _ = writeln!(md);
    }
    let against = against_own_side(m);
    if !against.is_empty() {
        let _ = writeln!(md, "## Stats that work against their own side\n");
        let _ = writeln!(
            md,
            "A step up of these lowers the win rate of the side that fields them \
             (95% interval below zero); the reason is the ruleset's.\n"
        );
        for line in against {
            let _ = writeln!(md, "- {line}");
        }
        let _ = writeln!(md);
    }
    let _ = writeln!(md, "## Equivalent points\n");
    if m.equivalences.is_empty() {
        let _ = writeln!(
            md,
            "No unit type has a stat whose step up raises its side's win rate \
             significantly and another significant stat to express in its steps: no \
             equivalences to state.\n"
        );
    } else {
        let _ = writeln!(
            md,
            "Within each unit type (as one side fields it), each stat with a \
             significant effect on its side's win rate (95% interval excluding zero), \
             in steps of a reference stat whose step up raises that win rate: the \
             ruleset's health stat (hit points, or its own health) when its effect is \
             measured to within a quarter of its size; failing that, the smallest \
             positive effect among those measured that well and at least a tenth of the \
             unit type's largest; failing that, the most precise positive one. Never a \
             stat whose effect is negative or within noise. Fieller's 95% interval for \
             a ratio, from the same batches.{}\n",
            match &r.in_field {
                Some(f) => format!(
                    " Asked in `{f}` (`--in {f}`): only that stat is a reference, and a \
                     unit type whose `{f}` is not significantly positive gets none."
                ),
                None => String::new(),
            }
        );
        if !m.rule_order.is_empty() {
            let _ = writeln!(
                md,
                "A rule option, which belongs to no side, is stated on the win rate of \
                 the side its step up favours most, in steps of the reference of that \
                 side's first unit type.\n"
            );
        }
        for e in &m.equivalences {
            let _ = writeln!(md, "- {}", equivalence(m, e));
        }
        let _ = writeln!(md);
    }
    if let Some(line) = unranked_line(m) {
        let _ = writeln!(md, "## Not ranked\n\n{line}.\n");
    }
    let skipped: Vec<String> = r
        .stats
        .iter()
        .flat_map(|s| {
            [("down", &s.down), ("up", &s.up)]
                .into_iter()
                .filter_map(move |(dir, step)| {
                    step.as_ref()
                        .err()
                        .map(|why| format!("- `{}` ({}), step {dir}: {why}", s.label, s.value))
                })
        })
        .collect();
    let _ = writeln!(md, "## Steps not taken\n");
    if skipped.is_empty() {
        let _ = writeln!(md, "Every stat was stepped both ways.\n");
    } else {
        for line in skipped {
            let _ = writeln!(md, "{line}");
        }
        let _ = writeln!(md);
    }
    let _ = writeln!(
        md,
        "## What a step is\n\n\
         An integer stat steps by 1 (the ruleset may declare a larger unit, such as 5 ft), \
         within the range the ruleset declares for it; dice step their die one size along \
         d4, d6, d8, d10, d12, keeping the number of dice and the modifier (`1d8+3` → \
         `1d6+3` / `1d10+3`), and so do die sizes a ruleset keeps as integers. A value \
         that means something else (a range of 0: the weapon's default reach) is not \
         stepped from or onto. `skirmish rules {}` lists the fields.",
        info.rules
    );
    md
}
