//! Two sides choosing plays: the payoff matrix of a two-player zero-sum game
//! and what game theory says of it (issue 30, `skirmish tactics`).
//!
//! Responsibilities:
//! - [`Payoffs`]: for every pair (first side's strategy `i`, second side's
//!   strategy `j`), the per-batch sums of the first side's payoff (a win
//!   counts 1, a draw ½, so the second side's payoff is one minus it). Every
//!   pair fights the same batches with the same random numbers (common random
//!   numbers), so differences between strategies are measured batch by batch
//!   ([`super::batch_means::paired_difference`]) and are much tighter than
//!   the payoffs' own intervals.
//! - [`best_responses`]: each side's best reply to each strategy of the
//!   other, with the rivals that are within noise of it.
//! - [`dominated`]: strategies that another strategy beats against *every*
//!   opposing strategy; "confidently" when every paired interval excludes
//!   zero, else "on the estimates" (the report says which).
//! - [`equilibrium`]: each side's optimal mix (a mixed strategy) and the value
//!   of the game, from the classical linear program (von Neumann's minimax
//!   theorem; solved with `microlp`), one program per side; the two values
//!   agree to rounding, which is checked.
//! - [`value_interval`]: a 95% interval for the value from the batches.
//!
//! The value's interval is a delta-method one: by the envelope theorem the
//! value moves, to first order, as the payoff of the equilibrium mixes
//! `xᵀ A y` does when the payoffs move, so the spread of `xᵀ A_b y` over
//! the batches `b` (batch means, Student's t) measures its sampling error.
//! It does not account for the equilibrium's own support changing between
//! noisy payoff matrices; when strategies in and out of the support are
//! within noise of each other, [`Equilibrium::close_rivals`] lists them so
//! the report can say the support is uncertain.
//!
//! Pure: no I/O, no knowledge of scenarios or reports.

use super::batch_means::{self, BatchSum};
use super::{Difference, Interval};
use crate::engine::BatchStat;

/// The first side's payoff for every pair of strategies, batch by batch.
#[derive(Clone, Debug)]
pub struct Payoffs {
    /// The first side's strategies (rows).
    pub rows: usize,
    /// The second side's strategies (columns).
    pub cols: usize,
    /// `cells[i * cols + j][b]`: batch `b` of the pair (i, j); `sum` is the
    /// first side's wins plus half the draws.
    pub cells: Vec<Vec<BatchSum>>,
}

/// A payoff matrix of means, the first side's payoff, row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct Matrix {
    pub rows: usize,
    pub cols: usize,
    pub values: Vec<f64>,
}

impl Matrix {
    /// A matrix from its rows (all the same length, at least one).
    pub fn from_rows(rows: &[&[f64]]) -> Matrix {
        let cols = rows.first().map_or(0, |r| r.len());
        assert!(rows.iter().all(|r| r.len() == cols), "ragged payoff rows");
        Matrix {
            rows: rows.len(),
            cols,
            values: rows.iter().flat_map(|r| r.iter().copied()).collect(),
        }
    }

    /// The first side's payoff when it plays `i` and the second plays `j`.
    #[inline]
    pub fn get(&self, i: usize, j: usize) -> f64 {
        self.values[i * self.cols + j]
    }
}

