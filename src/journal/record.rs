//! One line of a journal: what it says and how it is written and read.
//!
//! Lines are plain text, one fact per line, each ending in a checksum of
//! the line (` #` and 8 hex digits), so a line cut short by a kill or a
//! power cut is recognised and dropped rather than read as a smaller
//! number. Only counts and sums are written, never rates: every figure of a
//! report is derived from them later, so any number of lines from any
//! number of runs, resumes or shards add up to the same report.

use crate::engine::Tally;

/// The outcome of one batch of one cell, as the kernel tallied it: counts
/// and sums, the fight-length histogram kept sparse (the few lengths that
/// occurred).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub cell: u32,
    pub batch: u64,
    pub fights: u64,
    pub draws: u64,
    /// Of the draws, fights still running at the round cap.
    pub draws_at_cap: u64,
    /// Sum of fight lengths in rounds.
    pub rounds_sum: u64,
    /// Per side, in scenario order.
    pub wins: Vec<u64>,
    pub survivors: Vec<u64>,
    pub damage: Vec<u64>,
    /// The ruleset's counters, in `Ruleset::COUNTERS` order.
    pub counters: Vec<u64>,
    /// `(rounds, fights)` for every length that occurred, shortest first.
    pub lengths: Vec<(u32, u64)>,
}

impl Record {
    /// The record of a batch's tally, keeping `sides` sides and `counters`
    /// counters.
    pub fn of_batch(cell: u32, batch: u64, t: &Tally, sides: usize, counters: usize) -> Record {
        let lengths: Vec<(u32, u64)> = t
            .rounds
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(r, &n)| (r as u32, n))
            .collect();
        Record {
            cell,
            batch,
            fights: t.fights,
            draws: t.draws,
            draws_at_cap: t.draws_at_cap,
            rounds_sum: lengths.iter().map(|&(r, n)| u64::from(r) * n).sum(),
            wins: t.wins[..sides].to_vec(),
            survivors: t.survivors[..sides].to_vec(),
            damage: t.damage[..sides].to_vec(),
            counters: t.counters[..counters].to_vec(),
            lengths,
        }
    }
}

/// One line of a journal after its header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A finished batch.
    Batch(Record),
    /// Folded batches of one group of a cell (see `ledger`): `record.batch`
    /// is the group, `batches` how many batches it holds; no histogram
    /// (that is kept per cell, in [`Line::Lengths`]).
    Group { record: Record, batches: u64 },
    /// Folded fight lengths of a cell: `fights` fights lasted `rounds`.
    Lengths { cell: u32, rounds: u32, fights: u64 },
    /// Batches `from..to` of a cell are done (folded into the lines above).
    Done { cell: u32, from: u64, to: u64 },
    /// With a precision target: how many batches each cell has been given
    /// so far (the decision of the last completed round).
    Wanted(Vec<u64>),
    /// Every batch of the work is done.
    Complete,
}

/// A line that could not be read, and why.
#[derive(Debug, PartialEq, Eq)]
pub struct BadLine(pub String);

impl Line {
    /// The line's text, checksum and newline included.
    pub fn encode(&self) -> String {
        let mut s = String::with_capacity(96);
        let nums = |s: &mut String, v: &[u64]| {
            for n in v {
                s.push(' ');
                s.push_str(&n.to_string());
            }
        };
        let record = |s: &mut String, r: &Record| {
            nums(
                s,
                &[
                    u64::from(r.cell),
                    r.batch,
                    r.fights,
                    r.draws,
                    r.draws_at_cap,
                    r.rounds_sum,
                ],
            );
            nums(s, &r.wins);
            nums(s, &r.survivors);
            nums(s, &r.damage);
            nums(s, &r.counters);
        };
        match self {
            Line::Batch(r) => {
                s.push('B');
                record(&mut s, r);
                nums(&mut s, &[r.lengths.len() as u64]);
                for &(rounds, n) in &r.lengths {
                    nums(&mut s, &[u64::from(rounds), n]);
                }
            }
            Line::Group { record: r, batches } => {
                s.push('G');
                record(&mut s, r);
                nums(&mut s, &[*batches]);
            }
            Line::Lengths {
                cell,
                rounds,
                fights,
            } => {
                s.push('L');
                nums(&mut s, &[u64::from(*cell), u64::from(*rounds), *fights]);
            }
            Line::Done { cell, from, to } => {
                s.push('D');
                nums(&mut s, &[u64::from(*cell), *from, *to]);
            }
            Line::Wanted(v) => {
                s.push('W');
                nums(&mut s, v);
            }
            Line::Complete => s.push('E'),
        }
        seal(s)
    }

