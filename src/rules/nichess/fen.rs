//! FEN with health: a piece whose HP differs from its kind's starting HP carries it in
//! parentheses after its letter, `N(40)`. The move-number field carries the ply count.

use super::position::{Nichess, Piece, PieceKind, HP_UNIT, MOVE_LIMIT};
use crate::board::masks::BACK_RANKS;
use crate::board::{Bitboard, Square};
use crate::rules::fen::{
    bad_fen as error, check_back_ranks, check_kings, read_placement, write_placement, Fields,
    PlacementTarget, FIELD_NAMES,
};
use crate::rules::{Color, RuleError};

/// Reads the `(HP)` after a piece and checks that such a piece can have it.
fn parse_hp(text: &str, piece: Piece, square: Square) -> Result<u8, RuleError> {
    let describe = || {
        format!(
            "the {} {} on {}",
            piece.color.name(),
            piece.kind.name(),
            square.name(8)
        )
    };
    let hp: u32 = text.parse().map_err(|_| {
        error(format!(
            "{} has health '({text})'; expected a number such as ({})",
            describe(),
            piece.kind.start_hp() * HP_UNIT
        ))
    })?;
    let most = piece.kind.start_hp() as u32 * HP_UNIT as u32;
    if hp == 0 || !hp.is_multiple_of(HP_UNIT as u32) {
        return Err(error(format!(
            "{} has {hp} HP; health is always a multiple of 10 from 10 to 60",
            describe()
        )));
    }
    if hp > most {
        return Err(error(format!(
            "{} has {hp} HP; a {} has at most {most} (health never grows)",
            describe(),
            piece.kind.name()
        )));
    }
    Ok((hp / HP_UNIT as u32) as u8)
}

impl PlacementTarget for Nichess {
    type Kind = PieceKind;
    /// A piece whose health differs from its kind's start carries it: `N(40)`.
    fn put_piece(&mut self, square: Square, piece: Piece) {
        self.put(square.0, piece, piece.kind.start_hp());
    }
    fn place(&mut self, square: Square, piece: Piece, after: &str) -> Result<usize, RuleError> {
        let Some(rest) = after.strip_prefix('(') else {
            self.put_piece(square, piece);
            return Ok(0);
        };
        let close = rest.find(')').ok_or_else(|| {
            error(format!(
                "the health after '{}' on {} has no closing ')'",
                piece.letter(),
                square.name(8)
            ))
        })?;
        let hp = parse_hp(&rest[..close], piece, square)?;
        self.put(square.0, piece, hp);
        Ok(close + 2)
    }
    fn not_a_piece(c: char, rank: u8) -> RuleError {
        if c == '(' {
            error(format!(
                "health '(' on rank {rank} does not follow a piece letter"
            ))
        } else {
            error(format!(
                "'{c}' on rank {rank} is not a piece letter (Nichess uses K Q P M R N)"
            ))
        }
    }
}

impl Nichess {
    /// Reads a FEN: placement with optional `(HP)`, side to move, and optionally castling
    /// (`-`; castling goes by squares alone, so `KQkq` letters are accepted and ignored), en
    /// passant (`-` only), the plies since the last attack, throw or pawn move, and the move
    /// number, from which the plies played follow.
    pub fn parse_fen(fen: &str) -> Result<Nichess, RuleError> {
        let names = ["placement", "side", "castling '-'", "en passant '-'"];
        let fields = Fields::split(fen, 2, &[&names[..], &FIELD_NAMES[4..6]].concat())?;
        let mut pos = Nichess::empty();
        read_placement(&mut pos, fields.placement(), 8, 8)?;
        pos.side = fields.side()?;
        for color in [Color::White, Color::Black] {
            // The side to move may have lost its king: the game is then over.
            let allowed = if color == pos.side { 0..=1 } else { 1..=1 };
            check_kings(color, pos.pieces(color, PieceKind::King).count(), allowed)?;
        }
        check_back_ranks(pos.kind_bb(PieceKind::Pawn) & BACK_RANKS != 0)?;
        if let Some(castling) = fields.get(2) {
            if castling != "-" && !castling.chars().all(|c| "KQkq".contains(c)) {
                return Err(error(format!(
                    "castling field '{castling}' should be '-' (castling depends only on the squares)"
                )));
            }
        }
        if let Some(en_passant) = fields.get(3) {
            if en_passant != "-" {
                return Err(error(format!(
                    "en passant field '{en_passant}' should be '-' (Nichess has no en passant)"
                )));
            }
        }
        let (halfmove, fullmove): (u32, u32) = fields.clocks()?;
        let ply = 2 * (fullmove as u64 - 1) + pos.side as u64;
        if ply > MOVE_LIMIT as u64 {
            return Err(error(format!(
                "move number {fullmove} means {ply} plies were played; the game ends at {MOVE_LIMIT}"
            )));
        }
        if halfmove as u64 > ply {
            return Err(error(format!(
                "halfmove clock {halfmove} is more than the {ply} plies played"
            )));
        }
        pos.ply = ply as u16;
        pos.reversible = halfmove as u16;
        pos.key = pos.key_from_scratch();
        Ok(pos)
    }

    pub fn to_fen(&self) -> String {
        let mut fen = write_placement(8, 8, |sq| {
            self.piece_at(sq).map(|piece| {
                let hp = self.hp[sq.index()];
                if hp == piece.kind.start_hp() {
                    piece.letter().to_string()
                } else {
                    format!("{}({})", piece.letter(), hp * HP_UNIT)
                }
            })
        });
        let side = if self.side == Color::White { 'w' } else { 'b' };
        fen.push_str(&format!(
            " {side} - - {} {}",
            self.reversible,
            self.fullmove_number()
        ));
        fen
    }

    /// A diagram of the board, White at the bottom, each piece with its HP, as `d` prints it.
    pub fn diagram(&self) -> String {
        let line = " +-----+-----+-----+-----+-----+-----+-----+-----+\n";
        let mut out = String::from(line);
        for rank in (0..8u8).rev() {
            for file in 0..8u8 {
                let sq = Square(rank * 8 + file);
                let cell = match self.piece_at(sq) {
                    Some(piece) => format!("{}{:>3}", piece.letter(), self.hp_at(sq)),
                    None => "    ".to_string(),
                };
                out.push_str(&format!(" |{cell}"));
            }
            out.push_str(&format!(" | {}\n", rank + 1));
            out.push_str(line);
        }
        out.push_str("    a     b     c     d     e     f     g     h\n");
        out.push_str(&format!(
            "ply {} of {}, {} to move\n",
            self.ply,
            MOVE_LIMIT,
            self.side.name()
        ));
        out
    }
}
