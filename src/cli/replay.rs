//! `skirmish replay`: which fight the arguments name, and printing it. The
//! fight itself, the picking and the words are the [`crate::replay`]
//! module's.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::builder::PossibleValuesParser;
use clap::Args;

use super::{parse_fights, parse_seed, Failure};
use crate::replay::{self, Pick};
use crate::results::Streams;
use crate::run::{plan, Budget, Plan};
use crate::scenario;

#[derive(Args, Debug)]
pub(super) struct ReplayArgs {
    /// Scenario file (TOML).
    file: PathBuf,
    /// The cell, by its number in cells.csv (column `cell`, from 0). Without
    /// --cell or --where: the baseline cell.
    #[arg(long, conflicts_with = "where_")]
    cell: Option<usize>,
    /// The cell, by its value on an axis: AXIS=VALUE with the axis path as in
    /// the matrix and the value as in cells.csv; once per axis.
    #[arg(long = "where", value_name = "AXIS=VALUE")]
    where_: Vec<String>,
    /// Fight K of the cell (from 0), as the run fought it.
    #[arg(long, value_name = "K", conflicts_with = "pick")]
    fight: Option<u64>,
    /// Pick a fight of the cell: typical (the most frequent winner, the
    /// median length), upset (won by a side that wins less often), longest,
    /// shortest. The default without --fight: typical.
    #[arg(long, value_parser = PossibleValuesParser::new(Pick::NAMES))]
    pick: Option<String>,
    /// Fights per matrix cell of the run (overrides the scenario's `fights`;
    /// give what the run was given: it sets the batches).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_fights)]
    fights: Option<u64>,
    /// Random seed of the run (overrides the scenario's `seed`).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_seed)]
    seed: Option<u64>,
    /// The run gave every cell its own random streams (`run
    /// --independent-streams`).
    #[arg(long)]
    independent_streams: bool,
    /// One JSON object per line instead of text.
    #[arg(long)]
    json: bool,
}

pub(super) fn replay(args: &ReplayArgs) -> Result<ExitCode, Failure> {
    let s = scenario::load(&args.file)?;
    let p = plan(&s)?;
    let bad = |message: String| Failure::BadInput(anyhow::anyhow!("{}: {message}", s.source.path));
    let cell = select_cell(&p, args).map_err(bad)?;
    let seed = args.seed.unwrap_or(s.seed);
    let fights = args.fights.unwrap_or(s.fights);
    let streams = if args.independent_streams {
        Streams::Independent
    } else {
        Streams::Common
    };
    // The run's budget decides its batches: with a precision target (from
    // the scenario) only the run itself says how many fights each cell got.
    let budget = match s.precision.filter(|&t| t > 0.0) {
        None => Budget::Fights(fights),
        Some(target) => Budget::Precision {
            fights,
            target,
            max_fights: s.max_fights,
        },
    };
    let size = budget.batch();
    let which = match (&args.fight, &args.pick) {
        (Some(_), _) => None,
        (None, Some(name)) => Pick::parse(name),
        (None, None) => Some(Pick::Typical),
    };
    let precise = matches!(budget, Budget::Precision { .. });
    let tally = (which.is_some() || precise).then(|| {
        let results = p.run_with(budget, seed, streams, &|_| {});
        results.cells[cell].tally.clone()
    });
    let in_cell = tally.as_ref().map_or(fights, |t| t.fights);
    let k = match (args.fight, which) {
        (Some(k), _) => {
            if k >= in_cell {
                return Err(bad(format!(
                    "--fight {k} is not a fight of cell {cell}: it has fights 0 to {} \
                     (--fights {in_cell})",
                    in_cell - 1
                )));
            }
            k
        }
        (None, Some(which)) => {
            let tally = tally.as_ref().expect("a pick has the cell's tally");
            let sides: Vec<String> = p.info.sides.iter().map(|s| s.name.clone()).collect();
            let k = replay::pick(&p, cell, seed, streams, size, tally, &sides, which)
                .map_err(|e| bad(e.to_string()))?;
            // How the typical fight stands for its cell goes to stderr, so
            // that stdout is the fight alone (as fights.md shows it).
            if which == Pick::Typical {
                if let Some(note) = replay::typical_note(tally, &sides) {
                    eprintln!("note: {note}");
                }
            }
            k
        }
        (None, None) => unreachable!("without --fight a pick is chosen"),
    };
    let watched = replay::watch(&p, cell, seed, streams, size, k);
    let roster = replay::roster(&p, cell);
    let text = if args.json {
        replay::json::json_lines(&watched, &roster)
    } else {
        let colour = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
        replay::narrate::narrate(&watched, &roster, colour)
    };
    say_part!("{text}");
    Ok(ExitCode::SUCCESS)
}

/// The cell `--cell` or `--where` names; the baseline cell if neither is
/// given.
fn select_cell(p: &Plan, args: &ReplayArgs) -> Result<usize, String> {
    let n = p.cells.len();
    if let Some(c) = args.cell {
        if c >= n {
            return Err(format!(
                "--cell {c} is not a cell of this scenario: it has cells 0 to {}",
                n - 1
            ));
        }
        return Ok(c);
    }
    if args.where_.is_empty() {
        return Ok(p.info.baseline);
    }
    let matching = super::cells::matching(p, &args.where_)?;
    match matching.cells.as_slice() {
        [one] => Ok(*one),
        cells => Err(format!(
            "{} cells match; name one with --cell N (0 to {}) or --where AXIS=VALUE for \
             each of: {}",
            cells.len(),
            n - 1,
            matching.open.join("; ")
        )),
    }
}
