//! The server's world, with no I/O of its own beyond the store: the rules' [`World`], the
//! players as the server knows them (names, tokens, connections, house bots), joins and army
//! placement, moves and whole turns from connections, turn ends, and what each of these says to
//! whom and writes to the log. The turn loop ([`super::turns`]) owns one and feeds it requests.
//!
//! `mod.rs` holds the state, connections and roles (join, hello, spectate); `moves.rs` the
//! moves and deltas; `turn.rs` the start and end of turns; `reads.rs` the reads.

mod bindings;
mod interest;
mod moves;
mod news;
mod prepare;
pub mod reads;
pub mod turn;

#[cfg(test)]
mod tests;

use super::api::{ErrorCode, ServerMessage, TeamChoice};
use super::config::WorldConfig;
use super::events::{Event, LogEntry};
use super::hub::{ConnectionId, Deliveries, Outbox, Outgoing};
use super::placement::find_spot;
use super::store::writer::StoreWriter;
use super::store::{self, PlayerRow, ServerState, WorldStore};
use super::view::Published;
use crate::rules::megachess::{PlayerId, Team, World, PARAMETERS};
use bindings::Bindings;
use interest::Interest;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Arc;
use std::time::Instant;

/// What a connection is to the world.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// Connected, not yet joined, come back or watching.
    Nobody,
    Player(PlayerId),
    Spectator,
}

/// One open connection (network or house bot).
struct Connection {
    outbox: Outbox,
    role: Role,
    house: bool,
}

/// The server's world.
pub struct ServerWorld {
    config: WorldConfig,
    world: World,
    /// The store, on its own thread.
    store: StoreWriter,
    /// The turn that ended and is being stored: nobody hears of its end before it is stored.
    pending: Option<turn::PendingTurn>,
    /// Every player that ever joined, by id (eliminated ones too).
    rows: BTreeMap<PlayerId, PlayerRow>,
    tokens: HashMap<String, PlayerId>,
    server: ServerState,
    connections: HashMap<ConnectionId, Connection>,
    /// The connection playing each player.
    bound: Bindings,
    /// The players of the team to move that have answered (`turn` or `done`) this turn.
    answered: HashSet<PlayerId>,
    /// Each live player's window at the turn's start (or when it joined), and the players
    /// watching each zone: who sees which move.
    interest: Interest,
    /// The connections that spectate: they see every move.
    spectators: BTreeSet<ConnectionId>,
    /// The players to move that have not been sent their `turn` yet, with their connections
    /// (in id order, so that batches go out in a fixed order).
    untold: BTreeMap<PlayerId, ConnectionId>,
    /// The `turn` message of the turn in progress for everyone but the players to move.
    watching: Option<Arc<str>>,
    /// The `turn` messages of the turn in progress not yet written to their connections.
    deliveries: Deliveries,
    /// The end of the last turn, being told to the connections a batch at a time.
    announcement: Option<news::Announcement>,
    /// The end of the turn being stored, its texts made meanwhile, to tell once it is stored.
    next_announcement: Option<news::Announcement>,
    /// The next turn's windows and views, made while the last one was being stored; once
    /// spent, kept (with the last turn's windows) until the turn's messages are written, so
    /// that freeing them does not delay the writers.
    prepared: Option<prepare::PreparedTurn>,
    spent: Option<prepare::PreparedTurn>,
    /// The log of the turn in progress.
    log: Vec<LogEntry>,
    /// When the turn in progress began and must end; `None` before turns run.
    turn_began: Instant,
    deadline: Option<Instant>,
    /// Connections to drop once the message in hand is done (a full outbox).
    to_drop: Vec<ConnectionId>,
    /// Where the world after each completed turn goes for reads off the loop.
    published: Published,
}

/// The longest name a player keeps.
const MAX_NAME: usize = 32;

impl ServerWorld {
    /// A new world in a new store file.
    pub fn create(config: WorldConfig) -> Result<ServerWorld, String> {
        let world = World::new(config.params, config.seed);
        let server = ServerState {
            // The placement generator is seeded apart from the bonus generator.
            placement_random: config.seed ^ 0x5EED_0FA2_3135,
            next_player: 1,
            placed: [0, 0],
        };
        let store = store::create(&config.db, config.seed, &world.snapshot(), server)
            .map_err(|error| error.to_string())?;
        ServerWorld::assemble(config, world, store, Vec::new(), server)
    }

