//! The start and end of turns: who is told what when a turn begins, when a simulated turn is
//! over, and the end of a turn (the rules' fading, survival points and bonus piece), its log,
//! its commit to the store, and the news to every connection.

use super::moves::piece_report;
use super::{Role, ServerWorld};
use crate::rules::megachess::WorldSnapshot;
use crate::rules::megachess::{PlayerId, World};
use crate::world::api::{PieceReport, ServerMessage};
use crate::world::events::{Event, LogEntry};
use crate::world::hub::{ConnectionId, Deliveries};
use crate::world::store::writer::TurnToStore;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a completed turn was, for the loop's standings and log file, and the news of it.
pub struct EndedTurn {
    pub turn: u64,
    /// The turn's log, in order.
    pub log: Arc<Vec<LogEntry>>,
    faded: Vec<PieceReport>,
    bonus: Option<PieceReport>,
    /// How long the rules' turn end took (the snapshot included), and the store's commit (on
    /// the store's thread).
    pub rules_time: Duration,
    pub store_time: Duration,
}

impl EndedTurn {
    /// The pieces that faded at the turn's end.
    pub fn faded(&self) -> &[PieceReport] {
        &self.faded
    }
    /// The bonus piece placed at the turn's end.
    pub fn bonus(&self) -> Option<&PieceReport> {
        self.bonus.as_ref()
    }
}

/// A turn the rules have ended, handed to the store and not yet stored.
pub(super) struct PendingTurn {
    ended: EndedTurn,
    snapshot: Arc<WorldSnapshot>,
}

/// A team's numbers for the standings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TeamStanding {
    pub score: i64,
    pub players: usize,
    pub pieces: usize,
    /// Kings its players have taken, over the world's whole life.
    pub kings_taken: u32,
}

impl ServerWorld {
    /// Whether a turn is under way (turns start once, then run for good).
    pub fn running(&self) -> bool {
        self.deadline.is_some()
    }

    /// When the turn in progress (or the last one) began.
    pub fn turn_began(&self) -> Instant {
        self.turn_began
    }

    /// When the turn in progress must end.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Starts the turn the world is at: every connection hears of it, the team to move with
    /// its view.
    pub fn start_turn(&mut self, now: Instant) {
        self.begin_turn(now);
        self.tell_movers(usize::MAX);
    }

    /// Starts the turn as [`ServerWorld::start_turn`] does, but tells the players to move only
    /// as [`ServerWorld::tell_movers`] is called (or before a move they see): the turn loop's
    /// way, so that ten thousand views are never written in one go.
    pub fn begin_turn(&mut self, now: Instant) {
        self.turn_began = now;
        self.deadline = Some(now + Duration::from_millis(self.world.params().turn_ms));
        self.answered.clear();
        // Every window is fixed now, before any move of the turn can arrive: made while the
        // last turn was being stored, for the players bound then, or else now.
        let margin = self.config.window_margin;
        let made = self.windows_made();
        match self.prepared.as_mut().filter(|_| made) {
            Some(prepared) => std::mem::swap(&mut self.interest, &mut prepared.interest),
            None => {
                self.interest.clear();
                let world = &self.world;
                let some_made = self
                    .prepared
                    .as_ref()
                    .filter(|prepared| prepared.turn == world.turn())
                    .map(|prepared| &prepared.windows);
                let players: Vec<PlayerId> = self.bound.keys().copied().collect();
                let rects: Vec<_> = players
                    .par_iter()
                    .map(
                        |&player| match some_made.and_then(|windows| windows.get(&player)) {
                            Some(&rect) => rect,
                            None => world.army_rect(player, margin),
                        },
                    )
                    .collect();
                for (player, rect) in players.into_iter().zip(rects) {
                    if let Some(rect) = rect {
                        self.interest.set(player, rect);
                    }
                }
            }
        }
        // Everyone but the players to move hears the same words, written once and shared:
        // spectators now. The players to move each get their own view, written a batch at a
        // time between requests (`tell_movers`), or at once before any move they would see.
        // A connection still to hear of the last turn's end hears of this one right after it
        // (`announce_some`), in the same write.
        let watching: Arc<str> = self.turn_message(0).to_json().into();
        let hearing_end = self.hearing_end();
        self.deliveries = Deliveries::default();
        self.untold.clear();
        for (conn, role) in self.roles() {
            match role {
                Role::Player(player) if self.bound.get(&player) == Some(&conn) => {
                    self.untold.insert(player, conn);
                }
                Role::Spectator if !hearing_end.contains(&conn) => {
                    self.send_turn_text(conn, Arc::clone(&watching))
                }
                _ => {}
            }
        }
        self.watching = Some(watching);
    }

    /// Whether every `turn` message of the turn in progress that was sent has been written to
    /// its connection (or dropped with it).
    pub fn turn_delivered(&self) -> bool {
        self.deliveries.pending() == 0
    }

    /// Whether players have not been sent their `turn` yet.
    pub fn telling(&self) -> bool {
        !self.untold.is_empty()
    }

