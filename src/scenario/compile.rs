//! Compile one scenario tree (the base, or a matrix cell) into an
//! [`Encounter`] for ruleset `R`: resolve names (weapons, units), expand unit
//! counts, check capacities, and let the ruleset compile its own fields
//! (through [`crate::rules::FieldReader`]; the [`crate::rules::FieldError`]s
//! it reports are located here with [`Fields::locate`]). The engine's
//! declared keys, [`ENGINE_OPTIONS`] and [`SIDE_ENTRY_FIELDS`], live in
//! [`crate::engine`] and are re-exported here.

use super::doc::{Node, Span, Table, Value};
use super::error::{list_choices, suggest, ScenarioError};
use super::schema::{unknown_choice, Ctx, Fields};
use crate::engine::{
    Condition, Conditions, Cover, Encounter, Initiative, InitiativeKind, Opening, Tactic,
    Targeting, Ties, UnitSpec, MAX_SIDES, MAX_UNITS,
};
use crate::rules::{unmodelled, Ruleset, Shared, MAX_WEAPONS};

pub use crate::engine::{ENGINE_OPTIONS, SIDE_ENTRY_FIELDS};

/// A compiled cell plus the names a report needs.
pub struct Compiled<R: Ruleset> {
    pub encounter: Encounter<R>,
    pub sides: Vec<CompiledSide>,
    /// The options in force, `name = value`.
    pub options: Vec<String>,
    /// Each unit's name and side, in encounter order: its unit group's
    /// name, numbered when the group has more than one (`rifleman 2`).
    pub unit_names: Vec<(String, u8)>,
    /// The `[weapons]` tables' names, in file order: weapon number `i`
    /// ([`crate::rules::Ruleset::number_weapon`]) is `weapon_names[i]`.
    pub weapon_names: Vec<String>,
    /// What the designer should hear of though the scenario is valid (a
    /// weapon no unit can ever use: [`super::unused`]).
    pub warnings: Vec<String>,
    /// On a map: each unit group's name, side index and the squares its
    /// units start on, in scenario order (what `map.png` draws).
    pub placed: Vec<(String, usize, Vec<crate::map::Square>)>,
    /// On a map: the groups of `placed` that can reach no enemy by terrain
    /// ([`super::map::unreachable_groups`]).
    pub unreachable: Vec<usize>,
}

pub struct CompiledSide {
    pub name: String,
    /// One line per unit group.
    pub groups: Vec<String>,
}

fn empty_table() -> Node {
    Node {
        value: Value::Table(Table::default()),
        span: 0..0,
    }
}

fn table_of<'a>(ctx: Ctx, node: &'a Node, path: &str) -> Result<&'a Table, ScenarioError> {
    match &node.value {
        Value::Table(t) => Ok(t),
        other => Err(ctx.error(
            &node.span,
            path,
            format!("expected a table, found {}", other.type_name()),
        )),
    }
}

