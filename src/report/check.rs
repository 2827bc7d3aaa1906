//! `skirmish run --check`: compares a freshly rendered report with the one on
//! disk, byte for byte, and describes each difference briefly: a missing or
//! extra file, the first differing line of a text file (CSV, Markdown), or
//! just "differs" for a PNG.

use std::fmt;
use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use super::error::ReportError;
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
    /// A report-like file (`.csv`, `.png`, `.md`) on disk that the rendered
    /// report does not contain.
    Extra { name: String },
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
            Difference::Extra { name } => write!(f, "{name}: not part of the report"),
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

/// Renders `results` and compares the report with the one in `dir`.
pub fn check(results: &RunResults, dir: &Path) -> Result<Vec<Difference>, ReportError> {
    compare(&render(results)?, dir)
}

/// Compares rendered files with the report folder `dir`. An empty list means
/// the folder holds exactly this report. Fails only on I/O errors other than
/// a missing file or folder.
pub fn compare(rendered: &[ReportFile], dir: &Path) -> Result<Vec<Difference>, ReportError> {
    if !dir.is_dir() {
        return Ok(vec![Difference::NoReport {
            dir: dir.to_path_buf(),
        }]);
    }
    let mut differences = Vec::new();
    for file in rendered {
        let path = dir.join(file.name);
        let found = match fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == ErrorKind::NotFound => {
                differences.push(Difference::Missing {
                    name: file.name.to_owned(),
                });
                continue;
            }
            Err(e) => return Err(ReportError::io("read", &path)(e)),
        };
        if found != file.bytes {
            differences.push(describe(file.name, &file.bytes, &found));
        }
    }
    differences.extend(extra_files(rendered, dir)?);
    Ok(differences)
}

/// Whether `path` has the extension of a file a report can contain.
pub(crate) fn looks_like_report_file(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("csv" | "png" | "md")
    )
}

/// Report-like files in `dir` that are not rendered, sorted by name.
fn extra_files(rendered: &[ReportFile], dir: &Path) -> Result<Vec<Difference>, ReportError> {
    let mut extra = Vec::new();
    for entry in fs::read_dir(dir).map_err(ReportError::io("read folder", dir))? {
        let entry = entry.map_err(ReportError::io("read folder", dir))?;
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_file()
            && looks_like_report_file(&path)
            && !rendered.iter().any(|f| f.name == name)
        {
            extra.push(name);
        }
    }
    // read_dir order depends on the file system; sort for stable output.
    extra.sort();
    Ok(extra
        .into_iter()
        .map(|name| Difference::Extra { name })
        .collect())
}

/// How two differing versions of file `name` differ.
fn describe(name: &str, expected: &[u8], found: &[u8]) -> Difference {
    let is_text = matches!(
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
