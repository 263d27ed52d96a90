//! The arena: sessions between engines, refereed with the project's own rules.
//!
//! [`process`] speaks to engines (child processes over UCI or xboard, or built-in players
//! in-process), with every line landing in one inbox per worker; [`referee`] holds a referee per
//! family of games (today's alternating games first); [`pool`] plays a game list on worker
//! threads. `roger arena` runs tournaments: [`cli`] reads its arguments, [`openings`] and
//! [`schedule`] make the game list, [`tournament`] runs it with progress, SPRT and Ctrl-C,
//! [`stats`] computes Elo and SPRT, [`report`] (with [`report_v1`] for old files) and [`pgn`]
//! write the results. [`selfplay`] runs `roger selfplay` through the same pieces;
//! [`book`] makes opening books (`roger book`).

pub mod book;
pub mod cli;
pub mod clock;
mod engine_args;
pub mod openings;
pub mod pgn;
pub mod pool;
pub mod process;
pub mod record;
pub mod referee;
pub mod report;
pub mod report_v1;
pub mod schedule;
pub mod selfplay;
pub mod stats;
pub mod tournament;
