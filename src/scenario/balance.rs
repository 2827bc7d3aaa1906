//! The scenario side of `skirmish balance`: find the numeric value at a
//! dotted path (the same paths as matrix axes) and build the one-cell
//! scenario of a probe with another value put in there.
//!
//! A balance search probes the *base* scenario: the file's `[matrix]` is
//! ignored, except that a matrix axis on the same path with numeric values
//! gives default bounds (its smallest and largest value). Other axes keep
//! the base scenario's values.
//!
//! A path may name a field the file leaves at its default (a rule option,
//! a stat-block or weapon field the ruleset declares): the search starts
//! from the declared default. A stat block (or a weapon) that more than one
//! side fields is refused unless one side's copy is named (`--side-copy`):
//! moving both sides at once measures nothing. That side then fights with
//! a copy of its own, made as `sensitivity` makes its copies
//! ([`super::sensitivity::own_copy`]).

use super::doc::{Node, Span, Table, Value};
use super::error::{list_choices, suggest, Place, ScenarioError};
use super::matrix::Axis;
use super::sensitivity::{carried, own_copy, sides_fielding, subjects, table_at};
use super::{Scenario, TOP_FIELDS};
use crate::engine::ENGINE_OPTIONS;
use crate::rules::{Field, Kind, Lit, Ruleset};

/// A numeric scenario value to search along.
#[derive(Clone, Debug, PartialEq)]
pub struct BalanceAxis {
    /// Dotted path, e.g. `sides.raiders.raider.count`.
    pub path: String,
    /// Whole numbers (the base value is an integer) or reals.
    pub integer: bool,
    /// The base value, if the file writes one.
    pub base: Option<f64>,
    /// Smallest and largest value of a matrix axis on the same path.
    pub matrix_bounds: Option<(f64, f64)>,
    /// The file leaves the field at its declared default, which `base` is.
    pub defaulted: bool,
    /// The side whose own copy of the stat block (or weapon) is searched
    /// (`--side-copy`).
    pub side_copy: Option<String>,
    /// Where the value is written (errors in a probe's value point here).
    span: Span,
    /// Where a probe's value goes: `path`, or the path into the side's copy.
    put: String,
    /// The base tree with the side's copy, when there is one.
    root: Option<Table>,
}

impl Scenario {
    /// The numeric value at `path`: its base value decides integer or real;
    /// a path written only as a matrix axis is judged by the axis's values,
    /// and one not written at all by its declared default. `side_copy`:
    /// search only that side's copy of the stat block or weapon (required
    /// when several sides field it).
    pub fn balance_axis(
        &self,
        path: &str,
        side_copy: Option<&str>,
    ) -> Result<BalanceAxis, ScenarioError> {
        let err = |message: String| ScenarioError::Invalid {
            at: Place::file(&self.source.path).key(path),
            message,
        };
        if path.split('.').any(str::is_empty) {
            return Err(err(
                "a balance axis is dot-separated keys, e.g. `sides.raiders.raider.count`".into(),
            ));
        }
        if TOP_FIELDS.iter().any(|f| f.name == path) {
            return Err(err(format!(
                "`{path}` is a setting of the run, not something to balance; \
                 give a path into `units`, `weapons`, `sides` or `options`"
            )));
        }
        let matrix = self.axes.iter().find(|a| a.path == path);
        let declared = self.declared_field(path);
        let base = match lookup(&self.root, path) {
            Ok(node) => Some(node),
            Err(_) if matrix.is_some() => None,
            Err(message) => match declared {
                Some(field) => {
                    let (integer, value) = default_number(field).ok_or_else(|| {
                        err(format!(
                            "non-numeric balance axis `{path}`: it is {} (default {}); \
                             balance searches numbers (a count, hit points, a bonus, a \
                             distance, a rule number)",
                            field.type_text(),
                            field.default_text()
                        ))
                    })?;
                    let span = 0..0;
                    return self.finish_axis(path, side_copy, integer, Some(value), span, true);
                }
                None => {
                    return Err(err(format!(
                        "balance axis `{path}` does not exist: {message}"
                    )))
                }
            },
        };
        let (integer, base_value, span) = match (base, matrix) {
            (Some(node), _) => {
                let (integer, v) = numeric(&node.value).ok_or_else(|| {
                    non_numeric(
                        &self.source.path,
                        path,
                        &node.value,
                        "its value in the scenario",
                    )
                })?;
                (integer, Some(v), node.span.clone())
            }
            (None, Some(axis)) => {
                let mut integer = true;
                for node in &axis.values {
                    let (i, _) = numeric(&node.value).ok_or_else(|| {
                        non_numeric(
                            &self.source.path,
                            path,
                            &node.value,
                            "a value of its matrix axis",
                        )
                    })?;
                    integer &= i;
                }
                (integer, None, axis.span.clone())
            }
            (None, None) => unreachable!("handled above"),
        };
        self.finish_axis(path, side_copy, integer, base_value, span, false)
    }

