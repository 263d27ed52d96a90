//! The browser front end: `roger serve`. One port serves the pages (every file is built into the
//! binary, so nothing is fetched at run time) and the pages' WebSocket sessions: a turn game
//! against Roger, realtime chess against Roger, a replay. The Megachess world page talks to a
//! world server's own WebSocket API; `roger serve` can run one in process for it.
//!
//! `server.rs` accepts connections and routes them (`config.rs` is what it is set up with); `assets.rs` holds the files; `socket.rs`
//! runs one page's session on its own thread behind a WebSocket; `sessions.rs` names the kinds of
//! session a page can open; `cli.rs` is the command line.

pub mod assets;
pub mod cli;
mod config;
mod play;
mod realtime;
pub mod replay;
mod server;
pub mod session;
mod sessions;
mod socket;
#[cfg(test)]
mod tests;
pub mod view;

pub use config::{PageLimits, WebConfig};
pub use server::WebServer;
