//! The reference players of Megachess: a random one, and a greedy one at the level of today's
//! open MMO bots (one piece at a time by a one-ply rule: the best capture, else a step toward
//! the nearest enemy king).

use super::percent_option;
use crate::common::Rng;
use crate::options::{spin_value, OptionSpec, OptionValue};
use crate::plan::{MegachessPlayer, PlanProgress, TurnBudget};
use crate::rules::megachess::{Coord, Kind, Move, PieceId, PlayerId, World, NEUTRAL};
use std::collections::VecDeque;
use std::sync::atomic::AtomicBool;

pub const RANDOM_MOVE_CHANCE: &str = "RandomMoveChance";

/// Each of its pieces, in a shuffled order, moves with `RandomMoveChance` percent to a random
/// destination legal after the moves before it.
pub struct RandomMegachessPlayer {
    seed: u64,
    rng: Rng,
    chance_percent: u64,
}

impl RandomMegachessPlayer {
    pub const DEFAULT_CHANCE: i64 = 50;

    pub fn new(seed: u64) -> RandomMegachessPlayer {
        RandomMegachessPlayer {
            seed,
            rng: Rng::new(seed),
            chance_percent: Self::DEFAULT_CHANCE as u64,
        }
    }
}

impl MegachessPlayer for RandomMegachessPlayer {
    fn name(&self) -> String {
        "random".to_string()
    }
    fn options(&self) -> Vec<OptionSpec> {
        vec![percent_option(RANDOM_MOVE_CHANCE, Self::DEFAULT_CHANCE)]
    }
    fn set_option(&mut self, name: &str, value: &OptionValue) -> Result<(), String> {
        self.chance_percent = spin_value(&self.options(), name, value)?.1 as u64;
        Ok(())
    }
    fn new_game(&mut self) {
        self.rng = Rng::new(self.seed);
    }
    fn plan_turn(
        &mut self,
        world: &World,
        me: PlayerId,
        _budget: TurnBudget,
        _stop: &AtomicBool,
        _progress: &mut dyn FnMut(&PlanProgress),
    ) -> Vec<Move> {
        let mut board = world.clone();
        let mut order: Vec<PieceId> = world.pieces_of(me).map(|piece| piece.id).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, self.rng.index(i + 1));
        }
        let mut moves = Vec::new();
        let mut targets = Vec::new();
        for id in order {
            if self.rng.index(100) as u64 >= self.chance_percent {
                continue;
            }
            let Some(from) = movable(&board, me, id) else {
                continue;
            };
            legal_targets(&board, me, id, from, &mut targets);
            if targets.is_empty() {
                continue;
            }
            let mv = Move::new(from, targets[self.rng.index(targets.len())]);
            if board.apply(me, mv).is_ok() {
                moves.push(mv);
            }
        }
        moves
    }
}

/// Each of its pieces in turn (id order; pieces it gains during the turn after them) takes the
/// best capture it has (the highest rank; a king above all), otherwise steps to the destination
/// nearest the enemy king nearest to it, when that is nearer than where it stands; its own king
/// only captures. Each move is applied to a copy of the world, so later pieces see it. Ties are
/// broken at random (seeded).
pub struct GreedyMegachessPlayer {
    seed: u64,
    rng: Rng,
}

impl GreedyMegachessPlayer {
    pub fn new(seed: u64) -> GreedyMegachessPlayer {
        GreedyMegachessPlayer {
            seed,
            rng: Rng::new(seed),
        }
    }

    /// The piece's move by the greedy rule on `board`, if it has one.
    fn choose(
        &mut self,
        board: &World,
        me: PlayerId,
        id: PieceId,
        enemy_kings: &[Coord],
        targets: &mut Vec<Coord>,
    ) -> Option<Move> {
        let from = movable(board, me, id)?;
        let kind = board.piece(id)?.kind;
        legal_targets(board, me, id, from, targets);
        let mut best = Best::default();
        for &to in targets.iter() {
            if let Some(victim) = board.piece_at(to) {
                // A king above all; otherwise the rank.
                let value = match victim.kind {
                    Kind::King => u64::MAX,
                    other => u64::from(board.params().rank(other)),
                };
                best.offer(value, to, &mut self.rng);
            }
        }
        if best.square.is_none() && kind != Kind::King {
            let king = enemy_kings
                .iter()
                .min_by_key(|king| king.distance_squared(from))?;
            let now = king.distance_squared(from);
            for &to in targets.iter() {
                let distance = king.distance_squared(to);
                if distance < now {
                    best.offer(u64::MAX - distance, to, &mut self.rng);
                }
            }
        }
        best.square.map(|to| Move::new(from, to))
    }
}

