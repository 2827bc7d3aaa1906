//! Scenario files: loading, the variant matrix, and compiling each cell into
//! an [`Encounter`](crate::engine::Encounter) for the kernel.
//!
//! Data flow: file → [`doc`] tree with spans → [`Scenario`] (top-level keys
//! checked, axes read) → [`Scenario::cells`] (one tree per combination of
//! axis values) → [`compile`] per cell. All validation happens here, before
//! any fight, so the kernel never fails and a bad file writes nothing.

use std::path::Path;

mod balance;
pub mod compile;
pub mod doc;
pub mod error;
pub mod map;
mod matrix;
mod play_check;
mod plays;
pub mod schema;
mod sensitivity;
mod unused;

pub use balance::BalanceAxis;
pub use doc::{Node, Source, Table, Value};
pub use error::{Place, ScenarioError};
pub use matrix::{Axis, Cell, BASELINE, MAX_CELLS};
pub use play_check::Trial as PlayTrial;
pub use plays::{Game, SidePlays, GROUP_PLAYS};
use schema::{Ctx, Field, Fields, Kind, Lit};
pub use sensitivity::{CellChoice, Selection, Sensitivity, Stat};

/// Most fights a run may fight, all cells together (per cell too, then).
///
/// A run's memory and journal are bounded by its number of cells, not of
/// fights (batches are folded into at most 4096 groups per cell, see
/// [`crate::journal`]), so this is only a sanity bound: 10^15 fights is
/// years of work for a machine that fights a million a second, and keeps
/// every count far from overflowing 64 bits and every batch's stream
/// distinct. Bigger requests are refused before any work (see
/// [`check_run_size`]).
pub const MAX_FIGHTS: i64 = 1_000_000_000_000_000;

/// Longest scenario `name`: file names are at most 255 bytes on common
/// file systems, and the longest name skirmish derives from it (a shard's
/// journal being rewritten, `<name>.shard-1000000-of-1000000.journal.tmp-<pid>`)
/// adds 48; a longer name would validate and then fail at run time.
pub const MAX_NAME: usize = 200;

/// The scenario's own top-level keys (besides the tables `options`,
/// `weapons`, `units`, `sides` and `matrix`).
pub const TOP_FIELDS: &[Field] = &[
    Field::new(
        "name",
        Kind::Text,
        None,
        "report folder name: reports/<name>/ (letters, digits, - and _)",
    ),
    Field::new(
        "description",
        Kind::Text,
        Some(Lit::Str("")),
        "one line on what the scenario asks",
    ),
    Field::new(
        "rules",
        Kind::Choice(crate::rules::NAMES),
        None,
        "the ruleset",
    ),
    Field::new(
        "fights",
        Kind::Int {
            min: 1,
            max: MAX_FIGHTS,
        },
        Some(Lit::Int(10_000)),
        "fights per matrix cell (--fights overrides)",
    ),
    Field::new(
        "seed",
        Kind::Int {
            min: 0,
            max: i64::MAX,
        },
        Some(Lit::Int(1)),
        "random seed (--seed overrides)",
    ),
    MAX_ROUNDS_FIELD,
    Field::new(
        "precision",
        Kind::Float { min: 0.0, max: 0.5 },
        Some(Lit::Float(0.0)),
        "target 95% half-width of every win rate and of every difference from the baseline: \
         keep adding batches to a cell until it is reached or the cell has `max_fights` \
         fights; `fights` is then the starting size (0 = off; --precision overrides)",
    ),
    Field::new(
        "max_fights",
        Kind::Int {
            min: 1,
            max: MAX_FIGHTS,
        },
        Some(Lit::Int(10_000_000)),
        "with `precision`: most fights per cell, rounded up to whole batches \
         (--max-fights overrides)",
    ),
];

/// `max_rounds`, on its own: the one top-level key a matrix may vary.
const MAX_ROUNDS_FIELD: Field = Field::new(
    "max_rounds",
    Kind::Int {
        min: 1,
        max: crate::engine::MAX_ROUNDS as i64,
    },
    Some(Lit::Int(100)),
    "a fight still running after this many rounds is a draw (may be a matrix axis)",
);

/// The tables a scenario may have.
pub const TABLES: &[&str] = &[
    "options", "weapons", "units", "sides", "matrix", "map", "plays",
];

/// A loaded scenario: the checked tree plus its top-level settings and axes.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub source: Source,
    /// The file's tree; `matrix` removed (its axes are in `axes`).
    pub root: Table,
    pub name: String,
    pub description: String,
    pub rules: String,
    pub fights: u64,
    pub seed: u64,
    pub max_rounds: u32,
    pub axes: Vec<Axis>,
    /// Index of the baseline cell (`[matrix] baseline`, else 0).
    pub baseline: usize,
    /// Target 95% half-width (`precision`); `None` when off.
    pub precision: Option<f64>,
    /// Most fights per cell with a precision target.
    pub max_fights: u64,
    /// Each side's candidate plays (`[plays.SIDE]`), for `skirmish tactics`;
    /// empty without the table.
    pub plays: Vec<SidePlays>,
}

