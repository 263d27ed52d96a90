//! What a `go` asks for, in the engine's terms (durations, not protocol tokens).

use crate::rules::Game;
use std::time::Duration;

/// The parameters of one search request. Everything `None`/`false` means: search until stopped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub white_time: Option<Duration>,
    pub black_time: Option<Duration>,
    pub white_increment: Option<Duration>,
    pub black_increment: Option<Duration>,
    pub moves_to_go: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    /// Look for a mate in this many moves.
    pub mate: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    /// Restricts the root moves to these (protocol notation); empty means all.
    pub searchmoves: Vec<String>,
}

/// Reads moves that must all be legal in `position`.
pub(super) fn parse_moves<G: Game>(position: &G, texts: &[String]) -> Result<Vec<G::Move>, String> {
    texts
        .iter()
        .map(|text| {
            if !text.is_ascii() {
                return Err(format!("searchmoves: '{text}' is not a move"));
            }
            position
                .parse_move(text)
                .map_err(|error| format!("searchmoves: {error}"))
        })
        .collect()
}
