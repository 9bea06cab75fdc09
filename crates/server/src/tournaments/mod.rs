//! Tournaments in the browser: the HTTP API on top of `bughouse_tournament`, with rounds that
//! can create their matches on the server and collect their results.
//!
//! The [`Service`] keeps every tournament in memory behind one lock and writes each change to
//! the store (the library's JSON, rewritten whole) before it takes effect, so a tournament
//! survives a restart. A change is made on a copy, stored, then swapped in: a refused or failed
//! change leaves nothing behind.
//!
//! Authority: creating a tournament answers with an organiser secret; the store keeps only its
//! SHA-256. Every organiser request carries it as `Authorization: Bearer SECRET` (401 without,
//! 403 with a wrong one). Reading needs none.
//!
//! Server matches: pairing a round with `online` creates one match per pairing (the preset's
//! rules, the tournament's time control) and links it to its round and table. When such a
//! match ends, the committer (see [`crate::http`]) reports its two board results and
//! [`Service::match_finished`] enters them as the pairing's result, unless the organiser has
//! entered one by hand already (a hand entry always wins; it can correct an automatic one).

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use axum::{Json, Router};
use bughouse_core::{BoardId, Preset, TimeControl};
use bughouse_store::{Store, StoredTournament, TournamentMatch};
use bughouse_tournament::{
    csv, Format, GameResult, MatchRecord, Pairing, Player, Slot, Team, TeamId, Tournament,
    TournamentError,
};
use serde::Deserialize;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tokio::sync::{mpsc, Mutex};

use crate::http::ApiError;
use crate::runtime::HubHandle;

/// The longest tournament or team name.
const MAX_NAME: usize = 80;
/// The longest player name (a seat name of the protocol).
const MAX_PLAYER: usize = bughouse_protocol::MAX_NAME;
/// The most teams of a tournament.
const MAX_TEAMS: usize = 128;
/// The most rounds of a tournament.
const MAX_ROUNDS: u32 = 64;
/// The highest rating taken.
const MAX_RATING: u32 = 4000;

/// A match that ended: its id and each board's result from its White side (`*` if stopped).
pub(crate) type Finished = (String, [String; 2]);

struct Entry {
    id: String,
    tournament: Tournament,
    organiser_hash: String,
    time_control: TimeControl,
    /// The server match of each (round, table).
    matches: BTreeMap<(u32, u32), String>,
    created_at_ms: i64,
    /// Unix milliseconds of the last change, strictly increasing: the ETag.
    updated_at_ms: i64,
    /// Why the next round cannot be paired (a Swiss pairing is a search: done once per change).
    cannot_pair: Option<String>,
}

/// Why the next round of `t` cannot be paired, if it cannot.
fn cannot_pair(t: &Tournament) -> Option<String> {
    t.clone().pair_next_round().err().map(|e| e.to_string())
}

#[derive(Default)]
struct Registry {
    tournaments: HashMap<String, Entry>,
    /// Match id to (tournament, round, table).
    by_match: HashMap<String, (String, u32, u32)>,
}

impl Registry {
    /// The tournament `id`, or 404.
    fn entry(&self, id: &str) -> Result<&Entry, ApiError> {
        self.tournaments.get(id).ok_or_else(ApiError::not_found)
    }

    /// The tournament `id` for a change by its organiser: 404 if there is none, 401/403
    /// unless `headers` carry its secret.
    fn organiser_entry(&mut self, id: &str, headers: &HeaderMap) -> Result<&mut Entry, ApiError> {
        let entry = self
            .tournaments
            .get_mut(id)
            .ok_or_else(ApiError::not_found)?;
        authorize(headers, entry)?;
        Ok(entry)
    }
}

/// The tournaments of a server.
pub(crate) struct Service {
    registry: Mutex<Registry>,
    store: Store,
    hub: HubHandle,
}

impl From<TournamentError> for ApiError {
    fn from(e: TournamentError) -> ApiError {
        use TournamentError as E;
        let (status, code) = match e {
            E::NoSuchRound(..) | E::NoSuchTable { .. } => (StatusCode::NOT_FOUND, "not_found"),
            E::TeamsFixed
            | E::AllRoundsPaired(_)
            | E::RoundNotFinished { .. }
            | E::RoundClosed { .. }
            | E::AlreadyPlayed { .. }
            | E::Pairing { .. }
            | E::DuplicateTeam(_)
            | E::TooManyRounds { .. }
            | E::TooFewTeams(_) => (StatusCode::CONFLICT, "conflict"),
            _ => (StatusCode::BAD_REQUEST, "invalid"),
        };
        ApiError::new(status, code, e.to_string())
    }
}

