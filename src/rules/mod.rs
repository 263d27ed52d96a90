//! The rules of each game, one module per game, behind one [`Game`] interface that the search,
//! the engine and the arena use.

mod move_list;
#[macro_use]
mod packed_move;
#[macro_use]
pub mod pieces;

pub mod chess;
pub mod fen;
pub mod megachess;
pub mod millennium;
pub mod nichess;
pub mod parameter;
pub mod perft_suite;
pub mod realtime;
mod record;
pub mod registry;

pub use move_list::{BoundedList, Item, MoveList};
pub use record::{GameRecord, Outcome};

use crate::board::Square;
use std::fmt::{self, Debug};

/// The side to move. White moves first in every game.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

/// A rule-level error, by what a caller may do about it; each carries a text that says what and
/// where (the text users see).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RuleError {
    /// The input does not have the shape the notation asks for: a bad FEN, text that is no move.
    Malformed(String),
    /// Well formed, but not legal here and now: a move the position does not allow.
    Illegal(String),
    /// A name the rules do not know (a game, a piece).
    Unknown(String),
}

impl RuleError {
    /// The text that says what is wrong and where.
    pub fn text(&self) -> &str {
        match self {
            RuleError::Malformed(text) | RuleError::Illegal(text) | RuleError::Unknown(text) => {
                text
            }
        }
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

impl std::error::Error for RuleError {}

/// Why a game ended, or what makes it drawn.
/// (Serialised in snake case, as the arena's JSON files name endings.)
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    Checkmate,
    Stalemate,
    Repetition,
    FiftyMoves,
    InsufficientMaterial,
    /// Nichess: the side to move's king was destroyed.
    KingDestroyed,
    /// A game's own limit on its length (Nichess: 333 plies).
    MoveLimit,
}

impl EndReason {
    pub const fn text(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::Repetition => "threefold repetition",
            EndReason::FiftyMoves => "50-move rule",
            EndReason::InsufficientMaterial => "insufficient material",
            EndReason::KingDestroyed => "king destroyed",
            EndReason::MoveLimit => "move limit",
        }
    }
}

