//! The Nichess position (pieces with their health) and copy-make.

use super::moves::{Move, MoveKind};
use super::tables::{BETWEEN, KING};
use super::zobrist::{piece_key, KEYS};
use crate::board::{Bitboard, Square};
use crate::rules::pieces::{KindIndex, PieceBoard};
use crate::rules::Color;

/// Health is kept in tens: every HP and AP of the game is a multiple of 10.
pub const HP_UNIT: u8 = 10;
/// Splash damage of a throw, in tens.
pub const SPLASH: u8 = 2;
/// Plies after which the game is drawn (the 333-move rule counts single moves).
pub const MOVE_LIMIT: u16 = 333;

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum PieceKind {
    Pawn,
    Knight,
    Maenad,
    Pirate,
    Queen,
    King,
}

impl PieceKind {
    pub const ALL: [PieceKind; 6] = [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Maenad,
        PieceKind::Pirate,
        PieceKind::Queen,
        PieceKind::King,
    ];
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
    pub const fn letter(self) -> char {
        ['p', 'n', 'm', 'r', 'q', 'k'][self as usize]
    }
    pub const fn name(self) -> &'static str {
        ["pawn", "knight", "maenad", "pirate", "queen", "king"][self as usize]
    }
    /// Health at the start (and the most the piece can have), in tens.
    #[inline(always)]
    pub const fn start_hp(self) -> u8 {
        START_HP[self as usize]
    }
    /// Damage of a standard attack, in tens.
    #[inline(always)]
    pub const fn ability(self) -> u8 {
        ABILITY[self as usize]
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

/// Start HP and AP in tens, by kind: pawn, knight, maenad, pirate, queen, king.
const START_HP: [u8; 6] = [3, 6, 1, 6, 1, 1];
const ABILITY: [u8; 6] = [6, 6, 3, 3, 3, 6];

/// A coloured piece.
pub type Piece = crate::rules::pieces::Piece<PieceKind>;

/// A Nichess position: pieces, their health, the side to move and the game's ply count.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Nichess {
    pub(super) board: PieceBoard<u64, PieceKind, 64>,
    /// Health in tens of the piece on each square, 0 where the square is empty.
    pub(super) hp: [u8; 64],
    pub(super) side: Color,
    /// Plies since the last attack, throw or pawn move (nothing before can repeat).
    pub(super) reversible: u16,
    /// Plies played in the game.
    pub(super) ply: u16,
    pub(super) key: u64,
}

reads_as_piece_board!(Nichess, u64, PieceKind, 64);

impl Nichess {
    pub(super) fn empty() -> Nichess {
        Nichess {
            board: PieceBoard::default(),
            hp: [0; 64],
            side: Color::White,
            reversible: 0,
            ply: 0,
            key: 0,
        }
    }

    #[inline(always)]
    pub fn side(&self) -> Color {
        self.side
    }
    /// Health of the piece on `sq` in HP (10..=60), 0 for an empty square.
    #[inline(always)]
    pub fn hp_at(&self, sq: Square) -> u32 {
        self.hp[sq.index()] as u32 * HP_UNIT as u32
    }
    /// Health of the piece on `sq` in tens (1..=6), 0 for an empty square.
    #[inline(always)]
    pub fn hp_tens(&self, sq: usize) -> u8 {
        self.hp[sq]
    }
    /// The squares whose piece or health differs between `self` and `other`: what a move
    /// changed, for measures that only need the difference.
    #[inline]
    pub fn differing_squares(&self, other: &Nichess) -> u64 {
        let (mine, theirs) = (self.board.mailbox(), other.board.mailbox());
        let mut differ = 0u64;
        for sq in 0..64 {
            let changed = (mine[sq] != theirs[sq]) | (self.hp[sq] != other.hp[sq]);
            differ |= (changed as u64) << sq;
        }
        differ
    }
    /// Plies played in the game so far.
    #[inline(always)]
    pub fn plies(&self) -> u32 {
        self.ply as u32
    }
    /// True when the game has ended: the side to move's king was destroyed, or the 333-ply
    /// move limit is reached. A finished game has no actions.
    #[inline(always)]
    pub fn game_over(&self) -> bool {
        self.ply >= MOVE_LIMIT || self.king_destroyed(self.side)
    }
    /// The full-move number as FEN writes it.
    pub fn fullmove_number(&self) -> u32 {
        self.ply as u32 / 2 + 1
    }
    /// True when `color` has lost its king (only the side to move can be in that state).
    #[inline(always)]
    pub fn king_destroyed(&self, color: Color) -> bool {
        self.pieces(color, PieceKind::King) == 0
    }

