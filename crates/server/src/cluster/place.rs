//! "Play now" across nodes. A node places a player among the open matches of every node (the
//! merged lobby), so it must seat him in matches other nodes own: it asks the owner over the bus
//! (`place`, answered by `placed` with the seat and its token, which go back to the asking
//! client). And two players asking two nodes at once must not each open a match: placements
//! take turns across the cluster through one Redis key ([`PLAY_TURN_KEY`], `SET NX PX`, freed
//! by its holder or lapsing after [`PLAY_TURN_TTL`] if the holder died), and whoever changed a
//! lobby (seated a player, opened a match) writes its part of the lobby again before the turn
//! passes, so the next placement sees it.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use bughouse_protocol::SeatName;
use redis::Script;
use serde::{Deserialize, Serialize};
use tokio::sync::oneshot;

use super::wire::Wire;
use super::{lease, lock, Cluster};
use crate::hub::{AccountInfo, PlaceError};
use crate::runtime::Command;

/// The key whose holder places players.
const PLAY_TURN_KEY: &str = "bughouse:playnow:turn";

/// How long a turn lives if its holder neither frees it nor dies politely.
const PLAY_TURN_TTL: Duration = Duration::from_millis(5000);

/// How long a node waits for the turn before placing without it (Redis down, or a flood): the
/// player is placed, at worst in a match of his own.
const PLAY_TURN_WAIT: Duration = Duration::from_millis(3000);

/// How long an owner has to answer a `place`.
const PLACE_TIMEOUT: Duration = Duration::from_millis(2000);

/// Frees the turn if this node still holds it.
const FREE_TURN: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
";

/// The turn to place players, held by this node (`None`: placing without it).
#[must_use = "free the turn with Cluster::end_play_turn"]
pub(crate) struct PlayTurn(Option<String>);

/// What a `place` asks of the owner.
#[derive(Serialize, Deserialize)]
struct Ask {
    match_id: String,
    name: String,
    account: Option<(i64, String)>,
}

/// The owner's answer.
#[derive(Serialize, Deserialize)]
pub(super) enum Answer {
    Seated { seat: SeatName, token: String },
    NoSuchMatch,
    Full,
    NameTaken(String),
    BadName,
    SignInRequired,
}

impl From<Result<(SeatName, String), PlaceError>> for Answer {
    fn from(r: Result<(SeatName, String), PlaceError>) -> Answer {
        match r {
            Ok((seat, token)) => Answer::Seated { seat, token },
            Err(PlaceError::NoSuchMatch) => Answer::NoSuchMatch,
            Err(PlaceError::Full) => Answer::Full,
            Err(PlaceError::NameTaken(n)) => Answer::NameTaken(n),
            Err(PlaceError::BadName) => Answer::BadName,
            Err(PlaceError::SignInRequired) => Answer::SignInRequired,
        }
    }
}

impl From<Answer> for Result<(SeatName, String), PlaceError> {
    fn from(a: Answer) -> Self {
        match a {
            Answer::Seated { seat, token } => Ok((seat, token)),
            Answer::NoSuchMatch => Err(PlaceError::NoSuchMatch),
            Answer::Full => Err(PlaceError::Full),
            Answer::NameTaken(n) => Err(PlaceError::NameTaken(n)),
            Answer::BadName => Err(PlaceError::BadName),
            Answer::SignInRequired => Err(PlaceError::SignInRequired),
        }
    }
}

