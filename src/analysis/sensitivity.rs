//! The statistics of `skirmish sensitivity`: how much one step of each stat
//! moves each side's win rate, with 95% intervals, which stats move it most,
//! and what one stat's step is worth in steps of another.
//!
//! Every cell of a sensitivity run draws batch `b` from the same random
//! stream (common random numbers), so effects are paired differences over
//! batches ([`super::batch_means`]):
//! - a step up or down: the stepped cell minus the unchanged cell;
//! - **per step**: `(up − down) / 2` when both steps were taken (the slope
//!   through the unchanged value, which cancels the curvature a one-sided
//!   difference would carry), else the one step taken, signed as a step up
//!   (`up − base`, or `base − down`). Its interval is the batch-means
//!   interval of the per-batch values of that same difference.
//!
//! **Ranking.** Stats are ranked by the size of their per-step effect on
//! each side's win rate (per side), and overall by the largest of those
//! over the sides. A stat with no effect (a field the rules never read in
//! this fight: the per-step effect is exactly 0) or no step taken ranks
//! last, in declaration order: it is listed, never hidden.
//!
//! **Equivalent points.** Within one unit type as one side fields it, the
//! per-step effects on that side's win rate are compared with the
//! *reference*, a stat whose step up raises that win rate significantly
//! (never one whose effect is negative or within noise: a ratio to it would
//! read backwards or mean nothing). It is the first of the ruleset's health
//! stats (hit points, or its own health: what a designer counts worth in)
//! whose effect is measured to within a quarter of its size (95% half-width
//! at most a quarter of the effect); failing that, the stat with the
//! smallest positive effect among those measured that well and at least a
//! tenth of the unit type's largest effect: the finest unit of value that
//! is still known well enough, and large enough, to count in; failing that,
//! the most precise positive one. A unit type with no stat whose effect is
//! significantly positive gets no equivalences. Each other significant stat (95% interval
//! excluding zero) is expressed as a ratio of the reference's ("+1 attack ≈
//! 3.8 hp"), with Fieller's 95% interval for a ratio of two means, computed
//! from the same batches (so the correlation of the two estimates is
//! accounted for). Fieller's interval is bounded exactly when the
//! denominator is significant at 95%, which is why only significant stats
//! are compared.
//!
//! Pure functions; no I/O.

use super::batch_means::{paired_difference, t975, BatchSum};
use super::{newcombe, Difference, Interval, Summary};
use crate::engine::BatchStat;

/// The largest 95% half-width, relative to the effect, of a reference of
/// equivalent points (see the module docs).
pub const REFERENCE_PRECISION: f64 = 0.25;
/// The smallest effect, relative to the unit type's largest, of a reference
/// of equivalent points.
pub const REFERENCE_SHARE: f64 = 0.1;

/// Where a stat's steps were fought, and whose it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatCells {
    /// The cells of the step down and the step up, if taken (the unchanged
    /// cell is cell 0).
    pub down: Option<usize>,
    pub up: Option<usize>,
    /// The unit type, as one side fields it, the stat belongs to: stats
    /// with the same subject are compared in equivalent points.
    pub subject: usize,
    /// The side that fields it.
    pub side: usize,
    /// Its place among the ruleset's health stats, if it is one: the
    /// preferred references of equivalent points.
    pub health: Option<usize>,
    /// The field equivalent points were asked in (`--in FIELD`): when a
    /// subject has such a stat, it is the only reference considered.
    pub preferred: bool,
    /// A rule option: it belongs to no subject (`subject` and `side` mean
    /// nothing) and is expressed in the reference of a unit type of the
    /// side it favours.
    pub rule: bool,
}

/// One stat's effects on every side's win rate.
#[derive(Clone, Debug, PartialEq)]
pub struct StatEffect {
    /// Per side: one step up minus the unchanged cell.
    pub up: Vec<Option<Difference>>,
    /// Per side: one step down minus the unchanged cell.
    pub down: Vec<Option<Difference>>,
    /// Per side: the effect per step up (see the module docs); `None` when
    /// no step was taken.
    pub per_step: Vec<Option<Difference>>,
}

