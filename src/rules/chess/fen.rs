//! FEN reading and writing, with an error that says what is wrong and where.

use super::position::{
    Chess, Piece, PieceKind, CASTLE_BLACK_KING, CASTLE_BLACK_QUEEN, CASTLE_WHITE_KING,
    CASTLE_WHITE_QUEEN, NO_SQUARE,
};
use crate::board::masks::BACK_RANKS;
use crate::board::{Bitboard, Board8x8, Geometry, Square};
use crate::rules::fen::{
    bad_fen as error, check_back_ranks, check_kings, read_placement, write_placement, Fields,
    PlacementTarget, FIELD_NAMES,
};
use crate::rules::{Color, RuleError};

/// The pieces other than pawns and the king that a side starts with.
const STARTING_COUNTS: [(PieceKind, u32); 4] = [
    (PieceKind::Knight, 2),
    (PieceKind::Bishop, 2),
    (PieceKind::Rook, 2),
    (PieceKind::Queen, 1),
];

impl PlacementTarget for Chess {
    type Kind = PieceKind;
    fn put_piece(&mut self, square: Square, piece: Piece) {
        self.put(square, piece);
    }
}

impl Chess {
    /// Reads a FEN. The halfmove clock and move number may be left out (they default to 0 and 1).
    pub fn parse_fen(fen: &str) -> Result<Chess, RuleError> {
        let split = Fields::split(fen, 4, &FIELD_NAMES[..6])?;
        let fields = [0, 1, 2, 3].map(|index| split.get(index).unwrap_or("-"));
        let mut pos = Chess::empty();

        read_placement(&mut pos, fields[0], 8, 8)?;
        for color in [Color::White, Color::Black] {
            check_kings(color, pos.pieces(color, PieceKind::King).count(), 1..=1)?;
        }
        check_back_ranks((pos.kind_bb(PieceKind::Pawn) & BACK_RANKS).any())?;
        pos.check_material()?;
        pos.side = split.side()?;
        pos.read_castling(fields[2])?;
        pos.read_en_passant(fields[3])?;
        (pos.halfmove, pos.fullmove) = split.clocks()?;

        let them = pos.side.flip();
        let their_king = pos.king_square(them);
        if pos.is_attacked_by(their_king, pos.side, pos.occupied()) {
            return Err(error(format!(
                "the side not to move ({}) is in check",
                them.name()
            )));
        }
        pos.finish_setup();
        if pos.checkers.count() > 2 {
            return Err(error(
                "the side to move is in check from more than two pieces".to_string(),
            ));
        }
        Ok(pos)
    }

    /// Refuses more pieces than a side can have: 16, at most 8 pawns, and no more pieces beyond
    /// the starting set than pawns missing to have promoted.
    fn check_material(&self) -> Result<(), RuleError> {
        for color in [Color::White, Color::Black] {
            // A side starts with 16 pieces, 8 of them pawns, and never gains one.
            let pieces = self.color_bb(color).count();
            let pawns = self.pieces(color, PieceKind::Pawn).count();
            if pieces > 16 || pawns > 8 {
                return Err(error(format!(
                    "{} has {pieces} pieces, {pawns} of them pawns; a side has at most 16, \
                 at most 8 of them pawns",
                    color.name()
                )));
            }
            // Every piece beyond the starting set is a promoted pawn. This also bounds the legal
            // moves of a position (at most 218), which the move lists' size relies on.
            let promoted: u32 = STARTING_COUNTS
                .iter()
                .map(|&(kind, start)| self.pieces(color, kind).count().saturating_sub(start))
                .sum();
            if promoted > 8 - pawns {
                return Err(error(format!(
                    "{} has {promoted} pieces beyond its starting set but only {} pawns missing \
                 to have promoted",
                    color.name(),
                    8 - pawns
                )));
            }
        }
        Ok(())
    }

