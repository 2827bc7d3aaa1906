//! Tactics: how a unit uses the one-dimensional front. Shared by every
//! ruleset; each ruleset plays them with its own movement and actions.
//!
//! The front abstracts the grid: every unit stands at a distance from the
//! front line, enemies on the other side of it. Moving toward the enemy
//! lowers a unit's distance (down to the line), backing off raises it.

use super::named::named_enum;

named_enum! {
    /// A unit's tactic.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub enum Tactic {
        /// Chosen from the unit's weapons by the ruleset: units whose weapons all
        /// need reach advance, units with a ranged weapon hold.
        #[default]
        Auto = "auto",
        /// Close to melee with the target: move toward it, attack when in reach,
        /// shoot on the way if a ranged weapon reaches, sprint if nothing does.
        Advance = "advance",
        /// Stay put and attack whatever is in range.
        Hold = "hold",
        /// Shoot from range; back off when an enemy is in melee reach; move only
        /// as close as the longest weapon needs.
        KeepRange = "keep-range",
    }
}
