//! The page's "new game" message, checked field by field.

use crate::rules::registry::TurnGame;
use crate::rules::Color;
use serde_json::Value;
use std::time::Duration;

/// Longest game clock the page may ask for, in minutes.
const MAX_MINUTES: f64 = 600.0;
const MAX_INCREMENT_SECONDS: f64 = 600.0;
const MAX_MOVETIME_MS: u64 = 600_000;
pub const MAX_SKILL: u32 = 20;

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
    /// The most Roger thinks on one move, besides what its clock allows.
    pub movetime: Option<Duration>,
}

/// A number field: absent gives `default`; anything but a number in `range` is an error that
/// names the field.
fn number(message: &Value, field: &str, default: f64, min: f64, max: f64) -> Result<f64, String> {
    match message.get(field) {
        None | Some(Value::Null) => Ok(default),
        Some(value) => match value.as_f64() {
            Some(n) if n.is_finite() && (min..=max).contains(&n) => Ok(n),
            _ => Err(format!(
                "new: '{field}' is {value}; expected a number from {min} to {max}"
            )),
        },
    }
}

/// Reads `{"type":"new", "game", "side", "minutes", "increment", "skill", "fen", "movetime"}`.
/// `random_bit` picks the side for `"side":"random"`.
pub fn parse(message: &Value, random_bit: bool) -> Result<Settings, String> {
    let name = match message.get("game") {
        None | Some(Value::Null) => "chess",
        Some(Value::String(name)) => name.as_str(),
        Some(other) => return Err(format!("new: 'game' is {other}; expected a game's name")),
    };
    let (game, game_name) = match name {
        "chess" => (TurnGame::Chess, "chess"),
        "millennium" => (TurnGame::Millennium, "millennium"),
        "nichess" => (TurnGame::Nichess, "nichess"),
        _ => {
            return Err(format!(
                "new: no game '{name}' here; expected chess, millennium or nichess"
            ))
        }
    };
    let human = match message.get("side").and_then(Value::as_str) {
        None if message.get("side").is_none_or(Value::is_null) => Color::White,
        Some("white") => Color::White,
        Some("black") => Color::Black,
        Some("random") if random_bit => Color::Black,
        Some("random") => Color::White,
        _ => {
            return Err(format!(
                "new: 'side' is {}; expected \"white\", \"black\" or \"random\"",
                message["side"]
            ))
        }
    };
    let minutes = number(message, "minutes", 5.0, 0.0, MAX_MINUTES)?;
    if minutes <= 0.0 {
        return Err("new: 'minutes' is 0; a game needs some time on the clock".into());
    }
    let increment = number(message, "increment", 0.0, 0.0, MAX_INCREMENT_SECONDS)?;
    let skill = number(
        message,
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
    let fen = match message.get("fen") {
        None | Some(Value::Null) => None,
        Some(Value::String(fen)) if fen.trim().is_empty() => None,
        Some(Value::String(fen)) => Some(fen.trim().to_string()),
        Some(other) => return Err(format!("new: 'fen' is {other}; expected a FEN text")),
    };
    let movetime = match message.get("movetime") {
        None | Some(Value::Null) => None,
        Some(value) => match value.as_u64() {
            Some(ms) if (1..=MAX_MOVETIME_MS).contains(&ms) => Some(Duration::from_millis(ms)),
            _ => {
                return Err(format!(
                    "new: 'movetime' is {value}; expected milliseconds from 1 to {MAX_MOVETIME_MS}"
                ))
            }
        },
    };
    Ok(Settings {
        game,
        game_name,
        human,
        base: Duration::from_secs_f64(minutes * 60.0),
        increment: Duration::from_secs_f64(increment),
        skill: skill as u32,
        fen,
        movetime,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn defaults_and_every_field() {
        let plain = parse(&json!({"type": "new"}), false).unwrap();
        assert_eq!(plain.game, TurnGame::Chess);
        assert_eq!(plain.human, Color::White);
        assert_eq!(plain.base, Duration::from_secs(300));
        assert_eq!(plain.skill, 20);
        let full = json!({"type": "new", "game": "nichess", "side": "random", "minutes": 0.5,
            "increment": 2, "skill": 3, "fen": " 4k3/8/8/8/8/8/8/4K3 w - - 0 1 ", "movetime": 50});
        let settings = parse(&full, true).unwrap();
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
            (json!({"game": "checkers"}), "no game 'checkers'"),
            (json!({"game": 3}), "'game' is 3"),
            (json!({"side": "red"}), "'side' is \"red\""),
            (json!({"minutes": -1}), "'minutes' is -1"),
            (json!({"minutes": 0}), "'minutes' is 0"),
            (json!({"minutes": "5"}), "'minutes' is \"5\""),
            (json!({"skill": 21}), "'skill' is 21"),
            (json!({"skill": 2.5}), "'skill' is 2.5"),
            (json!({"fen": 7}), "'fen' is 7"),
            (json!({"movetime": 0}), "'movetime' is 0"),
        ] {
            let error = parse(&message, false).unwrap_err();
            assert!(error.contains(needle), "{message}: {error}");
        }
    }
}
