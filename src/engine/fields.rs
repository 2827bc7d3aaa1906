//! The engine's own declared keys: the shared-axis options every ruleset
//! has (`[options]`) and the keys of a unit group in a side. Declared here,
//! with the engine types they name, so that the rules layer (conformance
//! checks) and `skirmish rules` read them without going through the
//! scenario layer, which validates scenario files against them.

use super::{Condition, Cover, Targeting, Ties, MAX_UNITS};
use crate::rules::field::{Field, Kind, Lit};

/// Options every ruleset has: the engine's shared axes.
pub const ENGINE_OPTIONS: &[Field] = &[
    Field::new(
        "initiative",
        Kind::Choice(&[
            "default",
            "rolled",
            "rerolled",
            "fixed",
            "alternating",
            "side",
        ]),
        Some(Lit::Str("default")),
        "turn order: the ruleset's own (default), rolled once per fight, re-rolled every round, \
         fixed by a stat, team-alternating activation, or side initiative",
    ),
    Field::new(
        "initiative_ties",
        Kind::Choice(Ties::NAMES),
        Some(Lit::Str("random")),
        "order of units still tied after the ruleset's tie-breaks: random, or roster order",
    ),
    Field::new(
        "opening",
        Kind::Choice(&["default", "first", "second", "random"]),
        Some(Lit::Str("default")),
        "under team-alternating activation, the side that activates first every round: the \
         ruleset's own (default: the first listed side, or the side that began the fight), the \
         first or second listed side, or drawn at random each fight; refused with other \
         initiative schemes, which order units, not sides",
    ),
];

/// Keys of a unit group in a side: `[sides.NAME] UNIT = { count = 2, ... }`.
pub const SIDE_ENTRY_FIELDS: &[Field] = &[
    Field::new(
        "count",
        Kind::Int {
            min: 1,
            max: MAX_UNITS as i64,
        },
        Some(Lit::Int(1)),
        "how many of this unit",
    ),
    Field::new(
        "cover",
        Kind::Choice(Cover::NAMES),
        Some(Lit::Str("none")),
        "cover the units stand in",
    ),
    Field::new(
        "distance",
        Kind::Int {
            min: 0,
            max: 100_000,
        },
        Some(Lit::Int(0)),
        "distance from the front line at the start, in the ruleset's unit",
    ),
    Field::new(
        "at",
        Kind::Text,
        Some(Lit::Str("")),
        "with a `[map]`: where the group starts, a map letter (\"A\": every A cell, in reading \
         order) or a list of [column, row] squares from 0",
    ),
    Field::new(
        "target",
        Kind::Choice(Targeting::NAMES),
        Some(Lit::Str("random")),
        "targeting policy (unset: random, or smart under tactic = \"smart\")",
    ),
    Field::new(
        "tactic",
        Kind::Choice(super::tactic::TACTIC_NAMES),
        Some(Lit::Str("auto")),
        "advance (close to melee), hold (stay and shoot), keep-range (shoot, back off when engaged); auto: by the weapons; smart: the ruleset's strong baseline (rulesets with it only)",
    ),
    Field::new(
        "conditions",
        Kind::Names(Some(Condition::NAMES)),
        Some(Lit::NoNames),
        "conditions the units start with",
    ),
];
