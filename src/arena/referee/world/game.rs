//! A world as the referee plays it: the authoritative [`World`], which seat plays which players,
//! each seat's statistics and the record. The in-process runner ([`play_world`]) and the process
//! referee both play their worlds through [`WorldGame::run`], so they referee alike.

use super::layout::{seat_team, WorldSetup};
use super::record::{
    KingCaptureRecord, PieceRecord, RejectionRecord, SeatRecord, WorldRecord, WorldSetupRecord,
};
use crate::plan::MegachessPlayer;
use crate::rules::megachess::{Move, PlayerId, Team, World};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A seat's answer for one of its players in one turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatAnswer {
    /// The move texts as the seat sent them, in its order.
    Moves(Vec<String>),
    /// No answer in time: the turn is empty.
    Late,
    /// The seat could not answer (a crash, a protocol error), in words: the turn is empty.
    Fault(String),
}

/// An answer may name this many moves beyond its player's pieces; the rest are dropped with one
/// rejection (a flood of garbage must not flood the record).
const EXTRA_MOVES: usize = 64;
/// A move text is kept in the record up to this many characters.
const TEXT_KEPT: usize = 64;

/// What the referee counts for a seat as the world goes.
#[derive(Clone, Debug, Default)]
struct SeatStats {
    kings_captured: u32,
    kings_lost: u32,
    moves: u64,
    rejected: u64,
    late_turns: u64,
    plan_max: Duration,
}

/// A world being played.
#[derive(Clone, Debug)]
pub struct WorldGame {
    setup: WorldSetup,
    world: World,
    seats: Vec<Vec<PlayerId>>,
    stats: Vec<SeatStats>,
    /// Each player's score as the effects added it up (also after its king was captured).
    scores: HashMap<PlayerId, i64>,
    /// Players whose king was captured.
    lost: HashSet<PlayerId>,
    king_captures: Vec<KingCaptureRecord>,
    rejections: Vec<RejectionRecord>,
    faded: u64,
    bonus_placed: u64,
}

impl WorldGame {
    /// A world with every seat's armies placed by the layout.
    pub fn new(setup: &WorldSetup) -> Result<WorldGame, String> {
        let spawns = setup.spawns()?;
        let mut world = World::new(setup.params, setup.seed);
        let mut seats = vec![Vec::new(); setup.seats];
        for spawn in &spawns {
            world.add_player(spawn.player, seat_team(spawn.seat))?;
            seats[spawn.seat].push(spawn.player);
        }
        for spawn in &spawns {
            world
                .spawn_army(spawn.player, spawn.corner, spawn.facing)
                .map_err(|error| {
                    format!(
                        "{}: the army of player {} at {} does not fit: {error}",
                        setup.layout, spawn.player, spawn.corner
                    )
                })?;
        }
        for players in &mut seats {
            players.sort_unstable();
        }
        Ok(WorldGame {
            setup: setup.clone(),
            world,
            stats: vec![SeatStats::default(); seats.len()],
            scores: spawns.iter().map(|spawn| (spawn.player, 0)).collect(),
            seats,
            lost: HashSet::new(),
            king_captures: Vec::new(),
            rejections: Vec::new(),
            faded: 0,
            bonus_placed: 0,
        })
    }

