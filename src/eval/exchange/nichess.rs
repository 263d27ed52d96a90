//! The exchange measure of Nichess, where an attack may only damage its target and the attacker
//! then stops next to it: the exchange is played out with the real rules on the square where
//! the moved piece ends, counting health-weighted material, so a hit that merely wounds a
//! piece and leaves the attacker exposed scores what it really costs.

use super::Exchange;
use crate::board::Square;
use crate::eval::nichess::material_gain;
use crate::rules::nichess::{Move, MoveKind, Nichess};
use crate::rules::{Game, MoveList};

/// Replies followed after the move itself (a hit, its answer, ours, theirs).
const EXCHANGE_PLIES: u32 = 3;
/// The value of destroying a king: the game.
const KING_VALUE: i32 = 20_000;

impl Exchange for Nichess {
    fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        exchange_value(self, mv, EXCHANGE_PLIES) >= threshold
    }
}

/// What the side to move wins by `mv`, less the best the opponent then wins on the square where
/// the moved piece stands (each side may stop instead of going on).
fn exchange_value(pos: &Nichess, mv: Move, plies: u32) -> i32 {
    let child = pos.play(mv);
    if child.king_destroyed(child.side()) {
        return KING_VALUE;
    }
    let won = material_gain(pos, &child, pos.side());
    if plies == 0 {
        return won;
    }
    let landing = landing_square(&child, mv);
    let mut replies = MoveList::new();
    child.generate_tactical(&mut replies);
    let answer = replies
        .iter()
        .filter(|reply| reply.to() == landing)
        .map(|&reply| exchange_value(&child, reply, plies - 1))
        .max()
        .unwrap_or(0)
        .max(0);
    won - answer
}

/// Where the piece that made `mv` stands in `child`: on the target square when it moved there
/// or destroyed its target (a throw's piece lands there too), otherwise on the square before the
/// target along its line.
fn landing_square(child: &Nichess, mv: Move) -> Square {
    let (from, to) = (mv.from(), mv.to());
    let mover = child.side().flip();
    let ours_on_target = child.piece_at(to).is_some_and(|p| p.color == mover);
    if ours_on_target || !matches!(mv.kind(), MoveKind::Attack | MoveKind::AttackPromotion) {
        return to;
    }
    let files = i32::from(Nichess::FILES);
    let (from_file, from_rank) = (i32::from(from.0) % files, i32::from(from.0) / files);
    let (to_file, to_rank) = (i32::from(to.0) % files, i32::from(to.0) / files);
    let step_file = (from_file - to_file).signum();
    let step_rank = (from_rank - to_rank).signum();
    Square(((to_rank + step_rank) * files + to_file + step_file) as u8)
}
