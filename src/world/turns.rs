//! The turn loop: one thread that owns the server's world and its store, reads every
//! [`Request`] in arrival order, starts and ends turns on the wall clock or simulated, answers
//! reads, prints standings, writes the JSON-lines log and SVG pictures, and commits every
//! completed turn. Also `roger world` itself, which starts the network side and the house bots
//! around the loop.

use super::cli::WorldArgs;
use super::config::WorldConfig;
use super::core::reads::{peak_memory_kib, LoopNumbers};
use super::core::turn::{EndedTurn, TeamStanding};
use super::core::ServerWorld;
use super::house::HouseBots;
use super::hub::{Request, Requests};
use super::net::NetServer;
use super::view::Published;
use crate::rules::megachess::picture::{world_svg, PlayerLabels};
use std::io::{BufWriter, Write};
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Where the loop's lines go (standings, notices): standard output for `roger world`, a test's
/// collector, or nowhere.
pub type Output = Box<dyn FnMut(&str) + Send>;

/// How a run of the loop went.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSummary {
    /// Turns completed by this process.
    pub turns: u64,
    /// The last turn completed (a resumed world counts its earlier turns).
    pub last_turn: u64,
    pub seconds: f64,
    pub turns_per_second: f64,
    /// The longest time one request or one turn end (commit included) held the loop.
    pub max_stall_ms: f64,
    pub peak_memory_kib: u64,
    /// Where the loop's time went, turn by turn.
    pub work: LoopWork,
    /// Why it stopped: `max-turns` or `shutdown`.
    pub end: String,
}

/// The turn loop's work per turn: everything it did between one turn's start and the next
/// (requests, the turn's end, the news, the next start), and the longest of each part.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LoopWork {
    /// Turns whose work is counted, and their work together.
    pub turns: u64,
    pub total: Duration,
    /// The most work one turn took.
    pub max_turn: Duration,
    /// The longest rules' turn end (fading, bonus, the snapshot), store commit, `turn_end`
    /// news to every connection, and start of the next turn (views and `turn` messages).
    pub max_rules: Duration,
    pub max_store: Duration,
    pub max_news: Duration,
    pub max_start: Duration,
    /// The longest time from a turn's start until every player had its `turn` queued, and
    /// until every one was written to its connection (the turn's moves wait for that).
    pub max_told: Duration,
    pub max_written: Duration,
    /// Turns whose moves went ahead before every `turn` was written ([`delivery_wait`]).
    pub unwritten_turns: u64,
    /// The work of the turn in progress so far.
    current: Duration,
}

impl LoopWork {
    fn add(&mut self, spent: Duration) {
        self.current += spent;
    }
    /// A turn's work is complete (the next turn has started).
    fn close_turn(&mut self) {
        self.turns += 1;
        self.total += self.current;
        self.max_turn = self.max_turn.max(self.current);
        self.current = Duration::ZERO;
    }
    fn mean_ms(&self) -> f64 {
        if self.turns == 0 {
            return 0.0;
        }
        self.total.as_secs_f64() * 1000.0 / self.turns as f64
    }
    /// `loop work per turn: mean 3.1 ms, max 9.0 ms (turn end at most: rules 1.0, store 2.0,
    /// news 0.5, next turn 3.0 ms; every turn message queued within 8.0 ms of the start and
    /// written within 9.5 ms)`, and how many turns went on before all were written, if any.
    pub fn text(&self) -> String {
        let ms = |time: Duration| time.as_secs_f64() * 1000.0;
        let unwritten = match self.unwritten_turns {
            0 => String::new(),
            turns => format!(", {turns} turns went on before all were"),
        };
        format!(
            "loop work per turn: mean {:.1} ms, max {:.1} ms (turn end at most: rules {:.1}, store {:.1}, news {:.1}, next turn {:.1} ms; every turn message queued within {:.1} ms of the start and written within {:.1} ms{unwritten})",
            self.mean_ms(),
            ms(self.max_turn),
            ms(self.max_rules),
            ms(self.max_store),
            ms(self.max_news),
            ms(self.max_start),
            ms(self.max_told),
            ms(self.max_written),
        )
    }
}

