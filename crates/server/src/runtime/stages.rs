//! Where a batch's time goes inside a shard, for diagnosis under load: with
//! `BUGHOUSE_STAGE_STATS=1` each shard logs every few seconds (at `info`) the distribution of
//! - `apply`: one pass of the hub task over a batch of commands (apply, hand over);
//! - `away`: the time between two passes, when the hub task waits for commands or its thread
//!   runs the committer, the sender or another process;
//! - `store`: from a batch's start to its transaction being stored (the committer's queue, the
//!   writer's queue and the transaction), once for each write of the batch (a move's wait);
//! - `send`: from the transaction being stored to the batch's messages being handed to the
//!   sockets (the batches of the same transaction before it, then its own), also per write;
//!
//! and the SQLite writer (`writer.rs`) the distribution of
//! - `queue`: a shard batch's wait from its hand-over to the start of its transaction;
//! - `transaction`: each transaction (all the batches queued meanwhile, one commit).
//!
//! Off (the default), nothing is timed and the clock is not read.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use bughouse_histogram::Histogram;

/// How often a shard reports.
const EVERY: Duration = Duration::from_secs(5);

/// The hub task's stages.
pub(crate) const APPLY: usize = 0;
pub(crate) const AWAY: usize = 1;
pub(crate) const HUB: &[&str] = &["apply", "away"];

/// The sender's stages.
pub(crate) const STORE: usize = 0;
pub(crate) const SEND: usize = 1;
pub(crate) const SENDER: &[&str] = &["store", "send"];

/// The SQLite writer's stages: a shard batch's wait in the writer's queue (from its hand-over
/// to the start of the transaction that stores it, once per batch), and each transaction.
pub(crate) const QUEUE: usize = 0;
pub(crate) const TRANSACTION: usize = 1;
pub(crate) const WRITER: &[&str] = &["queue", "transaction"];

/// Whether `BUGHOUSE_STAGE_STATS` asks for the figures (read once).
fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| {
        std::env::var("BUGHOUSE_STAGE_STATS").is_ok_and(|v| !v.is_empty() && v != "0")
    })
}

/// The time now if the figures are on; `None`, without reading the clock, if they are off.
pub(crate) fn now() -> Option<Instant> {
    enabled().then(Instant::now)
}

/// The durations of some named stages since the last report.
pub(crate) struct Stages {
    who: String,
    names: &'static [&'static str],
    /// One histogram per stage.
    times: Vec<Histogram>,
    since: Instant,
}

impl Stages {
    /// Timings of `names`, reported as `what` of the current thread, or `None` when the figures
    /// are off.
    pub(crate) fn new(what: &str, names: &'static [&'static str]) -> Option<Stages> {
        enabled().then(|| Stages::named(what, names))
    }

    fn named(what: &str, names: &'static [&'static str]) -> Stages {
        Stages {
            who: format!(
                "{what} on {}",
                std::thread::current().name().unwrap_or("a thread")
            ),
            names,
            times: vec![Histogram::default(); names.len()],
            since: Instant::now(),
        }
    }

    /// One duration of stage `i`.
    pub(crate) fn record(&mut self, i: usize, d: Duration) {
        self.record_n(i, d, 1);
    }

    /// `n` equal durations of stage `i` (a batch's time, once for each of its writes).
    pub(crate) fn record_n(&mut self, i: usize, d: Duration, n: usize) {
        if let Some(h) = self.times.get_mut(i) {
            let us = u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
            h.record_n(us, n as u64);
        }
    }

    /// The report's text: ` name n=N p50 … ms  p90 … ms  p99 … ms  max … ms;` per stage.
    fn summary(&self) -> String {
        self.names
            .iter()
            .zip(&self.times)
            .map(|(name, h)| match h.count {
                0 => format!(" {name} n=0;"),
                n => format!(" {name} n={n} {};", h.quantiles_text()),
            })
            .collect()
    }

    /// Logs the figures and starts anew when they are due.
    pub(crate) fn report_if_due(&mut self) {
        if self.since.elapsed() < EVERY {
            return;
        }
        tracing::info!(
            "stages of {} over {:.1} s:{}",
            self.who,
            self.since.elapsed().as_secs_f64(),
            self.summary()
        );
        self.times.fill_with(Histogram::default);
        self.since = Instant::now();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_go_to_their_stage_once_per_write() {
        let mut stages = Stages::named("the sender", SENDER);
        stages.record_n(STORE, Duration::from_millis(3), 2);
        stages.record(STORE, Duration::from_millis(40));
        stages.record_n(SEND, Duration::from_millis(1), 0);
        stages.record(7, Duration::from_millis(1));
        assert_eq!(stages.times[STORE].count, 3);
        assert_eq!(stages.times[STORE].max_us, 40_000);
        // The histogram's buckets are within 1%.
        assert!((stages.times[STORE].quantile_ms(0.5) - 3.0).abs() < 0.03);
        let summary = stages.summary();
        assert!(summary.starts_with(" store n=3 p50 3.0"), "{summary}");
        assert!(
            summary.ends_with("p90 40.00 ms  p99 40.00 ms  max 40.00 ms; send n=0;"),
            "{summary}"
        );
    }

    #[test]
    fn a_duration_beyond_the_histogram_saturates() {
        let mut stages = Stages::named("the hub", HUB);
        stages.record(AWAY, Duration::MAX);
        assert_eq!(stages.times[AWAY].count, 1);
        assert_eq!(stages.times[APPLY].count, 0);
    }
}
