//! `osr`: the combat rules of "Gameplay: Checks, Actions, & Combat", an
//! old-school game on the 5e chassis. Distances in feet. Every rule of the
//! text, and how it is modelled, is in the conformance table
//! (`osr_conformance.rs`, printed by `skirmish rules osr`).
//!
//! As written: everything is a check (d20 + ability modifier + proficiency if
//! proficient); initiative is a fixed order by DEX *score*, highest first,
//! the same every round (a unit may delay to a slower place); a turn has one
//! Active, one Movement (30 ft) and one Quick action, and the Active action
//! can be traded down (an advancing unit with nothing in reach moves twice);
//! an attack is d20 + STR mod (melee) or DEX mod (ranged) + proficiency vs
//! AC. Close range (10 ft) is melee combat: melee weapons reach 5 ft or up to
//! 10, ranged attacks with an enemy that close have disadvantage, and a
//! Retreat from it takes a DEX check and draws the close enemies' attacks
//! (a failed check or any hit stops it; the retreating PC's retainers then
//! check morale at disadvantage). Light (darkness, dim, brilliant) gives
//! disadvantage to the rolls the text lists, darksight inverts darkness; a
//! natural 20 doubles damage; a natural 1 on a check that damages a PC
//! doubles the damage that PC suffers (with the `defense_checks` variant,
//! where PCs roll to defend). 0 HP incapacitates, and the unit dies unless
//! an ally stabilises it within a minute (10 rounds) or by the end of the
//! fight, whichever is later, so allies tend it once its minute has run out;
//! a stabilised unit rolls on the injury table and (unless it died) returns
//! with 1 HP (a 20: 1 + 1d8). Morale checks (d20 + WIS mod + morale bonus vs
//! DC 11) on the text's triggers send the losers fleeing.
//!
//! The text has no cover rules (cover is ignored), no attacks of
//! opportunity (moving away from an enemy is free; leaving the fight is the
//! Retreat action) and no conditions but "incapacitated". Scenario
//! conditions: incapacitated / paralyzed / stunned / unconscious units
//! cannot act; grappled, restrained, paralyzed, stunned and unconscious
//! units cannot move; a prone unit stands up as its Quick action; blinded
//! units attack and defend at disadvantage; deafened and frightened have no
//! effect.

use super::{Contrary, StatStep, Step};
use crate::dice::{Dice, DiceExpr};
use crate::engine::observe::NO_TARGET;
use crate::engine::{
    Bits, Combatant, Condition, Conditions, Encounter, Fight, InitiativeKind, InitiativeRoll,
    Outcome, Tactic, Turn, UnitSpec, MAX_UNITS,
};
use crate::results::CounterInfo;
use crate::rules::common::{kit, one_attack_drops, KitWeapon};
use crate::rules::d20::{crit_damage, Crit, Edge};
use crate::rules::field::{Field, FieldError, FieldReader, Kind, Lit};
use crate::rules::{Clause, Ruleset, MAX_WEAPONS};

/// The ruleset marker type.
#[derive(Clone, Copy, Debug, Default)]
pub struct Osr;

/// A melee weapon's reach unless its stat block lists one (up to
/// [`CLOSE`]), and the distance at which an ally can touch a dying unit to
/// stabilise it, in feet: the default of option `reach`.
pub const REACH: i32 = 5;
/// The close range band, in feet: "a melee attack must be within 5-10 ft
/// (close range)". It is also "melee combat": ranged attacks made with an
/// enemy this close have disadvantage, a Retreat from it needs the check and
/// draws the attacks, flankers stand in it, and units keeping range back
/// out of it. The default of option `close_range` (which can widen the
/// band, not narrow it), and the longest reach a melee weapon may list:
/// weapons are compiled before the options, so that limit stays the text's.
pub const CLOSE: i32 = 10;
/// A ranged weapon's range unless its stat block lists one, in feet (the
/// text gives none): the default of option `default_range`.
pub const RANGE: i32 = 120;

/// Ability indices into `abilities`.
pub const STR: usize = 0;
pub const DEX: usize = 1;
pub const CON: usize = 2;
pub const INT: usize = 3;
pub const WIS: usize = 4;
pub const CHA: usize = 5;
const ABILITY_KEYS: [&str; 6] = ["str", "dex", "con", "int", "wis", "cha"];

/// Ability modifier of a score (5e: (score − 10) / 2, rounded down).
#[inline]
pub fn modifier(score: i32) -> i32 {
    (score - 10).div_euclid(2)
}

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
    /// Magic or quality bonus to attack rolls.
    pub attack: i32,
    /// Damage dice; the attack's ability modifier is added.
    pub damage: DiceExpr,
    /// Reach (melee) or range (ranged), feet.
    pub range: i32,
    /// Its stat block lists no range: `range` is the option's (`reach` or
    /// `default_range`), set when the unit is prepared.
    pub default_range: bool,
}

impl KitWeapon for Weapon {
    fn mean_damage(&self) -> f64 {
        self.damage.mean()
    }
    fn range(&self) -> i32 {
        self.range
    }
    fn is_melee(&self) -> bool {
        self.kind == WeaponKind::Melee
    }
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Unit {
    pub hp: i32,
    pub ac: i32,
    /// Scores: STR, DEX, CON, INT, WIS, CHA.
    pub abilities: [i32; 6],
    pub proficiency: i32,
    /// Proficient with its weapons (adds `proficiency` to attacks).
    pub proficient: bool,
    /// Monster morale bonus (from HD).
    pub morale: i32,
    /// Adds `proficiency` to morale checks.
    pub morale_proficient: bool,
    /// Adds `proficiency` to stabilising checks; with `stabilise = "medics"`
    /// only medics stabilise.
    pub medic: bool,
    pub speed: i32,
    /// Loads carried: each above the STR score costs 5 ft and gives
    /// disadvantage on all checks.
    pub load: i32,
    pub pc: bool,
    pub leader: bool,
    pub darksight: bool,
    /// Initiative place: its DEX score, or a slower place it delays to.
    pub initiative: i32,
    /// Retreats (the whole-turn action) at or below this many HP; 0: never.
    pub retreat_at: i32,
    /// Weapons, best expected damage first.
    pub weapons: [Weapon; MAX_WEAPONS],
    pub n_weapons: u8,
    pub max_range: i32,
    pub melee_reach: i32,
    pub ranged_range: i32,
    pub advance_reach: i32,
}

impl Unit {
    #[inline]
    pub fn weapons(&self) -> &[Weapon] {
        &self.weapons[..self.n_weapons as usize]
    }
}

/// Light level of the scenario.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Light {
    #[default]
    WellLit,
    Darkness,
    Dim,
    Brilliant,
}

/// What 0 HP means.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AtZeroHp {
    /// As written: incapacitated and dying; dead unless stabilised within the
    /// death clock or by the end of the fight.
    #[default]
    DeathClock,
    /// Dead at once (for comparison).
    Dead,
}

/// Who spends its Active action to stabilise dying allies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stabilise {
    #[default]
    Anyone,
    Medics,
    Never,
}

/// Who returns to the fight after stabilising.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Rejoin {
    /// As written: every survivor of the injury table returns at 1 HP (a 20
    /// with 1d8 HP).
    #[default]
    All,
    /// Only a 20 ("Standing") returns to the fight; the others stay down.
    Standing,
}

/// When a unit spends its Active action stabilising a dying ally.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StabiliseWhen {
    /// Once the ally's minute has run out: only then is the end of the
    /// fight its deadline ("within 1 minute or by the end of the fight,
    /// whichever is later"); before that it cannot die while the fight lasts.
    #[default]
    Due,
    /// As soon as a dying ally is in reach, before attacking.
    First,
}

/// What standing up from prone costs (the text has no prone rules).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StandUp {
    /// A Quick action ("brief actions ... anything that takes a second").
    #[default]
    Quick,
    /// The turn's Movement action.
    Movement,
}

/// What "killed" means for the morale triggers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Killed {
    /// Dead (the text's word; 0 HP is "incapacitated", not dead).
    #[default]
    Dies,
    /// Falls to 0 HP.
    Falls,
}

/// Who checks morale.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Morale {
    Off,
    /// NPCs only ("PCs rarely have to check morale").
    #[default]
    Npcs,
    /// NPCs and PCs (PCs always individually).
    All,
}

/// How NPCs roll morale.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Groups {
    /// One roll for the side's NPCs (by its leader, else its first NPC).
    #[default]
    Side,
    /// One roll per unit group.
    Group,
    Individual,
}