    /// The rest of [`Scenario::balance_axis`]: matrix bounds, and the side's
    /// copy (or the refusal of a stat block several sides field).
    fn finish_axis(
        &self,
        path: &str,
        side_copy: Option<&str>,
        integer: bool,
        base: Option<f64>,
        span: Span,
        defaulted: bool,
    ) -> Result<BalanceAxis, ScenarioError> {
        let err = |key: &str, message: String| ScenarioError::Invalid {
            at: Place::file(&self.source.path).key(key),
            message,
        };
        let matrix = self.axes.iter().find(|a| a.path == path);
        let matrix_bounds = matrix.and_then(|axis| {
            let values: Option<Vec<f64>> = axis
                .values
                .iter()
                .map(|n| numeric(&n.value).map(|(_, v)| v))
                .collect();
            let values = values?;
            let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            Some((lo, hi))
        });
        let segments: Vec<&str> = path.split('.').collect();
        // Whose stat block or weapon the path names, and which sides field it.
        let owner: Option<(&str, Option<&str>, Vec<String>)> = match segments.as_slice() {
            ["units", unit, _] => Some((unit, None, sides_fielding(&self.root, unit))),
            ["weapons", weapon, _] => Some(("", Some(weapon), self.sides_carrying(weapon))),
            _ => None,
        };
        // `units.NAME` or `weapons.NAME`: the table the path's field is in.
        let table = path.rsplit_once('.').map_or(path, |(t, _)| t);
        let mut axis = BalanceAxis {
            path: path.to_string(),
            integer,
            base,
            matrix_bounds,
            defaulted,
            side_copy: None,
            span,
            put: path.to_string(),
            root: None,
        };
        match (owner, side_copy) {
            (Some((_, _, sides)), None) if sides.len() > 1 => Err(err(
                path,
                format!(
                    "`{table}` is fielded by sides {}: a search of `{path}` would change \
                         all of them at once and measure nothing; give --side-copy SIDE to \
                         change only that side's copy (sides: {})",
                    sides.join(" and "),
                    list_choices(sides.iter().map(String::as_str))
                ),
            )),
            (_, None) => Ok(axis),
            (None, Some(_)) => Err(err(
                "--side-copy",
                format!(
                    "--side-copy is for a stat block's or a weapon's field (`units.NAME.FIELD`, \
                     `weapons.NAME.FIELD`), which several sides may field; `{path}` is not one"
                ),
            )),
            (Some((what, weapon, sides)), Some(side)) => {
                if !sides.iter().any(|s| s == side) {
                    return Err(err(
                        "--side-copy",
                        format!(
                            "side `{side}` does not field `{table}` (sides that do: {})",
                            list_choices(sides.iter().map(String::as_str))
                        ),
                    ));
                }
                let field = segments[2];
                let shared = |unit: &str| sides_fielding(&self.root, unit).len() > 1;
                let (tree, copy) = match weapon {
                    None => own_copy(&self.root, side, what, None, shared(what)),
                    Some(w) => {
                        // Every stat block of this side that carries the
                        // weapon gets it from one copy.
                        let units: Vec<String> = self.side_units_carrying(side, w);
                        let mut tree = self.root.clone();
                        let mut copy = None;
                        for unit in &units {
                            let Some((t, at)) = own_copy(&tree, side, unit, Some(w), shared(unit))
                            else {
                                continue;
                            };
                            tree = t;
                            copy = Some(at);
                        }
                        copy.map(|c| (tree, c))
                    }
                }
                .ok_or_else(|| err(path, format!("`{path}` names no stat block or weapon")))?;
                axis.put = format!("{copy}.{field}");
                axis.root = Some(tree);
                axis.side_copy = Some(side.to_owned());
                Ok(axis)
            }
        }
    }

