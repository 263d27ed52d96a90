//! Criterion benchmarks of Millennium move generation and perft. The depth-5 counts, too slow
//! for `cargo test`, are checked here; they are this engine's own counts, and the shallower ones
//! of the same positions are cross-checked in the tests against a separate mailbox generator.

mod common;

use common::Perft;
use roger::rules::millennium::{Millennium, START_FEN};

/// White has lost a king and a queen, Black a knight; castling rights and pools on both sides.
const MIDGAME: &str = "r1bqkb1r1bk1bnr/ppp1pp1p1ppp1pp/2n1B4q1n3/3p2p1p6/3P3P7/2N3N8/PPP1PP1P1PPPPPP/R1BQK2R1B4R b AEHaehko - 3 9 Qn";
/// Pawns on the seventh with pools on both sides.
const PROMOTIONS: &str = "1n2k1k3r4/1P3P1P4p1p/15/15/15/15/p5p1p6/RN2K5K4 w - - 0 1 QNrbq";
/// A keystone king en prise to a rook, the capture giving check.
const KEYSTONE: &str = "4k5k4/pp13/15/15/15/15/PP13/4R5K4 w - - 0 1";

game_benches!(
    Millennium,
    "millennium generate_moves start+midgame",
    [START_FEN, MIDGAME],
    [Perft::new(
        "millennium perft 4 start",
        START_FEN,
        4,
        2_452_100
    )],
    "millennium deep perft",
    [
        Perft::new("perft 5 start", START_FEN, 5, 109_429_355),
        Perft::new("perft 5 promotions", PROMOTIONS, 5, 22_049_566),
        Perft::new("perft 5 keystone", KEYSTONE, 5, 3_546_776),
    ],
);
