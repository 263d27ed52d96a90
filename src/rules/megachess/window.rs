//! A bounded window around a player's army: what a server sends a bot, and what the planner
//! works in. Its cost depends on the pieces, never on the board's size.

use super::index::PieceIndex;
use super::{Coord, Piece, PlayerId, World};

/// A rectangle of squares, both corners included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    pub min: Coord,
    pub max: Coord,
}

impl Rect {
    pub fn contains(&self, at: Coord) -> bool {
        (self.min.x..=self.max.x).contains(&at.x) && (self.min.y..=self.max.y).contains(&at.y)
    }
}

impl World {
    /// The rectangle around `player`'s pieces grown by `margin` on every side, cut to the
    /// board; `None` when it has no pieces.
    pub fn army_rect(&self, player: PlayerId, margin: u32) -> Option<Rect> {
        let mut pieces = self.pieces_of(player);
        let first = pieces.next()?.at;
        let (mut min, mut max) = (first, first);
        for piece in pieces {
            min = Coord::new(min.x.min(piece.at.x), min.y.min(piece.at.y));
            max = Coord::new(max.x.max(piece.at.x), max.y.max(piece.at.y));
        }
        Some(Rect {
            min: Coord::new(min.x.saturating_sub(margin), min.y.saturating_sub(margin)),
            max: Coord::new(
                max.x.saturating_add(margin).min(self.params.width - 1),
                max.y.saturating_add(margin).min(self.params.height - 1),
            ),
        })
    }
    /// A world of the same size, turn and parameters holding only the pieces inside
    /// `army_rect(player, margin)`, and the players owning them (with `player` itself). Pieces
    /// keep their ids, flags and lives, and whether they moved this turn; a player's king is
    /// known only when it is in the window.
    pub fn window(&self, player: PlayerId, margin: u32) -> World {
        let mut window = self.clone_empty();
        let inside = self.window_pieces(player, margin);
        let owners = std::iter::once(player).chain(inside.iter().map(|piece| piece.owner));
        for owner in owners {
            if let Some(known) = self.players.get(&owner) {
                window.players.entry(owner).or_insert_with(|| {
                    let mut copy = known.clone();
                    copy.king = None;
                    copy
                });
            }
        }
        if let Some(last) = inside.last() {
            window.slab.resize(last.id.0 as usize + 1, None);
        }
        for &&piece in &inside {
            window.slab[piece.id.0 as usize] = Some(piece);
            window.board.insert(piece.at, piece.id);
            window.count += 1;
            if self.moved.contains(&piece.id) {
                window.moved.insert(piece.id);
            }
            if piece.kind == super::Kind::King {
                if let Some(owner) = window.players.get_mut(&piece.owner) {
                    owner.king = Some(piece.id);
                }
            }
        }
        window.index = PieceIndex::build(&window.slab);
        window
    }

    /// The pieces inside `army_rect(player, margin)`, in id order.
    pub(super) fn window_pieces(&self, player: PlayerId, margin: u32) -> Vec<&Piece> {
        match self.army_rect(player, margin) {
            Some(rect) => self.pieces_in(rect),
            None => Vec::new(),
        }
    }

    /// The same parameters, turn (and team to move) and generator with no players and no pieces.
    fn clone_empty(&self) -> World {
        let mut empty = World::new(self.params, 0);
        empty.turn = self.turn;
        empty.odd_turn_team = self.odd_turn_team;
        empty.random = self.random.clone();
        empty
    }
}
