//! Dice: the one source of randomness for every ruleset, and dice notation.
//!
//! Rulesets never touch an RNG directly; they ask a [`Dice`] for rolls of an
//! `N`-sided die. Two implementations exist:
//! - [`RngDice`], the production source: Xoshiro256++ seeded per batch, with
//!   unbiased (rejection-sampled) integer ranges;
//! - [`ScriptedDice`], for tests: returns exactly the rolls a test names and
//!   fails loudly if the rules ask for a different die than scripted, so each
//!   rule is pinned to the dice it consumes.
//!
//! [`DiceExpr`] is parsed dice notation (`1d8+3`, `2d6-1`, `1d6+1d4+2`,
//! `4d6kh3`, `2d20kl1`), compiled to a fixed-size `Copy` value so the fight
//! loop can roll it without allocating.

use std::fmt;

use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// A source of die rolls.
///
/// Dice are also the channel a fight's observer listens on (see
/// [`crate::engine::observe`]): [`Dice::note`] takes the rules' events, and
/// only [`Watched`](crate::engine::observe::Watched) dice pass them on.
pub trait Dice {
    /// Whether these dice carry an observer that wants events. False for
    /// every source but `Watched`: code guarded by it is compiled away.
    const WATCHED: bool = false;

    /// An event of the fight these dice roll for (ignored unless watched).
    #[inline(always)]
    fn note(&mut self, _event: &crate::engine::observe::Event) {}

    /// One roll of a die with `sides` faces: a value in `1..=sides`.
    /// `sides` is at least 1.
    fn roll(&mut self, sides: u32) -> u32;

    /// A d20.
    #[inline]
    fn d20(&mut self) -> u32 {
        self.roll(20)
    }

    /// A roll of a die with `sides` faces whose value is used only if
    /// `take` (damage, used on a hit). Whether the die is rolled when
    /// `take` is false is up to the source: [`RngDice`] always rolls it, to
    /// spare the fight loop a branch; this default (and so
    /// [`ScriptedDice`]) rolls only if `take`, so a test scripts exactly the
    /// dice the rules read. When not taken the value means nothing.
    #[inline]
    fn roll_if(&mut self, take: bool, sides: u32) -> u32 {
        if take {
            self.roll(sides)
        } else {
            1
        }
    }

    /// Dice whose faces matter only through the value `roll` computes
    /// from them: a 2d6 total, the best two of 3d6, a d20 attack's hit or
    /// miss. `roll` must read nothing but its dice and the values it
    /// captured, and change nothing; the rules go on from the value it
    /// returns alone.
    ///
    /// Sampling sources just run `roll` (the same rolls as without it, at
    /// no cost). The exact engine's dice ([`crate::exact::PathDice`])
    /// enumerate `roll` apart and branch once per distinct value it
    /// returns, with the probability of the faces giving it: a 2d6 total
    /// is 11 outcomes of the turn instead of 36.
    #[inline(always)]
    fn pool<T: Copy + PartialEq>(&mut self, mut roll: impl FnMut(&mut Self) -> T) -> T
    where
        Self: Sized,
    {
        roll(self)
    }

    /// Run `body` on these dice, or on a copy of them in a local of the
    /// caller's own that replaces them afterwards (the same rolls either
    /// way). For a hot loop that calls nothing out of line with the dice:
    /// a local whose address goes nowhere else can live in registers, where
    /// the dice behind a reference are loaded and stored at every roll.
    /// Default: these dice.
    #[inline(always)]
    fn lend<T>(&mut self, body: impl FnOnce(&mut Self) -> T) -> T
    where
        Self: Sized,
    {
        body(self)
    }
}

/// Production dice: Xoshiro256++ with Lemire's unbiased range reduction.
#[derive(Clone, Debug)]
pub struct RngDice {
    rng: Xoshiro256PlusPlus,
}

impl RngDice {
    /// Dice for batch `batch` of a run with seed `seed`.
    ///
    /// The stream depends only on `(seed, batch)`: not on the cell, the thread
    /// or the order batches run in. That is what makes reports identical at
    /// any thread count, and what gives every cell of a matrix the same random
    /// numbers batch by batch (common random numbers).
    pub fn for_batch(seed: u64, batch: u64) -> Self {
        let mixed = splitmix64(seed ^ splitmix64(batch.wrapping_add(0x05EE_D0FB_A7C4)));
        RngDice {
            rng: Xoshiro256PlusPlus::seed_from_u64(mixed),
        }
    }
}

