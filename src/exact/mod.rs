//! Exact answers: a cell's fight enumerated instead of sampled.
//!
//! Every random choice the kernel makes goes through one call,
//! [`Dice::roll`](crate::dice::Dice::roll), and a fight between two turns is
//! a fixed-size value (its units, its turn order, a
//! [`Between`](crate::engine::Between)). So the
//! same fight loop and the same rules code that `skirmish run` samples can
//! be enumerated: each turn is run once for every outcome of the dice it
//! reads ([`paths::PathDice`]), each outcome with the probability of its
//! rolls, and the fight states the outcomes lead to are merged when equal
//! ([`table::StateTable`]). There is no second model of the rules: every
//! rule, option, tactic and targeting policy is covered by construction,
//! and so are the random choices the engine makes (initiative, its ties,
//! random targets, the opening side).
//!
//! Two things keep the outcomes few without a second model of the rules.
//! Rules code marks dice whose faces matter only through a value
//! ([`Dice::pool`](crate::dice::Dice::pool): a d20 attack's verdict, a 2d6
//! total), and the enumerating dice branch once per distinct value, not
//! per face. And a ruleset whose turn takes several actions may play it in
//! steps ([`Ruleset::begin_turn`](crate::rules::Ruleset::begin_turn)):
//! fight states then merge between the actions, and a turn of three
//! attacks costs three attacks' outcomes, not their product.
//!
//! States merge where the rules cannot tell them apart: round stamps made
//! relative ([`Ruleset::forget_round`](crate::rules::Ruleset::forget_round)),
//! and units gone for good
//! ([`Ruleset::gone_for_good`](crate::rules::Ruleset::gone_for_good)) moved
//! to the end of the turn order, since where they stood in it no longer
//! matters
//! (a 2v2 of trenches: 1,090,584 states to 859,248).
//!
//! The states are kept in layers, a layer per round and number of turns
//! (or steps) taken in it ([`solve`]): a turn leads from one layer to the
//! next, the end of a round to the next round's first layer, and the round
//! cap ends the chain; fights still running with a probability below
//! [`UNFINISHED_BELOW`] are not followed further. What a fight tallies (harm, the ruleset's counters) is not
//! part of its state: its expected value is summed as the turns happen, by
//! linearity, so that states differing only in what they have tallied
//! merge. Counters the rules also read are the exception
//! ([`Ruleset::COUNTERS_READ`](crate::rules::Ruleset::COUNTERS_READ)).
//!
//! Answers are `f64` sums whose rounding is bounded ([`sum`]): every
//! probability is reported with the bound, and printed to the digits it is
//! good to. A cell whose states outgrow [`Limits::max_states`] is refused,
//! never answered in part.

mod initiative;
mod paths;
mod solve;
mod sum;
mod table;

pub use paths::{PathDice, MAX_ROLLS};
pub use solve::solve;
pub use sum::{gamma, Sum, UNIT_ROUNDOFF};

use crate::engine::{MAX_COUNTERS, MAX_SIDES};

/// The enumeration stops following fights once the probability that any
/// is still running is below this (2⁻¹⁰⁰, about 8·10⁻³¹): far below the
/// rounding of any value it reports, and the rounds of a long cap after
/// that would cost as much as the rest.
pub const UNFINISHED_BELOW: f64 = 1.0 / (1u128 << 100) as f64;

/// Default of [`Limits::max_states`] (`--max-states`): a few seconds of
/// work and a few hundred megabytes at most for the rulesets' states.
pub const DEFAULT_MAX_STATES: u64 = 4_000_000;

/// Most outcomes the dice of one turn (or of the start of a fight) may
/// have: a turn with more is refused rather than enumerated for hours.
pub const MAX_OUTCOMES: u64 = 1 << 24;

/// Default of [`Limits::max_outcomes`] (`--max-outcomes`): at the 100 ns
/// to 1 µs an outcome of a turn's dice costs (its run and its state's
/// share of the rounds), seconds to a few minutes, so that a cell too
/// large is refused in that time rather than worked at for hours.
pub const DEFAULT_MAX_OUTCOMES: u64 = 200_000_000;

/// How far an enumeration may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most distinct fight states (counted afresh and summed when a round
    /// of another class begins), and most rankings of the units'
    /// initiative rolls followed at once: the memory.
    pub max_states: u64,
    /// Most outcomes of turns' dice run, all together: the work.
    pub max_outcomes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_states: DEFAULT_MAX_STATES,
            max_outcomes: DEFAULT_MAX_OUTCOMES,
        }
    }
}

