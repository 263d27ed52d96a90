//! Standard chess evaluation: tapered material and piece-square tables, mobility, pawn
//! structure, passed pawns, bishop pair, the king's pawn shelter and the storm against it.

use super::network::chess as network;
use super::network::with_network;
use super::weights::chess::WEIGHTS;
use super::weights::{idx, ChessWeights, Tracer};
use super::{EvalOptions, Evaluate};
use crate::board::magic::magics;
use crate::board::masks::FILE_A;
use crate::board::{Bitboard, Board8x8, Geometry, Square};
use crate::rules::chess::{Chess, Move, PieceKind};
use crate::rules::Color;
use pawn_cache::{PawnCache, PawnKingTerms};
use pawn_king::pawn_king_terms;

mod pawn_cache;

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
    (file_mask(file) | adjacent_files(file)) & !ranks_up_to(sq, color)
}

/// The square in front of `sq` (not on the last rank) from `color`'s view.
#[inline(always)]
fn step_forward(sq: Square, color: Color) -> Square {
    match color {
        Color::White => Square(sq.0 + 8),
        Color::Black => Square(sq.0 - 8),
    }
}

mod pawn_king;

#[inline(always)]
fn king_file(king: Square) -> u8 {
    king.0 & 7
}

/// Squares on `sq`'s rank and the ranks behind it, from `color`'s view.
#[inline(always)]
fn ranks_up_to(sq: Square, color: Color) -> u64 {
    let rank = sq.0 / 8;
    match color {
        Color::White => {
            if rank == 7 {
                !0
            } else {
                (1u64 << (8 * (rank + 1))) - 1
            }
        }
        Color::Black => !0u64 << (8 * rank),
    }
}

/// What a bishop shut in its own back-rank corner costs (Chess960), both phases.
const CORNERED_BISHOP: i32 = 50;

/// Chess960's shut-in bishops: a bishop of `us` on its own back-rank corner (a1 or h1) with an
/// own pawn on the next square of its only diagonal (b2 or g2) sees nothing until that pawn
/// moves, which takes longer when the pawn is blocked or backed by a second pawn (c3 or f3).
/// Such a bishop cannot arise from the standard start (it would have passed the pawn's square
/// before the pawn got there), so the term is not tuned and standard chess never sees it.
#[inline(always)]
fn cornered_bishops(pos: &Chess, us: Color) -> i32 {
    let bishops = pos.pieces(us, PieceKind::Bishop);
    let pawns = pos.pieces(us, PieceKind::Pawn);
    let occupied = pos.occupied();
    let mut cost = 0;
    // (corner, pawn square, the square in front of the pawn, the next diagonal square), as
    // White sees them; Black's are mirrored by rank.
    for (corner, pawn, front, next) in [(0u8, 9u8, 17u8, 18u8), (7, 14, 22, 21)] {
        let at = |sq: u8| match us {
            Color::White => 1u64 << sq,
            Color::Black => 1u64 << (sq ^ 56),
        };
        if bishops & at(corner) != 0 && pawns & at(pawn) != 0 {
            cost += if occupied & at(front) != 0 {
                4 * CORNERED_BISHOP
            } else if pawns & at(next) != 0 {
                2 * CORNERED_BISHOP
            } else {
                CORNERED_BISHOP
            };
        }
    }
    cost
}

/// One side's share of the evaluation before tapering, and the attacks the other side's
/// threat and king-danger terms read.
#[derive(Default)]
struct SideScore {
    mg: i32,
    eg: i32,
    phase: i32,
    /// Squares attacked by the side's pawns.
    pawn_attacks: u64,
    knight_attacks: u64,
    bishop_attacks: u64,
    rook_attacks: u64,
    queen_attacks: u64,
    /// Every square the side attacks, the king's included.
    attacks: u64,
    /// Pressure on the enemy king's zone ([`ChessWeights::king_zone`]).
    zone_pressure: i32,
    /// The square in front of each passed pawn.
    passer_fronts: u64,
}

#[inline(always)]
fn sign_of(us: Color) -> f32 {
    match us {
        Color::White => 1.0,
        Color::Black => -1.0,
    }
}

#[inline(always)]
fn relative(sq: Square, us: Color) -> usize {
    match us {
        Color::White => sq.index(),
        Color::Black => (sq.0 ^ 56) as usize,
    }
}

