//! FEN reading and writing: 15-file ranks with multi-digit empty runs, castling rights as the
//! files of unmoved kings and rooks, and the promotion pool as an optional seventh field.

use super::position::{
    castling_bit, Millennium, CASTLING_FILES, FILES, INITIAL_COUNTS, NO_SQUARE, POOL_KINDS, RANK_1,
    RANK_8,
};
use crate::board::{Bitboard, Board15x8, Geometry, Square};
use crate::rules::chess::{Piece, PieceKind};
use crate::rules::fen::{
    bad_fen as error, check_back_ranks, check_kings, read_placement, write_placement, Fields,
    PlacementTarget, FIELD_NAMES,
};
use crate::rules::{Color, RuleError};

fn kind_name(kind: PieceKind) -> &'static str {
    ["pawn", "knight", "bishop", "rook", "queen", "king"][kind.index()]
}

impl PlacementTarget for Millennium {
    type Kind = PieceKind;
    fn put_piece(&mut self, square: Square, piece: Piece) {
        self.put(square, piece);
    }
}

impl Millennium {
    /// Reads a FEN. The halfmove clock and move number may be left out (they default to 0 and
    /// 1); the pool is the seventh field, and empty when left out.
    pub fn parse_fen(fen: &str) -> Result<Millennium, RuleError> {
        let fields = Fields::split(fen, 4, &FIELD_NAMES)?;
        let mut pos = Millennium::empty();
        pos.parse_placement(fields.placement())?;
        pos.side = fields.side()?;
        pos.parse_castling(fields.get(2).unwrap_or("-"))?;
        pos.parse_en_passant(fields.get(3).unwrap_or("-"))?;
        (pos.halfmove, pos.fullmove) = fields.clocks()?;
        if let Some(pool) = fields.get(6) {
            pos.parse_pool(pool)?;
        }
        pos.check_army_sizes()?;

        // A side with one king may not be left attacked; a side with two may.
        let them = pos.side.flip();
        if pos.has_one_king(them)
            && pos.is_attacked_by(pos.kings(them).lsb(), pos.side, pos.occupied())
        {
            return Err(error(format!(
                "the side not to move ({}) has one king and it is in check",
                them.name()
            )));
        }
        pos.finish_setup();
        Ok(pos)
    }

    fn parse_placement(&mut self, placement: &str) -> Result<(), RuleError> {
        read_placement(self, placement, FILES, 8)?;
        for color in [Color::White, Color::Black] {
            check_kings(color, self.kings(color).count(), 1..=2)?;
        }
        check_back_ranks((self.kind_bb(PieceKind::Pawn) & (RANK_1 | RANK_8)).any())
    }

    fn parse_castling(&mut self, field: &str) -> Result<(), RuleError> {
        if field == "-" {
            return Ok(());
        }
        for c in field.chars() {
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let file = (c.to_ascii_lowercase() as u32).wrapping_sub('a' as u32);
            if !c.is_ascii_alphabetic() || file > 14 || !CASTLING_FILES.contains(&(file as u8)) {
                return Err(error(format!(
                    "castling field '{field}' has '{c}'; expected the files of unmoved kings and rooks (from AEHKOaehko) or '-'"
                )));
            }
            let file = file as u8;
            let right = castling_bit(color, file);
            if self.castling & right != 0 {
                return Err(error(format!("castling letter '{c}' appears twice")));
            }
            let kind = if file == 4 || file == 10 {
                PieceKind::King
            } else {
                PieceKind::Rook
            };
            let rank = if color == Color::White { 0 } else { 7 };
            let sq = Board15x8::square(file, rank);
            if self.piece_at(sq) != Some(Piece { kind, color }) {
                return Err(error(format!(
                    "castling right '{c}' needs the {} {} on {}",
                    color.name(),
                    kind_name(kind),
                    Board15x8::square_name(sq)
                )));
            }
            self.castling |= right;
        }
        Ok(())
    }

    fn parse_en_passant(&mut self, field: &str) -> Result<(), RuleError> {
        if field == "-" {
            self.en_passant = NO_SQUARE;
            return Ok(());
        }
        let sq = Board15x8::parse_square(field)
            .ok_or_else(|| error(format!("en passant square '{field}' is not a square")))?;
        let (rank, behind, front) = match self.side {
            Color::White => (5, sq.0.wrapping_sub(FILES), sq.0 + FILES),
            Color::Black => (2, sq.0 + FILES, sq.0.wrapping_sub(FILES)),
        };
        let pawn = Piece {
            kind: PieceKind::Pawn,
            color: self.side.flip(),
        };
        if Board15x8::rank_of(sq) != rank
            || self.piece_at(crate::board::Square(behind)) != Some(pawn)
            || self.piece_at(sq).is_some()
            || self.piece_at(crate::board::Square(front)).is_some()
        {
            return Err(error(format!(
                "en passant square {field} does not follow a double pawn push"
            )));
        }
        self.en_passant = sq.0;
        Ok(())
    }

