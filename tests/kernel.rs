//! Kernel contracts that hold for every ruleset and every example scenario:
//! no heap allocation while fights run, and a workspace reused across
//! encounters fights exactly like a fresh one.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use skirmish::dice::RngDice;
use skirmish::engine::{Fight, Tally};
use skirmish::rules::Ruleset;
use skirmish::scenario::{self, compile::compile};

/// Counts allocations made by a thread while its flag is on (other test
/// threads may allocate freely).
struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);
thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

fn note() {
    if COUNTING.with(Cell::get) {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note();
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Fight every cell of a scenario with allocation counting on; returns the
/// number of allocations seen.
fn allocations_while_fighting<R: Ruleset>(s: &scenario::Scenario) -> usize {
    let encounters: Vec<_> = s
        .cells()
        .expect("example scenarios expand")
        .iter()
        .map(|c| {
            compile::<R>(s.ctx(), &c.root, s.max_rounds)
                .expect("example scenarios compile")
                .encounter
        })
        .collect();
    let mut fight = Fight::<R>::new();
    let mut tally = Tally::default();
    let mut seen = 0;
    for (b, enc) in encounters.iter().enumerate() {
        // The contract is per fight: a batch may set up (on a map,
        // `prepare` builds the thread's search buffers), so each encounter
        // is prepared before counting starts; its fights, counted, must
        // then allocate nothing (`run_into` prepares again: that must not
        // allocate either).
        fight.prepare(enc);
        let mut dice = RngDice::for_batch(s.seed, b as u64);
        let before = ALLOCATIONS.load(Ordering::SeqCst);
        COUNTING.with(|c| c.set(true));
        fight.run_into(enc, &mut dice, 500, &mut tally);
        COUNTING.with(|c| c.set(false));
        seen += ALLOCATIONS.load(Ordering::SeqCst) - before;
    }
    assert_eq!(tally.fights, 500 * encounters.len() as u64);
    seen
}

#[test]
fn kernel_allocates_nothing() {
    // The counter itself works: an allocation while counting is seen.
    COUNTING.with(|c| c.set(true));
    let probe = std::hint::black_box(vec![1u8; 16]);
    COUNTING.with(|c| c.set(false));
    assert!(
        ALLOCATIONS.load(Ordering::SeqCst) >= 1,
        "the counting allocator counts"
    );
    drop(probe);

    let mut checked = 0;
    for entry in std::fs::read_dir("scenarios").expect("scenarios/ exists") {
        let path = entry.expect("readable").path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let s = scenario::load(&path).expect("example scenarios load");
        let n = skirmish::with_ruleset!(s.rules.as_str(), R => allocations_while_fighting::<R>(&s),
            _ => panic!("unknown ruleset in {}", path.display()));
        assert_eq!(n, 0, "{}: {n} allocations while fights ran", path.display());
        checked += 1;
    }
    assert!(checked >= 2, "found the example scenarios");
}

/// Fight every cell of `s` twice: each on a fresh workspace, and all on one
/// workspace, in reverse order (so a cell follows a bigger or smaller one:
/// matrices over unit counts change the number of units). Returns the cells
/// compared.
fn reuse_matches_fresh<R: Ruleset>(s: &scenario::Scenario, name: &str) -> usize {
    let encounters: Vec<_> = s
        .cells()
        .expect("example scenarios expand")
        .iter()
        .map(|c| {
            compile::<R>(s.ctx(), &c.root, s.max_rounds)
                .expect("example scenarios compile")
                .encounter
        })
        .collect();
    let mut reused = Fight::<R>::new();
    for (i, enc) in encounters.iter().enumerate().rev() {
        let mut fresh = Tally::default();
        Fight::<R>::new().run_into(enc, &mut RngDice::for_batch(s.seed, 0), 300, &mut fresh);
        let mut again = Tally::default();
        reused.run_into(enc, &mut RngDice::for_batch(s.seed, 0), 300, &mut again);
        assert_eq!(
            fresh, again,
            "{name}, cell {i}: the reused workspace fought differently"
        );
    }
    encounters.len()
}

#[test]
fn a_reused_workspace_fights_like_a_fresh_one() {
    let mut cells = 0;
    for entry in std::fs::read_dir("scenarios").expect("scenarios/ exists") {
        let path = entry.expect("readable").path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let s = scenario::load(&path).expect("example scenarios load");
        let name = path.display().to_string();
        cells += skirmish::with_ruleset!(s.rules.as_str(), R => reuse_matches_fresh::<R>(&s, &name),
            _ => panic!("unknown ruleset in {name}"));
    }
    assert!(cells >= 20, "found the example scenarios ({cells} cells)");
}
