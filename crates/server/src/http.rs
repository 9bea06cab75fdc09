//! The HTTP routes and the websocket adapter onto the [`Hub`].
//!
//! One task owns the hub. Websocket readers send it commands through a channel; it applies a
//! batch of them, executes the store effects of the batch in order, and only then the sends, so
//! every accepted move is stored before it is acknowledged. It also wakes for flag falls.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use bughouse_protocol::{CreateMatch, CreatedMatch, MatchState, MAX_CLIENT_MESSAGE};
use bughouse_store::Store;
use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpListener;
use tokio::sync::{mpsc, oneshot};

use crate::hub::{ConnId, Effect, Hub, Input, StoreOp, MAX_LAG_COMPENSATION};
use crate::{Config, ServerError};

/// How often the server pings each websocket to measure its round trip.
const PING_EVERY: Duration = Duration::from_secs(5);

/// The most commands the hub applies before it stores and sends.
const BATCH: usize = 512;

enum Outgoing {
    Text(Arc<str>),
    Ping(Vec<u8>),
    Close,
}

enum Command {
    Connect(ConnId, mpsc::UnboundedSender<Outgoing>),
    Disconnect(ConnId),
    Input(Input),
    Rtt(ConnId, Duration),
    Create {
        request: CreateMatch,
        reply: oneshot::Sender<Result<String, String>>,
    },
    State {
        id: String,
        reply: oneshot::Sender<Option<MatchState>>,
    },
    Positions {
        id: String,
        reply: oneshot::Sender<Option<Vec<[String; 2]>>>,
    },
    Bpgn {
        id: String,
        reply: oneshot::Sender<Option<String>>,
    },
}

#[derive(Clone)]
struct App {
    tx: mpsc::Sender<Command>,
    store: Store,
    next_conn: Arc<AtomicU64>,
    started: Instant,
}

/// A running server, for tests: its address and a handle to stop it.
pub struct Server {
    /// The address it listens on.
    pub addr: SocketAddr,
    task: tokio::task::JoinHandle<Result<(), ServerError>>,
}

impl Server {
    /// Stops the server at once (as a crash would: nothing is flushed beyond what is stored).
    pub fn abort(self) {
        self.task.abort();
    }
}

/// Runs the server until it fails.
///
/// # Errors
///
/// The database cannot be opened, or the address cannot be bound.
pub async fn run(config: Config) -> Result<(), ServerError> {
    let listener = TcpListener::bind(config.addr)
        .await
        .map_err(|source| ServerError::Bind {
            addr: config.addr,
            source,
        })?;
    let store = Store::connect(&config.database).await?;
    tracing::info!(addr = %listener.local_addr()?, database = %config.database, "serving");
    serve(listener, store).await
}

/// Starts a server on an already bound listener in the background (tests use port 0).
///
/// # Errors
///
/// The database cannot be opened.
pub async fn serve_on(listener: TcpListener, database: &str) -> Result<Server, ServerError> {
    let store = Store::connect(database).await?;
    let addr = listener.local_addr()?;
    let task = tokio::spawn(serve(listener, store));
    Ok(Server { addr, task })
}

async fn serve(listener: TcpListener, store: Store) -> Result<(), ServerError> {
    let started = Instant::now();
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed).map_err(|e| std::io::Error::other(e.to_string()))?;
    let mut hub = Hub::new(seed);
    // Matches that were in progress when the server stopped go on.
    for stored in store.live_matches().await? {
        if let Err(e) = hub.restore(&stored, started.elapsed()) {
            tracing::error!(match_id = %stored.id, "cannot restore: {e}");
        }
    }
    let (tx, rx) = mpsc::channel(4096);
    tokio::spawn(hub_task(hub, rx, store.clone(), started));
    let app = App {
        tx,
        store,
        next_conn: Arc::new(AtomicU64::new(1)),
        started,
    };
    let router = Router::new()
        .route("/", get(index))
        .route("/m/{id}", get(index))
        .route("/assets/{*path}", get(asset))
        .route("/api/matches", post(create))
        .route("/api/matches/{id}", get(state))
        .route("/api/matches/{id}/bpgn", get(bpgn))
        .route("/api/matches/{id}/positions", get(positions))
        .route("/api/archive", get(archive))
        .route("/ws", get(websocket))
        .with_state(app);
    axum::serve(listener, router).await?;
    Ok(())
}

fn json_error(status: StatusCode, message: impl Into<String>) -> Response {
    (status, Json(serde_json::json!({ "error": message.into() }))).into_response()
}

