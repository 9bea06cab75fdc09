//! Rated matches: who is rated when one ends (the accounts, and the bots with their fixed
//! published ratings), and the changes as clients see them. The hub asks for the rating with
//! [`Effect::Rate`] next to the match's `FinishMatch`; the runtime applies it once that is
//! stored (`Store::rate_seats`, one transaction) and answers with [`Input::Rated`].

use bughouse_engine::{Level, PUBLISHED_DEVIATION};
use bughouse_protocol::{PlayerRatingChange, TeamRatingChange};
use bughouse_rating::{Rating, TEAM_SEATS};
use bughouse_store::{MatchRatingChange, RatedSeat, RatedSeats, SeatRatingChanges};

use super::*;

/// A finished rated match to rate: the store's request, and the names to tell the players.
#[derive(Debug, Clone, PartialEq)]
pub struct RateRequest {
    /// What the store rates.
    pub seats: RatedSeats,
    /// The account names by seat (`None` for a bot).
    pub usernames: [Option<String>; 4],
}

/// The fixed rating a bot of `level` is counted with.
fn bot_rating(level: u8) -> Rating {
    let level = Level::new(level).unwrap_or(Level::MAX);
    Rating::new(level.published_rating(), PUBLISHED_DEVIATION, 0.06)
}

/// Who sat in a seat: the account, the bot's level, the name (`None`: an empty seat).
type Sitter = Option<(Option<i64>, Option<u8>, String)>;

/// The request for a match whose seats are `(account, bot level, name)` and whose result is
/// `result`: `None` when it cannot be rated (a guest sat, nobody signed in, no decisive or drawn
/// result).
fn request(match_id: &str, seats: [Sitter; 4], result: &str, at_ms: i64) -> Option<RateRequest> {
    let score = bughouse_rating::score_of_result(result)?;
    let mut rated = [RatedSeat::Account(0); 4];
    let mut usernames: [Option<String>; 4] = Default::default();
    for (i, seat) in seats.into_iter().enumerate() {
        let (account, bot, name) = seat?;
        rated[i] = match (account, bot) {
            (Some(account), _) => {
                usernames[i] = Some(name);
                RatedSeat::Account(account)
            }
            (None, Some(level)) => RatedSeat::Bot(bot_rating(level)),
            (None, None) => return None,
        };
    }
    if usernames.iter().all(Option::is_none) {
        return None;
    }
    Some(RateRequest {
        seats: RatedSeats {
            match_id: match_id.to_owned(),
            seats: rated,
            score,
            at_ms,
        },
        usernames,
    })
}

/// The rating request of a finished rated match as stored (one the server did not rate before
/// it stopped), if it can be rated.
pub fn rate_request_of_stored(stored: &bughouse_store::StoredMatch) -> Option<RateRequest> {
    if !stored.rated || stored.status != bughouse_store::MatchStatus::Finished {
        return None;
    }
    let seats = stored.seats.clone().map(|s| {
        s.map(|s| {
            let bot = s.bot.then(|| bot_level_of(&s.token_hash));
            (s.account, bot, s.name)
        })
    });
    request(
        &stored.id,
        seats,
        stored.result.as_deref()?,
        stored.finished_at_ms?,
    )
}

/// The changes as clients see them, from what the store applied.
pub fn rating_changes(request: &RateRequest, applied: &SeatRatingChanges) -> RatingChanges {
    let players = applied
        .players
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            let (_, change) = p.as_ref()?;
            Some(PlayerRatingChange {
                seat: SeatName::ALL[i],
                username: request.usernames[i].clone()?,
                before: change.before.rating,
                after: change.after.rating,
                delta: change.delta(),
                deviation: change.after.deviation,
            })
        })
        .collect();
    let teams = applied
        .teams
        .iter()
        .enumerate()
        .filter_map(|(t, team)| {
            let (_, change) = team.as_ref()?;
            let seats = TEAM_SEATS[t];
            Some(TeamRatingChange {
                seats: seats.map(|s| SeatName::ALL[s]),
                usernames: [
                    request.usernames[seats[0]].clone()?,
                    request.usernames[seats[1]].clone()?,
                ],
                before: change.before.rating,
                after: change.after.rating,
                delta: change.delta(),
                deviation: change.after.deviation,
            })
        })
        .collect();
    RatingChanges { players, teams }
}

