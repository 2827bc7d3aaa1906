//! A watched fight for tools: one JSON object per line. The first line
//! describes the fight (`"event": "fight"`); then one line per event, each
//! with `event` (its kind), `round`, and its fields, units by name with
//! their side; the last is `"event": "end"`, then `"event": "tally"` with
//! the fight's tally (what the run added for this fight). An `attack` line
//! names the weapon of the attack whose check follows; harm to a load track
//! (thrum) is a `harm` line with `track`, `load` and `tolerance` instead of
//! `left` and `max`. On a map, the first line has `squares` (how squares
//! count) and each unit's start square `at`; a `moved` line's `from` and
//! `to` are squares `[column, row]` (from 1, rows down from the top) and
//! `path` every square of the move, its ends included.

use serde_json::{json, Map, Value};

use super::{Roster, Watched};
use crate::engine::ground::unpack;
use crate::engine::observe::{Event, NOBODY};

/// A square of a map as JSON: `[column, row]`, from 1 (as the text says).
fn square(s: crate::map::Square) -> Value {
    json!([s.x as u32 + 1, s.y as u32 + 1])
}

/// The fight as JSON lines.
pub fn json_lines(watched: &Watched, roster: &Roster) -> String {
    let mut lines = Vec::with_capacity(watched.tape.events.len() + 2);
    lines.push(json!({
        "event": "fight",
        "cell": watched.cell,
        "cell_label": watched.cell_label,
        "fight": watched.fight,
        "seed": watched.seed,
        "batch_size": watched.batch_size,
        "batch": watched.fight / u64::from(watched.batch_size),
        "sides": roster.sides,
        "units": roster.units.iter().enumerate().map(|(i, _)| json!({
            "unit": roster.unit(i as u8),
            "side": roster.side(roster.units[i].1),
        })).collect::<Vec<_>>(),
        "distance_unit": roster.distance_unit,
    }));
    if roster.map_scale.is_some() {
        // On a map: squares as [column, row] from 1 (see `super::square`),
        // and where each unit starts.
        if let Some(Value::Object(head)) = lines.first_mut() {
            head.insert("squares".into(), json!(super::SQUARES_NOTE));
            if let Some(Value::Array(units)) = head.get_mut("units") {
                for (u, at) in units.iter_mut().zip(&roster.starts) {
                    if let Value::Object(u) = u {
                        u.insert("at".into(), square(*at));
                    }
                }
            }
        }
    }
    let mut round = 0u32;
    let mut paths = watched.tape.paths.iter().peekable();
    for (e, event) in watched.tape.events.iter().enumerate() {
        if let Event::Round { round: r } = *event {
            round = r;
        }
        let mut object = fields(event, roster);
        if let (Event::Moved { from, to, .. }, Some(_)) = (*event, roster.map_scale) {
            // On a map, positions are squares, and a move its path.
            while paths.peek().is_some_and(|(i, _)| *i < e) {
                paths.next();
            }
            let ends = [unpack(from), unpack(to)];
            let path = match paths.peek() {
                Some((i, p)) if *i == e => p.as_slice(),
                _ => &ends,
            };
            object.insert("from".into(), square(ends[0]));
            object.insert("to".into(), square(ends[1]));
            object.insert(
                "path".into(),
                Value::Array(path.iter().map(|&s| square(s)).collect()),
            );
        }
        object.insert("round".into(), json!(round));
        lines.push(Value::Object(object));
    }
    let tally = &watched.tape.tally;
    let sides = roster.sides.len();
    lines.push(json!({
        "event": "tally",
        "winner": watched.tape.outcome.winner.map(|s| roster.side(s)),
        "rounds": watched.tape.outcome.rounds,
        "damage": (0..sides).map(|s| json!({"side": roster.side(s as u8), "harm": tally.damage[s]})).collect::<Vec<_>>(),
        "standing": (0..sides).map(|s| json!({"side": roster.side(s as u8), "units": tally.survivors[s]})).collect::<Vec<_>>(),
    }));
    let mut out = String::new();
    for line in lines {
        out.push_str(&line.to_string());
        out.push('\n');
    }
    out
}

