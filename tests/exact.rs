//! The simulator against the exact engine: for every example cell that the
//! enumerator answers within [`LIMITS`], and for every cell of the small
//! hand-written scenarios in `tests/fixtures/exact/` (crits, conditions,
//! reactions, morale, multi-unit targeting in each ruleset), the simulated
//! win and draw rates lie within 4 standard errors of the exact
//! probabilities, the mean fight length within 4 standard errors of the
//! exact mean, and the exact probabilities sum to one within their stated
//! rounding bound.
//!
//! Each cell enumerated prints one line (states, outcomes, seconds):
//! `cargo test --release --test exact -- --nocapture`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use skirmish::engine::Tally;
use skirmish::exact::{Answer, Limits};
use skirmish::scenario::Scenario;

/// The enumeration budget of a cell: its refusal is quick enough for the
/// cells attempted here.
const LIMITS: Limits = Limits {
    max_states: 200_000,
    max_outcomes: 20_000_000,
};

/// Fights simulated per cell, and the seed. (Seed 20_240_601 put the
/// duel's `none`/`rerolled` cell's mean length 4.1 SE off, 7.2114 against
/// 7.1664: chance, not a fault: 40 other seeds give z-scores of mean −0.19
/// and SD 1.11 at 40,000 fights, twelve runs of 2,000,000 fights z from
/// −2.5 to 1.7 (pooled −0.9), and the simulated variance of the length
/// matches the exact one to 0.2%. The duel's cells share their dice, so
/// one unlucky stream shows in several of them.)
const FIGHTS: u64 = 40_000;
const SEED: u64 = 1_000_003;

/// Example files whose cells do not fit [`LIMITS`], but for a few their
/// reason names, left out of the sweep because the refusal alone costs
/// seconds to minutes a cell (a single turn's dice, or the initiative of
/// six or more units, is enumerated whole before any limit is looked at).
/// Measured (release, this 2-core machine, limits as above):
/// `example_cells_left_out_are_refused` checks the claim.
const LEFT_OUT: &[(&str, &str)] = &[
    (
        "dicestep_armour",
        "a 2v2 played an action a step, its dice pooled (an attack 22 outcomes or so): \
         2e5 states within round 1 (every hit's damage, the 24 turn orders), refused after \
         4.5-7 s a cell; cell 0 has 4.7e6 states by its 11th layer",
    ),
    (
        "dicestep_skirmish",
        "8 to 10 units: the initiative's rankings alone pass 2e5 (refused in 0.3 s a cell)",
    ),
    (
        "escalation_hit_and_run",
        "7 units: a layer of round 1 has 94,928 new states at about 216 outcomes each (2e7 \
         ahead): refused after 3-4 s a cell",
    ),
    (
        "gas_attack",
        "8 units: the initiative's rankings of their rolls pass the states' limit (refused \
         within 1 s a cell)",
    ),
    ("osr_death_clock", "8 units: as gas_attack"),
    ("osr_patrol", "10 units: as gas_attack"),
    (
        "over_the_top",
        "6 units of trenches: beyond 2e5 states in round 1 (refused after 1-2.5 s a cell)",
    ),
    (
        "raiders_vs_dugout",
        "4 to 8 units: 2e5 states in round 1 already for 2 raiders, or (8 units) the \
         initiative's rankings: refused after 1-12 s a cell",
    ),
    (
        "thrum_panic",
        "6 units: a thrum turn has 1e4-3e5 outcomes (every 2d6 and its boon dice face by face): \
         2e7 outcomes in round 1 or 2, refused after 22-77 s a cell",
    ),
    ("thrum_skirmish", "6 units: as thrum_panic, 22-43 s a cell"),
    (
        "trench_matrix",
        "4 to 8 units: the 8 cells of 2 attackers with side initiative fit (90,882 to 191,956 \
         states, 2-10 s); the other 2v2s have 1.1e6 to 2.5e6 states (24 turn orders times the \
         units' HP: 25-85 s unlimited) and are refused after 1-3 s, 3 to 5 attackers after \
         0.6-25 s, 6 after 0.3-6 s: 8 minutes for the file",
    ),
    (
        "trench_raid",
        "8 units: as gas_attack, or 2e5 states in round 1: refused after 0.5-6 s a cell, 3 \
         minutes for its 96",
    ),
];

fn toml_files(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .expect("a file name")
        .to_string_lossy()
        .into_owned()
}

/// Four standard errors of a rate estimated from `n` trials whose exact
/// probability is `p`, the variance floored at that of one trial in `n`
/// (so that p near 0 or 1 still allows a few stray fights).
fn four_se(p: f64, n: f64) -> f64 {
    4.0 * ((p * (1.0 - p)).max(1.0 / n) / n).sqrt()
}

