//! `trenches`: Trenches and Alchemy, a WWI trench-warfare game on a d20
//! chassis. Every rule of the text, section by section, with how it is
//! modelled and the tests that pin it: `trenches/conformance.rs`.
//!
//! As written: initiative d20 + DEX modifier, ties to the higher natural roll,
//! then to whoever rolled first; AC = 10 + Endurance modifier + equipment,
//! kept separately vs firearms and vs melee; an attack is d20 + attack bonus
//! vs the matching AC, hitting on total ≥ AC; advantage/disadvantage (any
//! number of sources give one extra die; both present cancel); cover half /
//! three-quarters / full gives +2 / +5 / +10 AC vs firearms only, and full
//! cover cuts firearm damage by a fraction the text lost (option, default
//! ×0.5); hits on a paralyzed or unconscious target from within 5 m are
//! critical; 0 HP: unconscious (so prone), dying and out of the fight.
//!
//! A turn is movement (30 m; half in difficult terrain) and one action: an
//! attack, or Sprint (double movement), or dropping prone. A move that
//! starts within an enemy's 5 m radius and ends beyond it provokes an attack
//! of opportunity, whichever way the unit moves (its reaction; the text's
//! "disengage" is undefined, so nobody disengages); merely passing through
//! an enemy's 5 m does not, unless `passing_provokes`. Trenches has no
//! flanking rule.
//!
//! Gaps in the text are options whose defaults are its most literal
//! reading: the crit effect (default: double the damage dice), natural 1
//! always misses, natural 20 always hits, proficiency on attacks (default
//! off), the lost fractions (deafened, crawling, standing up, exhaustion 2:
//! one half each), what 0 HP means (out of the fight, or 5e death saves),
//! which weapons make attacks of opportunity (any that reaches: the text
//! names none) and whether cover stays at the unit's starting position
//! (default: cover is a place, left behind by a unit that moves).
//!
//! Every number the text states for a rule of a fight is an option at the
//! text's value: cover's +2 / +5 / +10 AC, the crit on a natural 20, AC's
//! base 10, the 5 m reach, 30 m of movement, Sprint's double speed,
//! difficult terrain's half, the blinded unit's 10 m and −5, the prone and
//! helpless units' 5 m, exhaustion 4's halved HP. `prepare_unit` settles
//! those a stat block depends on (its AC, speed, HP, default reach), so the
//! turns read them as before.
//!
//! Conditions: blinded (attacks against it have advantage; its melee
//! attacks disadvantage; its ranged attacks beyond 10 m disadvantage and −5),
//! deafened (loses part of its speed), frightened (disadvantage on its
//! attacks and it cannot move closer to the enemy: the source of its fear is
//! taken to be the enemy, in sight), grappled and restrained (speed 0;
//! restrained: attacks against it advantage, its attacks disadvantage),
//! incapacitated (no actions or reactions, but it may move), paralyzed /
//! stunned / unconscious (incapacitated and cannot move; attacks against
//! them have advantage; hits from within 5 m on paralyzed or unconscious
//! units are critical; unconscious units are prone), prone (crawls;
//! standing costs part of the turn's movement; its attacks have
//! disadvantage; attacks against it have advantage within 5 m,
//! disadvantage beyond). Exhaustion: 2 speed reduced, 3 disadvantage on
//! attacks, 4 HP halved, 5 speed 0, 6 dead.

use super::{Contrary, StatStep, Step};
use crate::dice::{plain_roll_if, Dice, DiceExpr};
use crate::engine::observe::NO_TARGET;
use crate::engine::{
    Bits, Combatant, Condition, Conditions, Cover, Encounter, Fight, InitiativeKind,
    InitiativeRoll, Tactic, Tally, Targeting, Turn, UnitSpec, MAX_ROUNDS, MAX_UNITS,
};
use crate::results::CounterInfo;
use crate::rules::common::{kit, one_attack_drops, provoking_move, KitWeapon, Plan};
use crate::rules::d20::{crit_damage, Crit, Edge};
use crate::rules::field::{Field, FieldError, FieldReader, Kind, Lit};
use crate::rules::{Clause, Quick, Ruleset, MAX_WEAPONS};

/// The ruleset marker type.
#[derive(Clone, Copy, Debug, Default)]
pub struct Trenches;

/// Melee reach, in metres ("within 5 m"): the text's value of option
/// `reach` (and of `prone_close_range` and `helpless_crit_range`).
pub const REACH: i32 = 5;
/// Blinded units' ranged attacks beyond this distance get disadvantage and
/// −5: the text's value of option `blind_range`.
pub const BLIND_RANGE: i32 = 10;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WeaponKind {
    #[default]
    Melee,
    Firearm,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Weapon {
    /// Its number among the scenario's `[weapons]` tables, in file order:
    /// what a replay names it by.
    pub number: u16,
    pub kind: WeaponKind,
    pub attack: i32,
    pub damage: DiceExpr,
    /// Reach (melee) or range (firearm) in metres.
    pub range: i32,
    /// `range` was left at 0, the kind's default: a melee weapon's reach is
    /// then option `reach` (settled by [`Trenches::prepare_unit`]).
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
    pub dex: i32,
    /// AC vs melee attacks (10 + Endurance + armour; the 10 is option
    /// `ac_base`, settled by [`Trenches::prepare_unit`]).
    pub ac_melee: i32,
    /// AC vs firearms, before cover.
    pub ac_firearm: i32,
    /// What the stat block adds to the base AC vs melee (Endurance and
    /// armour), and vs firearms.
    pub armor_vs_melee: i32,
    pub armor_vs_firearms: i32,
    /// Bonus to every attack roll.
    pub attack: i32,
    pub proficiency: i32,
    pub exhaustion: u8,
    /// Movement per turn, metres (option `default_speed` unless the stat
    /// block writes `speed`, settled by [`Trenches::prepare_unit`]).
    pub speed: i32,
    /// The stat block writes `speed`.
    pub speed_written: bool,
    /// Maximum HP this fight (exhaustion 4 cuts it by option
    /// `exhaustion_hp`), settled by [`Trenches::prepare_unit`].
    pub full_hp: i32,
    /// Throws itself prone when holding a position in the open.
    pub drop_prone: bool,
    /// Weapons, best expected damage first.
    pub weapons: [Weapon; MAX_WEAPONS],
    pub n_weapons: u8,
    /// The longest reach or range among the weapons.
    pub max_range: i32,
    /// The longest reach among the melee weapons (0: none).
    pub melee_reach: i32,
    /// The longest range among the firearms (0: none).
    pub firearm_range: i32,
    /// How close an advancing unit gets: its melee reach, or without a
    /// melee weapon the options' melee `reach` (its longest range if that
    /// is shorter): it shoots on the way in.
    pub advance_reach: i32,
    /// The fast path's attack, set by [`Trenches::prepare_unit`]: `None`
    /// for units whose turns never take it.
    pub quick: Option<QuickAttack>,
    /// The turn the unit plays, settled by [`Trenches::prepare_unit`] and
    /// [`Trenches::place_on_map`].
    pub plan: Plan,
}

/// What the fast path needs to know of an advancing unit that targets at
/// random, below exhaustion 3, once per cell instead of every turn: it
/// attacks a target within `reach` with its first (best) weapon at
/// `bonus` to hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuickAttack {
    /// The first weapon's reach or range, or the advance reach if shorter
    /// (beyond it the unit would move first).
    pub reach: i32,
    /// The attack bonus with the first weapon, options included.
    pub bonus: i32,
}

impl Unit {
    #[inline]
    pub fn weapons(&self) -> &[Weapon] {
        // `min` proves the bound, which saves a check on the turn path.
        &self.weapons[..(self.n_weapons as usize).min(MAX_WEAPONS)]
    }

    /// Maximum HP this fight (exhaustion 4 halves it, by default).
    #[inline]
    pub fn max_hp(&self) -> i32 {
        self.full_hp
    }

    /// The unit's rule numbers that depend on the options, from its stat
    /// block as written: its AC (`ac_base`), its speed (`default_speed`),
    /// its maximum HP (`exhaustion_hp`), its melee weapons' default reach
    /// (`reach`) and the distances its tactics read. Idempotent.
    fn settle(&mut self, opts: &Options) {
        self.ac_melee = opts.ac_base + self.armor_vs_melee;
        self.ac_firearm = opts.ac_base + self.armor_vs_firearms;
        if !self.speed_written {
            self.speed = opts.default_speed;
        }
        self.full_hp = if self.exhaustion >= 4 {
            ((self.hp as f64 * opts.exhaustion_hp).floor() as i32).max(1)
        } else {
            self.hp
        };
        let n = (self.n_weapons as usize).min(MAX_WEAPONS);
        for w in &mut self.weapons[..n] {
            if w.default_range && w.kind == WeaponKind::Melee {
                w.range = opts.reach;
            }
        }
        // As `common::kit` works them out.
        let longest = |melee: Option<bool>| {
            self.weapons()
                .iter()
                .filter(|w| melee.is_none_or(|m| w.is_melee() == m))
                .map(|w| w.range)
                .max()
                .unwrap_or(0)
        };
        let ranges = (longest(None), longest(Some(true)), longest(Some(false)));
        (self.max_range, self.melee_reach, self.firearm_range) = ranges;
        // Advancing closes to melee whatever the firearms could hit from
        // farther (issue 30: `advance` means closing in, shooting on the
        // way); a unit with no melee weapon stops at melee reach, or at its
        // range if that is shorter.
        self.advance_reach = if self.melee_reach > 0 {
            self.melee_reach
        } else {
            opts.reach.min(self.max_range)
        };
    }
}

/// Which weapons make attacks of opportunity. The text says "such an
/// attack" by "whoever they might be in combat with", naming no weapon.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OpportunityWeapons {
    /// Any weapon that reaches the mover (the text's words).
    #[default]
    Any,
    /// Melee weapons only (the 5e habit).
    Melee,
}

/// What happens to a unit's cover when it moves. The text's cover comes
/// from trenches, foxholes, sandbags and pillboxes: places.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CoverWhenMoving {
    /// Cover belongs to the unit's starting position: away from it the unit
    /// is in the open; back on it, covered again.
    #[default]
    LeftBehind,
    /// The scenario's cover goes wherever the unit goes.
    Carried,
}

/// What 0 HP means (the text gives no death-save procedure).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AtZeroHp {
    /// Unconscious and out of the fight for good.
    #[default]
    Out,
    /// Out of the fight and dying: 5e death saves at the start of each of its
    /// turns (d20 ≥ 10 succeeds; 1 counts twice; 20 regains 1 HP and returns
    /// to the fight; three successes: stable; three failures: dead).
    DeathSaves,
}

