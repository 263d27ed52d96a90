//! The play page in a real headless Chromium: a short game of chess, Millennium chess and
//! Nichess against Roger, played by clicking and dragging on the board. Each game's move list
//! is replayed with the crate's own rules: every move of Roger's is legal, and the final FEN
//! and result are the rules'.

use crate::browser_support;

use browser_support::{Browser, Served};
use roger::rules::registry::AnyGame;
use roger::rules::{Color, Game, Outcome};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(20);

/// The page's last state.
fn state(browser: &Browser) -> Value {
    browser.run(
        "return window.rogerPlay && window.rogerPlay.state;",
        json!([]),
    )
}

fn plies(browser: &Browser) -> usize {
    state(browser)["moves"].as_array().map_or(0, Vec::len)
}

/// Waits for the state to have `count` moves.
fn wait_for_plies(browser: &Browser, count: usize) -> Value {
    browser.wait_for(
        &format!("{count} plies"),
        &format!(
            "const s = window.rogerPlay.state; return s && s.moves.length === {count} \
             && (s.result || s.your_turn) ? s : null;"
        ),
        WAIT,
    )
}

fn click_square(browser: &Browser, square: &str) {
    browser.click(&format!("rect[data-square=\"{square}\"]"));
}

/// A move by two clicks: the piece's square, then where it goes.
fn click_move(browser: &Browser, from: &str, to: &str) {
    click_square(browser, from);
    click_square(browser, to);
}

/// The middle of a square on the screen, after scrolling it into view.
fn centre(browser: &Browser, square: &str) -> (i64, i64) {
    let at = browser.run(
        "const rect = document.querySelector(`rect[data-square=\"${arguments[0]}\"]`);
         rect.scrollIntoView({ block: 'center' });
         const r = rect.getBoundingClientRect();
         return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)];",
        json!([square]),
    );
    (at[0].as_i64().unwrap(), at[1].as_i64().unwrap())
}

/// Drags with the real pointer from one square's middle to another's. The board is drawn
/// anew when the piece is picked up, so the squares are reached by their place on the screen.
fn drag(browser: &Browser, from: &str, to: &str) {
    let (from, to) = (centre(browser, from), centre(browser, to));
    browser.drag_between(0, from, to);
}

/// The WebDriver codes of the keys that step through a game.
const LEFT: &str = "\u{E012}";
const RIGHT: &str = "\u{E014}";
const UP: &str = "\u{E013}";
const END: &str = "\u{E010}";

/// The move list's plies and the one marked as shown.
fn shown_ply(browser: &Browser) -> Value {
    browser.run(
        "const li = document.querySelector('#moves li.current'); return li ? Number(li.dataset.ply) : null;",
        json!([]),
    )
}

/// Waits until the board draws the position after `ply` moves (its FEN from the server).
fn wait_for_board_at(browser: &Browser, ply: usize, fen: &str) {
    browser.wait_for(
        &format!("the board at ply {ply}"),
        &format!(
            "const p = window.rogerPlay; const at = p.viewing === null ? p.state.moves.length : p.viewing; \
             const fen = p.viewing === null ? p.state.fen : (p.position && p.position.ply === at ? p.position.fen : null); \
             return at === {ply} && fen === {fen:?};"
        ),
        WAIT,
    );
}

/// Whether the elements matching each selector lie wholly inside the window.
fn inside_window(browser: &Browser, selectors: &[&str]) -> Value {
    browser.run(
        "return arguments[0].map((css) => { \
           const r = document.querySelector(css).getBoundingClientRect(); \
           return [css, r.width > 0 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight]; });",
        json!([selectors]),
    )
}

/// At a window of `width` x `height`, scrolled to the top: every selector's element is inside
/// the window and nothing scrolls sideways.
fn assert_fits_at(browser: &Browser, (width, height): (u32, u32), selectors: &[&str], what: &str) {
    browser.resize(width, height);
    browser.run("window.scrollTo(0, 0);", json!([]));
    assert_fits(browser, selectors, &format!("{what} at {width}x{height}"));
}

/// Asserts that every selector's element is inside the window and that nothing scrolls sideways.
fn assert_fits(browser: &Browser, selectors: &[&str], what: &str) {
    let inside = inside_window(browser, selectors);
    for entry in inside.as_array().unwrap() {
        assert_eq!(
            entry[1],
            json!(true),
            "{what}: {} is not wholly in the window",
            entry[0]
        );
    }
    let sideways = browser.run(
        "return document.documentElement.scrollWidth > document.documentElement.clientWidth;",
        json!([]),
    );
    assert_eq!(sideways, json!(false), "{what}: the page scrolls sideways");
}

