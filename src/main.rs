//! The `roger` command: the protocol loop by default, and perft and bench from the shell.

use clap::{Parser, Subcommand};
use roger::arena::cli::{parse_arena_args, ArenaCommand, USAGE};
use roger::arena::selfplay::{self, SelfplayOptions};
use roger::arena::tournament;
use roger::engine::Engine;
use roger::protocol::play::{run_player, run_xboard_player, Fault, PlaySettings, ReferencePlayer};
use roger::protocol::{self, print};
use roger::rules::registry::game_names as variant_names;
use std::io::{self, Write};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "roger",
    version,
    about = "A chess and chess-variant engine (UCI-like protocol)"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Mode>,
}

#[derive(Subcommand)]
enum Mode {
    /// Serve the protocol on standard input and output (the default).
    Uci,
    /// Count the leaf nodes under each legal move, as `go perft` does.
    Perft {
        /// The position; the variant's start position when left out.
        #[arg(long)]
        fen: Option<String>,
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
        depth: u32,
        /// The `UCI_Variant` whose rules apply.
        #[arg(long, default_value = "chess", value_parser = variant_names())]
        variant: String,
    },
    /// Play an in-process match between built-in players (engine, random, greedy), refereed
    /// with the game's rules; colours alternate, each opening is played twice.
    Selfplay(SelfplayOptions),
    /// Run the fixed search benchmark and print its node count and speed.
    Bench {
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
        depth: Option<u32>,
    },
    /// Run an engine-vs-engine tournament refereed with Roger's rules (see `roger arena --help`
    /// and docs/arena.md).
    #[command(disable_help_flag = true)]
    Arena {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Serve the protocol with a built-in reference player: random or greedy (one ply).
    Play {
        /// random or greedy.
        player: String,
        /// Seed of the player's tie-breaks (mixed with each position).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Speak the xboard protocol instead of UCI.
        #[arg(long)]
        xboard: bool,
        /// Misbehave on purpose, for testing referees: garbage, illegal, hang, crash, slow,
        /// no-handshake.
        #[arg(long, hide = true)]
        fault: Option<String>,
        /// The fault strikes after this many moves of each game.
        #[arg(long, hide = true, default_value_t = 0)]
        fault_after: u32,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None | Some(Mode::Uci) => protocol::run(io::stdin().lock(), io::stdout()),
        Some(Mode::Perft {
            fen,
            depth,
            variant,
        }) => return perft(fen.as_deref(), depth, &variant),
        Some(Mode::Bench { depth }) => bench(depth),
        Some(Mode::Arena { args }) => return arena_command(&args),
        Some(Mode::Play {
            player,
            seed,
            xboard,
            fault,
            fault_after,
        }) => {
            let settings = ReferencePlayer::parse(&player).and_then(|player| {
                Ok(PlaySettings {
                    player,
                    seed,
                    fault: fault.as_deref().map(Fault::parse).transpose()?,
                    fault_after,
                })
            });
            match settings {
                Ok(settings) if xboard => {
                    run_xboard_player(settings, io::stdin().lock(), io::stdout().lock())
                }
                Ok(settings) => run_player(settings, io::stdin().lock(), io::stdout().lock()),
                Err(error) => {
                    eprintln!("roger play: {error}");
                    return ExitCode::from(2);
                }
            }
        }
        Some(Mode::Selfplay(options)) => return selfplay::command(&options),
    };
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

fn perft(fen: Option<&str>, depth: u32, variant: &str) -> ExitCode {
    let mut engine = Engine::new();
    let counts = engine
        .set_option("UCI_Variant", Some(variant))
        .and_then(|_| engine.set_position(fen, &[]))
        .and_then(|()| engine.perft(depth));
    match counts {
        Ok(counts) => {
            let lines = print::perft_lines(&counts);
            match write_lines(&lines) {
                Ok(()) => ExitCode::SUCCESS,
                Err(_) => ExitCode::FAILURE,
            }
        }
        Err(error) => {
            eprintln!("roger perft: {error}");
            ExitCode::FAILURE
        }
    }
}

fn bench(depth: Option<u32>) -> io::Result<()> {
    let mut written = Ok(());
    let (nodes, nps) = roger::bench::run(depth, &mut |line: &str| {
        if written.is_ok() {
            written = write_lines(&[line]);
        }
    });
    written?;
    write_lines(&print::bench_summary(nodes, nps))
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

fn write_lines<S: AsRef<str>>(lines: &[S]) -> io::Result<()> {
    let mut stdout = io::stdout().lock();
    for line in lines {
        writeln!(stdout, "{}", line.as_ref())?;
    }
    stdout.flush()
}