impl StatEffect {
    /// The size of the per-step effect on `side` (0 if no step was taken).
    pub fn size(&self, side: usize) -> f64 {
        self.per_step
            .get(side)
            .copied()
            .flatten()
            .map_or(0.0, |d| d.estimate.abs())
    }

    /// The largest size over the sides.
    pub fn largest(&self) -> f64 {
        (0..self.per_step.len())
            .map(|s| self.size(s))
            .fold(0.0, f64::max)
    }
}

/// One stat's per-step effect as a multiple of another's: "one step of
/// `stat` is worth `ratio` steps of `reference`".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Equivalence {
    pub stat: usize,
    pub reference: usize,
    /// The side whose win rate both effects are measured on.
    pub side: usize,
    pub ratio: f64,
    /// Fieller's 95% interval of the ratio.
    pub ci: Interval,
}

/// A cell's per-batch wins of `side`.
fn wins(batches: &[BatchStat], side: usize) -> Vec<BatchSum> {
    batches
        .iter()
        .map(|b| BatchSum {
            fights: b.fights,
            sum: b.wins[side] as f64,
        })
        .collect()
}

/// `(a − b) / k` of two cells' win rates of `side`, paired over batches (or
/// Newcombe's interval for independent samples, with fewer than 2 batches).
fn difference(
    cells: &[(&Summary, &[BatchStat])],
    a: usize,
    b: usize,
    k: f64,
    side: usize,
) -> Difference {
    let (sa, ba) = cells[a];
    let (sb, bb) = cells[b];
    let d = paired_difference(&wins(ba, side), &wins(bb, side))
        .unwrap_or_else(|| newcombe(&sa.wins[side], &sb.wins[side]));
    Difference {
        estimate: d.estimate / k,
        ci: Interval {
            lo: d.ci.lo / k,
            hi: d.ci.hi / k,
        },
    }
}

/// The cells and divisor of a stat's per-step difference: `(up, down, 2)`,
/// `(up, base, 1)` or `(base, down, 1)`.
fn per_step_cells(stat: &StatCells) -> Option<(usize, usize, f64)> {
    match (stat.up, stat.down) {
        (Some(up), Some(down)) => Some((up, down, 2.0)),
        (Some(up), None) => Some((up, 0, 1.0)),
        (None, Some(down)) => Some((0, down, 1.0)),
        (None, None) => None,
    }
}

/// Every stat's effects on each of `sides` sides' win rates. `cells` pairs
/// each cell's summary with its batches, the unchanged cell first.
pub fn effects(
    cells: &[(&Summary, &[BatchStat])],
    stats: &[StatCells],
    sides: usize,
) -> Vec<StatEffect> {
    stats
        .iter()
        .map(|stat| {
            let from_base = |cell: Option<usize>| -> Vec<Option<Difference>> {
                (0..sides)
                    .map(|side| cell.map(|c| difference(cells, c, 0, 1.0, side)))
                    .collect()
            };
            StatEffect {
                up: from_base(stat.up),
                down: from_base(stat.down),
                per_step: (0..sides)
                    .map(|side| {
                        per_step_cells(stat).map(|(a, b, k)| difference(cells, a, b, k, side))
                    })
                    .collect(),
            }
        })
        .collect()
}

/// The stats whose step up lowers their own side's win rate significantly
/// (the per-step effect's 95% interval below zero), in stat order.
pub fn against_own_side(stats: &[StatCells], effects: &[StatEffect]) -> Vec<usize> {
    (0..stats.len())
        .filter(|&i| !stats[i].rule)
        .filter(|&i| {
            effects[i]
                .per_step
                .get(stats[i].side)
                .copied()
                .flatten()
                .is_some_and(|d| d.ci.hi < 0.0)
        })
        .collect()
}

