//! The report of `skirmish balance`, in `reports/<name>-balance/`:
//! `probes.csv` (every probe in the order it was made), `balance.md` (the
//! question, the answer, the table, the chart) and `balance.png` (see
//! [`super::balance_chart`]).
//!
//! Like every report, a pure function of the results: the same seed gives
//! the same bytes at any thread count. Written atomically with
//! [`super::write_files`], checked with [`super::compare`].

use std::fmt::Write as _;
use std::path::Path;

use super::error::ReportError;
use super::frame::TableBuilder;
use super::labels::{fixed, RATE_DECIMALS};
use super::{balance_chart, write_files, ReportFile};
use crate::analysis::balance::Probe;
use crate::results::BalanceResults;

/// File names of a balance report.
pub const PROBES_CSV: &str = "probes.csv";
pub const BALANCE_MD: &str = "balance.md";
pub const BALANCE_PNG: &str = "balance.png";

/// The report folder's name for scenario `name`: `<name>-balance`.
pub fn folder_name(name: &str) -> String {
    format!("{name}-balance")
}

/// Renders every file of the balance report in memory, in a fixed order.
pub fn render(results: &BalanceResults) -> Result<Vec<ReportFile>, ReportError> {
    if results.crossing.probes.is_empty()
        || results.crossing.lower >= results.crossing.probes.len()
        || results.crossing.upper >= results.crossing.probes.len()
    {
        return Err(ReportError::Inconsistent(
            "a balance search without its bracket probes".to_owned(),
        ));
    }
    Ok(vec![
        ReportFile {
            name: PROBES_CSV,
            bytes: probes_csv(results)?,
        },
        ReportFile {
            name: BALANCE_MD,
            bytes: balance_md(results).into_bytes(),
        },
        ReportFile {
            name: BALANCE_PNG,
            bytes: balance_chart::render(results)?,
        },
    ])
}

/// Renders the balance report and writes it to `out_dir` atomically.
pub fn write(results: &BalanceResults, out_dir: &Path) -> Result<(), ReportError> {
    write_files(&render(results)?, out_dir)
}

/// `probes.csv`: `probe` (1-based order), `value`, `fights`, `wins`,
/// `win_rate`, `lo`, `hi` (Wilson 95%).
fn probes_csv(results: &BalanceResults) -> Result<Vec<u8>, ReportError> {
    let probes = &results.crossing.probes;
    let mut b = TableBuilder::new(PROBES_CSV);
    b.ints("probe", (1..=probes.len() as u64).collect())
        .texts(
            "value",
            probes
                .iter()
                .map(|p| results.value_label(p.value))
                .collect(),
        )
        .ints("fights", probes.iter().map(|p| p.rate.trials).collect())
        .ints("wins", probes.iter().map(|p| p.rate.count).collect())
        .floats(
            "win_rate",
            probes.iter().map(|p| p.rate.estimate).collect(),
            RATE_DECIMALS,
        )
        .floats(
            "lo",
            probes.iter().map(|p| p.rate.ci.lo).collect(),
            RATE_DECIMALS,
        )
        .floats(
            "hi",
            probes.iter().map(|p| p.rate.ci.hi).collect(),
            RATE_DECIMALS,
        );
    b.finish(probes.len())?.to_csv()
}

/// `0.301, 95% 0.297–0.306`: to the precision of the interval
/// ([`super::numbers`]; probes.csv keeps fixed decimals).
pub fn rate_label(p: &Probe) -> String {
    let d = super::numbers::rate_decimals(&p.rate.ci);
    format!(
        "{}, 95% {}–{}",
        fixed(p.rate.estimate, d),
        fixed(p.rate.ci.lo, d),
        fixed(p.rate.ci.hi, d)
    )
}

