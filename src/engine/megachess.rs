//! The engine of Megachess over any [`MegachessPlayer`] (Roger's turn planner or a reference
//! player), with no text protocol: the rules' parameters and the player's options, the last
//! good world, and a turn planned on the deadline worker. Each question gets exactly one answer
//! (the plan, `stop`, or the deadline for a late player; the last two answer the best turn the
//! player reported so far), and every answer is checked move by move against the world before
//! it is handed on: a move the rules refuse is dropped, never given.

use super::deadline::{lock, DeadlineWorker, Delivery, Ending, Limit};
use super::{Activity, EngineError, OptionRemark};
use crate::options::{
    check_value, parameter_specs, variant_option, OptionSpec, OptionValue, UCI_VARIANT,
};
use crate::plan::{MegachessPlayer, PlanProgress, TurnBudget};
use crate::rules::megachess::{
    MegachessParams, Move, PlayerId, Rejection, World, WorldView, PARAMETERS,
};
use crate::rules::registry::{self, Family};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The largest `movetime` taken: a day.
pub const MAX_MOVETIME_MS: u64 = 86_400_000;
/// The least time between two progress reports handed on (the answer carries the last).
const PROGRESS_INTERVAL: Duration = Duration::from_millis(100);
/// How long `stop` waits for the player to return its plan before answering its best so far.
const STOP_GRACE: Duration = Duration::from_millis(30);

/// The player, shared by the planning thread and the engine (options, new game).
type SharedPlayer = Arc<Mutex<Box<dyn MegachessPlayer>>>;

/// What the planner gets of `movetime`: a quarter is kept back, at most 25 ms, for checking the
/// turn and writing it out.
pub fn planning_budget(movetime: Duration) -> Duration {
    movetime.saturating_sub((movetime / 4).min(Duration::from_millis(25)))
}

/// When the watch answers for a late player: a fifth before `movetime`, at most 10 ms before.
pub fn watch_time(movetime: Duration) -> Duration {
    movetime.saturating_sub((movetime / 5).min(Duration::from_millis(10)))
}

/// A turn's time when none is given: nine tenths of the turn, the rest left for the server to
/// read the answer and for the moves to arrive before the turn ends.
pub fn turn_movetime(turn_ms: u64) -> Duration {
    Duration::from_millis(turn_ms.min(MAX_MOVETIME_MS) / 10 * 9)
}

/// A move the rules refuse, dropped from a turn: its place in the plan (from 1), the move and
/// why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dropped {
    pub place: usize,
    pub mv: Move,
    pub rejection: Rejection,
}

/// The moves of `moves` the rules let `me` make in order on `world`, and the ones they refuse
/// (each checked after the moves kept before it).
pub fn checked_turn(world: &World, me: PlayerId, moves: &[Move]) -> (Vec<Move>, Vec<Dropped>) {
    let mut board = world.clone();
    let mut kept = Vec::with_capacity(moves.len());
    let mut dropped = Vec::new();
    for (index, &mv) in moves.iter().enumerate() {
        match board.apply(me, mv) {
            Ok(_) => kept.push(mv),
            Err(rejection) => dropped.push(Dropped {
                place: index + 1,
                mv,
                rejection,
            }),
        }
    }
    (kept, dropped)
}

/// How long one turn is planned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThinkLimit {
    /// Answer within this.
    Movetime(Duration),
    /// Answer when the player has judged about this many moves.
    Work(u64),
    /// Answer at `stop`.
    UntilStop,
}

/// One planning question: `me`'s turn on `world`.
pub struct TurnQuestion {
    pub world: Arc<World>,
    pub me: PlayerId,
    pub budget: TurnBudget,
    /// The deadline's `movetime`, if it has one.
    pub movetime: Option<Duration>,
}

/// Why a turn's answer came when it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnEnding {
    /// The player returned its plan.
    Planned,
    /// `stop` came first: the best turn so far.
    Stopped,
    /// The player did not finish within `movetime`: the best turn so far.
    Late(Duration),
    /// The player panicked: the best turn so far.
    Failed,
    /// The planning thread is gone.
    Gone,
}

