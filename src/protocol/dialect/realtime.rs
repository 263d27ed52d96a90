//! The dialect of realtime chess (protocol.md, "Realtime chess"), over any [`RealtimePlayer`]:
//! Roger's planner or a reference player. The game's parameters are options; `position` sets a
//! state (`startpos`, or `state <text>` as docs/rules/realtime.md writes it); a one-shot
//! `go side <side>` answers the order to start now ([`oneshot`]); `play <side>` streams: the
//! referee tells the game as it happens and the engine prints its orders when it decides
//! ([`stream`]). Every order printed passes the rules' check at the state it was decided on.

mod command;
mod oneshot;
mod stream;
#[cfg(test)]
mod tests;

pub use command::{DEFAULT_MOVETIME_MS, MAX_MOVETIME_MS};

use super::{Dialect, Language};
use crate::engine::{
    check_option, variant_option, OptionKind, OptionSpec, OptionValue, UCI_VARIANT,
};
use crate::plan::RealtimePlayer;
use crate::protocol::parse::quote;
use crate::protocol::Output;
use crate::rules::realtime::{Event, EventKind, Motion, RealtimeParams, RealtimeState};
use crate::rules::registry::{self, Family};
use command::RealtimeCommand;
use oneshot::{lock_player, SharedPlayer, Thinker};
use std::io;
use std::sync::{Arc, Mutex};
use stream::Stream;

/// The registry's name of realtime chess.
pub const REALTIME: &str = "realtime";

/// The realtime dialect over a player.
pub struct RealtimeDialect {
    player: SharedPlayer,
    name: String,
    /// The player's own options, as it announced them when it came.
    player_options: Vec<OptionSpec>,
    params: RealtimeParams,
    /// The last good state: `position`'s, or streaming's when it stopped.
    state: RealtimeState,
    thinker: Thinker,
    stream: Option<Stream>,
}

impl RealtimeDialect {
    pub fn new(player: Box<dyn RealtimePlayer>) -> RealtimeDialect {
        let name = player.name();
        let player_options = player.options();
        let player: SharedPlayer = Arc::new(Mutex::new(player));
        let params = RealtimeParams::default();
        RealtimeDialect {
            thinker: Thinker::new(player.clone(), name.clone()),
            player,
            name,
            player_options,
            params,
            state: RealtimeState::start(params),
            stream: None,
        }
    }

    /// The game's parameters as spins, from the registry's row.
    fn parameter_options() -> Vec<OptionSpec> {
        let row = registry::find(REALTIME).map_or(&[][..], |entry| entry.parameters);
        row.iter()
            .map(|parameter| OptionSpec {
                name: parameter.name,
                kind: OptionKind::Spin {
                    default: parameter.default,
                    min: parameter.min,
                    max: parameter.max,
                },
            })
            .collect()
    }

    /// The current state: streaming's copy while it runs.
    fn current_state(&self) -> RealtimeState {
        match &self.stream {
            Some(stream) => stream.state(),
            None => self.state.clone(),
        }
    }

    /// Ends a one-shot `go` (its answer printed) and streaming (its state kept).
    fn stop_all(&mut self) {
        self.thinker.stop();
        if let Some(stream) = self.stream.take() {
            self.state = stream.stop();
        }
    }

    fn set_parameter(&mut self, name: &str, value: i64) -> Result<(), String> {
        if let Some(stream) = &self.stream {
            return Err(format!(
                "option '{name}' may not change while streaming for {}; send 'stop' first",
                stream.side().name()
            ));
        }
        let mut params = self.params;
        let value = u32::try_from(value).map_err(|_| format!("option '{name}': {value}"))?;
        match name {
            "tick_ms" => params.tick_ms = value,
            "delay_ticks" => params.delay_ticks = value,
            "no_capture_draw_ticks" => params.no_capture_draw_ticks = value,
            other => return Err(format!("option '{other}' is announced but not handled")),
        }
        params.validate()?;
        self.thinker.stop();
        self.params = params;
        self.state = RealtimeState::start(params);
        Ok(())
    }

    fn command(&mut self, command: RealtimeCommand, out: &Output) -> Result<(), String> {
        match command {
            RealtimeCommand::NewGame => {
                self.stop_all();
                self.state = RealtimeState::start(self.params);
                lock_player(&self.player).new_game();
            }
            RealtimeCommand::Position(text) => {
                let state = match &text {
                    None => RealtimeState::start(self.params),
                    Some(text) => RealtimeState::from_text(text, self.params).map_err(|error| {
                        format!(
                            "position: invalid state {}: {error}; the state is unchanged",
                            quote(text)
                        )
                    })?,
                };
                self.thinker.stop();
                if let Some(stream) = &self.stream {
                    stream.reset(state.clone());
                }
                self.state = state;
            }
            RealtimeCommand::Go { side, movetime } => {
                if let Some(stream) = &self.stream {
                    return Err(format!(
                        "go: streaming for {}; send 'stop' first",
                        stream.side().name()
                    ));
                }
                self.thinker
                    .go(&self.state, side, movetime, out)
                    .map_err(|error| format!("go: {error}"))?;
            }
            RealtimeCommand::Play { side, movetime } => {
                if let Some(stream) = &self.stream {
                    return Err(format!(
                        "play: already streaming for {}; send 'stop' first",
                        stream.side().name()
                    ));
                }
                if self.thinker.is_thinking() {
                    return Err("play: a search is running; send 'stop' first".into());
                }
                self.stream = Some(Stream::start(
                    self.player.clone(),
                    self.name.clone(),
                    self.state.clone(),
                    side,
                    oneshot::budget_of(movetime),
                    out.clone(),
                ));
            }
            RealtimeCommand::Time(ms) => self.streaming("time")?.time(ms)?,
            RealtimeCommand::Event(text) => self.streaming("event")?.event(&text)?,
            RealtimeCommand::Refused { ms, order } => {
                self.streaming("refused")?.refused(ms, &order)?
            }
            RealtimeCommand::Stop => self.stop_all(),
        }
        Ok(())
    }

    fn streaming(&self, command: &str) -> Result<&Stream, String> {
        self.stream.as_ref().ok_or_else(|| {
            format!("{command}: not streaming; send 'play white' or 'play black' first")
        })
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
        let mut specs = Self::parameter_options();
        specs.extend(self.player_options.iter().cloned());
        specs.push(variant_option(&registry::names_of(Family::Realtime)));
        specs
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<Option<String>, String> {
        let (name, value) = check_option(&self.option_specs(), name, value)?;
        if name == UCI_VARIANT {
            // The family's one game: naming it changes nothing (the session announces a switch
            // to it), but as any setoption it answers a running `go` first.
            self.thinker.stop();
            return Ok(None);
        }
        if let (true, OptionValue::Spin(number)) = (
            Self::parameter_options()
                .iter()
                .any(|spec| spec.name == name),
            &value,
        ) {
            self.set_parameter(name, *number)?;
            return Ok(None);
        }
        let text = value.text();
        self.thinker.stop();
        lock_player(&self.player).set_option(name, &text)?;
        Ok(None)
    }

    fn announcement(&self) -> String {
        // The GUI learns the board and the start state from this line, as for other games.
        format!(
            "variant {REALTIME} files 8 ranks 8 startpos {}",
            RealtimeState::start(self.params).text()
        )
    }

    fn display(&self) -> String {
        display(&self.current_state())
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
        self.stop_all();
    }

    fn finish(&mut self) {
        self.thinker.wait();
        if let Some(stream) = self.stream.take() {
            self.state = stream.stop();
        }
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
