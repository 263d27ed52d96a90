//! Criterion benchmarks of the chess evaluation: the hand-set evaluation alone, the network
//! summed afresh, and the network following a game move by move (what a search pays).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use roger::eval::chess::evaluate_with;
use roger::eval::network::chess::{evaluate, evaluate_at, network, PathAccumulators};
use roger::eval::weights::chess::WEIGHTS;
use roger::rules::chess::Chess;
use roger::rules::{Game, MoveList};

/// The positions of a fixed game: the first legal move at every other ply, the last otherwise.
fn line() -> Vec<Chess> {
    let mut position = Chess::startpos();
    let mut positions = vec![position];
    for ply in 0..40 {
        let mut moves = MoveList::new();
        position.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let pick = if ply % 2 == 0 { 0 } else { moves.len() - 1 };
        position = position.play(moves[pick]);
        positions.push(position);
    }
    positions
}

fn benches(c: &mut Criterion) {
    let positions = line();
    let mut group = c.benchmark_group("chess evaluation");
    group.bench_function("hand-set", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| evaluate_with(black_box(p), &WEIGHTS, &mut ()))
                .sum::<i32>()
        })
    });
    group.bench_function("network, fresh sums", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| evaluate(network(), black_box(p)))
                .sum::<i32>()
        })
    });
    group.bench_function("network, along the line", |b| {
        let mut path = PathAccumulators::default();
        b.iter(|| {
            positions
                .iter()
                .enumerate()
                .map(|(ply, p)| evaluate_at(network(), black_box(p), &mut path, ply))
                .sum::<i32>()
        })
    });
    group.finish();
}

criterion_group!(evaluation, benches);
criterion_main!(evaluation);
