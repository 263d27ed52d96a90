//! `roger play random|greedy`: the built-in reference players behind the same protocol as the
//! engine, so that the arena (or any GUI) treats them as any other engine. They answer `go` at
//! once, whatever its limits.
//!
//! Their choice is a function of the position alone (the seed mixed with the position's key),
//! not of the games played before in the same process, so a tournament replays exactly.
//!
//! For the arena's tests the players can also misbehave on purpose ([`Fault`]): garbage output,
//! an illegal move, a hang, a crash, a slow answer or no handshake at all.

use super::parse::{parse_command, Command, PositionStart};
use super::print;
use crate::eval::Evaluate;
use crate::players::{GreedyPlayer, Player, RandomPlayer};
use crate::rules::registry::{dispatch, game_names as variant_names, AnyGame, GAMES};
use crate::rules::{Game, GameRecord};
use std::io::{self, BufRead, Write};
use std::time::Duration;

/// Which reference player answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReferencePlayer {
    Random,
    Greedy,
}

impl ReferencePlayer {
    pub fn parse(name: &str) -> Result<ReferencePlayer, String> {
        match name {
            "random" => Ok(ReferencePlayer::Random),
            "greedy" => Ok(ReferencePlayer::Greedy),
            other => Err(format!(
                "unknown player '{other}': expected random or greedy"
            )),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ReferencePlayer::Random => "random",
            ReferencePlayer::Greedy => "greedy",
        }
    }
}

/// A deliberate fault, for testing the arena's referee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Prints nonsense lines and an unreadable `bestmove`.
    Garbage,
    /// Answers a well-formed move that is not legal.
    Illegal,
    /// Stops answering anything.
    Hang,
    /// Exits with status 3.
    Crash,
    /// Answers only after the whole clock (plus a second) has passed.
    Slow,
    /// Never finishes the `uci` handshake.
    NoHandshake,
}

impl Fault {
    pub fn parse(name: &str) -> Result<Fault, String> {
        Ok(match name {
            "garbage" => Fault::Garbage,
            "illegal" => Fault::Illegal,
            "hang" => Fault::Hang,
            "crash" => Fault::Crash,
            "slow" => Fault::Slow,
            "no-handshake" => Fault::NoHandshake,
            other => {
                return Err(format!(
                    "unknown fault '{other}': expected garbage, illegal, hang, crash, slow or \
                     no-handshake"
                ))
            }
        })
    }
}

/// How a `roger play` process behaves.
#[derive(Clone, Copy, Debug)]
pub struct PlaySettings {
    pub player: ReferencePlayer,
    pub seed: u64,
    pub fault: Option<Fault>,
    /// The fault strikes from this many answered `go`s into each game on.
    pub fault_after: u32,
}

struct PlaySession {
    settings: PlaySettings,
    game: AnyGame,
    /// `go`s answered since the last `ucinewgame`.
    answered: u32,
}

/// Serves the protocol with a reference player until `quit` or the end of the input.
pub fn run_player<R: BufRead, W: Write>(
    settings: PlaySettings,
    mut input: R,
    mut output: W,
) -> io::Result<()> {
    let mut session = PlaySession {
        settings,
        game: AnyGame::new(GAMES[0].name).expect("the default game is a turn game"),
        answered: 0,
    };
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            return Ok(());
        }
        let line = String::from_utf8_lossy(&bytes);
        if settings.fault == Some(Fault::NoHandshake) {
            continue;
        }
        let replies = match parse_command(&line) {
            Ok(None) => Vec::new(),
            Ok(Some(Command::Quit)) => return Ok(()),
            Ok(Some(command)) => session.handle(command),
            Err(error) => vec![print::error_line(&error.to_string())],
        };
        for reply in replies {
            writeln!(output, "{reply}")?;
        }
        output.flush()?;
    }
}

