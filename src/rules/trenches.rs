//! `trenches`: Trenches and Alchemy (seed 000), a WWI trench-warfare game on
//! a d20 chassis.
//!
//! As written: initiative d20 + DEX modifier, ties to the higher natural roll,
//! then to whoever rolled first; AC = 10 + Endurance modifier + equipment,
//! kept separately vs firearms and vs melee; an attack is d20 + attack bonus
//! vs the matching AC, hitting on total ≥ AC; advantage/disadvantage (any
//! number of sources give one extra die; both present cancel); cover half /
//! three-quarters / full gives +2 / +5 / +10 AC vs firearms only, and full
//! cover cuts firearm damage by a fraction the text lost (option, default
//! ×0.5); hits on a paralyzed or unconscious target from within 5 m are
//! critical; 0 HP takes a unit out of the fight.
//!
//! Gaps in the text are options with the digest's defaults: the crit effect
//! (default: double the damage dice), natural 1 always misses, natural 20
//! always hits (and is a critical), proficiency on attacks (default off).
//!
//! Conditions (per unit, from the scenario): blinded (attacks against it have
//! advantage; its melee attacks disadvantage; its ranged attacks beyond 10 m
//! disadvantage and −5), frightened (disadvantage on its attacks: the source
//! is taken to be in sight), incapacitated / paralyzed / stunned / unconscious
//! (no actions; attacks against the last three have advantage, and hits from
//! within 5 m on paralyzed or unconscious units are critical), prone (its
//! attacks have disadvantage; attacks against it have advantage within 5 m,
//! disadvantage beyond), restrained (attacks against it advantage, its
//! attacks disadvantage). Deafened and grappled only affect movement.
//! Exhaustion: level 3 gives disadvantage on attacks, 4 halves HP, 6 is death.

use crate::dice::{Dice, DiceExpr};
use crate::engine::{
    Combatant, Condition, Conditions, Cover, InitiativeKind, InitiativeRoll, Turn, UnitSpec,
};
use crate::results::CounterInfo;
use crate::rules::d20::Edge;
use crate::rules::{Ruleset, MAX_WEAPONS};
use crate::scenario::schema::{Field, Fields, Kind, Lit};
use crate::scenario::ScenarioError;

/// The ruleset marker type.
#[derive(Clone, Copy, Debug, Default)]
pub struct Trenches;

/// Melee reach, in metres ("within 5 m").
pub const REACH: i32 = 5;
/// Blinded units' ranged attacks beyond this distance get disadvantage and −5.
pub const BLIND_RANGE: i32 = 10;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WeaponKind {
    #[default]
    Melee,
    Firearm,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Weapon {
    pub kind: WeaponKind,
    pub attack: i32,
    pub damage: DiceExpr,
    /// Reach (melee) or range (firearm) in metres.
    pub range: i32,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Unit {
    pub hp: i32,
    pub dex: i32,
    /// AC vs melee attacks (10 + Endurance + armour).
    pub ac_melee: i32,
    /// AC vs firearms, before cover.
    pub ac_firearm: i32,
    /// Bonus to every attack roll.
    pub attack: i32,
    pub proficiency: i32,
    pub exhaustion: u8,
    /// Weapons, best expected damage first.
    pub weapons: [Weapon; MAX_WEAPONS],
    pub n_weapons: u8,
    /// The longest reach or range among the weapons.
    pub max_range: i32,
}

impl Unit {
    #[inline]
    pub fn weapons(&self) -> &[Weapon] {
        &self.weapons[..self.n_weapons as usize]
    }

    /// Maximum HP this fight (exhaustion 4 halves it).
    #[inline]
    pub fn max_hp(&self) -> i32 {
        if self.exhaustion >= 4 {
            (self.hp / 2).max(1)
        } else {
            self.hp
        }
    }
}

/// What a natural 20 (or an automatic critical) does to damage.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Crit {
    /// Roll the damage dice twice, add the modifier once (5e).
    #[default]
    DoubleDice,
    /// Double the whole damage roll.
    DoubleTotal,
    /// Maximum dice plus a normal roll.
    MaxPlusRoll,
    /// No extra damage.
    None,
}

#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub crit: Crit,
    pub nat1_misses: bool,
    pub nat20_hits: bool,
    pub proficiency_on_attacks: bool,
    /// Damage multiplier for firearm hits on a target in full cover.
    pub full_cover_damage: f64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            crit: Crit::DoubleDice,
            nat1_misses: true,
            nat20_hits: true,
            proficiency_on_attacks: false,
            full_cover_damage: 0.5,
        }
    }
}

