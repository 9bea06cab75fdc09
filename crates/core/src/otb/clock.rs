//! The table clock: the two chess clocks of an over-the-board match, four faces, with time
//! passed in. It knows who pressed, when flags fell, and pauses for the arbiter; it decides
//! nothing (see [`super::Table`]).

use std::time::Duration;

use shakmaty::Color;

use crate::clock::{BoardClock, TimeControl};
use crate::game::{BoardId, Seat};

/// Why the clock refused an action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    /// The clocks have not been started.
    #[error("the clocks have not been started")]
    NotStarted,
    /// The clocks were already started.
    #[error("the clocks have already been started")]
    AlreadyStarted,
    /// The clocks are paused for the arbiter.
    #[error("the clocks are paused")]
    Paused,
    /// The clocks are not paused.
    #[error("the clocks are not paused")]
    NotPaused,
    /// This seat's clock is not running: it is not his move.
    #[error("{0}'s clock is not running: it is not his move")]
    NotRunning(Seat),
    /// The game on this board is over and its clock stopped.
    #[error("the game on board {0} is over")]
    Stopped(BoardId),
    /// A time earlier than the last one the clock saw.
    #[error("time went backwards: {at:?} is before {last:?}")]
    Backwards {
        /// The time given.
        at: Duration,
        /// The last time seen.
        last: Duration,
    },
}

/// The two clocks of a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableClock {
    time_control: TimeControl,
    clocks: [BoardClock; 2],
    started: bool,
    /// Since when the clocks are paused, and which side ran on each board then.
    paused: Option<(Duration, [Option<Color>; 2])>,
    /// Boards whose clock is stopped for good (game over).
    stopped: [bool; 2],
    /// When each seat's flag fell (WhiteA, BlackA, WhiteB, BlackB).
    flags: [Option<Duration>; 4],
    /// How many times each seat pressed.
    presses: [u32; 4],
    last: Duration,
}

impl TableClock {
    /// Both clocks set to the time control, not running.
    pub fn new(time_control: TimeControl) -> TableClock {
        TableClock {
            time_control,
            clocks: [
                BoardClock::new(time_control.base),
                BoardClock::new(time_control.base),
            ],
            started: false,
            paused: None,
            stopped: [false; 2],
            flags: [None; 4],
            presses: [0; 4],
            last: Duration::ZERO,
        }
    }

    /// The time control.
    pub fn time_control(&self) -> TimeControl {
        self.time_control
    }

    /// Whether the clocks were started.
    pub fn is_started(&self) -> bool {
        self.started
    }

    /// Whether the clocks are paused.
    pub fn is_paused(&self) -> bool {
        self.paused.is_some()
    }

    /// Whose clock runs on `board`, if any (none while paused or stopped).
    pub fn running(&self, board: BoardId) -> Option<Seat> {
        self.clocks[board.index()]
            .running()
            .map(|c| Seat::new(board, c))
    }

    /// Whose clock will run on `board` when the clocks are resumed, or runs now.
    pub fn on_turn(&self, board: BoardId) -> Option<Seat> {
        match self.paused {
            Some((_, sides)) => sides[board.index()].map(|c| Seat::new(board, c)),
            None => self.running(board),
        }
    }

    /// The time `seat` has left at `now`.
    pub fn remaining(&self, seat: Seat, now: Duration) -> Duration {
        self.clocks[seat.board.index()].remaining(seat.color, now)
    }

    /// When `seat`'s flag fell, as far as [`TableClock::observe`] has seen.
    pub fn flag(&self, seat: Seat) -> Option<Duration> {
        self.flags[seat.index()]
    }

    /// How many times `seat` has pressed his clock (completed a move).
    pub fn presses(&self, seat: Seat) -> u32 {
        self.presses[seat.index()]
    }

    /// Whether the clock of `board` is stopped for good.
    pub fn is_stopped(&self, board: BoardId) -> bool {
        self.stopped[board.index()]
    }

    /// The last time the clock saw.
    pub fn last(&self) -> Duration {
        self.last
    }

    /// Records the flags that fell at or before `now`; returns the seats whose flag fell now,
    /// earliest first, with the moment it fell.
    ///
    /// # Errors
    ///
    /// [`ClockError::Backwards`] when `now` is before a time already seen.
    pub fn observe(&mut self, now: Duration) -> Result<Vec<(Seat, Duration)>, ClockError> {
        if now < self.last {
            return Err(ClockError::Backwards {
                at: now,
                last: self.last,
            });
        }
        self.last = now;
        let mut fell = Vec::new();
        for board in BoardId::ALL {
            if let Some((color, at)) = self.clocks[board.index()].flag_time() {
                let seat = Seat::new(board, color);
                if at <= now && self.flags[seat.index()].is_none() {
                    self.flags[seat.index()] = Some(at);
                    fell.push((seat, at));
                }
            }
        }
        fell.sort_by_key(|&(_, at)| at);
        Ok(fell)
    }

