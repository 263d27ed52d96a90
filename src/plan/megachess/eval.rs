//! The judgement of a window at the end of (or during) my turn, in hundredths of a pawn rank
//! from my side: material (kings at a king capture's worth, pieces about to fade at nothing),
//! what the enemy team's whole next turn can take (every enemy piece may move once, so its
//! lines pass through its own pieces, which may move out of the way first; each enemy piece
//! takes at most one of mine; a defended piece costs the exchange), my king's danger, enemy
//! kings my unmoved pieces can still take this turn, and the approach to enemy kings (pawns and
//! knights far from every enemy king approach my own king instead: [`HOME_RANGE`]).

use super::grid::Walk;
pub use super::local::KING_CAPTURE;
use super::local::{reach, Local, Side, Undo, DIRECTIONS, KNIGHT_STEPS};
use crate::rules::megachess::{Coord, Kind};

/// My king where an enemy piece can take it in the next turn.
pub const KING_DANGER: i32 = 40_000;
/// And again per enemy piece that can: taking or blocking one of several attackers is
/// progress toward safety even while the king stays in reach.
const KING_ATTACKER: i32 = 2_000;
/// An enemy king that an unmoved piece of mine attacks: I can still take it this turn.
const KING_PENDING: i32 = KING_CAPTURE * 9 / 10;
/// An enemy king that my pieces attack at the end of the turn.
const KING_ATTACKED: i32 = 300;
/// Each square of an enemy king's neighbourhood my pieces attack.
const KING_NET: i32 = 12;
/// Per square of king-step distance from a piece of mine to the nearest enemy king.
const APPROACH: i32 = 3;
/// Distances beyond this count as this (far beyond any board: the sum stays in range).
const APPROACH_CAP: u32 = 100_000;
/// Per enemy piece (not a pawn) near my king, per square closer than `SHELTER_RADIUS`: raiders
/// near a king left alone take it within two turns (against the guard on scatter worlds, 6
/// scored 72% and 20 scores 77% to 85%).
const SHELTER: i32 = 20;
const SHELTER_RADIUS: u32 = 7;

/// Appends the enemy pieces (of players still playing) that may capture on `square` in their
/// next turn: lines pass through enemy pieces, stop at any other piece.
pub fn enemy_attackers(local: &Local, square: Coord, out: &mut Vec<usize>) {
    for (direction, &step) in DIRECTIONS.iter().enumerate() {
        local.walk(square, step, 7, |distance, i| {
            let piece = &local.pieces[i];
            if piece.side != Side::Enemy {
                return Walk::Stop;
            }
            if distance <= reach(piece.kind, direction) {
                out.push(i);
            }
            Walk::Go
        });
    }
    for (dx, dy) in KNIGHT_STEPS {
        if let Some(Some(i)) = local.neighbour(square, dx, dy) {
            let piece = &local.pieces[i];
            if piece.side == Side::Enemy && piece.kind == Kind::Knight {
                out.push(i);
            }
        }
    }
}

/// How my pieces attack a square along open lines, from least to most.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum MyAttack {
    None,
    /// Only pieces that moved this turn (they take there next turn).
    Moved,
    /// A piece that may still move this turn (it can take there now).
    Unmoved,
}

