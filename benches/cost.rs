//! The cost table: what a fight of every example scenario costs, and how
//! close the duel comes to a bare hand-written loop.
//!
//! Run: `cargo bench --bench cost` (add `-- --quick` for a rough table in a
//! fraction of the time, or scenario names to measure only those). It
//! prints Markdown: the README's cost table is this output.
//!
//! For each `scenarios/*.toml`, every cell of its matrix, through the same
//! path `skirmish run` takes (batches on a rayon pool, the ledger, the
//! results), with the scenario's seed:
//! - **dice per fight** and **turns per fight**: the dice the rules read
//!   and the turns units take, counted by an observer
//!   ([`skirmish::engine::observe::Counting`]) over the first fights of
//!   every cell;
//! - **fights/s per thread**: fights per second of wall time on a pool of 1
//!   thread; **ns per die** follows from it;
//! - **instructions per fight**: counted by `valgrind --tool=callgrind`
//!   inside the batch function (the kernel, per batch set-up included; the
//!   ledger not), the same count on any machine and under any load
//!   (`perf stat` has no instruction counter on these virtual machines);
//! - **2 threads / 1 thread**: fights/s on a pool of 2 threads over
//!   fights/s on 1.
//!
//! Each timing is the fastest of three runs, the thread counts alternated so
//! that a slow spell of the machine hits both (the fastest run is the one
//! least disturbed by the rest of the machine). Runs are sized to take
//! about a second on one thread.
//!
//! The same rows for every `benches/twins/*.toml`: bench-only scenarios,
//! each the same fight as a map scenario, off the map ([`FRONT_OF`]). Then,
//! for every map scenario measured (a `[map]`) that has a twin, its ns and
//! instructions per die against its twin's, against DESIGN.md's limit: a
//! fight on a map costs at most 3× the nanoseconds per die of the same
//! fight on the front. The instructions per die are the load-independent
//! reading of the same ratio.
//!
//! Then the duel against the bare loop (`common/bare_duel.rs`), in the same
//! run: the bare loop, the duel's base cell through the kernel alone
//! (`Fight::run_into`), and the same cell through the runner.
//!
//! Last, end to end: `skirmish run` of a 1,000-cell duel matrix (the duel
//! with hp, attack and armour as three axes of ten values) at 10,000 and
//! 100,000 fights a cell, report and charts included, against its pure
//! simulation (every batch through the kernel on all threads, tallies
//! summed, nothing else: `Plan::simulate`), with the run's peak memory;
//! `run` as typed (its check of the plays included), then with
//! `--no-play-check`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use skirmish::dice::RngDice;
use skirmish::engine::{Fight, Tally};
use skirmish::rules::Trenches;
use skirmish::run::{plan_cells, Plan};
use skirmish::scenario::{self, compile::compile_str, Scenario};

#[path = "common/bare_duel.rs"]
mod bare;

/// The function callgrind counts in: every batch of every ruleset.
const BATCH_FUNCTION: &str = "*Simulate>::batch";
/// Each map scenario and the same fight off the map: `(map scenario, the
/// cells of it measured, its twin)`. The twin, in `benches/twins/`, has the
/// map scenario's units, stat blocks, options, tactics, seed and round cap,
/// with the map's starting gap as `distance` (its opening comment says
/// what else differs). The cells are `AXIS=VALUE` filters on the map
/// scenario's matrix (none: every cell), for an axis that changes the fight
/// in a way the front cannot (thrum's area size: only an area of one square
/// is the front's single target).
const FRONT_OF: &[(&str, &[&str], &str)] = &[
    ("trench_map", &[], "trench_map_front"),
    ("dicestep_map", &[], "dicestep_map_front"),
    (
        "escalation_map",
        &["map.legend.X=open", "options.flanking_accuracy=1"],
        "escalation_map_front",
    ),
    ("thrum_map", &["weapons.ward.size=1"], "thrum_map_front"),
];
/// DESIGN.md's limit on a map fight's ns per die over the front's.
const MAP_LIMIT: f64 = 3.0;

