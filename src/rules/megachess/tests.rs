//! Unit tests of the world's internals: the hasher, the generator, and the position parser
//! fuzzed with random bytes and random token mixes (it must answer, never panic).

use super::hash::{fixed_state, FastSet};
use super::*;
use crate::common::Rng;
use std::collections::BTreeSet;

#[test]
fn the_generator_repeats_and_stays_below_its_bound() {
    let mut first = Rng::new(42);
    let mut second = Rng::new(42);
    for n in [1u64, 2, 7, 1_000_000] {
        for _ in 0..100 {
            let a = first.below(n);
            assert_eq!(a, second.below(n));
            assert!(a < n);
        }
    }
}

#[test]
fn the_hasher_tells_squares_apart() {
    let mut squares: FastSet<Coord> = FastSet::with_hasher(fixed_state());
    squares.extend((0..100).flat_map(|x| (0..100).map(move |y| Coord::new(x * 10_007, y))));
    assert_eq!(squares.len(), 10_000);
}

/// Pieces of a valid line, to mix with garbage.
const GOOD_TOKENS: &[&str] = &[
    "size",
    "64",
    "64",
    "turn",
    "1",
    "me",
    "1",
    "players",
    "1:a",
    "3:m",
    "pieces",
    "1K5,5",
    "3K9,9",
    "1B6,6.mo",
    "3P7,7.m/2",
    "0N8,8",
    "1Q1,1/11",
    "0",
    "/",
    ".",
    ",",
    ":",
    "4294967296",
    "1K",
    "1K5,5.",
    "ሴ",
    "size 0",
    "1:",
    ":a",
    "-1",
    "18446744073709551616",
];

#[test]
fn position_parsing_never_panics_on_garbage() {
    let params = MegachessParams::default();
    let mut random = Rng::new(2024);
    let mut accepted = 0;
    for round in 0..4000 {
        let text = if round % 2 == 0 {
            // Random printable and not-so-printable bytes, lossily made text.
            let length = random.below(60) as usize;
            let bytes: Vec<u8> = (0..length)
                .map(|_| match random.below(4) {
                    0 => b"0123456789,./:"[random.below(14) as usize],
                    1 => b"KQRBNPmoa "[random.below(10) as usize],
                    2 => b' ',
                    _ => random.below(256) as u8,
                })
                .collect();
            format!(
                "size 64 64 turn 1 me 1 players 1:a pieces {}",
                String::from_utf8_lossy(&bytes)
            )
        } else {
            let count = random.below(16) as usize;
            (0..count)
                .map(|_| GOOD_TOKENS[random.below(GOOD_TOKENS.len() as u64) as usize])
                .collect::<Vec<_>>()
                .join(" ")
        };
        match WorldView::parse(&text, &params) {
            Ok(view) => {
                accepted += 1;
                // What was accepted prints and reads back the same.
                let line = view.world.position_line(view.me, None);
                let again = WorldView::parse(&line["position megachess ".len()..], &params)
                    .expect("a printed line reads back");
                assert_eq!(again.world.position_line(view.me, None), line);
            }
            Err(error) => assert!(!error.to_string().is_empty()),
        }
    }
    assert!(accepted > 0, "the fuzzer reaches valid lines too");
}

#[test]
fn the_last_turn_number_ends_without_overflow() {
    let line = format!("size 8 8 turn {MAX_TURN} me 1 players 1:a 2:m pieces 1K0,0 2K7,7");
    let mut world = WorldView::parse(&line, &MegachessParams::default())
        .unwrap()
        .world;
    assert_eq!(world.team_to_move(), Team::Alabaster);
    world.end_turn();
    assert_eq!(world.team_to_move(), Team::Metal);
    // A server's world counts on past any line's turn, and wraps without a panic.
    world.set_turn(u64::MAX);
    assert_eq!(world.team_to_move(), Team::Alabaster);
    world.end_turn();
    assert_eq!(world.team_to_move(), Team::Metal);
    world.end_turn();
    assert_eq!(world.team_to_move(), Team::Alabaster);
}

