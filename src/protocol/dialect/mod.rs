//! A dialect speaks the commands of one [`Family`] of games for the session, which keeps the
//! commands every family shares (`uci`, `isready`, `setoption`, `quit`, `d`, `bench`) and
//! hands every other line to the current dialect. `UCI_Variant` picks the dialect: a game of
//! another family switches it.
//!
//! [`turn`] is the dialect of the alternating games: `ucinewgame`, `position`, `go`, `stop`,
//! `ponderhit`. A realtime or world dialect plugs in as another implementation of [`Dialect`],
//! given out by the [`Agent`]s that play those games.

pub mod megachess;
pub mod realtime;
pub mod turn;

use super::output::Output;
use crate::engine::OptionSpec;
use crate::rules::registry::Family;
use std::io;

/// What the session serves: it names itself and gives a dialect for each family it plays.
pub trait Agent {
    /// The `id name` of the `uci` reply.
    fn name(&self) -> String;

    /// The families whose games it plays; `UCI_Variant` offers every game of these.
    fn families(&self) -> &'static [Family];

    /// A new dialect serving the games of `family`, or `None` when it does not play them.
    fn dialect(&self, family: Family) -> Option<Box<dyn Dialect>>;
}

/// The language of the session's shared commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// UCI (with Roger's extensions): the session answers the shared commands itself.
    Uci,
    /// xboard: every line but `quit` goes to the dialect, which answers `protover`, `ping` and
    /// `variant` in xboard's own way.
    Xboard,
}

/// The commands of one family of games, over whatever answers them (the engine or a reference
/// player).
pub trait Dialect {
    /// The family whose games it serves.
    fn family(&self) -> Family;

    fn language(&self) -> Language {
        Language::Uci
    }

    /// The options the `uci` reply announces, `UCI_Variant` among them.
    fn option_specs(&self) -> Vec<OptionSpec>;

    /// Sets an option (names are case-insensitive). Returns a remark worth showing, if any; on
    /// an error nothing changes. `UCI_Variant` answers its announcement as the remark only when
    /// it changes the game within the family; the session announces a change of family itself.
    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<Option<String>, String>;

    /// The game it plays now, as the `info string` that announces a change of game says it
    /// (`variant <name> ...`): the session prints it when a change of family selects this
    /// dialect, so that every change of game answers with one such line.
    fn announcement(&self) -> String;

    /// The `d` reply: the current position.
    fn display(&self) -> String;

    /// Why `bench` may not run now (a search is running, or this player does not run it).
    fn bench_refusal(&self) -> Option<String>;
    /// `bench`, unless refused: its lines go to `out`, now or later from another thread. The
    /// default runs it here, before it returns.
    fn bench(&mut self, depth: Option<u32>, out: &Output) -> io::Result<()> {
        match self.bench_refusal() {
            Some(reason) => out.error(&format!("bench: {reason}")),
            None => crate::protocol::shell::bench(depth, &mut |line| out.line(line)),
        }
    }

    /// Answers one line that is not a shared command (given with its line end, if any, which
    /// the parser strips: one `\n`, and one `\r` before it).
    fn handle_line(&mut self, line: &str, out: &Output) -> io::Result<()>;

    /// Stops whatever runs, and waits until its answer is out (`quit`, or a switch of dialect).
    fn stop(&mut self);

    /// The input ended: work that ends by itself may finish, endless work is stopped; either
    /// way its answer is out when this returns.
    fn finish(&mut self);
}
