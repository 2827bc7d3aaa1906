//! The ledger: every batch outcome a run (or its shards) has so far, folded
//! with polars into a bounded table, and which batches are done.
//!
//! Batch outcomes arrive as [`Record`]s. Each becomes a row of the *groups*
//! table (its counts and sums, under its cell and batch group) and adds its
//! fight-length histogram to the pending *lengths* (summed per cell and
//! length as they arrive), and those are folded (`group_by` + `sum` in
//! polars) into one row per (cell, group) and one per (cell, length)
//! whenever enough have piled up. A cell of a
//! run of a fixed number of fights has at most [`FIXED_GROUPS`] groups:
//! batch `b` of `B` is in group `b` while `B ≤ FIXED_GROUPS`, else in group
//! `⌊b·FIXED_GROUPS/B⌋` (consecutive batches together), so the ledger's
//! size, the journal's and the run's memory depend on the number of cells,
//! not of fights. Under a precision target, which cannot know in advance
//! how many batches a cell will take, each batch is a group (at most
//! [`MAX_GROUPS`]). The groups are what the paired batch-means intervals
//! are computed over; a group of consecutive batches is itself a batch of
//! the same stream, so the intervals stay valid.
//!
//! [`Ledger::results`] is the aggregation the report is computed from: per
//! cell, the sums over its groups (`group_by(cell)`) and its fight-length
//! histogram, as a [`Tally`] and per-group [`BatchStat`]s. Everything is an
//! integer sum, so the order in which batches arrive (threads, resumes,
//! shards) cannot change a result.

use std::collections::HashMap;

use polars::prelude::*;

use crate::engine::{BatchStat, Tally, MAX_ROUNDS};
use crate::journal::record::{Line, Record};
use crate::run::Budget;

/// Most batch groups a cell keeps (and most batches a cell may have under
/// a precision target, which cannot know in advance how to group them).
pub const MAX_GROUPS: u64 = 4096;
/// Most batch groups a cell of a run of a fixed number of fights keeps:
/// its memory then stops growing with the fights from 64 batches (262,144
/// fights a cell at the largest batch) on. 64 batch means give paired
/// intervals 63 degrees of freedom, within 2% of the normal quantile.
pub const FIXED_GROUPS: u64 = 64;
/// Rows that may pile up before a fold, at least: a fold costs about the
/// size of the folded table, so folding when the new rows outnumber the
/// folded ones (and at least this many) keeps the cost per batch constant.
const FOLD_AT: usize = 4096;

/// Most rows that pile up before a fold: past this, a fold costs more than
/// a row's share (at most [`MAX_GROUPS`] folded rows a cell), but memory
/// stays bounded.
const FOLD_MOST: usize = 1 << 18;

/// Which batches of a cell are done: sorted, disjoint, non-adjacent
/// half-open ranges.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ranges(Vec<(u64, u64)>);

impl Ranges {
    /// Marks `from..to` done.
    pub fn insert(&mut self, from: u64, to: u64) {
        if from >= to {
            return;
        }
        let v = &mut self.0;
        // The first range that ends at or after `from` (it may touch).
        let first = v.partition_point(|&(_, end)| end < from);
        let mut last = first;
        let (mut lo, mut hi) = (from, to);
        while last < v.len() && v[last].0 <= hi {
            lo = lo.min(v[last].0);
            hi = hi.max(v[last].1);
            last += 1;
        }
        v.splice(first..last, [(lo, hi)]);
    }

    pub fn contains(&self, b: u64) -> bool {
        let i = self.0.partition_point(|&(_, end)| end <= b);
        self.0.get(i).is_some_and(|&(lo, _)| lo <= b)
    }

    /// The first batch from `b` on that is not done.
    pub fn first_missing_from(&self, b: u64) -> u64 {
        let i = self.0.partition_point(|&(_, end)| end <= b);
        match self.0.get(i) {
            Some(&(lo, hi)) if lo <= b => hi,
            _ => b,
        }
    }

    /// How many of the batches `from..to` are done.
    pub fn count_within(&self, from: u64, to: u64) -> u64 {
        self.0
            .iter()
            .map(|&(lo, hi)| hi.min(to).saturating_sub(lo.max(from)))
            .sum()
    }

