//! The `roger` command: the protocol session by default, and perft, bench, selfplay, arena and
//! the reference players from the shell. The command line is defined in [`cli`]; this file only
//! dispatches.

mod cli;

use clap::Parser;
use cli::{Cli, Mode, PlayArgs, SelfplayArgs};
use roger::arena::cli::{parse_arena_args, ArenaCommand, USAGE};
use roger::arena::local::{MatchSettings, TimeControl};
use roger::arena::selfplay::{selfplay, EngineSettings, PlayerKind};
use roger::arena::tournament;
use roger::players::reference::PlaySettings;
use roger::players::serve_player;
use roger::protocol::{self, shell};
use roger::rules::Color;
use std::io;
use std::process::ExitCode;
use std::time::Duration;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None | Some(Mode::Uci) => protocol::run(io::stdin().lock(), io::stdout()),
        Some(Mode::Perft {
            fen,
            depth,
            variant,
        }) => match shell::perft(fen.as_deref(), depth, &variant) {
            Ok(lines) => shell::write_lines(&mut io::stdout().lock(), &lines),
            Err(error) => {
                eprintln!("roger perft: {error}");
                return ExitCode::FAILURE;
            }
        },
        Some(Mode::Bench { depth }) => shell::bench(depth, &mut shell::stdout_line),
        Some(Mode::Arena { args }) => return arena_command(&args),
        Some(Mode::Play(args)) => return play_command(args),
        Some(Mode::Selfplay(SelfplayArgs {
            variant,
            games,
            tc,
            white,
            black,
            random_plies,
            max_plies,
            seed,
            timemargin,
            hash,
            threads,
            depth,
        })) => {
            let engine = EngineSettings {
                hash_mb: hash,
                threads,
                depth,
            };
            let setup = TimeControl::parse(&tc).and_then(|tc| {
                Ok((
                    PlayerKind::parse(&white)?,
                    PlayerKind::parse(&black)?,
                    MatchSettings {
                        games,
                        tc,
                        margin: Duration::from_millis(timemargin),
                        random_plies,
                        max_plies,
                        seed,
                    },
                ))
            });
            return match setup {
                Ok((first, second, settings)) => {
                    selfplay_command(&variant, first, second, engine, &settings)
                }
                Err(error) => {
                    eprintln!("roger selfplay: {error}");
                    ExitCode::FAILURE
                }
            };
        }
    };
    exit_code(result)
}

/// The exit status of a command that writes to standard output.
fn exit_code(result: io::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (a closed pipe): nothing more to say to anyone.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("roger: {error}");
            ExitCode::FAILURE
        }
    }
}

fn selfplay_command(
    variant: &str,
    first: PlayerKind,
    second: PlayerKind,
    engine: EngineSettings,
    settings: &MatchSettings,
) -> ExitCode {
    let name = |kind: PlayerKind| format!("{kind:?}").to_lowercase();
    let (first_name, second_name) = (name(first), name(second));
    println!(
        "{variant}: {first_name} vs {second_name}, {} games, tc {:?}+{:?}",
        settings.games, settings.tc.base, settings.tc.increment
    );
    let mut running = roger::arena::local::Score::default();
    let result = selfplay(
        variant,
        first,
        second,
        engine,
        settings,
        &mut |number, game, first_white| {
            let (white, black) = if first_white {
                (&first_name, &second_name)
            } else {
                (&second_name, &first_name)
            };
            let first_color = if first_white {
                Color::White
            } else {
                Color::Black
            };
            match game.winner {
                None => running.draws += 1,
                Some(c) if c == first_color => running.wins += 1,
                Some(_) => running.losses += 1,
            }
            println!(
                "game {number}: {white} - {black} {} ({}, {} plies)  {first_name} +{} ={} -{}",
                game.result_text(),
                game.termination,
                game.moves.len(),
                running.wins,
                running.draws,
                running.losses
            );
        },
    );
    match result {
        Ok(score) => {
            println!(
                "score of {first_name} vs {second_name}: W-D-L {}-{}-{} ({:.1}%)",
                score.wins,
                score.draws,
                score.losses,
                100.0 * score.fraction()
            );
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("roger selfplay: {error}");
            ExitCode::FAILURE
        }
    }
}

fn arena_command(args: &[String]) -> ExitCode {
    let fail = |error: String| {
        eprintln!("roger arena: {error}");
        ExitCode::FAILURE
    };
    match parse_arena_args(args) {
        Err(error) => {
            eprintln!("roger arena: {error}\n(see roger arena --help)");
            ExitCode::from(2)
        }
        Ok(ArenaCommand::Help) => {
            print!("{USAGE}");
            ExitCode::SUCCESS
        }
        Ok(ArenaCommand::Run(settings)) => match tournament::run(*settings) {
            Ok(outcome) if outcome.interrupted => ExitCode::from(130),
            Ok(_) => ExitCode::SUCCESS,
            Err(error) => fail(error),
        },
        Ok(ArenaCommand::Merge {
            files,
            json,
            pgnout,
        }) => match tournament::merge(&files, json.as_deref(), pgnout.as_deref()) {
            Ok(_) => ExitCode::SUCCESS,
            Err(error) => fail(error),
        },
    }
}

fn play_command(args: PlayArgs) -> ExitCode {
    let settings = PlaySettings::from_names(
        &args.player,
        args.seed,
        args.fault.as_deref(),
        args.fault_after,
    );
    match settings {
        Ok(settings) => exit_code(serve_player(
            settings,
            args.xboard,
            io::stdin().lock(),
            io::stdout(),
        )),
        Err(error) => {
            eprintln!("roger play: {error}");
            ExitCode::from(2)
        }
    }
}
