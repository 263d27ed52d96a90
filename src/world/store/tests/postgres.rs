//! Every way a PostgreSQL database can be wrong for a world, and what each error says (the
//! database's URL, never its password).

use super::*;

/// A scratch database holding a good world of one completed turn; `None` when the tests'
/// PostgreSQL is skipped.
fn world_database(label: &str) -> Option<ScratchDatabase> {
    let database = ScratchDatabase::for_test(label)?;
    let mut game = Game::new();
    let mut store = create(&database.place(), &game);
    let (turn, events) = game.play_turn();
    commit(store.as_mut(), &game, turn, &events);
    Some(database)
}

fn connect(database: &ScratchDatabase) -> ::postgres::Client {
    ::postgres::Client::connect(database.url().secret(), ::postgres::NoTls).unwrap()
}

/// How many tables the database's `public` schema holds.
fn public_tables(client: &mut ::postgres::Client) -> i64 {
    client
        .query_one(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'",
            &[],
        )
        .unwrap()
        .get(0)
}

/// The URL as errors must print it: with the password hidden.
fn assert_names_without_password(message: &str, database: &ScratchDatabase) {
    assert!(message.contains(&database.url().to_string()), "{message}");
    assert!(message.contains(":***@"), "{message}");
    let password = database
        .url()
        .secret()
        .split_once("://")
        .and_then(|(_, rest)| rest.split_once('@'))
        .and_then(|(user_info, _)| user_info.split_once(':'))
        .map(|(_, password)| password.to_string());
    if let Some(password) = password {
        assert!(!message.contains(&format!(":{password}@")), "{message}");
    }
}

#[test]
fn an_empty_database_holds_no_world_to_resume_and_is_left_empty() {
    let Some(database) = ScratchDatabase::for_test("pg_missing") else {
        return;
    };
    let error = store::resume(&database.place()).err().unwrap();
    assert!(matches!(error, StoreError::Missing(_)), "{error}");
    let message = error.to_string();
    assert!(message.contains("--resume"), "{message}");
    assert_names_without_password(&message, &database);
    let mut client = connect(&database);
    let tables = public_tables(&mut client);
    assert_eq!(tables, 0);
}

#[test]
fn a_world_is_never_created_over_another() {
    let Some(database) = world_database("pg_exists") else {
        return;
    };
    let game = Game::new();
    let error = store::create(&database.place(), 1, &game.world.snapshot(), game.server)
        .err()
        .unwrap();
    assert!(matches!(error, StoreError::Exists(_)), "{error}");
    assert!(
        error.to_string().contains("holds a world already"),
        "{error}"
    );
    assert_eq!(store::resume(&database.place()).unwrap().1.last_turn, 1);
}

#[test]
fn another_programs_tables_are_left_alone() {
    let Some(database) = ScratchDatabase::for_test("pg_foreign") else {
        return;
    };
    database
        .execute(
            "CREATE TABLE recipes (name TEXT, minutes BIGINT);
             INSERT INTO recipes VALUES ('soup', 40);",
        )
        .unwrap();
    let game = Game::new();
    let refused = [
        store::create(&database.place(), 1, &game.world.snapshot(), game.server)
            .err()
            .unwrap(),
        store::resume(&database.place()).err().unwrap(),
    ];
    for error in refused {
        assert!(matches!(error, StoreError::Foreign { .. }), "{error}");
        let message = error.to_string();
        assert!(
            message.contains("tables recipes") && message.contains("refusing to touch it"),
            "{message}"
        );
    }
    let mut client = connect(&database);
    let tables = public_tables(&mut client);
    assert_eq!(tables, 1, "nothing of ours was created");
    let minutes: i64 = client
        .query_one("SELECT minutes FROM recipes", &[])
        .unwrap()
        .get(0);
    assert_eq!(minutes, 40);

    // A world with a stranger's table beside it is not ours either.
    let Some(mixed) = world_database("pg_mixed") else {
        return;
    };
    mixed.execute("CREATE TABLE notes (text TEXT)").unwrap();
    let error = store::resume(&mixed.place()).err().unwrap();
    assert!(matches!(error, StoreError::Foreign { .. }), "{error}");
    assert!(error.to_string().contains("notes"), "{error}");
}

#[test]
fn another_format_or_mark_is_refused() {
    let Some(database) = world_database("pg_version") else {
        return;
    };
    database
        .execute("UPDATE identity SET format_version = 2")
        .unwrap();
    let error = store::resume(&database.place()).err().unwrap();
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
    database
        .execute("UPDATE identity SET format_version = 1, application_id = 7")
        .unwrap();
    let error = store::resume(&database.place()).err().unwrap();
    assert!(matches!(error, StoreError::Foreign { .. }), "{error}");
    assert!(error.to_string().contains("application id 0x7"), "{error}");
}