#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub crit: Crit,
    pub nat1_misses: bool,
    pub nat20_hits: bool,
    pub proficiency_on_attacks: bool,
    /// Damage multiplier for firearm hits on a target in full cover.
    pub full_cover_damage: f64,
    pub difficult_terrain: bool,
    /// Fraction of its speed a deafened unit loses.
    pub deafened_speed_loss: f64,
    /// Crawling speed as a fraction of speed.
    pub crawl_speed: f64,
    /// Fraction of the turn's movement that standing up costs.
    pub stand_up_cost: f64,
    /// Fraction of speed kept at exhaustion level 2 or more.
    pub exhaustion_speed: f64,
    pub at_zero_hp: AtZeroHp,
    pub opportunity_weapons: OpportunityWeapons,
    /// A move that only passes through an enemy's 5 m provokes it too
    /// (default: only one that starts within it; see [`stride`]).
    pub passing_provokes: bool,
    pub cover_when_moving: CoverWhenMoving,
    /// AC against firearms of half, three-quarters and full cover.
    pub half_cover_ac: i32,
    pub three_quarters_cover_ac: i32,
    pub full_cover_ac: i32,
    /// Natural roll at or above which a hit is critical.
    pub crit_on: u32,
    /// Melee reach: the radius attacks of opportunity guard, and a melee
    /// weapon's reach when it gives none.
    pub reach: i32,
    /// Sprint moves this many times the unit's speed in all.
    pub sprint_multiplier: f64,
    /// Fraction of its speed a unit keeps on difficult terrain.
    pub difficult_terrain_speed: f64,
    /// Speed of a stat block that does not write `speed`.
    pub default_speed: i32,
    /// AC before Endurance and armour.
    pub ac_base: i32,
    /// A blinded unit's shots beyond this distance have disadvantage and
    /// `blind_penalty`.
    pub blind_range: i32,
    pub blind_penalty: i32,
    /// Attacks on a prone unit from within this distance have advantage,
    /// from beyond it disadvantage.
    pub prone_close_range: i32,
    /// Hits on a paralyzed or unconscious unit from within this distance
    /// are critical.
    pub helpless_crit_range: i32,
    /// Fraction of its HP a unit keeps at exhaustion 4 or more.
    pub exhaustion_hp: f64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            crit: Crit::DoubleDice,
            nat1_misses: true,
            nat20_hits: true,
            proficiency_on_attacks: false,
            full_cover_damage: 0.5,
            difficult_terrain: false,
            deafened_speed_loss: 0.5,
            crawl_speed: 0.5,
            stand_up_cost: 0.5,
            exhaustion_speed: 0.5,
            at_zero_hp: AtZeroHp::Out,
            opportunity_weapons: OpportunityWeapons::Any,
            passing_provokes: false,
            cover_when_moving: CoverWhenMoving::LeftBehind,
            half_cover_ac: 2,
            three_quarters_cover_ac: 5,
            full_cover_ac: 10,
            crit_on: 20,
            reach: REACH,
            sprint_multiplier: 2.0,
            difficult_terrain_speed: 0.5,
            default_speed: 30,
            ac_base: 10,
            blind_range: BLIND_RANGE,
            blind_penalty: 5,
            prone_close_range: REACH,
            helpless_crit_range: REACH,
            exhaustion_hp: 0.5,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct State {
    pub hp: i32,
    /// Movement per turn standing, after terrain, deafness and exhaustion.
    pub speed: i32,
    /// The reaction is spent until the start of the unit's next turn.
    pub reacted: bool,
    /// Death saves so far (with `at_zero_hp = "death-saves"`).
    pub saves: u8,
    pub failures: u8,
    /// Where the unit started: the place its scenario cover belongs to.
    pub home: i32,
}

/// Indices into [`Trenches::COUNTERS`].
pub mod counter {
    pub const ATTACKS: usize = 0;
    pub const HITS: usize = 1;
    pub const CRITS: usize = 2;
    pub const DOWNED: usize = 3;
    pub const OPPORTUNITY: usize = 4;
    pub const SPRINTS: usize = 5;
    pub const DEATHS: usize = 6;
    pub const REVIVED: usize = 7;
}

const KIND_NAMES: &[&str] = &["melee", "firearm"];
const ZERO_HP_NAMES: &[&str] = &["out", "death-saves"];
const OPPORTUNITY_NAMES: &[&str] = &["any", "melee"];
const COVER_MOVING_NAMES: &[&str] = &["left-behind", "carried"];

