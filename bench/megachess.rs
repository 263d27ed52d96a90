//! Criterion benchmark of the Megachess world: move generation for an army of 200 among 1,000
//! pieces, applying a whole turn of moves, cutting a window, and the same world placed on a
//! 1,000,000-wide and on a 256-wide board (the two should take the same time: the world's cost
//! depends on the pieces, never on the board's size).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use roger::common::Rng;
use roger::rules::megachess::{Coord, Kind, MegachessParams, Move, PlayerId, Team, World};
use std::hint::black_box;

/// A number in `0..n` from the rules' splitmix64 generator, by modulo, so the worlds repeat.
fn below(random: &mut Rng, n: u32) -> u32 {
    (random.next_u64() % n as u64) as u32
}

const ME: PlayerId = 1;
/// The region the pieces stand in, and where it sits on each board.
const REGION: u32 = 120;
const OWN: usize = 200;
const OTHERS: usize = 800;

/// 200 pieces of player 1 (alabaster, king in the middle of its group) and 800 of eight metal
/// players and neutral bonus pieces, in a 120 x 120 region whose corner is `origin`.
fn world(side: u32, origin: u32) -> World {
    let params = MegachessParams {
        width: side,
        height: side,
        bonus_every: 0,
        ..MegachessParams::default()
    };
    let mut world = World::new(params, 1);
    world.add_player(ME, Team::Alabaster).unwrap();
    for enemy in 2..=9 {
        world.add_player(enemy, Team::Metal).unwrap();
    }
    let mut random = Rng::new(7);
    let kinds = [
        Kind::Queen,
        Kind::Rook,
        Kind::Bishop,
        Kind::Knight,
        Kind::Pawn,
        Kind::Pawn,
    ];
    let mut place = |world: &mut World, owner: PlayerId, kind: Kind, near: u32, span: u32| loop {
        let at = Coord::new(
            origin + near + below(&mut random, span),
            origin + near + below(&mut random, span),
        );
        let moved = below(&mut random, 2) == 0;
        if world.place(owner, kind, at, moved, false, None).is_ok() {
            return;
        }
    };
    // Own army in the middle (50 x 50 around the king), the rest spread over the region.
    place(&mut world, ME, Kind::King, 55, 10);
    for index in 1..OWN {
        place(&mut world, ME, kinds[index % kinds.len()], 35, 50);
    }
    for enemy in 2..=9 {
        place(&mut world, enemy, Kind::King, 0, REGION);
    }
    for index in 8..OTHERS {
        let owner = if index % 10 == 0 {
            0
        } else {
            2 + index as u32 % 8
        };
        place(&mut world, owner, kinds[index % kinds.len()], 0, REGION);
    }
    world
}

fn own_targets(world: &World, out: &mut Vec<Coord>) -> usize {
    let mut total = 0;
    for piece in world.pieces_of(ME) {
        out.clear();
        world.targets(piece.id, out);
        total += out.len();
    }
    total
}

/// One move per own piece (the first legal target, if any), applied in order on a copy.
fn turn_moves(world: &World) -> Vec<Move> {
    let mut copy = world.clone();
    let mut moves = Vec::new();
    let mut out = Vec::new();
    let ids: Vec<_> = copy.pieces_of(ME).map(|piece| piece.id).collect();
    for id in ids {
        let Some(piece) = copy.piece(id).copied() else {
            continue;
        };
        out.clear();
        copy.targets(id, &mut out);
        if let Some(&to) = out.last() {
            let mv = Move::new(piece.at, to);
            copy.apply(ME, mv).expect("a target applies");
            moves.push(mv);
        }
    }
    moves
}

fn movegen(c: &mut Criterion) {
    let small = world(256, 60);
    let mut out = Vec::new();
    let targets = own_targets(&small, &mut out);
    let mut group = c.benchmark_group("megachess movegen");
    group.throughput(Throughput::Elements(targets as u64));
    group.bench_function("targets of 200 among 1000 (targets)", |b| {
        b.iter(|| own_targets(black_box(&small), &mut out))
    });
    group.bench_function("legal_moves of 200 among 1000 (moves)", |b| {
        b.iter(|| black_box(&small).legal_moves(ME).len())
    });
    group.finish();

    let moves = turn_moves(&small);
    let mut group = c.benchmark_group("megachess apply");
    group.throughput(Throughput::Elements(moves.len() as u64));
    group.bench_function("clone + a turn of 200 moves (moves)", |b| {
        b.iter(|| {
            let mut copy = black_box(&small).clone();
            for &mv in &moves {
                copy.apply(ME, mv).expect("replays");
            }
            copy.end_turn()
        })
    });
    group.finish();
    let mut group = c.benchmark_group("megachess world");
    group.bench_function("clone (1000 pieces)", |b| {
        b.iter(|| black_box(&small).clone())
    });
    group.bench_function("window 16 around 200", |b| {
        b.iter(|| black_box(&small).window(ME, 16).piece_count())
    });
    group.finish();
}

/// The same pieces at the same relative squares on a 256-wide and a 1,000,000-wide board.
fn board_size(c: &mut Criterion) {
    let small = world(256, 60);
    let huge = world(1_000_000, 500_000);
    let mut out = Vec::new();
    assert_eq!(own_targets(&small, &mut out), own_targets(&huge, &mut out));
    let mut group = c.benchmark_group("megachess board size");
    for (name, world) in [("256", &small), ("1000000", &huge)] {
        group.bench_function(format!("targets + turn + window, {name} wide"), |b| {
            b.iter(|| {
                let targets = own_targets(black_box(world), &mut out);
                let moves = turn_moves(world).len();
                targets + moves + world.window(ME, 16).piece_count()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, movegen, board_size);
criterion_main!(benches);
