//! The protocol loop: reads commands, drives the engine, prints the replies.

use super::parse::{parse_command, Command, PositionStart};
use super::print;
use crate::engine::{Engine, GoParams, Report};
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Mutex};

/// The output, shared with the search thread. Every line is flushed at once: GUIs read pipes.
#[derive(Clone)]
struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    fn new(writer: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(writer))))
    }

    fn lines<S: AsRef<str>>(&self, lines: impl IntoIterator<Item = S>) -> io::Result<()> {
        // A poisoned lock only means a writer panicked mid-line; the stream is still usable.
        let mut writer = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        for line in lines {
            writer.write_all(line.as_ref().as_bytes())?;
            writer.write_all(b"\n")?;
        }
        writer.flush()
    }

    fn line(&self, line: &str) -> io::Result<()> {
        self.lines([line])
    }
}

enum Flow {
    Continue,
    Quit,
}

struct Session {
    engine: Engine,
    output: Output,
}

/// Serves the protocol until `quit` or the end of the input. At the end of the input a search
/// that ends by itself is let finish, an endless one (`go infinite`, pondering) is stopped;
/// either way its `bestmove` is printed before this returns.
pub fn run<R: BufRead, W: Write + Send + 'static>(mut input: R, output: W) -> io::Result<()> {
    let mut session = Session {
        engine: Engine::new(),
        output: Output::new(output),
    };
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            session.engine.wait();
            return Ok(());
        }
        // A stray invalid byte should not end the session: it becomes U+FFFD and an error.
        let line = String::from_utf8_lossy(&bytes);
        // Whatever goes wrong with one line, the engine keeps serving the next.
        let handled = panic::catch_unwind(AssertUnwindSafe(|| session.handle_line(&line)));
        match handled {
            Ok(Ok(Flow::Continue)) => {}
            Ok(Ok(Flow::Quit)) => return Ok(()),
            Ok(Err(io_error)) => return Err(io_error),
            Err(_) => session.output.line(&print::error_line(&format!(
                "internal error while handling '{}'",
                line.trim()
            )))?,
        }
    }
}

impl Session {
    fn handle_line(&mut self, line: &str) -> io::Result<Flow> {
        match parse_command(line) {
            Ok(Some(command)) => self.handle(command),
            Ok(None) => Ok(Flow::Continue),
            Err(error) => {
                self.error(&error.to_string())?;
                Ok(Flow::Continue)
            }
        }
    }

    fn handle(&mut self, command: Command) -> io::Result<Flow> {
        match command {
            Command::Uci => {
                let mut lines: Vec<String> = print::id_lines().into();
                lines.extend(self.engine.option_specs().iter().map(print::option_line));
                lines.push("uciok".into());
                self.output.lines(lines)?;
            }
            Command::Debug(_) => {}
            Command::IsReady => self.output.line("readyok")?,
            Command::UciNewGame => self.engine.new_game(),
            Command::SetOption { name, value } => {
                match self.engine.set_option(&name, value.as_deref()) {
                    Ok(Some(remark)) => self.output.line(&print::info_string(&remark))?,
                    Ok(None) => {}
                    Err(error) => self.error(&format!("setoption: {error}"))?,
                }
            }
            Command::Position { start, moves } => {
                let fen = match &start {
                    PositionStart::StartPos => None,
                    PositionStart::Fen(fen) => Some(fen.as_str()),
                };
                if let Err(error) = self.engine.set_position(fen, &moves) {
                    self.error(&format!("position: {error}; the position is unchanged"))?;
                }
            }
            Command::Go(params) => self.go(&params)?,
            Command::Perft(depth) => match self.engine.perft(depth) {
                Ok(counts) => self.output.lines(print::perft_lines(&counts))?,
                Err(error) => self.error(&format!("go perft: {error}"))?,
            },
            Command::Stop => self.engine.stop(),
            Command::PonderHit => self.engine.ponderhit(),
            Command::Quit => {
                self.engine.stop();
                return Ok(Flow::Quit);
            }
            Command::Display => self.output.lines(self.engine.display().lines())?,
            Command::Bench { depth } => self.bench(depth)?,
        }
        Ok(Flow::Continue)
    }

    fn go(&mut self, params: &GoParams) -> io::Result<()> {
        let report_output = self.output.clone();
        let best_output = self.output.clone();
        // The search thread prints; a failed write there means the GUI is gone, which the main
        // loop notices on its own.
        let on_report = move |report: Report| {
            let line = match report {
                Report::Progress(info) => print::info_line(&info),
                Report::Message(text) => print::info_string(&text),
            };
            let _ = report_output.line(&line);
        };
        let on_best = move |best| {
            let _ = best_output.line(&print::bestmove_line(&best));
        };
        match self.engine.go(params, on_report, on_best) {
            Ok(()) => Ok(()),
            Err(error) => self.error(&format!("go: {error}")),
        }
    }

    fn bench(&mut self, depth: Option<u32>) -> io::Result<()> {
        if self.engine.is_searching() {
            return self.error("bench: a search is running; send 'stop' first");
        }
        let mut written = Ok(());
        let (nodes, nps) = crate::bench::run(depth, &mut |line: &str| {
            if written.is_ok() {
                written = self.output.line(line);
            }
        });
        written?;
        self.output.lines(print::bench_summary(nodes, nps))
    }

    fn error(&self, text: &str) -> io::Result<()> {
        self.output.line(&print::error_line(text))
    }
}
