//! The state text, one line: the standing pieces as a FEN placement, the castling field, the
//! clock and the last removal in ms, then a token for each piece with something more to say
//! (`d:e4:12000` a delay, `ep:e4:12000` an en passant window, `m:P:e2e4:11000` a moving piece,
//! with `:castling` for the queenside castling rook and `:ep` for an en passant capture on its
//! way) and `end:1-0:king-removed` for a finished game. docs/rules/realtime.md has the details.

use super::movement::{is_knight_jump, line};
use super::state::{castling_bit, home, Motion, RealtimeState, Unit, ALL_CASTLING, MAX_UNITS};
use super::RealtimeParams;
use super::{parse_square, piece_name, square_name, Color, Kind, Ms, Outcome, Piece};
use crate::board::Square;
use crate::rules::RuleError;
use arrayvec::ArrayVec;
use std::fmt::Write;

const CASTLING_LETTERS: [(char, Color, bool); 4] = [
    ('K', Color::White, true),
    ('Q', Color::White, false),
    ('k', Color::Black, true),
    ('q', Color::Black, false),
];

fn malformed(text: String) -> RuleError {
    RuleError::Malformed(text)
}
fn illegal(text: String) -> RuleError {
    RuleError::Illegal(text)
}

fn parse_ms(word: &str, what: &str) -> Result<Ms, RuleError> {
    if word.is_empty()
        || !word.bytes().all(|b| b.is_ascii_digit())
        || (word.len() > 1 && word.starts_with('0'))
    {
        return Err(malformed(format!(
            "{what} '{word}' is not a millisecond count (plain decimal digits)"
        )));
    }
    word.parse()
        .ok()
        .filter(|&ms| ms <= MAX_MS)
        .ok_or_else(|| malformed(format!("{what} '{word}' is above {MAX_MS}")))
}

/// The largest millisecond a state text may name (some 35,000 years), so that every sum of a
/// clock and a duration stays far inside 64 bits.
const MAX_MS: Ms = 1 << 50;

fn square_of(word: &str, token: &str) -> Result<Square, RuleError> {
    parse_square(word).ok_or_else(|| malformed(format!("'{word}' in '{token}' is not a square")))
}

impl RealtimeState {
    /// Reads a state text (docs/rules/realtime.md); refuses malformed or impossible states.
    pub fn from_text(text: &str, params: RealtimeParams) -> Result<RealtimeState, RuleError> {
        params
            .validate()
            .map_err(|error| illegal(format!("bad parameters: {error}")))?;
        if let Some(bad) = text.chars().find(|c| !c.is_ascii()) {
            return Err(malformed(format!(
                "character '{bad}' is not allowed in a state text"
            )));
        }
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [placement, castling, clock, last_removal, tokens @ ..] = fields.as_slice() else {
            return Err(malformed(format!(
                "'{text}' is not a state text: expected a placement, castling, the clock and the last removal"
            )));
        };
        let mut state = RealtimeState {
            params,
            now: parse_ms(clock, "the clock")?,
            units: ArrayVec::new(),
            castling: 0,
            last_removal: parse_ms(last_removal, "the last removal")?,
            outcome: None,
            en_passant_movers: 0,
        };
        state.read_placement(placement)?;
        state.read_castling(castling)?;
        let now = state.now;
        if state.last_removal > now {
            return Err(illegal(format!(
                "the last removal {} is after the clock {now}",
                state.last_removal
            )));
        }
        for token in tokens {
            state.read_token(token)?;
        }
        state.check_possible()?;
        Ok(state)
    }

    fn add(&mut self, piece: Piece, motion: Motion) -> Result<usize, RuleError> {
        let id = self.units.len() as u8;
        self.units
            .try_push(Unit { id, piece, motion })
            .map_err(|_| illegal(format!("more than {MAX_UNITS} pieces")))?;
        Ok(id as usize)
    }

