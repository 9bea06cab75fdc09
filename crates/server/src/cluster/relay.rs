//! The relay between nodes: the publisher (every message this node sends, in order, pipelined),
//! the inbox (what other nodes send this one), the connections other nodes relay to this one
//! (owner side), and the watch that closes relays whose other end died.

use std::collections::HashSet;
use std::sync::atomic::Ordering;
use std::time::Duration;

use futures_util::StreamExt;
use redis::aio::ConnectionManager;
use tokio::sync::{mpsc, oneshot};

use super::lease::{self, inbox_channel};
use super::wire::Wire;
use super::{lock, Cluster};
use crate::http::{ConnRouter, Incoming};
use crate::hub::{AccountInfo, ConnId};
use crate::runtime::Outgoing;

/// What the publisher task is given.
pub(crate) enum Publish {
    /// A message for a channel.
    Message(String, String),
    /// Answered once everything before it is published.
    Flush(oneshot::Sender<()>),
}

/// Waits until everything handed to the publisher so far is published.
pub(crate) async fn flush(publish: &mpsc::UnboundedSender<Publish>) {
    let (done, wait) = oneshot::channel();
    if publish.send(Publish::Flush(done)).is_ok() {
        let _ = tokio::time::timeout(Duration::from_secs(2), wait).await;
    }
}

/// Publishes what this node sends, in order: whatever queued meanwhile goes in one pipeline.
pub(crate) async fn publisher(
    mut redis: ConnectionManager,
    mut rx: mpsc::UnboundedReceiver<Publish>,
) {
    let mut queued = Vec::new();
    while rx.recv_many(&mut queued, 1024).await > 0 {
        let mut pipe = redis::pipe();
        let mut flushes = Vec::new();
        let mut messages = 0;
        for item in queued.drain(..) {
            match item {
                Publish::Message(channel, message) => {
                    pipe.cmd("PUBLISH").arg(channel).arg(message).ignore();
                    messages += 1;
                }
                Publish::Flush(done) => flushes.push(done),
            }
        }
        if messages > 0 {
            if let Err(e) = pipe.query_async::<()>(&mut redis).await {
                tracing::warn!("bus: cannot publish: {e}");
            }
        }
        for done in flushes {
            let _ = done.send(());
        }
    }
}

/// Subscribes to this node's inbox channel: `None` if Redis cannot be reached or refuses.
pub(crate) async fn subscribe(cluster: &Cluster) -> Option<redis::aio::PubSub> {
    let channel = inbox_channel(cluster.node());
    match cluster.0.client.get_async_pubsub().await {
        Ok(mut pubsub) => match pubsub.subscribe(&channel).await {
            Ok(()) => {
                tracing::info!(%channel, "bus: listening");
                Some(pubsub)
            }
            Err(e) => {
                tracing::warn!("bus: cannot subscribe: {e}");
                None
            }
        },
        Err(e) => {
            tracing::warn!("bus: cannot connect: {e}");
            None
        }
    }
}

/// This node's inbox: hands each message of the subscription on (`first`, made before the node
/// serves, so that nothing relayed to it once it answers is lost), and subscribes again after
/// Redis restarts.
pub(crate) async fn inbox(cluster: Cluster, first: Option<redis::aio::PubSub>) {
    let mut subscribed = first;
    loop {
        if let Some(pubsub) = subscribed.take() {
            let mut messages = pubsub.into_on_message();
            while let Some(msg) = messages.next().await {
                match Wire::decode(msg.get_payload_bytes()) {
                    Ok(wire) => deliver(&cluster, wire),
                    Err(e) => tracing::warn!("bus: {e}"),
                }
            }
            tracing::warn!("bus: the subscription ended; subscribing again");
        }
        if cluster.stopping() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        subscribed = subscribe(&cluster).await;
    }
}

