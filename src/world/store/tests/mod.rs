//! The stores against real files and a real PostgreSQL server: round trips, crashes,
//! all-or-nothing commits, on both stores alike; every error of a file (`errors.rs`) and of a
//! database (`postgres.rs`), and the time a crowded world takes (`timing.rs`).
//!
//! The PostgreSQL server is the one `ROGER_TEST_POSTGRES` names (`.ci/run` starts one); each
//! test makes a database of its own and drops it.

mod errors;
mod postgres;
mod timing;

use super::*;
use crate::rules::megachess::{Coord, Facing, MegachessParams, World};
use crate::world::api::MoveReport;
use crate::world::events::Event;
use crate::world::scratch::Scratch;
use crate::world::store;
use rusqlite::Connection;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SEED: u64 = 0xC0FF_EE00_DEAD_BEEF;

/// A small world played for real: three players, armies, moves, fading, bonus pieces, and the
/// server's rows and log of it.
struct Game {
    world: World,
    rows: Vec<PlayerRow>,
    server: ServerState,
}

impl Game {
    fn new() -> Game {
        let params = MegachessParams {
            width: 48,
            height: 48,
            bonus_every: 1,
            kingdom_radius: 2,
            ..MegachessParams::default()
        };
        let mut world = World::new(params, SEED);
        let armies = [
            (1, Team::Alabaster, Coord::new(2, 2), Facing::North),
            (2, Team::Metal, Coord::new(20, 30), Facing::South),
            (3, Team::Alabaster, Coord::new(40, 10), Facing::West),
        ];
        let mut rows = Vec::new();
        for (id, team, corner, facing) in armies {
            world.add_player(id, team).unwrap();
            world.spawn_army(id, corner, facing).unwrap();
            rows.push(PlayerRow {
                id,
                team,
                name: format!("player {id}"),
                token: format!("token-{id}-secret"),
                house: id == 3,
                joined_turn: 1,
                eliminated_turn: None,
                kings_taken: 0,
                score: 0,
            });
        }
        Game {
            world,
            rows,
            server: ServerState {
                placement_random: u64::MAX - 5,
                next_player: 4,
                placed: [2, 1],
            },
        }
    }

    /// Two moves for every player of the team to move, a rejected one, then the turn's end.
    /// Returns the turn that ended and its log.
    fn play_turn(&mut self) -> (u64, Vec<LogEntry>) {
        let turn = self.world.turn();
        let mut events = Vec::new();
        let mut ms = 0;
        let mut entry = |event: Event| {
            ms += 7;
            LogEntry { turn, ms, event }
        };
        let movers: Vec<PlayerId> = self
            .world
            .players()
            .filter(|player| player.team == self.world.team_to_move())
            .map(|player| player.id)
            .collect();
        for player in movers {
            for _ in 0..2 {
                let Some(&mv) = self.world.legal_moves(player).last() else {
                    break;
                };
                let effects = self.world.apply(player, mv).unwrap();
                events.push(entry(Event::Move {
                    player,
                    mv: mv.to_string(),
                    effects: MoveReport {
                        points: effects.points,
                        ..MoveReport::default()
                    },
                }));
            }
            events.push(entry(Event::Rejected {
                player,
                mv: "0,0-47,47".into(),
                rejection: "illegal".into(),
                reason: "a test's nonsense".into(),
            }));
        }
        self.world.end_turn();
        let scores = self
            .world
            .players()
            .map(|player| (player.id, player.score))
            .collect();
        events.push(entry(Event::TurnEnd { scores }));
        for row in &mut self.rows {
            if let Some(player) = self.world.player(row.id) {
                row.score = player.score;
            }
        }
        self.server.placement_random = self.server.placement_random.wrapping_add(3);
        (turn, events)
    }
}

/// Runs each test named once on an SQLite file and once on a PostgreSQL database, as
/// `NAME::sqlite` and `NAME::postgres`: `fn NAME(place: &StorePlace)`, the place new.
macro_rules! on_both_stores {
    ($($test:ident),* $(,)?) => {$(
        mod $test {
            #[test]
            fn sqlite() {
                super::on_sqlite(stringify!($test), super::$test)
            }

            #[test]
            fn postgres() {
                super::on_postgres(stringify!($test), super::$test)
            }
        }
    )*};
}

fn on_sqlite(label: &str, test: fn(&StorePlace)) {
    let dir = Scratch::new(label);
    test(&StorePlace::File(dir.file("world.sqlite")));
}

fn on_postgres(label: &str, test: fn(&StorePlace)) {
    if let Some(database) = ScratchDatabase::for_test(label) {
        test(&database.place());
    }
}

/// Runs `sql` on the store's database behind its back, as another program would.
fn raw(place: &StorePlace, sql: &str) {
    match place {
        StorePlace::File(path) => Connection::open(path).unwrap().execute_batch(sql).unwrap(),
        StorePlace::Postgres(url) => {
            ::postgres::Client::connect(url.secret(), ::postgres::NoTls)
                .unwrap()
                .batch_execute(sql)
                .unwrap();
        }
    }
}

