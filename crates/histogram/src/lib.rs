//! The latency histogram: microseconds in log-linear buckets, merged across the load tool's
//! workers, and kept by the server's stage timings.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Microseconds in log-linear buckets: exact below 256 µs, then 128 buckets per power of two
/// (under 1 % error).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Histogram {
    /// (bucket, count), sparse.
    buckets: BTreeMap<u32, u64>,
    /// How many values were recorded.
    pub count: u64,
    /// The largest value, in microseconds.
    pub max_us: u64,
}

fn bucket_of(us: u64) -> u32 {
    if us < 256 {
        us as u32
    } else {
        let msb = 63 - us.leading_zeros();
        let shift = msb - 7;
        shift * 128 + (us >> shift) as u32
    }
}

/// The upper end of a bucket, in microseconds.
fn bucket_top(b: u32) -> u64 {
    if b < 256 {
        u64::from(b)
    } else {
        let shift = b / 128 - 1;
        let mant = u64::from(b % 128 + 128);
        ((mant + 1) << shift) - 1
    }
}

impl Histogram {
    /// Records one value, in microseconds.
    pub fn record(&mut self, us: u64) {
        self.record_n(us, 1);
    }

    /// Records `n` equal values, in microseconds (a batch's time, once for each of its moves).
    pub fn record_n(&mut self, us: u64, n: u64) {
        if n == 0 {
            return;
        }
        *self.buckets.entry(bucket_of(us)).or_insert(0) += n;
        self.count += n;
        self.max_us = self.max_us.max(us);
    }

    /// Adds another histogram's values.
    pub fn merge(&mut self, other: &Histogram) {
        for (b, n) in &other.buckets {
            *self.buckets.entry(*b).or_insert(0) += n;
        }
        self.count += other.count;
        self.max_us = self.max_us.max(other.max_us);
    }

    /// The `q` quantile (0..=1) in milliseconds.
    pub fn quantile_ms(&self, q: f64) -> f64 {
        if self.count == 0 {
            return f64::NAN;
        }
        let rank = ((q * self.count as f64).ceil() as u64).clamp(1, self.count);
        let mut seen = 0;
        for (b, n) in &self.buckets {
            seen += n;
            if seen >= rank {
                return bucket_top(*b).min(self.max_us) as f64 / 1000.0;
            }
        }
        self.max_us as f64 / 1000.0
    }

    /// `p50 … ms  p90 … ms  p99 … ms  max … ms`, as the summary prints a distribution.
    pub fn quantiles_text(&self) -> String {
        format!(
            "p50 {:.2} ms  p90 {:.2} ms  p99 {:.2} ms  max {:.2} ms",
            self.quantile_ms(0.5),
            self.quantile_ms(0.9),
            self.quantile_ms(0.99),
            self.max_us as f64 / 1000.0
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_buckets_are_continuous_and_tight() {
        let mut last = 0;
        for us in 0..100_000u64 {
            let b = bucket_of(us);
            assert!(b == last || b == last + 1, "{us}");
            assert!(bucket_top(b) >= us && (bucket_top(b) - us) as f64 <= us as f64 / 100.0);
            last = b;
        }
    }

    #[test]
    fn quantiles() {
        let mut h = Histogram::default();
        for us in 1..=1000 {
            h.record(us * 10);
        }
        assert!((h.quantile_ms(0.5) - 5.0).abs() < 0.05);
        assert!((h.quantile_ms(0.99) - 9.9).abs() < 0.1);
        assert_eq!(h.max_us, 10_000);
    }

    #[test]
    fn equal_values_at_once_count_as_many() {
        let mut at_once = Histogram::default();
        at_once.record_n(3_000, 9);
        at_once.record_n(50_000, 1);
        at_once.record_n(90_000, 0);
        let mut one_by_one = Histogram::default();
        for _ in 0..9 {
            one_by_one.record(3_000);
        }
        one_by_one.record(50_000);
        assert_eq!(at_once.count, 10);
        assert_eq!(at_once.max_us, 50_000);
        for q in [0.5, 0.9, 1.0] {
            assert_eq!(at_once.quantile_ms(q), one_by_one.quantile_ms(q));
        }
    }
}
