//! The match routes: create, state, positions, BPGN, the rules catalog, the archive.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use bughouse_core::{Preset, Rules};
use bughouse_protocol::{CreateMatch, CreatedMatch, PresetInfo, RuleField, RulesCatalog};
use tokio::sync::oneshot;

use crate::http::{auth, ApiError, App};
use crate::runtime::{ask, Command, HubHandle};

pub(crate) async fn create(
    State(app): State<App>,
    headers: HeaderMap,
    body: Result<Json<CreateMatch>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(request) = body.map_err(|e| {
        ApiError::bad(format!(
            "expected JSON {{\"rules\": \"fide\", \"time_control\": \"5+0\"}}: {}",
            e.body_text()
        ))
    })?;
    // A rated match is created by a signed-in player.
    if request.rated {
        let signed_in = match auth::session_token(&headers) {
            Some(token) => app
                .store
                .session_account(&auth::token_hash(&token), auth::unix_ms())
                .await
                .map_err(|e| ApiError::storage(&e))?
                .is_some(),
            None => false,
        };
        if !signed_in {
            return Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "sign_in_required",
                "sign in to create a rated match",
            ));
        }
    }
    let (reply, answer) = oneshot::channel();
    if app
        .shards
        .next()
        .send(Command::Create { request, reply })
        .await
        .is_err()
    {
        return Err(ApiError::unavailable());
    }
    match answer.await {
        Ok(Ok(match_id)) => {
            Ok((StatusCode::CREATED, Json(CreatedMatch { match_id })).into_response())
        }
        Ok(Err(e)) => Err(ApiError::bad(e.to_string())),
        Err(_) => Err(ApiError::unavailable()),
    }
}

/// `GET /api/rules`: the presets and what each rule field takes.
pub(crate) async fn rules_catalog() -> Json<RulesCatalog> {
    let presets = Preset::ALL
        .into_iter()
        .filter(|p| p.rules().sets() == 2)
        .map(|p| PresetInfo {
            id: p.id().to_owned(),
            description: p.description().to_owned(),
            settings: crate::hub::rule_settings(&p.rules()),
        })
        .collect();
    let fields = Rules::FIELDS
        .into_iter()
        .map(|name| RuleField {
            name: name.to_owned(),
            options: Rules::options(name).map(|o| o.into_iter().map(str::to_owned).collect()),
        })
        .collect();
    Json(RulesCatalog { presets, fields })
}

pub(crate) async fn state(
    State(app): State<App>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let inbox = app.shards.of(&id);
    match ask(inbox, |reply| Command::State { id, reply }).await {
        Some(Some(state)) => Ok(Json(state).into_response()),
        _ => Err(ApiError::no_match()),
    }
}

pub(crate) async fn positions(
    State(app): State<App>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let inbox = app.shards.of(&id);
    match ask(inbox, |reply| Command::Positions { id, reply }).await {
        Some(Some(p)) => Ok(Json(p).into_response()),
        _ => Err(ApiError::no_match()),
    }
}

pub(crate) async fn bpgn(
    State(app): State<App>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let hub = HubHandle {
        shards: app.shards.clone(),
        store: app.store.clone(),
    };
    // A finished match has its BPGN in the archive; one in progress, the record so far.
    let text = hub.bpgn(&id).await.map_err(|e| ApiError::storage(&e))?;
    match text {
        Some(text) => Ok((
            [
                (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"bughouse-{id}.bpgn\""),
                ),
            ],
            text,
        )
            .into_response()),
        None => Err(ApiError::no_match()),
    }
}

/// The most archive rows one request may ask for.
pub(crate) const ARCHIVE_PAGE_MAX: i64 = 500;

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Page {
    pub(crate) limit: Option<i64>,
    pub(crate) offset: Option<i64>,
}

pub(crate) async fn archive(
    State(app): State<App>,
    page: Result<Query<Page>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(page) = page?;
    let limit = page.limit.unwrap_or(50);
    if !(1..=ARCHIVE_PAGE_MAX).contains(&limit) {
        return Err(ApiError::bad(format!(
            "limit must be 1 to {ARCHIVE_PAGE_MAX}, not {limit}"
        )));
    }
    let offset = page.offset.unwrap_or(0);
    if offset < 0 {
        return Err(ApiError::bad(format!(
            "offset must be 0 or more, not {offset}"
        )));
    }
    let list = app
        .store
        .archive(limit, offset)
        .await
        .map_err(|e| ApiError::storage(&e))?;
    Ok(Json(list).into_response())
}
