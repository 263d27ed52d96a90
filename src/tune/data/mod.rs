//! Self-play data that keeps growing (docs/data.md): the game-data file format, the stored games
//! played back into positions, and `roger data` (count, merge, de-duplicate, split off a
//! held-out set, convert text files).

/// Runs `$body` with `$game` the type of the turn game named `$variant`.
macro_rules! with_game {
    ($variant:expr, $game:ident => $body:expr) => {
        match $variant {
            <$crate::rules::chess::Chess as $crate::rules::Game>::VARIANT => {
                type $game = $crate::rules::chess::Chess;
                $body
            }
            <$crate::rules::millennium::Millennium as $crate::rules::Game>::VARIANT => {
                type $game = $crate::rules::millennium::Millennium;
                $body
            }
            <$crate::rules::nichess::Nichess as $crate::rules::Game>::VARIANT => {
                type $game = $crate::rules::nichess::Nichess;
                $body
            }
            other => Err(format!(
                "no stored games of '{other}' (datagen plays {:?})",
                $crate::tune::datagen::VARIANTS
            )),
        }
    };
}

pub mod command;
pub mod convert;
pub mod format;
pub mod replay;
pub mod samples;
