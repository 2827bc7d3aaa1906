//! Targeting policies: which enemy a unit attacks. Shared by every ruleset;
//! the ruleset only says which enemies are allowed (in range, targetable).

/// A unit's targeting policy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Targeting {
    /// Any allowed enemy, uniformly.
    #[default]
    Random,
    /// The allowed enemy with the lowest remaining health fraction.
    Weakest,
    /// The allowed enemy with the highest remaining health fraction.
    Strongest,
    /// The allowed enemy at the shortest distance.
    Nearest,
    /// The whole side attacks one enemy until it drops (or can no longer be
    /// attacked by this unit); a new focus is picked at random.
    Focus,
}

impl Targeting {
    pub const NAMES: &'static [&'static str] =
        &["random", "weakest", "strongest", "nearest", "focus"];

    pub fn parse(name: &str) -> Option<Targeting> {
        Some(match name {
            "random" => Targeting::Random,
            "weakest" => Targeting::Weakest,
            "strongest" => Targeting::Strongest,
            "nearest" => Targeting::Nearest,
            "focus" => Targeting::Focus,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}
