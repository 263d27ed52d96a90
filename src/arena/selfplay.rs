//! `roger selfplay`: a match between built-in players (engine, random, greedy) in any game.
//! The players run in-process behind the arena's in-process transport and UCI client, and the
//! games are scheduled, refereed and tallied exactly as `roger arena` does it.

use super::pool::{play_games, Lineup, Workers};
use super::process::local::{serve_session, LocalTransport};
use super::process::uci::UciClient;
use super::process::{greet, Client, GameSetup, Inbox, Limits, TimeControl};
use super::record::FinishedGame;
use super::referee::{referee_for, Adjudication, RefereeSettings};
use super::report::encounter_stats;
use super::schedule::{schedule, ScheduleSettings};
use super::stats::elo_trinomial;
use crate::players::reference::PlayerAgent;
use crate::players::settings::{PlaySettings, ReferencePlayer};
use crate::protocol::dialect::turn::EngineAgent;
use crate::protocol::Agent;
use crate::rules::registry::{names_of, Family, DEFAULT_GAME};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

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

    pub fn name(self) -> &'static str {
        match self {
            PlayerKind::Engine => "engine",
            PlayerKind::Random => "random",
            PlayerKind::Greedy => "greedy",
        }
    }
}

/// `roger selfplay`'s flags.
#[derive(Clone, Debug, clap::Args)]
pub struct SelfplayOptions {
    /// The `UCI_Variant` to play.
    #[arg(long, default_value = DEFAULT_GAME, value_parser = names_of(Family::Turn))]
    pub variant: String,
    #[arg(long, default_value_t = 10)]
    pub games: u32,
    /// Time control per player: base seconds + increment seconds.
    #[arg(long, default_value = "10+0.1")]
    pub tc: String,
    /// The first player (White in odd games): engine, random or greedy.
    #[arg(long, default_value = "engine")]
    pub white: String,
    /// The second player (Black in odd games).
    #[arg(long, default_value = "engine")]
    pub black: String,
    /// Random plies played from the start position to vary the openings.
    #[arg(long, default_value_t = 4)]
    pub random_plies: usize,
    /// A game still going after this many plies is adjudicated a draw.
    #[arg(long, default_value_t = 600)]
    pub max_plies: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Milliseconds a player may overrun its clock before it loses on time.
    #[arg(long, default_value_t = 50)]
    pub timemargin: u64,
    /// Hash (MiB) of each engine player.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Search threads of each engine player.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Engine players search to this depth instead of by the clock.
    #[arg(long)]
    pub depth: Option<u32>,
}

/// Starts a built-in player of `game` behind the in-process transport and the UCI client: the
/// engine, or a reference player, each served by Roger's own protocol session.
fn start_player(
    name: &str,
    kind: PlayerKind,
    options: &SelfplayOptions,
    seed: u64,
    inbox: &mut Inbox,
) -> Result<Box<dyn Client>, String> {
    let reference = |player| PlaySettings {
        player,
        seed,
        fault: None,
        fault_after: 0,
    };
    let settings = match kind {
        PlayerKind::Engine => None,
        PlayerKind::Random => Some(reference(ReferencePlayer::Random)),
        PlayerKind::Greedy => Some(reference(ReferencePlayer::Greedy)),
    };
    let transport = LocalTransport::spawn(
        name,
        inbox,
        None,
        serve_session(move || -> Box<dyn Agent> {
            match settings {
                None => Box::new(EngineAgent),
                Some(settings) => Box::new(PlayerAgent {
                    settings,
                    xboard: false,
                }),
            }
        }),
    );
    let engine_options = [
        ("Hash".to_string(), options.hash.to_string()),
        ("Threads".to_string(), options.threads.to_string()),
    ];
    let setup = GameSetup {
        game: &options.variant,
        options: if settings.is_none() {
            &engine_options
        } else {
            &[]
        },
        limits: Limits::default(),
        timeout: Duration::from_secs(30),
    };
    greet(Box::new(UciClient::new(transport)), inbox, &setup)
}

/// Runs `roger selfplay`: one line per game with the running score, then the final score.
pub fn command(options: &SelfplayOptions) -> ExitCode {
    match run(options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("roger selfplay: {error}");
            ExitCode::FAILURE
        }
    }
}