    /// The world stored in `config.db`, to go on with. Players that joined in the turn that was
    /// lost get an army again. The rules parameters are the stored world's.
    pub fn resume(mut config: WorldConfig) -> Result<ServerWorld, String> {
        let (store, saved) = store::resume(&config.db).map_err(|error| error.to_string())?;
        let world = World::from_snapshot(&saved.world)
            .map_err(|error| format!("{}: {error}", config.db))?;
        config.params = *world.params();
        config.seed = saved.seed;
        // A player that joined in the lost turn is stored, the next id after it is not.
        let mut server = saved.server;
        let after_stored = saved.players.iter().map(|row| row.id + 1).max();
        server.next_player = server.next_player.max(after_stored.unwrap_or(1));
        let mut server_world = ServerWorld::assemble(config, world, store, saved.players, server)?;
        let homeless: Vec<PlayerId> = server_world
            .rows
            .values()
            .filter(|row| row.eliminated_turn.is_none())
            .filter(|row| server_world.world.player(row.id).is_none())
            .map(|row| row.id)
            .collect();
        for id in homeless {
            let team = server_world.rows[&id].team;
            if let Err(error) = server_world.place_army(id, team) {
                eprintln!("roger world: player {id} gets no army on resume: {error}");
            }
        }
        Ok(server_world)
    }

    fn assemble(
        config: WorldConfig,
        world: World,
        store: Box<dyn WorldStore>,
        rows: Vec<PlayerRow>,
        server: ServerState,
    ) -> Result<ServerWorld, String> {
        let tokens = rows.iter().map(|row| (row.token.clone(), row.id)).collect();
        Ok(ServerWorld {
            config,
            world,
            store: StoreWriter::start(store)?,
            pending: None,
            rows: rows.into_iter().map(|row| (row.id, row)).collect(),
            tokens,
            server,
            connections: HashMap::new(),
            bound: Bindings::default(),
            answered: HashSet::new(),
            interest: Interest::default(),
            spectators: BTreeSet::new(),
            untold: BTreeMap::new(),
            watching: None,
            deliveries: Deliveries::default(),
            announcement: None,
            next_announcement: None,
            prepared: None,
            spent: None,
            log: Vec::new(),
            turn_began: Instant::now(),
            deadline: None,
            to_drop: Vec::new(),
            published: Published::default(),
        })
    }

    pub fn world(&self) -> &World {
        &self.world
    }
    pub fn config(&self) -> &WorldConfig {
        &self.config
    }
    /// The tokens of house players whose kings stand (for the house bots of a resumed world).
    pub fn house_tokens(&self) -> Vec<String> {
        self.rows
            .values()
            .filter(|row| row.house && row.eliminated_turn.is_none())
            .map(|row| row.token.clone())
            .collect()
    }
    /// Publishes the world as it stands to `published`, and from now on the world after every
    /// completed turn.
    pub fn publish_to(&mut self, published: Published) {
        published.publish(self.turn_view(Arc::new(self.world.snapshot())));
        self.published = published;
    }
    /// Names the address the server listens on beside its database, for a second server
    /// refused the file.
    pub fn note_listening(&self, addr: &str) {
        self.store.note_listening(addr);
    }
    /// Players bound to a connection now.
    pub fn connected_players(&self) -> usize {
        self.bound.len()
    }

    // ---- connections -----------------------------------------------------------------------

    pub fn open(&mut self, conn: ConnectionId, outbox: Outbox, house: bool) {
        let connection = Connection {
            outbox,
            role: Role::Nobody,
            house,
        };
        self.connections.insert(conn, connection);
    }

    pub fn close(&mut self, conn: ConnectionId) {
        if let Some(connection) = self.connections.remove(&conn) {
            self.spectators.remove(&conn);
            if let Role::Player(player) = connection.role {
                if self.bound.get(&player) == Some(&conn) {
                    self.bound.remove(&player);
                }
            }
        }
    }

    /// Sends one message to one connection; a full outbox drops the connection.
    fn send(&mut self, conn: ConnectionId, message: &ServerMessage) {
        let text: Arc<str> = message.to_json().into();
        self.send_text(conn, text);
    }

    fn send_text(&mut self, conn: ConnectionId, text: Arc<str>) {
        self.queue(conn, Outgoing::one(text));
    }

    /// Sends a `turn` message of the turn in progress, counted until it is written.
    fn send_turn_text(&mut self, conn: ConnectionId, text: Arc<str>) {
        self.queue(conn, Outgoing::turn(None, text, &self.deliveries));
    }

