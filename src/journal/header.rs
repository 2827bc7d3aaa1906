//! What a journal is the work of: the header every journal starts with.
//!
//! A journal may only be continued, or merged with others, by the very same
//! work: the same scenario text, program version, seed, fights, batch size,
//! budget and streams. The header names all of these, and the scenario's
//! text itself, so that `merge` can write the report from the shards alone,
//! on any machine. [`Header::differences`] says in words what differs.

use crate::engine::{MAX_COUNTERS, MAX_SIDES};
use crate::journal::record::{seal, unseal, BadLine};
use crate::run::Budget;
use crate::scenario::MAX_CELLS;

/// Most lines of scenario text a header may say it holds (a scenario file
/// of a million lines is not one a person wrote).
const MAX_TEXT_LINES: u64 = 1_000_000;

/// The first line of every journal: [`FORMAT`] and its version. Version 2
/// added the draws at the round cap to every batch record; a journal of
/// another version is refused as such ([`older_format`]), never misread.
pub const MAGIC: &str = "skirmish journal 2";

/// What the first line of a journal of any version starts with.
pub const FORMAT: &str = "skirmish journal ";

/// The first line of `text` when it is a journal of another version than
/// this skirmish writes (an older one, say).
pub fn older_format(text: &str) -> Option<&str> {
    let first = text.split('\n').next().unwrap_or("");
    let first = unseal(first).unwrap_or(first);
    (first.starts_with(FORMAT) && first != MAGIC).then_some(first)
}

/// Which share of a run's batches a process fights: shard `index` (from 1)
/// of `count`. Shard `k` of `n` fights batches `(k−1)·B/n .. k·B/n` of every
/// cell of `B` batches, so every shard has about the same work whatever the
/// cells cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// The whole run on one machine.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// The batches `from..to` of a cell of `batches` batches that are this
    /// shard's.
    pub fn range(self, batches: u64) -> (u64, u64) {
        let share =
            |k: u64| (u128::from(batches) * u128::from(k) / u128::from(self.count.max(1))) as u64;
        (
            share(u64::from(self.index) - 1),
            share(u64::from(self.index)),
        )
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Everything that identifies a piece of work.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// `skirmish <version>`: another version may fight differently.
    pub program: String,
    /// The scenario's name (its report folder's name).
    pub name: String,
    /// The scenario file as given on the command line (for messages).
    pub path: String,
    /// The scenario's text, exactly.
    pub text: String,
    pub seed: u64,
    /// How many fights each cell gets.
    pub amount: Budget,
    /// Fights per batch.
    pub batch: u32,
    /// `common` or `independent`.
    pub streams: String,
    pub cells: u32,
    pub sides: u32,
    pub counters: u32,
    pub shard: Shard,
}

/// The program's own name and version, as headers record it.
pub fn program() -> String {
    format!("skirmish {}", env!("CARGO_PKG_VERSION"))
}

/// A short fingerprint of a text (FNV-1a, 64 bits), shown in messages.
pub fn fingerprint(text: &str) -> String {
    let h = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("{h:016x}")
}

impl Header {
    /// The header's lines, each sealed; the scenario's text is written one
    /// `text` line per line of the file.
    pub fn encode(&self) -> String {
        let mut out = seal(MAGIC.to_owned());
        let mut put = |key: &str, value: &str| out.push_str(&seal(format!("{key} {value}")));
        put("program", &self.program);
        put("name", &self.name);
        put("path", &self.path);
        put("scenario", &fingerprint(&self.text));
        match self.amount {
            Budget::Fights(f) => put("fights", &f.to_string()),
            Budget::Precision {
                fights,
                target,
                max_fights,
            } => put("precision", &format!("{fights} {target:?} {max_fights}")),
        }
        put("seed", &self.seed.to_string());
        put("batch", &self.batch.to_string());
        put("streams", &self.streams);
        put(
            "shape",
            &format!("{} {} {}", self.cells, self.sides, self.counters),
        );
        put("shard", &self.shard.to_string());
        let lines: Vec<&str> = self.text.split('\n').collect();
        put("lines", &lines.len().to_string());
        for line in lines {
            put("text", line);
        }
        out
    }

    /// Reads a header from `lines`, the journal's lines from its first
    /// (each without its newline), taking only the header's own; on a bad
    /// header, says which line (from 1) is wrong and why.
    ///
    /// Every count is checked before it is used: nothing is allocated from
    /// what a count says (a damaged `lines` line cannot ask for gigabytes),
    /// the scenario's text is read line by line as long as there are lines,
    /// and the shape is bounded by what a scenario can have.
    pub fn decode(lines: &mut dyn Iterator<Item = String>) -> Result<Header, (usize, BadLine)> {
        let mut at = 0usize;
        let result = Self::decode_counted(lines, &mut at);
        result.map_err(|e| (at.max(1), e))
    }

