//! Glicko-2 ratings for bughouse: one rating per player and one per team of two.
//!
//! The algorithm is Mark Glickman's, as written in "Example of the Glicko-2 system"
//! (<http://www.glicko.net/glicko/glicko2.pdf>), steps 1 to 8, with the Illinois algorithm for
//! the new volatility (step 5.1). The unit tests at the bottom of this file reproduce the paper's
//! worked example step by step.
//!
//! # Rating periods
//!
//! Glicko-2 rates a *rating period* of games at once. Here every rated match is a rating period of
//! its own, as lichess does: ratings change right after each match, which players expect to see.
//! Time without play still counts: before a match, a rating whose last match is `d` days old has
//! its deviation widened as if `d × periods_per_day` empty periods had passed
//! ([`Config::idle`]: `φ² + t·σ²`, lichess's formula, with its 0.21436 periods per day).
//!
//! # Bughouse: whom a player is rated against
//!
//! A bughouse match has one result for two teams of two. A player is rated as one half of his
//! team: the team's strength is the mean of its players' ratings, and the result is an
//! observation of his team's mean against the other team's mean. That is what FICS does for its
//! bughouse rating (its server's `ratings.c`: the expected score is computed from the sum of the
//! team's ratings against the sum of the opponents' over 800 instead of 400, i.e. mean against
//! mean, with a sensitivity of `ln 10 / 800` where chess has `ln 10 / 400`, and the partner's
//! and both opponents' deviations all widening the expectation), here carried over to Glicko-2:
//!
//! - the expected score is `E = 1 / (1 + exp(-g(φc)·(μteam − μopp)))` with the means of both
//!   teams and `φc² = (φpartner² + φopp1² + φopp2²) / 4`, the uncertainty of everything but the
//!   player's own rating;
//! - the player's own `μ` enters the team's mean with weight ½, so his update uses `½·g(φc)` where
//!   a one-to-one game uses `g(φj)` (the derivative of the expected score in his `μ`).
//!
//! Rating each player against the two opponents as two separate games would count one result
//! twice and ignore the partner, who decides half of it; against the mean of the opponents alone
//! it would still ignore the partner. One consequence of the model: a match tells less about one
//! player than a game of chess does, so deviations shrink more slowly (the long-run deviation of
//! a regular player is about 85 points, where a one-to-one player's is about 60).
//!
//! A **team** (an unordered pair of accounts) has a Glicko-2 rating of its own, rated as one
//! player against the opposing team's rating, one game per match.
//!
//! Scores: a win is 1, a draw ½, a loss 0 ([`score_of_result`]).
//!
//! ```
//! use bughouse_rating::{Config, MatchRatings, Rating};
//!
//! let config = Config::default();
//! let new = config.initial;
//! let before = MatchRatings { players: [new; 4], teams: [new; 2] };
//! // Team one (seats 0 and 3: WhiteA and BlackB) wins.
//! let changes = config.rate_match(&before, 1.0).unwrap();
//! assert!(changes.players[0].delta() > 0.0 && changes.players[1].delta() < 0.0);
//! assert!(changes.teams[0].delta() > 0.0);
//! ```

use std::f64::consts::PI;

/// The factor between the Glicko scale (ratings such as 1500) and the Glicko-2 scale (`μ`, `φ`),
/// as the paper gives it.
pub const SCALE: f64 = 173.7178;

/// The rating that is `μ = 0` on the Glicko-2 scale.
pub const CENTRE: f64 = 1500.0;

/// A rating on the Glicko scale: rating, rating deviation (RD) and volatility `σ`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    /// The rating, 1500 for a newcomer.
    pub rating: f64,
    /// The rating deviation (one standard deviation of the rating), 350 for a newcomer.
    pub deviation: f64,
    /// The volatility `σ`: how erratic the player's results are, 0.06 for a newcomer.
    pub volatility: f64,
}

