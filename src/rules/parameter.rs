//! What a game with run-time settings (Megachess, realtime chess) declares about each one.

/// A parameter a game takes at run time (for example a world's size or a delay), with the
/// range the rules allow.
#[derive(Clone, Copy, Debug)]
pub struct Parameter {
    pub name: &'static str,
    pub default: i64,
    pub min: i64,
    pub max: i64,
    pub meaning: &'static str,
}
