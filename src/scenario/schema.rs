//! The reader that enforces declared fields on a parsed scenario table.
//!
//! Rulesets declare their stat-block fields, weapon fields and options as
//! `&'static [Field]`; the scenario layer declares its own keys the same way.
//! The declaration types ([`Field`], [`Kind`], [`Lit`]) belong to the rules
//! layer (`crate::rules::field`) and are re-exported here.
//! [`Fields`] checks a table against a declaration (unknown keys with a
//! suggestion, missing required keys, types, ranges, choices) and hands out
//! typed values with defaults applied. It implements
//! [`FieldReader`], through which rulesets read their tables; their
//! [`FieldError`]s come back here and [`Fields::locate`] turns them into
//! located [`ScenarioError`]s (at the key's value, or at the table), the
//! same place and message the scenario's own keys get. `skirmish rules`
//! prints the same declarations, so the help a designer reads is what is
//! enforced.

use super::doc::{Node, Source, Span, Table, Value};
use super::error::{list_choices, suggest, Place, ScenarioError};
use crate::dice::DiceExpr;
use crate::rules::field::{FieldError, FieldReader};

/// How the message of a missing required key starts: a base scenario may
/// leave a required key to the matrix, and only that may make it invalid.
pub const MISSING_KEY: &str = "missing required key";

pub use crate::rules::field::{Field, Kind, Lit};

/// Error context: the file, and the matrix cell being compiled if any.
#[derive(Clone, Copy, Debug)]
pub struct Ctx<'a> {
    pub source: &'a Source,
    pub cell: Option<&'a str>,
}

impl Ctx<'_> {
    /// An error at `span` about key path `key`.
    pub fn error(&self, span: &Span, key: &str, message: impl Into<String>) -> ScenarioError {
        let (line, col) = self.source.line_col(span.start);
        let mut at = Place::file(&self.source.path).at(line, col);
        if !key.is_empty() {
            at = at.key(key);
        }
        at.cell = self.cell.map(str::to_string);
        ScenarioError::Invalid {
            at,
            message: message.into(),
        }
    }
}

/// A table checked against a declaration, with typed getters.
pub struct Fields<'a> {
    pub ctx: Ctx<'a>,
    table: &'a Table,
    /// The declarations that apply (e.g. engine options and ruleset options).
    schema: &'a [&'static [Field]],
    /// Key path of the table, e.g. `units.rifleman`.
    path: String,
    /// Where the table is (for "missing key" errors).
    span: Span,
}