    fn read_placement(&mut self, placement: &str) -> Result<(), RuleError> {
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != 8 {
            let plural = if ranks.len() == 1 { "" } else { "s" };
            return Err(malformed(format!(
                "the board '{placement}' has {} rank{plural} (ranks are separated by '/'), expected 8",
                ranks.len()
            )));
        }
        let mut found: ArrayVec<(Square, Piece), 64> = ArrayVec::new();
        for (row, rank_text) in ranks.iter().enumerate() {
            let rank = 7 - row as u8;
            let mut file = 0u8;
            let mut previous_digit = false;
            for c in rank_text.chars() {
                if let Some(run) = c.to_digit(10) {
                    if previous_digit || run == 0 {
                        return Err(malformed(format!(
                            "rank {} '{rank_text}': empty squares are one digit 1-8",
                            rank + 1
                        )));
                    }
                    file += run as u8;
                    previous_digit = true;
                    continue;
                }
                previous_digit = false;
                let piece = Piece::from_letter(c).ok_or_else(|| {
                    malformed(format!(
                        "'{c}' in rank {} '{rank_text}' is not a piece",
                        rank + 1
                    ))
                })?;
                if file < 8 {
                    found.push((Square(rank * 8 + file), piece));
                }
                file += 1;
            }
            if file != 8 {
                return Err(malformed(format!(
                    "rank {} '{rank_text}' has {file} squares, expected 8",
                    rank + 1
                )));
            }
        }
        found.sort_unstable_by_key(|&(square, _)| square.0);
        for (square, piece) in found {
            if piece.kind == Kind::Pawn && (square.0 < 8 || square.0 >= 56) {
                return Err(illegal(format!(
                    "a {} stands on {}: pawns never stand on the first or last rank",
                    piece_name(piece),
                    square_name(square)
                )));
            }
            self.add(
                piece,
                Motion::Standing {
                    square,
                    ready_at: 0,
                    en_passant_until: None,
                },
            )?;
        }
        Ok(())
    }

    fn read_castling(&mut self, field: &str) -> Result<(), RuleError> {
        if field == "-" {
            return Ok(());
        }
        for c in field.chars() {
            let Some(&(_, color, kingside)) =
                CASTLING_LETTERS.iter().find(|(letter, ..)| *letter == c)
            else {
                return Err(malformed(format!(
                    "castling field '{field}': '{c}' is not one of KQkq"
                )));
            };
            let bit = castling_bit(color, kingside);
            if self.castling & bit != 0 {
                return Err(malformed(format!(
                    "castling field '{field}' names '{c}' twice"
                )));
            }
            self.castling |= bit;
            let king = Square(home(color) + 4);
            let corner = Square(home(color) + if kingside { 7 } else { 0 });
            for (square, kind) in [(king, Kind::King), (corner, Kind::Rook)] {
                if self.unit_on(square).map(|unit| unit.piece) != Some(Piece { color, kind }) {
                    return Err(illegal(format!(
                        "castling field '{field}' has '{c}' but no {} {} stands on {}",
                        color.name(),
                        kind.name(),
                        square_name(square)
                    )));
                }
            }
        }
        Ok(())
    }

