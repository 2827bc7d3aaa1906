//! The journal file: started, resumed, appended to, compacted and removed,
//! with a lock so that two runs never write one journal (or one report).
//!
//! Lines are appended through a buffer and made durable (`fsync`) at most
//! every [`SYNC_EVERY`], so a kill loses at most that much work and the
//! journal costs next to nothing. When the ledger folds, the journal is
//! rewritten from it (header, folded lines) into a temporary file that is
//! renamed over the old one: at every moment the journal on disk is whole,
//! or whole but for a torn last line, which reading drops.
//!
//! Reading never trusts the file: it is read line by line (never whole),
//! its first line must be the journal's magic within a few bytes (so
//! `merge /dev/zero` or a video is refused at once), no line may be longer
//! than [`MAX_LINE`], and the header's counts are bounded before use (see
//! [`Header::decode`]). Every file is opened without following symbolic
//! links ([`crate::files`]).

use std::fs::{self, File, OpenOptions};
use std::io::{BufRead, BufReader, BufWriter, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::journal::header::{older_format, Header, FORMAT, MAGIC};
use crate::journal::ledger::{Grouping, Ledger, LedgerError};
use crate::journal::record::Line;
use crate::run::Budget;

/// Longest time appended lines may wait before they are made durable.
pub const SYNC_EVERY: Duration = Duration::from_secs(1);

/// Longest line a journal may hold, newline included: far more than any
/// line skirmish writes (a batch line with every fight length, a scenario's
/// text line), far less than memory.
pub const MAX_LINE: usize = 1 << 20;

/// The journal's first line: its magic, a space, a checksum and a newline.
const FIRST_LINE: usize = MAGIC.len() + 11;

/// Why a journal could not be used.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    // The source (the system's reason) is printed after this by the error
    // chain, so it is not repeated here.
    #[error("{path}: {what}")]
    Io {
        path: PathBuf,
        what: &'static str,
        source: std::io::Error,
    },
    #[error(
        "{path} is not a skirmish journal (it does not start with `{MAGIC}`); skirmish \
         needs this name and does not touch files it did not write: move it away"
    )]
    NotOurs { path: PathBuf },
    #[error(
        "{path} is the journal of another version of skirmish (it starts with `{found}`, \
         this one reads `{MAGIC}`, whose batch records also count the draws at the round \
         cap), so it cannot be resumed or merged: run it again, with --fresh to discard it"
    )]
    OtherFormat { path: PathBuf, found: String },
    #[error(
        "{path} is the journal of a different run ({}); run the same command as before to \
         resume it, or add --fresh to discard it and start over",
        differences.join("; ")
    )]
    OtherWork {
        path: PathBuf,
        differences: Vec<String>,
    },
    #[error("{path}, line {line}: {message}; the journal is damaged (--fresh starts over)")]
    Damaged {
        path: PathBuf,
        line: usize,
        message: String,
    },
    #[error(
        "{path} is being written by another skirmish{}; wait for it to finish or stop it",
        pid.map(|p| format!(" (process {p})")).unwrap_or_default()
    )]
    Locked { path: PathBuf, pid: Option<u32> },
    #[error("{path}")]
    Ledger { path: PathBuf, source: LedgerError },
    #[error(
        "{path} is a symbolic link: skirmish never writes through one (it could change a \
         file elsewhere); remove the link"
    )]
    Link { path: PathBuf },
}

impl JournalError {
    fn io(what: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> JournalError {
        let path = path.to_path_buf();
        move |source| {
            if crate::files::is_link(&source) {
                JournalError::Link { path }
            } else {
                JournalError::Io { path, what, source }
            }
        }
    }

    /// Whether the error is the user's to fix (exit 2) rather than the
    /// machine's (exit 1).
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, JournalError::Io { .. })
    }
}

/// How a journal was found when opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opened {
    /// There was none: a new one was started.
    Started,
    /// An unfinished one of the same work: `fights` fights were done.
    Resumed { fights: u64 },
    /// A finished one of the same work (`fights` fights).
    Complete { fights: u64 },
}

/// An open journal; see the module docs.
pub struct Journal {
    path: PathBuf,
    header: Header,
    out: BufWriter<File>,
    synced: Instant,
    lock: Lock,
}