/// Stat indices, largest per-step effect on `side` first (`None`: the
/// largest over the sides); ties, and stats with no effect, in stat order.
pub fn ranking(effects: &[StatEffect], side: Option<usize>) -> Vec<usize> {
    ranking_of(effects, side, (0..effects.len()).collect())
}

/// [`ranking`] of the stats `among` only.
pub fn ranking_of(effects: &[StatEffect], side: Option<usize>, among: Vec<usize>) -> Vec<usize> {
    let size = |i: usize| match side {
        Some(s) => effects[i].size(s),
        None => effects[i].largest(),
    };
    let mut order = among;
    order.sort_by(|&a, &b| size(b).total_cmp(&size(a)).then(a.cmp(&b)));
    order
}

/// The per-batch per-step values of a stat's effect on `side`, with each
/// batch's fights.
fn per_step_batches(
    cells: &[(&Summary, &[BatchStat])],
    stat: &StatCells,
    side: usize,
) -> Vec<(u64, f64)> {
    let Some((a, b, k)) = per_step_cells(stat) else {
        return Vec::new();
    };
    cells[a]
        .1
        .iter()
        .zip(cells[b].1)
        .filter(|(x, y)| x.fights > 0 && y.fights > 0)
        .map(|(x, y)| {
            let rate = |s: &BatchStat| s.wins[side] as f64 / s.fights as f64;
            (x.fights.min(y.fights), (rate(x) - rate(y)) / k)
        })
        .collect()
}

/// Fieller's 95% interval for the ratio of the means of paired per-batch
/// values `(fights, a, b)` (batch-means variances and covariance, Student's
/// t with `B − 1` degrees of freedom); `None` when the denominator's mean is
/// not significant (the interval is then unbounded) or with fewer than 2
/// batches.
pub fn fieller(batches: &[(u64, f64, f64)]) -> Option<(f64, Interval)> {
    let n = batches.len();
    if n < 2 {
        return None;
    }
    let total: f64 = batches.iter().map(|&(w, _, _)| w as f64).sum();
    let w = |x: u64| x as f64 / total;
    let ma: f64 = batches.iter().map(|&(x, a, _)| w(x) * a).sum();
    let mb: f64 = batches.iter().map(|&(x, _, b)| w(x) * b).sum();
    let scale = n as f64 / (n - 1) as f64;
    let cov = |f: &dyn Fn(f64, f64) -> f64| -> f64 {
        scale
            * batches
                .iter()
                .map(|&(x, a, b)| w(x) * w(x) * f(a - ma, b - mb))
                .sum::<f64>()
    };
    let (vaa, vbb, vab) = (cov(&|a, _| a * a), cov(&|_, b| b * b), cov(&|a, b| a * b));
    let t2 = t975(n as u64 - 1).powi(2);
    let leading = mb * mb - t2 * vbb;
    if leading <= 0.0 || mb == 0.0 {
        return None;
    }
    let middle = ma * mb - t2 * vab;
    let constant = ma * ma - t2 * vaa;
    let root = (middle * middle - leading * constant).max(0.0).sqrt();
    Some((
        ma / mb,
        Interval {
            lo: (middle - root) / leading,
            hi: (middle + root) / leading,
        },
    ))
}

