//! The bad lines of the generator: commands with a corrupted field, unknown words, and valid
//! commands whose text is broken.

use super::corrupt::{self, pick, WRONG_SEPARATORS};
use super::generate::{position_tokens, words, Generator, Planned};
use super::model;
use super::step::Expect;

impl Generator {
    pub(super) fn plan_bad(&mut self) -> Planned {
        match self.rng.index(100) {
            0..=19 => self.bad_fen(),
            20..=34 => self.bad_move(),
            35..=39 => {
                let text = *pick(
                    &mut self.rng,
                    &[
                        "position",
                        "position foo",
                        "position fen",
                        "position startpos foo",
                        "position startpos e2e4",
                        "position moves e2e4",
                        "position Startpos",
                        "position startpos moves moves",
                    ],
                );
                Planned::bad(words(text), "position syntax")
            }
            40..=54 => self.bad_go(),
            55..=64 => self.bad_setoption(),
            65..=74 => {
                let word = *pick(
                    &mut self.rng,
                    &[
                        "xyzzy",
                        "register",
                        "ucinewgam",
                        "isready2",
                        "setoptions",
                        "info",
                        "bestmove",
                        "readyok",
                        "go2",
                        "uci_newgame",
                        "STOP",
                        "Go",
                        "Position",
                        "quit!",
                        "perft",
                        "eval",
                        "flip",
                        "help",
                        "?",
                        "-",
                        "0",
                    ],
                );
                let mut tokens = words(word);
                if self.rng.index(2) == 0 {
                    tokens.extend(words("depth 3"));
                }
                Planned::bad(tokens, "unknown command")
            }
            75..=82 => {
                let command = *pick(
                    &mut self.rng,
                    &[
                        "uci",
                        "isready",
                        "ucinewgame",
                        "stop",
                        "ponderhit",
                        "quit",
                        "d",
                    ],
                );
                let extra = *pick(&mut self.rng, &["x", "now", "1", "on", "isready"]);
                Planned::bad(words(&format!("{command} {extra}")), "extra token")
            }
            83..=86 => {
                let text = *pick(
                    &mut self.rng,
                    &[
                        "debug maybe",
                        "debug on off",
                        "bench foo",
                        "bench depth",
                        "bench depth 0",
                        "bench depth 125",
                        "bench depth x",
                        "bench depth 3 4",
                        "bench depth -1",
                        "bench depth 2147483648",
                    ],
                );
                Planned::bad(words(text), "debug or bench arguments")
            }
            _ => {
                // A valid command whose text is then broken (see `lay_out`).
                let mut planned = match self.rng.index(4) {
                    0 => self.plan_position(),
                    1 => self.plan_go(),
                    2 => self.plan_setoption(),
                    _ => self.plan_simple(),
                };
                if planned.tokens.is_empty() {
                    planned.tokens = words("isready");
                }
                planned.expect = Expect::Bad;
                planned.kind = "broken text";
                planned
            }
        }
    }

    fn bad_fen(&mut self) -> Planned {
        let kind = self.model.kind();
        let base = if self.rng.index(2) == 0 {
            model::fen(&self.model.game)
        } else {
            self.some_fen()
        };
        let (fen, _) = corrupt::corrupt_fen(&base, kind, &mut self.rng);
        let mut tokens = words("position fen");
        tokens.extend(words(&fen));
        if self.rng.index(3) == 0 {
            tokens.push("moves".into());
            tokens.extend(model::legal_moves(&self.model.game).into_iter().take(1));
        }
        Planned::bad(tokens, "bad FEN")
    }

