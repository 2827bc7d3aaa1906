//! `skirmish diff OLD NEW`: compares two reports of one scenario (two
//! folders, or a folder against its version at a git revision) cell by cell
//! and renders the comparison: `diff.md` (table), `diff.csv`, and `diff.png`
//! (see [`super::charts::diff`]).
//!
//! A report is read back from its `cells.csv` (axis values, fights, wins per
//! side), the `# name` line of its `summary.md` and the bullets of its
//! "Scenario" section. Cells are matched by their axis values (not their
//! numbers, which shift when a value is added to an axis): the cells both
//! reports have are compared, those only one has are listed, and the
//! Scenario sections are compared line by line (what changed in the
//! scenario, as far as a report records it). Reports whose axes differ
//! share no cell and are refused, as are reports of different names or
//! sides. Two runs are separate
//! samples, so a cell's change in each side's win rate gets Newcombe's
//! interval for independent proportions ([`crate::analysis::newcombe`]); a
//! cell *moved* when that interval excludes zero. (Runs with the same seed
//! share random numbers, which makes this conservative.)

use std::fs;
use std::path::PathBuf;
use std::process::Command;

use super::charts;
use super::documents::diff_md;
use super::error::ReportError;
use super::names::{CELLS_CSV, SUMMARY_MD};
use super::tables::diff_csv;
use crate::analysis::{newcombe, proportion};

pub use super::documents::diff_md::table;
pub use super::model::{AxisValues, Change, Diff, LoneCell, ScenarioChanges};
pub use super::names::{DIFF_CSV, DIFF_MD, DIFF_PNG};
pub use super::ReportFile;

/// Where a report is read from.
#[derive(Clone, Debug)]
pub enum Source {
    /// A report folder on disk.
    Folder(PathBuf),
    /// A report folder as it was at a git revision (`git show REV:./file`,
    /// run in the folder).
    Git { folder: PathBuf, rev: String },
}

impl Source {
    /// The report folder `folder` as it was at git revision `rev`. A
    /// revision git could read as an option (`-…`, such as `--output=FILE`,
    /// which would make `git show` write a file) or an empty one (which
    /// `git show :./file` reads as the index) is refused.
    pub fn git(folder: PathBuf, rev: &str) -> Result<Source, DiffError> {
        let why = if rev.trim().is_empty() {
            "it is empty (`git show` would read the index instead)"
        } else if rev.starts_with('-') {
            "it starts with `-` (git would read it as an option)"
        } else {
            return Ok(Source::Git {
                folder,
                rev: rev.to_owned(),
            });
        };
        Err(DiffError::Rev {
            rev: rev.to_owned(),
            why,
        })
    }
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Folder(p) => write!(f, "{}", p.display()),
            Source::Git { folder, rev } => write!(f, "{} at {rev}", folder.display()),
        }
    }
}

/// Why two reports cannot be compared: bad input, exit 2.
#[derive(Debug, thiserror::Error)]
pub enum DiffError {
    #[error("{file}: cannot read it")]
    Read {
        file: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{file}: git show {rev}:./{name} failed: {message}")]
    Git {
        file: String,
        rev: String,
        name: String,
        message: String,
    },
    #[error("{file} line {line}: `{key}`: expected {expected}, found {found}")]
    Malformed {
        file: String,
        line: usize,
        key: String,
        expected: String,
        found: String,
    },
    #[error(
        "the reports are not of one scenario: {what} differ (old {old}, new {new}); \
         diff compares two runs of the same scenario and matrix"
    )]
    Mismatch {
        what: &'static str,
        old: String,
        new: String,
    },
    /// No cell of one report has the axis values of a cell of the other.
    #[error(
        "the reports share no cell: no cell of one has the axis values of a cell of the \
         other, so there is nothing to compare{why}\n{cells}"
    )]
    NoSharedCell {
        /// Why, when the axes themselves differ.
        why: String,
        /// Both reports' cells, one a line.
        cells: String,
    },
    #[error(
        "--rev `{rev}`: not a revision to compare with: {why}; give a commit, branch or tag \
         such as HEAD~1"
    )]
    Rev { rev: String, why: &'static str },
}

/// One report read back.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadReport {
    pub name: String,
    pub axes: Vec<String>,
    pub sides: Vec<String>,
    pub rows: Vec<ReadRow>,
    /// The bullets of summary.md's "Scenario" section (see
    /// [`scenario_lines`]).
    pub scenario: Vec<String>,
}