/// Compile a scenario tree for ruleset `R`.
pub fn compile<R: Ruleset>(
    ctx: Ctx,
    root: &Table,
    max_rounds: u32,
) -> Result<Compiled<R>, ScenarioError> {
    let empty = empty_table();
    let top_span: Span = 0..0;

    // Options: the engine's shared ones plus the ruleset's.
    let options_node = root.get("options").unwrap_or(&empty);
    let schemas = [ENGINE_OPTIONS, R::OPTIONS];
    let opts = Fields::check(ctx, options_node, &schemas, "options")?;
    let kind = match opts.choice("initiative")? {
        0 => R::DEFAULT_INITIATIVE,
        k => InitiativeKind::ALL[k - 1],
    };
    let options = R::compile_options(&opts).map_err(|e| opts.locate(e))?;
    let initiative = Initiative {
        kind,
        ties: Ties::ALL[opts.choice("initiative_ties")?],
        opening: opening::<R>(&opts, kind, &options)?,
    };

    // Weapons, by name.
    let weapon_schema = [R::WEAPON_FIELDS];
    let mut weapons: Vec<(String, R::Weapon)> = Vec::new();
    if let Some(node) = root.get("weapons") {
        for entry in &table_of(ctx, node, "weapons")?.entries {
            let f = Fields::check(
                ctx,
                &entry.node,
                &weapon_schema,
                &format!("weapons.{}", entry.key),
            )?;
            if root.get("map").is_none() {
                if let Some((key, why)) = R::MAP_WEAPON_FIELDS
                    .iter()
                    .find(|(key, _)| f.node(key).is_some())
                {
                    return Err(f.error(
                        key,
                        format!("`{key}` needs a `[map]`: {why}; add a map or leave it out"),
                    ));
                }
            }
            let mut weapon = R::compile_weapon(&f).map_err(|e| f.locate(e))?;
            R::number_weapon(&mut weapon, weapons.len().min(u16::MAX as usize) as u16);
            weapons.push((entry.key.clone(), weapon));
        }
    }

    // Unit stat blocks, by name.
    let unit_schema = [R::UNIT_FIELDS];
    let has_weapons = R::UNIT_FIELDS.iter().any(|f| f.name == "weapons");
    let mut units: Vec<(String, R::Unit, Vec<String>)> = Vec::new();
    let Some(units_node) = root.get("units") else {
        return Err(ctx.error(
            &top_span,
            "units",
            "missing the `[units.NAME]` tables: no stat blocks are defined",
        ));
    };
    for entry in &table_of(ctx, units_node, "units")?.entries {
        let f = Fields::check(
            ctx,
            &entry.node,
            &unit_schema,
            &format!("units.{}", entry.key),
        )?;
        let mut resolved = Vec::new();
        let mut names = Vec::new();
        if has_weapons {
            let listed = f.names("weapons")?;
            if listed.len() > MAX_WEAPONS {
                return Err(f.error(
                    "weapons",
                    format!(
                        "at most {MAX_WEAPONS} weapons per unit; found {}",
                        listed.len()
                    ),
                ));
            }
            for (name, span) in listed {
                let Some((_, w)) = weapons.iter().find(|(n, _)| *n == name) else {
                    let known = weapons.iter().map(|(n, _)| n.as_str());
                    let hint = match suggest(&name, known.clone()) {
                        Some(s) => format!("; did you mean `{s}`?"),
                        None => String::new(),
                    };
                    return Err(ctx.error(
                        &span,
                        &f.key_path("weapons"),
                        format!(
                            "weapon `{name}` is not defined{hint} (defined weapons: {}; define it as `[weapons.{name}]`)",
                            list_choices(known)
                        ),
                    ));
                };
                resolved.push(*w);
                names.push(name);
            }
        }
        units.push((
            entry.key.clone(),
            R::compile_unit(&f, &resolved).map_err(|e| f.locate(e))?,
            names,
        ));
    }

    // Sides: unit groups, expanded by count.
    let Some(sides_node) = root.get("sides") else {
        return Err(ctx.error(
            &top_span,
            "sides",
            "missing the `[sides.NAME]` tables: a fight needs at least two sides",
        ));
    };
    let sides_table = table_of(ctx, sides_node, "sides")?;
    match sides_table.entries.len() {
        0 => {
            return Err(ctx.error(
                &sides_node.span,
                "sides",
                "no sides are defined: a fight needs at least two",
            ))
        }
        1 => {
            return Err(ctx.error(
                &sides_node.span,
                "sides",
                format!(
                    "only one side (`{}`) is defined: a fight needs at least two",
                    sides_table.entries[0].key
                ),
            ))
        }
        n if n > MAX_SIDES => {
            return Err(ctx.error(
                &sides_node.span,
                "sides",
                format!("{n} sides are defined; at most {MAX_SIDES} can fight"),
            ))
        }
        _ => {}
    }
    let map = super::map::read::<R>(ctx, root.get("map"))?;
    let ground = map.as_ref().map(|m| m.ground);
    if ground.is_some() {
        for (key, why) in R::MAP_IGNORES {
            if opts.node(key).is_some() {
                return Err(opts.error(
                    key,
                    format!("`{key}` would be ignored on a map: {why}; leave it out"),
                ));
            }
        }
    }
    for (key, why) in R::MAP_ONLY.iter().filter(|_| ground.is_none()) {
        if opts.node(key).is_some() {
            return Err(opts.error(
                key,
                format!(
                    "`{key}` would be ignored without a map: {why}; leave it out or add a `[map]`"
                ),
            ));
        }
    }
    // Squares taken by units placed so far (two groups may share a letter:
    // the later takes the cells the earlier left free).
    let mut taken: Vec<crate::map::Square> = Vec::new();
    let mut placed: Vec<(String, usize, Vec<crate::map::Square>)> = Vec::new();
    let mut specs = [UnitSpec::<R>::default(); MAX_UNITS];
    let mut n = 0usize;
    let mut group = 0usize;
    let mut sides = Vec::new();
    let mut armed: Vec<super::unused::Group<'_, R>> = Vec::new();
    let mut unit_names = Vec::new();
    let entry_schema = [SIDE_ENTRY_FIELDS];
    for (side, side_entry) in sides_table.entries.iter().enumerate() {
        let side_path = format!("sides.{}", side_entry.key);
        let groups = table_of(ctx, &side_entry.node, &side_path)?;
        if groups.entries.is_empty() {
            return Err(ctx.error(
                &side_entry.node.span,
                &side_path,
                format!(
                    "side `{}` has no units (add e.g. `{} = {{ count = 1 }}` naming a `[units.NAME]` stat block)",
                    side_entry.key,
                    units.first().map_or("NAME", |u| u.0.as_str())
                ),
            ));
        }
        let mut lines = Vec::new();
        for g in &groups.entries {
            let path = format!("{side_path}.{}", g.key);
            let Some((_, stats, weapon_names)) = units.iter().find(|u| u.0 == g.key) else {
                let known = units.iter().map(|u| u.0.as_str());
                return Err(ctx.error(
                    &g.key_span,
                    &path,
                    format!(
                        "unit `{}` is not defined: {}",
                        g.key,
                        unknown_choice(&g.key, &known.collect::<Vec<_>>())
                    ),
                ));
            };
            let f = Fields::check(ctx, &g.node, &entry_schema, &path)?;
            let count = f.int("count")? as usize;
            let cover = Cover::ALL[f.choice("cover")?];
            let targeting = Targeting::ALL[f.choice("target")?];
            let mut distance = f.int("distance")? as i32;
            let starts = match (ground, f.node("at")) {
                (None, Some(_)) => {
                    return Err(f.error(
                        "at",
                        "`at` places a group on the map, and this scenario has no `[map]`: \
                         add one, or place the group by `distance`",
                    ))
                }
                (None, None) => None,
                (Some(_), None) => {
                    return Err(ctx.error(
                        &g.node.span,
                        &path,
                        "the scenario has a `[map]`: place every group on it with `at` (a map \
                         letter such as \"A\", or a list of [column, row] squares)",
                    ))
                }
                (Some(gr), Some(_)) => {
                    if f.node("distance").is_some() {
                        return Err(f.error(
                            "distance",
                            "a group placed on the map (`at`) has no `distance`: the map places \
                             it; remove `distance`",
                        ));
                    }
                    if f.node("cover").is_some() {
                        return Err(f.error(
                            "cover",
                            "on a map, cover is the place's (walls and low cover between, a \
                             trench or foxhole dug where the unit stands): draw it on the map \
                             instead of `cover`",
                        ));
                    }
                    let all = super::map::starts(&f, &gr.map)?;
                    let free: Vec<_> = all.into_iter().filter(|s| !taken.contains(s)).collect();
                    if free.len() < count {
                        return Err(f.error(
                            "at",
                            format!(
                                "{count} units need {count} start cells and this group has {} \
                                 free (cells other groups took are not free): add cells to \
                                 the map or lower `count`",
                                free.len()
                            ),
                        ));
                    }
                    taken.extend_from_slice(&free[..count]);
                    placed.push((g.key.clone(), side, free[..count].to_vec()));
                    Some(free)
                }
            };
            // `smart` is the name after the tactics (`tactic::TACTIC_NAMES`):
            // a movement by the weapons, plus the ruleset's extras.
            let choice = f.choice("tactic")?;
            let smart = choice == Tactic::ALL.len();
            let tactic = if smart {
                crate::engine::tactic::smart_movement(R::default_tactic(stats))
            } else {
                match Tactic::ALL[choice] {
                    Tactic::Auto => R::default_tactic(stats),
                    chosen => chosen,
                }
            };
            // An unwritten `target` is `random`, except under `smart`.
            let targeting = if smart && f.node("target").is_none() {
                Targeting::Smart
            } else {
                targeting
            };
            if cover != Cover::None {
                if let Some(why) = unmodelled::<R>(Shared::Cover) {
                    return Err(f.error(
                        "cover",
                        format!(
                            "ruleset `{}` does not model cover ({why}), so `{}` cover would \
                             change nothing; leave `cover` out (or \"none\")",
                            R::NAME,
                            cover.name()
                        ),
                    ));
                }
            }
            let mut conditions = Conditions::NONE;
            for (name, span) in f.names("conditions")? {
                let c = Condition::parse(&name).expect("checked against Condition::NAMES");
                if let Some(why) = unmodelled::<R>(Shared::Condition(c)) {
                    let modelled = Condition::ALL
                        .iter()
                        .filter(|&&c| unmodelled::<R>(Shared::Condition(c)).is_none())
                        .map(|c| c.name());
                    return Err(ctx.error(
                        &span,
                        &f.key_path("conditions"),
                        format!(
                            "ruleset `{}` does not model the condition `{name}` ({why}), so it \
                             would change nothing (conditions it models: {})",
                            R::NAME,
                            list_choices(modelled)
                        ),
                    ));
                }
                conditions.set(c);
            }
            if n + count > MAX_UNITS {
                return Err(f.error(
                    "count",
                    format!(
                        "this brings the fight to {} units; the capacity is {MAX_UNITS} units per fight, all sides together",
                        n + count
                    ),
                ));
            }
            if group > u8::MAX as usize {
                return Err(ctx.error(&g.key_span, &path, "too many unit groups"));
            }
            for k in 0..count {
                if let Some(starts) = &starts {
                    distance = crate::engine::ground::pack(starts[k]);
                }
                let name = if count == 1 {
                    g.key.clone()
                } else {
                    format!("{} {}", g.key, k + 1)
                };
                unit_names.push((name, side as u8));
                specs[n] = UnitSpec {
                    side: side as u8,
                    group: group as u8,
                    stats: *stats,
                    cover,
                    conditions,
                    targeting,
                    tactic,
                    distance,
                    smart,
                    drops: 0,
                };
                R::prepare_unit(&mut specs[n], &options);
                // Asked of the prepared unit: what its tactic settles (a
                // smart dicestep archer seeks cover) counts.
                if k == 0 && cover != Cover::None {
                    if let Some(why) = R::cover_unused(&specs[n].stats) {
                        return Err(f.error(
                            "cover",
                            format!(
                                "in ruleset `{}`, `{}` cover would change nothing for unit \
                                 `{}`: {why}",
                                R::NAME,
                                cover.name(),
                                g.key
                            ),
                        ));
                    }
                }
                if starts.is_some() {
                    R::place_on_map(&mut specs[n]);
                }
                n += 1;
            }
            armed.push(super::unused::Group {
                name: &g.key,
                side,
                first: n - count,
                weapons: weapon_names
                    .iter()
                    .filter_map(|w| weapons.iter().find(|(n, _)| n == w))
                    .map(|(name, weapon)| (name.as_str(), weapon))
                    .collect(),
            });
            // Described as the fight sees it: after `prepare_unit`, which
            // settles what rule options decide (an AC base, a default speed).
            lines.push(describe_group::<R>(
                &g.key,
                count,
                weapon_names,
                &specs[n - 1],
                starts.is_some().then(|| describe_at(f.node("at"))),
            ));
            group += 1;
        }
        sides.push(CompiledSide {
            name: side_entry.key.clone(),
            groups: lines,
        });
    }
    let side_names: Vec<String> = sides
        .iter()
        .map(|s: &CompiledSide| s.name.clone())
        .collect();
    // The never-used check reasons on the front's distances; on a map units
    // move in two dimensions, and it says nothing (silent where unsound).
    let (warnings, unreachable) = match ground {
        None => (
            super::unused::never_used(&specs[..n], &side_names, &armed),
            Vec::new(),
        ),
        Some(g) => {
            let found = super::map::unreachable_groups(g, &placed);
            (
                super::map::unreachable_warnings(&placed, &side_names, &found),
                found,
            )
        }
    };
    Ok(Compiled {
        warnings,
        placed,
        unreachable,
        encounter: Encounter {
            units: specs,
            n,
            sides: sides.len(),
            options,
            initiative,
            max_rounds,
            ground,
        },
        sides,
        options: describe_options(&opts),
        unit_names,
        weapon_names: weapons.into_iter().map(|(name, _)| name).collect(),
    })
}

