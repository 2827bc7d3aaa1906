//! What one step of a stat is, for `skirmish sensitivity`: the declarations a
//! ruleset makes ([`StatStep`], in [`super::Ruleset::STEPS`]) and the pure
//! arithmetic of stepping a value up and down.
//!
//! Every numeric field of a stat block or a weapon is a stat unless its
//! ruleset says otherwise:
//! - an integer steps by ±1 ([`Step::By`]`(1)`), within the field's declared
//!   `min..=max`;
//! - dice step their die one size along [`DIE_LADDER`] (d4, d6, d8, d10,
//!   d12), keeping the count, the keep-highest/lowest and the modifier;
//! - a number with decimals steps by ±[`FLOAT_STEP`].
//!
//! A ruleset declares the exceptions: a larger step where its stat moves in
//! larger units (osr's feet, in 5 ft squares), a die size kept as an integer
//! ([`Step::DieSize`], dicestep's attribute and skill dice), a value that
//! means something else and is neither stepped from nor onto ([`Step::Except`]:
//! a weapon range of 0 means the weapon kind's default), and fields that are
//! not combat stats at all ([`Step::Not`]: policies such as how much stamina
//! to keep back).
//!
//! Two more declarations say what the stats mean to a designer reading the
//! ranking: the ruleset's health stats ([`super::Ruleset::HEALTH_STATS`]:
//! hit points, or its own health), in which equivalent points are stated
//! when their effect is positive and well measured, and the stats whose step
//! up can lower their own side's win rate, with the rules' reason
//! ([`Contrary`], in [`super::Ruleset::CONTRARY_STATS`]), which the report
//! prints next to such an effect.

use super::field::{Field, Kind, Lit};
use crate::dice::{DiceExpr, Keep};

/// Die sizes in step order: one step of a die is one place along this.
pub const DIE_LADDER: [i64; 5] = [4, 6, 8, 10, 12];

/// The step of a number field with decimals that declares none.
pub const FLOAT_STEP: f64 = 0.1;

/// The table a field belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldTable {
    /// A stat block, `[units.NAME]`.
    Unit,
    /// A weapon, `[weapons.NAME]`.
    Weapon,
    /// The rule options, `[options]`.
    Options,
}

/// How a numeric field steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    /// ± this much (an integer field; a dice field steps its die).
    By(i64),
    /// An integer that is a die size (`6` = d6): one place along
    /// [`DIE_LADDER`]; 0 means no die and is not stepped.
    DieSize,
    /// ± `by`, except that `value` means something else (`means`): a field
    /// at `value` is not stepped, and no step lands on it.
    Except {
        by: i64,
        value: i64,
        means: &'static str,
    },
    /// Not a combat stat (a policy, a switch): never stepped; why.
    Not(&'static str),
}

impl Step {
    /// How the step reads in `skirmish rules NAME`.
    pub fn describe(&self) -> String {
        match *self {
            Step::By(by) => format!("±{by}"),
            Step::DieSize => {
                "one die size along d4, d6, d8, d10, d12 (0, no die: not stepped)".to_owned()
            }
            Step::Except { by, value, means } => {
                format!("±{by}, never from or onto {value} ({means})")
            }
            Step::Not(why) => format!("not stepped: {why}"),
        }
    }
}

/// A ruleset's declaration of how one of its fields steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StatStep {
    pub table: FieldTable,
    pub field: &'static str,
    pub step: Step,
}

impl StatStep {
    pub const fn unit(field: &'static str, step: Step) -> StatStep {
        StatStep {
            table: FieldTable::Unit,
            field,
            step,
        }
    }

    pub const fn weapon(field: &'static str, step: Step) -> StatStep {
        StatStep {
            table: FieldTable::Weapon,
            field,
            step,
        }
    }

    pub const fn option(field: &'static str, step: Step) -> StatStep {
        StatStep {
            table: FieldTable::Options,
            field,
            step,
        }
    }
}

