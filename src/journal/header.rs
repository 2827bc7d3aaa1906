//! What a journal is the work of: the header every journal starts with.
//!
//! A journal may only be continued, or merged with others, by the very same
//! work: the same scenario text, program version, seed, fights, batch size,
//! budget and streams. The header names all of these, and the scenario's
//! text itself, so that `merge` can write the report from the shards alone,
//! on any machine. [`Header::differences`] says in words what differs.

use crate::journal::record::{seal, unseal, BadLine};
use crate::run::Budget;

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

    /// Reads a header from the start of `lines`; returns it and how many
    /// lines it took.
    pub fn decode(lines: &[&str]) -> Result<(Header, usize), BadLine> {
        let mut at = 0usize;
        let mut next = |want: &str| -> Result<String, BadLine> {
            let line = lines
                .get(at)
                .ok_or_else(|| BadLine("the header ends too soon".into()))?;
            at += 1;
            let body = unseal(line)?;
            if want == MAGIC {
                return if body == MAGIC {
                    Ok(String::new())
                } else {
                    Err(BadLine(format!("expected `{MAGIC}`")))
                };
            }
            match body.split_once(' ') {
                Some((key, value)) if key == want => Ok(value.to_owned()),
                None if body == want => Ok(String::new()),
                _ => Err(BadLine(format!("expected `{want}`"))),
            }
        };
        let num = |s: &str| {
            s.parse::<u64>()
                .map_err(|_| BadLine(format!("`{s}` is not a number")))
        };
        next(MAGIC)?;
        let program = next("program")?;
        let name = next("name")?;
        let path = next("path")?;
        let print = next("scenario")?;
        // The sixth line is `fights` or `precision`: look before reading.
        let amount_line = lines.get(5).map(|l| unseal(l)).transpose()?.unwrap_or("");
        let amount = if amount_line.starts_with("precision ") {
            let v = next("precision")?;
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
        } else {
            Budget::Fights(num(&next("fights")?)?)
        };
        let seed = num(&next("seed")?)?;
        let batch = num(&next("batch")?)? as u32;
        let streams = next("streams")?;
        let shape: Vec<u64> = next("shape")?
            .split(' ')
            .map(num)
            .collect::<Result<_, _>>()?;
        let [cells, sides, counters] = shape[..] else {
            return Err(BadLine("a shape line has three numbers".into()));
        };
        let shard_text = next("shard")?;
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
        let count = num(&next("lines")?)? as usize;
        let mut text_lines = Vec::with_capacity(count);
        for _ in 0..count {
            text_lines.push(next("text")?);
        }
        let text = text_lines.join("\n");
        if fingerprint(&text) != print {
            return Err(BadLine(
                "the scenario text does not match its fingerprint".into(),
            ));
        }
        let header = Header {
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
        };
        Ok((header, at))
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
        differ(
            "scenario text",
            format!("{} (fingerprint {})", self.path, fingerprint(&self.text)),
            format!("{} (fingerprint {})", other.path, fingerprint(&other.text)),
        );
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
            let lines: Vec<&str> = text.lines().collect();
            let (back, used) = Header::decode(&lines).expect("reads");
            assert_eq!(back, h);
            assert_eq!(used, lines.len());
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
