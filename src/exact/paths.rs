//! Dice that enumerate: [`PathDice`] answers every roll the rules ask for
//! and, run after run, walks every outcome of those rolls exactly once.
//!
//! Rules code is straight-line Rust that asks for dice as it goes, so its
//! outcomes are enumerated by running it again for each: the first run
//! answers every roll with its first branch, and each next run answers the
//! same rolls as the last one but for its last roll not yet at its last
//! branch, which takes the next one, and rolls new to the run start at
//! their first branch again (an odometer over a tree: a roll's branches,
//! and which rolls come after it, may depend on the rolls before).
//!
//! A plain roll of a die with `sides` faces has `sides` branches of
//! probability `1/sides`. A [`Dice::pool`] is enumerated apart when the
//! run first reaches it, on dice of its own, and has one branch per
//! distinct value it returns, with the probability of the faces giving
//! that value: later runs replay one set of faces giving it (the first
//! found) to get the value again. An outcome's probability is the product
//! of its branches'.

use super::sum::Sum;
use crate::dice::Dice;

/// Most dice one enumerated piece of rules (a turn, the start of a fight)
/// may read in one outcome: far beyond any turn of the rulesets (a few
/// dozen at most), and a stop for rules that roll until a face comes up.
pub const MAX_ROLLS: usize = 512;

/// Most distinct values one [`Dice::pool`] may return: beyond, the pool
/// gains nothing over its dice (and a pool is meant for a total or a
/// verdict, not for a list of faces).
pub const MAX_POOL_VALUES: usize = 4096;

/// One roll of the current outcome.
#[derive(Clone, Copy, Debug)]
struct Roll {
    /// Faces of a plain die; 0 for a pool.
    sides: u32,
    /// The branch taken, from 0.
    branch: u32,
    /// Branches in all.
    branches: u32,
    /// A pool's first value in [`PathDice::values`].
    first: u32,
    /// The probability of the outcome's rolls up to and including this one.
    probability: f64,
    /// Roundings in `probability`.
    roundings: u32,
}

/// One distinct value of a pool: its probability, the roundings in it, and
/// the faces that first gave it (`faces[from..to]` of the dice).
#[derive(Clone, Copy, Debug)]
struct PoolValue {
    probability: f64,
    roundings: u32,
    from: u32,
    to: u32,
}

/// Enumerating dice (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct PathDice {
    rolls: Vec<Roll>,
    /// Rolls answered in the current run.
    at: usize,
    /// A run asked for more than [`MAX_ROLLS`] dice, or a pool had more
    /// than [`MAX_POOL_VALUES`] values.
    too_deep: bool,
    /// The values of the pools among `rolls`, in roll order.
    values: Vec<PoolValue>,
    /// Their faces.
    faces: Vec<u32>,
    /// Replaying a pool's faces: these dice answer plain rolls from
    /// `faces[from..to]` of their owner, and run nested pools as they are.
    replay: Option<(u32, u32)>,
    /// Dice a pool is enumerated on: pools within it are rolled as dice.
    flat: bool,
    /// Dice to enumerate or replay pools on (kept for their buffers).
    inner: Option<Box<PathDice>>,
}

impl PathDice {
    pub fn new() -> Self {
        PathDice {
            rolls: Vec::with_capacity(64),
            ..PathDice::default()
        }
    }

    /// Start a new enumeration: the next run is its first outcome.
    pub fn reset(&mut self) {
        self.rolls.clear();
        self.values.clear();
        self.faces.clear();
        self.at = 0;
        self.too_deep = false;
    }

    /// Before each run of the rules: answer from the first roll again.
    #[inline]
    pub fn rewind(&mut self) {
        self.at = 0;
    }

    /// The probability of the outcome just run: the product of its
    /// branches' probabilities.
    #[inline]
    pub fn probability(&self) -> f64 {
        self.rolls.last().map_or(1.0, |r| r.probability)
    }

    /// Roundings in [`PathDice::probability`]: one per `1/sides`, one per
    /// product, and a pool value's own (a bound: `1/sides` is exact for
    /// powers of two).
    #[inline]
    pub fn roundings(&self) -> u32 {
        self.rolls.last().map_or(0, |r| r.roundings)
    }

    /// Whether the run just made asked for more than [`MAX_ROLLS`] dice, or
    /// a pool with more than [`MAX_POOL_VALUES`] values (its outcome is then
    /// not one of the rules' outcomes: refuse the enumeration).
    pub fn too_deep(&self) -> bool {
        self.too_deep
    }