    fn bad_move(&mut self) -> Planned {
        let kind = self.model.kind();
        let fen = (self.rng.index(3) == 0).then(|| self.some_fen());
        let Ok(mut game) = model::set_up(kind, fen.as_deref(), &[]) else {
            return self.bad_fen();
        };
        let plies = self.some_plies().min(40);
        let mut moves = model::playout(&mut game, plies, &mut self.rng);
        let legal = model::legal_moves(&game);
        let label = if legal.is_empty() {
            moves.push(corrupt::random_move(kind, &mut self.rng));
            "move after the end"
        } else if self.rng.index(5) < 2 {
            moves.push(corrupt::malformed_move(kind, &mut self.rng));
            "malformed move"
        } else {
            let illegal = (0..50)
                .map(|_| corrupt::random_move(kind, &mut self.rng))
                .find(|text| !legal.contains(text));
            match illegal {
                Some(text) => moves.push(text),
                None => moves.push(corrupt::malformed_move(kind, &mut self.rng)),
            }
            "illegal move"
        };
        if self.rng.index(4) == 0 {
            moves.extend(legal.into_iter().take(2));
        }
        let mut tokens = position_tokens(fen.as_deref());
        tokens.push("moves".into());
        tokens.extend(moves);
        Planned::bad(tokens, label)
    }

    fn bad_go(&mut self) -> Planned {
        let keywords = [
            "wtime",
            "btime",
            "winc",
            "binc",
            "movestogo",
            "depth",
            "nodes",
            "movetime",
            "mate",
            "perft",
        ];
        let (text, kind) = match self.rng.index(7) {
            0 => {
                let word = *pick(
                    &mut self.rng,
                    &[
                        "depht",
                        "time",
                        "inc",
                        "movestogo2",
                        "Depth",
                        "infinte",
                        "-depth",
                        "x",
                    ],
                );
                (format!("go {word} 3"), "go: unknown parameter")
            }
            1 => {
                let keyword = *pick(&mut self.rng, &keywords);
                let prefix = *pick(&mut self.rng, &["", "depth 2 ", "infinite "]);
                (format!("go {prefix}{keyword}"), "go: missing value")
            }
            2 => {
                let keyword = *pick(&mut self.rng, &keywords);
                let value = *pick(
                    &mut self.rng,
                    &["x", "1.5", "1e3", "0x10", "--1", "five", "3a", "1_000", "½"],
                );
                (format!("go {keyword} {value}"), "go: not an integer")
            }
            3 => {
                let text = *pick(
                    &mut self.rng,
                    &[
                        "depth 125",
                        "depth -1",
                        "depth 4294967295",
                        "depth 2147483648",
                        "depth 4294967296",
                        "mate 63",
                        "mate -1",
                        "mate 2147483648",
                        "perft 0",
                        "perft 65",
                        "perft 10000",
                        "perft -1",
                        "nodes -1",
                        "movestogo -1",
                        "nodes 99999999999999999999",
                        "movetime 99999999999999999999",
                        "wtime -99999999999999999999",
                        "btime 9223372036854775808",
                    ],
                );
                (format!("go {text}"), "go: out of range")
            }
            4 => {
                let text = *pick(
                    &mut self.rng,
                    &[
                        "go searchmoves",
                        "go searchmoves depth 2",
                        "go depth 1 searchmoves",
                    ],
                );
                (text.to_string(), "go: empty searchmoves")
            }
            5 => {
                let kind = self.model.kind();
                let legal = model::legal_moves(&self.model.game);
                let bad = (0..50)
                    .map(|_| corrupt::random_move(kind, &mut self.rng))
                    .find(|text| !legal.contains(text))
                    .unwrap_or_else(|| corrupt::malformed_move(kind, &mut self.rng));
                (
                    format!("go searchmoves {bad} depth 1"),
                    "go: illegal searchmoves",
                )
            }
            _ => {
                let text = *pick(
                    &mut self.rng,
                    &[
                        "go perft 2 depth 3",
                        "go depth 1 perft 1",
                        "go perft 1 infinite",
                    ],
                );
                (text.to_string(), "go: perft with others")
            }
        };
        Planned::bad(words(&text), kind)
    }

