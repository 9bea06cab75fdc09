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

/// How long the node key of `node` has to live, milliseconds (`None`: there is none).
pub(crate) async fn node_ttl(
    redis: &mut ConnectionManager,
    node: &str,
) -> redis::RedisResult<Option<i64>> {
    let ttl: i64 = redis::cmd("PTTL")
        .arg(node_key(node))
        .query_async(redis)
        .await?;
    Ok((ttl >= 0).then_some(ttl))
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

#[cfg(test)]
mod tests {
    //! Against the test Redis (`BUGHOUSE_TEST_REDIS_URL`, started by .ci/redis.sh; skipped with a
    //! note when unset, a failure under `CI`).
    use super::*;

    async fn redis() -> Option<redis::Client> {
        let Ok(url) = std::env::var("BUGHOUSE_TEST_REDIS_URL") else {
            assert!(
                std::env::var_os("CI").is_none(),
                "BUGHOUSE_TEST_REDIS_URL must be set under CI (.ci/redis.sh)"
            );
            eprintln!("skipped: set BUGHOUSE_TEST_REDIS_URL (eval \"$(bash .ci/redis.sh)\")");
            return None;
        };
        Some(redis::Client::open(url).expect("a Redis URL"))
    }

    fn unique() -> u128 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("after 1970")
            .as_nanos()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn of_nodes_racing_for_a_free_lease_exactly_one_wins() {
        let Some(client) = redis().await else {
            return;
        };
        for round in 0..25 {
            let id = format!("race-{}-{round}", unique());
            let mut racers = Vec::new();
            for node in ["a", "b", "c"] {
                let mut redis = client.get_connection_manager().await.expect("Redis");
                let id = id.clone();
                racers.push(tokio::spawn(async move {
                    acquire(&mut redis, node, &id)
                        .await
                        .expect("the script runs")
                        .map(|previous| (node, previous))
                }));
            }
            let mut winners = Vec::new();
            for racer in racers {
                if let Some(won) = racer.await.expect("the racer ends") {
                    winners.push(won);
                }
            }
            assert_eq!(winners.len(), 1, "round {round}: {winners:?}");
            let (winner, previous) = winners.pop().expect("one winner");
            assert_eq!(previous, "", "nobody owned it before");
            let mut redis = client.get_connection_manager().await.expect("Redis");
            let ids = [id.clone()];
            assert_eq!(
                holders(&mut redis, &ids).await.expect("MGET"),
                [Some(winner.to_owned())]
            );
            // Only the holder renews it; another node finds it lost; only the holder releases
            // it, and the next taker learns who had it.
            assert!(renew(&mut redis, winner, &ids)
                .await
                .expect("renew")
                .is_empty());
            let other = if winner == "a" { "b" } else { "a" };
            assert_eq!(renew(&mut redis, other, &ids).await.expect("renew"), ids);
            release(&mut redis, other, &id).await.expect("release");
            assert_eq!(
                acquire(&mut redis, other, &id).await.expect("acquire"),
                None
            );
            release(&mut redis, winner, &id).await.expect("release");
            assert_eq!(
                acquire(&mut redis, other, &id).await.expect("acquire"),
                Some(winner.to_owned())
            );
            let _: () = redis::cmd("DEL")
                .arg(lease_key(&id))
                .arg(owner_key(&id))
                .query_async(&mut redis)
                .await
                .expect("DEL");
        }
    }

    #[tokio::test]
    async fn a_lease_not_renewed_lapses() {
        let Some(client) = redis().await else {
            return;
        };
        let mut redis = client.get_connection_manager().await.expect("Redis");
        let id = format!("lapse-{}", unique());
        assert!(acquire(&mut redis, "a", &id)
            .await
            .expect("acquire")
            .is_some());
        let ttl: i64 = redis::cmd("PTTL")
            .arg(lease_key(&id))
            .query_async(&mut redis)
            .await
            .expect("PTTL");
        assert!(ttl > 0 && ttl <= 5000, "{ttl}");
        // Shortened to see it lapse: the same key, a time to live of 50 ms.
        let _: () = redis::cmd("PEXPIRE")
            .arg(lease_key(&id))
            .arg(50)
            .query_async(&mut redis)
            .await
            .expect("PEXPIRE");
        tokio::time::sleep(Duration::from_millis(120)).await;
        assert_eq!(
            acquire(&mut redis, "b", &id).await.expect("acquire"),
            Some("a".into())
        );
    }
}
