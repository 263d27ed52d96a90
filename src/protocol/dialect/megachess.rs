//! The dialect of Megachess (protocol.md, "Megachess"), over any [`MegachessPlayer`]: Roger's
//! turn planner or a reference player. Every parameter of the rules is an option of its own
//! name; `position megachess ...` tells the world as the rules page writes it ([`WorldView`]);
//! `go` asks the [`MegachessEngine`] for `me`'s turn and prints its one `bestturn`, whose every
//! move passes the rules in order; `d` draws the window around `me`'s army ([`display`]). The
//! dialect only reads and prints.

mod command;
mod display;
#[cfg(test)]
mod tests;

pub use command::MAX_MOVETIME_MS;

use super::{Dialect, Language};
use crate::engine::megachess::{MegachessEngine, ThinkLimit, TurnAnswer, TurnEnding, TurnNews};
use crate::engine::OptionSpec;
use crate::plan::{MegachessPlayer, PlanProgress};
use crate::protocol::option_text::read_option;
use crate::protocol::print::{engine_refusal, error_line, info_string};
use crate::protocol::Output;
use crate::rules::megachess::{Move, PlayerId};
use crate::rules::registry::Family;
use command::{Limit, MegachessCommand};
use std::io;
use std::time::Duration;

/// The registry's name of Megachess.
pub const MEGACHESS: &str = "megachess";

/// The Megachess dialect over the Megachess engine.
pub struct MegachessDialect {
    engine: MegachessEngine,
}

/// `bestturn` and its moves.
pub fn bestturn_line(moves: &[Move]) -> String {
    let mut line = String::from("bestturn");
    for mv in moves {
        line.push(' ');
        line.push_str(&mv.to_string());
    }
    line
}

/// A progress line: `info time <ms> iteration <n> evaluated <n> score <n> moves <n> pv ...`.
pub fn info_line(progress: &PlanProgress, elapsed: Duration, moves: &[Move]) -> String {
    let mut line = format!(
        "info time {} iteration {} evaluated {} score {} moves {}",
        elapsed.as_millis(),
        progress.iteration,
        progress.evaluated,
        progress.score,
        moves.len()
    );
    if !moves.is_empty() {
        line.push_str(" pv");
        for mv in moves {
            line.push(' ');
            line.push_str(&mv.to_string());
        }
    }
    line
}

/// The lines that answer a `go`: a note on a late answer, an error for a failed player and for
/// the moves the rules refuse, the last progress line, then `bestturn`.
fn answer_lines(name: &str, me: PlayerId, answer: &TurnAnswer) -> Vec<String> {
    let mut lines = Vec::new();
    match answer.ending {
        TurnEnding::Late(movetime) => lines.push(info_string(&format!(
            "{name} did not finish within {} ms; answering its best turn so far",
            movetime.as_millis()
        ))),
        TurnEnding::Failed => lines.push(error_line(&format!(
            "{name} failed while planning for player {me}; answering its best turn so far"
        ))),
        TurnEnding::Gone => lines.push(error_line("the planning thread is gone")),
        TurnEnding::Planned | TurnEnding::Stopped => {}
    }
    if !answer.dropped.is_empty() {
        let dropped: Vec<String> = answer
            .dropped
            .iter()
            .map(|dropped| {
                format!(
                    "move {} {}: {}",
                    dropped.place, dropped.mv, dropped.rejection
                )
            })
            .collect();
        lines.push(error_line(&format!(
            "{name} planned moves the rules refuse, dropped: {}",
            dropped.join("; ")
        )));
    }
    lines.push(info_line(&answer.last, answer.elapsed, &answer.moves));
    lines.push(bestturn_line(&answer.moves));
    lines
}

impl MegachessDialect {
    pub fn new(player: Box<dyn MegachessPlayer>) -> MegachessDialect {
        MegachessDialect {
            engine: MegachessEngine::new(player),
        }
    }

    fn command(&mut self, command: MegachessCommand, out: &Output) -> Result<(), String> {
        match command {
            MegachessCommand::NewGame => self.engine.new_game(),
            MegachessCommand::Position(text) => self
                .engine
                .set_world(text)
                .map_err(|error| format!("position: {error}; the world is unchanged"))?,
            MegachessCommand::Go(limit) => {
                let me = self.engine.world().map_or(0, |(_, me)| me);
                let limit = self.engine.turn_limit(match limit {
                    Limit::Movetime(movetime) => Some(ThinkLimit::Movetime(movetime)),
                    Limit::Turn => None,
                    Limit::Nodes(moves) => Some(ThinkLimit::Work(moves)),
                    Limit::Infinite => Some(ThinkLimit::UntilStop),
                });
                let (name, out) = (self.engine.name().to_string(), out.clone());
                let on_news = move |news: TurnNews| {
                    // A failed write means the server is gone; the read loop notices on its own.
                    let _ = match news {
                        TurnNews::Progress { progress, elapsed } => {
                            out.line(&info_line(progress, elapsed, &progress.moves))
                        }
                        TurnNews::Answer(answer) => out.lines(answer_lines(&name, me, &answer)),
                    };
                };
                self.engine
                    .go(limit, on_news)
                    .map_err(|error| format!("go: {}", engine_refusal(&error, true)))?;
            }
            MegachessCommand::Stop => self.engine.stop(),
        }
        Ok(())
    }
}

impl Dialect for MegachessDialect {
    fn family(&self) -> Family {
        Family::World
    }

    fn language(&self) -> Language {
        Language::Uci
    }

    fn option_specs(&self) -> Vec<OptionSpec> {
        self.engine.option_specs()
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<Option<String>, String> {
        let (name, value) = read_option(&self.option_specs(), name, value)?;
        let remark = self.engine.set_option(name, value)?;
        Ok(remark.map(|remark| remark.to_string()))
    }

    fn announcement(&self) -> String {
        format!(
            "variant {MEGACHESS} size {} {}",
            self.engine.params().width,
            self.engine.params().height
        )
    }

    fn display(&self) -> String {
        match self.engine.world() {
            Some((world, me)) => display::display(world, me),
            None => display::no_world(self.engine.params()),
        }
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