/// A turn-based game: positions, legal moves, and the rules that end a game.
///
/// Positions are values: [`Game::play`] returns the position after a move (copy-make), which
/// keeps the search free of unmake bookkeeping and is as fast as make/unmake for small boards.
/// A game writes the rules ([`Game::make`], move generation, endings); copy-make, the null
/// move, move reading and the history index come with the trait.
pub trait Game: Clone + Send + Sync + Debug + 'static {
    type Move: PackedMove;

    /// The `UCI_Variant` name.
    const VARIANT: &'static str;
    const FILES: u8;
    const RANKS: u8;
    const START_FEN: &'static str;
    /// What may follow a move's two squares (promotion letters; `""` for none).
    const MOVE_SUFFIXES: &'static [&'static str] = &[""];
    /// How a move is written, for the error on text that is no move: `expected <this>`.
    const MOVE_FORM: &'static str;
    /// Plies without a capture or pawn move after which the game is drawn, with a mate on the
    /// last ply still counting (chess's 50-move rule: 100), or `None` where the game has no such
    /// rule.
    const QUIET_PLY_LIMIT: Option<u32>;
    /// Whether threefold repetition ends the game at once (Nichess), so that a record of it
    /// allows no more moves ([`GameRecord::generate_moves`]); elsewhere it is a draw that the
    /// search scores and the GUI adjudicates, and play may go on.
    const REPETITION_ENDS_GAME: bool = false;

    fn from_fen(fen: &str) -> Result<Self, RuleError>;
    fn fen(&self) -> String;
    fn side_to_move(&self) -> Color;
    /// Plies since the last irreversible move (capture or pawn move).
    fn halfmove_clock(&self) -> u32;
    /// Zobrist key of the position (pieces, side to move, and every right that matters).
    fn key(&self) -> u64;
    /// The key computed afresh from the position's fields, which the key [`Game::key`] keeps
    /// up to date move by move must always equal (the rules fuzzer checks it at every ply). By
    /// default the key of the position read back from its own FEN; a game that can do it
    /// without the text overrides it.
    fn key_from_scratch(&self) -> u64 {
        Self::from_fen(&self.fen()).map_or(!self.key(), |position| position.key())
    }
    fn in_check(&self) -> bool;
    /// The key after the legal move `mv` in the usual case, asked before the move is played so
    /// that the search can start fetching the child's table entry early; only a hint (a key
    /// that is off costs a useless fetch, never a wrong result). `None`: the game does not say.
    fn likely_key_after(&self, _mv: Self::Move) -> Option<u64> {
        None
    }

    /// Every legal move.
    fn generate_moves(&self, moves: &mut MoveList<Self::Move>);
    /// The legal captures and promotions (what quiescence search looks at).
    fn generate_tactical(&self, moves: &mut MoveList<Self::Move>);
    fn is_tactical(&self, mv: Self::Move) -> bool;
    /// Whether the legal move leaves the opponent in check, asked before it is played (the
    /// search decides its pruning first and plays only what survives). By default it plays
    /// the move to see; a game can say it faster.
    fn gives_check(&self, mv: Self::Move) -> bool {
        self.play(mv).in_check()
    }
    /// Plays a legal move in place.
    fn make(&mut self, mv: Self::Move);
    /// Passes the turn in place (null move, for the search only).
    fn make_null(&mut self);
    /// True when the side to move has pieces beyond king and pawns (null-move is then sound enough).
    fn has_non_pawn_material(&self) -> bool;

    /// Result when the side to move has no legal move: a loss for it (`Checkmate`,
    /// `KingDestroyed`) or a draw (`Stalemate`). By default checkmate in check, else stalemate.
    fn no_moves_reason(&self) -> EndReason {
        if self.in_check() {
            EndReason::Checkmate
        } else {
            EndReason::Stalemate
        }
    }
    /// True when neither side can ever win (too little material left to mate).
    fn no_mating_material(&self) -> bool {
        false
    }
    /// A draw that stands on this position alone (by default the quiet-move rule, then too
    /// little material); repetition needs the game's history and is in [`GameRecord`].
    fn draw_by_rule(&self) -> Option<EndReason> {
        if self.quiet_limit_reached() {
            Some(EndReason::FiftyMoves)
        } else if self.no_mating_material() {
            Some(EndReason::InsufficientMaterial)
        } else {
            None
        }
    }
    /// A board diagram for the `d` command.
    fn board_text(&self) -> String;

    /// The move in the protocol's notation.
    fn move_text(&self, mv: Self::Move) -> String {
        mv.text()
    }
    /// Chess: castling written king-takes-own-rook (`on`, the `UCI_Chess960` option) or as the
    /// king's two-square move where that is unambiguous. The other games have no such choice.
    fn set_chess960(&mut self, _on: bool) {}
    /// A second notation [`Game::parse_move`] also reads for `mv`, if the game has one (chess:
    /// castling as the king's two-square move and as king-takes-own-rook). A text that is
    /// another legal move's own notation stays that move.
    fn other_move_text(&self, _mv: Self::Move) -> Option<String> {
        None
    }

    fn startpos() -> Self {
        Self::from_fen(Self::START_FEN).expect("the start FEN is valid")
    }

    /// True when the quiet-move rule ([`Game::QUIET_PLY_LIMIT`]) draws this position.
    #[inline(always)]
    fn quiet_limit_reached(&self) -> bool {
        Self::QUIET_PLY_LIMIT.is_some_and(|limit| self.halfmove_clock() >= limit)
    }

    /// The position after a legal move.
    #[inline(always)]
    fn play(&self, mv: Self::Move) -> Self {
        let mut next = self.clone();
        next.make(mv);
        next
    }

    /// The position with the turn passed, for null-move pruning; `None` in check.
    fn play_null(&self) -> Option<Self> {
        if self.in_check() {
            return None;
        }
        let mut next = self.clone();
        next.make_null();
        Some(next)
    }

    /// Reads a move in the protocol's notation and checks that it is legal here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, RuleError> {
        let well_formed = parse_move_squares(text, Self::FILES, Self::RANKS)
            .is_some_and(|(_, _, rest)| Self::MOVE_SUFFIXES.contains(&rest));
        if !well_formed {
            return Err(RuleError::Malformed(format!(
                "'{text}' is not a move: expected {}",
                Self::MOVE_FORM
            )));
        }
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        let found = moves
            .iter()
            .find(|&&mv| self.move_text(mv) == text)
            .or_else(|| {
                moves
                    .iter()
                    .find(|&&mv| self.other_move_text(mv).is_some_and(|other| other == text))
            });
        match found {
            Some(&mv) => Ok(mv),
            None => Err(RuleError::Illegal(match self.why_illegal(text, &moves) {
                Some(why) => format!("'{text}' is not a legal move in {}: {why}", self.fen()),
                None if moves.is_empty() => format!(
                    "'{text}' is not a legal move in {}: the game is over ({})",
                    self.fen(),
                    self.no_moves_reason().text()
                ),
                None => format!("'{text}' is not a legal move in {}", self.fen()),
            })),
        }
    }

    /// Why the well-formed move `text` is not among the `legal` ones, where the game can say
    /// more than "not legal".
    fn why_illegal(&self, _text: &str, _legal: &MoveList<Self::Move>) -> Option<String> {
        None
    }

    /// A dense index (below [`HISTORY_SIZE`]) for history tables: from and to square.
    #[inline(always)]
    fn move_index(&self, mv: Self::Move) -> usize {
        let (from, to) = mv.squares();
        from.index() * 128 + to.index()
    }

    /// A dense index (below [`PIECE_TO_SIZE`]) of the piece that makes `mv` and the square it
    /// goes to, for continuation histories: the piece's mailbox code and the destination.
    #[inline(always)]
    fn piece_to_index(&self, mv: Self::Move) -> usize {
        let (from, to) = mv.squares();
        usize::from(self.piece_code(from)) * 128 + to.index()
    }
    /// The mailbox code of the piece on `sq` (kind + 6 * colour; 12 when empty).
    fn piece_code(&self, sq: Square) -> u8;
    /// A hash of the pawns of both sides (where they stand), for the search's correction of
    /// the evaluation by pawn structure.
    fn pawn_key(&self) -> u64;
    /// A hash per side (White's, then Black's) of its pieces other than pawns, where they
    /// stand, for the search's correction of the evaluation by piece placement; `None` in a
    /// game that corrects by pawn structure alone.
    #[inline(always)]
    fn piece_keys(&self) -> Option<[u64; 2]> {
        None
    }

    /// Counts the leaf nodes of the legal move tree (bulk counting at the last ply).
    fn perft(&self, depth: u32) -> u64 {
        if depth == 1 {
            return self.count_moves();
        }
        if depth == 0 {
            return 1;
        }
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        moves.iter().map(|&mv| self.play(mv).perft(depth - 1)).sum()
    }

    /// The number of legal moves (a game may count them without listing them).
    fn count_moves(&self) -> u64 {
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        moves.len() as u64
    }
}

