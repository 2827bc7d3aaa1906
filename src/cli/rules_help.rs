//! `skirmish rules [NAME]`: the rulesets, their stat-block fields, weapon
//! fields and options with defaults, printed from the same declarations the
//! scenario loader enforces.

use std::fmt::Write;

use crate::rules::{FieldTable, Modelled, Ruleset, NAMES};
use crate::scenario::compile::{ENGINE_OPTIONS, SIDE_ENTRY_FIELDS};
use crate::scenario::schema::Field;

/// The list of rulesets with one line each.
pub fn list() -> String {
    let mut out = String::from("Rulesets (skirmish rules NAME for fields and options):\n");
    for name in NAMES {
        let title = crate::with_ruleset!(*name, R => R::TITLE, _ => "");
        let _ = writeln!(out, "  {name:<12} {title}");
    }
    out
}

/// Full help for one ruleset, or `None` if there is no such ruleset.
pub fn describe(name: &str) -> Option<String> {
    crate::with_ruleset!(name, R => Some(describe_ruleset::<R>()), _ => None)
}

fn describe_ruleset<R: Ruleset>() -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} — {}\n", R::NAME, R::TITLE);
    let _ = writeln!(out, "{}\n", R::ABOUT);
    let _ = writeln!(
        out,
        "Distances in {}. Default initiative: {} (fixed scheme orders by `{}`).\n",
        R::DISTANCE_UNIT,
        R::DEFAULT_INITIATIVE.name(),
        R::INITIATIVE_STAT
    );
    section(&mut out, "Stat block: [units.NAME]", R::UNIT_FIELDS);
    section(&mut out, "Weapons: [weapons.NAME]", R::WEAPON_FIELDS);
    section(&mut out, "Rule options: [options]", R::OPTIONS);
    section(
        &mut out,
        "Engine options (every ruleset): [options]",
        ENGINE_OPTIONS,
    );
    section(
        &mut out,
        "Unit groups: [sides.SIDE] UNIT = { ... }",
        SIDE_ENTRY_FIELDS,
    );
    unmodelled::<R>(&mut out);
    steps::<R>(&mut out);
    let _ = writeln!(out, "Counters (cells.csv, mean per fight):");
    for c in R::COUNTERS {
        let _ = writeln!(out, "  {:<24} {}", c.name, c.doc);
    }
    out.push('\n');
    conformance::<R>(&mut out);
    out
}

/// The shared-axis settings the ruleset ignores: a scenario setting one is
/// refused, so the designer learns it here or from the error, never from a
/// report that silently shows no effect.
fn unmodelled<R: Ruleset>(out: &mut String) {
    let _ = writeln!(
        out,
        "Shared axes not modelled (a scenario that sets one is refused):"
    );
    if R::UNMODELLED.is_empty() {
        let _ = writeln!(out, "  none: cover and every condition have an effect");
    }
    for u in R::UNMODELLED {
        let _ = writeln!(out, "  {:<32} {}", u.setting_text(), u.why);
    }
    out.push('\n');
}

/// How `skirmish sensitivity` steps the fields that do not take their
/// kind's default step.
fn steps<R: Ruleset>(out: &mut String) {
    let _ = writeln!(
        out,
        "Steps of `skirmish sensitivity` (other numeric fields of [units.NAME], \
         [weapons.NAME] and [options]: integers ±1, numbers with decimals ±0.1, dice one die \
         size):"
    );
    if R::STEPS.is_empty() {
        let _ = writeln!(out, "  none other");
    }
    let table = |t: FieldTable| match t {
        FieldTable::Unit => "units",
        FieldTable::Weapon => "weapons",
        FieldTable::Options => "options",
    };
    for s in R::STEPS {
        let _ = writeln!(
            out,
            "  {:<24} {}",
            format!("{}.{}", table(s.table), s.field),
            s.step.describe()
        );
    }
    let _ = writeln!(
        out,
        "  equivalent points in the first with a positive, well-measured effect of: {}",
        R::HEALTH_STATS
            .iter()
            .map(|f| format!("units.{f}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    if !R::CONTRARY_STATS.is_empty() {
        let _ = writeln!(out, "  a step up can lower its own side's win rate:");
    }
    for c in R::CONTRARY_STATS {
        let _ = writeln!(
            out,
            "    {:<22} {}",
            format!("{}.{}", table(c.table), c.field),
            c.why
        );
    }
    out.push('\n');
}

/// The conformance table: every rule of the text by section, how it is
/// modelled, and the tests (in `src/rules/NAME_tests.rs`) that pin it.
fn conformance<R: Ruleset>(out: &mut String) {
    let _ = writeln!(
        out,
        "Conformance to the text ({}): rule -> how modelled -> tests in src/rules/{}_tests.rs",
        R::TITLE,
        R::NAME
    );
    let mut section = "";
    for c in R::CONFORMANCE {
        if c.section != section {
            section = c.section;
            let _ = writeln!(out, "  [{section}]");
        }
        let _ = writeln!(out, "    {}", c.rule);
        let _ = writeln!(out, "      {}: {}", c.modelled.label(), c.how);
        if !c.tests.is_empty() {
            let _ = writeln!(out, "      tests: {}", c.tests.join(", "));
        }
    }
    let unmodelled = R::CONFORMANCE
        .iter()
        .filter(|c| c.modelled == Modelled::NotModelled)
        .count();
    let _ = writeln!(
        out,
        "  {} rules, {} not modelled.",
        R::CONFORMANCE.len(),
        unmodelled
    );
}

fn section(out: &mut String, title: &str, fields: &[Field]) {
    let _ = writeln!(out, "{title}");
    for f in fields {
        let _ = writeln!(
            out,
            "  {:<24} {:<28} default: {}",
            f.name,
            f.type_text(),
            f.default_text()
        );
        let _ = writeln!(out, "  {:<24} {}", "", f.help());
    }
    out.push('\n');
}
