//! Nichess evaluation: material weighted by health, piece placement and mobility, the threat of
//! damage (a 30-AP attacker takes a 60-HP piece in two hits, a 60-AP one in one), throw
//! threats with their splash, and the safety of the 10-HP king, which any hit destroys.

use super::network::embedded;
use super::network::path::GamePath;
use super::weights::nichess::WEIGHTS;
use super::weights::{idx, NichessWeights, Tracer};
use super::{EvalOptions, Evaluate};
use crate::board::magic::magics;
use crate::board::{Bitboard, Square};
use crate::rules::nichess::{tables, Move, MoveKind, Nichess, PieceKind, SPLASH};
use crate::rules::Color;

/// The weights the evaluation reads (`src/eval/weights/nichess.rs`, written by `roger tune`).
/// `value[kind][hp in tens]` is what a piece is worth with that much health: worth does not
/// fall in proportion to HP (a damaged piece still hits as hard and moves as far, it only dies
/// sooner).
pub const W: &NichessWeights = &WEIGHTS;

macro_rules! at {
    ($field:ident) => {
        idx!(NichessWeights, $field)
    };
}

#[inline(always)]
fn value(w: &NichessWeights, kind: usize, hp: u8) -> i32 {
    w.value[kind][hp.min(6) as usize]
}

/// Material a hit of `ability` tens takes from a piece of `kind` with `hp` tens.
#[inline(always)]
fn hit_loss(w: &NichessWeights, kind: usize, hp: u8, ability: u8) -> i32 {
    if hp <= ability {
        value(w, kind, hp)
    } else {
        value(w, kind, hp) - value(w, kind, hp - ability)
    }
}

use crate::board::masks::{FILE_A, RANK_1};

#[inline(always)]
fn relative(sq: usize, color: Color) -> usize {
    match color {
        Color::White => sq,
        Color::Black => sq ^ 56,
    }
}

/// 0 on the rim, 3 in the four centre squares.
#[inline(always)]
fn centrality(sq: usize) -> i32 {
    let file = (sq % 8) as i32;
    let rank = (sq / 8) as i32;
    let f = file.min(7 - file);
    let r = rank.min(7 - rank);
    f.min(r)
}

/// Squares in front of a pawn on its file and the two beside it.
#[inline(always)]
fn front_span(sq: usize, color: Color) -> u64 {
    let file = sq % 8;
    let rank = sq / 8;
    let mut files = FILE_A << file;
    if file > 0 {
        files |= FILE_A << (file - 1);
    }
    if file < 7 {
        files |= FILE_A << (file + 1);
    }
    let ahead = match color {
        Color::White if rank == 7 => 0,
        Color::White => !0u64 << (8 * (rank + 1)),
        Color::Black => (1u64 << (8 * rank)) - 1,
    };
    files & ahead
}

/// Where each kind of one side's pieces can hit, and how much that side has.
struct SideMaps {
    by_kind: [u64; 6],
    all: u64,
}

fn side_maps(pos: &Nichess, color: Color) -> SideMaps {
    let m = magics();
    let occupied = pos.occupied();
    let mut by_kind = [0u64; 6];
    let pawns = pos.pieces(color, PieceKind::Pawn);
    by_kind[0] = match color {
        Color::White => ((pawns & !FILE_A) << 7) | ((pawns & !(FILE_A << 7)) << 9),
        Color::Black => ((pawns & !FILE_A) >> 9) | ((pawns & !(FILE_A << 7)) >> 7),
    };
    for sq in pos.pieces(color, PieceKind::Knight).squares() {
        by_kind[1] |= knight_attacks(sq);
    }
    for sq in pos.pieces(color, PieceKind::Maenad).squares() {
        by_kind[2] |= m.bishop(sq, occupied) | orthogonal_step(sq);
    }
    for sq in pos.pieces(color, PieceKind::Pirate).squares() {
        by_kind[3] |= m.rook(sq, occupied);
    }
    for sq in pos.pieces(color, PieceKind::Queen).squares() {
        by_kind[4] |= m.queen(sq, occupied);
    }
    for sq in pos.pieces(color, PieceKind::King).squares() {
        by_kind[5] |= king_attacks(sq);
    }
    let all = by_kind.iter().fold(0, |a, &b| a | b);
    SideMaps { by_kind, all }
}