impl RunSummary {
    /// The closing line of `roger world`.
    pub fn line(&self) -> String {
        format!(
            "done: {} turns in {:.1} s ({:.1} turns/s), last turn {}, longest stall {:.1} ms, peak memory {} KiB, {} ({})",
            self.turns,
            self.seconds,
            self.turns_per_second,
            self.last_turn,
            self.max_stall_ms,
            self.peak_memory_kib,
            self.work.text(),
            self.end
        )
    }
}

/// A world server at work: the loop thread, the network side and the house bots.
pub struct RunningWorld {
    requests: Requests,
    addr: Option<SocketAddr>,
    net: Option<NetServer>,
    loop_thread: Option<JoinHandle<Result<RunSummary, String>>>,
}

impl RunningWorld {
    /// Opens or creates the world, starts listening (when `config.listen` is not empty; empty:
    /// in process only), says `listening <addr>` (and `resumed ...`) on `output`, starts the
    /// house bots and the loop.
    pub fn start(config: WorldConfig, mut output: Output) -> Result<RunningWorld, String> {
        let resume = config.resume;
        let (requests, inbox) = mpsc::channel();
        let published = Published::default();
        // The port first: a port in use must not leave a new database file behind.
        let net = if config.listen.is_empty() {
            None
        } else {
            Some(NetServer::start(
                &config.listen,
                &config.net,
                requests.clone(),
                published.clone(),
            )?)
        };
        let opened = if resume {
            ServerWorld::resume(config.clone())
        } else {
            ServerWorld::create(config.clone())
        };
        let mut server_world = match opened {
            Ok(server_world) => server_world,
            Err(error) => {
                if let Some(net) = net {
                    net.shutdown();
                }
                return Err(error);
            }
        };
        server_world.publish_to(published);
        let addr = net.as_ref().map(NetServer::local_addr);
        if let Some(addr) = addr {
            server_world.note_listening(&addr.to_string());
            output(&format!("listening {addr}"));
        }
        if resume {
            output(&format!(
                "resumed {} at turn {}",
                config.db,
                server_world.world().turn()
            ));
        }
        let house = if config.house.bots > 0 {
            let tokens = server_world.house_tokens();
            Some(HouseBots::start(&config.house, requests.clone(), tokens)?)
        } else {
            None
        };
        let loop_thread = std::thread::Builder::new()
            .name("world-turns".into())
            .spawn(move || {
                let summary = TurnLoop::new(server_world, inbox, output).run();
                if let Some(house) = house {
                    house.stop();
                }
                summary
            })
            .map_err(|error| format!("cannot start the turn loop: {error}"))?;
        Ok(RunningWorld {
            requests,
            addr,
            net,
            loop_thread: Some(loop_thread),
        })
    }

    /// The address players connect to, when listening.
    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.addr
    }

    /// The loop's channel, for clients in this process.
    pub fn requests(&self) -> Requests {
        self.requests.clone()
    }

    /// Waits for the loop to end (`max_turns`, or a shutdown), then stops the network side.
    pub fn wait(mut self) -> Result<RunSummary, String> {
        let result = match self.loop_thread.take() {
            Some(thread) => thread
                .join()
                .unwrap_or_else(|_| Err("the turn loop panicked".into())),
            None => Err("the turn loop is gone".into()),
        };
        if let Some(net) = self.net.take() {
            // The last messages (`closing`) are queued: let the writers send them.
            net.drain(DRAIN_LIMIT);
            net.shutdown();
        }
        result
    }

    /// Stops the loop (the turn in progress is not committed) and waits for it.
    pub fn shutdown(self) -> Result<RunSummary, String> {
        let _ = self.requests.send(Request::Shutdown);
        self.wait()
    }
}

