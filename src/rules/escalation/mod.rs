//! `escalation`: the "Combat rules" page (a d20 homebrew with escalating
//! crits), with an action economy of 1 Attack Action, 1 Move Action and 2
//! Bonus Actions, Free Hit Slots, aimed wounds and escalating critical and
//! fumble chains.
//!
//! As written: fixed turn order by descending Agility modifier; a unit that
//! started the fight by attacking (`initiator`) makes that opening attack
//! before the first turn (unless `opening_attack = false`) and then acts
//! last regardless; an attack is d20 + Accuracy modifier ≥ 10 + the
//! target's Agility modifier; flat-footed
//! targets are hit on 5, prone ones on 5 + Agility; flanking and center-mass
//! aim give +1; a natural 20 is a critical (the damage dealt, after armour,
//! ×2), then d4 = 4 a super critical (×4), then d6 = 6 the target is
//! defeated instantly; a natural 1 misses and, inside the target's melee
//! zone, gives it a free hit, then d4 = 4 a free critical hit even without
//! slots, then d6 = 6 the attacker dies. Free Hit Slots per round: Agility
//! plus 1; free hits when an enemy leaves the melee zone (passing through it
//! included) or moves more than 2 spaces in it, or fumbles. A single attack
//! dealing ≥ 6 net damage wounds, with the effect the attacker aimed for.
//!
//! The battlefield is the engine's one-dimensional front measured in spaces;
//! the melee zone is the `reach` spaces around a unit (1: adjacent squares).
//! On a `[map]` (one space a square, Chebyshev) the zone, free hits along
//! the path, flanking from behind and line of sight are geometric
//! ([`map`]).
//!
//! **Smart** (`tactic = "smart"`, issue 30; a policy, not a rule): a unit
//! with a ranged weapon reaching beyond its zone keeps its range, a
//! melee-only one advances (the engine's [`crate::engine::tactic`]); what
//! its ruleset adds, from the text and from what `escalation_duel`'s best
//! plays show strongest:
//! - its Bonus Actions buy the extra attack ("Bonus Actions": the Move
//!   Action and both Bonus Actions for a second attack) when the Move
//!   Action was not needed to move, else +1 to hit each (`extra-attack`:
//!   against the champion's accuracy it wins 0.785, the best reply to 16
//!   of the 20 plays in `reports/escalation_duel-tactics/`);
//! - it aims to weaken ("Wounds/Aiming": −1 Strength and −1 Bonus Action a
//!   turn per wound; the aim of both sides' best play there);
//! - keeping its range, it disengages with both Bonus Actions before it
//!   backs off ("Disengage": leaving zones without free hits;
//!   `escalation_hit_and_run` shows the clean break winning);
//! - targeting `smart` on what a turn most likely deals ([`smart_drops`]).
//!
//! Not done: seeking the square behind a target on a map (flanking comes
//! from where the advance and the focus put units), and a withdrawal near
//! defeat (the text lets a unit "flee the battle", but a unit that leaves
//! is out of the fight, which the win rate counts against its side;
//! `flee_at` stays the side's will to fight).
//!
//! The conformance table (`conformance.rs`, printed by `skirmish
//! rules escalation`) traces every rule of the text to the code and tests.

use super::{StatStep, Step};
use crate::dice::{Dice, DiceExpr};
use crate::engine::{
    Bits, Combatant, Condition, Conditions, Encounter, Fight, InitiativeKind, InitiativeRoll,
    Tactic, Turn, UnitSpec, MAX_UNITS,
};
use crate::results::CounterInfo;
use crate::rules::common::{best_first, provoking_move, Plan};
use crate::rules::field::{Field, FieldError, FieldReader, Kind, Lit};
use crate::rules::{Clause, Ruleset, TurnStep, MAX_WEAPONS};

/// The ruleset marker type.
#[derive(Clone, Copy, Debug, Default)]
pub struct Escalation;

/// Initiative-stat offset that puts initiators after everybody else.
pub const INITIATOR_LAST: i32 = -1_000;
/// Free hits in answer to free hits (a fumbled free hit gives one back) nest
/// at most this deep; the chance of getting here is below 1/20⁴.
pub const MAX_REACTION_DEPTH: u8 = 4;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WeaponKind {
    #[default]
    Melee,
    Ranged,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Weapon {
    /// Its number among the scenario's `[weapons]` tables, in file order:
    /// what a replay names it by.
    pub number: u16,
    pub kind: WeaponKind,
    /// Accuracy bonus with this weapon.
    pub accuracy: i32,
    pub damage: DiceExpr,
    /// Range in spaces (ranged weapons); melee weapons reach the unit's melee
    /// zone, filled in when the unit is compiled.
    pub range: i32,
}

/// What a unit spends its two Bonus Actions on (after standing up, after
/// disengaging and after the extra spaces an advance needs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BonusPolicy {
    /// +1 to hit per Bonus Action, on this turn's attacks.
    #[default]
    Accuracy,
    /// +1 melee damage per Bonus Action, for the rest of the round.
    Damage,
    /// +1 dodge per Bonus Action, until the unit's next turn.
    Dodge,
    /// The Move Action and both Bonus Actions for a second attack (no
    /// Strength modifier) when the Move Action was not needed to move;
    /// otherwise as `accuracy`.
    ExtraAttack,
}

/// Where a unit aims its attacks (the effect applies when the hit wounds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Aim {
    /// No wound effect; +1 to hit.
    #[default]
    CenterMass,
    /// On a wound, a d4 of 4 adds 16 damage.
    Fatal,
    /// On a wound, the target loses 2 spaces of movement and 1 Agility.
    Slowing,
    /// On a wound, the target loses 1 Strength and 1 Bonus Action a turn.
    Weakening,
    /// On a wound, the target loses 1 Accuracy for the battle and 3 more for
    /// the rest of the round.
    Disrupting,
}

/// How a unit leaves an enemy's melee zone when its tactic backs off.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Disengage {
    /// Spend both Bonus Actions (if it still has them), else provoke.
    #[default]
    Bonus,
    /// Spend the Attack Action.
    Attack,
    /// Never: leaving provokes free hits.
    None,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Unit {
    pub hp: i32,
    pub agility: i32,
    pub accuracy: i32,
    pub strength: i32,
    /// Damage reduction per attack.
    pub armor: i32,
    /// Spaces per Move Action.
    pub speed: i32,
    /// Melee zone, in spaces.
    pub reach: i32,
    pub initiator: bool,
    /// Agility points by which the unit delays its turn every round.
    pub delay: i32,
    pub flat_footed: bool,
    pub undetected: bool,
    pub bonus: BonusPolicy,
    pub aim: Aim,
    pub disengage: Disengage,
    /// Weapons, best expected damage first.
    pub weapons: [Weapon; MAX_WEAPONS],
    pub n_weapons: u8,
    /// The longest reach or range among the weapons.
    pub max_range: i32,
    /// How close an advancing unit gets: its melee zone, whatever its
    /// ranged weapons reach (without a melee weapon, its longest range if
    /// that is shorter): it shoots on the way in (issue 30, item 4).
    pub advance_reach: i32,
    /// Has a ranged weapon reaching beyond the melee zone.
    pub ranged: bool,
    /// The turn the unit plays, settled by [`Escalation::prepare_unit`] and
    /// [`Escalation::place_on_map`].
    pub plan: Plan,
}

impl Unit {
    #[inline]
    pub fn weapons(&self) -> &[Weapon] {
        &self.weapons[..self.n_weapons as usize]
    }

    /// The first (best) weapon that reaches `distance`.
    #[inline]
    pub fn weapon_for(&self, distance: i32) -> Option<&Weapon> {
        self.weapons().iter().find(|w| distance <= w.range)
    }
}

/// What a tragedy's free critical hit is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TragedyHit {
    /// Hits without a roll, damage ×2.
    #[default]
    Auto,
    /// Rolled like any attack; if it hits, it is critical (×2 at least).
    Rolled,
}

/// What "attacking a unit from behind" ("Flanking") reads as on a map (on
/// the front, which has no sides to be behind, both are `Outnumbered`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Flanking {
    /// The attacker, in the target's melee zone, stands on the opposite
    /// side of it from another of its enemies in that zone (the one the
    /// target faces: units have no facing of their own).
    #[default]
    Behind,
    /// Any second enemy in the target's melee zone: the front's reading.
    Outnumbered,
}

/// What a critical hit's multiplier doubles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CritMultiplies {
    /// "You double the damage dealt": the net damage, after armour.
    #[default]
    Net,
    /// The damage rolled, before armour is taken off.
    Rolled,
}

