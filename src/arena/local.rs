//! In-process games and matches between players, with clocks kept by the referee.

use crate::eval::Evaluate;
use crate::players::{Player, Rng};
use crate::rules::{Color, EndReason, Game, GameRecord, MoveList, Outcome};
use crate::search::Clock;
use std::fmt;
use std::time::{Duration, Instant};

/// Base time and increment per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base: Duration,
    pub increment: Duration,
}

impl TimeControl {
    /// Reads `base+increment` in seconds, such as `10+0.1` or `60`.
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
        let seconds = |s: &str| -> Result<Duration, String> {
            s.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e7)
                .map(Duration::from_secs_f64)
                .ok_or_else(|| format!("time control '{text}': '{s}' is not a number of seconds"))
        };
        Ok(TimeControl {
            base: seconds(base)?,
            increment: seconds(increment)?,
        })
    }
}

/// How a game ended: by the rules, or by the referee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    Rules(EndReason),
    Time,
    IllegalMove,
    /// The player gave no move in a position that has one.
    NoMove,
    /// Stopped by the referee's ply limit.
    PlyLimit,
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::Rules(reason) => f.write_str(reason.text()),
            Termination::Time => f.write_str("loss on time"),
            Termination::IllegalMove => f.write_str("illegal move"),
            Termination::NoMove => f.write_str("no move"),
            Termination::PlyLimit => f.write_str("ply limit (adjudicated draw)"),
        }
    }
}

/// The result of one game.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    pub termination: Termination,
    pub moves: Vec<String>,
}

impl GameReport {
    pub fn result_text(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// Plays one game from `start`. `players[0]` is White. A player that overruns its clock by
/// more than `margin` loses on time.
pub fn play_game<G: Game + Evaluate>(
    start: GameRecord<G>,
    players: [&mut dyn Player<G>; 2],
    tc: TimeControl,
    margin: Duration,
    max_plies: usize,
) -> GameReport {
    let mut record = start;
    let mut remaining = [tc.base, tc.base];
    let mut moves = Vec::new();
    let [white, black] = players;
    white.new_game();
    black.new_game();
    let finish = |winner, termination, moves| GameReport {
        winner,
        termination,
        moves,
    };
    loop {
        match record.outcome() {
            Outcome::Ongoing => {}
            Outcome::Win(color, reason) => {
                return finish(Some(color), Termination::Rules(reason), moves)
            }
            Outcome::Draw(reason) => return finish(None, Termination::Rules(reason), moves),
        }
        if moves.len() >= max_plies {
            return finish(None, Termination::PlyLimit, moves);
        }
        let side = record.position().side_to_move();
        let player: &mut dyn Player<G> = if side == Color::White {
            &mut *white
        } else {
            &mut *black
        };
        let clock = Clock {
            time: remaining[side.index()],
            increment: tc.increment,
            moves_to_go: None,
        };
        let started = Instant::now();
        let choice = player.choose(&record, Some(clock));
        let used = started.elapsed();
        if used > remaining[side.index()] + margin {
            return finish(Some(side.flip()), Termination::Time, moves);
        }
        remaining[side.index()] = remaining[side.index()].saturating_sub(used) + tc.increment;
        let Some(mv) = choice else {
            return finish(Some(side.flip()), Termination::NoMove, moves);
        };
        let mut legal = MoveList::new();
        record.position().generate_moves(&mut legal);
        if !legal.contains(&mv) {
            return finish(Some(side.flip()), Termination::IllegalMove, moves);
        }
        moves.push(record.position().move_text(mv));
        record.play(mv);
    }
}

/// Plays `plies` uniformly random legal moves from `start` (fewer if the game ends first).
pub fn random_opening<G: Game>(
    start: &GameRecord<G>,
    plies: usize,
    rng: &mut Rng,
) -> GameRecord<G> {
    let mut record = start.clone();
    for _ in 0..plies {
        if record.outcome() != Outcome::Ongoing {
            break;
        }
        let mut moves = MoveList::new();
        record.position().generate_moves(&mut moves);
        record.play(moves[rng.below(moves.len())]);
    }
    record
}

/// Wins, draws and losses of the first player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Score {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
    /// Points per game of the first player, 0 to 1.
    pub fn fraction(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64
    }
}

/// Settings of an in-process match.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    pub games: u32,
    pub tc: TimeControl,
    pub margin: Duration,
    pub random_plies: usize,
    pub max_plies: usize,
    pub seed: u64,
}

