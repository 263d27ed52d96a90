//! The world server as players meet it: a real `roger world` on a loopback port, driven over
//! WebSocket and HTTP. Armies are placed along the edges (`--placement edge`) on small boards so
//! that each scenario is a script: alabaster's back rank `R N B Q K B N R` on y = 0 with pawns
//! on y = 1, metal's on y = 7 (y = 15 on a 16-high board) with pawns in front, facing south.

use crate::world_support;

use roger::world::api::{ClientMessage, ServerMessage, TeamChoice};
use std::time::Duration;
use world_support::{http_get, http_json, Client, Server, TempDir, TestDb};

crate::on_both_stores!(
    a_turn_with_one_move_refused_deltas_reconnection_and_a_wrong_token,
    a_king_capture_hands_the_whole_army_over,
    pieces_fade_outside_the_kingdom_and_bonus_pieces_appear_over_several_turns,
    garbage_floods_and_oversized_messages_get_errors_while_a_second_clients_turn_goes_through,
    targets_answers_the_legal_squares_of_a_piece_over_the_network,
    sigterm_and_sigint_stop_the_server_in_order_with_its_summary,
);

const WAIT: Duration = Duration::from_secs(15);

/// A simulated 8 x 8 world whose turns start once two players have joined.
fn small_world(db: &TestDb, extra: &[&str]) -> Server {
    let mut args = vec![
        "--simulate",
        "--size",
        "8",
        "8",
        "--placement",
        "edge",
        "--wait-players",
        "2",
        "--turn-ms",
        "20000",
        "--param",
        "bonus_every=0",
    ];
    args.extend_from_slice(extra);
    Server::start(db.arg(), &args)
}

fn moved(message: &ServerMessage) -> Option<String> {
    match message {
        ServerMessage::Moved { mv, .. } => Some(mv.clone()),
        _ => None,
    }
}

fn a_turn_with_one_move_refused_deltas_reconnection_and_a_wrong_token(db: &TestDb) {
    let server = small_world(db, &[]);
    let mut white = Client::connect(&server.url());
    let (first, token) = white.join(TeamChoice::Alabaster, "ada");
    let mut black = Client::connect(&server.url());
    let (second, _) = black.join(TeamChoice::Metal, "bob");
    assert_ne!(first, second);

    let (turn, position) = white.my_turn(WAIT);
    assert_eq!(turn, 1);
    assert!(
        position.starts_with("position megachess size 8 8 turn 1 me "),
        "{position}"
    );
    assert!(position.contains(&format!("{first}K4,0")), "{position}");

    // The middle move names metal's pawn: refused with the reason, the others stand.
    let results = white.play_turn(&["4,1-4,3", "4,6-4,5", "3,1-3,2"]);
    let verdicts: Vec<(bool, Option<&str>)> = results
        .iter()
        .map(|result| (result.ok, result.rejection.as_deref()))
        .collect();
    assert_eq!(
        verdicts,
        [(true, None), (false, Some("not-your-piece")), (true, None)]
    );
    assert!(results[1].reason.as_deref().unwrap().contains("4,6"));

    // Metal saw both moves as deltas, then gets its turn with the moved pawns in view.
    let mut deltas = Vec::new();
    let ((turn, position), skipped) = black.my_turn_seeing(WAIT);
    deltas.extend(skipped.iter().filter_map(moved));
    assert_eq!(deltas, ["4,1-4,3", "3,1-3,2"]);
    assert_eq!(turn, 2);
    assert!(position.contains(&format!("{first}P4,3.m")), "{position}");
    assert!(
        position.contains(&format!("{second}P4,6 ")),
        "nothing moved metal's pawn"
    );

    // Alabaster drops its connection during metal's turn and comes back with its token.
    drop(white);
    let mut white = Client::connect(&server.url());
    white.send(&ClientMessage::Hello {
        token: token.clone(),
    });
    let (welcome, _) = white.until(WAIT, |message| match message {
        ServerMessage::Welcome {
            player,
            alive,
            turn,
            ..
        } => Some((*player, *alive, *turn)),
        _ => None,
    });
    assert_eq!(welcome, (first, true, 2));

    // A wrong token is refused and the connection closed.
    let mut stranger = Client::connect(&server.url());
    stranger.send(&ClientMessage::Hello {
        token: "not-a-token".into(),
    });
    let (error, _) = stranger.until(WAIT, |message| match message {
        ServerMessage::Error { error, .. } => Some(error.clone()),
        _ => None,
    });
    assert_eq!(error, "bad-token");
    assert!(stranger.closed_within(Duration::from_secs(5)));

    // Metal's move goes through; the reconnected alabaster sees it and gets turn 3.
    let results = black.play_turn(&["4,6-4,5"]);
    assert!(results[0].ok, "{results:?}");
    let ((turn, _), skipped) = white.my_turn_seeing(WAIT);
    assert_eq!(turn, 3);
    assert!(skipped.iter().filter_map(moved).any(|mv| mv == "4,6-4,5"));

    // A move in the other team's turn is refused, and one for a piece already moved too.
    let results = black.play_turn(&["3,6-3,5"]);
    assert_eq!(results[0].rejection.as_deref(), Some("not-your-turn"));
    let results = white.play_turn(&["4,3-4,4", "4,4-4,5"]);
    assert!(results[0].ok);
    assert_eq!(results[1].rejection.as_deref(), Some("already-moved"));
}

