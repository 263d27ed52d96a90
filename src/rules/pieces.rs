//! The piece plumbing every game's position shares: a bitboard per kind and per colour and a
//! mailbox of piece codes (kind + 6 * colour), kept in step, with the Zobrist key of the pieces
//! kept in step where a game's keys go by piece and square alone.
//!
//! A position holds a [`PieceBoard`] and dereferences to it, so `pos.occupied()`,
//! `pos.pieces(color, kind)` and the like read the same in every game.

use super::Color;
use crate::board::{Bitboard, Square};
use std::marker::PhantomData;

/// Lets the position `$position`, with its [`PieceBoard`] in the field `board`, be read as
/// that board: `pos.occupied()`, `pos.pieces(color, kind)`, `pos.piece_at(sq)`.
macro_rules! reads_as_piece_board {
    ($position:ty, $bb:ty, $kind:ty, $squares:expr) => {
        impl std::ops::Deref for $position {
            type Target = $crate::rules::pieces::PieceBoard<$bb, $kind, { $squares }>;
            #[inline(always)]
            fn deref(&self) -> &Self::Target {
                &self.board
            }
        }
    };
}

/// The mailbox code of an empty square.
pub const NO_PIECE: u8 = 12;

/// A game's piece kind (six of them): the index of its bitboard, and its FEN letter.
pub trait KindIndex: Copy + Eq + 'static {
    /// Every kind, in index order.
    const ALL: [Self; 6];
    fn kind_index(self) -> usize;
    /// The FEN letter, lower case.
    fn kind_letter(self) -> char;
}

/// A coloured piece of a game whose kinds are `K`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Piece<K> {
    pub kind: K,
    pub color: Color,
}

impl<K: KindIndex> Piece<K> {
    /// Index 0..12 used by the mailbox and Zobrist tables: kind + 6 * colour.
    #[inline(always)]
    pub fn code(self) -> u8 {
        self.kind.kind_index() as u8 + 6 * self.color as u8
    }
    #[inline(always)]
    pub fn from_code(code: u8) -> Piece<K> {
        Piece {
            kind: K::ALL[(code % 6) as usize],
            color: if code < 6 { Color::White } else { Color::Black },
        }
    }
    /// Reads a FEN piece letter: upper case White, lower case Black.
    pub fn from_letter(c: char) -> Option<Piece<K>> {
        let lower = c.to_ascii_lowercase();
        let kind = K::ALL
            .into_iter()
            .find(|kind| kind.kind_letter() == lower)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { kind, color })
    }
    /// The FEN letter: upper case White, lower case Black.
    pub fn letter(self) -> char {
        let c = self.kind.kind_letter();
        match self.color {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }
}

/// `keys[piece code][square]`: a Zobrist key per piece and square.
pub type PieceKeys<const N: usize> = [[u64; N]; 12];

/// The pieces of a board of `N` squares in bitboards `B`, with kinds `K`. `Copy`, so that a
/// position's copy (copy-make) is one plain copy.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PieceBoard<B, K, const N: usize> {
    by_kind: [B; 6],
    by_color: [B; 2],
    mailbox: [u8; N],
    kinds: PhantomData<K>,
}

impl<B: Bitboard, K: KindIndex, const N: usize> Default for PieceBoard<B, K, N> {
    fn default() -> Self {
        PieceBoard {
            by_kind: [B::EMPTY; 6],
            by_color: [B::EMPTY; 2],
            mailbox: [NO_PIECE; N],
            kinds: PhantomData,
        }
    }
}

