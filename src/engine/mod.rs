//! The kernel's ruleset-independent half: encounters (compiled scenarios),
//! the fight loop, initiative schemes, targeting, and tallies.
//!
//! Kernel rules: no I/O, no `Result` (everything that can fail failed when
//! the scenario was compiled), no heap allocation per fight. State lives in
//! fixed-capacity `Copy` arrays that are reset at the start of each fight.

pub mod condition;
pub mod cover;
mod encounter;
mod fight;
pub mod initiative;
mod named;
pub mod tactic;
pub mod tally;
pub mod targeting;

pub use condition::{Condition, Conditions};
pub use cover::Cover;
pub use encounter::{Encounter, UnitSpec, MAX_UNITS};
pub use fight::{Bits, Combatant, Fight, Outcome, Turn};
pub use initiative::{Initiative, InitiativeKind, InitiativeRoll, Ties};
pub use tactic::Tactic;
pub use tally::{BatchStat, Tally, MAX_COUNTERS, MAX_ROUNDS, MAX_SIDES};
pub use targeting::Targeting;