impl Payoffs {
    /// The payoffs of a `rows` × `cols` game from each pair's batches
    /// (row-major): a draw is worth half a win to either side.
    pub fn from_stats<'a>(
        rows: usize,
        cols: usize,
        pairs: impl IntoIterator<Item = &'a [BatchStat]>,
    ) -> Payoffs {
        let cells = pairs
            .into_iter()
            .map(|batches| {
                batches
                    .iter()
                    .map(|b| BatchSum {
                        fights: b.fights,
                        sum: b.wins[0] as f64 + 0.5 * b.draws as f64,
                    })
                    .collect()
            })
            .collect();
        Payoffs { rows, cols, cells }
    }

    /// The mean payoff of every pair, over all its batches.
    pub fn means(&self) -> Matrix {
        let values = self
            .cells
            .iter()
            .map(|batches| {
                let (n, s) = batches
                    .iter()
                    .fold((0u64, 0.0), |(n, s), b| (n + b.fights, s + b.sum));
                if n == 0 {
                    0.0
                } else {
                    s / n as f64
                }
            })
            .collect();
        Matrix {
            rows: self.rows,
            cols: self.cols,
            values,
        }
    }

    /// The batches of the pair (i, j).
    pub fn cell(&self, i: usize, j: usize) -> &[BatchSum] {
        &self.cells[i * self.cols + j]
    }

    /// The payoff of the pair (i, j) with its batch-means 95% interval.
    pub fn payoff(&self, i: usize, j: usize) -> Option<Difference> {
        batch_means::mean(self.cell(i, j))
    }

    /// How much more the first side gains playing `a` than `b` against the
    /// second side's `j` (paired over common random numbers).
    pub fn row_gain(&self, a: usize, b: usize, j: usize) -> Option<Difference> {
        batch_means::paired_difference(self.cell(a, j), self.cell(b, j))
    }

    /// How much more the second side gains playing `a` than `b` against the
    /// first side's `i`: the first side's payoff falls by that much.
    pub fn col_gain(&self, a: usize, b: usize, i: usize) -> Option<Difference> {
        batch_means::paired_difference(self.cell(i, b), self.cell(i, a))
    }
}

/// Which of the two sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// The first side (rows; it maximises the payoff).
    First,
    /// The second side (columns; it minimises the first side's payoff).
    Second,
}

impl Player {
    /// How many strategies this player has.
    fn count(self, p: &Payoffs) -> usize {
        match self {
            Player::First => p.rows,
            Player::Second => p.cols,
        }
    }

    /// This player's gain from playing `a` rather than `b` against the
    /// opponent's `k`.
    fn gain(self, p: &Payoffs, a: usize, b: usize, k: usize) -> Option<Difference> {
        match self {
            Player::First => p.row_gain(a, b, k),
            Player::Second => p.col_gain(a, b, k),
        }
    }

    /// This player's payoff (its own: the second side's is one minus the
    /// first's) for its `a` against the opponent's `k`.
    pub fn own(self, m: &Matrix, a: usize, k: usize) -> f64 {
        match self {
            Player::First => m.get(a, k),
            Player::Second => 1.0 - m.get(k, a),
        }
    }

    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }
}

/// A player's best reply to one strategy of the opponent.
#[derive(Clone, Debug, PartialEq)]
pub struct BestResponse {
    /// The opponent's strategy replied to.
    pub against: usize,
    /// The reply with the highest estimated payoff for the player.
    pub best: usize,
    /// The player's own payoff with it.
    pub payoff: f64,
    /// Other replies whose paired difference from `best` has an interval
    /// that includes zero: as good within noise.
    pub as_good: Vec<usize>,
}

/// `player`'s best reply to each strategy of the other player.
pub fn best_responses(p: &Payoffs, player: Player) -> Vec<BestResponse> {
    let m = p.means();
    let mine = player.count(p);
    let theirs = player.other().count(p);
    (0..theirs)
        .map(|k| {
            let best = (0..mine)
                .max_by(|&a, &b| {
                    player
                        .own(&m, a, k)
                        .total_cmp(&player.own(&m, b, k))
                        // Ties go to the first listed strategy.
                        .then(b.cmp(&a))
                })
                .expect("a player has at least one strategy");
            let as_good = (0..mine)
                .filter(|&a| a != best)
                .filter(|&a| {
                    player
                        .gain(p, best, a, k)
                        .is_none_or(|d| !d.ci.excludes_zero())
                })
                .collect();
            BestResponse {
                against: k,
                best,
                payoff: player.own(&m, best, k),
                as_good,
            }
        })
        .collect()
}

/// A strategy that another does better than against every opposing strategy.
#[derive(Clone, Debug, PartialEq)]
pub struct Dominance {
    pub player: Player,
    /// The dominated strategy.
    pub dominated: usize,
    /// The strategy that dominates it.
    pub by: usize,
    /// The smallest gain of `by` over `dominated`, over the opponent's
    /// strategies, with its paired interval, and the opposing strategy it
    /// is measured against.
    pub least: (usize, Difference),
    /// Every paired interval excludes zero (else the gain is positive on
    /// every estimate but within noise somewhere).
    pub confident: bool,
}

