//! Megachess for the protocol fuzzer: world lines of random and huge worlds (boards up to the
//! 1,000,000 x 1,000,000 the protocol allows, up to thousands of pieces), the same broken as
//! protocol.md says a world is refused, and the replay of every `bestturn` by the rules.

use super::corrupt::{pick, WRONG_SEPARATORS};
use crate::common::Rng;
use crate::rules::megachess::{
    Coord, Facing, Kind, MegachessParams, Move, PlayerId, Team, World, WorldView,
};
use std::collections::BTreeSet;

/// The largest board side the protocol takes.
const MAX_SIDE: u32 = crate::rules::megachess::MAX_SIDE as u32;

/// The largest `turn` the protocol takes (issue 26, 4c: above it a world is refused).
pub use crate::rules::megachess::MAX_TURN;

/// A world line as sent (the words after `position megachess`), and what the fuzzer needs to
/// judge answers in it.
#[derive(Clone, Debug)]
pub struct Told {
    pub text: String,
    pub me: PlayerId,
    /// `turn` as sent.
    pub turn: u64,
}

impl Told {
    /// The world as the rules read it, following `me` for whose turn it is (issue 26, 4a: a
    /// `turn` whose parity disagrees with `me`'s team is information, not an error).
    pub fn world(&self, params: &MegachessParams) -> Result<World, String> {
        WorldView::parse(&parity_fixed(&self.text), params)
            .map(|view| view.world)
            .map_err(|error| error.to_string())
    }
}

/// The world words with `turn` changed, if need be, to one of `me`'s team (the rules of this
/// build read the team from `turn`).
pub fn parity_fixed(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let find = |key: &str| words.iter().position(|w| *w == key);
    let (Some(t), Some(m), Some(p)) = (find("turn"), find("me"), find("players")) else {
        return text.to_string();
    };
    let (Some(turn), Some(me)) = (
        words.get(t + 1).and_then(|w| w.parse::<u64>().ok()),
        words.get(m + 1).copied(),
    ) else {
        return text.to_string();
    };
    let team = words[p + 1..]
        .iter()
        .take_while(|w| **w != "pieces")
        .find_map(|w| w.strip_prefix(&format!("{me}:")))
        .and_then(|letter| Team::from_letter(letter.chars().next()?));
    let Some(team) = team else {
        return text.to_string();
    };
    if turn == 0 || Team::of_turn(turn) == team {
        return text.to_string();
    }
    let fixed = if turn > 1 { turn - 1 } else { turn + 1 };
    let mut out: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    out[t + 1] = fixed.to_string();
    out.join(" ")
}

fn coord(rng: &mut Rng, width: u32, height: u32) -> Coord {
    Coord::new(
        rng.index(width as usize) as u32,
        rng.index(height as usize) as u32,
    )
}

/// A square near `centre` (within `spread`), on the board.
fn near(rng: &mut Rng, centre: Coord, spread: u32, width: u32, height: u32) -> Coord {
    let offset = |rng: &mut Rng| rng.index(2 * spread as usize + 1) as i64 - spread as i64;
    let x = (centre.x as i64 + offset(rng)).clamp(0, width as i64 - 1);
    let y = (centre.y as i64 + offset(rng)).clamp(0, height as i64 - 1);
    Coord::new(x as u32, y as u32)
}

/// A board size: mostly small or the default, sometimes the largest the protocol allows or a
/// long thin strip.
fn size(rng: &mut Rng) -> (u32, u32) {
    match rng.index(10) {
        0..=2 => (8 + rng.index(57) as u32, 8 + rng.index(57) as u32),
        3..=4 => (256, 256),
        5 => (MAX_SIDE, MAX_SIDE),
        6 => (1 + rng.index(MAX_SIDE as usize) as u32, MAX_SIDE),
        7 => (*pick(rng, &[1, 2, 3]), MAX_SIDE - rng.index(3) as u32),
        _ => (
            1 + rng.index(MAX_SIDE as usize) as u32,
            1 + rng.index(MAX_SIDE as usize) as u32,
        ),
    }
}

