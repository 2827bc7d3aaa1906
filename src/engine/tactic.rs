//! Tactics: how a unit uses the one-dimensional front. Shared by every
//! ruleset; each ruleset plays them with its own movement and actions.
//!
//! The front abstracts the grid: every unit stands at a distance from the
//! front line, enemies on the other side of it. Moving toward the enemy
//! lowers a unit's distance (down to the line), backing off raises it.
//!
//! **`smart`** is a tactic a scenario may write (it is in [`TACTIC_NAMES`])
//! but not a variant of [`Tactic`]: it settles at load into the movement
//! of [`smart_movement`] (keep-range for a unit with a ranged weapon,
//! advance for a melee-only one), marks the unit smart
//! ([`super::UnitSpec::smart`]) for what its ruleset adds (cover, a
//! withdrawal near defeat) and targets by [`super::Targeting::Smart`] unless
//! the group writes its own `target`. Why not a variant: every ruleset's
//! turn dispatches on [`Tactic`] with an exhaustive `match`, and smart is a
//! movement plus extras, not a fourth way to move. Every ruleset plays it
//! (its extras and [`super::UnitSpec::drops`] are settled in
//! [`crate::rules::Ruleset::prepare_unit`]).

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

/// The tactic names a scenario may write: [`Tactic::NAMES`], then `smart`.
pub const TACTIC_NAMES: &[&str] = &["auto", "advance", "hold", "keep-range", SMART];

/// The name of the smart tactic (see the module doc).
pub const SMART: &str = "smart";

/// How a smart unit moves, from the tactic its ruleset would give it by its
/// weapons (`auto`): a unit that would hold (it has a ranged weapon) keeps
/// its range, staying out of melee; a melee-only unit advances.
pub fn smart_movement(auto: Tactic) -> Tactic {
    match auto {
        Tactic::Hold | Tactic::KeepRange => Tactic::KeepRange,
        Tactic::Advance | Tactic::Auto => Tactic::Advance,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tactic_names_are_the_tactics_then_smart() {
        assert_eq!(&TACTIC_NAMES[..Tactic::NAMES.len()], Tactic::NAMES);
        assert_eq!(TACTIC_NAMES[Tactic::NAMES.len()], SMART);
        assert_eq!(smart_movement(Tactic::Hold), Tactic::KeepRange);
        assert_eq!(smart_movement(Tactic::Advance), Tactic::Advance);
    }
}
