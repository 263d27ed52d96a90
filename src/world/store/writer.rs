//! The store on a thread of its own, so that a turn's commit never holds up the turn loop: the
//! loop hands over a completed turn and goes on answering connections; it hears that the turn
//! is stored when [`StoreWriter::committed`] says so, and only then tells anyone the turn
//! ended. A new player's row is written at once and waited for (the loop never takes a join
//! while a turn is being stored, so the writer is idle then and the wait is short).

use super::{PlayerRow, ServerState, StoreError, TurnCommit, WorldStore};
use crate::rules::megachess::WorldSnapshot;
use crate::world::events::LogEntry;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How far below the turn loop's priority the store's thread runs.
const STORE_PRIORITY_BELOW_LOOP: i32 = 5;

/// A completed turn, owned, for the writer thread.
#[derive(Clone, Debug)]
pub struct TurnToStore {
    pub turn: u64,
    pub world: Arc<WorldSnapshot>,
    pub players: Vec<PlayerRow>,
    pub events: Arc<Vec<LogEntry>>,
    pub server: ServerState,
}

/// A turn the store has written, or failed to.
#[derive(Debug)]
pub struct Stored {
    /// How long the writer took over it.
    pub took: Duration,
    pub result: Result<(), StoreError>,
}

enum Job {
    Turn(TurnToStore),
    Player(PlayerRow, Sender<Result<(), StoreError>>),
    Note(String),
}

/// The store's thread, and the way to it.
pub struct StoreWriter {
    jobs: Option<Sender<Job>>,
    stored: Receiver<Stored>,
    thread: Option<JoinHandle<()>>,
    /// Turns handed over and not yet heard back from.
    in_flight: usize,
}

impl StoreWriter {
    /// Moves `store` onto a thread of its own.
    pub fn start(mut store: Box<dyn WorldStore>) -> Result<StoreWriter, String> {
        let (jobs, inbox) = mpsc::channel::<Job>();
        let (report, stored) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("world-store".into())
            .spawn(move || {
                // Storing a turn may wait; the loop's answers to players may not.
                crate::common::priority::lower_this_thread(STORE_PRIORITY_BELOW_LOOP);
                for job in inbox {
                    match job {
                        Job::Turn(turn) => {
                            let began = Instant::now();
                            let commit = TurnCommit {
                                turn: turn.turn,
                                world: &turn.world,
                                players: &turn.players,
                                events: &turn.events,
                                server: turn.server,
                            };
                            let result = store.commit_turn(&commit);
                            let done = Stored {
                                took: began.elapsed(),
                                result,
                            };
                            if report.send(done).is_err() {
                                break;
                            }
                        }
                        Job::Player(row, answer) => {
                            let _ = answer.send(store.add_player(&row));
                        }
                        Job::Note(addr) => store.note_listening(&addr),
                    }
                }
                // Dropped here, on the store's own thread: the file's note goes with it.
                drop(store);
            })
            .map_err(|error| format!("cannot start the store's thread: {error}"))?;
        Ok(StoreWriter {
            jobs: Some(jobs),
            stored,
            thread: Some(thread),
            in_flight: 0,
        })
    }

    fn send(&self, job: Job) -> bool {
        self.jobs
            .as_ref()
            .is_some_and(|jobs| jobs.send(job).is_ok())
    }

    /// Hands a completed turn over; [`StoreWriter::committed`] says when it is stored.
    pub fn store_turn(&mut self, turn: TurnToStore) -> Result<(), String> {
        if !self.send(Job::Turn(turn)) {
            return Err("the store's thread is gone".into());
        }
        self.in_flight += 1;
        Ok(())
    }

    /// The next stored turn, waiting at most `wait` for it; `None` if none came back in time.
    pub fn committed(&mut self, wait: Duration) -> Option<Stored> {
        if self.in_flight == 0 {
            return None;
        }
        let stored = match self.stored.recv_timeout(wait) {
            Ok(stored) => stored,
            Err(RecvTimeoutError::Timeout) => return None,
            Err(RecvTimeoutError::Disconnected) => Stored {
                took: Duration::ZERO,
                result: Err(StoreError::Gone),
            },
        };
        self.in_flight -= 1;
        Some(stored)
    }

    /// Writes a new player's row and waits for it to be stored.
    pub fn add_player(&self, row: &PlayerRow) -> Result<(), StoreError> {
        let (answer, answered) = mpsc::channel();
        if !self.send(Job::Player(row.clone(), answer)) {
            return Err(StoreError::Gone);
        }
        answered.recv().unwrap_or(Err(StoreError::Gone))
    }

    /// Names the address the server listens on beside the file.
    pub fn note_listening(&self, addr: &str) {
        self.send(Job::Note(addr.to_string()));
    }
}

impl Drop for StoreWriter {
    /// Lets the thread finish what it was handed (a turn being stored is stored), then waits.
    fn drop(&mut self) {
        self.jobs = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