fn random_token() -> String {
    let mut bytes = [0u8; 12];
    let _ = getrandom::fill(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl Cluster {
    /// Waits for the cluster's turn to place players (at most [`PLAY_TURN_WAIT`]).
    pub(crate) async fn play_turn(&self) -> PlayTurn {
        let token = random_token();
        let ttl = u64::try_from(PLAY_TURN_TTL.as_millis()).unwrap_or(5000);
        let deadline = Instant::now() + PLAY_TURN_WAIT;
        let mut redis = self.redis();
        loop {
            let taken: redis::RedisResult<Option<String>> = redis::cmd("SET")
                .arg(PLAY_TURN_KEY)
                .arg(&token)
                .arg("NX")
                .arg("PX")
                .arg(ttl)
                .query_async(&mut redis)
                .await;
            match taken {
                Ok(Some(_)) => return PlayTurn(Some(token)),
                Ok(None) if Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(3)).await;
                }
                Ok(None) => {
                    tracing::warn!("play now: no turn within {PLAY_TURN_WAIT:?}: placing anyway");
                    return PlayTurn(None);
                }
                Err(e) => {
                    tracing::warn!("play now: cannot take the turn ({e}): placing anyway");
                    return PlayTurn(None);
                }
            }
        }
    }

    /// Frees the turn, once this node's part of the lobby shows what the placement changed.
    pub(crate) async fn end_play_turn(&self, turn: PlayTurn) {
        if let Err(e) = self.publish_lobby_part().await {
            tracing::warn!("lobby: cannot write this node's part: {e}");
        }
        if let PlayTurn(Some(token)) = turn {
            let freed: redis::RedisResult<i64> = Script::new(FREE_TURN)
                .key(PLAY_TURN_KEY)
                .arg(token)
                .invoke_async(&mut self.redis())
                .await;
            if let Err(e) = freed {
                tracing::warn!("play now: cannot free the turn (it lapses): {e}");
            }
        }
    }

    /// The node holding a match's lease, if any (and Redis answers).
    pub(crate) async fn owner_of(&self, match_id: &str) -> Option<String> {
        if self.owns(match_id) {
            return Some(self.0.node.clone());
        }
        match lease::holders(&mut self.redis(), &[match_id.to_owned()]).await {
            Ok(h) => h.into_iter().next().flatten(),
            Err(e) => {
                tracing::warn!(%match_id, "cannot read the lease: {e}");
                None
            }
        }
    }

    /// Asks `owner` to seat a player in its waiting match `match_id`: the seat and its token.
    /// No answer within [`PLACE_TIMEOUT`] counts as no such match.
    pub(crate) async fn place_remote(
        &self,
        owner: &str,
        match_id: &str,
        name: &str,
        account: Option<AccountInfo>,
    ) -> Result<(SeatName, String), PlaceError> {
        let request = self.0.next_request.fetch_add(1, Ordering::Relaxed);
        let (reply, answer) = oneshot::channel();
        lock(&self.0.placing).insert(request, reply);
        let ask = Ask {
            match_id: match_id.to_owned(),
            name: name.to_owned(),
            account: account.map(|a| (a.id, a.username)),
        };
        self.send(
            owner,
            &Wire::Place {
                from: self.0.node.clone(),
                request,
                text: serde_json::to_string(&ask).unwrap_or_default(),
            },
        );
        let answer = tokio::time::timeout(PLACE_TIMEOUT, answer).await;
        lock(&self.0.placing).remove(&request);
        match answer {
            Ok(Ok(a)) => a.into(),
            Ok(Err(_)) | Err(_) => {
                tracing::warn!(%owner, %match_id, "play now: the owner did not answer");
                Err(PlaceError::NoSuchMatch)
            }
        }
    }

    /// Owner side: another node asks to seat a player in a match of this node.
    pub(super) fn on_place(&self, from: String, request: u64, text: &str) {
        let Ok(ask) = serde_json::from_str::<Ask>(text) else {
            tracing::warn!(%from, "play now: an unreadable place request");
            return;
        };
        let cluster = self.clone();
        tokio::spawn(async move {
            let result = cluster.place_here(ask).await;
            // The next placement (its node reads the lobby) sees this seat taken.
            if let Err(e) = cluster.publish_lobby_part().await {
                tracing::warn!("lobby: cannot write this node's part: {e}");
            }
            let answer = Answer::from(result);
            cluster.send(
                &from,
                &Wire::Placed {
                    request,
                    text: serde_json::to_string(&answer).unwrap_or_default(),
                },
            );
        });
    }

    async fn place_here(&self, ask: Ask) -> Result<(SeatName, String), PlaceError> {
        let Some(app) = self.app() else {
            return Err(PlaceError::NoSuchMatch);
        };
        if !self.owns(&ask.match_id) {
            return Err(PlaceError::NoSuchMatch);
        }
        let inbox = app.shards.of(&ask.match_id);
        let command = |reply| Command::Place {
            id: ask.match_id.clone(),
            name: ask.name,
            account: ask
                .account
                .map(|(id, username)| AccountInfo { id, username }),
            reply,
        };
        crate::runtime::ask(inbox, command)
            .await
            .unwrap_or(Err(PlaceError::NoSuchMatch))
    }

    /// Asking side: the owner's answer to a `place`.
    pub(super) fn on_placed(&self, request: u64, text: &str) {
        let Some(reply) = lock(&self.0.placing).remove(&request) else {
            return;
        };
        match serde_json::from_str::<Answer>(text) {
            Ok(answer) => {
                let _ = reply.send(answer);
            }
            Err(e) => tracing::warn!("play now: an unreadable answer: {e}"),
        }
    }
}
