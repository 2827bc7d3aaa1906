//! The runner: compile every cell of a scenario, then fight all cells in
//! parallel, deterministically: a fixed number of fights per cell, or (with a
//! precision target) rounds of batches until every cell is precise enough.
//!
//! Work is split into (cell, batch) items of [`Budget::batch`] fights. Batch
//! `b` of every cell draws from the stream seeded by `(seed, b)` alone, so
//! results do not depend on the thread count or on scheduling, and all cells
//! share random numbers batch by batch (common random numbers: differences
//! between cells are far less noisy than between independent runs). Tallies
//! are integers merged with `+=`, so the reduction order cannot change a
//! result.
//!
//! The batch is also the unit of the paired batch-means intervals
//! ([`crate::analysis::batch_means`]): with `B` batches they use Student's t
//! with `B − 1` degrees of freedom, so a cell needs a few dozen batches for
//! its intervals to be as tight as its fights allow (with 3 batches, t(2) =
//! 4.30 against t(31) = 2.04, and the spread itself is estimated from 3
//! values). The batch size is therefore chosen from the fights per cell:
//! [`TARGET_BATCHES`] batches, each of [`MIN_BATCH`] to [`MAX_BATCH`] fights
//! (see [`batch_size`]). One size serves every cell of a run, so batch `b` of
//! every cell covers the same fights of the same stream.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use rayon::prelude::*;

use crate::analysis;
use crate::analysis::batch_means::{self, half_width};
use crate::dice::RngDice;
use crate::engine::observe::{Counting, Recorder};
use crate::engine::{BatchStat, Encounter, Fight, Outcome, Tally};
use crate::exact::{Answer, ExactError, Limits};
use crate::journal::{
    Grouping, Header, Journal, JournalError, Ledger, LedgerError, Line, Record, Shard,
};
use crate::results::{CellResult, Precision, RunResults, ScenarioInfo, Setup, SideInfo, Streams};
use crate::rules::Ruleset;
use crate::scenario::compile::{compile, Compiled};
use crate::scenario::schema::{Ctx, MISSING_KEY};
use crate::scenario::{Cell, Scenario, ScenarioError};

/// Most fights in a batch: from `TARGET_BATCHES × MAX_BATCH` = 131,072
/// fights per cell on, batches stop shrinking and their number grows (memory
/// for per-batch statistics stays what it was with fixed 4096-fight batches).
pub const MAX_BATCH: u32 = 4096;
/// Fewest fights in a batch: below this the per-batch set-up (seeding the
/// stream, preparing the start state, one rayon task) starts to show in the
/// fights per second. Runs of fewer than `TARGET_BATCHES × MIN_BATCH` = 4096
/// fights per cell have fewer batches.
pub const MIN_BATCH: u32 = 128;
/// Batches a cell of a fixed-size run aims for: 32 batches give paired
/// intervals 31 degrees of freedom, within 4% of the normal quantile.
pub const TARGET_BATCHES: u64 = 32;
/// With a precision target, the most batches a cell may need to reach its
/// `max_fights` cap: bounds the per-batch statistics kept per cell.
pub const PRECISION_MAX_BATCHES: u64 = crate::journal::MAX_GROUPS;

/// Fights per batch of a run of `fights` fights per cell: `fights /`
/// [`TARGET_BATCHES`] rounded up, within [`MIN_BATCH`]..=[`MAX_BATCH`]. The
/// unit of parallel work, of random streams and of the per-batch statistics
/// kept for paired comparisons. 10,000 fights: 32 batches of 313 (the last
/// 297); 4096 fights: 32 of 128; 1000 fights: 8 of 128 (the last 104).
pub fn batch_size(fights: u64) -> u32 {
    fights
        .div_ceil(TARGET_BATCHES)
        .clamp(u64::from(MIN_BATCH), u64::from(MAX_BATCH)) as u32
}

/// A scenario with every cell compiled and checked: ready to fight.
pub struct Plan {
    pub info: ScenarioInfo,
    /// Each cell's axis values, in cell order.
    pub cells: Vec<Vec<String>>,
    /// Each cell's unit names and sides, in encounter order (what a replay
    /// calls them).
    pub unit_names: Vec<Vec<(String, u8)>>,
    /// Each cell's weapon names, by weapon number (what a replay calls the
    /// weapon of an attack).
    pub weapon_names: Vec<Vec<String>>,
    /// Each cell's map scale when it is fought on a map (positions are then
    /// squares, see [`crate::engine::ground`]), `None` on the front.
    pub map_scale: Vec<Option<i32>>,
    /// Each cell's map and who starts where on it, `None` on the front.
    pub maps: Vec<Option<CellMap>>,
    sim: Box<dyn Simulate>,
}

/// A cell fought on a map: the ground and where its units start, for the
/// report's pictures (`map.png`, `falls.png`, fights.md's positions).
#[derive(Clone, Debug)]
pub struct CellMap {
    pub ground: &'static crate::engine::Ground,
    /// Each unit group's name, side index and the squares its units start
    /// on, in scenario order.
    pub groups: Vec<(String, usize, Vec<crate::map::Square>)>,
    /// The groups (indices into `groups`) that can reach no enemy by
    /// terrain ([`crate::scenario::map::unreachable_groups`]).
    pub unreachable: Vec<usize>,
    /// Each unit's start square, in encounter order.
    pub starts: Vec<crate::map::Square>,
}

/// One fight fought again with an observer: everything that happened, how
/// it ended, and its tally (exactly what the run added for it).
#[derive(Clone, Debug)]
pub struct Tape {
    pub events: Vec<crate::engine::observe::Event>,
    /// On a map, the squares of moves (see [`Recorder::paths`]).
    pub paths: Vec<(usize, Vec<crate::map::Square>)>,
    pub outcome: Outcome,
    pub tally: Tally,
}