#[test]
fn damaged_rows_are_named() {
    let cases: [(&str, &[&str]); 8] = [
        (
            "UPDATE pieces SET x = 4000 WHERE id = 5",
            &["piece 5 stands off the board", "pieces"],
        ),
        (
            "UPDATE pieces SET kind = 'X' WHERE id = 3",
            &["table pieces: piece 3: column kind: 'X'"],
        ),
        (
            "UPDATE pieces SET kind = 'K', life = NULL WHERE id = 0",
            &["player 1: its king does not match the board"],
        ),
        (
            "UPDATE world_players SET present = 7 WHERE id = 2",
            &["table world_players: player 2: column present: 7 is not 0 or 1"],
        ),
        (
            "UPDATE players SET team = 'wood' WHERE id = 1",
            &["table players: player 1: column team"],
        ),
        (
            "UPDATE params SET value = 0 WHERE name = 'width'",
            &["table params: width 0 is outside"],
        ),
        ("DELETE FROM world", &["table world has 0 rows"]),
        (
            "ALTER TABLE pieces ALTER COLUMN y TYPE TEXT",
            &["table pieces: piece 0: column y"],
        ),
    ];
    for (sql, expected) in cases {
        let Some(database) = world_database("pg_corrupt") else {
            return;
        };
        database.execute(sql).unwrap();
        let error = store::resume(&database.place()).err().unwrap();
        assert!(
            matches!(error, StoreError::Corrupt { .. }),
            "{sql}: {error}"
        );
        let message = error.to_string();
        assert_names_without_password(&message, &database);
        for part in expected {
            assert!(message.contains(part), "{sql}: {message} lacks {part}");
        }
    }
    let Some(database) = world_database("pg_no_server") else {
        return;
    };
    database.execute("DROP TABLE server").unwrap();
    let error = store::resume(&database.place()).err().unwrap();
    assert!(matches!(error, StoreError::Corrupt { .. }), "{error}");
    assert!(error.to_string().contains("table server"), "{error}");
}

#[test]
fn a_damaged_event_is_named_when_read() {
    let Some(database) = world_database("pg_event") else {
        return;
    };
    database
        .execute("UPDATE events SET entry = '{\"turn\": 1}' WHERE seq = 2")
        .unwrap();
    let (mut store, _) = store::resume(&database.place()).unwrap();
    let error = store.events(1, 1).err().unwrap();
    assert!(matches!(error, StoreError::Corrupt { .. }), "{error}");
    assert!(
        error.to_string().contains("event 2: not a log entry"),
        "{error}"
    );
}

#[test]
fn a_second_server_is_refused_by_name_while_the_first_holds_the_world_and_goes_on() {
    let Some(database) = ScratchDatabase::for_test("pg_held") else {
        return;
    };
    let place = database.place();
    let mut game = Game::new();
    let mut first = create(&place, &game);
    first.note_listening("127.0.0.1:8640");
    let (turn, events) = game.play_turn();
    commit(first.as_mut(), &game, turn, &events);

    let error = store::resume(&place).err().unwrap();
    assert!(matches!(error, StoreError::Held { .. }), "{error}");
    let text = error.to_string();
    let holder = format!("pid {} on ", std::process::id());
    assert!(
        text.contains(&holder)
            && text.contains("listening 127.0.0.1:8640")
            && text.contains("another world server")
            && !text.contains('\n'),
        "{text}"
    );
    assert_names_without_password(&text, &database);
    // Creating a world there is refused the same way, before it looks at the tables.
    let error = store::create(&place, 1, &game.world.snapshot(), game.server)
        .err()
        .unwrap();
    assert!(matches!(error, StoreError::Held { .. }), "{error}");

    // The first goes on; once it lets go, its note goes and the world resumes as it left it.
    let (turn, events) = game.play_turn();
    commit(first.as_mut(), &game, turn, &events);
    drop(first);
    let mut client = connect(&database);
    let notes: i64 = client
        .query_one("SELECT count(*) FROM holder", &[])
        .unwrap()
        .get(0);
    assert_eq!(notes, 0, "the note goes with the store");
    let (_, saved) = store::resume(&place).unwrap();
    assert_eq!(saved.last_turn, 2);
    assert_eq!(saved.players, game.rows);
    same_world(&saved.world, &game.world);
}

#[test]
fn an_unreachable_server_is_a_database_error_that_keeps_the_password() {
    // A port nothing listens on: bound, then let go.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let place = StorePlace::parse(&format!("postgres://roger:hunter2@127.0.0.1:{port}/worlds"));
    let game = Game::new();
    let error = store::create(&place, 1, &game.world.snapshot(), game.server)
        .err()
        .unwrap();
    assert!(matches!(error, StoreError::Database { .. }), "{error}");
    let message = error.to_string();
    assert!(
        message.starts_with(&format!("postgres://roger:***@127.0.0.1:{port}/worlds"))
            && message.contains("PostgreSQL failed")
            && message.contains("connecting")
            && message.contains("refused")
            && !message.contains("hunter2"),
        "{message}"
    );
    let error = store::resume(&StorePlace::parse("postgres://roger@[not a host/worlds"))
        .err()
        .unwrap();
    assert!(matches!(error, StoreError::Database { .. }), "{error}");
}
