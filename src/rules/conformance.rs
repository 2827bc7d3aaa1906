//! Conformance tables: every rule of a ruleset's source text, how skirmish
//! models it, and the tests that pin it.
//!
//! Each ruleset keeps its table beside its code (`NAME_conformance.rs`) as
//! [`Ruleset::CONFORMANCE`]; `skirmish rules NAME` prints it, so a reader can
//! audit a ruleset against its text from the table alone. The tests below
//! keep the tables honest: every test a row names exists in the ruleset's
//! test file, every option a row names is one the scenario file accepts, and
//! a rule that is not modelled says why.

use super::Ruleset;

/// How skirmish models one rule of the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Modelled {
    /// As the text writes it.
    AsWritten,
    /// An option (named here) whose default is the text's most literal
    /// reading; `how` gives both readings.
    Option(&'static str),
    /// An abstraction: the text's rule on a grid or in the fiction, modelled
    /// on the one-dimensional front or by a fixed policy; `how` says how.
    Abstraction,
    /// Not modelled; `how` says why (no scenario reaches it, outside combat,
    /// needs a map, ...).
    NotModelled,
}

impl Modelled {
    /// A few words for tables.
    pub fn label(self) -> String {
        match self {
            Modelled::AsWritten => "as written".into(),
            Modelled::Option(name) => format!("option `{name}` (default: the text's reading)"),
            Modelled::Abstraction => "abstraction".into(),
            Modelled::NotModelled => "not modelled".into(),
        }
    }
}

/// One row of a conformance table.
#[derive(Clone, Copy, Debug)]
pub struct Clause {
    /// The section of the text the rule stands in, by its heading.
    pub section: &'static str,
    /// The rule, in brief (quote the text where it is short).
    pub rule: &'static str,
    pub modelled: Modelled,
    /// How skirmish models it (or why it does not).
    pub how: &'static str,
    /// Test functions in the ruleset's test file (`src/rules/NAME_tests.rs`)
    /// that pin it. Empty only for rules that are not modelled.
    pub tests: &'static [&'static str],
}

/// Problems with a ruleset's conformance table, one line each; empty if it
/// is sound. `test_source` is the text of the ruleset's test file.
pub fn problems<R: Ruleset>(test_source: &str) -> Vec<String> {
    let mut out = Vec::new();
    if R::CONFORMANCE.is_empty() {
        out.push(format!("{}: the conformance table is empty", R::NAME));
    }
    for c in R::CONFORMANCE {
        let at = format!("{} [{}] {}", R::NAME, c.section, c.rule);
        if c.section.trim().is_empty() || c.rule.trim().is_empty() || c.how.trim().is_empty() {
            out.push(format!("{at}: section, rule and how must all be written"));
        }
        match c.modelled {
            Modelled::NotModelled => {}
            _ if c.tests.is_empty() => out.push(format!("{at}: names no test")),
            _ => {}
        }
        if let Modelled::Option(name) = c.modelled {
            let known = R::OPTIONS
                .iter()
                .chain(crate::engine::ENGINE_OPTIONS)
                .any(|f| f.name == name);
            if !known {
                out.push(format!(
                    "{at}: names option `{name}`, which is not an option"
                ));
            }
        }
        for t in c.tests {
            if !test_source.contains(&format!("fn {t}(")) {
                out.push(format!(
                    "{at}: names test `{t}`, which is not in its test file"
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Dicestep, Escalation, Osr, Thrum, Trenches};

    fn assert_sound<R: Ruleset>(test_source: &str) {
        let p = problems::<R>(test_source);
        assert!(p.is_empty(), "{}", p.join("\n"));
    }

    // One test per ruleset, named after it, so `cargo test rules::NAME`
    // style filters and failures point at the table at fault.
    #[test]
    fn trenches_table_is_sound() {
        assert_sound::<Trenches>(include_str!("trenches/tests.rs"));
    }

    #[test]
    fn osr_table_is_sound() {
        assert_sound::<Osr>(include_str!("osr_tests.rs"));
    }

    #[test]
    fn dicestep_table_is_sound() {
        assert_sound::<Dicestep>(include_str!("dicestep/tests.rs"));
    }

    #[test]
    fn escalation_table_is_sound() {
        assert_sound::<Escalation>(include_str!("escalation/tests.rs"));
    }

    #[test]
    fn thrum_table_is_sound() {
        assert_sound::<Thrum>(include_str!("thrum/tests.rs"));
    }

    #[test]
    fn a_table_naming_a_missing_test_is_reported() {
        // The check itself can fail: the trenches table against an empty
        // test file names every test it lists as missing.
        let p = problems::<Trenches>("");
        assert!(p
            .iter()
            .any(|l| l.contains("which is not in its test file")));
    }
}