#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub nat20_hits: bool,
    pub bonus_stacks: bool,
    pub fumble_needs_zone: bool,
    pub tragedy_hit: TragedyHit,
    pub fatal_bonus_multiplied: bool,
    pub crit_multiplies: CritMultiplies,
    /// A disrupting wound's −3 for the round adds to its −1 for the battle
    /// (−4 that round); default: −3 that round, −1 after.
    pub disrupting_adds: bool,
    /// A unit that starts prone stands up at once, before anybody's turn,
    /// with a Bonus Action of its first turn; false: on its own turn.
    pub stand_off_turn: bool,
    /// A side whose standing units fall to this fraction of its roster or
    /// fewer loses the will to fight; 0 = never.
    pub flee_at: f64,
    /// Initiators make their opening attack before the first turn; false:
    /// they only go last (for comparing with and without the strike).
    pub opening_attack: bool,

    // The numbers the text states, each an option whose default is the
    // text's value (see `OPTIONS` for the sections).
    /// Bonus Actions a turn (2).
    pub bonus_actions: u8,
    /// To hit per Bonus Action spent on accuracy (+1).
    pub bonus_accuracy: i32,
    /// Melee damage per Bonus Action spent on damage, for the round (+1).
    pub bonus_damage: i32,
    /// Dodge per Bonus Action spent on dodging (+1).
    pub bonus_dodge: i32,
    /// Extra spaces per Bonus Action spent on moving (2).
    pub bonus_move: i32,
    /// Bonus Actions that, with the Move Action, buy the extra attack (2).
    pub extra_attack_bonus_actions: u8,
    /// Bonus Actions that disengage (2).
    pub disengage_bonus_actions: u8,
    /// Defence: this + Agility (10).
    pub defence_base: i32,
    /// Flat-footed units are hit on this (5).
    pub flat_footed_defence: i32,
    /// Prone units are hit on this + Agility (5).
    pub prone_defence_base: i32,
    /// Center-mass aim's accuracy bonus (+1).
    pub center_mass_accuracy: i32,
    /// Flanking's accuracy bonus (+1).
    pub flanking_accuracy: i32,
    /// Net damage of a single attack that wounds (6).
    pub wound_threshold: i32,
    /// The fatal aim's die: its top face adds `fatal_bonus` (d4).
    pub fatal_die: u32,
    /// The fatal aim's extra damage (16).
    pub fatal_bonus: i32,
    /// Per slowing wound: spaces per Move Action (2) and Agility (1) lost.
    pub slowing_speed: i32,
    pub slowing_agility: i32,
    /// Per weakening wound: Strength (1) and Bonus Actions a turn (1) lost.
    pub weakening_strength: i32,
    pub weakening_bonus_actions: u8,
    /// Per disrupting wound: Accuracy lost for the battle (1) and in the
    /// round of the wound (3).
    pub disrupting_accuracy: i32,
    pub disrupting_round_accuracy: i32,
    /// Natural rolls at or above which an attack is critical (20), at or
    /// below which it is an auto fail (1).
    pub crit_on: u32,
    pub fumble_on: u32,
    /// Damage multipliers of a critical (2) and a super critical (4).
    pub crit_multiplier: i32,
    pub super_crit_multiplier: i32,
    /// The chain dice: each escalates on its top face. Critical: super
    /// critical (d4), then decisive victory (d6); fumble: tragedy (d4),
    /// then fatal blow (d6).
    pub super_crit_die: u32,
    pub decisive_die: u32,
    pub tragedy_die: u32,
    pub fatal_blow_die: u32,
    /// Free Hit Slots a round: Agility + this (1).
    pub free_hit_slots_base: i32,
    /// Spaces a unit may move inside an enemy's melee zone without
    /// provoking (2).
    pub free_zone_move: i32,
    /// The sneak damage die (d4); 0: none.
    pub sneak_die: u32,
    /// What flanking reads as on a map.
    pub flanking: Flanking,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            nat20_hits: true,
            bonus_stacks: true,
            fumble_needs_zone: true,
            tragedy_hit: TragedyHit::Auto,
            fatal_bonus_multiplied: false,
            crit_multiplies: CritMultiplies::Net,
            disrupting_adds: false,
            stand_off_turn: true,
            flee_at: 0.0,
            opening_attack: true,
            bonus_actions: 2,
            bonus_accuracy: 1,
            bonus_damage: 1,
            bonus_dodge: 1,
            bonus_move: 2,
            extra_attack_bonus_actions: 2,
            disengage_bonus_actions: 2,
            defence_base: 10,
            flat_footed_defence: 5,
            prone_defence_base: 5,
            center_mass_accuracy: 1,
            flanking_accuracy: 1,
            wound_threshold: 6,
            fatal_die: 4,
            fatal_bonus: 16,
            slowing_speed: 2,
            slowing_agility: 1,
            weakening_strength: 1,
            weakening_bonus_actions: 1,
            disrupting_accuracy: 1,
            disrupting_round_accuracy: 3,
            crit_on: 20,
            fumble_on: 1,
            flanking: Flanking::Behind,
            crit_multiplier: 2,
            super_crit_multiplier: 4,
            super_crit_die: 4,
            decisive_die: 6,
            tragedy_die: 4,
            fatal_blow_die: 6,
            free_hit_slots_base: 1,
            free_zone_move: 2,
            sneak_die: 4,
        }
    }
}

/// A round stamp: `round + 1` (so the default 0 never matches a round).
#[inline]
fn stamp(round: u32) -> u32 {
    round + 1
}

/// A stamp of the round a state is saved in, once the exact engine has
/// made it relative ([`Ruleset::forget_round`]): 1, which is no round's
/// stamp (round 0 is never played), so a state holds relative stamps only
/// between `forget_round` and `recall_round`.
const THIS_ROUND: u32 = 1;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct State {
    pub hp: i32,
    /// Slowing wounds: −2 spaces and −1 Agility each.
    pub slowed: u8,
    /// Weakening wounds: −1 Strength and −1 Bonus Action each.
    pub weakened: u8,
    /// Disrupting wounds: −1 Accuracy each, for the battle.
    pub disrupted: u8,
    /// Disrupting wounds taken in the round stamped `disrupted_round`: each
    /// is −3 Accuracy for that round instead of −1 (−4 with
    /// `disrupting_adds`).
    pub disrupted_now: u8,
    pub disrupted_round: u32,
    /// Free hits made in the round stamped `slot_round`.
    pub slots_used: u8,
    pub slot_round: u32,
    /// Melee damage bonus from Bonus Actions, for the round stamped
    /// `damage_round`.
    pub damage_bonus: i32,
    pub damage_round: u32,
    /// Accuracy from Bonus Actions, for the unit's own attacks this turn.
    pub hit_bonus: i32,
    /// Dodge from Bonus Actions, until the unit's next turn.
    pub dodge: i32,
    /// Disengaged for the round stamped here: moving provokes nothing.
    pub disengaged_round: u32,
    /// Seen by the enemy (a unit that starts undetected is seen once it has
    /// attacked).
    pub detected: bool,
    /// Things to do before the first turn of the fight: the initiator's
    /// opening attack, standing up off-turn.
    pub opening: bool,
    pub stand_at_start: bool,
    /// [`before_the_first_turn`] is still to run: set on every unit when
    /// the fight starts, cleared on every unit by it, so that the other
    /// turns of round 1 read one flag of their own instead of scanning the
    /// roster again.
    pub first_turn_pending: bool,
    /// Bonus Actions already spent from the unit's next turn (standing up
    /// off-turn).
    pub owed_bonus: u8,
}

impl State {
    /// Agility modifier after slowing wounds.
    #[inline]
    pub fn agility(&self, unit: &Unit, opts: &Options) -> i32 {
        unit.agility - self.slowed as i32 * opts.slowing_agility
    }

    /// Free Hit Slots left in `round`.
    #[inline]
    pub fn slots_left(&self, unit: &Unit, round: u32, opts: &Options) -> i32 {
        let total = (self.agility(unit, opts) + opts.free_hit_slots_base).max(0);
        let used = if self.slot_round == stamp(round) {
            self.slots_used as i32
        } else {
            0
        };
        total - used
    }
}

/// Indices into [`Escalation::COUNTERS`].
pub mod counter {
    pub const ATTACKS: usize = 0;
    pub const HITS: usize = 1;
    pub const CRITS: usize = 2;
    pub const SUPER_CRITS: usize = 3;
    pub const INSTANT_DEFEATS: usize = 4;
    pub const FUMBLES: usize = 5;
    pub const TRAGEDIES: usize = 6;
    pub const FATAL_FUMBLES: usize = 7;
    pub const FREE_HITS: usize = 8;
    pub const WOUNDS: usize = 9;
    pub const EXTRA_ATTACKS: usize = 10;
    pub const FLED: usize = 11;
}

// Section names of the text, as the conformance table names them.
const INTRO: &str = "Combat rules";
const BONUS: &str = "Bonus Actions";
const WOUNDS: &str = "Wounds/Aiming";
const CRITS: &str = "Auto Fails/Criticals";
const COMBAT_CRITS: &str = "Combat specific Fails/Criticals";
const FREE_HITS: &str = "Free Hits/Free Hit Slots (FHS)";

const KIND_NAMES: &[&str] = &["melee", "ranged"];
const BONUS_NAMES: &[&str] = &["accuracy", "damage", "dodge", "extra-attack"];
const AIM_NAMES: &[&str] = &["center-mass", "fatal", "slowing", "weakening", "disrupting"];
const DISENGAGE_NAMES: &[&str] = &["bonus", "attack", "none"];
const TRAGEDY_NAMES: &[&str] = &["auto", "rolled"];
const CRIT_NAMES: &[&str] = &["net", "rolled"];
const FLANKING_NAMES: &[&str] = &["behind", "outnumbered"];

/// Conditions that stop a unit from acting and make it flat-footed ("tied
/// up, froze, paralyzed and so on").
const HELPLESS: Conditions = Conditions::of(&[
    Condition::Incapacitated,
    Condition::Paralyzed,
    Condition::Restrained,
    Condition::Stunned,
    Condition::Unconscious,
]);

impl Ruleset for Escalation {
    /// Defeated or fled: nothing in these rules brings a unit back.
    #[inline]
    fn gone_for_good(unit: &Combatant<State>) -> bool {
        unit.out && !unit.lingering
    }

