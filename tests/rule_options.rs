//! Every number in the rules is the designer's to change (issue 27): every
//! numeric rule option of every ruleset works as a `[matrix]` axis, as a
//! `balance --axis options.NAME` (written in the file or not: an unwritten
//! one starts from its declared default) and as a `sensitivity` step; a bad
//! value (out of range, wrong type) is refused before anything is fought,
//! with exit 2 and a message naming the option, the valid range and the
//! file position.
//!
//! Each ruleset is exercised on its first example scenario (`scenarios/`),
//! so a new option is covered the day it is declared.

mod common;

use std::fs;

use common::Sandbox;
use skirmish::rules::step::{neighbours, step_of, StatValue};
use skirmish::rules::{Field, FieldTable, Kind, Ruleset, NAMES};
use skirmish::run::plan;
use skirmish::scenario::{self, CellChoice, Selection, Source};

/// The first example scenario of each ruleset, as text.
fn example(rules: &str) -> (String, String) {
    let mut files: Vec<_> = fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    for path in files {
        let text = fs::read_to_string(&path).unwrap();
        if text.contains(&format!("rules = \"{rules}\"")) {
            return (path.display().to_string(), text);
        }
    }
    panic!("no example scenario for {rules}");
}

/// The example with its `[matrix]` (and everything after it) cut off, so
/// that a test can add its own.
fn without_matrix(text: &str) -> String {
    match text.find("\n[matrix]") {
        Some(at) => text[..at + 1].to_owned(),
        None => text.to_owned(),
    }
}

fn options_of(rules: &str) -> &'static [Field] {
    skirmish::with_ruleset!(rules, R => R::OPTIONS, _ => panic!("{rules}"))
}

fn steps_of(rules: &str) -> &'static [skirmish::rules::StatStep] {
    skirmish::with_ruleset!(rules, R => R::STEPS, _ => panic!("{rules}"))
}

/// The numeric options of a ruleset with their defaults and the values one
/// step down and up (those the declared range allows).
fn numeric_options(rules: &str) -> Vec<(&'static Field, StatValue, Vec<StatValue>)> {
    options_of(rules)
        .iter()
        .filter(|f| f.numeric())
        .map(|f| {
            let default = StatValue::default_of(f).expect("a numeric option has a default");
            let step = step_of(steps_of(rules), FieldTable::Options, f).unwrap();
            let others = neighbours(f, step, &default)
                .into_iter()
                .filter_map(Result::ok)
                .collect();
            (f, default, others)
        })
        .collect()
}

