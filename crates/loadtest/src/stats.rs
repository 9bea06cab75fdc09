//! What the workers count and report: counters shared by a worker's match tasks, and the JSON
//! reports a worker process sends its parent.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::histogram::Histogram;

/// Counters of one worker, as of a moment.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct Counters {
    pub(crate) matches_created: u64,
    pub(crate) replacements: u64,
    pub(crate) create_errors: u64,
    pub(crate) connections: u64,
    pub(crate) connections_peak: u64,
    pub(crate) connect_errors: u64,
    pub(crate) live: u64,
    pub(crate) ended: u64,
    pub(crate) moves_sent: u64,
    pub(crate) moves_seen: u64,
    pub(crate) server_errors: u64,
    pub(crate) socket_errors: u64,
    /// Seconds from the worker's start until every connection was opened (or failed).
    pub(crate) ramp_secs: Option<f64>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) enum Report {
    Progress(Counters),
    Final {
        counters: Counters,
        all: Histogram,
        steady: Histogram,
        steady_secs: f64,
        steady_moves: u64,
        error_codes: BTreeMap<String, u64>,
        /// How late the worker's probe timer woke after the ramp (see [`Stats::lag`]).
        lag: Histogram,
    },
}

#[derive(Default)]
pub(crate) struct Stats {
    pub(crate) matches_created: AtomicU64,
    pub(crate) replacements: AtomicU64,
    pub(crate) create_errors: AtomicU64,
    pub(crate) connections: AtomicU64,
    pub(crate) connections_peak: AtomicU64,
    pub(crate) connect_errors: AtomicU64,
    pub(crate) live: AtomicU64,
    pub(crate) ended: AtomicU64,
    pub(crate) moves_sent: AtomicU64,
    pub(crate) moves_seen: AtomicU64,
    pub(crate) server_errors: AtomicU64,
    pub(crate) socket_errors: AtomicU64,
    /// Tasks still opening their connections.
    pub(crate) setting_up: AtomicU64,
    /// Microseconds after the worker's start when the ramp ended; `u64::MAX` before.
    pub(crate) ramp_end_us: AtomicU64,
    pub(crate) hist: Mutex<(Histogram, Histogram, u64)>,
    /// How late, after the ramp, a timer of the worker's runtime fired, in microseconds: the
    /// delay the load tool itself adds to what it measures (a received move waits as long for
    /// its task to run).
    pub(crate) lag: Mutex<Histogram>,
    pub(crate) error_codes: Mutex<BTreeMap<String, u64>>,
    /// With [`TRACE`] set: every move seen, written out at the end.
    pub(crate) trace: Option<Trace>,
}

/// The environment variable naming the file to which each worker process writes its moves'
/// arrival times and latencies, one `MS US` line per move, as `FILE.PID`: to see how the
/// latency moves within a run (`scripts/loadtest-waves.py` reads them).
pub(crate) const TRACE: &str = "BUGHOUSE_LOADTEST_TRACE";

/// The moves a worker traced: (milliseconds from the worker's start to the move's arrival, its
/// latency in microseconds), and the file they go to.
pub(crate) struct Trace {
    file: String,
    moves: Mutex<Vec<(u32, u32)>>,
}

impl Trace {
    /// A trace if [`TRACE`] names a file, with room for `moves` (growing it would copy it
    /// under the lock, stalling the tasks that time moves meanwhile).
    pub(crate) fn from_env(moves: usize) -> Option<Trace> {
        let path = std::env::var_os(TRACE)?;
        Some(Trace {
            file: format!("{}.{}", path.to_string_lossy(), std::process::id()),
            moves: Mutex::new(Vec::with_capacity(moves)),
        })
    }

    /// A move that arrived `at` after the worker's start, `latency` after it was sent.
    pub(crate) fn record(&self, at: Duration, latency: Duration) {
        let ms = |d: u128| u32::try_from(d).unwrap_or(u32::MAX);
        if let Ok(mut moves) = self.moves.lock() {
            moves.push((ms(at.as_millis()), ms(latency.as_micros())));
        }
    }

    /// Writes the moves to the file, one `MS US` line each.
    pub(crate) fn write(&self) {
        use std::fmt::Write as _;
        let Ok(moves) = self.moves.lock() else {
            return;
        };
        let mut out = String::with_capacity(moves.len() * 12);
        for (at, us) in moves.iter() {
            let _ = writeln!(out, "{at} {us}");
        }
        if let Err(e) = std::fs::write(&self.file, out) {
            eprintln!("error: cannot write the trace {}: {e}", self.file);
        }
    }
}

pub(crate) fn bump(a: &AtomicU64) {
    a.fetch_add(1, Ordering::Relaxed);
}

impl Stats {
    pub(crate) fn snapshot(&self) -> Counters {
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        let ramp = get(&self.ramp_end_us);
        Counters {
            matches_created: get(&self.matches_created),
            replacements: get(&self.replacements),
            create_errors: get(&self.create_errors),
            connections: get(&self.connections),
            connections_peak: get(&self.connections_peak),
            connect_errors: get(&self.connect_errors),
            live: get(&self.live),
            ended: get(&self.ended),
            moves_sent: get(&self.moves_sent),
            moves_seen: get(&self.moves_seen),
            server_errors: get(&self.server_errors),
            socket_errors: get(&self.socket_errors),
            ramp_secs: (ramp != u64::MAX).then(|| ramp as f64 / 1e6),
        }
    }

    pub(crate) fn connected(&self) {
        let now = self.connections.fetch_add(1, Ordering::Relaxed) + 1;
        self.connections_peak.fetch_max(now, Ordering::Relaxed);
    }

    pub(crate) fn disconnected(&self) {
        self.connections.fetch_sub(1, Ordering::Relaxed);
    }

    pub(crate) fn server_error(&self, code: &str) {
        bump(&self.server_errors);
        if let Ok(mut codes) = self.error_codes.lock() {
            *codes.entry(code.to_owned()).or_insert(0) += 1;
        }
    }

    /// Whether `at` (from the worker's start `clock`) is after the ramp.
    pub(crate) fn after_ramp(&self, clock: Instant, at: Instant) -> bool {
        let at = u64::try_from(at.saturating_duration_since(clock).as_micros()).unwrap_or(u64::MAX);
        at >= self.ramp_end_us.load(Ordering::Relaxed)
    }

    pub(crate) fn setup_done(&self, clock: Instant) {
        if self.setting_up.fetch_sub(1, Ordering::AcqRel) == 1 {
            let us = u64::try_from(clock.elapsed().as_micros()).unwrap_or(u64::MAX - 1);
            self.ramp_end_us.store(us, Ordering::Release);
        }
    }
}

/// The counters of all workers added up.
pub(crate) fn add_up(list: &[Counters]) -> Counters {
    let mut s = Counters::default();
    for c in list {
        s.matches_created += c.matches_created;
        s.replacements += c.replacements;
        s.create_errors += c.create_errors;
        s.connections += c.connections;
        s.connections_peak += c.connections_peak;
        s.connect_errors += c.connect_errors;
        s.live += c.live;
        s.ended += c.ended;
        s.moves_sent += c.moves_sent;
        s.moves_seen += c.moves_seen;
        s.server_errors += c.server_errors;
        s.socket_errors += c.socket_errors;
    }
    s
}
