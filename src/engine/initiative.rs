//! Initiative schemes: who acts when. Any ruleset can use any scheme; each
//! ruleset names its own default and supplies the roll (dice + modifier) and
//! the stat for fixed orders.

use super::named::named_enum;
use crate::dice::Dice;

named_enum! {
    /// How turn order is decided.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum InitiativeKind {
        /// Each unit rolls once per fight (the ruleset's dice and tie-breaks).
        Rolled = "rolled",
        /// Each unit rolls again at the start of every round.
        Rerolled = "rerolled",
        /// Fixed order by a stat, highest first (the ruleset says which stat).
        Fixed = "fixed",
        /// Team-alternating activation: sides take turns activating one unit each,
        /// the first side first; each side activates its units in rolled order;
        /// a side out of units lets the others finish the round.
        Alternating = "alternating",
        /// Side initiative: each side rolls once per fight (with its first unit's
        /// modifier); the whole side acts, in roster order, before the next.
        Side = "side",
    }
}

named_enum! {
    /// How units still tied after the ruleset's own tie-breaks are ordered.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub enum Ties {
        /// A random order among the tied units (drawn once when the order is made).
        #[default]
        Random = "random",
        /// Roster order: sides in file order, units in file order within a side.
        Roster = "roster",
    }
}

/// The scheme in force for a scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Initiative {
    pub kind: InitiativeKind,
    pub ties: Ties,
    /// Under team-alternating activation, the side whose team activates
    /// first every round (unused by the other schemes, which the scenario
    /// compiler refuses it with).
    pub opening: Opening,
}

/// Which side opens every round under team-alternating activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opening {
    /// Always this side (index in scenario order): the ruleset's own choice
    /// (the first listed side, or the side that began the fight), or the
    /// scenario's `opening = "first"` / `"second"`.
    Side(u8),
    /// `opening = "random"`: drawn once per fight, each side alike, before
    /// any initiative roll.
    Random,
}

/// One unit's initiative: ordered by `total`, then `tiebreak`, both highest
/// first. Rulesets without a second tie-break leave `tiebreak` at 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct InitiativeRoll {
    pub total: i32,
    pub tiebreak: i32,
}

/// Sort `order` (unit indices) by `keys` (indexed by unit), highest first;
/// exact ties are broken by `ties`. No allocation: sorts in place.
pub(crate) fn sort_by_keys<D: Dice>(
    order: &mut [u8],
    keys: &[InitiativeRoll],
    ties: Ties,
    dice: &mut D,
) {
    // Insertion sort: n is small (at most MAX_UNITS) and usually tiny, and
    // this runs once per fight. `order` comes in roster order and the sort is
    // stable, so exact ties stay in roster order.
    let mut tied = false;
    for i in 1..order.len() {
        tied |= insert_by_key(order, i, keys);
    }
    if tied && ties == Ties::Random {
        shuffle_ties(order, keys, dice);
    }
}

/// One step of the insertion sort: `order[..i]` is sorted (highest key
/// first); move `order[i]` into place after any equal keys (stable). Returns
/// whether it landed right after an equal key (a tie).
#[inline(always)]
pub(crate) fn insert_by_key(order: &mut [u8], i: usize, keys: &[InitiativeRoll]) -> bool {
    let u = order[i];
    let key = keys[u as usize];
    let mut j = i;
    while j > 0 && keys[order[j - 1] as usize] < key {
        order[j] = order[j - 1];
        j -= 1;
    }
    order[j] = u;
    // The insertion stops at the smallest key not below `key`: an equal key
    // already placed is exactly there. Noting it here saves a second pass
    // over the order to look for ties.
    j > 0 && keys[order[j - 1] as usize] == key
}

/// Put each run of equal keys in `order` (sorted) in a random order.
#[inline(never)]
pub(crate) fn shuffle_ties<D: Dice>(order: &mut [u8], keys: &[InitiativeRoll], dice: &mut D) {
    let mut start = 0;
    while start < order.len() {
        let key = keys[order[start] as usize];
        let mut end = start + 1;
        while end < order.len() && keys[order[end] as usize] == key {
            end += 1;
        }
        if end - start > 1 {
            shuffle(&mut order[start..end], dice);
        }
        start = end;
    }
}

/// Fisher-Yates; rolls nothing for a run of one.
pub(crate) fn shuffle<D: Dice>(run: &mut [u8], dice: &mut D) {
    for i in (1..run.len()).rev() {
        let j = dice.roll(i as u32 + 1) as usize - 1;
        run.swap(i, j);
    }
}