fn a_king_capture_hands_the_whole_army_over(db: &TestDb) {
    let server = small_world(db, &[]);
    let mut white = Client::connect(&server.url());
    let (first, _) = white.join(TeamChoice::Alabaster, "ada");
    let mut black = Client::connect(&server.url());
    let (second, _) = black.join(TeamChoice::Metal, "bob");
    let mut watcher = Client::connect(&server.url());
    watcher.send(&ClientMessage::Spectate);
    watcher.until(WAIT, |message| {
        matches!(message, ServerMessage::Spectating { .. }).then_some(())
    });

    // The queen walks out behind a pawn that steps aside, takes the pawn in front of the
    // king, then the king; metal does nothing.
    let script: [&[&str]; 3] = [&["3,1-2,2", "3,0-3,5"], &["3,5-4,6"], &["4,6-4,7"]];
    let mut last = Vec::new();
    for moves in script {
        white.my_turn(WAIT);
        last = white.play_turn(moves);
        assert!(last.iter().all(|result| result.ok), "{last:?}");
        if moves != script[2] {
            black.my_turn(WAIT);
            black.send(&ClientMessage::Done);
        }
    }
    let effects = last[0].effects.as_ref().unwrap();
    assert_eq!(effects.king_captured, Some(second));
    assert_eq!(
        effects.handed_over, 14,
        "16 pieces less the pawn and the king"
    );
    assert_eq!(effects.points, 110);

    let (by, _) = black.until(WAIT, |message| match message {
        ServerMessage::Eliminated { by, .. } => Some(*by),
        _ => None,
    });
    assert_eq!(by, first);
    // The spectator saw every move, the capture last.
    let (capture, skipped) = watcher.until(WAIT, |message| match message {
        ServerMessage::Moved { mv, effects, .. } if effects.king_captured.is_some() => {
            Some(mv.clone())
        }
        _ => None,
    });
    assert_eq!(capture, "4,6-4,7");
    assert_eq!(skipped.iter().filter_map(moved).count(), 3);

    // Every piece on the board is alabaster's now, the former metal ones included: HTTP reads
    // show the world as the last completed turn left it, so once that turn has ended.
    let (ended, _) = watcher.until(WAIT, |message| match message {
        ServerMessage::TurnEnd { turn, .. } => Some(*turn),
        _ => None,
    });
    let region = http_json(&server.addr, "/region?x0=0&y0=0&x1=7&y1=7");
    assert!(region["turn"].as_u64().unwrap() > ended, "{region}");
    let pieces = region["pieces"].as_array().unwrap();
    assert_eq!(pieces.len(), 16 + 14);
    assert!(pieces.iter().all(|piece| piece["owner"] == first));
    assert!(pieces
        .iter()
        .any(|piece| piece["token"] == format!("{first}R7,7")));
    // The scoreboard has the shape of the `scoreboard` message.
    let board = http_json(&server.addr, "/scoreboard");
    assert!(board["turn"].as_u64().unwrap() > ended, "{board}");
    let rows = board["players"].as_array().unwrap();
    let row = |id: u32| rows.iter().find(|row| row["player"] == id).unwrap().clone();
    assert_eq!(row(first)["kings_taken"], 1);
    assert_eq!(row(second)["alive"], false);
    assert!(row(first)["score"].as_i64().unwrap() >= 111, "{board}");
    // A spectator may not play, and the loser may not play on.
    watcher.send(&ClientMessage::Move {
        mv: "0,1-0,2".into(),
    });
    let (error, _) = watcher.until(WAIT, |message| match message {
        ServerMessage::Error { error, .. } => Some(error.clone()),
        _ => None,
    });
    assert_eq!(error, "spectator");
    black.send(&ClientMessage::Move {
        mv: "0,6-0,5".into(),
    });
    let (error, _) = black.until(WAIT, |message| match message {
        ServerMessage::Error { error, .. } => Some(error.clone()),
        _ => None,
    });
    assert_eq!(error, "eliminated");
}