#[inline(always)]
fn king_attacks(sq: Square) -> u64 {
    tables::KING[sq.index()]
}
#[inline(always)]
fn knight_attacks(sq: Square) -> u64 {
    tables::KNIGHT[sq.index()]
}
#[inline(always)]
fn orthogonal_step(sq: Square) -> u64 {
    tables::ORTHOGONAL_STEP[sq.index()]
}

/// Sign of `us`'s terms in White's point of view, for the trace.
#[inline(always)]
fn sign_of(us: Color) -> f32 {
    match us {
        Color::White => 1.0,
        Color::Black => -1.0,
    }
}

/// Score of `us` from its own point of view, before threats: material, placement, mobility,
/// pawns and king safety.
#[inline(always)]
fn side_score<T: Tracer>(
    pos: &Nichess,
    us: Color,
    theirs: &SideMaps,
    w: &NichessWeights,
    tr: &mut T,
) -> i32 {
    let m = magics();
    let them = us.flip();
    let sign = sign_of(us);
    let occupied = pos.occupied();
    let own = pos.color_bb(us);
    let their_pawn_hits = theirs.by_kind[0];
    let their_pawns = pos.pieces(them, PieceKind::Pawn);
    let mut score = 0;
    for kind in PieceKind::ALL {
        let k = kind.index();
        for sq in pos.pieces(us, kind).squares() {
            let s = sq.index();
            let rel = relative(s, us);
            let hp = pos.hp_tens(s).min(6) as usize;
            score += w.value[k][hp];
            tr.flat(at!(value) + 7 * k + hp, sign);
            let reach = match kind {
                PieceKind::Pawn => {
                    score += w.pawn_advance[rel / 8];
                    tr.flat(at!(pawn_advance) + rel / 8, sign);
                    if front_span(s, us) & their_pawns == 0 {
                        score += w.passed[rel / 8];
                        tr.flat(at!(passed) + rel / 8, sign);
                    }
                    0
                }
                PieceKind::Knight => {
                    let c = centrality(s) as usize;
                    score += w.knight_centre[c];
                    tr.flat(at!(knight_centre) + c, sign);
                    knight_attacks(sq)
                }
                PieceKind::Maenad => {
                    let c = centrality(s) as usize;
                    score += w.maenad_centre[c];
                    tr.flat(at!(maenad_centre) + c, sign);
                    m.bishop(sq, occupied) | orthogonal_step(sq)
                }
                PieceKind::Pirate => {
                    if rel / 8 == 6 {
                        score += w.pirate_seventh;
                        tr.flat(at!(pirate_seventh), sign);
                    }
                    m.rook(sq, occupied)
                }
                PieceKind::Queen => m.queen(sq, occupied),
                PieceKind::King => 0,
            };
            if reach != 0 {
                let mobility = (reach & !own & !their_pawn_hits).count() as i32;
                score += w.mobility[k] * (mobility - 4);
                tr.flat(at!(mobility) + k, sign * (mobility - 4) as f32);
            }
        }
    }
    score + king_safety(pos, us, theirs, w, tr)
}

/// The 10-HP king dies to any hit: penalise enemy pressure on the squares around it, open
/// lines to it, and own pieces next to it that an enemy throw could splash through.
#[inline(always)]
fn king_safety<T: Tracer>(
    pos: &Nichess,
    us: Color,
    theirs: &SideMaps,
    w: &NichessWeights,
    tr: &mut T,
) -> i32 {
    let Some(king) = pos.pieces(us, PieceKind::King).squares().next() else {
        return 0;
    };
    let them = us.flip();
    let zone = king_attacks(king) | (1u64 << king.0);
    let mut units = 0;
    for (k, &attacks) in theirs.by_kind.iter().enumerate() {
        units += w.king_zone[k] * (attacks & zone).count() as i32;
    }
    // Lines that reach the king through one piece: one move from a hit.
    let m = magics();
    let their_pieces = pos.color_bb(them);
    let line_pieces =
        |kinds: &[PieceKind]| kinds.iter().fold(0u64, |a, &k| a | pos.pieces(them, k));
    let rook_line =
        m.rook(king, their_pieces) & line_pieces(&[PieceKind::Pirate, PieceKind::Queen]);
    let bishop_line =
        m.bishop(king, their_pieces) & line_pieces(&[PieceKind::Maenad, PieceKind::Queen]);
    units += 2 * (rook_line | bishop_line).count() as i32;
    // Escape squares: a king with none is caught by the next hit on it.
    let escapes = (king_attacks(king) & !pos.occupied() & !theirs.all).count() as i32;
    if escapes == 0 {
        units += 3;
    }
    // Enemy attackers matter with enemy material on the board (full at 3000).
    let their_force = PieceKind::ALL[1..5]
        .iter()
        .map(|&k| pos.pieces(them, k).count() as i32 * w.base[k.index()])
        .sum::<i32>();
    let scale = their_force.min(3000);
    let back_rank = match us {
        Color::White => RANK_1,
        Color::Black => RANK_1 << 56,
    };
    let u = units.min(17) as usize;
    let share = sign_of(us) * scale as f32 / 3000.0;
    tr.flat(at!(king_danger) + u, share);
    let mut score = w.king_danger[u] * scale / 3000;
    if (1u64 << king.0) & back_rank != 0 {
        score += w.king_shelter * scale / 3000;
        tr.flat(at!(king_shelter), share);
    }
    score
}