    /// Does any batch outside `from..to` count as done?
    pub fn outside(&self, from: u64, to: u64) -> bool {
        self.0.iter().any(|&(lo, hi)| lo < from || hi > to)
    }

    pub fn iter(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.0.iter().copied()
    }
}

/// How batches map to groups: the number of batches per cell when it is
/// known (a fixed number of fights: at most [`FIXED_GROUPS`] groups), `None`
/// under a precision target (at most [`MAX_GROUPS`] batches: one group each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grouping(pub Option<u64>);

impl Grouping {
    /// The grouping of a run of `budget` in batches of `batch` fights.
    pub fn of(budget: &Budget, batch: u32) -> Grouping {
        match *budget {
            Budget::Fights(f) => Grouping(Some(f.div_ceil(u64::from(batch.max(1))))),
            Budget::Precision { .. } => Grouping(None),
        }
    }

    pub fn group(self, batch: u64) -> u64 {
        match self.0 {
            Some(n) if n > FIXED_GROUPS => {
                (u128::from(batch) * u128::from(FIXED_GROUPS) / u128::from(n)) as u64
            }
            _ => batch,
        }
    }
}

/// The summed columns of the groups table before the per-side ones, in
/// order (a [`Record`]'s head, with the batches a group holds first).
const HEAD: [&str; 5] = ["batches", "fights", "draws", "draws_at_cap", "rounds_sum"];

/// Rows not yet folded, column by column.
#[derive(Default)]
struct Rows {
    cell: Vec<u32>,
    group: Vec<u64>,
    /// [`HEAD`] (batches, fights, draws, draws_at_cap, rounds_sum), then
    /// wins, survivors, damage per side, then counters:
    /// [`Ledger::value_names`] order.
    values: Vec<Vec<u64>>,
    /// Fights per (cell, length) not yet folded, summed as they arrive:
    /// a batch brings a row per fight length it saw, and between folds
    /// (up to a group table's height of batches) those rows would outgrow
    /// the folded table many times over. Summed here, they stay within
    /// its size (a cell's distinct lengths), however long the run.
    lengths: HashMap<(u32, u32), u64>,
}

/// Every batch outcome so far; see the module docs.
pub struct Ledger {
    cells: usize,
    sides: usize,
    counters: usize,
    grouping: Grouping,
    value_names: Vec<String>,
    groups: DataFrame,
    lengths: DataFrame,
    rows: Rows,
    done: Vec<Ranges>,
    /// Under a precision target: the batches each cell has been given.
    pub wanted: Option<Vec<u64>>,
    /// Every batch of the work is done (the journal said so).
    pub complete: bool,
    /// Fewest new rows [`Ledger::fold_due`] waits for.
    fold_at: usize,
    /// How many batches a cell may have ([`Ledger::bounded`]): lines read
    /// from a file are checked against it, since the per-group table is
    /// sized by the largest group a line names.
    batch_limit: u64,
}

/// Why journal lines could not be added to a ledger.
#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    // Transparent: `{0}` would print the cause, and the error chain again.
    #[error(transparent)]
    Polars(#[from] PolarsError),
    #[error("a line names cell {cell}, but the work has {cells} cells")]
    NoSuchCell { cell: u32, cells: usize },
    #[error("batch {batch} of cell {cell} is recorded twice")]
    Twice { cell: u32, batch: u64 },
    #[error("a line names {what} {number}, beyond the work (below {limit})")]
    OutOfRange {
        what: &'static str,
        number: u64,
        limit: u64,
    },
    #[error("a line gives batch counts of {found} cells, but the work has {cells}")]
    Counts { found: usize, cells: usize },
}

impl Ledger {
    pub fn new(cells: usize, sides: usize, counters: usize, grouping: Grouping) -> Ledger {
        let mut value_names: Vec<String> = HEAD.into_iter().map(String::from).collect();
        for what in ["wins", "survivors", "damage"] {
            value_names.extend((0..sides).map(|s| format!("{what}_{s}")));
        }
        value_names.extend((0..counters).map(|c| format!("counter_{c}")));
        let rows = Rows {
            values: vec![Vec::new(); value_names.len()],
            ..Rows::default()
        };
        let mut ledger = Ledger {
            cells,
            sides,
            counters,
            grouping,
            value_names,
            groups: DataFrame::empty(),
            lengths: DataFrame::empty(),
            rows,
            done: vec![Ranges::default(); cells],
            wanted: None,
            complete: false,
            fold_at: FOLD_AT,
            batch_limit: u64::MAX,
        };
        ledger.groups = ledger.take_group_rows();
        ledger.lengths = ledger.take_length_rows();
        ledger
    }

