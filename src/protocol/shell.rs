//! The commands that also run from the shell (`roger perft`, `roger bench`), printed as the
//! protocol prints them.

use super::print;
use crate::engine::{Engine, OptionValue, UCI_VARIANT};
use std::io::{self, Write};
use std::sync::atomic::AtomicBool;

/// The `go perft` lines of `variant`'s position `fen` (its start position when `None`).
pub fn perft(fen: Option<&str>, depth: u32, variant: &str) -> Result<Vec<String>, String> {
    let mut engine = Engine::new();
    engine.set_option(UCI_VARIANT, OptionValue::Combo(variant.to_string()))?;
    engine.set_position(fen, &[])?;
    Ok(print::perft_lines(&engine.perft(depth)?))
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
