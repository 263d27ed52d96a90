//! The world: pieces with stable ids in a slab, a hash map from square to piece, players and
//! teams, the turn, and the seeded generator of bonus pieces.

use super::{
    Coord, Kind, MegachessParams, Move, MoveEffects, Piece, PieceId, Player, PlayerId, Rejection,
    Team, TurnEnd,
};

/// Which way an army faces: the side of its 8 x 2 block where its pawns stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Facing {
    North,
    South,
    East,
    West,
}

/// A sparse Megachess world. Memory and time depend on the pieces, never on the board's size.
/// Deterministic for a given seed.
#[derive(Clone, Debug)]
pub struct World {
    params: MegachessParams,
    // The lead leaves the representation to the rules' owner: a slab of pieces by id, an
    // `ahash` map from square to id, players, the turn, the pieces moved this turn, an RNG.
}

impl World {
    /// An empty world at turn 1 (alabaster to move). `params` are assumed valid.
    pub fn new(params: MegachessParams, seed: u64) -> World {
        let _ = seed;
        World { params }
    }

    pub fn params(&self) -> &MegachessParams {
        &self.params
    }
    /// The current turn, counted from 1 over both teams' turns.
    pub fn turn(&self) -> u64 {
        todo!()
    }
    /// Sets the turn counter (a world read from a position line starts at its turn).
    pub fn set_turn(&mut self, turn: u64) {
        let _ = turn;
        todo!()
    }
    pub fn team_to_move(&self) -> Team {
        Team::of_turn(self.turn())
    }

    // ---- players and pieces -------------------------------------------------------------

    /// Adds a player with no pieces (ids are positive and unique).
    pub fn add_player(&mut self, id: PlayerId, team: Team) -> Result<(), String> {
        let _ = (id, team);
        todo!()
    }
    /// The player leaves of its own will: its pieces stay, unmoving, until its king is taken.
    pub fn leave(&mut self, id: PlayerId) {
        let _ = id;
        todo!()
    }
    pub fn player(&self, id: PlayerId) -> Option<&Player> {
        let _ = id;
        todo!()
    }
    /// The players in the game, by id.
    pub fn players(&self) -> impl Iterator<Item = &Player> + '_ {
        let _ = self;
        std::iter::empty()
    }
    /// Places a piece on a vacant square of the board (a setup, a spawn, a parsed window).
    /// A king becomes its owner's king (one king per player). The owner is a player of the
    /// world or [`NEUTRAL`](super::NEUTRAL).
    pub fn place(
        &mut self,
        owner: PlayerId,
        kind: Kind,
        at: Coord,
        moved: bool,
        used_orthogonal_step: bool,
        life: Option<u32>,
    ) -> Result<PieceId, String> {
        let _ = (owner, kind, at, moved, used_orthogonal_step, life);
        todo!()
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
        let _ = (player, corner, facing);
        todo!()
    }
    pub fn piece(&self, id: PieceId) -> Option<&Piece> {
        let _ = id;
        todo!()
    }
    pub fn piece_at(&self, at: Coord) -> Option<&Piece> {
        let _ = at;
        todo!()
    }
    /// Every piece on the board, in id order.
    pub fn pieces(&self) -> impl Iterator<Item = &Piece> + '_ {
        let _ = self;
        std::iter::empty()
    }
    /// The pieces of one player, in id order.
    pub fn pieces_of(&self, player: PlayerId) -> impl Iterator<Item = &Piece> + '_ {
        let _ = player;
        std::iter::empty()
    }
    pub fn piece_count(&self) -> usize {
        todo!()
    }
    /// The square of the king whose kingdom holds this player's pieces, if known.
    pub fn kingdom_centre(&self, player: PlayerId) -> Option<Coord> {
        let _ = player;
        todo!()
    }
    /// Whether a square is inside the kingdom of `player` (false when its king is unknown).
    pub fn inside_kingdom(&self, player: PlayerId, at: Coord) -> bool {
        let _ = (player, at);
        todo!()
    }
    /// Whether two owners are on the same team (a player is its own ally; neutral is nobody's).
    pub fn allied(&self, a: PlayerId, b: PlayerId) -> bool {
        let _ = (a, b);
        todo!()
    }

    // ---- moves --------------------------------------------------------------------------

    /// Every destination of the piece by its movement rules on the board as it stands: vacant
    /// squares and enemy pieces it reaches, not looking at whose turn it is or whether it has
    /// moved this turn. Appends to `out`.
    pub fn targets(&self, id: PieceId, out: &mut Vec<Coord>) {
        let _ = (id, out);
        todo!()
    }
    /// Every move `player` may make now (its team's turn, pieces not yet moved this turn).
    pub fn legal_moves(&self, player: PlayerId) -> Vec<Move> {
        let _ = player;
        todo!()
    }
    /// Whether `player` may make `mv` now, and why not.
    pub fn check(&self, player: PlayerId, mv: Move) -> Result<(), Rejection> {
        let _ = (player, mv);
        todo!()
    }
    /// Makes the move for `player` now, with its effects (capture, king capture and army
    /// hand-over, bonus collection, score), or rejects it and changes nothing.
    pub fn apply(&mut self, player: PlayerId, mv: Move) -> Result<MoveEffects, Rejection> {
        let _ = (player, mv);
        todo!()
    }
    /// Whether the piece has moved in the current turn.
    pub fn moved_this_turn(&self, id: PieceId) -> bool {
        let _ = id;
        todo!()
    }
    /// Ends the current team's turn: fading of that team's pieces, a survival point for each
    /// of its players, a bonus piece when due; then the next turn begins.
    pub fn end_turn(&mut self) -> TurnEnd {
        todo!()
    }
}
