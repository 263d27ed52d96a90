//! A world taken apart into plain data and put back together: what a database stores after a
//! turn and reads back on resume. Putting it back validates it, so a damaged record is an
//! error, never a world that breaks the rules' invariants.

use super::hash::{fixed_state, FastMap, FastSet};
use super::index::PieceIndex;
use super::{Kind, MegachessParams, Piece, PieceId, Player, PlayerId, World, NEUTRAL};
use crate::common::Rng;
use std::collections::BTreeMap;

/// Everything a [`World`] holds, as plain data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorldSnapshot {
    pub params: MegachessParams,
    pub turn: u64,
    /// The state of the world's bonus generator.
    pub random_state: u64,
    /// One more than the largest piece id ever given (ids are never given twice).
    pub id_bound: u32,
    /// The players in the game, by id.
    pub players: Vec<Player>,
    /// The pieces on the board, by id.
    pub pieces: Vec<Piece>,
    /// The pieces that moved in the current turn (empty between turns).
    pub moved_this_turn: Vec<PieceId>,
}

impl World {
    /// The world as plain data; [`World::from_snapshot`] gives it back. A server's world
    /// numbers its turns as the rules do; one told by a line that numbers them otherwise
    /// ([`World::set_turn_of`]) comes back numbered as the rules do.
    pub fn snapshot(&self) -> WorldSnapshot {
        let mut moved_this_turn: Vec<PieceId> = self.moved.iter().copied().collect();
        moved_this_turn.sort_unstable();
        WorldSnapshot {
            params: self.params,
            turn: self.turn,
            random_state: self.random.state(),
            id_bound: self.id_bound(),
            players: self.players.values().cloned().collect(),
            pieces: self.pieces().copied().collect(),
            moved_this_turn,
        }
    }

