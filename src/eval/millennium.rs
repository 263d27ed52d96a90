//! Millennium chess evaluation: tapered material for the doubled army, piece placement and
//! mobility on the 15x8 board, pawn structure, king safety that depends on how many kings a
//! side has left, the threat on a keystone king, and promotion prospects that depend on what the
//! pool can give back.

use super::network::embedded;
use super::network::path::GamePath;
use super::weights::millennium::WEIGHTS;
use super::weights::{idx, MillenniumWeights, Tracer};
use super::{EvalOptions, Evaluate};
use crate::board::{Bitboard, Board15x8, Geometry, Square};
use crate::rules::chess::PieceKind;
use crate::rules::millennium::{
    self, attacks, Millennium, Move, BOARD, FILE_A, FILE_O, POOL_KINDS, SQUARES,
};
use crate::rules::Color;

const FILES: usize = millennium::FILES as usize;

/// The full phase: both doubled armies (with the committed phase weights).
const FULL_PHASE: i32 = 2 * (4 + 4 + 3 * 2 + 2 * 4);

/// The weights the evaluation reads (`src/eval/weights/millennium.rs`, written by `roger tune`).
pub const W: &MillenniumWeights = &WEIGHTS;

macro_rules! at {
    ($field:ident) => {
        idx!(MillenniumWeights, $field)
    };
}

#[inline(always)]
fn relative(sq: Square, color: Color) -> usize {
    match color {
        Color::White => sq.index(),
        Color::Black => {
            let file = sq.index() % FILES;
            let rank = sq.index() / FILES;
            (7 - rank) * FILES + file
        }
    }
}

#[inline(always)]
fn relative_rank(sq: Square, color: Color) -> usize {
    let rank = sq.index() / FILES;
    match color {
        Color::White => rank,
        Color::Black => 7 - rank,
    }
}

/// The squares in front of `sq` (from `color`'s view) on its file and the two beside it.
#[inline(always)]
fn front_span(sq: Square, color: Color) -> u128 {
    let t = Board15x8::tables();
    let file = sq.index() % FILES;
    let rank = sq.index() / FILES;
    let mut files = t.file_masks[file];
    if file > 0 {
        files |= t.file_masks[file - 1];
    }
    if file + 1 < FILES {
        files |= t.file_masks[file + 1];
    }
    let ahead = match color {
        Color::White => {
            if rank == 7 {
                0
            } else {
                t.board & !((1u128 << (FILES * (rank + 1))) - 1)
            }
        }
        Color::Black => (1u128 << (FILES * rank)) - 1,
    };
    files & ahead
}

/// One side's share of the evaluation, before tapering.
#[derive(Default)]
struct SideScore {
    mg: i32,
    eg: i32,
    phase: i32,
    /// Every square the side attacks.
    attacks: u128,
    /// Attack weight on each enemy king's zone, by king (lowest square first).
    zone_pressure: [i32; 2],
}

/// The terms one side scores on its own, and its attacks. Each part is a helper of its own,
/// inlined back into this one.
#[inline(always)]
fn side_terms<T: Tracer>(
    pos: &Millennium,
    us: Color,
    w: &MillenniumWeights,
    tr: &mut T,
) -> SideScore {
    let t = Board15x8::tables();
    let sign = sign_of(us);
    let them = us.flip();
    let mut score = SideScore::default();
    let pawns = pos.pieces(us, PieceKind::Pawn);
    let their_pawns = pos.pieces(them, PieceKind::Pawn);
    let zones: [u128; 2] = {
        let mut kings = pos.kings(them).squares();
        let zone = |k: Option<Square>| k.map_or(0, |k| t.king[k.index()] | (1u128 << k.0));
        [zone(kings.next()), zone(kings.next())]
    };

    // Pawns in bulk: their attacks, then material and placement square by square.
    let own_pawn_attacks = pawn_attacks(pawns, us);
    score.attacks = own_pawn_attacks;
    for (pressure, zone) in score.zone_pressure.iter_mut().zip(zones) {
        *pressure += w.king_zone[0] * (own_pawn_attacks & zone).count() as i32;
    }
    for sq in pawns.squares() {
        let r = relative(sq, us);
        score.mg += w.material_mg[0] + w.pst_mg[0][r];
        score.eg += w.material_eg[0] + w.pst_eg[0][r];
        tr.mg(at!(material_mg), sign);
        tr.eg(at!(material_eg), sign);
        tr.mg(at!(pst_mg) + r, sign);
        tr.eg(at!(pst_eg) + r, sign);
    }
    piece_terms(pos, us, w, tr, zones, &mut score);
    pawn_terms(pos, us, w, tr, &mut score);
    // Bishops on both colours.
    const DARK: u128 = dark_squares();
    let bishops = pos.pieces(us, PieceKind::Bishop);
    if (bishops & DARK).any() && (bishops & !DARK).any() {
        score.mg += w.bishop_pair_mg;
        score.eg += w.bishop_pair_eg;
        tr.mg(at!(bishop_pair_mg), sign);
        tr.eg(at!(bishop_pair_eg), sign);
    }
    // Rooks on open and half-open files.
    let files = file_set(pawns);
    let their_files = file_set(their_pawns);
    for sq in pos.pieces(us, PieceKind::Rook).squares() {
        let file = 1u32 << (sq.index() % FILES);
        if files & file == 0 {
            if their_files & file == 0 {
                score.mg += w.rook_open_mg;
                tr.mg(at!(rook_open_mg), sign);
            } else {
                score.mg += w.rook_half_open_mg;
                tr.mg(at!(rook_half_open_mg), sign);
            }
        }
    }
    score
}

