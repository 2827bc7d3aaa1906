//! Reports of scenarios on a map (issue 29, items 5 and 8): `map.png`,
//! `falls.png` and fights.md's pictures are written, the same at any
//! thread count and through journals, shards and `merge`; `replay` gives
//! squares and paths; a map whose groups cannot reach each other draws at
//! the round cap and says why; and a fight of adjacent units on an open
//! map is the front's fight at melee distance.

mod common;

use common::{parse_csv, read_report, Sandbox};

/// The stat block both test scenarios field: a trenches soldier with a
/// bayonet.
macro_rules! soldier {
    () => {
        r#"[weapons.bayonet]
kind = "melee"
attack = 3
damage = "1d6+2"

[units.soldier]
hp = 12
dex = 1
weapons = ["bayonet"]
"#
    };
}

/// A trenches scenario on a map: riflemen who advance with bayonets round
/// a wall, one matrix axis over what the wall's gap is made of (so the
/// map changes between cells).
const MAP_SCENARIO: &str = concat!(
    r#"name = "mapped"
description = "bayonets round a wall"
rules = "trenches"
fights = 1500
seed = 11
max_rounds = 40

[map]
grid = """
#########
#A.....B#
#A.###.B#
#..#g#..#
#.......#
#########
"""

[map.legend]
g = "open"

"#,
    soldier!(),
    r#"
[sides.red]
soldier = { count = 2, at = "A" }

[sides.blue]
soldier = { count = 2, at = "B" }

[matrix]
"map.legend.g" = ["open", "difficult"]
"#
);

fn run(sb: &Sandbox, file: &str, out: &str, extra: &[&str]) {
    let mut args = vec!["run", file, "--out", out, "--quiet"];
    args.extend_from_slice(extra);
    let o = sb.run(&args);
    assert_eq!(o.code, 0, "run {extra:?}: {o:#?}");
}

#[test]
fn a_map_report_has_its_pictures_and_is_the_same_at_one_and_two_threads() {
    let sb = Sandbox::new();
    let file = sb.write("mapped.toml", MAP_SCENARIO);
    run(&sb, file, "one", &["--threads", "1"]);
    run(&sb, file, "two", &["--threads", "2"]);
    let one = read_report(&sb.join("one/mapped"));
    let two = read_report(&sb.join("two/mapped"));
    assert!(one.contains_key("map.png"), "{:?}", one.keys());
    assert!(one.contains_key("falls.png"), "{:?}", one.keys());
    assert_eq!(one, two, "1 and 2 threads give byte-identical reports");
    let summary = String::from_utf8(one["summary.md"].clone()).unwrap();
    assert!(summary.contains("![map](map.png)"), "{summary}");
    assert!(
        summary.contains("summed over all 1,500 fights of the baseline cell"),
        "{summary}"
    );
    assert!(
        summary.contains("The matrix changes the map (axis `map.legend.g`)"),
        "{summary}"
    );
    let fights = String::from_utf8(one["fights.md"].clone()).unwrap();
    assert!(
        fights.contains("Where the units stand at the start:"),
        "{fights}"
    );
    assert!(fights.contains("And at the end:"), "{fights}");
    // The narration gives squares from 1 and moves as paths.
    assert!(fights.contains("Squares are [column,row]"), "{fights}");
    assert!(fights.contains("soldier 1 (red) at [2,2]"), "{fights}");
    assert!(
        fights
            .lines()
            .any(|l| l.contains(" moves [") && l.matches(" -> ").count() >= 2),
        "a move of several squares is shown square by square: {fights}"
    );
}

#[test]
fn shards_and_merge_give_the_unsharded_map_report() {
    let sb = Sandbox::new();
    let file = sb.write("mapped.toml", MAP_SCENARIO);
    run(&sb, file, "whole", &[]);
    for shard in ["2/3", "1/3", "3/3"] {
        run(&sb, file, "shards", &["--shard", shard]);
    }
    let shards: Vec<String> = (1..=3)
        .map(|k| format!("shards/mapped.shard-{k}-of-3.journal"))
        .collect();
    let mut args = vec!["merge", "--out", "merged"];
    args.extend(shards.iter().map(String::as_str));
    let o = sb.run(&args);
    assert_eq!(o.code, 0, "{o:#?}");
    let whole = read_report(&sb.join("whole/mapped"));
    assert!(whole.contains_key("falls.png"));
    assert_eq!(read_report(&sb.join("merged/mapped")), whole);
}

#[test]
fn replay_on_a_map_gives_squares_and_paths_in_text_and_json() {
    let sb = Sandbox::new();
    let file = sb.write("mapped.toml", MAP_SCENARIO);
    let o = sb.run(&["replay", file, "--fight", "0"]);
    assert_eq!(o.code, 0, "{o:#?}");
    assert!(o.stdout.contains("rows from 1 at the top"), "{}", o.stdout);
    assert!(o.stdout.contains(" moves [2,2] -> "), "{}", o.stdout);
    let o = sb.run(&["replay", file, "--fight", "0", "--json"]);
    assert_eq!(o.code, 0, "{o:#?}");
    let mut moved = 0;
    for line in o.stdout.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        if v["event"] == "fight" {
            assert_eq!(v["units"][0]["at"], serde_json::json!([2, 2]), "{v}");
        }
        if v["event"] == "moved" {
            moved += 1;
            let path = v["path"].as_array().expect("a path");
            assert!(path.len() >= 2, "{v}");
            assert_eq!(path[0], v["from"], "{v}");
            assert_eq!(path[path.len() - 1], v["to"], "{v}");
        }
    }
    assert!(moved > 0, "{}", o.stdout);
}

