//! Report folders: which folder skirmish may write, and writing one without
//! losing a byte of anything skirmish did not write.
//!
//! **Ownership.** A report folder is skirmish's only when skirmish wrote it.
//! Every write leaves a small manifest, [`MANIFEST`] (`.skirmish-report`),
//! naming the kind of report and the files skirmish wrote. Writing the report
//! again replaces exactly those files (and removes those the new report no
//! longer has), and only those a report of its kind can have (a name added
//! to the manifest by hand is ignored); any other file or folder in it (a
//! designer's `notes.md`, a `.gitattributes`) is never opened, moved or
//! deleted. The manifest is a
//! pure function of the kind and the file names, so a re-run with the same
//! seed stays byte-identical.
//!
//! **Adoption.** Reports written before manifests existed have none. Such a
//! folder is adopted (written, and given a manifest) only when it holds
//! nothing but regular files a report of that kind can contain (for a run:
//! `cells.csv`, `rounds.csv`, `win_rate.png`, `rounds.png`, `summary.md`):
//! then nothing in it is anyone else's. Anything else is refused, naming
//! the folder and what it holds that a report never does; so is a file
//! skirmish is about to write that exists but is not in the manifest.
//!
//! **Atomic writes.** A new folder is filled as a sibling `<name>.tmp-<pid>`
//! and renamed into place. An existing report is updated file by file: the
//! new files are staged in `.skirmish-tmp-<pid>` inside it, the manifest is
//! first rewritten with `state = writing` (so an interrupted write never
//! leaves a report that looks whole: `--check` shows the difference and the
//! next run finishes it), each staged file is renamed over its old version,
//! and the final manifest is renamed in last. A staging folder whose process
//! is no longer running (a run killed mid-write) is removed by the next
//! write, if it holds nothing but report files.
//!
//! **Preflight.** [`preflight`] finds every problem with an output location
//! before any work: a folder that is not skirmish's, a report inside another
//! report, an output overlapping one of the command's inputs (a compared
//! report, a scenario file), a location that cannot be written.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::fs;
use std::io::ErrorKind;
use std::path::{Component, Path, PathBuf};

use super::error::ReportError;
use super::model::ReportFile;
use super::names;

/// The manifest's file name inside every report folder.
pub const MANIFEST: &str = ".skirmish-report";

/// Prefix of the staging folder inside an existing report.
const STAGING: &str = ".skirmish-tmp-";

/// At most this many foreign entries are named in a refusal.
const NAMED: usize = 5;

/// The kinds of folder skirmish writes; a folder of one kind is never
/// written as another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `skirmish run`: `reports/<name>/`.
    Run,
    /// `skirmish diff`: `diffs/<name>/`.
    Diff,
    /// `skirmish balance`: `reports/<name>-balance/`.
    Balance,
    /// `skirmish sensitivity`: `reports/<name>-sensitivity/`.
    Sensitivity,
    /// `skirmish exact`: `reports/<name>-exact/`.
    Exact,
    /// `skirmish tactics`: `reports/<name>-tactics/`.
    Tactics,
}

impl Kind {
    const ALL: [Kind; 6] = [
        Kind::Run,
        Kind::Diff,
        Kind::Balance,
        Kind::Sensitivity,
        Kind::Exact,
        Kind::Tactics,
    ];

