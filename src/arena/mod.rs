//! The arena: games between players, refereed with the project's own rules.
//!
//! [`local`] plays in-process games between [`Player`](crate::players::Player)s (quick matches
//! and tests); [`selfplay`] runs them by variant name for `roger selfplay`.
//!
//! `roger arena` runs tournaments between engine processes: [`cli`] reads its arguments,
//! [`engine_process`] speaks to each engine, [`referee`] plays one game by the rules,
//! [`openings`] and [`schedule`] make the game list, [`tournament`] plays it on a pool of
//! threads, [`stats`] computes Elo and SPRT, [`report`] and [`pgn`] write the results.

pub mod cli;
pub mod engine_process;
pub mod local;
pub mod openings;
pub mod pgn;
pub mod referee;
pub mod report;
pub mod schedule;
pub mod selfplay;
pub mod stats;
pub mod tournament;
