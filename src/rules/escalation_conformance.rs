//! `escalation`'s conformance table: every rule of its source text, how skirmish
//! models it, and the tests in `escalation_tests.rs` that pin it. Printed by
//! `skirmish rules escalation`; checked by `rules::conformance`'s tests.

use crate::rules::{Clause, Modelled};

pub const TABLE: &[Clause] = &[];