    /// The word in the manifest's `kind = ...` line.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Run => "run",
            Kind::Diff => "diff",
            Kind::Balance => "balance",
            Kind::Sensitivity => "sensitivity",
            Kind::Exact => "exact",
            Kind::Tactics => "tactics",
        }
    }

    /// The kind in words, for messages.
    fn noun(self) -> &'static str {
        match self {
            Kind::Run => "scenario report",
            Kind::Diff => "diff",
            Kind::Balance => "balance report",
            Kind::Sensitivity => "sensitivity report",
            Kind::Exact => "exact report",
            Kind::Tactics => "tactics report",
        }
    }

    /// Every file a folder of this kind can hold besides the manifest: what
    /// an old folder without a manifest may hold to be adopted, and the
    /// names [`preflight`] checks before the exact list is known. A test
    /// keeps it a superset of what each `render` returns.
    pub fn files(self) -> &'static [&'static str] {
        match self {
            Kind::Run => &[
                names::CELLS_CSV,
                names::ROUNDS_CSV,
                names::WIN_RATE_PNG,
                names::ROUNDS_PNG,
                names::SUMMARY_MD,
                names::FIGHTS_MD,
                names::PLAYS_CSV,
                names::MAP_PNG,
                names::FALLS_PNG,
            ],
            Kind::Diff => &[names::DIFF_CSV, names::DIFF_MD, names::DIFF_PNG],
            Kind::Balance => &[names::PROBES_CSV, names::BALANCE_MD, names::BALANCE_PNG],
            Kind::Sensitivity => &[
                names::SENSITIVITY_CSV,
                names::SENSITIVITY_PNG,
                names::SUMMARY_MD,
            ],
            Kind::Exact => &[
                names::CELLS_CSV,
                names::ROUNDS_CSV,
                names::ROUNDS_PNG,
                names::SUMMARY_MD,
            ],
            Kind::Tactics => &[
                names::PAYOFF_CSV,
                names::STRATEGIES_CSV,
                names::PAYOFF_PNG,
                names::SUMMARY_MD,
            ],
        }
    }
}

/// A parsed manifest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Manifest {
    pub(crate) kind: Kind,
    /// The files skirmish wrote, in the order it wrote them.
    pub(crate) files: Vec<String>,
    /// False while a write is under way (or was interrupted).
    pub(crate) complete: bool,
}

/// The manifest's bytes. Nothing in it depends on the machine or the time.
pub(crate) fn manifest_bytes(kind: Kind, files: &[&str], complete: bool) -> Vec<u8> {
    let mut text = String::from(
        "# Written by skirmish. It wrote the files listed below and replaces only\n\
         # them when it writes this report again; any other file in this folder\n\
         # is left exactly as it is.\n",
    );
    text.push_str(&format!("kind = {}\n", kind.label()));
    if !complete {
        text.push_str("state = writing\n");
    }
    for name in files {
        text.push_str(&format!("file = {name}\n"));
    }
    text.into_bytes()
}

/// Parses a manifest; the error says which line is wrong and why.
pub(crate) fn parse_manifest(text: &str) -> Result<Manifest, String> {
    let mut kind = None;
    let mut files = Vec::new();
    let mut complete = true;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: &str| format!("line {}: {why}, found `{line}`", i + 1);
        let Some((key, value)) = line.split_once('=') else {
            return Err(bad("expected `key = value`"));
        };
        let value = value.trim();
        match key.trim() {
            "kind" => {
                kind = Some(
                    Kind::ALL
                        .into_iter()
                        .find(|k| k.label() == value)
                        .ok_or_else(|| {
                            bad("expected kind run, diff, balance, sensitivity, exact or tactics")
                        })?,
                )
            }
            "state" if value == "writing" => complete = false,
            "file" if is_plain_name(value) && value != MANIFEST => files.push(value.to_owned()),
            "file" => return Err(bad("expected a plain file name")),
            _ => return Err(bad("expected `kind`, `state = writing` or `file`")),
        }
    }
    let kind = kind.ok_or_else(|| "no `kind = ...` line".to_owned())?;
    Ok(Manifest {
        kind,
        files,
        complete,
    })
}

/// A name that stays inside the folder: no separators, not `.` or `..`.
fn is_plain_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains(['/', '\\'])
        && Path::new(name).components().count() == 1
}

/// What a report folder holds, as far as writing it is concerned.
#[derive(Debug)]
pub(crate) enum State {
    /// The folder does not exist.
    Absent,
    /// A folder skirmish may write: the files it wrote there before (from
    /// the manifest, or every file of an adopted old report).
    Owned { wrote: Vec<String> },
}

