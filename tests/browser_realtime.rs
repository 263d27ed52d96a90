//! Realtime chess against Roger in a real headless Chromium: the human starts a knight by clicks
//! (g1, then f3; tick 300 ms, delay 4 ticks) and the test watches the page draw it in time: in
//! between squares at the right fraction of its way while it travels, on f3 when the server's
//! arrival event says, with a delay ring that shrinks and is gone when the delay ends. Roger moves
//! by itself, and a click on the knight in its delay is refused visibly and changes nothing.
//!
//! The knight (not e2e4): no black piece can reach f3 within the first seconds, so Roger's own
//! moves cannot take it while the test watches its delay.

use crate::browser_support;

use browser_support::{Browser, Served};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const TICK: f64 = 300.0;
// Long enough that the refusal checks (e) leave the ring many samples on a busy machine: with
// 4 ticks, a loaded CI machine once spent the whole delay in them.
const DELAY_TICKS: f64 = 12.0;
/// A knight's move takes two ticks.
const TRAVEL: f64 = 2.0 * TICK;
const DELAY: f64 = DELAY_TICKS * TICK;

/// One look at the knight: what the page drew last.
struct Sample {
    /// The server ms the frame was drawn for.
    at: f64,
    file: f64,
    rank: f64,
    moving: bool,
    ring: Option<f64>,
}

/// One frame the page drew for the knight, recorded by the page itself as it drew it.
struct Frame {
    /// When the page recorded it: its own `performance.now()`, in ms.
    seen_ms: f64,
    /// The server ms the frame was drawn for.
    at: f64,
    file: f64,
    rank: f64,
    moving: bool,
}

impl Frame {
    fn read(value: &Value) -> Frame {
        let number = |name: &str| {
            value[name]
                .as_f64()
                .unwrap_or_else(|| panic!("no {name} in the frame {value}"))
        };
        Frame {
            seen_ms: number("seen"),
            at: number("at"),
            file: number("file"),
            rank: number("rank"),
            moving: value["moving"].as_bool().expect("moving"),
        }
    }
}

fn sample(browser: &Browser, id: u64) -> Sample {
    let value = browser.run(
        "return window.rogerRealtime.drawn(arguments[0]);",
        json!([id]),
    );
    let number = |name: &str| value[name].as_f64();
    let read = || {
        Some(Sample {
            at: number("at")?,
            file: number("file")?,
            rank: number("rank")?,
            moving: value["moving"].as_bool()?,
            ring: number("ring"),
        })
    };
    read().unwrap_or_else(|| {
        panic!(
            "piece {id} is not drawn: {value}; events {:?}",
            events(browser)
        )
    })
}

