//! The file names of every report skirmish writes, in one leaf module that
//! every part of the report layer may import: documents link to charts and
//! tables by these names, and the assembling modules (`report`, `diff`,
//! `balance`) give them to the files they render, without any part
//! importing another over a constant.

/// File name of the per-cell table.
pub const CELLS_CSV: &str = "cells.csv";
/// File name of the fight-length histogram.
pub const ROUNDS_CSV: &str = "rounds.csv";
/// File name of the win-rate chart.
pub const WIN_RATE_PNG: &str = "win_rate.png";
/// File name of the fight-length chart.
pub const ROUNDS_PNG: &str = "rounds.png";
/// File name of the map's picture (scenarios with a map).
pub const MAP_PNG: &str = "map.png";
/// File name of the heat map of where units fell (scenarios with a map).
pub const FALLS_PNG: &str = "falls.png";
/// File name of the play check's table (a run's other plays).
pub const PLAYS_CSV: &str = "plays.csv";
/// File name of the summary.
pub const SUMMARY_MD: &str = "summary.md";
/// File name of the fights told turn by turn (linked from the summary).
pub const FIGHTS_MD: &str = "fights.md";

/// File names of a diff report.
pub const DIFF_MD: &str = "diff.md";
pub const DIFF_CSV: &str = "diff.csv";
pub const DIFF_PNG: &str = "diff.png";

/// File names of a balance report.
pub const PROBES_CSV: &str = "probes.csv";
pub const BALANCE_MD: &str = "balance.md";
pub const BALANCE_PNG: &str = "balance.png";

/// File names of a sensitivity report (its summary is [`SUMMARY_MD`]).
pub const SENSITIVITY_CSV: &str = "sensitivity.csv";
pub const SENSITIVITY_PNG: &str = "sensitivity.png";

/// File names of a tactics report (its summary is [`SUMMARY_MD`]).
pub const PAYOFF_CSV: &str = "payoff.csv";
pub const STRATEGIES_CSV: &str = "strategies.csv";
pub const PAYOFF_PNG: &str = "payoff.png";
