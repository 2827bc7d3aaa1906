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
//! ([`Ruleset::roll_initiative`] on enumerating dice, equal rolls merged);
//! since the units roll independently, the probability of each *ranking*
//! (which units rolled higher than which, and which tied) follows from
//! those ([`rankings`]), and the engine's own sort
//! ([`Fight::order_from_keys`]) runs once per ranking, on stand-in rolls in
//! that ranking, its tie-breaking dice enumerated. The sort compares rolls
//! only for higher and equal, so it gives the orders the real rolls give.

use std::collections::HashMap;

use super::paths::PathDice;
use super::{ExactError, Limits};
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
        found.push((
            fight.save(start.cursor),
            dice.probability(),
            dice.roundings(),
        ));
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
    limits: &Limits,
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
            let n = rolls.len();
            for (ranking, p, k) in rankings(&rolls, limits.max_states)? {
                // Stand-in rolls with the ranking's order and ties: the
                // engine's sort sees only which roll is higher and which
                // are equal, so it makes the same orders from them.
                let mut keys = vec![InitiativeRoll::default(); n];
                for (g, &group) in ranking.iter().enumerate() {
                    for u in crate::engine::Bits(group) {
                        keys[u].total = (ranking.len() - g) as i32;
                    }
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
            }
            Ok(merged.orders)
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

/// A ranking of the units by their initiative rolls: groups of units with
/// equal rolls (bit sets), highest rolls first.
type Ranking = Vec<u64>;

/// Every ranking the units' independent rolls can give, with its
/// probability: the rolls' values are visited from the highest down, and
/// at each the units not yet ranked that roll it (any subset of those who
/// can) form the next group. More than `most` rankings at once are
/// refused: eight units or more have hundreds of thousands, and each
/// ranking is a turn order the fight starts from.
fn rankings(
    rolls: &[Vec<(InitiativeRoll, f64, u32)>],
    most: u64,
) -> Result<Vec<(Ranking, f64, u32)>, ExactError> {
    let mut values: Vec<InitiativeRoll> = rolls.iter().flatten().map(|r| r.0).collect();
    values.sort_unstable_by(|a, b| b.cmp(a));
    values.dedup();
    let everyone: u64 = if rolls.len() >= 64 {
        u64::MAX
    } else {
        (1u64 << rolls.len()) - 1
    };
    let mut found: HashMap<Ranking, (f64, u32)> = HashMap::new();
    found.insert(Vec::new(), (1.0, 0));
    for value in values {
        // Who can roll it, with what probability.
        let mut can = 0u64;
        let mut p = vec![(0.0, 0u32); rolls.len()];
        for (u, r) in rolls.iter().enumerate() {
            if let Some(&(_, pu, ku)) = r.iter().find(|r| r.0 == value) {
                can |= 1 << u;
                p[u] = (pu, ku);
            }
        }
        let mut next: HashMap<Ranking, (f64, u32)> = HashMap::with_capacity(found.len());
        for (ranking, (q, kq)) in found {
            let ranked = ranking.iter().fold(0, |a, g| a | g);
            let open = can & !ranked & everyone;
            // Every subset of `open`, the empty one included.
            let mut group = open;
            loop {
                let (mut r, mut k) = (q, kq);
                for u in crate::engine::Bits(group) {
                    r *= p[u].0;
                    k += p[u].1 + 1;
                }
                let mut key = ranking.clone();
                if group != 0 {
                    key.push(group);
                }
                let slot = next.entry(key).or_insert((0.0, 0));
                if slot.0 == 0.0 {
                    *slot = (r, k);
                } else {
                    slot.0 += r;
                    slot.1 = slot.1.max(k) + 1;
                }
                if next.len() as u64 > most {
                    return Err(ExactError::TooManyRankings {
                        units: rolls.len(),
                        limit: most,
                    });
                }
                if group == 0 {
                    break;
                }
                group = (group - 1) & open;
            }
        }
        found = next;
    }
    let mut complete: Vec<(Ranking, f64, u32)> = found
        .into_iter()
        .filter(|(r, _)| r.iter().fold(0, |a, g| a | g) == everyone)
        .map(|(r, (p, k))| (r, p, k))
        .collect();
    // A fixed order, whatever the hash map's.
    complete.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(complete)
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
