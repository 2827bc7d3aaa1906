//! The `skirmish replay` command a report prints under a fight it shows,
//! and the scenario path in it.
//!
//! A report is checked in, so the command must be the same bytes whatever
//! spelling of the scenario file the run was given (`scenarios/x.toml`,
//! `./scenarios/x.toml`, an absolute path) and whatever folder the run was
//! started from, and say nothing of the machine that ran it. The path is
//! anchored on the report, not on the current folder: it is the file's
//! path relative to the folder that holds the reports folder (`--out`'s
//! parent: the repository root for the default `reports/`), lexically
//! normalised (`.` and `..` worked out without asking the file system),
//! when the file is inside that folder; otherwise, the file name alone. So
//! the command is run from the folder that holds `reports/`. A symbolic
//! link is not followed: an absolute path through a link counts as
//! outside. `merge` names the file as the shard's run was given it (the
//! journal keeps that spelling), worked out in the folder `merge` runs in.

use std::path::Path;

use crate::paths::lexical;

use crate::results::{ScenarioInfo, Streams};

/// The scenario file at `path` (as given, relative to the current folder)
/// as the report in `report_dir` (`OUT/<name>`) names it: relative to
/// `OUT`'s parent (see the module doc).
pub fn shown_path(path: &Path, report_dir: &Path) -> String {
    let cwd = std::env::current_dir().ok();
    let anchor = cwd.as_deref().map(|cwd| {
        let out = lexical(&cwd.join(report_dir));
        // `OUT/<name>` → `OUT` → its parent (the root stays the root).
        let mut base = out;
        base.pop();
        base.pop();
        (lexical(&cwd.join(path)), base)
    });
    match anchor {
        Some((full, base)) => shown_path_from(&full, Some(&base)),
        None => shown_path_from(path, None),
    }
}

/// [`shown_path`] with `cwd` as the current folder (`None`: unknown, so
/// the file name alone).
pub fn shown_path_from(path: &Path, cwd: Option<&Path>) -> String {
    let name = || {
        path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    };
    let Some(cwd) = cwd else {
        return name();
    };
    let full = lexical(&cwd.join(path));
    match full.strip_prefix(lexical(cwd)) {
        Ok(inside) if inside.components().next().is_some() => inside
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/"),
        _ => name(),
    }
}

/// `text` as one shell word: as it is when it needs no quoting, else in
/// single quotes.
fn shell_word(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./+:@%,=".contains(c));
    if plain {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// The command that prints fight `fight` of cell `cell` of the run that
/// `info` describes, from the scenario file shown as `path`.
pub fn replay_command(path: &str, info: &ScenarioInfo, cell: usize, fight: u64) -> String {
    let streams = match info.streams {
        Streams::Common => "",
        Streams::Independent => " --independent-streams",
    };
    format!(
        "skirmish replay {} --fights {} --seed {}{streams} --cell {cell} --fight {fight}",
        shell_word(path),
        info.fights,
        info.seed
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_inside_the_folder_are_relative_and_normalised() {
        let cwd = Path::new("/home/designer/project");
        for spelling in [
            "scenarios/x.toml",
            "./scenarios/x.toml",
            "scenarios/./x.toml",
            "other/../scenarios/x.toml",
            "/home/designer/project/scenarios/x.toml",
            "/home/designer/project/./scenarios/../scenarios/x.toml",
        ] {
            assert_eq!(
                shown_path_from(Path::new(spelling), Some(cwd)),
                "scenarios/x.toml",
                "{spelling}"
            );
        }
    }

    #[test]
    fn paths_outside_the_folder_are_the_file_name() {
        let cwd = Path::new("/home/designer/project");
        for spelling in ["../x.toml", "/tmp/x.toml", "/home/designer/x.toml"] {
            assert_eq!(shown_path_from(Path::new(spelling), Some(cwd)), "x.toml");
        }
        assert_eq!(shown_path_from(Path::new("/a/x.toml"), None), "x.toml");
    }

    #[test]
    fn odd_paths_are_quoted_for_the_shell() {
        assert_eq!(shell_word("scenarios/x.toml"), "scenarios/x.toml");
        assert_eq!(shell_word("my scenarios/x.toml"), "'my scenarios/x.toml'");
        assert_eq!(shell_word("it's.toml"), r"'it'\''s.toml'");
    }
}
