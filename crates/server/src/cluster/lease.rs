//! Who owns a match: a lease in Redis, `bughouse:lease:ID` = the owner's node id, set with `NX`
//! (exactly one taker wins) and a time to live of [`LEASE`], renewed every [`RENEW_EVERY`] by a
//! check-and-extend script. `bughouse:owner:ID` (no expiry) keeps the last owner, whose heartbeat
//! tells a taker from when the match's clocks resume.
//!
//! The bound: a node that dies stops renewing, so its leases lapse at most [`LEASE`] after its
//! last renewal, and another node takes each match over within [`SCAN_EVERY`] of that (or at
//! once when a client says hello to it). A node that cannot renew for [`SELF_FENCE`] (Redis
//! unreachable, the process stalled) stops its matches itself: it counts from the moment it
//! *sent* its last successful renewal, which is before Redis started the lease's new time to
//! live, so it stops [`LEASE`] − [`SELF_FENCE`] (2 s) before any other node can take over, and
//! never applies or stores anything for those matches again.

use std::time::Duration;

use redis::aio::ConnectionManager;
use redis::Script;

/// How long a lease lives without renewal.
pub(crate) const LEASE: Duration = Duration::from_millis(5000);

/// How often the owner renews its leases (and its node key).
pub(crate) const RENEW_EVERY: Duration = Duration::from_millis(1000);

/// How long after its last successful renewal an owner stops its matches.
pub(crate) const SELF_FENCE: Duration = Duration::from_millis(3000);

/// How often each node looks for matches in progress that nobody owns.
pub(crate) const SCAN_EVERY: Duration = Duration::from_millis(1000);

/// The lease of a match.
pub(crate) fn lease_key(match_id: &str) -> String {
    format!("bughouse:lease:{match_id}")
}

/// The last owner of a match.
pub(crate) fn owner_key(match_id: &str) -> String {
    format!("bughouse:owner:{match_id}")
}

/// A node's sign of life (same time to live as the leases).
pub(crate) fn node_key(node: &str) -> String {
    format!("bughouse:node:{node}")
}

/// A node's inbox channel.
pub(crate) fn inbox_channel(node: &str) -> String {
    format!("bughouse:inbox:{node}")
}

/// Takes the lease of a match if nobody holds it; on success also records this node as the
/// last owner and returns the one before (`Ok(Some(previous))`, `previous` empty if none).
/// `Ok(None)`: another node holds it.
const ACQUIRE: &str = r"
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  local previous = redis.call('GET', KEYS[2]) or ''
  redis.call('SET', KEYS[2], ARGV[1])
  return {previous}
end
return false
";

/// Extends each lease still held by this node; returns the keys that are not (lost).
const RENEW: &str = r"
local lost = {}
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  else
    table.insert(lost, key)
  end
end
return lost
";

/// Deletes a lease if this node holds it.
const RELEASE: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
";

fn lease_ms() -> u64 {
    u64::try_from(LEASE.as_millis()).unwrap_or(5000)
}

/// Takes the lease of `match_id` for `node` if it is free: `Some(previous owner)` (empty if
/// none) when taken, `None` when another node holds it.
pub(crate) async fn acquire(
    redis: &mut ConnectionManager,
    node: &str,
    match_id: &str,
) -> redis::RedisResult<Option<String>> {
    let taken: Option<Vec<String>> = Script::new(ACQUIRE)
        .key(lease_key(match_id))
        .key(owner_key(match_id))
        .arg(node)
        .arg(lease_ms())
        .invoke_async(redis)
        .await?;
    Ok(taken.map(|mut previous| previous.pop().unwrap_or_default()))
}

/// Renews the leases of `match_ids` held by `node` and its node key; the ids whose lease it
/// does not hold any more.
pub(crate) async fn renew(
    redis: &mut ConnectionManager,
    node: &str,
    match_ids: &[String],
) -> redis::RedisResult<Vec<String>> {
    let () = redis::cmd("SET")
        .arg(node_key(node))
        .arg(node)
        .arg("PX")
        .arg(lease_ms())
        .query_async(redis)
        .await?;
    if match_ids.is_empty() {
        return Ok(Vec::new());
    }
    let script = Script::new(RENEW);
    let mut invocation = script.prepare_invoke();
    for id in match_ids {
        invocation.key(lease_key(id));
    }
    invocation.arg(node).arg(lease_ms());
    let lost: Vec<String> = invocation.invoke_async(redis).await?;
    let prefix = lease_key("");
    Ok(lost
        .into_iter()
        .map(|k| k.strip_prefix(&prefix).unwrap_or(&k).to_owned())
        .collect())
}

/// Gives up the lease of `match_id` if `node` holds it.
pub(crate) async fn release(
    redis: &mut ConnectionManager,
    node: &str,
    match_id: &str,
) -> redis::RedisResult<()> {
    let _: i64 = Script::new(RELEASE)
        .key(lease_key(match_id))
        .arg(node)
        .invoke_async(redis)
        .await?;
    Ok(())
}

/// The holder of each lease (`None`: free), in the order of `match_ids`.
pub(crate) async fn holders(
    redis: &mut ConnectionManager,
    match_ids: &[String],
) -> redis::RedisResult<Vec<Option<String>>> {
    if match_ids.is_empty() {
        return Ok(Vec::new());
    }
    let keys: Vec<String> = match_ids.iter().map(|id| lease_key(id)).collect();
    redis::cmd("MGET").arg(keys).query_async(redis).await
}

/// Whether each node is alive (its node key not lapsed), in the order of `nodes`.
pub(crate) async fn alive(
    redis: &mut ConnectionManager,
    nodes: &[String],
) -> redis::RedisResult<Vec<bool>> {
    if nodes.is_empty() {
        return Ok(Vec::new());
    }
    let keys: Vec<String> = nodes.iter().map(|n| node_key(n)).collect();
    let found: Vec<Option<String>> = redis::cmd("MGET").arg(keys).query_async(redis).await?;
    Ok(found.into_iter().map(|v| v.is_some()).collect())
}
