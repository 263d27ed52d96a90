//! The house bots: engine processes the server starts itself and keeps playing as players, each
//! answered within the turn, restarted when it crashes, and replaced by a new player when its
//! king falls, so a world is never empty. Each plays through [`super::bridge`] over an
//! in-process link (the turn loop's request channel and an outbox), like any connection.