fn events(browser: &Browser) -> Vec<String> {
    let log = browser.run("return window.rogerRealtime.log;", json!([]));
    log.as_array()
        .map(|all| {
            all.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// The white pieces as the page's last state has them (squares, moves and delays), sorted.
fn white_pieces(browser: &Browser) -> Value {
    browser.run(
        "const s = window.rogerRealtime.state;
         const white = (p) => p.letter === p.letter.toUpperCase();
         const key = (p) => JSON.stringify(p);
         return [
           s.pieces.filter(white).map(key).sort(),
           s.moving.filter(white).map(key).sort(),
           s.delays.filter((d) => s.pieces.some((p) => p.id === d.id && white(p))).map(key).sort(),
         ];",
        json!([]),
    )
}

#[test]
fn a_knight_travels_arrives_and_waits_in_time_against_roger() {
    let began = Instant::now();
    let served = Served::start(&[]);
    let browser = Browser::start();
    browser.goto(&served.url("/realtime.html"));
    browser.wait_for(
        "the realtime session",
        "return document.getElementById('status').textContent.startsWith('connected');",
        Duration::from_secs(20),
    );
    println!("page ready {:?} into the test", began.elapsed());
    browser.type_into("#tick", "300");
    browser.type_into("#delay", &DELAY_TICKS.to_string());
    // Roger looks every 500 ms: it still moves, and leaves the test's knight more room.
    browser.type_into("#reaction", "500");
    browser.click("#start");
    browser.wait_for(
        "the first state",
        "const s = window.rogerRealtime.state; return s !== null && s.result === null;",
        Duration::from_secs(10),
    );

    // The human's order, by clicks: the targets come from the server.
    browser.click("rect[data-square='g1']");
    let targets = browser.wait_for(
        "g1's targets",
        "const t = [...document.querySelectorAll('[data-target]')].map(e => e.dataset.target);
         return t.length ? t.sort() : null;",
        Duration::from_secs(5),
    );
    assert_eq!(targets, json!(["f3", "h3"]));
    browser.click("rect[data-square='f3']");
    let knight = browser.wait_for(
        "the knight's start",
        "return window.rogerRealtime.state.moving.find(m => m.from === 'g1') || null;",
        Duration::from_secs(5),
    );
    let id = knight["id"].as_u64().expect("an id");
    let start = knight["start"].as_f64().expect("a start");
    let arrive = knight["arrive"].as_f64().expect("an arrival");
    println!(
        "the knight started at {start} ms, {:?} into the test",
        began.elapsed()
    );
    // (b) The server's times: a knight's move is two ticks.
    assert_eq!(arrive - start, TRAVEL, "{knight}");
    assert!(
        events(&browser).contains(&format!("{start} start white g1f3")),
        "{:?}",
        events(&browser)
    );

    // (a) Sampled while it travels: drawn between g1 and f3 where the times put it. The page
    // records every frame it draws (a WebDriver round trip per sample would leave a loaded
    // machine only a sample or two in the knight's 600 ms of travel).
    browser.run(
        "const [id, until] = arguments;
         const seen = window.rogerTravelFrames = [];
         const look = () => {
           const d = window.rogerRealtime.drawn(id);
           if (d !== null && (seen.length === 0 || seen[seen.length - 1].at !== d.at)) {
             seen.push({ ...d, seen: performance.now() });
           }
           if (d === null || d.at < until) requestAnimationFrame(look);
         };
         requestAnimationFrame(look);",
        json!([id, arrive + 50.0]),
    );
    let mut shot = false;
    // Only a page that stopped drawing takes this long: the knight arrives in 600 ms.
    let deadline = Instant::now() + Duration::from_secs(30);
    let frames = loop {
        let frames = browser.run("return window.rogerTravelFrames;", json!([]));
        let frames: Vec<Frame> = frames
            .as_array()
            .expect("the recorded frames")
            .iter()
            .map(Frame::read)
            .collect();
        if frames.last().is_some_and(|f| f.at >= arrive + 50.0) {
            break frames;
        }
        let midway = frames
            .last()
            .is_some_and(|f| f.moving && f.at - start >= 0.3 * TRAVEL);
        if midway && !shot {
            browser.screenshot("realtime-travel");
            shot = true;
        }
        assert!(
            Instant::now() < deadline,
            "the page drew no frame of the arrival: {} frames recorded",
            frames.len()
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let travel: Vec<&Frame> = frames.iter().filter(|f| f.moving && f.at > start).collect();
    assert!(travel.len() >= 3, "only {} frames in travel", travel.len());
    let shown: Vec<String> = travel
        .iter()
        .map(|s| format!("{:.0}ms:{:.3}", s.at - start, s.rank / 2.0))
        .collect();
    println!("travel frames (ms after the start: fraction drawn): {shown:?}");
    for s in &travel {
        let fraction = (s.at - start) / TRAVEL;
        // g1 is file 6 rank 0, f3 file 5 rank 2.
        let (file, rank) = (6.0 - fraction, 2.0 * fraction);
        assert!(
            (s.file - file).abs() < 0.02 && (s.rank - rank).abs() < 0.04,
            "at {} drawn on file {} rank {}, expected {file} {rank}",
            s.at,
            s.file,
            s.rank
        );
    }
    assert!(
        travel.iter().any(|s| s.rank > 0.3 && s.rank < 1.7),
        "never drawn in between"
    );
    // The page's clock runs at the server's pace: the fraction grows with real time.
    let (first, last) = (travel[0], travel[travel.len() - 1]);
    let real = last.seen_ms - first.seen_ms;
    let drawn = (last.rank - first.rank) / 2.0 * TRAVEL;
    assert!(
        (drawn - real).abs() < 150.0,
        "drawn {drawn:.0} ms of travel in {real:.0} ms"
    );
    // And it is the server's clock: the state messages come within their latency of it (a
    // single one held up by a busy machine may come later, so the median is the check).
    let lateness = browser.run(
        "const l = window.rogerRealtime.lateness().sort((a, b) => a - b);
         return [l[Math.floor(l.length / 2)], l[l.length - 1]];",
        json!([]),
    );
    assert!(
        lateness[0].as_f64().is_some_and(|late| late < 60.0),
        "the state messages came [median, most] {lateness} ms late on the page's clock"
    );
    println!(
        "drawn {drawn:.0} ms of travel in {real:.0} ms; the state messages came [median, most] \
         {lateness} ms late"
    );

    // (b) It stands on f3 from the arrival the server's event gives.
    let arrived = sample(&browser, id);
    assert!(
        !arrived.moving && arrived.file == 5.0 && arrived.rank == 2.0,
        "at {} drawn on file {} rank {}",
        arrived.at,
        arrived.file,
        arrived.rank
    );
    browser.wait_for(
        "the arrival event",
        "return window.rogerRealtime.log.some(e => e.endsWith(' arrive white knight f3'));",
        Duration::from_secs(3),
    );
    assert!(
        events(&browser).contains(&format!("{arrive} arrive white knight f3")),
        "{:?}",
        events(&browser)
    );

    // (e) A click on the knight in its delay is refused visibly, and changes nothing.
    let before = white_pieces(&browser);
    browser.click("rect[data-square='f3']");
    let error = browser.wait_for(
        "the refusal",
        "const e = document.getElementById('error');
         return e.offsetParent !== null && e.textContent.includes('not ready') ? e.textContent : null;",
        Duration::from_secs(3),
    );
    assert!(error.as_str().unwrap_or("").contains("rule 1"), "{error}");
    browser.run("window.rogerRealtime.order('f3e5');", json!([]));
    browser.wait_for(
        "the refused order",
        "return document.getElementById('error').textContent.startsWith('f3e5 refused');",
        Duration::from_secs(3),
    );
    assert_eq!(white_pieces(&browser), before);

    // (c) The ring shrinks with the delay left and is gone when the delay ends.
    let ready = arrive + DELAY;
    let mut rings: Vec<Sample> = Vec::new();
    let deadline = Instant::now() + Duration::from_millis(DELAY as u64 + 5000);
    loop {
        let s = sample(&browser, id);
        if s.at >= ready + 100.0 {
            assert_eq!(s.ring, None, "a ring after the delay at {}", s.at);
            break;
        }
        if s.at < ready - 20.0 {
            let left = (ready - s.at) / DELAY;
            let ring = s.ring.expect("a ring during the delay");
            assert!((ring - left).abs() < 0.02, "ring {ring} at {}", s.at);
            rings.push(s);
        }
        assert!(Instant::now() < deadline, "the delay never ended");
        std::thread::sleep(Duration::from_millis(60));
    }
    assert!(rings.len() >= 3, "only {} ring samples", rings.len());
    let shown: Vec<String> = rings
        .iter()
        .map(|s| format!("{:.0}ms:{:.3}", s.at - arrive, s.ring.unwrap_or(0.0)))
        .collect();
    println!("ring samples (ms after the arrival: fraction left): {shown:?}");
    assert!(rings.windows(2).all(|w| w[1].ring < w[0].ring));
    let hidden = browser.run(
        "return document.querySelector(`[data-ring='${arguments[0]}']`).style.display;",
        json!([id]),
    );
    assert_eq!(hidden, "none");
    browser.wait_for(
        "the ready event",
        "return window.rogerRealtime.log.some(e => e.endsWith(' ready white knight f3'));",
        Duration::from_secs(3),
    );
    assert!(events(&browser).contains(&format!("{ready} ready white knight f3")));

    // (d) Roger starts its own orders.
    browser.wait_for(
        "Roger's orders",
        "return window.rogerRealtime.log.some(e => e.includes(' start black '));",
        Duration::from_secs(10),
    );
    browser.screenshot("realtime-game");
    assert!(
        !browser.phone_screenshot("realtime-game"),
        "the page scrolls sideways at 390 px"
    );

    // Game over: resigning ends it, and the page says how.
    browser.click("#resign");
    let result = browser.wait_for(
        "the result",
        "return document.getElementById('result').textContent;",
        Duration::from_secs(3),
    );
    assert_eq!(result, "0-1: black wins: white resigned");
    assert!(events(&browser)
        .last()
        .is_some_and(|e| e.ends_with(" end 0-1 resignation")));
    let errors: Vec<String> = browser
        .console()
        .into_iter()
        .filter(|line| line.starts_with("\"SEVERE\"") && !line.contains("favicon"))
        .collect();
    assert!(errors.is_empty(), "console errors: {errors:?}");
    println!("browser_realtime took {:?}", began.elapsed());
}