impl MegachessPlayer for GreedyMegachessPlayer {
    fn name(&self) -> String {
        "greedy".to_string()
    }
    fn new_game(&mut self) {
        self.rng = Rng::new(self.seed);
    }
    fn plan_turn(
        &mut self,
        world: &World,
        me: PlayerId,
        _budget: TurnBudget,
        _stop: &AtomicBool,
        _progress: &mut dyn FnMut(&PlanProgress),
    ) -> Vec<Move> {
        let mut board = world.clone();
        let mut queue: VecDeque<PieceId> = world.pieces_of(me).map(|piece| piece.id).collect();
        let mut kings = enemy_kings(&board, me);
        let mut moves = Vec::new();
        let mut targets = Vec::new();
        while let Some(id) = queue.pop_front() {
            let Some(mv) = self.choose(&board, me, id, &kings, &mut targets) else {
                continue;
            };
            let Ok(effects) = board.apply(me, mv) else {
                continue;
            };
            moves.push(mv);
            queue.extend(effects.handed_over.iter().chain(&effects.collected));
            if effects.king_captured.is_some() {
                kings = enemy_kings(&board, me);
            }
        }
        moves
    }
}

/// The highest value offered so far, ties broken uniformly at random (reservoir sampling).
#[derive(Default)]
struct Best {
    value: u64,
    ties: usize,
    square: Option<Coord>,
}

impl Best {
    fn offer(&mut self, value: u64, square: Coord, rng: &mut Rng) {
        if self.square.is_none() || value > self.value {
            *self = Best {
                value,
                ties: 1,
                square: Some(square),
            };
        } else if value == self.value {
            self.ties += 1;
            if rng.index(self.ties) == 0 {
                self.square = Some(square);
            }
        }
    }
}

/// The square of `me`'s piece `id` if it is still `me`'s and has not moved this turn.
fn movable(board: &World, me: PlayerId, id: PieceId) -> Option<Coord> {
    let piece = board.piece(id)?;
    (piece.owner == me && !board.moved_this_turn(id)).then_some(piece.at)
}

/// The destinations of the piece on `from` that `me` may move it to now.
fn legal_targets(board: &World, me: PlayerId, id: PieceId, from: Coord, out: &mut Vec<Coord>) {
    out.clear();
    board.targets(id, out);
    out.retain(|&to| board.check(me, Move::new(from, to)).is_ok());
}

