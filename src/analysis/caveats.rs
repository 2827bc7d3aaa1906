//! Caveats: what a designer must know before trusting a run's numbers,
//! found in the tallies alone.
//!
//! - Draws at the round cap: fights still running after `max_rounds` count
//!   as draws. Beyond a small share ([`CAP_DRAWS_NOTED`]) the win rates
//!   describe fights cut short by the cap, not the fight.
//! - Axes that change nothing: under common random numbers every cell
//!   fights batch `b` with the same dice, so a matrix axis whose values
//!   change no rule of the fight gives exactly the same tally in every
//!   cell. Identical tallies along an axis (for every combination of the
//!   other axes) are reported as "no effect: no fight changed" rather than
//!   as a difference that could be noise, as `sensitivity` does for stats.

use crate::engine::Tally;
use std::collections::HashMap;

use super::Summary;

/// Share of a cell's fights still running at the round cap above which
/// reports warn: past it, the cap and not the fight decides enough fights
/// to move a win rate by more than most intervals.
pub const CAP_DRAWS_NOTED: f64 = 0.01;

/// The cells (indices, in order) whose share of fights still running at
/// the round cap exceeds [`CAP_DRAWS_NOTED`].
pub fn cut_short(summaries: &[Summary]) -> Vec<usize> {
    summaries
        .iter()
        .enumerate()
        .filter(|(_, s)| s.draws_at_cap.estimate > CAP_DRAWS_NOTED)
        .map(|(i, _)| i)
        .collect()
}

/// The axes (indices into the cells' values) along which no tally changes:
/// every two cells that differ only in that axis have identical tallies.
/// `cells` holds each cell's axis values and tally. Meaningful only when the
/// cells shared their random numbers (the caller checks): then identical
/// tallies mean the same dice gave the same fights.
pub fn inert_axes(cells: &[(&[String], &Tally)], axes: usize) -> Vec<usize> {
    (0..axes)
        .filter(|&axis| {
            // Per combination of the other axes, the first tally seen and
            // whether a second value of this axis was seen with it.
            let mut first: HashMap<Vec<&str>, (&str, &Tally, bool)> = HashMap::new();
            let mut same = true;
            for (values, tally) in cells {
                let Some(value) = values.get(axis) else {
                    return false;
                };
                let others: Vec<&str> = values
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != axis)
                    .map(|(_, v)| v.as_str())
                    .collect();
                let entry = first.entry(others).or_insert((value, tally, false));
                if entry.0 != value {
                    entry.2 = true;
                    same &= entry.1 == *tally;
                }
            }
            same && first.values().any(|&(_, _, varied)| varied)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: u64) -> Tally {
        let mut t = Tally {
            fights: 10,
            ..Tally::default()
        };
        t.wins[0] = wins;
        t.wins[1] = 10 - wins;
        t
    }

    #[test]
    fn an_axis_is_inert_only_when_every_pair_along_it_is_identical() {
        let v = |a: &str, b: &str| vec![a.to_owned(), b.to_owned()];
        // Axis 0 (cover) changes nothing; axis 1 (crit) changes cell 1.
        let values = [
            v("none", "x"),
            v("none", "y"),
            v("half", "x"),
            v("half", "y"),
        ];
        let tallies = [tally(5), tally(6), tally(5), tally(6)];
        let cells: Vec<(&[String], &Tally)> = values
            .iter()
            .map(Vec::as_slice)
            .zip(tallies.iter())
            .collect();
        assert_eq!(inert_axes(&cells, 2), vec![0]);
        // One fight different in one pair: axis 0 has an effect after all.
        let tallies = [tally(5), tally(6), tally(5), tally(7)];
        let cells: Vec<(&[String], &Tally)> = values
            .iter()
            .map(Vec::as_slice)
            .zip(tallies.iter())
            .collect();
        assert_eq!(inert_axes(&cells, 2), Vec::<usize>::new());
    }
}
