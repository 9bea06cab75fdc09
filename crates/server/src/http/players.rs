//! The public player pages' data: a profile (`GET /api/players/{name}`) and the leaderboard
//! (`GET /api/leaderboard`), as `bughouse_protocol::accounts` writes them.

use std::sync::Arc;

use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::Json;
use bughouse_protocol::accounts::{
    LeaderView, Leaderboard, MatchPlayer, Outcome, PartnerView, PlayedMatchView, Profile,
    RatingPointView, RulesView, TeamLeaderView, TeamRatingView,
};
use bughouse_protocol::SeatName;
use bughouse_store::{PlayedMatch, SeatPlayer};
use serde::Deserialize;

use super::accounts::rating_view;
use super::auth::Accounts;
use super::ApiError;

/// The leaderboard lists players with at least this many rated matches...
pub(crate) const LEADERBOARD_MIN_GAMES: i64 = 10;
/// ...and teams with at least this many...
pub(crate) const TEAM_LEADERBOARD_MIN_GAMES: i64 = 5;
/// ...whose deviation is at most this (a rating known well enough to rank).
pub(crate) const LEADERBOARD_MAX_DEVIATION: f64 = super::accounts::PROVISIONAL_DEVIATION;

/// The most rows one request may ask for.
pub(crate) const PAGE_MAX: i64 = 100;

/// The rating history a profile carries (the chart), at most.
pub(crate) const HISTORY_POINTS: i64 = 500;

/// The partners a profile lists, at most.
pub(crate) const PARTNERS: i64 = 10;

const SEATS: [SeatName; 4] = [
    SeatName::WhiteA,
    SeatName::BlackA,
    SeatName::WhiteB,
    SeatName::BlackB,
];

