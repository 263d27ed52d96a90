//! The arena: games between players, refereed with the project's own rules.
//!
//! [`local`] plays in-process games between [`Player`](crate::players::Player)s (quick matches
//! and tests); [`selfplay`] runs them by variant name for `roger selfplay`.

pub mod local;
pub mod selfplay;
pub mod stats;