    fn read_token(&mut self, token: &str) -> Result<(), RuleError> {
        let parts: Vec<&str> = token.split(':').collect();
        let now = self.now;
        match parts.as_slice() {
            [kind @ ("d" | "ep"), square, ms] => {
                let square = square_of(square, token)?;
                let until = parse_ms(ms, &format!("'{token}':"))?;
                let Some(index) = self.standing_index(square) else {
                    return Err(illegal(format!("'{token}': no piece stands on {}", square_name(square))));
                };
                if until <= now || until > now + self.params.delay() {
                    return Err(illegal(format!(
                        "'{token}': a delay or window must end after the clock {now} and at most {} later",
                        self.params.delay()
                    )));
                }
                let unit = &mut self.units[index];
                let Motion::Standing { ready_at, en_passant_until, .. } = &mut unit.motion else {
                    unreachable!("standing_index finds standing units");
                };
                if *kind == "d" {
                    if *ready_at != 0 {
                        return Err(malformed(format!("'{token}': a second delay on {}", square_name(square))));
                    }
                    *ready_at = until;
                } else {
                    let fourth_rank = match unit.piece.color {
                        Color::White => 3,
                        Color::Black => 4,
                    };
                    if unit.piece.kind != Kind::Pawn || square.0 / 8 != fourth_rank {
                        return Err(illegal(format!(
                            "'{token}': only a pawn that arrived by a two-square move is an en passant target, not a {} on {}",
                            piece_name(unit.piece),
                            square_name(square)
                        )));
                    }
                    if en_passant_until.is_some() {
                        return Err(malformed(format!("'{token}': a second window on {}", square_name(square))));
                    }
                    *en_passant_until = Some(until);
                }
                Ok(())
            }
            ["m", letter, squares, start, flags @ ..] => self.read_moving(token, letter, squares, start, flags),
            ["end", result, reason] => {
                if self.outcome.is_some() {
                    return Err(malformed(format!("'{token}': a second end")));
                }
                self.outcome = Some(Outcome::parse(result, reason).map_err(|error| malformed(format!("'{token}': {error}")))?);
                Ok(())
            }
            _ => Err(malformed(format!(
                "'{token}' is not a token: expected d:<square>:<ms>, ep:<square>:<ms>, m:<piece>:<from><to>:<start>[:castling|:ep] or end:<result>:<reason>"
            ))),
        }
    }

    fn read_moving(
        &mut self,
        token: &str,
        letter: &str,
        squares: &str,
        start: &str,
        flags: &[&str],
    ) -> Result<(), RuleError> {
        let mut letters = letter.chars();
        let (Some(letter), None) = (letters.next(), letters.next()) else {
            return Err(malformed(format!(
                "'{token}': '{letter}' is not a piece letter"
            )));
        };
        let piece = Piece::from_letter(letter)
            .ok_or_else(|| malformed(format!("'{token}': '{letter}' is not a piece letter")))?;
        let (from, to) = match (squares.get(..2), squares.get(2..)) {
            (Some(from), Some(to)) => (square_of(from, token)?, square_of(to, token)?),
            _ => {
                return Err(malformed(format!(
                    "'{token}': '{squares}' is not two squares"
                )))
            }
        };
        let start = parse_ms(start, &format!("'{token}': the start"))?;
        let (castling_rook, en_passant) = match flags {
            [] => (false, false),
            ["castling"] => (true, false),
            ["ep"] => (false, true),
            _ => {
                return Err(malformed(format!(
                    "'{token}': expected :castling or :ep at the end"
                )))
            }
        };
        let now = self.now;
        let tick = self.params.tick();
        if start > now {
            return Err(illegal(format!(
                "'{token}' starts at {start}, after the clock {now}"
            )));
        }
        let ticks = moving_ticks(piece, from, to, castling_rook, en_passant).ok_or_else(|| {
            illegal(format!(
                "'{token}': {}{} is not a move of a {}{}",
                square_name(from),
                square_name(to),
                piece_name(piece),
                if castling_rook {
                    " in castling"
                } else if en_passant {
                    " taking en passant"
                } else {
                    ""
                }
            ))
        })?;
        let arrive = start + ticks * tick;
        if arrive <= now {
            return Err(illegal(format!(
                "'{token}' would have arrived at {arrive}, by the clock {now}"
            )));
        }
        if let Some(other) = self
            .units
            .iter()
            .find(|unit| matches!(unit.motion, Motion::Moving { to: other, .. } if other == to))
        {
            return Err(illegal(format!(
                "'{token}': {} is already the destination of a moving {}",
                square_name(to),
                piece_name(other.piece)
            )));
        }
        let index = self.add(
            piece,
            Motion::Moving {
                from,
                to,
                start,
                arrive,
            },
        )?;
        // The mark stays on the pawn until it arrives (a referee marks the whole move), but its
        // capture is settled at t0 + floor(T/2) + 1: after that the mark says nothing more.
        if en_passant && now <= start + tick / 2 {
            self.en_passant_movers |= 1 << index;
        }
        Ok(())
    }

