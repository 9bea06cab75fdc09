//! The over-the-board routes: `POST /api/otb` (a new table), `GET /api/otb/{id}` (the table),
//! `POST /api/otb/{id}/events` (the page's events), `GET /api/otb/{id}/bpgn` (the scoresheet as
//! BPGN), and the page `/otb/...`. A table is stored as
//! its settings and the events it accepted; each request replays them through
//! [`bughouse_core::otb::Table`], which takes every decision: this file only checks the key,
//! skips resent events and stores.

mod record;
mod wire;

use std::sync::Arc;
use std::time::Duration;

use axum::extract::rejection::{JsonRejection, PathRejection};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use bughouse_core::otb::{Rulebook, Table, TableError};
use bughouse_core::{BoardId, Preset, TimeControl};
use bughouse_protocol::otb::{
    CreateOtbTable, CreatedOtbTable, OtbEvent, OtbEvents, OtbGameResult, OtbPairing, OtbRejected,
    OtbTableView,
};
use bughouse_store::{NewOtbTable, OtbResult, Store, StoredOtbEvent, StoredOtbTable};
use tokio::sync::Mutex;

use crate::app::{sha256_hex, unix_ms};
use crate::http::ApiError;
use crate::tournaments;

/// The most events one request may carry (an offline queue of a long match fits).
const MAX_EVENTS: usize = 500;
/// The longest base time, seconds (10 hours).
const MAX_BASE_SECONDS: u32 = 36_000;
/// The longest increment, seconds.
const MAX_INCREMENT_SECONDS: u32 = 3_600;

/// The tables' store, one lock for writes so that two pages of one table append in turn, and
/// the tournaments whose pairings tables play.
pub(crate) struct Service {
    store: Store,
    writes: Mutex<()>,
    tournaments: Arc<tournaments::Service>,
}

impl Service {
    pub(crate) fn new(store: Store, tournaments: Arc<tournaments::Service>) -> Service {
        Service {
            store,
            writes: Mutex::new(()),
            tournaments,
        }
    }

    /// Creates a table of no tournament; returns its id and key.
    async fn create(&self, req: &CreateOtbTable) -> Result<CreatedOtbTable, ApiError> {
        if !(1..=MAX_BASE_SECONDS).contains(&req.base_seconds)
            || req.increment_seconds > MAX_INCREMENT_SECONDS
        {
            return Err(ApiError::bad(format!(
                "base_seconds must be 1 to {MAX_BASE_SECONDS}, increment_seconds 0 to \
                 {MAX_INCREMENT_SECONDS}"
            )));
        }
        let id = random_text(10)?;
        let key = random_text(22)?;
        self.insert(req, id, key, None).await
    }

    /// Stores a new table with `id` and `key`.
    async fn insert(
        &self,
        req: &CreateOtbTable,
        id: String,
        key: String,
        pairing: Option<(String, i64, i64)>,
    ) -> Result<CreatedOtbTable, ApiError> {
        let book = wire::rulebook(req.rulebook);
        self.store
            .create_otb_table(&NewOtbTable {
                id: id.clone(),
                key_hash: sha256_hex(&key),
                preset: book.preset().id().to_owned(),
                base_ms: i64::from(req.base_seconds) * 1000,
                increment_ms: i64::from(req.increment_seconds) * 1000,
                created_at_ms: unix_ms(),
                pairing,
            })
            .await
            .map_err(|e| match e {
                bughouse_store::StoreError::Invalid(m) => {
                    ApiError::new(StatusCode::CONFLICT, "conflict", m)
                }
                e => ApiError::storage(&e),
            })?;
        Ok(CreatedOtbTable {
            url: format!("/otb/{id}#{key}"),
            id,
            key,
        })
    }

    async fn load(&self, id: &str) -> Result<StoredOtbTable, ApiError> {
        self.store
            .load_otb_table(id)
            .await
            .map_err(|e| ApiError::storage(&e))?
            .ok_or_else(no_table)
    }

    /// The table and its view, with nothing posted.
    pub(crate) async fn view(&self, id: &str) -> Result<OtbTableView, ApiError> {
        let stored = self.load(id).await?;
        let table = replay(&stored)?;
        Ok(view(&stored, &table, Vec::new(), Vec::new()))
    }

