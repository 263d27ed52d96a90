//! Plays a world server's player with an engine process that speaks the Megachess protocol: the
//! server's messages become `position megachess ...` and `go movetime`, the engine's `bestturn`
//! becomes a `turn` message. The link to the server is a trait, so `roger bot` (WebSocket) and
//! the house bots (in process) share this code.
