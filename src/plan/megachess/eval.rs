//! The judgement of a window at the end of (or during) my turn, in hundredths of a pawn rank
//! from my side: material (kings at a king capture's worth, pieces about to fade at nothing),
//! what the enemy team's whole next turn can take (every enemy piece may move once, so its
//! lines pass through its own pieces, which may move out of the way first; each enemy piece
//! takes at most one of mine; a defended piece costs the exchange), my king's danger, enemy
//! kings my unmoved pieces can still take this turn, and the approach to enemy kings.

use super::local::{reach, Local, Side, DIRECTIONS, KNIGHT_STEPS};
use crate::rules::megachess::{Coord, Kind};

/// The worth of capturing an enemy king: its score and, above all, it ends the player.
pub const KING_CAPTURE: i32 = 20_000;
/// My king where an enemy piece can take it in the next turn.
pub const KING_DANGER: i32 = 40_000;
/// An enemy king that an unmoved piece of mine attacks: I can still take it this turn.
const KING_PENDING: i32 = KING_CAPTURE * 9 / 10;
/// An enemy king that my pieces attack at the end of the turn.
const KING_ATTACKED: i32 = 300;
/// Each square of an enemy king's neighbourhood my pieces attack.
const KING_NET: i32 = 12;
/// Per square of king-step distance from a piece of mine to the nearest enemy king.
const APPROACH: i32 = 3;
/// Distances beyond this count as this.
const APPROACH_CAP: u32 = 48;
/// Per enemy piece (not a pawn) near my king, per square closer than `SHELTER_RADIUS`.
const SHELTER: i32 = 6;
const SHELTER_RADIUS: u32 = 8;

/// Reused buffers, so that judging a window allocates nothing.
#[derive(Default)]
pub struct Scratch {
    attackers: Vec<usize>,
    /// (loss, piece, attackers start, attackers end) per threatened piece of mine.
    threats: Vec<(i32, usize, usize, usize)>,
    /// The generation a piece was last used as an attacker in.
    used: Vec<u32>,
    generation: u32,
    /// After a judgement with detail: the loss each piece of mine faces (by piece index).
    pub hanging: Vec<i32>,
    pub king_in_danger: bool,
}

/// Appends the enemy pieces (of players still playing) that may capture on `square` in their
/// next turn: lines pass through enemy pieces, stop at any other piece.
pub fn enemy_attackers(local: &Local, square: Coord, out: &mut Vec<usize>) {
    for (direction, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
        let mut at = square;
        for distance in 1..=7u32 {
            let Some(next) = local.step(at, dx, dy) else {
                break;
            };
            at = next;
            let Some(i) = local.at(at) else {
                continue;
            };
            let piece = &local.pieces[i];
            if piece.side != Side::Enemy {
                break;
            }
            if distance <= reach(piece.kind, direction) {
                out.push(i);
            }
        }
    }
    for (dx, dy) in KNIGHT_STEPS {
        if let Some(at) = local.step(square, dx, dy) {
            if let Some(i) = local.at(at) {
                let piece = &local.pieces[i];
                if piece.side == Side::Enemy && piece.kind == Kind::Knight {
                    out.push(i);
                }
            }
        }
    }
}

/// Whether a piece of mine (not `except`; only unmoved ones when `unmoved`) attacks `square`
/// along open lines; its index.
pub fn my_attacker(local: &Local, square: Coord, except: usize, unmoved: bool) -> Option<usize> {
    let mine = |i: usize| {
        let p = &local.pieces[i];
        i != except && p.side == Side::Mine && (!unmoved || !p.moved_now)
    };
    for (dx, dy) in KNIGHT_STEPS {
        if let Some(at) = local.step(square, dx, dy) {
            if let Some(i) = local.at(at) {
                if mine(i) && local.pieces[i].kind == Kind::Knight {
                    return Some(i);
                }
            }
        }
    }
    for (direction, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
        let mut at = square;
        for distance in 1..=7u32 {
            let Some(next) = local.step(at, dx, dy) else {
                break;
            };
            at = next;
            let Some(i) = local.at(at) else {
                continue;
            };
            if mine(i) && distance <= reach(local.pieces[i].kind, direction) {
                return Some(i);
            }
            break;
        }
    }
    None
}

/// The king-step distance from `square` to the nearest of `targets`, capped.
pub fn approach_distance(square: Coord, targets: &[Coord]) -> u32 {
    targets
        .iter()
        .map(|t| t.chebyshev(square))
        .min()
        .unwrap_or(0)
        .min(APPROACH_CAP)
}

