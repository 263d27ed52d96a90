//! The house bots: engine processes the server starts itself and keeps playing as players, each
//! answered within the turn, restarted when it crashes, and replaced by a new player when its
//! king falls, so a world is never empty. Each plays through [`super::bridge`] over an
//! in-process link (the turn loop's request channel and an outbox), like any connection.

use super::config::HouseConfig;
use super::hub::Requests;

/// The running house bots.
pub struct HouseBots {}

impl HouseBots {
    /// Starts `config.bots` house bots playing through `requests`. `tokens` are the tokens of
    /// house players of a resumed world whose kings still stand: bot `i` comes back as
    /// `tokens[i]` where there is one, and joins as a new player (team `auto`, name `house-N`)
    /// otherwise.
    pub fn start(
        config: &HouseConfig,
        requests: Requests,
        tokens: Vec<String>,
    ) -> Result<HouseBots, String> {
        let _ = (config, requests, tokens);
        todo!("house bots")
    }
    /// Stops every bot and its engine.
    pub fn stop(self) {
        todo!("house bots")
    }
}
