//! Tests of the whole report on synthetic run results with 0, 1, 2 and 3
//! matrix axes: exact CSV text, determinism, PNG validity, atomic writing and
//! `--check` comparison.
//!
//! Set `SKIRMISH_CHART_DIR=/some/dir` to also save the rendered charts there
//! for looking at them.

use std::path::Path;

use super::*;
use crate::engine::tally::Tally;
use crate::results::{CellResult, CounterInfo, ScenarioInfo, SideInfo};

const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

fn info(name: &str, axes: &[&str]) -> ScenarioInfo {
    ScenarioInfo {
        name: name.to_owned(),
        description: "Four riflemen rush two dug-in defenders across 60 m".to_owned(),
        rules: "trenches".to_owned(),
        seed: 1914,
        fights: 4,
        max_rounds: 100,
        sides: vec![
            SideInfo {
                name: "attackers".to_owned(),
                units: vec!["4 × rifleman (11 HP, rifle; 60 m away, nearest)".to_owned()],
            },
            SideInfo {
                name: "defenders".to_owned(),
                units: vec!["2 × rifleman (11 HP, rifle; half cover)".to_owned()],
            },
        ],
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
        options: vec!["crit = \"double-dice\"".to_owned()],
        baseline: 0,
        streams: crate::results::Streams::Common,
        precision: None,
        setups: Vec::new(),
        warnings: Vec::new(),
    }
}

/// The tiny hand-checked cell of `single_cell_csv_is_exact`.
fn tiny_tally() -> Tally {
    let mut t = Tally {
        fights: 4,
        wins: [3, 1, 0, 0],
        survivors: [6, 0, 0, 0],
        damage: [40, 12, 0, 0],
        ..Tally::default()
    };
    t.rounds[2] = 3;
    t.rounds[5] = 1;
    t.counters[0] = 2;
    t.counters[1] = 1;
    t
}

/// A plausible tally whose win rate for the first side is about `p`, with
/// fight lengths spread around `mean_rounds`.
fn tally(fights: u64, p: f64, mean_rounds: usize) -> Tally {
    let draws = fights / 50;
    let mut t = Tally {
        fights,
        ..Tally::default()
    };
    let wins0 = ((fights - draws) as f64 * p).round() as u64;
    t.wins[0] = wins0;
    t.wins[1] = fights - draws - wins0;
    t.draws = draws;
    // A discretised bell around mean_rounds, then draws at the cap.
    let weights: Vec<u64> = (0..2 * mean_rounds + 1)
        .map(|r| {
            let d = r as f64 - mean_rounds as f64;
            (1000.0 * (-d * d / (mean_rounds as f64)).exp()) as u64
        })
        .collect();
    let total: u64 = weights.iter().sum();
    let mut assigned = 0;
    for (r, w) in weights.iter().enumerate().skip(1) {
        let c = (fights - draws) * w / total;
        t.rounds[r] = c;
        assigned += c;
    }
    t.rounds[mean_rounds] += fights - draws - assigned;
    t.rounds[100] += draws;
    t.survivors = [wins0 * 2, t.wins[1], 0, 0];
    t.damage = [fights * 15, fights * 11, 0, 0];
    t.counters[0] = fights / 3;
    t.counters[1] = fights * 2;
    t
}

/// Every combination of the axes' values (last axis fastest).
fn results(name: &str, axes: &[(&str, &[&str])]) -> RunResults {
    let mut combos: Vec<Vec<String>> = vec![Vec::new()];
    for (_, values) in axes {
        combos = combos
            .into_iter()
            .flat_map(|prefix| {
                values.iter().map(move |v| {
                    let mut next = prefix.clone();
                    next.push((*v).to_owned());
                    next
                })
            })
            .collect();
    }
    let cells = combos
        .into_iter()
        .enumerate()
        .map(|(index, axis_values)| {
            let p = 0.2 + 0.6 * ((index * 7) % 11) as f64 / 10.0;
            CellResult {
                index,
                axis_values,
                tally: tally(20_000, p.min(0.97), 3 + index % 5),
                batches: Vec::new(),
                capped: false,
            }
        })
        .collect();
    let paths: Vec<&str> = axes.iter().map(|(p, _)| *p).collect();
    let mut scenario = info(name, &paths);
    scenario.fights = 20_000;
    RunResults {
        scenario,
        cells,
        fights: Vec::new(),
        exact: Vec::new(),
        plays: None,
        ground: None,
    }
}