fn commit(store: &mut dyn WorldStore, game: &Game, turn: u64, events: &[LogEntry]) {
    let world = game.world.snapshot();
    store
        .commit_turn(&TurnCommit {
            turn,
            world: &world,
            players: &game.rows,
            events,
            server: game.server,
        })
        .unwrap();
}

/// A new world with the game's world before turn 1 and its players.
fn create(place: &StorePlace, game: &Game) -> Box<dyn WorldStore> {
    let mut store = store::create(place, SEED, &game.world.snapshot(), game.server).unwrap();
    for row in &game.rows {
        store.add_player(row).unwrap();
    }
    store
}

fn same_world(saved: &WorldSnapshot, world: &World) {
    assert_eq!(saved, &world.snapshot());
    let back = World::from_snapshot(saved).unwrap();
    for player in world.players() {
        assert_eq!(
            back.position_line(player.id, None),
            world.position_line(player.id, None)
        );
    }
}

on_both_stores!(
    a_world_played_and_committed_resumes_as_it_was,
    pieces_moved_in_the_turn_in_progress_come_back,
    a_killed_server_loses_only_the_turn_in_progress,
    a_token_is_kept_without_a_commit_after_it,
    a_failed_commit_writes_nothing_of_its_turn,
    events_come_back_by_turn_in_order,
);

fn a_world_played_and_committed_resumes_as_it_was(path: &StorePlace) {
    let mut game = Game::new();
    let mut store = create(path, &game);
    let mut log = Vec::new();
    for _ in 0..6 {
        let (turn, events) = game.play_turn();
        commit(store.as_mut(), &game, turn, &events);
        log.extend(events);
    }
    drop(store);
    // The world exercises every column: moved pieces, fading lives, neutral bonus pieces.
    let snapshot = game.world.snapshot();
    assert!(snapshot.pieces.iter().any(|piece| piece.moved));
    assert!(snapshot.pieces.iter().any(|piece| piece.life.is_some()));
    assert!(snapshot.pieces.iter().any(|piece| piece.owner == 0));
    assert!(snapshot.players.iter().all(|player| player.score > 0));

    let (mut store, saved) = store::resume(path).unwrap();
    assert_eq!(saved.seed, SEED);
    assert_eq!(saved.last_turn, 6);
    same_world(&saved.world, &game.world);
    assert_eq!(saved.players, game.rows);
    assert_eq!(saved.server, game.server);
    assert_eq!(store.players().unwrap(), game.rows);
    assert_eq!(store.events(0, u64::MAX).unwrap(), log);
    // The generator came back: the resumed world goes on as the original does.
    let mut back = World::from_snapshot(&saved.world).unwrap();
    assert_eq!(back.end_turn(), game.world.end_turn());
    assert_eq!(back.snapshot(), game.world.snapshot());
}

fn pieces_moved_in_the_turn_in_progress_come_back(path: &StorePlace) {
    let mut game = Game::new();
    let mut store = create(path, &game);
    let mv = game.world.legal_moves(1)[0];
    game.world.apply(1, mv).unwrap();
    commit(store.as_mut(), &game, 1, &[]);
    drop(store);
    let (_, saved) = store::resume(path).unwrap();
    assert_eq!(saved.world.moved_this_turn.len(), 1);
    same_world(&saved.world, &game.world);
}

/// Run by `a_killed_server_loses_only_the_turn_in_progress` as a child process: writes two
/// turns and a new player's row in turn 3 to the file named by the environment, says so, and
/// waits to be killed.
#[test]
#[ignore = "a child process of a_killed_server_loses_only_the_turn_in_progress"]
fn killed_child() {
    let Some(path) = std::env::var_os("ROGER_STORE_KILLED_CHILD") else {
        return;
    };
    let mut game = Game::new();
    let place = StorePlace::parse(path.to_str().unwrap());
    let mut store = create(&place, &game);
    for _ in 0..2 {
        let (turn, events) = game.play_turn();
        commit(store.as_mut(), &game, turn, &events);
    }
    store.add_player(&late_joiner()).unwrap();
    // libtest prints the test's name on the same line first.
    println!("{WRITTEN}");
    std::thread::sleep(Duration::from_secs(20));
}

/// The place as `StorePlace::parse` reads it back (a URL with its password).
fn place_text(place: &StorePlace) -> String {
    match place {
        StorePlace::File(path) => path.to_str().unwrap().to_string(),
        StorePlace::Postgres(url) => url.secret().to_string(),
    }
}

/// What the killed child prints once its writes are done.
const WRITTEN: &str = "the store child wrote its world";

