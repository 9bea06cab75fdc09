//! The HTTP routes and the websocket adapter onto the [`Hub`].
//!
//! One task owns the hub. Websocket readers send it commands through a channel; it applies a
//! batch of them and hands the effects to the committer task, which executes the store effects
//! in order (batches that queued up meanwhile in one transaction), and then to the sender task,
//! which serialises and sends the messages, so every accepted move is stored before it is
//! acknowledged. The three work side by side: the hub goes on with the next batch while the
//! committer waits for the database and the sender sends the batch stored before. The hub also
//! wakes for flag falls.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::serve::ListenerExt;
use axum::{Json, Router};
use bughouse_core::{Preset, Rules};
use bughouse_protocol::{
    CreateMatch, CreatedMatch, MatchState, PresetInfo, RuleField, RulesCatalog, MAX_CLIENT_MESSAGE,
};
use bughouse_store::Store;
use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpListener;
use tokio::sync::{mpsc, oneshot};

use crate::api_error::ApiError;
use crate::bots::BotRunner;
use crate::hub::{ConnId, Effect, Hub, Input, StoreOp};
use crate::persist::{store_write, unix_ms};
use crate::tournaments::{self, Finished};
use crate::{Config, ServerError};

/// The name under which this server writes its heartbeat (one node for now).
const NODE: &str = "local";

/// How often the server records that it is alive (the bound on the clock error after a crash,
/// see `docs/protocol.md`).
const HEARTBEAT_EVERY: Duration = Duration::from_secs(1);

/// How often the server pings each websocket to measure its round trip.
const PING_EVERY: Duration = Duration::from_secs(5);

/// The initial read buffer of a websocket, in bytes (client messages are at most 4096).
const WS_READ_BUFFER: usize = 4096;

/// The most commands the hub applies before it hands their effects to the committer.
const BATCH: usize = 512;

/// The most batches waiting for the committer (the hub waits beyond); they are stored together.
const COMMIT_QUEUE: usize = 64;

enum Outgoing {
    /// Shared by every recipient of the message (serialised once).
    Text(Utf8Bytes),
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

/// What other parts of the server (the tournaments) may ask of the hub task.
#[derive(Clone)]
pub(crate) struct HubHandle {
    tx: mpsc::Sender<Command>,
    store: Store,
}

impl HubHandle {
    /// Creates a match; its id once it is stored.
    pub(crate) async fn create_match(
        &self,
        rules: &str,
        time_control: &str,
    ) -> Result<String, String> {
        let (reply, answer) = oneshot::channel();
        let request = CreateMatch {
            rules: rules.to_owned(),
            time_control: time_control.to_owned(),
            custom: Default::default(),
        };
        if self
            .tx
            .send(Command::Create { request, reply })
            .await
            .is_err()
        {
            return Err("server is stopping".to_owned());
        }
        answer
            .await
            .unwrap_or_else(|_| Err("server is stopping".to_owned()))
    }

