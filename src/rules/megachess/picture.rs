//! A picture of a Megachess world as SVG (`roger arena --svg`, the world server's pages and
//! turn pictures): the board region around the
//! pieces, each piece a disc in its player's colour (alabaster light and warm, metal dark and
//! cool, one shade per player), kings ringed in gold with their kingdom's edge dashed around
//! them, neutral pieces grey, and a legend of the players. The picture's size depends on the
//! region, never on the board's: a 1,000,000-wide board with two armies far apart is drawn at
//! a small scale, not square by square.

use super::{Coord, Kind, Piece, PlayerId, Team, World, NEUTRAL};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The longest side of the board region in pixels.
const REGION_PIXELS: f64 = 960.0;
/// The largest square, in pixels (a small region is not blown up beyond it).
const MAX_CELL: f64 = 28.0;
/// Empty squares shown around the pieces.
const BORDER: u32 = 2;
const LEGEND_LINE: f64 = 18.0;

/// What the legend says of a player beyond its id and team: its engine and seat, say.
pub type PlayerLabels = BTreeMap<PlayerId, String>;

/// The rectangle drawn: every piece plus a border, cut to the board.
fn region(world: &World) -> (Coord, Coord) {
    let params = world.params();
    let mut min = Coord::new(u32::MAX, u32::MAX);
    let mut max = Coord::new(0, 0);
    for piece in world.pieces() {
        min = Coord::new(min.x.min(piece.at.x), min.y.min(piece.at.y));
        max = Coord::new(max.x.max(piece.at.x), max.y.max(piece.at.y));
    }
    if min.x > max.x {
        // No pieces: the board's south-west corner.
        min = Coord::new(0, 0);
        max = Coord::new(
            params.width.clamp(1, 16) - 1,
            params.height.clamp(1, 16) - 1,
        );
    }
    let min = Coord::new(min.x.saturating_sub(BORDER), min.y.saturating_sub(BORDER));
    let max = Coord::new(
        (max.x.saturating_add(BORDER)).min(params.width.saturating_sub(1)),
        (max.y.saturating_add(BORDER)).min(params.height.saturating_sub(1)),
    );
    (min, max)
}

