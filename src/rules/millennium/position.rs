//! The Millennium position and copy-make.

use super::attacks;
use super::moves::Move;
use super::zobrist::KEYS;
use super::{CASTLING_RIGHTS, SQUARES};
use crate::board::masks::{file_mask, rank_mask};
use crate::board::{Bitboard, Board15x8, Geometry, Square};
use crate::rules::chess::{Piece, PieceKind};
use crate::rules::pieces::PieceBoard;
use crate::rules::Color;

pub const FILES: u8 = 15;
/// Every square of the board (the `u128` has eight spare bits on top).
pub const BOARD: u128 = (1u128 << SQUARES) - 1;
pub const FILE_A: u128 = file_mask(FILES, 8, 0);
pub const FILE_O: u128 = file_mask(FILES, 8, 14);
pub(super) const RANK_1: u128 = rank_mask(FILES, 0);
pub(super) const RANK_3: u128 = rank_mask(FILES, 2);
pub(super) const RANK_6: u128 = rank_mask(FILES, 5);
pub(super) const RANK_8: u128 = rank_mask(FILES, 7);

/// How many of each kind (pawn .. king) a side starts with. Promotion only reinstates captured
/// pieces, so a side never has more of a kind, on the board and in its pool together.
pub const INITIAL_COUNTS: [u32; 6] = [15, 4, 4, 3, 2, 2];
/// The kinds a pawn can be exchanged for, in pool order.
pub const POOL_KINDS: [PieceKind; 4] = [
    PieceKind::Knight,
    PieceKind::Bishop,
    PieceKind::Rook,
    PieceKind::Queen,
];

/// Castling rights ([`CASTLING_RIGHTS`] bits): one bit per unmoved king or rook, five a side
/// (files a, e, h, k, o), White in bits 0..5 and Black in bits 5..10.
pub(super) const CASTLING_FILES: [u8; 5] = [0, 4, 7, 10, 14];
const ALL_RIGHTS: u16 = (1 << CASTLING_RIGHTS) - 1;

/// The castling right of the piece that starts on `file` (one of [`CASTLING_FILES`]).
pub(super) const fn castling_bit(color: Color, file: u8) -> u16 {
    let mut slot = 0;
    while CASTLING_FILES[slot] != file {
        slot += 1;
    }
    1 << (color as usize * 5 + slot)
}

const fn back_rank_base(color: Color) -> u8 {
    match color {
        Color::White => 0,
        Color::Black => 7 * FILES,
    }
}

/// One of the four castlings of a side, as the rules page's table gives it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Castling {
    /// The rights of both the king and the rook.
    pub rights: u16,
    pub king_from: Square,
    pub king_to: Square,
    pub rook_from: Square,
    pub rook_to: Square,
    /// Squares that must be empty.
    pub empty: u128,
    /// The square the king passes over (with one king it must not be attacked).
    pub through: Square,
}

const fn castling(color: Color, king: u8, rook: u8, king_to: u8, rook_to: u8) -> Castling {
    let base = back_rank_base(color);
    let (low, high) = if king < rook {
        (king, rook)
    } else {
        (rook, king)
    };
    let mut empty = 0u128;
    let mut file = low + 1;
    while file < high {
        empty |= 1u128 << (base + file);
        file += 1;
    }
    let through = if king_to > king { king + 1 } else { king - 1 };
    Castling {
        rights: castling_bit(color, king) | castling_bit(color, rook),
        king_from: Square(base + king),
        king_to: Square(base + king_to),
        rook_from: Square(base + rook),
        rook_to: Square(base + rook_to),
        empty,
        through: Square(base + through),
    }
}

const fn side_castlings(color: Color) -> [Castling; 4] {
    [
        castling(color, 4, 0, 2, 3),     // e-king with the a-rook: c, d
        castling(color, 4, 7, 6, 5),     // e-king with the centre rook: g, f
        castling(color, 10, 7, 8, 9),    // k-king with the centre rook: i, j
        castling(color, 10, 14, 12, 11), // k-king with the o-rook: m, l
    ]
}
pub(super) const CASTLINGS: [[Castling; 4]; 2] =
    [side_castlings(Color::White), side_castlings(Color::Black)];

/// The castling whose king lands on `king_to`.
#[inline(always)]
pub(super) fn castling_by_destination(color: Color, king_to: Square) -> &'static Castling {
    let index = match king_to.0 % FILES {
        2 => 0,
        6 => 1,
        8 => 2,
        _ => 3,
    };
    &CASTLINGS[color.index()][index]
}

