//! Standard chess evaluation: tapered material and piece-square tables, mobility, pawn
//! structure, passed pawns, bishop pair and a pawn shield.

use super::{pawn_advance, Evaluate};
use crate::board::magic::magics;
use crate::board::masks::FILE_A;
use crate::board::{Bitboard, Board8x8, Geometry, Square};
use crate::rules::chess::{Chess, Move, PieceKind};
use crate::rules::Color;

/// Middlegame and endgame values of pawn, knight, bishop, rook, queen, king.
const MATERIAL_MG: [i32; 6] = [82, 337, 365, 477, 1025, 0];
const MATERIAL_EG: [i32; 6] = [94, 281, 297, 512, 936, 0];
/// Phase weight of each kind; 24 is a full board.
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
const MOBILITY_MG: [i32; 6] = [0, 4, 5, 2, 1, 0];
const MOBILITY_EG: [i32; 6] = [0, 4, 5, 4, 2, 0];
const PASSED_MG: [i32; 8] = [0, 5, 10, 15, 30, 50, 80, 0];
const PASSED_EG: [i32; 8] = [0, 10, 20, 35, 60, 100, 150, 0];
const TEMPO: i32 = 10;

/// Piece-square tables `[kind][square]` for White (Black mirrors the rank), built from a few
/// plain ideas: central pieces, advanced pawns, a sheltered king in the middlegame and an
/// active one in the endgame.
struct Tables {
    mg: [[i32; 64]; 6],
    eg: [[i32; 64]; 6],
}

const fn center_distance(sq: usize) -> i32 {
    let file = (sq % 8) as i32;
    let rank = (sq / 8) as i32;
    // Doubled coordinates so the centre (between d/e and 4/5) is at distance 1.
    let df = if file * 2 - 7 < 0 {
        7 - file * 2
    } else {
        file * 2 - 7
    };
    let dr = if rank * 2 - 7 < 0 {
        7 - rank * 2
    } else {
        rank * 2 - 7
    };
    (df + dr) / 2
}

const fn build_tables() -> Tables {
    let mut mg = [[0; 64]; 6];
    let mut eg = [[0; 64]; 6];
    let mut sq = 0;
    while sq < 64 {
        let file = (sq % 8) as i32;
        let rank = (sq / 8) as i32;
        let centre = 7 - center_distance(sq); // 0 at the corners, 6 in the centre
                                              // Pawns: advance, and hold the centre early.
        let central_file = file == 3 || file == 4;
        (mg[0][sq], eg[0][sq]) = pawn_advance(rank, central_file, 15, 10);
        mg[1][sq] = centre * 8 - 25;
        eg[1][sq] = centre * 6 - 20;
        mg[2][sq] = centre * 4 - 10 - if rank == 0 { 5 } else { 0 };
        eg[2][sq] = centre * 3 - 10;
        mg[3][sq] = if rank == 6 { 15 } else { 0 } + if file == 3 || file == 4 { 5 } else { 0 };
        eg[3][sq] = if rank == 6 { 10 } else { 0 };
        mg[4][sq] = centre * 2 - 6;
        eg[4][sq] = centre * 4 - 12;
        // King: castled corners in the middlegame, the centre in the endgame.
        let shelter = if file <= 2 || file >= 5 { 15 } else { -5 };
        mg[5][sq] = shelter - rank * 25 + if file == 6 || file == 1 { 10 } else { 0 };
        eg[5][sq] = centre * 8 - 28;
        sq += 1;
    }
    Tables { mg, eg }
}

static TABLES: Tables = build_tables();

#[inline(always)]
fn file_mask(file: u8) -> u64 {
    FILE_A << file
}

#[inline(always)]
fn adjacent_files(file: u8) -> u64 {
    let mut mask = 0;
    if file > 0 {
        mask |= file_mask(file - 1);
    }
    if file < 7 {
        mask |= file_mask(file + 1);
    }
    mask
}

/// Squares in front of `sq` (from `color`'s view) on its file and the two beside it.
#[inline(always)]
fn passed_span(sq: Square, color: Color) -> u64 {
    let file = sq.0 & 7;
    let rank = sq.0 / 8;
    let files = file_mask(file) | adjacent_files(file);
    let ahead = match color {
        Color::White => {
            if rank == 7 {
                0
            } else {
                !0u64 << (8 * (rank + 1))
            }
        }
        Color::Black => (1u64 << (8 * rank)) - 1,
    };
    files & ahead
}

