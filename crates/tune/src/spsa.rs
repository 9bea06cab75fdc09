//! SPSA (simultaneous perturbation stochastic approximation) of evaluation weights and search
//! margins ([`EngineParams`]) through play: the weights are tuned by the matches they win, not by a static fit, so they stay tied
//! to the search that uses them.
//!
//! Each iteration `k` draws a random sign `Δᵢ = ±1` for every tuned weight (from the seed) and
//! plays two arena matches with the weights `θ + cₖΔ` and `θ − cₖΔ` (rounded): against each
//! other, seats swapped between the two (self-play), or each against the same opponent with the
//! same seats and seed (`SpsaConfig::opponent`). With `r` the points of `θ + cₖΔ` minus those
//! of `θ − cₖΔ` over the pair (from −2 to 2), every weight moves by `aₖ / cₖ · r · Δᵢ`. The
//! gains follow Spall's schedule as fishtest uses it: `cₖ = c·(N/k)^0.101` (the perturbation,
//! `c` per weight at the last iteration), `aₖ = a·(A + N)^0.602 / (A + k)^0.602` with `A = N/10`
//! and `a = r_end·c²`. Iterations run `jobs` at a time against the same `θ`; their updates
//! apply in order of `k`, so for a given seed and the same match results the run is the same.
//! Match results depend on wall-clock thinking times, as every arena match does.

use bughouse_arena::{BotOptions, Config, Spec};
use bughouse_core::{Preset, TimeControl};
use bughouse_engine::{EngineParams, Level, ENGINE_PARAM_COUNT};

use crate::Rng;

/// What to tune and how.
#[derive(Debug, Clone)]
pub struct SpsaConfig {
    /// Indexes of the tuned weights in [`EngineParams::to_vec`] ([`parse_weights`]).
    pub weights: Vec<usize>,
    /// Where the weights start.
    pub start: EngineParams,
    /// Iterations `N` (two matches each).
    pub iterations: u32,
    /// Seed of the perturbations and of the matches' bots.
    pub seed: u64,
    /// Time control of the matches.
    pub time: TimeControl,
    /// Level of the tuned bot.
    pub level: Level,
    /// Search configuration of the tuned bot (`bot?search=NAME`); `None`: the default.
    pub search: Option<String>,
    /// `None`: `θ + cΔ` plays `θ − cΔ`. `Some(spec)`: each plays this team.
    pub opponent: Option<Spec>,
    /// Iterations played at once (threads).
    pub jobs: usize,
    /// The perturbation at the last iteration as a fraction of each weight's start value (at
    /// least 1).
    pub c_fraction: f64,
    /// `a / c²` at the last iteration (fishtest's `r_end`).
    pub r_end: f64,
}

/// One iteration's outcome.
#[derive(Debug, Clone)]
pub struct SpsaStep {
    /// The iteration, from 1.
    pub k: u32,
    /// Points of `θ + cΔ` minus those of `θ − cΔ` over its two matches.
    pub result: f32,
    /// The tuned weights after this iteration's update.
    pub theta: Vec<f64>,
    /// All weights after it (the tuned ones rounded).
    pub params: EngineParams,
    /// The matches' BPGN.
    pub bpgn: String,
}

/// Why the weights to tune do not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    /// A name that is no weight group nor `group[i]` of one.
    #[error("no weight {0:?} (a group name as in the weights file, or group[i], of the evaluation or the search)")]
    Unknown(String),
    /// Nothing named.
    #[error("no weights to tune")]
    Empty,
}

/// The indexes of `names` in [`EngineParams::to_vec`]: a group name (`tempo`, `reserve_value`,
/// `rfp_margin`) stands for all of its weights, `group[i]` for one.
///
/// # Errors
///
/// [`WeightsError`] for an unknown name or an empty list.
pub fn parse_weights(names: &[String]) -> Result<Vec<usize>, WeightsError> {
    let all: Vec<String> = (0..ENGINE_PARAM_COUNT).map(EngineParams::name).collect();
    let mut out = Vec::new();
    for name in names {
        let name = name.trim();
        let found: Vec<usize> = (0..ENGINE_PARAM_COUNT)
            .filter(|&i| {
                all[i] == name
                    || all[i]
                        .strip_prefix(name)
                        .is_some_and(|rest| rest.starts_with('['))
            })
            .collect();
        if found.is_empty() {
            return Err(WeightsError::Unknown(name.to_owned()));
        }
        for i in found {
            if !out.contains(&i) {
                out.push(i);
            }
        }
    }
    if out.is_empty() {
        return Err(WeightsError::Empty);
    }
    Ok(out)
}

const ALPHA: f64 = 0.602;
const GAMMA: f64 = 0.101;

