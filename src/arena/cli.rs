//! `roger arena` arguments. The `--engine key=value ...` groups are beyond clap, so the whole
//! command line is read here, with an error that names the flag and the token for every
//! mistake, before any engine starts.

use super::engine_args::{engine_config, engine_group, number, pairs, seconds, EngineGroup};
use super::openings::{BookFormat, BookOrder, BookSettings, StartPositions};
use super::process::EngineConfig;
use super::referee::realtime::flags::RealtimeFlags;
use super::referee::realtime::RealtimeSettings;
use super::referee::world::flags::WorldFlags;
use super::referee::{Adjudication, DrawRule, RefereeSettings, ResignRule};
use super::schedule::Format;
use super::stats::Sprt;
use crate::rules::registry::{names_of, Family, DEFAULT_GAME};
use std::path::PathBuf;

/// The option that makes a UCI engine write castling king-takes-rook, set for Chess960.
const UCI_CHESS960: &str = "UCI_Chess960";
use std::time::Duration;

pub const USAGE: &str = "\
roger arena: engine-vs-engine tournaments, refereed with Roger's own rules

USAGE:
    roger arena --engine cmd=PATH [KEY=VALUE...] --engine ... [OPTIONS]
    roger arena merge FILE.json... [--json OUT] [--pgnout OUT]