/// A stat whose step up can lower its own side's win rate, and why, in the
/// rules' terms: `skirmish sensitivity` prints the reason next to such an
/// effect, so a designer does not take it for a bug.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contrary {
    pub table: FieldTable,
    pub field: &'static str,
    /// One line: why more of it can be worse.
    pub why: &'static str,
}

impl Contrary {
    pub const fn unit(field: &'static str, why: &'static str) -> Contrary {
        Contrary {
            table: FieldTable::Unit,
            field,
            why,
        }
    }

    pub const fn weapon(field: &'static str, why: &'static str) -> Contrary {
        Contrary {
            table: FieldTable::Weapon,
            field,
            why,
        }
    }
}

/// The reason `contrary` gives for `field` of `table`, if any.
pub fn contrary_reason(
    contrary: &[Contrary],
    table: FieldTable,
    field: &str,
) -> Option<&'static str> {
    contrary
        .iter()
        .find(|c| c.table == table && c.field == field)
        .map(|c| c.why)
}

/// The step of `field` of `table`: the ruleset's declaration in `steps`, or
/// the default of its kind; `None` for a field that is not a number (text,
/// choices, switches, lists).
pub fn step_of(steps: &[StatStep], table: FieldTable, field: &Field) -> Option<Step> {
    if !matches!(
        field.kind,
        Kind::Int { .. } | Kind::Dice | Kind::Float { .. }
    ) {
        return None;
    }
    Some(
        steps
            .iter()
            .find(|s| s.table == table && s.field == field.name)
            .map_or(Step::By(1), |s| s.step),
    )
}

/// A field's value as stepping sees it.
#[derive(Clone, Debug, PartialEq)]
pub enum StatValue {
    Int(i64),
    Float(f64),
    /// Dice notation as written.
    Dice(String),
}

impl StatValue {
    /// The field's default, if it has one of a numeric kind.
    pub fn default_of(field: &Field) -> Option<StatValue> {
        match (field.kind, field.default?) {
            (Kind::Int { .. }, Lit::Int(i)) => Some(StatValue::Int(i)),
            (Kind::Float { .. }, Lit::Float(f)) => Some(StatValue::Float(f)),
            (Kind::Float { .. }, Lit::Int(i)) => Some(StatValue::Float(i as f64)),
            (Kind::Dice, Lit::Str(s)) => Some(StatValue::Dice(s.to_owned())),
            _ => None,
        }
    }

    /// As written in a scenario file.
    pub fn render(&self) -> String {
        match self {
            StatValue::Int(i) => i.to_string(),
            StatValue::Float(f) => format!("{f}"),
            StatValue::Dice(d) => d.clone(),
        }
    }
}

/// One direction of a step: the value after it, or why it is not taken.
pub type Stepped = Result<StatValue, String>;

/// The values one step down and one step up from `value` of `field` under
/// `step`, each with the reason when there is none. `Not` steps give
/// nothing (callers do not list such fields as stats).
pub fn neighbours(field: &Field, step: Step, value: &StatValue) -> [Stepped; 2] {
    let not = |why: &str| [Err(why.to_owned()), Err(why.to_owned())];
    match (step, value) {
        (Step::Not(why), _) => not(why),
        (Step::By(by), StatValue::Int(v)) => [-1, 1].map(|sign| int_step(field, *v, sign * by)),
        (
            Step::Except {
                by,
                value: special,
                means,
            },
            StatValue::Int(v),
        ) => {
            if *v == special {
                let why = format!("{special} means {means}: not a value to step from");
                return not(&why);
            }
            [-1, 1].map(|sign| {
                let to = v + sign * by;
                if to == special {
                    Err(format!("{to} would mean {means}, not a step"))
                } else {
                    int_step(field, *v, sign * by)
                }
            })
        }
        (Step::DieSize, StatValue::Int(v)) => {
            if *v == 0 {
                return not("0 means no die: not a die to step");
            }
            [-1, 1].map(|dir| {
                ladder_step(*v, dir)
                    .map(StatValue::Int)
                    .and_then(|to| within(field, to))
            })
        }
        (_, StatValue::Dice(text)) => [-1, 1].map(|dir| dice_step(text, dir)),
        (_, StatValue::Float(v)) => [-1.0, 1.0].map(|sign| {
            let to = v + sign * FLOAT_STEP;
            within(field, StatValue::Float(to))
        }),
    }
}

