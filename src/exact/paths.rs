//! Dice that enumerate: [`PathDice`] answers every roll the rules ask for
//! and, run after run, walks every outcome of those rolls exactly once.
//!
//! Rules code is straight-line Rust that asks for dice as it goes, so its
//! outcomes are enumerated by running it again for each: the first run
//! answers every roll with 1, and each next run answers the same rolls as
//! the last one but for its last roll not yet at its highest face, which is
//! one higher, and rolls new to the run with 1 again (an odometer over a
//! tree: a roll's number of faces, and which rolls come after it, may depend
//! on the rolls before). Each outcome has the probability of its rolls,
//! `1/sides` each, whatever the faces.

use crate::dice::Dice;

/// Most dice one enumerated piece of rules (a turn, the start of a fight)
/// may read in one outcome: far beyond any turn of the rulesets (a few
/// dozen at most), and a stop for rules that roll until a face comes up.
pub const MAX_ROLLS: usize = 512;

/// One roll of the current outcome.
#[derive(Clone, Copy, Debug)]
struct Roll {
    sides: u32,
    face: u32,
    /// The probability of the outcome's rolls up to and including this one.
    probability: f64,
}

/// Enumerating dice (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct PathDice {
    rolls: Vec<Roll>,
    /// Rolls answered in the current run.
    at: usize,
    /// A run asked for more than [`MAX_ROLLS`] dice.
    too_deep: bool,
}

impl PathDice {
    pub fn new() -> Self {
        PathDice {
            rolls: Vec::with_capacity(64),
            at: 0,
            too_deep: false,
        }
    }

    /// Start a new enumeration: the next run is its first outcome.
    pub fn reset(&mut self) {
        self.rolls.clear();
        self.at = 0;
        self.too_deep = false;
    }

    /// Before each run of the rules: answer from the first roll again.
    #[inline]
    pub fn rewind(&mut self) {
        self.at = 0;
    }

    /// The probability of the outcome just run: the product of `1/sides`
    /// over its rolls.
    #[inline]
    pub fn probability(&self) -> f64 {
        self.rolls.last().map_or(1.0, |r| r.probability)
    }

    /// Roundings in [`PathDice::probability`]: one per `1/sides`, one per
    /// product (a bound: `1/sides` is exact for powers of two).
    #[inline]
    pub fn roundings(&self) -> u32 {
        2 * self.rolls.len() as u32
    }

    /// The dice of the outcome just run, `(sides, face)` in the order read.
    pub fn rolls(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.rolls.iter().map(|r| (r.sides, r.face))
    }

    /// Whether the run just made asked for more than [`MAX_ROLLS`] dice (its
    /// outcome is then not one of the rules' outcomes: refuse the
    /// enumeration).
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
        while let Some(last) = self.rolls.last_mut() {
            if last.face < last.sides {
                last.face += 1;
                return true;
            }
            self.rolls.pop();
        }
        false
    }
}

impl Dice for PathDice {
    fn roll(&mut self, sides: u32) -> u32 {
        let at = self.at;
        self.at += 1;
        if let Some(r) = self.rolls.get(at) {
            // The same rolls so far give the same code path: the rules are
            // deterministic given their dice.
            debug_assert_eq!(
                r.sides, sides,
                "roll {at} asked for another die than before"
            );
            return r.face;
        }
        if at >= MAX_ROLLS {
            self.too_deep = true;
            self.at = self.rolls.len();
            return 1;
        }
        let before = self.rolls.last().map_or(1.0, |r| r.probability);
        self.rolls.push(Roll {
            sides,
            face: 1,
            probability: before * (1.0 / f64::from(sides.max(1))),
        });
        1
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
}
