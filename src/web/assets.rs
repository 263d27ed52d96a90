//! The pages and their scripts, built into the binary. `ROGER_WEB_ASSETS=<folder>` serves them
//! from that folder instead (the files of `src/web/assets/`, edited without a rebuild).

/// One file: its name under `/` and its text.
pub struct Asset {
    pub name: &'static str,
    pub text: &'static str,
}

macro_rules! asset {
    ($name:literal) => {
        Asset {
            name: $name,
            text: include_str!(concat!("assets/", $name)),
        }
    };
}

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";

pub const ASSETS: &[Asset] = &[
    asset!("index.html"),
    asset!("style.css"),
    asset!("common.js"),
    asset!("replay.html"),
    asset!("replay.css"),
    asset!("replay.js"),
    asset!("board-grid.js"),
    asset!("pieces.js"),
    asset!("realtime.html"),
    asset!("realtime.js"),
    asset!("play.html"),
    asset!("play.js"),
    asset!("board.js"),
    asset!("move-list.js"),
    asset!("move-entry.js"),
    asset!("sounds.js"),
    asset!("rules.html"),
    asset!("rules.js"),
    asset!("rules.css"),
    asset!("play.css"),
    asset!("world.html"),
    asset!("world.css"),
    asset!("world.js"),
    asset!("world-state.js"),
    asset!("world-view.js"),
    asset!("world-draw.js"),
    asset!("world-net.js"),
    asset!("world-panels.js"),
    asset!("world-input.js"),
];

/// The content type of a file, by its extension.
pub fn kind_of(name: &str) -> &'static str {
    match name.rsplit('.').next() {
        Some("html") => HTML,
        Some("js") => JS,
        Some("css") => CSS,
        _ => "text/plain; charset=utf-8",
    }
}

/// The file served at `path` (`/` is `index.html`): content type and text.
pub fn find(path: &str) -> Option<(&'static str, String)> {
    let name = path.trim_start_matches('/');
    let name = if name.is_empty() { "index.html" } else { name };
    let asset = ASSETS.iter().find(|asset| asset.name == name)?;
    if let Some(folder) = std::env::var_os("ROGER_WEB_ASSETS") {
        if let Ok(text) = std::fs::read_to_string(std::path::Path::new(&folder).join(name)) {
            return Some((kind_of(name), text));
        }
    }
    Some((kind_of(name), asset.text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_asset_has_a_known_kind_and_text() {
        for asset in ASSETS {
            assert!(
                [HTML, JS, CSS].contains(&kind_of(asset.name)),
                "{}",
                asset.name
            );
            assert!(!asset.text.trim().is_empty(), "{} is empty", asset.name);
        }
        assert!(find("/").is_some_and(|(kind, _)| kind == HTML));
        assert!(find("/no-such-file.js").is_none());
        assert!(find("/../Cargo.toml").is_none());
    }
}