    /// This ledger, due for a fold from `rows` new rows on (tests make it
    /// fold often).
    pub fn folding_at(mut self, rows: usize) -> Ledger {
        self.fold_at = rows.max(1);
        self
    }

    /// This ledger, refusing lines about batches from `batches` on (a
    /// journal's work has that many a cell, or under a precision target
    /// at most that many).
    pub fn bounded(mut self, batches: u64) -> Ledger {
        self.batch_limit = batches;
        self
    }

    /// How many batch groups a cell may have, by [`Ledger::bounded`].
    fn group_limit(&self) -> u64 {
        match self.batch_limit {
            0 => 0,
            n => self.grouping.group(n - 1).saturating_add(1),
        }
    }

    /// The names of the summed columns of the groups table.
    pub fn value_names(&self) -> &[String] {
        &self.value_names
    }

    pub fn done(&self, cell: usize) -> &Ranges {
        &self.done[cell]
    }

    /// Adds a finished batch. Never folds (see [`Ledger::fold_due`]).
    pub fn add(&mut self, r: &Record) -> Result<(), LedgerError> {
        let cell = self.check_cell(r.cell)?;
        // A batch beyond the work would become a group beyond it, and the
        // per-group table is sized by the largest group.
        within("batch", r.batch, self.batch_limit)?;
        if self.done[cell].contains(r.batch) {
            return Err(LedgerError::Twice {
                cell: r.cell,
                batch: r.batch,
            });
        }
        self.done[cell].insert(r.batch, r.batch + 1);
        self.push_group(r, self.grouping.group(r.batch), 1);
        for &(rounds, fights) in &r.lengths {
            self.push_length(r.cell, rounds, fights);
        }
        Ok(())
    }

    /// Whether enough rows have piled up for a fold. Adding never folds by
    /// itself: a fold runs polars, on polars' own thread pool, and a rayon
    /// worker that waits for another pool runs jobs of its own pool
    /// meanwhile, which must not happen while it holds the lock the
    /// runner's workers add batches under. The runner folds between
    /// chunks of work instead.
    pub fn fold_due(&self) -> bool {
        self.rows.cell.len() >= self.fold_at.max(self.groups.height().min(FOLD_MOST))
    }

    /// Adds a line read from a journal (a header's work must match).
    pub fn apply(&mut self, line: Line) -> Result<(), LedgerError> {
        match line {
            Line::Batch(r) => self.add(&r)?,
            Line::Group { record, batches } => {
                self.check_cell(record.cell)?;
                within("batch group", record.batch, self.group_limit())?;
                self.push_group(&record, record.batch, batches);
            }
            Line::Lengths {
                cell,
                rounds,
                fights,
            } => {
                self.check_cell(cell)?;
                self.push_length(cell, rounds, fights);
            }
            Line::Done { cell, from, to } => {
                let c = self.check_cell(cell)?;
                within("batch", to.saturating_sub(1), self.batch_limit)?;
                if self.done[c].count_within(from, to) > 0 {
                    return Err(LedgerError::Twice { cell, batch: from });
                }
                self.done[c].insert(from, to);
            }
            Line::Wanted(w) => {
                // One count per cell, each within the work.
                if w.len() != self.cells {
                    return Err(LedgerError::Counts {
                        found: w.len(),
                        cells: self.cells,
                    });
                }
                for &n in &w {
                    within("batch count", n, self.batch_limit.saturating_add(1))?;
                }
                self.wanted = Some(w)
            }
            Line::Complete => self.complete = true,
        }
        Ok(())
    }

    /// Adds everything of another ledger of the same work (another shard).
    pub fn absorb(&mut self, other: Ledger) -> Result<(), LedgerError> {
        for line in other.into_lines()? {
            if !matches!(line, Line::Complete | Line::Wanted(_)) {
                self.apply(line)?;
            }
        }
        Ok(())
    }

    fn check_cell(&self, cell: u32) -> Result<usize, LedgerError> {
        let c = cell as usize;
        if c < self.cells {
            Ok(c)
        } else {
            Err(LedgerError::NoSuchCell {
                cell,
                cells: self.cells,
            })
        }
    }

