//! Several server nodes, one site: PostgreSQL for what is stored, Redis for who owns each match
//! (leases, `lease.rs`) and for what is relayed between nodes (each node's inbox channel,
//! `wire.rs`, `relay.rs`). A node runs the hub of the matches it owns; a client connected to
//! another node is a remote connection of the owner's hub, its frames relayed to the owner and
//! the owner's messages relayed back. Matches whose owner died are taken over (`takeover.rs`).
//! The design, bounds and failures: docs/cluster.md.

mod lease;
mod lobby;
mod place;
mod relay;
mod takeover;
mod wire;

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use redis::aio::ConnectionManager;
use tokio::sync::{mpsc, oneshot};

use crate::http::{App, Incoming};
use crate::hub::ConnId;
use crate::runtime::Command;

use wire::Wire;

/// Why a node cannot join the cluster.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// Redis cannot be reached or refused a command.
    #[error("redis: {0}")]
    Redis(#[from] redis::RedisError),
    /// A cluster stores in PostgreSQL: the nodes share it.
    #[error("--bus needs a PostgreSQL database (--database postgres://...): SQLite is one process's file")]
    NeedsPostgres,
    /// A node id with other characters than letters, digits, `-` and `_`, or empty or long.
    #[error("bad node id {0:?}: use 1 to 64 letters, digits, '-' or '_'")]
    BadNodeId(String),
    /// Another running node has this id (its node key is being renewed).
    #[error("node id {0:?} is in use by a running node: give each node its own --node-id")]
    NodeIdInUse(String),
}

/// Where a connection's frames go: this node's hub, or another node that owns the match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Route {
    /// This node owns the match (or nobody needs to: a finished or unknown one).
    Local,
    /// Another node owns it.
    Node(String),
}

/// This node's membership of the cluster (cheap to clone).
#[derive(Clone)]
pub(crate) struct Cluster(Arc<Inner>);

