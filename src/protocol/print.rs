//! Formats the engine's replies as protocol lines (without the line end).

pub use crate::common::text::{is_hidden, push_visible, visible};
use crate::engine::{Activity, BestMove, EngineError, OptionKind, OptionSpec};
use crate::search::{Info, Score};

pub const ENGINE_NAME: &str = "Roger";
pub const ENGINE_AUTHOR: &str = "The Roger developers";
/// The move text for "no move", in `bestmove` when the position has no legal move.
pub const NULL_MOVE: &str = "0000";

/// The `id` lines of the `uci` reply, for the engine or player called `name`.
pub fn id_lines(name: &str) -> [String; 2] {
    [
        format!("id name {name}"),
        format!("id author {ENGINE_AUTHOR}"),
    ]
}

pub fn option_line(spec: &OptionSpec) -> String {
    let name = spec.name;
    match &spec.kind {
        OptionKind::Spin { default, min, max } => {
            format!("option name {name} type spin default {default} min {min} max {max}")
        }
        OptionKind::Check { default } => {
            format!("option name {name} type check default {default}")
        }
        OptionKind::Text { default } => format!("option name {name} type string default {default}"),
        OptionKind::Combo { default, values } => {
            let mut line = format!("option name {name} type combo default {default}");
            for value in values {
                line.push_str(" var ");
                line.push_str(value);
            }
            line
        }
    }
}

pub fn score_text(score: Score) -> String {
    match score {
        Score::Cp(centipawns) => format!("cp {centipawns}"),
        Score::Mate(moves) => format!("mate {moves}"),
    }
}

/// `info depth .. seldepth .. multipv .. score .. nodes .. nps .. hashfull .. time .. pv ..`;
/// `pv` is left out when empty.
pub fn info_line(info: &Info) -> String {
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {}",
        info.depth,
        info.seldepth,
        info.multipv,
        score_text(info.score),
        info.nodes,
        info.nps,
        info.hashfull,
        info.time.as_millis()
    );
    if !info.pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&info.pv.join(" "));
    }
    line
}

pub fn bestmove_line(best: &BestMove) -> String {
    match (&best.best, &best.ponder) {
        (Some(mv), Some(ponder)) => format!("bestmove {mv} ponder {ponder}"),
        (Some(mv), None) => format!("bestmove {mv}"),
        (None, _) => format!("bestmove {NULL_MOVE}"),
    }
}

pub fn info_string(text: &str) -> String {
    // A line break would end the info line early and leave the rest as an unknown command:
    // it becomes a space. Everything else a reader would not see, or would take for a line end
    // (U+2028), is escaped as errors quote it.
    let mut line = String::from("info string ");
    for c in text.chars() {
        match c {
            '\n' | '\r' => line.push(' '),
            c => push_visible(&mut line, c),
        }
    }
    line
}

/// The longest error text sent whole, in characters.
pub const MAX_ERROR_CHARS: usize = 400;
/// How much of a longer one is kept from its start and from its end.
const ERROR_HEAD_CHARS: usize = 240;
const ERROR_TAIL_CHARS: usize = 120;

/// Every error reaches the GUI this way; GUIs log `info string` lines and carry on. Errors quote
/// bad input shortened already; as a last bound, a text of more than [`MAX_ERROR_CHARS`]
/// characters keeps its start and its end, with how much was left out between them.
pub fn error_line(error: &str) -> String {
    let length = error.chars().count();
    if length <= MAX_ERROR_CHARS {
        return info_string(&format!("error: {error}"));
    }
    let head: String = error.chars().take(ERROR_HEAD_CHARS).collect();
    let tail: String = error.chars().skip(length - ERROR_TAIL_CHARS).collect();
    let left_out = length - ERROR_HEAD_CHARS - ERROR_TAIL_CHARS;
    info_string(&format!(
        "error: {head} [... {left_out} characters left out ...] {tail}"
    ))
}

/// Stockfish's perft format: `move: count` per root move, a blank line, `Nodes searched: N`.
pub fn perft_lines(counts: &[(String, u64)]) -> Vec<String> {
    let mut lines: Vec<String> = counts
        .iter()
        .map(|(mv, count)| format!("{mv}: {count}"))
        .collect();
    let total: u64 = counts.iter().map(|(_, count)| count).sum();
    lines.push(String::new());
    lines.push(format!("Nodes searched: {total}"));
    lines
}

/// The closing lines of `bench`.
pub fn bench_summary(nodes: u64, nps: u64) -> [String; 1] {
    [format!("{nodes} nodes {nps} nps")]
}

