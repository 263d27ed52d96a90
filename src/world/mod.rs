//! The Megachess world server: one persistent world that players and bots join and leave over
//! the network, with timed turns that never stop (`roger world`), and the two ways an engine
//! plugs into it: a house bot the server starts itself, and a bot account that connects from
//! any machine (`roger bot`). The rules are `crate::rules::megachess`; nothing here decides a
//! rule. The network API is docs/world-server.md.
//!
//! The parts, each in its own file:
//! - [`api`]: the JSON messages between players and the server.
//! - [`hub`]: what the network side and the house bots send the turn loop, and how it answers.
//! - [`events`]: the turn log's entries (JSON lines, and rows of the database).
//! - [`config`]: every setting of a world server.
//! - [`store`]: the world in SQLite: the state after every completed turn, the turn log,
//!   players and their tokens.
//! - [`core`]: the server's world (players, tokens, joins, moves, turn ends), with no I/O.
//! - [`turns`]: the turn loop thread: the clock (wall or simulated), broadcasts, reads,
//!   standings, pictures, persistence.
//! - [`view`]: the world after each completed turn, published for reads off the loop.
//! - [`net`]: HTTP reads and the WebSocket API.
//! - [`placement`]: where a joining player's army goes.
//! - [`engine`]: an engine process with deadlines, killed when dropped.
//! - [`engine_seat`]: the engine a bridge plays with: set up, asked within deadlines, restarted
//!   with backoff when it crashes or hangs.
//! - [`bridge`]: drives an engine that speaks the Megachess protocol for a player, over any
//!   link to the server; [`bot`] is `roger bot` (a WebSocket link), [`house`] the house bots
//!   (an in-process link).
//! - [`load`]: `roger world-load`, the load generator: a server and N bot connections on
//!   loopback, with turns per second, delays, stalls and memory measured.
//! - [`cli`]: the command lines of `roger world`, `roger bot` and `roger world-load`.

pub mod api;
pub mod bot;
pub mod bridge;
pub mod cli;
pub mod config;
pub mod core;
pub mod engine;
pub mod engine_seat;
pub mod events;
pub mod house;
pub mod hub;
pub mod load;
pub mod net;
pub mod placement;
#[cfg(test)]
mod scratch;
pub mod store;
pub mod turns;
pub mod view;
