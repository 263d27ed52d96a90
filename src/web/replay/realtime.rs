//! A realtime game's replay: the arena's timeline (its orders at their ms) played through the
//! simulator again, with the state at every ms where something happened. The page draws a
//! moment between two frames by letting the moving pieces of the earlier one glide on.

use crate::arena::referee::realtime::{RealtimeRecord, RefereeGame};
use crate::rules::realtime::{Color, Motion, Ms, Unit};
use serde::Serialize;

/// A piece at a frame's ms: standing (`square`, `ready_at` when in its delay) or moving.
#[derive(Clone, Debug, Serialize)]
pub struct ReplayUnit {
    pub letter: char,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub square: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ready_at: Option<Ms>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<Ms>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arrive: Option<Ms>,
}

/// The game after everything that happened at `ms`.
#[derive(Clone, Debug, Serialize)]
pub struct RealtimeFrame {
    pub ms: Ms,
    pub units: Vec<ReplayUnit>,
    /// The events of this ms, as the protocol writes them.
    pub events: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct RealtimeReplay {
    pub tick_ms: u32,
    pub delay_ticks: u32,
    pub end_ms: Ms,
    pub result: String,
    pub frames: Vec<RealtimeFrame>,
}

/// Replays the timeline; an error when an order's fate differs from the record (the file was
/// made under other rules, or edited).
pub fn replay(record: &RealtimeRecord) -> Result<RealtimeReplay, String> {
    let events = record.replay()?;
    let mut moments: Vec<Ms> = events.iter().map(|event| event.ms).collect();
    moments.extend(record.orders.iter().map(|order| order.ms));
    moments.push(0);
    moments.push(record.end_ms);
    moments.sort_unstable();
    moments.dedup();

    let mut game = RefereeGame::new(record.params.into());
    let mut orders = record.orders.iter().peekable();
    let mut frames = Vec::with_capacity(moments.len());
    for ms in moments {
        let seen = game.events.len();
        game.advance_to(ms);
        while let Some(order) = orders.next_if(|order| order.ms == ms) {
            let side = if order.side == "white" {
                Color::White
            } else {
                Color::Black
            };
            // Refused orders were refused in the record too (`replay` checked): nothing moves.
            let _ = game.order_text(side, &order.order, None);
        }
        frames.push(RealtimeFrame {
            ms,
            units: game.state.units().iter().map(unit_view).collect(),
            events: game.events[seen..].iter().map(|e| e.to_string()).collect(),
        });
    }
    Ok(RealtimeReplay {
        tick_ms: record.params.tick_ms,
        delay_ticks: record.params.delay_ticks,
        end_ms: record.end_ms,
        result: record.result.clone(),
        frames,
    })
}

fn unit_view(unit: &Unit) -> ReplayUnit {
    let name = |square: crate::board::Square| square.name(8);
    let mut view = ReplayUnit {
        letter: unit.piece.letter(),
        square: None,
        ready_at: None,
        from: None,
        to: None,
        start: None,
        arrive: None,
    };
    match unit.motion {
        Motion::Standing {
            square, ready_at, ..
        } => {
            view.square = Some(name(square));
            view.ready_at = (ready_at > 0).then_some(ready_at);
        }
        Motion::Moving {
            from,
            to,
            start,
            arrive,
        } => {
            view.from = Some(name(from));
            view.to = Some(name(to));
            view.start = Some(start);
            view.arrive = Some(arrive);
        }
    }
    view
}