fn file<'a>(files: &'a [ReportFile], name: &str) -> &'a [u8] {
    files
        .iter()
        .find(|f| f.name == name)
        .map_or(&[][..], |f| f.bytes.as_slice())
}

fn text(files: &[ReportFile], name: &str) -> String {
    String::from_utf8_lossy(file(files, name)).into_owned()
}

fn rendered(results: &RunResults) -> Vec<ReportFile> {
    match render(results) {
        Ok(files) => files,
        Err(e) => panic!("render failed: {e}"),
    }
}

/// Saves the charts when `SKIRMISH_CHART_DIR` is set.
fn save_charts(files: &[ReportFile], prefix: &str) {
    let Some(dir) = std::env::var_os("SKIRMISH_CHART_DIR") else {
        return;
    };
    let dir = Path::new(&dir);
    std::fs::create_dir_all(dir).expect("chart dir");
    for f in files {
        std::fs::write(dir.join(format!("{prefix}-{}", f.name)), &f.bytes).expect("save chart");
    }
}

#[test]
fn single_cell_csv_is_exact() {
    let results = RunResults {
        scenario: info("tiny", &[]),
        cells: vec![CellResult {
            index: 0,
            axis_values: Vec::new(),
            tally: tiny_tally(),
            batches: Vec::new(),
            capped: false,
        }],
        fights: Vec::new(),
        exact: Vec::new(),
        plays: None,
        ground: None,
    };
    let files = rendered(&results);
    // Wilson 95% for 3/4: [0.3006, 0.9544]; for 1/4: [0.0456, 0.6994]
    // (closed form, computed in Python). Mean rounds (3×2 + 5)/4 = 2.75;
    // p50: 3 of 4 fights by round 2 ≥ 2 → 2; p90: need 3.6 → round 5.
    let expected = "\
cell,fights,wins_attackers,win_rate_attackers,win_rate_attackers_lo,win_rate_attackers_hi,\
wins_defenders,win_rate_defenders,win_rate_defenders_lo,win_rate_defenders_hi,draws,draw_rate,\
draws_at_cap,draws_at_cap_rate,rounds_mean,rounds_p50,rounds_p90,survivors_attackers,survivors_defenders,damage_attackers,\
damage_defenders,crits,deaths,delta_win_rate_attackers,delta_win_rate_attackers_lo,\
delta_win_rate_attackers_hi,delta_win_rate_defenders,delta_win_rate_defenders_lo,\
delta_win_rate_defenders_hi,delta_rounds_mean,delta_rounds_mean_lo,delta_rounds_mean_hi
0,4,3,0.7500,0.3006,0.9544,1,0.2500,0.0456,0.6994,0,0.0000,0,0.0000,2.750,2,5,1.500,0.000,10.000,3.000,0.500,0.250,\
0.0000,0.0000,0.0000,0.0000,0.0000,0.0000,0.000,0.000,0.000
";
    assert_eq!(text(&files, CELLS_CSV), expected);
    assert_eq!(
        text(&files, ROUNDS_CSV),
        "cell,rounds,fights\n0,2,3\n0,5,1\n"
    );
    let names: Vec<&str> = files.iter().map(|f| f.name).collect();
    assert_eq!(
        names,
        [
            CELLS_CSV,
            ROUNDS_CSV,
            WIN_RATE_PNG,
            ROUNDS_PNG,
            SUMMARY_MD,
            FIGHTS_MD
        ]
    );
    let md = text(&files, SUMMARY_MD);
    assert!(md.starts_with("# tiny\n"), "{md}");
    assert!(md.contains("nothing to compare"), "{md}");
    save_charts(&files, "axes0");
}

