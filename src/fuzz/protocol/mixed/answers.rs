//! What the mixed run hears back: reading the engine's lines within a window, and checking
//! each `bestmove`, `bestturn` and order against the job the model expected.

use super::{Job, Mixed, Window, Work};
use crate::fuzz::protocol::megachess as mega;
use crate::fuzz::protocol::peer::Next;
use crate::fuzz::protocol::realtime::Verdict;
use crate::rules::realtime::Order;
use std::time::{Duration, Instant};

impl Mixed {
    /// Reads one line and deals with it; false (after recording why) when the engine hung or
    /// died.
    pub(super) fn read_one(&mut self, window: &mut Window, timeout: Duration) -> bool {
        match self.engine.next_line(timeout) {
            Next::Line(text) => {
                let at = self.engine.arrived().unwrap_or_else(Instant::now);
                self.hear(text, at, window);
                true
            }
            silent => {
                let waiting = match &self.job {
                    Some(job) if job.timed.is_some() => "the answer of a timed job",
                    _ => "readyok",
                };
                let closed = matches!(silent, Next::Closed);
                let (kind, what) = self.engine.silence_failure(closed, timeout, waiting);
                self.fail(kind, what);
                false
            }
        }
    }

    pub(super) fn hear(&mut self, text: String, at: Instant, window: &mut Window) {
        if text == "readyok" {
            window.ready += 1;
        } else if text.starts_with("info string error") {
            if text.contains("internal error") {
                self.fail("internal errors", format!("{text:?}"));
            }
            window.errors.push(text);
        } else if let Some(name) = text.strip_prefix("info string variant ") {
            window.announced.push(name.to_string());
        } else if text.starts_with("info string ") {
            if text.contains("the last world does not read under it") {
                window.remarks += 1;
            }
        } else if text == "bestturn" || text.starts_with("bestturn ") {
            self.on_bestturn(&text, at);
        } else if let Some(best) = text.strip_prefix("bestmove ") {
            self.on_bestmove(best, at);
        } else if let Some(order) = text.strip_prefix("order ") {
            self.on_order(order, at);
        } else if text.starts_with("info ") {
            // Search and plan progress.
        } else if let (true, Some(state)) = (self.displaying, text.strip_prefix("State: ")) {
            window.state = Some(state.to_string());
        } else if let (true, Some(world)) = (self.displaying, text.strip_prefix("Position: ")) {
            window.world = Some(world.to_string());
        } else if let (true, Some(fen)) = (self.displaying, text.strip_prefix("Fen: ")) {
            window.fen = Some(fen.to_string());
        } else if self.displaying {
            // The rest of the diagram.
        } else if self.uci && text == "uciok" {
            window.uciok = true;
        } else if self.uci && (text.starts_with("id ") || text.starts_with("option ")) {
        } else {
            self.fail("unexpected lines", format!("{text:?}"));
        }
    }

    /// Takes the running job for its answer, checking it was waited for.
    fn answered(&mut self, what: &str, at: Instant) -> Option<Job> {
        let job = self.job.take()?;
        if job.endless && !self.ending {
            self.fail("early answers", format!("{what} before stop"));
        }
        if let Some(movetime) = job.timed {
            let took = at.saturating_duration_since(job.started);
            self.report.timed_answers += 1;
            let over = took.as_millis() as u64 - (took.as_millis() as u64).min(movetime);
            self.report.slowest_overrun_ms = self.report.slowest_overrun_ms.max(over);
            if took > Duration::from_millis(movetime) + self.settings.margin {
                self.fail(
                    "late answers",
                    format!(
                        "{what} came {} ms after a go of movetime {movetime} (the margin is {} ms)",
                        took.as_millis(),
                        self.settings.margin.as_millis()
                    ),
                );
            }
        }
        Some(job)
    }