/// Plays a match of `first` against `second` from the game's start position: each opening
/// (random plies from the seed) is played twice with colours swapped. `report` sees each game.
pub fn play_match<G: Game + Evaluate>(
    first: &mut dyn Player<G>,
    second: &mut dyn Player<G>,
    settings: &MatchSettings,
    report: &mut dyn FnMut(u32, &GameReport, bool),
) -> Score {
    let mut rng = Rng::new(settings.seed);
    let mut score = Score::default();
    let start = GameRecord::new(G::startpos());
    let mut opening = start.clone();
    for game in 0..settings.games {
        let first_is_white = game % 2 == 0;
        if first_is_white {
            opening = random_opening(&start, settings.random_plies, &mut rng);
        }
        let players: [&mut dyn Player<G>; 2] = if first_is_white {
            [&mut *first, &mut *second]
        } else {
            [&mut *second, &mut *first]
        };
        let result = play_game(
            opening.clone(),
            players,
            settings.tc,
            settings.margin,
            settings.max_plies,
        );
        let first_color = if first_is_white {
            Color::White
        } else {
            Color::Black
        };
        match result.winner {
            None => score.draws += 1,
            Some(c) if c == first_color => score.wins += 1,
            Some(_) => score.losses += 1,
        }
        report(game + 1, &result, first_is_white);
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::{EnginePlayer, GreedyPlayer, RandomPlayer};
    use crate::rules::chess::Chess;

    #[test]
    fn time_controls_parse() {
        let tc = TimeControl::parse("10+0.1").unwrap();
        assert_eq!(tc.base, Duration::from_secs(10));
        assert_eq!(tc.increment, Duration::from_millis(100));
        assert_eq!(TimeControl::parse("60").unwrap().increment, Duration::ZERO);
        for bad in ["", "x+1", "10+", "-5+1", "1e99"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn random_games_end_by_the_rules_or_the_ply_limit() {
        let mut a = RandomPlayer::new(1);
        let mut b = RandomPlayer::new(2);
        let settings = MatchSettings {
            games: 6,
            tc: TimeControl::parse("10").unwrap(),
            margin: Duration::from_secs(1),
            random_plies: 0,
            max_plies: 400,
            seed: 3,
        };
        let mut reports = Vec::new();
        let score = play_match::<Chess>(&mut a, &mut b, &settings, &mut |_, r, _| {
            reports.push(r.clone())
        });
        assert_eq!(score.games(), 6);
        for r in &reports {
            assert!(!matches!(
                r.termination,
                Termination::Time | Termination::IllegalMove | Termination::NoMove
            ));
        }
    }

    #[test]
    fn a_shallow_engine_beats_the_random_and_greedy_players() {
        let settings = MatchSettings {
            games: 2,
            tc: TimeControl::parse("100").unwrap(),
            margin: Duration::from_secs(10),
            random_plies: 2,
            max_plies: 300,
            seed: 7,
        };
        let mut engine = EnginePlayer::new(4, 1).with_depth(3);
        let mut random = RandomPlayer::new(5);
        let score = play_match::<Chess>(&mut engine, &mut random, &settings, &mut |_, _, _| {});
        assert_eq!(score.wins, 2, "{score:?}");
        let mut greedy = GreedyPlayer::new(5);
        let score = play_match::<Chess>(&mut engine, &mut greedy, &settings, &mut |_, _, _| {});
        assert!(score.fraction() >= 0.75, "{score:?}");
    }
}
