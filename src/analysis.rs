//! Pure statistics: [`Tally`] → [`Summary`].
//!
//! This layer turns the kernel's integer counters into the numbers a report
//! shows: rates with Wilson 95% intervals, mean and quantiles of fight length,
//! means per fight of survivors, damage and ruleset counters, and differences
//! in win rate between cells with Newcombe hybrid-score 95% intervals.
//!
//! Comparisons of a cell with the scenario's baseline cell use paired
//! batch means over common random numbers ([`batch_means`]); see
//! [`compare`].
//!
//! It does no I/O and knows nothing of polars or plotters; the report layer
//! only formats and draws what is computed here.
//!
//! Conventions:
//! - A cell with no fights reports rates of 0 with the uninformative interval
//!   `[0, 1]`, means of 0 and quantiles of 0 (the runner never produces such a
//!   cell; this only keeps every function total).
//! - Quantiles of fight length are computed exactly from the integer histogram
//!   with integer arithmetic: the `q`-th percentile is the smallest `r` such
//!   that the number of fights lasting at most `r` rounds is at least
//!   `q/100 × fights` (the "inverse of the empirical distribution function"
//!   definition, type 1 in Hyndman & Fan's classification).

pub mod balance;
pub mod batch_means;
pub mod caveats;
pub mod game;
pub mod plays;
pub mod sensitivity;

use crate::engine::tally::{BatchStat, Tally};
use batch_means::BatchSum;

/// The standard normal quantile for a two-sided 95% interval, Φ⁻¹(0.975).
pub const Z95: f64 = 1.959963984540054;

/// A closed interval `[lo, hi]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    pub lo: f64,
    pub hi: f64,
}

impl Interval {
    /// True when zero lies strictly outside the interval, i.e. the effect it
    /// bounds is distinguishable from no effect at this confidence level.
    pub fn excludes_zero(&self) -> bool {
        self.lo > 0.0 || self.hi < 0.0
    }
}

/// A proportion `count / trials` with its Wilson 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Proportion {
    pub count: u64,
    pub trials: u64,
    /// `count / trials` (0 when there are no trials).
    pub estimate: f64,
    /// Wilson score 95% interval.
    pub ci: Interval,
}

/// The difference between two proportions, `a − b`, with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Difference {
    pub estimate: f64,
    pub ci: Interval,
}

/// One bin of the fight-length distribution.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LengthBin {
    /// Fight length in rounds.
    pub rounds: u32,
    /// Fights that lasted exactly `rounds` rounds (never 0 in a [`Summary`]).
    pub fights: u64,
    /// `fights` as a share of all fights of the cell.
    pub share: f64,
}

/// Everything the reports show about one cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub fights: u64,
    /// Win rate per side, in side order.
    pub wins: Vec<Proportion>,
    /// Share of fights that ended in a draw.
    pub draws: Proportion,
    /// Share of fights still running at the round cap (some of the draws).
    pub draws_at_cap: Proportion,
    pub rounds_mean: f64,
    pub rounds_p50: u32,
    pub rounds_p90: u32,
    /// Non-empty bins of the fight-length histogram, in increasing rounds.
    pub lengths: Vec<LengthBin>,
    /// Mean units still standing at the end of a fight, per side.
    pub survivors: Vec<f64>,
    /// Mean harm dealt per fight, per side.
    pub damage: Vec<f64>,
    /// Mean per fight of each ruleset counter, in counter order.
    pub counters: Vec<f64>,
}

/// The difference in one side's win rate between a cell and the baseline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Effect {
    /// Index of the cell compared with the baseline.
    pub cell: usize,
    /// Side whose win rate is compared.
    pub side: usize,
    /// The cell's win rate (the baseline's is `cell − difference`).
    pub win_rate: f64,
    /// Win rate in the cell minus win rate in the baseline.
    pub difference: Difference,
}

