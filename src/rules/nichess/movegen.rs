//! Action generation. Nichess has no check, so every action the patterns allow is legal: no
//! pins or evasions, and perft can count at the last ply without playing the actions.

use super::moves::{Move, MoveKind};
use super::position::{Nichess, PieceKind};
use super::tables::{first_blocker, KING, KNIGHT, ORTHOGONAL_STEP, PAWN_ATTACKS};
use crate::board::magic::magics;
use crate::board::{Bitboard, Square, DIAGONAL_RAYS, ORTHOGONAL_RAYS};
use crate::rules::{Color, MoveList};

use crate::board::masks::{BACK_RANKS, FILE_A, FILE_H, RANK_1, RANK_3, RANK_6, RANK_8};

#[inline(always)]
fn push_all(list: &mut MoveList<Move>, from: u8, targets: u64, kind: MoveKind) {
    for to in targets.squares() {
        list.push(Move::new(from, to.0, kind));
    }
}

/// Pushes pawn actions onto every square of `targets`, from `to - delta`; those on the last rank
/// promote.
#[inline(always)]
fn push_pawn(list: &mut MoveList<Move>, targets: u64, delta: i8, kind: MoveKind, promo: MoveKind) {
    for to in (targets & !BACK_RANKS).squares() {
        list.push(Move::new((to.0 as i8 - delta) as u8, to.0, kind));
    }
    for to in (targets & BACK_RANKS).squares() {
        list.push(Move::new((to.0 as i8 - delta) as u8, to.0, promo));
    }
}

/// The square next to `sq` along ray `dir`, if there is one.
#[inline(always)]
fn neighbour(sq: usize, dir: usize) -> Option<u8> {
    first_blocker(sq, dir, !0)
}

impl Nichess {
    /// Generates the legal actions; with `TACTICAL` only attacks, throws and promotions.
    pub(super) fn generate<const TACTICAL: bool>(&self, list: &mut MoveList<Move>) {
        let us = self.side;
        if self.game_over() {
            return;
        }
        let m = magics();
        let our = self.color_bb(us);
        let their = self.color_bb(us.flip());
        let occupied = our | their;
        let empty = if TACTICAL { 0 } else { !occupied };

        for from in self.pieces(us, PieceKind::Knight).squares() {
            let targets = KNIGHT[from.index()];
            push_all(list, from.0, targets & empty, MoveKind::Quiet);
            push_all(list, from.0, targets & their, MoveKind::Attack);
        }
        for from in self.pieces(us, PieceKind::Queen).squares() {
            let targets = m.queen(from, occupied);
            push_all(list, from.0, targets & empty, MoveKind::Quiet);
            push_all(list, from.0, targets & their, MoveKind::Attack);
        }
        for from in self.pieces(us, PieceKind::Pirate).squares() {
            let targets = m.rook(from, occupied);
            push_all(list, from.0, targets & empty, MoveKind::Quiet);
            push_all(list, from.0, targets & their, MoveKind::Attack);
        }
        for from in self.pieces(us, PieceKind::Maenad).squares() {
            let targets = m.bishop(from, occupied) | ORTHOGONAL_STEP[from.index()];
            push_all(list, from.0, targets & empty, MoveKind::Quiet);
            push_all(list, from.0, targets & their, MoveKind::Attack);
        }
        let king = self.pieces(us, PieceKind::King).lsb();
        push_all(list, king.0, KING[king.index()] & empty, MoveKind::Quiet);
        push_all(list, king.0, KING[king.index()] & their, MoveKind::Attack);

        self.generate_pawn_actions::<TACTICAL>(list, their, occupied);
        if !TACTICAL {
            self.generate_castling(list, king, occupied);
        }
        self.for_each_throw(us, |thrower, target| {
            list.push(Move::new(thrower, target, MoveKind::Throw));
        });
    }