/// Opens the new-game dialog (if it is not open), sets the form and presses "Play".
fn new_game(browser: &Browser, game: &str, fen: &str) {
    new_game_with(browser, game, fen, "0", "100");
}

fn new_game_with(browser: &Browser, game: &str, fen: &str, skill: &str, movetime: &str) {
    let open = "return document.getElementById('setup-dialog').open;";
    if browser.run(open, json!([])) != json!(true) {
        browser.click("#open-setup");
    }
    browser.run(
        "document.getElementById('game').value = arguments[0];
         document.getElementById('side').value = 'white';
         document.getElementById('minutes').value = '10';
         document.getElementById('increment').value = '0';
         document.getElementById('skill').value = arguments[1];
         document.getElementById('movetime').value = arguments[2];
         document.getElementById('skill').dispatchEvent(new Event('input'));",
        json!([game, skill, movetime]),
    );
    browser.type_into("#start-fen", fen);
    let before = browser.run("return window.rogerPlay.messages;", json!([]));
    browser.click("#new-game");
    browser.wait_for(
        "the answer to new",
        &format!("return window.rogerPlay.messages > {before};"),
        WAIT,
    );
}

/// The game the move list makes by the crate's rules: its FEN and how it stands.
fn replay(state: &Value) -> (AnyGame, String, Outcome) {
    let moves: Vec<String> = state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_string())
        .collect();
    let game = AnyGame::new(state["game"].as_str().unwrap())
        .unwrap()
        .with_position(state["start_fen"].as_str(), &moves)
        .unwrap_or_else(|error| panic!("the move list is not legal: {error}"));
    let (fen, outcome) = match &game {
        AnyGame::Chess(r) => (r.position().fen(), r.outcome()),
        AnyGame::Nichess(r) => (r.position().fen(), r.outcome()),
        AnyGame::Millennium(r) => (r.position().fen(), r.outcome()),
    };
    (game, fen, outcome)
}

/// Checks the page's state against the rules' replay of its moves.
fn check_against_rules(state: &Value) -> Outcome {
    let (_, fen, outcome) = replay(state);
    assert_eq!(state["fen"], fen.as_str(), "{state}");
    let result = match outcome {
        Outcome::Ongoing => Value::Null,
        Outcome::Win(Color::White, reason) => json!({"result": "1-0", "reason": reason.text()}),
        Outcome::Win(Color::Black, reason) => json!({"result": "0-1", "reason": reason.text()}),
        Outcome::Draw(reason) => json!({"result": "1/2-1/2", "reason": reason.text()}),
    };
    if !result.is_null() {
        assert_eq!(state["result"]["result"], result["result"], "{state}");
        assert_eq!(state["result"]["reason"], result["reason"], "{state}");
    } else {
        assert!(state["result"].is_null(), "{state}");
    }
    outcome
}

/// A move of `legal` after which the side that made it has won, by the crate's rules.
fn winning_move(state: &Value) -> Option<String> {
    let (game, _, _) = replay(state);
    state["legal"].as_array()?.iter().find_map(|text| {
        let text = text.as_str()?.to_string();
        let won = match &game {
            AnyGame::Chess(r) => won(r.clone(), &text),
            AnyGame::Nichess(r) => won(r.clone(), &text),
            AnyGame::Millennium(r) => won(r.clone(), &text),
        };
        won.then_some(text)
    })
}

fn won<G: Game>(mut record: roger::rules::GameRecord<G>, text: &str) -> bool {
    let mover = record.position().side_to_move();
    record.play_text(text).is_ok()
        && matches!(record.outcome(), Outcome::Win(winner, _) if winner == mover)
}

fn moves_listed(browser: &Browser) -> Vec<String> {
    let listed = browser.run(
        "return [...document.querySelectorAll('#moves li[data-ply]')].map(li => li.dataset.move);",
        json!([]),
    );
    serde_json::from_value(listed).unwrap()
}

/// Opens the play page and waits for its connection; no game starts by itself.
fn open_page() -> (Served, Browser) {
    let served = Served::start(&[]);
    let browser = Browser::start();
    browser.goto(&served.url("/play.html"));
    wait_connected(&browser);
    (served, browser)
}

fn wait_connected(browser: &Browser) {
    browser.wait_for(
        "the page's connection",
        "return window.rogerPlay && window.rogerPlay.connected;",
        WAIT,
    );
}

