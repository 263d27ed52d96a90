//! What the generator hands the driver: one protocol line with what the engine must make of it.

/// What the engine must make of a line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Expect {
    /// No error (other replies as the command gives).
    Accepted,
    /// Exactly one `info string error:` and nothing changed.
    Bad,
}

/// How a search answers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SearchMode {
    /// Ends by itself within its small limits.
    Finite,
    /// `go infinite`: answers only on `stop` (or a command that stops it).
    Endless,
    /// `go ponder` with a limit: answers after `ponderhit` (by itself) or on `stop`.
    Ponder,
}

/// Work the engine does on its own thread.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum JobKind {
    Search(SearchMode),
    /// `go perft <depth>`; `long` ones only end by `stop`.
    Perft {
        depth: u32,
        long: bool,
    },
    /// `bench`; `long` is the default bench, ended by `stop`, the short one is `bench depth 1`.
    Bench {
        long: bool,
    },
}

impl JobKind {
    /// True when the job ends by itself soon: the driver waits for its answer.
    pub fn finite(self) -> bool {
        match self {
            JobKind::Search(mode) => mode == SearchMode::Finite,
            JobKind::Perft { long, .. } | JobKind::Bench { long } => !long,
        }
    }
}

/// The position a job works on, as the checks need it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Searched {
    /// The `UCI_Variant`.
    pub variant: &'static str,
    /// The last good `position` command's arguments (`startpos moves e2e4`), for the second
    /// engine instance that judges the answer.
    pub command: String,
    /// Chess only: the start FEN (as the rules write it) and the moves, for python-chess.
    pub python: Option<(String, Vec<String>)>,
    /// The legal moves (the rules' own list).
    pub legal: Vec<String>,
    /// `go searchmoves`: the answer must be one of these.
    pub searchmoves: Vec<String>,
    /// The FEN of the position, for messages.
    pub fen: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    pub kind: JobKind,
    pub position: Searched,
}

/// A reply the line itself asks for, besides errors and a job's output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    None,
    /// `isready`: one more `readyok`.
    ReadyOk,
    /// `uci`: the id and option lines and `uciok`.
    Uci,
    /// `d`: the diagram, whose `Fen:` line must be this.
    Display(String),
    /// `quit`: the engine exits with status 0 (after a running job's answer).
    Quit,
    /// `setoption name UCI_Variant`: one `info string variant <name> ...` when the game changes
    /// to `<name>`, nothing when it stays.
    Variant(Option<&'static str>),
}

/// One generated line.
#[derive(Clone, Debug)]
pub struct Step {
    /// The line, with its line end.
    pub bytes: Vec<u8>,
    /// What sort of line it is (the report counts by this).
    pub kind: &'static str,
    pub expect: Expect,
    /// The job an accepted line starts.
    pub starts: Option<Job>,
    /// The line (accepted) ends the running job first: its answer comes before `readyok`.
    pub ends_job: bool,
    /// `ponderhit` while pondering: the search now ends by itself.
    pub ponderhit: bool,
    pub reply: Reply,
    /// Sent while a job runs.
    pub interleaved: bool,
}