/// The tuner's state: `θ` and the gains.
#[derive(Debug, Clone)]
pub struct Spsa {
    config: SpsaConfig,
    theta: Vec<f64>,
    c_end: Vec<f64>,
}

impl Spsa {
    /// A tuner starting at `config.start`.
    pub fn new(config: SpsaConfig) -> Spsa {
        let start = config.start.to_vec();
        let theta: Vec<f64> = config
            .weights
            .iter()
            .map(|&i| f64::from(start[i]))
            .collect();
        let c_end = theta
            .iter()
            .map(|t| (t.abs() * config.c_fraction).max(1.0))
            .collect();
        Spsa {
            config,
            theta,
            c_end,
        }
    }

    /// The tuned weights now (unrounded), in the order of `SpsaConfig::weights`.
    pub fn theta(&self) -> &[f64] {
        &self.theta
    }

    /// The weights now, rounded, the others as they started.
    pub fn params(&self) -> EngineParams {
        self.with(&vec![0.0; self.theta.len()])
    }

    /// The start weights with `θ + offset` (rounded, keeping each weight's sign) in the tuned
    /// places.
    fn with(&self, offset: &[f64]) -> EngineParams {
        let mut v = self.config.start.to_vec();
        for (j, &i) in self.config.weights.iter().enumerate() {
            let x = (self.theta[j] + offset[j]).round() as i32;
            let start = v[i];
            v[i] = if start >= 0 { x.max(0) } else { x.min(0) };
        }
        // `from_slice` keeps the divisors at least 1.
        EngineParams::from_slice(&v)
    }

    fn c_k(&self, k: u32) -> f64 {
        let n = f64::from(self.config.iterations.max(1));
        (n / f64::from(k)).powf(GAMMA)
    }

    fn a_over_c(&self, j: usize, k: u32) -> f64 {
        let n = f64::from(self.config.iterations.max(1));
        let big_a = n / 10.0;
        let a = self.config.r_end * self.c_end[j] * self.c_end[j];
        let a_k = a * ((big_a + n) / (big_a + f64::from(k))).powf(ALPHA);
        a_k / (self.c_end[j] * self.c_k(k))
    }

    /// The perturbation signs of iteration `k` (from the seed alone).
    fn delta(&self, k: u32) -> Vec<f64> {
        let mut rng = Rng::new(self.config.seed ^ u64::from(k).wrapping_mul(0x2545_f491_4f6c_dd1d));
        self.theta
            .iter()
            .map(|_| if rng.next() & 1 == 0 { 1.0 } else { -1.0 })
            .collect()
    }

    /// The two matches of iteration `k` at the current `θ`: the points of `θ + cΔ` minus those
    /// of `θ − cΔ`, and their BPGN.
    fn play(&self, k: u32, report: &(dyn Fn(String) + Sync)) -> (f32, String) {
        let delta = self.delta(k);
        let ck = self.c_k(k);
        let offset: Vec<f64> = (0..delta.len())
            .map(|j| self.c_end[j] * ck * delta[j])
            .collect();
        let minus: Vec<f64> = offset.iter().map(|o| -o).collect();
        let plus = self.bot("spsa+", self.with(&offset));
        let minus = self.bot("spsa-", self.with(&minus));
        let seed = self
            .config
            .seed
            .wrapping_mul(1_000_003)
            .wrapping_add(u64::from(k));
        let config = |team1: Spec, team2: Spec| Config {
            team1,
            team2,
            time: self.config.time,
            rules: Preset::Fide,
            seed,
        };
        let mut bpgn = String::new();
        let mut result = 0.0;
        match &self.config.opponent {
            None => {
                let c = config(plus, minus);
                for number in 1..=2 {
                    let played = c.play(number, report);
                    result += played.team1_points() - played.team2_points();
                    bpgn.push_str(&played.bpgn(&c));
                }
            }
            Some(opponent) => {
                // One seating per iteration, alternating, the same for both.
                let number = 1 + k % 2;
                for (sign, team) in [(1.0, plus), (-1.0, minus)] {
                    let c = config(team, opponent.clone());
                    let played = c.play(number, report);
                    result += sign * played.team1_points();
                    bpgn.push_str(&played.bpgn(&c));
                }
            }
        }
        (result, bpgn)
    }

    fn bot(&self, label: &str, params: EngineParams) -> Spec {
        Spec::Bot(
            self.config.level,
            BotOptions {
                eval: Some((label.into(), Box::new(params))),
                search: self.config.search.clone(),
            },
        )
    }

    /// Applies iteration `k`'s result.
    fn update(&mut self, k: u32, result: f32) {
        let delta = self.delta(k);
        for (j, d) in delta.iter().enumerate() {
            self.theta[j] += self.a_over_c(j, k) * f64::from(result) * d;
        }
    }