    /// The declared field a path names, whether or not the file writes it:
    /// `options.NAME` (rule or engine option), `units.UNIT.FIELD` and
    /// `weapons.WEAPON.FIELD` of a stat block or weapon the file has.
    fn declared_field(&self, path: &str) -> Option<&'static Field> {
        let (options, unit_fields, weapon_fields) = crate::with_ruleset!(
            self.rules.as_str(),
            R => (R::OPTIONS, R::UNIT_FIELDS, R::WEAPON_FIELDS),
            _ => return None);
        let segments: Vec<&str> = path.split('.').collect();
        let find = |fields: &'static [Field], name: &str| fields.iter().find(|f| f.name == name);
        match segments.as_slice() {
            ["options", name] => find(options, name).or_else(|| find(ENGINE_OPTIONS, name)),
            ["units", unit, name] => {
                table_at(&self.root, &["units", unit])?;
                find(unit_fields, name)
            }
            ["weapons", weapon, name] => {
                table_at(&self.root, &["weapons", weapon])?;
                find(weapon_fields, name)
            }
            _ => None,
        }
    }

    /// Every (side, stat block) the sides field whose stat block carries
    /// weapon `weapon`, in side then group order.
    fn carriers(&self, weapon: &str) -> Vec<(String, String)> {
        subjects(&self.root)
            .into_iter()
            .filter(|(_, unit)| {
                table_at(&self.root, &["units", unit])
                    .is_some_and(|t| carried(t).iter().any(|w| w == weapon))
            })
            .collect()
    }

    /// The sides with a stat block that carries weapon `weapon`.
    fn sides_carrying(&self, weapon: &str) -> Vec<String> {
        let mut sides: Vec<String> = self.carriers(weapon).into_iter().map(|(s, _)| s).collect();
        sides.dedup();
        sides
    }

    /// The stat blocks side `side` fields that carry weapon `weapon`.
    fn side_units_carrying(&self, side: &str, weapon: &str) -> Vec<String> {
        let mut units: Vec<String> = self
            .carriers(weapon)
            .into_iter()
            .filter(|(s, _)| s == side)
            .map(|(_, unit)| unit)
            .collect();
        units.dedup();
        units
    }

    /// The one-cell scenario of a probe: the base scenario (no matrix) with
    /// `value` at the axis path. Compile it with [`crate::run::plan`]; a
    /// value the scenario cannot take is an error naming the cell.
    pub fn with_balance_value(&self, axis: &BalanceAxis, value: f64) -> Scenario {
        let value = if axis.integer {
            Value::Int(value as i64)
        } else {
            Value::Float(value)
        };
        let mut probe = self.clone();
        if let Some(root) = &axis.root {
            probe.root = root.clone();
        }
        probe.axes = vec![Axis {
            path: axis.put.clone(),
            span: axis.span.clone(),
            values: vec![Node {
                value,
                span: axis.span.clone(),
            }],
        }];
        probe.baseline = 0;
        probe.precision = None;
        probe
    }
}

