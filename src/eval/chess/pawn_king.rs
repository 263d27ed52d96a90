//! What the pawns and the kings alone decide of one side's score: the pawn structure, the
//! passed pawns' distances to both kings, the king's shelter and the storm against it, a
//! pawnless flank. Apart from the rest of the evaluation because a search keeps it by pawn
//! structure ([`super::PawnCache`]).

use super::{
    adjacent_files, file_mask, king_file, material_and_placement, passed_span, pawn_attacks,
    ranks_up_to, relative, sign_of, step_forward, PawnKingTerms,
};
use crate::board::{Bitboard, Board8x8, Geometry, Square};
use crate::eval::weights::{idx, ChessWeights, Tracer};
use crate::rules::chess::{
    Chess, PieceKind, CASTLE_BLACK_KING, CASTLE_BLACK_QUEEN, CASTLE_WHITE_KING, CASTLE_WHITE_QUEEN,
};
use crate::rules::Color;

/// The files of the king's flank: the queen's side, the centre or the king's side.
#[inline(always)]
fn king_flank(file: u8) -> u64 {
    let (first, last) = match file {
        0 => (0, 2),
        1 | 2 => (0, 3),
        3 | 4 => (2, 5),
        5 | 6 => (4, 7),
        _ => (5, 7),
    };
    (first..=last).fold(0, |mask, f| mask | file_mask(f))
}

/// A pawn none of whose `neighbours` (own pawns on the adjacent files) stands beside or behind
/// it to support its advance, and whose next square an enemy pawn attacks or occupies.
#[inline(always)]
fn is_backward(sq: Square, us: Color, neighbours: u64, their_pawns: u64) -> bool {
    if neighbours & ranks_up_to(sq, us) != 0 {
        return false;
    }
    let next_bb = 1u64 << step_forward(sq, us).0;
    their_pawns & (next_bb | pawn_attacks(next_bb, us)) != 0
}

/// The pawn nearest `us`'s back rank among `pawns`, as a relative rank (0: none).
#[inline(always)]
fn nearest_rank(pawns: u64, us: Color) -> usize {
    if pawns == 0 {
        return 0;
    }
    let sq = match us {
        Color::White => pawns.lsb(),
        Color::Black => pawns.msb(),
    };
    relative(sq, us) / 8
}

/// The shelter of `us`'s king were it on `king`: own pawns in front of it on the three files
/// around it, and the enemy pawns storming them. Returns (middlegame, endgame).
#[inline(always)]
fn shelter<T: Tracer>(
    pos: &Chess,
    us: Color,
    king: Square,
    w: &ChessWeights,
    t: &mut T,
) -> (i32, i32) {
    let sign = sign_of(us);
    // Pawns on the king's rank or in front of it.
    let not_behind = ranks_up_to(king, us.flip());
    let ours = pos.pieces(us, PieceKind::Pawn) & not_behind;
    let theirs = pos.pieces(us.flip(), PieceKind::Pawn) & not_behind;
    let centre = king_file(king).clamp(1, 6);
    let (mut mg, mut eg) = (0, 0);
    for file in centre - 1..=centre + 1 {
        let edge = file.min(7 - file) as usize;
        let our_rank = nearest_rank(ours & file_mask(file), us);
        let their_rank = nearest_rank(theirs & file_mask(file), us);
        mg += w.shelter_mg[edge][our_rank];
        t.mg(at!(shelter_mg) + 8 * edge + our_rank, sign);
        if our_rank != 0 && our_rank + 1 == their_rank {
            mg += w.storm_blocked_mg[their_rank];
            eg += w.storm_blocked_eg[their_rank];
            t.mg(at!(storm_blocked_mg) + their_rank, sign);
            t.eg(at!(storm_blocked_eg) + their_rank, sign);
        } else {
            mg += w.storm_mg[edge][their_rank];
            t.mg(at!(storm_mg) + 8 * edge + their_rank, sign);
        }
    }
    (mg, eg)
}

/// [`shelter`] at the king's square, or at a castling square the king may still go to when
/// that one is better in the middlegame.
#[inline(always)]
fn best_shelter<T: Tracer>(pos: &Chess, us: Color, w: &ChessWeights, t: &mut T) -> (i32, i32) {
    let king = pos.king_square(us);
    let rights = pos.castling_rights();
    let (king_side, queen_side, back) = match us {
        Color::White => (CASTLE_WHITE_KING, CASTLE_WHITE_QUEEN, 0),
        Color::Black => (CASTLE_BLACK_KING, CASTLE_BLACK_QUEEN, 56),
    };
    let mut best = king;
    if rights & (king_side | queen_side) != 0 {
        let mut best_mg = shelter(pos, us, king, w, &mut ()).0;
        for (right, file) in [(king_side, 6), (queen_side, 2)] {
            if rights & right != 0 {
                let square = Square(back + file);
                let mg = shelter(pos, us, square, w, &mut ()).0;
                if mg > best_mg {
                    best_mg = mg;
                    best = square;
                }
            }
        }
    }
    shelter(pos, us, best, w, t)
}

#[inline(always)]
fn chebyshev(a: Square, b: Square) -> i32 {
    let files = ((a.0 & 7) as i32 - (b.0 & 7) as i32).abs();
    let ranks = ((a.0 / 8) as i32 - (b.0 / 8) as i32).abs();
    files.max(ranks)
}

