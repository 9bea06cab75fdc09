//! Tournaments in the browser: the service behind `/api/tournaments` (routes in
//! `crate::http::tournaments`) on top of `bughouse_tournament`, with rounds that can create
//! their matches on the server and collect their results.
//!
//! The [`Service`] keeps every tournament in memory behind one lock and writes each change to
//! the store (the library's JSON, rewritten whole) before it takes effect, so a tournament
//! survives a restart. A change is made on a copy, stored, then swapped in: a refused or failed
//! change leaves nothing behind.
//!
//! Authority: creating a tournament answers with an organiser secret; the store keeps only its
//! SHA-256. Every organiser request carries it (the routes read it from
//! `Authorization: Bearer SECRET`). Reading needs none.
//!
//! Server matches: pairing a round with `online` creates one match per pairing (the preset's
//! rules, the tournament's time control) and links it to its round and table. When such a
//! match ends, the sender (see `crate::runtime`) reports its two board results and
//! [`Service::match_finished`] enters them as the pairing's result, unless the organiser has
//! entered one by hand already (a hand entry always wins; it can correct an automatic one).
//!
//! Several nodes (a cluster, docs/cluster.md): PostgreSQL is the one truth. Each request reads
//! the tournament's version (`updated_at_ms`) and reads the tournament again when another node
//! changed it; each change holds the database's lock on the tournament
//! ([`bughouse_store::Store::exclusive`]) from reading to storing, and stores only over the
//! version it read, so two nodes never both pair a round or enter over each other. A finished
//! match's pairing is found in the store, so whichever node ran its end enters its result.
//!
//! Files: this one the state, loading and storing; `ops` what the organiser and readers ask;
//! `view` the tournament as the API shows it ([`bughouse_protocol::tournament`]); `wire` the
//! protocol's names for the library's values.

mod ops;
mod otb;
mod view;
mod wire;

use std::collections::{BTreeMap, HashMap};

use bughouse_core::TimeControl;
use bughouse_store::{Exclusive, Store, StoreError, StoredTournament, TournamentMatch};
use bughouse_tournament::{MatchRecord, Tournament, TournamentError};
use tokio::sync::{mpsc, Mutex, MutexGuard};

use crate::app::{sha256_hex, unix_ms};
use crate::runtime::HubHandle;

/// A match that ended: its id and each board's result from its White side (`*` if stopped).
pub(crate) type Finished = (String, [String; 2]);