/// Nothing runs before the player starts a game: no state, no clock, the page asks for a choice
/// in its new-game dialog.
fn assert_no_game_yet(browser: &Browser) {
    let open = "return document.getElementById('setup-dialog').open;";
    assert_eq!(browser.run(open, json!([])), json!(true));
    assert_eq!(
        browser.run("return window.rogerPlay.state;", json!([])),
        Value::Null
    );
    assert_eq!(browser.text("#clock-bottom"), "");
    assert_eq!(browser.text("#clock-top"), "");
    assert!(browser.text("#status").contains("New game"));
}

#[test]
fn chess_by_clicks_with_a_bad_fen_a_takeback_a_drag_and_a_promotion_mate() {
    let started = Instant::now();
    let (_served, browser) = open_page();
    assert_no_game_yet(&browser);
    new_game(&browser, "chess", "");
    let first = state(&browser);
    assert_eq!(first["game"], "chess");
    assert_eq!(
        browser.run(
            "return document.querySelectorAll('rect[data-square]').length;",
            json!([])
        ),
        64
    );

    // An invalid FEN: the rules' reason on the page, and the game on the board stays.
    new_game(&browser, "chess", "rnbqkbnr/pppppppp w");
    let error = browser.text("#setup-error");
    assert!(
        error.starts_with("This FEN cannot be played: expected 4 to 6 fields"),
        "{error}"
    );
    new_game(&browser, "chess", "rnbqkbnr/pppppppp w - - 0 1");
    let error = browser.text("#setup-error");
    assert_eq!(
        error,
        "This FEN cannot be played: the board has 2 ranks (ranks are separated by '/'), expected 8."
    );
    assert_eq!(state(&browser)["fen"], first["fen"]);

    // White to move: Rb2 leaves Black only Kg8, and then a8=Q is mate.
    let fen = "7k/P7/6K1/8/8/8/8/1R6 w - - 0 1";
    new_game(&browser, "chess", fen);
    assert_eq!(state(&browser)["fen"], fen);
    assert_eq!(browser.text("#error"), "");
    // Your clock counts down between the server's messages; Roger's stands.
    let clocks = || (browser.text("#clock-bottom"), browser.text("#clock-top"));
    let before = clocks();
    std::thread::sleep(Duration::from_millis(1100));
    let after = clocks();
    assert!(
        before.0.starts_with("You ") && before.0 != after.0,
        "{before:?} {after:?}"
    );
    assert_eq!(before.1, after.1);
    click_square(&browser, "b1");
    let targets = browser.run(
        "return [...document.querySelectorAll('[data-target]')].map(t => t.dataset.target).sort();",
        json!([]),
    );
    assert!(
        targets.as_array().unwrap().contains(&json!("b8")),
        "{targets}"
    );
    click_square(&browser, "b2");
    let answered = wait_for_plies(&browser, 2);
    assert_eq!(moves_listed(&browser), ["b1b2", "h8g8"]);
    check_against_rules(&answered);

    // Take back the pair; the clocks run for White again.
    browser.click("#takeback");
    let back = wait_for_plies(&browser, 0);
    assert_eq!(back["fen"], fen);
    assert_eq!(back["clocks"]["running"], "white");

    // The same move by drag and drop.
    drag(&browser, "b1", "b2");
    let answered = wait_for_plies(&browser, 2);
    check_against_rules(&answered);

    // The promotion asks which piece; the queen mates.
    click_move(&browser, "a7", "a8");
    browser.wait_for(
        "the promotion choice",
        "return !document.getElementById('promotion').hidden;",
        WAIT,
    );
    let offered = browser.run(
        "return [...document.querySelectorAll('[data-promotion]')].map(b => b.dataset.promotion).sort();",
        json!([]),
    );
    assert_eq!(offered, json!(["b", "n", "q", "r"]));
    browser.click("[data-promotion=\"q\"]");
    let done = wait_for_plies(&browser, 3);
    assert_eq!(moves_listed(&browser), ["b1b2", "h8g8", "a7a8q"]);
    assert_eq!(done["moves"][2]["san"], "a8=Q#");
    assert!(matches!(
        check_against_rules(&done),
        Outcome::Win(Color::White, _)
    ));
    assert_eq!(browser.text("#result"), "1-0 (checkmate)");

    browser.click("#download-pgn");
    let pgn = browser.wait_for("the PGN", "return window.rogerPlay.pgn;", WAIT);
    let pgn = pgn.as_str().unwrap();
    assert!(pgn.contains(&format!("[FEN \"{fen}\"]")), "{pgn}");
    assert!(pgn.contains("1. Rb2 Kg8 2. a8=Q# {checkmate} 1-0"), "{pgn}");
    // Roger thought (its reply Kg8), but its lines are nowhere on the page in a game.
    let shown = "return document.getElementById('analysis').offsetParent !== null;";
    assert_eq!(browser.run(shown, json!([])), json!(false));
    assert_eq!(
        browser.run(
            "return document.querySelectorAll('[data-line], [data-hint]').length;",
            json!([])
        ),
        json!(0)
    );
    // The mated king's square is marked.
    let lost =
        "return [...document.querySelectorAll('rect.lost-king')].map(r => r.dataset.square);";
    assert_eq!(browser.run(lost, json!([])), json!(["g8"]));
    // At 1280 x 800 the board, both clocks and the move list are in view without scrolling.
    let whole = [
        "#board svg",
        "#clock-top",
        "#clock-bottom",
        "#moves",
        "#result-box",
    ];
    assert_fits_at(&browser, (1280, 800), &whole, "chess");
    browser.screenshot("play-chess");

    // Stepping through the game: arrow keys and clicks on the move list.
    let fens: Vec<String> = (0..=3).map(|n| fen_after(&done, n)).collect();
    browser.press(LEFT);
    wait_for_board_at(&browser, 2, &fens[2]);
    assert_eq!(shown_ply(&browser), json!(2));
    assert_eq!(
        piece_at(&browser, "a7"),
        "P",
        "the pawn is back before its promotion"
    );
    browser.click("#moves li[data-ply=\"1\"]");
    wait_for_board_at(&browser, 1, &fens[1]);
    browser.press(UP);
    wait_for_board_at(&browser, 0, &fens[0]);
    assert_eq!(
        shown_ply(&browser),
        Value::Null,
        "no move is marked at the start"
    );
    browser.press(RIGHT);
    wait_for_board_at(&browser, 1, &fens[1]);
    assert_eq!(piece_at(&browser, "b2"), "R");
    browser.press(END);
    wait_for_board_at(&browser, 3, &fens[3]);
    assert_eq!(piece_at(&browser, "a8"), "Q");
    assert_eq!(shown_ply(&browser), json!(3));
    browser.click("#step-back");
    wait_for_board_at(&browser, 2, &fens[2]);
    browser.click("#step-last");
    wait_for_board_at(&browser, 3, &fens[3]);

    // On a phone the page fits its width, and the board with both clocks fits the screen.
    assert_fits_at(
        &browser,
        (390, 844),
        &["#board svg", "#clock-top", "#clock-bottom"],
        "chess",
    );
    browser.screenshot("play-chess-phone");
    browser.resize(1280, 800);

    println!("chess game: {:?}", started.elapsed());
}

