//! The page's "new game" request, checked field by field.

use super::request::{AnalyseRequest, GameName, NewGame, SideChoice};
use crate::rules::registry::TurnGame;
use crate::rules::Color;
use std::time::Duration;

/// Longest game clock the page may ask for, in minutes.
const MAX_MINUTES: f64 = 600.0;
const MAX_INCREMENT_SECONDS: f64 = 600.0;
const MAX_MOVETIME_MS: u64 = 600_000;
pub const MAX_SKILL: u32 = 20;
/// The most lines an analysis shows, and how many when the page does not say.
pub const MAX_ANALYSIS_LINES: u32 = 5;
const DEFAULT_ANALYSIS_LINES: u32 = 3;

#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub game: TurnGame,
    /// The name the page used (`chess`, `millennium`, `nichess`).
    pub game_name: &'static str,
    pub human: Color,
    pub base: Duration,
    pub increment: Duration,
    /// `Skill Level`, 20 is full strength.
    pub skill: u32,
    /// Where the game starts; `None` is the game's start position.
    pub fen: Option<String>,
    /// A Chess960 game: its start position's number (the game is chess from `fen`).
    pub chess960: Option<u16>,
    /// The most Roger thinks on one move, besides what its clock allows.
    pub movetime: Option<Duration>,
}

/// A number field: absent gives `default`; a number outside `range` is an error that names the
/// field.
fn number(
    value: Option<f64>,
    field: &str,
    default: f64,
    min: f64,
    max: f64,
) -> Result<f64, String> {
    match value {
        None => Ok(default),
        Some(n) if n.is_finite() && (min..=max).contains(&n) => Ok(n),
        Some(n) => Err(format!(
            "new: '{field}' is {n}; expected a number from {min} to {max}"
        )),
    }
}

/// Checks a `new` request's ranges. `random` is a random number: its low bit picks the side
/// for `"side":"random"`, the rest a Chess960 start position when none is named.
pub fn parse(request: &NewGame, random: u64) -> Result<Settings, String> {
    let random_bit = random & 1 == 1;
    let (game, game_name) = match request.game.unwrap_or(GameName::Chess) {
        GameName::Chess | GameName::Chess960 => (TurnGame::Chess, "chess"),
        GameName::Millennium => (TurnGame::Millennium, "millennium"),
        GameName::Nichess => (TurnGame::Nichess, "nichess"),
    };
    let human = match request.side.unwrap_or(SideChoice::White) {
        SideChoice::White => Color::White,
        SideChoice::Black => Color::Black,
        SideChoice::Random if random_bit => Color::Black,
        SideChoice::Random => Color::White,
    };
    let minutes = number(request.minutes, "minutes", 5.0, 0.0, MAX_MINUTES)?;
    if minutes <= 0.0 {
        return Err("new: 'minutes' is 0; a game needs some time on the clock".into());
    }
    let increment = number(
        request.increment,
        "increment",
        0.0,
        0.0,
        MAX_INCREMENT_SECONDS,
    )?;
    let skill = number(
        request.skill,
        "skill",
        f64::from(MAX_SKILL),
        0.0,
        f64::from(MAX_SKILL),
    )?;
    if skill.fract() != 0.0 {
        return Err(format!(
            "new: 'skill' is {skill}; expected a whole number from 0 to 20"
        ));
    }
    let mut fen = request
        .fen
        .as_deref()
        .map(str::trim)
        .filter(|fen| !fen.is_empty())
        .map(str::to_string);
    let chess960 = match (request.game, request.position) {
        (Some(GameName::Chess960), _) if fen.is_some() => None,
        (Some(GameName::Chess960), number) => {
            use crate::rules::chess::start_positions::{start_fen, CHESS960_COUNT};
            let count = u32::from(CHESS960_COUNT);
            let number = number.unwrap_or(((random >> 1) % u64::from(count)) as u32);
            if number >= count {
                return Err(format!(
                    "new: 'position' is {number}; expected a Chess960 start position from 0 to {}",
                    count - 1
                ));
            }
            let number = number as u16;
            fen = start_fen(number, number);
            Some(number)
        }
        (_, Some(_)) => {
            return Err("new: 'position' is for \"game\": \"chess960\"".to_string());
        }
        _ => None,
    };
    let movetime = match request.movetime {
        None => None,
        Some(ms) if (1..=MAX_MOVETIME_MS).contains(&ms) => Some(Duration::from_millis(ms)),
        Some(ms) => {
            return Err(format!(
                "new: 'movetime' is {ms}; expected milliseconds from 1 to {MAX_MOVETIME_MS}"
            ))
        }
    };
    Ok(Settings {
        game,
        game_name,
        human,
        base: Duration::from_secs_f64(minutes * 60.0),
        increment: Duration::from_secs_f64(increment),
        skill: skill as u32,
        fen,
        chess960,
        movetime,
    })
}