    pub fn setup(&self) -> &WorldSetup {
        &self.setup
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    /// The players a seat plays for, by id.
    pub fn players_of(&self, seat: usize) -> &[PlayerId] {
        &self.seats[seat]
    }

    pub fn seat_of(&self, player: PlayerId) -> Option<usize> {
        self.seats.iter().position(|ids| ids.contains(&player))
    }

    /// Whether the player is still in the world (its king not captured).
    pub fn in_game(&self, player: PlayerId) -> bool {
        !self.lost.contains(&player) && self.world.player(player).is_some_and(|p| p.present)
    }

    /// Whether a team still has a player in the world.
    fn team_in_game(&self, team: Team) -> bool {
        (0..self.seats.len())
            .filter(|&seat| seat_team(seat) == team)
            .any(|seat| self.seats[seat].iter().any(|&p| self.in_game(p)))
    }

    /// The team left when the other has no players.
    fn sole_team(&self) -> Option<Team> {
        match Team::BOTH.map(|team| self.team_in_game(team)) {
            [true, false] => Some(Team::Alabaster),
            [false, true] => Some(Team::Metal),
            _ => None,
        }
    }

    /// Plays to the end: each turn, every seat of the team to move, for each of its players
    /// still in the game (id order), is asked (`ask(seat, &view, me)`, the view being the
    /// player's window when `window_margin` is set); its moves are parsed and applied in order,
    /// the garbage and illegal ones rejected and logged; then the turn ends. Ends when a team
    /// has no players or at `max_turns`; `None` if `cancel` was set.
    pub fn run(
        &mut self,
        ask: &mut dyn FnMut(usize, &World, PlayerId) -> SeatAnswer,
        cancel: &AtomicBool,
    ) -> Option<WorldRecord> {
        loop {
            if let Some(team) = self.sole_team() {
                return Some(self.record("team-left", Some(team)));
            }
            if self.world.turn() > self.setup.max_turns {
                return Some(self.record("max-turns", None));
            }
            let team = self.world.team_to_move();
            for seat in (0..self.seats.len()).filter(|&seat| seat_team(seat) == team) {
                for index in 0..self.seats[seat].len() {
                    let me = self.seats[seat][index];
                    if cancel.load(Ordering::Relaxed) {
                        return None;
                    }
                    if !self.in_game(me) {
                        continue;
                    }
                    let window = self.setup.window_margin.map(|m| self.world.window(me, m));
                    let began = Instant::now();
                    let answer = ask(seat, window.as_ref().unwrap_or(&self.world), me);
                    let stats = &mut self.stats[seat];
                    stats.plan_max = stats.plan_max.max(began.elapsed());
                    self.answer(seat, me, answer);
                    if let Some(team) = self.sole_team() {
                        return Some(self.record("team-left", Some(team)));
                    }
                }
            }
            self.end_turn();
        }
    }

    /// Applies one player's answer, move by move, logging what is rejected.
    pub fn answer(&mut self, seat: usize, me: PlayerId, answer: SeatAnswer) {
        let texts = match answer {
            SeatAnswer::Moves(texts) => texts,
            SeatAnswer::Late => {
                self.stats[seat].late_turns += 1;
                self.reject(seat, me, "", "late", "no answer in time: the turn is empty");
                return;
            }
            SeatAnswer::Fault(what) => {
                self.reject(seat, me, "", "fault", &format!("{what}: the turn is empty"));
                return;
            }
        };
        let allowed = self.world.pieces_of(me).count() + EXTRA_MOVES;
        for (index, text) in texts.iter().enumerate() {
            if index == allowed {
                let reason = format!(
                    "{} moves sent, more than {allowed}: the last {} dropped",
                    texts.len(),
                    texts.len() - allowed
                );
                self.reject(seat, me, "", "too-many-moves", &reason);
                break;
            }
            let mv = match Move::parse(text) {
                Ok(mv) => mv,
                Err(error) => {
                    self.reject(seat, me, text, "garbage", &error);
                    continue;
                }
            };
            match self.world.apply(me, mv) {
                Ok(effects) => {
                    self.stats[seat].moves += 1;
                    *self.scores.entry(me).or_default() += effects.points;
                    if let Some(captured) = effects.king_captured {
                        self.king_captured(seat, me, captured, mv);
                    }
                }
                Err(rejection) => {
                    self.reject(seat, me, text, rejection.name(), &rejection.to_string())
                }
            }
        }
    }

    fn king_captured(&mut self, seat: usize, capturer: PlayerId, captured: PlayerId, mv: Move) {
        self.lost.insert(captured);
        self.stats[seat].kings_captured += 1;
        let captured_seat = self.seat_of(captured);
        if let Some(lost) = captured_seat {
            self.stats[lost].kings_lost += 1;
        }
        self.king_captures.push(KingCaptureRecord {
            turn: self.world.turn(),
            capturer,
            capturer_seat: seat,
            captured,
            captured_seat: captured_seat.unwrap_or(usize::MAX),
            mv: mv.to_string(),
        });
    }

    fn reject(&mut self, seat: usize, me: PlayerId, text: &str, name: &str, reason: &str) {
        self.stats[seat].rejected += 1;
        let mut mv: String = text.chars().take(TEXT_KEPT).collect();
        if mv.len() < text.len() {
            mv.push_str("...");
        }
        self.rejections.push(RejectionRecord {
            turn: self.world.turn(),
            seat,
            player: me,
            mv,
            rejection: name.to_string(),
            reason: reason.to_string(),
        });
    }

    /// Ends the team's turn: fading, survival points, a bonus piece.
    fn end_turn(&mut self) {
        let ended = self.world.end_turn();
        self.faded += ended.faded.len() as u64;
        self.bonus_placed += u64::from(ended.bonus.is_some());
        for survivor in ended.survivors {
            *self.scores.entry(survivor).or_default() += 1;
        }
    }

    /// A seat's score: its players' scores added up.
    pub fn seat_score(&self, seat: usize) -> i64 {
        self.seats[seat]
            .iter()
            .map(|player| self.scores.get(player).copied().unwrap_or(0))
            .sum()
    }

    /// The points of each seat: the team left alone wins (1 each of its seats), else the team
    /// with the higher total score; equal totals give ½ each.
    fn points(&self, winner: Option<Team>) -> Vec<f64> {
        let winner = winner.or_else(|| {
            let total = |team: Team| -> i64 {
                (0..self.seats.len())
                    .filter(|&seat| seat_team(seat) == team)
                    .map(|seat| self.seat_score(seat))
                    .sum()
            };
            let (alabaster, metal) = (total(Team::Alabaster), total(Team::Metal));
            match alabaster.cmp(&metal) {
                std::cmp::Ordering::Greater => Some(Team::Alabaster),
                std::cmp::Ordering::Less => Some(Team::Metal),
                std::cmp::Ordering::Equal => None,
            }
        });
        (0..self.seats.len())
            .map(|seat| match winner {
                Some(team) if seat_team(seat) == team => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            })
            .collect()
    }

    /// The record of the world as it stands, ended for `end` (`team-left`, `max-turns`).
    pub fn record(&self, end: &str, winner: Option<Team>) -> WorldRecord {
        let seats = (0..self.seats.len())
            .map(|seat| {
                let stats = &self.stats[seat];
                SeatRecord {
                    seat,
                    team: seat_team(seat).name().to_string(),
                    players: self.seats[seat].clone(),
                    score: self.seat_score(seat),
                    kings_captured: stats.kings_captured,
                    kings_lost: stats.kings_lost,
                    pieces_left: self.seats[seat]
                        .iter()
                        .map(|&player| self.world.pieces_of(player).count())
                        .sum(),
                    moves: stats.moves,
                    rejected: stats.rejected,
                    late_turns: stats.late_turns,
                    plan_ms_max: stats.plan_max.as_millis() as u64,
                }
            })
            .collect();
        let final_pieces = self
            .world
            .pieces()
            .map(|piece| PieceRecord {
                id: piece.id.0,
                owner: piece.owner,
                kind: piece.kind.letter().to_string(),
                x: piece.at.x,
                y: piece.at.y,
                token: self.world.piece_token(piece),
            })
            .collect();
        WorldRecord {
            setup: WorldSetupRecord::from(&self.setup),
            turns: self.turns_played(),
            end: end.to_string(),
            winner: winner.map(|team| team.name().to_string()),
            seats,
            points: self.points(winner),
            first_king_capture: self.king_captures.first().cloned(),
            king_captures: self.king_captures.clone(),
            rejections: self.rejections.clone(),
            faded: self.faded,
            bonus_placed: self.bonus_placed,
            final_pieces,
        }
    }

    /// Turns begun (the current one counts once a player has been asked in it).
    fn turns_played(&self) -> u64 {
        let turn = self.world.turn();
        if turn > self.setup.max_turns || self.sole_team().is_none() {
            (turn - 1).min(self.setup.max_turns)
        } else {
            turn
        }
    }
}

/// Plays a world in process: `players[seat]` plans for every player of that seat with a budget
/// of `movetime` (an answer later than twice that, plus 100 ms, counts as late). Errors when the
/// setup is not valid or `players` does not hold one player per seat.
pub fn play_world(
    setup: &WorldSetup,
    players: &mut [&mut dyn MegachessPlayer],
    movetime: Duration,
) -> Result<WorldRecord, String> {
    if players.len() != setup.seats {
        return Err(format!(
            "{} players for {} seats: one player per seat",
            players.len(),
            setup.seats
        ));
    }
    let mut game = WorldGame::new(setup)?;
    for player in players.iter_mut() {
        player.new_game();
    }
    let late = movetime * 2 + Duration::from_millis(100);
    let stop = AtomicBool::new(false);
    let mut ask = |seat: usize, view: &World, me: PlayerId| {
        let began = Instant::now();
        let moves = players[seat].plan_turn(view, me, movetime.into(), &stop, &mut |_| {});
        if began.elapsed() > late {
            SeatAnswer::Late
        } else {
            SeatAnswer::Moves(moves.iter().map(ToString::to_string).collect())
        }
    };
    let never = AtomicBool::new(false);
    game.run(&mut ask, &never)
        .ok_or_else(|| "the world was cancelled".to_string())
}

#[cfg(test)]
mod tests {
    use super::super::layout::Layout;
    use super::*;
    use crate::players::megachess::{GreedyMegachessPlayer, RandomMegachessPlayer};
    use crate::rules::megachess::{Kind, MegachessParams};

