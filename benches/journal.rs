//! What the journal costs: the duel scenario (scenarios/duel.toml, all 12
//! cells) run end to end through the runner, with its journal written to a
//! temporary folder (`journal_on`) and without one (`journal_off`), in one
//! run of this bench, so the two are measured on the same machine state.
//! Both fold the batch records with polars (that is how every run
//! aggregates); the difference is the journal file: formatting, appending,
//! the fsync every second and the compactions.
//!
//! Run: `cargo bench --bench journal`. Report the ratio of `journal_on` to
//! the mean of `journal_off` and `journal_off_again` (measured before and
//! after it, so a drift of the machine over the run does not count).

use std::sync::atomic::AtomicBool;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use skirmish::journal::Journal;
use skirmish::results::Streams;
use skirmish::run::{plan, Budget, Work};

/// Fights per cell: batches of 4096, as in any run of 131,072 fights a cell
/// or more.
const FIGHTS: u64 = 200_000;

fn journal(c: &mut Criterion) {
    let scenario = skirmish::scenario::load(std::path::Path::new("scenarios/duel.toml"))
        .expect("scenario loads");
    let p = plan(&scenario).expect("scenario compiles");
    let work = Work::whole(Budget::Fights(FIGHTS), scenario.seed, Streams::Common);
    let header = p.header(&scenario, &work);
    let never = AtomicBool::new(false);
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("duel.journal");

    let mut group = c.benchmark_group("journal");
    group.throughput(Throughput::Elements(p.total_fights(FIGHTS)));
    let off = || {
        let mut ledger = p.ledger(&work);
        p.execute(&work, &mut ledger, None, &|_| {}, &never)
            .expect("runs");
    };
    // Off, on, off again: the machine drifts over a bench run (clock,
    // other load); compare `journal_on` with both `journal_off` runs.
    group.bench_function("journal_off", |b| b.iter(off));
    group.bench_function("journal_on", |b| {
        b.iter(|| {
            let (mut j, mut ledger, _) = Journal::open(&path, &header, true).expect("opens");
            p.execute(&work, &mut ledger, Some(&mut j), &|_| {}, &never)
                .expect("runs");
            j.remove().expect("removes");
        });
    });
    group.bench_function("journal_off_again", |b| b.iter(off));
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(15));
    targets = journal
}
criterion_main!(benches);