#[inline(always)]
fn pawn_attacks(pawns: u64, color: Color) -> u64 {
    let west = pawns & !FILE_A;
    let east = pawns & !(FILE_A << 7);
    match color {
        Color::White => (west << 7) | (east << 9),
        Color::Black => (west >> 9) | (east >> 7),
    }
}

/// The terms one side scores on its own: material, placement, mobility, pawn structure; and
/// its attacks. Each part is a helper of its own, inlined back into this one.
#[inline(always)]
fn side_terms<T: Tracer>(
    pos: &Chess,
    us: Color,
    pawn_king: &PawnKingTerms,
    w: &ChessWeights,
    t: &mut T,
) -> SideScore {
    let b = Board8x8::tables();
    let sign = sign_of(us);
    let mut score = SideScore::default();
    let pawns = pos.pieces(us, PieceKind::Pawn);
    score.pawn_attacks = pawn_attacks(pawns, us);
    score.attacks = score.pawn_attacks | b.king[pos.king_square(us).index()];
    piece_terms(pos, us, w, t, &mut score);
    outpost_terms(pos, us, w, t, &mut score);
    score.mg += pawn_king.mg;
    score.eg += pawn_king.eg;
    score.passer_fronts = pawn_king.passer_fronts;
    blocked_passers(pos, us, pawn_king.passer_fronts, w, t, &mut score);
    if pos.pieces(us, PieceKind::Bishop).more_than_one() {
        score.mg += w.bishop_pair_mg;
        score.eg += w.bishop_pair_eg;
        t.mg(at!(bishop_pair_mg), sign);
        t.eg(at!(bishop_pair_eg), sign);
    }
    let cornered = cornered_bishops(pos, us);
    score.mg -= cornered;
    score.eg -= cornered;
    rook_file_terms(pos, us, w, t, &mut score);
    score
}

/// Passed pawns with any piece on the square in front of them (`fronts`, from
/// [`PawnKingTerms`]): the one pawn term that depends on the other pieces.
#[inline(always)]
fn blocked_passers<T: Tracer>(
    pos: &Chess,
    us: Color,
    fronts: u64,
    w: &ChessWeights,
    t: &mut T,
    score: &mut SideScore,
) {
    let sign = sign_of(us);
    for next in (fronts & pos.occupied()).squares() {
        let rank = relative(next, us) / 8 - 1;
        score.mg += w.passed_blocked_mg[rank];
        score.eg += w.passed_blocked_eg[rank];
        t.mg(at!(passed_blocked_mg) + rank, sign);
        t.eg(at!(passed_blocked_eg) + rank, sign);
    }
}

/// A piece's material and its placement (piece-square table), both phases.
#[inline(always)]
fn material_and_placement<T: Tracer>(
    w: &ChessWeights,
    t: &mut T,
    us: Color,
    kind: PieceKind,
    sq: Square,
) -> (i32, i32) {
    let (k, r, sign) = (kind.index(), relative(sq, us), sign_of(us));
    t.mg(at!(material_mg) + k, sign);
    t.eg(at!(material_eg) + k, sign);
    t.mg(at!(pst_mg) + 64 * k + r, sign);
    t.eg(at!(pst_eg) + 64 * k + r, sign);
    (
        w.material_mg[k] + w.pst_mg[k][r],
        w.material_eg[k] + w.pst_eg[k][r],
    )
}

