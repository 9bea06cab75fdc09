//! Texel's local search over the evaluation weights.

use bughouse_core::{Color, Position, Rules};
use bughouse_engine::{evaluate_with, EvalParams, Searcher, EVAL_PARAM_COUNT};

use crate::{Rng, Sample, TuneError};

/// The positions a fit uses: quiet ones, split into a training and a held-out set.
pub struct Fitter {
    train: Vec<(Position, f64)>,
    valid: Vec<(Position, f64)>,
    /// The sigmoid's scale, fitted to the default weights.
    k: f64,
}

/// What a fit did.
#[derive(Debug, Clone, PartialEq)]
pub struct FitReport {
    /// The sigmoid's scale.
    pub k: f64,
    /// Quiet positions trained on and held out.
    pub train: usize,
    /// Held-out positions.
    pub valid: usize,
    /// Mean squared error on the training set before and after.
    pub train_error: (f64, f64),
    /// Mean squared error on the held-out set before and after.
    pub valid_error: (f64, f64),
    /// The training error after each iteration.
    pub history: Vec<f64>,
    /// The weights found.
    pub params: EvalParams,
}

/// The step of each weight: material in fives, the rest in ones.
fn step(i: usize) -> i32 {
    if i < 10 {
        5
    } else {
        1
    }
}

fn sigmoid(k: f64, eval: i32) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * f64::from(eval) / 400.0))
}

fn white_eval(pos: &Position, params: &EvalParams) -> i32 {
    let e = evaluate_with(pos, params);
    match pos.turn() {
        Color::White => e,
        Color::Black => -e,
    }
}

fn error(set: &[(Position, f64)], params: &EvalParams, k: f64) -> f64 {
    if set.is_empty() {
        return 0.0;
    }
    let sum: f64 = set
        .iter()
        .map(|(pos, r)| {
            let d = r - sigmoid(k, white_eval(pos, params));
            d * d
        })
        .sum();
    sum / set.len() as f64
}

/// Whether a fit uses `pos`: not in check, with a legal move, and the quiescence search with
/// the default weights scores it as the static evaluation does (within ±3,000).
pub fn is_quiet(pos: &Position, searcher: &mut Searcher) -> bool {
    if pos.is_check() || pos.legal_moves().is_empty() {
        return false;
    }
    let stat = evaluate_with(pos, &EvalParams::DEFAULT);
    searcher.quiesce(pos) == stat && stat.abs() <= 3000
}

/// The samples whose positions are quiet ([`is_quiet`]), each with its position.
///
/// # Errors
///
/// [`TuneError::Sample`] for a FEN that does not read under `rules` (its 1-based index).
pub(crate) fn quiet_samples(
    samples: &[Sample],
    rules: Rules,
) -> Result<Vec<(Position, &Sample)>, TuneError> {
    let mut searcher = Searcher::new(1);
    let mut quiet = Vec::new();
    for (i, s) in samples.iter().enumerate() {
        let pos = Position::from_fen(&s.fen, rules).map_err(|e| TuneError::Sample {
            line: i + 1,
            message: e.to_string(),
        })?;
        if is_quiet(&pos, &mut searcher) {
            quiet.push((pos, s));
        }
    }
    Ok(quiet)
}

impl Fitter {
    /// Keeps the quiet positions of `samples` (not in check, and the quiescence search with the
    /// default weights scores them as the static evaluation does), holds out a tenth chosen by
    /// `seed`, and fits the sigmoid's scale to the default weights.
    ///
    /// # Errors
    ///
    /// [`TuneError::Sample`] for a FEN that does not read; [`TuneError::TooFew`] with fewer than
    /// 10 quiet positions.
    pub fn new(samples: &[Sample], rules: Rules, seed: u64) -> Result<Fitter, TuneError> {
        let mut quiet: Vec<(Position, f64)> = quiet_samples(samples, rules)?
            .into_iter()
            .map(|(pos, s)| (pos, f64::from(s.result)))
            .collect();
        if quiet.len() < 10 {
            return Err(TuneError::TooFew(quiet.len()));
        }
        Rng::new(seed).shuffle(&mut quiet);
        let valid = quiet.split_off(quiet.len() - quiet.len() / 10);
        let mut fitter = Fitter {
            train: quiet,
            valid,
            k: 1.0,
        };
        fitter.k = fitter.best_k(&EvalParams::DEFAULT);
        Ok(fitter)
    }

    /// The sigmoid's scale.
    pub fn k(&self) -> f64 {
        self.k
    }

    /// The mean squared error of `params` on the training positions.
    pub fn train_error(&self, params: &EvalParams) -> f64 {
        error(&self.train, params, self.k)
    }

    /// The mean squared error of `params` on the held-out positions.
    pub fn valid_error(&self, params: &EvalParams) -> f64 {
        error(&self.valid, params, self.k)
    }

    /// The scale minimising the training error of `params` (golden-section search on 0.05–4).
    fn best_k(&self, params: &EvalParams) -> f64 {
        let phi = (5f64.sqrt() - 1.0) / 2.0;
        let (mut a, mut b) = (0.05f64, 4.0f64);
        for _ in 0..40 {
            let c = b - phi * (b - a);
            let d = a + phi * (b - a);
            if error(&self.train, params, c) < error(&self.train, params, d) {
                b = d;
            } else {
                a = c;
            }
        }
        (a + b) / 2.0
    }
}

/// Texel's local search from `start`: `iterations` passes over the weights of `groups` (names
/// of [`EvalParams::to_text`]; empty: all), in an order shuffled from `seed`, each weight one
/// step up, else one step down, kept when the training error falls. `progress` is called after
/// each pass with its number and the error.
pub fn fit(
    fitter: &Fitter,
    start: &EvalParams,
    groups: &[String],
    iterations: u32,
    seed: u64,
    progress: &mut dyn FnMut(u32, f64),
) -> FitReport {
    let mut rng = Rng::new(seed.wrapping_add(1));
    let mut v = start.to_vec();
    let before = (fitter.train_error(start), fitter.valid_error(start));
    let mut best = before.0;
    let mut history = Vec::new();
    let mut order: Vec<usize> = (0..EVAL_PARAM_COUNT)
        .filter(|&i| {
            let name = EvalParams::name(i);
            let group = name.split('[').next().unwrap_or("");
            groups.is_empty() || groups.iter().any(|g| g == group)
        })
        .collect();
    for it in 1..=iterations {
        rng.shuffle(&mut order);
        let mut improved = false;
        for &i in &order {
            for dir in [1, -1] {
                let old = v[i];
                v[i] = old + dir * step(i);
                let params = EvalParams::from_slice(&v);
                if params.to_vec()[i] != v[i] {
                    // Out of the weight's range (a divisor below 1).
                    v[i] = old;
                    continue;
                }
                let e = fitter.train_error(&params);
                if e < best {
                    best = e;
                    improved = true;
                    break;
                }
                v[i] = old;
            }
        }
        history.push(best);
        progress(it, best);
        if !improved {
            break;
        }
    }
    let params = EvalParams::from_slice(&v);
    FitReport {
        k: fitter.k(),
        train: fitter.train.len(),
        valid: fitter.valid.len(),
        train_error: (before.0, fitter.train_error(&params)),
        valid_error: (before.1, fitter.valid_error(&params)),
        history,
        params,
    }
}