/// The FEN after the first `plies` moves of a state's game, by the crate's rules.
fn fen_after(state: &Value, plies: usize) -> String {
    let mut cut = state.clone();
    cut["moves"] = json!(state["moves"].as_array().unwrap()[..plies]);
    replay(&cut).1
}

/// The FEN letter of the piece drawn on `square`, or "".
fn piece_at(browser: &Browser, square: &str) -> String {
    browser
        .run(
            "const g = document.querySelector(`#board g[data-on=\"${arguments[0]}\"]`); return g ? g.dataset.piece : '';",
            json!([square]),
        )
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn a_premove_waits_for_roger_and_the_right_button_draws() {
    let (_served, browser) = open_page();
    // A premove needs Roger to be thinking when it is made. Roger's think is given more time
    // each try, so that even a slow machine gets one try in which the premove is made first.
    let mut premoved = false;
    for movetime in ["3000", "10000", "30000"] {
        new_game_with(&browser, "chess", "", "20", movetime);
        click_move(&browser, "e2", "e4");
        browser.wait_for(
            "Roger thinking",
            "const s = window.rogerPlay.state; return s.moves.length === 1 && s.thinking;",
            WAIT,
        );
        click_move(&browser, "g1", "f3");
        // Both squares marked and Roger's answer not in yet: the premove waits for it.
        let waiting = browser.run(
            "return [...document.querySelectorAll('rect.premove')].map(r => r.dataset.square).sort().join() === 'f3,g1' \
             && window.rogerPlay.state.moves.length === 1;",
            json!([]),
        );
        if waiting == json!(true) {
            premoved = true;
            break;
        }
    }
    assert!(premoved, "Roger answered before every premove");
    // The premove is played the moment Roger's answer comes; Roger may answer it at once.
    let played = browser.wait_for(
        "the premove played",
        "const s = window.rogerPlay.state; return s.moves.length >= 3 ? s : null;",
        Duration::from_secs(60),
    );
    assert_eq!(played["moves"][1]["by"], "roger");
    assert_eq!(played["moves"][2]["text"], "g1f3");
    assert_eq!(played["moves"][2]["by"], "you");
    check_against_rules(&played);

    // The right button: a drag draws an arrow, a click on one square a circle; a left click
    // takes them away. Drawing does not move anything.
    browser.wait_for(
        "Roger's answer to Nf3",
        "const s = window.rogerPlay.state; return s.moves.length === 4 && s.your_turn;",
        Duration::from_secs(60),
    );
    let (d2, d4) = (centre(&browser, "d2"), centre(&browser, "d4"));
    browser.drag_between(2, d2, d4);
    let (e5, e5_again) = (centre(&browser, "e5"), centre(&browser, "e5"));
    browser.drag_between(2, e5, e5_again);
    let marks = "return [...document.querySelectorAll('[data-arrow], [data-mark]')].map(m => m.dataset.arrow || m.dataset.mark);";
    assert_eq!(browser.run(marks, json!([])), json!(["d2d4", "e5"]));
    assert_eq!(plies(&browser), 4);
    browser.screenshot("play-arrows");
    click_square(&browser, "h3");
    assert_eq!(browser.run(marks, json!([])), json!([]));

    // Resigning asks first; once the game is over the button is off.
    browser.click("#resign");
    assert_eq!(browser.text("#resign"), "Really resign?");
    assert!(state(&browser)["result"].is_null());
    browser.click("#resign");
    let resigned = browser.wait_for(
        "the resignation",
        "const s = window.rogerPlay.state; return s.result ? s : null;",
        WAIT,
    );
    assert_eq!(resigned["result"]["reason"], "you resigned");
    assert_eq!(
        browser.run(
            "return document.getElementById('resign').disabled;",
            json!([])
        ),
        json!(true)
    );
    assert!(browser.text("#result").contains("you resigned"));
    // Rematch: the same game with the colours swapped; Roger (White now) moves first.
    browser.click("#rematch");
    let rematch = browser.wait_for(
        "the rematch",
        "const s = window.rogerPlay.state; return s && s.human === 'black' && !s.result ? s : null;",
        WAIT,
    );
    assert_eq!(rematch["start_fen"], played["start_fen"]);
    assert_eq!(
        browser.run(
            "return document.getElementById('result-box').hidden;",
            json!([])
        ),
        json!(true)
    );
    assert_eq!(
        browser.run(
            "return document.getElementById('resign').disabled;",
            json!([])
        ),
        json!(false)
    );
    // A draw offer is answered on the page, whichever way Roger decides.
    browser.click("#offer-draw");
    let answer = browser.wait_for(
        "Roger's answer to the draw offer",
        "return window.rogerPlay.drawOffer;",
        WAIT,
    );
    let said = browser.text("#draw-answer");
    let expected = if answer["accepted"] == json!(true) {
        "Roger accepts the draw."
    } else {
        "Roger declines the draw"
    };
    assert!(said.starts_with(expected), "{said} {answer}");
}

/// Waits for an analysis of the page's current position with `lines` lines shown.
fn wait_for_lines(browser: &Browser, lines: usize) -> Value {
    browser.wait_for(
        &format!("{lines} lines of analysis"),
        &format!(
            "const p = window.rogerPlay; \
             return p.analysis && p.analysis.fen === p.state.fen \
               && document.querySelectorAll('#analysis-lines li').length === {lines} \
               && document.querySelectorAll('[data-hint]').length > 0 ? p.analysis : null;"
        ),
        WAIT,
    )
}

#[test]
fn an_analysis_shows_roger_s_lines_and_the_player_moves_both_sides() {
    let (_served, browser) = open_page();
    // From the dialog: the chosen game's start.
    browser.run(
        "document.getElementById('game').value = 'chess';",
        json!([]),
    );
    browser.type_into("#start-fen", "");
    browser.click("#analyse-setup");
    let start = browser.wait_for(
        "the analysis",
        "const s = window.rogerPlay.state; return s && s.analysis === 3 ? s : null;",
        WAIT,
    );
    assert_eq!(start["clocks"]["running"], Value::Null);
    let clocks = "return ['clock-top', 'clock-bottom'].map(id => document.getElementById(id).offsetParent !== null);";
    assert_eq!(
        browser.run(clocks, json!([])),
        json!([false, false]),
        "no clocks in an analysis"
    );
    let first = wait_for_lines(&browser, 3);
    let shown = "return document.getElementById('analysis').offsetParent !== null;";
    assert_eq!(browser.run(shown, json!([])), json!(true));
    // Each line starts with a legal move of White's, and the best one is drawn as an arrow.
    let legal = start["legal"].as_array().unwrap();
    for line in first["lines"].as_array().unwrap() {
        assert!(legal.contains(&line["pv"][0]), "{line}");
    }
    // The best line and the arrows read at one moment: the analysis goes on deepening, and a
    // deeper line may lead with another move.
    let now = browser.run(
        "return { best: window.rogerPlay.analysis.lines[0].pv[0], \
                  hints: [...document.querySelectorAll('[data-hint]')].map(h => h.dataset.hint) };",
        json!([]),
    );
    let best = now["best"].as_str().unwrap();
    assert_eq!(now["hints"][0], json!(&best[..4]), "{now}");
    // White's move and Black's, both by the player; Roger moves neither.
    click_move(&browser, "e2", "e4");
    browser.wait_for(
        "e2e4",
        "return window.rogerPlay.state.moves.length === 1;",
        WAIT,
    );
    click_move(&browser, "e7", "e5");
    let after = browser.wait_for(
        "e7e5",
        "const s = window.rogerPlay.state; return s.moves.length === 2 ? s : null;",
        WAIT,
    );
    assert_eq!(after["moves"][1]["by"], "you");
    wait_for_lines(&browser, 3);
    browser.screenshot("play-analysis");

    // From a game: the position on the board, here the one after the first move. The answer
    // to "new" may come after a last line of the analysis, so the game's own state is awaited.
    new_game(&browser, "chess", "");
    browser.wait_for(
        "the new game's state",
        "const s = window.rogerPlay.state; return s && !s.analysis && s.moves.length === 0;",
        WAIT,
    );
    assert_eq!(
        browser.run(shown, json!([])),
        json!(false),
        "a game hides the analysis"
    );
    click_move(&browser, "d2", "d4");
    let answered = wait_for_plies(&browser, 2);
    browser.press(LEFT);
    wait_for_board_at(&browser, 1, &fen_after(&answered, 1));
    browser.click("#analyse");
    let analysed = browser.wait_for(
        "the analysis of ply 1",
        "const s = window.rogerPlay.state; return s.analysis ? s : null;",
        WAIT,
    );
    assert_eq!(analysed["moves"].as_array().unwrap().len(), 1);
    assert_eq!(analysed["side_to_move"], "black");
    wait_for_lines(&browser, 3);
}

#[test]
fn millennium_keystone_pool_and_mate() {
    let started = Instant::now();
    let (served, browser) = open_page();
    // Rxe8 takes Black's first king and checks the other along the eighth rank; Kl7 is the
    // only answer, and Qo7 mates.
    let fen = "4k5k4/9pp4/R14/15/15/15/15/K3R3K5Q w - - 0 1 Nr";
    new_game(&browser, "millennium", fen);
    let first = state(&browser);
    assert_eq!(
        (first["files"].clone(), first["ranks"].clone()),
        (json!(15), json!(8))
    );
    assert_eq!(
        browser.run(
            "return document.querySelectorAll('rect[data-square]').length;",
            json!([])
        ),
        120
    );
    let pools = browser.run(
        "return [...document.querySelectorAll('[data-pool]')].map(p => p.dataset.pool + ':' + p.dataset.letters).sort();",
        json!([]),
    );
    assert_eq!(pools, json!(["black:r", "white:N"]));
    let royal = "return [...document.querySelectorAll('g[data-piece=\"k\"]')].map(k => k.dataset.on + ':' + k.dataset.royal);";
    assert_eq!(
        browser.run(royal, json!([])),
        json!(["e8:false", "k8:false"])
    );

    click_move(&browser, "e1", "e8");
    browser.wait_for(
        "the keystone's fall",
        "const k = document.querySelector('[data-kings=\"black\"]'); return k && k.dataset.keystone === 'e8';",
        WAIT,
    );
    assert_eq!(browser.run(royal, json!([])).as_array().unwrap().len(), 1);
    let kings = browser.text("[data-kings=\"black\"]");
    assert!(
        kings.contains("keystone king fell on e8") && kings.contains("is royal"),
        "{kings}"
    );
    browser.screenshot("play-millennium-keystone");

    let answered = wait_for_plies(&browser, 2);
    assert_eq!(moves_listed(&browser), ["e1e8", "k8l7"]);
    check_against_rules(&answered);
    assert_eq!(browser.run(royal, json!([])), json!(["l7:true"]));
    drag(&browser, "o1", "o7");
    let done = wait_for_plies(&browser, 3);
    assert_eq!(moves_listed(&browser), ["e1e8", "k8l7", "o1o7"]);
    assert!(matches!(
        check_against_rules(&done),
        Outcome::Win(Color::White, _)
    ));
    assert_eq!(
        done["millennium"]["pools"],
        json!({"white": "N", "black": "r"})
    );
    // At 1280 x 800 the wide board, both clocks and the move list are in view.
    assert_fits_at(
        &browser,
        (1280, 800),
        &["#board svg", "#clock-top", "#clock-bottom", "#moves"],
        "Millennium",
    );
    browser.screenshot("play-millennium");
    assert_fits_at(
        &browser,
        (390, 844),
        &["#board svg", "#clock-top", "#clock-bottom"],
        "Millennium",
    );
    browser.screenshot("play-millennium-phone");
    browser.resize(1280, 800);

    // Back on the page: the last choices are remembered and no game starts by itself.
    browser.goto(&served.url("/play.html"));
    wait_connected(&browser);
    assert_no_game_yet(&browser);
    assert_eq!(
        browser.run(
            "return ['game', 'minutes', 'skill'].map(id => document.getElementById(id).value);",
            json!([])
        ),
        json!(["millennium", "10", "0"])
    );
    println!("millennium game: {:?}", started.elapsed());
}

#[test]
fn nichess_health_a_throws_splash_and_the_kings_destruction() {
    let started = Instant::now();
    let (_served, browser) = open_page();
    // The queen on d1 throws the maenad on e2 at h5; then one of the pirates on a1 and b2
    // destroys the black king wherever it goes.
    let fen = "k7/8/6mn/6Nr/7p/8/1R2M3/R2QK3 w - - 0 1";
    new_game(&browser, "nichess", fen);
    let hp_on = |square: &str| {
        browser.run(
            "const t = document.querySelector(`g[data-on=\"${arguments[0]}\"] [data-hp]`); \
             return t && [t.dataset.hp, t.parentNode.querySelector('[data-ap]').dataset.ap];",
            json!([square]),
        )
    };
    assert_eq!(hp_on("h6"), json!(["60", "60"]));
    assert_eq!(hp_on("h4"), json!(["30", "60"]));
    assert_eq!(hp_on("d1"), json!(["10", "30"]));

    click_move(&browser, "d1", "h5");
    // Roger may answer at once: the throw's splash stays marked with Roger's answer.
    let answered = wait_for_plies(&browser, 2);
    assert_eq!(moves_listed(&browser)[0], "d1h5");
    assert_eq!(answered["moves"][0]["splash"], json!(["g6", "h4", "h6"]));
    check_against_rules(&answered);
    let splash = browser.run(
        "return [...document.querySelectorAll('[data-splash][data-ply=\"1\"]')].map(s => s.dataset.splash).sort();",
        json!([]),
    );
    assert_eq!(splash, json!(["g6", "h4", "h6"]));
    let hp = |piece: &str| {
        browser.run(
            "return [...document.querySelectorAll(`g[data-piece=\"${arguments[0]}\"] [data-hp]`)].map(t => t.dataset.hp);",
            json!([piece]),
        )
    };
    assert_eq!(hp("n"), json!(["40"]));
    assert_eq!(hp("p"), json!(["10"]));
    assert_eq!(hp("m"), json!([]));
    browser.screenshot("play-nichess-splash");

    let kill = winning_move(&answered).expect("a pirate reaches the black king");
    click_move(&browser, &kill[..2], &kill[2..]);
    let done = wait_for_plies(&browser, 3);
    assert_eq!(moves_listed(&browser)[2], kill);
    assert!(matches!(
        check_against_rules(&done),
        Outcome::Win(Color::White, _)
    ));
    assert_eq!(browser.text("#result"), "1-0 (king destroyed)");
    browser.screenshot("play-nichess");
    assert_eq!(plies(&browser), 3);
    println!("nichess game: {:?}", started.elapsed());
}

/// The figures drawn for the pieces on the board: `[letter, figure name, body fill]` each.
fn figures(browser: &Browser) -> Vec<Value> {
    browser
        .run(
            "return [...document.querySelectorAll('#board g.piece')].map(g => { \
               const body = g.querySelector('.figure-body'); \
               return [g.dataset.piece, g.querySelector('.figure').dataset.figure, \
                       body ? getComputedStyle(body).fill : null]; });",
            json!([]),
        )
        .as_array()
        .unwrap()
        .clone()
}

/// Plays `typed` through the move box and returns the error it shows (empty: none).
fn type_move(browser: &Browser, typed: &str) -> String {
    browser.type_into("#move-input", typed);
    browser.click("#move-entry button[type=submit]");
    browser.text("#move-entry-error")
}

#[test]
fn typed_moves_gliding_replies_and_a_figure_for_every_piece() {
    let (_served, browser) = open_page();
    new_game(&browser, "chess", "");
    wait_for_plies(&browser, 0);
    // Every piece has one of our figures; the two colours of a figure are filled differently.
    let chess = figures(&browser);
    assert_eq!(chess.len(), 32);
    let fill_of = |letter: &str| {
        let found = chess.iter().find(|f| f[0] == letter).unwrap();
        (found[1].as_str().unwrap().to_string(), found[2].clone())
    };
    for (white, black, name) in [
        ("K", "k", "king"),
        ("Q", "q", "queen"),
        ("R", "r", "rook"),
        ("B", "b", "bishop"),
        ("N", "n", "knight"),
        ("P", "p", "pawn"),
    ] {
        let (white_name, white_fill) = fill_of(white);
        let (black_name, black_fill) = fill_of(black);
        assert_eq!((white_name.as_str(), black_name.as_str()), (name, name));
        assert_ne!(white_fill, black_fill, "{name}: both colours alike");
    }
    browser.screenshot("play-figures-chess");

    // Standard notation, then the protocol's text with a dash; bad text is answered, not sent.
    assert_eq!(type_move(&browser, "Nf3"), "");
    let state = wait_for_plies(&browser, 2);
    assert_eq!(state["moves"][0]["text"], "g1f3");
    // Roger's answer slid in from the square it left.
    let last = &state["last_move"];
    let glided = browser.run(
        "const g = document.querySelector(`#board g[data-on=\"${arguments[0]}\"]`); \
         return g && g.dataset.glidedFrom;",
        json!([last["to"]]),
    );
    assert_eq!(glided, last["from"]);
    assert!(type_move(&browser, "e9").contains("not a legal move"));
    assert!(type_move(&browser, "Qd4").contains("not a legal move"));
    assert_eq!(plies(&browser), 2);
    assert_eq!(type_move(&browser, "e2-e4"), "");
    let state = wait_for_plies(&browser, 4);
    assert_eq!(state["moves"][2]["text"], "e2e4");

    // On a phone, by touch: a tap on the d-pawn, then on d4.
    browser.resize(390, 844);
    let from = centre(&browser, "d2");
    browser.tap(from);
    let to = centre(&browser, "d4");
    browser.tap(to);
    let state = wait_for_plies(&browser, 6);
    assert_eq!(state["moves"][4]["text"], "d2d4");
    browser.resize(1280, 900);

    // Nichess: the maenad and the pirate have figures of their own.
    new_game(&browser, "nichess", "");
    wait_for_plies(&browser, 0);
    let nichess = figures(&browser);
    let names: Vec<&str> = nichess.iter().map(|f| f[1].as_str().unwrap()).collect();
    for (letter, name) in [
        ("M", "maenad"),
        ("m", "maenad"),
        ("R", "pirate"),
        ("r", "pirate"),
    ] {
        assert!(
            nichess.iter().any(|f| f[0] == letter && f[1] == name),
            "{letter}: {names:?}"
        );
    }
    browser.screenshot("play-figures-nichess");
}

/// Chess960 in the browser: a start position by its number (the position field shows only for
/// Chess960), and castling by moving the king onto its own rook.
#[test]
fn chess960_from_a_numbered_start_and_castling_king_onto_rook() {
    let (_served, browser) = open_page();
    browser.run(
        "document.getElementById('game').value = 'chess';
         document.getElementById('game').dispatchEvent(new Event('change'));",
        json!([]),
    );
    let hidden = "return document.getElementById('position-field').hidden;";
    assert_eq!(browser.run(hidden, json!([])), json!(true));
    browser.run(
        "document.getElementById('game').value = 'chess960';
         document.getElementById('game').dispatchEvent(new Event('change'));",
        json!([]),
    );
    assert_eq!(browser.run(hidden, json!([])), json!(false));
    browser.type_into("#position", "0");
    new_game(&browser, "chess960", "");
    let state = wait_for_plies(&browser, 0);
    assert_eq!(state["chess960"], 0, "{state}");
    for (square, piece) in [
        ("a1", "B"),
        ("b1", "B"),
        ("c1", "Q"),
        ("f1", "R"),
        ("g1", "K"),
    ] {
        assert_eq!(piece_at(&browser, square), piece, "{square}");
    }
    assert!(browser.text("#legend").contains("start position 0"));
    // King b1, rook c1: the king clicked onto its own rook castles short, to g1 and f1.
    new_game(&browser, "chess", "4k3/pppppppp/8/8/8/8/8/1KR5 w C - 0 1");
    wait_for_plies(&browser, 0);
    click_move(&browser, "b1", "c1");
    let state = wait_for_plies(&browser, 2);
    assert_eq!(state["moves"][0]["text"], "b1c1", "{state}");
    assert_eq!(state["moves"][0]["san"], "O-O", "{state}");
    assert!(
        fen_after(&state, 1).starts_with("4k3/pppppppp/8/8/8/8/8/5RK1 b"),
        "{state}"
    );
    check_against_rules(&state);
}
