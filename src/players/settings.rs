//! What a reference player is and how `roger play` runs it: which player, its seed and the
//! fault it plays for the arena's referee tests, and its move in any turn game. The UCI and
//! xboard dialects of the players and the session's agent all read these.

use super::{GreedyPlayer, Player, RandomPlayer};
use crate::eval::Evaluate;
use crate::rules::registry::{dispatch, AnyGame};
use crate::rules::{Game, GameRecord};
use std::time::Duration;

/// Which reference player answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReferencePlayer {
    Random,
    Greedy,
    /// The arrival-time sparring partner: realtime chess only.
    Arrival,
    /// The whole-turn guard: Megachess only.
    Guard,
}

impl ReferencePlayer {
    pub fn parse(name: &str) -> Result<ReferencePlayer, String> {
        match name {
            "random" => Ok(ReferencePlayer::Random),
            "greedy" => Ok(ReferencePlayer::Greedy),
            "arrival" => Ok(ReferencePlayer::Arrival),
            "guard" => Ok(ReferencePlayer::Guard),
            other => Err(format!(
                "unknown player '{other}': expected random, greedy, arrival or guard"
            )),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ReferencePlayer::Random => "random",
            ReferencePlayer::Greedy => "greedy",
            ReferencePlayer::Arrival => "arrival",
            ReferencePlayer::Guard => "guard",
        }
    }
}

/// A deliberate fault, for testing the arena's referee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Prints nonsense lines and an unreadable `bestmove`.
    Garbage,
    /// Answers a well-formed move that is not legal.
    Illegal,
    /// Stops answering anything.
    Hang,
    /// Exits with status 3.
    Crash,
    /// Answers only after the whole clock (plus a second) has passed.
    Slow,
    /// Never finishes the `uci` handshake.
    NoHandshake,
}

impl Fault {
    pub fn parse(name: &str) -> Result<Fault, String> {
        Ok(match name {
            "garbage" => Fault::Garbage,
            "illegal" => Fault::Illegal,
            "hang" => Fault::Hang,
            "crash" => Fault::Crash,
            "slow" => Fault::Slow,
            "no-handshake" => Fault::NoHandshake,
            other => {
                return Err(format!(
                    "unknown fault '{other}': expected garbage, illegal, hang, crash, slow or \
                     no-handshake"
                ))
            }
        })
    }

    /// Crashes or hangs here, when that is the fault; the other faults are the caller's to act.
    pub(super) fn strike_process(self) {
        match self {
            Fault::Crash => std::process::exit(3),
            Fault::Hang => loop {
                std::thread::sleep(Duration::from_secs(3600));
            },
            _ => {}
        }
    }
}

/// How a `roger play` process behaves.
#[derive(Clone, Copy, Debug)]
pub struct PlaySettings {
    pub player: ReferencePlayer,
    pub seed: u64,
    pub fault: Option<Fault>,
    /// The fault strikes from this many answered `go`s into each game on.
    pub fault_after: u32,
}

impl PlaySettings {
    /// The settings as the command line names them.
    pub fn from_names(
        player: &str,
        seed: u64,
        fault: Option<&str>,
        fault_after: u32,
    ) -> Result<PlaySettings, String> {
        Ok(PlaySettings {
            player: ReferencePlayer::parse(player)?,
            seed,
            fault: fault.map(Fault::parse).transpose()?,
            fault_after,
        })
    }

    /// The fault that strikes now, `answered` moves into the game.
    pub(super) fn fault_at(&self, answered: u32) -> Option<Fault> {
        self.fault.filter(|_| answered >= self.fault_after)
    }
}

/// The reference player's move in `game`, seeded by the position so that it depends on
/// nothing else; `None` when there is no legal move.
pub(super) fn choose_in(game: &AnyGame, settings: PlaySettings) -> Option<String> {
    dispatch!(game, record => choose(record, settings))
}

fn choose<G: Game + Evaluate>(record: &GameRecord<G>, settings: PlaySettings) -> Option<String> {
    let seed = settings.seed ^ record.position().key();
    let mut player: Box<dyn Player<G>> = match settings.player {
        ReferencePlayer::Random => Box::new(RandomPlayer::new(seed)),
        ReferencePlayer::Greedy => Box::new(GreedyPlayer::new(seed)),
        ReferencePlayer::Arrival => unreachable!("arrival plays realtime chess only (families)"),
        ReferencePlayer::Guard => unreachable!("guard plays Megachess only (families)"),
    };
    let mv = player.choose(record, None)?;
    Some(record.position().move_text(mv))
}

/// What the players answer to `bench` and `go perft`.
pub(super) const NOT_THE_ENGINE: &str =
    "the built-in players do not run perft or bench; use the engine";
