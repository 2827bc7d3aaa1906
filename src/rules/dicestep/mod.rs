//! `dicestep`: the team-alternating dice-step system of the chapter
//! "Combat" (an unnamed game).
//!
//! As written: teams alternate activations, the team that started the fight
//! (the first listed, or the surprising one) opening every round, then the
//! attacked team; a team activates only a member who can act (not down,
//! stunned or surprised: [`Dicestep::can_act`]) and a team out of such
//! members lets the others finish the round. An optional surprise round in
//! which only the surprising team acts (units that `cannot_be_surprised` act
//! anyway; the surprised keep their reaction, which is not an action). Three
//! actions a turn and one reaction a round (recovered at the start of the
//! unit's turn). A test is an attribute die + a skill die + a flat bonus,
//! with a luck die rolled alongside (a d20 by default): a luck roll of 20 or
//! more adds +4 to a normal test. An attack is the weapon's attribute die +
//! the combat die + proficiency − 2 per attack the attacker already made this
//! round, against the target's evasion, hitting on ≥; a luck roll at or above
//! the weapon's critical threshold cannot miss and uses the critical damage;
//! a thrown or projectile attack at a target within 1 m of other characters
//! goes to one of them at random on a luck roll of 1 or less. Sneak attacks
//! (the target is blinded or unconscious) and flanking (enemies within 1 m
//! on opposite sides of the target) give advantage each. Size differences
//! shift evasion and deflection. Damage = test result + weapon damage (or
//! critical damage) − the matching damage reduction (physical:
//! `deflection`, elemental: `elemental_dr`, typeless: none), at least 1;
//! endurance first, then health. Missing health above constitution: fortify
//! (a reaction, 1 stamina, STR + athletics + fortitude vs the missing
//! health) or fall unconscious. Zero health: unconscious; if the damage
//! exceeded the remaining health (and the source is lethal), a luck test ≥ 10
//! or die, the difficulty rising by 5 on each success. Reactions cost
//! stamina: Dodge and Parry are chosen as an attack is declared, before its
//! roll (only Block may wait for the hit); Intercept, Fortify. Items wear
//! (durability) and broken items cannot block or parry; a unit holds one
//! weapon (and its shield), and changing it is a Brandish action.
//!
//! Resuscitate (two actions) brings an unconscious ally back, on its feet
//! (falling unconscious lays nobody prone; `knock_out_prone` does); a killing
//! strike (three actions) can finish an unconscious enemy. Sprint repeats
//! after a Move; Step is a free 1 m move instead of one.
//! Not modelled (see the conformance table): Ready an Action, Interact,
//! Short Task, Drop Item, Resist, objectives.
//!
//! Without a map the one-dimensional front stands in for the grid: melee
//! reaches 1 m, "within 1 m of" a unit is |Δposition| ≤ 1, and a target's
//! two "opposite sides" are below and above its place on the front. On a
//! map (1 m squares, every second diagonal 2 m) those are geometric, and so
//! are line of sight for attacks, Seek Cover and Intercept: see [`map`].

use super::{Contrary, StatStep, Step};
use crate::dice::Dice;
use crate::engine::observe::{Event, NOBODY, NO_TARGET};
use crate::engine::{
    Bits, Combatant, Condition, Conditions, Cover, Encounter, Fight, InitiativeKind,
    InitiativeRoll, Tactic, Turn, UnitSpec, MAX_SIDES,
};
use crate::results::CounterInfo;
use crate::rules::field::{Field, FieldError, FieldReader, Kind, Lit};
use crate::rules::{Clause, Ruleset, TurnStep, MAX_WEAPONS};

/// The ruleset marker type.
#[derive(Clone, Copy, Debug, Default)]
pub struct Dicestep;

/// Melee reach and "adjacent", in metres: the default of the `reach`
/// option (the fight reads the option).
pub const REACH: i32 = 1;
/// Actions per turn: the default of `actions_per_turn`.
pub const ACTIONS: u8 = 3;
/// A normal test with a luck roll at least this adds [`LUCK_BONUS`]: the
/// defaults of `luck_bonus_on` and `luck_bonus`.
pub const LUCK_HIGH: i32 = 20;
pub const LUCK_BONUS: i32 = 4;
/// A thrown or projectile attack with a luck roll at most this misfires:
/// the default of `misfire_on`.
pub const LUCK_LOW: i32 = 1;
/// Multiple attack penalty per earlier attack this round: the default of
/// `multiple_attack_penalty`.
pub const MAP: i32 = 2;
/// The Step free action, metres instead of a move action: the default of
/// `step_distance`.
pub const STEP: i32 = 1;
/// Index of the shield in [`State::durability`].
pub const SHIELD: usize = MAX_WEAPONS;
/// Most surprise rounds the `surprise_rounds` option allows.
pub const MAX_SURPRISE_ROUNDS: u32 = 10;
/// [`State::round_seen`] of a state the exact engine saved, for "this
/// round" ([`Ruleset::forget_round`]); any other round is 0.
const THIS_ROUND: u32 = 1;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WeaponKind {
    #[default]
    Melee,
    Thrown,
    Projectile,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Attribute {
    #[default]
    Str,
    Dex,
    /// Either: the unit uses the bigger of its STR and DEX dice.
    Either,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DamageType {
    Physical,
    Elemental,
    #[default]
    Typeless,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Weapon {
    /// Its number among the scenario's `[weapons]` tables, in file order:
    /// what a replay names it by.
    pub number: u16,
    pub kind: WeaponKind,
    pub attribute: Attribute,
    pub damage: i32,
    pub crit_damage: i32,
    /// Luck roll at or above which the attack is critical.
    pub crit: i32,
    pub damage_type: DamageType,
    /// Reach (melee) or range, metres (a melee weapon's unlisted reach is
    /// the `reach` option, set by [`Dicestep::prepare_unit`]).
    pub range: i32,
    /// `range` was written (not 0): the `reach` option does not replace it.
    pub range_listed: bool,
    /// Actions to reload after each attack (0: none).
    pub reload: u8,
    /// Added to deflection when parrying with it; as written until
    /// [`Dicestep::prepare_unit`] puts the `parry_default` option in for
    /// 0 (unlisted).
    pub parry: i32,
    /// As written until [`Dicestep::prepare_unit`] puts the
    /// `metal_durability` / `other_durability` option in for 0 (unlisted).
    pub durability: i16,
    pub metal: bool,
    pub lethal: bool,
}

/// What a unit spends stamina on when hit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reaction {
    #[default]
    Dodge,
    Parry,
    Block,
    Never,
}

/// What a unit does with actions it has no use for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Leftover {
    #[default]
    Guard,
    Wait,
    Idle,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Unit {
    pub str_die: u32,
    pub dex_die: u32,
    pub combat: u32,
    pub athletics: u32,
    pub proficiency: i32,
    pub fortitude: i32,
    pub evasion: i32,
    pub deflection: i32,
    pub elemental_dr: i32,
    pub endurance: i32,
    pub health: i32,
    pub constitution: i32,
    pub stamina: i32,
    pub focus: i32,
    pub size: i32,
    pub luck: i32,
    /// Sides of the luck die: the `luck_die` option, copied here by
    /// [`Dicestep::prepare_unit`] for initiative, which sees only the unit.
    pub luck_die: u32,
    pub speed: i32,
    pub cannot_be_surprised: bool,
    pub reaction: Reaction,
    pub stamina_reserve: i32,
    pub fortify: bool,
    pub intercept: bool,
    pub command: bool,
    /// Policy: spends two actions to resuscitate an unconscious ally in reach.
    pub resuscitate: bool,
    /// Policy: spends its whole turn on a killing strike at an unconscious
    /// enemy in reach.
    pub killing_strike: bool,
    pub attacks: u8,
    pub leftover: Leftover,
    pub seek_cover: bool,
    pub drop_prone: bool,
    pub sprint: bool,
    /// Shield block value (0: no shield).
    pub shield: i32,
    /// Parry value and durability of the shield, as the weapon's.
    pub shield_parry: i32,
    pub shield_durability: i16,
    pub shield_metal: bool,
    /// The `luck_bonus_on` and `luck_bonus` options, copied here by
    /// [`Dicestep::prepare_unit`] for initiative, which sees only the unit.
    pub luck_high: i32,
    pub luck_bonus: i32,
    /// Weapons, highest damage first.
    pub weapons: [Weapon; MAX_WEAPONS],
    pub n_weapons: u8,
    /// The weapon in hand when the fight starts: the first one the stat
    /// block lists (an index into `weapons`, which is sorted by damage).
    pub first_wielded: u8,
    /// The longest reach or range among the weapons.
    pub max_range: i32,
    /// The longest range among the thrown/projectile weapons (0: none).
    pub ranged_range: i32,
    /// How close an advancing unit gets: its melee reach, or without a
    /// melee weapon the options' melee `reach` (its longest range if that
    /// is shorter): it shoots on the way in.
    pub advance_reach: i32,
}

impl Unit {
    #[inline]
    pub fn weapons(&self) -> &[Weapon] {
        &self.weapons[..self.n_weapons as usize]
    }

    /// Work out `max_range`, `ranged_range` and `advance_reach` from the
    /// weapons and the options' melee `reach`.
    fn set_ranges(&mut self, reach: i32) {
        let n = self.n_weapons as usize;
        let weapons = &self.weapons[..n];
        self.max_range = weapons.iter().map(|w| w.range).max().unwrap_or(0);
        self.ranged_range = weapons
            .iter()
            .filter(|w| w.kind != WeaponKind::Melee)
            .map(|w| w.range)
            .max()
            .unwrap_or(0);
        let melee = weapons
            .iter()
            .filter(|w| w.kind == WeaponKind::Melee)
            .map(|w| w.range)
            .max()
            .unwrap_or(0);
        // Advancing closes to melee whatever a thrown or projectile weapon
        // could hit from farther (issue 30: `advance` means closing in,
        // attacking on the way).
        self.advance_reach = if melee > 0 {
            melee
        } else {
            reach.min(self.max_range)
        };
    }

    #[inline]
    fn attribute_die(&self, a: Attribute) -> u32 {
        match a {
            Attribute::Str => self.str_die,
            Attribute::Dex => self.dex_die,
            Attribute::Either => self.str_die.max(self.dex_die),
        }
    }
}

/// What a unit's turn most likely deals, for smart targeting: its `attacks`
/// a turn with its best weapon, each the mean test result (attribute die +
/// combat die + proficiency − 2 per attack already made, "Attack") plus the
/// weapon's damage ("the result of your test plus the weapon's damage"),
/// before the target's reduction (the target's stat block settles that;
/// smart reads one number per attacker). Dice means rounded down.
pub(crate) fn smart_drops(u: &Unit) -> u32 {
    let Some(w) = u.weapons[..(u.n_weapons as usize).min(MAX_WEAPONS)].first() else {
        return 0;
    };
    let mean = |die: u32| if die == 0 { 0 } else { (die as i32 + 1) / 2 };
    let one = mean(u.attribute_die(w.attribute)) + mean(u.combat) + u.proficiency + w.damage;
    (0..u.attacks.max(1) as i32)
        .map(|k| (one - 2 * k).max(0) as u32)
        .sum()
}

/// How advantage works (the text does not say).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Advantage {
    /// Each die of the pair is rolled once more per level, keeping the best
    /// (worst for disadvantage) of each.
    #[default]
    PerDie,
    /// The whole pair is rolled once more per level, keeping the best total.
    WholeTest,
    /// +2 per level (−2 per level of disadvantage), no extra dice.
    Flat,
}

/// What "surrounded on two opposite sides" means on the one-dimensional
/// front.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Flanking {
    /// Enemies within 1 m on both sides of the target along the front (one
    /// below its place, one above; an enemy at its very place can stand on
    /// either side): the text's "opposite sides".
    #[default]
    OppositeSides,
    /// Any two enemies within 1 m, wherever they stand (the grid's
    /// surrounding, which the front cannot show, assumed).
    AnyTwo,
}

/// When a defender chooses Dodge or Parry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Declare {
    /// When the attack is declared, before its roll (the text lets only
    /// Block wait: "You may decide to block after you would get hit"): the
    /// reaction is spent on misses too.
    #[default]
    BeforeRoll,
    /// Once the attack is known to hit.
    AfterHit,
}

