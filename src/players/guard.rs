//! The whole-turn guard: a Megachess sparring partner stronger than greedy, written from the
//! rules alone (it shares no code with Roger's planner, so it measures it from outside).
//!
//! Every move it considers is checked against the other team's **whole next turn**: every enemy
//! piece may move once, so an enemy line passes through the enemy's own pieces (they may step
//! out of the way first) and stops at any other piece. A plan is built move by move on a copy
//! of the world, in phases: take every enemy king it can; get its own king out of reach; take
//! what gains more than it risks; save what hangs; collect bonus pieces and keep fading pieces
//! alive; and step the rest toward the nearest enemy king onto squares the enemy cannot take
//! for free. Each step takes the move whose gain, less what it exposes (the change in the sum
//! of what the enemy's next turn could take from it), is best, ties broken by a seeded draw.
//! No move is ever kept that leaves its king where an enemy piece can take it, if any other
//! move avoids that.

use super::percent_option;
use crate::common::Rng;
use crate::options::{spin_value, OptionSpec, OptionValue};
use crate::plan::{MegachessPlayer, PlanProgress, TurnBudget};
use crate::rules::megachess::{
    movement, Coord, Kind, Move, PieceId, PlayerId, World, KNIGHT_STEPS, NEUTRAL,
};
use std::sync::atomic::AtomicBool;

/// The option: the chance, in percent, that a piece with a safe step toward the enemy takes it.
pub const ADVANCE: &str = "Advance";

/// A king's worth in the guard's sums: above any army.
const KING_WORTH: i64 = 10_000;

/// Whether a piece of `kind` captures a piece `distance` squares away along the line `step`
/// (knights never do: they jump).
fn captures_along(kind: Kind, step: (i32, i32), distance: u32) -> bool {
    let diagonal = step.0 != 0 && step.1 != 0;
    match kind {
        Kind::Pawn => diagonal && distance == 1,
        Kind::Knight => false,
        kind => {
            let rule = movement(kind);
            distance <= rule.range && rule.lines.contains(&step)
        }
    }
}

/// Whose a piece is, seen from the guard's player.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Owner {
    /// Mine or an ally's: blocks enemy lines, defends.
    Friend,
    /// An enemy that still plays: may move next turn (out of the way, or to capture).
    Enemy,
    /// Neutral pieces, and the pieces of an enemy that left: they never move.
    Still,
}

/// The Megachess whole-turn guard.
pub struct GuardMegachessPlayer {
    seed: u64,
    advance_percent: u64,
}

impl GuardMegachessPlayer {
    pub const DEFAULT_ADVANCE: i64 = 100;

    pub fn new(seed: u64) -> GuardMegachessPlayer {
        GuardMegachessPlayer {
            seed,
            advance_percent: Self::DEFAULT_ADVANCE as u64,
        }
    }
}

impl MegachessPlayer for GuardMegachessPlayer {
    fn name(&self) -> String {
        "guard".to_string()
    }
    fn options(&self) -> Vec<OptionSpec> {
        vec![percent_option(ADVANCE, Self::DEFAULT_ADVANCE)]
    }
    fn set_option(&mut self, name: &str, value: &OptionValue) -> Result<(), String> {
        self.advance_percent = spin_value(&self.options(), name, value)?.1 as u64;
        Ok(())
    }
    fn plan_turn(
        &mut self,
        world: &World,
        me: PlayerId,
        _budget: TurnBudget,
        _stop: &AtomicBool,
        _progress: &mut dyn FnMut(&PlanProgress),
    ) -> Vec<Move> {
        // The draws depend on the world's turn, the player and the seed only, so a world replays.
        let rng = Rng::new(self.seed ^ world.turn().rotate_left(17) ^ u64::from(me) << 40);
        let mut turn = Turn::new(world.clone(), me, rng);
        turn.take_kings();
        turn.improve(Phase::KingSafety);
        turn.improve(Phase::Gain);
        turn.advance(self.advance_percent);
        turn.improve(Phase::KingSafety);
        turn.moves
    }
}

/// What a step of the plan is after.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Only while the king can be taken: the move that leaves it safest.
    KingSafety,
    /// Captures, rescues, collections and fading pieces: any move that gains.
    Gain,
}

/// One turn being planned on a copy of the world.
struct Turn {
    board: World,
    me: PlayerId,
    rng: Rng,
    moves: Vec<Move>,
}

impl Turn {
    fn new(board: World, me: PlayerId, rng: Rng) -> Turn {
        Turn {
            board,
            me,
            rng,
            moves: Vec::new(),
        }
    }