struct Inner {
    node: String,
    client: redis::Client,
    redis: ConnectionManager,
    /// Messages to the publisher task, which keeps their order.
    publish: mpsc::UnboundedSender<relay::Publish>,
    /// The matches whose lease this node holds.
    owned: Mutex<HashSet<String>>,
    /// Matches this node tried to take over and could not restore (the scan skips them).
    unrestorable: Mutex<HashSet<String>>,
    /// The last owner of each match being taken over, for its shard to read its heartbeat.
    previous: Mutex<HashMap<String, String>>,
    /// Origin side: this node's sockets relayed to an owner (the owner, the socket's queue).
    relays: Mutex<HashMap<ConnId, (String, crate::runtime::OutSender)>>,
    /// Owner side: the connections other nodes relay here, by (their node, their number).
    remotes: Mutex<HashMap<(String, ConnId), mpsc::UnboundedSender<Incoming>>>,
    /// "Play now" requests this node sent to owners, waiting for their answer, by number.
    placing: Mutex<HashMap<u64, oneshot::Sender<place::Answer>>>,
    /// The number of the next such request.
    next_request: AtomicU64,
    /// This node's id died less than a lease ago (a crash and a restart): the leases still in
    /// its name are taken back at once rather than left to lapse.
    restarted: bool,
    /// Those matches, found before this process created any (see [`Cluster::inherit`]), until
    /// taken back.
    inherited: Mutex<HashSet<String>>,
    /// This node id's last heartbeat before this process (Unix ms), from which the matches
    /// taken back resume.
    last_alive: OnceLock<Option<i64>>,
    /// The routes and tasks of this node, set once it serves.
    app: OnceLock<App>,
    stopping: AtomicBool,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A random node id (when none is given).
fn random_node_id() -> String {
    let mut bytes = [0u8; 6];
    let _ = getrandom::fill(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl Cluster {
    /// Joins the cluster on the bus at `url` as `node_id` (random if `None`): the Redis
    /// connections, the publisher task.
    ///
    /// # Errors
    ///
    /// A bad node id, or Redis cannot be reached.
    pub(crate) async fn connect(
        url: &str,
        node_id: Option<String>,
    ) -> Result<Cluster, ClusterError> {
        let node = node_id.unwrap_or_else(random_node_id);
        if node.is_empty()
            || node.len() > 64
            || !node
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(ClusterError::BadNodeId(node));
        }
        let client = redis::Client::open(url)?;
        let mut redis = client.get_connection_manager().await?;
        // A node key of this id: a node of this id died less than a lease ago (this node takes
        // its matches back at once), or one is running (refused). A running node renews it.
        let restarted = match lease::node_ttl(&mut redis, &node).await? {
            None => false,
            Some(first) => {
                let since = std::time::Instant::now();
                tokio::time::sleep(lease::RENEW_EVERY + std::time::Duration::from_millis(300))
                    .await;
                let waited = i64::try_from(since.elapsed().as_millis()).unwrap_or(i64::MAX);
                match lease::node_ttl(&mut redis, &node).await? {
                    // Lapsing more slowly than time passes: renewed meanwhile.
                    Some(second) if second > first - waited + 200 => {
                        return Err(ClusterError::NodeIdInUse(node));
                    }
                    _ => true,
                }
            }
        };
        if restarted {
            tracing::warn!(%node, "this node id died less than a lease ago: taking its matches back");
        }
        // Alive from now on (the renewal task keeps it so).
        lease::renew(&mut redis, &node, &[]).await?;
        let (publish, to_publish) = mpsc::unbounded_channel();
        tokio::spawn(relay::publisher(redis.clone(), to_publish));
        Ok(Cluster(Arc::new(Inner {
            node,
            client,
            redis,
            publish,
            owned: Mutex::default(),
            previous: Mutex::default(),
            unrestorable: Mutex::default(),
            relays: Mutex::default(),
            remotes: Mutex::default(),
            placing: Mutex::default(),
            next_request: AtomicU64::new(0),
            restarted,
            inherited: Mutex::default(),
            last_alive: OnceLock::new(),
            app: OnceLock::new(),
            stopping: AtomicBool::new(false),
        })))
    }

    /// This node's id.
    pub(crate) fn node(&self) -> &str {
        &self.0.node
    }

    /// Starts the node's cluster tasks as it begins to serve: its inbox (subscribed before this
    /// returns: other nodes relay to this one as soon as it answers, by the leases in its
    /// name), lease renewal, the search for matches nobody owns, the watch over the nodes it
    /// relays to and from.
    pub(crate) async fn start(&self, app: App) {
        let _ = self.0.app.set(app);
        let first = tokio::time::timeout(std::time::Duration::from_secs(5), relay::subscribe(self))
            .await
            .ok()
            .flatten();
        tokio::spawn(relay::inbox(self.clone(), first));
        tokio::spawn(takeover::renewals(self.clone()));
        tokio::spawn(takeover::scan(self.clone()));
        tokio::spawn(relay::watch(self.clone()));
        tokio::spawn(lobby::publish(self.clone()));
    }

    fn redis(&self) -> ConnectionManager {
        self.0.redis.clone()
    }

    fn app(&self) -> Option<&App> {
        self.0.app.get()
    }

    /// Whether this node holds the lease of a match.
    pub(crate) fn owns(&self, match_id: &str) -> bool {
        lock(&self.0.owned).contains(match_id)
    }

    /// Records this node id's last heartbeat before this process started (read before its own
    /// heartbeat starts).
    pub(crate) fn set_last_alive(&self, last_alive: Option<i64>) {
        let _ = self.0.last_alive.set(last_alive);
    }

    /// The last heartbeat of `node` if it is this node's id (this process's predecessor):
    /// `Some` with what was read at start, `None` for another node (read it from the store).
    pub(crate) fn own_last_alive(&self, node: &str) -> Option<Option<i64>> {
        (node == self.0.node).then(|| self.0.last_alive.get().copied().flatten())
    }

    /// The node that owned a match before this one took it over (taken once).
    pub(crate) fn previous_owner(&self, match_id: &str) -> Option<String> {
        lock(&self.0.previous)
            .remove(match_id)
            .filter(|p| !p.is_empty())
    }

    /// Takes the lease of a match this node has just created (its id is new: nobody holds it).
    pub(crate) async fn claim_new(&self, match_id: &str) {
        match lease::acquire(&mut self.redis(), &self.0.node, match_id).await {
            Ok(Some(_)) => {
                lock(&self.0.owned).insert(match_id.to_owned());
            }
            Ok(None) => tracing::error!(%match_id, "a new match's lease is held by another node"),
            // Another node will take the match over (it is stored); this one never renews it.
            Err(e) => tracing::error!(%match_id, "cannot take a new match's lease: {e}"),
        }
    }

    /// Gives up a match's lease (it ended and its end is stored: nobody needs to own it).
    pub(crate) fn release_later(&self, match_id: String) {
        lock(&self.0.owned).remove(&match_id);
        let cluster = self.clone();
        tokio::spawn(async move {
            if let Err(e) = lease::release(&mut cluster.redis(), &cluster.0.node, &match_id).await {
                tracing::warn!(%match_id, "cannot release the lease: {e}");
            }
        });
    }

    /// Where the frames of a connection that said hello to `match_id` go: to its owner; a match
    /// that nobody owns is taken over here if it is in progress (else read here).
    pub(crate) async fn route(&self, match_id: &str) -> Route {
        if self.owns(match_id) || match_id.len() > 64 {
            return Route::Local;
        }
        let ids = [match_id.to_owned()];
        for _ in 0..2 {
            match lease::holders(&mut self.redis(), &ids).await {
                Ok(h) => match h.into_iter().next().flatten() {
                    Some(owner) if owner == self.0.node => {
                        // In this node's name but not in its memory: its predecessor's.
                        takeover::take_back(self, match_id).await;
                        return Route::Local;
                    }
                    Some(owner) => return Route::Node(owner),
                    None => {
                        if takeover::take_over(self, match_id).await {
                            return Route::Local;
                        }
                    }
                },
                Err(e) => {
                    tracing::warn!(%match_id, "cannot read the lease: {e}");
                    return Route::Local;
                }
            }
        }
        Route::Local
    }

    /// A connection another node relays here says hello to `match_id`: if this process
    /// restarted under its node id and the match's lease is still in that name, it is taken
    /// back first (the other node routed the connection here by that lease).
    pub(crate) async fn reclaim(&self, match_id: &str) {
        if lock(&self.0.inherited).contains(match_id) {
            takeover::take_back(self, match_id).await;
        }
    }

    /// A node restarted under its id: finds the matches in progress whose lease is still in
    /// its name (its predecessor's), to take them back. Called before this process creates or
    /// takes any match, so that none of its own is mistaken for one.
    pub(crate) async fn inherit(&self, store: &bughouse_store::Store) {
        if !self.0.restarted {
            return;
        }
        let ids = match store.live_match_ids().await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::error!("cannot list the matches to take back (their leases lapse): {e}");
                return;
            }
        };
        match lease::holders(&mut self.redis(), &ids).await {
            Ok(holders) => {
                let mine: HashSet<String> = ids
                    .into_iter()
                    .zip(holders)
                    .filter(|(_, h)| h.as_deref() == Some(self.node()))
                    .map(|(id, _)| id)
                    .collect();
                tracing::info!(matches = mine.len(), "matches of this node id to take back");
                *lock(&self.0.inherited) = mine;
            }
            Err(e) => {
                tracing::error!("cannot read the leases to take back (they lapse): {e}");
            }
        }
    }

