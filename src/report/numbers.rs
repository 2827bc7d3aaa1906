//! Numbers printed for people: summary.md, diff.md and the terminal. The CSV
//! files keep their fixed decimals (see [`super::labels`]); what a person
//! reads shows as many digits as the data support and no more.
//!
//! The rule: an estimate and its interval are printed to the decimal place
//! of the interval's half-width's first significant digit, one place more
//! when that digit is 1 or 2 (so the uncertainty keeps 2 of its digits, as
//! the Particle Data Group rounds: ±0.0098 → 3 decimals, ±0.0022 → 4). A
//! difference whose interval excludes zero gets further digits, if needed,
//! until neither bound prints as zero: the table says "excludes zero", so the
//! numbers must not read `[-0.0012, 0.0000]`. Counts get thousands
//! separators (`10,000`).

use super::labels::{fixed, signed};
use crate::analysis::{Difference, Interval, Proportion};

/// Fewest decimals of a rate (a win rate is never printed as `1`).
const RATE_MIN_DECIMALS: usize = 1;
/// Most decimals anything is printed with.
const MAX_DECIMALS: usize = 6;
/// Decimals when an interval has no width (an exact value).
const EXACT_DECIMALS: usize = 4;

/// `10000` → `10,000`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Decimals that show a value with this 95% half-width: the place of the
/// half-width's first significant digit, one more when that digit is 1 or
/// 2; within `min..=MAX_DECIMALS`. An exact value (half-width 0 or not
/// finite) gets [`EXACT_DECIMALS`].
pub fn decimals_for(half_width: f64, min: usize) -> usize {
    // Below 1e-9 the width is rounding error of an exact value (batches
    // that all differ by the same amount).
    if !(half_width.is_finite() && half_width > 1e-9) {
        return EXACT_DECIMALS.max(min);
    }
    let place = half_width.log10().floor();
    let leading = half_width / 10f64.powf(place);
    // 0.3 / 0.1 is 2.9999999999999996 in floating point: not a 2.
    let extra = if leading < 3.0 - 1e-9 { 1.0 } else { 0.0 };
    let decimals = (extra - place).max(0.0) as usize;
    decimals.clamp(min, MAX_DECIMALS)
}

/// Half the width of an interval.
fn half(ci: &Interval) -> f64 {
    (ci.hi - ci.lo) / 2.0
}

/// Decimals of a rate with this interval.
pub fn rate_decimals(ci: &Interval) -> usize {
    decimals_for(half(ci), RATE_MIN_DECIMALS)
}

/// A rate to the precision of its interval: `0.512`.
pub fn rate(estimate: f64, ci: &Interval) -> String {
    fixed(estimate, decimals_for(half(ci), RATE_MIN_DECIMALS))
}

/// A share of fights: `0` or `1` when none or all of them (draws in a
/// scenario where no fight reaches the round cap), otherwise [`rate`].
pub fn share(p: &Proportion) -> String {
    if p.count == 0 {
        "0".to_owned()
    } else if p.count == p.trials {
        "1".to_owned()
    } else {
        rate(p.estimate, &p.ci)
    }
}

/// A rate and its interval: `0.512 [0.503, 0.522]`.
pub fn rate_with_interval(estimate: f64, ci: &Interval) -> String {
    let d = decimals_for(half(ci), RATE_MIN_DECIMALS);
    format!(
        "{} [{}, {}]",
        fixed(estimate, d),
        fixed(ci.lo, d),
        fixed(ci.hi, d)
    )
}

/// Decimals of a difference: those of its interval, more if a bound of an
/// interval that excludes zero would otherwise print as zero.
fn difference_decimals(d: &Difference) -> usize {
    let mut decimals = decimals_for(half(&d.ci), RATE_MIN_DECIMALS);
    if d.ci.excludes_zero() {
        let nearest = d.ci.lo.abs().min(d.ci.hi.abs());
        while decimals < MAX_DECIMALS && nearest < 0.5 * 10f64.powi(-(decimals as i32)) {
            decimals += 1;
        }
    }
    decimals
}

/// A signed difference: `+0.031`.
pub fn difference(d: &Difference) -> String {
    signed(d.estimate, difference_decimals(d))
}

/// A difference's interval: `[+0.020, +0.042]`.
pub fn difference_interval(d: &Difference) -> String {
    let decimals = difference_decimals(d);
    format!(
        "[{}, {}]",
        signed(d.ci.lo, decimals),
        signed(d.ci.hi, decimals)
    )
}

/// A mean with the 95% half-width of its estimate: `4.12` (±0.06).
pub fn mean(value: f64, half_width: f64) -> String {
    fixed(value, decimals_for(half_width, 0))
}

/// An exact probability known within `error` (absolutely), for people:
/// `decimals` decimals, more (up to `most`) while it would print as 0 or 1
/// though it is not, beyond its error: `0.4930`, `0.000031`, `0.99997`.
pub fn exact(value: f64, error: f64, decimals: usize, most: usize) -> String {
    fixed(value, exact_decimals(value, error, decimals, most))
}

