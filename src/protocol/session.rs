//! The protocol session: the one read loop. It owns the handshake and the commands every game
//! family shares (`uci`, `isready`, `setoption`, `quit`, `d`, `bench`, `debug`) and hands every
//! other line to the current family's [`Dialect`], which `setoption name UCI_Variant` switches
//! through the registry. What answers (Roger's engine, or a reference player of `roger play`)
//! is an [`Agent`], which gives the session a dialect per family it plays.

use super::dialect::turn::EngineAgent;
use super::dialect::{Agent, Dialect, Language};
use super::output::Output;
use super::parse::{
    parse_command, quote, strip_line_end, tokens, Command, QUOTE_LIMIT, SEPARATORS,
};
use super::print;
use crate::engine::{variant_option, OptionKind, OptionSpec, UCI_VARIANT};
use crate::protocol::option_text::read_option;
use crate::rules::registry::{Family, GAMES};
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};

/// The commands the session answers itself in [`Language::Uci`].
const SHARED_COMMANDS: &[&str] = &["uci", "isready", "setoption", "quit", "d", "bench", "debug"];

enum Flow {
    Continue,
    Quit,
}

pub struct Session {
    agent: Box<dyn Agent>,
    /// Every dialect started so far (a family's state survives a switch away and back).
    dialects: Vec<Box<dyn Dialect>>,
    /// Index of the current one in `dialects`.
    current: usize,
    /// The game played before any `UCI_Variant`: the option's default.
    default_game: &'static str,
    output: Output,
}

/// Serves Roger's engine until `quit` or the end of the input.
pub fn run<R: BufRead, W: Write + Send + 'static>(input: R, output: W) -> io::Result<()> {
    serve(Box::new(EngineAgent), input, Output::new(output))
}

/// The most bytes one line may hold, line end included. A longer line is refused with one error
/// and skipped up to its end, without being held: the session keeps serving the next line.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// A line buffer grown past this is given back after its line.
const KEPT_BUFFER_BYTES: usize = 64 << 10;

/// What [`read_line`] found.
#[derive(Debug, PartialEq, Eq)]
enum Read {
    /// The end of the input.
    End,
    /// A line, in the buffer (with its `\n` unless the input ended first).
    Line,
    /// A line of this many bytes (line end included), more than `limit`: the buffer holds its
    /// first `limit` bytes, the rest was read and dropped.
    TooLong(usize),
}

/// Reads one line into `bytes` (cleared first), holding at most `limit` bytes of it.
fn read_line<R: BufRead>(input: &mut R, bytes: &mut Vec<u8>, limit: usize) -> io::Result<Read> {
    bytes.clear();
    let mut total = 0;
    loop {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if available.is_empty() {
            return Ok(match total {
                0 => Read::End,
                _ if total > limit => Read::TooLong(total),
                _ => Read::Line,
            });
        }
        let (taken, ended) = match available.iter().position(|&byte| byte == b'\n') {
            Some(at) => (at + 1, true),
            None => (available.len(), false),
        };
        let room = limit.saturating_sub(bytes.len());
        bytes.extend_from_slice(&available[..taken.min(room)]);
        total += taken;
        input.consume(taken);
        if ended {
            return Ok(if total > limit {
                Read::TooLong(total)
            } else {
                Read::Line
            });
        }
    }
}

/// Serves `agent` until `quit` or the end of the input. At the end of the input work that ends
/// by itself is let finish, endless work (`go infinite`, pondering) is stopped; either way its
/// answer is printed before this returns.
pub fn serve<R: BufRead>(agent: Box<dyn Agent>, input: R, output: Output) -> io::Result<()> {
    serve_game(agent, GAMES[0].name, input, output)
}

