//! The command line of `roger`: what each subcommand takes, with its help text. `main.rs` only
//! matches on these and calls the library.

use clap::{Args, Parser, Subcommand};
use roger::arena::book::BookOptions;
use roger::arena::selfplay::SelfplayOptions;
use roger::engine::{MAX_DEPTH, MAX_PERFT_DEPTH};
use roger::fuzz::protocol::ProtocolFuzzOptions;
use roger::fuzz::rules::RulesFuzzOptions;
use roger::rules::registry::{game_names, names_of, Family, DEFAULT_GAME};
use roger::tune::data::command::DataCommand;
use roger::tune::datagen::DatagenOptions;
use roger::tune::fit::TuneOptions;
use roger::tune::train::TrainOptions;
use roger::web::cli::ServeArgs;
use roger::world::cli::{BotArgs, WorldArgs, WorldLoadArgs};

#[derive(Parser)]
#[command(
    name = "roger",
    version,
    about = "A chess and chess-variant engine (UCI-like protocol)"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Mode>,
}

#[derive(Subcommand)]
pub enum Mode {
    /// Serve the protocol on standard input and output (the default).
    Uci,
    /// Count the leaf nodes under each legal move, as `go perft` does.
    Perft {
        /// The position; the variant's start position when left out.
        #[arg(long, conflicts_with = "suite")]
        fen: Option<String>,
        /// A perft suite to check instead (`FEN ;D1 20 ;D2 400 ...` a line, as
        /// tests/data/chess960/perft_suite.epd): every count up to `--depth` against the
        /// published one; the exit status fails on any difference.
        #[arg(long)]
        suite: Option<std::path::PathBuf>,
        /// How many plies deep to count (1 to 64).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_PERFT_DEPTH as i64))]
        depth: u32,
        /// The `UCI_Variant` whose rules apply.
        #[arg(long, default_value = DEFAULT_GAME, value_parser = names_of(Family::Turn))]
        variant: String,
    },
    /// Play an in-process match between built-in players (engine, random, greedy), refereed
    /// with the game's rules; colours alternate, each opening is played twice.
    Selfplay(SelfplayOptions),
    /// Make an opening book: random legal plies from the start, each position searched and
    /// kept when balanced, one EPD (chess) or FEN per line, as `roger arena --openings
    /// file=F format=epd` reads it.
    Book(BookOptions),
    /// Run the fixed search benchmark and print its node count and speed.
    Bench {
        /// Search every benchmark position to this depth (1 to 124) instead of the default.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_DEPTH as i64))]
        depth: Option<u32>,
    },
    /// Run an engine-vs-engine tournament refereed with Roger's rules (see `roger help arena`
    /// and docs/arena.md).
    #[command(disable_help_flag = true, override_help = roger::arena::cli::USAGE)]
    Arena {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Serve the protocol with a built-in reference player, random or greedy (one ply; in
    /// realtime chess rate-limited), for realtime chess only (`--variant realtime`) the
    /// arrival-time sparring partner, arrival, or for Megachess only (`--variant megachess`) the
    /// whole-turn guard, guard; UCI, or xboard with `--xboard`.
    Play(PlayArgs),
    /// Run a persistent Megachess world server: players and bots join over WebSocket, turns
    /// run on the clock or simulated, the world lives in SQLite (see docs/world-server.md).
    World(WorldArgs),
    /// Play a world server's player with an engine that speaks the Megachess protocol.
    Bot(BotArgs),
    /// Measure a world server under N bot connections on loopback: turns and moves per second,
    /// the delay to the last client's turn message, the longest stall, peak memory.
    WorldLoad(WorldLoadArgs),
    /// Serve the browser pages: play every game against Roger, watch and join a Megachess
    /// world, replay arena games (see docs/web.md).
    Serve(ServeArgs),
    /// Play self-play games at a fixed node budget a move and write their quiet positions with
    /// search score and result, for `roger tune` (see docs/tuning.md).
    Datagen(DatagenOptions),
    /// Count, merge, de-duplicate, split and convert self-play data (see docs/data.md).
    Data {
        #[command(subcommand)]
        command: DataCommand,
    },
    /// Fit every evaluation weight of a game to `roger datagen` data and print the values, or
    /// rewrite the game's weights file with `--write` (see docs/tuning.md).
    Tune(TuneOptions),
    /// Train the chess network on `roger datagen` data and write it where this build embeds
    /// it, or to `--out` (see docs/network.md).
    Train(TrainOptions),
    /// Fuzz the engine: generated input, every answer checked (see docs/fuzzing.md).
    Fuzz {
        #[command(subcommand)]
        command: FuzzCommand,
    },
}

/// `roger fuzz`'s fuzzers.
#[derive(Subcommand)]
pub enum FuzzCommand {
    /// Feed a child roger generated protocol lines (valid, corrupted, interleaved with
    /// searches, huge, binary) for every game and check each answer.
    Protocol(ProtocolFuzzOptions),
    /// Random games of every turn game, checking FEN round trips, Zobrist keys against keys
    /// from scratch, move texts, printed positions and game endings.
    Rules(RulesFuzzOptions),
}

/// `roger play`.
#[derive(Args)]
pub struct PlayArgs {
    /// random, greedy, arrival (realtime chess only) or guard (Megachess only).
    pub player: String,
    /// Seed of the player's tie-breaks (mixed with each position).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Speak the xboard protocol instead of UCI.
    #[arg(long)]
    pub xboard: bool,
    /// The game played before any `UCI_Variant` (and that option's default): a turn game,
    /// realtime or megachess.
    #[arg(long, default_value = DEFAULT_GAME, value_parser = game_names())]
    pub variant: String,
    /// Misbehave on purpose, for testing referees: garbage, illegal, hang, crash, slow,
    /// no-handshake.
    #[arg(long, hide = true)]
    pub fault: Option<String>,
    /// The fault strikes after this many moves of each game.
    #[arg(long, hide = true, default_value_t = 0)]
    pub fault_after: u32,
}
