//! One match in virtual time: both boards at once, each board's mover asked when his turn
//! comes, the wall time of his answer charged to his clock, decisions, sits and flags applied in
//! virtual-time order (docs/arena.md).

use std::time::Duration;

use bughouse_bpgn::termination;
use bughouse_core::{BoardId, Match, Preset, Seat, Team, TimeControl, Verdict};

use crate::player::{board_moves, Outcome, Player, Said, MIN_RECHECK};
use crate::uci::UciEngine;
use crate::xboard::XboardEngine;
use crate::{EngineError, Spec, MAX_PLIES, UCI_VARIANT};

/// What an arena plays: the two teams, the time control, the rules and the seed of our bots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// Team 1.
    pub team1: Spec,
    /// Team 2.
    pub team2: Spec,
    /// The time control of every match.
    pub time: TimeControl,
    /// The rules (a two-board preset).
    pub rules: Preset,
    /// Seed of our bots' random choices (each seat of each match gets its own, derived from it).
    pub seed: u64,
}

/// An outside engine of a team that cannot play.
#[derive(Debug, thiserror::Error)]
#[error("{team} ({spec}): {source}")]
pub struct TeamError {
    /// `team1` or `team2`.
    pub team: &'static str,
    /// Who plays for it.
    pub spec: Spec,
    /// What is wrong with the engine.
    pub source: EngineError,
}

impl Config {
    /// Starts every outside engine once and checks that it knows bughouse, before anything is
    /// played.
    ///
    /// # Errors
    ///
    /// [`TeamError`] for the first team whose engine cannot play.
    pub fn check_engines(&self) -> Result<(), TeamError> {
        for (team, spec) in [("team1", &self.team1), ("team2", &self.team2)] {
            let check = match spec {
                Spec::Uci(path, options) => UciEngine::start(path, UCI_VARIANT)
                    .and_then(|mut e| e.set_options(options))
                    .map(drop),
                Spec::Xboard(path) => XboardEngine::start(path, UCI_VARIANT).map(drop),
                Spec::Bot(..) => Ok(()),
            };
            check.map_err(|source| TeamError {
                team,
                spec: spec.clone(),
                source,
            })?;
        }
        Ok(())
    }

    /// Who plays each seat in match `number` (`Seat::ALL` order): team1 plays WhiteA + BlackB in
    /// odd matches and BlackA + WhiteB in even ones.
    pub fn seating(&self, number: u32) -> (Team, [&Spec; 4]) {
        let team1_as = if number % 2 == 1 {
            Team::One
        } else {
            Team::Two
        };
        let specs = Seat::ALL.map(|seat| {
            if seat.team() == team1_as {
                &self.team1
            } else {
                &self.team2
            }
        });
        (team1_as, specs)
    }

    /// Plays match `number`; `report` gets a line for each player failure (and, with
    /// `BUGHOUSE_ARENA_TALK=1`, each partner message).
    pub fn play(&self, number: u32, report: &dyn Fn(String)) -> Played {
        let (team1_as, specs) = self.seating(number);
        play_match(
            number, team1_as, &specs, self.rules, self.time, self.seed, report,
        )
    }
}

/// What a board is doing in the simulation.
enum BoardState {
    /// Its mover is to be asked at the current virtual time.
    Ask,
    /// Its mover has decided; the decision takes effect at `done`.
    Thinking {
        seat: Seat,
        done: Duration,
        outcome: Outcome,
        talk: Vec<Said>,
        /// The other board changed while he was deciding to sit: ask again at `done`.
        changed: bool,
    },
    /// Its mover sits or has no move; ask again at `wake`, or when the other board changes.
    Idle { wake: Option<Duration> },
    /// The game on this board is over.
    Over,
}

impl BoardState {
    /// The next virtual time something happens on this board (besides a flag).
    fn next(&self) -> Option<Duration> {
        match self {
            BoardState::Thinking { done, .. } => Some(*done),
            BoardState::Idle { wake } => *wake,
            BoardState::Ask | BoardState::Over => None,
        }
    }