impl<'a> Fields<'a> {
    /// Check `node` is a table whose keys are all declared in `schema` and
    /// that has every required key.
    pub fn check(
        ctx: Ctx<'a>,
        node: &'a Node,
        schema: &'a [&'static [Field]],
        path: &str,
    ) -> Result<Self, ScenarioError> {
        let Value::Table(table) = &node.value else {
            return Err(ctx.error(
                &node.span,
                path,
                format!("expected a table, found {}", node.value.type_name()),
            ));
        };
        for entry in &table.entries {
            if !schema
                .iter()
                .flat_map(|s| s.iter())
                .any(|f| f.name == entry.key)
            {
                let names = schema.iter().flat_map(|s| s.iter()).map(|f| f.name);
                let hint = match suggest(&entry.key, names.clone()) {
                    Some(s) => format!("; did you mean `{s}`?"),
                    None => String::new(),
                };
                return Err(ctx.error(
                    &entry.key_span,
                    &join(path, &entry.key),
                    format!(
                        "unknown key `{}`{hint} (valid keys: {})",
                        entry.key,
                        list_choices(names)
                    ),
                ));
            }
        }
        for field in schema
            .iter()
            .flat_map(|s| s.iter())
            .filter(|f| f.default.is_none())
        {
            if table.get(field.name).is_none() {
                return Err(ctx.error(
                    &node.span,
                    path,
                    format!(
                        "{MISSING_KEY} `{}` ({}: {})",
                        field.name,
                        field.type_text(),
                        field.doc
                    ),
                ));
            }
        }
        Ok(Fields {
            ctx,
            table,
            schema,
            path: path.to_string(),
            span: node.span.clone(),
        })
    }

    fn fields(&self) -> impl Iterator<Item = &'static Field> + '_ {
        self.schema.iter().flat_map(|s| s.iter())
    }

    /// Key path of the table.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Key path of one of its keys.
    pub fn key_path(&self, name: &str) -> String {
        join(&self.path, name)
    }

    fn field(&self, name: &str) -> &'static Field {
        // Rulesets only ask for keys they declared; a miss is a bug in the
        // ruleset, caught by the test that compiles every example scenario.
        self.fields()
            .find(|f| f.name == name)
            .unwrap_or_else(|| panic!("field `{name}` is not declared for `{}`", self.path))
    }

    /// The node for `name`, if written.
    pub fn node(&self, name: &str) -> Option<&'a Node> {
        self.table.get(name)
    }

    /// An error about key `name` (at its value, or at the table if absent).
    pub fn error(&self, name: &str, message: impl Into<String>) -> ScenarioError {
        let span = self.node(name).map_or(&self.span, |n| &n.span);
        self.ctx.error(span, &self.key_path(name), message)
    }

    fn wrong_type(&self, name: &str, node: &Node, field: &Field) -> FieldError {
        FieldError::new(
            name,
            format!(
                "expected {}, found {} `{}`",
                field.type_text(),
                node.value.type_name(),
                node.value.render()
            ),
        )
    }

    /// A [`FieldError`] from a ruleset (or a getter) as a located scenario
    /// error: at the key's value, or at the table if the key is not written.
    pub fn locate(&self, e: FieldError) -> ScenarioError {
        self.error(&e.key, e.message)
    }

    pub fn int(&self, name: &str) -> Result<i64, ScenarioError> {
        FieldReader::int(self, name).map_err(|e| self.locate(e))
    }

    pub fn float(&self, name: &str) -> Result<f64, ScenarioError> {
        FieldReader::float(self, name).map_err(|e| self.locate(e))
    }

    /// The index of the chosen name in the field's choices.
    pub fn choice(&self, name: &str) -> Result<usize, ScenarioError> {
        FieldReader::choice(self, name).map_err(|e| self.locate(e))
    }

    /// A list of names, with the span of each (for "not defined" errors).
    pub fn names(&self, name: &str) -> Result<Vec<(String, Span)>, ScenarioError> {
        let field = self.field(name);
        let Kind::Names(choices) = field.kind else {
            panic!("`{name}` is not a list field");
        };
        let Some(node) = self.node(name) else {
            return Ok(Vec::new());
        };
        let Value::Array(items) = &node.value else {
            return Err(self.locate(self.wrong_type(name, node, field)));
        };
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            let Value::Str(s) = &item.value else {
                return Err(self.ctx.error(
                    &item.span,
                    &self.key_path(name),
                    format!(
                        "expected names (strings) in the list, found {}",
                        item.value.type_name()
                    ),
                ));
            };
            if let Some(choices) = choices {
                if !choices.contains(&s.as_str()) {
                    return Err(self.ctx.error(
                        &item.span,
                        &self.key_path(name),
                        unknown_choice(s, choices),
                    ));
                }
            }
            out.push((s.clone(), item.span.clone()));
        }
        Ok(out)
    }

    /// `name = value` for every declared field, defaults included (but a
    /// [`Field::quiet`] one only when written): the options in force, for
    /// reports.
    pub fn describe(&self) -> Vec<String> {
        self.fields()
            .filter(|f| !f.quiet || self.node(f.name).is_some())
            .map(|f| {
                let value = match self.node(f.name) {
                    Some(n) => n.value.render(),
                    None => f.default_text().trim_matches('"').to_string(),
                };
                format!("{} = {}", f.name, value)
            })
            .collect()
    }
}

