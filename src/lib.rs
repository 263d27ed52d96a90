//! Roger: a game-playing engine for standard chess and chess variants.
//!
//! Layers, each in its own folder: [`common`] (the seeded generator and the date, for every
//! layer), [`board`] (geometry and bitboards), [`rules`] (one module per
//! game), [`eval`] (evaluation per game), [`search`], [`engine`] (drives a game and its search,
//! with no text protocol), [`protocol`] (parses and prints the UCI-like protocol), [`plan`]
//! (the realtime and Megachess players), [`players`] (reference players), [`arena`]
//! (tournaments), [`world`] (the Megachess world server and its bots) and [`web`] (the browser
//! pages and their server).

pub mod arena;
pub mod bench;
pub mod board;
pub mod common;
pub mod engine;
pub mod eval;
pub mod fuzz;
pub mod net;
pub mod options;
pub mod plan;
pub mod players;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod tune;
pub mod web;
pub mod world;