/// Material, placement and mobility of every piece but the pawns and the king (whose are
/// among the pawn and king terms), its attacks and its pressure on the enemy king's zone.
#[inline(always)]
fn piece_terms<T: Tracer>(
    pos: &Chess,
    us: Color,
    w: &ChessWeights,
    t: &mut T,
    score: &mut SideScore,
) {
    let b = Board8x8::tables();
    let m = magics();
    let them = us.flip();
    let occupied = pos.occupied();
    let own = pos.color_bb(us);
    let sign = sign_of(us);
    let their_pawn_attacks = pawn_attacks(pos.pieces(them, PieceKind::Pawn), them);
    let their_king = pos.king_square(them);
    let zone = b.king[their_king.index()] | (1u64 << their_king.0);
    // The pawns' and the king's material and placement are the cached pawn and king terms'
    // (`pawn_king`); only their share of the phase is counted here.
    for kind in [PieceKind::Pawn, PieceKind::King] {
        score.phase += w.phase[kind.index()] * pos.pieces(us, kind).count() as i32;
    }
    for kind in [
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
    ] {
        let k = kind.index();
        for sq in pos.pieces(us, kind).squares() {
            let (mg, eg) = material_and_placement(w, t, us, kind, sq);
            score.mg += mg;
            score.eg += eg;
            score.phase += w.phase[k];
            let attacks = match kind {
                PieceKind::Knight => b.knight[sq.index()],
                PieceKind::Bishop => m.bishop(sq, occupied),
                PieceKind::Rook => m.rook(sq, occupied),
                _ => m.queen(sq, occupied),
            };
            if attacks != 0 {
                let mobility = (attacks & !own & !their_pawn_attacks).count() as i32;
                score.mg += w.mobility_mg[k] * (mobility - 4);
                score.eg += w.mobility_eg[k] * (mobility - 4);
                t.mg(at!(mobility_mg) + k, sign * (mobility - 4) as f32);
                t.eg(at!(mobility_eg) + k, sign * (mobility - 4) as f32);
                score.attacks |= attacks;
                score.zone_pressure += w.king_zone[k] * (attacks & zone).count() as i32;
                match kind {
                    PieceKind::Knight => score.knight_attacks |= attacks,
                    PieceKind::Bishop => score.bishop_attacks |= attacks,
                    PieceKind::Rook => score.rook_attacks |= attacks,
                    _ => score.queen_attacks |= attacks,
                }
            }
        }
    }
}

/// Knight outposts: on the enemy's half, pawn-defended, out of reach of enemy pawns.
#[inline(always)]
fn outpost_terms<T: Tracer>(
    pos: &Chess,
    us: Color,
    w: &ChessWeights,
    t: &mut T,
    score: &mut SideScore,
) {
    let their_pawns = pos.pieces(us.flip(), PieceKind::Pawn);
    let sign = sign_of(us);
    for sq in pos.pieces(us, PieceKind::Knight).squares() {
        let rank = relative(sq, us) / 8;
        if (3..=5).contains(&rank)
            && score.pawn_attacks & (1u64 << sq.0) != 0
            && passed_span(sq, us) & !file_mask(sq.0 & 7) & their_pawns == 0
        {
            score.mg += w.outpost_mg;
            score.eg += w.outpost_eg;
            t.mg(at!(outpost_mg), sign);
            t.eg(at!(outpost_eg), sign);
        }
    }
}

/// Rooks on open and half-open files.
#[inline(always)]
fn rook_file_terms<T: Tracer>(
    pos: &Chess,
    us: Color,
    w: &ChessWeights,
    t: &mut T,
    score: &mut SideScore,
) {
    let sign = sign_of(us);
    let pawns = pos.pieces(us, PieceKind::Pawn);
    let their_pawns = pos.pieces(us.flip(), PieceKind::Pawn);
    for sq in pos.pieces(us, PieceKind::Rook).squares() {
        let file = file_mask(sq.0 & 7);
        if (file & pawns).is_empty() {
            if (file & their_pawns).is_empty() {
                score.mg += w.rook_open_mg;
                t.mg(at!(rook_open_mg), sign);
            } else {
                score.mg += w.rook_half_open_mg;
                t.mg(at!(rook_half_open_mg), sign);
            }
        }
    }
}