type ApiResult = Result<Response, ApiError>;

fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn random_bytes<const N: usize>() -> Result<[u8; N], ApiError> {
    let mut buf = [0u8; N];
    getrandom::fill(&mut buf).map_err(|e| {
        tracing::error!("getrandom: {e}");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "no randomness",
        )
    })?;
    Ok(buf)
}

fn random_id() -> Result<String, ApiError> {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    Ok(random_bytes::<10>()?
        .iter()
        .map(|b| char::from(ALPHABET[usize::from(*b) % ALPHABET.len()]))
        .collect())
}

fn u32_of(n: i64) -> u32 {
    u32::try_from(n).unwrap_or(0)
}

impl Service {
    /// Loads every stored tournament, and enters the results of their server matches that
    /// ended while nobody listened (the server stopped between the match's end and the entry).
    pub(crate) async fn load(store: Store, hub: HubHandle) -> Result<Service, crate::ServerError> {
        let mut registry = Registry::default();
        for stored in store.tournaments().await? {
            let tournament = match Tournament::from_json(&stored.data_json) {
                Ok(t) => t,
                Err(e) => {
                    tracing::error!(tournament = %stored.id, "cannot read the tournament: {e}");
                    continue;
                }
            };
            let time_control = stored.time_control.parse().unwrap_or_default();
            let mut matches = BTreeMap::new();
            for m in &stored.matches {
                let key = (u32_of(m.round), u32_of(m.table));
                registry
                    .by_match
                    .insert(m.match_id.clone(), (stored.id.clone(), key.0, key.1));
                matches.insert(key, m.match_id.clone());
            }
            registry.tournaments.insert(
                stored.id.clone(),
                Entry {
                    id: stored.id.clone(),
                    cannot_pair: cannot_pair(&tournament),
                    tournament,
                    organiser_hash: stored.organiser_hash,
                    time_control,
                    matches,
                    created_at_ms: stored.created_at_ms,
                    updated_at_ms: stored.updated_at_ms,
                },
            );
        }
        let service = Service {
            registry: Mutex::new(registry),
            store,
            hub,
        };
        service.catch_up().await;
        Ok(service)
    }

    async fn catch_up(&self) {
        let pending: Vec<String> = {
            let registry = self.registry.lock().await;
            registry
                .by_match
                .iter()
                .filter(|(_, (tid, round, table))| {
                    registry.tournaments.get(tid).is_some_and(|e| {
                        e.tournament
                            .round(*round)
                            .and_then(|r| r.table(*table))
                            .is_some_and(|p| p.result.is_none())
                    })
                })
                .map(|(id, _)| id.clone())
                .collect()
        };
        for id in pending {
            match self.store.load_match(&id).await {
                Ok(Some(m)) => {
                    if let Some(boards) = m.board_results {
                        self.match_finished((id, boards)).await;
                    }
                }
                Ok(None) => {}
                Err(e) => tracing::error!(match_id = %id, "cannot load: {e}"),
            }
        }
    }

    /// Enters the result of a finished server match into its tournament, unless its pairing
    /// has a result already (entered by hand).
    pub(crate) async fn match_finished(&self, (match_id, boards): Finished) {
        let mut registry = self.registry.lock().await;
        let Some((tid, round, table)) = registry.by_match.get(&match_id).cloned() else {
            return;
        };
        let Some(entry) = registry.tournaments.get_mut(&tid) else {
            return;
        };
        let has_result = entry
            .tournament
            .round(round)
            .and_then(|r| r.table(table))
            .is_none_or(|p| p.result.is_some());
        if has_result {
            return;
        }
        let (Ok(a), Ok(b)) = (boards[0].parse(), boards[1].parse()) else {
            tracing::error!(%match_id, "unreadable board results {boards:?}");
            return;
        };
        let record = MatchRecord::Games { a, b };
        let result = self
            .change(entry, &[], |t| t.set_result(round, table, record).map(drop))
            .await;
        match result {
            Ok(()) => tracing::info!(tournament = %tid, round, table, %match_id, "result entered"),
            Err(e) => tracing::warn!(
                tournament = %tid, round, table, %match_id,
                "the match result was not entered: {}", e.message
            ),
        }
    }