/// `(is an integer, as f64)` for a numeric field's declared default.
fn default_number(field: &Field) -> Option<(bool, f64)> {
    match (field.kind, field.default?) {
        (Kind::Int { .. }, Lit::Int(i)) => Some((true, i as f64)),
        (Kind::Float { .. }, Lit::Float(f)) => Some((false, f)),
        (Kind::Float { .. }, Lit::Int(i)) => Some((false, i as f64)),
        _ => None,
    }
}

/// `(is an integer, as f64)` for a numeric value.
fn numeric(value: &Value) -> Option<(bool, f64)> {
    match *value {
        Value::Int(i) => Some((true, i as f64)),
        Value::Float(f) if f.is_finite() => Some((false, f)),
        _ => None,
    }
}

fn non_numeric(file: &str, path: &str, value: &Value, which: &str) -> ScenarioError {
    ScenarioError::Invalid {
        at: Place::file(file).key(path),
        message: format!(
            "non-numeric balance axis `{path}`: {which} is {} (`{}`); balance searches \
             numbers (a count, hit points, a bonus, a distance)",
            value.type_name(),
            value.render()
        ),
    }
}

/// The node at a dotted path, or why there is none.
fn lookup<'a>(root: &'a Table, path: &str) -> Result<&'a Node, String> {
    let mut table = root;
    let mut walked = String::new();
    let segments: Vec<&str> = path.split('.').collect();
    for (i, seg) in segments.iter().enumerate() {
        let here = if walked.is_empty() {
            "the scenario".to_string()
        } else {
            format!("`{walked}`")
        };
        let Some(node) = table.get(seg) else {
            let hint = match suggest(seg, table.keys()) {
                Some(s) => format!("; did you mean `{s}`?"),
                None => String::new(),
            };
            return Err(format!(
                "{here} has no `{seg}`{hint} (it has {})",
                list_choices(table.keys())
            ));
        };
        if i + 1 == segments.len() {
            return Ok(node);
        }
        match &node.value {
            Value::Table(t) => table = t,
            other => {
                return Err(format!(
                    "{here}.{seg} is {}, not a table",
                    other.type_name()
                ))
            }
        }
        if !walked.is_empty() {
            walked.push('.');
        }
        walked.push_str(seg);
    }
    unreachable!("paths have at least one segment")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{parse, Source};

    fn scenario(extra: &str) -> Scenario {
        let text = format!(
            "name = \"t\"\nrules = \"trenches\"\n\
             [weapons.knife]\nkind = \"melee\"\nattack = 3\ndamage = \"1d6\"\n\
             [units.b]\nhp = 10\nweapons = [\"knife\"]\n\
             [sides.a]\nb = {{ count = 2, cover = \"half\" }}\n\
             [sides.d]\nb = {{ count = 2 }}\n{extra}"
        );
        parse(Source {
            path: "t.toml".into(),
            text,
        })
        .unwrap()
    }

    impl Scenario {
        fn balance_axis_of(&self, path: &str) -> Result<BalanceAxis, ScenarioError> {
            self.balance_axis(path, None)
        }
    }

    #[test]
    fn finds_integer_and_matrix_axes() {
        let s = scenario("[matrix]\n\"sides.a.b.count\" = [1, 5, 3]\n");
        let a = s.balance_axis_of("sides.a.b.count").unwrap();
        assert!(a.integer);
        assert_eq!(a.base, Some(2.0));
        assert_eq!(a.matrix_bounds, Some((1.0, 5.0)));
        let probe = s.with_balance_value(&a, 4.0);
        let cells = probe.cells().unwrap();
        assert_eq!(cells.len(), 1);
        assert_eq!(cells[0].axis_values, ["4"]);
        // Written only in the matrix: judged by the axis values.
        let s = scenario("[matrix]\n\"units.b.armor\" = [0, 1.5]\n");
        let a = s.balance_axis("units.b.armor", Some("a")).unwrap();
        assert!(!a.integer);
        assert_eq!((a.base, a.matrix_bounds), (None, Some((0.0, 1.5))));
    }

    #[test]
    fn a_field_left_at_its_default_starts_from_the_declared_default() {
        let s = scenario("");
        // A rule option the file does not write (no `[options]` at all).
        let a = s.balance_axis_of("options.full_cover_damage").unwrap();
        assert!(a.defaulted && !a.integer);
        assert_eq!(a.base, Some(0.5));
        let probe = s.with_balance_value(&a, 0.25);
        assert_eq!(probe.cells().unwrap()[0].axis_values, ["0.25"]);
        // A declared stat-block field the file leaves out.
        let a = s.balance_axis("units.b.armor_firearm", Some("d")).unwrap();
        assert!(a.defaulted && a.integer);
        assert_eq!(a.base, Some(0.0));
        // Not declared: the message lists what there is.
        let e = s
            .balance_axis_of("options.crit_chance")
            .unwrap_err()
            .to_string();
        assert!(e.contains("does not exist"), "{e}");
        // A choice is not a number.
        let e = s.balance_axis_of("options.crit").unwrap_err().to_string();
        assert!(e.contains("non-numeric balance axis"), "{e}");
    }

    #[test]
    fn a_stat_block_two_sides_field_needs_a_side_copy() {
        let s = scenario("");
        let e = s.balance_axis_of("units.b.hp").unwrap_err().to_string();
        assert!(
            e.contains("fielded by sides a and d") && e.contains("--side-copy"),
            "{e}"
        );
        let e = s
            .balance_axis_of("weapons.knife.attack")
            .unwrap_err()
            .to_string();
        assert!(e.contains("fielded by sides a and d"), "{e}");
        let e = s
            .balance_axis("units.b.hp", Some("x"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("side `x` does not field `units.b`"), "{e}");
        let e = s
            .balance_axis("sides.a.b.count", Some("a"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("--side-copy is for"), "{e}");
        // Side a's copy changes; side d's b keeps the file's value.
        let a = s.balance_axis("units.b.hp", Some("a")).unwrap();
        assert_eq!(a.base, Some(10.0));
        let probe = s.with_balance_value(&a, 20.0);
        let cell = probe.cells().unwrap().remove(0);
        let units = match &cell.root.get("units").unwrap().value {
            Value::Table(t) => t.clone(),
            _ => unreachable!(),
        };
        let hp = |unit: &str| match &units.get(unit).unwrap().value {
            Value::Table(t) => t.get("hp").unwrap().value.render(),
            _ => unreachable!(),
        };
        assert_eq!(hp("b"), "10");
        assert_eq!(hp("b (a)"), "20");
        // A weapon: side d's stat blocks get a copy of the knife.
        let a = s.balance_axis("weapons.knife.attack", Some("d")).unwrap();
        let probe = s.with_balance_value(&a, 7.0);
        let cell = probe.cells().unwrap().remove(0);
        let weapons = match &cell.root.get("weapons").unwrap().value {
            Value::Table(t) => t.keys().map(str::to_owned).collect::<Vec<_>>(),
            _ => unreachable!(),
        };
        assert_eq!(weapons, ["knife", "knife (b (d))"]);
    }

    #[test]
    fn rejects_missing_and_non_numeric_paths() {
        let s = scenario("");
        let e = s
            .balance_axis_of("sides.a.b.cover")
            .unwrap_err()
            .to_string();
        assert!(e.contains("non-numeric balance axis"), "{e}");
        assert!(e.contains("`half`"), "{e}");
        let e = s
            .balance_axis_of("sides.a.bb.count")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("does not exist") && e.contains("did you mean `b`"),
            "{e}"
        );
        let e = s.balance_axis_of("units.b.hp.x").unwrap_err().to_string();
        assert!(e.contains("not a table"), "{e}");
        let e = s.balance_axis_of("seed").unwrap_err().to_string();
        assert!(e.contains("setting of the run"), "{e}");
    }
}