/// The side that opens every round under team-alternating activation:
/// `opening` in `[options]`, refused where nothing would read it (the
/// other initiative schemes order units, not sides) or where the ruleset's
/// own options already say who opens (dicestep's `surprise`).
fn opening<R: Ruleset>(
    opts: &Fields,
    kind: InitiativeKind,
    options: &R::Options,
) -> Result<Opening, ScenarioError> {
    let by_rules = R::opening_side(options);
    let chosen = match opts.choice("opening")? {
        0 => return Ok(Opening::Side(by_rules.unwrap_or(0) as u8)),
        1 => Opening::Side(0),
        2 => Opening::Side(1),
        _ => Opening::Random,
    };
    let why = match kind {
        InitiativeKind::Alternating => None,
        InitiativeKind::Side => Some("each side rolls every fight for which side acts first"),
        _ => Some("units act in their initiative order, not sides in turn"),
    };
    if let Some(why) = why {
        return Err(opts.error(
            "opening",
            format!(
                "`opening` chooses the side that activates first under team-alternating \
                 activation, but initiative is `{}` here{}: {why}, so it would be ignored; \
                 set `initiative = \"alternating\"` or leave `opening` out",
                kind.name(),
                if opts.node("initiative").is_none() {
                    format!(" (the `{}` default)", R::NAME)
                } else {
                    String::new()
                }
            ),
        ));
    }
    if by_rules.is_some() {
        return Err(opts.error(
            "opening",
            format!(
                "the `{}` options in force already decide which side opens (the side that \
                 began the fight, by `surprise`), so `opening` would be ignored; leave one \
                 of them out",
                R::NAME
            ),
        ));
    }
    Ok(chosen)
}

