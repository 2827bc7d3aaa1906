//! What a finished journal promises, checked against what it holds.
//!
//! A journal marked complete is trusted by `merge` and by a run that finds
//! it: its counts become a report. Its header says exactly which batches of
//! every cell the work is (the shard's share of a fixed number of fights,
//! or under a precision target the batches each cell was given) and so
//! how many fights each cell must have. [`audit`] compares that with the
//! ledger, so a journal with a line lost (a hand edit, a bad copy, a disk
//! error) is refused, naming the cells and batches, instead of turning
//! into a report of 19,375 fights where 20,000 were promised.

use crate::journal::header::Header;
use crate::journal::ledger::{Ledger, LedgerError};
use crate::run::Budget;

/// Most problems named; the rest are counted.
const NAMED: usize = 6;

/// What the finished work of `header` lacks, or has beyond it, cell by
/// cell, in words; empty when the ledger holds exactly the work.
pub fn audit(header: &Header, ledger: &mut Ledger) -> Result<Vec<String>, LedgerError> {
    let cells = header.cells as usize;
    let batch = u64::from(header.batch);
    // The batches of each cell, and the fights of batch `b`.
    let (ranges, limit): (Vec<(u64, u64)>, u64) = match header.amount {
        Budget::Fights(fights) => (
            vec![header.shard.range(fights.div_ceil(batch)); cells],
            fights,
        ),
        Budget::Precision { .. } => match &ledger.wanted {
            Some(w) if w.len() == cells => (w.iter().map(|&n| (0, n)).collect(), u64::MAX),
            _ => {
                return Ok(vec![
                    "the batches each cell was given (its `W` line) are missing".into(),
                ])
            }
        },
    };
    let fights_of = |from: u64, to: u64| {
        let end = to.saturating_mul(batch).min(limit);
        end.saturating_sub(from.saturating_mul(batch))
    };
    let batches = batches_per_cell(ledger, cells)?;
    let totals = ledger.results()?;
    let mut problems = Vec::new();
    for (cell, &(from, to)) in ranges.iter().enumerate() {
        let done = ledger.done(cell);
        // The gaps between the done ranges, within the share.
        let mut missing = Vec::new();
        let mut at = from;
        for (lo, hi) in done.iter() {
            if at < lo.min(to) {
                missing.push(span(at, lo.min(to)));
            }
            at = at.max(hi);
        }
        if at < to {
            missing.push(span(at, to));
        }
        if missing.len() > NAMED {
            let more = missing.len() - NAMED;
            missing.truncate(NAMED);
            missing.push(format!("and {more} more ranges"));
        }
        if !missing.is_empty() {
            problems.push(format!(
                "cell {cell}: batch{} {} missing",
                if missing.len() == 1 && !missing[0].contains('-') {
                    ""
                } else {
                    "es"
                },
                missing.join(", ")
            ));
        }
        if done.outside(from, to) {
            problems.push(format!(
                "cell {cell}: batches outside its share {} are recorded",
                span(from, to)
            ));
        }
        let (want_batches, want_fights) = (to - from, fights_of(from, to));
        let (has_batches, has_fights) = (batches[cell], totals[cell].0.fights);
        if missing.is_empty() && (has_batches != want_batches || has_fights != want_fights) {
            problems.push(format!(
                "cell {cell}: {has_fights} fights in {has_batches} batches recorded, \
                 {want_fights} in {want_batches} promised"
            ));
        }
    }
    if problems.len() > NAMED {
        let more = problems.len() - NAMED;
        problems.truncate(NAMED);
        problems.push(format!("and {more} more"));
    }
    Ok(problems)
}

/// `7` or `7-9` (inclusive) for the batches `from..to`.
fn span(from: u64, to: u64) -> String {
    if to == from + 1 {
        from.to_string()
    } else {
        format!("{from}-{}", to - 1)
    }
}

/// How many batches each cell's groups say they hold.
fn batches_per_cell(ledger: &mut Ledger, cells: usize) -> Result<Vec<u64>, LedgerError> {
    let groups = ledger.groups()?;
    let cell = groups.column("cell")?.u32()?;
    let batches = groups.column("batches")?.u64()?;
    let mut out = vec![0u64; cells];
    for (c, n) in cell.iter().zip(batches.iter()) {
        if let (Some(c), Some(n)) = (c, n) {
            if let Some(slot) = out.get_mut(c as usize) {
                *slot += n;
            }
        }
    }
    Ok(out)
}
