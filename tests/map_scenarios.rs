//! Scenarios on a map (issue 29, part 2): every bad map or placement is
//! refused with exit 2 naming the file, the key and (for the grid) the row
//! and column; a good one runs, and fights without a map are untouched
//! (`skirmish run --check scenarios/*.toml`, in CI, keeps the checked-in
//! reports byte-identical).

mod common;

use common::{check_rejected, Sandbox};

/// A small trenches fight on a map; `grid` replaces the map, `red` and
/// `blue` are the two groups' inline tables.
fn scenario(rules: &str, grid: &str, red: &str, blue: &str, extra: &str) -> String {
    format!(
        r#"name = "m"
rules = "{rules}"
fights = 500
seed = 1
{extra}
[map]
grid = """
{grid}
"""

[weapons.rifle]
kind = "firearm"
attack = 4
damage = "1d10+2"
range = 600

[units.rifleman]
hp = 13
weapons = ["rifle"]

[sides.red]
rifleman = {{ {red} }}

[sides.blue]
rifleman = {{ {blue} }}
"#
    )
}

const GRID: &str = "A....\n..#..\n....B";

fn rejected(text: &str, expect: &[&str]) {
    let sb = Sandbox::new();
    let file = sb.write("m.toml", text);
    sb.mkdir("out");
    let (o, problems) = check_rejected(&sb, &["run", file, "--out", "out"], &[file], expect);
    assert!(problems.is_empty(), "{problems:?}\n{o:#?}");
    assert!(o.stderr.contains("m.toml:"), "names the file: {}", o.stderr);
}

#[test]
fn bad_grids_name_the_row_and_column() {
    rejected(
        &scenario(
            "trenches",
            "A....\n..#\n....B",
            "at = \"A\"",
            "at = \"B\"",
            "",
        ),
        &["map.grid", "row 2", "column"],
    );
    rejected(
        &scenario(
            "trenches",
            "A....\n..%..\n....B",
            "at = \"A\"",
            "at = \"B\"",
            "",
        ),
        &["map.grid", "row 2, column 3", "'%'"],
    );
}

#[test]
fn placement_errors() {
    // Too few start cells.
    rejected(
        &scenario("trenches", GRID, "count = 2, at = \"A\"", "at = \"B\"", ""),
        &["at", "2 units need 2 start cells", "1 free"],
    );
    // A letter the map does not have.
    rejected(
        &scenario("trenches", GRID, "at = \"C\"", "at = \"B\"", ""),
        &["no `C` cells"],
    );
    // Coordinates off the map, or on a wall.
    rejected(
        &scenario("trenches", GRID, "at = [[10, 1]]", "at = \"B\"", ""),
        &["off the map"],
    );
    // Squares count from 1, as the map's rulers and the replay do.
    rejected(
        &scenario("trenches", GRID, "at = [[0, 1]]", "at = \"B\"", ""),
        &["off the map", "columns 1 to"],
    );
    rejected(
        &scenario("trenches", GRID, "at = [[3, 2]]", "at = \"B\"", ""),
        &["row 2, column 3", "not ground"],
    );
    // `distance` and `cover` on a group the map places.
    rejected(
        &scenario(
            "trenches",
            GRID,
            "at = \"A\", distance = 10",
            "at = \"B\"",
            "",
        ),
        &["distance", "the map places it"],
    );
    rejected(
        &scenario(
            "trenches",
            GRID,
            "at = \"A\", cover = \"half\"",
            "at = \"B\"",
            "",
        ),
        &["cover", "the place's"],
    );
    // A group the map does not place.
    rejected(
        &scenario("trenches", GRID, "count = 1", "at = \"B\"", ""),
        &["sides.red.rifleman", "with `at`"],
    );
}

