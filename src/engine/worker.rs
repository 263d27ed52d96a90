//! The search thread: runs one search for any game and reports its progress and best move.

use crate::eval::Evaluate;
use crate::rules::{Game, GameRecord, MoveList};
use crate::search::skill::{score_value, Lines, Skill};
use crate::search::{self, Info, Limits, SearchMemory, SearchOptions, TranspositionTable};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};
use std::thread::{self, JoinHandle};
use std::time::Duration;

/// What the search thread tells while it runs.
#[derive(Clone, Debug)]
pub enum Report {
    Progress(Info),
    /// A remark for the GUI's log (an `info string`).
    Message(String),
}

/// The answer to a `go`. `best == None` only when the position has no legal move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BestMove {
    pub best: Option<String>,
    pub ponder: Option<String>,
}

/// Everything a search thread needs, owned, so the thread outlives the call that starts it.
pub struct SearchJob<G: Game> {
    pub record: GameRecord<G>,
    pub limits: Limits,
    pub options: SearchOptions,
    /// Only these root moves may be answered; empty means any.
    pub searchmoves: Vec<G::Move>,
    pub tt: Arc<RwLock<TranspositionTable>>,
    /// The histories and corrections learnt in earlier searches of the game.
    pub memory: Arc<SearchMemory>,
    pub stop: Arc<AtomicBool>,
    /// `go infinite`: hold the best move back until `stop`, as the protocol requires.
    pub infinite: bool,
    /// Below full strength: the limits and lines are already set for it; the move played is
    /// chosen among the lines the search reports.
    pub skill: Option<Skill>,
}

/// How often a finished search looks for `stop`/`ponderhit` while holding its best move back.
const HOLD_POLL: Duration = Duration::from_millis(1);

pub fn spawn<G, R, B>(job: SearchJob<G>, mut on_report: R, on_best: B) -> JoinHandle<()>
where
    G: Game + Evaluate,
    R: FnMut(Report) + Send + 'static,
    B: FnOnce(BestMove) + Send + 'static,
{
    thread::spawn(move || {
        let best = run(&job, &mut on_report);
        // The protocol forbids a best move during `go infinite` or pondering before `stop` or
        // `ponderhit`, even when the search ran out of things to do.
        let pondering = job.limits.pondering.clone();
        let held = || {
            job.infinite
                || pondering
                    .as_ref()
                    .is_some_and(|p| p.load(Ordering::Acquire))
        };
        while held() && !job.stop.load(Ordering::Acquire) {
            thread::sleep(HOLD_POLL);
        }
        on_best(best);
    })
}

fn run<G: Game + Evaluate>(job: &SearchJob<G>, on_report: &mut dyn FnMut(Report)) -> BestMove {
    let position = job.record.position();
    let mut legal = MoveList::new();
    job.record.generate_moves(&mut legal);
    // A poisoned lock only means an earlier search panicked; the table is still usable.
    let tt = job
        .tt
        .read()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let allowed: &[G::Move] = if job.searchmoves.is_empty() {
        &legal
    } else {
        &job.searchmoves
    };
    let mut lines = Lines::new(job.options.multipv.min(allowed.len()));
    let searched = panic::catch_unwind(AssertUnwindSafe(|| {
        search::search(
            &job.record,
            &job.limits,
            job.options,
            &tt,
            &job.memory,
            &job.stop,
            &mut |info: &Info| {
                if job.skill.is_some() {
                    lines.add(info);
                }
                on_report(Report::Progress(info.clone()))
            },
        )
    }));
    let fallback = || BestMove {
        best: allowed.first().map(|&mv| position.move_text(mv)),
        ponder: None,
    };
    let outcome = match searched {
        Ok(outcome) => outcome,
        Err(_) => {
            on_report(Report::Message(
                "error: the search failed; answering the first legal move".into(),
            ));
            return fallback();
        }
    };
    // Never answer a move the rules or the `searchmoves` would refuse.
    let Some(best) = outcome.best_move else {
        if legal.is_empty() {
            // Nothing to play: the search has reported the mate or the draw; `bestmove 0000`.
            return BestMove::default();
        }
        on_report(Report::Message(
            "error: the search returned no move; answering the first legal move".into(),
        ));
        return fallback();
    };
    let best_text = position.move_text(best);
    if !legal.contains(&best) {
        on_report(Report::Message(format!(
            "error: the search returned an illegal move ('{best_text}' is not a legal move in {}); answering the first legal move",
            position.fen()
        )));
        return fallback();
    }
    if !allowed.contains(&best) {
        on_report(Report::Message(format!(
            "error: the search answered '{best_text}', outside searchmoves; answering the first allowed move"
        )));
        return fallback();
    }
    if let Some(skill) = &job.skill {
        if let Some((best, ponder, mut line)) = skill_choice(skill, position, allowed, &lines, best)
        {
            // Reported last, as the first line, so that a GUI shows the move played.
            line.multipv = 1;
            on_report(Report::Progress(line));
            return BestMove {
                best: Some(best),
                ponder,
            };
        }
    }
    // The text goes out only for a reply that is legal after the best move.
    let after = position.play(best);
    let mut replies = MoveList::new();
    after.generate_moves(&mut replies);
    let ponder = outcome
        .ponder
        .filter(|mv| replies.contains(mv))
        .map(|mv| after.move_text(mv));
    BestMove {
        best: Some(best_text),
        ponder,
    }
}

/// The move a weakened player plays among the lines the search reported, with its expected
/// reply, when it is not the search's best: its line is then reported again, last, as the
/// first line. `None` keeps the search's answer.
fn skill_choice<G: Game>(
    skill: &Skill,
    position: &G,
    allowed: &[G::Move],
    lines: &Lines,
    best: G::Move,
) -> Option<(String, Option<String>, Info)> {
    // Only lines whose first move the rules and `searchmoves` allow.
    let candidates: Vec<(G::Move, Info)> = lines
        .candidates()
        .into_iter()
        .filter_map(|line| {
            let mv = position.parse_move(line.pv.first()?).ok()?;
            allowed.contains(&mv).then_some((mv, line))
        })
        .collect();
    let scores: Vec<i32> = candidates
        .iter()
        .map(|(_, line)| score_value(line.score))
        .collect();
    let (chosen, line) = candidates.get(skill.pick(&scores, position.key()))?;
    if *chosen == best {
        return None;
    }
    let after = position.play(*chosen);
    let mut replies = MoveList::new();
    after.generate_moves(&mut replies);
    let ponder = line
        .pv
        .get(1)
        .and_then(|text| after.parse_move(text).ok())
        .filter(|mv| replies.contains(mv))
        .map(|mv| after.move_text(mv));
    Some((position.move_text(*chosen), ponder, line.clone()))
}
