//! The lobby across nodes: each node runs the matches it owns, so each summarises its own part
//! (its shards' parts merged) and puts it in Redis every second with a time to live of
//! [`PART_TTL`]; a node's lobby is its own part and the others' parts read there. A node that
//! dies drops out of every lobby when its part lapses.

use std::time::Duration;

use bughouse_protocol::lobby::{LiveGame, OpenMatch};
use serde::{Deserialize, Serialize};

use super::Cluster;
use crate::hub::LobbyPart;
use crate::runtime::Command;

/// How long a node's part lives without being written again.
const PART_TTL: Duration = Duration::from_millis(3000);

/// How often each node writes its part.
const PUBLISH_EVERY: Duration = Duration::from_millis(1000);

/// The nodes that wrote a part (a part that lapsed is dropped from it when found gone).
const NODES_KEY: &str = "bughouse:lobby:nodes";

fn part_key(node: &str) -> String {
    format!("bughouse:lobby:part:{node}")
}

/// A node's part as stored.
#[derive(Serialize, Deserialize)]
struct StoredPart {
    open: Vec<OpenMatch>,
    live: Vec<LiveGame>,
    connections: u64,
    playing: u64,
}

impl Cluster {
    /// The other nodes' parts of the lobby (those that lapsed are forgotten); none when Redis
    /// cannot be read (logged): the lobby then shows this node's part only.
    pub(crate) async fn other_lobby_parts(&self) -> Vec<LobbyPart> {
        let mut redis = self.redis();
        let nodes: Vec<String> = match redis::cmd("SMEMBERS")
            .arg(NODES_KEY)
            .query_async(&mut redis)
            .await
        {
            Ok(nodes) => nodes,
            Err(e) => {
                tracing::warn!("lobby: cannot read the nodes' parts: {e}");
                return Vec::new();
            }
        };
        let others: Vec<String> = nodes.into_iter().filter(|n| n != self.node()).collect();
        if others.is_empty() {
            return Vec::new();
        }
        let keys: Vec<String> = others.iter().map(|n| part_key(n)).collect();
        let found: Vec<Option<String>> =
            match redis::cmd("MGET").arg(keys).query_async(&mut redis).await {
                Ok(found) => found,
                Err(e) => {
                    tracing::warn!("lobby: cannot read the nodes' parts: {e}");
                    return Vec::new();
                }
            };
        let mut parts = Vec::new();
        for (node, part) in others.iter().zip(found) {
            match part.map(|json| serde_json::from_str::<StoredPart>(&json)) {
                Some(Ok(p)) => parts.push(LobbyPart {
                    open: p.open,
                    live: p.live,
                    connections: p.connections,
                    playing: p.playing,
                }),
                Some(Err(e)) => tracing::warn!(%node, "lobby: an unreadable part: {e}"),
                None => {
                    let _: redis::RedisResult<i64> = redis::cmd("SREM")
                        .arg(NODES_KEY)
                        .arg(node)
                        .query_async(&mut redis)
                        .await;
                }
            }
        }
        parts
    }

    /// Writes this node's part of the lobby.
    pub(super) async fn publish_lobby_part(&self) -> Result<(), super::ClusterError> {
        let Some(app) = self.app() else {
            return Ok(());
        };
        let mut part = StoredPart {
            open: Vec::new(),
            live: Vec::new(),
            connections: 0,
            playing: 0,
        };
        for index in 0..app.shards.count() {
            let Some(p) =
                crate::runtime::ask(app.shards.at(index), |reply| Command::Lobby { reply }).await
            else {
                return Ok(());
            };
            part.open.extend(p.open);
            part.live.extend(p.live);
            part.connections += p.connections;
            part.playing += p.playing;
        }
        let json = serde_json::to_string(&part).unwrap_or_default();
        let mut redis = self.redis();
        let ttl = u64::try_from(PART_TTL.as_millis()).unwrap_or(3000);
        redis::pipe()
            .cmd("SET")
            .arg(part_key(self.node()))
            .arg(json)
            .arg("PX")
            .arg(ttl)
            .ignore()
            .cmd("SADD")
            .arg(NODES_KEY)
            .arg(self.node())
            .ignore()
            .query_async::<()>(&mut redis)
            .await?;
        Ok(())
    }
}

/// Writes this node's part of the lobby every [`PUBLISH_EVERY`].
pub(crate) async fn publish(cluster: Cluster) {
    let mut every = tokio::time::interval(PUBLISH_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        if cluster.stopping() {
            return;
        }
        if let Err(e) = cluster.publish_lobby_part().await {
            tracing::warn!("lobby: cannot write this node's part: {e}");
        }
    }
}