/// The stream batch `batch` of cell `cell` draws from: the batch alone with
/// common random numbers; with independent streams, one of its own per
/// (cell, batch), cell + 1 in the high bits keeping it apart from every
/// common stream.
pub fn stream_of(streams: Streams, cell: usize, batch: u64) -> u64 {
    match streams {
        Streams::Common => batch,
        Streams::Independent => ((cell as u64 + 1) << 40) | batch,
    }
}

/// One cell's batches, for one ruleset; the only dynamic dispatch is here,
/// once per batch, so the fight loop itself is monomorphised.
trait Simulate: Send + Sync {
    fn batch(&self, cell: usize, seed: u64, batch: u64, fights: u32, tally: &mut Tally);
    /// Fight `offset` of the batch on `stream`, watched.
    fn watch(&self, cell: usize, seed: u64, stream: u64, offset: u32) -> Tape;
    /// The outcome of each fight of `batches` (their sizes, in order) on
    /// `stream(batch)`, until `visit` returns false.
    fn scan(
        &self,
        cell: usize,
        seed: u64,
        batches: &[(u64, u32)],
        visit: &mut dyn FnMut(Outcome) -> bool,
    );
    /// Dice the rules read and turns taken in the first `fights` fights of
    /// the batch on `stream` (counted by an observer: the fights are the
    /// run's).
    fn count(&self, cell: usize, seed: u64, stream: u64, fights: u32) -> Counting;
    /// Where units fell (per side, per square of the map) in the first
    /// `fights` fights of the batch on `stream`, found by an observer (the
    /// fights are the run's); empty on the front.
    fn falls(&self, cell: usize, seed: u64, stream: u64, fights: u32) -> Vec<Vec<u32>>;
    /// The cell's fight enumerated exactly ([`crate::exact`]).
    fn exact(&self, cell: usize, limits: &Limits) -> Result<Answer, ExactError>;
}

struct Cells<R: Ruleset> {
    encounters: Vec<Encounter<R>>,
}

impl<R: Ruleset> Simulate for Cells<R> {
    fn exact(&self, cell: usize, limits: &Limits) -> Result<Answer, ExactError> {
        crate::exact::solve(&self.encounters[cell], limits)
    }

    fn count(&self, cell: usize, seed: u64, stream: u64, fights: u32) -> Counting {
        let enc = &self.encounters[cell];
        let mut dice = RngDice::for_batch(seed, stream);
        let mut fight = Fight::<R>::new();
        let mut count = Counting::default();
        fight.prepare(enc);
        for _ in 0..fights {
            fight.next_fight_watched(enc, &mut dice, &mut count);
        }
        count
    }

    fn falls(&self, cell: usize, seed: u64, stream: u64, fights: u32) -> Vec<Vec<u32>> {
        let enc = &self.encounters[cell];
        let Some(g) = enc.ground else {
            return Vec::new();
        };
        let mut dice = RngDice::for_batch(seed, stream);
        let mut fight = Fight::<R>::new();
        let units: Vec<(u8, i32)> = enc.specs().iter().map(|u| (u.side, u.distance)).collect();
        let mut falls = crate::replay::places::Falls::new(&g.map, enc.sides, &units);
        fight.prepare(enc);
        for _ in 0..fights {
            fight.next_fight_watched(enc, &mut dice, &mut falls);
        }
        falls.counts
    }

    fn batch(&self, cell: usize, seed: u64, batch: u64, fights: u32, tally: &mut Tally) {
        let mut dice = RngDice::for_batch(seed, batch);
        let mut fight = Fight::<R>::new();
        fight.run_into(&self.encounters[cell], &mut dice, fights, tally);
    }

    fn watch(&self, cell: usize, seed: u64, stream: u64, offset: u32) -> Tape {
        let enc = &self.encounters[cell];
        let mut dice = RngDice::for_batch(seed, stream);
        let mut fight = Fight::<R>::new();
        // The fights before it in its batch, as the run fought them, leave
        // the stream where the run's fight `offset` began.
        fight.prepare(enc);
        for _ in 0..offset {
            fight.next_fight(enc, &mut dice);
        }
        let mut recorder = Recorder {
            ground: enc.ground,
            ..Recorder::default()
        };
        let outcome = fight.next_fight_watched(enc, &mut dice, &mut recorder);
        let mut tally = Tally::default();
        fight.record(enc, outcome, &mut tally);
        Tape {
            events: recorder.events,
            paths: recorder.paths,
            outcome,
            tally,
        }
    }

    fn scan(
        &self,
        cell: usize,
        seed: u64,
        batches: &[(u64, u32)],
        visit: &mut dyn FnMut(Outcome) -> bool,
    ) {
        let enc = &self.encounters[cell];
        let mut fight = Fight::<R>::new();
        for &(stream, size) in batches {
            let mut dice = RngDice::for_batch(seed, stream);
            fight.prepare(enc);
            for _ in 0..size {
                if !visit(fight.next_fight(enc, &mut dice)) {
                    return;
                }
            }
        }
    }
}

/// Compile every cell of `scenario` (this is `skirmish validate`).
pub fn plan(scenario: &Scenario) -> Result<Plan, ScenarioError> {
    plan_cells(scenario, scenario.cells()?)
}

/// Compile `cells`, given rather than expanded from the scenario's matrix
/// (`skirmish sensitivity`: the unchanged cell and one cell per stepped
/// stat). `scenario` describes them: its root is what the report calls the
/// base scenario.
pub fn plan_cells(scenario: &Scenario, cells: Vec<Cell>) -> Result<Plan, ScenarioError> {
    crate::with_ruleset!(scenario.rules.as_str(), R => plan_for::<R>(scenario, cells),
        _ => unreachable!("the scenario layer accepts only known rulesets"))
}

