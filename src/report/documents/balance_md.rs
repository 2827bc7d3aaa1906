//! `balance.md`: the question a balance search answered, the answer in one
//! sentence (also what `skirmish balance` prints), the probes and the chart.

use std::fmt::Write as _;

use crate::analysis::balance::Probe;
use crate::report::labels::fixed;
use crate::report::names::BALANCE_PNG;
use crate::report::numbers::{grouped, rate_decimals};
use crate::results::BalanceResults;

/// Decimals of an exact win rate in sentences and tables.
const EXACT_DECIMALS: usize = 6;

/// `0.301, 95% 0.297–0.306`: to the precision of the interval
/// ([`crate::report::numbers`]; probes.csv keeps fixed decimals); `0.301234,
/// exact` for an exact win rate.
pub fn rate_label(p: &Probe) -> String {
    if p.rate.trials == 0 {
        // Exact (`balance --exact`): good to far more digits than a reader
        // needs; probes.csv has them all.
        return format!("{}, exact", fixed(p.rate.estimate, EXACT_DECIMALS));
    }
    let d = rate_decimals(&p.rate.ci);
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
    if results.exact.is_some() && c.within_noise() {
        return format!(
            "no crossing: over `{}` = {} to {}, the exact win rate of `{}` is the same at \
             every probe ({}), so `{}` does not move it here",
            results.axis,
            results.value_label(results.from),
            results.value_label(results.to),
            results.side,
            rate_label(&c.probes[0]),
            results.axis,
        );
    }
    if c.within_noise() {
        let by_rate = |a: &&Probe, b: &&Probe| a.rate.estimate.total_cmp(&b.rate.estimate);
        let lo = c
            .probes
            .iter()
            .min_by(by_rate)
            .expect("a search probes both ends");
        let hi = c
            .probes
            .iter()
            .max_by(by_rate)
            .expect("a search probes both ends");
        return format!(
            "no crossing can be told from noise: over `{}` = {} to {}, the win rate of `{}` \
             stays within the noise of its {} probes (lowest {} at {}, highest {} at {}; the \
             95% interval of their difference includes 0), so `{}` does not measurably move \
             it here; more fights per probe (--fights) or a wider range would tell",
            results.axis,
            results.value_label(results.from),
            results.value_label(results.to),
            results.side,
            c.probes.len(),
            rate_label(lo),
            results.value_label(lo.value),
            rate_label(hi),
            results.value_label(hi.value),
            results.axis,
        );
    }
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
pub(crate) fn render(r: &BalanceResults) -> String {
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
    match r.exact {
        Some(error) => {
            let _ = writeln!(
                md,
                "**Question.** At which value of `{}` does the win rate of side `{}` cross \
                 {}?\n\n\
                 Searched from {} to {} ({method}); rules `{}`, exact win rates (every outcome \
                 of every die enumerated with the rules' own code, `skirmish exact`; each \
                 within {} of the true value, by its rounding); fights longer than {} rounds \
                 are draws (not wins). The scenario's `[matrix]` is ignored: each probe is \
                 the base scenario with this one value changed.\n",
                r.axis,
                r.side,
                r.target,
                r.value_label(r.from),
                r.value_label(r.to),
                info.rules,
                crate::report::numbers::scientific(error),
                info.max_rounds,
            );
        }
        None => {
            let _ = writeln!(
                md,
                "**Question.** At which value of `{}` does the win rate of side `{}` cross \
                 {}?\n\n\
                 Searched from {} to {} ({method}); rules `{}`, seed {}, {} fights per probe, \
                 fights longer than {} rounds are draws (not wins). Every probe draws the \
                 same random numbers batch by batch (common random numbers), so probes \
                 differ by the value only. The scenario's `[matrix]` is ignored: each probe \
                 is the base scenario with this one value changed.\n",
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
        }
    }
    if let Some(side) = &r.side_copy {
        let _ = writeln!(
            md,
            "Only side `{side}`'s copy of the stat block (or weapon) changes; the other \
             sides that field it keep the scenario's value.\n"
        );
    }
    if let Some(default) = r.defaulted {
        let _ = writeln!(
            md,
            "The scenario file leaves `{}` at its declared default, {}.\n",
            r.axis,
            r.value_label(default)
        );
    }
    let _ = writeln!(md, "**Answer.** {}.\n", answer(r));
    let note = if r.exact.is_some() {
        "The win rates are exact: assuming the win rate only ever rises (or only \
         falls) with the value, the crossing lies in this bracket."
    } else if c.within_noise() {
        "Every probe lies within the noise of the others: the bracket and the \
         interpolated point of the table below are where the noise crossed the \
         target, not a balance point."
    } else if c.resolved(r.target) {
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
    if r.exact.is_some() {
        let _ = writeln!(md, "| probe | `{}` | exact win rate | |", r.axis);
        let _ = writeln!(md, "|---:|---:|---:|---|");
    } else {
        let _ = writeln!(
            md,
            "| probe | `{}` | fights | wins | win rate | 95% interval | |",
            r.axis
        );
        let _ = writeln!(md, "|---:|---:|---:|---:|---:|---|---|");
    }
    for (i, p) in c.probes.iter().enumerate() {
        let mark = if i == c.lower || i == c.upper {
            "bracket"
        } else {
            ""
        };
        if r.exact.is_some() {
            let _ = writeln!(
                md,
                "| {} | {} | {} | {mark} |",
                i + 1,
                r.value_label(p.value),
                fixed(p.rate.estimate, EXACT_DECIMALS),
            );
            continue;
        }
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {}–{} | {mark} |",
            i + 1,
            r.value_label(p.value),
            grouped(p.rate.trials),
            grouped(p.rate.count),
            fixed(p.rate.estimate, rate_decimals(&p.rate.ci)),
            fixed(p.rate.ci.lo, rate_decimals(&p.rate.ci)),
            fixed(p.rate.ci.hi, rate_decimals(&p.rate.ci)),
        );
    }
    let _ = writeln!(
        md,
        "\n![{} win rate against `{}`]({BALANCE_PNG})\n",
        r.side, r.axis
    );
    let _ = writeln!(
        md,
        "The chart shows each probe's win rate{}, the target as a horizontal line, \
         the bracket highlighted and the interpolated crossing as a vertical line. \
         `probes.csv` holds the same table{}.",
        if r.exact.is_some() {
            " (exact)"
        } else {
            " with its 95% Wilson interval"
        },
        if r.exact.is_some() {
            ", each rate with all the digits it is good to and its rounding bound"
        } else {
            ""
        }
    );
    md
}
