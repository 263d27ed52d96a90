//! Stored games and the rules: a move's two-byte code in a position, and a stored game played
//! back into its positions, each with the move played from it and its score.

use super::format::{Ply, RawGame};
use crate::rules::{Game, MoveList, PackedMove};
use crate::search::MATE_BOUND;

/// The move's code in `position`: the from square, the to square (seven bits each) and, in the
/// top two bits, its rank among the legal moves between the same squares taken in the order of
/// their texts (promotions: `b`, `n`, `q`, `r`). A code depends on the rules and the notation,
/// not on the order in which moves are generated.
pub fn encode_move<G: Game>(position: &G, mv: G::Move) -> Result<u16, String> {
    let (from, to) = mv.squares();
    if from.0 >= 128 || to.0 >= 128 {
        return Err(format!("{}: a square beyond seven bits", mv.text()));
    }
    let same = same_squares(position, from.0, to.0);
    let rank = same
        .iter()
        .position(|&m| m == mv)
        .ok_or_else(|| format!("{} is not legal in {}", mv.text(), position.fen()))?;
    if rank > 3 {
        return Err(format!(
            "{}: more than four moves between its squares",
            mv.text()
        ));
    }
    Ok(from.0 as u16 | (to.0 as u16) << 7 | (rank as u16) << 14)
}

/// The legal move a code stands for in `position`.
pub fn decode_move<G: Game>(position: &G, code: u16) -> Result<G::Move, String> {
    let (from, to, rank) = ((code & 127) as u8, (code >> 7 & 127) as u8, code >> 14);
    same_squares(position, from, to)
        .get(rank as usize)
        .copied()
        .ok_or_else(|| {
            format!(
                "move code {code:#06x} is no legal move in {}",
                position.fen()
            )
        })
}

/// The legal moves from `from` to `to`, by their texts when there are several.
fn same_squares<G: Game>(position: &G, from: u8, to: u8) -> Vec<G::Move> {
    let mut moves = MoveList::new();
    position.generate_moves(&mut moves);
    let mut same: Vec<G::Move> = moves
        .into_iter()
        .filter(|m| {
            let (f, t) = m.squares();
            (f.0, t.0) == (from, to)
        })
        .collect();
    if same.len() > 1 {
        same.sort_by_cached_key(|&m| position.move_text(m));
    }
    same
}

/// One position of a stored game.
#[derive(Clone, Debug)]
pub struct StoredPosition<G: Game> {
    pub position: G,
    /// The move played from it (none on a last ply kept without its move).
    pub played: Option<G::Move>,
    /// The stored score (centipawns, White's view) or [`Ply::NO_SCORE`].
    pub score: i16,
}

impl<G: Game> StoredPosition<G> {
    /// Whether a network or a fit learns from it: a score that is no mate, not in check, and
    /// a quiet move played (the search's score of a position about to capture says little
    /// about the position itself).
    pub fn is_sample(&self) -> bool {
        self.score != Ply::NO_SCORE
            && (self.score as i32).abs() < MATE_BOUND
            && !self.position.in_check()
            && self.played.is_none_or(|mv| !self.position.is_tactical(mv))
    }
}

/// Plays a stored game back: each ply's position, move and score, in order.
pub fn replay<G: Game>(game: &RawGame) -> Result<Vec<StoredPosition<G>>, String> {
    let mut position =
        G::from_fen(&game.start).map_err(|e| format!("start '{}': {e}", game.start))?;
    let mut positions = Vec::with_capacity(game.plies.len());
    for (index, ply) in game.plies.iter().enumerate() {
        let played = if ply.code == Ply::NO_MOVE {
            if index + 1 != game.plies.len() {
                return Err(format!("ply {}: no move before the last ply", index + 1));
            }
            None
        } else {
            Some(decode_move(&position, ply.code).map_err(|e| format!("ply {}: {e}", index + 1))?)
        };
        let next = played.map(|mv| position.play(mv));
        positions.push(StoredPosition {
            position,
            played,
            score: ply.score,
        });
        match next {
            Some(next) => position = next,
            None => break,
        }
    }
    Ok(positions)
}