    /// A match's record as BPGN: the record so far of a match in memory, else the archive's.
    pub(crate) async fn bpgn(
        &self,
        id: &str,
    ) -> Result<Option<String>, bughouse_store::StoreError> {
        let (reply, answer) = oneshot::channel();
        let _ = self
            .tx
            .send(Command::Bpgn {
                id: id.to_owned(),
                reply,
            })
            .await;
        match answer.await {
            Ok(Some(text)) => Ok(Some(text)),
            _ => self.store.bpgn(id).await,
        }
    }
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
    let clock = ServerClock {
        started,
        unix_ms: unix_ms(),
    };
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed).map_err(|e| std::io::Error::other(e.to_string()))?;
    let mut hub = Hub::new(seed);
    // Matches that were in progress when the server stopped go on, each from the moment the
    // server was last alive.
    let last_alive = store.last_alive(NODE).await?;
    let mut anchors = Vec::new();
    for stored in store.live_matches().await? {
        let alive_at = clock.alive_at(last_alive, stored.clock_anchor_ms);
        match hub.restore(&stored, started.elapsed(), alive_at) {
            Ok(fx) => anchors.extend(fx.into_iter().filter_map(|e| match e {
                Effect::Store(op) => Some(store_write(op, clock.unix_ms)),
                _ => None,
            })),
            Err(e) => tracing::error!(match_id = %stored.id, "cannot restore: {e}"),
        }
    }
    for result in store.apply_batch(&anchors).await {
        if let Err(e) = result {
            tracing::error!("storage: {e}");
        }
    }
    tokio::spawn(heartbeat(store.clone()));
    let (tx, rx) = mpsc::channel(4096);
    // Bot answers come back to the hub as inputs.
    let (bot_tx, mut bot_rx) = mpsc::channel::<Input>(1024);
    let to_hub = tx.clone();
    tokio::spawn(async move {
        while let Some(input) = bot_rx.recv().await {
            if to_hub.send(Command::Input(input)).await.is_err() {
                return;
            }
        }
    });
    let bots = BotRunner::new(bot_tx);
    let (finished_tx, finished_rx) = mpsc::unbounded_channel();
    tokio::spawn(hub_task(hub, rx, store.clone(), clock, bots, finished_tx));
    tokio::spawn(checkpoints(store.clone()));
    let hub_handle = HubHandle {
        tx: tx.clone(),
        store: store.clone(),
    };
    let tournaments = Arc::new(tournaments::Service::load(store.clone(), hub_handle).await?);
    tokio::spawn(tournaments::results_task(tournaments.clone(), finished_rx));
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
        .route("/api/rules", get(rules_catalog))
        .route("/ws", get(websocket))
        .with_state(app)
        .merge(tournaments::router(tournaments))
        .fallback(no_route)
        .method_not_allowed_fallback(no_method);
    // Moves are small messages that must leave at once: no Nagle delay.
    let listener = listener.tap_io(|tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!("TCP_NODELAY: {e}");
        }
    });
    axum::serve(listener, router).await?;
    Ok(())
}

/// Where server time (the hub's `now`) stands against Unix time.
#[derive(Clone, Copy)]
struct ServerClock {
    /// Server time 0.
    started: Instant,
    /// Unix milliseconds at server time 0.
    unix_ms: i64,
}

impl ServerClock {
    /// The match time at which the server was last alive: its last heartbeat against the
    /// match's clock anchor (Unix milliseconds of match time 0).
    fn alive_at(&self, last_alive: Option<i64>, anchor: Option<i64>) -> Option<Duration> {
        let since_zero = last_alive? - anchor?;
        Some(Duration::from_millis(u64::try_from(since_zero).ok()?))
    }
}

/// Records every [`HEARTBEAT_EVERY`] that the server is alive, as long as it runs.
async fn heartbeat(store: Store) {
    let mut every = tokio::time::interval(HEARTBEAT_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        if let Err(e) = store.heartbeat(NODE, unix_ms()).await {
            tracing::warn!("heartbeat: {e}");
        }
    }
}

/// How often the SQLite log is copied into the database file in the background.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(50);

/// Keeps SQLite's checkpoints off the commits' path (see [`Store::checkpoint`]), as long as the
/// server runs.
async fn checkpoints(store: Store) {
    if store.backend() != bughouse_store::Backend::Sqlite {
        return;
    }
    let mut every = tokio::time::interval(CHECKPOINT_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        if let Err(e) = store.checkpoint().await {
            tracing::debug!("checkpoint: {e}");
        }
    }
}

async fn no_route(uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "not_found",
        format!("no such page: {}", uri.path()),
    )
}

async fn no_method(method: axum::http::Method, uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "invalid",
        format!("{method} is not allowed on {}", uri.path()),
    )
}

async fn index() -> Response {
    crate::assets::file("index.html")
}

async fn asset(Path(path): Path<String>) -> Response {
    crate::assets::file(&format!("assets/{path}"))
}

