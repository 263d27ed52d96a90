//! A Megachess world's replay from the world server's turn log (one JSON object a line): the
//! armies placed where the log says, every logged move played again by the rules, every turn
//! ended by the rules (fading), the logged bonus pieces put down. The page gets the pieces
//! before the first turn and, for each turn, what changed.
//!
//! The log does not carry the world's parameters: the board is taken as large as the squares
//! the log names, and fading and kingdoms use the default parameters. A world run with other
//! fading parameters replays its moves exactly but may fade pieces at other turns; the
//! replay's `warnings` say where a logged move no longer applies.

use crate::rules::megachess::{
    Coord, Facing, Kind, MegachessParams, Move, Piece, PlayerId, Team, World, NEUTRAL,
};
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

/// A piece as the page draws it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WorldPiece {
    pub id: u32,
    pub owner: PlayerId,
    pub kind: char,
    pub x: u32,
    pub y: u32,
    /// Turns of life left outside its kingdom, when fading.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub life: Option<u32>,
}

/// One turn: its moves, then the pieces it removed and the pieces it added or changed.
#[derive(Clone, Debug, Serialize)]
pub struct WorldStep {
    pub turn: u64,
    pub moves: Vec<String>,
    pub removed: Vec<u32>,
    pub changed: Vec<WorldPiece>,
    pub scores: BTreeMap<String, i64>,
}

#[derive(Clone, Debug, Serialize)]
pub struct WorldReplay {
    pub width: u32,
    pub height: u32,
    pub kingdom_radius: u32,
    /// Player id to team name.
    pub teams: BTreeMap<PlayerId, String>,
    pub names: BTreeMap<PlayerId, String>,
    pub start: Vec<WorldPiece>,
    pub steps: Vec<WorldStep>,
    pub warnings: Vec<String>,
}

/// True when `text` looks like a turn log: its first line is an object with `turn` and `event`.
pub fn is_turn_log(text: &str) -> bool {
    text.lines()
        .find(|line| !line.trim().is_empty())
        .and_then(|line| serde_json::from_str::<Value>(line).ok())
        .is_some_and(|first| first.get("turn").is_some() && first.get("event").is_some())
}

/// Replays a turn log; an error names the line that does not read.
pub fn replay(text: &str) -> Result<WorldReplay, String> {
    let entries = read_entries(text)?;
    let Survey {
        teams,
        names,
        extent,
    } = survey(&entries);
    let mut params = MegachessParams::default();
    params.set("width", i64::from(extent.x.max(8)))?;
    params.set("height", i64::from(extent.y.max(8)))?;
    // The log says which bonus pieces came; the rules must not add their own.
    params.set("bonus_every", 0)?;
    let mut world = World::new(params, 1);
    if let Some((_, first)) = entries.first() {
        world.set_turn(number(first, "turn").max(1));
    }
    let mut warnings = Vec::new();
    // The start is every army as placed, before any move: armies placed during the first turn
    // belong to it; the moves made before a later army came are in the first step.
    let mut start: HashMap<u32, WorldPiece> = HashMap::new();
    let mut before: Option<HashMap<u32, WorldPiece>> = None;
    let mut steps = Vec::new();
    let mut moves = Vec::new();
    for (line, entry) in &entries {
        let player = number(entry, "player") as PlayerId;
        match event(entry) {
            "placed" => {
                let team = match teams.get(&player).map(String::as_str) {
                    Some("metal") => Team::Metal,
                    _ => Team::Alabaster,
                };
                let facing = match text_field(entry, "facing") {
                    "south" => Facing::South,
                    "east" => Facing::East,
                    "west" => Facing::West,
                    _ => Facing::North,
                };
                let placed = Coord::parse(text_field(entry, "corner")).and_then(|corner| {
                    world.add_player(player, team)?;
                    world.spawn_army(player, corner, facing)
                });
                match placed {
                    Ok(()) if before.is_none() => {
                        let army = world.pieces_of(player).map(view);
                        start.extend(army.map(|piece| (piece.id, piece)));
                    }
                    Ok(()) => {}
                    Err(error) => {
                        warnings.push(format!("line {line}: army of player {player}: {error}"))
                    }
                }
            }
            "move" => {
                let text = text_field(entry, "move");
                let applied = Move::parse(text)
                    .and_then(|mv| world.apply(player, mv).map_err(|error| error.to_string()));
                match applied {
                    Ok(_) => moves.push(format!("{player}: {text}")),
                    Err(error) => {
                        warnings.push(format!("line {line}: player {player} {text}: {error}"))
                    }
                }
            }
            "bonus" => {
                if let Err(error) = place_bonus(&mut world, &entry["piece"]) {
                    warnings.push(format!("line {line}: bonus piece: {error}"));
                }
            }
            "left" => world.leave(player),
            "turn-end" => {
                let before = before.get_or_insert_with(|| start.clone());
                world.end_turn();
                let after = snapshot(&world);
                steps.push(step(entry, before, &after, std::mem::take(&mut moves)));
                *before = after;
            }
            _ => {}
        }
    }
    Ok(WorldReplay {
        width: params.width,
        height: params.height,
        kingdom_radius: params.kingdom_radius,
        teams,
        names,
        start: start.into_values().collect(),
        steps,
        warnings,
    })
}

