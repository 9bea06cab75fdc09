//! Starting the server: the database opened, the matches in progress restored from the last
//! heartbeat, the runtime's tasks (hub, committer, sender, heartbeat, checkpoints) spawned, the
//! routes served.

use std::net::SocketAddr;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::serve::ListenerExt;
use bughouse_store::{Backend, Store};
use tokio::net::TcpListener;
use tokio::sync::mpsc;

use crate::bots::BotRunner;
use crate::cluster::Cluster;
use crate::http::auth::{sweep_sessions, Accounts, AccountsConfig};
use crate::http::App;
use crate::hub::{shard_of, Effect, Hub, Input};
use crate::runtime::{hub_task, lobby_feed, HubHandle, Inbox, Lobby, Shards, Writer};
use crate::tournaments;
use crate::{Config, ServerError};

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
    let cluster = match &config.bus {
        Some(bus) => {
            if !config.database.starts_with("postgres") {
                return Err(crate::cluster::ClusterError::NeedsPostgres.into());
            }
            Some(Cluster::connect(bus, config.node_id.clone()).await?)
        }
        None => None,
    };
    let store = Store::connect(&config.database).await?;
    tracing::info!(
        addr = %listener.local_addr()?,
        database = %config.database,
        node = cluster.as_ref().map(Cluster::node),
        "serving"
    );
    serve(listener, store, cluster).await
}

/// Starts a server on an already bound listener in the background (tests use port 0).
///
/// # Errors
///
/// The database cannot be opened.
pub async fn serve_on(listener: TcpListener, database: &str) -> Result<Server, ServerError> {
    let store = Store::connect(database).await?;
    let addr = listener.local_addr()?;
    let task = tokio::spawn(serve(listener, store, None));
    Ok(Server { addr, task })
}