/// The index of pieces by owner and by zone agrees with a plain walk of the slab through a
/// crowded game: random legal moves (captures, kings taken and armies handed over, bonus
/// pieces collected), fading and bonus spawns at every turn's end.
#[test]
fn the_piece_index_follows_every_change() {
    let params = MegachessParams {
        width: 100,
        height: 70,
        kingdom_radius: 6,
        fade_base: 2,
        fade_per_rank: 0,
        bonus_every: 1,
        ..MegachessParams::default()
    };
    let mut world = World::new(params, 7);
    let mut rng = Rng::new(11);
    for id in 1..=16u32 {
        let team = if id % 2 == 1 {
            Team::Alabaster
        } else {
            Team::Metal
        };
        world.add_player(id, team).unwrap();
        let corner = Coord::new(((id - 1) % 8) * 12, 4 + ((id - 1) / 8) * 40 + (id % 2) * 6);
        let facing = if team == Team::Alabaster {
            Facing::North
        } else {
            Facing::South
        };
        world.spawn_army(id, corner, facing).unwrap();
    }
    let (mut kings_taken, mut collected, mut faded) = (0, 0, 0);
    for turn in 0..80 {
        let movers: Vec<PlayerId> = world
            .players()
            .filter(|p| p.team == world.team_to_move())
            .map(|p| p.id)
            .collect();
        for player in movers {
            let ids: Vec<PieceId> = world.pieces_of(player).map(|p| p.id).collect();
            for id in ids {
                let Some(from) = world.piece(id).map(|p| p.at) else {
                    continue;
                };
                let mut targets = Vec::new();
                world.targets(id, &mut targets);
                targets.retain(|&to| world.check(player, Move::new(from, to)).is_ok());
                if targets.is_empty() || rng.below(3) == 0 {
                    continue;
                }
                let to = targets[rng.index(targets.len())];
                let effects = world.apply(player, Move::new(from, to)).unwrap();
                kings_taken += usize::from(effects.king_captured.is_some());
                collected += effects.collected.len();
            }
        }
        faded += world.end_turn().faded.len();
        assert_index_agrees(&world, &mut rng, turn);
    }
    assert!(
        kings_taken > 0 && collected > 0 && faded > 0,
        "the game must take kings ({kings_taken}), collect ({collected}) and fade ({faded})"
    );
    let back = World::from_snapshot(&world.snapshot()).unwrap();
    assert_index_agrees(&back, &mut rng, 80);
}

fn assert_index_agrees(world: &World, rng: &mut Rng, turn: usize) {
    let owners: BTreeSet<PlayerId> = world.pieces().map(|p| p.owner).collect();
    for owner in owners.iter().copied().chain([999]) {
        let indexed: Vec<PieceId> = world.pieces_of(owner).map(|p| p.id).collect();
        let walked: Vec<PieceId> = world
            .pieces()
            .filter(|p| p.owner == owner)
            .map(|p| p.id)
            .collect();
        assert_eq!(indexed, walked, "turn {turn}: pieces of {owner}");
    }
    for _ in 0..20 {
        let (x0, y0) = (rng.below(100) as u32, rng.below(70) as u32);
        let (x1, y1) = (
            x0 + rng.below(u64::from(100 - x0)) as u32,
            y0 + rng.below(u64::from(70 - y0)) as u32,
        );
        let rect = Rect {
            min: Coord::new(x0, y0),
            max: Coord::new(x1, y1),
        };
        let indexed: Vec<PieceId> = world.pieces_in(rect).iter().map(|p| p.id).collect();
        let walked: Vec<PieceId> = world
            .pieces()
            .filter(|p| rect.contains(p.at))
            .map(|p| p.id)
            .collect();
        assert_eq!(indexed, walked, "turn {turn}: pieces in {rect:?}");
    }
    for player in world.players().map(|p| p.id) {
        for margin in [0, 5, 40] {
            assert_eq!(
                world.position_line(player, Some(margin)),
                world.window(player, margin).position_line(player, None),
                "turn {turn}: window line of {player}"
            );
        }
    }
}