    /// Starts both clocks at `now`: White's runs on both boards (F3.1; M6.4, the Black players
    /// press).
    ///
    /// # Errors
    ///
    /// [`ClockError::AlreadyStarted`].
    pub fn start(&mut self, now: Duration) -> Result<(), ClockError> {
        if self.started {
            return Err(ClockError::AlreadyStarted);
        }
        self.observe(now)?;
        self.started = true;
        for clock in &mut self.clocks {
            clock.start(Color::White, now);
        }
        Ok(())
    }

    /// `seat` presses his clock at `now`: his time is charged (a fallen flag stays at zero), the
    /// increment added, and his opponent's clock starts.
    ///
    /// # Errors
    ///
    /// Not started, paused, that board stopped, or `seat`'s clock not running.
    pub fn press(&mut self, seat: Seat, now: Duration) -> Result<Duration, ClockError> {
        self.check_running(seat.board)?;
        if self.running(seat.board) != Some(seat) {
            return Err(ClockError::NotRunning(seat));
        }
        self.observe(now)?;
        let increment = if self.flags[seat.index()].is_some() {
            Duration::ZERO
        } else {
            self.time_control.increment
        };
        let left = self.clocks[seat.board.index()].press(now, increment);
        self.presses[seat.index()] += 1;
        Ok(left)
    }

    /// `seat`'s opponent's clock is started instead of `seat`'s, without a move: the opponent is
    /// to replace an illegal move (M7.6, K8C).
    ///
    /// # Errors
    ///
    /// Not started, paused, that board stopped, or `seat`'s clock not running.
    pub fn hand_back(&mut self, seat: Seat, now: Duration) -> Result<(), ClockError> {
        self.check_running(seat.board)?;
        if self.running(seat.board) != Some(seat) {
            return Err(ClockError::NotRunning(seat));
        }
        self.observe(now)?;
        let clock = &mut self.clocks[seat.board.index()];
        clock.stop(now);
        clock.start(!seat.color, now);
        Ok(())
    }

    /// Stops all clocks at `now` (F3.12, U18).
    ///
    /// # Errors
    ///
    /// Not started, or already paused.
    pub fn pause(&mut self, now: Duration) -> Result<(), ClockError> {
        if !self.started {
            return Err(ClockError::NotStarted);
        }
        if self.paused.is_some() {
            return Err(ClockError::Paused);
        }
        self.observe(now)?;
        let mut sides = [None; 2];
        for board in BoardId::ALL {
            let clock = &mut self.clocks[board.index()];
            sides[board.index()] = clock.running();
            clock.stop(now);
        }
        self.paused = Some((now, sides));
        Ok(())
    }

    /// Restarts at `now` the clocks that ran when they were paused.
    ///
    /// # Errors
    ///
    /// [`ClockError::NotPaused`].
    pub fn resume(&mut self, now: Duration) -> Result<(), ClockError> {
        let Some((_, sides)) = self.paused else {
            return Err(ClockError::NotPaused);
        };
        self.observe(now)?;
        self.paused = None;
        for board in BoardId::ALL {
            if let (Some(color), false) = (sides[board.index()], self.stopped[board.index()]) {
                self.clocks[board.index()].start(color, now);
            }
        }
        Ok(())
    }

    /// Stops the clock of `board` for good at `now` (its game is over).
    pub fn stop_board(&mut self, board: BoardId, now: Duration) {
        self.clocks[board.index()].stop(now);
        if let Some((_, sides)) = &mut self.paused {
            sides[board.index()] = None;
        }
        self.stopped[board.index()] = true;
    }

    /// Sets both clocks back to the time control, not started, with no flags and no presses
    /// (both games restart, M7.1, M7.2).
    pub fn reset(&mut self) {
        let last = self.last;
        *self = TableClock::new(self.time_control);
        self.last = last;
    }

    /// Sets the clock of `board` back to the time control with White to move, running at `now`
    /// if the other clocks run (one game restarts, U8b).
    pub fn reset_board(&mut self, board: BoardId, now: Duration) {
        let mut clock = BoardClock::new(self.time_control.base);
        for color in [Color::White, Color::Black] {
            let seat = Seat::new(board, color);
            self.flags[seat.index()] = None;
            self.presses[seat.index()] = 0;
        }
        match &mut self.paused {
            Some((_, sides)) => sides[board.index()] = Some(Color::White),
            None if self.started => clock.start(Color::White, now),
            None => {}
        }
        self.clocks[board.index()] = clock;
        self.stopped[board.index()] = false;
    }

    fn check_running(&self, board: BoardId) -> Result<(), ClockError> {
        if !self.started {
            return Err(ClockError::NotStarted);
        }
        if self.paused.is_some() {
            return Err(ClockError::Paused);
        }
        if self.stopped[board.index()] {
            return Err(ClockError::Stopped(board));
        }
        Ok(())
    }
}
