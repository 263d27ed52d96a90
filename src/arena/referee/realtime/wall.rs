//! The wall-clock referee: real time, the engines streaming. Each seat gets
//! `position startpos` and `play <white|black> movetime <budget>`; then the referee sends both, in time order,
//! `event <event>` lines as the simulator emits them and a `time <ms>` line every `poll_ms`,
//! and applies each `order <order>` at the ms it read the line (a refusal goes back to its seat
//! as `refused <ms> <order> <refusal>`). Before the game it measures each pipe's round trip.

use super::table::{budgets, Table};
use super::timeline::ClockMode;
use super::RealtimeSettings;
use crate::arena::clock::{GameClock, WallClock};
use crate::arena::process::{drain, next_line, Client, EngineFault, Inbox, WaitError};
use crate::arena::referee::{RefereeSettings, Session, SessionResult, Termination};
use crate::rules::realtime::{Color, Ms};
use std::time::{Duration, Instant};

/// `isready` round trips per seat, for the pipe latency.
const ROUND_TRIPS: usize = 7;

fn side_of(seat: usize) -> Color {
    if seat == 0 {
        Color::White
    } else {
        Color::Black
    }
}

/// Plays one wall-clock session; `None` when the tournament is stopping.
pub fn play(
    session: &mut Session,
    referee: &RefereeSettings,
    realtime: &RealtimeSettings,
) -> Option<SessionResult> {
    let budgets = budgets(session);
    let mut table = Table::new(realtime, ClockMode::WallClock);
    if let Err(ended) = table.set_up(session, referee) {
        return *ended;
    }
    let (clients, inbox, cancel) = (&mut *session.clients, &mut *session.inbox, session.cancel);
    // A fault of `side` ends the game (`None` when the tournament is stopping).
    let fault_of = |table: &Table, side: Color, fault: &EngineFault, client: &mut dyn Client| {
        client.set_faulted();
        let (termination, detail) = Termination::of_fault(side.name(), fault, false)?;
        Some(table.lost(side, termination, detail))
    };
    let mut trips = [0; 2];
    for (seat, client) in clients.iter_mut().enumerate() {
        let timeout = referee.ready_timeout;
        match round_trip(client.as_mut(), inbox, timeout) {
            Ok(micros) => trips[seat] = micros,
            Err(fault) => return fault_of(&table, side_of(seat), &fault, client.as_mut()),
        }
    }
    table.round_trip_us = Some(trips);
    let poll_ms = realtime.poll_ms.max(1);
    let mut clock = WallClock::start();
    for (seat, client) in clients.iter_mut().enumerate() {
        let side = side_of(seat);
        let budget = budgets[seat].as_millis();
        let started = client
            .send("position startpos")
            .and_then(|_| client.send(&format!("play {} movetime {budget}", side.name())));
        if let Err(fault) = started {
            return fault_of(&table, side, &fault, client.as_mut());
        }
        if seat == 0 {
            // The game's 0 ms: White has been told to play.
            clock = WallClock::start();
        }
    }
    let mut told = 0; // events already sent
    let mut next_time = 0; // the next `time` line's ms
                           // A refusal for its seat, sent after the events before it so that lines stay in time order.
    let mut refused: Option<(usize, String)> = None;
    let result = 'game: loop {
        // Every event so far to both seats, a refusal to its seat, then the time when one is due.
        let now = table.game.now();
        let events: Vec<String> = table.game.events[told..]
            .iter()
            .map(|event| format!("event {event}"))
            .collect();
        told = table.game.events.len();
        let time = (now >= next_time).then(|| format!("time {now}"));
        if time.is_some() {
            next_time = now - now % poll_ms + poll_ms;
        }
        let refusal = refused.take();
        for (seat, client) in clients.iter_mut().enumerate() {
            let own = refusal.as_ref().filter(|(to, _)| *to == seat);
            let lines = events
                .iter()
                .chain(own.map(|(_, line)| line))
                .chain(time.as_ref());
            if let Err(fault) = lines.into_iter().try_for_each(|l| client.send(l).map(drop)) {
                break 'game fault_of(&table, side_of(seat), &fault, client.as_mut())?;
            }
        }
        if let Some(ended) = table.ending() {
            break ended;
        }
        // Wake at the next thing that happens by itself, the next `time` line, or the limit.
        let mut wake: Ms = next_time;
        if let Some(change) = table.game.state.next_change() {
            wake = wake.min(change);
        }
        if let Some(max) = realtime.max_game_ms {
            wake = wake.min(max);
        }
        let deadline = clock.instant_of(wake).unwrap_or_else(Instant::now);
        let arrival = match inbox.next_any(deadline, Some(cancel)) {
            Ok(arrival) => arrival,
            Err(WaitError::Timeout) => {
                table.game.advance_to(wake);
                continue;
            }
            Err(WaitError::Cancelled) | Err(WaitError::Closed) => return None,
        };
        let (seat, side) = (arrival.seat, side_of(arrival.seat));
        // The order counts at the ms the referee read it (never before what it has played).
        let read_ms = clock.ms_at(arrival.at);
        table.game.advance_to(read_ms);
        if table.game.outcome().is_some() {
            continue;
        }
        let Some(line) = arrival.line else {
            let crashed = EngineFault::Crashed(clients[seat].exit_text());
            break 'game fault_of(&table, side, &crashed, clients[seat].as_mut())?;
        };
        let Some(order) = line.strip_prefix("order ").map(str::trim) else {
            continue; // `info` and other lines are not part of the game
        };
        let applied = table.game.order_text(side, order, None);
        if read_ms < table.game.now() {
            if let Some(last) = table.game.orders.last_mut() {
                last.read_ms = Some(read_ms);
            }
        }
        if let Err(refusal) = applied {
            let ms = table.game.now();
            refused = Some((seat, format!("refused {ms} {order} {refusal}")));
        }
    };
    for client in clients.iter_mut() {
        let _ = client.send("stop");
    }
    Some(result)
}

/// The median `isready`/`readyok` round trip of `client`, in microseconds.
fn round_trip(
    client: &mut dyn Client,
    inbox: &mut Inbox,
    timeout: Duration,
) -> Result<u64, EngineFault> {
    drain(client, inbox)?;
    let mut trips = Vec::with_capacity(ROUND_TRIPS);
    for _ in 0..ROUND_TRIPS {
        // From before the write: the answer may be read before `send` returns.
        let sent = Instant::now();
        client.send("isready")?;
        loop {
            let (at, line) = next_line(client, inbox, sent + timeout, sent, None)?;
            if line.trim() == "readyok" {
                trips.push(at.saturating_duration_since(sent).as_micros() as u64);
                break;
            }
        }
    }
    trips.sort_unstable();
    Ok(trips[trips.len() / 2])
}
