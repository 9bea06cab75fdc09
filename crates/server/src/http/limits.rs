//! Counting failures per key in a sliding window (failed log-ins per user name and per client
//! address), in memory: one server node needs nothing more, and a restart forgets the counts,
//! which costs an attacker a restart of our server per window.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Past this many keys, every failure first forgets the keys whose failures have all expired.
const PRUNE_ABOVE: usize = 10_000;

/// At most `limit` failures per key in any `window`; the next attempt waits until the oldest
/// counted failure leaves the window.
pub(crate) struct FailureLimiter {
    limit: usize,
    window: Duration,
    failures: Mutex<HashMap<String, VecDeque<Instant>>>,
}

impl FailureLimiter {
    pub(crate) fn new(limit: usize, window: Duration) -> FailureLimiter {
        FailureLimiter {
            limit: limit.max(1),
            window,
            failures: Mutex::new(HashMap::new()),
        }
    }

    /// `Some(wait)` if `key` used up its failures: how long until it may try again.
    pub(crate) fn blocked(&self, key: &str, now: Instant) -> Option<Duration> {
        let mut failures = self.lock();
        let times = failures.get_mut(key)?;
        self.expire(times, now);
        if times.len() < self.limit {
            return None;
        }
        let oldest = *times.front()?;
        Some((oldest + self.window).saturating_duration_since(now))
    }

    /// Counts a failure of `key`.
    pub(crate) fn fail(&self, key: &str, now: Instant) {
        let mut failures = self.lock();
        if failures.len() > PRUNE_ABOVE {
            let window = self.window;
            failures.retain(|_, times| {
                times
                    .back()
                    .is_some_and(|&last| now.saturating_duration_since(last) < window)
            });
        }
        let times = failures.entry(key.to_owned()).or_default();
        self.expire(times, now);
        times.push_back(now);
        // Only the last `limit` failures matter.
        while times.len() > self.limit {
            times.pop_front();
        }
    }

    /// Forgets `key`'s failures (after a success).
    pub(crate) fn clear(&self, key: &str) {
        self.lock().remove(key);
    }

    fn expire(&self, times: &mut VecDeque<Instant>, now: Instant) {
        while times
            .front()
            .is_some_and(|&t| now.saturating_duration_since(t) >= self.window)
        {
            times.pop_front();
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, VecDeque<Instant>>> {
        // A panic while holding the lock leaves counts that are still counts.
        self.failures
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_and_the_window() {
        let limiter = FailureLimiter::new(3, Duration::from_secs(60));
        let t0 = Instant::now();
        let at = |s: u64| t0 + Duration::from_secs(s);
        for s in 0..3 {
            assert_eq!(limiter.blocked("ann", at(s)), None);
            limiter.fail("ann", at(s));
        }
        // Three failures at 0, 1, 2 s: blocked until the first leaves the window at 60 s.
        assert_eq!(
            limiter.blocked("ann", at(10)),
            Some(Duration::from_secs(50))
        );
        assert_eq!(limiter.blocked("bob", at(10)), None);
        assert_eq!(limiter.blocked("ann", at(60)), None);
        limiter.fail("ann", at(60));
        assert_eq!(limiter.blocked("ann", at(60)), Some(Duration::from_secs(1)));
        limiter.clear("ann");
        assert_eq!(limiter.blocked("ann", at(60)), None);
    }

    #[test]
    fn old_keys_are_forgotten() {
        let limiter = FailureLimiter::new(1, Duration::from_secs(1));
        let t0 = Instant::now();
        for i in 0..=PRUNE_ABOVE {
            limiter.fail(&i.to_string(), t0);
        }
        limiter.fail("late", t0 + Duration::from_secs(5));
        assert_eq!(limiter.lock().len(), 1);
    }
}