#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub luck_die: u32,
    pub advantage: Advantage,
    pub flanking: Flanking,
    pub declare: Declare,
    /// The side that surprises (only it acts in round 1), if any.
    pub surprise: Option<u8>,
    /// Dodge difficulty; 0: the attack's test result.
    pub dodge_difficulty: i32,
    /// Damage past a blocking item's durability goes through the unit's
    /// damage reduction (true) or straight to it (false).
    pub block_overflow_reduced: bool,
    pub fortify_is_reaction: bool,
    pub fortify_stamina: i32,
    pub cheat_death: i32,
    pub cheat_death_step: i32,
    /// Difficulty of the resuscitate test; 0: the patient's missing health.
    pub resuscitate_difficulty: i32,
    /// A knocked-out unit is also laid prone (not the text: see
    /// [`knock_out`]).
    pub knock_out_prone: bool,
    // The text's own numbers (see `Dicestep::OPTIONS` for each).
    pub surprise_rounds: u32,
    pub actions: u8,
    pub reactions: u8,
    pub command_focus: i32,
    pub command_actions: u8,
    pub guard_bonus: i32,
    pub resuscitate_actions: u8,
    pub sprint_stamina: i32,
    pub wait_reactions: u8,
    pub dodge_stamina: i32,
    pub parry_stamina: i32,
    pub block_stamina: i32,
    pub intercept_stamina: i32,
    pub step: i32,
    pub reach: i32,
    pub luck_high: i32,
    pub luck_bonus: i32,
    pub misfire_on: i32,
    pub misfire_radius: i32,
    pub map: i32,
    pub size_evasion: i32,
    pub size_deflection: i32,
    pub min_damage: i32,
    pub block_min_damage: i32,
    pub parry_default: i32,
    pub parry_wear: i16,
    pub metal_durability: i16,
    pub other_durability: i16,
    pub killing_strike_actions: u8,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            luck_die: 20,
            advantage: Advantage::PerDie,
            flanking: Flanking::OppositeSides,
            declare: Declare::BeforeRoll,
            surprise: None,
            dodge_difficulty: 0,
            block_overflow_reduced: false,
            fortify_is_reaction: true,
            fortify_stamina: 1,
            cheat_death: 10,
            cheat_death_step: 5,
            resuscitate_difficulty: 0,
            knock_out_prone: false,
            surprise_rounds: 1,
            actions: ACTIONS,
            reactions: 1,
            command_focus: 2,
            command_actions: 1,
            guard_bonus: 1,
            resuscitate_actions: 2,
            sprint_stamina: 1,
            wait_reactions: 1,
            dodge_stamina: 1,
            parry_stamina: 1,
            block_stamina: 1,
            intercept_stamina: 1,
            step: STEP,
            reach: REACH,
            luck_high: LUCK_HIGH,
            luck_bonus: LUCK_BONUS,
            misfire_on: LUCK_LOW,
            misfire_radius: 1,
            map: MAP,
            size_evasion: 1,
            size_deflection: 1,
            min_damage: 1,
            block_min_damage: 1,
            parry_default: 1,
            parry_wear: 1,
            metal_durability: 10,
            other_durability: 4,
            killing_strike_actions: 3,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct State {
    pub endurance: i32,
    pub health: i32,
    pub stamina: i32,
    pub focus: i32,
    /// Reactions left until the start of the unit's next turn.
    pub reactions: u8,
    /// Guarding: +1 to defences and defence tests until its next turn.
    pub guarding: bool,
    /// Sought cover: ranged attacks against it have disadvantage.
    pub covered: bool,
    pub harmed: bool,
    pub bloodied: bool,
    pub dead: bool,
    /// Luck test difficulty to cheat death (rises on each success).
    pub death_dc: i32,
    /// Attacks made in round `round_seen` (multiple attack penalty).
    pub attacks_round: u8,
    pub round_seen: u32,
    /// Bit `i`: weapon `i` is loaded.
    pub loaded: u8,
    /// Actions still owed on an extended reload of `reload_weapon`.
    pub reload_left: u8,
    pub reload_weapon: u8,
    /// Item durability: weapons, then the shield at [`SHIELD`].
    pub durability: [i16; MAX_WEAPONS + 1],
    /// The weapon in hand (the shield, if any, is always held); changing
    /// it is a Brandish action.
    pub wielded: u8,
}

/// Indices into [`Dicestep::COUNTERS`].
pub mod counter {
    pub const ATTACKS: usize = 0;
    pub const HITS: usize = 1;
    pub const CRITS: usize = 2;
    pub const MISFIRES: usize = 3;
    pub const DODGES: usize = 4;
    pub const PARRIES: usize = 5;
    pub const BLOCKS: usize = 6;
    pub const FORTIFIED: usize = 7;
    pub const UNCONSCIOUS: usize = 8;
    pub const DEATHS: usize = 9;
    pub const HARMED: usize = 10;
    pub const BLOODIED: usize = 11;
    pub const RESUSCITATED: usize = 12;
    pub const KILLING_STRIKES: usize = 13;
}

const KIND_NAMES: &[&str] = &["melee", "thrown", "projectile"];
const ATTRIBUTE_NAMES: &[&str] = &["str", "dex", "either"];
const DAMAGE_TYPES: &[&str] = &[
    "bludgeoning",
    "piercing",
    "slashing",
    "arcane",
    "cold",
    "fire",
    "radiant",
    "shock",
    "void",
    "psychic",
    "typeless",
];
const REACTION_NAMES: &[&str] = &["dodge", "parry", "block", "never"];
const LEFTOVER_NAMES: &[&str] = &["guard", "wait", "idle"];
const ADVANTAGE_NAMES: &[&str] = &["per-die", "whole-test", "flat"];
const SURPRISE_NAMES: &[&str] = &["none", "first", "second"];
const OVERFLOW_NAMES: &[&str] = &["direct", "reduced"];
const FLANKING_NAMES: &[&str] = &["opposite-sides", "any-two"];
const DECLARE_NAMES: &[&str] = &["before-roll", "after-hit"];

// Sections of the text, as the conformance table names them.
const S_SURPRISE: &str = "Surprise";
const S_ACTIONS: &str = "Actions in Combat";
const S_ACTIONS_TABLE: &str = "Actions in Combat / Table: Actions";
const S_REACTIONS: &str = "Actions in Combat / Table: Reactions";
const S_FREE: &str = "Actions in Combat / Table: Free Actions";
const S_MOVEMENT: &str = "Movement and Distances";
const S_ATTACKS: &str = "Attacks";
const S_BLOCK: &str = "Defensive Actions / Block";
const S_PARRY: &str = "Defensive Actions / Parry";
const S_DAMAGE: &str = "Damage";
const S_DEATH: &str = "Death";

/// Conditions that stop a unit from acting and reacting.
const NO_ACTIONS: Conditions = Conditions::of(&[
    Condition::Incapacitated,
    Condition::Paralyzed,
    Condition::Stunned,
    Condition::Unconscious,
]);

fn damage_type(index: usize) -> DamageType {
    match index {
        0..=2 => DamageType::Physical,
        3..=8 => DamageType::Elemental,
        _ => DamageType::Typeless,
    }
}

impl Ruleset for Dicestep {
    /// Dead: a dead unit never returns or acts (resuscitate brings back
    /// the unconscious, not the dead).
    #[inline]
    fn gone_for_good(unit: &Combatant<State>) -> bool {
        unit.state.dead
    }

