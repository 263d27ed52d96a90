//! The command lines of `roger world` and `roger bot`, with their help texts, and their
//! translation into [`WorldConfig`] and [`BotConfig`].

use super::bot::{self, BotConfig};
use super::config::{HouseConfig, NetLimits, WorldConfig};
use super::placement::Placement;
use super::store::StorePlace;
use crate::plan::megachess::SKILL_LEVEL;
use crate::rules::megachess::MegachessParams;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// `roger world`: run a persistent Megachess world.
#[derive(Args, Clone, Debug)]
pub struct WorldArgs {
    /// Where the world is stored: an SQLite file, or a PostgreSQL database as a URL
    /// (postgres://user:password@host:port/database). Without --resume it must hold no world yet.
    #[arg(long, default_value = "megachess-world.sqlite")]
    pub db: String,
    /// Continue the world stored in --db.
    #[arg(long)]
    pub resume: bool,
    /// Where to listen for players, spectators and HTTP reads (host:port; port 0 picks one).
    #[arg(long, default_value = "127.0.0.1:8640")]
    pub listen: String,
    /// Simulated turns: the next turn starts as soon as every connected player of the team to
    /// move has answered or timed out.
    #[arg(long)]
    pub simulate: bool,
    /// Seed of bonus pieces and army placement.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Stop after this many turns in all (a resumed world counts its earlier turns).
    #[arg(long)]
    pub turns: Option<u64>,
    /// Do not start the first turn of this run before this many players are connected.
    #[arg(long, default_value_t = 0)]
    pub wait_players: usize,
    /// The board's width and height (the `width` and `height` parameters).
    #[arg(long, num_args = 2, value_names = ["W", "H"])]
    pub size: Option<Vec<u32>>,
    /// Milliseconds a team's turn lasts (the `turn_ms` parameter).
    #[arg(long)]
    pub turn_ms: Option<u64>,
    /// Any rules parameter, NAME=VALUE (repeatable): kingdom_radius=16, bonus_every=4, ...
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// A file of parameters, one `NAME = VALUE` a line (`#` starts a comment); flags win.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// The margin of each player's window around its army.
    #[arg(long, default_value_t = 16)]
    pub window: u32,
    /// Where new armies go: random (a seeded spot of the team's half) or edge (side by side
    /// along the team's edge).
    #[arg(long, default_value = "random", value_parser = Placement::parse)]
    pub placement: Placement,
    /// House bots the server keeps playing.
    #[arg(long, default_value_t = 0)]
    pub house_bots: usize,
    /// The house bots' engine command and arguments (default: this roger binary).
    #[arg(long)]
    pub house_engine: Option<String>,
    /// An option for the house engine, NAME=VALUE (repeatable).
    #[arg(long = "house-option", value_name = "NAME=VALUE")]
    pub house_options: Vec<String>,
    /// The house bots' skill level, 0 to 20 (Roger's `Skill Level` option; sent only when
    /// given, so another engine is not told an option it may not have).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=20))]
    pub house_skill: Option<u32>,
    /// House bots think at most this many milliseconds a turn.
    #[arg(long, default_value_t = 1000)]
    pub house_movetime: u64,
    /// Append the turn log to this file as JSON lines.
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// Write an SVG picture of the world every K turns (0: never).
    #[arg(long, default_value_t = 0, value_name = "K")]
    pub svg_every: u64,
    /// The folder of the SVG pictures.
    #[arg(long, default_value = ".")]
    pub svg_dir: PathBuf,
    /// Print the standings every K turns (0: never).
    #[arg(long, default_value_t = 1, value_name = "K")]
    pub standings_every: u64,
    /// The largest message a client may send, in bytes.
    #[arg(long, default_value_t = 64 * 1024)]
    pub max_message: usize,
    /// Messages a connection may send per second on average.
    #[arg(long, default_value_t = 200)]
    pub rate: u32,
    /// Open network connections at most.
    #[arg(long, default_value_t = 1024)]
    pub max_connections: usize,
}

/// Splits `NAME=VALUE`.
fn name_value(text: &str) -> Result<(String, String), String> {
    text.split_once('=')
        .map(|(name, value)| (name.trim().to_string(), value.trim().to_string()))
        .filter(|(name, _)| !name.is_empty())
        .ok_or_else(|| format!("'{text}' is not NAME=VALUE"))
}

/// Sets one rules parameter from text.
fn set_param(params: &mut MegachessParams, name: &str, value: &str) -> Result<(), String> {
    if MegachessParams::parameter(name).is_none() {
        return Err(format!("unknown parameter '{name}'"));
    }
    let number: i64 = value
        .parse()
        .map_err(|_| format!("parameter {name}: '{value}' is not a whole number"))?;
    params.set(name, number)
}

