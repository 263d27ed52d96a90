//! The dialect of the alternating games (chess, Millennium, Nichess): `ucinewgame`,
//! `position`, `go` (and `go perft`), `stop` and `ponderhit`, answered by a [`TurnAgent`]:
//! Roger's [`Engine`], or a reference player of `roger play`.

use super::megachess::MegachessDialect;
use super::realtime::RealtimeDialect;
use super::Agent;
use super::{Dialect, Language};
use crate::engine::{
    Activity, Background, Engine, EngineError, GoParams, OptionSpec, OptionValue, Report,
};
use crate::plan::megachess::MegachessPlanner;
use crate::plan::realtime::RealtimePlanner;
use crate::plan::{MegachessPlayer, RealtimePlayer};
use crate::protocol::option_text::read_option;
use crate::protocol::output::Output;
use crate::protocol::parse::{parse_command, Command, PositionStart};
use crate::protocol::{print, shell};
use crate::rules::registry::Family;
use std::io;

/// What answers the turn dialect's commands. [`Engine`]'s own methods are the model.
pub trait TurnAgent {
    fn option_specs(&self) -> Vec<OptionSpec>;
    /// Sets an option of [`TurnAgent::option_specs`] to a value of its kind (the dialect reads
    /// the text). Returns a remark worth showing, if any; on an error nothing changes.
    fn set_option(
        &mut self,
        name: &'static str,
        value: OptionValue,
    ) -> Result<Option<String>, String>;
    /// The game played now, as a change of `UCI_Variant` announces it (`AnyGame::board_info`).
    fn announcement(&self) -> String;
    fn new_game(&mut self);
    /// On an error the position stays as it was.
    fn set_position(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), String>;
    /// Starts thinking; the `info` lines and the `bestmove` go to `out`, now or later from
    /// another thread. An error means nothing started.
    fn go(&mut self, params: &GoParams, out: &Output) -> Result<(), String>;
    fn stop(&mut self);
    fn ponderhit(&mut self);
    /// Waits for a search that ends by itself, stops an endless one.
    fn wait(&mut self);
    fn display(&self) -> String;
    fn perft(&self, depth: u32) -> Result<Vec<(String, u64)>, String>;
    /// `go perft`: its lines go to `out`, now or later from another thread. The default counts
    /// here, before it returns.
    fn go_perft(&mut self, depth: u32, out: &Output) -> Result<(), String> {
        out.lines(print::perft_lines(&self.perft(depth)?))
            .map_err(|error| error.to_string())
    }
    /// Why `bench` may not run now, if it may not.
    fn bench_refusal(&self) -> Option<String>;
    /// `bench` (not refused): its lines go to `out`, now or later from another thread. The
    /// default runs it here, before it returns.
    fn go_bench(&mut self, depth: Option<u32>, out: &Output) -> io::Result<()> {
        shell::bench(depth, &mut |line| out.line(line))
    }
}

/// The turn dialect over an agent.
pub struct TurnDialect<A: TurnAgent> {
    agent: A,
}

impl<A: TurnAgent> TurnDialect<A> {
    pub fn new(agent: A) -> TurnDialect<A> {
        TurnDialect { agent }
    }
}

impl<A: TurnAgent> Dialect for TurnDialect<A> {
    fn family(&self) -> Family {
        Family::Turn
    }

    fn language(&self) -> Language {
        Language::Uci
    }

    fn option_specs(&self) -> Vec<OptionSpec> {
        self.agent.option_specs()
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<Option<String>, String> {
        let (name, value) = read_option(&self.agent.option_specs(), name, value)?;
        self.agent.set_option(name, value)
    }

    fn announcement(&self) -> String {
        self.agent.announcement()
    }

    fn display(&self) -> String {
        self.agent.display()
    }

    fn bench_refusal(&self) -> Option<String> {
        self.agent.bench_refusal()
    }

    fn bench(&mut self, depth: Option<u32>, out: &Output) -> io::Result<()> {
        match self.agent.bench_refusal() {
            Some(reason) => out.error(&format!("bench: {reason}")),
            None => self.agent.go_bench(depth, out),
        }
    }

    fn handle_line(&mut self, line: &str, out: &Output) -> io::Result<()> {
        let command = match parse_command(line) {
            Ok(Some(command)) => command,
            Ok(None) => return Ok(()),
            Err(error) => return out.error(&error.to_string()),
        };
        match command {
            Command::UciNewGame => self.agent.new_game(),
            Command::Position { start, moves } => {
                let fen = match &start {
                    PositionStart::StartPos => None,
                    PositionStart::Fen(fen) => Some(fen.as_str()),
                };
                if let Err(error) = self.agent.set_position(fen, &moves) {
                    out.error(&format!("position: {error}; the position is unchanged"))?;
                }
            }
            Command::Go(params) => {
                if let Err(error) = self.agent.go(&params, out) {
                    out.error(&format!("go: {error}"))?;
                }
            }
            Command::Perft(depth) => {
                if let Err(error) = self.agent.go_perft(depth, out) {
                    out.error(&format!("go perft: {error}"))?;
                }
            }
            Command::Stop => self.agent.stop(),
            Command::PonderHit => self.agent.ponderhit(),
            // The session answers the shared commands before any line reaches a dialect.
            Command::Uci
            | Command::Debug(_)
            | Command::IsReady
            | Command::SetOption { .. }
            | Command::Quit
            | Command::Display
            | Command::Bench { .. } => {}
        }
        Ok(())
    }

    fn stop(&mut self) {
        self.agent.stop();
    }

    fn finish(&mut self) {
        self.agent.wait();
    }
}

/// Roger's engine, as the session's agent: it plays the turn games with its search, realtime
/// chess with its planner and Megachess with its turn planner.
pub struct EngineAgent;

impl Agent for EngineAgent {
    fn name(&self) -> String {
        format!("{} {}", print::ENGINE_NAME, env!("CARGO_PKG_VERSION"))
    }