    /// Runs every iteration, `jobs` at a time; `step` sees each one after its update.
    pub fn run(&mut self, report: &(dyn Fn(String) + Sync), step: &mut dyn FnMut(&SpsaStep)) {
        let jobs = self.config.jobs.max(1) as u32;
        let mut k = 1;
        while k <= self.config.iterations {
            let last = (k + jobs - 1).min(self.config.iterations);
            let this = &*self;
            let results: Vec<(f32, String)> = std::thread::scope(|s| {
                let handles: Vec<_> = (k..=last)
                    .map(|i| s.spawn(move || this.play(i, report)))
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("an arena match panicked"))
                    .collect()
            });
            for (i, (result, bpgn)) in (k..=last).zip(results) {
                self.update(i, result);
                step(&SpsaStep {
                    k: i,
                    result,
                    theta: self.theta.clone(),
                    params: self.params(),
                    bpgn,
                });
            }
            k = last + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bughouse_engine::{EvalParams, SearchParams};

    fn config(weights: Vec<usize>) -> SpsaConfig {
        SpsaConfig {
            weights,
            start: EngineParams::DEFAULT,
            iterations: 100,
            seed: 7,
            time: "1s+0".parse().unwrap(),
            level: Level::new(1).unwrap(),
            search: None,
            opponent: None,
            jobs: 1,
            c_fraction: 0.1,
            r_end: 0.02,
        }
    }

    #[test]
    fn weights_read_by_group_and_index() {
        let w = parse_weights(&["tempo".into(), "reserve_value[1]".into()]).unwrap();
        assert_eq!(w, vec![37, 6]);
        assert_eq!(
            parse_weights(&["reserve_value".into()]).unwrap(),
            (5..10).collect::<Vec<_>>()
        );
        assert_eq!(
            parse_weights(&["reserve".into()]),
            Err(WeightsError::Unknown("reserve".into()))
        );
        assert_eq!(parse_weights(&[]), Err(WeightsError::Empty));
    }

    #[test]
    fn a_won_pair_moves_each_weight_its_own_way() {
        let weights = parse_weights(&["tempo".into(), "danger_divisor".into()]).unwrap();
        let mut s = Spsa::new(config(weights));
        let before = s.theta().to_vec();
        let delta = s.delta(1);
        s.update(1, 2.0);
        for j in 0..2 {
            let moved = s.theta()[j] - before[j];
            assert!(
                moved * delta[j] > 0.0,
                "weight {j} moved {moved} against {}",
                delta[j]
            );
        }
        // A drawn pair moves nothing.
        let now = s.theta().to_vec();
        s.update(2, 0.0);
        assert_eq!(s.theta(), &now[..]);
        // The same seed draws the same signs.
        assert_eq!(s.delta(5), Spsa::new(s.config.clone()).delta(5));
    }

    #[test]
    fn perturbed_weights_keep_their_sign_and_the_divisor() {
        let weights = parse_weights(&["danger_divisor".into(), "tempo".into()]).unwrap();
        let s = Spsa::new(config(weights));
        let p = s.with(&[-100.0, -100.0]).eval;
        assert_eq!(p.danger_divisor, 1);
        assert_eq!(p.tempo, 0);
        let p = s.with(&[2.4, 10.6]).eval;
        assert_eq!(p.danger_divisor, EvalParams::DEFAULT.danger_divisor + 2);
        assert_eq!(p.tempo, EvalParams::DEFAULT.tempo + 11);
        // Untuned weights stay.
        assert_eq!(p.board_value, EvalParams::DEFAULT.board_value);
    }

    #[test]
    fn search_margins_are_tuned_beside_the_weights() {
        let weights = parse_weights(&["rfp_margin".into(), "tempo".into()]).unwrap();
        assert_eq!(weights[0], bughouse_engine::EVAL_PARAM_COUNT);
        let s = Spsa::new(config(weights));
        // c is a tenth of each start value.
        assert_eq!(s.c_end, vec![11.0, 2.2]);
        let p = s.with(&[-20.0, 3.0]);
        assert_eq!(p.search.rfp_margin, SearchParams::DEFAULT.rfp_margin - 20);
        assert_eq!(p.eval.tempo, EvalParams::DEFAULT.tempo + 3);
        assert_eq!(p.search.qs_delta, SearchParams::DEFAULT.qs_delta);
        // A divisor of the search stays at least 1.
        let divisor = parse_weights(&["null_divisor".into()]).unwrap();
        let s = Spsa::new(config(divisor));
        assert_eq!(s.with(&[-50.0]).search.null_divisor, 1);
    }
}
