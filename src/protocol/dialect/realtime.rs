//! The dialect of realtime chess (protocol.md, "Realtime chess"), over any [`RealtimePlayer`]:
//! Roger's planner or a reference player. The game's parameters are options; `position` sets a
//! state (`startpos`, or `state <text>` as docs/rules/realtime.md writes it); a one-shot
//! `go side <side>` answers the order to start now; `play <side>` streams: the referee tells the
//! game as it happens and the engine prints its orders when it decides. The dialect only reads
//! and prints: the [`RealtimeEngine`] decides, and every order it gives passes the rules' check
//! at the state it was decided on.

mod command;
#[cfg(test)]
mod tests;

pub use command::{DEFAULT_MOVETIME_MS, MAX_MOVETIME_MS};

use super::{Dialect, Language};
use crate::engine::deadline::{Delivery, Ending};
use crate::engine::realtime::{Decided, Decision, OneShot, OneShotDelivery, RealtimeEngine};
use crate::engine::{EngineError, OptionSpec};
use crate::plan::RealtimePlayer;
use crate::protocol::option_text::read_option;
use crate::protocol::parse::quote;
use crate::protocol::print::{engine_refusal, error_line, info_string};
use crate::protocol::Output;
use crate::rules::realtime::{Color, Event, EventKind, Motion, Ms, Order, RealtimeState};
use crate::rules::registry::Family;
use command::RealtimeCommand;
use std::io;

/// The registry's name of realtime chess.
pub const REALTIME: &str = "realtime";

/// The realtime dialect over the realtime engine.
pub struct RealtimeDialect {
    engine: RealtimeEngine,
}

/// `bestmove <order>` or `bestmove none`.
fn bestmove_line(order: Option<Order>) -> String {
    match order {
        Some(order) => format!("bestmove {order}"),
        None => "bestmove none".to_string(),
    }
}

/// The error a decision the rules refuse, or a failed one, prints; `then` says what is done
/// instead.
fn decision_error(name: &str, side: Color, ms: Ms, decision: &Decision, then: &str) -> String {
    let what = match decision {
        Decision::Refused(order, refusal) => format!(
            "{name} chose {order} for {} at {ms} ms, which the rules refuse: {refusal}",
            side.name()
        ),
        _ => format!(
            "{name} failed while deciding for {} at {ms} ms",
            side.name()
        ),
    };
    error_line(&format!("{what}; {then}"))
}

/// The lines that answer a one-shot `go`.
fn answer_lines(name: &str, question: &OneShot, ending: Ending<Decision>) -> Vec<String> {
    let (side, ms) = (question.side, question.state.now());
    match ending {
        Ending::Thought(Decision::Start(order)) => vec![bestmove_line(order)],
        Ending::Thought(decision) => vec![
            decision_error(name, side, ms, &decision, "answering none"),
            bestmove_line(None),
        ],
        Ending::Failed => vec![
            decision_error(name, side, ms, &Decision::Failed, "answering none"),
            bestmove_line(None),
        ],
        Ending::Late => vec![
            info_string(&format!(
                "{name} did not decide within {} ms; answering none",
                question.movetime.as_millis()
            )),
            bestmove_line(None),
        ],
        Ending::Stopped | Ending::Gone => vec![bestmove_line(None)],
    }
}

/// The line streaming prints for a decision: `order <order>`, or an error.
fn decided_line(name: &str, decided: &Decided) -> String {
    match decided.decision {
        Decision::Start(Some(order)) => format!("order {order}"),
        ref decision => decision_error(name, decided.side, decided.ms, decision, "no order"),
    }
}

impl RealtimeDialect {
    pub fn new(player: Box<dyn RealtimePlayer>) -> RealtimeDialect {
        RealtimeDialect {
            engine: RealtimeEngine::new(player),
        }
    }