    /// Applies `f` to a copy of the tournament, stores it (with `links`), then keeps it.
    async fn change(
        &self,
        entry: &mut Entry,
        links: &[TournamentMatch],
        f: impl FnOnce(&mut Tournament) -> Result<(), TournamentError>,
    ) -> Result<(), ApiError> {
        let mut copy = entry.tournament.clone();
        f(&mut copy)?;
        let updated = unix_ms().max(entry.updated_at_ms + 1);
        self.store
            .save_tournament(&entry.id, &copy.to_json(), updated, links)
            .await
            .map_err(|e| ApiError::storage(&e))?;
        entry.cannot_pair = cannot_pair(&copy);
        entry.tournament = copy;
        entry.updated_at_ms = updated;
        Ok(())
    }
}

/// The tournament as the pages show it.
fn view(id: &str, e: &Entry) -> Value {
    let t = &e.tournament;
    let team_name = |id: TeamId| t.team(id).map_or_else(String::new, |tm| tm.name.clone());
    let teams: Vec<Value> = t
        .teams()
        .iter()
        .enumerate()
        .map(|(i, tm)| {
            json!({
                "id": i,
                "name": tm.name,
                "first": { "name": tm.first.name, "rating": tm.first.rating },
                "second": { "name": tm.second.name, "rating": tm.second.rating },
                "rating": tm.rating(),
            })
        })
        .collect();
    let rounds: Vec<Value> = t
        .rounds()
        .iter()
        .map(|r| {
            let pairings: Vec<Value> = r
                .pairings
                .iter()
                .map(|p| pairing_view(t, e, r.number, p))
                .collect();
            json!({
                "number": r.number,
                "finished": r.is_finished(),
                "pairings": pairings,
                "bye": r.bye.map(|b| json!({ "team": b.0, "name": team_name(b) })),
            })
        })
        .collect();
    let standings: Vec<Value> = t
        .standings()
        .iter()
        .map(|s| {
            json!({
                "rank": s.rank_label(),
                "team": s.team.0,
                "name": team_name(s.team),
                "played": s.played,
                "won": s.won,
                "drawn": s.drawn,
                "lost": s.lost,
                "byes": s.byes,
                "match_points": s.match_points.to_string(),
                "game_points": s.game_points.to_string(),
                "buchholz": s.buchholz.to_string(),
                "sonneborn_berger": s.sonneborn_berger.to_string(),
                "direct_encounter": s.direct_encounter.map(|p| p.to_string()),
                "rating": s.rating,
            })
        })
        .collect();
    let scoring = t.scoring();
    json!({
        "id": id,
        "name": t.name(),
        "preset": t.preset().id(),
        "format": t.format().id(),
        "planned_rounds": t.planned_rounds(),
        "total_rounds": t.total_rounds(),
        "time_control": e.time_control.to_string(),
        "seed": t.seed(),
        "scoring": {
            "first_game_decides": scoring.first_game_decides,
            "win": scoring.win.to_string(),
            "draw": scoring.draw.to_string(),
            "loss": scoring.loss.to_string(),
        },
        "teams": teams,
        "rounds": rounds,
        "standings": standings,
        "finished": t.is_finished(),
        "teams_fixed": !t.rounds().is_empty(),
        "cannot_pair": e.cannot_pair,
        "created_at": e.created_at_ms,
        "updated_at": e.updated_at_ms,
    })
}