/// Castling rights kept after something moves from or to each square.
const fn castling_masks() -> [u16; SQUARES] {
    let mut masks = [ALL_RIGHTS; SQUARES];
    let mut slot = 0;
    while slot < 5 {
        let file = CASTLING_FILES[slot];
        masks[file as usize] &= !castling_bit(Color::White, file);
        masks[(7 * FILES + file) as usize] &= !castling_bit(Color::Black, file);
        slot += 1;
    }
    masks
}
const CASTLING_MASKS: [u16; SQUARES] = castling_masks();

pub(super) const NO_SQUARE: u8 = SQUARES as u8;

#[inline(always)]
pub(super) const fn bit(sq: Square) -> u128 {
    1u128 << sq.0
}

/// A Millennium chess position.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Millennium {
    pub(super) board: PieceBoard<u128, PieceKind, SQUARES>,
    /// Enemy pieces attacking the side to move's king when it has only one (else empty).
    pub(super) checkers: u128,
    pub(super) side: Color,
    pub(super) castling: u16,
    /// The en passant target square as the FEN says, or `NO_SQUARE`.
    pub(super) en_passant: u8,
    pub(super) halfmove: u32,
    pub(super) fullmove: u32,
    /// `pool[colour][kind - 1]`: captured knights, bishops, rooks and queens not yet reinstated.
    pub(super) pool: [[u8; 4]; 2],
    pub(super) key: u64,
}

reads_as_piece_board!(Millennium, u128, PieceKind, SQUARES);

impl Millennium {
    pub(super) fn empty() -> Millennium {
        Millennium {
            board: PieceBoard::default(),
            checkers: 0,
            side: Color::White,
            castling: 0,
            en_passant: NO_SQUARE,
            halfmove: 0,
            fullmove: 1,
            pool: [[0; 4]; 2],
            key: 0,
        }
    }

