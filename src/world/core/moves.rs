//! Messages from a connection, and the moves among them: one at a time or a whole turn, each
//! applied by the rules the moment it arrives, answered, logged, and shown as a delta to the
//! players who see either of its squares and to every spectator.

use super::ServerWorld;
use crate::rules::megachess::{Coord, Move, MoveEffects, PlayerId, World};
use crate::world::api::{ClientMessage, MoveReport, MoveResult, PieceReport, ServerMessage};
use crate::world::events::Event;
use crate::world::hub::ConnectionId;
use std::sync::Arc;

/// A `turn` may hold this many moves beyond the player's pieces; the rest are refused at once.
const EXTRA_MOVES: usize = 64;
/// A move text is kept in answers and the log up to this many characters.
const TEXT_KEPT: usize = 64;

/// A piece of the world as messages name it.
pub(crate) fn piece_report(id: u32, owner: PlayerId, kind: char, at: Coord) -> PieceReport {
    PieceReport {
        id,
        owner,
        kind: kind.to_string(),
        at: at.to_string(),
    }
}

/// What a move did, as messages and the log report it.
fn move_report(world: &World, effects: &MoveEffects) -> MoveReport {
    MoveReport {
        captured: effects
            .captured
            .map(|c| piece_report(c.id.0, c.owner, c.kind.letter(), c.at)),
        king_captured: effects.king_captured,
        handed_over: effects.handed_over.len(),
        collected: effects
            .collected
            .iter()
            .filter_map(|&id| world.piece(id))
            .map(|p| piece_report(p.id.0, p.owner, p.kind.letter(), p.at))
            .collect(),
        points: effects.points,
    }
}

/// A move text cut to a length worth keeping.
fn kept(text: &str) -> String {
    let mut cut: String = text.chars().take(TEXT_KEPT).collect();
    if cut.len() < text.len() {
        cut.push_str("...");
    }
    cut
}

impl ServerWorld {
    /// One message of a connection.
    pub fn message(&mut self, conn: ConnectionId, message: ClientMessage) {
        match message {
            ClientMessage::Join { team, name } => self.join(conn, team, name),
            ClientMessage::Hello { token } => self.hello(conn, &token),
            ClientMessage::Spectate => self.spectate(conn),
            ClientMessage::Move { mv } => {
                if let Some(player) = self.playing(conn) {
                    let result = self.play(player, &mv);
                    let turn = self.world.turn();
                    let answer = match result {
                        MoveResult {
                            ok: true,
                            effects: Some(effects),
                            mv,
                            ..
                        } => ServerMessage::Ack { turn, mv, effects },
                        result => ServerMessage::Rejected {
                            turn,
                            mv: result.mv,
                            rejection: result.rejection.unwrap_or_default(),
                            reason: result.reason.unwrap_or_default(),
                        },
                    };
                    self.send(conn, &answer);
                }
            }
            ClientMessage::Turn { moves } => {
                if let Some(player) = self.playing(conn) {
                    let allowed = self.world.pieces_of(player).count() + EXTRA_MOVES;
                    let mut results: Vec<MoveResult> = moves
                        .iter()
                        .take(allowed)
                        .map(|text| self.play(player, text))
                        .collect();
                    if moves.len() > allowed {
                        let reason = format!(
                            "{} moves sent, more than {allowed}: the last {} dropped",
                            moves.len(),
                            moves.len() - allowed
                        );
                        results.push(self.refuse(player, "", "too-many-moves", reason));
                    }
                    let turn = self.world.turn();
                    self.answered_by(player);
                    self.send(conn, &ServerMessage::TurnResult { turn, results });
                }
            }
            ClientMessage::Done => {
                if let Some(player) = self.playing(conn) {
                    self.answered_by(player);
                }
            }
            ClientMessage::Leave => self.leave(conn),
            ClientMessage::Scoreboard => {
                let players = self.scoreboard();
                let turn = self.world.turn();
                self.send(conn, &ServerMessage::Scoreboard { turn, players });
            }
            ClientMessage::Region { x0, y0, x1, y1 } => {
                let answer = match self.region(x0, y0, x1, y1) {
                    Ok(report) => ServerMessage::Region(report),
                    Err(reason) => {
                        ServerMessage::error(crate::world::api::ErrorCode::BadRequest, reason)
                    }
                };
                self.send(conn, &answer);
            }
            ClientMessage::Targets { x, y } => {
                if let Some(player) = self.playing(conn) {
                    let squares = self.targets_of(player, Coord::new(x, y));
                    let turn = self.world.turn();
                    self.send(
                        conn,
                        &ServerMessage::Targets {
                            turn,
                            x,
                            y,
                            squares,
                        },
                    );
                }
            }
        }
    }