#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub crit: Crit,
    pub nat20_hits: bool,
    pub nat1_misses: bool,
    /// Hit on total > AC instead of ≥.
    pub hit_must_beat: bool,
    pub nat1_doubles: bool,
    pub defense_checks: bool,
    pub light: Light,
    pub long_range: f64,
    pub flanking: bool,
    pub difficult_terrain: bool,
    pub at_zero_hp: AtZeroHp,
    pub death_clock: u32,
    pub stabilise: Stabilise,
    pub stabilise_when: StabiliseWhen,
    pub stabilise_dc: i32,
    pub rejoin: Rejoin,
    pub stand_up: StandUp,
    pub morale: Morale,
    pub morale_groups: Groups,
    pub morale_dc: i32,
    pub morale_outnumbered: bool,
    pub morale_start: bool,
    pub morale_first_fall: bool,
    pub morale_leader: bool,
    pub morale_killed: Killed,
    /// Retainers (NPCs) of a side check at disadvantage when a PC of it
    /// retreats.
    pub morale_retreat: bool,
    /// A side checks once when its standing units drop to this fraction of
    /// its roster or below; 0: never.
    pub morale_tide: f64,
    pub retreat_dc: i32,
    pub retreat_attacks: bool,
    /// The lowest natural attack roll that is critical (and always hits,
    /// with `nat20_hits`).
    pub crit_on: u32,
    pub crit_multiplier: i32,
    /// A PC's natural defense-check roll at or below this, failed, has its
    /// damage multiplied by `fumble_multiplier` (with `nat1_doubles`).
    pub fumble_on: u32,
    pub fumble_multiplier: i32,
    /// Feet of speed lost per load above the STR score.
    pub load_speed_penalty: i32,
    /// Speed is divided by this on difficult terrain.
    pub difficult_terrain_divisor: i32,
    /// The close range band ("melee combat"), feet.
    pub close_range: i32,
    /// Default melee reach, and how close an ally comes to stabilise, feet.
    pub reach: i32,
    /// Default range of a ranged weapon, feet.
    pub default_range: i32,
    /// Enemies within close range of a target that make it flanked.
    pub flankers: u32,
    /// Active actions per turn.
    pub active_actions: u32,
    /// Movement actions per turn.
    pub movement_actions: i32,
    /// HP a stabilised unit returns with.
    pub stabilised_hp: i32,
    /// Injury Table bands: the highest roll of each (false hope, ability
    /// loss, body part, hampered); above the last, Standing.
    pub injury_death_max: u32,
    pub injury_ability_max: u32,
    pub injury_body_max: u32,
    pub injury_hampered_max: u32,
    /// Sides of the ability-loss die (Injury Table 2-7).
    pub injury_ability_die: u32,
    /// Sides of the Standing heal die (Injury Table 20).
    pub standing_heal_die: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            crit: Crit::DoubleTotal,
            nat20_hits: true,
            nat1_misses: true,
            hit_must_beat: false,
            nat1_doubles: true,
            defense_checks: false,
            light: Light::WellLit,
            long_range: 0.5,
            flanking: false,
            difficult_terrain: false,
            at_zero_hp: AtZeroHp::DeathClock,
            death_clock: 10,
            stabilise: Stabilise::Anyone,
            stabilise_when: StabiliseWhen::Due,
            stabilise_dc: 11,
            rejoin: Rejoin::All,
            stand_up: StandUp::Quick,
            morale: Morale::Npcs,
            morale_groups: Groups::Side,
            morale_dc: 11,
            morale_outnumbered: true,
            morale_start: true,
            morale_first_fall: true,
            morale_leader: true,
            morale_killed: Killed::Dies,
            morale_retreat: true,
            morale_tide: 0.5,
            retreat_dc: 11,
            retreat_attacks: true,
            crit_on: 20,
            crit_multiplier: 2,
            fumble_on: 1,
            fumble_multiplier: 2,
            load_speed_penalty: 5,
            difficult_terrain_divisor: 2,
            close_range: CLOSE,
            reach: REACH,
            default_range: RANGE,
            flankers: 2,
            active_actions: 1,
            movement_actions: 1,
            stabilised_hp: 1,
            injury_death_max: 1,
            injury_ability_max: 7,
            injury_body_max: 13,
            injury_hampered_max: 19,
            injury_ability_die: 6,
            standing_heal_die: 8,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct State {
    pub hp: i32,
    /// Current ability scores (the injury table lowers them).
    pub abilities: [i32; 6],
    /// Injury 14–19: disadvantage on all checks until rest.
    pub injured: bool,
    /// At 0 HP, not yet stabilised or dead.
    pub dying: bool,
    /// The round its death clock runs out: the round it went down in plus
    /// `death_clock`. A deadline rather than the round it fell, so that
    /// the exact engine's relative form of it (`forget_round`) stops
    /// counting at 0, where every later round reads it alike.
    pub clock_out: u32,
    /// The fight has begun (the battle-begins morale check is done); set on
    /// every unit by the first turn of the fight.
    pub begun: bool,
    /// Its side has made its "tide of battle" morale check this fight.
    pub tide_checked: bool,
    /// A combatant has been killed this fight, as `morale_killed` counts
    /// killed (dead, or fallen to 0 HP), so the next is not "the first
    /// combatant killed"; set on every unit by `killed` (with
    /// `morale_first_fall`, which reads it). A flag, not the
    /// count of the killed, which no rule reads beyond its first: the
    /// exact engine keeps whatever the rules read with each fight state,
    /// and a count there would tell apart fights that differ only in how
    /// many have fallen (a unit stabilised, back and down again adds one
    /// every time, so the states of later rounds never met those of
    /// earlier ones).
    pub killed_seen: bool,
    /// It spent this turn's Movement action standing up (`stand_up =
    /// "movement"`); cleared when the turn ends.
    pub standing_up: bool,
}

/// Indices into [`Osr::COUNTERS`].
pub mod counter {
    pub const ATTACKS: usize = 0;
    pub const HITS: usize = 1;
    pub const CRITS: usize = 2;
    pub const DOWNED: usize = 3;
    pub const DEATHS: usize = 4;
    pub const STABILISED: usize = 5;
    pub const INJURY_ABILITY: usize = 6;
    pub const INJURY_BODY: usize = 7;
    pub const INJURY_HAMPERED: usize = 8;
    pub const BACK: usize = 9;
    pub const ROUTS: usize = 10;
    pub const RETREATS: usize = 11;
    pub const DYING_AT_END: usize = 12;
}

const KIND_NAMES: &[&str] = &["melee", "ranged"];
const CRIT_NAMES: &[&str] = &["double-total", "double-dice"];
const LIGHT_NAMES: &[&str] = &["well-lit", "darkness", "dim", "brilliant"];
const HIT_NAMES: &[&str] = &["meet", "beat"];
const ZERO_HP_NAMES: &[&str] = &["death-clock", "dead"];
const STABILISE_NAMES: &[&str] = &["anyone", "medics", "never"];
const REJOIN_NAMES: &[&str] = &["all", "standing"];
const WHEN_NAMES: &[&str] = &["due", "first"];
const STAND_NAMES: &[&str] = &["quick", "movement"];
const KILLED_NAMES: &[&str] = &["dies", "falls"];
const MORALE_NAMES: &[&str] = &["npcs", "all", "off"];
const GROUP_NAMES: &[&str] = &["side", "group", "individual"];

/// Conditions that stop a unit from acting.
const NO_ACTIONS: Conditions = Conditions::of(&[
    Condition::Incapacitated,
    Condition::Paralyzed,
    Condition::Stunned,
    Condition::Unconscious,
]);
/// Conditions that leave a unit with speed 0.
const ROOTED: Conditions = Conditions::of(&[
    Condition::Grappled,
    Condition::Paralyzed,
    Condition::Restrained,
    Condition::Stunned,
    Condition::Unconscious,
]);

