//! What setting an option did that the one who set it should hear, as a type a caller can
//! match. The option is set; the protocol layer prints the remark as an `info string`.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionRemark {
    /// More threads were asked for than the machine has cores: `cores` threads search.
    ThreadsCapped { asked: i64, cores: usize },
    /// `EvalFile` took the file at `path` (or the built-in networks back): what it holds.
    EvalFile { path: String, network: String },
    /// The game changed: the board's size and start position, as the GUI reads them
    /// (`variant <name> files <n> ranks <n> startpos <fen>`).
    Variant(String),
    /// A Megachess parameter changed and the last world does not read under it (`why`), so it
    /// is forgotten.
    WorldForgotten {
        name: String,
        value: i64,
        why: String,
    },
}

impl fmt::Display for OptionRemark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionRemark::ThreadsCapped { asked, cores } => write!(
                f,
                "Threads {asked}: this machine has {cores} cores, so {cores} threads will search"
            ),
            OptionRemark::EvalFile { path, network } => write!(f, "EvalFile {path}: {network}"),
            OptionRemark::Variant(board) => f.write_str(board),
            OptionRemark::WorldForgotten { name, value, why } => write!(
                f,
                "{name} {value}: the last world does not read under it ({why}), so it is \
                 forgotten; send a new 'position megachess ...'"
            ),
        }
    }
}