/// What the side not to move stands to lose to the side to move's hits, and what the side to
/// move cannot save of its own: the material part of the threats.
fn threats(
    pos: &Nichess,
    w: &NichessWeights,
    victim: Color,
    attackers: &SideMaps,
    defenders: &SideMaps,
) -> (i32, i32) {
    let mut largest = 0;
    let mut second = 0;
    for kind in PieceKind::ALL[..5].iter() {
        let k = kind.index();
        for sq in (pos.pieces(victim, *kind) & attackers.all).squares() {
            let s = sq.index();
            let hp = pos.hp_tens(s);
            let bit = 1u64 << s;
            let defended = defenders.all & bit != 0;
            let mut best = 0;
            for (a, &hits) in attackers.by_kind.iter().enumerate() {
                if hits & bit == 0 {
                    continue;
                }
                let ability = PieceKind::ALL[a].ability();
                let loss = hit_loss(w, k, hp, ability);
                // A defended target costs the attacker (a king never trades itself).
                let risk = if a == 5 && defended {
                    i32::MAX / 4
                } else if defended {
                    w.base[a]
                } else {
                    0
                };
                best = best.max(loss - risk);
            }
            if best > largest {
                second = largest;
                largest = best;
            } else if best > second {
                second = best;
            }
        }
    }
    (largest, second)
}

/// The best material a throw of `color` wins now: the target whatever its health, plus the
/// splash on its enemy neighbours.
fn best_throw(pos: &Nichess, w: &NichessWeights, color: Color) -> i32 {
    let mut best = 0;
    pos.for_each_throw(color, |_, target| {
        best = best.max(throw_gain(pos, w, color, target));
    });
    best
}

fn throw_gain(pos: &Nichess, w: &NichessWeights, color: Color, target: u8) -> i32 {
    let victim = |sq: usize| pos.piece_at(Square(sq as u8)).map(|p| p.kind.index());
    let mut gain = victim(target as usize).map_or(0, |k| value(w, k, pos.hp_tens(target as usize)));
    let neighbours = king_attacks(Square(target)) & pos.color_bb(color.flip());
    for sq in neighbours.squares() {
        let k = victim(sq.index()).unwrap_or(0);
        gain += if k == PieceKind::King.index() {
            // The splash destroys a king next to the target: that is the game.
            5000
        } else {
            hit_loss(w, k, pos.hp_tens(sq.index()), SPLASH)
        };
    }
    gain
}