/// Conditions that stop a unit from taking actions and reactions
/// ("Incapacitated", and the three conditions that include it).
const NO_ACTIONS: Conditions = Conditions::of(&[
    Condition::Incapacitated,
    Condition::Paralyzed,
    Condition::Stunned,
    Condition::Unconscious,
]);
/// Conditions whose text says the unit "can't move" (incapacitated alone
/// forbids actions, not movement).
const MOTIONLESS: Conditions = Conditions::of(&[
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
/// Conditions that give attacks against a unit advantage at any distance.
const EXPOSED: Conditions = Conditions::of(&[
    Condition::Blinded,
    Condition::Paralyzed,
    Condition::Restrained,
    Condition::Stunned,
    Condition::Unconscious,
]);
/// Conditions that make hits from within 5 m critical.
const HELPLESS: Conditions = Conditions::of(&[Condition::Paralyzed, Condition::Unconscious]);
/// Conditions that give a unit's own attacks disadvantage.
const HAMPERED: Conditions = Conditions::of(&[
    Condition::Frightened,
    Condition::Prone,
    Condition::Restrained,
]);

impl Ruleset for Trenches {
    /// Dead, or stable of death saves: nothing in these rules brings a
    /// unit back but a natural 20 on a death save, which only a dying
    /// (lingering) unit rolls.
    #[inline]
    fn gone_for_good(unit: &Combatant<State>) -> bool {
        unit.out && !unit.lingering
    }

    const CONFORMANCE: &'static [Clause] = conformance::TABLE;
    const UNMODELLED: &'static [super::Unmodelled] = &[];
    const NAME: &'static str = "trenches";
    const TITLE: &'static str = "Trenches and Alchemy";
    const ABOUT: &'static str = "WWI trench warfare on a d20 chassis (Trenches and Alchemy, \
        \"Mechanics 082019\"): d20 + DEX initiative, separate AC vs melee and vs \
        firearms, cover that only stops bullets and stays where it was dug, \
        advantage and disadvantage from conditions, 30 m of movement and one \
        action a turn, attacks of opportunity on leaving an enemy's 5 m. \
        Distances in metres.";
    const DISTANCE_UNIT: &'static str = "m";
    // On a map: Chebyshev steps (the text is silent on diagonals; a
    // diagonal is one step, as in the d20 games it builds on), difficult
    // terrain halves speed ("Movement"). A square is 5 m: the text's melee
    // reach and its attacks of opportunity's "5m radius", so "within 5 m" is
    // "adjacent", and its 30 m of movement is 6 squares.
    const MAP_COSTS: Option<crate::map::Costs> = Some(crate::map::Costs::trenches());
    const MAP_SCALE: i32 = 5;
    const MAP_IGNORES: &'static [(&'static str, &'static str)] = &[
        (
            "cover_when_moving",
            "on a map cover is the place's, worked out for each attack from where the units stand",
        ),
        (
            "difficult_terrain",
            "on a map difficult ground is drawn (`~` cells, or `difficult` in `[map.legend]`)",
        ),
    ];
    const DEFAULT_INITIATIVE: InitiativeKind = InitiativeKind::Rolled;
    const INITIATIVE_STAT: &'static str = "dex";

    const CONTRARY_STATS: &'static [Contrary] = &[Contrary::unit(
        "exhaustion",
        "exhaustion levels are penalties: 2 speed reduced, 3 disadvantage on attacks, \
         4 HP halved, 5 speed 0, 6 dead",
    )];

    const STEPS: &'static [StatStep] = &[StatStep::weapon(
        "range",
        Step::Except {
            by: 1,
            value: 0,
            means: "the kind's default: option reach (5 m) or unlimited range",
        },
    )];

    const POLICIES: &'static [&'static str] = &["weapons", "drop_prone"];
    const UNIT_FIELDS: &'static [Field] = &[
        Field::new("hp", Kind::Int { min: 1, max: 100_000 }, None, "hit points"),
        Field::int("dex", -10, 20, 0, "Dexterity modifier (initiative)"),
        Field::int("endurance", -10, 20, 0, "Endurance modifier: AC = 10 + endurance + armour"),
        Field::int("armor", -20, 50, 0, "AC from equipment, vs melee and firearms"),
        Field::int("armor_melee", -20, 50, 0, "extra AC vs melee attacks only"),
        Field::int("armor_firearm", -20, 50, 0, "extra AC vs firearms only"),
        Field::int("attack", -20, 50, 0, "bonus to every attack roll, added to the weapon's"),
        Field::int("proficiency", 0, 10, 2, "proficiency bonus (+2/+3/+4 by year); added to attacks only with option proficiency_on_attacks"),
        Field::int("speed", 0, 1000, 30, "movement per turn in metres (Sprint doubles it); left out: option default_speed (30)"),
        Field::int("exhaustion", 0, 6, 0, "exhaustion level: 2 speed reduced, 3 disadvantage on attacks, 4 HP halved, 5 speed 0, 6 dead"),
        Field::flag("drop_prone", false, "when holding or keeping range in the open (no cover), throw itself prone (an action) and fight from the ground"),
        Field::new("weapons", Kind::Names(None), None, "weapons carried (names of [weapons.NAME] tables); the best reachable one is used"),
    ];

    const WEAPON_FIELDS: &'static [Field] = &[
        Field::new("kind", Kind::Choice(KIND_NAMES), Some(Lit::Str("melee")), "melee (AC vs melee, no cover) or firearm (AC vs firearms, cover applies)"),
        Field::int("attack", -20, 50, 0, "attack bonus with this weapon"),
        Field::new("damage", Kind::Dice, None, "damage dice, e.g. 1d10+2"),
        Field::int("range", 0, 100_000, 0, "reach (melee) or range (firearm) in metres; 0 = the kind's default: option reach (5 m) for melee, unlimited range for firearms"),
    ];

    const OPTIONS: &'static [Field] = &[
        Field::new(
            "crit",
            Kind::Choice(Crit::NAMES),
            Some(Lit::Str("double-dice")),
            "critical damage (the text's crit rule is cut off): roll the dice twice, double the total, max dice + roll, or none",
        )
        .section("Critical Successes and Critical Failures"),
        Field::flag("nat1_misses", true, "a natural 1 always misses")
            .section("Critical Successes and Critical Failures"),
        Field::flag("nat20_hits", true, "a natural 20 always hits (a natural 20 that hits is critical either way)")
            .section("Critical Successes and Critical Failures"),
        Field::flag("proficiency_on_attacks", false, "add the proficiency bonus to attack rolls (the text says it may be extended to attacks later)")
            .section("Proficiency Bonus"),
        Field::new(
            "full_cover_damage",
            Kind::Float { min: 0.0, max: 1.0 },
            Some(Lit::Float(0.5)),
            "damage multiplier for firearm hits on a unit in full cover (the text's fraction is lost; rounded down)",
        )
        .section("Cover"),
        Field::flag("difficult_terrain", false, "the ground is difficult terrain: speed halved")
            .section("Combat Rounds"),
        Field::new(
            "deafened_speed_loss",
            Kind::Float { min: 0.0, max: 1.0 },
            Some(Lit::Float(0.5)),
            "fraction of its speed a deafened unit loses (the text's fraction is lost)",
        )
        .section("Deafened"),
        Field::new(
            "crawl_speed",
            Kind::Float { min: 0.0, max: 1.0 },
            Some(Lit::Float(0.5)),
            "crawling speed of a prone unit, as a fraction of its speed (the text's fraction is lost)",
        )
        .section("Prone"),
        Field::new(
            "stand_up_cost",
            Kind::Float { min: 0.0, max: 1.0 },
            Some(Lit::Float(0.5)),
            "fraction of the turn's movement that standing up from prone costs (the text's fraction is lost)",
        )
        .section("Prone"),
        Field::new(
            "exhaustion_speed",
            Kind::Float { min: 0.0, max: 1.0 },
            Some(Lit::Float(0.5)),
            "fraction of its speed a unit keeps at exhaustion 2 to 4 (the text's value is lost)",
        )
        .section("Exhaustion"),
        Field::new(
            "at_zero_hp",
            Kind::Choice(ZERO_HP_NAMES),
            Some(Lit::Str("out")),
            "0 HP (no death saves in the text): out of the fight, or 5e death saves (a natural 20 returns with 1 HP)",
        )
        .section("Suffocating"),
        Field::new(
            "opportunity_weapons",
            Kind::Choice(OPPORTUNITY_NAMES),
            Some(Lit::Str("any")),
            "weapons that make attacks of opportunity: any that reaches the mover (the text names no weapon; \"any creature within 5m\" takes the attack), or melee only",
        )
        .section("Combat Rounds"),
        Field::flag("passing_provokes", false, "a move that only passes through an enemy's 5 m (starting and ending beyond it) provokes its attack of opportunity too; default false (\"Combat Rounds\"): only an enemy \"previously within melee distance\" who leaves, as one disengaging from a fight it is in")
            .section("Combat Rounds"),
        Field::new(
            "cover_when_moving",
            Kind::Choice(COVER_MOVING_NAMES),
            Some(Lit::Str("left-behind")),
            "a unit's cover belongs to its starting position (left-behind: away from it, no cover) or goes with it (carried)",
        )
        .section("Cover"),
        // The text's numbers, each an option at the text's value (listed in
        // a report only when the scenario writes it).
        Field::int("half_cover_ac", 0, 30, 2, "AC half cover adds against firearms; the text: +2; higher protects more (at most three_quarters_cover_ac)")
            .section("Cover")
            .quiet(),
        Field::int("three_quarters_cover_ac", 0, 30, 5, "AC three-quarters cover adds against firearms; the text: +5; higher protects more (from half_cover_ac to full_cover_ac)")
            .section("Cover")
            .quiet(),
        Field::int("full_cover_ac", 0, 30, 10, "AC full cover adds against firearms; the text: +10; higher protects more (at least three_quarters_cover_ac)")
            .section("Cover")
            .quiet(),
        Field::int("crit_on", 2, 20, 20, "natural roll at or above which a hit is critical; the text: 20 (\"the joyous ... natural 20\"); lower crits more often")
            .section("Critical Successes and Critical Failures")
            .quiet(),
        Field::int("reach", 1, 1000, REACH as i64, "melee reach in metres: the radius whose leaving provokes an attack of opportunity, and a melee weapon's reach when it gives no range; the text: 5 m")
            .section("Combat Rounds")
            .quiet(),
        Field::float("sprint_multiplier", 1.0, 10.0, 2.0, "Sprint moves this many times the unit's speed in all (its movement and the sprint), rounded down; the text: 2 (\"double their usual movement speed\"); higher runs farther")
            .section("Combat Rounds")
            .quiet(),
        Field::float("difficult_terrain_speed", 0.0, 1.0, 0.5, "fraction of its speed a unit keeps on difficult terrain (with difficult_terrain), rounded down; the text: 0.5 (\"halve movement speed\"); lower is slower")
            .section("Combat Rounds")
            .quiet(),
        Field::int("default_speed", 0, 1000, 30, "movement per turn in metres of a stat block that does not write `speed`; the text: 30 m (\"most humanoid characters\"); higher is faster")
            .section("Combat Rounds")
            .quiet(),
        Field::int("ac_base", 0, 30, 10, "AC before Endurance and armour, vs melee and firearms alike; the text: 10 (\"AC starts with a base of 10\"); higher is harder to hit")
            .section("Armor Class (AC)")
            .quiet(),
        Field::int("blind_range", 0, 100_000, BLIND_RANGE as i64, "distance in metres beyond which a blinded unit's shots have disadvantage and blind_penalty; the text: 10 m; lower hampers more shots")
            .section("Blinded")
            .quiet(),
        Field::int("blind_penalty", 0, 20, 5, "penalty to a blinded unit's shots beyond blind_range (besides disadvantage); the text: 5 (\"a -5 penalty\"); higher misses more")
            .section("Blinded")
            .quiet(),
        Field::int("prone_close_range", 0, 100_000, REACH as i64, "distance in metres within which attacks on a prone unit have advantage (beyond it, disadvantage); the text: 5 m; higher exposes prone units to more attackers")
            .section("Prone")
            .quiet(),
        Field::int("helpless_crit_range", 0, 100_000, REACH as i64, "distance in metres within which a hit on a paralyzed or unconscious unit is critical; the text: 5 m; higher crits from farther")
            .section("Paralyzed")
            .quiet(),
        Field::float("exhaustion_hp", 0.0, 1.0, 0.5, "fraction of its HP a unit keeps at exhaustion 4 or more, rounded down (at least 1); the text: 0.5 (\"HP points halved\"); lower is frailer")
            .section("Exhaustion")
            .quiet(),
    ];

    // No rule reads the round number (the batch fast path keeps its own):
    // every round plays alike.
    fn round_class(_round: u32) -> u32 {
        0
    }
    const COUNTERS: &'static [CounterInfo] = &[
        CounterInfo {
            name: "attacks",
            doc: "attack rolls made per fight (attacks of opportunity included)",
        },
        CounterInfo {
            name: "hits",
            doc: "attacks that hit, per fight",
        },
        CounterInfo {
            name: "crits",
            doc: "critical hits per fight",
        },
        CounterInfo {
            name: "downed",
            doc: "units brought to 0 HP per fight",
        },
        CounterInfo {
            name: "opportunity_attacks",
            doc: "attacks of opportunity per fight",
        },
        CounterInfo {
            name: "sprints",
            doc: "Sprint actions per fight",
        },
        CounterInfo {
            name: "deaths",
            doc: "units dead of three failed death saves (at_zero_hp = death-saves)",
        },
        CounterInfo {
            name: "revived",
            doc: "units back in the fight on a natural 20 death save",
        },
    ];

    type Weapon = Weapon;
    type Unit = Unit;
    type State = State;
    type Options = Options;

    fn compile_options(f: &impl FieldReader) -> Result<Options, FieldError> {
        // "Cover": more of the unit obscured is more cover, so each level
        // adds at least the AC of the level below it.
        let half_cover_ac = f.int("half_cover_ac")? as i32;
        let three_quarters_cover_ac = f.int("three_quarters_cover_ac")? as i32;
        let full_cover_ac = f.int("full_cover_ac")? as i32;
        if half_cover_ac > three_quarters_cover_ac {
            return Err(f.error(
                "half_cover_ac",
                format!(
                    "half cover cannot give more AC than three-quarters cover: expected 0 to {three_quarters_cover_ac} (three_quarters_cover_ac = {three_quarters_cover_ac}), found {half_cover_ac}"
                ),
            ));
        }
        if three_quarters_cover_ac > full_cover_ac {
            return Err(f.error(
                "three_quarters_cover_ac",
                format!(
                    "three-quarters cover cannot give more AC than full cover: expected {half_cover_ac} to {full_cover_ac} (half_cover_ac = {half_cover_ac}, full_cover_ac = {full_cover_ac}), found {three_quarters_cover_ac}"
                ),
            ));
        }
        Ok(Options {
            crit: Crit::ALL[f.choice("crit")?],
            nat1_misses: f.bool("nat1_misses")?,
            nat20_hits: f.bool("nat20_hits")?,
            proficiency_on_attacks: f.bool("proficiency_on_attacks")?,
            full_cover_damage: f.float("full_cover_damage")?,
            difficult_terrain: f.bool("difficult_terrain")?,
            deafened_speed_loss: f.float("deafened_speed_loss")?,
            crawl_speed: f.float("crawl_speed")?,
            stand_up_cost: f.float("stand_up_cost")?,
            exhaustion_speed: f.float("exhaustion_speed")?,
            at_zero_hp: [AtZeroHp::Out, AtZeroHp::DeathSaves][f.choice("at_zero_hp")?],
            opportunity_weapons: [OpportunityWeapons::Any, OpportunityWeapons::Melee]
                [f.choice("opportunity_weapons")?],
            passing_provokes: f.bool("passing_provokes")?,
            cover_when_moving: [CoverWhenMoving::LeftBehind, CoverWhenMoving::Carried]
                [f.choice("cover_when_moving")?],
            half_cover_ac,
            three_quarters_cover_ac,
            full_cover_ac,
            crit_on: f.int("crit_on")? as u32,
            reach: f.int("reach")? as i32,
            sprint_multiplier: f.float("sprint_multiplier")?,
            difficult_terrain_speed: f.float("difficult_terrain_speed")?,
            default_speed: f.int("default_speed")? as i32,
            ac_base: f.int("ac_base")? as i32,
            blind_range: f.int("blind_range")? as i32,
            blind_penalty: f.int("blind_penalty")? as i32,
            prone_close_range: f.int("prone_close_range")? as i32,
            helpless_crit_range: f.int("helpless_crit_range")? as i32,
            exhaustion_hp: f.float("exhaustion_hp")?,
        })
    }

    fn number_weapon(weapon: &mut Weapon, number: u16) {
        weapon.number = number;
    }

    fn compile_weapon(f: &impl FieldReader) -> Result<Weapon, FieldError> {
        let kind = [WeaponKind::Melee, WeaponKind::Firearm][f.choice("kind")?];
        let written = f.int("range")? as i32;
        // A melee weapon's default reach is option `reach`, which
        // `prepare_unit` settles; the text's 5 m until then.
        let range = match (written, kind) {
            (0, WeaponKind::Melee) => REACH,
            (0, WeaponKind::Firearm) => i32::MAX,
            (r, _) => r,
        };
        Ok(Weapon {
            number: 0,
            kind,
            attack: f.int("attack")? as i32,
            damage: f.dice("damage")?,
            range,
            default_range: written == 0,
        })
    }

    fn compile_unit(f: &impl FieldReader, weapons: &[Weapon]) -> Result<Unit, FieldError> {
        let endurance = f.int("endurance")? as i32;
        let armor = f.int("armor")? as i32;
        let mut unit = Unit {
            hp: f.int("hp")? as i32,
            dex: f.int("dex")? as i32,
            armor_vs_melee: endurance + armor + f.int("armor_melee")? as i32,
            armor_vs_firearms: endurance + armor + f.int("armor_firearm")? as i32,
            attack: f.int("attack")? as i32,
            proficiency: f.int("proficiency")? as i32,
            exhaustion: f.int("exhaustion")? as u8,
            speed: f.int("speed")? as i32,
            speed_written: f.written("speed"),
            drop_prone: f.bool("drop_prone")?,
            ..Unit::default()
        };
        let kit = kit(f, weapons)?;
        unit.weapons = kit.weapons;
        unit.n_weapons = kit.n;
        // The text's numbers until `prepare_unit` settles the options'
        // (what a scenario's summary describes).
        unit.settle(&Options::default());
        Ok(unit)
    }

    fn describe_unit(u: &Unit) -> String {
        let ac = if u.ac_melee == u.ac_firearm {
            format!("AC {}", u.ac_melee)
        } else {
            format!("AC {} melee / {} firearms", u.ac_melee, u.ac_firearm)
        };
        let mut s = format!("{} HP, {ac}, DEX {:+}", u.hp, u.dex);
        if u.speed != 30 {
            s.push_str(&format!(", speed {} m", u.speed));
        }
        if u.exhaustion > 0 {
            s.push_str(&format!(", exhaustion {}", u.exhaustion));
        }
        if u.drop_prone {
            s.push_str(", drops prone");
        }
        s
    }

    fn default_tactic(unit: &Unit) -> Tactic {
        if unit.firearm_range > 0 {
            Tactic::Hold
        } else {
            Tactic::Advance
        }
    }

    /// Attacks reach `distance <= range` (every weapon choice, attacks of
    /// opportunity included).
    fn weapon_reach(unit: &Unit, weapon: &Weapon) -> Option<i32> {
        // The unit's copy, once `prepare_unit` has settled a default reach.
        let settled = unit.weapons().iter().find(|w| w.number == weapon.number);
        Some(settled.unwrap_or(weapon).range)
    }

    // The fast paths (`quick_turn`, the duel loop) measure the front; on a
    // map every turn takes the full path, which measures the map.
    fn place_on_map(spec: &mut UnitSpec<Self>) {
        spec.stats.quick = None;
        spec.stats.plan = spec.stats.plan.on_the_map();
    }

    fn roll_initiative<D: Dice>(unit: &Unit, dice: &mut D) -> InitiativeRoll {
        // Ties go to the higher natural roll, then to whoever rolled first
        // (the engine's `initiative_ties`: random or roster order).
        let natural = dice.d20() as i32;
        InitiativeRoll {
            total: natural + unit.dex,
            tiebreak: natural,
        }
    }

    fn initiative_stat(unit: &Unit) -> i32 {
        unit.dex
    }

    #[inline]
    fn enter(unit: &mut Combatant<State>, spec: &UnitSpec<Self>, options: &Options) {
        unit.state = State {
            hp: spec.stats.max_hp(),
            speed: speed(&spec.stats, spec.conditions, options),
            home: unit.position,
            ..State::default()
        };
        // "Unconscious": the creature "falls prone", so attackers get the
        // prone effects too (from beyond 5 m they cancel its advantage).
        if spec.conditions.has(Condition::Unconscious) {
            unit.conditions.set(Condition::Prone);
        }
        if spec.stats.exhaustion >= 6 {
            unit.out = true;
        }
    }

    // "Incapacitated": no actions or reactions. Under team-alternating
    // activation such a unit never takes its team's activation; it still
    // gets its turn at the end of the round (an incapacitated unit may move).
    #[inline]
    fn can_act(fight: &Fight<Self>, _enc: &Encounter<Self>, unit: usize) -> bool {
        let u = &fight.units[unit];
        !u.out && !u.conditions.any(NO_ACTIONS)
    }

    // A small dispatcher: each tactic is its own function (not inlined), so
    // the common turn pays only for the registers and stack its own tactic
    // needs, not for the largest of them.
    // Inlined into the fight loop (as it was before maps: the map's test
    // and its out-of-line call would otherwise keep it out).
    #[inline(always)]
    fn take_turn<D: Dice>(turn: &mut Turn<'_, Self, D>) {
        let me = turn.actor;
        if turn.unit(me).out {
            // Only lingering (dying) units get here.
            death_save(turn);
            return;
        }
        turn.unit_mut(me).state.reacted = false;
        let conditions = turn.unit(me).conditions;
        // Paralyzed, stunned, unconscious: "can't move" and incapacitated.
        if conditions.any(MOTIONLESS) {
            return;
        }
        // Incapacitated alone: "can't take actions, reactions, or special
        // actions"; the text does not stop it moving.
        let acts = !conditions.has(Condition::Incapacitated);
        // The tactic and the map in one: below it, `MAP` is a constant.
        match turn.spec(me).stats.plan {
            Plan::Hold => hold::<D, false>(turn, acts),
            Plan::Advance => advance::<D, false>(turn, acts),
            Plan::KeepRange => keep_range::<D, false>(turn, acts),
            Plan::HoldOnMap => hold::<D, true>(turn, acts),
            Plan::AdvanceOnMap => advance::<D, true>(turn, acts),
            Plan::KeepRangeOnMap => keep_range::<D, true>(turn, acts),
        }
    }

    // The fast path: an advancing unit with no condition, standing in reach
    // of its target (most turns of most fights once the lines meet). It is
    // `take_turn` → `advance` for that case, step for step. It declines
    // units with a condition and those `prepare_unit` found ineligible
    // (another tactic, a targeting policy other than random, exhaustion 3,
    // no weapon); once the target is chosen (which may roll a die),
    // anything but a plain attack with the first weapon in reach (moving,
    // sprinting, another weapon, conditions on the target) is resumed out
    // of line by `advance_on`.
    #[inline(always)]
    fn quick_turn<D: Dice>(turn: &mut Turn<'_, Self, D>) -> Quick {
        let me = turn.actor;
        let unit = turn.unit(me);
        let stats = &turn.spec(me).stats;
        // `out` units here are lingering (death saves): not for the fast path.
        if stats.quick.is_none() || unit.out || !unit.conditions.is_empty() {
            return Quick::Declined;
        }
        turn.unit_mut(me).state.reacted = false;
        // No condition, so no NO_ACTIONS condition: `take_turn` would advance
        // (`choose_target`, whose policy is random here).
        let Some(target) = turn.random_target(&|_: &Turn<'_, Self, D>, _| true) else {
            return Quick::Done;
        };
        // `quick` is read only now, so that nothing of it is live across the
        // choice. In reach of the first weapon and not prone (no condition):
        // `advance_on` moves nothing and attacks with the first weapon, the
        // best that reaches.
        match stats.quick {
            Some(quick)
                if turn.front_distance(me, target) <= quick.reach
                    && turn.unit(target).conditions.is_empty() =>
            {
                roll_attack::<D, true, false>(
                    turn,
                    target,
                    &stats.weapons[0],
                    quick.bonus,
                    Edge::Normal,
                    false,
                );
                Quick::Done
            }
            _ => Quick::Resume(target),
        }
    }

    // Two units in reach of each other, both on the fast path: every turn
    // of every fight is `quick_turn`'s plain attack until one goes down
    // (see `duels`).
    #[inline(always)]
    fn quick_batch<D: Dice>(
        fight: &mut Fight<Self>,
        enc: &Encounter<Self>,
        dice: &mut D,
        fights: u32,
        tally: &mut Tally,
    ) -> bool {
        let Some(pair) = Duel::of(fight, enc) else {
            return false;
        };
        duels(fight, enc, dice, pair, fights, tally);
        true
    }

    fn prepare_unit(spec: &mut UnitSpec<Self>, options: &Options) {
        spec.stats.settle(options);
        // One attack a turn ("Actions"), with the best weapon first: its
        // mean damage is what a turn most likely deals.
        spec.drops = one_attack_drops(spec.stats.weapons());
        // A smart unit does not drop prone by itself: a prone unit's own
        // attacks have disadvantage (Conditions: Prone), which costs a
        // shooter as much as it saves, plus the action (trench_raid's
        // tactics report measured smart riflemen dropping prone at 0.31
        // where holding won 0.65). `drop_prone` stays the stat block's.
        spec.stats.plan = Plan::of(spec.tactic);
        let stats = &spec.stats;
        let eligible = spec.tactic == Tactic::Advance
            && spec.targeting == Targeting::Random
            && stats.exhaustion < 3
            && !stats.weapons().is_empty();
        spec.stats.quick = eligible.then(|| {
            let weapon = &stats.weapons[0];
            QuickAttack {
                reach: weapon.range.min(stats.advance_reach),
                bonus: attack_bonus(stats, weapon, options),
            }
        });
    }

    fn resume_turn<D: Dice>(turn: &mut Turn<'_, Self, D>, target: usize) {
        // The fast path takes only units with no condition: they act.
        // The fast path is the front's (`place_on_map` turns it off).
        advance_on::<D, false>(turn, target, true);
    }

    fn vitality(unit: &Combatant<State>, spec: &UnitSpec<Self>) -> (u32, u32) {
        (unit.state.hp.max(0) as u32, spec.stats.max_hp() as u32)
    }
}

