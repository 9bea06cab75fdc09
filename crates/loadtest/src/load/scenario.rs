//! One match of the load test: its four players (one websocket each) say `hello` and sit, play
//! random legal moves `move_every` after their turn comes, and time each move from the mover's
//! send to its arrival at the opponent; an ended match is replaced at once on the same
//! connections.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

use bughouse_protocol::{BoardName, ClientMessage, SeatName, ServerMessage, Status, UciList};
use bughouse_ws::Incoming;
use rand::rngs::StdRng;
use rand::SeedableRng;

use super::lite;
use super::worker::Plan;
use super::REPLACE_MARGIN;
use crate::client::{pick, send, ClientError, Ws};
use crate::stats::{bump, Stats};

/// One seat's simulated player (his websocket is kept apart, in the match's `socks`: a message
/// read is lent by it while the player's state changes).
struct Player {
    /// Whether the connection has seen the current match's `state` (messages before it are of
    /// the previous match).
    joined: bool,
    /// The legal moves while it is this player's turn.
    legal: Option<UciList>,
    /// When he moves.
    due: Option<Instant>,
    /// He sent a move and waits to see it played.
    awaiting: bool,
}

/// One match: create it, open its four connections, play until the end of the run, replacing
/// it whenever it ends.
pub(super) async fn run_match(plan: Arc<Plan>, stats: Arc<Stats>, index: usize, start: Instant) {
    if start >= plan.end {
        stats.setup_done(plan.clock);
        return;
    }
    tokio::time::sleep_until(tokio::time::Instant::from_std(start)).await;
    let nodes = plan.target.len().max(1);
    let mut match_id = match plan.target[index % nodes]
        .create_match(&plan.rules, &plan.time_control)
        .await
    {
        Ok(id) => {
            bump(&stats.matches_created);
            id
        }
        Err(e) => {
            if stats.create_errors.fetch_add(1, Ordering::Relaxed) < 5 {
                eprintln!("create match: {e}");
            }
            stats.setup_done(plan.clock);
            return;
        }
    };
    let mut players: Vec<Player> = Vec::with_capacity(4);
    let mut socks: Vec<Ws> = Vec::with_capacity(4);
    for seat in 0..4 {
        let mut ws = match plan.target[(index + seat) % nodes].connect(&match_id).await {
            Ok(ws) => ws,
            Err(e) => {
                if stats.connect_errors.fetch_add(1, Ordering::Relaxed) < 5 {
                    eprintln!("connect: {e}");
                }
                for _ in &players {
                    stats.disconnected();
                }
                stats.setup_done(plan.clock);
                return;
            }
        };
        stats.connected();
        if join(&mut ws, &match_id, seat, index).await.is_err() {
            bump(&stats.socket_errors);
            for _ in 0..=socks.len() {
                stats.disconnected();
            }
            stats.setup_done(plan.clock);
            return;
        }
        socks.push(ws);
        players.push(Player {
            joined: false,
            legal: None,
            due: None,
            awaiting: false,
        });
    }
    stats.setup_done(plan.clock);
    let (Ok(mut players), Ok(mut socks)) =
        (<[Player; 4]>::try_from(players), <[Ws; 4]>::try_from(socks))
    else {
        return;
    };
    let mut rng = StdRng::from_entropy();
    let end = tokio::time::Instant::from_std(plan.end);
    // Per board: when the last move was sent, and which.
    let mut pending: [Option<(Instant, String)>; 2] = [None, None];
    let mut started = false;
    let mut over = false;
    let mut open = 4;
    loop {
        let wake = players
            .iter()
            .filter_map(|p| p.due)
            .min()
            .map_or(end, |t| tokio::time::Instant::from_std(t).min(end));
        let (i, frame) = {
            let [s0, s1, s2, s3] = &mut socks;
            tokio::select! {
                f = s0.next() => (0, f),
                f = s1.next() => (1, f),
                f = s2.next() => (2, f),
                f = s3.next() => (3, f),
                () = tokio::time::sleep_until(wake) => (usize::MAX, Ok(None)),
            }
        };
        let now = Instant::now();
        if now >= plan.end {
            // The end of the run: the connections count as open until the end.
            return;
        }
        if i == usize::MAX {
            // Moves that are due.
            for (seat, p) in players.iter_mut().enumerate() {
                if p.due.is_some_and(|d| d <= now) {
                    p.due = None;
                    let Some(legal) = p.legal.take() else {
                        continue;
                    };
                    let uci = pick(&legal, &mut rng);
                    let text = serde_json::to_string(&ClientMessage::Move { uci: uci.clone() })
                        .unwrap_or_default();
                    let sent = Instant::now();
                    // Sent without the time limit of `client::send`: the latency clock runs.
                    if socks[seat].send_text(&text).await.is_err() {
                        bump(&stats.socket_errors);
                        stats.disconnected();
                        open -= 1;
                        continue;
                    }
                    pending[seat / 2] = Some((sent, uci));
                    p.awaiting = true;
                    bump(&stats.moves_sent);
                }
            }
            if open < 4 {
                break;
            }
            continue;
        }
        let text = match frame {
            Ok(Some(Incoming::Text(t))) => t,
            Ok(Some(Incoming::Binary(_))) => continue,
            Ok(Some(Incoming::Close(_)) | None) | Err(_) => {
                bump(&stats.socket_errors);
                break;
            }
        };
        let received = Instant::now();
        let board = BoardName::ALL[i / 2];
        if let Some(m) = lite::moved(text) {
            if players[i].joined {
                let mover = SeatName::ALL
                    .iter()
                    .position(|s| *s == m.mv.seat)
                    .unwrap_or(4);
                if mover == i {
                    players[i].awaiting = false;
                } else if mover == (i ^ 1) {
                    if let Some((sent, uci)) = pending[i / 2].take() {
                        if uci == m.mv.uci {
                            seen(&stats, &plan, sent, received);
                        }
                    }
                }
                for b in [m.board, m.other] {
                    if b.board == board {
                        offer(&mut players[i], b.legal, over, || {
                            received + plan.think(&mut rng)
                        });
                    }
                }
            }
            continue;
        }
        let Ok(msg) = serde_json::from_str::<ServerMessage>(text) else {
            stats.server_error("unreadable");
            continue;
        };
        let mut match_over = false;
        match msg {
            ServerMessage::State { state, you } => {
                if state.match_id != match_id {
                    continue;
                }
                players[i].joined = true;
                if state.status == Status::Playing && !started && !over {
                    started = true;
                    bump(&stats.live);
                }
                if state.status == Status::Finished {
                    match_over = true;
                } else if you == Some(SeatName::ALL[i]) {
                    if let Some(b) = state.boards.into_iter().find(|b| b.board == board) {
                        offer(&mut players[i], b.legal, over, || {
                            received + plan.think(&mut rng)
                        });
                    }
                }
            }
            ServerMessage::Moved {
                mv,
                board: b,
                other,
                ..
            } => {
                if !players[i].joined {
                    continue;
                }
                let mover = SeatName::ALL
                    .iter()
                    .position(|s| *s == mv.seat)
                    .unwrap_or(4);
                if mover == i {
                    players[i].awaiting = false;
                } else if mover == (i ^ 1) {
                    // The opponent on the same board sees the move: that is its latency.
                    if let Some((sent, uci)) = pending[i / 2].take() {
                        if uci == mv.uci {
                            seen(&stats, &plan, sent, received);
                        }
                    }
                }
                for b in [b, other] {
                    if b.board == board {
                        offer(&mut players[i], b.legal, over, || {
                            received + plan.think(&mut rng)
                        });
                    }
                }
            }
            ServerMessage::Ended { result, .. } if players[i].joined && result.result != "*" => {
                match_over = true;
            }
            ServerMessage::Error { code, .. } => {
                stats.server_error(code.as_str());
                let p = &mut players[i];
                if p.awaiting {
                    p.awaiting = false;
                    pending[i / 2] = None;
                }
            }
            _ => {}
        }
        if match_over && !over {
            over = true;
            if started {
                stats.live.fetch_sub(1, Ordering::Relaxed);
            }
            bump(&stats.ended);
            started = false;
            pending = [None, None];
            for p in players.iter_mut() {
                p.legal = None;
                p.due = None;
                p.awaiting = false;
            }
            if plan.end.saturating_duration_since(Instant::now()) > REPLACE_MARGIN {
                match plan.target[index % nodes]
                    .create_match(&plan.rules, &plan.time_control)
                    .await
                {
                    Ok(id) => {
                        bump(&stats.matches_created);
                        bump(&stats.replacements);
                        match_id = id;
                        over = false;
                        // Each player opens the new match's page, as the match page does on a
                        // rematch: a connection of its own, named for the new match (the old
                        // one closes as it is replaced).
                        let mut failed = false;
                        for (seat, ws) in socks.iter_mut().enumerate() {
                            players[seat].joined = false;
                            match plan.target[(index + seat) % nodes].connect(&match_id).await {
                                Ok(new) => *ws = new,
                                Err(_) => {
                                    failed = true;
                                    continue;
                                }
                            }
                            if join(ws, &match_id, seat, index).await.is_err() {
                                failed = true;
                            }
                        }
                        if failed {
                            bump(&stats.socket_errors);
                            break;
                        }
                    }
                    Err(e) => {
                        if stats.create_errors.fetch_add(1, Ordering::Relaxed) < 5 {
                            eprintln!("create match: {e}");
                        }
                    }
                }
            }
        }
    }
    for _ in 0..open {
        stats.disconnected();
    }
    // Dropping the sockets closes them.
}

