//! One over-the-board table: the clocks, the events in the order they happened, the decisions
//! taken on them, and the games' and match's results. Time is passed in with every event (the
//! table's own clock, such as the tablet's): core never reads the clock.

use std::time::Duration;

use crate::clock::TimeControl;
use crate::game::{BoardId, MatchResult, Score, Seat, Team};

use super::article::{Article, Rulebook};
use super::claim::{Claim, Consequence, Decision, Ruling};
use super::clock::{ClockError, TableClock};
use super::decide::{self, EngineFacts, Facts};
use super::scoresheet::{Scoresheet, ScoresheetError};
use crate::types::Move;

/// Something that happened at the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Event {
    /// The Black players start both clocks (M6.4; F3.1).
    Start,
    /// `seat` completed a move and pressed his clock.
    Press(Seat),
    /// The clocks are stopped for the arbiter (F3.12, M10.1, K15, U18).
    Pause,
    /// The clocks run again.
    Resume,
    /// A player's claim or declaration.
    Claim(Claim),
    /// The arbiter's ruling on a board.
    Ruling {
        /// The board.
        board: BoardId,
        /// What he rules.
        ruling: Ruling,
    },
    /// The arbiter declares `seat`'s game lost (K8F, or as he decides where the rulebook is
    /// silent).
    Forfeit {
        /// The loser.
        seat: Seat,
        /// Whether the arbiter finds the illegal move deliberate (K8F).
        deliberate: bool,
    },
    /// Nothing but the time: lets the table see flags fall (M5.5 is declared at once).
    Observe,
    /// The scorer enters a move of `seat` on the scoresheet.
    Move(Seat, Move),
}

/// What an entry of the record is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EntryKind {
    /// An event given to the table.
    Event(Event),
    /// A flag fell (seen by the table's clock).
    FlagFell(Seat),
}

/// One entry of the table's record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// When it happened, on the table's clock.
    pub at: Duration,
    /// What happened.
    pub kind: EntryKind,
    /// The decisions taken on it, with their articles.
    pub decisions: Vec<Decision>,
}

/// How one game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TableGameEnd {
    /// The score, from the board's White side.
    pub score: Score,
    /// The article that decided it.
    pub article: Article,
    /// When.
    pub at: Duration,
}