    /// Sends up to `count` players their `turn`: the players to move their views, written on
    /// every core at once; the others the words everyone shares.
    pub fn tell_movers(&mut self, count: usize) {
        let batch: Vec<(PlayerId, ConnectionId)> = self
            .untold
            .iter()
            .take(count)
            .map(|(&player, &conn)| (player, conn))
            .collect();
        self.tell(batch);
    }

    /// Sends the players among `players` that have not been told of the turn their `turn`,
    /// before a move they will see is made: so each view is the world as the turn began,
    /// and every player hears of the turn before any news of it.
    pub(super) fn tell_first(&mut self, players: &[PlayerId]) {
        if self.untold.is_empty() {
            return;
        }
        let batch: Vec<(PlayerId, ConnectionId)> = players
            .iter()
            .filter_map(|player| Some((*player, *self.untold.get(player)?)))
            .collect();
        self.tell(batch);
    }

    fn tell(&mut self, batch: Vec<(PlayerId, ConnectionId)>) {
        let views = self.turn_texts(&batch);
        for ((player, conn), text) in batch.into_iter().zip(views) {
            self.untold.remove(&player);
            self.send_turn_text(conn, text);
        }
        self.spend_if_told();
    }

    /// The `turn` messages of `batch`, written on every core at once: the players to move
    /// their views, the others the words everyone shares.
    pub(super) fn turn_texts(&self, batch: &[(PlayerId, ConnectionId)]) -> Vec<Arc<str>> {
        let left = self.time_left();
        let (world, margin) = (&self.world, self.config.window_margin);
        let watching = &self.watching;
        let team = world.team_to_move();
        let prepared = self
            .prepared
            .as_ref()
            .filter(|prepared| prepared.turn == world.turn());
        batch
            .par_iter()
            .map(|&(player, _)| match watching {
                Some(text) if world.player(player).is_none_or(|p| p.team != team) => {
                    Arc::clone(text)
                }
                _ => match prepared.and_then(|prepared| prepared.view(player, left)) {
                    Some(view) => view.into(),
                    None => turn_message_in(world, player, left, margin)
                        .to_json()
                        .into(),
                },
            })
            .collect()
    }

    /// Once everyone has been told of the turn, what was made ahead for it is spent: set aside
    /// until [`ServerWorld::forget_spent`].
    pub(super) fn spend_if_told(&mut self) {
        if self.untold.is_empty() {
            if let Some(spent) = self.prepared.take() {
                self.spent = Some(spent);
            }
        }
    }

    /// Frees what the turn in progress was made from (once its messages are written).
    pub fn forget_spent(&mut self) {
        self.spent = None;
    }

    /// How long the turn in progress has left.
    fn time_left(&self) -> Duration {
        self.deadline.map_or(Duration::ZERO, |deadline| {
            deadline.saturating_duration_since(Instant::now())
        })
    }

    /// The `turn` message for a player (its view when its team moves), or for a spectator
    /// (`player` 0).
    pub(super) fn turn_message(&self, player: PlayerId) -> ServerMessage {
        turn_message_in(
            &self.world,
            player,
            self.time_left(),
            self.config.window_margin,
        )
    }

    /// Whether the turn is over: at its deadline; simulated, also as soon as every connected,
    /// present, live player of the team to move has answered.
    pub fn turn_over(&self, now: Instant) -> bool {
        let Some(deadline) = self.deadline else {
            return false;
        };
        if now >= deadline {
            return true;
        }
        // With nobody connected there is nobody to wait for and no reason to hurry: the turn
        // lasts its turn_ms, as on the wall clock, instead of racing through empty turns.
        self.config.simulate && !self.bound.is_empty() && {
            let team = self.world.team_to_move();
            self.bound.keys().all(|&player| {
                let waiting = self
                    .world
                    .player(player)
                    .is_some_and(|p| p.team == team && p.present);
                !waiting || self.answered.contains(&player)
            })
        }
    }

    /// Ends the turn and waits until it is stored: [`ServerWorld::begin_end_turn`], then
    /// [`ServerWorld::turn_stored`] (for callers with nothing else to do meanwhile).
    pub fn end_turn(&mut self) -> Result<EndedTurn, String> {
        self.begin_end_turn()?;
        loop {
            if let Some(stored) = self.turn_stored(Duration::from_secs(60)) {
                return stored;
            }
        }
    }