/// A random world as a `Told`: players of both teams (ids up to the largest), kings or none,
/// pieces clustered around their king or spread over the board, neutral pieces, flags and
/// lives. `huge` gives thousands of pieces.
pub fn random_world(rng: &mut Rng, params: &MegachessParams, huge: bool) -> Told {
    let (width, height) = size(rng);
    let area = width as u64 * height as u64;
    let players = 1 + rng.index(6);
    let mut ids = BTreeSet::new();
    while ids.len() < players {
        let id = match rng.index(4) {
            0 => u32::MAX - rng.index(3) as u32,
            1 => 1 + rng.index(1_000_000) as u32,
            _ => 1 + rng.index(9) as u32,
        };
        ids.insert(id);
    }
    let roster: Vec<(PlayerId, Team)> = ids
        .iter()
        .map(|&id| (id, *pick(rng, &Team::BOTH)))
        .collect();
    let (me, my_team) = *pick(rng, &roster);
    let turn = pick_turn(rng, my_team);
    let wanted = match huge {
        true => 1000 + rng.index(3000),
        false => 1 + rng.index(40),
    }
    .min(area as usize);
    let spread = match rng.index(3) {
        0 => 2,
        1 => 8,
        _ => 40,
    };
    let mut taken = BTreeSet::new();
    let mut pieces = Vec::new();
    let mut centres = Vec::new();
    for &(id, _) in &roster {
        let centre = coord(rng, width, height);
        centres.push(centre);
        if rng.index(5) != 0 && taken.insert(centre) {
            pieces.push(format!("{id}K{centre}"));
        }
    }
    let mut tries = 0;
    while pieces.len() < wanted && tries < wanted * 4 {
        tries += 1;
        let neutral = rng.index(8) == 0;
        let owner_index = rng.index(roster.len());
        let at = match rng.index(4) {
            0 => coord(rng, width, height),
            _ => near(rng, centres[owner_index], spread, width, height),
        };
        if !taken.insert(at) {
            continue;
        }
        let kind = *pick(
            rng,
            &[
                Kind::Queen,
                Kind::Rook,
                Kind::Bishop,
                Kind::Knight,
                Kind::Pawn,
                Kind::Pawn,
            ],
        );
        let owner = if neutral { 0 } else { roster[owner_index].0 };
        let mut token = format!("{owner}{}{at}", kind.letter());
        let moved = rng.index(2) == 0;
        let orthogonal = kind == Kind::Bishop && rng.index(3) == 0;
        if moved || orthogonal {
            token.push('.');
            if moved {
                token.push('m');
            }
            if orthogonal {
                token.push('o');
            }
        }
        if !neutral && rng.index(4) == 0 {
            let full = params.full_life(kind);
            let life = 1 + rng.index(full.max(1) as usize) as u32;
            token.push_str(&format!("/{life}"));
        }
        pieces.push(token);
    }
    let players_text: Vec<String> = roster
        .iter()
        .map(|(id, team)| format!("{id}:{}", team.letter()))
        .collect();
    let text = format!(
        "size {width} {height} turn {turn} me {me} players {} pieces {}",
        players_text.join(" "),
        pieces.join(" ")
    );
    Told {
        text: text.trim_end().to_string(),
        me,
        turn,
    }
}

/// A turn of `team`; sometimes the largest there is, and now and then one of the other team's
/// parity (issue 26, 4a: `me` says whose turn it is).
fn pick_turn(rng: &mut Rng, team: Team) -> u64 {
    let base = match rng.index(10) {
        0 => MAX_TURN - rng.index(2) as u64,
        1..=2 => 1 + rng.index(1_000_000) as u64,
        _ => 1 + rng.index(50) as u64,
    };
    let right = if Team::of_turn(base) == team {
        base
    } else if base > 1 {
        base - 1
    } else {
        base + 1
    };
    match rng.index(20) {
        0 if right < MAX_TURN => right + 1,
        _ => right,
    }
}

