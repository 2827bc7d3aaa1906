//! `skirmish tactics FILE [--cell N | --where AXIS=VALUE...]`: fight every
//! pair of the two sides' candidate plays (`[plays.SIDE]`) in one cell of
//! the matrix, with common random numbers, and solve the game.
//!
//! The scenario layer builds the strategy pairs as cells
//! ([`crate::scenario::Game`]), the runner fights them as one run
//! ([`crate::run::plan_cells`]), the analysis solves the game
//! ([`crate::analysis::game`]) and the report layer writes
//! `reports/<name>-tactics/` ([`crate::report::tactics`]). All pairs are
//! fought at once, in parallel over (cell, batch), so the report is the
//! same at any `--threads`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;

use super::Failure;
use crate::analysis::game::{self, Payoffs};
use crate::engine::{BatchStat, Tally};
use crate::report::tactics as report;
use crate::report::Kind;
use crate::results::TacticsResults;
use crate::run::{plan, plan_cells, PRECISION_STEP};
use crate::scenario;

#[derive(Args, Debug)]
pub(super) struct TacticsArgs {
    /// Scenario file (TOML) with `[plays.SIDE]` tables.
    file: PathBuf,
    #[command(flatten)]
    base: super::cells::BaseCell,
    #[command(flatten)]
    sim: super::Simulation,
    #[command(flatten)]
    target: super::Target,
    /// Folder the report goes in, as `<name>-tactics/`.
    #[arg(long, default_value = "reports")]
    out: PathBuf,
    /// Re-run and compare with the report already in --out instead of
    /// writing: exit 0 if identical, 1 if anything differs.
    #[arg(long)]
    check: bool,
}

pub(super) fn tactics(args: &TacticsArgs) -> Result<ExitCode, Failure> {
    let s = scenario::load(&args.file)?;
    // The whole scenario is checked as `run` checks it.
    plan(&s)?;
    let base = s.pick_cell(&args.base.choice())?;
    let base_label = if s.axes.is_empty() {
        "the scenario".to_string()
    } else {
        base.label.clone()
    };
    let game = s.tactics(base)?;
    let fights = args.sim.fights.unwrap_or(s.fights);
    let seed = args.sim.seed.unwrap_or(s.seed);
    let cells = game.scenario.cells()?;
    let pairs = cells.len();
    args.target.check(&s)?;
    let budget = args.target.budget(&s, fights);
    scenario::check_run_size(&s.source.path, pairs, fights, args.target.max_fights(&s))?;
    // Every strategy pair is compiled (and every bad value refused) before
    // anything is fought or written.
    let plan = plan_cells(&game.scenario, cells)?;
    let dir = args.out.join(report::folder_name(&s.name));
    if !args.check {
        super::output::preflight(Kind::Tactics, &dir, &[args.file.as_path()])?;
    }
    let (rows, cols) = (game.strategies[0].len(), game.strategies[1].len());
    let target = args.target.precision(&s).unwrap_or(f64::INFINITY);
    // With a precision target the game is raced: after each round, fights
    // go to the pairs that decide it (`analysis::game::race`).
    let mut decide = |cells: &[(Tally, Vec<BatchStat>)], cap: u64| {
        let payoffs = Payoffs::from_stats(rows, cols, cells.iter().map(|(_, b)| b.as_slice()));
        match game::race(&payoffs, target, cap, PRECISION_STEP) {
            Ok(race) => (race.wanted, race.capped),
            // Payoffs are shares of fights, so the game always solves; if it
            // did not, fighting more would not help: stop where it is.
            Err(_) => (
                cells.iter().map(|(_, b)| b.len() as u64).collect(),
                vec![false; cells.len()],
            ),
        }
    };
    let (run, speed) = super::simulate_cells(
        &plan,
        &args.sim,
        budget,
        seed,
        &format!("{} tactics", s.name),
        Some(&mut decide),
    )?;
    let timing = format!(
        "{} × {} strategies, {speed}",
        game.strategies[0].len(),
        game.strategies[1].len(),
    );
    let results = TacticsResults {
        run,
        base_label,
        sides: game.sides,
        paths: game.paths,
        strategies: game.strategies,
        own: game.own,
    };
    let verdict = report::terminal(&results)
        .context("solving the game")
        .map_err(Failure::Other)?;
    say!("{}: best play ({pairs} strategy pairs)", s.name);
    say_part!("{verdict}");
    super::write_or_check(
        Kind::Tactics,
        report::render(&results),
        &s.name,
        &dir,
        &timing,
        args.check,
    )
}