/// Material, placement and mobility of every piece but the pawns, its attacks and its
/// pressure on each enemy king's zone.
#[inline(always)]
fn piece_terms<T: Tracer>(
    pos: &Millennium,
    us: Color,
    w: &MillenniumWeights,
    tr: &mut T,
    zones: [u128; 2],
    score: &mut SideScore,
) {
    let sign = sign_of(us);
    let them = us.flip();
    let occupied = pos.occupied();
    let own = pos.color_bb(us);
    let their_pawn_attacks = pawn_attacks(pos.pieces(them, PieceKind::Pawn), them);
    for kind in &PieceKind::ALL[1..] {
        let k = kind.index();
        for sq in pos.pieces(us, *kind).squares() {
            let r = relative(sq, us);
            score.mg += w.material_mg[k] + w.pst_mg[k][r];
            score.eg += w.material_eg[k] + w.pst_eg[k][r];
            tr.mg(at!(material_mg) + k, sign);
            tr.eg(at!(material_eg) + k, sign);
            tr.mg(at!(pst_mg) + SQUARES * k + r, sign);
            tr.eg(at!(pst_eg) + SQUARES * k + r, sign);
            score.phase += w.phase[k];
            let attacks = match kind {
                PieceKind::Knight => attacks::knight_attacks(sq),
                PieceKind::Bishop => attacks::bishop_attacks(sq, occupied),
                PieceKind::Rook => attacks::rook_attacks(sq, occupied),
                PieceKind::Queen => {
                    attacks::rook_attacks(sq, occupied) | attacks::bishop_attacks(sq, occupied)
                }
                _ => attacks::king_attacks(sq),
            };
            score.attacks |= attacks;
            for (pressure, zone) in score.zone_pressure.iter_mut().zip(zones) {
                *pressure += w.king_zone[k] * (attacks & zone).count() as i32;
            }
            if *kind != PieceKind::King {
                let mobility = (attacks & !own & !their_pawn_attacks).count() as i32;
                let extra = mobility - w.mobility_norm[k];
                score.mg += w.mobility_mg[k] * extra;
                score.eg += w.mobility_eg[k] * extra;
                tr.mg(at!(mobility_mg) + k, sign * extra as f32);
                tr.eg(at!(mobility_eg) + k, sign * extra as f32);
            }
        }
    }
}

