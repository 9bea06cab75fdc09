//! The two-board game: seats, teams, reserves crossing boards, clocks, match end and scoring.
//!
//! Teams are WhiteA + BlackB ([`Team::One`]) against BlackA + WhiteB ([`Team::Two`]), as BPGN and
//! FICS have it. A capture on one board goes into the partner's reserve (a promoted piece as a
//! pawn). Moves on both boards keep the single order in which they were made. Time is passed
//! in: core never reads the system clock.

use std::fmt;
use std::time::Duration;

use shakmaty::{Bitboard, Color, Role};

use crate::clock::{BoardClock, TimeControl};
use crate::outcome::{BoardGame, DrawClaim, Verdict};
use crate::position::{IllegalMove, Position};
use crate::rules::{BothFlagsRule, FlagRule, ResignRule, Rules};
use crate::san::SanText;
use crate::types::Move;

pub use crate::seat::{BoardId, Seat, Team};
pub use bughouse_fen::{parse_bughouse_fen, write_bughouse_fen, BughouseFenError};

mod bughouse_fen;
mod draws;

/// The result of one game, from that board's White side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Score {
    /// White won this game.
    WhiteWins,
    /// Black won this game.
    BlackWins,
    /// A draw.
    Draw,
}

impl Score {
    /// A win for `color`.
    pub const fn win(color: Color) -> Score {
        match color {
            Color::White => Score::WhiteWins,
            Color::Black => Score::BlackWins,
        }
    }

    /// The winner, if any.
    pub const fn winner(self) -> Option<Color> {
        match self {
            Score::WhiteWins => Some(Color::White),
            Score::BlackWins => Some(Color::Black),
            Score::Draw => None,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    pub const fn pgn(self) -> &'static str {
        match self {
            Score::WhiteWins => "1-0",
            Score::BlackWins => "0-1",
            Score::Draw => "1/2-1/2",
        }
    }
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// Checkmate.
    Checkmate,
    /// Stalemate (no legal move, no check, and no waiting under the rules).
    Stalemate,
    /// A flag fell and the flagged player lost.
    Flag,
    /// A flag fell but the opponent could never have mated: a draw (M5.2, K11E).
    FlagOpponentCannotMate,
    /// Flags fell on both sides: a draw (M5.5; K11D; U16b).
    BothFlags,
    /// A player resigned.
    Resignation,
    /// A draw was agreed.
    Agreement,
    /// A draw was claimed by repetition (F4.1).
    Repetition,
    /// A draw was claimed under the move-count rule (K11F).
    MoveCount,
    /// The game was stopped because the match ended on the other board (F4.3, M5.1, U7).
    OtherBoard,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::Flag => "flag fall",
            EndReason::FlagOpponentCannotMate => "flag fall, but the opponent could never mate",
            EndReason::BothFlags => "both flags",
            EndReason::Resignation => "resignation",
            EndReason::Agreement => "agreement",
            EndReason::Repetition => "repetition",
            EndReason::MoveCount => "move-count rule",
            EndReason::OtherBoard => "the match ended on the other board",
        })
    }
}

/// How and when one game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GameEnd {
    /// The result of the game, from its White side. A game stopped because the other board
    /// ended the match has no score of its own: it is recorded as a draw with
    /// [`EndReason::OtherBoard`].
    pub score: Score,
    /// Why it ended.
    pub reason: EndReason,
    /// The seat that was mated, flagged, resigned or claimed, if one did.
    pub seat: Option<Seat>,
    /// The moment it ended.
    pub at: Duration,
}

/// The result of the match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MatchResult {
    /// This team won.
    Win(Team),
    /// A draw.
    Draw,
}

impl MatchResult {
    /// `1-0` (WhiteA + BlackB won), `0-1` or `1/2-1/2`, as in BPGN.
    pub const fn pgn(self) -> &'static str {
        match self {
            MatchResult::Win(Team::One) => "1-0",
            MatchResult::Win(Team::Two) => "0-1",
            MatchResult::Draw => "1/2-1/2",
        }
    }
}

/// A move as the match recorded it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedMove {
    /// Who moved.
    pub seat: Seat,
    /// The move.
    pub mv: Move,
    /// Its SAN, with `+` or `#` (inline text: a match keeps one per move).
    pub san: SanText,
    /// That board's move number (`12` in `12A.`).
    pub number: u32,
    /// When it was made.
    pub at: Duration,
    /// The mover's time left after it (increment included).
    pub clock_left: Duration,
}

