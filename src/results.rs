//! What a run hands to analysis and reporting: the scenario in words plus one
//! [`Tally`] (and per-batch stats) per matrix cell.
//!
//! This is the boundary between the simulation side (scenario, kernel,
//! runner) and the presentation side (analysis, report). Nothing here depends
//! on polars, plotters or the ruleset types.

use crate::engine::tally::{BatchStat, Tally};

/// One ruleset counter: a column in `cells.csv` (mean per fight).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CounterInfo {
    /// Column name, snake_case, e.g. `crits`.
    pub name: &'static str,
    /// One line on what it counts, for summary.md.
    pub doc: &'static str,
}

/// A scenario described for humans and for report column names.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioInfo {
    /// Scenario name: the report folder is `reports/<name>/`.
    pub name: String,
    pub description: String,
    /// Ruleset name, e.g. `trenches`.
    pub rules: String,
    pub seed: u64,
    /// Fights per cell.
    pub fights: u64,
    pub max_rounds: u32,
    /// Side names in scenario order (index = side index in tallies).
    pub sides: Vec<SideInfo>,
    /// Matrix axes: dotted paths, in scenario order. Empty: a single cell.
    pub axes: Vec<String>,
    /// The ruleset's counters, in tally order.
    pub counters: Vec<CounterInfo>,
    /// The options in force in the base scenario, as `name = value` lines.
    pub options: Vec<String>,
    /// Index of the baseline cell every cell is compared with.
    pub baseline: usize,
    /// Whether cells shared random numbers batch by batch.
    pub streams: Streams,
    /// The precision target, when the run had one (`--precision`).
    pub precision: Option<Precision>,
    /// What each cell fights with, in cell order, where the matrix may
    /// change what `sides` and `options` say of the base scenario (an axis on
    /// `sides.defenders.rifleman.cover`, `units.rifleman.hp`,
    /// `options.crit`, ...). Empty when not known: the summary then shows
    /// the base scenario only.
    pub setups: Vec<Setup>,
    /// Found when the scenario was loaded, though it is valid: a weapon a
    /// unit group can never use (`scenario::unused`), each line saying in
    /// which cells when not in all. Shown under "Read this first".
    pub warnings: Vec<String>,
}

/// One cell's unit groups and options, described as in [`ScenarioInfo`].
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// Sides in scenario order, each with its unit groups.
    pub sides: Vec<SideInfo>,
    /// The options in force, as `name = value` lines.
    pub options: Vec<String>,
}

/// How batches draw their random numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Streams {
    /// Batch `b` of every cell draws from the stream of `(seed, b)`: common
    /// random numbers, so paired differences are measured with less noise.
    #[default]
    Common,
    /// Every (cell, batch) has its own stream (`--independent-streams`).
    Independent,
}

/// A run that kept adding batches until every cell was precise enough.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Precision {
    /// Largest 95% half-width allowed for each win rate and each difference
    /// from the baseline.
    pub target: f64,
    /// Most fights a cell may get (rounded up to whole batches).
    pub max_fights: u64,
}

/// One side of the base scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct SideInfo {
    pub name: String,
    /// One line per unit group, e.g. `2 × rifleman (11 HP, rifle; half cover)`.
    pub units: Vec<String>,
}

/// The result of one matrix cell.
#[derive(Clone, Debug, PartialEq)]
pub struct CellResult {
    /// 0-based cell index (matrix order: last axis varies fastest).
    pub index: usize,
    /// This cell's value on each axis, rendered as in the scenario file
    /// (strings without quotes), in `ScenarioInfo::axes` order.
    pub axis_values: Vec<String>,
    pub tally: Tally,
    /// Per-batch stats in batch order.
    pub batches: Vec<BatchStat>,
    /// With a precision target: the cell stopped at `max_fights` before
    /// reaching the target. Always false otherwise.
    pub capped: bool,
}

/// Everything a run produced.
#[derive(Clone, Debug, PartialEq)]
pub struct RunResults {
    pub scenario: ScenarioInfo,
    pub cells: Vec<CellResult>,
    /// Fights of the baseline cell told turn by turn for `fights.md` (a
    /// typical one and an upset); empty until the runner's caller asks for
    /// them ([`crate::replay::shown_fights`]).
    pub fights: Vec<ShownFight>,
    /// With `run --exact`: each cell's fight enumerated ([`crate::exact`]),
    /// in cell order, or why it was not (the limits' message). Empty
    /// without `--exact`: the report is then exactly what it was.
    pub exact: Vec<Result<ExactWin, String>>,
    /// The other plays `run` tried in every cell ([`crate::scenario::PlayTrial`]),
    /// or `None` with `--no-play-check`: the report then says nothing of them.
    pub plays: Option<PlayCheck>,
    /// With a map: what the report draws of it (`map.png`, `falls.png`);
    /// `None` on the front, and until the runner's caller asks for it
    /// ([`crate::replay::places::ground_report`]).
    pub ground: Option<GroundReport>,
}