/// The evaluation with weights `w` (side to move's view), telling `tr` each weight's
/// coefficient: `evaluate()` is `evaluate_with(W, &mut ())`. The threat terms are linear in
/// their shares; the threats themselves are read off the position with `w`'s values.
#[inline(always)]
pub fn evaluate_with<T: Tracer>(pos: &Nichess, w: &NichessWeights, tr: &mut T) -> i32 {
    let us = pos.side();
    let them = us.flip();
    let sign = sign_of(us);
    let (ours, theirs) = {
        let white = side_maps(pos, Color::White);
        let black = side_maps(pos, Color::Black);
        match us {
            Color::White => (white, black),
            Color::Black => (black, white),
        }
    };
    let mut score = side_score(pos, us, &theirs, w, tr) - side_score(pos, them, &ours, w, tr);
    // Our hanging pieces: we save the most valuable by moving, the next one is lost.
    let (our_largest, our_second) = threats(pos, w, us, &theirs, &ours);
    score -= our_second * w.hanging_second / 240 + our_largest * w.hanging_largest / 240;
    tr.flat(at!(hanging_second), -sign * our_second as f32 / 240.0);
    tr.flat(at!(hanging_largest), -sign * our_largest as f32 / 240.0);
    // Their hanging pieces: quiescence search plays the hit; a little credit for the threat.
    let (their_largest, _) = threats(pos, w, them, &ours, &theirs);
    score += their_largest * w.threat_credit / 240;
    tr.flat(at!(threat_credit), sign * their_largest as f32 / 240.0);
    // Throws read like hits: the enemy's loaded throw is a threat we must meet.
    let (against, for_us) = (best_throw(pos, w, them), best_throw(pos, w, us));
    score -= against * w.throw_against / 240;
    score += for_us * w.throw_for / 240;
    tr.flat(at!(throw_against), -sign * against as f32 / 240.0);
    tr.flat(at!(throw_for), sign * for_us as f32 / 240.0);
    tr.flat(at!(tempo), sign);
    score + w.tempo
}

/// How much `side`'s material less the other side's grew from `before` to `after`: the change
/// of [`Evaluate::material_balance`] seen from `side`, counted on the squares that differ only
/// (the exchange measure asks it of every hit it plays out).
pub fn material_gain(before: &Nichess, after: &Nichess, side: Color) -> i32 {
    let worth = |pos: &Nichess, sq: Square| match pos.piece_at(sq) {
        Some(piece) => {
            let v = value(W, piece.kind.index(), pos.hp_tens(sq.index()));
            if piece.color == side {
                v
            } else {
                -v
            }
        }
        None => 0,
    };
    Bitboard::squares(before.differing_squares(after))
        .map(|sq| worth(after, sq) - worth(before, sq))
        .sum()
}

impl Evaluate for Nichess {
    /// The hand-set evaluation with the built-in network's correction (or `EvalFile`'s).
    type PathState = GamePath;

    fn evaluate(&self) -> i32 {
        GamePath::new(Some(embedded::nichess()))
            .evaluate_off_path(self, || evaluate_with(self, W, &mut ()))
    }

    fn path_state(options: EvalOptions) -> GamePath {
        GamePath::new(options.network_for::<Nichess>(Some(embedded::nichess())))
    }

    fn evaluate_off_path(&self, state: &GamePath) -> i32 {
        state.evaluate_off_path(self, || evaluate_with(self, W, &mut ()))
    }

    #[inline]
    fn evaluate_at(&self, state: &mut GamePath, ply: usize) -> i32 {
        state.evaluate_at(self, ply, || evaluate_with(self, W, &mut ()))
    }

    fn material_balance(&self) -> i32 {
        let side = |color: Color| -> i32 {
            let mut total = 0;
            for kind in PieceKind::ALL {
                for sq in self.pieces(color, kind).squares() {
                    total += value(W, kind.index(), self.hp_tens(sq.index()));
                }
            }
            total
        };
        side(self.side()) - side(self.side().flip())
    }

    #[inline]
    fn tactical_order(&self, mv: Move) -> i32 {
        let attacker = self
            .piece_at(mv.from())
            .map_or(0, |p| W.base[p.kind.index()] / 10);
        self.tactical_gain(mv) * 4 - attacker
    }

