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
use crate::run::{plan_cells, Budget};
use crate::scenario::{Cell, PlayTrial, Scenario};

/// Smallest gain (in a side's win rate plus its share of the draws) that
/// the report points out, unless `--play-margin` says otherwise.
pub const DEFAULT_MARGIN: f64 = 0.05;

/// Fewest and most fights of one trial: a trial gets a sixteenth of the
/// run's fights per cell within these bounds (never more than the cell's),
/// so the whole check (the own play and up to 7 + 7 alternatives per cell)
/// costs about as much as the run.
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
    let trials = s.play_trials(&cells);
    let (trials, cells): (Vec<PlayTrial>, Vec<Cell>) = playable(s, trials).into_iter().unzip();
    let n = trial_fights(fights);
    let mut check = PlayCheck {
        fights: n,
        margin: args.play_margin,
        trials: Vec::new(),
    };
    if !trials.is_empty() {
        let plan = plan_cells(s, cells)?;
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
/// when none of its alternatives is left.
fn playable(s: &Scenario, trials: Vec<(PlayTrial, Cell)>) -> Vec<(PlayTrial, Cell)> {
    let all_cells: Vec<Cell> = trials.iter().map(|(_, c)| c.clone()).collect();
    if plan_cells(s, all_cells).is_ok() {
        return trials;
    }
    let kept: Vec<(PlayTrial, Cell)> = trials
        .into_iter()
        .filter(|(_, c)| plan_cells(s, vec![c.clone()]).is_ok())
        .collect();
    kept.iter()
        .enumerate()
        .filter(|(i, (t, _))| {
            t.play.is_some()
                || kept.get(i + 1).is_some_and(|(next, _)| {
                    next.play.is_some() && next.side == t.side && next.cell == t.cell
                })
        })
        .map(|(_, x)| x.clone())
        .collect()
}