async fn create(
    State(app): State<App>,
    body: Result<Json<CreateMatch>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(request) = body.map_err(|e| {
        ApiError::bad(format!(
            "expected JSON {{\"rules\": \"fide\", \"time_control\": \"5+0\"}}: {}",
            e.body_text()
        ))
    })?;
    let (reply, answer) = oneshot::channel();
    if app
        .tx
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
        Ok(Err(e)) => Err(ApiError::bad(e)),
        Err(_) => Err(ApiError::unavailable()),
    }
}

/// `GET /api/rules`: the presets and what each rule field takes.
async fn rules_catalog() -> Json<RulesCatalog> {
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

async fn state(State(app): State<App>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let (reply, answer) = oneshot::channel();
    let _ = app.tx.send(Command::State { id, reply }).await;
    match answer.await {
        Ok(Some(state)) => Ok(Json(state).into_response()),
        _ => Err(ApiError::no_match()),
    }
}

async fn positions(State(app): State<App>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let (reply, answer) = oneshot::channel();
    let _ = app.tx.send(Command::Positions { id, reply }).await;
    match answer.await {
        Ok(Some(p)) => Ok(Json(p).into_response()),
        _ => Err(ApiError::no_match()),
    }
}

async fn bpgn(State(app): State<App>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let hub = HubHandle {
        tx: app.tx.clone(),
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
const ARCHIVE_PAGE_MAX: i64 = 500;

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Page {
    limit: Option<i64>,
    offset: Option<i64>,
}

async fn archive(
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

async fn websocket(State(app): State<App>, ws: WebSocketUpgrade) -> Response {
    // Frames up to 16 times the protocol limit are read so that the hub can answer a too large
    // message with an error; anything larger closes the connection.
    // The read buffer is allocated (and zeroed) per connection: 4 KiB instead of the default
    // 128 KiB keeps thousands of connections small; larger frames still grow it as needed.
    ws.max_message_size(MAX_CLIENT_MESSAGE * 16)
        .read_buffer_size(WS_READ_BUFFER)
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
        while let Some(first) = out_rx.recv().await {
            // Whatever is queued by now goes out together, with one flush.
            let mut next = Some(first);
            while let Some(out) = next {
                let fed = match out {
                    Outgoing::Text(text) => sink.feed(Message::Text(text)).await,
                    Outgoing::Ping(payload) => sink.feed(Message::Ping(payload.into())).await,
                    Outgoing::Close => {
                        let _ = sink.close().await;
                        return;
                    }
                };
                if fed.is_err() {
                    return;
                }
                next = out_rx.try_recv().ok();
            }
            if sink.flush().await.is_err() {
                return;
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

async fn hub_task(
    mut hub: Hub,
    mut rx: mpsc::Receiver<Command>,
    store: Store,
    clock: ServerClock,
    bots: BotRunner,
    finished: mpsc::UnboundedSender<Finished>,
) {
    let started = clock.started;
    let (commit_tx, commit_rx) = mpsc::channel(COMMIT_QUEUE);
    tokio::spawn(committer(commit_rx, store.clone(), clock, finished));
    let mut batch = Vec::with_capacity(BATCH);
    loop {
        // Wake for the next flag fall (its deadline includes the grace for lag).
        let wake = hub.next_deadline().map(|t| t + Duration::from_millis(1));
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
        let mut commit = Commit::default();
        for command in batch.drain(..) {
            match command {
                Command::Connect(conn, tx) => {
                    commit.conns.push((conn, Some(tx)));
                    commit
                        .effects
                        .extend(hub.apply(Input::Connected(conn), now));
                }
                Command::Disconnect(conn) => {
                    commit.conns.push((conn, None));
                    commit
                        .effects
                        .extend(hub.apply(Input::Disconnected(conn), now));
                }
                Command::Input(input) => {
                    if let Input::Text(_, text) = &input {
                        let fx = load_if_archived(&mut hub, &store, &commit_tx, text, now).await;
                        commit.effects.extend(fx);
                    }
                    commit.effects.extend(hub.apply(input, now));
                }
                Command::Rtt(conn, rtt) => hub.observe_rtt(conn, rtt),
                Command::Create { request, reply } => {
                    match hub.create_custom(
                        &request.rules,
                        &request.custom,
                        &request.time_control,
                        now,
                    ) {
                        Ok((id, fx)) => {
                            commit.effects.extend(fx);
                            // The match exists once it is stored: answer after the stores.
                            commit.after.push(Box::new(move || {
                                let _ = reply.send(Ok(id));
                            }));
                        }
                        Err(e) => {
                            let _ = reply.send(Err(e.to_string()));
                        }
                    }
                }
                Command::State { id, reply } => {
                    let fx = load_match(&mut hub, &store, &commit_tx, &id, now).await;
                    commit.effects.extend(fx);
                    let _ = reply.send(hub.public_state(&id, now));
                }
                Command::Positions { id, reply } => {
                    let fx = load_match(&mut hub, &store, &commit_tx, &id, now).await;
                    commit.effects.extend(fx);
                    let _ = reply.send(hub.positions(&id));
                }
                Command::Bpgn { id, reply } => match hub.bpgn(&id) {
                    Some(text) => {
                        let _ = reply.send(Some(text));
                    }
                    // Not in memory: the caller reads the archive, once what the hub handed
                    // the committer (the end of that match, say) is stored.
                    None => commit.after.push(Box::new(move || {
                        let _ = reply.send(None);
                    })),
                },
            }
        }
        commit.effects.extend(hub.apply(Input::Tick, now));
        // Bot turns go to the bot runner; a finished match's bots are freed.
        for effect in std::mem::take(&mut commit.effects) {
            match effect {
                Effect::BotTurn(turn) => bots.turn(turn),
                other => {
                    if let Effect::Store(StoreOp::Finish { match_id, .. }) = &other {
                        bots.forget(match_id);
                    }
                    commit.effects.push(other);
                }
            }
        }
        if commit_tx.send(commit).await.is_err() {
            return;
        }
        hub.evict_finished();
    }
}

/// What the hub task hands the committer (and the committer the sender) for one batch of
/// commands.
#[derive(Default)]
struct Commit {
    /// Connections opened (with their outgoing queue) and closed, in order.
    conns: Vec<(ConnId, Option<mpsc::UnboundedSender<Outgoing>>)>,
    /// The hub's effects, in order (without the store effects, once stored).
    effects: Vec<Effect>,
    /// To run once the batch's writes are stored and its messages sent (answers).
    after: Vec<Box<dyn FnOnce() + Send>>,
}

/// Stores the batches of the hub task in order, then hands them to the sender task. While it
/// waits for the database the hub goes on with the next commands; the batches that queue up
/// meanwhile are stored together in one transaction (one commit, one `fsync`), and their
/// messages sent after it, so nothing is acknowledged before it is stored. Matches that ended
/// are reported to `finished` once stored (the tournaments enter their results).
async fn committer(
    mut rx: mpsc::Receiver<Commit>,
    store: Store,
    clock: ServerClock,
    finished: mpsc::UnboundedSender<Finished>,
) {
    let (send_tx, send_rx) = mpsc::channel::<Vec<Commit>>(COMMIT_QUEUE);
    tokio::spawn(sender(send_rx));
    let mut queued = Vec::with_capacity(COMMIT_QUEUE);
    while rx.recv_many(&mut queued, COMMIT_QUEUE).await > 0 {
        let mut writes = Vec::new();
        let mut ended = Vec::new();
        for commit in &mut queued {
            let mut others = Vec::with_capacity(commit.effects.len());
            for effect in commit.effects.drain(..) {
                match effect {
                    Effect::Store(op) => {
                        if let StoreOp::Finish {
                            match_id, result, ..
                        } = &op
                        {
                            ended.push((match_id.clone(), result.boards.clone()));
                        }
                        writes.push(store_write(op, clock.unix_ms));
                    }
                    other => others.push(other),
                }
            }
            commit.effects = others;
        }
        if !writes.is_empty() {
            for result in store.apply_batch(&writes).await {
                if let Err(e) = result {
                    tracing::error!("storage: {e}");
                }
            }
        }
        for end in ended {
            let _ = finished.send(end);
        }
        // Stored: the messages may go, while the next batches are stored.
        let stored = std::mem::replace(&mut queued, Vec::with_capacity(COMMIT_QUEUE));
        if send_tx.send(stored).await.is_err() {
            return;
        }
    }
}

/// Sends the messages of stored batches, in order, and runs what waited for them.
async fn sender(mut rx: mpsc::Receiver<Vec<Commit>>) {
    let mut senders: HashMap<ConnId, mpsc::UnboundedSender<Outgoing>> = HashMap::new();
    while let Some(commits) = rx.recv().await {
        for commit in commits {
            for (conn, tx) in commit.conns {
                match tx {
                    Some(tx) => {
                        senders.insert(conn, tx);
                    }
                    None => {
                        senders.remove(&conn);
                    }
                }
            }
            send(commit.effects, &senders);
            for after in commit.after {
                after();
            }
        }
    }
}

/// Waits until everything handed to the committer so far is stored (and sent).
async fn stored(commit_tx: &mpsc::Sender<Commit>) {
    let (done, wait) = oneshot::channel();
    let barrier = Commit {
        after: vec![Box::new(move || {
            let _ = done.send(());
        })],
        ..Commit::default()
    };
    if commit_tx.send(barrier).await.is_ok() {
        let _ = wait.await;
    }
}

/// A `hello` for a match that is not in memory (finished and evicted, or unknown): load it from
/// the database so it can be watched and replayed.
async fn load_if_archived(
    hub: &mut Hub,
    store: &Store,
    commit_tx: &mpsc::Sender<Commit>,
    text: &str,
    now: Duration,
) -> Vec<Effect> {
    if !text.contains("hello") {
        return Vec::new();
    }
    match serde_json::from_str(text) {
        Ok(bughouse_protocol::ClientMessage::Hello { match_id, .. }) => {
            load_match(hub, store, commit_tx, &match_id, now).await
        }
        _ => Vec::new(),
    }
}

/// Loads a match that is not in memory (finished and evicted) from the store; the effects of
/// its restore.
async fn load_match(
    hub: &mut Hub,
    store: &Store,
    commit_tx: &mpsc::Sender<Commit>,
    id: &str,
    now: Duration,
) -> Vec<Effect> {
    if hub.has_match(id) || id.len() > 64 {
        return Vec::new();
    }
    // The database must first have what the hub handed over (the end of an evicted match).
    stored(commit_tx).await;
    match store.load_match(id).await {
        // Only a finished match can be missing from memory while the server runs: it is not
        // running anywhere, so it resumes (were it not finished) from its last record.
        Ok(Some(stored)) => match hub.restore(&stored, now, None) {
            Ok(fx) => fx,
            Err(e) => {
                tracing::error!(match_id = %id, "cannot load: {e}");
                Vec::new()
            }
        },
        Ok(None) => Vec::new(),
        Err(e) => {
            tracing::error!(match_id = %id, "cannot load: {e}");
            Vec::new()
        }
    }
}

/// Sends the messages (each serialised once) and closes.
fn send(effects: Vec<Effect>, senders: &HashMap<ConnId, mpsc::UnboundedSender<Outgoing>>) {
    for effect in effects {
        match effect {
            Effect::Send(to, msg) => {
                let text: Utf8Bytes = match serde_json::to_string(&msg) {
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
            Effect::Store(_) | Effect::BotTurn(_) => {}
        }
    }
}