    /// The number of legal actions, counted without listing them (perft's last ply).
    pub fn count_actions(&self) -> u64 {
        let us = self.side;
        if self.game_over() {
            return 0;
        }
        let m = magics();
        let our = self.color_bb(us);
        let occupied = our | self.color_bb(us.flip());
        let not_own = !our;
        let mut count = 0u32;
        for from in self.pieces(us, PieceKind::Knight).squares() {
            count += (KNIGHT[from.index()] & not_own).count_ones();
        }
        for from in self.pieces(us, PieceKind::Queen).squares() {
            count += (m.queen(from, occupied) & not_own).count_ones();
        }
        for from in self.pieces(us, PieceKind::Pirate).squares() {
            count += (m.rook(from, occupied) & not_own).count_ones();
        }
        for from in self.pieces(us, PieceKind::Maenad).squares() {
            let targets = m.bishop(from, occupied) | ORTHOGONAL_STEP[from.index()];
            count += (targets & not_own).count_ones();
        }
        let king = self.pieces(us, PieceKind::King).lsb();
        count += (KING[king.index()] & not_own).count_ones();
        let pawns = self.pieces(us, PieceKind::Pawn);
        if pawns != 0 {
            let their = self.color_bb(us.flip());
            let empty = !occupied;
            let (single, double, hits) = match us {
                Color::White => {
                    let single = (pawns << 8) & empty;
                    let double = ((single & RANK_3) << 8) & empty;
                    let hits = (((pawns & !FILE_A) << 7) & their).count_ones()
                        + (((pawns & !FILE_H) << 9) & their).count_ones();
                    (single, double, hits)
                }
                Color::Black => {
                    let single = (pawns >> 8) & empty;
                    let double = ((single & RANK_6) >> 8) & empty;
                    let hits = (((pawns & !FILE_A) >> 9) & their).count_ones()
                        + (((pawns & !FILE_H) >> 7) & their).count_ones();
                    (single, double, hits)
                }
            };
            count += single.count_ones() + double.count_ones() + hits;
        }
        let mut list = MoveList::new();
        self.generate_castling(&mut list, king, occupied);
        count += list.len() as u32;
        self.for_each_throw(us, |_, _| count += 1);
        count as u64
    }

    #[inline(always)]
    fn generate_pawn_actions<const TACTICAL: bool>(
        &self,
        list: &mut MoveList<Move>,
        their: u64,
        occupied: u64,
    ) {
        let pawns = self.pieces(self.side, PieceKind::Pawn);
        if pawns == 0 {
            return;
        }
        let empty = !occupied;
        let (forward, left, right, double_rank, last_rank): (i8, i8, i8, u64, u64) = match self.side
        {
            Color::White => (8, 7, 9, RANK_3, RANK_8),
            Color::Black => (-8, -9, -7, RANK_6, RANK_1),
        };
        let shift = |bb: u64, by: i8| if by > 0 { bb << by } else { bb >> -by };
        let single = shift(pawns, forward) & empty;
        // In tactical mode only the pushes that promote.
        let pushes = if TACTICAL { single & last_rank } else { single };
        push_pawn(list, pushes, forward, MoveKind::Quiet, MoveKind::Promotion);
        if !TACTICAL {
            let double = shift(single & double_rank, forward) & empty;
            push_pawn(list, double, 2 * forward, MoveKind::Quiet, MoveKind::Quiet);
        }
        let attack = MoveKind::Attack;
        let promote = MoveKind::AttackPromotion;
        push_pawn(
            list,
            shift(pawns & !FILE_A, left) & their,
            left,
            attack,
            promote,
        );
        push_pawn(
            list,
            shift(pawns & !FILE_H, right) & their,
            right,
            attack,
            promote,
        );
    }