/// The squares my pieces head for: the enemy kings in view, else `fallback`.
pub fn approach_targets(local: &Local, fallback: Option<Coord>, out: &mut Vec<Coord>) {
    out.clear();
    out.extend(local.enemy_kings().map(|k| local.pieces[k].at));
    if out.is_empty() {
        out.extend(fallback);
    }
}

/// The worth of a piece of mine to the judgement: nothing if it fades at the end of this turn,
/// a little less the closer it is to fading.
fn kept_value(local: &Local, index: usize) -> i32 {
    let piece = &local.pieces[index];
    let value = local.value(piece.kind);
    if piece.moved_now || local.in_my_kingdom(piece.at) {
        return value;
    }
    let life = piece
        .life
        .unwrap_or_else(|| local.params.full_life(piece.kind));
    match life.saturating_sub(1) {
        0 => 0,
        left => value - value / (4 * (left as i32 + 1)),
    }
}

/// Judges the window. With `detail`, fills `scratch.hanging` and `scratch.king_in_danger`.
pub fn evaluate(local: &Local, targets: &[Coord], scratch: &mut Scratch, detail: bool) -> i32 {
    let mut score = 0i32;
    let my_king = local.king_of(local.me);
    let king_square = my_king.map(|k| local.pieces[k].at);
    if scratch.used.len() < local.pieces.len() {
        scratch.used.resize(local.pieces.len(), 0);
    }
    scratch.threats.clear();
    scratch.attackers.clear();
    if detail {
        scratch.hanging.clear();
        scratch.hanging.resize(local.pieces.len(), 0);
        scratch.king_in_danger = false;
    }
    for (i, piece) in local.pieces.iter().enumerate() {
        if !piece.alive {
            continue;
        }
        match piece.side {
            Side::Mine => {
                if piece.kind == Kind::King {
                    continue;
                }
                score += kept_value(local, i);
                score -= APPROACH * approach_distance(piece.at, targets) as i32;
            }
            Side::Enemy | Side::Idle => {
                if piece.kind == Kind::King {
                    score -= KING_CAPTURE;
                    continue;
                }
                score -= local.value(piece.kind);
                if let Some(king) = king_square {
                    let d = piece.at.chebyshev(king);
                    if piece.side == Side::Enemy && piece.kind != Kind::Pawn && d < SHELTER_RADIUS {
                        score -= SHELTER * (SHELTER_RADIUS - d) as i32;
                    }
                }
            }
            _ => {}
        }
    }
    if my_king.is_none() {
        score -= KING_DANGER;
    }
    // Enemy kings: takeable still this turn, or attacked for the next.
    for king in local.enemy_kings() {
        let at = local.pieces[king].at;
        if my_attacker(local, at, usize::MAX, true).is_some() {
            score += KING_PENDING;
        } else if my_attacker(local, at, usize::MAX, false).is_some() {
            score += KING_ATTACKED;
        }
        for (dx, dy) in DIRECTIONS {
            if let Some(near) = local.step(at, dx, dy) {
                if local.at(near).is_none() && my_attacker(local, near, usize::MAX, false).is_some()
                {
                    score += KING_NET;
                }
            }
        }
    }
    // What the enemy's next turn can take.
    for (i, piece) in local.pieces.iter().enumerate() {
        if !piece.alive || piece.side != Side::Mine {
            continue;
        }
        let start = scratch.attackers.len();
        enemy_attackers(local, piece.at, &mut scratch.attackers);
        let end = scratch.attackers.len();
        if start == end {
            continue;
        }
        let loss = if piece.kind == Kind::King {
            KING_DANGER
        } else {
            kept_value(local, i)
        };
        scratch.threats.push((loss, i, start, end));
    }
    scratch
        .threats
        .sort_unstable_by_key(|t| std::cmp::Reverse(t.0));
    scratch.generation = scratch.generation.wrapping_add(1);
    let generation = scratch.generation;
    for t in 0..scratch.threats.len() {
        let (loss, i, start, end) = scratch.threats[t];
        let cheapest = scratch.attackers[start..end]
            .iter()
            .copied()
            .filter(|&a| scratch.used[a] != generation)
            .min_by_key(|&a| local.value(local.pieces[a].kind));
        let Some(attacker) = cheapest else {
            continue;
        };
        scratch.used[attacker] = generation;
        let piece = &local.pieces[i];
        let loss = if piece.kind == Kind::King {
            if detail {
                scratch.king_in_danger = true;
            }
            loss
        } else if my_attacker(local, piece.at, i, false).is_some() {
            let attacker_value = match local.pieces[attacker].kind {
                Kind::King => KING_CAPTURE,
                kind => local.value(kind),
            };
            (loss - attacker_value).max(0)
        } else {
            loss
        };
        score -= loss;
        if detail {
            scratch.hanging[i] = loss;
        }
    }
    score
}
