//! Game systems. Each ruleset is one file implementing [`Ruleset`]; the
//! engine is generic over it and monomorphised per ruleset, so there is no
//! dynamic dispatch in the fight loop.
//!
//! A ruleset declares its stat-block fields, weapon fields, options and
//! counters as data ([`Field`], [`CounterInfo`]); the scenario layer validates
//! scenario files against those declarations and `skirmish rules NAME` prints
//! them, so the documentation a designer reads is the schema that is enforced.
//!
//! Layers depend one way: the scenario layer calls down into the rules, never
//! the reverse. The declaration types, the [`FieldReader`] a ruleset reads
//! its tables through and the [`FieldError`] it reports problems with live in
//! [`field`], here; the scenario layer implements the reader and turns each
//! `FieldError` into its located error (file:line:col, key path).
//!
//! Division of labour: the engine owns the fight loop (rounds, turn order,
//! end of fight, round cap, tallying), positions and targeting policies; the
//! ruleset owns what happens in a unit's turn and how harm is applied, and
//! interprets the shared axes (cover, conditions) in its own terms.

use std::fmt::Debug;

pub use conformance::{Clause, Modelled};

use crate::dice::Dice;
use crate::engine::{
    Combatant, Condition, Encounter, Fight, InitiativeKind, InitiativeRoll, Outcome, Tactic, Tally,
    Turn, UnitSpec,
};
use crate::results::CounterInfo;

pub mod common;
pub mod conformance;
pub mod d20;
pub mod dicestep;
pub mod escalation;
pub mod field;
pub mod osr;
pub mod step;
pub mod thrum;
pub mod trenches;

pub use dicestep::Dicestep;
pub use escalation::Escalation;
pub use field::{Field, FieldError, FieldReader, Kind, Lit};
pub use osr::Osr;
pub use step::{Contrary, FieldTable, StatStep, Step};
pub use thrum::Thrum;
pub use trenches::Trenches;

/// Most weapons on one stat block.
pub const MAX_WEAPONS: usize = 4;

/// What a turn played in steps keeps between them, packed by its ruleset
/// ([`Ruleset::begin_turn`]).
pub type TurnStep = u128;

