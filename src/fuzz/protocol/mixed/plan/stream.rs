//! The lines of a realtime run's stream mode (`play`): events told, time passing, the
//! opponent's orders and hostile lines, each with what the engine must answer.

use super::REALTIME_GARBAGE;
use crate::fuzz::protocol::corrupt::pick;
use crate::fuzz::protocol::mixed::{Line, Mixed};
use crate::fuzz::protocol::realtime::{other_separators, random_state, Queued};
use crate::rules::realtime::{Color, EndReason, Event, EventKind, Order, Outcome, RealtimeState};

impl Mixed {
    /// A line while streaming: the referee's own first, else time, the other side's orders,
    /// refusals, hostile lines, `d`, and what ends or restarts the stream.
    pub(super) fn plan_stream(&mut self) -> Line {
        if let Some(line) = self.pop_queued() {
            return line;
        }
        let roll = self.rng.index(1000);
        match roll {
            300..=429 => {
                if let Some(line) = self.opponent_start() {
                    return line;
                }
            }
            430..=459 => {
                let referee = self.referee.as_mut().expect("streaming");
                let mine = referee.truth.orders(referee.side);
                let order = match mine.is_empty() {
                    true => Order::parse("e2e4").expect("an order"),
                    false => *pick(&mut self.rng, &mine),
                };
                let ms = referee.clock;
                let reason = referee.refusal(order);
                referee.refused(ms);
                let mut line =
                    Line::good(format!("refused {ms} {order} {reason}"), "stream: refused");
                line.sets_clock = true;
                return line;
            }
            460..=464 => {
                let referee = self.referee.as_mut().expect("streaming");
                if referee.truth.outcome().is_none() {
                    let outcome = match self.rng.index(3) {
                        0 => Outcome {
                            winner: None,
                            reason: EndReason::AgreedDraw,
                        },
                        1 => Outcome {
                            winner: Some(Color::White),
                            reason: EndReason::Resignation,
                        },
                        _ => Outcome {
                            winner: Some(Color::Black),
                            reason: EndReason::Resignation,
                        },
                    };
                    let event = Event {
                        ms: referee.clock,
                        kind: EventKind::Ended(outcome),
                    };
                    if referee.told(&event) {
                        let mut line =
                            Line::good(format!("event {event}"), "stream: resignation or draw");
                        line.sets_clock = true;
                        return line;
                    }
                }
            }
            465..=599 => return self.stream_hostile(),
            600..=679 => return self.realtime_display(),
            680..=719 => return Line::good("isready", "isready"),
            720..=744 => {
                let mut line = Line::good("stop", "stream: stop");
                line.ends_job = true;
                self.job_ended_in_model();
                return line;
            }
            745..=769 => {
                let state = match self.rng.index(3) {
                    0 => RealtimeState::start(self.rt_params),
                    _ => random_state(self.rt_params, &mut self.rng),
                };
                let text =
                    match state == RealtimeState::start(self.rt_params) && self.rng.index(2) == 0 {
                        true => "position startpos".to_string(),
                        false => format!("position state {}", state.text()),
                    };
                let referee = self.referee.as_mut().expect("streaming");
                referee.reset(state);
                let mut line = Line::good(text, "stream: position");
                line.sets_clock = true;
                return line;
            }
            770..=779 => {
                self.job_ended_in_model();
                self.rt_state = RealtimeState::start(self.rt_params);
                let mut line = Line::good("ucinewgame", "stream: ucinewgame");
                line.ends_job = true;
                return line;
            }
            780..=799 => {
                let game = *pick(
                    &mut self.rng,
                    &["chess", "nichess", "millennium", "megachess"],
                );
                return self.switch(game);
            }
            _ => {}
        }
        self.time_step()
    }

    fn pop_queued(&mut self) -> Option<Line> {
        let referee = self.referee.as_mut()?;
        while let Some(item) = referee.queue.pop_front() {
            match item {
                Queued::Event { event, ours } => {
                    if referee.would_take(&event) {
                        referee.told(&event);
                        let kind = match ours {
                            true => "stream: our order started",
                            false => "stream: event",
                        };
                        if ours {
                            self.report.orders_started += 1;
                        }
                        let mut line = Line::good(format!("event {event}"), kind);
                        line.sets_clock = true;
                        return Some(line);
                    }
                }
                Queued::Time(ms) if ms >= referee.clock => {
                    referee.time(ms);
                    let mut line = Line::good(format!("time {ms}"), "stream: time");
                    line.sets_clock = true;
                    return Some(line);
                }
                Queued::Time(_) => {}
                Queued::Refused(order, why) => {
                    let ms = referee.clock;
                    referee.refused(ms);
                    let mut line = Line::good(
                        format!("refused {ms} {order} {why}"),
                        "stream: our order refused",
                    );
                    line.sets_clock = true;
                    return Some(line);
                }
            }
        }
        None
    }