/// The ledger that goes with a header's work, empty.
fn ledger_for(header: &Header) -> Ledger {
    let batch = u64::from(header.batch.max(1));
    // Every batch a cell of this work can have: its share of a fixed
    // number of fights lies within them, and a precision target's cap.
    let batches = match header.amount {
        Budget::Fights(fights) => fights.div_ceil(batch),
        Budget::Precision { max_fights, .. } => max_fights.div_ceil(batch).max(1),
    };
    Ledger::new(
        header.cells as usize,
        header.sides as usize,
        header.counters as usize,
        Grouping::of(&header.amount, header.batch),
    )
    .bounded(batches)
}

/// Reads a whole journal: its header and its ledger. A torn last line (a
/// kill in the middle of a write) is dropped; any other bad line is an
/// error naming it.
pub fn read(path: &Path) -> Result<(Header, Ledger), JournalError> {
    let file = File::open(path).map_err(JournalError::io("cannot read", path))?;
    parse(path, file)
}

/// Whether the file at `path` starts as a journal of any version does
/// (reads only its first bytes): a journal of another version is
/// skirmish's too, so `--fresh` may discard it and reading it says what it
/// is ([`older_format`]); `None` when there is no file.
fn starts_as_journal(path: &Path) -> Result<Option<bool>, JournalError> {
    let mut file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(JournalError::io("cannot read", path)(e)),
    };
    let mut head = Vec::with_capacity(FORMAT.len());
    (&mut file)
        .take(FORMAT.len() as u64)
        .read_to_end(&mut head)
        .map_err(JournalError::io("cannot read", path))?;
    Ok(Some(head == FORMAT.as_bytes()))
}

/// A journal's lines, one at a time, numbered from 1.
struct Lines<R> {
    path: PathBuf,
    input: BufReader<R>,
    /// Lines read so far.
    number: usize,
}

impl<R: Read> Lines<R> {
    /// The next whole line without its newline; `None` at the end, or at a
    /// torn last line (no newline: a write cut short), which is dropped.
    fn next_line(&mut self) -> Result<Option<String>, JournalError> {
        let limit = if self.number == 0 {
            FIRST_LINE
        } else {
            MAX_LINE
        };
        let mut bytes = Vec::new();
        (&mut self.input)
            .take(limit as u64)
            .read_until(b'\n', &mut bytes)
            .map_err(JournalError::io("cannot read", &self.path))?;
        self.number += 1;
        let whole = bytes.pop() == Some(b'\n');
        if self.number == 1 && !(whole && bytes.starts_with(MAGIC.as_bytes())) {
            // A journal of another version says so, never misread.
            if let Some(found) = std::str::from_utf8(&bytes).ok().and_then(older_format) {
                return Err(JournalError::OtherFormat {
                    path: self.path.clone(),
                    found: found.to_owned(),
                });
            }
            // Not a journal (or an empty file): said before reading on.
            return Err(JournalError::NotOurs {
                path: self.path.clone(),
            });
        }
        if !whole {
            if bytes.len() + 1 < limit {
                return Ok(None);
            }
            return Err(self.damaged(format!("the line is longer than {MAX_LINE} bytes")));
        }
        String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| self.damaged("the line is not UTF-8 text".into()))
    }

    fn damaged(&self, message: String) -> JournalError {
        JournalError::Damaged {
            path: self.path.clone(),
            line: self.number,
            message,
        }
    }
}

fn parse<R: Read>(path: &Path, input: R) -> Result<(Header, Ledger), JournalError> {
    let mut lines = Lines {
        path: path.to_path_buf(),
        input: BufReader::new(input),
        number: 0,
    };
    // The header reads lines through an iterator; a line that cannot be
    // read ends it, and that error is the one to tell.
    let mut failed = None;
    let decoded = Header::decode(&mut std::iter::from_fn(|| match lines.next_line() {
        Ok(line) => line,
        Err(e) => {
            failed = Some(e);
            None
        }
    }));
    if let Some(e) = failed {
        return Err(e);
    }
    let header = match decoded {
        Ok(header) => header,
        Err((line, e)) => {
            return Err(JournalError::Damaged {
                path: path.to_path_buf(),
                line,
                message: e.0,
            })
        }
    };
    let mut ledger = ledger_for(&header);
    let (sides, counters) = (header.sides as usize, header.counters as usize);
    while let Some(text) = lines.next_line()? {
        let line = Line::decode(&text, sides, counters).map_err(|e| lines.damaged(e.0))?;
        ledger
            .apply(line)
            .map_err(|e| lines.damaged(e.to_string()))?;
    }
    Ok((header, ledger))
}

