//! Clock arithmetic for the two boards, with time passed in: core never reads the system clock.
//!
//! Times are [`Duration`]s since any fixed epoch the caller chooses (the server uses a monotonic
//! clock; tests use a fake one). All four clocks start together (F3.1, M6.4); on each board only
//! the clock of the player to move runs.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use shakmaty::Color;

/// Base time plus increment (Fischer). The default is 5 minutes and no increment (M6.3, U4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TimeControl {
    /// The time each player has at the start.
    pub base: Duration,
    /// The time added after each of his moves.
    pub increment: Duration,
}

impl Default for TimeControl {
    fn default() -> TimeControl {
        TimeControl {
            base: Duration::from_secs(300),
            increment: Duration::ZERO,
        }
    }
}

impl fmt::Display for TimeControl {
    /// Minutes and seconds of increment, `5+0`; a base that is not a whole number of minutes is
    /// written in seconds with an `s` (`90s+2`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let base = self.base.as_secs();
        if base.is_multiple_of(60) && self.base.subsec_nanos() == 0 {
            write!(f, "{}+{}", base / 60, self.increment.as_secs())
        } else {
            write!(f, "{}s+{}", base, self.increment.as_secs())
        }
    }
}

/// The longest base time a time control may have (10,000 minutes, in minutes or seconds):
/// clocks this long fit every sum of times a match makes.
const MAX_BASE: Duration = Duration::from_secs(600_000);
/// The longest increment, in seconds (an hour).
const MAX_INCREMENT_SECS: u64 = 3600;

/// A time control that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid time control {0:?}: expected MINUTES+SECONDS like 5+0 or 3+2, or SECONDSs+SECONDS like 90s+2")]
pub struct ParseTimeControlError(pub String);

impl FromStr for TimeControl {
    type Err = ParseTimeControlError;

    /// Reads `5+0` and `3+2` (minutes and seconds of increment), `0.5+1` and `90s+2` (seconds).
    fn from_str(s: &str) -> Result<TimeControl, ParseTimeControlError> {
        let err = || ParseTimeControlError(s.to_owned());
        let (base, inc) = s.trim().split_once('+').unwrap_or((s.trim(), "0"));
        let inc: u64 = inc.trim().parse().map_err(|_| err())?;
        let base = if let Some(secs) = base.strip_suffix('s') {
            Duration::from_secs(secs.parse().map_err(|_| err())?)
        } else {
            let minutes: f64 = base.parse().map_err(|_| err())?;
            if !(0.0..=MAX_BASE.as_secs_f64() / 60.0).contains(&minutes) {
                return Err(err());
            }
            Duration::from_secs_f64(minutes * 60.0)
        };
        if base.is_zero() || base > MAX_BASE || inc > MAX_INCREMENT_SECS {
            return Err(err());
        }
        Ok(TimeControl {
            base,
            increment: Duration::from_secs(inc),
        })
    }
}

/// The clock of one board: the time left of both players and, while running, when the clock of
/// the player to move was started.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BoardClock {
    remaining: [Duration; 2],
    /// The running side and the moment its clock was last started.
    running: Option<(Color, Duration)>,
}

fn idx(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl BoardClock {
    /// A stopped clock with `base` for both players.
    pub fn new(base: Duration) -> BoardClock {
        BoardClock {
            remaining: [base; 2],
            running: None,
        }
    }

    /// Starts the clock of `color` at `now`.
    pub fn start(&mut self, color: Color, now: Duration) {
        self.running = Some((color, now));
    }

    /// Stops the clock at `now`, charging the running side.
    pub fn stop(&mut self, now: Duration) {
        if let Some((color, since)) = self.running.take() {
            let r = &mut self.remaining[idx(color)];
            *r = r.saturating_sub(now.saturating_sub(since));
        }
    }

    /// Whether a clock is running, and whose.
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(c, _)| c)
    }

    /// The time `color` has left at `now`.
    pub fn remaining(&self, color: Color, now: Duration) -> Duration {
        let r = self.remaining[idx(color)];
        match self.running {
            Some((c, since)) if c == color => r.saturating_sub(now.saturating_sub(since)),
            _ => r,
        }
    }

    /// When the running side's flag falls (or fell).
    pub fn flag_time(&self) -> Option<(Color, Duration)> {
        self.running
            .map(|(c, since)| (c, since + self.remaining[idx(c)]))
    }

    /// The running side completes a move at `now`: its time is charged, `increment` added, and
    /// the other side's clock starts. Returns the mover's time left after the increment.
    pub fn press(&mut self, now: Duration, increment: Duration) -> Duration {
        match self.running {
            Some((color, _)) => {
                self.stop(now);
                let r = &mut self.remaining[idx(color)];
                *r += increment;
                let left = *r;
                self.start(!color, now);
                left
            }
            None => Duration::ZERO,
        }
    }

    /// Moves the running clock's start forward by `pause`, so that a time the server was down is
    /// not charged.
    pub fn shift(&mut self, pause: Duration) {
        if let Some((_, since)) = &mut self.running {
            *since += pause;
        }
    }

    /// Sets the time left of `color` (when restoring a stored match).
    pub fn set_remaining(&mut self, color: Color, left: Duration) {
        self.remaining[idx(color)] = left;
    }
}