ENGINES (--engine once per engine, --each for settings they share):
    cmd=PATH            the program ('roger' is this binary); required
    name=NAME           name in standings and PGN (default: the engine's own)
    arg=ARG             one command-line argument (repeatable); args=\"A B\" splits on spaces
    dir=DIR             working directory
    proto=uci|xboard    protocol (default uci)
    option.NAME=VALUE   a UCI option (xboard: Hash -> memory, Threads -> cores)
    tc=BASE+INC         clock in seconds, kept by the arena
    st=SECONDS          fixed time per move
    nodes=N             node limit per move
    depth=N             depth limit per move
    inprocess=true      run cmd=roger args=\"play random|greedy\" on a thread, not a process

OPTIONS:
    --variant NAME          chess, nichess, ... (default chess); chess960 (or fischerandom)
                            and dfrc: chess from Fischer Random start positions drawn from
                            the seed (dfrc: each side's on its own) unless --openings gives
                            them, with UCI_Chess960 set in every engine
    --format F              round-robin (default; a match for two engines) or gauntlet
    --seeds N               gauntlet: the first N engines play all others (default 1)
    --rounds N              rounds (default 1)
    --games N               games per encounter per round (default 2: one opening, both colours)
    --concurrency N         games at once (default 1)
    --openings file=F format=epd|moves [order=sequential|random] [start=N] [plies=N]
    --random-plies N        random legal plies played from the opening (default 0); realtime:
                            N random orders started at 0 ms, White's and Black's in turn
    --seed N                seed for openings and random plies (default: from the clock)
    --draw movenumber=N movecount=N score=CP
    --resign movecount=N score=CP [twosided=true]
    --maxplies N            adjudicate a draw after N plies
    --timemargin MS         how far past its clock an engine may go (default 50)
    --hang-timeout S        how long an engine without clock may think (default 60)
    --ready-timeout S       how long to wait for the handshake and readyok (default 30)
    --sprt elo0=E0 elo1=E1 [alpha=A] [beta=B]   stop a match early on a decision
    --pgnout FILE           write the games as PGN
    --json FILE             write the whole result as JSON
    --log FILE              log every line to and from the engines
    --shard I/N             play only the I-th of N equal shares of the games
    -h, --help              this text

REALTIME (--variant realtime; engines take st=SECONDS, the budget per decision, default 0.05):
    --poll-ms N             game time between two polls, lockstep (default 100)
    --wall-clock            play in real time, engines streaming (default: lockstep)
    --tick-ms N             the game's tick (default 1000)
    --delay-ticks N         a piece's delay after it arrives, in ticks (default 10)
    --no-capture-draw-ticks N   a draw after N ticks without a removal (default 300)
    --max-game-ms N         stop a game still going at N ms of game time (a draw)

MEGACHESS (--variant megachess; seat 1, 3, ... play alabaster, seat 2, 4, ... metal; engines
take st=SECONDS, the thinking time of each player's turn, default 0.1):
    --size W H              the board (default 256 256; also --width N, --height N)
    --players-per-seat K    players each engine plays: 1 for 1 v 1, 8 for 8 v 8 (default 1)
    --layout L              where the armies start: facing[:GAP], ring[:RADIUS] or scatter
                            (default facing:8)
    --gap N                 facing: empty ranks between the fronts; ring: its radius
    --turns N               turns over both teams after which a world is scored (default 200)
    --window N              send each player the window of margin N around its army
                            (default: the whole world)
    --param NAME=VALUE...   any world parameter by its protocol name (kingdom_radius=12)
    --NAME VALUE            the same, the name with dashes: --kingdom-radius 12, --bonus-every 0
    --svg FILE              a picture of each world's final state (several worlds: FILE-N.svg)
";

/// Everything a tournament needs, checked.
#[derive(Clone, Debug)]
pub struct ArenaSettings {
    pub variant: String,
    /// `--variant chess960` or `dfrc`: chess (the `variant`) from Fischer Random starts.
    pub start_positions: Option<StartPositions>,
    pub engines: Vec<EngineConfig>,
    /// Whether each engine was named on the command line (else it takes its own name).
    pub named: Vec<bool>,
    pub format: Format,
    pub rounds: usize,
    pub games: usize,
    pub concurrency: usize,
    pub book: Option<BookSettings>,
    pub random_plies: usize,
    pub seed: u64,
    pub referee: RefereeSettings,
    pub sprt: Option<(Sprt, String)>,
    pub pgnout: Option<PathBuf>,
    pub json: Option<PathBuf>,
    pub log: Option<PathBuf>,
    /// (I, N), 1-based.
    pub shard: Option<(usize, usize)>,
}

/// What `roger arena` was asked to do.
#[derive(Debug)]
pub enum ArenaCommand {
    Help,
    Run(Box<ArenaSettings>),
    Merge {
        files: Vec<PathBuf>,
        json: Option<PathBuf>,
        pgnout: Option<PathBuf>,
    },
}

/// `I/N` with 1 <= I <= N: the arena's and datagen's `--shard`.
pub fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let parsed = text
        .split_once('/')
        .and_then(|(i, n)| Some((i.parse::<usize>().ok()?, n.parse::<usize>().ok()?)));
    match parsed {
        Some((i, n)) if i >= 1 && i <= n => Ok((i, n)),
        _ => Err(format!(
            "--shard: '{text}' is not I/N with 1 <= I <= N (such as 1/4)"
        )),
    }
}

/// The `key=value` settings of a rule flag (`--draw`, `--resign`): only `allowed` keys, and
/// always `movecount` and `score` (`required` says so when one is missing).
struct RuleSettings<'a> {
    flag: &'static str,
    values: Vec<(&'a str, &'a str)>,
}

impl<'a> RuleSettings<'a> {
    fn read(
        flag: &'static str,
        tokens: &[&'a str],
        allowed: &[&str],
        required: &str,
    ) -> Result<RuleSettings<'a>, String> {
        let values = pairs(flag, tokens)?;
        if let Some((other, _)) = values.iter().find(|(key, _)| !allowed.contains(key)) {
            let expected = allowed.join(", ");
            return Err(format!(
                "{flag}: unknown setting '{other}' (expected {expected})"
            ));
        }
        let given = |key: &str| values.iter().any(|(k, _)| *k == key);
        if !given("movecount") || !given("score") {
            return Err(format!("{flag} needs {required}"));
        }
        Ok(RuleSettings { flag, values })
    }

    fn value(&self, key: &str) -> Option<&'a str> {
        self.values
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| *v)
    }

    fn number<T: std::str::FromStr + Default>(&self, key: &str) -> Result<T, String> {
        match self.value(key) {
            Some(text) => number(&format!("{} {key}", self.flag), text),
            None => Ok(T::default()),
        }
    }
}