    fn small_setup(seed: u64, max_turns: u64) -> WorldSetup {
        WorldSetup {
            params: MegachessParams {
                width: 24,
                height: 24,
                ..MegachessParams::default()
            },
            seed,
            seats: 2,
            players_per_seat: 1,
            layout: Layout::Facing { gap: 4 },
            max_turns,
            window_margin: None,
        }
    }

    fn play(
        setup: &WorldSetup,
        a: &mut dyn MegachessPlayer,
        b: &mut dyn MegachessPlayer,
    ) -> WorldRecord {
        play_world(setup, &mut [a, b], Duration::from_millis(100)).unwrap()
    }

    /// The record without its wall-clock figures.
    fn timeless(mut record: WorldRecord) -> WorldRecord {
        for seat in &mut record.seats {
            seat.plan_ms_max = 0;
        }
        record
    }

    #[test]
    fn a_world_of_two_random_players_ends_at_max_turns() {
        let setup = small_setup(3, 30);
        let record = play(
            &setup,
            &mut RandomMegachessPlayer::new(1),
            &mut RandomMegachessPlayer::new(2),
        );
        if record.end == "max-turns" {
            assert_eq!(record.turns, 30);
            assert!(
                record.points == [1.0, 0.0]
                    || record.points == [0.0, 1.0]
                    || record.points == [0.5, 0.5]
            );
        } else {
            assert_eq!(record.end, "team-left");
            assert!(record.first_king_capture.is_some());
        }
        assert!(record.rejections.is_empty(), "{:?}", record.rejections);
        assert!(record.seats.iter().all(|seat| seat.moves > 0));
        // Each survived its 15 turns at least until a capture; the scores add up.
        let mut game = WorldGame::new(&setup).unwrap();
        assert_eq!(game.players_of(0), &[1]);
        assert_eq!(game.players_of(1), &[2]);
        assert_eq!(game.seat_of(2), Some(1));
        assert_eq!(game.seat_of(3), None);
        assert_eq!(game.world().piece_count(), 32);
        let cancel = AtomicBool::new(true);
        assert!(game.run(&mut |_, _, _| SeatAnswer::Late, &cancel).is_none());
    }

