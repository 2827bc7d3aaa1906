//! Load-time check: weapons a unit group can never use, named in a warning
//! (the run goes ahead: such a scenario is legal, but rarely what the
//! designer meant).
//!
//! Sound where it speaks, silent elsewhere. When every unit of a fight
//! holds (its tactic, resolved, is `hold`), no unit ever moves toward an
//! enemy: the rulesets move a holding unit only away from the enemy
//! (backing off, fleeing), toward an ally (to tend or revive it, stopping
//! short of it) or onto an ally's place (dicestep's intercept). So every
//! unit of a side stays at least as far from the front line as the side's
//! nearest unit at the start, and two units on opposite sides of the line
//! (sides of different parity: even sides start on one side, odd sides on
//! the other) are always at least the sum of their sides' nearest starting
//! distances apart. A weapon whose reach ([`Ruleset::weapon_reach`]) is
//! shorter than that from every enemy side is never used. A side on the
//! same side of the line (a third side) may come arbitrarily close: no
//! claim is made then, nor for a weapon whose reach the ruleset does not
//! give, nor when any unit does anything but hold.

use crate::engine::{Tactic, UnitSpec};
use crate::rules::Ruleset;

/// One unit group as compiled: where its units are, and its weapons by name.
pub(super) struct Group<'a, R: Ruleset> {
    pub name: &'a str,
    pub side: usize,
    /// Index of its first unit in the encounter.
    pub first: usize,
    pub weapons: Vec<(&'a str, &'a R::Weapon)>,
}

/// A warning per group with a weapon it can never use; `specs` are the
/// encounter's units, `sides` the side names in scenario order.
pub(super) fn never_used<R: Ruleset>(
    specs: &[UnitSpec<R>],
    sides: &[String],
    groups: &[Group<'_, R>],
) -> Vec<String> {
    if specs.iter().any(|s| s.tactic != Tactic::Hold) {
        return Vec::new();
    }
    // Each side's nearest starting distance from the line.
    let mut nearest = vec![i32::MAX; sides.len()];
    for spec in specs {
        let n = &mut nearest[spec.side as usize];
        *n = (*n).min(spec.distance);
    }
    let mut out = Vec::new();
    for group in groups {
        let own = group.side;
        let enemies = (0..sides.len()).filter(|&s| s != own && nearest[s] != i32::MAX);
        // The closest any enemy can ever be; none if one shares our side
        // of the line.
        let closest = enemies
            .map(|s| (s % 2 != own % 2).then(|| nearest[own].saturating_add(nearest[s])))
            .try_fold(i32::MAX, |m, gap| gap.map(|g| m.min(g)));
        let Some(closest) = closest else {
            continue;
        };
        let stats = &specs[group.first].stats;
        let unit = R::DISTANCE_UNIT;
        let unused: Vec<String> = group
            .weapons
            .iter()
            .filter_map(|(name, weapon)| {
                let reach = R::weapon_reach(stats, weapon)?;
                (reach < closest).then(|| format!("`{name}` (reach {reach} {unit})"))
            })
            .collect();
        if unused.is_empty() {
            continue;
        }
        let never = if unused.len() == group.weapons.len() {
            ", so it never attacks"
        } else {
            ""
        };
        // The message leaves out how far apart the sides start, so cells
        // that differ only in that (a distance axis) share one warning.
        out.push(format!(
            "`{}` of side `{}` never uses its {}{never}: every unit holds and the sides start \
             farther apart than that, so no enemy ever comes within reach; give a side \
             `tactic = \"advance\"` or start them closer.",
            group.name,
            sides[own],
            unused.join(" or its ")
        ));
    }
    out
}