fn plan_for<R: Ruleset>(scenario: &Scenario, cells: Vec<Cell>) -> Result<Plan, ScenarioError> {
    // The report's round cap: the largest, when `max_rounds` is an axis.
    let max_rounds = cells
        .iter()
        .map(|c| c.max_rounds)
        .max()
        .unwrap_or(scenario.max_rounds);
    let mut encounters = Vec::with_capacity(cells.len());
    let mut unit_names = Vec::with_capacity(cells.len());
    let mut weapon_names = Vec::with_capacity(cells.len());
    let mut map_scale = Vec::with_capacity(cells.len());
    let mut maps = Vec::with_capacity(cells.len());
    let mut setups = Vec::with_capacity(cells.len());
    let mut first: Option<Compiled<R>> = None;
    // Each distinct warning, with the cells it was found in.
    let mut warned: Vec<(String, Vec<&str>)> = Vec::new();
    for cell in &cells {
        let compiled = compile_cell::<R>(scenario, cell)?;
        for warning in &compiled.warnings {
            match warned.iter_mut().find(|(w, _)| w == warning) {
                Some((_, found)) => found.push(&cell.label),
                None => warned.push((warning.clone(), vec![&cell.label])),
            }
        }
        encounters.push(compiled.encounter);
        unit_names.push(compiled.unit_names.clone());
        weapon_names.push(compiled.weapon_names.clone());
        map_scale.push(compiled.encounter.ground.map(|g| g.scale));
        maps.push(compiled.encounter.ground.map(|ground| {
            CellMap {
                ground,
                groups: compiled.placed.clone(),
                unreachable: compiled.unreachable.clone(),
                starts: compiled
                    .encounter
                    .specs()
                    .iter()
                    .map(|u| crate::engine::ground::unpack(u.distance))
                    .collect(),
            }
        }));
        // What this cell fights with, so the summary can show what each
        // cell changes rather than only the base scenario's values.
        setups.push(Setup {
            sides: sides_info(&compiled),
            options: compiled.options.clone(),
        });
        if first.is_none() {
            first = Some(compiled);
        }
    }
    // Describe the base scenario; if only the matrix makes it valid (a
    // required key left to an axis), the first cell. Any other problem in
    // the base is a value every cell overrides, which skirmish would
    // ignore: refused.
    let base = match compile::<R>(scenario.ctx(), &scenario.root, scenario.max_rounds) {
        Ok(base) => Some(base),
        Err(e) if e.to_string().contains(MISSING_KEY) => None,
        Err(e) => return Err(e),
    };
    let described = base.or(first).expect("a matrix has at least one cell");
    let info = ScenarioInfo {
        name: scenario.name.clone(),
        description: scenario.description.clone(),
        rules: R::NAME.to_string(),
        seed: scenario.seed,
        fights: scenario.fights,
        max_rounds,
        sides: sides_info(&described),
        axes: scenario.axes.iter().map(|a| a.path.clone()).collect(),
        counters: R::COUNTERS.to_vec(),
        options: described.options.clone(),
        baseline: scenario.baseline,
        streams: Streams::Common,
        precision: None,
        setups,
        warnings: warned
            .into_iter()
            .map(|(warning, found)| match found.len() {
                n if n == cells.len() => warning,
                1 => format!("in {}: {warning}", found[0]),
                n => format!(
                    "in {n} of {} cells ({}, ...): {warning}",
                    cells.len(),
                    found[0]
                ),
            })
            .collect(),
    };
    Ok(Plan {
        info,
        cells: cells.into_iter().map(|c| c.axis_values).collect(),
        unit_names,
        weapon_names,
        map_scale,
        maps,
        sim: Box::new(Cells { encounters }),
    })
}

/// A compiled scenario's sides as the report describes them.
fn sides_info<R: Ruleset>(compiled: &Compiled<R>) -> Vec<SideInfo> {
    compiled
        .sides
        .iter()
        .map(|s| SideInfo {
            name: s.name.clone(),
            units: s.groups.clone(),
        })
        .collect()
}

/// Compile one cell; errors caused by an axis value name the cell.
fn compile_cell<R: Ruleset>(
    scenario: &Scenario,
    cell: &Cell,
) -> Result<Compiled<R>, ScenarioError> {
    let ctx = Ctx {
        source: &scenario.source,
        cell: None,
    };
    compile::<R>(ctx, &cell.root, cell.max_rounds).map_err(|e| {
        // An error inside a value the matrix put in (an axis value, or an
        // item of a list value) belongs to the cell.
        let line_col = |offset| scenario.source.line_col(offset);
        let from_axis = e.place().and_then(|p| p.line_col).is_some_and(|at| {
            cell.spans
                .iter()
                .any(|s| line_col(s.start) <= at && at < line_col(s.end))
        });
        if from_axis {
            e.in_cell(&cell.label)
        } else {
            e
        }
    })
}

/// Starting batches of a cell under a precision target (batch means need a
/// few batches before their spread means anything).
pub const PRECISION_MIN_BATCHES: u64 = 8;
/// Fewest batches an unfinished cell gains in a round of a precision run.
pub const PRECISION_STEP: u64 = 8;

/// A raced run's decision after a round ([`Plan::race`]): from every
/// cell's tally and batches so far and the cap in batches, how many batches
/// each cell should have next, and which cells stopped at the cap short of
/// the target.
pub type Decide<'a> =
    dyn FnMut(&[(Tally, Vec<BatchStat>)], u64) -> (Vec<u64>, Vec<bool>) + Send + 'a;

/// A run in rounds' decision after a round: from the ledger, how many
/// batches each cell should have next.
type NextRound<'a> = dyn FnMut(&Plan, &mut Ledger) -> Result<Vec<u64>, RunError> + 'a;

/// How a run decides how many fights each cell gets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Exactly this many fights per cell.
    Fights(u64),
    /// Start with `fights` per cell (at least [`PRECISION_MIN_BATCHES`]
    /// batches), then add batches until [`crate::analysis::precise_enough`]
    /// or the cap.
    Precision {
        fights: u64,
        target: f64,
        max_fights: u64,
    },
}

