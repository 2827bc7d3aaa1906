//! `thrum`: the Thrum wiki's "Combat Flow" page, an opposed-2d6 system with
//! boons and banes and no hit points: harm is Fatigue and Stress Load
//! against Fatigue and Stress Tolerance. Every rule of the text, how it is
//! modelled and the tests that pin it: `conformance.rs`.
//!
//! As written: initiative 2d6 + Initiative modifier once per fight,
//! descending (a unit's `delay` keeps it later for the whole fight); Round
//! Zero: every unit enters its stance. A turn: start of turn (a Frayed unit,
//! Stress Load > Stress Tolerance, makes a Panic Roll: 2d6 + Resolve must
//! exceed the Stress Load, else Stunned, Stress Load added to Fatigue Load
//! and reset, Stress Tolerance −1), Move up to Speed (squares), one Action (an
//! attack ability, or Resuscitate), a Stance, end of turn (statuses tick
//! down). An attack is 2d6 + Art modifier against the defender's 2d6 +
//! Resilience (physical) / Resolve (mental) or Evasion, chosen before the
//! roll by the unit's `defence` policy. Resilience/Resolve: success avoids,
//! failure takes the effect. Evasion: +1 Boon unless Vulnerable; a critical
//! avoids; a success avoids but +1 Vulnerable; a failure takes the effect and
//! +1 Vulnerable. A hit adds its `load` to the Load the ability names
//! (`deals`; by default Fatigue if physical, Stress if mental). Exhausted
//! (Fatigue Load > Fatigue Tolerance): +1 Bane on offensive rolls and an
//! Incapacity Roll after each Action (2d6 + Resilience must exceed the
//! Fatigue Load, else Incapacitated). Frayed: +1 Bane on defensive rolls.
//! Ranged abilities: +1 Bane per enemy adjacent to the attacker
//! (incapacitated ones too). Cover is against physical attacks from beyond
//! its source, which stands next to the target: +1 Bane from attackers more
//! than a square away, none from adjacent ones; full cover (Obstructed):
//! attackers beyond cannot target the unit. Finisher abilities make an
//! Exhausted target roll for Incapacity at once.
//!
//! Incapacitated units are out of the fight (the engine's `take_out`) but
//! keep their turns (`lingering`) and can still be attacked: on becoming
//! Incapacitated and at the end of each of their turns, Fatigue Tolerance −1
//! and Fatigue Load −1 (both floored at 0); Fatigue Load 0 ends the
//! incapacity (self-revival); ending a turn Incapacitated at Fatigue
//! Tolerance 0 gives a Wound; three Wounds remove the unit. An ally's
//! Resuscitate also ends it. A side with every unit Incapacitated or removed
//! loses (the engine's rule). Under team-alternating activation, a unit that
//! cannot act never takes its team's activation ([`Ruleset::can_act`]).
//!
//! Boons and banes (undefined in the text; the system's own draft): they
//! cancel one for one; each net boon (bane) adds a d6 and drops the lowest
//! (highest); ties go to the defender; a critical is winning by 5 or more.
//! Each is an option. Harm booked per side (`damage` in reports) is Load
//! points inflicted by hits, 1 per point.
//!
//! Smart (`tactic = "smart"`, issue 30; a policy, not a rule): a unit with
//! a Ranged ability keeps its range (thrum has no attacks of opportunity:
//! stepping out of melee is free, and Ranged takes a Bane per adjacent
//! enemy), a melee-only one advances; it targets `smart`, reading what its
//! turn deals as [`smart_drops`] settles it (its best ability's Load a
//! hit, per Action); and it defends with Evasion while not Vulnerable, else
//! Resilience or Resolve (`evasion-unless-vulnerable`: Evasion's Boon
//! while it lasts, without the stacking Vulnerable of always evading; the
//! strongest of the three in `thrum_skirmish`, whose wardens win 0.542
//! with it against 0.220 with `evasion` and 0.144 with `resilience`; a `defence`
//! written on a smart unit gives way to it). Resuscitate stays the stat
//! block's `resuscitate` (on by default). Not done: seeking cover (on the
//! front a unit's cover is the scenario's; on a map keep-range backs off
//! as the engine moves it) and withdrawing near incapacity (the text has
//! no rule for leaving a fight).
//!
//! Every number the text states for a rule of a fight is an option whose
//! default is the text's (issue 27): the banes of Ranged, Cover, Frayed and
//! Exhausted, Evasion's Boon and Vulnerable stacks, the Panic and Incapacity
//! Rolls' ties, the Tolerance and Load lost to panic and incapacity, the
//! Wound threshold and the Wounds that remove, Actions per turn, starting
//! Loads. They are read from the compiled [`Options`], never looked up in the
//! fight loop. The 2d6 and "adjacent" (1 square) stay constants: the
//! conformance table says why.

use super::{Contrary, StatStep, Step};
use crate::dice::Dice;
use crate::engine::observe::{Event, Track, NO_TARGET};
use crate::engine::{
    Bits, Combatant, Condition, Conditions, Cover, Encounter, Fight, Ground, InitiativeKind,
    InitiativeRoll, Tactic, Turn, UnitSpec,
};
use crate::map::ThrumCover;
use crate::results::CounterInfo;
use crate::rules::common::{kit, Kit, KitWeapon, Plan};
use crate::rules::field::{Field, FieldError, FieldReader, Kind, Lit};
use crate::rules::{Clause, Ruleset};

/// The ruleset marker type.
#[derive(Clone, Copy, Debug, Default)]
pub struct Thrum;

/// Adjacent: within one square (8-adjacency on the grid, one step on the
/// front).
pub const ADJACENT: i32 = 1;
/// Wounds that remove a unit from combat.
pub const WOUNDS_REMOVED: u8 = 3;

/// Physical abilities deal Fatigue and are defended with Resilience or
/// Evasion; mental ones deal Stress and are defended with Resolve or Evasion.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AbilityKind {
    #[default]
    Physical,
    Mental,
}

/// The Load a hit fills. The text: "attacks will usually specify that they
/// deal Fatigue or Stress": the ability says, not its Physical or Mental
/// type (which only decides the defence and whether cover applies).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Harm {
    #[default]
    Fatigue,
    Stress,
}

/// An attack ability (a Basic Attack or an ability from a Combat Art), as a
/// `[weapons.NAME]` table.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ability {
    /// Its number among the scenario's `[weapons]` tables, in file order:
    /// what a replay names it by.
    pub number: u16,
    pub kind: AbilityKind,
    /// Which Load a hit adds to (the weapon's `deals`; by default Fatigue
    /// for physical abilities, Stress for mental ones).
    pub harm: Harm,
    /// Added to the unit's Art modifier on the offensive roll.
    pub bonus: i32,
    /// Range in squares (1 = adjacent).
    pub range: i32,
    /// The Ranged tag: +1 Bane per enemy adjacent to the attacker.
    pub ranged: bool,
    /// The Finisher tag: an Exhausted target rolls for Incapacity at once.
    pub finisher: bool,
    /// Load a hit adds (to the Load `harm` names).
    pub load: i32,
    /// Extra Load a hit adds when the attacker overexerts (0: no Overexert).
    pub overexert: i32,
    /// Its area of effect ("Areas": Area X, Line X, Aura X), on a map only:
    /// every character in the shape is attacked.
    pub area: AreaKind,
    /// The X of Area X, Line X or Aura X.
    pub size: u8,
}

/// An ability's area of effect ("Areas"; a weapon's `area` and `size`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AreaKind {
    /// A single target.
    #[default]
    None,
    /// "An Area X consists of a square on the grid which is X unit squares
    /// on a side", placed with a square within the ability's range.
    Area,
    /// "A Line X consists of X consecutive squares sharing a row, column, or
    /// diagonal", placed with a square within the ability's range.
    Line,
    /// "All squares at a distance X or less from the ability user other than
    /// the ability user's space itself".
    Aura,
}

impl KitWeapon for Ability {
    fn mean_damage(&self) -> f64 {
        self.load as f64
    }
    fn range(&self) -> i32 {
        self.range
    }
    fn is_melee(&self) -> bool {
        !self.ranged
    }
}

/// The defensive roll a unit chooses before the attack is rolled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Defence {
    /// Resilience against physical attacks, Resolve against mental ones (the
    /// "hedge").
    #[default]
    Resilience,
    /// Evasion always (the "gamble").
    Evasion,
    /// Evasion while not Vulnerable (so it has its Boon), else Resilience or
    /// Resolve.
    EvasionUnlessVulnerable,
}

/// When a unit overexerts an ability that has the Overexert tag.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Overexert {
    #[default]
    Never,
    /// Only while the Stress taken keeps it within its Stress Tolerance.
    Calm,
    Always,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Unit {
    pub fatigue_tolerance: i32,
    pub stress_tolerance: i32,
    pub resilience: i32,
    pub resolve: i32,
    pub evasion: i32,
    pub initiative: i32,
    /// Initiative points it delays by, for the whole fight.
    pub delay: i32,
    /// Art modifier of its attacks (a Basic Attack uses the highest).
    pub art: i32,
    /// Squares per Move.
    pub speed: i32,
    /// Wounds before the fight.
    pub wounds: u8,
    pub defence: Defence,
    /// Net boons its stance gives its offensive rolls (negative: banes).
    pub stance_offence: i32,
    /// Net boons its stance gives its defensive rolls (negative: banes).
    pub stance_defence: i32,
    /// Uses Resuscitate on an incapacitated ally within a move.
    pub resuscitate: bool,
    /// With no standing enemy to attack this turn, attacks an incapacitated
    /// enemy in reach (the text does not forbid targeting one).
    pub strike_downed: bool,
    pub overexert: Overexert,
    /// Attack abilities, most Load first (list order among equals).
    pub kit: Kit<Ability>,
    /// Has an ability with the Ranged tag.
    pub ranged: bool,
    /// The turn the unit plays, settled by [`Thrum::prepare_unit`] and
    /// [`Thrum::place_on_map`].
    pub plan: Plan,
}

impl Unit {
    #[inline]
    pub fn abilities(&self) -> &[Ability] {
        &self.kit.weapons[..self.kit.n as usize]
    }

