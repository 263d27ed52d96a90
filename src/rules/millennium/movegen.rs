//! Move generation. A side with two kings has no royal piece, so every pseudo-legal move is
//! legal; a side with one king gets chess legality (check evasions, pins, safe castling). Both
//! are one generator, monomorphised on `ROYAL`, so every generated move is legal and perft can
//! count at the last ply without playing the moves.

use super::attacks;
use super::moves::Move;
use super::position::{
    bit, Millennium, BOARD, CASTLINGS, FILES, FILE_A, FILE_O, POOL_KINDS, RANK_1, RANK_3, RANK_6,
    RANK_8,
};
use crate::board::{Bitboard, Board15x8, Geometry, Square};
use crate::rules::chess::MoveFlag;
use crate::rules::chess::PieceKind;
use crate::rules::{Color, MoveList};
use arrayvec::ArrayVec;

#[inline(always)]
fn shift(bb: u128, by: i8) -> u128 {
    if by > 0 {
        bb << by
    } else {
        bb >> -by
    }
}

/// The promotion flags a side can use now: one per kind in its pool.
type Promotions = ArrayVec<PieceKind, 4>;

const LAST_RANKS: u128 = RANK_1 | RANK_8;

/// Where the generator puts its moves: a move list, or a counter for perft's last ply, which
/// needs only how many there are. One generator serves both, so they cannot disagree.
pub(super) trait MoveSink {
    /// One move.
    fn push(&mut self, mv: Move);
    /// A piece on `from` going to each square of `targets` (a capture where `enemies` has it).
    fn targets(&mut self, from: Square, targets: u128, enemies: u128);
    /// Pawn moves to every square of `targets`, whose origin is `to - delta`, with `flag`.
    fn pawn_steps(&mut self, targets: u128, delta: i8, flag: MoveFlag);
    /// Pawn moves to the last rank: one promotion per kind in the pool, nothing with an empty
    /// pool.
    fn promotions(&mut self, targets: u128, delta: i8, capture: bool, kinds: &Promotions);
}

impl MoveSink for MoveList<Move> {
    #[inline(always)]
    fn push(&mut self, mv: Move) {
        MoveList::push(self, mv);
    }
    #[inline(always)]
    fn targets(&mut self, from: Square, targets: u128, enemies: u128) {
        for to in targets.squares() {
            let flag = if enemies.has(to) {
                MoveFlag::Capture
            } else {
                MoveFlag::Quiet
            };
            MoveList::push(self, Move::new(from, to, flag));
        }
    }
    #[inline(always)]
    fn pawn_steps(&mut self, targets: u128, delta: i8, flag: MoveFlag) {
        for to in targets.squares() {
            let from = Square((to.0 as i8 - delta) as u8);
            MoveList::push(self, Move::new(from, to, flag));
        }
    }
    #[inline(always)]
    fn promotions(&mut self, targets: u128, delta: i8, capture: bool, kinds: &Promotions) {
        for to in targets.squares() {
            let from = Square((to.0 as i8 - delta) as u8);
            for &kind in kinds {
                MoveList::push(
                    self,
                    Move::with_flag_bits(from, to, MoveFlag::promotion(kind, capture) as u32),
                );
            }
        }
    }
}

/// Counts moves without making them.
#[derive(Default)]
pub(super) struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }
    #[inline(always)]
    fn targets(&mut self, _: Square, targets: u128, _: u128) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn pawn_steps(&mut self, targets: u128, _: i8, _: MoveFlag) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn promotions(&mut self, targets: u128, _: i8, _: bool, kinds: &Promotions) {
        self.0 += targets.count() as u64 * kinds.len() as u64;
    }
}

/// Pawn moves to every square of `targets`, whose origin is `to - delta`: ordinary ones below
/// the last rank, promotions on it.
#[inline(always)]
fn push_pawn_moves<S: MoveSink>(
    sink: &mut S,
    targets: u128,
    delta: i8,
    capture: bool,
    promotions: &Promotions,
) {
    let flag = if capture {
        MoveFlag::Capture
    } else {
        MoveFlag::Quiet
    };
    sink.pawn_steps(targets & !LAST_RANKS, delta, flag);
    if !promotions.is_empty() {
        sink.promotions(targets & LAST_RANKS, delta, capture, promotions);
    }
}