impl Budget {
    /// Fights per cell: all of them, or with a precision target the
    /// fights every cell starts with.
    pub fn fights(&self) -> u64 {
        match *self {
            Budget::Fights(fights) | Budget::Precision { fights, .. } => fights,
        }
    }

    /// With a precision target, the most batches a cell may have (the cap
    /// in fights, in whole batches); else every batch of a cell.
    pub fn cap_batches(&self) -> u64 {
        let batch = u64::from(self.batch());
        match *self {
            Budget::Fights(fights) => fights.div_ceil(batch),
            Budget::Precision { max_fights, .. } => max_fights.div_ceil(batch).max(1),
        }
    }

    /// With a precision target, the batches every cell starts with (at
    /// least [`PRECISION_MIN_BATCHES`], at most the cap).
    pub fn start_batches(&self) -> u64 {
        let batch = u64::from(self.batch());
        let fights = self.fights();
        fights
            .div_ceil(batch)
            .max(PRECISION_MIN_BATCHES)
            .min(self.cap_batches())
    }

    /// Fights per batch of every cell of this run: [`batch_size`] of the
    /// fights per cell; with a precision target, of the starting fights but
    /// large enough that the cap needs at most [`PRECISION_MAX_BATCHES`]
    /// batches.
    pub fn batch(&self) -> u32 {
        match *self {
            Budget::Fights(fights) => batch_size(fights),
            Budget::Precision {
                fights, max_fights, ..
            } => {
                let cap_bound = max_fights
                    .div_ceil(PRECISION_MAX_BATCHES)
                    .min(u64::from(MAX_BATCH)) as u32;
                batch_size(fights).max(cap_bound)
            }
        }
    }
}

/// What a run is asked to do: how many fights, from which seed, with
/// which streams, and which share of the batches (a shard).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Work {
    pub budget: Budget,
    pub seed: u64,
    pub streams: Streams,
    pub shard: Shard,
}

impl Work {
    /// All of a run, on one machine.
    pub fn whole(budget: Budget, seed: u64, streams: Streams) -> Work {
        Work {
            budget,
            seed,
            streams,
            shard: Shard::WHOLE,
        }
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// Every batch of the work is in the ledger.
    Complete,
    /// Stopped on request (a signal) before the end; what was done is in
    /// the ledger (and journal).
    Stopped,
}

/// Why a run could not go on.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Journal(#[from] JournalError),
    #[error(transparent)]
    Ledger(#[from] LedgerError),
}

/// What the workers share: the ledger, the journal, and the first error.
struct Books<'a> {
    ledger: &'a mut Ledger,
    journal: Option<&'a mut Journal>,
    error: Option<RunError>,
}

impl Books<'_> {
    fn record(&mut self, record: Record) -> Result<(), RunError> {
        self.ledger.add(&record)?;
        if let Some(j) = self.journal.as_deref_mut() {
            j.append(&Line::Batch(record))?;
        }
        Ok(())
    }

    /// Folds the ledger and compacts the journal when rows have piled up;
    /// only between chunks, never inside a worker (see
    /// [`Ledger::fold_due`]).
    fn fold_if_due(&mut self) -> Result<(), RunError> {
        if self.ledger.fold_due() {
            self.ledger.fold()?;
            if let Some(j) = self.journal.as_deref_mut() {
                j.rewrite(self.ledger)?;
            }
        }
        Ok(())
    }
}

impl Plan {
    /// Total fights a run of `fights` per cell will fight.
    pub fn total_fights(&self, fights: u64) -> u64 {
        fights * self.cells.len() as u64
    }

    /// Total fights of `work`'s share (with a precision target: at most).
    pub fn shard_fights(&self, work: &Work) -> u64 {
        let batch = u64::from(work.budget.batch());
        match work.budget {
            Budget::Fights(fights) => {
                let (from, to) = work.shard.range(fights.div_ceil(batch));
                let end = (to * batch).min(fights);
                end.saturating_sub(from * batch) * self.cells.len() as u64
            }
            Budget::Precision { max_fights, .. } => self.total_fights(max_fights),
        }
    }

    /// The header of `work` on this plan's `scenario`: what its journal
    /// is the work of.
    pub fn header(&self, scenario: &Scenario, work: &Work) -> Header {
        Header {
            program: crate::journal::program(),
            name: scenario.name.clone(),
            path: scenario.source.path.clone(),
            text: scenario.source.text.clone(),
            seed: work.seed,
            amount: work.budget,
            batch: work.budget.batch(),
            streams: match work.streams {
                Streams::Common => "common".into(),
                Streams::Independent => "independent".into(),
            },
            cells: self.cells.len() as u32,
            sides: self.info.sides.len() as u32,
            counters: self.info.counters.len() as u32,
            shard: work.shard,
        }
    }

    /// A ledger for `work` on this plan, empty.
    pub fn ledger(&self, work: &Work) -> Ledger {
        Ledger::new(
            self.cells.len(),
            self.info.sides.len(),
            self.info.counters.len(),
            Grouping::of(&work.budget, work.budget.batch()),
        )
    }

    /// Fight `fights` fights in every cell with `seed`, on the current rayon
    /// pool, calling `progress` with the fights done after each batch.
    pub fn run(&self, fights: u64, seed: u64, progress: &(dyn Fn(u64) + Sync)) -> RunResults {
        self.run_with(Budget::Fights(fights), seed, Streams::Common, progress)
    }