/// A move that packs into 32 bits, so the shared transposition table can hold any game's moves.
pub trait PackedMove: Copy + Eq + Default + Send + Sync + Debug + 'static {
    /// The slots of the game's move lists ([`BoundedList`]): room for every legal move of any of
    /// its positions.
    type Slots<T: Item>: Copy
        + Send
        + Sync
        + AsRef<[std::mem::MaybeUninit<T>]>
        + AsMut<[std::mem::MaybeUninit<T>]>;
    /// Slots with nothing in them yet.
    fn empty_slots<T: Item>() -> Self::Slots<T>;
    fn pack(self) -> u32;
    fn unpack(bits: u32) -> Self;
    /// The from and to squares.
    fn squares(self) -> (Square, Square);
    /// The move in the protocol's notation.
    fn text(self) -> String;
}

/// Splits a move in long algebraic form into its from and to squares and what follows them (a
/// promotion letter, say): `e2e4`, `o2o4`, `h7h8r`, `a10a9` on a tall board. `None` when the
/// text does not start with two squares of a board `files` x `ranks`.
pub fn parse_move_squares(text: &str, files: u8, ranks: u8) -> Option<(Square, Square, &str)> {
    if !text.is_ascii() {
        return None;
    }
    // A square is a file letter and one or two digits; take the longest name that parses.
    fn square_at(text: &str, files: u8, ranks: u8) -> Option<(Square, &str)> {
        (2..=3)
            .rev()
            .filter(|&len| len <= text.len())
            .find_map(|len| Square::parse(&text[..len], files, ranks).map(|sq| (sq, &text[len..])))
    }
    let (from, rest) = square_at(text, files, ranks)?;
    let (to, rest) = square_at(rest, files, ranks)?;
    Some((from, to, rest))
}