    /// Sends the last turn's `turn_end` and the next `turn` together (one write), the `turn`
    /// counted until it is written.
    fn send_end_and_turn(&mut self, conn: ConnectionId, end: Arc<str>, turn: Arc<str>) {
        self.queue(conn, Outgoing::turn(Some(end), turn, &self.deliveries));
    }

    /// Queues `message` for the connection; one whose outbox is full is dropped.
    fn queue(&mut self, conn: ConnectionId, message: Outgoing) {
        if let Some(connection) = self.connections.get(&conn) {
            if !connection.outbox.queue(message) {
                self.to_drop.push(conn);
            }
        }
    }

    fn error(&mut self, conn: ConnectionId, code: ErrorCode, reason: impl Into<String>) {
        self.send(conn, &ServerMessage::error(code, reason));
    }

    /// Drops the connections whose outbox was full or that were refused.
    pub fn drop_pending(&mut self) {
        for conn in std::mem::take(&mut self.to_drop) {
            self.close(conn);
        }
    }

    fn role(&self, conn: ConnectionId) -> Option<Role> {
        self.connections
            .get(&conn)
            .map(|connection| connection.role)
    }

    /// Whether the player's king still stands.
    fn alive(&self, player: PlayerId) -> bool {
        self.rows
            .get(&player)
            .is_some_and(|row| row.eliminated_turn.is_none())
    }

    fn params_map(&self) -> BTreeMap<String, i64> {
        PARAMETERS
            .iter()
            .filter_map(|p| Some((p.name.to_string(), self.world.params().get(p.name)?)))
            .collect()
    }

    fn push_log(&mut self, event: Event) {
        let entry = LogEntry {
            turn: self.world.turn(),
            ms: self.turn_began.elapsed().as_millis() as u64,
            event,
        };
        self.log.push(entry);
    }

    // ---- roles -------------------------------------------------------------------------------

    /// `join`: a new player with its army, or `no-room`.
    pub(super) fn join(&mut self, conn: ConnectionId, team: TeamChoice, name: Option<String>) {
        match self.role(conn) {
            None => return,
            Some(Role::Player(player)) if self.alive(player) => {
                return self.error(
                    conn,
                    ErrorCode::AlreadyJoined,
                    "this connection plays already",
                )
            }
            Some(Role::Spectator) => {
                return self.error(conn, ErrorCode::AlreadyJoined, "this connection spectates")
            }
            _ => {}
        }
        let team = match team {
            TeamChoice::Alabaster => Team::Alabaster,
            TeamChoice::Metal => Team::Metal,
            TeamChoice::Auto => {
                let count = |team| self.world.players().filter(|p| p.team == team).count();
                if count(Team::Metal) < count(Team::Alabaster) {
                    Team::Metal
                } else {
                    Team::Alabaster
                }
            }
        };
        let id = self.server.next_player;
        if let Err(error) = self.place_army(id, team) {
            return self.error(conn, ErrorCode::NoRoom, error);
        }
        self.server.next_player += 1;
        let house = self.connections.get(&conn).is_some_and(|c| c.house);
        let name: String = name
            .unwrap_or_else(|| format!("player-{id}"))
            .chars()
            .filter(|c| !c.is_control())
            .take(MAX_NAME)
            .collect();
        let row = PlayerRow {
            id,
            team,
            name: name.clone(),
            token: new_token(),
            house,
            joined_turn: self.world.turn(),
            eliminated_turn: None,
            kings_taken: 0,
            score: 0,
        };
        if let Err(error) = self.store.add_player(&row) {
            eprintln!("roger world: {error}");
        }
        self.tokens.insert(row.token.clone(), id);
        self.send(
            conn,
            &ServerMessage::Joined {
                player: id,
                token: row.token.clone(),
                team: team.name().to_string(),
                name: name.clone(),
            },
        );
        self.rows.insert(id, row);
        self.push_log(Event::Joined {
            player: id,
            team: team.name().to_string(),
            name,
            house,
        });
        self.bind(conn, id);
    }

    /// Adds the player to the world with a fresh army at a spot of its team.
    fn place_army(&mut self, id: PlayerId, team: Team) -> Result<(), String> {
        // The generator moves on only when an army is placed: a refused join changes nothing.
        let mut random = self.server.placement_random;
        let spot = find_spot(&self.world, self.config.placement, team, &mut random)
            .ok_or_else(|| format!("no room for a new {} army", team.name()))?;
        self.unprepare();
        self.world.add_player(id, team)?;
        self.world.spawn_army(id, spot.corner, spot.facing)?;
        self.server.placement_random = random;
        self.server.placed[team as usize] += 1;
        let facing = format!("{:?}", spot.facing).to_lowercase();
        self.push_log(Event::Placed {
            player: id,
            corner: spot.corner.to_string(),
            facing,
        });
        Ok(())
    }

