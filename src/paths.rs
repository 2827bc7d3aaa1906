//! Paths worked out on their text alone: one place for what two spellings
//! of a path have in common, for the report folder checks (`report::folder`)
//! and the scenario path a report names (`replay::command`).

use std::path::{Component, Path, PathBuf};

/// `path` with `.` dropped and `..` taking away the name before it, on the
/// text alone, without asking the file system (a `..` above the root stays
/// at the root).
pub(crate) fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dots_are_worked_out_on_the_text() {
        assert_eq!(lexical(Path::new("a/./b/../c")), Path::new("a/c"));
        assert_eq!(lexical(Path::new("/../x")), Path::new("/x"));
    }
}