/// Size of a history table indexed by [`Game::move_index`] (from and to square, 128 each).
pub const HISTORY_SIZE: usize = 128 * 128;
/// Size of a table indexed by [`Game::piece_to_index`]: 13 mailbox codes (the last one, an
/// empty square, stands for "no move", as after a null move) by 128 squares.
pub const PIECE_TO_SIZE: usize = 13 * 128;

/// Mixes bitboards into one key every bit of which depends on every bit of every word (the
/// search's correction tables read its low bits): each word times an odd constant of its own,
/// then MurmurHash3's finaliser, which carries the high bits down (a product alone never does:
/// its low bits depend only on the words' low bits).
#[inline(always)]
pub fn structure_key<const N: usize>(words: [u64; N]) -> u64 {
    const FACTORS: [u64; 6] = [
        0x9E37_79B9_7F4A_7C15,
        0xC2B2_AE3D_27D4_EB4F,
        0x1656_67B1_9E37_79F9,
        0xD6E8_FEB8_6659_FD93,
        0xA076_1D64_78BD_642F,
        0xE703_7ED1_A0B4_28DB,
    ];
    let mut x = 0u64;
    for (word, factor) in words.iter().zip(FACTORS) {
        x ^= word.wrapping_mul(factor);
    }
    x ^= x >> 33;
    x = x.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    x ^= x >> 33;
    x = x.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    x ^ (x >> 33)
}

/// Mixes two pawn sets into one key (see [`structure_key`]).
#[inline(always)]
pub fn pawn_structure_key(white: u64, black: u64) -> u64 {
    structure_key([white, black])
}

/// Checks every game's rules code the same way, for the games' tests.
#[cfg(test)]
pub(crate) mod checks {
    use super::*;

    /// `counts[i]` is the perft count of `pos` at depth `i + 1`.
    pub fn perft_counts<G: Game>(pos: &G, counts: &[u64]) {
        for (depth, &expected) in (1..).zip(counts) {
            assert_eq!(pos.perft(depth), expected, "{pos:?} depth {depth}");
        }
    }

    /// Each FEN is refused with an error that says `needle`, as malformed.
    pub fn fen_errors<G: Game>(cases: &[(&str, &str)]) {
        for &(fen, needle) in cases {
            let err = G::from_fen(fen).expect_err(fen);
            assert!(
                matches!(&err, RuleError::Malformed(text) if text.contains(needle)),
                "{fen}: {err}"
            );
        }
    }

