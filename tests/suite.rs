//! The integration suite: every file of `tests/` is a module of this one test binary. One
//! binary links the library once instead of once per file, which is most of a cold build's
//! time on a small machine (see the README's testing section). Run a part of it by its module
//! path: `cargo test --test suite uci::` or `cargo test --test suite world_load:: -- --ignored`.
//! A new file of `tests/` must be named below: `autotests` is off in Cargo.toml, so cargo no
//! longer builds a file of `tests/` on its own.

// What the tests share: the protocol driver, the browser driver, the world server's driver.
mod browser_support;
mod common;
mod world_support;

mod arena;
mod browser_index;
mod browser_play;
mod browser_realtime;
mod browser_replay;
mod browser_world;
mod chess960;
mod data_pipeline;
mod doc_links;
mod fuzz_protocol;
mod fuzz_rules;
mod hardening_input;
mod hardening_limits;
mod hardening_rules;
mod hardening_search;
mod layering;
mod megachess_rules;
mod megachess_strength;
mod megachess_uci;
mod millennium_uci;
mod nichess_uci;
mod protocol_examples;
mod realtime_rules;
mod realtime_strength;
mod realtime_uci;
mod search_stack;
mod uci;
mod web_server;
mod world_bot;
mod world_bot_link;
mod world_bridge;
mod world_load;
mod world_resume;
mod world_server;