/// `v + by` if within the field's range.
fn int_step(field: &Field, v: i64, by: i64) -> Stepped {
    within(field, StatValue::Int(v.saturating_add(by)))
}

/// `to` if the field's declared range holds it; else why not.
fn within(field: &Field, to: StatValue) -> Stepped {
    let inside = match (field.kind, &to) {
        (Kind::Int { min, max }, StatValue::Int(t)) => (min..=max).contains(t),
        (Kind::Float { min, max }, StatValue::Float(t)) => *t >= min && *t <= max,
        _ => true,
    };
    if inside {
        Ok(to)
    } else {
        Err(format!(
            "{} is outside `{}`'s range ({})",
            to.render(),
            field.name,
            field.type_text()
        ))
    }
}

/// One place along [`DIE_LADDER`] from die size `sides` (`dir` −1 or +1).
fn ladder_step(sides: i64, dir: i64) -> Result<i64, String> {
    let Some(at) = DIE_LADDER.iter().position(|&s| s == sides) else {
        return Err(format!(
            "d{sides} is not on the die ladder (d4, d6, d8, d10, d12)"
        ));
    };
    let to = at as i64 + dir;
    if to < 0 {
        Err("d4 is the smallest die on the ladder".to_owned())
    } else if to as usize >= DIE_LADDER.len() {
        Err("d12 is the largest die on the ladder".to_owned())
    } else {
        Ok(DIE_LADDER[to as usize])
    }
}