    fn parse_pool(&mut self, field: &str) -> Result<(), RuleError> {
        if field == "-" {
            return Ok(());
        }
        for c in field.chars() {
            let Some(piece) = Piece::from_letter(c) else {
                return Err(error(format!(
                    "pool '{field}' has '{c}'; expected letters from QRBNqrbn or '-'"
                )));
            };
            if !POOL_KINDS.contains(&piece.kind) {
                return Err(error(format!(
                    "pool '{field}' has '{c}': a {} is never reinstated, only queens, rooks, bishops and knights",
                    kind_name(piece.kind)
                )));
            }
            let slot = &mut self.pool[piece.color.index()][piece.kind.index() - 1];
            // Bounded below by the army size check; this only keeps the count in range.
            *slot = slot
                .saturating_add(1)
                .min(INITIAL_COUNTS[piece.kind.index()] as u8 + 1);
        }
        Ok(())
    }

    /// A side never has more of a kind, on the board and in its pool, than it starts with:
    /// promotion only reinstates captured pieces.
    fn check_army_sizes(&self) -> Result<(), RuleError> {
        for color in [Color::White, Color::Black] {
            for kind in PieceKind::ALL {
                let on_board = self.pieces(color, kind).count();
                let pooled = if POOL_KINDS.contains(&kind) {
                    self.pool_count(color, kind)
                } else {
                    0
                };
                let most = INITIAL_COUNTS[kind.index()];
                if on_board + pooled > most {
                    return Err(error(format!(
                        "{} has {} {}s ({on_board} on the board, {pooled} in the pool); a side never has more than the {most} it starts with",
                        color.name(),
                        on_board + pooled,
                        kind_name(kind),
                    )));
                }
            }
        }
        Ok(())
    }

    pub fn to_fen(&self) -> String {
        let mut fen = write_placement(FILES, 8, |sq| {
            self.piece_at(sq).map(|p| p.letter().to_string())
        });
        fen.push_str(if self.side == Color::White {
            " w "
        } else {
            " b "
        });
        if self.castling == 0 {
            fen.push('-');
        }
        for color in [Color::White, Color::Black] {
            for file in CASTLING_FILES {
                if self.castling & castling_bit(color, file) != 0 {
                    let letter = (b'a' + file) as char;
                    fen.push(match color {
                        Color::White => letter.to_ascii_uppercase(),
                        Color::Black => letter,
                    });
                }
            }
        }
        match self.en_passant_square() {
            Some(sq) => {
                fen.push(' ');
                fen.push_str(&Board15x8::square_name(sq));
            }
            None => fen.push_str(" -"),
        }
        fen.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        // The seventh field only when there is something in a pool: a six-field FEN has empty
        // pools, and the start position keeps its usual six fields.
        let pool = self.pool_text();
        if pool != "-" {
            fen.push(' ');
            fen.push_str(&pool);
        }
        fen
    }

    /// The pools as the FEN's seventh field: White's pieces upper case, then Black's, queens
    /// first; `-` when both are empty.
    pub fn pool_text(&self) -> String {
        let mut text = String::new();
        for color in [Color::White, Color::Black] {
            for &kind in POOL_KINDS.iter().rev() {
                for _ in 0..self.pool_count(color, kind) {
                    text.push(Piece { kind, color }.letter());
                }
            }
        }
        if text.is_empty() {
            text.push('-');
        }
        text
    }

    /// A diagram of the board, White at the bottom, as the `d` command prints it, with the pools
    /// and the kings' state below.
    pub fn diagram(&self) -> String {
        let border = format!(" +{}\n", "---+".repeat(FILES as usize));
        let mut out = border.clone();
        for rank in (0..8u8).rev() {
            for file in 0..FILES {
                let c = self
                    .piece_at(Board15x8::square(file, rank))
                    .map_or(' ', |p| p.letter());
                out.push_str(&format!(" | {c}"));
            }
            out.push_str(&format!(" | {}\n", rank + 1));
            out.push_str(&border);
        }
        for file in 0..FILES {
            out.push_str(&format!("   {}", (b'a' + file) as char));
        }
        out.push('\n');
        out.push_str(&format!("Pool: {}\n", self.pool_text()));
        let kings = |color: Color| {
            if self.has_one_king(color) {
                "one king (royal)"
            } else {
                "two kings"
            }
        };
        out.push_str(&format!(
            "Kings: white {}, black {}\n",
            kings(Color::White),
            kings(Color::Black)
        ));
        out
    }
}
