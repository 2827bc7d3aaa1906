//! The report of `skirmish exact`, in `reports/<name>-exact/`: `cells.csv`
//! (every selected cell's exact probabilities and expected values, see
//! [`super::tables::exact_cells_csv`] for the columns and the decimals
//! rule), `rounds.csv` (the probability of each fight length),
//! `rounds.png` (the run's fight-length chart, drawn from the exact
//! distributions, see [`super::charts::rounds`]) and `summary.md`.
//!
//! Like every report, a pure function of the results: no timings, and the
//! answers themselves do not depend on the thread count, so a re-run gives
//! the same bytes. Written atomically with [`super::write_files`], checked
//! with [`super::compare`].

use std::path::Path;

use super::charts;
use super::documents::exact_md;
use super::error::ReportError;
use super::model::{ExactModel, Lengths};
use super::names::{CELLS_CSV, ROUNDS_CSV, ROUNDS_PNG, SUMMARY_MD};
use super::tables::{exact_cells_csv, exact_rounds_csv};
use super::{write_files, Kind, ReportFile};
use crate::results::ExactResults;

/// The report folder's name for scenario `name`: `<name>-exact`.
pub fn folder_name(name: &str) -> String {
    format!("{name}-exact")
}

/// Renders every file of the exact report in memory, in a fixed order.
pub fn render(results: &ExactResults) -> Result<Vec<ReportFile>, ReportError> {
    let m = ExactModel::new(results)?;
    Ok(vec![
        ReportFile {
            name: CELLS_CSV,
            bytes: exact_cells_csv::render(&m)?,
        },
        ReportFile {
            name: ROUNDS_CSV,
            bytes: exact_rounds_csv::render(&m)?,
        },
        ReportFile {
            name: ROUNDS_PNG,
            bytes: charts::rounds::render(&Lengths::of_exact(&m))?,
        },
        ReportFile {
            name: SUMMARY_MD,
            bytes: exact_md::render(&m).into_bytes(),
        },
    ])
}

/// Decimals the exact report prints its values with
/// ([`super::labels::decimals_good_to`] of the largest rounding bound of
/// any value it prints): what the terminal shows too.
pub fn decimals(results: &ExactResults) -> Result<usize, ReportError> {
    Ok(ExactModel::new(results)?.decimals)
}