/// Whether `player`'s strategy `a` does better than its `b` against every
/// strategy of the other player, with every paired interval above zero.
pub fn confidently_dominates(p: &Payoffs, player: Player, a: usize, b: usize) -> bool {
    (0..player.other().count(p)).all(|k| player.gain(p, a, b, k).is_some_and(|g| g.ci.lo > 0.0))
}

/// A strategy of `player` that confidently dominates each of its others,
/// if there is one (and it has at least two).
pub fn dominant(p: &Payoffs, player: Player) -> Option<usize> {
    let n = player.count(p);
    (n >= 2)
        .then(|| (0..n).find(|&s| (0..n).all(|o| o == s || confidently_dominates(p, player, s, o))))
        .flatten()
}

/// Every strategy of `player` that another of its strategies dominates,
/// strictly on the estimates, with the evidence. A strategy dominated by
/// several is listed once, by the one whose least gain is largest.
pub fn dominated(p: &Payoffs, player: Player) -> Vec<Dominance> {
    let mine = player.count(p);
    let theirs = player.other().count(p);
    let mut found = Vec::new();
    for d in 0..mine {
        let mut best: Option<Dominance> = None;
        for by in (0..mine).filter(|&b| b != d) {
            let gains: Option<Vec<Difference>> =
                (0..theirs).map(|k| player.gain(p, by, d, k)).collect();
            let Some(gains) = gains else { continue };
            if gains.iter().any(|g| g.estimate <= 0.0) {
                continue;
            }
            let (k, least) = gains
                .iter()
                .enumerate()
                .min_by(|a, b| a.1.estimate.total_cmp(&b.1.estimate))
                .map(|(k, g)| (k, *g))
                .expect("the opponent has at least one strategy");
            let confident = gains.iter().all(|g| g.ci.lo > 0.0);
            let candidate = Dominance {
                player,
                dominated: d,
                by,
                least: (k, least),
                confident,
            };
            let better = match &best {
                None => true,
                Some(b) => {
                    (candidate.confident, candidate.least.1.estimate)
                        > (b.confident, b.least.1.estimate)
                }
            };
            if better {
                best = Some(candidate);
            }
        }
        found.extend(best);
    }
    found
}

/// The solution of the game: each side's optimal mix and the value.
#[derive(Clone, Debug, PartialEq)]
pub struct Equilibrium {
    /// The first side's expected payoff when both play their optimal mixes:
    /// the most it can guarantee, and the least the second side can hold it
    /// to.
    pub value: f64,
    /// The first side's optimal probabilities over its strategies.
    pub first: Vec<f64>,
    /// The second side's optimal probabilities over its strategies.
    pub second: Vec<f64>,
}

impl Equilibrium {
    /// The strategies a side plays with positive probability.
    pub fn support(&self, player: Player) -> Vec<usize> {
        let mix = match player {
            Player::First => &self.first,
            Player::Second => &self.second,
        };
        mix.iter()
            .enumerate()
            .filter(|(_, &q)| q > 0.0)
            .map(|(i, _)| i)
            .collect()
    }

    /// Whether one strategy of each side is played for sure (a saddle point).
    pub fn is_pure(&self) -> bool {
        self.support(Player::First).len() == 1 && self.support(Player::Second).len() == 1
    }

    /// Strategies of `player` outside its support that do, within noise, as
    /// well against the opponent's optimal mix as the best strategy in the
    /// support (paired intervals of the mixed payoffs include zero): the
    /// support could well have been another.
    pub fn close_rivals(&self, p: &Payoffs, player: Player) -> Vec<usize> {
        let support = self.support(player);
        let against = match player {
            Player::First => &self.second,
            Player::Second => &self.first,
        };
        let mixed = |a: usize| mixed_batches(p, player, a, against);
        let m = p.means();
        let own = |a: usize| -> f64 {
            (0..against.len())
                .map(|k| against[k] * player.own(&m, a, k))
                .sum()
        };
        let Some(&top) = support.iter().max_by(|&&a, &&b| own(a).total_cmp(&own(b))) else {
            return Vec::new();
        };
        let top_batches = mixed(top);
        (0..player.count(p))
            .filter(|a| !support.contains(a))
            .filter(|&a| {
                batch_means::paired_difference(&top_batches, &mixed(a))
                    .is_none_or(|d| !d.ci.excludes_zero())
            })
            .collect()
    }
}

