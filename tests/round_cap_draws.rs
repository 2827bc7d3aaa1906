//! Draws at the round cap (issue 26, section 1): fights still running after
//! `max_rounds` are counted apart from the other draws (no side standing),
//! exactly, by both ways the kernel tallies fights (`Fight::record`, and
//! trenches' duel batch); the count reaches cells.csv through the journal;
//! beyond 1% of a cell's fights, summary.md and the terminal say so; and a
//! journal written before the count existed is refused, never misread.

mod common;

use std::fs;

use common::{edit, parse_csv, Sandbox, SMALL};
use skirmish::dice::RngDice;
use skirmish::engine::observe::{EndCause, Event, Recorder};
use skirmish::engine::{Encounter, Fight, Tally};
use skirmish::rules::{Osr, Ruleset, Thrum, Trenches};
use skirmish::testkit::encounter;

/// `text` with its `max_rounds` line set to `rounds`.
fn capped(text: &str, rounds: u32) -> String {
    let line = text
        .lines()
        .find(|l| l.starts_with("max_rounds"))
        .expect("the scenario sets max_rounds");
    text.replacen(line, &format!("max_rounds = {rounds}"), 1)
}

/// `fights` fights of `enc` tallied as a run tallies them, and the same
/// fights (same dice) told to an observer: how many ended at the round cap,
/// and how many with no side standing, by the replay's account.
fn tallied_and_told<R: Ruleset>(enc: &Encounter<R>, fights: u32) -> (Tally, u64, u64) {
    let mut tally = Tally::default();
    Fight::new().run_into(enc, &mut RngDice::for_batch(26, 0), fights, &mut tally);
    let mut dice = RngDice::for_batch(26, 0);
    let mut fight = Fight::new();
    fight.prepare(enc);
    let (mut at_cap, mut nobody) = (0, 0);
    for _ in 0..fights {
        let mut tape = Recorder::default();
        fight.next_fight_watched(enc, &mut dice, &mut tape);
        match tape.events.last() {
            Some(Event::End {
                cause: EndCause::RoundCap,
                ..
            }) => at_cap += 1,
            Some(Event::End {
                cause: EndCause::NobodyStanding,
                ..
            }) => nobody += 1,
            _ => {}
        }
    }
    (tally, at_cap, nobody)
}

#[test]
fn draws_at_the_cap_are_exactly_the_fights_the_cap_ended() {
    // Example scenarios of three rulesets with a low cap, so that many
    // fights reach it: the tally's count agrees fight for fight with the
    // end the replay tells, and the other draws are the fights nobody
    // was left standing in.
    fn check<R: Ruleset>(file: &str, rounds: u32) {
        let text = fs::read_to_string(format!("scenarios/{file}")).expect("scenario");
        let enc = encounter::<R>(&capped(&text, rounds));
        let (tally, at_cap, nobody) = tallied_and_told(&enc, 400);
        assert!(at_cap > 0, "{file}: no fight reached round {rounds}");
        assert_eq!(tally.draws_at_cap, at_cap, "{file}");
        assert_eq!(tally.draws - tally.draws_at_cap, nobody, "{file}");
    }
    check::<Thrum>("thrum_skirmish.toml", 3);
    check::<Osr>("osr_patrol.toml", 2);
    check::<Trenches>("trench_raid.toml", 2);
}

#[test]
fn a_duel_batch_counts_its_draws_at_the_cap() {
    // Two knife fighters, one round: trenches fights the batch in its own
    // loop (Ruleset::quick_batch), which tallies the cap draws itself.
    let duel = edit(
        &capped(SMALL.split("[matrix]").next().unwrap(), 1),
        &[
            ("brawler = { count = 2 }", "brawler = { count = 1 }"),
            (
                "brawler = { count = 2, cover = \"half\" }",
                "brawler = { count = 1 }",
            ),
        ],
    );
    let enc = encounter::<Trenches>(&duel);
    let (tally, at_cap, _) = tallied_and_told(&enc, 2000);
    assert!(tally.draws > 0);
    assert_eq!(tally.draws_at_cap, tally.draws);
    assert_eq!(tally.draws_at_cap, at_cap);
}

