//! A worker: the match tasks of one process on a tokio runtime, counted in [`Stats`] and
//! reported every second.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::scenario::run_match;
use super::Config;
use crate::client::Target;
use crate::stats::{Report, Stats, Trace};

/// What one worker does.
#[derive(Clone)]
pub(crate) struct Plan {
    /// The server, or the nodes of a cluster: match `i` is created on node `i`, its seat `s`
    /// connects to node `i + s` (modulo their number).
    pub(crate) target: Vec<Target>,
    pub(crate) matches: usize,
    pub(crate) move_every: Duration,
    /// How far a player's wait before his move strays from `move_every`, as a share of it
    /// (`Config::think_spread`).
    pub(crate) think_spread: f64,
    /// The process-wide clock every time is read from.
    pub(crate) clock: Instant,
    pub(crate) end: Instant,
    pub(crate) rules: String,
    pub(crate) time_control: String,
    /// Seconds between two matches' connection bursts (four connections each).
    pub(crate) match_gap: Duration,
    /// Runtime threads.
    pub(crate) threads: usize,
}

impl Plan {
    /// A player's wait, once it is his turn, before he moves: `move_every`, or with a spread,
    /// drawn uniformly within it (the same mean).
    pub(crate) fn think(&self, rng: &mut impl rand::Rng) -> Duration {
        if self.think_spread > 0.0 {
            let s = self.think_spread;
            self.move_every.mul_f64(rng.gen_range(1.0 - s..=1.0 + s))
        } else {
            self.move_every
        }
    }

    pub(crate) fn new(
        args: &Config,
        target: Vec<Target>,
        matches: usize,
        ramp: f64,
        clock: Instant,
    ) -> Plan {
        Plan {
            target,
            matches,
            move_every: Duration::from_secs_f64(args.move_every),
            think_spread: args.think_spread,
            clock,
            end: clock + Duration::from_secs_f64(args.duration),
            rules: args.rules.clone(),
            time_control: args.time_control.clone(),
            match_gap: Duration::from_secs_f64(4.0 / ramp),
            threads: args.threads.max(1),
        }
    }
}

/// Runs a worker's match tasks to the end of the run; `emit` gets a progress report every
/// second and the final one.
pub(crate) fn run_worker(plan: Plan, emit: impl Fn(Report) + Send + 'static) {
    let runtime = if plan.threads == 1 {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
    } else {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(plan.threads)
            .enable_all()
            .build()
    };
    let runtime = match runtime {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the runtime: {e}");
            return;
        }
    };
    runtime.block_on(async move {
        let plan = Arc::new(plan);
        let stats = Arc::new(Stats {
            ramp_end_us: AtomicU64::new(u64::MAX),
            setting_up: AtomicU64::new(plan.matches as u64),
            // Room for the whole run: each match's players see two moves a wait.
            trace: Trace::from_env(
                (plan.matches as f64 * 2.0 * (plan.end - plan.clock).as_secs_f64()
                    / plan.move_every.as_secs_f64().max(0.05)) as usize,
            ),
            ..Stats::default()
        });
        if plan.matches == 0 {
            stats.ramp_end_us.store(0, Ordering::Release);
        }
        let mut tasks = Vec::with_capacity(plan.matches);
        for i in 0..plan.matches {
            let start = plan.clock + plan.match_gap.mul_f64(i as f64);
            tasks.push(tokio::spawn(run_match(
                plan.clone(),
                stats.clone(),
                i,
                start,
            )));
        }
        tokio::spawn(probe_lag(stats.clone(), plan.clock));
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        let end = tokio::time::Instant::from_std(plan.end);
        loop {
            tokio::select! {
                _ = tick.tick() => emit(Report::Progress(stats.snapshot())),
                () = tokio::time::sleep_until(end) => break,
            }
        }
        let counters = stats.snapshot();
        // Tasks stop at the end by themselves; any that does not is dropped a little later.
        let wait = tokio::time::Instant::from_std(plan.end + Duration::from_secs(5));
        for t in &mut tasks {
            if tokio::time::timeout_at(wait, &mut *t).await.is_err() {
                t.abort();
            }
        }
        if let Some(trace) = &stats.trace {
            trace.write();
        }
        let ramp_end = stats.ramp_end_us.load(Ordering::Acquire);
        let (all, steady, steady_moves) = stats.hist.lock().map(|h| h.clone()).unwrap_or_default();
        let run_us = u64::try_from((plan.end - plan.clock).as_micros()).unwrap_or(u64::MAX);
        let steady_secs = if ramp_end == u64::MAX {
            0.0
        } else {
            run_us.saturating_sub(ramp_end) as f64 / 1e6
        };
        let lag = stats.lag.lock().map(|h| h.clone()).unwrap_or_default();
        let error_codes = stats
            .error_codes
            .lock()
            .map(|c| c.clone())
            .unwrap_or_default();
        emit(Report::Final {
            counters,
            all,
            steady,
            steady_secs,
            steady_moves,
            error_codes,
            lag,
        });
    });
    runtime.shutdown_timeout(Duration::from_secs(2));
}

/// How often the lag probe sets its timer.
const PROBE_EVERY: Duration = Duration::from_millis(10);

/// Sets a timer every [`PROBE_EVERY`] and records, once the ramp is over, how much later than
/// asked the runtime woke it: the time a ready task of this worker waits for a thread, which a
/// move received waits too before it is timed.
async fn probe_lag(stats: Arc<Stats>, clock: Instant) {
    loop {
        let asked = Instant::now() + PROBE_EVERY;
        tokio::time::sleep_until(tokio::time::Instant::from_std(asked)).await;
        let woke = Instant::now();
        let late = woke.saturating_duration_since(asked);
        if stats.after_ramp(clock, woke) {
            if let Ok(mut h) = stats.lag.lock() {
                h.record(u64::try_from(late.as_micros()).unwrap_or(u64::MAX));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn plan(spread: f64) -> Plan {
        let clock = Instant::now();
        Plan {
            target: Vec::new(),
            matches: 1,
            move_every: Duration::from_millis(500),
            think_spread: spread,
            clock,
            end: clock,
            rules: "fide".into(),
            time_control: "60+0".into(),
            match_gap: Duration::ZERO,
            threads: 1,
        }
    }

    #[test]
    fn a_wait_is_move_every_or_within_its_spread_with_the_same_mean() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        assert_eq!(plan(0.0).think(&mut rng), Duration::from_millis(500));
        let spread = plan(0.5);
        let waits: Vec<Duration> = (0..10_000).map(|_| spread.think(&mut rng)).collect();
        assert!(waits
            .iter()
            .all(|w| (Duration::from_millis(250)..=Duration::from_millis(750)).contains(w)));
        let mean = waits.iter().sum::<Duration>() / 10_000;
        assert!(
            mean.abs_diff(Duration::from_millis(500)) < Duration::from_millis(10),
            "{mean:?}"
        );
        // Spread over the whole range, not bunched.
        assert!(waits.iter().any(|w| *w < Duration::from_millis(275)));
        assert!(waits.iter().any(|w| *w > Duration::from_millis(725)));
    }
}