/// The score of one side, as (middlegame, endgame, phase).
fn side_terms(pos: &Chess, us: Color) -> (i32, i32, i32) {
    let t = Board8x8::tables();
    let m = magics();
    let them = us.flip();
    let occupied = pos.occupied();
    let own = pos.color_bb(us);
    let (mut mg, mut eg, mut phase) = (0, 0, 0);
    let relative = |sq: Square| -> usize {
        match us {
            Color::White => sq.index(),
            Color::Black => (sq.0 ^ 56) as usize,
        }
    };
    let their_pawns = pos.pieces(them, PieceKind::Pawn);
    let their_pawn_attacks = their_pawns.squares().fold(0u64, |acc, sq| {
        acc | t.pawn_attacks[them.index()][sq.index()]
    });

    for kind in PieceKind::ALL {
        let k = kind.index();
        for sq in pos.pieces(us, kind).squares() {
            let r = relative(sq);
            mg += MATERIAL_MG[k] + TABLES.mg[k][r];
            eg += MATERIAL_EG[k] + TABLES.eg[k][r];
            phase += PHASE[k];
            let attacks = match kind {
                PieceKind::Knight => t.knight[sq.index()],
                PieceKind::Bishop => m.bishop(sq, occupied),
                PieceKind::Rook => m.rook(sq, occupied),
                PieceKind::Queen => m.queen(sq, occupied),
                _ => 0,
            };
            if attacks != 0 {
                let mobility = (attacks & !own & !their_pawn_attacks).count() as i32;
                mg += MOBILITY_MG[k] * (mobility - 4);
                eg += MOBILITY_EG[k] * (mobility - 4);
            }
        }
    }

    // Pawn structure.
    let pawns = pos.pieces(us, PieceKind::Pawn);
    for sq in pawns.squares() {
        let file = sq.0 & 7;
        if (pawns & adjacent_files(file)).is_empty() {
            mg -= 10;
            eg -= 15;
        }
        if (passed_span(sq, us) & their_pawns).is_empty() {
            let rank = relative(sq) / 8;
            mg += PASSED_MG[rank];
            eg += PASSED_EG[rank];
        }
    }
    for file in 0..8 {
        let on_file = (pawns & file_mask(file)).count() as i32;
        if on_file > 1 {
            mg -= 10 * (on_file - 1);
            eg -= 20 * (on_file - 1);
        }
    }
    if pos.pieces(us, PieceKind::Bishop).more_than_one() {
        mg += 30;
        eg += 45;
    }
    // Rooks on open and half-open files.
    for sq in pos.pieces(us, PieceKind::Rook).squares() {
        let file = file_mask(sq.0 & 7);
        if (file & pawns).is_empty() {
            mg += if (file & their_pawns).is_empty() {
                25
            } else {
                10
            };
        }
    }
    // Pawn shield in front of the king, worth something only with queens about.
    let king = pos.king_square(us);
    let king_file = king.0 & 7;
    let shield_files = file_mask(king_file) | adjacent_files(king_file);
    let shield = passed_span(king, us) & shield_files & pawns;
    let near = (shield & t.king[king.index()]).count() as i32
        + (shield & !t.king[king.index()]).count().min(3) as i32 / 2;
    mg += 12 * near.min(3);
    (mg, eg, phase)
}

impl Evaluate for Chess {
    fn evaluate(&self) -> i32 {
        let (wmg, weg, wphase) = side_terms(self, Color::White);
        let (bmg, beg, bphase) = side_terms(self, Color::Black);
        let phase = (wphase + bphase).min(24);
        let mg = wmg - bmg;
        let eg = weg - beg;
        let white = (mg * phase + eg * (24 - phase)) / 24;
        let score = match self.side() {
            Color::White => white,
            Color::Black => -white,
        };
        score + TEMPO
    }

    fn material_balance(&self) -> i32 {
        let side = |color: Color| -> i32 {
            PieceKind::ALL
                .iter()
                .map(|&k| self.pieces(color, k).count() as i32 * MATERIAL_MG[k.index()])
                .sum()
        };
        side(self.side()) - side(self.side().flip())
    }

    #[inline]
    fn tactical_order(&self, mv: Move) -> i32 {
        let attacker = self
            .piece_at(mv.from())
            .map_or(0, |p| p.kind.index() as i32);
        let victim = if mv.is_en_passant() {
            0
        } else {
            self.piece_at(mv.to()).map_or(-1, |p| p.kind.index() as i32)
        };
        let promotion = mv.promotion_value(&MATERIAL_MG);
        (victim + 1) * 100 - attacker + promotion
    }

    #[inline]
    fn tactical_gain(&self, mv: Move) -> i32 {
        let victim = if mv.is_en_passant() {
            MATERIAL_EG[0]
        } else {
            self.piece_at(mv.to())
                .map_or(0, |p| MATERIAL_MG[p.kind.index()])
        };
        victim + mv.promotion_gain(&MATERIAL_MG)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Game;

    fn eval(fen: &str) -> i32 {
        Chess::from_fen(fen).unwrap().evaluate()
    }

    #[test]
    fn start_position_is_near_equal_and_symmetric() {
        let start = eval(crate::rules::chess::START_FEN);
        assert!(start.abs() < 30, "{start}");
        // Mirrored positions score the same for the side to move.
        let a = eval("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        let b = eval("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3");
        assert_eq!(a, b);
    }

    #[test]
    fn material_and_passed_pawns_count() {
        assert!(eval("4k3/8/8/8/8/8/8/3QK3 w - - 0 1") > 700);
        assert!(eval("4k3/8/8/8/8/8/8/3QK3 b - - 0 1") < -700);
        let passer = eval("4k3/8/3P4/8/8/8/8/4K3 w - - 0 1");
        let home = eval("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1");
        assert!(passer > home + 50, "{passer} vs {home}");
    }
}