    /// What a state must be to have been reached in a game.
    fn check_possible(&self) -> Result<(), RuleError> {
        let now = self.now;
        for color in [Color::White, Color::Black] {
            let kings = self
                .units
                .iter()
                .filter(|unit| {
                    unit.piece
                        == Piece {
                            color,
                            kind: Kind::King,
                        }
                })
                .count();
            if kings > 1 || (kings == 0 && self.outcome.is_none()) {
                return Err(illegal(format!(
                    "{} has {kings} kings, expected 1",
                    color.name()
                )));
            }
        }
        for unit in &self.units {
            match unit.motion {
                Motion::Moving { from, to, .. } => {
                    if let Some(blocker) = self
                        .unit_on(to)
                        .filter(|other| other.piece.color == unit.piece.color)
                    {
                        return Err(illegal(format!(
                            "the moving {} from {} goes to {}, where a {} of its own side stands",
                            piece_name(unit.piece),
                            square_name(from),
                            square_name(to),
                            piece_name(blocker.piece)
                        )));
                    }
                }
                Motion::Standing {
                    square,
                    ready_at,
                    en_passant_until: Some(until),
                } if until != ready_at => {
                    return Err(illegal(format!(
                        "the en passant window on {} ends at {until}, not with its delay ({ready_at})",
                        square_name(square)
                    )));
                }
                Motion::Standing { .. } => {}
            }
        }
        self.check_take_offs()?;
        if self.outcome.is_none() {
            if let Some(&(index, square, by)) = self.collisions().first() {
                return Err(illegal(format!(
                    "at {now} the {} on {} would already have been removed ({})",
                    piece_name(self.units[index].piece),
                    square_name(square),
                    by.name()
                )));
            }
            let draw = self.last_removal + self.params.no_capture_draw();
            if now >= draw {
                return Err(illegal(format!(
                    "the no-capture draw fell at {draw}, by the clock {now}"
                )));
            }
        }
        Ok(())
    }

    /// Refuses two pieces on one square that no game reaches: a piece still taking off (holding
    /// its from-square, `[t0, t0 + T/2]`) and a piece of its side standing there, or two pieces
    /// taking off from one square. Another piece reaches the square at least a tick after the
    /// mover started, and none could be on its way there before (rules 3, 5 and 6); a piece that
    /// merely passes through the square while the mover takes off, or that arrived after the
    /// take-off, is possible and taken. Pieces of different colours are the collisions' matter.
    fn check_take_offs(&self) -> Result<(), RuleError> {
        let now = self.now;
        for mover in &self.units {
            let Motion::Moving { from, start, .. } = mover.motion else {
                continue;
            };
            if self.occupied_square(mover, now) != Some(from) {
                continue;
            }
            let other = self.units.iter().find(|unit| {
                unit.id != mover.id
                    && match unit.motion {
                        Motion::Standing { square, .. } => {
                            square == from && unit.piece.color == mover.piece.color
                        }
                        Motion::Moving { from: other, .. } => {
                            other == from && self.occupied_square(unit, now) == Some(from)
                        }
                    }
            });
            if let Some(other) = other {
                let what = match other.motion {
                    Motion::Standing { .. } => "stands there",
                    Motion::Moving { .. } => "takes off from it too",
                };
                return Err(illegal(format!(
                    "two pieces on {} at {now}: the moving {} started there at {start} holds it \
                     until {} (its take-off), and a {} {what}",
                    square_name(from),
                    piece_name(mover.piece),
                    start + self.params.tick() / 2,
                    piece_name(other.piece)
                )));
            }
        }
        Ok(())
    }

