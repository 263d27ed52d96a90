//! What a turn changed, against what the store last wrote: the pieces, the world's players and
//! the player rows that are new or different, and those that are gone. A commit writes only
//! these, so its cost grows with the turn's moves, not with the world (a world of 160,000
//! pieces rewritten whole every turn held the turn loop for a quarter of a second).

use super::PlayerRow;
use crate::rules::megachess::{Piece, PieceId, Player, PlayerId, WorldSnapshot};
use ahash::AHashMap;

/// The rows as the store holds them after its last commit.
#[derive(Clone, Debug, Default)]
pub(super) struct Written {
    /// Each piece with whether it moved in the turn in progress.
    pieces: AHashMap<PieceId, (Piece, bool)>,
    world_players: AHashMap<PlayerId, Player>,
    rows: AHashMap<PlayerId, PlayerRow>,
}

/// The rows a commit writes and deletes.
#[derive(Debug, Default)]
pub(super) struct Changes<'a> {
    pub pieces: Vec<(&'a Piece, bool)>,
    pub gone_pieces: Vec<PieceId>,
    pub world_players: Vec<&'a Player>,
    pub gone_world_players: Vec<PlayerId>,
    pub rows: Vec<&'a PlayerRow>,
}

impl Written {
    /// The store holds exactly `world` and `rows`.
    pub(super) fn of(world: &WorldSnapshot, rows: &[PlayerRow]) -> Written {
        let mut written = Written::default();
        written.record(&written.changes(world, rows).owned());
        written
    }

    /// What writing `world` and `rows` over the stored rows changes. Rows are never deleted
    /// (a player's row outlives its king), only added or replaced.
    pub(super) fn changes<'a>(
        &self,
        world: &'a WorldSnapshot,
        rows: &'a [PlayerRow],
    ) -> Changes<'a> {
        let mut moved = world.moved_this_turn.clone();
        moved.sort_unstable();
        let pieces: Vec<(&Piece, bool)> = world
            .pieces
            .iter()
            .map(|piece| (piece, moved.binary_search(&piece.id).is_ok()))
            .filter(|&(piece, moved)| self.pieces.get(&piece.id) != Some(&(*piece, moved)))
            .collect();
        let mut gone_pieces = Vec::new();
        if self.pieces.len() + pieces.len() > world.pieces.len() {
            // Some stored piece is not in the world any more: find which.
            let present: ahash::AHashSet<PieceId> =
                world.pieces.iter().map(|piece| piece.id).collect();
            gone_pieces = self
                .pieces
                .keys()
                .filter(|id| !present.contains(id))
                .copied()
                .collect();
            gone_pieces.sort_unstable();
        }
        let world_players: Vec<&Player> = world
            .players
            .iter()
            .filter(|player| self.world_players.get(&player.id) != Some(player))
            .collect();
        let present: ahash::AHashSet<PlayerId> =
            world.players.iter().map(|player| player.id).collect();
        let mut gone_world_players: Vec<PlayerId> = self
            .world_players
            .keys()
            .filter(|id| !present.contains(id))
            .copied()
            .collect();
        gone_world_players.sort_unstable();
        let rows = rows
            .iter()
            .filter(|row| self.rows.get(&row.id) != Some(row))
            .collect();
        Changes {
            pieces,
            gone_pieces,
            world_players,
            gone_world_players,
            rows,
        }
    }

    /// The changes are in the store now.
    pub(super) fn record(&mut self, changes: &OwnedChanges) {
        for id in &changes.gone_pieces {
            self.pieces.remove(id);
        }
        for &(piece, moved) in &changes.pieces {
            self.pieces.insert(piece.id, (piece, moved));
        }
        for id in &changes.gone_world_players {
            self.world_players.remove(id);
        }
        for player in &changes.world_players {
            self.world_players.insert(player.id, player.clone());
        }
        for row in &changes.rows {
            self.rows.insert(row.id, row.clone());
        }
    }

    /// A player row written on its own (a join).
    pub(super) fn record_row(&mut self, row: &PlayerRow) {
        self.rows.insert(row.id, row.clone());
    }
}

/// [`Changes`] copied out, to be recorded once the transaction that wrote them committed.
#[derive(Debug, Default)]
pub(super) struct OwnedChanges {
    pieces: Vec<(Piece, bool)>,
    gone_pieces: Vec<PieceId>,
    world_players: Vec<Player>,
    gone_world_players: Vec<PlayerId>,
    rows: Vec<PlayerRow>,
}

impl Changes<'_> {
    pub(super) fn owned(&self) -> OwnedChanges {
        OwnedChanges {
            pieces: self
                .pieces
                .iter()
                .map(|&(piece, moved)| (*piece, moved))
                .collect(),
            gone_pieces: self.gone_pieces.clone(),
            world_players: self
                .world_players
                .iter()
                .map(|&player| player.clone())
                .collect(),
            gone_world_players: self.gone_world_players.clone(),
            rows: self.rows.iter().map(|&row| row.clone()).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::megachess::{Coord, Facing, MegachessParams, Move, Team, World};

    #[test]
    fn only_what_changed_is_written_and_what_left_is_deleted() {
        let params = MegachessParams {
            width: 64,
            height: 64,
            ..MegachessParams::default()
        };
        let mut world = World::new(params, 1);
        world.add_player(1, Team::Alabaster).unwrap();
        world.add_player(2, Team::Metal).unwrap();
        world
            .spawn_army(1, Coord::new(0, 0), Facing::North)
            .unwrap();
        world
            .spawn_army(2, Coord::new(0, 3), Facing::South)
            .unwrap();
        let before = world.snapshot();
        let mut written = Written::of(&before, &[]);
        assert!(written.changes(&before, &[]).pieces.is_empty());
        // A pawn goes forward, and is taken: the taker changes, the victim is gone.
        world.apply(1, Move::parse("0,1-0,2").unwrap()).unwrap();
        let victim = world.piece_at(Coord::new(0, 2)).unwrap().id;
        world.end_turn();
        world.apply(2, Move::parse("1,3-0,2").unwrap()).unwrap();
        let taker = world.piece_at(Coord::new(0, 2)).unwrap().id;
        let after = world.snapshot();
        let changes = written.changes(&after, &[]);
        let changed: Vec<(PieceId, bool)> =
            changes.pieces.iter().map(|(p, m)| (p.id, *m)).collect();
        assert_eq!(changed, vec![(taker, true)]);
        assert_eq!(changes.gone_pieces, vec![victim]);
        // The scores changed (a survival point, the capture).
        assert_eq!(
            changes
                .world_players
                .iter()
                .map(|p| p.id)
                .collect::<Vec<_>>(),
            vec![1, 2]
        );
        assert!(changes.gone_world_players.is_empty());
        let owned = changes.owned();
        written.record(&owned);
        let again = written.changes(&after, &[]);
        assert!(again.pieces.is_empty() && again.gone_pieces.is_empty());
        assert!(again.world_players.is_empty());
    }
}