fn late_joiner() -> PlayerRow {
    PlayerRow {
        id: 4,
        team: Team::Metal,
        name: "late".into(),
        token: "late-token".into(),
        house: false,
        joined_turn: 3,
        eliminated_turn: None,
        kings_taken: 0,
        score: 0,
    }
}

fn a_killed_server_loses_only_the_turn_in_progress(path: &StorePlace) {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "world::store::tests::killed_child",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("ROGER_STORE_KILLED_CHILD", place_text(path))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let written = stdout
        .lines()
        .map_while(Result::ok)
        .any(|line| line.ends_with(WRITTEN));
    // SIGKILL: no destructor, no checkpoint, the last writes only in the WAL.
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(written, "the child process did not write the world");

    let mut game = Game::new();
    for _ in 0..2 {
        game.play_turn();
    }
    let (mut store, saved) = store::resume(path).unwrap();
    assert_eq!(saved.last_turn, 2);
    same_world(&saved.world, &game.world);
    let mut rows = game.rows.clone();
    rows.push(late_joiner());
    assert_eq!(saved.players, rows);
    assert_eq!(
        store.events(1, 2).unwrap().len(),
        store.events(0, 99).unwrap().len()
    );
}

fn a_token_is_kept_without_a_commit_after_it(path: &StorePlace) {
    let game = Game::new();
    let mut store = create(path, &game);
    store.add_player(&late_joiner()).unwrap();
    // Closed with no commit after the row. (Left open as a crash leaves it, the file stays
    // held by this process: the crash itself is `a_killed_server_loses_only_the_turn_in_progress`'s,
    // whose child writes the same row with no commit after it.)
    drop(store);
    let (mut store, saved) = store::resume(path).unwrap();
    assert_eq!(saved.last_turn, 0);
    assert!(saved.players.contains(&late_joiner()));
    assert_eq!(store.players().unwrap(), saved.players);
}

fn a_failed_commit_writes_nothing_of_its_turn(path: &StorePlace) {
    let mut game = Game::new();
    let mut store = create(path, &game);
    let (turn, first_events) = game.play_turn();
    commit(store.as_mut(), &game, turn, &first_events);
    let after_first = game.world.snapshot();
    let first_rows = game.rows.clone();
    let first_server = game.server;

    // Turn 2 fails after the world and pieces were written: two players, one token.
    let (turn, events) = game.play_turn();
    let mut clashing = game.rows.clone();
    clashing[1].token = clashing[0].token.clone();
    let world = game.world.snapshot();
    let error = store
        .commit_turn(&TurnCommit {
            turn,
            world: &world,
            players: &clashing,
            events: &events,
            server: ServerState::default(),
        })
        .unwrap_err();
    assert!(matches!(error, StoreError::Database { .. }), "{error}");
    let (unique, twice) = match path {
        StorePlace::File(_) => ("UNIQUE", "turns.turn"),
        StorePlace::Postgres(_) => ("players_token_key", "turns_pkey"),
    };
    assert!(error.to_string().contains(unique), "{error}");
    // A turn committed twice fails at its last row, the turns table.
    let error = store
        .commit_turn(&TurnCommit {
            turn: 1,
            world: &world,
            players: &game.rows,
            events: &events,
            server: ServerState::default(),
        })
        .unwrap_err();
    assert!(error.to_string().contains(twice), "{error}");
    drop(store);

    let (mut store, saved) = store::resume(path).unwrap();
    assert_eq!(saved.last_turn, 1);
    assert_eq!(saved.world, after_first);
    assert_eq!(saved.players, first_rows);
    assert_eq!(saved.server, first_server);
    assert_eq!(store.events(0, 99).unwrap(), first_events);
    // The store goes on: turn 2 written properly this time.
    commit(store.as_mut(), &game, turn, &events);
    drop(store);
    let (_, saved) = store::resume(path).unwrap();
    assert_eq!(saved.last_turn, 2);
    same_world(&saved.world, &game.world);
}

fn events_come_back_by_turn_in_order(path: &StorePlace) {
    let mut game = Game::new();
    let mut store = create(path, &game);
    let mut by_turn = Vec::new();
    for _ in 0..4 {
        let (turn, events) = game.play_turn();
        assert!(events.len() > 2);
        commit(store.as_mut(), &game, turn, &events);
        by_turn.push(events);
    }
    assert_eq!(store.events(2, 2).unwrap(), by_turn[1]);
    assert_eq!(
        store.events(2, 3).unwrap(),
        [&by_turn[1][..], &by_turn[2][..]].concat()
    );
    assert_eq!(store.events(1, 4).unwrap(), by_turn.concat());
    assert!(store.events(3, 2).unwrap().is_empty());
    assert!(store.events(5, u64::MAX).unwrap().is_empty());
    drop(store);
    let (mut store, _) = store::resume(path).unwrap();
    assert_eq!(store.events(4, 4).unwrap(), by_turn[3]);
}