    // A square is one space ("Move Action": "traditionally 6 spaces"; the
    // melee zone is "all the squares adjacent to a unit"), diagonals count
    // one (Chebyshev: the zone's eight squares are all one away).
    const MAP_COSTS: Option<crate::map::Costs> = Some(crate::map::Costs::escalation());
    const MAP_SCALE: i32 = 1;
    const MAP_ONLY: &'static [(&'static str, &'static str)] = &[(
        "flanking",
        "the front has no sides to be behind: a second enemy in the melee zone flanks there",
    )];

    const CONFORMANCE: &'static [Clause] = conformance::TABLE;
    const UNMODELLED: &'static [super::Unmodelled] = &[
        super::Unmodelled::cover("the text has no cover rules"),
        super::Unmodelled::condition(Condition::Blinded, "the text has no blinded condition"),
        super::Unmodelled::condition(Condition::Deafened, "the text has no deafened condition"),
        super::Unmodelled::condition(
            Condition::Frightened,
            "the text has no frightened condition",
        ),
        super::Unmodelled::condition(Condition::Grappled, "the text has no grappled condition"),
    ];
    const NAME: &'static str = "escalation";
    const TITLE: &'static str = "Combat rules (a d20 homebrew with escalating crits)";
    const ABOUT: &'static str = "The \"Combat rules\" page: d20 + Accuracy vs 10 + Agility; \
        fixed order by Agility, the initiator attacks first and then acts last; 1 Attack, \
        1 Move (6 spaces) and 2 Bonus Actions a turn; critical and fumble escalation chains \
        (instant defeat, fatal blow); Free Hit Slots; wounds at 6 net damage with aimed \
        effects; armour as damage reduction. Distances in spaces.";
    const DISTANCE_UNIT: &'static str = "spaces";
    const DEFAULT_INITIATIVE: InitiativeKind = InitiativeKind::Fixed;
    const INITIATIVE_STAT: &'static str = "agility (initiators last)";

    const STEPS: &'static [StatStep] = &[
        StatStep::unit("delay", Step::Not("a policy: how much later it acts")),
        StatStep::weapon(
            "range",
            Step::Except {
                by: 1,
                value: 0,
                means: "no range (a melee weapon)",
            },
        ),
    ];

    const POLICIES: &'static [&'static str] = &["weapons", "bonus", "aim", "disengage", "delay"];
    const UNIT_FIELDS: &'static [Field] = &[
        Field::new("hp", Kind::Int { min: 1, max: 100_000 }, None, "hit points; 0 HP: defeated"),
        Field::int("agility", -10, 20, 0, "Agility modifier: turn order, defence 10 + agility, Free Hit Slots agility + 1"),
        Field::int("accuracy", -10, 20, 0, "Accuracy modifier: added to attack rolls"),
        Field::int("strength", -10, 20, 0, "Strength modifier: added to melee damage (not to the extra attack)"),
        Field::int("armor", 0, 100, 0, "damage reduction per attack (the text names armour without values); wounds count net damage"),
        Field::int("speed", 0, 100, 6, "spaces per Move Action"),
        Field::int("reach", 1, 10, 1, "melee zone in spaces (1 = adjacent squares; the Reach feat: 2); melee weapons reach it"),
        Field::flag("initiator", false, "started the fight by attacking: makes that attack before the first turn (on a target in reach), then acts last whatever its Agility"),
        Field::int("delay", 0, 20, 0, "delays its turn every round: acts as if its Agility modifier were this much lower (0: no delay)"),
        Field::flag("flat_footed", false, "flat-footed all fight (channeling, summoning sickness, ...): hit on 5"),
        Field::flag("undetected", false, "starts undetected: its first attack finds the target flat-footed and adds 1d4 sneak damage"),
        Field::new(
            "bonus",
            Kind::Choice(BONUS_NAMES),
            Some(Lit::Str("accuracy")),
            "Bonus Action policy: +1 to hit each, +1 melee damage each, +1 dodge each, or Move Action + both for an extra attack",
        ),
        Field::new(
            "aim",
            Kind::Choice(AIM_NAMES),
            Some(Lit::Str("center-mass")),
            "aim policy: the wound effect of its attacks (center-mass: none, +1 to hit)",
        ),
        Field::new(
            "disengage",
            Kind::Choice(DISENGAGE_NAMES),
            Some(Lit::Str("bonus")),
            "how it leaves melee zones when backing off: both Bonus Actions, the Attack Action, or not at all (provoking free hits)",
        ),
        Field::new("weapons", Kind::Names(None), None, "weapons carried; the best reaching one is used"),
    ];

    const WEAPON_FIELDS: &'static [Field] = &[
        Field::new(
            "kind",
            Kind::Choice(KIND_NAMES),
            Some(Lit::Str("melee")),
            "melee (reaches the melee zone; Strength and Bonus-Action damage apply) or ranged",
        ),
        Field::int("accuracy", -20, 50, 0, "accuracy bonus with this weapon"),
        Field::new(
            "damage",
            Kind::Dice,
            None,
            "damage dice (the text's Weapons tab is absent), e.g. 1d8",
        ),
        Field::int(
            "range",
            0,
            10_000,
            0,
            "range in spaces (ranged weapons; required > 0 for them)",
        ),
    ];

    const OPTIONS: &'static [Field] = &[
        Field::flag("nat20_hits", true, "a natural 20 hits whatever the target number (it is a critical hit)").section(CRITS),
        Field::flag("bonus_stacks", true, "two Bonus Actions on the same boost give +2 (false: +1)").section(BONUS),
        Field::flag("fumble_needs_zone", true, "the fumble chain (free hit, tragedy, fatal blow) needs the attacker inside the target's melee zone").section(COMBAT_CRITS),
        Field::new(
            "tragedy_hit",
            Kind::Choice(TRAGEDY_NAMES),
            Some(Lit::Str("auto")),
            "a tragedy's free critical hit: auto-hits for ×2 damage, or is rolled and ×2 if it hits",
        )
        .section(COMBAT_CRITS),
        Field::flag("fatal_bonus_multiplied", false, "the fatal aim's +16 is multiplied by criticals (default: added after)").section(WOUNDS),
        Field::new(
            "crit_multiplies",
            Kind::Choice(CRIT_NAMES),
            Some(Lit::Str("net")),
            "what a critical doubles: the damage dealt, after armour (net), or the damage rolled, before armour",
        )
        .section(COMBAT_CRITS),
        Field::flag("disrupting_adds", false, "a disrupting wound's -3 for the round adds to its -1 for the battle (-4 that round; default: -3 that round, -1 after)").section(WOUNDS),
        Field::flag("stand_off_turn", true, "a unit that starts prone stands up at once, off-turn, with a Bonus Action of its first turn (false: on its own turn)").section("Prone"),
        Field::new(
            "flee_at",
            Kind::Float { min: 0.0, max: 1.0 },
            Some(Lit::Float(0.0)),
            "will to fight: a side whose standing units are at most this fraction of its roster flees (0 = fights to the end)",
        )
        .section(INTRO),
        Field::flag("opening_attack", true, "an initiator makes the attack that starts the fight before the first turn (\"Initiative/Initiating\": it \"initiates combat by attacking\"); false: no opening attack, the initiator only acts last").section("Initiative/Initiating"),
        // The numbers the text states (issue 27): defaults are the text's
        // values; reports list them only when a scenario sets them.
        Field::int("bonus_actions", 0, 10, 2, "Bonus Actions a turn (before weakening wounds); more buy more boosts; the text: 2 (\"A turn = 1AA, 1MA, 2BA\")").section(INTRO).quiet(),
        Field::int("bonus_accuracy", 0, 10, 1, "to hit per Bonus Action spent on accuracy, on that turn's attacks; higher: boosted attacks hit more often; the text: +1").section(BONUS).quiet(),
        Field::int("bonus_damage", 0, 10, 1, "melee damage per Bonus Action spent on damage, for the round; higher: harder blows; the text: +1").section(BONUS).quiet(),
        Field::int("bonus_dodge", 0, 10, 1, "dodge (defence) per Bonus Action spent on dodging, until the unit's next turn; higher: harder to hit; the text: +1").section(BONUS).quiet(),
        Field::int("bonus_move", 0, 20, 2, "extra spaces per Bonus Action spent on moving; higher: closes or flees faster; the text: 2").section(BONUS).quiet(),
        Field::int("extra_attack_bonus_actions", 0, 10, 2, "Bonus Actions that, with the Move Action, buy the extra attack (more than a turn has: never); lower: cheaper second attack; the text: 2 (\"both Bonus Actions\")").section(BONUS).quiet(),
        Field::int("disengage_bonus_actions", 0, 10, 2, "Bonus Actions that disengage from melee zones (more than a turn has: never); lower: cheaper clean breaks; the text: 2").section(BONUS).quiet(),
        Field::int("defence_base", 0, 30, 10, "an attack hits if d20 + Accuracy reaches this + the target's Agility (+ dodge); higher: harder to hit; the text: 10").section("Attacking").quiet(),
        Field::int("flat_footed_defence", 0, 30, 5, "the number a flat-footed target (or one attacked while undetected, or helpless) is hit on, whatever its Agility; higher: harder to hit; the text: 5").section("Flat Footed").quiet(),
        Field::int("prone_defence_base", 0, 30, 5, "a prone target is hit on this + its Agility (no dodge); higher: harder to hit; the text: 5").section("Flat Footed").quiet(),
        Field::int("center_mass_accuracy", 0, 10, 1, "to hit with center-mass aim; higher: center mass hits more often; the text: +1").section(WOUNDS).quiet(),
        Field::int("flanking_accuracy", 0, 10, 1, "to hit when flanking (the target has another enemy in its melee zone); higher: ganging up pays more; the text: +1").section("Flanking").quiet(),
        Field::int("wound_threshold", 1, 1000, 6, "net damage of a single attack at or above which it wounds (with the aim's effect); lower: more wounds; the text: 6").section(WOUNDS).quiet(),
        Field::int("fatal_die", 1, 100, 4, "the fatal aim's die: on a wound its top face adds `fatal_bonus` (chance 1 in this); lower: more often; the text: d4 (a 1/4 chance)").section(WOUNDS).quiet(),
        Field::int("fatal_bonus", 0, 1000, 16, "the fatal aim's extra damage; higher: deadlier; the text: 16").section(WOUNDS).quiet(),
        Field::int("slowing_speed", 0, 100, 2, "spaces per Move Action a slowing wound takes off; higher: slower wounded units; the text: 2").section(WOUNDS).quiet(),
        Field::int("slowing_agility", 0, 10, 1, "Agility a slowing wound takes off (defence and Free Hit Slots); higher: easier to hit; the text: 1").section(WOUNDS).quiet(),
        Field::int("weakening_strength", 0, 10, 1, "Strength a weakening wound takes off (melee damage); higher: weaker blows; the text: 1").section(WOUNDS).quiet(),
        Field::int("weakening_bonus_actions", 0, 10, 1, "Bonus Actions a turn a weakening wound takes off; higher: fewer boosts; the text: 1").section(WOUNDS).quiet(),
        Field::int("disrupting_accuracy", 0, 10, 1, "Accuracy a disrupting wound takes off for the battle; higher: worse aim; the text: 1").section(WOUNDS).quiet(),
        Field::int("disrupting_round_accuracy", 0, 20, 3, "Accuracy a disrupting wound takes off in the round of the wound (at least `disrupting_accuracy` unless `disrupting_adds`, which adds the two); higher: worse aim that round; the text: 3").section(WOUNDS).quiet(),
        Field::int("crit_on", 2, 20, 20, "natural d20 at or above which an attack is a critical hit (and hits, with `nat20_hits`); lower: more crits; the text: 20").section(CRITS).quiet(),
        Field::int("fumble_on", 1, 19, 1, "natural d20 at or below which an attack is an auto fail (below `crit_on`); higher: more fumbles; the text: 1").section(CRITS).quiet(),
        Field::int("crit_multiplier", 1, 10, 2, "damage multiplier of a critical hit (and of a tragedy's free critical); higher: harder crits; the text: 2 (\"double the damage\")").section(COMBAT_CRITS).quiet(),
        Field::int("super_crit_multiplier", 1, 100, 4, "damage multiplier of a super critical, in all (at least `crit_multiplier`); higher: harder super crits; the text: 4 (\"double the damage a second time\")").section(COMBAT_CRITS).quiet(),
        Field::int("super_crit_die", 1, 100, 4, "the die a critical rolls: its top face makes it super critical (chance 1 in this); lower: more super crits; the text: d4").section(CRITS).quiet(),
        Field::int("decisive_die", 1, 100, 6, "the die a super critical rolls: its top face defeats the target instantly (chance 1 in this); lower: more instant defeats; the text: d6").section(COMBAT_CRITS).quiet(),
        Field::int("tragedy_die", 1, 100, 4, "the die a fumble rolls: its top face makes it a tragedy, a free critical hit for the target (chance 1 in this); lower: more tragedies; the text: d4").section(CRITS).quiet(),
        Field::int("fatal_blow_die", 1, 100, 6, "the die a tragedy rolls: its top face is a fatal blow, the attacker dies (chance 1 in this); lower: more fatal blows; the text: d6").section(COMBAT_CRITS).quiet(),
        Field::int("free_hit_slots_base", -10, 20, 1, "Free Hit Slots a round = Agility + this (0 or less: none); higher: more free hits; the text: 1").section(FREE_HITS).quiet(),
        Field::int("free_zone_move", 0, 100, 2, "spaces an enemy may move inside a melee zone without provoking a free hit (more provokes); lower: more free hits; the text: 2").section(FREE_HITS).quiet(),
        Field::new(
            "flanking",
            Kind::Choice(FLANKING_NAMES),
            Some(Lit::Str("behind")),
            "on a map, who attacks \"from behind\": `behind`, an attacker in the target's melee zone on the opposite side of it from another enemy in that zone; `outnumbered`, any attacker in the zone while another enemy is in it too (the front's reading); only on a map",
        )
        .section("Flanking")
        .quiet(),
        Field::int("sneak_die", 0, 100, 4, "the sneak damage die of an undetected attacker's attack (multiplied by criticals; 0: none); higher: harder sneak attacks; the text: d4").section("Sneak Damage").quiet(),
    ];

    const COUNTERS: &'static [CounterInfo] = &[
        CounterInfo {
            name: "attacks",
            doc: "attack rolls per fight (extra attacks and free hits included)",
        },
        CounterInfo {
            name: "hits",
            doc: "attacks that hit, per fight",
        },
        CounterInfo {
            name: "crits",
            doc: "natural 20s on attacks, per fight",
        },
        CounterInfo {
            name: "super_crits",
            doc: "criticals that became super criticals (d4 = 4), per fight",
        },
        CounterInfo {
            name: "instant_defeats",
            doc: "targets defeated instantly by a super critical's d6 = 6, per fight",
        },
        CounterInfo {
            name: "fumbles",
            doc: "natural 1s on attacks, per fight",
        },
        CounterInfo {
            name: "tragedies",
            doc: "fumbles that became tragedies (d4 = 4), per fight",
        },
        CounterInfo {
            name: "fatal_fumbles",
            doc: "attackers killed by a tragedy's d6 = 6, per fight",
        },
        CounterInfo {
            name: "free_hits",
            doc: "free hits made, per fight",
        },
        CounterInfo {
            name: "wounds",
            doc: "attacks dealing 6 or more net damage, per fight",
        },
        CounterInfo {
            name: "extra_attacks",
            doc: "extra attacks bought with the Move Action and both Bonus Actions, per fight",
        },
        CounterInfo {
            name: "fled",
            doc: "units that lost the will to fight and fled, per fight",
        },
    ];

    type Weapon = Weapon;
    type Unit = Unit;
    type State = State;
    type Options = Options;

    fn compile_options(f: &impl FieldReader) -> Result<Options, FieldError> {
        let int = |name: &str| -> Result<i32, FieldError> { Ok(f.int(name)? as i32) };
        let opts = Options {
            nat20_hits: f.bool("nat20_hits")?,
            bonus_stacks: f.bool("bonus_stacks")?,
            fumble_needs_zone: f.bool("fumble_needs_zone")?,
            tragedy_hit: [TragedyHit::Auto, TragedyHit::Rolled][f.choice("tragedy_hit")?],
            fatal_bonus_multiplied: f.bool("fatal_bonus_multiplied")?,
            crit_multiplies: [CritMultiplies::Net, CritMultiplies::Rolled]
                [f.choice("crit_multiplies")?],
            disrupting_adds: f.bool("disrupting_adds")?,
            stand_off_turn: f.bool("stand_off_turn")?,
            flee_at: f.float("flee_at")?,
            opening_attack: f.bool("opening_attack")?,
            bonus_actions: int("bonus_actions")? as u8,
            bonus_accuracy: int("bonus_accuracy")?,
            bonus_damage: int("bonus_damage")?,
            bonus_dodge: int("bonus_dodge")?,
            bonus_move: int("bonus_move")?,
            extra_attack_bonus_actions: int("extra_attack_bonus_actions")? as u8,
            disengage_bonus_actions: int("disengage_bonus_actions")? as u8,
            defence_base: int("defence_base")?,
            flat_footed_defence: int("flat_footed_defence")?,
            prone_defence_base: int("prone_defence_base")?,
            center_mass_accuracy: int("center_mass_accuracy")?,
            flanking_accuracy: int("flanking_accuracy")?,
            wound_threshold: int("wound_threshold")?,
            fatal_die: int("fatal_die")? as u32,
            fatal_bonus: int("fatal_bonus")?,
            slowing_speed: int("slowing_speed")?,
            slowing_agility: int("slowing_agility")?,
            weakening_strength: int("weakening_strength")?,
            weakening_bonus_actions: int("weakening_bonus_actions")? as u8,
            disrupting_accuracy: int("disrupting_accuracy")?,
            disrupting_round_accuracy: int("disrupting_round_accuracy")?,
            crit_on: int("crit_on")? as u32,
            fumble_on: int("fumble_on")? as u32,
            crit_multiplier: int("crit_multiplier")?,
            super_crit_multiplier: int("super_crit_multiplier")?,
            super_crit_die: int("super_crit_die")? as u32,
            decisive_die: int("decisive_die")? as u32,
            tragedy_die: int("tragedy_die")? as u32,
            fatal_blow_die: int("fatal_blow_die")? as u32,
            free_hit_slots_base: int("free_hit_slots_base")?,
            free_zone_move: int("free_zone_move")?,
            sneak_die: int("sneak_die")? as u32,
            flanking: [Flanking::Behind, Flanking::Outnumbered][f.choice("flanking")?],
        };
        // Numbers that must agree with each other.
        if opts.fumble_on >= opts.crit_on {
            return Err(f.error(
                "fumble_on",
                format!(
                    "an auto fail must be below a critical: `fumble_on` must be from 1 to {} \
                     (below `crit_on` = {}), found {}",
                    opts.crit_on - 1,
                    opts.crit_on,
                    opts.fumble_on
                ),
            ));
        }
        if opts.super_crit_multiplier < opts.crit_multiplier {
            return Err(f.error(
                "super_crit_multiplier",
                format!(
                    "a super critical is at least a critical: `super_crit_multiplier` must be \
                     from {} (`crit_multiplier`) to 100, found {}",
                    opts.crit_multiplier, opts.super_crit_multiplier
                ),
            ));
        }
        if !opts.disrupting_adds && opts.disrupting_round_accuracy < opts.disrupting_accuracy {
            return Err(f.error(
                "disrupting_round_accuracy",
                format!(
                    "the round of a disrupting wound costs at least what the battle does: \
                     `disrupting_round_accuracy` must be from {} (`disrupting_accuracy`) to 20, \
                     found {} (or set `disrupting_adds = true`, which adds the two)",
                    opts.disrupting_accuracy, opts.disrupting_round_accuracy
                ),
            ));
        }
        Ok(opts)
    }

    fn number_weapon(weapon: &mut Weapon, number: u16) {
        weapon.number = number;
    }

    fn compile_weapon(f: &impl FieldReader) -> Result<Weapon, FieldError> {
        let kind = [WeaponKind::Melee, WeaponKind::Ranged][f.choice("kind")?];
        let range = f.int("range")? as i32;
        if kind == WeaponKind::Ranged && range == 0 {
            return Err(f.error("range", "a ranged weapon needs a range in spaces (> 0)"));
        }
        Ok(Weapon {
            number: 0,
            kind,
            accuracy: f.int("accuracy")? as i32,
            damage: f.dice("damage")?,
            range,
        })
    }

    fn compile_unit(f: &impl FieldReader, weapons: &[Weapon]) -> Result<Unit, FieldError> {
        let reach = f.int("reach")? as i32;
        let mut unit = Unit {
            hp: f.int("hp")? as i32,
            agility: f.int("agility")? as i32,
            accuracy: f.int("accuracy")? as i32,
            strength: f.int("strength")? as i32,
            armor: f.int("armor")? as i32,
            speed: f.int("speed")? as i32,
            reach,
            initiator: f.bool("initiator")?,
            delay: f.int("delay")? as i32,
            flat_footed: f.bool("flat_footed")?,
            undetected: f.bool("undetected")?,
            bonus: [
                BonusPolicy::Accuracy,
                BonusPolicy::Damage,
                BonusPolicy::Dodge,
                BonusPolicy::ExtraAttack,
            ][f.choice("bonus")?],
            aim: [
                Aim::CenterMass,
                Aim::Fatal,
                Aim::Slowing,
                Aim::Weakening,
                Aim::Disrupting,
            ][f.choice("aim")?],
            disengage: [Disengage::Bonus, Disengage::Attack, Disengage::None]
                [f.choice("disengage")?],
            ..Unit::default()
        };
        if weapons.is_empty() {
            return Err(f.error("weapons", "a unit needs at least one weapon to fight"));
        }
        (unit.weapons, unit.n_weapons) = best_first(weapons, |w| w.damage.mean());
        for w in &mut unit.weapons {
            if w.kind == WeaponKind::Melee {
                w.range = reach;
            }
        }
        let all = unit.weapons;
        let sorted = &all[..unit.n_weapons as usize];
        unit.max_range = sorted.iter().map(|w| w.range).max().unwrap_or(0);
        let melee = sorted.iter().any(|w| w.kind == WeaponKind::Melee);
        // Advancing closes to melee whatever a ranged weapon could hit
        // from farther (README, "The battlefield": advance "closes to melee
        // reach ... on the way it shoots"); a unit with no melee weapon stops
        // at the zone, or at its range if that is shorter.
        unit.advance_reach = if melee {
            reach
        } else {
            reach.min(unit.max_range)
        };
        unit.ranged = sorted
            .iter()
            .any(|w| w.kind == WeaponKind::Ranged && w.range > reach);
        Ok(unit)
    }

    fn describe_unit(u: &Unit) -> String {
        let mut s = format!(
            "{} HP, AGI {:+}, ACC {:+}, STR {:+}",
            u.hp, u.agility, u.accuracy, u.strength
        );
        if u.armor > 0 {
            s.push_str(&format!(", armour {}", u.armor));
        }
        s.push_str(&format!(
            ", BA {}, aim {}",
            BONUS_NAMES[u.bonus as usize], AIM_NAMES[u.aim as usize]
        ));
        if u.initiator {
            s.push_str(", initiator");
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

    /// Ranged weapons reach their range; melee weapons the unit's melee zone
    /// (`reach`), as `compile_unit` fills them in.
    fn weapon_reach(unit: &Unit, weapon: &Weapon) -> Option<i32> {
        Some(match weapon.kind {
            WeaponKind::Melee => unit.reach,
            WeaponKind::Ranged => weapon.range,
        })
    }

    fn roll_initiative<D: Dice>(unit: &Unit, dice: &mut D) -> InitiativeRoll {
        // The text rolls no initiative; for the engine's rolled schemes:
        // d20 + Agility, initiators still last.
        InitiativeRoll {
            total: dice.d20() as i32 + Self::initiative_stat(unit),
            tiebreak: 0,
        }
    }

    fn initiative_stat(unit: &Unit) -> i32 {
        // A delaying unit takes its turn later in each round's lineup, as if
        // slower; the initiator goes last whatever it does.
        unit.agility - unit.delay + if unit.initiator { INITIATOR_LAST } else { 0 }
    }

    fn enter(unit: &mut Combatant<State>, spec: &UnitSpec<Self>, options: &Options) {
        let c = unit.conditions;
        unit.state = State {
            hp: spec.stats.hp,
            detected: !spec.stats.undetected,
            opening: spec.stats.initiator && options.opening_attack,
            stand_at_start: options.stand_off_turn && c.has(Condition::Prone) && !c.any(HELPLESS),
            first_turn_pending: true,
            ..State::default()
        };
    }

    /// Round 1 plays apart: its first turn runs [`before_the_first_turn`]
    /// (read as `round == 1`). Every later round reads the round number
    /// only through the stamps [`State`] holds, which
    /// [`Ruleset::forget_round`] makes relative: they play alike.
    #[inline]
    fn round_class(round: u32) -> u32 {
        u32::from(round == 1)
    }

    /// Stamps of `round` become [`THIS_ROUND`], older ones 0 (no rule
    /// tells an old stamp from none: each is only ever compared with the
    /// current round's). What only a stamp of the current round lets the
    /// rules read (slots used, the damage boost, disrupting wounds of the
    /// round) is cleared with an old stamp, and so is a defeated unit's
    /// whole state (no rule reads it again: nothing heals, and an out unit
    /// neither acts nor is targeted), so that states differing only there
    /// merge.
    fn forget_round(s: &mut State, round: u32) {
        if s.hp <= 0 {
            *s = State::default();
            return;
        }
        let now = stamp(round);
        let relative = |stamp: &mut u32| {
            *stamp = if *stamp == now { THIS_ROUND } else { 0 };
            *stamp != 0
        };
        if !relative(&mut s.slot_round) {
            s.slots_used = 0;
        }
        if !relative(&mut s.damage_round) {
            s.damage_bonus = 0;
        }
        if !relative(&mut s.disrupted_round) {
            s.disrupted_now = 0;
        }
        relative(&mut s.disengaged_round);
    }

    /// [`THIS_ROUND`] stamps become `round`'s again.
    fn recall_round(s: &mut State, round: u32) {
        for stamp_of in [
            &mut s.slot_round,
            &mut s.damage_round,
            &mut s.disrupted_round,
            &mut s.disengaged_round,
        ] {
            if *stamp_of == THIS_ROUND {
                *stamp_of = stamp(round);
            }
        }
    }

    /// Helpless units (tied up, frozen, paralyzed, unconscious, ...) take
    /// their turn but cannot act: under team-alternating activation they
    /// never cost their side an activation.
    #[inline]
    fn can_act(fight: &Fight<Self>, _enc: &Encounter<Self>, unit: usize) -> bool {
        let u = &fight.units[unit];
        !u.out && !u.conditions.any(HELPLESS)
    }

    fn prepare_unit(spec: &mut UnitSpec<Self>, options: &Options) {
        // Smart (see the module doc): the Bonus-Action policy and the aim
        // `escalation_duel`'s best plays show strongest, and a clean break
        // (both Bonus Actions) when keeping range.
        if spec.smart {
            spec.stats.bonus = BonusPolicy::ExtraAttack;
            spec.stats.aim = Aim::Weakening;
            spec.stats.disengage = Disengage::Bonus;
        }
        spec.drops = smart_drops(&spec.stats, options);
        spec.stats.plan = Plan::of(spec.tactic);
    }

    fn place_on_map(spec: &mut UnitSpec<Self>) {
        spec.stats.plan = spec.stats.plan.on_the_map();
    }

    fn take_turn<D: Dice>(turn: &mut Turn<'_, Self, D>) {
        play::<D, false>(turn);
    }

    // In steps for the exact engine: the extra attack (Move Action and both
    // Bonus Actions) is a step of its own, so that fight states merge after
    // the Attack Action: a turn of two attacks costs the outcomes of each,
    // not their product.
    fn begin_turn<D: Dice>(turn: &mut Turn<'_, Self, D>) -> Option<TurnStep> {
        play::<D, true>(turn).map(|(target, bonus)| target as TurnStep | TurnStep::from(bonus) << 8)
    }

    fn step_turn<D: Dice>(turn: &mut Turn<'_, Self, D>, step: TurnStep) -> Option<TurnStep> {
        let (target, bonus) = (step as u8 as usize, (step >> 8) as u8);
        if turn.spec(turn.actor).stats.plan.on_map() {
            extra_attack::<D, true>(turn, target);
        } else {
            extra_attack::<D, false>(turn, target);
        }
        end_turn(turn, bonus);
        None
    }

    fn vitality(unit: &Combatant<State>, spec: &UnitSpec<Self>) -> (u32, u32) {
        (unit.state.hp.max(0) as u32, spec.stats.hp as u32)
    }
}

/// What a unit's turn most likely deals, for smart targeting
/// ([`UnitSpec::drops`]): its best weapon's mean damage (plus Strength for
/// a melee weapon) times the chance that the attack hits the usual target
/// number (`defence_base`, an Agility +0 target: "Attacking"), a natural
/// `crit_on` or more doubling it (`crit_multiplier`; the chains beyond it
/// left out) and a natural `fumble_on` or less missing; with the
/// Bonus-Action policy's trade: `accuracy` adds its boost to the roll,
/// `damage` to a melee weapon's damage, `extra-attack` a second attack
/// without Strength ("Bonus Actions"), when a turn has the Bonus Actions
/// for it; center-mass aim adds its +1. Before the target's armour (its
/// stat block settles that; smart reads one number per attacker). Rounded
/// down.
pub(crate) fn smart_drops(u: &Unit, opts: &Options) -> u32 {
    let Some(w) = u.weapons().first() else {
        return 0;
    };
    let melee = w.kind == WeaponKind::Melee;
    let boosts = boost(opts.bonus_actions, opts.bonus_stacks);
    let extra = u.bonus == BonusPolicy::ExtraAttack
        && opts.bonus_actions >= opts.extra_attack_bonus_actions;
    let mut accuracy = u.accuracy + w.accuracy;
    if u.aim == Aim::CenterMass {
        accuracy += opts.center_mass_accuracy;
    }
    let mut bonus_damage = 0;
    match u.bonus {
        BonusPolicy::Accuracy => accuracy += boosts * opts.bonus_accuracy,
        BonusPolicy::ExtraAttack if !extra => accuracy += boosts * opts.bonus_accuracy,
        BonusPolicy::Damage if melee => bonus_damage = boosts * opts.bonus_damage,
        _ => {}
    }
    let strength = if melee { u.strength } else { 0 };
    let base = w.damage.mean();
    // Expected damage of one attack dealing `damage` on a hit: the d20's
    // faces, each 1/20.
    let attack = |damage: f64| -> f64 {
        let damage = damage.max(0.0);
        (1..=20u32)
            .map(|n| {
                if n <= opts.fumble_on {
                    0.0
                } else if n >= opts.crit_on
                    && (opts.nat20_hits || n as i32 + accuracy >= opts.defence_base)
                {
                    damage * opts.crit_multiplier as f64
                } else if n as i32 + accuracy >= opts.defence_base {
                    damage
                } else {
                    0.0
                }
            })
            .sum::<f64>()
            / 20.0
    };
    let mut total = attack(base + (strength + bonus_damage) as f64);
    if extra {
        total += attack(base);
    }
    // A hair over, so that an exact whole number is not floored below.
    (total + 1e-9).floor().max(0.0) as u32
}

/// A unit's turn ([`Ruleset::take_turn`]); in `STEPS` (the exact engine's
/// [`Ruleset::begin_turn`]) it stops before an extra attack it bought and
/// returns what the rest of the turn needs: the Attack Action's target and
/// the Bonus Actions left ([`Escalation::step_turn`] plays the rest).
#[inline(always)]
fn play<D: Dice, const STEPS: bool>(turn: &mut Turn<'_, Escalation, D>) -> Option<(usize, u8)> {
    {
        let me = turn.actor;
        if turn.unit(me).state.first_turn_pending && turn.fight.round == 1 {
            before_the_first_turn(turn);
            if turn.unit(me).out {
                return None;
            }
        }
        let (weakened, owed) = {
            let s = &mut turn.unit_mut(me).state;
            s.dodge = 0;
            s.hit_bonus = 0;
            (s.weakened, std::mem::take(&mut s.owed_bonus))
        };
        if turn.unit(me).conditions.any(HELPLESS) {
            return None;
        }
        let opts = turn.options();
        let lost = weakened.saturating_mul(opts.weakening_bonus_actions);
        let mut eco = Economy {
            attack: true,
            moves: true,
            bonus: opts.bonus_actions.saturating_sub(lost).saturating_sub(owed),
        };
        if loses_will(turn) {
            flee(turn, &mut eco);
            return None;
        }
        if turn.unit(me).conditions.has(Condition::Prone) {
            // Stand up with the cheapest action left.
            if eco.bonus > 0 {
                eco.bonus -= 1;
            } else {
                eco.moves = false;
            }
            turn.unit_mut(me).conditions.clear(Condition::Prone);
        }
        // The tactic and the map in one: below it, `MAP` is a constant.
        let extra = match turn.spec(me).stats.plan {
            Plan::Advance => advance::<D, STEPS, false>(turn, &mut eco),
            Plan::Hold => hold::<D, STEPS, false>(turn, &mut eco),
            Plan::KeepRange => keep_range::<D, STEPS, false>(turn, &mut eco),
            Plan::AdvanceOnMap => advance::<D, STEPS, true>(turn, &mut eco),
            Plan::HoldOnMap => hold::<D, STEPS, true>(turn, &mut eco),
            Plan::KeepRangeOnMap => keep_range::<D, STEPS, true>(turn, &mut eco),
        };
        if let (true, Some(target)) = (STEPS, extra) {
            return Some((target, eco.bonus));
        }
        end_turn(turn, eco.bonus);
        None
    }
}

/// The end of a turn: Bonus Actions left (`bonus`) on a turn without
/// attacks go to dodging.
#[inline(always)]
fn end_turn<D: Dice>(turn: &mut Turn<'_, Escalation, D>, bonus: u8) {
    let me = turn.actor;
    if !turn.unit(me).out {
        let opts = turn.options();
        let dodge = boost(bonus, opts.bonus_stacks) * opts.bonus_dodge;
        let s = &mut turn.unit_mut(me).state;
        s.dodge += dodge;
        s.hit_bonus = 0;
    }
}

/// What happens before anybody's first turn (run by whichever unit's turn
/// comes first in round 1; it counts as part of round 1): each initiator's
/// opening attack ("initiates combat by attacking before the battle
/// officially starts"), then units that start prone stand up off-turn (with
/// `stand_off_turn`), paying a Bonus Action of their first turn.
#[inline(never)]
fn before_the_first_turn<D: Dice>(turn: &mut Turn<'_, Escalation, D>) {
    for u in 0..turn.enc.n {
        if std::mem::take(&mut turn.unit_mut(u).state.opening) {
            let unit = turn.unit(u);
            if !unit.out && !unit.conditions.any(HELPLESS) {
                if turn.ground().is_some() {
                    turn.as_actor(u, opening_attack::<D, true>);
                } else {
                    turn.as_actor(u, opening_attack::<D, false>);
                }
            }
        }
    }
    for u in 0..turn.enc.n {
        let unit = turn.unit_mut(u);
        unit.state.first_turn_pending = false;
        if std::mem::take(&mut unit.state.stand_at_start) && !unit.out {
            unit.conditions.clear(Condition::Prone);
            unit.state.owed_bonus = 1;
        }
    }
}

/// The initiator's attack that starts the fight: one attack, without moving
/// or Bonus Actions, on a target its weapons reach where it stands (none if
/// nothing is in reach).
fn opening_attack<D: Dice, const MAP: bool>(turn: &mut Turn<'_, Escalation, D>) {
    let stats = &turn.spec(turn.actor).stats;
    let range = stats.max_range;
    let Some(target) =
        turn.choose_target(|t, i| apart::<D, MAP>(t, i) <= range && in_sight::<D, MAP>(t, i))
    else {
        return;
    };
    let distance = apart::<D, MAP>(turn, target);
    if let Some(w) = stats.weapon_for(distance) {
        attack_at::<D, MAP>(turn, target, w, distance, Swing::Main, 0);
    }
}

// A turn's functions take `MAP` (whether the fight is on a map), settled
// once per cell in the unit's `Plan`: on the front the measures below are
// the front's arithmetic, with no test of the ground left in the turn (the
// front costs what it did before maps).

/// Distance from the actor to `other`: the map's or the front's.
#[inline(always)]
fn apart<D: Dice, const MAP: bool>(turn: &Turn<'_, Escalation, D>, other: usize) -> i32 {
    if MAP {
        turn.enemy_distance(other)
    } else {
        turn.front_distance(turn.actor, other)
    }
}

/// Whether the actor sees `other` (always, on the front): on a map an
/// attack needs a line of sight.
#[inline(always)]
fn in_sight<D: Dice, const MAP: bool>(turn: &Turn<'_, Escalation, D>, other: usize) -> bool {
    !MAP || turn.sees(other)
}

/// The actions a unit has left this turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Economy {
    pub attack: bool,
    pub moves: bool,
    pub bonus: u8,
}

