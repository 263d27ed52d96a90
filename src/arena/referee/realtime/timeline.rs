//! The referee's side of a realtime game: the authoritative [`RealtimeState`], every event it
//! emitted and every order it was given (accepted or refused, with the refusal), and the game's
//! record for the JSON file. The in-process lockstep loop and the process referees all keep
//! their game here, so they record and replay alike.

use crate::rules::realtime::{
    Color, EndReason, Event, Ms, Order, Outcome, RealtimeParams, RealtimeState, Refusal,
};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// One order a side gave, at the ms it was applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimedOrder {
    pub ms: Ms,
    pub side: Color,
    /// The order as the side gave it (`e2e4`; an engine's text as it sent it).
    pub text: String,
    /// `None`: accepted (started at `ms`); else why it was refused.
    pub refusal: Option<Refusal>,
    /// The side's thinking time (lockstep), when measured.
    pub elapsed: Option<Duration>,
    /// Wall clock: the ms the referee read the order, when that was before `ms` (the referee
    /// had already played the game on to `ms` and could apply it no earlier).
    pub read_ms: Option<Ms>,
}

/// A realtime game as the referee keeps it.
#[derive(Clone, Debug)]
pub struct RefereeGame {
    pub state: RealtimeState,
    pub events: Vec<Event>,
    pub orders: Vec<TimedOrder>,
}

impl RefereeGame {
    /// A game from the standard setup.
    pub fn new(params: RealtimeParams) -> RefereeGame {
        RefereeGame {
            state: RealtimeState::start(params),
            events: Vec::new(),
            orders: Vec::new(),
        }
    }

    pub fn now(&self) -> Ms {
        self.state.now()
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.state.outcome()
    }

    /// Lets the game run to `t` (no further than its end); returns how many events that emitted
    /// (they are the last ones of [`RefereeGame::events`]).
    pub fn advance_to(&mut self, t: Ms) -> usize {
        let before = self.events.len();
        if t > self.state.now() && self.state.outcome().is_none() {
            self.state.advance_to(t, &mut self.events);
        }
        self.events.len() - before
    }

    /// Applies `side`'s order given as text, now; records it either way. Returns the events the
    /// start emitted (none when refused) and the refusal.
    pub fn order_text(
        &mut self,
        side: Color,
        text: &str,
        elapsed: Option<Duration>,
    ) -> Result<usize, Refusal> {
        match Order::parse(text) {
            Ok(order) => self.order(side, order, text.to_string(), elapsed),
            Err(error) => {
                let refusal = Refusal::NotAMove(error);
                self.orders.push(TimedOrder {
                    ms: self.state.now(),
                    side,
                    text: text.to_string(),
                    refusal: Some(refusal.clone()),
                    elapsed,
                    read_ms: None,
                });
                Err(refusal)
            }
        }
    }

    /// Applies `side`'s `order` now and records it under `text`.
    pub fn order(
        &mut self,
        side: Color,
        order: Order,
        text: String,
        elapsed: Option<Duration>,
    ) -> Result<usize, Refusal> {
        let before = self.events.len();
        let applied = self.state.apply(side, order, &mut self.events);
        self.orders.push(TimedOrder {
            ms: self.state.now(),
            side,
            text,
            refusal: applied.clone().err(),
            elapsed,
            read_ms: None,
        });
        applied.map(|()| self.events.len() - before)
    }

    /// The JSON record of the game so far.
    pub fn record(&self, mode: ClockMode, poll_ms: Option<Ms>, result: &str) -> RealtimeRecord {
        RealtimeRecord {
            params: self.state.params().into(),
            mode,
            poll_ms,
            orders: self.orders.iter().map(OrderRecord::from).collect(),
            events: self.events.iter().map(ToString::to_string).collect(),
            end_ms: self.state.now(),
            result: result.to_string(),
            outcome: self
                .state
                .outcome()
                .map(|o| reason_name(o.reason).to_string()),
            decisions: None,
            round_trip_us: None,
        }
    }
}

/// The protocol's name of an ending: `king-removed`, `no-capture-draw`, ...
pub fn reason_name(reason: EndReason) -> &'static str {
    match reason {
        EndReason::KingRemoved => "king-removed",
        EndReason::BothKingsRemoved => "both-kings-removed",
        EndReason::Resignation => "resignation",
        EndReason::AgreedDraw => "agreed-draw",
        EndReason::NoCaptureDraw => "no-capture-draw",
    }
}

/// An outcome as a result text: `1-0`, `0-1`, `1/2-1/2` (White is seat 0).
pub fn result_text(outcome: Option<Outcome>) -> &'static str {
    match outcome.and_then(|o| o.winner) {
        Some(Color::White) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    }
}

/// An outcome in words, for a session's detail.
pub fn outcome_detail(outcome: Outcome) -> String {
    let loser = |winner: Color| winner.flip().name();
    match (outcome.winner, outcome.reason) {
        (Some(winner), EndReason::KingRemoved) => {
            format!(
                "{} wins: the {} king was removed",
                winner.name(),
                loser(winner)
            )
        }
        (Some(winner), EndReason::Resignation) => {
            format!("{} wins: {} resigned", winner.name(), loser(winner))
        }
        (Some(winner), reason) => format!("{} wins ({})", winner.name(), reason_name(reason)),
        (None, EndReason::BothKingsRemoved) => {
            "draw: both kings were removed at one millisecond".to_string()
        }
        (None, EndReason::NoCaptureDraw) => "draw: no piece was removed for too long".to_string(),
        (None, reason) => format!("draw ({})", reason_name(reason)),
    }
}

