//! The start and end of turns: who is told what when a turn begins, when a simulated turn is
//! over, and the end of a turn (the rules' fading, survival points and bonus piece), its log,
//! its commit to the store, and the news to every connection.

use super::moves::piece_report;
use super::{Role, ServerWorld};
use crate::rules::megachess::{Coord, PlayerId};
use crate::world::api::{PieceReport, ServerMessage};
use crate::world::events::{Event, LogEntry};
use crate::world::hub::ConnectionId;
use crate::world::store::TurnCommit;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a completed turn was, for the loop's standings and log file, and the news of it.
pub struct EndedTurn {
    pub turn: u64,
    /// The turn's log, in order.
    pub log: Vec<LogEntry>,
    faded: Vec<PieceReport>,
    bonus: Option<PieceReport>,
    /// How long the rules' turn end took, and the store's commit.
    pub rules_time: Duration,
    pub store_time: Duration,
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

    /// When the turn in progress must end.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Starts the turn the world is at: every connection hears of it, the team to move with
    /// its view.
    pub fn start_turn(&mut self, now: Instant) {
        self.turn_began = now;
        self.deadline = Some(now + Duration::from_millis(self.world.params().turn_ms));
        self.answered.clear();
        let margin = self.config.window_margin;
        self.interest.clear();
        for &player in self.bound.keys() {
            if let Some(rect) = self.world.army_rect(player, margin) {
                self.interest.set(player, rect);
            }
        }
        // Everyone but the players to move hears the same words: written once, shared.
        let watching: Arc<str> = self.turn_message(0).to_json().into();
        let receivers = self.roles();
        for (conn, role) in receivers {
            match role {
                Role::Player(player) if self.bound.get(&player) == Some(&conn) => {
                    if self.moves_now(player) {
                        let message = self.turn_message(player);
                        self.send(conn, &message);
                    } else {
                        self.send_text(conn, Arc::clone(&watching));
                    }
                }
                Role::Spectator => self.send_text(conn, Arc::clone(&watching)),
                _ => {}
            }
        }
    }

    /// Whether the player's team moves in the turn in progress.
    fn moves_now(&self, player: PlayerId) -> bool {
        let team = self.world.team_to_move();
        self.world.player(player).is_some_and(|p| p.team == team)
    }

    /// The `turn` message for a player (its view when its team moves), or for a spectator
    /// (`player` 0).
    pub(super) fn turn_message(&self, player: PlayerId) -> ServerMessage {
        let team = self.world.team_to_move();
        let moves = self.moves_now(player);
        let left = self.deadline.map_or(Duration::ZERO, |deadline| {
            deadline.saturating_duration_since(Instant::now())
        });
        ServerMessage::Turn {
            turn: self.world.turn(),
            team: team.name().to_string(),
            you_move: moves,
            deadline_ms: left.as_millis() as u64,
            position: moves.then(|| {
                self.world
                    .position_line(player, Some(self.config.window_margin))
            }),
        }
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

    /// Ends the turn: the rules' turn end, the log, one transaction in the store. The news
    /// goes out with [`ServerWorld::tell_turn_end`]; the next turn is not started yet.
    pub fn end_turn(&mut self) -> Result<EndedTurn, String> {
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
        let rows: Vec<_> = self.rows.values().cloned().collect();
        let snapshot = self.world.snapshot();
        let rules_time = began.elapsed();
        let began = Instant::now();
        let commit = TurnCommit {
            turn: ended.turn,
            world: &snapshot,
            players: &rows,
            events: &self.log,
            server: self.server,
        };
        let stored = self
            .store
            .commit_turn(&commit)
            .map_err(|error| error.to_string());
        let log = std::mem::take(&mut self.log);
        self.deadline = None;
        stored?;
        // The network side's reads see the turn once it is stored, and before anyone hears
        // of its end; the snapshot is the commit's own, not a copy.
        self.published.publish(self.turn_view(snapshot));
        Ok(EndedTurn {
            turn: ended.turn,
            log,
            faded,
            bonus,
            rules_time,
            store_time: began.elapsed(),
        })
    }

    fn push_ended(&mut self, turn: u64, event: Event) {
        let ms = self.turn_began.elapsed().as_millis() as u64;
        self.log.push(LogEntry { turn, ms, event });
    }

    /// `turn_end` to every connection: the faded pieces in its view, the bonus, its score.
    pub fn tell_turn_end(&mut self, ended: &EndedTurn) {
        let (turn, faded, bonus) = (ended.turn, &ended.faded, &ended.bonus);
        // Which faded pieces each player sees (its own, and those in its window), found from
        // the pieces' zones rather than by a walk over every piece for every player.
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
        let receivers = self.roles();
        for (conn, role) in receivers {
            let (seen, score) = match role {
                Role::Spectator => (faded.to_vec(), None),
                Role::Player(player) => {
                    let seen = seen_by.get(&player).map_or_else(Vec::new, |indices| {
                        indices.iter().map(|&index| faded[index].clone()).collect()
                    });
                    (seen, self.rows.get(&player).map(|row| row.score))
                }
                Role::Nobody => continue,
            };
            let message = ServerMessage::TurnEnd {
                turn,
                faded: seen,
                bonus: bonus.clone(),
                score,
            };
            self.send(conn, &message);
        }
    }

    /// Every connection with its role, to send to while changing the world.
    fn roles(&self) -> Vec<(ConnectionId, Role)> {
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
