//! The bots' thinking, off the threads that read their connections. Ten thousand simulated
//! players share two cores here, where real ones each have a machine: a connection's task that
//! parsed its view and chose its moves itself would hold up the reading of every other
//! connection's `turn`, and the load generator would time its own backlog, not the server.
//! So a task only notes when its `turn` arrived and hands the text to these threads, which
//! parse it, record the arrival and choose the moves. They run only on a core that would
//! otherwise be idle (`SCHED_IDLE`): bots on their own machines take none of the server's time
//! to think, and on a shared machine their thinking must not either (at 10,000 players it cut
//! the p99 of the `turn` messages from about 320 to about 245 ms).

use super::timing::TurnTimes;
use crate::common::Rng;
use crate::rules::megachess::{Coord, MegachessParams, Move, WorldView};
use crate::world::api::ServerMessage;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// A `turn` message to read and answer.
struct Job {
    text: String,
    arrival: Instant,
    params: MegachessParams,
    moves: usize,
    rng: Rng,
    answer: oneshot::Sender<Planned>,
}

/// What a `turn` message asked of its player.
pub struct Planned {
    /// The moves to send (`None`: the player's team does not move this turn).
    pub moves: Option<Vec<String>>,
    /// The player's generator, moved on by the choice.
    pub rng: Rng,
    pub error: Option<String>,
}

/// The planners' threads, and the way to them (dropped: they finish and stop).
#[derive(Clone)]
pub struct Planners {
    jobs: mpsc::Sender<Job>,
}

impl Planners {
    /// `threads` planners recording arrivals into `times`.
    pub fn start(threads: usize, times: Arc<TurnTimes>) -> Result<Planners, String> {
        let (jobs, inbox) = mpsc::channel::<Job>();
        let inbox = Arc::new(Mutex::new(inbox));
        for index in 0..threads.max(1) {
            let (inbox, times) = (Arc::clone(&inbox), Arc::clone(&times));
            std::thread::Builder::new()
                .name(format!("load-planner-{index}"))
                .spawn(move || {
                    crate::common::priority::idle_this_thread();
                    loop {
                        // The lock is held only to take the next job.
                        let job = match inbox.lock() {
                            Ok(inbox) => inbox.recv(),
                            Err(_) => return,
                        };
                        let Ok(job) = job else { return };
                        plan(job, &times);
                    }
                })
                .map_err(|error| format!("cannot start a planner: {error}"))?;
        }
        Ok(Planners { jobs })
    }

    /// Hands over a `turn` message that arrived at `arrival`; the answer comes on the
    /// receiver (closed without one if the planners are gone).
    pub fn plan(
        &self,
        text: String,
        arrival: Instant,
        params: MegachessParams,
        moves: usize,
        rng: Rng,
    ) -> oneshot::Receiver<Planned> {
        let (answer, answered) = oneshot::channel();
        let _ = self.jobs.send(Job {
            text,
            arrival,
            params,
            moves,
            rng,
            answer,
        });
        answered
    }
}

fn plan(job: Job, times: &TurnTimes) {
    let Job {
        text,
        arrival,
        params,
        moves,
        mut rng,
        answer,
    } = job;
    let mut planned = Planned {
        moves: None,
        rng: rng.clone(),
        error: None,
    };
    match serde_json::from_str::<ServerMessage>(&text) {
        Ok(ServerMessage::Turn {
            turn,
            deadline_ms,
            position,
            ..
        }) => {
            let left = Duration::from_millis(deadline_ms);
            times.arrived(turn, arrival, left, Duration::from_millis(params.turn_ms));
            if let Some(position) = position {
                match choose_moves(&position, &params, moves, &mut rng) {
                    Ok(chosen) => planned.moves = Some(chosen),
                    Err(error) => planned.error = Some(error),
                }
                planned.rng = rng;
            }
        }
        Ok(_) => planned.error = Some(format!("not a turn message: {text}")),
        Err(error) => planned.error = Some(format!("not a server message ({error}): {text}")),
    }
    let _ = answer.send(planned);
}

/// Up to `count` legal moves of different pieces of the player the line is for, at random,
/// each made on the window before the next is chosen.
pub(crate) fn choose_moves(
    position: &str,
    params: &MegachessParams,
    count: usize,
    rng: &mut Rng,
) -> Result<Vec<String>, String> {
    let line = position
        .strip_prefix("position megachess ")
        .unwrap_or(position);
    let WorldView { mut world, me } =
        WorldView::parse(line, params).map_err(|error| format!("{error}: {position}"))?;
    let mut pieces: Vec<_> = world.pieces_of(me).map(|piece| piece.id).collect();
    let mut moves = Vec::new();
    let mut targets: Vec<Coord> = Vec::new();
    while moves.len() < count && !pieces.is_empty() {
        let id = pieces.swap_remove(rng.index(pieces.len()));
        let Some(from) = world.piece(id).map(|piece| piece.at) else {
            continue;
        };
        targets.clear();
        world.targets(id, &mut targets);
        targets.retain(|&to| world.check(me, Move::new(from, to)).is_ok());
        if targets.is_empty() {
            continue;
        }
        let mv = Move::new(from, targets[rng.index(targets.len())]);
        if world.apply(me, mv).is_ok() {
            moves.push(mv.to_string());
        }
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::megachess::{Facing, Team, World};

    #[test]
    fn chosen_moves_are_legal_in_order_for_different_pieces() {
        let params = MegachessParams {
            width: 64,
            height: 64,
            ..MegachessParams::default()
        };
        let mut world = World::new(params, 1);
        world.add_player(1, Team::Alabaster).unwrap();
        world.add_player(2, Team::Metal).unwrap();
        world
            .spawn_army(1, Coord::new(10, 10), Facing::North)
            .unwrap();
        world
            .spawn_army(2, Coord::new(10, 16), Facing::South)
            .unwrap();
        let line = world.position_line(1, Some(16));
        let mut rng = Rng::new(3);
        for _ in 0..20 {
            let moves = choose_moves(&line, &params, 3, &mut rng).unwrap();
            assert_eq!(moves.len(), 3);
            let mut check = world.clone();
            let mut froms = Vec::new();
            for text in &moves {
                let mv = Move::parse(text).unwrap();
                assert!(!froms.contains(&mv.from), "{moves:?}");
                froms.push(mv.to);
                check
                    .apply(1, mv)
                    .unwrap_or_else(|error| panic!("{text}: {error}"));
            }
        }
    }
}
