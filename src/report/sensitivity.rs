//! The report of `skirmish sensitivity`, in `reports/<name>-sensitivity/`:
//! `sensitivity.csv` (every stat, ranked), `sensitivity.png` (the ranked
//! chart, see [`super::charts::sensitivity`]) and `summary.md`; plus the
//! table the command prints.
//!
//! Like every report, a pure function of the results: the same seed gives
//! the same bytes at any thread count. Written atomically with
//! [`super::write_files`], checked with [`super::compare`].

use std::path::Path;

use super::charts;
use super::documents::sensitivity_md;
use super::error::ReportError;
use super::model::SensitivityModel;
use super::names::{SENSITIVITY_CSV, SENSITIVITY_PNG, SUMMARY_MD};
use super::tables::sensitivity_csv;
use super::{write_files, Kind, ReportFile};
use crate::results::SensitivityResults;

/// The report folder's name for scenario `name`: `<name>-sensitivity`.
pub fn folder_name(name: &str) -> String {
    format!("{name}-sensitivity")
}

/// Renders every file of the sensitivity report in memory, in a fixed order.
pub fn render(results: &SensitivityResults) -> Result<Vec<ReportFile>, ReportError> {
    let m = SensitivityModel::new(results)?;
    Ok(vec![
        ReportFile {
            name: SENSITIVITY_CSV,
            bytes: sensitivity_csv::render(&m)?,
        },
        ReportFile {
            name: SENSITIVITY_PNG,
            bytes: charts::sensitivity::render(&m)?,
        },
        ReportFile {
            name: SUMMARY_MD,
            bytes: sensitivity_md::render(&m).into_bytes(),
        },
    ])
}