/// [`exact`] with a sign: a difference of exact values (`error` the bound
/// of the difference).
pub fn exact_difference(value: f64, error: f64, decimals: usize, most: usize) -> String {
    signed(value, exact_decimals(value, error, decimals, most))
}

fn exact_decimals(value: f64, error: f64, decimals: usize, most: usize) -> usize {
    let noise = 10.0 * error;
    let mut d = decimals;
    while d < most {
        let place = 0.5 * 10f64.powi(-(d as i32));
        let zero = value.abs() < place && value.abs() > noise;
        let one = (1.0 - value).abs() < place && (1.0 - value).abs() > noise;
        if !(zero || one) {
            break;
        }
        d += 1;
    }
    d
}

/// Decimals an exact value with absolute error at most `error` is good to:
/// the most, up to 12, whose last digit is at least ten times the error.
pub fn decimals_good_to(error: f64) -> usize {
    (1..=12)
        .rev()
        .find(|&d| 10f64.powi(-(d as i32)) >= 10.0 * error)
        .unwrap_or(1)
}

/// A small positive number as `3.5e-13` (two significant digits).
pub fn scientific(x: f64) -> String {
    format!("{x:.1e}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::proportion;

    fn d(estimate: f64, lo: f64, hi: f64) -> Difference {
        Difference {
            estimate,
            ci: Interval { lo, hi },
        }
    }

    #[test]
    fn counts_are_grouped() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(10_000), "10,000");
        assert_eq!(grouped(1_234_567), "1,234,567");
    }

    #[test]
    fn decimals_follow_the_uncertainty() {
        // 10,000 fights at 0.5: ±0.0098 → 3 decimals.
        assert_eq!(decimals_for(0.0098, 1), 3);
        // 200,000 fights: ±0.0022 → the 2 keeps a second digit: 4.
        assert_eq!(decimals_for(0.0022, 1), 4);
        assert_eq!(decimals_for(0.035, 1), 2);
        assert_eq!(decimals_for(0.3, 1), 1);
        assert_eq!(decimals_for(3.0, 0), 0);
        assert_eq!(decimals_for(1e-7, 0), MAX_DECIMALS);
        assert_eq!(decimals_for(1e-17, 0), EXACT_DECIMALS);
        assert_eq!(decimals_for(0.0, 1), EXACT_DECIMALS);
        assert_eq!(decimals_for(f64::INFINITY, 1), EXACT_DECIMALS);
    }

    #[test]
    fn rates_print_what_the_interval_supports() {
        let ci = Interval {
            lo: 0.502_51,
            hi: 0.522_11,
        };
        assert_eq!(rate_with_interval(0.512_34, &ci), "0.512 [0.503, 0.522]");
        assert_eq!(rate(0.512_34, &ci), "0.512");
        // No wins in 10,000: the Wilson upper bound 0.00038 must not print
        // as 0.
        let none = Interval {
            lo: 0.0,
            hi: 0.000_384,
        };
        assert_eq!(rate_with_interval(0.0, &none), "0.00000 [0.00000, 0.00038]");
    }

    #[test]
    fn an_interval_that_excludes_zero_never_prints_a_zero_bound() {
        // The case from issue 17: [-0.0012, 0.0000] for a difference the
        // table lists as excluding zero.
        let tiny = d(-0.000_63, -0.001_23, -0.000_03);
        assert_eq!(difference(&tiny), "-0.00063");
        assert_eq!(difference_interval(&tiny), "[-0.00123, -0.00003]");
        // An ordinary one: 3 decimals, signs on both bounds.
        let usual = d(0.031_2, 0.020_4, 0.042_0);
        assert_eq!(difference(&usual), "+0.031");
        assert_eq!(difference_interval(&usual), "[+0.020, +0.042]");
        // An interval that includes zero may show it.
        let noise = d(0.001, -0.008, 0.010);
        assert_eq!(difference_interval(&noise), "[-0.008, +0.010]");
    }

    #[test]
    fn shares_of_none_or_all_are_exact() {
        assert_eq!(share(&proportion(0, 20_000)), "0");
        assert_eq!(share(&proportion(20_000, 20_000)), "1");
        assert_eq!(share(&proportion(5_000, 10_000)), "0.500");
    }

    #[test]
    fn exact_values_never_print_as_zero_or_one_when_they_are_not() {
        assert_eq!(exact(0.493_012_345, 1e-15, 4, 12), "0.4930");
        assert_eq!(exact(0.000_031_2, 1e-15, 4, 12), "0.00003");
        assert_eq!(exact(0.999_97, 1e-15, 4, 12), "0.99997");
        // Zero within its error is printed as zero.
        assert_eq!(exact(1e-16, 1e-15, 4, 12), "0.0000");
        assert_eq!(exact(1.0, 1e-15, 4, 12), "1.0000");
        assert_eq!(exact_difference(-0.000_004, 1e-15, 4, 12), "-0.000004");
        assert_eq!(exact_difference(0.0123, 1e-15, 4, 12), "+0.0123");
    }

    #[test]
    fn means() {
        assert_eq!(mean(4.123_45, 0.06), "4.12");
        assert_eq!(mean(4.123_45, 0.5), "4.1");
        assert_eq!(mean(37.4, 3.0), "37");
    }
}