    /// Ends the turn by the rules (fading, survival points, the bonus piece), logs it and hands
    /// it to the store's thread. Nobody hears of its end, and the next turn does not start,
    /// until [`ServerWorld::turn_stored`] gives it back.
    pub fn begin_end_turn(&mut self) -> Result<(), String> {
        let began = Instant::now();
        let ended = self.world.end_turn();
        let faded: Vec<PieceReport> = ended
            .faded
            .iter()
            .map(|f| piece_report(f.id.0, f.owner, f.kind.letter(), f.at))
            .collect();
        let bonus = ended
            .bonus
            .map(|(id, kind, at)| piece_report(id.0, 0, kind.letter(), at));
        if !faded.is_empty() {
            // Logged in the turn that ended (the world already counts the next one).
            self.push_ended(
                ended.turn,
                Event::Faded {
                    pieces: faded.clone(),
                },
            );
        }
        if let Some(piece) = &bonus {
            self.push_ended(
                ended.turn,
                Event::Bonus {
                    piece: piece.clone(),
                },
            );
        }
        for player in self.world.players() {
            if let Some(row) = self.rows.get_mut(&player.id) {
                row.score = player.score;
            }
        }
        let scores: BTreeMap<PlayerId, i64> =
            self.rows.values().map(|row| (row.id, row.score)).collect();
        self.push_ended(ended.turn, Event::TurnEnd { scores });
        let snapshot = Arc::new(self.world.snapshot());
        let log = Arc::new(std::mem::take(&mut self.log));
        let to_store = TurnToStore {
            turn: ended.turn,
            world: Arc::clone(&snapshot),
            players: self.rows.values().cloned().collect(),
            events: Arc::clone(&log),
            server: self.server,
        };
        self.deadline = None;
        self.untold.clear();
        self.store.store_turn(to_store)?;
        let ended = EndedTurn {
            turn: ended.turn,
            log,
            faded,
            bonus,
            rules_time: began.elapsed(),
            store_time: Duration::ZERO,
        };
        // Nothing a connection hears of changes until the turn is stored (every request but a
        // read waits): its end can be written meanwhile.
        self.announce_later(&ended);
        self.pending = Some(PendingTurn { ended, snapshot });
        Ok(())
    }

    /// Whether a turn that ended is being stored.
    pub fn storing(&self) -> bool {
        self.pending.is_some()
    }

    /// The turn that was being stored, once it is (waiting at most `wait`): the network side's
    /// reads see it from now on. `None` while it is still being stored; an error if the store
    /// failed.
    pub fn turn_stored(&mut self, wait: Duration) -> Option<Result<EndedTurn, String>> {
        self.pending.as_ref()?;
        let stored = self.store.committed(wait)?;
        let PendingTurn {
            mut ended,
            snapshot,
        } = self.pending.take()?;
        if let Err(error) = stored.result {
            return Some(Err(error.to_string()));
        }
        ended.store_time = stored.took;
        // The network side's reads see the turn once it is stored, and before anyone hears
        // of its end; the snapshot is the commit's own, not a copy.
        self.published.publish(self.turn_view(snapshot));
        Some(Ok(ended))
    }

    fn push_ended(&mut self, turn: u64, event: Event) {
        let ms = self.turn_began.elapsed().as_millis() as u64;
        self.log.push(LogEntry { turn, ms, event });
    }

    /// Every connection with its role, to send to while changing the world.
    pub(super) fn roles(&self) -> Vec<(ConnectionId, Role)> {
        self.connections
            .iter()
            .map(|(&conn, connection)| (conn, connection.role))
            .collect()
    }

    /// `closing` to every connection, then every connection dropped.
    pub fn close_all(&mut self, reason: &str) {
        let message = ServerMessage::Closing {
            turn: self.world.turn(),
            reason: reason.to_string(),
        };
        let conns: Vec<ConnectionId> = self.connections.keys().copied().collect();
        for conn in conns {
            self.send(conn, &message);
        }
        self.connections.clear();
        self.bound.clear();
    }

    /// Each team's score, players, pieces and kings taken.
    pub fn standings(&self) -> [TeamStanding; 2] {
        let mut teams = [TeamStanding::default(); 2];
        for player in self.world.players() {
            let team = &mut teams[player.team as usize];
            team.players += 1;
            team.score += player.score;
        }
        for piece in self.world.pieces() {
            if let Some(player) = self.world.player(piece.owner) {
                teams[player.team as usize].pieces += 1;
            }
        }
        for row in self.rows.values() {
            teams[row.team as usize].kings_taken += row.kings_taken;
        }
        teams
    }

    /// The best `count` players by score: name and score.
    pub fn leaders(&self, count: usize) -> Vec<(String, i64)> {
        let mut rows: Vec<_> = self.rows.values().collect();
        rows.sort_by_key(|row| (-row.score, row.id));
        rows.iter()
            .take(count)
            .map(|row| (row.name.clone(), row.score))
            .collect()
    }
}

/// The `turn` message for `player` of `world` (its view, grown by `margin`, when its team
/// moves), with `left` of the turn to go.
pub(super) fn turn_message_in(
    world: &World,
    player: PlayerId,
    left: Duration,
    margin: u32,
) -> ServerMessage {
    let team = world.team_to_move();
    let moves = world.player(player).is_some_and(|p| p.team == team);
    ServerMessage::Turn {
        turn: world.turn(),
        team: team.name().to_string(),
        you_move: moves,
        deadline_ms: left.as_millis() as u64,
        position: moves.then(|| world.position_line(player, Some(margin))),
    }
}
