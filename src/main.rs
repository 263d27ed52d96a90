//! The `roger` command: the protocol loop by default, and perft and bench from the shell.

use clap::{Parser, Subcommand};
use roger::engine::{variant_names, Engine};
use roger::protocol::{self, print};
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
    /// Run the fixed search benchmark and print its node count and speed.
    Bench {
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
        depth: Option<u32>,
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

fn write_lines<S: AsRef<str>>(lines: &[S]) -> io::Result<()> {
    let mut stdout = io::stdout().lock();
    for line in lines {
        writeln!(stdout, "{}", line.as_ref())?;
    }
    stdout.flush()
}