/// Which clock a game ran on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClockMode {
    /// Game time stands still while the engines think; they are asked every `poll_ms`.
    Lockstep,
    /// Real time: orders are applied at the ms the referee read them.
    WallClock,
}

/// The game's parameters in the JSON file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParamsRecord {
    pub tick_ms: u32,
    pub delay_ticks: u32,
    pub no_capture_draw_ticks: u32,
}

impl From<RealtimeParams> for ParamsRecord {
    fn from(p: RealtimeParams) -> ParamsRecord {
        ParamsRecord {
            tick_ms: p.tick_ms,
            delay_ticks: p.delay_ticks,
            no_capture_draw_ticks: p.no_capture_draw_ticks,
        }
    }
}

impl From<ParamsRecord> for RealtimeParams {
    fn from(p: ParamsRecord) -> RealtimeParams {
        RealtimeParams {
            tick_ms: p.tick_ms,
            delay_ticks: p.delay_ticks,
            no_capture_draw_ticks: p.no_capture_draw_ticks,
        }
    }
}

/// How a tournament's realtime games were refereed, in the JSON file's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RealtimeSettingsRecord {
    pub params: ParamsRecord,
    pub mode: ClockMode,
    pub poll_ms: Ms,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_game_ms: Option<Ms>,
}

/// One order in the JSON file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderRecord {
    pub ms: Ms,
    /// `white` or `black` (seat 0 plays White).
    pub side: String,
    pub order: String,
    /// The side's thinking time in ms (lockstep).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<u64>,
    /// Why it was refused (`same-destination`, ...); absent when it started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
    /// The rules page's number of the refusing rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<u8>,
    /// The refusal in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Wall clock: the ms the order was read, when it could only be applied later.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_ms: Option<Ms>,
}

impl From<&TimedOrder> for OrderRecord {
    fn from(order: &TimedOrder) -> OrderRecord {
        let refusal = order.refusal.as_ref();
        OrderRecord {
            ms: order.ms,
            side: order.side.name().to_string(),
            order: order.text.clone(),
            time_ms: order.elapsed.map(|e| e.as_millis() as u64),
            refused: refusal.map(|r| r.name().to_string()),
            rule: refusal.and_then(Refusal::rule),
            reason: refusal.map(ToString::to_string),
            read_ms: order.read_ms,
        }
    }
}

/// One seat's decisions in a lockstep game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecisionRecord {
    /// Times it was asked.
    pub count: u64,
    /// Its slowest answer, in ms.
    pub max_ms: u64,
    /// Answers later than its budget (within the margin; later still loses on time).
    pub over_budget: u64,
}

/// A realtime game in the JSON file (`"family": "realtime"`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RealtimeRecord {
    pub params: ParamsRecord,
    pub mode: ClockMode,
    /// Lockstep: the game time between two polls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub poll_ms: Option<Ms>,
    /// Every order given, in the order applied.
    pub orders: Vec<OrderRecord>,
    /// Every event, as the protocol writes it (`1501 remove black pawn d5 capture`).
    pub events: Vec<String>,
    /// The game's last ms.
    pub end_ms: Ms,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// The rules' ending (`king-removed`, ...); absent when the game ended otherwise (a fault,
    /// the time limit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
    /// Lockstep: each seat's decisions (White's, Black's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decisions: Option<[DecisionRecord; 2]>,
    /// Wall clock: each seat's pipe round trip (`isready` to `readyok`, the median of a few)
    /// in microseconds, measured before the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round_trip_us: Option<[u64; 2]>,
}

impl RealtimeRecord {
    /// Plays the recorded orders through the simulator at their ms and returns the events it
    /// emits up to `end_ms`; an error names the first order whose fate differs from the record.
    pub fn replay(&self) -> Result<Vec<Event>, String> {
        let mut game = RefereeGame::new(self.params.into());
        for (index, order) in self.orders.iter().enumerate() {
            let side = match order.side.as_str() {
                "white" => Color::White,
                "black" => Color::Black,
                other => return Err(format!("order {}: unknown side '{other}'", index + 1)),
            };
            game.advance_to(order.ms);
            if game.now() != order.ms {
                return Err(format!(
                    "order {} at {} ms: the game ended at {} ms",
                    index + 1,
                    order.ms,
                    game.now()
                ));
            }
            let refused = game.order_text(side, &order.order, None).err();
            if refused.as_ref().map(|r| r.name().to_string()) != order.refused {
                return Err(format!(
                    "order {} ({} {} at {} ms): recorded as {:?}, replayed as {:?}",
                    index + 1,
                    order.side,
                    order.order,
                    order.ms,
                    order.refused,
                    refused.map(|r| r.to_string())
                ));
            }
        }
        game.advance_to(self.end_ms);
        Ok(game.events)
    }
}