/// Pawn structure (isolated and doubled pawns by the files they stand on) and passed pawns,
/// worth what the pool can give back.
#[inline(always)]
fn pawn_terms<T: Tracer>(
    pos: &Millennium,
    us: Color,
    w: &MillenniumWeights,
    tr: &mut T,
    score: &mut SideScore,
) {
    let sign = sign_of(us);
    let them = us.flip();
    let pawns = pos.pieces(us, PieceKind::Pawn);
    let their_pawns = pos.pieces(them, PieceKind::Pawn);
    let files = file_set(pawns);
    let neighbour_files = ((files << 1) | (files >> 1)) & ALL_FILES;
    let isolated = (pawns & spread_files(!neighbour_files & ALL_FILES)).count() as i32;
    score.mg += w.isolated_mg * isolated;
    score.eg += w.isolated_eg * isolated;
    tr.mg(at!(isolated_mg), sign * isolated as f32);
    tr.eg(at!(isolated_eg), sign * isolated as f32);
    let doubled = pawns.count() as i32 - files.count_ones() as i32;
    score.mg += w.doubled_mg * doubled;
    score.eg += w.doubled_eg * doubled;
    tr.mg(at!(doubled_mg), sign * doubled as f32);
    tr.eg(at!(doubled_eg), sign * doubled as f32);

    let best_reinstated = POOL_KINDS
        .iter()
        .rev()
        .find(|&&kind| pos.pool_count(us, kind) > 0)
        .map(|&kind| kind.index() - 1);
    for sq in (pawns & !stoppers(their_pawns, them)).squares() {
        let rank = relative_rank(sq, us);
        match best_reinstated {
            Some(best) => {
                score.mg += w.passed_mg[rank];
                score.eg += w.passed_eg[rank] + w.promotion_eg[best][rank];
                tr.mg(at!(passed_mg) + rank, sign);
                tr.eg(at!(passed_eg) + rank, sign);
                tr.eg(at!(promotion_eg) + 8 * best + rank, sign);
            }
            None => {
                score.mg += w.passed_empty_pool_mg[rank];
                score.eg += w.passed_empty_pool_eg[rank];
                tr.mg(at!(passed_empty_pool_mg) + rank, sign);
                tr.eg(at!(passed_empty_pool_eg) + rank, sign);
            }
        }
    }
}

const ALL_FILES: u32 = (1 << FILES) - 1;

/// The files (bit per file) with at least one square of `bb`.
#[inline(always)]
fn file_set(bb: u128) -> u32 {
    let mut folded = bb;
    folded |= folded >> (4 * FILES);
    folded |= folded >> (2 * FILES);
    folded |= folded >> FILES;
    (folded as u32) & ALL_FILES
}

/// Every square of the files in `files`.
#[inline(always)]
fn spread_files(files: u32) -> u128 {
    let mut bb = files as u128;
    bb |= bb << FILES;
    bb |= bb << (2 * FILES);
    bb |= bb << (4 * FILES);
    bb & BOARD
}

/// The squares the pawns in `pawns` of `color` attack.
#[inline(always)]
fn pawn_attacks(pawns: u128, color: Color) -> u128 {
    match color {
        Color::White => {
            (((pawns & !FILE_A) << (FILES - 1)) | ((pawns & !FILE_O) << (FILES + 1))) & BOARD
        }
        Color::Black => ((pawns & !FILE_A) >> (FILES + 1)) | ((pawns & !FILE_O) >> (FILES - 1)),
    }
}

/// Squares where an enemy pawn would not be passed because of `pawns` (of `color`): those
/// behind them, from `color`'s view, on their files and the files beside.
#[inline(always)]
fn stoppers(pawns: u128, color: Color) -> u128 {
    let mut span = match color {
        // Black pawns stop White pawns below them: fill southwards.
        Color::Black => {
            let mut s = pawns >> FILES;
            s |= s >> FILES;
            s |= s >> (2 * FILES);
            s |= s >> (4 * FILES);
            s
        }
        Color::White => {
            let mut s = pawns << FILES;
            s |= s << FILES;
            s |= s << (2 * FILES);
            s |= s << (4 * FILES);
            s & BOARD
        }
    };
    span |= ((span & !FILE_O) << 1) | ((span & !FILE_A) >> 1);
    span
}

/// `a1` is dark, and so is every square whose file and rank add up to an even number.
const fn dark_squares() -> u128 {
    let mut dark = 0u128;
    let mut sq = 0;
    while sq < SQUARES {
        if ((sq % FILES) + (sq / FILES)).is_multiple_of(2) {
            dark |= 1u128 << sq;
        }
        sq += 1;
    }
    dark
}