    /// Sends a message to a node's inbox.
    fn send(&self, node: &str, wire: &Wire) {
        let _ = self.0.publish.send(relay::Publish::Message(
            lease::inbox_channel(node),
            wire.encode(),
        ));
    }

    /// A socket of this node starts being relayed to `owner`.
    pub(crate) fn relay_open(
        &self,
        owner: &str,
        conn: ConnId,
        out: crate::runtime::OutSender,
        account: Option<(i64, String)>,
    ) {
        lock(&self.0.relays).insert(conn, (owner.to_owned(), out));
        self.send(
            owner,
            &Wire::Open {
                from: self.0.node.clone(),
                conn,
                account,
            },
        );
    }

    /// A relayed socket's text frame, to its owner.
    pub(crate) fn relay_frame(&self, owner: &str, conn: ConnId, text: &str) {
        self.send(
            owner,
            &Wire::Frame {
                from: self.0.node.clone(),
                conn,
                text: text.to_owned(),
            },
        );
    }

    /// A relayed socket sent a binary frame.
    pub(crate) fn relay_binary(&self, owner: &str, conn: ConnId) {
        self.send(
            owner,
            &Wire::Binary {
                from: self.0.node.clone(),
                conn,
            },
        );
    }

    /// A relayed socket's round trip.
    pub(crate) fn relay_rtt(&self, owner: &str, conn: ConnId, rtt: std::time::Duration) {
        self.send(
            owner,
            &Wire::Rtt {
                from: self.0.node.clone(),
                conn,
                micros: u64::try_from(rtt.as_micros()).unwrap_or(u64::MAX),
            },
        );
    }

    /// A relayed socket leaves its owner (it closed, or said hello to a match owned elsewhere).
    pub(crate) fn relay_close(&self, owner: &str, conn: ConnId) {
        lock(&self.0.relays).remove(&conn);
        self.send(
            owner,
            &Wire::Close {
                from: self.0.node.clone(),
                conn,
            },
        );
    }

    /// Stops this node politely: its hubs store what they applied and stop, its leases are
    /// released (so other nodes take its matches over at once), the sockets relayed to it are
    /// closed (their clients reconnect), and it leaves the cluster.
    pub(crate) async fn shutdown(&self) {
        self.0.stopping.store(true, Ordering::SeqCst);
        if let Some(app) = self.app() {
            for i in 0..app.shards.count() {
                let _ =
                    crate::runtime::ask(app.shards.at(i), |reply| Command::Stop { reply }).await;
            }
        }
        let owned: Vec<String> = lock(&self.0.owned).drain().collect();
        let mut redis = self.redis();
        for id in &owned {
            if let Err(e) = lease::release(&mut redis, &self.0.node, id).await {
                tracing::warn!(match_id = %id, "cannot release the lease: {e}");
            }
        }
        let remotes: Vec<(String, ConnId)> =
            lock(&self.0.remotes).drain().map(|(k, _)| k).collect();
        for (origin, conn) in remotes {
            self.send(&origin, &Wire::Shut { conn });
        }
        let _: redis::RedisResult<i64> = redis::cmd("DEL")
            .arg(lease::node_key(&self.0.node))
            .query_async(&mut redis)
            .await;
        relay::flush(&self.0.publish).await;
        tracing::info!(released = owned.len(), "left the cluster");
    }

    fn stopping(&self) -> bool {
        self.0.stopping.load(Ordering::SeqCst)
    }
}