    /// Fight every cell under `budget`, with common or independent random
    /// streams, on the current rayon pool, keeping everything in memory.
    pub fn run_with(
        &self,
        budget: Budget,
        seed: u64,
        streams: Streams,
        progress: &(dyn Fn(u64) + Sync),
    ) -> RunResults {
        let work = Work::whole(budget, seed, streams);
        let mut ledger = self.ledger(&work);
        let never = AtomicBool::new(false);
        self.execute(&work, &mut ledger, None, progress, &never)
            .and_then(|_| self.results(&work, &mut ledger))
            .expect("a run in memory has no journal to fail and records each batch once")
    }

    /// Fight what `work` asks that `ledger` does not have yet, on the
    /// current rayon pool, adding each finished batch to the ledger and
    /// the journal, until all is done or `stop` is set.
    ///
    /// A precision run proceeds in rounds: after each round the statistics of
    /// every cell (all its batches so far) decide which cells are not yet
    /// precise enough, and each of those is given more whole batches (enough
    /// to reach the target if the half-width shrinks like 1/√batches, at least
    /// [`PRECISION_STEP`], at most up to the cap). The baseline always has at
    /// least as many batches as any cell, so every difference is paired over
    /// all of the cell's batches. Decisions depend only on the results of
    /// whole rounds, never on timing, so the result is the same at any thread
    /// count; each round's decision is journalled, so a resumed run takes
    /// the same decisions.
    pub fn execute(
        &self,
        work: &Work,
        ledger: &mut Ledger,
        mut journal: Option<&mut Journal>,
        progress: &(dyn Fn(u64) + Sync),
        stop: &AtomicBool,
    ) -> Result<Finish, RunError> {
        let n_cells = self.cells.len();
        match work.budget {
            Budget::Fights(fights) => {
                let batch = u64::from(work.budget.batch());
                let (from, to) = work.shard.range(fights.div_ceil(batch));
                let ranges = vec![(from, to); n_cells];
                let finish = self.fight(
                    work,
                    &ranges,
                    fights,
                    ledger,
                    journal.as_deref_mut(),
                    progress,
                    stop,
                )?;
                if finish == Finish::Stopped {
                    return Ok(finish);
                }
            }
            Budget::Precision { target, .. } => {
                let cap = work.budget.cap_batches();
                let mut capped = vec![false; n_cells];
                let mut decide = |plan: &Plan, ledger: &mut Ledger| {
                    plan.next_batches(ledger, target, cap, &mut capped)
                };
                let finish = self.rounds(
                    work,
                    ledger,
                    journal.as_deref_mut(),
                    progress,
                    stop,
                    &mut decide,
                )?;
                if finish == Finish::Stopped {
                    return Ok(finish);
                }
            }
        }
        if ledger.complete {
            // Finished before this call (a finished journal opened again):
            // nothing to add.
            return Ok(Finish::Complete);
        }
        ledger.complete = true;
        if let Some(j) = journal {
            // Appended, not rewritten: folding the ledger into the journal
            // here would cost a fold per run for nothing (the report reads
            // the ledger in memory).
            j.append(&Line::Complete)?;
            j.sync()?;
        }
        Ok(Finish::Complete)
    }

    /// Fight `work` (a [`Budget::Precision`]) in rounds of whole batches:
    /// every cell starts with its starting batches, and after each round
    /// `decide` says from the ledger how many batches each cell should have;
    /// done when it asks for nothing new. Each round's decision is
    /// journalled, so a resumed run takes the same decisions.
    fn rounds(
        &self,
        work: &Work,
        ledger: &mut Ledger,
        mut journal: Option<&mut Journal>,
        progress: &(dyn Fn(u64) + Sync),
        stop: &AtomicBool,
        decide: &mut NextRound<'_>,
    ) -> Result<Finish, RunError> {
        let mut wanted = match ledger.wanted.clone() {
            Some(w) => w,
            None => {
                let w = vec![work.budget.start_batches(); self.cells.len()];
                ledger.wanted = Some(w.clone());
                if let Some(j) = journal.as_deref_mut() {
                    j.append(&Line::Wanted(w.clone()))?;
                }
                w
            }
        };
        loop {
            let ranges: Vec<(u64, u64)> = wanted.iter().map(|&w| (0, w)).collect();
            let finish = self.fight(
                work,
                &ranges,
                u64::MAX,
                ledger,
                journal.as_deref_mut(),
                progress,
                stop,
            )?;
            if finish == Finish::Stopped {
                return Ok(finish);
            }
            let next = decide(self, ledger)?;
            if next == wanted {
                return Ok(Finish::Complete);
            }
            wanted = next;
            ledger.wanted = Some(wanted.clone());
            if let Some(j) = journal.as_deref_mut() {
                j.append(&Line::Wanted(wanted.clone()))?;
            }
        }
    }

    /// A raced run, in memory, on the current rayon pool (`tactics
    /// --precision`): rounds of whole batches under `budget` (a
    /// [`Budget::Precision`]: its starting fights, batch size and cap), in
    /// which `decide` sees every cell's batches so far and the cap in
    /// batches, and says how many batches each cell should have next and
    /// which cells stopped at the cap unfinished. Decisions depend only on
    /// whole rounds' results, so the result is the same at any thread count.
    pub fn race(
        &self,
        budget: Budget,
        seed: u64,
        progress: &(dyn Fn(u64) + Sync),
        decide: &mut Decide<'_>,
    ) -> RunResults {
        let work = Work::whole(budget, seed, Streams::Common);
        let mut ledger = self.ledger(&work);
        let never = AtomicBool::new(false);
        let cap = budget.cap_batches();
        let mut capped = vec![false; self.cells.len()];
        self.rounds(
            &work,
            &mut ledger,
            None,
            progress,
            &never,
            &mut |_, ledger| {
                let (wanted, at_cap) = decide(&ledger.results()?, cap);
                capped = at_cap;
                Ok(wanted)
            },
        )
        .and_then(|_| self.results_capped(&work, &mut ledger, capped))
        .expect("a run in memory has no journal to fail and records each batch once")
    }