/// Decides whether skirmish may write a report of `kind` with files `names`
/// into `dir` (see the module docs). Reads, never writes.
pub(crate) fn inspect(dir: &Path, kind: Kind, names: &[&str]) -> Result<State, ReportError> {
    let refuse = |reason: String| ReportError::NotAReport {
        path: dir.to_path_buf(),
        reason,
    };
    match fs::metadata(dir) {
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(State::Absent),
        Err(e) => return Err(ReportError::io("read", dir)(e)),
        Ok(m) if !m.is_dir() => return Err(refuse("it is a file, not a folder".to_owned())),
        Ok(_) => {}
    }
    let manifest_path = dir.join(MANIFEST);
    let manifest = match fs::read(&manifest_path) {
        Ok(bytes) => {
            let text = String::from_utf8(bytes)
                .map_err(|_| format!("{MANIFEST} is not UTF-8 text"))
                .and_then(|t| parse_manifest(&t))
                .map_err(|why| {
                    refuse(format!(
                        "its {MANIFEST} is not a manifest skirmish wrote ({why})"
                    ))
                })?;
            Some(text)
        }
        Err(e) if e.kind() == ErrorKind::NotFound => None,
        Err(e) => return Err(ReportError::io("read", &manifest_path)(e)),
    };
    let entries = entries(dir)?;
    match manifest {
        Some(m) => {
            if m.kind != kind {
                return Err(refuse(format!(
                    "it holds a {} (its {MANIFEST} says `kind = {}`), not a {}",
                    m.kind.noun(),
                    m.kind.label(),
                    kind.noun()
                )));
            }
            // A file skirmish is about to write that it did not write before
            // is someone else's: it is never overwritten.
            let conflicts: Vec<&str> = names
                .iter()
                .copied()
                .filter(|n| !m.files.iter().any(|f| f == n) && entries.iter().any(|(e, _)| e == n))
                .collect();
            if !conflicts.is_empty() {
                return Err(refuse(format!(
                    "it holds {}, which skirmish did not write (not listed in {MANIFEST}) \
                     and would overwrite; move {} away first",
                    join(&conflicts),
                    if conflicts.len() == 1 { "it" } else { "them" }
                )));
            }
            // Anything listed that is now a folder was put there by someone
            // else: skirmish only ever replaces or removes plain files.
            if let Some((name, _)) = entries
                .iter()
                .find(|(e, is_file)| !is_file && m.files.iter().any(|f| f == e))
            {
                return Err(refuse(format!(
                    "{name}, listed in {MANIFEST} as a file skirmish wrote, is now a folder"
                )));
            }
            // Only names a report of this kind can have are skirmish's to
            // replace or remove: a manifest listing another name (edited
            // by hand, or by anything else) does not make it so.
            let wrote = m
                .files
                .into_iter()
                .filter(|f| kind.files().contains(&f.as_str()))
                .collect();
            Ok(State::Owned { wrote })
        }
        None => {
            let foreign: Vec<&str> = entries
                .iter()
                .filter(|(name, is_file)| {
                    let ours = *is_file
                        && (kind.files().contains(&name.as_str())
                            || names.contains(&name.as_str()));
                    // A staging folder of a write killed before its manifest.
                    let staging =
                        name.starts_with(STAGING) && is_our_staging(&dir.join(name), kind);
                    !ours && !staging
                })
                .map(|(name, _)| name.as_str())
                .collect();
            if !foreign.is_empty() {
                return Err(refuse(format!(
                    "it is not a folder skirmish wrote: it has no {MANIFEST} and holds {}, \
                     which a {} never holds; choose another --out, or move {} away",
                    join(&foreign),
                    kind.noun(),
                    if foreign.len() == 1 { "it" } else { "them" }
                )));
            }
            Ok(State::Owned {
                wrote: entries
                    .into_iter()
                    .filter(|(_, is_file)| *is_file)
                    .map(|(name, _)| name)
                    .collect(),
            })
        }
    }
}

/// Up to [`NAMED`] names, then how many more.
fn join(names: &[&str]) -> String {
    let mut text = names
        .iter()
        .take(NAMED)
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > NAMED {
        text.push_str(&format!(" and {} more", names.len() - NAMED));
    }
    text
}

/// The entries of `dir` (name, is a regular file), sorted by name.
/// Symbolic links count as not regular files: skirmish never writes one.
pub(crate) fn entries(dir: &Path) -> Result<Vec<(String, bool)>, ReportError> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).map_err(ReportError::io("read folder", dir))? {
        let entry = entry.map_err(ReportError::io("read folder", dir))?;
        let is_file = entry
            .file_type()
            .map_err(ReportError::io("read folder", dir))?
            .is_file();
        out.push((entry.file_name().to_string_lossy().into_owned(), is_file));
    }
    out.sort();
    Ok(out)
}

