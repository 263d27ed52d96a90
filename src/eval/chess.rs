//! Standard chess evaluation: tapered material and piece-square tables, mobility, pawn
//! structure, passed pawns, bishop pair and a pawn shield.

use super::weights::chess::WEIGHTS;
use super::weights::{idx, ChessWeights, Tracer};
use super::Evaluate;
use crate::board::magic::magics;
use crate::board::masks::FILE_A;
use crate::board::{Bitboard, Board8x8, Geometry, Square};
use crate::rules::chess::{Chess, Move, PieceKind};
use crate::rules::Color;

/// The weights the evaluation reads (`src/eval/weights/chess.rs`, written by `roger tune`).
pub const W: &ChessWeights = &WEIGHTS;

macro_rules! at {
    ($field:ident) => {
        idx!(ChessWeights, $field)
    };
}

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

/// The score of one side, as (middlegame, endgame, phase); `t` hears each weight's coefficient.
#[inline(always)]
fn side_terms<T: Tracer>(pos: &Chess, us: Color, w: &ChessWeights, t: &mut T) -> (i32, i32, i32) {
    let b = Board8x8::tables();
    let m = magics();
    let them = us.flip();
    let occupied = pos.occupied();
    let own = pos.color_bb(us);
    let sign = match us {
        Color::White => 1.0,
        Color::Black => -1.0,
    };
    let (mut mg, mut eg, mut phase) = (0, 0, 0);
    let relative = |sq: Square| -> usize {
        match us {
            Color::White => sq.index(),
            Color::Black => (sq.0 ^ 56) as usize,
        }
    };
    let their_pawns = pos.pieces(them, PieceKind::Pawn);
    let their_pawn_attacks = their_pawns.squares().fold(0u64, |acc, sq| {
        acc | b.pawn_attacks[them.index()][sq.index()]
    });

    for kind in PieceKind::ALL {
        let k = kind.index();
        for sq in pos.pieces(us, kind).squares() {
            let r = relative(sq);
            mg += w.material_mg[k] + w.pst_mg[k][r];
            eg += w.material_eg[k] + w.pst_eg[k][r];
            t.mg(at!(material_mg) + k, sign);
            t.eg(at!(material_eg) + k, sign);
            t.mg(at!(pst_mg) + 64 * k + r, sign);
            t.eg(at!(pst_eg) + 64 * k + r, sign);
            phase += w.phase[k];
            let attacks = match kind {
                PieceKind::Knight => b.knight[sq.index()],
                PieceKind::Bishop => m.bishop(sq, occupied),
                PieceKind::Rook => m.rook(sq, occupied),
                PieceKind::Queen => m.queen(sq, occupied),
                _ => 0,
            };
            if attacks != 0 {
                let mobility = (attacks & !own & !their_pawn_attacks).count() as i32;
                mg += w.mobility_mg[k] * (mobility - 4);
                eg += w.mobility_eg[k] * (mobility - 4);
                t.mg(at!(mobility_mg) + k, sign * (mobility - 4) as f32);
                t.eg(at!(mobility_eg) + k, sign * (mobility - 4) as f32);
            }
        }
    }

    // Pawn structure.
    let pawns = pos.pieces(us, PieceKind::Pawn);
    for sq in pawns.squares() {
        let file = sq.0 & 7;
        if (pawns & adjacent_files(file)).is_empty() {
            mg += w.isolated_mg;
            eg += w.isolated_eg;
            t.mg(at!(isolated_mg), sign);
            t.eg(at!(isolated_eg), sign);
        }
        if (passed_span(sq, us) & their_pawns).is_empty() {
            let rank = relative(sq) / 8;
            mg += w.passed_mg[rank];
            eg += w.passed_eg[rank];
            t.mg(at!(passed_mg) + rank, sign);
            t.eg(at!(passed_eg) + rank, sign);
        }
    }
    for file in 0..8 {
        let on_file = (pawns & file_mask(file)).count() as i32;
        if on_file > 1 {
            mg += w.doubled_mg * (on_file - 1);
            eg += w.doubled_eg * (on_file - 1);
            t.mg(at!(doubled_mg), sign * (on_file - 1) as f32);
            t.eg(at!(doubled_eg), sign * (on_file - 1) as f32);
        }
    }
    if pos.pieces(us, PieceKind::Bishop).more_than_one() {
        mg += w.bishop_pair_mg;
        eg += w.bishop_pair_eg;
        t.mg(at!(bishop_pair_mg), sign);
        t.eg(at!(bishop_pair_eg), sign);
    }
    // Rooks on open and half-open files.
    for sq in pos.pieces(us, PieceKind::Rook).squares() {
        let file = file_mask(sq.0 & 7);
        if (file & pawns).is_empty() {
            if (file & their_pawns).is_empty() {
                mg += w.rook_open_mg;
                t.mg(at!(rook_open_mg), sign);
            } else {
                mg += w.rook_half_open_mg;
                t.mg(at!(rook_half_open_mg), sign);
            }
        }
    }
    // Pawn shield in front of the king, worth something only with queens about.
    let king = pos.king_square(us);
    let king_file = king.0 & 7;
    let shield_files = file_mask(king_file) | adjacent_files(king_file);
    let shield = passed_span(king, us) & shield_files & pawns;
    let near = (shield & b.king[king.index()]).count() as i32
        + (shield & !b.king[king.index()]).count().min(3) as i32 / 2;
    mg += w.shield_mg * near.min(3);
    t.mg(at!(shield_mg), sign * near.min(3) as f32);
    (mg, eg, phase)
}

/// The evaluation with weights `w` (side to move's view), telling `t` each weight's
/// coefficient: `evaluate()` is `evaluate_with(W, &mut ())`.
#[inline(always)]
pub fn evaluate_with<T: Tracer>(pos: &Chess, w: &ChessWeights, t: &mut T) -> i32 {
    let (wmg, weg, wphase) = side_terms(pos, Color::White, w, t);
    let (bmg, beg, bphase) = side_terms(pos, Color::Black, w, t);
    let phase = (wphase + bphase).min(24);
    t.phase(phase as f32 / 24.0);
    let mg = wmg - bmg;
    let eg = weg - beg;
    let white = (mg * phase + eg * (24 - phase)) / 24;
    let (score, sign) = match pos.side() {
        Color::White => (white, 1.0),
        Color::Black => (-white, -1.0),
    };
    t.flat(at!(tempo), sign);
    score + w.tempo
}

impl Evaluate for Chess {
    fn evaluate(&self) -> i32 {
        evaluate_with(self, W, &mut ())
    }

    fn material_balance(&self) -> i32 {
        let side = |color: Color| -> i32 {
            PieceKind::ALL
                .iter()
                .map(|&k| self.pieces(color, k).count() as i32 * W.material_mg[k.index()])
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
        let promotion = mv.promotion_value(&W.material_mg);
        (victim + 1) * 100 - attacker + promotion
    }

    #[inline]
    fn tactical_gain(&self, mv: Move) -> i32 {
        let victim = if mv.is_en_passant() {
            W.material_eg[0]
        } else {
            self.piece_at(mv.to())
                .map_or(0, |p| W.material_mg[p.kind.index()])
        };
        victim + mv.promotion_gain(&W.material_mg)
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
