//! The world: pieces with stable ids in a slab, a hash map from square to piece, players and
//! teams, the turn, and the seeded generator of bonus pieces.

use super::hash::{fixed_state, FastMap, FastSet};
use super::index::PieceIndex;
use super::{Coord, Kind, MegachessParams, Piece, PieceId, Player, PlayerId, Rect, Team, NEUTRAL};
use crate::common::Rng;
use std::collections::BTreeMap;

/// Which way an army faces: the side of its 8 x 2 block where its pawns stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Facing {
    North,
    South,
    East,
    West,
}

/// The back rank of an army, from the block's west (or south) end.
const BACK_RANK: [Kind; 8] = [
    Kind::Rook,
    Kind::Knight,
    Kind::Bishop,
    Kind::Queen,
    Kind::King,
    Kind::Bishop,
    Kind::Knight,
    Kind::Rook,
];

/// A sparse Megachess world. Memory and time depend on the pieces, never on the board's size.
/// Deterministic for a given seed.
#[derive(Clone, Debug)]
pub struct World {
    pub(super) params: MegachessParams,
    /// Pieces by id; a removed piece leaves `None` and its id is never given again.
    pub(super) slab: Vec<Option<Piece>>,
    /// How many pieces are on the board.
    pub(super) count: usize,
    /// Square to piece, for every piece on the board.
    pub(super) board: FastMap<Coord, PieceId>,
    /// The pieces by owner and by zone, in step with the slab.
    pub(super) index: PieceIndex,
    /// The players in the game, by id (a player whose king is taken is removed).
    pub(super) players: BTreeMap<PlayerId, Player>,
    pub(super) turn: u64,
    /// The team that moves on odd turns: alabaster as the rules count, in every world that
    /// Roger's server runs; metal in a world told by a server that numbers its turns otherwise
    /// (see [`World::set_turn_of`]).
    pub(super) odd_turn_team: Team,
    /// The pieces moved in the current turn.
    pub(super) moved: FastSet<PieceId>,
    pub(super) random: Rng,
}

impl World {
    /// An empty world at turn 1 (alabaster to move). `params` are assumed valid.
    pub fn new(params: MegachessParams, seed: u64) -> World {
        World {
            params,
            slab: Vec::new(),
            count: 0,
            board: FastMap::with_hasher(fixed_state()),
            index: PieceIndex::default(),
            players: BTreeMap::new(),
            turn: 1,
            odd_turn_team: Team::Alabaster,
            moved: FastSet::with_hasher(fixed_state()),
            random: Rng::new(seed),
        }
    }

    pub fn params(&self) -> &MegachessParams {
        &self.params
    }
    /// The current turn, counted from 1 over both teams' turns.
    pub fn turn(&self) -> u64 {
        self.turn
    }
    /// Sets the turn counter (a world read from a position line starts at its turn). A new
    /// turn: no piece has moved in it yet.
    pub fn set_turn(&mut self, turn: u64) {
        self.turn = turn;
        self.moved.clear();
    }
    /// Sets the turn counter and which team moves in it (a world told by a position line,
    /// whose server may number turns otherwise than the rules: its `me` says whose turn it is).
    /// The teams alternate from there as always.
    pub fn set_turn_of(&mut self, turn: u64, team: Team) {
        self.set_turn(turn);
        self.odd_turn_team = if Team::of_turn(turn) == Team::Alabaster {
            team
        } else {
            team.other()
        };
    }
    pub fn team_to_move(&self) -> Team {
        match Team::of_turn(self.turn()) {
            Team::Alabaster => self.odd_turn_team,
            Team::Metal => self.odd_turn_team.other(),
        }
    }

    // ---- players and pieces -------------------------------------------------------------

