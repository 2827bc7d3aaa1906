//! `skirmish run --check`: compares a freshly rendered report with the one on
//! disk, byte for byte, and describes each difference briefly: a missing or
//! extra file, the first differing line of a text file (CSV, Markdown), or
//! just "differs" for a PNG.
//!
//! The manifest ([`MANIFEST`]) is compared like any report file: a folder
//! without one, or with one left by an interrupted write, differs. Every
//! other entry of the folder is accounted for: a file an earlier run wrote
//! (listed in the manifest) that this report no longer has is a difference
//! (the next run removes it); a file skirmish did not write is listed in
//! [`Checked::kept`], not a difference, because the designer's own files
//! (`notes.md`) are allowed in a report folder and survive every run; but
//! in a folder without a manifest such a file is a difference, since `run`
//! would refuse to write that folder.

use std::fmt;
use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use super::error::ReportError;
use super::folder::{self, manifest_bytes, parse_manifest, Kind, MANIFEST};
use super::labels::truncate;
use super::{render, ReportFile};
use crate::results::RunResults;

/// Longest line excerpt shown in a [`Difference`].
const EXCERPT: usize = 100;

/// One way the report on disk differs from the rendered one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Difference {
    /// The report folder does not exist.
    NoReport { dir: PathBuf },
    /// A file the report should contain is not on disk.
    Missing { name: String },
    /// A file skirmish wrote (listed in the manifest, or a report file in a
    /// folder without one) that the rendered report does not contain.
    Extra { name: String },
    /// An entry skirmish did not write in a folder without a manifest: `run`
    /// would refuse to write into the folder.
    Foreign { name: String },
    /// The first line where a text file differs (1-based); `None` means the
    /// file ended before that line.
    Line {
        name: String,
        line: usize,
        expected: Option<String>,
        found: Option<String>,
    },
    /// A binary file (PNG) differs.
    Bytes { name: String },
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let excerpt = |line: &Option<String>| match line {
            Some(text) => format!("{:?}", truncate(text, EXCERPT)),
            None => "end of file".to_owned(),
        };
        match self {
            Difference::NoReport { dir } => write!(f, "no report at {}", dir.display()),
            Difference::Missing { name } => write!(f, "{name}: missing"),
            Difference::Extra { name } => write!(
                f,
                "{name}: written by an earlier run, not part of the report (a run removes it)"
            ),
            Difference::Foreign { name } => write!(
                f,
                "{name}: not written by skirmish, in a folder without {MANIFEST}: \
                 `run` would refuse to write this folder"
            ),
            Difference::Line {
                name,
                line,
                expected,
                found,
            } => write!(
                f,
                "{name} line {line}: expected {}, found {}",
                excerpt(expected),
                excerpt(found)
            ),
            Difference::Bytes { name } => write!(f, "{name}: differs"),
        }
    }
}

/// What `--check` found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// Ways the folder differs from the rendered report; empty means it
    /// holds exactly this report.
    pub differences: Vec<Difference>,
    /// Entries skirmish did not write, in a folder it owns: allowed (they
    /// survive every run) and not compared, but named so that nothing in a
    /// report folder goes unnoticed. Sorted by name.
    pub kept: Vec<String>,
}

/// Renders `results` and compares the report with the one in `dir`.
pub fn check(results: &RunResults, dir: &Path) -> Result<Checked, ReportError> {
    compare(Kind::Run, &render(results)?, dir)
}

/// Compares rendered files of a report of `kind` (and the manifest a write
/// would add) with the folder `dir`. Fails only on I/O errors other than a
/// missing file or folder.
pub fn compare(kind: Kind, rendered: &[ReportFile], dir: &Path) -> Result<Checked, ReportError> {
    if !dir.is_dir() {
        return Ok(Checked {
            differences: vec![Difference::NoReport {
                dir: dir.to_path_buf(),
            }],
            kept: Vec::new(),
        });
    }
    let names: Vec<&str> = rendered.iter().map(|f| f.name).collect();
    let manifest = manifest_bytes(kind, &names, true);
    let expected = rendered
        .iter()
        .map(|f| (f.name, f.bytes.as_slice()))
        .chain([(MANIFEST, manifest.as_slice())]);
    let mut checked = Checked::default();
    for (name, bytes) in expected {
        let path = dir.join(name);
        let found = match fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == ErrorKind::NotFound => {
                checked.differences.push(Difference::Missing {
                    name: name.to_owned(),
                });
                continue;
            }
            Err(e) => return Err(ReportError::io("read", &path)(e)),
        };
        if found != bytes {
            checked.differences.push(describe(name, bytes, &found));
        }
    }
    // What the manifest on disk says skirmish wrote; a malformed one is
    // already a difference above.
    let wrote: Option<Vec<String>> = fs::read_to_string(dir.join(MANIFEST))
        .ok()
        .map(|text| parse_manifest(&text).map(|m| m.files).unwrap_or_default());
    for (name, is_file) in folder::entries(dir)? {
        if name == MANIFEST || names.contains(&name.as_str()) {
            continue;
        }
        match &wrote {
            Some(listed) if listed.contains(&name) => {
                checked.differences.push(Difference::Extra { name })
            }
            Some(_) => checked.kept.push(name),
            None if is_file && kind.files().contains(&name.as_str()) => {
                checked.differences.push(Difference::Extra { name })
            }
            None => checked.differences.push(Difference::Foreign { name }),
        }
    }
    Ok(checked)
}

/// How two differing versions of file `name` differ.
fn describe(name: &str, expected: &[u8], found: &[u8]) -> Difference {
    let is_text = name == MANIFEST
        || matches!(
            Path::new(name).extension().and_then(|e| e.to_str()),
            Some("csv" | "md")
        );
    let texts = (std::str::from_utf8(expected), std::str::from_utf8(found));
    match texts {
        (Ok(expected), Ok(found)) if is_text => first_differing_line(name, expected, found),
        _ => Difference::Bytes {
            name: name.to_owned(),
        },
    }
}

/// The first line (1-based) where two texts differ. Lines end at `\n` only,
/// so a `\r` the disk copy gained (e.g. from git's autocrlf) shows.
fn first_differing_line(name: &str, expected: &str, found: &str) -> Difference {
    let mut expected_lines = expected.split_inclusive('\n');
    let mut found_lines = found.split_inclusive('\n');
    let mut line = 1;
    loop {
        match (expected_lines.next(), found_lines.next()) {
            (Some(e), Some(f)) if e == f => line += 1,
            // Both ended together without a differing line: the bytes differ
            // in a way lines cannot show (unreachable for unequal texts, but
            // kept total).
            (None, None) => {
                return Difference::Bytes {
                    name: name.to_owned(),
                }
            }
            (e, f) => {
                return Difference::Line {
                    name: name.to_owned(),
                    line,
                    expected: e.map(without_newline),
                    found: f.map(without_newline),
                }
            }
        }
    }
}

fn without_newline(line: &str) -> String {
    line.strip_suffix('\n').unwrap_or(line).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_differing_line_reports_both_sides() {
        let d = first_differing_line("a.csv", "x\ny\nz\n", "x\nY\nz\n");
        assert_eq!(d.to_string(), "a.csv line 2: expected \"y\", found \"Y\"");
        let d = first_differing_line("a.md", "x\ny\n", "x\n");
        assert_eq!(
            d.to_string(),
            "a.md line 2: expected \"y\", found end of file"
        );
        let d = first_differing_line("a.md", "x\n", "x\r\n");
        assert_eq!(d.to_string(), "a.md line 1: expected \"x\", found \"x\\r\"");
    }
}