    /// The report's view of a complete ledger of `work`.
    pub fn results(&self, work: &Work, ledger: &mut Ledger) -> Result<RunResults, RunError> {
        let capped = match work.budget {
            Budget::Fights(_) => vec![false; self.cells.len()],
            Budget::Precision { target, .. } => {
                let cap = work.budget.cap_batches();
                let mut capped = vec![false; self.cells.len()];
                self.next_batches(ledger, target, cap, &mut capped)?;
                capped
            }
        };
        self.results_capped(work, ledger, capped)
    }

    /// The report's view of a complete ledger of `work`, `capped` marking
    /// the cells a precision target left unfinished at the cap.
    fn results_capped(
        &self,
        work: &Work,
        ledger: &mut Ledger,
        capped: Vec<bool>,
    ) -> Result<RunResults, RunError> {
        let cells = ledger
            .results()?
            .into_iter()
            .zip(&self.cells)
            .zip(capped)
            .enumerate()
            .map(|(index, (((tally, batches), values), capped))| CellResult {
                index,
                axis_values: values.clone(),
                tally,
                batches,
                capped,
            })
            .collect();
        let mut info = self.info.clone();
        info.seed = work.seed;
        info.fights = match work.budget {
            Budget::Fights(f) | Budget::Precision { fights: f, .. } => f,
        };
        info.streams = work.streams;
        info.precision = match work.budget {
            Budget::Fights(_) => None,
            Budget::Precision {
                target, max_fights, ..
            } => Some(Precision { target, max_fights }),
        };
        Ok(RunResults {
            scenario: info,
            cells,
            fights: Vec::new(),
            exact: Vec::new(),
            plays: None,
            ground: None,
        })
    }

    /// How many batches each cell should have after the next round of a
    /// precision run (equal to what it has: done). Marks cells that are
    /// unfinished but at the cap.
    fn next_batches(
        &self,
        ledger: &mut Ledger,
        target: f64,
        cap: u64,
        capped: &mut [bool],
    ) -> Result<Vec<u64>, RunError> {
        let sides = self.info.sides.len();
        let acc = ledger.results()?;
        let summaries: Vec<analysis::Summary> = acc
            .iter()
            .map(|(t, _)| analysis::summarize(t, sides, 0))
            .collect();
        let pairs: Vec<(&analysis::Summary, &[BatchStat])> = summaries
            .iter()
            .zip(&acc)
            .map(|(s, (_, b))| (s, b.as_slice()))
            .collect();
        let base = self.info.baseline;
        let comparisons = analysis::compare_all(&pairs, base);
        let mut wanted: Vec<u64> = Vec::with_capacity(acc.len());
        for (i, ((s, c), (_, b))) in summaries.iter().zip(&comparisons).zip(&acc).enumerate() {
            let have = b.len() as u64;
            if analysis::precise_enough(s, c, target) {
                capped[i] = false;
                wanted.push(have);
                continue;
            }
            // Half-widths shrink like 1/√batches: aim for the widest.
            let widest = s
                .wins
                .iter()
                .map(|p| half_width(&p.ci))
                .chain(c.win_rates.iter().map(|d| half_width(&d.ci)))
                .fold(0.0f64, f64::max);
            let next = batch_means::batches_for(have, widest, target, cap, PRECISION_STEP);
            capped[i] = next == have;
            wanted.push(next);
        }
        // The baseline keeps up with every cell, so all pairs are complete.
        let most = wanted.iter().copied().max().unwrap_or(0);
        if let Some(w) = wanted.get_mut(base) {
            *w = (*w).max(most);
        }
        Ok(wanted)
    }

    /// Fight every batch of `ranges[cell]` (of fights `0..fights` of the
    /// cell) that the ledger does not have, in parallel over (cell, batch).
    #[allow(clippy::too_many_arguments)]
    fn fight(
        &self,
        work: &Work,
        ranges: &[(u64, u64)],
        fights: u64,
        ledger: &mut Ledger,
        journal: Option<&mut Journal>,
        progress: &(dyn Fn(u64) + Sync),
        stop: &AtomicBool,
    ) -> Result<Finish, RunError> {
        let batch = u64::from(work.budget.batch());
        let sides = self.info.sides.len();
        let counters = self.info.counters.len();
        let books = Mutex::new(Books {
            ledger,
            journal,
            error: None,
        });
        // Work is handed to rayon a chunk at a time, so the list of batches
        // to fight stays small however many a cell has.
        let mut cursor = Cursor {
            cell: 0,
            batch: None,
        };
        loop {
            let items = {
                let mut books = books.lock().unwrap_or_else(|p| p.into_inner());
                if books.error.is_none() {
                    if let Err(e) = books.fold_if_due() {
                        books.error = Some(e);
                    }
                }
                if books.error.is_some() {
                    break;
                }
                cursor.next_chunk(ranges, books.ledger, fights, batch)
            };
            if items.is_empty() {
                break;
            }
            items.par_iter().for_each(|&(cell, b, size)| {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                let stream = stream_of(work.streams, cell, b);
                let mut tally = Tally::default();
                self.sim.batch(cell, work.seed, stream, size, &mut tally);
                let record = Record::of_batch(cell as u32, b, &tally, sides, counters);
                {
                    // A panic while the lock is held can only come from the
                    // ledger's own code; recover the data regardless.
                    let mut books = books.lock().unwrap_or_else(|p| p.into_inner());
                    if books.error.is_some() {
                        return;
                    }
                    if let Err(e) = books.record(record) {
                        books.error = Some(e);
                        stop.store(true, Ordering::Relaxed);
                        return;
                    }
                }
                progress(u64::from(size));
            });
            if stop.load(Ordering::Relaxed) {
                break;
            }
        }
        let books = books.into_inner().unwrap_or_else(|p| p.into_inner());
        if let Some(e) = books.error {
            return Err(e);
        }
        if let Some(j) = books.journal {
            j.sync()?;
        }
        Ok(if stop.load(Ordering::Relaxed) {
            Finish::Stopped
        } else {
            Finish::Complete
        })
    }
}