fn pieces_fade_outside_the_kingdom_and_bonus_pieces_appear_over_several_turns(db: &TestDb) {
    let dir = TempDir::new("fade");
    let log = dir.join("turns.jsonl");
    let log_arg = log.to_str().unwrap().to_string();
    let server = Server::start(
        db.arg(),
        &[
            "--simulate",
            "--size",
            "16",
            "16",
            "--placement",
            "edge",
            "--wait-players",
            "2",
            "--param",
            "kingdom_radius=2",
            "--param",
            "fade_base=1",
            "--param",
            "fade_per_rank=0",
            "--param",
            "bonus_every=1",
            "--log",
            &log_arg,
        ],
    );
    let mut white = Client::connect(&server.url());
    let (first, _) = white.join(TeamChoice::Alabaster, "ada");
    let mut black = Client::connect(&server.url());
    let (second, _) = black.join(TeamChoice::Metal, "bob");

    // Nobody moves for four turns. With a life of one turn, every piece more than two
    // squares from its king is gone when its team's first turn ends: eight of each army.
    let mut bonuses = 0;
    for turn in 1..=4u64 {
        let (mover, other, me) = if turn % 2 == 1 {
            (&mut white, &mut black, first)
        } else {
            (&mut black, &mut white, second)
        };
        assert_eq!(mover.my_turn(WAIT).0, turn);
        mover.send(&ClientMessage::Done);
        let ((faded, bonus), _) = mover.until(WAIT, |message| match message {
            ServerMessage::TurnEnd {
                turn: ended,
                faded,
                bonus,
                ..
            } if *ended == turn => Some((faded.clone(), bonus.clone())),
            _ => None,
        });
        let expected = if turn <= 2 { 8 } else { 0 };
        let own = faded.iter().filter(|piece| piece.owner == me).count();
        assert_eq!(own, expected, "turn {turn}: {faded:?}");
        assert!(faded.iter().all(|piece| piece.kind != "K"));
        bonuses += usize::from(bonus.is_some());
        let _ = other;
    }
    assert_eq!(bonuses, 4, "one bonus piece after every turn");
    let region = http_json(&server.addr, "/region?x0=0&y0=0&x1=15&y1=15");
    let pieces = region["pieces"].as_array().unwrap();
    assert_eq!(pieces.iter().filter(|p| p["owner"] == 0).count(), 4);
    assert_eq!(pieces.iter().filter(|p| p["owner"] == first).count(), 8);

    // The turn log says the same.
    let text = std::fs::read_to_string(&log).unwrap();
    let entries: Vec<serde_json::Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let count = |event: &str| entries.iter().filter(|e| e["event"] == event).count();
    assert_eq!(count("bonus"), 4);
    assert!(count("turn-end") >= 4);
    let faded: usize = entries
        .iter()
        .filter(|e| e["event"] == "faded")
        .map(|e| e["pieces"].as_array().unwrap().len())
        .sum();
    assert_eq!(faded, 16);
}

