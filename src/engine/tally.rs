//! Integer tallies of finished fights.
//!
//! A [`Tally`] is what the kernel produces: counts and sums only, no floats, so
//! merging tallies with `+=` is associative and commutative and the order in
//! which rayon reduces batches can never change a result. Everything a report
//! shows (rates, intervals, means, quantiles) is derived from it by the pure
//! `analysis` layer.

use std::ops::AddAssign;

/// Most sides a scenario may have.
pub const MAX_SIDES: usize = 4;
/// Largest `max_rounds` a scenario may ask for; the fight-length histogram has
/// one bin per round up to this cap.
pub const MAX_ROUNDS: usize = 1000;
/// Most ruleset-specific counters (crits, deaths, panics, ...) a ruleset may keep.
pub const MAX_COUNTERS: usize = 16;

/// Counts over a set of fights of one cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally {
    /// Fights tallied.
    pub fights: u64,
    /// Fights won, per side (index = side in scenario order).
    pub wins: [u64; MAX_SIDES],
    /// Fights no side won: still running at the round cap, or with no side
    /// standing.
    pub draws: u64,
    /// Of the `draws`, the fights still running at the round cap (with two
    /// or more sides standing): a draw that only says `max_rounds` was too
    /// low for this fight, which reports warn about.
    pub draws_at_cap: u64,
    /// Fight-length histogram: `rounds[r]` = fights that lasted `r` rounds.
    pub rounds: [u64; MAX_ROUNDS + 1],
    /// Sum over fights of the units of each side still standing at the end.
    pub survivors: [u64; MAX_SIDES],
    /// Sum over fights of the harm each side dealt (hit points removed, or the
    /// ruleset's own harm unit; see the ruleset's docs).
    pub damage: [u64; MAX_SIDES],
    /// Sums of the ruleset's own counters, in the order of `Ruleset::COUNTERS`.
    pub counters: [u64; MAX_COUNTERS],
}

impl Default for Tally {
    fn default() -> Self {
        Tally {
            fights: 0,
            wins: [0; MAX_SIDES],
            draws: 0,
            draws_at_cap: 0,
            rounds: [0; MAX_ROUNDS + 1],
            survivors: [0; MAX_SIDES],
            damage: [0; MAX_SIDES],
            counters: [0; MAX_COUNTERS],
        }
    }
}

impl AddAssign<&Tally> for Tally {
    fn add_assign(&mut self, other: &Tally) {
        self.fights += other.fights;
        self.draws += other.draws;
        self.draws_at_cap += other.draws_at_cap;
        add_all(&mut self.wins, &other.wins);
        add_all(&mut self.rounds, &other.rounds);
        add_all(&mut self.survivors, &other.survivors);
        add_all(&mut self.damage, &other.damage);
        add_all(&mut self.counters, &other.counters);
    }
}

impl AddAssign for Tally {
    fn add_assign(&mut self, other: Tally) {
        *self += &other;
    }
}

fn add_all(into: &mut [u64], from: &[u64]) {
    for (a, b) in into.iter_mut().zip(from) {
        *a += *b;
    }
}

/// The few numbers kept per batch of a cell, so that paired differences
/// between cells (which share random numbers batch by batch) can get
/// batch-means confidence intervals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BatchStat {
    pub fights: u64,
    pub wins: [u64; MAX_SIDES],
    pub draws: u64,
    /// Sum of fight lengths in rounds over the batch.
    pub rounds: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_assign_sums_every_field() {
        let mut a = Tally {
            fights: 3,
            draws: 1,
            draws_at_cap: 1,
            ..Tally::default()
        };
        a.wins[0] = 2;
        a.rounds[4] = 3;
        a.counters[1] = 7;
        let mut b = a.clone();
        b.damage[1] = 5;
        b += &a;
        assert_eq!(b.fights, 6);
        assert_eq!(b.wins[0], 4);
        assert_eq!(b.draws, 2);
        assert_eq!(b.draws_at_cap, 2);
        assert_eq!(b.rounds[4], 6);
        assert_eq!(b.counters[1], 14);
        assert_eq!(b.damage[1], 5);
    }
}