/// Most batches handed to rayon at once: enough that the pause between
/// chunks (the slowest batch of a chunk) does not show, few enough that the
/// list and the rows the ledger holds before it may fold stay small.
const CHUNK: usize = 1 << 13;

/// Where the next chunk of batches to fight starts.
struct Cursor {
    cell: usize,
    /// The next batch of `cell` (`None`: its range's start).
    batch: Option<u64>,
}

impl Cursor {
    /// The next up to [`CHUNK`] batches `(cell, batch, fights)` of
    /// `ranges[cell]` that the ledger does not have, in cell order.
    fn next_chunk(
        &mut self,
        ranges: &[(u64, u64)],
        ledger: &Ledger,
        fights: u64,
        batch: u64,
    ) -> Vec<(usize, u64, u32)> {
        let mut items = Vec::new();
        while items.len() < CHUNK && self.cell < ranges.len() {
            let (from, to) = ranges[self.cell];
            let done = ledger.done(self.cell);
            let mut b = self.batch.unwrap_or(from);
            while items.len() < CHUNK {
                b = done.first_missing_from(b);
                if b >= to {
                    break;
                }
                items.push((self.cell, b, (fights - b * batch).min(batch) as u32));
                b += 1;
            }
            if b >= to {
                self.cell += 1;
                self.batch = None;
            } else {
                self.batch = Some(b);
            }
        }
        items
    }
}

impl Plan {
    /// Fight every batch of a run of `fights` per cell on the current rayon
    /// pool and only add up the tallies: the pure simulation a run's
    /// end-to-end time is compared with (`benches/cost.rs`). No ledger, no
    /// journal, no results.
    pub fn simulate(&self, fights: u64, seed: u64) -> Tally {
        let sizes = batch_sizes(fights, batch_size(fights));
        let batches = sizes.len();
        (0..self.cells.len() * batches)
            .into_par_iter()
            .map(|item| {
                let (cell, b) = (item / batches, item % batches);
                let stream = stream_of(Streams::Common, cell, b as u64);
                let mut tally = Tally::default();
                self.sim.batch(cell, seed, stream, sizes[b], &mut tally);
                tally
            })
            .reduce(Tally::default, |mut a, b| {
                a += b;
                a
            })
    }

    /// Dice the rules read and turns taken in the first `fights` fights of
    /// every cell of a run with `seed` (one batch of `fights` per cell, on
    /// common streams): the cost table's dice and turns per fight
    /// (`benches/cost.rs`).
    pub fn count(&self, seed: u64, fights: u32) -> Counting {
        (0..self.cells.len())
            .map(|cell| self.sim.count(cell, seed, 0, fights))
            .fold(Counting::default(), |mut all, cell| {
                all += cell;
                all
            })
    }

    /// Fight `fight` (0-based) of cell `cell` of a run with `seed`, batches
    /// of `size` and `streams`, fought again exactly as the run fought it
    /// (batch `fight / size`, after the fights before it in that batch),
    /// with every event recorded.
    pub fn watch(&self, cell: usize, seed: u64, streams: Streams, size: u32, fight: u64) -> Tape {
        let batch = fight / u64::from(size);
        let offset = (fight % u64::from(size)) as u32;
        self.sim
            .watch(cell, seed, stream_of(streams, cell, batch), offset)
    }

    /// Where units fell in the first `fights` fights of cell `cell` of a
    /// run with `seed`, `streams` and batches of `size`: per side, per
    /// square of the cell's map (row-major), the units of that side out of
    /// the fight at its end on that square. The batches are fought again
    /// with an observer, in parallel on the current rayon pool; the counts
    /// are integers added up, so any thread count gives the same. Empty on
    /// the front.
    pub fn falls(
        &self,
        cell: usize,
        seed: u64,
        streams: Streams,
        size: u32,
        fights: u64,
    ) -> Vec<Vec<u32>> {
        let batches = batch_streams(streams, cell, fights, size);
        batches
            .into_par_iter()
            .map(|(stream, n)| self.sim.falls(cell, seed, stream, n))
            .reduce(Vec::new, |mut a, b| {
                if a.is_empty() {
                    return b;
                }
                for (x, y) in a.iter_mut().zip(&b) {
                    for (p, q) in x.iter_mut().zip(y) {
                        *p += q;
                    }
                }
                a
            })
    }

    /// Cell `cell`'s fight enumerated exactly, within `limits`, on the
    /// current rayon pool ([`crate::exact`]).
    pub fn exact(&self, cell: usize, limits: &Limits) -> Result<Answer, ExactError> {
        self.sim.exact(cell, limits)
    }

    /// Call `visit` with the outcome of each of the first `fights` fights
    /// of cell `cell` (as [`Plan::watch`] numbers them) in order, until it
    /// returns false. One thread: the same answer on any machine.
    pub fn scan(
        &self,
        cell: usize,
        seed: u64,
        streams: Streams,
        size: u32,
        fights: u64,
        visit: &mut dyn FnMut(Outcome) -> bool,
    ) {
        let batches = batch_streams(streams, cell, fights, size);
        self.sim.scan(cell, seed, &batches, visit);
    }
}

/// The first `fights` fights of cell `cell` as batches of `size`: each
/// batch's random stream and its fights, in batch order.
fn batch_streams(streams: Streams, cell: usize, fights: u64, size: u32) -> Vec<(u64, u32)> {
    batch_sizes(fights, size)
        .into_iter()
        .enumerate()
        .map(|(b, n)| (stream_of(streams, cell, b as u64), n))
        .collect()
}