// Lemire's nearly-divisionless method: multiply a 32-bit random word (the
// output's top half, its best bits) by `sides`; the high half of the
// product is the roll, and the rare low halves that would bias it are
// rejected. Written as a 64×64→128-bit product, the word times
// `sides << 32`, so that it compiles to one `mul` whose high half is the
// roll and whose low half holds the 32-bit remainder shifted up: the same
// numbers as `((x >> 32) * sides) >> 32`, fewer instructions once `sides`
// is a constant. (Keeping the word in place and masking its low half gives
// the same product, but the mask is a 64-bit constant that held a register
// for the whole fight loop.)
#[inline(always)]
fn lemire(x: u64, sides: u32) -> u128 {
    u128::from(x >> 32) * u128::from(u64::from(sides) << 32)
}

/// The roll a product from [`lemire`] gives.
#[inline(always)]
fn face(m: u128) -> u32 {
    (m >> 64) as u32 + 1
}

/// The 32-bit remainder of a product from [`lemire`]: the word is rejected
/// if it is below the threshold.
#[inline(always)]
fn remainder(m: u128) -> u32 {
    (m as u64 >> 32) as u32
}

/// Whether a product from [`lemire`] may have to be rejected (the exact test
/// against the threshold is needed only then).
#[inline(always)]
fn suspect(m: u128, sides: u32) -> bool {
    (m as u64) < u64::from(sides) << 32
}

impl Dice for RngDice {
    // Always inlined: fast paths must call nothing (see `Ruleset::quick_turn`).
    #[inline(always)]
    fn roll(&mut self, sides: u32) -> u32 {
        let mut m = lemire(self.rng.next_u64(), sides);
        if suspect(m, sides) {
            // The threshold is computed only when needed.
            let threshold = sides.wrapping_neg() % sides;
            while remainder(m) < threshold {
                m = lemire(self.rng.next_u64(), sides);
            }
        }
        face(m)
    }

    #[inline(always)]
    fn lend<T>(&mut self, body: impl FnOnce(&mut Self) -> T) -> T {
        let mut local = self.clone();
        let out = body(&mut local);
        *self = local;
        out
    }

    // Rolled whether it is used or not: a plain attack's damage die is
    // rolled with its attack die, so that applying the damage (0 on a miss)
    // does not branch on hit or miss, a coin flip that no branch predictor
    // learns. Worth about 15% of a duel's speed.
    #[inline(always)]
    fn roll_if(&mut self, _take: bool, sides: u32) -> u32 {
        self.roll(sides)
    }
}

/// SplitMix64 finaliser: a bijective mix of a 64-bit word.
pub fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Test dice: the rolls a test names, in order, each with the die it expects.
///
/// `ScriptedDice::new(&[(20, 15), (8, 3)])` answers a d20 with 15, then a d8
/// with 3. Asking for a different die, or for more rolls than scripted,
/// panics with the position, so a test pins exactly which dice a rule rolls.
#[derive(Clone, Debug)]
pub struct ScriptedDice {
    script: Vec<(u32, u32)>,
    next: usize,
}

impl ScriptedDice {
    pub fn new(script: &[(u32, u32)]) -> Self {
        for &(sides, value) in script {
            assert!(
                (1..=sides).contains(&value),
                "scripted roll {value} is not a face of a d{sides}"
            );
        }
        ScriptedDice {
            script: script.to_vec(),
            next: 0,
        }
    }

    /// Rolls not yet consumed.
    pub fn remaining(&self) -> usize {
        self.script.len() - self.next
    }

    /// Panics unless every scripted roll was consumed.
    pub fn assert_done(&self) {
        assert_eq!(
            self.remaining(),
            0,
            "{} scripted rolls left unused: {:?}",
            self.remaining(),
            &self.script[self.next..]
        );
    }
}