    fn owner(&self, piece_owner: PlayerId) -> Owner {
        if piece_owner == NEUTRAL {
            return Owner::Still;
        }
        if self.board.allied(piece_owner, self.me) {
            return Owner::Friend;
        }
        match self.board.player(piece_owner) {
            Some(player) if player.present => Owner::Enemy,
            _ => Owner::Still,
        }
    }

    fn worth(&self, kind: Kind) -> i64 {
        match kind {
            Kind::King => KING_WORTH,
            other => i64::from(self.board.params().rank(other)),
        }
    }

    /// The enemy pieces that may capture on `square` in their next turn, as (worth) of each:
    /// lines pass through enemy pieces, stop at every other one.
    fn attackers(&self, square: Coord, out: &mut Vec<i64>) {
        out.clear();
        for step in crate::rules::megachess::KING_STEPS {
            for (distance, piece) in self.pieces_along(square, step) {
                if self.owner(piece.owner) != Owner::Enemy {
                    break;
                }
                if captures_along(piece.kind, step, distance) {
                    out.push(self.worth(piece.kind));
                }
            }
        }
        let knights = self.knights_around(square, Owner::Enemy);
        out.extend(std::iter::repeat_n(self.worth(Kind::Knight), knights));
    }

    /// The pieces along the line `step` from `square` (not included) within 7 squares, nearest
    /// first, with their distance.
    fn pieces_along(
        &self,
        square: Coord,
        step: (i32, i32),
    ) -> impl Iterator<Item = (u32, &crate::rules::megachess::Piece)> + '_ {
        let params = self.board.params();
        (1..=7u32)
            .map_while(move |distance| {
                let (dx, dy) = (step.0 * distance as i32, step.1 * distance as i32);
                square
                    .offset(dx, dy, params.width, params.height)
                    .map(|at| (distance, at))
            })
            .filter_map(|(distance, at)| self.board.piece_at(at).map(|piece| (distance, piece)))
    }

    /// How many knights of `whose` stand a knight's jump from `square`.
    fn knights_around(&self, square: Coord, whose: Owner) -> usize {
        let params = self.board.params();
        KNIGHT_STEPS
            .iter()
            .filter_map(|&(dx, dy)| square.offset(dx, dy, params.width, params.height))
            .filter_map(|at| self.board.piece_at(at))
            .filter(|piece| piece.kind == Kind::Knight && self.owner(piece.owner) == whose)
            .count()
    }

    /// Whether a piece of my team other than the one on `square` could take back there: the
    /// first piece along a line, or a knight.
    fn defended(&self, square: Coord) -> bool {
        self.knights_around(square, Owner::Friend) > 0
            || crate::rules::megachess::KING_STEPS.into_iter().any(|step| {
                self.pieces_along(square, step)
                    .next()
                    .is_some_and(|(distance, piece)| {
                        self.owner(piece.owner) == Owner::Friend
                            && captures_along(piece.kind, step, distance)
                    })
            })
    }

    /// What the enemy's next turn could take from me, summed over my pieces: an undefended
    /// piece its worth, a defended one what the exchange loses, my king everything. A piece
    /// about to fade unmoved counts as lost too.
    fn exposure(&self, scratch: &mut Vec<i64>) -> i64 {
        let king = self.board.kingdom_centre(self.me);
        let radius = u64::from(self.board.params().kingdom_radius);
        let mut total = 0;
        for piece in self.board.pieces_of(self.me) {
            let worth = self.worth(piece.kind);
            let fading = piece.kind != Kind::King
                && !self.board.moved_this_turn(piece.id)
                && piece.life == Some(1)
                && king.is_some_and(|k| k.distance_squared(piece.at) > radius * radius);
            if fading {
                total += worth;
                continue;
            }
            self.attackers(piece.at, scratch);
            let Some(&cheapest) = scratch.iter().min() else {
                continue;
            };
            total += if piece.kind == Kind::King {
                KING_WORTH * (1 + scratch.len() as i64)
            } else if !self.defended(piece.at) {
                worth
            } else {
                (worth - cheapest).max(0)
            };
        }
        total
    }

    /// My pieces that have not moved yet this turn (pieces gained during it included).
    fn movable(&self) -> Vec<(PieceId, Coord)> {
        self.board
            .pieces_of(self.me)
            .filter(|piece| !self.board.moved_this_turn(piece.id))
            .map(|piece| (piece.id, piece.at))
            .collect()
    }

    fn legal_targets(&self, id: PieceId, from: Coord, out: &mut Vec<Coord>) {
        out.clear();
        self.board.targets(id, out);
        out.retain(|&to| self.board.check(self.me, Move::new(from, to)).is_ok());
    }

    fn play(&mut self, mv: Move) {
        if self.board.apply(self.me, mv).is_ok() {
            self.moves.push(mv);
        }
    }

    /// Takes every enemy king any of my pieces can reach, one after another (an army handed
    /// over may reach the next).
    fn take_kings(&mut self) {
        let mut targets = Vec::new();
        'again: loop {
            for (id, from) in self.movable() {
                self.legal_targets(id, from, &mut targets);
                let king = targets.iter().copied().find(|&to| {
                    self.board
                        .piece_at(to)
                        .is_some_and(|victim| victim.kind == Kind::King)
                });
                if let Some(to) = king {
                    self.play(Move::new(from, to));
                    continue 'again;
                }
            }
            return;
        }
    }

    /// The square of the enemy king nearest `from`, if any is in view.
    fn nearest_enemy_king(&self, from: Coord) -> Option<Coord> {
        self.board
            .pieces()
            .filter(|p| p.kind == Kind::King && self.owner(p.owner) == Owner::Enemy)
            .map(|p| p.at)
            .min_by_key(|at| at.distance_squared(from))
    }

    /// What a move gains before its exposure: the capture, the neutral pieces it collects.
    fn direct_gain(&self, to: Coord) -> i64 {
        let mut gain = self
            .board
            .piece_at(to)
            .map_or(0, |victim| self.worth(victim.kind));
        let params = self.board.params();
        for (dx, dy) in crate::rules::megachess::KING_STEPS {
            if let Some(near) = to
                .offset(dx, dy, params.width, params.height)
                .and_then(|at| self.board.piece_at(at))
            {
                if near.owner == NEUTRAL {
                    gain += self.worth(near.kind);
                }
            }
        }
        gain
    }

    /// Repeats the best move of the phase while one is worth making.
    fn improve(&mut self, phase: Phase) {
        let mut scratch = Vec::new();
        let mut targets = Vec::new();
        loop {
            let before = self.exposure(&mut scratch);
            if phase == Phase::KingSafety && before < KING_WORTH {
                return;
            }
            let mut best: Option<(i64, Move)> = None;
            let mut ties = 0;
            for (id, from) in self.movable() {
                self.legal_targets(id, from, &mut targets);
                for &to in &targets {
                    let mv = Move::new(from, to);
                    let gain = self.direct_gain(to);
                    let saved = self.board.clone();
                    if self.board.apply(self.me, mv).is_err() {
                        continue;
                    }
                    let value = gain + before - self.exposure(&mut scratch);
                    self.board = saved;
                    match best {
                        Some((b, _)) if value < b => {}
                        Some((b, _)) if value == b => {
                            ties += 1;
                            if self.rng.index(ties + 1) == 0 {
                                best = Some((value, mv));
                            }
                        }
                        _ => {
                            best = Some((value, mv));
                            ties = 0;
                        }
                    }
                }
            }
            match best {
                Some((value, mv)) if value > 0 => self.play(mv),
                _ => return,
            }
        }
    }

    /// Steps pieces (not the king) toward the nearest enemy king, each with `percent` chance,
    /// onto the nearest square that exposes nothing more.
    fn advance(&mut self, percent: u64) {
        let mut scratch = Vec::new();
        let mut targets = Vec::new();
        let mut pieces = self.movable();
        for i in (1..pieces.len()).rev() {
            pieces.swap(i, self.rng.index(i + 1));
        }
        for (id, from) in pieces {
            let Some(piece) = self.board.piece(id) else {
                continue;
            };
            if piece.owner != self.me || piece.kind == Kind::King || piece.at != from {
                continue;
            }
            if self.rng.index(100) as u64 >= percent {
                continue;
            }
            let Some(goal) = self.nearest_enemy_king(from) else {
                return;
            };
            let before = self.exposure(&mut scratch);
            let now = goal.distance_squared(from);
            self.legal_targets(id, from, &mut targets);
            let mut best: Option<(u64, Move)> = None;
            for &to in &targets {
                let distance = goal.distance_squared(to);
                if distance >= now || best.is_some_and(|(b, _)| distance >= b) {
                    continue;
                }
                let mv = Move::new(from, to);
                let saved = self.board.clone();
                if self.board.apply(self.me, mv).is_err() {
                    continue;
                }
                let exposed = self.exposure(&mut scratch);
                self.board = saved;
                if exposed <= before {
                    best = Some((distance, mv));
                }
            }
            if let Some((_, mv)) = best {
                self.play(mv);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::megachess::{Facing, MegachessParams, Team};

    use crate::players::megachess::tests::plan;

    fn apply_all(world: &World, me: PlayerId, moves: &[Move]) -> World {
        let mut board = world.clone();
        for &mv in moves {
            board
                .apply(me, mv)
                .unwrap_or_else(|r| panic!("{mv} rejected: {r}"));
        }
        board
    }

    /// Pieces on an empty board: player 1 alabaster (to move), player 2 metal.
    fn sparse_world(pieces: &[(PlayerId, Kind, (u32, u32))]) -> World {
        let mut world = World::new(MegachessParams::default(), 1);
        world.add_player(1, Team::Alabaster).unwrap();
        world.add_player(2, Team::Metal).unwrap();
        for &(owner, kind, (x, y)) in pieces {
            world
                .place(owner, kind, Coord::new(x, y), false, false, None)
                .unwrap();
        }
        world
    }

    #[test]
    fn takes_a_king_first() {
        let world = sparse_world(&[
            (1, Kind::King, (0, 0)),
            (1, Kind::Rook, (10, 10)),
            (2, Kind::Queen, (10, 14)),
            (2, Kind::King, (14, 10)),
        ]);
        let moves = plan(&mut GuardMegachessPlayer::new(1), &world, 1);
        assert_eq!(
            moves.first(),
            Some(&Move::new(Coord::new(10, 10), Coord::new(14, 10)))
        );
    }

    #[test]
    fn sees_a_line_through_the_enemys_own_pieces() {
        // The metal queen's file to my king is blocked only by a metal pawn, which may step
        // aside first: the king must leave the file (or the file be blocked by a piece of mine).
        let world = sparse_world(&[
            (1, Kind::King, (20, 10)),
            (2, Kind::Pawn, (20, 13)),
            (2, Kind::Queen, (20, 16)),
            (2, Kind::King, (60, 60)),
        ]);
        let moves = plan(&mut GuardMegachessPlayer::new(1), &world, 1);
        let after = apply_all(&world, 1, &moves);
        let turn = Turn::new(after, 1, Rng::new(1));
        let king = turn.board.kingdom_centre(1).unwrap();
        let mut attackers = Vec::new();
        turn.attackers(king, &mut attackers);
        assert!(attackers.is_empty(), "king on {king} still attacked");
        assert_ne!(king, Coord::new(20, 10));
    }

    #[test]
    fn does_not_give_a_rook_for_a_defended_pawn_and_saves_a_hanging_queen() {
        // Taking the pawn on (12, 14) loses the rook to the pawn on (13, 15); the queen on
        // (30, 10) is attacked by a metal knight and must move.
        let world = sparse_world(&[
            (1, Kind::King, (0, 0)),
            (1, Kind::Rook, (12, 10)),
            (1, Kind::Queen, (30, 10)),
            (2, Kind::Pawn, (12, 14)),
            (2, Kind::Pawn, (13, 15)),
            (2, Kind::Knight, (31, 12)),
            (2, Kind::King, (60, 60)),
        ]);
        for seed in 0..4 {
            let moves = plan(&mut GuardMegachessPlayer::new(seed), &world, 1);
            assert!(!moves.contains(&Move::new(Coord::new(12, 10), Coord::new(12, 14))));
            let after = apply_all(&world, 1, &moves);
            let queen = after
                .pieces_of(1)
                .find(|p| p.kind == Kind::Queen)
                .expect("the queen lives");
            let turn = Turn::new(after.clone(), 1, Rng::new(1));
            let mut attackers = Vec::new();
            turn.attackers(queen.at, &mut attackers);
            assert!(
                attackers.is_empty()
                    || turn.defended(queen.at) && attackers.iter().all(|&a| a >= 9),
                "seed {seed}: queen left on {} under {attackers:?}",
                queen.at
            );
        }
    }

    #[test]
    fn plans_are_legal_in_order_and_options_are_checked() {
        let mut world = World::new(MegachessParams::default(), 1);
        world.add_player(1, Team::Alabaster).unwrap();
        world.add_player(2, Team::Metal).unwrap();
        world
            .spawn_army(1, Coord::new(100, 100), Facing::North)
            .unwrap();
        world
            .spawn_army(2, Coord::new(100, 106), Facing::South)
            .unwrap();
        let mut guard = GuardMegachessPlayer::new(3);
        let moves = plan(&mut guard, &world, 1);
        assert!(!moves.is_empty(), "some piece steps forward safely");
        apply_all(&world, 1, &moves);
        guard.set_option(ADVANCE, &OptionValue::Spin(0)).unwrap();
        assert!(
            plan(&mut guard, &world, 1).is_empty(),
            "nothing to gain, no advance"
        );
        assert!(guard.set_option(ADVANCE, &OptionValue::Spin(101)).is_err());
        assert!(guard.set_option("Speed", &OptionValue::Spin(1)).is_err());
    }
}
