//! The `--engine` and `--each` groups of `roger arena`: their `key=value` tokens read and
//! checked, and merged into one engine's configuration (or a built-in player in process).

use super::process::{EngineConfig, Limits, Protocol, TimeControl};
use crate::players::settings::PlaySettings;
use crate::rules::registry::Family;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// One `--engine` or `--each` group, before merging.
#[derive(Clone, Debug, Default)]
pub(super) struct EngineGroup {
    pub(super) cmd: Option<String>,
    pub(super) name: Option<String>,
    pub(super) args: Option<Vec<String>>,
    pub(super) dir: Option<PathBuf>,
    pub(super) proto: Option<Protocol>,
    pub(super) options: Vec<(String, String)>,
    pub(super) tc: Option<TimeControl>,
    pub(super) st: Option<Duration>,
    pub(super) nodes: Option<u64>,
    pub(super) depth: Option<u32>,
    pub(super) in_process: Option<bool>,
}

pub(super) fn number<T: std::str::FromStr>(flag: &str, text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{flag}: '{text}' is not a valid number"))
}

pub(super) fn seconds(flag: &str, text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v > 0.0 && *v < 1e7)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("{flag}: '{text}' is not a positive number of seconds"))
}

/// `key=value` tokens of a group flag.
pub(super) fn pairs<'a>(flag: &str, tokens: &[&'a str]) -> Result<Vec<(&'a str, &'a str)>, String> {
    if tokens.is_empty() {
        return Err(format!("{flag} needs key=value settings after it"));
    }
    tokens
        .iter()
        .map(|token| {
            token
                .split_once('=')
                .filter(|(key, _)| !key.is_empty())
                .ok_or_else(|| format!("{flag}: '{token}' is not key=value"))
        })
        .collect()
}

pub(super) fn engine_group(flag: &str, tokens: &[&str]) -> Result<EngineGroup, String> {
    let mut group = EngineGroup::default();
    for (key, value) in pairs(flag, tokens)? {
        let setting = format!("{flag} {key}");
        match key {
            "cmd" => group.cmd = Some(value.to_string()),
            "name" => group.name = Some(value.to_string()),
            "arg" => group
                .args
                .get_or_insert_with(Vec::new)
                .push(value.to_string()),
            "args" => group
                .args
                .get_or_insert_with(Vec::new)
                .extend(value.split_whitespace().map(String::from)),
            "dir" => group.dir = Some(PathBuf::from(value)),
            "proto" => {
                group.proto = Some(match value {
                    "uci" => Protocol::Uci,
                    "xboard" => Protocol::Xboard,
                    _ => return Err(format!("{setting}: '{value}' is not uci or xboard")),
                })
            }
            "tc" => {
                group.tc = Some(TimeControl::parse(value).map_err(|e| format!("{setting}: {e}"))?)
            }
            "st" => group.st = Some(seconds(&setting, value)?),
            "nodes" => group.nodes = Some(number(&setting, value)?),
            "depth" => group.depth = Some(number(&setting, value)?),
            "inprocess" => {
                group.in_process = Some(match value {
                    "true" => true,
                    "false" => false,
                    _ => return Err(format!("{setting}: '{value}' is not true or false")),
                })
            }
            _ => match key.strip_prefix("option.") {
                Some(name) if !name.is_empty() => {
                    group.options.push((name.to_string(), value.to_string()))
                }
                _ => {
                    return Err(format!(
                        "{flag}: unknown setting '{key}' (expected cmd, name, arg, args, dir, \
                         proto, option.NAME, tc, st, nodes, depth or inprocess)"
                    ))
                }
            },
        }
    }
    Ok(group)
}

/// Finds a program the way a shell would; `roger` is this very binary.
pub(super) fn resolve_command(cmd: &str) -> Result<PathBuf, String> {
    if cmd == "roger" {
        return std::env::current_exe()
            .map_err(|error| format!("cannot locate the roger binary: {error}"));
    }
    let is_program = |path: &Path| {
        use std::os::unix::fs::PermissionsExt;
        path.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if cmd.contains('/') {
        let path = PathBuf::from(cmd);
        return if is_program(&path) {
            Ok(path)
        } else if path.exists() {
            Err(format!("engine command '{cmd}' is not an executable file"))
        } else {
            Err(format!("engine command '{cmd}' does not exist"))
        };
    }
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join(cmd))
        .find(|path| is_program(path))
        .ok_or_else(|| format!("engine command '{cmd}' is not found on PATH"))
}