    /// The first (best) ability that reaches `distance`.
    #[inline]
    pub fn ability_for(&self, distance: i32) -> Option<Ability> {
        self.abilities()
            .iter()
            .copied()
            .find(|a| distance <= a.range)
    }
}

/// How boons and banes combine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Cancel {
    /// One bane cancels one boon; the net count applies.
    #[default]
    OneForOne,
    /// Any boon and any bane cancel entirely (5e-like); otherwise one.
    Single,
}

/// What a net boon or bane does to a roll.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BoonEffect {
    /// Roll an extra d6 per net boon (bane) and drop the lowest (highest).
    #[default]
    ExtraDie,
    /// +1 (−1) per net boon (bane).
    Flat,
}

/// What being Stunned does (the seed does not say).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stunned {
    /// Move or Act, not both (the draft).
    #[default]
    MoveOrAct,
    /// Neither move nor act.
    LoseTurn,
}

/// Which attacks an Obstructed path stops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Obstruction {
    /// Physical attacks only: obstruction is the cover rule's, and cover is
    /// "against Physical Attacks" (the text's reading).
    #[default]
    Physical,
    /// Every attack (the path itself is blocked).
    All,
}

/// What Resuscitate does besides ending the incapacity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Resuscitation {
    /// Nothing: the text names only the end of the incapacity.
    #[default]
    Keep,
    /// The game's Resuscitate ability (its Basic Combat Abilities page, not
    /// part of the text): Fatigue and Stress Load halved (rounded down),
    /// negative statuses (Vulnerable, Stunned) cleared.
    Halve,
}

#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub cancel: Cancel,
    pub boon_effect: BoonEffect,
    /// Opposed rolls tied: the defender wins.
    pub ties_to_defender: bool,
    /// Winning by this much or more is a critical.
    pub crit_margin: i32,
    pub stunned: Stunned,
    /// Vulnerable loses a stack at the end of its owner's turn.
    pub vulnerable_ticks: bool,
    /// A unit incapacitated during its own turn also takes that turn's
    /// end-of-turn decrement.
    pub same_turn_decay: bool,
    /// Incapacitated units still make Panic Rolls.
    pub panic_while_incapacitated: bool,
    /// Stress an overexerting attacker takes.
    pub overexert_stress: i32,
    pub obstruction: Obstruction,
    /// Another character adjacent to the target, between it and an attacker
    /// beyond, gives the target cover.
    pub character_cover: bool,
    pub resuscitation: Resuscitation,
    // The numbers the text states, each an option (default: the text's).
    /// "Turn": Actions per turn (the text: one).
    pub actions: u8,
    /// "Ranged": banes per enemy adjacent to the user of a Ranged ability.
    pub ranged_bane: i32,
    /// "Cover": banes on a physical attack on a unit in cover.
    pub cover_bane: i32,
    /// "Defensive rolls": boons on Evasion while not Vulnerable.
    pub evasion_boons: i32,
    /// "Defensive rolls": Vulnerable stacks an Evasion success gives.
    pub evasion_success_vulnerable: u8,
    /// "Defensive rolls": Vulnerable stacks an Evasion failure gives.
    pub evasion_failure_vulnerable: u8,
    /// "Fatigue and Stress": Fatigue Load at the start of a fight.
    pub start_fatigue_load: i32,
    /// "Fatigue and Stress": Stress Load at the start of a fight.
    pub start_stress_load: i32,
    /// "Frayed and Panic Roll": banes on a Frayed unit's defensive rolls.
    pub frayed_bane: i32,
    /// "Frayed and Panic Roll": a Panic Roll that ties the Stress Load
    /// holds (the text: it must exceed, not tie).
    pub panic_tie_holds: bool,
    /// "Frayed and Panic Roll": Stunned stacks a failed Panic Roll gives.
    pub panic_stun: u8,
    /// "Frayed and Panic Roll": Stress Tolerance a failed Panic Roll costs.
    pub panic_tolerance_loss: i32,
    /// "Exhausted and Incapacity Roll": banes on an Exhausted unit's
    /// offensive rolls.
    pub exhausted_bane: i32,
    /// "Exhausted and Incapacity Roll": an Incapacity Roll that ties the
    /// Fatigue Load holds (the text: it must exceed, not tie).
    pub incapacity_tie_holds: bool,
    /// "Incapacitated": Fatigue Tolerance lost on falling and each turn down.
    pub incapacity_tolerance_loss: i32,
    /// "Incapacitated": Fatigue Load lost on falling and each turn down.
    pub incapacity_load_loss: i32,
    /// "Incapacitated": squares from which Resuscitate reaches its ally.
    pub resuscitate_reach: i32,
    /// "Wounds": ending a turn Incapacitated at this Fatigue Tolerance or
    /// below gives a Wound.
    pub wound_tolerance: i32,
    /// "Wounds": Wounds that remove a unit from combat.
    pub wounds_removed: u8,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            cancel: Cancel::OneForOne,
            boon_effect: BoonEffect::ExtraDie,
            ties_to_defender: true,
            crit_margin: 5,
            stunned: Stunned::MoveOrAct,
            vulnerable_ticks: true,
            same_turn_decay: true,
            panic_while_incapacitated: true,
            overexert_stress: 1,
            obstruction: Obstruction::Physical,
            character_cover: false,
            resuscitation: Resuscitation::Keep,
            actions: 1,
            ranged_bane: 1,
            cover_bane: 1,
            evasion_boons: 1,
            evasion_success_vulnerable: 1,
            evasion_failure_vulnerable: 1,
            start_fatigue_load: 0,
            start_stress_load: 0,
            frayed_bane: 1,
            panic_tie_holds: false,
            panic_stun: 1,
            panic_tolerance_loss: 1,
            exhausted_bane: 1,
            incapacity_tie_holds: false,
            incapacity_tolerance_loss: 1,
            incapacity_load_loss: 1,
            resuscitate_reach: ADJACENT,
            wound_tolerance: 0,
            wounds_removed: WOUNDS_REMOVED,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct State {
    pub fatigue_load: i32,
    pub fatigue_tolerance: i32,
    pub stress_load: i32,
    pub stress_tolerance: i32,
    /// Vulnerable stacks.
    pub vulnerable: u8,
    /// Stunned stacks.
    pub stunned: u8,
    pub wounds: u8,
    /// In its stance. A stance that gives no boons and no banes
    /// (`stance_offence` and `stance_defence` 0) is never left: nothing
    /// reads it, and fight states that differ only in it would not merge.
    pub stance: bool,
    pub incapacitated: bool,
    /// Removed from combat (three wounds).
    pub removed: bool,
}

impl State {
    /// Fatigue Load exceeds Fatigue Tolerance.
    #[inline]
    pub fn exhausted(&self) -> bool {
        self.fatigue_load > self.fatigue_tolerance
    }

    /// Stress Load exceeds Stress Tolerance.
    #[inline]
    pub fn frayed(&self) -> bool {
        self.stress_load > self.stress_tolerance
    }
}

/// Indices into [`Thrum::COUNTERS`].
pub mod counter {
    pub const ATTACKS: usize = 0;
    pub const HITS: usize = 1;
    pub const EVASION_CRITS: usize = 2;
    pub const VULNERABLE: usize = 3;
    pub const PANIC_ROLLS: usize = 4;
    pub const PANICS: usize = 5;
    pub const INCAPACITY_ROLLS: usize = 6;
    pub const INCAPACITATIONS: usize = 7;
    pub const WOUNDS: usize = 8;
    pub const REMOVALS: usize = 9;
    pub const SELF_REVIVALS: usize = 10;
    pub const RESUSCITATIONS: usize = 11;
}

const KIND_NAMES: &[&str] = &["physical", "mental"];
const DEFENCE_NAMES: &[&str] = &["resilience", "evasion", "evasion-unless-vulnerable"];
const OVEREXERT_NAMES: &[&str] = &["never", "calm", "always"];
const CANCEL_NAMES: &[&str] = &["one-for-one", "single"];
const BOON_NAMES: &[&str] = &["extra-die", "flat"];
const TIE_NAMES: &[&str] = &["defender", "attacker"];
const STUNNED_NAMES: &[&str] = &["move-or-act", "lose-turn"];
const DEALS_NAMES: &[&str] = &["kind", "fatigue", "stress"];
const OBSTRUCTION_NAMES: &[&str] = &["physical", "all"];
const RESUSCITATION_NAMES: &[&str] = &["keep", "halve"];
const LOAD_TIE_NAMES: &[&str] = &["fail", "pass"];
const AREA_NAMES: &[&str] = &["none", "area", "line", "aura"];

/// Shared conditions that stop a unit from moving and acting (it stays in
/// the fight and is not Incapacitated in thrum's sense).
const HELPLESS: Conditions = Conditions::of(&[
    Condition::Incapacitated,
    Condition::Paralyzed,
    Condition::Unconscious,
]);

impl Ruleset for Thrum {
    /// Removed from combat (its last Wound): it takes no turns, and no rule
    /// brings it back (Resuscitate and self-revival end an incapacity, which
    /// removal ends for good).
    #[inline]
    fn gone_for_good(unit: &Combatant<State>) -> bool {
        unit.state.removed
    }