/// Counts a move seen by the opponent, sent at `sent`, in the latency histograms.
fn seen(stats: &Stats, plan: &Plan, sent: Instant, received: Instant) {
    let us = u64::try_from(received.duration_since(sent).as_micros()).unwrap_or(u64::MAX);
    let steady = stats.after_ramp(plan.clock, received);
    if let Some(trace) = &stats.trace {
        trace.record(
            received.saturating_duration_since(plan.clock),
            received.duration_since(sent),
        );
    }
    if let Ok(mut h) = stats.hist.lock() {
        h.0.record(us);
        if steady {
            h.1.record(us);
            h.2 += 1;
        }
    }
    bump(&stats.moves_seen);
}

/// Takes the legal moves of a player's turn; his move falls due at `due()` (read only when it is set).
fn offer(p: &mut Player, legal: Option<UciList>, over: bool, due: impl FnOnce() -> Instant) {
    let Some(legal) = legal.filter(|l| !l.is_empty()) else {
        return;
    };
    if p.awaiting || over {
        return;
    }
    p.legal = Some(legal);
    if p.due.is_none() {
        p.due = Some(due());
    }
}

/// Says `hello` to the match and takes the seat.
async fn join(ws: &mut Ws, match_id: &str, seat: usize, index: usize) -> Result<(), ClientError> {
    let hello = ClientMessage::Hello {
        match_id: match_id.to_owned(),
        token: None,
    };
    let sit = ClientMessage::Sit {
        seat: SeatName::ALL[seat % 4],
        name: format!("lt{index}-{seat}"),
    };
    for msg in [hello, sit] {
        send(ws, &msg.into()).await?;
    }
    Ok(())
}