    fn decode_counted(
        lines: &mut dyn Iterator<Item = String>,
        at: &mut usize,
    ) -> Result<Header, BadLine> {
        let mut reader = HeaderLines { lines, at };
        let (first, rest) = reader.take()?;
        if first + " " + &rest != MAGIC {
            return Err(BadLine(format!("expected `{MAGIC}`")));
        }
        let mut next = |want: &str| reader.next(want);
        let num = |s: &str| {
            s.parse::<u64>()
                .map_err(|_| BadLine(format!("`{s}` is not a number")))
        };
        let within = |what: &str, n: u64, lo: u64, hi: u64| {
            if (lo..=hi).contains(&n) {
                Ok(n)
            } else {
                Err(BadLine(format!("{what} {n} is not from {lo} to {hi}")))
            }
        };
        let program = next("program")?.1;
        let name = next("name")?.1;
        let path = next("path")?.1;
        let print = next("scenario")?.1;
        // The sixth line is `fights` or `precision`.
        let amount = match next("")? {
            (key, v) if key == "precision" => {
                let parts: Vec<&str> = v.split(' ').collect();
                match parts.as_slice() {
                    [f, t, m] => Budget::Precision {
                        fights: num(f)?,
                        target: t
                            .parse()
                            .map_err(|_| BadLine(format!("`{t}` is not a number")))?,
                        max_fights: num(m)?,
                    },
                    _ => return Err(BadLine("a precision line has three numbers".into())),
                }
            }
            (key, v) if key == "fights" => Budget::Fights(within("fights", num(&v)?, 1, u64::MAX)?),
            (key, _) => {
                return Err(BadLine(format!(
                    "expected `fights` or `precision`, found `{key}`"
                )))
            }
        };
        let seed = num(&next("seed")?.1)?;
        let batch = within("batch", num(&next("batch")?.1)?, 1, u64::from(u32::MAX))? as u32;
        let streams = next("streams")?.1;
        let shape: Vec<u64> = next("shape")?
            .1
            .split(' ')
            .map(num)
            .collect::<Result<_, _>>()?;
        let [cells, sides, counters] = shape[..] else {
            return Err(BadLine("a shape line has three numbers".into()));
        };
        let cells = within("cells", cells, 1, MAX_CELLS as u64)?;
        let sides = within("sides", sides, 1, MAX_SIDES as u64)?;
        let counters = within("counters", counters, 0, MAX_COUNTERS as u64)?;
        let shard_text = next("shard")?.1;
        let shard = shard_text
            .split_once('/')
            .and_then(|(k, n)| {
                Some(Shard {
                    index: k.parse().ok()?,
                    count: n.parse().ok()?,
                })
            })
            .filter(|s| s.index >= 1 && s.index <= s.count)
            .ok_or_else(|| BadLine(format!("`{shard_text}` is not a shard K/N")))?;
        let count = within("lines", num(&next("lines")?.1)?, 1, MAX_TEXT_LINES)?;
        let mut text = String::new();
        for i in 0..count {
            if i > 0 {
                text.push('\n');
            }
            text.push_str(&next("text")?.1);
        }
        if fingerprint(&text) != print {
            return Err(BadLine(
                "the scenario text does not match its fingerprint".into(),
            ));
        }
        Ok(Header {
            program,
            name,
            path,
            text,
            seed,
            amount,
            batch,
            streams,
            cells: cells as u32,
            sides: sides as u32,
            counters: counters as u32,
            shard,
        })
    }

