//! Criterion benchmarks of Nichess action generation and perft. The deep counts too slow for
//! `cargo test` are checked here: depths 1-4 match the rules page's reference table, and
//! depths 5 and 6 are this engine's counts, kept so that a change to the rules code shows.

use criterion::{criterion_group, criterion_main, Criterion};
use roger::rules::nichess::{Nichess, START_FEN};
use roger::rules::{Game, MoveList};
use std::hint::black_box;

/// A middlegame with a loaded pirate throw, castling both ways and damaged pieces.
const MIDGAME: &str = "r3k2r/pp1m1ppp/2n1q3/2PpN3/3Q4/2M2n(30)2/RP3PPP/R3K2R(30) w - - 4 12";

fn movegen(c: &mut Criterion) {
    let positions: Vec<Nichess> = [START_FEN, MIDGAME]
        .iter()
        .map(|f| Nichess::from_fen(f).unwrap())
        .collect();
    c.bench_function("nichess generate_moves start+midgame", |b| {
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
    c.bench_function("nichess perft 4 midgame", |b| {
        b.iter(|| assert_eq!(black_box(&positions[1]).perft(4), 6_255_665))
    });
}

fn deep_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("nichess deep perft");
    group.sample_size(10);
    let start = Nichess::startpos();
    group.bench_function("perft 5 start", |b| {
        b.iter(|| assert_eq!(black_box(&start).perft(5), 5_245_760))
    });
    group.bench_function("perft 6 start", |b| {
        b.iter(|| assert_eq!(black_box(&start).perft(6), 133_904_454))
    });
    group.finish();
}

criterion_group!(benches, movegen, deep_perft);
criterion_main!(benches);
