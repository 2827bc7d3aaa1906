//! The report's charts, one module per PNG file, drawn with plotters into
//! memory ([`style`]: colours, text, canvas and PNG encoding; [`fonts`]: the
//! embedded font; [`ranked`]: the frame the ranked charts share; `ground`:
//! a map's terrain and rulers, which [`map`] and [`falls`] draw on).
//!
//! [`map`] and [`falls`] are public, as is this module: the report draws
//! them only for a scenario with a map, and they take plain data (a
//! [`crate::map::Map`], side names, squares and counts), so the code that
//! gathers those can call them from wherever it lives.

pub(crate) mod balance;
pub(crate) mod diff;
pub(crate) mod effects;
pub mod falls;
pub(crate) mod fonts;
pub(crate) mod ground;
pub(crate) mod heatmap;
pub mod map;
pub(crate) mod payoff;
pub(crate) mod ranked;
pub(crate) mod rounds;
pub(crate) mod sensitivity;
pub(crate) mod style;
pub(crate) mod win_rate;
