//! Legal move generation: check evasions, pins and en passant are resolved here, so every
//! generated move is legal and perft can count at the last ply without playing the moves.

use super::moves::{Move, MoveFlag};
use super::position::{castling_right, Chess, PieceKind};
use crate::board::magic::magics;
use crate::board::{Bitboard, Board8x8, Geometry, Square};
use crate::rules::{Color, MoveList};

use crate::board::masks::{FILE_A, FILE_H, RANK_1, RANK_3, RANK_6, RANK_8};

#[inline(always)]
fn push_targets(list: &mut MoveList<Move>, from: Square, targets: u64, enemies: u64) {
    for to in targets.squares() {
        let flag = if enemies.has(to) {
            MoveFlag::Capture
        } else {
            MoveFlag::Quiet
        };
        list.push(Move::new(from, to, flag));
    }
}

/// Pushes pawn moves for every target in `targets`, whose origin is `to - delta`.
#[inline(always)]
fn push_pawn_moves(
    list: &mut MoveList<Move>,
    targets: u64,
    delta: i8,
    capture: bool,
    tactical_only: bool,
) {
    for to in (targets & !(RANK_1 | RANK_8)).squares() {
        let from = Square((to.0 as i8 - delta) as u8);
        list.push(Move::new(
            from,
            to,
            if capture {
                MoveFlag::Capture
            } else {
                MoveFlag::Quiet
            },
        ));
    }
    for to in (targets & (RANK_1 | RANK_8)).squares() {
        let from = Square((to.0 as i8 - delta) as u8);
        if capture {
            list.push(Move::new(from, to, MoveFlag::CapturePromoteQueen));
            list.push(Move::new(from, to, MoveFlag::CapturePromoteRook));
            list.push(Move::new(from, to, MoveFlag::CapturePromoteBishop));
            list.push(Move::new(from, to, MoveFlag::CapturePromoteKnight));
        } else {
            list.push(Move::new(from, to, MoveFlag::PromoteQueen));
            if !tactical_only {
                list.push(Move::new(from, to, MoveFlag::PromoteRook));
                list.push(Move::new(from, to, MoveFlag::PromoteBishop));
                list.push(Move::new(from, to, MoveFlag::PromoteKnight));
            }
        }
    }
}

impl Chess {
    /// Own pieces that are the only piece between their king and an enemy slider.
    #[inline(always)]
    pub fn pinned(&self, us: Color) -> u64 {
        let m = magics();
        let t = Board8x8::tables();
        let king = self.king_square(us);
        let their = self.color_bb(us.flip());
        let queens = self.kind_bb(PieceKind::Queen);
        let snipers = ((m.rook(king, their) & (self.kind_bb(PieceKind::Rook) | queens))
            | (m.bishop(king, their) & (self.kind_bb(PieceKind::Bishop) | queens)))
            & their;
        let occupied = self.occupied();
        let mut pinned = 0;
        for sniper in snipers.squares() {
            let between = t.between(king, sniper) & occupied;
            if !between.more_than_one() {
                pinned |= between;
            }
        }
        pinned & self.color_bb(us)
    }

    /// Generates the legal moves; with `TACTICAL` only captures and queen promotions
    /// (every move when in check is left to the caller).
    pub(super) fn generate<const TACTICAL: bool>(&self, list: &mut MoveList<Move>) {
        let t = Board8x8::tables();
        let m = magics();
        let us = self.side;
        let them = us.flip();
        let our = self.color_bb(us);
        let their = self.color_bb(them);
        let occupied = our | their;
        let king = self.king_square(us);
        let wanted = if TACTICAL { their } else { !our };

        // King moves: the king must not step onto an attacked square, judged with the king
        // lifted off the board so that it cannot hide behind itself from a slider.
        let without_king = occupied ^ (1u64 << king.0);
        for to in (t.king[king.index()] & wanted & !our).squares() {
            if !self.is_attacked_by(to, them, without_king) {
                let flag = if their.has(to) {
                    MoveFlag::Capture
                } else {
                    MoveFlag::Quiet
                };
                list.push(Move::new(king, to, flag));
            }
        }
        let checkers = self.checkers;
        if checkers.more_than_one() {
            return;
        }
        // Non-king moves must land on `target`: anywhere, or, in check, on the checker or
        // between it and the king.
        let target = if checkers.any() {
            (t.between(king, checkers.lsb()) | checkers) & wanted
        } else {
            wanted
        };
        let pinned = self.pinned(us);

        for from in (self.pieces(us, PieceKind::Knight) & !pinned).squares() {
            push_targets(list, from, t.knight[from.index()] & target, their);
        }
        let queens = self.pieces(us, PieceKind::Queen);
        for from in (self.pieces(us, PieceKind::Bishop) | queens).squares() {
            let mut attacks = m.bishop(from, occupied) & target;
            if pinned.has(from) {
                attacks &= t.line(king, from);
            }
            push_targets(list, from, attacks, their);
        }
        for from in (self.pieces(us, PieceKind::Rook) | queens).squares() {
            let mut attacks = m.rook(from, occupied) & target;
            if pinned.has(from) {
                attacks &= t.line(king, from);
            }
            push_targets(list, from, attacks, their);
        }

        self.generate_pawn_moves::<TACTICAL>(list, target, pinned);

        if !TACTICAL && checkers.is_empty() {
            self.generate_castling(list);
        }
    }