    /// The tactical moves are exactly the legal moves the game calls tactical.
    pub fn tactical_moves_are_the_tactical_legal_ones<G: Game>(pos: &G) {
        let mut all = MoveList::new();
        pos.generate_moves(&mut all);
        let mut tactical = MoveList::new();
        pos.generate_tactical(&mut tactical);
        let mut want: Vec<u32> = all
            .iter()
            .filter(|&&mv| pos.is_tactical(mv))
            .map(|mv| mv.pack())
            .collect();
        let mut got: Vec<u32> = tactical.iter().map(|mv| mv.pack()).collect();
        want.sort_unstable();
        got.sort_unstable();
        assert_eq!(got, want, "{pos:?}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The correction tables index by a key's low 14 bits: every square of every word must
    /// move them (a product alone left the seventh rank out of them).
    #[test]
    fn every_input_bit_moves_a_structure_keys_low_bits() {
        const LOW: u64 = (1 << 14) - 1;
        let starts = [
            [0xFF00, 0x00FF_0000_0000_0000],
            [0, 0],
            [0x0010_2400_0000_4200, 0x81],
        ];
        for [white, black] in starts {
            let base = pawn_structure_key(white, black) & LOW;
            for bit in 0..64 {
                let flip = 1u64 << bit;
                assert_ne!(
                    pawn_structure_key(white ^ flip, black) & LOW,
                    base,
                    "white bit {bit}"
                );
                assert_ne!(
                    pawn_structure_key(white, black ^ flip) & LOW,
                    base,
                    "black bit {bit}"
                );
            }
            let pieces = [white, black, white ^ black, 0, 1 << 60];
            let base = structure_key(pieces) & LOW;
            for (word, bit) in (0..5).flat_map(|word| (0..64).map(move |bit| (word, bit))) {
                let mut changed = pieces;
                changed[word] ^= 1 << bit;
                assert_ne!(structure_key(changed) & LOW, base, "word {word} bit {bit}");
            }
        }
    }

    /// The keys are part of what the `d` command prints and of every table: pinned to the
    /// values the games have always had.
    #[test]
    fn zobrist_keys_stay_as_they_were() {
        fn key<G: Game>(fen: Option<&str>) -> u64 {
            fen.map_or_else(G::startpos, |fen| G::from_fen(fen).unwrap())
                .key()
        }
        use {chess::Chess, millennium::Millennium, nichess::Nichess};
        assert_eq!(key::<Chess>(None), 0x6703CFC5A45E2DEC);
        assert_eq!(key::<Nichess>(None), 0xC9120B545FCC88B4);
        assert_eq!(key::<Millennium>(None), 0x0B2B0FC471269815);
        let en_passant = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w Kq f6 0 3";
        assert_eq!(key::<Chess>(Some(en_passant)), 0xC3DB78ED63154E93);
        let pools = "1n2k1k3r4/1P3P1P4p1p/15/15/15/15/p5p1p6/RN2K5K4 b - - 0 1 QNrbq";
        assert_eq!(key::<Millennium>(Some(pools)), 0xF7E23A10CA0FE291);
        let health = "r3k2r/pp1m1ppp/2n1q3/2PpN3/3Q4/2M2n(30)2/RP3PPP/R3K2R(30) b - - 4 12";
        assert_eq!(key::<Nichess>(Some(health)), 0x7245F427EC9B6C02);
    }

    #[test]
    fn move_squares_split_on_every_board_and_refuse_junk() {
        let name = |sq: Square, files| sq.name(files);
        let (from, to, rest) = parse_move_squares("h7h8r", 15, 8).unwrap();
        assert_eq!(
            (name(from, 15), name(to, 15), rest),
            ("h7".into(), "h8".into(), "r")
        );
        let (from, to, rest) = parse_move_squares("a10a9", 8, 16).unwrap();
        assert_eq!(
            (name(from, 8), name(to, 8), rest),
            ("a10".into(), "a9".into(), "")
        );
        assert_eq!(parse_move_squares("o2o4", 8, 8), None);
        for junk in ["", "e2", "e2e", "é2e4", "aé4", "e2e9", "2e4e", "e0e1"] {
            assert_eq!(parse_move_squares(junk, 8, 8), None, "{junk}");
        }
    }
}
