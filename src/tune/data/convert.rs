//! Text data (`FEN | score | result` lines, docs/tuning.md) into stored games. Datagen wrote a
//! game's quiet positions in order, so consecutive lines are usually a few plies apart: the
//! plies between them are found again (the FENs' move numbers say how many) and the lines become
//! one game of four-byte plies instead of one game each.

use super::format::{GameResult, Ply, RawGame};
use super::replay::encode_move;
use crate::rules::{Game, MoveList};
use crate::tune::Sample;

/// The most plies looked for between two lines.
const MAX_GAP: u32 = 6;
/// Gaps up to this long are also searched over every move, not only the ones datagen leaves
/// out of its text (a position scored as a mate is left out whatever its move).
const FULL_SEARCH_GAP: u32 = 2;

/// The number of plies since the game's start that a FEN's move number and side give.
fn ply_number(fen: &str) -> Option<u32> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let fullmove: u32 = fields.get(5)?.parse().ok()?;
    let black = *fields.get(1)? == "b";
    Some(2 * fullmove.saturating_sub(1) + black as u32)
}

/// The moves from `from` to `to` in exactly `gap` plies, the first of them quiet, or `None`.
fn connect<G: Game>(from: &G, to: &G, gap: u32) -> Option<Vec<G::Move>> {
    if gap == 0 || gap > MAX_GAP || from.in_check() {
        return None;
    }
    let target = (to.key(), to.fen());
    let mut path = Vec::with_capacity(gap as usize);
    let found = walk(from, &target, gap, false, &mut path)
        || (gap <= FULL_SEARCH_GAP && walk(from, &target, gap, true, &mut path));
    found.then_some(path)
}

/// Depth-first search for `target` after `left` plies. The first ply is quiet (the line's
/// position had a quiet move, or it would not be in the text); the later plies left no line, so
/// unless `every_move`, they are captures, promotions or answers to check.
fn walk<G: Game>(
    position: &G,
    target: &(u64, String),
    left: u32,
    every_move: bool,
    path: &mut Vec<G::Move>,
) -> bool {
    if left == 0 {
        return position.key() == target.0 && position.fen() == target.1;
    }
    let first = path.is_empty();
    let mut moves = MoveList::new();
    position.generate_moves(&mut moves);
    for mv in moves {
        let allowed = if first {
            !position.is_tactical(mv)
        } else {
            every_move || position.in_check() || position.is_tactical(mv)
        };
        if !allowed {
            continue;
        }
        path.push(mv);
        if walk(&position.play(mv), target, left - 1, every_move, path) {
            return true;
        }
        path.pop();
    }
    false
}

/// Turns text samples, in file order, into stored games; `emit` hears each finished game.
pub struct TextConverter<G: Game> {
    game: Option<RawGame>,
    /// The last line's position and score, whose move the next line tells.
    last: Option<(G, i16)>,
}

impl<G: Game> Default for TextConverter<G> {
    fn default() -> Self {
        TextConverter {
            game: None,
            last: None,
        }
    }
}

impl<G: Game> TextConverter<G> {
    pub fn push(&mut self, sample: &Sample, emit: &mut impl FnMut(RawGame)) -> Result<(), String> {
        let position = G::from_fen(&sample.fen).map_err(|e| format!("{}: {e}", sample.fen))?;
        let result = GameResult::from_white_score(sample.result)
            .ok_or_else(|| format!("result {} is not 0, 0.5 or 1", sample.result))?;
        let score = Ply::stored_score(sample.score);
        let path = match (&self.game, &self.last) {
            (Some(game), Some((last, _))) if game.result == result => {
                let gap = ply_number(&sample.fen)
                    .zip(ply_number(&last.fen()))
                    .and_then(|(to, from)| to.checked_sub(from));
                gap.and_then(|gap| connect(last, &position, gap))
            }
            _ => None,
        };
        match path {
            Some(path) => {
                let (mut walker, last_score) = self.last.take().expect("a line before");
                let game = self.game.as_mut().expect("a game going");
                for (index, &mv) in path.iter().enumerate() {
                    game.plies.push(Ply {
                        code: encode_move(&walker, mv)?,
                        score: if index == 0 {
                            last_score
                        } else {
                            Ply::NO_SCORE
                        },
                    });
                    walker = walker.play(mv);
                }
            }
            None => {
                self.finish(emit);
                self.game = Some(RawGame {
                    start: sample.fen.clone(),
                    result,
                    plies: Vec::new(),
                });
            }
        }
        self.last = Some((position, score));
        Ok(())
    }

    /// Ends the game going: its last line is kept without a move.
    pub fn finish(&mut self, emit: &mut impl FnMut(RawGame)) {
        if let (Some(mut game), Some((_, score))) = (self.game.take(), self.last.take()) {
            game.plies.push(Ply {
                code: Ply::NO_MOVE,
                score,
            });
            emit(game);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::chess::Chess;
    use crate::tune::data::replay::replay;

    fn sample(fen: &str, score: i32, result: f32) -> Sample {
        Sample {
            fen: fen.into(),
            score,
            result,
        }
    }

    #[test]
    fn lines_a_few_plies_apart_become_one_game_and_replay_into_the_same_lines() {
        // A game's positions, as the engine writes them, with the ones that have a line.
        let mut position = Chess::startpos();
        let mut fens = vec![position.fen()];
        for text in [
            "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "e1g1", "a6b5",
        ] {
            position = position.play(position.parse_move(text).unwrap());
            fens.push(position.fen());
        }
        let lines = [
            // 1. e4: one quiet ply to the next line.
            sample(&fens[0], 30, 1.0),
            sample(&fens[1], -25, 1.0),
            // 1... e5 2. Nf3 Nc6 3. Bb5: four quiet plies, too many to find: a new game.
            sample(&fens[5], -20, 1.0),
            // 3... a6 4. O-O, then 4... axb5, a capture that left no line.
            sample(&fens[6], 35, 1.0),
            sample(&fens[8], -90, 1.0),
            // Another game's line.
            sample("4k3/8/8/8/8/8/4P3/4K3 w - - 0 40", 90, 0.5),
        ];
        let mut games = Vec::new();
        let mut converter = TextConverter::<Chess>::default();
        for line in &lines {
            converter.push(line, &mut |game| games.push(game)).unwrap();
        }
        converter.finish(&mut |game| games.push(game));
        let plies: Vec<usize> = games.iter().map(|game| game.plies.len()).collect();
        assert_eq!(plies, [2, 4, 1], "{games:?}");
        assert_eq!(games[1].plies[2].score, Ply::NO_SCORE);
        assert_eq!(games[1].plies[3].code, Ply::NO_MOVE);
        let replayed: Vec<String> = games
            .iter()
            .flat_map(|game| {
                replay::<Chess>(game)
                    .unwrap()
                    .into_iter()
                    .filter(|stored| stored.is_sample())
                    .map(|stored| format!("{} {}", stored.position.fen(), stored.score))
                    .collect::<Vec<_>>()
            })
            .collect();
        let expected: Vec<String> = lines
            .iter()
            .map(|line| format!("{} {}", line.fen, line.score))
            .collect();
        assert_eq!(replayed, expected);
        assert_eq!(ply_number(&lines[4].fen), Some(8));
        assert_eq!(ply_number(&fens[1]), Some(1));
    }
}