    const CONFORMANCE: &'static [Clause] = conformance::TABLE;
    const UNMODELLED: &'static [super::Unmodelled] = &[
        super::Unmodelled::condition(Condition::Blinded, "the text has no blinded condition"),
        super::Unmodelled::condition(Condition::Deafened, "the text has no deafened condition"),
        super::Unmodelled::condition(
            Condition::Frightened,
            "the text has no frightened condition (Stress and Panic Rolls are its fear rule)",
        ),
        super::Unmodelled::condition(Condition::Grappled, "the text has no grappled condition"),
        super::Unmodelled::condition(Condition::Prone, "the text has no prone condition"),
        super::Unmodelled::condition(
            Condition::Restrained,
            "the text has no restrained condition",
        ),
    ];
    const NAME: &'static str = "thrum";
    const TITLE: &'static str = "Thrum: Combat Flow (the Thrum wiki)";
    const ABOUT: &'static str =
        "The Thrum wiki's Combat Flow: opposed 2d6 + modifier with boons and banes (extra d6, keep two); \
        the defender picks Resilience/Resolve (hedge) or Evasion (gamble, Vulnerable); no hit \
        points: hits add Fatigue or Stress Load against Tolerances, Panic and Incapacity \
        Rolls, tolerance decay, three Wounds remove; cover only against physical attacks from beyond \
        its source. Distances in squares.";
    const DISTANCE_UNIT: &'static str = "squares";
    // "Combat takes place on a square grid. Both movement and distance are
    // measured in Squares": a map cell is one square. Chebyshev distance,
    // eight neighbours; allies' squares passable but no stopping there,
    // enemies' impassable (the engine's `approach`); "exiting a space
    // designated as Difficult Terrain costs +1"; each elevation level beyond
    // the first in one step +1 ("Elevation").
    const MAP_COSTS: Option<crate::map::Costs> = Some(crate::map::Costs::thrum());
    const MAP_SCALE: i32 = 1;
    const MAP_IGNORES: &'static [(&'static str, &'static str)] = &[(
        "character_cover",
        "on a map a character next to the target is a source of cover as the text's Cover says, \
         worked out for each attack from where the units stand and their elevation",
    )];
    const MAP_WEAPON_FIELDS: &'static [(&'static str, &'static str)] = &[
        (
            "area",
            "an area of effect catches the characters standing in its squares, and the front has \
             no squares around a unit",
        ),
        (
            "size",
            "it is the size of an area of effect, which needs the map's squares",
        ),
    ];
    const DEFAULT_INITIATIVE: InitiativeKind = InitiativeKind::Rolled;
    const INITIATIVE_STAT: &'static str = "initiative − delay";

    const HEALTH_STATS: &'static [&'static str] = &["fatigue_tolerance", "stress_tolerance"];
    const CONTRARY_STATS: &'static [Contrary] = &[Contrary::unit(
        "wounds",
        "Wounds carried into the fight: three remove a unit",
    )];

    const STEPS: &'static [StatStep] = &[StatStep::unit(
        "delay",
        Step::Not("a policy: how much later it acts"),
    )];

    const POLICIES: &'static [&'static str] = &[
        "weapons",
        "defence",
        "delay",
        "resuscitate",
        "strike_downed",
        "overexert",
    ];
    const UNIT_FIELDS: &'static [Field] = &[
        Field::new(
            "fatigue_tolerance",
            Kind::Int { min: 0, max: 100 },
            None,
            "Fatigue Tolerance (the draft: 10 + END modifier); Fatigue Load above it: Exhausted",
        ),
        Field::new(
            "stress_tolerance",
            Kind::Int { min: 0, max: 100 },
            None,
            "Stress Tolerance (the draft: 10 + FOC modifier); Stress Load above it: Frayed",
        ),
        Field::int("resilience", -10, 20, 0, "Resilience modifier (END): defends physical attacks, Incapacity Rolls"),
        Field::int("resolve", -10, 20, 0, "Resolve modifier (FOC): defends mental attacks, Panic Rolls"),
        Field::int("evasion", -10, 20, 0, "Evasion modifier (REF): defends either kind, with a Boon unless Vulnerable"),
        Field::int("initiative", -10, 20, 0, "Initiative modifier: initiative is 2d6 + this"),
        Field::int(
            "delay",
            0,
            100,
            0,
            "Delay: act this many initiative points later, for the whole fight (the text's delay persists)",
        ),
        Field::int("art", -10, 20, 0, "Art modifier of its attacks (a Basic Attack uses the highest Art modifier)"),
        Field::int("speed", 0, 100, 4, "squares per Move (the draft: 4)"),
        Field::int(
            "wounds",
            0,
            9,
            0,
            "Wounds carried into the fight (`wounds_removed`, three by default, remove a unit: one carrying that many starts removed)",
        ),
        Field::new(
            "defence",
            Kind::Choice(DEFENCE_NAMES),
            Some(Lit::Str("resilience")),
            "defence policy: resilience (Resilience vs physical, Resolve vs mental: the hedge), evasion (the gamble), or evasion-unless-vulnerable",
        ),
        Field::int(
            "stance_offence",
            -3,
            3,
            0,
            "its stance's net boons on its offensive rolls (negative: banes); 0 and stance_defence 0: no stance",
        ),
        Field::int(
            "stance_defence",
            -3,
            3,
            0,
            "its stance's net boons on its defensive rolls (negative: banes); a guarding stance: 1",
        ),
        Field::flag("resuscitate", true, "uses its Action to Resuscitate an incapacitated ally it can reach this turn (before attacking)"),
        Field::flag(
            "strike_downed",
            true,
            "with no standing enemy to attack this turn, attacks an incapacitated enemy in reach (the one with the least Fatigue Load: the nearest to reviving)",
        ),
        Field::new(
            "overexert",
            Kind::Choice(OVEREXERT_NAMES),
            Some(Lit::Str("never")),
            "when it overexerts abilities with an Overexert effect: never, calm (only if the Stress keeps it within its Stress Tolerance), always",
        ),
        Field::new(
            "weapons",
            Kind::Names(None),
            None,
            "attack abilities (names of [weapons.NAME] tables); the first with the most Load that reaches is used",
        ),
    ];

    const WEAPON_FIELDS: &'static [Field] = &[
        Field::new(
            "kind",
            Kind::Choice(KIND_NAMES),
            Some(Lit::Str("physical")),
            "physical (Resilience or Evasion; cover applies) or mental (Resolve or Evasion; cover does not)",
        ),
        Field::new(
            "deals",
            Kind::Choice(DEALS_NAMES),
            Some(Lit::Str("kind")),
            "the Load a hit adds: fatigue, stress, or kind (Fatigue if physical, Stress if mental); the text: the ability specifies",
        ),
        Field::int("bonus", -10, 20, 0, "added to the unit's Art modifier (e.g. negative for an ability of a weaker Art)"),
        Field::int("range", 1, 1000, 1, "range in squares (1 = adjacent)"),
        Field::flag("ranged", false, "the Ranged tag: +1 Bane per enemy adjacent to the attacker"),
        Field::flag("finisher", false, "the Finisher tag: an Exhausted target makes an Incapacity Roll right after the attack"),
        Field::int("load", 1, 10, 1, "Load a hit adds (Fatigue or Stress; the text: +1)"),
        Field::int(
            "overexert",
            0,
            10,
            0,
            "Overexert: extra Load a hit adds if the attacker took Stress before rolling (0: the ability has no Overexert)",
        ),
        Field::new(
            "area",
            Kind::Choice(AREA_NAMES),
            Some(Lit::Str("none")),
            "area of effect, on a map only: area (an X by X square placed within range), line (X squares in a row, column or diagonal, one within range) or aura (every square within X of the user but its own; `range` is X); every character in it is attacked, allies included",
        ),
        Field::int("size", 1, 16, 1, "the X of the `area`: Area X, Line X or Aura X (only with `area`)"),
    ];

    const OPTIONS: &'static [Field] = &[
        Field::new(
            "cancel",
            Kind::Choice(CANCEL_NAMES),
            Some(Lit::Str("one-for-one")),
            "boons and banes: one-for-one (the draft: each bane cancels one boon) or single (any of both cancel, else one)",
        )
        .section("Attacks"),
        Field::new(
            "boon_effect",
            Kind::Choice(BOON_NAMES),
            Some(Lit::Str("extra-die")),
            "a net boon (bane): extra-die (the draft: +1d6, drop the lowest (highest)) or flat (+1 (−1))",
        )
        .section("Attacks"),
        Field::new(
            "attack_ties",
            Kind::Choice(TIE_NAMES),
            Some(Lit::Str("defender")),
            "who wins a tied opposed roll (the draft: the defender)",
        )
        .section("Attacks"),
        Field::int("crit_margin", 1, 20, 5, "a roll beating the other by this much or more is a critical (the draft: 5); higher: fewer Evasion criticals")
            .section("Attacks"),
        Field::new(
            "stunned",
            Kind::Choice(STUNNED_NAMES),
            Some(Lit::Str("move-or-act")),
            "what Stunned does (undefined in the seed): move-or-act (the draft) or lose-turn",
        )
        .section("Frayed and Panic Roll"),
        Field::flag("vulnerable_ticks", true, "Vulnerable loses a stack at the end of its owner's turn (false: it lasts the fight)")
            .section("Defensive rolls"),
        Field::flag("same_turn_decay", true, "a unit incapacitated in its own turn also takes that turn's end-of-turn Tolerance and Load decrement")
            .section("Incapacitated"),
        Field::flag("panic_while_incapacitated", true, "incapacitated units still make Panic Rolls at the start of their turns")
            .section("Frayed and Panic Roll"),
        Field::int("overexert_stress", 1, 10, 1, "Stress an attacker takes to overexert (the text: some Stress)")
            .section("Overexert"),
        Field::new(
            "obstruction",
            Kind::Choice(OBSTRUCTION_NAMES),
            Some(Lit::Str("physical")),
            "which attacks from beyond full cover (Obstructed) cannot target: physical (the text: obstruction is part of the cover rule, which is against Physical Attacks) or all",
        )
        .section("Cover"),
        Field::flag(
            "character_cover",
            false,
            "another character adjacent to the target, between it and an attacker beyond, gives cover (+1 Bane on physical attacks); off: the text also asks the attacker to stand lower than the source, which on the flat front it never does",
        )
        .section("Cover"),
        Field::new(
            "resuscitation",
            Kind::Choice(RESUSCITATION_NAMES),
            Some(Lit::Str("keep")),
            "what Resuscitate does besides ending the incapacity: keep (the text names nothing else; Loads stay) or halve (the game's Resuscitate ability: Fatigue and Stress Load halved, rounded down, Vulnerable and Stunned cleared)",
        )
        .section("Incapacitated"),
        // The numbers the text states (issue 27), in the text's order.
        Field::int(
            "actions",
            1,
            4,
            1,
            "Actions per turn (the text: one); the further ones are taken where the unit stands (no movement after an Action), each followed by an Exhausted unit's Incapacity Roll; more: faster fights",
        )
        .section("Turn")
        .quiet(),
        Field::int(
            "ranged_bane",
            0,
            3,
            1,
            "banes on a Ranged ability's roll per enemy adjacent to its user (the text: +1 Bane each); higher: shooting in melee is worse",
        )
        .section("Ranged")
        .quiet(),
        Field::int(
            "cover_bane",
            0,
            3,
            1,
            "banes on a physical attack on a unit in cover, from beyond the source (the text: +1 Bane); higher: cover protects more, 0: none",
        )
        .section("Cover")
        .quiet(),
        Field::int(
            "evasion_boons",
            0,
            3,
            1,
            "boons on an Evasion roll while not Vulnerable (the text: +1 Boon); higher: the gamble pays more",
        )
        .section("Defensive rolls")
        .quiet(),
        Field::int(
            "evasion_success_vulnerable",
            0,
            3,
            1,
            "Vulnerable stacks an Evasion success (not a critical) gives (the text: +1); higher: the gamble costs more",
        )
        .section("Defensive rolls")
        .quiet(),
        Field::int(
            "evasion_failure_vulnerable",
            0,
            3,
            1,
            "Vulnerable stacks an Evasion failure gives, besides the effect (the text: +1); higher: the gamble costs more",
        )
        .section("Defensive rolls")
        .quiet(),
        Field::int(
            "start_fatigue_load",
            0,
            20,
            0,
            "every unit's Fatigue Load at the start of a fight (the text: loads start at 0); higher: units come in tired",
        )
        .section("Fatigue and Stress")
        .quiet(),
        Field::int(
            "start_stress_load",
            0,
            20,
            0,
            "every unit's Stress Load at the start of a fight (the text: loads start at 0); higher: units come in shaken",
        )
        .section("Fatigue and Stress")
        .quiet(),
        Field::int(
            "frayed_bane",
            0,
            3,
            1,
            "banes on a Frayed unit's defensive rolls (the text: +1 Bane); higher: stress hurts defence more",
        )
        .section("Frayed and Panic Roll")
        .quiet(),
        Field::new(
            "panic_ties",
            Kind::Choice(LOAD_TIE_NAMES),
            Some(Lit::Str("fail")),
            "a Panic Roll (2d6 + Resolve) equal to the Stress Load: fail (the text: the total must exceed, not tie) or pass",
        )
        .section("Frayed and Panic Roll")
        .quiet(),
        Field::int(
            "panic_stun",
            0,
            3,
            1,
            "turns a failed Panic Roll leaves a unit Stunned, that turn included (the text: Stunned, for no stated time; 1: that turn); 0: no stun",
        )
        .section("Frayed and Panic Roll")
        .quiet(),
        Field::int(
            "panic_tolerance_loss",
            0,
            5,
            1,
            "Stress Tolerance a failed Panic Roll costs (the text: decreases by 1); higher: panic spirals faster",
        )
        .section("Frayed and Panic Roll")
        .quiet(),
        Field::int(
            "exhausted_bane",
            0,
            3,
            1,
            "banes on an Exhausted unit's offensive rolls (the text: +1 Bane); higher: fatigue hurts attacks more",
        )
        .section("Exhausted and Incapacity Roll")
        .quiet(),
        Field::new(
            "incapacity_ties",
            Kind::Choice(LOAD_TIE_NAMES),
            Some(Lit::Str("fail")),
            "an Incapacity Roll (2d6 + Resilience) equal to the Fatigue Load: fail (the text: the total must exceed, not tie) or pass",
        )
        .section("Exhausted and Incapacity Roll")
        .quiet(),
        Field::int(
            "incapacity_tolerance_loss",
            0,
            5,
            1,
            "Fatigue Tolerance lost on becoming Incapacitated and at the end of each turn Incapacitated (the text: 1); higher: Wounds come sooner",
        )
        .section("Incapacitated")
        .quiet(),
        Field::int(
            "incapacity_load_loss",
            0,
            5,
            1,
            "Fatigue Load lost on becoming Incapacitated and at the end of each turn Incapacitated (the text: 1; Load 0 ends the incapacity); higher: units revive sooner, 0: never by themselves",
        )
        .section("Incapacitated")
        .quiet(),
        Field::int(
            "resuscitate_reach",
            1,
            10,
            1,
            "squares from which Resuscitate reaches an incapacitated ally (the game's ability: range 1, adjacent; the text gives none); higher: allies revive from farther",
        )
        .section("Incapacitated")
        .quiet(),
        Field::int(
            "wound_tolerance",
            0,
            10,
            0,
            "ending a turn Incapacitated at this Fatigue Tolerance or below gives a Wound (the text: zero); higher: Wounds come sooner",
        )
        .section("Wounds")
        .quiet(),
        Field::int(
            "wounds_removed",
            1,
            10,
            3,
            "Wounds that remove a unit from combat (the text: three); a unit carrying that many starts removed; lower: removal comes sooner",
        )
        .section("Wounds")
        .quiet(),
    ];

    // No rule reads the round number: every round plays alike.
    fn round_class(_round: u32) -> u32 {
        0
    }

    /// No round stamps to rewrite (the rules read no round number), but a
    /// unit removed from combat is set to one state: nothing reads its
    /// Loads, Tolerances or statuses again (it takes no turns, and no rule
    /// targets, counts, strikes or resuscitates a removed unit), so fights
    /// that differ only in what a unit carried out of combat are one
    /// state. Here, not at the removal: the simulator never reads them
    /// either, and clearing them there cost every removal its stores.
    fn forget_round(state: &mut State, _round: u32) {
        if state.removed {
            *state = State {
                wounds: state.wounds,
                stance: state.stance,
                removed: true,
                ..State::default()
            };
        }
    }
    const COUNTERS: &'static [CounterInfo] = &[
        CounterInfo {
            name: "attacks",
            doc: "attack rolls per fight",
        },
        CounterInfo {
            name: "hits",
            doc: "attacks whose effect was taken, per fight",
        },
        CounterInfo {
            name: "evasion_crits",
            doc: "Evasion criticals (avoided without Vulnerable), per fight",
        },
        CounterInfo {
            name: "vulnerable",
            doc: "Vulnerable stacks taken by evading, per fight",
        },
        CounterInfo {
            name: "panic_rolls",
            doc: "Panic Rolls made, per fight",
        },
        CounterInfo {
            name: "panics",
            doc:
                "failed Panic Rolls (Stunned, Stress into Fatigue, Stress Tolerance −1), per fight",
        },
        CounterInfo {
            name: "incapacity_rolls",
            doc: "Incapacity Rolls made (after actions while Exhausted, Finishers), per fight",
        },
        CounterInfo {
            name: "incapacitations",
            doc: "units incapacitated, per fight",
        },
        CounterInfo {
            name: "wounds",
            doc: "Wounds taken (ending a turn incapacitated at Fatigue Tolerance 0), per fight",
        },
        CounterInfo {
            name: "removals",
            doc: "units removed from combat by a third Wound, per fight",
        },
        CounterInfo {
            name: "self_revivals",
            doc: "incapacities ended by Fatigue Load reaching 0, per fight",
        },
        CounterInfo {
            name: "resuscitations",
            doc: "incapacities ended by an ally's Resuscitate, per fight",
        },
    ];

    type Weapon = Ability;
    type Unit = Unit;
    type State = State;
    type Options = Options;

    fn compile_options(f: &impl FieldReader) -> Result<Options, FieldError> {
        Ok(Options {
            cancel: [Cancel::OneForOne, Cancel::Single][f.choice("cancel")?],
            boon_effect: [BoonEffect::ExtraDie, BoonEffect::Flat][f.choice("boon_effect")?],
            ties_to_defender: f.choice("attack_ties")? == 0,
            crit_margin: f.int("crit_margin")? as i32,
            stunned: [Stunned::MoveOrAct, Stunned::LoseTurn][f.choice("stunned")?],
            vulnerable_ticks: f.bool("vulnerable_ticks")?,
            same_turn_decay: f.bool("same_turn_decay")?,
            panic_while_incapacitated: f.bool("panic_while_incapacitated")?,
            overexert_stress: f.int("overexert_stress")? as i32,
            obstruction: [Obstruction::Physical, Obstruction::All][f.choice("obstruction")?],
            character_cover: f.bool("character_cover")?,
            resuscitation: [Resuscitation::Keep, Resuscitation::Halve]
                [f.choice("resuscitation")?],
            actions: f.int("actions")? as u8,
            ranged_bane: f.int("ranged_bane")? as i32,
            cover_bane: f.int("cover_bane")? as i32,
            evasion_boons: f.int("evasion_boons")? as i32,
            evasion_success_vulnerable: f.int("evasion_success_vulnerable")? as u8,
            evasion_failure_vulnerable: f.int("evasion_failure_vulnerable")? as u8,
            start_fatigue_load: f.int("start_fatigue_load")? as i32,
            start_stress_load: f.int("start_stress_load")? as i32,
            frayed_bane: f.int("frayed_bane")? as i32,
            panic_tie_holds: f.choice("panic_ties")? == 1,
            panic_stun: f.int("panic_stun")? as u8,
            panic_tolerance_loss: f.int("panic_tolerance_loss")? as i32,
            exhausted_bane: f.int("exhausted_bane")? as i32,
            incapacity_tie_holds: f.choice("incapacity_ties")? == 1,
            incapacity_tolerance_loss: f.int("incapacity_tolerance_loss")? as i32,
            incapacity_load_loss: f.int("incapacity_load_loss")? as i32,
            resuscitate_reach: f.int("resuscitate_reach")? as i32,
            wound_tolerance: f.int("wound_tolerance")? as i32,
            wounds_removed: f.int("wounds_removed")? as u8,
        })
    }

    fn number_weapon(weapon: &mut Ability, number: u16) {
        weapon.number = number;
    }

    fn compile_weapon(f: &impl FieldReader) -> Result<Ability, FieldError> {
        let kind = [AbilityKind::Physical, AbilityKind::Mental][f.choice("kind")?];
        let harm = match (f.choice("deals")?, kind) {
            (1, _) | (0, AbilityKind::Physical) => Harm::Fatigue,
            _ => Harm::Stress,
        };
        let area = [
            AreaKind::None,
            AreaKind::Area,
            AreaKind::Line,
            AreaKind::Aura,
        ][f.choice("area")?];
        let size = f.int("size")? as u8;
        if area == AreaKind::None && f.written("size") {
            return Err(f.error(
                "size",
                "`size` is the X of an area of effect: write `area` too (\"area\", \"line\" or \"aura\"), or leave `size` out",
            ));
        }
        // "An Aura X area consists of all squares at a distance X or less
        // from the ability user": it reaches X, whatever a range would say.
        let range = if area == AreaKind::Aura {
            if f.written("range") {
                return Err(f.error(
                    "range",
                    "an aura reaches `size` squares around its user: leave `range` out",
                ));
            }
            size as i32
        } else {
            f.int("range")? as i32
        };
        Ok(Ability {
            number: 0,
            kind,
            harm,
            bonus: f.int("bonus")? as i32,
            range,
            ranged: f.bool("ranged")?,
            finisher: f.bool("finisher")?,
            load: f.int("load")? as i32,
            overexert: f.int("overexert")? as i32,
            area,
            size,
        })
    }

    fn compile_unit(f: &impl FieldReader, weapons: &[Ability]) -> Result<Unit, FieldError> {
        let mut kit = kit(f, weapons)?;
        // Advancing closes to melee whatever a ranged ability could hit from
        // farther (issue 30: `advance` means closing in, attacking on the
        // way): without a melee ability, to thrum's melee reach, adjacent
        // ("Movement": the eight squares around), as trenches, osr and
        // dicestep do with their options' `reach` (common's `kit` still
        // gives the longest range: the others settle it themselves).
        if kit.melee_reach == 0 {
            kit.advance_reach = ADJACENT.min(kit.max_range);
        }
        Ok(Unit {
            fatigue_tolerance: f.int("fatigue_tolerance")? as i32,
            stress_tolerance: f.int("stress_tolerance")? as i32,
            resilience: f.int("resilience")? as i32,
            resolve: f.int("resolve")? as i32,
            evasion: f.int("evasion")? as i32,
            initiative: f.int("initiative")? as i32,
            delay: f.int("delay")? as i32,
            art: f.int("art")? as i32,
            speed: f.int("speed")? as i32,
            wounds: f.int("wounds")? as u8,
            defence: [
                Defence::Resilience,
                Defence::Evasion,
                Defence::EvasionUnlessVulnerable,
            ][f.choice("defence")?],
            stance_offence: f.int("stance_offence")? as i32,
            stance_defence: f.int("stance_defence")? as i32,
            resuscitate: f.bool("resuscitate")?,
            strike_downed: f.bool("strike_downed")?,
            overexert: [Overexert::Never, Overexert::Calm, Overexert::Always]
                [f.choice("overexert")?],
            ranged: weapons.iter().any(|a| a.ranged),
            kit,
            plan: Plan::Hold,
        })
    }

    fn describe_unit(u: &Unit) -> String {
        let mut s = format!(
            "FT {}, ST {}, RES {:+}, RSV {:+}, EVA {:+}, art {:+}, {}",
            u.fatigue_tolerance,
            u.stress_tolerance,
            u.resilience,
            u.resolve,
            u.evasion,
            u.art,
            DEFENCE_NAMES[u.defence as usize]
        );
        if u.stance_offence != 0 || u.stance_defence != 0 {
            s.push_str(&format!(
                ", stance {:+}/{:+}",
                u.stance_offence, u.stance_defence
            ));
        }
        if u.delay > 0 {
            s.push_str(&format!(", delay {}", u.delay));
        }
        if u.wounds > 0 {
            s.push_str(&format!(", {} wounds", u.wounds));
        }
        s
    }

    fn default_tactic(unit: &Unit) -> Tactic {
        if unit.ranged {
            Tactic::Hold
        } else {
            Tactic::Advance
        }
    }

    fn roll_initiative<D: Dice>(unit: &Unit, dice: &mut D) -> InitiativeRoll {
        // Ties: the engine's `initiative_ties` (random by default).
        let roll = (dice.roll(6) + dice.roll(6)) as i32;
        InitiativeRoll {
            total: roll + unit.initiative - unit.delay,
            tiebreak: 0,
        }
    }

    fn initiative_stat(unit: &Unit) -> i32 {
        unit.initiative - unit.delay
    }

    fn enter(unit: &mut Combatant<State>, spec: &UnitSpec<Self>, options: &Options) {
        let u = &spec.stats;
        // Round Zero: everyone enters its stance. Loads start at
        // `start_fatigue_load` and `start_stress_load` (the text: 0).
        unit.state = State {
            fatigue_load: options.start_fatigue_load,
            fatigue_tolerance: u.fatigue_tolerance,
            stress_load: options.start_stress_load,
            stress_tolerance: u.stress_tolerance,
            wounds: u.wounds,
            stance: true,
            ..State::default()
        };
        // Carrying as many Wounds as remove a unit: removed from the start.
        if u.wounds >= options.wounds_removed {
            unit.state.removed = true;
            unit.state.stance = false;
            unit.out = true;
        }
    }

    /// Who can act when its team's activation comes (team-alternating
    /// initiative): not an Incapacitated or removed unit (both out of the
    /// fight: "they cannot move, act, or take stances"), not one helpless
    /// by a shared condition, and not a Stunned one when Stunned loses the
    /// turn. A Stunned unit under the draft's "move or act" can still act.
    fn can_act(fight: &Fight<Self>, enc: &Encounter<Self>, unit: usize) -> bool {
        let u = &fight.units[unit];
        let stunned = u.state.stunned > 0 || u.conditions.has(Condition::Stunned);
        let loses_turn = stunned && enc.options.stunned == Stunned::LoseTurn;
        !(u.out || u.conditions.any(HELPLESS) || loses_turn)
    }

    fn prepare_unit(spec: &mut UnitSpec<Self>, options: &Options) {
        spec.stats.plan = Plan::of(spec.tactic);
        spec.drops = smart_drops(&spec.stats, options);
        if spec.smart {
            // Smart's extra (the module doc's "Smart"): Evasion while it
            // has its Boon ("Defensive rolls").
            spec.stats.defence = Defence::EvasionUnlessVulnerable;
        }
    }

    fn place_on_map(spec: &mut UnitSpec<Self>) {
        spec.stats.plan = spec.stats.plan.on_the_map();
    }

    // Left to the compiler, as before maps, with the unit's move and action
    // inlined into it (the map's turns are separate copies, `MAP = true`,
    // out of line): the front's turn costs what it did.
    fn take_turn<D: Dice>(turn: &mut Turn<'_, Self, D>) {
        let me = turn.actor;
        let opts = turn.options();
        let incapacitated = turn.unit(me).state.incapacitated;
        // Start of turn: a Frayed unit panics.
        if turn.unit(me).state.frayed() && (!incapacitated || opts.panic_while_incapacitated) {
            panic_roll(turn, me);
        }
        if incapacitated {
            end_of_turn(turn, true);
            return;
        }
        if !turn.unit(me).conditions.any(HELPLESS) {
            let acted = move_and_act(turn);
            // After an Action, an Exhausted unit rolls for Incapacity.
            if acted && turn.unit(me).state.exhausted() {
                incapacity_roll(turn, me);
            }
            if acted && opts.actions > 1 {
                if turn.spec(me).stats.plan.on_map() {
                    further_actions::<D, true>(turn, opts.actions);
                } else {
                    further_actions::<D, false>(turn, opts.actions);
                }
            }
        }
        // Stance: keep it, or take it again after an incapacity ended.
        let s = &mut turn.unit_mut(me).state;
        if !s.incapacitated {
            s.stance = true;
        }
        end_of_turn(turn, false);
    }

    fn vitality(unit: &Combatant<State>, spec: &UnitSpec<Self>) -> (u32, u32) {
        // Tolerance left before Exhausted plus before Frayed.
        let s = &unit.state;
        let left = (s.fatigue_tolerance - s.fatigue_load).max(0)
            + (s.stress_tolerance - s.stress_load).max(0);
        let full = spec.stats.fatigue_tolerance + spec.stats.stress_tolerance;
        (left as u32, full as u32)
    }
}