/// The squares of the kings of `me`'s enemies in view.
fn enemy_kings(board: &World, me: PlayerId) -> Vec<Coord> {
    board
        .pieces()
        .filter(|piece| {
            piece.kind == Kind::King && piece.owner != NEUTRAL && !board.allied(piece.owner, me)
        })
        .map(|piece| piece.at)
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rules::megachess::{Facing, MegachessParams, Team};
    use std::time::Duration;
    use std::time::Instant;

    /// One turn of `player` for `me`, with 100 ms (the reference players' tests).
    pub(crate) fn plan(player: &mut dyn MegachessPlayer, world: &World, me: PlayerId) -> Vec<Move> {
        let stop = AtomicBool::new(false);
        player.plan_turn(
            world,
            me,
            Duration::from_millis(100).into(),
            &stop,
            &mut |_| {},
        )
    }

    /// Applies the moves in order to a copy of the world; every one must be legal then.
    fn assert_legal_in_order(world: &World, me: PlayerId, moves: &[Move]) -> World {
        let mut board = world.clone();
        for (index, &mv) in moves.iter().enumerate() {
            if let Err(rejection) = board.apply(me, mv) {
                panic!(
                    "move {} ({mv}) of {moves:?} is rejected: {rejection}",
                    index + 1
                );
            }
        }
        board
    }

    /// Two players facing each other with `gap` empty ranks between their pawns.
    fn facing_world(gap: u32) -> World {
        let mut world = World::new(MegachessParams::default(), 1);
        world.add_player(1, Team::Alabaster).unwrap();
        world.add_player(2, Team::Metal).unwrap();
        world
            .spawn_army(1, Coord::new(100, 100), Facing::North)
            .unwrap();
        world
            .spawn_army(2, Coord::new(100, 102 + gap), Facing::South)
            .unwrap();
        world
    }

    /// Pieces on an empty board: player 1 is alabaster (to move), 2 and 3 are metal.
    fn sparse_world(pieces: &[(PlayerId, Kind, (u32, u32))]) -> World {
        let mut world = World::new(MegachessParams::default(), 1);
        world.add_player(1, Team::Alabaster).unwrap();
        world.add_player(2, Team::Metal).unwrap();
        world.add_player(3, Team::Metal).unwrap();
        for &(owner, kind, (x, y)) in pieces {
            world
                .place(owner, kind, Coord::new(x, y), false, false, None)
                .unwrap();
        }
        world
    }

    #[test]
    fn random_moves_are_legal_in_order_and_repeat_for_a_seed() {
        let world = facing_world(1);
        let mut random = RandomMegachessPlayer::new(5);
        let first = plan(&mut random, &world, 1);
        assert!(!first.is_empty(), "half of 16 pieces should find a move");
        assert_legal_in_order(&world, 1, &first);
        let second = plan(&mut random, &world, 1);
        random.new_game();
        assert_eq!(plan(&mut random, &world, 1), first, "new_game reseeds");
        assert_ne!(second, first, "the generator moves on between turns");

        random
            .set_option(RANDOM_MOVE_CHANCE, &OptionValue::Spin(100))
            .unwrap();
        let all = plan(&mut random, &world, 1);
        assert_legal_in_order(&world, 1, &all);
        assert!(all.len() > first.len());
        random
            .set_option(RANDOM_MOVE_CHANCE, &OptionValue::Spin(0))
            .unwrap();
        assert!(plan(&mut random, &world, 1).is_empty());
        assert!(random
            .set_option(RANDOM_MOVE_CHANCE, &OptionValue::Spin(101))
            .is_err());
        assert!(random.set_option("Speed", &OptionValue::Spin(1)).is_err());
    }

    #[test]
    fn greedy_takes_the_king_above_all() {
        // The rook may take the queen or the king.
        let world = sparse_world(&[
            (1, Kind::King, (0, 0)),
            (1, Kind::Rook, (10, 10)),
            (2, Kind::Queen, (10, 14)),
            (2, Kind::King, (14, 10)),
        ]);
        for seed in 0..8 {
            let moves = plan(&mut GreedyMegachessPlayer::new(seed), &world, 1);
            let after = assert_legal_in_order(&world, 1, &moves);
            assert_eq!(
                moves.first(),
                Some(&Move::new(Coord::new(10, 10), Coord::new(14, 10)))
            );
            // The queen came with the king.
            assert_eq!(after.piece_at(Coord::new(10, 14)).unwrap().owner, 1);
        }
    }

    #[test]
    fn greedy_takes_the_highest_rank() {
        let world = sparse_world(&[
            (1, Kind::King, (0, 0)),
            (1, Kind::Queen, (10, 10)),
            (2, Kind::King, (60, 60)),
            (2, Kind::Knight, (10, 13)),
            (2, Kind::Rook, (13, 10)),
            (2, Kind::Pawn, (7, 10)),
        ]);
        let moves = plan(&mut GreedyMegachessPlayer::new(1), &world, 1);
        assert_legal_in_order(&world, 1, &moves);
        assert!(moves.contains(&Move::new(Coord::new(10, 10), Coord::new(13, 10))));
    }

    #[test]
    fn greedy_steps_toward_the_nearest_enemy_king_and_keeps_its_king_home() {
        let world = sparse_world(&[
            (1, Kind::King, (0, 0)),
            (1, Kind::Knight, (10, 10)),
            (1, Kind::Rook, (40, 10)),
            (2, Kind::King, (30, 30)),
            (3, Kind::King, (200, 200)),
        ]);
        let moves = plan(&mut GreedyMegachessPlayer::new(9), &world, 1);
        let after = assert_legal_in_order(&world, 1, &moves);
        let king = Coord::new(30, 30);
        for (from, kind) in [
            (Coord::new(10, 10), Kind::Knight),
            (Coord::new(40, 10), Kind::Rook),
        ] {
            let mv = moves.iter().find(|mv| mv.from == from).expect("it moves");
            assert!(mv.to.distance_squared(king) < from.distance_squared(king));
            // No destination of the piece is nearer than the one chosen.
            let id = world.piece_at(from).unwrap().id;
            let mut targets = Vec::new();
            world.targets(id, &mut targets);
            let best = targets
                .iter()
                .map(|t| t.distance_squared(king))
                .min()
                .unwrap();
            assert_eq!(mv.to.distance_squared(king), best, "{kind:?}");
        }
        assert_eq!(after.piece_at(Coord::new(0, 0)).unwrap().kind, Kind::King);
    }

    #[test]
    fn an_army_of_two_hundred_is_planned_in_milliseconds() {
        // Two armies of 200 in 8 ranks of 25, six ranks apart.
        const KINDS: [Kind; 8] = [
            Kind::Pawn,
            Kind::Knight,
            Kind::Pawn,
            Kind::Bishop,
            Kind::Pawn,
            Kind::Rook,
            Kind::Pawn,
            Kind::Queen,
        ];
        let mut pieces = Vec::new();
        for (owner, bottom) in [(1, 50), (2, 64)] {
            for i in 0..200u32 {
                let kind = if i == 12 {
                    Kind::King
                } else {
                    KINDS[i as usize % 8]
                };
                pieces.push((owner, kind, (50 + i % 25, bottom + i / 25)));
            }
        }
        let world = sparse_world(&pieces);
        assert_eq!(world.pieces_of(1).count(), 200);
        for player in [
            &mut RandomMegachessPlayer::new(1) as &mut dyn MegachessPlayer,
            &mut GreedyMegachessPlayer::new(1),
        ] {
            let began = Instant::now();
            let moves = plan(player, &world, 1);
            let took = began.elapsed();
            println!("{}: {} moves in {took:?}", player.name(), moves.len());
            assert_legal_in_order(&world, 1, &moves);
            assert!(
                took < Duration::from_millis(500),
                "{} took {took:?}",
                player.name()
            );
        }
    }
}