/// One cell of a read report.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadRow {
    pub values: Vec<String>,
    pub fights: u64,
    /// Wins per side.
    pub wins: Vec<u64>,
}

/// Reads one file of a report.
fn read_file(source: &Source, name: &str) -> Result<String, DiffError> {
    match source {
        Source::Folder(dir) => {
            let path = dir.join(name);
            fs::read_to_string(&path).map_err(|source| DiffError::Read {
                file: path.display().to_string(),
                source,
            })
        }
        Source::Git { folder, rev } => {
            let file = format!("{}", folder.join(name).display());
            let git_error = |message: String| DiffError::Git {
                file: file.clone(),
                rev: rev.clone(),
                name: name.to_owned(),
                message,
            };
            // `--end-of-options`: whatever the revision, git reads it as one
            // (Source::git also refuses revisions starting with `-`).
            let out = Command::new("git")
                .arg("-C")
                .arg(folder)
                .arg("show")
                .arg("--end-of-options")
                .arg(format!("{rev}:./{name}"))
                .output()
                .map_err(|e| git_error(format!("cannot run git: {e}")))?;
            if !out.status.success() {
                return Err(git_error(
                    String::from_utf8_lossy(&out.stderr).trim().to_owned(),
                ));
            }
            String::from_utf8(out.stdout).map_err(|_| git_error("not UTF-8 text".to_owned()))
        }
    }
}

/// Splits one CSV line as the report writer quotes it (`"` around fields
/// holding `,` or `"`, doubled `""` inside).
fn split_csv(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(std::mem::take(&mut field)),
            _ => field.push(c),
        }
    }
    fields.push(field);
    fields
}

/// The bullets of the "## Scenario" section of a report's `summary.md`,
/// each with its parents (` › ` between), in order: what a report records of
/// its scenario. The matrix and baseline bullets, and the per-cell values of
/// an option that is an axis, are left out: they are the axis values, which
/// [`diff`] compares from `cells.csv`.
pub fn scenario_lines(summary: &str) -> Vec<String> {
    let mut out = Vec::new();
    // The bullet at each depth above the current line.
    let mut parents: Vec<String> = Vec::new();
    // Lines deeper than this are skipped (a skipped bullet's children).
    let mut skip_below: Option<usize> = None;
    let section = summary
        .lines()
        .skip_while(|l| l.trim_end() != "## Scenario")
        .skip(1)
        .take_while(|l| !l.starts_with("## "));
    for line in section {
        let text = line.trim_start();
        let Some(bullet) = text.strip_prefix("- ") else {
            continue;
        };
        let depth = (line.len() - text.len()) / 2;
        if let Some(d) = skip_below {
            if depth > d {
                continue;
            }
            skip_below = None;
        }
        parents.truncate(depth);
        let is_axis_listing = (depth == 0
            && (bullet.starts_with("**Matrix:**") || bullet.starts_with("**Baseline:**")))
            || bullet.contains("; by cell, with `");
        if depth == 0 && is_axis_listing {
            skip_below = Some(depth);
            continue;
        }
        if is_axis_listing {
            // The option's base value stays; its per-cell values go.
            skip_below = Some(depth);
        }
        parents.push(bullet.trim().to_owned());
        out.push(parents.join(" › "));
    }
    out
}