fn parse_draw(tokens: &[&str]) -> Result<DrawRule, String> {
    let allowed = ["movenumber", "movecount", "score"];
    let rule = RuleSettings::read("--draw", tokens, &allowed, "movecount=N and score=CP")?;
    Ok(DrawRule {
        move_number: rule.number("movenumber")?,
        move_count: rule.number("movecount")?,
        score: rule.number("score")?,
    })
}

fn parse_resign(tokens: &[&str]) -> Result<ResignRule, String> {
    let allowed = ["movecount", "score", "twosided"];
    let rule = RuleSettings::read("--resign", tokens, &allowed, "movecount=N and score=CP")?;
    let two_sided = match rule.value("twosided") {
        None | Some("false") => false,
        Some("true") => true,
        Some(other) => return Err(format!("--resign twosided: '{other}' is not true or false")),
    };
    Ok(ResignRule {
        move_count: rule.number("movecount")?,
        score: rule.number("score")?,
        two_sided,
    })
}

fn parse_book(tokens: &[&str]) -> Result<BookSettings, String> {
    let mut file = None;
    let mut format = None;
    let mut book = BookSettings {
        file: PathBuf::new(),
        format: BookFormat::Epd,
        order: BookOrder::Sequential,
        start: 1,
        plies: None,
    };
    for (key, value) in pairs("--openings", tokens)? {
        match key {
            "file" => file = Some(PathBuf::from(value)),
            "format" => {
                format = Some(match value {
                    "epd" => BookFormat::Epd,
                    "moves" => BookFormat::Moves,
                    _ => return Err(format!("--openings format: '{value}' is not epd or moves")),
                })
            }
            "order" => {
                book.order = match value {
                    "sequential" => BookOrder::Sequential,
                    "random" => BookOrder::Random,
                    _ => {
                        return Err(format!(
                            "--openings order: '{value}' is not sequential or random"
                        ))
                    }
                }
            }
            "start" => {
                book.start = number("--openings start", value)?;
                if book.start == 0 {
                    return Err("--openings start: counts from 1".into());
                }
            }
            "plies" => book.plies = Some(number("--openings plies", value)?),
            other => {
                return Err(format!(
                    "--openings: unknown setting '{other}' (expected file, format, order, start, plies)"
                ))
            }
        }
    }
    book.file = file.ok_or("--openings needs file=F")?;
    book.format = match format {
        Some(format) => format,
        None => match book.file.extension().and_then(|e| e.to_str()) {
            Some("epd") | Some("fen") => BookFormat::Epd,
            _ => return Err("--openings needs format=epd or format=moves".into()),
        },
    };
    Ok(book)
}

/// The flags of a run as read, before they are checked together.
struct RunFlags {
    groups: Vec<EngineGroup>,
    each: EngineGroup,
    variant: String,
    format_name: String,
    seeds: usize,
    rounds: usize,
    games: usize,
    concurrency: usize,
    book: Option<BookSettings>,
    random_plies: usize,
    seed: Option<u64>,
    adjudication: Adjudication,
    margin: Duration,
    hang_timeout: Duration,
    ready_timeout: Duration,
    sprt: Option<(Sprt, String)>,
    pgnout: Option<PathBuf>,
    json: Option<PathBuf>,
    log: Option<PathBuf>,
    shard: Option<(usize, usize)>,
    realtime_flags: RealtimeFlags,
    world_flags: WorldFlags,
}

impl Default for RunFlags {
    fn default() -> RunFlags {
        RunFlags {
            groups: Vec::new(),
            each: EngineGroup::default(),
            variant: DEFAULT_GAME.to_string(),
            format_name: "round-robin".to_string(),
            seeds: 1,
            rounds: 1,
            games: 2,
            concurrency: 1,
            book: None,
            random_plies: 0,
            seed: None,
            adjudication: Adjudication::default(),
            margin: Duration::from_millis(50),
            hang_timeout: Duration::from_secs(60),
            ready_timeout: Duration::from_secs(30),
            sprt: None,
            pgnout: None,
            json: None,
            log: None,
            shard: None,
            realtime_flags: RealtimeFlags::default(),
            world_flags: WorldFlags::default(),
        }
    }
}

