//! Tests of the enumerator on whole fights: probabilities sum to one, and
//! the simulator's rates fall within 4 standard errors of the exact ones.

use super::*;
use crate::engine::{Fight, Tally};
use crate::rules::Trenches;
use crate::testkit::encounter;

const DUEL: &str = r#"
name = "t"
rules = "trenches"
fights = 1
max_rounds = 100

[weapons.sword]
kind = "melee"
attack = 5
damage = "1d8+3"

[units.fighter]
hp = 30
endurance = 3
armor = 3
dex = 1
weapons = ["sword"]

[sides.red]
fighter = { count = 1 }

[sides.blue]
fighter = { count = 1 }
"#;

#[test]
fn the_duel_sums_to_one_and_the_simulator_agrees() {
    let enc = encounter::<Trenches>(DUEL);
    let answer = solve(&enc, &Limits::default()).expect("the duel fits");
    assert!(
        (answer.total() - 1.0).abs() <= 4.0 * answer.error(),
        "{answer:?}"
    );
    let mut fight = Fight::<Trenches>::new();
    let mut tally = Tally::default();
    let mut dice = crate::dice::RngDice::for_batch(7, 0);
    let n = 100_000u32;
    fight.run_into(&enc, &mut dice, n, &mut tally);
    let p = answer.wins[0];
    let sim = tally.wins[0] as f64 / n as f64;
    assert!(
        (sim - p).abs() <= crate::testkit::four_se(p, n),
        "sim {sim} exact {p}"
    );
    eprintln!("{answer:#?}");
}

/// Not a test: states, outcomes and seconds of every example cell
/// (`cargo test --release --lib exact::tests::measure -- --ignored --nocapture`).
#[test]
#[ignore]
fn measure() {
    let dir = std::env::var("DIR").unwrap_or("scenarios".into());
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    let only = std::env::var("ONLY").unwrap_or_default();
    for f in files {
        if !f.to_string_lossy().contains(&only) {
            continue;
        }
        let s = crate::scenario::load(&f).unwrap();
        let p = crate::run::plan(&s).unwrap();
        for c in 0..p.cells.len().min(2) {
            let t = std::time::Instant::now();
            let a = p.exact(
                c,
                &Limits {
                    max_states: 20_000_000,
                    max_outcomes: 400_000_000,
                },
            );
            let secs = t.elapsed().as_secs_f64();
            match a {
                Ok(a) => eprintln!(
                    "{} cell {c}: {} states {} outcomes {:.3}s win {:.6} err {:.1e}",
                    s.name,
                    a.states,
                    a.outcomes,
                    secs,
                    a.wins[0],
                    a.error()
                ),
                Err(e) => eprintln!("{} cell {c}: {e} ({secs:.3}s)", s.name),
            }
        }
    }
}
