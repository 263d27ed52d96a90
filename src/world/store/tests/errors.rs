//! Every way a file can be wrong, and what each error says.

use super::*;
use crate::world::store::sqlite::holder;

/// A good world file to damage.
fn world_file(dir: &Scratch, name: &str) -> PathBuf {
    let path = dir.file(name);
    let mut game = Game::new();
    let mut store = create(&StorePlace::File(path.clone()), &game);
    let (turn, events) = game.play_turn();
    commit(store.as_mut(), &game, turn, &events);
    path
}

fn raw_file(path: &Path, sql: &str) {
    raw(&StorePlace::File(path.to_path_buf()), sql);
}

#[test]
fn a_missing_file_is_not_resumed() {
    let dir = Scratch::new("missing");
    let path = dir.file("nowhere.sqlite");
    let error = SqliteStore::resume(&path).err().unwrap();
    assert!(matches!(error, StoreError::Missing(_)));
    let text = error.to_string();
    assert!(
        text.contains("nowhere.sqlite") && text.contains("--resume"),
        "{text}"
    );
    assert!(!path.exists());
}

#[test]
fn an_existing_file_is_never_overwritten() {
    let dir = Scratch::new("exists");
    let path = world_file(&dir, "world.sqlite");
    let game = Game::new();
    let error = SqliteStore::create(&path, 1, &game.world.snapshot(), game.server)
        .err()
        .unwrap();
    assert!(matches!(error, StoreError::Exists(_)));
    assert_eq!(
        error.to_string(),
        format!(
            "{} exists: pass --resume to continue it, or choose another --db",
            path.display()
        )
    );
    assert_eq!(SqliteStore::resume(&path).unwrap().1.last_turn, 1);

    let notes = dir.file("notes.txt");
    std::fs::write(&notes, "my notes\n").unwrap();
    let error = SqliteStore::create(&notes, 1, &game.world.snapshot(), game.server)
        .err()
        .unwrap();
    assert!(matches!(error, StoreError::Exists(_)));
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");
}

