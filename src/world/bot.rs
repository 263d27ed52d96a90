//! `roger bot`: connects an engine that speaks the Megachess protocol to a world server as a
//! player, over WebSocket, reconnecting with backoff when the connection drops.

use super::api::TeamChoice;
use super::cli::BotArgs;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// What `roger bot` is asked to do.
#[derive(Clone, Debug)]
pub struct BotConfig {
    /// `ws://host:port`.
    pub server: String,
    pub token: Option<String>,
    pub team: TeamChoice,
    pub name: Option<String>,
    pub token_file: Option<PathBuf>,
    /// The engine command and arguments; empty: this roger binary.
    pub engine: Vec<String>,
    pub options: Vec<(String, String)>,
    pub movetime: Duration,
    pub margin: Duration,
    pub give_up: Duration,
    pub turns: Option<u64>,
    pub quiet: bool,
}

/// `roger bot`.
pub fn command(args: &BotArgs) -> ExitCode {
    let _ = args;
    todo!("roger bot")
}