/// A game system.
pub trait Ruleset: Copy + Default + Debug + Send + Sync + 'static {
    /// Name used in scenario files (`rules = "..."`).
    const NAME: &'static str;
    /// Title and source, for `skirmish rules` and reports.
    const TITLE: &'static str;
    /// A paragraph on what the ruleset models and how.
    const ABOUT: &'static str;
    /// Native distance unit of positions, speeds and ranges.
    const DISTANCE_UNIT: &'static str;
    /// How a step costs on a map, for a ruleset that plays on one; `None`:
    /// it cannot play on a map yet, and a scenario with a `map` is refused.
    const MAP_COSTS: Option<crate::map::Costs> = None;
    /// Default size of a map square in [`Ruleset::DISTANCE_UNIT`]s (a
    /// scenario's `[map] scale` overrides it).
    const MAP_SCALE: i32 = 1;
    /// Options that say something the map says instead, with why: refused
    /// on a map when written (a setting skirmish would ignore).
    const MAP_IGNORES: &'static [(&'static str, &'static str)] = &[];
    /// Options that only mean something on a map, with why: refused
    /// without one when written (a setting skirmish would ignore).
    const MAP_ONLY: &'static [(&'static str, &'static str)] = &[];
    /// Weapon fields that mean something only on a map (thrum's areas of
    /// effect), with why: refused when written in a scenario without a
    /// `[map]` (a setting the front would ignore).
    const MAP_WEAPON_FIELDS: &'static [(&'static str, &'static str)] = &[];
    /// The ruleset's own initiative scheme.
    const DEFAULT_INITIATIVE: InitiativeKind;
    /// What the `fixed` initiative scheme orders by.
    const INITIATIVE_STAT: &'static str;
    /// Stat-block fields (`[units.NAME]`).
    const UNIT_FIELDS: &'static [Field];
    /// Weapon fields (`[weapons.NAME]`).
    const WEAPON_FIELDS: &'static [Field];
    /// Rule options (`[options]`), defaults = the rules as written.
    const OPTIONS: &'static [Field];
    /// Counters tallied per fight, reported as means per fight.
    const COUNTERS: &'static [CounterInfo];
    /// Every rule of the source text: how skirmish models it, which tests
    /// pin it (kept in `NAME_conformance.rs`, printed by `skirmish rules`).
    const CONFORMANCE: &'static [Clause];
    /// The shared-axis settings (cover, conditions) this ruleset does not
    /// model, each with the reason. A scenario that sets one is refused at
    /// load time (it would change nothing), and `skirmish rules NAME` lists
    /// them. Read off the ruleset's code: a condition it never tests, cover
    /// it never looks at. Default: none (every real ruleset declares its
    /// own, even when empty; the default serves test rulesets).
    const UNMODELLED: &'static [Unmodelled] = &[];
    /// How `skirmish sensitivity` steps the numeric stat-block and weapon
    /// fields that do not take their kind's default step (±1, one die size;
    /// see [`step`]): larger units, die sizes kept as integers, values that
    /// mean something else, and fields that are not combat stats. Default:
    /// every numeric field steps by its kind's default.
    const STEPS: &'static [StatStep] = &[];
    /// The stat-block fields that are a player's choices, not stats (which
    /// weapons to carry, where to aim, how to defend): a scenario's
    /// `[plays.SIDE]` table may vary them for `skirmish tactics`, which asks
    /// which choices dominate. Every name is one of [`Ruleset::UNIT_FIELDS`].
    const POLICIES: &'static [&'static str] = &["weapons"];
    /// The stat-block fields a designer counts a unit's worth in (hit
    /// points, or the ruleset's own health), most preferred first:
    /// `skirmish sensitivity` states equivalent points in steps of the first
    /// of them whose effect on its side's win rate is positive and well
    /// measured. Default: `hp`.
    const HEALTH_STATS: &'static [&'static str] = &["hp"];
    /// The stats whose step up can lower their own side's win rate, each
    /// with the rules' reason (see [`step`]). Default: none.
    const CONTRARY_STATS: &'static [Contrary] = &[];

    /// The counters (indices into [`Ruleset::COUNTERS`]) the rules read
    /// as well as count (a rule on "the first death" that read the deaths
    /// so far; osr keeps a flag in the units' states instead, which states
    /// past it share): the exact engine keeps their values with each fight
    /// state, where it keeps only the expected value of the others. At
    /// most [`crate::engine::MAX_KEPT`]. Default: none.
    const COUNTERS_READ: &'static [usize] = &[];

    /// The class of round `round` for the exact engine: two rounds of one
    /// class play alike from equal fight states, so what the engine worked
    /// out for a state in one is reused in the other. Rules that read the
    /// round number ([`Fight::round`]) only through stamps that
    /// [`Ruleset::forget_round`] makes relative, or not at all, put every
    /// round in one class (`0`); a rule for the first round only puts it
    /// in a class of its own. tests/exact.rs checks the classes against
    /// the simulator. Default: every round its own class (nothing reused).
    #[inline]
    fn round_class(round: u32) -> u32 {
        round
    }

    /// For the exact engine: the round numbers `state` holds (stamps of
    /// the round something happened in, the round a clock started),
    /// rewritten relative to `round`, the round it is saved in, so that
    /// states that differ only in when things happened compare equal.
    /// [`Ruleset::recall_round`] undoes it for a later round of the same
    /// class: the rules must then play alike. Default: nothing to rewrite.
    #[inline]
    fn forget_round(_state: &mut Self::State, _round: u32) {}

    /// The inverse of [`Ruleset::forget_round`]: a state saved relative to
    /// a round, made absolute for round `round`.
    #[inline]
    fn recall_round(_state: &mut Self::State, _round: u32) {}

    /// For the exact engine: `unit` will never take a turn again nor come
    /// back into the fight (dead, not dying), so where it stands in the
    /// turn order no longer matters. The engine then moves it to the end of
    /// the order, and fights that differ only in where it stood there merge.
    /// Only say so when no rule can bring it back or give it a turn.
    /// Default: never (nothing moved).
    #[inline]
    fn gone_for_good(_unit: &crate::engine::Combatant<Self::State>) -> bool {
        false
    }

    type Weapon: Copy + Default + Debug + Send + Sync;
    /// A compiled stat block.
    type Unit: Copy + Default + Debug + Send + Sync;
    /// Per-unit state during a fight (hit points, reactions used, ...).
    /// Compared and hashed by the exact engine ([`crate::exact`]), which
    /// merges equal fight states: keep in it only what the rest of the
    /// fight can depend on.
    type State: Copy + Default + Debug + Send + Sync + PartialEq + Eq + std::hash::Hash;
    type Options: Copy + Default + Debug + Send + Sync;

    /// Read the `[options]` table (engine options included, which the
    /// ruleset ignores). Problems are reported as [`FieldError`]s, which the
    /// scenario layer locates in the file.
    fn compile_options(f: &impl FieldReader) -> Result<Self::Options, FieldError>;
    /// Read one `[weapons.NAME]` table.
    fn compile_weapon(f: &impl FieldReader) -> Result<Self::Weapon, FieldError>;
    /// Give a compiled weapon its number among the scenario's `[weapons]`
    /// tables (file order): a watched fight names the weapon of an attack
    /// by it ([`crate::engine::observe::Event::Attack`]).
    fn number_weapon(weapon: &mut Self::Weapon, number: u16);
    /// Read one `[units.NAME]` table; `weapons` are the unit's `weapons`
    /// list, resolved, in list order.
    fn compile_unit(
        f: &impl FieldReader,
        weapons: &[Self::Weapon],
    ) -> Result<Self::Unit, FieldError>;
    /// A few words on a stat block for summaries, e.g. `30 HP, AC 16/16`.
    fn describe_unit(unit: &Self::Unit) -> String;
    /// The tactic a unit group gets with `tactic = "auto"`: by its weapons.
    fn default_tactic(unit: &Self::Unit) -> Tactic;

    /// Roll one unit's initiative (used by `rolled`, `rerolled`,
    /// `alternating` and `side`).
    fn roll_initiative<D: Dice>(unit: &Self::Unit, dice: &mut D) -> InitiativeRoll;
    /// The stat the `fixed` scheme orders by, highest first.
    fn initiative_stat(unit: &Self::Unit) -> i32;

    /// Whether unit `unit`, which takes turns, can act if given a turn now
    /// (not stunned, not surprised, not down). Team-alternating activation
    /// gives a team's activation only to a member who can act, so one who
    /// cannot never costs its team a turn; its turn still comes at the end
    /// of the round, for what a turn does besides acting (a death clock, a
    /// condition that wears off). Default: units in the fight can act.
    #[inline]
    fn can_act(fight: &Fight<Self>, _enc: &Encounter<Self>, unit: usize) -> bool {
        !fight.units[unit].out
    }

    /// The side whose team activates first each round under team-alternating
    /// activation when the rules say (the side that began the fight, say by
    /// surprise); `None` when they leave it to the scenario, whose
    /// `opening` then decides (by default the first listed side). A
    /// scenario's `opening` is refused where the rules say. Default: `None`.
    #[inline]
    fn opening_side(_options: &Self::Options) -> Option<usize> {
        None
    }

    /// The farthest distance (in [`Ruleset::DISTANCE_UNIT`]) at which a unit
    /// with stat block `unit` can attack with `weapon` (as read from its
    /// `[weapons.NAME]` table), when one number says it: the scenario loader
    /// warns of weapons no unit can ever come close enough to use
    /// (`scenario::unused`). `None` keeps the weapon out of that check.
    /// Default: `None`.
    fn weapon_reach(_unit: &Self::Unit, _weapon: &Self::Weapon) -> Option<i32> {
        None
    }

    /// Why `cover` on a unit with this stat block would change nothing, if
    /// it would (a ruleset whose cover acts only through an action the stat
    /// block does not take, say). The scenario loader refuses such a unit
    /// group, as it refuses what [`Ruleset::UNMODELLED`] lists. Default:
    /// cover always acts.
    fn cover_unused(_unit: &Self::Unit) -> Option<&'static str> {
        None
    }

    /// Set up a unit at the start of a fight. The engine has already reset the
    /// shared fields (side, position, cover, the scenario's conditions); the
    /// ruleset sets `state` and may take the unit out (e.g. exhaustion 6).
    fn enter(unit: &mut Combatant<Self::State>, spec: &UnitSpec<Self>, options: &Self::Options);

    /// Derive what a unit's turns need from where the scenario put it
    /// (tactic, targeting, cover) and the options: called once per cell for
    /// every unit, when the scenario is compiled, so that fast paths read a
    /// value instead of working it out every turn. Every real ruleset plays
    /// `tactic = "smart"` (a documented heuristic built on what its rules
    /// offer, a strong baseline opponent: see [`crate::engine::tactic`]):
    /// here it sets [`UnitSpec::drops`] (what the unit's turn most likely
    /// deals, for smart targeting) and what smart adds, documented in its
    /// module doc and conformance table. Default: nothing.
    fn prepare_unit(_spec: &mut UnitSpec<Self>, _options: &Self::Options) {}

    /// Settle a unit placed on a map (after [`Ruleset::prepare_unit`]): a
    /// ruleset turns off here what only holds on the front (a fast path
    /// that measures the front's distances, say).
    fn place_on_map(_spec: &mut UnitSpec<Self>) {}

    /// Play one unit's turn. Called for units in the fight, and for units
    /// out of it that the ruleset marked `lingering` (e.g. dying units that
    /// roll death saves).
    fn take_turn<D: Dice>(turn: &mut Turn<'_, Self, D>);

    /// For the exact engine, a turn in steps: play the turn up to its
    /// first step and return what its code keeps between steps (an action
    /// budget, packed), or `None` if the turn is over. The exact engine
    /// then merges equal fight states between a turn's actions too, not
    /// only between turns: a turn of three attacks costs the outcomes of
    /// one attack three times over, not their product. `begin_turn`, then
    /// [`Ruleset::step_turn`] until it returns `None`, must do what
    /// [`Ruleset::take_turn`] does, with the same dice. Default: the whole
    /// turn at once.
    fn begin_turn<D: Dice>(turn: &mut Turn<'_, Self, D>) -> Option<TurnStep> {
        Self::take_turn(turn);
        None
    }

    /// The next step of a turn [`Ruleset::begin_turn`] began, from what it
    /// kept (`step`): what it keeps for the one after, or `None` once the
    /// turn is over.
    fn step_turn<D: Dice>(_turn: &mut Turn<'_, Self, D>, _step: TurnStep) -> Option<TurnStep> {
        unreachable!("{} takes its turns whole", Self::NAME)
    }

    /// Optional fast path for the commonest turn, tried before
    /// [`Ruleset::take_turn`]. The engine inlines it into its loop (no call,
    /// no prologue, no dispatch), so a ruleset puts here only the cheap,
    /// frequent case (e.g. a plain attack on a target in reach). It answers:
    /// - [`Quick::Declined`]: not for the fast path, *decided before changing
    ///   anything or rolling any die*; the engine calls `take_turn` instead;
    /// - [`Quick::Done`]: the turn is played;
    /// - [`Quick::Resume`]: the turn is begun and the engine finishes it with
    ///   [`Ruleset::resume_turn`], out of line.
    ///
    /// The fast path itself must call nothing out of line: a call anywhere
    /// in it, even on a branch that is never taken, costs the whole loop
    /// registers. Whatever needs a call is a `Resume`.
    ///
    /// It must give exactly what `take_turn` would: same dice in the same
    /// order, same state. Default: no fast path.
    #[inline(always)]
    fn quick_turn<D: Dice>(_turn: &mut Turn<'_, Self, D>) -> Quick {
        Quick::Declined
    }

    /// A whole batch of fights in one loop, for the encounters where the
    /// ruleset can tell before the first roll that every turn of every
    /// fight would be its fast path's plain attack (for `trenches`: two
    /// units trading blows from where they stand). The fights' hot state
    /// (health, counters, the dice) then stays in registers instead of
    /// going through the [`Fight`] at every turn, and what every fight
    /// starts from is read once. `fight` has been reset to the start;
    /// `fights` fights are fought and added to `tally` as
    /// [`Fight::record`] adds them ([`Ruleset::finish`] included), and
    /// `fight` is left in no particular state. Returns false, having rolled
    /// nothing, to fight turn by turn.
    ///
    /// It must give exactly what the turns would: same dice in the same
    /// order, same tallies (tests/quick_turns.rs compares every example
    /// scenario and every kind of duel). Called only where fast paths are
    /// (never for a watched fight). Default: false.
    #[inline(always)]
    fn quick_batch<D: Dice>(
        _fight: &mut Fight<Self>,
        _enc: &Encounter<Self>,
        _dice: &mut D,
        _fights: u32,
        _tally: &mut Tally,
    ) -> bool {
        false
    }

    /// Finish a turn that [`Ruleset::quick_turn`] began and handed back with
    /// `Quick::Resume(at)`; `at` is the ruleset's own (a target, say).
    /// Default: nothing (for rulesets that never resume).
    fn resume_turn<D: Dice>(_turn: &mut Turn<'_, Self, D>, _at: usize) {}

    /// Called once when a fight has ended, before it is tallied: settle what
    /// the end of a fight decides (units still dying die, say). Default:
    /// nothing.
    #[inline]
    fn finish(_fight: &mut Fight<Self>, _enc: &Encounter<Self>, _outcome: Outcome) {}

    /// Remaining and full health, for the weakest/strongest targeting policies.
    fn vitality(unit: &Combatant<Self::State>, spec: &UnitSpec<Self>) -> (u32, u32);
}

/// A shared-axis setting a ruleset does not model (see
/// [`Ruleset::UNMODELLED`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unmodelled {
    pub setting: Shared,
    /// Why: what the source text says (or does not).
    pub why: &'static str,
}

