//! The play check of `run` and `merge` (issue 30, item 3): after the run's
//! fights, each side's own play is fought again beside its side-wide
//! alternatives ([`crate::scenario::PlayTrial`]) in every cell, so that the
//! report can say where a fixed play leaves a side well below a better one.
//!
//! It is fought after the run, in memory, from the scenario and the run's
//! seed alone: a resumed, sharded or merged run gets the same check, and the
//! journal holds only the run's own fights. `--no-play-check` skips it
//! (the report then says nothing of other plays).

use clap::Args;

use super::{progress, Failure};
use crate::results::{PlayCheck, PlayTrialResult, RunResults, Streams};
use crate::run::{plan_cells, Budget, Plan};
use crate::scenario::{Cell, PlayTrial, Scenario};

/// Smallest gain (in a side's win rate plus its share of the draws) that
/// the report points out, unless `--play-margin` says otherwise.
pub const DEFAULT_MARGIN: f64 = 0.05;

/// Fewest and most fights of one trial: a trial gets a sixteenth of the
/// run's fights per cell within these bounds (never more than the cell's).
/// With two sides (each side's own play and up to 11 alternatives: up to
/// 24 trials a cell) the check fights up to 1.5 times the run's fights
/// between the bounds; the README's "Speed" measures what it costs.
pub const TRIAL_FIGHTS: (u64, u64) = (1_000, 20_000);

#[derive(Args, Debug, Clone, Copy)]
pub(crate) struct PlayCheckArgs {
    /// Do not fight the other plays (every group of a side on another
    /// tactic or targeting) that the report compares with the scenario's.
    #[arg(long)]
    no_play_check: bool,
    /// Report an other play when it beats the scenario's by more than this
    /// (win rate plus the share of draws), with 95% confidence.
    #[arg(long, value_name = "GAIN", allow_negative_numbers = true, default_value_t = DEFAULT_MARGIN, value_parser = parse_margin)]
    play_margin: f64,
}

fn parse_margin(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if (0.0..1.0).contains(&v) => Ok(v),
        _ => Err(format!(
            "expected a gain in win rate from 0 to below 1 (e.g. 0.05), found `{text}`"
        )),
    }
}

/// Fights of one trial when each cell of the run fights `fights`.
pub fn trial_fights(fights: u64) -> u64 {
    (fights / 16)
        .clamp(TRIAL_FIGHTS.0, TRIAL_FIGHTS.1)
        .min(fights)
}

/// `results` with the play check of scenario `s` run from `seed` with
/// `fights` per cell (the run's own), unless `args` turns it off; and what
/// it fought, for the run's timing line (`plays checked: N fights in S s`).
pub(crate) fn with_plays(
    args: &PlayCheckArgs,
    s: &Scenario,
    fights: u64,
    seed: u64,
    quiet: bool,
    mut results: RunResults,
) -> Result<(RunResults, Option<String>), Failure> {
    if args.no_play_check {
        return Ok((results, None));
    }
    let started = std::time::Instant::now();
    let cells = s.cells()?;
    let (trials, plan) = playable(s, s.play_trials(&cells))?;
    let n = trial_fights(fights);
    let mut check = PlayCheck {
        fights: n,
        margin: args.play_margin,
        trials: Vec::new(),
    };
    if let Some(plan) = plan.filter(|_| !trials.is_empty()) {
        let bar = progress::fights_bar(
            plan.total_fights(n),
            progress::Total::Exact,
            &format!("{} plays", s.name),
            quiet,
        );
        let run = plan.run_with(Budget::Fights(n), seed, Streams::Common, &|k| bar.inc(k));
        bar.finish_and_clear();
        check.trials = trials
            .into_iter()
            .zip(run.cells)
            .map(|(trial, cell)| PlayTrialResult {
                trial,
                batches: cell.batches,
            })
            .collect();
    }
    let fought: u64 = check
        .trials
        .iter()
        .flat_map(|t| &t.batches)
        .map(|b| b.fights)
        .sum();
    let timing = format!(
        "plays checked: {} fights in {:.2} s",
        crate::report::numbers::grouped(fought),
        started.elapsed().as_secs_f64()
    );
    results.plays = Some(check);
    Ok((results, Some(timing)))
}

/// The trials whose cells the ruleset accepts (an alternative it refuses
/// in a cell is not a play there), with the own play of a side dropped
/// when none of its alternatives is left; and the plan that fights them,
/// compiled once (`None` when no trial is left).
fn playable(
    s: &Scenario,
    trials: Vec<(PlayTrial, Cell)>,
) -> Result<(Vec<PlayTrial>, Option<Plan>), Failure> {
    if trials.is_empty() {
        return Ok((Vec::new(), None));
    }
    let all_cells: Vec<Cell> = trials.iter().map(|(_, c)| c.clone()).collect();
    if let Ok(plan) = plan_cells(s, all_cells) {
        return Ok((trials.into_iter().map(|(t, _)| t).collect(), Some(plan)));
    }
    let kept: Vec<(PlayTrial, Cell)> = trials
        .into_iter()
        .filter(|(_, c)| plan_cells(s, vec![c.clone()]).is_ok())
        .collect();
    let (trials, cells): (Vec<PlayTrial>, Vec<Cell>) = kept
        .iter()
        .enumerate()
        .filter(|(i, (t, _))| {
            t.play.is_some()
                || kept.get(i + 1).is_some_and(|(next, _)| {
                    next.play.is_some() && next.side == t.side && next.cell == t.cell
                })
        })
        .map(|(_, x)| x.clone())
        .unzip();
    if trials.is_empty() {
        return Ok((trials, None));
    }
    Ok((trials, Some(plan_cells(s, cells)?)))
}
