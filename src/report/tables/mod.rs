//! The report's tables: polars frames written as CSV with fixed decimals
//! ([`frame`]), one module per CSV file.

pub(crate) mod cells_csv;
pub(crate) mod diff_csv;
pub(crate) mod exact_cells_csv;
pub(crate) mod exact_rounds_csv;
pub(crate) mod frame;
pub(crate) mod payoff_csv;
pub(crate) mod plays_csv;
pub(crate) mod probes_csv;
pub(crate) mod rounds_csv;
pub(crate) mod sensitivity_csv;
