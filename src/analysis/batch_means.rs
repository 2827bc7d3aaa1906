//! Batch-means statistics: confidence intervals for means and for paired
//! differences between cells, computed from per-batch results.
//!
//! Every cell fights in batches; batch `b` of every cell draws the same random
//! numbers (common random numbers). A cell's difference from the baseline is
//! therefore measured batch by batch: `d_b = x_b − y_b`, where `x_b`, `y_b` are
//! the two cells' per-fight means over batch `b` (a win rate, mean rounds).
//! Batches are independent of each other, so the `d_b` are independent draws
//! and their weighted mean has a t-based interval:
//!
//! - weights `w_b = n_b / N` (`n_b` fights in batch `b`, `N = Σ n_b`; only the
//!   last batch of a run may be partial),
//! - estimate `d̄ = Σ w_b d_b` (equal to the difference of the two cells'
//!   overall means over these batches),
//! - variance `V = B/(B−1) · Σ w_b² (d_b − d̄)²`, which is `s²/B` when every
//!   batch is full,
//! - interval `d̄ ± t₀.₉₇₅(B−1) · √V`, with Student's t quantile for `B − 1`
//!   degrees of freedom ([`t975`]): with few batches the interval is wider
//!   than a normal one, as it should be.
//!
//! With fewer than 2 batches there is no spread to measure: callers fall back
//! to an interval for independent samples (see [`crate::analysis`]).
//!
//! Pure functions only: no I/O.

use super::{Difference, Interval};

/// One batch of a cell, reduced to what batch means need: the batch's fights
/// and the sum over those fights of the measured quantity (wins of a side:
/// a rate; rounds: a mean fight length).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BatchSum {
    pub fights: u64,
    pub sum: f64,
}

/// The 0.975 quantile of Student's t distribution with `df` degrees of
/// freedom (the multiplier of a two-sided 95% interval).
///
/// Exact to 9 digits from a table for `df ≤ 30`; beyond, the Cornish-Fisher
/// expansion in `1/df` around the normal quantile (error below 1e-6 at
/// `df = 31`, shrinking fast). `df = 0` has no finite quantile: infinity.
pub fn t975(df: u64) -> f64 {
    const TABLE: [f64; 30] = [
        12.706_204_736,
        4.302_652_730,
        3.182_446_305,
        2.776_445_105,
        2.570_581_836,
        2.446_911_851,
        2.364_624_252,
        2.306_004_135,
        2.262_157_163,
        2.228_138_852,
        2.200_985_160,
        2.178_812_830,
        2.160_368_656,
        2.144_786_688,
        2.131_449_546,
        2.119_905_299,
        2.109_815_578,
        2.100_922_040,
        2.093_024_054,
        2.085_963_447,
        2.079_613_845,
        2.073_873_068,
        2.068_657_610,
        2.063_898_562,
        2.059_538_553,
        2.055_529_439,
        2.051_830_516,
        2.048_407_142,
        2.045_229_642,
        2.042_272_456,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df as usize - 1],
        _ => {
            // Abramowitz & Stegun 26.7.5.
            let z = super::Z95;
            let v = df as f64;
            let (z3, z5, z7, z9) = (z.powi(3), z.powi(5), z.powi(7), z.powi(9));
            let g1 = (z3 + z) / 4.0;
            let g2 = (5.0 * z5 + 16.0 * z3 + 3.0 * z) / 96.0;
            let g3 = (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / 384.0;
            let g4 = (79.0 * z9 + 776.0 * z7 + 1482.0 * z5 - 1920.0 * z3 - 945.0 * z) / 92_160.0;
            z + g1 / v + g2 / (v * v) + g3 / v.powi(3) + g4 / v.powi(4)
        }
    }
}

/// The weighted batch-means estimate and 95% interval of `Σ sum / Σ fights`
/// over `batches`; `None` with fewer than 2 non-empty batches.
pub fn mean(batches: &[BatchSum]) -> Option<Difference> {
    let pairs: Vec<(u64, f64)> = batches
        .iter()
        .filter(|b| b.fights > 0)
        .map(|b| (b.fights, b.sum / b.fights as f64))
        .collect();
    weighted(&pairs)
}

/// The paired difference `a − b` of two cells' per-fight means with its 95%
/// batch-means interval, over the batches both ran (`a[i]` and `b[i]` must be
/// the same batch index, so they shared random numbers; extra batches of
/// either are ignored). `None` with fewer than 2 common non-empty batches.
///
/// A batch where the two cells fought different numbers of fights (never the
/// case in a run) is weighted by the smaller.
pub fn paired_difference(a: &[BatchSum], b: &[BatchSum]) -> Option<Difference> {
    let pairs: Vec<(u64, f64)> = a
        .iter()
        .zip(b)
        .filter(|(x, y)| x.fights > 0 && y.fights > 0)
        .map(|(x, y)| {
            (
                x.fights.min(y.fights),
                x.sum / x.fights as f64 - y.sum / y.fights as f64,
            )
        })
        .collect();
    weighted(&pairs)
}

/// Weighted mean of `(weight, value)` pairs with the batch-means interval.
fn weighted(pairs: &[(u64, f64)]) -> Option<Difference> {
    let batches = pairs.len() as u64;
    if batches < 2 {
        return None;
    }
    let total: f64 = pairs.iter().map(|&(n, _)| n as f64).sum();
    let estimate: f64 = pairs.iter().map(|&(n, v)| n as f64 / total * v).sum();
    let spread: f64 = pairs
        .iter()
        .map(|&(n, v)| {
            let w = n as f64 / total;
            w * w * (v - estimate) * (v - estimate)
        })
        .sum();
    let variance = batches as f64 / (batches - 1) as f64 * spread;
    let half = t975(batches - 1) * variance.sqrt();
    Some(Difference {
        estimate,
        ci: Interval {
            lo: estimate - half,
            hi: estimate + half,
        },
    })
}

