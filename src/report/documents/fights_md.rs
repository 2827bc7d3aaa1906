//! `fights.md`: fights of the baseline cell told turn by turn (a typical one
//! and an upset, as `skirmish replay --pick` finds them), so a reader of the
//! report sees how a fight goes without running anything. The text of each
//! fight (a long one cut to its first and last rounds), its command and any
//! note on how it stands for its cell are the replay module's
//! ([`crate::replay::shown_fights`]); this module only lays them out.
//!
//! Contains nothing volatile: the fights are a pure function of the seed.

use super::positions::{picture, Placed};
use crate::report::model::Report;
use crate::results::{GroundReport, ShownFight, UnitPlace};

/// `fights.md` as text.
pub(crate) fn render(report: &Report) -> String {
    let info = report.info;
    let mut md = format!("# {}: fights turn by turn\n\n", info.name);
    if report.fights.is_empty() {
        md.push_str("No fights were told for this report.\n");
        return md;
    }
    md.push_str(
        "Each fight below is one the run fought and counted in its tables: the same \
         dice, in the same order. Every die is shown in brackets on the line of the roll it \
         made (`[d20 14]`). Under each heading is the command that shows it on a terminal, \
         run from the folder that holds the reports folder (add `--json` for one JSON object per \
         event); a long fight is shown here by its first rounds and its last.\n\n",
    );
    for shown in report.fights {
        let pick = capitalised(&shown.pick);
        match shown.fight {
            Some(k) => {
                md.push_str(&format!(
                    "## {pick} fight: cell {}, fight {k}\n\n",
                    shown.cell
                ));
                if let Some(note) = &shown.note {
                    md.push_str(&format!("{note}\n\n"));
                }
                md.push_str(&format!("    {}\n\n", shown.command));
                if let Some(ground) = report.ground {
                    md.push_str(&pictures(report, ground, shown));
                }
                md.push_str("```text\n");
                md.push_str(&shown.text);
                if !shown.text.ends_with('\n') {
                    md.push('\n');
                }
                md.push_str("```\n\n");
            }
            None => {
                md.push_str(&format!("## {pick} fight: cell {}\n\n", shown.cell));
                md.push_str(&format!("{}\n\n", shown.text.trim()));
            }
        }
    }
    md.truncate(md.trim_end().len());
    md.push('\n');
    md
}

/// On a map: where the units of `shown` stand at its start and at its
/// end, as text pictures of the map ([`super::positions`]).
fn pictures(report: &Report, ground: &GroundReport, shown: &ShownFight) -> String {
    if shown.start.is_empty() {
        return String::new();
    }
    let sides: Vec<&str> = report.info.sides.iter().map(|s| s.name.as_str()).collect();
    let mut md = String::from("Where the units stand at the start:\n\n");
    md.push_str(&picture(&ground.map, &sides, &placed(&shown.start)));
    md.push_str("\nAnd at the end:\n\n");
    md.push_str(&picture(&ground.map, &sides, &placed(&shown.end)));
    md.push('\n');
    md
}

/// The units of a shown fight as [`picture`] takes them.
fn placed(units: &[UnitPlace]) -> Vec<Placed<'_>> {
    units
        .iter()
        .map(|u| Placed {
            square: u.square,
            side: u.side,
            standing: u.standing,
            label: &u.name,
        })
        .collect()
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
