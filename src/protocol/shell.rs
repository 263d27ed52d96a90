//! The commands that also run from the shell (`roger perft`, `roger bench`), printed as the
//! protocol prints them.

use super::print;
use crate::engine::{Engine, OptionValue, UCI_VARIANT};
use crate::rules::registry::TurnGame;
use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

/// The `go perft` lines of `variant`'s position `fen` (its start position when `None`).
pub fn perft(fen: Option<&str>, depth: u32, variant: &str) -> Result<Vec<String>, String> {
    let mut engine = Engine::new();
    engine.set_option(UCI_VARIANT, OptionValue::Combo(variant.to_string()))?;
    engine.set_position(fen, &[])?;
    Ok(print::perft_lines(&engine.perft(depth)?))
}

/// `roger perft --suite`: checks every case of the suite file at `path` to `depth` in `variant`,
/// the cases on all cores, and prints one line a case (`id 7: ok to depth 6`, or what differs)
/// and a summary; fails when a count differs or the file cannot be read.
pub fn perft_suite(path: &std::path::Path, depth: u32, variant: &str) -> ExitCode {
    use crate::rules::perft_suite::{check_case, parse_suite, Mismatch};
    use rayon::prelude::*;
    let fail = |why: String| {
        eprintln!("roger perft: {why}");
        ExitCode::FAILURE
    };
    let Some(game) = TurnGame::named(variant) else {
        return fail(format!("'{variant}' is not a turn game"));
    };
    let cases = match std::fs::read_to_string(path) {
        Ok(text) => match parse_suite(&text) {
            Ok(cases) => cases,
            Err(why) => return fail(format!("{}: {why}", path.display())),
        },
        Err(error) => return fail(format!("{}: {error}", path.display())),
    };
    let started = std::time::Instant::now();
    let results: Vec<Result<(), Mismatch>> = cases
        .par_iter()
        .map(|case| check_case(game, case, depth))
        .collect();
    let mut failed = 0;
    for (case, result) in cases.iter().zip(&results) {
        let deepest = case
            .counts
            .iter()
            .map(|&(d, _)| d)
            .filter(|&d| d <= depth)
            .max();
        let line = match result {
            Ok(()) => match deepest {
                Some(deepest) => format!("{}: ok to depth {deepest}", case.name),
                None => format!("{}: no count at depth {depth} or less", case.name),
            },
            Err(Mismatch::Fen(error)) => format!("{}: FEN refused: {error}", case.name),
            Err(Mismatch::Count {
                depth,
                published,
                counted,
            }) => format!(
                "{}: depth {depth}: counted {counted}, published {published} ({})",
                case.name, case.fen
            ),
        };
        failed += usize::from(result.is_err());
        println!("{line}");
    }
    println!(
        "{} positions to depth {depth}: {} ok, {failed} differ ({:.1} s)",
        cases.len(),
        cases.len() - failed,
        started.elapsed().as_secs_f64()
    );
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Runs the benchmark, giving `emit` each game's lines as they come and the summary at the end.
/// Stops emitting at the first failed write, and returns its error.
pub fn bench(depth: Option<u32>, emit: &mut dyn FnMut(&str) -> io::Result<()>) -> io::Result<()> {
    bench_until(depth, &AtomicBool::new(false), emit, &mut || {})
}

/// [`bench`] that ends soon after `stop` is set, with `info string bench stopped` in place of
/// the summary; `answering` is called just before the summary (or that line) is emitted.
pub fn bench_until(
    depth: Option<u32>,
    stop: &AtomicBool,
    emit: &mut dyn FnMut(&str) -> io::Result<()>,
    answering: &mut dyn FnMut(),
) -> io::Result<()> {
    let mut written = Ok(());
    let result = crate::bench::run_until(depth, stop, &mut |line: &str| {
        if written.is_ok() {
            written = emit(line);
        }
    });
    written?;
    answering();
    match result {
        Some((nodes, nps)) => print::bench_summary(nodes, nps)
            .iter()
            .try_for_each(|line| emit(line)),
        None => emit(&print::info_string("bench stopped")),
    }
}

/// Writes one line to standard output, flushed.
pub fn stdout_line(line: &str) -> io::Result<()> {
    write_lines(&mut io::stdout().lock(), &[line])
}

pub fn write_lines<S: AsRef<str>>(out: &mut dyn Write, lines: &[S]) -> io::Result<()> {
    for line in lines {
        writeln!(out, "{}", line.as_ref())?;
    }
    out.flush()
}
