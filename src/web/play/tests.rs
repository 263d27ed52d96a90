//! The play session driven as the page drives it, without a socket: its messages back are
//! read from the outbox's channel.

use super::*;
use crate::web::session::Session;
use serde_json::Value;
use std::time::Duration;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver};

struct Page {
    session: PlaySession,
    out: Outbox,
    inbox: UnboundedReceiver<String>,
    /// Every message since the last one sent: `poll_until` looks here first, so a state that
    /// arrived with an earlier answer (Roger's move landing during `send`) is never lost.
    since_last_send: Vec<Value>,
}

impl Page {
    fn new() -> Page {
        let (sender, inbox) = unbounded_channel();
        Page {
            session: PlaySession::new(),
            out: Outbox::new(sender),
            inbox,
            since_last_send: Vec::new(),
        }
    }

    /// Sends a message and polls once, as the session's thread does; returns what came back.
    fn send(&mut self, message: Value) -> Vec<Value> {
        self.since_last_send.clear();
        self.session.message(message, &self.out);
        Session::poll(&mut self.session, &self.out);
        self.received()
    }

    fn received(&mut self) -> Vec<Value> {
        let mut messages = Vec::new();
        while let Ok(text) = self.inbox.try_recv() {
            messages.push(serde_json::from_str(&text).unwrap());
        }
        self.since_last_send.extend(messages.iter().cloned());
        messages
    }

    /// The first state since the last message sent that satisfies `test`, polling the session
    /// until one comes. The bound is only a guard against a hung session, far above any wait.
    fn poll_until(&mut self, test: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(120);
        let mut examined = 0;
        loop {
            let unseen = &self.since_last_send[examined..];
            if let Some(at) = unseen.iter().position(|m| m["type"] == "state" && test(m)) {
                // What came after the match stays for the next wait.
                return self
                    .since_last_send
                    .drain(..=examined + at)
                    .next_back()
                    .unwrap();
            }
            examined = self.since_last_send.len();
            assert!(
                Instant::now() < deadline,
                "no such state within two minutes"
            );
            std::thread::sleep(Duration::from_millis(5));
            Session::poll(&mut self.session, &self.out);
            self.received();
        }
    }
}

fn last_state(messages: &[Value]) -> Value {
    messages
        .iter()
        .rev()
        .find(|m| m["type"] == "state")
        .cloned()
        .unwrap_or_else(|| panic!("no state in {messages:?}"))
}