/// Shield pawns (three at most) in front of each of `us`'s kings.
fn shelter(pos: &Millennium, us: Color) -> [i32; 2] {
    let t = Board15x8::tables();
    let pawns = pos.pieces(us, PieceKind::Pawn);
    let mut out = [0; 2];
    for (slot, king) in out.iter_mut().zip(pos.kings(us).squares()) {
        let span = front_span(king, us);
        let near = (span & pawns & t.king[king.index()]).count() as i32;
        let far = (span & pawns & !t.king[king.index()]).count().min(3) as i32;
        *slot = (near + far / 2).min(3);
    }
    out
}

/// Sign of `us`'s terms in White's point of view, for the trace.
#[inline(always)]
fn sign_of(us: Color) -> f32 {
    match us {
        Color::White => 1.0,
        Color::Black => -1.0,
    }
}

/// King safety and keystone threats for `us`, whose own score is `own` and the enemy's
/// `enemy`; returns (middlegame, endgame) from `us`'s point of view. Danger grows with the
/// square of the attack pressure on the king's zone (the danger tables).
#[inline(always)]
fn king_terms<T: Tracer>(
    pos: &Millennium,
    us: Color,
    own: &SideScore,
    enemy: &SideScore,
    enemy_heavy: bool,
    w: &MillenniumWeights,
    tr: &mut T,
) -> (i32, i32) {
    let them = us.flip();
    let sign = sign_of(us);
    let shelter = shelter(pos, us);
    let kings = pos.kings(us);
    let (mut mg, mut eg) = (0, 0);
    if kings.more_than_one() {
        // Each king is only a piece: its safety counts a quarter, and while the enemy has the
        // move a king it attacks may still be saved.
        for (shelter, pressure) in shelter.iter().zip(enemy.zone_pressure) {
            let p = pressure.min(20) as usize;
            mg += w.shield_pair_mg * shelter + w.danger_pair_mg[p];
            tr.mg(at!(shield_pair_mg), sign * *shelter as f32);
            tr.mg(at!(danger_pair_mg) + p, sign);
        }
        // Both kings attacked at once: one of them falls.
        if (enemy.attacks & kings).more_than_one() && pos.side() == them {
            mg += w.both_kings_attacked_mg;
            eg += w.both_kings_attacked_eg;
            tr.mg(at!(both_kings_attacked_mg), sign);
            tr.eg(at!(both_kings_attacked_eg), sign);
        }
    } else {
        // The last king is everything; the danger is real only with heavy pieces about.
        let p = enemy.zone_pressure[0].min(20) as usize;
        mg += w.shield_mg * shelter[0];
        tr.mg(at!(shield_mg), sign * shelter[0] as f32);
        if enemy_heavy {
            mg += w.danger_lone_mg[p];
            tr.mg(at!(danger_lone_mg) + p, sign);
        } else {
            mg += w.danger_lone_light_mg[p];
            tr.mg(at!(danger_lone_light_mg) + p, sign);
        }
    }
    // We can take a keystone king now: the enemy is about to become mateable.
    if !pos.has_one_king(them) && (own.attacks & pos.kings(them)).any() && pos.side() == us {
        mg += w.keystone_capture_mg;
        eg += w.keystone_capture_eg;
        tr.mg(at!(keystone_capture_mg), sign);
        tr.eg(at!(keystone_capture_eg), sign);
    }
    (mg, eg)
}

/// Material of one side in middlegame centipawns, the keystone king included.
fn material(pos: &Millennium, color: Color) -> i32 {
    let pieces: i32 = PieceKind::ALL
        .iter()
        .map(|&k| pos.pieces(color, k).count() as i32 * W.material_mg[k.index()])
        .sum();
    pieces
        + if pos.has_one_king(color) {
            0
        } else {
            W.keystone_mg
        }
}

/// Value of a piece standing on the board, for move ordering and delta pruning: a king is
/// worth its keystone value while its side has two, and cannot be taken otherwise.
#[inline(always)]
fn victim_value(pos: &Millennium, sq: Square) -> i32 {
    pos.piece_at(sq).map_or(0, |p| {
        if p.kind == PieceKind::King {
            W.keystone_mg
        } else {
            W.material_mg[p.kind.index()]
        }
    })
}