    const CONFORMANCE: &'static [Clause] = conformance::TABLE;
    const UNMODELLED: &'static [super::Unmodelled] = &[
        super::Unmodelled::condition(Condition::Deafened, "the text has no deafened condition"),
        super::Unmodelled::condition(
            Condition::Frightened,
            "the text has no frightened condition",
        ),
        super::Unmodelled::condition(Condition::Grappled, "the text has no grappled condition"),
        super::Unmodelled::condition(
            Condition::Restrained,
            "the text has no restrained condition",
        ),
    ];
    const NAME: &'static str = "dicestep";
    const TITLE: &'static str = "Team-alternating dice-step system (\"Combat\")";
    const ABOUT: &'static str = "The chapter \"Combat\" of an unnamed game. Teams alternate \
        activations, the team that started the fight first; three actions and one reaction a \
        round; tests roll an attribute die + a skill die + proficiency with a luck die \
        alongside (crit threshold, +4, misfire); multiple attack penalty; evasion and damage \
        reduction; endurance then health; knock-out and cheat-death luck tests; reactions \
        paid with stamina. Distances in metres.";
    const DISTANCE_UNIT: &'static str = "m";
    // On a map ("Movement and Distances"): "treat every second diagonal
    // space moved as 2m instead of 1m", so a square is 1 m and distances
    // (reach, range, "within 1 m", speed) are the alternating metric's;
    // difficult terrain doubles a step (the text has none: a designer's
    // drawing). See `map.rs` for the geometric rules.
    const MAP_COSTS: Option<crate::map::Costs> = Some(crate::map::Costs::dicestep());
    const MAP_SCALE: i32 = 1;
    const MAP_IGNORES: &'static [(&'static str, &'static str)] = &[(
        "flanking",
        "on a map flanking is geometric: enemies within `reach` of the target on two opposite \
         sides of it (north and south, east and west, or opposite corners)",
    )];
    const DEFAULT_INITIATIVE: InitiativeKind = InitiativeKind::Alternating;
    const INITIATIVE_STAT: &'static str = "dex";

    const HEALTH_STATS: &'static [&'static str] = &["health", "endurance"];
    const CONTRARY_STATS: &'static [Contrary] = &[
        Contrary::unit(
            "health",
            "knock-outs come from missing health above `constitution`, which more health \
             does not delay, and resuscitating is a test against the missing health \
             (`resuscitate_difficulty` 0): more health makes a fallen unit harder to bring back",
        ),
        Contrary::unit(
            "size",
            "\"Attacks\": a larger attacker treats its target's evasion as higher and its \
             deflection as lower: a bigger unit misses more often, and smaller enemies hit \
             it more often",
        ),
        Contrary::weapon(
            "reload",
            "actions spent reloading after each attack: more is a slower weapon",
        ),
        Contrary::weapon(
            "crit",
            "the luck roll a critical needs: a higher threshold crits less often",
        ),
    ];

    const STEPS: &'static [StatStep] = &[
        StatStep::unit("str", Step::DieSize),
        StatStep::unit("dex", Step::DieSize),
        StatStep::unit("combat", Step::DieSize),
        StatStep::unit("athletics", Step::DieSize),
        StatStep::unit(
            "stamina_reserve",
            Step::Not("a policy: stamina it keeps back"),
        ),
        StatStep::unit(
            "attacks",
            Step::Not("a policy: most attacks it makes in a turn"),
        ),
        StatStep::unit(
            "shield",
            Step::Except {
                by: 1,
                value: 0,
                means: "no shield",
            },
        ),
        StatStep::unit(
            "shield_parry",
            Step::Except {
                by: 1,
                value: 0,
                means: "the default parry of +1",
            },
        ),
        StatStep::unit(
            "shield_durability",
            Step::Except {
                by: 1,
                value: 0,
                means: "the unlisted durability",
            },
        ),
        StatStep::weapon(
            "crit_damage",
            Step::Except {
                by: 1,
                value: 0,
                means: "twice damage",
            },
        ),
        StatStep::weapon(
            "range",
            Step::Except {
                by: 1,
                value: 0,
                means: "the kind's default, 1 m reach or unlimited range",
            },
        ),
        StatStep::weapon(
            "parry",
            Step::Except {
                by: 1,
                value: 0,
                means: "the default parry of +1",
            },
        ),
        StatStep::weapon(
            "durability",
            Step::Except {
                by: 1,
                value: 0,
                means: "the unlisted durability",
            },
        ),
    ];
    const POLICIES: &'static [&'static str] = &[
        "weapons",
        "reaction",
        "stamina_reserve",
        "fortify",
        "intercept",
        "resuscitate",
        "killing_strike",
        "attacks",
        "leftover",
        "seek_cover",
        "drop_prone",
        "sprint",
    ];
    const UNIT_FIELDS: &'static [Field] = &[
        Field::int("str", 0, 100, 6, "strength die size (6 = d6; 0 = no die)"),
        Field::int("dex", 0, 100, 6, "dexterity die size"),
        Field::int("combat", 0, 100, 6, "combat skill die size (attacks)"),
        Field::int("athletics", 0, 100, 4, "athletics skill die size (dodge: DEX + athletics; fortify: STR + athletics)"),
        Field::int("proficiency", -10, 20, 1, "flat bonus on attack tests with any of its weapons (the text's \"relevant proficiency\"; one value per unit, not per weapon)"),
        Field::int("fortitude", -10, 20, 0, "flat bonus on fortify tests"),
        Field::new("evasion", Kind::Int { min: 0, max: 100 }, None, "difficulty of attack tests against it"),
        Field::int("deflection", 0, 100, 0, "physical damage reduction"),
        Field::int("elemental_dr", 0, 100, 0, "elemental damage reduction"),
        Field::new("endurance", Kind::Int { min: 0, max: 10_000 }, None, "endurance: damage is dealt here first"),
        Field::new("health", Kind::Int { min: 1, max: 10_000 }, None, "health: damage past endurance; 0 = unconscious"),
        Field::int("constitution", 0, 10_000, 4, "missing health above this: fortify or fall unconscious"),
        Field::int("stamina", 0, 1000, 3, "stamina pool: reactions, fortify and sprint cost 1 each"),
        Field::int("focus", 0, 1000, 0, "focus pool: Command costs 2"),
        Field::int("size", 0, 20, 4, "size (small 3, medium 4): the difference shifts evasion and deflection"),
        Field::int("luck", -20, 20, 0, "modifier to its luck rolls"),
        Field::int("speed", 0, 1000, 6, "metres per Move (the text's value is lost)"),
        Field::flag("cannot_be_surprised", false, "acts in the surprise round even on the surprised team (danger sense)"),
        Field::new(
            "reaction",
            Kind::Choice(REACTION_NAMES),
            Some(Lit::Str("dodge")),
            "policy: the reaction it spends stamina on when attacked (dodge: DEX + athletics vs the attack's result; parry: the weapon in hand or the shield, the better; both chosen before the roll by default; block: its shield, once hit; never)",
        ),
        Field::int("stamina_reserve", 0, 1000, 0, "policy: stamina it keeps back from dodge/parry/block, intercept and sprint (for fortify)"),
        Field::flag("fortify", true, "policy: fortifies against knock-out when it can"),
        Field::flag("intercept", false, "policy: bodyguard: takes attacks aimed at an ally within its speed who has less endurance + health left (reaction, 1 stamina; its defence is then a free reaction)"),
        Field::flag("command", false, "policy: after its first attack of a turn, spends an action and 2 focus to give an ally that has not attacked this round one action"),
        Field::flag("resuscitate", true, "policy: with two actions left and an unconscious (not dead) ally within 1 m, resuscitates it: goes prone, then a STR + athletics test"),
        Field::flag("killing_strike", false, "policy: with all three actions left and an unconscious enemy within the reach of the weapon in hand, spends them on a killing strike"),
        Field::int("attacks", 0, 3, 3, "policy: most attacks it makes in a turn (the multiple attack penalty grows by 2 each)"),
        Field::new(
            "leftover",
            Kind::Choice(LEFTOVER_NAMES),
            Some(Lit::Str("guard")),
            "policy: with actions to spare, end the turn with Guard (+1 defences), Wait (+1 reaction) or nothing",
        ),
        Field::flag("seek_cover", false, "policy: with cover, keeps its last action for Seek Cover (ranged attacks against it at disadvantage); cover acts only through Seek Cover, so `cover` on a unit without it is refused"),
        Field::flag("drop_prone", false, "policy: holding or keeping range with no enemy within 1 m, drops prone (free) and stays down"),
        Field::flag("sprint", true, "policy: sprints (1 stamina each, as often as it can) after moving when its target is still out of reach"),
        Field::int("shield", 0, 100, 0, "shield block value (0: no shield)"),
        Field::int("shield_parry", 0, 100, 0, "shield parry value (0: unlisted: the parry_default option, +1)"),
        Field::int("shield_durability", 0, 1000, 0, "shield durability (0: unlisted: the metal_durability option (10) if shield_metal, else other_durability (4))"),
        Field::flag("shield_metal", false, "the shield is metal (unlisted durability metal_durability, 10, else other_durability, 4)"),
        Field::new("weapons", Kind::Names(None), None, "weapons carried (names of [weapons.NAME] tables); the first listed is in hand at the start; it keeps the one in hand while it reaches, else brandishes (an action) the one with most damage that reaches"),
    ];

    const WEAPON_FIELDS: &'static [Field] = &[
        Field::new("kind", Kind::Choice(KIND_NAMES), Some(Lit::Str("melee")), "melee, thrown or projectile (thrown and projectile attacks can misfire into adjacent units)"),
        Field::new("attribute", Kind::Choice(ATTRIBUTE_NAMES), Some(Lit::Str("str")), "attribute die of the attack test (either: the unit's bigger die)"),
        Field::new("damage", Kind::Int { min: 0, max: 1000 }, None, "damage added to the test result"),
        Field::int("crit_damage", 0, 1000, 0, "critical damage, replacing damage (0: twice damage)"),
        Field::int("crit", 1, 1000, 20, "critical threshold: a luck roll at least this cannot miss and uses crit_damage"),
        Field::new("damage_type", Kind::Choice(DAMAGE_TYPES), Some(Lit::Str("typeless")), "damage type: bludgeoning/piercing/slashing are physical, arcane/cold/fire/radiant/shock/void elemental, psychic and unspecified typeless (no reduction)"),
        Field::int("range", 0, 100_000, 0, "reach or range in metres; 0 = the reach option (1 m) for melee, unlimited otherwise"),
        Field::int("reload", 0, 20, 0, "actions to reload after each attack; may span turns (an extended action)"),
        Field::int("parry", 0, 100, 0, "parry value when parrying with it in hand (0: unlisted: the parry_default option, +1)"),
        Field::int("durability", 0, 1000, 0, "durability (0: unlisted: the metal_durability option (10) if metal, else other_durability (4))"),
        Field::flag("metal", true, "made of metal (unlisted durability metal_durability, 10, else other_durability, 4)"),
        Field::flag("lethal", true, "false: a nonlethal source (overkill does not risk death unless already at 0 health)"),
    ];

    const OPTIONS: &'static [Field] = &[
        Field::int("luck_die", 2, 1000, 20, "size of the luck die (never stated; values up to 20 imply a d20)").section(S_ATTACKS),
        Field::new(
            "advantage",
            Kind::Choice(ADVANTAGE_NAMES),
            Some(Lit::Str("per-die")),
            "advantage (undefined in the text): per-die (each die of the pair rolled once more per level, best kept), whole-test (the pair rerolled, best total), flat (±2 per level)",
        )
        .section(S_ATTACKS),
        Field::new(
            "flanking",
            Kind::Choice(FLANKING_NAMES),
            Some(Lit::Str("opposite-sides")),
            "flanking (\"surrounded on two opposite sides\") on the front: opposite-sides (enemies within `reach` on both sides of the target; one at its place counts for either side) or any-two (any two enemies within `reach`)",
        )
        .section(S_ATTACKS),
        Field::new(
            "declare_reactions",
            Kind::Choice(DECLARE_NAMES),
            Some(Lit::Str("before-roll")),
            "when Dodge and Parry are chosen: before-roll (when the attack is declared; spent on misses too; only Block may wait for the hit, as the text says) or after-hit (by whoever is hit, a misfire's new target included)",
        )
        .section(S_REACTIONS),
        Field::new(
            "surprise",
            Kind::Choice(SURPRISE_NAMES),
            Some(Lit::Str("none")),
            "surprise round: the first or second listed side surprises: it alone acts in the surprise round(s) (except units that cannot_be_surprised) and, having started the fight, opens every round",
        )
        .section(S_SURPRISE),
        Field::int("dodge_difficulty", 0, 100, 0, "Dodge test difficulty (unstated): 0 = the attack's test result, else this number").section(S_REACTIONS),
        Field::new(
            "block_overflow",
            Kind::Choice(OVERFLOW_NAMES),
            Some(Lit::Str("direct")),
            "damage beyond a blocking item's durability: direct (straight to the unit) or reduced (through its damage reduction, at least `min_damage`)",
        )
        .section(S_BLOCK),
        Field::flag("fortify_is_reaction", true, "fortifying against knock-out uses the unit's reaction (as written)").section(S_DAMAGE),
        Field::int("fortify_stamina", 0, 100, 1, "stamina a knock-out fortify costs (the example spends 1)").section(S_DAMAGE),
        Field::int("cheat_death", 0, 1000, 10, "luck test difficulty to cheat death; the text: 10 (higher: more deaths)").section(S_DEATH),
        Field::int("cheat_death_step", 0, 1000, 5, "rise of that difficulty after each success (for the unit, this fight); the text: 5").section(S_DEATH),
        Field::int("resuscitate_difficulty", 0, 100, 0, "difficulty of the resuscitate test (the text gives none); 0: the patient's missing health, as for fortifying").section(S_ACTIONS_TABLE),
        Field::flag("knock_out_prone", false, "a unit falling unconscious (\"Damage\", \"Death\") is also laid prone, so once resuscitated it must Stand Up (an action) and melee attacks on it have advantage until then; default false: the text lays nobody down but by Drop Prone and the rescuer's Resuscitate").section(S_DAMAGE),
        // The text's own numbers, added after the reports were checked in:
        // quiet (listed in a report's options in force only when written).
        Field::int("surprise_rounds", 1, MAX_SURPRISE_ROUNDS as i64, 1, "rounds in which only the surprising side acts (with `surprise`); the text: 1 (\"a whole round\")").section(S_SURPRISE)
        .quiet(),
        Field::int("actions_per_turn", 1, 10, 3, "actions a unit takes each turn; the text: 3 (more: more attacks and moves a turn)").section(S_ACTIONS)
        .quiet(),
        Field::int("reactions_per_round", 0, 10, 1, "reactions a unit recovers at the start of each of its turns; the text: 1 (0: no reactions but an Intercept's free one)").section(S_ACTIONS)
        .quiet(),
        Field::int("command_focus", 0, 100, 2, "focus a Command costs; the text: 2 (more: fewer Commands)").section(S_ACTIONS_TABLE)
        .quiet(),
        Field::int("command_actions", 1, 10, 1, "actions a Command gives the ally; the text: 1").section(S_ACTIONS_TABLE)
        .quiet(),
        Field::int("guard_bonus", 0, 20, 1, "Guard's bonus to all defences (evasion, damage reduction) and defence tests (dodge, fortify) until the unit's next turn; the text: +1").section(S_ACTIONS_TABLE)
        .quiet(),
        Field::int("resuscitate_actions", 1, 10, 2, "actions a Resuscitate takes (at most actions_per_turn); the text: 2").section(S_ACTIONS_TABLE)
        .quiet(),
        Field::int("sprint_stamina", 0, 100, 1, "stamina a Sprint costs; the text: 1 (more: fewer sprints)").section(S_ACTIONS_TABLE)
        .quiet(),
        Field::int("wait_reactions", 0, 10, 1, "extra reactions Wait gives until the unit's next turn; the text: 1").section(S_ACTIONS_TABLE)
        .quiet(),
        Field::int("dodge_stamina", 0, 100, 1, "stamina a Dodge costs; the text: 1").section(S_REACTIONS)
        .quiet(),
        Field::int("parry_stamina", 0, 100, 1, "stamina a Parry costs; the text: 1").section(S_REACTIONS)
        .quiet(),
        Field::int("block_stamina", 0, 100, 1, "stamina a Block costs; the text: 1").section(S_REACTIONS)
        .quiet(),
        Field::int("intercept_stamina", 0, 100, 1, "stamina an Intercept costs (its free defence still pays its own); the text: 1").section(S_REACTIONS)
        .quiet(),
        Field::int("step_distance", 0, 100, 1, "metres of the free Step taken instead of a Move; the text: 1 (0: no Step)").section(S_FREE)
        .quiet(),
        Field::int("reach", 1, 100, 1, "metres: reach of a melee weapon with no `range`, and \"adjacent\" (flanking, resuscitating, dropping prone, backing off); the text's movement rules are lost: 1").section(S_MOVEMENT)
        .quiet(),
        Field::int("luck_bonus_on", 1, 1000, 20, "luck roll (die + luck) at or above which a normal test gains luck_bonus; the text: 20 (\"20 or greater\"; it may exceed the luck die, for units with a luck bonus)").section(S_ATTACKS)
        .quiet(),
        Field::int("luck_bonus", 0, 100, 4, "bonus to a normal test on a luck roll of luck_bonus_on or more; the text: +4").section(S_ATTACKS)
        .quiet(),
        Field::int("misfire_on", 0, 1000, 1, "luck roll (die + luck) at or below which a thrown or projectile attack goes to a random character near the target; the text: 1 (below the luck die's top)").section(S_ATTACKS)
        .quiet(),
        Field::int("misfire_radius", 0, 100, 1, "metres: characters this near a thrown or projectile attack's target may take a misfire; the text: 1").section(S_ATTACKS)
        .quiet(),
        Field::int("multiple_attack_penalty", 0, 20, 2, "penalty to an attack per attack its attacker already made this round; the text: 2").section(S_ATTACKS)
        .quiet(),
        Field::int("size_evasion", 0, 10, 1, "evasion the target gains per size step the attacker is larger (loses per step smaller); the text: 1").section(S_ATTACKS)
        .quiet(),
        Field::int("size_deflection", 0, 10, 1, "damage reduction the target loses per size step the attacker is larger (gains per step smaller; never below 0); the text: 1").section(S_ATTACKS)
        .quiet(),
        Field::int("min_damage", 0, 100, 1, "least damage a hit deals after damage reduction (and a parry); the text: 1 (\"to a minimum of 1\")").section(S_ATTACKS)
        .quiet(),
        Field::int("block_min_damage", 0, 100, 1, "least damage a blocked hit deals to the blocking item after its block value; the text: 1").section(S_BLOCK)
        .quiet(),
        Field::int("parry_default", 0, 100, 1, "parry value of an item with none listed; the text: +1").section(S_PARRY)
        .quiet(),
        Field::int("parry_wear", 0, 100, 1, "durability an item loses on each parry; the text: 1 (more: items break sooner)").section(S_PARRY)
        .quiet(),
        Field::int("metal_durability", 1, 1000, 10, "durability of a metal item with none listed; the text: 10").section(S_PARRY)
        .quiet(),
        Field::int("other_durability", 1, 1000, 4, "durability of a non-metal item with none listed; the text: 4").section(S_PARRY)
        .quiet(),
        Field::int("killing_strike_actions", 1, 10, 3, "actions a killing strike takes (the \"activity action\"; at most actions_per_turn); the text: 3").section(S_DEATH)
        .quiet(),
    ];

    const COUNTERS: &'static [CounterInfo] = &[
        CounterInfo {
            name: "attacks",
            doc: "attack tests made per fight (commanded attacks included)",
        },
        CounterInfo {
            name: "hits",
            doc: "attacks that hit (before reactions), per fight",
        },
        CounterInfo {
            name: "crits",
            doc: "attacks with a luck roll at the weapon's critical threshold",
        },
        CounterInfo {
            name: "misfires",
            doc: "thrown/projectile attacks that went to an adjacent unit on a luck roll ≤ 1",
        },
        CounterInfo {
            name: "dodges",
            doc: "hits avoided by a Dodge",
        },
        CounterInfo {
            name: "parries",
            doc: "Parry reactions",
        },
        CounterInfo {
            name: "blocks",
            doc: "Block reactions",
        },
        CounterInfo {
            name: "fortified",
            doc: "knock-outs resisted by fortifying",
        },
        CounterInfo {
            name: "unconscious",
            doc: "units fallen unconscious (knock-out or 0 health)",
        },
        CounterInfo {
            name: "deaths",
            doc: "units dead of a failed cheat-death luck test or a killing strike",
        },
        CounterInfo {
            name: "harmed",
            doc: "units brought to half endurance or less",
        },
        CounterInfo {
            name: "bloodied",
            doc: "units that lost health",
        },
        CounterInfo {
            name: "resuscitated",
            doc: "unconscious units brought back into the fight by an ally's Resuscitate",
        },
        CounterInfo {
            name: "killing_strikes",
            doc: "unconscious units killed by a killing strike",
        },
    ];

    type Weapon = Weapon;
    type Unit = Unit;
    type State = State;
    type Options = Options;

    fn compile_options(f: &impl FieldReader) -> Result<Options, FieldError> {
        let options = Options {
            luck_die: f.int("luck_die")? as u32,
            advantage: [Advantage::PerDie, Advantage::WholeTest, Advantage::Flat]
                [f.choice("advantage")?],
            flanking: [Flanking::OppositeSides, Flanking::AnyTwo][f.choice("flanking")?],
            declare: [Declare::BeforeRoll, Declare::AfterHit][f.choice("declare_reactions")?],
            surprise: [None, Some(0), Some(1)][f.choice("surprise")?],
            dodge_difficulty: f.int("dodge_difficulty")? as i32,
            block_overflow_reduced: f.choice("block_overflow")? == 1,
            fortify_is_reaction: f.bool("fortify_is_reaction")?,
            fortify_stamina: f.int("fortify_stamina")? as i32,
            cheat_death: f.int("cheat_death")? as i32,
            cheat_death_step: f.int("cheat_death_step")? as i32,
            resuscitate_difficulty: f.int("resuscitate_difficulty")? as i32,
            knock_out_prone: f.bool("knock_out_prone")?,
            surprise_rounds: f.int("surprise_rounds")? as u32,
            actions: f.int("actions_per_turn")? as u8,
            reactions: f.int("reactions_per_round")? as u8,
            command_focus: f.int("command_focus")? as i32,
            command_actions: f.int("command_actions")? as u8,
            guard_bonus: f.int("guard_bonus")? as i32,
            resuscitate_actions: f.int("resuscitate_actions")? as u8,
            sprint_stamina: f.int("sprint_stamina")? as i32,
            wait_reactions: f.int("wait_reactions")? as u8,
            dodge_stamina: f.int("dodge_stamina")? as i32,
            parry_stamina: f.int("parry_stamina")? as i32,
            block_stamina: f.int("block_stamina")? as i32,
            intercept_stamina: f.int("intercept_stamina")? as i32,
            step: f.int("step_distance")? as i32,
            reach: f.int("reach")? as i32,
            luck_high: f.int("luck_bonus_on")? as i32,
            luck_bonus: f.int("luck_bonus")? as i32,
            misfire_on: f.int("misfire_on")? as i32,
            misfire_radius: f.int("misfire_radius")? as i32,
            map: f.int("multiple_attack_penalty")? as i32,
            size_evasion: f.int("size_evasion")? as i32,
            size_deflection: f.int("size_deflection")? as i32,
            min_damage: f.int("min_damage")? as i32,
            block_min_damage: f.int("block_min_damage")? as i32,
            parry_default: f.int("parry_default")? as i32,
            parry_wear: f.int("parry_wear")? as i16,
            metal_durability: f.int("metal_durability")? as i16,
            other_durability: f.int("other_durability")? as i16,
            killing_strike_actions: f.int("killing_strike_actions")? as u8,
        };
        // Costs in actions are paid within one turn (only a reload spans
        // turns here), so none may exceed a turn's actions.
        for (name, cost) in [
            ("resuscitate_actions", options.resuscitate_actions),
            ("killing_strike_actions", options.killing_strike_actions),
        ] {
            if cost > options.actions {
                return Err(f.error(
                    name,
                    format!(
                        "{name} = {cost} is more than a turn's actions (actions_per_turn = {}): \
                         it must be in 1..={} (or raise actions_per_turn to at least {cost}); \
                         only a reload spans turns here",
                        options.actions, options.actions
                    ),
                ));
            }
        }
        if options.misfire_on >= options.luck_die as i32 {
            return Err(f.error(
                "misfire_on",
                format!(
                    "misfire_on = {} would make every thrown or projectile attack misfire: it \
                     must be below the luck die's top (luck_die = {}), in 0..={}",
                    options.misfire_on,
                    options.luck_die,
                    options.luck_die - 1
                ),
            ));
        }
        Ok(options)
    }

    fn number_weapon(weapon: &mut Weapon, number: u16) {
        weapon.number = number;
    }

    fn compile_weapon(f: &impl FieldReader) -> Result<Weapon, FieldError> {
        let kind = [
            WeaponKind::Melee,
            WeaponKind::Thrown,
            WeaponKind::Projectile,
        ][f.choice("kind")?];
        let listed = f.int("range")? as i32;
        let range = match (listed, kind) {
            // The `reach` option's default until `prepare_unit`.
            (0, WeaponKind::Melee) => REACH,
            (0, _) => i32::MAX,
            (r, _) => r,
        };
        let damage = f.int("damage")? as i32;
        let crit_damage = match f.int("crit_damage")? as i32 {
            0 => 2 * damage,
            c => c,
        };
        Ok(Weapon {
            number: 0,
            kind,
            attribute: [Attribute::Str, Attribute::Dex, Attribute::Either]
                [f.choice("attribute")?],
            damage,
            crit_damage,
            crit: f.int("crit")? as i32,
            damage_type: damage_type(f.choice("damage_type")?),
            range,
            range_listed: listed != 0,
            reload: f.int("reload")? as u8,
            // As written (0: unlisted), resolved by `prepare_unit`.
            parry: f.int("parry")? as i32,
            durability: f.int("durability")? as i16,
            metal: f.bool("metal")?,
            lethal: f.bool("lethal")?,
        })
    }

    fn compile_unit(f: &impl FieldReader, weapons: &[Weapon]) -> Result<Unit, FieldError> {
        let mut unit = Unit {
            str_die: f.int("str")? as u32,
            dex_die: f.int("dex")? as u32,
            combat: f.int("combat")? as u32,
            athletics: f.int("athletics")? as u32,
            proficiency: f.int("proficiency")? as i32,
            fortitude: f.int("fortitude")? as i32,
            evasion: f.int("evasion")? as i32,
            deflection: f.int("deflection")? as i32,
            elemental_dr: f.int("elemental_dr")? as i32,
            endurance: f.int("endurance")? as i32,
            health: f.int("health")? as i32,
            constitution: f.int("constitution")? as i32,
            stamina: f.int("stamina")? as i32,
            focus: f.int("focus")? as i32,
            size: f.int("size")? as i32,
            luck: f.int("luck")? as i32,
            // The option's default until `prepare_unit` sets the option.
            luck_die: 20,
            speed: f.int("speed")? as i32,
            cannot_be_surprised: f.bool("cannot_be_surprised")?,
            reaction: [
                Reaction::Dodge,
                Reaction::Parry,
                Reaction::Block,
                Reaction::Never,
            ][f.choice("reaction")?],
            stamina_reserve: f.int("stamina_reserve")? as i32,
            fortify: f.bool("fortify")?,
            intercept: f.bool("intercept")?,
            command: f.bool("command")?,
            resuscitate: f.bool("resuscitate")?,
            killing_strike: f.bool("killing_strike")?,
            attacks: f.int("attacks")? as u8,
            leftover: [Leftover::Guard, Leftover::Wait, Leftover::Idle][f.choice("leftover")?],
            seek_cover: f.bool("seek_cover")?,
            drop_prone: f.bool("drop_prone")?,
            sprint: f.bool("sprint")?,
            shield: f.int("shield")? as i32,
            // As written (0: unlisted), resolved by `prepare_unit`.
            shield_parry: f.int("shield_parry")? as i32,
            shield_durability: f.int("shield_durability")? as i16,
            shield_metal: f.bool("shield_metal")?,
            // The options' defaults until `prepare_unit` sets the options.
            luck_high: LUCK_HIGH,
            luck_bonus: LUCK_BONUS,
            ..Unit::default()
        };
        if weapons.is_empty() {
            return Err(f.error("weapons", "a unit needs at least one weapon to fight"));
        }
        // Sorted by damage (stable), remembering where the first listed went.
        let mut order: Vec<usize> = (0..weapons.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(weapons[i].damage));
        unit.first_wielded = order.iter().position(|&i| i == 0).unwrap_or(0) as u8;
        let sorted: Vec<Weapon> = order.iter().map(|&i| weapons[i]).collect();
        unit.weapons[..sorted.len()].copy_from_slice(&sorted);
        unit.n_weapons = sorted.len() as u8;
        // Settled again with the options' reach once they are known.
        unit.set_ranges(REACH);
        Ok(unit)
    }

    fn describe_unit(u: &Unit) -> String {
        let mut s = format!(
            "E {} + H {}, evasion {}, DR {}/{}, combat d{} +{}",
            u.endurance, u.health, u.evasion, u.deflection, u.elemental_dr, u.combat, u.proficiency
        );
        if u.shield > 0 {
            s.push_str(&format!(", shield {}", u.shield));
        }
        s.push_str(&format!(", {} stamina", u.stamina));
        s
    }

    fn default_tactic(unit: &Unit) -> Tactic {
        if unit.ranged_range > 0 {
            Tactic::Hold
        } else {
            Tactic::Advance
        }
    }

    /// Attacks reach `distance <= range` (the held weapon, or any in range).
    fn weapon_reach(_unit: &Unit, weapon: &Weapon) -> Option<i32> {
        Some(weapon.range)
    }

    /// Individual initiative (the text has none): a test of the DEX die + the
    /// combat die with the luck die (+4 on 20 or more); ties go to the higher
    /// luck roll. Also orders members within a team under `alternating`.
    fn roll_initiative<D: Dice>(unit: &Unit, dice: &mut D) -> InitiativeRoll {
        let pair = roll(dice, unit.dex_die) + roll(dice, unit.combat);
        let luck = dice.roll(unit.luck_die) as i32 + unit.luck;
        InitiativeRoll {
            total: pair + luck_bonus(luck, unit.luck_high, unit.luck_bonus),
            tiebreak: luck,
        }
    }

    fn initiative_stat(unit: &Unit) -> i32 {
        unit.dex_die as i32
    }

    /// "If at any time a character becomes unable to act (such as by
    /// becoming unconscious), they lose the ability to take a turn": down
    /// (out), a condition that allows no actions, or surprised in the
    /// surprise round. Team-alternating activation passes over such a member
    /// at no cost to its team.
    fn can_act(fight: &Fight<Self>, enc: &Encounter<Self>, unit: usize) -> bool {
        let u = &fight.units[unit];
        !u.out
            && !u.conditions.any(NO_ACTIONS)
            && !surprised(&enc.options, fight.round, u.side, &enc.units[unit].stats)
    }

    /// "Whenever a character performs an action that leads to the beginning
    /// of combat, that character is setting their team at the highest
    /// initiative (first)": the surprising side began the fight and opens
    /// every round; without surprise the text names none (the scenario's
    /// `opening` decides, by default the first listed side).
    fn opening_side(options: &Options) -> Option<usize> {
        options.surprise.map(usize::from)
    }

    /// The rules read the round number in two places: the surprise rounds
    /// (the first `surprise_rounds`, at most [`MAX_SURPRISE_ROUNDS`]) and
    /// the stamp of the round a unit's attacks were counted in
    /// ([`State::round_seen`], made relative by
    /// [`Dicestep::forget_round`]). So every round after the last that can
    /// be a surprise round plays alike; the ones before each play their
    /// own way (the class cannot see whether the scenario has surprise).
    fn round_class(round: u32) -> u32 {
        round.min(MAX_SURPRISE_ROUNDS + 1)
    }

    /// The attack count's stamp becomes "this round" ([`THIS_ROUND`]) or
    /// "another" (0, its count 0: an attack in a new round starts the
    /// count afresh, and `command` reads a stale count as none). A dead
    /// unit's state is also set to one value: nothing reads it again (a
    /// dead unit never returns, acts, reacts or is targeted; resuscitate,
    /// killing strikes and misfires pass it over), so fights that differ
    /// only in how a unit died are one state.
    fn forget_round(state: &mut State, round: u32) {
        if state.dead {
            *state = State {
                dead: true,
                ..State::default()
            };
        } else if state.round_seen == round {
            state.round_seen = THIS_ROUND;
        } else {
            state.round_seen = 0;
            state.attacks_round = 0;
        }
    }

    fn recall_round(state: &mut State, round: u32) {
        if state.round_seen == THIS_ROUND {
            state.round_seen = round;
        }
    }

    /// Puts in what the options say of the stat block: the luck die and
    /// bonus (for initiative), a melee weapon's unlisted reach, unlisted
    /// parry values and durabilities.
    fn prepare_unit(spec: &mut UnitSpec<Self>, options: &Options) {
        let u = &mut spec.stats;
        u.luck_die = options.luck_die;
        u.luck_high = options.luck_high;
        u.luck_bonus = options.luck_bonus;
        let n = u.n_weapons as usize;
        for w in &mut u.weapons[..n] {
            if w.kind == WeaponKind::Melee && !w.range_listed {
                w.range = options.reach;
            }
            w.parry = parry_value(w.parry, options);
            w.durability = durability(w.durability, w.metal, options);
        }
        u.shield_parry = parry_value(u.shield_parry, options);
        u.shield_durability = durability(u.shield_durability, u.shield_metal, options);
        u.set_ranges(options.reach);
        spec.drops = smart_drops(&spec.stats);
        // A smart unit with a ranged weapon (it keeps its range) seeks cover
        // where it has some: "Seek Cover: give ranged attackers disadvantage
        // while behind cover until next turn" (Table: Actions).
        if spec.smart && spec.tactic == Tactic::KeepRange {
            spec.stats.seek_cover = true;
        }
    }

    /// "Seek Cover" (Table: Actions) is the only way cover acts: a unit
    /// that never takes the action gains nothing from standing in cover.
    fn cover_unused(unit: &Unit) -> Option<&'static str> {
        (!unit.seek_cover).then_some(
            "cover acts only through the Seek Cover action (ranged attacks at disadvantage), \
             which this stat block does not take; set `seek_cover = true` on the unit, or \
             leave `cover` out",
        )
    }

    fn enter(unit: &mut Combatant<State>, spec: &UnitSpec<Self>, options: &Options) {
        let s = &spec.stats;
        let mut durability = [0i16; MAX_WEAPONS + 1];
        for (d, w) in durability.iter_mut().zip(s.weapons()) {
            *d = w.durability;
        }
        if s.shield > 0 {
            durability[SHIELD] = s.shield_durability;
        }
        unit.state = State {
            endurance: s.endurance,
            health: s.health,
            stamina: s.stamina,
            focus: s.focus,
            reactions: options.reactions,
            death_dc: options.cheat_death,
            loaded: u8::MAX,
            durability,
            wielded: s.first_wielded,
            ..State::default()
        };
        if spec.conditions.has(Condition::Unconscious) {
            unit.out = true;
        }
    }

    fn take_turn<D: Dice>(turn: &mut Turn<'_, Self, D>) {
        // One test of the ground a turn: below it `MAP` is a constant, so
        // a turn on the front is the code it was before maps, and the map's
        // copy stays out of line.
        if turn.ground().is_some() {
            return play_on_map(turn);
        }
        if let Some(mut b) = start_turn::<D, false>(turn) {
            while act::<D, false>(turn, &mut b) {}
            end_turn::<D, false>(turn, &mut b);
        }
    }

    // In steps for the exact engine: one action a step, so that fight
    // states merge between a turn's actions.
    fn begin_turn<D: Dice>(turn: &mut Turn<'_, Self, D>) -> Option<TurnStep> {
        if turn.ground().is_some() {
            start_turn::<D, true>(turn).map(Budget::pack)
        } else {
            start_turn::<D, false>(turn).map(Budget::pack)
        }
    }

    fn step_turn<D: Dice>(turn: &mut Turn<'_, Self, D>, step: TurnStep) -> Option<TurnStep> {
        let mut b = Budget::unpack(step);
        if turn.ground().is_some() {
            return step_on_map(turn, b);
        }
        if act::<D, false>(turn, &mut b) {
            Some(b.pack())
        } else {
            end_turn::<D, false>(turn, &mut b);
            None
        }
    }

    fn vitality(unit: &Combatant<State>, spec: &UnitSpec<Self>) -> (u32, u32) {
        let s = &unit.state;
        (
            (s.endurance + s.health).max(0) as u32,
            (spec.stats.endurance + spec.stats.health) as u32,
        )
    }
}