    fn bad_setoption(&mut self) -> Planned {
        let (text, kind) = match self.rng.index(9) {
            0 => {
                let text = *pick(
                    &mut self.rng,
                    &[
                        "setoption",
                        "setoption foo",
                        "setoption Name Hash value 1",
                        "setoption name",
                        "setoption name value 3",
                    ],
                );
                (text.to_string(), "setoption syntax")
            }
            1 => {
                let name = *pick(
                    &mut self.rng,
                    &[
                        "Contempt",
                        "Skill Levels",
                        "UCI_Chess960",
                        "Clear Hash",
                        "SyzygyPath",
                        "Hashh",
                        "Thread",
                        "MultiPV2",
                        "Overhead",
                    ],
                );
                (
                    format!("setoption name {name} value 1"),
                    "setoption: unknown option",
                )
            }
            2 => {
                let name = *pick(
                    &mut self.rng,
                    &["Hash", "Threads", "MultiPV", "Ponder", "UCI_Variant"],
                );
                let tail = *pick(&mut self.rng, &["", " value"]);
                (
                    format!("setoption name {name}{tail}"),
                    "setoption: no value",
                )
            }
            3 => {
                let name = *pick(
                    &mut self.rng,
                    &["Hash", "Threads", "MultiPV", "Move Overhead"],
                );
                let value = *pick(
                    &mut self.rng,
                    &[
                        "x",
                        "1.5",
                        "1e3",
                        "16MB",
                        "0x10",
                        "--3",
                        "ten",
                        "1 2",
                        "99999999999999999999",
                    ],
                );
                (
                    format!("setoption name {name} value {value}"),
                    "setoption: not an integer",
                )
            }
            4 | 5 => {
                let text = *pick(
                    &mut self.rng,
                    &[
                        "Hash value 0",
                        "Hash value 65537",
                        "Hash value -1",
                        "Threads value 0",
                        "Threads value 257",
                        "MultiPV value 0",
                        "MultiPV value 257",
                        "Move Overhead value -1",
                        "Move Overhead value 5001",
                    ],
                );
                (format!("setoption name {text}"), "setoption: out of range")
            }
            6 => {
                let value = *pick(&mut self.rng, &["maybe", "1", "yes", "on", "truefalse"]);
                (
                    format!("setoption name Ponder value {value}"),
                    "setoption: bad check",
                )
            }
            _ => {
                let value = *pick(
                    &mut self.rng,
                    &[
                        "shogi",
                        "chess960",
                        "crazyhouse",
                        "standard",
                        "nichess2",
                        "mill",
                        "real-time",
                        "mega chess",
                    ],
                );
                // A name the registry learns later must not count as bad.
                debug_assert!(crate::rules::registry::find(value).is_none());
                (
                    format!("setoption name UCI_Variant value {value}"),
                    "setoption: bad variant",
                )
            }
        };
        Planned::bad(words(&text), kind)
    }

    /// The tokens as a line that must be refused, and how it was broken.
    pub(super) fn break_text(&mut self, tokens: &[String]) -> (Vec<u8>, &'static str) {
        let mut tokens: Vec<Vec<u8>> = tokens.iter().map(|t| t.as_bytes().to_vec()).collect();
        let at = self.rng.index(tokens.len());
        let join = |tokens: &[Vec<u8>]| tokens.join(&b' ');
        match self.rng.index(5) {
            0 => {
                let separator = pick(&mut self.rng, WRONG_SEPARATORS).to_string();
                if tokens.len() < 2 {
                    tokens[0].extend(separator.bytes());
                    return (join(&tokens), "wrong separator");
                }
                let gap = 1 + self.rng.index(tokens.len() - 1);
                let mut line = join(&tokens[..gap]);
                line.extend(separator.bytes());
                line.extend(join(&tokens[gap..]));
                (line, "wrong separator")
            }
            1 => {
                let byte = 0x80 + self.rng.index(0x80) as u8;
                let inside = self.rng.index(tokens[at].len() + 1);
                tokens[at].insert(inside, byte);
                (join(&tokens), "non-UTF-8")
            }
            2 => {
                let control = *pick(&mut self.rng, &[0u8, 1, 0x1b, 0x7f, 0x0b, 0x0c]);
                let inside = self.rng.index(tokens[at].len() + 1);
                tokens[at].insert(inside, control);
                (join(&tokens), "control character")
            }
            3 => {
                tokens[0].make_ascii_uppercase();
                (join(&tokens), "capitals")
            }
            _ => {
                let mut line = join(&tokens);
                line.push(b'\r');
                (line, "stray carriage return")
            }
        }
    }
}
