//! `skirmish balance FILE --axis PATH [--target P] [--side NAME]`: search a
//! numeric axis for the value where a side's win rate crosses the target.
//!
//! Each probe is the base scenario with one value put in at the axis path
//! (see [`crate::scenario::BalanceAxis`]), compiled like a matrix cell and
//! fought with the same seed, so every probe draws the same random numbers
//! batch by batch (common random numbers). The search itself is
//! [`crate::analysis::balance::search`]; probes are made one after another
//! (each fought in parallel), in an order that depends only on their
//! results, so the report is the same at any `--threads`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::anyhow;
use clap::Args;

use super::{progress, Failure};
use crate::analysis::balance::{self, Domain, Probe, SearchError};
use crate::analysis::proportion;
use crate::report::balance as report;
use crate::report::Kind;
use crate::results::BalanceResults;
use crate::run::plan;
use crate::scenario::error::list_choices;
use crate::scenario::{self, ScenarioError};

#[derive(Args, Debug)]
pub(super) struct BalanceArgs {
    /// Scenario file (TOML).
    file: PathBuf,
    /// Dotted path of a numeric value to search, as in `[matrix]`
    /// (e.g. `sides.raiders.raider.count`). An integer in the scenario is
    /// searched on integers, a float on reals.
    #[arg(long)]
    axis: String,
    /// The win rate to find, strictly between 0 and 1.
    #[arg(long, default_value_t = 0.5, value_parser = parse_target)]
    target: f64,
    /// Side whose win rate is searched (default: the first side).
    #[arg(long)]
    side: Option<String>,
    /// Change only this side's copy of the stat block (or weapon) the axis
    /// names: required when several sides field it, since moving both at
    /// once measures nothing.
    #[arg(long, value_name = "SIDE")]
    side_copy: Option<String>,
    /// Lower end of the search (default: the smallest value of a matrix axis
    /// on the same path).
    #[arg(long, allow_negative_numbers = true)]
    from: Option<f64>,
    /// Upper end of the search (default: the largest value of a matrix axis
    /// on the same path).
    #[arg(long, allow_negative_numbers = true)]
    to: Option<f64>,
    /// Real axes: stop when the bracket is at most this wide (default: 1% of
    /// --to minus --from).
    #[arg(long)]
    tolerance: Option<f64>,
    #[command(flatten)]
    sim: super::Simulation,
    /// Search on exact win rates (`skirmish exact`) instead of simulated
    /// ones: no noise, so the crossing is exact. Every probe must fit the
    /// limits below, or the search stops (exit 2).
    #[arg(long)]
    exact: bool,
    #[command(flatten)]
    limits: super::exact::ExactLimits,
    /// Folder the report goes in, as `<name>-balance/`.
    #[arg(long, default_value = "reports")]
    out: PathBuf,
    /// Re-run the search and compare with the report already in --out
    /// instead of writing: exit 0 if identical, 1 if anything differs.
    #[arg(long)]
    check: bool,
}

/// `--target`: a number strictly between 0 and 1.
fn parse_target(text: &str) -> Result<f64, String> {
    let v: f64 = text
        .parse()
        .map_err(|_| format!("expected a win rate strictly between 0 and 1, found `{text}`"))?;
    if v > 0.0 && v < 1.0 {
        Ok(v)
    } else {
        Err(format!(
            "expected a win rate strictly between 0 and 1, found {v}"
        ))
    }
}

fn bad(e: anyhow::Error) -> Failure {
    Failure::BadInput(e)
}

/// Why a probe could not be made.
enum ProbeError {
    /// The value makes the scenario invalid.
    Scenario(Box<ScenarioError>),
    /// `--exact`: the probe at this value does not fit the limits.
    Exact(f64, crate::exact::ExactError),
}

impl From<ScenarioError> for ProbeError {
    fn from(e: ScenarioError) -> Self {
        ProbeError::Scenario(Box::new(e))
    }
}

