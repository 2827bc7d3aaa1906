//! Cover: how much of a unit an attacker can see. Shared by every ruleset;
//! each ruleset decides what a level does (trenches: AC vs firearms and a
//! damage cut; thrum: banes; ...).

use super::named::named_enum;

named_enum! {
    /// Cover levels, in increasing order of protection.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub enum Cover {
        #[default]
        None = "none",
        Half = "half",
        ThreeQuarters = "three-quarters",
        Full = "full",
    }
}