/// The loop's state beyond the world.
struct TurnLoop {
    world: ServerWorld,
    inbox: Receiver<Request>,
    output: Output,
    /// The `--log` file (a test's probe in tests).
    log_file: Option<Box<dyn Write + Send>>,
    began: Instant,
    /// When this process's first turn began.
    first_turn: Option<Instant>,
    turns: u64,
    last_turn: u64,
    max_stall: Duration,
    work: LoopWork,
    /// Requests that came while a turn was being stored, for the next turn.
    deferred: Vec<Request>,
    /// Since when every player has had its `turn` queued, while the loop waits for them to be
    /// written before the turn's moves are made.
    delivering: Option<Instant>,
}

/// How long a stopping server waits for its connections to send their last messages.
const DRAIN_LIMIT: Duration = Duration::from_secs(10);
/// How often the loop looks at the clock while nothing arrives and no turn runs.
const IDLE_TICK: Duration = Duration::from_millis(50);
/// Players to move told of their turn at a time, between requests (each view is written on
/// every core; a thousand take a few milliseconds).
const TELL_BATCH: usize = 1000;
/// Connections told of a turn's end at a time, between requests.
const NEWS_BATCH: usize = 2000;
/// Players whose next windows and views are made between requests while a turn is stored.
const PREPARE_BATCH: usize = 1000;
/// How often the loop asks whether the turn being stored is stored, between requests.
const STORE_POLL: Duration = Duration::from_millis(1);
/// How often the loop asks whether every `turn` message has been written, between requests.
const DELIVERY_POLL: Duration = Duration::from_millis(1);

/// How long the turn's moves wait for every `turn` message to be written: a tenth of the turn,
/// at most a quarter of a second (a reader that stopped reading holds its message until the
/// network side drops it, and the turn goes on without it).
fn delivery_wait(turn_ms: u64) -> Duration {
    Duration::from_millis(turn_ms / 10).min(Duration::from_millis(250))
}

impl TurnLoop {
    fn new(world: ServerWorld, inbox: Receiver<Request>, output: Output) -> TurnLoop {
        let last_turn = world.world().turn().saturating_sub(1);
        TurnLoop {
            world,
            inbox,
            output,
            log_file: None,
            began: Instant::now(),
            first_turn: None,
            turns: 0,
            last_turn,
            max_stall: Duration::ZERO,
            work: LoopWork::default(),
            deferred: Vec::new(),
            delivering: None,
        }
    }

    fn numbers(&self) -> LoopNumbers {
        LoopNumbers {
            turns_this_run: self.turns,
            turns_per_second: self.rate(),
            max_stall_ms: self.max_stall.as_secs_f64() * 1000.0,
        }
    }

    fn rate(&self) -> f64 {
        match self.first_turn {
            Some(first) if self.turns > 0 => self.turns as f64 / first.elapsed().as_secs_f64(),
            _ => 0.0,
        }
    }

