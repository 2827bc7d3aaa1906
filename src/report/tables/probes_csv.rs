//! `probes.csv` of a balance report: every probe in the order it was made.

use super::frame::TableBuilder;
use crate::report::error::ReportError;
use crate::report::labels::RATE_DECIMALS;
use crate::report::names::PROBES_CSV;
use crate::results::BalanceResults;

/// Decimals of a rounding bound (a bound of 1e-13 shows as 0.000000000000:
/// below the 12 decimals the rates get, which is what it says).
const ERROR_DECIMALS: usize = 16;

/// `probes.csv`: `probe` (1-based order), `value`, `fights`, `wins`,
/// `win_rate`, `lo`, `hi` (Wilson 95%).
///
/// With exact win rates (`balance --exact`): `probe`, `value`, `win_rate`
/// (to the digits its rounding bound allows, at most 12) and `error` (that
/// bound).
pub(crate) fn render(results: &BalanceResults) -> Result<Vec<u8>, ReportError> {
    let probes = &results.crossing.probes;
    let mut b = TableBuilder::new(PROBES_CSV);
    if let Some(error) = results.exact {
        let decimals = crate::report::numbers::decimals_good_to(error);
        b.ints("probe", (1..=probes.len() as u64).collect())
            .texts(
                "value",
                probes
                    .iter()
                    .map(|p| results.value_label(p.value))
                    .collect(),
            )
            .floats(
                "win_rate",
                probes.iter().map(|p| p.rate.estimate).collect(),
                decimals,
            )
            .floats(
                "error",
                probes
                    .iter()
                    .map(|p| (p.rate.ci.hi - p.rate.ci.lo) / 2.0)
                    .collect(),
                ERROR_DECIMALS,
            );
        return b.finish(probes.len())?.to_csv();
    }
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