/// Writes a report of `kind` to `out_dir` (see the module docs): creates it
/// whole when absent, otherwise replaces only the files skirmish wrote.
pub fn write_files(kind: Kind, files: &[ReportFile], out_dir: &Path) -> Result<(), ReportError> {
    let names: Vec<&str> = files.iter().map(|f| f.name).collect();
    let distinct: BTreeSet<&str> = names.iter().copied().collect();
    if distinct.len() != names.len() || names.iter().any(|n| !is_plain_name(n) || *n == MANIFEST) {
        return Err(ReportError::Inconsistent(format!(
            "report file names {names:?} are not distinct plain names"
        )));
    }
    let (parent, name) = split_dir(out_dir)?;
    let manifest = manifest_bytes(kind, &names, true);
    match inspect(out_dir, kind, &names)? {
        State::Absent => create(kind, files, &manifest, out_dir, &parent, &name),
        State::Owned { wrote } => update(kind, files, &manifest, out_dir, &wrote),
    }
}

/// Fills `<parent>/<name>.tmp-<pid>` and renames it to `out_dir`.
fn create(
    kind: Kind,
    files: &[ReportFile],
    manifest: &[u8],
    out_dir: &Path,
    parent: &Path,
    name: &str,
) -> Result<(), ReportError> {
    fs::create_dir_all(parent).map_err(ReportError::io("create folder", parent))?;
    remove_stale(parent, &format!("{name}.tmp-"), kind);
    let tmp = parent.join(format!("{name}.tmp-{}", std::process::id()));
    // A folder with our own pid can only be left by a crashed run that had
    // the same pid; it is ours to replace, if it holds only report files.
    remove_staging(&tmp, kind)?;
    fs::create_dir(&tmp).map_err(ReportError::io("create folder", &tmp))?;
    let filled = fill(&tmp, files).and_then(|()| put(&tmp.join(MANIFEST), manifest));
    crate::process::failpoint("report-staged");
    let renamed = filled.and_then(|()| {
        fs::rename(&tmp, out_dir).map_err(ReportError::io("rename into place", out_dir))
    });
    if renamed.is_err() {
        // Best effort: the error being reported matters more than a failure
        // to clean up after it.
        let _ = fs::remove_dir_all(&tmp);
    }
    renamed
}

/// Updates the report in the existing folder `out_dir`, where skirmish
/// wrote `wrote` before, touching nothing else.
fn update(
    kind: Kind,
    files: &[ReportFile],
    manifest: &[u8],
    out_dir: &Path,
    wrote: &[String],
) -> Result<(), ReportError> {
    remove_stale(out_dir, STAGING, kind);
    let staging = out_dir.join(format!("{STAGING}{}", std::process::id()));
    remove_staging(&staging, kind)?;
    fs::create_dir(&staging).map_err(ReportError::io("create folder", &staging))?;
    let result = swap(kind, files, manifest, out_dir, wrote, &staging);
    let _ = fs::remove_dir_all(&staging);
    result
}

fn swap(
    kind: Kind,
    files: &[ReportFile],
    manifest: &[u8],
    out_dir: &Path,
    wrote: &[String],
    staging: &Path,
) -> Result<(), ReportError> {
    fill(staging, files)?;
    put(&staging.join(MANIFEST), manifest)?;
    // Mark the folder as being written before the first file changes: the
    // writing manifest lists every file that may be skirmish's at any moment
    // of the swap, so an interrupted write leaves a folder the next run
    // still owns and finishes.
    let mut all: Vec<&str> = wrote.iter().map(String::as_str).collect();
    for f in files {
        if !all.contains(&f.name) {
            all.push(f.name);
        }
    }
    let writing = staging.join(format!("{MANIFEST}.writing"));
    put(&writing, &manifest_bytes(kind, &all, false))?;
    rename(&writing, &out_dir.join(MANIFEST))?;
    for (i, f) in files.iter().enumerate() {
        rename(&staging.join(f.name), &out_dir.join(f.name))?;
        if i == 0 {
            crate::process::failpoint("report-half-swapped");
        }
    }
    // Files an earlier run wrote that this report no longer has.
    for old in wrote {
        if files.iter().any(|f| f.name == old) || !kind.files().contains(&old.as_str()) {
            continue;
        }
        let path = out_dir.join(old);
        match fs::symlink_metadata(&path) {
            Ok(m) if m.is_file() => {
                fs::remove_file(&path).map_err(ReportError::io("remove", &path))?
            }
            _ => {}
        }
    }
    rename(&staging.join(MANIFEST), &out_dir.join(MANIFEST))
}