    #[inline(always)]
    pub fn side(&self) -> Color {
        self.side
    }
    /// The side's kings (one or two).
    #[inline(always)]
    pub fn kings(&self, color: Color) -> u128 {
        self.pieces(color, PieceKind::King)
    }
    /// True when the side has lost its keystone king: its last king is royal.
    #[inline(always)]
    pub fn has_one_king(&self, color: Color) -> bool {
        !self.kings(color).more_than_one()
    }
    #[inline(always)]
    pub fn checkers(&self) -> u128 {
        self.checkers
    }
    pub fn castling_rights(&self) -> u16 {
        self.castling
    }
    pub fn en_passant_square(&self) -> Option<Square> {
        (self.en_passant != NO_SQUARE).then_some(Square(self.en_passant))
    }
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }
    /// How many pieces of `kind` (knight to queen) the side can reinstate.
    #[inline(always)]
    pub fn pool_count(&self, color: Color, kind: PieceKind) -> u32 {
        self.pool[color.index()][kind.index() - 1] as u32
    }
    /// True when the side has nothing to reinstate (its pawns cannot reach the last rank).
    #[inline(always)]
    pub fn pool_is_empty(&self, color: Color) -> bool {
        u32::from_ne_bytes(self.pool[color.index()]) == 0
    }

    /// Every piece of either colour that attacks `sq`, with the given occupancy.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, occupied: u128) -> u128 {
        let t = Board15x8::tables();
        let queens = self.kind_bb(PieceKind::Queen);
        let rooks = self.kind_bb(PieceKind::Rook) | queens;
        let bishops = self.kind_bb(PieceKind::Bishop) | queens;
        (t.pawn_attacks[1][sq.index()] & self.pieces(Color::White, PieceKind::Pawn))
            | (t.pawn_attacks[0][sq.index()] & self.pieces(Color::Black, PieceKind::Pawn))
            | (attacks::knight_attacks(sq) & self.kind_bb(PieceKind::Knight))
            | (attacks::king_attacks(sq) & self.kind_bb(PieceKind::King))
            | (attacks::rook_attacks(sq, occupied) & rooks)
            | (attacks::bishop_attacks(sq, occupied) & bishops)
    }

    #[inline(always)]
    pub fn is_attacked_by(&self, sq: Square, attacker: Color, occupied: u128) -> bool {
        (self.attackers_to(sq, occupied) & self.color_bb(attacker)).any()
    }

    #[inline(always)]
    pub(super) fn put(&mut self, sq: Square, piece: Piece) {
        self.board
            .put(sq, piece.code(), &KEYS.pieces, &mut self.key);
    }

    #[inline(always)]
    fn remove(&mut self, sq: Square) -> u8 {
        self.board.remove(sq, &KEYS.pieces, &mut self.key)
    }

    #[inline(always)]
    fn shift_piece(&mut self, from: Square, to: Square) {
        self.board.shift(from, to, &KEYS.pieces, &mut self.key);
    }

    /// Adds `delta` to a pool count, keeping the key in step.
    #[inline(always)]
    fn change_pool(&mut self, color: Color, kind_index: usize, delta: i8) {
        let slot = &mut self.pool[color.index()][kind_index - 1];
        let keys = &KEYS.pool[color.index()][kind_index - 1];
        let old = *slot;
        *slot = (old as i8 + delta) as u8;
        self.key ^= keys[old as usize] ^ keys[*slot as usize];
    }

    /// True when the side to move has a pawn that attacks the en passant square, the only case
    /// where the square changes what can happen (and so the only case the key includes it).
    #[inline(always)]
    pub(super) fn en_passant_matters(&self) -> bool {
        self.en_passant != NO_SQUARE
            && (Board15x8::tables().pawn_attacks[self.side.flip().index()]
                [self.en_passant as usize]
                & self.pieces(self.side, PieceKind::Pawn))
            .any()
    }

    #[inline(always)]
    fn en_passant_key(&self) -> u64 {
        if self.en_passant_matters() {
            KEYS.en_passant_file[(self.en_passant % FILES) as usize]
        } else {
            0
        }
    }

    /// The key computed from scratch; the incremental key must always equal it.
    pub fn key_from_scratch(&self) -> u64 {
        let mut key = self.board.pieces_key(&KEYS.pieces);
        if self.side == Color::Black {
            key ^= KEYS.black_to_move;
        }
        for color in 0..2 {
            for kind in 0..4 {
                key ^= KEYS.pool[color][kind][self.pool[color][kind] as usize];
            }
        }
        key ^ KEYS.castling_set(self.castling) ^ self.en_passant_key()
    }

    /// Sets the derived state (key, checkers) after the pieces and fields are placed.
    pub(super) fn finish_setup(&mut self) {
        self.key = self.key_from_scratch();
        self.update_checkers();
    }

    #[inline(always)]
    fn update_checkers(&mut self) {
        let kings = self.kings(self.side);
        self.checkers = if kings.more_than_one() || kings.is_empty() {
            0
        } else {
            self.attackers_to(kings.lsb(), self.occupied()) & self.color_bb(self.side.flip())
        };
    }

    /// Applies a legal move in place.
    pub(super) fn apply(&mut self, mv: Move) {
        let us = self.side;
        let them = us.flip();
        let from = mv.from();
        let to = mv.to();
        let moving_kind = self.code_at(from) % 6;
        self.key ^= self.en_passant_key() ^ KEYS.castling_set(self.castling);
        self.en_passant = NO_SQUARE;
        self.halfmove = self.halfmove.saturating_add(1);

        if mv.is_capture() {
            self.halfmove = 0;
            if mv.is_en_passant() {
                let victim = match us {
                    Color::White => to.0 - FILES,
                    Color::Black => to.0 + FILES,
                };
                self.remove(Square(victim));
            } else {
                let captured = (self.remove(to) % 6) as usize;
                // A captured knight .. queen goes back to its owner's pool.
                if (1..=4).contains(&captured) {
                    self.change_pool(them, captured, 1);
                }
            }
        }
        if moving_kind == PieceKind::Pawn as u8 {
            self.halfmove = 0;
        }
        self.shift_piece(from, to);

        if mv.is_promotion() {
            let kind = mv.promotion_kind();
            self.remove(to);
            self.put(to, Piece { kind, color: us });
            self.change_pool(us, kind.index(), -1);
        } else if mv.is_castle() {
            let castling = castling_by_destination(us, to);
            self.shift_piece(castling.rook_from, castling.rook_to);
            self.castling &= CASTLING_MASKS[castling.rook_from.index()];
        } else if mv.is_double_push() {
            self.en_passant = (from.0 + to.0) / 2;
        }

        self.castling &= CASTLING_MASKS[from.index()] & CASTLING_MASKS[to.index()];
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = them;
        self.key ^= KEYS.black_to_move ^ KEYS.castling_set(self.castling);
        self.key ^= self.en_passant_key();
        self.update_checkers();
    }

    /// Passes the turn (null move): only the side, the en passant square and the clocks change.
    pub(super) fn apply_null(&mut self) {
        self.key ^= self.en_passant_key();
        self.en_passant = NO_SQUARE;
        self.halfmove = self.halfmove.saturating_add(1);
        self.side = self.side.flip();
        self.key ^= KEYS.black_to_move;
        self.update_checkers();
    }

    /// No side can ever mate: only one king each, and at most one knight or bishop on the whole
    /// board (two kings can mate a lone king, so a side with two is never counted out).
    pub fn insufficient_material(&self) -> bool {
        let kings = self.kind_bb(PieceKind::King);
        if kings.count() != 2 {
            return false;
        }
        let minors = self.kind_bb(PieceKind::Knight) | self.kind_bb(PieceKind::Bishop);
        (self.occupied() & !kings & !minors).is_empty() && !minors.more_than_one()
    }
}