    fn push_group(&mut self, r: &Record, group: u64, batches: u64) {
        self.rows.cell.push(r.cell);
        self.rows.group.push(group);
        let fixed = [batches, r.fights, r.draws, r.draws_at_cap, r.rounds_sum];
        let values = fixed
            .iter()
            .chain(&r.wins)
            .chain(&r.survivors)
            .chain(&r.damage)
            .chain(&r.counters);
        for (column, &v) in self.rows.values.iter_mut().zip(values) {
            column.push(v);
        }
    }

    fn push_length(&mut self, cell: u32, rounds: u32, fights: u64) {
        *self.rows.lengths.entry((cell, rounds)).or_default() += fights;
    }

    /// The unfolded group rows as a table (and forgets them).
    fn take_group_rows(&mut self) -> DataFrame {
        let rows = &mut self.rows;
        let height = rows.cell.len();
        let mut columns = vec![
            Column::new("cell".into(), std::mem::take(&mut rows.cell)),
            Column::new("group".into(), std::mem::take(&mut rows.group)),
        ];
        for (name, values) in self.value_names.iter().zip(&mut rows.values) {
            columns.push(Column::new(name.into(), std::mem::take(values)));
        }
        DataFrame::new(height, columns).expect("distinct names, equal lengths")
    }

    fn take_length_rows(&mut self) -> DataFrame {
        let pending = std::mem::take(&mut self.rows.lengths);
        let height = pending.len();
        let (mut cells, mut rounds, mut fights) = (
            Vec::with_capacity(height),
            Vec::with_capacity(height),
            Vec::with_capacity(height),
        );
        // In the map's order: the fold sorts.
        for ((cell, length), n) in pending {
            cells.push(cell);
            rounds.push(length);
            fights.push(n);
        }
        DataFrame::new(
            height,
            vec![
                Column::new("cell".into(), cells),
                Column::new("rounds".into(), rounds),
                Column::new("fights".into(), fights),
            ],
        )
        .expect("distinct names, equal lengths")
    }

    /// Folds the new rows into the tables: one row per (cell, group) and per
    /// (cell, length), sorted.
    pub fn fold(&mut self) -> Result<(), LedgerError> {
        if self.rows.cell.is_empty() && self.rows.lengths.is_empty() {
            return Ok(());
        }
        let new_groups = self.take_group_rows();
        let new_lengths = self.take_length_rows();
        self.groups = sum_by(self.groups.vstack(&new_groups)?, &["cell", "group"])?;
        self.lengths = sum_by(self.lengths.vstack(&new_lengths)?, &["cell", "rounds"])?;
        Ok(())
    }

    /// The ledger as journal lines: its folded groups, lengths, done
    /// ranges, and the precision decision and completeness, if any.
    pub fn lines(&mut self) -> Result<Vec<Line>, LedgerError> {
        self.fold()?;
        let mut out = Vec::with_capacity(self.groups.height() + self.lengths.height());
        let cells = self.groups.column("cell")?.u32()?.clone();
        let groups = self.groups.column("group")?.u64()?.clone();
        let values = self.value_columns()?;
        for row in 0..self.groups.height() {
            let v = |k: usize| values[k].get(row).unwrap_or(0);
            let sided = |at: usize| (0..self.sides).map(|s| v(at + s)).collect::<Vec<_>>();
            let (h, s) = (HEAD.len(), self.sides);
            out.push(Line::Group {
                record: Record {
                    cell: cells.get(row).unwrap_or(0),
                    batch: groups.get(row).unwrap_or(0),
                    fights: v(1),
                    draws: v(2),
                    draws_at_cap: v(3),
                    rounds_sum: v(4),
                    wins: sided(h),
                    survivors: sided(h + s),
                    damage: sided(h + 2 * s),
                    counters: (0..self.counters).map(|c| v(h + 3 * s + c)).collect(),
                    lengths: Vec::new(),
                },
                batches: v(0),
            });
        }
        let l_cell = self.lengths.column("cell")?.u32()?;
        let l_rounds = self.lengths.column("rounds")?.u32()?;
        let l_fights = self.lengths.column("fights")?.u64()?;
        for row in 0..self.lengths.height() {
            out.push(Line::Lengths {
                cell: l_cell.get(row).unwrap_or(0),
                rounds: l_rounds.get(row).unwrap_or(0),
                fights: l_fights.get(row).unwrap_or(0),
            });
        }
        for (cell, ranges) in self.done.iter().enumerate() {
            for (from, to) in ranges.iter() {
                out.push(Line::Done {
                    cell: cell as u32,
                    from,
                    to,
                });
            }
        }
        if let Some(w) = &self.wanted {
            out.push(Line::Wanted(w.clone()));
        }
        if self.complete {
            out.push(Line::Complete);
        }
        Ok(out)
    }

