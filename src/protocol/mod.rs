//! The UCI-like text protocol: [`parse`] reads lines into commands, [`print`] formats replies,
//! and [`run`] is the loop that connects them to an [`Engine`](crate::engine::Engine).
//! `protocol.md` at the top of the repository is the contract.

pub mod parse;
pub mod play;
pub mod print;
mod uci;

pub use parse::{parse_command, Command, PositionStart, ProtocolError};
pub use uci::run;
