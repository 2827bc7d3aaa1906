//! The kernel's ruleset-independent half: encounters (compiled scenarios),
//! the fight loop, initiative schemes, targeting, and tallies.
//!
//! Kernel rules: no I/O, no `Result` (everything that can fail failed when
//! the scenario was compiled), no heap allocation per fight. State lives in
//! fixed-capacity `Copy` arrays that are reset at the start of each fight.
//!
//! Layering: the engine and the rules sit below the scenario layer and never
//! import it; the engine's own declared keys ([`ENGINE_OPTIONS`],
//! [`SIDE_ENTRY_FIELDS`]) live here and the scenario layer re-exports them.

pub mod condition;
pub mod cover;
mod encounter;
mod fields;
mod fight;
pub mod ground;
pub mod initiative;
mod named;
pub mod observe;
pub mod tactic;
pub mod tally;
pub mod targeting;

pub use condition::{Condition, Conditions};
pub use cover::Cover;
pub use encounter::{Encounter, UnitSpec, MAX_UNITS};
pub use fields::{ENGINE_OPTIONS, SIDE_ENTRY_FIELDS};
pub use fight::{Between, Bits, Combatant, Fight, Outcome, RoundCursor, Turn, MAX_KEPT};
pub use ground::Ground;
pub use initiative::{Initiative, InitiativeKind, InitiativeRoll, Opening, Ties};
pub use tactic::Tactic;
pub use tally::{BatchStat, Tally, MAX_COUNTERS, MAX_ROUNDS, MAX_SIDES};
pub use targeting::Targeting;
