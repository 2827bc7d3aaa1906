//! The search behind `skirmish balance`: find where a win rate crosses a
//! target along a numeric axis (a unit count, hit points, a bonus, a
//! distance), given a probe function `value → win rate`.
//!
//! Pure: the caller's probe runs the simulation; this module only decides
//! which values to probe, in an order that depends on nothing but the
//! probes' results, so a deterministic probe gives a deterministic search.
//!
//! The win rate is assumed monotone in the value (increasing or decreasing;
//! the two ends tell which). A probe is *below* when its win rate is less
//! than the target. The ends must be on different sides of the target
//! (otherwise the target is unreachable in the bracket); the search then
//! bisects, keeping one end below and one not, until the ends are adjacent
//! integers or (on reals) at most the tolerance apart. With Monte Carlo noise
//! near the crossing, the answer is a bracket whose ends' win rates are on
//! either side of the target as measured, each with its 95% interval.

use super::Proportion;

/// How the axis is searched.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Domain {
    /// Whole numbers: bisect until the bracket is two adjacent integers.
    Integers,
    /// Real numbers: bisect until the bracket is at most this wide (> 0).
    Reals { tolerance: f64 },
}

/// One probe: the value tried and the win rate measured there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Probe {
    pub value: f64,
    pub rate: Proportion,
}

/// A finished search.
#[derive(Clone, Debug, PartialEq)]
pub struct Crossing {
    /// Every probe, in the order it was made (the two ends first).
    pub probes: Vec<Probe>,
    /// Index in `probes` of the bracket's lower value.
    pub lower: usize,
    /// Index in `probes` of the bracket's upper value.
    pub upper: usize,
    /// Where the straight line between the bracket's two win rates meets the
    /// target: an estimate of the crossing, not a measurement.
    pub estimate: f64,
}

impl Crossing {
    pub fn lower(&self) -> &Probe {
        &self.probes[self.lower]
    }

    pub fn upper(&self) -> &Probe {
        &self.probes[self.upper]
    }

    /// True when the bracket's two 95% intervals both exclude the target: the
    /// crossing lies inside the bracket beyond reasonable doubt (given
    /// monotonicity), not merely by the luck of the sample.
    pub fn resolved(&self, target: f64) -> bool {
        let outside = |p: &Probe| p.rate.ci.hi < target || p.rate.ci.lo > target;
        outside(self.lower()) && outside(self.upper())
    }
}

impl Crossing {
    /// True when every probe's win rate lies within the noise of every
    /// other's: the 95% interval of the difference between the highest and
    /// the lowest (Newcombe's, for independent samples: conservative under
    /// common random numbers) includes zero. The value then does not
    /// measurably move the win rate over the range searched, and a
    /// "crossing" would be where the noise happened to cross the target.
    pub fn within_noise(&self) -> bool {
        let by_rate = |a: &&Probe, b: &&Probe| a.rate.estimate.total_cmp(&b.rate.estimate);
        let (Some(lo), Some(hi)) = (
            self.probes.iter().min_by(by_rate),
            self.probes.iter().max_by(by_rate),
        ) else {
            return true;
        };
        let d = super::newcombe(&hi.rate, &lo.rate);
        d.ci.lo <= 0.0
    }
}

/// Why a search failed.
#[derive(Debug, PartialEq)]
pub enum SearchError<E> {
    /// The probe function failed (e.g. the value makes the scenario invalid).
    Probe(E),
    /// The win rates at both ends are on the same side of the target.
    Unreachable { from: Probe, to: Probe },
    /// The bounds are not `from < to` finite numbers (integers on
    /// [`Domain::Integers`]), or the tolerance is not positive.
    BadBounds(String),
}