fn parse(path: &str, text: String) -> scenario::Scenario {
    scenario::parse(Source {
        path: path.to_owned(),
        text,
    })
    .unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn every_numeric_option_is_a_matrix_axis_a_balance_axis_and_a_sensitivity_step() {
    for rules in NAMES {
        let (path, text) = example(rules);
        let base = without_matrix(&text);
        let options = numeric_options(rules);
        assert!(
            !options.is_empty(),
            "{rules}: the rules state numbers; none is an option"
        );
        for (field, default, others) in &options {
            assert!(
                !others.is_empty(),
                "{rules}: option `{}` cannot be stepped from its default {}",
                field.name,
                default.render()
            );
            // A matrix axis: the default and the steps the ruleset takes
            // on their own (a step another option's value rules out, such
            // as a near band past the far one, is refused by name), each
            // cell compiled.
            let axis_of = |values: &[String]| {
                format!(
                    "{base}\n[matrix]\n\"options.{}\" = [{}]\n",
                    field.name,
                    values.join(", ")
                )
            };
            let taken: Vec<String> = others
                .iter()
                .map(StatValue::render)
                .filter(|v| plan(&parse(&path, axis_of(std::slice::from_ref(v)))).is_ok())
                .collect();
            assert!(
                !taken.is_empty(),
                "{rules}: no step of option `{}` from {} compiles",
                field.name,
                default.render()
            );
            let values: Vec<String> = std::iter::once(default.render()).chain(taken).collect();
            let s = parse(&path, axis_of(&values));
            let cells = s.cells().unwrap();
            assert_eq!(cells.len(), values.len(), "{rules} {}", field.name);
            let compiled = plan(&s);
            assert!(
                compiled.is_ok(),
                "{rules}: option `{}` as a matrix axis {values:?}: {}",
                field.name,
                compiled.err().unwrap()
            );

            // A balance axis, though the file does not write it: it starts
            // from the declared default, and a probe at a step compiles.
            let s = parse(&path, base.clone());
            let axis = s
                .balance_axis(&format!("options.{}", field.name), None)
                .unwrap_or_else(|e| panic!("{rules} {}: {e}", field.name));
            let (integer, value) = match default {
                StatValue::Int(i) => (true, *i as f64),
                StatValue::Float(f) => (false, *f),
                StatValue::Dice(_) => unreachable!("options are numbers"),
            };
            assert_eq!(axis.integer, integer, "{rules} {}", field.name);
            assert_eq!(axis.base, Some(value), "{rules} {}", field.name);
            assert!(axis.defaulted, "{rules} {}", field.name);
            let to: f64 = values[1].parse().unwrap();
            plan(&s.with_balance_value(&axis, to))
                .unwrap_or_else(|e| panic!("{rules} {} = {to}: {e}", field.name));
        }

        // Sensitivity steps every numeric option, written or not, in the
        // rule options' own section.
        let s = parse(&path, base.clone());
        let cell = s.pick_cell(&CellChoice::Baseline).unwrap();
        let sens = s.sensitivity(cell, &Selection::default()).unwrap();
        for (field, default, _) in &options {
            let stat = sens
                .stats
                .iter()
                .find(|st| st.rule && st.field == field.name)
                .unwrap_or_else(|| panic!("{rules}: sensitivity skips option `{}`", field.name));
            assert_eq!(stat.value, default.render());
            assert!(
                stat.steps.iter().any(Result::is_ok),
                "{rules}: no step of `{}` taken: {:?}",
                field.name,
                stat.steps
            );
        }
        // --written-only: the example writes none of the options it does
        // not write.
        let cell = s.pick_cell(&CellChoice::Baseline).unwrap();
        let only = Selection {
            written_only: true,
            ..Selection::default()
        };
        let sens = s.sensitivity(cell, &only).unwrap();
        for stat in sens.stats.iter().filter(|st| st.rule) {
            assert!(stat.written, "{rules}: {} is not written", stat.field);
        }
    }
}

#[test]
fn a_bad_option_value_exits_2_naming_the_option_its_range_and_the_line() {
    let sandbox = Sandbox::new();
    for rules in NAMES {
        let (_, text) = example(rules);
        let base = without_matrix(&text);
        // Scenarios that already write an `[options]` table get the key
        // added to it; the others get a table of their own.
        for field in options_of(rules).iter().filter(|f| f.numeric()) {
            let (bad, range) = match field.kind {
                Kind::Int { min, max } => {
                    let bad = if max < i64::MAX { max + 1 } else { min - 1 };
                    (bad.to_string(), format!("from {min} to {max}"))
                }
                Kind::Float { min, max } => {
                    (format!("{}", max + 0.5), format!("from {min} to {max}"))
                }
                _ => unreachable!(),
            };
            for (value, expect) in [
                (bad.clone(), vec![range.clone(), format!("found {bad}")]),
                ("\"many\"".to_owned(), vec!["expected".to_owned()]),
            ] {
                let line = format!("{} = {value}", field.name);
                let text = if base.contains("\n[options]\n") {
                    base.replacen("\n[options]\n", &format!("\n[options]\n{line}\n"), 1)
                } else {
                    format!("{base}\n[options]\n{line}\n")
                };
                let file = sandbox.write("bad.toml", &text);
                let o = sandbox.run(&["validate", file]);
                assert_eq!(o.code, 2, "{rules} {line}: {o:#?}");
                let lineno = text.lines().position(|l| l == line).unwrap() + 1;
                let mut wanted = vec![
                    format!("bad.toml:{lineno}:"),
                    format!("`options.{}`", field.name),
                ];
                wanted.extend(expect);
                for w in &wanted {
                    assert!(
                        o.stderr.contains(w),
                        "{rules} {line}: no `{w}` in {}",
                        o.stderr
                    );
                }
            }
        }
    }
}

#[test]
fn rules_json_and_schema_describe_every_option() {
    let sandbox = Sandbox::new();
    for rules in NAMES {
        let o = sandbox.run(&["rules", rules, "--json"]);
        assert_eq!(o.code, 0, "{o:#?}");
        let doc: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
        let options = doc["options"].as_array().unwrap();
        assert_eq!(options.len(), options_of(rules).len());
        for (json, field) in options.iter().zip(options_of(rules)) {
            assert_eq!(json["name"], field.name);
            assert_eq!(json["help"], field.doc);
            assert_eq!(json["section"], field.section);
            if let Kind::Int { min, max } = field.kind {
                assert_eq!(json["min"], min);
                assert_eq!(json["max"], max);
            }
        }
        assert!(!doc["conformance"].as_array().unwrap().is_empty());
        assert!(doc["unit_fields"].as_array().unwrap().len() > 1);

        let o = sandbox.run(&["schema", rules]);
        assert_eq!(o.code, 0, "{o:#?}");
        let schema: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
        assert_eq!(schema["properties"]["rules"]["const"], *rules);
        let props = &schema["properties"]["options"]["properties"];
        for field in options_of(rules) {
            assert!(
                props.get(field.name).is_some(),
                "{rules}: schema lacks {}",
                field.name
            );
            if let Kind::Int { min, max } = field.kind {
                assert_eq!(props[field.name]["minimum"], min);
                assert_eq!(props[field.name]["maximum"], max);
            }
        }
        assert_eq!(
            schema["properties"]["options"]["additionalProperties"],
            false
        );
    }
    let o = sandbox.run(&["schema", "chess"]);
    assert_eq!(o.code, 2, "{o:#?}");
    assert!(o.stderr.contains("unknown ruleset `chess`"), "{}", o.stderr);
}

/// Every option names the section of its ruleset's text that states it
/// (printed after its help line), as the conformance table names sections.
#[test]
fn every_option_names_its_text_section() {
    for rules in NAMES {
        let sections: Vec<&str> = skirmish::with_ruleset!(*rules,
            R => R::CONFORMANCE.iter().map(|c| c.section).collect(),
            _ => unreachable!());
        for field in options_of(rules) {
            assert!(
                !field.section.is_empty(),
                "{rules}: option `{}` names no section of the text",
                field.name
            );
            // A section may name a sub-table ("Actions in Combat / Table:
            // Actions"): each part is a section of the conformance table.
            for part in field.section.split(" / ") {
                assert!(
                    sections
                        .iter()
                        .any(|s| s.contains(part) || part.contains(s)),
                    "{rules}: option `{}` names section \"{part}\", which the conformance table \
                     does not have ({sections:?})",
                    field.name
                );
            }
        }
    }
}