impl PlaySession {
    fn handle(&mut self, command: Command) -> Vec<String> {
        match command {
            Command::Uci => {
                let variants = variant_names();
                let mut combo =
                    format!("option name UCI_Variant type combo default {}", variants[0]);
                for name in &variants {
                    combo.push_str(" var ");
                    combo.push_str(name);
                }
                vec![
                    format!("id name Roger {}", self.settings.player.name()),
                    format!("id author {}", print::ENGINE_AUTHOR),
                    combo,
                    "uciok".to_string(),
                ]
            }
            Command::IsReady => vec!["readyok".to_string()],
            Command::UciNewGame => {
                self.game = AnyGame::new(self.game.variant()).expect("a registered variant");
                self.answered = 0;
                Vec::new()
            }
            Command::SetOption { name, value } => {
                if !name.eq_ignore_ascii_case("UCI_Variant") {
                    return vec![print::error_line(&format!(
                        "setoption: unknown option '{name}' (options: UCI_Variant)"
                    ))];
                }
                let wanted = value.unwrap_or_default();
                match AnyGame::new(&wanted.to_ascii_lowercase()) {
                    Some(game) => {
                        self.game = game;
                        Vec::new()
                    }
                    None => vec![print::error_line(&format!(
                        "setoption: option 'UCI_Variant' has no value '{wanted}' (values: {})",
                        variant_names().join(", ")
                    ))],
                }
            }
            Command::Position { start, moves } => {
                let fen = match &start {
                    PositionStart::StartPos => None,
                    PositionStart::Fen(fen) => Some(fen.as_str()),
                };
                match self.game.with_position(fen, &moves) {
                    Ok(game) => {
                        self.game = game;
                        Vec::new()
                    }
                    Err(error) => vec![print::error_line(&format!(
                        "position: {error}; the position is unchanged"
                    ))],
                }
            }
            Command::Go(params) => {
                let side_time = params.white_time.max(params.black_time);
                self.go(side_time)
            }
            Command::Display => self.game.display().lines().map(String::from).collect(),
            Command::Debug(_) | Command::Stop | Command::PonderHit | Command::Quit => Vec::new(),
            Command::Perft(_) | Command::Bench { .. } => vec![print::error_line(
                "the built-in players do not run perft or bench; use the engine",
            )],
        }
    }

    fn go(&mut self, clock: Option<Duration>) -> Vec<String> {
        let fault = self
            .settings
            .fault
            .filter(|_| self.answered >= self.settings.fault_after);
        self.answered += 1;
        match fault {
            Some(Fault::Crash) => std::process::exit(3),
            Some(Fault::Hang) => loop {
                std::thread::sleep(Duration::from_secs(3600));
            },
            Some(Fault::Garbage) => {
                return vec![
                    "\u{1}\u{7f}#@! garbage %%%".to_string(),
                    "info depth x score banana".to_string(),
                    "bestmove ~~~~".to_string(),
                ]
            }
            Some(Fault::Illegal) => return vec!["bestmove a1a1".to_string()],
            Some(Fault::Slow) => {
                std::thread::sleep(clock.unwrap_or_default() + Duration::from_secs(1))
            }
            Some(Fault::NoHandshake) | None => {}
        }
        let settings = self.settings;
        let best = dispatch!(&self.game, record => choose(record, settings));
        vec![format!(
            "bestmove {}",
            best.unwrap_or_else(|| print::NULL_MOVE.to_string())
        )]
    }
}

/// Serves the xboard protocol (version 2) with a reference player, so that GUIs and referees
/// that speak xboard, the arena's `proto=xboard` among them, can be tested without another
/// engine. It knows the commands a referee needs: `protover`, `new`, `variant`, `force`, `go`,
/// `setboard`, `usermove` (or a bare move), `ping`, `result` and `quit`; others are ignored.
pub fn run_xboard_player<R: BufRead, W: Write>(
    settings: PlaySettings,
    mut input: R,
    mut output: W,
) -> io::Result<()> {
    let variant_of = |name: &str| if name == "normal" { "chess" } else { name }.to_string();
    let mut variant = "chess".to_string();
    let mut start: Option<String> = None;
    let mut moves: Vec<String> = Vec::new();
    let mut force = false;
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            return Ok(());
        }
        let line = String::from_utf8_lossy(&bytes);
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let mut replies: Vec<String> = Vec::new();
        let mut play_now = false;
        match tokens.as_slice() {
            [] => {}
            ["quit", ..] => return Ok(()),
            ["protover", ..] => {
                let names: Vec<String> = variant_names()
                    .iter()
                    .map(|v| {
                        if *v == "chess" {
                            "normal".to_string()
                        } else {
                            v.to_string()
                        }
                    })
                    .collect();
                replies.push(format!(
                    "feature myname=\"Roger {}\" ping=1 setboard=1 usermove=1 memory=1 colors=0 \
                     sigint=0 sigterm=0 variants=\"{}\" done=1",
                    settings.player.name(),
                    names.join(",")
                ));
            }
            ["new", ..] => {
                variant = "chess".to_string();
                start = None;
                moves.clear();
                force = false;
            }
            ["variant", name, ..] => {
                if AnyGame::new(&variant_of(name)).is_some() {
                    variant = variant_of(name);
                    start = None;
                    moves.clear();
                } else {
                    replies.push(format!("Error (unsupported variant): {name}"));
                }
            }
            ["force", ..] => force = true,
            ["go", ..] => {
                force = false;
                play_now = true;
            }
            ["setboard", fen @ ..] => {
                let fen = fen.join(" ");
                match AnyGame::new(&variant)
                    .expect("a registered variant")
                    .with_position(Some(&fen), &[])
                {
                    Ok(_) => {
                        start = Some(fen);
                        moves.clear();
                    }
                    Err(error) => replies.push(format!("tellusererror Illegal position: {error}")),
                }
            }
            ["ping", n, ..] => replies.push(format!("pong {n}")),
            ["result", ..] => force = true,
            [first, rest @ ..] => {
                let text = match (*first, rest) {
                    ("usermove", [mv, ..]) => Some(*mv),
                    (mv, []) if mv.len() >= 4 && mv.as_bytes()[1].is_ascii_digit() => Some(mv),
                    _ => None,
                };
                if let Some(text) = text {
                    let mut after = moves.clone();
                    after.push(text.to_string());
                    match position_of(&variant, start.as_deref(), &after) {
                        Ok(_) => {
                            moves = after;
                            play_now = !force;
                        }
                        Err(_) => replies.push(format!("Illegal move: {text}")),
                    }
                }
            }
        }
        if play_now {
            let current =
                position_of(&variant, start.as_deref(), &moves).expect("the moves were checked");
            let answered = moves.len() as u32;
            let fault = settings.fault.filter(|_| answered >= settings.fault_after);
            match fault {
                Some(Fault::Crash) => std::process::exit(3),
                Some(Fault::Hang) => loop {
                    std::thread::sleep(Duration::from_secs(3600));
                },
                Some(Fault::Illegal) => replies.push("move a1a1".to_string()),
                _ => {
                    let best = dispatch!(&current, record => choose(record, settings));
                    if let Some(best) = best {
                        moves.push(best.clone());
                        replies.push(format!("move {best}"));
                    }
                }
            }
        }
        for reply in replies {
            writeln!(output, "{reply}")?;
        }
        output.flush()?;
    }
}