/// Equivalent points within each subject, on its own side's win rate (see
/// the module docs), in stat order; then each rule option's, in the
/// reference of the first unit type of the side it favours.
pub fn equivalences(
    cells: &[(&Summary, &[BatchStat])],
    stats: &[StatCells],
    effects: &[StatEffect],
) -> Vec<Equivalence> {
    let significant_on = |i: usize, side: usize| {
        effects[i]
            .per_step
            .get(side)
            .copied()
            .flatten()
            .filter(|d| d.ci.excludes_zero())
    };
    let significant = |i: usize| significant_on(i, stats[i].side);
    let mut out = Vec::new();
    let mut subjects: Vec<usize> = stats
        .iter()
        .filter(|s| !s.rule)
        .map(|s| s.subject)
        .collect();
    subjects.sort_unstable();
    subjects.dedup();
    // (side, reference) of each subject that has one, in subject order.
    let mut references: Vec<(usize, usize)> = Vec::new();
    for subject in subjects {
        let members: Vec<usize> = (0..stats.len())
            .filter(|&i| !stats[i].rule && stats[i].subject == subject)
            .filter(|&i| significant(i).is_some())
            .collect();
        let size = |i: usize| significant(i).map_or(f64::INFINITY, |d| d.estimate.abs());
        let relative = |i: usize| {
            significant(i).map_or(f64::INFINITY, |d| {
                (d.ci.hi - d.ci.lo) / 2.0 / d.estimate.abs()
            })
        };
        let largest = members.iter().map(|&i| size(i)).fold(0.0f64, f64::max);
        // Candidates: a significant step up that raises the side's win rate.
        let positive: Vec<usize> = members
            .iter()
            .copied()
            .filter(|&i| significant(i).is_some_and(|d| d.estimate > 0.0))
            .collect();
        let asked = (0..stats.len())
            .any(|i| !stats[i].rule && stats[i].subject == subject && stats[i].preferred);
        let reference = if asked {
            // `--in FIELD`: that stat or none.
            positive.iter().copied().find(|&i| stats[i].preferred)
        } else {
            let precise = |i: &usize| relative(*i) <= REFERENCE_PRECISION;
            let health = positive
                .iter()
                .copied()
                .filter(precise)
                .filter_map(|i| Some((stats[i].health?, i)))
                .min()
                .map(|(_, i)| i);
            let finest = positive
                .iter()
                .copied()
                .filter(|i| precise(i) && size(*i) >= REFERENCE_SHARE * largest)
                .min_by(|&a, &b| size(a).total_cmp(&size(b)).then(a.cmp(&b)));
            let most_precise = || {
                positive
                    .iter()
                    .copied()
                    .min_by(|&a, &b| relative(a).total_cmp(&relative(b)).then(a.cmp(&b)))
            };
            health.or(finest).or_else(most_precise)
        };
        let Some(reference) = reference else {
            continue;
        };
        let side = stats[reference].side;
        references.push((side, reference));
        for &stat in members.iter().filter(|&&i| i != reference) {
            if let Some(e) = ratio(cells, stats, stat, reference, side) {
                out.push(e);
            }
        }
    }
    // Rule options: on the win rate of the side the step up favours most.
    for stat in (0..stats.len()).filter(|&i| stats[i].rule) {
        let sides = effects[stat].per_step.len();
        let favoured = (0..sides)
            .filter_map(|side| Some((side, significant_on(stat, side)?)))
            .filter(|(_, d)| d.estimate > 0.0)
            .max_by(|a, b| a.1.estimate.total_cmp(&b.1.estimate).then(b.0.cmp(&a.0)));
        let Some((side, _)) = favoured else {
            continue;
        };
        let Some(&(_, reference)) = references.iter().find(|(s, _)| *s == side) else {
            continue;
        };
        if let Some(e) = ratio(cells, stats, stat, reference, side) {
            out.push(e);
        }
    }
    out
}

