//! A watched fight in words for people: a heading, then one line per event,
//! grouped by round and by turn, with the dice behind each roll shown on
//! the line of the roll they made (`[d20 14]`). Side and unit names are
//! coloured by side when asked (a terminal), never in files.

use std::fmt::Write;

use super::{Roster, Watched};
use crate::engine::observe::{EndCause, Event, NOBODY};

/// ANSI colours of sides 0, 1, ...: red, blue, green, yellow, magenta,
/// cyan, then round again.
const SIDE_COLOURS: [&str; 6] = [
    "\x1b[31m", "\x1b[34m", "\x1b[32m", "\x1b[33m", "\x1b[35m", "\x1b[36m",
];
const RESET: &str = "\x1b[0m";
const BOLD: &str = "\x1b[1m";

/// Names in words, coloured or not.
struct Words<'a> {
    roster: &'a Roster,
    colour: bool,
}

impl Words<'_> {
    fn paint(&self, side: Option<u8>, text: &str) -> String {
        match (self.colour, side) {
            (true, Some(s)) => format!(
                "{}{text}{RESET}",
                SIDE_COLOURS[s as usize % SIDE_COLOURS.len()]
            ),
            _ => text.to_string(),
        }
    }

    fn unit(&self, i: u8) -> String {
        self.paint(self.roster.side_of(i), &self.roster.unit(i))
    }

    fn side(&self, s: u8) -> String {
        self.paint(Some(s), self.roster.side(s))
    }

    fn bold(&self, text: &str) -> String {
        if self.colour {
            format!("{BOLD}{text}{RESET}")
        } else {
            text.to_string()
        }
    }
}

/// The fight as text, one line per event; `colour`: ANSI colours for sides.
pub fn narrate(watched: &Watched, roster: &Roster, colour: bool) -> String {
    let words = Words { roster, colour };
    let mut out = String::new();
    heading(&mut out, watched, &words);
    let mut dice: Vec<(u32, u32)> = Vec::new();
    for event in &watched.tape.events {
        if let Event::Die { sides, face } = *event {
            dice.push((sides, face));
            continue;
        }
        // Dice show on the line of the roll that read them; what happened
        // meanwhile (a move, a condition) keeps its own line without them.
        let shown = if reads_dice(event) {
            let shown = dice_text(&dice);
            dice.clear();
            shown
        } else {
            String::new()
        };
        line(&mut out, event, &shown, &words);
    }
    if !dice.is_empty() {
        let _ = writeln!(out, "    (dice not yet read: {})", dice_text(&dice));
    }
    footer(&mut out, watched, &words);
    out
}

fn heading(out: &mut String, w: &Watched, words: &Words) {
    let cell = if w.cell_label.is_empty() {
        format!("cell {}", w.cell)
    } else {
        format!("cell {} ({})", w.cell, w.cell_label)
    };
    let _ = writeln!(
        out,
        "{}",
        words.bold(&format!(
            "Fight {} of {cell}: seed {}, batch {}, fight {} of the batch",
            w.fight,
            w.seed,
            w.fight / u64::from(w.batch_size),
            w.fight % u64::from(w.batch_size)
        ))
    );
    let roster = words.roster;
    for (s, _) in roster.sides.iter().enumerate() {
        let units: Vec<String> = (0..roster.units.len())
            .filter(|&i| roster.units[i].1 as usize == s)
            .map(|i| words.unit(i as u8))
            .collect();
        let _ = writeln!(out, "  {}: {}", words.side(s as u8), units.join(", "));
    }
}

fn footer(out: &mut String, w: &Watched, words: &Words) {
    let tally = &w.tape.tally;
    let damage: Vec<String> = (0..words.roster.sides.len())
        .map(|s| format!("{} {}", words.side(s as u8), tally.damage[s]))
        .collect();
    let standing: Vec<String> = (0..words.roster.sides.len())
        .map(|s| format!("{} {}", words.side(s as u8), tally.survivors[s]))
        .collect();
    let _ = writeln!(out, "Harm dealt: {}", damage.join(", "));
    let _ = writeln!(out, "Standing at the end: {}", standing.join(", "));
}

/// Whether an event says what the dice before it were for.
fn reads_dice(event: &Event) -> bool {
    matches!(
        event,
        Event::Check { .. }
            | Event::Roll { .. }
            | Event::Initiative { .. }
            | Event::Target { .. }
            | Event::Note { .. }
            | Event::End { .. }
    )
}