/// `#rrggbb` of a colour given by hue (degrees), saturation and lightness (0..1).
fn hsl(hue: f64, saturation: f64, lightness: f64) -> String {
    let chroma = (1.0 - (2.0 * lightness - 1.0).abs()) * saturation;
    let h = (hue.rem_euclid(360.0)) / 60.0;
    let x = chroma * (1.0 - (h % 2.0 - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (chroma, x, 0.0),
        1 => (x, chroma, 0.0),
        2 => (0.0, chroma, x),
        3 => (0.0, x, chroma),
        4 => (x, 0.0, chroma),
        _ => (chroma, 0.0, x),
    };
    let m = lightness - chroma / 2.0;
    let byte = |v: f64| ((v + m).clamp(0.0, 1.0) * 255.0).round() as u8;
    format!("#{:02x}{:02x}{:02x}", byte(r), byte(g), byte(b))
}

/// Each player's fill and ink.
type Colours = BTreeMap<PlayerId, (String, &'static str)>;

/// Each player's fill and text colours: alabaster players light and warm, metal players dark
/// and cool, the shade stepping by the player's place in its team.
fn colours(world: &World) -> Colours {
    let mut count = [0usize; 2];
    let mut out = BTreeMap::new();
    let mut players: Vec<(PlayerId, Team)> = world.players().map(|p| (p.id, p.team)).collect();
    players.sort_unstable();
    for (id, team) in players {
        let index = match team {
            Team::Alabaster => 0,
            Team::Metal => 1,
        };
        let place = count[index] as f64;
        count[index] += 1;
        // Golden-angle steps keep neighbours in a team apart.
        let step = (place * 137.5) % 90.0;
        let colour = match team {
            Team::Alabaster => (hsl(15.0 + step, 0.75, 0.80), "#3a2a10"),
            Team::Metal => (hsl(185.0 + step, 0.45, 0.32), "#eef4f8"),
        };
        out.insert(id, colour);
    }
    out
}

/// XML text with `&`, `<`, `>` and quotes escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Where the picture's parts lie, in pixels.
struct Layout {
    /// The region's corners on the board.
    min: Coord,
    max: Coord,
    /// One square's side.
    cell: f64,
    board_width: f64,
    board_height: f64,
    margin: f64,
    /// The board's top edge.
    top: f64,
}

impl Layout {
    fn of(world: &World) -> Layout {
        let (min, max) = region(world);
        let columns = f64::from(max.x - min.x) + 1.0;
        let rows = f64::from(max.y - min.y) + 1.0;
        let cell = (REGION_PIXELS / columns.max(rows)).min(MAX_CELL);
        Layout {
            min,
            max,
            cell,
            board_width: columns * cell,
            board_height: rows * cell,
            margin: 10.0,
            top: 34.0,
        }
    }

    /// The centre of square `at`; y grows to the north on the board, to the south in SVG.
    fn centre(&self, at: Coord) -> (f64, f64) {
        let x = self.margin + f64::from(at.x - self.min.x) * self.cell;
        let y = self.top + f64::from(self.max.y - at.y) * self.cell;
        (x + self.cell / 2.0, y + self.cell / 2.0)
    }
}

/// The SVG picture of `world`: `title` above the board, `labels` in the legend.
pub fn world_svg(world: &World, title: &str, labels: &PlayerLabels) -> String {
    let layout = Layout::of(world);
    let Layout {
        margin,
        board_width,
        board_height,
        top,
        cell,
        ..
    } = layout;
    let players = world.players().count();
    let legend_height = LEGEND_LINE * (players as f64 + 1.0);
    let width = (board_width + 2.0 * margin).max(420.0);
    let height = top + board_height + 16.0 + legend_height + margin;
    let colours = colours(world);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" \
         width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.1} {height:.1}\" \
         font-family=\"sans-serif\">"
    );
    let _ = writeln!(svg, "<title>{}</title>", escape(title));
    let _ = writeln!(
        svg,
        "<rect x=\"0\" y=\"0\" width=\"{width:.1}\" height=\"{height:.1}\" fill=\"#ffffff\"/>"
    );
    let _ = writeln!(
        svg,
        "<text x=\"{margin}\" y=\"20\" font-size=\"14\">{}</text>",
        escape(title)
    );
    board_svg(&mut svg, &layout);
    kingdoms_svg(&mut svg, world, &layout, &colours);
    // The pieces.
    let disc = (cell * 0.42).max(1.5);
    let lettered = cell >= 10.0;
    let _ = writeln!(svg, "<g>");
    for piece in world.pieces() {
        piece_svg(
            &mut svg,
            piece,
            layout.centre(piece.at),
            disc,
            lettered,
            &colours,
        );
    }
    let _ = writeln!(svg, "</g>");
    legend_svg(&mut svg, world, &layout, labels, &colours);
    svg.push_str("</svg>\n");
    svg
}

/// The board: light squares, and dark ones by a pattern when the squares are big enough to
/// see (the pattern keeps the file small whatever the region); the region's corners in board
/// coordinates.
fn board_svg(svg: &mut String, layout: &Layout) {
    let Layout {
        min,
        max,
        cell,
        board_width,
        board_height,
        margin,
        top,
    } = *layout;
    let _ = writeln!(
        svg,
        "<rect x=\"{margin}\" y=\"{top}\" width=\"{board_width:.2}\" height=\"{board_height:.2}\" \
         fill=\"#e9e4d8\" stroke=\"#8a8370\"/>"
    );
    if cell >= 4.0 {
        // Square (x, y) is dark when x + y is even; the pattern's origin is a dark square.
        let shift = if (min.x + max.y) % 2 == 0 { 0.0 } else { cell };
        let _ = writeln!(
            svg,
            "<defs><pattern id=\"squares\" patternUnits=\"userSpaceOnUse\" x=\"{:.2}\" \
             y=\"{top}\" width=\"{:.2}\" height=\"{:.2}\"><rect x=\"0\" y=\"0\" \
             width=\"{cell:.2}\" height=\"{cell:.2}\" fill=\"#cfc7b4\"/><rect x=\"{cell:.2}\" \
             y=\"{cell:.2}\" width=\"{cell:.2}\" height=\"{cell:.2}\" fill=\"#cfc7b4\"/>\
             </pattern></defs>",
            margin + shift,
            2.0 * cell,
            2.0 * cell
        );
        let _ = writeln!(
            svg,
            "<rect x=\"{margin}\" y=\"{top}\" width=\"{board_width:.2}\" \
             height=\"{board_height:.2}\" fill=\"url(#squares)\"/>"
        );
    }
    let _ = writeln!(
        svg,
        "<text x=\"{margin}\" y=\"{:.1}\" font-size=\"10\" fill=\"#555555\">{},{}</text>",
        top + board_height + 11.0,
        min.x,
        min.y
    );
    let _ = writeln!(
        svg,
        "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" fill=\"#555555\" \
         text-anchor=\"end\">{},{}</text>",
        margin + board_width,
        top - 3.0,
        max.x,
        max.y
    );
}

/// Kingdoms: the dashed circle of each king's radius, clipped to the board region.
fn kingdoms_svg(svg: &mut String, world: &World, layout: &Layout, colours: &Colours) {
    let radius = f64::from(world.params().kingdom_radius) * layout.cell;
    let _ = writeln!(
        svg,
        "<defs><clipPath id=\"region\"><rect x=\"{}\" y=\"{}\" width=\"{:.2}\" \
         height=\"{:.2}\"/></clipPath></defs>",
        layout.margin, layout.top, layout.board_width, layout.board_height
    );
    let _ = writeln!(svg, "<g clip-path=\"url(#region)\" fill=\"none\">");
    for piece in world.pieces().filter(|p| p.kind == Kind::King) {
        let (cx, cy) = layout.centre(piece.at);
        let stroke = colours
            .get(&piece.owner)
            .map_or("#888888", |(fill, _)| fill.as_str());
        let _ = writeln!(
            svg,
            "<circle cx=\"{cx:.2}\" cy=\"{cy:.2}\" r=\"{radius:.2}\" stroke=\"{stroke}\" \
             stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>"
        );
    }
    let _ = writeln!(svg, "</g>");
}

/// The legend: one line per player, then the neutral pieces and the board.
fn legend_svg(
    svg: &mut String,
    world: &World,
    layout: &Layout,
    labels: &PlayerLabels,
    colours: &Colours,
) {
    let margin = layout.margin;
    let mut y = layout.top + layout.board_height + 16.0 + LEGEND_LINE;
    let mut players: Vec<_> = world.players().map(|p| (p.team, p.id, p)).collect();
    players.sort_unstable_by_key(|(team, id, _)| (*team, *id));
    for (_, id, player) in players {
        let (fill, _) = colours.get(&id).cloned().unwrap_or(("#888888".into(), ""));
        let pieces = world.pieces_of(id).count();
        let king = if world.pieces_of(id).any(|p| p.kind == Kind::King) {
            "king on the board"
        } else {
            "king lost"
        };
        let label = labels
            .get(&id)
            .map(|label| format!(" {label}"))
            .unwrap_or_default();
        let _ = writeln!(
            svg,
            "<rect x=\"{margin}\" y=\"{:.1}\" width=\"12\" height=\"12\" fill=\"{fill}\" \
             stroke=\"#333333\"/>",
            y - 11.0
        );
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"{y:.1}\" font-size=\"12\">{}</text>",
            margin + 18.0,
            escape(&format!(
                "player {id} ({}){label}: score {}, {pieces} pieces, {king}",
                player.team.name(),
                player.score
            ))
        );
        y += LEGEND_LINE;
    }
    let neutral = world.pieces_of(NEUTRAL).count();
    let _ = writeln!(
        svg,
        "<text x=\"{margin}\" y=\"{y:.1}\" font-size=\"12\" fill=\"#555555\">{}</text>",
        escape(&format!(
            "{neutral} neutral pieces; board {} x {}, turn {}",
            world.params().width,
            world.params().height,
            world.turn()
        ))
    );
}

