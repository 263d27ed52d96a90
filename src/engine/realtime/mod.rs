//! The engine of realtime chess over any [`RealtimePlayer`] (Roger's planner or a reference
//! player), with no text protocol: the game's parameters and the player's options, the last
//! good state, a one-shot question "which order starts now?" answered by the deadline worker,
//! and streaming ([`stream`]), where the engine keeps its own copy of a game told as it happens
//! and decides whenever it likes. Every order it gives passes the rules' check at the state it
//! was decided on.

mod stream;

pub use stream::Decided;

use super::deadline::{lock, DeadlineWorker, Delivery, Limit};
use super::{Activity, EngineError};
use crate::options::{
    check_value, parameter_specs, variant_option, OptionSpec, OptionValue, UCI_VARIANT,
};
use crate::plan::RealtimePlayer;
use crate::rules::realtime::{
    Color, Event, Ms, Order, RealtimeParams, RealtimeState, Refusal, PARAMETERS,
};
use crate::rules::registry::{self, Family};
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use stream::Stream;

/// The player, shared by the deadline worker, the streaming thread and the engine (options).
type SharedPlayer = Arc<Mutex<Box<dyn RealtimePlayer>>>;

/// What a player's decision came to, checked against the rules at the state it was made on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// An order the rules allow now, or none (wait).
    Start(Option<Order>),
    /// The player chose an order the rules refuse now: it is never given.
    Refused(Order, Refusal),
    /// The player panicked while deciding.
    Failed,
}

/// Asks the player for the order `side` starts at the state's ms, within `budget`, and checks
/// it; a panic is caught (the engine must keep serving).
fn decide(player: &SharedPlayer, state: &RealtimeState, side: Color, budget: Duration) -> Decision {
    let decided = panic::catch_unwind(AssertUnwindSafe(|| {
        lock(player).decide(state, side, budget)
    }));
    match decided {
        Ok(None) => Decision::Start(None),
        Ok(Some(order)) => match state.check(side, order) {
            Ok(()) => Decision::Start(Some(order)),
            Err(refusal) => Decision::Refused(order, refusal),
        },
        Err(_) => Decision::Failed,
    }
}

/// A one-shot question: the order `side` starts at the state's ms, answered within `movetime`.
pub struct OneShot {
    pub state: RealtimeState,
    pub side: Color,
    pub movetime: Duration,
}

/// What the one-shot worker delivers: a decision, or its ending without one.
pub type OneShotDelivery<'a> = Delivery<'a, OneShot, (), Decision>;

/// The time kept back from `movetime` for the answer to reach the pipe: a quarter, at most 25 ms.
pub fn budget_of(movetime: Duration) -> Duration {
    movetime.saturating_sub((movetime / 4).min(Duration::from_millis(25)))
}

/// The realtime engine over a player.
pub struct RealtimeEngine {
    player: SharedPlayer,
    name: String,
    /// The player's own options, as it announced them when it came.
    player_options: Vec<OptionSpec>,
    params: RealtimeParams,
    /// The last good state: the one set, or streaming's when it stopped.
    state: RealtimeState,
    one_shot: DeadlineWorker<OneShot, (), Decision>,
    stream: Option<Stream>,
}

impl RealtimeEngine {
    pub fn new(player: Box<dyn RealtimePlayer>) -> RealtimeEngine {
        let name = player.name();
        let player_options = player.options();
        let player: SharedPlayer = Arc::new(Mutex::new(player));
        let params = RealtimeParams::default();
        let deciding = player.clone();
        RealtimeEngine {
            one_shot: DeadlineWorker::new(move |question: &OneShot, _stop, _report| {
                let budget = budget_of(question.movetime);
                decide(&deciding, &question.state, question.side, budget)
            }),
            player,
            name,
            player_options,
            params,
            state: RealtimeState::start(params),
            stream: None,
        }
    }