impl LiveMatch {
    /// The rating request of this match, just finished with `result` at `at_ms`, if it is rated
    /// and can be.
    pub(super) fn rate_request(&self, result: &str, at_ms: i64) -> Option<RateRequest> {
        if !self.rated {
            return None;
        }
        let seats = self
            .seats
            .clone()
            .map(|h| h.map(|h| (h.account, h.bot, h.name)));
        request(&self.id, seats, result, at_ms)
    }
}

impl Hub {
    /// A rated match's ratings were applied: kept for its state, sent to its watchers.
    pub(super) fn rated(&mut self, id: &str, changes: RatingChanges, fx: &mut Vec<Effect>) {
        let Some(m) = self.matches.get_mut(id) else {
            return;
        };
        m.rating_changes = Some(changes.clone());
        fx.push(Effect::Send(
            m.watchers.clone(),
            ServerMessage::RatingChanges { changes },
        ));
    }

    /// The rating changes of a finished rated match loaded from the store, as stored (the
    /// rating before is the rating after less the change), for its state.
    pub fn set_stored_rating_changes(
        &mut self,
        id: &str,
        players: &[MatchRatingChange],
        teams: &[bughouse_store::TeamRatingChange],
    ) {
        let Some(m) = self.matches.get_mut(id) else {
            return;
        };
        if players.is_empty() {
            return;
        }
        let seat_of = |account: i64| {
            m.seats
                .iter()
                .position(|h| h.as_ref().is_some_and(|h| h.account == Some(account)))
        };
        let mut player_changes: Vec<(usize, PlayerRatingChange)> = players
            .iter()
            .filter_map(|p| {
                let seat = seat_of(p.account_id)?;
                Some((
                    seat,
                    PlayerRatingChange {
                        seat: SeatName::ALL[seat],
                        username: p.username.clone(),
                        before: p.rating - p.delta,
                        after: p.rating,
                        delta: p.delta,
                        deviation: p.deviation,
                    },
                ))
            })
            .collect();
        player_changes.sort_by_key(|(seat, _)| *seat);
        let name_of = |seat: usize| m.seats[seat].as_ref().map(|h| h.name.clone());
        let mut team_changes: Vec<(usize, TeamRatingChange)> = teams
            .iter()
            .filter_map(|t| {
                let (a, b) = (seat_of(t.accounts.0)?, seat_of(t.accounts.1)?);
                let team = bughouse_rating::team_of(a);
                let seats = TEAM_SEATS[team];
                if bughouse_rating::team_of(b) != team {
                    return None;
                }
                Some((
                    team,
                    TeamRatingChange {
                        seats: seats.map(|s| SeatName::ALL[s]),
                        usernames: [name_of(seats[0])?, name_of(seats[1])?],
                        before: t.rating - t.delta,
                        after: t.rating,
                        delta: t.delta,
                        deviation: t.deviation,
                    },
                ))
            })
            .collect();
        team_changes.sort_by_key(|(team, _)| *team);
        m.rating_changes = Some(RatingChanges {
            players: player_changes.into_iter().map(|(_, p)| p).collect(),
            teams: team_changes.into_iter().map(|(_, t)| t).collect(),
        });
    }

    /// Whether a match in memory is rated and finished without its rating changes (what a
    /// loaded match needs from the store).
    pub fn wants_rating_changes(&self, id: &str) -> bool {
        self.matches
            .get(id)
            .is_some_and(|m| m.rated && m.finished && m.rating_changes.is_none())
    }
}