/// One of a duel's two units, as its fight loop holds it: what its attack on
/// the other needs (worked out once a batch) and its health. Kept small:
/// the loop's values must fit in registers beside the dice's state.
#[derive(Clone, Copy)]
struct Fighter<'a> {
    hp: i32,
    /// The attack die's total needed to hit the other (`roll_attack`'s
    /// `need`).
    need: i32,
    weapon: &'a Weapon,
}

/// A fight that is a duel: two units of different sides, both in the
/// fight, without conditions, on the fast path (`prepare_unit`) and in
/// their first weapon's reach of each other, under an initiative scheme
/// that gives each its turn in order. Every turn is then `quick_turn`'s
/// plain attack on the other (no move, no roll for the target, no
/// condition on either side) until one goes down, which ends the fight.
#[derive(Clone, Copy)]
struct Duel<'a> {
    /// Units 0 and 1.
    fighters: [Fighter<'a>; 2],
    /// Bit `i` set: full cover against a firearm cuts the damage of unit
    /// `i`'s attacks. (A bit set: tested whole once a fight, bytes written
    /// one by one and read as a word would wait on the stores.)
    cut: u8,
    /// Both weapons one plain die (`(sides, bonus)`, units 0 and 1) and no
    /// cover cut: stretches of turns run in `plain_turns`, on dice of their
    /// own.
    plain: Option<[(u32, i32); 2]>,
}