#[test]
fn at_without_a_map_and_rulesets_that_cannot_play_on_one() {
    let text = scenario("trenches", GRID, "at = \"A\"", "at = \"B\"", "");
    let no_map = text.replace("[map]\ngrid = \"\"\"\nA....\n..#..\n....B\n\"\"\"\n", "");
    rejected(&no_map, &["`at`", "no `[map]`"]);
    let osr = scenario("osr", GRID, "at = \"A\"", "at = \"B\"", "").replace(
        "[weapons.rifle]\nkind = \"firearm\"\nattack = 4\ndamage = \"1d10+2\"\nrange = 600",
        "[weapons.rifle]\ndamage = \"1d8\"",
    );
    rejected(&osr, &["`map`", "the osr ruleset cannot play on a map yet"]);
    rejected(
        &scenario("trenches", GRID, "at = \"A\"", "at = \"B\"", "")
            .replace("[map]\n", "[map]\nscale = 0\n"),
        &["map.scale"],
    );
}

#[test]
fn a_walled_off_group_is_a_warning_and_a_good_map_runs() {
    let sb = Sandbox::new();
    let walled = scenario(
        "trenches",
        "A#...\n##...\n....B",
        "at = \"A\"",
        "at = \"B\"",
        "",
    );
    let file = sb.write("w.toml", &walled);
    let o = sb.run(&["validate", file]);
    assert_eq!(o.code, 0, "{o:#?}");
    assert!(o.stderr.contains("can reach no enemy"), "{o:#?}");
    let file = sb.write(
        "m.toml",
        &scenario("trenches", GRID, "at = \"A\"", "at = \"B\"", ""),
    );
    let o = sb.run(&["run", file, "--out", "out", "--quiet"]);
    assert_eq!(o.code, 0, "{o:#?}");
    // Same seed, two thread counts: the same report.
    let o2 = sb.run(&["run", file, "--out", "out2", "--quiet", "--threads", "1"]);
    assert_eq!(o2.code, 0, "{o2:#?}");
    assert_eq!(
        std::fs::read(sb.join("out/m/cells.csv")).unwrap(),
        std::fs::read(sb.join("out2/m/cells.csv")).unwrap()
    );
}

#[test]
fn a_square_in_at_counts_from_1_as_the_replay_prints_it() {
    // Row 1, column 5 of GRID (`A....`): the replay names the unit's
    // start square as the scenario wrote it.
    let sb = Sandbox::new();
    let text = scenario("trenches", GRID, "at = [[5, 1]]", "at = \"B\"", "");
    let file = sb.write("m.toml", &text);
    let o = sb.run(&["replay", file]);
    assert_eq!(o.code, 0, "{o:#?}");
    assert!(o.stdout.contains("[5,1]"), "{}", o.stdout);
}

/// A small dicestep fight on a map (issue 29, part 3): spearmen, 1 m
/// squares; `extra` goes in `[options]`.
fn dicestep_scenario(extra: &str) -> String {
    format!(
        r#"name = "m"
rules = "dicestep"
fights = 200
seed = 1

[options]
{extra}

[map]
grid = """
A...
.#..
...B
"""

[weapons.spear]
damage = 4

[units.fighter]
evasion = 6
endurance = 10
health = 10
weapons = ["spear"]

[sides.red]
fighter = {{ at = "A" }}

[sides.blue]
fighter = {{ at = "B" }}
"#
    )
}

#[test]
fn dicestep_plays_on_a_map_and_refuses_the_fronts_flanking_option() {
    // "Attacks": flanking is "surrounded on two opposite sides"; on a map
    // the squares say which sides, so the front's `flanking` reading would
    // be ignored: refused, naming the key.
    rejected(
        &dicestep_scenario("flanking = \"any-two\""),
        &["options.flanking", "would be ignored on a map"],
    );
    let sb = Sandbox::new();
    let file = sb.write("m.toml", &dicestep_scenario(""));
    let o = sb.run(&["run", file, "--out", "out", "--quiet"]);
    assert_eq!(o.code, 0, "{o:#?}");
}
