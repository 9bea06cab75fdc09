//! The websocket adapter: frames in, commands to the hub; messages out; pings that measure the
//! round trip. It only translates.

use std::sync::atomic::Ordering;
use std::time::Duration;

use axum::extract::{RawQuery, State};
use axum::http::HeaderMap;
use axum::response::Response;
use bughouse_protocol::MAX_CLIENT_MESSAGE;
use tokio::net::TcpStream;

use crate::http::route::{ConnRouter, Incoming};
use crate::http::ws::socket::{self, Conn, Out, ReadError, Received, WriteSide, MAX_FRAMES};
use crate::http::ws::Upgrade;
use crate::http::{auth, App};
use crate::hub::AccountInfo;
use crate::runtime::{outbox, outbox_to, OutReceiver, Outgoing};

/// How often the server pings each websocket to measure its round trip.
pub(crate) const PING_EVERY: Duration = Duration::from_secs(5);

/// The most bytes of messages written to a websocket with one system call.
const WRITE_AT_ONCE: usize = 16 * 1024;

/// How long a closing connection's writer may take to send what was queued and the close frame.
const CLOSING: Duration = Duration::from_secs(2);

/// The longest match id a connection's address may name (`/ws?match=ID`); a longer one is not
/// looked at.
const MAX_MATCH_HINT: usize = 64;

pub(crate) async fn websocket(
    State(app): State<App>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    ws: Upgrade,
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
    let hint = query.as_deref().and_then(match_hint).map(str::to_owned);
    ws.on_upgrade(move |upgraded| async move {
        let conn = Conn::of(upgraded);
        // A connection whose address names its match (`/ws?match=ID`, as the match page's and
        // the load tool's do) runs on the thread of that match's shard, where it has one: its
        // frames reach the hub, and the hub's messages its socket, without waking another
        // thread. It may still say hello to any match: the frames of one on another shard go
        // there as from any connection.
        let home = hint
            .as_deref()
            .and_then(|id| app.shards.home_of(id))
            .cloned();
        match (conn, home) {
            (Conn::Tcp(tcp, early), Some(home)) => match tcp.into_std() {
                // Taken from this runtime's reactor and given to the shard's.
                Ok(std) => {
                    home.spawn(async move {
                        match TcpStream::from_std(std) {
                            Ok(tcp) => client(Conn::Tcp(tcp, early), app, account).await,
                            Err(e) => tracing::debug!("websocket: cannot move to its shard: {e}"),
                        }
                    });
                }
                Err(e) => tracing::debug!("websocket: cannot move to its shard: {e}"),
            },
            (conn, _) => client(conn, app, account).await,
        }
    })
}

/// The match a connection's query names (`match=ID`), if it looks like an id.
fn match_hint(query: &str) -> Option<&str> {
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix("match="))
        .filter(|id| {
            !id.is_empty()
                && id.len() <= MAX_MATCH_HINT
                && id
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        })
}

/// A connection: its reader (this task) and its writer (a task of its own). Messages up to 16
/// times the protocol limit are read so that the hub can answer a too large message with an
/// error; anything larger closes the connection (1009).
pub(crate) async fn client(socket: Conn, app: App, account: Option<AccountInfo>) {
    let conn = app.next_conn.fetch_add(1, Ordering::Relaxed);
    let (mut reader, writer, tcp) = socket::split(socket, MAX_CLIENT_MESSAGE * 16);
    let (out_tx, out_rx) = match tcp {
        Some(tcp) => outbox_to(tcp),
        None => outbox(),
    };
    let mut writer = tokio::spawn(write(writer, out_rx, app.started));
    let replies = out_tx.clone();
    // The connection belongs to the shard of the match its last `hello` named (shard 0 before
    // any), or in a cluster to the node that owns that match: `ConnRouter` joins it there.
    let mut router = ConnRouter::new(app.clone(), conn, account, out_tx, true);
    let closing = loop {
        let incoming = match reader.next().await {
            Ok(Some(Received::Text(text))) => Incoming::Text(text),
            Ok(Some(Received::Binary)) => Incoming::Binary,
            Ok(Some(Received::Pong(payload))) => {
                let Ok(bytes) = <[u8; 8]>::try_from(payload.as_ref()) else {
                    continue;
                };
                let sent = Duration::from_micros(u64::from_be_bytes(bytes));
                Incoming::Rtt(app.started.elapsed().saturating_sub(sent))
            }
            Ok(Some(Received::Ping(payload))) => {
                let _ = replies.send(Outgoing::Pong(payload));
                continue;
            }
            // The client closes: the close frame goes back (RFC 6455, section 5.5.1).
            Ok(Some(Received::Close(_))) => break Some(Outgoing::Close),
            Ok(None) | Err(ReadError::Io(_)) => break None,
            Err(ReadError::Protocol(e)) => {
                break Some(Outgoing::Fail(e.close_code(), e.to_string()))
            }
        };
        if !router.take(incoming).await {
            break None;
        }
    };
    router.leave().await;
    let sent = closing.is_some_and(|close| replies.send(close).is_ok());
    drop(replies);
    if !sent || tokio::time::timeout(CLOSING, &mut writer).await.is_err() {
        writer.abort();
    }
}

/// The connection's writer: its queue of messages, and a ping every PING_EVERY (one task and
/// one timer per connection for both). The queue holds only what senders could not write to
/// the socket themselves (`runtime/outbox.rs`: the socket was full, or the writer busy).
/// Whatever is queued by the time it writes goes out with one vectored write (up to
/// WRITE_AT_ONCE bytes and MAX_FRAMES frames); the frames' payloads are the messages' shared
/// bytes, not copied.
async fn write(mut socket: WriteSide, mut out_rx: OutReceiver, started: std::time::Instant) {
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + PING_EVERY, PING_EVERY);
    ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut frames: Vec<Out> = Vec::new();
    loop {
        let first = tokio::select! {
            out = out_rx.recv() => match out {
                Some(out) => out,
                None => return,
            },
            _ = ping.tick() => {
                // Queued, not written here: a sender may be writing to the socket right now.
                let stamp = u64::try_from(started.elapsed().as_micros()).unwrap_or(0);
                out_rx.push(Outgoing::Ping(stamp.to_be_bytes().to_vec()));
                continue;
            }
        };
        let mut next = Some(first);
        let mut bytes = 0;
        let mut last = false;
        while let Some(out) = next {
            let (frame, ends) = Out::of(&out);
            last = ends;
            bytes += frame.payload.len();
            frames.push(frame);
            next = if last || bytes >= WRITE_AT_ONCE || frames.len() == MAX_FRAMES {
                None
            } else {
                out_rx.try_recv()
            };
        }
        let written = socket.write(&frames).await;
        frames.clear();
        if last || written.is_err() {
            socket.shutdown().await;
            return;
        }
        out_rx.done();
    }
}

#[cfg(test)]
mod tests {
    use super::match_hint;

    #[test]
    fn the_match_hint_is_an_id_named_in_the_query() {
        assert_eq!(match_hint("match=Ab3_x-9"), Some("Ab3_x-9"));
        assert_eq!(match_hint("v=2&match=abc"), Some("abc"));
        assert_eq!(match_hint("match="), None);
        assert_eq!(match_hint("match=a%20b"), None);
        assert_eq!(match_hint("matches=abc"), None);
        assert_eq!(match_hint(&format!("match={}", "a".repeat(65))), None);
    }
}