    /// Reads the castling field (`-` or letters from `KQkq`, each with its king and rook home).
    fn read_castling(&mut self, field: &str) -> Result<(), RuleError> {
        if field != "-" {
            for c in field.chars() {
                let (right, king_sq, rook_sq, color) = match c {
                    'K' => (CASTLE_WHITE_KING, 4, 7, Color::White),
                    'Q' => (CASTLE_WHITE_QUEEN, 4, 0, Color::White),
                    'k' => (CASTLE_BLACK_KING, 60, 63, Color::Black),
                    'q' => (CASTLE_BLACK_QUEEN, 60, 56, Color::Black),
                    _ => {
                        return Err(error(format!(
                            "castling field '{}' has '{c}'; expected letters from KQkq or '-'",
                            field
                        )))
                    }
                };
                if self.castling & right != 0 {
                    return Err(error(format!("castling letter '{c}' appears twice")));
                }
                let king_there = self.piece_at(Square(king_sq))
                    == Some(Piece {
                        kind: PieceKind::King,
                        color,
                    });
                let rook_there = self.piece_at(Square(rook_sq))
                    == Some(Piece {
                        kind: PieceKind::Rook,
                        color,
                    });
                if !king_there || !rook_there {
                    return Err(error(format!(
                        "castling right '{c}' needs the {} king on {} and a rook on {}",
                        color.name(),
                        Square(king_sq).name(8),
                        Square(rook_sq).name(8)
                    )));
                }
                self.castling |= right;
            }
        }
        Ok(())
    }

    /// Reads the en passant field: `-`, or the square behind a pawn that just moved two.
    fn read_en_passant(&mut self, field: &str) -> Result<(), RuleError> {
        if field != "-" {
            let sq = Board8x8::parse_square(field)
                .ok_or_else(|| error(format!("en passant square '{field}' is not a square")))?;
            let rank = match self.side {
                Color::White => 5,
                Color::Black => 2,
            };
            // Only a square on the sixth (third) rank has squares behind and in front of it to
            // look at; any other is refused before they are computed.
            let (behind, front) = match self.side {
                Color::White => (sq.0.wrapping_sub(8), sq.0.wrapping_add(8)),
                Color::Black => (sq.0.wrapping_add(8), sq.0.wrapping_sub(8)),
            };
            let pawn = Piece {
                kind: PieceKind::Pawn,
                color: self.side.flip(),
            };
            if Board8x8::rank_of(sq) != rank
                || self.piece_at(Square(behind)) != Some(pawn)
                || self.piece_at(sq).is_some()
                || self.piece_at(Square(front)).is_some()
            {
                return Err(error(format!(
                    "en passant square {} does not follow a double pawn push",
                    field
                )));
            }
            self.en_passant = sq.0;
        } else {
            self.en_passant = NO_SQUARE;
        }
        Ok(())
    }

    pub fn to_fen(&self) -> String {
        let mut fen = write_placement(8, 8, |sq| self.piece_at(sq).map(|p| p.letter().to_string()));
        fen.push_str(if self.side == Color::White {
            " w "
        } else {
            " b "
        });
        if self.castling == 0 {
            fen.push('-');
        }
        for (right, letter) in [
            (CASTLE_WHITE_KING, 'K'),
            (CASTLE_WHITE_QUEEN, 'Q'),
            (CASTLE_BLACK_KING, 'k'),
            (CASTLE_BLACK_QUEEN, 'q'),
        ] {
            if self.castling & right != 0 {
                fen.push(letter);
            }
        }
        match self.en_passant_square() {
            Some(sq) => {
                fen.push(' ');
                fen.push_str(&sq.name(8));
            }
            None => fen.push_str(" -"),
        }
        fen.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        fen
    }

    /// A diagram of the board, White at the bottom, as the `d` command prints it.
    pub fn diagram(&self) -> String {
        let mut out = String::new();
        out.push_str(" +---+---+---+---+---+---+---+---+\n");
        for rank in (0..8u8).rev() {
            for file in 0..8u8 {
                let c = self
                    .piece_at(Board8x8::square(file, rank))
                    .map_or(' ', Piece::letter);
                out.push_str(&format!(" | {c}"));
            }
            out.push_str(&format!(" | {}\n", rank + 1));
            out.push_str(" +---+---+---+---+---+---+---+---+\n");
        }
        out.push_str("   a   b   c   d   e   f   g   h\n");
        out
    }
}
