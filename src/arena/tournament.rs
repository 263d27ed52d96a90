//! Runs a tournament: checks every engine, builds the game list, plays it on a pool of worker
//! threads (each with its own engine processes), reports progress, stops early on an SPRT
//! decision or Ctrl-C, and writes PGN and JSON.

use super::cli::ArenaSettings;
use super::engine_process::{EngineConfig, EngineProcess, TrafficLog};
use super::openings::load_book;
use super::pgn::game_pgn;
use super::referee::{play_game, PlayedGame, Termination};
use super::report::{
    encounter_stats, points_for, today, ArenaReport, FinishedGame, SettingsRecord, Summary,
};
use super::report::{REPORT_FORMAT, REPORT_VERSION};
use super::schedule::{schedule, shard, ScheduleSettings, ScheduledGame};
use super::stats::{elo_trinomial, SprtDecision};
use crate::rules::registry::{bind_game, dispatch, AnyGame};
use crate::rules::{Color, Game};
use std::collections::HashMap;
use std::fs::File;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Once};
use std::time::{Duration, Instant};

/// Set by Ctrl-C.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The first Ctrl-C stops the tournament in order (finished games are written); a second one
/// exits at once.
fn install_interrupt_handler() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            if INTERRUPTED.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
            eprintln!("\narena: interrupted; finishing up (Ctrl-C again to quit at once)");
        });
    });
}

/// How a run ended.
pub struct RunOutcome {
    pub report: ArenaReport,
    pub interrupted: bool,
}

/// Starts each engine once to check it before any game, and learns its name.
fn check_engines(settings: &mut ArenaSettings, log: &Option<TrafficLog>) -> Result<(), String> {
    for (engine, named) in settings.engines.iter_mut().zip(&settings.named) {
        let process = EngineProcess::start(
            engine,
            &settings.variant,
            settings.referee.ready_timeout,
            log.clone(),
        )
        .map_err(|error| {
            format!(
                "engine '{}' ({}): {error}",
                engine.name,
                engine.command.display()
            )
        })?;
        if !named {
            if let Some(id) = &process.id_name {
                engine.name = id.clone();
            }
        }
        process.quit();
    }
    // Names must tell engines apart in standings and PGN.
    let mut seen: HashMap<String, usize> = HashMap::new();
    for engine in &mut settings.engines {
        let count = seen.entry(engine.name.clone()).or_insert(0);
        *count += 1;
        if *count > 1 {
            engine.name = format!("{} #{count}", engine.name);
        }
    }
    Ok(())
}

fn create_file(path: &Path, what: &str) -> Result<File, String> {
    File::create(path)
        .map_err(|error| format!("cannot create {what} '{}': {error}", path.display()))
}

/// A worker's engines, started on first use and restarted after a fault.
struct EnginePool<'a> {
    configs: &'a [EngineConfig],
    variant: &'a str,
    timeout: Duration,
    log: Option<TrafficLog>,
    running: HashMap<usize, EngineProcess>,
}

impl EnginePool<'_> {
    fn ready(&mut self, index: usize) -> Result<(), String> {
        if self
            .running
            .get(&index)
            .is_some_and(|engine| engine.faulted)
        {
            // Dropping kills it.
            self.running.remove(&index);
        }
        if !self.running.contains_key(&index) {
            let engine = EngineProcess::start(
                &self.configs[index],
                self.variant,
                self.timeout,
                self.log.clone(),
            )?;
            self.running.insert(index, engine);
        }
        Ok(())
    }

    fn close(self) {
        for (_, engine) in self.running {
            engine.quit();
        }
    }
}

/// Plays one scheduled game with the pool's engines.
fn play_one(
    pool: &mut EnginePool,
    settings: &ArenaSettings,
    game: &ScheduledGame,
    cancel: &AtomicBool,
) -> Option<PlayedGame> {
    let kind = AnyGame::new(&settings.variant).expect("the variant was checked");
    for (color, index) in [(Color::White, game.white), (Color::Black, game.black)] {
        if let Err(error) = pool.ready(index) {
            let start = kind
                .with_position(game.opening.fen.as_deref(), &[])
                .map(|g| dispatch!(&g, record => record.start().fen()))
                .unwrap_or_default();
            let detail = format!(
                "{} ({}) could not start: {error}",
                color.name(),
                settings.engines[index].name
            );
            return Some(PlayedGame::forfeit(
                start,
                color,
                Termination::StartFailure,
                detail,
            ));
        }
    }
    // Two distinct engines: take both out of the map to borrow them together.
    let mut white = pool.running.remove(&game.white).expect("started");
    let mut black = pool.running.remove(&game.black).expect("started");
    let limits = [
        settings.engines[game.white].limits,
        settings.engines[game.black].limits,
    ];
    let engines = [&mut white, &mut black];
    let played = bind_game!(&kind, G => play_game::<G>(&game.opening, engines, limits, &settings.referee, cancel));
    pool.running.insert(game.white, white);
    pool.running.insert(game.black, black);
    played
}

