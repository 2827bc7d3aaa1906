//! The scenario side of `skirmish balance`: find the numeric value at a
//! dotted path (the same paths as matrix axes) and build the one-cell
//! scenario of a probe with another value put in there.
//!
//! A balance search probes the *base* scenario: the file's `[matrix]` is
//! ignored, except that a matrix axis on the same path with numeric values
//! gives default bounds (its smallest and largest value). Other axes keep
//! the base scenario's values.

use super::doc::{Node, Span, Table, Value};
use super::error::{list_choices, suggest, Place, ScenarioError};
use super::matrix::Axis;
use super::{Scenario, TOP_FIELDS};

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
    /// Where the value is written (errors in a probe's value point here).
    span: Span,
}

impl Scenario {
    /// The numeric value at `path`: its base value decides integer or real;
    /// a path written only as a matrix axis is judged by the axis's values.
    pub fn balance_axis(&self, path: &str) -> Result<BalanceAxis, ScenarioError> {
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
        let base = match lookup(&self.root, path) {
            Ok(node) => Some(node),
            Err(message) if matrix.is_none() => {
                return Err(err(format!(
                    "balance axis `{path}` does not exist: {message}"
                )))
            }
            Err(_) => None,
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
        Ok(BalanceAxis {
            path: path.to_string(),
            integer,
            base: base_value,
            matrix_bounds,
            span,
        })
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
        probe.axes = vec![Axis {
            path: axis.path.clone(),
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

    #[test]
    fn finds_integer_and_matrix_axes() {
        let s = scenario("[matrix]\n\"sides.a.b.count\" = [1, 5, 3]\n");
        let a = s.balance_axis("sides.a.b.count").unwrap();
        assert!(a.integer);
        assert_eq!(a.base, Some(2.0));
        assert_eq!(a.matrix_bounds, Some((1.0, 5.0)));
        let probe = s.with_balance_value(&a, 4.0);
        let cells = probe.cells().unwrap();
        assert_eq!(cells.len(), 1);
        assert_eq!(cells[0].axis_values, ["4"]);
        // Written only in the matrix: judged by the axis values.
        let s = scenario("[matrix]\n\"units.b.armor\" = [0, 1.5]\n");
        let a = s.balance_axis("units.b.armor").unwrap();
        assert!(!a.integer);
        assert_eq!((a.base, a.matrix_bounds), (None, Some((0.0, 1.5))));
    }

    #[test]
    fn rejects_missing_and_non_numeric_paths() {
        let s = scenario("");
        let e = s.balance_axis("sides.a.b.cover").unwrap_err().to_string();
        assert!(e.contains("non-numeric balance axis"), "{e}");
        assert!(e.contains("`half`"), "{e}");
        let e = s.balance_axis("sides.a.bb.count").unwrap_err().to_string();
        assert!(
            e.contains("does not exist") && e.contains("did you mean `b`"),
            "{e}"
        );
        let e = s.balance_axis("units.b.hp.x").unwrap_err().to_string();
        assert!(e.contains("not a table"), "{e}");
        let e = s.balance_axis("seed").unwrap_err().to_string();
        assert!(e.contains("setting of the run"), "{e}");
    }
}
