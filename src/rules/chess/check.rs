//! Whether a move checks, decided before it is played: the search prunes many moves it would
//! otherwise copy and make only to ask this.

use super::{Chess, Move, PieceKind};
use crate::board::magic::magics;
use crate::board::{Bitboard, Board8x8, Geometry, Square};

impl Chess {
    /// Whether the legal move `mv` leaves the opponent in check: the pieces of the side to
    /// move as they stand after it, on the board's occupancy after it, attacking the enemy king
    /// directly or by discovery (a castling rook, an en passant capture's open line and a
    /// promotion's new piece included).
    pub fn move_gives_check(&self, mv: Move) -> bool {
        let us = self.side();
        let them = us.flip();
        let king = self.king_square(them).index();
        let (from, to) = (mv.from(), mv.to());
        let (from_bb, to_bb) = (1u64 << from.index(), 1u64 << to.index());
        let moving = PieceKind::ALL[(self.code_at(from) % 6) as usize];
        let arriving = if mv.is_promotion() {
            PieceKind::ALL[mv.promotion_index()]
        } else {
            moving
        };
        let mut occupied = (self.occupied() & !from_bb) | to_bb;
        let ours = |kind: PieceKind| -> u64 {
            let mut set = self.pieces(us, kind) & !from_bb;
            if kind == arriving {
                set |= to_bb;
            }
            set
        };
        let mut rooks = ours(PieceKind::Rook);
        if mv.is_en_passant() {
            let victim = if to.0 > from.0 { to.0 - 8 } else { to.0 + 8 };
            occupied &= !(1u64 << victim);
        } else if mv.is_castle() {
            let (rook_from, rook_to) = self.castling_rook_move(us, to);
            let (rook_from, rook_to) = (1u64 << rook_from.index(), 1u64 << rook_to.index());
            // In Chess960 the king may land where its rook stood.
            occupied = (occupied & !rook_from) | rook_to | to_bb;
            rooks = (rooks & !rook_from) | rook_to;
        }
        let queens = ours(PieceKind::Queen);
        let tables = Board8x8::tables();
        let magic = magics();
        let king_square = Square(king as u8);
        ((tables.pawn_attacks[them.index()][king] & ours(PieceKind::Pawn))
            | (tables.knight[king] & ours(PieceKind::Knight))
            | (magic.bishop(king_square, occupied) & (ours(PieceKind::Bishop) | queens))
            | (magic.rook(king_square, occupied) & (rooks | queens)))
            .any()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::Rng;
    use crate::rules::{Game, MoveList};

    /// Every legal move of random games, and of positions full of special moves: checking
    /// before the move says what playing it says.
    #[test]
    fn a_check_is_told_before_the_move_as_after_it() {
        let mut starts: Vec<Chess> = [
            crate::rules::chess::START_FEN,
            // Castling into a check by the rook, promotions with check, en passant opening a
            // line to the king, discovered checks.
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "5k2/1P6/8/8/8/8/8/R3K3 w Q - 0 1",
            "8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/8/8/8/3B4/R3K2R w KQ - 0 1",
            "7k/5P2/8/8/8/8/8/K5R1 w - - 0 1",
        ]
        .iter()
        .map(|fen| Chess::from_fen(fen).unwrap())
        .collect();
        let mut rng = Rng::new(3);
        let (mut moves_checked, mut checks) = (0, 0);
        for game in 0..40 {
            let mut position = starts[game % starts.len()];
            for _ in 0..120 {
                let mut moves = MoveList::new();
                position.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                for &mv in &moves {
                    let after = position.play(mv).in_check();
                    assert_eq!(
                        position.move_gives_check(mv),
                        after,
                        "{} {}",
                        position.fen(),
                        position.move_text(mv)
                    );
                    moves_checked += 1;
                    checks += after as usize;
                }
                position = position.play(moves[rng.index(moves.len())]);
            }
        }
        starts.clear();
        assert!(
            moves_checked > 50_000 && checks > 1_000,
            "{moves_checked} {checks}"
        );
    }
}