impl Ruleset for Osr {
    const CONFORMANCE: &'static [Clause] = conformance::TABLE;
    const UNMODELLED: &'static [super::Unmodelled] = &[
        super::Unmodelled::cover("the text has no cover rules"),
        super::Unmodelled::condition(Condition::Deafened, "the text has no deafened condition"),
        super::Unmodelled::condition(
            Condition::Frightened,
            "the text has no frightened condition (morale checks are its fear rule)",
        ),
    ];
    const NAME: &'static str = "osr";
    const TITLE: &'static str =
        "Gameplay: Checks, Actions, & Combat (an OSR game on the 5e chassis)";
    const ABOUT: &'static str = "The combat rules of \"Gameplay: Checks, Actions, & Combat\", an \
        old-school game on the 5e chassis: fixed initiative by DEX \
        score, one Active, one Movement and one Quick action a turn, attacks as checks vs AC, \
        light levels, natural 20s double damage, 0 HP starts a death clock that allies race \
        with stabilising checks and an injury table, and morale checks that rout NPCs. \
        Distances in feet.";
    const DISTANCE_UNIT: &'static str = "ft";
    const DEFAULT_INITIATIVE: InitiativeKind = InitiativeKind::Fixed;
    const INITIATIVE_STAT: &'static str = "dex (score), or delay_to";

    const CONTRARY_STATS: &'static [Contrary] = &[Contrary::unit(
        "load",
        "loads carried: each above the STR score is -5 ft of speed, and any gives \
         disadvantage on all checks",
    )];

    const STEPS: &'static [StatStep] = &[
        StatStep::unit("speed", Step::By(5)),
        StatStep::unit(
            "delay_to",
            Step::Not("a policy: the DEX score it waits for"),
        ),
        StatStep::unit(
            "retreat_at",
            Step::Not("a policy: the HP at which it retreats"),
        ),
        StatStep::weapon(
            "range",
            Step::Except {
                by: 5,
                value: 0,
                means: "the default, 5 ft reach or 120 ft range",
            },
        ),
    ];

    const POLICIES: &'static [&'static str] = &["weapons", "delay_to", "retreat_at"];
    const UNIT_FIELDS: &'static [Field] = &[
        Field::new("hp", Kind::Int { min: 1, max: 100_000 }, None, "hit points"),
        Field::int("ac", -10, 50, 10, "armour class"),
        Field::int("str", 1, 30, 10, "STR score: melee attacks and damage; loads above it slow and hamper"),
        Field::int("dex", 1, 30, 10, "DEX score: initiative place (the score, not the modifier); ranged attacks and damage"),
        Field::int("con", 1, 30, 10, "CON score (0 after an injury: dead)"),
        Field::int("int", 1, 30, 10, "INT score (0 after an injury: dead)"),
        Field::int("wis", 1, 30, 10, "WIS score: morale and stabilising checks"),
        Field::int("cha", 1, 30, 10, "CHA score (0 after an injury: dead)"),
        Field::int("proficiency", 0, 10, 2, "proficiency bonus"),
        Field::flag("proficient", true, "proficient with its weapons: adds proficiency to attacks"),
        Field::int("morale", -10, 20, 0, "monster morale bonus (from HD; the text's table is absent)"),
        Field::flag("morale_proficient", false, "adds proficiency to morale checks (\"if fitting\")"),
        Field::flag("medic", false, "adds proficiency to stabilising checks; with stabilise = \"medics\" only medics stabilise"),
        Field::int("speed", 0, 1000, 30, "movement per Movement action, feet"),
        Field::int("load", 0, 100, 0, "loads carried: each above the STR score is -5 ft of speed, and any gives disadvantage on all checks"),
        Field::flag("pc", false, "a player character: rarely checks morale (option morale), rolls morale individually, and the natural-1 rule applies to it"),
        Field::flag("leader", false, "its fall triggers a morale check for its side; it rolls its side's morale"),
        Field::flag("darksight", false, "sees in darkness: darkness's disadvantages become advantages"),
        Field::int("delay_to", 0, 30, 0, "delay: act at this DEX score instead of its own (at most its DEX; 0 = no delay)"),
        Field::int("retreat_at", 0, 100_000, 0, "takes the Retreat action at or below this many HP (0 = never retreats)"),
        Field::new("weapons", Kind::Names(None), None, "weapons carried (names of [weapons.NAME] tables); the best one that reaches is used"),
    ];

    const WEAPON_FIELDS: &'static [Field] = &[
        Field::new(
            "kind",
            Kind::Choice(KIND_NAMES),
            Some(Lit::Str("melee")),
            "melee (STR) or ranged (DEX)",
        ),
        Field::int(
            "attack",
            -20,
            50,
            0,
            "bonus to attack rolls with this weapon (magic, quality)",
        ),
        Field::new(
            "damage",
            Kind::Dice,
            None,
            "damage dice; the attack's ability modifier is added (e.g. 1d8 + STR mod)",
        ),
        Field::int(
            "range",
            0,
            100_000,
            0,
            "reach (melee: at most 10 ft, close range) or range (ranged) in feet; 0 = 5 ft reach, or 120 ft range",
        ),
    ];

    const OPTIONS: &'static [Field] = &[
        Field::new(
            "crit",
            Kind::Choice(CRIT_NAMES),
            Some(Lit::Str("double-total")),
            "a natural 20 doubles damage: the whole total (modifier included), or the dice only",
        )
        .section("Critical Hits"),
        Field::int("crit_on", 2, 20, 20, "natural attack roll at or above which a hit is critical (and, with nat20_hits, always hits); the text: 20; lower is more crits")
            .section("Critical Hits")
            .quiet(),
        Field::int("crit_multiplier", 1, 10, 2, "a critical hit multiplies its damage by this (the whole total, or the dice with crit = \"double-dice\"); the text: 2 (\"doubled\"); 1 = no extra damage")
            .section("Critical Hits")
            .quiet(),
        Field::flag("nat20_hits", true, "a natural 20 (any critical roll, see crit_on) always hits (and is critical)")
            .section("Critical Hits"),
        Field::flag("nat1_misses", true, "a natural 1 always misses (5e chassis; the text is silent)")
            .section("PC Attacks"),
        Field::new("hit_on", Kind::Choice(HIT_NAMES), Some(Lit::Str("meet")), "an attack hits on total >= AC (meet) or > AC (beat); a defense check keeps the odds (beat: it holds on a tie)")
            .section("PC Attacks"),
        Field::flag("nat1_doubles", true, "a natural 1 on a PC's check that damages it doubles that damage (applies to defense checks)")
            .section("Critical Failure"),
        Field::int("fumble_on", 1, 19, 1, "natural roll of a PC's check (a defense check) at or below which the damage it suffers is multiplied; the text: 1; higher is more doubled damage")
            .section("Critical Failure")
            .quiet(),
        Field::int("fumble_multiplier", 1, 10, 2, "a PC's natural-1 (fumble_on) defense check multiplies the damage it suffers by this; the text: 2 (\"doubles\"); 1 = no extra damage")
            .section("Critical Failure")
            .quiet(),
        Field::flag(
            "defense_checks",
            false,
            "variant: PCs roll to defend against NPC attacks, d20 + (AC - 10) vs 12 + the attack bonus (11 + with hit_on = \"beat\"), instead of the NPC rolling; the attack's edge turned around, the light's defense-check entries applied",
        )
        .section("Light"),
        Field::new(
            "light",
            Kind::Choice(LIGHT_NAMES),
            Some(Lit::Str("well-lit")),
            "darkness: disadvantage on all attacks, defense checks and morale without darksight (advantage with it); dim: on ranged attacks and defense checks vs ranged attacks; brilliant: on long-range attacks",
        )
        .section("Light"),
        Field::new(
            "long_range",
            Kind::Float { min: 0.0, max: 1.0 },
            Some(Lit::Float(0.5)),
            "a ranged attack beyond this fraction of the weapon's range is long-range (brilliant light)",
        )
        .section("Brilliant"),
        Field::int("close_range", CLOSE as i64, 1000, CLOSE as i64, "close range (melee combat), feet: ranged attacks with an enemy this close have disadvantage, retreating from it takes the check and draws attacks, flankers stand in it; the text: 10 (\"within 5-10 ft\"); at least 10, the longest melee reach a weapon may list")
            .section("Range & Attacks")
            .quiet(),
        Field::int("reach", 1, CLOSE as i64, REACH as i64, "reach of a melee weapon that lists no range, and how close an ally comes to stabilise, feet; the text: 5 (\"within 5-10 ft\"); at most 10")
            .section("Range & Attacks")
            .quiet(),
        Field::int("default_range", 1, 100_000, RANGE as i64, "range of a ranged weapon that lists none, feet (the text lists ranges per weapon but gives no default): 120")
            .section("Range & Attacks")
            .quiet(),
        Field::flag("flanking", false, "melee attacks on a flanked target (flankers or more enemies within close range) have advantage (GM's call; off as written)")
            .section("Positioning"),
        Field::int("flankers", 2, 20, 2, "enemies within close range of a target that flank it (with flanking = true); the text: \"multiple allies flanking\", 2; higher is rarer advantage")
            .section("Positioning")
            .quiet(),
        Field::int("active_actions", 1, 4, 1, "Active actions a unit takes each turn (each an attack, a stabilising check, or traded down to a move); the text: 1 (\"one of each action per round\")")
            .section("PC Actions")
            .quiet(),
        Field::int("movement_actions", 0, 4, 1, "Movement actions a unit takes each turn, each up to its speed (standing up from prone with stand_up = \"movement\" spends one); the text: 1")
            .section("PC Actions")
            .quiet(),
        Field::int("load_speed_penalty", 0, 30, 5, "feet of speed lost per load carried above the STR score; the text: 5")
            .section("Movement Actions")
            .quiet(),
        Field::flag("difficult_terrain", false, "the ground is difficult terrain: speed divided by difficult_terrain_divisor")
            .section("Movement Actions"),
        Field::int("difficult_terrain_divisor", 1, 10, 2, "difficult terrain divides speed by this (rounded down); the text: 2 (\"half speed\")")
            .section("Movement Actions")
            .quiet(),
        Field::new(
            "at_zero_hp",
            Kind::Choice(ZERO_HP_NAMES),
            Some(Lit::Str("death-clock")),
            "0 HP: dying, dead unless stabilised within death_clock rounds or by the end of the fight, whichever is later (as written); or dead at once",
        )
        .section("Death & Injury"),
        Field::int(
            "death_clock",
            1,
            1000,
            10,
            "rounds a dying unit lasts (the text's 1 minute); it dies when this and the end of the fight have both passed",
        )
        .section("Death & Injury"),
        Field::new(
            "stabilise",
            Kind::Choice(STABILISE_NAMES),
            Some(Lit::Str("anyone")),
            "who spends its Active action to stabilise a dying ally it can reach this turn (before attacking): anyone, medics, never",
        )
        .section("Stabilizing & Injuries"),
        Field::new(
            "stabilise_when",
            Kind::Choice(WHEN_NAMES),
            Some(Lit::Str("due")),
            "when a unit stabilises a dying ally: once the ally's minute has run out, the end of the fight being its deadline from then on (due: before that it cannot die while the fight lasts), or as soon as one is in reach (first)",
        )
        .section("Stabilizing & Injuries"),
        Field::int("stabilise_dc", 1, 40, 11, "DC of the stabilising check (d20 + WIS mod, + proficiency for medics; the text gives none)")
            .section("Stabilizing & Injuries"),
        Field::int("stabilised_hp", 1, 1000, 1, "HP a stabilised unit that survives the injury table returns with (never above its max); the text: 1")
            .section("Stabilizing & Injuries")
            .quiet(),
        Field::new(
            "rejoin",
            Kind::Choice(REJOIN_NAMES),
            Some(Lit::Str("all")),
            "after the injury table: every survivor returns to the fight at 1 HP (as written), or only a 20 (with 1d8 HP)",
        )
        .section("Stabilizing & Injuries"),
        Field::int("injury_death_max", 0, 20, 1, "Injury Table: rolls 1 to this are a false hope (dead); the text: 1; 0 = none")
            .section("Injury Table")
            .quiet(),
        Field::int("injury_ability_max", 0, 20, 7, "Injury Table: rolls above injury_death_max up to this lose 1d6 of an ability (STR, DEX, CON, INT, WIS, CHA in turn); the text: 7 (2-7)")
            .section("Injury Table")
            .quiet(),
        Field::int("injury_body_max", 0, 20, 13, "Injury Table: rolls above injury_ability_max up to this lose a body part (no effect in a fight); the text: 13 (8-13)")
            .section("Injury Table")
            .quiet(),
        Field::int("injury_hampered_max", 0, 20, 19, "Injury Table: rolls above injury_body_max up to this give disadvantage on all checks; above it, Standing (heal); the text: 19 (14-19, 20 Standing)")
            .section("Injury Table")
            .quiet(),
        Field::int("injury_ability_die", 1, 100, 6, "Injury Table: sides of the die of ability lost; the text: 6 (1d6)")
            .section("Injury Table")
            .quiet(),
        Field::int("standing_heal_die", 1, 100, 8, "Injury Table, Standing: sides of the die of HP healed on top of the return; the text: 8 (1d8)")
            .section("Injury Table")
            .quiet(),
        Field::new(
            "stand_up",
            Kind::Choice(STAND_NAMES),
            Some(Lit::Str("quick")),
            "a prone unit that can act stands up at the start of its turn as a Quick action (quick: brief, takes a second) or with its Movement action (movement); the text has no prone rules",
        )
        .section("Quick Actions"),
        Field::new("morale", Kind::Choice(MORALE_NAMES), Some(Lit::Str("npcs")), "who checks morale: NPCs only, everyone, or nobody")
            .section("Morale"),
        Field::new(
            "morale_groups",
            Kind::Choice(GROUP_NAMES),
            Some(Lit::Str("side")),
            "NPCs roll morale as a side (one roll, by its leader or first NPC), per unit group, or individually; PCs always individually",
        )
        .section("Side, Group, or Individual"),
        Field::int("morale_dc", 1, 40, 11, "morale check DC; the text: 11 (\"always have a DC 11\"); higher routs more")
            .section("Morale"),
        Field::flag("morale_outnumbered", true, "a side with fewer units standing than its enemies rolls morale at disadvantage")
            .section("Morale Checks"),
        Field::flag("morale_start", true, "morale check when the battle begins")
            .section("When To Check Morale"),
        Field::flag("morale_first_fall", true, "the side of the first combatant killed checks morale (\"killed\": see morale_killed)")
            .section("When To Check Morale"),
        Field::flag("morale_leader", true, "a side checks morale when a leader of it is killed")
            .section("When To Check Morale"),
        Field::new(
            "morale_killed",
            Kind::Choice(KILLED_NAMES),
            Some(Lit::Str("dies")),
            "\"killed\" in the morale triggers: dead (dies: the text's word; 0 HP is incapacitated, not dead) or brought to 0 HP (falls)",
        )
        .section("When To Check Morale"),
        Field::flag("morale_retreat", true, "when a PC retreats, the NPCs of its side (its retainers) check morale at disadvantage")
            .section("Retreat"),
        Field::new(
            "morale_tide",
            Kind::Float { min: 0.0, max: 1.0 },
            Some(Lit::Float(0.5)),
            "\"the tide is obvious\": a side checks once when its units standing drop to this fraction of its roster (0 = never)",
        )
        .section("When To Check Morale"),
        Field::int("retreat_dc", 0, 40, 11, "DEX check to break away when retreating from melee combat, an enemy within close range (0 = no check)")
            .section("Retreat"),
        Field::flag("retreat_attacks", true, "enemies within close range attack a retreating unit; any hit stops the retreat")
            .section("Retreat"),
    ];

    // No counter is read: "the first combatant is killed" is a flag of
    // the units' (`State::killed_seen`).
    const COUNTERS: &'static [CounterInfo] = &[
        CounterInfo { name: "attacks", doc: "attack rolls (or defense checks) per fight" },
        CounterInfo { name: "hits", doc: "attacks that hit, per fight" },
        CounterInfo { name: "crits", doc: "natural-20 critical hits and natural-1 doubled damage, per fight" },
        CounterInfo { name: "downed", doc: "units brought to 0 HP per fight" },
        CounterInfo {
            name: "deaths",
            doc: "deaths per fight: still dying when the fight ended after the minute ran out (or with nobody of its side standing), false hope (injury 1), an ability at 0, or 0 HP with at_zero_hp = dead",
        },
        CounterInfo { name: "stabilised", doc: "successful stabilising checks per fight" },
        CounterInfo { name: "injury_ability", doc: "injury table 2-7: lost 1d6 of an ability (and lived)" },
        CounterInfo { name: "injury_body", doc: "injury table 8-13: lost a body part" },
        CounterInfo { name: "injury_hampered", doc: "injury table 14-19: disadvantage on all checks until rest" },
        CounterInfo { name: "back_in_fight", doc: "stabilised units back in the fight" },
        CounterInfo { name: "routs", doc: "units that failed a morale check and fled" },
        CounterInfo { name: "retreats", doc: "successful Retreat actions" },
        CounterInfo {
            name: "dying_at_end",
            doc: "units still dying when the fight ended, within their minute, with allies standing (not counted as deaths)",
        },
    ];

    type Weapon = Weapon;
    type Unit = Unit;
    type State = State;
    type Options = Options;

    fn compile_options(f: &impl FieldReader) -> Result<Options, FieldError> {
        // Injury Table: the bands' upper limits must rise (a band may be
        // empty: equal to the one before).
        let bands = [
            "injury_death_max",
            "injury_ability_max",
            "injury_body_max",
            "injury_hampered_max",
        ];
        let mut limits = [0u32; 4];
        for (i, name) in bands.iter().enumerate() {
            limits[i] = f.int(name)? as u32;
            if i > 0 && limits[i] < limits[i - 1] {
                return Err(f.error(
                    name,
                    format!(
                        "the injury table's bands run in order: {name} must be at least {} \
                         (`{}`) and at most 20, but is {}",
                        limits[i - 1],
                        bands[i - 1],
                        limits[i]
                    ),
                ));
            }
        }
        Ok(Options {
            crit: [Crit::DoubleTotal, Crit::DoubleDice][f.choice("crit")?],
            nat20_hits: f.bool("nat20_hits")?,
            nat1_misses: f.bool("nat1_misses")?,
            hit_must_beat: f.choice("hit_on")? == 1,
            nat1_doubles: f.bool("nat1_doubles")?,
            defense_checks: f.bool("defense_checks")?,
            light: [
                Light::WellLit,
                Light::Darkness,
                Light::Dim,
                Light::Brilliant,
            ][f.choice("light")?],
            long_range: f.float("long_range")?,
            flanking: f.bool("flanking")?,
            difficult_terrain: f.bool("difficult_terrain")?,
            at_zero_hp: [AtZeroHp::DeathClock, AtZeroHp::Dead][f.choice("at_zero_hp")?],
            death_clock: f.int("death_clock")? as u32,
            stabilise: [Stabilise::Anyone, Stabilise::Medics, Stabilise::Never]
                [f.choice("stabilise")?],
            stabilise_when: [StabiliseWhen::Due, StabiliseWhen::First]
                [f.choice("stabilise_when")?],
            stabilise_dc: f.int("stabilise_dc")? as i32,
            rejoin: [Rejoin::All, Rejoin::Standing][f.choice("rejoin")?],
            stand_up: [StandUp::Quick, StandUp::Movement][f.choice("stand_up")?],
            morale: [Morale::Npcs, Morale::All, Morale::Off][f.choice("morale")?],
            morale_groups: [Groups::Side, Groups::Group, Groups::Individual]
                [f.choice("morale_groups")?],
            morale_dc: f.int("morale_dc")? as i32,
            morale_outnumbered: f.bool("morale_outnumbered")?,
            morale_start: f.bool("morale_start")?,
            morale_first_fall: f.bool("morale_first_fall")?,
            morale_leader: f.bool("morale_leader")?,
            morale_killed: [Killed::Dies, Killed::Falls][f.choice("morale_killed")?],
            morale_retreat: f.bool("morale_retreat")?,
            morale_tide: f.float("morale_tide")?,
            retreat_dc: f.int("retreat_dc")? as i32,
            retreat_attacks: f.bool("retreat_attacks")?,
            crit_on: f.int("crit_on")? as u32,
            crit_multiplier: f.int("crit_multiplier")? as i32,
            fumble_on: f.int("fumble_on")? as u32,
            fumble_multiplier: f.int("fumble_multiplier")? as i32,
            load_speed_penalty: f.int("load_speed_penalty")? as i32,
            difficult_terrain_divisor: f.int("difficult_terrain_divisor")? as i32,
            close_range: f.int("close_range")? as i32,
            reach: f.int("reach")? as i32,
            default_range: f.int("default_range")? as i32,
            flankers: f.int("flankers")? as u32,
            active_actions: f.int("active_actions")? as u32,
            movement_actions: f.int("movement_actions")? as i32,
            stabilised_hp: f.int("stabilised_hp")? as i32,
            injury_death_max: limits[0],
            injury_ability_max: limits[1],
            injury_body_max: limits[2],
            injury_hampered_max: limits[3],
            injury_ability_die: f.int("injury_ability_die")? as u32,
            standing_heal_die: f.int("standing_heal_die")? as u32,
        })
    }

    fn number_weapon(weapon: &mut Weapon, number: u16) {
        weapon.number = number;
    }

    fn compile_weapon(f: &impl FieldReader) -> Result<Weapon, FieldError> {
        let kind = [WeaponKind::Melee, WeaponKind::Ranged][f.choice("kind")?];
        let listed = f.int("range")? as i32;
        // Unlisted: the options' defaults (`reach`, `default_range`), set by
        // `prepare_unit`; the text's until then.
        let range = match (listed, kind) {
            (0, WeaponKind::Melee) => REACH,
            (0, WeaponKind::Ranged) => RANGE,
            (r, WeaponKind::Melee) if r > CLOSE => {
                return Err(f.error(
                    "range",
                    format!(
                    "a melee attack must be within 5-10 ft (close range): reach at most {CLOSE}"
                ),
                ))
            }
            (r, _) => r,
        };
        Ok(Weapon {
            number: 0,
            kind,
            attack: f.int("attack")? as i32,
            damage: f.dice("damage")?,
            range,
            default_range: listed == 0,
        })
    }

    fn compile_unit(f: &impl FieldReader, weapons: &[Weapon]) -> Result<Unit, FieldError> {
        let mut abilities = [0; 6];
        for (a, key) in abilities.iter_mut().zip(ABILITY_KEYS) {
            *a = f.int(key)? as i32;
        }
        let delay = f.int("delay_to")? as i32;
        if delay > abilities[DEX] {
            return Err(f.error(
                "delay_to",
                format!(
                    "a unit can only delay to a slower place: delay_to must be at most its DEX score ({})",
                    abilities[DEX]
                ),
            ));
        }
        let mut unit = Unit {
            hp: f.int("hp")? as i32,
            ac: f.int("ac")? as i32,
            abilities,
            proficiency: f.int("proficiency")? as i32,
            proficient: f.bool("proficient")?,
            morale: f.int("morale")? as i32,
            morale_proficient: f.bool("morale_proficient")?,
            medic: f.bool("medic")?,
            speed: f.int("speed")? as i32,
            load: f.int("load")? as i32,
            pc: f.bool("pc")?,
            leader: f.bool("leader")?,
            darksight: f.bool("darksight")?,
            initiative: if delay > 0 { delay } else { abilities[DEX] },
            retreat_at: f.int("retreat_at")? as i32,
            ..Unit::default()
        };
        let kit = kit(f, weapons)?;
        unit.weapons = kit.weapons;
        unit.n_weapons = kit.n;
        unit.max_range = kit.max_range;
        unit.melee_reach = kit.melee_reach;
        unit.ranged_range = kit.ranged_range;
        unit.advance_reach = kit.advance_reach;
        Ok(unit)
    }

    fn describe_unit(u: &Unit) -> String {
        let a = &u.abilities;
        let mut s = format!(
            "{} HP, AC {}, STR {} DEX {} WIS {}",
            u.hp, u.ac, a[STR], a[DEX], a[WIS]
        );
        if u.pc {
            s.push_str(", PC");
        }
        if u.leader {
            s.push_str(", leader");
        }
        if u.darksight {
            s.push_str(", darksight");
        }
        if u.morale != 0 {
            s.push_str(&format!(", morale {:+}", u.morale));
        }
        if u.load > a[STR] {
            s.push_str(&format!(", overloaded by {}", u.load - a[STR]));
        }
        s
    }

    fn default_tactic(unit: &Unit) -> Tactic {
        if unit.ranged_range > 0 {
            Tactic::Hold
        } else {
            Tactic::Advance
        }
    }

    /// Attacks reach `distance <= range` (`best_weapon`): the range the
    /// prepared unit carries it with (an unlisted one is the options').
    fn weapon_reach(unit: &Unit, weapon: &Weapon) -> Option<i32> {
        let carried = unit.weapons().iter().find(|w| w.number == weapon.number);
        Some(carried.map_or(weapon.range, |w| w.range))
    }

    /// Weapons that list no range get the options' (`reach`,
    /// `default_range`), and the kit's ranges follow. With the text's
    /// values nothing changes.
    fn prepare_unit(spec: &mut UnitSpec<Self>, options: &Options) {
        // One attack a round, with the best weapon first (weapons are
        // ranked by mean damage): what a turn most likely deals.
        spec.drops = one_attack_drops(spec.stats.weapons());
        let unit = &mut spec.stats;
        if !unit.weapons().iter().any(|w| w.default_range) {
            return;
        }
        let n = unit.n_weapons as usize;
        for w in &mut unit.weapons[..n] {
            if w.default_range {
                w.range = match w.kind {
                    WeaponKind::Melee => options.reach,
                    WeaponKind::Ranged => options.default_range,
                };
            }
        }
        let longest = |melee: Option<bool>| {
            unit.weapons[..n]
                .iter()
                .filter(|w| melee.is_none_or(|m| (w.kind == WeaponKind::Melee) == m))
                .map(|w| w.range)
                .max()
                .unwrap_or(0)
        };
        let (max_range, melee_reach, ranged_range) =
            (longest(None), longest(Some(true)), longest(Some(false)));
        unit.max_range = max_range;
        unit.melee_reach = melee_reach;
        unit.ranged_range = ranged_range;
        // Advancing closes to melee whatever a ranged weapon could hit
        // from farther (issue 30: `advance` means closing in, shooting on
        // the way): without a melee weapon, to the options' `reach` (or the
        // weapon's range if that is shorter).
        unit.advance_reach = if melee_reach > 0 {
            melee_reach
        } else {
            options.reach.min(max_range)
        };
    }

    fn roll_initiative<D: Dice>(unit: &Unit, dice: &mut D) -> InitiativeRoll {
        // For the rolled schemes: d20 + DEX modifier, ties to the higher score.
        InitiativeRoll {
            total: dice.d20() as i32 + modifier(unit.abilities[DEX]),
            tiebreak: unit.initiative,
        }
    }

    fn initiative_stat(unit: &Unit) -> i32 {
        unit.initiative
    }

    fn enter(unit: &mut Combatant<State>, spec: &UnitSpec<Self>, _options: &Options) {
        unit.state = State {
            hp: spec.stats.hp,
            abilities: spec.stats.abilities,
            ..State::default()
        };
    }

    fn take_turn<D: Dice>(turn: &mut Turn<'_, Self, D>) {
        let me = turn.actor;
        // Dying units need no turns: nobody dies of the clock while the
        // fight lasts (the end of the fight is always the later deadline; see
        // `finish`), so osr never marks a unit lingering and the engine never
        // calls this for a unit out of the fight. Called directly (tests), an
        // out unit does nothing.
        if turn.unit(me).out {
            return;
        }
        if !turn.unit(me).state.begun {
            begin(turn);
            if turn.unit(me).out {
                return;
            }
        }
        if turn.unit(me).conditions.any(NO_ACTIONS) {
            return;
        }
        stand_up(turn);
        act(turn);
        turn.unit_mut(me).state.standing_up = false;
    }

    /// Incapacitated, paralyzed, stunned and unconscious units cannot act
    /// ("incapacitated and unable to act"): under team-alternating
    /// activation they never cost their side an activation.
    #[inline]
    fn can_act(fight: &Fight<Self>, _enc: &Encounter<Self>, unit: usize) -> bool {
        let u = &fight.units[unit];
        !u.out && !u.conditions.any(NO_ACTIONS)
    }

    fn finish(fight: &mut Fight<Self>, enc: &Encounter<Self>, _outcome: Outcome) {
        // "Dead if not stabilized within 1 minute or by the end of the fight
        // (whichever is later)": at the end, a unit whose minute has run out
        // dies, and so does one whose side has nobody standing to tend it.
        // One whose minute is still running, with allies standing, may yet
        // be stabilised after the fight, which is not simulated: it is
        // counted as `dying_at_end`, not as a death.
        let round = fight.round;
        for i in 0..enc.n {
            let unit = fight.units[i];
            if !unit.state.dying {
                continue;
            }
            let minute_over = round >= unit.state.clock_out;
            if minute_over || fight.standing(unit.side as usize) == 0 {
                fight.units[i].state.dying = false;
                fight.counters[counter::DEATHS] += 1;
            } else {
                fight.counters[counter::DYING_AT_END] += 1;
            }
        }
    }

    /// Out of the fight and not dying: dead, fled, or stabilised and kept
    /// out (`rejoin = "standing"`). Only a dying unit comes back
    /// (`stabilised`), and osr gives no turns to units out of the fight.
    fn gone_for_good(unit: &Combatant<State>) -> bool {
        unit.out && !unit.state.dying
    }

    // The rules read the round number only against `clock_out` (and
    // stamp it there), which `forget_round` makes relative: every round
    // plays alike.
    fn round_class(_round: u32) -> u32 {
        0
    }

    /// `clock_out` becomes the rounds left on a dying unit's clock, 0 once
    /// it has run out: every rule reads it only as `round >= clock_out`,
    /// which that keeps in any later round. A unit not dying never has it
    /// read again (going down sets it afresh), so it is cleared and does
    /// not split otherwise equal states.
    fn forget_round(state: &mut State, round: u32) {
        state.clock_out = if state.dying {
            state.clock_out.saturating_sub(round)
        } else {
            0
        };
    }

    /// Rounds left back to the round the clock runs out; one run out reads
    /// as running out now, which plays alike from here on.
    fn recall_round(state: &mut State, round: u32) {
        if state.dying {
            state.clock_out += round;
        }
    }

    fn vitality(unit: &Combatant<State>, spec: &UnitSpec<Self>) -> (u32, u32) {
        (unit.state.hp.max(0) as u32, spec.stats.hp as u32)
    }
}

