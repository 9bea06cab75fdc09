//! Time use of `SearchConfig::dynamic_time`: when a search with an optimum time starts no
//! new iteration.

use super::{Options, MATE_BOUND};

/// The share of the optimum time after which `dynamic_time` starts no new iteration, as
/// Stockfish 11's `search.cpp` reckons it: a falling score (against the previous search and
/// the previous iteration) stretches it up to 1.5 times, a steady one shrinks it to a half; each
/// change of the best move in the last iterations (halved each iteration) adds one more time.
pub(super) fn time_factor(
    options: &Options,
    depth: u32,
    last: i32,
    score: i32,
    changes: f64,
) -> f64 {
    if depth < 4 || score.abs() >= MATE_BOUND {
        return 1.0;
    }
    let before = options.previous_score.unwrap_or(last);
    let fall = f64::from((before - score).clamp(-500, 500) + (last - score).clamp(-500, 500));
    let falling = ((160.0 + 6.0 * fall) / 340.0).clamp(0.5, 1.5);
    falling * (1.0 + changes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;

    #[test]
    fn dynamic_time_stretches_for_a_falling_score_and_a_changing_best_move() {
        let previous = |score| Options {
            previous_score: Some(score),
            ..Options::default()
        };
        // Steady: half the optimum, as the fixed rule.
        assert_eq!(time_factor(&previous(30), 8, 30, 30, 0.0), 0.5);
        // A rising score changes nothing; a falling one stretches up to 1.5 times.
        assert_eq!(time_factor(&previous(-200), 8, -100, 30, 0.0), 0.5);
        let fall = time_factor(&previous(60), 8, 40, 30, 0.0);
        assert!(fall > 0.5 && fall < 1.5, "{fall}");
        assert_eq!(time_factor(&previous(300), 8, 200, 30, 0.0), 1.5);
        // Without a previous search, the previous iteration counts twice.
        assert_eq!(
            time_factor(&Options::default(), 8, 200, 30, 0.0),
            time_factor(&previous(200), 8, 200, 30, 0.0)
        );
        // Each recent change of the best move adds the factor once more.
        assert_eq!(time_factor(&previous(30), 8, 30, 30, 1.5), 1.25);
        assert_eq!(time_factor(&previous(300), 8, 200, 30, 2.0), 4.5);
        // Shallow iterations and mate scores: the optimum itself.
        assert_eq!(time_factor(&previous(300), 3, 200, 30, 2.0), 1.0);
        assert_eq!(time_factor(&previous(0), 8, 0, MATE - 5, 0.0), 1.0);
    }
}