    /// Time passes: the events until then (most of them told), then `time`.
    fn time_step(&mut self) -> Line {
        let tick = self.rt_params.tick() as usize;
        let step = match self.rng.index(5) {
            0 => 0,
            1 => 1 + self.rng.index(10),
            2 => 1 + self.rng.index(tick / 2 + 1),
            _ => tick + self.rng.index(2 * tick),
        } as u64;
        let referee = self.referee.as_mut().expect("streaming");
        let until = referee.clock + step;
        for event in referee.events_until(until) {
            if self.rng.index(5) != 0 {
                referee
                    .queue
                    .push_back(Queued::Event { event, ours: false });
            }
        }
        referee.queue.push_back(Queued::Time(until));
        self.pop_queued().expect("a time line is queued")
    }

    fn opponent_start(&mut self) -> Option<Line> {
        let referee = self.referee.as_mut().expect("streaming");
        let other = referee.side.flip();
        let orders = referee.truth.orders(other);
        if orders.is_empty() {
            return None;
        }
        let order = *pick(&mut self.rng, &orders);
        let event = Event {
            ms: referee.clock,
            kind: EventKind::Started {
                color: other,
                order,
            },
        };
        if !referee.told(&event) {
            return None;
        }
        let mut line = Line::good(format!("event {event}"), "stream: the other side starts");
        line.sets_clock = true;
        Some(line)
    }

    fn stream_hostile(&mut self) -> Line {
        let referee = self.referee.as_ref().expect("streaming");
        let clock = referee.clock;
        let side = referee.side;
        match self.rng.index(12) {
            0..=2 => {
                if let Some(fake) = referee.fake_event(&mut self.rng) {
                    return Line::bad(
                        format!("event {fake}"),
                        "stream: an event that does not happen",
                    );
                }
                Line::bad(
                    format!("event {clock} arrive white queen z9"),
                    "stream: a malformed event",
                )
            }
            3 if clock > 0 => {
                let back = clock - 1 - self.rng.index(clock.min(5000) as usize) as u64;
                Line::bad(format!("time {back}"), "stream: time going back")
            }
            4 => {
                for _ in 0..20 {
                    let from = self.rng.index(64) as u8;
                    let to = self.rng.index(64) as u8;
                    if from == to {
                        continue;
                    }
                    let order = Order {
                        from: crate::board::Square(from),
                        to: crate::board::Square(to),
                    };
                    let color = *pick(&mut self.rng, &[Color::White, Color::Black]);
                    let event = Event {
                        ms: clock,
                        kind: EventKind::Started { color, order },
                    };
                    if !referee.would_take(&event) {
                        return Line::bad(
                            format!("event {event}"),
                            "stream: a start the rules refuse",
                        );
                    }
                }
                Line::bad("event 5", "stream: a malformed event")
            }
            5 => {
                let text = match self.rng.index(7) {
                    0 => format!("event {clock} arrive white pawn"),
                    1 => "event x start white e2e4".to_string(),
                    2 => format!("event {clock} remove black king e8 nonsense"),
                    3 => format!("event {clock} start green e2e4"),
                    4 => format!("event {clock} end 1-0 checkmate"),
                    5 => format!("event {clock} end 1/2-1/2 resignation"),
                    _ => format!("event {clock}"),
                };
                Line::bad(text, "stream: a malformed event")
            }
            6 => {
                let text = match self.rng.index(3) {
                    0 => format!("refused {clock} e2"),
                    1 => format!("refused {clock}"),
                    _ => "refused x e2e4 no".to_string(),
                };
                Line::bad(text, "stream: a malformed refusal")
            }
            7 => {
                let wrong = *pick(&mut self.rng, &['\u{b}', '\u{c}', '\r']);
                let orders = referee.truth.orders(side.flip());
                let order = orders.first().map_or("e2e4".to_string(), |o| o.to_string());
                Line::bad(
                    format!("event {clock}{wrong}start {} {order}", side.flip().name()),
                    "stream: a vertical tab, form feed or \\r (3a)",
                )
            }
            8 => {
                let wrong = *pick(&mut self.rng, &other_separators());
                Line::bad(format!("time{wrong}{clock}"), "stream: a wrong separator")
            }
            9 => {
                let text = *pick(
                    &mut self.rng,
                    &[
                        "go side white",
                        "go side black movetime 5",
                        "play white",
                        "play black movetime 3",
                        "setoption name tick_ms value 100",
                        "setoption name delay_ticks value 3",
                    ],
                );
                Line::bad(text, "stream: refused while streaming")
            }
            _ => self.garbage(REALTIME_GARBAGE),
        }
    }

    // ---- Megachess ----
}
