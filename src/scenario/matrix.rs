//! The variant matrix: `[matrix]` maps dotted paths to lists of values; every
//! combination of values is one cell, which is the base scenario with those
//! values put in at those paths (and then validated like any scenario).

use super::doc::{Node, Span, Table, Value};
use super::error::{list_choices, suggest, ScenarioError};
use super::schema::Ctx;
use super::Scenario;

/// Most cells a matrix may expand to.
pub const MAX_CELLS: usize = 10_000;

/// One matrix axis.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    /// Dotted path into the scenario, e.g. `sides.defenders.rifleman.cover`.
    pub path: String,
    /// Where the axis is written.
    pub span: Span,
    pub values: Vec<Node>,
}

/// One combination of axis values, as a full scenario tree.
#[derive(Clone, Debug)]
pub struct Cell {
    /// 0-based, in matrix order.
    pub index: usize,
    /// Index into each axis's values.
    pub choice: Vec<usize>,
    /// Each axis's value, rendered for reports.
    pub axis_values: Vec<String>,
    /// `cell 3 (a = x, b = y)`, for error messages.
    pub label: String,
    pub root: Table,
    /// Spans of the values put in (errors there belong to the cell).
    pub spans: Vec<Span>,
    /// The cell's round cap: the scenario's `max_rounds`, unless an axis
    /// varies it.
    pub max_rounds: u32,
}

/// The key of the optional baseline table inside `[matrix]`.
pub const BASELINE: &str = "baseline";

/// The baseline cell: the first value of each axis, unless `[matrix]` has a
/// `baseline = { "path" = value, ... }` table naming other values (axes it
/// leaves out keep their first value). Returns the cell index.
pub(super) fn read_baseline(
    ctx: Ctx,
    node: Option<&Node>,
    axes: &[Axis],
) -> Result<usize, ScenarioError> {
    let Some(node) = node else {
        return Ok(0);
    };
    let path = format!("matrix.{BASELINE}");
    let Value::Table(table) = &node.value else {
        return Err(ctx.error(
            &node.span,
            &path,
            format!(
                "expected a table of `\"axis path\" = value`, found {}",
                node.value.type_name()
            ),
        ));
    };
    let mut choice = vec![0usize; axes.len()];
    for entry in &table.entries {
        let key = format!("{path}.\"{}\"", entry.key);
        let Some(a) = axes.iter().position(|a| a.path == entry.key) else {
            return Err(ctx.error(
                &entry.key_span,
                &key,
                format!(
                    "`{}` is not an axis of the matrix (axes: {})",
                    entry.key,
                    list_choices(axes.iter().map(|a| a.path.as_str()))
                ),
            ));
        };
        let wanted = entry.node.value.render();
        let rendered: Vec<String> = axes[a].values.iter().map(|v| v.value.render()).collect();
        let Some(i) = rendered.iter().position(|v| *v == wanted) else {
            return Err(ctx.error(
                &entry.node.span,
                &key,
                format!(
                    "the baseline value `{wanted}` is not one of this axis's values (valid: {})",
                    list_choices(rendered.iter().map(String::as_str))
                ),
            ));
        };
        choice[a] = i;
    }
    // Mixed radix, last axis fastest (as in `cells`).
    Ok(axes
        .iter()
        .zip(&choice)
        .fold(0, |index, (axis, &c)| index * axis.values.len() + c))
}

/// Read the `[matrix]` table's axes (every entry but `baseline`).
/// Read the axes of `[matrix]` (`table` = `"matrix"`), or of a table of the
/// same shape (`plays.SIDE`), whose name errors then give.
pub(super) fn read_axes(
    ctx: Ctx,
    node: &Node,
    table_name: &str,
) -> Result<Vec<Axis>, ScenarioError> {
    let Value::Table(table) = &node.value else {
        return Err(ctx.error(
            &node.span,
            table_name,
            format!(
                "expected a table of `\"path\" = [values]`, found {}",
                node.value.type_name()
            ),
        ));
    };
    let mut axes = Vec::new();
    let mut cells: usize = 1;
    // `baseline` is a key of `[matrix]` only.
    let is_matrix = table_name == "matrix";
    for entry in table
        .entries
        .iter()
        .filter(|e| !(is_matrix && e.key == BASELINE))
    {
        let path = format!("{table_name}.\"{}\"", entry.key);
        let Value::Array(values) = &entry.node.value else {
            return Err(ctx.error(
                &entry.node.span,
                &path,
                format!(
                    "expected a list of values for this axis, found {} (write `\"{}\" = [a, b]`)",
                    entry.node.value.type_name(),
                    entry.key
                ),
            ));
        };
        if values.is_empty() {
            return Err(ctx.error(
                &entry.node.span,
                &path,
                "an axis needs at least one value; this one is empty",
            ));
        }
        // A value given twice would make two identical cells, compared
        // with each other as if they were variants.
        let rendered: Vec<String> = values.iter().map(|v| v.value.render()).collect();
        if let Some((i, value)) = rendered
            .iter()
            .enumerate()
            .find(|(i, v)| rendered[..*i].contains(v))
        {
            return Err(ctx.error(
                &values[i].span,
                &path,
                format!("the value `{value}` is given twice; each value of an axis makes one cell"),
            ));
        }
        if entry.key.split('.').any(str::is_empty) {
            return Err(ctx.error(
                &entry.key_span,
                &path,
                "a matrix path is dot-separated keys, e.g. `options.crit`",
            ));
        }
        cells = cells.saturating_mul(values.len());
        if cells > MAX_CELLS {
            return Err(ctx.error(
                &entry.key_span,
                &path,
                format!("the matrix expands to more than {MAX_CELLS} cells"),
            ));
        }
        axes.push(Axis {
            path: entry.key.clone(),
            span: entry.key_span.clone(),
            values: values.clone(),
        });
    }
    Ok(axes)
}

