//! The play check's statistics: each alternative play against the side's
//! own, paired batch by batch (common random numbers), and the cells where
//! an alternative is better by more than the margin with 95% confidence.
//!
//! A side's *score* is its win rate plus its share of the draws (a draw is
//! worth `1 / sides` of a win to each side: half in a two-sided fight), the
//! payoff `skirmish tactics` uses.
//!
//! Pure functions only: no I/O.

use super::batch_means::{paired_difference, BatchSum};
use super::Difference;
use crate::engine::tally::BatchStat;
use crate::results::PlayCheck;

/// One alternative compared with its side's own play in its cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Alternative {
    pub cell: usize,
    pub side: usize,
    /// The field set on every group of the side, and its value.
    pub field: String,
    pub value: String,
    /// Fights of the trial.
    pub fights: u64,
    /// The side's score with this play, and with its own.
    pub score: f64,
    pub own: f64,
    /// The share of the trial's fights that were draws (a play that
    /// scores by drawing, such as both sides holding out of reach, says so).
    pub draws: f64,
    /// `score − own` with its paired 95% interval (`None` with fewer than
    /// two batches).
    pub gain: Option<Difference>,
}

impl Alternative {
    /// Better than the own play by more than `margin`, with 95% confidence.
    pub fn beats_by(&self, margin: f64) -> bool {
        self.gain.is_some_and(|g| g.ci.lo > margin)
    }
}

/// The per-batch sums of `side`'s score.
pub fn scores(batches: &[BatchStat], side: usize, sides: usize) -> Vec<BatchSum> {
    batches
        .iter()
        .map(|b| BatchSum {
            fights: b.fights,
            sum: b.wins[side] as f64 + b.draws as f64 / sides as f64,
        })
        .collect()
}

/// Every alternative of the check with its gain over the own play, in
/// trial order.
pub fn alternatives(check: &PlayCheck, sides: usize) -> Vec<Alternative> {
    let mean = |b: &[BatchSum]| {
        let (n, s) = b
            .iter()
            .fold((0u64, 0.0), |(n, s), x| (n + x.fights, s + x.sum));
        if n == 0 {
            0.0
        } else {
            s / n as f64
        }
    };
    let mut out = Vec::new();
    let mut own: Option<(usize, usize, Vec<BatchSum>)> = None;
    for t in &check.trials {
        let side_scores = scores(&t.batches, t.trial.side, sides);
        let Some((field, value)) = &t.trial.play else {
            own = Some((t.trial.cell, t.trial.side, side_scores));
            continue;
        };
        let Some((_, _, base)) = own
            .as_ref()
            .filter(|(c, s, _)| *c == t.trial.cell && *s == t.trial.side)
        else {
            // Trials come as the own play then its alternatives.
            continue;
        };
        out.push(Alternative {
            cell: t.trial.cell,
            side: t.trial.side,
            field: field.clone(),
            value: value.clone(),
            fights: t.batches.iter().map(|b| b.fights).sum(),
            score: mean(&side_scores),
            own: mean(base),
            draws: {
                let (n, d) = t
                    .batches
                    .iter()
                    .fold((0, 0), |(n, d), b| (n + b.fights, d + b.draws));
                if n == 0 {
                    0.0
                } else {
                    d as f64 / n as f64
                }
            },
            gain: paired_difference(&side_scores, base),
        });
    }
    out
}

/// Per cell and side, the alternative with the largest gain among those
/// that beat the own play by more than `margin` with 95% confidence, in
/// cell then side order.
pub fn far_from_best(alternatives: &[Alternative], margin: f64) -> Vec<&Alternative> {
    let mut out: Vec<&Alternative> = Vec::new();
    for a in alternatives.iter().filter(|a| a.beats_by(margin)) {
        let gain = |x: &Alternative| x.gain.map_or(f64::NEG_INFINITY, |g| g.estimate);
        match out.last_mut() {
            Some(last) if last.cell == a.cell && last.side == a.side => {
                if gain(a) > gain(last) {
                    *last = a;
                }
            }
            _ => out.push(a),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::PlayTrialResult;
    use crate::scenario::PlayTrial;

    fn batches(wins: &[u64], draws: u64) -> Vec<BatchStat> {
        wins.iter()
            .map(|&w| {
                let mut b = BatchStat {
                    fights: 100,
                    draws,
                    ..BatchStat::default()
                };
                b.wins[0] = w;
                b.wins[1] = 100 - w - draws;
                b
            })
            .collect()
    }

    fn trial(cell: usize, play: Option<&str>, wins: &[u64]) -> PlayTrialResult {
        PlayTrialResult {
            trial: PlayTrial {
                cell,
                side: 0,
                play: play.map(|v| ("tactic".to_string(), v.to_string())),
            },
            batches: batches(wins, 10),
        }
    }

    #[test]
    fn a_clearly_better_play_is_found_and_a_close_one_is_not() {
        let check = PlayCheck {
            fights: 400,
            margin: 0.05,
            trials: vec![
                trial(0, None, &[30, 32, 28, 31]),
                // +30 points in every batch: far better.
                trial(0, Some("advance"), &[60, 62, 58, 61]),
                // +2 points: within the margin.
                trial(0, Some("hold"), &[32, 34, 30, 33]),
                trial(1, None, &[50, 50, 50, 50]),
                trial(1, Some("advance"), &[51, 49, 52, 50]),
            ],
        };
        let all = alternatives(&check, 2);
        assert_eq!(all.len(), 3);
        // Score = wins + half the 10 draws per 100 fights.
        assert!((all[0].own - (30.25 + 5.0) / 100.0).abs() < 1e-12);
        assert!((all[0].gain.unwrap().estimate - 0.30).abs() < 1e-12);
        let far = far_from_best(&all, check.margin);
        assert_eq!(far.len(), 1);
        assert_eq!((far[0].cell, far[0].value.as_str()), (0, "advance"));
    }

    #[test]
    fn a_gain_whose_interval_reaches_below_the_margin_is_not_reported() {
        // +6 points on average but noisy: the interval reaches below 0.05.
        let check = PlayCheck {
            fights: 400,
            margin: 0.05,
            trials: vec![
                trial(0, None, &[30, 30, 30, 30]),
                trial(0, Some("advance"), &[30, 42, 30, 42]),
            ],
        };
        let all = alternatives(&check, 2);
        assert!((all[0].gain.unwrap().estimate - 0.06).abs() < 1e-12);
        assert!(far_from_best(&all, 0.05).is_empty());
    }
}