/// A world of armies in their start formation, played a few turns by random legal moves: the
/// worlds a server sends (many moves, captures, hand-overs, fading).
pub fn played_world(rng: &mut Rng, params: &MegachessParams) -> Told {
    let side = 24 + rng.index(40) as u32;
    let mut world_params = *params;
    world_params.width = side;
    world_params.height = side;
    let mut world = World::new(world_params, rng.next_u64());
    let count = 2 + rng.index(3);
    let mut ids = Vec::new();
    for index in 0..count {
        let id = 1 + index as PlayerId;
        let team = if index % 2 == 0 {
            Team::Alabaster
        } else {
            Team::Metal
        };
        if world.add_player(id, team).is_err() {
            continue;
        }
        let corner = Coord::new(
            rng.index((side - 8) as usize) as u32,
            rng.index((side - 8) as usize) as u32,
        );
        let facing = *pick(
            rng,
            &[Facing::North, Facing::South, Facing::East, Facing::West],
        );
        if world.spawn_army(id, corner, facing).is_ok() {
            ids.push(id);
        }
    }
    let turns = rng.index(12);
    for _ in 0..turns {
        let team = world.team_to_move();
        for &id in &ids {
            if world.player(id).is_none_or(|p| p.team != team) {
                continue;
            }
            for _ in 0..rng.index(6) {
                let moves = world.legal_moves(id);
                if moves.is_empty() {
                    break;
                }
                let _ = world.apply(id, *pick(rng, &moves));
            }
        }
        world.end_turn();
    }
    let team = world.team_to_move();
    let mine: Vec<PlayerId> = world
        .players()
        .filter(|player| player.team == team)
        .map(|player| player.id)
        .collect();
    let me = match mine.is_empty() {
        true => {
            // Nobody of the team to move is left: a world where someone of the other team
            // moves next.
            world.end_turn();
            world.players().next().map_or(1, |player| player.id)
        }
        false => *pick(rng, &mine),
    };
    let line = match rng.index(3) {
        0 => world.position_line(me, Some(2 + rng.index(10) as u32)),
        _ => world.position_line(me, None),
    };
    let text = line
        .strip_prefix("position megachess ")
        .unwrap_or(&line)
        .to_string();
    Told {
        turn: world.turn(),
        text,
        me,
    }
}

/// A world line broken so that protocol.md refuses it, and what was broken. Leading zeros in
/// a square (4b) and a `turn` above [`MAX_TURN`] (4c) are refused as issue 26 settled.
pub fn corrupt_world(told: &Told, rng: &mut Rng) -> (String, &'static str) {
    let world = WorldWords::read(&told.text);
    for _ in 0..8 {
        let broken = match rng.index(16) {
            0 if !world.piece_words.is_empty() => world.double_piece(rng),
            1 => world.off_board(rng),
            2 => world.with(
                &[format!("{}N0,0", world.free_id)],
                "world: an owner not among the players",
            ),
            3 => world.bad_player(rng),
            4 => world.set_after(
                "me",
                world.free_id.to_string(),
                "world: me not among the players",
            ),
            5 => world.set_after("turn", "0".into(), "world: turn 0"),
            6 => world.with(
                &[
                    format!("{}K0,0", world.first_id),
                    format!("{}K0,1", world.first_id),
                ],
                "world: a second king",
            ),
            7 => world.with(&["0K0,0".into()], "world: a neutral king"),
            8 => world.bad_life(rng),
            9 => world.bad_piece(rng),
            10 => world.bad_size(rng),
            11 => world.keyword_missing(rng),
            12 if !world.piece_words.is_empty() => world.leading_zero(rng),
            13 => world.turn_past_range(rng),
            14 => Some(world.wrong_separator(rng)),
            _ => world.unreadable_number(rng),
        };
        if let Some(broken) = broken {
            return broken;
        }
    }
    (format!("{} 0K0,0", told.text), "world: a neutral king")
}

/// A world line cut into words, with what the corruptions need to know of it.
struct WorldWords {
    words: Vec<String>,
    pieces_at: usize,
    size_w: u64,
    size_h: u64,
    /// The indexes of the piece tokens.
    piece_words: Vec<usize>,
    first_id: u64,
    /// An id no player has.
    free_id: u64,
}