#[test]
fn one_axis_report() {
    let results = results(
        "cover",
        &[(
            "sides.defenders.rifleman.cover",
            &["none", "half", "three-quarters", "full"],
        )],
    );
    let files = rendered(&results);
    let csv = text(&files, CELLS_CSV);
    let mut lines = csv.lines();
    let header = lines.next().unwrap_or_default();
    assert!(
        header.starts_with("cell,sides.defenders.rifleman.cover,fights,wins_attackers,"),
        "{header}"
    );
    assert!(
        header.contains(",crits,deaths,delta_win_rate_attackers,"),
        "{header}"
    );
    assert!(header.ends_with(",delta_rounds_mean_hi"), "{header}");
    assert_eq!(lines.count(), 4);
    assert!(text(&files, ROUNDS_CSV).starts_with("cell,rounds,fights\n0,1,"));
    let md = text(&files, SUMMARY_MD);
    assert!(md.contains("![win rate](win_rate.png)"), "{md}");
    assert!(md.contains("![fight length](rounds.png)"), "{md}");
    assert!(md.contains("## Largest effects"), "{md}");
    // 20 000 fights per cell, no batches: Newcombe intervals; the cells'
    // rates differ by far more than noise.
    assert!(md.contains("Newcombe"), "{md}");
    assert!(md.contains("| 1 | half |"), "{md}");
    save_charts(&files, "axes1");
}

#[test]
fn two_axes_make_a_heatmap_and_everything_is_deterministic() {
    let results = results(
        "cover-initiative",
        &[
            (
                "sides.defenders.rifleman.cover",
                &["none", "half", "three-quarters", "full"],
            ),
            (
                "options.initiative",
                &["d20+dex", "team-alternating", "side"],
            ),
        ],
    );
    let first = rendered(&results);
    let second = rendered(&results);
    assert_eq!(first, second);
    for name in [WIN_RATE_PNG, ROUNDS_PNG] {
        assert!(file(&first, name).starts_with(PNG_SIGNATURE), "{name}");
    }
    let csv = text(&first, CELLS_CSV);
    assert!(csv.starts_with("cell,sides.defenders.rifleman.cover,options.initiative,fights,"));
    assert!(csv.contains("\n5,half,side,20000,"), "{csv}");
    save_charts(&first, "axes2");
}

#[test]
fn three_axes_and_many_cells() {
    let results = results(
        "big",
        &[
            ("options.crit", &["double-dice", "max-plus-roll"]),
            (
                "sides.defenders.rifleman.cover",
                &["none", "half", "three-quarters", "full"],
            ),
            (
                "options.initiative",
                &["d20+dex", "team-alternating", "side", "fixed", "reroll"],
            ),
        ],
    );
    let files = rendered(&results);
    assert_eq!(text(&files, CELLS_CSV).lines().count(), 41);
    assert!(file(&files, WIN_RATE_PNG).starts_with(PNG_SIGNATURE));
    save_charts(&files, "axes3");
}

#[test]
fn inconsistent_results_are_errors() {
    let mut results = results("bad", &[("options.x", &["a", "b"])]);
    results.cells[1].axis_values.clear();
    let err = render(&results)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(err.contains("cell 1 has 0 axis values for 1 axes"), "{err}");
    results.cells.clear();
    assert!(render(&results).is_err());
}

/// Every entry of `dir` and its bytes (folders as `None`).
fn snapshot(dir: &Path) -> std::collections::BTreeMap<String, Option<Vec<u8>>> {
    std::fs::read_dir(dir)
        .expect("read folder")
        .map(|e| {
            let e = e.expect("entry");
            let bytes = std::fs::read(e.path()).ok();
            (e.file_name().to_string_lossy().into_owned(), bytes)
        })
        .collect()
}

