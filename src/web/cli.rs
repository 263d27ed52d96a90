//! `roger serve`'s command line and what it runs.

use super::{WebConfig, WebServer};
use crate::plan::megachess::SKILL_LEVEL;
use crate::world::config::WorldConfig;
use crate::world::turns::RunningWorld;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// `roger serve`: the pages, and optionally a Megachess world for the world page.
#[derive(Args, Clone, Debug)]
pub struct ServeArgs {
    /// Where the pages are served (host:port; port 0 picks one).
    #[arg(long, default_value = "127.0.0.1:8600")]
    pub listen: String,
    /// The world page's default server: a world server's WebSocket address
    /// (ws://HOST:PORT/ws). Without it, and without --no-world, `roger serve` runs a world of
    /// its own.
    #[arg(long)]
    pub world: Option<String>,
    /// Run no world of its own.
    #[arg(long)]
    pub no_world: bool,
    /// Where its own world listens (host:port; port 0 picks one).
    #[arg(long, default_value = "127.0.0.1:8640")]
    pub world_listen: String,
    /// House bots in its own world.
    #[arg(long, default_value_t = 4)]
    pub world_bots: usize,
    /// Its own world's turn length in milliseconds: 30 s, so that a newcomer can move a good
    /// part of an army in a turn (10 s gave time for two or three moves).
    #[arg(long, default_value_t = 30_000)]
    pub world_turn_ms: u64,
}

pub fn command(args: &ServeArgs) -> ExitCode {
    let mut world = None;
    let mut world_url = args.world.clone();
    if world_url.is_none() && !args.no_world {
        // The world's file is scratch: gone when the server is stopped with Ctrl-C.
        let db = world_file();
        let scratch = db.clone();
        let _ = ctrlc::set_handler(move || {
            for suffix in ["", "-wal", "-shm", "-holder"] {
                let mut name = scratch.clone().into_os_string();
                name.push(suffix);
                let _ = std::fs::remove_file(name);
            }
            std::process::exit(0);
        });
        match start_world(args, db) {
            Ok((running, url)) => {
                world = Some(running);
                world_url = Some(url);
            }
            Err(error) => {
                eprintln!("roger serve: the world: {error}");
                return ExitCode::FAILURE;
            }
        }
    }
    let config = WebConfig {
        listen: args.listen.clone(),
        world: world_url.clone(),
        ..WebConfig::default()
    };
    let server = match WebServer::start(config) {
        Ok(server) => server,
        Err(error) => {
            eprintln!("roger serve: {error}");
            return ExitCode::FAILURE;
        }
    };
    println!("listening http://{}/", server.local_addr());
    if let Some(url) = &world_url {
        println!("world {url}");
    }
    server.wait();
    if let Some(world) = world {
        let _ = world.shutdown();
    }
    ExitCode::SUCCESS
}

/// A wall-clock world in a fresh file of the system's temporary folder, with house bots that
/// play gently (a new player should not be overrun in the first turns).
fn start_world(args: &ServeArgs, db: PathBuf) -> Result<(RunningWorld, String), String> {
    let _ = std::fs::remove_file(&db);
    let mut config = WorldConfig {
        db: db.into(),
        listen: args.world_listen.clone(),
        standings_every: 0,
        ..WorldConfig::default()
    };
    config.params.set("turn_ms", args.world_turn_ms as i64)?;
    config.house.bots = args.world_bots;
    config
        .house
        .options
        .push((SKILL_LEVEL.to_string(), "5".into()));
    let world = RunningWorld::start(config, Box::new(|_line: &str| {}))?;
    let addr = world.local_addr().ok_or("the world does not listen")?;
    Ok((world, format!("ws://{addr}/ws")))
}

/// The file of the world `roger serve` runs: the system's temporary folder, one per process.
fn world_file() -> PathBuf {
    std::env::temp_dir().join(format!("roger-serve-world-{}.sqlite", std::process::id()))
}