/// The evaluation with weights `w` (side to move's view), telling `tr` each weight's
/// coefficient: `evaluate()` is `evaluate_with(W, &mut ())`.
#[inline(always)]
pub fn evaluate_with<T: Tracer>(pos: &Millennium, w: &MillenniumWeights, tr: &mut T) -> i32 {
    let white = side_terms(pos, Color::White, w, tr);
    let black = side_terms(pos, Color::Black, w, tr);
    let heavy = |c: Color| pos.pieces(c, PieceKind::Queen).any();
    let (wk_mg, wk_eg) = king_terms(
        pos,
        Color::White,
        &white,
        &black,
        heavy(Color::Black),
        w,
        tr,
    );
    let (bk_mg, bk_eg) = king_terms(
        pos,
        Color::Black,
        &black,
        &white,
        heavy(Color::White),
        w,
        tr,
    );
    let mut keystone = |c: Color| {
        if pos.has_one_king(c) {
            (0, 0)
        } else {
            tr.mg(at!(keystone_mg), sign_of(c));
            tr.eg(at!(keystone_eg), sign_of(c));
            (w.keystone_mg, w.keystone_eg)
        }
    };
    let (wks_mg, wks_eg) = keystone(Color::White);
    let (bks_mg, bks_eg) = keystone(Color::Black);
    let phase = (white.phase + black.phase).min(FULL_PHASE);
    tr.phase(phase as f32 / FULL_PHASE as f32);
    let mg = white.mg - black.mg + wk_mg - bk_mg + wks_mg - bks_mg;
    let eg = white.eg - black.eg + wk_eg - bk_eg + wks_eg - bks_eg;
    let score = (mg * phase + eg * (FULL_PHASE - phase)) / FULL_PHASE;
    let score = match pos.side() {
        Color::White => score,
        Color::Black => -score,
    };
    tr.flat(at!(tempo), sign_of(pos.side()));
    score + w.tempo
}

impl Evaluate for Millennium {
    /// The hand-set evaluation with the built-in network's correction (or `EvalFile`'s).
    type PathState = GamePath;

    fn evaluate(&self) -> i32 {
        GamePath::new(Some(embedded::millennium()))
            .evaluate_off_path(self, || evaluate_with(self, W, &mut ()))
    }

    fn path_state(options: EvalOptions) -> GamePath {
        GamePath::new(options.network_for::<Millennium>(Some(embedded::millennium())))
    }

    fn evaluate_off_path(&self, state: &GamePath) -> i32 {
        state.evaluate_off_path(self, || evaluate_with(self, W, &mut ()))
    }

    #[inline]
    fn evaluate_at(&self, state: &mut GamePath, ply: usize) -> i32 {
        state.evaluate_at(self, ply, || evaluate_with(self, W, &mut ()))
    }

    fn material_balance(&self) -> i32 {
        material(self, self.side()) - material(self, self.side().flip())
    }

    #[inline]
    fn tactical_order(&self, mv: Move) -> i32 {
        let attacker = self
            .piece_at(mv.from())
            .map_or(0, |p| p.kind.index() as i32);
        let victim = if mv.is_en_passant() {
            W.material_mg[0]
        } else {
            victim_value(self, mv.to())
        };
        let promotion = mv.promotion_value(&W.material_mg);
        victim * 8 - attacker + promotion
    }