/// The log's entries with their line numbers (blank lines skipped); an error names the line
/// that is not JSON or has no event.
fn read_entries(text: &str) -> Result<Vec<(usize, Value)>, String> {
    let mut entries = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let entry: Value = serde_json::from_str(line)
            .map_err(|error| format!("line {}: not JSON: {error}", index + 1))?;
        if entry.get("event").and_then(Value::as_str).is_none() {
            return Err(format!("line {}: no \"event\"", index + 1));
        }
        entries.push((index + 1, entry));
    }
    Ok(entries)
}

/// What a first pass over the log learns: each player's team and name, and how far the board
/// must reach to hold every army, move and bonus piece.
struct Survey {
    teams: BTreeMap<PlayerId, String>,
    names: BTreeMap<PlayerId, String>,
    extent: Coord,
}

fn survey(entries: &[(usize, Value)]) -> Survey {
    let mut teams = BTreeMap::new();
    let mut names = BTreeMap::new();
    let mut extent = Coord::new(0, 0);
    let mut grow = |at: Coord, margin: u32| {
        extent.x = extent.x.max(at.x.saturating_add(margin));
        extent.y = extent.y.max(at.y.saturating_add(margin));
    };
    for (_, entry) in entries {
        match event(entry) {
            "joined" => {
                let player = number(entry, "player") as PlayerId;
                teams.insert(player, text_field(entry, "team").to_string());
                names.insert(player, text_field(entry, "name").to_string());
            }
            "placed" => {
                if let Ok(corner) = Coord::parse(text_field(entry, "corner")) {
                    grow(corner, 8);
                }
            }
            "move" => {
                if let Ok(mv) = Move::parse(text_field(entry, "move")) {
                    grow(mv.from, 1);
                    grow(mv.to, 1);
                }
            }
            "bonus" => {
                if let Ok(at) = Coord::parse(text_field(&entry["piece"], "at")) {
                    grow(at, 1);
                }
            }
            _ => {}
        }
    }
    Survey {
        teams,
        names,
        extent,
    }
}

/// Places a logged bonus piece (`{"kind": "Q", "at": "x,y"}`) on the world.
fn place_bonus(world: &mut World, piece: &Value) -> Result<(), String> {
    let kind = text_field(piece, "kind")
        .chars()
        .next()
        .and_then(Kind::from_letter);
    match (kind, Coord::parse(text_field(piece, "at"))) {
        (Some(kind), Ok(at)) => world
            .place(NEUTRAL, kind, at, false, false, None)
            .map(|_| ()),
        _ => Err("not a piece".to_string()),
    }
}

