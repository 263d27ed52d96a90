//! The replay page in a real headless Chromium: files of every kind opened through the page's
//! file input, read by the server with our rules, and stepped through by clicks.

use crate::browser_support;

use browser_support::{Browser, Served};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(20);

fn scratch(name: &str) -> PathBuf {
    let folder = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("replay-files");
    std::fs::create_dir_all(&folder).unwrap();
    folder.join(name)
}

/// Gives the page's file input a file, as a user choosing it would.
fn upload(browser: &Browser, path: &Path) {
    let id = browser.find("#file");
    let text = path.display().to_string();
    browser.command(
        "POST",
        &format!("/element/{id}/value"),
        Some(json!({ "text": text })),
    );
}

fn wait_for_games(browser: &Browser, count: usize) {
    browser.wait_for(
        "the replay",
        &format!("return window.rogerReplay.games.length === {count} && window.rogerReplay.game;"),
        WAIT,
    );
}

fn piece_on(browser: &Browser, square: &str) -> String {
    browser
        .run(
            "const g = document.querySelector(`#view [data-on=\"${arguments[0]}\"]`);\
             return g ? g.dataset.piece : '';",
            json!([square]),
        )
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn pgn_games_of_every_turn_game_step_through_by_clicks() {
    let pgn = "[Event \"fools\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n\n\
               1. f3 e5 2. g4 Qh4# 0-1\n\n\
               [Event \"throw\"]\n[Variant \"nichess\"]\n[FEN \"k7/8/6mn/6Nr/7p/8/4M3/3QK3 w - - 0 1\"]\n\n\
               1. d1h5 *\n\n\
               [Event \"wide\"]\n[Variant \"millennium\"]\n\n1. e2e4 k7k5 *\n\n\
               [Event \"broken\"]\n\n1. e4 e5 2. Ke3 *\n";
    let path = scratch("games.pgn");
    std::fs::write(&path, pgn).unwrap();
    let served = Served::start(&[]);
    let browser = Browser::start();
    browser.goto(&served.url("/replay.html"));
    upload(&browser, &path);
    wait_for_games(&browser, 4);

    // Chess, in SAN: step to the end by clicks; the rules say the game is over.
    assert_eq!(piece_on(&browser, "d8"), "q");
    browser.click("#last");
    assert_eq!(piece_on(&browser, "h4"), "q");
    assert_eq!(piece_on(&browser, "d8"), "");
    assert!(
        browser.text("#result").contains("checkmate"),
        "{}",
        browser.text("#result")
    );
    browser.click("#prev");
    assert_eq!(piece_on(&browser, "d8"), "q");
    browser.click("#moves li[data-ply=\"2\"]");
    assert_eq!(piece_on(&browser, "e5"), "p");
    // Moves are numbered by full moves, as on a score sheet.
    assert_eq!(
        browser
            .text("#moves")
            .split_whitespace()
            .collect::<Vec<_>>(),
        ["1.", "f3", "e5", "2.", "g4", "Qh4#"]
    );
    // The arrow keys step too: left back a ply, right forward, up to the start, down to the end.
    let keys = [
        ("\u{E012}", 1),
        ("\u{E014}", 2),
        ("\u{E013}", 0),
        ("\u{E015}", 4),
    ];
    for (key, index) in keys {
        browser.press(key);
        let at = browser.run("return window.rogerReplay.index;", json!([]));
        assert_eq!(at, json!(index), "after the key {key:?}");
    }
    assert_eq!(piece_on(&browser, "h4"), "q");
    browser.press("\u{E012}");
    assert_eq!(piece_on(&browser, "e5"), "p");
    assert_eq!(piece_on(&browser, "g4"), "P");
    browser.screenshot("replay-chess");
    assert!(
        !browser.phone_screenshot("replay-chess"),
        "the page scrolls sideways at 390 px"
    );

    // Nichess: the throw's splash leaves its HP on the pieces around the landing square.
    browser.run(
        "const s = document.getElementById('games'); s.value = '1'; \
         s.dispatchEvent(new Event('change'));",
        json!([]),
    );
    browser.click("#next");
    assert_eq!(piece_on(&browser, "h5"), "M");
    let hp = browser.run(
        "return document.querySelector('#view [data-on=\"h6\"] .hp').textContent;",
        json!([]),
    );
    assert_eq!(hp, json!("40"));
    let splash = browser.run(
        "return [...document.querySelectorAll('#view [data-splash]')].map(s => s.dataset.splash);",
        json!([]),
    );
    assert_eq!(splash, json!(["g6", "h4", "h6"]));
    browser.screenshot("replay-nichess");

    // Millennium: a 15-file board.
    browser.run(
        "const s = document.getElementById('games'); s.value = '2'; \
         s.dispatchEvent(new Event('change'));",
        json!([]),
    );
    browser.click("#last");
    assert_eq!(piece_on(&browser, "k5"), "p");
    assert_eq!(piece_on(&browser, "o1"), "R");
    browser.screenshot("replay-millennium");

    // A game with an illegal move says which, and the others still replay.
    browser.run(
        "const s = document.getElementById('games'); s.value = '3'; \
         s.dispatchEvent(new Event('change'));",
        json!([]),
    );
    let warning = browser.text("#warnings");
    assert!(warning.contains("move 3 'Ke3'"), "{warning}");
}

#[test]
fn a_realtime_timeline_replays_pieces_in_flight_and_their_delays() {
    let json_path = scratch("realtime.json");
    let roger = env!("CARGO_BIN_EXE_roger");
    let status = Command::new(roger)
        .args([
            "arena",
            "--variant",
            "realtime",
            "--games",
            "1",
            "--seed",
            "3",
        ])
        .args([
            "--engine",
            &format!("cmd={roger}"),
            "args=play greedy --variant realtime --seed 1",
            "name=g1",
        ])
        .args([
            "--engine",
            &format!("cmd={roger}"),
            "args=play greedy --variant realtime --seed 2",
            "name=g2",
        ])
        .args(["--tick-ms", "100", "--delay-ticks", "5"])
        .args(["--json", &json_path.display().to_string()])
        .stdout(std::process::Stdio::null())
        .status()
        .expect("run the arena");
    assert!(status.success());
    let served = Served::start(&[]);
    let browser = Browser::start();
    browser.goto(&served.url("/replay.html"));
    upload(&browser, &json_path);
    wait_for_games(&browser, 1);
    // The first order that started, from the server's frames: halfway through its travel the
    // piece is drawn halfway between its squares; after arriving it carries a delay ring.
    let moving = browser.run(
        "for (const f of window.rogerReplay.game.frames) for (const u of f.units) \
           if (u.from) return u; return null;",
        json!([]),
    );
    let (start, arrive) = (
        moving["start"].as_u64().unwrap(),
        moving["arrive"].as_u64().unwrap(),
    );
    let middle = (start + arrive) / 2;
    browser.run(
        "const s = document.getElementById('slider'); s.value = arguments[0]; \
         s.dispatchEvent(new Event('input'));",
        json!([middle]),
    );
    let drawn = browser.run(
        "const r = window.rogerReplay; const board = document.querySelector('#view svg'); \
         const from = board.querySelector(`[data-square=\"${arguments[0]}\"]`).getBBox(); \
         const to = board.querySelector(`[data-square=\"${arguments[1]}\"]`).getBBox(); \
         const loose = [...board.querySelectorAll('[data-at=\"\"]')].map(g => { \
           const m = g.transform.baseVal.consolidate().matrix; const b = g.getBBox(); \
           return {x: m.e + b.x + b.width / 2, y: m.f + b.y + b.height / 2}; }); \
         return {from: [from.x + from.width / 2, from.y + from.height / 2], \
                 to: [to.x + to.width / 2, to.y + to.height / 2], loose, index: r.index};",
        json!([moving["from"], moving["to"]]),
    );
    assert_eq!(drawn["index"], json!(middle));
    let mid_x = (drawn["from"][0].as_f64().unwrap() + drawn["to"][0].as_f64().unwrap()) / 2.0;
    let mid_y = (drawn["from"][1].as_f64().unwrap() + drawn["to"][1].as_f64().unwrap()) / 2.0;
    let loose = drawn["loose"].as_array().unwrap();
    assert!(
        loose
            .iter()
            .any(|p| (p["x"].as_f64().unwrap() - mid_x).abs() < 8.0),
        "no piece drawn near x {mid_x} (y {mid_y}) at {middle} ms: {drawn}"
    );
    browser.screenshot("replay-realtime-travel");
    browser.run(
        "const s = document.getElementById('slider'); s.value = arguments[0]; \
         s.dispatchEvent(new Event('input'));",
        json!([arrive + 100]),
    );
    let left = browser.run(
        "return [...document.querySelectorAll('.delay-ring')].map(r => Number(r.dataset.left));",
        json!([]),
    );
    assert!(
        left.as_array()
            .unwrap()
            .iter()
            .any(|l| (l.as_f64().unwrap() - 0.8).abs() < 0.01),
        "a ring with 4 of 5 ticks left after 100 ms of a 500 ms delay: {left}"
    );
    browser.screenshot("replay-realtime-delay");
}

#[test]
fn a_world_turn_log_replays_turn_by_turn_and_garbage_is_refused() {
    let log = scratch("turns.jsonl");
    let db = scratch("world.sqlite");
    let _ = std::fs::remove_file(&log);
    let _ = std::fs::remove_file(&db);
    let status = Command::new(env!("CARGO_BIN_EXE_roger"))
        .args([
            "world",
            "--simulate",
            "--size",
            "32",
            "32",
            "--house-bots",
            "2",
            "--turns",
            "6",
        ])
        .args([
            "--house-movetime",
            "50",
            "--placement",
            "edge",
            "--listen",
            "127.0.0.1:0",
        ])
        .args([
            "--log",
            &log.display().to_string(),
            "--db",
            &db.display().to_string(),
        ])
        .stdout(std::process::Stdio::null())
        .status()
        .expect("run a world");
    assert!(status.success());
    let served = Served::start(&[]);
    let browser = Browser::start();
    browser.goto(&served.url("/replay.html"));
    upload(&browser, &log);
    wait_for_games(&browser, 1);
    let game = browser.run(
        "const g = window.rogerReplay.game; return {steps: g.steps.length, \
         warnings: g.warnings, start: g.start.length, pieces: window.rogerReplay.worldPieces};",
        json!([]),
    );
    assert_eq!(game["steps"], json!(6), "{game}");
    assert_eq!(
        game["warnings"],
        json!([]),
        "every logged move replays: {game}"
    );
    assert_eq!(game["start"], json!(32));
    browser.click("#last");
    assert!(browser.text("#where").contains("turn 6"));
    browser.screenshot("replay-world");

    // An arena world: only its final pieces, on its own board with its own kingdoms.
    let arena = scratch("world-arena.json");
    let roger = env!("CARGO_BIN_EXE_roger");
    let status = Command::new(roger)
        .args([
            "arena",
            "--variant",
            "megachess",
            "--size",
            "32",
            "32",
            "--turns",
            "6",
        ])
        .args([
            "--engine",
            &format!("cmd={roger}"),
            "args=play random --variant megachess",
            "name=r1",
        ])
        .args([
            "--engine",
            &format!("cmd={roger}"),
            "args=play greedy --variant megachess",
            "name=g1",
        ])
        .args(["--each", "st=0.05", "--games", "1"])
        .args(["--json", &arena.display().to_string()])
        .stdout(std::process::Stdio::null())
        .status()
        .expect("run an arena world");
    assert!(status.success());
    upload(&browser, &arena);
    browser.wait_for(
        "the arena world",
        "const g = window.rogerReplay.game; return g && g.kind === 'world' && g.title.includes('r1');",
        WAIT,
    );
    let world = browser.run(
        "const g = window.rogerReplay.game;          return {width: g.width, radius: g.kingdom_radius, pieces: window.rogerReplay.worldPieces};",
        json!([]),
    );
    assert_eq!(world["width"], json!(32), "{world}");
    assert_eq!(world["radius"], json!(16), "{world}");
    assert!(world["pieces"].as_u64().unwrap() > 0, "{world}");

    let garbage = scratch("garbage.txt");
    std::fs::write(&garbage, "{not json").unwrap();
    upload(&browser, &garbage);
    browser.wait_for(
        "the error",
        "return document.getElementById('status').className === 'error';",
        WAIT,
    );
    assert!(browser.text("#status").contains("garbage.txt"));
}
