//! Interest management: each live player's window (the rectangle around its army that it is
//! shown), and for each zone of the board the players whose windows touch it. A move is then
//! told to the players subscribed to the zones of its two squares, found in a few lookups,
//! instead of by a walk over every connection: the cost of a move grows with the players near
//! it, not with the players in the world.

use crate::rules::megachess::{Coord, PlayerId, Rect, Zone};
use ahash::AHashMap;

/// A window touching more zones than this is not subscribed zone by zone (a scattered army
/// would cost thousands of entries): its player is checked against every move instead.
const MAX_ZONES: u64 = 64;

/// The windows and who watches each zone.
#[derive(Default)]
pub(super) struct Interest {
    windows: AHashMap<PlayerId, Rect>,
    /// The players whose (narrow) windows touch each zone; no empty lists.
    by_zone: AHashMap<Zone, Vec<PlayerId>>,
    /// The players whose windows touch more than `MAX_ZONES` zones.
    wide: Vec<PlayerId>,
}

impl Interest {
    /// Forgets every window (a new turn recomputes them all).
    pub(super) fn clear(&mut self) {
        self.windows.clear();
        self.by_zone.clear();
        self.wide.clear();
    }

    /// The player's window from now on.
    pub(super) fn set(&mut self, player: PlayerId, rect: Rect) {
        self.remove(player);
        self.windows.insert(player, rect);
        if Zone::count_covering(rect) > MAX_ZONES {
            self.wide.push(player);
        } else {
            for zone in Zone::covering(rect) {
                self.by_zone.entry(zone).or_default().push(player);
            }
        }
    }

    /// The player's window, if it has one.
    #[cfg(test)]
    pub(super) fn window(&self, player: PlayerId) -> Option<Rect> {
        self.windows.get(&player).copied()
    }

    /// The player sees nothing any more (its king was taken).
    pub(super) fn remove(&mut self, player: PlayerId) {
        let Some(rect) = self.windows.remove(&player) else {
            return;
        };
        if Zone::count_covering(rect) > MAX_ZONES {
            self.wide.retain(|&other| other != player);
            return;
        }
        for zone in Zone::covering(rect) {
            if let Some(players) = self.by_zone.get_mut(&zone) {
                players.retain(|&other| other != player);
                if players.is_empty() {
                    self.by_zone.remove(&zone);
                }
            }
        }
    }

    /// The players whose windows hold one of `squares`, each once, in id order.
    pub(super) fn watchers(&self, squares: &[Coord]) -> Vec<PlayerId> {
        let sees = |player: &PlayerId| {
            self.windows
                .get(player)
                .is_some_and(|rect| squares.iter().any(|&at| rect.contains(at)))
        };
        let mut found: Vec<PlayerId> = squares
            .iter()
            .filter_map(|&at| self.by_zone.get(&Zone::of(at)))
            .flatten()
            .chain(&self.wide)
            .copied()
            .filter(sees)
            .collect();
        found.sort_unstable();
        found.dedup();
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x0: u32, y0: u32, x1: u32, y1: u32) -> Rect {
        Rect {
            min: Coord::new(x0, y0),
            max: Coord::new(x1, y1),
        }
    }

    #[test]
    fn a_move_is_seen_by_the_windows_holding_either_square_and_no_other() {
        let mut interest = Interest::default();
        interest.set(1, rect(0, 0, 40, 40));
        interest.set(2, rect(30, 30, 70, 70));
        interest.set(3, rect(200, 200, 220, 220));
        // Wide: 4096 squares across is far more than MAX_ZONES zones.
        interest.set(4, rect(0, 0, 4095, 4095));
        interest.set(5, rect(35, 0, 39, 5));
        fn seen(interest: &Interest, from: (u32, u32), to: (u32, u32)) -> Vec<PlayerId> {
            interest.watchers(&[Coord::new(from.0, from.1), Coord::new(to.0, to.1)])
        }
        assert_eq!(seen(&interest, (35, 35), (36, 36)), vec![1, 2, 4]);
        // Same zone as player 5's window, but outside it.
        assert_eq!(seen(&interest, (38, 10), (38, 12)), vec![1, 4]);
        assert_eq!(seen(&interest, (38, 10), (38, 3)), vec![1, 4, 5]);
        assert_eq!(seen(&interest, (100, 100), (210, 210)), vec![3, 4]);
        assert_eq!(seen(&interest, (4000, 4000), (4001, 4001)), vec![4]);
        interest.set(2, rect(100, 100, 110, 110));
        interest.remove(4);
        assert_eq!(seen(&interest, (35, 35), (36, 36)), vec![1]);
        assert_eq!(seen(&interest, (100, 100), (0, 0)), vec![1, 2]);
        interest.clear();
        assert!(seen(&interest, (35, 35), (100, 100)).is_empty());
    }
}