    fn run(mut self) -> Result<RunSummary, String> {
        if let Some(path) = &self.world.config().log {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|error| format!("--log {}: {error}", path.display()))?;
            self.log_file = Some(Box::new(BufWriter::new(file)));
        }
        let max_turns = self.world.config().max_turns;
        let mut failure = None;
        let end = loop {
            if self.world.announcing() {
                // The last turn's end goes out a batch at a time, each connection hearing of
                // the next turn with it.
                let began = Instant::now();
                self.world.announce_some(NEWS_BATCH);
                self.world.drop_pending();
                let spent = began.elapsed();
                self.work.max_news = self.work.max_news.max(spent);
                self.count_work(spent);
                if !self.world.announcing() {
                    self.work.close_turn();
                    if !self.world.telling() {
                        self.everyone_told();
                    }
                    continue;
                }
            } else if self.world.storing() {
                // The turn that ended is being stored: answer reads, keep everything else
                // for the next turn, which starts once the store says the turn is safe and
                // everyone has heard of its end.
                match self.world.turn_stored(Duration::ZERO) {
                    Some(Ok(ended)) => {
                        let began = Instant::now();
                        self.close_stored_turn(ended);
                        if max_turns.is_none_or(|max| self.last_turn < max) {
                            // The next turn begins now; its `turn` messages go out with the
                            // last one's `turn_end`.
                            let starting = Instant::now();
                            self.world.begin_turn(starting);
                            self.work.max_start = self.work.max_start.max(starting.elapsed());
                        }
                        self.count_work(began.elapsed());
                        continue;
                    }
                    Some(Err(error)) => {
                        // The store failed: stop as on a shutdown, the clients told to come back.
                        (self.output)(&format!("stopping: {error}"));
                        failure = Some(error);
                        break "shutdown";
                    }
                    // Meanwhile the next turn's windows and views are made, a batch at a time.
                    None if !self.world.prepared() => {
                        let began = Instant::now();
                        self.world.prepare_some(PREPARE_BATCH);
                        self.count_work(began.elapsed());
                        if let Ok(request) = self.inbox.try_recv() {
                            match request {
                                Request::Shutdown => {
                                    self.finish_storing();
                                    break "shutdown";
                                }
                                request @ Request::Read { .. } => self.handle_timed(request),
                                request => self.deferred.push(request),
                            }
                        }
                        continue;
                    }
                    None => {}
                }
            }
            if self.world.storing() || self.world.announcing() {
                let wait = if self.world.announcing() {
                    Duration::ZERO
                } else {
                    STORE_POLL
                };
                match self.inbox.recv_timeout(wait) {
                    Ok(Request::Shutdown) => {
                        self.finish_storing();
                        break "shutdown";
                    }
                    Ok(request @ Request::Read { .. }) => self.handle_timed(request),
                    Ok(request) => self.deferred.push(request),
                    Err(RecvTimeoutError::Timeout) => {}
                    Err(RecvTimeoutError::Disconnected) => {
                        self.finish_storing();
                        break "shutdown";
                    }
                }
                continue;
            }
            if max_turns.is_some_and(|max| self.last_turn >= max) {
                break "max-turns";
            }
            let now = Instant::now();
            if !self.world.running() {
                if self.world.connected_players() >= self.world.config().wait_players {
                    self.first_turn.get_or_insert(now);
                    self.world.begin_turn(now);
                }
            } else if self.world.turn_over(now) {
                // A turn that ran out while its `turn` messages were still being written
                // leaves the moves kept meanwhile to the next turn.
                self.delivering = None;
                let began = Instant::now();
                if let Err(error) = self.world.begin_end_turn() {
                    (self.output)(&format!("stopping: {error}"));
                    failure = Some(error);
                    break "shutdown";
                }
                self.count_work(began.elapsed());
                continue;
            }
            if let Some(since) = self.delivering {
                // Every player has had its `turn` queued; the moves that came meanwhile wait
                // until every `turn` is written, so that no player hears of the turn late for
                // the loop's work on the others' moves, and no player finds the turn's board
                // changed before it heard of the turn.
                let turn_ms = self.world.world().params().turn_ms;
                if self.world.turn_delivered() || since.elapsed() >= delivery_wait(turn_ms) {
                    self.delivered();
                    continue;
                }
                // A nap, then whatever came meanwhile: thousands of answers arrive now, and
                // waking the loop for each would take the cores the writers need.
                std::thread::sleep(DELIVERY_POLL);
                if !self.hold_waiting() {
                    break "shutdown";
                }
                continue;
            }
            if self.world.telling() {
                // A batch of players hears of the turn. Between batches only reads are
                // answered: the rest waits until everyone has been told, so that the last
                // player hears of the turn as early as the first's moves are made.
                let began = Instant::now();
                self.world.tell_movers(TELL_BATCH);
                self.world.drop_pending();
                self.count_work(began.elapsed());
                if !self.world.telling() {
                    self.everyone_told();
                    continue;
                }
                match self.inbox.try_recv() {
                    Ok(Request::Shutdown) | Err(TryRecvError::Disconnected) => break "shutdown",
                    Ok(request @ Request::Read { .. }) => self.handle_timed(request),
                    Ok(request) => self.deferred.push(request),
                    Err(TryRecvError::Empty) => {}
                }
                continue;
            }
            let wait = self
                .world
                .deadline()
                .map_or(IDLE_TICK, |deadline| {
                    deadline.saturating_duration_since(now)
                })
                .min(IDLE_TICK);
            match self.inbox.recv_timeout(wait) {
                Ok(Request::Shutdown) => break "shutdown",
                Ok(request) => self.handle_timed(request),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break "shutdown",
            }
        };
        if end == "shutdown" && self.world.running() {
            (self.output)(&format!(
                "stopping: turn {} was in progress and is not stored",
                self.world.world().turn()
            ));
        }
        self.world.close_all(end);
        if let Some(file) = &mut self.log_file {
            let _ = file.flush();
        }
        if let Some(error) = failure {
            return Err(error);
        }
        let summary = RunSummary {
            turns: self.turns,
            last_turn: self.last_turn,
            seconds: self.began.elapsed().as_secs_f64(),
            turns_per_second: self.rate(),
            max_stall_ms: self.max_stall.as_secs_f64() * 1000.0,
            peak_memory_kib: peak_memory_kib(),
            work: self.work,
            end: end.to_string(),
        };
        Ok(summary)
    }

    /// Every player has had its `turn` queued: the loop waits for them to be written.
    fn everyone_told(&mut self) {
        if self.world.running() {
            let told = self.world.turn_began().elapsed();
            self.work.max_told = self.work.max_told.max(told);
            self.delivering = Some(Instant::now());
        } else {
            self.handle_deferred();
        }
    }

    /// Every `turn` is written (or the wait is over): the requests kept meanwhile are handled.
    fn delivered(&mut self) {
        self.delivering = None;
        let began = Instant::now();
        self.world.forget_spent();
        self.count_work(began.elapsed());
        if self.world.turn_delivered() {
            let written = self.world.turn_began().elapsed();
            self.work.max_written = self.work.max_written.max(written);
        } else {
            self.work.unwritten_turns += 1;
        }
        self.handle_deferred();
    }

    /// Takes every request waiting: reads are answered, the rest kept for later. `false`: stop.
    fn hold_waiting(&mut self) -> bool {
        loop {
            match self.inbox.try_recv() {
                Ok(Request::Shutdown) | Err(TryRecvError::Disconnected) => return false,
                Ok(request @ Request::Read { .. }) => self.handle_timed(request),
                Ok(request) => self.deferred.push(request),
                Err(TryRecvError::Empty) => return true,
            }
        }
    }

    fn handle_deferred(&mut self) {
        for request in std::mem::take(&mut self.deferred) {
            self.handle_timed(request);
        }
    }

    /// One request, with the time it held the loop counted.
    fn handle_timed(&mut self, request: Request) {
        let began = Instant::now();
        self.handle(request);
        self.world.drop_pending();
        self.count_work(began.elapsed());
    }

    /// Time the loop spent on one thing: the longest stall, and the turn's work while turns run.
    fn count_work(&mut self, spent: Duration) {
        self.max_stall = self.max_stall.max(spent);
        if self.first_turn.is_some() {
            self.work.add(spent);
        }
    }

    /// Stopping while a turn is being stored: it is a completed turn, so the loop waits for it
    /// (and logs and counts it) before it stops.
    fn finish_storing(&mut self) {
        if let Some(Ok(ended)) = self.world.turn_stored(Duration::from_secs(60)) {
            self.write_log(&ended);
            self.after_turn(ended);
        }
    }

    fn handle(&mut self, request: Request) {
        match request {
            Request::Open {
                conn,
                outbox,
                house,
                ..
            } => self.world.open(conn, outbox, house),
            Request::Message { conn, message } => self.world.message(conn, message),
            Request::Closed { conn } => self.world.close(conn),
            Request::Read { query, reply } => {
                let _ = reply.send(self.world.read(&query, self.numbers()));
            }
            Request::Shutdown => {}
        }
    }

    /// A turn is stored: its figures, the log file, the news begun (sent a batch at a time by
    /// the loop), the standings.
    fn close_stored_turn(&mut self, ended: EndedTurn) {
        self.work.max_rules = self.work.max_rules.max(ended.rules_time);
        self.work.max_store = self.work.max_store.max(ended.store_time);
        // A client that reads the log on `turn_end` finds the whole turn there.
        self.write_log(&ended);
        self.world.announce(&ended);
        self.after_turn(ended);
    }

    /// The turn's entries, appended to the log file.
    fn write_log(&mut self, ended: &EndedTurn) {
        if let Some(file) = &mut self.log_file {
            for entry in ended.log.iter() {
                if let Ok(line) = serde_json::to_string(entry) {
                    let _ = writeln!(file, "{line}");
                }
            }
            let _ = file.flush();
        }
    }

    /// After a completed turn: the standings, the picture.
    fn after_turn(&mut self, ended: EndedTurn) {
        self.turns += 1;
        self.last_turn = ended.turn;
        let config = self.world.config();
        let every = config.standings_every;
        if every > 0 && ended.turn.is_multiple_of(every) {
            let line = self.standings_line(ended.turn);
            (self.output)(&line);
        }
        let every = config.svg_every;
        if every > 0 && ended.turn.is_multiple_of(every) {
            let path = config.svg_dir.join(format!("world-{}.svg", ended.turn));
            let labels: PlayerLabels = self
                .world
                .scoreboard()
                .into_iter()
                .map(|row| (row.player, row.name))
                .collect();
            let title = format!("Megachess world after turn {}", ended.turn);
            let svg = world_svg(self.world.world(), &title, &labels);
            if let Err(error) = std::fs::write(&path, svg) {
                (self.output)(&format!("cannot write {}: {error}", path.display()));
            }
        }
    }

    /// `turn N alabaster S (P players, Q pieces, K kings taken) metal ... top: name score, ...`
    fn standings_line(&self, turn: u64) -> String {
        let [alabaster, metal] = self.world.standings();
        let leaders: Vec<String> = self
            .world
            .leaders(3)
            .into_iter()
            .map(|(name, score)| format!("{name} {score}"))
            .collect();
        let team = |name: &str, team: &TeamStanding| {
            format!(
                "{name} {} ({} players, {} pieces, {} kings taken)",
                team.score, team.players, team.pieces, team.kings_taken
            )
        };
        format!(
            "turn {turn} {} {} top: {}",
            team("alabaster", &alabaster),
            team("metal", &metal),
            leaders.join(", ")
        )
    }
}

