//! Picking a fight worth watching from a cell's fights: a typical one, an
//! upset, the longest or the shortest. What to look for comes from the
//! cell's tally; the fight is then the first one (lowest number) that fits,
//! found by fighting the cell's fights again in order on one thread, so the
//! same fight is picked every time, at any thread count.

use crate::engine::{Outcome, Tally};
use crate::results::Streams;
use crate::run::Plan;

/// What kind of fight to pick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// Won by the most frequent outcome (a side, or a draw), as long as the
    /// median fight (the first with the length closest to it if none is).
    Typical,
    /// Won by a side that wins less often than the favourite (with several
    /// underdogs, the one that wins least, but at least once).
    Upset,
    /// The longest fight.
    Longest,
    /// The shortest fight.
    Shortest,
}

impl Pick {
    /// Every choice, in the order of [`Pick::NAMES`].
    pub const ALL: [Pick; 4] = [Pick::Typical, Pick::Upset, Pick::Longest, Pick::Shortest];
    /// The names `--pick` takes.
    pub const NAMES: [&'static str; 4] = ["typical", "upset", "longest", "shortest"];

    pub fn parse(name: &str) -> Option<Pick> {
        Self::NAMES
            .iter()
            .position(|n| *n == name)
            .map(|i| Self::ALL[i])
    }

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// Why no fight fits.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PickError {
    /// Only one side ever wins: there is no upset to show.
    #[error(
        "no upset to show: in the {fights} fights of cell {cell}, only {favourite} ever wins \
         (try --pick typical, longest or shortest, or more --fights)"
    )]
    NoUpset {
        cell: usize,
        fights: u64,
        favourite: String,
    },
}

/// The number of the first fight of `cell` that is a `which` fight, given
/// the cell's `tally` (of the run with `seed`, `streams` and batches of
/// `size`); `sides` are the scenario's side names.
#[allow(clippy::too_many_arguments)]
pub fn pick(
    plan: &Plan,
    cell: usize,
    seed: u64,
    streams: Streams,
    size: u32,
    tally: &Tally,
    sides: &[String],
    which: Pick,
) -> Result<u64, PickError> {
    let n = sides.len();
    let scan = |want: &mut dyn FnMut(Outcome) -> Option<u64>| -> u64 {
        // `want` gets each outcome and returns its distance from the ideal
        // (0: ideal, stop there), or `None` if it does not fit at all.
        let mut best: Option<(u64, u64)> = None;
        let mut k = 0u64;
        plan.scan(cell, seed, streams, size, tally.fights, &mut |outcome| {
            if let Some(d) = want(outcome) {
                if best.is_none_or(|(bd, _)| d < bd) {
                    best = Some((d, k));
                }
            }
            k += 1;
            best.is_none_or(|(d, _)| d > 0)
        });
        best.map_or(0, |(_, k)| k)
    };
    let played: Vec<usize> = (0..tally.rounds.len())
        .filter(|&r| tally.rounds[r] > 0)
        .collect();
    match which {
        Pick::Typical => {
            // The modal outcome: a side (ties to the first), or a draw if
            // draws outnumber every side's wins.
            let favourite = (0..n).max_by_key(|&s| (tally.wins[s], std::cmp::Reverse(s)));
            let modal = match favourite {
                Some(s) if tally.wins[s] >= tally.draws => Some(s as u8),
                _ => None,
            };
            let median = median_rounds(tally);
            Ok(scan(&mut |o| {
                (o.winner == modal).then(|| (o.rounds as u64).abs_diff(median))
            }))
        }
        Pick::Upset => {
            let favourite = (0..n)
                .max_by_key(|&s| (tally.wins[s], std::cmp::Reverse(s)))
                .unwrap_or(0);
            let underdog = (0..n)
                .filter(|&s| s != favourite && tally.wins[s] > 0)
                .min_by_key(|&s| (tally.wins[s], s));
            let Some(underdog) = underdog else {
                return Err(PickError::NoUpset {
                    cell,
                    fights: tally.fights,
                    favourite: sides.get(favourite).cloned().unwrap_or_default(),
                });
            };
            Ok(scan(&mut |o| {
                (o.winner == Some(underdog as u8)).then_some(0)
            }))
        }
        Pick::Longest => {
            let longest = played.last().copied().unwrap_or(0) as u32;
            Ok(scan(&mut |o| (o.rounds == longest).then_some(0)))
        }
        Pick::Shortest => {
            let shortest = played.first().copied().unwrap_or(0) as u32;
            Ok(scan(&mut |o| (o.rounds == shortest).then_some(0)))
        }
    }
}

/// The (lower) median fight length of a tally.
fn median_rounds(tally: &Tally) -> u64 {
    let half = tally.fights.div_ceil(2);
    let mut seen = 0;
    for (r, &n) in tally.rounds.iter().enumerate() {
        seen += n;
        if seen >= half && n > 0 {
            return r as u64;
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_is_the_lower_middle_fight() {
        // Lengths 1, 2, 2, 5: the lower median is 2.
        let mut t = Tally {
            fights: 4,
            ..Tally::default()
        };
        t.rounds[1] = 1;
        t.rounds[2] = 2;
        t.rounds[5] = 1;
        assert_eq!(median_rounds(&t), 2);
        // Lengths 3, 9: the lower median is 3.
        let mut t = Tally {
            fights: 2,
            ..Tally::default()
        };
        t.rounds[3] = 1;
        t.rounds[9] = 1;
        assert_eq!(median_rounds(&t), 3);
    }

    #[test]
    fn picks_have_names() {
        for p in Pick::ALL {
            assert_eq!(Pick::parse(p.name()), Some(p));
        }
        assert_eq!(Pick::parse("random"), None);
    }
}