/// The answer in one sentence (also what the command prints).
pub fn answer(results: &BalanceResults) -> String {
    let c = &results.crossing;
    let (a, b) = (c.lower(), c.upper());
    let (first, second) = if a.value <= b.value { (a, b) } else { (b, a) };
    let between = if results.integer {
        "between the adjacent values"
    } else {
        "in the interval"
    };
    format!(
        "the win rate of `{}` crosses {} {between} `{}` = {} ({}) and {} ({}); \
         linear interpolation puts the crossing at about {} (an estimate)",
        results.side,
        results.target,
        results.axis,
        results.value_label(first.value),
        rate_label(first),
        results.value_label(second.value),
        rate_label(second),
        results.estimate_label()
    )
}

/// `balance.md`.
fn balance_md(r: &BalanceResults) -> String {
    let info = &r.scenario;
    let c = &r.crossing;
    let mut md = String::new();
    let _ = writeln!(md, "# {}: balance of `{}`\n", info.name, r.axis);
    if !info.description.is_empty() {
        let _ = writeln!(md, "{}\n", info.description);
    }
    let method = if r.integer {
        "integers, by bisection to two adjacent values".to_owned()
    } else {
        format!(
            "real numbers, by bisection to an interval at most {} wide",
            r.tolerance.map_or_else(String::new, |t| format!("{t}"))
        )
    };
    let _ = writeln!(
        md,
        "**Question.** At which value of `{}` does the win rate of side `{}` cross {}?\n\n\
         Searched from {} to {} ({method}); rules `{}`, seed {}, {} fights per probe, \
         fights longer than {} rounds are draws (not wins). Every probe draws the same \
         random numbers batch by batch (common random numbers), so probes differ by the \
         value only. The scenario's `[matrix]` is ignored: each probe is the base \
         scenario with this one value changed.\n",
        r.axis,
        r.side,
        r.target,
        r.value_label(r.from),
        r.value_label(r.to),
        info.rules,
        info.seed,
        info.fights,
        info.max_rounds,
    );
    let _ = writeln!(md, "**Answer.** {}.\n", answer(r));
    let note = if c.resolved(r.target) {
        "Both 95% intervals exclude the target: assuming the win rate only ever \
         rises (or only falls) with the value, the crossing lies in this bracket."
    } else {
        "At least one 95% interval includes the target: the bracket is as measured, \
         but more fights per probe (`--fights`) would be needed to be sure of it."
    };
    let _ = writeln!(
        md,
        "{note} The interpolated point assumes the win rate is a straight line \
         between the two values; it is an estimate, not a measurement.\n"
    );
    let _ = writeln!(md, "## Probes\n");
    let _ = writeln!(
        md,
        "In the order they were made: the two ends first, then each midpoint of \
         the bracket that still holds the crossing.\n"
    );
    let _ = writeln!(
        md,
        "| probe | `{}` | fights | wins | win rate | 95% interval | |",
        r.axis
    );
    let _ = writeln!(md, "|---:|---:|---:|---:|---:|---|---|");
    for (i, p) in c.probes.iter().enumerate() {
        let mark = if i == c.lower || i == c.upper {
            "bracket"
        } else {
            ""
        };
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {}–{} | {mark} |",
            i + 1,
            r.value_label(p.value),
            super::numbers::grouped(p.rate.trials),
            super::numbers::grouped(p.rate.count),
            fixed(p.rate.estimate, super::numbers::rate_decimals(&p.rate.ci)),
            fixed(p.rate.ci.lo, super::numbers::rate_decimals(&p.rate.ci)),
            fixed(p.rate.ci.hi, super::numbers::rate_decimals(&p.rate.ci)),
        );
    }
    let _ = writeln!(
        md,
        "\n![{} win rate against `{}`]({BALANCE_PNG})\n",
        r.side, r.axis
    );
    let _ = writeln!(
        md,
        "The chart shows each probe's win rate with its 95% Wilson interval, the \
         target as a horizontal line, the bracket highlighted and the interpolated \
         crossing as a vertical line. `probes.csv` holds the same table."
    );
    md
}