/// Wilson score interval for `successes / trials` at normal quantile `z`.
///
/// `[0, 1]` when there are no trials. With no successes the lower bound is
/// exactly 0, with no failures the upper bound exactly 1 (the closed form
/// gives these up to rounding), and bounds are clamped to `[0, 1]`.
pub fn wilson(successes: u64, trials: u64, z: f64) -> Interval {
    if trials == 0 {
        return Interval { lo: 0.0, hi: 1.0 };
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Interval {
        lo: if successes == 0 {
            0.0
        } else {
            (centre - half).max(0.0)
        },
        hi: if successes >= trials {
            1.0
        } else {
            (centre + half).min(1.0)
        },
    }
}

/// `count / trials` with its Wilson 95% interval.
pub fn proportion(count: u64, trials: u64) -> Proportion {
    Proportion {
        count,
        trials,
        estimate: per_fight(count, trials),
        ci: wilson(count, trials, Z95),
    }
}

/// `sum / fights` as a mean per fight (0 when there are no fights).
pub fn per_fight(sum: u64, fights: u64) -> f64 {
    if fights == 0 {
        0.0
    } else {
        sum as f64 / fights as f64
    }
}

/// Mean fight length from a histogram where `hist[r]` fights lasted `r` rounds.
pub fn mean_rounds(hist: &[u64]) -> f64 {
    let fights: u64 = hist.iter().sum();
    // u128: r × count cannot overflow even for absurd fight counts.
    let total: u128 = hist
        .iter()
        .enumerate()
        .map(|(r, &c)| r as u128 * u128::from(c))
        .sum();
    if fights == 0 {
        0.0
    } else {
        total as f64 / fights as f64
    }
}

/// The `percent`-th percentile of fight length: the smallest `r` such that
/// `hist[0] + … + hist[r] ≥ percent/100 × fights` (exact, integer arithmetic).
///
/// 0 when the histogram is empty. `percent` above 100 is treated as 100.
pub fn rounds_percentile(hist: &[u64], percent: u32) -> u32 {
    percentile_of_bins(
        hist.iter()
            .enumerate()
            .map(|(r, &c)| (u32::try_from(r).unwrap_or(u32::MAX), c)),
        percent,
    )
}

/// [`rounds_percentile`] over `(rounds, fights)` pairs in increasing rounds.
fn percentile_of_bins<I>(bins: I, percent: u32) -> u32
where
    I: Iterator<Item = (u32, u64)> + Clone,
{
    let fights: u128 = bins.clone().map(|(_, c)| u128::from(c)).sum();
    let percent = u128::from(percent.min(100));
    let mut cumulative: u128 = 0;
    for (r, c) in bins {
        cumulative += u128::from(c);
        // cumulative ≥ percent/100 × fights, multiplied through by 100.
        if fights > 0 && cumulative * 100 >= percent * fights {
            return r;
        }
    }
    0
}

/// The last round a fight-length chart needs to show so that, in every cell,
/// at least `percent`% of the fights that ended before round `cap` are in
/// view: the largest over cells of that percentile of their fights with
/// fewer than `cap` rounds. Fights that reached the cap (draws, mostly) are
/// left out, so a few of them cannot stretch the axis to the cap. At least 1;
/// `cap` itself when no fight in any cell ended before the cap.
pub fn rounds_axis_limit(summaries: &[Summary], cap: u32, percent: u32) -> u32 {
    let before_cap = |s: &Summary| {
        s.lengths
            .iter()
            .filter(|b| b.rounds < cap)
            .map(|b| (b.rounds, b.fights))
            .collect::<Vec<_>>()
    };
    let per_cell: Vec<Vec<(u32, u64)>> = summaries.iter().map(before_cap).collect();
    if per_cell.iter().all(Vec::is_empty) {
        return cap.max(1);
    }
    per_cell
        .iter()
        .map(|bins| percentile_of_bins(bins.iter().copied(), percent))
        .max()
        .unwrap_or(1)
        .max(1)
}

/// The non-empty bins of a fight-length histogram with their shares.
pub fn length_distribution(hist: &[u64]) -> Vec<LengthBin> {
    let fights: u64 = hist.iter().sum();
    hist.iter()
        .enumerate()
        .filter(|(_, &c)| c > 0)
        .map(|(r, &c)| LengthBin {
            rounds: u32::try_from(r).unwrap_or(u32::MAX),
            fights: c,
            share: per_fight(c, fights),
        })
        .collect()
}

/// Summarises one cell's tally for a scenario with `sides` sides and
/// `counters` ruleset counters (both clamped to the tally's capacity).
pub fn summarize(tally: &Tally, sides: usize, counters: usize) -> Summary {
    let sides = sides.min(tally.wins.len());
    let counters = counters.min(tally.counters.len());
    let n = tally.fights;
    let means = |sums: &[u64]| sums.iter().map(|&s| per_fight(s, n)).collect::<Vec<_>>();
    Summary {
        fights: n,
        wins: tally.wins[..sides]
            .iter()
            .map(|&w| proportion(w, n))
            .collect(),
        draws: proportion(tally.draws, n),
        draws_at_cap: proportion(tally.draws_at_cap, n),
        rounds_mean: mean_rounds(&tally.rounds),
        rounds_p50: rounds_percentile(&tally.rounds, 50),
        rounds_p90: rounds_percentile(&tally.rounds, 90),
        lengths: length_distribution(&tally.rounds),
        survivors: means(&tally.survivors[..sides]),
        damage: means(&tally.damage[..sides]),
        counters: means(&tally.counters[..counters]),
    }
}

/// An exact win rate `p` as a [`Proportion`]: no trials, and as its
/// interval the rounding bound `error` either side (`balance --exact`).
pub fn exact_proportion(p: f64, error: f64) -> Proportion {
    Proportion {
        count: 0,
        trials: 0,
        estimate: p,
        ci: Interval {
            lo: (p - error).max(0.0),
            hi: (p + error).min(1.0),
        },
    }
}

/// Newcombe's hybrid score interval (his method 10) for the difference of two
/// independent proportions `a − b`, built from their Wilson intervals:
///
/// `lo = d − √((p_a − l_a)² + (u_b − p_b)²)`, `hi = d + √((u_a − p_a)² + (p_b − l_b)²)`.
///
/// Independent samples are assumed. Used when a comparison has fewer than 2
/// batches to pair, and by `skirmish diff` (two separate runs).
pub fn newcombe(a: &Proportion, b: &Proportion) -> Difference {
    let d = a.estimate - b.estimate;
    let below = (a.estimate - a.ci.lo).hypot(b.ci.hi - b.estimate);
    let above = (a.ci.hi - a.estimate).hypot(b.estimate - b.ci.lo);
    Difference {
        estimate: d,
        ci: Interval {
            lo: (d - below).max(-1.0),
            hi: (d + above).min(1.0),
        },
    }
}

/// How a [`Comparison`]'s intervals were computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Paired batch means over this many batches both cells ran.
    BatchMeans { batches: u64 },
    /// Fewer than 2 common batches: intervals for independent samples
    /// (Newcombe for rates, Welch's normal interval for mean rounds).
    Independent,
}