/// What the play check fought: each side's own play and its side-wide
/// alternatives in every cell, on common random numbers batch by batch.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayCheck {
    /// Fights per trial.
    pub fights: u64,
    /// How much better (in the side's win rate plus its share of the draws)
    /// an alternative must be, with 95% confidence, to be reported.
    pub margin: f64,
    pub trials: Vec<PlayTrialResult>,
}

/// One trial of the play check and its batches.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayTrialResult {
    pub trial: crate::scenario::PlayTrial,
    pub batches: Vec<BatchStat>,
}

/// What a report shows of the ground of a run on a map: the baseline
/// cell's map and start squares, and where units fell in its fights.
#[derive(Clone, Debug, PartialEq)]
pub struct GroundReport {
    /// The baseline cell's map.
    pub map: crate::map::Map,
    /// Each unit group's name, side index and the squares its units start
    /// on in the baseline cell, in scenario order.
    pub groups: Vec<(String, usize, Vec<crate::map::Square>)>,
    /// Per side, per square of `map` (row-major): units of that side out
    /// of the fight at its end, on that square, over `fights` fights of
    /// the baseline cell.
    pub falls: Vec<Vec<u32>>,
    /// The fights `falls` counts: every fight of the baseline cell.
    pub fights: u64,
    /// The matrix axes whose values change the map from the baseline
    /// cell's in some other cell (empty when every cell has its map).
    pub changed_by: Vec<String>,
    /// Per cell: the groups (`name` (side)) that can reach no enemy by
    /// terrain, found when the scenario was loaded.
    pub unreachable: Vec<Vec<String>>,
}

/// Where a unit stands at one moment of a shown fight (fights.md's
/// pictures of the start and the end).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitPlace {
    /// The unit's name as the replay calls it.
    pub name: String,
    pub side: usize,
    pub square: crate::map::Square,
    /// Still in the fight (else out: down, dead or fled).
    pub standing: bool,
}

/// A cell's exact win rates, shown beside the sampled ones (`run --exact`).
#[derive(Clone, Debug, PartialEq)]
pub struct ExactWin {
    /// The probability of each side winning, in side order.
    pub wins: Vec<f64>,
    /// Absolute bound on the rounding error of each ([`crate::exact::Answer::error`]).
    pub error: f64,
}

impl ExactWin {
    /// The win rates of an exact answer.
    pub fn of(answer: &crate::exact::Answer) -> ExactWin {
        ExactWin {
            wins: answer.wins[..answer.sides].to_vec(),
            error: answer.error(),
        }
    }
}

/// One fight of a run told turn by turn, for a report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShownFight {
    /// What kind of fight it is (`typical`, `upset`: a `--pick` name).
    pub pick: String,
    pub cell: usize,
    /// The fight's number in its cell; `None` when no fight is of this kind
    /// (`text` then says why).
    pub fight: Option<u64>,
    /// The fight as `skirmish replay` prints it (no colours; a long one
    /// with rounds left out, see [`crate::replay::SHOWN_FIGHT_BYTES`]), or
    /// why there is none.
    pub text: String,
    /// The `skirmish replay` command that prints the fight whole (empty
    /// without a fight).
    pub command: String,
    /// What a reader should know about how the fight stands for the cell
    /// (the typical fight of a cell without a majority outcome), if
    /// anything.
    pub note: Option<String>,
    /// On a map: where every unit stands at the start and at the end of
    /// the fight; empty on the front.
    pub start: Vec<UnitPlace>,
    pub end: Vec<UnitPlace>,
}

/// What `skirmish balance` found: the search along one numeric axis for the
/// value where one side's win rate crosses a target.
#[derive(Clone, Debug, PartialEq)]
pub struct BalanceResults {
    /// The scenario as probed (its `axes` is the balance axis alone), with
    /// the seed and fights per probe actually used.
    pub scenario: ScenarioInfo,
    /// The dotted path searched.
    pub axis: String,
    /// The side whose own copy of the stat block or weapon was searched
    /// (`--side-copy`), if only one side's was.
    pub side_copy: Option<String>,
    /// The declared default the search started from, when the scenario file
    /// leaves the field at it.
    pub defaulted: Option<f64>,
    /// Whole numbers (bisection to adjacent integers) or reals.
    pub integer: bool,
    /// With reals: the bracket width the search stopped at.
    pub tolerance: Option<f64>,
    /// The side whose win rate is searched, and its index.
    pub side: String,
    pub side_index: usize,
    pub target: f64,
    /// The search bracket's ends.
    pub from: f64,
    pub to: f64,
    pub crossing: crate::analysis::balance::Crossing,
    /// `balance --exact`: every probe's win rate is exact ([`crate::exact`]);
    /// this is the largest rounding bound among them. Each probe's
    /// `Proportion` then has no fights (`trials` 0) and the bound as its
    /// interval.
    pub exact: Option<f64>,
}