/// [`serve`], starting in `game` (a `UCI_Variant` value, which `UCI_Variant` then announces as
/// its default) instead of the first game.
pub fn serve_game<R: BufRead>(
    agent: Box<dyn Agent>,
    game: &str,
    mut input: R,
    output: Output,
) -> io::Result<()> {
    let mut session = Session::starting(agent, game, output)?;
    let mut bytes = Vec::new();
    loop {
        let read = read_line(&mut input, &mut bytes, MAX_LINE_BYTES)?;
        match read {
            Read::End => {
                session.dialect().finish();
                return Ok(());
            }
            Read::TooLong(length) => {
                let start = String::from_utf8_lossy(&bytes[..bytes.len().min(4 * QUOTE_LIMIT)]);
                session.output.error(&format!(
                    "line too long: {length} bytes, more than the {MAX_LINE_BYTES} a line may \
                     hold; the line starting {} is ignored",
                    quote(&start)
                ))?;
            }
            Read::Line => {
                // A stray invalid byte should not end the session: it becomes U+FFFD and an
                // error.
                let line = String::from_utf8_lossy(&bytes);
                // The line goes on with its line end: the parser strips it, once (a second
                // `\r` before the `\n` is part of the line, and makes its last token bad).
                let handled = panic::catch_unwind(AssertUnwindSafe(|| session.handle_line(&line)));
                let line = strip_line_end(&line);
                match handled {
                    Ok(Ok(Flow::Continue)) => {}
                    Ok(Ok(Flow::Quit)) => return Ok(()),
                    Ok(Err(io_error)) => return Err(io_error),
                    Err(_) => session.output.error(&format!(
                        "internal error while handling {}",
                        quote(line.trim_matches(SEPARATORS))
                    ))?,
                }
            }
        }
        // Only a long line grows the buffer this far: give the memory back before waiting for
        // the next.
        bytes.clear();
        bytes.shrink_to(KEPT_BUFFER_BYTES);
    }
}

impl Session {
    /// A session speaking the dialect of the default game's family.
    pub fn new(agent: Box<dyn Agent>, output: Output) -> io::Result<Session> {
        Session::starting(agent, GAMES[0].name, output)
    }

    /// A session playing `game` from the start: its family's dialect, with `UCI_Variant` set.
    pub fn starting(agent: Box<dyn Agent>, game: &str, output: Output) -> io::Result<Session> {
        let refusal = |why: &str| io::Error::other(format!("{} {why} '{game}'", agent.name()));
        let Some(entry) = GAMES.iter().find(|entry| entry.name == game) else {
            return Err(refusal("was asked for the unknown game"));
        };
        let mut dialect = agent
            .dialect(entry.family)
            .ok_or_else(|| refusal("does not play the game"))?;
        if entry.name != GAMES[0].name {
            // Nobody asked yet: the variant's announcement is not printed.
            dialect
                .set_option(UCI_VARIANT, Some(entry.name))
                .map_err(|error| refusal(&format!("cannot start ({error}) the game")))?;
        }
        Ok(Session {
            agent,
            dialects: vec![dialect],
            current: 0,
            default_game: entry.name,
            output,
        })
    }

    fn dialect(&mut self) -> &mut dyn Dialect {
        self.dialects[self.current].as_mut()
    }

    fn handle_line(&mut self, line: &str) -> io::Result<Flow> {
        let Some(keyword) = tokens(line).next() else {
            return Ok(Flow::Continue);
        };
        let shared = match self.dialect().language() {
            Language::Uci => SHARED_COMMANDS.contains(&keyword),
            Language::Xboard => keyword == "quit",
        };
        if !shared {
            let output = self.output.clone();
            self.dialect().handle_line(line, &output)?;
            return Ok(Flow::Continue);
        }
        match parse_command(line) {
            Ok(Some(command)) => self.handle_shared(command),
            Ok(None) => Ok(Flow::Continue),
            Err(error) => {
                self.output.error(&error.to_string())?;
                Ok(Flow::Continue)
            }
        }
    }