/// Fights per cell counted for dice per fight.
const DICE_SAMPLE: u32 = 2000;

struct Settings {
    /// Wall time a one-thread run aims for.
    target: Duration,
    /// Time a run under callgrind aims for, natively.
    counted: Duration,
    repeats: usize,
    only: Vec<String>,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Internal: the process callgrind runs (see `instructions`).
    if let Some(at) = args.iter().position(|a| a == "--simulate-only") {
        let path = PathBuf::from(&args[at + 1]);
        let fights: u64 = args[at + 2].parse().expect("fights");
        let (_, plan) = load(&path, &args[at + 3..]);
        let seed = plan.info.seed;
        on_threads(1, || plan.run(fights, seed, &|_| {}));
        return;
    }
    let quick = args.iter().any(|a| a == "--quick");
    let settings = Settings {
        target: Duration::from_millis(if quick { 200 } else { 1000 }),
        counted: Duration::from_millis(if quick { 5 } else { 20 }),
        repeats: if quick { 1 } else { 3 },
        only: args
            .iter()
            .filter(|a| !a.starts_with("--"))
            .cloned()
            .collect(),
    };
    let valgrind = Command::new("valgrind").arg("--version").output().is_ok();

    println!("Machine: {}; {} hardware threads.", cpu_name(), threads());
    println!();
    println!(
        "| scenario | ruleset | cells | dice per fight | turns per fight | fights/s per thread | ns per die | ns per turn | instructions per fight | 2 threads / 1 |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut measured: Vec<Measured> = Vec::new();
    for (path, wheres) in benched() {
        let (scenario, plan) = load(&path, &wheres);
        if !settings.only.is_empty() && !settings.only.contains(&scenario.name) {
            continue;
        }
        let name = if wheres.is_empty() {
            scenario.name.clone()
        } else {
            format!("{} ({})", scenario.name, wheres.join(", "))
        };
        let row = measure(&path, &wheres, &plan, &settings, valgrind);
        println!(
            "| `{}` | {} | {} | {:.1} | {:.1} | {} | {:.2} | {:.1} | {} | {:.2}× |",
            name,
            plan.info.rules,
            plan.cells.len(),
            row.dice_per_fight,
            row.turns_per_fight,
            thousands(row.per_thread),
            1e9 / (row.per_thread * row.dice_per_fight),
            1e9 / (row.per_thread * row.turns_per_fight),
            row.instructions
                .map_or_else(|| "n/a (no valgrind)".to_string(), thousands),
            row.two / row.per_thread,
        );
        measured.push(Measured {
            scenario: scenario.name.clone(),
            wheres,
            name,
            on_map: plan.map_scale.iter().any(Option::is_some),
            ns_per_die: 1e9 / (row.per_thread * row.dice_per_fight),
            instructions_per_die: row.instructions.map(|i| i / row.dice_per_fight),
        });
    }
    map_against_front(&measured);
    if settings.only.is_empty() || settings.only.iter().any(|o| o == "duel") {
        println!();
        duel_against_bare_loop(&settings);
    }
    if settings.only.is_empty() || settings.only.iter().any(|o| o == "end-to-end") {
        println!();
        end_to_end(&settings);
    }
}

/// A measured row of the cost table, as the map table reads it.
struct Measured {
    scenario: String,
    /// The cells measured (`AXIS=VALUE` filters; none: every cell).
    wheres: Vec<String>,
    /// As the table names it: the scenario and its filters.
    name: String,
    on_map: bool,
    ns_per_die: f64,
    instructions_per_die: Option<f64>,
}

/// What the table measures: every `scenarios/*.toml` and
/// `benches/twins/*.toml` (every cell), then each map scenario's cells that
/// [`FRONT_OF`] filters.
fn benched() -> Vec<(PathBuf, Vec<String>)> {
    let toml_in = |dir: &str| {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| {
                panic!("{dir}: {e} (run from the repository root: cargo bench does)")
            })
            .map(|e| e.expect("folder entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .collect();
        paths.sort();
        paths
    };
    let mut benched: Vec<(PathBuf, Vec<String>)> = toml_in("scenarios")
        .into_iter()
        .chain(toml_in("benches/twins"))
        .map(|p| (p, Vec::new()))
        .collect();
    for (map, wheres, _) in FRONT_OF.iter().filter(|f| !f.1.is_empty()) {
        let path = PathBuf::from(format!("scenarios/{map}.toml"));
        benched.push((path, wheres.iter().map(|w| w.to_string()).collect()));
    }
    benched
}

/// A line per map scenario measured: its ns and instructions per die over
/// its twin's ([`FRONT_OF`]), the ns against [`MAP_LIMIT`].
fn map_against_front(measured: &[Measured]) {
    let maps: Vec<_> = measured.iter().filter(|m| m.on_map).collect();
    if maps.is_empty() {
        return;
    }
    println!();
    println!("| map scenario | ns per die | the same fight off the map | ns per die | map / front | instructions per die, map / front | limit |");
    println!("|---|---:|---|---:|---:|---:|---|");
    for m in maps {
        let twin = FRONT_OF
            .iter()
            .find(|(map, wheres, _)| *map == m.scenario && *wheres == m.wheres.as_slice())
            .map(|f| f.2);
        let Some(twin) = twin else {
            println!(
                "| `{}` | {:.2} | no twin for these cells in `FRONT_OF` | | | | |",
                m.name, m.ns_per_die
            );
            continue;
        };
        let Some(front) = measured.iter().find(|f| !f.on_map && f.scenario == twin) else {
            println!(
                "| `{}` | {:.2} | `{twin}` not measured: name it too | | | | |",
                m.name, m.ns_per_die
            );
            continue;
        };
        let ratio = m.ns_per_die / front.ns_per_die;
        let instructions = match (m.instructions_per_die, front.instructions_per_die) {
            (Some(a), Some(b)) => format!("{:.2}× ({a:.0} / {b:.0})", a / b),
            _ => "n/a (no valgrind)".to_string(),
        };
        println!(
            "| `{}` | {:.2} | `{twin}` | {:.2} | {ratio:.2}× | {instructions} | {} |",
            m.name,
            m.ns_per_die,
            front.ns_per_die,
            if ratio <= MAP_LIMIT {
                format!("within {MAP_LIMIT}×")
            } else {
                format!("**over {MAP_LIMIT}×**")
            }
        );
    }
}

struct Row {
    dice_per_fight: f64,
    turns_per_fight: f64,
    per_thread: f64,
    two: f64,
    instructions: Option<f64>,
}

fn measure(
    path: &Path,
    wheres: &[String],
    plan: &Plan,
    settings: &Settings,
    valgrind: bool,
) -> Row {
    let cells = plan.cells.len() as u64;
    let seed = plan.info.seed;
    let counted = plan.count(seed, DICE_SAMPLE);
    let sample = (cells * u64::from(DICE_SAMPLE)) as f64;

    // Calibrate: a small run on one thread, then size the runs from it.
    let probe = 2_000u64;
    let rate = fights_per_second(plan, 1, probe);
    let per_cell =
        |time: Duration| -> u64 { ((rate * time.as_secs_f64()) as u64 / cells).max(probe) };
    let fights = per_cell(settings.target);
    let (mut one, mut two) = (0f64, 0f64);
    for _ in 0..settings.repeats {
        one = one.max(fights_per_second(plan, 1, fights));
        two = two.max(fights_per_second(plan, 2, fights));
    }
    let instructions = valgrind.then(|| {
        let fights = per_cell(settings.counted).max(1000);
        instructions(path, wheres, fights) / (fights * cells) as f64
    });
    Row {
        dice_per_fight: counted.dice as f64 / sample,
        turns_per_fight: counted.turns as f64 / sample,
        per_thread: one,
        two,
        instructions,
    }
}

/// Fights per second of wall time of a whole run of `fights` per cell.
fn fights_per_second(plan: &Plan, threads: usize, fights: u64) -> f64 {
    let total = fights * plan.cells.len() as u64;
    let seed = plan.info.seed;
    let started = Instant::now();
    on_threads(threads, || {
        std::hint::black_box(plan.run(fights, seed, &|_| {}))
    });
    total as f64 / started.elapsed().as_secs_f64()
}

/// Instructions callgrind counts inside the batch function in a one-thread
/// run of `fights` per cell of the scenario at `path` (its cells `wheres`
/// filters) (this program, run again under valgrind with `--simulate-only`).
fn instructions(path: &Path, wheres: &[String], fights: u64) -> f64 {
    let me = std::env::current_exe().expect("this program's path");
    let out = Command::new("valgrind")
        .args([
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            &format!("--toggle-collect={BATCH_FUNCTION}"),
        ])
        .arg(me)
        .arg("--simulate-only")
        .arg(path)
        .arg(fights.to_string())
        .args(wheres)
        .output()
        .expect("valgrind runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "valgrind failed:\n{stderr}");
    stderr
        .lines()
        .find_map(|l| l.split("Collected :").nth(1))
        .and_then(|n| n.trim().parse::<f64>().ok())
        .unwrap_or_else(|| panic!("no instruction count in valgrind's output:\n{stderr}"))
}

/// The bare loop, the duel's base cell through the kernel alone, and the
/// same cell through the runner, one thread each, alternated.
fn duel_against_bare_loop(settings: &Settings) {
    let path = Path::new("scenarios/duel.toml");
    let scenario = scenario::load(path).expect("duel scenario");
    let base = scenario.cells().expect("cells").swap_remove(0);
    let runner = plan_cells(&scenario, vec![base]).expect("duel plan");
    let text = std::fs::read_to_string(path).expect("duel scenario");
    let encounter = compile_str::<Trenches>(&text)
        .expect("duel compiles")
        .encounter;

    const BATCH: u32 = 4096;
    let rate = |mut fight_batch: Box<dyn FnMut()>| {
        // Batches of 4096 until the target time, best of the repeats.
        let started = Instant::now();
        let mut batches = 0u64;
        while started.elapsed() < settings.target {
            fight_batch();
            batches += 1;
        }
        (batches * u64::from(BATCH)) as f64 / started.elapsed().as_secs_f64()
    };
    let fights = (settings.target.as_secs_f64() * 5e6) as u64;
    let (mut bare, mut kernel, mut run) = (0f64, 0f64, 0f64);
    for _ in 0..settings.repeats {
        let mut dice = RngDice::for_batch(1, 0);
        bare = bare.max(rate(Box::new(move || {
            std::hint::black_box(bare::bare_duel(&mut dice, BATCH));
        })));
        let mut dice = RngDice::for_batch(1, 0);
        let mut fight = Fight::<Trenches>::new();
        let mut tally = Tally::default();
        let enc = &encounter;
        kernel = kernel.max(rate(Box::new(move || {
            fight.run_into(enc, &mut dice, BATCH, &mut tally);
            std::hint::black_box(&tally);
        })));
        run = run.max(fights_per_second(&runner, 1, fights));
    }
    println!("| one thread | fights/s | of the bare loop |");
    println!("|---|---:|---:|");
    println!(
        "| bare loop (`benches/common/bare_duel.rs`) | {} | 1.00 |",
        thousands(bare)
    );
    println!(
        "| `duel`'s base cell, kernel (`Fight::run_into`) | {} | {:.2} |",
        thousands(kernel),
        kernel / bare
    );
    println!(
        "| `duel`'s base cell, runner (`skirmish run`'s path) | {} | {:.2} |",
        thousands(run),
        run / bare
    );
}

/// The scenario at `path` and its plan: the cells with every `AXIS=VALUE`
/// of `wheres` (every cell when none).
fn load(path: &Path, wheres: &[String]) -> (Scenario, Plan) {
    let scenario = scenario::load(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut cells = scenario
        .cells()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    for w in wheres {
        let (axis, value) = w.split_once('=').expect("FRONT_OF filters are AXIS=VALUE");
        let a = scenario
            .axes
            .iter()
            .position(|x| x.path == axis)
            .unwrap_or_else(|| panic!("{}: no axis `{axis}`", path.display()));
        cells.retain(|c| c.axis_values[a] == value);
        assert!(!cells.is_empty(), "{}: no cell with {w}", path.display());
    }
    let plan = plan_cells(&scenario, cells).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (scenario, plan)
}

fn on_threads<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
        .install(work)
}

fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn cpu_name() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|n| n.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".to_string())
}

/// `12345678.9` as `12,345,679`.
fn thousands(x: f64) -> String {
    let digits = format!("{:.0}", x);
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `skirmish run` of the 1,000-cell duel matrix against its pure
/// simulation, at 10,000 and 100,000 fights a cell, with and without the
/// play check.
fn end_to_end(settings: &Settings) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let duel = std::fs::read_to_string("scenarios/duel.toml").expect("duel scenario");
    let base = duel.split("\n[matrix]").next().expect("text");
    let text = format!(
        "{}\n[matrix]\n{}\n{}\n{}\n",
        base.replace("name = \"duel\"", "name = \"duel_matrix\""),
        "\"units.fighter.hp\" = [12, 15, 18, 21, 24, 27, 30, 33, 36, 39]",
        "\"weapons.longsword.attack\" = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]",
        "\"units.fighter.armor\" = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]",
    );
    let path = dir.path().join("duel_matrix.toml");
    std::fs::write(&path, text).expect("scenario written");
    let (_, plan) = load(&path, &[]);
    assert_eq!(plan.cells.len(), 1000);
    let seed = plan.info.seed;
    let threads = threads();
    println!("| 1,000-cell duel matrix, {threads} threads | fights | pure simulation | end to end (report and charts included) | end to end / simulation | peak memory |");
    println!("|---|---:|---:|---:|---:|---:|");
    for per_cell in [10_000u64, 100_000] {
        let mut simulation = f64::MAX;
        // `run` as a designer types it (with its check of the plays, see
        // the README's "Other plays"), then with `--no-play-check`.
        let mut whole = [f64::MAX; 2];
        let mut peak = [0u64; 2];
        for k in 0..settings.repeats {
            let started = Instant::now();
            on_threads(threads, || {
                std::hint::black_box(plan.simulate(per_cell, seed))
            });
            simulation = simulation.min(started.elapsed().as_secs_f64());
            for (i, extra) in [&[][..], &["--no-play-check"][..]].into_iter().enumerate() {
                let out = dir.path().join(format!("out-{per_cell}-{k}-{i}"));
                let (wall, kb) = run_skirmish(&path, per_cell, &out, extra);
                whole[i] = whole[i].min(wall);
                peak[i] = peak[i].max(kb);
            }
        }
        for (i, how) in ["", ", `--no-play-check`"].into_iter().enumerate() {
            println!(
                "| {} fights a cell{how} | {} | {:.2} s | {:.2} s | {:.2} | {:.0} MB |",
                thousands(per_cell as f64),
                thousands((per_cell * 1000) as f64),
                simulation,
                whole[i],
                whole[i] / simulation,
                peak[i] as f64 / 1024.0,
            );
        }
    }
}

/// Wall time and peak resident memory (KB) of `skirmish run`.
// The child is reaped by `wait4` (for its resource usage), which clippy
// does not see.
#[allow(clippy::zombie_processes)]
fn run_skirmish(path: &Path, fights: u64, out: &Path, extra: &[&str]) -> (f64, u64) {
    let started = Instant::now();
    let child = Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .arg("run")
        .arg(path)
        .args(["--fights", &fights.to_string(), "--quiet", "--out"])
        .arg(out)
        .args(extra)
        .stdout(std::process::Stdio::null())
        // Its warnings (a few cells of the duel matrix reach the round cap)
        // are the matrix's, not the measurement's.
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("skirmish starts");
    let mut status = 0;
    // SAFETY: a zeroed `rusage` is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, with valid pointers to fill in; the
    // child is not waited for again (`Child` does not wait when dropped).
    let waited = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    let wall = started.elapsed().as_secs_f64();
    assert!(
        waited > 0 && libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "skirmish run failed"
    );
    (wall, usage.ru_maxrss as u64)
}