    /// `hello`: the connection plays the token's player from now on.
    pub(super) fn hello(&mut self, conn: ConnectionId, token: &str) {
        if matches!(self.role(conn), Some(Role::Player(_) | Role::Spectator)) {
            return self.error(conn, ErrorCode::AlreadyJoined, "this connection has a role");
        }
        let Some(&player) = self.tokens.get(token) else {
            self.error(conn, ErrorCode::BadToken, "no player has this token");
            self.to_drop.push(conn);
            return;
        };
        if let Some(old) = self.bound.get(&player).copied() {
            if old != conn {
                // The player's earlier connection is replaced: dropping it closes it.
                self.close(old);
            }
        }
        self.bind(conn, player);
    }

    /// Binds a connection to a player: `welcome`, and its `turn` if its team moves now.
    fn bind(&mut self, conn: ConnectionId, player: PlayerId) {
        if let Some(connection) = self.connections.get_mut(&conn) {
            connection.role = Role::Player(player);
        }
        let alive = self.alive(player);
        if alive {
            self.bound.insert(player, conn);
        }
        let row = &self.rows[&player];
        let welcome = ServerMessage::Welcome {
            player,
            team: row.team.name().to_string(),
            name: row.name.clone(),
            params: self.params_map(),
            window: self.config.window_margin,
            turn: self.world.turn(),
            simulate: self.config.simulate,
            alive,
        };
        self.send(conn, &welcome);
        if alive && self.deadline.is_some() {
            // Told here, with the view as it is now.
            self.untold.remove(&player);
            if let Some(rect) = self.world.army_rect(player, self.config.window_margin) {
                self.interest.set(player, rect);
            }
            if !self.answered.contains(&player) {
                let message = self.turn_message(player);
                self.send(conn, &message);
            }
        }
    }

    /// `spectate`: the parameters, then the turn in progress if turns are running.
    pub(super) fn spectate(&mut self, conn: ConnectionId) {
        if self.role(conn) != Some(Role::Nobody) {
            return self.error(conn, ErrorCode::AlreadyJoined, "this connection has a role");
        }
        if let Some(connection) = self.connections.get_mut(&conn) {
            connection.role = Role::Spectator;
            self.spectators.insert(conn);
        }
        let message = ServerMessage::Spectating {
            params: self.params_map(),
            turn: self.world.turn(),
        };
        self.send(conn, &message);
        // A spectator arriving mid-turn learns the turn in progress and its deadline at once,
        // as a player coming back does.
        if self.deadline.is_some() {
            let message = self.turn_message(0);
            self.send(conn, &message);
        }
    }

    /// `leave`: the player's pieces stay, unmoving.
    pub(super) fn leave(&mut self, conn: ConnectionId) {
        if let Some(player) = self.playing(conn) {
            self.world.leave(player);
            self.push_log(Event::Left { player });
        }
    }

    /// The live player a connection plays, or the right error sent.
    fn playing(&mut self, conn: ConnectionId) -> Option<PlayerId> {
        match self.role(conn)? {
            Role::Nobody => {
                self.error(conn, ErrorCode::NotJoined, "join or say hello first");
                None
            }
            Role::Spectator => {
                self.error(conn, ErrorCode::Spectator, "spectators do not play");
                None
            }
            Role::Player(player) if !self.alive(player) => {
                self.error(conn, ErrorCode::Eliminated, "your king was captured");
                None
            }
            Role::Player(player) => Some(player),
        }
    }
}

/// A secret of 32 hex digits from the system's random source. Where that cannot be read, the
/// process's random hasher keys mixed with the time: not cryptographic, but not guessable from
/// outside the process either.
fn new_token() -> String {
    use std::io::Read;
    let mut bytes = [0u8; 16];
    let read = std::fs::File::open("/dev/urandom").and_then(|mut file| file.read_exact(&mut bytes));
    if read.is_err() {
        use std::hash::{BuildHasher, Hasher};
        for (index, chunk) in bytes.chunks_mut(8).enumerate() {
            let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
            hasher.write_u128(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos()),
            );
            hasher.write_usize(index);
            chunk.copy_from_slice(&hasher.finish().to_le_bytes());
        }
    }
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}