    fn handle_shared(&mut self, command: Command) -> io::Result<Flow> {
        match command {
            Command::Uci => {
                let mut lines: Vec<String> = print::id_lines(&self.agent.name()).into();
                let specs = self.announced_options();
                lines.extend(specs.iter().map(print::option_line));
                lines.push("uciok".into());
                self.output.lines(lines)?;
            }
            Command::IsReady => self.output.line("readyok")?,
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref())?,
            Command::Display => {
                let diagram = self.dialect().display();
                self.output.lines(diagram.lines())?;
            }
            Command::Bench { depth } => {
                let output = self.output.clone();
                self.dialect().bench(depth, &output)?;
            }
            Command::Quit => {
                self.dialect().stop();
                return Ok(Flow::Quit);
            }
            // Roger has no debug output to switch.
            Command::Debug(_) => {}
            // Not shared: `handle_line` gave these to the dialect.
            _ => {}
        }
        Ok(Flow::Continue)
    }

    /// The current dialect's options, with `UCI_Variant` offering the games of every family
    /// the agent plays (a GUI may pick one of another family: the session switches dialect).
    fn announced_options(&mut self) -> Vec<OptionSpec> {
        let families = self.agent.families();
        let games: Vec<&str> = GAMES
            .iter()
            .filter(|entry| families.contains(&entry.family))
            .map(|entry| entry.name)
            .collect();
        let mut specs = self.dialect().option_specs();
        let default_game = self.default_game;
        for spec in &mut specs {
            if spec.name == UCI_VARIANT {
                *spec = variant_option(&games);
                if let OptionKind::Combo { default, .. } = &mut spec.kind {
                    *default = default_game.to_string();
                }
            }
        }
        specs
    }

    /// `setoption`; a `UCI_Variant` of another family first switches the dialect. Every change
    /// of game answers with exactly one `info string variant ...` line: the dialect's remark when
    /// it changed its game, else, after a change of family, its announcement (the dialect may
    /// still hold the game it had when the session left it, and then changes nothing).
    fn set_option(&mut self, name: &str, value: Option<&str>) -> io::Result<()> {
        // The dialect to go back to should the new one refuse the game.
        let mut left = None;
        if name.eq_ignore_ascii_case(UCI_VARIANT) {
            // Checked against every game the agent plays, not the current dialect's alone.
            if let Err(error) = read_option(&self.announced_options(), name, value) {
                return self.output.error(&format!("setoption: {error}"));
            }
            let wanted = value.unwrap_or_default().trim_matches(SEPARATORS);
            let entry = GAMES
                .iter()
                .find(|entry| entry.name.eq_ignore_ascii_case(wanted));
            if let Some(entry) = entry.filter(|entry| entry.family != self.dialect().family()) {
                let before = self.current;
                if let Err(error) = self.switch_to(entry.family) {
                    return self.output.error(&format!(
                        "setoption: variant '{}' is a {} game: {error}",
                        entry.name,
                        entry.family.name()
                    ));
                }
                left = Some(before);
            }
        }
        match self.dialect().set_option(name, value) {
            Ok(remark) => {
                let switched = left.is_some();
                let current = &self.dialects[self.current];
                match remark.or_else(|| switched.then(|| current.announcement())) {
                    Some(text) => self.output.line(&print::info_string(&text)),
                    None => Ok(()),
                }
            }
            Err(error) => {
                if let Some(before) = left {
                    self.current = before;
                }
                self.output.error(&format!("setoption: {error}"))
            }
        }
    }

    /// Makes the dialect of `family` the current one, stopping the one before.
    fn switch_to(&mut self, family: Family) -> Result<(), String> {
        let refusal = || {
            format!(
                "{} does not play {} games",
                self.agent.name(),
                family.name()
            )
        };
        if !self.agent.families().contains(&family) {
            return Err(refusal());
        }
        let index = match self.dialects.iter().position(|d| d.family() == family) {
            Some(index) => index,
            None => {
                let dialect = self.agent.dialect(family).ok_or_else(refusal)?;
                self.dialects.push(dialect);
                self.dialects.len() - 1
            }
        };
        self.dialect().stop();
        self.current = index;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::output::Captured;
    use std::cell::RefCell;
    use std::rc::Rc;

    type Log = Rc<RefCell<Vec<String>>>;

    /// A dialect that only writes down what reaches it.
    struct Recorder {
        family: Family,
        log: Log,
    }

    impl Dialect for Recorder {
        fn family(&self) -> Family {
            self.family
        }
        fn option_specs(&self) -> Vec<OptionSpec> {
            // Only its own family's games: the session offers every family's.
            vec![variant_option(&["only-mine"])]
        }
        fn set_option(&mut self, name: &str, _: Option<&str>) -> Result<Option<String>, String> {
            self.log
                .borrow_mut()
                .push(format!("{}: set {name}", self.family.name()));
            Ok(None)
        }
        fn announcement(&self) -> String {
            format!("variant of {}", self.family.name())
        }
        fn display(&self) -> String {
            String::new()
        }
        fn bench_refusal(&self) -> Option<String> {
            Some("recording".into())
        }
        fn handle_line(&mut self, line: &str, _: &Output) -> io::Result<()> {
            let entry = format!("{}: {}", self.family.name(), line.trim());
            self.log.borrow_mut().push(entry);
            Ok(())
        }
        fn stop(&mut self) {
            self.log
                .borrow_mut()
                .push(format!("{}: stop", self.family.name()));
        }
        fn finish(&mut self) {}
    }

    /// An agent that plays the turn and realtime families with recorders.
    struct RecordingAgent(Log);

    impl Agent for RecordingAgent {
        fn name(&self) -> String {
            "recorder".into()
        }
        fn families(&self) -> &'static [Family] {
            &[Family::Turn, Family::Realtime]
        }
        fn dialect(&self, family: Family) -> Option<Box<dyn Dialect>> {
            (family != Family::World).then(|| {
                Box::new(Recorder {
                    family,
                    log: self.0.clone(),
                }) as Box<dyn Dialect>
            })
        }
    }

    #[test]
    fn shared_commands_stay_with_the_session_the_rest_goes_to_the_dialect() {
        let log = Log::default();
        let captured = Captured::default();
        let input =
            "uci\nisready\n\nposition startpos\nfoo bar\nbench\nsetoption name Hash value 1\n\
                     quit\ngo\n";
        let agent = Box::new(RecordingAgent(log.clone()));
        serve(agent, input.as_bytes(), Output::new(captured.clone())).unwrap();
        assert_eq!(
            captured.lines(),
            [
                "id name recorder",
                "id author The Roger developers",
                "option name UCI_Variant type combo default chess var chess var nichess \
                 var millennium var realtime",
                "uciok",
                "readyok",
                "info string error: bench: recording",
            ]
        );
        assert_eq!(
            *log.borrow(),
            [
                "turn: position startpos",
                "turn: foo bar",
                "turn: set Hash",
                "turn: stop"
            ]
        );
    }

    #[test]
    fn switching_family_stops_the_old_dialect_and_keeps_it_for_later() {
        let log = Log::default();
        let agent = Box::new(RecordingAgent(log.clone()));
        let mut session = Session::new(agent, Output::new(io::sink())).unwrap();
        session.handle_line("go\n").unwrap();
        session.switch_to(Family::Realtime).unwrap();
        session.handle_line("order e2e4\n").unwrap();
        session.switch_to(Family::Turn).unwrap();
        session.handle_line("stop\n").unwrap();
        assert_eq!(session.dialects.len(), 2);
        assert_eq!(
            *log.borrow(),
            [
                "turn: go",
                "turn: stop",
                "realtime: order e2e4",
                "realtime: stop",
                "turn: stop"
            ]
        );
        let refused = session.switch_to(Family::World).unwrap_err();
        assert_eq!(refused, "recorder does not play world games");
        assert_eq!(session.dialect().family(), Family::Turn);
    }

    #[test]
    fn read_line_holds_at_most_the_limit_and_skips_the_rest_of_a_long_line() {
        let input = format!("short\r\n{}\nnext\nlast", "y".repeat(100));
        // A small buffer: lines arrive in pieces.
        let mut input = io::BufReader::with_capacity(7, input.as_bytes());
        let mut bytes = Vec::new();
        let mut read = |input: &mut io::BufReader<&[u8]>| {
            let read = read_line(input, &mut bytes, 10).unwrap();
            (read, String::from_utf8(bytes.clone()).unwrap())
        };
        assert_eq!(read(&mut input), (Read::Line, "short\r\n".into()));
        assert_eq!(read(&mut input), (Read::TooLong(101), "y".repeat(10)));
        assert_eq!(read(&mut input), (Read::Line, "next\n".into()));
        assert_eq!(read(&mut input), (Read::Line, "last".into()));
        assert_eq!(read(&mut input), (Read::End, String::new()));
        let mut exact = "0123456789".as_bytes();
        assert_eq!(read_line(&mut exact, &mut bytes, 10).unwrap(), Read::Line);
        let mut over = "0123456789\n".as_bytes();
        assert_eq!(
            read_line(&mut over, &mut bytes, 10).unwrap(),
            Read::TooLong(11)
        );
    }

    #[test]
    fn the_engine_serves_every_family() {
        let mut session = Session::new(Box::new(EngineAgent), Output::new(io::sink())).unwrap();
        assert_eq!(session.dialect().family(), Family::Turn);
        for family in [Family::Realtime, Family::World, Family::Turn] {
            session.switch_to(family).unwrap();
            assert_eq!(session.dialect().family(), family);
        }
    }

    /// Every change of game answers with exactly one `info string variant <game> ...` line,
    /// whichever families it goes between (back to the turn game a family switch left behind
    /// included); naming the current game again answers nothing.
    #[test]
    fn every_change_of_game_is_announced_once() {
        let captured = Captured::default();
        let mut session =
            Session::new(Box::new(EngineAgent), Output::new(captured.clone())).unwrap();
        let games = ["chess", "nichess", "millennium", "realtime", "megachess"];
        // Every ordered pair of games, each reached from every other, and each named twice.
        let mut walk = Vec::new();
        for from in games {
            for to in games.iter().filter(|&&to| to != from) {
                walk.extend([from, from, to]);
            }
        }
        let mut current = "chess";
        let (mut printed, mut changes) = (0, 0);
        for game in walk {
            let named = match game == current {
                // Option values are case-insensitive: the same game in capitals changes nothing.
                true => game.to_uppercase(),
                false => game.to_string(),
            };
            session
                .handle_line(&format!("setoption name UCI_Variant value {named}\n"))
                .unwrap();
            let lines = captured.lines();
            let new = &lines[printed..];
            printed = lines.len();
            if game == current {
                assert!(new.is_empty(), "{current} named again: {new:?}");
                continue;
            }
            assert_eq!(new.len(), 1, "{current} to {game}: {new:?}");
            let announced = format!("info string variant {game} ");
            assert!(
                new[0].starts_with(&announced),
                "{current} to {game}: {new:?}"
            );
            current = game;
            changes += 1;
        }
        // The 20 ordered pairs, and the changes that lead from one pair to the next.
        assert!(changes >= games.len() * (games.len() - 1), "{changes}");
        assert_eq!(printed, changes);
    }

    #[test]
    fn a_session_may_start_in_another_game_which_becomes_the_default() {
        let log = Log::default();
        let captured = Captured::default();
        let agent = Box::new(RecordingAgent(log.clone()));
        serve_game(
            agent,
            "realtime",
            "uci\nfoo\n".as_bytes(),
            Output::new(captured.clone()),
        )
        .unwrap();
        assert_eq!(
            captured.lines()[2],
            "option name UCI_Variant type combo default realtime var chess var nichess \
             var millennium var realtime"
        );
        assert_eq!(
            *log.borrow(),
            ["realtime: set UCI_Variant", "realtime: foo"]
        );
        let agent = Box::new(RecordingAgent(Log::default()));
        let unknown = Session::starting(agent, "shogi", Output::new(io::sink()));
        assert!(unknown.is_err());
    }
}
