//! Cover: how much of a unit an attacker can see. Shared by every ruleset;
//! each ruleset decides what a level does (trenches: AC vs firearms and a
//! damage cut; thrum: banes; ...).

/// Cover levels, in increasing order of protection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cover {
    #[default]
    None,
    Half,
    ThreeQuarters,
    Full,
}

impl Cover {
    /// Names as written in scenario files.
    pub const NAMES: &'static [&'static str] = &["none", "half", "three-quarters", "full"];

    pub fn parse(name: &str) -> Option<Cover> {
        Some(match name {
            "none" => Cover::None,
            "half" => Cover::Half,
            "three-quarters" => Cover::ThreeQuarters,
            "full" => Cover::Full,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}
