//! `summary.md`: the report a designer reads first. The scenario in words,
//! the results table, both charts (relative links, so it renders on any git
//! host), the ruleset's counters, and the largest effects of the matrix on
//! the first side's win rate compared with the baseline cell: only the
//! differences whose paired 95% interval excludes zero. When the run has
//! caveats ([`crate::report::caveats`]: fights cut short by the round cap,
//! axes that changed no fight), a "Read this first" section lists them
//! before the results.
//!
//! Contains nothing volatile (no timings, dates, paths or thread counts).

use crate::analysis::{self, Effect, Method, Proportion};
use crate::report::caveats;
use crate::report::labels::{self, cell_label, values_label, RATE_DECIMALS};
use crate::report::model::{Report, LARGEST_EFFECTS};
use crate::report::names::{
    CELLS_CSV, FALLS_PNG, FIGHTS_MD, MAP_PNG, PLAYS_CSV, ROUNDS_CSV, ROUNDS_PNG, WIN_RATE_PNG,
};
use crate::report::numbers::{self, grouped};
use crate::report::variants::{self, Variants};
use crate::results::Streams;

/// `summary.md` as text.
pub(crate) fn render(report: &Report) -> String {
    let mut md = Markdown::default();
    scenario(&mut md, report);
    read_this_first(&mut md, report);
    results_table(&mut md, report);
    charts(&mut md);
    the_map(&mut md, report);
    fights(&mut md, report);
    counters(&mut md, report);
    largest_effects(&mut md, report);
    other_plays(&mut md, report);
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

/// Numbers here are for people: each to the precision its own interval
/// supports ([`numbers`]); `cells.csv` has them all to fixed decimals.
fn rate_with_interval(p: &Proportion) -> String {
    numbers::rate_with_interval(p.estimate, &p.ci)
}

/// A link to the fights told turn by turn, when the report has some.
fn fights(md: &mut Markdown, report: &Report) {
    let Some(first) = report.fights.first() else {
        return;
    };
    let kinds: Vec<String> = report
        .fights
        .iter()
        .map(|f| match f.fight {
            Some(k) => format!("{} (fight {k})", f.pick),
            None => format!("{} (none)", f.pick),
        })
        .collect();
    md.heading(2, "Watch a fight");
    md.line(format!(
        "Fights of cell {} told turn by turn, every die shown: [{}]({FIGHTS_MD}).",
        first.cell,
        kinds.join(", ")
    ));
    md.blank();
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
        None => md.line(format!("- **Fights per cell:** {}", grouped(info.fights))),
        Some(p) => {
            let fights = report.summaries.iter().map(|s| s.fights);
            let (least, most) = (fights.clone().min().unwrap_or(0), fights.max().unwrap_or(0));
            md.line(format!(
                "- **Fights per cell:** until the 95% half-width of every win rate and of \
                 every difference from the baseline is at most {} (from {} fights, at most {} \
                 per cell, in whole batches of {}): {} to {}",
                p.target,
                grouped(info.fights),
                grouped(p.max_fights),
                crate::run::Budget::Precision {
                    fights: info.fights,
                    target: p.target,
                    max_fights: p.max_fights,
                }
                .batch(),
                grouped(least),
                grouped(most)
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
            // Matched by name: a cell may list an option the base scenario
            // does not (a quiet one its matrix writes, see `Field::quiet`).
            let name = option.split(" = ").next();
            let per_cell = varying(report, |setup| {
                setup
                    .options
                    .iter()
                    .find(|line| line.split(" = ").next() == name)
                    .map(String::as_str)
            });
            md.line(format!("  - {}{}", code(option), per_cell.intro()));
            for line in per_cell.lines("    ", code) {
                md.line(line);
            }
        }
    }
    md.line("- **Sides:**");
    for (s, side) in info.sides.iter().enumerate() {
        md.line(format!("  - **{}**", side.name));
        for (g, unit) in side.units.iter().enumerate() {
            let per_cell = varying(report, |setup| {
                setup
                    .sides
                    .get(s)
                    .and_then(|side| side.units.get(g))
                    .map(String::as_str)
            });
            md.line(format!("    - {unit}{}", per_cell.intro()));
            for line in per_cell.lines("      ", str::to_owned) {
                md.line(line);
            }
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
            let levels = crate::report::labels::axis_levels(report.cells, axis);
            md.line(format!("  - {}: {}", code(path), levels.join(", ")));
        }
        if let Some(base) = report.cells.get(info.baseline) {
            md.line(format!("- **Baseline:** {}", cell_label(base)));
        }
    }
    md.blank();
}

/// The run's caveats, if any, before the numbers they qualify.
fn read_this_first(md: &mut Markdown, report: &Report) {
    let lines = caveats::lines(report);
    if lines.is_empty() {
        return;
    }
    md.heading(2, "Read this first");
    for line in lines {
        md.line(format!("- {line}"));
    }
    md.blank();
}

/// How the cells' `line_of` their setup differs, if it does (see
/// [`variants::varying`]); nothing without a setup per cell.
fn varying<'a>(
    report: &'a Report,
    line_of: impl Fn(&'a crate::results::Setup) -> Option<&'a str>,
) -> Variants {
    if report.info.setups.len() != report.cells.len() {
        return Variants::none();
    }
    let cells: Vec<(usize, &[String])> = report
        .cells
        .iter()
        .enumerate()
        .map(|(i, c)| (i, c.axis_values.as_slice()))
        .collect();
    variants::varying(report.info, &cells, line_of)
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
    let exact = !report.exact.is_empty();
    if exact {
        exact_note(md, report);
    }
    let mut header = vec!["cell".to_owned()];
    header.extend(info.axes.iter().map(|a| code(a)));
    header.extend(info.sides.iter().map(|s| format!("{} win rate", s.name)));
    if exact {
        let sides: Vec<&str> = info.sides.iter().map(|s| s.name.as_str()).collect();
        header.push(format!("exact ({})", sides.join(" / ")));
    }
    header.extend(["draws", "rounds (mean)", "p50", "p90"].map(str::to_owned));
    md.row(&header);
    let mut rule = vec!["---:"];
    rule.extend(info.axes.iter().map(|_| "---"));
    rule.extend(info.sides.iter().map(|_| "---"));
    if exact {
        rule.push("---");
    }
    rule.extend(["---:"; 4]);
    md.line(format!("|{}|", rule.join("|")));
    for (i, (cell, s)) in report.cells.iter().zip(&report.summaries).enumerate() {
        let mut row = vec![cell.index.to_string()];
        row.extend(cell.axis_values.iter().cloned());
        row.extend(s.wins.iter().map(rate_with_interval));
        if exact {
            row.push(match report.exact_of(i) {
                Some(e) => e
                    .wins
                    .iter()
                    .map(|&w| {
                        numbers::exact(
                            w,
                            e.error,
                            RATE_DECIMALS,
                            report.exact_decimals.max(RATE_DECIMALS),
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(" / "),
                None => "—".to_owned(),
            });
        }
        row.push(numbers::share(&s.draws));
        row.push(numbers::mean(
            s.rounds_mean,
            analysis::rounds_mean_half_width(s),
        ));
        row.push(s.rounds_p50.to_string());
        row.push(s.rounds_p90.to_string());
        md.row(&row);
    }
    md.blank();
}

/// Most cells not enumerated that the note on exact win rates names.
const MAX_NOT_ENUMERATED: usize = 6;

/// With `run --exact`: how many cells were enumerated, what that means, and
/// why the others were not.
fn exact_note(md: &mut Markdown, report: &Report) {
    let cells = report.cells.len();
    let solved = (0..cells).filter(|&i| report.exact_of(i).is_some()).count();
    md.line(format!(
        "Exact win rates (`--exact`, column `exact`): {solved} of {cells} cell{} enumerated: \
         every outcome of every die, through the same rules code, so with no sampling error \
         (`exact_win_rate_<side>` in [{CELLS_CSV}]({CELLS_CSV}), to the {} decimals their \
         rounding allows). The sampled win rates' intervals should hold them about 95% of \
         the time; on [{WIN_RATE_PNG}]({WIN_RATE_PNG}) they are black diamonds.",
        if cells == 1 { "" } else { "s" },
        report.exact_decimals
    ));
    let refused: Vec<(usize, &String)> = report
        .exact
        .iter()
        .enumerate()
        .filter_map(|(i, e)| e.as_ref().err().map(|why| (i, why)))
        .collect();
    if !refused.is_empty() {
        md.blank();
        md.line(
            "Not enumerated, too large for the limits of `--max-states` and \
             `--max-outcomes` (column `exact`: —):",
        );
        md.blank();
        for (i, why) in refused.iter().take(MAX_NOT_ENUMERATED) {
            md.line(format!("- {}: {why}", cell_label(&report.cells[*i])));
        }
        if refused.len() > MAX_NOT_ENUMERATED {
            md.line(format!(
                "- … and {} more cells",
                refused.len() - MAX_NOT_ENUMERATED
            ));
        }
    }
    md.blank();
}

/// Most cells the "Other plays" table lists; the rest are in plays.csv.
const MAX_PLAYS_LISTED: usize = 20;

/// The play check (`run` without `--no-play-check`): what was tried, and
/// each cell where a side's own play is more than the margin below another
/// with 95% confidence, naming the better play.
fn other_plays(md: &mut Markdown, report: &Report) {
    let Some(plays) = &report.plays else {
        return;
    };
    let margin = labels::fixed(plays.margin, 2);
    md.heading(2, "Other plays");
    md.line(format!(
        "In every cell, each side was also fought with all its groups on each other \
         `tactic` and `target`, the other sides keeping their plays ({} fights each, on the \
         same dice as the side's own play; every row in [{PLAYS_CSV}]({PLAYS_CSV})). A \
         side's score is its win rate plus its share of the draws.",
        grouped(plays.fights)
    ));
    md.blank();
    let far = plays.far_from_best();
    if far.is_empty() {
        md.line(format!(
            "No side's own play is more than {margin} below one of these in any cell (95% \
             confidence)."
        ));
        md.blank();
    } else {
        md.line(format!(
            "Cells where a side's own play scores more than {margin} below another it could \
             play (the lower end of the gain's 95% interval is above {margin}); the best such \
             play:"
        ));
        md.blank();
        md.row(&[
            "cell",
            "side",
            "own play",
            "better play",
            "scores",
            "gain [95%]",
        ]);
        md.row(&["---", "---", "---:", "---", "---:", "---:"]);
        for a in far.iter().take(MAX_PLAYS_LISTED) {
            let gain = a
                .gain
                .expect("a play that beats the margin has an interval");
            md.row(&[
                cell_label(&report.cells[a.cell]),
                report.info.sides[a.side].name.clone(),
                labels::fixed(a.own, RATE_DECIMALS),
                format!("every group: {} = \"{}\"", a.field, a.value),
                if a.draws > 0.5 {
                    format!(
                        "{} ({} draws)",
                        labels::fixed(a.score, RATE_DECIMALS),
                        labels::fixed(a.draws, 2)
                    )
                } else {
                    labels::fixed(a.score, RATE_DECIMALS)
                },
                format!(
                    "+{} [{}, {}]",
                    labels::fixed(gain.estimate, RATE_DECIMALS),
                    labels::fixed(gain.ci.lo, RATE_DECIMALS),
                    labels::fixed(gain.ci.hi, RATE_DECIMALS)
                ),
            ]);
        }
        if far.len() > MAX_PLAYS_LISTED {
            md.blank();
            md.line(format!(
                "… and {} more (rows with `beats_margin` true in \
                 [{PLAYS_CSV}]({PLAYS_CSV})).",
                far.len() - MAX_PLAYS_LISTED
            ));
        }
        md.blank();
        if far.iter().any(|a| a.draws > 0.5) {
            md.line(
                "A score with its share of draws won it mostly by drawing: a side that \
                 cannot win may still gain by keeping out of the fight until the round cap.",
            );
            md.blank();
        }
    }
    md.line(
        "These are fixed plays changed one side at a time. To search each group's and each \
         stat block's choices and find best play for both sides, name them in a \
         `[plays.SIDE]` table and run `skirmish tactics`.",
    );
    md.blank();
}

fn charts(md: &mut Markdown) {
    md.heading(2, "Charts");
    md.line(format!("![win rate]({WIN_RATE_PNG})"));
    md.blank();
    md.line(format!("![fight length]({ROUNDS_PNG})"));
    md.blank();
}

/// On a map: its picture and where units fell, with what each shows.
fn the_map(md: &mut Markdown, report: &Report) {
    let Some(ground) = report.ground else {
        return;
    };
    let base = &report.cells[report.info.baseline];
    md.heading(2, "The map");
    let whose = if report.cells.len() > 1 {
        format!(" of the baseline cell ({})", cell_label(base))
    } else {
        String::new()
    };
    let changed = match ground.changed_by.as_slice() {
        [] => String::new(),
        axes => {
            let axes: Vec<String> = axes.iter().map(|a| code(a)).collect();
            format!(
                " The matrix changes the map ({} {}): other cells are fought on other \
                 ground, drawn here as the baseline has it.",
                if axes.len() == 1 { "axis" } else { "axes" },
                axes.join(", ")
            )
        }
    };
    md.line(format!(
        "The map{whose}: terrain, and the squares each group's units start on \
         ([{MAP_PNG}]({MAP_PNG})).{changed}"
    ));
    md.blank();
    md.line(format!("![map]({MAP_PNG})"));
    md.blank();
    md.line(format!(
        "Where units fell ([{FALLS_PNG}]({FALLS_PNG})): for each side, how many of its units \
         were out of the fight (down, dead or fled) at the end of a fight on each square, \
         summed over all {} fights of {}. The same fights as the tables, fought again \
         with the same dice to see where units stood.",
        grouped(ground.fights),
        if report.cells.len() > 1 {
            "the baseline cell"
        } else {
            "the run"
        }
    ));
    md.blank();
    md.line(format!("![where units fell]({FALLS_PNG})"));
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
    // The method of a cell other than the baseline (the baseline's own
    // comparison is exactly zero).
    let method = report
        .comparisons
        .iter()
        .enumerate()
        .find(|&(i, _)| i != base_index)
        .map(|(_, c)| c.method);
    let method = match method {
        Some(Method::BatchMeans { batches }) => format!(
            "Intervals are paired batch-means 95% intervals: batch b of every cell is \
             compared with batch b of the baseline ({} batches of up to {} fights, \
             t quantile with {} degrees of freedom)",
            grouped(batches),
            grouped(
                report
                    .cells
                    .first()
                    .and_then(|c| c.batches.first())
                    .map_or(0, |b| b.fights)
            ),
            grouped(batches.saturating_sub(1))
        ),
        _ => "Intervals are Newcombe hybrid-score 95% intervals for independent samples \
              (too few batches to pair)"
            .to_owned(),
    };
    md.line(format!(
        "Change in the win rate of **{}** from the baseline, {} (win rate {}). {method}. \
         Listed: the {LARGEST_EFFECTS} largest differences whose interval excludes zero, \
         i.e. that are unlikely to be noise. Every cell's differences, with intervals, are \
         the `delta_` columns of [{CELLS_CSV}]({CELLS_CSV}).",
        side.name,
        cell_label(base_cell),
        numbers::share(base)
    ));
    md.blank();
    if effects.is_empty() {
        let inert = caveats::no_effect_axes(report);
        md.line(if inert.len() == report.info.axes.len() {
            // Not noise: with the same dice, no fight came out differently.
            "No cell differs from the baseline at all: no effect, no fight changed \
             (see \"Read this first\")."
        } else if inert.is_empty() {
            "No cell's difference from the baseline excludes zero: every change could be noise."
        } else {
            "No cell's difference from the baseline excludes zero: every change could be \
             noise, but for the axes with no effect at all (see \"Read this first\")."
        });
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
    let rate = report
        .summaries
        .get(effect.cell)
        .and_then(|s| s.wins.get(effect.side))
        .map_or_else(String::new, numbers::share);
    md.row(&[
        effect.cell.to_string(),
        values,
        rate,
        numbers::difference(&effect.difference),
        numbers::difference_interval(&effect.difference),
    ]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::tally::{BatchStat, Tally};
    use crate::results::{CellResult, RunResults, ScenarioInfo, Setup, SideInfo};

    const COVER: &str = "sides.defenders.rifleman.cover";

    fn side(name: &str, unit: &str) -> SideInfo {
        SideInfo {
            name: name.to_owned(),
            units: vec![unit.to_owned()],
        }
    }

    /// Two cells, the defenders' cover an axis (none, half); the base
    /// scenario has half cover. 10,000 fights per cell in 20 batches of 500:
    /// the attackers win 5000 in cell 0 and 4000 in cell 1.
    fn results() -> RunResults {
        let attackers = "4 × rifleman (11 HP, rifle): 60 m from the line";
        let defenders = |cover: &str| format!("2 × rifleman (11 HP, rifle){cover}");
        let setup = |cover: &str, crit: &str| Setup {
            sides: vec![
                side("attackers", attackers),
                side("defenders", &defenders(cover)),
            ],
            options: vec![format!("crit = {crit}"), "nat1_misses = true".to_owned()],
        };
        let info = ScenarioInfo {
            name: "cover".to_owned(),
            description: String::new(),
            rules: "trenches".to_owned(),
            seed: 1,
            fights: 10_000,
            max_rounds: 100,
            sides: vec![
                side("attackers", attackers),
                side("defenders", &defenders(": half cover")),
            ],
            axes: vec![COVER.to_owned(), "options.crit".to_owned()],
            counters: Vec::new(),
            options: vec![
                "crit = double-dice".to_owned(),
                "nat1_misses = true".to_owned(),
            ],
            baseline: 0,
            streams: Streams::Common,
            precision: None,
            setups: vec![
                setup("", "double-dice"),
                setup("", "none"),
                setup(": half cover", "double-dice"),
                setup(": half cover", "none"),
            ],
            warnings: Vec::new(),
        };
        let cell = |index: usize, values: [&str; 2], per_batch: u64| {
            let batches: Vec<BatchStat> = (0..20)
                .map(|b| {
                    // Alternate ±5 around the mean so batches have a spread,
                    // in opposite phase in cells 2 and 3: their differences
                    // from the baseline are −0.12 and −0.08 in turn.
                    let wins = if (b + index / 2).is_multiple_of(2) {
                        per_batch + 5
                    } else {
                        per_batch - 5
                    };
                    BatchStat {
                        fights: 500,
                        wins: [wins, 500 - wins, 0, 0],
                        draws: 0,
                        rounds: 1500,
                    }
                })
                .collect();
            let mut tally = Tally {
                fights: 10_000,
                wins: [per_batch * 20, 0, 0, 0],
                ..Tally::default()
            };
            tally.wins[1] = 10_000 - tally.wins[0];
            tally.rounds[2] = 5_000;
            tally.rounds[4] = 5_000;
            CellResult {
                index,
                axis_values: values.iter().map(|v| (*v).to_owned()).collect(),
                tally,
                batches,
                capped: false,
            }
        };
        RunResults {
            scenario: info,
            cells: vec![
                cell(0, ["none", "double-dice"], 250),
                cell(1, ["none", "none"], 250),
                cell(2, ["half", "double-dice"], 200),
                cell(3, ["half", "none"], 200),
            ],
            fights: Vec::new(),
            exact: Vec::new(),
            plays: None,
            ground: None,
        }
    }

    fn summary(results: &RunResults) -> String {
        render(&Report::new(results).expect("valid results"))
    }

    #[test]
    fn sides_show_what_each_cell_changes() {
        let md = summary(&results());
        // The defenders' line is the base scenario's (half cover), which is
        // not what cells 0 and 1 fight with: each value is listed.
        assert!(
            md.contains(&format!(
                "    - 2 × rifleman (11 HP, rifle): half cover in the base scenario; by cell, \
                 with `{COVER}`:\n      - none: 2 × rifleman (11 HP, rifle)\n      - half: \
                 2 × rifleman (11 HP, rifle): half cover\n"
            )),
            "{md}"
        );
        // The attackers do not change.
        assert!(
            md.contains("    - 4 × rifleman (11 HP, rifle): 60 m from the line\n  - **defenders**"),
            "{md}"
        );
        // Nor does an option no axis touches; the crit option does.
        assert!(
            md.contains(
                "  - `crit = double-dice` in the base scenario; by cell, with `options.crit`:\n    \
                 - double-dice: `crit = double-dice`\n    - none: `crit = none`\n  - \
                 `nat1_misses = true`\n"
            ),
            "{md}"
        );
    }

    #[test]
    fn numbers_have_the_precision_of_their_intervals() {
        let md = summary(&results());
        assert!(md.contains("- **Fights per cell:** 10,000\n"), "{md}");
        // 5000 of 10,000: Wilson ±0.0098, so 3 decimals (not 0.5000
        // [0.4902, 0.5098]); no draws at all: 0; mean rounds 3 ± 0.0196:
        // 3 decimals.
        assert!(
            md.contains("| 0 | none | double-dice | 0.500 [0.490, 0.510] | 0.500 [0.490, 0.510] | 0 | 3.000 | 2 | 4 |"),
            "{md}"
        );
        // The effect: −0.1 ± 0.0096 paired over 20 batches (t(19) = 2.093 ×
        // 0.0205 / √20); the method names them.
        assert!(md.contains("(win rate 0.500)"), "{md}");
        assert!(
            md.contains("20 batches of up to 500 fights, t quantile with 19 degrees"),
            "{md}"
        );
        assert!(
            md.contains("| 2 | half / double-dice | 0.400 | -0.100 | [-0.110, -0.090] |"),
            "{md}"
        );
    }
}
