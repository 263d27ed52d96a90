//! The `roger` command: the protocol session by default, and perft, bench, selfplay, book, arena and
//! the reference players from the shell. The command line is defined in [`cli`]; this file only
//! dispatches.

mod cli;

use clap::Parser;
use cli::{Cli, FuzzCommand, Mode, PlayArgs};
use roger::arena::cli::{parse_arena_args, ArenaCommand, USAGE};
use roger::arena::selfplay;
use roger::arena::tournament;
use roger::players::serve_player;
use roger::players::settings::PlaySettings;
use roger::protocol::{self, shell};
use std::io;
use std::process::ExitCode;

/// mimalloc in place of the system's allocator: the world server frees and makes thousands of
/// small messages a turn on several threads at once, where glibc's malloc spends much of its
/// time consolidating and locking.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None | Some(Mode::Uci) => protocol::run(io::stdin().lock(), io::stdout()),
        Some(Mode::Perft {
            suite: Some(path),
            depth,
            variant,
            ..
        }) => return shell::perft_suite(&path, depth, &variant),
        Some(Mode::Perft {
            fen,
            depth,
            variant,
            ..
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
        Some(Mode::Selfplay(options)) => return selfplay::command(&options),
        Some(Mode::Book(options)) => return roger::arena::book::command(&options),
        Some(Mode::Datagen(options)) => return roger::tune::datagen::command(&options),
        Some(Mode::Data { command }) => return roger::tune::data::command::command(&command),
        Some(Mode::Tune(options)) => return roger::tune::fit::command(&options),
        Some(Mode::Train(options)) => return roger::tune::train::command(&options),
        Some(Mode::World(args)) => return roger::world::turns::command(&args),
        Some(Mode::Bot(args)) => return roger::world::cli::bot_command(&args),
        Some(Mode::WorldLoad(args)) => return roger::world::cli::world_load_command(&args),
        Some(Mode::Serve(args)) => return roger::web::cli::command(&args),
        Some(Mode::Fuzz { command }) => {
            return match command {
                FuzzCommand::Protocol(options) => roger::fuzz::protocol::command(&options),
                FuzzCommand::Rules(options) => roger::fuzz::rules::command(&options),
            }
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
            &args.variant,
            io::stdin().lock(),
            io::stdout(),
        )),
        Err(error) => {
            eprintln!("roger play: {error}");
            ExitCode::from(2)
        }
    }
}