/// Reads a report's name, axes, sides and per-cell counts.
pub fn read(source: &Source) -> Result<ReadReport, DiffError> {
    let summary = read_file(source, SUMMARY_MD)?;
    let csv = read_file(source, CELLS_CSV)?;
    let file = |name: &str| match source {
        Source::Folder(d) => d.join(name).display().to_string(),
        Source::Git { folder, rev } => format!("{} at {rev}", folder.join(name).display()),
    };
    let malformed =
        |name: &str, line: usize, key: &str, expected: &str, found: &str| DiffError::Malformed {
            file: file(name),
            line,
            key: key.to_owned(),
            expected: expected.to_owned(),
            found: found.to_owned(),
        };
    let first = summary.lines().next().unwrap_or("");
    let name = first
        .strip_prefix("# ")
        .ok_or_else(|| malformed(SUMMARY_MD, 1, "title", "`# <scenario name>`", first))?
        .trim()
        .to_owned();
    let mut lines = csv.lines();
    let header = split_csv(lines.next().unwrap_or(""));
    let fights_at = header.iter().position(|h| h == "fights");
    let Some(fights_at) = fights_at.filter(|_| header.first().map(String::as_str) == Some("cell"))
    else {
        return Err(malformed(
            CELLS_CSV,
            1,
            "header",
            "`cell`, the axes, then `fights`",
            &header.join(","),
        ));
    };
    let axes = header[1..fights_at].to_vec();
    let side_columns: Vec<(String, usize)> = header
        .iter()
        .enumerate()
        .filter_map(|(i, h)| Some((h.strip_prefix("wins_")?.to_owned(), i)))
        .collect();
    let draws_at = header.iter().position(|h| h == "draws");
    let mut rows = Vec::new();
    for (n, line) in lines.enumerate() {
        let fields = split_csv(line);
        let number = |i: usize, key: &str| {
            let found = fields.get(i).map_or("nothing", String::as_str);
            found
                .parse::<u64>()
                .map_err(|_| malformed(CELLS_CSV, n + 2, key, "a whole number", found))
        };
        if fields.len() != header.len() {
            return Err(malformed(
                CELLS_CSV,
                n + 2,
                "row",
                &format!("{} fields", header.len()),
                &format!("{}", fields.len()),
            ));
        }
        let row = ReadRow {
            values: fields[1..fights_at].to_vec(),
            fights: number(fights_at, "fights")?,
            wins: side_columns
                .iter()
                .map(|(side, i)| number(*i, &format!("wins_{side}")))
                .collect::<Result<_, _>>()?,
        };
        // Counts that cannot come from a run: a hand-edited or damaged file,
        // whose rates (wins / fights) would be meaningless or above 1.
        if row.fights == 0 {
            return Err(malformed(
                CELLS_CSV,
                n + 2,
                "fights",
                "at least 1 fight per cell",
                "0",
            ));
        }
        let draws = match draws_at {
            Some(i) => number(i, "draws")?,
            None => 0,
        };
        let decided: u64 = row.wins.iter().sum::<u64>().saturating_add(draws);
        if decided > row.fights {
            return Err(malformed(
                CELLS_CSV,
                n + 2,
                "wins",
                &format!(
                    "wins of all sides{} at most `fights` ({})",
                    if draws_at.is_some() {
                        " plus draws"
                    } else {
                        ""
                    },
                    row.fights
                ),
                &decided.to_string(),
            ));
        }
        rows.push(row);
    }
    Ok(ReadReport {
        name,
        axes,
        sides: side_columns.into_iter().map(|(s, _)| s).collect(),
        rows,
        scenario: scenario_lines(&summary),
    })
}

/// Most cells a refusal lists per report.
const LISTED_CELLS: usize = 20;

/// A report's cells, one a line, for a refusal: `  3: options.crit = none,
/// units.brawler.hp = 12` (at most [`LISTED_CELLS`]).
fn cell_lines(which: &str, r: &ReadReport) -> String {
    let mut text = format!("{which} report's cells ({}):", r.rows.len());
    for (i, row) in r.rows.iter().enumerate().take(LISTED_CELLS) {
        text.push_str(&format!("\n  {i}: {}", axis_values(&r.axes, &row.values)));
    }
    if r.rows.len() > LISTED_CELLS {
        text.push_str(&format!("\n  … and {} more", r.rows.len() - LISTED_CELLS));
    }
    text
}