/// The rank of the `i`-th row (from 0) of a leaderboard page (at most [`PAGE_MAX`] rows).
fn rank(i: usize) -> u32 {
    u32::try_from(i + 1).unwrap_or(u32::MAX)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Page {
    limit: Option<i64>,
    offset: Option<i64>,
}

impl Page {
    fn read(
        page: Result<Query<Page>, QueryRejection>,
        default: i64,
    ) -> Result<(i64, i64), ApiError> {
        let Query(page) = page?;
        let limit = page.limit.unwrap_or(default);
        if !(1..=PAGE_MAX).contains(&limit) {
            return Err(ApiError::bad(format!(
                "limit must be 1 to {PAGE_MAX}, not {limit}"
            )));
        }
        let offset = page.offset.unwrap_or(0);
        if offset < 0 {
            return Err(ApiError::bad(format!(
                "offset must be 0 or more, not {offset}"
            )));
        }
        Ok((limit, offset))
    }
}

fn match_player(p: &SeatPlayer) -> MatchPlayer {
    MatchPlayer {
        name: p.name.clone(),
        account: p.account.clone(),
        bot: p.bot,
    }
}

fn played_match(m: PlayedMatch) -> PlayedMatchView {
    let seat = usize::from(m.seat);
    let view = |s: usize| m.players[s].as_ref().map(match_player);
    let opponents = bughouse_rating::TEAM_SEATS[1 - bughouse_rating::team_of(seat)];
    PlayedMatchView {
        partner: view(bughouse_rating::partner_of(seat)),
        opponents: opponents.map(view),
        players: [0, 1, 2, 3].map(view),
        match_id: m.match_id,
        rules: m.rules_preset,
        finished_at: m.finished_at_ms,
        seat: SEATS[seat],
        result: m.result,
        outcome: match m.outcome {
            bughouse_store::Outcome::Win => Outcome::Win,
            bughouse_store::Outcome::Draw => Outcome::Draw,
            bughouse_store::Outcome::Loss => Outcome::Loss,
        },
        rating_delta: m.rating_delta,
    }
}

/// `GET /api/players/{name}?limit=20&offset=0`: a player's profile; `limit` and `offset` page
/// the match history.
pub(crate) async fn profile(
    State(accounts): State<Arc<Accounts>>,
    name: Result<Path<String>, PathRejection>,
    page: Result<Query<Page>, QueryRejection>,
) -> Result<Json<Profile>, ApiError> {
    let Path(name) = name?;
    let (limit, offset) = Page::read(page, 20)?;
    let store = &accounts.store;
    let storage = |e: bughouse_store::StoreError| ApiError::storage(&e);
    let Some(account) = store.account_by_username(&name).await.map_err(storage)? else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no player {name:?}"),
        ));
    };
    let id = account.id;
    let rating = store.player_rating(id).await.map_err(storage)?;
    let history = store
        .rating_history(id, HISTORY_POINTS)
        .await
        .map_err(storage)?;
    let matches = store
        .player_matches(id, limit, offset)
        .await
        .map_err(storage)?;
    let partners = store.best_partners(id, PARTNERS).await.map_err(storage)?;
    let by_rules = store.results_by_rules(id).await.map_err(storage)?;
    Ok(Json(Profile {
        username: account.username,
        created_at: account.created_at_ms,
        rating: rating.as_ref().map(rating_view),
        rating_history: history
            .into_iter()
            .map(|p| RatingPointView {
                match_id: p.match_id,
                at: p.at_ms,
                rating: p.rating,
                deviation: p.deviation,
                delta: p.delta,
            })
            .collect(),
        matches: matches.into_iter().map(played_match).collect(),
        best_partners: partners
            .into_iter()
            .map(|p| PartnerView {
                username: p.username,
                games: p.games,
                wins: p.wins,
                draws: p.draws,
                losses: p.losses,
                team_rating: p.team_rating.map(|r| TeamRatingView {
                    rating: r.rating,
                    deviation: r.deviation,
                }),
            })
            .collect(),
        by_rules: by_rules
            .into_iter()
            .map(|r| RulesView {
                rules: r.rules_preset,
                games: r.games,
                wins: r.wins,
                draws: r.draws,
                losses: r.losses,
            })
            .collect(),
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LeaderboardQuery {
    limit: Option<i64>,
}

/// `GET /api/leaderboard?limit=50`: the best-rated players and teams.
pub(crate) async fn leaderboard(
    State(accounts): State<Arc<Accounts>>,
    query: Result<Query<LeaderboardQuery>, QueryRejection>,
) -> Result<Json<Leaderboard>, ApiError> {
    let Query(query) = query?;
    let limit = query.limit.unwrap_or(50);
    if !(1..=PAGE_MAX).contains(&limit) {
        return Err(ApiError::bad(format!(
            "limit must be 1 to {PAGE_MAX}, not {limit}"
        )));
    }
    let storage = |e: bughouse_store::StoreError| ApiError::storage(&e);
    let players = accounts
        .store
        .leaderboard(limit, LEADERBOARD_MIN_GAMES, LEADERBOARD_MAX_DEVIATION)
        .await
        .map_err(storage)?;
    let teams = accounts
        .store
        .team_leaderboard(limit, TEAM_LEADERBOARD_MIN_GAMES, LEADERBOARD_MAX_DEVIATION)
        .await
        .map_err(storage)?;
    Ok(Json(Leaderboard {
        min_games: LEADERBOARD_MIN_GAMES,
        team_min_games: TEAM_LEADERBOARD_MIN_GAMES,
        max_deviation: LEADERBOARD_MAX_DEVIATION,
        players: players
            .into_iter()
            .enumerate()
            .map(|(i, e)| LeaderView {
                rank: rank(i),
                username: e.username,
                rating: rating_view(&e.record),
            })
            .collect(),
        teams: teams
            .into_iter()
            .enumerate()
            .map(|(i, e)| {
                let [(_, a), (_, b)] = e.players;
                TeamLeaderView {
                    rank: rank(i),
                    players: [a, b],
                    rating: rating_view(&e.record),
                }
            })
            .collect(),
    }))
}