async fn index() -> Response {
    crate::assets::file("index.html")
}

async fn asset(Path(path): Path<String>) -> Response {
    crate::assets::file(&format!("assets/{path}"))
}

async fn create(State(app): State<App>, body: Option<Json<CreateMatch>>) -> Response {
    let Some(Json(request)) = body else {
        return json_error(
            StatusCode::BAD_REQUEST,
            "expected JSON {\"rules\": \"fide\", \"time_control\": \"5+0\"}",
        );
    };
    let (reply, answer) = oneshot::channel();
    if app
        .tx
        .send(Command::Create { request, reply })
        .await
        .is_err()
    {
        return json_error(StatusCode::SERVICE_UNAVAILABLE, "server is stopping");
    }
    match answer.await {
        Ok(Ok(match_id)) => (StatusCode::CREATED, Json(CreatedMatch { match_id })).into_response(),
        Ok(Err(e)) => json_error(StatusCode::BAD_REQUEST, e),
        Err(_) => json_error(StatusCode::SERVICE_UNAVAILABLE, "server is stopping"),
    }
}

async fn state(State(app): State<App>, Path(id): Path<String>) -> Response {
    let (reply, answer) = oneshot::channel();
    let _ = app.tx.send(Command::State { id, reply }).await;
    match answer.await {
        Ok(Some(state)) => Json(state).into_response(),
        _ => json_error(StatusCode::NOT_FOUND, "no such match"),
    }
}

async fn positions(State(app): State<App>, Path(id): Path<String>) -> Response {
    let (reply, answer) = oneshot::channel();
    let _ = app.tx.send(Command::Positions { id, reply }).await;
    match answer.await {
        Ok(Some(p)) => Json(p).into_response(),
        _ => json_error(StatusCode::NOT_FOUND, "no such match"),
    }
}

async fn bpgn(State(app): State<App>, Path(id): Path<String>) -> Response {
    let (reply, answer) = oneshot::channel();
    let _ = app
        .tx
        .send(Command::Bpgn {
            id: id.clone(),
            reply,
        })
        .await;
    // A finished match has its BPGN in the archive; one in progress, the record so far.
    let text = match answer.await {
        Ok(Some(text)) => Some(text),
        _ => match app.store.bpgn(&id).await {
            Ok(text) => text,
            Err(e) => {
                tracing::error!("archive: {e}");
                return json_error(StatusCode::INTERNAL_SERVER_ERROR, "storage error");
            }
        },
    };
    match text {
        Some(text) => (
            [
                (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"bughouse-{id}.bpgn\""),
                ),
            ],
            text,
        )
            .into_response(),
        None => json_error(StatusCode::NOT_FOUND, "no such match"),
    }
}

#[derive(serde::Deserialize)]
struct Page {
    limit: Option<i64>,
    offset: Option<i64>,
}

async fn archive(State(app): State<App>, Query(page): Query<Page>) -> Response {
    let limit = page.limit.unwrap_or(50).clamp(1, 500);
    let offset = page.offset.unwrap_or(0).max(0);
    match app.store.archive(limit, offset).await {
        Ok(list) => Json(list).into_response(),
        Err(e) => {
            tracing::error!("archive: {e}");
            json_error(StatusCode::INTERNAL_SERVER_ERROR, "storage error")
        }
    }
}

async fn websocket(State(app): State<App>, ws: WebSocketUpgrade) -> Response {
    // Frames up to 16 times the protocol limit are read so that the hub can answer a too large
    // message with an error; anything larger closes the connection.
    ws.max_message_size(MAX_CLIENT_MESSAGE * 16)
        .on_upgrade(move |socket| client(socket, app))
}

