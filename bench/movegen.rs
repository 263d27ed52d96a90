//! Criterion benchmarks of move generation and perft. The deep perft counts that are too slow
//! for `cargo test` are checked here (start position depth 6 = 119,060,324; the first position
//! of the Chess960 suite, tests/data/chess960/perft_suite.epd, depth 6 = 227,689,589).

mod common;

use common::Perft;
use roger::rules::chess::{Chess, START_FEN};

/// The Chess960 perft suite's first position: castling rights on the h- and f-files.
const CHESS960_SUITE_0: &str = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

game_benches!(
    Chess,
    "generate_moves start+kiwipete",
    [START_FEN, KIWIPETE],
    [Perft::new("perft 4 kiwipete", KIWIPETE, 4, 4_085_603)],
    "deep perft",
    [
        Perft::new("perft 6 start", START_FEN, 6, 119_060_324),
        Perft::new("perft 5 kiwipete", KIWIPETE, 5, 193_690_690),
        Perft::new(
            "perft 6 chess960 suite id 0",
            CHESS960_SUITE_0,
            6,
            227_689_589
        ),
    ],
);
