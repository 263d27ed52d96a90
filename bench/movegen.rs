//! Criterion benchmarks of move generation and perft. The deep perft counts that are too slow
//! for `cargo test` are checked here (start position depth 6 = 119,060,324).

use criterion::{criterion_group, criterion_main, Criterion};
use roger::rules::chess::{Chess, START_FEN};
use roger::rules::{Game, MoveList};
use std::hint::black_box;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn movegen(c: &mut Criterion) {
    let positions: Vec<Chess> = [START_FEN, KIWIPETE]
        .iter()
        .map(|f| Chess::from_fen(f).unwrap())
        .collect();
    c.bench_function("generate_moves start+kiwipete", |b| {
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
    c.bench_function("perft 4 kiwipete", |b| {
        b.iter(|| assert_eq!(black_box(&positions[1]).perft(4), 4_085_603))
    });
}

fn deep_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("deep perft");
    group.sample_size(10);
    let start = Chess::startpos();
    group.bench_function("perft 6 start", |b| {
        b.iter(|| assert_eq!(black_box(&start).perft(6), 119_060_324))
    });
    let kiwipete = Chess::from_fen(KIWIPETE).unwrap();
    group.bench_function("perft 5 kiwipete", |b| {
        b.iter(|| assert_eq!(black_box(&kiwipete).perft(5), 193_690_690))
    });
    group.finish();
}

criterion_group!(benches, movegen, deep_perft);
criterion_main!(benches);