/// One turn's step: the pieces gone and changed from `before` to `after`, its moves, and the
/// scores the turn-end entry gives.
fn step(
    entry: &Value,
    before: &HashMap<u32, WorldPiece>,
    after: &HashMap<u32, WorldPiece>,
    moves: Vec<String>,
) -> WorldStep {
    let removed = before
        .keys()
        .filter(|id| !after.contains_key(id))
        .copied()
        .collect();
    let changed = after
        .iter()
        .filter(|(id, piece)| before.get(*id) != Some(*piece))
        .map(|(_, piece)| piece.clone())
        .collect();
    let scores = entry["scores"]
        .as_object()
        .map(|scores| {
            scores
                .iter()
                .map(|(player, score)| (player.clone(), score.as_i64().unwrap_or(0)))
                .collect()
        })
        .unwrap_or_default();
    WorldStep {
        turn: number(entry, "turn"),
        moves,
        removed,
        changed,
        scores,
    }
}

fn snapshot(world: &World) -> HashMap<u32, WorldPiece> {
    world
        .pieces()
        .map(view)
        .map(|piece| (piece.id, piece))
        .collect()
}

fn view(piece: &Piece) -> WorldPiece {
    WorldPiece {
        id: piece.id.0,
        owner: piece.owner,
        kind: piece.kind.letter(),
        x: piece.at.x,
        y: piece.at.y,
        life: piece.life,
    }
}

fn event(entry: &Value) -> &str {
    entry["event"].as_str().unwrap_or("")
}

fn number(entry: &Value, name: &str) -> u64 {
    entry[name].as_u64().unwrap_or(0)
}

fn text_field<'a>(entry: &'a Value, name: &str) -> &'a str {
    entry[name].as_str().unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = r#"{"turn":1,"ms":0,"event":"placed","player":1,"corner":"0,0","facing":"north"}
{"turn":1,"ms":0,"event":"joined","player":1,"team":"alabaster","name":"ada","house":false}
{"turn":1,"ms":1,"event":"placed","player":2,"corner":"0,30","facing":"south"}
{"turn":1,"ms":1,"event":"joined","player":2,"team":"metal","name":"bob","house":false}
{"turn":1,"ms":15,"event":"move","player":1,"move":"4,1-4,3","effects":{"handed_over":0,"points":0}}
{"turn":1,"ms":15,"event":"turn-end","scores":{"1":1,"2":0}}
{"turn":2,"ms":3,"event":"move","player":2,"move":"4,30-4,28","effects":{"handed_over":0,"points":0}}
{"turn":2,"ms":4,"event":"bonus","piece":{"id":32,"owner":0,"kind":"P","at":"20,15"}}
{"turn":2,"ms":5,"event":"turn-end","scores":{"1":1,"2":1}}
"#;

    #[test]
    fn armies_moves_and_bonus_pieces_come_back_turn_by_turn() {
        assert!(is_turn_log(LOG));
        let replay = replay(LOG).unwrap();
        assert!(replay.warnings.is_empty(), "{:?}", replay.warnings);
        assert_eq!(replay.start.len(), 32);
        assert_eq!(replay.steps.len(), 2);
        let first = &replay.steps[0];
        assert_eq!(first.moves, ["1: 4,1-4,3"]);
        assert!(first
            .changed
            .iter()
            .any(|p| (p.x, p.y, p.kind) == (4, 3, 'P')));
        let second = &replay.steps[1];
        assert!(second
            .changed
            .iter()
            .any(|p| (p.x, p.y, p.owner) == (20, 15, 0)));
        assert_eq!(replay.teams[&2], "metal");
    }

    #[test]
    fn a_move_the_rules_refuse_is_a_warning_and_a_bad_line_an_error() {
        let bad = LOG.replace("4,1-4,3", "4,1-4,5");
        let replay = replay(&bad).unwrap();
        assert_eq!(replay.warnings.len(), 1, "{:?}", replay.warnings);
        assert!(super::replay("{\"turn\":1,\"event\":\"move\"}\nnot json").is_err());
    }
}