/// What a unit's turn most likely deals, for smart targeting, in the units
/// of thrum's health ([`Ruleset::vitality`]: the Tolerance left before
/// Exhausted plus before Frayed, which a hit's Load eats into): its best
/// ability's `load` (the kit's first: most Load first), plus its Overexert
/// Load when the unit always overexerts, once per Action (`actions`; the
/// text: one). An enemy with that much or less left is one this turn can
/// push over both Tolerances, where it is Exhausted and Frayed and the
/// Incapacity Roll comes. A hit, not a roll's chance of one: a turn's
/// opposed rolls go either way, and smart reads one number per attacker.
pub(crate) fn smart_drops(u: &Unit, options: &Options) -> u32 {
    let Some(a) = u.abilities().first() else {
        return 0;
    };
    let extra = if u.overexert == Overexert::Always {
        a.overexert
    } else {
        0
    };
    ((a.load + extra).max(0) as u32) * u32::from(options.actions.max(1))
}

/// 2d6 with `net` boons (positive) or banes (negative).
// Always inlined: every attack rolls it twice and a call's prologue and
// epilogue cost as much as a die.
#[inline(always)]
pub fn roll_2d6<D: Dice>(dice: &mut D, net: i32, effect: BoonEffect) -> i32 {
    let (a, b) = (dice.roll(6) as i32, dice.roll(6) as i32);
    if net == 0 {
        return a + b;
    }
    if effect == BoonEffect::Flat {
        return a + b + net;
    }
    // Keep the two best (boons) or worst (banes): track them as extra dice
    // come in. The kept pair is the larger (smaller) of the pair and the
    // middle of the three: no branch on the dice, which no predictor learns.
    let (mut hi, mut lo) = (a.max(b), a.min(b));
    if net > 0 {
        for _ in 0..net {
            let d = dice.roll(6) as i32;
            lo = lo.max(hi.min(d));
            hi = hi.max(d);
        }
    } else {
        for _ in 0..net.unsigned_abs() {
            let d = dice.roll(6) as i32;
            hi = hi.min(lo.max(d));
            lo = lo.min(d);
        }
    }
    hi + lo
}