impl Rating {
    /// A rating from its three numbers.
    pub const fn new(rating: f64, deviation: f64, volatility: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility,
        }
    }

    /// `μ`: the rating on the Glicko-2 scale (step 2).
    pub fn mu(&self) -> f64 {
        (self.rating - CENTRE) / SCALE
    }

    /// `φ`: the deviation on the Glicko-2 scale (step 2).
    pub fn phi(&self) -> f64 {
        self.deviation / SCALE
    }

    /// Back from the Glicko-2 scale (step 8).
    pub fn from_glicko2(mu: f64, phi: f64, volatility: f64) -> Rating {
        Rating {
            rating: mu * SCALE + CENTRE,
            deviation: phi * SCALE,
            volatility,
        }
    }

    fn check(&self) -> Result<(), RatingError> {
        let ok = self.rating.is_finite()
            && self.deviation.is_finite()
            && self.deviation > 0.0
            && self.volatility.is_finite()
            && self.volatility > 0.0;
        if ok {
            Ok(())
        } else {
            Err(RatingError::InvalidRating(*self))
        }
    }
}

/// One game of a rating period: the opponent's rating before the period and the score.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Game {
    /// The opponent's rating at the start of the period.
    pub opponent: Rating,
    /// 1 for a win, ½ for a draw, 0 for a loss.
    pub score: f64,
}

/// Why a rating could not be computed: bad input, never bad luck.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum RatingError {
    /// A rating with a non-finite number, or a deviation or volatility that is not positive.
    #[error(
        "invalid rating {0:?}: the rating must be finite, the deviation and volatility positive"
    )]
    InvalidRating(Rating),
    /// A score outside 0..=1 (or not a number).
    #[error("invalid score {0}: a score is 1 (win), 0.5 (draw), 0 (loss) or between")]
    InvalidScore(f64),
    /// Settings that make no sense (a `τ` or `ε` that is not positive, deviation bounds
    /// reversed, a negative number of periods).
    #[error("invalid rating settings: {0}")]
    InvalidConfig(&'static str),
}

/// The settings of the rating system.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Config {
    /// `τ`, which constrains how fast the volatility changes (the paper suggests 0.3 to 1.2).
    /// 0.75 by default, as lichess, which also rates each game as its own period.
    pub tau: f64,
    /// The rating of a newcomer (player or team): 1500, RD 350, volatility 0.06 (the paper's).
    pub initial: Rating,
    /// The smallest deviation a rating keeps after a match (45 by default, lichess's floor), so
    /// that a settled rating still moves.
    pub min_deviation: f64,
    /// The largest deviation: that of a newcomer (350); idle time never widens a rating beyond
    /// it.
    pub max_deviation: f64,
    /// How many empty rating periods a day without a match counts as ([`Config::idle`]);
    /// 0.21436, lichess's figure.
    pub periods_per_day: f64,
    /// The convergence tolerance `ε` of the volatility iteration (the paper's 0.000001).
    pub epsilon: f64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            tau: 0.75,
            initial: Rating::new(1500.0, 350.0, 0.06),
            min_deviation: 45.0,
            max_deviation: 350.0,
            periods_per_day: 0.21436,
            epsilon: 0.000_001,
        }
    }
}

/// The system of the paper's example: `τ = 0.5`, no bounds on the deviation.
pub const PAPER: Config = Config {
    tau: 0.5,
    initial: Rating::new(1500.0, 350.0, 0.06),
    min_deviation: 0.0,
    max_deviation: f64::INFINITY,
    periods_per_day: 0.0,
    epsilon: 0.000_001,
};

/// The seats of a match, as everywhere in the workspace: 0 WhiteA, 1 BlackA, 2 WhiteB, 3 BlackB.
/// Team one is WhiteA and BlackB, team two BlackA and WhiteB.
pub const TEAM_SEATS: [[usize; 2]; 2] = [[0, 3], [1, 2]];

/// The team (0 or 1) of a seat (0..4).
pub const fn team_of(seat: usize) -> usize {
    match seat {
        0 | 3 => 0,
        _ => 1,
    }
}

/// The partner's seat of a seat (0..4).
pub const fn partner_of(seat: usize) -> usize {
    3 - seat
}

/// Team one's score of a match result as the store and BPGN write it: `1-0` → 1, `0-1` → 0,
/// `1/2-1/2` → ½; `None` for anything else (`*`, an unfinished match).
pub fn score_of_result(result: &str) -> Option<f64> {
    match result {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" => Some(0.5),
        _ => None,
    }
}

/// The ratings that take part in a rated match, before it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MatchRatings {
    /// The four players' ratings, by seat: 0 WhiteA, 1 BlackA, 2 WhiteB, 3 BlackB.
    pub players: [Rating; 4],
    /// The two teams' ratings: team one (seats 0 and 3) and team two (seats 1 and 2).
    pub teams: [Rating; 2],
}

