//! `thrum`'s conformance table: every rule of its source text, how skirmish
//! models it, and the tests in `thrum_tests.rs` that pin it. Printed by
//! `skirmish rules thrum`; checked by `rules::conformance`'s tests.

use crate::rules::{Clause, Modelled};

pub const TABLE: &[Clause] = &[];