/// `[d20 14, d8 3]`, or nothing.
fn dice_text(dice: &[(u32, u32)]) -> String {
    if dice.is_empty() {
        return String::new();
    }
    let each: Vec<String> = dice.iter().map(|(s, f)| format!("d{s} {f}")).collect();
    format!(" [{}]", each.join(", "))
}

/// `+ 4`, `− 2`, or nothing for 0.
fn signed(m: i32) -> String {
    match m {
        0 => String::new(),
        m if m > 0 => format!(" + {m}"),
        m => format!(" − {}", -m),
    }
}

/// The word for a check's result: attacks hit or miss, others pass or fail.
fn verdict(rule: &str, passed: bool) -> &'static str {
    let attack = ["attack", "shot", "strike"]
        .iter()
        .any(|w| rule.contains(w));
    match (attack, passed) {
        (true, true) => "hit",
        (true, false) => "miss",
        (false, true) => "pass",
        (false, false) => "fail",
    }
}

fn line(out: &mut String, event: &Event, dice: &str, words: &Words) {
    let target = |t: u8| {
        if t == NOBODY {
            String::new()
        } else {
            format!(" → {}", words.unit(t))
        }
    };
    let text = match *event {
        Event::Die { .. } => return,
        Event::Round { round } => {
            let _ = writeln!(out, "{}", words.bold(&format!("Round {round}")));
            return;
        }
        Event::Turn { unit } => {
            let _ = writeln!(out, "  {}'s turn", words.unit(unit));
            return;
        }
        Event::Initiative { unit, total } => {
            let _ = writeln!(out, "  initiative: {} {total}{dice}", words.unit(unit));
            return;
        }
        Event::End {
            winner,
            rounds,
            cause,
        } => {
            let result = match (winner, cause) {
                (Some(s), _) => format!("won by {}", words.side(s)),
                (None, EndCause::RoundCap) => "a draw".to_string(),
                (None, _) => "a draw, nobody standing".to_string(),
            };
            let _ = writeln!(
                out,
                "{}",
                words.bold(&format!(
                    "End in round {rounds}: {result} ({}){dice}",
                    cause.name()
                ))
            );
            return;
        }
        Event::Target { unit, target: t } => {
            format!("{} picks{} at random{dice}", words.unit(unit), target(t))
        }
        Event::Check {
            unit,
            target: t,
            rule,
            roll,
            modifier,
            need,
            passed,
        } => {
            let sum = if modifier == 0 {
                format!("{roll}")
            } else {
                format!("{roll}{} = {}", signed(modifier), roll + modifier)
            };
            format!(
                "{} {rule}{}: {sum} vs {need}: {}{dice}",
                words.unit(unit),
                target(t),
                verdict(rule, passed)
            )
        }
        Event::Roll {
            unit,
            target: t,
            rule,
            total,
        } => format!("{} {rule}{}: {total}{dice}", words.unit(unit), target(t)),
        Event::Harm {
            unit,
            target: t,
            amount,
            left,
            max,
        } => format!(
            "{} takes {amount} from {} ({left} of {max} left){dice}",
            words.unit(t),
            words.unit(unit)
        ),
        Event::Note {
            unit: NOBODY, what, ..
        } => {
            let _ = writeln!(out, "  {what}{dice}");
            return;
        }
        Event::Note {
            unit,
            target: t,
            what,
        } => format!("{}: {what}{}{dice}", words.unit(unit), target(t)),
        Event::Moved { unit, from, to } => {
            // Positions as the unit's side sees them: even sides face +,
            // odd sides −; negative is behind the front line.
            let facing = match words.roster.side_of(unit) {
                Some(s) if s % 2 == 1 => -1,
                _ => 1,
            };
            let u = words.roster.distance_unit;
            let at = to * facing;
            let place = match at {
                0 => "on the front line".to_string(),
                a if a < 0 => format!("{} {u} behind the front line", -a),
                a => format!("{a} {u} past the front line"),
            };
            let step = (to - from) * facing;
            format!(
                "{} {} {} {u}, now {place}{dice}",
                words.unit(unit),
                if step > 0 { "advances" } else { "falls back" },
                step.abs()
            )
        }
        Event::Condition {
            unit,
            condition,
            gained,
        } => format!(
            "{} {} {}{dice}",
            words.unit(unit),
            if gained { "is now" } else { "is no longer" },
            condition.name()
        ),
        Event::Out { unit } => format!("{} is out of the fight{dice}", words.unit(unit)),
        Event::Back { unit } => format!("{} is back in the fight{dice}", words.unit(unit)),
    };
    let _ = writeln!(out, "    {text}");
}