    /// The other board changed at `now` (a move, or the partner spoke): a sitting or waiting
    /// mover is asked again.
    fn wake(&mut self, now: Duration) {
        match self {
            BoardState::Idle { wake } => *wake = Some(now),
            BoardState::Thinking {
                outcome: Outcome::Sit(_),
                changed,
                ..
            } => *changed = true,
            _ => {}
        }
    }
}

/// One finished match.
pub struct Played {
    /// The match's number, from 1.
    pub number: u32,
    /// The side of the board team1 played in this match.
    pub team1_as: Team,
    /// The match as it ended.
    pub game: Match,
    /// Player failures and adjudications, for the table.
    pub notes: Vec<String>,
}

impl Played {
    /// Team 1's points (0 for an unfinished match).
    pub fn team1_points(&self) -> f32 {
        self.game.points(self.team1_as).unwrap_or(0.0)
    }

    /// Team 2's points (0 for an unfinished match).
    pub fn team2_points(&self) -> f32 {
        self.game.points(self.team1_as.other()).unwrap_or(0.0)
    }

    /// The moves of both boards.
    pub fn plies(&self) -> usize {
        self.game.record().len()
    }

    /// How the match ended, and the notes.
    pub fn reason(&self) -> String {
        let mut reason = termination(&self.game, &[]).unwrap_or_else(|| "unfinished".into());
        if !self.notes.is_empty() {
            reason.push_str(": ");
            reason.push_str(&self.notes.join("; "));
        }
        reason
    }
}

