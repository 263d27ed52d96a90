//! A game in progress: the current position and the keys of the positions before it, for
//! repetition. The engine, the protocol and the arena keep games through this.

use super::{Color, EndReason, Game, MoveList, RuleError};

/// How a game stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    Ongoing,
    /// The side that won, and how.
    Win(Color, EndReason),
    Draw(EndReason),
}

#[derive(Clone, Debug)]
pub struct GameRecord<G: Game> {
    start: G,
    position: G,
    moves: Vec<G::Move>,
    /// Keys of every position of the game so far, the current one last.
    keys: Vec<u64>,
}

impl<G: Game> GameRecord<G> {
    pub fn new(start: G) -> GameRecord<G> {
        GameRecord {
            keys: vec![start.key()],
            position: start.clone(),
            start,
            moves: Vec::new(),
        }
    }

    pub fn start(&self) -> &G {
        &self.start
    }
    pub fn position(&self) -> &G {
        &self.position
    }
    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }
    /// Keys of every position so far, the current one last.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// Changes what the positions carry beside the game itself (chess's castling notation),
    /// in the start position and the current one alike; the keys stay as they are.
    pub fn modify_positions(&mut self, change: impl Fn(&mut G)) {
        change(&mut self.start);
        change(&mut self.position);
    }

    /// Plays a move given in the protocol's notation, if it is legal.
    pub fn play_text(&mut self, text: &str) -> Result<G::Move, RuleError> {
        let mv = self.parse_move(text)?;
        self.play(mv);
        Ok(mv)
    }

    /// Reads a move in the protocol's notation and checks that the game allows it now. Once
    /// the game is over by repetition ([`GameRecord::over_by_repetition`]) every well-formed
    /// move is refused, as the position refuses one at its own endings, and the reason names
    /// the ending.
    pub fn parse_move(&self, text: &str) -> Result<G::Move, RuleError> {
        let parsed = self.position.parse_move(text);
        if self.over_by_repetition() && !matches!(parsed, Err(RuleError::Malformed(_))) {
            return Err(RuleError::Illegal(format!(
                "'{text}' is not a legal move in {}: the game is over: the position has \
                 occurred three times (threefold repetition, a draw)",
                self.position.fen()
            )));
        }
        parsed
    }

    /// True when the game's rules end it at threefold repetition
    /// ([`Game::REPETITION_ENDS_GAME`]) and the current position has occurred three times.
    pub fn over_by_repetition(&self) -> bool {
        G::REPETITION_ENDS_GAME && self.occurrences() >= 3
    }

    /// The moves the game allows now: the position's, or none once the game is over by
    /// repetition, which the position alone cannot know.
    pub fn generate_moves(&self, moves: &mut MoveList<G::Move>) {
        if !self.over_by_repetition() {
            self.position.generate_moves(moves);
        }
    }

    /// Plays a move already known to be legal.
    pub fn play(&mut self, mv: G::Move) {
        self.position = self.position.play(mv);
        self.moves.push(mv);
        self.keys.push(self.position.key());
    }

    /// Times the current position has occurred (counting this one), looking back only as far as
    /// the last irreversible move.
    pub fn occurrences(&self) -> usize {
        let current = self.position.key();
        let reach = (self.position.halfmove_clock() as usize + 1).min(self.keys.len());
        self.keys[self.keys.len() - reach..]
            .iter()
            .filter(|&&k| k == current)
            .count()
    }

    pub fn outcome(&self) -> Outcome {
        let mut moves = MoveList::new();
        self.position.generate_moves(&mut moves);
        if moves.is_empty() {
            return match self.position.no_moves_reason() {
                reason @ (EndReason::Checkmate | EndReason::KingDestroyed) => {
                    Outcome::Win(self.position.side_to_move().flip(), reason)
                }
                reason => Outcome::Draw(reason),
            };
        }
        if self.occurrences() >= 3 {
            return Outcome::Draw(EndReason::Repetition);
        }
        match self.position.draw_by_rule() {
            Some(reason) => Outcome::Draw(reason),
            None => Outcome::Ongoing,
        }
    }
}
