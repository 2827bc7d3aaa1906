//! The scenario file as a tree of values that remember where they were
//! written (byte spans into the file), so every later error can name a line
//! and column. Matrix cells are copies of this tree with axis values put in,
//! and those values keep the span of the matrix entry they came from.

use std::ops::Range;

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use super::error::{Place, ScenarioError};

pub type Span = Range<usize>;

/// A scenario file's text and the name to show for it.
#[derive(Clone, Debug)]
pub struct Source {
    /// The path as the user gave it.
    pub path: String,
    pub text: String,
}

impl Source {
    /// 1-based line and column of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let before = &self.text[..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let col = before[line_start..].chars().count() + 1;
        (line, col)
    }
}

/// A value and where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub value: Value,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    Array(Vec<Node>),
    Table(Table),
}

/// A table in file order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    pub entries: Vec<Entry>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub key: String,
    pub key_span: Span,
    pub node: Node,
}

impl Table {
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entries.iter().find(|e| e.key == key).map(|e| &e.node)
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut Node> {
        self.entries
            .iter_mut()
            .find(|e| e.key == key)
            .map(|e| &mut e.node)
    }

    pub fn entry(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.key == key)
    }

    /// Set `key` to `node`, replacing any value in place (keeping file order)
    /// or appending.
    pub fn set(&mut self, key: &str, node: Node) {
        match self.get_mut(key) {
            Some(slot) => *slot = node,
            None => self.entries.push(Entry {
                key: key.to_string(),
                key_span: node.span.clone(),
                node,
            }),
        }
    }

    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|e| e.key.as_str())
    }
}

impl Value {
    /// The TOML type name, for "expected X, found Y" messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Str(_) => "a string",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a float",
            Value::Bool(_) => "a boolean",
            Value::Array(_) => "an array",
            Value::Table(_) => "a table",
        }
    }

    /// The value as a designer would write it, strings without quotes: how
    /// axis values appear in report columns.
    pub fn render(&self) -> String {
        match self {
            Value::Str(s) => s.clone(),
            Value::Int(i) => i.to_string(),
            Value::Float(f) => format!("{f}"),
            Value::Bool(b) => b.to_string(),
            Value::Array(items) => {
                let inner: Vec<String> = items.iter().map(|n| n.value.render()).collect();
                format!("[{}]", inner.join(", "))
            }
            Value::Table(t) => {
                let inner: Vec<String> = t
                    .entries
                    .iter()
                    .map(|e| format!("{} = {}", e.key, e.node.value.render()))
                    .collect();
                format!("{{{}}}", inner.join(", "))
            }
        }
    }
}

/// Parse TOML text into a spanned tree. Syntax errors name line and column.
pub fn parse(source: &Source) -> Result<Table, ScenarioError> {
    let root = DeTable::parse(&source.text).map_err(|e| {
        let offset = e.span().map_or(0, |s| s.start);
        let (line, col) = source.line_col(offset);
        let mut message = e.message().trim().to_string();
        if message == "duplicate key" {
            message = duplicate_key(source, offset, line);
        }
        ScenarioError::Syntax {
            at: Place::file(&source.path).at(line, col),
            message,
        }
    })?;
    convert_table(source, root.get_ref())
}

/// The TOML parser says only "duplicate key"; name the key (or the table
/// written twice) and the line where it was first written, where that can
/// be found for sure.
fn duplicate_key(source: &Source, offset: usize, line: usize) -> String {
    let lines: Vec<&str> = source.text.lines().collect();
    let here = lines.get(line - 1).map_or("", |l| l.trim());
    // A table header written twice: `[units.rifleman]`.
    if here.starts_with('[') {
        let header = here.split('#').next().unwrap_or(here).trim();
        let first = lines[..line - 1]
            .iter()
            .position(|l| l.split('#').next().unwrap_or("").trim() == header);
        return match first {
            Some(i) => format!(
                "the table `{header}` is written twice (first on line {}): merge the two into one",
                i + 1
            ),
            None => format!("the table `{header}` is written twice: merge the two into one"),
        };
    }
    let rest = &source.text[offset.min(source.text.len())..];
    let key = match rest.strip_prefix('"') {
        Some(quoted) => quoted.split('"').next().unwrap_or(""),
        None => rest
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .next()
            .unwrap_or(""),
    };
    if key.is_empty() {
        return "duplicate key: a key may be set only once per table".to_string();
    }
    // The same key earlier on this line (an inline table) or on an earlier
    // line of the same table (back to its header).
    let written_at = |l: &str| {
        let l = l.trim_start();
        [format!("{key} "), format!("{key}="), format!("\"{key}\"")]
            .iter()
            .any(|p| l.starts_with(p.as_str()))
    };
    let line_start = source.text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let before_on_line = &source.text[line_start..offset];
    let same_line = before_on_line
        .split([',', '{'])
        .any(|part| written_at(part) && part.trim_start().contains('='));
    let first = if same_line {
        Some(line)
    } else {
        lines[..line - 1]
            .iter()
            .rev()
            .take_while(|l| !l.trim_start().starts_with('['))
            .position(|l| written_at(l))
            .map(|back| line - 1 - back)
    };
    match first {
        Some(n) => format!(
            "duplicate key `{key}`: it is already set on line {n}; a key may be set only once \
             per table"
        ),
        None => format!("duplicate key `{key}`: a key may be set only once per table"),
    }
}

fn convert_table(source: &Source, table: &DeTable<'_>) -> Result<Table, ScenarioError> {
    let mut out = Table::default();
    for (key, value) in table.iter() {
        out.entries.push(Entry {
            key: key.get_ref().to_string(),
            key_span: key.span(),
            node: convert(source, value)?,
        });
    }
    Ok(out)
}

fn convert(source: &Source, value: &Spanned<DeValue<'_>>) -> Result<Node, ScenarioError> {
    let span = value.span();
    let bad_number = |text: &str| {
        let (line, col) = source.line_col(span.start);
        ScenarioError::Invalid {
            at: Place::file(&source.path).at(line, col),
            message: format!("`{text}` is not a number skirmish can use (out of range)"),
        }
    };
    let v = match value.get_ref() {
        DeValue::String(s) => Value::Str(s.to_string()),
        DeValue::Integer(i) => {
            let digits: String = i.as_str().chars().filter(|&c| c != '_').collect();
            Value::Int(i64::from_str_radix(&digits, i.radix()).map_err(|_| bad_number(i.as_str()))?)
        }
        DeValue::Float(f) => {
            let digits: String = f.as_str().chars().filter(|&c| c != '_').collect();
            let parsed: f64 = match digits.as_str() {
                "inf" | "+inf" => f64::INFINITY,
                "-inf" => f64::NEG_INFINITY,
                "nan" | "+nan" | "-nan" => f64::NAN,
                d => d.parse().map_err(|_| bad_number(f.as_str()))?,
            };
            Value::Float(parsed)
        }
        DeValue::Boolean(b) => Value::Bool(*b),
        DeValue::Datetime(d) => Value::Str(d.to_string()),
        DeValue::Array(items) => Value::Array(
            items
                .into_iter()
                .map(|item| convert(source, item))
                .collect::<Result<_, _>>()?,
        ),
        DeValue::Table(t) => Value::Table(convert_table(source, t)?),
    };
    Ok(Node { value: v, span })
}