    /// What differs between the work of this journal and `other` (the work
    /// asked for now), in words, shard aside; empty when it is the same.
    pub fn differences(&self, other: &Header) -> Vec<String> {
        let mut out = Vec::new();
        let mut differ = |what: &str, here: String, there: String| {
            if here != there {
                out.push(format!("{what}: {here} in the journal, {there} now"));
            }
        };
        differ("program", self.program.clone(), other.program.clone());
        differ("scenario name", self.name.clone(), other.name.clone());
        // The work is the scenario's text, not the spelling of its path:
        // `x.toml`, `./x.toml` and `/abs/x.toml` (or shards started from
        // different working folders) are the same work.
        if self.text != other.text {
            out.push(format!(
                "scenario text: {} (fingerprint {}) in the journal, {} (fingerprint {}) now",
                self.path,
                fingerprint(&self.text),
                other.path,
                fingerprint(&other.text)
            ));
        }
        let mut differ = |what: &str, here: String, there: String| {
            if here != there {
                out.push(format!("{what}: {here} in the journal, {there} now"));
            }
        };
        let amount = |a: &Budget| match *a {
            Budget::Fights(f) => format!("{f} fights per cell"),
            Budget::Precision {
                fights,
                target,
                max_fights,
            } => format!(
                "precision {target} (from {fights} to at most {max_fights} fights per cell)"
            ),
        };
        differ("fights", amount(&self.amount), amount(&other.amount));
        differ("seed", self.seed.to_string(), other.seed.to_string());
        differ(
            "batch size",
            self.batch.to_string(),
            other.batch.to_string(),
        );
        differ("streams", self.streams.clone(), other.streams.clone());
        // The text decides cells, sides and counters; only a different
        // program could disagree here, and that is said above.
        if self.text == other.text && self.program == other.program {
            differ(
                "cells, sides, counters",
                format!("{} {} {}", self.cells, self.sides, self.counters),
                format!("{} {} {}", other.cells, other.sides, other.counters),
            );
        }
        out
    }
}

/// The lines of a header being read, and how many were taken.
struct HeaderLines<'a> {
    lines: &'a mut dyn Iterator<Item = String>,
    at: &'a mut usize,
}

impl HeaderLines<'_> {
    /// The next line as (key, value).
    fn take(&mut self) -> Result<(String, String), BadLine> {
        *self.at += 1;
        let line = self
            .lines
            .next()
            .ok_or_else(|| BadLine("the header ends too soon".into()))?;
        let body = unseal(&line)?;
        Ok(match body.split_once(' ') {
            Some((key, value)) => (key.to_owned(), value.to_owned()),
            None => (body.to_owned(), String::new()),
        })
    }

    /// The value of the next line, which must be `want`'s (any key for
    /// an empty `want`: the caller looks at it).
    fn next(&mut self, want: &str) -> Result<(String, String), BadLine> {
        let (key, value) = self.take()?;
        if want.is_empty() || key == want {
            Ok((key, value))
        } else {
            Err(BadLine(format!("expected `{want}`, found `{key}`")))
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn header() -> Header {
        Header {
            program: program(),
            name: "duel".into(),
            path: "scenarios/duel.toml".into(),
            text: "name = \"duel\"\n# a #comment with #hashes\n\nrules = \"trenches\"\n".into(),
            seed: 7,
            amount: Budget::Fights(10_000),
            batch: 313,
            streams: "common".into(),
            cells: 4,
            sides: 2,
            counters: 3,
            shard: Shard { index: 2, count: 8 },
        }
    }

    #[test]
    fn a_header_reads_back_exactly() {
        for amount in [
            Budget::Fights(10_000),
            Budget::Precision {
                fights: 1000,
                target: 0.01,
                max_fights: 1_000_000,
            },
        ] {
            let h = Header { amount, ..header() };
            let text = h.encode();
            let mut lines = text.lines().map(str::to_owned);
            let back = Header::decode(&mut lines).expect("reads");
            assert_eq!(back, h);
            assert_eq!(lines.next(), None, "the header's lines, all of them");
        }
    }

    #[test]
    fn differences_name_what_differs() {
        let a = header();
        assert!(a.differences(&a).is_empty());
        let b = Header {
            seed: 8,
            text: a.text.replace("duel\"", "duel2\""),
            ..header()
        };
        let d = a.differences(&b);
        assert_eq!(d.len(), 2, "{d:?}");
        assert!(d[0].starts_with("scenario text"), "{d:?}");
        assert_eq!(d[1], "seed: 7 in the journal, 8 now");
        // The shard is not the work: shards of one run have the same work.
        let c = Header {
            shard: Shard { index: 3, count: 8 },
            ..header()
        };
        assert!(a.differences(&c).is_empty());
    }

    #[test]
    fn shards_split_every_cell_evenly_and_completely() {
        for batches in [0u64, 1, 7, 8, 32, 1000, u64::MAX / 3] {
            for count in [1u32, 2, 3, 8, 13] {
                let mut next = 0;
                for index in 1..=count {
                    let (from, to) = Shard { index, count }.range(batches);
                    assert_eq!(from, next, "{batches} {index}/{count}");
                    assert!(to - from <= batches / u64::from(count) + 1);
                    next = to;
                }
                assert_eq!(next, batches);
            }
        }
    }
}
