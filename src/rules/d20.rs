//! The d20 chassis shared by the 5e-like rulesets (trenches, osr,
//! escalation): advantage and disadvantage, and critical damage.

use crate::dice::{Dice, DiceExpr};

/// What a critical hit does to damage (each ruleset picks its default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Crit {
    /// Roll the damage dice twice, add the modifiers once (5e).
    #[default]
    DoubleDice,
    /// Double the whole damage roll, modifiers included.
    DoubleTotal,
    /// Maximum dice plus a normal roll.
    MaxPlusRoll,
    /// No extra damage.
    None,
}

impl Crit {
    /// Option values, in the order of [`Crit::ALL`].
    pub const NAMES: &'static [&'static str] =
        &["double-dice", "double-total", "max-plus-roll", "none"];
    pub const ALL: [Crit; 4] = [
        Crit::DoubleDice,
        Crit::DoubleTotal,
        Crit::MaxPlusRoll,
        Crit::None,
    ];
}

/// Critical damage: `damage` plus a flat `bonus` (an ability modifier the
/// ruleset adds outside the weapon's dice), under the crit rule `crit`.
// Always inlined: it sits on fast paths, which must call nothing.
#[inline(always)]
pub fn crit_damage<D: Dice>(crit: Crit, damage: &DiceExpr, bonus: i32, dice: &mut D) -> i32 {
    match crit {
        Crit::DoubleDice => damage.roll_dice(dice) + damage.roll(dice) + bonus,
        Crit::DoubleTotal => 2 * (damage.roll(dice) + bonus),
        Crit::MaxPlusRoll => damage.max_dice() + damage.roll(dice) + bonus,
        Crit::None => damage.roll(dice) + bonus,
    }
}

impl Crit {
    /// [`crit_damage`] of a weapon of one plain die with `sides` faces,
    /// once its die is rolled: `rolled` is that die plus the weapon's
    /// bonus. The same dice in the same order as `crit_damage` (whose first
    /// die is the one rolled), and the same total, for loops that roll the
    /// damage die before they know whether the hit is critical.
    #[inline(always)]
    pub fn on_one_die<D: Dice>(self, sides: u32, rolled: i32, dice: &mut D) -> i32 {
        match self {
            Crit::DoubleDice => rolled + dice.roll(sides) as i32,
            Crit::DoubleTotal => 2 * rolled,
            Crit::MaxPlusRoll => rolled + sides as i32,
            Crit::None => rolled,
        }
    }
}

/// Advantage state of a d20 roll after all sources are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    Normal,
    Advantage,
    Disadvantage,
}

impl Edge {
    /// 5e rule: any number of advantage sources give one extra die, likewise
    /// disadvantage; if both are present they cancel, whatever the counts.
    #[inline]
    pub fn from_sources(advantage: bool, disadvantage: bool) -> Edge {
        match (advantage, disadvantage) {
            (true, false) => Edge::Advantage,
            (false, true) => Edge::Disadvantage,
            _ => Edge::Normal,
        }
    }

    /// Roll a d20 with this edge; returns the natural result kept.
    // Always inlined so the common plain roll is a d20 the compiler can see
    // (a constant number of sides folds the range reduction to shifts);
    // the two-dice cases stay out of line.
    #[inline(always)]
    pub fn roll<D: Dice>(self, dice: &mut D) -> u32 {
        match self {
            Edge::Normal => dice.d20(),
            _ => self.roll_two(dice),
        }
    }

    /// Advantage or disadvantage: two d20, keep the higher or the lower.
    #[inline(never)]
    fn roll_two<D: Dice>(self, dice: &mut D) -> u32 {
        let (a, b) = (dice.d20(), dice.d20());
        if self == Edge::Advantage {
            a.max(b)
        } else {
            a.min(b)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;

    #[test]
    fn sources_cancel_regardless_of_count() {
        assert_eq!(Edge::from_sources(true, true), Edge::Normal);
        assert_eq!(Edge::from_sources(true, false), Edge::Advantage);
        assert_eq!(Edge::from_sources(false, true), Edge::Disadvantage);
        assert_eq!(Edge::from_sources(false, false), Edge::Normal);
    }

    #[test]
    fn keeps_the_right_die() {
        let mut d = ScriptedDice::new(&[(20, 4), (20, 17), (20, 4), (20, 17), (20, 9)]);
        assert_eq!(Edge::Advantage.roll(&mut d), 17);
        assert_eq!(Edge::Disadvantage.roll(&mut d), 4);
        assert_eq!(Edge::Normal.roll(&mut d), 9);
        d.assert_done();
    }

    /// `Crit::on_one_die` after the weapon's die is `crit_damage`: the same
    /// dice, in the same order, and the same total, for every crit rule and
    /// damage above and below 0.
    #[test]
    fn crit_on_one_rolled_die_is_crit_damage() {
        for crit in Crit::ALL {
            for text in ["1d8+3", "1d6-4", "1d12"] {
                let expr = DiceExpr::parse(text).unwrap();
                let (sides, bonus) = expr.single_die().unwrap();
                for (a, b) in [(1, 1), (3, 5), (sides, sides)] {
                    let script = [(sides, a), (sides, b)];
                    let mut whole = ScriptedDice::new(&script);
                    let want = crit_damage(crit, &expr, 0, &mut whole);
                    let mut after = ScriptedDice::new(&script);
                    let rolled = after.roll(sides) as i32 + bonus;
                    let got = crit.on_one_die(sides, rolled, &mut after);
                    assert_eq!(got, want, "{crit:?} {text} {a} {b}");
                    assert_eq!(after.remaining(), whole.remaining(), "{crit:?} {text}");
                }
            }
        }
    }
}