    /// Reads one line (without its newline) of a journal whose work has
    /// `sides` sides and `counters` counters.
    pub fn decode(text: &str, sides: usize, counters: usize) -> Result<Line, BadLine> {
        let body = unseal(text)?;
        let mut words = body.split(' ');
        let tag = words.next().unwrap_or("");
        let mut nums = words.map(|w| {
            w.parse::<u64>()
                .map_err(|_| BadLine(format!("`{w}` is not a count")))
        });
        let mut next = || {
            nums.next()
                .unwrap_or_else(|| Err(BadLine("the line ends too soon".into())))
        };
        let small = |n: u64, what: &str| {
            u32::try_from(n).map_err(|_| BadLine(format!("{what} {n} is out of range")))
        };
        let record = |next: &mut dyn FnMut() -> Result<u64, BadLine>| {
            let mut take = |k: usize| (0..k).map(|_| next()).collect::<Result<Vec<_>, _>>();
            let head = take(6)?;
            Ok::<Record, BadLine>(Record {
                cell: small(head[0], "cell")?,
                batch: head[1],
                fights: head[2],
                draws: head[3],
                draws_at_cap: head[4],
                rounds_sum: head[5],
                wins: take(sides)?,
                survivors: take(sides)?,
                damage: take(sides)?,
                counters: take(counters)?,
                lengths: Vec::new(),
            })
        };
        let line = match tag {
            "B" => {
                let mut r = record(&mut next)?;
                let n = next()?;
                for _ in 0..n {
                    let rounds = small(next()?, "rounds")?;
                    r.lengths.push((rounds, next()?));
                }
                Line::Batch(r)
            }
            "G" => {
                let r = record(&mut next)?;
                Line::Group {
                    record: r,
                    batches: next()?,
                }
            }
            "L" => Line::Lengths {
                cell: small(next()?, "cell")?,
                rounds: small(next()?, "rounds")?,
                fights: next()?,
            },
            "D" => Line::Done {
                cell: small(next()?, "cell")?,
                from: next()?,
                to: next()?,
            },
            "W" => {
                let mut v = Vec::new();
                for n in nums.by_ref() {
                    v.push(n?);
                }
                return Ok(Line::Wanted(v));
            }
            "E" => Line::Complete,
            other => return Err(BadLine(format!("unknown line kind `{other}`"))),
        };
        if nums.next().is_some() {
            return Err(BadLine("the line has more numbers than it should".into()));
        }
        Ok(line)
    }
}

/// FNV-1a, 32 bits: enough to tell a torn line from a whole one.
fn checksum(text: &str) -> u32 {
    text.bytes().fold(0x811c_9dc5u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// `text` + ` #` + its checksum + newline.
pub(crate) fn seal(mut text: String) -> String {
    let sum = checksum(&text);
    text.push_str(&format!(" #{sum:08x}\n"));
    text
}

/// The text of a sealed line (without its newline), if its checksum holds.
pub(crate) fn unseal(line: &str) -> Result<&str, BadLine> {
    let (body, sum) = line
        .rsplit_once(" #")
        .ok_or_else(|| BadLine("the line has no checksum".into()))?;
    match u32::from_str_radix(sum, 16) {
        Ok(s) if sum.len() == 8 && s == checksum(body) => Ok(body),
        _ => Err(BadLine("the line's checksum does not match".into())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> Record {
        Record {
            cell: 3,
            batch: 17,
            fights: 10,
            draws: 1,
            draws_at_cap: 1,
            rounds_sum: 42,
            wins: vec![6, 3],
            survivors: vec![7, 2],
            damage: vec![120, 80],
            counters: vec![4, 0, 9],
            lengths: vec![(3, 4), (5, 6)],
        }
    }

    #[test]
    fn every_kind_of_line_reads_back() {
        let lines = [
            Line::Batch(record()),
            Line::Group {
                record: Record {
                    lengths: Vec::new(),
                    ..record()
                },
                batches: 5,
            },
            Line::Lengths {
                cell: 2,
                rounds: 7,
                fights: 99,
            },
            Line::Done {
                cell: 1,
                from: 0,
                to: 64,
            },
            Line::Wanted(vec![8, 16, 24]),
            Line::Wanted(Vec::new()),
            Line::Complete,
        ];
        for line in lines {
            let text = line.encode();
            assert!(text.ends_with('\n'));
            assert_eq!(Line::decode(text.trim_end_matches('\n'), 2, 3), Ok(line));
        }
    }

    #[test]
    fn a_torn_or_altered_line_is_refused() {
        let text = Line::Batch(record()).encode();
        let text = text.trim_end_matches('\n');
        // Every prefix of a line (a write cut short) is refused.
        for cut in 0..text.len() {
            assert!(
                Line::decode(&text[..cut], 2, 3).is_err(),
                "{}",
                &text[..cut]
            );
        }
        // A digit changed.
        let altered = text.replacen("120", "121", 1);
        assert!(Line::decode(&altered, 2, 3).is_err());
        // Read with the wrong number of sides: refused, not misread.
        assert!(Line::decode(text, 3, 3).is_err());
        assert!(Line::decode(text, 1, 3).is_err());
    }

    #[test]
    fn a_batch_record_keeps_the_lengths_that_occurred() {
        let mut t = Tally {
            fights: 5,
            ..Tally::default()
        };
        t.rounds[2] = 3;
        t.rounds[9] = 2;
        t.wins[1] = 5;
        let r = Record::of_batch(0, 4, &t, 2, 0);
        assert_eq!(r.lengths, vec![(2, 3), (9, 2)]);
        assert_eq!(r.rounds_sum, 2 * 3 + 9 * 2);
        assert_eq!(r.wins, vec![0, 5]);
    }
}