    #[inline(always)]
    fn generate_pawn_moves<const TACTICAL: bool>(
        &self,
        list: &mut MoveList<Move>,
        target: u64,
        pinned: u64,
    ) {
        let t = Board8x8::tables();
        let us = self.side;
        let them = us.flip();
        let their = self.color_bb(them);
        let empty = !self.occupied();
        let king = self.king_square(us);
        let pawns = self.pieces(us, PieceKind::Pawn);
        // A pinned pawn may only move along the pin line: such pawns go one by one.
        let free = pawns & !pinned;
        let (forward, left, right, double_rank): (i8, i8, i8, u64) = match us {
            Color::White => (8, 7, 9, RANK_3),
            Color::Black => (-8, -9, -7, RANK_6),
        };
        let shift = |bb: u64, by: i8| if by > 0 { bb << by } else { bb >> -by };
        let promotion_rank = if us == Color::White { RANK_8 } else { RANK_1 };

        // Where a push may land: in tactical mode only promotions, which must still resolve a
        // check (`target` holds only enemy squares there, so it cannot be used).
        let push_target = if TACTICAL {
            let evasion = if self.checkers.any() {
                t.between(king, self.checkers.lsb())
            } else {
                !0
            };
            evasion & promotion_rank
        } else {
            target
        };
        let single = shift(free, forward) & empty;
        push_pawn_moves(list, single & push_target, forward, false, TACTICAL);
        if !TACTICAL {
            let double = shift(single & double_rank, forward) & empty & target;
            for to in double.squares() {
                let from = Square((to.0 as i8 - 2 * forward) as u8);
                list.push(Move::new(from, to, MoveFlag::DoublePush));
            }
        }
        let captures = their & target;
        push_pawn_moves(
            list,
            shift(free & !FILE_A, left) & captures,
            left,
            true,
            TACTICAL,
        );
        push_pawn_moves(
            list,
            shift(free & !FILE_H, right) & captures,
            right,
            true,
            TACTICAL,
        );

        for from in (pawns & pinned).squares() {
            let line = t.line(king, from);
            let bit = 1u64 << from.0;
            let one = shift(bit, forward) & empty & line;
            push_pawn_moves(list, one & push_target, forward, false, TACTICAL);
            if !TACTICAL {
                let two = shift(one & double_rank, forward) & empty & target;
                if two.any() {
                    list.push(Move::new(from, two.lsb(), MoveFlag::DoublePush));
                }
            }
            let hits = t.pawn_attacks[us.index()][from.index()] & captures & line;
            for to in hits.squares() {
                let delta = to.0 as i8 - from.0 as i8;
                push_pawn_moves(list, 1u64 << to.0, delta, true, TACTICAL);
            }
        }

        if let Some(ep) = self.en_passant_square() {
            let victim = Square((ep.0 as i8 - forward) as u8);
            for from in (t.pawn_attacks[them.index()][ep.index()] & pawns).squares() {
                // Play it out on the occupancy: en passant can uncover a check along the rank,
                // and can resolve a check by the double-pushed pawn.
                let after =
                    (self.occupied() ^ (1u64 << from.0) ^ (1u64 << victim.0)) | (1u64 << ep.0);
                let attackers = self.attackers_to(king, after) & their & !(1u64 << victim.0);
                if attackers.is_empty() {
                    list.push(Move::new(from, ep, MoveFlag::EnPassant));
                }
            }
        }
    }

    /// Castling, king's side first: every square the king and the rook cross or land on free
    /// but for the two of them, the squares the king crosses not attacked, and the king not in
    /// check where it lands (with the rook moved: in Chess960 the rook may have been shielding
    /// that square). The caller has checked that the king is not in check now.
    fn generate_castling(&self, list: &mut MoveList<Move>) {
        let t = Board8x8::tables();
        let occupied = self.occupied();
        let us = self.side;
        let them = us.flip();
        let king = self.king_square(us);
        let rank = king.0 & !7;
        for (king_side, king_file) in [(true, 6), (false, 2)] {
            let Some(rook) = self.castling_rook(castling_right(us, king_side)) else {
                continue;
            };
            let king_to = Square(rank + king_file);
            let (_, rook_to) = self.castling_rook_move(us, king_to);
            let span = |a: Square, b: Square| t.between(a, b) | (1u64 << b.0);
            let lifted = occupied & !(1u64 << king.0) & !(1u64 << rook.0);
            if lifted & (span(king, king_to) | span(rook, rook_to)) != 0 {
                continue;
            }
            let crossed = t.between(king, king_to);
            if crossed
                .squares()
                .any(|square| self.is_attacked_by(square, them, occupied ^ (1u64 << king.0)))
            {
                continue;
            }
            let after = lifted | (1u64 << king_to.0) | (1u64 << rook_to.0);
            if self.is_attacked_by(king_to, them, after) {
                continue;
            }
            list.push(Move::new(king, king_to, MoveFlag::Castle));
        }
    }
}
