//! Naming matrix cells on the command line by their values,
//! `--where AXIS=VALUE` (once per axis): one reading of it for every
//! command that takes it on a compiled plan (`replay` wants exactly one
//! cell, `exact` every matching cell), and [`BaseCell`], the one cell
//! `sensitivity` and `tactics` start from, picked before anything compiles.

use clap::Args;

use crate::run::Plan;
use crate::scenario::CellChoice;

/// `--cell N | --where AXIS=VALUE...`: the one matrix cell a command works
/// in (`sensitivity` steps its stats, `tactics` fights its plays there).
#[derive(Args, Debug)]
pub(super) struct BaseCell {
    /// The matrix cell to work in (default: the scenario's baseline cell).
    #[arg(long, conflicts_with = "where_")]
    cell: Option<usize>,
    /// The cell by axis values, e.g. `--where options.crit=none`
    /// (repeatable; axes not named keep the baseline cell's value).
    #[arg(long = "where", id = "where_", value_name = "AXIS=VALUE", value_parser = parse_where)]
    where_: Vec<(String, String)>,
}

impl BaseCell {
    /// The cell as the scenario layer picks it.
    pub(super) fn choice(&self) -> CellChoice {
        match (self.cell, self.where_.is_empty()) {
            (Some(i), _) => CellChoice::Index(i),
            (None, false) => CellChoice::Where(self.where_.clone()),
            (None, true) => CellChoice::Baseline,
        }
    }
}

/// `--where AXIS=VALUE`.
fn parse_where(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((axis, value)) if !axis.trim().is_empty() => {
            Ok((axis.trim().to_owned(), value.trim().to_owned()))
        }
        _ => Err(format!(
            "expected AXIS=VALUE, e.g. `options.crit=none`, found `{text}`"
        )),
    }
}

/// The cells `--where` selects, and the axes it left open.
pub(super) struct Matching {
    /// Every cell with the named values, in cell order.
    pub(super) cells: Vec<usize>,
    /// The axes no `--where` names, each with its values, as
    /// `axis (a, b, c)`: what would narrow the choice.
    pub(super) open: Vec<String>,
}

/// The cells of `p` with every value `wheres` (`AXIS=VALUE` each) names:
/// every cell when `wheres` is empty. An error names an argument that is
/// not `AXIS=VALUE`, an axis the matrix does not have, a value its axis
/// does not take, and an axis named twice with different values.
pub(super) fn matching(p: &Plan, wheres: &[String]) -> Result<Matching, String> {
    let axes = &p.info.axes;
    let mut wanted: Vec<Option<&str>> = vec![None; axes.len()];
    for w in wheres {
        let Some((axis, value)) = w.split_once('=') else {
            return Err(format!("--where expects AXIS=VALUE, found `{w}`"));
        };
        let (axis, value) = (axis.trim(), value.trim());
        let Some(a) = axes.iter().position(|x| x == axis) else {
            return Err(if axes.is_empty() {
                format!("--where {axis}: this scenario has no matrix, so no axes")
            } else {
                format!(
                    "--where: `{axis}` is not an axis of this scenario's matrix (axes: {})",
                    axes.join(", ")
                )
            });
        };
        let values = axis_values(p, a);
        if !values.contains(&value) {
            return Err(format!(
                "--where {axis}: `{value}` is not one of its values (values: {})",
                values.join(", ")
            ));
        }
        if wanted[a].is_some_and(|v| v != value) {
            return Err(format!("--where names axis `{axis}` twice"));
        }
        wanted[a] = Some(value);
    }
    let cells = (0..p.cells.len())
        .filter(|&c| {
            wanted
                .iter()
                .zip(&p.cells[c])
                .all(|(w, v)| w.is_none_or(|w| w == v))
        })
        .collect();
    let open = axes
        .iter()
        .enumerate()
        .filter(|(a, _)| wanted[*a].is_none())
        .map(|(a, axis)| format!("{axis} ({})", axis_values(p, a).join(", ")))
        .collect();
    Ok(Matching { cells, open })
}

/// The values axis `a` takes, in matrix order.
fn axis_values(p: &Plan, a: usize) -> Vec<&str> {
    let mut values: Vec<&str> = Vec::new();
    for cell in &p.cells {
        let v = cell[a].as_str();
        if !values.contains(&v) {
            values.push(v);
        }
    }
    values
}

/// `cell 3 (options.crit = none, options.initiative = rolled)`, or
/// `cell 0 (base scenario)` without a matrix: a cell as the terminal
/// names it.
pub(super) fn describe(p: &Plan, cell: usize) -> String {
    let values: Vec<String> = p
        .info
        .axes
        .iter()
        .zip(&p.cells[cell])
        .map(|(axis, value)| format!("{axis} = {value}"))
        .collect();
    if values.is_empty() {
        format!("cell {cell} (base scenario)")
    } else {
        format!("cell {cell} ({})", values.join(", "))
    }
}
