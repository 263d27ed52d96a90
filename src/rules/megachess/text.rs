//! The world as text: the `position megachess ...` line that tells a bot the world, read into
//! a [`World`] with typed errors, and printed from one (for a player's window).

use super::decimal::{read_decimal, DecimalError};
use super::params::MAX_SIDE;
use super::{Coord, Kind, MegachessParams, Piece, PlayerId, Team, World, NEUTRAL};
use std::collections::BTreeSet;
use std::fmt;
use std::fmt::Write as _;

/// The largest `turn` a position line may give: the largest turn a world server can store
/// (SQLite's integers are signed 64-bit), 2^63 - 1. Turns count from 1.
pub const MAX_TURN: u64 = i64::MAX as u64;

/// A world read from a position line, and the player to plan for.
#[derive(Clone, Debug)]
pub struct WorldView {
    pub world: World,
    pub me: PlayerId,
}

/// Why a position line was refused; Display says what and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A keyword missing or out of order, a number or token that does not read.
    Malformed(String),
    /// `size 0 H` or `size W 0`, or a size over 1,000,000.
    BadSize { width: u64, height: u64 },
    /// Two pieces on one square.
    SquareTakenTwice(Coord),
    /// A square outside `size`.
    OffBoard(Coord),
    /// A piece's owner is not among `players` (and not 0).
    UnknownOwner { owner: PlayerId, token: String },
    /// A player listed twice, or with id 0.
    BadPlayer(String),
    /// `me` is not among `players`.
    UnknownMe(PlayerId),
    /// A `turn` of digits outside 1..=[`MAX_TURN`] (the token as written). The turn is
    /// information: `me`'s team is the team to move, whatever the server's numbering.
    BadTurn(String),
    /// A player with two kings, a neutral king, a life of 0 or beyond full life, a flag that
    /// does not apply (`o` on a non-bishop).
    BadPiece { token: String, why: String },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            PositionError::Malformed(what) => write!(f, "malformed position: {what}"),
            PositionError::BadSize { width, height } => {
                write!(f, "size {width} {height}: each side must be 1..={MAX_SIDE}")
            }
            PositionError::SquareTakenTwice(at) => {
                write!(f, "two pieces on square {at}")
            }
            PositionError::OffBoard(at) => write!(f, "square {at} is off the board"),
            PositionError::UnknownOwner { owner, token } => {
                write!(f, "piece '{token}': owner {owner} is not among the players")
            }
            PositionError::BadPlayer(token) => write!(
                f,
                "player '{token}': want ID:a or ID:m with a positive id (no leading zero) listed \
                 once"
            ),
            PositionError::UnknownMe(me) => write!(f, "me {me} is not among the players"),
            PositionError::BadTurn(turn) => {
                write!(f, "turn '{turn}' is out of range 1..={MAX_TURN}")
            }
            PositionError::BadPiece { token, why } => write!(f, "piece '{token}': {why}"),
        }
    }
}

impl std::error::Error for PositionError {}

/// The next word, or an error naming what was wanted.
fn next<'a>(
    words: &mut std::iter::Peekable<std::str::SplitWhitespace<'a>>,
    wanted: &str,
) -> Result<&'a str, PositionError> {
    words
        .next()
        .ok_or_else(|| PositionError::Malformed(format!("the line ends where {wanted} belongs")))
}

fn keyword(
    words: &mut std::iter::Peekable<std::str::SplitWhitespace<'_>>,
    word: &str,
) -> Result<(), PositionError> {
    let found = next(words, &format!("'{word}'"))?;
    if found != word {
        return Err(PositionError::Malformed(format!(
            "'{found}' where '{word}' belongs"
        )));
    }
    Ok(())
}

/// A number within `range`, written as [`read_decimal`] reads it (no leading zero).
fn number(
    text: &str,
    what: &str,
    range: std::ops::RangeInclusive<u64>,
) -> Result<u64, PositionError> {
    read_decimal(text, range).map_err(|error| PositionError::Malformed(error.explain(what, text)))
}

/// A side of `size`: 0 and sides too large are [`PositionError::BadSize`], found once both
/// are read; digits beyond `u64` are named with the sides' range.
fn side(text: &str, what: &str) -> Result<u64, PositionError> {
    read_decimal(text, 0..=u64::MAX).map_err(|error| {
        let error = match error {
            DecimalError::OutOfRange(_) => DecimalError::OutOfRange(1..=MAX_SIDE as u64),
            other => other,
        };
        PositionError::Malformed(error.explain(what, text))
    })
}