/// Checks an `analyse` request: the settings of a game at full strength that nobody plays
/// against Roger (White's side of the board at the bottom, no clock), and how many lines.
pub fn analysis(request: &AnalyseRequest) -> Result<(Settings, usize), String> {
    let lines = request.lines.unwrap_or(DEFAULT_ANALYSIS_LINES);
    if !(1..=MAX_ANALYSIS_LINES).contains(&lines) {
        return Err(format!(
            "analyse: 'lines' is {lines}; expected a whole number from 1 to {MAX_ANALYSIS_LINES}"
        ));
    }
    let as_game = NewGame {
        game: request.game,
        fen: request.fen.clone(),
        position: request.position,
        ..NewGame::default()
    };
    let settings = parse(&as_game, 0).map_err(|error| error.replacen("new:", "analyse:", 1))?;
    Ok((settings, lines as usize))
}

#[cfg(test)]
mod tests {
    use super::super::request::PlayRequest;
    use super::*;
    use crate::web::session::decode;
    use serde_json::{json, Value};

    /// A `new` message as the session reads it: decoded, then checked.
    fn settings_of(mut message: Value, random_bit: bool) -> Result<Settings, String> {
        message["type"] = json!("new");
        match decode::<PlayRequest>(message)? {
            PlayRequest::New(request) => parse(&request, u64::from(random_bit)),
            other => panic!("not a new game: {other:?}"),
        }
    }

    #[test]
    fn defaults_and_every_field() {
        let plain = settings_of(json!({}), false).unwrap();
        assert_eq!(plain.game, TurnGame::Chess);
        assert_eq!(plain.human, Color::White);
        assert_eq!(plain.base, Duration::from_secs(300));
        assert_eq!(plain.skill, 20);
        let nulls = json!({"game": null, "side": null, "fen": null, "movetime": null});
        assert_eq!(settings_of(nulls, false).unwrap(), plain);
        let full = json!({"game": "nichess", "side": "random", "minutes": 0.5,
            "increment": 2, "skill": 3, "fen": " 4k3/8/8/8/8/8/8/4K3 w - - 0 1 ", "movetime": 50});
        let settings = settings_of(full, true).unwrap();
        assert_eq!(settings.game_name, "nichess");
        assert_eq!(settings.human, Color::Black);
        assert_eq!(settings.base, Duration::from_secs(30));
        assert_eq!(settings.increment, Duration::from_secs(2));
        assert_eq!(
            settings.fen.as_deref(),
            Some("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
        );
        assert_eq!(settings.movetime, Some(Duration::from_millis(50)));
    }

    #[test]
    fn bad_fields_are_named() {
        for (message, needle) in [
            (
                json!({"game": "checkers"}),
                "new: unknown variant `checkers`",
            ),
            (json!({"game": 3}), "new: invalid type: integer `3`"),
            (json!({"side": "red"}), "new: unknown variant `red`"),
            (json!({"minutes": -1}), "'minutes' is -1"),
            (json!({"minutes": 0}), "'minutes' is 0"),
            (json!({"minutes": "5"}), "new: invalid type: string \"5\""),
            (json!({"skill": 21}), "'skill' is 21"),
            (json!({"skill": 2.5}), "'skill' is 2.5"),
            (json!({"fen": 7}), "new: invalid type: integer `7`"),
            (json!({"movetime": 0}), "'movetime' is 0"),
            (json!({"movetime": -5}), "new: invalid value: integer `-5`"),
            (json!({"minute": 5}), "new: unknown field `minute`"),
        ] {
            let error = settings_of(message.clone(), false).unwrap_err();
            assert!(error.contains(needle), "{message}: {error}");
        }
    }
}