/// Fights done according to a ledger (all its batches' fights).
pub fn fights_done(ledger: &mut Ledger) -> Result<u64, LedgerError> {
    Ok(ledger.results()?.iter().map(|(t, _)| t.fights).sum())
}

impl Journal {
    /// Opens the journal at `path` for `header`'s work: resumes one of the
    /// same work, starts one where there is none (or, with `fresh`, over an
    /// old journal), and refuses one of another work, or a file that is not
    /// a journal, or one another process is writing.
    pub fn open(
        path: &Path,
        header: &Header,
        fresh: bool,
    ) -> Result<(Journal, Ledger, Opened), JournalError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            fs::create_dir_all(dir).map_err(JournalError::io("cannot create the folder", dir))?;
        }
        let lock = Lock::take(path)?;
        match Self::open_locked(path, header, fresh) {
            Ok((out, ledger, opened)) => Ok((
                Journal {
                    path: path.to_path_buf(),
                    header: header.clone(),
                    out,
                    synced: Instant::now(),
                    lock,
                },
                ledger,
                opened,
            )),
            Err(e) => {
                // Refused: nothing of this attempt stays, not even the lock.
                lock.release();
                Err(e)
            }
        }
    }

    /// [`Journal::open`] once the lock is held.
    fn open_locked(
        path: &Path,
        header: &Header,
        fresh: bool,
    ) -> Result<(BufWriter<File>, Ledger, Opened), JournalError> {
        remove_stale_temporaries(path);
        if fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink()) {
            return Err(JournalError::Link {
                path: path.to_path_buf(),
            });
        }
        let (mut ledger, opened) = match starts_as_journal(path)? {
            Some(false) => {
                return Err(JournalError::NotOurs {
                    path: path.to_path_buf(),
                })
            }
            // Any journal skirmish owns is discarded, however damaged.
            Some(true) if fresh => (ledger_for(header), Opened::Started),
            Some(true) => {
                let (old, mut ledger) = read(path)?;
                let differences = old.differences(header);
                if !differences.is_empty() || old.shard != header.shard {
                    let mut differences = differences;
                    if old.shard != header.shard {
                        differences.push(format!(
                            "shard: {} in the journal, {} now",
                            old.shard, header.shard
                        ));
                    }
                    return Err(JournalError::OtherWork {
                        path: path.to_path_buf(),
                        differences,
                    });
                }
                let fights = fights_done(&mut ledger).map_err(|source| JournalError::Ledger {
                    path: path.to_path_buf(),
                    source,
                })?;
                let opened = if ledger.complete {
                    Opened::Complete { fights }
                } else {
                    Opened::Resumed { fights }
                };
                (ledger, opened)
            }
            None => (ledger_for(header), Opened::Started),
        };
        // A finished journal is left exactly as it is (a merge may be
        // reading it); any other starts from a clean file: the header and
        // what the ledger holds, no torn line at the end to append after.
        let out = if ledger.complete {
            let file = crate::files::append(path).map_err(JournalError::io("cannot open", path))?;
            BufWriter::new(file)
        } else {
            write_whole(path, header, &mut ledger)?
        };
        Ok((out, ledger, opened))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends a line; makes what was appended durable when the last sync
    /// is [`SYNC_EVERY`] old.
    pub fn append(&mut self, line: &Line) -> Result<(), JournalError> {
        self.out
            .write_all(line.encode().as_bytes())
            .map_err(JournalError::io("cannot write", &self.path))?;
        if self.synced.elapsed() >= SYNC_EVERY {
            self.sync()?;
        }
        Ok(())
    }

    /// Makes everything appended durable.
    pub fn sync(&mut self) -> Result<(), JournalError> {
        self.out
            .flush()
            .and_then(|()| self.out.get_ref().sync_data())
            .map_err(JournalError::io("cannot write", &self.path))?;
        self.synced = Instant::now();
        Ok(())
    }

    /// Rewrites the journal from the ledger (after a fold, or to mark it
    /// complete): bounded in size whatever the number of batches.
    pub fn rewrite(&mut self, ledger: &mut Ledger) -> Result<(), JournalError> {
        self.out = write_whole(&self.path, &self.header, ledger)?;
        self.synced = Instant::now();
        Ok(())
    }

    /// Removes the journal (its work is in a report now) and its lock.
    pub fn remove(self) -> Result<(), JournalError> {
        let Journal {
            path, out, lock, ..
        } = self;
        drop(out);
        fs::remove_file(&path).map_err(JournalError::io("cannot remove", &path))?;
        lock.release();
        Ok(())
    }

    /// Makes everything durable and lets go of the journal, which stays.
    pub fn close(mut self) -> Result<(), JournalError> {
        self.sync()?;
        let Journal { out, lock, .. } = self;
        drop(out);
        lock.release();
        Ok(())
    }
}

