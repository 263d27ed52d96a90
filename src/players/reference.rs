//! `roger play random|greedy`: the built-in reference players behind the same protocol session
//! as the engine, so that the arena (or any GUI) treats them as any other engine. They answer
//! `go` at once, whatever its limits.
//!
//! Their choice is a function of the position alone (the seed mixed with the position's key),
//! not of the games played before in the same process, so a tournament replays exactly.
//!
//! For the arena's tests the players can also misbehave on purpose ([`Fault`]): garbage output,
//! an illegal move, a hang, a crash, a slow answer or no handshake at all.

use super::arrival::ArrivalRealtimePlayer;
use super::guard::GuardMegachessPlayer;
use super::megachess::{GreedyMegachessPlayer, RandomMegachessPlayer};
use super::realtime::{GreedyRealtimePlayer, RandomRealtimePlayer};
use super::settings::{Fault, PlaySettings, ReferencePlayer};
use super::uci::UciPlayer;
use super::xboard::XboardDialect;
use crate::options::OptionValue;
use crate::plan::{MegachessPlayer, PlanProgress, RealtimePlayer, TurnBudget};
use crate::protocol::dialect::megachess::MegachessDialect;
use crate::protocol::dialect::realtime::RealtimeDialect;
use crate::protocol::dialect::turn::TurnDialect;
use crate::protocol::dialect::Dialect;
use crate::protocol::{serve_game, Agent, Output};
use crate::rules::megachess::{Move, PlayerId, World};
use crate::rules::realtime::{Color, Order, RealtimeState};
use crate::rules::registry::Family;
use std::io::{self, BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// A reference player as the session's agent, speaking UCI or xboard.
pub struct PlayerAgent {
    pub settings: PlaySettings,
    pub xboard: bool,
}

impl Agent for PlayerAgent {
    fn name(&self) -> String {
        format!("Roger {}", self.settings.player.name())
    }

    fn families(&self) -> &'static [Family] {
        match (self.settings.player, self.xboard) {
            (ReferencePlayer::Arrival, true) => &[],
            (ReferencePlayer::Arrival, false) => &[Family::Realtime],
            (ReferencePlayer::Guard, true) => &[],
            (ReferencePlayer::Guard, false) => &[Family::World],
            (_, true) => &[Family::Turn],
            (_, false) => &[Family::Turn, Family::Realtime, Family::World],
        }
    }

    fn dialect(&self, family: Family) -> Option<Box<dyn Dialect>> {
        if !self.families().contains(&family) {
            return None;
        }
        Some(match family {
            Family::Turn if self.xboard => Box::new(XboardDialect::new(self.settings)),
            Family::Turn => Box::new(TurnDialect::new(UciPlayer::new(self.settings))),
            Family::Realtime => Box::new(RealtimeDialect::new(realtime_player(self.settings))),
            Family::World => Box::new(MegachessDialect::new(megachess_player(self.settings))),
        })
    }
}

/// Serves a reference player (UCI, or xboard) until `quit` or the end of the input, starting
/// in `game` (a `UCI_Variant` value).
pub fn serve_player<R: BufRead, W: Write + Send + 'static>(
    settings: PlaySettings,
    xboard: bool,
    game: &str,
    mut input: R,
    output: W,
) -> io::Result<()> {
    if settings.fault == Some(Fault::NoHandshake) {
        // Reads everything, answers nothing, not even `quit`.
        io::copy(&mut input, &mut io::sink())?;
        return Ok(());
    }
    serve_game(
        Box::new(PlayerAgent { settings, xboard }),
        game,
        input,
        Output::new(output),
    )
}

/// The realtime reference player of `settings`, misbehaving when told to.
fn realtime_player(settings: PlaySettings) -> Box<dyn RealtimePlayer> {
    let player: Box<dyn RealtimePlayer> = match settings.player {
        ReferencePlayer::Random => Box::new(RandomRealtimePlayer::new(settings.seed)),
        ReferencePlayer::Greedy => Box::new(GreedyRealtimePlayer::new(settings.seed)),
        ReferencePlayer::Arrival => Box::new(ArrivalRealtimePlayer::new(settings.seed)),
        ReferencePlayer::Guard => unreachable!("guard plays Megachess only (families)"),
    };
    match settings.fault {
        Some(_) => Box::new(FaultyRealtimePlayer {
            player,
            settings,
            answered: 0,
        }),
        None => player,
    }
}

/// A realtime reference player with a fault. The wire checks every order and answers for a
/// player that is late, so in realtime chess the faults are the process's: `crash` exits,
/// `hang` and `slow` never decide within the budget (the wire answers `bestmove none` at the
/// `movetime`); `garbage` and `illegal` decide nothing (the wire prints no order it refuses).
struct FaultyRealtimePlayer {
    player: Box<dyn RealtimePlayer>,
    settings: PlaySettings,
    /// Decisions asked since the last new game.
    answered: u32,
}