/// What the simulation of a cell must agree with; panics naming the cell
/// and the figure if it does not.
fn compare(cell: &str, exact: &Answer, sim: &Tally) {
    let n = sim.fights as f64;
    assert!(
        (exact.total() - 1.0).abs() <= 4.0 * exact.error(),
        "{cell}: probabilities sum to {:e}, error bound {:e}",
        exact.total(),
        exact.error()
    );
    let mut rates: Vec<(String, f64, u64)> = (0..exact.sides)
        .map(|s| (format!("side {s} wins"), exact.wins[s], sim.wins[s]))
        .collect();
    rates.push(("draws".into(), exact.draws, sim.draws));
    rates.push((
        "draws at the cap".into(),
        exact.draws_at_cap,
        sim.draws_at_cap,
    ));
    for (what, p, count) in rates {
        let got = count as f64 / n;
        let bound = four_se(p, n);
        assert!(
            (got - p).abs() <= bound,
            "{cell}: {what}: simulated {got:.5}, exact {p:.5}, 4 SE = {bound:.5} over {n} fights"
        );
    }
    // Fight length: the exact distribution's mean and variance.
    let mean = exact.rounds_mean();
    let second: f64 = exact
        .rounds
        .iter()
        .enumerate()
        .map(|(r, p)| (r * r) as f64 * p)
        .sum();
    let var = (second - mean * mean).max(0.0);
    let simulated: f64 = sim
        .rounds
        .iter()
        .enumerate()
        .map(|(r, &c)| r as f64 * c as f64)
        .sum::<f64>()
        / n;
    let bound = 4.0 * (var / n).sqrt() + 1e-9;
    assert!(
        (simulated - mean).abs() <= bound,
        "{cell}: mean rounds: simulated {simulated:.4}, exact {mean:.4}, 4 SE = {bound:.4}"
    );
}

/// A cell enumerated and simulated.
struct Checked {
    name: String,
    exact: Answer,
    sim: Tally,
    /// The ruleset's counter names, in tally order.
    counters: Vec<&'static str>,
}

/// A cell of a scenario: enumerated, and if it fits within [`LIMITS`],
/// simulated and compared ([`compare`]). `None` if it was refused.
fn check_cell(s: &Scenario, c: usize) -> Option<Checked> {
    let plan = skirmish::run::plan(s).expect("the scenario compiles");
    let name = format!("{} cell {c} {:?}", s.name, plan.cells[c]);
    let t = Instant::now();
    let exact = plan.exact(c, &LIMITS);
    let secs = t.elapsed().as_secs_f64();
    let exact = match exact {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{name}: refused ({secs:.2} s): {e}");
            return None;
        }
    };
    let cells = s.cells().expect("the matrix expands");
    let one = skirmish::run::plan_cells(s, vec![cells[c].clone()]).expect("the cell compiles");
    let results = one.run(FIGHTS, SEED, &|_| {});
    let sim = results.cells[0].tally.clone();
    assert_eq!(sim.fights, FIGHTS);
    let counters: Vec<&'static str> = plan.info.counters.iter().map(|c| c.name).collect();
    let shown: Vec<String> = counters
        .iter()
        .zip(&exact.counters)
        .filter(|(_, &v)| v != 0.0)
        .map(|(n, v)| format!("{n} {v:.3}"))
        .collect();
    eprintln!(
        "{name}: {} states, {} outcomes, {secs:.2} s; wins {:.4}/{:.4} draws {:.4} (cap {:.4}), \
         rounds {:.2}, error {:.1e}; {}",
        exact.states,
        exact.outcomes,
        exact.wins[0],
        exact.wins[1],
        exact.draws,
        exact.draws_at_cap,
        exact.rounds_mean(),
        exact.error(),
        shown.join(", ")
    );
    compare(&name, &exact, &sim);
    // What the rules counted happens in both or in neither (a counter
    // whose expectation is below 1e-3 may miss the simulation's fights).
    for (i, counter) in counters.iter().enumerate() {
        let (e, n) = (exact.counters[i], sim.counters[i]);
        assert!(
            (e > 0.0 || n == 0) && (e < 1e-3 || n > 0),
            "{name}: counter {counter}: exact expectation {e:e}, simulated total {n}"
        );
    }
    Some(Checked {
        name,
        exact,
        sim,
        counters,
    })
}

/// The counters a fixture says it exercises: its `# exercises: a, b` line.
fn exercised(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).expect("a fixture reads");
    text.lines()
        .filter_map(|l| l.strip_prefix("# exercises:"))
        .flat_map(|l| l.split(',').map(|w| w.trim().to_string()))
        .filter(|w| !w.is_empty())
        .collect()
}

