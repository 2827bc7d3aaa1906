//! Coverage of the 95% intervals: over many independent seeds of a scenario
//! whose true win rates are known exactly (`fixtures/one_shot.toml`: one
//! rifle shot, 0.55 against armour 0 and 0.45 against armour 2), the Wilson
//! interval of each win rate and the paired batch-means interval of their
//! difference (exactly −0.10) contain the truth 93–97% of the time.
//!
//! 1000 seeds: the coverage of a correct 95% interval then has a standard
//! deviation of 0.7 percentage points, so the band is ±2.9 of them.

use skirmish::analysis::{self, Method};
use skirmish::results::Streams;
use skirmish::run::{plan, Budget, BATCH};
use skirmish::scenario::{self, Source};

const ONE_SHOT: &str = include_str!("fixtures/one_shot.toml");
const SEEDS: u64 = 1000;

#[test]
fn intervals_cover_the_true_win_rates() {
    let s = scenario::parse(Source {
        path: "one_shot.toml".into(),
        text: ONE_SHOT.into(),
    })
    .expect("fixture parses");
    let p = plan(&s).expect("fixture compiles");
    let truth = [0.55, 0.45];
    let mut wilson = [0u64; 2];
    let mut paired = 0u64;
    for seed in 0..SEEDS {
        // Three batches: the paired interval uses t with 2 degrees of freedom.
        let r = p.run_with(
            Budget::Fights(3 * u64::from(BATCH)),
            seed,
            Streams::Common,
            &|_| {},
        );
        let summaries: Vec<_> = r
            .cells
            .iter()
            .map(|c| analysis::summarize(&c.tally, 2, 0))
            .collect();
        for (cell, s) in summaries.iter().enumerate() {
            let ci = s.wins[0].ci;
            if ci.lo <= truth[cell] && truth[cell] <= ci.hi {
                wilson[cell] += 1;
            }
        }
        let c = analysis::compare(
            &summaries[1],
            &r.cells[1].batches,
            &summaries[0],
            &r.cells[0].batches,
        );
        assert_eq!(c.method, Method::BatchMeans { batches: 3 });
        let d = c.win_rates[0].ci;
        if d.lo <= -0.1 && -0.1 <= d.hi {
            paired += 1;
        }
    }
    let share = |n: u64| n as f64 / SEEDS as f64;
    eprintln!(
        "coverage over {SEEDS} seeds: Wilson {} and {}, paired {}",
        share(wilson[0]),
        share(wilson[1]),
        share(paired)
    );
    for (name, n) in [
        ("Wilson, armour 0", wilson[0]),
        ("Wilson, armour 2", wilson[1]),
        ("paired difference", paired),
    ] {
        assert!(
            (0.93..=0.97).contains(&share(n)),
            "{name}: the 95% interval covered the truth in {n} of {SEEDS} runs"
        );
    }
}
