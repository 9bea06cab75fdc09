//! Ratings of players from their results against each other: the logistic (Elo) model fitted by
//! maximum likelihood, with an error bar for each from the curvature of the likelihood. It
//! calibrates the bot levels' published ratings from arena matches between levels
//! (`examples/calibrate.rs`).
//!
//! The model: a player rated `ra` scores `1 / (1 + 10^((rb - ra) / 400))` on average against
//! one rated `rb` (a draw is half a point). Every pair that met also gets one drawn game more, a
//! prior that keeps the fit finite when one side won every game (as BayesElo's virtual draws).
//! One player is the anchor: his rating is fixed, and every error bar is relative to him.

/// One game's result between players `a` and `b` (indexes into the ratings).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Game {
    /// The first player.
    pub a: usize,
    /// The second player.
    pub b: usize,
    /// What `a` scored: 1, ½ or 0 (or a share of the points when a match scores more).
    pub score_a: f64,
}

/// A fitted rating.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fitted {
    /// The rating (Elo scale).
    pub rating: f64,
    /// Its standard error relative to the anchor (0 for the anchor).
    pub error: f64,
}

/// Why ratings cannot be fitted.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FitError {
    /// A game names a player that is not among the `players`.
    #[error("a game names player {0}, but there are {1}")]
    NoSuchPlayer(usize, usize),
    /// A player is not connected to the anchor by games.
    #[error("player {0} has no chain of games to the anchor")]
    Disconnected(usize),
    /// A score outside 0..=1.
    #[error("a score of {0} (a score is from 0 to 1)")]
    BadScore(f64),
}

/// `ln(10) / 400`: the logistic slope of the Elo scale.
const SLOPE: f64 = std::f64::consts::LN_10 / 400.0;

/// Fits the ratings of `players` players from `games`, player `anchor` fixed at `anchor_rating`.
///
/// # Errors
///
/// [`FitError`]: a game with an unknown player or a score outside 0..=1, or a player with no
/// chain of games to the anchor.
pub fn fit(
    players: usize,
    games: &[Game],
    anchor: usize,
    anchor_rating: f64,
) -> Result<Vec<Fitted>, FitError> {
    let mut all = Vec::with_capacity(games.len() + players * players);
    for g in games {
        for p in [g.a, g.b] {
            if p >= players {
                return Err(FitError::NoSuchPlayer(p, players));
            }
        }
        if !(0.0..=1.0).contains(&g.score_a) {
            return Err(FitError::BadScore(g.score_a));
        }
        all.push(*g);
    }
    // The prior: one drawn game for every pair that met.
    let mut met = vec![vec![false; players]; players];
    for g in games {
        met[g.a.min(g.b)][g.a.max(g.b)] = true;
    }
    for (a, row) in met.iter().enumerate() {
        for (b, &m) in row.iter().enumerate() {
            if m && a != b {
                all.push(Game { a, b, score_a: 0.5 });
            }
        }
    }
    // The free players (all but the anchor), and their index among the unknowns.
    let free: Vec<usize> = (0..players).filter(|&p| p != anchor).collect();
    let unknown = |p: usize| free.iter().position(|&f| f == p);
    let mut r = vec![anchor_rating; players];
    let n = free.len();
    for _ in 0..100 {
        // Gradient and Hessian of the log-likelihood over the free ratings.
        let mut grad = vec![0.0; n];
        let mut hess = vec![vec![0.0; n]; n];
        for g in &all {
            if g.a == g.b {
                continue;
            }
            let p = 1.0 / (1.0 + (-SLOPE * (r[g.a] - r[g.b])).exp());
            let w = SLOPE * SLOPE * p * (1.0 - p);
            let (ia, ib) = (unknown(g.a), unknown(g.b));
            if let Some(i) = ia {
                grad[i] += SLOPE * (g.score_a - p);
                hess[i][i] -= w;
            }
            if let Some(j) = ib {
                grad[j] -= SLOPE * (g.score_a - p);
                hess[j][j] -= w;
            }
            if let (Some(i), Some(j)) = (ia, ib) {
                hess[i][j] += w;
                hess[j][i] += w;
            }
        }
        // Newton's step: r -= H⁻¹ g.
        let neg: Vec<Vec<f64>> = hess
            .iter()
            .map(|row| row.iter().map(|x| -x).collect())
            .collect();
        let inv = invert(&neg).ok_or_else(|| {
            let lonely = free
                .iter()
                .copied()
                .find(|&p| !connected(players, &all, anchor).contains(&p))
                .unwrap_or(anchor);
            FitError::Disconnected(lonely)
        })?;
        let mut largest = 0.0f64;
        for (i, &p) in free.iter().enumerate() {
            let step: f64 = (0..n).map(|j| inv[i][j] * grad[j]).sum();
            r[p] += step;
            largest = largest.max(step.abs());
        }
        if largest < 1e-9 {
            let mut out: Vec<Fitted> = r
                .iter()
                .map(|&rating| Fitted { rating, error: 0.0 })
                .collect();
            for (i, &p) in free.iter().enumerate() {
                out[p].error = inv[i][i].sqrt();
            }
            return Ok(out);
        }
    }
    // Newton's method on this concave likelihood converges in a few steps; if it has not
    // after 100, the last ratings stand, without error bars.
    Ok(r.iter()
        .map(|&rating| Fitted {
            rating,
            error: f64::NAN,
        })
        .collect())
}