#[derive(Clone, Copy, Debug, Default)]
pub struct State {
    pub hp: i32,
}

/// Indices into [`Trenches::COUNTERS`].
pub mod counter {
    pub const ATTACKS: usize = 0;
    pub const HITS: usize = 1;
    pub const CRITS: usize = 2;
    pub const DOWNED: usize = 3;
}

const CRIT_NAMES: &[&str] = &["double-dice", "double-total", "max-plus-roll", "none"];
const KIND_NAMES: &[&str] = &["melee", "firearm"];

/// Conditions that stop a unit from acting.
const NO_ACTIONS: Conditions = Conditions::of(&[
    Condition::Incapacitated,
    Condition::Paralyzed,
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
    const NAME: &'static str = "trenches";
    const TITLE: &'static str = "Trenches and Alchemy (seed 000)";
    const ABOUT: &'static str = "WWI trench warfare on a d20 chassis: d20 + DEX initiative, \
        separate AC vs melee and vs firearms, cover that only stops bullets, \
        advantage and disadvantage from conditions. Distances in metres.";
    const DISTANCE_UNIT: &'static str = "m";
    const DEFAULT_INITIATIVE: InitiativeKind = InitiativeKind::Rolled;
    const INITIATIVE_STAT: &'static str = "dex";

    const UNIT_FIELDS: &'static [Field] = &[
        Field::new("hp", Kind::Int { min: 1, max: 100_000 }, None, "hit points"),
        Field::new("dex", Kind::Int { min: -10, max: 20 }, Some(Lit::Int(0)), "Dexterity modifier (initiative)"),
        Field::new(
            "endurance",
            Kind::Int { min: -10, max: 20 },
            Some(Lit::Int(0)),
            "Endurance modifier: AC = 10 + endurance + armour",
        ),
        Field::new("armor", Kind::Int { min: -20, max: 50 }, Some(Lit::Int(0)), "AC from equipment, vs melee and firearms"),
        Field::new("armor_melee", Kind::Int { min: -20, max: 50 }, Some(Lit::Int(0)), "extra AC vs melee attacks only"),
        Field::new("armor_firearm", Kind::Int { min: -20, max: 50 }, Some(Lit::Int(0)), "extra AC vs firearms only"),
        Field::new("attack", Kind::Int { min: -20, max: 50 }, Some(Lit::Int(0)), "bonus to every attack roll, added to the weapon's"),
        Field::new(
            "proficiency",
            Kind::Int { min: 0, max: 10 },
            Some(Lit::Int(2)),
            "proficiency bonus (+2/+3/+4 by year); added to attacks only with option proficiency_on_attacks",
        ),
        Field::new("exhaustion", Kind::Int { min: 0, max: 6 }, Some(Lit::Int(0)), "exhaustion level: 3 disadvantage on attacks, 4 HP halved, 6 dead"),
        Field::new("weapons", Kind::Names(None), None, "weapons carried (names of [weapons.NAME] tables); the best reachable one is used"),
    ];

    const WEAPON_FIELDS: &'static [Field] = &[
        Field::new("kind", Kind::Choice(KIND_NAMES), Some(Lit::Str("melee")), "melee (AC vs melee, no cover) or firearm (AC vs firearms, cover applies)"),
        Field::new("attack", Kind::Int { min: -20, max: 50 }, Some(Lit::Int(0)), "attack bonus with this weapon"),
        Field::new("damage", Kind::Dice, None, "damage dice, e.g. 1d10+2"),
        Field::new(
            "range",
            Kind::Int { min: 0, max: 100_000 },
            Some(Lit::Int(0)),
            "reach (melee) or range (firearm) in metres; 0 = the kind's default: 5 m reach, unlimited range",
        ),
    ];

    const OPTIONS: &'static [Field] = &[
        Field::new(
            "crit",
            Kind::Choice(CRIT_NAMES),
            Some(Lit::Str("double-dice")),
            "critical damage (the text's crit rule is cut off): roll the dice twice, double the total, max dice + roll, or none",
        ),
        Field::new("nat1_misses", Kind::Bool, Some(Lit::Bool(true)), "a natural 1 always misses"),
        Field::new("nat20_hits", Kind::Bool, Some(Lit::Bool(true)), "a natural 20 always hits (and is critical)"),
        Field::new(
            "proficiency_on_attacks",
            Kind::Bool,
            Some(Lit::Bool(false)),
            "add the proficiency bonus to attack rolls (the text says it may be extended to attacks later)",
        ),
        Field::new(
            "full_cover_damage",
            Kind::Float { min: 0.0, max: 1.0 },
            Some(Lit::Float(0.5)),
            "damage multiplier for firearm hits on a unit in full cover (the text's fraction is lost; rounded down)",
        ),
    ];

    const COUNTERS: &'static [CounterInfo] = &[
        CounterInfo {
            name: "attacks",
            doc: "attack rolls made per fight",
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
    ];

    type Weapon = Weapon;
    type Unit = Unit;
    type State = State;
    type Options = Options;

    fn compile_options(f: &Fields) -> Result<Options, ScenarioError> {
        Ok(Options {
            crit: [
                Crit::DoubleDice,
                Crit::DoubleTotal,
                Crit::MaxPlusRoll,
                Crit::None,
            ][f.choice("crit")?],
            nat1_misses: f.bool("nat1_misses")?,
            nat20_hits: f.bool("nat20_hits")?,
            proficiency_on_attacks: f.bool("proficiency_on_attacks")?,
            full_cover_damage: f.float("full_cover_damage")?,
        })
    }

    fn compile_weapon(f: &Fields) -> Result<Weapon, ScenarioError> {
        let kind = [WeaponKind::Melee, WeaponKind::Firearm][f.choice("kind")?];
        let range = match (f.int("range")? as i32, kind) {
            (0, WeaponKind::Melee) => REACH,
            (0, WeaponKind::Firearm) => i32::MAX,
            (r, _) => r,
        };
        Ok(Weapon {
            kind,
            attack: f.int("attack")? as i32,
            damage: f.dice("damage")?,
            range,
        })
    }

    fn compile_unit(f: &Fields, weapons: &[Weapon]) -> Result<Unit, ScenarioError> {
        let endurance = f.int("endurance")? as i32;
        let armor = f.int("armor")? as i32;
        let mut unit = Unit {
            hp: f.int("hp")? as i32,
            dex: f.int("dex")? as i32,
            ac_melee: 10 + endurance + armor + f.int("armor_melee")? as i32,
            ac_firearm: 10 + endurance + armor + f.int("armor_firearm")? as i32,
            attack: f.int("attack")? as i32,
            proficiency: f.int("proficiency")? as i32,
            exhaustion: f.int("exhaustion")? as u8,
            ..Unit::default()
        };
        if weapons.is_empty() {
            return Err(f.error("weapons", "a unit needs at least one weapon to fight"));
        }
        // Best expected damage first: the turn uses the first weapon that
        // reaches its target.
        let mut sorted = weapons.to_vec();
        sorted.sort_by(|a, b| b.damage.mean().total_cmp(&a.damage.mean()));
        unit.weapons[..sorted.len()].copy_from_slice(&sorted);
        unit.n_weapons = sorted.len() as u8;
        unit.max_range = sorted.iter().map(|w| w.range).max().unwrap_or(0);
        Ok(unit)
    }

    fn describe_unit(u: &Unit) -> String {
        let ac = if u.ac_melee == u.ac_firearm {
            format!("AC {}", u.ac_melee)
        } else {
            format!("AC {} melee / {} firearms", u.ac_melee, u.ac_firearm)
        };
        let mut s = format!("{} HP, {ac}, DEX {:+}", u.hp, u.dex);
        if u.exhaustion > 0 {
            s.push_str(&format!(", exhaustion {}", u.exhaustion));
        }
        s
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

    fn enter(unit: &mut Combatant<State>, spec: &UnitSpec<Self>, _options: &Options) {
        unit.state = State {
            hp: spec.stats.max_hp(),
        };
        if spec.stats.exhaustion >= 6 {
            unit.out = true;
        }
    }

    fn take_turn<D: Dice>(turn: &mut Turn<'_, Self, D>) {
        let me = turn.actor;
        if turn.unit(me).conditions.any(NO_ACTIONS) {
            return;
        }
        // The encounter outlives the turn, so stats borrowed from it do not
        // hold the turn (and its dice) borrowed.
        let stats = &turn.enc.units[me].stats;
        let Some(target) = turn.choose_target(|t, i| t.enemy_distance(i) <= stats.max_range) else {
            return;
        };
        let distance = turn.enemy_distance(target);
        if let Some(weapon) = best_weapon(stats, distance) {
            attack_at(turn, target, weapon, distance);
        }
    }

    fn vitality(unit: &Combatant<State>, spec: &UnitSpec<Self>) -> (u32, u32) {
        (unit.state.hp.max(0) as u32, spec.stats.max_hp() as u32)
    }
}