#[test]
fn groups_that_cannot_reach_each_other_draw_at_the_cap_and_the_summary_says_why() {
    let sb = Sandbox::new();
    let walled = MAP_SCENARIO
        .replace("#..#g#..#", "#..###..#")
        .replace("#.......#", "#...#...#")
        .replace("#A.....B#", "#A..#..B#");
    assert_ne!(walled, MAP_SCENARIO);
    let file = sb.write(
        "mapped.toml",
        &walled.replace("fights = 1500", "fights = 300"),
    );
    run(&sb, file, "out", &[]);
    let (head, rows) =
        parse_csv(&std::fs::read_to_string(sb.join("out/mapped/cells.csv")).unwrap());
    let draws = head
        .iter()
        .position(|h| h == "draws")
        .expect("draws column");
    for row in &rows {
        assert_eq!(row[draws], "300", "every fight a draw: {row:?}");
    }
    let summary = std::fs::read_to_string(sb.join("out/mapped/summary.md")).unwrap();
    assert!(
        summary.contains("`soldier` (red) and `soldier` (blue) can reach no enemy on the map"),
        "{summary}"
    );
}

/// One trenches rifleman with a bayonet a side, in melee from the start:
/// on an open map in adjacent squares, or on the front with the two 5 m
/// apart. Trenches and Alchemy, "Combat Rounds": the game is played on a
/// 5 m grid, and its attacks of opportunity call the 5 m radius of a
/// creature "being adjacent to them": adjacent squares are melee
/// distance, so the fight is the same on both (the map's default scale is
/// 5 m a square).
fn duel(red: &str, blue: &str, map: &str) -> String {
    let soldier = soldier!();
    format!(
        r#"name = "duel"
rules = "trenches"
fights = 20000
seed = 5
max_rounds = 60
{map}
{soldier}
[sides.red]
soldier = {{ count = 1, {red} }}

[sides.blue]
soldier = {{ count = 1, {blue} }}
"#
    )
}

/// Red's wins, fights, and the mean and variance of the fight length, from
/// a report's cells.csv and rounds.csv (one cell).
fn counts(sb: &Sandbox, dir: &str) -> (f64, f64, f64, f64) {
    let (head, rows) =
        parse_csv(&std::fs::read_to_string(sb.join(&format!("{dir}/cells.csv"))).unwrap());
    let col = |name: &str| head.iter().position(|h| h == name).expect(name);
    let wins: f64 = rows[0][col("wins_red")].parse().unwrap();
    let fights: f64 = rows[0][col("fights")].parse().unwrap();
    let (_, lengths) =
        parse_csv(&std::fs::read_to_string(sb.join(&format!("{dir}/rounds.csv"))).unwrap());
    let (mut n, mut sum, mut squares) = (0.0, 0.0, 0.0);
    for row in &lengths {
        let (r, k): (f64, f64) = (row[1].parse().unwrap(), row[2].parse().unwrap());
        n += k;
        sum += r * k;
        squares += r * r * k;
    }
    let mean = sum / n;
    (wins, fights, mean, squares / n - mean * mean)
}

#[test]
fn adjacent_units_on_an_open_map_fight_as_on_the_front_at_melee_distance() {
    let sb = Sandbox::new();
    // On the front the two sides start on either side of the front line:
    // 5 m + 0 m apart.
    let front = duel("distance = 5", "distance = 0", "");
    let map = duel(
        "at = \"A\"",
        "at = \"B\"",
        "[map]\ngrid = \"\"\"\n.....\n.AB..\n.....\n\"\"\"\n",
    );
    let f = sb.write("front.toml", &front);
    run(&sb, f, "front", &[]);
    let m = sb.write("map.toml", &map);
    run(&sb, m, "map", &[]);
    let (fw, fn_, fm, fv) = counts(&sb, "front/duel");
    let (mw, mn, mm, mv) = counts(&sb, "map/duel");
    assert_eq!((fn_, mn), (20000.0, 20000.0));
    // Win rates: the standard error of a difference of two proportions.
    let (p, q) = (fw / fn_, mw / mn);
    let se = (p * (1.0 - p) / fn_ + q * (1.0 - q) / mn).sqrt();
    assert!(
        (p - q).abs() <= 4.0 * se,
        "win rate front {p} map {q} (SE {se})"
    );
    // Mean lengths: the standard error of a difference of two means.
    let se = (fv / fn_ + mv / mn).sqrt();
    assert!(
        (fm - mm).abs() <= 4.0 * se,
        "mean rounds front {fm} map {mm} (SE {se})"
    );
}