impl BalanceResults {
    /// An axis value as a designer would write it: `3` on integer axes; the
    /// shortest exact decimal on real axes.
    pub fn value_label(&self, value: f64) -> String {
        if self.integer {
            format!("{}", value as i64)
        } else {
            format!("{value}")
        }
    }

    /// The interpolated crossing, with 2 decimals on integer axes and one
    /// more decimal than the tolerance on real axes.
    pub fn estimate_label(&self) -> String {
        let decimals = match self.tolerance {
            Some(t) if t > 0.0 => ((-t.log10()).ceil().max(0.0) as usize + 1).min(12),
            _ => 2,
        };
        format!("{:.decimals$}", self.crossing.estimate)
    }
}

/// What `skirmish sensitivity` fought: the unchanged cell and one cell per
/// step of each stat, as one run (cell 0 is the unchanged cell).
#[derive(Clone, Debug, PartialEq)]
pub struct SensitivityResults {
    /// Cell 0 is the unchanged cell; the others are its stepped copies.
    pub run: RunResults,
    /// How the scenario names the unchanged cell (`cell 3 (options.crit =
    /// none)`, or `base scenario`).
    pub base_label: String,
    /// Every stat stepped, in side, unit, field order.
    pub stats: Vec<StatInfo>,
    /// The stats not stepped because the scenario leaves them at their
    /// defaults (`--all` steps them): label and value, in the same order.
    pub unranked: Vec<(String, String)>,
    /// `--in FIELD`, when given.
    pub in_field: Option<String>,
}

/// One stat of a unit type as one side fields it.
#[derive(Clone, Debug, PartialEq)]
pub struct StatInfo {
    /// `raider hp`, `raider rifle attack`, `fighter (red) hp`.
    pub label: String,
    /// The dotted path of the field in the scenario file.
    pub path: String,
    /// Index of the side that fields it.
    pub side: usize,
    /// Stats with the same subject belong to one unit type as one side
    /// fields it.
    pub subject: usize,
    /// Its value in the unchanged cell.
    pub value: String,
    /// The step down and the step up: the cell and the value there, or why
    /// the step was not taken.
    pub down: Result<(usize, String), String>,
    pub up: Result<(usize, String), String>,
    /// Its place among the ruleset's health stats (equivalent points are
    /// stated in the first with a positive, well-measured effect).
    pub health: Option<usize>,
    /// The ruleset's reason why its step up may lower its side's win rate.
    pub contrary: Option<String>,
    /// A rule option (`options.NAME`): it belongs to no side (`side` and
    /// `subject` mean nothing) and is ranked in its own section.
    pub rule: bool,
    /// The stat is the field equivalent points were asked in (`--in`).
    pub preferred: bool,
}

/// What `skirmish exact` computed: each selected cell's fight enumerated
/// ([`crate::exact`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ExactResults {
    /// The scenario (its `fights` and `seed` mean nothing here).
    pub scenario: ScenarioInfo,
    /// The selected cells, in cell order.
    pub cells: Vec<ExactCell>,
}

/// One cell's exact answer.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactCell {
    /// 0-based cell index, as in the run's `cells.csv`.
    pub index: usize,
    /// This cell's value on each axis, as in [`CellResult::axis_values`].
    pub axis_values: Vec<String>,
    pub answer: crate::exact::Answer,
}

/// What `skirmish tactics` fought: every pair of the two sides' strategies,
/// as one run whose cell `i × second + j` is the first side's strategy `i`
/// against the second's `j` (common random numbers batch by batch).
#[derive(Clone, Debug, PartialEq)]
pub struct TacticsResults {
    pub run: RunResults,
    /// How the scenario names the cell the plays were fought in.
    pub base_label: String,
    /// The two sides, in the scenario's order.
    pub sides: [String; 2],
    /// Each side's play paths (empty: the side plays its own play only).
    pub paths: [Vec<String>; 2],
    /// Each side's strategies, labelled by their values joined by ` + `.
    pub strategies: [Vec<String>; 2],
    /// Each side's strategy that is the scenario's own play, when it is
    /// among the candidates.
    pub own: [Option<usize>; 2],
}