    /// The player's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn params(&self) -> RealtimeParams {
        self.params
    }

    /// The game's parameters, the player's options and `UCI_Variant`.
    pub fn option_specs(&self) -> Vec<OptionSpec> {
        let mut specs = parameter_specs(PARAMETERS);
        specs.extend(self.player_options.iter().cloned());
        specs.push(variant_option(&registry::names_of(Family::Realtime)));
        specs
    }

    /// Sets an option (any case) to a value of its kind within its bounds. A running one-shot
    /// question is answered first; a parameter starts the game again under the new value, and
    /// may not change while streaming.
    pub fn set_option(&mut self, name: &str, value: OptionValue) -> Result<(), EngineError> {
        let (name, value) = check_value(&self.option_specs(), name, value)?;
        if name == UCI_VARIANT {
            // The family's one game: naming it changes nothing, but as any option it answers
            // a running question first.
            self.one_shot.stop(Duration::ZERO);
            return Ok(());
        }
        if let (true, OptionValue::Spin(number)) =
            (PARAMETERS.iter().any(|row| row.name == name), &value)
        {
            return self.set_parameter(name, *number);
        }
        self.one_shot.stop(Duration::ZERO);
        lock(&self.player)
            .set_option(name, &value)
            .map_err(EngineError::Setting)
    }

    /// A parameter; it may not change while streaming ([`EngineError::Streaming`]).
    fn set_parameter(&mut self, name: &str, value: i64) -> Result<(), EngineError> {
        if let Some(side) = self.streaming_side() {
            return Err(EngineError::Streaming(side));
        }
        let mut params = self.params;
        let setting = |why: String| EngineError::Setting(why);
        let value =
            u32::try_from(value).map_err(|_| setting(format!("option '{name}': {value}")))?;
        match name {
            "tick_ms" => params.tick_ms = value,
            "delay_ticks" => params.delay_ticks = value,
            "no_capture_draw_ticks" => params.no_capture_draw_ticks = value,
            other => {
                return Err(setting(format!(
                    "option '{other}' is announced but not handled"
                )))
            }
        }
        params.validate().map_err(setting)?;
        self.one_shot.stop(Duration::ZERO);
        self.params = params;
        self.state = RealtimeState::start(params);
        Ok(())
    }

    /// The current state: streaming's copy while it runs.
    pub fn state(&self) -> RealtimeState {
        match &self.stream {
            Some(stream) => stream.state(),
            None => self.state.clone(),
        }
    }

    /// A new game from the start: whatever runs is stopped and the player told.
    pub fn new_game(&mut self) {
        self.stop();
        self.state = RealtimeState::start(self.params);
        lock(&self.player).new_game();
    }

    /// Sets the state; streaming, if it runs, goes on from it.
    pub fn set_state(&mut self, state: RealtimeState) {
        self.one_shot.stop(Duration::ZERO);
        if let Some(stream) = &self.stream {
            stream.reset(state.clone());
        }
        self.state = state;
    }

    /// Whether a one-shot question waits for its answer.
    pub fn is_thinking(&self) -> bool {
        self.one_shot.is_thinking()
    }

    /// The side streaming plays, while it runs.
    pub fn streaming_side(&self) -> Option<Color> {
        self.stream.as_ref().map(Stream::side)
    }

    /// Asks which order `side` starts now; the answer goes to `deliver` within `movetime`, or
    /// at once when the game is over (no order).
    pub fn go(
        &mut self,
        side: Color,
        movetime: Duration,
        deliver: impl Fn(OneShotDelivery) + Send + Sync + 'static,
    ) -> Result<(), EngineError> {
        if let Some(side) = self.streaming_side() {
            return Err(EngineError::Streaming(side));
        }
        let question = OneShot {
            state: self.state.clone(),
            side,
            movetime,
        };
        if self.one_shot.is_thinking() {
            return Err(EngineError::Busy(Activity::Search));
        }
        if question.state.outcome().is_some() {
            deliver(Delivery::Answer {
                question: &question,
                ending: super::deadline::Ending::Thought(Decision::Start(None)),
                last: None,
                elapsed: Duration::ZERO,
            });
            return Ok(());
        }
        self.one_shot
            .ask(question, Limit::Deadline(movetime), deliver)
            .map_err(|_| EngineError::Busy(Activity::Search))
    }

    /// Streams for `side` from the current state: each order the player decides to start goes
    /// to `on_decided`, as does a decision the rules refuse or a failure.
    pub fn play(
        &mut self,
        side: Color,
        movetime: Duration,
        on_decided: impl Fn(&Decided) + Send + 'static,
    ) -> Result<(), EngineError> {
        if let Some(side) = self.streaming_side() {
            return Err(EngineError::Streaming(side));
        }
        if self.one_shot.is_thinking() {
            return Err(EngineError::Busy(Activity::Search));
        }
        self.stream = Some(Stream::start(
            self.player.clone(),
            self.state.clone(),
            side,
            budget_of(movetime),
            Box::new(on_decided),
        ));
        Ok(())
    }

    fn stream(&self) -> Result<&Stream, EngineError> {
        self.stream.as_ref().ok_or(EngineError::NotStreaming)
    }

    /// The referee's clock reached `ms`.
    pub fn time(&self, ms: Ms) -> Result<(), EngineError> {
        self.stream()?.time(ms).map_err(EngineError::Stream)
    }

    /// Something happened in the referee's game.
    pub fn event(&self, event: Event) -> Result<(), EngineError> {
        self.stream()?.event(event).map_err(EngineError::Stream)
    }

    /// The referee refused our `order` at `ms`.
    pub fn refused(&self, ms: Ms, order: Order) -> Result<(), EngineError> {
        self.stream()?
            .refused(ms, order)
            .map_err(EngineError::Stream)
    }

    /// Ends a one-shot question (its answer out) and streaming (its state kept).
    pub fn stop(&mut self) {
        self.one_shot.stop(Duration::ZERO);
        if let Some(stream) = self.stream.take() {
            self.state = stream.stop();
        }
    }

    /// The input ended: a one-shot question is answered in its time; streaming stops.
    pub fn finish(&mut self) {
        self.one_shot.wait(Duration::ZERO);
        if let Some(stream) = self.stream.take() {
            self.state = stream.stop();
        }
    }
}
