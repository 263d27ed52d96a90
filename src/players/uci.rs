//! A reference player answering the turn dialect of the protocol session, in place of the
//! engine: it keeps the position and answers `go` at once (or misbehaves, when told to).

use super::settings::{choose_in, Fault, PlaySettings, NOT_THE_ENGINE};
use crate::engine::{variant_option, GoParams, OptionSpec, OptionValue};
use crate::protocol::dialect::turn::TurnAgent;
use crate::protocol::{print, Output};
use crate::rules::registry::{names_of, AnyGame, Family, GAMES};
use std::time::Duration;

pub struct UciPlayer {
    settings: PlaySettings,
    game: AnyGame,
    /// `go`s answered since the last `ucinewgame`.
    answered: u32,
}

impl UciPlayer {
    pub fn new(settings: PlaySettings) -> UciPlayer {
        UciPlayer {
            settings,
            game: AnyGame::new(GAMES[0].name).expect("the default game is a turn game"),
            answered: 0,
        }
    }
}

impl TurnAgent for UciPlayer {
    fn option_specs(&self) -> Vec<OptionSpec> {
        vec![variant_option(&names_of(Family::Turn))]
    }

    fn set_option(
        &mut self,
        name: &'static str,
        value: OptionValue,
    ) -> Result<Option<String>, String> {
        match (name, value) {
            (_, OptionValue::Combo(variant)) if variant != self.game.variant() => {
                self.game = AnyGame::new(&variant)
                    .ok_or_else(|| format!("variant '{variant}' is not available"))?;
                // The GUI learns the board's size and start position from this line.
                Ok(Some(self.game.board_info()))
            }
            (_, OptionValue::Combo(_)) => Ok(None),
            (name, _) => Err(format!("option '{name}' is announced but not handled")),
        }
    }

    fn announcement(&self) -> String {
        self.game.board_info()
    }

    fn new_game(&mut self) {
        self.game = AnyGame::new(self.game.variant()).expect("a registered variant");
        self.answered = 0;
    }

    fn set_position(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), String> {
        self.game = self.game.with_position(fen, moves)?;
        Ok(())
    }

    fn go(&mut self, params: &GoParams, out: &Output) -> Result<(), String> {
        let fault = self.settings.fault_at(self.answered);
        self.answered += 1;
        let lines = match fault {
            Some(Fault::Garbage) => vec![
                "\u{1}\u{7f}#@! garbage %%%".to_string(),
                "info depth x score banana".to_string(),
                "bestmove ~~~~".to_string(),
            ],
            Some(Fault::Illegal) => vec!["bestmove a1a1".to_string()],
            _ => {
                if let Some(fault) = fault {
                    fault.strike_process();
                }
                if fault == Some(Fault::Slow) {
                    let clock = params.clocks.iter().filter_map(|side| side.time).max();
                    std::thread::sleep(clock.unwrap_or_default() + Duration::from_secs(1));
                }
                let best = choose_in(&self.game, self.settings);
                vec![format!(
                    "bestmove {}",
                    best.as_deref().unwrap_or(print::NULL_MOVE)
                )]
            }
        };
        // A failed write means the GUI is gone, which the read loop notices on its own.
        let _ = out.lines(lines);
        Ok(())
    }

    fn stop(&mut self) {}

    fn ponderhit(&mut self) {}

    fn wait(&mut self) {}

    fn display(&self) -> String {
        self.game.display()
    }

    fn perft(&self, _depth: u32) -> Result<Vec<(String, u64)>, String> {
        Err(NOT_THE_ENGINE.to_string())
    }

    fn bench_refusal(&self) -> Option<String> {
        Some(NOT_THE_ENGINE.to_string())
    }
}