/// One piece token's parts, before the world checks it.
struct PieceToken {
    owner: PlayerId,
    kind: Kind,
    at: Coord,
    moved: bool,
    used_orthogonal_step: bool,
    life: Option<u32>,
}

fn parse_piece(token: &str) -> Result<PieceToken, PositionError> {
    let malformed = |why: &str| {
        PositionError::Malformed(format!(
            "piece '{token}' {why} (want <owner><letter><x>,<y>[.<flags>][/<life>])"
        ))
    };
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return Err(malformed("does not start with its owner"));
    }
    let owner = read_decimal(&token[..digits], 0..=PlayerId::MAX as u64).map_err(|error| {
        malformed(&format!(
            "has a bad owner: {}",
            error.explain("owner", &token[..digits])
        ))
    })? as PlayerId;
    let rest = &token[digits..];
    let letter = rest
        .chars()
        .next()
        .ok_or_else(|| malformed("has no letter"))?;
    let kind = Kind::from_letter(letter).ok_or_else(|| malformed("has no letter K Q R B N P"))?;
    let rest = &rest[letter.len_utf8()..];
    let (rest, life) = match rest.split_once('/') {
        Some((rest, life)) => {
            let turns = read_decimal(life, 0..=u32::MAX as u64).map_err(|error| {
                malformed(&format!("has a bad life: {}", error.explain("life", life)))
            })?;
            (rest, Some(turns as u32))
        }
        None => (rest, None),
    };
    let (square, flags) = match rest.split_once('.') {
        Some((square, flags)) => (square, Some(flags)),
        None => (rest, None),
    };
    let at =
        Coord::parse(square).map_err(|error| malformed(&format!("has a bad square: {error}")))?;
    let (mut moved, mut used_orthogonal_step) = (false, false);
    if let Some(flags) = flags {
        if flags.is_empty() {
            return Err(malformed("has an empty flag list"));
        }
        for flag in flags.chars() {
            let seen = match flag {
                'm' => std::mem::replace(&mut moved, true),
                'o' => std::mem::replace(&mut used_orthogonal_step, true),
                _ => return Err(malformed("has a flag other than m and o")),
            };
            if seen {
                return Err(malformed("names a flag twice"));
            }
        }
    }
    Ok(PieceToken {
        owner,
        kind,
        at,
        moved,
        used_orthogonal_step,
        life,
    })
}

