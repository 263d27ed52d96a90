//! A seeded crowded world for the planner's tests and benchmarks: one army of `own` pieces in a
//! block, surrounded by `enemy` pieces of several enemy players, anywhere on a board of any size
//! (the same layout shifted, so that a 1,000,000-wide board and a 256-wide one hold the same
//! pieces around the army).

use crate::common::Rng;
use crate::rules::megachess::{Coord, Kind, MegachessParams, PlayerId, Team, World};

/// The planning player of a crowd world.
pub const CROWD_ME: PlayerId = 1;
/// Enemy players own this many pieces each (their king included).
const PER_ENEMY: usize = 100;

/// A number in `0..n` from the rules' splitmix64 generator, by modulo, so the worlds repeat.
fn below(random: &mut Rng, n: u32) -> u32 {
    (random.next_u64() % n as u64) as u32
}

fn random_kind(random: &mut Rng) -> Kind {
    match below(random, 16) {
        0 => Kind::Queen,
        1 | 2 => Kind::Rook,
        3..=5 => Kind::Bishop,
        6..=8 => Kind::Knight,
        _ => Kind::Pawn,
    }
}

/// `own` pieces of [`CROWD_ME`] (alabaster, to move) in a block near `(x0, y0)`, and `enemy`
/// pieces of metal players in a ring around it; the board is `width` x `height` (`x0`, `y0` at
/// least 24, and the board at least `x0 + 100` wide and high).
pub fn crowd_world(
    width: u32,
    height: u32,
    x0: u32,
    y0: u32,
    own: usize,
    enemy: usize,
    seed: u64,
) -> World {
    let params = MegachessParams {
        width,
        height,
        bonus_every: 0,
        ..MegachessParams::default()
    };
    let mut world = World::new(params, seed);
    let mut random = Rng::new(seed);
    world
        .add_player(CROWD_ME, Team::Alabaster)
        .expect("a new player");
    // The army: a square block, king in the middle, pieces on two squares of three.
    let side = ((own as f64 * 1.6).sqrt().ceil() as u32).max(3);
    let centre = Coord::new(x0 + side / 2, y0 + side / 2);
    world
        .place(CROWD_ME, Kind::King, centre, false, false, None)
        .expect("a vacant square");
    let mut placed = 1;
    while placed < own {
        let at = Coord::new(x0 + below(&mut random, side), y0 + below(&mut random, side));
        if world.piece_at(at).is_none() {
            let kind = random_kind(&mut random);
            world
                .place(CROWD_ME, kind, at, true, false, None)
                .expect("a vacant square");
            placed += 1;
        }
    }
    // The enemies: a ring from 2 to 24 squares beyond the block.
    let players = enemy.div_ceil(PER_ENEMY);
    let span = side + 48;
    let near_block = |at: Coord| {
        (x0 - 2..x0 + side + 2).contains(&at.x) && (y0 - 2..y0 + side + 2).contains(&at.y)
    };
    for p in 0..players {
        let id = CROWD_ME + 1 + p as PlayerId;
        world.add_player(id, Team::Metal).expect("a new player");
        let count = PER_ENEMY.min(enemy - p * PER_ENEMY);
        let mut placed = 0;
        while placed < count {
            let at = Coord::new(
                x0 - 24 + below(&mut random, span),
                y0 - 24 + below(&mut random, span),
            );
            if near_block(at) || world.piece_at(at).is_some() {
                continue;
            }
            let kind = if placed == 0 {
                Kind::King
            } else {
                random_kind(&mut random)
            };
            world
                .place(id, kind, at, true, false, None)
                .expect("a vacant square");
            placed += 1;
        }
    }
    world
}