    fn into_lines(mut self) -> Result<Vec<Line>, LedgerError> {
        self.lines()
    }

    fn value_columns(&self) -> Result<Vec<UInt64Chunked>, LedgerError> {
        self.value_names
            .iter()
            .map(|n| Ok(self.groups.column(n.as_str())?.u64()?.clone()))
            .collect()
    }

    /// The groups table: one row per (cell, group), with the batch groups'
    /// counts and sums (for `--export-batches`).
    pub fn groups(&mut self) -> Result<&DataFrame, LedgerError> {
        self.fold()?;
        Ok(&self.groups)
    }

    /// Each cell's totals and per-group stats: the aggregation a report is
    /// computed from (`group_by(cell)` over the groups, the lengths table
    /// for the histogram).
    pub fn results(&mut self) -> Result<Vec<(Tally, Vec<BatchStat>)>, LedgerError> {
        self.fold()?;
        let mut out: Vec<(Tally, Vec<BatchStat>)> =
            vec![(Tally::default(), Vec::new()); self.cells];
        let totals = sum_by(self.groups.drop("group")?, &["cell"])?;
        let cells = totals.column("cell")?.u32()?;
        let value = |name: &str, row: usize| -> Result<u64, LedgerError> {
            Ok(totals.column(name)?.u64()?.get(row).unwrap_or(0))
        };
        for row in 0..totals.height() {
            let cell = cells.get(row).unwrap_or(0) as usize;
            let t = &mut out[cell].0;
            t.fights = value("fights", row)?;
            t.draws = value("draws", row)?;
            t.draws_at_cap = value("draws_at_cap", row)?;
            for s in 0..self.sides {
                t.wins[s] = value(&format!("wins_{s}"), row)?;
                t.survivors[s] = value(&format!("survivors_{s}"), row)?;
                t.damage[s] = value(&format!("damage_{s}"), row)?;
            }
            for c in 0..self.counters {
                t.counters[c] = value(&format!("counter_{c}"), row)?;
            }
        }
        let l_cell = self.lengths.column("cell")?.u32()?;
        let l_rounds = self.lengths.column("rounds")?.u32()?;
        let l_fights = self.lengths.column("fights")?.u64()?;
        for row in 0..self.lengths.height() {
            let cell = l_cell.get(row).unwrap_or(0) as usize;
            let rounds = (l_rounds.get(row).unwrap_or(0) as usize).min(MAX_ROUNDS);
            out[cell].0.rounds[rounds] += l_fights.get(row).unwrap_or(0);
        }
        let cells = self.groups.column("cell")?.u32()?;
        let groups = self.groups.column("group")?.u64()?;
        let values = self.value_columns()?;
        let s = self.sides;
        for row in 0..self.groups.height() {
            let v = |k: usize| values[k].get(row).unwrap_or(0);
            let cell = cells.get(row).unwrap_or(0) as usize;
            let group = groups.get(row).unwrap_or(0) as usize;
            let stats = &mut out[cell].1;
            if stats.len() <= group {
                stats.resize(group + 1, BatchStat::default());
            }
            let mut wins = [0u64; crate::engine::MAX_SIDES];
            for (side, w) in wins.iter_mut().enumerate().take(s) {
                *w = v(HEAD.len() + side);
            }
            stats[group] = BatchStat {
                fights: v(1),
                wins,
                draws: v(2),
                rounds: v(4),
            };
        }
        Ok(out)
    }
}

/// `number` if it is below `limit`, else the error naming `what`.
fn within(what: &'static str, number: u64, limit: u64) -> Result<u64, LedgerError> {
    if number < limit {
        Ok(number)
    } else {
        Err(LedgerError::OutOfRange {
            what,
            number,
            limit,
        })
    }
}

