//! The turn loop: one thread that owns the server's world and the store, reads every
//! [`Request`](super::hub::Request) in arrival order, starts and ends turns on the wall clock or
//! simulated, broadcasts, answers reads, prints standings, writes the JSON-lines log and SVG
//! pictures, and commits every completed turn. Also `roger world` itself: it starts the
//! network side and the house bots around the loop.

use super::cli::WorldArgs;
use std::process::ExitCode;

/// `roger world`.
pub fn command(args: &WorldArgs) -> ExitCode {
    let _ = args;
    todo!("roger world")
}