/// The acting unit's actions once it can act: the Retreat, stabilising a
/// dying ally, or its tactic.
fn act<D: Dice>(turn: &mut Turn<'_, Osr, D>) {
    let me = turn.actor;
    let stats = &turn.enc.units[me].stats;
    if stats.retreat_at > 0 && turn.unit(me).state.hp <= stats.retreat_at {
        retreat(turn);
        return;
    }
    let actions = turn.options().active_actions;
    if tend(turn) {
        // Its Movement took it to the ally; any further Active actions
        // attack what is in reach from there.
        for _ in 1..actions {
            hold(turn);
        }
        return;
    }
    match turn.spec(me).tactic {
        Tactic::Hold | Tactic::Auto => {
            for _ in 0..actions {
                hold(turn);
            }
        }
        Tactic::Advance => advance(turn, actions),
        Tactic::KeepRange => keep_range(turn, actions),
    }
}

/// A prone unit that can act gets up at the start of its turn: the text has
/// no prone rules, and a designer would not leave a unit crawling for the
/// rest of the fight. It costs the Quick action (nothing else in a turn
/// uses it) or, with `stand_up = "movement"`, the Movement action.
fn stand_up<D: Dice>(turn: &mut Turn<'_, Osr, D>) {
    let me = turn.actor;
    if !turn.unit(me).conditions.has(Condition::Prone) {
        return;
    }
    let movement = turn.options().stand_up == StandUp::Movement;
    let unit = turn.unit_mut(me);
    unit.conditions.clear(Condition::Prone);
    unit.state.standing_up = movement;
}