/// The terms that need both sides' attacks: `us`'s threats against the enemy's pieces, and
/// the danger to `us`'s king. Returns (middlegame, endgame).
#[inline(always)]
fn threat_terms<T: Tracer>(
    pos: &Chess,
    us: Color,
    ours: &SideScore,
    theirs: &SideScore,
    w: &ChessWeights,
    t: &mut T,
) -> (i32, i32) {
    let m = magics();
    let b = Board8x8::tables();
    let them = us.flip();
    let sign = sign_of(us);
    let (mut mg, mut eg) = (0, 0);

    // Threats against the enemy's pieces.
    let minor_attacks = ours.knight_attacks | ours.bishop_attacks;
    let pawn_safe = !theirs.pawn_attacks;
    let undefended = !theirs.attacks;
    for kind in &PieceKind::ALL[..5] {
        let k = kind.index();
        let targets = pos.pieces(them, *kind);
        if targets == 0 {
            continue;
        }
        let (by_pawn, by_minor, by_rook) = match kind {
            PieceKind::Pawn => (
                0,
                minor_attacks & undefended,
                ours.rook_attacks & undefended,
            ),
            PieceKind::Knight | PieceKind::Bishop => (
                ours.pawn_attacks,
                minor_attacks & pawn_safe,
                ours.rook_attacks & undefended,
            ),
            PieceKind::Rook => (ours.pawn_attacks, minor_attacks, 0),
            _ => (ours.pawn_attacks, minor_attacks, ours.rook_attacks),
        };
        for (hits, at_mg, at_eg, w_mg, w_eg) in [
            (
                by_pawn & targets,
                at!(threat_pawn_mg),
                at!(threat_pawn_eg),
                &w.threat_pawn_mg,
                &w.threat_pawn_eg,
            ),
            (
                by_minor & targets,
                at!(threat_minor_mg),
                at!(threat_minor_eg),
                &w.threat_minor_mg,
                &w.threat_minor_eg,
            ),
            (
                by_rook & targets,
                at!(threat_rook_mg),
                at!(threat_rook_eg),
                &w.threat_rook_mg,
                &w.threat_rook_eg,
            ),
        ] {
            let n = hits.count() as i32;
            if n > 0 {
                mg += w_mg[k] * n;
                eg += w_eg[k] * n;
                t.mg(at_mg + k, sign * n as f32);
                t.eg(at_eg + k, sign * n as f32);
            }
        }
    }
    let pieces = pos.color_bb(them)
        & !pos.pieces(them, PieceKind::Pawn)
        & !pos.pieces(them, PieceKind::King);
    let hanging = (pieces & ours.attacks & undefended).count() as i32;
    mg += w.hanging_mg * hanging;
    eg += w.hanging_eg * hanging;
    t.mg(at!(hanging_mg), sign * hanging as f32);
    t.eg(at!(hanging_eg), sign * hanging as f32);

    // Passed pawns free to advance.
    for next in (ours.passer_fronts & !pos.occupied() & !theirs.attacks).squares() {
        let rank = relative(next, us) / 8 - 1;
        eg += w.passed_safe_push_eg[rank];
        t.eg(at!(passed_safe_push_eg) + rank, sign);
    }

    // Danger to our king: their pressure on its zone and their safe checks.
    let king = pos.king_square(us);
    let occupied = pos.occupied();
    let safe = !ours.attacks & !pos.color_bb(them);
    let bishop_checks = m.bishop(king, occupied) & safe;
    let rook_checks = m.rook(king, occupied) & safe;
    let knight_checks = b.knight[king.index()] & safe;
    let checks = w.safe_check[1] * (knight_checks & theirs.knight_attacks).count() as i32
        + w.safe_check[2] * (bishop_checks & theirs.bishop_attacks).count() as i32
        + w.safe_check[3] * (rook_checks & theirs.rook_attacks).count() as i32
        + w.safe_check[4] * ((bishop_checks | rook_checks) & theirs.queen_attacks).count() as i32;
    let pressure = (theirs.zone_pressure + checks).clamp(0, 40) as usize;
    if pos.pieces(them, PieceKind::Queen) != 0 {
        mg += w.danger_mg[pressure];
        t.mg(at!(danger_mg) + pressure, sign);
    } else {
        mg += w.danger_light_mg[pressure];
        t.mg(at!(danger_light_mg) + pressure, sign);
    }
    (mg, eg)
}

/// How much of the endgame score counts, in eighths: the side ahead (by `eg`, White's view)
/// cannot win without pawns and with at most a minor piece more, and opposite-coloured
/// bishops alone draw often.
#[inline(always)]
fn endgame_scale(pos: &Chess, eg: i32) -> i32 {
    let strong = if eg > 0 { Color::White } else { Color::Black };
    let weak = strong.flip();
    let points = |color: Color| -> i32 {
        3 * (pos.pieces(color, PieceKind::Knight) | pos.pieces(color, PieceKind::Bishop)).count()
            as i32
            + 5 * pos.pieces(color, PieceKind::Rook).count() as i32
            + 9 * pos.pieces(color, PieceKind::Queen).count() as i32
    };
    let (strong_points, weak_points) = (points(strong), points(weak));
    if pos.pieces(strong, PieceKind::Pawn) == 0 && strong_points - weak_points <= 3 {
        return if strong_points <= 3 { 0 } else { 1 };
    }
    let bishops = (
        pos.pieces(Color::White, PieceKind::Bishop),
        pos.pieces(Color::Black, PieceKind::Bishop),
    );
    const DARK: u64 = 0xAA55_AA55_AA55_AA55;
    if strong_points == 3
        && weak_points == 3
        && bishops.0.count() == 1
        && bishops.1.count() == 1
        && ((bishops.0 & DARK) == 0) != ((bishops.1 & DARK) == 0)
    {
        return 4;
    }
    8
}