/// A cell compared with the baseline cell: differences `cell − baseline`.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Difference in win rate, per side.
    pub win_rates: Vec<Difference>,
    /// Difference in mean fight length (rounds).
    pub rounds_mean: Difference,
    pub method: Method,
}

/// Per-batch sums of one quantity of a cell's batches.
fn sums(batches: &[BatchStat], f: impl Fn(&BatchStat) -> u64) -> Vec<BatchSum> {
    batches
        .iter()
        .map(|b| BatchSum {
            fights: b.fights,
            sum: f(b) as f64,
        })
        .collect()
}

/// Compares a cell with the baseline: paired batch means over the batches
/// both ran (common random numbers make these far narrower than intervals
/// for independent samples), or, with fewer than 2 common batches,
/// Newcombe's interval for win rates and Welch's for mean rounds.
///
/// `cell`/`base` are the cells' summaries, `cell_batches`/`base_batches`
/// their per-batch stats in batch order.
pub fn compare(
    cell: &Summary,
    cell_batches: &[BatchStat],
    base: &Summary,
    base_batches: &[BatchStat],
) -> Comparison {
    let common = cell_batches
        .iter()
        .zip(base_batches)
        .filter(|(a, b)| a.fights > 0 && b.fights > 0)
        .count() as u64;
    if common >= 2 {
        let paired = |f: &dyn Fn(&BatchStat) -> u64| {
            batch_means::paired_difference(&sums(cell_batches, f), &sums(base_batches, f))
                .expect("at least 2 common batches")
        };
        Comparison {
            win_rates: (0..cell.wins.len().min(base.wins.len()))
                .map(|side| paired(&|b| b.wins[side]))
                .collect(),
            rounds_mean: paired(&|b| b.rounds),
            method: Method::BatchMeans { batches: common },
        }
    } else {
        Comparison {
            win_rates: cell
                .wins
                .iter()
                .zip(&base.wins)
                .map(|(a, b)| newcombe(a, b))
                .collect(),
            rounds_mean: welch(cell, base),
            method: Method::Independent,
        }
    }
}