/// The one value of a flag that takes one.
fn single<'a>(flag: &str, values: &[&'a str]) -> Result<&'a str, String> {
    match values {
        [value] => Ok(value),
        [] => Err(format!("{flag} needs a value")),
        [_, extra, ..] => Err(format!("{flag}: unexpected extra value '{extra}'")),
    }
}

impl RunFlags {
    /// Reads every flag with its values (the tokens up to the next `--`); `None` for `--help`.
    fn read(args: &[&str]) -> Result<Option<RunFlags>, String> {
        let mut flags = RunFlags::default();
        let mut index = 0;
        while index < args.len() {
            let flag = args[index];
            if !flag.starts_with('-') {
                return Err(format!(
                    "unexpected argument '{flag}' (options start with --)"
                ));
            }
            let end = args[index + 1..]
                .iter()
                .position(|token| token.starts_with("--"))
                .map_or(args.len(), |at| index + 1 + at);
            if matches!(flag, "-h" | "--help") {
                return Ok(None);
            }
            flags.take(flag, &args[index + 1..end])?;
            index = end;
        }
        Ok(Some(flags))
    }

    /// Reads one flag and its values.
    fn take(&mut self, flag: &str, values: &[&str]) -> Result<(), String> {
        let one = || single(flag, values);
        match flag {
            "--engine" => self.groups.push(engine_group(flag, values)?),
            "--each" => self.each = engine_group(flag, values)?,
            "--variant" => self.variant = one()?.to_string(),
            "--format" | "--tournament" => self.format_name = one()?.to_string(),
            "--seeds" => self.seeds = number(flag, one()?)?,
            "--rounds" => self.rounds = number(flag, one()?)?,
            "--games" => self.games = number(flag, one()?)?,
            "--concurrency" => self.concurrency = number(flag, one()?)?,
            "--openings" => self.book = Some(parse_book(values)?),
            "--random-plies" => self.random_plies = number(flag, one()?)?,
            "--seed" => self.seed = Some(number(flag, one()?)?),
            "--draw" => self.adjudication.draw = Some(parse_draw(values)?),
            "--resign" => self.adjudication.resign = Some(parse_resign(values)?),
            "--maxplies" => self.adjudication.max_plies = Some(number(flag, one()?)?),
            "--timemargin" => self.margin = Duration::from_millis(number(flag, one()?)?),
            "--hang-timeout" => self.hang_timeout = seconds(flag, one()?)?,
            "--ready-timeout" => self.ready_timeout = seconds(flag, one()?)?,
            "--sprt" => {
                if values.is_empty() {
                    return Err("--sprt needs elo0=E0 elo1=E1 [alpha=A] [beta=B]".into());
                }
                let parsed = Sprt::parse(values).map_err(|e| format!("--sprt: {e}"))?;
                self.sprt = Some((parsed, values.join(" ")));
            }
            "--pgnout" => self.pgnout = Some(PathBuf::from(one()?)),
            "--json" => self.json = Some(PathBuf::from(one()?)),
            "--log" => self.log = Some(PathBuf::from(one()?)),
            "--shard" => self.shard = Some(parse_shard(one()?)?),
            "--wall-clock" => match values {
                [] => {
                    self.realtime_flags.given.push(flag.to_string());
                    self.realtime_flags.wall_clock = Some(true);
                }
                [extra, ..] => return Err(format!("{flag}: unexpected value '{extra}'")),
            },
            "--poll-ms"
            | "--tick-ms"
            | "--delay-ticks"
            | "--no-capture-draw-ticks"
            | "--max-game-ms" => self.realtime_flags.set(flag, number(flag, one()?)?),
            other => {
                if !self.world_flags.take(other, values)? {
                    return Err(format!("unknown option '{other}' (see roger arena --help)"));
                }
            }
        }
        Ok(())
    }

