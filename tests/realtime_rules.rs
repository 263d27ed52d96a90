//! The rules page's cases as timelines: each `tests/data/realtime/*.timeline` file gives the
//! parameters, a start, the orders at their milliseconds (with the rule that refuses one), and
//! every event the game must produce, in order. The format is in tests/data/realtime/README.md.
//! A mismatch names the file, the line and both texts.

use roger::rules::realtime::{Color, Event, Order, RealtimeParams, RealtimeState};
use std::fs;
use std::path::{Path, PathBuf};

/// Something done at a millisecond.
enum Action {
    Order {
        color: Color,
        order: Order,
        refused: Option<String>,
    },
    Resign(Color),
    AgreeDraw,
    /// The state text expected at that ms (after everything at it).
    State(String),
}

struct Timeline {
    params: RealtimeParams,
    start: RealtimeState,
    /// (line, ms, action), in file order.
    actions: Vec<(usize, u64, Action)>,
    /// (line, event text).
    events: Vec<(usize, String)>,
    until: u64,
}

fn color(word: &str) -> Result<Color, String> {
    match word {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        _ => Err(format!("'{word}' is not white or black")),
    }
}

fn parse(text: &str) -> Result<Timeline, String> {
    let mut params = RealtimeParams::default();
    let mut start_text: Option<String> = None;
    let mut actions = Vec::new();
    let mut events = Vec::new();
    let mut until = None;
    let mut last_ms = 0;
    for (index, raw) in text.lines().enumerate() {
        let number = index + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let at = |error: String| format!("line {number} '{line}': {error}");
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["params", settings @ ..] => {
                for setting in settings {
                    let (name, value) = setting
                        .split_once('=')
                        .ok_or_else(|| at(format!("'{setting}' is not name=value")))?;
                    let value: u32 = value
                        .parse()
                        .map_err(|_| at(format!("bad value in '{setting}'")))?;
                    match name {
                        "tick_ms" => params.tick_ms = value,
                        "delay_ticks" => params.delay_ticks = value,
                        "no_capture_draw_ticks" => params.no_capture_draw_ticks = value,
                        _ => return Err(at(format!("unknown parameter '{name}'"))),
                    }
                }
            }
            ["start", "startpos"] => start_text = Some(String::new()),
            ["start", ..] => start_text = Some(line["start".len()..].trim().to_string()),
            ["until", ms] => until = Some(ms.parse::<u64>().map_err(|_| at("bad ms".into()))?),
            [ms, rest @ ..] => {
                let ms: u64 = ms
                    .parse()
                    .map_err(|_| at(format!("'{ms}' is not a millisecond")))?;
                let action = match rest {
                    [c, "order", order] => Some(Action::Order {
                        color: color(c).map_err(at)?,
                        order: Order::parse(order).map_err(at)?,
                        refused: None,
                    }),
                    [c, "order", order, "refused", rule] => Some(Action::Order {
                        color: color(c).map_err(at)?,
                        order: Order::parse(order).map_err(at)?,
                        refused: Some(rule.to_string()),
                    }),
                    [c, "resign"] => Some(Action::Resign(color(c).map_err(at)?)),
                    ["agree-draw"] => Some(Action::AgreeDraw),
                    ["state", ..] => Some(Action::State(
                        line[line.find("state").unwrap() + 5..].trim().to_string(),
                    )),
                    _ => None,
                };
                match action {
                    Some(action) => {
                        if ms < last_ms {
                            return Err(at(format!(
                                "{ms} is before the previous action at {last_ms}"
                            )));
                        }
                        last_ms = ms;
                        actions.push((number, ms, action));
                    }
                    None => {
                        let event: Event = line.parse().map_err(at)?;
                        events.push((number, event.to_string()));
                    }
                }
            }
            [] => {}
        }
    }
    let start_text = start_text.ok_or("no 'start' line")?;
    params.validate()?;
    let start = if start_text.is_empty() {
        RealtimeState::start(params)
    } else {
        RealtimeState::from_text(&start_text, params).map_err(|error| format!("start: {error}"))?
    };
    Ok(Timeline {
        params,
        start,
        actions,
        events,
        until: until.ok_or("no 'until' line")?,
    })
}