/// Every cell compared with cell `baseline`, which differs from itself by
/// exactly 0 (interval `[0, 0]`). `cells` pairs each summary with its
/// batches, in cell order.
pub fn compare_all(cells: &[(&Summary, &[BatchStat])], baseline: usize) -> Vec<Comparison> {
    let Some(&(base, base_batches)) = cells.get(baseline) else {
        return Vec::new();
    };
    cells
        .iter()
        .enumerate()
        .map(|(i, &(s, b))| {
            let mut c = compare(s, b, base, base_batches);
            if i == baseline {
                let zero = Difference {
                    estimate: 0.0,
                    ci: Interval { lo: 0.0, hi: 0.0 },
                };
                c.win_rates.iter_mut().for_each(|d| *d = zero);
                c.rounds_mean = zero;
            }
            c
        })
        .collect()
}

/// The variance of a cell's mean fight length as an estimate (sample
/// variance of the lengths over the fights); infinite with fewer than 2
/// fights.
fn rounds_mean_variance(s: &Summary) -> f64 {
    if s.fights < 2 {
        return f64::INFINITY;
    }
    let m = s.rounds_mean;
    let ss: f64 = s
        .lengths
        .iter()
        .map(|l| l.fights as f64 * (l.rounds as f64 - m).powi(2))
        .sum();
    ss / (s.fights - 1) as f64 / s.fights as f64
}

/// The 95% half-width of a cell's mean fight length (normal interval over
/// independent fights): how many of its digits mean something. Infinite
/// with fewer than 2 fights.
pub fn rounds_mean_half_width(s: &Summary) -> f64 {
    Z95 * rounds_mean_variance(s).sqrt()
}

/// Welch's normal 95% interval for the difference of two cells' mean fight
/// lengths, from their histograms (independent samples).
fn welch(a: &Summary, b: &Summary) -> Difference {
    let d = a.rounds_mean - b.rounds_mean;
    let half = Z95 * (rounds_mean_variance(a) + rounds_mean_variance(b)).sqrt();
    Difference {
        estimate: d,
        ci: Interval {
            lo: d - half,
            hi: d + half,
        },
    }
}

/// The cells whose difference in `side`'s win rate from the baseline has a
/// 95% interval that excludes zero, largest absolute difference first (ties:
/// lower cell index first), at most `limit` of them. The baseline itself and
/// differences that could be noise are left out.
pub fn largest_effects(
    summaries: &[Summary],
    comparisons: &[Comparison],
    baseline: usize,
    side: usize,
    limit: usize,
) -> Vec<Effect> {
    let mut effects: Vec<Effect> = summaries
        .iter()
        .zip(comparisons)
        .enumerate()
        .filter(|&(cell, _)| cell != baseline)
        .filter_map(|(cell, (s, c))| {
            let rate = s.wins.get(side)?;
            let difference = *c.win_rates.get(side)?;
            difference.ci.excludes_zero().then_some(Effect {
                cell,
                side,
                win_rate: rate.estimate,
                difference,
            })
        })
        .collect();
    // Stable sort keeps cell order among equal magnitudes.
    effects.sort_by(|x, y| {
        y.difference
            .estimate
            .abs()
            .total_cmp(&x.difference.estimate.abs())
    });
    effects.truncate(limit);
    effects
}

