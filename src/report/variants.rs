//! How the cells of a matrix differ on one line of the scenario's
//! description (a unit group, an option in force): which axes change the
//! line, and the line for each combination of their values. What a
//! summary lists under the base scenario's line ("in the base scenario; by
//! cell, with `options.crit`: ..."), for a run's report and an exact one.
//!
//! A leaf of the report layer: it reads the results, nothing else.

use crate::report::labels::values_label;
use crate::results::{ScenarioInfo, Setup};

/// Most variants listed under a line of the scenario that the matrix
/// changes; the rest are counted.
const MAX_VARIANTS: usize = 8;

const VARIANT_AXES_SEPARATOR: &str = " and ";

/// How the cells differ on one line of the scenario's description (a unit
/// group, an option): the axes that change it and, for each combination of
/// their values, the line in those cells.
pub(crate) struct Variants {
    /// Dotted paths of the axes the line depends on.
    axes: Vec<String>,
    /// (values of those axes, the line), in cell order of first appearance.
    variants: Vec<(String, String)>,
}

impl Variants {
    /// No cell changes the line.
    pub(crate) fn none() -> Variants {
        Variants {
            axes: Vec::new(),
            variants: Vec::new(),
        }
    }

    /// Said after the base line: nothing when no cell changes it.
    pub(crate) fn intro(&self) -> String {
        if self.variants.is_empty() {
            return String::new();
        }
        let axes: Vec<String> = self.axes.iter().map(|a| format!("`{a}`")).collect();
        format!(
            " in the base scenario; by cell, with {}:",
            axes.join(VARIANT_AXES_SEPARATOR)
        )
    }

    /// The lines listed under the base line, each `indent`ed, `show`ing
    /// the line of each variant.
    pub(crate) fn lines(&self, indent: &str, show: impl Fn(&str) -> String) -> Vec<String> {
        let mut out: Vec<String> = self
            .variants
            .iter()
            .take(MAX_VARIANTS)
            .map(|(values, line)| format!("{indent}- {values}: {}", show(line)))
            .collect();
        if self.variants.len() > MAX_VARIANTS {
            out.push(format!(
                "{indent}- … and {} more combinations",
                self.variants.len() - MAX_VARIANTS
            ));
        }
        out
    }
}

/// How the `cells` (each its number and axis values) differ in the line
/// `line_of` their setup (`info.setups[number]`) gives, if they do. An
/// axis counts when two cells that agree on every other axis differ on the
/// line.
pub(crate) fn varying<'a>(
    info: &'a ScenarioInfo,
    cells: &[(usize, &'a [String])],
    line_of: impl Fn(&'a Setup) -> Option<&'a str>,
) -> Variants {
    let setups = &info.setups;
    if cells.is_empty() || cells.iter().any(|&(i, _)| i >= setups.len()) {
        return Variants::none();
    }
    let lines: Vec<Option<&str>> = cells.iter().map(|&(i, _)| line_of(&setups[i])).collect();
    if lines.iter().all(|l| *l == lines[0]) {
        return Variants::none();
    }
    let axes = info.axes.len();
    fn others(values: &[String], axis: usize) -> Vec<&str> {
        values
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != axis)
            .map(|(_, v)| v.as_str())
            .collect()
    }
    let mut relevant: Vec<usize> = (0..axes)
        .filter(|&axis| {
            let mut seen: std::collections::HashMap<Vec<&str>, Option<&str>> =
                std::collections::HashMap::new();
            cells.iter().zip(&lines).any(|(&(_, values), &line)| {
                *seen.entry(others(values, axis)).or_insert(line) != line
            })
        })
        .collect();
    if relevant.is_empty() {
        // Only several axes together change it (never for a single value
        // substituted per axis); name them all.
        relevant = (0..axes).collect();
    }
    let mut variants: Vec<(String, String)> = Vec::new();
    let mut keys: std::collections::HashSet<Vec<&str>> = std::collections::HashSet::new();
    for (&(_, values), line) in cells.iter().zip(&lines) {
        let key: Vec<&str> = relevant
            .iter()
            .filter_map(|&a| values.get(a).map(String::as_str))
            .collect();
        if keys.insert(key.clone()) {
            let key: Vec<String> = key.into_iter().map(str::to_owned).collect();
            variants.push((values_label(&key), line.unwrap_or("(none)").to_owned()));
        }
    }
    Variants {
        axes: relevant
            .iter()
            .filter_map(|&a| info.axes.get(a).cloned())
            .collect(),
        variants,
    }
}
