//! `roger bot` plays a whole simulated world against house bots through a real server, and
//! survives the server being killed and restarted in the middle: it reconnects with its token
//! and plays on until the world ends.

use crate::world_support;

use roger::world::events::Event;
use roger::world::store::{SqliteStore, WorldStore};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use world_support::{Server, TempDir, ROGER};

#[test]
fn roger_bot_plays_a_whole_world_against_house_bots_and_survives_a_server_restart() {
    let dir = TempDir::new("bot");
    let db = dir.join("world.sqlite");
    let token_file = dir.join("bot.token");
    let turns = 40;
    let args = |resume: bool| {
        let mut args: Vec<String> = [
            "--simulate",
            "--size",
            "96",
            "96",
            "--seed",
            "5",
            "--house-bots",
            "2",
            "--house-movetime",
            "50",
            "--wait-players",
            "3",
            "--turns",
            &turns.to_string(),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        if resume {
            args.push("--resume".into());
        }
        args
    };
    let first_args = args(false);
    let refs: Vec<&str> = first_args.iter().map(String::as_str).collect();
    let mut server = Server::start(&db, &refs);
    let listen = server.addr.clone();

    let mut bot = Command::new(ROGER)
        .args(["bot", "--server", &format!("ws://{listen}")])
        .args(["--team", "auto", "--name", "visitor", "--movetime", "100"])
        .arg("--token-file")
        .arg(&token_file)
        .args(["--give-up", "60"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (sender, log) = mpsc::channel::<String>();
    for output in [
        Box::new(bot.stdout.take().unwrap()) as Box<dyn std::io::Read + Send>,
        Box::new(bot.stderr.take().unwrap()),
    ] {
        let sender = sender.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines().map_while(Result::ok) {
                let _ = sender.send(line);
            }
        });
    }
    // Only the readers hold senders now: the log ends when both pipes close.
    drop(sender);
    let mut lines = Vec::new();

    // Kill the server in the middle of the world, then start it again on the same port.
    server.wait_line("turn 12 ", Duration::from_secs(90));
    server.kill();
    drop(server);
    let second_args = args(true);
    let refs: Vec<&str> = second_args.iter().map(String::as_str).collect();
    let mut server = Server::start_on(&db, &listen, &refs);
    assert_eq!(server.wait_exit(Duration::from_secs(150)), Some(0));

    // The world is over: the bot ends by itself.
    let end = Instant::now() + Duration::from_secs(30);
    let status = loop {
        lines.extend(log.try_iter());
        if let Some(status) = bot.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < end, "the bot did not end: {lines:#?}");
        std::thread::sleep(Duration::from_millis(50));
    };
    // Every line the bot wrote, up to the close of its pipes.
    lines.extend(log.iter());
    assert_eq!(status.code(), Some(0), "{lines:#?}");
    assert!(
        lines.iter().any(|line| line.contains("reconnect")),
        "the bot says it reconnected: {lines:#?}"
    );
    assert!(token_file.exists());

    // The bot's player moved before and after the restart, and the world reached its end.
    let (mut store, saved) = SqliteStore::resume(&db).unwrap();
    assert_eq!(saved.last_turn, turns);
    let players = store.players().unwrap();
    let visitor = players
        .iter()
        .find(|row| row.name == "visitor")
        .unwrap_or_else(|| panic!("{players:?}"));
    assert!(!visitor.house);
    assert!(players.iter().filter(|row| row.house).count() >= 2);
    let moved_in: Vec<u64> = store
        .events(1, turns)
        .unwrap()
        .iter()
        .filter(|entry| matches!(&entry.event, Event::Move { player, .. } if *player == visitor.id))
        .map(|entry| entry.turn)
        .collect();
    assert!(moved_in.iter().any(|&turn| turn < 12), "{moved_in:?}");
    assert!(
        moved_in.iter().any(|&turn| turn > 14),
        "the bot moved after the restart: {moved_in:?}"
    );
    let _ = server.wait_exit(Duration::from_secs(1));
}
