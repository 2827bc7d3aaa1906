//! Machinery shared by rulesets that is not tied to one dice chassis:
//! ranking a unit's weapons, moves that provoke reactions, and the turn a
//! unit plays ([`Plan`]: its tactic, on the front or on a map).

use crate::dice::Dice;
use crate::engine::{Bits, Tactic, Turn};
use crate::rules::field::{FieldError, FieldReader};
use crate::rules::{Ruleset, MAX_WEAPONS};

/// What [`kit`] needs to know about a ruleset's weapon.
pub trait KitWeapon: Copy + Default {
    /// Expected damage, to rank weapons.
    fn mean_damage(&self) -> f64;
    /// Reach (melee) or range.
    fn range(&self) -> i32;
    fn is_melee(&self) -> bool;
}

/// What a unit with one attack a turn most likely deals in a turn: the
/// mean damage of its best weapon (`weapons` ranked best first), for
/// [`crate::engine::UnitSpec::drops`] (smart targeting). Used by trenches
/// and osr.
pub fn one_attack_drops<W: KitWeapon>(weapons: &[W]) -> u32 {
    weapons
        .first()
        .map_or(0, |w| w.mean_damage().max(0.0) as u32)
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
pub fn kit<W: KitWeapon>(f: &impl FieldReader, weapons: &[W]) -> Result<Kit<W>, FieldError> {
    if weapons.is_empty() {
        return Err(f.error("weapons", "a unit needs at least one weapon to fight"));
    }
    let mut kit = Kit::<W>::default();
    (kit.weapons, kit.n) = best_first(weapons, W::mean_damage);
    let sorted = &kit.weapons[..kit.n as usize];
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

/// Move the actor with `step` (an [`Turn::approach`] or [`Turn::back_off`])
/// and return, as a bit set, the units of `watch` whose reaction the move
/// provokes: those for which `provokes(turn, unit, from)` holds after the
/// move, `from` being the mover's position before it. The caller resolves
/// the reactions (attacks of opportunity, free hits), in unit order, while
/// the mover is still in the fight. Used by trenches (leaving 5 m reach) and
/// escalation (leaving a melee zone or moving more than 2 spaces in it).
#[inline]
pub fn provoking_move<R: Ruleset, D: Dice>(
    turn: &mut Turn<'_, R, D>,
    watch: u64,
    step: impl FnOnce(&mut Turn<'_, R, D>),
    provokes: impl Fn(&Turn<'_, R, D>, usize, i32) -> bool,
) -> u64 {
    let from = turn.unit(turn.actor).position;
    step(turn);
    let mut provoked = 0;
    for unit in Bits(watch) {
        if provokes(turn, unit, from) {
            provoked |= 1 << unit;
        }
    }
    provoked
}

/// A stat block's weapons, best expected damage (`mean`) first, in a fixed
/// array: turns use the first one that reaches. Ties keep list order.
pub fn best_first<W: Copy + Default>(
    weapons: &[W],
    mean: impl Fn(&W) -> f64,
) -> ([W; MAX_WEAPONS], u8) {
    let mut sorted = weapons.to_vec();
    sorted.sort_by(|a, b| mean(b).total_cmp(&mean(a)));
    let mut out = [W::default(); MAX_WEAPONS];
    out[..sorted.len()].copy_from_slice(&sorted);
    (out, sorted.len() as u8)
}

/// The turn a unit plays: its tactic, on the front or on a map. Settled
/// once per cell ([`Plan::of`] when the unit is prepared, [`Plan::on_the_map`]
/// when it is placed on a map), so that the turn's one dispatch (on the
/// tactic, as before maps) also settles the map: below it `MAP` is a
/// constant, and a front turn tests no ground (trenches' pattern,
/// `src/rules/trenches/`; thrum and escalation play the same way).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Plan {
    #[default]
    Hold,
    Advance,
    KeepRange,
    HoldOnMap,
    AdvanceOnMap,
    KeepRangeOnMap,
}

impl Plan {
    /// A unit's plan on the front, from its tactic (`auto` holds).
    #[inline]
    pub fn of(tactic: Tactic) -> Plan {
        match tactic {
            Tactic::Hold | Tactic::Auto => Plan::Hold,
            Tactic::Advance => Plan::Advance,
            Tactic::KeepRange => Plan::KeepRange,
        }
    }

    /// The same plan on a map.
    #[inline]
    pub fn on_the_map(self) -> Plan {
        match self {
            Plan::Hold | Plan::HoldOnMap => Plan::HoldOnMap,
            Plan::Advance | Plan::AdvanceOnMap => Plan::AdvanceOnMap,
            Plan::KeepRange | Plan::KeepRangeOnMap => Plan::KeepRangeOnMap,
        }
    }

    /// Whether the unit plays on a map.
    #[inline]
    pub fn on_map(self) -> bool {
        matches!(
            self,
            Plan::HoldOnMap | Plan::AdvanceOnMap | Plan::KeepRangeOnMap
        )
    }
}