    #[inline]
    fn tactical_gain(&self, mv: Move) -> i32 {
        let to = mv.to().index();
        let target = self.piece_at(mv.to());
        let promotion = if mv.is_promotion() {
            value(W, PieceKind::Pirate.index(), 6) - value(W, PieceKind::Pawn.index(), 3)
        } else {
            0
        };
        let hit = match (mv.kind(), target) {
            (MoveKind::Throw, _) => throw_gain(self, W, self.side(), to as u8),
            (_, Some(victim)) if victim.kind == PieceKind::King => 5000,
            (_, Some(victim)) => {
                let ability = self.piece_at(mv.from()).map_or(0, |p| p.kind.ability());
                hit_loss(W, victim.kind.index(), self.hp_tens(to), ability)
            }
            _ => 0,
        };
        hit + promotion
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::mirror_fen as mirror;
    use crate::rules::nichess::START_FEN;
    use crate::rules::Game;

    /// The hand-set evaluation, which these tests are about (the network corrects it).
    fn eval(fen: &str) -> i32 {
        evaluate_with(&Nichess::from_fen(fen).unwrap(), W, &mut ())
    }

    #[test]
    fn the_built_in_network_reads_and_corrects_the_start_only_a_little() {
        let start = Nichess::startpos();
        let correction = start.evaluate() - evaluate_with(&start, W, &mut ());
        assert!(
            correction.abs() < 60,
            "start position corrected by {correction}"
        );
        assert!(embedded::nichess().is_residual());
        // `Use NNUE false`: the hand-set evaluation alone.
        let off = Nichess::path_state(EvalOptions {
            use_network: false,
            loaded_network: None,
        });
        assert_eq!(
            start.evaluate_off_path(&off),
            evaluate_with(&start, W, &mut ())
        );
    }

    #[test]
    fn start_position_is_near_equal_and_the_eval_is_colour_symmetric() {
        let start = eval(START_FEN);
        assert!(start.abs() < 40, "{start}");
        for fen in [
            "r3k2r/pp1m1ppp/2n1q3/2PpN3/3Q4/2M2n(30)2/RP3PPP/R3K2R(30) w - - 4 12",
            "k5N1/1P4R1/6R1/3m4/2q1n(20)3/8/p1M5/3QK3 b - - 0 40",
        ] {
            assert_eq!(eval(fen), eval(&mirror(fen)), "{fen}");
        }
    }

    /// Along random games, for every move: the gain counted on the changed squares equals the
    /// change of the whole board's balance, and the test sees hits, kills and throws.
    #[test]
    fn material_gain_equals_the_change_of_the_balance() {
        use crate::common::Rng;
        use crate::rules::MoveList;
        let (mut checked, mut changed) = (0, 0);
        for seed in 0..12 {
            let mut rng = Rng::new(seed);
            let mut position = Nichess::startpos();
            for _ in 0..160 {
                let mut moves = MoveList::new();
                position.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                for &mv in moves.iter() {
                    let child = position.play(mv);
                    let whole = -child.material_balance() - position.material_balance();
                    let gain = material_gain(&position, &child, position.side());
                    assert_eq!(gain, whole, "{} {mv:?}", position.fen());
                    checked += 1;
                    changed += usize::from(gain != 0);
                }
                position = position.play(moves[rng.index(moves.len())]);
            }
        }
        assert!(
            checked > 10_000 && changed > 500,
            "{checked} moves, {changed} gains"
        );
    }

    #[test]
    fn material_counts_with_health() {
        let full = eval("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1");
        let hurt = eval("4k3/8/8/8/8/8/8/1N(30)2K3 w - - 0 1");
        let none = eval("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        assert!(full > hurt && hurt > none, "{full} {hurt} {none}");
        let pos = Nichess::from_fen("4k3/8/8/8/8/8/8/1N(30)2K3 b - - 0 1").unwrap();
        assert_eq!(pos.material_balance(), -value(W, 1, 3));
    }

    #[test]
    fn a_hit_that_only_damages_gains_less_than_one_that_destroys() {
        let pos = Nichess::from_fen("4k3/8/8/3n4/8/8/8/3QK3 w - - 0 1").unwrap();
        let damage = pos.parse_move("d1d5").unwrap();
        let hurt = Nichess::from_fen("4k3/8/8/3n(30)4/8/8/8/3QK3 w - - 0 1").unwrap();
        let destroy = hurt.parse_move("d1d5").unwrap();
        assert!(pos.tactical_gain(damage) < hurt.tactical_gain(destroy));
        assert_eq!(hurt.tactical_gain(destroy), value(W, 1, 3));
    }

    #[test]
    fn a_loaded_throw_against_us_is_a_threat() {
        // Black's pirates on a8/a7 can throw at the white knight on a2: bad for White to move.
        let threatened = eval("r3k3/r7/8/8/8/8/N7/4K3 w - - 0 1");
        let safe = eval("r3k3/r7/8/8/8/8/1N6/4K3 w - - 0 1");
        assert!(threatened < safe - 100, "{threatened} vs {safe}");
    }
}