    fn command(&mut self, command: RealtimeCommand, out: &Output) -> Result<(), String> {
        let name = self.engine.name().to_string();
        match command {
            RealtimeCommand::NewGame => self.engine.new_game(),
            RealtimeCommand::Position(text) => {
                let state = match &text {
                    None => RealtimeState::start(self.engine.params()),
                    Some(text) => {
                        RealtimeState::from_text(text, self.engine.params()).map_err(|error| {
                            format!(
                                "position: invalid state {}: {error}; the state is unchanged",
                                quote(text)
                            )
                        })?
                    }
                };
                self.engine.set_state(state);
            }
            RealtimeCommand::Go { side, movetime } => {
                let out = out.clone();
                let deliver = move |delivery: OneShotDelivery| {
                    if let Delivery::Answer {
                        question, ending, ..
                    } = delivery
                    {
                        // A failed write means the GUI is gone, which the read loop notices.
                        let _ = out.lines(answer_lines(&name, question, ending));
                    }
                };
                self.engine.go(side, movetime, deliver).map_err(|error| {
                    let again = matches!(error, EngineError::Busy(_));
                    format!("go: {}", engine_refusal(&error, again))
                })?;
            }
            RealtimeCommand::Play { side, movetime } => {
                let out = out.clone();
                let on_decided = move |decided: &Decided| {
                    // A failed write means the referee is gone; the read loop notices.
                    let _ = out.line(&decided_line(&name, decided));
                };
                self.engine
                    .play(side, movetime, on_decided)
                    .map_err(|error| {
                        let again = matches!(error, EngineError::Streaming(_));
                        format!("play: {}", engine_refusal(&error, again))
                    })?;
            }
            RealtimeCommand::Time(ms) => {
                self.streaming("time")?;
                self.engine.time(ms)?
            }
            RealtimeCommand::Event(text) => {
                self.streaming("event")?;
                let event: Event = text
                    .parse()
                    .map_err(|error| format!("event: {} is not an event: {error}", quote(&text)))?;
                self.engine.event(event)?
            }
            RealtimeCommand::Refused { ms, order } => {
                self.streaming("refused")?;
                let order = Order::parse(&order).map_err(|error| {
                    format!(
                        "refused: {} at token 3 is not an order: {error}",
                        quote(&order)
                    )
                })?;
                self.engine.refused(ms, order)?
            }
            RealtimeCommand::Stop => self.engine.stop(),
        }
        Ok(())
    }

    fn streaming(&self, command: &str) -> Result<(), String> {
        match self.engine.streaming_side() {
            Some(_) => Ok(()),
            None => Err(format!(
                "{command}: not streaming; send 'play white' or 'play black' first"
            )),
        }
    }
}

impl Dialect for RealtimeDialect {
    fn family(&self) -> Family {
        Family::Realtime
    }

    fn language(&self) -> Language {
        Language::Uci
    }

    fn option_specs(&self) -> Vec<OptionSpec> {
        self.engine.option_specs()
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<Option<String>, String> {
        let (name, value) = read_option(&self.option_specs(), name, value)?;
        match self.engine.set_option(name, value) {
            Ok(()) => Ok(None),
            Err(EngineError::Streaming(side)) => Err(format!(
                "option '{name}' may not change while streaming for {}; send 'stop' first",
                side.name()
            )),
            Err(error) => Err(error.to_string()),
        }
    }

    fn announcement(&self) -> String {
        // The GUI learns the board and the start state from this line, as for other games.
        format!(
            "variant {REALTIME} files 8 ranks 8 startpos {}",
            RealtimeState::start(self.engine.params()).text()
        )
    }

    fn display(&self) -> String {
        display(&self.engine.state())
    }

    fn bench_refusal(&self) -> Option<String> {
        Some(
            "the bench searches the turn games; select one first (setoption name UCI_Variant \
             value chess)"
                .into(),
        )
    }

    fn handle_line(&mut self, line: &str, out: &Output) -> io::Result<()> {
        let result = command::parse(line).and_then(|command| self.command(command, out));
        match result {
            Ok(()) => Ok(()),
            Err(error) => out.error(&error),
        }
    }

    fn stop(&mut self) {
        self.engine.stop();
    }

    fn finish(&mut self) {
        self.engine.finish();
    }
}

/// The `d` reply: the standing pieces as a diagram, then each moving piece and each piece on
/// delay, the ms, the outcome if any, and the state text.
pub fn display(state: &RealtimeState) -> String {
    let mut board = [' '; 64];
    let mut moving = Vec::new();
    let mut waiting = Vec::new();
    for unit in state.units() {
        let piece = unit.piece.letter();
        match unit.motion {
            Motion::Standing {
                square, ready_at, ..
            } => {
                board[square.index()] = piece;
                if ready_at > state.now() {
                    waiting.push(format!("{piece}{} until {ready_at}", square.name(8)));
                }
            }
            Motion::Moving {
                from,
                to,
                start,
                arrive,
            } => moving.push(format!(
                "{piece}{}{} from {start} to {arrive}",
                from.name(8),
                to.name(8)
            )),
        }
    }
    let rule = " +---+---+---+---+---+---+---+---+";
    let mut lines = vec![rule.to_string()];
    for rank in (0..8).rev() {
        let cells: String = (0..8)
            .map(|file| format!(" {} |", board[rank * 8 + file]))
            .collect();
        lines.push(format!(" |{cells} {}", rank + 1));
        lines.push(rule.to_string());
    }
    lines.push("   a   b   c   d   e   f   g   h".into());
    let list = |items: Vec<String>| match items.is_empty() {
        true => "none".to_string(),
        false => items.join(", "),
    };
    lines.push(format!("Moving: {}", list(moving)));
    lines.push(format!("Delays: {}", list(waiting)));
    lines.push(format!("Ms: {}", state.now()));
    if let Some(outcome) = state.outcome() {
        let end = Event {
            ms: state.now(),
            kind: EventKind::Ended(outcome),
        };
        lines.push(format!("Over: {end}"));
    }
    lines.push(format!("State: {}", state.text()));
    lines.join("\n")
}