impl Dice for ScriptedDice {
    fn roll(&mut self, sides: u32) -> u32 {
        let Some(&(want, value)) = self.script.get(self.next) else {
            panic!(
                "the rules asked for a d{sides} after all {} scripted rolls were used",
                self.script.len()
            );
        };
        assert_eq!(
            want, sides,
            "scripted roll #{} is a d{want}, but the rules rolled a d{sides}",
            self.next
        );
        self.next += 1;
        value
    }
}

/// Most dice groups in one expression (`1d6+1d4+2` has two).
pub const MAX_TERMS: usize = 4;
/// Most dice in a keep-highest/lowest group (`4d6kh3` has four).
pub const MAX_KEEP_POOL: u32 = 16;

/// Which dice of a group count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Keep {
    #[default]
    All,
    Highest(u8),
    Lowest(u8),
}

/// `count` dice with `sides` faces, added or subtracted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DiceTerm {
    pub count: u16,
    pub sides: u16,
    pub keep: Keep,
    pub negative: bool,
}

impl DiceTerm {
    #[inline]
    fn roll<D: Dice>(&self, dice: &mut D) -> i32 {
        let total = match self.keep {
            Keep::All => {
                let mut sum = 0;
                for _ in 0..self.count {
                    sum += dice.roll(self.sides as u32);
                }
                sum
            }
            Keep::Highest(k) | Keep::Lowest(k) => {
                let mut pool = [0u32; MAX_KEEP_POOL as usize];
                let pool = &mut pool[..self.count as usize];
                for die in pool.iter_mut() {
                    *die = dice.roll(self.sides as u32);
                }
                pool.sort_unstable();
                let k = k as usize;
                if matches!(self.keep, Keep::Highest(_)) {
                    pool[pool.len() - k..].iter().sum()
                } else {
                    pool[..k].iter().sum::<u32>()
                }
            }
        } as i32;
        if self.negative {
            -total
        } else {
            total
        }
    }

    #[inline]
    fn kept(&self) -> u32 {
        match self.keep {
            Keep::All => self.count as u32,
            Keep::Highest(k) | Keep::Lowest(k) => k as u32,
        }
    }

    #[inline]
    fn max(&self) -> i32 {
        let m = (self.kept() * self.sides as u32) as i32;
        if self.negative {
            -(self.kept() as i32)
        } else {
            m
        }
    }
}

/// Parsed dice notation: up to [`MAX_TERMS`] dice groups plus a constant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DiceExpr {
    terms: [DiceTerm; MAX_TERMS],
    n_terms: u8,
    bonus: i32,
    /// Sides of the die when the expression is one plain die plus a
    /// constant (`1d8+3`, the common weapon), else 0: such rolls take an
    /// inlined fast path in the fight loop.
    single: u16,
}

/// Why a dice string is not dice notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "bad dice notation `{text}`: {reason} (expected e.g. `1d8+3`, `2d6-1`, `1d6+1d4+2`, `4d6kh3`)"
)]
pub struct DiceError {
    pub text: String,
    pub reason: String,
}

impl DiceExpr {
    /// A constant with no dice.
    pub fn constant(bonus: i32) -> Self {
        DiceExpr {
            bonus,
            ..Default::default()
        }
    }