impl Fighter<'_> {
    /// Take `damage` (at least 0); true if it downs the fighter.
    #[inline(always)]
    fn take(&mut self, damage: i32) -> bool {
        self.hp = (self.hp - damage).max(0);
        self.hp == 0
    }
}

impl<'a> Duel<'a> {
    /// The duel `fight` is, if it is one.
    #[inline(always)]
    fn of(fight: &Fight<Trenches>, enc: &'a Encounter<Trenches>) -> Option<Duel<'a>> {
        if enc.n != 2 || enc.initiative.kind == InitiativeKind::Alternating {
            return None;
        }
        let units = [&fight.units[0], &fight.units[1]];
        let quick = [enc.units[0].stats.quick?, enc.units[1].stats.quick?];
        let distance = (units[0].position - units[1].position).abs();
        let ready = |u: &Combatant<State>| !u.out && !u.lingering && u.conditions.is_empty();
        if units[0].side == units[1].side
            || !ready(units[0])
            || !ready(units[1])
            || distance > quick[0].reach
            || distance > quick[1].reach
        {
            return None;
        }
        let against = |me: usize| {
            let them = 1 - me;
            let weapon = &enc.units[me].stats.weapons[0];
            let firearm = weapon.kind == WeaponKind::Firearm;
            let cover = units[them].cover;
            let stats = &enc.units[them].stats;
            let ac = if firearm {
                stats.ac_firearm + cover_bonus(cover, &enc.options)
            } else {
                stats.ac_melee
            };
            let fighter = Fighter {
                hp: units[me].state.hp,
                need: ac - quick[me].bonus,
                weapon,
            };
            (fighter, firearm && cover == Cover::Full)
        };
        let ((a, cut_a), (b, cut_b)) = (against(0), against(1));
        let cut = u8::from(cut_a) | u8::from(cut_b) << 1;
        let plain = match (a.weapon.damage.single_die(), b.weapon.damage.single_die()) {
            (Some(da), Some(db)) if cut == 0 => Some([da, db]),
            _ => None,
        };
        Some(Duel {
            fighters: [a, b],
            cut,
            plain,
        })
    }
}

/// How a duel ended: the round, and who downed whom (`None`: the round cap).
type DuelEnd = (u32, Option<(usize, usize)>);

/// `fights` duels from the start `fight` was reset to, each fought to its
/// end in one loop (the rounds and turn order of `Fight::run`, each turn
/// `roll_attack`'s plain attack) and tallied as `Fight::record` tallies
/// the fight those turns leave: the winner, the loser down (out of the
/// fight: `down`), the harm each side dealt, and the ruleset's counters.
/// The start is the same for every fight of a batch, so it is read once.
#[inline(always)]
fn duels<D: Dice>(
    fight: &mut Fight<Trenches>,
    enc: &Encounter<Trenches>,
    dice: &mut D,
    duel: Duel<'_>,
    fights: u32,
    tally: &mut Tally,
) {
    let sides = [fight.units[0].side as usize, fight.units[1].side as usize];
    let start = [duel.fighters[0].hp, duel.fighters[1].hp];
    for _ in 0..fights {
        let mut counts = [0u32; 2];
        let (fighters, (rounds, downed)) = if duel.cut == 0 {
            duel_rounds::<D, false>(fight, enc, dice, duel, &mut counts)
        } else {
            duel_rounds::<D, true>(fight, enc, dice, duel, &mut counts)
        };
        // Every attack is one turn: two a round, but for the last round's
        // second if the first ended the fight.
        let opener = fight.turn_order()[0] as usize;
        let ended_early = downed.is_some_and(|(me, _)| opener == me);
        let attacks = 2 * rounds - u32::from(ended_early);
        tally.fights += 1;
        match downed {
            Some((me, _)) => {
                // The other side's only unit is down and out: `me`'s side
                // wins, with `me` standing.
                tally.wins[sides[me]] += 1;
                tally.survivors[sides[me]] += 1;
                tally.counters[counter::DOWNED] += 1;
            }
            None => {
                // Both still up: the round cap ended it.
                tally.draws += 1;
                tally.draws_at_cap += 1;
                tally.survivors[sides[0]] += 1;
                tally.survivors[sides[1]] += 1;
            }
        }
        tally.rounds[(rounds as usize).min(MAX_ROUNDS)] += 1;
        for i in 0..2 {
            // The harm a side dealt is all its duellist's foe took.
            tally.damage[sides[i]] += (start[1 - i] - fighters[1 - i].hp) as u64;
        }
        tally.counters[counter::ATTACKS] += u64::from(attacks);
        tally.counters[counter::HITS] += u64::from(counts[0]);
        tally.counters[counter::CRITS] += u64::from(counts[1]);
    }
}

/// The rounds of a duel (see [`duels`]): the fighters as they end, and
/// how. `counts`: hits and crits. `CUT`: full cover cuts one side's damage
/// (rare: the common duel keeps the test out of its loop).
#[inline(always)]
fn duel_rounds<'a, D: Dice, const CUT: bool>(
    fight: &mut Fight<Trenches>,
    enc: &Encounter<Trenches>,
    dice: &mut D,
    duel: Duel<'a>,
    counts: &mut [u32; 2],
) -> ([Fighter<'a>; 2], DuelEnd) {
    let opts = &enc.options;
    let rerolls = enc.initiative.kind == InitiativeKind::Rerolled;
    // Held as [first to act this round, second], swapped when a new turn
    // order says so, so that neither is looked up by unit.
    let mut pair = duel.fighters;
    // Each weapon's die, held in the same order as `pair`.
    let mut dies = duel.plain;
    let mut swapped = false;
    let mut at = Place { round: 1, next: 0 };
    let mut downed = None;
    // As `Fight::run`: the order once, then again each round if re-rolled.
    fight.make_order(enc, dice);
    while at.round <= enc.max_rounds {
        if at.next == 0 {
            if rerolls && at.round > 1 {
                fight.make_order(enc, dice);
            }
            if fight.turn_order()[0] as usize != usize::from(swapped) {
                pair.swap(0, 1);
                if let Some(d) = &mut dies {
                    d.swap(0, 1);
                }
                swapped = !swapped;
            }
        }
        // The unit fighting as pair[k].
        let unit = |k: usize| k ^ usize::from(swapped);
        let me = at.next;
        let down = if let Some(dies) = dies {
            match dice.lend(|d| plain_turns(d, &mut pair, dies, &mut at, enc, rerolls, counts)) {
                Stop::Turns => continue,
                Stop::Down => true,
            }
        } else {
            let cut = CUT && duel.cut >> unit(me) & 1 != 0;
            let (attacker, target) = roles(&mut pair, me);
            let (hit, crit_roll) = hits(dice.d20(), attacker.need, opts);
            land(
                attacker,
                target,
                (hit, hit && crit_roll),
                cut,
                opts,
                counts,
                dice,
            )
        };
        if down {
            // `at` is still the place of the attack that downed.
            let (me, them) = (at.next, 1 - at.next);
            downed = Some((unit(me), unit(them)));
            break;
        }
        at.advance();
    }
    let round = match downed {
        Some(_) => at.round,
        None => enc.max_rounds,
    };
    let fighters = if swapped { [pair[1], pair[0]] } else { pair };
    (fighters, (round, downed))
}

/// Where a duel is: the round, and whose attack is next (0: the round's
/// first, 1: its second).
#[derive(Clone, Copy)]
struct Place {
    round: u32,
    next: usize,
}

impl Place {
    #[inline(always)]
    fn advance(&mut self) {
        self.next ^= 1;
        self.round += u32::from(self.next == 0);
    }
}

/// Why [`plain_turns`] stopped.
#[derive(Clone, Copy)]
enum Stop {
    /// At the start of a round the caller must see to (a new turn order
    /// under re-rolled initiative, or the round cap).
    Turns,
    /// The attack at the place reached downed its target.
    Down,
}

/// Plain attacks of a duel whose weapons are each one plain die (`dies`,
/// in the order of `pair`), turn after turn from `at`, until one downs its target or a round begins that the
/// caller must see to. Nothing here calls out of line with the dice, so
/// that [`Dice::lend`] can keep their state in registers for the whole
/// stretch; the two fighters are locals, a round two attacks written out.
/// `counts`: hits, crits.
#[inline(always)]
fn plain_turns<D: Dice>(
    dice: &mut D,
    pair: &mut [Fighter<'_>; 2],
    [first_die, second_die]: [(u32, i32); 2],
    at: &mut Place,
    enc: &Encounter<Trenches>,
    rerolls: bool,
    counts: &mut [u32; 2],
) -> Stop {
    let opts = &enc.options;
    let [mut first, mut second] = *pair;
    let mut tally = [0u32; 2];
    let stop = loop {
        if at.next == 0 {
            if plain_attack(dice, &first, &mut second, first_die, opts, &mut tally) {
                break Stop::Down;
            }
            at.next = 1;
        }
        if plain_attack(dice, &second, &mut first, second_die, opts, &mut tally) {
            break Stop::Down;
        }
        at.next = 0;
        at.round += 1;
        if rerolls || at.round > enc.max_rounds {
            break Stop::Turns;
        }
    };
    *pair = [first, second];
    counts[0] += tally[0];
    counts[1] += tally[1];
    stop
}

/// One attack of [`plain_turns`]: `me` on `them` with a plain die
/// `(sides, bonus)`, a critical hit's damage by the crit rule
/// ([`Crit::on_one_die`]); true if it downed them. `tally`: hits, crits.
#[inline(always)]
fn plain_attack<D: Dice>(
    dice: &mut D,
    me: &Fighter<'_>,
    them: &mut Fighter<'_>,
    (sides, bonus): (u32, i32),
    opts: &Options,
    tally: &mut [u32; 2],
) -> bool {
    let (hit, crit_roll) = hits(dice.d20(), me.need, opts);
    tally[0] += u32::from(hit);
    let mut damage = plain_roll_if(sides, bonus, hit, dice);
    // A branch, but a rare one (one attack in twenty): the crit rule may
    // roll a die.
    if hit && crit_roll {
        tally[1] += 1;
        damage = opts.crit.on_one_die(sides, damage, dice);
    }
    them.take(damage.max(0))
}

/// The attacker and the target when `pair[me]` attacks the other.
#[inline(always)]
fn roles<'p, 'a>(
    pair: &'p mut [Fighter<'a>; 2],
    me: usize,
) -> (&'p Fighter<'a>, &'p mut Fighter<'a>) {
    let [first, second] = pair;
    if me == 0 {
        (&*first, second)
    } else {
        (&*second, first)
    }
}

/// The rest of a duel's attack once its die is read: `(hit, crit)` counted
/// (`counts`: hits, crits), `roll_attack`'s plain damage taken by `them`;
/// true if it downed them.
#[inline(always)]
fn land<D: Dice>(
    me: &Fighter<'_>,
    them: &mut Fighter<'_>,
    (hit, crit): (bool, bool),
    cut: bool,
    opts: &Options,
    counts: &mut [u32; 2],
    dice: &mut D,
) -> bool {
    counts[0] += u32::from(hit);
    counts[1] += u32::from(crit);
    them.take(plain_damage(me.weapon, opts, hit, crit, cut, dice))
}

/// Standing speed for the fight: 0 when held fast or at exhaustion 5;
/// reduced by difficult terrain (`difficult_terrain_speed`), deafness and
/// exhaustion 2; rounded down.
#[inline]
pub fn speed(unit: &Unit, conditions: Conditions, opts: &Options) -> i32 {
    if conditions.is_empty() && unit.exhaustion < 2 && !opts.difficult_terrain {
        return unit.speed;
    }
    if conditions.any(ROOTED) || unit.exhaustion >= 5 {
        return 0;
    }
    let mut s = unit.speed as f64;
    if opts.difficult_terrain {
        s *= opts.difficult_terrain_speed;
    }
    if conditions.has(Condition::Deafened) {
        s *= 1.0 - opts.deafened_speed_loss;
    }
    if unit.exhaustion >= 2 {
        s *= opts.exhaustion_speed;
    }
    s.floor() as i32
}

/// Movement available this turn, worked out once per turn ("Prone"): a
/// prone unit that gets up pays `stand_up_cost` of the turn's movement
/// ("Choosing to stand from prone costs the creature ? of that turn's
/// movement speed"); one that stays down crawls at `crawl_speed`.
fn movement<D: Dice>(turn: &mut Turn<'_, Trenches, D>, stay_down: bool) -> i32 {
    let me = turn.actor;
    let opts = turn.options();
    let unit = turn.unit_mut(me);
    let full = unit.state.speed;
    if !unit.conditions.has(Condition::Prone) {
        return full;
    }
    if stay_down {
        return (full as f64 * opts.crawl_speed).floor() as i32;
    }
    unit.conditions.clear(Condition::Prone);
    full - (full as f64 * opts.stand_up_cost).ceil() as i32
}

// A turn's functions take `MAP` (whether the fight is on a map), settled
// once per cell in the unit's `Plan`: on the front the measures below are the
// front's arithmetic, with no test of the ground left in the turn (the
// front costs what it did before maps).

/// Distance from the actor to `other`: the map's or the front's.
#[inline(always)]
fn apart<D: Dice, const MAP: bool>(turn: &Turn<'_, Trenches, D>, other: usize) -> i32 {
    if MAP {
        turn.enemy_distance(other)
    } else {
        turn.front_distance(turn.actor, other)
    }
}

/// Whether the actor sees `other` (always, on the front).
#[inline(always)]
fn in_sight<D: Dice, const MAP: bool>(turn: &Turn<'_, Trenches, D>, other: usize) -> bool {
    !MAP || turn.sees(other)
}

/// The first (best) of a unit's weapons that reaches `distance`.
#[inline]
fn best_weapon(stats: &Unit, distance: i32) -> Option<&Weapon> {
    stats.weapons().iter().find(|w| distance <= w.range)
}

/// Attack the target with the best weapon that reaches it, if any.
fn attack_if_in_reach<D: Dice, const MAP: bool>(
    turn: &mut Turn<'_, Trenches, D>,
    target: usize,
) -> bool {
    let stats = &turn.enc.units[turn.actor].stats;
    let distance = apart::<D, MAP>(turn, target);
    match best_weapon(stats, distance).filter(|_| in_sight::<D, MAP>(turn, target)) {
        Some(weapon) => {
            strike::<D, MAP>(turn, target, weapon, distance);
            true
        }
        None => false,
    }
}

/// Hold: stay put, attack whatever is in range. A `drop_prone` unit in the
/// open first throws itself down (its action) when no enemy is within reach.
/// A unit that cannot act (`!acts`) only gets up.
#[inline(never)]
fn hold<D: Dice, const MAP: bool>(turn: &mut Turn<'_, Trenches, D>, acts: bool) {
    let me = turn.actor;
    stand_unless_fighting_prone(turn);
    if !acts || drop_prone::<D, MAP>(turn) {
        return;
    }
    let stats = &turn.enc.units[me].stats;
    if let Some(target) = turn
        .choose_target(|t, i| apart::<D, MAP>(t, i) <= stats.max_range && in_sight::<D, MAP>(t, i))
    {
        attack_if_in_reach::<D, MAP>(turn, target);
    }
}

/// A prone unit that does not choose to fight from the ground stands up
/// (paying movement it may not need this turn).
fn stand_unless_fighting_prone<D: Dice>(turn: &mut Turn<'_, Trenches, D>) {
    let me = turn.actor;
    if turn.unit(me).conditions.has(Condition::Prone) && !turn.spec(me).stats.drop_prone {
        movement(turn, false);
    }
}

/// Drop prone if this unit does that and is in the open, standing, with no
/// enemy in reach. Returns true if it did (the action is spent).
fn drop_prone<D: Dice, const MAP: bool>(turn: &mut Turn<'_, Trenches, D>) -> bool {
    let me = turn.actor;
    let unit = turn.unit(me);
    let in_cover = match turn.ground().filter(|_| MAP) {
        Some(g) => g.map.at(turn.square(me)).dug != Cover::None,
        None => unit.cover != Cover::None,
    };
    if !turn.spec(me).stats.drop_prone
        || in_cover
        || unit.conditions.has(Condition::Prone)
        || turn.enemies_within(me, turn.options().reach) != 0
    {
        return false;
    }
    turn.unit_mut(me).conditions.set(Condition::Prone);
    true
}

/// Advance: close on the target to melee. Attack if it is in reach after
/// moving; otherwise shoot if a firearm reaches; otherwise sprint. A unit
/// that cannot act (`!acts`) only moves.
#[inline(never)]
fn advance<D: Dice, const MAP: bool>(turn: &mut Turn<'_, Trenches, D>, acts: bool) {
    let Some(target) = turn.choose_target(|_, _| true) else {
        return;
    };
    advance_on::<D, MAP>(turn, target, acts);
}

/// [`advance`] once the target is chosen.
#[inline(always)]
fn advance_on<D: Dice, const MAP: bool>(
    turn: &mut Turn<'_, Trenches, D>,
    target: usize,
    acts: bool,
) {
    let me = turn.actor;
    let stats = &turn.enc.units[me].stats;
    let reach = stats.advance_reach;
    let mut distance = apart::<D, MAP>(turn, target);
    // Already in reach and on its feet (the usual case once engaged): no
    // movement to work out.
    if distance > reach || turn.unit(me).conditions.has(Condition::Prone) {
        let budget = movement(turn, false);
        if distance > reach && !turn.unit(me).conditions.has(Condition::Frightened) {
            if !stride::<D, _, MAP>(turn, |t| t.approach(target, budget, reach)) {
                return;
            }
            distance = apart::<D, MAP>(turn, target);
        }
    }
    if !acts {
        return;
    }
    if let Some(weapon) = best_weapon(stats, distance).filter(|_| in_sight::<D, MAP>(turn, target))
    {
        strike::<D, MAP>(turn, target, weapon, distance);
        return;
    }
    // Nothing reaches: Sprint (the action) moves the unit's speed again
    // ("double their usual movement speed": `sprint_multiplier` times in
    // all).
    let sprint = sprint_extra(turn.unit(me).state.speed, turn.options());
    if !turn.unit(me).conditions.has(Condition::Frightened) && sprint > 0 {
        turn.count(counter::SPRINTS);
        stride::<D, _, MAP>(turn, |t| t.approach(target, sprint, reach));
    }
}

/// How far Sprint moves a unit of standing speed `speed` beyond its
/// movement: `sprint_multiplier` times its speed in all, rounded down.
#[inline]
fn sprint_extra(speed: i32, opts: &Options) -> i32 {
    (speed as f64 * (opts.sprint_multiplier - 1.0)).floor() as i32
}

/// Keep range: back off when an enemy is within reach (provoking attacks of
/// opportunity), move only as close as the firearms need, shoot. A unit
/// that cannot act (`!acts`) only moves.
#[inline(never)]
fn keep_range<D: Dice, const MAP: bool>(turn: &mut Turn<'_, Trenches, D>, acts: bool) {
    let me = turn.actor;
    let stats = &turn.enc.units[me].stats;
    let range = if stats.firearm_range > 0 {
        stats.firearm_range
    } else {
        stats.max_range
    };
    let engaged = turn.enemies_within(me, turn.options().reach);
    // The turn's movement, worked out once: a prone unit gets up (paying
    // for it) unless it fights from the ground and need not back off.
    let stay_down = stats.drop_prone && engaged == 0;
    let budget = movement(turn, stay_down);
    if engaged != 0 {
        if !stride::<D, _, MAP>(turn, |t| t.back_off(budget)) {
            return;
        }
    } else if acts && drop_prone::<D, MAP>(turn) {
        return;
    }
    let target = turn
        .choose_target(|t, i| apart::<D, MAP>(t, i) <= stats.max_range && in_sight::<D, MAP>(t, i));
    let target = match target {
        Some(t) => t,
        None => {
            // Nothing in range: close in to firing range, then shoot.
            let Some(t) = turn.choose_target(|_, _| true) else {
                return;
            };
            let fearful = turn.unit(me).conditions.has(Condition::Frightened);
            if engaged == 0
                && !fearful
                && !stride::<D, _, MAP>(turn, |s| s.approach(t, budget, range))
            {
                return;
            }
            t
        }
    };
    if acts {
        attack_if_in_reach::<D, MAP>(turn, target);
    }
}

/// Move the actor with `step` ("Attacks of opportunity"): "Any creature
/// within 5m of an enemy who attempts to leave the 5m radius of that
/// creature ... will take such an attack", whichever way it moves: every
/// enemy whose 5 m the mover was within when the move began (the text's
/// enemy "previously within melee distance", disengaging from a fight it is
/// in) and is beyond at its end may attack it; with `passing_provokes`,
/// also one whose 5 m the move only passed through. The attack is rolled at
/// the closest the mover came (on the front, passing an enemy goes through
/// its position). The mover's cover is settled first (`cover_when_moving`):
/// the attack is rolled "with whatever modifiers would be appropriate as
/// they left". Returns false if the mover fell to the attacks.
// Out of line: only turns that move come here, and the hot path (a unit
// standing in reach, `quick_turn` and `advance_on`) stays small without it.
#[inline(never)]
fn stride<D: Dice, T, const MAP: bool>(
    turn: &mut Turn<'_, Trenches, D>,
    step: impl FnOnce(&mut Turn<'_, Trenches, D>) -> T,
) -> bool {
    let me = turn.actor;
    let from = turn.unit(me).position;
    let enemies = turn.in_fight() & !turn.side_units(turn.unit(me).side as usize);
    let passing_provokes = turn.options().passing_provokes;
    let reach = turn.options().reach;
    let left = provoking_move(
        turn,
        enemies,
        |t| {
            step(t);
        },
        |t, e, from| {
            let (to, at) = (t.unit(t.actor).position, t.unit(e).position);
            if MAP && passing_provokes {
                // On a map the path is known square by square.
                return map::leaves_reach_on_path(t, from, at, reach);
            }
            let was_within = if passing_provokes {
                closest::<D, MAP>(t, from, to, at)
            } else {
                gap::<D, MAP>(t, from, at)
            };
            was_within <= reach && gap::<D, MAP>(t, to, at) > reach
        },
    );
    let to = turn.unit(me).position;
    // On a map cover is the place's, worked out for each attack (`aim`).
    if to != from && !MAP && turn.options().cover_when_moving == CoverWhenMoving::LeftBehind {
        let home_cover = turn.spec(me).cover;
        let unit = turn.unit_mut(me);
        unit.cover = if to == unit.state.home {
            home_cover
        } else {
            Cover::None
        };
    }
    for enemy in Bits(left) {
        if turn.unit(me).out {
            break;
        }
        let at = closest::<D, MAP>(turn, from, to, turn.unit(enemy).position);
        opportunity_attack::<D, MAP>(turn, enemy, me, at);
    }
    !turn.unit(me).out
}

/// The closest a move from `from` to `to` comes to position `at` (on the
/// front, passing it goes through it; on a map, the nearest square of its
/// path: [`map::closest_on_path`]).
#[inline(always)]
fn closest<D: Dice, const MAP: bool>(
    turn: &Turn<'_, Trenches, D>,
    from: i32,
    to: i32,
    at: i32,
) -> i32 {
    if MAP {
        return map::closest_on_path(turn, from, at);
    }
    if from.min(to) <= at && at <= from.max(to) {
        0
    } else {
        (from - at).abs().min((to - at).abs())
    }
}

/// Distance between two positions: the map's or the front's.
#[inline(always)]
fn gap<D: Dice, const MAP: bool>(turn: &Turn<'_, Trenches, D>, p: i32, q: i32) -> i32 {
    if MAP {
        turn.gap(p, q)
    } else {
        (p - q).abs()
    }
}

/// On a map, the target's cover against the actor is the place's: terrain
/// on the line next to the target (a low wall, a parapet) or the cover
/// dug where it stands (a trench, a foxhole, a firing position), against
/// an attacker that is not next to it ("Cover"). Set before each attack, so
/// the attack rolls read it as they read the front's cover.
#[inline(always)]
fn aim<D: Dice, const MAP: bool>(turn: &mut Turn<'_, Trenches, D>, target: usize) {
    if MAP {
        map::aim(turn, target);
    }
}

/// `reactor` attacks `mover`, who just left its reach having come within
/// `distance` of it, with its best weapon that reaches (melee only with
/// `opportunity_weapons = "melee"`), if it can react.
fn opportunity_attack<D: Dice, const MAP: bool>(
    turn: &mut Turn<'_, Trenches, D>,
    reactor: usize,
    mover: usize,
    distance: i32,
) {
    let unit = turn.unit(reactor);
    if unit.out || unit.state.reacted || unit.conditions.any(NO_ACTIONS) {
        return;
    }
    let melee_only = turn.options().opportunity_weapons == OpportunityWeapons::Melee;
    let stats = &turn.enc.units[reactor].stats;
    let Some(weapon) = stats
        .weapons()
        .iter()
        .find(|w| (!melee_only || w.kind == WeaponKind::Melee) && distance <= w.range)
    else {
        return;
    };
    turn.unit_mut(reactor).state.reacted = true;
    turn.count(counter::OPPORTUNITY);
    turn.as_actor(reactor, |t| {
        t.note_that(mover, "attack of opportunity");
        strike::<D, MAP>(t, mover, weapon, distance)
    });
}

/// How an attack went (for tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttackResult {
    pub natural: u32,
    pub total: i32,
    pub ac: i32,
    pub hit: bool,
    pub crit: bool,
    pub damage: i32,
}

/// One attack by the acting unit on `target` with `weapon`.
pub fn attack<D: Dice>(
    turn: &mut Turn<'_, Trenches, D>,
    target: usize,
    weapon: &Weapon,
) -> AttackResult {
    let distance = turn.enemy_distance(target);
    if turn.ground().is_some() {
        map::aim(turn, target);
    }
    if plain(turn, target) {
        resolve::<D, true, true>(turn, target, weapon, distance)
    } else {
        resolve::<D, false, true>(turn, target, weapon, distance)
    }
}

/// [`attack`] at a given distance (attacks of opportunity are rolled at the
/// distance the target left from), for the rules: the result is not needed.
// Most attacks involve no condition at all (nor exhaustion 3): those take
// the `PLAIN` resolution, inlined, where everything conditions decide is a
// constant; the rest go out of line.
#[inline(always)]
fn strike<D: Dice, const MAP: bool>(
    turn: &mut Turn<'_, Trenches, D>,
    target: usize,
    weapon: &Weapon,
    distance: i32,
) {
    aim::<D, MAP>(turn, target);
    if plain(turn, target) {
        resolve::<D, true, false>(turn, target, weapon, distance);
    } else {
        resolve_conditioned(&mut turn.reborrow(), target, weapon, distance);
    }
}

/// Whether an attack by the actor on `target` is a plain one: no condition
/// on either side and the attacker below exhaustion 3.
#[inline(always)]
fn plain<D: Dice>(turn: &Turn<'_, Trenches, D>, target: usize) -> bool {
    turn.unit(turn.actor).conditions.is_empty()
        && turn.unit(target).conditions.is_empty()
        && turn.spec(turn.actor).stats.exhaustion < 3
}

/// [`resolve`] for attacks where a condition or exhaustion plays a part.
#[inline(never)]
fn resolve_conditioned<D: Dice>(
    turn: &mut Turn<'_, Trenches, D>,
    target: usize,
    weapon: &Weapon,
    distance: i32,
) {
    resolve::<D, false, false>(turn, target, weapon, distance);
}

/// Roll and apply one attack. `PLAIN`: neither side has a condition and the
/// attacker is below exhaustion 3 (the caller checked), so there is no edge,
/// no blind shot and no automatic critical. `SHOWN`: the caller reads the
/// rolls in the result ([`attack`]; see [`roll_attack`]).
#[inline(always)]
fn resolve<D: Dice, const PLAIN: bool, const SHOWN: bool>(
    turn: &mut Turn<'_, Trenches, D>,
    target: usize,
    weapon: &Weapon,
    distance: i32,
) -> AttackResult {
    let me = turn.actor;
    let enc = turn.enc;
    let stats = &enc.units[me].stats;
    let firearm = weapon.kind == WeaponKind::Firearm;
    let opts = &enc.options;

    let (edge, blind_far_shot, helpless) = if PLAIN {
        (Edge::Normal, false, false)
    } else {
        let mine = turn.unit(me).conditions;
        let theirs = turn.unit(target).conditions;
        // Blinded units' shots beyond 10 m (`blind_range`): disadvantage
        // and −5 (`blind_penalty`).
        let blind_far_shot = mine.has(Condition::Blinded) && firearm && distance > opts.blind_range;
        // "Prone": advantage "if the attacker is within 5m" (`prone_close_range`).
        let near = distance <= opts.prone_close_range;
        let edge = edge(mine, theirs, stats, firearm, near, blind_far_shot);
        // "Paralyzed", "Unconscious": a hit from "within 5m" is critical
        // (`helpless_crit_range`).
        let close = distance <= opts.helpless_crit_range;
        (edge, blind_far_shot, close && theirs.any(HELPLESS))
    };

    let mut bonus = attack_bonus(stats, weapon, opts);
    if blind_far_shot {
        bonus -= opts.blind_penalty;
    }
    roll_attack::<D, PLAIN, SHOWN>(turn, target, weapon, bonus, edge, helpless)
}

/// The attack bonus of `stats` with `weapon`, before conditions.
#[inline(always)]
fn attack_bonus(stats: &Unit, weapon: &Weapon, opts: &Options) -> i32 {
    let mut bonus = weapon.attack + stats.attack;
    if opts.proficiency_on_attacks {
        bonus += stats.proficiency;
    }
    bonus
}

/// [`resolve`] once the bonus, the edge and whether the target is helpless
/// are known: roll, hit or miss, damage. The result's natural roll, total
/// and damage are those rolled only if `SHOWN` or the dice are watched
/// (otherwise 0, and the damage is the harm dealt).
#[inline(always)]
fn roll_attack<D: Dice, const PLAIN: bool, const SHOWN: bool>(
    turn: &mut Turn<'_, Trenches, D>,
    target: usize,
    weapon: &Weapon,
    bonus: i32,
    edge: Edge,
    helpless: bool,
) -> AttackResult {
    let opts = &turn.enc.options;
    let firearm = weapon.kind == WeaponKind::Firearm;
    let cover = turn.unit(target).cover;
    let target_stats = &turn.spec(target).stats;
    let ac = if firearm {
        target_stats.ac_firearm + cover_bonus(cover, opts)
    } else {
        target_stats.ac_melee
    };
    // Decided before the roll, so that less is live across it.
    let need = ac - bonus;
    let cut = firearm && cover == Cover::Full;
    // What the faces mean is all that counts of the attack die (one or two
    // d20s): hit or miss, and a critical roll. So the exact engine branches
    // 3 ways, not 20 or 400 (`Dice::pool`). The natural roll itself is kept
    // only where someone reads it: a watched fight's notes, and the
    // `AttackResult` of `attack` (`SHOWN`). The pools' closures are
    // inlined by force: left to the compiler, they were calls, and the
    // plain attack took 15% more instructions.
    let shown = SHOWN || D::WATCHED;
    let (hit, crit_roll, natural) = turn.dice.pool(
        #[inline(always)]
        |d| verdict(d, edge, need, opts, shown),
    );
    let total = natural as i32 + bonus;
    turn.count(counter::ATTACKS);
    // Every note sits inside `if D::WATCHED`, and this one out of line:
    // unwatched, nothing of it may reach the plain attack (inlined here it
    // cost 2% of the duel's instructions; one under `if hit` a third of its
    // speed).
    if D::WATCHED {
        note_attack(turn, target, weapon, edge, natural as i32, bonus, ac, hit);
    }
    let mut result = AttackResult {
        natural,
        total,
        ac,
        hit,
        crit: false,
        damage: 0,
    };
    let crit = hit && (crit_roll || helpless);
    // The damage dice matter only through the harm they deal: the roll cut
    // by full cover, at least 0, and at most the target's HP (a hit for 9
    // or for 12 on a unit with 8 HP left leaves the same fight). Each die's
    // total is a pool of those values (`harm_pool`), unless its roll is
    // shown (a watched fight's notes, `AttackResult::damage`).
    let shape = (target, shown, cut);
    let damage = if PLAIN && !crit {
        // Hit or miss is a coin flip that no branch predictor learns: a
        // plain attack takes its damage roll (production dice roll it hit
        // or miss, see `Dice::roll_if`) and goes on to apply it, 0 on a
        // miss, without branching on the hit.
        turn.count_if(counter::HITS, hit);
        let damage = &weapon.damage;
        harm_pool(
            turn,
            shape,
            #[inline(always)]
            |d| damage.roll_if(hit, d),
        )
    } else {
        if !hit {
            return result;
        }
        turn.count(counter::HITS);
        if crit {
            turn.count(counter::CRITS);
            turn.note_that(target, "critical hit");
            let rule = opts.crit;
            harm_pool(
                turn,
                shape,
                #[inline(always)]
                |d| crit_damage(rule, &weapon.damage, 0, d),
            )
        } else {
            let damage = &weapon.damage;
            harm_pool(
                turn,
                shape,
                #[inline(always)]
                |d| damage.roll(d),
            )
        }
    };
    let damage = if shown {
        if D::WATCHED && hit {
            turn.note_roll(target, "damage", damage);
            if cut {
                turn.note_that(target, "full cover cuts the damage");
            }
        }
        // What `attack` reports: the damage of the hit, before the
        // target's HP bound it.
        result.damage = cut_damage(damage, cut, opts);
        dealt(damage, cut, turn.unit(target).state.hp, opts)
    } else {
        damage
    };
    result.crit = crit;
    apply_damage(turn, target, damage);
    result
}

/// The attack die's verdict for a roll that needs `need` with `edge`: hit,
/// critical roll, and the natural roll if `shown` (else 0).
#[inline(always)]
fn verdict<D: Dice>(
    dice: &mut D,
    edge: Edge,
    need: i32,
    opts: &Options,
    shown: bool,
) -> (bool, bool, u32) {
    let natural = edge.roll(dice);
    let (hit, crit_roll) = hits(natural, need, opts);
    (hit, crit_roll, if shown { natural } else { 0 })
}

/// A damage roll (`roll`) of an attack on `target` as a pool: of the harm
/// it deals ([`dealt`], `cut` by full cover), or of the roll itself if
/// `shown`.
#[inline(always)]
fn harm_pool<D: Dice>(
    turn: &mut Turn<'_, Trenches, D>,
    (target, shown, cut): (usize, bool, bool),
    mut roll: impl FnMut(&mut D) -> i32,
) -> i32 {
    let opts = &turn.enc.options;
    // The target's HP read where the pool needs it, not held across the
    // rolls (a value held across them cost the plain attack spills). The
    // mask is `Turn::unit`'s: an index below `MAX_UNITS` by construction,
    // without a bounds check.
    let hp = &turn.fight.units[target & (MAX_UNITS - 1)].state.hp;
    turn.dice.pool(
        #[inline(always)]
        |d| {
            let rolled = roll(d);
            if shown {
                rolled
            } else {
                dealt(rolled, cut, *hp, opts)
            }
        },
    )
}

/// The harm a damage roll of `rolled` deals a target of `hp` hit points:
/// cut by full cover (`cut`), at least 0, at most `hp`.
#[inline(always)]
fn dealt(rolled: i32, cut: bool, hp: i32, opts: &Options) -> i32 {
    cut_damage(rolled, cut, opts).min(hp)
}

/// A damage roll cut by full cover (`cut`), at least 0.
#[inline(always)]
fn cut_damage(rolled: i32, cut: bool, opts: &Options) -> i32 {
    let damage = if cut { cover_cut(rolled, opts) } else { rolled };
    damage.max(0)
}

/// Whether an attack roll of `natural` hits when it needs `need` on the die
/// (the target's AC less the bonus), and whether the die shows a critical
/// natural roll (`crit_on` or more: a natural 20 by default). A critical
/// roll that hits is critical whether or not `nat20_hits` made it hit: the
/// option is about hitting, not about crits; with `crit_on` below 20, a
/// critical roll must hit on its total to be critical.
#[inline(always)]
fn hits(natural: u32, need: i32, opts: &Options) -> (bool, bool) {
    // The natural 1 and 20 rules as thresholds on the natural roll: plain
    // comparisons, which stay flags. Tested as `natural == 1 && option`,
    // they became branches, mispredicted on every rare 1 and 20.
    let always_hits = if opts.nat20_hits { 20 } else { 21 };
    let can_hit = 1 + u32::from(opts.nat1_misses);
    let hit = (natural >= always_hits) | ((natural >= can_hit) & (natural as i32 >= need));
    (hit, natural >= opts.crit_on)
}

/// The damage of a plain attack once its roll is known: 0 on a miss (the
/// die is rolled all the same, see `Dice::roll_if`), the crit rule's on a
/// critical hit, cut by full cover.
#[inline(always)]
fn plain_damage<D: Dice>(
    weapon: &Weapon,
    opts: &Options,
    hit: bool,
    crit: bool,
    cut: bool,
    dice: &mut D,
) -> i32 {
    let damage = if crit {
        crit_damage(opts.crit, &weapon.damage, 0, dice)
    } else {
        weapon.damage.roll_if(hit, dice)
    };
    let damage = if cut { cover_cut(damage, opts) } else { damage };
    damage.max(0)
}

/// Damage through full cover: a firearm's damage times
/// `full_cover_damage`, rounded down.
#[inline(always)]
fn cover_cut(damage: i32, opts: &Options) -> i32 {
    (damage as f64 * opts.full_cover_damage).floor() as i32
}

/// A watched fight hears an attack roll (see `roll_attack`).
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn note_attack<D: Dice>(
    turn: &mut Turn<'_, Trenches, D>,
    target: usize,
    weapon: &Weapon,
    edge: Edge,
    natural: i32,
    bonus: i32,
    ac: i32,
    hit: bool,
) {
    turn.note_attack(turn.actor, target, weapon.number);
    let rule = match (weapon.kind == WeaponKind::Firearm, edge) {
        (true, Edge::Normal) => "shot",
        (true, Edge::Advantage) => "shot with advantage",
        (true, Edge::Disadvantage) => "shot with disadvantage",
        (false, Edge::Normal) => "melee attack",
        (false, Edge::Advantage) => "melee attack with advantage",
        (false, Edge::Disadvantage) => "melee attack with disadvantage",
    };
    turn.note_check(target, rule, natural, bonus, ac, hit);
}

/// Advantage and disadvantage from conditions: any of each, cancelling.
fn edge(
    mine: Conditions,
    theirs: Conditions,
    stats: &Unit,
    firearm: bool,
    near: bool,
    blind_far_shot: bool,
) -> Edge {
    let blind = mine.has(Condition::Blinded);
    let prone_target = theirs.has(Condition::Prone);
    let advantage = theirs.any(EXPOSED) || (prone_target && near);
    let disadvantage = mine.any(HAMPERED)
        || stats.exhaustion >= 3
        || (blind && !firearm)
        || blind_far_shot
        || (prone_target && !near);
    Edge::from_sources(advantage, disadvantage)
}

/// AC bonus of cover against firearms ("Cover": options `half_cover_ac`,
/// `three_quarters_cover_ac`, `full_cover_ac`; no cover, none).
#[inline(always)]
pub fn cover_bonus(cover: Cover, opts: &Options) -> i32 {
    match cover {
        Cover::None => 0,
        Cover::Half => opts.half_cover_ac,
        Cover::ThreeQuarters => opts.three_quarters_cover_ac,
        Cover::Full => opts.full_cover_ac,
    }
}

/// `target` takes `damage`, the harm dealt ([`dealt`]: from 0 to its HP).
// Inlined into every attack (plain ones apply 0 on a miss), `down` included: the
// fast path calls nothing out of line (see `Ruleset::quick_turn`).
#[inline(always)]
fn apply_damage<D: Dice>(turn: &mut Turn<'_, Trenches, D>, target: usize, damage: i32) {
    let unit = turn.unit_mut(target);
    let before = unit.state.hp;
    let after = before - damage;
    unit.state.hp = after;
    turn.harm(target, damage as u32);
    if before > 0 && after == 0 {
        down(turn, target);
    }
}

/// 0 HP: unconscious (and so prone), dying, out of the fight.
#[inline(always)]
fn down<D: Dice>(turn: &mut Turn<'_, Trenches, D>, target: usize) {
    let dying = turn.options().at_zero_hp == AtZeroHp::DeathSaves;
    let unit = turn.unit_mut(target);
    unit.conditions.set(Condition::Unconscious);
    unit.conditions.set(Condition::Prone);
    unit.lingering = dying;
    unit.state.saves = 0;
    unit.state.failures = 0;
    turn.count(counter::DOWNED);
    turn.take_out(target);
}

/// A dying unit's death save at the start of its turn.
#[inline(never)]
fn death_save<D: Dice>(turn: &mut Turn<'_, Trenches, D>) {
    let me = turn.actor;
    // The save reads its d20 only as four verdicts (a natural 20, a
    // success, a natural 1, a failure): the exact engine branches on those
    // (`Dice::pool`), each given by one face of it, unless a watched fight
    // notes the face itself.
    let roll = turn.dice.pool(|d| {
        let roll = d.d20();
        if D::WATCHED {
            return roll;
        }
        match roll {
            20 => 20,
            10..=19 => 10,
            1 => 1,
            _ => 2,
        }
    });
    turn.note_check(NO_TARGET, "death save", roll as i32, 0, 10, roll >= 10);
    let unit = turn.unit_mut(me);
    match roll {
        20 => {
            unit.state.hp = 1;
            unit.lingering = false;
            unit.conditions.clear(Condition::Unconscious);
            turn.count(counter::REVIVED);
            turn.bring_back(me);
        }
        10..=19 => unit.state.saves += 1,
        1 => unit.state.failures += 2,
        _ => unit.state.failures += 1,
    }
    let unit = turn.unit_mut(me);
    let dead = unit.state.failures >= 3;
    // Stable: unconscious, out of the fight, no longer rolling.
    let stable = !dead && unit.state.saves >= 3;
    if dead || stable {
        // Out for good: its tally of saves and its reaction are never read
        // again. Cleared, so that the exact engine merges the fights that
        // differ only there (a unit dead of 3 failures or of 4, one stable
        // after 0, 1 or 2).
        unit.lingering = false;
        unit.state.saves = 0;
        unit.state.failures = 0;
        unit.state.reacted = false;
    }
    if dead {
        turn.count(counter::DEATHS);
        turn.note_that(NO_TARGET, "dies (three failed death saves)");
    } else if stable {
        turn.note_that(NO_TARGET, "stable (three death saves)");
    } else if roll == 20 {
        turn.note_that(NO_TARGET, "back on its feet with 1 HP (natural 20)");
    }
}

mod conformance;
mod map;

#[cfg(test)]
mod tests;
