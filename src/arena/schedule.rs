//! The list of games of a tournament: pairings, colours and openings, a pure function of the
//! settings and the seed, so that a shard (`--shard I/N`) is an exact slice of the same list.

use super::openings::{with_random_plies, BookOrder, Opening, StartPositions};
use crate::common::Rng;
use crate::rules::registry::DEFAULT_GAME;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Every engine against every other (two engines: a match).
    RoundRobin,
    /// The first `seeds` engines against each of the others.
    Gauntlet { seeds: usize },
}

/// One game to play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScheduledGame {
    /// Position in the whole tournament's list, from 0.
    pub index: usize,
    pub round: usize,
    /// Games with the same pair number share an opening, with colours swapped.
    pub pair: usize,
    /// The engine in each seat (engine indices); seat 0 moves first.
    pub seats: Vec<usize>,
    pub opening: Opening,
}

/// What the game list depends on.
#[derive(Clone, Debug)]
pub struct ScheduleSettings<'a> {
    pub variant: &'a str,
    pub engines: usize,
    pub format: Format,
    pub rounds: usize,
    /// Games per encounter (pair of engines) per round.
    pub games: usize,
    /// The book; empty for the start position.
    pub book: &'a [Opening],
    pub order: BookOrder,
    /// Index of the first book opening (from 0).
    pub book_start: usize,
    pub random_plies: usize,
    pub seed: u64,
    /// Without a book: Fischer Random start positions drawn from the seed, one an opening.
    pub start_positions: Option<StartPositions>,
}

impl Default for ScheduleSettings<'_> {
    /// One round of a two-game match from the start position.
    fn default() -> Self {
        ScheduleSettings {
            variant: DEFAULT_GAME,
            engines: 2,
            format: Format::RoundRobin,
            rounds: 1,
            games: 2,
            book: &[],
            order: BookOrder::Sequential,
            book_start: 0,
            random_plies: 0,
            seed: 0,
            start_positions: None,
        }
    }
}