/// Plays a timeline; the first mismatch, or `Ok`.
fn play(timeline: Timeline) -> Result<(), String> {
    let mut state = timeline.start;
    let mut events: Vec<Event> = Vec::new();
    assert_eq!(state.params(), timeline.params);
    for (line, ms, action) in timeline.actions {
        state.advance_to(ms, &mut events);
        match action {
            Action::Order {
                color,
                order,
                refused,
            } => {
                let result = state.apply(color, order, &mut events);
                match (result, refused) {
                    (Ok(()), None) => {}
                    (Err(refusal), Some(rule)) if refusal.name() == rule => {}
                    (Err(refusal), expected) => {
                        return Err(format!(
                            "line {line}: {ms} {} {order} was refused ({refusal}), expected {}",
                            color.name(),
                            expected.map_or("it to start".into(), |rule| format!("refused {rule}"))
                        ))
                    }
                    (Ok(()), Some(rule)) => {
                        return Err(format!(
                            "line {line}: {ms} {} {order} started, expected refused {rule}",
                            color.name()
                        ))
                    }
                }
            }
            Action::Resign(color) => state.resign(color, &mut events),
            Action::AgreeDraw => state.agree_draw(&mut events),
            Action::State(text) => {
                if state.text() != text {
                    return Err(format!(
                        "line {line}: at {ms} the state is\n  {}\nexpected\n  {text}",
                        state.text()
                    ));
                }
            }
        }
    }
    state.advance_to(timeline.until, &mut events);
    let got: Vec<String> = events.iter().map(Event::to_string).collect();
    for (index, (line, expected)) in timeline.events.iter().enumerate() {
        match got.get(index) {
            Some(actual) if actual == expected => {}
            actual => {
                return Err(format!(
                    "line {line}: expected event '{expected}', got {}\nall events:\n  {}",
                    actual.map_or("no more events".to_string(), |text| format!("'{text}'")),
                    got.join("\n  ")
                ))
            }
        }
    }
    if got.len() > timeline.events.len() {
        return Err(format!(
            "unexpected event '{}' after the last expected one\nall events:\n  {}",
            got[timeline.events.len()],
            got.join("\n  ")
        ));
    }
    Ok(())
}

fn timeline_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/realtime");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("tests/data/realtime")
        .map(|entry| entry.expect("a folder entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "timeline"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_timeline_plays_as_written() {
    let files = timeline_files();
    assert!(files.len() >= 10, "{} timeline files", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = fs::read_to_string(path).expect("a timeline file");
        if let Err(error) = parse(&text).and_then(play) {
            failures.push(format!("{name}: {error}"));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}

/// The runner itself can fail: a wrong millisecond, a wrong removal and a wrong refusal are
/// each reported with their line.
#[test]
fn a_wrong_timeline_is_reported_with_its_line() {
    let good = "start startpos\n0 white order e2e4\n0 start white e2e4\n2000 arrive white pawn e4\n12000 ready white pawn e4\nuntil 20000\n";
    assert_eq!(parse(good).and_then(play), Ok(()));
    for (bad, needle) in [
        (
            good.replace("2000 arrive", "2001 arrive"),
            "line 4: expected event '2001 arrive white pawn e4', got '2000 arrive white pawn e4'",
        ),
        (
            good.replace("e2e4\n0 start", "e2e4 refused not-ready\n0 start"),
            "line 2: 0 white e2e4 started, expected refused not-ready",
        ),
        (
            good.replace("12000 ready white pawn e4\n", ""),
            "unexpected event '12000 ready white pawn e4'",
        ),
        (
            good.replace("until 20000", "until 11999"),
            "line 5: expected event '12000 ready white pawn e4', got no more events",
        ),
    ] {
        let error = parse(&bad).and_then(play).unwrap_err();
        assert!(error.contains(needle), "{error}");
    }
}