fn rename(from: &Path, to: &Path) -> Result<(), ReportError> {
    fs::rename(from, to).map_err(ReportError::io("rename into place", to))
}

/// Writes `bytes` to `path` and flushes it to disk, so a rename that
/// follows publishes a complete file.
fn put(path: &Path, bytes: &[u8]) -> Result<(), ReportError> {
    crate::files::write(path, bytes).map_err(ReportError::io("write", path))?;
    fs::File::open(path)
        .and_then(|f| f.sync_all())
        .map_err(ReportError::io("flush", path))
}

fn fill(dir: &Path, files: &[ReportFile]) -> Result<(), ReportError> {
    files
        .iter()
        .try_for_each(|f| put(&dir.join(f.name), &f.bytes))
}

/// Removes a staging folder of ours if present. Refuses (rather than
/// deletes) one holding anything a report does not: then it is not ours.
fn remove_staging(dir: &Path, kind: Kind) -> Result<(), ReportError> {
    if fs::symlink_metadata(dir).is_err() {
        return Ok(());
    }
    if !is_our_staging(dir, kind) {
        return Err(ReportError::NotAReport {
            path: dir.to_path_buf(),
            reason: "skirmish needs this name for a temporary folder, and what is there \
                     is not one of its own"
                .to_owned(),
        });
    }
    fs::remove_dir_all(dir).map_err(ReportError::io("remove stale folder", dir))
}

/// Whether `dir` is a folder holding only files a staging folder of `kind`
/// holds.
fn is_our_staging(dir: &Path, kind: Kind) -> bool {
    let is_dir = fs::symlink_metadata(dir).map(|m| m.is_dir());
    if !matches!(is_dir, Ok(true)) {
        return false;
    }
    let manifest_writing = format!("{MANIFEST}.writing");
    entries(dir).is_ok_and(|entries| {
        entries.iter().all(|(name, is_file)| {
            *is_file
                && (kind.files().contains(&name.as_str())
                    || name == MANIFEST
                    || *name == manifest_writing)
        })
    })
}

/// Removes the staging folders `<prefix><pid>` in `dir` left by runs that
/// are no longer running (killed mid-write). Best effort and cautious: a
/// folder is removed only when its process is surely gone and it holds
/// nothing but report files.
fn remove_stale(dir: &Path, prefix: &str, kind: Kind) {
    let Ok(read) = fs::read_dir(dir) else { return };
    for entry in read.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(prefix))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        let path = entry.path();
        if pid != std::process::id()
            && !crate::process::is_running(pid)
            && is_our_staging(&path, kind)
        {
            let _ = fs::remove_dir_all(&path);
        }
    }
}

/// `out_dir`'s parent folder (`.` for a bare name) and its own name.
fn split_dir(out_dir: &Path) -> Result<(PathBuf, String), ReportError> {
    let name = match out_dir.components().next_back() {
        Some(Component::Normal(n)) => n.to_str(),
        _ => None,
    }
    .ok_or_else(|| ReportError::NotAReport {
        path: out_dir.to_path_buf(),
        reason: "the output folder needs a plain UTF-8 name (not `.`, `..` or `/`)".to_owned(),
    })?;
    let parent = match out_dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok((parent, name.to_owned()))
}