/// Half the width of an interval.
pub fn half_width(ci: &Interval) -> f64 {
    (ci.hi - ci.lo) / 2.0
}

/// How many batches a precision target asks for next: `have` batches gave a
/// widest 95% half-width of `widest`; half-widths shrink like 1/√batches,
/// so aim at `target`, adding at least `step` batches and never passing
/// `cap` (all of `cap` when the widest is not finite). Shared by `run
/// --precision` and `tactics --precision`.
pub fn batches_for(have: u64, widest: f64, target: f64, cap: u64, step: u64) -> u64 {
    let ratio = (widest / target).powi(2);
    let aim = if ratio.is_finite() {
        (have as f64 * ratio).ceil().min(cap as f64) as u64
    } else {
        cap
    };
    aim.max(have + step).min(cap)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn t_quantiles() {
        // Table values (any statistics textbook; R: qt(0.975, df)).
        assert_eq!(t975(1), 12.706_204_736);
        assert_eq!(t975(10), 2.228_138_852);
        assert_eq!(t975(30), 2.042_272_456);
        assert_eq!(t975(0), f64::INFINITY);
        // The expansion beyond the table, against qt(0.975, df) in R.
        for (df, expected) in [
            (31, 2.039_513_446),
            (40, 2.021_075_390),
            (60, 2.000_297_822),
            (120, 1.979_930_405),
            (1000, 1.962_339_081),
        ] {
            assert!(close(t975(df), expected, 2e-6), "df {df}: {}", t975(df));
        }
        // Decreasing towards the normal quantile.
        assert!(t975(30) > t975(31) && t975(31) > t975(32));
        assert!(close(t975(1_000_000), super::super::Z95, 1e-5));
    }

    #[test]
    fn mean_of_equal_batches_by_hand() {
        // Per-batch means 0.5, 0.6, 0.7, 0.6 over 10 fights each:
        // mean 0.6, s² = (0.01 + 0 + 0.01 + 0) / 3 = 0.02/3,
        // s/√4 = √(0.02/3)/2 = 0.040824829, × t(3) = 3.182446305 → 0.129923.
        let b = |sum| BatchSum { fights: 10, sum };
        let m = mean(&[b(5.0), b(6.0), b(7.0), b(6.0)]).unwrap();
        assert!(close(m.estimate, 0.6, 1e-12));
        let half = 3.182_446_305 * (0.02f64 / 3.0).sqrt() / 2.0;
        assert!(close(m.ci.hi - m.estimate, half, 1e-12));
        assert!(close(m.estimate - m.ci.lo, half, 1e-12));
        assert!(close(half, 0.129_923_0, 1e-6));
    }

    #[test]
    fn weights_follow_fights() {
        // Batches of 30 and 10 fights with means 0.2 and 0.6: the estimate is
        // the overall mean (6 + 6) / 40 = 0.3, not the plain mean 0.4.
        // w = 0.75, 0.25; V = 2 · (0.75² · 0.1² + 0.25² · 0.3²) = 0.0225;
        // half = t(1) · √V = 12.706204736 · 0.15 = 1.905931.
        let m = mean(&[
            BatchSum {
                fights: 30,
                sum: 6.0,
            },
            BatchSum {
                fights: 10,
                sum: 6.0,
            },
        ])
        .unwrap();
        assert!(close(m.estimate, 0.3, 1e-12));
        assert!(close(half_width(&m.ci), 12.706_204_736 * 0.15, 1e-12));
    }

    #[test]
    fn paired_difference_by_hand() {
        // Cell a wins 6, 6, 7 of 10; the baseline 4, 4, 4 (its fourth batch
        // has no partner and is ignored): d = 0.2, 0.2, 0.3. Mean 0.7/3,
        // s = 0.1/√3, half = t(2) · s/√3 = 4.302652730 · 0.1/3 = 0.143422.
        let b = |sum| BatchSum { fights: 10, sum };
        let a = [b(6.0), b(6.0), b(7.0)];
        let base = [b(4.0), b(4.0), b(4.0), b(9.0)];
        let d = paired_difference(&a, &base).unwrap();
        assert!(close(d.estimate, 0.7 / 3.0, 1e-12));
        assert!(close(half_width(&d.ci), 4.302_652_730 * 0.1 / 3.0, 1e-12));
        assert!(d.ci.excludes_zero());
        // Identical cells: a difference of exactly 0 with no spread.
        let same = paired_difference(&a, &a).unwrap();
        assert_eq!(same.estimate, 0.0);
        assert_eq!(same.ci, Interval { lo: 0.0, hi: 0.0 });
        assert!(!same.ci.excludes_zero());
    }

    #[test]
    fn too_few_batches() {
        let b = BatchSum {
            fights: 10,
            sum: 3.0,
        };
        assert_eq!(mean(&[b]), None);
        assert_eq!(mean(&[]), None);
        assert_eq!(paired_difference(&[b, b], &[b]), None);
        let empty = BatchSum {
            fights: 0,
            sum: 0.0,
        };
        assert_eq!(mean(&[b, empty]), None);
    }
}
