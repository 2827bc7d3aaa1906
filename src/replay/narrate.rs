//! A watched fight in words for people: a heading, then one line per event,
//! grouped by round and by turn, with the dice behind each roll shown on
//! the line of the roll they made (`[d20 14]`), an attack's weapon on its
//! attack line, and harm to a load track (thrum's Fatigue, Stress) with the
//! load against its tolerance. Side and unit names are coloured by side
//! when asked (a terminal), never in files.
//!
//! [`narrate_within`] keeps a long fight to a size for a report: its first
//! rounds and its last, with a line saying what was left out and the
//! command that prints it all.

use std::fmt::Write;

use super::{Roster, Watched};
use crate::engine::observe::{EndCause, Event, Track, NOBODY};

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
    lines(watched, roster, colour)
        .into_iter()
        .map(|l| l.text)
        .collect()
}

/// The fight as [`narrate`] tells it without colours, in about `budget`
/// bytes: whole when it fits; else the heading and the first rounds, a line
/// saying which lines were left out and that `command` prints the whole
/// fight, then the last round (its last lines, when it alone would take
/// more than half the budget).
pub fn narrate_within(watched: &Watched, roster: &Roster, budget: usize, command: &str) -> String {
    let all = lines(watched, roster, false);
    let size = |ls: &[Line]| ls.iter().map(|l| l.text.len()).sum::<usize>();
    if size(&all) <= budget {
        return all.into_iter().map(|l| l.text).collect();
    }
    // The tail: the last round's lines (the end and the footer with them),
    // or as many of its last lines as fit in half the budget.
    let last_round = all.last().map_or(0, |l| l.round);
    let mut tail = all
        .iter()
        .rposition(|l| l.round != last_round)
        .map_or(0, |i| i + 1);
    while tail < all.len() - 1 && size(&all[tail..]) > budget / 2 {
        tail += 1;
    }
    // The head: whole rounds from the start while they fit in what is
    // left; lines of the first round when not even it fits.
    let room = budget.saturating_sub(size(&all[tail..]));
    let mut head = 0;
    let mut used = 0;
    let mut whole = 0;
    while head < tail && used + all[head].text.len() <= room {
        used += all[head].text.len();
        head += 1;
        if head == tail || all[head].round != all[head - 1].round {
            whole = head;
        }
    }
    if all[..whole].iter().any(|l| l.round > 0) {
        head = whole;
    }
    let left_out = &all[head..tail];
    let mut out: String = all[..head].iter().map(|l| l.text.as_str()).collect();
    if let (Some(first), Some(last)) = (left_out.first(), left_out.last()) {
        let rounds = if first.round == last.round {
            format!("round {}", first.round)
        } else {
            format!("rounds {} to {}", first.round, last.round)
        };
        let _ = writeln!(
            out,
            "[… {} lines of {rounds} left out here; the whole fight: {command}]",
            left_out.len()
        );
    }
    out.extend(all[tail..].iter().map(|l| l.text.as_str()));
    out
}

/// One line of a narration and the round it belongs to (0: the heading).
struct Line {
    round: u32,
    text: String,
}

/// The fight as lines, each with its round.
fn lines(watched: &Watched, roster: &Roster, colour: bool) -> Vec<Line> {
    let words = Words { roster, colour };
    let mut out = Vec::new();
    let mut round = 0;
    let mut text = String::new();
    heading(&mut text, watched, &words);
    push_lines(&mut out, 0, &mut text);
    let mut dice: Vec<(u32, u32)> = Vec::new();
    // Dice a partial roll left for the check or roll they belong to (see
    // [`Reads::Last`]).
    let mut held: Vec<(u32, u32)> = Vec::new();
    // The weapon of the attack declared last, for its attack line.
    let mut armed: Option<(u8, u16)> = None;
    // The squares of each move on a map, by event index.
    let mut paths = watched.tape.paths.iter().peekable();
    for (e, event) in watched.tape.events.iter().enumerate() {
        let mut path: Option<&[crate::map::Square]> = None;
        while let Some((i, p)) = paths.peek() {
            if *i > e {
                break;
            }
            if *i == e {
                path = Some(p);
            }
            paths.next();
        }
        match *event {
            Event::Die { sides, face } => {
                dice.push((sides, face));
                continue;
            }
            Event::Attack { unit, weapon, .. } => {
                armed = Some((unit, weapon));
                continue;
            }
            Event::Round { round: r } => round = r,
            Event::Turn { .. } => armed = None,
            _ => {}
        }
        // Dice show on the line of the roll that read them; what happened
        // meanwhile (a move, a condition) keeps its own line without them.
        let shown = match reads_dice(event) {
            Reads::Nothing => String::new(),
            Reads::Last(n) => {
                let from = dice.len().saturating_sub(n);
                let shown = dice_text(&dice[from..]);
                dice.truncate(from);
                held.append(&mut dice);
                shown
            }
            Reads::Fresh => dice_text(&std::mem::take(&mut dice)),
            Reads::All => {
                held.append(&mut dice);
                dice_text(&std::mem::take(&mut held))
            }
        };
        let weapon = match (*event, armed) {
            (Event::Check { unit, rule, .. }, Some((by, w))) if unit == by && is_attack(rule) => {
                armed = None;
                Some(w)
            }
            _ => None,
        };
        line(&mut text, event, &shown, weapon, path, &words);
        push_lines(&mut out, round, &mut text);
    }
    held.append(&mut dice);
    if !held.is_empty() {
        let _ = writeln!(text, "    (dice not yet read: {})", dice_text(&held));
    }
    footer(&mut text, watched, &words);
    push_lines(&mut out, round, &mut text);
    out
}