fn garbage_floods_and_oversized_messages_get_errors_while_a_second_clients_turn_goes_through(
    db: &TestDb,
) {
    let server = small_world(db, &["--max-message", "4096", "--rate", "20"]);
    let mut white = Client::connect(&server.url());
    white.join(TeamChoice::Alabaster, "ada");
    let mut black = Client::connect(&server.url());
    black.join(TeamChoice::Metal, "bob");
    white.my_turn(WAIT);

    let mut rogue = Client::connect(&server.url());
    let error_of = |client: &mut Client| {
        client
            .until(WAIT, |message| match message {
                ServerMessage::Error { error, .. } => Some(error.clone()),
                _ => None,
            })
            .0
    };
    rogue.send_text("this is not json");
    assert_eq!(error_of(&mut rogue), "bad-json");
    rogue.send_text(r#"{"type":"castle","side":"long"}"#);
    assert_eq!(error_of(&mut rogue), "bad-json");
    // Still connected: a player's message before joining is answered in kind.
    rogue.send(&ClientMessage::Move {
        mv: "1,1-1,2".into(),
    });
    assert_eq!(error_of(&mut rogue), "not-joined");
    for _ in 0..100 {
        rogue.send(&ClientMessage::Scoreboard);
    }
    rogue.until(WAIT, |message| match message {
        ServerMessage::Error { error, .. } if error == "rate-limited" => Some(()),
        _ => None,
    });

    // Meanwhile alabaster's turn goes through.
    let results = white.play_turn(&["4,1-4,3"]);
    assert!(results[0].ok, "{results:?}");

    let mut big = Client::connect(&server.url());
    big.send_text(&format!(
        r#"{{"type":"join","team":"auto","name":"{}"}}"#,
        "x".repeat(10_000)
    ));
    assert_eq!(error_of(&mut big), "too-large");
    assert!(big.closed_within(Duration::from_secs(5)));

    // The world went on: metal plays turn 2.
    assert_eq!(black.my_turn(WAIT).0, 2);
    assert!(black.play_turn(&["4,6-4,5"])[0].ok);
    let (status, body) = http_get(&server.addr, "/status");
    assert_eq!(status, 200, "{body}");
    let (status, _) = http_get(&server.addr, "/region?x0=0&y0=0&x1=99&y1=0");
    assert_eq!(status, 400);
    let (status, _) = http_get(&server.addr, "/nowhere");
    assert_eq!(status, 404);
    let (status, svg) = http_get(&server.addr, "/svg?x0=0&y0=0&x1=7&y1=7");
    assert_eq!(status, 200);
    assert!(svg.contains("<svg"), "{svg}");
}

fn targets_answers_the_legal_squares_of_a_piece_over_the_network(db: &TestDb) {
    let server = small_world(db, &[]);
    let mut white = Client::connect(&server.url());
    white.join(TeamChoice::Alabaster, "ada");
    let mut black = Client::connect(&server.url());
    black.join(TeamChoice::Metal, "bob");
    white.my_turn(WAIT);
    let ask = |client: &mut Client, x: u32, y: u32| {
        client.send(&ClientMessage::Targets { x, y });
        let (mut squares, _) = client.until(WAIT, |message| match message {
            ServerMessage::Targets { squares, .. } => Some(squares.clone()),
            _ => None,
        });
        squares.sort();
        squares
    };
    assert_eq!(ask(&mut white, 4, 1), [[3, 2], [4, 2], [4, 3], [5, 2]]);
    assert!(ask(&mut black, 4, 6).is_empty(), "not metal's turn");
    assert!(white.play_turn(&["4,1-4,3"])[0].ok);
    // Once metal's turn has begun, nothing of alabaster's is movable.
    white.until(WAIT, |message| match message {
        ServerMessage::Turn { turn: 2, .. } => Some(()),
        _ => None,
    });
    assert!(ask(&mut white, 1, 0).is_empty());
    // Bad coordinates are bad JSON, answered with an error; the connection stays.
    white.send_text(r#"{"type":"targets","x":-1,"y":0}"#);
    let (error, _) = white.until(WAIT, |message| match message {
        ServerMessage::Error { error, .. } => Some(error.clone()),
        _ => None,
    });
    assert_eq!(error, "bad-json");
    assert_eq!(black.my_turn(WAIT).0, 2);
    assert_eq!(ask(&mut black, 1, 7), [[0, 5], [2, 5]]);
}

fn sigterm_and_sigint_stop_the_server_in_order_with_its_summary(db: &TestDb) {
    // The second server resumes the world the first one stopped.
    for (signal, extra) in [("-TERM", &[][..]), ("-INT", &["--resume"][..])] {
        let mut server = small_world(db, extra);
        let pid = server.child.id().to_string();
        let sent = std::process::Command::new("kill")
            .args([signal, &pid])
            .status()
            .expect("kill runs");
        assert!(sent.success());
        let seen = server.wait_line("done:", Duration::from_secs(20));
        assert!(
            seen.last().unwrap().contains("(shutdown)"),
            "{signal}: the summary names the stop: {seen:?}"
        );
        assert_eq!(
            server.wait_exit(Duration::from_secs(20)),
            Some(0),
            "{signal}"
        );
    }
}