/// The bonus `n` Bonus Actions spent on the same boost give.
#[inline]
fn boost(n: u8, stacks: bool) -> i32 {
    if stacks {
        n as i32
    } else {
        n.min(1) as i32
    }
}

/// Spaces per Move Action after slowing wounds.
#[inline]
fn speed(turn: &Turn<'_, Escalation, impl Dice>, i: usize) -> i32 {
    let lost = turn.options().slowing_speed * turn.unit(i).state.slowed as i32;
    (turn.spec(i).stats.speed - lost).max(0)
}

/// Whether the actor's side has lost the will to fight.
fn loses_will<D: Dice>(turn: &Turn<'_, Escalation, D>) -> bool {
    let flee_at = turn.options().flee_at;
    if flee_at <= 0.0 {
        return false;
    }
    let side = turn.unit(turn.actor).side as usize;
    let roster = turn.side_units(side).count_ones() as f64;
    let standing = (turn.side_units(side) & turn.in_fight()).count_ones() as f64;
    standing <= flee_at * roster
}

/// Flee: disengage if it can, move away (provoking free hits otherwise),
/// leave the fight.
// Out of line and rare (only with `flee_at`): the map is tested here, not
// settled by the plan.
#[inline(never)]
fn flee<D: Dice>(turn: &mut Turn<'_, Escalation, D>, eco: &mut Economy) {
    if turn.spec(turn.actor).stats.plan.on_map() {
        flee_on::<D, true>(turn, eco);
    } else {
        flee_on::<D, false>(turn, eco);
    }
}