/// Search `[from, to]` for where `probe`'s win rate crosses `target`.
pub fn search<E>(
    from: f64,
    to: f64,
    domain: Domain,
    target: f64,
    mut probe: impl FnMut(f64) -> Result<Proportion, E>,
) -> Result<Crossing, SearchError<E>> {
    check_bounds(from, to, domain).map_err(SearchError::BadBounds)?;
    let mut probes: Vec<Probe> = Vec::new();
    let mut run = |value: f64, probes: &mut Vec<Probe>| -> Result<usize, SearchError<E>> {
        let rate = probe(value).map_err(SearchError::Probe)?;
        probes.push(Probe { value, rate });
        Ok(probes.len() - 1)
    };
    let below = |p: &Probe| p.rate.estimate < target;
    let mut lo = run(from, &mut probes)?;
    let mut hi = run(to, &mut probes)?;
    if below(&probes[lo]) == below(&probes[hi]) {
        return Err(SearchError::Unreachable {
            from: probes[lo],
            to: probes[hi],
        });
    }
    while let Some(mid) = midpoint(probes[lo].value, probes[hi].value, domain) {
        let m = run(mid, &mut probes)?;
        if below(&probes[m]) == below(&probes[lo]) {
            lo = m;
        } else {
            hi = m;
        }
    }
    let (a, b) = (&probes[lo], &probes[hi]);
    let slope = b.rate.estimate - a.rate.estimate;
    // The ends are on opposite sides of the target, so the slope is nonzero
    // unless both sit exactly on it (then either end is the answer).
    let estimate = if slope == 0.0 {
        a.value
    } else {
        a.value + (target - a.rate.estimate) / slope * (b.value - a.value)
    };
    Ok(Crossing {
        probes,
        lower: lo,
        upper: hi,
        estimate,
    })
}

/// The most probes a search of `[from, to]` can make (the two ends plus the
/// bisection steps), e.g. for a progress bar.
pub fn max_probes(from: f64, to: f64, domain: Domain) -> u64 {
    let width = to - from;
    let steps = match domain {
        Domain::Integers => width.max(1.0).log2().ceil(),
        Domain::Reals { tolerance } => (width / tolerance).max(1.0).log2().ceil(),
    };
    2 + steps.clamp(0.0, 1e6) as u64
}

/// Checks that `[from, to]` is a bracket the search can work on.
pub fn check_bounds(from: f64, to: f64, domain: Domain) -> Result<(), String> {
    if !from.is_finite() || !to.is_finite() {
        return Err(format!(
            "the bounds must be finite numbers, found {from} and {to}"
        ));
    }
    if from >= to {
        return Err(format!(
            "the lower bound must be less than the upper bound, found {from} and {to}"
        ));
    }
    match domain {
        Domain::Integers => {
            if from.fract() != 0.0 || to.fract() != 0.0 {
                return Err(format!(
                    "an integer axis needs integer bounds, found {from} and {to}"
                ));
            }
        }
        Domain::Reals { tolerance } => {
            if !(tolerance > 0.0 && tolerance.is_finite()) {
                return Err(format!(
                    "the tolerance must be a positive number, found {tolerance}"
                ));
            }
        }
    }
    Ok(())
}

