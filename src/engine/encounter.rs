//! [`Encounter`]: one matrix cell compiled for the kernel. Flat, index-based,
//! fixed capacity and read-only while fights run; every check was done when
//! it was built.

use super::{Conditions, Cover, Initiative, Tactic, Targeting};
use crate::rules::Ruleset;

/// Most units in one fight, all sides together.
pub const MAX_UNITS: usize = 64;

/// One unit as placed in the scenario (a unit group of `count = 3` gives
/// three specs).
#[derive(Clone, Copy, Debug, Default)]
pub struct UnitSpec<R: Ruleset> {
    /// Side index, in scenario order.
    pub side: u8,
    /// Index of the unit group within the scenario (for names in reports).
    pub group: u8,
    pub stats: R::Unit,
    pub cover: Cover,
    /// Conditions the unit starts the fight with.
    pub conditions: Conditions,
    pub targeting: Targeting,
    /// The tactic, resolved (never `Auto`).
    pub tactic: Tactic,
    /// Distance from the front line at the start, in the ruleset's unit; on
    /// a map, the start square packed as [`super::ground::pack`] does.
    pub distance: i32,
    /// The group plays `tactic = "smart"` ([`super::tactic`]): `tactic`
    /// holds its movement, and its ruleset adds what smart plays besides.
    pub smart: bool,
    /// The damage this unit deals in one turn, in the units of
    /// [`Ruleset::vitality`], as its ruleset settles it once per cell
    /// (`prepare_unit`; 0 where the ruleset does not play smart): an enemy
    /// with no more health left is one [`super::Targeting::Smart`] can drop.
    pub drops: u32,
}

/// A compiled cell: everything one fight needs, nothing it does not.
#[derive(Clone, Copy, Debug)]
pub struct Encounter<R: Ruleset> {
    pub units: [UnitSpec<R>; MAX_UNITS],
    /// Units in use: `units[..n]`.
    pub n: usize,
    /// Sides in use.
    pub sides: usize,
    pub options: R::Options,
    pub initiative: Initiative,
    /// A fight still running after this many rounds is a draw.
    pub max_rounds: u32,
    /// The map the fight is on, or `None` for the one-dimensional front.
    /// Shared by every fight of the cell ([`super::ground`]).
    pub ground: Option<&'static super::Ground>,
}

impl<R: Ruleset> Encounter<R> {
    /// The units in use.
    #[inline]
    pub fn specs(&self) -> &[UnitSpec<R>] {
        &self.units[..self.n]
    }
}
