//! Self-play data that keeps growing (docs/data.md): the game-data file format, the stored games
//! played back into positions, and `roger data` (count, merge, de-duplicate, split off a
//! held-out set, convert text files).

pub mod command;
pub mod convert;
pub mod format;
pub mod replay;
pub mod samples;