fn pairing_view(t: &Tournament, e: &Entry, round: u32, p: &Pairing) -> Value {
    let team_name = |id: TeamId| t.team(id).map_or_else(String::new, |tm| tm.name.clone());
    let seats: Vec<Value> = p
        .seats()
        .iter()
        .map(|s| {
            json!({
                "seat": s.seat.to_string(),
                "team": s.team.0,
                "team_name": team_name(s.team),
                "player": t.team(s.team).map_or_else(String::new, |tm| tm.player(s.slot).name.clone()),
                "slot": s.slot.to_string(),
                "home": s.home,
            })
        })
        .collect();
    let score = t.score(p);
    let points = |home: bool| {
        score.map(|s| {
            let ts = if home { s.home } else { s.away };
            json!({
                "match_points": ts.match_points.to_string(),
                "game_points": ts.game_points.to_string(),
            })
        })
    };
    let result = p.result.as_ref().map(|r| {
        json!({
            "board_a": r.game(BoardId::A).map(GameResult::as_str),
            "board_b": r.game(BoardId::B).map(GameResult::as_str),
            "match": csv::result_text(t, p),
            "text": r.to_string(),
        })
    });
    json!({
        "table": p.table,
        "home": p.home.0,
        "away": p.away.0,
        "home_name": team_name(p.home),
        "away_name": team_name(p.away),
        "seats": seats,
        "colours": csv::basis_text(&p.seating.basis),
        "result": result,
        "home_points": points(true),
        "away_points": points(false),
        "match_id": e.matches.get(&(round, p.table)),
    })
}

/// The organiser's secret from `Authorization: Bearer SECRET`, checked against the entry.
fn authorize(headers: &HeaderMap, entry: &Entry) -> Result<(), ApiError> {
    let secret = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|s| !s.is_empty());
    let Some(secret) = secret else {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "organiser requests need the header Authorization: Bearer <organiser secret>",
        ));
    };
    if sha256_hex(secret) != entry.organiser_hash {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            "this is not the organiser secret of this tournament",
        ));
    }
    Ok(())
}

