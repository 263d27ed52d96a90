//! FEN reading and writing, with an error that says what is wrong and where.

use super::position::{
    castling_right, right_index, Chess, Piece, PieceKind, CASTLE_BLACK_KING, CASTLE_BLACK_QUEEN,
    CASTLE_WHITE_KING, CASTLE_WHITE_QUEEN, NO_SQUARE,
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

    /// Reads the castling field: `-`, or for each right a letter, either `K`/`Q` (`k`/`q` for
    /// Black: the outermost rook on that side of the king, as X-FEN reads them) or the rook's
    /// file, `A`-`H` (`a`-`h`, Shredder-FEN). The king and the rook must stand on their side's
    /// back rank, the rook beside the king's side it names.
    fn read_castling(&mut self, field: &str) -> Result<(), RuleError> {
        if field == "-" {
            return Ok(());
        }
        for letter in field.chars() {
            let color = if letter.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let rank = if color == Color::White { 0u8 } else { 56 };
            let king = self.king_square(color);
            let rook = Piece {
                kind: PieceKind::Rook,
                color,
            };
            let rook_files: Vec<u8> = (0..8u8)
                .filter(|&file| self.piece_at(Square(rank + file)) == Some(rook))
                .collect();
            let king_file = king.0 & 7;
            let (king_side, rook_file) = match letter.to_ascii_lowercase() {
                'k' => (true, rook_files.iter().copied().rfind(|&f| f > king_file)),
                'q' => (false, rook_files.iter().copied().find(|&f| f < king_file)),
                file @ 'a'..='h' => {
                    let file = file as u8 - b'a';
                    (file > king_file, rook_files.contains(&file).then_some(file))
                }
                _ => {
                    return Err(error(format!(
                        "castling field '{field}' has '{letter}'; expected '-', letters from \
                         KQkq, or rook files A-H and a-h"
                    )))
                }
            };
            let side = if king_side { "king's" } else { "queen's" };
            if king.0 & !7 != rank {
                return Err(error(format!(
                    "castling right '{letter}' needs the {} king on its back rank, not on {}",
                    color.name(),
                    king.name(8)
                )));
            }
            let Some(rook_file) = rook_file else {
                return Err(error(format!(
                    "castling right '{letter}' needs a {} rook on the {side} side of its king \
                     on {}{}",
                    color.name(),
                    king.name(8),
                    if letter.is_ascii_alphabetic() && !"KQkq".contains(letter) {
                        format!(", on the {}-file", letter.to_ascii_lowercase())
                    } else {
                        String::new()
                    }
                )));
            };
            let right = castling_right(color, king_side);
            if self.castling & right != 0 {
                return Err(error(format!(
                    "castling field '{field}' gives {} two rights on the {side} side",
                    color.name()
                )));
            }
            self.castling |= right;
            self.castling_rooks[right_index(right)] = rank + rook_file;
        }
        self.chess960 = !self.has_standard_castling();
        Ok(())
    }

    /// The castling field as X-FEN writes it: `KQkq` for the outermost rooks (so standard chess
    /// reads as always), a rook's file (`HAha`-style) for an inner one.
    fn castling_field(&self) -> String {
        let mut field = String::new();
        for (right, letter) in [
            (CASTLE_WHITE_KING, 'K'),
            (CASTLE_WHITE_QUEEN, 'Q'),
            (CASTLE_BLACK_KING, 'k'),
            (CASTLE_BLACK_QUEEN, 'q'),
        ] {
            let Some(rook) = self.castling_rook(right) else {
                continue;
            };
            let color = if letter.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let rank = rook.0 & !7;
            let outward: Vec<u8> = if letter.eq_ignore_ascii_case(&'k') {
                ((rook.0 & 7) + 1..8).collect()
            } else {
                (0..rook.0 & 7).collect()
            };
            let outermost = outward.iter().all(|&file| {
                self.piece_at(Square(rank + file))
                    != Some(Piece {
                        kind: PieceKind::Rook,
                        color,
                    })
            });
            field.push(if outermost {
                letter
            } else {
                let file = (b'a' + (rook.0 & 7)) as char;
                if color == Color::White {
                    file.to_ascii_uppercase()
                } else {
                    file
                }
            });
        }
        if field.is_empty() {
            field.push('-');
        }
        field
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
        fen.push_str(&self.castling_field());
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