/// Why a tournament request was refused; nothing changed. The routes answer each with its
/// status (`crate::http::ApiError`).
#[derive(Debug, thiserror::Error)]
pub(crate) enum Error {
    /// No tournament has that id.
    #[error("no such tournament")]
    NotFound,
    /// The tournament has no such thing (a table, server matches).
    #[error("{0}")]
    Missing(String),
    /// An organiser request without the secret.
    #[error("organiser requests need the header Authorization: Bearer <organiser secret>")]
    NoSecret,
    /// An organiser request with another secret.
    #[error("this is not the organiser secret of this tournament")]
    WrongSecret,
    /// A bad value.
    #[error("{0}")]
    Invalid(String),
    /// Not possible in the tournament's state.
    #[error("{0}")]
    Conflict(String),
    /// Refused by the tournament library.
    #[error(transparent)]
    Tournament(#[from] TournamentError),
    /// The server matches of a round could not be created.
    #[error("the matches could not be created: {0}")]
    Unavailable(#[from] crate::runtime::CreateRefused),
    /// The database failed.
    #[error("storage: {0}")]
    Storage(#[from] StoreError),
    /// No random id or secret could be made.
    #[error("no randomness")]
    NoRandomness,
}

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

impl Entry {
    /// Checks an organiser's secret.
    fn authorize(&self, secret: Option<&str>) -> Result<(), Error> {
        let secret = secret.map(str::trim).filter(|s| !s.is_empty());
        match secret {
            None => Err(Error::NoSecret),
            Some(s) if sha256_hex(s) != self.organiser_hash => Err(Error::WrongSecret),
            Some(_) => Ok(()),
        }
    }
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
    /// The tournament `id`.
    fn entry(&self, id: &str) -> Result<&Entry, Error> {
        self.tournaments.get(id).ok_or(Error::NotFound)
    }

    /// Keeps a stored tournament (replacing the one of its id); an unreadable one is logged and
    /// left out.
    fn insert(&mut self, stored: StoredTournament) {
        let tournament = match Tournament::from_json(&stored.data_json) {
            Ok(t) => t,
            Err(e) => {
                tracing::error!(tournament = %stored.id, "cannot read the tournament: {e}");
                self.tournaments.remove(&stored.id);
                return;
            }
        };
        let time_control = stored.time_control.parse().unwrap_or_default();
        let mut matches = BTreeMap::new();
        for m in &stored.matches {
            let key = (u32_of(m.round), u32_of(m.table));
            self.by_match
                .insert(m.match_id.clone(), (stored.id.clone(), key.0, key.1));
            matches.insert(key, m.match_id.clone());
        }
        self.tournaments.insert(
            stored.id.clone(),
            Entry {
                id: stored.id,
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

    /// The tournament `id` for a change by its organiser, who must give its secret.
    fn organiser_entry(&mut self, id: &str, secret: Option<&str>) -> Result<&mut Entry, Error> {
        let entry = self.tournaments.get_mut(id).ok_or(Error::NotFound)?;
        entry.authorize(secret)?;
        Ok(entry)
    }
}

/// The tournaments of a server.
pub(crate) struct Service {
    registry: Mutex<Registry>,
    /// One change at a time on this node (a change waiting for the database's lock holds a
    /// connection: one per node at most).
    changes: Mutex<()>,
    store: Store,
    hub: HubHandle,
    /// A node of a cluster: the store is the truth, read again when it changed.
    shared: bool,
}

/// The right to change one tournament: this node's turn and, in a cluster, the database's
/// lock on the tournament.
struct Turn<'a> {
    _local: MutexGuard<'a, ()>,
    shared: Option<Exclusive>,
}

impl Turn<'_> {
    /// Lets the next change in.
    async fn release(self) {
        if let Some(lock) = self.shared {
            lock.release().await;
        }
    }
}

fn random_bytes<const N: usize>() -> Result<[u8; N], Error> {
    let mut buf = [0u8; N];
    getrandom::fill(&mut buf).map_err(|e| {
        tracing::error!("getrandom: {e}");
        Error::NoRandomness
    })?;
    Ok(buf)
}

fn u32_of(n: i64) -> u32 {
    u32::try_from(n).unwrap_or(0)
}

impl Service {
    /// Loads every stored tournament, and enters the results of their server matches that
    /// ended while nobody listened (the server stopped between the match's end and the entry).
    /// `shared`: a node of a cluster (see the module's notes).
    pub(crate) async fn load(
        store: Store,
        hub: HubHandle,
        shared: bool,
    ) -> Result<Service, crate::ServerError> {
        let mut registry = Registry::default();
        for stored in store.tournaments().await? {
            registry.insert(stored);
        }
        let service = Service {
            registry: Mutex::new(registry),
            changes: Mutex::new(()),
            store,
            hub,
            shared,
        };
        service.catch_up().await;
        Ok(service)
    }

    /// In a cluster, brings the tournament `id` up to date: its version is read from the
    /// store, and the tournament read again if another node changed it (or forgotten if it is
    /// not stored). A single server's memory is the truth already.
    async fn refresh(&self, registry: &mut Registry, id: &str) -> Result<(), Error> {
        if !self.shared || id.len() > 64 {
            return Ok(());
        }
        let version = self.store.tournament_version(id).await?;
        let current = registry.tournaments.get(id).map(|e| e.updated_at_ms);
        if version.is_some() && version == current {
            return Ok(());
        }
        match self.store.load_tournament(id).await? {
            Some(stored) => registry.insert(stored),
            None => {
                registry.tournaments.remove(id);
            }
        }
        Ok(())
    }

    /// The tournaments, locked and with `id` up to date, to read.
    async fn read(&self, id: &str) -> Result<MutexGuard<'_, Registry>, Error> {
        let mut registry = self.registry.lock().await;
        self.refresh(&mut registry, id).await?;
        Ok(registry)
    }

    /// Waits for the right to change `id` (see [`Turn`]), then gives the tournaments, locked
    /// and with `id` up to date.
    async fn write(&self, id: &str) -> Result<(Turn<'_>, MutexGuard<'_, Registry>), Error> {
        let local = self.changes.lock().await;
        let shared = if self.shared {
            Some(self.store.exclusive(&format!("tournament:{id}")).await?)
        } else {
            None
        };
        let turn = Turn {
            _local: local,
            shared,
        };
        let registry = self.read(id).await?;
        Ok((turn, registry))
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
        let pairing = if self.shared {
            // Linked by whichever node paired the round.
            match self.store.tournament_of_match(&match_id).await {
                Ok(link) => link.map(|(tid, m)| (tid, u32_of(m.round), u32_of(m.table))),
                Err(e) => {
                    tracing::error!(%match_id, "cannot find the match's tournament: {e}");
                    None
                }
            }
        } else {
            self.registry.lock().await.by_match.get(&match_id).cloned()
        };
        if let Some(pairing) = pairing {
            self.enter_games(pairing, &boards, &match_id).await;
        }
    }

    /// Enters the results of both games into a pairing, unless it has a result already
    /// (entered by hand); `source` names the server match or over-the-board table in the log.
    async fn enter_games(
        &self,
        (tid, round, table): (String, u32, u32),
        boards: &[String; 2],
        source: &str,
    ) {
        let (turn, mut registry) = match self.write(&tid).await {
            Ok(locked) => locked,
            Err(e) => {
                tracing::error!(tournament = %tid, round, table, %source, "cannot enter: {e}");
                return;
            }
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
            tracing::error!(%source, "unreadable board results {boards:?}");
            return;
        };
        let record = MatchRecord::Games { a, b };
        let result = self
            .change(entry, &[], |t| t.set_result(round, table, record).map(drop))
            .await;
        match result {
            Ok(()) => tracing::info!(tournament = %tid, round, table, %source, "result entered"),
            Err(e) => tracing::warn!(
                tournament = %tid, round, table, %source,
                "the result was not entered: {e}"
            ),
        }
        drop(registry);
        turn.release().await;
    }

    /// Applies `f` to a copy of the tournament, stores it (with `links`), then keeps it.
    async fn change(
        &self,
        entry: &mut Entry,
        links: &[TournamentMatch],
        f: impl FnOnce(&mut Tournament) -> Result<(), TournamentError>,
    ) -> Result<(), Error> {
        let mut copy = entry.tournament.clone();
        f(&mut copy)?;
        let updated = unix_ms().max(entry.updated_at_ms + 1);
        self.store
            .save_tournament_over(
                &entry.id,
                entry.updated_at_ms,
                &copy.to_json(),
                updated,
                links,
            )
            .await
            .map_err(|e| match e {
                StoreError::TournamentChanged(_) => Error::Conflict(
                    "the tournament changed meanwhile: read it again and retry".to_owned(),
                ),
                e => Error::Storage(e),
            })?;
        entry.cannot_pair = cannot_pair(&copy);
        entry.tournament = copy;
        entry.updated_at_ms = updated;
        Ok(())
    }
}

/// How often a node of a cluster looks for results nobody entered.
const SWEEP_EVERY: std::time::Duration = std::time::Duration::from_secs(15);

impl Service {
    /// Reads again the tournaments that changed, then enters the results of finished server
    /// matches whose pairing has none: a node that stored a match's end and died before it
    /// entered the result leaves that to the others.
    async fn sweep(&self) {
        match self.store.tournaments().await {
            Ok(all) => {
                let mut registry = self.registry.lock().await;
                for stored in all {
                    let known = registry
                        .tournaments
                        .get(&stored.id)
                        .map(|e| e.updated_at_ms);
                    if known != Some(stored.updated_at_ms) {
                        registry.insert(stored);
                    }
                }
            }
            Err(e) => {
                tracing::warn!("tournaments: cannot read them: {e}");
                return;
            }
        }
        self.catch_up().await;
    }
}

/// In a cluster: every [`SWEEP_EVERY`], [`Service::sweep`].
pub(crate) async fn sweep_task(service: std::sync::Arc<Service>) {
    let mut every = tokio::time::interval(SWEEP_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // The first tick is now: the load has just caught up.
    every.tick().await;
    loop {
        every.tick().await;
        service.sweep().await;
    }
}

/// Enters the results of finished matches as the sender reports them (once stored).
pub(crate) async fn results_task(
    service: std::sync::Arc<Service>,
    mut rx: mpsc::UnboundedReceiver<Finished>,
) {
    while let Some(finished) = rx.recv().await {
        service.match_finished(finished).await;
    }
}