/// One message from another node.
fn deliver(cluster: &Cluster, wire: Wire) {
    let to_remote = |from: String, conn: ConnId, incoming: Option<Incoming>| {
        let mut remotes = lock(&cluster.0.remotes);
        match incoming {
            Some(incoming) => {
                let known = remotes
                    .get(&(from.clone(), conn))
                    .map(|tx| tx.send(incoming))
                    .is_some();
                drop(remotes);
                // Opened with a process that is gone (this node id restarted): the socket's
                // node closes it, and its client reconnects.
                if !known {
                    cluster.send(&from, &Wire::Shut { conn });
                }
            }
            None => {
                remotes.remove(&(from, conn));
            }
        }
    };
    match wire {
        Wire::Open {
            from,
            conn,
            account,
        } => {
            let Some(app) = cluster.app().cloned() else {
                return;
            };
            let (tx, rx) = mpsc::unbounded_channel();
            lock(&cluster.0.remotes).insert((from.clone(), conn), tx);
            let account = account.map(|(id, username)| AccountInfo { id, username });
            tokio::spawn(remote_connection(
                cluster.clone(),
                app,
                from,
                conn,
                account,
                rx,
            ));
        }
        Wire::Frame { from, conn, text } => {
            to_remote(from, conn, Some(Incoming::Text(text.into())))
        }
        Wire::Binary { from, conn } => to_remote(from, conn, Some(Incoming::Binary)),
        Wire::Rtt { from, conn, micros } => to_remote(
            from,
            conn,
            Some(Incoming::Rtt(Duration::from_micros(micros))),
        ),
        Wire::Close { from, conn } => to_remote(from, conn, None),
        Wire::Out { conn, text } => {
            if let Some((_, out)) = lock(&cluster.0.relays).get(&conn) {
                let _ = out.send(Outgoing::Text(text.into()));
            }
        }
        Wire::Shut { conn } => {
            if let Some((_, out)) = lock(&cluster.0.relays).remove(&conn) {
                let _ = out.send(Outgoing::Close);
            }
        }
        Wire::Place {
            from,
            request,
            text,
        } => cluster.on_place(from, request, &text),
        Wire::Placed { request, text } => cluster.on_placed(request, &text),
    }
}

/// A connection another node relays to this one: a connection of this node's hubs like a
/// socket's, whose frames come from the inbox and whose messages go back over the bus.
async fn remote_connection(
    cluster: Cluster,
    app: crate::http::App,
    origin: String,
    origin_conn: ConnId,
    account: Option<AccountInfo>,
    mut incoming: mpsc::UnboundedReceiver<Incoming>,
) {
    let conn = app.next_conn.fetch_add(1, Ordering::Relaxed);
    let (out_tx, mut out_rx) = crate::runtime::outbox();
    let back = cluster.clone();
    let to = origin.clone();
    let forward = tokio::spawn(async move {
        while let Some(out) = out_rx.recv().await {
            match out {
                Outgoing::Text(text) => back.send(
                    &to,
                    &Wire::Out {
                        conn: origin_conn,
                        text: text.to_text(),
                    },
                ),
                Outgoing::Close => {
                    lock(&back.0.remotes).remove(&(to.clone(), origin_conn));
                    back.send(&to, &Wire::Shut { conn: origin_conn });
                    return;
                }
                // The node holding the socket pings it and answers its pings.
                Outgoing::Ping(_) | Outgoing::Pong(_) | Outgoing::Fail(..) | Outgoing::Raw(_) => {}
            }
        }
    });
    let mut router = ConnRouter::new(app, conn, account, out_tx, false);
    while let Some(next) = incoming.recv().await {
        if !router.take(next).await {
            break;
        }
    }
    router.leave().await;
    // Let the messages already queued (a last `state`) go before the forwarder stops.
    tokio::time::sleep(Duration::from_millis(100)).await;
    forward.abort();
}

/// Every second: the relays whose other node died are closed. A socket relayed to a dead owner
/// is closed, so that its client reconnects (to any node, which routes it to the new owner); a
/// connection relayed from a dead node leaves the hub.
pub(crate) async fn watch(cluster: Cluster) {
    let mut every = tokio::time::interval(lease::RENEW_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        if cluster.stopping() {
            return;
        }
        let mut nodes: HashSet<String> = lock(&cluster.0.relays)
            .values()
            .map(|(owner, _)| owner.clone())
            .collect();
        nodes.extend(
            lock(&cluster.0.remotes)
                .keys()
                .map(|(origin, _)| origin.clone()),
        );
        let nodes: Vec<String> = nodes.into_iter().collect();
        let alive = match lease::alive(&mut cluster.redis(), &nodes).await {
            Ok(alive) => alive,
            Err(e) => {
                tracing::warn!("bus: cannot see which nodes are alive: {e}");
                continue;
            }
        };
        let dead: HashSet<&String> = nodes
            .iter()
            .zip(alive)
            .filter(|(_, alive)| !alive)
            .map(|(n, _)| n)
            .collect();
        if dead.is_empty() {
            continue;
        }
        tracing::warn!(?dead, "nodes gone: closing their relays");
        lock(&cluster.0.relays).retain(|_, (owner, out)| {
            let gone = dead.contains(owner);
            if gone {
                let _ = out.send(Outgoing::Close);
            }
            !gone
        });
        // Dropping the sender ends the remote connection's task, which leaves the hub.
        lock(&cluster.0.remotes).retain(|(origin, _), _| !dead.contains(origin));
    }
}
