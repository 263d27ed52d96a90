//! The end of a turn told to every connection (`turn_end`: the faded pieces it saw, the bonus,
//! its score), a batch at a time between the loop's other work, so that ten thousand messages
//! never hold the loop in one go. The texts are written while the turn is being stored (the
//! loop is idle then), each batch on every core at once, so that the next turn's start only
//! sends them.

use super::{PlayerRow, Role, ServerWorld};
use crate::rules::megachess::{Coord, PlayerId};
use crate::world::api::{PieceReport, ServerMessage};
use crate::world::hub::ConnectionId;
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use super::turn::EndedTurn;

/// A turn's end, being told.
pub(super) struct Announcement {
    turn: u64,
    faded: Vec<PieceReport>,
    bonus: Option<PieceReport>,
    /// The faded pieces (by index) each player sees: its own and those in its window.
    seen_by: HashMap<PlayerId, Vec<usize>>,
    /// The connections still to tell (the last first), and their `turn_end` texts where made
    /// ahead: those of `receivers[unmade..]`.
    receivers: Vec<(ConnectionId, Role)>,
    ends: Vec<Option<Arc<str>>>,
    unmade: usize,
}

impl Announcement {
    /// The `turn_end` message of a connection with `role`.
    fn end_text(&self, role: Role, rows: &BTreeMap<PlayerId, PlayerRow>) -> Arc<str> {
        let (faded, score) = match role {
            Role::Player(player) => (
                self.seen_by.get(&player).map_or_else(Vec::new, |indices| {
                    indices
                        .iter()
                        .map(|&index| self.faded[index].clone())
                        .collect()
                }),
                rows.get(&player).map(|row| row.score),
            ),
            _ => (self.faded.clone(), None),
        };
        let message = ServerMessage::TurnEnd {
            turn: self.turn,
            faded,
            bonus: self.bonus.clone(),
            score,
        };
        message.to_json().into()
    }
}

impl ServerWorld {
    /// `turn_end` to every connection at once.
    pub fn tell_turn_end(&mut self, ended: &EndedTurn) {
        self.announce(ended);
        self.announce_some(usize::MAX);
    }

    /// Begins telling every connection of the turn's end ([`ServerWorld::announce_some`]),
    /// with the texts made while it was stored.
    pub fn announce(&mut self, ended: &EndedTurn) {
        let made = self
            .next_announcement
            .take()
            .filter(|made| made.turn == ended.turn);
        self.announcement = Some(made.unwrap_or_else(|| self.announcement_of(ended)));
    }

    /// The turn that ended is told once it is stored; meanwhile its texts are made
    /// ([`ServerWorld::make_ends`]).
    pub(super) fn announce_later(&mut self, ended: &EndedTurn) {
        self.next_announcement = Some(self.announcement_of(ended));
    }

    /// Makes up to `count` more `turn_end` texts of the turn being stored.
    pub(super) fn make_ends(&mut self, count: usize) {
        let Some(announcement) = &mut self.next_announcement else {
            return;
        };
        let from = announcement.unmade.saturating_sub(count);
        let made: Vec<Arc<str>> = {
            let announcement = &*announcement;
            announcement.receivers[from..announcement.unmade]
                .par_iter()
                .map(|&(_, role)| announcement.end_text(role, &self.rows))
                .collect()
        };
        for (slot, text) in announcement.ends[from..].iter_mut().zip(made) {
            *slot = Some(text);
        }
        announcement.unmade = from;
    }

    /// Whether every `turn_end` text of the turn being stored is made.
    pub(super) fn ends_made(&self) -> bool {
        self.next_announcement
            .as_ref()
            .is_none_or(|announcement| announcement.unmade == 0)
    }

    /// Each connection's `turn_end` of `ended` made from the world as it stands.
    #[cfg(test)]
    pub(super) fn end_texts_now(&self, ended: &EndedTurn) -> HashMap<ConnectionId, Arc<str>> {
        let fresh = self.announcement_of(ended);
        fresh
            .receivers
            .iter()
            .map(|&(conn, role)| (conn, fresh.end_text(role, &self.rows)))
            .collect()
    }

    fn announcement_of(&self, ended: &EndedTurn) -> Announcement {
        let faded = ended.faded().to_vec();
        // Found from the pieces' zones rather than by a walk over every piece for every player.
        let mut seen_by: HashMap<PlayerId, Vec<usize>> = HashMap::new();
        for (index, piece) in faded.iter().enumerate() {
            let mut players = match Coord::parse(&piece.at) {
                Ok(at) => self.interest.watchers(&[at]),
                Err(_) => Vec::new(),
            };
            if !players.contains(&piece.owner) {
                players.push(piece.owner);
            }
            for player in players {
                seen_by.entry(player).or_default().push(index);
            }
        }
        let mut receivers = self.roles();
        receivers.retain(|(_, role)| *role != Role::Nobody);
        Announcement {
            turn: ended.turn,
            faded,
            bonus: ended.bonus().cloned(),
            seen_by,
            ends: vec![None; receivers.len()],
            unmade: receivers.len(),
            receivers,
        }
    }

    /// Whether connections have yet to hear of the last turn's end.
    pub fn announcing(&self) -> bool {
        self.announcement.is_some()
    }

    /// The spectators still to hear of the last turn's end.
    pub(super) fn hearing_end(&self) -> HashSet<ConnectionId> {
        self.announcement
            .as_ref()
            .map_or_else(HashSet::new, |announcement| {
                announcement
                    .receivers
                    .iter()
                    .filter(|(_, role)| *role == Role::Spectator)
                    .map(|&(conn, _)| conn)
                    .collect()
            })
    }

    /// Tells up to `count` more connections of the turn's end; if the next turn has begun
    /// meanwhile, each of them hears of it right after, so that one write carries both.
    pub fn announce_some(&mut self, count: usize) {
        let Some(announcement) = &mut self.announcement else {
            return;
        };
        let keep = announcement.receivers.len().saturating_sub(count);
        let batch = announcement.receivers.split_off(keep);
        let made = announcement.ends.split_off(keep);
        announcement.unmade = announcement.unmade.min(keep);
        let announcement = &*announcement;
        let rows = &self.rows;
        let ends: Vec<Arc<str>> = batch
            .par_iter()
            .zip(made)
            .map(|(&(_, role), made)| made.unwrap_or_else(|| announcement.end_text(role, rows)))
            .collect();
        if announcement.receivers.is_empty() {
            self.announcement = None;
        }
        // The players of the batch still to hear of the turn that began (none before it has).
        let told: Vec<(PlayerId, ConnectionId)> = batch
            .iter()
            .filter_map(|&(conn, role)| match role {
                Role::Player(player) if self.untold.get(&player) == Some(&conn) => {
                    Some((player, conn))
                }
                _ => None,
            })
            .collect();
        let turns = self.turn_texts(&told);
        let mut turns = told.into_iter().zip(turns).peekable();
        let watching = self.running().then(|| self.watching.clone()).flatten();
        for ((conn, role), end) in batch.into_iter().zip(ends) {
            if let Some(((player, _), text)) = turns.next_if(|((_, to), _)| *to == conn) {
                self.untold.remove(&player);
                self.send_end_and_turn(conn, end, text);
            } else if let (Role::Spectator, Some(watching)) = (role, &watching) {
                self.send_end_and_turn(conn, end, Arc::clone(watching));
            } else {
                self.send_text(conn, end);
            }
        }
        if self.running() {
            self.spend_if_told();
        }
    }
}