/// A shared-axis setting of a unit group (`[sides.SIDE] UNIT = { ... }`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shared {
    /// `cover`, any value but `none`.
    Cover,
    /// One of the `conditions`.
    Condition(Condition),
}

impl Unmodelled {
    pub const fn cover(why: &'static str) -> Unmodelled {
        Unmodelled {
            setting: Shared::Cover,
            why,
        }
    }

    pub const fn condition(condition: Condition, why: &'static str) -> Unmodelled {
        Unmodelled {
            setting: Shared::Condition(condition),
            why,
        }
    }

    /// How a designer would write it: `cover` or `conditions = ["prone"]`.
    pub fn setting_text(&self) -> String {
        match self.setting {
            Shared::Cover => "cover (any but \"none\")".to_string(),
            Shared::Condition(c) => format!("conditions = [\"{}\"]", c.name()),
        }
    }
}

/// The reason `R` does not model `setting`, if it does not.
pub fn unmodelled<R: Ruleset>(setting: Shared) -> Option<&'static str> {
    R::UNMODELLED
        .iter()
        .find(|u| u.setting == setting)
        .map(|u| u.why)
}

/// What [`Ruleset::quick_turn`] did with a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quick {
    /// Nothing: the turn is for [`Ruleset::take_turn`].
    Declined,
    /// The whole turn.
    Done,
    /// The start of it: [`Ruleset::resume_turn`] finishes it.
    Resume(usize),
}

