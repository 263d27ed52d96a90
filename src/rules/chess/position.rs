//! The chess position and copy-make.

use super::moves::{Move, MoveFlag};
use super::zobrist::KEYS;
use crate::board::magic::magics;
use crate::board::{Bitboard, Board8x8, Geometry, Square};
use crate::rules::pieces::{KindIndex, PieceBoard};
use crate::rules::Color;

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum PieceKind {
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
}

impl PieceKind {
    pub const ALL: [PieceKind; 6] = [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
        PieceKind::King,
    ];
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
    pub const fn letter(self) -> char {
        ['p', 'n', 'b', 'r', 'q', 'k'][self as usize]
    }
}

impl KindIndex for PieceKind {
    const ALL: [PieceKind; 6] = PieceKind::ALL;
    #[inline(always)]
    fn kind_index(self) -> usize {
        self as usize
    }
    fn kind_letter(self) -> char {
        self.letter()
    }
}

/// A coloured piece.
pub type Piece = crate::rules::pieces::Piece<PieceKind>;

pub const CASTLE_WHITE_KING: u8 = 1;
pub const CASTLE_WHITE_QUEEN: u8 = 2;
pub const CASTLE_BLACK_KING: u8 = 4;
pub const CASTLE_BLACK_QUEEN: u8 = 8;

/// Both castling rights of `color`.
pub const fn castling_rights_of(color: Color) -> u8 {
    match color {
        Color::White => CASTLE_WHITE_KING | CASTLE_WHITE_QUEEN,
        Color::Black => CASTLE_BLACK_KING | CASTLE_BLACK_QUEEN,
    }
}

/// The castling right of `color` on the king's side (`king_side`) or the queen's.
#[inline(always)]
pub const fn castling_right(color: Color, king_side: bool) -> u8 {
    match (color, king_side) {
        (Color::White, true) => CASTLE_WHITE_KING,
        (Color::White, false) => CASTLE_WHITE_QUEEN,
        (Color::Black, true) => CASTLE_BLACK_KING,
        (Color::Black, false) => CASTLE_BLACK_QUEEN,
    }
}

/// The index of a single castling right (its bit's position): what [`Chess::castling_rook`] is
/// indexed by.
#[inline(always)]
pub const fn right_index(right: u8) -> usize {
    right.trailing_zeros() as usize
}

pub(super) const NO_SQUARE: u8 = 64;

/// A standard chess position.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Chess {
    pub(super) board: PieceBoard<u64, PieceKind, 64>,
    pub(super) side: Color,
    pub(super) castling: u8,
    /// The square of the rook each castling right castles with (indexed by [`right_index`]), or
    /// `NO_SQUARE`: a1, h1, a8 and h8 in standard chess, any rook beside its king's side in
    /// Chess960.
    pub(super) castling_rooks: [u8; 4],
    /// Castling is written king-takes-own-rook (`e1h1`), as Chess960 GUIs expect: set by the
    /// `UCI_Chess960` option, and always on where the castling pieces start off the standard
    /// squares (where the king's two-square form could be ambiguous or not move at all).
    pub(super) chess960: bool,
    /// The en passant target square as the FEN says, or `NO_SQUARE`.
    pub(super) en_passant: u8,
    pub(super) halfmove: u32,
    pub(super) fullmove: u32,
    pub(super) key: u64,
    /// Enemy pieces giving check to the side to move.
    pub(super) checkers: u64,
}

reads_as_piece_board!(Chess, u64, PieceKind, 64);

impl Chess {
    pub(super) fn empty() -> Chess {
        Chess {
            board: PieceBoard::default(),
            side: Color::White,
            castling: 0,
            castling_rooks: [NO_SQUARE; 4],
            chess960: false,
            en_passant: NO_SQUARE,
            halfmove: 0,
            fullmove: 1,
            key: 0,
            checkers: 0,
        }
    }

