//! The xboard protocol (version 2) spoken by a reference player, so that GUIs and referees that
//! speak xboard, the arena's `proto=xboard` among them, can be tested without another engine.
//! It knows the commands a referee needs: `protover`, `new`, `variant`, `force`, `go`,
//! `setboard`, `usermove` (or a bare move), `ping` and `result`; others are ignored. The
//! session ends it on `quit`.

use super::settings::{choose_in, Fault, PlaySettings, NOT_THE_ENGINE};
use crate::engine::OptionSpec;
use crate::protocol::dialect::{Dialect, Language};
use crate::protocol::parse::tokens;
use crate::protocol::print::visible;
use crate::protocol::Output;
use crate::rules::registry::{names_of, AnyGame, Family, DEFAULT_GAME};
use std::io;

/// xboard calls standard chess `normal`.
fn xboard_name(variant: &str) -> &str {
    if variant == "chess" {
        "normal"
    } else {
        variant
    }
}

fn variant_of(xboard_name: &str) -> &str {
    if xboard_name == "normal" {
        "chess"
    } else {
        xboard_name
    }
}

pub struct XboardDialect {
    settings: PlaySettings,
    variant: String,
    /// The `setboard` position, or the start position.
    start: Option<String>,
    moves: Vec<String>,
    /// In force mode it only records moves.
    force: bool,
}

impl XboardDialect {
    pub fn new(settings: PlaySettings) -> XboardDialect {
        XboardDialect {
            settings,
            variant: DEFAULT_GAME.to_string(),
            start: None,
            moves: Vec::new(),
            force: false,
        }
    }

    fn position(&self, moves: &[String]) -> Result<AnyGame, String> {
        AnyGame::new(&self.variant)
            .ok_or_else(|| format!("unknown variant '{}'", self.variant))?
            .with_position(self.start.as_deref(), moves)
    }

    /// The replies to one line, and whether it is now the player's turn to move.
    fn answer(&mut self, tokens: &[&str]) -> (Vec<String>, bool) {
        let mut replies = Vec::new();
        let mut play_now = false;
        match tokens {
            [] => {}
            ["protover", ..] => {
                let names: Vec<&str> = names_of(Family::Turn)
                    .into_iter()
                    .map(xboard_name)
                    .collect();
                replies.push(format!(
                    "feature myname=\"Roger {}\" ping=1 setboard=1 usermove=1 memory=1 colors=0 \
                     sigint=0 sigterm=0 variants=\"{}\" done=1",
                    self.settings.player.name(),
                    names.join(",")
                ));
            }
            ["new", ..] => *self = XboardDialect::new(self.settings),
            ["variant", name, ..] => {
                if AnyGame::new(variant_of(name)).is_some() {
                    self.variant = variant_of(name).to_string();
                    self.start = None;
                    self.moves.clear();
                } else {
                    replies.push(format!("Error (unsupported variant): {}", visible(name)));
                }
            }
            ["force", ..] | ["result", ..] => self.force = true,
            ["go", ..] => {
                self.force = false;
                play_now = true;
            }
            ["setboard", fen @ ..] => {
                let fen = fen.join(" ");
                let game = AnyGame::new(&self.variant).expect("a registered variant");
                match game.with_position(Some(&fen), &[]) {
                    Ok(_) => {
                        self.start = Some(fen);
                        self.moves.clear();
                    }
                    Err(error) => replies.push(format!(
                        "tellusererror Illegal position: {}",
                        visible(&error)
                    )),
                }
            }
            ["ping", n, ..] => replies.push(format!("pong {n}")),
            [first, rest @ ..] => {
                let text = match (*first, rest) {
                    ("usermove", [mv, ..]) => Some(*mv),
                    (mv, []) if mv.len() >= 4 && mv.as_bytes()[1].is_ascii_digit() => Some(mv),
                    _ => None,
                };
                if let Some(text) = text {
                    let mut after = self.moves.clone();
                    after.push(text.to_string());
                    match self.position(&after) {
                        Ok(_) => {
                            self.moves = after;
                            play_now = !self.force;
                        }
                        Err(_) => replies.push(format!("Illegal move: {}", visible(text))),
                    }
                }
            }
        }
        (replies, play_now)
    }

    /// The player's move, played on its own record.
    fn play(&mut self) -> Option<String> {
        let fault = self.settings.fault_at(self.moves.len() as u32);
        if let Some(fault) = fault {
            fault.strike_process();
        }
        if fault == Some(Fault::Illegal) {
            return Some("move a1a1".to_string());
        }
        let current = self.position(&self.moves).expect("the moves were checked");
        let best = choose_in(&current, self.settings)?;
        self.moves.push(best.clone());
        Some(format!("move {best}"))
    }
}

impl Dialect for XboardDialect {
    fn family(&self) -> Family {
        Family::Turn
    }

    fn language(&self) -> Language {
        Language::Xboard
    }

    /// xboard has no options to announce: the variant comes with `variant`.
    fn option_specs(&self) -> Vec<OptionSpec> {
        Vec::new()
    }

    fn set_option(&mut self, name: &str, _value: Option<&str>) -> Result<Option<String>, String> {
        Err(format!(
            "unknown option '{name}' (xboard sets the variant with 'variant')"
        ))
    }

    /// Never printed: xboard switches no family (its `variant` answers nothing).
    fn announcement(&self) -> String {
        format!("variant {}", self.variant)
    }

    fn display(&self) -> String {
        self.position(&self.moves)
            .map(|game| game.display())
            .unwrap_or_default()
    }

    fn bench_refusal(&self) -> Option<String> {
        Some(NOT_THE_ENGINE.to_string())
    }

    fn handle_line(&mut self, line: &str, out: &Output) -> io::Result<()> {
        let tokens: Vec<&str> = tokens(line).collect();
        let (mut replies, play_now) = self.answer(&tokens);
        if play_now {
            replies.extend(self.play());
        }
        out.lines(replies)
    }

    fn stop(&mut self) {}

    fn finish(&mut self) {}
}