/// One piece: a disc (grey and dashed for a neutral piece, a gold ring for a king) with its
/// letter when the squares are big enough.
fn piece_svg(
    svg: &mut String,
    piece: &Piece,
    (cx, cy): (f64, f64),
    disc: f64,
    lettered: bool,
    colours: &Colours,
) {
    let (fill, ink) = match colours.get(&piece.owner) {
        Some((fill, ink)) if piece.owner != NEUTRAL => (fill.as_str(), *ink),
        _ => ("#b0b0b0", "#202020"),
    };
    let stroke = match (piece.owner, piece.kind) {
        (NEUTRAL, _) => "stroke=\"#505050\" stroke-width=\"1\" stroke-dasharray=\"2 2\"",
        (_, Kind::King) => "stroke=\"#d4a017\" stroke-width=\"3\"",
        _ => "stroke=\"#333333\" stroke-width=\"0.8\"",
    };
    let _ = writeln!(
        svg,
        "<circle cx=\"{cx:.2}\" cy=\"{cy:.2}\" r=\"{disc:.2}\" fill=\"{fill}\" {stroke}/>"
    );
    if lettered {
        let _ = writeln!(
            svg,
            "<text x=\"{cx:.2}\" y=\"{:.2}\" font-size=\"{:.1}\" text-anchor=\"middle\" \
             fill=\"{ink}\" font-weight=\"bold\">{}</text>",
            cy + disc * 0.45,
            disc * 1.25,
            piece.kind.letter()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::megachess::{Facing, MegachessParams};

    #[test]
    fn colours_are_hex() {
        assert_eq!(hsl(0.0, 1.0, 0.5), "#ff0000");
        assert_eq!(hsl(120.0, 1.0, 0.5), "#00ff00");
        assert_eq!(hsl(240.0, 1.0, 0.5), "#0000ff");
        assert_eq!(hsl(0.0, 0.0, 1.0), "#ffffff");
    }

    /// Two armies far apart on a board of 1,000,000 x 1,000,000, and a neutral piece.
    fn far_apart() -> World {
        let params = MegachessParams {
            width: 1_000_000,
            height: 1_000_000,
            ..MegachessParams::default()
        };
        let mut world = World::new(params, 1);
        world.add_player(1, Team::Alabaster).unwrap();
        world.add_player(2, Team::Metal).unwrap();
        world
            .spawn_army(1, Coord::new(10, 10), Facing::North)
            .unwrap();
        world
            .spawn_army(2, Coord::new(900_000, 700_000), Facing::South)
            .unwrap();
        world
            .place(
                NEUTRAL,
                Kind::Knight,
                Coord::new(500, 500),
                false,
                false,
                None,
            )
            .unwrap();
        world
    }

    #[test]
    fn a_huge_board_is_drawn_at_a_small_scale_in_a_small_file() {
        let world = far_apart();
        let labels = PlayerLabels::from([(1, "seat 1 <roger>".to_string())]);
        let svg = world_svg(&world, "two armies & a knight", &labels);
        assert!(svg.len() < 20_000, "{} bytes", svg.len());
        // One disc per piece and a kingdom per king; no letters or squares at this scale.
        assert_eq!(svg.matches("<circle").count(), 33 + 2);
        assert_eq!(svg.matches("stroke=\"#d4a017\"").count(), 2);
        assert_eq!(
            svg.matches("stroke-dasharray=\"2 2\"").count(),
            1,
            "the neutral one"
        );
        assert!(!svg.contains("pattern"));
        assert!(svg.contains("two armies &amp; a knight"));
        assert!(svg.contains("seat 1 &lt;roger&gt;"));
        assert!(svg.contains("8,8</text>") && svg.contains("900009,700003</text>"));
    }

    #[test]
    fn a_small_region_is_drawn_square_by_square() {
        let mut world = World::new(MegachessParams::default(), 1);
        world.add_player(3, Team::Metal).unwrap();
        world
            .spawn_army(3, Coord::new(0, 0), Facing::North)
            .unwrap();
        let svg = world_svg(&world, "one army", &PlayerLabels::new());
        assert!(svg.contains("fill=\"url(#squares)\""));
        // Sixteen letters, the king's among them.
        assert_eq!(svg.matches("font-weight=\"bold\"").count(), 16);
        assert!(svg.contains(">K</text>"));
        assert!(svg.contains("player 3 (metal): score 0, 16 pieces, king on the board"));
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }
}
