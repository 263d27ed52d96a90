//! Why an engine refused a command, as a type a caller can match. The engine says what went
//! wrong; the protocol layer words it for its dialect and adds what to send instead (its
//! "send 'stop' first").

use crate::options::OptionError;
use crate::rules::realtime::Color;
use std::fmt;

/// What keeps an engine busy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activity {
    /// A search (a turn game's, a perft, a bench, or realtime chess's one-shot question).
    Search,
    /// A Megachess turn plan.
    Plan,
}

/// Why an engine refused a command; the engine's state is as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// Something runs that must end first.
    Busy(Activity),
    /// Realtime chess streams a game for this side, which must end first.
    Streaming(Color),
    /// A referee's line (time, event, refusal) came while no game streams.
    NotStreaming,
    /// A Megachess turn was asked for before any world.
    NoWorld,
    /// The option is unknown, or its value is not one the option takes.
    Option(OptionError),
    /// A value the option takes that the engine could not use now (memory, a network file,
    /// the rules' bounds on parameters together): why.
    Setting(String),
    /// The rules refuse the position, state or world given (or a move in it): why.
    Position(String),
    /// The referee's account of a streamed game does not fit the engine's copy: why.
    Stream(String),
    /// A count outside what the engine takes (a perft depth): why.
    Limit(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Busy(Activity::Search) => f.write_str("a search is running"),
            EngineError::Busy(Activity::Plan) => f.write_str("a plan is running"),
            EngineError::Streaming(side) => write!(f, "streaming for {}", side.name()),
            EngineError::NotStreaming => f.write_str("not streaming"),
            EngineError::NoWorld => f.write_str("no world yet"),
            EngineError::Option(error) => error.fmt(f),
            EngineError::Setting(why)
            | EngineError::Position(why)
            | EngineError::Stream(why)
            | EngineError::Limit(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for EngineError {}

impl From<OptionError> for EngineError {
    fn from(error: OptionError) -> EngineError {
        EngineError::Option(error)
    }
}

/// For leaf code (the command line, tests) that reports errors as text.
impl From<EngineError> for String {
    fn from(error: EngineError) -> String {
        error.to_string()
    }
}