pub(super) fn balance(args: &BalanceArgs) -> Result<ExitCode, Failure> {
    let s = scenario::load(&args.file)?;
    let axis = s.balance_axis(&args.axis, args.side_copy.as_deref())?;
    let path = &axis.path;
    let (from, to) = match (args.from, args.to, axis.matrix_bounds) {
        (Some(f), Some(t), _) => (f, t),
        (f, t, Some((lo, hi))) => (f.unwrap_or(lo), t.unwrap_or(hi)),
        _ => {
            return Err(bad(anyhow!(
                "{}: give --from and --to: `{path}` is not a matrix axis with numeric \
                 values to take the bounds from",
                s.source.path
            )))
        }
    };
    let domain = if axis.integer {
        if args.tolerance.is_some() {
            return Err(bad(anyhow!(
                "--tolerance is for real axes; `{path}` is an integer in {}, searched \
                 down to two adjacent values",
                s.source.path
            )));
        }
        Domain::Integers
    } else {
        Domain::Reals {
            tolerance: args.tolerance.unwrap_or((to - from).abs() / 100.0),
        }
    };
    balance::check_bounds(from, to, domain)
        .map_err(|m| bad(anyhow!("--from/--to for `{path}`: {m}")))?;

    // Compile both ends before fighting anything: a bad value or side is
    // reported at once.
    let first = plan(&s.with_balance_value(&axis, from))?;
    plan(&s.with_balance_value(&axis, to))?;
    let dir = args.out.join(report::folder_name(&s.name));
    if !args.check {
        super::output::preflight(Kind::Balance, &dir, &[args.file.as_path()])?;
    }
    let sides: Vec<&str> = first.info.sides.iter().map(|x| x.name.as_str()).collect();
    let side_index = match &args.side {
        None => 0,
        Some(name) => sides.iter().position(|x| x == name).ok_or_else(|| {
            bad(anyhow!(
                "{}: `{name}` is not a side of the scenario (sides: {})",
                s.source.path,
                list_choices(sides.iter().copied())
            ))
        })?,
    };
    let side = sides[side_index].to_string();

    if args.exact && (args.sim.fights.is_some() || args.sim.seed.is_some()) {
        return Err(bad(anyhow!(
            "--exact enumerates every fight: --fights and --seed would change nothing"
        )));
    }
    if !args.exact && args.limits.given() {
        return Err(bad(anyhow!(
            "--max-states and --max-outcomes limit an exact enumeration: give --exact too"
        )));
    }
    let limits = args.limits.limits();
    let pool = super::worker_pool(args.sim.threads)?;
    let fights = args.sim.fights.unwrap_or(s.fights);
    let seed = args.sim.seed.unwrap_or(s.seed);
    let most = balance::max_probes(from, to, domain);
    let bar = if args.exact {
        progress::fights_bar(
            most,
            progress::Total::AtMost,
            &format!("{} exact balance (probes)", s.name),
            args.sim.quiet,
        )
    } else {
        progress::fights_bar(
            most.saturating_mul(fights),
            progress::Total::AtMost,
            &format!("{} balance", s.name),
            args.sim.quiet,
        )
    };
    let started = Instant::now();
    let worst = std::cell::Cell::new(0.0f64);
    let probe = |value: f64| -> Result<crate::analysis::Proportion, ProbeError> {
        let p = plan(&s.with_balance_value(&axis, value))?;
        if args.exact {
            let answer = pool
                .install(|| p.exact(0, &limits))
                .map_err(|e| ProbeError::Exact(value, e))?;
            bar.inc(1);
            worst.set(worst.get().max(answer.error()));
            return Ok(crate::analysis::exact_proportion(
                answer.wins[side_index],
                answer.error(),
            ));
        }
        let results = pool.install(|| p.run(fights, seed, &|n| bar.inc(n)));
        let tally = &results.cells[0].tally;
        Ok(proportion(tally.wins[side_index], tally.fights))
    };
    let label = |v: f64| {
        if axis.integer {
            format!("{}", v as i64)
        } else {
            format!("{v}")
        }
    };
    let outcome = balance::search(from, to, domain, args.target, probe);
    let seconds = started.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let crossing = match outcome {
        Ok(c) => c,
        Err(SearchError::Probe(ProbeError::Scenario(e))) => return Err((*e).into()),
        Err(SearchError::Probe(ProbeError::Exact(value, e))) => {
            return Err(bad(anyhow!(
                "{}: --exact: the probe at `{path}` = {} does not fit: {e}; search a \
                 narrower range, raise the limit, or search simulated win rates (without \
                 --exact)",
                s.source.path,
                label(value)
            )))
        }
        Err(SearchError::BadBounds(m)) => return Err(bad(anyhow!("{m}"))),
        Err(SearchError::Unreachable { from, to }) => {
            let rate = |p: &Probe| {
                format!(
                    "{})",
                    crate::report::balance::rate_label(p).replacen(", ", " (", 1)
                )
            };
            let side_of = |p: &Probe| {
                if p.rate.estimate < args.target {
                    "below"
                } else {
                    "at or above"
                }
            };
            // Ends within each other's noise: the value may change nothing.
            let noise = crate::analysis::newcombe(&to.rate, &from.rate).ci;
            let flat = if noise.lo <= 0.0 && noise.hi >= 0.0 {
                format!(
                    "; the two ends are within each other's noise, so `{path}` may not move \
                     the win rate here at all"
                )
            } else {
                String::new()
            };
            return Err(bad(anyhow!(
                "{}: unreachable target: `{side}` wins {} at `{path}` = {} and {} at {}, \
                 both {} the target {}{flat}; widen --from/--to (the search assumes the win \
                 rate only rises or only falls with the value)",
                s.source.path,
                rate(&from),
                label(from.value),
                rate(&to),
                label(to.value),
                side_of(&from),
                args.target
            )));
        }
    };
    let mut info = first.info.clone();
    info.seed = seed;
    info.fights = fights;
    let results = BalanceResults {
        scenario: info,
        axis: path.clone(),
        side_copy: axis.side_copy.clone(),
        defaulted: axis.defaulted.then_some(axis.base).flatten(),
        integer: axis.integer,
        tolerance: match domain {
            Domain::Reals { tolerance } => Some(tolerance),
            Domain::Integers => None,
        },
        side,
        side_index,
        target: args.target,
        from,
        to,
        crossing,
        exact: args.exact.then(|| worst.get()),
    };
    let probes = results.crossing.probes.len();
    let total = probes as u64 * fights;
    let timing = if args.exact {
        format!("{probes} probes, exact, in {seconds:.2} s")
    } else {
        format!(
            "{probes} probes, {} fights in {seconds:.2} s: {} fights/s on {} thread{}",
            crate::report::numbers::grouped(total),
            progress::human(total as f64 / seconds.max(1e-9)),
            pool.current_num_threads(),
            if pool.current_num_threads() == 1 {
                ""
            } else {
                "s"
            },
        )
    };
    say!("{}: {}", s.name, report::answer(&results));
    super::write_or_check(
        Kind::Balance,
        report::render(&results),
        &s.name,
        &dir,
        &timing,
        args.check,
    )
}