    #[inline]
    fn tactical_gain(&self, mv: Move) -> i32 {
        let victim = if mv.is_en_passant() {
            W.material_eg[0]
        } else {
            victim_value(self, mv.to())
        };
        victim + mv.promotion_gain(&W.material_mg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::mirror_fen as mirror;
    use crate::rules::millennium::START_FEN;
    use crate::rules::Game;

    fn eval(fen: &str) -> i32 {
        Millennium::from_fen(fen).unwrap().evaluate()
    }

    #[test]
    fn the_built_in_network_reads_and_corrects_the_start_only_a_little() {
        let start = Millennium::startpos();
        let correction = start.evaluate() - evaluate_with(&start, W, &mut ());
        assert!(
            correction.abs() < 60,
            "start position corrected by {correction}"
        );
        assert!(embedded::millennium().is_residual());
        // `Use NNUE false`: the hand-set evaluation alone.
        let off = Millennium::path_state(EvalOptions {
            use_network: false,
            loaded_network: None,
        });
        assert_eq!(
            start.evaluate_off_path(&off),
            evaluate_with(&start, W, &mut ())
        );
    }

    #[test]
    fn start_position_is_near_equal_and_mirrors_score_alike() {
        let start = eval(START_FEN);
        assert!(start.abs() < 30, "{start}");
        for fen in [
            "r1bqkb1r1bk1bnr/ppp1pp1p1ppp1pp/2n1B4q1n3/3p2p1p6/3P3P7/2N3N8/PPP1PP1P1PPPPPP/R1BQK2R1B4R b - - 3 9 Qn",
            "4k5k4/pp13/15/15/15/15/PP13/4R5K4 w - - 0 1",
            "1n2k1k3r4/1P3P1P4p1p/15/15/15/15/p5p1p6/RN2K5K4 w - - 0 1 QNqrb",
        ] {
            assert_eq!(eval(fen), eval(&mirror(fen)), "{fen}");
        }
    }

    #[test]
    fn the_keystone_king_is_worth_a_lot_and_the_last_one_everything_else() {
        // Black has lost a king, White has not: White is far better.
        let two_v_one = eval("4k10/pppp11/15/15/15/15/PPPP11/4K5K4 w - - 0 1");
        let one_v_one = eval("4k10/pppp11/15/15/15/15/PPPP11/4K10 w - - 0 1");
        assert!(two_v_one > one_v_one + 200, "{two_v_one} vs {one_v_one}");
        // Taking a keystone king is on when the mover attacks it.
        let threat = eval("4k5k4/15/15/15/15/15/15/4R5K4 w - - 0 1");
        let no_threat = eval("4k5k4/15/15/15/15/15/15/3R6K4 w - - 0 1");
        assert!(threat > no_threat + 150, "{threat} vs {no_threat}");
        // The material balance counts it too.
        let pos = Millennium::from_fen("4k10/15/15/15/15/15/15/4K5K4 w - - 0 1").unwrap();
        assert_eq!(pos.material_balance(), W.keystone_mg);
    }

    #[test]
    fn a_last_king_under_attack_is_in_danger() {
        // A queen and a rook next to the e1 king, or far from it: the lone king suffers more
        // than one of two.
        let near = "14k/15/15/15/15/3q1r9/15/";
        let far = "14k/15/10q1r2/15/15/15/15/";
        let cost = |kings: &str| {
            eval(&format!("{far}{kings} w - - 0 1")) - eval(&format!("{near}{kings} w - - 0 1"))
        };
        let lone = cost("4K10");
        let pair = cost("4K5K4");
        assert!(lone > pair + 30, "{lone} vs {pair}");
    }

    #[test]
    fn whole_board_pawn_helpers_agree_with_square_by_square_ones() {
        let t = Board15x8::tables();
        for fen in [
            START_FEN,
            "8k6/3p3pp6/2p9p2/1pP2P9/1P3p2P6/3K5P5/15/15 w - - 0 40 Rb",
            "4k5k4/p6p5pp/1p11P1/P6P7/7p6p/1P13/P12PP/4K5K4 w - - 0 1",
        ] {
            let pos = Millennium::from_fen(fen).unwrap();
            for us in [Color::White, Color::Black] {
                let them = us.flip();
                let pawns = pos.pieces(us, PieceKind::Pawn);
                let theirs = pos.pieces(them, PieceKind::Pawn);
                let attacks = pawns
                    .squares()
                    .fold(0u128, |a, sq| a | t.pawn_attacks[us.index()][sq.index()]);
                assert_eq!(pawn_attacks(pawns, us), attacks, "{fen}");
                let passed = pawns
                    .squares()
                    .filter(|&sq| (front_span(sq, us) & theirs).is_empty())
                    .fold(0u128, |a, sq| a | (1u128 << sq.0));
                assert_eq!(pawns & !stoppers(theirs, them), passed, "{fen}");
                for file in 0..FILES {
                    let on_file = (pawns & t.file_masks[file]).any();
                    assert_eq!(file_set(pawns) & (1 << file) != 0, on_file);
                    assert_eq!(spread_files(1 << file), t.file_masks[file]);
                }
            }
        }
    }

    #[test]
    fn passed_pawns_are_worth_what_the_pool_can_give_back() {
        let base = "4k5k4/7P7/15/15/15/15/15/4K5K4 w - - 0 40";
        let empty = eval(base);
        let queen = eval(&format!("{base} Q"));
        let knight = eval(&format!("{base} N"));
        assert!(queen > knight + 100, "{queen} vs {knight}");
        assert!(knight > empty + 50, "{knight} vs {empty}");
    }
}