/// An event's kind and fields, units by name (`unit`, `target`) with their
/// sides (`side`, `target_side`).
fn fields(event: &Event, roster: &Roster) -> Map<String, Value> {
    let mut m = Map::new();
    let mut put = |k: &str, v: Value| {
        m.insert(k.to_string(), v);
    };
    let unit = |put: &mut dyn FnMut(&str, Value), key: &str, side_key: &str, u: u8| {
        if u != NOBODY {
            put(key, json!(roster.unit(u)));
            put(side_key, json!(roster.side_of(u).map(|s| roster.side(s))));
        }
    };
    match *event {
        Event::Die { sides, face } => {
            put("event", json!("die"));
            put("sides", json!(sides));
            put("face", json!(face));
        }
        Event::Initiative { unit: u, total } => {
            put("event", json!("initiative"));
            unit(&mut put, "unit", "side", u);
            put("total", json!(total));
        }
        Event::Round { .. } => put("event", json!("round")),
        Event::Turn { unit: u } => {
            put("event", json!("turn"));
            unit(&mut put, "unit", "side", u);
        }
        Event::Target { unit: u, target } => {
            put("event", json!("target"));
            unit(&mut put, "unit", "side", u);
            unit(&mut put, "target", "target_side", target);
        }
        Event::Check {
            unit: u,
            target,
            rule,
            roll,
            modifier,
            need,
            passed,
        } => {
            put("event", json!("check"));
            unit(&mut put, "unit", "side", u);
            unit(&mut put, "target", "target_side", target);
            put("rule", json!(rule));
            put("roll", json!(roll));
            put("modifier", json!(modifier));
            put("total", json!(roll + modifier));
            put("need", json!(need));
            put("passed", json!(passed));
        }
        Event::Roll {
            unit: u,
            target,
            rule,
            total,
            ..
        } => {
            put("event", json!("roll"));
            unit(&mut put, "unit", "side", u);
            unit(&mut put, "target", "target_side", target);
            put("rule", json!(rule));
            put("total", json!(total));
        }
        Event::Harm {
            unit: u,
            target,
            amount,
            left,
            max,
        } => {
            put("event", json!("harm"));
            unit(&mut put, "unit", "side", u);
            unit(&mut put, "target", "target_side", target);
            put("amount", json!(amount));
            put("left", json!(left));
            put("max", json!(max));
        }
        Event::Attack {
            unit: u,
            target,
            weapon,
        } => {
            put("event", json!("attack"));
            unit(&mut put, "unit", "side", u);
            unit(&mut put, "target", "target_side", target);
            put("weapon", json!(roster.weapon(weapon)));
        }
        Event::Load {
            unit: u,
            target,
            track,
            amount,
            load,
            tolerance,
        } => {
            put("event", json!("harm"));
            unit(&mut put, "unit", "side", u);
            unit(&mut put, "target", "target_side", target);
            put("amount", json!(amount));
            put("track", json!(track.name().to_lowercase()));
            put("load", json!(load));
            put("tolerance", json!(tolerance));
        }
        Event::Note {
            unit: u,
            target,
            what,
        } => {
            put("event", json!("note"));
            unit(&mut put, "unit", "side", u);
            unit(&mut put, "target", "target_side", target);
            put("what", json!(what));
        }
        Event::Moved { unit: u, from, to } => {
            put("event", json!("moved"));
            unit(&mut put, "unit", "side", u);
            put("from", json!(from));
            put("to", json!(to));
        }
        Event::Condition {
            unit: u,
            condition,
            gained,
        } => {
            put("event", json!(if gained { "gained" } else { "lost" }));
            unit(&mut put, "unit", "side", u);
            put("condition", json!(condition.name()));
        }
        Event::Out { unit: u } => {
            put("event", json!("out"));
            unit(&mut put, "unit", "side", u);
        }
        Event::Back { unit: u } => {
            put("event", json!("back"));
            unit(&mut put, "unit", "side", u);
        }
        Event::End {
            winner,
            rounds,
            cause,
        } => {
            put("event", json!("end"));
            put("winner", json!(winner.map(|s| roster.side(s))));
            put("rounds", json!(rounds));
            put("cause", json!(cause.name()));
        }
    }
    m
}
