//! Runs a tournament: checks every engine, builds the game list, plays it on a pool of worker
//! threads (each with its own engine processes), reports progress, stops early on an SPRT
//! decision or Ctrl-C, and writes PGN and JSON.

use super::cli::ArenaSettings;
use super::openings::load_book;
use super::pgn::game_pgn;
use super::pool::{play_games, Lineup, Workers};
use super::process::{start_engine, Inbox, TrafficLog};
use super::record::{
    points_for, ArenaReport, FinishedGame, SettingsRecord, REPORT_FORMAT, REPORT_VERSION,
};
use super::referee::world::stats::seats_text;
use super::referee::{referee_for, SessionRecord};
use super::report::{encounter_stats, Summary};
use super::schedule::{schedule, shard, ScheduleSettings, ScheduledGame};
use super::stats::{elo_trinomial, Sprt, SprtDecision};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;
use std::time::Instant;

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
        let mut inbox = Inbox::new();
        let timeout = settings.referee.ready_timeout;
        let mut client = start_engine(engine, &settings.variant, timeout, log.clone(), &mut inbox)
            .map_err(|error| {
                format!(
                    "engine '{}' ({}): {error}",
                    engine.name,
                    engine.command.display()
                )
            })?;
        if !named {
            if let Some(id) = client.id_name() {
                engine.name = id;
            }
        }
        client.quit();
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
            let standing = |&engine: &usize| {
                let (points, played) = games
                    .iter()
                    .filter_map(|g| points_for(g, engine))
                    .fold((0.0, 0), |(p, n), x| (p + x, n + 1));
                format!("{} {points}/{played}", settings.engines[engine].name)
            };
            let standings: Vec<String> = game.scheduled.seats.iter().map(standing).collect();
            score = standings.join(", ");
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
                    "game {}: {} {} ({})",
                    game.scheduled.index + 1,
                    game.names.join(" - "),
                    played.result_text(),
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
                played.ending_text()
            };
            let unit = match &played.record {
                SessionRecord::Realtime(_) => "orders",
                SessionRecord::World(record) => {
                    // The seats' figures: score, kings, pieces, rejected moves, late turns.
                    let _ = write!(score, " | {}", seats_text(record));
                    "turns"
                }
                _ => "plies",
            };
            println!(
                "Game {}/{} (#{}) {}: {} ({reason}, {} {unit}) | {score}",
                self.done,
                self.planned,
                game.scheduled.index + 1,
                game.names.join(" - "),
                played.result_text(),
                played.length(),
            );
        }
    }

    fn finish(&self) {
        if self.terminal {
            println!();
        }
    }
}

/// Every game of the schedule, and this run's share of them (all of them without `--shard`).
fn games_to_play(
    settings: &ArenaSettings,
) -> Result<(Vec<ScheduledGame>, Vec<ScheduledGame>), String> {
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
        start_positions: settings.start_positions,
    })?;
    let games = match settings.shard {
        Some((index, count)) => shard(&all_games, index, count),
        None => all_games.clone(),
    };
    Ok((all_games, games))
}

/// The run's first line: how many games of what, between whom.
fn print_heading(settings: &ArenaSettings, names: &[String], games: usize, all_games: usize) {
    println!(
        "{} games of {} ({}), seed {}{}, concurrency {}",
        games,
        settings
            .start_positions
            .map_or(settings.variant.as_str(), |starts| starts.name()),
        names.join(", "),
        settings.seed,
        settings
            .shard
            .map(|(i, n)| format!(", share {i}/{n} of {all_games} games"))
            .unwrap_or_default(),
        settings.concurrency
    );
}

/// The SPRT's decision on the games so far, once it has one. An SPRT stops a whole match; a
/// share plays all its games and leaves the decision to the merged result.
fn sprt_verdict(settings: &ArenaSettings, finished: &[FinishedGame]) -> Option<String> {
    let (Some((sprt, _)), None) = (&settings.sprt, settings.shard) else {
        return None;
    };
    let stats = encounter_stats(finished, 0, 1);
    match sprt.decision(&stats.pentanomial) {
        SprtDecision::Continue => None,
        SprtDecision::AcceptH0 => Some("H0 accepted".to_string()),
        _ => Some("H1 accepted".to_string()),
    }
}

/// The standings, after a word on an interruption or the SPRT's decision.
fn print_ending(report: &ArenaReport, sprt: Option<&Sprt>, planned: usize) {
    let summary = Summary::new(report, sprt);
    println!();
    if report.interrupted {
        println!(
            "Interrupted after {} of {planned} games.",
            report.games.len(),
        );
    }
    if let Some(decision) = &report.sprt_decision {
        println!("SPRT: {decision} after {} games.", report.games.len());
    }
    print!("{}", summary.text());
}

/// Runs the tournament the settings describe.
pub fn run(mut settings: ArenaSettings) -> Result<RunOutcome, String> {
    let log = settings
        .log
        .as_deref()
        .map(TrafficLog::create)
        .transpose()?;
    let (all_games, games) = games_to_play(&settings)?;
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
    print_heading(&settings, &names, games.len(), all_games.len());
    install_interrupt_handler();

    let referee = referee_for(settings.referee.clone())?;
    let timeout = settings.referee.ready_timeout;
    let start = |index: usize, inbox: &mut Inbox| {
        let engine = &settings.engines[index];
        start_engine(engine, &settings.variant, timeout, log.clone(), inbox)
    };
    let lineup = Lineup {
        names: names.clone(),
        limits: settings.engines.iter().map(|e| e.limits).collect(),
        start: &start,
    };
    let stop = AtomicBool::new(false);
    let mut finished: Vec<FinishedGame> = Vec::new();
    let mut sprt_decision = None;
    let mut progress = Progress {
        terminal: std::io::stdout().is_terminal(),
        planned: games.len(),
        done: 0,
        started: Instant::now(),
    };
    let interrupted = || INTERRUPTED.load(Ordering::SeqCst);
    let workers = Workers {
        concurrency: settings.concurrency,
        stop: &stop,
        interrupted: &interrupted,
    };
    play_games(&games, referee.as_ref(), &lineup, &workers, &mut |game| {
        if let Some(file) = &mut pgn {
            let _ = file.write_all(game_pgn(&record, &game).as_bytes());
            let _ = file.flush();
        }
        finished.push(game);
        progress.game(finished.last().expect("just pushed"), &finished, &settings);
        if sprt_decision.is_none() {
            sprt_decision = sprt_verdict(&settings, &finished);
            if sprt_decision.is_some() {
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
    print_ending(&report, sprt, games.len());
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
