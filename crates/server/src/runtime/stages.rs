//! Where a batch's time goes inside a shard, for diagnosis under load: with
//! `BUGHOUSE_STAGE_STATS=1` each shard logs every few seconds (at `info`) the distribution of
//! - `apply`: one pass of the hub task over a batch of commands (apply, hand over);
//! - `away`: the time between two passes, when the hub task waits for commands or its thread
//!   runs the committer, the sender or another process;
//! - `store`: from a batch's start to its transaction being stored (the committer's queue, the
//!   writer's queue and the transaction), once for each write of the batch (a move's wait);
//! - `send`: from the transaction being stored to the batch's messages being handed to the
//!   sockets (the batches of the same transaction before it, then its own), also per write.
//!
//! Off (the default), nothing is timed.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How often a shard reports.
const EVERY: Duration = Duration::from_secs(5);

/// Whether `BUGHOUSE_STAGE_STATS` asks for the figures (read once).
pub(crate) fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| {
        std::env::var("BUGHOUSE_STAGE_STATS").is_ok_and(|v| !v.is_empty() && v != "0")
    })
}

/// The durations of some named stages since the last report.
pub(crate) struct Stages {
    who: String,
    names: &'static [&'static str],
    /// Microseconds, one list per stage.
    samples: Vec<Vec<u32>>,
    since: Instant,
}

impl Stages {
    /// Timings of `names`, reported as `what` of the current thread, or `None` when the figures
    /// are off.
    pub(crate) fn new(what: &str, names: &'static [&'static str]) -> Option<Stages> {
        enabled().then(|| Stages {
            who: format!(
                "{what} on {}",
                std::thread::current().name().unwrap_or("a thread")
            ),
            names,
            samples: vec![Vec::new(); names.len()],
            since: Instant::now(),
        })
    }

    /// One duration of stage `i`.
    pub(crate) fn record(&mut self, i: usize, d: Duration) {
        self.record_n(i, d, 1);
    }

    /// `n` equal durations of stage `i` (a batch's time, once for each of its writes).
    pub(crate) fn record_n(&mut self, i: usize, d: Duration, n: usize) {
        if let Some(s) = self.samples.get_mut(i) {
            let us = u32::try_from(d.as_micros()).unwrap_or(u32::MAX);
            s.extend(std::iter::repeat_n(us, n));
        }
    }

    /// Logs the figures and starts anew when they are due.
    pub(crate) fn report_if_due(&mut self) {
        if self.since.elapsed() < EVERY {
            return;
        }
        let mut line = String::new();
        for (name, samples) in self.names.iter().zip(&mut self.samples) {
            line.push_str(&summary(name, samples));
            samples.clear();
        }
        tracing::info!(
            "stages of {} over {:.1} s:{line}",
            self.who,
            self.since.elapsed().as_secs_f64()
        );
        self.since = Instant::now();
    }
}

/// ` name n=N p50 … p90 … p99 … max … ms`, the samples sorted in place.
fn summary(name: &str, samples: &mut [u32]) -> String {
    if samples.is_empty() {
        return format!(" {name} n=0;");
    }
    samples.sort_unstable();
    let at = |q: f64| {
        // Nearest rank: the smallest sample with at least q of them at or below it.
        let rank = (q * samples.len() as f64).ceil() as usize;
        f64::from(samples[rank.clamp(1, samples.len()) - 1]) / 1000.0
    };
    format!(
        " {name} n={} p50 {:.2} p90 {:.2} p99 {:.2} max {:.2} ms;",
        samples.len(),
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_gives_nearest_rank_percentiles_in_milliseconds() {
        let mut samples: Vec<u32> = (1..=100).rev().map(|ms| ms * 1000).collect();
        assert_eq!(
            summary("store", &mut samples),
            " store n=100 p50 50.00 p90 90.00 p99 99.00 max 100.00 ms;"
        );
        let mut one = vec![1500];
        assert_eq!(
            summary("send", &mut one),
            " send n=1 p50 1.50 p90 1.50 p99 1.50 max 1.50 ms;"
        );
        assert_eq!(summary("apply", &mut []), " apply n=0;");
    }

    #[test]
    fn durations_go_to_their_stage_and_beyond_u32_saturate() {
        let mut stages = Stages {
            who: "test".into(),
            names: &["a", "b"],
            samples: vec![Vec::new(); 2],
            since: Instant::now(),
        };
        stages.record(0, Duration::from_micros(7));
        stages.record(1, Duration::from_secs(10_000));
        stages.record(2, Duration::from_micros(1));
        stages.record_n(0, Duration::from_micros(3), 2);
        stages.record_n(1, Duration::from_micros(3), 0);
        assert_eq!(stages.samples, vec![vec![7, 3, 3], vec![u32::MAX]]);
    }
}