fn errors(messages: &[Value]) -> Vec<String> {
    messages
        .iter()
        .filter(|m| m["type"] == "error")
        .map(|m| m["error"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn bad_messages_are_answered_and_change_nothing() {
    let mut page = Page::new();
    let first = errors(&page.send(json!({"type": "move", "move": "e2e4"})));
    assert!(first[0].contains("no game yet"), "{first:?}");
    // As docs/web.md shows it.
    assert_eq!(
        errors(&page.send(json!({"type": "fly"})))[0],
        "unknown message type \"fly\" (unknown variant `fly`, expected one of `new`, `move`, \
         `takeback`, `resign`, `offer_draw`, `pgn`, `state`, `position`, `analyse`)"
    );
    let state = last_state(&page.send(json!({"type": "new", "game": "chess", "movetime": 20})));
    let fen = state["fen"].clone();
    for (message, needle) in [
        (json!({"type": "move"}), "move: missing field `move`"),
        (
            json!({"type": "move", "move": 42}),
            "move: invalid type: integer `42`",
        ),
        (json!({"type": "move", "move": "e2e5"}), "not a legal move"),
        (json!({"type": "move", "move": "zz"}), "not a move"),
        (json!({"type": "move", "move": "é2é4"}), "not a move"),
        (json!({"type": "new", "fen": "8/8/8 w - -"}), "invalid FEN"),
        (
            json!({"type": "new", "game": "go"}),
            "new: unknown variant `go`",
        ),
        (json!({"type": "takeback"}), "no move to take back"),
        (
            json!({"type": "position", "ply": 1}),
            "position: ply 1 is past the game's last move (0)",
        ),
        (json!({"type": "position"}), "position: missing field `ply`"),
    ] {
        let answer = page.send(message.clone());
        let found = errors(&answer);
        assert!(
            found.len() == 1 && found[0].contains(needle),
            "{message}: {answer:?}"
        );
        assert_eq!(last_state(&page.send(json!({"type": "state"})))["fen"], fen);
    }
}

#[test]
fn roger_answers_and_a_takeback_undoes_the_pair() {
    let mut page = Page::new();
    page.send(json!({"type": "new", "game": "chess", "skill": 0, "movetime": 30}));
    let after = page.send(json!({"type": "move", "move": "e2e4"}));
    let state = last_state(&after);
    assert_eq!(state["moves"][0]["san"], "e4");
    assert_eq!(state["legal"], json!([]));
    let answered = page.poll_until(|s| s["moves"].as_array().unwrap().len() == 2);
    assert_eq!(answered["moves"][1]["by"], "roger");
    assert!(answered["your_turn"].as_bool().unwrap());
    assert!(answered["legal"].as_array().unwrap().len() > 10);
    assert_eq!(
        answered["last_move"]["to"],
        answered["moves"][1]["text"].as_str().unwrap()[2..4]
    );
    let back = last_state(&page.send(json!({"type": "takeback"})));
    assert_eq!(back["moves"], json!([]));
    assert_eq!(
        back["fen"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    assert_eq!(back["clocks"]["running"], "white");
    // Before Roger answers, a takeback undoes the one move: the search is stopped first.
    page.session
        .message(json!({"type": "move", "move": "d2d4"}), &page.out);
    page.session.message(json!({"type": "takeback"}), &page.out);
    let state = last_state(&page.received());
    assert_eq!(state["moves"], json!([]));
    assert!(!state["thinking"].as_bool().unwrap());
    // Playing Black, nothing of yours to take back while Roger thinks on its first move.
    page.send(json!({"type": "new", "side": "black", "skill": 0, "movetime": 30}));
    let refused = page.send(json!({"type": "takeback"}));
    assert!(
        errors(&refused)[0].contains("no move to take back"),
        "{refused:?}"
    );
    let answered = page.poll_until(|s| s["moves"].as_array().unwrap().len() == 1);
    assert_eq!(answered["moves"][0]["by"], "roger");
    let pgn = page.send(json!({"type": "pgn"}));
    assert!(
        pgn[0]["pgn"].as_str().unwrap().contains("[Result \"*\"]"),
        "{pgn:?}"
    );
}

#[test]
fn a_flag_falls_on_the_server_clock() {
    let mut page = Page::new();
    page.send(json!({"type": "new", "game": "nichess", "minutes": 0.002}));
    let state = page.poll_until(|s| !s["result"].is_null());
    assert_eq!(state["result"]["result"], "0-1");
    assert_eq!(state["result"]["reason"], "white lost on time");
    assert_eq!(state["clocks"]["white"], 0);
    assert_eq!(state["clocks"]["running"], Value::Null);
    assert!(errors(&page.send(json!({"type": "move", "move": "e2e3"})))[0].contains("over"));
}

#[test]
fn chess_states_name_each_legal_move_in_standard_notation_too() {
    let mut page = Page::new();
    let fen = "r3k3/8/8/8/8/8/8/R3K2R w KQq - 0 1";
    let state = last_state(&page.send(json!({"type": "new", "game": "chess", "fen": fen})));
    let legal = state["legal"].as_array().unwrap();
    let san = state["legal_san"].as_array().unwrap();
    assert_eq!(legal.len(), san.len());
    let named = |text: &str| san[legal.iter().position(|m| m == text).unwrap()].clone();
    assert_eq!(named("e1g1"), "O-O");
    assert_eq!(named("a1a8"), "Rxa8+");
    assert_eq!(named("h1h5"), "Rh5");
    let nichess = last_state(&page.send(json!({"type": "new", "game": "nichess"})));
    assert_eq!(nichess["legal_san"], json!([]));
}

#[test]
fn chess960_starts_from_its_number_or_at_random_and_castles_king_takes_rook() {
    let mut page = Page::new();
    let state = last_state(&page.send(json!({"type": "new", "game": "chess960", "position": 0})));
    assert_eq!(state["chess960"], 0);
    assert_eq!(state["game"], "chess");
    assert!(state["start_fen"]
        .as_str()
        .unwrap()
        .starts_with("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq"));
    let random = last_state(&page.send(json!({"type": "new", "game": "chess960"})));
    let number = random["chess960"].as_u64().unwrap();
    assert!(number < 960, "{random}");
    let pgn = page.send(json!({"type": "pgn"}));
    let pgn = pgn[0]["pgn"].as_str().unwrap();
    assert!(
        pgn.contains("[Variant \"Chess960\"]") && pgn.contains("[FEN "),
        "{pgn}"
    );
    // From a Chess960 position castling is the king moving onto its own rook, and it plays.
    let fen = "4k3/pppppppp/8/8/8/8/8/1KR5 w C - 0 1";
    let state = last_state(&page.send(json!({"type": "new", "game": "chess", "fen": fen})));
    let legal = state["legal"].as_array().unwrap();
    let san = state["legal_san"].as_array().unwrap();
    let castle = legal.iter().position(|m| m == "b1c1").unwrap();
    assert_eq!(san[castle], "O-O");
    let after = page.send(json!({"type": "move", "move": "b1c1"}));
    assert!(errors(&after).is_empty(), "{after:?}");
    let refused = page.send(json!({"type": "new", "game": "chess960", "position": 960}));
    assert!(errors(&refused)[0].contains("from 0 to 959"), "{refused:?}");
}

#[test]
fn a_nichess_throw_sends_its_splash_and_health() {
    let mut page = Page::new();
    let fen = "k7/8/6mn/6Nr/7p/8/4M3/3QK3 w - - 0 1";
    let state = last_state(&page.send(json!({"type": "new", "game": "nichess", "fen": fen})));
    assert!(state["legal"].as_array().unwrap().contains(&json!("d1h5")));
    let state = last_state(&page.send(json!({"type": "move", "move": "d1h5"})));
    assert_eq!(state["splash"], json!(["g6", "h4", "h6"]));
    let h6 = state["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["square"] == "h6")
        .unwrap();
    assert_eq!((h6["hp"].clone(), h6["ap"].clone()), (json!(40), json!(60)));
}

#[test]
fn millennium_shows_pools_and_the_fallen_keystone() {
    let mut page = Page::new();
    // White's rook takes the black king on e8: Black's k8 king is then royal.
    let fen = "4k5k4/15/15/15/15/15/15/4R4K1K3 w - - 0 1 Q";
    let state = last_state(
        &page.send(json!({"type": "new", "game": "millennium", "fen": fen,
        "movetime": 20})),
    );
    assert_eq!(state["files"], 15);
    assert_eq!(
        state["millennium"]["pools"],
        json!({"white": "Q", "black": ""})
    );
    assert_eq!(state["millennium"]["kings"]["black"]["royal"], false);
    let state = last_state(&page.send(json!({"type": "move", "move": "e1e8"})));
    let black = &state["millennium"]["kings"]["black"];
    assert_eq!(black["royal"], true);
    assert_eq!(black["squares"], json!(["k8"]));
    assert_eq!(black["keystone_fell_on"], "e8");
    assert_eq!(state["millennium"]["pools"]["black"], "");
    // Stepping back to the start: both black kings again, neither fallen.
    let start = &page.send(json!({"type": "position", "ply": 0}))[0];
    assert_eq!(start["type"], "position");
    assert_eq!(start["fen"], fen);
    let black = &start["millennium"]["kings"]["black"];
    assert_eq!(black["squares"], json!(["e8", "k8"]));
    assert_eq!(black["keystone_fell_on"], Value::Null);
}

#[test]
fn any_earlier_position_is_sent_for_stepping_back() {
    let mut page = Page::new();
    let fen = "k7/8/6mn/6Nr/7p/8/4M3/3QK3 w - - 0 1";
    page.send(json!({"type": "new", "game": "nichess", "fen": fen, "movetime": 20}));
    let played = last_state(&page.send(json!({"type": "move", "move": "d1h5"})));
    let answered = page.poll_until(|s| s["moves"].as_array().unwrap().len() == 2);
    // Each ply's position is the one the state showed right after it.
    let first = &page.send(json!({"type": "position", "ply": 1}))[0];
    assert_eq!(first["ply"], 1);
    for field in ["fen", "pieces", "last_move", "splash"] {
        assert_eq!(first[field], played[field], "{field}");
    }
    let last = &page.send(json!({"type": "position", "ply": 2}))[0];
    for field in ["fen", "pieces", "last_move"] {
        assert_eq!(last[field], answered[field], "{field}");
    }
    let start = &page.send(json!({"type": "position", "ply": 0}))[0];
    assert_eq!(start["fen"], fen);
    assert_eq!(start["last_move"], Value::Null);
    assert_eq!(start["splash"], json!([]));
    // Asking changes nothing of the game.
    let now = last_state(&page.send(json!({"type": "state"})));
    assert_eq!(now["fen"], answered["fen"]);
}

impl Page {
    /// Polls until an `analysis` message of the position `fen` with `lines` lines comes.
    fn analysis_of(&mut self, fen: &str, lines: usize) -> Value {
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            let found = self.received().into_iter().find(|m| {
                m["type"] == "analysis"
                    && m["fen"] == fen
                    && m["lines"].as_array().unwrap().len() == lines
            });
            if let Some(message) = found {
                return message;
            }
            assert!(
                Instant::now() < deadline,
                "no analysis of {fen} within two minutes"
            );
            std::thread::sleep(Duration::from_millis(5));
            Session::poll(&mut self.session, &self.out);
        }
    }
}

#[test]
fn an_analysis_lets_either_side_move_and_streams_roger_s_lines() {
    let mut page = Page::new();
    let start = last_state(&page.send(json!({"type": "analyse", "lines": 2, "moves": ["e2e4"]})));
    assert_eq!(start["analysis"], 2);
    assert_eq!(start["moves"][0]["text"], "e2e4");
    assert_eq!(start["clocks"]["running"], Value::Null);
    // Black to move, and it is the player's move all the same.
    assert!(start["your_turn"].as_bool().unwrap());
    let fen = start["fen"].as_str().unwrap().to_string();
    let analysis = page.analysis_of(&fen, 2);
    let lines = analysis["lines"].as_array().unwrap();
    assert_eq!(
        (lines[0]["multipv"].clone(), lines[1]["multipv"].clone()),
        (json!(1), json!(2))
    );
    // Two different first moves, each a legal move of Black's.
    let first = |line: &Value| line["pv"][0].as_str().unwrap().to_string();
    assert_ne!(first(&lines[0]), first(&lines[1]));
    for line in lines {
        assert!(
            start["legal"]
                .as_array()
                .unwrap()
                .contains(&json!(first(line))),
            "{line}"
        );
    }
    // Black's move, then White's: both the player's; Roger never moves.
    let after = last_state(&page.send(json!({"type": "move", "move": "e7e5"})));
    assert_eq!(after["moves"].as_array().unwrap().len(), 2);
    let after = last_state(&page.send(json!({"type": "move", "move": "g1f3"})));
    assert!(after["your_turn"].as_bool().unwrap());
    let fen = after["fen"].as_str().unwrap().to_string();
    page.analysis_of(&fen, 2);
    assert!(after["moves"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["by"] == "you"));
    // A takeback takes back one ply.
    let back = last_state(&page.send(json!({"type": "takeback"})));
    assert_eq!(back["moves"].as_array().unwrap().len(), 2);
    // A game afterwards is a game again: Roger answers.
    page.send(json!({"type": "new", "skill": 0, "movetime": 20}));
    page.send(json!({"type": "move", "move": "d2d4"}));
    let answered = page.poll_until(|s| s["moves"].as_array().unwrap().len() == 2);
    assert_eq!(answered["moves"][1]["by"], "roger");
    assert_eq!(answered["analysis"], Value::Null);
}

#[test]
fn a_bad_analysis_request_says_why_and_changes_nothing() {
    let mut page = Page::new();
    for (message, expected) in [
        (
            json!({"type": "analyse", "lines": 0}),
            "analyse: 'lines' is 0; expected a whole number from 1 to 5",
        ),
        (
            json!({"type": "analyse", "moves": ["e2e4", "e2e4"]}),
            "analyse: move 2 'e2e4'",
        ),
        (
            json!({"type": "analyse", "fen": "8/8 w"}),
            "analyse: invalid FEN",
        ),
        (
            json!({"type": "analyse", "game": "go"}),
            "analyse: unknown variant `go`",
        ),
    ] {
        let answer = page.send(message.clone());
        let found = errors(&answer);
        assert!(
            found.len() == 1 && found[0].starts_with(expected),
            "{message}: {answer:?}"
        );
    }
    assert!(errors(&page.send(json!({"type": "state"})))[0].contains("no game yet"));
}

#[test]
fn roger_takes_a_draw_only_when_it_does_not_stand_better() {
    let mut page = Page::new();
    // Roger (Black) has a bare king against a queen: it accepts once it has looked.
    let fen = "4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1";
    page.send(json!({"type": "new", "fen": fen, "movetime": 50}));
    let early = page.send(json!({"type": "offer_draw"}));
    assert_eq!(early[0]["accepted"], false, "{early:?}");
    assert_eq!(early[0]["why"], "Roger has not looked at the position yet");
    page.send(json!({"type": "move", "move": "d2d3"}));
    page.poll_until(|s| s["moves"].as_array().unwrap().len() == 2);
    let answer = page.send(json!({"type": "offer_draw"}));
    assert_eq!(answer[0]["type"], "draw_offer");
    assert_eq!(answer[0]["accepted"], true, "{answer:?}");
    let state = last_state(&answer);
    assert_eq!(state["result"]["result"], "1/2-1/2");
    assert_eq!(state["result"]["reason"], "draw agreed");
    assert!(errors(&page.send(json!({"type": "offer_draw"})))[0].contains("over"));
    // Roger (White) with the queen declines, and the game goes on.
    page.send(
        json!({"type": "new", "fen": "4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1", "side": "black",
        "movetime": 50}),
    );
    page.poll_until(|s| s["moves"].as_array().unwrap().len() == 1);
    let answer = page.send(json!({"type": "offer_draw"}));
    assert_eq!(answer[0]["accepted"], false, "{answer:?}");
    assert_eq!(answer[0]["why"], "Roger thinks it stands better");
    assert!(last_state(&page.send(json!({"type": "state"})))["result"].is_null());
}

#[test]
fn a_line_of_an_older_depth_that_repeats_a_newer_line_s_move_is_left_out() {
    let line = |multipv: u32, depth: u32, pv: &[&str]| {
        Some(json!({ "multipv": multipv, "depth": depth, "score": 0, "pv": pv }))
    };
    // Depth 9's best line has come; depth 8's second line still stands, with the same move.
    let lines = [
        line(1, 9, &["e7e5", "g1f3"]),
        line(2, 8, &["e7e5", "d2d4"]),
        line(3, 8, &["c7c5"]),
        line(4, 8, &[]),
    ];
    let shown = super::distinct_lines(&lines);
    let firsts: Vec<&Value> = shown.iter().map(|l| &l["pv"][0]).collect();
    assert_eq!(firsts, [&json!("e7e5"), &json!("c7c5"), &Value::Null]);
    // Once depth 9's second line comes, both show.
    let lines = [line(1, 9, &["e7e5"]), line(2, 9, &["c7c5"])];
    assert_eq!(super::distinct_lines(&lines).len(), 2);
}