/// The acting unit's Movement actions (`movement_actions`, the text's one):
/// its speed for each, less one if it spent one standing up. (A move that
/// is an Active action traded down is always its full speed.)
fn movement<D: Dice>(turn: &Turn<'_, Osr, D>) -> i32 {
    let me = turn.actor;
    let unit = turn.unit(me);
    let opts = turn.options();
    let moves = opts.movement_actions - i32::from(unit.state.standing_up);
    if moves <= 0 {
        0
    } else {
        moves * speed(&turn.enc.units[me].stats, unit, opts)
    }
}

// ---- Checks ----

/// Disadvantage on all of this unit's checks: overloaded, or injured (14-19).
#[inline]
fn hampered(stats: &Unit, state: &State) -> bool {
    state.injured || stats.load > state.abilities[STR]
}

/// Speed this turn: −5 ft (`load_speed_penalty`) per load above STR,
/// halved (`difficult_terrain_divisor`) for difficult terrain; 0 when held
/// fast. (No unit moves while prone: it stands up first, see
/// `stand_up`, so crawling never comes up.)
pub fn speed(stats: &Unit, unit: &Combatant<State>, opts: &Options) -> i32 {
    if unit.conditions.any(ROOTED) {
        return 0;
    }
    let over = (stats.load - unit.state.abilities[STR]).max(0);
    let s = (stats.speed - opts.load_speed_penalty * over).max(0);
    if opts.difficult_terrain {
        s / opts.difficult_terrain_divisor
    } else {
        s
    }
}