/// A turn's answer: the moves the rules allow in order, the ones dropped, and the player's last
/// report.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnAnswer {
    pub ending: TurnEnding,
    pub moves: Vec<Move>,
    pub dropped: Vec<Dropped>,
    pub last: PlanProgress,
    pub elapsed: Duration,
}

/// What a planning question hands on: progress now and then, then its answer.
pub enum TurnNews<'a> {
    Progress {
        progress: &'a PlanProgress,
        elapsed: Duration,
    },
    Answer(TurnAnswer),
}

/// The world as the last good text told it.
struct Told {
    world: Arc<World>,
    me: PlayerId,
    /// The text, read again when a parameter changes.
    text: String,
}

fn read(text: &str, params: &MegachessParams) -> Result<Told, String> {
    let view = WorldView::parse(text, params).map_err(|error| error.to_string())?;
    Ok(Told {
        world: Arc::new(view.world),
        me: view.me,
        text: text.to_string(),
    })
}

/// The Megachess engine over a player.
pub struct MegachessEngine {
    player: SharedPlayer,
    name: String,
    /// The player's own options, as it announced them when it came.
    player_options: Vec<OptionSpec>,
    params: MegachessParams,
    /// The last good world; `None` before the first and after a new game.
    told: Option<Told>,
    planner: DeadlineWorker<TurnQuestion, PlanProgress, Vec<Move>>,
}

impl MegachessEngine {
    pub fn new(player: Box<dyn MegachessPlayer>) -> MegachessEngine {
        let name = player.name();
        let player_options = player.options();
        let player: SharedPlayer = Arc::new(Mutex::new(player));
        let planning = player.clone();
        MegachessEngine {
            planner: DeadlineWorker::new(move |question: &TurnQuestion, stop, report| {
                lock(&planning).plan_turn(
                    &question.world,
                    question.me,
                    question.budget,
                    stop,
                    report,
                )
            }),
            player,
            name,
            player_options,
            params: MegachessParams::default(),
            told: None,
        }
    }

