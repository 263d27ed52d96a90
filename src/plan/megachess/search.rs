//! The turn search: a sequential plan. At each step every move of every piece that has not
//! moved yet gets a quick score (what it captures, collects, saves from fading or from a
//! threat, how much closer it gets, whether it opens a line to an enemy king or shelters my
//! king); the most promising are made, the window judged as a whole ([`eval`]), and unmade;
//! the best is kept if it improves the judgement. Each move is legal after the ones before it
//! by construction. It stops when no move improves, at the deadline (time or moves judged:
//! [`super::meter`]), or on `stop`.

use super::eval::{affected, approach_targets, piece_approach, Judge, KING_CAPTURE};
use super::local::{reach, Local, Side, DIRECTIONS};
use super::meter::Deadline;
use crate::common::Rng;
use crate::rules::megachess::{Coord, Kind, Move};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// A candidate move: the piece, its destination, its quick score.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    piece: usize,
    to: Coord,
    quick: i32,
}

/// Every step judges at least this many candidates in full (all of them when there are fewer).
const MIN_JUDGED: usize = 12;
/// A quick-score bonus that puts a move among the judged ones whatever the time.
const MUST_JUDGE: i32 = 1_000_000;

/// The outcome of a search.
pub struct Outcome {
    pub moves: Vec<Move>,
    pub score: i32,
    pub steps: u32,
    pub evaluated: u64,
}

impl Outcome {
    /// The outcome so far as the player's progress report, `started` being the turn's start.
    pub fn progress(&self, started: Instant) -> crate::plan::PlanProgress {
        crate::plan::PlanProgress {
            elapsed: started.elapsed(),
            iteration: self.steps,
            evaluated: self.evaluated,
            score: self.score as i64,
            moves: self.moves.clone(),
        }
    }
}

/// The most a varied plan adds at random to a judged move's score (hundredths of a pawn).
pub const JITTER: u64 = 40;

/// Plans the turn on `local` (left as the plan leaves it). With `jitter`, each judged move's
/// score gets up to [`JITTER`] added at random when the best is picked (a move is still made
/// only if it improves the judgement): a varied plan.
pub fn plan(
    local: &mut Local,
    fallback_target: Option<Coord>,
    deadline: Deadline<'_>,
    stop: &AtomicBool,
    mut jitter: Option<&mut Rng>,
    progress: &mut dyn FnMut(&Outcome),
) -> Outcome {
    let mut judge = Judge::new(local);
    let mut touched = Vec::new();
    let mut targets = Vec::new();
    let mut candidates: Vec<Candidate> = Vec::new();
    let mut destinations = Vec::new();
    let mut outcome = Outcome {
        moves: Vec::new(),
        score: 0,
        steps: 0,
        evaluated: 0,
    };
    let meter = deadline.meter();
    // What one judgement costs on the meter (time, or one move judged).
    let mut judge_cost = meter.first_judge_cost();
    loop {
        approach_targets(local, fallback_target, &mut targets);
        let base = judge.evaluate(local, &targets, false, true);
        outcome.evaluated += 1;
        meter.charge(1);
        outcome.score = base;
        let reveal = reveal_squares(local);
        let my_king = local.king_of(local.me).map(|k| local.pieces[k].at);
        candidates.clear();
        let movable: Vec<usize> = local.movable().collect();
        for &piece in &movable {
            destinations.clear();
            local.targets(piece, &mut destinations);
            for &to in &destinations {
                let quick = quick_score(local, &judge, &targets, &reveal, my_king, piece, to);
                candidates.push(Candidate { piece, to, quick });
            }
        }
        if candidates.is_empty() {
            break;
        }
        // As many as what is left allows for this step, assuming every movable piece moves.
        let per_step = deadline.left() / movable.len().max(1) as u64;
        let affordable = (per_step / judge_cost.max(1)).min(usize::MAX as u64) as usize;
        let urgent = candidates.iter().filter(|c| c.quick >= MUST_JUDGE).count();
        let judged = affordable.max(MIN_JUDGED).max(urgent).min(candidates.len());
        if judged < candidates.len() {
            candidates.select_nth_unstable_by(judged - 1, |a, b| b.quick.cmp(&a.quick));
        }
        // (score with jitter, score, candidate)
        let mut best: Option<(i32, i32, Candidate)> = None;
        let timer = meter.now();
        let mut count = 0u32;
        let mut out_of_time = false;
        for candidate in &candidates[..judged] {
            let check_clock = count > 0 && count.is_multiple_of(8);
            if check_clock && (deadline.passed() || stop.load(Ordering::Relaxed)) {
                out_of_time = true;
                break;
            }
            let undo = local.make(candidate.piece, candidate.to);
            if undo.handed_over() {
                touched.clone_from(&local.mine);
            } else {
                affected(local, &undo, &mut touched);
            }
            judge.try_move(local, &touched);
            approach_targets(local, fallback_target, &mut targets);
            let score = judge.evaluate(local, &targets, true, false);
            local.unmake(undo);
            meter.charge(1);
            count += 1;
            let varied = score + jitter.as_mut().map_or(0, |r| r.below(JITTER) as i32);
            if score > base && best.is_none_or(|(b, _, _)| varied > b) {
                best = Some((varied, score, *candidate));
            }
        }
        outcome.evaluated += count as u64;
        if count > 0 {
            judge_cost = (meter.now() - timer) / u64::from(count);
        }
        match best {
            Some((_, score, candidate)) => {
                outcome
                    .moves
                    .push(local.world_move(candidate.piece, candidate.to));
                let undo = local.make(candidate.piece, candidate.to);
                if undo.handed_over() {
                    judge.refresh_all(local);
                } else {
                    affected(local, &undo, &mut touched);
                    judge.commit(local, &touched);
                }
                outcome.score = score;
                outcome.steps += 1;
            }
            _ => break,
        }
        progress(&outcome);
        if out_of_time || deadline.passed() || stop.load(Ordering::Relaxed) {
            break;
        }
    }
    outcome
}