/// The next value to probe between the bracket's ends, or `None` when the
/// bracket is as narrow as the domain asks.
fn midpoint(lo: f64, hi: f64, domain: Domain) -> Option<f64> {
    let (a, b) = if lo < hi { (lo, hi) } else { (hi, lo) };
    match domain {
        Domain::Integers => (b - a > 1.0).then(|| (a + (b - a) / 2.0).floor()),
        Domain::Reals { tolerance } => {
            let mid = a + (b - a) / 2.0;
            // Also stop when the floats cannot be split any further.
            (b - a > tolerance && mid > a && mid < b).then_some(mid)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::proportion;

    /// A noiseless win rate as a proportion of 10 000 fights.
    fn rate(p: f64) -> Result<Proportion, ()> {
        Ok(proportion(
            (p.clamp(0.0, 1.0) * 10_000.0).round() as u64,
            10_000,
        ))
    }

    #[test]
    fn integer_bisection_finds_the_adjacent_pair() {
        // Win rate 0.1 per unit: crosses 0.45 between 4 (0.4) and 5 (0.5).
        let c = search(0.0, 10.0, Domain::Integers, 0.45, |v| rate(v / 10.0)).unwrap();
        assert_eq!((c.lower().value, c.upper().value), (4.0, 5.0));
        assert!((c.estimate - 4.5).abs() < 1e-9, "{}", c.estimate);
        // Ends first, then bisection: 0, 10, 5, 2, 3, 4.
        let order: Vec<f64> = c.probes.iter().map(|p| p.value).collect();
        assert_eq!(order, [0.0, 10.0, 5.0, 2.0, 3.0, 4.0]);
        assert!(c.probes.len() as u64 <= max_probes(0.0, 10.0, Domain::Integers));
    }

    #[test]
    fn integer_bisection_works_on_a_decreasing_rate() {
        let c = search(1.0, 100.0, Domain::Integers, 0.5, |v| rate(1.0 - v / 73.5)).unwrap();
        // 1 − v/73.5 ≥ 0.5 while v ≤ 36.75.
        assert_eq!((c.lower().value, c.upper().value), (36.0, 37.0));
        assert!(c.lower().rate.estimate >= 0.5 && c.upper().rate.estimate < 0.5);
        assert!((c.estimate - 36.75).abs() < 0.01, "{}", c.estimate);
    }

    #[test]
    fn adjacent_ends_need_no_bisection() {
        let c = search(2.0, 3.0, Domain::Integers, 0.5, |v| rate(v - 2.3)).unwrap();
        assert_eq!(c.probes.len(), 2);
        assert_eq!((c.lower, c.upper), (0, 1));
    }

    #[test]
    fn reals_bisect_to_the_tolerance() {
        let f = |v: f64| rate(1.0 / (1.0 + (-(v - 3.3)).exp()));
        let tolerance = 0.01;
        let c = search(0.0, 10.0, Domain::Reals { tolerance }, 0.5, f).unwrap();
        let (a, b) = (c.lower().value, c.upper().value);
        assert!((a - b).abs() <= tolerance, "{a} {b}");
        assert!(a.min(b) <= 3.3 + 1e-3 && 3.3 <= a.max(b) + 1e-3, "{a} {b}");
        assert!((c.estimate - 3.3).abs() < tolerance, "{}", c.estimate);
        assert!(c.probes.len() as u64 <= max_probes(0.0, 10.0, Domain::Reals { tolerance }));
    }

    #[test]
    fn an_unbracketed_target_is_an_error_after_probing_the_ends() {
        let mut probed = Vec::new();
        let e = search(1.0, 6.0, Domain::Integers, 0.5, |v| {
            probed.push(v);
            rate(0.6 + v / 100.0)
        })
        .unwrap_err();
        assert_eq!(probed, [1.0, 6.0]);
        match e {
            SearchError::Unreachable { from, to } => {
                assert_eq!((from.value, to.value), (1.0, 6.0));
                assert!((from.rate.estimate - 0.61).abs() < 1e-9);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn probe_errors_and_bad_bounds_stop_the_search() {
        let e = search(1.0, 9.0, Domain::Integers, 0.5, |v| {
            if v > 4.0 {
                Err("too many")
            } else {
                Ok(proportion(1, 2))
            }
        });
        assert_eq!(e.unwrap_err(), SearchError::Probe("too many"));
        for (from, to, domain) in [
            (3.0, 3.0, Domain::Integers),
            (4.0, 1.0, Domain::Integers),
            (0.5, 2.0, Domain::Integers),
            (0.0, 1.0, Domain::Reals { tolerance: 0.0 }),
            (0.0, f64::INFINITY, Domain::Reals { tolerance: 0.1 }),
        ] {
            let e = search(from, to, domain, 0.5, rate).unwrap_err();
            assert!(matches!(e, SearchError::BadBounds(_)), "{from} {to}: {e:?}");
        }
    }

    #[test]
    fn resolved_when_both_intervals_exclude_the_target() {
        let c = search(0.0, 10.0, Domain::Integers, 0.45, |v| rate(v / 10.0)).unwrap();
        assert!(c.resolved(0.45));
        let small = |v: f64| Ok::<_, ()>(proportion(if v < 5.0 { 4 } else { 6 }, 10));
        let c = search(0.0, 10.0, Domain::Integers, 0.5, small).unwrap();
        assert!(!c.resolved(0.5));
    }
}
