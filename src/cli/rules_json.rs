//! The machine-readable forms of a ruleset's declarations:
//! `skirmish rules NAME --json` (fields, weapon fields, options, counters
//! and conformance table as one JSON document) and `skirmish schema NAME`
//! (a JSON Schema of a scenario file for that ruleset, for an editor's TOML
//! language server). Both are read off the same declarations the scenario
//! loader enforces, so what an editor completes is what `run` accepts.

use serde_json::{json, Map, Value};

use crate::rules::{Field, Kind, Lit, Modelled, Ruleset};
use crate::scenario::compile::{ENGINE_OPTIONS, SIDE_ENTRY_FIELDS};
use crate::scenario::BASELINE;
use crate::scenario::TOP_FIELDS;

/// `skirmish rules NAME --json`, or `None` if there is no such ruleset.
pub fn rules(name: &str) -> Option<String> {
    crate::with_ruleset!(name, R => Some(pretty(&rules_of::<R>())), _ => None)
}

/// `skirmish schema NAME`, or `None` if there is no such ruleset.
pub fn schema(name: &str) -> Option<String> {
    crate::with_ruleset!(name, R => Some(pretty(&schema_of::<R>())), _ => None)
}

fn pretty(v: &Value) -> String {
    let mut text = serde_json::to_string_pretty(v).expect("a JSON value always serialises");
    text.push('\n');
    text
}

/// One declared field as JSON: name, type, range, default, help, section.
fn field(f: &Field) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), json!(f.name));
    m.insert("type".into(), json!(type_name(f.kind)));
    match f.kind {
        Kind::Int { min, max } => {
            m.insert("min".into(), json!(min));
            m.insert("max".into(), json!(max));
        }
        Kind::Float { min, max } => {
            m.insert("min".into(), json!(min));
            m.insert("max".into(), json!(max));
        }
        Kind::Choice(c) | Kind::Names(Some(c)) => {
            m.insert("choices".into(), json!(c));
        }
        _ => {}
    }
    m.insert(
        "default".into(),
        f.default.map_or(Value::Null, default_value),
    );
    m.insert("required".into(), json!(f.default.is_none()));
    m.insert("help".into(), json!(f.doc));
    m.insert("section".into(), json!(f.section));
    Value::Object(m)
}

fn type_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Int { .. } => "integer",
        Kind::Float { .. } => "number",
        Kind::Bool => "boolean",
        Kind::Dice => "dice",
        Kind::Choice(_) => "choice",
        Kind::Names(_) => "names",
        Kind::Text => "text",
    }
}

fn default_value(lit: Lit) -> Value {
    match lit {
        Lit::Int(i) => json!(i),
        Lit::Float(f) => json!(f),
        Lit::Bool(b) => json!(b),
        Lit::Str(s) => json!(s),
        Lit::NoNames => json!([]),
    }
}

fn fields(fs: &[Field]) -> Value {
    Value::Array(fs.iter().map(field).collect())
}

fn rules_of<R: Ruleset>() -> Value {
    let conformance: Vec<Value> = R::CONFORMANCE
        .iter()
        .map(|c| {
            json!({
                "section": c.section,
                "rule": c.rule,
                "modelled": match c.modelled {
                    Modelled::AsWritten => "as written",
                    Modelled::Option(_) => "option",
                    Modelled::Abstraction => "abstraction",
                    Modelled::NotModelled => "not modelled",
                },
                "option": match c.modelled {
                    Modelled::Option(name) => json!(name),
                    _ => Value::Null,
                },
                "how": c.how,
                "tests": c.tests,
            })
        })
        .collect();
    json!({
        "name": R::NAME,
        "title": R::TITLE,
        "about": R::ABOUT,
        "distance_unit": R::DISTANCE_UNIT,
        "default_initiative": R::DEFAULT_INITIATIVE.name(),
        "unit_fields": fields(R::UNIT_FIELDS),
        "weapon_fields": fields(R::WEAPON_FIELDS),
        "options": fields(R::OPTIONS),
        "engine_options": fields(ENGINE_OPTIONS),
        "unit_group_fields": fields(SIDE_ENTRY_FIELDS),
        "counters": R::COUNTERS.iter().map(|c| json!({"name": c.name, "help": c.doc})).collect::<Vec<_>>(),
        "unmodelled": R::UNMODELLED.iter().map(|u| json!({"setting": u.setting_text(), "why": u.why})).collect::<Vec<_>>(),
        "conformance": conformance,
    })
}