#[test]
fn write_is_atomic_and_replaces_only_what_it_wrote() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("reports").join("cover");
    let results = results("cover", &[("options.x", &["a", "b"])]);
    write(&results, &out).expect("first write");
    let files = rendered(&results);
    assert_eq!(
        compare(Kind::Run, &files, &out).expect("compare"),
        Checked::default()
    );
    let first = snapshot(&out);
    assert!(first.contains_key(MANIFEST), "{:?}", first.keys());

    // A file the designer keeps in the folder survives, byte for byte, and
    // is named by --check without counting as a difference.
    std::fs::write(out.join("old.csv"), "x\n").expect("own file");
    write(&results, &out).expect("second write");
    assert_eq!(
        std::fs::read(out.join("old.csv")).expect("kept"),
        b"x\n",
        "a file skirmish did not write was changed"
    );
    let checked = compare(Kind::Run, &files, &out).expect("compare");
    assert_eq!(checked.differences, Vec::new());
    assert_eq!(checked.kept, ["old.csv"]);

    // The re-run is byte-identical, manifest included.
    let mut second = snapshot(&out);
    second.remove("old.csv");
    assert_eq!(second, first);

    // Nothing but the report is left next to it.
    let siblings: Vec<String> = std::fs::read_dir(out.parent().expect("parent"))
        .expect("read reports")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(siblings, ["cover"]);
}

#[test]
fn write_refuses_to_replace_a_folder_that_is_not_a_report() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("src");
    std::fs::create_dir_all(&out).expect("mkdir");
    std::fs::write(out.join("main.rs"), "fn main() {}\n").expect("file");
    std::fs::write(out.join(CELLS_CSV), "mine\n").expect("file");
    let before = snapshot(&out);
    let results = results("x", &[]);
    let err = write(&results, &out)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(err.contains("refusing to write into"), "{err}");
    assert!(err.contains("`main.rs`"), "{err}");
    assert_eq!(snapshot(&out), before, "the folder was touched");
    let leftovers = std::fs::read_dir(tmp.path()).expect("read").count();
    assert_eq!(leftovers, 1, "no temporary folder left behind");
}

#[test]
fn an_old_report_without_a_manifest_is_adopted() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("old");
    let results = results("old", &[("options.x", &["a", "b"])]);
    std::fs::create_dir_all(&out).expect("mkdir");
    // An old report: report files only, one of them no longer written.
    std::fs::write(out.join(CELLS_CSV), "stale\n").expect("file");
    std::fs::write(out.join(ROUNDS_PNG), "stale\n").expect("file");
    let checked = compare(Kind::Run, &rendered(&results), &out).expect("compare");
    assert!(
        checked.differences.contains(&Difference::Missing {
            name: MANIFEST.into()
        }),
        "{checked:?}"
    );
    write(&results, &out).expect("adopted");
    assert_eq!(
        compare(Kind::Run, &rendered(&results), &out).expect("compare"),
        Checked::default()
    );
}

#[test]
fn every_rendered_file_is_one_its_kind_declares() {
    let results = results("r", &[("options.x", &["a", "b"])]);
    for f in rendered(&results) {
        assert!(
            Kind::Run.files().contains(&f.name),
            "{} is not in Kind::Run",
            f.name
        );
    }
}

#[test]
fn compare_finds_changed_missing_and_extra_files() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("r");
    let results = results("r", &[("options.x", &["a", "b", "c"])]);
    write(&results, &out).expect("write");
    let files = rendered(&results);

    let csv = text(&files, CELLS_CSV);
    let changed = csv.replacen("\n1,b,", "\n1,B,", 1);
    std::fs::write(out.join(CELLS_CSV), changed).expect("edit");
    std::fs::remove_file(out.join(ROUNDS_CSV)).expect("remove");
    let mut png = file(&files, ROUNDS_PNG).to_vec();
    png.push(0);
    std::fs::write(out.join(ROUNDS_PNG), png).expect("edit png");
    std::fs::write(out.join("notes.md"), "hi\n").expect("kept");
    std::fs::write(out.join(".gitattributes"), "*.png binary\n").expect("kept");
    // A file the manifest lists but this report no longer has: extra.
    let manifest = std::fs::read_to_string(out.join(MANIFEST)).expect("manifest");
    std::fs::write(out.join(MANIFEST), format!("{manifest}file = old.png\n")).expect("edit");
    std::fs::write(out.join("old.png"), "x").expect("extra");

    let checked = compare(Kind::Run, &files, &out).expect("compare");
    assert_eq!(checked.kept, [".gitattributes", "notes.md"]);
    let differences = checked.differences;
    let shown: Vec<String> = differences.iter().map(ToString::to_string).collect();
    assert_eq!(shown.len(), 5, "{shown:#?}");
    assert!(
        shown[0].starts_with("cells.csv line 3: expected \"1,b,20000,"),
        "{}",
        shown[0]
    );
    assert!(shown[0].contains("found \"1,B,20000,"), "{}", shown[0]);
    assert_eq!(shown[1], "rounds.csv: missing");
    assert_eq!(shown[2], "rounds.png: differs");
    assert!(
        shown[3].starts_with(
            ".skirmish-report line 11: expected end of file, found \"file = old.png\""
        ),
        "{}",
        shown[3]
    );
    assert!(
        shown[4].starts_with("old.png: written by an earlier run"),
        "{}",
        shown[4]
    );

    let missing = compare(Kind::Run, &files, &tmp.path().join("nope")).expect("compare");
    assert_eq!(missing.differences.len(), 1);
    assert!(missing.differences[0]
        .to_string()
        .starts_with("no report at "));
}