/// Per-batch sums of `player`'s own payoff playing `a` against the mix
/// `against` of the other player.
fn mixed_batches(p: &Payoffs, player: Player, a: usize, against: &[f64]) -> Vec<BatchSum> {
    match player {
        Player::First => {
            weighted_batches(p, |i, j| if i == a { against[j] } else { 0.0 }, |c| c.sum)
        }
        Player::Second => weighted_batches(
            p,
            |i, j| if j == a { against[i] } else { 0.0 },
            |c| c.fights as f64 - c.sum,
        ),
    }
}

/// Per batch, `Σ weight(i, j) · own(cell (i, j))` over every pair with a
/// non-zero weight, in row-major order: a mixed strategy's payoff (or the
/// value's, at both mixes) batch by batch.
fn weighted_batches(
    p: &Payoffs,
    weight: impl Fn(usize, usize) -> f64,
    own: impl Fn(&BatchSum) -> f64,
) -> Vec<BatchSum> {
    // Pairs may have different numbers of batches (a raced game gives the
    // contested pairs more): the mixes are paired over the batches every
    // weighted pair has.
    let batches = (0..p.rows * p.cols)
        .filter(|&k| weight(k / p.cols, k % p.cols) != 0.0)
        .map(|k| p.cells[k].len())
        .min()
        .unwrap_or(0);
    (0..batches)
        .map(|b| {
            let mut fights = 0;
            let mut sum = 0.0;
            for i in 0..p.rows {
                for j in 0..p.cols {
                    let w = weight(i, j);
                    if w == 0.0 {
                        continue;
                    }
                    let cell = p.cell(i, j)[b];
                    fights = cell.fights;
                    sum += w * own(&cell);
                }
            }
            BatchSum { fights, sum }
        })
        .collect()
}

/// Why a game could not be solved.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum GameError {
    #[error("a game needs at least one strategy per side (found {rows} × {cols})")]
    Empty { rows: usize, cols: usize },
    #[error("a payoff is not a number between 0 and 1: {0}")]
    BadPayoff(f64),
    #[error("the linear program of the game failed: {0}")]
    Solver(String),
    #[error("the two sides' programs disagree on the value ({first} vs {second})")]
    Disagree { first: f64, second: f64 },
}

/// Probabilities below this are rounding noise of the simplex, not play.
const NEGLIGIBLE: f64 = 1e-9;

/// The equilibrium of the zero-sum game with payoff matrix `m` (the first
/// side maximises, the second minimises).
///
/// The first side's program: maximise `v` subject to `Σᵢ xᵢ A_ij ≥ v` for
/// every column `j`, `Σ xᵢ = 1`, `x ≥ 0`; the second side's is its dual,
/// minimise `w` subject to `Σⱼ A_ij yⱼ ≤ w` for every row `i`. Both are
/// solved (each gives its side's mix) and their optima must agree.
pub fn equilibrium(m: &Matrix) -> Result<Equilibrium, GameError> {
    use microlp::{ComparisonOp, OptimizationDirection, Problem};
    if m.rows == 0 || m.cols == 0 {
        return Err(GameError::Empty {
            rows: m.rows,
            cols: m.cols,
        });
    }
    if let Some(&bad) = m.values.iter().find(|v| !(0.0..=1.0).contains(*v)) {
        return Err(GameError::BadPayoff(bad));
    }
    let solver = |e: microlp::Error| GameError::Solver(e.to_string());
    // Payoffs lie in [0, 1], so does the value: bounding it keeps the
    // program bounded whatever the simplex visits first.
    let mut first = Problem::new(OptimizationDirection::Maximize);
    let v = first.add_var(1.0, (0.0, 1.0));
    let x: Vec<_> = (0..m.rows)
        .map(|_| first.add_var(0.0, (0.0, 1.0)))
        .collect();
    for j in 0..m.cols {
        let mut expr: Vec<_> = (0..m.rows).map(|i| (x[i], m.get(i, j))).collect();
        expr.push((v, -1.0));
        first.add_constraint(expr, ComparisonOp::Ge, 0.0);
    }
    first.add_constraint(x.iter().map(|&xi| (xi, 1.0)), ComparisonOp::Eq, 1.0);
    let a = first.solve().map_err(solver)?;

    let mut second = Problem::new(OptimizationDirection::Minimize);
    let w = second.add_var(1.0, (0.0, 1.0));
    let y: Vec<_> = (0..m.cols)
        .map(|_| second.add_var(0.0, (0.0, 1.0)))
        .collect();
    for i in 0..m.rows {
        let mut expr: Vec<_> = (0..m.cols).map(|j| (y[j], m.get(i, j))).collect();
        expr.push((w, -1.0));
        second.add_constraint(expr, ComparisonOp::Le, 0.0);
    }
    second.add_constraint(y.iter().map(|&yj| (yj, 1.0)), ComparisonOp::Eq, 1.0);
    let b = second.solve().map_err(solver)?;

    let (value, other) = (a.objective(), b.objective());
    if (value - other).abs() > 1e-7 {
        return Err(GameError::Disagree {
            first: value,
            second: other,
        });
    }
    Ok(Equilibrium {
        value,
        first: clean(x.iter().map(|&xi| a.var_value(xi)).collect()),
        second: clean(y.iter().map(|&yj| b.var_value(yj)).collect()),
    })
}

