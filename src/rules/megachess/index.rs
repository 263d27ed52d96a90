//! Where the pieces are, kept beside the slab so that a question about one player or one
//! rectangle costs what the answer holds, not what the world holds: the pieces of each owner
//! (in id order), and the pieces of each zone, a square of [`ZONE_SIDE`] x [`ZONE_SIDE`]
//! squares. A server with ten thousand players asks both for every player every turn.

use super::hash::{fixed_state, FastMap};
use super::{Coord, Piece, PieceId, PlayerId, Rect};

/// The side of a zone, in squares: about the size of one army's window, so that a window
/// covers a handful of zones and a zone holds a handful of armies.
pub const ZONE_SIDE: u32 = 32;

/// A square of `ZONE_SIDE` x `ZONE_SIDE` squares, by its column and row of zones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Zone {
    pub x: u32,
    pub y: u32,
}

impl Zone {
    /// The zone holding a square.
    pub fn of(at: Coord) -> Zone {
        Zone {
            x: at.x / ZONE_SIDE,
            y: at.y / ZONE_SIDE,
        }
    }

    /// The zones a rectangle touches, row by row.
    pub fn covering(rect: Rect) -> impl Iterator<Item = Zone> {
        let (min, max) = (Zone::of(rect.min), Zone::of(rect.max));
        (min.y..=max.y).flat_map(move |y| (min.x..=max.x).map(move |x| Zone { x, y }))
    }

    /// How many zones a rectangle touches.
    pub fn count_covering(rect: Rect) -> u64 {
        let (min, max) = (Zone::of(rect.min), Zone::of(rect.max));
        u64::from(max.x - min.x + 1) * u64::from(max.y - min.y + 1)
    }

    /// Whether a rectangle touches this zone.
    pub fn touches(self, rect: Rect) -> bool {
        let (min, max) = (Zone::of(rect.min), Zone::of(rect.max));
        (min.x..=max.x).contains(&self.x) && (min.y..=max.y).contains(&self.y)
    }
}

/// The pieces by owner and by zone. Every change of a piece's square or owner goes through
/// it; `World` keeps it in step with the slab.
#[derive(Clone, Debug)]
pub(super) struct PieceIndex {
    /// Each owner's pieces (neutral ones under 0), sorted by id; no empty lists.
    by_owner: FastMap<PlayerId, Vec<PieceId>>,
    /// Each zone's pieces, in no order; no empty lists.
    by_zone: FastMap<Zone, Vec<PieceId>>,
}

impl Default for PieceIndex {
    fn default() -> Self {
        PieceIndex {
            by_owner: FastMap::with_hasher(fixed_state()),
            by_zone: FastMap::with_hasher(fixed_state()),
        }
    }
}

impl PieceIndex {
    /// The index of a slab's pieces.
    pub(super) fn build(slab: &[Option<Piece>]) -> PieceIndex {
        let mut index = PieceIndex::default();
        // In id order, so each owner's list is pushed sorted.
        for piece in slab.iter().flatten() {
            index
                .by_owner
                .entry(piece.owner)
                .or_default()
                .push(piece.id);
            index
                .by_zone
                .entry(Zone::of(piece.at))
                .or_default()
                .push(piece.id);
        }
        index
    }

    pub(super) fn insert(&mut self, id: PieceId, owner: PlayerId, at: Coord) {
        insert_sorted(self.by_owner.entry(owner).or_default(), id);
        self.by_zone.entry(Zone::of(at)).or_default().push(id);
    }

    pub(super) fn remove(&mut self, id: PieceId, owner: PlayerId, at: Coord) {
        remove_sorted(&mut self.by_owner, owner, id);
        remove_unordered(&mut self.by_zone, Zone::of(at), id);
    }

    /// A piece went from `from` to `to`.
    pub(super) fn moved(&mut self, id: PieceId, from: Coord, to: Coord) {
        let (old, new) = (Zone::of(from), Zone::of(to));
        if old != new {
            remove_unordered(&mut self.by_zone, old, id);
            self.by_zone.entry(new).or_default().push(id);
        }
    }

    /// A piece changed hands.
    pub(super) fn owner_changed(&mut self, id: PieceId, old: PlayerId, new: PlayerId) {
        if old != new {
            remove_sorted(&mut self.by_owner, old, id);
            insert_sorted(self.by_owner.entry(new).or_default(), id);
        }
    }

    /// Every piece of `from` passes to `to` (an army handed over); the ids that moved, sorted.
    pub(super) fn hand_over(&mut self, from: PlayerId, to: PlayerId) -> Vec<PieceId> {
        let Some(moving) = self.by_owner.remove(&from) else {
            return Vec::new();
        };
        let kept = self.by_owner.entry(to).or_default();
        kept.extend_from_slice(&moving);
        kept.sort_unstable();
        moving
    }

    /// An owner's pieces, by id.
    pub(super) fn owned(&self, owner: PlayerId) -> &[PieceId] {
        self.by_owner.get(&owner).map_or(&[], Vec::as_slice)
    }

    /// The ids of the pieces in the zones a rectangle touches (a superset of those inside it),
    /// in no order. Walks the rectangle's zones or every occupied zone, whichever is fewer.
    pub(super) fn near(&self, rect: Rect) -> impl Iterator<Item = PieceId> + '_ {
        let walk_rect = Zone::count_covering(rect) <= self.by_zone.len() as u64;
        let by_rect = walk_rect.then(|| {
            Zone::covering(rect)
                .filter_map(|zone| self.by_zone.get(&zone))
                .flatten()
        });
        let by_zones = (!walk_rect).then(|| {
            self.by_zone
                .iter()
                .filter(move |(zone, _)| zone.touches(rect))
                .flat_map(|(_, ids)| ids)
        });
        by_rect
            .into_iter()
            .flatten()
            .chain(by_zones.into_iter().flatten())
            .copied()
    }
}

fn insert_sorted(ids: &mut Vec<PieceId>, id: PieceId) {
    // Ids are given in increasing order, so a new piece is usually last.
    match ids.last() {
        Some(&last) if last > id => {
            let at = ids.binary_search(&id).unwrap_or_else(|at| at);
            ids.insert(at, id);
        }
        _ => ids.push(id),
    }
}

fn remove_sorted(lists: &mut FastMap<PlayerId, Vec<PieceId>>, owner: PlayerId, id: PieceId) {
    if let Some(ids) = lists.get_mut(&owner) {
        if let Ok(at) = ids.binary_search(&id) {
            ids.remove(at);
        }
        if ids.is_empty() {
            lists.remove(&owner);
        }
    }
}

fn remove_unordered(lists: &mut FastMap<Zone, Vec<PieceId>>, zone: Zone, id: PieceId) {
    if let Some(ids) = lists.get_mut(&zone) {
        if let Some(at) = ids.iter().position(|&other| other == id) {
            ids.swap_remove(at);
        }
        if ids.is_empty() {
            lists.remove(&zone);
        }
    }
}
