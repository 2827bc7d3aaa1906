//! Text shared by every output: fixed-decimal numbers, cell labels built from
//! axis values, and the names of axes. Defined once so that the CSV files,
//! summary.md and the charts always describe a cell the same way.

use crate::results::{CellResult, ScenarioInfo};

/// Decimal places of rates and their interval bounds.
pub(crate) const RATE_DECIMALS: usize = 4;
/// Decimal places of means (rounds, survivors, damage, counters).
pub(crate) const MEAN_DECIMALS: usize = 3;

/// Most decimals an exact value is printed with.
pub(crate) const EXACT_MAX_DECIMALS: usize = 12;

/// Decimals of values whose rounding error is at most `error` (absolute):
/// the most, up to [`EXACT_MAX_DECIMALS`], whose last place (10^-d) is
/// still at least ten times the error, so that no printed digit is
/// rounding noise and the last one is off by at most one unit. 0 when
/// even whole numbers are not that good (or the error is not a number).
pub(crate) fn decimals_good_to(error: f64) -> usize {
    (0..=EXACT_MAX_DECIMALS)
        .rev()
        .find(|&d| 10f64.powi(-(d as i32)) >= 10.0 * error)
        .unwrap_or(0)
}

/// A rounding bound with two significant digits: `2.2e-15`.
pub(crate) fn scientific(value: f64) -> String {
    format!("{value:.1e}")
}

/// Separator between a cell's axis values in compact labels.
const VALUE_SEPARATOR: &str = " / ";

/// `value` with exactly `decimals` decimal places, never `-0.000`: a value that
/// rounds to zero is printed without a sign, so a re-run whose tiny negative
/// rounding error flips sign cannot change the file.
pub(crate) fn fixed(value: f64, decimals: usize) -> String {
    let text = format!("{value:.decimals$}");
    match text.strip_prefix('-') {
        Some(rest) if rest.bytes().all(|b| b == b'0' || b == b'.') => rest.to_owned(),
        _ => text,
    }
}

/// `fixed` with an explicit `+` on positive values (for differences).
pub(crate) fn signed(value: f64, decimals: usize) -> String {
    let text = fixed(value, decimals);
    if text.starts_with('-') || text.bytes().all(|b| b == b'0' || b == b'.') {
        text
    } else {
        format!("+{text}")
    }
}

/// A cell's axis values, compactly: `half / d20+dex`; the scenario name's
/// stand-in `base scenario` when the matrix has no axes.
pub(crate) fn values_label(values: &[String]) -> String {
    if values.is_empty() {
        "base scenario".to_owned()
    } else {
        values.join(VALUE_SEPARATOR)
    }
}

/// `cell 3: half / d20+dex`.
pub(crate) fn cell_label(cell: &CellResult) -> String {
    cell_label_of(cell.index, &cell.axis_values)
}

/// [`cell_label`] of the cell numbered `index` with `values`.
pub(crate) fn cell_label_of(index: usize, values: &[String]) -> String {
    format!("cell {index}: {}", values_label(values))
}

/// [`cell_label`] in at most `max` characters. When it is longer, the
/// longest axis values give way first, each keeping its start and its end
/// around a `…` (`{initiative = alte…opening = second}`), so every axis
/// keeps a say and values that differ only at their end (a table of
/// options) stay apart; a label still too long is cut at its end. Of the
/// cell numbered `index` with `values`.
pub(crate) fn cell_label_within(index: usize, values: &[String], max: usize) -> String {
    let head = format!("cell {index}: ");
    let sep = VALUE_SEPARATOR.chars().count() * values.len().saturating_sub(1);
    let mut lengths: Vec<usize> = values.iter().map(|v| v.chars().count()).collect();
    // Shortest a value is made: its first and last characters and the `…`.
    const SHORTEST: usize = 5;
    while head.chars().count() + sep + lengths.iter().sum::<usize>() > max {
        let Some(i) = (0..lengths.len())
            .filter(|&i| lengths[i] > SHORTEST)
            .max_by_key(|&i| (lengths[i], std::cmp::Reverse(i)))
        else {
            break;
        };
        lengths[i] -= 1;
    }
    let shown: Vec<String> = values
        .iter()
        .zip(&lengths)
        .map(|(v, &n)| shorten_middle(v, n))
        .collect();
    truncate(&format!("{head}{}", values_label(&shown)), max)
}

