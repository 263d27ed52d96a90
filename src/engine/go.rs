//! What a `go` asks for, in the engine's terms (durations, not protocol tokens).

use crate::rules::{Color, Game, GameRecord};
use std::time::Duration;

/// The parameters of one search request. Everything `None`/`false` means: search until stopped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// `wtime`/`winc` and `btime`/`binc`, White's first.
    pub clocks: [SideClock; 2],
    /// `movestogo`: moves until the next time control; 0 or `None` means none comes.
    pub moves_to_go: Option<u32>,
    /// `depth`: search this many plies at most.
    pub depth: Option<u32>,
    /// `nodes`: search this many nodes at most.
    pub nodes: Option<u64>,
    /// `movetime`: think exactly this long.
    pub movetime: Option<Duration>,
    /// `mate`: look for a mate in this many moves.
    pub mate: Option<u32>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
    /// `ponder`: think on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// `searchmoves`: only these root moves (protocol notation); empty means all.
    pub searchmoves: Vec<String>,
}

/// One side's clock as `go` gives it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideClock {
    pub time: Option<Duration>,
    pub increment: Option<Duration>,
}

impl GoParams {
    /// The clock of `side` (`wtime`/`winc` for White).
    pub fn clock(&self, side: Color) -> SideClock {
        self.clocks[side.index()]
    }

    pub fn clock_mut(&mut self, side: Color) -> &mut SideClock {
        &mut self.clocks[side.index()]
    }
}

/// Reads moves that the game must all allow now.
pub(super) fn parse_moves<G: Game>(
    record: &GameRecord<G>,
    texts: &[String],
) -> Result<Vec<G::Move>, String> {
    texts
        .iter()
        .map(|text| {
            if !text.is_ascii() {
                return Err(format!("searchmoves: '{text}' is not a move"));
            }
            record
                .parse_move(text)
                .map_err(|error| format!("searchmoves: {error}"))
        })
        .collect()
}
