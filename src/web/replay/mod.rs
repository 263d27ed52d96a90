//! Replays: a file the page opens (a PGN of any turn game, an arena JSON file of any family, one
//! game's arena record, or a world server's turn log) read with our rules into frames the page
//! steps through. Session kind `replay`.

mod pgn;
mod realtime;
mod turn;
mod world;

use super::session::{Outbox, PageSession};
use crate::arena::record::ArenaReport;
use crate::arena::referee::SessionRecord;
use serde::Deserialize;
use serde_json::{json, Value};

/// The replay session: `open` is answered by `replay`.
#[derive(Default)]
pub struct ReplaySession;

/// What the replay page sends.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ReplayRequest {
    /// A file's text, and its name for the page to show (`file` when left out).
    Open {
        #[serde(default)]
        name: Option<String>,
        text: String,
    },
}

impl PageSession for ReplaySession {
    type Request = ReplayRequest;

    fn request(&mut self, request: ReplayRequest, out: &Outbox) {
        let ReplayRequest::Open { name, text } = request;
        let name = name.as_deref().unwrap_or("file");
        match read(&text) {
            Ok(games) => out.send(json!({ "type": "replay", "name": name, "games": games })),
            Err(error) => out.error(format!("{name}: {error}")),
        }
    }
}

/// Every game of a file, each as a JSON object with `title` and `kind` (`turn`, `realtime`,
/// `world`) and its frames, or `error` for a game that does not replay.
pub fn read(text: &str) -> Result<Vec<Value>, String> {
    let trimmed = text.trim_start();
    if trimmed.is_empty() {
        return Err("the file is empty".into());
    }
    if !trimmed.starts_with('{') {
        return read_pgn(text);
    }
    if world::is_turn_log(text) && text.trim().lines().count() > 1 {
        return Ok(vec![game(
            "world turn log",
            "world",
            world::replay(text).map(|r| json!(r)),
        )]);
    }
    let value: Value =
        serde_json::from_str(text).map_err(|error| format!("not JSON or PGN: {error}"))?;
    if value["format"] == "roger-arena" {
        let report: ArenaReport = serde_json::from_value(value)
            .map_err(|error| format!("not an arena file this build reads: {error}"))?;
        let variant = report.settings.variant.clone();
        return Ok(report
            .games
            .iter()
            .map(|finished| {
                let title = format!(
                    "game {}: {}",
                    finished.scheduled.index + 1,
                    finished.names.join(" - ")
                );
                let mut entry = record(&variant, &finished.played.record, &title);
                entry["result"] = json!(finished.played.result_text());
                entry
            })
            .collect());
    }
    if value.get("turn").is_some() && value.get("event").is_some() {
        return Ok(vec![game(
            "world turn log",
            "world",
            world::replay(text).map(|r| json!(r)),
        )]);
    }
    if value.get("family").is_some() {
        let variant = value["variant"].as_str().unwrap_or("chess").to_string();
        let played: SessionRecord =
            serde_json::from_value(value).map_err(|error| format!("not a game record: {error}"))?;
        return Ok(vec![record(&variant, &played, "record")]);
    }
    Err("a JSON file of neither an arena run, a game record nor a world turn log".into())
}

fn read_pgn(text: &str) -> Result<Vec<Value>, String> {
    let games = pgn::read_games(text)?;
    if games.is_empty() {
        return Err("no game in the PGN".into());
    }
    Ok(games
        .iter()
        .enumerate()
        .map(|(index, game)| {
            let title = format!(
                "game {}: {} - {}",
                index + 1,
                game.tag("White").unwrap_or("?"),
                game.tag("Black").unwrap_or("?")
            );
            let variant = game.tag("Variant").unwrap_or("chess").to_ascii_lowercase();
            // Chess960 (and DFRC, which PGN writers tag the same) is chess from its FEN.
            let variant = match variant.as_str() {
                "standard" | "chess960" | "chess 960" | "fischerandom" | "fischer random" => {
                    "chess".into()
                }
                _ => variant,
            };
            let mut entry = self::game(
                &title,
                "turn",
                turn::replay(&variant, game.tag("FEN"), &game.moves).map(|r| json!(r)),
            );
            entry["result"] = json!(game.result.clone().unwrap_or_else(|| "*".into()));
            entry
        })
        .collect())
}

/// One arena record as a replay.
fn record(variant: &str, record: &SessionRecord, title: &str) -> Value {
    match record {
        SessionRecord::Turn(played) => {
            let moves: Vec<String> = played.moves.iter().map(|m| m.text.clone()).collect();
            game(
                title,
                "turn",
                turn::replay(variant, Some(&played.start_fen), &moves).map(|r| json!(r)),
            )
        }
        SessionRecord::Realtime(timeline) => game(
            title,
            "realtime",
            realtime::replay(timeline).map(|r| json!(r)),
        ),
        SessionRecord::World(world) => {
            let pieces: Vec<Value> = world
                .final_pieces
                .iter()
                .map(|p| json!({"id": p.id, "owner": p.owner, "kind": p.kind, "x": p.x, "y": p.y}))
                .collect();
            // The record keeps the world's parameters: its board and kingdoms as they were.
            let param = |name: &str| world.setup.params.get(name).copied();
            let teams: serde_json::Map<String, Value> = world
                .seats
                .iter()
                .flat_map(|seat| {
                    seat.players
                        .iter()
                        .map(|player| (player.to_string(), json!(seat.team.clone())))
                })
                .collect();
            game(
                title,
                "world",
                Ok(json!({
                    "width": param("width"), "height": param("height"),
                    "kingdom_radius": param("kingdom_radius"),
                    "teams": teams, "names": {}, "start": pieces, "steps": [],
                    "warnings": ["an arena world record keeps only the final pieces; \
                                  a world server's --log file replays every turn"],
                })),
            )
        }
        SessionRecord::Other(_) => game(
            title,
            "other",
            Err("a game family this build does not know".into()),
        ),
    }
}

fn game(title: &str, kind: &str, replay: Result<Value, String>) -> Value {
    match replay {
        Ok(mut value) => {
            value["title"] = json!(title);
            value["kind"] = json!(kind);
            value
        }
        Err(error) => json!({ "title": title, "kind": kind, "error": error }),
    }
}
