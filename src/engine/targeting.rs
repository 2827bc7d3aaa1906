//! Targeting policies: which enemy a unit attacks. Shared by every ruleset;
//! the ruleset only says which enemies are allowed (in range, targetable).

use super::named::named_enum;

named_enum! {
    /// A unit's targeting policy.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub enum Targeting {
        /// Any allowed enemy, uniformly.
        #[default]
        Random = "random",
        /// The allowed enemy with the lowest remaining health fraction.
        Weakest = "weakest",
        /// The allowed enemy with the highest remaining health fraction.
        Strongest = "strongest",
        /// The allowed enemy at the shortest distance.
        Nearest = "nearest",
        /// The whole side attacks one enemy until it drops (or can no longer be
        /// attacked by this unit); a new focus is picked at random.
        Focus = "focus",
    }
}