/// A broken line and what was broken, or `None` when the line has nothing to break that way.
type Broken = Option<(String, &'static str)>;

impl WorldWords {
    fn read(text: &str) -> WorldWords {
        let words: Vec<String> = text.split(' ').map(str::to_string).collect();
        let pieces_at = words
            .iter()
            .position(|w| w == "pieces")
            .unwrap_or(words.len());
        let players_at = words.iter().position(|w| w == "players").unwrap_or(0);
        let ids: Vec<u64> = words[players_at + 1..pieces_at]
            .iter()
            .filter_map(|w| w.split(':').next()?.parse().ok())
            .collect();
        WorldWords {
            size_w: words.get(1).and_then(|w| w.parse().ok()).unwrap_or(1),
            size_h: words.get(2).and_then(|w| w.parse().ok()).unwrap_or(1),
            piece_words: (pieces_at + 1..words.len()).collect(),
            first_id: ids.first().copied().unwrap_or(1),
            free_id: (1..).find(|id| !ids.contains(id)).unwrap_or(7),
            pieces_at,
            words,
        }
    }

    fn at(&self, key: &str) -> Option<usize> {
        self.words.iter().position(|w| w == key)
    }

    /// The line with `tokens` added at its end.
    fn with(&self, tokens: &[String], what: &'static str) -> Broken {
        let mut own = self.words.clone();
        own.extend_from_slice(tokens);
        Some((own.join(" "), what))
    }

    /// The line with word `index` replaced.
    fn replaced(&self, index: usize, with: String, what: &'static str) -> Broken {
        let mut own = self.words.clone();
        own[index] = with;
        Some((own.join(" "), what))
    }

    /// The line with the word after `key` replaced, if the key is there.
    fn set_after(&self, key: &str, with: String, what: &'static str) -> Broken {
        self.replaced(self.at(key)? + 1, with, what)
    }

    fn double_piece(&self, rng: &mut Rng) -> Broken {
        let square = square_of(&self.words[*pick(rng, &self.piece_words)]);
        self.with(&[format!("0P{square}")], "world: two pieces on one square")
    }

    fn off_board(&self, rng: &mut Rng) -> Broken {
        let square = match rng.index(2) {
            0 => format!("{},0", self.size_w),
            _ => format!("0,{}", self.size_h),
        };
        let token = format!("{}P{square}", self.first_id);
        self.with(&[token], "world: a square off the board")
    }

    fn bad_player(&self, rng: &mut Rng) -> Broken {
        let (first_id, free_id) = (self.first_id, self.free_id);
        let bad = match rng.index(5) {
            0 => "0:a".to_string(),
            1 => format!("{first_id}:m"),
            2 => format!("{free_id}:x"),
            3 => format!("{free_id}"),
            _ => format!("{free_id}:am"),
        };
        let mut own = self.words.clone();
        own.insert(self.pieces_at, bad);
        Some((own.join(" "), "world: a bad player"))
    }

    fn bad_life(&self, rng: &mut Rng) -> Broken {
        let first_id = self.first_id;
        let token = match rng.index(5) {
            0 => format!("{first_id}P0,0/0"),
            1 => format!("{first_id}P0,0/99999999"),
            2 => "0P0,0/1".to_string(),
            3 => format!("{first_id}K0,0/1"),
            _ => format!("{first_id}P0,0/x"),
        };
        self.with(&[token], "world: a bad life")
    }

    fn bad_piece(&self, rng: &mut Rng) -> Broken {
        let first_id = self.first_id;
        let token = match rng.index(5) {
            0 => format!("{first_id}R0,0.o"),
            1 => format!("{first_id}P0,0.mm"),
            2 => format!("{first_id}P0,0."),
            3 => format!("{first_id}P0,0.x"),
            _ => format!("{first_id}X0,0"),
        };
        self.with(&[token], "world: a bad piece")
    }

    fn bad_size(&self, rng: &mut Rng) -> Broken {
        let (w, h) = match rng.index(3) {
            0 => ("0".to_string(), self.size_h.to_string()),
            1 => (self.size_w.to_string(), (MAX_SIDE as u64 + 1).to_string()),
            _ => ("-1".to_string(), self.size_h.to_string()),
        };
        let mut own = self.words.clone();
        own[1] = w;
        own[2] = h;
        Some((own.join(" "), "world: a bad size"))
    }

    fn keyword_missing(&self, rng: &mut Rng) -> Broken {
        let key = *pick(rng, &["size", "turn", "me", "players", "pieces"]);
        let mut own = self.words.clone();
        own.remove(self.at(key)?);
        Some((own.join(" "), "world: a keyword missing"))
    }

    /// 4b: a square written with a leading zero.
    fn leading_zero(&self, rng: &mut Rng) -> Broken {
        let index = *pick(rng, &self.piece_words);
        let token = &self.words[index];
        let square = square_of(token);
        let (x, y) = square.split_once(',').unwrap_or(("0", "0"));
        let padded = match rng.index(2) {
            0 => format!("0{x},{y}"),
            _ => format!("{x},00{y}"),
        };
        let with = token.replacen(&square, &padded, 1);
        self.replaced(index, with, "world: a square with a leading zero (4b)")
    }

    /// 4c: a turn past MAX_TURN (of the right parity, so only the range is wrong).
    fn turn_past_range(&self, rng: &mut Rng) -> Broken {
        let t = self.at("turn")?;
        let over = MAX_TURN + 1 + rng.index(1000) as u64 * 2;
        let over = match rng.index(3) {
            0 => u64::MAX - 1,
            _ => over,
        };
        self.replaced(t + 1, over.to_string(), "world: a turn past its range (4c)")
    }

    fn wrong_separator(&self, rng: &mut Rng) -> (String, &'static str) {
        let mut text = self.words.join(" ");
        let spaces: Vec<usize> = text.match_indices(' ').map(|(i, _)| i).collect();
        let index = *pick(rng, &spaces);
        let wrong = *pick(rng, WRONG_SEPARATORS);
        text.replace_range(index..index + 1, &wrong.to_string());
        (text, "world: a wrong separator")
    }

    fn unreadable_number(&self, rng: &mut Rng) -> Broken {
        let word = *pick(rng, &["turn", "me", "size"]);
        let k = self.at(word)?;
        let bad = *pick(rng, &["x", "-1", "1e3", "+2", "99999999999999999999"]);
        self.replaced(k + 1, bad.to_string(), "world: a number that does not read")
    }
}

/// The square of a piece token (`12P3,4.m/2` gives `3,4`).
fn square_of(token: &str) -> String {
    let start = token
        .find(|c: char| c.is_ascii_uppercase())
        .map_or(0, |i| i + 1);
    let rest = &token[start..];
    let end = rest.find(['.', '/']).unwrap_or(rest.len());
    rest[..end].to_string()
}

/// Plays `bestturn`'s moves for `me` on the world, in order: how many were legal, or the first
/// that is not, with the rule that refuses it.
pub fn replay(world: &mut World, me: PlayerId, moves: &[&str]) -> Result<usize, String> {
    for (index, text) in moves.iter().enumerate() {
        let mv = Move::parse(text).map_err(|error| format!("move {}: {error}", index + 1))?;
        if mv.to_string() != *text {
            return Err(format!(
                "move {} '{text}' is not written as the protocol writes it ('{mv}')",
                index + 1
            ));
        }
        world
            .apply(me, mv)
            .map_err(|rejection| format!("move {} {text}: {rejection}", index + 1))?;
    }
    Ok(moves.len())
}

/// A world line normalised by the rules (the turn aside), for comparing what `d` shows.
pub fn normalised(text: &str, params: &MegachessParams) -> Option<(String, u64)> {
    let turn = text
        .split_whitespace()
        .skip_while(|w| *w != "turn")
        .nth(1)?
        .parse()
        .ok()?;
    let view = WorldView::parse(&parity_fixed(text), params).ok()?;
    let line = view.world.position_line(view.me, None);
    let without_turn: Vec<&str> = line.split(' ').collect();
    let mut kept = Vec::new();
    let mut skip = false;
    for word in without_turn {
        if skip {
            skip = false;
            continue;
        }
        if word == "turn" {
            skip = true;
            continue;
        }
        kept.push(word);
    }
    Some((kept.join(" "), turn))
}