/// Why the match refused an action.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    /// The clocks have not been started.
    #[error("the match has not started")]
    NotStarted,
    /// The clocks were already started.
    #[error("the match has already started")]
    AlreadyStarted,
    /// The match is over.
    #[error("the match is over")]
    MatchOver,
    /// The game on this board is over (knsb-1988: the other one goes on).
    #[error("the game on board {0} is over")]
    GameOver(BoardId),
    /// It is not this seat's move.
    #[error("it is not {0}'s move")]
    NotYourTurn(Seat),
    /// The move is illegal.
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
    /// Resigning is allowed only on move (K11B).
    #[error("{0} may resign only when it is his move (K11B)")]
    ResignNotOnMove(Seat),
    /// The claimed draw is not available.
    #[error("{seat} cannot claim a draw by {claim} now")]
    NoSuchClaim {
        /// Who claimed.
        seat: Seat,
        /// What was claimed.
        claim: DrawClaim,
    },
}

/// A bughouse match: two boards, four clocks, one record.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use bughouse_core::{BoardId, Match, Rules, Seat, TimeControl};
///
/// let mut m = Match::new(Rules::fide(), TimeControl::default());
/// let t = Duration::ZERO;
/// m.start(t).unwrap();
/// let e4 = m.position(BoardId::A).parse_uci("e2e4").unwrap();
/// m.play(Seat::WHITE_A, e4, t + Duration::from_secs(2)).unwrap();
/// assert_eq!(m.remaining(Seat::WHITE_A, t + Duration::from_secs(10)), Duration::from_secs(298));
/// assert_eq!(m.remaining(Seat::BLACK_A, t + Duration::from_secs(10)), Duration::from_secs(292));
/// ```
#[derive(Debug, Clone)]
pub struct Match {
    rules: Rules,
    time_control: TimeControl,
    /// Both boards at the start, `FEN_A | FEN_B`, when they were not the initial position.
    setup: Option<Box<str>>,
    boards: [BoardGame; 2],
    clocks: [BoardClock; 2],
    started: bool,
    ends: [Option<GameEnd>; 2],
    result: Option<MatchResult>,
    ended_at: Option<Duration>,
    record: Vec<RecordedMove>,
    draw_agreed: [bool; 4],
    flagged: [bool; 4],
    in_flight_used: bool,
}

impl Match {
    /// A match from the start position on both boards.
    pub fn new(rules: Rules, time_control: TimeControl) -> Match {
        Match::build(
            rules,
            time_control,
            [Position::new(rules), Position::new(rules)],
            None,
        )
    }

    /// A match from given positions (their rules are replaced by `rules`' own copies only in
    /// that the positions keep the rules they were built with; build them with `rules`).
    pub fn from_positions(
        rules: Rules,
        time_control: TimeControl,
        positions: [Position; 2],
    ) -> Match {
        let [a, b] = positions;
        let initial = a.is_initial() && b.is_initial();
        let setup = (!initial).then(|| write_bughouse_fen(&a, &b).into_boxed_str());
        Match::build(rules, time_control, [a, b], setup)
    }

    fn build(
        rules: Rules,
        time_control: TimeControl,
        positions: [Position; 2],
        setup: Option<Box<str>>,
    ) -> Match {
        let [a, b] = positions;
        Match {
            rules,
            time_control,
            setup,
            boards: [BoardGame::new(a), BoardGame::new(b)],
            clocks: [
                BoardClock::new(time_control.base),
                BoardClock::new(time_control.base),
            ],
            started: false,
            ends: [None, None],
            result: None,
            ended_at: None,
            record: Vec::new(),
            draw_agreed: [false; 4],
            flagged: [false; 4],
            in_flight_used: false,
        }
    }

