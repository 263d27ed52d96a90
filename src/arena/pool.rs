//! Plays a list of scheduled games on a pool of worker threads. Each worker has its own inbox
//! and its own engines (started on first use, restarted after a fault), seats them for each
//! game and hands them to the family's [`Referee`]. `roger arena`, `roger selfplay` and the
//! tests all play their games through here.

use super::process::{Client, Inbox, Limits};
use super::record::FinishedGame;
use super::referee::{Referee, Session, SessionResult};
use super::schedule::ScheduledGame;
use crate::common::date::today;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Starts engine `index` with its lines going to the inbox, handshake done.
pub type Starter<'a> = dyn Fn(usize, &mut Inbox) -> Result<Box<dyn Client>, String> + Sync + 'a;

/// The engines of a tournament: their names and limits, and how to start each.
pub struct Lineup<'a> {
    pub names: Vec<String>,
    pub limits: Vec<Limits>,
    pub start: &'a Starter<'a>,
}

/// A worker's engines and the inbox their lines go to.
struct EnginePool<'a> {
    lineup: &'a Lineup<'a>,
    inbox: Inbox,
    running: HashMap<usize, Box<dyn Client>>,
}

impl EnginePool<'_> {
    fn ready(&mut self, index: usize) -> Result<(), String> {
        if self.running.get_mut(&index).is_some_and(|c| c.faulted()) {
            // Dropping it kills it; its late lines are dropped too.
            if let Some(mut client) = self.running.remove(&index) {
                self.inbox.forget(client.source());
            }
        }
        if !self.running.contains_key(&index) {
            let client = (self.lineup.start)(index, &mut self.inbox)?;
            self.running.insert(index, client);
        }
        Ok(())
    }

    /// Plays one scheduled game; `None` when it was abandoned.
    fn play(
        &mut self,
        referee: &dyn Referee,
        game: &ScheduledGame,
        cancel: &AtomicBool,
    ) -> Option<SessionResult> {
        for (seat, &engine) in game.seats.iter().enumerate() {
            if let Err(error) = self.ready(engine) {
                let name = &self.lineup.names[engine];
                let detail = format!("({name}) could not start: {error}");
                return Some(referee.forfeit(game, seat, detail));
            }
        }
        // The seats hold distinct engines: take them out of the map to borrow them together.
        let mut seated: Vec<Box<dyn Client>> = game
            .seats
            .iter()
            .map(|engine| self.running.remove(engine).expect("started"))
            .collect();
        let sources: Vec<_> = seated.iter_mut().map(|client| client.source()).collect();
        self.inbox.seat(&sources);
        let result = referee.play(&mut Session {
            game,
            limits: game.seats.iter().map(|&e| self.lineup.limits[e]).collect(),
            clients: &mut seated,
            inbox: &mut self.inbox,
            cancel,
        });
        for (&engine, client) in game.seats.iter().zip(seated) {
            self.running.insert(engine, client);
        }
        result
    }

    fn close(self) {
        for (_, client) in self.running {
            client.quit();
        }
    }
}

/// How many workers play, and what stops them.
pub struct Workers<'a> {
    pub concurrency: usize,
    /// Set to stop: games under way are abandoned.
    pub stop: &'a AtomicBool,
    /// Polled while waiting; true stops the run (Ctrl-C).
    pub interrupted: &'a dyn Fn() -> bool,
}

impl<'a> Workers<'a> {
    /// `concurrency` workers, stopped only by `stop`.
    pub fn new(concurrency: usize, stop: &'a AtomicBool) -> Workers<'a> {
        Workers {
            concurrency,
            stop,
            interrupted: &|| false,
        }
    }
}

/// Plays `games` until all are played or `workers.stop` is set. `finished` sees each game on
/// the calling thread as it ends, and may set the stop. Games abandoned by the stop are not
/// reported.
pub fn play_games(
    games: &[ScheduledGame],
    referee: &dyn Referee,
    lineup: &Lineup,
    workers: &Workers,
    finished: &mut dyn FnMut(FinishedGame),
) {
    let (stop, interrupted) = (workers.stop, workers.interrupted);
    let next = AtomicUsize::new(0);
    let (sender, results) = mpsc::channel::<(usize, Option<SessionResult>, Duration)>();
    std::thread::scope(|scope| {
        for _ in 0..workers.concurrency.min(games.len()).max(1) {
            let sender = sender.clone();
            let next = &next;
            scope.spawn(move || {
                let mut pool = EnginePool {
                    lineup,
                    inbox: Inbox::new(),
                    running: HashMap::new(),
                };
                while !stop.load(Ordering::SeqCst) {
                    let slot = next.fetch_add(1, Ordering::SeqCst);
                    let Some(game) = games.get(slot) else {
                        break;
                    };
                    let started = Instant::now();
                    let played = pool.play(referee, game, stop);
                    if sender.send((slot, played, started.elapsed())).is_err() {
                        break;
                    }
                }
                pool.close();
            });
        }
        drop(sender);
        loop {
            match results.recv_timeout(Duration::from_millis(100)) {
                Ok((slot, Some(played), duration)) => {
                    let scheduled = games[slot].clone();
                    finished(FinishedGame {
                        names: scheduled
                            .seats
                            .iter()
                            .map(|&e| lineup.names[e].clone())
                            .collect(),
                        scheduled,
                        played,
                        date: today(),
                        duration_ms: duration.as_millis() as u64,
                    });
                }
                Ok((_, None, _)) | Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            if interrupted() {
                stop.store(true, Ordering::SeqCst);
            }
        }
    });
}