/// An ability check by unit `u` (on `target`, or [`NO_TARGET`]): d20 (with
/// `edge`, and disadvantage if it is hampered) + the ability's modifier +
/// `bonus` >= `dc`.
#[allow(clippy::too_many_arguments)]
fn check<D: Dice>(
    turn: &mut Turn<'_, Osr, D>,
    rule: &'static str,
    u: usize,
    target: usize,
    ability: usize,
    bonus: i32,
    dc: i32,
    advantage: bool,
    disadvantage: bool,
) -> bool {
    let stats = &turn.enc.units[u].stats;
    let state = &turn.fight.units[u].state;
    let edge = Edge::from_sources(advantage, disadvantage || hampered(stats, state));
    let modifier = modifier(state.abilities[ability]) + bonus;
    // Only the verdict matters to the fight (see `strike`); the natural
    // die is kept in the value only for an observer's note.
    let (passed, natural) = turn.dice.pool(
        #[inline(always)]
        |d| {
            let natural = edge.roll(d) as i32;
            let kept = if D::WATCHED { natural } else { 0 };
            (natural + modifier >= dc, kept)
        },
    );
    turn.note_check_by(u, target, rule, natural, modifier, dc, passed)
}

// ---- Tactics ----

/// The first (best) weapon that reaches `distance`.
#[inline]
fn best_weapon(stats: &Unit, distance: i32) -> Option<&Weapon> {
    stats.weapons().iter().find(|w| distance <= w.range)
}

fn attack_if_in_reach<D: Dice>(turn: &mut Turn<'_, Osr, D>, target: usize) -> bool {
    let stats = &turn.enc.units[turn.actor].stats;
    match best_weapon(stats, turn.enemy_distance(target)) {
        Some(w) => {
            strike::<D, false>(turn, target, w);
            true
        }
        None => false,
    }
}

/// Hold: stay put, attack whatever is in range.
fn hold<D: Dice>(turn: &mut Turn<'_, Osr, D>) {
    let stats = &turn.enc.units[turn.actor].stats;
    if let Some(target) = turn.choose_target(|t, i| t.enemy_distance(i) <= stats.max_range) {
        attack_if_in_reach(turn, target);
    }
}

/// Advance: Movement toward the target, then each Active action (the text's
/// one; `active_actions`): attack if a weapon reaches, otherwise trade it
/// down to another Movement. An Active action after the first picks its
/// target afresh.
fn advance<D: Dice>(turn: &mut Turn<'_, Osr, D>, actions: u32) {
    let me = turn.actor;
    let stats = &turn.enc.units[me].stats;
    let Some(target) = turn.choose_target(|_, _| true) else {
        return;
    };
    let reach = stats.advance_reach;
    if turn.enemy_distance(target) > reach {
        let first = movement(turn);
        turn.approach(target, first, reach);
    }
    advance_action(turn, target, reach);
    if actions > 1 {
        further_advance(turn, actions - 1, reach);
    }
}

/// One Active action of an advancing unit: attack `target` if in reach,
/// else trade the action down to Movement toward it.
#[inline(always)]
fn advance_action<D: Dice>(turn: &mut Turn<'_, Osr, D>, target: usize, reach: i32) {
    if attack_if_in_reach(turn, target) {
        return;
    }
    // Active traded down to Movement: full speed, worked out only now
    // (most turns attack); moving changed nothing it depends on.
    let me = turn.actor;
    let budget = speed(&turn.enc.units[me].stats, turn.unit(me), turn.options());
    turn.approach(target, budget, reach);
}

/// The Active actions after the first (`active_actions` above 1), each on
/// the target chosen anew. Out of line: the text's one Active action a turn
/// keeps the turn as it was.
#[inline(never)]
fn further_advance<D: Dice>(turn: &mut Turn<'_, Osr, D>, actions: u32, reach: i32) {
    for _ in 0..actions {
        let Some(target) = turn.choose_target(|_, _| true) else {
            return;
        };
        advance_action(turn, target, reach);
    }
}

/// Keep range: step back out of close range, where shots have
/// disadvantage (no attacks of opportunity in this game), close only to
/// weapon range, shoot.
fn keep_range<D: Dice>(turn: &mut Turn<'_, Osr, D>, actions: u32) {
    let me = turn.actor;
    let stats = &turn.enc.units[me].stats;
    let close = turn.options().close_range;
    let budget = movement(turn);
    let range = if stats.ranged_range > 0 {
        stats.ranged_range
    } else {
        stats.max_range
    };
    if turn.enemies_within(me, close) != 0 {
        turn.back_off(budget);
    } else if turn
        .enemies()
        .all(|i| turn.enemy_distance(i) > stats.max_range)
    {
        // Nothing in range: close in to firing range.
        if let Some(t) = turn.choose_target(|_, _| true) {
            turn.approach(t, budget, range);
        }
    }
    for _ in 0..actions {
        hold(turn);
    }
}

/// Stabilise: spend the Active action (after moving up to the fallen) on the
/// nearest dying ally this unit can reach this turn, and with
/// `stabilise_when = "due"` only one whose minute has run out. Returns true
/// if it did.
fn tend<D: Dice>(turn: &mut Turn<'_, Osr, D>) -> bool {
    let me = turn.actor;
    let opts = turn.options();
    let stats = &turn.enc.units[me].stats;
    match opts.stabilise {
        Stabilise::Never => return false,
        Stabilise::Medics if !stats.medic => return false,
        _ => {}
    }
    // The dying allies due a stabilising check, from the allies out of the
    // fight; with none (most turns: nobody down, or only the dead, the fled
    // and those whose minute runs yet), there is no one to reach, and no
    // movement to work out.
    let round = turn.fight.round;
    let mut due = 0u64;
    for a in Bits(turn.allies() & !turn.in_fight()) {
        let state = &turn.unit(a).state;
        if state.dying && (opts.stabilise_when == StabiliseWhen::First || round >= state.clock_out)
        {
            due |= 1 << a;
        }
    }
    if due == 0 {
        return false;
    }
    let budget = movement(turn);
    let mut best: Option<(i32, usize)> = None;
    for a in Bits(due) {
        let d = turn.distance(me, a);
        if d <= budget + opts.reach && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, a));
        }
    }
    let Some((_, ally)) = best else {
        return false;
    };
    turn.approach(ally, budget, opts.reach);
    let bonus = if stats.medic { stats.proficiency } else { 0 };
    if check(
        turn,
        "stabilise (WIS)",
        me,
        ally,
        WIS,
        bonus,
        opts.stabilise_dc,
        false,
        false,
    ) {
        stabilised(turn, ally);
    }
    true
}

/// A dying unit has been stabilised: the injury table.
pub fn stabilised<D: Dice>(turn: &mut Turn<'_, Osr, D>, u: usize) {
    turn.count(counter::STABILISED);
    turn.unit_mut(u).state.dying = false;
    let opts = turn.options();
    // Within the body-part and hampered bands the roll matters only
    // through its band: unless someone reads the face, each band is one
    // value (its highest roll), so the exact engine branches once per band
    // there (the ability band's rolls each pick an ability, and are kept).
    let roll = turn.dice.pool(|d| {
        let roll = d.d20();
        if D::WATCHED || roll <= opts.injury_ability_max {
            roll
        } else if roll <= opts.injury_body_max {
            opts.injury_body_max
        } else if roll <= opts.injury_hampered_max {
            opts.injury_hampered_max
        } else {
            roll
        }
    });
    turn.note_roll(u, "injury table", roll as i32);
    // "If not a 1 (dead), they return to 1 HP" (`stabilised_hp`); a 20
    // then "instantly heal[s] 1d8 HP" on top. The bands are options
    // (`injury_*_max`, the text's 1, 7, 13, 19).
    let mut hp = opts.stabilised_hp;
    let standing = roll > opts.injury_hampered_max;
    match roll {
        r if r <= opts.injury_death_max => {
            // A false hope.
            turn.count(counter::DEATHS);
            died(turn, u);
            return;
        }
        r if r <= opts.injury_ability_max => {
            // STR, DEX, CON, INT, WIS, CHA in turn from the band's first roll.
            let ability = (r - opts.injury_death_max - 1) as usize % 6;
            let loss = turn.dice.roll(opts.injury_ability_die) as i32;
            turn.note_roll(u, "ability loss", loss);
            let unit = turn.unit_mut(u);
            unit.state.abilities[ability] -= loss;
            if unit.state.abilities[ability] <= 0 {
                turn.count(counter::DEATHS);
                died(turn, u);
                return;
            }
            turn.count(counter::INJURY_ABILITY);
        }
        r if r <= opts.injury_body_max => turn.count(counter::INJURY_BODY),
        r if r <= opts.injury_hampered_max => {
            turn.unit_mut(u).state.injured = true;
            turn.count(counter::INJURY_HAMPERED);
        }
        _ => {
            hp += turn.dice.roll(opts.standing_heal_die) as i32;
            turn.note_roll(u, "healed (natural 20)", hp);
        }
    }
    // "Never go above your max HP."
    let hp = hp.min(turn.spec(u).stats.hp);
    turn.unit_mut(u).state.hp = hp;
    if opts.rejoin == Rejoin::All || standing {
        turn.count(counter::BACK);
        turn.bring_back(u);
    }
}