/// Net boons of a roll with `boons` and `banes` under the cancel rule.
#[inline]
pub fn net_boons(boons: i32, banes: i32, cancel: Cancel) -> i32 {
    match cancel {
        Cancel::OneForOne => boons - banes,
        Cancel::Single => i32::from(boons > 0 && banes == 0) - i32::from(banes > 0 && boons == 0),
    }
}

/// Split a signed stance value into (boons, banes).
#[inline]
fn signed(v: i32) -> (i32, i32) {
    (v.max(0), (-v).max(0))
}

/// Whether a unit with `stats` in `state` defends with Evasion (else with
/// Resilience or Resolve), by its defence policy.
#[inline]
pub fn evades(stats: &Unit, state: &State) -> bool {
    match stats.defence {
        Defence::Resilience => false,
        Defence::Evasion => true,
        Defence::EvasionUnlessVulnerable => state.vulnerable == 0,
    }
}

/// How an attack went (for tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttackResult {
    pub offence: i32,
    pub defence: i32,
    /// The defender used Evasion.
    pub evaded: bool,
    /// The defender's critical (Evasion: avoided without Vulnerable).
    pub crit: bool,
    /// The effect was taken.
    pub hit: bool,
}

/// The acting unit attacks `target` with `ability`; the result has both
/// rolls' totals (for the tests).
pub fn attack<D: Dice>(
    turn: &mut Turn<'_, Thrum, D>,
    target: usize,
    ability: &Ability,
) -> AttackResult {
    if turn.ground().is_some() {
        strike::<D, true, true>(turn, target, ability)
    } else {
        strike::<D, true, false>(turn, target, ability)
    }
}

