//! The arena: games between players, refereed with the project's own rules.
//!
//! [`local`] plays in-process games between [`Player`](crate::players::Player)s (quick matches
//! and tests).

pub mod local;
