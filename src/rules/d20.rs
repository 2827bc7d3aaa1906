//! The d20 chassis shared by the 5e-like rulesets (trenches, osr,
//! escalation): advantage and disadvantage.

use crate::dice::Dice;

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
    #[inline]
    pub fn roll<D: Dice>(self, dice: &mut D) -> u32 {
        match self {
            Edge::Normal => dice.d20(),
            Edge::Advantage => dice.d20().max(dice.d20()),
            Edge::Disadvantage => dice.d20().min(dice.d20()),
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
}