/// A rating before and after a match.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Change {
    /// Before the match (after idle time, if the caller applied [`Config::idle`]).
    pub before: Rating,
    /// After the match.
    pub after: Rating,
}

impl Change {
    /// How much the rating moved (positive: up).
    pub fn delta(&self) -> f64 {
        self.after.rating - self.before.rating
    }

    /// How much the deviation moved (negative: more certain).
    pub fn deviation_delta(&self) -> f64 {
        self.after.deviation - self.before.deviation
    }
}

/// What a rated match did to the four players' and the two teams' ratings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MatchChanges {
    /// By seat, as in [`MatchRatings::players`].
    pub players: [Change; 4],
    /// Team one, team two.
    pub teams: [Change; 2],
}

impl MatchChanges {
    /// The ratings after the match.
    pub fn after(&self) -> MatchRatings {
        MatchRatings {
            players: self.players.map(|c| c.after),
            teams: self.teams.map(|c| c.after),
        }
    }
}

impl Config {
    /// Step 1 to 8 of the paper: the rating after one rating period with these games (all
    /// against the opponents' ratings at the start of the period). No games: only the deviation
    /// widens, by the volatility (the paper's rule for a player who did not compete).
    ///
    /// The deviation after the period is kept within [`Config::min_deviation`] and
    /// [`Config::max_deviation`] ([`PAPER`] sets no bounds).
    pub fn rate(&self, player: Rating, games: &[Game]) -> Result<Rating, RatingError> {
        self.check()?;
        player.check()?;
        let mut terms = Vec::with_capacity(games.len());
        for game in games {
            game.opponent.check()?;
            check_score(game.score)?;
            let (mu_j, phi_j) = (game.opponent.mu(), game.opponent.phi());
            terms.push(Term {
                sensitivity: g(phi_j),
                expected: expected(player.mu(), mu_j, phi_j),
                score: game.score,
            });
        }
        Ok(self.update(player, &terms))
    }

    /// A rating after `days` without a rated match: `φ² + t·σ²` with `t = days × periods_per_day`
    /// empty periods (lichess's formula for periods that are not whole), at most
    /// [`Config::max_deviation`]. Rating and volatility stay.
    pub fn idle(&self, player: Rating, days: f64) -> Result<Rating, RatingError> {
        self.check()?;
        player.check()?;
        if !non_negative(days) {
            return Err(RatingError::InvalidConfig("idle days must be 0 or more"));
        }
        let periods = days * self.periods_per_day;
        let phi = player.phi();
        let widened = (phi * phi + periods * player.volatility * player.volatility).sqrt();
        let deviation = (widened * SCALE).min(self.max_deviation.max(player.deviation));
        Ok(Rating {
            deviation,
            ..player
        })
    }

    /// The new ratings of the four players and the two teams of a rated match, from their
    /// ratings before it and team one's score (1 won, ½ drawn, 0 lost; see
    /// [`score_of_result`]). The model is in the crate's documentation: each player as half of
    /// his team against the other team's mean, each team against the other team.
    pub fn rate_match(
        &self,
        before: &MatchRatings,
        score: f64,
    ) -> Result<MatchChanges, RatingError> {
        self.check()?;
        check_score(score)?;
        for r in before.players.iter().chain(&before.teams) {
            r.check()?;
        }
        let team_score = [score, 1.0 - score];
        let players = std::array::from_fn(|seat| {
            let me = before.players[seat];
            let team = team_of(seat);
            let partner = before.players[partner_of(seat)];
            let [o1, o2] = TEAM_SEATS[1 - team].map(|s| before.players[s]);
            let mu_team = (me.mu() + partner.mu()) / 2.0;
            let mu_opp = (o1.mu() + o2.mu()) / 2.0;
            let phi_c = (partner.phi().powi(2) + o1.phi().powi(2) + o2.phi().powi(2)).sqrt() / 2.0;
            let g_c = g(phi_c);
            let term = Term {
                // ∂E/∂μ = ½·g(φc)·E(1−E): the player is half of his team.
                sensitivity: g_c / 2.0,
                expected: logistic(g_c * (mu_team - mu_opp)),
                score: team_score[team],
            };
            Change {
                before: me,
                after: self.update(me, &[term]),
            }
        });
        let teams = std::array::from_fn(|team| {
            let me = before.teams[team];
            let other = before.teams[1 - team];
            let term = Term {
                sensitivity: g(other.phi()),
                expected: expected(me.mu(), other.mu(), other.phi()),
                score: team_score[team],
            };
            Change {
                before: me,
                after: self.update(me, &[term]),
            }
        });
        Ok(MatchChanges { players, teams })
    }