/// Width and height from a PNG's IHDR chunk (bytes 16..24).
fn png_size(png: &[u8]) -> (u32, u32) {
    assert!(png.starts_with(PNG_SIGNATURE));
    let be = |at: usize| u32::from_be_bytes([png[at], png[at + 1], png[at + 2], png[at + 3]]);
    (be(16), be(20))
}

/// `count` values `v0`, `v1`, … of an axis.
fn values(count: usize) -> Vec<String> {
    (0..count).map(|i| format!("v{i}")).collect()
}

#[test]
fn chart_sizes_stay_bounded_from_one_cell_to_ten_thousand() {
    let ten: Vec<String> = values(10);
    let ten: Vec<&str> = ten.iter().map(String::as_str).collect();
    let many: Vec<String> = values(10_000);
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    // (label, results, expected (width, height) of win_rate.png and rounds.png)
    type Case<'a> = (&'a str, RunResults, [(u32, u32); 2]);
    let cases: Vec<Case> = vec![
        ("cells1", results("one", &[]), [(668, 558), (1000, 592)]),
        (
            "axes2",
            results(
                "two",
                &[
                    ("options.crit", &["a", "b", "c"]),
                    ("options.initiative", &["x", "y", "z", "w"]),
                ],
            ),
            [(662, 656), (2040, 552)],
        ),
        (
            "axes4",
            results(
                "four",
                &[
                    ("options.a", &["1", "2"]),
                    ("options.b", &["p", "q", "r"]),
                    ("options.c", &["x", "y"]),
                    ("options.d", &["k", "l", "m"]),
                ],
            ),
            [(1279, 900), (2040, 1512)],
        ),
        (
            "cells10000-axes4",
            results(
                "huge",
                &[
                    ("options.a", &ten),
                    ("options.b", &ten),
                    ("options.c", &ten),
                    ("options.d", &ten),
                ],
            ),
            [(3923, 3964), (1000, 592)],
        ),
        (
            "cells10000-axes1",
            results("long", &[("options.name", &many)]),
            [(1400, 1368), (1000, 592)],
        ),
    ];
    for (label, results, expected) in cases {
        let files = rendered(&results);
        save_charts(&files, label);
        for (name, want) in [WIN_RATE_PNG, ROUNDS_PNG].into_iter().zip(expected) {
            let (w, h) = png_size(file(&files, name));
            eprintln!("{label} {name}: {w} x {h}");
            assert!(w <= 4000 && h <= 4000, "{label} {name}: {w} x {h}");
            assert!(w >= 600 && h >= 400, "{label} {name}: {w} x {h}");
            // Exact, so a layout change that grows a chart shows here.
            if want.0 > 0 {
                assert_eq!(w, want.0, "{label} {name} width");
            }
            if want.1 > 0 {
                assert_eq!(h, want.1, "{label} {name} height");
            }
        }
    }
}

/// `results` with exact win rates (`run --exact`) for every cell but
/// `refused`: the sampled first side's rate plus 0.001.
fn with_exact(mut results: RunResults, refused: &[usize]) -> RunResults {
    results.exact = results
        .cells
        .iter()
        .map(|c| {
            if refused.contains(&c.index) {
                return Err(
                    "more than 10 fight states (--max-states): 11 reached by round 1 \
                            of 100"
                        .to_owned(),
                );
            }
            let w = c.tally.wins[0] as f64 / c.tally.fights as f64 + 0.001;
            let d = c.tally.draws as f64 / c.tally.fights as f64;
            Ok(crate::results::ExactWin {
                wins: vec![w, 1.0 - w - d],
                error: 3e-13,
            })
        })
        .collect();
    results
}