/// The squares of pieces that stand between an enemy king and an unmoved piece of mine that
/// would attack it if they were gone: moving mine off them (or capturing an enemy there) opens
/// the line.
fn reveal_squares(local: &Local) -> Vec<Coord> {
    let mut squares = Vec::new();
    for king in local.enemy_kings() {
        let at = local.pieces[king].at;
        for (direction, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
            let mut square = at;
            let mut blocker: Option<Coord> = None;
            for distance in 1..=7u32 {
                let Some(next) = local.step(square, dx, dy) else {
                    break;
                };
                square = next;
                let Some(i) = local.at(square) else {
                    continue;
                };
                let piece = &local.pieces[i];
                match blocker {
                    None => {
                        let opens = piece.side == Side::Mine || piece.side.capturable();
                        if !opens {
                            break;
                        }
                        blocker = Some(square);
                    }
                    Some(b) => {
                        if piece.side == Side::Mine
                            && !piece.moved_now
                            && distance <= reach(piece.kind, direction)
                        {
                            squares.push(b);
                        }
                        break;
                    }
                }
            }
        }
    }
    squares
}

/// The quick score of a move: what makes it worth judging in full.
fn quick_score(
    local: &Local,
    judge: &Judge,
    targets: &[Coord],
    reveal: &[Coord],
    my_king: Option<Coord>,
    piece: usize,
    to: Coord,
) -> i32 {
    let p = &local.pieces[piece];
    let mut quick = 0;
    if let Some(victim) = local.at(to) {
        let v = &local.pieces[victim];
        quick += if v.kind == Kind::King {
            KING_CAPTURE
        } else {
            local.value(v.kind)
        };
        quick += MUST_JUDGE;
    }
    if p.kind != Kind::King || local.king_approaches {
        let before = piece_approach(local, p.kind, p.at, targets, my_king) as i32;
        let after = piece_approach(local, p.kind, to, targets, my_king) as i32;
        quick += 3 * (before - after);
    }
    quick += judge.hanging.get(piece).copied().unwrap_or(0);
    if !local.in_my_kingdom(p.at) {
        let life = p.life.unwrap_or_else(|| local.params.full_life(p.kind));
        quick += local.value(p.kind) / (life as i32 + 1);
    }
    for (dx, dy) in DIRECTIONS {
        if let Some(near) = local.step(to, dx, dy) {
            if let Some(n) = local.at(near) {
                if local.pieces[n].side == Side::Neutral {
                    quick += local.value(local.pieces[n].kind) + MUST_JUDGE;
                }
            }
        }
    }
    if reveal.contains(&p.at) || reveal.contains(&to) {
        quick += MUST_JUDGE;
    }
    if judge.king_in_danger {
        if p.kind == Kind::King {
            quick += MUST_JUDGE;
        } else if let Some(k) = my_king {
            let dx = to.x.abs_diff(k.x);
            let dy = to.y.abs_diff(k.y);
            if dx.max(dy) <= 7 && (dx == 0 || dy == 0 || dx == dy || dx + dy == 3) {
                quick += MUST_JUDGE;
            }
        }
    }
    quick
}
