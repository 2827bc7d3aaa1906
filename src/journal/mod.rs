//! The journal: a durable record of every finished batch of a run, beside
//! its report, from which the report is computed.
//!
//! While a run works, each finished batch (its counts, sums and
//! fight-length histogram; never a rate) is appended to the journal, made
//! durable every second. A run that is killed, rebooted or interrupted is
//! resumed by running the same command again: batches already in the
//! journal are not fought again, and since every figure is an integer sum
//! the report is byte-identical to an uninterrupted run's. A shard of a run
//! (`--shard K/N`) is a journal too, and `merge` adds shards up.
//!
//! - `record`: one line (a batch, a folded group, ...), written and read
//!   with a checksum, so a torn line is recognised;
//! - `header`: what a journal is the work of ([`Header`], [`Shard`]);
//! - `ledger`: the batches so far, folded with polars into a table bounded
//!   by the number of cells ([`Ledger`]); its `results` is the aggregation
//!   the report is computed from;
//! - `file`: the file itself: open or resume, append, compact, lock;
//! - `audit`: a finished journal's counts checked against its header;
//! - `parquet`: the batch records for analysts (`--export-batches`).

mod audit;
mod file;
mod header;
mod ledger;
pub mod parquet;
mod record;

pub use audit::audit;
pub use file::{fights_done, read, Journal, JournalError, Lock, Opened, SYNC_EVERY};
pub use header::{fingerprint, program, Header, Shard};
pub use ledger::{Grouping, Ledger, LedgerError, Ranges, FIXED_GROUPS, MAX_GROUPS};
pub use record::{Line, Record};