    /// The player's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn params(&self) -> &MegachessParams {
        &self.params
    }

    /// The last good world and whose turn is planned, if any.
    pub fn world(&self) -> Option<(&World, PlayerId)> {
        self.told.as_ref().map(|told| (&*told.world, told.me))
    }

    /// The rules' parameters, the player's options and `UCI_Variant`.
    pub fn option_specs(&self) -> Vec<OptionSpec> {
        let mut specs = parameter_specs(PARAMETERS);
        specs.extend(self.player_options.iter().cloned());
        specs.push(variant_option(&registry::names_of(Family::World)));
        specs
    }

    /// Sets an option (any case) to a value of its kind within its bounds; a running plan is
    /// answered first. A parameter reads the last world again under the new value: when it no
    /// longer reads it is forgotten, and the remark says why.
    pub fn set_option(
        &mut self,
        name: &str,
        value: OptionValue,
    ) -> Result<Option<OptionRemark>, EngineError> {
        let (name, value) = check_value(&self.option_specs(), name, value)?;
        if name == UCI_VARIANT {
            self.stop();
            return Ok(None);
        }
        if let (true, OptionValue::Spin(number)) =
            (PARAMETERS.iter().any(|row| row.name == name), &value)
        {
            return self.set_parameter(name, *number);
        }
        self.stop();
        lock(&self.player)
            .set_option(name, &value)
            .map_err(EngineError::Setting)?;
        Ok(None)
    }

    fn set_parameter(
        &mut self,
        name: &str,
        value: i64,
    ) -> Result<Option<OptionRemark>, EngineError> {
        let mut params = self.params;
        params.set(name, value).map_err(EngineError::Setting)?;
        params.validate().map_err(EngineError::Setting)?;
        self.stop();
        self.params = params;
        let Some(told) = self.told.take() else {
            return Ok(None);
        };
        match read(&told.text, &params) {
            Ok(told) => {
                self.told = Some(told);
                Ok(None)
            }
            Err(why) => Ok(Some(OptionRemark::WorldForgotten {
                name: name.to_string(),
                value,
                why,
            })),
        }
    }

    /// A new game: the plan is stopped, the world forgotten and the player told.
    pub fn new_game(&mut self) {
        self.stop();
        self.told = None;
        lock(&self.player).new_game();
    }

    /// Reads a world (the rules page's text) and makes it the current one; on an error nothing
    /// changes.
    pub fn set_world(&mut self, text: &str) -> Result<(), EngineError> {
        let told = read(text, &self.params).map_err(EngineError::Position)?;
        self.stop();
        self.told = Some(told);
        Ok(())
    }

    /// `limit` in the engine's terms, `None` being most of a turn.
    pub fn turn_limit(&self, limit: Option<ThinkLimit>) -> ThinkLimit {
        limit.unwrap_or(ThinkLimit::Movetime(turn_movetime(self.params.turn_ms)))
    }

    /// Plans the current world's turn; its progress and answer go to `on_news`. Refused with
    /// no world, or while a plan runs.
    pub fn go(
        &mut self,
        limit: ThinkLimit,
        on_news: impl Fn(TurnNews) + Send + Sync + 'static,
    ) -> Result<(), EngineError> {
        let Some(told) = &self.told else {
            return Err(EngineError::NoWorld);
        };
        let (budget, movetime, watch) = match limit {
            ThinkLimit::Movetime(movetime) => (
                TurnBudget::Time(planning_budget(movetime)),
                Some(movetime),
                Limit::Deadline(watch_time(movetime)),
            ),
            ThinkLimit::Work(moves) => (TurnBudget::Work(moves), None, Limit::Unwatched),
            ThinkLimit::UntilStop => (
                TurnBudget::Time(Duration::from_millis(MAX_MOVETIME_MS)),
                None,
                Limit::UntilStop,
            ),
        };
        let question = TurnQuestion {
            world: told.world.clone(),
            me: told.me,
            budget,
            movetime,
        };
        let last_progress = Mutex::new(None::<Instant>);
        let deliver =
            move |delivery: Delivery<TurnQuestion, PlanProgress, Vec<Move>>| match delivery {
                Delivery::Progress {
                    progress, elapsed, ..
                } => {
                    let mut last = lock(&last_progress);
                    let now = Instant::now();
                    if last.is_none_or(|at| now.duration_since(at) >= PROGRESS_INTERVAL) {
                        *last = Some(now);
                        on_news(TurnNews::Progress { progress, elapsed });
                    }
                }
                Delivery::Answer {
                    question,
                    ending,
                    last,
                    elapsed,
                } => on_news(TurnNews::Answer(answer(question, ending, last, elapsed))),
            };
        self.planner
            .ask(question, watch, deliver)
            .map_err(|_| EngineError::Busy(Activity::Plan))
    }

    /// Whether a plan waits for its answer.
    pub fn is_thinking(&self) -> bool {
        self.planner.is_thinking()
    }

    /// Ends a running plan: the player is told to stop and given a moment to return its plan,
    /// else its best turn so far is the answer. The answer is out when this returns.
    pub fn stop(&mut self) {
        self.planner.stop(STOP_GRACE);
    }

    /// Waits until the plan's answer is out, or held for `stop` under `go infinite`.
    pub fn settle(&self) {
        self.planner.settle();
    }

    /// Waits for a plan that ends by itself; stops one that runs until `stop`.
    pub fn finish(&mut self) {
        self.planner.wait(STOP_GRACE);
    }
}

/// The answer a planning question's ending gives, checked against its world.
fn answer(
    question: &TurnQuestion,
    ending: Ending<Vec<Move>>,
    last: Option<&PlanProgress>,
    elapsed: Duration,
) -> TurnAnswer {
    let last = last.cloned().unwrap_or_default();
    let (ending, planned) = match ending {
        Ending::Thought(moves) => (TurnEnding::Planned, moves),
        Ending::Stopped => (TurnEnding::Stopped, last.moves.clone()),
        Ending::Late => (
            TurnEnding::Late(question.movetime.unwrap_or_default()),
            last.moves.clone(),
        ),
        Ending::Failed => (TurnEnding::Failed, last.moves.clone()),
        Ending::Gone => (TurnEnding::Gone, Vec::new()),
    };
    let (moves, dropped) = checked_turn(&question.world, question.me, &planned);
    TurnAnswer {
        ending,
        moves,
        dropped,
        last,
        elapsed,
    }
}