    fn check(&self) -> Result<(), RatingError> {
        if !positive(self.tau) {
            return Err(RatingError::InvalidConfig("tau must be positive"));
        }
        if !positive(self.epsilon) {
            return Err(RatingError::InvalidConfig("epsilon must be positive"));
        }
        if !non_negative(self.min_deviation) || self.min_deviation > self.max_deviation {
            return Err(RatingError::InvalidConfig(
                "the deviation bounds must be 0 <= min <= max",
            ));
        }
        if !non_negative(self.periods_per_day) {
            return Err(RatingError::InvalidConfig(
                "periods per day must be 0 or more",
            ));
        }
        self.initial.check()
    }

    /// Steps 3 to 8 for one player and the terms of his period (inputs checked).
    fn update(&self, player: Rating, terms: &[Term]) -> Rating {
        let (mu, phi, sigma) = (player.mu(), player.phi(), player.volatility);
        let information: f64 = terms
            .iter()
            .map(|t| t.sensitivity * t.sensitivity * t.expected * (1.0 - t.expected))
            .sum();
        let (new_sigma, phi_star) = if information > 0.0 && information.is_finite() {
            let v = 1.0 / information;
            let delta = v * improvement(terms);
            let new_sigma = new_volatility(sigma, phi, v, delta, self.tau, self.epsilon);
            (new_sigma, pre_period_phi(phi, new_sigma))
        } else {
            // No game, or results so certain that they tell nothing (E = 0 or 1 exactly):
            // only the deviation widens.
            (sigma, pre_period_phi(phi, sigma))
        };
        let new_phi = 1.0 / (1.0 / (phi_star * phi_star) + information).sqrt();
        let new_mu = mu + new_phi * new_phi * improvement(terms);
        let lo = self.min_deviation / SCALE;
        let hi = self.max_deviation / SCALE;
        let new_phi = new_phi.clamp(lo, hi.max(lo));
        Rating::from_glicko2(new_mu, new_phi, new_sigma)
    }
}

/// Finite and above 0.
fn positive(x: f64) -> bool {
    x.is_finite() && x > 0.0
}

/// Finite and 0 or more.
fn non_negative(x: f64) -> bool {
    x.is_finite() && x >= 0.0
}

fn check_score(score: f64) -> Result<(), RatingError> {
    if (0.0..=1.0).contains(&score) {
        Ok(())
    } else {
        Err(RatingError::InvalidScore(score))
    }
}

/// One result of a rating period as the rated player sees it.
#[derive(Debug, Clone, Copy)]
struct Term {
    /// How much the expected score moves with the player's `μ`, divided by `E(1 − E)`: `g(φj)`
    /// for a game against one opponent, `½·g(φc)` for a bughouse player.
    sensitivity: f64,
    /// The expected score `E`.
    expected: f64,
    /// The score `s`.
    score: f64,
}

/// Step 3: `g(φ) = 1 / √(1 + 3φ²/π²)`.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Step 3: `E(μ, μj, φj) = 1 / (1 + exp(−g(φj)(μ − μj)))`.
fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    logistic(g(phi_j) * (mu - mu_j))
}

/// Step 3: `v = [Σ g(φj)² E (1 − E)]⁻¹`.
#[cfg(test)]
fn variance(terms: &[Term]) -> f64 {
    1.0 / terms
        .iter()
        .map(|t| t.sensitivity * t.sensitivity * t.expected * (1.0 - t.expected))
        .sum::<f64>()
}

/// The sum of step 4 and step 7: `Σ g(φj) (sj − E)`; `Δ` is `v` times it.
fn improvement(terms: &[Term]) -> f64 {
    terms
        .iter()
        .map(|t| t.sensitivity * (t.score - t.expected))
        .sum()
}