/// `stat`'s per-step effect on `side` in steps of `reference`'s, with
/// Fieller's interval; `None` when the reference is not significant.
fn ratio(
    cells: &[(&Summary, &[BatchStat])],
    stats: &[StatCells],
    stat: usize,
    reference: usize,
    side: usize,
) -> Option<Equivalence> {
    let denominator = per_step_batches(cells, &stats[reference], side);
    let numerator = per_step_batches(cells, &stats[stat], side);
    let paired: Vec<(u64, f64, f64)> = numerator
        .iter()
        .zip(&denominator)
        .map(|(&(w, a), &(_, b))| (w, a, b))
        .collect();
    let (ratio, ci) = fieller(&paired)?;
    Some(Equivalence {
        stat,
        reference,
        side,
        ratio,
        ci,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::summarize;
    use crate::engine::Tally;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    /// A cell of batches of 100 fights where side 0 wins `wins[b]` in batch
    /// `b` and side 1 the rest.
    fn cell(wins: &[u64]) -> (Summary, Vec<BatchStat>) {
        let batches: Vec<BatchStat> = wins
            .iter()
            .map(|&w| BatchStat {
                fights: 100,
                wins: [w, 100 - w, 0, 0],
                draws: 0,
                rounds: 100,
            })
            .collect();
        let total: u64 = wins.iter().sum();
        let n = 100 * wins.len() as u64;
        let mut t = Tally {
            fights: n,
            wins: [total, n - total, 0, 0],
            ..Tally::default()
        };
        t.rounds[1] = n;
        (summarize(&t, 2, 0), batches)
    }

    #[test]
    fn per_step_is_half_the_difference_of_up_and_down() {
        let base = cell(&[50, 52, 48, 50]);
        let up = cell(&[60, 63, 57, 60]);
        let down = cell(&[41, 42, 39, 42]);
        let cells: Vec<(&Summary, &[BatchStat])> = [&base, &up, &down]
            .iter()
            .map(|(s, b)| (s, b.as_slice()))
            .collect();
        let stats = [
            StatCells {
                down: Some(2),
                up: Some(1),
                subject: 0,
                side: 0,
                health: None,
                preferred: false,
                rule: false,
            },
            StatCells {
                down: None,
                up: Some(1),
                subject: 0,
                side: 0,
                health: None,
                preferred: false,
                rule: false,
            },
            StatCells {
                down: None,
                up: None,
                subject: 0,
                side: 0,
                health: None,
                preferred: false,
                rule: false,
            },
        ];
        let e = effects(&cells, &stats, 2);
        // Up: +0.1, +0.11, +0.09, +0.1 → 0.1; down: −0.09, −0.1, −0.09, −0.08.
        assert!(close(e[0].up[0].unwrap().estimate, 0.1, 1e-12));
        assert!(close(e[0].down[0].unwrap().estimate, -0.09, 1e-12));
        // (up − down)/2 per batch: 0.095, 0.105, 0.09, 0.09 → mean 0.095.
        let d = e[0].per_step[0].unwrap();
        assert!(close(d.estimate, 0.095, 1e-12));
        // s² of 0.095, 0.105, 0.09, 0.09 = (0 + 1e-4 + 2.5e-5 + 2.5e-5)/3 =
        // 5e-5; half-width t(3) · √(5e-5/4).
        assert!(close(
            (d.ci.hi - d.ci.lo) / 2.0,
            3.182_446_305 * (5e-5f64 / 4.0).sqrt(),
            1e-12
        ));
        // Side 1 mirrors side 0 (no draws).
        assert!(close(e[0].per_step[1].unwrap().estimate, -0.095, 1e-12));
        // One step only: that step.
        assert!(close(e[1].per_step[0].unwrap().estimate, 0.1, 1e-12));
        assert_eq!(e[2].per_step[0], None);
        assert_eq!(ranking(&e, Some(0)), vec![1, 0, 2]);
        assert_eq!(ranking(&e, None), vec![1, 0, 2]);
    }

    #[test]
    fn fieller_by_hand() {
        // b constant 0.1 (no spread): the interval is a's over 0.1 exactly.
        // a: 0.2, 0.4 → mean 0.3, V_aa = 2 · (0.25·0.01 + 0.25·0.01) = 0.01,
        // half-width of a: t(1) · 0.1; ratio interval 3 ± t(1) · 0.1 / 0.1.
        let (r, ci) = fieller(&[(10, 0.2, 0.1), (10, 0.4, 0.1)]).unwrap();
        assert!(close(r, 3.0, 1e-12));
        assert!(close(ci.lo, 3.0 - 12.706_204_736, 1e-9), "{ci:?}");
        assert!(close(ci.hi, 3.0 + 12.706_204_736, 1e-9), "{ci:?}");
        // A denominator that could be zero: no bounded interval.
        assert_eq!(fieller(&[(10, 0.2, 0.1), (10, 0.4, -0.1)]), None);
        assert_eq!(fieller(&[(10, 0.2, 0.1)]), None);
    }

    #[test]
    fn equivalences_use_the_smallest_significant_effect_as_reference() {
        let base = cell(&[50, 50, 50, 50, 50, 50]);
        // Stat 0: +4 per step, a little noise (half-width 0.0066, within a
        // quarter of 0.04); stat 1: +16 per step; stat 2: noise around 0
        // (not significant); stat 3: +2 per step, too noisy to count in.
        let small = cell(&[54, 54, 54, 54, 55, 53]);
        let large = cell(&[66, 67, 65, 66, 66, 66]);
        let noise = cell(&[51, 49, 50, 52, 48, 50]);
        let rough = cell(&[52, 53, 52, 51, 52, 52]);
        let cells: Vec<(&Summary, &[BatchStat])> = [&base, &small, &large, &noise, &rough]
            .iter()
            .map(|(s, b)| (s, b.as_slice()))
            .collect();
        let stat = |up| StatCells {
            down: None,
            up: Some(up),
            subject: 0,
            side: 0,
            health: None,
            preferred: false,
            rule: false,
        };
        let stats = [stat(1), stat(2), stat(3), stat(4)];
        let e = effects(&cells, &stats, 2);
        let eq = equivalences(&cells, &stats, &e);
        // Stat 3 is significant but too rough to be the reference: it is
        // expressed in steps of stat 0, as stat 1 is.
        assert_eq!(eq.len(), 2, "{eq:?}");
        assert_eq!((eq[0].stat, eq[0].reference, eq[0].side), (1, 0, 0));
        assert!(close(eq[0].ratio, 4.0, 1e-12));
        assert!(eq[0].ci.lo < 4.0 && 4.0 < eq[0].ci.hi);
        assert!(eq[0].ci.lo > 3.0 && eq[0].ci.hi < 5.0, "{eq:?}");
        assert_eq!((eq[1].stat, eq[1].reference), (3, 0));
        assert!(close(eq[1].ratio, 0.5, 1e-12));
    }

    #[test]
    fn the_reference_is_a_positive_health_stat_never_a_negative_one() {
        let base = cell(&[50, 50, 50, 50, 50, 50]);
        let small = cell(&[54, 54, 54, 54, 55, 53]); // +4, precise
        let large = cell(&[66, 67, 65, 66, 66, 66]); // +16, precise
        let worse = cell(&[47, 47, 47, 47, 48, 46]); // −3, precise
        let cells: Vec<(&Summary, &[BatchStat])> = [&base, &small, &large, &worse]
            .iter()
            .map(|(s, b)| (s, b.as_slice()))
            .collect();
        let stat = |up, health| StatCells {
            down: None,
            up: Some(up),
            subject: 0,
            side: 0,
            health,
            preferred: false,
            rule: false,
        };
        // A health stat measured well is the reference, though not the
        // smallest effect.
        let stats = [stat(1, None), stat(2, Some(0)), stat(3, None)];
        let e = effects(&cells, &stats, 2);
        let eq = equivalences(&cells, &stats, &e);
        assert!(eq.iter().all(|q| q.reference == 1), "{eq:?}");
        assert_eq!(eq.len(), 2, "{eq:?}");
        assert!(close(eq[0].ratio, 0.25, 1e-12));
        assert_eq!(against_own_side(&stats, &e), vec![2]);
        // A health stat whose step up lowers the win rate is never the
        // reference, nor is the smallest effect when it is negative.
        let stats = [stat(3, Some(0)), stat(2, None), stat(1, None)];
        let e = effects(&cells, &stats, 2);
        let eq = equivalences(&cells, &stats, &e);
        assert!(eq.iter().all(|q| q.reference == 2), "{eq:?}");
        assert!(close(eq[0].ratio, -0.75, 1e-12), "{eq:?}");
        // No positive effect at all: no equivalences.
        let stats = [stat(3, Some(0))];
        let e = effects(&cells, &stats, 2);
        assert_eq!(equivalences(&cells, &stats, &e), Vec::new());
    }

    /// Side 0's wins per batch: `base` plus `shift` plus a little noise
    /// that every cell shares (common random numbers).
    fn shifted(shift: i64) -> (Summary, Vec<BatchStat>) {
        let noise = [0i64, 3, -2, 1, -1, 2, -3, 0];
        let wins: Vec<u64> = noise
            .iter()
            .enumerate()
            .map(|(b, n)| (50 + shift + n + (b as i64 * shift) % 2) as u64)
            .collect();
        cell(&wins)
    }

    #[test]
    fn a_rule_option_is_stated_in_the_reference_of_the_side_it_favours() {
        // Cells: 0 base; 1 red hp up (+10 for red); 2 blue hp up (−8 for
        // red); 3 the option up (−4 for red: it favours blue).
        let cells_owned = [shifted(0), shifted(10), shifted(-8), shifted(-4)];
        let cells: Vec<(&Summary, &[BatchStat])> =
            cells_owned.iter().map(|(s, b)| (s, b.as_slice())).collect();
        let stat = |up, subject, side, rule| StatCells {
            down: None,
            up: Some(up),
            subject,
            side,
            health: Some(0),
            preferred: false,
            rule,
        };
        let stats = [
            stat(1, 0, 0, false),
            stat(2, 1, 1, false),
            stat(3, usize::MAX, 0, true),
        ];
        let e = effects(&cells, &stats, 2);
        let eq = equivalences(&cells, &stats, &e);
        // Only the option has something to be expressed in: blue's hp, on
        // blue's win rate, about 4 / 8.
        assert_eq!(eq.len(), 1, "{eq:?}");
        assert_eq!((eq[0].stat, eq[0].reference, eq[0].side), (2, 1, 1));
        assert!(close(eq[0].ratio, 0.5, 0.05), "{eq:?}");
        // A rule option is never a stat against its own side.
        assert!(against_own_side(&stats, &e).is_empty());
    }

    #[test]
    fn in_field_makes_that_stat_the_only_reference() {
        // Cells: 0 base; 1 hp up (+10); 2 attack up (+5), one subject.
        let cells_owned = [shifted(0), shifted(10), shifted(5)];
        let cells: Vec<(&Summary, &[BatchStat])> =
            cells_owned.iter().map(|(s, b)| (s, b.as_slice())).collect();
        let stat = |up, health, preferred| StatCells {
            down: None,
            up: Some(up),
            subject: 0,
            side: 0,
            health,
            preferred,
            rule: false,
        };
        // By default the health stat (hp) is the reference.
        let stats = [stat(1, Some(0), false), stat(2, None, false)];
        let e = effects(&cells, &stats, 2);
        let eq = equivalences(&cells, &stats, &e);
        assert_eq!((eq.len(), eq[0].reference), (1, 0), "{eq:?}");
        // Asked in attack (`--in attack`): attack is, and a step of hp is
        // worth 10 / 5.5 of it (attack's cells add half a win every other
        // batch: 5.5 a batch on average).
        let stats = [stat(1, Some(0), false), stat(2, None, true)];
        let eq = equivalences(&cells, &stats, &e);
        assert_eq!((eq.len(), eq[0].stat, eq[0].reference), (1, 0, 1), "{eq:?}");
        assert!(close(eq[0].ratio, 10.0 / 5.5, 1e-9), "{eq:?}");
    }
}