/// The evaluation with weights `w` (side to move's view), telling `t` each weight's
/// coefficient: `evaluate()` is `evaluate_with(W, &mut ())`.
#[inline(always)]
pub fn evaluate_with<T: Tracer>(pos: &Chess, w: &ChessWeights, t: &mut T) -> i32 {
    let pawn_king = pawn_king_terms(pos, w, t);
    evaluate_from(pos, &pawn_king, w, t)
}

/// [`evaluate_with`] (no tracer) with the pawns' and kings' terms kept in `cache`.
#[inline(always)]
fn evaluate_cached(pos: &Chess, w: &ChessWeights, cache: &mut PawnCache) -> i32 {
    let pawn_king = cache.terms(pos, || pawn_king_terms(pos, w, &mut ()));
    evaluate_from(pos, &pawn_king, w, &mut ())
}

/// The evaluation given both sides' [`PawnKingTerms`] (White's, Black's).
#[inline(always)]
fn evaluate_from<T: Tracer>(
    pos: &Chess,
    pawn_king: &[PawnKingTerms; 2],
    w: &ChessWeights,
    t: &mut T,
) -> i32 {
    let white = side_terms(pos, Color::White, &pawn_king[0], w, t);
    let black = side_terms(pos, Color::Black, &pawn_king[1], w, t);
    let (wt_mg, wt_eg) = threat_terms(pos, Color::White, &white, &black, w, t);
    let (bt_mg, bt_eg) = threat_terms(pos, Color::Black, &black, &white, w, t);
    let phase = (white.phase + black.phase).min(24);
    t.phase(phase as f32 / 24.0);
    let mg = white.mg - black.mg + wt_mg - bt_mg;
    let eg = white.eg - black.eg + wt_eg - bt_eg;
    let scale = endgame_scale(pos, eg);
    t.endgame_scale(scale as f32 / 8.0);
    let white = (mg * phase + eg * scale / 8 * (24 - phase)) / 24;
    let (score, sign) = match pos.side() {
        Color::White => (white, 1.0),
        Color::Black => (-white, -1.0),
    };
    t.flat(at!(tempo), sign);
    score + w.tempo
}

/// What a chess search thread keeps: the network's accumulators along its path and the
/// pawns' and kings' terms by pawn structure.
#[derive(Default)]
pub struct ChessPathState {
    accumulators: network::PathAccumulators,
    pawns: PawnCache,
}

impl Evaluate for Chess {
    const EXTEND_CHECKS: bool = false;
    type PathState = ChessPathState;

    fn evaluate(&self) -> i32 {
        with_network(
            Some(network::network()),
            || evaluate_with(self, W, &mut ()),
            |n| network::evaluate(n, self),
        )
    }

    fn path_state(options: EvalOptions) -> ChessPathState {
        ChessPathState {
            accumulators: network::PathAccumulators::new(
                options.network_for::<Chess>(Some(network::network())),
            ),
            pawns: PawnCache::default(),
        }
    }

    fn evaluate_off_path(&self, state: &ChessPathState) -> i32 {
        with_network(
            state.accumulators.network(),
            || evaluate_with(self, W, &mut ()),
            |n| network::evaluate(n, self),
        )
    }

    #[inline]
    fn evaluate_at(&self, state: &mut ChessPathState, ply: usize) -> i32 {
        let ChessPathState {
            accumulators,
            pawns,
        } = state;
        with_network(
            accumulators.network(),
            || evaluate_cached(self, W, pawns),
            |n| network::evaluate_at(n, self, accumulators, ply),
        )
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
mod tests;
