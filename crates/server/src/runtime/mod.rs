//! The tasks around the hub. One task owns the [`Hub`] of each shard (on SQLite, on a thread
//! of its own).
//! Websocket readers send it commands through a channel; it applies a batch of them and hands
//! the effects to the committer task, which hands the store effects to the writer (on SQLite,
//! one for all shards, which stores whatever queued meanwhile in one transaction) and the rest
//! to the sender task, which waits until the batch is stored, serialises each message once and
//! sends it: every accepted move is stored before it is acknowledged. The hub goes on with the
//! next batch while the writer writes; the committer and the sender take turns with it on its
//! thread. The hub also wakes for flag falls.

mod commit;
mod load;
mod lobby;
mod outbox;
mod reload;
mod shard;
mod shards;
mod stages;
mod thread;
mod writer;

pub(crate) use commit::*;
pub(crate) use load::{load_match, Loader};
pub(crate) use lobby::{lobby_feed, Lobby, PlayError};
pub(crate) use outbox::{outbox, outbox_to, OutReceiver, OutSender};
pub(crate) use shard::{hub_task, Inbox};
pub(crate) use shards::{ask, Shards};
pub(crate) use thread::spawn_on_own_thread;
pub(crate) use writer::{Pending, Stored, Writer};

use std::time::Duration;

use bughouse_protocol::{CreateMatch, MatchState, SeatName};
use bughouse_store::Store;
use tokio::sync::oneshot;

use crate::hub::{ConnId, CreateError, FrameText, Input, LobbyPart, PlaceError};

/// The most commands the hub applies before it hands their effects to the committer.
pub(crate) const BATCH: usize = 512;

/// The most batches waiting for the committer (the hub waits beyond, which is the back pressure
/// of a slow database, once the writer's and the sender's queues are full too). The hub hands a
/// batch over as soon as it is applied (one command when the server is quiet), so under load
/// hundreds queue up within one commit: a small bound here would make the hub wait for the
/// database after a few of them, and every command behind it in its inbox (measured: with 64, a
/// move waited up to 130 ms at 1,000 matches).
pub(crate) const COMMIT_QUEUE: usize = 8192;

pub(crate) enum Outgoing {
    /// Shared by every recipient of the message (serialised once).
    Text(FrameText),
    Ping(Vec<u8>),
    /// The answer to a client's ping (its payload).
    Pong(bytes::Bytes),
    /// The server closes the connection (normal closure).
    Close,
    /// The client broke the websocket protocol: close with this code and reason.
    Fail(u16, String),
    /// The rest of a frame the socket took only in part (written as is, no header).
    Raw(bytes::Bytes),
}

pub(crate) enum Command {
    /// A connection joins this shard, signed in as an account or not.
    Connect(ConnId, OutSender, Option<crate::hub::AccountInfo>),
    Disconnect(ConnId),
    Input(Input),
    Rtt(ConnId, Duration),
    Create {
        request: CreateMatch,
        reply: oneshot::Sender<Result<String, CreateError>>,
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
    /// The shard's part of the lobby.
    Lobby {
        reply: oneshot::Sender<LobbyPart>,
    },
    /// Seat a player in a waiting match without a connection ("play now"): the seat and its
    /// token, answered once the seat is stored.
    Place {
        id: String,
        name: String,
        account: Option<crate::hub::AccountInfo>,
        reply: oneshot::Sender<Result<(SeatName, String), PlaceError>>,
    },
    /// In a cluster: this node has just taken the match's lease; restore it from the store
    /// (true if it is now running here, false if it is not in progress).
    Adopt {
        id: String,
        reply: oneshot::Sender<bool>,
    },
    /// In a cluster: this node lost the match's lease; forget it at once.
    Drop {
        id: String,
    },
    /// A write of the match was refused by the store (see `commit.rs`): forget it, and restore
    /// it from the store once everything handed over before is stored. The refused actions
    /// (seat and id) are answered with `not_stored` when they are sent again.
    Reload {
        match_id: String,
        refused: Vec<(u8, u64)>,
    },
    /// Stop applying anything: answered once everything applied so far is stored and sent
    /// (a node leaving the cluster politely).
    Stop {
        reply: oneshot::Sender<()>,
    },
    /// Create a match and seat a player in it: the match, the seat and its token.
    CreatePlaced {
        request: CreateMatch,
        name: String,
        account: Option<crate::hub::AccountInfo>,
        reply: oneshot::Sender<Result<(String, SeatName, String), PlayError>>,
    },
}

/// Why a shard created no match for another part of the server (a tournament's round).
#[derive(Debug, thiserror::Error)]
pub(crate) enum CreateRefused {
    /// The rules or the time control asked for are refused.
    #[error(transparent)]
    Create(#[from] CreateError),
    /// The server is stopping (or the match was not stored).
    #[error("the server is stopping")]
    Stopping,
}

/// What other parts of the server (the tournaments) may ask of the hub task.
#[derive(Clone)]
pub(crate) struct HubHandle {
    pub(crate) shards: Shards,
    pub(crate) store: Store,
}

impl HubHandle {
    /// Creates a match; its id once it is stored.
    pub(crate) async fn create_match(
        &self,
        rules: &str,
        time_control: &str,
    ) -> Result<String, CreateRefused> {
        let request = CreateMatch {
            rules: rules.to_owned(),
            time_control: time_control.to_owned(),
            custom: Default::default(),
            ..Default::default()
        };
        ask(self.shards.next(), |reply| Command::Create {
            request,
            reply,
        })
        .await
        .ok_or(CreateRefused::Stopping)?
        .map_err(CreateRefused::Create)
    }

    /// A match's record as BPGN: the record so far of a match in memory, else the archive's.
    pub(crate) async fn bpgn(
        &self,
        id: &str,
    ) -> Result<Option<String>, bughouse_store::StoreError> {
        let asked = ask(self.shards.of(id), |reply| Command::Bpgn {
            id: id.to_owned(),
            reply,
        });
        match asked.await {
            Some(Some(text)) => Ok(Some(text)),
            _ => self.store.bpgn(id).await,
        }
    }
}
