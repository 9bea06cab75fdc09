//! Tuning of the bot's evaluation weights ([`bughouse_engine::EvalParams`]): Texel's method on
//! positions, and SPSA through play.
//!
//! 1. **Data** ([`data`]): positions from arena games with the result of their match, from
//!    BPGN files the arena wrote (`bughouse arena --out`) and/or from self-play matches this
//!    crate plays through the arena ([`data::selfplay`]). Each position is stored as one line,
//!    `RESULT FEN`, the result from White's side of that board (1, 0.5, 0): the points of the
//!    team that has White there.
//! 2. **Fit** ([`fit`]): the weights minimising the mean squared error between the results and
//!    `sigmoid(K · eval / 400)`, where `eval` is the static evaluation from White's side, on
//!    quiet positions (the quiescence search with the default weights finds nothing to win:
//!    its score equals the static evaluation). `K` is fitted first, to the default weights.
//!    The search is Texel's local search: every weight in turn, in an order shuffled from the
//!    seed, one step up, else one step down, kept when the error falls; one pass over all
//!    weights per iteration. A tenth of the positions (chosen by the seed) is held out and its
//!    error reported, to show over-fitting.
//! 3. **Book** ([`book`]): the opening book, the positions of the first moves searched deeply
//!    beforehand.
//! 4. **Play** ([`spsa`]): SPSA of chosen weights through arena matches, the weights judged by
//!    the matches they win rather than by a fit to positions.
//!
//! Fitting is deterministic for a given positions file and seed; self-play data depends on
//! wall-clock thinking times, as every arena match does.

pub mod book;
pub mod data;
pub mod fit;
pub mod spsa;

pub use book::{build_book, BookConfig};
pub use data::{
    expected_score, label, pick, read_samples, samples_from_bpgn, samples_from_pgn, selfplay,
    write_samples, LabelConfig, Sample,
};
pub use fit::{fit, FitReport, Fitter};
pub use spsa::{parse_weights, Spsa, SpsaConfig, SpsaStep, WeightsError};

/// What can go wrong while tuning.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// A BPGN record that does not read or replay.
    #[error("{0}")]
    Bpgn(String),
    /// A positions file line that does not read.
    #[error("positions line {line}: {message}")]
    Sample {
        /// The line (1-based).
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The labelling engine failed (on this position, when it got that far).
    #[error("labelling engine: {message}{}", if fen.is_empty() { String::new() } else { format!(" (position {fen})") })]
    Engine {
        /// The position it failed on (empty: before the first).
        fen: String,
        /// What went wrong.
        message: String,
    },
    /// The book's reply engine failed (on this position, when it got that far).
    #[error("reply engine: {message}{}", if fen.is_empty() { String::new() } else { format!(" (position {fen})") })]
    ReplyEngine {
        /// The position it failed on (empty: before the first).
        fen: String,
        /// What went wrong.
        message: String,
    },
    /// Too few positions to fit anything.
    #[error("too few quiet positions to fit: {0} (need at least 10)")]
    TooFew(usize),
}

/// Runs `work(job)` for every `job` in `0..jobs` on a thread of its own and gathers the
/// `(index, item)` pairs they return, sorted by index, so that the result does not depend on
/// `jobs`. The first error is returned; a thread that panicked gives `panicked()`.
pub(crate) fn in_jobs<T: Send>(
    jobs: usize,
    work: impl Fn(usize) -> Result<Vec<(usize, T)>, TuneError> + Sync,
    panicked: impl Fn() -> TuneError,
) -> Result<Vec<(usize, T)>, TuneError> {
    let work = &work;
    let results: Vec<Result<Vec<(usize, T)>, TuneError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs.max(1))
            .map(|job| scope.spawn(move || work(job)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err(panicked())))
            .collect()
    });
    let mut all = Vec::new();
    for r in results {
        all.extend(r?);
    }
    all.sort_by_key(|&(i, _)| i);
    Ok(all)
}

/// A small deterministic generator (SplitMix64) for the shuffles.
#[derive(Debug, Clone)]
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Fisher–Yates.
    pub(crate) fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
    }
}