    /// The realtime referee's settings for a realtime game; refuses the flags that are not for
    /// the game's family.
    fn family_settings(&self, family: Family) -> Result<Option<RealtimeSettings>, String> {
        if family != Family::World {
            if let Some(flag) = self.world_flags.given.first() {
                return Err(format!("{flag} is for --variant megachess"));
            }
        }
        let realtime_flag = || self.realtime_flags.given.first();
        if family == Family::Turn {
            return match realtime_flag() {
                Some(flag) => Err(format!("{flag} is for --variant realtime")),
                None => Ok(None),
            };
        }
        let turn_only = [
            ("--openings", self.book.is_some()),
            (
                "--random-plies",
                self.random_plies > 0 && family == Family::World,
            ),
            ("--draw", self.adjudication.draw.is_some()),
            ("--resign", self.adjudication.resign.is_some()),
            ("--maxplies", self.adjudication.max_plies.is_some()),
        ];
        if let Some((flag, _)) = turn_only.iter().find(|(_, given)| *given) {
            let (games, ending) = match family {
                Family::World => ("Megachess worlds", "--turns"),
                _ => ("realtime games", "--max-game-ms"),
            };
            return Err(format!(
                "{flag}: not for {games} (they start from their own setup and end by their \
                 rules or {ending})"
            ));
        }
        if family == Family::World {
            return match realtime_flag() {
                Some(flag) => Err(format!("{flag} is for --variant realtime")),
                None => Ok(None),
            };
        }
        Ok(Some(self.realtime_flags.settings()?))
    }

    /// The tournament's format, and the checks of the counts that go with it.
    fn format(&self) -> Result<Format, String> {
        if self.groups.len() < 2 {
            return Err("a tournament needs at least two --engine".into());
        }
        let format = match self.format_name.as_str() {
            "round-robin" | "roundrobin" | "match" => Format::RoundRobin,
            "gauntlet" => {
                let seeds = self.seeds;
                if seeds == 0 || seeds >= self.groups.len() {
                    return Err(format!(
                        "--seeds: {seeds} is not between 1 and the number of engines less one"
                    ));
                }
                Format::Gauntlet { seeds }
            }
            other => {
                return Err(format!(
                    "--format: '{other}' is not round-robin or gauntlet"
                ))
            }
        };
        if self.rounds == 0 || self.games == 0 {
            return Err("--rounds and --games must be at least 1".into());
        }
        if self.concurrency == 0 {
            return Err("--concurrency must be at least 1".into());
        }
        if self.sprt.is_some() && self.groups.len() != 2 {
            return Err("--sprt needs a match of exactly two engines".into());
        }
        if self.shard.is_some() && self.seed.is_none() {
            return Err(
                "--shard needs --seed, so that every share plays the same tournament".into(),
            );
        }
        Ok(format)
    }
}

