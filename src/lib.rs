//! skirmish: a Monte Carlo combat-balance simulator for tabletop RPG designers.
//!
//! Layers, data flowing one way (see the README and DESIGN.md):
//! - [`scenario`]: TOML file → checked tree → matrix cells → compiled
//!   [`engine::Encounter`]s. All validation happens here.
//! - [`engine`] + [`rules`]: the kernel. Generic over the ruleset, no I/O, no
//!   allocation per fight, integer [`engine::Tally`]s out.
//! - [`run`]: the parallel, deterministic runner (rayon over cells × batches).
//! - [`map`]: the battlefield in two dimensions (issue 29): terrain, squares,
//!   distances, paths and sight, computed once per compiled cell where they
//!   depend only on the terrain.
//! - [`journal`]: the durable record of finished batches (resume, shards,
//!   merge), aggregated with polars.
//! - [`analysis`]: pure statistics, `Tally` → summaries.
//! - [`replay`]: one fight of a run fought again and told event by event
//!   (the kernel's observer, [`engine::observe`], supplies the events).
//! - [`report`]: polars tables, plotters charts, markdown; atomic writes.
//! - [`cli`]: the command line (clap), progress bars (indicatif).
pub mod analysis;
pub mod cli;
pub mod dice;
pub mod engine;
pub mod exact;
pub mod files;
pub mod journal;
pub mod map;
mod paths;
pub mod process;
pub mod replay;
pub mod report;
pub mod results;
pub mod rules;
pub mod run;
pub mod scenario;
#[doc(hidden)]
pub mod testkit;