/// A parry value as written (0 = unlisted: `parry_default`, +1).
fn parry_value(v: i32, options: &Options) -> i32 {
    if v == 0 {
        options.parry_default
    } else {
        v
    }
}

/// A durability as written (0 = unlisted: metal `metal_durability`, 10,
/// otherwise `other_durability`, 4).
fn durability(v: i16, metal: bool, options: &Options) -> i16 {
    match (v, metal) {
        (0, true) => options.metal_durability,
        (0, false) => options.other_durability,
        (v, _) => v,
    }
}

/// One die (0 sides: no die, 0).
#[inline]
fn roll<D: Dice>(dice: &mut D, sides: u32) -> i32 {
    if sides == 0 {
        0
    } else {
        dice.roll(sides) as i32
    }
}

/// One die with `edge` levels of advantage (negative: disadvantage): the
/// best (worst) of 1 + |edge| rolls.
#[inline]
fn roll_edge<D: Dice>(dice: &mut D, sides: u32, edge: i32) -> i32 {
    let mut kept = roll(dice, sides);
    for _ in 0..edge.unsigned_abs() {
        let r = roll(dice, sides);
        kept = if edge > 0 { kept.max(r) } else { kept.min(r) };
    }
    kept
}

/// The dice of a test: attribute die `a` + skill die `b`, with `edge`
/// levels of advantage under the `advantage` option. Rolls `a` then `b`.
// Always inlined: every attack and test rolls it, and a call's prologue and
// epilogue cost about as much as a die.
#[inline(always)]
pub fn roll_pair<D: Dice>(dice: &mut D, a: u32, b: u32, edge: i32, mode: Advantage) -> i32 {
    if edge == 0 {
        return roll(dice, a) + roll(dice, b);
    }
    match mode {
        Advantage::PerDie => roll_edge(dice, a, edge) + roll_edge(dice, b, edge),
        Advantage::WholeTest => {
            let mut kept = roll(dice, a) + roll(dice, b);
            for _ in 0..edge.unsigned_abs() {
                let r = roll(dice, a) + roll(dice, b);
                kept = if edge > 0 { kept.max(r) } else { kept.min(r) };
            }
            kept
        }
        Advantage::Flat => roll(dice, a) + roll(dice, b) + 2 * edge,
    }
}

