//! What every game's criterion benchmarks share: move generation over a few positions, and
//! perft counts checked while they are timed.

use criterion::Criterion;
use roger::rules::{Game, MoveList};
use std::hint::black_box;

/// A perft to time and check: its name, the position, the depth and the leaf count.
pub struct Perft {
    pub name: &'static str,
    pub fen: &'static str,
    pub depth: u32,
    pub count: u64,
}

impl Perft {
    pub const fn new(name: &'static str, fen: &'static str, depth: u32, count: u64) -> Perft {
        Perft {
            name,
            fen,
            depth,
            count,
        }
    }
}

/// Times generating the moves of every position of `fens` (as `name`), then each perft.
pub fn movegen<G: Game>(c: &mut Criterion, name: &str, fens: &[&str], perfts: &[Perft]) {
    let positions: Vec<G> = fens.iter().map(|f| G::from_fen(f).unwrap()).collect();
    c.bench_function(name, |b| {
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
    for perft in perfts {
        let pos = G::from_fen(perft.fen).unwrap();
        c.bench_function(perft.name, |b| {
            b.iter(|| assert_eq!(black_box(&pos).perft(perft.depth), perft.count))
        });
    }
}

/// Times the deep perfts, too slow for `cargo test`, in a group of few samples.
pub fn deep_perft<G: Game>(c: &mut Criterion, group: &str, perfts: &[Perft]) {
    let mut group = c.benchmark_group(group);
    group.sample_size(10);
    for perft in perfts {
        let pos = G::from_fen(perft.fen).unwrap();
        group.bench_function(perft.name, |b| {
            b.iter(|| assert_eq!(black_box(&pos).perft(perft.depth), perft.count))
        });
    }
    group.finish();
}

/// A game's whole bench target: `movegen` over `fens` with its `perfts`, then the `deep` perfts
/// in `group`.
#[macro_export]
macro_rules! game_benches {
    ($game:ty, $name:expr, $fens:expr, $perfts:expr, $group:expr, $deep:expr $(,)?) => {
        fn benches(c: &mut criterion::Criterion) {
            common::movegen::<$game>(c, $name, &$fens, &$perfts);
            common::deep_perft::<$game>(c, $group, &$deep);
        }
        criterion::criterion_group!(game, benches);
        criterion::criterion_main!(game);
    };
}