pub(crate) async fn serve(
    listener: TcpListener,
    store: Store,
    cluster: Option<Cluster>,
) -> Result<(), ServerError> {
    let started = Instant::now();
    let clock = ServerClock {
        started,
        unix_ms: unix_ms(),
    };
    let count = shard_count();
    let mut hubs = Vec::with_capacity(count);
    for index in 0..count {
        let mut seed = [0u8; 32];
        getrandom::fill(&mut seed).map_err(|e| std::io::Error::other(e.to_string()))?;
        hubs.push(Hub::shard(seed, index, count).with_unix_zero(clock.unix_ms));
    }
    // Matches that were in progress when the server stopped go on, each from the moment the
    // server was last alive, on the shard of its id. (In a cluster, the matches that nobody
    // owns are taken over one by one by the nodes, see `cluster`.)
    let node = cluster
        .as_ref()
        .map_or(NODE.to_owned(), |c| c.node().to_owned());
    let last_alive = store.last_alive(&node).await?;
    if let Some(cluster) = &cluster {
        cluster.set_last_alive(last_alive);
        // Before any match of this process exists.
        cluster.inherit(&store).await;
    }
    let mut anchors = Vec::new();
    let to_restore = if cluster.is_some() {
        Vec::new()
    } else {
        store.live_matches().await?
    };
    for stored in to_restore {
        let alive_at = clock.alive_at(last_alive, stored.clock_anchor_ms);
        let hub = &mut hubs[shard_of(&stored.id, count)];
        match hub.restore(&stored, started.elapsed(), alive_at) {
            Ok(fx) => anchors.extend(fx.into_iter().filter_map(|e| match e {
                Effect::Store(write) => Some(write),
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
    rate_unrated(&store).await;
    tokio::spawn(heartbeat(store.clone(), node, clock));
    let mut inboxes = Vec::with_capacity(count);
    let mut tasks = Vec::with_capacity(count);
    let lobby_flags = hubs.iter().map(Hub::lobby_flag).collect();
    for hub in hubs {
        let (tx, rx) = mpsc::channel(4096);
        inboxes.push(tx.clone());
        tasks.push((hub, tx, rx));
    }
    // Bot answers come back to their match's hub as inputs; the bots of all shards share the
    // cores.
    let (bot_tx, mut bot_rx) = mpsc::channel::<Input>(1024);
    let bots = BotRunner::new(bot_tx);
    let (finished_tx, finished_rx) = mpsc::unbounded_channel();
    // The shards' writes: through one writer task on SQLite, directly on PostgreSQL.
    let writer = Writer::new(&store);
    let mut homes = Vec::with_capacity(count);
    for (index, (hub, tx, rx)) in tasks.into_iter().enumerate() {
        let inbox = Inbox {
            tx: tx.downgrade(),
            rx,
            finished: finished_tx.clone(),
        };
        // On SQLite each shard on a thread of its own (its committer and sender with it). On
        // PostgreSQL (and in a cluster, which needs it), on the server's runtime: the
        // connections to PostgreSQL and Redis a shard opened would live on its thread's
        // runtime, and every other task's I/O on them would wait for that thread.
        let shard = hub_task(
            hub,
            inbox,
            store.clone(),
            writer.clone(),
            clock,
            bots.clone(),
            cluster.clone(),
        );
        homes.push(if store.backend() == Backend::Sqlite {
            crate::runtime::spawn_on_own_thread(&format!("shard-{index}"), shard)
        } else {
            tokio::spawn(shard);
            None
        });
    }
    let shards = Shards::new(inboxes, homes);
    let to_hubs = shards.clone();
    tokio::spawn(async move {
        while let Some(input) = bot_rx.recv().await {
            if !to_hubs.bot(input).await {
                return;
            }
        }
    });
    tokio::spawn(checkpoints(store.clone()));
    let hub_handle = HubHandle {
        shards: shards.clone(),
        store: store.clone(),
    };
    let tournaments =
        Arc::new(tournaments::Service::load(store.clone(), hub_handle, cluster.is_some()).await?);
    tokio::spawn(tournaments::results_task(tournaments.clone(), finished_rx));
    if cluster.is_some() {
        tokio::spawn(tournaments::sweep_task(tournaments.clone()));
    }
    let accounts = Arc::new(Accounts::new(store.clone(), AccountsConfig::from_env()));
    tokio::spawn(sweep_sessions(store.clone()));
    let lobby = Arc::new(
        Lobby::new(shards.clone(), lobby_flags, store.clone()).in_cluster(cluster.clone()),
    );
    tokio::spawn(lobby_feed(lobby.clone()));
    let app = App {
        shards,
        store,
        next_conn: Arc::new(AtomicU64::new(1)),
        started,
        cluster: cluster.clone(),
    };
    if let Some(cluster) = &cluster {
        cluster.start(app.clone()).await;
    }
    let router = crate::http::router(app, tournaments, accounts, lobby);
    // Moves are small messages that must leave at once: no Nagle delay.
    let listener = listener.tap_io(|tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!("TCP_NODELAY: {e}");
        }
    });
    // The peer's address: the log-in limit counts failures per client address.
    let serving = axum::serve(
        listener,
        router.into_make_service_with_connect_info::<SocketAddr>(),
    );
    let Some(cluster) = cluster else {
        serving.await?;
        return Ok(());
    };
    // A node of a cluster stopped politely (SIGTERM, ctrl-c) hands its matches over at once:
    // its last batches stored, its leases released.
    tokio::select! {
        served = serving => served?,
        () = stop_signal() => {
            tracing::info!("stopping: handing the matches over");
            cluster.shutdown().await;
        }
    }
    Ok(())
}

/// SIGTERM or ctrl-c.
async fn stop_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut term) => {
                term.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}

/// The number of hub shards: `BUGHOUSE_SHARDS` if set, else one per core.
fn shard_count() -> usize {
    std::env::var("BUGHOUSE_SHARDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|n: &usize| (1..=256).contains(n))
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
}

/// Rates the finished rated matches whose ratings were not applied: the server stopped after
/// storing a match's end and before rating it. (Rating is idempotent: a match rated meanwhile
/// is refused as rated already.)
async fn rate_unrated(store: &Store) {
    let ids = match store.unrated_matches().await {
        Ok(ids) => ids,
        Err(e) => {
            tracing::error!("cannot list the unrated matches: {e}");
            return;
        }
    };
    let config = bughouse_store::rating::Config::default();
    for id in ids {
        let request = match store.load_match(&id).await {
            Ok(Some(stored)) => crate::hub::rate_request_of_stored(&stored),
            Ok(None) => None,
            Err(e) => {
                tracing::error!(match_id = %id, "cannot load: {e}");
                continue;
            }
        };
        let Some(request) = request else {
            tracing::warn!(match_id = %id, "a rated match that cannot be rated");
            continue;
        };
        match store.rate_seats(&request.seats, &config).await {
            Ok(_) => tracing::info!(match_id = %id, "ratings applied at start"),
            Err(e) => tracing::error!(match_id = %id, "the ratings were not applied: {e}"),
        }
    }
}

/// Where server time (the hub's `now`) stands against Unix time.
#[derive(Clone, Copy)]
pub(crate) struct ServerClock {
    /// Server time 0.
    pub(crate) started: Instant,
    /// Unix milliseconds at server time 0.
    pub(crate) unix_ms: i64,
}

impl ServerClock {
    /// Now, as Unix milliseconds on the server's time line: server time 0 plus the monotonic
    /// time since (the hub's `now` read as Unix time, as the clock anchors are).
    pub(crate) fn unix_now(&self) -> i64 {
        let since = i64::try_from(self.started.elapsed().as_millis()).unwrap_or(i64::MAX);
        self.unix_ms.saturating_add(since)
    }

    /// The match time at which the server was last alive: its last heartbeat against the
    /// match's clock anchor (Unix milliseconds of match time 0).
    pub(crate) fn alive_at(
        &self,
        last_alive: Option<i64>,
        anchor: Option<i64>,
    ) -> Option<Duration> {
        let since_zero = last_alive? - anchor?;
        Some(Duration::from_millis(u64::try_from(since_zero).ok()?))
    }
}

/// The name under which a single server writes its heartbeat (a node of a cluster writes its
/// node id).
pub(crate) const NODE: &str = "local";

/// How often the server records that it is alive (the bound on the clock error after a crash,
/// see `docs/protocol.md`).
pub(crate) const HEARTBEAT_EVERY: Duration = Duration::from_secs(1);

/// Records every [`HEARTBEAT_EVERY`] that the server is alive, as long as it runs, in the
/// server's own time ([`ServerClock::unix_now`]), the time line of the clock anchors and the
/// moves' times: a step of the system clock while the server runs (NTP, a virtual machine
/// paused and resumed) would otherwise move the heartbeat against them, and after a crash the
/// players to move would be charged the step (a `.ci/run` on 3 December charged 14.4 s for
/// 2.5 s of thinking after the machine was paused).
pub(crate) async fn heartbeat(store: Store, node: String, clock: ServerClock) {
    let mut every = tokio::time::interval(HEARTBEAT_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        if let Err(e) = store.heartbeat(&node, clock.unix_now()).await {
            tracing::warn!("heartbeat: {e}");
        }
    }
}

/// How often the SQLite log is copied into the database file in the background.
pub(crate) const CHECKPOINT_EVERY: Duration = Duration::from_millis(50);

/// Keeps SQLite's checkpoints off the commits' path (see [`Store::checkpoint`]), as long as the
/// server runs.
pub(crate) async fn checkpoints(store: Store) {
    if store.backend() != Backend::Sqlite {
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

/// The SHA-256 of a text, in hex: what the store keeps of a secret (session tokens, organisers'
/// and tables' keys).
pub(crate) fn sha256_hex(text: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Unix time now, in milliseconds.
pub fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}