/// The first (best) of a unit's weapons that reaches `distance`.
#[inline]
fn best_weapon(stats: &Unit, distance: i32) -> Option<&Weapon> {
    stats.weapons().iter().find(|w| distance <= w.range)
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
    let distance = turn.distance(turn.actor, target);
    attack_at(turn, target, weapon, distance)
}

/// [`attack`] with the distance already known.
#[inline]
fn attack_at<D: Dice>(
    turn: &mut Turn<'_, Trenches, D>,
    target: usize,
    weapon: &Weapon,
    distance: i32,
) -> AttackResult {
    let me = turn.actor;
    let enc = turn.enc;
    let opts = &enc.options;
    let stats = &enc.units[me].stats;
    let mine = turn.unit(me).conditions;
    let theirs = *turn.unit(target);
    let firearm = weapon.kind == WeaponKind::Firearm;
    let near = distance <= REACH;

    // Blinded units' shots beyond 10 m: disadvantage and −5.
    let blind_far_shot = mine.has(Condition::Blinded) && firearm && distance > BLIND_RANGE;
    // Most attacks involve no condition at all: skip the bookkeeping.
    let edge = if mine.is_empty() && theirs.conditions.is_empty() && stats.exhaustion < 3 {
        Edge::Normal
    } else {
        edge(
            mine,
            theirs.conditions,
            stats,
            firearm,
            near,
            blind_far_shot,
        )
    };
    let natural = edge.roll(turn.dice);

    let mut total = natural as i32 + weapon.attack + stats.attack;
    if opts.proficiency_on_attacks {
        total += stats.proficiency;
    }
    if blind_far_shot {
        total -= 5;
    }
    let target_stats = &enc.units[target].stats;
    let ac = if firearm {
        target_stats.ac_firearm + cover_bonus(theirs.cover)
    } else {
        target_stats.ac_melee
    };
    let hit = if natural == 1 && opts.nat1_misses {
        false
    } else {
        (natural == 20 && opts.nat20_hits) || total >= ac
    };
    turn.count(counter::ATTACKS);
    let mut result = AttackResult {
        natural,
        total,
        ac,
        hit,
        crit: false,
        damage: 0,
    };
    if !hit {
        return result;
    }
    turn.count(counter::HITS);
    let crit = (natural == 20 && opts.nat20_hits) || (near && theirs.conditions.any(HELPLESS));
    let mut damage = if crit {
        turn.count(counter::CRITS);
        crit_damage(opts.crit, &weapon.damage, turn.dice)
    } else {
        weapon.damage.roll(turn.dice)
    };
    if firearm && theirs.cover == Cover::Full {
        damage = (damage as f64 * opts.full_cover_damage).floor() as i32;
    }
    let damage = damage.max(0);
    result.crit = crit;
    result.damage = damage;
    apply_damage(turn, target, damage);
    result
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

/// Critical damage under the crit option.
#[inline]
pub fn crit_damage<D: Dice>(crit: Crit, damage: &DiceExpr, dice: &mut D) -> i32 {
    match crit {
        Crit::DoubleDice => damage.roll_dice(dice) + damage.roll(dice),
        Crit::DoubleTotal => 2 * damage.roll(dice),
        Crit::MaxPlusRoll => damage.max_dice() + damage.roll(dice),
        Crit::None => damage.roll(dice),
    }
}

/// AC bonus of cover against firearms.
#[inline]
pub fn cover_bonus(cover: Cover) -> i32 {
    match cover {
        Cover::None => 0,
        Cover::Half => 2,
        Cover::ThreeQuarters => 5,
        Cover::Full => 10,
    }
}

fn apply_damage<D: Dice>(turn: &mut Turn<'_, Trenches, D>, target: usize, damage: i32) {
    let unit = turn.unit_mut(target);
    let before = unit.state.hp;
    unit.state.hp = (before - damage).max(0);
    let dealt = before - unit.state.hp;
    turn.harm(dealt as u32);
    if before > 0 && turn.unit(target).state.hp == 0 {
        // 0 HP: unconscious and dying; the text has no death saves, so the
        // unit is out of the fight.
        turn.unit_mut(target).conditions.set(Condition::Unconscious);
        turn.count(counter::DOWNED);
        turn.take_out(target);
    }
}

#[cfg(test)]
#[path = "trenches_tests.rs"]
mod tests;
