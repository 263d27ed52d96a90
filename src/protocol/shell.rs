//! The commands that also run from the shell (`roger perft`, `roger bench`), printed as the
//! protocol prints them.

use super::print;
use crate::engine::Engine;
use std::io::{self, Write};

/// The `go perft` lines of `variant`'s position `fen` (its start position when `None`).
pub fn perft(fen: Option<&str>, depth: u32, variant: &str) -> Result<Vec<String>, String> {
    let mut engine = Engine::new();
    engine.set_option("UCI_Variant", Some(variant))?;
    engine.set_position(fen, &[])?;
    Ok(print::perft_lines(&engine.perft(depth)?))
}

/// Runs the benchmark, giving `emit` each game's lines as they come and the summary at the end.
/// Stops emitting at the first failed write, and returns its error.
pub fn bench(depth: Option<u32>, emit: &mut dyn FnMut(&str) -> io::Result<()>) -> io::Result<()> {
    let mut written = Ok(());
    let (nodes, nps) = crate::bench::run(depth, &mut |line: &str| {
        if written.is_ok() {
            written = emit(line);
        }
    });
    written?;
    print::bench_summary(nodes, nps)
        .iter()
        .try_for_each(|line| emit(line))
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
