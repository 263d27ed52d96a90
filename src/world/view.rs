//! The world as the last completed turn left it, published by the turn loop once a turn and read
//! by the network side off the loop (HTTP `/region` and `/svg`), so that a picture of a large
//! world never holds up the turns. What is published is the snapshot the turn's commit wrote,
//! shared, not copied again. Also the pieces and the picture of a rectangle of any world, which
//! the loop's own `region` message uses on the live world.

use crate::rules::megachess::picture::{world_svg, PlayerLabels};
use crate::rules::megachess::{Coord, Kind, MegachessParams, Rect, World, WorldSnapshot};
use crate::world::api::{RegionOwner, RegionPiece, RegionReport};
use crate::world::hub::ReadAnswer;
use std::collections::BTreeSet;
use std::sync::{Arc, OnceLock, RwLock};

/// A read the published view answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ViewQuery {
    /// The pieces of a rectangle as JSON ([`RegionReport`]).
    Region(Rect),
    /// An SVG picture of a rectangle (one reaching past the board is cut to it).
    Svg(Rect),
}

/// The world after one turn, with what its reads need.
pub struct TurnView {
    snapshot: Arc<WorldSnapshot>,
    /// Every player's name, for the picture's labels.
    labels: PlayerLabels,
    /// Pieces one region answer lists at most.
    max_region_pieces: usize,
    /// The world itself, built from the snapshot by the first read that needs it.
    world: OnceLock<Result<World, String>>,
}

impl TurnView {
    pub fn new(
        snapshot: Arc<WorldSnapshot>,
        labels: PlayerLabels,
        max_region_pieces: usize,
    ) -> Self {
        TurnView {
            snapshot,
            labels,
            max_region_pieces,
            world: OnceLock::new(),
        }
    }

    /// The turn the world stands at (begun, nobody moved in it yet).
    pub fn turn(&self) -> u64 {
        self.snapshot.turn
    }

    fn world(&self) -> Result<&World, String> {
        self.world
            .get_or_init(|| World::from_snapshot(&self.snapshot))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Answers a read (on the caller's thread: the network side's, never the loop's).
    pub fn read(&self, query: &ViewQuery) -> ReadAnswer {
        let refused = |reason| ReadAnswer::Refused {
            status: 400,
            reason,
        };
        let failed = |reason| ReadAnswer::Refused {
            status: 500,
            reason,
        };
        match query {
            ViewQuery::Region(rect) => {
                let world = match self.world() {
                    Ok(world) => world,
                    Err(reason) => return failed(reason),
                };
                match region(world, *rect, self.max_region_pieces) {
                    Ok(report) => ReadAnswer::Json(
                        serde_json::to_string(&report).expect("reads always serialise"),
                    ),
                    Err(reason) => refused(reason),
                }
            }
            ViewQuery::Svg(rect) => match picture_rect(&self.snapshot.params, *rect) {
                Ok(rect) => match picture(&self.snapshot, rect, &self.labels) {
                    Ok(svg) => ReadAnswer::Svg(svg),
                    Err(reason) => failed(reason),
                },
                Err(reason) => refused(reason),
            },
        }
    }
}

/// Where the loop publishes its [`TurnView`] and the network side reads it. Empty until the
/// world is open.
#[derive(Clone, Default)]
pub struct Published(Arc<RwLock<Option<Arc<TurnView>>>>);

impl Published {
    /// Replaces the view (a pointer's swap under the lock: readers hold their own `Arc`).
    pub fn publish(&self, view: TurnView) {
        let view = Some(Arc::new(view));
        *self
            .0
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = view;
    }

    /// The latest view, if the world is open.
    pub fn latest(&self) -> Option<Arc<TurnView>> {
        self.0
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }
}

/// `rect` if it is on a board of `params` and the right way round.
pub fn checked_rect(params: &MegachessParams, rect: Rect) -> Result<Rect, String> {
    let (x0, y0, x1, y1) = (rect.min.x, rect.min.y, rect.max.x, rect.max.y);
    let (width, height) = (params.width, params.height);
    if x0 > x1 || y0 > y1 {
        return Err(format!("{x0},{y0}..{x1},{y1} is upside down"));
    }
    if x1 >= width || y1 >= height {
        return Err(format!(
            "{x0},{y0}..{x1},{y1} is off the {width} x {height} board"
        ));
    }
    Ok(rect)
}

/// A picture's rectangle: one reaching past the board means "as far as the board goes".
fn picture_rect(params: &MegachessParams, rect: Rect) -> Result<Rect, String> {
    let max = Coord::new(
        rect.max.x.min(params.width - 1),
        rect.max.y.min(params.height - 1),
    );
    checked_rect(params, Rect { min: rect.min, max })
}

/// The pieces of a rectangle of `world`, at most `limit` of them.
pub fn region(world: &World, rect: Rect, limit: usize) -> Result<RegionReport, String> {
    let rect = checked_rect(world.params(), rect)?;
    let mut inside = world.pieces_in(rect).into_iter();
    let pieces: Vec<RegionPiece> = inside
        .by_ref()
        .take(limit)
        .map(|piece| RegionPiece {
            id: piece.id.0,
            owner: piece.owner,
            kind: piece.kind.letter().to_string(),
            x: piece.at.x,
            y: piece.at.y,
            token: world.piece_token(piece),
        })
        .collect();
    let truncated = inside.next().is_some();
    let owners: BTreeSet<_> = pieces.iter().map(|piece| piece.owner).collect();
    let players = owners
        .into_iter()
        .filter_map(|id| {
            let player = world.player(id)?;
            Some(RegionOwner {
                id,
                team: player.team.name().to_string(),
            })
        })
        .collect();
    Ok(RegionReport {
        turn: world.turn(),
        x0: rect.min.x,
        y0: rect.min.y,
        x1: rect.max.x,
        y1: rect.max.y,
        players,
        pieces,
        truncated,
    })
}

/// The SVG picture of the pieces of `rect` (checked) of a world (kings outside it unknown).
fn picture(snapshot: &WorldSnapshot, rect: Rect, labels: &PlayerLabels) -> Result<String, String> {
    let mut cut = WorldSnapshot {
        pieces: snapshot
            .pieces
            .iter()
            .filter(|piece| rect.contains(piece.at))
            .cloned()
            .collect(),
        players: snapshot.players.clone(),
        moved_this_turn: Vec::new(),
        ..*snapshot
    };
    for player in &mut cut.players {
        let inside = |id| {
            cut.pieces
                .iter()
                .any(|piece| piece.id == id && piece.kind == Kind::King)
        };
        if player.king.is_some_and(|king| !inside(king)) {
            player.king = None;
        }
    }
    let world = World::from_snapshot(&cut)?;
    let title = format!("Megachess world, turn {}", snapshot.turn);
    Ok(world_svg(&world, &title, labels))
}