    fn families(&self) -> &'static [Family] {
        &[Family::Turn, Family::Realtime, Family::World]
    }

    fn dialect(&self, family: Family) -> Option<Box<dyn Dialect>> {
        match family {
            Family::Turn => Some(Box::new(TurnDialect::new(Engine::new()))),
            Family::Realtime => Some(Box::new(RealtimeDialect::new(roger_realtime_player()))),
            Family::World => Some(Box::new(MegachessDialect::new(roger_megachess_player()))),
        }
    }
}

/// Roger's realtime player: the planner.
fn roger_realtime_player() -> Box<dyn RealtimePlayer> {
    Box::new(RealtimePlanner::new())
}

/// Roger's Megachess player: the turn planner.
fn roger_megachess_player() -> Box<dyn MegachessPlayer> {
    Box::new(MegachessPlanner::new())
}

impl TurnAgent for Engine {
    fn option_specs(&self) -> Vec<OptionSpec> {
        Engine::option_specs(self)
    }

    fn set_option(
        &mut self,
        name: &'static str,
        value: OptionValue,
    ) -> Result<Option<String>, String> {
        Engine::set_option(self, name, value)
            .map(|remark| remark.map(|remark| remark.to_string()))
            .map_err(|error| error.to_string())
    }

    fn announcement(&self) -> String {
        self.game().board_info()
    }

    fn new_game(&mut self) {
        Engine::new_game(self)
    }

    fn set_position(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), String> {
        Engine::set_position(self, fen, moves).map_err(|error| error.to_string())
    }

    fn go(&mut self, params: &GoParams, out: &Output) -> Result<(), String> {
        let report_output = out.clone();
        let best_output = out.clone();
        // The search thread prints; a failed write there means the GUI is gone, which the read
        // loop notices on its own.
        let on_report = move |report: Report| {
            let line = match report {
                Report::Progress(info) => print::info_line(&info),
                Report::Message(text) => print::info_string(&text),
            };
            let _ = report_output.line(&line);
        };
        let on_best = move |best| {
            let _ = best_output.line(&print::bestmove_line(&best));
        };
        Engine::go(self, params, on_report, on_best)
            .map_err(|error| print::engine_refusal(&error, true))
    }

    fn stop(&mut self) {
        Engine::stop(self)
    }

    fn ponderhit(&mut self) {
        Engine::ponderhit(self)
    }

    fn wait(&mut self) {
        Engine::wait(self)
    }

    fn display(&self) -> String {
        Engine::display(self)
    }

    fn perft(&self, depth: u32) -> Result<Vec<(String, u64)>, String> {
        Engine::perft(self, depth).map_err(|error| print::engine_refusal(&error, false))
    }

    fn go_perft(&mut self, depth: u32, out: &Output) -> Result<(), String> {
        let out = out.clone();
        // As for a search, a failed write means the GUI is gone.
        let on_done = move |counts: Option<Vec<(String, u64)>>| {
            let _ = match counts {
                Some(counts) => out.lines(print::perft_lines(&counts)),
                None => out.line(&print::info_string(&format!("perft {depth} stopped"))),
            };
        };
        Engine::go_perft(self, depth, on_done).map_err(|error| print::engine_refusal(&error, false))
    }

    fn go_bench(&mut self, depth: Option<u32>, out: &Output) -> io::Result<()> {
        let lines = out.clone();
        // As for a search, a failed write means the GUI is gone.
        let job = move |job: &Background| {
            let emit = &mut |line: &str| lines.line(line);
            let _ = shell::bench_until(depth, job.stop, emit, &mut || job.answering());
        };
        match Engine::run_in_background(self, job) {
            Ok(()) => Ok(()),
            Err(error) => out.error(&format!("bench: {}", print::engine_refusal(&error, false))),
        }
    }

    fn bench_refusal(&self) -> Option<String> {
        self.is_searching()
            .then(|| print::engine_refusal(&EngineError::Busy(Activity::Search), false))
    }
}