    fn on_bestmove(&mut self, best: &str, at: Instant) {
        let work = self.job.as_ref().map(|job| job.work.clone());
        match work {
            Some(Work::Turn { legal }) => {
                self.answered(best, at);
                self.report.bestmoves += 1;
                let best = best.split(' ').next().unwrap_or("");
                self.report.bestmoves_checked_own += 1;
                let fine = match best {
                    "0000" => legal.is_empty(),
                    _ => legal.iter().any(|m| m == best),
                };
                if !fine {
                    self.fail(
                        "illegal moves",
                        format!("bestmove {best} is not among the legal moves {legal:?}"),
                    );
                }
            }
            Some(Work::Realtime { state, side }) => {
                self.answered(best, at);
                self.report.bestmoves += 1;
                self.report.orders_checked += 1;
                if best == "none" {
                    return;
                }
                let order = Order::parse(best).ok().filter(|o| o.to_string() == best);
                let verdict = match order {
                    None => Err(format!(
                        "'{best}' is not an order as the protocol writes it"
                    )),
                    Some(order) => state
                        .check(side, order)
                        .map_err(|refusal| refusal.to_string()),
                };
                if let Err(why) = verdict {
                    self.fail(
                        "illegal moves",
                        format!(
                            "bestmove {best} for {} in state {}: {why}",
                            side.name(),
                            state.text()
                        ),
                    );
                }
            }
            _ => self.fail(
                "double answers",
                format!("bestmove {best} with no search waiting for it"),
            ),
        }
    }

    fn on_bestturn(&mut self, text: &str, at: Instant) {
        let Some(Work::Megachess { told, params }) = self.job.as_ref().map(|job| job.work.clone())
        else {
            self.fail(
                "double answers",
                format!("{text:?} with no plan waiting for it"),
            );
            return;
        };
        self.answered("bestturn", at);
        self.report.bestturns += 1;
        let moves: Vec<&str> = text.split(' ').skip(1).collect();
        let result = told
            .world(&params)
            .and_then(|mut world| mega::replay(&mut world, told.me, &moves));
        match result {
            Ok(count) => self.report.bestturn_moves_replayed += count as u64,
            Err(why) => self.fail(
                "illegal moves",
                format!(
                    "{text:?} for player {} in world '{}': {why}",
                    told.me, told.text
                ),
            ),
        }
    }

    fn on_order(&mut self, text: &str, at: Instant) {
        let streaming = self.referee.is_some();
        let Some(referee) = self.referee.as_ref().or(self.stopping.as_ref()) else {
            self.fail(
                "unexpected lines",
                format!("order {text} with no stream running"),
            );
            return;
        };
        self.report.orders_checked += 1;
        let Some(order) = Order::parse(text).ok().filter(|o| o.to_string() == text) else {
            self.fail(
                "illegal moves",
                format!("order '{text}' is not an order as the protocol writes it"),
            );
            return;
        };
        let verdict = referee.judge(order, at);
        let clock = referee.clock;
        let side = referee.side;
        let truth = referee.truth.text();
        match &verdict {
            Verdict::Start(_) | Verdict::Stale(_) => {}
            Verdict::Illegal(why) => self.fail(
                "illegal moves",
                format!(
                    "order {text} for {}: the referee at {clock} ms ({truth}) finds no ms it \
                     may start at, {why}",
                    side.name()
                ),
            ),
        }
        if streaming {
            if let Some(referee) = &mut self.referee {
                referee.answer(order, verdict);
            }
        }
    }

    /// Waits for the running timed job's answer.
    pub(super) fn wait_answer(&mut self) {
        let Some(job) = &self.job else { return };
        self.line_kind = "waiting for a timed answer";
        let movetime = Duration::from_millis(job.timed.unwrap_or(0));
        let deadline = job.started + movetime + self.settings.margin + self.settings.hang;
        let mut window = Window::default();
        while self.job.is_some() {
            let left = deadline.saturating_duration_since(Instant::now());
            if !self.read_one(&mut window, left.max(Duration::from_millis(1))) {
                return;
            }
            if window.ready > 0 {
                self.fail("unexpected lines", "a readyok nobody asked for".into());
                return;
            }
            if !window.errors.is_empty() {
                self.fail(
                    "unexpected errors",
                    format!("while a job ran: {:?}", window.errors),
                );
                return;
            }
        }
    }
}