/// Whether a cell has reached a target precision: the 95% half-width of each
/// side's win rate (Wilson) and of each side's difference from the baseline
/// is at most `target`.
pub fn precise_enough(summary: &Summary, comparison: &Comparison, target: f64) -> bool {
    summary
        .wins
        .iter()
        .all(|p| batch_means::half_width(&p.ci) <= target)
        && comparison
            .win_rates
            .iter()
            .all(|d| batch_means::half_width(&d.ci) <= target)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    // Reference values: Newcombe (1998), "Two-sided confidence intervals for
    // the single proportion", Stat. Med. 17:857-872, Table I, method 3 (score
    // interval without continuity correction), printed to 4 decimals; the
    // extra digits were recomputed from the closed form
    // (p + z²/2n ± z√(p(1−p)/n + z²/4n²)) / (1 + z²/n) in Python.
    #[test]
    fn wilson_matches_newcombe_table() {
        let cases = [
            (81, 263, 0.255_288_519_9, 0.366_209_577_0),
            (15, 148, 0.062_386_399_5, 0.160_487_241_7),
            (0, 20, 0.0, 0.161_125_158_1),
            (1, 29, 0.006_113_214_3, 0.171_755_218_8),
            (29, 29, 0.883_030_201_5, 1.0),
        ];
        for (x, n, lo, hi) in cases {
            let ci = wilson(x, n, Z95);
            assert!(close(ci.lo, lo, 1e-9), "{x}/{n}: lo {}", ci.lo);
            assert!(close(ci.hi, hi, 1e-9), "{x}/{n}: hi {}", ci.hi);
        }
    }

    #[test]
    fn wilson_is_symmetric_at_one_half_and_clamped() {
        // 5/10: centre is exactly 0.5, so the bounds are symmetric around it
        // (0.2365930905, 0.7634069095 by the closed form).
        let ci = wilson(5, 10, Z95);
        assert!(close(ci.lo + ci.hi, 1.0, 1e-12));
        assert!(close(ci.lo, 0.236_593_090_5, 1e-9));
        // 0 successes: the lower bound is exactly 0, never slightly negative.
        assert_eq!(wilson(0, 1_000_000, Z95).lo, 0.0);
        assert_eq!(wilson(1_000_000, 1_000_000, Z95).hi, 1.0);
        assert_eq!(wilson(0, 0, Z95), Interval { lo: 0.0, hi: 1.0 });
    }

    #[test]
    fn proportion_and_per_fight() {
        let p = proportion(3, 4);
        assert_eq!(p.estimate, 0.75);
        assert_eq!((p.count, p.trials), (3, 4));
        assert_eq!(proportion(0, 0).estimate, 0.0);
        assert_eq!(per_fight(7, 2), 3.5);
        assert_eq!(per_fight(7, 0), 0.0);
    }

    #[test]
    fn mean_rounds_by_hand() {
        // 1 fight of 1 round, 2 of 2, 1 of 5: (1 + 4 + 5) / 4 = 2.5.
        assert_eq!(mean_rounds(&[0, 1, 2, 0, 0, 1]), 2.5);
        assert_eq!(mean_rounds(&[0, 0, 0]), 0.0);
    }

    #[test]
    fn percentiles_by_hand() {
        // 10 fights: lengths 1,1,1,2,2,2,2,3,3,9.
        // Cumulative counts: r=1: 3, r=2: 7, r=3: 9, r=9: 10.
        let mut hist = [0u64; 10];
        hist[1] = 3;
        hist[2] = 4;
        hist[3] = 2;
        hist[9] = 1;
        // p50: need ≥ 5 fights → r = 2. p30: need ≥ 3 → r = 1 (exact boundary).
        assert_eq!(rounds_percentile(&hist, 50), 2);
        assert_eq!(rounds_percentile(&hist, 30), 1);
        // p70: need ≥ 7 → r = 2 (exact boundary); p71: need ≥ 7.1 → r = 3.
        assert_eq!(rounds_percentile(&hist, 70), 2);
        assert_eq!(rounds_percentile(&hist, 71), 3);
        // p90: need ≥ 9 → r = 3; p91..p100: need all 10 → r = 9.
        assert_eq!(rounds_percentile(&hist, 90), 3);
        assert_eq!(rounds_percentile(&hist, 91), 9);
        assert_eq!(rounds_percentile(&hist, 100), 9);
        assert_eq!(rounds_percentile(&hist, 250), 9);
        assert_eq!(rounds_percentile(&[0, 0], 50), 0);
    }

    #[test]
    fn axis_limit_ignores_fights_at_the_cap() {
        let cell = |bins: &[(usize, u64)]| {
            let mut t = Tally::default();
            for &(r, c) in bins {
                t.rounds[r] = c;
                t.fights += c;
            }
            summarize(&t, 2, 0)
        };
        // Cell 0: 100 fights ending in rounds 1..=4 (25 each) plus 30 at the
        // cap of 50. Before the cap, p99 needs 99 of 100 → round 4.
        // Cell 1: 10 fights at round 2 and 10 at round 7: p99 → round 7.
        let a = cell(&[(1, 25), (2, 25), (3, 25), (4, 25), (50, 30)]);
        let b = cell(&[(2, 10), (7, 10)]);
        assert_eq!(rounds_axis_limit(std::slice::from_ref(&a), 50, 99), 4);
        assert_eq!(rounds_axis_limit(&[a.clone(), b], 50, 99), 7);
        // With the cap beyond every fight, nothing is left out: 50.
        assert_eq!(rounds_axis_limit(&[a], 51, 99), 50);
        // Every fight at the cap: show up to the cap.
        assert_eq!(rounds_axis_limit(&[cell(&[(50, 9)])], 50, 99), 50);
        assert_eq!(rounds_axis_limit(&[], 50, 99), 50);
    }

    #[test]
    fn length_distribution_skips_empty_bins() {
        let bins = length_distribution(&[0, 1, 0, 3]);
        assert_eq!(
            bins,
            vec![
                LengthBin {
                    rounds: 1,
                    fights: 1,
                    share: 0.25
                },
                LengthBin {
                    rounds: 3,
                    fights: 3,
                    share: 0.75
                },
            ]
        );
    }

    #[test]
    fn summarize_by_hand() {
        let mut t = Tally {
            fights: 4,
            // The third side is beyond the scenario's two: ignored.
            wins: [3, 0, 99, 0],
            draws: 1,
            survivors: [6, 1, 0, 0],
            damage: [40, 10, 0, 0],
            ..Tally::default()
        };
        t.rounds[2] = 3;
        t.rounds[10] = 1;
        t.counters[0] = 2;
        t.counters[1] = 5;
        let s = summarize(&t, 2, 1);
        assert_eq!(s.fights, 4);
        assert_eq!(s.wins.len(), 2);
        assert_eq!(s.wins[0].estimate, 0.75);
        assert_eq!(s.wins[1].estimate, 0.0);
        assert_eq!(s.draws.estimate, 0.25);
        // (3×2 + 10) / 4 = 4.
        assert_eq!(s.rounds_mean, 4.0);
        assert_eq!((s.rounds_p50, s.rounds_p90), (2, 10));
        assert_eq!(s.survivors, vec![1.5, 0.25]);
        assert_eq!(s.damage, vec![10.0, 2.5]);
        assert_eq!(s.counters, vec![0.5]);
        assert_eq!(s.lengths.len(), 2);
    }

    // Reference values: Newcombe (1998), "Interval estimation for the
    // difference between independent proportions: comparison of eleven
    // methods", Stat. Med. 17:873-890, Table II, method 10 (score interval,
    // no continuity correction), examples (a), (b), (c), (d), (g), (h), printed
    // to 4 decimals; extra digits recomputed from the formula in Python.
    #[test]
    fn newcombe_matches_published_examples() {
        let cases = [
            ((56, 70), (48, 80), 0.052_431_472_4, 0.333_872_654_0),
            ((9, 10), (3, 10), 0.170_522_723_9, 0.809_017_973_5),
            ((6, 7), (2, 7), 0.058_227_927_5, 0.806_249_637_5),
            ((5, 56), (0, 29), -0.038_137_147_9, 0.192_560_013_9),
            ((0, 10), (0, 20), -0.161_125_158_1, 0.277_532_799_9),
            ((10, 10), (0, 20), 0.679_086_037_1, 1.0),
        ];
        for ((xa, na), (xb, nb), lo, hi) in cases {
            let d = newcombe(&proportion(xa, na), &proportion(xb, nb));
            let expected = xa as f64 / na as f64 - xb as f64 / nb as f64;
            assert!(close(d.estimate, expected, 1e-12));
            assert!(
                close(d.ci.lo, lo, 1e-9),
                "{xa}/{na}-{xb}/{nb}: lo {}",
                d.ci.lo
            );
            assert!(
                close(d.ci.hi, hi, 1e-9),
                "{xa}/{na}-{xb}/{nb}: hi {}",
                d.ci.hi
            );
        }
    }

    #[test]
    fn excludes_zero() {
        assert!(Interval { lo: 0.01, hi: 0.2 }.excludes_zero());
        assert!(Interval {
            lo: -0.2,
            hi: -0.01
        }
        .excludes_zero());
        assert!(!Interval { lo: -0.01, hi: 0.2 }.excludes_zero());
        assert!(!Interval { lo: 0.0, hi: 0.2 }.excludes_zero());
    }

    #[test]
    fn largest_effects_sorted_by_magnitude() {
        // 64 fights per cell, so every rate and difference is exact in binary.
        let cell = |wins: u64| {
            let mut t = Tally {
                fights: 64,
                wins: [wins, 64 - wins, 0, 0],
                ..Tally::default()
            };
            t.rounds[1] = 64;
            summarize(&t, 2, 0)
        };
        // Baseline 0.5; others 0.53125, 0.25, 0.75, 0.46875. One batch per
        // cell: Newcombe intervals.
        let cells = vec![cell(32), cell(34), cell(16), cell(48), cell(30)];
        let pairs: Vec<(&Summary, &[BatchStat])> = cells.iter().map(|s| (s, &[][..])).collect();
        let comparisons = compare_all(&pairs, 0);
        assert_eq!(comparisons[1].method, Method::Independent);
        let effects = largest_effects(&cells, &comparisons, 0, 0, 3);
        let order: Vec<usize> = effects.iter().map(|e| e.cell).collect();
        // |−0.25| ties |+0.25|: lower cell first; ±0.03125 could be noise
        // (their intervals include zero), so they are left out.
        assert_eq!(order, vec![2, 3]);
        assert_eq!(effects[0].difference.estimate, -0.25);
        assert_eq!(effects[0].win_rate, 0.25);
        assert!(effects.iter().all(|e| e.difference.ci.excludes_zero()));
        assert_eq!(largest_effects(&cells, &comparisons, 0, 0, 1).len(), 1);
        assert_eq!(
            largest_effects(&cells[..1], &comparisons[..1], 0, 0, 5),
            Vec::new()
        );
        assert_eq!(largest_effects(&cells, &comparisons, 0, 7, 5), Vec::new());
        // Another baseline: cell 3 (0.75); cell 0 is now an effect of −0.25.
        let comparisons = compare_all(&pairs, 3);
        let effects = largest_effects(&cells, &comparisons, 3, 0, 5);
        let order: Vec<usize> = effects.iter().map(|e| e.cell).collect();
        assert_eq!(order, vec![2, 4, 0, 1]);
    }

    #[test]
    fn compare_pairs_batches() {
        // Two batches of 10 fights. Cell: side 0 wins 6 then 8, rounds sums
        // 20 then 30; baseline: 5 then 5, rounds 20 then 20.
        // Win-rate differences 0.1, 0.3: mean 0.2, s = √0.02, half =
        // t(1) · s/√2 = 12.706204736 · 0.1.
        let stat = |wins: u64, rounds: u64| BatchStat {
            fights: 10,
            wins: [wins, 10 - wins, 0, 0],
            draws: 0,
            rounds,
        };
        let summary = |a: &BatchStat, b: &BatchStat| {
            let mut t = Tally {
                fights: 20,
                wins: [(a.wins[0] + b.wins[0]), 0, 0, 0],
                ..Tally::default()
            };
            t.wins[1] = 20 - t.wins[0];
            t.rounds[2] = 20;
            summarize(&t, 2, 0)
        };
        let cell = [stat(6, 20), stat(8, 30)];
        let base = [stat(5, 20), stat(5, 20)];
        let c = compare(
            &summary(&cell[0], &cell[1]),
            &cell,
            &summary(&base[0], &base[1]),
            &base,
        );
        assert_eq!(c.method, Method::BatchMeans { batches: 2 });
        assert!(close(c.win_rates[0].estimate, 0.2, 1e-12));
        assert!(close(
            batch_means::half_width(&c.win_rates[0].ci),
            12.706_204_736 * 0.1,
            1e-9
        ));
        assert!(close(c.win_rates[1].estimate, -0.2, 1e-12));
        // Rounds: 2 − 2 then 3 − 2: mean 0.5.
        assert!(close(c.rounds_mean.estimate, 0.5, 1e-12));
    }

    #[test]
    fn welch_by_hand() {
        // a: 2 fights of 1 round, 2 of 3 (mean 2, var 4/3); b: 4 of 2 rounds.
        // Var of the difference: (4/3)/4 + 0 = 1/3; half = z · √(1/3).
        let mut ta = Tally {
            fights: 4,
            ..Tally::default()
        };
        ta.rounds[1] = 2;
        ta.rounds[3] = 2;
        let mut tb = Tally {
            fights: 4,
            ..Tally::default()
        };
        tb.rounds[2] = 4;
        let d = welch(&summarize(&ta, 2, 0), &summarize(&tb, 2, 0));
        assert_eq!(d.estimate, 0.0);
        assert!(close(d.ci.hi, Z95 * (1.0f64 / 3.0).sqrt(), 1e-12));
        // One cell's own mean: var 4/3 over 4 fights, half = z · √(1/3).
        let a = summarize(&ta, 2, 0);
        assert!(close(
            rounds_mean_half_width(&a),
            Z95 * (1.0f64 / 3.0).sqrt(),
            1e-12
        ));
        assert_eq!(
            rounds_mean_half_width(&summarize(&Tally::default(), 2, 0)),
            f64::INFINITY
        );
    }

    #[test]
    fn precision_target() {
        let mut t = Tally {
            fights: 10_000,
            wins: [5_000, 5_000, 0, 0],
            ..Tally::default()
        };
        t.rounds[1] = 10_000;
        let s = summarize(&t, 2, 0);
        // Wilson half-width at 5000/10000: ≈ 1.96 · 0.005 = 0.0098.
        let flat = Comparison {
            win_rates: vec![
                Difference {
                    estimate: 0.0,
                    ci: Interval { lo: 0.0, hi: 0.0 }
                };
                2
            ],
            rounds_mean: Difference {
                estimate: 0.0,
                ci: Interval { lo: 0.0, hi: 0.0 },
            },
            method: Method::BatchMeans { batches: 3 },
        };
        assert!(precise_enough(&s, &flat, 0.01));
        assert!(!precise_enough(&s, &flat, 0.009));
        let mut wide = flat.clone();
        wide.win_rates[1].ci = Interval { lo: -0.03, hi: 0.0 };
        assert!(!precise_enough(&s, &wide, 0.01));
    }
}
