//! A simulated player of the crash test: sits, plays random legal moves with an id for each
//! action, and after every loss of the connection comes back with its seat token and sends again
//! every action not yet acknowledged; it notes what it was told (acknowledged moves, results).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use bughouse_protocol::{
    BoardName, BoardState, ClientFrame, ClientMessage, ErrorCode, SeatName, ServerMessage, UciList,
};
use bughouse_ws::Incoming;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tokio::sync::watch;

use super::{END_PATIENCE, THINK_MS};
use crate::client::{pick, send, Target};

/// A move acknowledged to a player.
#[derive(Debug, Clone)]
pub(super) struct AckedMove {
    pub(super) id: u64,
    pub(super) uci: String,
    /// Its ply, when the player saw it played on the connection that got the `ack`.
    pub(super) ply: Option<usize>,
}

/// What one player saw over the whole run.
#[derive(Debug, Default)]
pub(super) struct PlayerLog {
    pub(super) match_index: usize,
    pub(super) seat: usize,
    pub(super) acked: Vec<AckedMove>,
    /// Results reported to it (`ended`, or the state of a finished match), `*` left out.
    pub(super) results: Vec<String>,
    /// Whether it saw its match end.
    pub(super) finished: bool,
    /// Whether it got its seat.
    pub(super) seated: bool,
    /// Refusals of its actions, by error code.
    pub(super) refused: BTreeMap<String, u64>,
    /// Connections opened after the first.
    pub(super) reconnects: u64,
    /// Actions sent again after a reconnection.
    pub(super) resent: u64,
    /// `hello` with its token that did not give it its seat back.
    pub(super) token_refused: u64,
    /// An `ack` for an id it had no action waiting for.
    pub(super) stray_acks: u64,
}

/// An action sent and not answered yet.
struct Pending {
    id: u64,
    msg: ClientMessage,
    /// For a move: its ply as seen in `moved` on connection `generation`.
    seen: Option<(u64, usize)>,
}

/// What the players share.
pub(super) struct Shared {
    pub(super) target: Target,
    /// Players that saw their match end.
    pub(super) finished: AtomicUsize,
    /// Players seated.
    pub(super) seated: AtomicUsize,
}