/// Runs `text` in a sandbox; returns (cells.csv header and first row,
/// summary.md, stderr).
fn run(text: &str) -> (Vec<String>, Vec<String>, String, String) {
    let sb = Sandbox::new();
    let file = sb.write("s.toml", text);
    // The play check has its own caveat (tests/play_check.rs); these
    // tests are about the round cap's.
    let o = sb.run(&["run", file, "--out", "out", "--quiet", "--no-play-check"]);
    assert_eq!(o.code, 0, "{o:#?}");
    let csv = fs::read_to_string(sb.join("out/small/cells.csv")).expect("cells.csv");
    let (header, rows) = parse_csv(&csv);
    let summary = fs::read_to_string(sb.join("out/small/summary.md")).expect("summary.md");
    (header, rows[0].clone(), summary, o.stderr)
}

fn column(header: &[String], row: &[String], name: &str) -> u64 {
    let at = header
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("cells.csv has no column `{name}`"));
    row[at].parse().expect("a count")
}

#[test]
fn a_run_cut_short_by_the_cap_says_so_in_cells_csv_summary_and_terminal() {
    // Two against two, one round: most fights are still running.
    let text = capped(SMALL.split("[matrix]").next().unwrap(), 1);
    let (header, row, summary, stderr) = run(&text);
    let draws = column(&header, &row, "draws");
    assert!(draws > 20, "{draws} draws of 2000");
    assert_eq!(column(&header, &row, "draws_at_cap"), draws);
    assert!(summary.contains("## Read this first"), "{summary}");
    assert!(summary.contains("Draws at the round cap"), "{summary}");
    assert!(summary.contains("raise `max_rounds`"), "{summary}");
    assert!(
        stderr.contains("small: warning: Draws at the round cap"),
        "{stderr}"
    );
}

#[test]
fn a_run_the_cap_does_not_cut_short_says_nothing_about_it() {
    // The fixture's cap of 50 rounds: no knife fight lasts that long.
    let (header, row, summary, stderr) = run(SMALL);
    assert_eq!(column(&header, &row, "draws_at_cap"), 0);
    assert!(!summary.contains("Read this first"), "{summary}");
    assert!(!stderr.contains("warning"), "{stderr}");
}

/// FNV-1a, 32 bits: the checksum sealing every journal line.
fn seal(body: &str) -> String {
    let sum = body.bytes().fold(0x811c_9dc5u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    format!("{body} #{sum:08x}")
}

#[test]
fn a_journal_of_the_format_before_the_count_is_refused_not_misread() {
    // A shard's journal, turned into one of journal format 1 (whose batch
    // records had no count of draws at the cap): resuming or merging it
    // would misread every number after `draws`.
    let sb = Sandbox::new();
    let file = sb.write("small.toml", SMALL);
    let o = sb.run(&["run", file, "--out", "shards", "--quiet", "--shard", "1/1"]);
    assert_eq!(o.code, 0, "{o:#?}");
    let journal = sb.join("shards/small.shard-1-of-1.journal");
    let text = fs::read_to_string(&journal).expect("journal");
    let (first, rest) = text.split_once('\n').expect("a header");
    assert!(first.starts_with("skirmish journal 2 #"), "{first}");
    let old = format!("{}\n{rest}", seal("skirmish journal 1"));
    fs::write(&journal, &old).expect("write");
    let resumed = sb.run(&["run", file, "--out", "shards", "--quiet", "--shard", "1/1"]);
    let merged = sb.run(&[
        "merge",
        "shards/small.shard-1-of-1.journal",
        "--out",
        "merged",
    ]);
    for o in [&resumed, &merged] {
        assert_eq!(o.code, 2, "{o:#?}");
        assert!(
            o.stderr.contains("another version of skirmish")
                && o.stderr.contains("`skirmish journal 1`")
                && o.stderr.contains("--fresh"),
            "{}",
            o.stderr
        );
    }
    // Untouched, and nothing merged.
    assert_eq!(fs::read_to_string(&journal).expect("journal"), old);
    assert!(sb.entries("merged").is_empty());
    // --fresh discards it (it is skirmish's own) and starts over.
    let o = sb.run(&[
        "run", file, "--out", "shards", "--quiet", "--shard", "1/1", "--fresh",
    ]);
    assert_eq!(o.code, 0, "{o:#?}");
    let text = fs::read_to_string(&journal).expect("journal");
    assert!(text.starts_with("skirmish journal 2 #"));
}
