//! Helpers shared by the tournament tests.

#![allow(dead_code)]

use bughouse_core::{BoardId, Preset};
use bughouse_tournament::{
    Format, GameResult, MatchRecord, Player, Seating, Team, TeamOutcome, Tournament,
};

/// SplitMix64, written out again so the tests do not trust the crate's own.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The `n`-th output of SplitMix64 seeded with `seed`.
pub fn splitmix_nth(seed: u64, n: u64) -> u64 {
    let mut r = Rng::new(seed);
    let mut v = 0;
    for _ in 0..=n {
        v = r.next();
    }
    v
}

/// A tournament of `n` teams `T1`..`Tn` with players `T1a` (first board) and `T1b`; team `i`
/// rated `3000 - 20 * i` (players 50 above and below).
pub fn tournament(
    preset: Preset,
    format: Format,
    n: usize,
    rounds: Option<u32>,
    seed: u64,
) -> Tournament {
    let mut t = Tournament::new("Test", preset, format, rounds, seed).unwrap();
    for i in 1..=n {
        let rating = 3000 - 20 * i as u32;
        t.add_team(Team::new(
            format!("T{i}"),
            Player::rated(format!("T{i}a"), rating + 50),
            Player::rated(format!("T{i}b"), rating - 50),
        ))
        .unwrap();
    }
    t
}

/// The result of one game from the home team's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Home {
    Win,
    Draw,
    Loss,
    Stopped,
}

/// The game result on `board`, from that board's White side, for a game that went `home` for
/// the home team.
pub fn board_result(seating: &Seating, board: BoardId, home: Home) -> GameResult {
    let home_white = seating.home_white_on(board);
    match (home, home_white) {
        (Home::Stopped, _) => GameResult::Stopped,
        (Home::Draw, _) => GameResult::Draw,
        (Home::Win, true) | (Home::Loss, false) => GameResult::WhiteWins,
        (Home::Win, false) | (Home::Loss, true) => GameResult::BlackWins,
    }
}

/// Enters per-board results given from the home team's side.
pub fn enter(t: &mut Tournament, round: u32, table: u32, a: Home, b: Home) {
    let seating = t.round(round).unwrap().table(table).unwrap().seating;
    let record = MatchRecord::Games {
        a: board_result(&seating, BoardId::A, a),
        b: board_result(&seating, BoardId::B, b),
    };
    t.set_result(round, table, record).unwrap();
}

/// A random result fitting the preset's scoring.
pub fn random_record(rng: &mut Rng, first_game_decides: bool) -> MatchRecord {
    let game = |rng: &mut Rng| match rng.below(5) {
        0 | 1 => GameResult::WhiteWins,
        2 | 3 => GameResult::BlackWins,
        _ => GameResult::Draw,
    };
    if first_game_decides {
        match rng.below(10) {
            0 => MatchRecord::Forfeit(bughouse_tournament::Forfeit::AwayForfeits),
            1..=4 => MatchRecord::Games {
                a: game(rng),
                b: GameResult::Stopped,
            },
            _ => MatchRecord::Games {
                a: GameResult::Stopped,
                b: game(rng),
            },
        }
    } else {
        MatchRecord::Games {
            a: game(rng),
            b: game(rng),
        }
    }
}

/// The outcome for the home team.
pub fn home_outcome(t: &Tournament, round: u32, table: u32) -> TeamOutcome {
    let p = t.round(round).unwrap().table(table).unwrap();
    t.score(p).unwrap().home.outcome
}
