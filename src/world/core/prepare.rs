//! The next turn, made ready while the turn that ended is being stored. From the rules' end
//! of a turn to the start of the next nothing changes the world (every request but a read
//! waits), so the windows and the views of the players to move are known already; the loop,
//! idle while the store commits, writes them then, and the turn's start only sends them. Ten
//! thousand windows and five thousand views are most of a turn start's work.

use super::ServerWorld;
use crate::rules::megachess::{PlayerId, Rect};
use rayon::prelude::*;
use std::collections::HashMap;
use std::time::Duration;

/// The windows and views of one turn, made before it began.
pub(super) struct PreparedTurn {
    /// The world's turn they were made for.
    pub(super) turn: u64,
    /// Each bound player's window (none: no pieces).
    pub(super) windows: HashMap<PlayerId, Option<Rect>>,
    /// The `turn` message of each player to move, its `deadline_ms` 0 (`view` puts the time
    /// left in when it is sent).
    views: HashMap<PlayerId, String>,
    /// The players whose window and view are still to make, the next one last.
    left: Vec<PlayerId>,
}

/// How the time left is written in a view made ahead.
const NO_DEADLINE: &str = "\"deadline_ms\":0,";

impl PreparedTurn {
    /// The view of `player` with `left` as its time left, if one was made.
    pub(super) fn view(&self, player: PlayerId, left: Duration) -> Option<String> {
        let template = self.views.get(&player)?;
        // The field comes before the position, so the first match is the field.
        let at = template.find(NO_DEADLINE)?;
        let mut text = String::with_capacity(template.len() + 8);
        text.push_str(&template[..at]);
        text.push_str(&format!("\"deadline_ms\":{},", left.as_millis()));
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
        if self
            .prepared
            .as_ref()
            .is_none_or(|prepared| prepared.turn != turn)
        {
            let mut players: Vec<PlayerId> = self.bound.keys().copied().collect();
            // Taken from the end: the lowest ids first, as the views are sent.
            players.sort_unstable_by(|a, b| b.cmp(a));
            self.prepared = Some(PreparedTurn {
                turn,
                windows: HashMap::with_capacity(players.len()),
                views: HashMap::new(),
                left: players,
            });
        }
        let margin = self.config.window_margin;
        let world = &self.world;
        let Some(prepared) = &mut self.prepared else {
            return;
        };
        let keep = prepared.left.len().saturating_sub(count);
        let batch = prepared.left.split_off(keep);
        let team = world.team_to_move();
        let made: Vec<(PlayerId, Option<Rect>, Option<String>)> = batch
            .par_iter()
            .map(|&player| {
                let window = world.army_rect(player, margin);
                let view = world
                    .player(player)
                    .is_some_and(|p| p.team == team)
                    .then(|| {
                        super::turn::turn_message_in(world, player, Duration::ZERO, margin)
                            .to_json()
                    });
                (player, window, view)
            })
            .collect();
        for (player, window, view) in made {
            prepared.windows.insert(player, window);
            if let Some(view) = view {
                prepared.views.insert(player, view);
            }
        }
    }

    /// Whether the next turn's windows and views are all made.
    pub fn prepared(&self) -> bool {
        self.prepared
            .as_ref()
            .is_some_and(|prepared| prepared.turn == self.world.turn() && prepared.left.is_empty())
    }

    /// Forgets what was made ahead: the world changed.
    pub(super) fn unprepare(&mut self) {
        self.prepared = None;
    }
}