/// Renders the exact report and writes it to `out_dir` atomically.
pub fn write(results: &ExactResults, out_dir: &Path) -> Result<(), ReportError> {
    write_files(Kind::Exact, &render(results)?, out_dir)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{MAX_COUNTERS, MAX_SIDES};
    use crate::exact::Answer;
    use crate::results::{CounterInfo, ExactCell, ScenarioInfo, SideInfo, Streams};

    fn info(axes: &[&str]) -> ScenarioInfo {
        ScenarioInfo {
            name: "tiny".to_owned(),
            description: "Two sides".to_owned(),
            rules: "trenches".to_owned(),
            seed: 1,
            fights: 1,
            max_rounds: 4,
            sides: ["attackers", "defenders"]
                .map(|name| SideInfo {
                    name: name.to_owned(),
                    units: vec![format!("1 × {name}")],
                })
                .to_vec(),
            axes: axes.iter().map(|a| (*a).to_owned()).collect(),
            counters: vec![
                CounterInfo {
                    name: "crits",
                    doc: "critical hits",
                },
                CounterInfo {
                    name: "deaths",
                    doc: "units killed",
                },
            ],
            options: Vec::new(),
            baseline: 0,
            streams: Streams::Common,
            precision: None,
            setups: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// An answer with these probabilities and means (two sides, two
    /// counters).
    #[allow(clippy::too_many_arguments)]
    fn answer(
        wins: [f64; 2],
        draws: f64,
        at_cap: f64,
        rounds: &[f64],
        survivors: [f64; 2],
        damage: [f64; 2],
        counters: [f64; 2],
        states: u64,
        relative_error: f64,
    ) -> Answer {
        let pad = |v: [f64; 2]| {
            let mut out = [0.0; MAX_SIDES];
            out[..2].copy_from_slice(&v);
            out
        };
        let mut c = [0.0; MAX_COUNTERS];
        c[..2].copy_from_slice(&counters);
        Answer {
            sides: 2,
            wins: pad(wins),
            draws,
            draws_at_cap: at_cap,
            rounds: rounds.to_vec(),
            survivors: pad(survivors),
            damage: pad(damage),
            counters: c,
            states,
            outcomes: states * 10,
            last_round: rounds.len() as u32 - 1,
            unfinished: 0.0,
            relative_error,
        }
    }

    /// Cells 0 (the baseline, `a`) and 1 (`b`); `keep` selects them.
    fn results(keep: &[usize]) -> ExactResults {
        let cells = [
            answer(
                [0.625, 0.25],
                0.125,
                0.0625,
                &[0.0, 0.25, 0.5, 0.125, 0.125],
                [1.5, 0.5],
                [25.0, 12.5],
                [0.75, 2.0],
                42,
                2e-12,
            ),
            answer(
                [0.5, 0.5],
                0.0,
                0.0,
                &[0.0, 0.5, 0.5, 0.0, 0.0],
                [1.0, 1.0],
                [20.0, 20.0],
                [0.5, 1.0],
                7,
                1e-15,
            ),
        ];
        ExactResults {
            scenario: info(&["options.crit"]),
            cells: cells
                .into_iter()
                .enumerate()
                .filter(|(i, _)| keep.contains(i))
                .map(|(index, answer)| ExactCell {
                    index,
                    axis_values: vec![["a", "b"][index].to_owned()],
                    answer,
                })
                .collect(),
        }
    }

    fn text(files: &[ReportFile], name: &str) -> String {
        let file = files.iter().find(|f| f.name == name).expect("rendered");
        String::from_utf8(file.bytes.clone()).expect("UTF-8")
    }

    /// Width and height from a PNG's IHDR chunk.
    fn png_size(png: &[u8]) -> (u32, u32) {
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
        let be = |at: usize| u32::from_be_bytes([png[at], png[at + 1], png[at + 2], png[at + 3]]);
        (be(16), be(20))
    }

    #[test]
    fn cells_csv_has_the_runs_names_and_the_decimals_the_bound_allows() {
        let files = render(&results(&[0, 1])).unwrap();
        let names: Vec<&str> = files.iter().map(|f| f.name).collect();
        assert_eq!(names, [CELLS_CSV, ROUNDS_CSV, ROUNDS_PNG, SUMMARY_MD]);
        for f in &files {
            assert!(Kind::Exact.files().contains(&f.name), "{}", f.name);
        }
        // The largest bound: cell 0's mean damage 25 × 2e-12 = 5e-11; ten
        // times that is 5e-10, so 9 decimals (1e-9 ≥ 5e-10 > 1e-10).
        let expected = "\
cell,options.crit,states,win_rate_attackers,win_rate_defenders,draw_rate,draws_at_cap_rate,\
rounds_mean,rounds_p50,rounds_p90,survivors_attackers,survivors_defenders,damage_attackers,\
damage_defenders,crits,deaths,delta_win_rate_attackers,delta_win_rate_defenders,\
delta_rounds_mean,error
0,a,42,0.625000000,0.250000000,0.125000000,0.062500000,2.125000000,2,4,1.500000000,\
0.500000000,25.000000000,12.500000000,0.750000000,2.000000000,0.000000000,0.000000000,\
0.000000000,2.0e-12
1,b,7,0.500000000,0.500000000,0.000000000,0.000000000,1.500000000,1,2,1.000000000,\
1.000000000,20.000000000,20.000000000,0.500000000,1.000000000,-0.125000000,0.250000000,\
-0.625000000,1.0e-15
";
        assert_eq!(text(&files, CELLS_CSV), expected);
        assert_eq!(
            text(&files, ROUNDS_CSV),
            "cell,rounds,probability\n0,1,0.250000000\n0,2,0.500000000\n0,3,0.125000000\n\
             0,4,0.125000000\n1,1,0.500000000\n1,2,0.500000000\n"
        );
        assert_eq!(decimals(&results(&[0, 1])).unwrap(), 9);
        // Cell 1 alone is good to 12 decimals (its largest bound: 20 ×
        // 1e-15), and without the baseline there are no differences.
        let alone = render(&results(&[1])).unwrap();
        let csv = text(&alone, CELLS_CSV);
        assert!(!csv.contains("delta_"), "{csv}");
        assert!(
            csv.contains("\n1,b,7,0.500000000000,0.500000000000,"),
            "{csv}"
        );
        // Same input, same bytes.
        assert_eq!(render(&results(&[0, 1])).unwrap(), files);
    }

    #[test]
    fn summary_says_what_exact_means_and_warns_of_draws_at_the_cap() {
        let files = render(&results(&[0, 1])).unwrap();
        let md = text(&files, SUMMARY_MD);
        for needle in [
            "# tiny (exact)\n",
            "## What an exact answer is",
            "no value printed here is off by more than 5.0e-11",
            "The CSV files print every value to 9 decimals",
            // The run's wording: 6.25% of cell 0's fights reach the cap.
            "Draws at the round cap: in 1 of 2 cells more than 1% of the fights were still \
             running after round 4 and count as draws (cell 0: a (6.2%)); there the win rates \
             describe fights cut short",
            "| 0 | a | 0.6250 | 0.2500 | 0.1250 | 0.0625 | 2.125 | 2 | 4 | 42 |",
            "| 1 | b | -0.1250 | +0.2500 | -0.625 |",
            "![fight length](rounds.png)",
            "- `crits`: critical hits",
        ] {
            assert!(md.contains(needle), "{needle:?} not in\n{md}");
        }
        let alone = text(&render(&results(&[1])).unwrap(), SUMMARY_MD);
        assert!(
            alone.contains("The baseline cell (cell 0) is not among the cells enumerated"),
            "{alone}"
        );
        assert!(!alone.contains("Read this first"), "{alone}");
    }

    #[test]
    fn summary_shows_what_the_enumerated_cells_fight_with() {
        let setup = |crit: &str| crate::results::Setup {
            sides: info(&[]).sides,
            options: vec![format!("crit = {crit}")],
        };
        let with_setups = |keep: &[usize]| {
            let mut r = results(keep);
            r.scenario.options = vec!["crit = a".to_owned()];
            r.scenario.setups = vec![setup("a"), setup("b")];
            r
        };
        let both = text(&render(&with_setups(&[0, 1])).unwrap(), SUMMARY_MD);
        assert!(
            both.contains(
                "  - `crit = a` in the base scenario; by cell, with `options.crit`:\n    \
                 - a: `crit = a`\n    - b: `crit = b`\n"
            ),
            "{both}"
        );
        assert!(
            both.contains("- **Cells enumerated:** 2 of the matrix's 2, with these values"),
            "{both}"
        );
        // Cell 1 alone fights with `crit = b`, not the base scenario's.
        let alone = text(&render(&with_setups(&[1])).unwrap(), SUMMARY_MD);
        assert!(
            alone.contains("  - `crit = a` in the base scenario; in every cell here: `crit = b`\n"),
            "{alone}"
        );
        assert!(alone.contains("    - 1 × attackers\n"), "{alone}");
    }

    #[test]
    fn rounds_png_has_the_runs_layouts_from_one_cell_to_many() {
        for (cells, size) in [(1, (1000, 592)), (12, (2040, 552)), (40, (1000, 592))] {
            let mut r = results(&[0, 1]);
            let template = r.cells[1].answer.clone();
            r.cells = (0..cells)
                .map(|index| {
                    let mut answer = template.clone();
                    // Fights a little longer in every cell.
                    let shift = index as f64 / cells as f64 / 2.0;
                    answer.rounds = vec![0.0, 0.5 - shift, 0.5, shift, 0.0];
                    ExactCell {
                        index,
                        axis_values: vec![format!("v{index}")],
                        answer,
                    }
                })
                .collect();
            let files = render(&r).unwrap();
            let png = &files[2].bytes;
            if let Some(dir) = std::env::var_os("SKIRMISH_CHART_DIR") {
                let path = std::path::Path::new(&dir).join(format!("exact-rounds-{cells}.png"));
                std::fs::write(path, png).unwrap();
            }
            assert_eq!(png_size(png), size, "{cells} cells");
        }
    }

    #[test]
    fn inconsistent_answers_are_errors() {
        let mut r = results(&[0, 1]);
        r.cells.swap(0, 1);
        assert!(render(&r).is_err());
        let mut r = results(&[0, 1]);
        r.cells[1].axis_values.clear();
        assert!(render(&r).is_err());
        let mut r = results(&[0, 1]);
        r.cells.clear();
        assert!(render(&r).is_err());
    }
}
