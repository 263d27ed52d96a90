//! Playing the world: checking and applying one move with its effects (capture, king capture
//! and army hand-over, bonus collection, score), and ending a team's turn (fading, survival
//! points, bonus spawns).

use super::{
    Captured, Coord, Faded, Kind, Move, MoveEffects, PieceId, PlayerId, Rejection, TurnEnd, World,
    NEUTRAL,
};

/// How many random squares a bonus spawn tries before it gives up (a nearly full board).
const BONUS_TRIES: u32 = 64;

impl World {
    /// Every move `player` may make now (its team's turn, pieces not yet moved this turn).
    pub fn legal_moves(&self, player: PlayerId) -> Vec<Move> {
        let mut moves = Vec::new();
        match self.players.get(&player) {
            Some(known) if known.present && known.team == self.team_to_move() => {}
            _ => return moves,
        }
        let mut targets = Vec::new();
        for piece in self.pieces_of(player) {
            if self.moved.contains(&piece.id) {
                continue;
            }
            targets.clear();
            self.targets(piece.id, &mut targets);
            moves.extend(targets.iter().map(|&to| Move::new(piece.at, to)));
        }
        moves
    }

    /// Whether `player` may make `mv` now, and why not. The checks run in this order: the
    /// player, the turn, the board, the origin's piece and owner, already moved, then the
    /// piece's movement rule.
    pub fn check(&self, player: PlayerId, mv: Move) -> Result<(), Rejection> {
        self.checked_piece(player, mv).map(|_| ())
    }

    fn checked_piece(&self, player: PlayerId, mv: Move) -> Result<PieceId, Rejection> {
        let Some(known) = self.players.get(&player) else {
            return Err(Rejection::UnknownPlayer(player));
        };
        if !known.present {
            return Err(Rejection::PlayerLeft(player));
        }
        let team_to_move = self.team_to_move();
        if known.team != team_to_move {
            return Err(Rejection::NotYourTurn {
                player,
                team_to_move,
            });
        }
        for at in [mv.from, mv.to] {
            if at.x >= self.params.width || at.y >= self.params.height {
                return Err(Rejection::OffBoard(at));
            }
        }
        let Some(piece) = self.piece_at(mv.from) else {
            return Err(Rejection::NoPiece(mv.from));
        };
        if piece.owner != player {
            return Err(Rejection::NotYourPiece {
                at: mv.from,
                owner: piece.owner,
            });
        }
        if self.moved.contains(&piece.id) {
            return Err(Rejection::AlreadyMoved(mv.from));
        }
        self.movement_rule(piece, mv.to)?;
        Ok(piece.id)
    }

    /// Makes the move for `player` now, with its effects (capture, king capture and army
    /// hand-over, bonus collection, score), or rejects it and changes nothing.
    pub fn apply(&mut self, player: PlayerId, mv: Move) -> Result<MoveEffects, Rejection> {
        let id = self.checked_piece(player, mv)?;
        let mut effects = MoveEffects::default();
        if let Some(&victim_id) = self.board.get(&mv.to) {
            // The movement rule allowed it, so it is an enemy piece.
            let victim = self.remove(victim_id).expect("the board names live pieces");
            effects.captured = Some(Captured {
                id: victim.id,
                kind: victim.kind,
                owner: victim.owner,
                at: victim.at,
            });
            if victim.kind == Kind::King {
                effects.points = 100 + self.params.rank(Kind::King) as i64;
                effects.king_captured = Some(victim.owner);
                self.players.remove(&victim.owner);
                effects.handed_over = self.index.hand_over(victim.owner, player);
                for &id in &effects.handed_over {
                    if let Some(slot) = self.piece_mut(id) {
                        slot.owner = player;
                    }
                }
            } else {
                effects.points = self.params.rank(victim.kind) as i64;
            }
        }
        let piece = self
            .piece_mut(id)
            .expect("a checked move names a live piece");
        let from = piece.at;
        if piece.kind == Kind::Bishop && (from.x == mv.to.x || from.y == mv.to.y) {
            piece.used_orthogonal_step = true;
        }
        piece.at = mv.to;
        piece.moved = true;
        piece.life = None;
        self.board.remove(&from);
        self.board.insert(mv.to, id);
        self.index.moved(id, from, mv.to);
        self.moved.insert(id);
        effects.collected = self.collect_around(player, mv.to);
        if let Some(mover) = self.players.get_mut(&player) {
            mover.score += effects.points;
        }
        Ok(effects)
    }