/// Reads the arguments after `roger arena`.
pub fn parse_arena_args(args: &[String]) -> Result<ArenaCommand, String> {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    if args.first() == Some(&"merge") {
        return parse_merge(&args[1..]);
    }
    let Some(flags) = RunFlags::read(&args)? else {
        return Ok(ArenaCommand::Help);
    };
    let start_positions = StartPositions::named(&flags.variant);
    let variant = match start_positions {
        Some(_) => "chess".to_string(),
        None => flags.variant.clone(),
    };
    let Some(entry) = crate::rules::registry::find(&variant) else {
        return Err(format!(
            "--variant: unknown game '{variant}' (games: {})",
            names_of(Family::Turn)
                .into_iter()
                .chain(names_of(Family::Realtime))
                .chain(names_of(Family::World))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    };
    let realtime = flags.family_settings(entry.family)?;
    let format = flags.format()?;
    let st_only = (entry.family != Family::Turn).then_some(entry.family);
    let mut engines = Vec::new();
    let mut named = Vec::new();
    for (number, group) in flags.groups.iter().enumerate() {
        let (mut config, was_named) = engine_config(number + 1, group, &flags.each, st_only)?;
        if start_positions.is_some() {
            if config.protocol != super::process::Protocol::Uci {
                return Err(format!(
                    "--variant {}: engine {} speaks xboard; Chess960 is played over UCI here",
                    flags.variant,
                    number + 1
                ));
            }
            let set = |(name, _): &(String, String)| name.eq_ignore_ascii_case(UCI_CHESS960);
            if !config.options.iter().any(set) {
                config
                    .options
                    .push((UCI_CHESS960.to_string(), "true".to_string()));
            }
        }
        engines.push(config);
        named.push(was_named);
    }
    let seed = flags.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    let world = match entry.family {
        Family::World => {
            let encounters = super::schedule::encounters(flags.groups.len(), format).len();
            let worlds = encounters * flags.rounds * flags.games;
            flags.world_flags.settings(seed, worlds)?
        }
        _ => Default::default(),
    };
    Ok(ArenaCommand::Run(Box::new(ArenaSettings {
        referee: RefereeSettings {
            variant: variant.clone(),
            margin: flags.margin,
            hang_timeout: flags.hang_timeout,
            ready_timeout: flags.ready_timeout,
            adjudication: flags.adjudication,
            realtime: realtime.unwrap_or_default(),
            world,
            chess960: start_positions.is_some(),
        },
        variant,
        start_positions,
        engines,
        named,
        format,
        rounds: flags.rounds,
        games: flags.games,
        concurrency: flags.concurrency,
        book: flags.book,
        random_plies: flags.random_plies,
        seed,
        sprt: flags.sprt,
        pgnout: flags.pgnout,
        json: flags.json,
        log: flags.log,
        shard: flags.shard,
    })))
}

fn parse_merge(args: &[&str]) -> Result<ArenaCommand, String> {
    let mut files = Vec::new();
    let (mut json, mut pgnout) = (None, None);
    let mut index = 0;
    while index < args.len() {
        let value = || {
            args.get(index + 1)
                .map(PathBuf::from)
                .ok_or_else(|| format!("{} needs a file", args[index]))
        };
        match args[index] {
            "--json" => {
                json = Some(value()?);
                index += 1;
            }
            "--pgnout" => {
                pgnout = Some(value()?);
                index += 1;
            }
            "-h" | "--help" => return Ok(ArenaCommand::Help),
            flag if flag.starts_with('-') => return Err(format!("merge: unknown option '{flag}'")),
            file => files.push(PathBuf::from(file)),
        }
        index += 1;
    }
    if files.is_empty() {
        return Err("merge needs the JSON files of the shares".into());
    }
    Ok(ArenaCommand::Merge {
        files,
        json,
        pgnout,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::process::TimeControl;

    fn parse(line: &str) -> Result<ArenaCommand, String> {
        let args: Vec<String> = line.split_whitespace().map(String::from).collect();
        parse_arena_args(&args)
    }

    fn settings(line: &str) -> ArenaSettings {
        match parse(line) {
            Ok(ArenaCommand::Run(settings)) => *settings,
            other => panic!("{line}: {other:?}"),
        }
    }

    fn error(line: &str) -> String {
        parse(line).expect_err(line)
    }

    #[test]
    fn engines_take_shared_settings_and_override_them() {
        let s = settings(
            "--engine cmd=roger name=a option.Hash=32 --engine cmd=roger arg=play arg=greedy \
             tc=5+0.1 --each tc=1+0.01 option.Hash=8 option.Threads=1 --games 10 --concurrency 2 \
             --seed 7 --maxplies 300 --draw movenumber=30 movecount=8 score=10",
        );
        assert_eq!(s.engines.len(), 2);
        assert_eq!(s.engines[0].name, "a");
        assert_eq!(
            s.engines[0].options,
            vec![
                ("Threads".to_string(), "1".to_string()),
                ("Hash".to_string(), "32".to_string())
            ]
        );
        assert_eq!(s.engines[1].args, vec!["play", "greedy"]);
        assert_eq!(
            s.engines[0].limits.tc,
            Some(TimeControl::parse("1+0.01").unwrap())
        );
        assert_eq!(
            s.engines[1].limits.tc,
            Some(TimeControl::parse("5+0.1").unwrap())
        );
        assert_eq!((s.games, s.concurrency, s.seed), (10, 2, 7));
        assert_eq!(s.referee.adjudication.max_plies, Some(300));
        assert_eq!(s.referee.adjudication.draw.unwrap().move_count, 8);
        assert!(s.named[0] && !s.named[1]);
    }

    #[test]
    fn chess960_plays_chess_from_fischer_random_starts_with_uci_chess960_set() {
        for (name, starts) in [
            ("chess960", StartPositions::Chess960),
            ("fischerandom", StartPositions::Chess960),
            ("dfrc", StartPositions::Dfrc),
        ] {
            let s = settings(&format!(
                "--variant {name} --engine cmd=roger --engine cmd=roger option.UCI_Chess960=true --each nodes=9"
            ));
            assert_eq!(s.variant, "chess");
            assert_eq!(s.start_positions, Some(starts));
            assert!(s.referee.chess960);
            for engine in &s.engines {
                let set: Vec<_> = engine
                    .options
                    .iter()
                    .filter(|(option, _)| option == UCI_CHESS960)
                    .collect();
                assert_eq!(set, [&(UCI_CHESS960.to_string(), "true".to_string())]);
            }
        }
        let plain = settings("--engine cmd=roger --engine cmd=roger --each nodes=9");
        assert_eq!(plain.start_positions, None);
        assert!(!plain.referee.chess960 && plain.engines[0].options.is_empty());
        let xboard = error(
            "--variant chess960 --engine cmd=roger --engine cmd=roger proto=xboard --each tc=1",
        );
        assert!(xboard.contains("engine 2 speaks xboard"), "{xboard}");
    }

    #[test]
    fn mistakes_are_named() {
        let two = "--engine cmd=roger tc=1 --engine cmd=roger tc=1";
        let cases = [
            (
                "--engine cmd=/no/such/engine tc=1 --engine cmd=roger tc=1",
                "does not exist",
            ),
            ("--engine cmd=roger --engine cmd=roger tc=1", "no limit"),
            (
                "--engine cmd=roger tc=1 option.Hash --engine cmd=roger tc=1",
                "'option.Hash' is not key=value",
            ),
            ("--engine cmd=roger tc=x --engine cmd=roger tc=1", "tc"),
            (
                "--engine cmd=roger tc=1 colour=red --engine cmd=roger tc=1",
                "unknown setting 'colour'",
            ),
            ("--engine cmd=roger tc=1", "at least two"),
            (&format!("{two} --games x"), "--games: 'x'"),
            (&format!("{two} --variant go"), "unknown game 'go'"),
            (&format!("{two} --shard 3/2"), "--shard"),
            (&format!("{two} --shard 1/2"), "needs --seed"),
            (
                &format!("{two} --frobnicate"),
                "unknown option '--frobnicate'",
            ),
            (&format!("{two} --draw score=3"), "movecount"),
        ];
        for (line, message) in cases {
            let error = error(line);
            assert!(error.contains(message), "{line}: {error}");
        }
    }

    #[test]
    fn rule_flags() {
        let resign = parse_resign(&["movecount=3", "score=600", "twosided=true"]);
        let expected = ResignRule {
            move_count: 3,
            score: 600,
            two_sided: true,
        };
        assert_eq!(resign, Ok(expected));
        let error = parse_resign(&["movecount=3", "score=6", "twosided=maybe"]).unwrap_err();
        assert!(error.contains("not true or false"), "{error}");
        let error = parse_draw(&["movecount=3", "score=6", "colour=red"]).unwrap_err();
        assert!(error.contains("unknown setting 'colour'"), "{error}");
        let error = parse_draw(&["movecount=3", "score=six"]).unwrap_err();
        assert!(error.contains("--draw score: 'six'"), "{error}");
        let draw = parse_draw(&["movenumber=30", "movecount=8", "score=10"]).unwrap();
        assert_eq!((draw.move_number, draw.move_count, draw.score), (30, 8, 10));
    }

    #[test]
    fn merge_and_help() {
        assert!(matches!(parse("--help"), Ok(ArenaCommand::Help)));
        match parse("merge a.json b.json --json all.json") {
            Ok(ArenaCommand::Merge {
                files,
                json,
                pgnout,
            }) => {
                assert_eq!(files.len(), 2);
                assert_eq!(json, Some(PathBuf::from("all.json")));
                assert_eq!(pgnout, None);
            }
            other => panic!("{other:?}"),
        }
        assert!(parse("merge").is_err());
    }
}