/// Reads a parameter file: `NAME = VALUE` (or `NAME VALUE`) a line, `#` comments.
pub fn read_config(text: &str, params: &mut MegachessParams) -> Result<(), String> {
    for (index, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (name, value) = match line.split_once('=') {
            Some((name, value)) => (name.trim(), value.trim()),
            None => line
                .split_once(char::is_whitespace)
                .map(|(name, value)| (name.trim(), value.trim()))
                .ok_or_else(|| format!("line {}: '{line}' is not NAME = VALUE", index + 1))?,
        };
        set_param(params, name, value).map_err(|error| format!("line {}: {error}", index + 1))?;
    }
    Ok(())
}

impl WorldArgs {
    /// The settings these flags ask for; an error names the flag or line at fault.
    pub fn config(&self) -> Result<WorldConfig, String> {
        let mut params = MegachessParams::default();
        if let Some(path) = &self.config {
            let text = std::fs::read_to_string(path)
                .map_err(|error| format!("--config {}: {error}", path.display()))?;
            read_config(&text, &mut params)
                .map_err(|error| format!("--config {}: {error}", path.display()))?;
        }
        if let Some(size) = &self.size {
            set_param(&mut params, "width", &size[0].to_string())?;
            set_param(&mut params, "height", &size[1].to_string())?;
        }
        if let Some(turn_ms) = self.turn_ms {
            set_param(&mut params, "turn_ms", &turn_ms.to_string())?;
        }
        for text in &self.params {
            let (name, value) = name_value(text).map_err(|error| format!("--param {error}"))?;
            set_param(&mut params, &name, &value).map_err(|error| format!("--param {error}"))?;
        }
        params.validate()?;
        let engine = match &self.house_engine {
            Some(command) => split_command(command)?,
            None => Vec::new(),
        };
        let mut options: Vec<(String, String)> = self
            .house_options
            .iter()
            .map(|text| name_value(text).map_err(|error| format!("--house-option {error}")))
            .collect::<Result<_, _>>()?;
        if let Some(skill) = self.house_skill {
            options.push((SKILL_LEVEL.to_string(), skill.to_string()));
        }
        Ok(WorldConfig {
            params,
            seed: self.seed,
            simulate: self.simulate,
            max_turns: self.turns,
            wait_players: self.wait_players,
            window_margin: self.window,
            placement: self.placement,
            db: StorePlace::parse(&self.db),
            resume: self.resume,
            listen: self.listen.clone(),
            net: NetLimits {
                max_message_bytes: self.max_message,
                messages_per_second: self.rate.max(1),
                burst: self.rate.max(1).saturating_mul(2),
                max_connections: self.max_connections,
                ..NetLimits::default()
            },
            house: HouseConfig {
                bots: self.house_bots,
                engine,
                options,
                movetime: Duration::from_millis(self.house_movetime),
            },
            log: self.log.clone(),
            svg_every: self.svg_every,
            svg_dir: self.svg_dir.clone(),
            standings_every: self.standings_every,
        })
    }
}

/// `roger bot`: play a world server's player with an engine that speaks the Megachess protocol.
#[derive(Args, Clone, Debug)]
pub struct BotArgs {
    /// The world server, ws://host:port.
    #[arg(long)]
    pub server: String,
    /// The player's token (from an earlier join). Without it the bot joins --team and prints
    /// the new token.
    #[arg(long)]
    pub token: Option<String>,
    /// The team to join when no token is given: alabaster, metal or auto.
    #[arg(long, default_value = "auto")]
    pub team: String,
    /// The player's name when it joins.
    #[arg(long)]
    pub name: Option<String>,
    /// Write the token to this file after joining, and read it from there when it exists.
    #[arg(long)]
    pub token_file: Option<PathBuf>,
    /// The engine command and its arguments (default: this roger binary).
    #[arg(long)]
    pub engine: Option<String>,
    /// An option for the engine, NAME=VALUE (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Think at most this many milliseconds a turn (the turn's deadline cuts it further).
    #[arg(long, default_value_t = 1000)]
    pub movetime: u64,
    /// Milliseconds kept back from each deadline for the network.
    #[arg(long, default_value_t = 200)]
    pub margin: u64,
    /// Give up after the server has been unreachable this many seconds in a row.
    #[arg(long, default_value_t = 300)]
    pub give_up: u64,
    /// Stop after this many turns of the player's team (default: play on).
    #[arg(long)]
    pub turns: Option<u64>,
    /// Say less: only errors and the end.
    #[arg(long)]
    pub quiet: bool,
}

impl BotArgs {
    pub fn config(&self) -> Result<BotConfig, String> {
        let team = match self.team.as_str() {
            "alabaster" => super::api::TeamChoice::Alabaster,
            "metal" => super::api::TeamChoice::Metal,
            "auto" => super::api::TeamChoice::Auto,
            other => return Err(format!("--team '{other}': alabaster, metal or auto")),
        };
        let engine = match &self.engine {
            Some(command) => split_command(command)?,
            None => Vec::new(),
        };
        let options = self
            .options
            .iter()
            .map(|text| name_value(text).map_err(|error| format!("--option {error}")))
            .collect::<Result<_, _>>()?;
        Ok(BotConfig {
            server: self.server.clone(),
            token: self.token.clone(),
            team,
            name: self.name.clone(),
            token_file: self.token_file.clone(),
            engine,
            options,
            movetime: Duration::from_millis(self.movetime),
            margin: Duration::from_millis(self.margin),
            give_up: Duration::from_secs(self.give_up),
            turns: self.turns,
            quiet: self.quiet,
        })
    }
}