/// `bonus` (+4) on a luck roll of `high` (20) or more (normal tests).
#[inline]
fn luck_bonus(luck: i32, high: i32, bonus: i32) -> i32 {
    if luck >= high {
        bonus
    } else {
        0
    }
}

/// A unit's luck roll: the luck die plus its luck modifier `luck`.
#[inline(always)]
fn roll_luck<D: Dice>(dice: &mut D, sides: u32, luck: i32) -> i32 {
    dice.roll(sides) as i32 + luck
}

/// A watched fight hears `unit`'s luck roll `luck`, the last die read.
#[inline(always)]
fn note_luck<D: Dice>(turn: &mut Turn<'_, Dicestep, D>, unit: usize, luck: i32) {
    if D::WATCHED {
        turn.note(Event::Roll {
            unit: unit as u8,
            target: NOBODY,
            rule: "luck die (+ luck)",
            total: luck,
            // Rolled after the test's own dice, which the test's check
            // reads: only the luck die is this roll's.
            dice: 1,
        });
    }
}

/// A normal test by `unit` against `need`: dice `a` + `b` + `bonus`, the
/// luck die alongside (+4 on 20 or more). Returns whether it reaches
/// `need` and, for a watched fight only (0 otherwise), the result.
// Out of line: the simulator's fight loop keeps its registers for attacks,
// and the pools' closures inline here.
#[inline(never)]
pub fn test<D: Dice>(
    turn: &mut Turn<'_, Dicestep, D>,
    unit: usize,
    a: u32,
    b: u32,
    bonus: i32,
    need: i32,
) -> (bool, i32) {
    let (_, result, passed) = check::<D, 0>(turn, unit, a, b, bonus, need);
    (passed, result)
}

/// [`test`] with `EDGE` levels of advantage: `(dice, result, passed)`,
/// the dice (`a` + `b`, best kept) and the result for a watched fight
/// only (0 otherwise).
///
/// The rules read a test only as its verdict, so its dice are two
/// [`Dice::pool`]s whose values are what the verdict needs of them: the
/// attribute and skill dice as whether their sum passes without the luck
/// bonus and whether it passes with it (three cases), then the luck die as
/// whether it gives the bonus, where that decides. The exact engine then
/// branches at most four ways and enumerates 44 faces (a d6, a d4, a d20),
/// where the faces of all three dice are 480 branches.
// Always inlined, and what it reads read where it is used (in the pools,
// after the dice): values loaded before the dice would stay live across
// them, and cost the simulator's fight loop spills.
#[inline(always)]
fn check<D: Dice, const EDGE: i32>(
    turn: &mut Turn<'_, Dicestep, D>,
    unit: usize,
    a: u32,
    b: u32,
    bonus: i32,
    need: i32,
) -> (i32, i32, bool) {
    let opts = turn.options();
    let spec = turn.spec(unit);
    // Both pools on dice lent to a local (`Dice::lend`), which the
    // simulator keeps in registers between them.
    let (pair, without, luck, saved) = turn.dice.lend(|dice| {
        let (pair, without, with) = dice.pool(|d| {
            let pair = roll_pair(d, a, b, EDGE, opts.advantage);
            let sum = pair + bonus;
            (
                if D::WATCHED { pair } else { 0 },
                sum >= need,
                sum + opts.luck_bonus >= need,
            )
        });
        // The bonus (never negative) passes what passes without it, so the
        // luck roll decides only a test that passes with it and not
        // without.
        let (luck, saved) = dice.pool(|d| {
            let luck = roll_luck(d, opts.luck_die, spec.stats.luck);
            let saved = luck >= opts.luck_high && with && !without;
            (if D::WATCHED { luck } else { 0 }, saved)
        });
        (pair, without, luck, saved)
    });
    note_luck(turn, unit, luck);
    let result = if D::WATCHED {
        pair + bonus + luck_bonus(luck, opts.luck_high, opts.luck_bonus)
    } else {
        0
    };
    (pair, result, without || saved)
}

/// Surprise: in round 1 ("a whole round where only their team may take
/// actions"; the first `surprise_rounds`) a unit of `side` is surprised
/// unless its side surprises or it cannot be surprised.
fn surprised(options: &Options, round: u32, side: u8, stats: &Unit) -> bool {
    match options.surprise {
        Some(surpriser) => {
            round <= options.surprise_rounds && side != surpriser && !stats.cannot_be_surprised
        }
        None => false,
    }
}

/// A turn up to its first action: the unit's reaction recovered, Guard and
/// cover ended, an extended reload paid, standing up or dropping prone; its
/// action budget, or `None` if it cannot act.
#[inline(always)]
fn start_turn<D: Dice, const MAP: bool>(turn: &mut Turn<'_, Dicestep, D>) -> Option<Budget> {
    let me = turn.actor;
    // A unit that cannot act has no turn (the engine still calls, at no
    // team's cost, once activations run out): nothing starts, so its
    // reaction is not recovered and a Guard or Wait is not ended.
    if !Dicestep::can_act(turn.fight, turn.enc, me) {
        return None;
    }
    let (actions, reactions, reach) = {
        let o = turn.options();
        (o.actions, o.reactions, o.reach)
    };
    {
        let st = &mut turn.unit_mut(me).state;
        st.reactions = reactions;
        st.guarding = false;
        st.covered = false;
    }
    let mut b = Budget::new(actions);
    finish_reload(turn, &mut b, actions);
    let stats = &turn.enc.units[me].stats;
    let hangs_back = matches!(turn.spec(me).tactic, Tactic::Hold | Tactic::KeepRange);
    if turn.unit(me).conditions.has(Condition::Prone) {
        if !stats.drop_prone || !hangs_back {
            stand_up(turn, &mut b);
        }
    } else if stats.drop_prone && hangs_back && enemies_near::<D, MAP>(turn, me, reach) == 0 {
        // Drop Prone: a free action.
        turn.unit_mut(me).conditions.set(Condition::Prone);
    }
    Some(b)
}

/// The acting unit's action budget for this turn.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub actions: u8,
    /// Moved (or stepped) this turn: no second Move; Sprint allowed.
    pub moved: bool,
    /// The last move this turn got nowhere (its way blocked, on a map): a
    /// Sprint along the same way would get nowhere either.
    pub stuck: bool,
    /// Attacks made this turn.
    pub attacks: u8,
    /// Allies commanded this turn (bit per unit).
    pub commanded: u64,
}

impl Budget {
    pub fn new(actions: u8) -> Budget {
        Budget {
            actions,
            moved: false,
            stuck: false,
            attacks: 0,
            commanded: 0,
        }
    }

    /// Packed for the exact engine's turns in steps.
    fn pack(self) -> TurnStep {
        TurnStep::from(self.actions)
            | TurnStep::from(self.moved) << 8
            | TurnStep::from(self.stuck) << 9
            | TurnStep::from(self.attacks) << 16
            | TurnStep::from(self.commanded) << 64
    }

    fn unpack(step: TurnStep) -> Budget {
        Budget {
            actions: step as u8,
            moved: (step >> 8) & 1 != 0,
            stuck: (step >> 9) & 1 != 0,
            attacks: (step >> 16) as u8,
            commanded: (step >> 64) as u64,
        }
    }
}

