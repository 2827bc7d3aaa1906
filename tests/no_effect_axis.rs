//! An axis that changes nothing (issue 26, section 1): cells share their
//! dice batch by batch, so values of an axis that no rule reads give
//! identical tallies, and summary.md and the terminal report "no effect: no
//! fight changed" instead of "every change could be noise".

mod common;

use std::fs;

use common::{edit, Sandbox, SMALL};

/// The fixture with the defenders' cover as an axis beside the crit rule:
/// trenches' cover raises AC against firearms only, and these are knife
/// fighters, so the cover axis changes no fight.
fn cover_axis() -> String {
    edit(
        SMALL,
        &[(
            "\"units.brawler.hp\" = [8, 12]",
            "\"sides.defenders.brawler.cover\" = [\"none\", \"half\"]",
        )],
    )
}

/// summary.md and stderr of a run of `text` with `extra` arguments.
fn run(text: &str, extra: &[&str]) -> (String, String) {
    let sb = Sandbox::new();
    let file = sb.write("s.toml", text);
    let mut args = vec!["run", file, "--out", "out", "--quiet"];
    args.extend_from_slice(extra);
    let o = sb.run(&args);
    assert_eq!(o.code, 0, "{o:#?}");
    let summary = fs::read_to_string(sb.join("out/small/summary.md")).expect("summary.md");
    (summary, o.stderr)
}

const COVER_INERT: &str = "`sides.defenders.brawler.cover`: no effect: no fight changed";

#[test]
fn an_axis_whose_values_give_identical_tallies_has_no_effect() {
    let (summary, stderr) = run(&cover_axis(), &[]);
    assert!(summary.contains("## Read this first"), "{summary}");
    assert!(summary.contains(COVER_INERT), "{summary}");
    assert!(
        stderr.contains(&format!("small: warning: {COVER_INERT}")),
        "{stderr}"
    );
    // The crit rule changes fights: not listed.
    assert!(!summary.contains("`options.crit`: no effect"), "{summary}");
}

#[test]
fn a_matrix_of_axes_that_change_nothing_is_not_called_noise() {
    // Cover alone: every cell is the baseline's fights exactly.
    let text = edit(
        &cover_axis(),
        &[("\"options.crit\" = [\"double-dice\", \"none\"]\n", "")],
    );
    let (summary, _) = run(&text, &[]);
    assert!(summary.contains(COVER_INERT), "{summary}");
    assert!(summary.contains("no effect, no fight changed"), "{summary}");
    assert!(
        !summary.contains("every change could be noise"),
        "{summary}"
    );
}

#[test]
fn without_common_random_numbers_nothing_is_claimed() {
    // Each cell its own dice: equal tallies would prove nothing.
    let (summary, stderr) = run(&cover_axis(), &["--independent-streams"]);
    assert!(!summary.contains("no effect"), "{summary}");
    assert!(!stderr.contains("no effect"), "{stderr}");
}

#[test]
fn an_axis_that_changes_fights_is_never_called_inert() {
    // The fixture's own axes (crit rule, hit points) both change fights.
    let (summary, stderr) = run(SMALL, &[]);
    assert!(!summary.contains("no effect"), "{summary}");
    assert!(!stderr.contains("no effect"), "{stderr}");
}