/// Read and check a scenario file (syntax, top-level keys, matrix shape).
/// Cells are compiled separately (see [`compile`]).
pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
    let shown = path.display().to_string();
    if path.is_dir() {
        return Err(ScenarioError::IsDirectory { path: shown });
    }
    let text = std::fs::read_to_string(path).map_err(|source| ScenarioError::Read {
        path: shown.clone(),
        source,
    })?;
    parse(Source { path: shown, text })
}

/// Check a scenario given as text (`path` is only used in messages).
///
/// Windows line ends (CRLF) are read as plain newlines, as TOML allows, so a
/// scenario saved on Windows gives byte-identical reports: without this, a
/// multi-line string (a `description`) would carry its `\r`s into
/// `summary.md`, and `run --check` would fail on the other platform. Line
/// and column numbers are unchanged (the `\r` ended each line).
pub fn parse(source: Source) -> Result<Scenario, ScenarioError> {
    let source = Source {
        text: if source.text.contains("\r\n") {
            source.text.replace("\r\n", "\n")
        } else {
            source.text
        },
        path: source.path,
    };
    let mut root = doc::parse(&source)?;
    let ctx = Ctx {
        source: &source,
        cell: None,
    };
    let matrix = root
        .entries
        .iter()
        .position(|e| e.key == "matrix")
        .map(|i| root.entries.remove(i));
    let axes = match &matrix {
        Some(m) => matrix::read_axes(ctx, &m.node, "matrix")?,
        None => Vec::new(),
    };
    let baseline_node = matrix.as_ref().and_then(|m| match &m.node.value {
        Value::Table(t) => t.get(matrix::BASELINE),
        _ => None,
    });
    let baseline = matrix::read_baseline(ctx, baseline_node, &axes)?;
    let plays_node = root
        .entries
        .iter()
        .position(|e| e.key == "plays")
        .map(|i| root.entries.remove(i).node);

    // Top-level keys: the declared scalars plus the known tables.
    let mut scalars = Table::default();
    for entry in &root.entries {
        if TABLES.contains(&entry.key.as_str()) {
            if !matches!(entry.node.value, Value::Table(_)) {
                return Err(ctx.error(
                    &entry.node.span,
                    &entry.key,
                    format!("expected a table, found {}", entry.node.value.type_name()),
                ));
            }
        } else if TOP_FIELDS.iter().any(|f| f.name == entry.key) {
            scalars.entries.push(entry.clone());
        } else {
            let names = TOP_FIELDS
                .iter()
                .map(|f| f.name)
                .chain(TABLES.iter().copied());
            let hint = match error::suggest(&entry.key, names.clone()) {
                Some(s) => format!("; did you mean `{s}`?"),
                None => String::new(),
            };
            return Err(ctx.error(
                &entry.key_span,
                &entry.key,
                format!(
                    "unknown key `{}`{hint} (valid keys: {})",
                    entry.key,
                    error::list_choices(names)
                ),
            ));
        }
    }
    let scalars_node = Node {
        value: Value::Table(scalars),
        span: 0..0,
    };
    let top = Fields::check(ctx, &scalars_node, &[TOP_FIELDS], "")?;
    let name = text(&top, "name")?;
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(top.error(
            "name",
            format!("`{name}` cannot be a report folder name: use letters, digits, `-` and `_`"),
        ));
    }
    if name.len() > MAX_NAME {
        return Err(top.error(
            "name",
            format!(
                "expected a name of at most {MAX_NAME} characters (it names the report \
                 folder and the run's journal), found {}",
                name.len()
            ),
        ));
    }
    let description = text(&top, "description")?;
    let rules = crate::rules::NAMES[top.choice("rules")?].to_string();
    let fights = top.int("fights")? as u64;
    let seed = top.int("seed")? as u64;
    let max_rounds = top.int("max_rounds")? as u32;
    let precision = Some(top.float("precision")?).filter(|&p| p > 0.0);
    let max_fights = top.int("max_fights")? as u64;
    // `max_fights` only caps a precision target: without one it would be
    // silently ignored.
    if precision.is_none() && root.entries.iter().any(|e| e.key == "max_fights") {
        return Err(top.error(
            "max_fights",
            "`max_fights` caps a precision target, and this scenario has none (`precision` \
             is 0 or absent): set `precision`, or remove `max_fights`"
                .to_owned(),
        ));
    }
    for axis in &axes {
        if let Some(why) = not_an_axis(&axis.path) {
            return Err(ctx.error(
                &axis.span,
                &format!("matrix.\"{}\"", axis.path),
                format!("`{}` cannot be a matrix axis: {why}", axis.path),
            ));
        }
    }
    drop(top);
    let plays = match &plays_node {
        Some(node) => plays::read(ctx, node, &root, &rules)?,
        None => Vec::new(),
    };
    let scenario = Scenario {
        root,
        name,
        description,
        rules,
        fights,
        seed,
        max_rounds,
        axes,
        baseline,
        precision,
        max_fights,
        plays,
        source,
    };
    // The file's own sizes must fit too (`validate` says so; a run checks
    // again with its command-line overrides).
    check_run_size(
        &scenario.source.path,
        scenario.cell_count(),
        fights,
        scenario.precision.map(|_| max_fights),
    )?;
    Ok(scenario)
}