/// A mix with the simplex's rounding dust removed, summing to 1.
fn clean(mut mix: Vec<f64>) -> Vec<f64> {
    for q in &mut mix {
        if *q < NEGLIGIBLE {
            *q = 0.0;
        }
    }
    let total: f64 = mix.iter().sum();
    if total > 0.0 {
        for q in &mut mix {
            *q /= total;
        }
    }
    mix
}

/// The value of the game with its 95% interval from the batches (see the
/// module doc: the spread of `xᵀ A_b y` at the equilibrium mixes).
pub fn value_interval(p: &Payoffs, eq: &Equilibrium) -> Option<Difference> {
    let per_batch = weighted_batches(p, |i, j| eq.first[i] * eq.second[j], |c| c.sum);
    batch_means::mean(&per_batch).map(|d| Difference {
        // The point estimate is the program's value, not the mixes' payoff
        // re-summed (the two agree to rounding).
        estimate: eq.value,
        ci: Interval {
            lo: eq.value - (d.estimate - d.ci.lo),
            hi: eq.value + (d.ci.hi - d.estimate),
        },
    })
}

/// The strategies whose payoffs decide the game: each side's equilibrium
/// support and its close rivals ([`Equilibrium::close_rivals`]), rows then
/// columns, in strategy order.
pub fn contested(p: &Payoffs, eq: &Equilibrium) -> [Vec<usize>; 2] {
    [Player::First, Player::Second].map(|player| {
        let mut s = eq.support(player);
        s.extend(eq.close_rivals(p, player));
        s.sort_unstable();
        s
    })
}

/// One round's decision of a raced game ([`race`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Race {
    /// How many batches each pair (row-major) should have after the next
    /// round: what it has, for a pair that needs no more.
    pub wanted: Vec<u64>,
    /// Pairs that are contested and not yet precise enough but at the cap.
    pub capped: Vec<bool>,
}

