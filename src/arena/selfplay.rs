//! `roger selfplay`: an in-process match of built-in players in any game, by variant name.

use super::local::{play_match, GameReport, MatchSettings, Score};
use crate::eval::Evaluate;
use crate::players::{EnginePlayer, GreedyPlayer, Player, RandomPlayer};
use crate::rules::registry::{dispatch, AnyGame};
use crate::rules::{Game, GameRecord};

/// A built-in player, by the name the command line uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    Engine,
    Random,
    Greedy,
}

impl PlayerKind {
    pub fn parse(name: &str) -> Result<PlayerKind, String> {
        match name {
            "engine" | "roger" => Ok(PlayerKind::Engine),
            "random" => Ok(PlayerKind::Random),
            "greedy" => Ok(PlayerKind::Greedy),
            other => Err(format!(
                "unknown player '{other}': expected engine, random or greedy"
            )),
        }
    }
}

/// Engine settings for the `engine` players of a self-play match.
#[derive(Clone, Copy, Debug)]
pub struct EngineSettings {
    pub hash_mb: usize,
    pub threads: usize,
    /// A fixed depth instead of the clock.
    pub depth: Option<u32>,
}

fn make_player<G: Game + Evaluate>(
    kind: PlayerKind,
    engine: EngineSettings,
    seed: u64,
) -> Box<dyn Player<G>> {
    match kind {
        PlayerKind::Engine => {
            let player = EnginePlayer::new(engine.hash_mb, engine.threads);
            Box::new(match engine.depth {
                Some(depth) => player.with_depth(depth),
                None => player,
            })
        }
        PlayerKind::Random => Box::new(RandomPlayer::new(seed)),
        PlayerKind::Greedy => Box::new(GreedyPlayer::new(seed)),
    }
}

fn run<G: Game + Evaluate>(
    _game: &GameRecord<G>,
    first: PlayerKind,
    second: PlayerKind,
    engine: EngineSettings,
    settings: &MatchSettings,
    report: &mut dyn FnMut(u32, &GameReport, bool),
) -> Score {
    let mut a = make_player::<G>(first, engine, settings.seed.wrapping_add(1));
    let mut b = make_player::<G>(second, engine, settings.seed.wrapping_add(2));
    play_match(a.as_mut(), b.as_mut(), settings, report)
}

/// Plays `first` against `second` in the named variant; `report` sees each game with whether
/// `first` had White.
pub fn selfplay(
    variant: &str,
    first: PlayerKind,
    second: PlayerKind,
    engine: EngineSettings,
    settings: &MatchSettings,
    report: &mut dyn FnMut(u32, &GameReport, bool),
) -> Result<Score, String> {
    let game = AnyGame::new(variant).ok_or_else(|| format!("unknown variant '{variant}'"))?;
    Ok(dispatch!(&game, record => run(record, first, second, engine, settings, report)))
}