/// Why a top-level key cannot be a matrix axis, or `None` if it can.
///
/// Every top-level key either varies per cell as documented (`max_rounds`:
/// "how often do fights time out?") or is a setting of the whole run, which
/// a matrix would silently ignore: those are refused here, with the reason.
pub fn not_an_axis(path: &str) -> Option<&'static str> {
    Some(match path {
        "name" => "it names the report folder, which every cell shares",
        "rules" => {
            "every cell shares the scenario's ruleset; compare rulesets with one scenario \
             file per ruleset"
        }
        "description" => "every cell shares the scenario's description",
        "fights" => {
            "every cell fights the same number of fights, batch by batch, so that cells share \
             random numbers; set `fights` (or --fights) for the run, or use `precision` to \
             give imprecise cells more fights"
        }
        "seed" => {
            "every cell draws from the run's seed, which is what pairs cells for comparisons; \
             to compare seeds, run twice with --seed and compare with `skirmish diff`"
        }
        "precision" | "max_fights" => {
            "it decides how long the whole run goes on, not what a cell simulates; set it \
             once for the run (or with --precision / --max-fights)"
        }
        _ => return None,
    })
}

/// Refuse a run too big to ever finish: at most
/// [`MAX_FIGHTS`] fights, all `cells` together, counting `max_fights` per
/// cell when a precision target may take a cell that far. Checked before any
/// work, so nothing is simulated or written.
pub fn check_run_size(
    file: &str,
    cells: usize,
    fights: u64,
    max_fights: Option<u64>,
) -> Result<(), ScenarioError> {
    let (per_cell, what) = match max_fights {
        Some(cap) => (
            fights.max(cap),
            "`max_fights`, the cap of the precision target",
        ),
        None => (fights, "`fights`"),
    };
    let total = per_cell.saturating_mul(cells as u64);
    if total <= MAX_FIGHTS as u64 {
        return Ok(());
    }
    Err(ScenarioError::Invalid {
        at: Place::file(file),
        message: format!(
            "{cells} cell{} × {per_cell} fights per cell ({what}) is {total} fights; a run \
             fights at most {MAX_FIGHTS} (years of work even on a cluster): ask for \
             fewer fights per cell or fewer cells",
            if cells == 1 { "" } else { "s" },
        ),
    })
}

/// A cell's round cap: `max_rounds` may be a matrix axis.
pub(crate) fn cell_max_rounds(ctx: Ctx, root: &Table) -> Result<u32, ScenarioError> {
    let node = Node {
        value: Value::Table(Table {
            entries: root
                .entries
                .iter()
                .filter(|e| e.key == "max_rounds")
                .cloned()
                .collect(),
        }),
        span: 0..0,
    };
    let top = Fields::check(ctx, &node, &[&[MAX_ROUNDS_FIELD]], "")?;
    Ok(top.int("max_rounds")? as u32)
}

fn text(f: &Fields, name: &str) -> Result<String, ScenarioError> {
    match f.node(name) {
        None => Ok(String::new()),
        Some(node) => match &node.value {
            Value::Str(s) => Ok(s.clone()),
            other => Err(f.error(
                name,
                format!("expected a string, found {}", other.type_name()),
            )),
        },
    }
}

impl Scenario {
    /// Error context for the base file.
    pub fn ctx(&self) -> Ctx<'_> {
        Ctx {
            source: &self.source,
            cell: None,
        }
    }

    /// Number of cells: the product of the axis lengths (1 with no matrix).
    pub fn cell_count(&self) -> usize {
        self.axes.iter().map(|a| a.values.len()).product()
    }

    /// Every cell, in matrix order (last axis varies fastest).
    pub fn cells(&self) -> Result<Vec<Cell>, ScenarioError> {
        matrix::cells(self)
    }
}