    /// The table's scoresheet as BPGN; `None` when no move was entered.
    async fn bpgn(&self, id: &str) -> Result<Option<String>, ApiError> {
        let stored = self.load(id).await?;
        stored_bpgn(&stored)
    }

    /// Applies posted events after the stored ones; a resent event (a known id) is skipped.
    async fn post(&self, id: &str, req: OtbEvents) -> Result<OtbTableView, ApiError> {
        if req.events.len() > MAX_EVENTS {
            return Err(ApiError::bad(format!(
                "at most {MAX_EVENTS} events at once"
            )));
        }
        let _turn = self.writes.lock().await;
        let mut stored = self.load(id).await?;
        if sha256_hex(&req.key) != stored.table.key_hash {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "forbidden",
                "wrong key for this table",
            ));
        }
        let mut table = replay(&stored)?;
        let mut applied = Vec::new();
        let mut rejected = Vec::new();
        let mut new = Vec::new();
        for item in &req.events {
            let client_id = i64::try_from(item.id).map_err(|_| ApiError::bad("id too large"))?;
            let at_ms = i64::try_from(item.at_ms).map_err(|_| ApiError::bad("time too large"))?;
            let known = stored.events.iter().chain(&new);
            if known
                .clone()
                .any(|e: &StoredOtbEvent| e.client_id == client_id)
            {
                applied.push(item.id);
                continue;
            }
            let at = Duration::from_millis(item.at_ms);
            let applied_now = wire::event(&item.event, &table).and_then(|e| table.apply(e, at));
            match applied_now {
                Ok(_) => {
                    applied.push(item.id);
                    new.push(StoredOtbEvent {
                        seq: i64::try_from(stored.events.len() + new.len()).unwrap_or(i64::MAX),
                        client_id,
                        at_ms,
                        event_json: serde_json::to_string(&item.event)
                            .map_err(|e| ApiError::bad(e.to_string()))?,
                    });
                }
                Err(e) => rejected.push(OtbRejected {
                    id: item.id,
                    error: e.to_string(),
                }),
            }
        }
        if !new.is_empty() {
            let result = if stored.result.is_none() {
                result_of(&table)
            } else {
                None
            };
            self.store
                .append_otb_events(id, &new, result.as_ref())
                .await
                .map_err(|e| ApiError::storage(&e))?;
            stored.events.extend(new);
            if let Some(r) = result {
                if let Some((tid, round, table)) = &stored.table.pairing {
                    let pairing = (tid.as_str(), u32_of(*round), u32_of(*table));
                    self.tournaments
                        .otb_finished(pairing, [r.a.clone(), r.b.clone()], id)
                        .await;
                }
                stored.result = Some(r);
            }
        }
        Ok(view(&stored, &table, applied, rejected))
    }
}

fn u32_of(n: i64) -> u32 {
    u32::try_from(n).unwrap_or(0)
}

/// The key of a tournament's table: derived from the organiser's secret hash, so that the
/// organiser is given it again whenever he asks, and the server keeps no key.
fn tournament_key(organiser_hash: &str, table_id: &str) -> String {
    sha256_hex(&format!("otb:{organiser_hash}:{table_id}"))[..24].to_owned()
}

impl Service {
    /// The table of a tournament's pairing, opened now if it has none, for its organiser.
    async fn open_for_pairing(
        &self,
        (tid, round, table): (&str, u32, u32),
        secret: Option<&str>,
    ) -> Result<CreatedOtbTable, ApiError> {
        let p = self
            .tournaments
            .otb_pairing((tid, round, table), secret)
            .await?;
        let preset = Rulebook::from_preset(p.preset).map_err(|e| ApiError::bad(e.to_string()))?;
        let _turn = self.writes.lock().await;
        let existing = self
            .store
            .otb_tables_of_tournament(tid)
            .await
            .map_err(|e| ApiError::storage(&e))?
            .into_iter()
            .find(|t| {
                t.table
                    .pairing
                    .as_ref()
                    .map(|(_, r, n)| (u32_of(*r), u32_of(*n)))
                    == Some((round, table))
            });
        if let Some(t) = existing {
            let key = tournament_key(&p.organiser_hash, &t.table.id);
            return Ok(CreatedOtbTable {
                url: format!("/otb/{}#{key}", t.table.id),
                id: t.table.id,
                key,
            });
        }
        let secs = |d: Duration| u32::try_from(d.as_secs()).unwrap_or(u32::MAX);
        let req = CreateOtbTable {
            rulebook: wire::wire_rulebook(preset),
            base_seconds: secs(p.time_control.base).max(1),
            increment_seconds: secs(p.time_control.increment),
        };
        let id = random_text(10)?;
        let key = tournament_key(&p.organiser_hash, &id);
        let pairing = Some((tid.to_owned(), i64::from(round), i64::from(table)));
        self.insert(&req, id, key, pairing).await
    }
}

