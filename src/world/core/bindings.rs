//! Which connection plays each player, with a count of the changes, so that what was made for
//! one set of players (the next turn's windows) can tell cheaply whether it still fits.

use crate::rules::megachess::PlayerId;
use crate::world::hub::ConnectionId;
use std::collections::HashMap;
use std::ops::Deref;

/// The connection playing each player. Reads go through to the map; changes are counted.
#[derive(Default)]
pub(super) struct Bindings {
    by_player: HashMap<PlayerId, ConnectionId>,
    changes: u64,
}

impl Bindings {
    /// How many times a binding was made or undone so far.
    pub(super) fn changes(&self) -> u64 {
        self.changes
    }

    pub(super) fn insert(&mut self, player: PlayerId, conn: ConnectionId) {
        self.changes += 1;
        self.by_player.insert(player, conn);
    }

    pub(super) fn remove(&mut self, player: &PlayerId) -> Option<ConnectionId> {
        self.changes += 1;
        self.by_player.remove(player)
    }

    pub(super) fn clear(&mut self) {
        self.changes += 1;
        self.by_player.clear();
    }
}

impl Deref for Bindings {
    type Target = HashMap<PlayerId, ConnectionId>;

    fn deref(&self) -> &Self::Target {
        &self.by_player
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_change_is_counted_and_reads_see_the_map() {
        let mut bindings = Bindings::default();
        bindings.insert(7, 70);
        bindings.insert(8, 80);
        assert_eq!(bindings.get(&7), Some(&70));
        assert_eq!(bindings.len(), 2);
        let before = bindings.changes();
        assert_eq!(bindings.remove(&7), Some(70));
        assert!(bindings.changes() > before);
        let before = bindings.changes();
        bindings.clear();
        assert!(bindings.is_empty() && bindings.changes() > before);
    }
}