    /// Move to the next outcome; false once every outcome has been run.
    pub fn advance(&mut self) -> bool {
        debug_assert_eq!(
            self.at,
            self.rolls.len(),
            "a run read every roll of its outcome"
        );
        while let Some(last) = self.rolls.last().copied() {
            if last.branch + 1 < last.branches {
                let n = self.rolls.len();
                let (before, k) = self.before(n - 1);
                let (p, kp) = self.branch_probability(&last, last.branch + 1);
                let r = &mut self.rolls[n - 1];
                r.branch += 1;
                r.probability = before * p;
                r.roundings = k + kp + 1;
                return true;
            }
            self.rolls.pop();
            if last.sides == 0 {
                // A pool's values are the last in `values`.
                let first = self.values[last.first as usize];
                self.faces.truncate(first.from as usize);
                self.values.truncate(last.first as usize);
            }
        }
        false
    }

    /// The probability of the rolls before roll `i`, and its roundings.
    #[inline]
    fn before(&self, i: usize) -> (f64, u32) {
        if i == 0 {
            (1.0, 0)
        } else {
            let r = &self.rolls[i - 1];
            (r.probability, r.roundings)
        }
    }

    /// Branch `branch` of `roll`: its probability and roundings.
    #[inline]
    fn branch_probability(&self, roll: &Roll, branch: u32) -> (f64, u32) {
        if roll.sides != 0 {
            (1.0 / f64::from(roll.sides), 1)
        } else {
            let v = &self.values[(roll.first + branch) as usize];
            (v.probability, v.roundings)
        }
    }

    /// Add a roll new to the run, at its first branch.
    fn push(&mut self, sides: u32, branches: u32, first: u32) {
        let mut roll = Roll {
            sides,
            branch: 0,
            branches,
            first,
            probability: 0.0,
            roundings: 0,
        };
        let (before, k) = self.before(self.rolls.len());
        let (p, kp) = self.branch_probability(&roll, 0);
        roll.probability = before * p;
        roll.roundings = k + kp + 1;
        self.rolls.push(roll);
    }

    /// Dice for a pool: replaying `faces[from..to]` of these, or (`None`)
    /// enumerating afresh.
    fn inner(&mut self, replay: Option<(u32, u32)>) -> Box<PathDice> {
        let mut inner = self.inner.take().unwrap_or_default();
        inner.reset();
        inner.replay = replay;
        inner.flat = true;
        inner
    }
}

impl Dice for PathDice {
    fn roll(&mut self, sides: u32) -> u32 {
        let at = self.at;
        self.at += 1;
        if let Some((from, to)) = self.replay {
            // Replaying a pool's faces (held by the dice that own the pool,
            // copied in by `pool`).
            debug_assert!(from as usize + at < to as usize, "a pool replays its faces");
            return self.faces[from as usize + at];
        }
        if let Some(r) = self.rolls.get(at) {
            // The same rolls so far give the same code path: the rules are
            // deterministic given their dice.
            debug_assert_eq!(
                r.sides, sides,
                "roll {at} asked for another die than before"
            );
            return r.branch + 1;
        }
        if at >= MAX_ROLLS {
            self.too_deep = true;
            self.at = self.rolls.len();
            return 1;
        }
        self.push(sides.max(1), sides.max(1), 0);
        1
    }