/// Pay actions owed on an extended reload, at most `limit`.
fn finish_reload<D: Dice>(turn: &mut Turn<'_, Dicestep, D>, b: &mut Budget, limit: u8) {
    let st = &mut turn.unit_mut(turn.actor).state;
    if st.reload_left > 0 {
        let pay = st.reload_left.min(limit);
        st.reload_left -= pay;
        b.actions -= pay;
        if st.reload_left == 0 {
            st.loaded |= 1 << st.reload_weapon;
        }
    }
}

/// Reload weapon `w` with the actions left but those kept back for Seek
/// Cover (the rest is owed next turn, paid first).
fn reload<D: Dice, const MAP: bool>(turn: &mut Turn<'_, Dicestep, D>, b: &mut Budget, w: usize) {
    let limit = b.actions - kept_back::<D, MAP>(turn);
    let need = turn.spec(turn.actor).stats.weapons[w].reload;
    let st = &mut turn.unit_mut(turn.actor).state;
    if st.reload_left == 0 || st.reload_weapon as usize != w {
        st.reload_left = need;
        st.reload_weapon = w as u8;
    }
    finish_reload(turn, b, limit);
}

fn stand_up<D: Dice>(turn: &mut Turn<'_, Dicestep, D>, b: &mut Budget) {
    if b.actions > 0 {
        b.actions -= 1;
        let me = turn.actor;
        turn.unit_mut(me).conditions.clear(Condition::Prone);
    }
}

/// Actions kept back for Seek Cover: by a unit that seeks cover and has
/// some (its scenario cover on the front; on a map, terrain between it and
/// an enemy where it stands now).
fn kept_back<D: Dice, const MAP: bool>(turn: &Turn<'_, Dicestep, D>) -> u8 {
    let me = turn.actor;
    u8::from(
        turn.spec(me).stats.seek_cover
            && if MAP {
                map::behind_cover(turn, me)
            } else {
                turn.unit(me).cover != Cover::None
            },
    )
}

/// A unit's turn on a map: out of line, so that the front's turn inlines
/// as it did before maps.
#[cold]
#[inline(never)]
fn play_on_map<D: Dice>(turn: &mut Turn<'_, Dicestep, D>) {
    if let Some(mut b) = start_turn::<D, true>(turn) {
        while act::<D, true>(turn, &mut b) {}
        end_turn::<D, true>(turn, &mut b);
    }
}

/// [`Turn::enemies_within`], with the front's loop here: the engine's
/// tests the ground and, called from the map's copies too, would be left
/// out of line on the front.
#[inline(always)]
fn enemies_near<D: Dice, const MAP: bool>(
    turn: &Turn<'_, Dicestep, D>,
    of: usize,
    reach: i32,
) -> u64 {
    if MAP {
        return turn.enemies_within(of, reach);
    }
    let u = turn.unit(of);
    let mut mask = 0;
    for i in Bits(turn.in_fight() & !turn.side_units(u.side as usize)) {
        if (u.position - turn.unit(i).position).abs() <= reach {
            mask |= 1 << i;
        }
    }
    mask
}

/// [`Turn::approach`], with the front's move here (as [`enemies_near`]);
/// whether the mover got anywhere.
#[inline(always)]
fn go<D: Dice, const MAP: bool>(
    turn: &mut Turn<'_, Dicestep, D>,
    target: usize,
    budget: i32,
    stop_at: i32,
) -> bool {
    if MAP {
        return turn.approach(target, budget, stop_at) > 0;
    }
    let to = turn.unit(target).position;
    let me = turn.unit_mut(turn.actor);
    let gap = (to - me.position).abs() - stop_at;
    let step = budget.min(gap).max(0);
    me.position += step * (to - me.position).signum();
    step > 0
}

/// [`Ruleset::step_turn`] on a map (out of line, as [`play_on_map`]).
#[cold]
#[inline(never)]
fn step_on_map<D: Dice>(turn: &mut Turn<'_, Dicestep, D>, mut b: Budget) -> Option<TurnStep> {
    if act::<D, true>(turn, &mut b) {
        Some(b.pack())
    } else {
        end_turn::<D, true>(turn, &mut b);
        None
    }
}

/// Whether the actor sees `other` (always, on the front).
#[inline(always)]
fn in_sight<D: Dice, const MAP: bool>(turn: &Turn<'_, Dicestep, D>, other: usize) -> bool {
    !MAP || turn.sees(other)
}

/// The weapon the actor uses at `distance`: the one in hand if it reaches and
/// is loaded (changing weapons costs a Brandish), else the best (most
/// damage) one reaching, preferring a loaded one; `(index, loaded)`.
fn pick_weapon<D: Dice>(turn: &Turn<'_, Dicestep, D>, distance: i32) -> Option<(usize, bool)> {
    let me = turn.actor;
    let state = &turn.unit(me).state;
    let loaded = state.loaded;
    let weapons = turn.spec(me).stats.weapons();
    let held = state.wielded as usize;
    if distance <= weapons[held].range && loaded & (1 << held) != 0 {
        return Some((held, true));
    }
    let mut first = None;
    for (i, w) in weapons.iter().enumerate() {
        if distance <= w.range {
            if loaded & (1 << i) != 0 {
                return Some((i, true));
            }
            first.get_or_insert((i, false));
        }
    }
    first
}

/// Attack `target` (or reload the weapon for it) if a weapon reaches and the
/// turn allows another attack. True if an action was spent.
fn strike<D: Dice, const MAP: bool>(
    turn: &mut Turn<'_, Dicestep, D>,
    b: &mut Budget,
    target: usize,
) -> bool {
    let stats = &turn.enc.units[turn.actor].stats;
    if b.attacks >= stats.attacks {
        return false;
    }
    // A weapon that reaches, at a target in sight (always on the front; a
    // line of sight on a map).
    let Some((w, loaded)) =
        pick_weapon(turn, turn.enemy_distance(target)).filter(|_| in_sight::<D, MAP>(turn, target))
    else {
        return false;
    };
    let me = turn.actor;
    if turn.unit(me).state.wielded as usize != w {
        // Brandish (an action): "Choose what items you are holding in your
        // hands"; attacking or reloading needs the weapon in hand.
        b.actions -= 1;
        turn.unit_mut(me).state.wielded = w as u8;
        return true;
    }
    if !loaded {
        reload::<D, MAP>(turn, b, w);
        return true;
    }
    if b.attacks >= 1 && command::<D, MAP>(turn, b) {
        return true;
    }
    b.actions -= 1;
    b.attacks += 1;
    swing::<D, false, MAP>(turn, target, w);
    true
}

/// One action by the actor's tactic; false when it has nothing more to do.
fn act<D: Dice, const MAP: bool>(turn: &mut Turn<'_, Dicestep, D>, b: &mut Budget) -> bool {
    if b.actions <= kept_back::<D, MAP>(turn) || turn.unit(turn.actor).out {
        return false;
    }
    if resuscitate::<D, MAP>(turn, b) || killing_strike::<D, MAP>(turn, b) {
        return true;
    }
    match turn.spec(turn.actor).tactic {
        Tactic::Advance => advance::<D, MAP>(turn, b),
        Tactic::KeepRange => keep_range::<D, MAP>(turn, b),
        Tactic::Hold | Tactic::Auto => hold::<D, MAP>(turn, b),
    }
}

fn hold<D: Dice, const MAP: bool>(turn: &mut Turn<'_, Dicestep, D>, b: &mut Budget) -> bool {
    let range = turn.spec(turn.actor).stats.max_range;
    match turn.choose_target(|t, i| t.enemy_distance(i) <= range && in_sight::<D, MAP>(t, i)) {
        Some(target) => strike::<D, MAP>(turn, b, target),
        None => false,
    }
}

/// Move (once per turn) toward `target`, stopping `stop_at` away; standing
/// up first costs its own action.
// Inlined as on the front before maps: the map's copies of its callers
// would otherwise tip the inliner into an out-of-line call.
#[inline(always)]
fn move_toward<D: Dice, const MAP: bool>(
    turn: &mut Turn<'_, Dicestep, D>,
    b: &mut Budget,
    target: usize,
    stop_at: i32,
) {
    let me = turn.actor;
    if turn.unit(me).conditions.has(Condition::Prone) {
        stand_up(turn, b);
        return;
    }
    let speed = turn.spec(me).stats.speed;
    b.actions -= 1;
    b.moved = true;
    b.stuck = !go::<D, MAP>(turn, target, speed, stop_at);
}

fn advance<D: Dice, const MAP: bool>(turn: &mut Turn<'_, Dicestep, D>, b: &mut Budget) -> bool {
    let me = turn.actor;
    let Some(target) = turn.choose_target(|_, _| true) else {
        return false;
    };
    let stats = &turn.enc.units[me].stats;
    let reach = stats.advance_reach;
    let gap = turn.enemy_distance(target) - reach;
    // Out of sight counts as far: on a map a target in reach behind a wall
    // is approached with a Move (to where it is seen), not stood off.
    let hidden = !in_sight::<D, MAP>(turn, target);
    let far = gap > 0 || hidden;
    let (step, sprint) = {
        let o = turn.options();
        (o.step, o.sprint_stamina)
    };
    if far && !b.moved {
        if gap <= step && !hidden && !turn.unit(me).conditions.has(Condition::Prone) {
            // Step: a free action, "once per turn, take a 1m step instead
            // of a move action" (so no Move after it).
            b.moved = true;
            b.stuck = !go::<D, MAP>(turn, target, step, reach);
        } else {
            move_toward::<D, MAP>(turn, b, target, reach);
        }
        return true;
    }
    if strike::<D, MAP>(turn, b, target) {
        return true;
    }
    let reserve = stats.stamina_reserve;
    if far && b.moved && !b.stuck && stats.sprint && turn.unit(me).state.stamina >= reserve + sprint
    {
        // Sprint: "If you have already moved this turn, spend 1 stamina to
        // take another move action": as often as actions and stamina last,
        // but not after a move that got nowhere (its way is blocked: the
        // Sprint would spend stamina standing still).
        b.actions -= 1;
        turn.unit_mut(me).state.stamina -= sprint;
        b.stuck = !go::<D, MAP>(turn, target, stats.speed, reach);
        return true;
    }
    false
}

fn keep_range<D: Dice, const MAP: bool>(turn: &mut Turn<'_, Dicestep, D>, b: &mut Budget) -> bool {
    let me = turn.actor;
    let stats = &turn.enc.units[me].stats;
    if !b.moved && enemies_near::<D, MAP>(turn, me, turn.options().reach) != 0 {
        if turn.unit(me).conditions.has(Condition::Prone) {
            stand_up(turn, b);
        } else {
            b.actions -= 1;
            b.moved = true;
            turn.back_off(stats.speed);
        }
        return true;
    }
    if hold::<D, MAP>(turn, b) {
        return true;
    }
    let range = if stats.ranged_range > 0 {
        stats.ranged_range
    } else {
        stats.max_range
    };
    if !b.moved {
        if let Some(target) = turn.choose_target(|_, _| true) {
            move_toward::<D, MAP>(turn, b, target, range);
            return true;
        }
    }
    false
}

/// Unconscious units (out of the fight, not dead) of `mask` within `reach`
/// of the actor, lowest index first.
fn unconscious_within<D: Dice, const MAP: bool>(
    turn: &Turn<'_, Dicestep, D>,
    mask: u64,
    reach: i32,
) -> Option<usize> {
    Bits(mask & !turn.in_fight()).find(|&i| {
        let u = turn.unit(i);
        u.conditions.has(Condition::Unconscious)
            && !u.state.dead
            && turn.distance(turn.actor, i) <= reach
            && in_sight::<D, MAP>(turn, i)
    })
}

/// Resuscitate (two actions): with the policy on, go prone, then test STR +
/// athletics against the patient's missing health (or the option's fixed
/// difficulty); success returns it to consciousness and the fight, at 0
/// health too (the text sets no bar; any damage then risks death). True if
/// attempted.
// Inlined as on the front before maps: the map's copies of its callers
// would otherwise tip the inliner into an out-of-line call.
#[inline(always)]
fn resuscitate<D: Dice, const MAP: bool>(turn: &mut Turn<'_, Dicestep, D>, b: &mut Budget) -> bool {
    let me = turn.actor;
    let stats = &turn.enc.units[me].stats;
    let (cost, reach) = {
        let o = turn.options();
        (o.resuscitate_actions, o.reach)
    };
    if !stats.resuscitate || b.actions < cost {
        return false;
    }
    let Some(patient) = unconscious_within::<D, MAP>(turn, turn.allies(), reach) else {
        return false;
    };
    b.actions -= cost;
    turn.unit_mut(me).conditions.set(Condition::Prone);
    let difficulty = match turn.options().resuscitate_difficulty {
        0 => turn.spec(patient).stats.health - turn.unit(patient).state.health,
        fixed => fixed,
    };
    let (revived, result) = test(turn, me, stats.str_die, stats.athletics, 0, difficulty);
    turn.note_check(
        patient,
        "resuscitate (STR + athletics + luck)",
        result,
        0,
        difficulty,
        revived,
    );
    if revived {
        turn.unit_mut(patient)
            .conditions
            .clear(Condition::Unconscious);
        turn.count(counter::RESUSCITATED);
        turn.bring_back(patient);
    }
    true
}