    /// The squares `player`'s piece on `from` may move to now: the rules' destinations of the
    /// piece, each checked as the move would be (turn, owner, moved this turn), so the list is
    /// exactly what `move` would accept.
    fn targets_of(&self, player: PlayerId, from: Coord) -> Vec<[u32; 2]> {
        let Some(piece) = self.world.piece_at(from) else {
            return Vec::new();
        };
        if piece.owner != player {
            return Vec::new();
        }
        let mut targets = Vec::new();
        self.world.targets(piece.id, &mut targets);
        targets
            .into_iter()
            .filter(|&to| self.world.check(player, Move::new(from, to)).is_ok())
            .map(|to| [to.x, to.y])
            .collect()
    }

    /// The player has answered this turn (only a turn of its team counts).
    fn answered_by(&mut self, player: PlayerId) {
        let team = self.world.player(player).map(|p| p.team);
        if team == Some(self.world.team_to_move()) {
            self.answered.insert(player);
        }
    }

    /// One move of `player`, applied by the rules or refused; logged, and shown to those who
    /// see it.
    fn play(&mut self, player: PlayerId, text: &str) -> MoveResult {
        let mv = match crate::rules::megachess::Move::parse(text) {
            Ok(mv) => mv,
            Err(error) => return self.refuse(player, text, "garbage", error),
        };
        if self.telling() {
            // Whoever will hear of this move hears of the turn first, as it began.
            let mut players = self.interest.watchers(&[mv.from, mv.to]);
            players.extend(self.world.piece_at(mv.to).map(|piece| piece.owner));
            self.tell_first(&players);
        }
        match self.world.apply(player, mv) {
            Err(rejection) => self.refuse(player, text, rejection.name(), rejection.to_string()),
            Ok(effects) => {
                let report = move_report(&self.world, &effects);
                let text = mv.to_string();
                self.push_log(Event::Move {
                    player,
                    mv: text.clone(),
                    effects: report.clone(),
                });
                // Before a king capture unbinds the loser, so that it sees the move too.
                self.delta(player, mv.from, mv.to, &text, &report);
                if let Some(captured) = effects.king_captured {
                    self.king_captured(player, captured, effects.handed_over.len());
                }
                MoveResult {
                    mv: text,
                    ok: true,
                    rejection: None,
                    reason: None,
                    effects: Some(report),
                }
            }
        }
    }

    fn refuse(&mut self, player: PlayerId, text: &str, name: &str, reason: String) -> MoveResult {
        let mv = kept(text);
        self.push_log(Event::Rejected {
            player,
            mv: mv.clone(),
            rejection: name.to_string(),
            reason: reason.clone(),
        });
        MoveResult {
            mv,
            ok: false,
            rejection: Some(name.to_string()),
            reason: Some(reason),
            effects: None,
        }
    }

    /// `captured` left the game: its row, the capturer's count, the log, and the news to it.
    fn king_captured(&mut self, capturer: PlayerId, captured: PlayerId, handed_over: usize) {
        let turn = self.world.turn();
        if let Some(row) = self.rows.get_mut(&captured) {
            row.eliminated_turn = Some(turn);
        }
        if let Some(row) = self.rows.get_mut(&capturer) {
            row.kings_taken += 1;
        }
        self.push_log(Event::KingCaptured {
            player: capturer,
            captured,
            handed_over,
        });
        self.interest.remove(captured);
        self.answered.remove(&captured);
        if let Some(conn) = self.bound.remove(&captured) {
            let message = ServerMessage::Eliminated { turn, by: capturer };
            self.send(conn, &message);
        }
        // The capturer's army grew: so does its view.
        if let Some(rect) = self.world.army_rect(capturer, self.config.window_margin) {
            self.interest.set(capturer, rect);
        }
    }

    /// The move as `moved` to every other player whose window holds one of its squares or whose
    /// piece it captured, and to every spectator.
    fn delta(&mut self, mover: PlayerId, from: Coord, to: Coord, mv: &str, report: &MoveReport) {
        let message = ServerMessage::Moved {
            turn: self.world.turn(),
            player: mover,
            mv: mv.to_string(),
            effects: report.clone(),
        };
        let text: Arc<str> = message.to_json().into();
        let victim = report.captured.as_ref().map(|piece| piece.owner);
        let mut players = self.interest.watchers(&[from, to]);
        players.extend(victim);
        players.sort_unstable();
        players.dedup();
        let receivers: Vec<ConnectionId> = players
            .into_iter()
            .filter(|&player| player != mover)
            .filter_map(|player| self.bound.get(&player).copied())
            .chain(self.spectators.iter().copied())
            .collect();
        for conn in receivers {
            self.send_text(conn, Arc::clone(&text));
        }
    }
}