/// [`attack`], with the defence total and a critical against a defence
/// other than Evasion (which no rule reads) worked out only if `TOTALS` or
/// the fight is watched: the rest of the fight reads the attack's verdict
/// alone, so the exact engine branches on its two or three verdicts, not
/// on every defence total. The fight loop calls it without `TOTALS`.
// Always inlined: a turn's attack is its commonest work, and its callers in
// the fight loop ignore the result (built for the tests), which inlining
// drops.
#[inline(always)]
fn strike<D: Dice, const TOTALS: bool, const MAP: bool>(
    turn: &mut Turn<'_, Thrum, D>,
    target: usize,
    ability: &Ability,
) -> AttackResult {
    strike_covered::<D, TOTALS, MAP>(turn, target, ability, None)
}

/// [`strike`] with the target's cover against the actor already known
/// (`Some`: the map's attack worked it out to see whether the target is
/// Obstructed, and the position has not changed since), so it is not worked
/// out again; `None` (every front attack, a constant there) works it out.
#[inline(always)]
fn strike_covered<D: Dice, const TOTALS: bool, const MAP: bool>(
    turn: &mut Turn<'_, Thrum, D>,
    target: usize,
    ability: &Ability,
    covered: Option<bool>,
) -> AttackResult {
    let me = turn.actor;
    turn.note_attack(me, target, ability.number);
    let enc = turn.enc;
    let opts = &enc.options;
    let stats = &enc.units[me].stats;
    let tstats = &enc.units[target].stats;
    let physical = ability.kind == AbilityKind::Physical;
    let load = overexert_load(turn, ability);

    // The defender chooses before the roll.
    let theirs = *turn.unit(target);
    let evade = evades(tstats, &theirs.state);

    // Offensive roll.
    let mine = turn.unit(me).state;
    let (mut boons, mut banes) = if mine.stance {
        signed(stats.stance_offence)
    } else {
        (0, 0)
    };
    banes += i32::from(mine.exhausted()) * opts.exhausted_bane;
    if ability.ranged {
        banes += adjacent_enemies::<D, MAP>(turn, me) * opts.ranged_bane;
    }
    if physical && covered.unwrap_or_else(|| in_cover::<D, MAP>(turn, me, target)) {
        banes += opts.cover_bane;
    }
    let net = net_boons(boons, banes, opts.cancel);
    // Only the total counts (the kept pair's sum): the exact engine
    // branches on its 11 values, not on the 6^(2 + |net|) faces. The
    // pools' closures are inlined by force (left to the compiler they were
    // calls, and a fight took a tenth more instructions), and read the
    // options where they need them, as the rolls did before the pools: a
    // value loaded ahead is held in a register across the rolls.
    let offence_dice = turn.dice.pool(
        #[inline(always)]
        |d| roll_2d6(d, net, opts.boon_effect),
    );
    let offence = offence_dice + stats.art + ability.bonus;
    turn.note_roll(target, "offence (2d6 + Art + ability)", offence);

    // Defensive roll.
    (boons, banes) = if theirs.state.stance {
        signed(tstats.stance_defence)
    } else {
        (0, 0)
    };
    banes += i32::from(theirs.state.frayed()) * opts.frayed_bane;
    boons += i32::from(evade && theirs.state.vulnerable == 0) * opts.evasion_boons;
    let modifier = match (evade, physical) {
        (true, _) => tstats.evasion,
        (false, true) => tstats.resilience,
        (false, false) => tstats.resolve,
    };
    let net = net_boons(boons, banes, opts.cancel);
    // The defence counts only through the verdict (taken or avoided, and
    // for Evasion, critically or not): the exact engine branches on two or
    // three verdicts. Its total is kept only where it is read: a watched
    // fight's notes, and the tests' result.
    let keep = TOTALS || D::WATCHED;
    let (hit, crit, defence) = turn.dice.pool(
        #[inline(always)]
        |d| {
            let defence = roll_2d6(d, net, opts.boon_effect) + modifier;
            let margin = defence - offence;
            let avoids = margin > 0 || (margin == 0 && opts.ties_to_defender);
            let crit = (evade || keep) && margin >= opts.crit_margin;
            (!avoids, crit, if keep { defence } else { 0 })
        },
    );
    if D::WATCHED {
        let rule = match (evade, physical) {
            (true, _) => "defence (2d6 + Evasion)",
            (false, true) => "defence (2d6 + Resilience)",
            (false, false) => "defence (2d6 + Resolve)",
        };
        turn.note(Event::Roll {
            unit: target as u8,
            target: me as u8,
            rule,
            total: defence,
            dice: 0,
        });
    }

    turn.count(counter::ATTACKS);
    turn.note_check(
        target,
        "attack (offence vs defence)",
        offence_dice,
        stats.art + ability.bonus,
        defence + i32::from(opts.ties_to_defender),
        hit,
    );
    if evade {
        if crit {
            turn.count(counter::EVASION_CRITS);
            turn.note_unit(target, "evades critically (no Vulnerable)");
        } else {
            // A success avoids but gives Vulnerable; a failure takes the
            // effect and gives Vulnerable (`evasion_success_vulnerable`,
            // `evasion_failure_vulnerable`; the text: +1 each).
            let stacks = if hit {
                opts.evasion_failure_vulnerable
            } else {
                opts.evasion_success_vulnerable
            };
            let v = &mut turn.unit_mut(target).state.vulnerable;
            *v = v.saturating_add(stacks);
            turn.fight.counters[counter::VULNERABLE] += u32::from(stacks);
        }
    }
    if hit {
        turn.count(counter::HITS);
        let s = &mut turn.unit_mut(target).state;
        // The track, its load and tolerance are only read by a watched
        // fight's report (`harm_load`); unwatched, they compile away.
        let (track, now, tolerance) = match ability.harm {
            Harm::Fatigue => {
                s.fatigue_load += load;
                (Track::Fatigue, s.fatigue_load, s.fatigue_tolerance)
            }
            Harm::Stress => {
                s.stress_load += load;
                (Track::Stress, s.stress_load, s.stress_tolerance)
            }
        };
        turn.harm_load(target, load as u32, track, now, tolerance);
    }
    // "Attacks with the Finisher tag trigger Incapacity Rolls immediately
    // after the attack resolves if their target is Exhausted": hit or miss.
    if ability.finisher
        && turn.unit(target).state.exhausted()
        && !turn.unit(target).state.incapacitated
    {
        incapacity_roll(turn, target);
    }
    AttackResult {
        offence,
        defence,
        evaded: evade,
        crit,
        hit,
    }
}

/// Overexert: declared, and Stress taken, before any roll. The Load a hit
/// of `ability` by the actor adds.
#[inline(always)]
fn overexert_load<D: Dice>(turn: &mut Turn<'_, Thrum, D>, ability: &Ability) -> i32 {
    let me = turn.actor;
    let opts = &turn.enc.options;
    let stats = &turn.enc.units[me].stats;
    let mut load = ability.load;
    if ability.overexert > 0 {
        let s = &turn.unit(me).state;
        let go = match stats.overexert {
            Overexert::Never => false,
            Overexert::Calm => s.stress_load + opts.overexert_stress <= s.stress_tolerance,
            Overexert::Always => true,
        };
        if go {
            turn.unit_mut(me).state.stress_load += opts.overexert_stress;
            load += ability.overexert;
        }
    }
    load
}

/// Start of turn: a Frayed unit's Panic Roll (2d6 + Resolve must exceed the
/// Stress Load). Returns true if it panicked.
pub fn panic_roll<D: Dice>(turn: &mut Turn<'_, Thrum, D>, unit: usize) -> bool {
    let opts = turn.options();
    let resolve = turn.spec(unit).stats.resolve;
    let stress = turn.unit(unit).state.stress_load;
    let rule = "panic roll (2d6 + Resolve over Stress Load)";
    let (counter, ties) = (counter::PANIC_ROLLS, opts.panic_tie_holds);
    if !load_roll_fails(turn, unit, counter, rule, resolve, stress, ties) {
        return false;
    }
    let s = &mut turn.unit_mut(unit).state;
    s.stunned = s.stunned.saturating_add(opts.panic_stun);
    s.fatigue_load += s.stress_load;
    s.stress_load = 0;
    s.stress_tolerance = (s.stress_tolerance - opts.panic_tolerance_loss).max(0);
    turn.count(counter::PANICS);
    turn.note_unit(unit, "panics: stunned, Stress Load moves to Fatigue");
    true
}

