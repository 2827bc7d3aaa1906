//! Sums of probabilities and expectations, with a bound on their rounding.
//!
//! Every number the exact engine adds is non-negative (a probability, or a
//! probability times a count), so the rounding of a value can be bounded by
//! counting roundings: a value computed with at most `k` roundings, each of
//! relative error at most `u` = 2^-53, is within `γ(k) = k·u / (1 − k·u)`
//! of its exact value, relatively (Higham, *Accuracy and Stability of
//! Numerical Algorithms*, §3.1; sums of non-negative terms, §4.2). The
//! engine carries such a `k` with every probability it holds; the totals it
//! reports are Neumaier sums (compensated: their own rounding adds `2u`,
//! whatever the number of terms) of terms whose `k` it keeps the largest of.

/// The unit roundoff of `f64`.
pub const UNIT_ROUNDOFF: f64 = f64::EPSILON / 2.0;

/// `γ(k)`: the relative error bound of a value computed with `k` roundings.
pub fn gamma(k: u64) -> f64 {
    let ku = k as f64 * UNIT_ROUNDOFF;
    if ku >= 1.0 {
        f64::INFINITY
    } else {
        ku / (1.0 - ku)
    }
}

/// A compensated sum (Neumaier's variant of Kahan's).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sum {
    sum: f64,
    compensation: f64,
}

impl Sum {
    #[inline]
    pub fn add(&mut self, x: f64) {
        let t = self.sum + x;
        if self.sum.abs() >= x.abs() {
            self.compensation += (self.sum - t) + x;
        } else {
            self.compensation += (x - t) + self.sum;
        }
        self.sum = t;
    }

    /// Add another sum.
    pub fn add_sum(&mut self, other: &Sum) {
        self.add(other.sum);
        self.add(other.compensation);
    }

    pub fn value(&self) -> f64 {
        self.sum + self.compensation
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compensated_sum_of_many_small_terms_is_exact_where_plain_sum_is_not() {
        let mut s = Sum::default();
        let mut plain = 0.0;
        s.add(1.0);
        plain += 1.0;
        for _ in 0..1_000_000 {
            s.add(1e-17);
            plain += 1e-17;
        }
        assert_eq!(plain, 1.0, "each term is lost in a plain sum");
        assert!((s.value() - (1.0 + 1e-11)).abs() <= 2.0 * UNIT_ROUNDOFF * 1.0);
    }

    #[test]
    fn gamma_grows_with_roundings() {
        assert_eq!(gamma(0), 0.0);
        assert!(gamma(10) > 10.0 * UNIT_ROUNDOFF);
        assert!(gamma(10) < 10.0001 * UNIT_ROUNDOFF);
        assert!(gamma(u64::MAX).is_infinite());
    }
}
