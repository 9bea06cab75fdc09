//! Over-the-board tables: a table is stored as its settings and the events it accepted; each
//! request replays them through [`bughouse_core::otb::Table`], which takes every decision. This
//! service only checks the key, skips resent events, stores, and enters a tournament pairing's
//! result when its table's match ends. Writes to a table take turns, on one node (a lock) and
//! across the nodes of a cluster (the store's [`Store::exclusive`]). The routes are in `http/otb.rs`.

mod record;
mod table;
mod wire;

use std::sync::Arc;
use std::time::Duration;

use bughouse_core::otb::{Rulebook, TableError};
use bughouse_protocol::otb::{
    CreateOtbTable, CreatedOtbTable, OtbEvents, OtbRejected, OtbTableView,
};
use bughouse_store::{NewOtbTable, Store, StoreError, StoredOtbEvent, StoredOtbTable};
use tokio::sync::Mutex;

use crate::app::{sha256_hex, unix_ms};
use crate::tournaments;
pub(crate) use table::stored_bpgn;
use table::{replay, result_of, view};

/// Why a table request was refused.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Error {
    /// The request is malformed or out of bounds.
    #[error("{0}")]
    Invalid(String),
    /// No table has this id.
    #[error("no such over-the-board table")]
    NotFound,
    /// The key given is not the table's.
    #[error("wrong key for this table")]
    WrongKey,
    /// The table exists already (an id taken).
    #[error("{0}")]
    Conflict(String),
    /// The rules refused an event.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The stored table cannot be read (its preset or times are not ours).
    #[error("the stored table cannot be read")]
    Corrupt,
    /// The tournament of a pairing refused.
    #[error(transparent)]
    Tournament(#[from] tournaments::Error),
    /// The database failed.
    #[error("storage: {0}")]
    Storage(#[from] StoreError),
    /// No random id or key could be made.
    #[error("no randomness")]
    NoRandomness,
}

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
    pub(crate) async fn create(&self, req: &CreateOtbTable) -> Result<CreatedOtbTable, Error> {
        if !(1..=MAX_BASE_SECONDS).contains(&req.base_seconds)
            || req.increment_seconds > MAX_INCREMENT_SECONDS
        {
            return Err(Error::Invalid(format!(
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
    ) -> Result<CreatedOtbTable, Error> {
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
                StoreError::Invalid(m) => Error::Conflict(m),
                e => Error::Storage(e),
            })?;
        Ok(CreatedOtbTable {
            url: format!("/otb/{id}#{key}"),
            id,
            key,
        })
    }

    async fn load(&self, id: &str) -> Result<StoredOtbTable, Error> {
        self.store.load_otb_table(id).await?.ok_or(Error::NotFound)
    }

    /// The table and its view, with nothing posted.
    pub(crate) async fn view(&self, id: &str) -> Result<OtbTableView, Error> {
        let stored = self.load(id).await?;
        let table = replay(&stored)?;
        Ok(view(&stored, &table, Vec::new(), Vec::new()))
    }

    /// The table's scoresheet as BPGN; `None` when no move was entered.
    pub(crate) async fn bpgn(&self, id: &str) -> Result<Option<String>, Error> {
        let stored = self.load(id).await?;
        stored_bpgn(&stored)
    }

    /// Applies posted events after the stored ones; a resent event (a known id) is skipped.
    pub(crate) async fn post(&self, id: &str, req: OtbEvents) -> Result<OtbTableView, Error> {
        if req.events.len() > MAX_EVENTS {
            return Err(Error::Invalid(format!(
                "at most {MAX_EVENTS} events at once"
            )));
        }
        let _turn = self.writes.lock().await;
        // Across the nodes of a cluster too (nothing more with SQLite).
        let shared = self.store.exclusive(&format!("otb:{id}")).await?;
        let mut stored = self.load(id).await?;
        if sha256_hex(&req.key) != stored.table.key_hash {
            return Err(Error::WrongKey);
        }
        let mut table = replay(&stored)?;
        let mut applied = Vec::new();
        let mut rejected = Vec::new();
        let mut new = Vec::new();
        for (n, item) in req.events.iter().enumerate() {
            let too_large = |what: &str, value: u64| {
                Error::Invalid(format!(
                    "event {} of {}: {what} {value} is larger than {}",
                    n + 1,
                    req.events.len(),
                    i64::MAX
                ))
            };
            let client_id = i64::try_from(item.id).map_err(|_| too_large("id", item.id))?;
            let at_ms = i64::try_from(item.at_ms).map_err(|_| too_large("at_ms", item.at_ms))?;
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
                            .map_err(|e| Error::Invalid(e.to_string()))?,
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
                .await?;
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
        shared.release().await;
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
    pub(crate) async fn open_for_pairing(
        &self,
        (tid, round, table): (&str, u32, u32),
        secret: Option<&str>,
    ) -> Result<CreatedOtbTable, Error> {
        let p = self
            .tournaments
            .otb_pairing((tid, round, table), secret)
            .await?;
        let preset = Rulebook::from_preset(p.preset).map_err(|e| Error::Invalid(e.to_string()))?;
        let _turn = self.writes.lock().await;
        let shared = self
            .store
            .exclusive(&format!("otb-pairing:{tid}:{round}:{table}"))
            .await?;
        let existing = self
            .store
            .otb_tables_of_tournament(tid)
            .await?
            .into_iter()
            .find(|t| {
                t.table
                    .pairing
                    .as_ref()
                    .map(|(_, r, n)| (u32_of(*r), u32_of(*n)))
                    == Some((round, table))
            });
        if let Some(t) = existing {
            shared.release().await;
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
        let created = self.insert(&req, id, key, pairing).await;
        shared.release().await;
        created
    }
}

/// `n` random letters and digits (no look-alikes), from the OS's generator.
fn random_text(n: usize) -> Result<String, Error> {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut buf = vec![0u8; n];
    getrandom::fill(&mut buf).map_err(|e| {
        tracing::error!("getrandom: {e}");
        Error::NoRandomness
    })?;
    Ok(buf
        .iter()
        .map(|b| char::from(ALPHABET[usize::from(*b) % ALPHABET.len()]))
        .collect())
}