/// The positions of a stored game to learn from ([`StoredPosition::is_sample`]).
pub fn sample_positions<G: Game>(game: &RawGame) -> Result<Vec<StoredPosition<G>>, String> {
    let mut positions = replay::<G>(game)?;
    positions.retain(StoredPosition::is_sample);
    Ok(positions)
}

/// The same as text samples: FEN, score and the game's result.
pub fn samples<G: Game>(game: &RawGame) -> Result<Vec<crate::tune::Sample>, String> {
    Ok(sample_positions::<G>(game)?
        .into_iter()
        .map(|stored| crate::tune::Sample {
            fen: stored.position.fen(),
            score: stored.score as i32,
            result: game.result.white_score(),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::Rng;
    use crate::rules::chess::Chess;
    use crate::rules::millennium::Millennium;
    use crate::rules::nichess::Nichess;
    use crate::tune::data::format::GameResult;

    /// Random games: every legal move's code decodes to itself, and the game stored as codes
    /// replays into the same positions.
    fn codes_round_trip<G: Game>(games: u64) {
        let mut distinct_codes = 0;
        for seed in 0..games {
            let mut rng = Rng::new(seed);
            let mut position = G::startpos();
            let mut stored = RawGame {
                start: position.fen(),
                result: GameResult::Draw,
                plies: Vec::new(),
            };
            let mut walked = vec![position.clone()];
            for ply in 0..200 {
                let mut moves = MoveList::new();
                position.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let mut codes: Vec<u16> = Vec::new();
                for &mv in &moves {
                    let code = encode_move(&position, mv).unwrap();
                    assert_ne!(code, Ply::NO_MOVE);
                    assert_eq!(decode_move(&position, code), Ok(mv), "{}", position.fen());
                    codes.push(code);
                }
                codes.sort_unstable();
                codes.dedup();
                assert_eq!(codes.len(), moves.len(), "{}", position.fen());
                distinct_codes += codes.len();
                let mv = moves[rng.index(moves.len())];
                stored.plies.push(Ply {
                    code: encode_move(&position, mv).unwrap(),
                    score: ply as i16,
                });
                position = position.play(mv);
                walked.push(position.clone());
            }
            let replayed = replay::<G>(&stored).unwrap();
            assert_eq!(replayed.len(), stored.plies.len());
            for (i, stored_position) in replayed.iter().enumerate() {
                assert_eq!(stored_position.position.fen(), walked[i].fen());
                assert_eq!(stored_position.score, i as i16);
            }
        }
        assert!(distinct_codes > 1000);
    }

    #[test]
    fn chess_moves_round_trip_through_codes() {
        codes_round_trip::<Chess>(20);
        // Four promotions between the same squares, told apart by their letters.
        let position = Chess::from_fen("8/P6k/8/8/8/8/8/K7 w - - 0 1").unwrap();
        for text in ["a7a8q", "a7a8r", "a7a8b", "a7a8n"] {
            let mv = position.parse_move(text).unwrap();
            let code = encode_move(&position, mv).unwrap();
            assert_eq!(
                position.move_text(decode_move(&position, code).unwrap()),
                text
            );
        }
    }

    #[test]
    fn millennium_moves_round_trip_through_codes() {
        codes_round_trip::<Millennium>(8);
    }

    #[test]
    fn nichess_moves_round_trip_through_codes() {
        codes_round_trip::<Nichess>(20);
    }

    #[test]
    fn a_code_of_no_legal_move_is_refused() {
        let position = Chess::startpos();
        // e2e5 and a move from an empty square.
        assert!(decode_move(&position, 12 | 36 << 7).is_err());
        assert!(decode_move(&position, 20 | 28 << 7).is_err());
        let game = RawGame {
            start: Chess::START_FEN.into(),
            result: GameResult::Draw,
            plies: vec![
                Ply {
                    code: Ply::NO_MOVE,
                    score: 0,
                };
                2
            ],
        };
        assert!(replay::<Chess>(&game).unwrap_err().contains("ply 1"));
    }
}