pub(super) fn engine_config(
    number: usize,
    group: &EngineGroup,
    each: &EngineGroup,
    st_only: Option<Family>,
) -> Result<(EngineConfig, bool), String> {
    let cmd = group
        .cmd
        .as_ref()
        .or(each.cmd.as_ref())
        .ok_or(format!("engine {number}: every engine needs cmd=PATH"))?;
    let name = group.name.clone().or(each.name.clone());
    let who = match &name {
        Some(name) => format!("engine {number} ('{name}')"),
        None => format!("engine {number} ({cmd})"),
    };
    let command = resolve_command(cmd).map_err(|error| format!("{who}: {error}"))?;
    let mut options = each.options.clone();
    for (name, value) in &group.options {
        options.retain(|(known, _)| !known.eq_ignore_ascii_case(name));
        options.push((name.clone(), value.clone()));
    }
    let limits = Limits {
        tc: group.tc.or(each.tc),
        movetime: group.st.or(each.st),
        nodes: group.nodes.or(each.nodes),
        depth: group.depth.or(each.depth),
    };
    if let Some(family) = st_only {
        // A realtime engine is asked every poll, a Megachess engine every turn of each of its
        // players: st= is the budget of one answer; a Megachess turn may instead be given
        // nodes= moves to judge.
        match family {
            Family::World if limits.tc.is_some() || limits.depth.is_some() => {
                return Err(format!(
                    "{who}: Megachess engines take st= (the thinking time of each player's \
                     turn) or nodes= (moves judged in each turn), and no tc= or depth="
                ));
            }
            Family::World if limits.nodes.is_some() && limits.movetime.is_some() => {
                return Err(format!("{who}: give st= or nodes=, not both"));
            }
            Family::World => {}
            _ if limits.tc.is_some() || limits.nodes.is_some() || limits.depth.is_some() => {
                return Err(format!(
                    "{who}: realtime engines take st= (the budget per decision) and no tc=, \
                     nodes= or depth="
                ));
            }
            _ => {}
        }
    } else if limits.is_empty() {
        return Err(format!(
            "{who} has no limit: give tc=, st=, nodes= or depth= (in --engine or --each)"
        ));
    }
    if limits.tc.is_some() && limits.movetime.is_some() {
        return Err(format!("{who}: give tc= or st=, not both"));
    }
    let protocol = group.proto.or(each.proto).unwrap_or(Protocol::Uci);
    if protocol == Protocol::Xboard && limits.nodes.is_some() {
        return Err(format!("engine '{cmd}': xboard engines take no node limit"));
    }
    let args = group.args.clone().or(each.args.clone()).unwrap_or_default();
    let in_process = match group.in_process.or(each.in_process) {
        Some(true) => {
            Some(in_process_player(cmd, &args, protocol).map_err(|e| format!("{who}: {e}"))?)
        }
        _ => None,
    };
    let default_name = command
        .file_stem()
        .map(|stem| stem.to_string_lossy().to_string())
        .unwrap_or_else(|| cmd.clone());
    Ok((
        EngineConfig {
            name: name.clone().unwrap_or(default_name),
            command,
            args,
            dir: group.dir.clone().or(each.dir.clone()),
            protocol,
            options,
            limits,
            in_process,
        },
        name.is_some(),
    ))
}

/// The built-in player that `cmd=roger args="play <player> [--seed N]"` serves, to run it
/// in-process (`inprocess=true`).
pub(super) fn in_process_player(
    cmd: &str,
    args: &[String],
    protocol: Protocol,
) -> Result<PlaySettings, String> {
    let refuse = || {
        "inprocess=true needs cmd=roger and args=\"play random|greedy [--seed N]\" (UCI)"
            .to_string()
    };
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (player, seed) = match args[..] {
        ["play", player] => (player, 1),
        ["play", player, "--seed", seed] => (player, number("inprocess --seed", seed)?),
        _ => return Err(refuse()),
    };
    if cmd != "roger" || protocol != Protocol::Uci {
        return Err(refuse());
    }
    PlaySettings::from_names(player, seed, None, 0)
}