/// `frame` grouped by `keys`, with every other column summed (and keeping
/// its name), sorted by the keys.
///
/// This is polars' eager `group_by(..).sum()`, which polars marks as
/// superseded by its lazy engine: in polars 0.55 the lazy engine brings the
/// streaming engine and with it cloud I/O (tokio, reqwest, object_store),
/// which would about double a cold build on the 2-core machines this is
/// built on, for the same summing kernel.
fn sum_by(frame: DataFrame, keys: &[&str]) -> PolarsResult<DataFrame> {
    #[allow(deprecated)]
    let mut summed = frame.group_by(keys.iter().copied())?.sum()?;
    let renames: Vec<(String, String)> = summed
        .get_column_names()
        .iter()
        .filter_map(|n| {
            n.strip_suffix("_sum")
                .map(|k| (n.to_string(), k.to_owned()))
        })
        .collect();
    for (from, to) in renames {
        summed.rename(&from, to.into())?;
    }
    summed.sort(keys.iter().copied(), SortMultipleOptions::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(cell: u32, batch: u64) -> Record {
        // Distinct, batch-dependent numbers, so a lost or doubled batch shows.
        let k = batch + 1;
        Record {
            cell,
            batch,
            fights: 10,
            draws: k % 3,
            draws_at_cap: k % 2,
            rounds_sum: 3 * 4 + 5 * 6,
            wins: vec![k % 7, 10 - k % 7 - k % 3],
            survivors: vec![k, 2 * k],
            damage: vec![100 + k, 50 + cell as u64],
            counters: vec![k * k],
            lengths: vec![(3, 4), (5, 6)],
        }
    }

    /// The sums a ledger must give, computed directly.
    fn direct(
        records: &[Record],
        cells: usize,
        grouping: Grouping,
    ) -> Vec<(Tally, Vec<BatchStat>)> {
        let mut out = vec![(Tally::default(), Vec::new()); cells];
        for r in records {
            let (t, stats) = &mut out[r.cell as usize];
            t.fights += r.fights;
            t.draws += r.draws;
            t.draws_at_cap += r.draws_at_cap;
            for s in 0..2 {
                t.wins[s] += r.wins[s];
                t.survivors[s] += r.survivors[s];
                t.damage[s] += r.damage[s];
            }
            t.counters[0] += r.counters[0];
            for &(rounds, n) in &r.lengths {
                t.rounds[rounds as usize] += n;
            }
            let g = grouping.group(r.batch) as usize;
            if stats.len() <= g {
                stats.resize(g + 1, BatchStat::default());
            }
            let b: &mut BatchStat = &mut stats[g];
            b.fights += r.fights;
            b.draws += r.draws;
            b.rounds += r.rounds_sum;
            b.wins[0] += r.wins[0];
            b.wins[1] += r.wins[1];
        }
        out
    }

    #[test]
    fn folding_in_any_order_gives_the_direct_sums() {
        let batches = 10_000u64;
        let grouping = Grouping(Some(batches));
        let mut records: Vec<Record> = (0..3)
            .flat_map(|c| (0..batches).map(move |b| record(c, b)))
            .collect();
        let expected = direct(&records, 3, grouping);
        assert_eq!(expected[0].1.len() as u64, FIXED_GROUPS);
        // Scrambled arrival order (a fixed permutation).
        let n = records.len();
        for i in 0..n {
            records.swap(i, (i * 7919 + 13) % n);
        }
        let mut ledger = Ledger::new(3, 2, 1, grouping);
        for r in &records {
            ledger.add(r).expect("adds");
            if ledger.fold_due() {
                ledger.fold().expect("folds");
            }
        }
        // The folded table stays bounded by cells × FIXED_GROUPS.
        assert!(ledger.groups().expect("folds").height() as u64 <= 3 * FIXED_GROUPS);
        assert_eq!(ledger.results().expect("aggregates"), expected);
        // Written out as journal lines and read back: the same.
        let lines = ledger.lines().expect("lines");
        assert!(lines.len() as u64 <= 3 * FIXED_GROUPS + 3 * 2 + 3 + 2);
        let mut back = Ledger::new(3, 2, 1, grouping);
        for line in lines {
            back.apply(line).expect("applies");
        }
        assert_eq!(back.results().expect("aggregates"), expected);
        assert_eq!(back.done(1).iter().collect::<Vec<_>>(), vec![(0, batches)]);
    }

    /// Between folds, a run's batches bring a fight-length row each per
    /// length they saw; those wait summed per (cell, length), so what
    /// waits is bounded by the cells' distinct lengths, not by how many
    /// batches came (which is what made long runs' memory grow).
    #[test]
    fn unfolded_lengths_stay_within_the_distinct_lengths() {
        let batches = 5_000u64;
        let grouping = Grouping(Some(batches));
        let records: Vec<Record> = (0..2)
            .flat_map(|c| (0..batches).map(move |b| record(c, b)))
            .collect();
        let mut ledger = Ledger::new(2, 2, 1, grouping);
        for r in &records {
            ledger.add(r).expect("adds");
        }
        // Two cells, two lengths each, 10,000 batches, not one fold.
        assert_eq!(ledger.rows.lengths.len(), 2 * 2);
        assert_eq!(ledger.rows.lengths[&(1, 5)], 6 * batches);
        assert_eq!(
            ledger.results().expect("aggregates"),
            direct(&records, 2, grouping)
        );
    }

    #[test]
    fn shards_absorbed_give_the_whole() {
        let grouping = Grouping(Some(100));
        let all: Vec<Record> = (0..2)
            .flat_map(|c| (0..100).map(move |b| record(c, b)))
            .collect();
        let expected = direct(&all, 2, grouping);
        let mut whole = Ledger::new(2, 2, 1, grouping);
        for k in 0..3u64 {
            let mut shard = Ledger::new(2, 2, 1, grouping);
            for r in all.iter().filter(|r| r.batch % 3 == k) {
                shard.add(r).expect("adds");
            }
            whole.absorb(shard).expect("absorbs");
        }
        assert_eq!(whole.results().expect("aggregates"), expected);
        // The same shard twice is refused.
        let mut again = Ledger::new(2, 2, 1, grouping);
        again.add(&all[0]).expect("adds");
        assert!(matches!(
            whole.absorb(again),
            Err(LedgerError::Twice { cell: 0, batch: 0 })
        ));
    }

    #[test]
    fn a_batch_recorded_twice_or_an_unknown_cell_is_refused() {
        let mut ledger = Ledger::new(2, 2, 1, Grouping(Some(10)));
        ledger.add(&record(1, 4)).expect("adds");
        assert!(matches!(
            ledger.add(&record(1, 4)),
            Err(LedgerError::Twice { cell: 1, batch: 4 })
        ));
        assert!(matches!(
            ledger.add(&record(2, 0)),
            Err(LedgerError::NoSuchCell { cell: 2, cells: 2 })
        ));
    }

    #[test]
    fn ranges_merge_and_answer() {
        let mut r = Ranges::default();
        for b in [5u64, 3, 4, 9, 0, 1, 2] {
            r.insert(b, b + 1);
        }
        assert_eq!(r.iter().collect::<Vec<_>>(), vec![(0, 6), (9, 10)]);
        assert!(r.contains(5) && r.contains(9) && !r.contains(6) && !r.contains(10));
        assert_eq!(
            [0, 5, 6, 9, 10].map(|b| r.first_missing_from(b)),
            [6, 6, 6, 10, 10]
        );
        assert_eq!(r.count_within(4, 10), 3);
        r.insert(6, 9);
        assert_eq!(r.iter().collect::<Vec<_>>(), vec![(0, 10)]);
        assert!(!r.outside(0, 10) && r.outside(1, 10));
    }

    #[test]
    fn grouping_is_identity_up_to_fixed_groups_then_consecutive() {
        assert_eq!(Grouping(Some(64)).group(63), 63);
        // Precision runs: one group per batch, however many.
        assert_eq!(Grouping(None).group(4095), 4095);
        let g = Grouping(Some(128));
        assert_eq!(
            (g.group(0), g.group(1), g.group(2), g.group(127)),
            (0, 0, 1, 63)
        );
        // Uneven: 100 batches in 64 groups of one or two consecutive
        // batches, every group used, in order.
        let g = Grouping(Some(100));
        let groups: Vec<u64> = (0..100).map(|b| g.group(b)).collect();
        assert!(groups.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1));
        assert_eq!((groups[0], groups[99]), (0, 63));
    }
}
