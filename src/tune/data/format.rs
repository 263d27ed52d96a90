//! The bytes of a game-data file (`.rgd`), with no rules in them: a header naming the game, then
//! whole games, each a start position and its plies (a move code and a score). The layout is in
//! docs/data.md; [`super::replay`] turns the codes back into moves.

use std::io::{self, Read, Write};

/// The first bytes of every game-data file.
pub const MAGIC: &[u8; 6] = b"RGDATA";
/// The layout's version, after the magic.
pub const VERSION: u8 = 1;

/// How a game ended, from White's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    BlackWon = 0,
    Draw = 1,
    WhiteWon = 2,
}

impl GameResult {
    /// White's score: 0, 0.5 or 1.
    pub fn white_score(self) -> f32 {
        self as u8 as f32 / 2.0
    }

    pub fn from_white_score(score: f32) -> Option<GameResult> {
        if score == 1.0 {
            Some(GameResult::WhiteWon)
        } else if score == 0.5 {
            Some(GameResult::Draw)
        } else if score == 0.0 {
            Some(GameResult::BlackWon)
        } else {
            None
        }
    }

    fn from_byte(byte: u8) -> Option<GameResult> {
        [GameResult::BlackWon, GameResult::Draw, GameResult::WhiteWon]
            .get(byte as usize)
            .copied()
    }
}

/// One ply of a stored game: the move played from the position and the search's score of that
/// position (centipawns, White's view).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ply {
    /// The move's code ([`super::replay::encode_move`]); [`Ply::NO_MOVE`] only on a game's last
    /// ply, for a position kept without the move played from it.
    pub code: u16,
    /// The score, or [`Ply::NO_SCORE`] for a position that is not to be learnt from (a
    /// duplicate, or a ply that a converted text file did not hold).
    pub score: i16,
}

impl Ply {
    /// No square moves to itself, so code 0 is no move.
    pub const NO_MOVE: u16 = 0;
    pub const NO_SCORE: i16 = i16::MIN;

    /// A search score (centipawns, mates included) as stored: clamped into `i16`, never the
    /// `NO_SCORE` value.
    pub fn stored_score(score: i32) -> i16 {
        score.clamp(-(i16::MAX as i32), i16::MAX as i32) as i16
    }
}

/// A stored game: where it starts (a FEN of its game), its result and its plies.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RawGame {
    pub start: String,
    pub result: GameResult,
    pub plies: Vec<Ply>,
}

/// Why a file could not be read, with the byte offset where it went wrong.
#[derive(Debug)]
pub enum FormatError {
    Io(io::Error),
    /// Not a game-data file (no magic), or a version this build does not read.
    NotGameData(String),
    /// A game whose bytes make no sense, at this offset.
    Corrupt {
        offset: u64,
        what: String,
    },
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FormatError::Io(error) => write!(f, "{error}"),
            FormatError::NotGameData(what) => write!(f, "not a game-data file: {what}"),
            FormatError::Corrupt { offset, what } => write!(f, "at byte {offset}: {what}"),
        }
    }
}

impl From<io::Error> for FormatError {
    fn from(error: io::Error) -> FormatError {
        FormatError::Io(error)
    }
}

/// Writes the file header for `variant`.
pub fn write_header(out: &mut impl Write, variant: &str) -> io::Result<()> {
    out.write_all(MAGIC)?;
    out.write_all(&[VERSION, variant.len() as u8])?;
    out.write_all(variant.as_bytes())
}

/// The bytes of one game: the start FEN's length (one byte) and text, the result, the ply count
/// (`u16`) and the plies (`u16` code, `i16` score), all little-endian.
pub fn game_bytes(game: &RawGame) -> Vec<u8> {
    assert!(
        game.start.len() <= u8::MAX as usize,
        "a FEN of 255 bytes at most"
    );
    assert!(
        game.plies.len() <= u16::MAX as usize,
        "65,535 plies at most"
    );
    let mut bytes = Vec::with_capacity(4 + game.start.len() + 4 * game.plies.len());
    bytes.push(game.start.len() as u8);
    bytes.extend_from_slice(game.start.as_bytes());
    bytes.push(game.result as u8);
    bytes.extend_from_slice(&(game.plies.len() as u16).to_le_bytes());
    for ply in &game.plies {
        bytes.extend_from_slice(&ply.code.to_le_bytes());
        bytes.extend_from_slice(&ply.score.to_le_bytes());
    }
    bytes
}