/// The Ranged tag's count: "+1 Bane for each enemy adjacent". Incapacitated
/// enemies count (out of the fight, but still standing there: the text
/// makes no exception); enemies removed from combat do not.
fn adjacent_enemies<D: Dice, const MAP: bool>(turn: &Turn<'_, Thrum, D>, me: usize) -> i32 {
    if let Some(g) = ground::<D, MAP>(turn) {
        return map::adjacent_enemies(turn, g, me);
    }
    let at = turn.unit(me).position;
    let mut count = 0;
    for i in Bits(enemy_units(turn, me)) {
        let u = turn.unit(i);
        count +=
            i32::from((!u.out || u.state.incapacitated) && (u.position - at).abs() <= ADJACENT);
    }
    count
}

/// Units of the sides other than unit `me`'s, in the fight or not, as a bit
/// set: the candidates a rule about enemies scans (not every unit).
// Every unit (units are numbered from 0, and a fight has at least one)
// but those of `me`'s side: one mask, where a loop over the other sides
// cost every ranged attack a dozen instructions.
#[inline]
fn enemy_units<D: Dice>(turn: &Turn<'_, Thrum, D>, me: usize) -> u64 {
    let mine = turn.unit(me).side as usize;
    let all = u64::MAX >> (64 - turn.enc.n.max(1));
    all & !turn.side_units(mine)
}

/// An Incapacity Roll (2d6 + Resilience must exceed the Fatigue Load).
/// Returns true if the unit is incapacitated.
pub fn incapacity_roll<D: Dice>(turn: &mut Turn<'_, Thrum, D>, unit: usize) -> bool {
    let resilience = turn.spec(unit).stats.resilience;
    let fatigue = turn.unit(unit).state.fatigue_load;
    let rule = "incapacity roll (2d6 + Resilience over Fatigue Load)";
    let ties = turn.options().incapacity_tie_holds;
    let counter = counter::INCAPACITY_ROLLS;
    if !load_roll_fails(turn, unit, counter, rule, resilience, fatigue, ties) {
        return false;
    }
    incapacitate(turn, unit);
    true
}

/// The roll the Panic and Incapacity Rolls share: 2d6 + `stat` must exceed
/// `load` (or, with `tie_holds`, reach it). Counted under `counter`,
/// reported as `rule`; true if it failed.
fn load_roll_fails<D: Dice>(
    turn: &mut Turn<'_, Thrum, D>,
    unit: usize,
    counter: usize,
    rule: &'static str,
    stat: i32,
    load: i32,
    tie_holds: bool,
) -> bool {
    turn.count(counter);
    // Only pass or fail counts: the exact engine branches on the two, not
    // on 36 faces; the dice's total is kept for a watched fight's note.
    let (passed, dice) = turn.dice.pool(
        #[inline(always)]
        |d| {
            let dice = roll_2d6(d, 0, BoonEffect::ExtraDie);
            let passed = dice + stat >= load + i32::from(!tie_holds);
            (passed, if D::WATCHED { dice } else { 0 })
        },
    );
    let needed = load + i32::from(!tie_holds);
    turn.note_check_by(unit, NO_TARGET, rule, dice, stat, needed, passed);
    !passed
}

/// A unit becomes Incapacitated: its stance ends, Fatigue Tolerance and Load
/// drop by 1, and it leaves the fight but keeps its turns.
// Out of line: a unit falls a few times a fight, and inlined into the
// Incapacity Rolls it cost their callers registers on every turn.
#[inline(never)]
fn incapacitate<D: Dice>(turn: &mut Turn<'_, Thrum, D>, unit: usize) {
    turn.count(counter::INCAPACITATIONS);
    turn.note_unit(unit, "incapacitated");
    // The stance ends, unless it gives no boons and no banes: ending that
    // one changes no roll, and an incapacitated unit cannot take it again
    // anyway; kept, it spares the exact engine states that differ only in
    // it (a unit back on its feet before its next stance phase).
    let stats = &turn.spec(unit).stats;
    let stanceless = stats.stance_offence == 0 && stats.stance_defence == 0;
    let c = turn.unit_mut(unit);
    c.state.incapacitated = true;
    c.state.stance &= stanceless;
    c.lingering = true;
    turn.take_out(unit);
    decay(turn, unit);
}

/// Fatigue Tolerance −1 and Fatigue Load −1 (`incapacity_tolerance_loss`,
/// `incapacity_load_loss`; floored at 0); a Load of 0 ends the incapacity.
/// Returns true if the unit revived.
fn decay<D: Dice>(turn: &mut Turn<'_, Thrum, D>, unit: usize) -> bool {
    let (tolerance_loss, load_loss) = {
        let o = turn.options();
        (o.incapacity_tolerance_loss, o.incapacity_load_loss)
    };
    let s = &mut turn.unit_mut(unit).state;
    s.fatigue_tolerance = (s.fatigue_tolerance - tolerance_loss).max(0);
    s.fatigue_load = (s.fatigue_load - load_loss).max(0);
    if s.fatigue_load == 0 {
        turn.count(counter::SELF_REVIVALS);
        revive(turn, unit);
        return true;
    }
    false
}

/// Incapacity ends: back in the fight, without a stance until it takes one.
fn revive<D: Dice>(turn: &mut Turn<'_, Thrum, D>, unit: usize) {
    let c = turn.unit_mut(unit);
    c.state.incapacitated = false;
    c.lingering = false;
    turn.bring_back(unit);
}

/// End of turn: incapacity decay, Wounds and removal; then statuses tick.
/// `was_down`: the unit started the turn incapacitated.
// Always inlined: every turn ends here, and for a unit standing it is two
// status ticks.
#[inline(always)]
fn end_of_turn<D: Dice>(turn: &mut Turn<'_, Thrum, D>, was_down: bool) {
    let me = turn.actor;
    let opts = turn.options();
    if turn.unit(me).state.incapacitated {
        // A unit that fell this turn already decayed on falling; whether it
        // decays again now is `same_turn_decay`.
        let revived = if was_down || opts.same_turn_decay {
            decay(turn, me)
        } else {
            false
        };
        if !revived && turn.unit(me).state.fatigue_tolerance <= opts.wound_tolerance {
            turn.count(counter::WOUNDS);
            let c = turn.unit_mut(me);
            c.state.wounds += 1;
            if c.state.wounds >= opts.wounds_removed {
                // Removed from combat: out for good, no more turns.
                c.state.removed = true;
                c.state.incapacitated = false;
                c.lingering = false;
                turn.count(counter::REMOVALS);
            }
        }
    }
    let s = &mut turn.unit_mut(me).state;
    if opts.vulnerable_ticks {
        s.vulnerable = s.vulnerable.saturating_sub(1);
    }
    s.stunned = s.stunned.saturating_sub(1);
}

/// Whether `attacker` stands beyond a source of cover adjacent to `target`.
/// The text's test (a line through the source, perpendicular to the
/// target–source line; the attacker on its far side) on the front: the
/// source is next to the target on the attacker's side, so an attacker
/// adjacent to the target is never beyond it, and any farther one is.
#[inline]
fn beyond(turn: &Turn<'_, Thrum, impl Dice>, attacker: usize, target: usize) -> bool {
    turn.front_distance(attacker, target) > ADJACENT
}

/// Cover against a physical attack by `attacker`: the target stands in
/// half or three-quarters cover (the scenario's cover is a source adjacent
/// to it on the enemy's side), or, with `character_cover`, another
/// character stands next to it between it and the attacker; either way only
/// from beyond the source.
fn in_cover<D: Dice, const MAP: bool>(
    turn: &Turn<'_, Thrum, D>,
    attacker: usize,
    target: usize,
) -> bool {
    // On a map: the exact rule, from where the units stand (`map::cover`).
    if let Some(g) = ground::<D, MAP>(turn) {
        return map::cover(turn, g, attacker, target) != ThrumCover::None;
    }
    if !beyond(turn, attacker, target) {
        return false;
    }
    if matches!(turn.unit(target).cover, Cover::Half | Cover::ThreeQuarters) {
        return true;
    }
    turn.options().character_cover && character_between(turn, attacker, target)
}

/// A character (of either side, standing or incapacitated: it still
/// occupies its square; not one removed from combat) one square from the
/// target toward the attacker.
fn character_between<D: Dice>(turn: &Turn<'_, Thrum, D>, attacker: usize, target: usize) -> bool {
    let t = turn.unit(target).position;
    let toward = (turn.unit(attacker).position - t).signum();
    (0..turn.enc.n).any(|i| {
        let u = turn.unit(i);
        i != attacker
            && i != target
            && (!u.out || u.state.incapacitated)
            && u.position - t == toward
    })
}

/// Obstructed (full cover): the acting unit cannot target unit `i` from
/// `distance` with `ability`. Only from beyond the cover, and only for the
/// attacks `obstruction` names.
#[inline]
fn obstructed<D: Dice>(
    turn: &Turn<'_, Thrum, D>,
    i: usize,
    distance: i32,
    ability: &Ability,
) -> bool {
    turn.unit(i).cover == Cover::Full
        && distance > ADJACENT
        && (ability.kind == AbilityKind::Physical || turn.options().obstruction == Obstruction::All)
}

/// The acting unit's first (best) ability that reaches unit `i` from
/// `distance` and is not obstructed.
#[inline]
fn usable<D: Dice>(turn: &Turn<'_, Thrum, D>, i: usize, distance: i32) -> Option<Ability> {
    turn.spec(turn.actor)
        .stats
        .abilities()
        .iter()
        .copied()
        .find(|a| distance <= a.range && !obstructed(turn, i, distance, a))
}

// A turn's functions take `MAP` (whether the fight is on a map), settled
// once per cell in the unit's `Plan` (trenches' pattern): on the front the
// measures below are the front's arithmetic, with no test of the ground
// left in the turn, so the front costs what it did before maps. The map's
// halves live in `map.rs`, out of line.

