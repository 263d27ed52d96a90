//! Small pieces that every layer may use: the crate's one seeded generator, today's date and
//! the quoting of outside text in messages.
//! Nothing here imports from the rest of the crate.

pub mod date;
pub mod priority;
pub mod rng;
pub mod text;

pub use rng::Rng;
