//! Bots in the server's seats: the adapter side of [`Effect::BotTurn`](crate::hub::Effect).
//!
//! The hub asks for a bot's move with a copy of the match; [`BotRunner`] runs the engine
//! (`bughouse-engine`'s [`TeamBot`], one per bot seat, kept between turns) on the blocking
//! thread pool, at most one search per core at a time, and answers the hub with
//! [`Input::Bot`]. A bot that sits is woken after the time it asked for
//! ([`Input::BotWake`]); the hub also asks again when the other board changes. The thinking
//! time is real: the hub plays the move at the moment the answer arrives, so the bot's clock
//! is charged exactly like a person's (no lag compensation).
//!
//! A bot's move is played no sooner than [`pace`] after it was asked: a weak level finds its
//! move in a fraction of a millisecond, and two such bots facing each other on one board
//! played thousands of plies a second (12,348 in two seconds at `1+0` in a CI run), deciding
//! the match before a person on the other board had moved and flooding every screen watching.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use bughouse_core::{Role, Seat, TimeControl};
use bughouse_engine::{Action, Level, Limits, SearchConfig, Talk, TeamBot};
use bughouse_protocol::{Piece, TalkKind};
use tokio::sync::{mpsc, Semaphore};

use crate::hub::{BotReply, BotTalk, BotTurn, Input};

/// Transposition table of one bot seat, in MiB.
const BOT_HASH_MB: usize = 8;

/// Runs bot turns and sends the answers to the hub.
#[derive(Clone)]
pub(crate) struct BotRunner {
    to_hub: mpsc::Sender<Input>,
    engines: Arc<Mutex<HashMap<(String, Seat), TeamBot>>>,
    cores: Arc<Semaphore>,
}

impl BotRunner {
    /// A runner whose answers go to `to_hub`.
    pub(crate) fn new(to_hub: mpsc::Sender<Input>) -> BotRunner {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        BotRunner {
            to_hub,
            engines: Arc::default(),
            cores: Arc::new(Semaphore::new(cores)),
        }
    }

    /// Thinks for the bot of `turn` and answers the hub.
    pub(crate) fn turn(&self, turn: BotTurn) {
        let runner = self.clone();
        tokio::spawn(async move {
            let asked = Instant::now();
            let Ok(core) = runner.cores.clone().acquire_owned().await else {
                return;
            };
            let engines = runner.engines.clone();
            let match_id = turn.match_id.clone();
            let (seat, ply) = (turn.seat, turn.ply);
            let least = pace(turn.game.time_control());
            let thought = tokio::task::spawn_blocking(move || think(&engines, turn, asked)).await;
            // The core is free for other bots' searches while this one waits.
            drop(core);
            let Ok(Thought {
                uci,
                talk,
                recheck,
                budget,
                left,
            }) = thought
            else {
                tracing::error!(%match_id, %seat, "a bot's search failed");
                return;
            };
            let sits = uci.is_none();
            if !sits {
                // The wait is on the bot's clock, as its thinking is.
                tokio::time::sleep(wait(least, budget, left, asked.elapsed())).await;
            }
            let reply = BotReply {
                match_id: match_id.clone(),
                seat,
                ply,
                uci,
                talk,
            };
            if runner.to_hub.send(Input::Bot(reply)).await.is_err() {
                return;
            }
            if sits {
                tokio::time::sleep(recheck).await;
                let _ = runner.to_hub.send(Input::BotWake { match_id, seat }).await;
            }
        });
    }

    /// Frees the engines of a finished match.
    pub(crate) fn forget(&self, match_id: &str) {
        self.engines
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|(id, _), _| id != match_id);
    }
}

/// The least time a bot takes for a move: a two-hundredth of the time a player has for forty
/// moves (the base and forty increments): 300 ms at `1+0`, 800 ms at `2+1`; at least 50 ms and
/// at most one second. At that pace sixty moves cost a bot under a third of its clock.
pub(crate) fn pace(tc: TimeControl) -> Duration {
    ((tc.base + tc.increment * 40) / 200).clamp(Duration::from_millis(50), Duration::from_secs(1))
}

/// How long a bot's move waits once found, `elapsed` after the bot was asked: until [`pace`]
/// (`least`), but never beyond the time the bot gave itself for the move (`budget`, less when
/// it is short of time, behind on the clock or its partner waits for a piece) nor a quarter of
/// the time it has `left` (the budget has a floor of a few milliseconds).
pub(crate) fn wait(
    least: Duration,
    budget: Duration,
    left: Duration,
    elapsed: Duration,
) -> Duration {
    least.min(budget).min(left / 4).saturating_sub(elapsed)
}

/// What one search decided.
struct Thought {
    /// The move, or `None` to sit.
    uci: Option<String>,
    /// What the bot says.
    talk: Vec<BotTalk>,
    /// When to look again if it sits.
    recheck: Duration,
    /// The time the bot gave itself for the move, from its clock.
    budget: Duration,
    /// The time it had left when it began.
    left: Duration,
}