/// An engine's refusal as the dialects print it, with what to send instead. `again`: the
/// command asked for what runs already (a `go` during a search, a `play` while streaming), and
/// the text says so.
pub fn engine_refusal(error: &EngineError, again: bool) -> String {
    let already = if again { "already " } else { "" };
    match error {
        EngineError::Busy(activity) => {
            let what = match activity {
                Activity::Search => "a search",
                Activity::Plan => "a plan",
            };
            format!("{what} is {already}running; send 'stop' first")
        }
        EngineError::Streaming(side) => {
            format!("{already}streaming for {}; send 'stop' first", side.name())
        }
        EngineError::NotStreaming => {
            "not streaming; send 'play white' or 'play black' first".to_string()
        }
        EngineError::NoWorld => {
            "no world yet; send 'position megachess size ... pieces ...' first".to_string()
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn options() {
        let spin = OptionSpec {
            name: "Move Overhead",
            kind: OptionKind::Spin {
                default: 30,
                min: 0,
                max: 5000,
            },
        };
        assert_eq!(
            option_line(&spin),
            "option name Move Overhead type spin default 30 min 0 max 5000"
        );
        let combo = OptionSpec {
            name: "UCI_Variant",
            kind: OptionKind::Combo {
                default: "chess".into(),
                values: vec!["chess".into(), "nichess".into()],
            },
        };
        assert_eq!(
            option_line(&combo),
            "option name UCI_Variant type combo default chess var chess var nichess"
        );
        let check = OptionSpec {
            name: "Ponder",
            kind: OptionKind::Check { default: false },
        };
        assert_eq!(
            option_line(&check),
            "option name Ponder type check default false"
        );
    }

    #[test]
    fn info_and_bestmove() {
        let mut info = Info {
            depth: 5,
            seldepth: 8,
            multipv: 1,
            score: Score::Cp(-23),
            nodes: 12345,
            nps: 600000,
            time: Duration::from_millis(20),
            hashfull: 3,
            pv: vec!["e2e4".into(), "e7e5".into()],
        };
        assert_eq!(
            info_line(&info),
            "info depth 5 seldepth 8 multipv 1 score cp -23 nodes 12345 nps 600000 hashfull 3 \
             time 20 pv e2e4 e7e5"
        );
        info.pv.clear();
        info.score = Score::Mate(-2);
        assert!(
            info_line(&info).ends_with("score mate -2 nodes 12345 nps 600000 hashfull 3 time 20")
        );

        let best = |best: Option<&str>, ponder: Option<&str>| BestMove {
            best: best.map(String::from),
            ponder: ponder.map(String::from),
        };
        assert_eq!(bestmove_line(&best(Some("e2e4"), None)), "bestmove e2e4");
        assert_eq!(
            bestmove_line(&best(Some("e7e8q"), Some("a2a1"))),
            "bestmove e7e8q ponder a2a1"
        );
        assert_eq!(bestmove_line(&best(None, None)), "bestmove 0000");
    }

    #[test]
    fn errors_stay_on_one_line() {
        assert_eq!(error_line("bad\nthing"), "info string error: bad thing");
        assert_eq!(
            error_line("nul \u{0} and tab\t"),
            "info string error: nul \\u{0} and tab\\t"
        );
    }

    /// Whitespace other than a space and the line separators some readers break lines at are
    /// escaped in every `info string`, whichever dialect or rule wrote the text; the quotes of
    /// errors escape with the same function.
    #[test]
    fn replies_escape_unseen_whitespace_and_line_separators() {
        let raw = "a\u{a0}b\u{2003}c\u{3000}d\u{2028}e\u{2029}f\u{200b}g\u{202e}h\u{b}i\u{c}j";
        let escaped =
            "a\\u{a0}b\\u{2003}c\\u{3000}d\\u{2028}e\\u{2029}f\\u{200b}g\\u{202e}h\\u{b}i\\u{c}j";
        assert_eq!(error_line(raw), format!("info string error: {escaped}"));
        assert_eq!(info_string(raw), format!("info string {escaped}"));
        assert_eq!(visible(raw), escaped);
        assert_eq!(crate::common::text::quote(raw), format!("'{escaped}'"));
        // Text a reader sees as it is stays as it is.
        assert_eq!(visible("é ü 'x' \\u{a0}"), "é ü 'x' \\u{a0}");
    }

    #[test]
    fn long_errors_keep_their_start_and_end() {
        let error = format!("start {} end", "x".repeat(10_000));
        let line = error_line(&error);
        let expected = format!(
            "info string error: start {} [... 9650 characters left out ...] {} end",
            "x".repeat(234),
            "x".repeat(116)
        );
        assert_eq!(line, expected);
        let short = "y".repeat(MAX_ERROR_CHARS);
        assert_eq!(error_line(&short), format!("info string error: {short}"));
    }

    #[test]
    fn perft() {
        let counts = vec![("a2a3".to_string(), 380), ("b2b3".to_string(), 420)];
        assert_eq!(
            perft_lines(&counts),
            vec!["a2a3: 380", "b2b3: 420", "", "Nodes searched: 800"]
        );
    }
}
