//! Coverage of the 95% intervals: over many independent seeds of a scenario
//! whose true win rates are known exactly (`fixtures/one_shot.toml`: one
//! rifle shot, 0.55 against armour 0 and 0.45 against armour 2), the Wilson
//! interval of each win rate and the paired batch-means interval of their
//! difference (exactly −0.10) contain the truth 93–97% of the time.
//!
//! Run at the fixture's 4096 fights per cell and at the default 10,000
//! fights per cell (`skirmish run` without `fights`), each split into the
//! batches a real run uses ([`Budget::batch`]): the paired interval must be
//! valid at the batch count a designer actually gets, and that count must
//! be large enough for the interval to be tight (a t quantile with few
//! degrees of freedom makes it wide).
//!
//! 1000 seeds: the coverage of a correct 95% interval then has a standard
//! deviation of 0.7 percentage points, so the band is ±2.9 of them.

use skirmish::analysis::{self, batch_means::half_width, Method};
use skirmish::results::Streams;
use skirmish::run::{plan, Budget};
use skirmish::scenario::{self, Source};

const ONE_SHOT: &str = include_str!("fixtures/one_shot.toml");
const SEEDS: u64 = 1000;
/// Fights per cell when a scenario does not say (`fights` default).
const DEFAULT_FIGHTS: u64 = 10_000;

/// What the seeds gave at one fights count.
struct Coverage {
    wilson: [u64; 2],
    paired: u64,
    /// Mean half-width of the paired interval of the difference.
    paired_half_width: f64,
}

fn coverage(fights: u64, batches: u64) -> Coverage {
    let s = scenario::parse(Source {
        path: "one_shot.toml".into(),
        text: ONE_SHOT.into(),
    })
    .expect("fixture parses");
    let p = plan(&s).expect("fixture compiles");
    let truth = [0.55, 0.45];
    let mut wilson = [0u64; 2];
    let mut paired = 0u64;
    let mut widths = 0.0;
    for seed in 0..SEEDS {
        let r = p.run_with(Budget::Fights(fights), seed, Streams::Common, &|_| {});
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
        assert_eq!(c.method, Method::BatchMeans { batches }, "{fights} fights");
        let d = c.win_rates[0].ci;
        widths += half_width(&d);
        if d.lo <= -0.1 && -0.1 <= d.hi {
            paired += 1;
        }
    }
    Coverage {
        wilson,
        paired,
        paired_half_width: widths / SEEDS as f64,
    }
}

fn assert_covers(fights: u64, c: &Coverage) {
    let share = |n: u64| n as f64 / SEEDS as f64;
    eprintln!(
        "{fights} fights per cell, coverage over {SEEDS} seeds: Wilson {} and {}, paired {} \
         (mean half-width {:.5})",
        share(c.wilson[0]),
        share(c.wilson[1]),
        share(c.paired),
        c.paired_half_width
    );
    for (name, n) in [
        ("Wilson, armour 0", c.wilson[0]),
        ("Wilson, armour 2", c.wilson[1]),
        ("paired difference", c.paired),
    ] {
        assert!(
            (0.93..=0.97).contains(&share(n)),
            "{fights} fights, {name}: the 95% interval covered the truth in {n} of {SEEDS} runs"
        );
    }
}

/// The half-width a paired interval would have if the spread of the batch
/// differences were known exactly: z · sd(d) / √fights, with the variance of
/// one fight's difference (shooter wins in one cell and not the other) from
/// the exact rates: both cells see the same d20, which hits AC 10 on 10..20
/// and AC 12 on 12..20, so d = −1 on a roll of 10 or 11 and 0 otherwise:
/// mean −0.1, variance 0.1 − 0.01 = 0.09.
fn ideal_half_width(fights: u64) -> f64 {
    analysis::Z95 * (0.09f64 / fights as f64).sqrt()
}

#[test]
fn intervals_cover_the_true_win_rates() {
    let c = coverage(4096, 32);
    assert_covers(4096, &c);
    // Tight: within 10% of the interval with a known spread (32 batches:
    // t(31) = 2.04 against z = 1.96, and E[s] ≈ 0.99 σ).
    let ideal = ideal_half_width(4096);
    assert!(
        c.paired_half_width < 1.1 * ideal,
        "{} against {ideal}",
        c.paired_half_width
    );
}

#[test]
fn intervals_cover_the_true_win_rates_at_the_default_fights() {
    // 10,000 fights: 32 batches of 313 (the last 297). With batches of 4096
    // this was 3 batches, a t(2) quantile of 4.30 and intervals about 1.7
    // times wider than this.
    let c = coverage(DEFAULT_FIGHTS, 32);
    assert_covers(DEFAULT_FIGHTS, &c);
    let ideal = ideal_half_width(DEFAULT_FIGHTS);
    assert!(
        c.paired_half_width < 1.1 * ideal,
        "{} against {ideal}",
        c.paired_half_width
    );
}
