//! Lockstep over the wire: every `poll_ms` of game time the referee advances the simulator and
//! asks each seat, the one asked first alternating from poll to poll, with
//! `position state <text>` and `go side <c> movetime <budget>`; the `bestmove <order>` (or
//! `none`) is applied at the poll's ms. Game time stands still while an engine thinks. An answer
//! later than the budget plus the margin loses on time; a crash loses.

use super::table::{budgets, Table};
use super::timeline::ClockMode;
use super::RealtimeSettings;
use crate::arena::clock::{GameClock, VirtualClock};
use crate::arena::process::{drain, next_line, Client, EngineFault, Inbox};
use crate::arena::referee::{RefereeSettings, Session, SessionResult, Termination};
use crate::rules::realtime::Color;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Plays one lockstep session; `None` when the tournament is stopping.
pub fn play(
    session: &mut Session,
    referee: &RefereeSettings,
    realtime: &RealtimeSettings,
) -> Option<SessionResult> {
    let budgets = budgets(session);
    let mut table = Table::new(realtime, ClockMode::Lockstep);
    if let Err(ended) = table.set_up(session, referee) {
        return *ended;
    }
    let (clients, inbox, cancel) = (&mut *session.clients, &mut *session.inbox, session.cancel);
    let poll_ms = realtime.poll_ms.max(1);
    let mut clock = VirtualClock::default();
    let mut first = Color::White;
    let result = 'game: loop {
        for side in [first, first.flip()] {
            if let Some(ended) = table.ending() {
                break 'game ended;
            }
            let seat = side.index();
            let budget = budgets[seat];
            let wait = budget + referee.margin;
            let client = clients[seat].as_mut();
            let text = table.game.state.text();
            let answer = ask(client, inbox, &text, side, budget, wait, cancel);
            let (order, elapsed) = match answer {
                Ok(answer) => answer,
                Err(fault) => {
                    client.set_faulted();
                    let (termination, detail) = Termination::of_fault(side.name(), &fault, true)?;
                    break 'game table.lost(side, termination, detail);
                }
            };
            table.decided(side, elapsed, budget);
            if elapsed > wait {
                let detail = format!(
                    "{} loses on time: it answered after {:.3} s, {:.3} s allowed",
                    side.name(),
                    elapsed.as_secs_f64(),
                    wait.as_secs_f64()
                );
                break 'game table.lost(side, Termination::TimeForfeit, detail);
            }
            if order != "none" {
                // A refusal is recorded with its rule; the game goes on.
                let _ = table.game.order_text(side, &order, Some(elapsed));
            }
        }
        first = first.flip();
        if let Some(ended) = table.ending() {
            break ended;
        }
        let next = clock.now() + poll_ms;
        let next = realtime.max_game_ms.map_or(next, |max| next.min(max));
        clock.advance_to(next);
        table.game.advance_to(next);
        if let Some(ended) = table.ending() {
            break ended;
        }
    };
    Some(result)
}

/// Asks one seat for its order now: the order's text (`none` to wait) and the thinking time.
fn ask(
    client: &mut dyn Client,
    inbox: &mut Inbox,
    state: &str,
    side: Color,
    budget: Duration,
    wait: Duration,
    cancel: &AtomicBool,
) -> Result<(String, Duration), EngineFault> {
    // Lines left over from before (late `info` lines) are not this answer's.
    drain(client, inbox)?;
    client.send(&format!("position state {state}"))?;
    let go = format!("go side {} movetime {}", side.name(), budget.as_millis());
    let sent = client.send(&go)?;
    loop {
        let (at, line) = next_line(client, inbox, sent + wait, sent, Some(cancel))?;
        let mut tokens = line.split_whitespace();
        if tokens.next() == Some("bestmove") {
            let order = tokens.next().unwrap_or("").to_string();
            return Ok((order, at.saturating_duration_since(sent)));
        }
        // Anything else (`info` lines) is not part of the answer.
    }
}
