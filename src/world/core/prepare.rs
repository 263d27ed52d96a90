//! The next turn, made ready while the turn that ended is being stored. From the rules' end
//! of a turn to the start of the next nothing changes the world (every request but a read
//! waits), so the windows and the views of the players to move are known already; the loop,
//! idle while the store commits, writes them then, and the turn's start only sends them. Ten
//! thousand windows and five thousand views are most of a turn start's work.

use super::interest::Interest;
use super::ServerWorld;
use crate::rules::megachess::{PlayerId, Rect};
use rayon::prelude::*;
use std::collections::HashMap;
use std::time::Duration;

/// The windows and views of one turn, made before it began.
pub(super) struct PreparedTurn {
    /// The world's turn they were made for.
    pub(super) turn: u64,
    /// Each bound player's window (none: no pieces), and who watches each zone through them.
    pub(super) windows: HashMap<PlayerId, Option<Rect>>,
    pub(super) interest: Interest,
    /// The `turn` message of each player to move (`view` puts the time left in when it is sent).
    views: HashMap<PlayerId, ViewTemplate>,
    /// The players whose window and view are still to make, the next one last.
    left: Vec<PlayerId>,
    /// The players' bindings they were made for ([`super::bindings::Bindings::changes`]).
    bindings: u64,
}

/// A `turn` message made ahead, its `deadline_ms` 0, and where that field begins.
struct ViewTemplate {
    text: String,
    deadline_at: usize,
}

/// How the time left is written in a view made ahead.
const NO_DEADLINE: &str = "\"deadline_ms\":0,";

impl PreparedTurn {
    /// The view of `player` with `left` as its time left, if one was made.
    pub(super) fn view(&self, player: PlayerId, left: Duration) -> Option<String> {
        use std::fmt::Write;
        let ViewTemplate {
            text: template,
            deadline_at: at,
        } = self.views.get(&player)?;
        let mut text = String::with_capacity(template.len() + 8);
        text.push_str(&template[..*at]);
        let _ = write!(text, "\"deadline_ms\":{},", left.as_millis());
        text.push_str(&template[at + NO_DEADLINE.len()..]);
        Some(text)
    }
}

impl ServerWorld {
    /// Makes up to `count` more of the next turn's windows and views (once a turn has ended
    /// and before the next begins), a batch at a time so that reads are still answered in
    /// between; [`ServerWorld::prepared`] says when all are made.
    pub fn prepare_some(&mut self, count: usize) {
        let turn = self.world.turn();
        // Made afresh for a new turn, or if players were bound or let go meanwhile (requests
        // wait while a turn is stored, so this is for safety, not speed).
        let bindings = self.bound.changes();
        if self
            .prepared
            .as_ref()
            .is_none_or(|prepared| prepared.turn != turn || prepared.bindings != bindings)
        {
            let mut players: Vec<PlayerId> = self.bound.keys().copied().collect();
            // Taken from the end: the lowest ids first, as the views are sent.
            players.sort_unstable_by(|a, b| b.cmp(a));
            self.prepared = Some(PreparedTurn {
                turn,
                windows: HashMap::with_capacity(players.len()),
                interest: Interest::default(),
                views: HashMap::new(),
                left: players,
                bindings,
            });
        }
        let margin = self.config.window_margin;
        let world = &self.world;
        let Some(prepared) = &mut self.prepared else {
            return;
        };
        if prepared.left.is_empty() {
            self.make_ends(count);
            return;
        }
        let keep = prepared.left.len().saturating_sub(count);
        let batch = prepared.left.split_off(keep);
        let team = world.team_to_move();
        let made: Vec<(PlayerId, Option<Rect>, Option<ViewTemplate>)> = batch
            .par_iter()
            .map(|&player| {
                let window = world.army_rect(player, margin);
                let view = world
                    .player(player)
                    .is_some_and(|p| p.team == team)
                    .then(|| {
                        super::turn::turn_message_in(world, player, Duration::ZERO, margin)
                            .to_json()
                    })
                    // The field comes before the position, so the first match is the field.
                    .and_then(|text| {
                        let deadline_at = text.find(NO_DEADLINE)?;
                        Some(ViewTemplate { text, deadline_at })
                    });
                (player, window, view)
            })
            .collect();
        for (player, window, view) in made {
            prepared.windows.insert(player, window);
            if let Some(rect) = window {
                prepared.interest.set(player, rect);
            }
            if let Some(view) = view {
                prepared.views.insert(player, view);
            }
        }
    }

    /// Whether the next turn's windows and views, and the last turn's `turn_end` texts, are all
    /// made.
    pub fn prepared(&self) -> bool {
        self.windows_made() && self.ends_made()
    }

    /// The next turn's windows, once they are all made for the players bound now (nobody
    /// joins or leaves while a turn is stored, but a turn's start checks).
    pub(super) fn windows_made(&self) -> bool {
        self.prepared.as_ref().is_some_and(|prepared| {
            prepared.turn == self.world.turn()
                && prepared.left.is_empty()
                && prepared.bindings == self.bound.changes()
        })
    }

    /// Forgets what was made ahead: the world changed.
    pub(super) fn unprepare(&mut self) {
        self.prepared = None;
    }
}
