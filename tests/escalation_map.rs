//! `escalation` on a map (issue 29, part 3): its map-only option is refused
//! without a map (exit 2 naming the file and the key), accepted on one.

mod common;

use common::{check_rejected, Sandbox};

/// A small escalation fight; `map` is the `[map]` table (empty: none),
/// `red` and `blue` the two groups' placements.
fn scenario(options: &str, map: &str, red: &str, blue: &str) -> String {
    format!(
        r#"name = "m"
rules = "escalation"
fights = 300
seed = 1
[options]
{options}
{map}
[weapons.sword]
damage = "1d8"

[units.fighter]
hp = 12
weapons = ["sword"]

[sides.red]
fighter = {{ count = 2, {red} }}

[sides.blue]
fighter = {{ {blue} }}
"#
    )
}

const MAP: &str = "[map]\ngrid = \"\"\"\nA.....\nA....B\n\"\"\"\n";

#[test]
fn flanking_without_a_map_is_refused() {
    let sb = Sandbox::new();
    let text = scenario(
        "flanking = \"outnumbered\"",
        "",
        "distance = 0",
        "distance = 0",
    );
    let file = sb.write("m.toml", &text);
    sb.mkdir("out");
    let (o, problems) = check_rejected(
        &sb,
        &["run", file, "--out", "out"],
        &[file],
        &["flanking", "without a map"],
    );
    assert!(problems.is_empty(), "{problems:?}\n{o:#?}");
    assert!(o.stderr.contains("m.toml:"), "names the file: {}", o.stderr);
}

#[test]
fn flanking_on_a_map_runs_and_bad_values_are_refused() {
    let sb = Sandbox::new();
    for reading in ["behind", "outnumbered"] {
        let text = scenario(
            &format!("flanking = \"{reading}\""),
            MAP,
            "at = \"A\"",
            "at = \"B\"",
        );
        let file = sb.write("m.toml", &text);
        let o = sb.run(&["run", file, "--out", "out", "--quiet"]);
        assert_eq!(o.code, 0, "{o:#?}");
    }
    let sb = Sandbox::new();
    let text = scenario("flanking = \"sideways\"", MAP, "at = \"A\"", "at = \"B\"");
    let file = sb.write("bad.toml", &text);
    sb.mkdir("out");
    let (o, problems) = check_rejected(
        &sb,
        &["run", file, "--out", "out"],
        &[file],
        &["flanking", "sideways"],
    );
    assert!(problems.is_empty(), "{problems:?}\n{o:#?}");
}
