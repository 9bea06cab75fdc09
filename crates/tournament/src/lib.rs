//! Bughouse team tournaments: teams, round-robin and Swiss pairings, seats and colours per
//! rulebook, results, scoring, standings, JSON save files and CSV export.
//!
//! Logic, apart from [`Tournament::load`] and [`Tournament::save`], which read and write a
//! tournament's JSON file; [`text`] writes a tournament as `bughouse tournament` prints it.
//! Article numbers are the rulebooks' own (`F` fide, `M` minerva-2014, `K` knsb-1988, `U`
//! uscf-scholastic-2006); *interp.* marks the project's interpretation where a rulebook is
//! silent.
//!
//! - [`Team`]: a name and two [`Player`]s, the first of them the first-board player, fixed for
//!   the tournament (M1.3, M1.4); teams are added before round 1 is paired.
//! - [`Tournament`]: the preset, the [`Format`], the teams and the rounds.
//!   [`Tournament::pair_next_round`] pairs and seats a round, [`Tournament::set_result`] takes a
//!   [`MatchRecord`], [`Tournament::standings`] ranks the teams, [`Tournament::to_json`] and
//!   [`Tournament::from_json`] save and load, [`csv`] exports.
//!
//! # Formats
//!
//! - **Round robin**: the Berger tables ([`berger`]); `n` teams play `n - 1` rounds, or `n`
//!   rounds with a bye each round when `n` is odd. Teams are numbered in the order they were
//!   added.
//! - **Double round robin**: the same rounds twice, home and away swapped in the second cycle.
//! - **Swiss**: a fixed number of rounds, each paired from the standings so far.
//!
//! # Swiss pairing rules
//!
//! A simple Dutch-like system ([`swiss`]):
//!
//! 1. Teams are ranked by match points, game points, team rating (the mean of the players'
//!    ratings; unrated last), then starting number. A *score group* is the teams with equal
//!    match points.
//! 2. No two teams meet twice. The search backtracks and is complete: a round is never paired
//!    with a repeated encounter while a pairing without one exists, and when none exists the
//!    round is refused ([`TournamentError::Pairing`]).
//! 3. Look-ahead: a pairing after which all the rounds still to come can be paired without
//!    repeats is preferred, so that even a Swiss with as many rounds as a round robin (`n - 1`)
//!    does not get stuck (after three rounds of six teams, the pairs not yet played could form
//!    two triangles with no fourth round possible).
//! 4. With an odd number of teams the lowest-ranked team that has had no bye gets the bye
//!    (more exactly: the lowest-ranked of those with the fewest byes for which the rest can be
//!    paired). A bye is a match won by default (*interp.*): the match points of a win and the
//!    game points of winning every game; [`Scoring::bye`] can change it.
//! 5. Within a score group the top half meets the bottom half in order (S1\[i\] against
//!    S2\[i\]); a team that cannot meet its natural opponent takes the next team of the bottom
//!    half, then a team of the top half; the lowest team of an odd score group floats down and
//!    meets the highest team of the next group. Teams that cannot be paired in their group
//!    float down.
//! 6. Home and away go by preference: the team that has been away more often (home
//!    difference), or away in its last two matches, is at home; equal preferences alternate
//!    from the last round in which the two teams differed, then the higher-ranked team's
//!    preference is granted; in the first round the higher-ranked team is at home on odd
//!    tables. Two teams with the same absolute preference (difference ±2 or two in a row) are
//!    paired together only if nothing else works, so the difference stays within 2 except in
//!    the last rounds of a Swiss nearly as long as a round robin, where few pairings are left.
//!
//! # Seats and colours
//!
//! The home team is the first-named. The teams of a match are always WhiteA + BlackB against
//! BlackA + WhiteB; [`seating`] places the players per preset: minerva-2014 puts the home
//! first-board player on BlackA against the away first-board player on WhiteA (M1.3, M1.5);
//! knsb-1988 seats the first-board players against each other on board A and draws lots for
//! White from the tournament's seed (K1C, K1D), recording each draw; fide alternates each
//! team's White between its players (F2.1, *interp.*); uscf-scholastic-2006 takes each team's
//! choice (U3), by default its first-board player on White.
//!
//! # Scoring
//!
//! See [`result`]: under fide, minerva-2014 and uscf-scholastic-2006 the first game to end
//! decides the match (1 / ½ / 0 match points; game points are the match score); under
//! knsb-1988 both games count, game points are their sum and the match is won by the team
//! with more game points (2 / 1 / 0 match points, *interp.*). The values live in the
//! tournament's [`Scoring`] and can be changed there. Tie-breaks are in [`standings`].
//!
//! # Examples
//!
//! ```
//! use bughouse_core::{Preset, Seat};
//! use bughouse_tournament::{Format, Player, Team, Tournament};
//!
//! let mut t = Tournament::new("Open", Preset::Knsb1988, Format::Swiss, Some(3), 42)?;
//! t.add_team(Team::new("A", Player::rated("Ann", 1800), Player::new("Ali")))?;
//! t.add_team(Team::new("B", Player::new("Bob"), Player::new("Bea")))?;
//! let round = t.pair_next_round()?;
//! let seats = round.pairings[0].seats();
//! // knsb-1988: the first-board players face each other on board A (K1C).
//! assert_eq!(seats[0].seat, Seat::WHITE_A);
//! assert_eq!(seats[0].slot, bughouse_tournament::Slot::First);
//! assert_eq!(seats[1].slot, bughouse_tournament::Slot::First);
//! # Ok::<(), bughouse_tournament::TournamentError>(())
//! ```

pub mod berger;
pub mod csv;
mod file;
mod points;
pub mod result;
pub mod rng;
pub mod seating;
pub mod standings;
pub mod swiss;
mod team;
pub mod text;
mod tournament;

pub use file::FileError;
pub use points::Points;
pub use result::{
    ByeValue, Forfeit, GameResult, MatchRecord, MatchScore, Outcome, ParseResultError, ResultError,
    Scoring, TeamOutcome, TeamScore,
};
pub use seating::{Basis, Choice, Lot, SeatedPlayer, Seating, SideId};
pub use standings::Standing;
pub use swiss::SwissError;
pub use team::{Player, Slot, Team, TeamId, UnknownSlot};
pub use tournament::{
    Format, Pairing, Round, Tournament, TournamentError, UnknownFormat, FILE_VERSION,
};