    /// Parse `NdM`, `NdM+K`, `NdM-K`, sums of groups and constants, and
    /// keep-highest/lowest groups (`4d6kh3`, `2d20kl1`). `dM` means `1dM`.
    pub fn parse(text: &str) -> Result<Self, DiceError> {
        let fail = |reason: &str| DiceError {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let s: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        if s.is_empty() {
            return Err(fail("it is empty"));
        }
        let mut expr = DiceExpr::default();
        let mut rest = s.as_str();
        let mut negative = false;
        if let Some(r) = rest.strip_prefix('-') {
            negative = true;
            rest = r;
        } else if let Some(r) = rest.strip_prefix('+') {
            rest = r;
        }
        loop {
            let end = rest.find(['+', '-']).unwrap_or(rest.len());
            let term = &rest[..end];
            if term.is_empty() {
                return Err(fail("a `+` or `-` has nothing after it"));
            }
            expr.push_term(term, negative).map_err(|r| fail(&r))?;
            if end == rest.len() {
                break;
            }
            negative = rest.as_bytes()[end] == b'-';
            rest = &rest[end + 1..];
            if rest.is_empty() {
                return Err(fail("it ends with a sign"));
            }
        }
        let t = expr.terms[0];
        if expr.n_terms == 1 && t.count == 1 && t.keep == Keep::All && !t.negative {
            expr.single = t.sides;
        }
        Ok(expr)
    }

    fn push_term(&mut self, term: &str, negative: bool) -> Result<(), String> {
        let lower = term.to_ascii_lowercase();
        let Some(d) = lower.find('d') else {
            let k: i32 = lower
                .parse()
                .map_err(|_| format!("`{term}` is neither a number nor NdM"))?;
            self.bonus += if negative { -k } else { k };
            return Ok(());
        };
        let count: u32 = if d == 0 {
            1
        } else {
            lower[..d]
                .parse()
                .map_err(|_| format!("`{}` is not a dice count", &term[..d]))?
        };
        let after = &lower[d + 1..];
        let (sides_text, keep) = match after.find('k') {
            None => (after, None),
            Some(k) => (&after[..k], Some(&after[k + 1..])),
        };
        if sides_text.is_empty() {
            return Err(format!("`{term}` has no number of sides after `d`"));
        }
        let sides: u32 = sides_text
            .parse()
            .map_err(|_| format!("`{sides_text}` is not a number of sides"))?;
        if count == 0 {
            return Err(format!("`{term}` rolls zero dice"));
        }
        if count > 1000 {
            return Err(format!("`{term}` rolls more than 1000 dice"));
        }
        if sides == 0 {
            return Err(format!("`{term}` has dice with zero sides"));
        }
        if sides > 10_000 {
            return Err(format!("`{term}` has dice with more than 10000 sides"));
        }
        let keep = match keep {
            None => Keep::All,
            Some(k) => {
                let (high, n) = if let Some(n) = k.strip_prefix('h') {
                    (true, n)
                } else if let Some(n) = k.strip_prefix('l') {
                    (false, n)
                } else {
                    return Err(format!("`{term}`: keep must be `khN` or `klN`"));
                };
                let n: u32 = n
                    .parse()
                    .map_err(|_| format!("`{term}`: `{n}` is not a number of dice to keep"))?;
                if n == 0 || n > count {
                    return Err(format!("`{term}` keeps {n} of {count} dice"));
                }
                if count > MAX_KEEP_POOL {
                    return Err(format!(
                        "`{term}`: keep-highest/lowest works on at most {MAX_KEEP_POOL} dice"
                    ));
                }
                if high {
                    Keep::Highest(n as u8)
                } else {
                    Keep::Lowest(n as u8)
                }
            }
        };
        if self.n_terms as usize == MAX_TERMS {
            return Err(format!("more than {MAX_TERMS} dice groups"));
        }
        self.terms[self.n_terms as usize] = DiceTerm {
            count: count as u16,
            sides: sides as u16,
            keep,
            negative,
        };
        self.n_terms += 1;
        Ok(())
    }

    /// The dice groups.
    #[inline]
    pub fn terms(&self) -> &[DiceTerm] {
        &self.terms[..self.n_terms as usize]
    }

    /// The constant part.
    #[inline]
    pub fn bonus(&self) -> i32 {
        self.bonus
    }

    /// Roll: dice plus constant.
    #[inline]
    pub fn roll<D: Dice>(&self, dice: &mut D) -> i32 {
        self.roll_dice(dice) + self.bonus
    }

    /// A roll used only if `take` (a hit, say): the roll, or 0. One plain
    /// die (the common weapon) goes through [`Dice::roll_if`], without a
    /// branch on `take` (and so the source decides whether a die is rolled
    /// when not taken); other expressions roll only if taken.
    #[inline(always)]
    pub fn roll_if<D: Dice>(&self, take: bool, dice: &mut D) -> i32 {
        if self.single != 0 {
            return plain_roll_if(self.single as u32, self.bonus, take, dice);
        }
        if take {
            self.roll(dice)
        } else {
            0
        }
    }

    /// `(sides, bonus)` when the expression is one plain die plus a
    /// constant (`1d8+3`): for loops that roll it with
    /// [`plain_roll_if`].
    #[inline]
    pub fn single_die(&self) -> Option<(u32, i32)> {
        (self.single != 0).then_some((u32::from(self.single), self.bonus))
    }

    /// Roll the dice only, without the constant (crit rules that double dice).
    #[inline(always)]
    pub fn roll_dice<D: Dice>(&self, dice: &mut D) -> i32 {
        if self.single != 0 {
            return dice.roll(self.single as u32) as i32;
        }
        // Only the total counts: the exact engine branches on it (2d6 is
        // 11 outcomes, not 36).
        dice.pool(|d| self.roll_groups(d))
    }

    /// [`DiceExpr::roll_dice`] for anything but a single plain die.
    #[inline(never)]
    fn roll_groups<D: Dice>(&self, dice: &mut D) -> i32 {
        // Fast path for the common weapon: one plain group of dice.
        if self.n_terms == 1 && self.terms[0].keep == Keep::All && !self.terms[0].negative {
            let t = &self.terms[0];
            let mut sum = 0;
            for _ in 0..t.count {
                sum += dice.roll(t.sides as u32);
            }
            return sum as i32;
        }
        let mut sum = 0;
        for t in self.terms() {
            sum += t.roll(dice);
        }
        sum
    }

    /// The most the dice alone can show (for "maximum dice" crit rules).
    #[inline]
    pub fn max_dice(&self) -> i32 {
        self.terms().iter().map(DiceTerm::max).sum()
    }

    /// Expected value of a roll (for docs and summaries).
    pub fn mean(&self) -> f64 {
        let dice: f64 = self
            .terms()
            .iter()
            .map(|t| {
                // Exact for plain groups; keep-groups are summarised by their
                // plain mean scaled to the dice kept (documented as approximate).
                let m = t.kept() as f64 * (t.sides as f64 + 1.0) / 2.0;
                if t.negative {
                    -m
                } else {
                    m
                }
            })
            .sum();
        dice + self.bonus as f64
    }
}

/// [`DiceExpr::roll_if`] of one plain die with `sides` faces plus `bonus`:
/// the roll if `take`, else 0 (a mask, not a branch).
#[inline(always)]
pub fn plain_roll_if<D: Dice>(sides: u32, bonus: i32, take: bool, dice: &mut D) -> i32 {
    let rolled = dice.roll_if(take, sides) as i32 + bonus;
    rolled & -i32::from(take)
}

impl fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, t) in self.terms().iter().enumerate() {
            if t.negative {
                f.write_str("-")?;
            } else if i > 0 {
                f.write_str("+")?;
            }
            write!(f, "{}d{}", t.count, t.sides)?;
            match t.keep {
                Keep::All => {}
                Keep::Highest(k) => write!(f, "kh{k}")?,
                Keep::Lowest(k) => write!(f, "kl{k}")?,
            }
        }
        if self.bonus != 0 || self.n_terms == 0 {
            if self.bonus >= 0 && self.n_terms > 0 {
                f.write_str("+")?;
            }
            write!(f, "{}", self.bonus)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_notation() {
        for (text, shown) in [
            ("1d8+3", "1d8+3"),
            ("2d6-1", "2d6-1"),
            ("1d6+1d4+2", "1d6+1d4+2"),
            ("d20", "1d20"),
            ("4d6kh3", "4d6kh3"),
            ("2d20KL1", "2d20kl1"),
            (" 1d8 + 3 ", "1d8+3"),
            ("5", "5"),
            ("1d4-1d4", "1d4-1d4"),
        ] {
            assert_eq!(DiceExpr::parse(text).unwrap().to_string(), shown, "{text}");
        }
    }

    #[test]
    fn rejects_bad_notation() {
        for text in [
            "1d", "d0", "2d6++1", "0d6", "", "1d6+", "x", "2d6k3", "4d6kh5", "1d6kh", "d",
        ] {
            assert!(DiceExpr::parse(text).is_err(), "{text} should be rejected");
        }
    }

    #[test]
    fn rolls_with_scripted_dice() {
        let e = DiceExpr::parse("1d8+1d4+2").unwrap();
        let mut d = ScriptedDice::new(&[(8, 5), (4, 3)]);
        assert_eq!(e.roll(&mut d), 10);
        d.assert_done();
        let kh = DiceExpr::parse("4d6kh3").unwrap();
        let mut d = ScriptedDice::new(&[(6, 1), (6, 6), (6, 2), (6, 5)]);
        assert_eq!(kh.roll(&mut d), 13);
        let kl = DiceExpr::parse("2d20kl1-1").unwrap();
        let mut d = ScriptedDice::new(&[(20, 17), (20, 4)]);
        assert_eq!(kl.roll(&mut d), 3);
        assert_eq!(DiceExpr::parse("2d6+1").unwrap().max_dice(), 12);
        assert_eq!(DiceExpr::parse("1d8+3").unwrap().mean(), 7.5);
    }

    #[test]
    #[should_panic(expected = "is a d20, but the rules rolled a d8")]
    fn scripted_dice_pin_the_die() {
        ScriptedDice::new(&[(20, 3)]).roll(8);
    }

    #[test]
    fn rng_dice_cover_every_face_uniformly() {
        // 60_000 d6: each face expects 10_000, sd = sqrt(60000*1/6*5/6) ≈ 91.3;
        // 4 sd ≈ 365.
        let mut d = RngDice::for_batch(7, 0);
        let mut counts = [0u32; 7];
        for _ in 0..60_000 {
            counts[d.roll(6) as usize] += 1;
        }
        assert_eq!(counts[0], 0);
        for &c in &counts[1..] {
            assert!((c as i64 - 10_000).abs() < 365, "{counts:?}");
        }
        let mut one = RngDice::for_batch(7, 0);
        assert!((0..100).all(|_| one.roll(1) == 1));
    }

    #[test]
    fn streams_depend_on_seed_and_batch_only() {
        let a: Vec<u32> = {
            let mut d = RngDice::for_batch(1, 2);
            (0..8).map(|_| d.roll(100)).collect()
        };
        let b: Vec<u32> = {
            let mut d = RngDice::for_batch(1, 2);
            (0..8).map(|_| d.roll(100)).collect()
        };
        let c: Vec<u32> = {
            let mut d = RngDice::for_batch(1, 3);
            (0..8).map(|_| d.roll(100)).collect()
        };
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn rng_dice_roll_if_rolls_taken_or_not() {
        let mut plain = RngDice::for_batch(3, 1);
        let mut guarded = plain.clone();
        for (i, sides) in [1, 6, 8, 20, 3 << 30]
            .into_iter()
            .cycle()
            .take(5_000)
            .enumerate()
        {
            assert_eq!(guarded.roll_if(i % 3 == 0, sides), plain.roll(sides));
        }
    }

    #[test]
    fn scripted_dice_roll_if_only_when_taken() {
        let mut dice = ScriptedDice::new(&[(8, 5)]);
        dice.roll_if(false, 8);
        assert_eq!(dice.roll_if(true, 8), 5);
        dice.assert_done();
    }

    #[test]
    fn expressions_roll_if_like_a_guarded_roll() {
        // With scripted dice: the same dice read as `if take { roll }`, and
        // 0 when not taken.
        for (text, script, want) in [
            ("1d8+3", &[(8, 5)][..], 8),
            ("1d6-2", &[(6, 1)][..], -1),
            ("2d6+1", &[(6, 2), (6, 3)][..], 6),
        ] {
            let expr = DiceExpr::parse(text).unwrap();
            let mut dice = ScriptedDice::new(script);
            assert_eq!(expr.roll_if(false, &mut dice), 0, "{text}");
            assert_eq!(expr.roll_if(true, &mut dice), want, "{text}");
            dice.assert_done();
        }
        // With production dice: the value taken is the roll.
        let expr = DiceExpr::parse("1d8+3").unwrap();
        let mut a = RngDice::for_batch(5, 0);
        let mut b = a.clone();
        for i in 0..1_000 {
            let take = i % 3 != 0;
            let rolled = expr.roll(&mut a);
            assert_eq!(expr.roll_if(take, &mut b), if take { rolled } else { 0 });
        }
    }
}
