//! `thrum` on a map (issue 29, part 3) through the CLI: the keys the map
//! brings are refused with exit 2 naming the file and the key where they
//! would be ignored (areas without a map, `character_cover` on one, a range
//! on an aura), and a map scenario runs, the same at 1 and 2 threads.

mod common;

use common::{check_rejected, Sandbox};

/// A small thrum fight; `map` is the `[map]` table (or nothing), `ward` the
/// body of the adept's ability, `extra` lines before the weapons.
fn scenario(map: &str, ward: &str, extra: &str) -> String {
    format!(
        r#"name = "m"
rules = "thrum"
fights = 300
seed = 1
{extra}
{map}
[weapons.ward]
{ward}

[weapons.axe]
kind = "physical"

[units.adept]
fatigue_tolerance = 4
stress_tolerance = 4
weapons = ["ward", "axe"]

[units.raider]
fatigue_tolerance = 4
stress_tolerance = 4
weapons = ["axe"]

[sides.hall]
adept = {{ count = 1{at_a} }}

[sides.raiders]
raider = {{ count = 3{at_r} }}
"#,
        at_a = if map.is_empty() { "" } else { ", at = \"A\"" },
        at_r = if map.is_empty() { "" } else { ", at = \"R\"" },
    )
}

const MAP: &str = "[map]\ngrid = \"\"\"\n......\nA...R.\n....R.\n....R.\n\"\"\"\n";

fn rejected(text: &str, expect: &[&str]) {
    let sb = Sandbox::new();
    let file = sb.write("m.toml", text);
    sb.mkdir("out");
    let (o, problems) = check_rejected(&sb, &["run", file, "--out", "out"], &[file], expect);
    assert!(problems.is_empty(), "{problems:?}\n{o:#?}");
    assert!(o.stderr.contains("m.toml:"), "names the file: {}", o.stderr);
}

#[test]
fn area_keys_without_a_map_are_refused() {
    rejected(
        &scenario("", "range = 5\narea = \"area\"\nsize = 2", ""),
        &["weapons.ward.area", "needs a `[map]`"],
    );
    rejected(
        &scenario("", "range = 5\nsize = 2", ""),
        &["weapons.ward.size", "needs a `[map]`"],
    );
}

#[test]
fn settings_a_map_replaces_or_contradicts_are_refused() {
    rejected(
        &scenario(
            MAP,
            "range = 5\narea = \"area\"\nsize = 2",
            "[options]\ncharacter_cover = true",
        ),
        &["options.character_cover", "ignored on a map"],
    );
    rejected(
        &scenario(MAP, "area = \"aura\"\nsize = 2\nrange = 3", ""),
        &["weapons.ward.range", "aura"],
    );
    rejected(
        &scenario(MAP, "range = 5\nsize = 2", ""),
        &["weapons.ward.size", "`area`"],
    );
}

#[test]
fn an_area_on_a_map_runs_the_same_at_one_and_two_threads() {
    let sb = Sandbox::new();
    let file = sb.write(
        "m.toml",
        &scenario(
            MAP,
            "range = 5\nranged = true\narea = \"area\"\nsize = 2",
            "",
        ),
    );
    let o = sb.run(&["run", file, "--out", "out", "--quiet"]);
    assert_eq!(o.code, 0, "{o:#?}");
    let o2 = sb.run(&["run", file, "--out", "out2", "--quiet", "--threads", "1"]);
    assert_eq!(o2.code, 0, "{o2:#?}");
    assert_eq!(
        std::fs::read(sb.join("out/m/cells.csv")).unwrap(),
        std::fs::read(sb.join("out2/m/cells.csv")).unwrap()
    );
}