/// Dice `text` with its one group's die a place up or down the ladder,
/// keeping the count, keep rule and modifier.
fn dice_step(text: &str, dir: i64) -> Stepped {
    let expr = DiceExpr::parse(text).map_err(|e| e.to_string())?;
    let [term] = expr.terms() else {
        return Err(if expr.terms().is_empty() {
            format!("`{text}` rolls no die")
        } else {
            format!("`{text}` has several dice groups: no single die to step")
        });
    };
    if term.negative {
        return Err(format!("`{text}` subtracts its die: no step to take"));
    }
    let sides = ladder_step(i64::from(term.sides), dir)?;
    let keep = match term.keep {
        Keep::All => String::new(),
        Keep::Highest(k) => format!("kh{k}"),
        Keep::Lowest(k) => format!("kl{k}"),
    };
    let bonus = match expr.bonus() {
        0 => String::new(),
        b if b > 0 => format!("+{b}"),
        b => b.to_string(),
    };
    Ok(StatValue::Dice(format!(
        "{}d{sides}{keep}{bonus}",
        term.count
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    const HP: Field = Field::new("hp", Kind::Int { min: 1, max: 100 }, None, "");
    const RANGE: Field = Field::int("range", 0, 1000, 0, "");
    const DAMAGE: Field = Field::new("damage", Kind::Dice, None, "");
    const SHARE: Field = Field::new("share", Kind::Float { min: 0.0, max: 1.0 }, None, "");

    fn int(v: i64) -> Stepped {
        Ok(StatValue::Int(v))
    }

    #[test]
    fn integers_step_by_one_within_their_range() {
        assert_eq!(
            neighbours(&HP, Step::By(1), &StatValue::Int(10)),
            [int(9), int(11)]
        );
        let [down, up] = neighbours(&HP, Step::By(1), &StatValue::Int(1));
        assert_eq!(
            down.unwrap_err(),
            "0 is outside `hp`'s range (integer 1..=100)"
        );
        assert_eq!(up, int(2));
        let [down, up] = neighbours(&RANGE, Step::By(5), &StatValue::Int(100));
        assert_eq!((down, up), (int(95), int(105)));
    }

    #[test]
    fn a_special_value_is_neither_stepped_from_nor_onto() {
        let step = Step::Except {
            by: 5,
            value: 0,
            means: "the kind's default",
        };
        let [down, up] = neighbours(&RANGE, step, &StatValue::Int(0));
        assert!(down.unwrap_err().contains("0 means the kind's default"));
        assert!(up.is_err());
        let [down, up] = neighbours(&RANGE, step, &StatValue::Int(5));
        assert_eq!(
            down.unwrap_err(),
            "0 would mean the kind's default, not a step"
        );
        assert_eq!(up, int(10));
    }

    #[test]
    fn die_sizes_step_along_the_ladder() {
        let die = Field::int("combat", 0, 100, 6, "");
        assert_eq!(
            neighbours(&die, Step::DieSize, &StatValue::Int(6)),
            [int(4), int(8)]
        );
        let [down, up] = neighbours(&die, Step::DieSize, &StatValue::Int(12));
        assert_eq!(
            (down, up.unwrap_err().as_str()),
            (int(10), "d12 is the largest die on the ladder")
        );
        assert!(neighbours(&die, Step::DieSize, &StatValue::Int(0))[1].is_err());
        assert!(neighbours(&die, Step::DieSize, &StatValue::Int(20))[0]
            .clone()
            .unwrap_err()
            .contains("not on the die ladder"));
    }

    #[test]
    fn dice_step_their_die_keeping_count_keep_and_modifier() {
        let dice = |t: &str| StatValue::Dice(t.to_owned());
        let step = |t: &str| neighbours(&DAMAGE, Step::By(1), &dice(t));
        assert_eq!(step("1d8+3"), [Ok(dice("1d6+3")), Ok(dice("1d10+3"))]);
        assert_eq!(step("2d6-1"), [Ok(dice("2d4-1")), Ok(dice("2d8-1"))]);
        assert_eq!(step("4d6kh3"), [Ok(dice("4d4kh3")), Ok(dice("4d8kh3"))]);
        assert_eq!(step("d4")[1], Ok(dice("1d6")));
        assert!(step("d4")[0].clone().unwrap_err().contains("smallest"));
        assert!(step("1d6+1d4")[0]
            .clone()
            .unwrap_err()
            .contains("several dice groups"));
        assert!(step("1d20")[1]
            .clone()
            .unwrap_err()
            .contains("not on the die ladder"));
        assert!(step("3")[1].clone().unwrap_err().contains("rolls no die"));
    }

    #[test]
    fn floats_step_by_a_tenth_within_their_range() {
        let [down, up] = neighbours(&SHARE, Step::By(1), &StatValue::Float(0.5));
        assert!(matches!(down, Ok(StatValue::Float(f)) if (f - 0.4).abs() < 1e-12));
        assert!(matches!(up, Ok(StatValue::Float(f)) if (f - 0.6).abs() < 1e-12));
        assert!(neighbours(&SHARE, Step::By(1), &StatValue::Float(1.0))[1].is_err());
    }

    #[test]
    fn steps_describe_themselves() {
        assert_eq!(Step::By(5).describe(), "±5");
        let except = Step::Except {
            by: 1,
            value: 0,
            means: "no shield",
        };
        assert_eq!(except.describe(), "±1, never from or onto 0 (no shield)");
        assert!(Step::Not("a policy").describe().starts_with("not stepped"));
    }

    #[test]
    fn only_numbers_have_steps() {
        let name = Field::new("kind", Kind::Choice(&["a"]), None, "");
        assert_eq!(step_of(&[], FieldTable::Unit, &name), None);
        assert_eq!(step_of(&[], FieldTable::Unit, &HP), Some(Step::By(1)));
        let declared = [StatStep::unit("hp", Step::By(5))];
        assert_eq!(step_of(&declared, FieldTable::Unit, &HP), Some(Step::By(5)));
        assert_eq!(
            step_of(&declared, FieldTable::Weapon, &HP),
            Some(Step::By(1))
        );
    }
}