    #[inline(always)]
    pub fn side(&self) -> Color {
        self.side
    }
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        self.pieces(color, PieceKind::King).lsb()
    }
    #[inline(always)]
    pub fn checkers(&self) -> u64 {
        self.checkers
    }
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }
    /// The rook the castling right `right` (one bit) castles with, if the right is held.
    pub fn castling_rook(&self, right: u8) -> Option<Square> {
        (self.castling & right != 0).then(|| Square(self.castling_rooks[right_index(right)]))
    }
    /// True when castling is written king-takes-own-rook (see the field's comment).
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }
    /// True when every castling right is held by a king on e1 or e8 and a rook in the corner.
    pub(super) fn has_standard_castling(&self) -> bool {
        [
            (CASTLE_WHITE_KING, 4, 7),
            (CASTLE_WHITE_QUEEN, 4, 0),
            (CASTLE_BLACK_KING, 60, 63),
            (CASTLE_BLACK_QUEEN, 60, 56),
        ]
        .iter()
        .all(|&(right, king, rook)| {
            self.castling & right == 0
                || (self.castling_rooks[right_index(right)] == rook
                    && self.code_at(Square(king)) % 6 == PieceKind::King as u8)
        })
    }
    pub fn en_passant_square(&self) -> Option<Square> {
        (self.en_passant != NO_SQUARE).then_some(Square(self.en_passant))
    }
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// Every piece of either colour that attacks `sq`, with the given occupancy.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, occupied: u64) -> u64 {
        let t = Board8x8::tables();
        let m = magics();
        let queens = self.kind_bb(PieceKind::Queen);
        let rooks = self.kind_bb(PieceKind::Rook) | queens;
        let bishops = self.kind_bb(PieceKind::Bishop) | queens;
        (t.pawn_attacks[1][sq.index()] & self.pieces(Color::White, PieceKind::Pawn))
            | (t.pawn_attacks[0][sq.index()] & self.pieces(Color::Black, PieceKind::Pawn))
            | (t.knight[sq.index()] & self.kind_bb(PieceKind::Knight))
            | (t.king[sq.index()] & self.kind_bb(PieceKind::King))
            | (m.rook(sq, occupied) & rooks)
            | (m.bishop(sq, occupied) & bishops)
    }

    #[inline(always)]
    pub fn is_attacked_by(&self, sq: Square, attacker: Color, occupied: u64) -> bool {
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

    /// True when the side to move has a pawn that attacks the en passant square, the only case
    /// where the square changes what can happen (and so the only case the key includes it).
    #[inline(always)]
    pub(super) fn en_passant_matters(&self) -> bool {
        self.en_passant != NO_SQUARE
            && (Board8x8::tables().pawn_attacks[self.side.flip().index()][self.en_passant as usize]
                & self.pieces(self.side, PieceKind::Pawn))
            .any()
    }

    #[inline(always)]
    fn en_passant_key(&self) -> u64 {
        if self.en_passant_matters() {
            KEYS.en_passant_file[(self.en_passant & 7) as usize]
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
        key ^ KEYS.castling[self.castling as usize] ^ self.en_passant_key()
    }

    /// Sets the derived state (key, checkers) after the pieces and fields are placed.
    pub(super) fn finish_setup(&mut self) {
        self.key = self.key_from_scratch();
        self.update_checkers();
    }

    #[inline(always)]
    fn update_checkers(&mut self) {
        let king = self.king_square(self.side);
        self.checkers = self.attackers_to(king, self.occupied()) & self.color_bb(self.side.flip());
    }

    /// Applies a legal move in place.
    pub(super) fn apply(&mut self, mv: Move) {
        let us = self.side;
        let from = mv.from();
        let to = mv.to();
        let moving_kind = self.code_at(from) % 6;
        self.key ^= self.en_passant_key() ^ KEYS.castling[self.castling as usize];
        self.en_passant = NO_SQUARE;
        self.halfmove = self.halfmove.saturating_add(1);

        if mv.is_en_passant() {
            let victim = if us == Color::White {
                to.0 - 8
            } else {
                to.0 + 8
            };
            self.remove(Square(victim));
        } else if mv.is_capture() {
            self.remove(to);
        }
        if mv.is_capture() || moving_kind == PieceKind::Pawn as u8 {
            self.halfmove = 0;
        }
        if mv.is_castle() {
            // Both lift off before either lands: in Chess960 the king may land on its own
            // rook's square, or not move at all.
            let (rook_from, rook_to) = self.castling_rook_move(us, to);
            let king = self.remove(from);
            let rook = self.remove(rook_from);
            self.board.put(to, king, &KEYS.pieces, &mut self.key);
            self.board.put(rook_to, rook, &KEYS.pieces, &mut self.key);
        } else {
            self.shift_piece(from, to);
        }

        if mv.is_promotion() {
            self.remove(to);
            self.put(
                to,
                Piece {
                    kind: PieceKind::ALL[mv.promotion_index()],
                    color: us,
                },
            );
        } else if mv.flag_bits() == MoveFlag::DoublePush as u16 {
            self.en_passant = (from.0 + to.0) / 2;
        }

        if self.castling != 0 {
            self.castling &= self.rights_kept(us, moving_kind, from, to);
        }
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = us.flip();
        self.key ^= KEYS.black_to_move ^ KEYS.castling[self.castling as usize];
        self.key ^= self.en_passant_key();
        self.update_checkers();
    }

    /// The key after `mv` for a move that is not castling, en passant or a promotion and
    /// changes no castling right and no en passant square (the usual move); for the others it
    /// may be off. Only a hint for fetching the child's table entry early.
    #[inline(always)]
    pub(super) fn likely_key_after(&self, mv: Move) -> u64 {
        let (from, to) = (mv.from(), mv.to());
        let moving = &KEYS.pieces[self.code_at(from) as usize];
        let mut key = self.key ^ KEYS.black_to_move ^ self.en_passant_key();
        key ^= moving[from.index()] ^ moving[to.index()];
        if mv.is_capture() && !mv.is_en_passant() {
            key ^= KEYS.pieces[self.code_at(to) as usize][to.index()];
        }
        key
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

    /// No side can ever mate: K v K, K+minor v K, or bishops only, all on one square colour.
    pub fn insufficient_material(&self) -> bool {
        let heavy = self.kind_bb(PieceKind::Pawn)
            | self.kind_bb(PieceKind::Rook)
            | self.kind_bb(PieceKind::Queen);
        if heavy.any() {
            return false;
        }
        let knights = self.kind_bb(PieceKind::Knight);
        let bishops = self.kind_bb(PieceKind::Bishop);
        let minors = knights | bishops;
        if minors.count() <= 1 {
            return true;
        }
        const DARK: u64 = 0xAA55_AA55_AA55_AA55;
        knights.is_empty() && ((bishops & DARK) == 0 || (bishops & !DARK) == 0)
    }
}

impl Chess {
    /// The castling rights that survive a move of a `moving_kind` piece of `us` from `from` to
    /// `to`: a king's move gives up its side's two, and a move from or onto a castling rook's
    /// square the right of that rook.
    #[inline(always)]
    fn rights_kept(&self, us: Color, moving_kind: u8, from: Square, to: Square) -> u8 {
        let mut kept = 15;
        if moving_kind == PieceKind::King as u8 {
            kept &= !castling_rights_of(us);
        }
        for (index, &rook) in self.castling_rooks.iter().enumerate() {
            if rook == from.0 || rook == to.0 {
                kept &= !(1 << index);
            }
        }
        kept
    }

    /// Where the rook of `us`'s castling with the king landing on `king_to` comes from and goes
    /// to: the g-file castles with the king's side rook onto the f-file, the c-file with the
    /// queen's side rook onto the d-file.
    #[inline(always)]
    pub(super) fn castling_rook_move(&self, us: Color, king_to: Square) -> (Square, Square) {
        let rank = king_to.0 & !7;
        let king_side = king_to.0 & 7 == 6;
        let right = castling_right(us, king_side);
        let rook_to = if king_side { rank + 5 } else { rank + 3 };
        (
            Square(self.castling_rooks[right_index(right)]),
            Square(rook_to),
        )
    }
}