impl RealtimePlayer for FaultyRealtimePlayer {
    fn name(&self) -> String {
        self.player.name()
    }
    fn options(&self) -> Vec<crate::engine::OptionSpec> {
        self.player.options()
    }
    fn set_option(&mut self, name: &str, value: &OptionValue) -> Result<(), String> {
        self.player.set_option(name, value)
    }
    fn new_game(&mut self) {
        self.answered = 0;
        self.player.new_game();
    }
    fn decide(&mut self, state: &RealtimeState, side: Color, budget: Duration) -> Option<Order> {
        let fault = self.settings.fault_at(self.answered);
        self.answered += 1;
        match fault {
            None => self.player.decide(state, side, budget),
            Some(Fault::Slow) => {
                std::thread::sleep(budget + Duration::from_secs(1));
                None
            }
            Some(Fault::Garbage | Fault::Illegal) => None,
            Some(fault) => {
                fault.strike_process();
                None
            }
        }
    }
}

/// The Megachess reference player of `settings`, misbehaving when told to.
fn megachess_player(settings: PlaySettings) -> Box<dyn MegachessPlayer> {
    let player: Box<dyn MegachessPlayer> = match settings.player {
        ReferencePlayer::Random => Box::new(RandomMegachessPlayer::new(settings.seed)),
        ReferencePlayer::Greedy => Box::new(GreedyMegachessPlayer::new(settings.seed)),
        ReferencePlayer::Guard => Box::new(GuardMegachessPlayer::new(settings.seed)),
        ReferencePlayer::Arrival => unreachable!("arrival plays realtime chess only (families)"),
    };
    match settings.fault {
        Some(_) => Box::new(FaultyMegachessPlayer {
            player,
            settings,
            answered: 0,
        }),
        None => player,
    }
}

/// A Megachess reference player with a fault. As in realtime chess the wire checks every move
/// and answers for a late player, so the faults are the process's: `crash` exits, `hang` and
/// `slow` never finish within the budget (the wire answers the best turn reported so far, none,
/// at the `movetime`); `garbage` and `illegal` plan an empty turn (the wire prints no move the
/// rules refuse).
struct FaultyMegachessPlayer {
    player: Box<dyn MegachessPlayer>,
    settings: PlaySettings,
    /// Turns planned since the last new game.
    answered: u32,
}