async fn client(socket: WebSocket, app: App) {
    let conn = app.next_conn.fetch_add(1, Ordering::Relaxed);
    let (out_tx, mut out_rx) = mpsc::unbounded_channel();
    if app
        .tx
        .send(Command::Connect(conn, out_tx.clone()))
        .await
        .is_err()
    {
        return;
    }
    let (mut sink, mut stream) = socket.split();
    let writer = tokio::spawn(async move {
        while let Some(out) = out_rx.recv().await {
            let sent = match out {
                Outgoing::Text(text) => sink.send(Message::Text(text.as_ref().into())).await,
                Outgoing::Ping(payload) => sink.send(Message::Ping(payload.into())).await,
                Outgoing::Close => {
                    let _ = sink.close().await;
                    break;
                }
            };
            if sent.is_err() {
                break;
            }
        }
    });
    let started = app.started;
    let pinger = tokio::spawn(async move {
        let mut every = tokio::time::interval(PING_EVERY);
        loop {
            every.tick().await;
            let stamp = u64::try_from(started.elapsed().as_micros()).unwrap_or(0);
            if out_tx
                .send(Outgoing::Ping(stamp.to_be_bytes().to_vec()))
                .is_err()
            {
                break;
            }
        }
    });
    while let Some(frame) = stream.next().await {
        let command = match frame {
            Ok(Message::Text(text)) => Command::Input(Input::Text(conn, text.as_str().to_owned())),
            Ok(Message::Binary(_)) => Command::Input(Input::Invalid(
                conn,
                "binary frames are not accepted; send JSON text",
            )),
            Ok(Message::Pong(payload)) => {
                let Ok(bytes) = <[u8; 8]>::try_from(payload.as_ref()) else {
                    continue;
                };
                let sent = Duration::from_micros(u64::from_be_bytes(bytes));
                Command::Rtt(conn, app.started.elapsed().saturating_sub(sent))
            }
            Ok(Message::Ping(_)) => continue,
            Ok(Message::Close(_)) | Err(_) => break,
        };
        if app.tx.send(command).await.is_err() {
            break;
        }
    }
    let _ = app.tx.send(Command::Disconnect(conn)).await;
    pinger.abort();
    writer.abort();
}