/// Killing strike (the three-action activity): with the policy on and all
/// three actions left, a test with advantage of the weapon's attribute die +
/// combat skill die + proficiency against an unconscious enemy's
/// constitution; success kills it, failure makes an ordinary attack instead
/// (a sneak attack: the victim cannot see). True if attempted.
// Inlined as on the front before maps: the map's copies of its callers
// would otherwise tip the inliner into an out-of-line call.
#[inline(always)]
fn killing_strike<D: Dice, const MAP: bool>(
    turn: &mut Turn<'_, Dicestep, D>,
    b: &mut Budget,
) -> bool {
    let me = turn.actor;
    let stats = &turn.enc.units[me].stats;
    let cost = turn.options().killing_strike_actions;
    if !stats.killing_strike || b.actions < cost {
        return false;
    }
    let side = turn.unit(me).side as usize;
    let enemies = (0..MAX_SIDES)
        .filter(|&s| s != side)
        .fold(0, |m, s| m | turn.side_units(s));
    // The three actions leave none for a Brandish: the weapon in hand.
    let w = turn.unit(me).state.wielded as usize;
    let Some(victim) = unconscious_within::<D, MAP>(turn, enemies, stats.weapons[w].range) else {
        return false;
    };
    b.actions -= cost;
    let weapon = stats.weapons[w];
    turn.note_attack(me, victim, weapon.number);
    let (a, b) = (stats.attribute_die(weapon.attribute), stats.combat);
    let constitution = turn.spec(victim).stats.constitution;
    let (pair, result, kills) = check::<D, 1>(turn, me, a, b, stats.proficiency, constitution);
    turn.note_check(
        victim,
        "killing strike (attribute + skill + proficiency + luck vs constitution)",
        pair,
        result - pair,
        constitution,
        kills,
    );
    if kills {
        turn.note_that(victim, "kills");
        turn.unit_mut(victim).state.dead = true;
        turn.count(counter::KILLING_STRIKES);
        turn.count(counter::DEATHS);
    } else {
        swing::<D, false, MAP>(turn, victim, w);
    }
    true
}

/// Command (2 focus, an action): an ally that has not attacked this round
/// takes one action now. True if commanded.
fn command<D: Dice, const MAP: bool>(turn: &mut Turn<'_, Dicestep, D>, b: &mut Budget) -> bool {
    let me = turn.actor;
    let (focus, given) = {
        let o = turn.options();
        (o.command_focus, o.command_actions)
    };
    if !turn.spec(me).stats.command || turn.unit(me).state.focus < focus {
        return false;
    }
    let round = turn.fight.round;
    let candidates = turn.allies() & turn.in_fight() & !b.commanded;
    let Some(ally) = Bits(candidates).find(|&a| {
        // Only an ally who can act: a surprised one does not act in the
        // surprise round, commanded or not.
        let u = turn.unit(a);
        Dicestep::can_act(turn.fight, turn.enc, a)
            && (u.state.round_seen != round || u.state.attacks_round == 0)
    }) else {
        return false;
    };
    b.actions -= 1;
    b.commanded |= 1 << ally;
    turn.unit_mut(me).state.focus -= focus;
    turn.as_actor(ally, |t| {
        // "give an ally one action": as many turns of `act` as actions
        // given (one by default), fewer if it runs out of things to do.
        let mut given_budget = Budget::new(given);
        let mut acted = 0;
        while acted < given && act::<D, MAP>(t, &mut given_budget) {
            acted += 1;
        }
    });
    true
}

/// Spend what is left: Seek Cover (if kept back), then Guard or Wait.
fn end_turn<D: Dice, const MAP: bool>(turn: &mut Turn<'_, Dicestep, D>, b: &mut Budget) {
    let me = turn.actor;
    if turn.unit(me).out {
        return;
    }
    if kept_back::<D, MAP>(turn) > 0 && b.actions > 0 {
        b.actions -= 1;
        turn.unit_mut(me).state.covered = true;
    }
    if b.actions == 0 {
        return;
    }
    match turn.spec(me).stats.leftover {
        Leftover::Guard => turn.unit_mut(me).state.guarding = true,
        Leftover::Wait => {
            let more = turn.options().wait_reactions;
            let st = &mut turn.unit_mut(me).state;
            st.reactions = st.reactions.saturating_add(more);
        }
        Leftover::Idle => {}
    }
    b.actions = 0;
}

/// How an attack went (for tests).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AttackResult {
    /// The unit finally attacked (after intercepts and misfires).
    pub target: usize,
    pub luck: i32,
    /// Test result: dice + proficiency − multiple attack penalty.
    pub total: i32,
    pub evasion: i32,
    pub hit: bool,
    pub crit: bool,
    pub misfire: bool,
    pub dodged: bool,
    /// Damage dealt to the unit (after reduction, block and minimum).
    pub damage: i32,
}

/// Advantage levels of an attack by `me` on `target` with `weapon`:
/// advantages minus disadvantages, within ±2.
fn edge<D: Dice, const MAP: bool>(
    turn: &Turn<'_, Dicestep, D>,
    target: usize,
    weapon: &Weapon,
) -> i32 {
    let them = turn.unit(target);
    let ranged = weapon.kind != WeaponKind::Melee;
    let mut levels = 0;
    if them.conditions.has(Condition::Blinded) || them.conditions.has(Condition::Unconscious) {
        // Sneak attack: the target cannot see the attacker (an unconscious
        // target included: a failed killing strike is "a sneak attack").
        levels += 1;
    }
    if flanked::<D, MAP>(turn, target) {
        levels += 1;
    }
    if them.conditions.has(Condition::Prone) {
        levels += if ranged { -1 } else { 1 };
    }
    // Seek Cover: on a map, only while the cover lies between this
    // attacker and the target ("while behind cover").
    if ranged
        && them.state.covered
        && if MAP {
            map::covered_from_actor(turn, target)
        } else {
            them.cover != Cover::None
        }
    {
        levels -= 1;
    }
    levels.clamp(-2, 2)
}

/// Flanking, "surrounded on two opposite sides", on the front (the
/// `flanking` option): enemies of `target` within 1 m of it on both sides of
/// its place (one standing at its very place may take either side), or any
/// two within 1 m.
fn flanked<D: Dice, const MAP: bool>(turn: &Turn<'_, Dicestep, D>, target: usize) -> bool {
    if MAP {
        return map::flanked(turn, target);
    }
    let near = enemies_near::<D, MAP>(turn, target, turn.options().reach);
    match turn.options().flanking {
        Flanking::AnyTwo => near.count_ones() >= 2,
        Flanking::OppositeSides => {
            let at = turn.unit(target).position;
            let (mut below, mut above, mut level) = (0, 0, 0);
            for i in Bits(near) {
                match turn.unit(i).position.cmp(&at) {
                    std::cmp::Ordering::Less => below = 1,
                    std::cmp::Ordering::Greater => above = 1,
                    std::cmp::Ordering::Equal => level += 1,
                }
            }
            below + above + level >= 2
        }
    }
}

/// Whether unit `u` can spend a reaction (or has a free one) and `cost`
/// stamina above `reserve`.
fn can_react(unit: &Combatant<State>, free: bool, cost: i32, reserve: i32) -> bool {
    !unit.out
        && !unit.conditions.any(NO_ACTIONS)
        && (free || unit.state.reactions > 0)
        && unit.state.stamina >= cost + reserve
}

/// A watched fight hears why `unit`, whose policy reacts to this attack,
/// does not ([`can_react`] said no; `free`: it had a free reaction).
#[inline(never)]
fn note_no_reaction<D: Dice>(turn: &mut Turn<'_, Dicestep, D>, unit: usize, free: bool) {
    let them = turn.unit(unit);
    let reserve = turn.spec(unit).stats.stamina_reserve;
    let why = if them.out || them.conditions.any(NO_ACTIONS) {
        "no reaction: cannot act"
    } else if !free && them.state.reactions == 0 {
        "no reaction: none left this round"
    } else if reserve > 0 && them.state.stamina >= 1 {
        "no reaction: its stamina left is kept in reserve"
    } else {
        "no reaction: no stamina left"
    };
    turn.note_unit(unit, why);
}

/// A watched fight hears why `unit`, whose policy is to Block, does not
/// block this hit.
#[inline(never)]
fn note_no_block<D: Dice>(turn: &mut Turn<'_, Dicestep, D>, unit: usize, free: bool) {
    if turn.spec(unit).stats.shield == 0 {
        turn.note_unit(unit, "no reaction: no shield to block with");
    } else if turn.unit(unit).state.durability[SHIELD] == 0 {
        turn.note_unit(unit, "no reaction: its shield is broken");
    } else {
        note_no_reaction(turn, unit, free);
    }
}

/// Pay for a reaction: the free one if there is one, else the unit's own.
fn spend_reaction(state: &mut State, free: &mut bool, stamina: i32) {
    if *free {
        *free = false;
    } else {
        state.reactions -= 1;
    }
    state.stamina -= stamina;
}

/// A bodyguard of `target` who takes the attack instead, if any: the first
/// ally with `intercept`, within its speed of the target, with more
/// endurance + health left. It moves to the target's place (on a map the
/// two swap squares: "displace an ally").
fn interceptor<D: Dice, const MAP: bool>(
    turn: &mut Turn<'_, Dicestep, D>,
    target: usize,
) -> Option<usize> {
    let side = turn.unit(target).side as usize;
    let guarded = turn.unit(target).state;
    let left = guarded.endurance + guarded.health;
    let candidates = turn.side_units(side) & turn.in_fight() & !(1 << target) & !(1 << turn.actor);
    let cost = turn.options().intercept_stamina;
    let guard = Bits(candidates).find(|&g| {
        let s = &turn.spec(g).stats;
        let u = turn.unit(g);
        s.intercept
            && can_react(u, false, cost, s.stamina_reserve)
            && turn.distance(g, target) <= s.speed
            && u.state.endurance + u.state.health > left
    })?;
    spend_reaction(&mut turn.unit_mut(guard).state, &mut false, cost);
    if MAP {
        map::swap_places(turn, guard, target);
    } else {
        let place = turn.unit(target).position;
        turn.unit_mut(guard).position = place;
    }
    Some(guard)
}

/// A random other character within 1 m of `target` (not the attacker; an
/// unconscious one too, not a dead one), for a misfire; `None` if there is
/// none.
fn misfire_target<D: Dice, const MAP: bool>(
    turn: &mut Turn<'_, Dicestep, D>,
    target: usize,
) -> Option<usize> {
    let place = turn.unit(target).position;
    let radius = turn.options().misfire_radius;
    let mut near = 0u64;
    let all = (0..turn.enc.sides).fold(0, |m, s| m | turn.side_units(s));
    for i in Bits(all & !(1 << target) & !(1 << turn.actor)) {
        let u = turn.unit(i);
        // Metres on the front or along the map's grid.
        let apart = if MAP {
            turn.gap(u.position, place)
        } else {
            (u.position - place).abs()
        };
        if !u.state.dead && apart <= radius {
            near |= 1 << i;
        }
    }
    match near.count_ones() {
        0 => None,
        1 => Some(near.trailing_zeros() as usize),
        n => Bits(near).nth(turn.dice.roll(n) as usize - 1),
    }
}

/// A defence chosen by the defender: Dodge (its test comes once the attack
/// is known to hit) or Parry with a parry value; paid when chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Defence {
    None,
    Dodge,
    Parry(i32),
}

/// The defender `target` chooses Dodge or Parry by its `reaction` policy
/// against `weapon`, if it can react (`free`: an Intercept's free defensive
/// reaction), and pays for it: the reaction, 1 stamina, and for a parry 1
/// durability of the item ("After you parry, that item receives 1 damage").
// Always inlined: every attack declares, and most declare nothing.
#[inline(always)]
fn declare<D: Dice>(
    turn: &mut Turn<'_, Dicestep, D>,
    target: usize,
    weapon: &Weapon,
    free: &mut bool,
) -> Defence {
    let their = &turn.enc.units[target].stats;
    // The policy first (fixed for the fight; Block and never declare
    // nothing here), then whether it can pay.
    // Parry adds to deflection, which only physical damage meets here.
    let declares = match their.reaction {
        Reaction::Dodge => true,
        Reaction::Parry => weapon.damage_type == DamageType::Physical,
        Reaction::Block | Reaction::Never => false,
    };
    let them = turn.unit(target);
    if !declares {
        return Defence::None;
    }
    let opts = turn.options();
    let cost = match their.reaction {
        Reaction::Dodge => opts.dodge_stamina,
        _ => opts.parry_stamina,
    };
    let wear = opts.parry_wear;
    if !can_react(them, *free, cost, their.stamina_reserve) {
        if D::WATCHED {
            note_no_reaction(turn, target, *free);
        }
        return Defence::None;
    }
    match their.reaction {
        Reaction::Dodge => {
            spend_reaction(&mut turn.unit_mut(target).state, free, cost);
            // Said as it is paid: under `before-roll` a miss spends it too.
            turn.note_unit(
                target,
                "declares a dodge, paying its reaction and 1 stamina",
            );
            Defence::Dodge
        }
        Reaction::Parry => match parry_item(their, &them.state) {
            Some((item, value)) => {
                let st = &mut turn.unit_mut(target).state;
                spend_reaction(st, free, cost);
                st.durability[item] = (st.durability[item] - wear).max(0);
                turn.count(counter::PARRIES);
                turn.note_unit(
                    target,
                    "declares a parry, paying its reaction, 1 stamina and 1 durability of the item",
                );
                Defence::Parry(value)
            }
            None => {
                turn.note_unit(
                    target,
                    "no reaction: nothing unbroken in hand to parry with",
                );
                Defence::None
            }
        },
        _ => Defence::None,
    }
}