/// The running score line of progress output.
struct Progress {
    terminal: bool,
    planned: usize,
    done: usize,
    started: Instant,
}

impl Progress {
    fn game(&mut self, game: &FinishedGame, games: &[FinishedGame], settings: &ArenaSettings) {
        self.done += 1;
        let mut score;
        if settings.engines.len() > 2 {
            // Each player of this game against the field so far.
            let standing = |engine: usize| {
                let (points, played) = games
                    .iter()
                    .filter_map(|g| points_for(g, engine))
                    .fold((0.0, 0), |(p, n), x| (p + x, n + 1));
                format!("{} {points}/{played}", settings.engines[engine].name)
            };
            score = format!(
                "{}, {}",
                standing(game.scheduled.white),
                standing(game.scheduled.black)
            );
        } else {
            let stats = encounter_stats(games, 0, 1);
            let t = stats.trinomial;
            score = format!(
                "{} {}-{}-{} ({:.1}%)",
                settings.engines[0].name,
                t.wins,
                t.draws,
                t.losses,
                100.0 * t.score()
            );
            if let Some(elo) = elo_trinomial(&t) {
                let error = if elo.error95.is_finite() {
                    format!("{:.1}", elo.error95)
                } else {
                    "inf".into()
                };
                score.push_str(&format!(" Elo {:+.1} +/- {error}", elo.elo));
            }
        }
        let played = &game.played;
        let fault = played.termination.is_fault();
        if self.terminal {
            if fault {
                print!("\r\x1b[2K");
                println!(
                    "game {}: {} - {} {} ({})",
                    game.scheduled.index + 1,
                    game.white_name,
                    game.black_name,
                    played.result.text(),
                    played.detail
                );
            }
            let width = 30;
            let filled = width * self.done / self.planned.max(1);
            print!(
                "\r\x1b[2K[{}{}] {}/{} {score} {:.0}s",
                "#".repeat(filled),
                "-".repeat(width - filled),
                self.done,
                self.planned,
                self.started.elapsed().as_secs_f64()
            );
            let _ = std::io::stdout().flush();
        } else {
            let reason = if fault {
                played.detail.clone()
            } else {
                played.termination.text().to_string()
            };
            println!(
                "Game {}/{} (#{}) {} - {}: {} ({reason}, {} plies) | {score}",
                self.done,
                self.planned,
                game.scheduled.index + 1,
                game.white_name,
                game.black_name,
                played.result.text(),
                played.moves.len(),
            );
        }
    }

    fn finish(&self) {
        if self.terminal {
            println!();
        }
    }
}

