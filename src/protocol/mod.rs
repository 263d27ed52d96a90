//! The UCI-like text protocol: [`parse`] reads lines into commands, [`print`](mod@print)
//! formats replies, and the [`session`] is the one read loop that connects them to an agent
//! (Roger's [`Engine`](crate::engine::Engine), or a reference player) through the current game
//! family's [`dialect`]. `protocol.md` at the top of the repository is the contract.

pub mod dialect;
pub mod option_text;
pub mod output;
pub mod parse;
pub mod print;
pub mod session;
pub mod shell;

pub use dialect::Agent;
pub use output::Output;
pub use parse::{parse_command, Command, PositionStart, ProtocolError};
pub use session::{run, serve, serve_game};