    #[test]
    fn greedy_captures_the_random_king_on_a_small_board() {
        for seed in 0..3 {
            let setup = small_setup(seed, 200);
            let record = play(
                &setup,
                &mut GreedyMegachessPlayer::new(seed),
                &mut RandomMegachessPlayer::new(seed),
            );
            assert_eq!(record.end, "team-left", "seed {seed}: {record:?}");
            assert_eq!(record.winner.as_deref(), Some("alabaster"));
            assert_eq!(record.points, vec![1.0, 0.0]);
            let capture = record.first_king_capture.as_ref().unwrap();
            assert_eq!((capture.capturer, capture.capturer_seat), (1, 0));
            assert_eq!((capture.captured, capture.captured_seat), (2, 1));
            assert_eq!(record.seats[0].kings_captured, 1);
            assert_eq!(record.seats[1].kings_lost, 1);
            assert_eq!(record.seats[1].pieces_left, 0);
            // Every piece on the board is the winner's or neutral.
            assert!(record.final_pieces.iter().all(|p| p.owner != 2));
            assert!(record.seats[0].score >= 110, "the king alone is worth 110");
            assert!(record.rejections.is_empty(), "{:?}", record.rejections);
        }
    }

    #[test]
    fn garbage_and_illegal_moves_are_rejected_and_the_legal_ones_stand() {
        let mut game = WorldGame::new(&small_setup(1, 10)).unwrap();
        let world = game.world().clone();
        let mine = world.legal_moves(1);
        let pawn_step = *mine
            .iter()
            .find(|mv| world.piece_at(mv.from).unwrap().kind == Kind::Pawn)
            .unwrap();
        let other_pawn = *mine
            .iter()
            .find(|mv| {
                mv.from != pawn_step.from && world.piece_at(mv.from).unwrap().kind == Kind::Pawn
            })
            .unwrap();
        let enemy = world.pieces_of(2).next().unwrap().at;
        let texts = vec![
            "e2e4".to_string(),
            pawn_step.to_string(),
            Move::new(pawn_step.to, pawn_step.from).to_string(),
            format!("{enemy}-{enemy}"),
            format!("{}-99999,0", other_pawn.from),
            other_pawn.to_string(),
        ];
        game.answer(0, 1, SeatAnswer::Moves(texts));
        let names: Vec<&str> = game
            .rejections
            .iter()
            .map(|r| r.rejection.as_str())
            .collect();
        assert_eq!(names[0], "garbage");
        assert_eq!(names[1], "already-moved");
        assert_eq!(names[2], "not-your-piece");
        assert_eq!(names[3], "off-board");
        assert_eq!(names.len(), 4);
        assert!(game
            .rejections
            .iter()
            .all(|r| r.turn == 1 && r.player == 1 && !r.reason.is_empty()));
        assert_eq!(game.rejections[0].mv, "e2e4");
        assert_eq!(game.stats[0].moves, 2);
        assert_eq!(game.stats[0].rejected, 4);
        assert!(game.world().piece_at(pawn_step.to).is_some());
        assert!(game.world().piece_at(other_pawn.to).is_some());

        game.answer(0, 1, SeatAnswer::Late);
        game.answer(0, 1, SeatAnswer::Fault("crashed".into()));
        game.answer(0, 1, SeatAnswer::Moves(vec!["x".repeat(1000); 200]));
        let record = game.record("max-turns", None);
        let last: Vec<&str> = record.rejections[4..7]
            .iter()
            .map(|r| r.rejection.as_str())
            .collect();
        assert_eq!(last, ["late", "fault", "garbage"]);
        assert_eq!(
            record.rejections.last().unwrap().rejection,
            "too-many-moves"
        );
        assert!(record
            .rejections
            .iter()
            .all(|r| r.mv.len() <= TEXT_KEPT + 3));
        assert_eq!(record.seats[0].late_turns, 1);
        let json = serde_json::to_string(&record).unwrap();
        assert_eq!(serde_json::from_str::<WorldRecord>(&json).unwrap(), record);
    }