/// Runs the tournament the settings describe.
pub fn run(mut settings: ArenaSettings) -> Result<RunOutcome, String> {
    let log = settings
        .log
        .as_deref()
        .map(TrafficLog::create)
        .transpose()?;
    let book = match &settings.book {
        Some(book) => load_book(book, &settings.variant)?,
        None => Vec::new(),
    };
    let all_games = schedule(&ScheduleSettings {
        variant: &settings.variant,
        engines: settings.engines.len(),
        format: settings.format,
        rounds: settings.rounds,
        games: settings.games,
        book: &book,
        order: settings
            .book
            .as_ref()
            .map_or(super::openings::BookOrder::Sequential, |b| b.order),
        book_start: settings.book.as_ref().map_or(0, |b| b.start - 1),
        random_plies: settings.random_plies,
        seed: settings.seed,
    })?;
    let games = match settings.shard {
        Some((index, count)) => shard(&all_games, index, count),
        None => all_games.clone(),
    };
    let mut pgn = settings
        .pgnout
        .as_deref()
        .map(|p| create_file(p, "PGN file"))
        .transpose()?;
    if let Some(path) = &settings.json {
        create_file(path, "JSON file")?;
    }
    check_engines(&mut settings, &log)?;
    let record = SettingsRecord::new(&settings);
    let names: Vec<String> = settings.engines.iter().map(|e| e.name.clone()).collect();
    println!(
        "{} games of {} ({}), seed {}{}, concurrency {}",
        games.len(),
        settings.variant,
        names.join(", "),
        settings.seed,
        settings
            .shard
            .map(|(i, n)| format!(", share {i}/{n} of {} games", all_games.len()))
            .unwrap_or_default(),
        settings.concurrency
    );
    install_interrupt_handler();

    let stop = AtomicBool::new(false);
    let next = AtomicUsize::new(0);
    let (sender, results) = mpsc::channel::<(usize, Option<PlayedGame>, Duration)>();
    let mut finished: Vec<FinishedGame> = Vec::new();
    let mut sprt_decision = None;
    let mut progress = Progress {
        terminal: std::io::stdout().is_terminal(),
        planned: games.len(),
        done: 0,
        started: Instant::now(),
    };
    let settings_ref = &settings;
    let games_ref = &games;
    std::thread::scope(|scope| {
        for _ in 0..settings.concurrency.min(games.len().max(1)) {
            let sender = sender.clone();
            let (stop, next, log) = (&stop, &next, log.clone());
            scope.spawn(move || {
                let mut pool = EnginePool {
                    configs: &settings_ref.engines,
                    variant: &settings_ref.variant,
                    timeout: settings_ref.referee.ready_timeout,
                    log,
                    running: HashMap::new(),
                };
                while !stop.load(Ordering::SeqCst) {
                    let slot = next.fetch_add(1, Ordering::SeqCst);
                    let Some(game) = games_ref.get(slot) else {
                        break;
                    };
                    let started = Instant::now();
                    let played = play_one(&mut pool, settings_ref, game, stop);
                    if sender.send((slot, played, started.elapsed())).is_err() {
                        break;
                    }
                }
                pool.close();
            });
        }
        drop(sender);
        loop {
            match results.recv_timeout(Duration::from_millis(100)) {
                Ok((slot, Some(played), duration)) => {
                    let scheduled = games[slot].clone();
                    let game = FinishedGame {
                        white_name: names[scheduled.white].clone(),
                        black_name: names[scheduled.black].clone(),
                        scheduled,
                        played,
                        date: today(),
                        duration_ms: duration.as_millis() as u64,
                    };
                    if let Some(file) = &mut pgn {
                        let _ = file.write_all(game_pgn(&record, &game).as_bytes());
                        let _ = file.flush();
                    }
                    finished.push(game);
                    progress.game(finished.last().expect("just pushed"), &finished, &settings);
                    // An SPRT stops a whole match; a share plays all its games and leaves the
                    // decision to the merged result.
                    if let (Some((sprt, _)), None) = (&settings.sprt, settings.shard) {
                        let stats = encounter_stats(&finished, 0, 1);
                        let decision = sprt.decision(&stats.pentanomial);
                        if decision != SprtDecision::Continue && sprt_decision.is_none() {
                            sprt_decision = Some(match decision {
                                SprtDecision::AcceptH0 => "H0 accepted".to_string(),
                                _ => "H1 accepted".to_string(),
                            });
                            stop.store(true, Ordering::SeqCst);
                        }
                    }
                }
                Ok((_, None, _)) => {}
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            if INTERRUPTED.load(Ordering::SeqCst) {
                stop.store(true, Ordering::SeqCst);
            }
        }
    });
    progress.finish();
    finished.sort_by_key(|game| game.scheduled.index);
    let interrupted = INTERRUPTED.load(Ordering::SeqCst);
    let mut report = ArenaReport {
        format: REPORT_FORMAT.to_string(),
        version: REPORT_VERSION,
        settings: record,
        total_games: all_games.len(),
        shard: settings.shard,
        planned_games: games.len(),
        interrupted,
        sprt_decision: sprt_decision.clone(),
        games: finished,
        summary: serde_json::Value::Null,
    };
    let sprt = settings.sprt.as_ref().map(|(sprt, _)| sprt);
    if let Some(path) = &settings.json {
        report.write_json(path, sprt)?;
    }
    let summary = Summary::new(&report, sprt);
    println!();
    if interrupted {
        println!(
            "Interrupted after {} of {} games.",
            report.games.len(),
            games.len()
        );
    }
    if let Some(decision) = &sprt_decision {
        println!("SPRT: {decision} after {} games.", report.games.len());
    }
    print!("{}", summary.text());
    Ok(RunOutcome {
        report,
        interrupted,
    })
}

/// `roger arena merge`: joins shares, prints the standings, writes JSON and PGN.
pub fn merge(
    files: &[std::path::PathBuf],
    json: Option<&Path>,
    pgnout: Option<&Path>,
) -> Result<ArenaReport, String> {
    let reports = files
        .iter()
        .map(|path| Ok((path.display().to_string(), ArenaReport::read_json(path)?)))
        .collect::<Result<Vec<_>, String>>()?;
    let mut merged = ArenaReport::merge(reports)?;
    let sprt = match &merged.settings.sprt {
        Some(text) => {
            let args: Vec<&str> = text.split_whitespace().collect();
            Some(super::stats::Sprt::parse(&args)?)
        }
        None => None,
    };
    if let Some(path) = pgnout {
        let mut text = String::new();
        for game in &merged.games {
            text.push_str(&game_pgn(&merged.settings, game));
        }
        std::fs::write(path, text)
            .map_err(|error| format!("cannot write '{}': {error}", path.display()))?;
    }
    if let Some(path) = json {
        merged.write_json(path, sprt.as_ref())?;
    }
    let missing = merged.total_games - merged.games.len();
    println!(
        "{} games of {} merged from {} files{}",
        merged.games.len(),
        merged.total_games,
        files.len(),
        if missing > 0 {
            format!(" ({missing} missing)")
        } else {
            String::new()
        }
    );
    print!("{}", Summary::new(&merged, sprt.as_ref()).text());
    Ok(merged)
}