/// [`flee`], on the front or on a map.
fn flee_on<D: Dice, const MAP: bool>(turn: &mut Turn<'_, Escalation, D>, eco: &mut Economy) {
    let me = turn.actor;
    disengage::<D, MAP>(turn, eco);
    let budget = speed(turn, me) + turn.options().bonus_move * eco.bonus as i32;
    retreat::<D, MAP>(turn, budget);
    if !turn.unit(me).out {
        turn.count(counter::FLED);
        turn.take_out(me);
    }
}

/// Spend what the unit's disengage policy says, if it is in an enemy's
/// melee zone and still has it.
fn disengage<D: Dice, const MAP: bool>(turn: &mut Turn<'_, Escalation, D>, eco: &mut Economy) {
    let me = turn.actor;
    if !in_enemy_zone::<D, MAP>(turn) {
        return;
    }
    let cost = turn.options().disengage_bonus_actions;
    let paid = match turn.spec(me).stats.disengage {
        Disengage::Bonus if eco.bonus >= cost => {
            eco.bonus -= cost;
            true
        }
        Disengage::Attack if eco.attack => {
            eco.attack = false;
            true
        }
        _ => false,
    };
    if paid {
        let round = turn.fight.round;
        turn.unit_mut(me).state.disengaged_round = stamp(round);
    }
}