fn run(options: &SelfplayOptions) -> Result<(), String> {
    let names = player_names(options)?;
    println!(
        "{}: {} vs {}, {} games, tc {}",
        options.variant, names[0], names[1], options.games, options.tc
    );
    let finished = play(options, &mut |game, finished| {
        let score = encounter_stats(finished, 0, 1).trinomial;
        let played = &game.played;
        println!(
            "game {}: {} {} ({}, {} plies)  {} +{} ={} -{}",
            game.scheduled.index + 1,
            game.names.join(" - "),
            played.result_text(),
            played.termination.text(),
            played.length(),
            names[0],
            score.wins,
            score.draws,
            score.losses
        );
    })?;
    let score = encounter_stats(&finished, 0, 1).trinomial;
    let elo = elo_trinomial(&score)
        .map(|e| format!(", Elo {:+.1}", e.elo))
        .unwrap_or_default();
    println!(
        "score of {} vs {}: W-D-L {}-{}-{} ({:.1}%){elo}",
        names[0],
        names[1],
        score.wins,
        score.draws,
        score.losses,
        100.0 * score.score()
    );
    Ok(())
}

/// The first and second player's names (`engine`, `engine #2`).
fn player_names(options: &SelfplayOptions) -> Result<[String; 2], String> {
    let kinds = [
        PlayerKind::parse(&options.white)?,
        PlayerKind::parse(&options.black)?,
    ];
    let mut names = kinds.map(|kind| kind.name().to_string());
    if names[0] == names[1] {
        names[1].push_str(" #2");
    }
    Ok(names)
}

/// Plays the match; `on_game` sees each game as it ends, with all the games so far.
pub fn play(
    options: &SelfplayOptions,
    on_game: &mut dyn FnMut(&FinishedGame, &[FinishedGame]),
) -> Result<Vec<FinishedGame>, String> {
    let tc = TimeControl::parse(&options.tc)?;
    let kinds = [
        PlayerKind::parse(&options.white)?,
        PlayerKind::parse(&options.black)?,
    ];
    let names = player_names(options)?;
    let games = schedule(&ScheduleSettings {
        variant: &options.variant,
        games: options.games as usize,
        random_plies: options.random_plies,
        seed: options.seed,
        ..ScheduleSettings::default()
    })?;
    let referee = referee_for(RefereeSettings {
        variant: options.variant.clone(),
        margin: Duration::from_millis(options.timemargin),
        hang_timeout: Duration::from_secs(60),
        ready_timeout: Duration::from_secs(30),
        adjudication: Adjudication {
            max_plies: Some(options.max_plies),
            ..Adjudication::default()
        },
        realtime: Default::default(),
        world: Default::default(),
        chess960: false,
    })?;
    let start = |index: usize, inbox: &mut Inbox| {
        let seed = options.seed.wrapping_add(index as u64 + 1);
        start_player(&names[index], kinds[index], options, seed, inbox)
    };
    let limits = Limits {
        tc: Some(tc),
        depth: options.depth,
        ..Limits::default()
    };
    let lineup = Lineup {
        names: names.to_vec(),
        limits: vec![limits; 2],
        start: &start,
    };
    let mut finished: Vec<FinishedGame> = Vec::new();
    let stop = AtomicBool::new(false);
    play_games(
        &games,
        referee.as_ref(),
        &lineup,
        &Workers::new(1, &stop),
        &mut |game| {
            finished.push(game);
            on_game(finished.last().expect("just pushed"), &finished);
        },
    );
    Ok(finished)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::referee::Termination;

    fn options(white: &str, black: &str, games: u32) -> SelfplayOptions {
        SelfplayOptions {
            variant: "chess".into(),
            games,
            tc: "100".into(),
            white: white.into(),
            black: black.into(),
            random_plies: 2,
            max_plies: 300,
            seed: 7,
            timemargin: 10_000,
            hash: 4,
            threads: 1,
            depth: Some(3),
        }
    }

    #[test]
    fn random_games_end_by_the_rules_or_the_ply_limit() {
        let games = play(&options("random", "random", 4), &mut |_, _| {}).unwrap();
        assert_eq!(games.len(), 4);
        for game in &games {
            assert!(!game.played.termination.is_fault(), "{:?}", game.played);
            assert_eq!(game.names.len(), 2);
        }
    }

    #[test]
    fn a_shallow_engine_beats_the_random_and_greedy_players() {
        let games = play(&options("engine", "random", 2), &mut |_, _| {}).unwrap();
        let score = encounter_stats(&games, 0, 1).trinomial;
        assert_eq!(score.wins, 2, "{games:?}");
        let mut seen = 0;
        let games = play(&options("engine", "greedy", 2), &mut |_, so_far| {
            seen = so_far.len()
        })
        .unwrap();
        assert_eq!(seen, 2);
        assert!(encounter_stats(&games, 0, 1).trinomial.score() >= 0.75);
        assert!(games
            .iter()
            .all(|g| g.played.termination != Termination::TimeForfeit));
    }
}