/// Move the lines of `text` to `out`, as lines of `round`.
fn push_lines(out: &mut Vec<Line>, round: u32, text: &mut String) {
    out.extend(text.split_inclusive('\n').map(|l| Line {
        round,
        text: l.to_string(),
    }));
    text.clear();
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
            .map(|i| match roster.starts.get(i) {
                Some(&at) => format!("{} at {}", words.unit(i as u8), super::square(at)),
                None => words.unit(i as u8),
            })
            .collect();
        let _ = writeln!(out, "  {}: {}", words.side(s as u8), units.join(", "));
    }
    if roster.map_scale.is_some() {
        let _ = writeln!(out, "  {}", super::SQUARES_NOTE);
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

/// Which of the dice not yet shown an event says it read.
enum Reads {
    Nothing,
    /// The last `n` rolled since the last reading (dicestep's luck die,
    /// rolled after its test's dice): the dice before them are held for
    /// the next check or roll, the test they belong to.
    Last(usize),
    /// Those rolled since the last reading, not the held ones: what a note
    /// or a random pick rolled for itself (a misfire's new target between a
    /// luck die and its attack).
    Fresh,
    /// Every one, held ones included.
    All,
}

fn reads_dice(event: &Event) -> Reads {
    match *event {
        Event::Roll { dice: 0, .. } | Event::Check { .. } | Event::End { .. } => Reads::All,
        Event::Roll { dice, .. } => Reads::Last(dice as usize),
        Event::Initiative { .. } | Event::Target { .. } | Event::Note { .. } => Reads::Fresh,
        _ => Reads::Nothing,
    }
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

/// What a rule's check is: an attack (hit or miss), a dodge (the attack
/// dodged or not) or any other check (pass or fail), by the rule's name
/// before any parenthesis (`dodge (... vs the attack)` is a dodge).
#[derive(PartialEq)]
enum CheckKind {
    Attack,
    Dodge,
    Other,
}

fn check_kind(rule: &str) -> CheckKind {
    let name = rule.split(" (").next().unwrap_or(rule);
    if name.contains("dodge") {
        CheckKind::Dodge
    } else if ["attack", "shot", "strike"]
        .iter()
        .any(|w| name.contains(w))
    {
        CheckKind::Attack
    } else {
        CheckKind::Other
    }
}

fn is_attack(rule: &str) -> bool {
    check_kind(rule) == CheckKind::Attack
}

/// The word for a check's result: attacks hit or miss, a dodge dodges the
/// attack or lets it hit, others pass or fail.
fn verdict(rule: &str, passed: bool) -> &'static str {
    match (check_kind(rule), passed) {
        (CheckKind::Attack, true) => "hit",
        (CheckKind::Attack, false) => "miss",
        (CheckKind::Dodge, true) => "dodged",
        (CheckKind::Dodge, false) => "not dodged, the attack hits",
        (CheckKind::Other, true) => "pass",
        (CheckKind::Other, false) => "fail",
    }
}

/// What going over a track's tolerance makes a unit (thrum: over the
/// Fatigue Tolerance, Exhausted; over the Stress Tolerance, Frayed).
fn over_tolerance(track: Track) -> &'static str {
    match track {
        Track::Fatigue => "Exhausted",
        Track::Stress => "Frayed",
    }
}

fn line(
    out: &mut String,
    event: &Event,
    dice: &str,
    weapon: Option<u16>,
    path: Option<&[crate::map::Square]>,
    words: &Words,
) {
    let target = |t: u8| {
        if t == NOBODY {
            String::new()
        } else {
            format!(" → {}", words.unit(t))
        }
    };
    let text = match *event {
        Event::Die { .. } | Event::Attack { .. } => return,
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
            let with = weapon.map_or(String::new(), |w| {
                format!(" with {}", words.roster.weapon(w))
            });
            format!(
                "{} {rule}{}{with}: {sum} vs {need}: {}{dice}",
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
            ..
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
        Event::Load {
            unit,
            target: t,
            track,
            amount,
            load,
            tolerance,
        } => {
            let over = if load > tolerance {
                format!(", over it: {}", over_tolerance(track))
            } else {
                String::new()
            };
            format!(
                "{} takes {amount} {} from {} ({} Load {load} vs Tolerance {tolerance}{over}){dice}",
                words.unit(t),
                track.name(),
                words.unit(unit),
                track.name()
            )
        }
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
        Event::Moved { unit, from, to } if words.roster.map_scale.is_some() => {
            // On a map: the squares of the move, or its ends when the move
            // was not one path.
            let ends = [
                crate::engine::ground::unpack(from),
                crate::engine::ground::unpack(to),
            ];
            let squares: Vec<String> = path
                .unwrap_or(&ends)
                .iter()
                .map(|&s| super::square(s))
                .collect();
            format!("{} moves {}{dice}", words.unit(unit), squares.join(" -> "))
        }
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
