//! Criterion benchmarks of move generation and perft. The deep perft counts that are too slow
//! for `cargo test` are checked here (start position depth 6 = 119,060,324).

mod common;

use common::Perft;
use roger::rules::chess::{Chess, START_FEN};

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
    ],
);
