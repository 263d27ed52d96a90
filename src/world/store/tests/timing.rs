//! A crowded world: 20,000 pieces written every turn.

use super::*;

/// 1,250 armies of 16 (20,000 pieces) on the default 256 x 256 board.
fn crowded_world() -> (World, Vec<PlayerRow>) {
    let mut world = World::new(MegachessParams::default(), SEED);
    let mut rows = Vec::new();
    for index in 0..1250u32 {
        let id = index + 1;
        let team = if index % 2 == 0 {
            Team::Alabaster
        } else {
            Team::Metal
        };
        world.add_player(id, team).unwrap();
        let corner = Coord::new((index % 25) * 10, (index / 25) * 5);
        world.spawn_army(id, corner, Facing::North).unwrap();
        rows.push(PlayerRow {
            id,
            team,
            name: format!("bot {id}"),
            token: format!("{:032x}", (id as u64).wrapping_mul(SEED)),
            house: true,
            joined_turn: 1,
            eliminated_turn: None,
            kings_taken: 0,
            score: 0,
        });
    }
    (world, rows)
}

#[test]
fn twenty_thousand_pieces_commit_quickly() {
    let dir = Scratch::new("timing");
    let path = dir.file("world.sqlite");
    let (mut world, mut rows) = crowded_world();
    assert_eq!(world.piece_count(), 20_000);
    let server = ServerState::default();
    let started = Instant::now();
    let mut store = SqliteStore::create(&path, SEED, &world.snapshot(), server).unwrap();
    let create_time = started.elapsed();
    let mut commit_times = Vec::new();
    for _ in 0..3 {
        let movers: Vec<PlayerId> = world
            .players()
            .filter(|player| player.team == world.team_to_move())
            .map(|player| player.id)
            .collect();
        let mut events = Vec::new();
        for player in movers {
            if let Some(&mv) = world.legal_moves(player).first() {
                world.apply(player, mv).unwrap();
                events.push(LogEntry {
                    turn: world.turn(),
                    ms: 1,
                    event: Event::Move {
                        player,
                        mv: mv.to_string(),
                        effects: MoveReport::default(),
                    },
                });
            }
        }
        let turn = world.turn();
        world.end_turn();
        for row in &mut rows {
            row.score = world.player(row.id).map_or(0, |player| player.score);
        }
        let snapshot = world.snapshot();
        let started = Instant::now();
        store
            .commit_turn(&TurnCommit {
                turn,
                world: &snapshot,
                players: &rows,
                events: &events,
                server,
            })
            .unwrap();
        commit_times.push(started.elapsed());
    }
    drop(store);
    let started = Instant::now();
    let (_, saved) = SqliteStore::resume(&path).unwrap();
    let resume_time = started.elapsed();
    assert_eq!(saved.world, world.snapshot());
    assert_eq!(saved.players, rows);
    println!(
        "store of {} pieces, {} players: create {create_time:?}, commits {commit_times:?} \
         (with ~625 events each), resume {resume_time:?}",
        world.piece_count(),
        rows.len()
    );
    for time in commit_times.iter().chain([&create_time, &resume_time]) {
        assert!(*time < Duration::from_secs(2), "{time:?}");
    }
}
