//! The protocol fuzzer (`roger fuzz protocol`): a seeded generator of protocol lines for every
//! game — valid commands, the same with corrupted fields, commands sent during searches, huge
//! and binary lines — fed to the real binary as a child process, with every answer checked.
//! See docs/fuzzing.md.
//!
//! The turn games: [`generate`] makes the lines and their expectations from a [`model`] of the
//! engine (built on the rules library), [`corrupt`] and `bad` break them, [`check`] drives the
//! engine and checks it (with [`peer`]: the child processes and python-chess), [`report`]
//! counts. Realtime chess and Megachess: [`mixed`] plans, drives and checks, with
//! [`realtime`] (random games, broken states, the referee of a stream) and [`megachess`]
//! (random and huge worlds, broken worlds, the replay of a turn).

mod bad;
pub mod check;
pub mod corrupt;
pub mod generate;
pub mod megachess;
pub mod mixed;
pub mod model;
pub mod peer;
pub mod realtime;
pub mod report;
pub mod step;

use check::{Bounds, Driver, Judge, Settings};
use mixed::{Home, Mixed, MixedSettings};
use peer::{Launcher, Peer, Process, PythonChess};
use report::Report;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Which games a run speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FuzzFamily {
    /// Chess, Millennium and Nichess.
    Turn,
    /// Realtime chess (visiting the other games).
    Realtime,
    /// Megachess (visiting the other games).
    Megachess,
    /// A third of the lines for each of the three above.
    All,
}

/// `roger fuzz protocol`'s flags.
#[derive(Clone, Debug, clap::Args)]
pub struct ProtocolFuzzOptions {
    /// How many lines to generate.
    #[arg(long, default_value_t = 10_000)]
    pub lines: u64,
    /// The games to speak.
    #[arg(long, value_enum, default_value_t = FuzzFamily::All)]
    pub family: FuzzFamily,
    /// Realtime and Megachess: how long past its `movetime` a timed answer may come before it
    /// counts as late, in ms.
    #[arg(long, default_value_t = 2000)]
    pub margin_ms: u64,
    /// The generator's seed: the same seed gives the same lines.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Also write the counts as JSON to this file.
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// The engine to test (and to judge with); this roger by default.
    #[arg(long)]
    pub engine: Option<PathBuf>,
    /// Skip the python-chess cross-check of chess moves (it is on by default, and a missing
    /// python3 or python-chess is then an error).
    #[arg(long)]
    pub no_python_chess: bool,
    /// Print a progress line to standard error every this many lines (0: never).
    #[arg(long, default_value_t = 100_000)]
    pub progress: u64,
}

/// Starts `program` (with no arguments: the protocol on stdin/stdout) as a [`Peer`].
pub fn launcher(program: PathBuf) -> Launcher {
    Box::new(move || {
        Process::start(&program, &[]).map(|process| Box::new(process) as Box<dyn Peer>)
    })
}

/// Runs the fuzzer against `program`.
pub fn run(
    program: PathBuf,
    lines: u64,
    seed: u64,
    python_chess: bool,
    progress_every: u64,
) -> Result<Report, String> {
    let python = match python_chess {
        true => Some(PythonChess::start()?),
        false => None,
    };
    let bounds = Bounds::default();
    let judge = Judge::new(launcher(program.clone()), bounds)?;
    let settings = Settings {
        lines,
        seed,
        bounds,
        progress_every,
    };
    Driver::new(settings, launcher(program), judge, python)?.run()
}

/// Runs the realtime or Megachess fuzzer against `program`; `margin` is how long past its
/// `movetime` a timed answer may come.
pub fn run_mixed(
    program: PathBuf,
    home: Home,
    lines: u64,
    seed: u64,
    margin: Duration,
    progress_every: u64,
) -> Result<Report, String> {
    let settings = MixedSettings {
        lines,
        seed,
        home,
        ready: Bounds::default().ready,
        margin,
        hang: Duration::from_secs(30),
        progress_every,
    };
    Mixed::new(settings, launcher(program))?.run()
}

/// Runs the families the options name, one after the other, with one report.
fn run_families(program: PathBuf, options: &ProtocolFuzzOptions) -> Result<Report, String> {
    let margin = Duration::from_millis(options.margin_ms);
    let (seed, progress) = (options.seed, options.progress);
    let turn = |lines| {
        run(
            program.clone(),
            lines,
            seed,
            !options.no_python_chess,
            progress,
        )
    };
    let mixed = |home, lines| run_mixed(program.clone(), home, lines, seed, margin, progress);
    match options.family {
        FuzzFamily::Turn => turn(options.lines),
        FuzzFamily::Realtime => mixed(Home::Realtime, options.lines),
        FuzzFamily::Megachess => mixed(Home::Megachess, options.lines),
        FuzzFamily::All => {
            let third = options.lines / 3;
            let mut report = turn(options.lines - 2 * third)?;
            report.absorb(mixed(Home::Realtime, third)?);
            report.absorb(mixed(Home::Megachess, third)?);
            Ok(report)
        }
    }
}

/// `roger fuzz protocol`: prints the counts, writes the JSON report; fails on any failure.
pub fn command(options: &ProtocolFuzzOptions) -> ExitCode {
    let program = match &options.engine {
        Some(path) => Ok(path.clone()),
        None => std::env::current_exe().map_err(|error| format!("cannot find this roger: {error}")),
    };
    let result = program.and_then(|program| run_families(program, options));
    let report = match result {
        Ok(report) => report,
        Err(error) => {
            eprintln!("roger fuzz protocol: {error}");
            return ExitCode::FAILURE;
        }
    };
    print!("{}", report.summary());
    if let Some(path) = &options.report {
        let written = serde_json::to_string_pretty(&report)
            .map_err(|error| error.to_string())
            .and_then(|json| std::fs::write(path, json + "\n").map_err(|error| error.to_string()));
        if let Err(error) = written {
            eprintln!(
                "roger fuzz protocol: cannot write {}: {error}",
                path.display()
            );
            return ExitCode::FAILURE;
        }
    }
    match report.failure_count() {
        0 => ExitCode::SUCCESS,
        _ => ExitCode::FAILURE,
    }
}
