//! Properties every rated match must have, whatever the ratings: winners never lose points,
//! losers never gain, a draw between equal sides moves nobody, the result is monotone in the
//! score, the deviation shrinks for uncertain ratings, and swapping the teams mirrors the
//! changes.

use bughouse_rating::{Config, Game, MatchRatings, Rating};
use proptest::prelude::*;

fn rating() -> impl Strategy<Value = Rating> {
    (800.0..2600.0f64, 45.0..350.0f64, 0.03..0.12f64)
        .prop_map(|(r, rd, vol)| Rating::new(r, rd, vol))
}

fn match_ratings() -> impl Strategy<Value = MatchRatings> {
    (
        prop::array::uniform4(rating()),
        prop::array::uniform2(rating()),
    )
        .prop_map(|(players, teams)| MatchRatings { players, teams })
}

fn score() -> impl Strategy<Value = f64> {
    prop_oneof![Just(0.0), Just(0.5), Just(1.0)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn winners_gain_and_losers_lose(before in match_ratings(), team_one_wins in any::<bool>()) {
        let score = if team_one_wins { 1.0 } else { 0.0 };
        let changes = Config::default().rate_match(&before, score).unwrap();
        for (seat, change) in changes.players.iter().enumerate() {
            let won = (bughouse_rating::team_of(seat) == 0) == team_one_wins;
            if won {
                prop_assert!(change.delta() >= 0.0, "seat {seat} won and lost {}", change.delta());
            } else {
                prop_assert!(change.delta() <= 0.0, "seat {seat} lost and gained {}", change.delta());
            }
        }
        let (winner, loser) = if team_one_wins { (0, 1) } else { (1, 0) };
        prop_assert!(changes.teams[winner].delta() >= 0.0);
        prop_assert!(changes.teams[loser].delta() <= 0.0);
    }

    #[test]
    fn everything_stays_finite_and_bounded(before in match_ratings(), score in score()) {
        let config = Config::default();
        let changes = config.rate_match(&before, score).unwrap();
        for change in changes.players.iter().chain(&changes.teams) {
            let after = change.after;
            prop_assert!(after.rating.is_finite());
            prop_assert!(after.deviation >= config.min_deviation && after.deviation <= config.max_deviation);
            prop_assert!(after.volatility > 0.0 && after.volatility < 1.0);
            // A single match moves a rating by less than the width of its 95 % interval.
            prop_assert!(change.delta().abs() <= 2.0 * change.before.deviation);
        }
    }

    #[test]
    fn a_better_score_never_gives_a_lower_rating(before in match_ratings()) {
        let config = Config::default();
        let [loss, draw, win] = [0.0, 0.5, 1.0].map(|s| config.rate_match(&before, s).unwrap());
        for seat in [0, 3] {
            prop_assert!(loss.players[seat].after.rating <= draw.players[seat].after.rating);
            prop_assert!(draw.players[seat].after.rating <= win.players[seat].after.rating);
        }
        for seat in [1, 2] {
            prop_assert!(loss.players[seat].after.rating >= draw.players[seat].after.rating);
            prop_assert!(draw.players[seat].after.rating >= win.players[seat].after.rating);
        }
        prop_assert!(loss.teams[0].after.rating <= win.teams[0].after.rating);
    }

    /// An uncertain rating (RD 150 or more) always becomes more certain after a match between
    /// sides that are not too far apart (a settled rating may widen a little: each match is a
    /// period, and every period adds the volatility).
    #[test]
    fn the_deviation_shrinks_for_uncertain_ratings(
        base in 1200.0..1800.0f64,
        offsets in prop::array::uniform4(-150.0..150.0f64),
        deviations in prop::array::uniform4(150.0..350.0f64),
        team_deviations in prop::array::uniform2(150.0..350.0f64),
        score in score(),
    ) {
        let players = std::array::from_fn(|i| Rating::new(base + offsets[i], deviations[i], 0.06));
        let teams = std::array::from_fn(|i| Rating::new(base, team_deviations[i], 0.06));
        let changes = Config::default().rate_match(&MatchRatings { players, teams }, score).unwrap();
        for change in changes.players.iter().chain(&changes.teams) {
            prop_assert!(change.deviation_delta() < 0.0, "{change:?}");
        }
    }

    #[test]
    fn swapping_the_teams_mirrors_the_changes(before in match_ratings(), score in score()) {
        let config = Config::default();
        let changes = config.rate_match(&before, score).unwrap();
        // Seat 0 <-> 1, 3 <-> 2 puts team two in team one's seats.
        let swap = [1, 0, 3, 2];
        let mirrored = MatchRatings {
            players: swap.map(|s| before.players[s]),
            teams: [before.teams[1], before.teams[0]],
        };
        let other = config.rate_match(&mirrored, 1.0 - score).unwrap();
        for (change, mirror) in changes.players.iter().zip(swap) {
            prop_assert_eq!(change.after, other.players[mirror].after);
        }
        prop_assert_eq!(changes.teams[0].after, other.teams[1].after);
    }

    #[test]
    fn a_draw_between_equal_sides_moves_no_rating(r in rating(), t in rating()) {
        let before = MatchRatings { players: [r; 4], teams: [t; 2] };
        let changes = Config::default().rate_match(&before, 0.5).unwrap();
        for change in changes.players.iter().chain(&changes.teams) {
            prop_assert!(change.delta().abs() < 1e-9);
        }
    }

    /// A one-to-one period: beating someone never costs points, and the result against a
    /// stronger opponent is worth more.
    #[test]
    fn a_win_against_a_stronger_opponent_is_worth_more(
        me in rating(),
        weaker in 800.0..1600.0f64,
        gap in 1.0..800.0f64,
        rd in 45.0..350.0f64,
    ) {
        let config = Config::default();
        let win = |opp: f64| config.rate(me, &[Game { opponent: Rating::new(opp, rd, 0.06), score: 1.0 }]).unwrap();
        let small = win(weaker).rating - me.rating;
        let big = win(weaker + gap).rating - me.rating;
        prop_assert!(small >= 0.0);
        prop_assert!(big > small);
    }
}