    /// Castling by squares only: the king on its start square, an own pirate in the corner,
    /// nothing between them.
    #[inline(always)]
    fn generate_castling(&self, list: &mut MoveList<Move>, king: Square, occupied: u64) {
        let base = match self.side {
            Color::White => 0u8,
            Color::Black => 56u8,
        };
        if king.0 != base + 4 {
            return;
        }
        let pirates = self.pieces(self.side, PieceKind::Pirate);
        if pirates & (1u64 << (base + 7)) != 0 && occupied & (0b0110_0000u64 << base) == 0 {
            list.push(Move::new(base + 4, base + 6, MoveKind::Castle));
        }
        if pirates & (1u64 << base) != 0 && occupied & (0b0000_1110u64 << base) == 0 {
            list.push(Move::new(base + 4, base + 2, MoveKind::Castle));
        }
    }

    /// Calls `f(thrower, target)` for every throw `color` could make here: a queen throwing an
    /// adjacent diagonal maenad, or a pirate throwing an adjacent orthogonal pirate, at the
    /// first piece beyond it on that line when that piece is an enemy.
    #[inline(always)]
    pub fn for_each_throw(&self, color: Color, mut f: impl FnMut(u8, u8)) {
        let own = self.color_bb(color);
        let their = self.color_bb(color.flip());
        let occupied = own | their;
        let maenads = self.pieces(color, PieceKind::Maenad);
        if maenads != 0 {
            for queen in self.pieces(color, PieceKind::Queen).squares() {
                if KING[queen.index()] & maenads == 0 {
                    continue;
                }
                for dir in DIAGONAL_RAYS {
                    Self::throw_along(queen.0, dir, maenads, occupied, their, &mut f);
                }
            }
        }
        let pirates = self.pieces(color, PieceKind::Pirate);
        if pirates.more_than_one() {
            for pirate in pirates.squares() {
                if ORTHOGONAL_STEP[pirate.index()] & pirates == 0 {
                    continue;
                }
                for dir in ORTHOGONAL_RAYS {
                    Self::throw_along(pirate.0, dir, pirates, occupied, their, &mut f);
                }
            }
        }
    }

    #[inline(always)]
    fn throw_along(
        thrower: u8,
        dir: usize,
        throwable: u64,
        occupied: u64,
        their: u64,
        f: &mut impl FnMut(u8, u8),
    ) {
        let Some(next) = neighbour(thrower as usize, dir) else {
            return;
        };
        if throwable & (1u64 << next) == 0 {
            return;
        }
        if let Some(target) = first_blocker(next as usize, dir, occupied) {
            if their & (1u64 << target) != 0 {
                f(thrower, target);
            }
        }
    }

    /// Pieces of `by` whose standard attack reaches `sq`, with the board's occupancy.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, by: Color) -> u64 {
        let m = magics();
        let occupied = self.occupied();
        let s = sq.index();
        let piece = |kind| self.pieces(by, kind);
        (PAWN_ATTACKS[by.flip().index()][s] & piece(PieceKind::Pawn))
            | (KNIGHT[s] & piece(PieceKind::Knight))
            | (KING[s] & piece(PieceKind::King))
            | (m.rook(sq, occupied) & (piece(PieceKind::Pirate) | piece(PieceKind::Queen)))
            | (m.bishop(sq, occupied) & (piece(PieceKind::Maenad) | piece(PieceKind::Queen)))
            | (ORTHOGONAL_STEP[s] & piece(PieceKind::Maenad))
    }

    /// Squares of `color.flip()` pieces that `color` can throw at.
    #[inline]
    pub fn throw_targets(&self, color: Color) -> u64 {
        let mut targets = 0u64;
        self.for_each_throw(color, |_, target| targets |= 1u64 << target);
        targets
    }

    /// True when the opponent of `color` could destroy `color`'s king with its next action: a
    /// standard attack on the king (it has 10 HP, any hit kills it), a throw at the king, or a
    /// throw at a piece next to it (the splash kills it). Also true when the king is gone.
    pub fn king_in_danger(&self, color: Color) -> bool {
        let kings = self.pieces(color, PieceKind::King);
        if kings == 0 {
            return true;
        }
        let king = kings.lsb();
        let them = color.flip();
        self.attackers_to(king, them) != 0
            || self.throw_targets(them) & (KING[king.index()] | kings) != 0
    }
}
