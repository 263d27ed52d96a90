//! Corruptions: FENs broken in one field, moves that are not legal or not moves at all, wrong
//! separators, and lines of raw bytes. Each is built to be refused by what protocol.md says.

use crate::common::Rng;
use crate::rules::registry::TurnGame;

/// Whitespace and invisible characters that protocol.md says do not separate tokens.
pub const WRONG_SEPARATORS: &[char] = &[
    '\u{a0}', '\u{2000}', '\u{2003}', '\u{2007}', '\u{200a}', '\u{3000}', '\u{b}', '\u{c}', '\r',
    '\u{85}', '\u{200b}', '\u{1680}', '\u{2028}', '\u{feff}', '\0', '\u{1b}',
];

pub fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[rng.index(items.len())]
}

/// One square of a placement rank: `None` empty, or a piece with its HP (`N(40)`).
type Square = Option<String>;

/// The squares of one rank of a FEN placement (multi-digit runs, Nichess HP).
fn expand_rank(rank: &str) -> Option<Vec<Square>> {
    let mut squares = Vec::new();
    let chars: Vec<char> = rank.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_digit() {
            let mut run = 0usize;
            while i < chars.len() && chars[i].is_ascii_digit() {
                run = run * 10 + chars[i].to_digit(10)? as usize;
                i += 1;
            }
            squares.extend(std::iter::repeat_n(None, run));
        } else {
            let mut piece = chars[i].to_string();
            i += 1;
            if i < chars.len() && chars[i] == '(' {
                while i < chars.len() {
                    piece.push(chars[i]);
                    i += 1;
                    if piece.ends_with(')') {
                        break;
                    }
                }
            }
            squares.push(Some(piece));
        }
    }
    Some(squares)
}

fn compress_rank(squares: &[Square]) -> String {
    let mut rank = String::new();
    let mut empty = 0;
    for square in squares {
        match square {
            None => empty += 1,
            Some(piece) => {
                if empty > 0 {
                    rank.push_str(&empty.to_string());
                    empty = 0;
                }
                rank.push_str(piece);
            }
        }
    }
    if empty > 0 {
        rank.push_str(&empty.to_string());
    }
    rank
}

fn piece_letter(square: &Square) -> Option<char> {
    square.as_ref().and_then(|piece| piece.chars().next())
}

