//! The front page in a real headless Chromium: served by `roger serve` with nothing fetched from
//! elsewhere, and its session socket answering.

use crate::browser_support;

use browser_support::{Browser, Served};
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
    for link in ["go-play", "go-realtime", "go-world", "go-replay"] {
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
}