/// The actor stands in the melee zone of an enemy in the fight.
fn in_enemy_zone<D: Dice, const MAP: bool>(turn: &Turn<'_, Escalation, D>) -> bool {
    turn.enemies()
        .any(|e| apart::<D, MAP>(turn, e) <= turn.spec(e).stats.reach)
}

/// Whether a move from `from` to `to` provokes a free hit from a unit at
/// `at` with a melee zone of `zone` spaces ("Free Hits": "when an enemy
/// moves out of your melee zone or moves more than 2 spaces within your
/// melee zone"): it ends outside the zone after being in it at any point of
/// its path (moving through the zone is moving out of it), or moves more
/// than 2 spaces (`allowance`, option `free_zone_move`) inside it. A unit
/// that has `disengaged` leaves zones without provoking ("Disengage"), but
/// moving more than the allowance inside one still provokes.
#[inline]
pub fn provokes_free_hit(
    from: i32,
    to: i32,
    at: i32,
    zone: i32,
    disengaged: bool,
    allowance: i32,
) -> bool {
    // The part of the path inside the zone: [lo, hi], empty if lo > hi.
    let lo = from.min(to).max(at - zone);
    let hi = from.max(to).min(at + zone);
    let leaves = lo <= hi && (to - at).abs() > zone;
    (leaves && !disengaged) || hi - lo > allowance
}

/// Move the actor with `step`, which returns the movement it spent (in
/// spaces; [`UNKNOWN_MOVE`] when it does not say); enemies whose zone the
/// move provokes take free hits (leaving zones provokes nothing once the
/// actor has disengaged this round).
fn moving<D: Dice, const MAP: bool>(
    turn: &mut Turn<'_, Escalation, D>,
    step: impl FnOnce(&mut Turn<'_, Escalation, D>) -> i32,
) {
    if MAP {
        return map::moving(turn, step);
    }
    let me = turn.actor;
    let round = turn.fight.round;
    let disengaged = turn.unit(me).state.disengaged_round == stamp(round);
    let allowance = turn.options().free_zone_move;
    let side = turn.unit(me).side as usize;
    let watch = turn.in_fight() & !turn.side_units(side);
    let from = turn.unit(me).position;
    let step = |t: &mut Turn<'_, Escalation, D>| {
        step(t);
    };
    let provoked = provoking_move(turn, watch, step, |t, e, from| {
        provokes_free_hit(
            from,
            t.unit(t.actor).position,
            t.unit(e).position,
            t.spec(e).stats.reach,
            disengaged,
            allowance,
        )
    });
    for enemy in Bits(provoked) {
        if turn.unit(me).out {
            return;
        }
        let at = turn.unit(enemy).position;
        let reach = turn.spec(enemy).stats.reach;
        // Struck in the zone as it moves: at the nearest point of its path,
        // within the zone.
        let distance = (from - at)
            .abs()
            .min((turn.unit(me).position - at).abs())
            .min(reach);
        free_hit::<D, false>(turn, enemy, me, distance, Swing::Free, 0);
    }
}

/// What a move that does not count its movement returns to [`moving`]
/// (a retreat: its path is searched anyway).
const UNKNOWN_MOVE: i32 = i32::MAX;

fn retreat<D: Dice, const MAP: bool>(turn: &mut Turn<'_, Escalation, D>, amount: i32) {
    moving::<D, MAP>(turn, |t| {
        t.back_off(amount);
        UNKNOWN_MOVE
    });
}

fn close_in<D: Dice, const MAP: bool>(
    turn: &mut Turn<'_, Escalation, D>,
    target: usize,
    budget: i32,
    stop_at: i32,
) {
    moving::<D, MAP>(turn, |t| t.approach(target, budget, stop_at));
}

/// Advance: close to the melee zone with the Move Action, then with extra
/// spaces (2 per Bonus Action) if that is not enough, unless a ranged
/// weapon reaches the target after the Move Action (it shoots on the way,
/// the Bonus Actions going to the attack; README, "The battlefield"); fight
/// if in reach.
/// Returns an extra attack left for a step of its own (`STEPS`; see
/// [`play`]).
fn advance<D: Dice, const STEPS: bool, const MAP: bool>(
    turn: &mut Turn<'_, Escalation, D>,
    eco: &mut Economy,
) -> Option<usize> {
    let me = turn.actor;
    let target = turn.choose_target(|_, _| true)?;
    let reach = turn.spec(me).stats.advance_reach;
    let gap = apart::<D, MAP>(turn, target) - reach;
    if gap > 0 && eco.moves {
        eco.moves = false;
        let mut budget = speed(turn, me);
        let per_bonus = turn.options().bonus_move;
        let stats = &turn.spec(me).stats;
        // The distance after the Move Action, at the least (on a map a
        // path round something ends farther): a ranged weapon that reaches
        // from there shoots, and the Bonus Actions are not spent on moving.
        let shoots = stats.ranged && gap + reach - budget <= stats.max_range;
        while eco.bonus > 0 && budget < gap && per_bonus > 0 && !shoots {
            eco.bonus -= 1;
            budget += per_bonus;
        }
        close_in::<D, MAP>(turn, target, budget, reach);
        if turn.unit(me).out {
            return None;
        }
    }
    fight_from_here::<D, STEPS, MAP>(turn, eco, Some(target))
}

/// Hold: stay put, fight whatever is in range.
fn hold<D: Dice, const STEPS: bool, const MAP: bool>(
    turn: &mut Turn<'_, Escalation, D>,
    eco: &mut Economy,
) -> Option<usize> {
    fight_from_here::<D, STEPS, MAP>(turn, eco, None)
}

/// Keep range: in an enemy's melee zone, disengage (by policy) and back off
/// a Move Action; out of range of everything, close to range; then fight.
fn keep_range<D: Dice, const STEPS: bool, const MAP: bool>(
    turn: &mut Turn<'_, Escalation, D>,
    eco: &mut Economy,
) -> Option<usize> {
    let me = turn.actor;
    if in_enemy_zone::<D, MAP>(turn) && eco.moves {
        disengage::<D, MAP>(turn, eco);
        eco.moves = false;
        let budget = speed(turn, me);
        retreat::<D, MAP>(turn, budget);
        if turn.unit(me).out {
            return None;
        }
    }
    let range = turn.spec(me).stats.max_range;
    if eco.moves
        && turn
            .choose_target(|t, i| apart::<D, MAP>(t, i) <= range && in_sight::<D, MAP>(t, i))
            .is_none()
    {
        if let Some(t) = turn.choose_target(|_, _| true) {
            eco.moves = false;
            let budget = speed(turn, me);
            close_in::<D, MAP>(turn, t, budget, range);
            if turn.unit(me).out {
                return None;
            }
        }
    }
    fight_from_here::<D, STEPS, MAP>(turn, eco, None)
}