/// `options.crit = none, units.brawler.hp = 12`; `base scenario` without axes.
fn axis_values(axes: &[String], values: &[String]) -> String {
    if axes.is_empty() {
        return "base scenario".to_owned();
    }
    axes.iter()
        .zip(values)
        .map(|(a, v)| format!("{a} = {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Each distinct value of axis `a` over `rows`, in order of appearance.
fn distinct_values(rows: &[ReadRow], a: usize) -> Vec<String> {
    let mut values: Vec<String> = Vec::new();
    for row in rows {
        if !values.contains(&row.values[a]) {
            values.push(row.values[a].clone());
        }
    }
    values
}

/// Items of `a` not in `b`, in `a`'s order.
fn missing_from(a: &[String], b: &[String]) -> Vec<String> {
    a.iter().filter(|x| !b.contains(x)).cloned().collect()
}

/// A cell only one report has.
fn lone(cell: usize, row: &ReadRow) -> LoneCell {
    LoneCell {
        cell,
        values: row.values.clone(),
        fights: row.fights,
        wins: row
            .wins
            .iter()
            .map(|&w| proportion(w, row.fights))
            .collect(),
    }
}

/// Compares two reports of one scenario.
pub fn diff(old: &ReadReport, new: &ReadReport) -> Result<Diff, DiffError> {
    let mismatch = |what, o: String, n: String| DiffError::Mismatch {
        what,
        old: o,
        new: n,
    };
    if old.name != new.name {
        return Err(mismatch(
            "scenario names",
            format!("`{}`", old.name),
            format!("`{}`", new.name),
        ));
    }
    if old.sides != new.sides {
        return Err(mismatch(
            "sides",
            old.sides.join(", "),
            new.sides.join(", "),
        ));
    }
    // Where each of the new report's axes is in the old one's columns.
    let old_column: Vec<Option<usize>> = new
        .axes
        .iter()
        .map(|a| old.axes.iter().position(|o| o == a))
        .collect();
    let axes_added = missing_from(&new.axes, &old.axes);
    let axes_removed = missing_from(&old.axes, &new.axes);
    let cells_listed = || format!("{}\n{}", cell_lines("old", old), cell_lines("new", new));
    if !axes_added.is_empty() || !axes_removed.is_empty() {
        let list = |axes: &[String]| {
            if axes.is_empty() {
                "none".to_owned()
            } else {
                axes.iter()
                    .map(|a| format!("`{a}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        return Err(DiffError::NoSharedCell {
            why: format!(
                ": the matrix axes differ (axes only in the new report: {}; only in the old \
                 one: {}), and a report does not record which value the other's cells had \
                 on an axis it lacks",
                list(&axes_added),
                list(&axes_removed)
            ),
            cells: cells_listed(),
        });
    }
    // A cell's key: its values in the new report's axis order.
    let old_key = |row: &ReadRow| -> Vec<String> {
        old_column
            .iter()
            .map(|c| row.values[c.expect("same axes")].clone())
            .collect()
    };
    let mut old_by_key: std::collections::HashMap<Vec<String>, usize> =
        std::collections::HashMap::with_capacity(old.rows.len());
    for (i, row) in old.rows.iter().enumerate() {
        old_by_key.entry(old_key(row)).or_insert(i);
    }
    let mut matched_old = vec![false; old.rows.len()];
    let mut changes = Vec::new();
    let mut only_new = Vec::new();
    for (cell, n) in new.rows.iter().enumerate() {
        let Some(&old_cell) = old_by_key.get(&n.values) else {
            only_new.push(lone(cell, n));
            continue;
        };
        matched_old[old_cell] = true;
        let o = &old.rows[old_cell];
        for (side, name) in old.sides.iter().enumerate() {
            let (po, pn) = (
                proportion(o.wins[side], o.fights),
                proportion(n.wins[side], n.fights),
            );
            let difference = newcombe(&pn, &po);
            changes.push(Change {
                cell,
                old_cell,
                values: n.values.clone(),
                side: name.clone(),
                old: po.estimate,
                new: pn.estimate,
                old_ci: po.ci,
                new_ci: pn.ci,
                difference,
                moved: difference.ci.excludes_zero(),
            });
        }
    }
    if changes.is_empty() {
        return Err(DiffError::NoSharedCell {
            why: String::new(),
            cells: cells_listed(),
        });
    }
    let only_old = old
        .rows
        .iter()
        .enumerate()
        .filter(|(i, _)| !matched_old[*i])
        .map(|(i, row)| lone(i, row))
        .collect();
    let values = new
        .axes
        .iter()
        .enumerate()
        .map(|(a, axis)| {
            let (was, is) = (
                distinct_values(&old.rows, old_column[a].expect("same axes")),
                distinct_values(&new.rows, a),
            );
            AxisValues {
                axis: axis.clone(),
                added: missing_from(&is, &was),
                removed: missing_from(&was, &is),
            }
        })
        .filter(|v| !v.added.is_empty() || !v.removed.is_empty())
        .collect();
    Ok(Diff {
        name: new.name.clone(),
        axes: new.axes.clone(),
        old: String::new(),
        new: String::new(),
        changes,
        only_old,
        only_new,
        sides: new.sides.clone(),
        scenario: ScenarioChanges {
            values,
            removed: missing_from(&old.scenario, &new.scenario),
            added: missing_from(&new.scenario, &old.scenario),
        },
    })
}

/// Reads both reports and compares them.
pub fn compare_sources(old: &Source, new: &Source) -> Result<Diff, DiffError> {
    let mut d = diff(&read(old)?, &read(new)?)?;
    d.old = old.to_string();
    d.new = new.to_string();
    Ok(d)
}

/// Renders `diff.md`, `diff.csv` and `diff.png`.
pub fn render(diff: &Diff) -> Result<Vec<ReportFile>, ReportError> {
    Ok(vec![
        ReportFile {
            name: DIFF_CSV,
            bytes: diff_csv::render(diff)?,
        },
        ReportFile {
            name: DIFF_MD,
            bytes: diff_md::render(diff).into_bytes(),
        },
        ReportFile {
            name: DIFF_PNG,
            bytes: charts::diff::render(diff)?,
        },
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_unquote() {
        assert_eq!(split_csv("a,\"b,c\",\"d\"\"e\","), ["a", "b,c", "d\"e", ""]);
    }

    #[test]
    fn table_prints_numbers_to_their_precision() {
        // 1000 fights a cell: Wilson ±0.03 → 2 decimals; the change +0.1 with
        // Newcombe ±0.043 → 2 decimals, signed (diff.csv keeps 4).
        let d = diff(&report(&[500, 500]), &report(&[500, 600])).unwrap();
        let table = table(&d, true);
        assert!(
            table.contains("| 1 | 1 | a | 0.50 | 0.60 | +0.10 | [+0.06, +0.14] | yes |"),
            "{table}"
        );
        let csv = String::from_utf8(diff_csv::render(&d).unwrap()).unwrap();
        assert!(csv.contains("0.5000,0.6000,0.1000,"), "{csv}");
    }

    #[test]
    fn diff_png_stays_bounded_at_ten_thousand_cells() {
        // Every cell drawn while they fit at 40 px; beyond that the cells
        // that changed most, and the chart's width stops growing.
        let size = |png: &[u8]| {
            let word = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
            (word(16), word(20))
        };
        let few = diff(&report(&[500; 3]), &report(&[500, 600, 400])).unwrap();
        // Short labels fit side by side under their cells.
        assert_eq!(size(&charts::diff::render(&few).unwrap()), (760, 558));
        let old: Vec<u64> = vec![500; 10_000];
        let new: Vec<u64> = (0..10_000).map(|i| 500 + (i % 7) as u64 * 10).collect();
        let many = diff(&report(&old), &report(&new)).unwrap();
        let (w, h) = size(&charts::diff::render(&many).unwrap());
        // Labels too wide for their slots would stand vertically; they are
        // cut at 32 characters, so the height stays bounded too.
        assert!(w <= 2400 && (558..=800).contains(&h), "{w}×{h}");
    }

    #[test]
    fn diff_png_labels_cells_by_their_axis_values() {
        // Labels too long for their cell's slot stand vertically under it,
        // so the chart grows by their width: the labels are the axis values
        // (bare cell numbers would leave it the same).
        let height = |old: &ReadReport, new: &ReadReport| {
            let png = charts::diff::render(&diff(old, new).unwrap()).unwrap();
            u32::from_be_bytes(png[20..24].try_into().unwrap())
        };
        let (old, new) = (report(&[500; 20]), report(&[510; 20]));
        let long = |r: &ReadReport| {
            let mut r = r.clone();
            for row in &mut r.rows {
                row.values[0] = format!("three-quarters and prone {}", row.values[0]);
            }
            r
        };
        assert!(height(&long(&old), &long(&new)) > height(&old, &new) + 100);
    }

    fn report(wins: &[u64]) -> ReadReport {
        ReadReport {
            name: "s".into(),
            axes: vec!["x".into()],
            sides: vec!["a".into()],
            rows: wins
                .iter()
                .enumerate()
                .map(|(i, &w)| ReadRow {
                    values: vec![i.to_string()],
                    fights: 1000,
                    wins: vec![w],
                })
                .collect(),
            scenario: Vec::new(),
        }
    }

    #[test]
    fn moved_beyond_joint_uncertainty() {
        let d = diff(&report(&[500, 500]), &report(&[510, 600])).unwrap();
        assert!(!d.changes[0].moved);
        assert!(d.changes[1].moved);
        assert!((d.changes[1].difference.estimate - 0.1).abs() < 1e-12);
        let mut other = report(&[500, 500]);
        other.name = "t".into();
        let e = diff(&report(&[500, 500]), &other).unwrap_err().to_string();
        assert!(e.contains("scenario names differ"), "{e}");
    }
}