pub fn write_game(out: &mut impl Write, game: &RawGame) -> io::Result<()> {
    out.write_all(&game_bytes(game))
}

/// True when the bytes begin like a game-data file (so a reader can tell it from text).
pub fn is_game_data(first_bytes: &[u8]) -> bool {
    first_bytes.starts_with(MAGIC)
}

/// Whether the file begins like game data (else it is read as text).
pub fn is_game_data_file(path: &std::path::Path) -> Result<bool, String> {
    let mut head = [0u8; MAGIC.len()];
    let read = std::fs::File::open(path)
        .and_then(|mut file| file.read(&mut head))
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(is_game_data(&head[..read]))
}

/// Reads a game-data file's games one by one. A file cut short inside its last game (datagen
/// stopped while writing) ends at the last whole game; [`GameReader::truncated`] says so.
pub struct GameReader<R: Read> {
    input: R,
    variant: String,
    offset: u64,
    truncated: bool,
}

impl<R: Read> GameReader<R> {
    /// Reads the header.
    pub fn new(mut input: R) -> Result<GameReader<R>, FormatError> {
        let mut head = [0u8; 8];
        input
            .read_exact(&mut head)
            .map_err(|_| FormatError::NotGameData("shorter than its header".into()))?;
        if &head[..6] != MAGIC {
            return Err(FormatError::NotGameData("no RGDATA magic".into()));
        }
        if head[6] != VERSION {
            return Err(FormatError::NotGameData(format!(
                "version {} (this build reads {VERSION})",
                head[6]
            )));
        }
        let mut name = vec![0u8; head[7] as usize];
        input
            .read_exact(&mut name)
            .map_err(|_| FormatError::NotGameData("the game's name is cut short".into()))?;
        let variant = String::from_utf8(name)
            .map_err(|_| FormatError::NotGameData("the game's name is not UTF-8".into()))?;
        let offset = 8 + variant.len() as u64;
        Ok(GameReader {
            input,
            variant,
            offset,
            truncated: false,
        })
    }

    /// The `UCI_Variant` name the file's games are of.
    pub fn variant(&self) -> &str {
        &self.variant
    }

    /// Whether the file ended inside a game.
    pub fn truncated(&self) -> bool {
        self.truncated
    }

    /// Reads as much of `buffer` as there is; how much was read.
    fn fill(&mut self, buffer: &mut [u8]) -> Result<usize, FormatError> {
        let mut done = 0;
        while done < buffer.len() {
            match self.input.read(&mut buffer[done..]) {
                Ok(0) => break,
                Ok(n) => done += n,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(error.into()),
            }
        }
        self.offset += done as u64;
        Ok(done)
    }

    /// Fills `buffer` whole, or marks the file truncated and says `false`.
    fn read_whole(&mut self, buffer: &mut [u8]) -> Result<bool, FormatError> {
        let whole = self.fill(buffer)? == buffer.len();
        self.truncated |= !whole;
        Ok(whole)
    }