/// Retreat: the whole turn. Breaking away from melee combat (an enemy at
/// close range) takes a DEX check, and every enemy at close range that can
/// act and reach it attacks; a failed check or any hit stops it. When a PC
/// gets away, the NPCs of its side (its retainers) check morale at
/// disadvantage.
fn retreat<D: Dice>(turn: &mut Turn<'_, Osr, D>) {
    let me = turn.actor;
    let opts = turn.options();
    let engaged = turn.enemies_within(me, opts.close_range);
    if engaged != 0 {
        if opts.retreat_dc > 0
            && !check(
                turn,
                "break away (DEX)",
                me,
                NO_TARGET,
                DEX,
                0,
                opts.retreat_dc,
                false,
                false,
            )
        {
            return;
        }
        if opts.retreat_attacks {
            for e in Bits(engaged) {
                let stats = &turn.enc.units[e].stats;
                let distance = turn.enemy_distance(e);
                let Some(w) = best_weapon(stats, distance) else {
                    continue;
                };
                if turn.unit(e).conditions.any(NO_ACTIONS) {
                    continue;
                }
                if turn.as_actor(e, |t| strike::<D, false>(t, me, w)).hit {
                    return;
                }
            }
        }
    }
    turn.count(counter::RETREATS);
    turn.note_that(NO_TARGET, "retreats from the fight");
    turn.take_out(me);
    let side = turn.unit(me).side as usize;
    if opts.morale_retreat && turn.spec(me).stats.pc {
        morale_check(turn, side, true, false);
    }
    tide(turn, side);
}

// ---- Attacks ----

/// How an attack went (for tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttackResult {
    /// The natural d20 kept: the attacker's, or the defender's with a
    /// defense check.
    pub natural: u32,
    pub total: i32,
    /// AC, or the defense check's DC.
    pub target_number: i32,
    pub defended: bool,
    pub hit: bool,
    /// Damage doubled (natural 20, or a PC's natural-1 defense check).
    pub doubled: bool,
    pub damage: i32,
}

/// Advantage and disadvantage of the acting unit's attack on `target`
/// from everything but the light: the attacker hampered or blinded, a
/// ranged attack in melee combat, flanking.
fn attack_edge<D: Dice>(turn: &Turn<'_, Osr, D>, target: usize, weapon: &Weapon) -> (bool, bool) {
    let me = turn.actor;
    let opts = turn.options();
    let stats = &turn.enc.units[me].stats;
    let unit = turn.unit(me);
    let ranged = weapon.kind == WeaponKind::Ranged;
    let close = opts.close_range;
    // "Multiple allies flanking a target": `flankers` (2) or more.
    let adv = opts.flanking
        && !ranged
        && turn.enemies_within(target, close).count_ones() >= opts.flankers;
    let mut dis = hampered(stats, &unit.state) || unit.conditions.has(Condition::Blinded);
    if ranged && (turn.enemy_distance(target) <= close || turn.enemies_within(me, close) != 0) {
        // "A ranged attack can be made in melee combat, however the attack
        // roll is made at disadvantage": the target, or any enemy, is close.
        dis = true;
    }
    (adv, dis)
}

/// What the light does to the acting unit's attack roll on `target`
/// (Light: darkness, all attacks; dim, ranged attacks; brilliant,
/// long-range attacks; darksight turns darkness into advantage).
fn light_on_attack<D: Dice>(
    turn: &Turn<'_, Osr, D>,
    target: usize,
    weapon: &Weapon,
) -> (bool, bool) {
    let opts = turn.options();
    let ranged = weapon.kind == WeaponKind::Ranged;
    match opts.light {
        Light::WellLit => (false, false),
        Light::Darkness => {
            let sees = turn.enc.units[turn.actor].stats.darksight;
            (sees, !sees)
        }
        Light::Dim => (false, ranged),
        Light::Brilliant => (
            false,
            ranged && turn.enemy_distance(target) as f64 > opts.long_range * weapon.range as f64,
        ),
    }
}

/// What the light does to a defense check by `defender` (Light: darkness,
/// "all defense checks"; dim, "defense vs. ranged"; brilliant, nothing;
/// darksight turns darkness into advantage).
fn light_on_defense(opts: &Options, defender: &Unit, ranged: bool) -> (bool, bool) {
    match opts.light {
        Light::Darkness => (defender.darksight, !defender.darksight),
        Light::Dim => (false, ranged),
        Light::WellLit | Light::Brilliant => (false, false),
    }
}

/// One attack by the acting unit on `target` with `weapon`, its rolls in
/// the result as rolled (the natural die, the full damage).
pub fn attack<D: Dice>(
    turn: &mut Turn<'_, Osr, D>,
    target: usize,
    weapon: &Weapon,
) -> AttackResult {
    strike::<D, true>(turn, target, weapon)
}

/// One attack by the acting unit on `target` with `weapon`. `SHOWN`: the
/// caller reads the rolls in the result ([`attack`]). A turn's attacks read
/// only whether they hit: then, unless the dice are watched, the pools
/// return only what the fight reads (the verdict; the damage cut at the
/// target's HP), so that the exact engine branches once per verdict and
/// per HP left, not per face, and the result's natural die is 0 and its
/// damage the harm dealt. Either way the same dice are rolled and the
/// fight goes the same.
fn strike<D: Dice, const SHOWN: bool>(
    turn: &mut Turn<'_, Osr, D>,
    target: usize,
    weapon: &Weapon,
) -> AttackResult {
    let shown = SHOWN || D::WATCHED;
    let me = turn.actor;
    turn.note_attack(me, target, weapon.number);
    let enc = turn.enc;
    let opts = &enc.options;
    let stats = &enc.units[me].stats;
    let state = turn.unit(me).state;
    let ability = if weapon.kind == WeaponKind::Ranged {
        DEX
    } else {
        STR
    };
    let ability_mod = modifier(state.abilities[ability]);
    let bonus = ability_mod
        + weapon.attack
        + if stats.proficient {
            stats.proficiency
        } else {
            0
        };
    let (adv, dis) = attack_edge(turn, target, weapon);
    let target_stats = &enc.units[target].stats;
    turn.count(counter::ATTACKS);

    let defended = opts.defense_checks && target_stats.pc && !stats.pc;
    let (natural, total, target_number, hit, doubled) = if defended {
        // The PC rolls: d20 + (AC − 10) vs 12 + attack bonus (11 + with
        // `hit_on = "beat"`, where ties go to the defender): the same odds as
        // the attack roll. The attacker's edge is turned around; the light
        // acts on the defense check as the text lists for defense checks
        // (no attack roll is made, so its list for attacks does not apply),
        // and a hampered or blinded PC defends at disadvantage.
        let target_unit = turn.unit(target);
        let ranged = weapon.kind == WeaponKind::Ranged;
        let (light_adv, light_dis) = light_on_defense(opts, target_stats, ranged);
        let edge = Edge::from_sources(
            dis || light_adv,
            adv || light_dis
                || hampered(target_stats, &target_unit.state)
                || target_unit.conditions.has(Condition::Blinded),
        );
        let natural = edge.roll(turn.dice);
        let total = natural as i32 + target_stats.ac - 10;
        let dc = if opts.hit_must_beat { 11 } else { 12 } + bonus;
        // The attack's natural 1 and critical rolls turned around: the
        // defender's 20 holds, its 21 - crit_on or lower fails.
        let held = match natural {
            20 if opts.nat1_misses => true,
            n if opts.nat20_hits && n + opts.crit_on <= 21 => false,
            _ => total >= dc,
        };
        turn.note_check_by(
            target,
            turn.actor,
            "defense check",
            natural as i32,
            target_stats.ac - 10,
            dc,
            held,
        );
        (
            natural,
            total,
            dc,
            !held,
            natural <= opts.fumble_on && opts.nat1_doubles,
        )
    } else {
        let (light_adv, light_dis) = light_on_attack(turn, target, weapon);
        let edge = Edge::from_sources(adv || light_adv, dis || light_dis);
        // The rest of the fight reads only the verdict (hit, critical): the
        // exact engine then branches on at most three outcomes, not on 20
        // (400 with an edge) faces. The natural die is kept in the value
        // only when shown.
        // The closures are inlined by force: left to the compiler, the
        // pools cost the plain attack instructions it did not take before.
        let (hit, critical, natural) = turn.dice.pool(
            #[inline(always)]
            |d| {
                let natural = edge.roll(d);
                let total = natural as i32 + bonus;
                let meets = if opts.hit_must_beat {
                    total > target_stats.ac
                } else {
                    total >= target_stats.ac
                };
                let critical = natural >= opts.crit_on;
                let hit = match natural {
                    1 if opts.nat1_misses => false,
                    _ if critical && opts.nat20_hits => true,
                    _ => meets,
                };
                (hit, critical, if shown { natural } else { 0 })
            },
        );
        let total = natural as i32 + bonus;
        let need = target_stats.ac + i32::from(opts.hit_must_beat);
        turn.note_check(target, "attack", natural as i32, bonus, need, hit);
        (natural, total, target_stats.ac, hit, critical)
    };
    let mut result = AttackResult {
        natural,
        total,
        target_number,
        defended,
        hit,
        doubled: false,
        damage: 0,
    };
    if !hit {
        return result;
    }
    turn.count(counter::HITS);
    if doubled {
        turn.count(counter::CRITS);
        turn.note_that(target, "damage doubled");
    }
    // Damage beyond the target's HP changes nothing (`apply_damage` stops
    // at 0): unless shown, it is capped there, so the exact engine branches
    // once per HP left, not once per face.
    // The HP is read inside the pool, where it is used (read before, it
    // was kept across the roll); the mask is `Turn::unit`'s, an index below
    // `MAX_UNITS` by construction, without a bounds check.
    let hp = &turn.fight.units[target & (MAX_UNITS - 1)].state.hp;
    let damage = turn.dice.pool(
        #[inline(always)]
        |d| {
            let damage = if !doubled {
                weapon.damage.roll(d) + ability_mod
            } else if defended {
                opts.fumble_multiplier * (weapon.damage.roll(d) + ability_mod)
            } else {
                critical_damage(opts, weapon, ability_mod, d)
            }
            .max(0);
            if shown {
                damage
            } else {
                // HP never falls below 0 (`apply_damage`).
                damage.min(*hp)
            }
        },
    );
    turn.note_roll(target, "damage", damage);
    result.doubled = doubled;
    result.damage = damage;
    apply_damage(turn, target, damage);
    result
}

