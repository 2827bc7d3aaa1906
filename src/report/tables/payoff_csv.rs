//! `payoff.csv` and `strategies.csv` of a tactics report.

use super::frame::TableBuilder;
use crate::analysis::game::Player;
use crate::report::error::ReportError;
use crate::report::labels::RATE_DECIMALS;
use crate::report::model::TacticsModel;
use crate::report::names::{PAYOFF_CSV, STRATEGIES_CSV};

/// `payoff.csv`: one row per pair of strategies, row-major (the first
/// side's strategy, then the second's): `first`, `second` (the strategies'
/// labels), `payoff` (the first side's win rate plus half the draws) with
/// its 95% batch-means interval `payoff_lo` / `payoff_hi`, then per side
/// `win_rate_<side>`, then `draw_rate` and `mean_rounds`, `fights` (the
/// pair's fights: with `--precision`, the pairs that decide the game get
/// more) and `capped` (a raced pair stopped at the cap before its payoff's
/// interval was within the target); then
/// `best_reply_<first side>` and `best_reply_<second side>`: whether that
/// side's strategy in this row is its best reply to the other's.
pub(crate) fn render(m: &TacticsModel) -> Result<Vec<u8>, ReportError> {
    let r = m.results;
    let (rows, cols) = (m.means.rows, m.means.cols);
    let n = rows * cols;
    let pairs = || (0..n).map(|k| (k / cols, k % cols));
    let mut b = TableBuilder::new(PAYOFF_CSV);
    b.texts(
        "first",
        pairs().map(|(i, _)| r.strategies[0][i].clone()).collect(),
    )
    .texts(
        "second",
        pairs().map(|(_, j)| r.strategies[1][j].clone()).collect(),
    )
    .floats(
        "payoff",
        pairs().map(|(i, j)| m.payoff(i, j)).collect(),
        RATE_DECIMALS,
    )
    .optional_floats(
        "payoff_lo",
        m.intervals.iter().map(|d| d.map(|d| d.ci.lo)).collect(),
        RATE_DECIMALS,
    )
    .optional_floats(
        "payoff_hi",
        m.intervals.iter().map(|d| d.map(|d| d.ci.hi)).collect(),
        RATE_DECIMALS,
    );
    for (s, side) in m.info.sides.iter().enumerate() {
        b.floats(
            &format!("win_rate_{}", side.name),
            m.summaries.iter().map(|x| x.wins[s].estimate).collect(),
            RATE_DECIMALS,
        );
    }
    b.floats(
        "draw_rate",
        m.summaries.iter().map(|x| x.draws.estimate).collect(),
        RATE_DECIMALS,
    )
    .floats(
        "mean_rounds",
        m.summaries.iter().map(|x| x.rounds_mean).collect(),
        3,
    )
    .ints("fights", m.summaries.iter().map(|x| x.fights).collect())
    .texts(
        "capped",
        r.run.cells.iter().map(|c| c.capped.to_string()).collect(),
    );
    for (s, side) in r.sides.iter().enumerate() {
        b.texts(
            &format!("best_reply_{side}"),
            pairs()
                .map(|(i, j)| {
                    let (mine, theirs) = if s == 0 { (i, j) } else { (j, i) };
                    m.best[s][theirs].best == mine
                })
                .map(|yes| yes.to_string())
                .collect(),
        );
    }
    b.finish(n)?.to_csv()
}

/// `strategies.csv`: one row per strategy of each side: `side`,
/// `strategy`, `equilibrium` (its probability in the side's optimal mix),
/// `worst_case` (its payoff to the side against the other's best reply),
/// `dominated_by` (the strategy that dominates it, empty if none) and
/// `dominance` (`confident` when every paired interval excludes zero,
/// `estimate` when only the estimates say so; empty if not dominated).
pub(crate) fn render_strategies(m: &TacticsModel) -> Result<Vec<u8>, ReportError> {
    let r = m.results;
    let mut side = Vec::new();
    let mut strategy = Vec::new();
    let mut probability = Vec::new();
    let mut worst = Vec::new();
    let mut by = Vec::new();
    let mut how = Vec::new();
    let mixes = [&m.equilibrium.first, &m.equilibrium.second];
    for (s, mix) in mixes.iter().enumerate() {
        for (k, label) in r.strategies[s].iter().enumerate() {
            side.push(r.sides[s].clone());
            strategy.push(label.clone());
            probability.push(mix[k]);
            let other = r.strategies[1 - s].len();
            let player = [Player::First, Player::Second][s];
            worst.push(
                (0..other)
                    .map(|o| player.own(&m.means, k, o))
                    .fold(f64::INFINITY, f64::min),
            );
            let d = m.dominated[s].iter().find(|d| d.dominated == k);
            by.push(d.map(|d| r.strategies[s][d.by].clone()));
            how.push(d.map(|d| if d.confident { "confident" } else { "estimate" }.to_owned()));
        }
    }
    let n = side.len();
    let mut b = TableBuilder::new(STRATEGIES_CSV);
    b.texts("side", side)
        .texts("strategy", strategy)
        .floats("equilibrium", probability, RATE_DECIMALS)
        .floats("worst_case", worst, RATE_DECIMALS)
        .optional_texts("dominated_by", by)
        .optional_texts("dominance", how);
    b.finish(n)?.to_csv()
}
