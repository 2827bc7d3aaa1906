//! The scenario's `[map]` table and the placement of unit groups on it
//! (issue 29, part 2).
//!
//! ```toml
//! [map]
//! scale = 5            # metres a square (optional; the ruleset's default)
//! grid = """
//! ..........
//! AA..-..#BB
//! ..........
//! """
//! [map.legend]         # optional: the designer's own characters
//! "*" = "low-cover+difficult"
//!
//! [sides.raiders]
//! raider = { count = 2, at = "A" }          # every A cell is a start cell
//! [sides.defenders]
//! rifleman = { count = 2, at = [[9, 2], [10, 2]] }  # or coordinates, from 1
//! ```
//!
//! Why this shape: TOML cannot make `map` both a string and a table (for
//! `[map.legend]`), so the grid is `map.grid`, and the map's settings sit
//! beside it. A matrix axis may vary `map.grid` (two layouts of the same
//! battle) or `map.scale` like any other key.
//!
//! Placement: a group's units take its start cells in row-major order (the
//! map's reading order), one each; coordinates are `[column, row]` from 1
//! at the top left. A unit placed on a map has no `distance` (the map
//! places it). Checked here, before any fight: every error names the key,
//! the file line and, for the grid, the row and column of the map.

use super::doc::{Node, Value};
use super::schema::{Ctx, Fields};
use super::ScenarioError;
use crate::engine::Ground;
use crate::map::{Map, Square, UNREACHABLE};
use crate::rules::Ruleset;

/// Keys of the `[map]` table.
pub const MAP_KEYS: &[&str] = &["grid", "scale", "legend"];

/// A compiled map: its ground and where its key was written (for errors
/// about placement).
pub struct CompiledMap {
    pub ground: &'static Ground,
}

/// Read `[map]` for ruleset `R`, if the scenario has one.
pub fn read<R: Ruleset>(
    ctx: Ctx,
    node: Option<&Node>,
) -> Result<Option<CompiledMap>, ScenarioError> {
    let Some(node) = node else {
        return Ok(None);
    };
    let Value::Table(table) = &node.value else {
        return Err(ctx.error(
            &node.span,
            "map",
            format!(
                "expected a table (`[map]` with `grid = \"\"\"...\"\"\"`), found {}",
                node.value.type_name()
            ),
        ));
    };
    for e in &table.entries {
        if !MAP_KEYS.contains(&e.key.as_str()) {
            return Err(ctx.error(
                &e.key_span,
                &format!("map.{}", e.key),
                format!(
                    "unknown key `{}` (valid keys of `[map]`: {})",
                    e.key,
                    MAP_KEYS.join(", ")
                ),
            ));
        }
    }
    let Some(costs) = R::MAP_COSTS else {
        return Err(ctx.error(
            &node.span,
            "map",
            format!(
                "the {} ruleset cannot play on a map yet (rulesets that can: {}); remove `[map]` \
                 and place the units by `distance`",
                R::NAME,
                crate::rules::MAP_RULESETS.join(", ")
            ),
        ));
    };
    let Some(grid) = table.get("grid") else {
        return Err(ctx.error(
            &node.span,
            "map.grid",
            "`[map]` has no `grid`: write the map as a multi-line string, one character a cell \
             (`grid = \"\"\"` then one line per row)",
        ));
    };
    let Value::Str(text) = &grid.value else {
        return Err(ctx.error(
            &grid.span,
            "map.grid",
            format!("expected a string, found {}", grid.value.type_name()),
        ));
    };
    let mut legend: Vec<(String, String)> = Vec::new();
    if let Some(l) = table.get("legend") {
        let Value::Table(lt) = &l.value else {
            return Err(ctx.error(
                &l.span,
                "map.legend",
                format!(
                    "expected a table of character = terrain, found {}",
                    l.value.type_name()
                ),
            ));
        };
        for e in &lt.entries {
            let Value::Str(name) = &e.node.value else {
                return Err(ctx.error(
                    &e.node.span,
                    &format!("map.legend.\"{}\"", e.key),
                    format!(
                        "expected a terrain name (a string such as \"low-cover\"), found {}",
                        e.node.value.type_name()
                    ),
                ));
            };
            legend.push((e.key.clone(), name.clone()));
        }
    }
    let map =
        Map::parse(text, legend.iter().map(|(k, v)| (k.as_str(), v.as_str()))).map_err(|e| {
            let key = match &e {
                crate::map::MapError::Legend { .. } => "map.legend",
                _ => "map.grid",
            };
            ctx.error(&grid.span, key, e.to_string())
        })?;
    let scale = match table.get("scale") {
        None => R::MAP_SCALE,
        Some(n) => match n.value {
            Value::Int(k) if (1..=1000).contains(&k) => k as i32,
            _ => {
                return Err(ctx.error(
                    &n.span,
                    "map.scale",
                    format!(
                        "expected a whole number of {} a square, 1 to 1000; found `{}`",
                        R::DISTANCE_UNIT,
                        n.value.render()
                    ),
                ))
            }
        },
    };
    let key = format!("{}\u{0}{legend:?}", text);
    Ok(Some(CompiledMap {
        ground: Ground::intern(key, map, scale, costs),
    }))
}