    /// Adds a player with no pieces (ids are positive and unique).
    pub fn add_player(&mut self, id: PlayerId, team: Team) -> Result<(), String> {
        if id == NEUTRAL {
            return Err("player id 0 is the neutral owner".into());
        }
        if self.players.contains_key(&id) {
            return Err(format!("player {id} is already in the world"));
        }
        self.players.insert(
            id,
            Player {
                id,
                team,
                king: None,
                score: 0,
                present: true,
            },
        );
        Ok(())
    }
    /// The player leaves of its own will: its pieces stay, unmoving, until its king is taken.
    pub fn leave(&mut self, id: PlayerId) {
        if let Some(player) = self.players.get_mut(&id) {
            player.present = false;
        }
    }
    pub fn player(&self, id: PlayerId) -> Option<&Player> {
        self.players.get(&id)
    }
    /// The players in the game, by id.
    pub fn players(&self) -> impl Iterator<Item = &Player> + '_ {
        self.players.values()
    }
    /// Sets a player's score (a server's record, a test's setup).
    pub fn set_score(&mut self, id: PlayerId, score: i64) {
        if let Some(player) = self.players.get_mut(&id) {
            player.score = score;
        }
    }
    /// Places a piece on a vacant square of the board (a setup, a spawn, a parsed window).
    /// A king becomes its owner's king (one king per player). The owner is a player of the
    /// world or [`NEUTRAL`]. A life of `full_life` or more reads as full (`None`).
    pub fn place(
        &mut self,
        owner: PlayerId,
        kind: Kind,
        at: Coord,
        moved: bool,
        used_orthogonal_step: bool,
        life: Option<u32>,
    ) -> Result<PieceId, String> {
        if at.x >= self.params.width || at.y >= self.params.height {
            return Err(format!("square {at} is off the board"));
        }
        if self.board.contains_key(&at) {
            return Err(format!("square {at} is taken"));
        }
        if owner != NEUTRAL {
            let Some(player) = self.players.get(&owner) else {
                return Err(format!("owner {owner} is not a player of the world"));
            };
            if kind == Kind::King && player.king.is_some() {
                return Err(format!("player {owner} already has a king"));
            }
        } else if kind == Kind::King {
            return Err("a king is never neutral".into());
        }
        if used_orthogonal_step && kind != Kind::Bishop {
            return Err(format!("a {} has no orthogonal step to use", kind.name()));
        }
        let life = match life {
            Some(_) if kind == Kind::King => return Err("a king never fades".into()),
            Some(_) if owner == NEUTRAL => return Err("a neutral piece never fades".into()),
            Some(0) => return Err("a life of 0 is no life".into()),
            Some(turns) if turns >= self.params.full_life(kind) => None,
            life => life,
        };
        let id =
            PieceId(u32::try_from(self.slab.len()).map_err(|_| "the world has no piece ids left")?);
        self.slab.push(Some(Piece {
            id,
            owner,
            kind,
            at,
            moved,
            used_orthogonal_step,
            life,
        }));
        self.board.insert(at, id);
        self.index.insert(id, owner, at);
        self.count += 1;
        if kind == Kind::King {
            if let Some(player) = self.players.get_mut(&owner) {
                player.king = Some(id);
            }
        }
        Ok(id)
    }
    /// Places a player's army of 16 on the 8 x 2 block whose south-west corner is `corner`
    /// (2 x 8 for east and west facings): the back rank `R N B Q K B N R` and eight pawns in
    /// front of it, towards `facing`. Every square must be vacant and on the board.
    pub fn spawn_army(
        &mut self,
        player: PlayerId,
        corner: Coord,
        facing: Facing,
    ) -> Result<(), String> {
        match self.players.get(&player) {
            None => return Err(format!("player {player} is not in the world")),
            Some(existing) if existing.king.is_some() => {
                return Err(format!("player {player} already has a king"))
            }
            Some(_) => {}
        }
        // (file along the rank, back rank or pawn rank) to a square.
        let square = |file: u32, pawn: bool| -> Option<Coord> {
            let (dx, dy) = match facing {
                Facing::North => (file, pawn as u32),
                Facing::South => (file, !pawn as u32),
                Facing::East => (pawn as u32, file),
                Facing::West => (!pawn as u32, file),
            };
            let at = Coord::new(corner.x.checked_add(dx)?, corner.y.checked_add(dy)?);
            (at.x < self.params.width && at.y < self.params.height).then_some(at)
        };
        let mut squares = Vec::with_capacity(16);
        for file in 0..8 {
            for pawn in [false, true] {
                let at = square(file, pawn)
                    .ok_or_else(|| format!("the army's block at {corner} leaves the board"))?;
                if self.board.contains_key(&at) {
                    return Err(format!("the army's square {at} is taken"));
                }
                squares.push((
                    at,
                    if pawn {
                        Kind::Pawn
                    } else {
                        BACK_RANK[file as usize]
                    },
                ));
            }
        }
        for (at, kind) in squares {
            self.place(player, kind, at, false, false, None)?;
        }
        Ok(())
    }
    pub fn piece(&self, id: PieceId) -> Option<&Piece> {
        self.slab.get(id.0 as usize)?.as_ref()
    }
    pub fn piece_at(&self, at: Coord) -> Option<&Piece> {
        self.piece(*self.board.get(&at)?)
    }
    /// Every piece on the board, in id order.
    pub fn pieces(&self) -> impl Iterator<Item = &Piece> + '_ {
        self.slab.iter().flatten()
    }
    /// The pieces of one player, in id order.
    pub fn pieces_of(&self, player: PlayerId) -> impl Iterator<Item = &Piece> + '_ {
        self.index
            .owned(player)
            .iter()
            .filter_map(|&id| self.piece(id))
    }
    /// The pieces inside a rectangle, in id order; the cost grows with the pieces near it,
    /// not with the world.
    pub fn pieces_in(&self, rect: Rect) -> Vec<&Piece> {
        let mut inside: Vec<&Piece> = self
            .index
            .near(rect)
            .filter_map(|id| self.piece(id))
            .filter(|piece| rect.contains(piece.at))
            .collect();
        inside.sort_unstable_by_key(|piece| piece.id);
        inside
    }
    pub fn piece_count(&self) -> usize {
        self.count
    }
    /// One more than the largest piece id ever given in this world.
    pub fn id_bound(&self) -> u32 {
        self.slab.len() as u32
    }
    /// The square of the king whose kingdom holds this player's pieces, if known.
    pub fn kingdom_centre(&self, player: PlayerId) -> Option<Coord> {
        let king = self.players.get(&player)?.king?;
        Some(self.piece(king)?.at)
    }
    /// Whether a square is inside the kingdom of `player` (false when its king is unknown).
    pub fn inside_kingdom(&self, player: PlayerId, at: Coord) -> bool {
        self.kingdom_centre(player).is_some_and(|centre| {
            let radius = self.params.kingdom_radius as u64;
            centre.distance_squared(at) <= radius * radius
        })
    }
    /// Whether two owners are on the same team (a player is its own ally; neutral is nobody's).
    pub fn allied(&self, a: PlayerId, b: PlayerId) -> bool {
        if a == NEUTRAL || b == NEUTRAL {
            return false;
        }
        if a == b {
            return true;
        }
        match (self.players.get(&a), self.players.get(&b)) {
            (Some(first), Some(second)) => first.team == second.team,
            _ => false,
        }
    }

    // ---- changes used by the rules ------------------------------------------------------

    /// Takes a piece off the board; its id stays retired.
    pub(super) fn remove(&mut self, id: PieceId) -> Option<Piece> {
        let piece = self.slab.get_mut(id.0 as usize)?.take()?;
        self.board.remove(&piece.at);
        self.index.remove(id, piece.owner, piece.at);
        self.moved.remove(&id);
        self.count -= 1;
        if piece.kind == Kind::King {
            if let Some(player) = self.players.get_mut(&piece.owner) {
                player.king = None;
            }
        }
        Some(piece)
    }
    pub(super) fn piece_mut(&mut self, id: PieceId) -> Option<&mut Piece> {
        self.slab.get_mut(id.0 as usize)?.as_mut()
    }
}