/// How pieces of mine (not `except`) attack `square`; the scan ends as soon as it finds an
/// attack of kind `enough` (`Moved`: whether any does).
pub fn my_attack(local: &Local, square: Coord, except: usize, enough: MyAttack) -> MyAttack {
    let mut best = MyAttack::None;
    let mut found = |i: usize| {
        let kind = if local.pieces[i].moved_now {
            MyAttack::Moved
        } else {
            MyAttack::Unmoved
        };
        best = best.max(kind);
        best >= enough
    };
    let mine = |i: usize| i != except && local.pieces[i].side == Side::Mine;
    for (dx, dy) in KNIGHT_STEPS {
        if let Some(Some(i)) = local.neighbour(square, dx, dy) {
            if mine(i) && local.pieces[i].kind == Kind::Knight && found(i) {
                return best;
            }
        }
    }
    for (direction, &step) in DIRECTIONS.iter().enumerate() {
        let mut attacker = None;
        local.walk(square, step, 7, |distance, i| {
            if mine(i) && distance <= reach(local.pieces[i].kind, direction) {
                attacker = Some(i);
            }
            Walk::Stop
        });
        if attacker.is_some_and(&mut found) {
            return best;
        }
    }
    best
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

/// A pawn or knight farther than this (king steps) from every enemy king stays by my king
/// instead of heading out: at a square or two a turn it would arrive after the fight is
/// decided, and a king left alone while its slow pieces march off is netted in the open by a
/// few raiders. The fast pieces (queen, rooks, bishops) make the attack. (12 did better on
/// 1 v 1 `facing` worlds but lost 8 v 8 ones, where the armies stand about that far apart:
/// docs/strength.md.)
pub const HOME_RANGE: u32 = 24;

/// The distance the approach term counts for a piece of `kind` of mine on `square`: to the
/// nearest of `targets`, except for a pawn or knight out of [`HOME_RANGE`] of them, whose
/// distance is to a square beside my king (`king`) while the army is not out looking for
/// enemies.
pub fn piece_approach(
    local: &Local,
    kind: Kind,
    square: Coord,
    targets: &[Coord],
    king: Option<Coord>,
) -> u32 {
    let distance = approach_distance(square, targets);
    let slow = matches!(kind, Kind::Pawn | Kind::Knight);
    match king {
        Some(king) if slow && !local.king_approaches && distance > HOME_RANGE => {
            square.chebyshev(king).saturating_sub(1).min(APPROACH_CAP)
        }
        _ => distance,
    }
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
/// a little less the closer it is to fading. `king`: my king's square (`None`: not in view,
/// every piece counts as inside).
fn kept_value(local: &Local, index: usize, king: Option<Coord>) -> i32 {
    let piece = &local.pieces[index];
    let value = local.value(piece.kind);
    let radius = local.params.kingdom_radius as u64;
    let inside = king.is_none_or(|k| k.distance_squared(piece.at) <= radius * radius);
    if piece.moved_now || inside {
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

/// The enemy's reach on one piece of mine: who may take it next turn, and whether I could take
/// back.
#[derive(Clone, Default, Debug, PartialEq)]
struct Threat {
    attackers: Vec<usize>,
    defended: bool,
}

fn threat_of(local: &Local, index: usize, threat: &mut Threat) {
    threat.attackers.clear();
    let at = local.pieces[index].at;
    enemy_attackers(local, at, &mut threat.attackers);
    threat.defended = !threat.attackers.is_empty()
        && my_attack(local, at, index, MyAttack::Moved) != MyAttack::None;
}

/// Judges windows, keeping the enemy's reach on each of my pieces for the plan so far and
/// recomputing, for a tried move, only the pieces whose lines it touches.
#[derive(Default)]
pub struct Judge {
    /// Per piece index: the threat on my piece in the plan so far.
    cache: Vec<Threat>,
    /// Per piece index: the generation its tried threat (in `tried`) belongs to, and where.
    tried_at: Vec<(u32, usize)>,
    tried: Vec<Threat>,
    tried_len: usize,
    try_generation: u32,
    /// Enemy pieces (not pawns) near my king when the plan began: the shelter term's.
    near_king: Vec<usize>,
    /// (loss, piece, attackers' owner: cache or tried) per threatened piece of mine.
    threats: Vec<(i32, usize)>,
    /// The generation a piece was last used as an attacker in.
    used: Vec<u32>,
    use_generation: u32,
    /// After a judgement with detail: the loss each piece of mine faces (by piece index).
    pub hanging: Vec<i32>,
    pub king_in_danger: bool,
}

impl Judge {
    pub fn new(local: &Local) -> Judge {
        let mut judge = Judge::default();
        judge.refresh_all(local);
        if let Some(king) = local.king_of(local.me) {
            let at = local.pieces[king].at;
            judge.near_king = (0..local.pieces.len())
                .filter(|&i| {
                    let p = &local.pieces[i];
                    p.side == Side::Enemy
                        && p.kind != Kind::Pawn
                        && p.at.chebyshev(at) <= SHELTER_RADIUS + 1
                })
                .collect();
        }
        judge
    }

    fn grow(&mut self, local: &Local) {
        let n = local.pieces.len();
        if self.cache.len() < n {
            self.cache.resize(n, Threat::default());
            self.tried_at.resize(n, (0, 0));
            self.used.resize(n, 0);
        }
    }

    /// Recomputes every piece of mine (at the start, and after a king's army changed hands).
    pub fn refresh_all(&mut self, local: &Local) {
        self.grow(local);
        for &i in &local.mine {
            threat_of(local, i, &mut self.cache[i]);
        }
    }

    /// Recomputes the pieces a committed move affected.
    pub fn commit(&mut self, local: &Local, affected: &[usize]) {
        self.grow(local);
        for &i in affected {
            threat_of(local, i, &mut self.cache[i]);
        }
    }

    /// Computes the threats on the pieces a tried (made, not yet unmade) move affected; the
    /// next [`Judge::evaluate`] with `tried` uses them.
    pub fn try_move(&mut self, local: &Local, affected: &[usize]) {
        self.grow(local);
        self.try_generation = self.try_generation.wrapping_add(1).max(1);
        self.tried_len = 0;
        for &i in affected {
            if self.tried.len() <= self.tried_len {
                self.tried.push(Threat::default());
            }
            threat_of(local, i, &mut self.tried[self.tried_len]);
            self.tried_at[i] = (self.try_generation, self.tried_len);
            self.tried_len += 1;
        }
    }

    fn threat(&self, index: usize, tried: bool) -> &Threat {
        let (generation, slot) = self.tried_at[index];
        if tried && generation == self.try_generation {
            &self.tried[slot]
        } else {
            &self.cache[index]
        }
    }

    /// Judges the window: with `tried`, as the last [`Judge::try_move`] left it. With
    /// `detail`, fills `hanging` and `king_in_danger`.
    pub fn evaluate(&mut self, local: &Local, targets: &[Coord], tried: bool, detail: bool) -> i32 {
        self.grow(local);
        let my_king = local.king_of(local.me);
        let king_square = my_king.map(|k| local.pieces[k].at);
        let mut score = -local.enemy_material;
        if my_king.is_none() {
            score -= KING_DANGER;
        }
        self.threats.clear();
        if detail {
            self.hanging.clear();
            self.hanging.resize(local.pieces.len(), 0);
            self.king_in_danger = false;
        }
        for &i in &local.mine {
            let piece = &local.pieces[i];
            let distance = piece_approach(local, piece.kind, piece.at, targets, king_square) as i32;
            let kept = if piece.kind == Kind::King {
                if local.king_approaches {
                    score -= 2 * APPROACH * distance;
                }
                KING_DANGER
            } else {
                score -= APPROACH * distance;
                kept_value(local, i, king_square)
            };
            if piece.kind != Kind::King {
                score += kept;
            }
            if !self.threat(i, tried).attackers.is_empty() {
                self.threats.push((kept, i));
            }
        }
        if let Some(king) = king_square {
            for &i in &self.near_king {
                let p = &local.pieces[i];
                let d = p.at.chebyshev(king);
                if p.alive && p.side == Side::Enemy && d < SHELTER_RADIUS {
                    score -= SHELTER * (SHELTER_RADIUS - d) as i32;
                }
            }
        }
        // Enemy kings: takeable still this turn, or attacked for the next.
        for king in local.enemy_kings() {
            let at = local.pieces[king].at;
            match my_attack(local, at, usize::MAX, MyAttack::Unmoved) {
                MyAttack::Unmoved => score += KING_PENDING,
                MyAttack::Moved => score += KING_ATTACKED,
                MyAttack::None => {}
            }
            for (dx, dy) in DIRECTIONS {
                if let Some(near) = local.step(at, dx, dy) {
                    if local.at(near).is_none()
                        && my_attack(local, near, usize::MAX, MyAttack::Moved) != MyAttack::None
                    {
                        score += KING_NET;
                    }
                }
            }
        }
        // What the enemy's next turn can take: each enemy piece takes at most one, the
        // cheapest free attacker the dearest loss.
        let mut threats = std::mem::take(&mut self.threats);
        threats.sort_unstable_by_key(|t| std::cmp::Reverse(t.0));
        self.use_generation = self.use_generation.wrapping_add(1);
        let generation = self.use_generation;
        for &(loss, i) in &threats {
            let threat = self.threat(i, tried);
            let cheapest = threat
                .attackers
                .iter()
                .copied()
                .filter(|&a| self.used[a] != generation)
                .min_by_key(|&a| local.worth(local.pieces[a].kind));
            let Some(attacker) = cheapest else {
                continue;
            };
            let defended = threat.defended;
            let attackers = threat.attackers.len() as i32;
            self.used[attacker] = generation;
            let loss = if local.pieces[i].kind == Kind::King {
                if detail {
                    self.king_in_danger = true;
                }
                loss + KING_ATTACKER * attackers
            } else if defended {
                (loss - local.worth(local.pieces[attacker].kind)).max(0)
            } else {
                loss
            };
            score -= loss;
            if detail {
                self.hanging[i] = loss;
            }
        }
        self.threats = threats;
        score
    }
}

/// My pieces whose threat a made move (`undo`'s) may have changed: the mover, and around
/// each square the move changed (the one it left, the one it landed on, each bonus piece it
/// collected) the first piece along each line that is not an enemy's, when it is mine and
/// within 7 (enemy lines pass through enemy pieces and stop at any other, and a defender's
/// line stops at the first piece, so a piece further out cannot see the square), and mine a
/// knight's step away when a knight left, landed, was taken or was collected there. The
/// nearest changed square on a line is seen in the position after the move, so this finds
/// every piece whose lines changed. A king's capture hands an army over: the caller
/// recomputes everything instead.
pub fn affected(local: &Local, undo: &Undo, out: &mut Vec<usize>) {
    out.clear();
    let mover = undo.mover();
    out.push(mover);
    let mover_knight = local.pieces[mover].kind == Kind::Knight;
    let taken_knight = undo
        .captured()
        .is_some_and(|c| local.pieces[c].kind == Kind::Knight);
    let to = local.pieces[mover].at;
    let visit = |square: Coord, knight: bool, out: &mut Vec<usize>| {
        for step in DIRECTIONS {
            local.walk(square, step, 7, |_, i| {
                let side = local.pieces[i].side;
                if side == Side::Mine && !out.contains(&i) {
                    out.push(i);
                }
                if side == Side::Enemy {
                    Walk::Go
                } else {
                    Walk::Stop
                }
            });
        }
        if knight {
            for (dx, dy) in KNIGHT_STEPS {
                if let Some(Some(i)) = local.neighbour(square, dx, dy) {
                    if local.pieces[i].side == Side::Mine && !out.contains(&i) {
                        out.push(i);
                    }
                }
            }
        }
    };
    visit(undo.from(), mover_knight, out);
    visit(to, mover_knight || taken_knight, out);
    for &collected in undo.collected() {
        let piece = &local.pieces[collected];
        visit(piece.at, piece.kind == Kind::Knight, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::Rng;
    use crate::plan::megachess::crowd::{crowd_world, CROWD_ME};
    use crate::rules::megachess::{Team, NEUTRAL};

    /// Along random plans (moves tried and taken back, moves kept, enemy kings taken, bonus
    /// pieces collected), the judge's kept threats on every piece of mine are what a fresh
    /// count finds: the pieces [`affected`] leaves out are truly unchanged.
    #[test]
    fn kept_threats_equal_a_fresh_count_along_random_plans() {
        let mut collected = 0;
        let mut kings_taken = 0;
        for seed in 1..=24u64 {
            let mut world = crowd_world(96, 96, 30, 30, 24, 60, seed);
            let mut random = Rng::new(seed);
            // A second enemy player whose king stands beside the army: its capture hands the
            // army over.
            world.add_player(9, Team::Metal).unwrap();
            world
                .place(9, Kind::King, Coord::new(29, 31), true, false, None)
                .unwrap();
            world
                .place(9, Kind::Rook, Coord::new(28, 33), true, false, None)
                .unwrap();
            for _ in 0..40 {
                let at = Coord::new(
                    26 + (random.next_u64() % 24) as u32,
                    26 + (random.next_u64() % 24) as u32,
                );
                let kind = [Kind::Knight, Kind::Rook, Kind::Bishop][seed as usize % 3];
                let _ = world.place(NEUTRAL, kind, at, false, false, None);
            }
            let mut local = Local::from_world(&world, CROWD_ME, 12).unwrap();
            let mut judge = Judge::new(&local);
            let mut touched = Vec::new();
            let mut destinations = Vec::new();
            for step in 0..400 {
                let movable: Vec<usize> = local.movable().collect();
                if movable.is_empty() {
                    break;
                }
                let piece = movable[(random.next_u64() % movable.len() as u64) as usize];
                destinations.clear();
                local.targets(piece, &mut destinations);
                if destinations.is_empty() {
                    continue;
                }
                // A king in reach is taken (its army then changes hands).
                let king = destinations.iter().copied().find(|&d| {
                    local
                        .at(d)
                        .is_some_and(|v| local.pieces[v].kind == Kind::King)
                });
                let to = king.unwrap_or_else(|| {
                    destinations[(random.next_u64() % destinations.len() as u64) as usize]
                });
                let undo = local.make(piece, to);
                collected += undo.collected().len();
                let keep = random.next_u64().is_multiple_of(4);
                if undo.handed_over() {
                    kings_taken += 1;
                    judge.refresh_all(&local);
                } else {
                    affected(&local, &undo, &mut touched);
                    if keep {
                        judge.commit(&local, &touched);
                    } else {
                        judge.try_move(&local, &touched);
                    }
                }
                for &i in &local.mine {
                    let mut fresh = Threat::default();
                    threat_of(&local, i, &mut fresh);
                    let tried = !keep && !undo.handed_over();
                    assert_eq!(
                        judge.threat(i, tried),
                        &fresh,
                        "seed {seed} step {step}: piece {i} after {piece} to {to}"
                    );
                }
                if !keep {
                    let handed_over = undo.handed_over();
                    local.unmake(undo);
                    if handed_over {
                        judge.refresh_all(&local);
                    }
                }
            }
        }
        assert!(collected > 0, "no bonus piece was collected");
        assert!(kings_taken > 0, "no king was taken");
    }
}
