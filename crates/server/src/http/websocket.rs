//! The websocket adapter: frames in, commands to the hub; messages out; pings that measure the
//! round trip. It only translates.

use std::sync::atomic::Ordering;
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use bughouse_protocol::MAX_CLIENT_MESSAGE;
use futures_util::{SinkExt, StreamExt};

use crate::http::route::{ConnRouter, Incoming};
use crate::http::{auth, App};
use crate::hub::AccountInfo;
use crate::runtime::{outbox, Outgoing};

/// How often the server pings each websocket to measure its round trip.
pub(crate) const PING_EVERY: Duration = Duration::from_secs(5);

/// The read buffer of a websocket, in bytes: kept for the connection's life, so small (a move
/// is a frame of some 60 bytes; the protocol allows up to 4096, and a larger frame grows it).
pub(crate) const WS_READ_BUFFER: usize = 1024;

/// The bytes of messages written to a websocket before it is flushed while more are queued.
const FLUSH_AT: usize = 2048;

pub(crate) async fn websocket(
    State(app): State<App>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    // The session cookie says which account the connection belongs to (the CSRF layer has
    // checked that a handshake carrying it comes from our own pages). A cookie whose session is
    // gone, or a store that fails, leaves the connection a guest's.
    let account = match auth::session_token(&headers) {
        Some(token) => match app
            .store
            .session_account(&auth::token_hash(&token), auth::unix_ms())
            .await
        {
            Ok(account) => account.map(|a| AccountInfo {
                id: a.id,
                username: a.username,
            }),
            Err(e) => {
                tracing::warn!("websocket: cannot read the session: {e}");
                None
            }
        },
        None => None,
    };
    // Frames up to 16 times the protocol limit are read so that the hub can answer a too large
    // message with an error; anything larger closes the connection.
    // The read buffer is allocated (and zeroed) per connection: 1 KiB instead of the default
    // 128 KiB keeps thousands of connections small; larger frames still grow it as needed.
    ws.max_message_size(MAX_CLIENT_MESSAGE * 16)
        .read_buffer_size(WS_READ_BUFFER)
        .on_upgrade(move |socket| client(Box::new(socket), app, account))
}

/// A connection: its reader (this task) and its writer. The socket comes boxed: a task keeps
/// room for its arguments, and the socket, inline, is larger than everything else the task holds
/// (it moves into the reader's and writer's shared half at once).
pub(crate) async fn client(socket: Box<WebSocket>, app: App, account: Option<AccountInfo>) {
    let conn = app.next_conn.fetch_add(1, Ordering::Relaxed);
    let (out_tx, mut out_rx) = outbox();
    let (mut sink, mut stream) = (*socket).split();
    let started = app.started;
    // The connection's writer: its queue of messages, and a ping every PING_EVERY (one task and
    // one timer per connection for both).
    let writer = tokio::spawn(async move {
        let mut ping =
            tokio::time::interval_at(tokio::time::Instant::now() + PING_EVERY, PING_EVERY);
        ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            let first = tokio::select! {
                out = out_rx.recv() => match out {
                    Some(out) => out,
                    None => return,
                },
                _ = ping.tick() => {
                    let stamp = u64::try_from(started.elapsed().as_micros()).unwrap_or(0);
                    Outgoing::Ping(stamp.to_be_bytes().to_vec())
                }
            };
            // Whatever is queued by now goes out together, with one flush, up to
            // FLUSH_AT bytes: the websocket's write buffer keeps the capacity of the largest
            // batch it ever held for the connection's life (measured: 8.7 KB per connection
            // on average when batches were not bounded, from the `state`s of four players
            // sitting down at once).
            let mut next = Some(first);
            let mut batch = 0;
            while let Some(out) = next {
                if batch >= FLUSH_AT {
                    if sink.flush().await.is_err() {
                        return;
                    }
                    batch = 0;
                }
                let fed = match out {
                    Outgoing::Text(text) => {
                        batch += text.len();
                        sink.feed(Message::Text(text)).await
                    }
                    Outgoing::Ping(payload) => sink.feed(Message::Ping(payload.into())).await,
                    Outgoing::Close => {
                        let _ = sink.close().await;
                        return;
                    }
                };
                if fed.is_err() {
                    return;
                }
                next = out_rx.try_recv();
            }
            if sink.flush().await.is_err() {
                return;
            }
        }
    });
    // The connection belongs to the shard of the match its last `hello` named (shard 0 before
    // any), or in a cluster to the node that owns that match: `ConnRouter` joins it there.
    let mut router = ConnRouter::new(app.clone(), conn, account, out_tx, true);
    while let Some(frame) = stream.next().await {
        let incoming = match frame {
            Ok(Message::Text(text)) => Incoming::Text(text),
            Ok(Message::Binary(_)) => Incoming::Binary,
            Ok(Message::Pong(payload)) => {
                let Ok(bytes) = <[u8; 8]>::try_from(payload.as_ref()) else {
                    continue;
                };
                let sent = Duration::from_micros(u64::from_be_bytes(bytes));
                Incoming::Rtt(app.started.elapsed().saturating_sub(sent))
            }
            Ok(Message::Ping(_)) => continue,
            Ok(Message::Close(_)) | Err(_) => break,
        };
        if !router.take(incoming).await {
            break;
        }
    }
    router.leave().await;
    writer.abort();
}
