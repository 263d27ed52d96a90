//! A world as the referee plays it: the authoritative [`World`], which seat plays which players,
//! each seat's statistics and the record. The in-process runner ([`play_world`]) and the process
//! referee both play their worlds through [`WorldGame::run`], so they referee alike.

use super::layout::WorldSetup;
use super::record::WorldRecord;
use crate::plan::MegachessPlayer;
use crate::rules::megachess::{PlayerId, World};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// A seat's answer for one of its players in one turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatAnswer {
    /// The move texts as the seat sent them, in its order.
    Moves(Vec<String>),
    /// No answer in time: the turn is empty.
    Late,
    /// The seat could not answer (a crash, a protocol error), in words: the turn is empty.
    Fault(String),
}

/// A world being played.
#[derive(Clone, Debug)]
pub struct WorldGame {
    setup: WorldSetup,
    world: World,
    seats: Vec<Vec<PlayerId>>,
}

impl WorldGame {
    /// A world with every seat's armies placed by the layout.
    pub fn new(setup: &WorldSetup) -> Result<WorldGame, String> {
        let _ = setup;
        todo!()
    }

    pub fn setup(&self) -> &WorldSetup {
        &self.setup
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    /// The players a seat plays for, by id.
    pub fn players_of(&self, seat: usize) -> &[PlayerId] {
        &self.seats[seat]
    }

    pub fn seat_of(&self, player: PlayerId) -> Option<usize> {
        self.seats.iter().position(|ids| ids.contains(&player))
    }

    /// Plays to the end: each turn, every seat of the team to move, for each of its players
    /// still in the game (id order), is asked (`ask(seat, &view, me)`, the view being the
    /// player's window when `window_margin` is set); its moves are parsed and applied in order,
    /// the garbage and illegal ones rejected and logged; then the turn ends. Ends when a team
    /// has no players or at `max_turns`; `None` if `cancel` was set.
    pub fn run(
        &mut self,
        ask: &mut dyn FnMut(usize, &World, PlayerId) -> SeatAnswer,
        cancel: &AtomicBool,
    ) -> Option<WorldRecord> {
        let _ = (ask, cancel);
        todo!()
    }
}

/// Plays a world in process: `players[seat]` plans for every player of that seat with a budget
/// of `movetime` (an answer later than twice that, plus 100 ms, counts as late). Errors when the
/// setup is not valid or `players` does not hold one player per seat.
pub fn play_world(
    setup: &WorldSetup,
    players: &mut [&mut dyn MegachessPlayer],
    movetime: Duration,
) -> Result<WorldRecord, String> {
    let _ = (setup, players, movetime);
    todo!()
}