#[test]
fn run_exact_adds_a_column_a_marker_and_says_which_cells_were_enumerated() {
    let plain = results(
        "two",
        &[
            ("options.crit", &["a", "b", "c"]),
            ("options.initiative", &["x", "y", "z", "w"]),
        ],
    );
    let exact = with_exact(plain.clone(), &[5]);
    let (before, after) = (rendered(&plain), rendered(&exact));
    save_charts(&after, "exact-axes2");
    let csv = text(&after, CELLS_CSV);
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let at = |name: &str| header.iter().position(|h| *h == name).unwrap();
    assert_eq!(
        at("exact_win_rate_attackers"),
        at("win_rate_attackers_hi") + 1
    );
    assert_eq!(
        at("exact_win_rate_defenders"),
        at("win_rate_defenders_hi") + 1
    );
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    // 3e-13: ten times is 3e-12, so 11 decimals; cell 5 was refused.
    let field = |row: usize, name: &str| rows[row][at(name)];
    assert_eq!(field(5, "exact_win_rate_attackers"), "");
    let shown = field(0, "exact_win_rate_attackers");
    assert_eq!(shown.split('.').nth(1).map(str::len), Some(11), "{shown}");
    // The rest of the row is the run's, column for column.
    let plain_csv = text(&before, CELLS_CSV);
    let plain_row: Vec<&str> = plain_csv.lines().nth(1).unwrap().split(',').collect();
    let exact_row: Vec<&str> = rows[0]
        .iter()
        .enumerate()
        .filter(|(i, _)| !header[*i].starts_with("exact_"))
        .map(|(_, v)| *v)
        .collect();
    assert_eq!(exact_row, plain_row);
    let md = text(&after, SUMMARY_MD);
    for needle in [
        "Exact win rates (`--exact`, column `exact`): 11 of 12 cells enumerated",
        "| exact (attackers / defenders) |",
        "- cell 5: b / y: more than 10 fight states (--max-states)",
    ] {
        assert!(md.contains(needle), "{needle:?} not in\n{md}");
    }
    // The diamonds change the chart, and only it among the PNGs.
    assert_ne!(file(&after, WIN_RATE_PNG), file(&before, WIN_RATE_PNG));
    assert_eq!(file(&after, ROUNDS_PNG), file(&before, ROUNDS_PNG));
    // Without exact answers, nothing says "exact".
    for name in [CELLS_CSV, SUMMARY_MD] {
        assert!(!text(&before, name).contains("exact"), "{name}");
    }
}

#[test]
fn every_win_rate_chart_draws_exact_diamonds() {
    let many: Vec<String> = values(100);
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    for (label, plain) in [
        ("exact-cells1", results("one", &[])),
        (
            "exact-numeric",
            results("hp", &[("units.a.hp", &["5", "10", "15"])]),
        ),
        (
            "exact-names",
            results("names", &[("options.name", &["p", "q"])]),
        ),
        (
            "exact-ranked",
            results("ranked", &[("options.name", &many)]),
        ),
    ] {
        let exact = with_exact(plain.clone(), &[1]);
        let (before, after) = (rendered(&plain), rendered(&exact));
        save_charts(&after, label);
        assert_ne!(
            file(&after, WIN_RATE_PNG),
            file(&before, WIN_RATE_PNG),
            "{label}"
        );
        assert_eq!(
            png_size(file(&after, WIN_RATE_PNG)),
            png_size(file(&before, WIN_RATE_PNG)),
            "{label}"
        );
    }
}

#[test]
fn exact_answers_for_other_cells_are_errors() {
    let mut r = with_exact(results("one", &[]), &[]);
    r.exact.push(Err("extra".to_owned()));
    assert!(render(&r).is_err());
    let mut r = with_exact(results("one", &[]), &[]);
    if let Some(Ok(e)) = r.exact.first_mut() {
        e.wins.pop();
    }
    assert!(render(&r).is_err());
}