    /// Every neutral piece on the 8 neighbours of `at` becomes `player`'s, with full life and
    /// its "has moved" flag unset; in id order.
    fn collect_around(&mut self, player: PlayerId, at: Coord) -> Vec<PieceId> {
        let (width, height) = (self.params.width, self.params.height);
        let mut collected = Vec::new();
        for dx in -1..=1 {
            for dy in -1..=1 {
                let Some(next) = at.offset(dx, dy, width, height) else {
                    continue;
                };
                let Some(&id) = self.board.get(&next) else {
                    continue;
                };
                let piece = self.piece_mut(id).expect("the board names live pieces");
                if piece.owner == NEUTRAL {
                    piece.owner = player;
                    piece.moved = false;
                    piece.life = None;
                    collected.push(id);
                    self.index.owner_changed(id, NEUTRAL, player);
                }
            }
        }
        collected.sort_unstable();
        collected
    }

    /// Whether the piece has moved in the current turn.
    pub fn moved_this_turn(&self, id: PieceId) -> bool {
        self.moved.contains(&id)
    }

    /// Ends the current team's turn: fading of that team's pieces, a survival point for each
    /// of its players, a bonus piece when due; then the next turn begins.
    pub fn end_turn(&mut self) -> TurnEnd {
        let team = self.team_to_move();
        let mut end = TurnEnd {
            turn: self.turn,
            ..TurnEnd::default()
        };
        let mut fading = Vec::new();
        // The team's pieces, player by player through the index (not a walk over the world),
        // and sorted by id below, so that pieces fade in id order.
        let radius = self.params.kingdom_radius as u64;
        let on_team = self.players.values().filter(|player| player.team == team);
        for (owner, centre) in on_team.map(|player| (player.id, self.kingdom_centre(player.id))) {
            for piece in self
                .index
                .owned(owner)
                .iter()
                .filter_map(|&id| self.piece(id))
            {
                if piece.kind == Kind::King {
                    continue;
                }
                // A player whose king the world does not know (a window) keeps its pieces
                // inside.
                let inside = centre
                    .is_none_or(|centre| centre.distance_squared(piece.at) <= radius * radius);
                let life = if inside || self.moved.contains(&piece.id) {
                    None
                } else {
                    Some(
                        piece
                            .life
                            .unwrap_or_else(|| self.params.full_life(piece.kind))
                            .saturating_sub(1),
                    )
                };
                if life != piece.life {
                    fading.push((piece.id, life));
                }
            }
        }
        fading.sort_unstable_by_key(|&(id, _)| id);
        for (id, life) in fading {
            if life == Some(0) {
                let piece = self.remove(id).expect("a listed piece is live");
                end.faded.push(Faded {
                    id,
                    kind: piece.kind,
                    owner: piece.owner,
                    at: piece.at,
                });
            } else if let Some(piece) = self.piece_mut(id) {
                piece.life = life;
            }
        }
        for player in self.players.values_mut() {
            if player.team == team && player.present {
                player.score += 1;
                end.survivors.push(player.id);
            }
        }
        let every = self.params.bonus_every as u64;
        if every > 0 && self.turn.is_multiple_of(every) {
            end.bonus = self.spawn_bonus();
        }
        // Wrapping keeps the teams alternating even from the last u64 (an odd turn).
        self.turn = self.turn.wrapping_add(1);
        self.moved.clear();
        end
    }

    /// One neutral piece of a kind drawn by the weights on a random vacant square, if the
    /// weights allow one and a vacant square turns up within a few tries.
    fn spawn_bonus(&mut self) -> Option<(PieceId, Kind, Coord)> {
        let weights = self.params.bonus_weights;
        let total: u64 = weights.iter().map(|&weight| weight as u64).sum();
        if total == 0 {
            return None;
        }
        let mut draw = self.random.below(total);
        let kind = Kind::ALL.into_iter().find(|kind| {
            let weight = weights[kind.index()] as u64;
            if draw < weight {
                true
            } else {
                draw -= weight;
                false
            }
        })?;
        for _ in 0..BONUS_TRIES {
            let at = Coord::new(
                self.random.below(self.params.width as u64) as u32,
                self.random.below(self.params.height as u64) as u32,
            );
            if !self.board.contains_key(&at) {
                let id = self.place(NEUTRAL, kind, at, false, false, None).ok()?;
                return Some((id, kind, at));
            }
        }
        None
    }
}
