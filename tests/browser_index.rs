//! The front page in a real headless Chromium: served by `roger serve` with nothing fetched from
//! elsewhere, and its session socket answering.

use crate::browser_support;

use browser_support::{Browser, Served};
use serde_json::json;
use std::time::Duration;

#[test]
fn the_front_page_links_every_page_and_its_socket_answers() {
    let served = Served::start(&[]);
    let browser = Browser::start();
    browser.goto(&served.url("/"));
    browser.wait_for(
        "the echo session",
        "return document.getElementById('connection').textContent === 'connected to Roger';",
        Duration::from_secs(20),
    );
    for link in [
        "go-play",
        "go-realtime",
        "go-world",
        "go-replay",
        "go-rules",
    ] {
        assert!(!browser.text(&format!("#{link}")).is_empty(), "{link}");
    }
    // Every resource the page loaded came from roger serve itself.
    let foreign = browser.run(
        "return performance.getEntriesByType('resource').map(e => e.name)\
         .filter(n => !n.startsWith(location.origin) && !n.startsWith('ws'));",
        serde_json::json!([]),
    );
    assert_eq!(foreign, serde_json::json!([]), "resources from elsewhere");
    browser.screenshot("index");
    assert!(
        !browser.phone_screenshot("index"),
        "the front page scrolls sideways at 390 px"
    );
}

#[test]
fn the_rules_page_draws_its_diagrams_at_both_sizes() {
    let served = Served::start(&[]);
    let browser = Browser::start();
    browser.goto(&served.url("/rules.html"));
    let diagrams = browser.wait_for(
        "the diagrams",
        "const boards = [...document.querySelectorAll('figure.diagram svg')]; \
         return boards.length === document.querySelectorAll('figure.diagram').length && boards.length > 0 \
           ? boards.map(b => [b.closest('section').id, b.querySelectorAll('rect[data-square]').length, \
                              b.querySelectorAll('g[data-piece]').length]) : null;",
        Duration::from_secs(20),
    );
    // Each game's board with its pieces read from the FEN: Millennium's 120 squares and 60
    // pieces at the start, Nichess's 32.
    assert_eq!(diagrams[0], json!(["millennium", 120, 60]), "{diagrams}");
    assert!(
        diagrams
            .as_array()
            .unwrap()
            .contains(&json!(["nichess", 64, 32])),
        "{diagrams}"
    );
    // The throw's diagram: its arrow, and the start health of the pieces around the target.
    let throw = browser.run(
        "const figure = [...document.querySelectorAll('figure.diagram')].find(f => f.dataset.arrows === 'e2h5'); \
         return [figure.querySelector('[data-arrow]').dataset.arrow, \
                 figure.querySelector('g[data-on=\"h6\"] [data-hp]').dataset.hp];",
        json!([]),
    );
    assert_eq!(throw, json!(["e2h5", "60"]));
    for section in ["chess", "millennium", "nichess", "realtime", "megachess"] {
        assert!(
            !browser.text(&format!("#{section} h2")).is_empty(),
            "{section}"
        );
    }
    browser.screenshot("rules");
    browser.resize(390, 844);
    let sideways = browser.run(
        "return document.documentElement.scrollWidth > document.documentElement.clientWidth;",
        json!([]),
    );
    assert_eq!(
        sideways,
        json!(false),
        "the rules page scrolls sideways at 390 px"
    );
    browser.screenshot("rules-phone");
}