/// One simulated player: sits, plays random legal moves when it is his turn, reconnects and
/// resends after every loss of the connection, until his match ends or `stop`.
pub(super) async fn player(
    shared: Arc<Shared>,
    match_id: String,
    match_index: usize,
    seat: usize,
    seed: u64,
    mut stop: watch::Receiver<bool>,
) -> PlayerLog {
    let mut log = PlayerLog {
        match_index,
        seat,
        ..PlayerLog::default()
    };
    let mut rng = StdRng::seed_from_u64(seed);
    let me = SeatName::ALL[seat];
    let my_board = BoardName::ALL[seat / 2];
    let mut token: Option<String> = None;
    let mut next_id: u64 = 1;
    let mut pending: Vec<Pending> = Vec::new();
    let mut generation: u64 = 0;
    let mut done = false;
    'connection: loop {
        if *stop.borrow() {
            break;
        }
        let mut ws = match shared.target.connect(&match_id).await {
            Ok(ws) => ws,
            Err(_) => {
                let pause = Duration::from_millis(rng.gen_range(50..=200));
                tokio::select! {
                    _ = stop.changed() => break,
                    () = tokio::time::sleep(pause) => continue,
                }
            }
        };
        generation += 1;
        if generation > 1 {
            log.reconnects += 1;
        }
        let hello = ClientMessage::Hello {
            match_id: match_id.clone(),
            token: token.clone(),
        };
        if send(&mut ws, &hello.into()).await.is_err() {
            continue;
        }
        if token.is_none()
            && !pending
                .iter()
                .any(|p| matches!(p.msg, ClientMessage::Sit { .. }))
        {
            pending.push(Pending {
                id: next_id,
                msg: ClientMessage::Sit {
                    seat: me,
                    name: format!("chaos{match_index}-{seat}"),
                },
                seen: None,
            });
            next_id += 1;
        } else if generation > 1 {
            log.resent += pending.len() as u64;
        }
        for p in &pending {
            let frame = ClientFrame {
                id: Some(p.id),
                msg: p.msg.clone(),
            };
            if send(&mut ws, &frame).await.is_err() {
                continue 'connection;
            }
        }
        let mut legal: Option<UciList> = None;
        let mut due: Option<tokio::time::Instant> = None;
        let mut give_up: Option<tokio::time::Instant> = None;
        loop {
            if done && pending.is_empty() {
                break 'connection;
            }
            if done && give_up.is_none() {
                give_up = Some(tokio::time::Instant::now() + END_PATIENCE);
            }
            let moving = pending
                .iter()
                .any(|p| matches!(p.msg, ClientMessage::Move { .. }));
            if !done
                && token.is_some()
                && !moving
                && due.is_none()
                && legal.as_ref().is_some_and(|l| !l.is_empty())
            {
                due = Some(
                    tokio::time::Instant::now() + Duration::from_millis(rng.gen_range(THINK_MS)),
                );
            }
            let far = tokio::time::Instant::now() + Duration::from_secs(3600);
            let wake = due.unwrap_or(far).min(give_up.unwrap_or(far));
            let frame = tokio::select! {
                _ = stop.changed() => break 'connection,
                () = tokio::time::sleep_until(wake) => None,
                f = ws.next() => Some(f),
            };
            let Some(frame) = frame else {
                // A timer: the end of the patience, or a move that is due.
                if give_up.is_some_and(|g| g <= tokio::time::Instant::now()) {
                    break 'connection;
                }
                due = None;
                if done || moving || token.is_none() {
                    continue;
                }
                let Some(moves) = legal.as_ref().filter(|l| !l.is_empty()) else {
                    continue;
                };
                let uci = pick(moves, &mut rng);
                let msg = ClientMessage::Move { uci };
                let id = next_id;
                next_id += 1;
                pending.push(Pending {
                    id,
                    msg: msg.clone(),
                    seen: None,
                });
                if send(&mut ws, &ClientFrame { id: Some(id), msg })
                    .await
                    .is_err()
                {
                    continue 'connection;
                }
                continue;
            };
            let text = match frame {
                Ok(Some(Incoming::Text(t))) => t,
                Ok(Some(Incoming::Close(_)) | None) | Err(_) => continue 'connection,
                Ok(Some(Incoming::Binary(_))) => continue,
            };
            let Ok(msg) = serde_json::from_str::<ServerMessage>(text) else {
                continue;
            };
            match msg {
                ServerMessage::State { state, you } => {
                    if token.is_some() && you != Some(me) && state.status != "finished" {
                        log.token_refused += 1;
                    }
                    if state.status == "finished" {
                        if let Some(r) = state.result.filter(|r| r.result != "*") {
                            log.results.push(r.result);
                        }
                        done = true;
                    }
                    legal = board_legal(&state.boards, my_board).unwrap_or(None);
                }
                ServerMessage::Seated { seat: s, token: t } if s == me => {
                    token = Some(t);
                    if !log.seated {
                        log.seated = true;
                        shared.seated.fetch_add(1, Ordering::Relaxed);
                    }
                }
                ServerMessage::Moved {
                    mv, board, other, ..
                } => {
                    if mv.seat == me {
                        if let Some(p) = pending.iter_mut().rev().find(
                            |p| matches!(&p.msg, ClientMessage::Move { uci } if *uci == mv.uci),
                        ) {
                            p.seen = Some((generation, mv.ply));
                        }
                    }
                    if let Some(l) = board_legal(&[board, other], my_board) {
                        legal = l;
                    }
                }
                ServerMessage::Ended { result, .. } if result.result != "*" => {
                    log.results.push(result.result);
                    done = true;
                }
                ServerMessage::Ack { id, .. } => match pending.iter().position(|p| p.id == id) {
                    Some(i) => {
                        let p = pending.remove(i);
                        if let ClientMessage::Move { uci } = p.msg {
                            let ply = p.seen.filter(|s| s.0 == generation).map(|s| s.1);
                            log.acked.push(AckedMove { id, uci, ply });
                        }
                    }
                    None => log.stray_acks += 1,
                },
                ServerMessage::Error { code, id, .. } => {
                    *log.refused.entry(code.to_string()).or_insert(0) += 1;
                    if let Some(id) = id {
                        pending.retain(|p| p.id != id);
                    }
                    if code == ErrorCode::NoSuchMatch {
                        // The match is gone: nothing to play; the check reports it.
                        break 'connection;
                    }
                }
                _ => {}
            }
        }
    }
    if done {
        log.finished = true;
        shared.finished.fetch_add(1, Ordering::Relaxed);
    }
    log
}

/// The legal moves for us among these boards, if one of them is ours: `Some(None)` when it is
/// not our turn there.
fn board_legal(boards: &[BoardState], mine: BoardName) -> Option<Option<UciList>> {
    boards
        .iter()
        .find(|b| b.board == mine)
        .map(|b| b.legal.clone())
}
