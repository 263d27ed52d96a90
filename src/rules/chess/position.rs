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

/// Castling rights kept after something moves from or to each square.
const fn castling_masks() -> [u8; 64] {
    let mut masks = [15u8; 64];
    masks[0] = 15 & !CASTLE_WHITE_QUEEN; // a1
    masks[7] = 15 & !CASTLE_WHITE_KING; // h1
    masks[4] = 15 & !(CASTLE_WHITE_KING | CASTLE_WHITE_QUEEN); // e1
    masks[56] = 15 & !CASTLE_BLACK_QUEEN; // a8
    masks[63] = 15 & !CASTLE_BLACK_KING; // h8
    masks[60] = 15 & !(CASTLE_BLACK_KING | CASTLE_BLACK_QUEEN); // e8
    masks
}
const CASTLING_MASKS: [u8; 64] = castling_masks();

pub(super) const NO_SQUARE: u8 = 64;

/// A standard chess position.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Chess {
    pub(super) board: PieceBoard<u64, PieceKind, 64>,
    pub(super) side: Color,
    pub(super) castling: u8,
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
        self.shift_piece(from, to);

        if mv.is_promotion() {
            self.remove(to);
            self.put(
                to,
                Piece {
                    kind: PieceKind::ALL[mv.promotion_index()],
                    color: us,
                },
            );
        } else if mv.is_castle() {
            let (rook_from, rook_to) = castling_rook(from, to);
            self.shift_piece(rook_from, rook_to);
        } else if mv.flag_bits() == MoveFlag::DoublePush as u16 {
            self.en_passant = (from.0 + to.0) / 2;
        }

        self.castling &= CASTLING_MASKS[from.index()] & CASTLING_MASKS[to.index()];
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = us.flip();
        self.key ^= KEYS.black_to_move ^ KEYS.castling[self.castling as usize];
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

/// Where the rook of a castling by the king from `from` to `to` comes from and goes to.
#[inline(always)]
pub(super) fn castling_rook(from: Square, to: Square) -> (Square, Square) {
    let rank = from.0 & !7;
    if to.0 > from.0 {
        (Square(rank + 7), Square(rank + 5))
    } else {
        (Square(rank), Square(rank + 3))
    }
}
