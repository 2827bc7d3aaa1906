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
    /// A decided fight won by the side that wins most, as long as the
    /// median decided fight (the first with the length closest to it if
    /// none is); a draw only when draws are most of the cell's fights (more
    /// than half) or no fight is decided. See [`typical_note`] for when
    /// such a fight stands for less than half the cell.
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
            let typical = typical_winner(tally, n);
            let median = match typical {
                Some(_) => median_rounds(&decided_lengths(tally)),
                None => median_rounds(tally),
            };
            Ok(scan(&mut |o| {
                (o.winner == typical).then(|| (o.rounds as u64).abs_diff(median))
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

/// The outcome a typical fight of a cell has (`tally`, `n` sides): won by
/// the side that wins most (ties to the first), unless no fight is decided
/// or draws are the norm (more than half the fights), then a draw. A cell
/// that draws most of its fights at the round cap shows such a draw; one
/// where draws are many but not most still shows how its fights are won.
fn typical_winner(tally: &Tally, n: usize) -> Option<u8> {
    let favourite = (0..n).max_by_key(|&s| (tally.wins[s], std::cmp::Reverse(s)))?;
    let draws_the_norm = tally.draws.saturating_mul(2) > tally.fights;
    (tally.wins[favourite] > 0 && !draws_the_norm).then_some(favourite as u8)
}

/// How far the typical fight of a cell (`tally`; `sides`: the scenario's
/// side names) stands for the cell, when it stands for less than half of
/// its fights or is a draw: a sentence for the reader, or `None` when the
/// typical fight's outcome is most of the cell's.
pub fn typical_note(tally: &Tally, sides: &[String]) -> Option<String> {
    let fights = tally.fights;
    if fights == 0 {
        return None;
    }
    let decided = fights - tally.draws.min(fights);
    match typical_winner(tally, sides.len()) {
        None if decided == 0 => Some(format!(
            "Every one of this cell's {fights} fights is a draw, so this one is too."
        )),
        None => Some(format!(
            "Draws are most of this cell's fights ({} of {fights}), so this one is a draw; \
             {decided} are decided (the upset below, or `--pick longest` and \
             `--pick shortest`, show decided ones when there are any).",
            tally.draws
        )),
        Some(s) => {
            let wins = tally.wins[s as usize];
            let side = sides.get(s as usize).map_or("?", String::as_str);
            (wins.saturating_mul(2) < fights).then(|| {
                format!(
                    "Not most of the cell's fights: {side}, the side that wins most, wins \
             {wins} of its {fights} fights; {} are draws and the rest are won by \
             other sides. This fight shows how {side} wins, not how most fights end.",
                    tally.draws
                )
            })
        }
    }
}

/// The tally's fight lengths without its draws: the draws are taken from the
/// longest length first, where the round cap puts them (a draw with nobody
/// standing, which can end sooner, is rare enough not to move a median).
fn decided_lengths(tally: &Tally) -> Tally {
    let mut decided = tally.clone();
    let mut draws = tally.draws;
    for r in decided.rounds.iter_mut().rev() {
        let taken = draws.min(*r);
        *r -= taken;
        draws -= taken;
        if draws == 0 {
            break;
        }
    }
    decided.fights = tally.fights - (tally.draws - draws);
    decided
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
    fn a_typical_fight_is_decided_unless_draws_are_most() {
        let mut t = Tally {
            fights: 10,
            draws: 5,
            ..Tally::default()
        };
        t.wins[0] = 3;
        t.wins[1] = 2;
        // Half draws is not most: red's wins are shown.
        assert_eq!(typical_winner(&t, 2), Some(0));
        t.draws = 6;
        t.wins[0] = 2;
        assert_eq!(typical_winner(&t, 2), None);
        t.draws = 10;
        t.wins = [0; crate::engine::MAX_SIDES];
        assert_eq!(typical_winner(&t, 2), None);
    }

    #[test]
    fn decided_lengths_leave_out_the_draws_at_the_cap() {
        // Decided in 2, 3 and 4 rounds; three draws at a cap of 60.
        let mut t = Tally {
            fights: 6,
            draws: 3,
            ..Tally::default()
        };
        t.rounds[2] = 1;
        t.rounds[3] = 1;
        t.rounds[4] = 1;
        t.rounds[60] = 3;
        assert_eq!(median_rounds(&t), 4);
        let d = decided_lengths(&t);
        assert_eq!(d.fights, 3);
        assert_eq!(median_rounds(&d), 3);
    }

    #[test]
    fn picks_have_names() {
        for p in Pick::ALL {
            assert_eq!(Pick::parse(p.name()), Some(p));
        }
        assert_eq!(Pick::parse("random"), None);
    }
}