fn check_name(what: &str, name: &str, max: usize) -> Result<String, ApiError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(ApiError::bad(format!("{what} is empty")));
    }
    if name.chars().count() > max {
        return Err(ApiError::bad(format!(
            "{what} is longer than {max} characters"
        )));
    }
    if name.chars().any(char::is_control) {
        return Err(ApiError::bad(format!("{what} holds control characters")));
    }
    Ok(name.to_owned())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CreateTournament {
    name: String,
    preset: String,
    format: String,
    #[serde(default)]
    rounds: Option<u32>,
    #[serde(default)]
    time_control: Option<String>,
    #[serde(default)]
    seed: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlayerIn {
    name: String,
    #[serde(default)]
    rating: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AddTeam {
    name: String,
    /// The first-board player.
    first: PlayerIn,
    second: PlayerIn,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct PairRound {
    #[serde(default)]
    online: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SetResult {
    #[serde(default)]
    board_a: Option<String>,
    #[serde(default)]
    board_b: Option<String>,
    /// A match result from the home team's side, or a forfeit.
    #[serde(default)]
    result: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SetColours {
    /// `home` or `away`.
    team: String,
    /// `first` or `second`: which of the team's players has White.
    white: String,
}

#[derive(Deserialize)]
pub(crate) struct RoundQuery {
    round: Option<u32>,
}

type Svc = State<Arc<Service>>;

/// The routes: `/api/tournaments...` and the pages `/t/...`.
pub(crate) fn router(service: Arc<Service>) -> Router {
    Router::new()
        .route("/t/new", get(page))
        .route("/t/{id}", get(page))
        .route("/t/{id}/admin", get(page))
        .route("/t/{id}/print", get(page))
        .route("/api/tournaments", post(create))
        .route("/api/tournaments/{id}", get(show))
        .route("/api/tournaments/{id}/auth", get(check_auth))
        .route("/api/tournaments/{id}/teams", post(add_team))
        .route("/api/tournaments/{id}/rounds", post(pair_round))
        .route(
            "/api/tournaments/{id}/rounds/{round}/tables/{table}/result",
            put(set_result),
        )
        .route(
            "/api/tournaments/{id}/rounds/{round}/tables/{table}/colours",
            put(set_colours),
        )
        .route("/api/tournaments/{id}/pairings.csv", get(pairings_csv))
        .route("/api/tournaments/{id}/standings.csv", get(standings_csv))
        .route("/api/tournaments/{id}/matches.bpgn", get(matches_bpgn))
        .with_state(service)
}

async fn page() -> Response {
    crate::assets::file("index.html")
}

fn etag(e: &Entry) -> HeaderValue {
    HeaderValue::from_str(&format!("\"{}\"", e.updated_at_ms))
        .unwrap_or_else(|_| HeaderValue::from_static("\"0\""))
}

fn answer(status: StatusCode, id: &str, e: &Entry) -> Response {
    (
        status,
        [
            (header::ETAG, etag(e)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        Json(view(id, e)),
    )
        .into_response()
}

async fn create(State(svc): Svc, body: Result<Json<CreateTournament>, JsonRejection>) -> ApiResult {
    let Json(req) = body?;
    let name = check_name("the tournament name", &req.name, MAX_NAME)?;
    let preset: Preset = req
        .preset
        .parse()
        .map_err(|e: bughouse_core::UnknownPreset| ApiError::bad(e.to_string()))?;
    let format: Format = req
        .format
        .parse()
        .map_err(|e: bughouse_tournament::UnknownFormat| ApiError::bad(e.to_string()))?;
    if req.rounds.is_some_and(|r| r > MAX_ROUNDS) {
        return Err(ApiError::bad(format!("at most {MAX_ROUNDS} rounds")));
    }
    let tc_text = req.time_control.unwrap_or_else(|| "5+0".to_owned());
    let time_control: TimeControl = tc_text
        .trim()
        .parse()
        .map_err(|e: bughouse_core::ParseTimeControlError| ApiError::bad(e.to_string()))?;
    let seed = match req.seed {
        Some(s) => s,
        None => u64::from_le_bytes(random_bytes::<8>()?),
    };
    let tournament = Tournament::new(name, preset, format, req.rounds, seed)?;
    let secret: String = random_bytes::<24>()?
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let now = unix_ms();
    let mut registry = svc.registry.lock().await;
    let id = loop {
        let id = random_id()?;
        if !registry.tournaments.contains_key(&id) {
            break id;
        }
    };
    let entry = Entry {
        id: id.clone(),
        cannot_pair: cannot_pair(&tournament),
        tournament,
        organiser_hash: sha256_hex(&secret),
        time_control,
        matches: BTreeMap::new(),
        created_at_ms: now,
        updated_at_ms: now,
    };
    svc.store
        .create_tournament(&StoredTournament {
            id: id.clone(),
            organiser_hash: entry.organiser_hash.clone(),
            time_control: entry.time_control.to_string(),
            data_json: entry.tournament.to_json(),
            created_at_ms: now,
            updated_at_ms: now,
            matches: Vec::new(),
        })
        .await
        .map_err(|e| ApiError::storage(&e))?;
    let body = json!({
        "tournament_id": id,
        "organiser_secret": secret,
        "tournament": view(&id, &entry),
    });
    registry.tournaments.insert(id, entry);
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

async fn show(State(svc): Svc, Path(id): Path<String>, headers: HeaderMap) -> ApiResult {
    let registry = svc.registry.lock().await;
    let entry = registry.entry(&id)?;
    let tag = etag(entry);
    if headers
        .get(header::IF_NONE_MATCH)
        .is_some_and(|v| v.as_bytes() == tag.as_bytes())
    {
        return Ok((StatusCode::NOT_MODIFIED, [(header::ETAG, tag)]).into_response());
    }
    Ok(answer(StatusCode::OK, &id, entry))
}

async fn check_auth(State(svc): Svc, Path(id): Path<String>, headers: HeaderMap) -> ApiResult {
    let registry = svc.registry.lock().await;
    let entry = registry.entry(&id)?;
    authorize(&headers, entry)?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

fn player(what: &str, p: &PlayerIn) -> Result<Player, ApiError> {
    let name = check_name(what, &p.name, MAX_PLAYER)?;
    match p.rating {
        Some(r) if r > MAX_RATING => Err(ApiError::bad(format!(
            "{what}'s rating must be at most {MAX_RATING}"
        ))),
        Some(r) => Ok(Player::rated(name, r)),
        None => Ok(Player::new(name)),
    }
}

async fn add_team(
    State(svc): Svc,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Json<AddTeam>, JsonRejection>,
) -> ApiResult {
    let mut registry = svc.registry.lock().await;
    let entry = registry.organiser_entry(&id, &headers)?;
    let Json(req) = body?;
    let name = check_name("the team name", &req.name, MAX_NAME)?;
    let team = Team::new(
        name,
        player("the first-board player", &req.first)?,
        player("the second player", &req.second)?,
    );
    if entry.tournament.teams().len() >= MAX_TEAMS {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "conflict",
            format!("a tournament has at most {MAX_TEAMS} teams"),
        ));
    }
    svc.change(entry, &[], |t| t.add_team(team).map(drop))
        .await?;
    Ok(answer(StatusCode::CREATED, &id, entry))
}

async fn pair_round(
    State(svc): Svc,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Json<Value>, JsonRejection>,
) -> ApiResult {
    let mut registry = svc.registry.lock().await;
    let entry = registry.organiser_entry(&id, &headers)?;
    let req: PairRound = match body {
        Ok(Json(v)) if !v.is_null() => serde_json::from_value(v)
            .map_err(|e| ApiError::bad(format!("expected {{\"online\": true|false}}: {e}")))?,
        Ok(_) | Err(JsonRejection::MissingJsonContentType(_)) => PairRound::default(),
        Err(e) => return Err(e.into()),
    };
    // Pair on a copy first: the matches are created only for a round that pairs.
    let mut copy = entry.tournament.clone();
    let round = copy.pair_next_round()?.clone();
    let mut links = Vec::new();
    if req.online {
        for p in &round.pairings {
            let match_id = svc
                .hub
                .create_match(
                    entry.tournament.preset().id(),
                    &entry.time_control.to_string(),
                )
                .await
                .map_err(|e| {
                    ApiError::new(
                        StatusCode::SERVICE_UNAVAILABLE,
                        "unavailable",
                        format!("the matches could not be created: {e}"),
                    )
                })?;
            links.push(TournamentMatch {
                round: i64::from(round.number),
                table: i64::from(p.table),
                match_id,
            });
        }
    }
    svc.change(entry, &links, |t| t.pair_next_round().map(drop))
        .await?;
    let mut new_links = Vec::new();
    for l in links {
        let key = (u32_of(l.round), u32_of(l.table));
        entry.matches.insert(key, l.match_id.clone());
        new_links.push((l.match_id, key));
    }
    for (match_id, (r, t)) in new_links {
        registry.by_match.insert(match_id, (id.clone(), r, t));
    }
    let entry = registry.entry(&id)?;
    Ok(answer(StatusCode::CREATED, &id, entry))
}

fn game(board: &str, text: Option<&String>) -> Result<GameResult, ApiError> {
    match text {
        Some(t) => t
            .parse()
            .map_err(|e: bughouse_tournament::ParseResultError| {
                ApiError::bad(format!("board {board}: {e}"))
            }),
        None => Err(ApiError::bad(format!(
            "board {board}'s result is missing: give board_a and board_b, or result"
        ))),
    }
}

async fn set_result(
    State(svc): Svc,
    path: Result<Path<(String, u32, u32)>, PathRejection>,
    headers: HeaderMap,
    body: Result<Json<SetResult>, JsonRejection>,
) -> ApiResult {
    let Path((id, round, table)) = path?;
    let mut registry = svc.registry.lock().await;
    let entry = registry.organiser_entry(&id, &headers)?;
    let Json(req) = body?;
    let record = match (&req.result, &req.board_a, &req.board_b) {
        (Some(r), None, None) => {
            MatchRecord::parse_match(r).map_err(|e| ApiError::bad(e.to_string()))?
        }
        (None, a, b) if a.is_some() || b.is_some() => MatchRecord::Games {
            a: game("A", a.as_ref())?,
            b: game("B", b.as_ref())?,
        },
        (None, _, _) => {
            return Err(ApiError::bad(
                "give the games as board_a and board_b (1-0, 0-1, 1/2-1/2 or *), or result \
                 (1-0, 0-1, 1/2-1/2 from the home team's side, or a forfeit +-, -+, --)",
            ))
        }
        (Some(_), _, _) => {
            return Err(ApiError::bad(
                "give either result or board_a and board_b, not both",
            ))
        }
    };
    svc.change(entry, &[], |t| t.set_result(round, table, record).map(drop))
        .await?;
    Ok(answer(StatusCode::OK, &id, entry))
}

async fn set_colours(
    State(svc): Svc,
    path: Result<Path<(String, u32, u32)>, PathRejection>,
    headers: HeaderMap,
    body: Result<Json<SetColours>, JsonRejection>,
) -> ApiResult {
    let Path((id, round, table)) = path?;
    let mut registry = svc.registry.lock().await;
    let entry = registry.organiser_entry(&id, &headers)?;
    let Json(req) = body?;
    let white: Slot = req
        .white
        .parse()
        .map_err(|e: bughouse_tournament::UnknownSlot| ApiError::bad(e.to_string()))?;
    let pairing = entry
        .tournament
        .round(round)
        .ok_or_else(|| {
            ApiError::from(TournamentError::NoSuchRound(
                round,
                entry.tournament.rounds().len(),
            ))
        })?
        .table(table)
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                "not_found",
                format!("round {round} has no table {table}"),
            )
        })?;
    let team = match req.team.as_str() {
        "home" => pairing.home,
        "away" => pairing.away,
        other => {
            return Err(ApiError::bad(format!(
                "unknown team {other:?}: expected home or away"
            )))
        }
    };
    if entry.matches.contains_key(&(round, table)) {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "conflict",
            "this match is played on the server and was created with its seats: colours are \
             chosen before a round is paired for online play",
        ));
    }
    svc.change(entry, &[], |t| {
        t.set_white_choice(round, table, team, white).map(drop)
    })
    .await?;
    Ok(answer(StatusCode::OK, &id, entry))
}

fn download(content_type: &'static str, filename: String, body: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type.to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{filename}\""),
            ),
        ],
        body,
    )
        .into_response()
}

