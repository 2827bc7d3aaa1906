//! Pieces shared by rulesets that are not tied to one dice chassis.

use crate::rules::MAX_WEAPONS;
use crate::scenario::schema::Fields;
use crate::scenario::ScenarioError;

/// What [`kit`] needs to know about a ruleset's weapon.
pub trait KitWeapon: Copy + Default {
    /// Expected damage, to rank weapons.
    fn mean_damage(&self) -> f64;
    /// Reach (melee) or range.
    fn range(&self) -> i32;
    fn is_melee(&self) -> bool;
}

/// A unit's weapons, best expected damage first (a turn uses the first that
/// reaches its target), with the distances the tactics need.
#[derive(Clone, Copy, Debug, Default)]
pub struct Kit<W> {
    pub weapons: [W; MAX_WEAPONS],
    pub n: u8,
    /// The longest reach or range among the weapons.
    pub max_range: i32,
    /// The longest reach among the melee weapons (0: none).
    pub melee_reach: i32,
    /// The longest range among the other weapons (0: none).
    pub ranged_range: i32,
    /// How close an advancing unit gets: its melee reach, or its longest
    /// range if it has no melee weapon.
    pub advance_reach: i32,
}

/// Rank a unit's `weapons` (its `weapons` list, resolved); an error on key
/// `weapons` of `f` if there are none.
pub fn kit<W: KitWeapon>(f: &Fields, weapons: &[W]) -> Result<Kit<W>, ScenarioError> {
    if weapons.is_empty() {
        return Err(f.error("weapons", "a unit needs at least one weapon to fight"));
    }
    let mut kit = Kit::<W>::default();
    let mut sorted = weapons.to_vec();
    sorted.sort_by(|a, b| b.mean_damage().total_cmp(&a.mean_damage()));
    kit.weapons[..sorted.len()].copy_from_slice(&sorted);
    kit.n = sorted.len() as u8;
    let longest = |melee: Option<bool>| {
        sorted
            .iter()
            .filter(|w| melee.is_none_or(|m| w.is_melee() == m))
            .map(|w| w.range())
            .max()
            .unwrap_or(0)
    };
    kit.max_range = longest(None);
    kit.melee_reach = longest(Some(true));
    kit.ranged_range = longest(Some(false));
    kit.advance_reach = if kit.melee_reach > 0 {
        kit.melee_reach
    } else {
        kit.max_range
    };
    Ok(kit)
}