fn no_table() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "not_found",
        "no such over-the-board table",
    )
}

/// The rulebook and time control of a stored table.
fn settings(stored: &StoredOtbTable) -> Result<(Rulebook, TimeControl), ApiError> {
    let corrupt = || {
        tracing::error!(table = %stored.table.id, "unreadable over-the-board table");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "storage",
            "the stored table cannot be read",
        )
    };
    let preset: Preset = stored.table.preset.parse().map_err(|_| corrupt())?;
    let book = Rulebook::from_preset(preset).map_err(|_| corrupt())?;
    let ms = |v: i64| {
        u64::try_from(v)
            .map(Duration::from_millis)
            .map_err(|_| corrupt())
    };
    Ok((
        book,
        TimeControl {
            base: ms(stored.table.base_ms)?,
            increment: ms(stored.table.increment_ms)?,
        },
    ))
}

/// The BPGN of a stored table (its events replayed); `None` when no move was entered.
pub(crate) fn stored_bpgn(stored: &StoredOtbTable) -> Result<Option<String>, ApiError> {
    let table = replay(stored)?;
    Ok(record::bpgn(stored, &table))
}

/// The table after its stored events.
fn replay(stored: &StoredOtbTable) -> Result<Table, ApiError> {
    let (book, tc) = settings(stored)?;
    let mut table = Table::new(book, tc);
    for e in &stored.events {
        let Ok(event) = serde_json::from_str::<OtbEvent>(&e.event_json) else {
            tracing::error!(table = %stored.table.id, seq = e.seq, "unreadable event");
            continue;
        };
        let at = Duration::from_millis(u64::try_from(e.at_ms).unwrap_or(0));
        if let Err(err) = wire::event(&event, &table).and_then(|ev| table.apply(ev, at)) {
            // Accepted once, so refused now only if the rules changed since: keep going.
            tracing::warn!(table = %stored.table.id, seq = e.seq, "event refused on replay: {err}");
        }
    }
    Ok(table)
}

/// The result to store once the match is over.
fn result_of(table: &Table) -> Option<OtbResult> {
    let result = table.result()?;
    let game = |b: BoardId| {
        table
            .game_end(b)
            .map_or(OtbGameResult::Stopped, |e| wire::game_result(e.score))
            .as_str()
            .to_owned()
    };
    Some(OtbResult {
        result: result.pgn().to_owned(),
        a: game(BoardId::A),
        b: game(BoardId::B),
    })
}

fn view(
    stored: &StoredOtbTable,
    table: &Table,
    applied: Vec<u64>,
    rejected: Vec<OtbRejected>,
) -> OtbTableView {
    let t = &stored.table;
    OtbTableView {
        id: t.id.clone(),
        rulebook: wire::wire_rulebook(table.rulebook()),
        base_ms: u64::try_from(t.base_ms).unwrap_or(0),
        increment_ms: u64::try_from(t.increment_ms).unwrap_or(0),
        pairing: t.pairing.as_ref().map(|(tid, r, n)| OtbPairing {
            tournament: tid.clone(),
            round: u32::try_from(*r).unwrap_or(0),
            table: u32::try_from(*n).unwrap_or(0),
        }),
        started: table.clock().is_started(),
        paused: table.clock().is_paused(),
        as_of_ms: u64::try_from(table.clock().last().as_millis()).unwrap_or(u64::MAX),
        clocks: wire::faces(table),
        games: wire::games(table),
        result: table.result().map(wire::match_result),
        illegal_moves: wire::illegal_moves(table),
        record: wire::record(table),
        applied,
        rejected,
        moves: wire::moves(table),
    }
}

impl From<TableError> for ApiError {
    fn from(e: TableError) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, "conflict", e.to_string())
    }
}