/// The JSON Schema of one field's value.
fn field_schema(f: &Field) -> Value {
    let mut m = Map::new();
    match f.kind {
        Kind::Int { min, max } => {
            m.insert("type".into(), json!("integer"));
            m.insert("minimum".into(), json!(min));
            m.insert("maximum".into(), json!(max));
        }
        Kind::Float { min, max } => {
            m.insert("type".into(), json!("number"));
            m.insert("minimum".into(), json!(min));
            m.insert("maximum".into(), json!(max));
        }
        Kind::Bool => {
            m.insert("type".into(), json!("boolean"));
        }
        Kind::Dice => {
            // Dice notation (`1d8+3`): checked by skirmish, not by a pattern.
            m.insert("type".into(), json!("string"));
        }
        Kind::Choice(c) => {
            m.insert("enum".into(), json!(c));
        }
        Kind::Names(choices) => {
            m.insert("type".into(), json!("array"));
            m.insert(
                "items".into(),
                match choices {
                    Some(c) => json!({ "enum": c }),
                    None => json!({ "type": "string" }),
                },
            );
        }
        Kind::Text => {
            m.insert("type".into(), json!("string"));
        }
    }
    if let Some(d) = f.default {
        m.insert("default".into(), default_value(d));
    }
    m.insert("description".into(), json!(f.help()));
    Value::Object(m)
}

/// A closed table of declared fields.
fn table_schema(fs: &[&[Field]], description: &str) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for f in fs.iter().flat_map(|f| f.iter()) {
        properties.insert(f.name.into(), field_schema(f));
        if f.default.is_none() {
            required.push(f.name);
        }
    }
    json!({
        "type": "object",
        "description": description,
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

fn schema_of<R: Ruleset>() -> Value {
    let mut top = Map::new();
    let mut required = Vec::new();
    for f in TOP_FIELDS {
        let mut s = field_schema(f);
        if f.name == "rules" {
            s = json!({ "const": R::NAME, "description": f.help() });
        }
        top.insert(f.name.into(), s);
        if f.default.is_none() {
            required.push(f.name);
        }
    }
    top.insert(
        "options".into(),
        table_schema(
            &[R::OPTIONS, ENGINE_OPTIONS],
            "rule options (defaults: the rules as written) and engine options",
        ),
    );
    top.insert(
        "weapons".into(),
        json!({
            "type": "object",
            "description": "weapons, by name",
            "additionalProperties": table_schema(&[R::WEAPON_FIELDS], "a weapon"),
        }),
    );
    top.insert(
        "units".into(),
        json!({
            "type": "object",
            "description": "stat blocks, by name",
            "additionalProperties": table_schema(&[R::UNIT_FIELDS], "a stat block"),
        }),
    );
    top.insert(
        "sides".into(),
        json!({
            "type": "object",
            "description": "sides, by name: each maps stat-block names to unit groups",
            "additionalProperties": {
                "type": "object",
                "additionalProperties": table_schema(&[SIDE_ENTRY_FIELDS], "a unit group"),
            },
        }),
    );
    top.insert(
        "matrix".into(),
        json!({
            "type": "object",
            "description": "axes: a dotted path (\"options.NAME\", \"units.NAME.FIELD\", ...) and the values to try",
            "properties": {
                BASELINE: {
                    "type": "object",
                    "description": "the baseline cell's value of some axes (default: each axis's first value)",
                },
            },
            "additionalProperties": { "type": "array", "minItems": 1 },
        }),
    );
    required.push("sides");
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": format!("skirmish scenario ({})", R::NAME),
        "description": format!("A skirmish scenario for the `{}` ruleset: {}", R::NAME, R::TITLE),
        "type": "object",
        "properties": top,
        "required": required,
        "additionalProperties": false,
    })
}