/// Rewrites every rank with `change` (given the rank index from the top and its squares).
fn map_ranks(placement: &str, mut change: impl FnMut(usize, &mut Vec<Square>)) -> String {
    placement
        .split('/')
        .enumerate()
        .map(|(index, rank)| match expand_rank(rank) {
            Some(mut squares) => {
                change(index, &mut squares);
                compress_rank(&squares)
            }
            None => rank.to_string(),
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// A FEN of `game` broken so that the rules must refuse it, and what was broken.
pub fn corrupt_fen(fen: &str, game: TurnGame, rng: &mut Rng) -> (String, &'static str) {
    let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
    let side_to_move_is_white = fields.get(1).is_none_or(|side| side == "w");
    let kind = rng.index(19);
    let what = match kind {
        0..=4 | 15 => corrupt_fields(&mut fields, kind, game, rng),
        18 if game == TurnGame::Millennium => corrupt_fields(&mut fields, kind, game, rng),
        _ => corrupt_placement(&mut fields[0], kind, game, side_to_move_is_white, rng),
    };
    (fields.join(" "), what)
}

/// Fills `fields` up to `count` with the defaults of the fields missing.
fn fill(fields: &mut Vec<String>, count: usize) {
    const DEFAULTS: [&str; 6] = ["", "w", "-", "-", "0", "1"];
    while fields.len() < count {
        let next = DEFAULTS[fields.len()].to_string();
        fields.push(next);
    }
}

/// [`corrupt_fen`]'s breakages of the fields after the placement, and of their count (`kind`
/// 0 to 4, 15, and 18 for Millennium's pool).
fn corrupt_fields(
    fields: &mut Vec<String>,
    kind: usize,
    game: TurnGame,
    rng: &mut Rng,
) -> &'static str {
    match kind {
        0 => {
            fields[1] = pick(rng, &["x", "W", "B", "white", "-", "wb", "0"]).to_string();
            "side to move"
        }
        1 => {
            fill(fields, 3);
            fields[2] = match game {
                TurnGame::Chess => pick(rng, &["X", "KQkqX", "KK", "qq", "1", "KQkqKQkq"]),
                TurnGame::Millennium => pick(rng, &["X", "Q", "AA", "AEHKOaehkoA", "1", "Z"]),
                TurnGame::Nichess => pick(rng, &["X", "1", "Z"]),
            }
            .to_string();
            "castling"
        }
        2 => {
            fill(fields, 4);
            fields[3] = match game {
                TurnGame::Nichess => pick(rng, &["e3", "a6", "x", "e9"]),
                TurnGame::Millennium => pick(rng, &["p3", "e9", "e4", "33", "e", "a1"]),
                TurnGame::Chess => pick(rng, &["e9", "z3", "e4", "33", "e", "i3", "a1", "h8"]),
            }
            .to_string();
            "en passant"
        }
        3 => {
            fill(fields, 6);
            let mut bad = vec!["-1", "x", "05", "4294967296", "+3", "1e3", "1.0", "00"];
            if game == TurnGame::Nichess {
                bad.push("999");
            }
            fields[4] = pick(rng, &bad).to_string();
            "halfmove clock"
        }
        4 => {
            fill(fields, 6);
            let mut bad = vec!["-1", "x", "07", "4294967296", "+2", "1.5"];
            if game == TurnGame::Nichess {
                bad.push("200");
            }
            fields[5] = pick(rng, &bad).to_string();
            "move number"
        }
        15 => {
            if rng.index(2) == 0 {
                fields.truncate(1);
                "too few fields"
            } else {
                fill(fields, 6);
                fields.extend(["x", "y", "z"].map(str::to_string));
                "too many fields"
            }
        }
        _ => {
            fill(fields, 6);
            let pool = *pick(rng, &["K", "k", "QQQ", "P", "x", "Kq", "-Q"]);
            if fields.len() == 6 {
                fields.push(pool.to_string());
            } else {
                fields[6] = pool.to_string();
            }
            "pool"
        }
    }
}

/// [`corrupt_fen`]'s breakages of the placement (every other `kind`); `side_to_move_is_white`
/// keeps a Nichess side to move that lost its king from losing the other one too.
fn corrupt_placement(
    placement: &mut String,
    kind: usize,
    game: TurnGame,
    side_to_move_is_white: bool,
    rng: &mut Rng,
) -> &'static str {
    match kind {
        5 => {
            let chars: Vec<char> = placement.chars().collect();
            let spots: Vec<usize> = (0..chars.len()).filter(|&i| chars[i] != '/').collect();
            let at = *pick(rng, &spots);
            let replacement = *pick(rng, &['X', '?', 'z', '*', 'o']);
            *placement = chars
                .iter()
                .enumerate()
                .map(|(i, &c)| if i == at { replacement } else { c })
                .collect();
            "placement letter"
        }
        6 => {
            let mut ranks: Vec<&str> = placement.split('/').collect();
            ranks.remove(rng.index(ranks.len()));
            *placement = ranks.join("/");
            "a rank missing"
        }
        7 => {
            let empty = if game == TurnGame::Millennium {
                "15"
            } else {
                "8"
            };
            *placement = format!("{empty}/{}", placement);
            "a rank too many"
        }
        8 | 9 => {
            let mut ranks: Vec<String> = placement.split('/').map(str::to_string).collect();
            let at = rng.index(ranks.len());
            if rng.index(2) == 0 {
                ranks[at].push('1');
            } else {
                ranks[at].pop();
            }
            *placement = ranks.join("/");
            "rank length"
        }
        10 => {
            remove_a_king(placement, game, side_to_move_is_white, rng);
            "no king"
        }
        11 if game != TurnGame::Millennium => {
            add_a_second_king(placement, rng);
            "two kings"
        }
        12 => {
            *placement = map_ranks(placement, |index, squares| {
                if index == 0 && !squares.is_empty() {
                    squares[0] = Some("P".to_string());
                }
            });
            "pawn on the last rank"
        }
        13 => {
            let mut chars: Vec<char> = placement.chars().collect();
            let at = rng.index(chars.len() + 1);
            chars.insert(at, *pick(rng, &['é', '\u{fffd}', 'Ｋ', 'ß']));
            *placement = chars.into_iter().collect();
            "non-ASCII"
        }
        14 => {
            let (empty, bad): (&str, &[&str]) = match game {
                TurnGame::Millennium => ("15", &["78", "96", "114", "015"]),
                _ => ("8", &["44", "26", "71", "08"]),
            };
            let mut ranks: Vec<String> = placement.split('/').map(str::to_string).collect();
            match ranks.iter().position(|rank| rank == empty) {
                Some(at) => ranks[at] = pick(rng, bad).to_string(),
                None => ranks[0] = format!("{}{}", ranks[0], pick(rng, bad)),
            }
            *placement = ranks.join("/");
            "adjacent digits"
        }
        17 if game != TurnGame::Nichess => {
            // Two ranks of pawns of one side on top of what it has: more than it may hold.
            let pawn = if rng.index(2) == 0 { 'P' } else { 'p' };
            let mut ranks: Vec<String> = placement.split('/').map(str::to_string).collect();
            let width = expand_rank(&ranks[0]).map_or(8, |squares| squares.len());
            for index in [3, 4] {
                if index < ranks.len() {
                    ranks[index] = pawn.to_string().repeat(width);
                }
            }
            *placement = ranks.join("/");
            "too many pawns"
        }
        _ => {
            let hp = *pick(rng, &["(25)", "(0)", "(70)", "(", "(x)", "()"]);
            let mut done = false;
            *placement = map_ranks(placement, |_, squares| {
                for square in squares.iter_mut() {
                    if !done && square.is_some() {
                        if let Some(piece) = square {
                            piece.push_str(hp);
                        }
                        done = true;
                    }
                }
            });
            "health"
        }
    }
}

/// [`corrupt_placement`]'s "no king": one side's king becomes a knight (in Nichess not the
/// side to move's, which may have lost its king already).
fn remove_a_king(
    placement: &mut String,
    game: TurnGame,
    side_to_move_is_white: bool,
    rng: &mut Rng,
) {
    let white = match game {
        TurnGame::Nichess => !side_to_move_is_white,
        _ => rng.index(2) == 0,
    };
    let (king, knight) = if white { ('K', "N") } else { ('k', "n") };
    *placement = map_ranks(placement, |_, squares| {
        for square in squares.iter_mut() {
            if piece_letter(square) == Some(king) {
                *square = Some(knight.to_string());
            }
        }
    });
}

/// [`corrupt_placement`]'s "two kings": a side with a king gets a second one (a Nichess side may
/// have lost its king).
fn add_a_second_king(placement: &mut String, rng: &mut Rng) {
    let has = |king: char| placement.contains(king);
    let white = match (has('K'), has('k')) {
        (true, true) => rng.index(2) == 0,
        (white, _) => white,
    };
    let king = if white { 'K' } else { 'k' };
    let mut done = false;
    *placement = map_ranks(placement, |_, squares| {
        for square in squares.iter_mut() {
            let letter = piece_letter(square);
            let own = letter.is_some_and(|c| c.is_ascii_uppercase() == white);
            if !done && own && letter != Some(king) {
                *square = Some(king.to_string());
                done = true;
            }
        }
    });
    if !done {
        placement.push('X');
    }
}

/// The FEN written as the protocol accepts and normalises it (the counters left out, move
/// number `0`, castling letters in another order), if that changes anything.
pub fn normalise(fen: &str, game: TurnGame, rng: &mut Rng) -> Option<String> {
    let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
    match rng.index(3) {
        0 if game == TurnGame::Nichess => fields.truncate(2),
        0 if fields.len() == 6 => fields.truncate(4),
        // Not Nichess: its move number counts the plies of its 333-ply limit.
        1 if fields.len() >= 6 && game != TurnGame::Nichess => fields[5] = "0".to_string(),
        2 if fields[2] != "-" && game != TurnGame::Nichess => {
            let mut letters: Vec<char> = fields[2].chars().collect();
            letters.reverse();
            fields[2] = letters.into_iter().collect();
        }
        _ => return None,
    }
    let text = fields.join(" ");
    (text != fen).then_some(text)
}

/// Text that is no move in `game`'s notation.
pub fn malformed_move(game: TurnGame, rng: &mut Rng) -> String {
    let texts: &[&str] = match game {
        TurnGame::Chess => &[
            "zz", "e2e", "e2e4qq", "E2E4", "e2-e4", "e2e4k", "e2e9", "i2i4", "a0a1", "e7e8x",
            "0000", "e2e4e5", "e2", "", "e2e4=Q", "O-O",
        ],
        TurnGame::Millennium => &[
            "p2p4", "e2e9", "e7e8k", "E2E4", "o9o8", "e2e4qq", "0000", "a2", "h7h8K",
        ],
        TurnGame::Nichess => &[
            "b7b8r", "e2e4q", "i2i3", "E2E4", "e2e", "0000", "a1a9", "e2xe4",
        ],
    };
    let text = pick(rng, texts).to_string();
    if text.is_empty() {
        "-".to_string()
    } else {
        text
    }
}

/// A move in `game`'s notation between random squares (it may happen to be legal: the caller
/// checks).
pub fn random_move(game: TurnGame, rng: &mut Rng) -> String {
    let (files, ranks, suffixes): (usize, usize, &[&str]) = match game {
        TurnGame::Chess => (8, 8, &["", "", "", "q", "n"]),
        TurnGame::Millennium => (15, 8, &["", "", "", "q", "r"]),
        TurnGame::Nichess => (8, 8, &[""]),
    };
    let square = |rng: &mut Rng| {
        let file = (b'a' + rng.index(files) as u8) as char;
        format!("{file}{}", 1 + rng.index(ranks))
    };
    format!("{}{}{}", square(rng), square(rng), pick(rng, suffixes))
}

/// A line of random bytes that starts with a byte invalid in UTF-8 (so it is never a command)
/// and holds no line end.
pub fn binary_line(rng: &mut Rng) -> Vec<u8> {
    let length = rng.index(200);
    let mut bytes = vec![0x80 + rng.index(0x80) as u8];
    bytes.extend((0..length).map(|_| match rng.index(256) as u8 {
        b'\n' => 0,
        byte => byte,
    }));
    bytes.push(b'\n');
    bytes
}
