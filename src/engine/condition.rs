//! Conditions: a bit set per unit. Set in the scenario per unit group (so
//! they can be a matrix axis) and gained or lost during a fight by the rules.
//! The engine only stores them; each ruleset defines what each one does and
//! documents the ones it ignores.

use super::named::named_enum;

named_enum! {
    /// One condition. The discriminant is its bit in [`Conditions`].
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    #[repr(u8)]
    pub enum Condition {
        Blinded = "blinded",
        Deafened = "deafened",
        Frightened = "frightened",
        Grappled = "grappled",
        Incapacitated = "incapacitated",
        Paralyzed = "paralyzed",
        Prone = "prone",
        Restrained = "restrained",
        Stunned = "stunned",
        Unconscious = "unconscious",
    }
}

/// A set of conditions, one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Conditions(u16);

impl Conditions {
    pub const NONE: Conditions = Conditions(0);

    #[inline]
    pub fn has(self, c: Condition) -> bool {
        self.0 & (1 << c as u8) != 0
    }

    /// The set of `cs`; usable in constants, so rule code can test a whole
    /// group of conditions with one mask.
    pub const fn of(cs: &[Condition]) -> Conditions {
        let mut bits = 0u16;
        let mut i = 0;
        while i < cs.len() {
            bits |= 1 << cs[i] as u8;
            i += 1;
        }
        Conditions(bits)
    }

    /// True if any condition of `set` is present.
    #[inline]
    pub fn any(self, set: Conditions) -> bool {
        self.0 & set.0 != 0
    }

    #[inline]
    pub fn set(&mut self, c: Condition) {
        self.0 |= 1 << c as u8;
    }

    #[inline]
    pub fn clear(&mut self, c: Condition) {
        self.0 &= !(1 << c as u8);
    }

    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn iter(self) -> impl Iterator<Item = Condition> {
        Condition::ALL.iter().copied().filter(move |&c| self.has(c))
    }
}

impl FromIterator<Condition> for Conditions {
    fn from_iter<I: IntoIterator<Item = Condition>>(iter: I) -> Self {
        let mut set = Conditions::NONE;
        for c in iter {
            set.set(c);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_clear_and_names_round_trip() {
        let mut s: Conditions = [Condition::Prone, Condition::Blinded].into_iter().collect();
        assert!(s.has(Condition::Prone) && s.has(Condition::Blinded));
        assert!(!s.has(Condition::Stunned));
        s.clear(Condition::Prone);
        assert!(!s.has(Condition::Prone));
        for &c in Condition::ALL {
            assert_eq!(Condition::parse(c.name()), Some(c));
        }
    }
}