/// `text` in at most `max` characters, cut in the middle (`…`) with a
/// little more of its end than of its start kept.
fn shorten_middle(text: &str, max: usize) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= max {
        return text.to_owned();
    }
    let kept = max.saturating_sub(1);
    let start = kept / 2;
    let end = kept - start;
    let head: String = chars[..start].iter().collect();
    let tail: String = chars[chars.len() - end..].iter().collect();
    format!("{head}…{tail}")
}

/// The axes' dotted paths, joined like the values in [`values_label`], so a
/// chart's axis title reads as the header of its tick labels.
pub(crate) fn axes_title(axes: &[String]) -> String {
    axes.join(VALUE_SEPARATOR)
}

/// The distinct values of axis `axis`, in order of first appearance (which is
/// the scenario's order, since the matrix is expanded in order).
pub(crate) fn axis_levels(cells: &[CellResult], axis: usize) -> Vec<&str> {
    axis_levels_of(cells.iter().map(|c| &c.axis_values), axis)
}

/// [`axis_levels`] of cells given by their axis values.
pub(crate) fn axis_levels_of<'a>(
    cells: impl Iterator<Item = &'a Vec<String>>,
    axis: usize,
) -> Vec<&'a str> {
    let mut levels: Vec<&str> = Vec::new();
    for value in cells.filter_map(|values| values.get(axis)) {
        if !levels.contains(&value.as_str()) {
            levels.push(value);
        }
    }
    levels
}

/// Side names in side order.
pub(crate) fn side_names(info: &ScenarioInfo) -> Vec<&str> {
    info.sides.iter().map(|s| s.name.as_str()).collect()
}

/// `text` cut to at most `max` characters, with `…` marking the cut.
pub(crate) fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_owned()
    } else {
        let kept: String = text.chars().take(max.saturating_sub(1)).collect();
        format!("{kept}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_never_prints_negative_zero() {
        assert_eq!(fixed(0.12345, 4), "0.1235");
        assert_eq!(fixed(-0.00001, 4), "0.0000");
        assert_eq!(fixed(-0.0, 3), "0.000");
        assert_eq!(fixed(-0.5, 3), "-0.500");
        assert_eq!(fixed(2.0, 0), "2");
        assert_eq!(fixed(-0.2, 0), "0");
    }

    #[test]
    fn signed_marks_positive_only() {
        assert_eq!(signed(0.25, 4), "+0.2500");
        assert_eq!(signed(-0.25, 4), "-0.2500");
        assert_eq!(signed(-0.00001, 4), "0.0000");
    }

    #[test]
    fn decimals_keep_ten_times_the_error_below_the_last_place() {
        assert_eq!(decimals_good_to(0.0), 12);
        assert_eq!(decimals_good_to(4e-16), 12);
        assert_eq!(decimals_good_to(9e-14), 12);
        assert_eq!(decimals_good_to(1.1e-13), 11);
        assert_eq!(decimals_good_to(3e-9), 7);
        assert_eq!(decimals_good_to(0.5), 0);
        assert_eq!(decimals_good_to(f64::NAN), 0);
    }

    #[test]
    fn labels() {
        assert_eq!(values_label(&[]), "base scenario");
        assert_eq!(values_label(&["half".into(), "d20".into()]), "half / d20");
        assert_eq!(truncate("abcdef", 4), "abc…");
        assert_eq!(truncate("abc", 4), "abc");
        assert_eq!(shorten_middle("abcdefgh", 5), "ab…gh");
        assert_eq!(shorten_middle("abcdefgh", 6), "ab…fgh");
        assert_eq!(shorten_middle("abc", 5), "abc");
    }
}
