//! Criterion benchmarks of Nichess action generation and perft. The deep counts too slow for
//! `cargo test` are checked here: depths 1-4 match the rules page's reference table, and
//! depths 5 and 6 are this engine's counts, kept so that a change to the rules code shows.

mod common;

use common::Perft;
use roger::rules::nichess::{Nichess, START_FEN};

/// A middlegame with a loaded pirate throw, castling both ways and damaged pieces.
const MIDGAME: &str = "r3k2r/pp1m1ppp/2n1q3/2PpN3/3Q4/2M2n(30)2/RP3PPP/R3K2R(30) w - - 4 12";

game_benches!(
    Nichess,
    "nichess generate_moves start+midgame",
    [START_FEN, MIDGAME],
    [Perft::new("nichess perft 4 midgame", MIDGAME, 4, 6_255_665)],
    "nichess deep perft",
    [
        Perft::new("perft 5 start", START_FEN, 5, 5_245_760),
        Perft::new("perft 6 start", START_FEN, 6, 133_904_454),
    ],
);