/// Attack from where the unit stands: the preferred target if a weapon
/// reaches it, else one in range. Bonus Actions go by the unit's policy; the
/// extra attack takes another target in range if the first is down (in
/// `STEPS`, it is left to a step of its own: the first target is returned).
// Always inlined into the turn (every turn that attacks runs it): as a
// call, the turn saved and restored its registers around it and passed the
// economy through memory (escalation_duel ran 7.5% more instructions per
// fight).
#[inline(always)]
fn fight_from_here<D: Dice, const STEPS: bool, const MAP: bool>(
    turn: &mut Turn<'_, Escalation, D>,
    eco: &mut Economy,
    preferred: Option<usize>,
) -> Option<usize> {
    let me = turn.actor;
    if !eco.attack {
        return None;
    }
    let stats = &turn.spec(me).stats;
    let range = stats.max_range;
    // On a map an attack needs a line of sight (`in_sight`: always on the
    // front).
    let target = match preferred {
        Some(t) if apart::<D, MAP>(turn, t) <= range && in_sight::<D, MAP>(turn, t) => Some(t),
        _ => turn.choose_target(|t, i| apart::<D, MAP>(t, i) <= range && in_sight::<D, MAP>(t, i)),
    };
    let target = target?;
    // Measured before the Bonus Actions are spent (they move nobody): after
    // their stores the positions were loaded again (escalation_duel ran 3%
    // more instructions per fight).
    let distance = apart::<D, MAP>(turn, target);
    let extra = spend_bonus(turn, eco);
    eco.attack = false;
    if let Some(w) = stats.weapon_for(distance) {
        attack_at::<D, MAP>(turn, target, w, distance, Swing::Main, 0);
    }
    if extra && !turn.unit(me).out {
        if STEPS {
            return Some(target);
        }
        extra_attack::<D, MAP>(turn, target);
    }
    None
}

/// The extra attack, after the Attack Action's on `target`: on it, or on
/// another target in range if it is down.
#[inline(always)]
fn extra_attack<D: Dice, const MAP: bool>(turn: &mut Turn<'_, Escalation, D>, target: usize) {
    let stats = &turn.spec(turn.actor).stats;
    let range = stats.max_range;
    let next = if turn.unit(target).out {
        turn.choose_target(|t, i| apart::<D, MAP>(t, i) <= range && in_sight::<D, MAP>(t, i))
    } else {
        Some(target)
    };
    if let Some(next) = next {
        let distance = apart::<D, MAP>(turn, next);
        if let Some(w) = stats.weapon_for(distance) {
            turn.count(counter::EXTRA_ATTACKS);
            attack_at::<D, MAP>(turn, next, w, distance, Swing::Extra, 0);
        }
    }
}

/// Spend the Bonus Actions left by the unit's policy, before it attacks;
/// true if it bought an extra attack.
// Always inlined into the Attack Action (every turn that attacks spends its
// Bonus Actions first): as a call it cost a register save/restore and the
// economy through memory (escalation_duel ran 3.8% more instructions per
// fight).
#[inline(always)]
pub fn spend_bonus<D: Dice>(turn: &mut Turn<'_, Escalation, D>, eco: &mut Economy) -> bool {
    let me = turn.actor;
    let opts = turn.options();
    let round = turn.fight.round;
    let policy = turn.spec(me).stats.bonus;
    let n = eco.bonus;
    let boosts = boost(n, opts.bonus_stacks);
    let s = &mut turn.fight.units[me].state;
    match policy {
        BonusPolicy::ExtraAttack if eco.moves && n >= opts.extra_attack_bonus_actions => {
            eco.moves = false;
            eco.bonus -= opts.extra_attack_bonus_actions;
            return true;
        }
        BonusPolicy::Accuracy | BonusPolicy::ExtraAttack => {
            s.hit_bonus += boosts * opts.bonus_accuracy
        }
        BonusPolicy::Damage => {
            if s.damage_round != stamp(round) {
                s.damage_bonus = 0;
                s.damage_round = stamp(round);
            }
            s.damage_bonus += boosts * opts.bonus_damage;
        }
        BonusPolicy::Dodge => s.dodge += boosts * opts.bonus_dodge,
    }
    eco.bonus = 0;
    false
}

/// Unit `reactor` takes a free hit on `victim` at `distance`, if it is in the
/// fight, can act, has a weapon that reaches and (for a plain free hit) a
/// Free Hit Slot left. A tragedy's free critical needs no slot (it uses one
/// if any is left).
pub(super) fn free_hit<D: Dice, const MAP: bool>(
    turn: &mut Turn<'_, Escalation, D>,
    reactor: usize,
    victim: usize,
    distance: i32,
    swing: Swing,
    depth: u8,
) {
    let round = turn.fight.round;
    let unit = turn.unit(reactor);
    if unit.out || unit.conditions.any(HELPLESS) || depth >= MAX_REACTION_DEPTH {
        return;
    }
    let stats = &turn.spec(reactor).stats;
    let Some(weapon) = stats.weapon_for(distance) else {
        return;
    };
    let left = unit.state.slots_left(stats, round, turn.options());
    if left <= 0 && swing == Swing::Free {
        return;
    }
    if left > 0 {
        let s = &mut turn.unit_mut(reactor).state;
        if s.slot_round != stamp(round) {
            s.slot_round = stamp(round);
            s.slots_used = 0;
        }
        s.slots_used += 1;
    }
    turn.count(counter::FREE_HITS);
    turn.as_actor(reactor, |t| {
        attack_at::<D, MAP>(t, victim, weapon, distance, swing, depth + 1);
    });
}

/// Which kind of attack is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swing {
    /// The Attack Action.
    Main,
    /// The extra attack (Move Action + both Bonus Actions): no Strength.
    Extra,
    /// A free hit (slot spent by the caller).
    Free,
    /// A tragedy's free critical hit.
    FreeCrit,
}

/// How an attack went (for tests).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AttackResult {
    /// What the d20 is added to: the attacker's accuracy and its
    /// modifiers (0 for an automatic free critical, which rolls none). The
    /// natural roll itself is the dice's: a test knows the one it scripted.
    pub modifier: i32,
    pub target_number: i32,
    pub hit: bool,
    /// Damage multiplier (1, 2 for a critical, 4 for a super critical).
    pub multiplier: i32,
    /// The target was defeated instantly (d6 = 6 after a super critical).
    pub instant_defeat: bool,
    /// Fumble chain level: 0 none, 1 fumble, 2 tragedy, 3 fatal blow.
    pub fumble: u8,
    /// Net damage dealt (after armour), at most the target's hit points.
    pub damage: i32,
    /// The blow's net damage (before any fatal-aim bonus) reached the
    /// wound threshold.
    pub wound: bool,
}

/// What an attack's d20 decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// An auto fail: the fumble chain.
    Fumble,
    Miss,
    Hit,
    /// A critical hit: the critical chain.
    Crit,
}

/// One attack by the actor on `target` at its current distance.
pub fn attack<D: Dice>(
    turn: &mut Turn<'_, Escalation, D>,
    target: usize,
    weapon: &Weapon,
    swing: Swing,
) -> AttackResult {
    let distance = turn.enemy_distance(target);
    if turn.ground().is_some() {
        attack_at::<D, true>(turn, target, weapon, distance, swing, 0)
    } else {
        attack_at::<D, false>(turn, target, weapon, distance, swing, 0)
    }
}

/// The number the attacker's total must reach against `target`: 5 if it is
/// flat-footed (or the attacker is undetected), 5 + Agility if prone, else
/// 10 + Agility + dodge (the text's numbers; options `flat_footed_defence`,
/// `prone_defence_base`, `defence_base`).
pub fn target_number<D: Dice>(turn: &Turn<'_, Escalation, D>, target: usize) -> i32 {
    let t = turn.unit(target);
    let stats = &turn.spec(target).stats;
    let opts = turn.options();
    if stats.flat_footed || t.conditions.any(HELPLESS) || !turn.unit(turn.actor).state.detected {
        opts.flat_footed_defence
    } else if t.conditions.has(Condition::Prone) {
        opts.prone_defence_base + t.state.agility(stats, opts)
    } else {
        opts.defence_base + t.state.agility(stats, opts) + t.state.dodge
    }
}

/// The actor's accuracy modifiers on an attack of this swing at `target`.
// Always inlined into the attack (its one caller): as a call it cost every
// attack roll a register save/restore (escalation_duel ran 4.6% more
// instructions per fight).
#[inline(always)]
fn accuracy<D: Dice, const MAP: bool>(
    turn: &Turn<'_, Escalation, D>,
    target: usize,
    weapon: &Weapon,
    distance: i32,
    swing: Swing,
) -> i32 {
    let me = turn.actor;
    let stats = &turn.spec(me).stats;
    let s = &turn.unit(me).state;
    let opts = turn.options();
    let mut acc = stats.accuracy + weapon.accuracy - s.disrupted as i32 * opts.disrupting_accuracy;
    if s.disrupted_round == stamp(turn.fight.round) {
        // "By 1 for the entire battle and by 3 for the current round": each
        // wound of this round is −3 in all (−1 counted above), or −4 if the
        // two add (`disrupting_adds`).
        let extra = if opts.disrupting_adds {
            opts.disrupting_round_accuracy
        } else {
            opts.disrupting_round_accuracy - opts.disrupting_accuracy
        };
        acc -= extra * s.disrupted_now as i32;
    }
    if matches!(swing, Swing::Main | Swing::Extra) {
        acc += s.hit_bonus;
    }
    if stats.aim == Aim::CenterMass {
        acc += opts.center_mass_accuracy;
    }
    // Flanking ("from behind"): the target has two or more enemies in its
    // melee zone, the attacker among them.
    let zone = turn.spec(target).stats.reach;
    if distance <= zone && flanked::<D, MAP>(turn, target, zone) {
        acc += opts.flanking_accuracy;
    }
    acc
}

/// Whether `target` has two or more enemies in the fight within `zone` of
/// it: [`Turn::flanked`], but a target with fewer than two enemies in the
/// fight (every duel) is answered from the masks alone, and the count stops
/// at the second enemy found instead of measuring every one.
#[inline]
fn flanked<D: Dice, const MAP: bool>(
    turn: &Turn<'_, Escalation, D>,
    target: usize,
    zone: i32,
) -> bool {
    let at = turn.unit(target);
    let foes = turn.in_fight() & !turn.side_units(at.side as usize);
    if foes & foes.wrapping_sub(1) == 0 {
        return false;
    }
    if MAP {
        return map::flanked(turn, target, zone);
    }
    let mut near = 0;
    for e in Bits(foes) {
        if (turn.unit(e).position - at.position).abs() <= zone {
            near += 1;
            if near == 2 {
                return true;
            }
        }
    }
    false
}