/// The most iterations of step 5; the Illinois algorithm converges in a handful, this only
/// bounds the work on inputs that would make it wander.
const MAX_ITERATIONS: usize = 1000;

/// Step 5: the new volatility `σ'`, by the Illinois algorithm (step 5.1 to 5.5).
fn new_volatility(sigma: f64, phi: f64, v: f64, delta: f64, tau: f64, epsilon: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let (phi2, delta2) = (phi * phi, delta * delta);
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex).powi(2)) - (x - a) / (tau * tau)
    };
    // 5.2: the initial values.
    let mut big_a = a;
    let mut big_b = if delta2 > phi2 + v {
        (delta2 - phi2 - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 && k < MAX_ITERATIONS as f64 {
            k += 1.0;
        }
        a - k * tau
    };
    // 5.3 and 5.4.
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    let mut iterations = 0;
    while (big_b - big_a).abs() > epsilon && iterations < MAX_ITERATIONS {
        iterations += 1;
        let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(big_c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = big_c;
        f_b = f_c;
    }
    // 5.5.
    let new_sigma = (big_a / 2.0).exp();
    if new_sigma.is_finite() && new_sigma > 0.0 {
        new_sigma
    } else {
        sigma
    }
}

/// Step 6: `φ* = √(φ² + σ'²)`.
fn pre_period_phi(phi: f64, new_sigma: f64) -> f64 {
    (phi * phi + new_sigma * new_sigma).sqrt()
}

#[cfg(test)]
mod tests {
    //! Glickman's worked example: a player rated 1500, RD 200, volatility 0.06 plays three games
    //! in a period (τ = 0.5): beats a 1400 (RD 30), loses to a 1550 (RD 100) and to a 1700 (RD
    //! 300).
    //!
    //! The paper prints each step's result rounded, and computes some steps from the rounded
    //! results of the previous one. Each test below therefore feeds a step the paper's printed
    //! inputs and checks the printed output to the printed number of decimals; the end-to-end
    //! test runs in full precision, where the rounding of the printed chain shows: the full
    //! computation gives v = 1.7790 and Δ = −0.4839 (printed, from the rounded g and E: 1.7785
    //! and −0.4834), and r' = 1464.05 (printed 1464.06, from the rounded μ' = −0.2069).

    use super::*;

    /// `printed` is `value` to `decimals` places, rounded or cut: the paper does both (it prints
    /// g(0.1727) = 0.99550 as 0.9955, but g(0.5756) = 0.95316 as 0.9531 and σ' = 0.059996 as
    /// 0.05999).
    #[track_caller]
    fn printed(value: f64, printed: f64, decimals: i32) {
        let unit = 10f64.powi(decimals);
        let rounded = (value * unit).round() / unit;
        let cut = (value * unit).trunc() / unit;
        assert!(
            (rounded - printed).abs() < 1e-9 || (cut - printed).abs() < 1e-9,
            "{value} is not the printed {printed} ({decimals} decimals, rounded or cut)"
        );
    }

    const PLAYER: Rating = Rating::new(1500.0, 200.0, 0.06);
    const OPPONENTS: [(Rating, f64); 3] = [
        (Rating::new(1400.0, 30.0, 0.06), 1.0),
        (Rating::new(1550.0, 100.0, 0.06), 0.0),
        (Rating::new(1700.0, 300.0, 0.06), 0.0),
    ];
    // The paper's table of step 3, as printed.
    const MU_J: [f64; 3] = [-0.5756, 0.2878, 1.1513];
    const PHI_J: [f64; 3] = [0.1727, 0.5756, 1.7269];
    const G_J: [f64; 3] = [0.9955, 0.9531, 0.7242];
    const E_J: [f64; 3] = [0.639, 0.432, 0.303];
    const S_J: [f64; 3] = [1.0, 0.0, 0.0];

    fn printed_terms() -> Vec<Term> {
        (0..3)
            .map(|j| Term {
                sensitivity: G_J[j],
                expected: E_J[j],
                score: S_J[j],
            })
            .collect()
    }

    #[test]
    fn step_2_scales() {
        printed(PLAYER.mu(), 0.0, 4);
        printed(PLAYER.phi(), 1.1513, 4);
        for (j, (opponent, _)) in OPPONENTS.iter().enumerate() {
            printed(opponent.mu(), MU_J[j], 4);
            printed(opponent.phi(), PHI_J[j], 4);
        }
    }

    #[test]
    fn step_3_g_and_e() {
        for j in 0..3 {
            printed(g(PHI_J[j]), G_J[j], 4);
            printed(expected(0.0, MU_J[j], PHI_J[j]), E_J[j], 3);
        }
    }

    #[test]
    fn step_3_variance() {
        printed(variance(&printed_terms()), 1.7785, 4);
    }

    #[test]
    fn step_4_delta() {
        let terms = printed_terms();
        // The paper prints the sum as −0.2717; from its printed g and E it is −0.27180, and its
        // Δ = 1.7785 × −0.27180 = −0.4834.
        printed(improvement(&terms), -0.2718, 4);
        printed(1.7785 * improvement(&terms), -0.4834, 4);
    }

    #[test]
    fn step_5_volatility() {
        let sigma = new_volatility(0.06, 1.1513, 1.7785, -0.4834, 0.5, 0.000_001);
        printed(sigma, 0.05999, 5);
        // The function the iteration solves, at its start (a = ln σ² = −5.62682).
        printed((0.06f64 * 0.06).ln(), -5.62682, 5);
    }

    #[test]
    fn step_6_pre_period_deviation() {
        printed(pre_period_phi(1.1513, 0.05999), 1.152862, 6);
    }

    #[test]
    fn step_7_new_deviation_and_rating() {
        let phi = 1.0 / (1.0 / 1.152862f64.powi(2) + 1.0 / 1.7785).sqrt();
        printed(phi, 0.8722, 4);
        // μ' is printed from the full-precision chain (see `full_precision`).
    }

    #[test]
    fn step_8_back_to_the_glicko_scale() {
        let r = Rating::from_glicko2(-0.2069, 0.8722, 0.05999);
        printed(r.rating, 1464.06, 2);
        printed(r.deviation, 151.52, 2);
    }

    #[test]
    fn full_precision() {
        let games: Vec<Game> = OPPONENTS
            .iter()
            .map(|&(opponent, score)| Game { opponent, score })
            .collect();
        let terms: Vec<Term> = games
            .iter()
            .map(|game| Term {
                sensitivity: g(game.opponent.phi()),
                expected: expected(PLAYER.mu(), game.opponent.mu(), game.opponent.phi()),
                score: game.score,
            })
            .collect();
        for (j, t) in terms.iter().enumerate() {
            printed(t.sensitivity, G_J[j], 4);
            printed(t.expected, E_J[j], 3);
        }
        let v = variance(&terms);
        printed(v, 1.7790, 4);
        printed(v * improvement(&terms), -0.4839, 4);
        let new = PAPER.rate(PLAYER, &games).unwrap();
        printed(new.mu(), -0.2069, 4);
        printed(new.phi(), 0.8722, 4);
        printed(new.volatility, 0.05999, 5);
        printed(new.rating, 1464.05, 2);
        assert!((new.rating - 1464.06).abs() < 0.01, "{}", new.rating);
        printed(new.deviation, 151.52, 2);
    }

    #[test]
    fn no_games_widens_the_deviation_only() {
        let r = PAPER.rate(PLAYER, &[]).unwrap();
        assert_eq!((r.rating, r.volatility), (1500.0, 0.06));
        assert!((r.phi() - (PLAYER.phi().powi(2) + 0.0036).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn volatility_branch_where_delta_is_large() {
        // Δ² > φ² + v takes the other initial B of step 5.2; the iteration must still converge
        // to a root of f.
        let sigma = new_volatility(0.06, 0.3, 0.5, 2.0, 0.5, 0.000_001);
        assert!(sigma > 0.06 && sigma < 1.0, "{sigma}");
    }

    #[test]
    fn idle_time_widens_up_to_the_bound() {
        let config = Config::default();
        let r = Rating::new(1700.0, 80.0, 0.06);
        assert_eq!(config.idle(r, 0.0).unwrap(), r);
        let year = config.idle(r, 365.0).unwrap();
        let phi = (r.phi().powi(2) + 365.0 * 0.21436 * 0.0036).sqrt();
        assert!((year.deviation - phi * SCALE).abs() < 1e-9);
        assert_eq!(year.rating, 1700.0);
        assert_eq!(config.idle(r, 1e9).unwrap().deviation, 350.0);
        assert!(config.idle(r, -1.0).is_err());
    }

    #[test]
    fn bad_inputs_are_errors() {
        let config = Config::default();
        let bad = Rating::new(f64::NAN, 100.0, 0.06);
        assert!(matches!(
            config.rate(bad, &[]),
            Err(RatingError::InvalidRating(_))
        ));
        let game = Game {
            opponent: PLAYER,
            score: 1.5,
        };
        assert_eq!(
            config.rate(PLAYER, &[game]),
            Err(RatingError::InvalidScore(1.5))
        );
        let before = MatchRatings {
            players: [PLAYER; 4],
            teams: [Rating::new(1500.0, 0.0, 0.06); 2],
        };
        assert!(config.rate_match(&before, 1.0).is_err());
        let before = MatchRatings {
            players: [PLAYER; 4],
            teams: [PLAYER; 2],
        };
        assert!(config.rate_match(&before, -0.1).is_err());
        let odd = Config { tau: 0.0, ..config };
        assert!(matches!(
            odd.rate(PLAYER, &[]),
            Err(RatingError::InvalidConfig(_))
        ));
    }

    #[test]
    fn results_and_seats() {
        assert_eq!(score_of_result("1-0"), Some(1.0));
        assert_eq!(score_of_result("0-1"), Some(0.0));
        assert_eq!(score_of_result("1/2-1/2"), Some(0.5));
        assert_eq!(score_of_result("*"), None);
        assert_eq!([0, 1, 2, 3].map(team_of), [0, 1, 1, 0]);
        assert_eq!([0, 1, 2, 3].map(partner_of), [3, 2, 1, 0]);
    }

    /// The long-run deviations the crate's documentation states: a player who keeps playing
    /// even matches settles near 85, a team (rated one to one) near 60.
    #[test]
    fn long_run_deviations() {
        let config = Config::default();
        let mut before = MatchRatings {
            players: [config.initial; 4],
            teams: [config.initial; 2],
        };
        for i in 0..2000 {
            let score = if i % 2 == 0 { 1.0 } else { 0.0 };
            before = config.rate_match(&before, score).unwrap().after();
        }
        let player = before.players[0].deviation;
        let team = before.teams[0].deviation;
        assert!((80.0..90.0).contains(&player), "{player}");
        assert!((55.0..65.0).contains(&team), "{team}");
    }

    /// The bughouse model written out for one player, against the formulas of the crate's
    /// documentation.
    #[test]
    fn a_bughouse_player_is_half_of_his_team() {
        let players = [
            Rating::new(1600.0, 100.0, 0.06),
            Rating::new(1500.0, 200.0, 0.06),
            Rating::new(1450.0, 150.0, 0.06),
            Rating::new(1400.0, 120.0, 0.06),
        ];
        let teams = [Rating::new(1500.0, 350.0, 0.06); 2];
        let changes = PAPER
            .rate_match(&MatchRatings { players, teams }, 1.0)
            .unwrap();
        // Seat 0: partner seat 3, opponents 1 and 2.
        let mu_team = (players[0].mu() + players[3].mu()) / 2.0;
        let mu_opp = (players[1].mu() + players[2].mu()) / 2.0;
        let phi_c =
            (players[3].phi().powi(2) + players[1].phi().powi(2) + players[2].phi().powi(2)).sqrt()
                / 2.0;
        let e = 1.0 / (1.0 + (-g(phi_c) * (mu_team - mu_opp)).exp());
        let h = g(phi_c) / 2.0;
        let v = 1.0 / (h * h * e * (1.0 - e));
        let sigma = new_volatility(0.06, players[0].phi(), v, v * h * (1.0 - e), 0.5, 1e-6);
        let phi_star = (players[0].phi().powi(2) + sigma * sigma).sqrt();
        let phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu = players[0].mu() + phi * phi * h * (1.0 - e);
        let after = changes.players[0].after;
        assert!((after.mu() - mu).abs() < 1e-12);
        assert!((after.phi() - phi).abs() < 1e-12);
        assert!((after.volatility - sigma).abs() < 1e-12);
        // Teams are rated one against the other as a plain game.
        let team = PAPER
            .rate(
                teams[0],
                &[Game {
                    opponent: teams[1],
                    score: 1.0,
                }],
            )
            .unwrap();
        assert_eq!(changes.teams[0].after, team);
    }
}