/// Every ruleset's name, for error messages and `skirmish rules`.
/// The rulesets that play on a map so far (issue 29): the others refuse a
/// scenario with a `[map]` until their part lands.
pub const MAP_RULESETS: &[&str] = &["trenches", "dicestep", "escalation", "thrum"];

pub const NAMES: &[&str] = &[
    Trenches::NAME,
    Osr::NAME,
    Dicestep::NAME,
    Escalation::NAME,
    Thrum::NAME,
];

/// Call `$body` with the type alias `$R` bound to the ruleset named `$name`,
/// or evaluate `$unknown` if there is none. The one place that maps names to
/// types, so adding a ruleset is one line here.
#[macro_export]
macro_rules! with_ruleset {
    ($name:expr, $R:ident => $body:expr, _ => $unknown:expr) => {
        match $name {
            "trenches" => {
                type $R = $crate::rules::Trenches;
                $body
            }
            "osr" => {
                type $R = $crate::rules::Osr;
                $body
            }
            "dicestep" => {
                type $R = $crate::rules::Dicestep;
                $body
            }
            "escalation" => {
                type $R = $crate::rules::Escalation;
                $body
            }
            "thrum" => {
                type $R = $crate::rules::Thrum;
                $body
            }
            _ => $unknown,
        }
    };
}