/// Plays one match in virtual time. `specs[i]` plays seat `Seat::ALL[i]`.
fn play_match(
    number: u32,
    team1_as: Team,
    specs: &[&Spec; 4],
    preset: Preset,
    tc: TimeControl,
    seed: u64,
    report: &dyn Fn(String),
) -> Played {
    let mut players: Vec<Player> = Seat::ALL
        .iter()
        .enumerate()
        .map(|(i, &seat)| {
            let seat_seed = seed
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .wrapping_add(u64::from(number) * 4 + i as u64);
            Player::new(specs[i], seat_seed, specs[seat.opponent().index()])
        })
        .collect();
    // The two engines of an XBoard team learn they have a partner and greet each other.
    for seat in Seat::ALL {
        let said = match &mut players[seat.index()] {
            Player::Xboard {
                engine: Some(e), ..
            } => {
                let partner = seat.partner().to_string();
                match e
                    .level(tc.base, tc.increment)
                    .and_then(|()| e.set_partner(&partner))
                {
                    Ok(()) => e.take_said(),
                    Err(_) => Vec::new(),
                }
            }
            _ => continue,
        };
        for text in said {
            players[seat.partner().index()].hear(Said::Text(text));
        }
    }
    // BUGHOUSE_ARENA_TALK=1 writes every partner message to standard error.
    let log_talk = std::env::var_os("BUGHOUSE_ARENA_TALK").is_some_and(|v| v == "1");
    let name = |seat: Seat| format!("{seat} ({})", specs[seat.index()]);
    let mut notes = Vec::new();
    let mut game = Match::new(preset.rules(), tc);
    let mut now = Duration::ZERO;
    game.start(now).expect("a new match has not been started");
    let mut states = [BoardState::Ask, BoardState::Ask];

    'sim: while !game.is_over() {
        // Ask every board whose mover has to decide now.
        for board in BoardId::ALL {
            if !matches!(states[board.index()], BoardState::Ask) {
                continue;
            }
            if game.game_end(board).is_some() {
                states[board.index()] = BoardState::Over;
                continue;
            }
            let seat = game.to_move(board);
            if let Some(claim) = game.board_game(board).claims().into_iter().next() {
                // The arena claims every draw the rules allow, for the player to move.
                if game.claim_draw(seat, claim, now).is_ok() {
                    states[board.index()] = BoardState::Over;
                    continue 'sim;
                }
            }
            if game.record().len() >= MAX_PLIES {
                for s in Seat::ALL {
                    let _ = game.agree_draw(s, now);
                }
                notes.push(format!("adjudicated a draw after {MAX_PLIES} plies"));
                if !game.is_over() {
                    notes.push("the rules refused the adjudicated draw".into());
                    break 'sim;
                }
                continue 'sim;
            }
            if game.verdict(board) == Verdict::Waiting {
                states[board.index()] = BoardState::Idle { wake: None };
                continue;
            }
            let thought = players[seat.index()].think(&game, seat, now);
            states[board.index()] = BoardState::Thinking {
                seat,
                done: now + thought.wall,
                outcome: thought.outcome,
                talk: thought.talk,
                changed: false,
            };
        }

        // The next event: a decision taking effect, a sitter waking, or a flag.
        let mut next: Option<Duration> = None;
        for board in BoardId::ALL {
            if game.game_end(board).is_some() {
                states[board.index()] = BoardState::Over;
                continue;
            }
            let flag = game.clock(board).flag_time().map(|(_, t)| t);
            for t in [states[board.index()].next(), flag].into_iter().flatten() {
                next = Some(next.map_or(t, |n: Duration| n.min(t)));
            }
        }
        let Some(t) = next else {
            // No clock runs and nobody acts: cannot happen while the match goes on.
            notes.push("the simulation stalled".into());
            break;
        };
        now = now.max(t);
        for board in game.tick(now) {
            states[board.index()] = BoardState::Over;
        }

        for board in BoardId::ALL {
            if game.is_over() {
                break 'sim;
            }
            let i = board.index();
            match &states[i] {
                BoardState::Idle { wake: Some(w) } if *w <= now => states[i] = BoardState::Ask,
                BoardState::Thinking { done, .. } if *done <= now => {
                    let BoardState::Thinking {
                        seat,
                        outcome,
                        talk,
                        changed,
                        ..
                    } = std::mem::replace(&mut states[i], BoardState::Ask)
                    else {
                        unreachable!("matched Thinking above");
                    };
                    let other = board.other().index();
                    if !talk.is_empty() {
                        let partner = seat.partner();
                        for t in talk {
                            if log_talk {
                                report(format!(
                                    "match {number} {:.3}s {seat} -> {partner}: {t:?}",
                                    now.as_secs_f64()
                                ));
                            }
                            players[partner.index()].hear(t);
                        }
                        // A sitting partner reconsiders what he was told.
                        if game.game_end(partner.board).is_none()
                            && game.to_move(partner.board) == partner
                        {
                            states[other].wake(now);
                        }
                    }
                    match outcome {
                        Outcome::Move(mv) => match game.play(seat, mv, now) {
                            Ok(_) => {
                                let moves = board_moves(&game, board).len();
                                players[seat.index()].played(mv, moves);
                                states[other].wake(now);
                            }
                            Err(e) => {
                                let msg = format!("{}: move {mv} refused: {e}", name(seat));
                                report(format!("match {number}: {msg}"));
                                notes.push(msg);
                                let _ = game.resign(seat, now);
                            }
                        },
                        Outcome::Sit(recheck) => {
                            let wake = if changed {
                                now
                            } else {
                                match recheck {
                                    Some(r) => now + r.max(MIN_RECHECK),
                                    None => {
                                        states[i] = BoardState::Idle { wake: None };
                                        continue;
                                    }
                                }
                            };
                            states[i] = BoardState::Idle { wake: Some(wake) };
                        }
                        Outcome::Fail(e) => {
                            let msg = format!("{} loses: {e}", name(seat));
                            report(format!("match {number}: {msg}"));
                            notes.push(msg);
                            let _ = game.resign(seat, now);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    Played {
        number,
        team1_as,
        game,
        notes,
    }
}