fn check_round(t: &Tournament, round: Option<u32>) -> Result<(), ApiError> {
    match round {
        Some(r) if t.round(r).is_none() => {
            Err(TournamentError::NoSuchRound(r, t.rounds().len()).into())
        }
        _ => Ok(()),
    }
}

fn suffix(round: Option<u32>) -> String {
    round.map_or_else(String::new, |r| format!("-round-{r}"))
}

async fn pairings_csv(
    State(svc): Svc,
    Path(id): Path<String>,
    query: Result<Query<RoundQuery>, QueryRejection>,
) -> ApiResult {
    let Query(q) = query?;
    let registry = svc.registry.lock().await;
    let entry = registry.entry(&id)?;
    check_round(&entry.tournament, q.round)?;
    Ok(download(
        "text/csv; charset=utf-8",
        format!("tournament-{id}-pairings{}.csv", suffix(q.round)),
        csv::pairings_csv(&entry.tournament, q.round),
    ))
}

async fn standings_csv(State(svc): Svc, Path(id): Path<String>) -> ApiResult {
    let registry = svc.registry.lock().await;
    let entry = registry.entry(&id)?;
    Ok(download(
        "text/csv; charset=utf-8",
        format!("tournament-{id}-standings.csv"),
        csv::standings_csv(&entry.tournament),
    ))
}