impl WorldView {
    /// Reads the words after `position megachess` (`size W H turn N me P players ... pieces
    /// ...`), with the parameters the engine was given; the line's size replaces theirs.
    pub fn parse(text: &str, params: &MegachessParams) -> Result<WorldView, PositionError> {
        let mut words = text.split_whitespace().peekable();
        keyword(&mut words, "size")?;
        let width = side(next(&mut words, "the width")?, "width")?;
        let height = side(next(&mut words, "the height")?, "height")?;
        let side = 1..=MAX_SIDE as u64;
        if !side.contains(&width) || !side.contains(&height) {
            return Err(PositionError::BadSize { width, height });
        }
        keyword(&mut words, "turn")?;
        let turn_text = next(&mut words, "the turn")?;
        let turn = match read_decimal(turn_text, 1..=MAX_TURN) {
            Ok(turn) => turn,
            Err(DecimalError::OutOfRange(_)) => {
                return Err(PositionError::BadTurn(turn_text.to_string()))
            }
            Err(error) => return Err(PositionError::Malformed(error.explain("turn", turn_text))),
        };
        keyword(&mut words, "me")?;
        let me = number(next(&mut words, "me")?, "me", 0..=PlayerId::MAX as u64)? as PlayerId;
        keyword(&mut words, "players")?;
        let mut world_params = *params;
        world_params.width = width as u32;
        world_params.height = height as u32;
        let mut world = World::new(world_params, 0);
        while let Some(&token) = words.peek() {
            if token == "pieces" {
                break;
            }
            words.next();
            let bad = || PositionError::BadPlayer(token.to_string());
            let (id, team) = token.split_once(':').ok_or_else(bad)?;
            let id = number(id, "player id", 1..=PlayerId::MAX as u64).map_err(|_| bad())?;
            let id = id as PlayerId;
            let mut letters = team.chars();
            let team = match (letters.next().and_then(Team::from_letter), letters.next()) {
                (Some(team), None) => team,
                _ => return Err(bad()),
            };
            world.add_player(id, team).map_err(|_| bad())?;
        }
        keyword(&mut words, "pieces")?;
        let Some(my_team) = world.player(me).map(|player| player.team) else {
            return Err(PositionError::UnknownMe(me));
        };
        // `me` is asked to plan, so its team moves, however the server numbers its turns.
        world.set_turn_of(turn, my_team);
        let mut kings = BTreeSet::new();
        for token in words {
            let piece = parse_piece(token)?;
            let bad = |why: &str| PositionError::BadPiece {
                token: token.to_string(),
                why: why.to_string(),
            };
            if piece.at.x as u64 >= width || piece.at.y as u64 >= height {
                return Err(PositionError::OffBoard(piece.at));
            }
            if world.piece_at(piece.at).is_some() {
                return Err(PositionError::SquareTakenTwice(piece.at));
            }
            if piece.owner != NEUTRAL && world.player(piece.owner).is_none() {
                return Err(PositionError::UnknownOwner {
                    owner: piece.owner,
                    token: token.to_string(),
                });
            }
            if piece.kind == Kind::King {
                if piece.owner == NEUTRAL {
                    return Err(bad("a king is never neutral"));
                }
                if !kings.insert(piece.owner) {
                    return Err(bad("a second king of its player"));
                }
            }
            if piece.used_orthogonal_step && piece.kind != Kind::Bishop {
                return Err(bad("flag o is a bishop's"));
            }
            if let Some(life) = piece.life {
                let full = world_params.full_life(piece.kind);
                if piece.kind == Kind::King {
                    return Err(bad("a king never fades, so it has no life count"));
                }
                if piece.owner == NEUTRAL {
                    return Err(bad("a neutral piece never fades, so it has no life count"));
                }
                if life == 0 || life > full {
                    return Err(bad(&format!("life {life} is outside 1..={full}")));
                }
            }
            world
                .place(
                    piece.owner,
                    piece.kind,
                    piece.at,
                    piece.moved,
                    piece.used_orthogonal_step,
                    piece.life,
                )
                .map_err(|why| bad(&why))?;
        }
        Ok(WorldView { world, me })
    }
}

impl World {
    /// The whole line `position megachess size ... pieces ...` for `me`, with every piece of
    /// the world, or only those of `me`'s window (see [`World::window`]) when `margin` is given.
    pub fn position_line(&self, me: PlayerId, margin: Option<u32>) -> String {
        let mut line = format!(
            "position megachess size {} {} turn {} me {me} players",
            self.params.width, self.params.height, self.turn
        );
        let Some(margin) = margin else {
            for player in self.players() {
                let _ = write!(line, " {}:{}", player.id, player.team.letter());
            }
            line.push_str(" pieces");
            for piece in self.pieces() {
                line.push(' ');
                write_piece_token(&mut line, piece);
            }
            return line;
        };
        // The line of `self.window(me, margin)`, written without building that world: the
        // players are `me` and the owners of the pieces inside, in id order.
        let inside = self.window_pieces(me, margin);
        let owners: BTreeSet<PlayerId> = std::iter::once(me)
            .chain(inside.iter().map(|piece| piece.owner))
            .collect();
        for player in owners.iter().filter_map(|&id| self.player(id)) {
            let _ = write!(line, " {}:{}", player.id, player.team.letter());
        }
        line.push_str(" pieces");
        for piece in inside {
            line.push(' ');
            write_piece_token(&mut line, piece);
        }
        line
    }
    /// One piece's token: `<owner><letter><x>,<y>[.<flags>][/<life>]`.
    pub fn piece_token(&self, piece: &Piece) -> String {
        let mut token = String::new();
        write_piece_token(&mut token, piece);
        token
    }
}

/// Appends a piece's token to `out` (a position line is written without a string per piece).
fn write_piece_token(out: &mut String, piece: &Piece) {
    let _ = write!(
        out,
        "{}{}{},{}",
        piece.owner,
        piece.kind.letter(),
        piece.at.x,
        piece.at.y
    );
    if piece.moved || piece.used_orthogonal_step {
        out.push('.');
        if piece.moved {
            out.push('m');
        }
        if piece.used_orthogonal_step {
            out.push('o');
        }
    }
    if let Some(life) = piece.life {
        let _ = write!(out, "/{life}");
    }
}
