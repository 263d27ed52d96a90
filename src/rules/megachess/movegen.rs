//! Movement as data: each kind's directions, range and whether it jumps; the pawn's and the
//! bishop's special steps are code. [`World::targets`] lists a piece's destinations and
//! [`World::movement_rule`] says why one square is not among them, with the same rules.

use super::{Coord, Kind, Piece, PlayerId, Rejection, World, NEUTRAL};

/// Unit steps or jumps `(dx, dy)`.
pub type Steps = &'static [(i32, i32)];

const ORTHOGONAL: Steps = &[(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: Steps = &[(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// The eight king steps: the four orthogonal ones first, then the four diagonal ones.
pub const KING_STEPS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];
const ALL_EIGHT: Steps = &KING_STEPS;
/// The knight's eight jumps.
pub const KNIGHT_STEPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KNIGHT_JUMPS: Steps = &KNIGHT_STEPS;

/// How a kind moves: slides along `lines` for up to `range` squares, or jumps by `jumps`.
/// The pawn's steps and the bishop's orthogonal step are not in the table.
#[derive(Clone, Copy, Debug)]
pub struct Movement {
    pub lines: Steps,
    pub range: u32,
    pub jumps: Steps,
}

/// The movement table (ranges are rules, not parameters).
pub const fn movement(kind: Kind) -> Movement {
    let (lines, range, jumps): (Steps, u32, Steps) = match kind {
        Kind::King => (ALL_EIGHT, 1, &[]),
        Kind::Queen => (ALL_EIGHT, 7, &[]),
        Kind::Rook => (ORTHOGONAL, 6, &[]),
        Kind::Bishop => (DIAGONAL, 6, &[]),
        Kind::Knight => (&[], 0, KNIGHT_JUMPS),
        Kind::Pawn => (&[], 0, &[]),
    };
    Movement {
        lines,
        range,
        jumps,
    }
}

/// What stands on a square, as seen by a moving piece.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Square {
    Vacant,
    /// An enemy piece: capturable.
    Enemy,
    /// An own, allied or neutral piece (with its owner): it blocks and is never captured.
    Friendly(PlayerId),
}

impl World {
    fn square_for(&self, mover: PlayerId, at: Coord) -> Square {
        match self.piece_at(at) {
            None => Square::Vacant,
            Some(other) if other.owner != NEUTRAL && !self.allied(mover, other.owner) => {
                Square::Enemy
            }
            Some(other) => Square::Friendly(other.owner),
        }
    }

    fn step(&self, from: Coord, (dx, dy): (i32, i32), distance: u32) -> Option<Coord> {
        let distance = distance as i32;
        from.offset(
            dx * distance,
            dy * distance,
            self.params.width,
            self.params.height,
        )
    }

    /// Every destination of the piece by its movement rules on the board as it stands: vacant
    /// squares and enemy pieces it reaches, not looking at whose turn it is or whether it has
    /// moved this turn. Appends to `out`. Neutral pieces have none.
    pub fn targets(&self, id: super::PieceId, out: &mut Vec<Coord>) {
        let Some(piece) = self.piece(id) else {
            return;
        };
        if piece.owner == NEUTRAL {
            return;
        }
        let (owner, from) = (piece.owner, piece.at);
        let table = movement(piece.kind);
        for &line in table.lines {
            for distance in 1..=table.range {
                let Some(to) = self.step(from, line, distance) else {
                    break;
                };
                match self.square_for(owner, to) {
                    Square::Vacant => out.push(to),
                    Square::Enemy => {
                        out.push(to);
                        break;
                    }
                    Square::Friendly(_) => break,
                }
            }
        }
        for &jump in table.jumps {
            if let Some(to) = self.step(from, jump, 1) {
                if !matches!(self.square_for(owner, to), Square::Friendly(_)) {
                    out.push(to);
                }
            }
        }
        match piece.kind {
            Kind::Pawn => self.pawn_targets(piece, out),
            Kind::Bishop if !piece.used_orthogonal_step => {
                for &line in ORTHOGONAL {
                    if let Some(to) = self.step(from, line, 1) {
                        if self.piece_at(to).is_none() {
                            out.push(to);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn pawn_targets(&self, pawn: &Piece, out: &mut Vec<Coord>) {
        for &line in ALL_EIGHT {
            let Some(to) = self.step(pawn.at, line, 1) else {
                continue;
            };
            let diagonal = line.0 != 0 && line.1 != 0;
            match self.square_for(pawn.owner, to) {
                Square::Vacant => {
                    out.push(to);
                    if !pawn.moved && !diagonal {
                        if let Some(two) = self.step(pawn.at, line, 2) {
                            if self.piece_at(two).is_none() {
                                out.push(two);
                            }
                        }
                    }
                }
                Square::Enemy if diagonal => out.push(to),
                _ => {}
            }
        }
    }

    /// Whether `to` is one of the piece's moves by its movement rules (as [`World::targets`]),
    /// and if not, why: [`Rejection::NotAMove`] for a wrong shape or range, then
    /// [`Rejection::PathBlocked`], then [`Rejection::DestinationTaken`]. `to` is on the board.
    pub fn movement_rule(&self, piece: &Piece, to: Coord) -> Result<(), Rejection> {
        let kind = piece.kind;
        let not_a_move = |why: &str| {
            Err(Rejection::NotAMove {
                kind,
                why: why.to_string(),
            })
        };
        if piece.owner == NEUTRAL {
            return not_a_move("is neutral and never moves");
        }
        let dx = to.x as i64 - piece.at.x as i64;
        let dy = to.y as i64 - piece.at.y as i64;
        let (across, along) = (dx.unsigned_abs(), dy.unsigned_abs());
        if across == 0 && along == 0 {
            return not_a_move("must leave its square");
        }
        let orthogonal = across == 0 || along == 0;
        let diagonal = across == along;
        let distance = across.max(along);
        let destination = self.square_for(piece.owner, to);
        let taken = |square: Square| match square {
            Square::Friendly(owner) => Err(Rejection::DestinationTaken { at: to, owner }),
            _ => Ok(()),
        };
        match kind {
            Kind::Knight => {
                if across.min(along) != 1 || distance != 2 {
                    return not_a_move("jumps like a chess knight only");
                }
                taken(destination)
            }
            Kind::Pawn => {
                if distance == 1 {
                    if orthogonal && destination == Square::Enemy {
                        return not_a_move("captures only diagonally");
                    }
                    return taken(destination);
                }
                if distance == 2 && orthogonal {
                    if piece.moved {
                        return not_a_move("steps two squares only on its first move");
                    }
                    let middle = Coord::new(
                        (piece.at.x as i64 + dx / 2) as u32,
                        (piece.at.y as i64 + dy / 2) as u32,
                    );
                    if self.piece_at(middle).is_some() {
                        return Err(Rejection::PathBlocked { kind, at: middle });
                    }
                    if destination == Square::Enemy {
                        return not_a_move("captures only diagonally, one square");
                    }
                    return taken(destination);
                }
                not_a_move("moves one square (two orthogonally on its first move)")
            }
            Kind::Bishop if orthogonal => {
                if distance != 1 {
                    return not_a_move("steps orthogonally only one square");
                }
                if piece.used_orthogonal_step {
                    return not_a_move("has used its one orthogonal step");
                }
                if destination == Square::Enemy {
                    return not_a_move("never captures with its orthogonal step");
                }
                taken(destination)
            }
            _ => {
                let table = movement(kind);
                let shape_fits = match kind {
                    Kind::Rook => orthogonal,
                    Kind::Bishop => diagonal,
                    _ => orthogonal || diagonal,
                };
                if !shape_fits {
                    let why = match kind {
                        Kind::Rook => "moves only orthogonally",
                        Kind::Bishop => "moves only diagonally",
                        _ => "moves only along a line or a diagonal",
                    };
                    return not_a_move(why);
                }
                if distance > table.range as u64 {
                    return not_a_move(&format!(
                        "moves at most {} squares, not {distance}",
                        table.range
                    ));
                }
                let line = (dx.signum() as i32, dy.signum() as i32);
                for between in 1..distance as u32 {
                    let at = self
                        .step(piece.at, line, between)
                        .expect("a square between two board squares is on the board");
                    if self.piece_at(at).is_some() {
                        return Err(Rejection::PathBlocked { kind, at });
                    }
                }
                taken(destination)
            }
        }
    }
}