/// The sizes of the batches of `fights` fights in batches of `size`: full
/// batches, the last one partial.
fn batch_sizes(fights: u64, size: u32) -> Vec<u32> {
    let batch = u64::from(size);
    (0..fights.div_ceil(batch))
        .map(|b| (fights - b * batch).min(batch) as u32)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batch_size_gives_enough_batches() {
        // The default 10,000 fights: 32 batches (it was 3 of 4096).
        assert_eq!(batch_size(10_000), 313);
        assert_eq!(batch_sizes(10_000, 313).len(), 32);
        assert_eq!(batch_sizes(10_000, 313).iter().sum::<u32>(), 10_000);
        assert_eq!(batch_sizes(10_000, 313).last(), Some(&297));
        // Every fights count from 4096 up gets at least 32 batches.
        for fights in [4096, 4097, 20_000, 131_071, 131_072, 200_000, 10_000_000] {
            let size = batch_size(fights);
            assert!(
                fights.div_ceil(u64::from(size)) >= TARGET_BATCHES,
                "{fights}"
            );
            assert!((MIN_BATCH..=MAX_BATCH).contains(&size), "{fights}");
        }
        // Small runs: batches of the minimum size.
        assert_eq!(batch_size(1), MIN_BATCH);
        assert_eq!(batch_sizes(1000, batch_size(1000)).len(), 8);
        // Large runs: 4096, as with the old fixed batches.
        assert_eq!(batch_size(1_000_000), MAX_BATCH);
    }

    /// The fixture of the CLI tests: 4 cells.
    fn small_plan() -> (Scenario, Plan) {
        let source = crate::scenario::Source {
            path: "small.toml".into(),
            text: include_str!("../tests/fixtures/small.toml").into(),
        };
        let scenario = crate::scenario::parse(source).expect("parses");
        let p = plan(&scenario).expect("compiles");
        (scenario, p)
    }

    #[test]
    fn folding_and_compacting_while_two_threads_fight_changes_nothing() {
        // A ledger that folds whenever it can (between chunks, and between
        // the rounds of a precision run), a journal rewritten at each fold,
        // on a pool of 2 threads: the result is the plain run's, and the
        // journal read back holds it all.
        let (scenario, p) = small_plan();
        let precision = Budget::Precision {
            fights: 2000,
            target: 0.02,
            max_fights: 200_000,
        };
        for budget in [Budget::Fights(20_000), precision] {
            let work = Work::whole(budget, 7, Streams::Common);
            let expected = p.run_with(work.budget, work.seed, work.streams, &|_| {});
            let dir = tempfile::tempdir().expect("temp dir");
            let path = dir.path().join("small.journal");
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(2)
                .build()
                .expect("pool");
            let (mut journal, ledger, _) =
                Journal::open(&path, &p.header(&scenario, &work), false).expect("opens");
            let mut ledger = ledger.folding_at(3);
            let never = AtomicBool::new(false);
            let finish = pool
                .install(|| p.execute(&work, &mut ledger, Some(&mut journal), &|_| {}, &never))
                .expect("runs");
            assert_eq!(finish, Finish::Complete);
            let results = p.results(&work, &mut ledger).expect("aggregates");
            assert_eq!(results, expected, "{budget:?}");
            journal.close().expect("closes");
            let (_, mut back) = crate::journal::read(&path).expect("reads");
            assert!(back.complete);
            assert_eq!(p.results(&work, &mut back).expect("aggregates"), expected);
        }
        // The precision run took more than one round.
        let (_, back) = {
            let work = Work::whole(precision, 7, Streams::Common);
            let mut ledger = p.ledger(&work);
            let never = AtomicBool::new(false);
            p.execute(&work, &mut ledger, None, &|_| {}, &never)
                .expect("runs");
            ((), ledger)
        };
        let rounds = back.wanted.expect("decided");
        assert!(rounds.iter().any(|&w| w > 16), "{rounds:?}");
    }

    #[test]
    fn chunks_list_every_missing_batch_once_in_order() {
        use crate::journal::{Grouping, Line};
        let mut ledger = Ledger::new(3, 2, 0, Grouping(None));
        for (cell, from, to) in [(0u32, 10u64, 70_000u64), (1, 0, 5), (2, 0, 200_000)] {
            ledger
                .apply(Line::Done { cell, from, to })
                .expect("applies");
        }
        let ranges = [(0, 150_000), (0, 7), (100, 200_000)];
        let mut cursor = Cursor {
            cell: 0,
            batch: None,
        };
        let mut all = Vec::new();
        loop {
            let chunk = cursor.next_chunk(&ranges, &ledger, 150_000 * 128 - 1, 128);
            assert!(chunk.len() <= CHUNK);
            if chunk.is_empty() {
                break;
            }
            all.extend(chunk);
        }
        let expected: Vec<(usize, u64)> = (0..10)
            .chain(70_000..150_000)
            .map(|b| (0, b))
            .chain([(1, 5), (1, 6)])
            .collect();
        let got: Vec<(usize, u64)> = all.iter().map(|&(c, b, _)| (c, b)).collect();
        assert_eq!(got, expected);
        // The last batch of the cell is the partial one.
        assert_eq!(all.iter().find(|i| i.1 == 149_999).map(|i| i.2), Some(127));
        assert_eq!(all[0].2, 128);
    }

    #[test]
    fn precision_batches_are_bounded_by_the_cap() {
        let budget = |fights, max_fights| Budget::Precision {
            fights,
            target: 0.01,
            max_fights,
        };
        // A small cap: the starting fights decide.
        assert_eq!(budget(10_000, 200_000).batch(), 313);
        // The default cap of 10 million needs batches of 2442 to stay within
        // 4096 batches per cell.
        assert_eq!(budget(10_000, 10_000_000).batch(), 2442);
        assert_eq!(budget(10_000, u64::MAX / 2).batch(), MAX_BATCH);
        assert_eq!(Budget::Fights(10_000).batch(), 313);
    }
}