/// The start squares of a group from its `at`: a letter's cells, or a list
/// of `[column, row]` pairs.
pub fn starts(f: &Fields, map: &Map) -> Result<Vec<Square>, ScenarioError> {
    let node = f.node("at").expect("checked by the caller");
    match &node.value {
        Value::Str(s) => {
            let mut chars = s.chars();
            match (chars.next(), chars.next()) {
                (Some(c @ 'A'..='Z'), None) => {
                    if map.starts(c).is_empty() {
                        let have: Vec<String> = map.start_letters().map(String::from).collect();
                        return Err(f.error(
                            "at",
                            format!(
                                "the map has no `{c}` cells (start letters on the map: {})",
                                if have.is_empty() {
                                    "none".to_string()
                                } else {
                                    have.join(", ")
                                }
                            ),
                        ));
                    }
                    Ok(map.starts(c).to_vec())
                }
                _ => Err(f.error(
                    "at",
                    format!("expected one capital letter of the map (\"A\" to \"Z\"), found {s:?}"),
                )),
            }
        }
        Value::Array(items) => {
            let mut out = Vec::new();
            for item in items {
                let pair = match &item.value {
                    Value::Array(xy) if xy.len() == 2 => match (&xy[0].value, &xy[1].value) {
                        (Value::Int(x), Value::Int(y)) => Some((*x, *y)),
                        _ => None,
                    },
                    _ => None,
                };
                let Some((x, y)) = pair else {
                    return Err(f.ctx.error(
                        &item.span,
                        &f.key_path("at"),
                        format!(
                            "expected a square as `[column, row]` (whole numbers from 1), found `{}`",
                            item.value.render()
                        ),
                    ));
                };
                // Columns and rows count from 1, as the map's rulers, the
                // replay and every error message about the grid do.
                let (w, h) = (map.width() as i64, map.height() as i64);
                if !(1..=w).contains(&x) || !(1..=h).contains(&y) {
                    return Err(f.ctx.error(
                        &item.span,
                        &f.key_path("at"),
                        format!(
                            "square [{x}, {y}] is off the map (columns 1 to {w}, rows 1 to {h}, \
                             counted from the top left)"
                        ),
                    ));
                }
                let s = Square::new((x - 1) as u8, (y - 1) as u8);
                if !map.at(s).passable() {
                    return Err(f.ctx.error(
                        &item.span,
                        &f.key_path("at"),
                        format!(
                            "square [{x}, {y}] (row {y}, column {x}) is not ground a unit can \
                             stand on"
                        ),
                    ));
                }
                out.push(s);
            }
            Ok(out)
        }
        other => Err(f.error(
            "at",
            format!(
                "expected a map letter (\"A\") or a list of squares ([[1, 2], [3, 4]]), found {}",
                other.type_name()
            ),
        )),
    }
}

/// The groups (indices into `groups`: name, side, start squares) that can
/// reach no enemy by terrain (walled off): their fights end in draws at the
/// round cap unless they can shoot. One finding, read by the load-time
/// warning ([`unreachable_warnings`]) and by the report, which says why its
/// fights were draws. Empty when the map is too large for the distance
/// cache (the question is then not asked).
pub fn unreachable_groups(ground: &Ground, groups: &[(String, usize, Vec<Square>)]) -> Vec<usize> {
    let Some(cache) = &ground.cache else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (g, (_, side, squares)) in groups.iter().enumerate() {
        let reaches = groups
            .iter()
            .filter(|(_, s, _)| s != side)
            .flat_map(|(_, _, e)| e)
            .any(|&e| {
                squares
                    .iter()
                    .any(|&s| cache.distance(s, e).is_some_and(|d| d != UNREACHABLE))
            });
        if !reaches {
            out.push(g);
        }
    }
    out
}

/// Warnings for the groups `found` ([`unreachable_groups`] of `groups`,
/// whose sides are named `sides`): the fight would end in a draw at the
/// round cap. Each names its group's side, so two sides' groups of one
/// name are two warnings (and a warning is counted once per cell).
pub fn unreachable_warnings(
    groups: &[(String, usize, Vec<Square>)],
    sides: &[String],
    found: &[usize],
) -> Vec<String> {
    found
        .iter()
        .map(|&g| {
            let (name, side, _) = &groups[g];
            let side = sides.get(*side).map_or("?", String::as_str);
            format!(
                "group `{name}` of side `{side}` can reach no enemy on the map (walls close \
                 every way): unless it can shoot them, its fights end in draws at the round cap"
            )
        })
        .collect()
}