#[test]
fn a_failed_create_leaves_no_file() {
    let dir = Scratch::new("failed-create");
    let path = dir.file("world.sqlite");
    let mut world = Game::new().world.snapshot();
    world.turn = u64::MAX;
    let error = SqliteStore::create(&path, 1, &world, ServerState::default())
        .err()
        .unwrap();
    assert!(matches!(error, StoreError::Database { .. }), "{error}");
    assert!(error.to_string().contains("does not fit"), "{error}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn a_text_file_is_not_a_database() {
    let dir = Scratch::new("text");
    let path = dir.file("notes.txt");
    let text = "These are not the rows you are looking for.\n".repeat(40);
    std::fs::write(&path, &text).unwrap();
    let error = SqliteStore::resume(&path).err().unwrap();
    assert!(matches!(error, StoreError::NotADatabase { .. }), "{error}");
    let message = error.to_string();
    assert!(message.contains("notes.txt") && message.contains("not an SQLite database"));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    let error = SqliteStore::resume(dir.path()).err().unwrap();
    assert!(matches!(error, StoreError::NotADatabase { .. }), "{error}");
}

#[test]
fn another_programs_database_is_left_alone() {
    let dir = Scratch::new("foreign");
    let path = dir.file("recipes.sqlite");
    raw_file(
        &path,
        "CREATE TABLE recipes (name TEXT, minutes INTEGER);
         INSERT INTO recipes VALUES ('soup', 40);",
    );
    let error = SqliteStore::resume(&path).err().unwrap();
    assert!(matches!(error, StoreError::Foreign { .. }), "{error}");
    let message = error.to_string();
    assert!(
        message.contains("recipes.sqlite")
            && message.contains("application id 0x0")
            && message.contains("tables recipes")
            && message.contains("refusing to touch it"),
        "{message}"
    );
    // Untouched: still its own journal mode, its own rows, no id of ours.
    let connection = Connection::open(&path).unwrap();
    let mode: String = connection
        .query_row("PRAGMA journal_mode", [], |row| row.get(0))
        .unwrap();
    assert_eq!(mode, "delete");
    let minutes: i64 = connection
        .query_row("SELECT minutes FROM recipes", [], |row| row.get(0))
        .unwrap();
    assert_eq!(minutes, 40);

    let empty = dir.file("empty.sqlite");
    std::fs::write(&empty, "").unwrap();
    let error = SqliteStore::resume(&empty).err().unwrap();
    assert!(matches!(error, StoreError::Foreign { .. }), "{error}");
    assert!(error.to_string().contains("no tables"), "{error}");
    assert_eq!(std::fs::metadata(&empty).unwrap().len(), 0);
}

#[test]
fn another_format_is_refused() {
    let dir = Scratch::new("version");
    let path = world_file(&dir, "world.sqlite");
    raw_file(&path, "PRAGMA user_version = 2;");
    let error = SqliteStore::resume(&path).err().unwrap();
    assert!(
        matches!(
            error,
            StoreError::Version {
                found: 2,
                want: 1,
                ..
            }
        ),
        "{error}"
    );
    assert!(error.to_string().contains("format 2"), "{error}");
}

/// Resuming a world damaged by `sql` is `Corrupt` with a message holding `expected`.
fn assert_corrupt(name: &str, sql: &str, expected: &[&str]) {
    let dir = Scratch::new("corrupt");
    let path = world_file(&dir, name);
    raw_file(&path, sql);
    let error = SqliteStore::resume(&path).err().unwrap();
    assert!(
        matches!(error, StoreError::Corrupt { .. }),
        "{sql}: {error}"
    );
    let message = error.to_string();
    assert!(message.contains(name), "{message}");
    for part in expected {
        assert!(message.contains(part), "{sql}: {message} lacks {part}");
    }
}

#[test]
fn damaged_rows_are_named() {
    assert_corrupt(
        "off-board.sqlite",
        "UPDATE pieces SET x = 4000 WHERE id = 5",
        &["piece 5 stands off the board", "pieces"],
    );
    assert_corrupt(
        "kind.sqlite",
        "UPDATE pieces SET kind = 'X' WHERE id = 3",
        &["table pieces: piece 3: column kind: 'X'"],
    );
    assert_corrupt(
        "type.sqlite",
        "UPDATE pieces SET y = 'north' WHERE id = 7",
        &["table pieces: piece 7: column y"],
    );
    assert_corrupt(
        "two-kings.sqlite",
        "UPDATE pieces SET kind = 'K', life = NULL WHERE id = 0",
        &["player 1: its king does not match the board"],
    );
    assert_corrupt(
        "flag.sqlite",
        "UPDATE world_players SET present = 7 WHERE id = 2",
        &["table world_players: player 2: column present: 7 is not 0 or 1"],
    );
    assert_corrupt(
        "team.sqlite",
        "UPDATE players SET team = 'wood' WHERE id = 1",
        &["table players: player 1: column team"],
    );
    assert_corrupt(
        "param.sqlite",
        "UPDATE params SET value = 0 WHERE name = 'width'",
        &["table params: width 0 is outside"],
    );
    assert_corrupt(
        "no-param.sqlite",
        "DELETE FROM params WHERE name = 'fade_base'",
        &["parameter fade_base is missing"],
    );
    assert_corrupt(
        "no-world.sqlite",
        "DELETE FROM world",
        &["table world has 0 rows"],
    );
    assert_corrupt(
        "no-server.sqlite",
        "DROP TABLE server",
        &["table server", "no such table"],
    );
}

#[test]
fn a_damaged_event_is_named_when_read() {
    let dir = Scratch::new("event");
    let path = world_file(&dir, "world.sqlite");
    raw_file(
        &path,
        "UPDATE events SET entry = '{\"turn\": 1}' WHERE seq = 2",
    );
    let (mut store, _) = SqliteStore::resume(&path).unwrap();
    let error = store.events(1, 1).err().unwrap();
    assert!(matches!(error, StoreError::Corrupt { .. }), "{error}");
    assert!(
        error.to_string().contains("event 2: not a log entry"),
        "{error}"
    );
}

#[test]
fn every_error_names_its_file() {
    let path = StorePlace::File(PathBuf::from("some/world.sqlite"));
    let detail = || "why".to_string();
    let errors = [
        StoreError::Missing(path.clone()),
        StoreError::Exists(path.clone()),
        StoreError::NotADatabase {
            at: path.clone(),
            detail: detail(),
        },
        StoreError::Foreign {
            at: path.clone(),
            detail: detail(),
        },
        StoreError::Version {
            at: path.clone(),
            found: 3,
            want: 1,
        },
        StoreError::Corrupt {
            at: path.clone(),
            detail: detail(),
        },
        StoreError::Database {
            at: path.clone(),
            detail: detail(),
        },
    ];
    for error in errors {
        let message = error.to_string();
        assert!(message.starts_with("some/world.sqlite"), "{message}");
        assert!(!message.contains('\n'), "{message}");
        assert!(
            message.contains("--db") || message.contains("--resume") || message.contains("server")
        );
    }
}

#[test]
fn a_second_server_is_refused_by_name_while_the_first_holds_the_file_and_goes_on() {
    let dir = Scratch::new("held");
    let path = dir.file("world.sqlite");
    let mut game = Game::new();
    let mut first = create(&StorePlace::File(path.clone()), &game);
    first.note_listening("127.0.0.1:8640");
    let (turn, events) = game.play_turn();
    commit(first.as_mut(), &game, turn, &events);

    // A second server: refused at once, before it reads or writes anything, the first named.
    let error = SqliteStore::resume(&path).err().unwrap();
    assert!(matches!(error, StoreError::Held { .. }), "{error}");
    let text = error.to_string();
    let holder = format!("pid {} on ", std::process::id());
    assert!(
        text.contains("world.sqlite")
            && text.contains(&holder)
            && text.contains("listening 127.0.0.1:8640")
            && text.contains("another world server")
            && !text.contains('\n'),
        "{text}"
    );
    // Another program cannot write behind the server's back either.
    let other = Connection::open(&path).unwrap();
    other.busy_timeout(Duration::ZERO).unwrap();
    assert!(other
        .execute_batch("UPDATE players SET token = 'stolen'")
        .is_err());
    drop(other);

    // The first goes on: its next turn commits, and its players keep their tokens.
    let (turn, events) = game.play_turn();
    commit(first.as_mut(), &game, turn, &events);
    drop(first);
    assert!(
        !holder::note_path(&path).exists(),
        "the note goes with the store"
    );
    let (_, saved) = SqliteStore::resume(&path).unwrap();
    assert_eq!(saved.last_turn, 2);
    assert_eq!(saved.players, game.rows);
    same_world(&saved.world, &game.world);
}

#[test]
fn a_held_file_without_a_note_is_refused_without_a_name() {
    let dir = Scratch::new("held-quiet");
    let path = world_file(&dir, "world.sqlite");
    let (first, _) = SqliteStore::resume(&path).unwrap();
    std::fs::remove_file(holder::note_path(&path)).unwrap();
    let error = SqliteStore::resume(&path).err().unwrap();
    assert!(
        error
            .to_string()
            .contains("in use by another program or world server"),
        "{error}"
    );
    drop(first);
    assert!(SqliteStore::resume(&path).is_ok());
}
