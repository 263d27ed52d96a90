//! The protocol fuzzer (`roger fuzz protocol`): a seeded generator of protocol lines for every
//! game — valid commands, the same with corrupted fields, commands sent during searches, huge
//! and binary lines — fed to the real binary as a child process, with every answer checked.
//! See docs/fuzzing.md.
//!
//! [`generate`] makes the lines and their expectations from a [`model`] of the engine (built on
//! the rules library), [`corrupt`] and `bad` break them, [`check`] drives the engine and checks
//! it (with [`peer`]: the child processes and python-chess), [`report`] counts.

mod bad;
pub mod check;
pub mod corrupt;
pub mod generate;
pub mod model;
pub mod peer;
pub mod report;
pub mod step;

use check::{Bounds, Driver, Judge, Settings};
use peer::{Launcher, Peer, Process, PythonChess};
use report::Report;
use std::path::PathBuf;
use std::process::ExitCode;

/// `roger fuzz protocol`'s flags.
#[derive(Clone, Debug, clap::Args)]
pub struct ProtocolFuzzOptions {
    /// How many lines to generate.
    #[arg(long, default_value_t = 10_000)]
    pub lines: u64,
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

/// `roger fuzz protocol`: prints the counts, writes the JSON report; fails on any failure.
pub fn command(options: &ProtocolFuzzOptions) -> ExitCode {
    let program = match &options.engine {
        Some(path) => Ok(path.clone()),
        None => std::env::current_exe().map_err(|error| format!("cannot find this roger: {error}")),
    };
    let result = program.and_then(|program| {
        run(
            program,
            options.lines,
            options.seed,
            !options.no_python_chess,
            options.progress,
        )
    });
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