/// The game of `variant` from `start` (or its start position) after `moves`.
fn position_of(variant: &str, start: Option<&str>, moves: &[String]) -> Result<AnyGame, String> {
    AnyGame::new(variant)
        .ok_or_else(|| format!("unknown variant '{variant}'"))?
        .with_position(start, moves)
}

/// The reference player's move, seeded by the position so that it depends on nothing else.
fn choose<G: Game + Evaluate>(record: &GameRecord<G>, settings: PlaySettings) -> Option<String> {
    let seed = settings.seed ^ record.position().key();
    let mut player: Box<dyn Player<G>> = match settings.player {
        ReferencePlayer::Random => Box::new(RandomPlayer::new(seed)),
        ReferencePlayer::Greedy => Box::new(GreedyPlayer::new(seed)),
    };
    let mv = player.choose(record, None)?;
    Some(record.position().move_text(mv))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(input: &str, player: ReferencePlayer) -> Vec<String> {
        let mut output = Vec::new();
        let settings = PlaySettings {
            player,
            seed: 1,
            fault: None,
            fault_after: 0,
        };
        run_player(settings, input.as_bytes(), &mut output).unwrap();
        String::from_utf8(output)
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
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
    fn greedy_takes_the_queen_and_answers_the_same_every_time() {
        let input = "position fen 4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1\ngo\ngo\n";
        let lines = session(input, ReferencePlayer::Greedy);
        assert_eq!(lines, vec!["bestmove e4d5", "bestmove e4d5"]);
    }

    #[test]
    fn xboard_session() {
        let settings = PlaySettings {
            player: ReferencePlayer::Greedy,
            seed: 1,
            fault: None,
            fault_after: 0,
        };
        let input = "xboard\nprotover 2\nnew\nforce\nsetboard 4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1\n\
                     ping 1\ngo\nusermove e8e7\nusermove zz\nping 2\nquit\n";
        let mut output = Vec::new();
        run_xboard_player(settings, input.as_bytes(), &mut output).unwrap();
        let lines: Vec<String> = String::from_utf8(output)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        assert!(lines[0].starts_with("feature myname=\"Roger greedy\""));
        assert!(lines[0].contains("variants=\"normal,"), "{lines:?}");
        assert_eq!(lines[1], "pong 1");
        assert_eq!(lines[2], "move e4d5");
        // Out of force mode it answers the opponent's move with its own.
        assert!(lines[3].starts_with("move "), "{lines:?}");
        assert_eq!(lines[4], "Illegal move: zz");
        assert_eq!(lines[5], "pong 2");
    }

    #[test]
    fn variants_and_errors() {
        let lines = session(
            "setoption name UCI_Variant value nichess\nsetoption name Hash value 3\n\
             setoption name UCI_Variant value nope\nposition startpos moves zz\n",
            ReferencePlayer::Greedy,
        );
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(lines[0].contains("unknown option 'Hash'"));
        assert!(lines[1].contains("has no value 'nope'"));
        assert!(lines[2].starts_with("info string error: position:"));
    }
}
