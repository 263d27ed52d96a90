//! The `d` reply of Megachess: who plans, the players in view, a map of the window around
//! `me`'s army when it is small enough to read (else a count of the pieces in it), and the
//! world's position line, which reads back.

use crate::rules::megachess::{Coord, Kind, MegachessParams, PlayerId, Rect, World, NEUTRAL};
use std::collections::BTreeMap;

/// Squares drawn around `me`'s army on the map.
pub const MAP_MARGIN: u32 = 2;
/// The widest and tallest window drawn as a map; a larger one is summed up.
pub const MAP_LIMIT: u32 = 64;

/// `d` before any `position`.
pub fn no_world(params: &MegachessParams) -> String {
    format!(
        "World: none yet (send 'position megachess ...')\nParameters: size {} {} turn_ms {}",
        params.width, params.height, params.turn_ms
    )
}

/// What `who` is to `me`: itself, an ally, an enemy or neutral.
fn relation(world: &World, me: PlayerId, who: PlayerId) -> char {
    match who {
        NEUTRAL => 'o',
        _ if who == me => '*',
        _ if world.allied(me, who) => '+',
        _ => '-',
    }
}

/// `d` for the world `me` plans in.
pub fn display(world: &World, me: PlayerId) -> String {
    let params = world.params();
    let team = world
        .player(me)
        .map_or("unknown", |player| player.team.name());
    let mut lines = vec![format!(
        "World: size {} {} turn {} ({} to move), me {me} ({team})",
        params.width,
        params.height,
        world.turn(),
        world.team_to_move().name()
    )];
    let players: Vec<String> = world
        .players()
        .map(|player| {
            let king = match world.kingdom_centre(player.id) {
                Some(at) => format!("king {at}"),
                None => "king not in view".to_string(),
            };
            format!(
                "{}:{} {} pieces, {king}",
                player.id,
                player.team.letter(),
                world.pieces_of(player.id).count()
            )
        })
        .collect();
    lines.push(format!("Players: {}", players.join("; ")));
    match world.army_rect(me, MAP_MARGIN) {
        None => lines.push(format!("Window: player {me} has no pieces")),
        Some(rect) => {
            let width = rect.max.x - rect.min.x + 1;
            let height = rect.max.y - rect.min.y + 1;
            lines.push(format!(
                "Window: x {}..{}, y {}..{} ({width} x {height}), {MAP_MARGIN} squares around \
                 the army",
                rect.min.x, rect.max.x, rect.min.y, rect.max.y
            ));
            if width <= MAP_LIMIT && height <= MAP_LIMIT {
                map(world, me, rect, &mut lines);
            } else {
                summary(world, me, rect, &mut lines);
            }
        }
    }
    lines.push(format!("Position: {}", world.position_line(me, None)));
    lines.join("\n")
}

/// Two characters a square, north up: the piece's letter and whose it is (`*` me, `+` an ally,
/// `-` an enemy, `o` neutral), `. ` for an empty square; the row's y at the right.
fn map(world: &World, me: PlayerId, rect: Rect, lines: &mut Vec<String>) {
    lines.push("Map: <letter><* mine, + ally, - enemy, o neutral>, north up".into());
    for y in (rect.min.y..=rect.max.y).rev() {
        let mut row = String::with_capacity(2 * (rect.max.x - rect.min.x + 1) as usize + 12);
        for x in rect.min.x..=rect.max.x {
            match world.piece_at(Coord::new(x, y)) {
                Some(piece) => {
                    row.push(piece.kind.letter());
                    row.push(relation(world, me, piece.owner));
                }
                None => row.push_str(". "),
            }
        }
        lines.push(format!("{} {y}", row.trim_end()));
    }
    lines.push(format!(
        "x from {} (left) to {} (right)",
        rect.min.x, rect.max.x
    ));
}

/// The pieces inside the window, counted by whose they are and their kind.
fn summary(world: &World, me: PlayerId, rect: Rect, lines: &mut Vec<String>) {
    let inside = |at: Coord| {
        (rect.min.x..=rect.max.x).contains(&at.x) && (rect.min.y..=rect.max.y).contains(&at.y)
    };
    let mut counts: BTreeMap<char, [usize; 6]> = BTreeMap::new();
    for piece in world.pieces().filter(|piece| inside(piece.at)) {
        counts.entry(relation(world, me, piece.owner)).or_default()[piece.kind.index()] += 1;
    }
    lines.push(format!(
        "Map: too large to draw (more than {MAP_LIMIT} x {MAP_LIMIT}); pieces in the window:"
    ));
    for (mark, name) in [
        ('*', "mine"),
        ('+', "allies"),
        ('-', "enemies"),
        ('o', "neutral"),
    ] {
        let Some(by_kind) = counts.get(&mark) else {
            continue;
        };
        let kinds: Vec<String> = Kind::ALL
            .iter()
            .filter(|kind| by_kind[kind.index()] > 0)
            .map(|kind| format!("{}{}", by_kind[kind.index()], kind.letter()))
            .collect();
        let total: usize = by_kind.iter().sum();
        lines.push(format!("  {name}: {total} ({})", kinds.join(" ")));
    }
}
