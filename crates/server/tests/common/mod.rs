//! What the in-process hub tests share: reading the messages out of a hub's effects.

// Each test binary uses what it needs of these.
#![allow(dead_code)]

use bughouse_protocol::ServerMessage;
use bughouse_server::hub::{ConnId, Effect};

/// The messages sent to `conn`.
pub fn to(fx: &[Effect], conn: ConnId) -> Vec<ServerMessage> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Send(to, msg) if to.contains(&conn) => Some(msg.clone()),
            _ => None,
        })
        .collect()
}

/// The code of the first error sent to `conn`.
pub fn error_code(fx: &[Effect], conn: ConnId) -> Option<String> {
    to(fx, conn).into_iter().find_map(|m| match m {
        ServerMessage::Error { code, .. } => Some(code.to_string()),
        _ => None,
    })
}