/// Checks, before any work, that a report of `kind` can be written to
/// `dir`: skirmish's to write (see [`inspect`]; with every name a report of
/// this kind can hold), not inside another report, not overlapping any of
/// `inputs` (files or folders the command reads), and writable.
pub fn preflight(kind: Kind, dir: &Path, inputs: &[&Path]) -> Result<(), ReportError> {
    split_dir(dir)?;
    let target = resolve(dir);
    for input in inputs {
        let read = resolve(input);
        let relation = if read == target {
            Some("is")
        } else if read.starts_with(&target) {
            Some("holds")
        } else if target.starts_with(&read) {
            Some("is inside")
        } else {
            None
        };
        if let Some(relation) = relation {
            return Err(ReportError::Overlap {
                output: dir.to_path_buf(),
                relation,
                input: input.to_path_buf(),
            });
        }
    }
    // Name a folder above `dir` as the user spelled it when that spelling
    // names the same place, else by its resolved path.
    let shown = |depth: usize, resolved: &Path| {
        dir.ancestors()
            .nth(depth)
            .filter(|p| !p.as_os_str().is_empty() && resolve(p) == resolved)
            .unwrap_or(resolved)
            .to_path_buf()
    };
    // The nearest place that exists is where the first write happens.
    let (depth, existing) = target
        .ancestors()
        .enumerate()
        .find(|(_, p)| fs::symlink_metadata(p).is_ok())
        .unwrap_or((0, Path::new("/")));
    if !existing.is_dir() {
        return Err(ReportError::NotAReport {
            path: dir.to_path_buf(),
            reason: format!(
                "{} is a file, not a folder",
                shown(depth, existing).display()
            ),
        });
    }
    for (depth, ancestor) in target.ancestors().enumerate().skip(1) {
        if ancestor.join(MANIFEST).is_file() {
            return Err(ReportError::Nested {
                output: dir.to_path_buf(),
                report: shown(depth, ancestor),
            });
        }
    }
    inspect(dir, kind, kind.files())?;
    probe(existing)
}

/// Creates and removes a file in `dir`: the only sure test that this
/// process may write there (permissions, read-only mounts, ACLs).
pub fn probe(dir: &Path) -> Result<(), ReportError> {
    let path = dir.join(format!(".skirmish-probe-{}", std::process::id()));
    let created = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path);
    match created {
        Ok(_) => {
            let _ = fs::remove_file(&path);
            Ok(())
        }
        Err(source) => Err(ReportError::Unwritable {
            path: dir.to_path_buf(),
            source,
        }),
    }
}

/// An absolute path for `path` with symbolic links in its existing part
/// resolved, so two spellings of one place compare equal.
pub(crate) fn resolve(path: &Path) -> PathBuf {
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(path)
    };
    // `..` and `.` lexically first, so the loop below only meets names.
    let lexical = crate::paths::lexical(&absolute);
    let mut rest: Vec<OsString> = Vec::new();
    let mut base = lexical.as_path();
    loop {
        if let Ok(real) = fs::canonicalize(base) {
            let mut out = real;
            out.extend(rest.iter().rev());
            return out;
        }
        match (base.file_name(), base.parent()) {
            (Some(name), Some(parent)) => {
                rest.push(name.to_owned());
                base = parent;
            }
            _ => return lexical,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_round_trips_and_is_stable() {
        let bytes = manifest_bytes(Kind::Run, &["cells.csv", "summary.md"], true);
        assert_eq!(
            bytes,
            manifest_bytes(Kind::Run, &["cells.csv", "summary.md"], true)
        );
        let m = parse_manifest(std::str::from_utf8(&bytes).unwrap()).unwrap();
        assert_eq!(
            m,
            Manifest {
                kind: Kind::Run,
                files: vec!["cells.csv".into(), "summary.md".into()],
                complete: true,
            }
        );
        let writing = manifest_bytes(Kind::Diff, &["diff.md"], false);
        let m = parse_manifest(std::str::from_utf8(&writing).unwrap()).unwrap();
        assert!(!m.complete);
        assert_eq!(m.kind, Kind::Diff);
    }

    #[test]
    fn manifest_names_that_leave_the_folder_are_malformed() {
        for bad in [
            "file = ../x.csv",
            "file = a/b.csv",
            "file = ..",
            "file = .skirmish-report",
        ] {
            let text = format!("kind = run\n{bad}\n");
            let e = parse_manifest(&text).unwrap_err();
            assert!(e.contains("line 2") && e.contains("plain file name"), "{e}");
        }
        assert!(parse_manifest("file = a.csv\n")
            .unwrap_err()
            .contains("kind"));
        assert!(parse_manifest("kind = chart\n")
            .unwrap_err()
            .contains("run, diff, balance, sensitivity, exact or tactics"));
    }

    #[test]
    fn resolve_makes_spellings_of_one_place_equal() {
        let tmp = tempfile::tempdir().unwrap();
        let a = tmp.path().join("a");
        fs::create_dir(&a).unwrap();
        assert_eq!(resolve(&a.join("../a/./new/x")), resolve(&a).join("new/x"));
        assert_eq!(resolve(&a.join("new/../b")), resolve(&a).join("b"));
    }
}