#[test]
fn example_cells_that_fit_agree_with_the_simulator() {
    let mut fitted: Vec<(String, String)> = Vec::new();
    let mut refused = 0;
    for file in toml_files("scenarios") {
        let s = skirmish::scenario::load(&file).expect("an example loads");
        if LEFT_OUT.iter().any(|(f, _)| *f == stem(&file)) {
            continue;
        }
        let plan = skirmish::run::plan(&s).expect("an example compiles");
        for c in 0..plan.cells.len() {
            match check_cell(&s, c) {
                Some(checked) => fitted.push((s.rules.clone(), checked.name)),
                None => refused += 1,
            }
        }
    }
    eprintln!("{} example cells fit, {refused} refused", fitted.len());
    assert!(
        fitted.iter().any(|(rules, _)| rules == "trenches"),
        "no trenches example cell fits: {fitted:?}"
    );
    // No thrum example fits (see LEFT_OUT): the thrum cells are the
    // fixtures' (`fixture_cells_agree_with_the_simulator`).
    assert!(fitted.len() >= 12, "the duel's 12 cells fit: {fitted:?}");
}

#[test]
fn every_example_is_swept_or_left_out_with_a_reason() {
    let examples: Vec<String> = toml_files("scenarios").iter().map(|f| stem(f)).collect();
    for (file, why) in LEFT_OUT {
        assert!(examples.contains(&file.to_string()), "{file} is no example");
        assert!(!why.is_empty());
    }
}

#[test]
fn fixture_cells_agree_with_the_simulator() {
    let mut per_rules: Vec<(String, usize)> = Vec::new();
    let mut refused = Vec::new();
    for file in toml_files("tests/fixtures/exact") {
        let s = skirmish::scenario::load(&file).expect("a fixture loads");
        let plan = skirmish::run::plan(&s).expect("a fixture compiles");
        let wanted = exercised(&file);
        assert!(
            !wanted.is_empty(),
            "{}: no `# exercises:` line",
            file.display()
        );
        for c in 0..plan.cells.len() {
            let Some(checked) = check_cell(&s, c) else {
                refused.push(format!("{} cell {c}", s.name));
                continue;
            };
            for w in &wanted {
                let i = checked
                    .counters
                    .iter()
                    .position(|n| n == w)
                    .unwrap_or_else(|| panic!("{}: no counter {w}", s.name));
                assert!(
                    checked.exact.counters[i] > 0.0 && checked.sim.counters[i] > 0,
                    "{}: {w} is not exercised",
                    checked.name
                );
            }
            match per_rules.iter_mut().find(|(r, _)| *r == s.rules) {
                Some((_, n)) => *n += 1,
                None => per_rules.push((s.rules.clone(), 1)),
            }
        }
    }
    eprintln!("fixture cells per ruleset: {per_rules:?}");
    assert!(
        refused.is_empty(),
        "every fixture cell must fit: {refused:?}"
    );
    for rules in ["trenches", "osr", "dicestep", "escalation", "thrum"] {
        assert!(
            per_rules.iter().any(|(r, n)| r == rules && *n >= 2),
            "{rules}: fewer than two fixture cells: {per_rules:?}"
        );
    }
}

/// Fixtures the sweep is meant to answer but cannot yet, each with the
/// reason in its header: `tests/fixtures/exact/large/`.
const LARGE_FIXTURES: &str = "tests/fixtures/exact/large";

/// Not part of the quick suite (minutes): the cells of the files
/// [`LEFT_OUT`] leaves out, and of the [`LARGE_FIXTURES`], are refused
/// within [`LIMITS`], but for those their reason says fit; once every cell
/// of a file fits, the file belongs in the sweep
/// (`cargo test --release --test exact -- --ignored --nocapture`).
#[test]
#[ignore]
fn example_cells_left_out_are_refused() {
    let left_out = toml_files("scenarios").into_iter().filter_map(|file| {
        let (_, why) = LEFT_OUT.iter().find(|(f, _)| *f == stem(&file))?;
        Some((file, *why))
    });
    let large = toml_files(LARGE_FIXTURES)
        .into_iter()
        .map(|file| (file, "a large fixture"));
    for (file, why) in left_out.chain(large) {
        let s = skirmish::scenario::load(&file).expect("a scenario loads");
        let plan = skirmish::run::plan(&s).expect("a scenario compiles");
        let mut fit = 0;
        for c in 0..plan.cells.len() {
            let t = Instant::now();
            let answer = plan.exact(c, &LIMITS);
            let secs = t.elapsed().as_secs_f64();
            match answer {
                Ok(a) => {
                    eprintln!(
                        "{} cell {c}: fits ({} states, {secs:.2} s)",
                        s.name, a.states
                    );
                    assert!(
                        why.contains("fit"),
                        "{} cell {c} fits ({} states, {secs:.2} s): say so in its reason",
                        s.name,
                        a.states
                    );
                    fit += 1;
                }
                Err(e) => eprintln!("{} cell {c}: refused ({secs:.2} s): {e}", s.name),
            }
        }
        assert!(
            fit < plan.cells.len(),
            "every cell of {} fits: sweep its file",
            s.name
        );
    }
}