/// `n` random letters and digits (no look-alikes), from the OS's generator.
fn random_text(n: usize) -> Result<String, ApiError> {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut buf = vec![0u8; n];
    getrandom::fill(&mut buf).map_err(|e| {
        tracing::error!("getrandom: {e}");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "no randomness",
        )
    })?;
    Ok(buf
        .iter()
        .map(|b| char::from(ALPHABET[usize::from(*b) % ALPHABET.len()]))
        .collect())
}

type Svc = State<Arc<Service>>;

/// The routes: `/api/otb...` and the pages `/otb`, `/otb/{id}`.
pub(crate) fn router(service: Arc<Service>) -> Router {
    Router::new()
        .route("/otb", get(page))
        .route("/otb/{id}", get(page))
        .route("/otb-sw.js", get(service_worker))
        .route("/api/otb", post(create))
        .route("/api/otb/{id}", get(show))
        .route("/api/otb/{id}/events", post(events))
        .route("/api/otb/{id}/bpgn", get(bpgn))
        .route(
            "/api/tournaments/{id}/rounds/{round}/tables/{table}/otb",
            post(open_for_pairing),
        )
        .route(
            "/api/tournaments/{id}/rounds/{round}/tables/{table}/otb.svg",
            get(pairing_qr),
        )
        .with_state(service)
}

async fn page() -> Response {
    crate::assets::file("index.html")
}

/// The service worker that keeps the page for offline use (`web/public/otb-sw.js`).
async fn service_worker() -> Response {
    crate::assets::file("otb-sw.js")
}

async fn create(
    State(svc): Svc,
    body: Result<Json<CreateOtbTable>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(req) = body?;
    let created = svc.create(&req).await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

async fn show(
    State(svc): Svc,
    id: Result<Path<String>, PathRejection>,
) -> Result<Response, ApiError> {
    let Path(id) = id?;
    Ok(Json(svc.view(&id).await?).into_response())
}

/// The scoresheet as BPGN text; 404 when the table is unknown or no move was entered.
async fn bpgn(
    State(svc): Svc,
    id: Result<Path<String>, PathRejection>,
) -> Result<Response, ApiError> {
    let Path(id) = id?;
    let text = svc.bpgn(&id).await?.ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            "no move was entered on this table's scoresheet",
        )
    })?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"bughouse-otb-{id}.bpgn\""),
            ),
        ],
        text,
    )
        .into_response())
}

async fn events(
    State(svc): Svc,
    id: Result<Path<String>, PathRejection>,
    body: Result<Json<OtbEvents>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Path(id) = id?;
    let Json(req) = body?;
    Ok(Json(svc.post(&id, req).await?).into_response())
}

/// The organiser secret of `Authorization: Bearer SECRET`, if any.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
}

async fn open_for_pairing(
    State(svc): Svc,
    path: Result<Path<(String, u32, u32)>, PathRejection>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let Path((id, round, table)) = path?;
    let created = svc
        .open_for_pairing((&id, round, table), bearer(&headers))
        .await?;
    Ok(Json(created).into_response())
}

/// A QR code (SVG) of the pairing's table page with its key, for the organiser's printed
/// pairings: the arbiter at the table scans it to run the clock. The address is this server's
/// as the request names it (`Host`, and `X-Forwarded-Proto` behind a proxy).
async fn pairing_qr(
    State(svc): Svc,
    path: Result<Path<(String, u32, u32)>, PathRejection>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let Path((id, round, table)) = path?;
    let created = svc
        .open_for_pairing((&id, round, table), bearer(&headers))
        .await?;
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .filter(|h| {
            h.chars()
                .all(|c| c.is_ascii_alphanumeric() || ".:-[]".contains(c))
        })
        .ok_or_else(|| ApiError::bad("the request names no host"))?;
    let scheme = match headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
    {
        Some("https") => "https",
        _ => "http",
    };
    let url = format!("{scheme}://{host}{}", created.url);
    let code = qrcode::QrCode::new(url.as_bytes()).map_err(|e| ApiError::bad(e.to_string()))?;
    let svg = code
        .render::<qrcode::render::svg::Color<'_>>()
        .min_dimensions(160, 160)
        .build();
    Ok((
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        svg,
    )
        .into_response())
}
