//! `skirmish sensitivity FILE [--cell N | --where AXIS=VALUE...]`: step each
//! numeric stat of each unit type one step up and one down from an unchanged
//! matrix cell, fight every step as a cell with common random numbers, and
//! rank the stats by their effect on each side's win rate.
//!
//! The scenario layer builds the cells ([`crate::scenario::Sensitivity`]),
//! the runner fights them as one run ([`crate::run::plan_cells`]), the
//! analysis ranks them ([`crate::analysis::sensitivity`]) and the report
//! layer writes `reports/<name>-sensitivity/`
//! ([`crate::report::sensitivity`]). All cells are fought at once, in
//! parallel over (cell, batch), so the report is the same at any
//! `--threads`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{anyhow, Context};
use clap::Args;

use super::Failure;
use crate::report::sensitivity as report;
use crate::report::Kind;
use crate::results::{SensitivityResults, StatInfo};
use crate::run::{plan, plan_cells};
use crate::scenario;

/// How many stats the terminal table shows (every stat is in the report).
const SHOWN: usize = 12;

#[derive(Args, Debug)]
pub(super) struct SensitivityArgs {
    /// Scenario file (TOML).
    file: PathBuf,
    #[command(flatten)]
    base: super::cells::BaseCell,
    #[command(flatten)]
    sim: super::Simulation,
    /// Folder the report goes in, as `<name>-sensitivity/`.
    #[arg(long, default_value = "reports")]
    out: PathBuf,
    /// Re-run and compare with the report already in --out instead of
    /// writing: exit 0 if identical, 1 if anything differs.
    #[arg(long)]
    check: bool,
    /// Also step and rank the stats the scenario leaves at their defaults
    /// (by default only the fields it writes are ranked; the others are
    /// listed as not ranked).
    #[arg(long, conflicts_with = "written_only")]
    all: bool,
    /// Rank only what the scenario writes: the stats it sets (as by
    /// default) and only the rule options it sets (by default every
    /// numeric rule option is ranked).
    #[arg(long)]
    written_only: bool,
    /// State equivalent points in this stat-block field (e.g. `--in hp`),
    /// stepped for every unit type, instead of the ruleset's health stat.
    #[arg(long = "in", value_name = "FIELD")]
    in_field: Option<String>,
}

pub(super) fn sensitivity(args: &SensitivityArgs) -> Result<ExitCode, Failure> {
    let s = scenario::load(&args.file)?;
    // The whole scenario is checked as `run` checks it, whichever cell is
    // left unchanged.
    plan(&s)?;
    let base = s.pick_cell(&args.base.choice())?;
    let which = scenario::Selection {
        all: args.all,
        written_only: args.written_only,
        in_field: args.in_field.clone(),
    };
    let sens = s.sensitivity(base, &which)?;
    if sens.cells.len() < 2 {
        let unwritten = if sens.unranked.is_empty() {
            String::new()
        } else {
            format!(
                "; {} more left at their defaults, which --all steps",
                sens.unranked.len()
            )
        };
        return Err(Failure::BadInput(anyhow!(
            "{}: no stat of any unit type can be stepped ({} stats written, every step \
             refused{unwritten}; run `skirmish rules {}` for the fields)",
            s.source.path,
            sens.stats.len(),
            s.rules
        )));
    }
    let fights = args.sim.fights.unwrap_or(s.fights);
    let seed = args.sim.seed.unwrap_or(s.seed);
    scenario::check_run_size(&s.source.path, sens.cells.len(), fights, None)?;
    let dir = args.out.join(report::folder_name(&s.name));
    if !args.check {
        super::output::preflight(Kind::Sensitivity, &dir, &[args.file.as_path()])?;
    }
    let stats = stat_infos(&sens, &s, args.in_field.as_deref())?;
    let cells = sens.cells.len();
    let plan = plan_cells(&sens.scenario, sens.cells)?;

    let (run, speed) = super::fight_cells(
        &plan,
        &args.sim,
        fights,
        seed,
        &format!("{} sensitivity", s.name),
    )?;
    let timing = format!(
        "{} stats, {} cells, {speed}",
        stats.len(),
        crate::report::numbers::grouped(cells as u64),
    );
    let results = SensitivityResults {
        run,
        base_label: sens.base_label,
        stats,
        unranked: sens
            .unranked
            .iter()
            .map(|stat| (stat.label(), stat.value.clone()))
            .collect(),
        in_field: args.in_field.clone(),
    };
    let table = report::terminal(&results, SHOWN)
        .context("rendering the table")
        .map_err(Failure::Other)?;
    say!(
        "{}: effect of one step up of each stat on each side's win rate \
         (95% intervals), unchanged: {}",
        s.name,
        results.base_label
    );
    say_part!("{table}");
    super::write_or_check(
        Kind::Sensitivity,
        report::render(&results),
        &s.name,
        &dir,
        &timing,
        args.check,
    )
}

/// The stats as the report sees them: sides by index, subjects numbered.
fn stat_infos(
    sens: &scenario::Sensitivity,
    s: &scenario::Scenario,
    in_field: Option<&str>,
) -> Result<Vec<StatInfo>, Failure> {
    let sides: Vec<String> = match sens.scenario.root.get("sides").map(|n| &n.value) {
        Some(scenario::Value::Table(t)) => t.keys().map(str::to_owned).collect(),
        _ => Vec::new(),
    };
    let mut subjects: Vec<(String, String)> = Vec::new();
    sens.stats
        .iter()
        .map(|stat| {
            if stat.rule {
                return Ok(StatInfo {
                    label: stat.label(),
                    path: stat.path(),
                    side: 0,
                    subject: usize::MAX,
                    value: stat.value.clone(),
                    down: stat.steps[0].clone(),
                    up: stat.steps[1].clone(),
                    health: None,
                    contrary: None,
                    rule: true,
                    preferred: false,
                });
            }
            let side = sides.iter().position(|x| *x == stat.side).ok_or_else(|| {
                Failure::Other(anyhow!(
                    "{}: side `{}` of stat `{}` is not a side",
                    s.source.path,
                    stat.side,
                    stat.label()
                ))
            })?;
            let key = (stat.side.clone(), stat.unit.clone());
            let subject = match subjects.iter().position(|k| *k == key) {
                Some(i) => i,
                None => {
                    subjects.push(key);
                    subjects.len() - 1
                }
            };
            Ok(StatInfo {
                label: stat.label(),
                path: stat.path(),
                side,
                subject,
                value: stat.value.clone(),
                down: stat.steps[0].clone(),
                up: stat.steps[1].clone(),
                health: stat.health,
                contrary: stat.contrary.map(str::to_owned),
                rule: false,
                preferred: stat.weapon.is_none() && in_field == Some(stat.field.as_str()),
            })
        })
        .collect()
}
