//! What a fight decides before its turns, enumerated: the opening side and
//! the turn order, with their probabilities.
//!
//! Both depend on the encounter and the dice alone, never on how the fight
//! stands, so they are worked out once per cell (and, with `rerolled`
//! initiative, applied at every round's start). Where every unit rolls
//! (`rolled`, `rerolled`, `alternating`), running the whole roll-and-sort
//! for every outcome of every unit's dice would be the product of all
//! their outcomes (a d8, a d8 and a d6 each, four units: 2·10^10 runs).
//! Instead each unit's own roll is enumerated apart
//! ([`Ruleset::roll_initiative`] on enumerating dice, equal rolls merged),
//! and the engine's own sort ([`Fight::order_from_keys`]) runs once per
//! combination of distinct rolls, its tie-breaking dice enumerated: the
//! same distribution, since the units roll independently.

use std::collections::HashMap;

use super::paths::PathDice;
use super::{ExactError, MAX_OUTCOMES};
use crate::engine::{Between, Encounter, Fight, InitiativeKind, InitiativeRoll};
use crate::rules::Ruleset;

/// A turn order with its probability and the roundings in it.
pub type Order = (Vec<u8>, f64, u32);

/// The fight's openings: what [`Fight::save`] keeps of the fight once its
/// opening side is chosen (the start state otherwise), with probabilities.
pub fn openings<R: Ruleset>(
    fight: &mut Fight<R>,
    enc: &Encounter<R>,
    dice: &mut PathDice,
    start: &Between,
    units: &[crate::engine::Combatant<R::State>],
    order: &[u8],
) -> Result<Vec<(Between, f64, u32)>, ExactError> {
    let mut found = Vec::new();
    let mut count = 0u64;
    dice.reset();
    loop {
        dice.rewind();
        fight.load(start, units, order, 1);
        fight.choose_opening_for_exact(enc, dice);
        super::solve::check_run(dice, &mut count, "the choice of the opening side")?;
        found.push((fight.save(start.cursor), dice.probability(), dice.roundings()));
        if !dice.advance() {
            return Ok(found);
        }
    }
}

/// Every turn order [`Fight::make_order`] can make for `enc`, with its
/// probability. `fight` is left in no particular state.
pub fn orders<R: Ruleset>(
    fight: &mut Fight<R>,
    enc: &Encounter<R>,
    dice: &mut PathDice,
) -> Result<Vec<Order>, ExactError> {
    let mut merged = Merged::default();
    let mut count = 0u64;
    match enc.initiative.kind {
        InitiativeKind::Rolled | InitiativeKind::Rerolled | InitiativeKind::Alternating => {
            let rolls: Vec<Vec<(InitiativeRoll, f64, u32)>> = enc
                .specs()
                .iter()
                .map(|spec| unit_rolls::<R>(&spec.stats, dice))
                .collect::<Result<_, _>>()?;
            let combinations = rolls
                .iter()
                .try_fold(1u64, |c, r| c.checked_mul(r.len() as u64))
                .filter(|&c| c <= MAX_OUTCOMES);
            if combinations.is_none() {
                return Err(ExactError::TooManyOutcomes {
                    what: format!(
                        "the initiative of {} units ({} distinct rolls each)",
                        rolls.len(),
                        rolls.iter().map(|r| r.len().to_string()).collect::<Vec<_>>().join(", ")
                    ),
                    limit: MAX_OUTCOMES,
                });
            }
            // A mixed-radix count over each unit's distinct rolls.
            let n = rolls.len();
            let mut digit = vec![0usize; n];
            let mut keys: Vec<InitiativeRoll> = rolls.iter().map(|r| r[0].0).collect();
            loop {
                let (mut p, mut k) = (1.0, 0u32);
                for (u, &d) in digit.iter().enumerate() {
                    let (key, pu, ku) = rolls[u][d];
                    keys[u] = key;
                    p *= pu;
                    k += ku + 1;
                }
                dice.reset();
                loop {
                    dice.rewind();
                    fight.order_from_keys(enc, &keys, dice);
                    super::solve::check_run(dice, &mut count, "the initiative's tie-breaks")?;
                    let order = fight.units_and_order().1;
                    merged.add(order, p * dice.probability(), k + dice.roundings() + 1);
                    if !dice.advance() {
                        break;
                    }
                }
                // The next combination.
                let mut u = 0;
                loop {
                    if u == n {
                        return Ok(merged.orders);
                    }
                    digit[u] += 1;
                    if digit[u] < rolls[u].len() {
                        break;
                    }
                    digit[u] = 0;
                    u += 1;
                }
            }
        }
        InitiativeKind::Fixed | InitiativeKind::Side => {
            dice.reset();
            loop {
                dice.rewind();
                fight.make_order(enc, dice);
                super::solve::check_run(dice, &mut count, "the initiative")?;
                let order = fight.units_and_order().1;
                merged.add(order, dice.probability(), dice.roundings());
                if !dice.advance() {
                    return Ok(merged.orders);
                }
            }
        }
    }
}

/// One unit's distinct initiative rolls, with their probabilities.
fn unit_rolls<R: Ruleset>(
    unit: &R::Unit,
    dice: &mut PathDice,
) -> Result<Vec<(InitiativeRoll, f64, u32)>, ExactError> {
    let mut rolls: Vec<(InitiativeRoll, f64, u32)> = Vec::new();
    let mut count = 0u64;
    dice.reset();
    loop {
        dice.rewind();
        let key = R::roll_initiative(unit, dice);
        super::solve::check_run(dice, &mut count, "a unit's initiative roll")?;
        let (p, k) = (dice.probability(), dice.roundings());
        match rolls.iter_mut().find(|r| r.0 == key) {
            Some(r) => {
                r.1 += p;
                r.2 = r.2.max(k) + 1;
            }
            None => rolls.push((key, p, k)),
        }
        if !dice.advance() {
            return Ok(rolls);
        }
    }
}

/// Orders found so far, equal orders merged.
#[derive(Default)]
struct Merged {
    orders: Vec<Order>,
    index: HashMap<Vec<u8>, usize>,
}

impl Merged {
    fn add(&mut self, order: &[u8], p: f64, k: u32) {
        match self.index.get(order) {
            Some(&i) => {
                let o = &mut self.orders[i];
                o.1 += p;
                o.2 = o.2.max(k) + 1;
            }
            None => {
                self.index.insert(order.to_vec(), self.orders.len());
                self.orders.push((order.to_vec(), p, k));
            }
        }
    }
}