    #[test]
    fn a_world_repeats_for_its_seed() {
        let run = |seed: u64| {
            let setup = WorldSetup {
                params: MegachessParams {
                    width: 48,
                    height: 48,
                    bonus_every: 2,
                    ..MegachessParams::default()
                },
                seats: 2,
                players_per_seat: 2,
                layout: Layout::Scatter,
                window_margin: Some(12),
                ..small_setup(seed, 40)
            };
            timeless(play(
                &setup,
                &mut GreedyMegachessPlayer::new(seed),
                &mut RandomMegachessPlayer::new(seed),
            ))
        };
        let first = run(5);
        assert_eq!(run(5), first);
        assert_ne!(run(6), first);
        assert!(first.bonus_placed > 0);
    }

    #[test]
    fn seat_scores_are_the_worlds_scores_and_views_are_windows() {
        let mut setup = WorldSetup {
            window_margin: Some(3),
            ..small_setup(2, 40)
        };
        setup.params.bonus_every = 0;
        let mut game = WorldGame::new(&setup).unwrap();
        let mut players = [GreedyMegachessPlayer::new(1), GreedyMegachessPlayer::new(2)];
        let stop = AtomicBool::new(false);
        let mut asked = 0;
        let mut ask = |seat: usize, view: &World, me: PlayerId| {
            asked += 1;
            // Three squares around an army of 8 x 2 on a 24-wide board: not the enemy's.
            assert!(
                view.pieces().all(|piece| piece.owner == me),
                "turn {}",
                view.turn()
            );
            let moves =
                players[seat].plan_turn(view, me, Duration::ZERO.into(), &stop, &mut |_| {});
            SeatAnswer::Moves(moves.iter().map(ToString::to_string).collect())
        };
        let record = game.run(&mut ask, &AtomicBool::new(false)).unwrap();
        assert_eq!(asked, 40);
        assert_eq!((record.end.as_str(), record.turns), ("max-turns", 40));
        for seat in 0..2 {
            let player = game.world().player(game.players_of(seat)[0]).unwrap();
            assert_eq!(record.seats[seat].score, player.score);
            assert_eq!(
                record.seats[seat].score, 20,
                "a survival point a turn, no captures"
            );
        }
        assert_eq!(record.points, [0.5, 0.5]);
    }

    #[test]
    fn play_world_wants_one_player_per_seat() {
        let mut one = RandomMegachessPlayer::new(1);
        let error = play_world(&small_setup(1, 5), &mut [&mut one], Duration::ZERO).unwrap_err();
        assert!(error.contains("1 players for 2 seats"), "{error}");
    }
}