#[cfg(test)]
mod tests;

/// `roger world`.
pub fn command(args: &WorldArgs) -> ExitCode {
    let config = match args.config() {
        Ok(config) => config,
        Err(error) => {
            eprintln!("roger world: {error}");
            return ExitCode::from(2);
        }
    };
    let output: Output = Box::new(|line: &str| {
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "{line}");
        let _ = stdout.flush();
    });
    // SIGINT, SIGTERM and SIGHUP stop the world in order, with its summary. The handler is set
    // before the world starts (and says `listening`), so that no signal meets the default
    // action; a signal that comes before the loop is up waits in the channel.
    let (signals, signalled) = std::sync::mpsc::channel::<()>();
    let _ = ctrlc::set_handler(move || {
        let _ = signals.send(());
    });
    let running = match RunningWorld::start(config, output) {
        Ok(running) => running,
        Err(error) => {
            eprintln!("roger world: {error}");
            return ExitCode::from(2);
        }
    };
    let requests = running.requests();
    std::thread::spawn(move || {
        while signalled.recv().is_ok() {
            let _ = requests.send(Request::Shutdown);
        }
    });
    match running.wait() {
        Ok(summary) => {
            println!("{}", summary.line());
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("roger world: {error}");
            ExitCode::FAILURE
        }
    }
}