impl MegachessPlayer for FaultyMegachessPlayer {
    fn name(&self) -> String {
        self.player.name()
    }
    fn options(&self) -> Vec<crate::engine::OptionSpec> {
        self.player.options()
    }
    fn set_option(&mut self, name: &str, value: &OptionValue) -> Result<(), String> {
        self.player.set_option(name, value)
    }
    fn new_game(&mut self) {
        self.answered = 0;
        self.player.new_game();
    }
    fn plan_turn(
        &mut self,
        world: &World,
        me: PlayerId,
        budget: TurnBudget,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&PlanProgress),
    ) -> Vec<Move> {
        let fault = self.settings.fault_at(self.answered);
        self.answered += 1;
        match fault {
            None => self.player.plan_turn(world, me, budget, stop, progress),
            Some(Fault::Slow) => {
                let time = budget.time().unwrap_or_default();
                std::thread::sleep(time + Duration::from_secs(1));
                Vec::new()
            }
            Some(Fault::Garbage | Fault::Illegal) => Vec::new(),
            Some(fault) => {
                fault.strike_process();
                Vec::new()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::output::Captured;
    use crate::rules::{Game, GameRecord};

    fn settings(player: ReferencePlayer) -> PlaySettings {
        PlaySettings {
            player,
            seed: 1,
            fault: None,
            fault_after: 0,
        }
    }

    fn serve_lines(input: &str, settings: PlaySettings, xboard: bool) -> Vec<String> {
        let captured = Captured::default();
        serve_player(
            settings,
            xboard,
            "chess",
            input.as_bytes(),
            captured.clone(),
        )
        .unwrap();
        captured.lines()
    }

    fn session(input: &str, player: ReferencePlayer) -> Vec<String> {
        serve_lines(input, settings(player), false)
    }

    #[test]
    fn handshake_and_a_move() {
        let lines = session(
            "uci\nisready\nucinewgame\nposition startpos moves e2e4\ngo wtime 100 btime 100\nquit\n",
            ReferencePlayer::Random,
        );
        assert_eq!(lines[0], "id name Roger random");
        assert!(lines.contains(&"uciok".to_string()));
        assert!(lines.contains(&"readyok".to_string()));
        let best = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
        let mut record = GameRecord::new(crate::rules::chess::Chess::startpos());
        record.play_text("e2e4").unwrap();
        assert!(record.position().parse_move(best).is_ok(), "{best}");
    }

    #[test]
    fn arrival_plays_realtime_chess_only() {
        let captured = Captured::default();
        let input = "position state 7k/8/8/n7/8/8/8/R3K3 - 5000 0 d:a5:13000\ngo side white\n";
        serve_player(
            settings(ReferencePlayer::Arrival),
            false,
            "realtime",
            input.as_bytes(),
            captured.clone(),
        )
        .unwrap();
        assert_eq!(captured.lines(), vec!["bestmove a1a5"]);
        for (game, xboard) in [("chess", false), ("megachess", false), ("realtime", true)] {
            let refused = serve_player(
                settings(ReferencePlayer::Arrival),
                xboard,
                game,
                "uci\n".as_bytes(),
                Captured::default(),
            );
            let error = refused.expect_err(game).to_string();
            assert!(error.contains("arrival does not play"), "{error}");
        }
    }

    #[test]
    fn greedy_takes_the_queen_and_answers_the_same_every_time() {
        let input = "position fen 4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1\ngo\ngo\n";
        let lines = session(input, ReferencePlayer::Greedy);
        assert_eq!(lines, vec!["bestmove e4d5", "bestmove e4d5"]);
    }

    #[test]
    fn xboard_session() {
        let input = "xboard\nprotover 2\nnew\nforce\nsetboard 4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1\n\
                     ping 1\ngo\nusermove e8e7\nusermove zz\nping 2\nquit\nping 3\n";
        let lines = serve_lines(input, settings(ReferencePlayer::Greedy), true);
        assert!(lines[0].starts_with("feature myname=\"Roger greedy\""));
        assert!(lines[0].contains("variants=\"normal,"), "{lines:?}");
        assert_eq!(lines[1], "pong 1");
        assert_eq!(lines[2], "move e4d5");
        // Out of force mode it answers the opponent's move with its own.
        assert!(lines[3].starts_with("move "), "{lines:?}");
        assert_eq!(lines[4], "Illegal move: zz");
        // Nothing after `quit`.
        assert_eq!(lines[5..], ["pong 2"]);
    }

    /// The xboard player's errors echo bad input escaped as the UCI errors do: a raw U+2028
    /// would end the line for some readers.
    #[test]
    fn xboard_errors_escape_unseen_whitespace() {
        let input = "xboard\nnew\nforce\nusermove e2e4\u{2028}x\nvariant nope\u{a0}\n\
                     setboard 4k3/8/8/8/8/8/8/4K3\u{3000} w - - 0 1\nquit\n";
        let lines = serve_lines(input, settings(ReferencePlayer::Greedy), true);
        assert_eq!(lines[0], "Illegal move: e2e4\\u{2028}x");
        assert_eq!(lines[1], "Error (unsupported variant): nope\\u{a0}");
        assert!(
            lines[2].starts_with("tellusererror Illegal position: ")
                && lines[2].contains("\\u{3000}"),
            "{lines:?}"
        );
        assert_eq!(lines.len(), 3, "{lines:?}");
    }

    #[test]
    fn variants_and_errors() {
        let lines = session(
            "setoption name UCI_Variant value nichess\nsetoption name Hash value 3\n\
             setoption name UCI_Variant value nope\nposition startpos moves zz\nbench\n\
             go perft 1\n",
            ReferencePlayer::Greedy,
        );
        assert_eq!(lines.len(), 6, "{lines:?}");
        // Like the engine, it tells the board of the new variant.
        assert!(
            lines[0].starts_with("info string variant nichess"),
            "{lines:?}"
        );
        assert!(lines[1].contains("unknown option 'Hash' (options: UCI_Variant)"));
        assert!(lines[2].contains("has no value 'nope'"));
        assert!(lines[3].starts_with("info string error: position:"));
        assert!(lines[4].starts_with("info string error: bench: the built-in players"));
        assert!(lines[5].starts_with("info string error: go perft: the built-in players"));
    }

    #[test]
    fn faults_garbage_illegal_and_no_handshake() {
        let faulty = |fault| PlaySettings {
            fault: Some(fault),
            fault_after: 1,
            ..settings(ReferencePlayer::Random)
        };
        let input = "ucinewgame\nposition startpos\ngo\ngo\n";
        let lines = serve_lines(input, faulty(Fault::Garbage), false);
        assert!(lines[0].starts_with("bestmove ") && lines[0] != "bestmove ~~~~");
        assert_eq!(
            lines[1..],
            [
                "\u{1}\u{7f}#@! garbage %%%",
                "info depth x score banana",
                "bestmove ~~~~"
            ]
        );
        let lines = serve_lines(input, faulty(Fault::Illegal), false);
        assert_eq!(lines[1..], ["bestmove a1a1"]);
        let lines = serve_lines("uci\nisready\nquit\n", faulty(Fault::NoHandshake), false);
        assert!(lines.is_empty(), "{lines:?}");
    }
}