/// [`attack`] at a given distance (free hits strike at the distance the
/// mover was in the zone).
// Always inlined into its callers (the Attack Action's, the free hit's, the
// opening attack's): as a call, every attack paid for saving and restoring
// the caller's registers around it, its own prologue and its result through
// memory (escalation_duel ran 2.8% more instructions per fight).
#[inline(always)]
pub fn attack_at<D: Dice, const MAP: bool>(
    turn: &mut Turn<'_, Escalation, D>,
    target: usize,
    weapon: &Weapon,
    distance: i32,
    swing: Swing,
    depth: u8,
) -> AttackResult {
    let me = turn.actor;
    let opts = turn.options();
    let tn = target_number(turn, target);
    let mut r = AttackResult {
        target_number: tn,
        multiplier: 1,
        ..AttackResult::default()
    };
    let sneak = !turn.unit(me).state.detected;
    turn.unit_mut(me).state.detected = true;
    let auto = swing == Swing::FreeCrit && opts.tragedy_hit == TragedyHit::Auto;
    if auto {
        r.hit = true;
        r.multiplier = opts.crit_multiplier;
    } else {
        turn.count(counter::ATTACKS);
        let modifier = accuracy::<D, MAP>(turn, target, weapon, distance, swing);
        r.modifier = modifier;
        // The d20 matters to the rest of the attack only through its
        // verdict, so the exact engine branches 4 ways instead of 20 (the
        // face itself is kept only for a watcher's notes). The closure is
        // inlined for the sampler's dice, which run it once, as for every
        // pool here: left to itself, the compiler kept `escalates`' closure
        // out of line, a call per link of a chain.
        let (verdict, natural) = turn.dice.pool(
            #[inline(always)]
            |d| {
                let natural = d.d20();
                let reaches = natural as i32 + modifier >= tn;
                let verdict = if natural <= opts.fumble_on {
                    Verdict::Fumble
                } else if natural >= opts.crit_on && (opts.nat20_hits || reaches) {
                    Verdict::Crit
                } else if reaches {
                    Verdict::Hit
                } else {
                    Verdict::Miss
                };
                (verdict, if D::WATCHED { natural } else { 0 })
            },
        );
        if verdict == Verdict::Fumble {
            if D::WATCHED {
                let total = natural as i32 + modifier;
                note_attack(turn, target, weapon.number, natural, total, tn, false);
            }
            r.fumble = fumble::<D, MAP>(turn, target, distance, depth);
            return r;
        }
        r.hit = verdict != Verdict::Miss;
        // Out of line and inside `if D::WATCHED`: unwatched, nothing of the
        // note may reach the attack (see `note_attack`).
        if D::WATCHED {
            let total = natural as i32 + modifier;
            note_attack(turn, target, weapon.number, natural, total, tn, r.hit);
        }
        if !r.hit {
            return r;
        }
        if verdict == Verdict::Crit {
            turn.count(counter::CRITS);
            turn.note_that(target, "natural 20: critical hit, damage x2");
            r.multiplier = opts.crit_multiplier;
            if escalates(
                turn,
                target,
                opts.super_crit_die,
                "critical escalation: a d4 of 4 makes it x4",
                true,
            ) {
                turn.count(counter::SUPER_CRITS);
                r.multiplier = opts.super_crit_multiplier;
                if escalates(
                    turn,
                    target,
                    opts.decisive_die,
                    "critical escalation: a d6 of 6 defeats outright",
                    true,
                ) {
                    turn.count(counter::INSTANT_DEFEATS);
                    turn.count(counter::HITS);
                    r.instant_defeat = true;
                    let hp = turn.unit(target).state.hp.max(0);
                    defeat(turn, target, hp);
                    return r;
                }
            }
        }
        if swing == Swing::FreeCrit {
            r.multiplier = r.multiplier.max(opts.crit_multiplier);
        }
    }
    turn.count(counter::HITS);
    (r.damage, r.wound) = damage(turn, target, weapon, swing, sneak, r.multiplier, opts);
    r
}

/// Roll and apply the damage of a hit; returns the net damage dealt (at
/// most the target's hit points) and whether the blow wounds.
// Always inlined into the attack (its one caller): as a call every hit paid
// a register save/restore and its seven arguments (escalation_duel ran 5.4%
// more instructions per fight).
#[inline(always)]
fn damage<D: Dice>(
    turn: &mut Turn<'_, Escalation, D>,
    target: usize,
    weapon: &Weapon,
    swing: Swing,
    sneak: bool,
    multiplier: i32,
    opts: &Options,
) -> (i32, bool) {
    let me = turn.actor;
    let stats = &turn.spec(me).stats;
    let armor = turn.spec(target).stats.armor;
    // The pool reads the fight after rolling its dice, as the damage roll
    // did before it was a pool: loaded before the dice, what it reads held
    // registers across the roll (escalation_duel ran 0.45% more
    // instructions per fight, escalation_hit_and_run 1.4%). Indices are
    // masked as the engine's own accesses are: no bounds check.
    let fight: &Fight<Escalation> = turn.fight;
    // The dice matter only through the net damage, and past the target's
    // hit points only through whether the blow wounds: the exact engine
    // branches once per net damage short of a defeat, and once or twice for
    // all that defeat (the raw roll is kept only for a watcher's notes).
    let (mut net, wound, raw) = turn.dice.pool(
        #[inline(always)]
        |d| {
            let mut raw = weapon.damage.roll(d);
            let s = &fight.units[me & (MAX_UNITS - 1)].state;
            if weapon.kind == WeaponKind::Melee {
                if swing != Swing::Extra {
                    raw += stats.strength - s.weakened as i32 * opts.weakening_strength;
                }
                if s.damage_round == stamp(fight.round) {
                    raw += s.damage_bonus;
                }
            }
            if sneak && opts.sneak_die > 0 {
                raw += d.roll(opts.sneak_die) as i32;
            }
            // "You double the damage dealt": by default the damage that gets
            // through armour ("net damage", as the text counts wounds) is
            // multiplied.
            let net = match opts.crit_multiplies {
                CritMultiplies::Net => (raw - armor).max(0) * multiplier,
                CritMultiplies::Rolled => (raw.max(0) * multiplier - armor).max(0),
            };
            let hp = fight.units[target & (MAX_UNITS - 1)].state.hp;
            let wound = net >= opts.wound_threshold;
            (net.min(hp), wound, if D::WATCHED { raw } else { 0 })
        },
    );
    let hp = turn.unit(target).state.hp;
    if D::WATCHED {
        let rule = if sneak {
            "damage (sneak attack: +1d4)"
        } else {
            "damage"
        };
        turn.note_roll(target, rule, raw);
    }
    if wound {
        turn.count(counter::WOUNDS);
        // The fatal aim's die is rolled on every wound, but adds nothing
        // that matters to a blow that defeats the target already.
        if stats.aim == Aim::Fatal
            && escalates(
                turn,
                target,
                opts.fatal_die,
                "fatal aim: a d4 of 4 adds to a wound",
                net < hp,
            )
        {
            net += if opts.fatal_bonus_multiplied {
                opts.fatal_bonus * multiplier
            } else {
                opts.fatal_bonus
            };
        }
    }
    if net >= hp {
        defeat(turn, target, hp);
        return (hp, wound);
    }
    turn.unit_mut(target).state.hp = hp - net;
    turn.harm(target, net as u32);
    if wound {
        let round = turn.fight.round;
        let t = &mut turn.unit_mut(target).state;
        match stats.aim {
            Aim::CenterMass | Aim::Fatal => {}
            Aim::Slowing => t.slowed += 1,
            Aim::Weakening => t.weakened += 1,
            Aim::Disrupting => {
                t.disrupted += 1;
                if t.disrupted_round != stamp(round) {
                    t.disrupted_round = stamp(round);
                    t.disrupted_now = 0;
                }
                t.disrupted_now += 1;
            }
        }
    }
    (net, wound)
}

/// The actor defeats `target`, removing its last `hp`.
fn defeat<D: Dice>(turn: &mut Turn<'_, Escalation, D>, target: usize, hp: i32) {
    turn.unit_mut(target).state.hp = 0;
    turn.harm(target, hp as u32);
    turn.take_out(target);
}

/// A watched fight hears an attack roll. Out of line: inlined into the
/// attack, even inside `if D::WATCHED`, notes changed how the attack itself
/// compiled (trenches' duel ran 2% more instructions).
#[inline(never)]
fn note_attack<D: Dice>(
    turn: &mut Turn<'_, Escalation, D>,
    target: usize,
    weapon: u16,
    natural: u32,
    total: i32,
    tn: i32,
    hit: bool,
) {
    turn.note_attack(turn.actor, target, weapon);
    let natural = natural as i32;
    let rule = "attack (d20 + Accuracy vs 10 + Agility)";
    turn.note_check(target, rule, natural, total - natural, tn, hit);
}

/// One link of a crit or fumble chain: a die of `sides` that escalates on
/// its highest face. Inlined, as the rolls it replaced were. Where the rules
/// roll it but nothing that follows can depend on it (`matters` false), it
/// answers false (unless watched, for the notes).
#[inline(always)]
fn escalates<D: Dice>(
    turn: &mut Turn<'_, Escalation, D>,
    target: usize,
    sides: u32,
    rule: &'static str,
    matters: bool,
) -> bool {
    // Only the top face escalates: the exact engine branches 2 ways, or
    // once where it does not matter (the face itself is kept only for a
    // watcher's notes).
    let (top, face) = turn.dice.pool(
        #[inline(always)]
        |d| {
            let face = d.roll(sides);
            let top = face == sides && (matters || D::WATCHED);
            (top, if D::WATCHED { face } else { 0 })
        },
    );
    if D::WATCHED {
        turn.note_check(target, rule, face as i32, 0, sides as i32, top);
    }
    top
}

/// The fumble chain after a natural 1 on an attack on `target`: a free hit
/// for the target, a tragedy's free critical, or the attacker's death.
/// Returns the level reached (1 to 3).
fn fumble<D: Dice, const MAP: bool>(
    turn: &mut Turn<'_, Escalation, D>,
    target: usize,
    distance: i32,
    depth: u8,
) -> u8 {
    let me = turn.actor;
    turn.count(counter::FUMBLES);
    let zone = turn.spec(target).stats.reach;
    let opts = turn.options();
    let (tragedy_die, fatal_blow_die) = (opts.tragedy_die, opts.fatal_blow_die);
    if opts.fumble_needs_zone && distance > zone {
        return 1;
    }
    let mut level = 1;
    turn.note_that(target, "natural 1: fumble, a free hit for the target");
    if escalates(
        turn,
        target,
        tragedy_die,
        "fumble escalation: a d4 of 4 makes it a tragedy",
        true,
    ) {
        level = 2;
        turn.count(counter::TRAGEDIES);
        if escalates(
            turn,
            target,
            fatal_blow_die,
            "fumble escalation: a d6 of 6 is a fatal blow",
            true,
        ) {
            level = 3;
        }
    }
    match level {
        3 => {
            // "The unit being attacked delivers a fatal blow": a helpless
            // one (paralyzed, stunned, unconscious, ...) cannot.
            if !turn.unit(target).conditions.any(HELPLESS) {
                turn.count(counter::FATAL_FUMBLES);
                let hp = turn.unit(me).state.hp.max(0);
                turn.as_actor(target, |t| defeat(t, me, hp));
            }
        }
        2 => free_hit::<D, MAP>(turn, target, me, distance, Swing::FreeCrit, depth),
        _ => free_hit::<D, MAP>(turn, target, me, distance, Swing::Free, depth),
    }
    level
}

mod conformance;
mod map;

#[cfg(test)]
mod tests;