/// One search.
fn think(
    engines: &Mutex<HashMap<(String, Seat), TeamBot>>,
    turn: BotTurn,
    asked: Instant,
) -> Thought {
    let key = (turn.match_id.clone(), turn.seat);
    let taken = engines
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .remove(&key);
    let mut bot = taken.unwrap_or_else(|| {
        let level = Level::new(turn.level).unwrap_or(Level::DEFAULT);
        let mut seed = std::collections::hash_map::DefaultHasher::new();
        key.hash(&mut seed);
        let mut bot = TeamBot::with_hash(level, seed.finish(), BOT_HASH_MB);
        // People can sit, and the bot is told nothing otherwise. But keeping pace with sitters
        // (`SearchConfig::pace_sitters`) was measured only against Fairy-Stockfish's team:
        // here bots keep the time use they had, and the pace people can follow ([`pace`]),
        // until it is measured against people.
        bot.set_search_config(SearchConfig {
            pace_sitters: None,
            ..SearchConfig::DEFAULT
        });
        bot
    });
    for (kind, piece) in &turn.heard {
        if let Some(talk) = talk_from(*kind, *piece) {
            bot.hear(talk);
        }
    }
    // Time spent waiting for a free core is on the bot's clock already.
    let at = turn.at + asked.elapsed();
    let budget = bot.budget(&turn.game, turn.seat, at);
    let left = turn.game.remaining(turn.seat, at);
    let decision = bot.decide(
        &turn.game,
        turn.seat,
        at,
        Limits {
            deadline: Some(Instant::now() + budget),
            ..Limits::default()
        },
    );
    engines
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(key, bot);
    let uci = match decision.action {
        Action::Move(m) => Some(m.to_string()),
        Action::Sit => None,
    };
    let talk = decision.talk.iter().map(|t| talk_to(*t)).collect();
    let recheck = decision.recheck.unwrap_or(Duration::from_millis(300));
    Thought {
        uci,
        talk,
        recheck,
        budget,
        left,
    }
}

/// A partner's message as the engine hears it.
pub(crate) fn talk_from(kind: TalkKind, piece: Option<Piece>) -> Option<Talk> {
    let role = || {
        Some(match piece? {
            Piece::Pawn => Role::Pawn,
            Piece::Knight => Role::Knight,
            Piece::Bishop => Role::Bishop,
            Piece::Rook => Role::Rook,
            Piece::Queen => Role::Queen,
        })
    };
    Some(match kind {
        TalkKind::Need => Talk::Need(role()?),
        TalkKind::DontGive => Talk::DontGive(role()?),
        TalkKind::Sit => Talk::Sit,
        TalkKind::Go => Talk::Go,
        TalkKind::Flag => Talk::Flag,
        TalkKind::Text => return None,
    })
}

/// An engine message as the protocol says it.
pub(crate) fn talk_to(talk: Talk) -> BotTalk {
    let letter = |r: Role| {
        Some(match r {
            Role::Pawn => Piece::Pawn,
            Role::Knight => Piece::Knight,
            Role::Bishop => Piece::Bishop,
            Role::Rook => Piece::Rook,
            // A king is never asked for; a queen stands for the strongest piece.
            Role::Queen | Role::King => Piece::Queen,
        })
    };
    match talk {
        Talk::Need(r) => (TalkKind::Need, letter(r)),
        Talk::DontGive(r) => (TalkKind::DontGive, letter(r)),
        Talk::Sit => (TalkKind::Sit, None),
        Talk::Go => (TalkKind::Go, None),
        Talk::Flag => (TalkKind::Flag, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn talk_crosses_between_protocol_and_engine() {
        for talk in [
            Talk::Need(Role::Knight),
            Talk::DontGive(Role::Queen),
            Talk::Sit,
            Talk::Go,
            Talk::Flag,
        ] {
            let (kind, piece) = talk_to(talk);
            assert_eq!(talk_from(kind, piece), Some(talk));
        }
        assert_eq!(talk_from(TalkKind::Need, None), None);
        assert_eq!(talk_from(TalkKind::Text, Some(Piece::Knight)), None);
        assert!(
            "x".parse::<Piece>().is_err(),
            "an unknown piece letter is refused at the edge"
        );
        assert_eq!(talk_from(TalkKind::Text, None), None);
    }

    #[test]
    fn a_bot_takes_a_two_hundredth_of_forty_moves_time_for_a_move_within_bounds() {
        let tc = |s: &str| s.parse::<TimeControl>().unwrap();
        assert_eq!(pace(tc("1+0")), Duration::from_millis(300));
        assert_eq!(pace(tc("2+1")), Duration::from_millis(800));
        assert_eq!(pace(tc("10s+0")), Duration::from_millis(50));
        // Tiny bases still leave people time to follow; long games no more than a second.
        assert_eq!(pace(tc("1s+0")), Duration::from_millis(50));
        assert_eq!(pace(tc("1s+60")), Duration::from_secs(1));
        assert_eq!(pace(tc("15+10")), Duration::from_secs(1));
    }

    #[test]
    fn a_found_move_waits_for_the_pace_within_the_bots_own_time() {
        let ms = Duration::from_millis;
        // Found after 20 ms: it waits until the pace.
        assert_eq!(wait(ms(300), ms(2_000), ms(60_000), ms(20)), ms(280));
        // Found after the pace: it goes at once.
        assert_eq!(wait(ms(300), ms(2_000), ms(60_000), ms(400)), ms(0));
        // Short of time: no longer than the budget it gave itself...
        assert_eq!(wait(ms(300), ms(100), ms(1_000), ms(20)), ms(80));
        // ... nor than a quarter of what it has left (the budget's floor is above that).
        assert_eq!(wait(ms(300), ms(5), ms(8), ms(0)), ms(2));
    }

    #[test]
    fn the_hub_offers_the_engine_levels() {
        assert_eq!(
            Level::new(*crate::hub::BOT_LEVELS.start()),
            Some(Level::MIN)
        );
        assert_eq!(Level::new(*crate::hub::BOT_LEVELS.end()), Some(Level::MAX));
    }
}