/// Why the table refused an event.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The clocks refused it.
    #[error(transparent)]
    Clock(#[from] ClockError),
    /// The scoresheet refused the move.
    #[error(transparent)]
    Scoresheet(#[from] ScoresheetError),
    /// The match is over.
    #[error("the match is over")]
    MatchOver,
}

/// An over-the-board table.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use bughouse_core::otb::{Article, Claim, Consequence, Event, Rulebook, Table};
/// use bughouse_core::{Seat, TimeControl};
///
/// let tc = TimeControl { base: Duration::from_secs(3), increment: Duration::ZERO };
/// let mut table = Table::new(Rulebook::Knsb1988, tc);
/// table.apply(Event::Start, Duration::ZERO).unwrap();
/// // White on board A lets his flag fall; Black claims it (K11A2).
/// let claim = Event::Claim(Claim::Flag { claimant: Seat::BLACK_A });
/// let entries = table.apply(claim, Duration::from_secs(5)).unwrap();
/// // Both White flags fell at 3 s (two entries), then the claim.
/// let decision = entries[2].decisions[0];
/// assert_eq!(decision.article, Article::K11A2);
/// assert_eq!(decision.consequence, Consequence::Win { seat: Seat::BLACK_A });
/// ```
#[derive(Debug, Clone)]
pub struct Table {
    book: Rulebook,
    clock: TableClock,
    ends: [Option<TableGameEnd>; 2],
    result: Option<MatchResult>,
    illegal_moves: [u32; 4],
    record: Vec<Entry>,
    sheet: Scoresheet,
    /// Each seat's clock left after each of his presses, in order.
    pressed: [Vec<Duration>; 4],
}

impl Table {
    /// A table with the clocks set and not started.
    pub fn new(book: Rulebook, time_control: TimeControl) -> Table {
        Table {
            book,
            clock: TableClock::new(time_control),
            ends: [None; 2],
            result: None,
            illegal_moves: [0; 4],
            record: Vec::new(),
            sheet: Scoresheet::new(book.rules()),
            pressed: Default::default(),
        }
    }

    /// The scoresheet (empty unless a scorer enters moves).
    pub fn scoresheet(&self) -> &Scoresheet {
        &self.sheet
    }

    /// The rulebook.
    pub fn rulebook(&self) -> Rulebook {
        self.book
    }

    /// The clocks.
    pub fn clock(&self) -> &TableClock {
        &self.clock
    }

    /// How the game on `board` ended, if it has.
    pub fn game_end(&self, board: BoardId) -> Option<TableGameEnd> {
        self.ends[board.index()]
    }

    /// The match result, once the match is over.
    pub fn result(&self) -> Option<MatchResult> {
        self.result
    }

    /// How many illegal moves of `seat` were upheld.
    pub fn illegal_moves(&self, seat: Seat) -> u32 {
        self.illegal_moves[seat.index()]
    }

    /// The mover's clock after each scoresheet move, in the scoresheet's order: what his clock
    /// showed when he pressed it for that move (his n-th move goes with his n-th press), `None`
    /// while he has not pressed for it.
    pub fn move_clocks(&self) -> Vec<Option<Duration>> {
        let mut seen = [0usize; 4];
        self.sheet
            .moves()
            .iter()
            .map(|m| {
                let i = m.seat.index();
                let left = self.pressed[i].get(seen[i]).copied();
                seen[i] += 1;
                left
            })
            .collect()
    }

    /// Every entry, in order.
    pub fn record(&self) -> &[Entry] {
        &self.record
    }

    /// Points of `team`: 1, ½ or 0 for the match (F4.3, M8.1, U7), or under K11G the sum of its
    /// two games. `None` while the match is not over.
    pub fn points(&self, team: Team) -> Option<f32> {
        let result = self.result?;
        if self.book.match_ends_with_first_game() {
            return Some(match result {
                MatchResult::Win(t) if t == team => 1.0,
                MatchResult::Win(_) => 0.0,
                MatchResult::Draw => 0.5,
            });
        }
        Some(
            team.seats()
                .iter()
                .map(|seat| {
                    let score = self.ends[seat.board.index()].map(|e| e.score);
                    match score {
                        Some(Score::Draw) => 0.5,
                        Some(s) if s.winner() == Some(seat.color) => 1.0,
                        _ => 0.0,
                    }
                })
                .sum(),
        )
    }

    /// Applies `event` at `at` with no moves known. Returns the new entries of the record: the
    /// flags that fell since the last event, then the event itself (an [`Event::Observe`] is
    /// not recorded).
    ///
    /// # Errors
    ///
    /// [`TableError`]: the match is over, or the clocks refuse (not started, paused, not this
    /// seat's move, time going backwards). Nothing changes then.
    pub fn apply(&mut self, event: Event, at: Duration) -> Result<Vec<Entry>, TableError> {
        self.apply_with(event, at, None)
    }

    /// Applies `event` at `at`; `engine` answers what the moves decide (by default the table's
    /// own scoresheet, once a move was entered). Flags that fell before `at` are recorded first,
    /// each with its decisions (M5.5).
    ///
    /// # Errors
    ///
    /// As [`Table::apply`].
    pub fn apply_with(
        &mut self,
        event: Event,
        at: Duration,
        engine: Option<&EngineFacts>,
    ) -> Result<Vec<Entry>, TableError> {
        if at < self.clock.last() {
            return Err(ClockError::Backwards {
                at,
                last: self.clock.last(),
            }
            .into());
        }
        if self.result.is_some() {
            return Err(TableError::MatchOver);
        }
        // Check the clock action on a copy first, so that a refused event changes nothing.
        let mut probe = self.clock.clone();
        match event {
            Event::Start => probe.start(at)?,
            Event::Press(seat) => {
                probe.press(seat, at)?;
            }
            Event::Pause => probe.pause(at)?,
            Event::Resume => probe.resume(at)?,
            Event::Move(seat, mv) => {
                let mut sheet = self.sheet.clone();
                sheet.enter(seat, mv, at)?;
            }
            Event::Claim(_) | Event::Ruling { .. } | Event::Forfeit { .. } | Event::Observe => {}
        }
        let own = (engine.is_none() && !self.sheet.is_empty()).then(|| self.sheet.facts());
        let engine = engine.or(own.as_ref());
        let first_new = self.record.len();
        self.observe(at)?;
        if event == Event::Observe {
            return Ok(self.record[first_new..].to_vec());
        }
        if self.result.is_some() {
            // A flag fall just ended the match (M5.5): the event comes too late.
            let entry = Entry {
                at,
                kind: EntryKind::Event(event),
                decisions: vec![Decision::refused(
                    self.book.match_end_article(),
                    super::claim::Refusal::GameOver,
                )],
            };
            self.record.push(entry);
            return Ok(self.record[first_new..].to_vec());
        }
        let decisions = match event {
            Event::Start => {
                self.clock.start(at)?;
                vec![Decision::new(
                    self.book.start_article(),
                    Consequence::Started,
                )]
            }
            Event::Press(seat) => {
                let left = self.clock.press(seat, at)?;
                self.pressed[seat.index()].push(left);
                Vec::new()
            }
            Event::Pause => {
                self.clock.pause(at)?;
                vec![Decision::new(
                    decide::pause_article(self.book),
                    Consequence::Paused,
                )]
            }
            Event::Resume => {
                self.clock.resume(at)?;
                vec![Decision::new(
                    decide::pause_article(self.book),
                    Consequence::Resumed,
                )]
            }
            Event::Observe => Vec::new(),
            Event::Move(seat, mv) => {
                self.sheet.enter(seat, mv, at)?;
                Vec::new()
            }
            Event::Claim(claim) => {
                let decisions = decide::decide(claim, &self.facts(engine));
                self.carry_out(&decisions, Some(claim), at)
            }
            Event::Ruling { board, ruling } => {
                let decision = decide::ruling(board, ruling, &self.facts(engine));
                self.carry_out(&[decision], None, at)
            }
            Event::Forfeit { seat, deliberate } => {
                let decision = decide::forfeit(seat, deliberate, &self.facts(engine));
                self.carry_out(&[decision], None, at)
            }
        };
        self.record.push(Entry {
            at,
            kind: EntryKind::Event(event),
            decisions,
        });
        Ok(self.record[first_new..].to_vec())
    }

    fn facts<'a>(&'a self, engine: Option<&'a EngineFacts>) -> Facts<'a> {
        Facts {
            book: self.book,
            clock: &self.clock,
            ended: [self.ends[0].is_some(), self.ends[1].is_some()],
            illegal_moves: self.illegal_moves,
            engine,
        }
    }

    /// Records the flags fallen by `at`; under M5.5 declares the draw as soon as a clock of
    /// each team is down (M10.2: at once, without a claim).
    fn observe(&mut self, at: Duration) -> Result<(), ClockError> {
        let fell = self.clock.observe(at)?;
        for (seat, fell_at) in fell {
            if self.result.is_some() || self.ends[seat.board.index()].is_some() {
                continue;
            }
            let mut decisions = Vec::new();
            if self.book == Rulebook::Minerva2014 {
                let team_down = |team: Team| {
                    team.seats()
                        .iter()
                        .any(|&s| self.clock.flag(s).is_some_and(|t| t <= fell_at))
                };
                if team_down(Team::One) && team_down(Team::Two) {
                    let draw = Decision::new(Article::M5_5, Consequence::DrawBoth);
                    decisions = self.carry_out(&[draw], None, fell_at);
                }
            }
            self.record.push(Entry {
                at: fell_at,
                kind: EntryKind::FlagFell(seat),
                decisions,
            });
        }
        Ok(())
    }

    /// Carries out `decisions` at `at`; returns them with the match's end appended if they
    /// ended it.
    fn carry_out(
        &mut self,
        decisions: &[Decision],
        claim: Option<Claim>,
        at: Duration,
    ) -> Vec<Decision> {
        let mut out = decisions.to_vec();
        for d in decisions {
            match d.consequence {
                Consequence::Win { .. }
                | Consequence::Forfeit { .. }
                | Consequence::Draw { .. } => {
                    if let Some((board, score)) = d.game_score() {
                        self.end_game(board, score, d.article, at);
                    }
                }
                Consequence::DrawBoth => {
                    for board in BoardId::ALL {
                        self.end_game(board, Score::Draw, d.article, at);
                    }
                }
                Consequence::ReplaceMove { offender, .. } => {
                    self.illegal_moves[offender.index()] += 1;
                    // M7.6, K8C: the claimant starts the offender's clock without moving. A
                    // claim while paused leaves the offender on turn when play resumes.
                    if let Some(Claim::IllegalMove { claimant, .. }) = claim {
                        if self.clock.is_paused() {
                            continue;
                        }
                        let _ = self.clock.hand_back(claimant, at);
                    }
                }
                Consequence::RestartBoth => {
                    self.clock.reset();
                    self.ends = [None; 2];
                    self.illegal_moves = [0; 4];
                }
                Consequence::RestartGame { board } => {
                    self.clock.reset_board(board, at);
                    self.ends[board.index()] = None;
                }
                Consequence::Started
                | Consequence::ForfeitPossible { .. }
                | Consequence::TakeBack { .. }
                | Consequence::PlayOn
                | Consequence::Paused
                | Consequence::Resumed
                | Consequence::ArbiterDecides
                | Consequence::MatchOver(_)
                | Consequence::Refused(_) => {}
            }
        }
        if let Some(result) = self.settle(at) {
            out.push(Decision::new(
                self.book.match_end_article(),
                Consequence::MatchOver(result),
            ));
        }
        out
    }

    fn end_game(&mut self, board: BoardId, score: Score, article: Article, at: Duration) {
        if self.ends[board.index()].is_some() {
            return;
        }
        self.clock.stop_board(board, at);
        self.ends[board.index()] = Some(TableGameEnd { score, article, at });
    }

    /// Decides the match from the games ended, if it is over now.
    fn settle(&mut self, at: Duration) -> Option<MatchResult> {
        if self.result.is_some() {
            return None;
        }
        let result = if self.book.match_ends_with_first_game() {
            // F4.3, M5.1, U7: the first game to end decides; the other board stops.
            let (board, end) = BoardId::ALL
                .into_iter()
                .filter_map(|b| self.ends[b.index()].map(|e| (b, e)))
                .min_by_key(|(_, e)| e.at)?;
            let result = match end.score.winner() {
                None => MatchResult::Draw,
                Some(color) => MatchResult::Win(Seat::new(board, color).team()),
            };
            for b in BoardId::ALL {
                self.clock.stop_board(b, at);
            }
            result
        } else {
            // K11G: both games must have ended; each scores on its own.
            let [Some(a), Some(b)] = self.ends else {
                return None;
            };
            let one = game_points(Team::One, BoardId::A, a.score)
                + game_points(Team::One, BoardId::B, b.score);
            if one > 1.0 {
                MatchResult::Win(Team::One)
            } else if one < 1.0 {
                MatchResult::Win(Team::Two)
            } else {
                MatchResult::Draw
            }
        };
        self.result = Some(result);
        Some(result)
    }
}

fn game_points(team: Team, board: BoardId, score: Score) -> f32 {
    match score.winner() {
        None => 0.5,
        Some(color) if Seat::new(board, color).team() == team => 1.0,
        Some(_) => 0.0,
    }
}
