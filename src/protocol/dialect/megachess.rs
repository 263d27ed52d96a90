//! The dialect of Megachess (protocol.md, "Megachess"), over any [`MegachessPlayer`]: Roger's
//! turn planner or a reference player. Every parameter of the rules is an option of its own
//! name; `position megachess ...` tells the world as the rules page writes it ([`WorldView`]);
//! `go` plans `me`'s turn on a worker thread ([`thinker`]) and answers one `bestturn` whose
//! every move passes the rules in order; `d` draws the window around `me`'s army ([`display`]).

mod command;
mod display;
#[cfg(test)]
mod tests;
mod thinker;

pub use command::MAX_MOVETIME_MS;
pub use thinker::{bestturn_line, checked_turn, planning_budget, watch_time};

use super::{Dialect, Language};
use crate::engine::{
    check_option, variant_option, OptionKind, OptionSpec, OptionValue, UCI_VARIANT,
};
use crate::plan::MegachessPlayer;
use crate::protocol::Output;
use crate::rules::megachess::{MegachessParams, PlayerId, World, WorldView, PARAMETERS};
use crate::rules::registry::{self, Family};
use command::{Limit, MegachessCommand};
use std::io;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use thinker::{lock_player, SharedPlayer, ThinkLimit, Thinker};

/// The registry's name of Megachess.
pub const MEGACHESS: &str = "megachess";

/// The world as the last good `position` told it.
struct Told {
    world: Arc<World>,
    me: PlayerId,
    /// The words after `position megachess`, read again when a parameter changes.
    text: String,
}

/// The Megachess dialect over a player.
pub struct MegachessDialect {
    player: SharedPlayer,
    /// The player's own options, as it announced them when it came.
    player_options: Vec<OptionSpec>,
    params: MegachessParams,
    /// The last good world; `None` before the first `position` and after `ucinewgame`.
    told: Option<Told>,
    thinker: Thinker,
}

impl MegachessDialect {
    pub fn new(player: Box<dyn MegachessPlayer>) -> MegachessDialect {
        let name = player.name();
        let player_options = player.options();
        let player: SharedPlayer = Arc::new(Mutex::new(player));
        MegachessDialect {
            thinker: Thinker::new(player.clone(), name),
            player,
            player_options,
            params: MegachessParams::default(),
            told: None,
        }
    }

    /// The rules' parameters as spins, names exactly as the rules page writes them.
    fn parameter_options() -> Vec<OptionSpec> {
        PARAMETERS
            .iter()
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

    /// A parameter: the last world is read again under the new value; when it no longer reads
    /// it is forgotten, and the remark says why.
    fn set_parameter(&mut self, name: &str, value: i64) -> Result<Option<String>, String> {
        let mut params = self.params;
        params.set(name, value)?;
        params.validate()?;
        self.thinker.stop();
        self.params = params;
        let Some(told) = self.told.take() else {
            return Ok(None);
        };
        match Self::read(&told.text, &params) {
            Ok(told) => {
                self.told = Some(told);
                Ok(None)
            }
            Err(error) => Ok(Some(format!(
                "{name} {value}: the last world does not read under it ({error}), so it is \
                 forgotten; send a new 'position megachess ...'"
            ))),
        }
    }

    fn read(text: &str, params: &MegachessParams) -> Result<Told, String> {
        let view = WorldView::parse(text, params).map_err(|error| error.to_string())?;
        Ok(Told {
            world: Arc::new(view.world),
            me: view.me,
            text: text.to_string(),
        })
    }

    /// A `go`'s limit as the thinker takes it: `go` alone is most of a turn.
    fn think_limit(&self, limit: Limit) -> ThinkLimit {
        match limit {
            Limit::Movetime(movetime) => ThinkLimit::Movetime(movetime),
            Limit::Turn => ThinkLimit::Movetime(turn_movetime(self.params.turn_ms)),
            Limit::Nodes(moves) => ThinkLimit::Work(moves),
            Limit::Infinite => ThinkLimit::UntilStop,
        }
    }

    fn command(&mut self, command: MegachessCommand, out: &Output) -> Result<(), String> {
        match command {
            MegachessCommand::NewGame => {
                self.thinker.stop();
                self.told = None;
                lock_player(&self.player).new_game();
            }
            MegachessCommand::Position(text) => {
                let told = Self::read(text, &self.params)
                    .map_err(|error| format!("position: {error}; the world is unchanged"))?;
                self.thinker.stop();
                self.told = Some(told);
            }
            MegachessCommand::Go(limit) => {
                let Some(told) = &self.told else {
                    return Err(
                        "go: no world yet; send 'position megachess size ... pieces ...' first"
                            .into(),
                    );
                };
                let (world, me) = (told.world.clone(), told.me);
                let limit = self.think_limit(limit);
                self.thinker
                    .go(world, me, limit, out)
                    .map_err(|error| format!("go: {error}"))?;
            }
            MegachessCommand::Stop => self.thinker.stop(),
        }
        Ok(())
    }
}

/// `go` without `movetime`: nine tenths of the turn, the rest left for the server to read the
/// answer and for the moves to arrive before the turn ends.
pub fn turn_movetime(turn_ms: u64) -> Duration {
    Duration::from_millis(turn_ms.min(MAX_MOVETIME_MS) / 10 * 9)
}

impl Dialect for MegachessDialect {
    fn family(&self) -> Family {
        Family::World
    }

    fn language(&self) -> Language {
        Language::Uci
    }

    fn option_specs(&self) -> Vec<OptionSpec> {
        let mut specs = Self::parameter_options();
        specs.extend(self.player_options.iter().cloned());
        specs.push(variant_option(&registry::names_of(Family::World)));
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
        if let (true, OptionValue::Spin(number)) =
            (PARAMETERS.iter().any(|row| row.name == name), &value)
        {
            return self.set_parameter(name, *number);
        }
        let text = value.text();
        self.thinker.stop();
        lock_player(&self.player).set_option(name, &text)?;
        Ok(None)
    }

    fn announcement(&self) -> String {
        format!(
            "variant {MEGACHESS} size {} {}",
            self.params.width, self.params.height
        )
    }

    fn display(&self) -> String {
        match &self.told {
            Some(told) => display::display(&told.world, told.me),
            None => display::no_world(&self.params),
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
        self.thinker.stop();
    }

    fn finish(&mut self) {
        self.thinker.wait();
    }
}