impl Millennium {
    /// Own pieces that are the only piece between the king on `king` and an enemy slider.
    #[inline(always)]
    pub fn pinned(&self, us: Color, king: Square) -> u128 {
        let t = Board15x8::tables();
        let their = self.color_bb(us.flip());
        let queens = self.kind_bb(PieceKind::Queen);
        let snipers = ((attacks::rook_attacks(king, their)
            & (self.kind_bb(PieceKind::Rook) | queens))
            | (attacks::bishop_attacks(king, their) & (self.kind_bb(PieceKind::Bishop) | queens)))
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

    /// Generates the legal moves; with `TACTICAL` only captures and promotions.
    #[inline]
    pub(super) fn generate<const TACTICAL: bool, S: MoveSink>(&self, list: &mut S) {
        if self.has_one_king(self.side) {
            self.generate_for::<TACTICAL, true, S>(list);
        } else {
            self.generate_for::<TACTICAL, false, S>(list);
        }
    }

    /// How many legal moves there are, without listing them (perft's last ply).
    #[inline]
    pub(super) fn count_legal(&self) -> u64 {
        let mut counter = MoveCounter::default();
        self.generate::<false, _>(&mut counter);
        counter.0
    }

    /// `ROYAL`: the side to move has one king, which must not be left attacked.
    #[inline(always)]
    fn generate_for<const TACTICAL: bool, const ROYAL: bool, S: MoveSink>(&self, list: &mut S) {
        let t = Board15x8::tables();
        let us = self.side;
        let them = us.flip();
        let our = self.color_bb(us);
        let their = self.color_bb(them);
        let occupied = our | their;
        let kings = self.kings(us);
        let wanted = if TACTICAL { their } else { !our & BOARD };

        let (target, pinned, king) = if ROYAL {
            // The king must not step onto an attacked square, judged with the king lifted off
            // the board so that it cannot hide behind itself from a slider.
            let king = kings.lsb();
            let without_king = occupied ^ bit(king);
            for to in (attacks::king_attacks(king) & wanted).squares() {
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
            // Other moves must land on `target`: anywhere, or, in check, on the checker or
            // between it and the king.
            let target = if checkers.any() {
                (t.between(king, checkers.lsb()) | checkers) & wanted
            } else {
                wanted
            };
            (target, self.pinned(us, king), king)
        } else {
            for from in kings.squares() {
                list.targets(from, attacks::king_attacks(from) & wanted, their);
            }
            (wanted, 0, Square(0))
        };

        for from in (self.pieces(us, PieceKind::Knight) & !pinned).squares() {
            list.targets(from, attacks::knight_attacks(from) & target, their);
        }
        let queens = self.pieces(us, PieceKind::Queen);
        for from in (self.pieces(us, PieceKind::Bishop) | queens).squares() {
            let mut attacks = attacks::bishop_attacks(from, occupied) & target;
            if ROYAL && pinned.has(from) {
                attacks &= t.line(king, from);
            }
            list.targets(from, attacks, their);
        }
        for from in (self.pieces(us, PieceKind::Rook) | queens).squares() {
            let mut attacks = attacks::rook_attacks(from, occupied) & target;
            if ROYAL && pinned.has(from) {
                attacks &= t.line(king, from);
            }
            list.targets(from, attacks, their);
        }

        self.generate_pawn_moves::<TACTICAL, ROYAL, S>(list, target, pinned, king);

        if !TACTICAL && (!ROYAL || self.checkers.is_empty()) {
            self.generate_castling::<ROYAL, S>(list);
        }
    }

    #[inline(always)]
    fn generate_pawn_moves<const TACTICAL: bool, const ROYAL: bool, S: MoveSink>(
        &self,
        list: &mut S,
        target: u128,
        pinned: u128,
        king: Square,
    ) {
        let t = Board15x8::tables();
        let us = self.side;
        let them = us.flip();
        let their = self.color_bb(them);
        let occupied = self.occupied();
        let empty = !occupied & BOARD;
        let pawns = self.pieces(us, PieceKind::Pawn);
        let promotions: Promotions = if self.pool_is_empty(us) {
            Promotions::new()
        } else {
            POOL_KINDS
                .iter()
                .rev()
                .copied()
                .filter(|&kind| self.pool_count(us, kind) > 0)
                .collect()
        };
        // A pinned pawn may only move along the pin line: such pawns go one by one.
        let free = pawns & !pinned;
        let files = FILES as i8;
        let (forward, left, right, double_rank, promotion_rank) = match us {
            Color::White => (files, files - 1, files + 1, RANK_3, RANK_8),
            Color::Black => (-files, -files - 1, -files + 1, RANK_6, RANK_1),
        };

        // Where a push may land: in tactical mode only promotions, which must still resolve a
        // check (`target` holds only enemy squares there, so it cannot be used).
        let push_target = if TACTICAL {
            let evasion = if ROYAL && self.checkers.any() {
                t.between(king, self.checkers.lsb())
            } else {
                BOARD
            };
            evasion & promotion_rank
        } else {
            target
        };
        let single = shift(free, forward) & empty;
        push_pawn_moves(list, single & push_target, forward, false, &promotions);
        if !TACTICAL {
            let double = shift(single & double_rank, forward) & empty & target;
            list.pawn_steps(double, 2 * forward, MoveFlag::DoublePush);
        }
        let captures = their & target;
        push_pawn_moves(
            list,
            shift(free & !FILE_A, left) & captures,
            left,
            true,
            &promotions,
        );
        push_pawn_moves(
            list,
            shift(free & !FILE_O, right) & captures,
            right,
            true,
            &promotions,
        );

        if ROYAL {
            for from in (pawns & pinned).squares() {
                let line = t.line(king, from);
                let one = shift(bit(from), forward) & empty & line;
                push_pawn_moves(list, one & push_target, forward, false, &promotions);
                if !TACTICAL {
                    let two = shift(one & double_rank, forward) & empty & target;
                    if two.any() {
                        list.push(Move::new(from, two.lsb(), MoveFlag::DoublePush));
                    }
                }
                let hits = t.pawn_attacks[us.index()][from.index()] & captures & line;
                for to in hits.squares() {
                    let delta = to.0 as i8 - from.0 as i8;
                    push_pawn_moves(list, bit(to), delta, true, &promotions);
                }
            }
        }

        if let Some(ep) = self.en_passant_square() {
            let victim = Square((ep.0 as i8 - forward) as u8);
            for from in (t.pawn_attacks[them.index()][ep.index()] & pawns).squares() {
                if ROYAL {
                    // Play it out on the occupancy: en passant can uncover an attack on the
                    // king, and can resolve a check by the double-pushed pawn.
                    let after = (occupied ^ bit(from) ^ bit(victim)) | bit(ep);
                    let attackers = self.attackers_to(king, after) & their & !bit(victim);
                    if attackers.any() {
                        continue;
                    }
                }
                list.push(Move::new(from, ep, MoveFlag::EnPassant));
            }
        }
    }

    /// The castlings whose king and rook are unmoved and whose squares are empty; with one king
    /// also not out of check (the caller's test), not through or into an attacked square.
    #[inline(always)]
    fn generate_castling<const ROYAL: bool, S: MoveSink>(&self, list: &mut S) {
        let us = self.side;
        if self.castling & (0x1F << (us.index() * 5)) == 0 {
            return;
        }
        let them = us.flip();
        let occupied = self.occupied();
        for castling in &CASTLINGS[us.index()] {
            if self.castling & castling.rights != castling.rights || occupied & castling.empty != 0
            {
                continue;
            }
            if ROYAL {
                if self.is_attacked_by(castling.through, them, occupied) {
                    continue;
                }
                // The rook leaving its square can open a line onto the king's new square.
                let after = occupied
                    ^ bit(castling.king_from)
                    ^ bit(castling.rook_from)
                    ^ bit(castling.king_to)
                    ^ bit(castling.rook_to);
                if self.is_attacked_by(castling.king_to, them, after) {
                    continue;
                }
            }
            list.push(Move::new(
                castling.king_from,
                castling.king_to,
                MoveFlag::Castle,
            ));
        }
    }
}
