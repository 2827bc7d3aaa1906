//! Kernel throughput, single-threaded, in fights per second.
//!
//! - `bare_duel`: a hand-written loop of the reference duel (two identical
//!   d20 fighters, AC 16, 30 HP, +5 to hit, 1d8+3, nat 20 doubles the dice,
//!   nat 1 misses) with the same dice source: the ceiling on this machine.
//! - `duel`: the same duel through skirmish (scenarios/duel.toml's base).
//! - `trench_raid`: the 4v4 raid (scenarios/trench_raid.toml's base).
//! - `osr_patrol_4v6`: `osr`, 4 PCs v 6 brigands with morale, death clock
//!   and stabilising (scenarios/osr_patrol.toml's base).
//! - `dicestep_skirmish_4v6`: dicestep's 4 v 6 (scenarios/dicestep_skirmish.toml's base).
//! - `escalation_duel`: scenarios/escalation_duel.toml's base (escalation).
//! - `thrum_skirmish_3v3`: scenarios/thrum_skirmish.toml's base (thrum).
//!
//! Run: `cargo bench --bench kernel`. Compare `duel` with `bare_duel` as a
//! ratio: these machines are noisy, ratios travel better than absolutes.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use skirmish::dice::RngDice;
use skirmish::engine::{Fight, Tally};
use skirmish::rules::{Dicestep, Escalation, Osr, Ruleset, Thrum, Trenches};
use skirmish::scenario::compile::compile_str;

#[path = "common/bare_duel.rs"]
mod bare;
use bare::bare_duel;

const FIGHTS: u32 = 4096;

fn scenario<R: Ruleset>(path: &str) -> skirmish::engine::Encounter<R> {
    let text = std::fs::read_to_string(path).expect("scenario file");
    compile_str::<R>(&text)
        .expect("scenario compiles")
        .encounter
}

fn kernel(c: &mut Criterion) {
    let mut group = c.benchmark_group("fights");
    group.throughput(Throughput::Elements(FIGHTS as u64));

    group.bench_function("bare_duel", |b| {
        let mut dice = RngDice::for_batch(1, 0);
        b.iter(|| bare_duel(&mut dice, FIGHTS));
    });

    let duel = scenario::<Trenches>("scenarios/duel.toml");
    group.bench_function("duel", |b| {
        let mut dice = RngDice::for_batch(1, 0);
        let mut fight = Fight::<Trenches>::new();
        let mut tally = Tally::default();
        b.iter(|| fight.run_into(&duel, &mut dice, FIGHTS, &mut tally));
    });

    let raid = scenario::<Trenches>("scenarios/trench_raid.toml");
    group.bench_function("trench_raid_4v4", |b| {
        let mut dice = RngDice::for_batch(1, 0);
        let mut fight = Fight::<Trenches>::new();
        let mut tally = Tally::default();
        b.iter(|| fight.run_into(&raid, &mut dice, FIGHTS, &mut tally));
    });

    let patrol = scenario::<Osr>("scenarios/osr_patrol.toml");
    group.bench_function("osr_patrol_4v6", |b| {
        let mut dice = RngDice::for_batch(1, 0);
        let mut fight = Fight::<Osr>::new();
        let mut tally = Tally::default();
        b.iter(|| fight.run_into(&patrol, &mut dice, FIGHTS, &mut tally));
    });

    let skirmish = scenario::<Dicestep>("scenarios/dicestep_skirmish.toml");
    group.bench_function("dicestep_skirmish_4v6", |b| {
        let mut dice = RngDice::for_batch(1, 0);
        let mut fight = Fight::<Dicestep>::new();
        let mut tally = Tally::default();
        b.iter(|| fight.run_into(&skirmish, &mut dice, FIGHTS, &mut tally));
    });

    let esc = scenario::<Escalation>("scenarios/escalation_duel.toml");
    group.bench_function("escalation_duel", |b| {
        let mut dice = RngDice::for_batch(1, 0);
        let mut fight = Fight::<Escalation>::new();
        let mut tally = Tally::default();
        b.iter(|| fight.run_into(&esc, &mut dice, FIGHTS, &mut tally));
    });

    let thrum = scenario::<Thrum>("scenarios/thrum_skirmish.toml");
    group.bench_function("thrum_skirmish_3v3", |b| {
        let mut dice = RngDice::for_batch(1, 0);
        let mut fight = Fight::<Thrum>::new();
        let mut tally = Tally::default();
        b.iter(|| fight.run_into(&thrum, &mut dice, FIGHTS, &mut tally));
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(4));
    targets = kernel
}
criterion_main!(benches);