/// Splits a command line into words: spaces separate, double or single quotes group.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(format!("command '{text}': a quote is not closed"));
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("the engine command is empty".into());
    }
    Ok(words)
}

/// `roger bot`.
pub fn bot_command(args: &BotArgs) -> ExitCode {
    match args.config() {
        Ok(config) => bot::run(config),
        Err(error) => {
            eprintln!("roger bot: {error}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_on_spaces_and_group_quotes() {
        assert_eq!(
            split_command("roger play 'greedy x' --seed \"2\"").unwrap(),
            ["roger", "play", "greedy x", "--seed", "2"]
        );
        assert!(split_command("  ").is_err());
        assert!(split_command("a 'b").is_err());
    }

    #[test]
    fn config_files_set_parameters_and_name_the_line_at_fault() {
        let mut params = MegachessParams::default();
        read_config(
            "# a world\nkingdom_radius = 8\nbonus_every 2\n",
            &mut params,
        )
        .unwrap();
        assert_eq!((params.kingdom_radius, params.bonus_every), (8, 2));
        let error = read_config("width = 10\nqueen_range = 3\n", &mut params).unwrap_err();
        assert!(
            error.contains("line 2") && error.contains("queen_range"),
            "{error}"
        );
        let error = read_config("width = ten\n", &mut params).unwrap_err();
        assert!(error.contains("line 1"), "{error}");
    }
}

/// `roger world-load`: measure a world server under N bot connections on loopback.
#[derive(Args, Clone, Debug)]
pub struct WorldLoadArgs {
    /// Bot connections, each a player with an army of 16.
    #[arg(long, default_value_t = 200)]
    pub players: usize,
    /// Simulated turns to run.
    #[arg(long, default_value_t = 100)]
    pub turns: u64,
    /// The board's width and height.
    #[arg(long, num_args = 2, value_names = ["W", "H"], default_values_t = [4096, 4096])]
    pub size: Vec<u32>,
    /// Moves in each turn a bot sends (random legal moves of different pieces).
    #[arg(long, default_value_t = 3)]
    pub moves: usize,
    /// Seed of the world and of the bots' choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The world server to measure: a roger binary and its arguments before `world`
    /// (default: this binary), so that builds compare under the same generator.
    #[arg(long)]
    pub server: Option<String>,
    /// The server's --window.
    #[arg(long, default_value_t = 16)]
    pub window: u32,
    /// The server's --turn-ms: how long a turn waits for a slow bot.
    #[arg(long, default_value_t = 10_000)]
    pub turn_ms: u64,
    /// Connections opened at once while joining.
    #[arg(long, default_value_t = 64)]
    pub connect_at_once: usize,
    /// Run the bots this much below the server's priority (they stand for players on other
    /// machines; 0: compete for the cores as equals).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(i32).range(0..=19))]
    pub nice: i32,
    /// Store the world in PostgreSQL: a database of its own is made on this server
    /// (postgres://USER:PASSWORD@HOST:PORT/DB, a user that may create databases) and dropped
    /// afterwards. Without it, the world is an SQLite file in a scratch folder.
    #[arg(long, value_name = "URL")]
    pub postgres: Option<String>,
}

impl WorldLoadArgs {
    pub fn config(&self) -> Result<super::load::LoadConfig, String> {
        let server = match &self.server {
            Some(command) => split_command(command)?,
            None => vec![std::env::current_exe()
                .map_err(|error| format!("cannot find this program: {error}"))?
                .display()
                .to_string()],
        };
        if self.players == 0 || self.turns == 0 {
            return Err("--players and --turns must be at least 1".into());
        }
        Ok(super::load::LoadConfig {
            players: self.players,
            turns: self.turns,
            width: self.size[0],
            height: self.size[1],
            moves: self.moves,
            seed: self.seed,
            server,
            window: self.window,
            turn_ms: self.turn_ms,
            connect_at_once: self.connect_at_once,
            nice: self.nice,
            postgres: match self.postgres.as_deref().map(StorePlace::parse) {
                None => None,
                Some(StorePlace::Postgres(url)) => Some(url),
                Some(StorePlace::File(_)) => {
                    return Err("--postgres takes a postgres:// URL".into());
                }
            },
        })
    }
}

/// `roger world-load`.
pub fn world_load_command(args: &WorldLoadArgs) -> ExitCode {
    match args.config() {
        Ok(config) => super::load::command(&config),
        Err(error) => {
            eprintln!("roger world-load: {error}");
            ExitCode::from(2)
        }
    }
}