/// Writes header and ledger lines to a temporary file, makes it durable and
/// renames it over `path`; returns the file open for appending.
fn write_whole(
    path: &Path,
    header: &Header,
    ledger: &mut Ledger,
) -> Result<BufWriter<File>, JournalError> {
    let lines = ledger.lines().map_err(|source| JournalError::Ledger {
        path: path.to_path_buf(),
        source,
    })?;
    let tmp = temporary(path, std::process::id());
    let write = || -> std::io::Result<()> {
        let mut w = BufWriter::new(crate::files::create(&tmp)?);
        w.write_all(header.encode().as_bytes())?;
        for line in &lines {
            w.write_all(line.encode().as_bytes())?;
        }
        w.flush()?;
        w.get_ref().sync_all()?;
        fs::rename(&tmp, path)?;
        crate::process::failpoint("journal-written");
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            // The rename itself durable too (best effort: not every
            // platform can open a folder).
            if let Ok(d) = File::open(dir) {
                let _ = d.sync_all();
            }
        }
        Ok(())
    };
    write().map_err(|e| {
        let _ = fs::remove_file(&tmp);
        JournalError::io("cannot write", path)(e)
    })?;
    let file = crate::files::append(path).map_err(JournalError::io("cannot open", path))?;
    Ok(BufWriter::with_capacity(1 << 16, file))
}

/// `<journal>.tmp-<pid>`: where a rewrite is prepared.
fn temporary(path: &Path, pid: u32) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".tmp-{pid}"));
    PathBuf::from(name)
}

