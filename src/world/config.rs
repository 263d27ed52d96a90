//! Every setting of a world server, with the defaults a user gets. `cli` fills these from the
//! command line and a config file; tests build them directly.

use super::placement::Placement;
use super::store::StorePlace;
use crate::rules::megachess::MegachessParams;
use std::path::PathBuf;
use std::time::Duration;

/// A world server's settings.
#[derive(Clone, Debug)]
pub struct WorldConfig {
    /// The rules parameters (`turn_ms` is the turn's length on the wall clock).
    pub params: MegachessParams,
    /// Seeds the world's bonus pieces and the placement of armies: a simulated world with
    /// the same seed and the same moves repeats exactly.
    pub seed: u64,
    /// Simulated turns: the next turn starts as soon as every connected player of the team to
    /// move has answered (`turn` or `done`) or `turn_ms` has passed. Otherwise turns last
    /// exactly `turn_ms`.
    pub simulate: bool,
    /// Stop after this turn has been completed (a test, a measured run); `None`: never.
    pub max_turns: Option<u64>,
    /// The first turn of this run does not start before this many players are connected (a
    /// resumed world waits for its players to come back too).
    pub wait_players: usize,
    /// The margin of each player's window around its army (the `position` of `turn`).
    pub window_margin: u32,
    /// Where new armies go.
    pub placement: Placement,
    /// Where the world is stored.
    pub db: StorePlace,
    /// Continue the world in `db` (it must exist and be a world of ours); without it `db` must
    /// not exist yet.
    pub resume: bool,
    /// Where to listen, `host:port` (`127.0.0.1:0` picks a free port; the server prints it).
    /// Empty: no network side at all (clients in the same process only, as tests do).
    pub listen: String,
    pub net: NetLimits,
    pub house: HouseConfig,
    /// The turn log as JSON lines, appended to.
    pub log: Option<PathBuf>,
    /// Write an SVG picture of the world every this many turns (0: never) into `svg_dir`.
    pub svg_every: u64,
    pub svg_dir: PathBuf,
    /// Print the standings every this many turns (0: never).
    pub standings_every: u64,
}

impl Default for WorldConfig {
    fn default() -> WorldConfig {
        WorldConfig {
            params: MegachessParams::default(),
            seed: 1,
            simulate: false,
            max_turns: None,
            wait_players: 0,
            window_margin: 16,
            placement: Placement::default(),
            db: StorePlace::File(PathBuf::from("megachess-world.sqlite")),
            resume: false,
            listen: "127.0.0.1:8640".to_string(),
            net: NetLimits::default(),
            house: HouseConfig::default(),
            log: None,
            svg_every: 0,
            svg_dir: PathBuf::from("."),
            standings_every: 1,
        }
    }
}

/// What the network side allows one connection.
#[derive(Clone, Debug)]
pub struct NetLimits {
    /// A WebSocket message (or an HTTP request head) larger than this is refused.
    pub max_message_bytes: usize,
    /// Messages a connection may send per second on average, and in one burst.
    pub messages_per_second: u32,
    pub burst: u32,
    /// Messages waiting to be sent to one connection; a reader that lets more pile up is
    /// disconnected.
    pub outbox_capacity: usize,
    /// A new connection must say `join`, `hello` or `spectate` within this time.
    pub handshake_timeout: Duration,
    /// A connection that sends nothing (not even a pong) for this long is closed; the server
    /// pings at a third of it.
    pub idle_timeout: Duration,
    /// Sending one message may take this long before the connection counts as stalled.
    pub write_timeout: Duration,
    /// Open connections at most (network only; house bots do not count).
    pub max_connections: usize,
    /// Pieces one `region` answer lists at most.
    pub max_region_pieces: usize,
}

impl Default for NetLimits {
    fn default() -> NetLimits {
        NetLimits {
            max_message_bytes: 64 * 1024,
            messages_per_second: 200,
            burst: 400,
            outbox_capacity: 4096,
            handshake_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            write_timeout: Duration::from_secs(10),
            max_connections: 1024,
            max_region_pieces: 100_000,
        }
    }
}

/// The house bots: engine processes the server starts and keeps playing.
#[derive(Clone, Debug)]
pub struct HouseConfig {
    /// How many players the house keeps in the world.
    pub bots: usize,
    /// The engine command and its arguments; empty: this very `roger` binary.
    pub engine: Vec<String>,
    /// Options sent to the engine (`setoption name N value V`) before each world.
    pub options: Vec<(String, String)>,
    /// Thinking time per turn, at most; the turn's deadline cuts it further.
    pub movetime: Duration,
}

impl Default for HouseConfig {
    fn default() -> HouseConfig {
        HouseConfig {
            bots: 0,
            engine: Vec::new(),
            options: Vec::new(),
            movetime: Duration::from_millis(1000),
        }
    }
}
