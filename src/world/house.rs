//! The house bots: engine processes the server starts itself and keeps playing as players, each
//! answered within the turn, restarted when it crashes, and replaced by a new player when its
//! king falls, so a world is never empty. Each plays through [`super::bridge`] over an
//! in-process link (the turn loop's request channel and an outbox), like any connection.

use super::api::{ClientMessage, ServerMessage, TeamChoice};
use super::bridge::{Bridge, BridgeSettings, Ending, Link};
use super::config::HouseConfig;
use super::hub::{next_connection_id, ConnectionId, Outbox, Request, Requests};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A house bot's link: requests into the turn loop's channel, its outbox's messages out of a
/// channel a forwarding thread fills.
struct HouseLink {
    conn: ConnectionId,
    requests: Requests,
    inbox: Receiver<Arc<str>>,
    stop: Arc<AtomicBool>,
}

/// How many messages wait for a house bot at most (it reads them all every turn).
const HOUSE_OUTBOX: usize = 1 << 16;
/// The margin a house bot keeps from each deadline (no network in between).
const HOUSE_MARGIN: Duration = Duration::from_millis(100);
/// How long `stop` waits for the bots at most.
const STOP_TIME: Duration = Duration::from_secs(5);
/// How long a house bot refused a new player waits before asking again.
const REJOIN_WAIT: Duration = Duration::from_secs(2);

impl HouseLink {
    fn open(requests: Requests, label: &str, stop: Arc<AtomicBool>) -> Result<HouseLink, String> {
        let conn = next_connection_id();
        let (outbox, mut receiver) = Outbox::channel(HOUSE_OUTBOX);
        let (sender, inbox) = mpsc::channel();
        std::thread::Builder::new()
            .name(format!("{label}-inbox"))
            .spawn(move || {
                while let Some(message) = receiver.blocking_recv() {
                    for text in message.texts() {
                        if sender.send(Arc::clone(text)).is_err() {
                            return;
                        }
                    }
                }
            })
            .map_err(|error| format!("cannot start {label}: {error}"))?;
        let open = Request::Open {
            conn,
            outbox,
            peer: label.to_string(),
            house: true,
        };
        requests
            .send(open)
            .map_err(|_| "the turn loop is gone".to_string())?;
        Ok(HouseLink {
            conn,
            requests,
            inbox,
            stop,
        })
    }
}

impl Link for HouseLink {
    fn send(&mut self, message: &ClientMessage) -> Result<(), String> {
        let request = Request::Message {
            conn: self.conn,
            message: message.clone(),
        };
        self.requests
            .send(request)
            .map_err(|_| "the turn loop is gone".to_string())
    }

    fn recv(&mut self, wait: Duration) -> Result<Option<ServerMessage>, String> {
        if self.stop.load(Ordering::Relaxed) {
            return Err("the house is closing".into());
        }
        match self.inbox.recv_timeout(wait) {
            Ok(text) => Ok(serde_json::from_str(&text).ok()),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err("the turn loop let go".into()),
        }
    }
}

impl Drop for HouseLink {
    fn drop(&mut self) {
        let _ = self.requests.send(Request::Closed { conn: self.conn });
    }
}

/// The running house bots.
pub struct HouseBots {
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

impl HouseBots {
    /// Starts `config.bots` house bots playing through `requests`. `tokens` are the tokens of
    /// house players of a resumed world whose kings still stand: bot `i` comes back as
    /// `tokens[i]` where there is one, and joins as a new player (team `auto`, name `house-N`)
    /// otherwise.
    pub fn start(
        config: &HouseConfig,
        requests: Requests,
        tokens: Vec<String>,
    ) -> Result<HouseBots, String> {
        let stop = Arc::new(AtomicBool::new(false));
        let mut threads = Vec::new();
        for index in 0..config.bots {
            let label = format!("house-{}", index + 1);
            let settings = BridgeSettings {
                label: label.clone(),
                engine: config.engine.clone(),
                options: config.options.clone(),
                movetime: config.movetime,
                margin: HOUSE_MARGIN,
                turns: None,
                // A house of many bots would drown the server's own output.
                quiet: true,
                announce: false,
                token_file: None,
            };
            let link = HouseLink::open(requests.clone(), &label, Arc::clone(&stop))?;
            let token = tokens.get(index).cloned();
            let thread = std::thread::Builder::new()
                .name(label.clone())
                .spawn({
                    let bridge = Bridge::new(settings).stop_on(Arc::clone(&stop));
                    let stop = Arc::clone(&stop);
                    move || house_bot(link, bridge, label, token, stop)
                })
                .map_err(|error| format!("cannot start a house bot: {error}"))?;
            threads.push(thread);
        }
        Ok(HouseBots { stop, threads })
    }

    /// Stops every bot and kills its engine, within bounded time: every wait of a bot looks
    /// at the stop flag at least every few tens of milliseconds.
    pub fn stop(self) {
        self.stop.store(true, Ordering::Relaxed);
        let deadline = Instant::now() + STOP_TIME;
        for thread in self.threads {
            while !thread.is_finished() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(10));
            }
            if thread.is_finished() {
                let _ = thread.join();
            } else {
                eprintln!("a house bot did not stop in time; leaving it");
            }
        }
    }
}

/// One house bot's life: join (or come back), play, and join anew whenever the king falls.
fn house_bot(
    mut link: HouseLink,
    mut bridge: Bridge,
    label: String,
    token: Option<String>,
    stop: Arc<AtomicBool>,
) {
    let mut first = match token {
        Some(token) => ClientMessage::Hello { token },
        None => ClientMessage::Join {
            team: TeamChoice::Auto,
            name: Some(label.clone()),
        },
    };
    loop {
        if link.send(&first).is_err() {
            return;
        }
        match bridge.play(&mut link) {
            // A new player, so that the world is never empty.
            Ending::Eliminated | Ending::BadToken => {
                first = ClientMessage::Join {
                    team: TeamChoice::Auto,
                    name: Some(label.clone()),
                };
            }
            // No room for a new army now: try again a little later.
            Ending::Refused(why) => {
                eprintln!(
                    "{label}: {why}; joining again in {} s",
                    REJOIN_WAIT.as_secs()
                );
                let until = Instant::now() + REJOIN_WAIT;
                while Instant::now() < until {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(50));
                }
                first = ClientMessage::Join {
                    team: TeamChoice::Auto,
                    name: Some(label.clone()),
                };
            }
            Ending::WorldOver | Ending::LinkLost(_) => return,
        }
    }
}