/// `header` and `rows` as an aligned table (the label column left, the
/// others right), one line each.
fn aligned(header: Vec<String>, rows: Vec<Vec<String>>) -> String {
    let mut table = vec![header];
    table.extend(rows);
    let columns = table[0].len();
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            table
                .iter()
                .map(|r| r[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in &table {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (text, &w))| {
                if c == 1 {
                    format!("{text:<w$}")
                } else {
                    format!("{text:>w$}")
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// Renders the sensitivity report and writes it to `out_dir` atomically.
pub fn write(results: &SensitivityResults, out_dir: &Path) -> Result<(), ReportError> {
    write_files(Kind::Sensitivity, &render(results)?, out_dir)
}

/// What the command prints: the `limit` stats with the largest effects as
/// an aligned table, how many more there are, and the equivalent points.
pub fn terminal(results: &SensitivityResults, limit: usize) -> Result<String, ReportError> {
    let m = SensitivityModel::new(results)?;
    let mut out = aligned(sensitivity_md::header(&m), sensitivity_md::rows(&m, limit));
    let more = m.order.len().saturating_sub(limit);
    if more > 0 {
        out.push_str(&format!(
            "… and {more} more stat{} in {SENSITIVITY_CSV}\n",
            if more == 1 { "" } else { "s" }
        ));
    }
    if !m.rule_order.is_empty() {
        let mut header = sensitivity_md::header(&m);
        header[1] = "rule option".to_owned();
        out.push('\n');
        out.push_str(&aligned(header, sensitivity_md::rule_rows(&m, limit)));
        let more = m.rule_order.len().saturating_sub(limit);
        if more > 0 {
            out.push_str(&format!(
                "… and {more} more rule option{} in {SENSITIVITY_CSV}\n",
                if more == 1 { "" } else { "s" }
            ));
        }
    }
    let against = sensitivity_md::against_own_side(&m);
    for line in against.iter().take(limit) {
        out.push_str(&format!("{line}\n"));
    }
    let more = against.len().saturating_sub(limit);
    if more > 0 {
        out.push_str(&format!(
            "… and {more} more stat{} against their own side in {SUMMARY_MD}\n",
            if more == 1 { "" } else { "s" }
        ));
    }
    let unranked = results.unranked.len();
    if unranked > 0 {
        out.push_str(&format!(
            "Not ranked: {} (`--all` ranks the stats; without `--written-only` every rule \
             option is ranked; listed in {SUMMARY_MD})\n",
            sensitivity_md::left_at_defaults(unranked)
        ));
    }
    for e in m.equivalences.iter().take(limit) {
        out.push_str(&format!("{}\n", sensitivity_md::equivalence(&m, e)));
    }
    let more = m.equivalences.len().saturating_sub(limit);
    if more > 0 {
        out.push_str(&format!(
            "… and {more} more equivalent point{} in {SUMMARY_MD}\n",
            if more == 1 { "" } else { "s" }
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{BatchStat, Tally};
    use crate::results::{CellResult, RunResults, ScenarioInfo, SideInfo, StatInfo, Streams};

    /// A run of `stats` stats on `sides` sides: stat `i` moves side 0's win
    /// rate by about `(i + 1) / stats / 10` per step, taken from side 1;
    /// every third stat has no step down. 8 batches of 1000 fights a cell.
    fn results(stats: usize, sides: usize) -> SensitivityResults {
        let cell = |index: usize, shift: f64| {
            let batches: Vec<BatchStat> = (0..8)
                .map(|b| {
                    let w = (400.0 + 1000.0 * shift + ((b * 7 + index) % 5) as f64) as u64;
                    let mut wins = [0u64; 4];
                    wins[0] = w;
                    wins[1] = 1000 - w;
                    BatchStat {
                        fights: 1000,
                        wins,
                        draws: 0,
                        rounds: 3000,
                    }
                })
                .collect();
            let mut tally = Tally {
                fights: 8000,
                ..Tally::default()
            };
            for b in &batches {
                tally.wins[0] += b.wins[0];
                tally.wins[1] += b.wins[1];
            }
            tally.rounds[3] = 8000;
            CellResult {
                index,
                axis_values: Vec::new(),
                tally,
                batches,
                capped: false,
            }
        };
        let mut cells = vec![cell(0, 0.0)];
        let mut infos = Vec::new();
        for i in 0..stats {
            let effect = (i + 1) as f64 / stats as f64 / 10.0;
            let down = if i % 3 == 2 {
                Err("1 is the least `x` allows".to_owned())
            } else {
                cells.push(cell(cells.len(), -effect));
                Ok((cells.len() - 1, "4".to_owned()))
            };
            cells.push(cell(cells.len(), effect));
            infos.push(StatInfo {
                label: format!("unit{} stat {i}", i % 4),
                path: format!("units.unit{}.stat{i}", i % 4),
                side: i % sides,
                subject: i % 4,
                value: "5".to_owned(),
                down,
                up: Ok((cells.len() - 1, "6".to_owned())),
                health: None,
                contrary: None,
                rule: false,
                preferred: false,
            });
        }
        let scenario = ScenarioInfo {
            name: "synthetic".to_owned(),
            description: String::new(),
            rules: "trenches".to_owned(),
            seed: 1,
            fights: 8000,
            max_rounds: 100,
            sides: (0..sides)
                .map(|s| SideInfo {
                    name: format!("side{s}"),
                    units: Vec::new(),
                })
                .collect(),
            axes: Vec::new(),
            counters: Vec::new(),
            options: Vec::new(),
            baseline: 0,
            streams: Streams::Common,
            precision: None,
            setups: Vec::new(),
            warnings: Vec::new(),
        };
        SensitivityResults {
            run: RunResults {
                scenario,
                cells,
                fights: Vec::new(),
                exact: Vec::new(),
                plays: None,
                ground: None,
            },
            base_label: "base scenario".to_owned(),
            stats: infos,
            unranked: Vec::new(),
            in_field: None,
        }
    }

    /// Width and height from a PNG's IHDR chunk.
    fn png_size(png: &[u8]) -> (u32, u32) {
        let be = |at: usize| u32::from_be_bytes([png[at], png[at + 1], png[at + 2], png[at + 3]]);
        (be(16), be(20))
    }

    #[test]
    fn renders_one_stat_to_hundreds_on_every_side_within_bounds() {
        for (stats, sides, height) in [(1, 2, 200), (12, 2, 552), (300, 4, 2248)] {
            let r = results(stats, sides);
            let files = render(&r).unwrap();
            let names: Vec<&str> = files.iter().map(|f| f.name).collect();
            assert_eq!(names, [SENSITIVITY_CSV, SENSITIVITY_PNG, SUMMARY_MD]);
            for f in &files {
                assert!(Kind::Sensitivity.files().contains(&f.name), "{}", f.name);
            }
            if let Some(dir) = std::env::var_os("SKIRMISH_CHART_DIR") {
                let path = std::path::Path::new(&dir).join(format!("sensitivity-{stats}.png"));
                std::fs::write(path, &files[1].bytes).unwrap();
            }
            assert_eq!(png_size(&files[1].bytes), (1400, height), "{stats} stats");
            let csv = String::from_utf8(files[0].bytes.clone()).unwrap();
            assert_eq!(csv.lines().count(), 1 + stats, "{csv}");
            // Same input, same bytes.
            assert_eq!(render(&r).unwrap(), files);
        }
    }

    #[test]
    fn ranks_by_effect_and_says_which_steps_were_not_taken() {
        let r = results(12, 2);
        let files = render(&r).unwrap();
        let csv = String::from_utf8(files[0].bytes.clone()).unwrap();
        let first: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
        // Stat 11 has the largest effect; it has no step down (11 % 3 == 2).
        assert_eq!(
            &first[..8],
            [
                "1",
                "stat",
                "unit3 stat 11",
                "side1",
                "units.unit3.stat11",
                "5",
                "",
                "6"
            ]
        );
        let md = String::from_utf8(files[2].bytes.clone()).unwrap();
        assert!(
            md.contains("- `unit3 stat 11` (5), step down: 1 is the least `x` allows"),
            "{md}"
        );
        let table = terminal(&r, 5).unwrap();
        assert_eq!(
            table.lines().count(),
            1 + 5 + 1 + r_against(&r) + r_equivalences(&r),
            "{table}"
        );
        // Side 1's stats raise side 0's win rate: they work against their
        // own side, and the ruleset gives no reason.
        assert!(
            table.contains(
                "`unit3 stat 11`: -0.1000 [-0.1000, -0.1000] per step up on the win rate of \
                 `side1`: the ruleset declares no reason"
            ),
            "{table}"
        );
        assert!(
            table.contains("… and 7 more stats in sensitivity.csv"),
            "{table}"
        );
    }

    /// Lines of stats against their own side the terminal prints (at most
    /// 5, then one line saying how many more).
    fn r_against(r: &SensitivityResults) -> usize {
        let n = SensitivityModel::new(r).unwrap().against_own_side.len();
        n.min(5) + usize::from(n > 5)
    }

    /// Lines of equivalent points the terminal prints (at most 5, then one
    /// line saying how many more).
    fn r_equivalences(r: &SensitivityResults) -> usize {
        let n = SensitivityModel::new(r).unwrap().equivalences.len();
        n.min(5) + usize::from(n > 5)
    }

    #[test]
    fn a_stat_naming_a_missing_cell_is_an_error() {
        let mut r = results(2, 2);
        r.stats[0].up = Ok((99, "6".to_owned()));
        assert!(render(&r).is_err());
    }
}