async fn hub_task(mut hub: Hub, mut rx: mpsc::Receiver<Command>, store: Store, started: Instant) {
    let mut senders: HashMap<ConnId, mpsc::UnboundedSender<Outgoing>> = HashMap::new();
    let mut batch = Vec::with_capacity(BATCH);
    let mut replies = Vec::new();
    loop {
        // Wake for the next flag fall (the hub keeps the lag grace before it flags).
        let wake = hub
            .next_deadline()
            .map(|t| t + MAX_LAG_COMPENSATION + Duration::from_millis(1));
        let sleep = async {
            match wake {
                Some(t) => {
                    tokio::time::sleep_until(tokio::time::Instant::from_std(started + t)).await
                }
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            n = rx.recv_many(&mut batch, BATCH) => {
                if n == 0 {
                    return;
                }
            }
            () = sleep => {}
        }
        let now = started.elapsed();
        let mut effects = Vec::new();
        for command in batch.drain(..) {
            match command {
                Command::Connect(conn, tx) => {
                    senders.insert(conn, tx);
                    effects.extend(hub.apply(Input::Connected(conn), now));
                }
                Command::Disconnect(conn) => {
                    senders.remove(&conn);
                    effects.extend(hub.apply(Input::Disconnected(conn), now));
                }
                Command::Input(input) => {
                    if let Input::Text(_, text) = &input {
                        load_if_archived(&mut hub, &store, text, now).await;
                    }
                    effects.extend(hub.apply(input, now));
                }
                Command::Rtt(conn, rtt) => hub.observe_rtt(conn, rtt),
                Command::Create { request, reply } => {
                    match hub.create_match(&request.rules, &request.time_control, now) {
                        Ok((id, fx)) => {
                            effects.extend(fx);
                            // The match exists once it is stored: answer after the stores.
                            replies.push((reply, id));
                        }
                        Err(e) => {
                            let _ = reply.send(Err(e.to_string()));
                        }
                    }
                }
                Command::State { id, reply } => {
                    load_match(&mut hub, &store, &id, now).await;
                    let _ = reply.send(hub.public_state(&id, now));
                }
                Command::Positions { id, reply } => {
                    load_match(&mut hub, &store, &id, now).await;
                    let _ = reply.send(hub.positions(&id));
                }
                Command::Bpgn { id, reply } => {
                    let _ = reply.send(hub.bpgn(&id));
                }
            }
        }
        effects.extend(hub.apply(Input::Tick, now));
        execute(effects, &store, &senders, now).await;
        for (reply, id) in replies.drain(..) {
            let _ = reply.send(Ok(id));
        }
        hub.evict_finished();
    }
}

/// A `hello` for a match that is not in memory (finished and evicted, or unknown): load it from
/// the database so it can be watched and replayed.
async fn load_if_archived(hub: &mut Hub, store: &Store, text: &str, now: Duration) {
    if !text.contains("hello") {
        return;
    }
    if let Ok(bughouse_protocol::ClientMessage::Hello { match_id, .. }) = serde_json::from_str(text)
    {
        load_match(hub, store, &match_id, now).await;
    }
}

async fn load_match(hub: &mut Hub, store: &Store, id: &str, now: Duration) {
    if hub.has_match(id) || id.len() > 64 {
        return;
    }
    match store.load_match(id).await {
        Ok(Some(stored)) => {
            if let Err(e) = hub.restore(&stored, now) {
                tracing::error!(match_id = %id, "cannot load: {e}");
            }
        }
        Ok(None) => {}
        Err(e) => tracing::error!(match_id = %id, "cannot load: {e}"),
    }
}

async fn execute(
    effects: Vec<Effect>,
    store: &Store,
    senders: &HashMap<ConnId, mpsc::UnboundedSender<Outgoing>>,
    now: Duration,
) {
    // Stores first, in order: nothing is acknowledged before it is stored.
    let mut rest = Vec::with_capacity(effects.len());
    for effect in effects {
        match effect {
            Effect::Store(op) => {
                if let Err(e) = store_op(store, op, now).await {
                    tracing::error!("storage: {e}");
                }
            }
            other => rest.push(other),
        }
    }
    for effect in rest {
        match effect {
            Effect::Send(to, msg) => {
                let text: Arc<str> = match serde_json::to_string(&msg) {
                    Ok(t) => t.into(),
                    Err(e) => {
                        tracing::error!("cannot encode a message: {e}");
                        continue;
                    }
                };
                for conn in to {
                    if let Some(tx) = senders.get(&conn) {
                        let _ = tx.send(Outgoing::Text(text.clone()));
                    }
                }
            }
            Effect::Close(conn) => {
                if let Some(tx) = senders.get(&conn) {
                    let _ = tx.send(Outgoing::Close);
                }
            }
            Effect::Store(_) => {}
        }
    }
}

fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

fn i(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

async fn store_op(
    store: &Store,
    op: StoreOp,
    _now: Duration,
) -> Result<(), bughouse_store::StoreError> {
    match op {
        StoreOp::CreateMatch {
            id,
            preset,
            time_control,
            rematch_of,
        } => {
            let rules_json = serde_json::to_string(&preset.parse::<bughouse_core::Rules>().ok())
                .unwrap_or_else(|_| "null".into());
            store
                .create_match(&bughouse_store::NewMatch {
                    id,
                    rules_preset: preset,
                    rules_json,
                    base_ms: i(u64::try_from(time_control.base.as_millis()).unwrap_or(0)),
                    increment_ms: i(u64::try_from(time_control.increment.as_millis()).unwrap_or(0)),
                    created_at_ms: unix_ms(),
                    rematch_of,
                })
                .await
        }
        StoreOp::SetSeat {
            match_id,
            seat,
            name,
            token_hash,
            bot,
        } => {
            store
                .set_seat(&match_id, seat, &name, &token_hash, bot)
                .await
        }
        StoreOp::ClearSeat { match_id, seat } => store.clear_seat(&match_id, seat).await,
        StoreOp::Start { match_id } => store.start_match(&match_id, unix_ms()).await,
        StoreOp::Move {
            match_id,
            ply,
            seat,
            uci,
            san,
            at_ms,
            remaining_ms,
        } => {
            let mover = usize::from(seat).min(3);
            store
                .record_move(&bughouse_store::StoredMove {
                    match_id,
                    ply: i64::try_from(ply).unwrap_or(i64::MAX),
                    seat,
                    uci,
                    san,
                    at_ms: i(at_ms),
                    clock_ms: i(remaining_ms[mover]),
                    remaining_ms: remaining_ms.map(i),
                })
                .await
        }
        StoreOp::Event {
            match_id,
            seq,
            ply,
            seat,
            kind,
            detail,
            at_ms,
        } => {
            store
                .record_event(&bughouse_store::StoredEvent {
                    match_id,
                    seq: i64::try_from(seq).unwrap_or(i64::MAX),
                    ply: i64::try_from(ply).unwrap_or(i64::MAX),
                    seat,
                    kind,
                    detail,
                    at_ms: i(at_ms),
                })
                .await
        }
        StoreOp::Finish {
            match_id,
            result,
            bpgn,
        } => {
            store
                .finish_match(
                    &match_id,
                    &result.result,
                    &result.reason,
                    [&result.boards[0], &result.boards[1]],
                    &bpgn,
                    unix_ms(),
                )
                .await
        }
    }
}