impl<B: Bitboard, K: KindIndex, const N: usize> PieceBoard<B, K, N> {
    #[inline(always)]
    pub fn occupied(&self) -> B {
        self.by_color[0] | self.by_color[1]
    }
    #[inline(always)]
    pub fn color_bb(&self, color: Color) -> B {
        self.by_color[color.index()]
    }
    #[inline(always)]
    pub fn kind_bb(&self, kind: K) -> B {
        self.by_kind[kind.kind_index()]
    }
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: K) -> B {
        self.by_color[color.index()] & self.by_kind[kind.kind_index()]
    }
    /// True when `color` has a piece other than pawns (kind 0) and kings (kind 5).
    #[inline(always)]
    pub fn has_pieces_beyond_pawns(&self, color: Color) -> bool {
        (self.by_color[color.index()] & !(self.by_kind[0] | self.by_kind[5])).any()
    }
    /// The code of the piece on `sq`, [`NO_PIECE`] when empty.
    #[inline(always)]
    pub fn code_at(&self, sq: Square) -> u8 {
        self.mailbox[sq.index()]
    }

    /// Every square's piece code ([`NO_PIECE`] where empty), square by square.
    #[inline(always)]
    pub fn mailbox(&self) -> &[u8; N] {
        &self.mailbox
    }

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece<K>> {
        self.occupant(sq).map(Piece::from_code)
    }

    /// The code of the piece on `sq`, if any.
    #[inline(always)]
    pub fn occupant(&self, sq: Square) -> Option<u8> {
        let code = self.mailbox[sq.index()];
        (code != NO_PIECE).then_some(code)
    }

    /// Puts the piece `code` on the empty square `sq`.
    #[inline(always)]
    pub fn place(&mut self, sq: Square, code: u8) {
        let bit = B::from_square(sq);
        self.by_kind[(code % 6) as usize] |= bit;
        self.by_color[(code / 6) as usize] |= bit;
        self.mailbox[sq.index()] = code;
    }

    /// Takes the piece off `sq` and returns its code.
    #[inline(always)]
    pub fn lift(&mut self, sq: Square) -> u8 {
        let code = self.mailbox[sq.index()];
        let bit = B::from_square(sq);
        self.by_kind[(code % 6) as usize] ^= bit;
        self.by_color[(code / 6) as usize] ^= bit;
        self.mailbox[sq.index()] = NO_PIECE;
        code
    }

    /// Moves the piece on `from` to the empty square `to` and returns its code.
    #[inline(always)]
    pub fn slide(&mut self, from: Square, to: Square) -> u8 {
        let code = self.mailbox[from.index()];
        let bits = B::from_square(from) | B::from_square(to);
        self.by_kind[(code % 6) as usize] ^= bits;
        self.by_color[(code / 6) as usize] ^= bits;
        self.mailbox[from.index()] = NO_PIECE;
        self.mailbox[to.index()] = code;
        code
    }

    /// [`place`](Self::place), updating `key` from `keys`.
    #[inline(always)]
    pub fn put(&mut self, sq: Square, code: u8, keys: &PieceKeys<N>, key: &mut u64) {
        self.place(sq, code);
        *key ^= keys[code as usize][sq.index()];
    }

    /// [`lift`](Self::lift), updating `key` from `keys`.
    #[inline(always)]
    pub fn remove(&mut self, sq: Square, keys: &PieceKeys<N>, key: &mut u64) -> u8 {
        let code = self.lift(sq);
        *key ^= keys[code as usize][sq.index()];
        code
    }

    /// [`slide`](Self::slide), updating `key` from `keys`.
    #[inline(always)]
    pub fn shift(&mut self, from: Square, to: Square, keys: &PieceKeys<N>, key: &mut u64) {
        let code = self.slide(from, to);
        let keys = &keys[code as usize];
        *key ^= keys[from.index()] ^ keys[to.index()];
    }

    /// The occupied squares with their piece codes.
    pub fn codes(&self) -> impl Iterator<Item = (Square, u8)> + '_ {
        (0..N)
            .filter(|&sq| self.mailbox[sq] != NO_PIECE)
            .map(|sq| (Square(sq as u8), self.mailbox[sq]))
    }

    /// The key of the pieces alone, from scratch.
    pub fn pieces_key(&self, keys: &PieceKeys<N>) -> u64 {
        self.codes()
            .fold(0, |key, (sq, code)| key ^ keys[code as usize][sq.index()])
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Six kinds lettered `a` to `f`, for the tests of code over any game's pieces.
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub(crate) struct Kind(pub usize);
    impl KindIndex for Kind {
        const ALL: [Kind; 6] = [Kind(0), Kind(1), Kind(2), Kind(3), Kind(4), Kind(5)];
        fn kind_index(self) -> usize {
            self.0
        }
        fn kind_letter(self) -> char {
            b"abcdef"[self.0] as char
        }
    }

    #[test]
    fn bitboards_mailbox_and_key_stay_in_step() {
        let mut keys = [[0u64; 64]; 12];
        for (code, row) in keys.iter_mut().enumerate() {
            for (sq, key) in row.iter_mut().enumerate() {
                *key = (code as u64 + 1) << 8 | sq as u64;
            }
        }
        let mut board = PieceBoard::<u64, Kind, 64>::default();
        let mut key = 0;
        board.put(Square(12), 7, &keys, &mut key); // a black knight
        board.put(Square(3), 0, &keys, &mut key);
        board.shift(Square(12), Square(30), &keys, &mut key);
        assert_eq!(board.pieces(Color::Black, Kind(1)), 1 << 30);
        assert_eq!(board.occupied(), 1 << 30 | 1 << 3);
        assert_eq!(board.code_at(Square(12)), NO_PIECE);
        let knight = board.piece_at(Square(30)).unwrap();
        assert_eq!(
            (knight.kind, knight.color, knight.letter()),
            (Kind(1), Color::Black, 'b')
        );
        assert_eq!(
            Piece::<Kind>::from_letter('B'),
            Some(Piece {
                kind: Kind(1),
                color: Color::White
            })
        );
        assert_eq!(key, board.pieces_key(&keys));
        assert_eq!(board.remove(Square(30), &keys, &mut key), 7);
        assert_eq!(key, keys[0][3]);
        assert_eq!(board.codes().collect::<Vec<_>>(), [(Square(3), 0)]);
    }
}