    /// Both boards as the match started, `FEN_A | FEN_B`, when it was set up from other
    /// positions than the initial one ([`Match::from_positions`]); a record of the match
    /// carries it as its `FEN` tag.
    pub fn setup_fen(&self) -> Option<&str> {
        self.setup.as_deref()
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The time control.
    pub fn time_control(&self) -> TimeControl {
        self.time_control
    }

    /// The position on `board`.
    pub fn position(&self, board: BoardId) -> &Position {
        self.boards[board.index()].position()
    }

    /// The game (position and repetition history) on `board`.
    pub fn board_game(&self, board: BoardId) -> &BoardGame {
        &self.boards[board.index()]
    }

    /// The clock of `board`.
    pub fn clock(&self, board: BoardId) -> &BoardClock {
        &self.clocks[board.index()]
    }

    /// Every move in the order it was made.
    pub fn record(&self) -> &[RecordedMove] {
        &self.record
    }

    /// Whether the clocks have been started.
    pub fn is_started(&self) -> bool {
        self.started
    }

    /// The match result, once the match is over.
    pub fn result(&self) -> Option<MatchResult> {
        self.result
    }

    /// Whether the match is over.
    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// How the game on `board` ended, if it has.
    pub fn game_end(&self, board: BoardId) -> Option<GameEnd> {
        self.ends[board.index()]
    }

    /// The seat to move on `board`.
    pub fn to_move(&self, board: BoardId) -> Seat {
        Seat::new(board, self.position(board).turn())
    }

    /// The time `seat` has left at `now` (flags that fell before `now` show zero).
    pub fn remaining(&self, seat: Seat, now: Duration) -> Duration {
        self.clocks[seat.board.index()].remaining(seat.color, now)
    }

    /// The verdict of the position on `board` for the player to move.
    pub fn verdict(&self, board: BoardId) -> Verdict {
        self.position(board).verdict()
    }

    /// Points of `team`: 1, ½ or 0 for the match (F, M8.1, U), or under knsb-1988 (K11G) the sum
    /// of its two games, each scored on its own. `None` while the match is not over.
    pub fn points(&self, team: Team) -> Option<f32> {
        let result = self.result?;
        if self.rules.match_ends_with_first_game {
            Some(match result {
                MatchResult::Win(t) if t == team => 1.0,
                MatchResult::Win(_) => 0.0,
                MatchResult::Draw => 0.5,
            })
        } else {
            Some(
                team.seats()
                    .iter()
                    .map(
                        |seat| match self.ends[seat.board.index()].map(|e| e.score) {
                            Some(Score::Draw) => 0.5,
                            Some(s) if s.winner() == Some(seat.color) => 1.0,
                            _ => 0.0,
                        },
                    )
                    .sum(),
            )
        }
    }

    /// Starts all four clocks at `now` (F3.1, M6.4): White's on both boards run.
    ///
    /// # Errors
    ///
    /// [`MatchError::AlreadyStarted`].
    pub fn start(&mut self, now: Duration) -> Result<(), MatchError> {
        if self.started {
            return Err(MatchError::AlreadyStarted);
        }
        self.started = true;
        for board in BoardId::ALL {
            let turn = self.position(board).turn();
            self.clocks[board.index()].start(turn, now);
        }
        Ok(())
    }

    /// Moves every running clock's start forward by `pause`, so that time the server was down is
    /// not charged to the players to move.
    pub fn pause_for(&mut self, pause: Duration) {
        for clock in &mut self.clocks {
            clock.shift(pause);
        }
    }

    /// Restores the time left of `seat` (when loading a stored match).
    pub fn set_remaining(&mut self, seat: Seat, left: Duration) {
        self.clocks[seat.board.index()].set_remaining(seat.color, left);
    }

    /// Applies the flag falls that happened at or before `now`. Call it whenever time passes;
    /// every other action calls it first.
    ///
    /// Returns the boards whose game ended.
    pub fn tick(&mut self, now: Duration) -> Vec<BoardId> {
        let mut ended = Vec::new();
        if !self.started || self.result.is_some() {
            return ended;
        }
        loop {
            // The earliest flag that has fallen, with every other falling at the same instant.
            let mut falls: Vec<(Duration, Seat)> = BoardId::ALL
                .into_iter()
                .filter(|b| self.ends[b.index()].is_none())
                .filter_map(|b| {
                    self.clocks[b.index()]
                        .flag_time()
                        .filter(|&(_, t)| t <= now)
                        .map(|(color, t)| (t, Seat::new(b, color)))
                })
                .collect();
            if falls.is_empty() {
                return ended;
            }
            falls.sort_by_key(|&(t, _)| t);
            let first = falls[0].0;
            falls.retain(|&(t, _)| t == first);
            let mut ends = Vec::new();
            for &(t, seat) in &falls {
                self.flagged[seat.index()] = true;
                self.clocks[seat.board.index()].stop(t);
                ends.push((seat.board, self.flag_verdict(seat, t)));
            }
            if self.rules.both_flags == BothFlagsRule::DrawWhenEachTeamFlagged
                && [Team::One, Team::Two]
                    .iter()
                    .all(|team| team.seats().iter().any(|s| self.flagged[s.index()]))
            {
                // M5.5: at least one clock of each team down, on either board: a draw.
                for end in &mut ends {
                    end.1.score = Score::Draw;
                    end.1.reason = EndReason::BothFlags;
                }
            }
            for (board, end) in ends {
                ended.push(board);
                self.end_game(board, end);
            }
            self.settle(first);
            if self.result.is_some() {
                return ended;
            }
        }
    }

    /// The verdict of a flag fall of `seat` at `at`.
    fn flag_verdict(&self, seat: Seat, at: Duration) -> GameEnd {
        let other_flag_down = self.flagged[seat.opponent().index()];
        let (score, reason) =
            if other_flag_down && self.rules.both_flags == BothFlagsRule::DrawOnSameBoard {
                // K11D, U16b: both flags of this game down.
                (Score::Draw, EndReason::BothFlags)
            } else if self.rules.flag == FlagRule::LossUnlessOpponentCannotMate
                && !self.could_ever_mate(seat.opponent())
            {
                (Score::Draw, EndReason::FlagOpponentCannotMate)
            } else {
                (Score::win(!seat.color), EndReason::Flag)
            };
        GameEnd {
            score,
            reason,
            seat: Some(seat),
            at,
        }
    }

    /// Whether `seat` could mate his opponent by any sequence of legal moves, counting the pieces
    /// on his board, in his reserve, and any he could still receive (M5.2, K11E).
    ///
    /// **interp.** (M5.2, K11E): while the partner's game goes on, any piece of his colour could
    /// still come (F3.7), so he could mate. When it is over (knsb-1988 plays both games out,
    /// K11G), only the material on the board and in the reserves counts, and mate is impossible
    /// exactly when he has no pawn, rook or queen and either no minor piece, or one minor piece
    /// against a bare king with an empty reserve, or only bishops on squares of one colour
    /// against only bishops on the same colour (no reserve pieces on either side).
    pub fn could_ever_mate(&self, seat: Seat) -> bool {
        if self.ends[seat.board.other().index()].is_none() {
            return true;
        }
        could_mate_with_material(self.position(seat.board), seat.color)
    }

    /// Plays `m` for `seat` at `now`.
    ///
    /// Flags that fell before `now` are applied first. A capture goes into the partner's
    /// reserve. The mover's clock is charged and his increment added.
    ///
    /// # Errors
    ///
    /// [`MatchError`] when the match has not started or is over, the game on this board is over,
    /// it is not `seat`'s move, or the move is illegal. Nothing changes then.
    pub fn play(
        &mut self,
        seat: Seat,
        m: Move,
        now: Duration,
    ) -> Result<&RecordedMove, MatchError> {
        if !self.started {
            return Err(MatchError::NotStarted);
        }
        self.tick(now);
        let board = seat.board;
        match self.ends[board.index()] {
            Some(end)
                if end.reason == EndReason::OtherBoard && !self.in_flight_allowed(board, now) =>
            {
                return Err(MatchError::MatchOver)
            }
            Some(end) if end.reason == EndReason::OtherBoard => {}
            Some(_) if self.result.is_some() => return Err(MatchError::MatchOver),
            Some(_) => return Err(MatchError::GameOver(board)),
            None if self.result.is_some() => return Err(MatchError::MatchOver),
            None => {}
        }
        if self.position(board).turn() != seat.color {
            return Err(MatchError::NotYourTurn(seat));
        }
        let in_flight = self.result.is_some();
        let san = SanText::of(self.position(board), m);
        let number = self.position(board).fullmoves();
        let passed = self.boards[board.index()].play(m)?;
        self.in_flight_used |= in_flight;
        if let Some(role) = passed {
            let partner = seat.partner();
            self.boards[partner.board.index()]
                .position_mut()
                .add_to_reserve(partner.color, role);
        }
        let clock = &mut self.clocks[board.index()];
        let clock_left = if clock.running().is_some() {
            clock.press(now, self.time_control.increment)
        } else {
            // F4.4: a move at the instant the match ended; the clock has already stopped.
            clock.remaining(seat.color, now)
        };
        grow_by_chunks(&mut self.record);
        self.record.push(RecordedMove {
            seat,
            mv: m,
            san,
            number,
            at: now,
            clock_left,
        });

        // A move declines a pending draw offer that needed this player's agreement.
        self.lapse_draw_offer(seat);

        let verdict = self.position(board).verdict();
        let end = match verdict {
            Verdict::Checkmate => Some((Score::win(seat.color), EndReason::Checkmate)),
            Verdict::Stalemate => Some((Score::Draw, EndReason::Stalemate)),
            Verdict::Ongoing | Verdict::Waiting => None,
        };
        if let Some((score, reason)) = end {
            self.end_game(
                board,
                GameEnd {
                    score,
                    reason,
                    seat: Some(seat.opponent()),
                    at: now,
                },
            );
            self.settle(now);
        }
        Ok(self.record.last().expect("a move was just recorded"))
    }

    /// F4.3, F4.4: at the very instant the match ends on one board, the player to move on the
    /// other board may still complete the one move he is making. If it ends his game too, both
    /// games ended simultaneously and F4.3 decides; otherwise the result stands.
    fn in_flight_allowed(&self, board: BoardId, now: Duration) -> bool {
        if self.in_flight_used
            || self.ended_at != Some(now)
            || !self.rules.match_ends_with_first_game
        {
            return false;
        }
        self.ends[board.other().index()]
            .is_some_and(|e| e.at == now && e.reason != EndReason::OtherBoard)
    }

    /// When the match ended, if it has.
    pub fn ended_at(&self) -> Option<Duration> {
        self.ended_at
    }

    fn end_game(&mut self, board: BoardId, end: GameEnd) {
        let was_other_board_stop =
            self.ends[board.index()].is_some_and(|e| e.reason == EndReason::OtherBoard);
        if self.ends[board.index()].is_some() && !was_other_board_stop {
            return;
        }
        self.clocks[board.index()].stop(end.at);
        self.ends[board.index()] = Some(end);
    }

    /// Decides the match from the games that have ended, at `now`.
    fn settle(&mut self, now: Duration) {
        let [a, b] = self.ends;
        if self.rules.match_ends_with_first_game {
            let decided: Vec<(BoardId, GameEnd)> = BoardId::ALL
                .into_iter()
                .filter_map(|id| {
                    self.ends[id.index()]
                        .filter(|e| e.reason != EndReason::OtherBoard)
                        .map(|e| (id, e))
                })
                .collect();
            let result = match decided.as_slice() {
                [] => return,
                [(id, end)] => game_to_match(*id, end.score),
                [(ia, ea), (ib, eb)] => {
                    if ea.at != eb.at {
                        // The earlier game decided (F4.3); the later one cannot have been
                        // accepted, except at the same instant.
                        if ea.at < eb.at {
                            game_to_match(*ia, ea.score)
                        } else {
                            game_to_match(*ib, eb.score)
                        }
                    } else {
                        // F4.3, F4.4: both ended at once. The same team won both: it wins;
                        // otherwise a draw.
                        match (game_to_match(*ia, ea.score), game_to_match(*ib, eb.score)) {
                            (MatchResult::Win(x), MatchResult::Win(y)) if x == y => {
                                MatchResult::Win(x)
                            }
                            _ => MatchResult::Draw,
                        }
                    }
                }
                _ => return,
            };
            self.result = Some(result);
            if self.ended_at.is_none() {
                self.ended_at = Some(now);
            }
            for board in BoardId::ALL {
                if self.ends[board.index()].is_none() {
                    self.clocks[board.index()].stop(now);
                    self.ends[board.index()] = Some(GameEnd {
                        score: Score::Draw,
                        reason: EndReason::OtherBoard,
                        seat: None,
                        at: now,
                    });
                }
            }
        } else if let (Some(ea), Some(eb)) = (a, b) {
            // K11G: the match ends when both games have ended; each scores on its own.
            let one = score_for(Team::One, BoardId::A, ea.score)
                + score_for(Team::One, BoardId::B, eb.score);
            self.result = Some(if one > 1.0 {
                MatchResult::Win(Team::One)
            } else if one < 1.0 {
                MatchResult::Win(Team::Two)
            } else {
                MatchResult::Draw
            });
            self.ended_at = Some(now);
        }
    }

    /// `seat` resigns at `now`: his game is lost (and under the first-game rule, the match).
    ///
    /// # Errors
    ///
    /// [`MatchError::ResignNotOnMove`] under K11B when it is not his move; match or game over.
    pub fn resign(&mut self, seat: Seat, now: Duration) -> Result<(), MatchError> {
        self.check_can_act(seat, now)?;
        if self.rules.resign == ResignRule::OnMove && self.position(seat.board).turn() != seat.color
        {
            return Err(MatchError::ResignNotOnMove(seat));
        }
        self.end_game(
            seat.board,
            GameEnd {
                score: Score::win(!seat.color),
                reason: EndReason::Resignation,
                seat: Some(seat),
                at: now,
            },
        );
        self.settle(now);
        Ok(())
    }

    fn check_can_act(&mut self, seat: Seat, now: Duration) -> Result<(), MatchError> {
        if !self.started {
            return Err(MatchError::NotStarted);
        }
        self.tick(now);
        if self.result.is_some() {
            return Err(MatchError::MatchOver);
        }
        if self.ends[seat.board.index()].is_some() {
            return Err(MatchError::GameOver(seat.board));
        }
        Ok(())
    }
}

/// Whether `color` could mate on `pos` with only the material on the board and in the reserves
/// (no piece still to come): the second half of [`Match::could_ever_mate`], also asked by the
/// over-the-board scoresheet (`otb`).
pub(crate) fn could_mate_with_material(pos: &Position, color: Color) -> bool {
    let b = pos.board();
    let ours = b.by_color(color);
    let theirs = b.by_color(!color);
    let our_reserve = pos.reserve(color);
    let their_reserve = pos.reserve(!color);
    let heavy = (b.pawns() | b.rooks() | b.queens()) & ours;
    if heavy.any()
        || our_reserve.count(Role::Pawn) > 0
        || our_reserve.count(Role::Rook) > 0
        || our_reserve.count(Role::Queen) > 0
    {
        return true;
    }
    let minors = ((b.knights() | b.bishops()) & ours).count()
        + usize::from(our_reserve.count(Role::Knight))
        + usize::from(our_reserve.count(Role::Bishop));
    if minors == 0 {
        return false;
    }
    let their_bare = (theirs & !b.kings()).is_empty() && their_reserve.is_empty();
    if minors == 1 && their_bare {
        return false;
    }
    let all_bishops = b.bishops() & (ours | theirs);
    let only_bishops = (b.occupied() & !b.kings()) == all_bishops;
    if only_bishops
        && our_reserve.is_empty()
        && their_reserve.is_empty()
        && (all_bishops.is_subset(Bitboard::DARK_SQUARES)
            || all_bishops.is_subset(Bitboard::LIGHT_SQUARES))
    {
        return false;
    }
    true
}

fn game_to_match(board: BoardId, score: Score) -> MatchResult {
    match score.winner() {
        None => MatchResult::Draw,
        Some(color) => MatchResult::Win(Seat::new(board, color).team()),
    }
}

fn score_for(team: Team, board: BoardId, score: Score) -> f32 {
    match score.winner() {
        None => 0.5,
        Some(color) if Seat::new(board, color).team() == team => 1.0,
        Some(_) => 0.0,
    }
}

/// How many entries a match's per-move list grows by when full.
const RECORD_CHUNK: usize = 64;

/// Makes room for one more entry by a chunk at a time instead of doubling: a server keeps
/// thousands of matches' records for their whole length, and doubling leaves a quarter of each
/// unused on average (half just after it grew). Copying a record every 64 moves costs little.
pub(crate) fn grow_by_chunks<T>(list: &mut Vec<T>) {
    if list.len() == list.capacity() {
        list.reserve_exact(RECORD_CHUNK);
    }
}

#[cfg(test)]
mod chunk_tests {
    use super::*;

    #[test]
    fn per_move_lists_grow_by_chunks_not_by_doubling() {
        let mut list: Vec<u64> = Vec::new();
        for i in 0..300 {
            grow_by_chunks(&mut list);
            list.push(i);
            // Never more than one chunk unused (doubling would leave 212 of 512 at 300).
            assert!(
                list.capacity() - list.len() < RECORD_CHUNK,
                "{}",
                list.capacity()
            );
        }
        assert_eq!(list.capacity(), 320);
    }
}
