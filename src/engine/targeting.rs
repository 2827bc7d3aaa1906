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
        /// The enemy the unit can most likely drop this turn (remaining
        /// health at most the damage it deals in a turn, as its ruleset
        /// settles it once per cell; the lowest remaining health first), else
        /// the side's focus, chosen as the weakest allowed enemy (lowest
        /// health fraction) rather than at random. The default of `tactic =
        /// "smart"`; every ruleset settles what a unit deals in a turn
        /// ([`crate::engine::UnitSpec::drops`]).
        Smart = "smart",
    }
}