    /// The world a snapshot describes, after checking everything the rules take for granted:
    /// valid parameters, unique player and piece ids below the bound, squares on the board and
    /// held once, owners in the game, one king per player and every player's king its own, no
    /// life on kings or neutral pieces, `o` only on bishops.
    pub fn from_snapshot(snapshot: &WorldSnapshot) -> Result<World, String> {
        snapshot.params.validate()?;
        let mut players = BTreeMap::new();
        for player in &snapshot.players {
            if player.id == NEUTRAL {
                return Err("player id 0 is the neutral owner".into());
            }
            if players.insert(player.id, player.clone()).is_some() {
                return Err(format!("player {} is listed twice", player.id));
            }
        }
        let mut slab = vec![None; snapshot.id_bound as usize];
        let mut board = FastMap::with_hasher(fixed_state());
        let (width, height) = (snapshot.params.width, snapshot.params.height);
        for piece in &snapshot.pieces {
            let slot = slab
                .get_mut(piece.id.0 as usize)
                .ok_or_else(|| format!("piece {} is beyond the id bound", piece.id.0))?;
            if slot.is_some() {
                return Err(format!("piece {} is listed twice", piece.id.0));
            }
            if piece.at.x >= width || piece.at.y >= height {
                return Err(format!("piece {} stands off the board", piece.id.0));
            }
            if board.insert(piece.at, piece.id).is_some() {
                return Err(format!("square {} holds two pieces", piece.at));
            }
            if piece.owner != NEUTRAL && !players.contains_key(&piece.owner) {
                return Err(format!(
                    "piece {}: owner {} is not a player",
                    piece.id.0, piece.owner
                ));
            }
            let fades = piece.kind != Kind::King && piece.owner != NEUTRAL;
            match piece.life {
                Some(life)
                    if !fades || life == 0 || life >= snapshot.params.full_life(piece.kind) =>
                {
                    return Err(format!(
                        "piece {}: a life of {life} is impossible",
                        piece.id.0
                    ))
                }
                _ => {}
            }
            if piece.used_orthogonal_step && piece.kind != Kind::Bishop {
                return Err(format!(
                    "piece {}: only bishops take the orthogonal step",
                    piece.id.0
                ));
            }
            if piece.kind == Kind::King && piece.owner == NEUTRAL {
                return Err(format!("piece {}: a king is never neutral", piece.id.0));
            }
            *slot = Some(*piece);
        }
        // Each player's kings on the board, gathered once (not one pass per player).
        let mut kings_of: BTreeMap<PlayerId, Vec<PieceId>> = BTreeMap::new();
        for piece in snapshot
            .pieces
            .iter()
            .filter(|piece| piece.kind == Kind::King)
        {
            kings_of.entry(piece.owner).or_default().push(piece.id);
        }
        for player in players.values() {
            let kings = kings_of.get(&player.id).map_or(&[][..], Vec::as_slice);
            if kings.len() > 1 || player.king != kings.first().copied() {
                return Err(format!(
                    "player {}: its king does not match the board",
                    player.id
                ));
            }
        }
        let mut moved = FastSet::with_hasher(fixed_state());
        for &id in &snapshot.moved_this_turn {
            if slab.get(id.0 as usize).is_none_or(Option::is_none) {
                return Err(format!("moved piece {} is not on the board", id.0));
            }
            moved.insert(id);
        }
        Ok(World {
            params: snapshot.params,
            count: snapshot.pieces.len(),
            index: PieceIndex::build(&slab),
            slab,
            board,
            players,
            turn: snapshot.turn,
            // A server's world: its turns are numbered as the rules number them.
            odd_turn_team: super::Team::Alabaster,
            moved,
            random: Rng::new(snapshot.random_state),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::megachess::{Coord, Facing, Move, Team};

    fn played_world() -> World {
        let params = MegachessParams {
            width: 40,
            height: 40,
            bonus_every: 1,
            kingdom_radius: 3,
            ..MegachessParams::default()
        };
        let mut world = World::new(params, 7);
        world.add_player(1, Team::Alabaster).unwrap();
        world.add_player(2, Team::Metal).unwrap();
        world
            .spawn_army(1, Coord::new(2, 2), Facing::North)
            .unwrap();
        world
            .spawn_army(2, Coord::new(20, 30), Facing::South)
            .unwrap();
        for _ in 0..6 {
            let team = world.team_to_move();
            let me = if team == Team::Alabaster { 1 } else { 2 };
            if let Some(&mv) = world.legal_moves(me).first() {
                world.apply(me, mv).unwrap();
            }
            world.end_turn();
        }
        world
    }

    #[test]
    fn a_snapshot_gives_the_same_world_back() {
        let mut world = played_world();
        let mv: Move = world.legal_moves(1).into_iter().next().unwrap();
        world.apply(1, mv).unwrap();
        let snapshot = world.snapshot();
        let mut back = World::from_snapshot(&snapshot).unwrap();
        assert_eq!(back.snapshot(), snapshot);
        assert_eq!(back.position_line(1, None), world.position_line(1, None));
        // The generator and the moved set came back too: both worlds go on alike.
        assert_eq!(back.end_turn(), world.end_turn());
        assert_eq!(back.snapshot(), world.snapshot());
    }

    #[test]
    fn a_damaged_snapshot_is_refused() {
        let good = played_world().snapshot();
        let mut twice = good.clone();
        twice.pieces.push(twice.pieces[0]);
        assert!(World::from_snapshot(&twice).unwrap_err().contains("twice"));
        let mut off = good.clone();
        off.pieces[0].at = Coord::new(99, 0);
        assert!(World::from_snapshot(&off)
            .unwrap_err()
            .contains("off the board"));
        let mut orphan = good.clone();
        orphan.players.retain(|player| player.id != 2);
        assert!(World::from_snapshot(&orphan)
            .unwrap_err()
            .contains("not a player"));
        let mut kingless = good.clone();
        kingless.players[0].king = None;
        assert!(World::from_snapshot(&kingless)
            .unwrap_err()
            .contains("king"));
        let mut bound = good;
        bound.id_bound = 3;
        assert!(World::from_snapshot(&bound).unwrap_err().contains("bound"));
    }
}