    /// The next game, `None` at the end of the file (or of its last whole game).
    pub fn next_game(&mut self) -> Result<Option<RawGame>, FormatError> {
        let start_offset = self.offset;
        let mut length = [0u8; 1];
        if self.truncated || self.fill(&mut length)? == 0 {
            return Ok(None);
        }
        let mut start = vec![0u8; length[0] as usize];
        let mut head = [0u8; 3];
        if !self.read_whole(&mut start)? || !self.read_whole(&mut head)? {
            return Ok(None);
        }
        let corrupt = |what: String| FormatError::Corrupt {
            offset: start_offset,
            what,
        };
        let start = String::from_utf8(start)
            .map_err(|_| corrupt("the start position is not UTF-8".into()))?;
        let result = GameResult::from_byte(head[0])
            .ok_or_else(|| corrupt(format!("result byte {} is not 0, 1 or 2", head[0])))?;
        let count = u16::from_le_bytes([head[1], head[2]]) as usize;
        let mut body = vec![0u8; 4 * count];
        if !self.read_whole(&mut body)? {
            return Ok(None);
        }
        let plies = body
            .chunks_exact(4)
            .map(|b| Ply {
                code: u16::from_le_bytes([b[0], b[1]]),
                score: i16::from_le_bytes([b[2], b[3]]),
            })
            .collect();
        Ok(Some(RawGame {
            start,
            result,
            plies,
        }))
    }
}

impl<R: Read> Iterator for GameReader<R> {
    type Item = Result<RawGame, FormatError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_game().transpose()
    }
}

/// Opens a game-data file for reading.
pub fn open(path: &std::path::Path) -> Result<GameReader<io::BufReader<std::fs::File>>, String> {
    let file =
        std::fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    GameReader::new(io::BufReader::with_capacity(1 << 16, file))
        .map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_games() -> Vec<RawGame> {
        vec![
            RawGame {
                start: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
                result: GameResult::WhiteWon,
                plies: vec![
                    Ply {
                        code: 12 | 28 << 7,
                        score: 35,
                    },
                    Ply {
                        code: 52 | 36 << 7,
                        score: Ply::NO_SCORE,
                    },
                    Ply {
                        code: Ply::NO_MOVE,
                        score: -31_990,
                    },
                ],
            },
            RawGame {
                start: "4k3/8/8/8/8/8/8/4K3 b - - 0 1".into(),
                result: GameResult::Draw,
                plies: Vec::new(),
            },
        ]
    }

    fn file_of(games: &[RawGame]) -> Vec<u8> {
        let mut bytes = Vec::new();
        write_header(&mut bytes, "chess").unwrap();
        for game in games {
            write_game(&mut bytes, game).unwrap();
        }
        bytes
    }

    #[test]
    fn games_round_trip_through_bytes() {
        let games = sample_games();
        let bytes = file_of(&games);
        assert!(is_game_data(&bytes));
        let mut reader = GameReader::new(&bytes[..]).unwrap();
        assert_eq!(reader.variant(), "chess");
        let read: Vec<RawGame> = reader.by_ref().map(Result::unwrap).collect();
        assert_eq!(read, games);
        assert!(!reader.truncated());
        // Four bytes a ply, and the start and result once a game.
        assert_eq!(bytes.len(), 8 + 5 + (1 + 56 + 3 + 12) + (1 + 29 + 3));
    }

    #[test]
    fn a_file_cut_inside_a_game_ends_at_the_last_whole_one() {
        let games = sample_games();
        let bytes = file_of(&games);
        let whole_first = 8 + 5 + 1 + 56 + 3 + 12;
        for cut in whole_first..bytes.len() {
            let mut reader = GameReader::new(&bytes[..cut]).unwrap();
            let read: Vec<RawGame> = reader.by_ref().map(Result::unwrap).collect();
            assert_eq!(read, games[..1], "cut at {cut}");
            assert_eq!(reader.truncated(), cut > whole_first, "cut at {cut}");
        }
    }

    #[test]
    fn other_files_and_bad_bytes_are_refused_with_a_reason() {
        let text = b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 20 | 1\n";
        assert!(!is_game_data(text));
        assert!(matches!(
            GameReader::new(&text[..]),
            Err(FormatError::NotGameData(_))
        ));
        let mut bytes = file_of(&sample_games());
        bytes[6] = 9;
        assert!(GameReader::new(&bytes[..]).is_err());
        let mut bytes = file_of(&sample_games());
        bytes[8 + 5 + 1 + 56] = 7; // the first game's result byte
        let error = GameReader::new(&bytes[..]).unwrap().next().unwrap();
        assert!(
            matches!(error, Err(FormatError::Corrupt { offset: 13, .. })),
            "{error:?}"
        );
    }
}
