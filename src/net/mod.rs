//! The network plumbing that the world server and the page server (`roger serve`) share, with
//! nothing of either: bare HTTP/1.1 on a TCP stream and the WebSocket upgrade (`wire.rs`), and
//! what one connection may do, a token bucket and a log of offenders (`limits.rs`).

pub mod limits;
pub mod wire;