/// Racing (issue 30, `tactics --precision`): after a round, which pairs of
/// strategies get more batches. Fights go where the decision is made: the
/// pairs of the [`contested`] strategies (both sides' equilibrium supports
/// and their close rivals) are brought to the same number of batches (so
/// every comparison among them is paired over all of them) and grow,
/// together, until each of their payoffs' 95% half-widths is at most
/// `target`, or they have `cap` batches; every other pair keeps what it
/// has. The next count aims at the target assuming half-widths shrink like
/// 1/√batches, adding at least `step` batches. The contested set is worked
/// out again after every round from all the batches so far, so a strategy
/// that becomes a rival on more data is brought up to the others.
pub fn race(p: &Payoffs, target: f64, cap: u64, step: u64) -> Result<Race, GameError> {
    let eq = equilibrium(&p.means())?;
    let [rows, cols] = contested(p, &eq);
    let pairs: Vec<usize> = rows
        .iter()
        .flat_map(|&i| cols.iter().map(move |&j| i * p.cols + j))
        .collect();
    let have: Vec<u64> = p.cells.iter().map(|c| c.len() as u64).collect();
    let most = pairs.iter().map(|&k| have[k]).max().unwrap_or(0);
    let widest = pairs
        .iter()
        .map(|&k| match batch_means::mean(&p.cells[k]) {
            Some(d) => batch_means::half_width(&d.ci),
            None => f64::INFINITY,
        })
        .fold(0.0f64, f64::max);
    let aim = if widest <= target {
        most
    } else {
        batch_means::batches_for(most, widest, target, cap, step)
    };
    let mut wanted = have.clone();
    let mut capped = vec![false; have.len()];
    for &k in &pairs {
        wanted[k] = have[k].max(aim);
        capped[k] = widest > target && wanted[k] == have[k];
    }
    Ok(Race { wanted, capped })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    /// Batches built so that every batch has exactly the given means plus a
    /// per-batch wobble shared by the whole matrix (common random numbers:
    /// differences between strategies are then exact, payoffs are not).
    fn payoffs(m: &Matrix, wobble: &[f64]) -> Payoffs {
        let fights = 1000;
        Payoffs {
            rows: m.rows,
            cols: m.cols,
            cells: m
                .values
                .iter()
                .map(|&v| {
                    wobble
                        .iter()
                        .map(|&w| BatchSum {
                            fights,
                            sum: (v + w) * fights as f64,
                        })
                        .collect()
                })
                .collect(),
        }
    }

    #[test]
    fn matching_pennies_is_a_mixed_equilibrium_with_no_saddle_point() {
        // Each side picks one of two: the first wins on a match. No pure
        // strategy is safe; the unique equilibrium is half and half, value ½.
        let m = Matrix::from_rows(&[&[1.0, 0.0], &[0.0, 1.0]]);
        let eq = equilibrium(&m).unwrap();
        assert!(close(eq.value, 0.5));
        assert!(eq.first.iter().all(|&q| close(q, 0.5)), "{:?}", eq.first);
        assert!(eq.second.iter().all(|&q| close(q, 0.5)), "{:?}", eq.second);
        assert!(!eq.is_pure());
    }

    #[test]
    fn an_unequal_mixed_game_gets_its_textbook_mixes() {
        // [[0.8, 0.3], [0.4, 0.6]]: the first side mixes p on row 0 so that
        // both columns pay the same: 0.8p + 0.4(1−p) = 0.3p + 0.6(1−p) ⇒
        // p = 2/7; the value is 0.4 + 0.4·2/7 = 18/35; the second side mixes
        // q on column 0: 0.8q + 0.3(1−q) = 0.4q + 0.6(1−q) ⇒ q = 3/7.
        let m = Matrix::from_rows(&[&[0.8, 0.3], &[0.4, 0.6]]);
        let eq = equilibrium(&m).unwrap();
        assert!(close(eq.value, 18.0 / 35.0), "{}", eq.value);
        assert!(close(eq.first[0], 2.0 / 7.0), "{:?}", eq.first);
        assert!(close(eq.second[0], 3.0 / 7.0), "{:?}", eq.second);
    }

    #[test]
    fn a_saddle_point_is_a_pure_equilibrium() {
        // Row 1's worst (0.5) is the best worst case; column 1's best for
        // the second side (0.5) is the least of its maxima: a saddle.
        let m = Matrix::from_rows(&[&[0.3, 0.2, 0.9], &[0.7, 0.5, 0.6], &[0.9, 0.4, 0.1]]);
        let eq = equilibrium(&m).unwrap();
        assert!(close(eq.value, 0.5));
        assert_eq!(eq.support(Player::First), vec![1]);
        assert_eq!(eq.support(Player::Second), vec![1]);
        assert!(eq.is_pure());
    }

    #[test]
    fn a_dominated_strategy_is_found_and_left_out_of_the_equilibrium() {
        // Row 2 is worse than row 0 against both columns (by 0.1 and 0.2).
        // Rows 0 and 1 form matching pennies around ½.
        let m = Matrix::from_rows(&[&[0.7, 0.3], &[0.3, 0.7], &[0.6, 0.1]]);
        let p = payoffs(&m, &[0.0, 0.01, -0.01, 0.02, -0.02]);
        let d = dominated(&p, Player::First);
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(dominant(&p, Player::First), None);
        assert_eq!((d[0].dominated, d[0].by), (2, 0));
        assert!(d[0].confident);
        assert_eq!(d[0].least.0, 0);
        assert!(close(d[0].least.1.estimate, 0.1));
        assert!(dominated(&p, Player::Second).is_empty());
        let eq = equilibrium(&m).unwrap();
        assert_eq!(eq.first[2], 0.0);
        assert!(close(eq.value, 0.5));
    }

    #[test]
    fn the_second_side_dominates_by_lowering_the_first_sides_payoff() {
        // Column 1 holds the first side lower than column 0 against every
        // row: column 0 is dominated for the second side.
        let m = Matrix::from_rows(&[&[0.9, 0.4], &[0.6, 0.5]]);
        let p = payoffs(&m, &[0.0, 0.01, -0.01]);
        let d = dominated(&p, Player::Second);
        assert_eq!(d.len(), 1);
        assert_eq!((d[0].dominated, d[0].by), (0, 1));
        assert_eq!(dominant(&p, Player::Second), Some(1));
        let eq = equilibrium(&m).unwrap();
        assert_eq!(eq.support(Player::Second), vec![1]);
        assert!(close(eq.value, 0.5));
    }

    #[test]
    fn a_difference_within_noise_is_not_confident_dominance() {
        // Row 1 beats row 0 by 0.01 on the means, but batch by batch the
        // difference swings ±0.05: dominated on the estimates, not
        // confidently.
        let m = Matrix::from_rows(&[&[0.5], &[0.51]]);
        let mut p = payoffs(&m, &[0.0; 4]);
        for (b, s) in [0.05, -0.05, 0.06, -0.06].iter().enumerate() {
            p.cells[1][b].sum += s * 1000.0;
        }
        let d = dominated(&p, Player::First);
        assert_eq!(d.len(), 1);
        assert!(!d[0].confident);
        let br = best_responses(&p, Player::First);
        assert_eq!(br[0].best, 1);
        assert_eq!(br[0].as_good, vec![0]);
    }

    #[test]
    fn best_responses_are_per_opposing_strategy() {
        let m = Matrix::from_rows(&[&[0.7, 0.3], &[0.3, 0.7]]);
        let p = payoffs(&m, &[0.0, 0.01, -0.01]);
        let first = best_responses(&p, Player::First);
        assert_eq!(first.iter().map(|r| r.best).collect::<Vec<_>>(), vec![0, 1]);
        let second = best_responses(&p, Player::Second);
        assert_eq!(
            second.iter().map(|r| r.best).collect::<Vec<_>>(),
            vec![1, 0]
        );
        assert!(close(second[0].payoff, 0.7));
    }

    #[test]
    fn the_values_interval_comes_from_the_batches() {
        // Matching pennies whose every payoff moves by the batch's wobble:
        // the value's per-batch payoffs are ½ + wobble, so its interval is
        // the batch-means interval of the wobble around ½.
        let m = Matrix::from_rows(&[&[0.9, 0.1], &[0.1, 0.9]]);
        let wobble = [0.02, -0.02, 0.01, -0.01];
        let p = payoffs(&m, &wobble);
        let eq = equilibrium(&m).unwrap();
        let v = value_interval(&p, &eq).unwrap();
        let expected = batch_means::mean(
            &wobble
                .iter()
                .map(|w| BatchSum {
                    fights: 1000,
                    sum: (0.5 + w) * 1000.0,
                })
                .collect::<Vec<_>>(),
        )
        .unwrap();
        assert!(close(v.estimate, 0.5));
        assert!(close(v.ci.lo, expected.ci.lo) && close(v.ci.hi, expected.ci.hi));
        assert!(v.ci.lo < 0.5 && v.ci.hi > 0.5);
    }

    #[test]
    fn a_rival_within_noise_of_the_support_is_named() {
        // Row 1 pays 0.01 less than row 0 against column 0 (the second
        // side's only sensible play), within noise; the program plays row 0.
        let m = Matrix::from_rows(&[&[0.6, 0.9], &[0.59, 0.8]]);
        let mut p = payoffs(&m, &[0.0; 4]);
        for (b, s) in [0.03, -0.03, 0.02, -0.02].iter().enumerate() {
            p.cells[2][b].sum += s * 1000.0;
        }
        let eq = equilibrium(&p.means()).unwrap();
        assert_eq!(eq.support(Player::First), vec![0]);
        assert_eq!(eq.close_rivals(&p, Player::First), vec![1]);
    }

    /// A saddle point at (0, 0): row 1 is far worse for the first side,
    /// column 1 far worse for the second; each payoff's batches spread by
    /// `wobble`.
    fn saddle(wobble: &[f64]) -> Payoffs {
        payoffs(&Matrix::from_rows(&[&[0.6, 0.9], &[0.3, 0.4]]), wobble)
    }

    const WOBBLE: [f64; 8] = [0.05, -0.05, 0.04, -0.04, 0.03, -0.03, 0.02, -0.02];

    #[test]
    fn racing_gives_fights_only_to_the_pairs_that_decide_the_game() {
        let p = saddle(&WOBBLE);
        let eq = equilibrium(&p.means()).unwrap();
        assert_eq!(contested(&p, &eq), [vec![0], vec![0]]);
        let width = batch_means::mean(p.cell(0, 0)).unwrap();
        let half = (width.ci.hi - width.ci.lo) / 2.0;
        // Twice as precise needs four times the batches.
        let race = race(&p, half / 2.0, 1000, 8).unwrap();
        assert_eq!(race.wanted, vec![32, 8, 8, 8]);
        assert_eq!(race.capped, vec![false; 4]);
    }

    #[test]
    fn racing_stops_when_the_contested_payoffs_are_precise_or_capped() {
        let p = saddle(&WOBBLE);
        let done = race(&p, 0.5, 1000, 8).unwrap();
        assert_eq!(done.wanted, vec![8; 4]);
        assert_eq!(done.capped, vec![false; 4]);
        // At the cap: nothing more, and the decisive pair says it stopped
        // short of the target.
        let capped = race(&p, 0.001, 8, 8).unwrap();
        assert_eq!(capped.wanted, vec![8; 4]);
        assert_eq!(capped.capped, vec![true, false, false, false]);
        // Far from the target, at least `step` more and at most the cap.
        let step = race(&p, 0.001, 20, 8).unwrap();
        assert_eq!(step.wanted, vec![20, 8, 8, 8]);
    }

    #[test]
    fn a_new_rival_is_brought_up_to_the_contested_pairs() {
        // Row 1 pays within noise of row 0 against column 0, so it is a
        // close rival; its pair (1, 0) has fewer batches than (0, 0).
        let m = Matrix::from_rows(&[&[0.6, 0.9], &[0.59, 0.8]]);
        let mut p = payoffs(&m, &WOBBLE);
        for (b, s) in WOBBLE.iter().enumerate() {
            p.cells[2][b].sum += s * 1000.0;
        }
        for c in [0, 1] {
            let extra = p.cells[c][..4].to_vec();
            p.cells[c].extend(extra);
        }
        let eq = equilibrium(&p.means()).unwrap();
        assert_eq!(contested(&p, &eq), [vec![0, 1], vec![0]]);
        let race = race(&p, 0.5, 1000, 8).unwrap();
        // Precise already, but the rival's pair is brought to 12 batches so
        // the two rows are compared over the same batches.
        assert_eq!(race.wanted, vec![12, 12, 12, 8]);
        // The value's interval pairs over the batches every weighted pair has.
        assert!(value_interval(&p, &eq).is_some());
    }

    #[test]
    fn bad_games_are_errors() {
        let empty = Matrix {
            rows: 0,
            cols: 2,
            values: vec![],
        };
        assert!(matches!(equilibrium(&empty), Err(GameError::Empty { .. })));
        let m = Matrix::from_rows(&[&[1.5]]);
        assert_eq!(equilibrium(&m), Err(GameError::BadPayoff(1.5)));
    }
}
