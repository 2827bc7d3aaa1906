//! Scenario errors. Bad input is a designer's everyday situation, so every
//! error names the file, the line and column or the key path, what was
//! expected and what was found, and the valid choices where there are few.

use std::fmt;

/// Where in a scenario something is wrong.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Place {
    pub file: String,
    /// 1-based line and column, when known.
    pub line_col: Option<(usize, usize)>,
    /// Dotted key path, e.g. `units.rifleman.hp`.
    pub key: Option<String>,
    /// The matrix cell, e.g. `cell 3 (options.crit = none)`, for errors that
    /// only appear once axis values are put in.
    pub cell: Option<String>,
}

impl Place {
    pub fn file(file: &str) -> Place {
        Place {
            file: file.to_string(),
            ..Place::default()
        }
    }

    pub fn at(mut self, line: usize, col: usize) -> Place {
        self.line_col = Some((line, col));
        self
    }

    pub fn key(mut self, key: impl Into<String>) -> Place {
        self.key = Some(key.into());
        self
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if let Some((line, col)) = self.line_col {
            write!(f, ":{line}:{col}")?;
        }
        if let Some(cell) = &self.cell {
            write!(f, ": in {cell}")?;
        }
        if let Some(key) = &self.key {
            write!(f, ": `{key}`")?;
        }
        Ok(())
    }
}

/// Anything wrong with a scenario file.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    #[error("{path}: cannot read the scenario file")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: is a directory; expected a scenario file (.toml)")]
    IsDirectory { path: String },
    #[error("{at}: TOML syntax error: {message}")]
    Syntax { at: Place, message: String },
    #[error("{at}: {message}")]
    Invalid { at: Place, message: String },
}

impl ScenarioError {
    /// Where the error is, if it is about the file's content.
    pub fn place(&self) -> Option<&Place> {
        match self {
            ScenarioError::Syntax { at, .. } | ScenarioError::Invalid { at, .. } => Some(at),
            _ => None,
        }
    }

    /// The same error, marked as belonging to a matrix cell.
    pub fn in_cell(mut self, cell: &str) -> ScenarioError {
        if let ScenarioError::Invalid { at, .. } | ScenarioError::Syntax { at, .. } = &mut self {
            at.cell = Some(cell.to_string());
        }
        self
    }
}

/// "did you mean `x`?" for a misspelt name, by edit distance.
pub fn suggest<'a>(word: &str, choices: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).max(1);
    choices
        .into_iter()
        .map(|c| (edit_distance(word, c), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// Levenshtein distance (small strings only: names of keys and choices).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// "`a`, `b` or `c`".
pub fn list_choices<'a>(choices: impl IntoIterator<Item = &'a str>) -> String {
    let items: Vec<String> = choices.into_iter().map(|c| format!("`{c}`")).collect();
    match items.len() {
        0 => "none".to_string(),
        1 => items[0].clone(),
        n => format!("{} or {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        assert_eq!(suggest("hpp", ["hp", "dex", "weapons"]), Some("hp"));
        assert_eq!(suggest("wepons", ["hp", "dex", "weapons"]), Some("weapons"));
        assert_eq!(suggest("zzzzz", ["hp", "dex"]), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn place_reads_like_a_compiler_message() {
        let p = Place::file("a.toml").at(3, 5).key("units.x.hp");
        assert_eq!(p.to_string(), "a.toml:3:5: `units.x.hp`");
    }
}