/// Expand the matrix.
pub(super) fn cells(scenario: &Scenario) -> Result<Vec<Cell>, ScenarioError> {
    let ctx = scenario.ctx();
    let axes = &scenario.axes;
    let total = scenario.cell_count();
    let mut out = Vec::with_capacity(total);
    for index in 0..total {
        // Mixed-radix digits, last axis fastest.
        let mut choice = vec![0; axes.len()];
        let mut rest = index;
        for (a, axis) in axes.iter().enumerate().rev() {
            choice[a] = rest % axis.values.len();
            rest /= axis.values.len();
        }
        let mut root = scenario.root.clone();
        let mut spans = Vec::with_capacity(axes.len());
        let mut parts = Vec::with_capacity(axes.len());
        for (axis, &c) in axes.iter().zip(&choice) {
            let value = &axis.values[c];
            put(ctx, &mut root, axis, value)?;
            spans.push(value.span.clone());
            parts.push(format!("{} = {}", axis.path, value.value.render()));
        }
        let label = if parts.is_empty() {
            format!("cell {index}")
        } else {
            format!("cell {index} ({})", parts.join(", "))
        };
        let max_rounds = if axes.iter().any(|a| a.path == "max_rounds") {
            let cell_ctx = Ctx {
                source: ctx.source,
                cell: Some(&label),
            };
            super::cell_max_rounds(cell_ctx, &root)?
        } else {
            scenario.max_rounds
        };
        out.push(Cell {
            max_rounds,
            index,
            axis_values: axes
                .iter()
                .zip(&choice)
                .map(|(a, &c)| a.values[c].value.render())
                .collect(),
            choice,
            label,
            root,
            spans,
        });
    }
    Ok(out)
}

/// Put `value` at the axis path. Every table on the way must exist, except
/// `options`, which a scenario may leave out; the last key may be new (a
/// field left at its default), and is checked when the cell is compiled.
fn put(ctx: Ctx, root: &mut Table, axis: &Axis, value: &Node) -> Result<(), ScenarioError> {
    let segments: Vec<&str> = axis.path.split('.').collect();
    let (last, parents) = segments.split_last().expect("paths are non-empty");
    let mut table = root;
    let mut walked = String::new();
    for seg in parents {
        if table.get(seg).is_none() && walked.is_empty() && *seg == "options" {
            table.set(
                seg,
                Node {
                    value: Value::Table(Table::default()),
                    span: axis.span.clone(),
                },
            );
        }
        let keys: Vec<String> = table.keys().map(str::to_string).collect();
        let here = if walked.is_empty() {
            "the scenario".to_string()
        } else {
            format!("`{walked}`")
        };
        match table.get_mut(seg).map(|n| &mut n.value) {
            Some(Value::Table(t)) => table = t,
            Some(other) => {
                return Err(ctx.error(
                    &axis.span,
                    &axis.path,
                    format!(
                        "matrix path `{}` does not exist: {here}.{seg} is {}, not a table",
                        axis.path,
                        other.type_name()
                    ),
                ))
            }
            None => {
                let hint = match suggest(seg, keys.iter().map(String::as_str)) {
                    Some(s) => format!("; did you mean `{s}`?"),
                    None => String::new(),
                };
                return Err(ctx.error(
                    &axis.span,
                    &axis.path,
                    format!(
                        "matrix path `{}` does not exist: {here} has no `{seg}`{hint} (it has {})",
                        axis.path,
                        list_choices(keys.iter().map(String::as_str))
                    ),
                ));
            }
        }
        if !walked.is_empty() {
            walked.push('.');
        }
        walked.push_str(seg);
    }
    table.set(last, value.clone());
    Ok(())
}
