//! What the generator believes the engine holds: the game (through the rules library), the
//! text it was set up from, and the job that runs. The generator keeps it in step with every
//! line it expects to be accepted.

use super::step::{Job, Searched};
use crate::common::Rng;
use crate::rules::registry::{dispatch, AnyGame, TurnGame};
use crate::rules::{Game, GameRecord, MoveList};

/// The engine's state as the lines so far should have left it.
#[derive(Clone, Debug)]
pub struct Model {
    pub game: AnyGame,
    /// The FEN of the last good `position fen` as sent (`None`: `startpos`).
    pub start_fen: Option<String>,
    /// The moves of the last good `position`.
    pub moves: Vec<String>,
    /// The job that runs until something ends it (never a finite one: the driver waits for
    /// those before the next line).
    pub job: Option<Job>,
}

impl Default for Model {
    fn default() -> Model {
        Model::new(TurnGame::Chess)
    }
}

impl Model {
    /// A fresh engine's state with `game` selected.
    pub fn new(game: TurnGame) -> Model {
        Model {
            game: game.start(),
            start_fen: None,
            moves: Vec::new(),
            job: None,
        }
    }

    pub fn kind(&self) -> TurnGame {
        self.game.kind()
    }

    /// The arguments of the `position` command that sets this position up.
    pub fn command(&self) -> String {
        let mut command = match &self.start_fen {
            None => "startpos".to_string(),
            Some(fen) => format!("fen {fen}"),
        };
        if !self.moves.is_empty() {
            command.push_str(" moves ");
            command.push_str(&self.moves.join(" "));
        }
        command
    }

    /// The position as a job's checks need it.
    pub fn searched(&self, searchmoves: Vec<String>) -> Searched {
        let python =
            (self.kind() == TurnGame::Chess).then(|| (start_fen(&self.game), self.moves.clone()));
        Searched {
            variant: self.game.variant(),
            command: self.command(),
            python,
            legal: legal_moves(&self.game),
            searchmoves,
            fen: fen(&self.game),
        }
    }
}

/// The legal moves of the game's current position, as the protocol writes them.
pub fn legal_moves(game: &AnyGame) -> Vec<String> {
    fn texts<G: Game>(record: &GameRecord<G>) -> Vec<String> {
        // The record's: none once a Nichess game is over by repetition.
        let mut moves = MoveList::new();
        record.generate_moves(&mut moves);
        moves
            .iter()
            .map(|&mv| record.position().move_text(mv))
            .collect()
    }
    dispatch!(game, record => texts(record))
}

/// The FEN of the game's current position.
pub fn fen(game: &AnyGame) -> String {
    dispatch!(game, record => record.position().fen())
}

/// The FEN of the position the game started from, as the rules write it.
pub fn start_fen(game: &AnyGame) -> String {
    dispatch!(game, record => record.start().fen())
}

/// Plays up to `plies` random legal moves (fewer when the game ends) and returns them.
pub fn playout(game: &mut AnyGame, plies: usize, rng: &mut Rng) -> Vec<String> {
    fn play<G: Game>(record: &mut GameRecord<G>, plies: usize, rng: &mut Rng) -> Vec<String> {
        let mut played = Vec::new();
        for _ in 0..plies {
            let mut moves = MoveList::new();
            record.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.index(moves.len())];
            played.push(record.position().move_text(mv));
            record.play(mv);
        }
        played
    }
    dispatch!(game, record => play(record, plies, rng))
}

/// True when `text` is a legal move of the game's current position.
pub fn is_legal(game: &AnyGame, text: &str) -> bool {
    legal_moves(game).iter().any(|legal| legal == text)
}

/// The game set up as `position` would: from `fen` (or the start) and `moves`.
pub fn set_up(kind: TurnGame, fen: Option<&str>, moves: &[String]) -> Result<AnyGame, String> {
    kind.start().with_position(fen, moves)
}

/// Plies played in a Nichess position (its 333-ply limit), from the FEN's move number.
pub fn plies_played(fen: &str) -> u64 {
    let fields: Vec<&str> = fen.split(' ').collect();
    let number: u64 = fields.get(5).and_then(|n| n.parse().ok()).unwrap_or(1);
    let black = fields.get(1) == Some(&"b");
    2 * number.saturating_sub(1) + u64::from(black)
}