    fn pool<T: Copy + PartialEq>(&mut self, mut roll: impl FnMut(&mut Self) -> T) -> T {
        if self.replay.is_some() || self.flat {
            // A pool within a pool: its dice are the outer pool's.
            return roll(self);
        }
        let at = self.at;
        self.at += 1;
        if let Some(r) = self.rolls.get(at).copied() {
            debug_assert_eq!(r.sides, 0, "roll {at} was a pool before");
            // Replay the faces of the branch's value.
            let v = self.values[(r.first + r.branch) as usize];
            let mut inner = self.inner(Some((0, v.to - v.from)));
            inner.faces.clear();
            inner
                .faces
                .extend_from_slice(&self.faces[v.from as usize..v.to as usize]);
            let value = roll(&mut inner);
            self.inner = Some(inner);
            return value;
        }
        if at >= MAX_ROLLS {
            self.too_deep = true;
            self.at = self.rolls.len();
            let mut inner = self.inner(None);
            let value = roll(&mut inner);
            self.inner = Some(inner);
            return value;
        }
        // Enumerate the pool on dice of its own: each distinct value, its
        // probability (a compensated sum) and the first faces giving it.
        let mut inner = self.inner(None);
        let first = self.values.len() as u32;
        let mut found: Vec<(T, Sum, u32)> = Vec::new();
        loop {
            inner.rewind();
            let value = roll(&mut inner);
            let (p, k) = (inner.probability(), inner.roundings());
            match found.iter().position(|(v, _, _)| *v == value) {
                Some(i) => {
                    found[i].1.add(p);
                    found[i].2 = found[i].2.max(k);
                }
                None => {
                    let from = self.faces.len() as u32;
                    self.faces.extend(inner.rolls.iter().map(|r| r.branch + 1));
                    self.values.push(PoolValue {
                        probability: 0.0,
                        roundings: 0,
                        from,
                        to: self.faces.len() as u32,
                    });
                    let mut sum = Sum::default();
                    sum.add(p);
                    found.push((value, sum, k));
                }
            }
            if inner.too_deep || found.len() > MAX_POOL_VALUES {
                self.too_deep = true;
                break;
            }
            if !inner.advance() {
                break;
            }
        }
        self.inner = Some(inner);
        // A compensated sum rounds twice, whatever its number of terms.
        for (i, (_, sum, k)) in found.iter().enumerate() {
            let v = &mut self.values[first as usize + i];
            v.probability = sum.value();
            v.roundings = k + 2;
        }
        self.push(0, found.len() as u32, first);
        found[0].0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every outcome of `body`'s dice, with its probability.
    fn outcomes(mut body: impl FnMut(&mut PathDice) -> u32) -> Vec<(u32, f64)> {
        let mut dice = PathDice::new();
        let mut all = Vec::new();
        loop {
            dice.rewind();
            let value = body(&mut dice);
            all.push((value, dice.probability()));
            if !dice.advance() {
                return all;
            }
        }
    }

    #[test]
    fn one_die_gives_each_face_once() {
        let all = outcomes(|d| d.roll(6));
        assert_eq!(all.len(), 6);
        for (i, &(v, p)) in all.iter().enumerate() {
            assert_eq!(v, i as u32 + 1);
            assert_eq!(p, 1.0 / 6.0);
        }
    }

    #[test]
    fn a_die_rolled_only_on_some_faces_branches_only_there() {
        // A d20 attack that rolls a d8 of damage on 11 or more: 10 misses
        // and 10 × 8 hits, each hit 1/160.
        let all = outcomes(|d| {
            let a = d.roll(20);
            if a >= 11 {
                d.roll(8)
            } else {
                0
            }
        });
        assert_eq!(all.len(), 10 + 80);
        // 90 probabilities, each within 2 roundings, summed with 89 more.
        let total: f64 = all.iter().map(|&(_, p)| p).sum();
        assert!((total - 1.0).abs() <= super::super::gamma(2 + 89));
        let misses = all.iter().filter(|&&(v, _)| v == 0).count();
        assert_eq!(misses, 10);
    }

    #[test]
    fn a_pool_branches_once_per_value_with_its_probability() {
        // 2d6: 11 totals, 7 with probability 6/36; a d4 after it each time.
        let all = outcomes(|d| {
            let total = d.pool(|d| d.roll(6) + d.roll(6));
            100 * total + d.roll(4)
        });
        assert_eq!(all.len(), 11 * 4);
        for &(v, p) in &all {
            let total = v / 100;
            let ways = 6 - (total as i32 - 7).unsigned_abs();
            let want = f64::from(ways) / 36.0 / 4.0;
            assert!((p - want).abs() <= 8.0 * UNIT * want, "{v}: {p} vs {want}");
        }
    }

    #[test]
    fn a_pool_after_other_dice_is_enumerated_again_for_each() {
        // Best two of 3d6 after a coin: 2 × 11 outcomes, and a pool of
        // one verdict (a d20 of 11 or more) gives two.
        let all = outcomes(|d| {
            let coin = d.roll(2);
            let best = d.pool(|d| {
                let (a, b, c) = (d.roll(6), d.roll(6), d.roll(6));
                a + b + c - a.min(b).min(c)
            });
            let hit = d.pool(|d| d.roll(20) >= 11);
            1000 * coin + 10 * best + u32::from(hit)
        });
        assert_eq!(all.len(), 2 * 11 * 2);
        let total: f64 = all.iter().map(|&(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-14);
        // Best two of 3d6 totalling 12: 16 of 216 faces.
        let twelve: f64 = all
            .iter()
            .filter(|&&(v, _)| (v % 1000) / 10 == 12)
            .map(|&(_, p)| p)
            .sum();
        assert!((twelve - 16.0 / 216.0).abs() < 1e-15);
    }

    #[test]
    fn a_pool_within_a_pool_rolls_as_dice() {
        let all = outcomes(|d| d.pool(|d| d.roll(3) + d.pool(|d| d.roll(3))));
        // 2..=6: 5 values, 1,2,3,2,1 of 9.
        assert_eq!(all.len(), 5);
        for (i, &(v, p)) in all.iter().enumerate() {
            assert_eq!(v, i as u32 + 2);
            let ways = 3 - (v as i32 - 4).unsigned_abs();
            assert!((p - f64::from(ways) / 9.0).abs() < 1e-15);
        }
    }

    const UNIT: f64 = f64::EPSILON / 2.0;
}