async fn matches_bpgn(
    State(svc): Svc,
    Path(id): Path<String>,
    query: Result<Query<RoundQuery>, QueryRejection>,
) -> ApiResult {
    let Query(q) = query?;
    let ids: Vec<String> = {
        let registry = svc.registry.lock().await;
        let entry = registry.entry(&id)?;
        check_round(&entry.tournament, q.round)?;
        entry
            .matches
            .iter()
            .filter(|((r, _), _)| q.round.is_none_or(|n| n == *r))
            .map(|(_, m)| m.clone())
            .collect()
    };
    if ids.is_empty() {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            "no match of this tournament was played on the server",
        ));
    }
    let mut out = String::new();
    for match_id in ids {
        match svc.hub.bpgn(&match_id).await {
            Ok(Some(text)) => {
                out.push_str(text.trim_end());
                out.push_str("\n\n");
            }
            Ok(None) => {}
            Err(e) => return Err(ApiError::storage(&e)),
        }
    }
    Ok(download(
        "text/plain; charset=utf-8",
        format!("tournament-{id}{}.bpgn", suffix(q.round)),
        out,
    ))
}

/// Enters the results of finished matches as the committer reports them.
pub(crate) async fn results_task(service: Arc<Service>, mut rx: mpsc::UnboundedReceiver<Finished>) {
    while let Some(finished) = rx.recv().await {
        service.match_finished(finished).await;
    }
}
