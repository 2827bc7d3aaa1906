//! The report's Markdown documents, one module per file: `summary.md` of a
//! run, `diff.md` of a comparison, `balance.md` of a balance search, the
//! summaries of a sensitivity report and of an exact report. They
//! link to the tables and charts by the names in [`super::names`].
//! [`positions`] is a part, not a file: the text picture of units on a map
//! that `fights.md` shows (public, like this module, for whoever gathers
//! the positions to call).

pub(crate) mod balance_md;
pub(crate) mod diff_md;
pub(crate) mod exact_md;
pub(crate) mod fights_md;
pub mod positions;
pub(crate) mod sensitivity_md;
pub(crate) mod summary_md;
pub(crate) mod tactics_md;