/// Removes `<journal>.tmp-<pid>` files of processes that are gone (killed
/// in the middle of a rewrite), if they are journals.
fn remove_stale_temporaries(path: &Path) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name().and_then(|n| n.to_str())) else {
        return;
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let prefix = format!("{name}.tmp-");
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(pid) = file_name
            .to_str()
            .and_then(|n| n.strip_prefix(&prefix))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        // Only the first bytes, of a regular file: never a link, a device
        // or a whole file into memory.
        let ours =
            crate::files::head(&entry.path(), FORMAT.len()).is_ok_and(|b| b == FORMAT.as_bytes());
        if pid != std::process::id() && !crate::process::is_running(pid) && ours {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// An exclusive lock on `<journal>.lock`, held while a run writes the
/// journal (and its report). The operating system releases it when the
/// process ends, however it ends, so a killed run never leaves a lock
/// that blocks the next one.
pub struct Lock {
    path: PathBuf,
    file: File,
}

/// What a lock file says.
const LOCK_TEXT: &str = "skirmish lock, process ";

impl Lock {
    /// Takes the lock of the journal at `journal` (`<journal>.lock`), which
    /// also guards the report written from it: `run` and `merge` into one
    /// folder take the same lock.
    pub fn take(journal: &Path) -> Result<Lock, JournalError> {
        let mut name = journal.as_os_str().to_owned();
        name.push(".lock");
        let path = PathBuf::from(name);
        let mut file = crate::files::open(
            &path,
            OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false),
        )
        .map_err(JournalError::io("cannot open the lock", &path))?;
        // What the lock says, read through the file opened (not the name
        // again), and only its first bytes.
        let mut held = String::new();
        let _ = (&mut file).take(64).read_to_string(&mut held);
        if !held.is_empty() && !held.starts_with(LOCK_TEXT) {
            return Err(JournalError::NotOurs { path });
        }
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                let pid = held
                    .strip_prefix(LOCK_TEXT)
                    .and_then(|p| p.trim().parse().ok());
                return Err(JournalError::Locked {
                    path: journal.to_path_buf(),
                    pid,
                });
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(JournalError::io("cannot lock", &path)(e))
            }
        }
        // From the start: reading moved the file's position.
        file.set_len(0)
            .and_then(|()| file.rewind())
            .and_then(|()| writeln!(file, "{LOCK_TEXT}{}", std::process::id()))
            .map_err(JournalError::io("cannot write the lock", &path))?;
        Ok(Lock { path, file })
    }

    /// Removes the lock file, then lets go of the lock: another run that
    /// opened the file in between finds it still locked and is refused,
    /// never holding a lock on a file that is gone.
    pub fn release(self) {
        let _ = fs::remove_file(&self.path);
        drop(self.file);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::journal::header::tests::header;
    use crate::journal::record::Record;

    fn record(cell: u32, batch: u64) -> Record {
        Record {
            cell,
            batch,
            fights: 313,
            draws: 1,
            draws_at_cap: 1,
            rounds_sum: 900,
            wins: vec![200, 112],
            survivors: vec![3, 4],
            damage: vec![5, 6],
            counters: vec![7, 8, 9],
            lengths: vec![(2, 13), (3, 300)],
        }
    }

    #[test]
    fn a_journal_resumes_with_what_was_appended_and_drops_a_torn_line() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("duel.journal");
        let h = header();
        let (mut j, mut ledger, opened) = Journal::open(&path, &h, false).expect("opens");
        assert_eq!(opened, Opened::Started);
        for b in 0..3 {
            let r = record(1, b);
            ledger.add(&r).expect("adds");
            j.append(&Line::Batch(r)).expect("appends");
        }
        j.close().expect("closes");
        assert!(!dir.path().join("duel.journal.lock").exists());
        // A write cut short by a kill.
        let mut text = fs::read_to_string(&path).expect("reads");
        let torn = Line::Batch(record(1, 3)).encode();
        text.push_str(&torn[..torn.len() / 2]);
        fs::write(&path, &text).expect("writes");
        let (_j, mut back, opened) = Journal::open(&path, &h, false).expect("reopens");
        assert_eq!(opened, Opened::Resumed { fights: 3 * 313 });
        assert_eq!(back.results().expect("r"), ledger.results().expect("r"));
        assert_eq!(back.done(1).iter().collect::<Vec<_>>(), vec![(0, 3)]);
        // The torn line is gone from the file.
        assert!(fs::read_to_string(&path).expect("reads").ends_with('\n'));
    }

    #[test]
    fn another_work_a_foreign_file_and_a_second_writer_are_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("duel.journal");
        let (j, _, _) = Journal::open(&path, &header(), false).expect("opens");
        // A second writer while the first holds the lock.
        let err = Journal::open(&path, &header(), false)
            .err()
            .expect("locked");
        assert!(
            matches!(err, JournalError::Locked { pid: Some(p), .. } if p == std::process::id())
        );
        j.close().expect("closes");
        let other = Header {
            seed: 99,
            ..header()
        };
        let err = Journal::open(&path, &other, false).err().expect("refused");
        let text = err.to_string();
        assert!(text.contains("seed: 7 in the journal, 99 now"), "{text}");
        assert!(text.contains("--fresh"), "{text}");
        // --fresh starts over.
        let (j, _, opened) = Journal::open(&path, &other, true).expect("fresh");
        assert_eq!(opened, Opened::Started);
        j.close().expect("closes");
        // A file skirmish did not write is never touched.
        fs::write(&path, "my notes\n").expect("writes");
        for fresh in [false, true] {
            let err = Journal::open(&path, &header(), fresh)
                .err()
                .expect("not ours");
            assert!(matches!(err, JournalError::NotOurs { .. }), "{err}");
        }
        assert_eq!(fs::read_to_string(&path).expect("reads"), "my notes\n");
    }

    #[test]
    fn a_rewrite_keeps_everything_and_stale_temporaries_of_dead_runs_go() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("duel.journal");
        // A temporary of a process that cannot exist (pid above the
        // kernel's maximum), and one that is not a journal.
        let stale = temporary(&path, 4_194_999);
        fs::write(&stale, header().encode()).expect("writes");
        let foreign = temporary(&path, 4_194_998);
        fs::write(&foreign, "mine").expect("writes");
        let (mut j, mut ledger, _) = Journal::open(&path, &header(), false).expect("opens");
        assert!(!stale.exists());
        assert!(foreign.exists());
        for b in 0..5 {
            let r = record(2, b);
            ledger.add(&r).expect("adds");
            j.append(&Line::Batch(r)).expect("appends");
        }
        j.rewrite(&mut ledger).expect("rewrites");
        ledger.complete = true;
        j.rewrite(&mut ledger).expect("rewrites");
        j.close().expect("closes");
        let (_, mut back) = read(&path).expect("reads");
        assert!(back.complete);
        assert_eq!(back.results().expect("r"), ledger.results().expect("r"));
    }
}
