//! Plain HTTP on the world server's port: the request head read within bounds, the reads
//! answered through the turn loop (status, scoreboard) or drawn off it from the world it last
//! published (region, picture), and `GET /ws` handed to the WebSocket side.

use super::{ws, Shared};
use crate::net::limits::{RateLimit, Verdict};
use crate::net::wire::{answer, read_head, Head, HeadError};
use crate::rules::megachess::{Coord, Rect};
use crate::world::hub::{ReadAnswer, ReadQuery, Request};
use crate::world::view::ViewQuery;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio::time::timeout;

/// How long a client may take to send its request head, and the turn loop to answer a read.
const HEAD_TIME: Duration = Duration::from_secs(10);
const READ_TIME: Duration = Duration::from_secs(10);
/// Client addresses whose read rate is remembered; past this the memory starts again.
const MAX_READ_CLIENTS: usize = 10_000;

/// Serves one TCP connection: one HTTP answer, or a WebSocket session.
pub(super) async fn serve(mut stream: TcpStream, peer: SocketAddr, shared: Shared) {
    let limit = shared.limits.max_message_bytes.max(1024);
    let (head, rest) = match timeout(HEAD_TIME, read_head(&mut stream, limit)).await {
        Err(_) | Ok(Err(HeadError::Closed)) => return,
        Ok(Err(HeadError::TooLarge)) => {
            return refuse(&mut stream, 431, "request head too large").await;
        }
        Ok(Ok(read)) => read,
    };
    let Some(head) = Head::parse(&head) else {
        return refuse(&mut stream, 400, "not an HTTP/1.x request").await;
    };
    if head.method != "GET" {
        return refuse(&mut stream, 405, "only GET is served").await;
    }
    let query = match head.path.as_str() {
        "/ws" => return ws::serve(stream, rest, &head, peer, shared).await,
        "/" => return answer(&mut stream, 200, "text/plain; charset=utf-8", INDEX).await,
        "/status" => Ok(Read::Loop(ReadQuery::Status)),
        "/scoreboard" => Ok(Read::Loop(ReadQuery::Scoreboard)),
        "/region" => rect(&head.query, false).map(|rect| Read::View(ViewQuery::Region(rect))),
        "/svg" => rect(&head.query, true).map(|rect| Read::View(ViewQuery::Svg(rect))),
        path => {
            let reason = format!("no such path {path} (see GET /)");
            return refuse(&mut stream, 404, &reason).await;
        }
    };
    let query = match query {
        Ok(query) => query,
        Err(reason) => return refuse(&mut stream, 400, &reason).await,
    };
    if !read_allowed(&shared, peer) {
        return refuse(&mut stream, 429, "too many reads").await;
    }
    match read(query, &shared).await {
        Ok(ReadAnswer::Json(body)) => answer(&mut stream, 200, "application/json", &body).await,
        Ok(ReadAnswer::Svg(body)) => answer(&mut stream, 200, "image/svg+xml", &body).await,
        Ok(ReadAnswer::Refused { status, reason }) => refuse(&mut stream, status, &reason).await,
        Err(reason) => refuse(&mut stream, 503, reason).await,
    }
}

/// An error answer: the status and `{"error": reason}`.
async fn refuse(stream: &mut TcpStream, status: u16, reason: &str) {
    answer(stream, status, "application/json", &error_body(reason)).await
}

/// Whether `peer` may read now. Reads cost the turn loop time: each address gets the
/// connections' message rate.
fn read_allowed(shared: &Shared, peer: SocketAddr) -> bool {
    let mut limits = shared
        .read_limits
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if limits.len() > MAX_READ_CLIENTS {
        limits.clear();
    }
    let now = std::time::Instant::now();
    let rate = &shared.limits;
    limits
        .entry(peer.ip())
        .or_insert_with(|| RateLimit::new(rate.messages_per_second, rate.burst, now))
        .check(now)
        == Verdict::Take
}

/// Answers a read, with only so many reads waiting on the loop or drawing at once; the error
/// is why there is no answer (a 503).
async fn read(query: Read, shared: &Shared) -> Result<ReadAnswer, &'static str> {
    let Ok(permit) = shared.reads_in_flight.clone().try_acquire_owned() else {
        return Err("too many reads at once");
    };
    let answered = match query {
        Read::Loop(query) => {
            let (reply, answered) = oneshot::channel();
            if shared
                .requests
                .send(Request::Read { query, reply })
                .is_err()
            {
                return Err("the world is stopping");
            }
            let answered = timeout(READ_TIME, answered).await;
            drop(permit);
            answered.ok().and_then(Result::ok)
        }
        Read::View(query) => {
            let Some(view) = shared.published.latest() else {
                return Err("the world is not open yet");
            };
            // Drawn on a thread of its own; the permit goes when the drawing ends, even after
            // the client stopped waiting.
            let drawn = tokio::task::spawn_blocking(move || {
                let answer = view.read(&query);
                drop(permit);
                answer
            });
            timeout(READ_TIME, drawn).await.ok().and_then(Result::ok)
        }
    };
    answered.ok_or("the world did not answer in time")
}

/// A read of the loop's own state, or of the world the loop last published.
enum Read {
    Loop(ReadQuery),
    View(ViewQuery),
}

const INDEX: &str = "Roger's Megachess world server\n\
GET /ws          the WebSocket API (JSON messages; see docs/world-server.md)\n\
GET /status      the server in numbers\n\
GET /scoreboard  every player's score\n\
GET /region?x0=&y0=&x1=&y1=   the pieces of a rectangle, as the last completed turn left them\n\
GET /svg[?x0=&y0=&x1=&y1=]    a picture of a rectangle (default: the whole world), likewise\n";

/// The rectangle of a query: all of `x0 y0 x1 y1`, or none of them where `optional` (then the
/// whole board, which the picture cuts to size).
fn rect(query: &HashMap<String, String>, optional: bool) -> Result<Rect, String> {
    let names = ["x0", "y0", "x1", "y1"];
    if optional && names.iter().all(|name| !query.contains_key(*name)) {
        return Ok(Rect {
            min: Coord::new(0, 0),
            max: Coord::new(u32::MAX, u32::MAX),
        });
    }
    let mut values = [0u32; 4];
    for (value, name) in values.iter_mut().zip(names) {
        let text = query
            .get(name)
            .ok_or_else(|| format!("{name} is missing: give x0, y0, x1 and y1"))?;
        *value = text
            .parse()
            .map_err(|_| format!("{name}={text} is not a square coordinate"))?;
    }
    Ok(Rect {
        min: Coord::new(values[0], values[1]),
        max: Coord::new(values[2], values[3]),
    })
}

fn error_body(reason: &str) -> String {
    serde_json::json!({ "error": reason }).to_string()
}