/// One attack by the acting unit on `target` with its weapon `w`. Dice, in
/// order: (an intercept rolls nothing) attribute and skill dice (more with
/// advantage), the luck die, a d(n) to pick a misfire's victim among `n`,
/// then the defender's Dodge test (DEX die, athletics die, luck die) if it
/// dodges a hit, then its fortify test or cheat-death luck roll if any.
pub fn attack<D: Dice>(turn: &mut Turn<'_, Dicestep, D>, target: usize, w: usize) -> AttackResult {
    if turn.ground().is_some() {
        swing::<D, true, true>(turn, target, w)
    } else {
        swing::<D, true, false>(turn, target, w)
    }
}

/// [`attack`]; `SHOWN`: the caller reads the result's luck roll (otherwise
/// 0: the rules' own attacks read nothing of the result).
fn swing<D: Dice, const SHOWN: bool, const MAP: bool>(
    turn: &mut Turn<'_, Dicestep, D>,
    target: usize,
    w: usize,
) -> AttackResult {
    let me = turn.actor;
    let enc = turn.enc;
    let opts = &enc.options;
    let stats = &enc.units[me].stats;
    let weapon = stats.weapons[w];
    let round = turn.fight.round;

    // Multiple attack penalty: −2 per attack already made this round.
    let st = &mut turn.unit_mut(me).state;
    if st.round_seen != round {
        st.round_seen = round;
        st.attacks_round = 0;
    }
    let penalty = opts.map * st.attacks_round as i32;
    st.attacks_round += 1;
    if weapon.reload > 0 {
        st.loaded &= !(1 << w);
    }
    turn.count(counter::ATTACKS);

    let (mut target, mut free) = match interceptor::<D, MAP>(turn, target) {
        Some(g) => {
            turn.note_unit(g, "intercepts the attack (reaction, 1 stamina)");
            (g, true)
        }
        None => (target, false),
    };
    turn.note_attack(me, target, weapon.number);
    // Dodge and Parry are chosen as the attack is declared, before its roll
    // (by default): the text lets only Block wait for the hit.
    let mut defence = match opts.declare {
        Declare::BeforeRoll => declare(turn, target, &weapon, &mut free),
        Declare::AfterHit => Defence::None,
    };
    let edge = edge::<D, MAP>(turn, target, &weapon);
    // The dice matter only through what they decide: the attribute and
    // skill dice through the total (a hit's damage and a Dodge read it,
    // and a critical's), the luck die through whether the attack is
    // critical and whether it misfires. So they are two pools: the exact
    // engine branches about 22 ways and enumerates 56 faces (a d6, a d6, a
    // d20), where all the faces of the three are 720 branches. The faces
    // themselves are kept only where they are read: a watched fight's
    // notes, and the result of `attack` (`SHOWN`). What the pools read is
    // read in them, after the dice, as in `check`.
    let shown = SHOWN || D::WATCHED;
    let (pair, total) = turn.dice.pool(|d| {
        let a = stats.attribute_die(weapon.attribute);
        let pair = roll_pair(d, a, stats.combat, edge, opts.advantage);
        (
            if shown { pair } else { 0 },
            pair + stats.proficiency - penalty,
        )
    });
    let (luck, crit, wild) = turn.dice.pool(|d| {
        let luck = roll_luck(d, opts.luck_die, stats.luck);
        (
            if shown { luck } else { 0 },
            luck >= weapon.crit,
            weapon.kind != WeaponKind::Melee && luck <= opts.misfire_on,
        )
    });
    note_luck(turn, me, luck);
    let mut misfire = false;
    if wild {
        if let Some(other) = misfire_target::<D, MAP>(turn, target) {
            // The new target chose no defence before the roll (it was not
            // attacked); the old one's is spent for nothing. Under
            // `after-hit` nobody has chosen yet: the new target chooses
            // once hit, as any target would.
            target = other;
            free = false;
            defence = Defence::None;
            misfire = true;
            turn.count(counter::MISFIRES);
            turn.note_that(other, "misfire (luck die at its lowest): the shot goes to");
        }
    }
    let their = &enc.units[target].stats;
    let size = stats.size - their.size;
    let guard = if turn.unit(target).state.guarding {
        opts.guard_bonus
    } else {
        0
    };
    let evasion = their.evasion + size * opts.size_evasion + guard;
    let hit = crit || total >= evasion;
    turn.note_check(
        target,
        "attack (attribute + skill + proficiency − multiple attack penalty vs evasion)",
        pair,
        total - pair,
        evasion,
        hit,
    );
    let mut result = AttackResult {
        target,
        luck,
        total,
        evasion,
        hit,
        crit,
        misfire,
        ..AttackResult::default()
    };
    if !hit {
        return result;
    }
    turn.count(counter::HITS);
    if crit {
        turn.count(counter::CRITS);
        turn.note_that(target, "critical (luck die at the weapon's threshold)");
    }
    // After the hit, whoever was hit chooses, a misfire's new target too:
    // "She finishes the attack as normal, but with her ally as the new
    // target".
    if opts.declare == Declare::AfterHit {
        defence = declare(turn, target, &weapon, &mut free);
    }
    let raw = (total
        + if crit {
            weapon.crit_damage
        } else {
            weapon.damage
        })
    .max(0);
    let shift = size * opts.size_deflection;
    let reduction = match weapon.damage_type {
        DamageType::Physical => (their.deflection - shift).max(0) + guard,
        DamageType::Elemental => (their.elemental_dr - shift).max(0) + guard,
        DamageType::Typeless => 0,
    };
    let least = opts.min_damage;

    let damage = match defence {
        Defence::Dodge => {
            let difficulty = if opts.dodge_difficulty == 0 {
                total
            } else {
                opts.dodge_difficulty
            };
            let (dodged, dodge) = test(
                turn,
                target,
                their.dex_die,
                their.athletics,
                guard,
                difficulty,
            );
            turn.note_check_by(
                target,
                me,
                "dodge (DEX + athletics + guard + luck vs the attack)",
                dodge,
                0,
                difficulty,
                dodged,
            );
            if dodged {
                turn.count(counter::DODGES);
                result.dodged = true;
                return result;
            }
            (raw - reduction).max(least)
        }
        Defence::Parry(value) => (raw - reduction - value).max(least),
        // "You may decide to block after you would get hit but before you
        // take damage."
        Defence::None
            if their.reaction == Reaction::Block
                && their.shield > 0
                && turn.unit(target).state.durability[SHIELD] > 0
                && can_react(
                    turn.unit(target),
                    free,
                    opts.block_stamina,
                    their.stamina_reserve,
                ) =>
        {
            turn.count(counter::BLOCKS);
            let st = &mut turn.unit_mut(target).state;
            spend_reaction(st, &mut free, opts.block_stamina);
            let to_item = (raw - their.shield).max(opts.block_min_damage);
            let left = st.durability[SHIELD] as i32;
            if to_item > left {
                st.durability[SHIELD] = 0;
                let excess = to_item - left;
                if opts.block_overflow_reduced {
                    (excess - reduction).max(least)
                } else {
                    excess
                }
            } else {
                st.durability[SHIELD] -= to_item as i16;
                0
            }
        }
        Defence::None => {
            if D::WATCHED && their.reaction == Reaction::Block {
                note_no_block(turn, target, free);
            }
            (raw - reduction).max(least)
        }
    };
    result.damage = damage;
    if damage > 0 {
        apply_damage(turn, target, damage, weapon.lethal);
    }
    result
}

/// The unbroken wielded item a unit parries with ("choose a wielded item to
/// use for the parry"): the weapon in hand, of any kind, or its shield,
/// whichever parries better; `(durability index, parry value)`.
fn parry_item(stats: &Unit, state: &State) -> Option<(usize, i32)> {
    let held = state.wielded as usize;
    let mut best = (state.durability[held] > 0).then(|| (held, stats.weapons[held].parry));
    if stats.shield > 0
        && state.durability[SHIELD] > 0
        && best.is_none_or(|(_, v)| stats.shield_parry > v)
    {
        best = Some((SHIELD, stats.shield_parry));
    }
    best
}

/// Deal `amount` to `target`: endurance first, then health; knock-out and
/// death checks. `lethal`: the source can kill.
// Inlined as on the front before maps: the map's copies of its callers
// would otherwise tip the inliner into an out-of-line call.
#[inline(always)]
pub fn apply_damage<D: Dice>(
    turn: &mut Turn<'_, Dicestep, D>,
    target: usize,
    amount: i32,
    lethal: bool,
) {
    let enc = turn.enc;
    let stats = &enc.units[target].stats;
    let hostile = turn.unit(target).side != turn.unit(turn.actor).side;
    let st = &mut turn.unit_mut(target).state;
    let to_endurance = amount.min(st.endurance);
    st.endurance -= to_endurance;
    let rest = amount - to_endurance;
    let before = st.health;
    let lost = rest.min(before);
    st.health -= lost;
    let newly_harmed = !st.harmed && st.endurance * 2 <= stats.endurance;
    st.harmed |= newly_harmed;
    let newly_bloodied = !st.bloodied && st.health < stats.health;
    st.bloodied |= newly_bloodied;
    let health = st.health;
    if hostile {
        turn.harm(target, (to_endurance + lost) as u32);
    }
    if newly_harmed {
        turn.count(counter::HARMED);
    }
    if newly_bloodied {
        turn.count(counter::BLOODIED);
    }
    if rest == 0 {
        return;
    }
    if health == 0 {
        knock_out(turn, target);
        // Damage beyond the remaining health risks death; a nonlethal source
        // only once the unit was already at 0.
        if rest > before && (lethal || before == 0) {
            cheat_death(turn, target);
        }
    } else if stats.health - health > stats.constitution
        && !fortify(turn, target, stats.health - health)
    {
        knock_out(turn, target);
    }
}

/// The knock-out fortify: a reaction and stamina, STR + athletics +
/// fortitude (+1 guarding) vs the missing health. True if it stays up.
fn fortify<D: Dice>(turn: &mut Turn<'_, Dicestep, D>, unit: usize, missing: i32) -> bool {
    let opts = turn.options();
    let enc = turn.enc;
    let stats = &enc.units[unit].stats;
    let u = turn.unit(unit);
    if !stats.fortify
        || u.conditions.any(NO_ACTIONS)
        || (opts.fortify_is_reaction && u.state.reactions == 0)
        || u.state.stamina < opts.fortify_stamina
    {
        return false;
    }
    let guard = if u.state.guarding {
        opts.guard_bonus
    } else {
        0
    };
    let st = &mut turn.unit_mut(unit).state;
    if opts.fortify_is_reaction {
        st.reactions -= 1;
    }
    st.stamina -= opts.fortify_stamina;
    let (fortified, _) = test(
        turn,
        unit,
        stats.str_die,
        stats.athletics,
        stats.fortitude + guard,
        missing,
    );
    if fortified {
        turn.count(counter::FORTIFIED);
        true
    } else {
        false
    }
}

/// Fall unconscious ("Damage", "Death"): out of the fight until an ally's
/// Resuscitate. The text lays nobody down on a knock-out (prone comes only
/// from Drop Prone and the rescuer's Resuscitate), so a unit brought back
/// is on its feet; `knock_out_prone` lays it down as well.
fn knock_out<D: Dice>(turn: &mut Turn<'_, Dicestep, D>, unit: usize) {
    let prone = turn.options().knock_out_prone;
    let u = turn.unit_mut(unit);
    if u.out {
        return;
    }
    u.conditions.set(Condition::Unconscious);
    if prone {
        u.conditions.set(Condition::Prone);
    }
    turn.count(counter::UNCONSCIOUS);
    turn.note_unit(unit, "knocked out");
    turn.take_out(unit);
}

/// Cheat death: a luck test against the unit's difficulty (10, +5 after
/// each success), or it dies.
// Inlined as on the front before maps (see `apply_damage`).
#[inline(always)]
fn cheat_death<D: Dice>(turn: &mut Turn<'_, Dicestep, D>, unit: usize) {
    let enc = turn.enc;
    let dc = turn.unit(unit).state.death_dc;
    // Only the verdict counts (a pool: the exact engine branches twice, not
    // once per face); a watched fight's notes read the roll.
    let (cheated, luck) = turn.dice.pool(|d| {
        let luck = roll_luck(d, enc.options.luck_die, enc.units[unit].stats.luck);
        (luck >= dc, if D::WATCHED { luck } else { 0 })
    });
    note_luck(turn, unit, luck);
    let step = turn.options().cheat_death_step;
    let st = turn.unit(unit).state;
    if st.dead {
        return;
    }
    turn.note_check_by(
        unit,
        NO_TARGET,
        "cheat death (luck vs death difficulty)",
        luck,
        0,
        dc,
        cheated,
    );
    if !cheated {
        turn.note_unit(unit, "dies");
    }
    let st = &mut turn.unit_mut(unit).state;
    if cheated {
        st.death_dc += step;
    } else {
        st.dead = true;
        turn.count(counter::DEATHS);
    }
}

mod conformance;
mod map;

#[cfg(test)]
mod tests;
