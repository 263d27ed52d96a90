//! Fuzzers of our own, run by `roger fuzz ...` and by short seeded passes in `cargo test`
//! (docs/fuzzing.md).

pub mod protocol;
pub mod rules;