/// The options in force as `name = value` lines, for reports: the fields
/// in declaration order, but `opening` last and only when the scenario sets
/// it (its default is the ruleset's own order, which says nothing new), so
/// that the reports of scenarios without it read as before and the lines
/// of cells with and without it line up.
fn describe_options(opts: &Fields) -> Vec<String> {
    let mut lines = opts.describe();
    if let Some(at) = lines.iter().position(|l| l.starts_with("opening = ")) {
        let line = lines.remove(at);
        if opts.node("opening").is_some() {
            lines.push(line);
        }
    }
    lines
}

fn describe_group<R: Ruleset>(
    name: &str,
    count: usize,
    weapons: &[String],
    spec: &UnitSpec<R>,
    at: Option<String>,
) -> String {
    let mut line = format!("{count} × {name} ({}", R::describe_unit(&spec.stats));
    if !weapons.is_empty() {
        line.push_str(&format!("; {}", weapons.join(", ")));
    }
    line.push(')');
    let mut extras = Vec::new();
    if spec.cover != Cover::None {
        extras.push(format!("{} cover", spec.cover.name()));
    }
    if let Some(at) = at {
        extras.push(at);
    } else if spec.distance != 0 {
        extras.push(format!(
            "{} {} from the line",
            spec.distance,
            R::DISTANCE_UNIT
        ));
    }
    if spec.smart {
        extras.push(format!("smart ({})", spec.tactic.name()));
    } else {
        extras.push(spec.tactic.name().to_string());
    }
    if spec.targeting != Targeting::Random {
        extras.push(format!("targets {}", spec.targeting.name()));
    }
    let conds: Vec<&str> = spec.conditions.iter().map(Condition::name).collect();
    if !conds.is_empty() {
        extras.push(conds.join(", "));
    }
    if !extras.is_empty() {
        line.push_str(&format!(": {}", extras.join(", ")));
    }
    line
}

/// How a group's `at` reads in a report.
fn describe_at(node: Option<&Node>) -> String {
    match node.map(|n| &n.value) {
        Some(Value::Str(s)) => format!("starts at {s}"),
        Some(v) => format!("starts at {}", v.render()),
        None => String::new(),
    }
}

/// Compile scenario text for ruleset `R`, ignoring any matrix: for tests,
/// benches and examples that build an encounter from a snippet.
pub fn compile_str<R: Ruleset>(text: &str) -> Result<Compiled<R>, ScenarioError> {
    let scenario = super::parse(super::Source {
        path: "<inline>".to_string(),
        text: text.to_string(),
    })?;
    compile::<R>(scenario.ctx(), &scenario.root, scenario.max_rounds)
}