/// Both sides' [`side_pawn_king_terms`] (White's, Black's).
#[inline(always)]
pub(super) fn pawn_king_terms<T: Tracer>(
    pos: &Chess,
    w: &ChessWeights,
    t: &mut T,
) -> [PawnKingTerms; 2] {
    [
        side_pawn_king_terms(pos, Color::White, w, t),
        side_pawn_king_terms(pos, Color::Black, w, t),
    ]
}

/// What the pawns and the kings alone decide of `us`'s score (the pawn structure, the passed
/// pawns' distances to the kings, the king's shelter with the castling rights, a pawnless
/// flank), which a search keeps by pawn structure in a [`super::PawnCache`].
#[inline(always)]
fn side_pawn_king_terms<T: Tracer>(
    pos: &Chess,
    us: Color,
    w: &ChessWeights,
    t: &mut T,
) -> PawnKingTerms {
    let sign = sign_of(us);
    let mut terms = PawnKingTerms::default();
    pawn_terms(pos, us, w, t, &mut terms);
    // The king's material and placement (the pawns' are counted in `pawn_terms`).
    let king = material_and_placement(w, t, us, PieceKind::King, pos.king_square(us));
    terms.mg += king.0;
    terms.eg += king.1;
    // The king's shelter and the enemy's storm, at the king's square or, while it may still
    // castle, at a castling square if that shelters it better.
    let (shelter_mg, shelter_eg) = best_shelter(pos, us, w, t);
    terms.mg += shelter_mg;
    terms.eg += shelter_eg;
    let all_pawns = pos.pieces(us, PieceKind::Pawn) | pos.pieces(us.flip(), PieceKind::Pawn);
    if all_pawns & king_flank(king_file(pos.king_square(us))) == 0 {
        terms.mg += w.pawnless_flank_mg;
        terms.eg += w.pawnless_flank_eg;
        t.mg(at!(pawnless_flank_mg), sign);
        t.eg(at!(pawnless_flank_eg), sign);
    }
    terms
}

/// Pawn structure: isolated, backward, connected, passed (and its distance to both kings) and
/// doubled pawns; the square in front of each passed pawn for [`super::blocked_passers`].
#[inline(always)]
fn pawn_terms<T: Tracer>(
    pos: &Chess,
    us: Color,
    w: &ChessWeights,
    t: &mut T,
    score: &mut PawnKingTerms,
) {
    let b = Board8x8::tables();
    let sign = sign_of(us);
    let pawns = pos.pieces(us, PieceKind::Pawn);
    let their_pawns = pos.pieces(us.flip(), PieceKind::Pawn);
    let their_king = pos.king_square(us.flip());
    let own_pawn_attacks = pawn_attacks(pawns, us);
    for sq in pawns.squares() {
        let (mg, eg) = material_and_placement(w, t, us, PieceKind::Pawn, sq);
        score.mg += mg;
        score.eg += eg;
        let file = sq.0 & 7;
        let rank = relative(sq, us) / 8;
        let neighbours = pawns & adjacent_files(file);
        if neighbours.is_empty() {
            score.mg += w.isolated_mg;
            score.eg += w.isolated_eg;
            t.mg(at!(isolated_mg), sign);
            t.eg(at!(isolated_eg), sign);
        } else if rank < 7 && is_backward(sq, us, neighbours, their_pawns) {
            score.mg += w.backward_mg;
            score.eg += w.backward_eg;
            t.mg(at!(backward_mg), sign);
            t.eg(at!(backward_eg), sign);
        }
        let beside = adjacent_files(file) & b.rank_masks[(sq.0 / 8) as usize];
        if own_pawn_attacks & (1u64 << sq.0) != 0 || pawns & beside != 0 {
            score.mg += w.connected_mg[rank];
            score.eg += w.connected_eg[rank];
            t.mg(at!(connected_mg) + rank, sign);
            t.eg(at!(connected_eg) + rank, sign);
        }
        if (passed_span(sq, us) & their_pawns).is_empty() {
            score.mg += w.passed_mg[rank];
            score.eg += w.passed_eg[rank];
            t.mg(at!(passed_mg) + rank, sign);
            t.eg(at!(passed_eg) + rank, sign);
            if rank < 7 {
                let next = step_forward(sq, us);
                score.passer_fronts |= 1u64 << next.0;
                let enemy = chebyshev(their_king, next);
                let friend = chebyshev(pos.king_square(us), next);
                score.eg +=
                    w.passed_enemy_king_eg[rank] * enemy + w.passed_own_king_eg[rank] * friend;
                t.eg(at!(passed_enemy_king_eg) + rank, sign * enemy as f32);
                t.eg(at!(passed_own_king_eg) + rank, sign * friend as f32);
            }
        }
    }
    for file in 0..8 {
        let on_file = (pawns & file_mask(file)).count() as i32;
        if on_file > 1 {
            score.mg += w.doubled_mg * (on_file - 1);
            score.eg += w.doubled_eg * (on_file - 1);
            t.mg(at!(doubled_mg), sign * (on_file - 1) as f32);
            t.eg(at!(doubled_eg), sign * (on_file - 1) as f32);
        }
    }
}
