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
            return answer(
                &mut stream,
                431,
                "application/json",
                &error_body("request head too large"),
            )
            .await
        }
        Ok(Ok(read)) => read,
    };
    let Some(head) = Head::parse(&head) else {
        return answer(
            &mut stream,
            400,
            "application/json",
            &error_body("not an HTTP/1.x request"),
        )
        .await;
    };
    if head.method != "GET" {
        return answer(
            &mut stream,
            405,
            "application/json",
            &error_body("only GET is served"),
        )
        .await;
    }
    let query = match head.path.as_str() {
        "/ws" => return ws::serve(stream, rest, &head, peer, shared).await,
        "/" => return answer(&mut stream, 200, "text/plain; charset=utf-8", INDEX).await,
        "/status" => Ok(Read::Loop(ReadQuery::Status)),
        "/scoreboard" => Ok(Read::Loop(ReadQuery::Scoreboard)),
        "/region" => rect(&head.query, false).map(|rect| Read::View(ViewQuery::Region(rect))),
        "/svg" => rect(&head.query, true).map(|rect| Read::View(ViewQuery::Svg(rect))),
        path => {
            let body = error_body(&format!("no such path {path} (see GET /)"));
            return answer(&mut stream, 404, "application/json", &body).await;
        }
    };
    let query = match query {
        Ok(query) => query,
        Err(reason) => {
            return answer(&mut stream, 400, "application/json", &error_body(&reason)).await
        }
    };
    // Reads cost the turn loop time: each address gets the connections' message rate, and only
    // so many reads wait on the loop at once.
    let allowed = {
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
    };
    if !allowed {
        let body = error_body("too many reads");
        return answer(&mut stream, 429, "application/json", &body).await;
    }
    let Ok(permit) = shared.reads_in_flight.clone().try_acquire_owned() else {
        let body = error_body("too many reads at once");
        return answer(&mut stream, 503, "application/json", &body).await;
    };
    let answered = match query {
        Read::Loop(query) => {
            let (reply, answered) = oneshot::channel();
            if shared
                .requests
                .send(Request::Read { query, reply })
                .is_err()
            {
                let body = error_body("the world is stopping");
                return answer(&mut stream, 503, "application/json", &body).await;
            }
            let answered = timeout(READ_TIME, answered).await;
            drop(permit);
            answered.ok().and_then(Result::ok)
        }
        Read::View(query) => {
            let Some(view) = shared.published.latest() else {
                let body = error_body("the world is not open yet");
                return answer(&mut stream, 503, "application/json", &body).await;
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
    match answered {
        Some(ReadAnswer::Json(body)) => answer(&mut stream, 200, "application/json", &body).await,
        Some(ReadAnswer::Svg(body)) => answer(&mut stream, 200, "image/svg+xml", &body).await,
        Some(ReadAnswer::Refused { status, reason }) => {
            answer(
                &mut stream,
                status,
                "application/json",
                &error_body(&reason),
            )
            .await
        }
        None => {
            answer(
                &mut stream,
                503,
                "application/json",
                &error_body("the world did not answer in time"),
            )
            .await
        }
    }
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