/// Why a cell could not be enumerated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExactError {
    #[error(
        "more than {limit} fight states (--max-states): {states} reached by round {round} \
         of {max_rounds}"
    )]
    TooManyStates {
        limit: u64,
        states: u64,
        round: u32,
        max_rounds: u32,
    },
    #[error(
        "more than {limit} outcomes of turns' dice to run (--max-outcomes): {outcomes} run by \
         round {round} of {max_rounds}, {states} states reached"
    )]
    TooMuchWork {
        limit: u64,
        outcomes: u64,
        states: u64,
        round: u32,
        max_rounds: u32,
    },
    #[error(
        "more than {limit} outcomes of turns' dice to run (--max-outcomes): {outcomes} run, and \
         about {ahead} more ahead for the {states} new states of round {round} of {max_rounds} \
         (at the outcomes per state of the first of them)"
    )]
    WorkAhead {
        limit: u64,
        outcomes: u64,
        ahead: u64,
        states: u64,
        round: u32,
        max_rounds: u32,
    },
    #[error(
        "the initiative of {units} units has more than {limit} rankings of their rolls to follow \
         (--max-states)"
    )]
    TooManyRankings { units: usize, limit: u64 },
    #[error("{what} has more than {limit} outcomes of its dice: too many to enumerate")]
    TooManyOutcomes { what: String, limit: u64 },
    #[error("{what} read more than {limit} dice in one outcome: rules that roll until a face comes up cannot be enumerated")]
    TooManyRolls { what: String, limit: usize },
}

/// The exact outcome of one cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// Sides in the cell.
    pub sides: usize,
    /// The probability of each side winning.
    pub wins: [f64; MAX_SIDES],
    /// Of a draw (nobody standing, or the round cap).
    pub draws: f64,
    /// Of a draw at the round cap, sides still standing (part of `draws`).
    pub draws_at_cap: f64,
    /// `rounds[r]`: the probability that the fight lasts `r` rounds, for
    /// `r` from 0 to the cell's round cap.
    pub rounds: Vec<f64>,
    /// Expected units standing at the end, per side.
    pub survivors: [f64; MAX_SIDES],
    /// Expected harm dealt, per side.
    pub damage: [f64; MAX_SIDES],
    /// Expected value of each ruleset counter, in `Ruleset::COUNTERS` order.
    pub counters: [f64; MAX_COUNTERS],
    /// Distinct fight states enumerated (all layers).
    pub states: u64,
    /// Outcomes of turns' dice run.
    pub outcomes: u64,
    /// The last round any fight reached, or the round after which the
    /// enumeration stopped following the fights still running (see
    /// `unfinished`).
    pub last_round: u32,
    /// The probability of the fights still running when the enumeration
    /// stopped following them: once it is below [`UNFINISHED_BELOW`]
    /// (2⁻¹⁰⁰), rounds before the cap, the rest of the chain cannot move
    /// any value by more than that times what a fight can count. They
    /// count in no outcome (so every probability may be low by as much,
    /// which [`Answer::error`] includes), and expectations count what they
    /// did up to `last_round`. 0 when every fight was followed to its end.
    pub unfinished: f64,
    /// Relative rounding bound of every value above: the exact value `x`
    /// of a reported `x̂` has `|x̂ − x| ≤ relative_error · x̂ / (1 −
    /// relative_error)`; for probabilities, at most `error()` absolutely.
    pub relative_error: f64,
}

impl Answer {
    /// Absolute bound on the error of any probability reported: its
    /// rounding, and the fights left unfinished.
    pub fn error(&self) -> f64 {
        self.relative_error / (1.0 - self.relative_error).max(f64::MIN_POSITIVE) + self.unfinished
    }

    /// The sum of every outcome's probability (1, within [`Answer::error`]
    /// times the number of outcomes summed).
    pub fn total(&self) -> f64 {
        self.wins[..self.sides].iter().sum::<f64>() + self.draws
    }

    /// Expected rounds.
    pub fn rounds_mean(&self) -> f64 {
        let mut s = Sum::default();
        for (r, &p) in self.rounds.iter().enumerate() {
            s.add(r as f64 * p);
        }
        s.value()
    }

    /// The smallest `r` with P(rounds ≤ r) ≥ `q` (a quantile of the
    /// fight length, as `run` reports it).
    pub fn rounds_quantile(&self, q: f64) -> u32 {
        let mut below = 0.0;
        for (r, &p) in self.rounds.iter().enumerate() {
            below += p;
            if below >= q - self.error() * self.rounds.len() as f64 {
                return r as u32;
            }
        }
        self.rounds.len().saturating_sub(1) as u32
    }
}

#[cfg(test)]
mod tests;