/// The map, in a turn function playing on one (`MAP`); `None` on the front,
/// at compile time.
#[inline(always)]
fn ground<D: Dice, const MAP: bool>(turn: &Turn<'_, Thrum, D>) -> Option<&'static Ground> {
    if MAP {
        turn.ground()
    } else {
        None
    }
}

/// Distance from the actor to unit `other`: the map's or the front's.
#[inline(always)]
fn apart<D: Dice, const MAP: bool>(turn: &Turn<'_, Thrum, D>, other: usize) -> i32 {
    if let Some(g) = ground::<D, MAP>(turn) {
        map::apart(turn, g, other)
    } else {
        turn.front_distance(turn.actor, other)
    }
}

/// The acting unit can attack unit `i` from where it stands.
#[inline]
fn attackable<D: Dice, const MAP: bool>(turn: &Turn<'_, Thrum, D>, i: usize) -> bool {
    if let Some(g) = ground::<D, MAP>(turn) {
        // Out of every ability's range (most enemies, most turns): no call.
        return map::apart(turn, g, i) <= turn.spec(turn.actor).stats.kit.max_range
            && map::usable(turn, g, i).is_some();
    }
    usable(turn, i, apart::<D, MAP>(turn, i)).is_some()
}

/// Move and take an Action by the unit's plan; returns true if it took an
/// Action. A Stunned unit moves or acts, not both.
#[inline(always)]
fn move_and_act<D: Dice>(turn: &mut Turn<'_, Thrum, D>) -> bool {
    let me = turn.actor;
    let unit = turn.unit(me);
    let stunned = unit.state.stunned > 0 || unit.conditions.has(Condition::Stunned);
    if stunned && turn.options().stunned == Stunned::LoseTurn {
        return false;
    }
    if turn.spec(me).stats.resuscitate && resuscitate(turn, stunned) {
        return true;
    }
    let start = turn.unit(me).position;
    // The tactic and the map in one: below it, `MAP` is a constant.
    let plan = turn.spec(me).stats.plan;
    let acted = match plan {
        Plan::Advance => advance::<D, false>(turn, stunned),
        Plan::Hold => hold::<D, false>(turn),
        Plan::KeepRange => keep_range::<D, false>(turn, stunned),
        Plan::AdvanceOnMap | Plan::HoldOnMap | Plan::KeepRangeOnMap => {
            return plan_on_map(turn, plan, stunned, start);
        }
    };
    if acted {
        return true;
    }
    // Nothing standing to attack: a unit that may still act strikes a
    // fallen enemy it can reach (a Stunned one that moved may not).
    let moved = turn.unit(me).position != start;
    turn.spec(me).stats.strike_downed && !(stunned && moved) && strike_downed::<D, false>(turn)
}

/// [`move_and_act`]'s map half, out of line and cold: the front's turn,
/// inlined into the fight loop, keeps only the test of the plan (the map's
/// copies of the tactics inlined there cost the front a few instructions a
/// turn, and a percent of a fight).
#[inline(never)]
#[cold]
fn plan_on_map<D: Dice>(
    turn: &mut Turn<'_, Thrum, D>,
    plan: Plan,
    stunned: bool,
    start: i32,
) -> bool {
    let me = turn.actor;
    let acted = match plan {
        Plan::AdvanceOnMap => advance::<D, true>(turn, stunned),
        Plan::HoldOnMap => hold::<D, true>(turn),
        _ => keep_range::<D, true>(turn, stunned),
    };
    if acted {
        return true;
    }
    let moved = turn.unit(me).position != start;
    turn.spec(me).stats.strike_downed && !(stunned && moved) && strike_downed::<D, true>(turn)
}

/// Attack the incapacitated enemy in reach with the least Fatigue Load (the
/// nearest to reviving: a hit keeps it down longer); true if it did.
fn strike_downed<D: Dice, const MAP: bool>(turn: &mut Turn<'_, Thrum, D>) -> bool {
    let me = turn.actor;
    let side = turn.unit(me).side;
    let mut best: Option<(i32, usize, Ability)> = None;
    for i in 0..turn.enc.n {
        let u = turn.unit(i);
        if u.side == side || !u.state.incapacitated {
            continue;
        }
        let load = u.state.fatigue_load;
        if best.is_some_and(|(l, _, _)| l <= load) {
            continue;
        }
        let ability = match ground::<D, MAP>(turn) {
            Some(g) => map::usable(turn, g, i).copied(),
            None => usable(turn, i, apart::<D, MAP>(turn, i)),
        };
        if let Some(ability) = ability {
            best = Some((load, i, ability));
        }
    }
    let Some((_, target, ability)) = best else {
        return false;
    };
    if let Some(g) = ground::<D, MAP>(turn) {
        return map::use_ability(turn, g, target, &ability);
    }
    strike::<D, false, MAP>(turn, target, &ability);
    true
}

/// Resuscitate the nearest incapacitated ally it can reach this turn
/// (moving within `resuscitate_reach` of it first unless `in_place`: Stunned,
/// or after an Action). Returns true if it did. Inlined into the turn, as it
/// was before the further Actions of `actions` called it too: out of line it
/// cost thrum_skirmish a tenth more instructions per fight.
#[inline(always)]
fn resuscitate<D: Dice>(turn: &mut Turn<'_, Thrum, D>, in_place: bool) -> bool {
    let me = turn.actor;
    let touch = turn.options().resuscitate_reach;
    let reach = if in_place {
        touch
    } else {
        turn.spec(me).stats.speed + touch
    };
    let mut best: Option<(i32, usize)> = None;
    // An incapacitated ally is out of the fight: only those are scanned (on
    // most turns, none).
    for ally in Bits(turn.allies() & !turn.in_fight()) {
        let d = turn.distance(me, ally);
        if turn.unit(ally).state.incapacitated && d <= reach && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, ally));
        }
    }
    let Some((_, ally)) = best else {
        return false;
    };
    let speed = turn.spec(me).stats.speed;
    turn.approach(ally, speed, touch);
    turn.count(counter::RESUSCITATIONS);
    turn.note_that(ally, "resuscitates");
    revive(turn, ally);
    if turn.options().resuscitation == Resuscitation::Halve {
        let s = &mut turn.unit_mut(ally).state;
        s.fatigue_load /= 2;
        s.stress_load /= 2;
        s.vulnerable = 0;
        s.stunned = 0;
    }
    true
}

/// The Actions after the first (`actions` above 1; the text: one Action a
/// turn), each taken where the unit stands ("once a character stops moving
/// to take an action, they cannot continue moving"): Resuscitate an ally in
/// reach, else attack what it can reach, else strike a fallen enemy; each
/// followed, if Exhausted, by an Incapacity Roll. Stops when the unit is
/// down or has nothing to do. A Stunned unit got here by acting without
/// moving: it takes them all.
#[inline(never)]
fn further_actions<D: Dice, const MAP: bool>(turn: &mut Turn<'_, Thrum, D>, actions: u8) {
    let me = turn.actor;
    for _ in 1..actions {
        if turn.unit(me).out {
            return;
        }
        let stats = &turn.enc.units[me].stats;
        let acted = (stats.resuscitate && resuscitate(turn, true))
            || hold::<D, MAP>(turn)
            || (stats.strike_downed && strike_downed::<D, MAP>(turn));
        if !acted {
            return;
        }
        if turn.unit(me).state.exhausted() {
            incapacity_roll(turn, me);
        }
    }
}

/// Attack `target` with the best ability that reaches it from here.
#[inline]
fn attack_if_in_reach<D: Dice, const MAP: bool>(
    turn: &mut Turn<'_, Thrum, D>,
    target: usize,
) -> bool {
    if let Some(g) = ground::<D, MAP>(turn) {
        return map::attack_if_in_reach(turn, g, target);
    }
    match usable(turn, target, apart::<D, MAP>(turn, target)) {
        Some(ability) => {
            strike::<D, false, MAP>(turn, target, &ability);
            true
        }
        None => false,
    }
}

/// Advance: close on the target to the advancing reach (next to it if it is
/// obstructed from there), then attack. Any enemy will do: next to it, no
/// cover obstructs.
fn advance<D: Dice, const MAP: bool>(turn: &mut Turn<'_, Thrum, D>, stunned: bool) -> bool {
    let me = turn.actor;
    let Some(target) = turn.choose_target(|_, _| true) else {
        return false;
    };
    let stats = &turn.enc.units[me].stats;
    let mut reach = stats.kit.advance_reach;
    let distance = apart::<D, MAP>(turn, target);
    if usable(turn, target, reach.min(distance)).is_none() {
        reach = ADJACENT;
    }
    let mut close = distance > reach;
    if let Some(g) = ground::<D, MAP>(turn) {
        (reach, close) = map::closing(turn, g, target, reach);
    }
    if close {
        if stunned && attack_if_in_reach::<D, MAP>(turn, target) {
            return true;
        }
        turn.approach(target, stats.speed, reach);
        if stunned {
            return false;
        }
    }
    attack_if_in_reach::<D, MAP>(turn, target)
}

/// Hold: stay put, attack whatever it can from here.
#[inline(always)]
fn hold<D: Dice, const MAP: bool>(turn: &mut Turn<'_, Thrum, D>) -> bool {
    match turn.choose_target(attackable::<D, MAP>) {
        Some(target) => attack_if_in_reach::<D, MAP>(turn, target),
        None => false,
    }
}

/// Keep range: step away from adjacent enemies (thrum has no attacks of
/// opportunity), close only to the ranged abilities' range, attack.
fn keep_range<D: Dice, const MAP: bool>(turn: &mut Turn<'_, Thrum, D>, stunned: bool) -> bool {
    let me = turn.actor;
    let stats = &turn.enc.units[me].stats;
    let kit = stats.kit;
    let range = if kit.ranged_range > 0 {
        kit.ranged_range
    } else {
        kit.max_range
    };
    let mut moved = false;
    if !stunned && kit.ranged_range > ADJACENT && turn.enemies_within(me, ADJACENT) != 0 {
        turn.back_off(stats.speed);
        moved = true;
    }
    if let Some(target) = turn.choose_target(attackable::<D, MAP>) {
        return attack_if_in_reach::<D, MAP>(turn, target);
    }
    if moved {
        return false;
    }
    // Close on an enemy it could attack from its range (not one obstructed
    // from there).
    let Some(target) =
        turn.choose_target(|t, i| usable(t, i, range.min(apart::<D, MAP>(t, i))).is_some())
    else {
        return false;
    };
    turn.approach(target, stats.speed, range);
    !stunned && attack_if_in_reach::<D, MAP>(turn, target)
}

mod conformance;
pub mod map;

#[cfg(test)]
mod tests;
