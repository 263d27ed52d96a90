//! Criterion benchmarks of Millennium move generation and perft. The depth-5 counts, too slow
//! for `cargo test`, are checked here; they are this engine's own counts, and the shallower ones
//! of the same positions are cross-checked in the tests against a separate mailbox generator.

use criterion::{criterion_group, criterion_main, Criterion};
use roger::rules::millennium::{Millennium, START_FEN};
use roger::rules::{Game, MoveList};
use std::hint::black_box;

/// White has lost a king and a queen, Black a knight; castling rights and pools on both sides.
const MIDGAME: &str = "r1bqkb1r1bk1bnr/ppp1pp1p1ppp1pp/2n1B4q1n3/3p2p1p6/3P3P7/2N3N8/PPP1PP1P1PPPPPP/R1BQK2R1B4R b AEHaehko - 3 9 Qn";
/// Pawns on the seventh with pools on both sides.
const PROMOTIONS: &str = "1n2k1k3r4/1P3P1P4p1p/15/15/15/15/p5p1p6/RN2K5K4 w - - 0 1 QNrbq";
/// A keystone king en prise to a rook, the capture giving check.
const KEYSTONE: &str = "4k5k4/pp13/15/15/15/15/PP13/4R5K4 w - - 0 1";

fn movegen(c: &mut Criterion) {
    let positions: Vec<Millennium> = [START_FEN, MIDGAME]
        .iter()
        .map(|f| Millennium::from_fen(f).unwrap())
        .collect();
    c.bench_function("millennium generate_moves start+midgame", |b| {
        b.iter(|| {
            let mut total = 0;
            for p in &positions {
                let mut moves = MoveList::new();
                black_box(p).generate_moves(&mut moves);
                total += moves.len();
            }
            total
        })
    });
    c.bench_function("millennium perft 4 start", |b| {
        b.iter(|| assert_eq!(black_box(&positions[0]).perft(4), 2_452_100))
    });
}

fn deep_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("millennium deep perft");
    group.sample_size(10);
    for (name, fen, count) in [
        ("perft 5 start", START_FEN, 109_429_355u64),
        ("perft 5 promotions", PROMOTIONS, 22_049_566),
        ("perft 5 keystone", KEYSTONE, 3_546_776),
    ] {
        let pos = Millennium::from_fen(fen).unwrap();
        group.bench_function(name, |b| {
            b.iter(|| assert_eq!(black_box(&pos).perft(5), count))
        });
    }
    group.finish();
}

criterion_group!(benches, movegen, deep_perft);
criterion_main!(benches);