    /// The state text; reads back with [`RealtimeState::from_text`].
    pub fn text(&self) -> String {
        let mut board: [Option<Piece>; 64] = [None; 64];
        for unit in &self.units {
            if let Some(square) = unit.standing_on() {
                board[square.index()] = Some(unit.piece);
            }
        }
        let mut text = String::with_capacity(96);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match board[rank * 8 + file] {
                    Some(piece) => {
                        if empty > 0 {
                            text.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        text.push(piece.letter());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                text.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                text.push('/');
            }
        }
        text.push(' ');
        if self.castling & ALL_CASTLING == 0 {
            text.push('-');
        }
        for (letter, color, kingside) in CASTLING_LETTERS {
            if self.castling & castling_bit(color, kingside) != 0 {
                text.push(letter);
            }
        }
        let _ = write!(text, " {} {}", self.now, self.last_removal);
        let mut standing: ArrayVec<(Square, Ms, Option<Ms>), MAX_UNITS> = ArrayVec::new();
        let mut moving: ArrayVec<(Ms, Square, &Unit), MAX_UNITS> = ArrayVec::new();
        for unit in &self.units {
            match unit.motion {
                Motion::Standing {
                    square,
                    ready_at,
                    en_passant_until,
                } => standing.push((square, ready_at, en_passant_until)),
                Motion::Moving { from, start, .. } => moving.push((start, from, unit)),
            }
        }
        standing.sort_unstable_by_key(|&(square, ..)| square.0);
        for (square, ready_at, en_passant_until) in standing {
            if ready_at > self.now {
                let _ = write!(text, " d:{}:{ready_at}", square_name(square));
            }
            if let Some(until) = en_passant_until.filter(|&until| until > self.now) {
                let _ = write!(text, " ep:{}:{until}", square_name(square));
            }
        }
        moving.sort_unstable_by_key(|&(start, from, _)| (start, from.0));
        for (start, from, unit) in moving {
            let Motion::Moving { to, arrive, .. } = unit.motion else {
                continue;
            };
            let _ = write!(
                text,
                " m:{}:{}{}:{start}",
                unit.piece.letter(),
                square_name(from),
                square_name(to)
            );
            if unit.piece.kind == Kind::Rook
                && line(from, to).is_some_and(|(_, n)| n == 3)
                && arrive - start == 2 * self.params.tick()
            {
                text.push_str(":castling");
            }
            if self.en_passant_movers & (1 << unit.id) != 0 {
                text.push_str(":ep");
            }
        }
        if let Some(outcome) = self.outcome {
            let _ = write!(text, " end:{}:{}", outcome.result(), outcome.reason.name());
        }
        text
    }
}

/// The ticks a move of `piece` from `from` to `to` takes, or `None` when it is no move of that
/// piece (`castling_rook`: the queenside rook's castling move; `en_passant`: a pawn's diagonal).
fn moving_ticks(
    piece: Piece,
    from: Square,
    to: Square,
    castling_rook: bool,
    en_passant: bool,
) -> Option<Ms> {
    let color = piece.color;
    let forward: i16 = if color == Color::White { 8 } else { -8 };
    let delta = to.0 as i16 - from.0 as i16;
    let relative_rank = match color {
        Color::White => from.0 / 8,
        Color::Black => 7 - from.0 / 8,
    };
    let (file_from, file_to) = (from.0 % 8, to.0 % 8);
    if castling_rook {
        let corner = Square(home(color));
        let ok = piece.kind == Kind::Rook && from == corner && to.0 == home(color) + 3;
        return ok.then_some(2);
    }
    if en_passant {
        let ok = piece.kind == Kind::Pawn
            && relative_rank == 4
            && file_from.abs_diff(file_to) == 1
            && delta - (file_to as i16 - file_from as i16) == forward;
        return ok.then_some(1);
    }
    let (_, squares) = match piece.kind {
        Kind::Knight => return is_knight_jump(from, to).then_some(2),
        _ => line(from, to)?,
    };
    let diagonal = file_from != file_to && from.0 / 8 != to.0 / 8;
    let ok = match piece.kind {
        Kind::Knight => false,
        Kind::Bishop => diagonal,
        Kind::Rook => !diagonal,
        Kind::Queen => true,
        Kind::King => {
            squares == 1 || (from.0 == home(color) + 4 && squares == 2 && to.0 / 8 == from.0 / 8)
        }
        Kind::Pawn => {
            relative_rank >= 1
                && ((squares == 1 && delta - (file_to as i16 - file_from as i16) == forward)
                    || (relative_rank == 1 && delta == 2 * forward))
        }
    };
    ok.then_some(squares as Ms)
}
