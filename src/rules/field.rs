//! Field declarations and how a ruleset reads them: the vocabulary the
//! rules layer shares with the scenario layer, owned here, below both.
//!
//! Rulesets declare their stat-block fields, weapon fields and options as
//! `&'static [Field]`. When a scenario is compiled, a ruleset reads its
//! tables through [`FieldReader`] (typed values, defaults applied, types
//! and ranges already checked) and reports what it finds wrong as a
//! [`FieldError`]: the key and the message. The scenario layer implements
//! the reader on its parsed tables and turns each `FieldError` into its
//! located error (file, line and column, key path), so the rules never see
//! the scenario file and layers depend one way: scenario -> rules.

use crate::dice::DiceExpr;

/// What a field holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    Int {
        min: i64,
        max: i64,
    },
    Float {
        min: f64,
        max: f64,
    },
    Bool,
    /// Dice notation, e.g. `1d8+3`.
    Dice,
    /// One of a few names.
    Choice(&'static [&'static str]),
    /// A list of names (weapons, conditions, ...), each one of `choices` if
    /// given, otherwise checked by the caller.
    Names(Option<&'static [&'static str]>),
    /// Free text.
    Text,
}

/// A default value; `None` in [`Field::default`] means the field is required.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Lit {
    Int(i64),
    Float(f64),
    Bool(bool),
    Str(&'static str),
    NoNames,
}

impl Lit {
    /// The value as a scenario's value renders (strings unquoted), so that
    /// a default compares with a written value.
    pub fn render(&self) -> String {
        match self {
            Lit::Int(i) => i.to_string(),
            Lit::Float(f) => format!("{f}"),
            Lit::Bool(b) => b.to_string(),
            Lit::Str(s) => s.to_string(),
            Lit::NoNames => "[]".to_string(),
        }
    }
}

/// One declared key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Field {
    pub name: &'static str,
    pub kind: Kind,
    pub default: Option<Lit>,
    pub doc: &'static str,
    /// The section of the ruleset's source text that states the rule (or
    /// the number) this field sets, as the conformance table names it;
    /// empty when no one section does (a stat block's own numbers).
    /// `skirmish rules` prints it after the help line.
    pub section: &'static str,
    /// Listed among a report's options in force only when the scenario
    /// writes it (a matrix axis included): set on a rule number made an
    /// option after reports were checked in ([`Field::quiet`]), so that the
    /// reports of scenarios that leave it at the text's value stay as they
    /// were.
    pub quiet: bool,
}

impl Field {
    pub const fn new(
        name: &'static str,
        kind: Kind,
        default: Option<Lit>,
        doc: &'static str,
    ) -> Field {
        Field {
            name,
            kind,
            default,
            doc,
            section: "",
            quiet: false,
        }
    }

    /// The same field, listed among a report's options in force only when
    /// the scenario writes it (see [`Field::quiet`]'s field).
    pub const fn quiet(self) -> Field {
        Field {
            quiet: true,
            ..self
        }
    }

    /// The same field, naming the section of the text its rule is stated in
    /// (`Field::int(...).section("Cover")`).
    pub const fn section(self, section: &'static str) -> Field {
        Field { section, ..self }
    }

    /// A real-number field in `min..=max` with a default.
    pub const fn float(
        name: &'static str,
        min: f64,
        max: f64,
        default: f64,
        doc: &'static str,
    ) -> Field {
        Field::new(
            name,
            Kind::Float { min, max },
            Some(Lit::Float(default)),
            doc,
        )
    }

    /// One of a few names, with a default.
    pub const fn choice(
        name: &'static str,
        choices: &'static [&'static str],
        default: &'static str,
        doc: &'static str,
    ) -> Field {
        Field::new(name, Kind::Choice(choices), Some(Lit::Str(default)), doc)
    }

    /// The help line as printed: the doc and, if there is one, the section
    /// of the text.
    pub fn help(&self) -> String {
        if self.section.is_empty() {
            self.doc.to_string()
        } else {
            format!("{} [text: \"{}\"]", self.doc, self.section)
        }
    }

    /// Whether the field is a number a matrix axis, `balance` and
    /// `sensitivity` can move.
    pub fn numeric(&self) -> bool {
        matches!(self.kind, Kind::Int { .. } | Kind::Float { .. })
    }

    /// An integer field in `min..=max` with a default (the common case in
    /// stat blocks and options).
    pub const fn int(
        name: &'static str,
        min: i64,
        max: i64,
        default: i64,
        doc: &'static str,
    ) -> Field {
        Field::new(name, Kind::Int { min, max }, Some(Lit::Int(default)), doc)
    }

    /// A true/false field with a default.
    pub const fn flag(name: &'static str, default: bool, doc: &'static str) -> Field {
        Field::new(name, Kind::Bool, Some(Lit::Bool(default)), doc)
    }

    /// The type as shown in `skirmish rules` and in "expected" messages.
    pub fn type_text(&self) -> String {
        match self.kind {
            Kind::Int { min, max } => format!("integer {min}..={max}"),
            Kind::Float { min, max } => format!("number {min}..={max}"),
            Kind::Bool => "true/false".to_string(),
            Kind::Dice => "dice".to_string(),
            Kind::Choice(c) => c.join(" | "),
            Kind::Names(Some(c)) => format!("list of: {}", c.join(", ")),
            Kind::Names(None) => "list of names".to_string(),
            Kind::Text => "text".to_string(),
        }
    }

    /// The default as written in a scenario file, or `required`.
    pub fn default_text(&self) -> String {
        match self.default {
            None => "required".to_string(),
            Some(Lit::Str(s)) => format!("\"{s}\""),
            Some(lit) => lit.render(),
        }
    }
}

/// A problem with one key of a table a ruleset reads: `key` is the field's
/// name in that table (the reader's own errors and [`FieldReader::error`]
/// alike); the scenario layer locates it (file, line, column, key path).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{key}`: {message}")]
pub struct FieldError {
    pub key: String,
    pub message: String,
}

impl FieldError {
    pub fn new(key: &str, message: impl Into<String>) -> FieldError {
        FieldError {
            key: key.to_string(),
            message: message.into(),
        }
    }
}

/// A table checked against its declaration (unknown keys, missing required
/// keys), read with typed getters that apply the declared defaults and
/// check types, ranges and choices. Asking for a key that is not declared,
/// or with a getter of the wrong kind, is a bug in the ruleset and panics.
pub trait FieldReader {
    fn int(&self, name: &str) -> Result<i64, FieldError>;
    fn float(&self, name: &str) -> Result<f64, FieldError>;
    fn bool(&self, name: &str) -> Result<bool, FieldError>;
    fn dice(&self, name: &str) -> Result<DiceExpr, FieldError>;
    /// The index of the chosen name in the field's choices.
    fn choice(&self, name: &str) -> Result<usize, FieldError>;
    /// Whether the table writes key `name` (false: its default applies).
    fn written(&self, name: &str) -> bool;

    /// An error about key `name`, in the ruleset's words (reported at the
    /// key's value, or at the table if the key is not written).
    fn error(&self, name: &str, message: impl Into<String>) -> FieldError
    where
        Self: Sized,
    {
        FieldError::new(name, message)
    }
}