/// A critical hit's damage: `crit_multiplier` (the text's 2) times the
/// total, or with `crit = "double-dice"` the dice that many times and the
/// modifiers once. At 2, exactly [`crit_damage`] (the same dice in the same
/// order).
#[inline]
fn critical_damage<D: Dice>(
    opts: &Options,
    weapon: &Weapon,
    ability_mod: i32,
    dice: &mut D,
) -> i32 {
    let times = opts.crit_multiplier;
    if times == 2 {
        return crit_damage(opts.crit, &weapon.damage, ability_mod, dice);
    }
    match opts.crit {
        Crit::DoubleDice => {
            let mut extra = 0;
            for _ in 1..times {
                extra += weapon.damage.roll_dice(dice);
            }
            extra + weapon.damage.roll(dice) + ability_mod
        }
        _ => times * (weapon.damage.roll(dice) + ability_mod),
    }
}

fn apply_damage<D: Dice>(turn: &mut Turn<'_, Osr, D>, target: usize, damage: i32) {
    let unit = turn.unit_mut(target);
    let before = unit.state.hp;
    unit.state.hp = (before - damage).max(0);
    let dealt = before - unit.state.hp;
    turn.harm(target, dealt as u32);
    if before > 0 && turn.unit(target).state.hp == 0 {
        let clock_out = turn.fight.round + turn.options().death_clock;
        let dying = turn.options().at_zero_hp == AtZeroHp::DeathClock;
        let unit = turn.unit_mut(target);
        unit.state.dying = dying;
        unit.state.clock_out = clock_out;
        turn.count(counter::DOWNED);
        if !dying {
            turn.count(counter::DEATHS);
        }
        turn.take_out(target);
        fallen(turn, target, !dying);
    }
}

// ---- Morale ----

/// The first turn of the fight: mark the fight begun and make the
/// battle-begins checks, side by side.
fn begin<D: Dice>(turn: &mut Turn<'_, Osr, D>) {
    for u in &mut turn.fight.units[..turn.enc.n] {
        u.state.begun = true;
    }
    if turn.options().morale_start {
        for side in 0..turn.enc.sides {
            side_morale(turn, side);
        }
    }
}

/// Unit `u` has just fallen to 0 HP (and `died` with it, if 0 HP is death):
/// the killed triggers, if falling counts as killed or it died, and the tide.
fn fallen<D: Dice>(turn: &mut Turn<'_, Osr, D>, u: usize, died: bool) {
    let opts = turn.options();
    if opts.morale == Morale::Off {
        return;
    }
    match opts.morale_killed {
        Killed::Falls => killed(turn, u),
        Killed::Dies if died => killed(turn, u),
        Killed::Dies => {}
    }
    let side = turn.unit(u).side as usize;
    tide(turn, side);
}

/// Unit `u`, already out of the fight, has just died during it (the injury
/// table): the killed triggers, if dying is what counts as killed.
fn died<D: Dice>(turn: &mut Turn<'_, Osr, D>, u: usize) {
    let opts = turn.options();
    if opts.morale != Morale::Off && opts.morale_killed == Killed::Dies {
        killed(turn, u);
    }
}

/// Unit `u` has just been killed, as `morale_killed` counts killed: the
/// first-killed and leader triggers, its side checking. Every death (or
/// fall) that `morale_killed` counts comes here, and only those, so the
/// first call of a fight is "the first combatant is killed".
fn killed<D: Dice>(turn: &mut Turn<'_, Osr, D>, u: usize) {
    let opts = turn.options();
    let side = turn.unit(u).side as usize;
    // The flag is set only where it is read, so that it splits no states
    // otherwise.
    if opts.morale_first_fall && !turn.unit(u).state.killed_seen {
        for v in &mut turn.fight.units[..turn.enc.n] {
            v.state.killed_seen = true;
        }
        side_morale(turn, side);
    }
    if opts.morale_leader && turn.spec(u).stats.leader {
        side_morale(turn, side);
    }
}

/// "The tide of battle is obvious": the side's first check once its
/// standing units are down to `morale_tide` of its roster.
fn tide<D: Dice>(turn: &mut Turn<'_, Osr, D>, side: usize) {
    let opts = turn.options();
    let members = turn.side_units(side);
    let first = members.trailing_zeros() as usize;
    if opts.morale == Morale::Off
        || opts.morale_tide <= 0.0
        || members == 0
        || turn.unit(first).state.tide_checked
    {
        return;
    }
    let standing = turn.fight.standing(side) as f64;
    if standing > opts.morale_tide * members.count_ones() as f64 {
        return;
    }
    for u in Bits(members) {
        turn.unit_mut(u).state.tide_checked = true;
    }
    side_morale(turn, side);
}

/// One morale check for `side`: its NPCs as the option groups them, its PCs
/// individually (with `morale = "all"`). Units that fail flee.
pub fn side_morale<D: Dice>(turn: &mut Turn<'_, Osr, D>, side: usize) {
    morale_check(turn, side, false, true);
}

/// A morale check for `side`'s NPCs (and its PCs if `pcs` and `morale =
/// "all"`), at disadvantage if `disadvantage`. Units that fail flee.
fn morale_check<D: Dice>(
    turn: &mut Turn<'_, Osr, D>,
    side: usize,
    disadvantage: bool,
    pcs_too: bool,
) {
    let opts = turn.options();
    if opts.morale == Morale::Off {
        return;
    }
    let members = turn.side_units(side) & turn.in_fight();
    let mut npcs = 0u64;
    let mut pcs = 0u64;
    for u in Bits(members) {
        if turn.spec(u).stats.pc {
            pcs |= 1 << u;
        } else {
            npcs |= 1 << u;
        }
    }
    let mut fleeing = 0u64;
    match opts.morale_groups {
        Groups::Individual => {
            for u in Bits(npcs) {
                if !morale_roll(turn, u, disadvantage) {
                    fleeing |= 1 << u;
                }
            }
        }
        Groups::Side => fleeing |= group_roll(turn, npcs, disadvantage),
        Groups::Group => {
            let mut left = npcs;
            while left != 0 {
                let group = turn.spec(left.trailing_zeros() as usize).group;
                let mut mask = 0u64;
                for u in Bits(left) {
                    if turn.spec(u).group == group {
                        mask |= 1 << u;
                    }
                }
                left &= !mask;
                fleeing |= group_roll(turn, mask, disadvantage);
            }
        }
    }
    if opts.morale == Morale::All && pcs_too {
        for u in Bits(pcs) {
            if !morale_roll(turn, u, disadvantage) {
                fleeing |= 1 << u;
            }
        }
    }
    if fleeing != 0 {
        for u in Bits(fleeing) {
            turn.count(counter::ROUTS);
            turn.note_unit(u, "routs");
            turn.take_out(u);
        }
        tide(turn, side);
    }
}

/// One roll for the units in `mask`, made by its leader (else its first
/// unit); returns the units that flee (all or none).
fn group_roll<D: Dice>(turn: &mut Turn<'_, Osr, D>, mask: u64, disadvantage: bool) -> u64 {
    if mask == 0 {
        return 0;
    }
    let roller = Bits(mask)
        .find(|&u| turn.spec(u).stats.leader)
        .unwrap_or(mask.trailing_zeros() as usize);
    if morale_roll(turn, roller, disadvantage) {
        0
    } else {
        mask
    }
}

/// A morale check by unit `u`: d20 + WIS mod + morale bonus (+ proficiency
/// if fitting) vs the morale DC; disadvantage when its side is outnumbered
/// (option), in darkness without darksight, and if `disadvantage` (a PC it
/// follows retreated). True: it stands.
fn morale_roll<D: Dice>(turn: &mut Turn<'_, Osr, D>, u: usize, disadvantage: bool) -> bool {
    let opts = turn.options();
    let stats = &turn.enc.units[u].stats;
    let side = turn.unit(u).side as usize;
    let own = turn.fight.standing(side);
    let all = turn.in_fight().count_ones();
    let outnumbered = opts.morale_outnumbered && own < all - own;
    // Darkness gives "surfacers" disadvantage on morale; darksight turns
    // the disadvantages of darkness into advantages.
    let darkness = opts.light == Light::Darkness;
    let dark = darkness && !stats.darksight;
    let sighted = darkness && stats.darksight;
    let bonus = stats.morale
        + if stats.morale_proficient {
            stats.proficiency
        } else {
            0
        };
    check(
        turn,
        "morale (WIS)",
        u,
        NO_TARGET,
        WIS,
        bonus,
        opts.morale_dc,
        sighted,
        outnumbered || dark || disadvantage,
    )
}

#[path = "osr_conformance.rs"]
mod conformance;

#[cfg(test)]
#[path = "osr_tests.rs"]
mod tests;