/// A well-mixed 64-bit value from two (splitmix64's finaliser).
pub fn mix(seed: u64, salt: u64) -> u64 {
    crate::common::rng::mix(seed ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// The pairs of engines that meet, in order.
pub fn encounters(engines: usize, format: Format) -> Vec<(usize, usize)> {
    match format {
        Format::RoundRobin => (0..engines)
            .flat_map(|a| (a + 1..engines).map(move |b| (a, b)))
            .collect(),
        Format::Gauntlet { seeds } => (0..seeds)
            .flat_map(|a| (seeds..engines).map(move |b| (a, b)))
            .collect(),
    }
}

/// Every game of the tournament, in order: round by round, encounter by encounter, each
/// opening twice with the seats swapped. All encounters of a round play the same openings.
pub fn schedule(settings: &ScheduleSettings) -> Result<Vec<ScheduledGame>, String> {
    let pairs_per_round = settings.games.div_ceil(2);
    let mut permutations: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut opening_cache: HashMap<usize, Opening> = HashMap::new();
    let mut opening_for = |number: usize| -> Result<Opening, String> {
        if let Some(opening) = opening_cache.get(&number) {
            return Ok(opening.clone());
        }
        let base =
            if let (true, Some(starts)) = (settings.book.is_empty(), settings.start_positions) {
                starts.opening(mix(settings.seed, 0x0960_0000 + number as u64))
            } else if settings.book.is_empty() {
                Opening::default()
            } else {
                let len = settings.book.len();
                let slot = (settings.book_start + number) % len;
                let index = match settings.order {
                    BookOrder::Sequential => slot,
                    BookOrder::Random => {
                        // A fresh shuffle of the whole book for each pass through it.
                        let pass = (settings.book_start + number) / len;
                        let permutation = permutations.entry(pass).or_insert_with(|| {
                            let mut rng = Rng::new(mix(settings.seed, 0x0B00_C000 + pass as u64));
                            let mut order: Vec<usize> = (0..len).collect();
                            for i in (1..len).rev() {
                                order.swap(i, rng.index(i + 1));
                            }
                            order
                        });
                        permutation[slot]
                    }
                };
                settings.book[index].clone()
            };
        let opening = if settings.random_plies > 0 {
            let seed = mix(settings.seed, number as u64);
            with_random_plies(settings.variant, &base, settings.random_plies, seed)?
        } else {
            base
        };
        opening_cache.insert(number, opening.clone());
        Ok(opening)
    };
    let encounters = encounters(settings.engines, settings.format);
    let mut games = Vec::new();
    let mut pair = 0;
    for round in 0..settings.rounds {
        for &(a, b) in &encounters {
            for game in 0..settings.games {
                let number = round * pairs_per_round + game / 2;
                let seats = if game % 2 == 0 {
                    vec![a, b]
                } else {
                    vec![b, a]
                };
                games.push(ScheduledGame {
                    index: games.len(),
                    round,
                    pair,
                    seats,
                    opening: opening_for(number)?,
                });
                if game % 2 == 1 || game + 1 == settings.games {
                    pair += 1;
                }
            }
        }
    }
    Ok(games)
}

/// The games of share `index` (1-based) of `count`: whole pairs, in order, as equal as can be.
pub fn shard(games: &[ScheduledGame], index: usize, count: usize) -> Vec<ScheduledGame> {
    let pairs = games.last().map_or(0, |game| game.pair + 1);
    let first = (index - 1) * pairs / count;
    let end = index * pairs / count;
    games
        .iter()
        .filter(|game| (first..end).contains(&game.pair))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(engines: usize, format: Format, games: usize) -> ScheduleSettings<'static> {
        ScheduleSettings {
            engines,
            format,
            rounds: 2,
            games,
            random_plies: 4,
            seed: 9,
            ..ScheduleSettings::default()
        }
    }

    #[test]
    fn a_match_plays_each_opening_twice_with_colours_swapped() {
        let games = schedule(&settings(2, Format::RoundRobin, 4)).unwrap();
        assert_eq!(games.len(), 8);
        for pair in games.chunks(2) {
            assert_eq!(pair[0].pair, pair[1].pair);
            assert_eq!(pair[0].opening, pair[1].opening);
            assert_eq!(pair[0].seats, [pair[1].seats[1], pair[1].seats[0]]);
        }
        assert_ne!(games[0].opening, games[2].opening);
        assert_eq!(
            games,
            schedule(&settings(2, Format::RoundRobin, 4)).unwrap()
        );
    }

    #[test]
    fn round_robin_and_gauntlet_pairings() {
        assert_eq!(
            encounters(3, Format::RoundRobin),
            vec![(0, 1), (0, 2), (1, 2)]
        );
        assert_eq!(
            encounters(4, Format::Gauntlet { seeds: 1 }),
            vec![(0, 1), (0, 2), (0, 3)]
        );
        let games = schedule(&settings(4, Format::Gauntlet { seeds: 1 }, 2)).unwrap();
        assert_eq!(games.len(), 12);
        // Every encounter of a round gets the round's openings.
        assert_eq!(games[0].opening, games[2].opening);
        assert_eq!(games[0].opening, games[4].opening);
        assert_ne!(games[0].opening, games[6].opening);
    }

    #[test]
    fn odd_game_counts_leave_a_single_game_as_its_own_pair() {
        let games = schedule(&settings(2, Format::RoundRobin, 3)).unwrap();
        let pairs: Vec<usize> = games.iter().map(|g| g.pair).collect();
        assert_eq!(pairs, vec![0, 0, 1, 2, 2, 3]);
    }

    #[test]
    fn shards_are_whole_pairs_covering_everything_once() {
        let games = schedule(&settings(3, Format::RoundRobin, 4)).unwrap();
        for count in 1..=5 {
            let mut joined = Vec::new();
            for index in 1..=count {
                let part = shard(&games, index, count);
                if let (Some(first), Some(last)) = (part.first(), part.last()) {
                    assert!(first.index == 0 || games[first.index - 1].pair != first.pair);
                    assert!(
                        last.index + 1 == games.len() || games[last.index + 1].pair != last.pair
                    );
                }
                joined.extend(part);
            }
            assert_eq!(joined, games);
        }
    }
}
