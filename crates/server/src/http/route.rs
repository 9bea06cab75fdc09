//! Where a connection's frames go: the shard of the match its last `hello` named, on this node,
//! or, in a cluster, the node that owns that match (the frames relayed over the bus, the owner's
//! messages relayed back). Used by the websocket adapter and, on an owner, by the connections
//! other nodes relay to it (which are never relayed further).

use std::time::Duration;

use axum::extract::ws::Utf8Bytes;

use bughouse_protocol::{ClientFrame, ClientMessage, ErrorCode};

use crate::cluster::Route;
use crate::http::App;
use crate::hub::{read_frame, AccountInfo, ConnId, FrameError, Input};
use crate::runtime::Command;
use tokio::sync::mpsc;

/// What a client sent.
#[derive(Debug)]
pub(crate) enum Incoming {
    /// A text frame.
    Text(Utf8Bytes),
    /// A binary frame (refused).
    Binary,
    /// The round trip of a ping.
    Rtt(Duration),
}

/// Where the connection is joined.
#[derive(Debug, Clone, PartialEq, Eq)]
enum At {
    Shard(usize),
    Node(String),
}

/// One connection's routing.
pub(crate) struct ConnRouter {
    app: App,
    conn: ConnId,
    account: Option<AccountInfo>,
    out: crate::runtime::OutSender,
    at: Option<At>,
    /// Whether frames may be relayed to another node (not for a connection relayed here).
    relay: bool,
}

impl ConnRouter {
    pub(crate) fn new(
        app: App,
        conn: ConnId,
        account: Option<AccountInfo>,
        out: crate::runtime::OutSender,
        relay: bool,
    ) -> ConnRouter {
        ConnRouter {
            app,
            conn,
            account,
            out,
            at: None,
            relay,
        }
    }

    /// Routes what the client sent; false once the hub is gone (the server stops).
    pub(crate) async fn take(&mut self, incoming: Incoming) -> bool {
        let conn = self.conn;
        match incoming {
            Incoming::Text(text) => {
                let frame = read_frame(text.as_str());
                let hello = match &frame {
                    Ok(ClientFrame {
                        msg: ClientMessage::Hello { match_id, .. },
                        ..
                    }) => Some(match_id.clone()),
                    _ => None,
                };
                // Joining is boxed: it is rare (a `hello`), and its future (a cluster's routing
                // among them) would otherwise make every connection's task as large as itself.
                if let Some(id) = hello {
                    if !Box::pin(self.join_match(id)).await {
                        return false;
                    }
                } else if self.at.is_none() && !Box::pin(self.join(At::Shard(0))).await {
                    return false;
                }
                match &self.at {
                    Some(At::Node(owner)) => {
                        if let Some(cluster) = &self.app.cluster {
                            cluster.relay_frame(owner, conn, text.as_str());
                        }
                        true
                    }
                    Some(At::Shard(i)) => {
                        deliver(
                            self.app.shards.at(*i),
                            Command::Input(Input::Frame(conn, frame)),
                        )
                        .await
                    }
                    None => true,
                }
            }
            Incoming::Binary => {
                if self.at.is_none() && !Box::pin(self.join(At::Shard(0))).await {
                    return false;
                }
                match &self.at {
                    Some(At::Node(owner)) => {
                        if let Some(cluster) = &self.app.cluster {
                            cluster.relay_binary(owner, conn);
                        }
                        true
                    }
                    Some(At::Shard(i)) => {
                        let refused = Input::Frame(
                            conn,
                            Err(FrameError {
                                code: ErrorCode::BadMessage,
                                message: "binary frames are not accepted; send JSON text".into(),
                            }),
                        );
                        deliver(self.app.shards.at(*i), Command::Input(refused)).await
                    }
                    None => true,
                }
            }
            Incoming::Rtt(rtt) => match &self.at {
                Some(At::Node(owner)) => {
                    if let Some(cluster) = &self.app.cluster {
                        cluster.relay_rtt(owner, conn, rtt);
                    }
                    true
                }
                Some(At::Shard(i)) => {
                    deliver(self.app.shards.at(*i), Command::Rtt(conn, rtt)).await
                }
                None => true,
            },
        }
    }

    /// Joins where a `hello` to `match_id` goes.
    async fn join_match(&mut self, match_id: String) -> bool {
        let target = self.target_of(&match_id).await;
        self.join(target).await
    }

    /// Where a `hello` to `match_id` goes.
    async fn target_of(&self, match_id: &str) -> At {
        match &self.app.cluster {
            Some(cluster) if self.relay => match cluster.route(match_id).await {
                Route::Local => At::Shard(self.app.shards.index_of(match_id)),
                Route::Node(owner) => At::Node(owner),
            },
            Some(cluster) => {
                cluster.reclaim(match_id).await;
                At::Shard(self.app.shards.index_of(match_id))
            }
            _ => At::Shard(self.app.shards.index_of(match_id)),
        }
    }

    /// Leaves where the connection is joined and joins `target`.
    async fn join(&mut self, target: At) -> bool {
        if self.at.as_ref() == Some(&target) {
            return true;
        }
        self.leave().await;
        match &target {
            At::Shard(i) => {
                let joined = self
                    .app
                    .shards
                    .at(*i)
                    .send(Command::Connect(
                        self.conn,
                        self.out.clone(),
                        self.account.clone(),
                    ))
                    .await;
                if joined.is_err() {
                    return false;
                }
            }
            At::Node(owner) => {
                if let Some(cluster) = &self.app.cluster {
                    let account = self.account.as_ref().map(|a| (a.id, a.username.clone()));
                    cluster.relay_open(owner, self.conn, self.out.clone(), account);
                }
            }
        }
        self.at = Some(target);
        true
    }

    /// The connection leaves its hub (it closed, or moves to another).
    pub(crate) async fn leave(&mut self) {
        match self.at.take() {
            Some(At::Shard(i)) => {
                let _ = self
                    .app
                    .shards
                    .at(i)
                    .send(Command::Disconnect(self.conn))
                    .await;
            }
            Some(At::Node(owner)) => {
                if let Some(cluster) = &self.app.cluster {
                    cluster.relay_close(&owner, self.conn);
                }
            }
            None => {}
        }
    }
}

/// Hands a command to a shard: at once when its inbox has room (the usual case, with no future
/// to keep), else waiting for room in a boxed future (the back pressure of a busy shard) so that
/// a connection's task does not carry the size of a pending send. False once the shard is gone.
async fn deliver(inbox: &mpsc::Sender<Command>, command: Command) -> bool {
    match inbox.try_send(command) {
        Ok(()) => true,
        Err(mpsc::error::TrySendError::Full(command)) => {
            Box::pin(inbox.send(command)).await.is_ok()
        }
        Err(mpsc::error::TrySendError::Closed(_)) => false,
    }
}