/// The closest non-decreasing sequence to `ratings` (least squares, each equally weighted): runs
/// that go down are replaced by their mean (pool-adjacent-violators). What is published for
/// levels that must not rank a stronger level below a weaker one, when the measurement could
/// not tell them apart.
pub fn monotone(ratings: &[f64]) -> Vec<f64> {
    // Blocks of (sum, count), merged while a block's mean is below the one before.
    let mut blocks: Vec<(f64, usize)> = Vec::new();
    for &r in ratings {
        blocks.push((r, 1));
        while blocks.len() > 1 {
            let (s1, n1) = blocks[blocks.len() - 1];
            let (s0, n0) = blocks[blocks.len() - 2];
            if s0 / n0 as f64 <= s1 / n1 as f64 {
                break;
            }
            blocks.pop();
            blocks.pop();
            blocks.push((s0 + s1, n0 + n1));
        }
    }
    blocks
        .into_iter()
        .flat_map(|(s, n)| std::iter::repeat_n(s / n as f64, n))
        .collect()
}

/// The players reachable from `start` through games.
fn connected(players: usize, games: &[Game], start: usize) -> Vec<usize> {
    let mut seen = vec![false; players];
    seen[start] = true;
    let mut stack = vec![start];
    while let Some(p) = stack.pop() {
        for g in games {
            for (x, y) in [(g.a, g.b), (g.b, g.a)] {
                if x == p && !seen[y] {
                    seen[y] = true;
                    stack.push(y);
                }
            }
        }
    }
    (0..players).filter(|&p| seen[p]).collect()
}

/// The inverse of a square matrix by Gauss–Jordan elimination; `None` if it is singular.
fn invert(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut a: Vec<Vec<f64>> = m
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut r = row.clone();
            r.extend((0..n).map(|j| if i == j { 1.0 } else { 0.0 }));
            r
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-15 {
            return None;
        }
        a.swap(col, pivot);
        let d = a[col][col];
        for x in &mut a[col] {
            *x /= d;
        }
        for row in 0..n {
            if row != col {
                let f = a[row][col];
                if f != 0.0 {
                    let pivot_row = a[col].clone();
                    for (x, p) in a[row].iter_mut().zip(pivot_row) {
                        *x -= f * p;
                    }
                }
            }
        }
    }
    Some(a.into_iter().map(|row| row[n..].to_vec()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(a: usize, b: usize, wins: usize, draws: usize, losses: usize) -> Vec<Game> {
        let mut g = Vec::new();
        g.extend((0..wins).map(|_| Game { a, b, score_a: 1.0 }));
        g.extend((0..draws).map(|_| Game { a, b, score_a: 0.5 }));
        g.extend((0..losses).map(|_| Game { a, b, score_a: 0.0 }));
        g
    }

    #[test]
    fn two_players_get_the_difference_their_score_implies() {
        // 75 % (with the prior draw: 30.5 of 41) is 10^(d/400) = 30.5 / 10.5.
        let fitted = fit(2, &games(1, 0, 30, 0, 10), 0, 800.0).expect("a fit");
        assert_eq!(fitted[0].rating, 800.0);
        assert_eq!(fitted[0].error, 0.0);
        let expected = 800.0 + 400.0 * (30.5f64 / 10.5).log10();
        assert!(
            (fitted[1].rating - expected).abs() < 1e-6,
            "{:?}",
            fitted[1]
        );
        // The error bar: 1 / sqrt(n p (1 - p)) / slope, about 64 at 41 games and 74 %.
        let p: f64 = 30.5 / 41.0;
        let se = 1.0 / (SLOPE * (41.0 * p * (1.0 - p)).sqrt());
        assert!(
            (fitted[1].error - se).abs() < 1e-6,
            "{} vs {se}",
            fitted[1].error
        );
    }

    #[test]
    fn a_clean_sweep_stays_finite_and_a_chain_adds_up() {
        let mut all = games(0, 1, 0, 0, 20);
        all.extend(games(1, 2, 0, 0, 20));
        let fitted = fit(3, &all, 0, 800.0).expect("a fit");
        assert!(fitted[1].rating > 800.0 + 400.0 && fitted[1].rating.is_finite());
        assert!(fitted[2].rating > fitted[1].rating + 400.0);
        assert!(
            fitted[2].error > fitted[1].error,
            "errors add up along the chain"
        );
        // Equal results: equal ratings.
        let fitted = fit(2, &games(0, 1, 5, 10, 5), 1, 1500.0).expect("a fit");
        assert!((fitted[0].rating - 1500.0).abs() < 1e-9);
    }

    #[test]
    fn a_level_measured_below_the_one_before_is_pooled_with_it() {
        assert_eq!(monotone(&[1.0, 2.0, 3.0]), [1.0, 2.0, 3.0]);
        assert_eq!(monotone(&[1.0, 4.0, 2.0]), [1.0, 3.0, 3.0]);
        assert_eq!(monotone(&[5.0, 1.0, 0.0, 9.0]), [2.0, 2.0, 2.0, 9.0]);
        assert!(monotone(&[]).is_empty());
    }

    #[test]
    fn refusals() {
        assert_eq!(
            fit(2, &games(0, 2, 1, 0, 0), 0, 0.0),
            Err(FitError::NoSuchPlayer(2, 2))
        );
        assert_eq!(
            fit(3, &games(0, 1, 1, 0, 0), 0, 0.0),
            Err(FitError::Disconnected(2))
        );
        let bad = [Game {
            a: 0,
            b: 1,
            score_a: 2.0,
        }];
        assert_eq!(fit(2, &bad, 0, 0.0), Err(FitError::BadScore(2.0)));
    }
}