/// What rulesets read their fields through: the same checks and messages
/// as the scenario's own keys; [`Fields::locate`] places the errors.
impl FieldReader for Fields<'_> {
    fn int(&self, name: &str) -> Result<i64, FieldError> {
        let field = self.field(name);
        let Kind::Int { min, max } = field.kind else {
            panic!("`{name}` is not an integer field");
        };
        let v = match self.node(name) {
            None => match field.default {
                Some(Lit::Int(v)) => v,
                _ => panic!("`{name}` has no integer default"),
            },
            Some(node) => match node.value {
                Value::Int(v) => v,
                _ => return Err(self.wrong_type(name, node, field)),
            },
        };
        if !(min..=max).contains(&v) {
            return Err(FieldError::new(
                name,
                format!("expected an integer from {min} to {max}, found {v}"),
            ));
        }
        Ok(v)
    }

    fn float(&self, name: &str) -> Result<f64, FieldError> {
        let field = self.field(name);
        let Kind::Float { min, max } = field.kind else {
            panic!("`{name}` is not a number field");
        };
        let v = match self.node(name) {
            None => match field.default {
                Some(Lit::Float(v)) => v,
                _ => panic!("`{name}` has no number default"),
            },
            Some(node) => match node.value {
                Value::Float(v) => v,
                Value::Int(v) => v as f64,
                _ => return Err(self.wrong_type(name, node, field)),
            },
        };
        if !(min..=max).contains(&v) {
            return Err(FieldError::new(
                name,
                format!("expected a number from {min} to {max}, found {v}"),
            ));
        }
        Ok(v)
    }

    fn bool(&self, name: &str) -> Result<bool, FieldError> {
        let field = self.field(name);
        match self.node(name) {
            None => match field.default {
                Some(Lit::Bool(v)) => Ok(v),
                _ => panic!("`{name}` has no boolean default"),
            },
            Some(node) => match node.value {
                Value::Bool(v) => Ok(v),
                _ => Err(self.wrong_type(name, node, field)),
            },
        }
    }

    fn dice(&self, name: &str) -> Result<DiceExpr, FieldError> {
        let field = self.field(name);
        let text = match self.node(name) {
            None => match field.default {
                Some(Lit::Str(s)) => s,
                _ => panic!("`{name}` has no dice default"),
            },
            Some(node) => match &node.value {
                Value::Str(s) => s.as_str(),
                // A bare number is a fixed amount.
                Value::Int(i) => return Ok(DiceExpr::constant(*i as i32)),
                _ => return Err(self.wrong_type(name, node, field)),
            },
        };
        DiceExpr::parse(text).map_err(|e| FieldError::new(name, e.to_string()))
    }

    /// The index of the chosen name in the field's choices.
    fn choice(&self, name: &str) -> Result<usize, FieldError> {
        let field = self.field(name);
        let Kind::Choice(choices) = field.kind else {
            panic!("`{name}` is not a choice field");
        };
        let text = match self.node(name) {
            None => match field.default {
                Some(Lit::Str(s)) => s,
                _ => panic!("`{name}` has no default choice"),
            },
            Some(node) => match &node.value {
                Value::Str(s) => s.as_str(),
                _ => return Err(self.wrong_type(name, node, field)),
            },
        };
        choices
            .iter()
            .position(|c| *c == text)
            .ok_or_else(|| FieldError::new(name, unknown_choice(text, choices)))
    }
}

/// "unknown value `x`; did you mean `y`? (valid: ...)".
pub fn unknown_choice(text: &str, choices: &[&str]) -> String {
    let hint = match suggest(text, choices.iter().copied()) {
        Some(s) => format!("; did you mean `{s}`?"),
        None => String::new(),
    };
    format!(
        "unknown value `{text}`{hint} (valid: {})",
        list_choices(choices.iter().copied())
    )
}

/// `a.b` from `a` and `b`; quoted if `b` has a dot.
pub fn join(path: &str, key: &str) -> String {
    let key = if key.contains('.') || key.is_empty() {
        format!("\"{key}\"")
    } else {
        key.to_string()
    };
    if path.is_empty() {
        key
    } else {
        format!("{path}.{key}")
    }
}
