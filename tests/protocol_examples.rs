//! Replays every worked session of protocol.md through the real `roger` binary, as a GUI would:
//! each line the GUI sends is sent only after the replies shown before it have arrived, and the
//! replies are compared with the document, so the examples cannot go stale.
//!
//! The convention (described in protocol.md's "Worked sessions" section): a fenced block whose
//! info string is `uci-session` is one session with a fresh engine. `> text` is a line the GUI
//! sends; `< text` a line Roger answers (`<` alone: an empty line); in a reply, `<*>` stands for
//! any text (times, speeds, the moves of a timed search); `< ...` stands for any number of lines,
//! up to the next reply shown. Every other fenced block must be marked as not a session (`text`,
//! `sh`, `python`), so no example escapes the replay.

use std::time::Duration;

use crate::common;
use common::Roger;

const PROTOCOL: &str = include_str!("../protocol.md");
const SESSION: &str = "uci-session";
const NOT_SESSIONS: [&str; 3] = ["text", "sh", "python"];
/// Bound for each awaited line: generous, as some examples search or run the bench.
const REPLY: Duration = Duration::from_secs(120);

#[derive(Debug, PartialEq)]
enum Step {
    /// A line the GUI sends.
    Send(String),
    /// A reply line; `<*>` matches any text.
    Reply(String),
    /// Any number of reply lines, up to the next `Reply`.
    AnyLines,
}

struct Session {
    /// The 1-based line of protocol.md where the block opens.
    line: usize,
    steps: Vec<Step>,
}

/// The worked sessions of a Markdown text; panics on a fenced block that is neither a session
/// nor marked as something else, and on a session line that follows no convention.
fn sessions(markdown: &str) -> Vec<Session> {
    let mut found = Vec::new();
    let mut open: Option<(usize, String, Vec<Step>)> = None;
    for (index, text) in markdown.lines().enumerate() {
        let line = index + 1;
        let Some(info) = text.trim_start().strip_prefix("```") else {
            if let Some((_, kind, steps)) = open.as_mut() {
                if kind == SESSION {
                    steps.push(step(text, line));
                } else {
                    assert!(
                        !text.starts_with("> "),
                        "protocol.md:{line}: a line sent by the GUI in a block marked {kind:?}; \
                         mark the block {SESSION} so the replay covers it"
                    );
                }
            }
            continue;
        };
        match open.take() {
            Some((start, kind, steps)) => {
                if kind == SESSION {
                    found.push(Session { line: start, steps });
                }
            }
            None => {
                let kind = info.trim().to_string();
                assert!(
                    kind == SESSION || NOT_SESSIONS.contains(&kind.as_str()),
                    "protocol.md:{line}: a fenced block marked {kind:?}; mark it {SESSION} \
                     (replayed) or one of {NOT_SESSIONS:?}"
                );
                open = Some((line, kind, Vec::new()));
            }
        }
    }
    assert!(open.is_none(), "protocol.md ends inside a fenced block");
    found
}

fn step(text: &str, line: usize) -> Step {
    if let Some(sent) = text.strip_prefix("> ") {
        Step::Send(sent.to_string())
    } else if text == "< ..." {
        Step::AnyLines
    } else if text == "<" {
        Step::Reply(String::new())
    } else if let Some(reply) = text.strip_prefix("< ") {
        Step::Reply(reply.to_string())
    } else {
        panic!("protocol.md:{line}: {text:?} in a session is neither '> ' (sent) nor '< ' (reply)")
    }
}

/// Whether `line` matches `pattern`, where each `<*>` of the pattern matches any text.
fn matches(pattern: &str, line: &str) -> bool {
    let mut parts = pattern.split("<*>");
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = line.strip_prefix(first) else {
        return false;
    };
    let mut parts: Vec<&str> = parts.collect();
    let Some(last) = parts.pop() else {
        return rest.is_empty();
    };
    for part in parts {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// Plays one session and panics, naming the block, at the first reply that differs.
fn replay(session: &Session) {
    let place = format!("the session at protocol.md:{}", session.line);
    let mut roger = Roger::start();
    let mut any_lines = false;
    let mut received = Vec::new();
    let mut quit = false;
    let mut await_reply = |roger: &mut Roger, pattern: &str, any_lines: &mut bool| loop {
        let line = roger.next_line(REPLY).unwrap_or_else(|| {
            panic!("{place}: roger ended before {pattern:?}; got {received:#?}")
        });
        received.push(line.clone());
        if matches(pattern, &line) {
            *any_lines = false;
            return;
        }
        assert!(
            *any_lines,
            "{place}: expected {pattern:?}, got {line:?}; the replies so far: {received:#?}"
        );
    };
    for step in &session.steps {
        match step {
            Step::Send(line) => {
                roger.send(line);
                quit = line == "quit";
            }
            Step::Reply(pattern) => await_reply(&mut roger, pattern, &mut any_lines),
            Step::AnyLines => any_lines = true,
        }
    }
    if quit {
        // Nothing more than the document shows, then the end of the output.
        while let Some(line) = roger.next_line(REPLY) {
            assert!(any_lines, "{place}: unexpected {line:?} after quit");
        }
        roger.assert_exits(REPLY);
    } else {
        // Nothing more than the document shows before the answer to `isready`.
        roger.send("isready");
        await_reply(&mut roger, "readyok", &mut any_lines);
    }
}

#[test]
fn every_worked_session_of_protocol_md_replays() {
    let sessions = sessions(PROTOCOL);
    assert!(
        sessions.len() >= 8,
        "only {} sessions found in protocol.md",
        sessions.len()
    );
    for session in &sessions {
        // Names the session on the output, should a read time out inside the driver.
        println!("replaying the session at protocol.md:{}", session.line);
        replay(session);
    }
}

#[test]
fn the_session_convention_reads_what_it_documents() {
    let text = "text\n```uci-session\n> go perft 1\n< a2a3: 1\n< ...\n<\n< Nodes <*>: 20\n```\n";
    let found = sessions(text);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].line, 2);
    assert_eq!(
        found[0].steps,
        [
            Step::Send("go perft 1".into()),
            Step::Reply("a2a3: 1".into()),
            Step::AnyLines,
            Step::Reply(String::new()),
            Step::Reply("Nodes <*>: 20".into()),
        ]
    );
    assert!(matches(
        "info depth 1 nps <*> time <*> pv e2e4",
        "info depth 1 nps 5 time 0 pv e2e4"
    ));
    assert!(matches("bestmove <*>", "bestmove e2e4 ponder e7e5"));
    assert!(matches("<*>", ""));
    assert!(!matches(
        "info depth 1 nps <*> pv e2e4",
        "info depth 2 nps 5 pv e2e4"
    ));
    assert!(!matches("bestmove e2e4", "bestmove e2e4 ponder e7e5"));
    assert!(!matches("a<*>ab", "ab"));
}

#[test]
#[should_panic(expected = "mark it uci-session")]
fn an_unmarked_block_is_refused() {
    sessions("```\n> uci\n```\n");
}

#[test]
#[should_panic(expected = "expected \"bestmove a2a3\"")]
fn a_stale_reply_fails_the_replay() {
    let session =
        "```uci-session\n> go depth 1 searchmoves h2h3\n< info <*>\n< bestmove a2a3\n```\n";
    let found = sessions(session);
    replay(&found[0]);
}
