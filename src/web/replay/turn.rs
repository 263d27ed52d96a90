//! A turn game's replay: its moves read with the game's rules (the protocol's notation, or SAN
//! in chess) and the position after each, as frames.

use crate::rules::chess::{san, Chess};
use crate::rules::registry::{bind_game, TurnGame};
use crate::rules::Game;
use crate::rules::{GameRecord, Outcome};
use crate::web::view::{move_squares, parse_placement, splash, PieceView};
use serde::Serialize;

/// The position after a move (the first frame: the start).
#[derive(Clone, Debug, Serialize)]
pub struct TurnFrame {
    pub fen: String,
    /// The move that led here, in the protocol's notation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#move: Option<String>,
    /// Nichess: the squares a throw's splash hit (enemy pieces besides the target that lost
    /// health or were destroyed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub splash: Vec<String>,
    /// The move as the file wrote it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub written: Option<String>,
    /// The pieces as the play page's state has them (`square`, `letter`, `color`; Nichess
    /// `hp`, `ap`, `max_hp`).
    pub pieces: Vec<serde_json::Value>,
}

/// A whole turn game.
#[derive(Clone, Debug, Serialize)]
pub struct TurnReplay {
    pub variant: String,
    pub files: u8,
    pub ranks: u8,
    pub frames: Vec<TurnFrame>,
    /// How the game stands after the last frame by the rules (`ongoing`, `1-0 checkmate`, ...).
    pub outcome: String,
}

/// Replays `moves` from `start_fen` (the start position when `None`). An error names the move
/// (1-based) that does not read or is not legal, and why.
pub fn replay(
    variant: &str,
    start_fen: Option<&str>,
    moves: &[String],
) -> Result<TurnReplay, String> {
    let game = TurnGame::named(variant)
        .ok_or_else(|| format!("'{variant}' is not a turn game (chess, millennium, nichess)"))?;
    bind_game!(game, G => replay_game::<G>(start_fen, moves))
}

fn replay_game<G: Game>(start_fen: Option<&str>, moves: &[String]) -> Result<TurnReplay, String> {
    let start = match start_fen {
        Some(fen) => G::from_fen(fen).map_err(|error| format!("start FEN '{fen}': {error}"))?,
        None => G::startpos(),
    };
    let kind = TurnGame::named(G::VARIANT).expect("a turn game's own name");
    let view = |position: &G| -> Vec<PieceView> {
        parse_placement(&position.fen(), kind, G::FILES.into(), G::RANKS.into()).unwrap_or_default()
    };
    let frame = |position: &G, pieces: &[PieceView]| TurnFrame {
        fen: position.fen(),
        r#move: None,
        splash: Vec::new(),
        written: None,
        pieces: pieces.iter().map(|piece| piece.json(kind)).collect(),
    };
    let mut record = GameRecord::new(start);
    let mut before = view(record.position());
    let mut frames = vec![frame(record.position(), &before)];
    for (index, written) in moves.iter().enumerate() {
        let text = protocol_text(record.position(), written)
            .map_err(|error| format!("move {} '{written}': {error}", index + 1))?;
        let mover_white = record.position().side_to_move().index() == 0;
        record
            .play_text(&text)
            .map_err(|error| format!("move {} '{written}': {error}", index + 1))?;
        let after = view(record.position());
        let mut next = frame(record.position(), &after);
        if kind == TurnGame::Nichess {
            if let Some((_, to)) = move_squares(&text) {
                next.splash = splash(&before, &after, mover_white, &to);
            }
        }
        next.r#move = Some(text);
        next.written = Some(written.clone());
        frames.push(next);
        before = after;
    }
    let outcome = match record.outcome() {
        Outcome::Ongoing => "ongoing".to_string(),
        Outcome::Win(color, reason) => format!(
            "{} {}",
            if color.index() == 0 { "1-0" } else { "0-1" },
            reason.text()
        ),
        Outcome::Draw(reason) => format!("1/2-1/2 {}", reason.text()),
    };
    Ok(TurnReplay {
        variant: G::VARIANT.to_string(),
        files: G::FILES,
        ranks: G::RANKS,
        frames,
        outcome,
    })
}

/// The protocol text of `written`: itself when the rules read it, else (chess) the legal move
/// whose SAN it is.
fn protocol_text<G: Game>(position: &G, written: &str) -> Result<String, String> {
    match position.parse_move(written) {
        Ok(mv) => Ok(position.move_text(mv)),
        Err(error) if G::VARIANT == "chess" => {
            let chess = Chess::from_fen(&position.fen()).ok();
            chess
                .as_ref()
                .and_then(|chess| san::read(chess, written).map(|mv| chess.move_text(mv)))
                .ok_or_else(|| error.to_string())
        }
        Err(error) => Err(error.to_string()),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_chess960_game_replays_its_castling_from_san() {
        let pgn = "[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n\
                   1. f4 f5 2. Rf2 Rf7 3. O-O O-O *\n";
        let games = super::super::read(pgn).unwrap();
        let frames = games[0]["frames"].as_array().unwrap();
        let moves: Vec<&str> = frames[1..]
            .iter()
            .map(|f| f["move"].as_str().unwrap())
            .collect();
        // The king on g1 castles without moving: king-takes-rook is the only way to write it.
        assert_eq!(moves, ["f2f4", "f7f5", "f1f2", "f8f7", "g1h1", "g8h8"]);
        let after = frames[5]["fen"].as_str().unwrap();
        assert!(
            after.starts_with("bbqnn1kr/ppppprpp/8/5p2/5P2/8/PPPPPRPP/BBQNNRK1 b k "),
            "{after}"
        );
    }

    use super::*;

    #[test]
    fn san_and_protocol_moves_replay_to_the_rules_outcome() {
        let moves: Vec<String> = ["f3", "e5", "g4", "Qh4#"].map(String::from).to_vec();
        let game = replay("chess", None, &moves).unwrap();
        assert_eq!(game.frames.len(), 5);
        assert_eq!(game.frames[4].r#move.as_deref(), Some("d8h4"));
        assert!(game.outcome.starts_with("0-1"), "{}", game.outcome);
        let texts: Vec<String> = ["f2f3", "e7e5"].map(String::from).to_vec();
        assert_eq!(
            replay("chess", None, &texts).unwrap().frames[2].fen,
            game.frames[2].fen
        );
    }

    #[test]
    fn an_illegal_move_is_named_by_its_number() {
        let moves: Vec<String> = ["e4", "e5", "Ke3"].map(String::from).to_vec();
        let error = replay("chess", None, &moves).unwrap_err();
        assert!(error.starts_with("move 3 'Ke3'"), "{error}");
        assert!(replay("shogi", None, &[]).is_err());
    }

    #[test]
    fn millennium_and_nichess_replay_in_their_notation() {
        let game = replay("millennium", None, &["e2e4".to_string()]).unwrap();
        assert_eq!((game.files, game.ranks), (15, 8));
        assert!(game.frames[1]
            .pieces
            .iter()
            .any(|p| p["square"] == "e4" && p["letter"] == "P"));
        let throw = replay(
            "nichess",
            Some("k7/8/6mn/6Nr/7p/8/4M3/3QK3 w - - 0 1"),
            &["d1h5".to_string()],
        )
        .unwrap();
        assert_eq!(
            throw.frames[1].fen,
            "k7/8/7n(40)/6NM/7p(10)/8/8/3QK3 b - - 0 1"
        );
    }
}