    #[inline(always)]
    pub(super) fn put(&mut self, sq: u8, piece: Piece, hp: u8) {
        self.board.place(Square(sq), piece.code());
        self.hp[sq as usize] = hp;
        self.key ^= piece_key(piece.code(), hp, sq as usize);
    }

    #[inline(always)]
    fn remove(&mut self, sq: u8) {
        let code = self.board.lift(Square(sq));
        self.key ^= piece_key(code, self.hp[sq as usize], sq as usize);
        self.hp[sq as usize] = 0;
    }

    #[inline(always)]
    fn shift_piece(&mut self, from: u8, to: u8) {
        let code = self.board.slide(Square(from), Square(to));
        let hp = self.hp[from as usize];
        self.hp[from as usize] = 0;
        self.hp[to as usize] = hp;
        self.key ^= piece_key(code, hp, from as usize) ^ piece_key(code, hp, to as usize);
    }

    /// Takes `damage` tens of HP from the piece on `sq`, destroying it at 0 or below.
    #[inline(always)]
    fn damage(&mut self, sq: u8, damage: u8) {
        let hp = self.hp[sq as usize];
        if hp <= damage {
            self.remove(sq);
        } else {
            let code = self.code_at(Square(sq));
            self.key ^=
                piece_key(code, hp, sq as usize) ^ piece_key(code, hp - damage, sq as usize);
            self.hp[sq as usize] = hp - damage;
        }
    }

    /// The key computed from scratch; the incremental key must always equal it.
    pub fn key_from_scratch(&self) -> u64 {
        let mut key = self.board.codes().fold(0, |key, (sq, code)| {
            key ^ piece_key(code, self.hp[sq.index()], sq.index())
        });
        if self.side == Color::Black {
            key ^= KEYS.black_to_move;
        }
        key
    }

    /// Applies a legal action in place.
    pub(super) fn apply(&mut self, mv: Move) {
        let us = self.side;
        let from = mv.from().0;
        let to = mv.to().0;
        self.reversible += 1;
        match mv.kind() {
            MoveKind::Quiet => {
                if self.code_at(Square(from)) % 6 == PieceKind::Pawn as u8 {
                    self.reversible = 0;
                }
                self.shift_piece(from, to);
            }
            MoveKind::Promotion => {
                self.reversible = 0;
                self.promote(from, to, us);
            }
            MoveKind::Castle => {
                let rank = from & !7;
                let (pirate_from, pirate_to) = if to > from {
                    (rank + 7, rank + 5)
                } else {
                    (rank, rank + 3)
                };
                self.shift_piece(from, to);
                self.shift_piece(pirate_from, pirate_to);
            }
            MoveKind::Attack | MoveKind::AttackPromotion => {
                self.reversible = 0;
                let ability = PieceKind::ALL[(self.code_at(Square(from)) % 6) as usize].ability();
                if self.hp[to as usize] <= ability {
                    self.remove(to);
                    if mv.is_promotion() {
                        self.promote(from, to, us);
                    } else {
                        self.shift_piece(from, to);
                    }
                } else {
                    self.damage(to, ability);
                    // The attacker stops on the last empty square before its target.
                    let between = BETWEEN[from as usize][to as usize];
                    if between != 0 {
                        let landing = (between & KING[to as usize]).lsb().0;
                        self.shift_piece(from, landing);
                    }
                }
            }
            MoveKind::Throw => {
                self.reversible = 0;
                let thrown = (BETWEEN[from as usize][to as usize] & KING[from as usize])
                    .lsb()
                    .0;
                self.remove(to);
                self.shift_piece(thrown, to);
                for sq in (KING[to as usize] & self.color_bb(us.flip())).squares() {
                    self.damage(sq.0, SPLASH);
                }
            }
        }
        self.ply += 1;
        self.side = us.flip();
        self.key ^= KEYS.black_to_move;
    }

    #[inline(always)]
    fn promote(&mut self, from: u8, to: u8, us: Color) {
        debug_assert!((1u64 << to) & crate::board::masks::BACK_RANKS != 0);
        self.remove(from);
        let pirate = Piece {
            kind: PieceKind::Pirate,
            color: us,
        };
        self.put(to, pirate, pirate.kind.start_hp());
    }

    /// Passes the turn (null move, for the search only).
    pub(super) fn apply_null(&mut self) {
        self.reversible += 1;
        self.ply += 1;
        self.side = self.side.flip();
        self.key ^= KEYS.black_to_move;
    }
}
