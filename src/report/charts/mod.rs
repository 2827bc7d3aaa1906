//! The report's charts, one module per PNG file, drawn with plotters into
//! memory ([`style`]: colours, text, canvas and PNG encoding; [`fonts`]: the
//! embedded font; [`ranked`]: the frame the ranked charts share).

pub(crate) mod balance;
pub(crate) mod diff;
pub(crate) mod effects;
pub(crate) mod fonts;
pub(crate) mod heatmap;
pub(crate) mod ranked;
pub(crate) mod rounds;
pub(crate) mod sensitivity;
pub(crate) mod style;
pub(crate) mod win_rate;
