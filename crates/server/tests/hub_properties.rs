//! Properties of the server's state machine under any sequence of client messages, with a
//! fake clock: legal moves, stale and hostile frames, retries of the same action, reconnects,
//! resignations, draw offers and claims, talk, bots answering the turns they were asked (stale
//! ones too) and time running out, in every rulebook's preset.
//!
//! Whatever the clients send, the hub
//! - never panics;
//! - stores each move once (one row a ply, one a client action) and never a move after the end;
//! - acknowledges a move only once it has handed its row to the store (stores before sends);
//! - ends a match once: a result reached (of the match, or of one board under knsb-1988) never
//!   changes, and the end is stored once;
//! - numbers what it tells a watcher without gaps or repeats, and tells each ply once;
//! - and what it stored, read back from a real SQLite database into a fresh hub, is the match
//!   as the players saw it: the same moves, positions and result.
//!
//! A step's writes are stored and its messages delivered when the next step begins, as the
//! server sends only what is stored. A crash at any moment replaces the hub by one restored
//! from the database (resuming from a heartbeat or from the last record), perhaps losing the
//! last step's writes with its messages, and everyone connects again: the match is the one the
//! clients were last shown, no clock lost time to the stop, an action retried after its ack is
//! acked again (not refused, not done twice), one whose ack was lost is done once, the watcher's
//! numbering goes on above what it was told, and every rule above still holds.

use std::collections::HashSet;
use std::time::Duration;

use bughouse_protocol::{BoardState, MatchState, Piece, ServerMessage, TalkKind};
use bughouse_server::hub::{BotReply, BotTurn, ConnId, Effect, Hub, Input, Write};
use bughouse_store::Store;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use serde_json::json;

const SEATS: [&str; 4] = ["WhiteA", "BlackA", "WhiteB", "BlackB"];
const SPECTATOR: ConnId = 9;
/// Unix time of server time 0, in milliseconds.
const UNIX_ZERO: i64 = 1_800_000_000_000;
const PRESETS: [&str; 4] = ["fide", "minerva-2014", "knsb-1988", "uscf-scholastic-2006"];

/// One thing a client (or time) does.
#[derive(Debug, Clone)]
enum Step {
    /// The player to move on a board (A if false) plays the `pick`-th move of the legal list he
    /// was last shown.
    Move { board_b: bool, pick: u16 },
    /// A player sends one of the actions, well formed.
    Action { player: usize, kind: u8, arg: u8 },
    /// A player sends text that is no valid frame.
    Junk { player: usize, text: String },
    /// A player sends his last frame again, with its id (a retry after a lost answer).
    Again { player: usize },
    /// A player's connection drops; he comes back with his seat's token.
    Reconnect { player: usize },
    /// Time passes.
    Wait { ms: u32 },
    /// A bot answers one of the turns it was asked for (perhaps one that has passed): the
    /// `pick`-th legal move of the position it was given, or it sits; and it may talk.
    Bot { pick: u16, sits: bool, talk: u8 },
    /// A sitting bot is woken.
    Wake { seat: usize },
    /// The server stops at once after time passes: a fresh hub restores the match from what
    /// was stored, and everyone connects again. With `lose`, the writes of the last step had
    /// not been committed: they are lost, and so are its messages (the server sends only what
    /// is stored). With `heartbeat`, the server was last known alive that many milliseconds
    /// (up to a second) before it stopped.
    Crash {
        ms: u32,
        lose: bool,
        heartbeat: Option<u16>,
    },
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        12 => (any::<bool>(), any::<u16>()).prop_map(|(board_b, pick)| Step::Move { board_b, pick }),
        3 => (0..4usize, 0..14u8, any::<u8>())
            .prop_map(|(player, kind, arg)| Step::Action { player, kind, arg }),
        1 => (0..5usize, junk()).prop_map(|(player, text)| Step::Junk { player, text }),
        2 => (0..4usize).prop_map(|player| Step::Again { player }),
        1 => (0..4usize).prop_map(|player| Step::Reconnect { player }),
        2 => (0..20_000u32).prop_map(|ms| Step::Wait { ms }),
        1 => (0..5_000u32, any::<bool>(), prop::option::of(0..1_000u16))
            .prop_map(|(ms, lose, heartbeat)| Step::Crash { ms, lose, heartbeat }),
        6 => (any::<u16>(), prop::bool::weighted(0.1), any::<u8>())
            .prop_map(|(pick, sits, talk)| Step::Bot { pick, sits, talk }),
        1 => (0..4usize).prop_map(|seat| Step::Wake { seat }),
    ]
}

/// Frames a hostile or broken client may send.
fn junk() -> impl Strategy<Value = String> {
    prop_oneof![
        ".{0,40}",
        Just(String::new()),
        Just("{}".to_owned()),
        Just(r#"{"type":"move"}"#.to_owned()),
        Just(r#"{"type":"move","uci":"e2e4","id":-1}"#.to_owned()),
        Just(r#"{"type":"move","uci":"Q@h9","id":1e99}"#.to_owned()),
        Just(r#"{"type":"sit","seat":"RedC","name":"x"}"#.to_owned()),
        Just(r#"{"type":"talk","kind":"need"}"#.to_owned()),
        Just(r#"{"type":"claim_draw","claim":"boredom"}"#.to_owned()),
        Just(r#"{"type":"hello","match_id":"nope"}"#.to_owned()),
        Just(r#"{"type":"resign","extra":1}"#.to_owned()),
        "[a-z_]{1,12}".prop_map(|t| format!(r#"{{"type":"{t}"}}"#)),
        "[a-h][1-8][a-h][1-8][qrbnk]?"
            .prop_map(|uci| json!({"type": "move", "uci": uci}).to_string()),
    ]
}

/// A well-formed action of the kinds clients send, `arg` choosing its details.
fn action(kind: u8, arg: u8, match_id: &str) -> serde_json::Value {
    let seat = SEATS[usize::from(arg) % 4];
    let piece = ["P", "N", "B", "R", "Q"][usize::from(arg) % 5];
    let asks = ["need", "dont_give"][usize::from(arg) % 2];
    let says = ["sit", "go", "flag"][usize::from(arg) % 3];
    match kind {
        0 => json!({"type": "resign"}),
        1 | 2 => json!({"type": "offer_draw"}),
        3 => json!({"type": "withdraw_draw"}),
        4 => {
            json!({"type": "claim_draw", "claim": if arg.is_multiple_of(2) { "repetition" } else { "move-count" }})
        }
        5 => json!({"type": "talk", "kind": asks, "piece": piece}),
        6 => json!({"type": "talk", "kind": says}),
        7 => json!({"type": "talk", "kind": "text", "text": "x".repeat(usize::from(arg))}),
        8 => json!({"type": "stand"}),
        9 => json!({"type": "sit", "seat": seat, "name": format!("p{arg}")}),
        10 => json!({"type": "add_bot", "seat": seat, "level": arg % 10}),
        11 => json!({"type": "rematch", "swap": arg.is_multiple_of(2)}),
        12 => json!({"type": "ping", "t": f64::from(arg)}),
        _ => json!({"type": "hello", "match_id": match_id}),
    }
}

/// The hub, its match and what the clients and the store have seen so far.
struct World {
    hub: Hub,
    now: Duration,
    id: String,
    tokens: [Option<String>; 4],
    /// Each player's last frame and its id.
    last: [Option<(u64, String)>; 4],
    /// The ids of the actions acknowledged.
    acked: HashSet<u64>,
    next_id: u64,
    /// The ids of the move frames each player sent.
    move_ids: HashSet<u64>,
    /// The last position of each board the clients were shown (A, B).
    boards: [Option<BoardState>; 2],
    /// Every write the hub handed to the store, in order.
    writes: Vec<Write>,
    /// Move rows stored: by ply, and by action id.
    plies: HashSet<i64>,
    actions: HashSet<(u8, i64)>,
    finishes: usize,
    /// The results told to the spectator, once reached.
    result: Option<String>,
    board_results: [Option<String>; 2],
    /// The spectator's last numbered event and the plies it was told.
    seq: u64,
    told_plies: HashSet<usize>,
    /// The database the writes go to, when they are stored (at a crash, at the end).
    db: Db,
    restarts: u8,
    /// The seats of bots, and the turns they were asked for and have not answered.
    bots: [bool; 4],
    turns: Vec<BotTurn>,
    /// The effects of the step under way: its writes go to the store and its messages to the
    /// clients when the next step begins (a crash before then may lose them).
    pending: Vec<Effect>,
    /// The match as the hub had it when the last step's effects were delivered, and when.
    confirmed: Option<(Duration, MatchState)>,
}

/// A real SQLite database in a temporary directory, and how many of the writes it holds.
struct Db {
    runtime: tokio::runtime::Runtime,
    store: Store,
    _dir: tempfile::TempDir,
    stored: usize,
}

impl Db {
    fn new() -> Db {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let dir = tempfile::tempdir().expect("a temporary directory");
        let url = format!("sqlite://{}", dir.path().join("p.db").display());
        let store = runtime
            .block_on(Store::connect(&url))
            .expect("the database");
        Db {
            runtime,
            store,
            _dir: dir,
            stored: 0,
        }
    }

    /// Stores the writes not stored yet (each must be taken) and reads the match back.
    fn store_and_load(&mut self, writes: &[Write], id: &str) -> bughouse_store::StoredMatch {
        let new = &writes[self.stored..];
        self.stored = writes.len();
        self.runtime.block_on(async {
            for (write, result) in new.iter().zip(self.store.apply_batch(new).await) {
                assert!(result.is_ok(), "{write:?} refused: {result:?}");
            }
            self.store
                .load_match(id)
                .await
                .expect("readable")
                .expect("stored")
        })
    }
}

impl World {
    /// A match of `preset` whose seats are taken by four players, or by bots where `bots` says.
    fn new(preset: &str, bots: [bool; 4]) -> World {
        let mut hub = Hub::new([3; 32]).with_unix_zero(UNIX_ZERO);
        let now = Duration::from_secs(1);
        let (id, fx) = hub.create_match(preset, "1+0", now).expect("a valid match");
        let mut w = World {
            hub,
            now,
            id,
            tokens: Default::default(),
            last: Default::default(),
            acked: HashSet::new(),
            next_id: 1,
            move_ids: HashSet::new(),
            boards: [None, None],
            writes: Vec::new(),
            plies: HashSet::new(),
            actions: HashSet::new(),
            finishes: 0,
            result: None,
            board_results: [None, None],
            seq: 0,
            told_plies: HashSet::new(),
            db: Db::new(),
            restarts: 3,
            bots,
            turns: Vec::new(),
            pending: Vec::new(),
            confirmed: None,
        };
        w.pending.extend(fx);
        w.apply(Input::Connected(SPECTATOR));
        w.text(
            SPECTATOR,
            json!({"type": "hello", "match_id": w.id}).to_string(),
        );
        for (i, seat) in SEATS.iter().enumerate() {
            let conn = conn_of(i);
            w.apply(Input::Connected(conn));
            w.text(conn, json!({"type": "hello", "match_id": w.id}).to_string());
            if bots[i] {
                let level = 1 + i % 8;
                let add = json!({"type": "add_bot", "seat": seat, "level": level});
                w.text(SPECTATOR, add.to_string());
                continue;
            }
            let fx = w.text(
                conn,
                json!({"type": "sit", "seat": seat, "name": format!("player{i}")}).to_string(),
            );
            w.tokens[i] = fx.iter().find_map(|e| match e {
                Effect::Send(to, ServerMessage::Seated { token, .. }) if to.contains(&conn) => {
                    Some(token.clone())
                }
                _ => None,
            });
            assert!(w.tokens[i].is_some(), "{seat} is seated");
        }
        w.deliver();
        w
    }

    fn apply(&mut self, input: Input) -> Vec<Effect> {
        let fx = self.hub.apply(input, self.now);
        self.pending.extend(fx.iter().cloned());
        fx
    }

    /// The step's writes are stored and its messages delivered: both are checked.
    fn deliver(&mut self) {
        let fx = std::mem::take(&mut self.pending);
        self.check(fx);
        self.confirmed = Some((
            self.now,
            self.hub
                .public_state(&self.id, self.now)
                .expect("in memory"),
        ));
    }

    fn text(&mut self, conn: ConnId, text: String) -> Vec<Effect> {
        self.apply(Input::Text(conn, text))
    }

    /// Sends an action of `player` with a fresh id.
    fn send(&mut self, player: usize, mut frame: serde_json::Value) -> Vec<Effect> {
        let id = self.next_id;
        self.next_id += 1;
        if frame["type"] == "move" {
            self.move_ids.insert(id);
        }
        frame["id"] = json!(id);
        let text = frame.to_string();
        self.last[player] = Some((id, text.clone()));
        self.text(conn_of(player), text)
    }

    fn run(&mut self, step: &Step) {
        match step {
            Step::Crash { lose: true, .. } => self.pending.clear(),
            _ => self.deliver(),
        }
        self.now += Duration::from_millis(150);
        match step {
            Step::Move { board_b, pick } => {
                let b = usize::from(*board_b);
                let Some(board) = &self.boards[b] else { return };
                let white = board.fen.split(' ').nth(1) == Some("w");
                let player = 2 * b + usize::from(!white);
                if self.bots[player] {
                    return;
                }
                let uci = board
                    .legal
                    .as_ref()
                    .filter(|l| !l.is_empty())
                    .and_then(|l| l.get(usize::from(*pick) % l.len()))
                    .map_or_else(|| "e2e4".to_owned(), str::to_owned);
                self.send(player, json!({"type": "move", "uci": uci}));
            }
            Step::Action { player, kind, arg } => {
                let frame = action(*kind, *arg, &self.id.clone());
                self.send(*player, frame);
            }
            Step::Junk { player, text } => {
                let conn = if *player == 4 {
                    SPECTATOR
                } else {
                    conn_of(*player)
                };
                self.text(conn, text.clone());
            }
            Step::Again { player } => {
                if let Some((id, text)) = self.last[*player].clone() {
                    let conn = conn_of(*player);
                    let fx = self.text(conn, text);
                    if self.acked.contains(&id) {
                        // Done already: answered as done again, not refused nor done twice.
                        let answers: Vec<&ServerMessage> = fx
                            .iter()
                            .filter_map(|e| match e {
                                Effect::Send(to, m) if to.contains(&conn) => Some(m),
                                _ => None,
                            })
                            .filter(|m| match m {
                                ServerMessage::Ack { id: a, .. } => *a == id,
                                ServerMessage::Error { id: e, .. } => *e == Some(id),
                                _ => false,
                            })
                            .collect();
                        assert!(
                            matches!(answers[..], [ServerMessage::Ack { .. }]),
                            "action {id} retried after its ack: {answers:?}"
                        );
                    }
                }
            }
            Step::Reconnect { player } => {
                let conn = conn_of(*player);
                self.apply(Input::Disconnected(conn));
                self.now += Duration::from_millis(300);
                self.apply(Input::Connected(conn));
                let hello =
                    json!({"type": "hello", "match_id": self.id, "token": self.tokens[*player]});
                self.text(conn, hello.to_string());
            }
            Step::Wait { ms } => {
                self.now += Duration::from_millis(u64::from(*ms));
                self.apply(Input::Tick);
            }
            Step::Bot { pick, sits, talk } => {
                if self.turns.is_empty() {
                    return;
                }
                let turn = self.turns.remove(usize::from(*pick) % self.turns.len());
                let legal = turn.game.position(turn.seat.board).legal_moves();
                let uci = match (sits, legal.len()) {
                    (true, _) | (_, 0) => None,
                    (false, n) => Some(legal[usize::from(*pick) % n].to_string()),
                };
                let piece = [Piece::Pawn, Piece::Knight, Piece::Queen][usize::from(*talk) % 3];
                let talk = match talk % 5 {
                    0 => vec![(TalkKind::Need, Some(piece))],
                    1 => vec![(TalkKind::DontGive, Some(piece)), (TalkKind::Sit, None)],
                    2 => vec![(TalkKind::Go, None)],
                    _ => Vec::new(),
                };
                self.apply(Input::Bot(BotReply {
                    match_id: turn.match_id,
                    seat: turn.seat,
                    ply: turn.ply,
                    uci,
                    talk,
                }));
            }
            Step::Wake { seat } => {
                let seat = bughouse_core::Seat::ALL[*seat];
                let match_id = self.id.clone();
                self.apply(Input::BotWake { match_id, seat });
            }
            Step::Crash { ms, heartbeat, .. } => {
                self.now += Duration::from_millis(u64::from(*ms));
                let alive =
                    heartbeat.map(|h| self.now.saturating_sub(Duration::from_millis(u64::from(h))));
                self.hub = restarted(self, alive);
                self.now += Duration::from_millis(500);
                for conn in [SPECTATOR, 1, 2, 3, 4] {
                    self.apply(Input::Connected(conn));
                    let token = match conn {
                        SPECTATOR => None,
                        _ => self.tokens[usize::try_from(conn - 1).expect("small")].clone(),
                    };
                    let hello = json!({"type": "hello", "match_id": self.id, "token": token});
                    self.text(conn, hello.to_string());
                }
            }
        }
    }

    /// Checks the effects of one input against everything before.
    fn check(&mut self, fx: Vec<Effect>) {
        for effect in fx {
            match effect {
                Effect::Store(write) => {
                    match &write {
                        // A rematch's writes are stored with the others, not checked.
                        Write::RecordMove(mv) if mv.match_id == self.id => {
                            assert!(self.finishes == 0, "a move stored after the end: {mv:?}");
                            assert!(self.plies.insert(mv.ply), "ply {} stored twice", mv.ply);
                            if let Some(action) = mv.action_id {
                                assert!(
                                    self.actions.insert((mv.seat, action)),
                                    "action {action} of seat {} stored twice",
                                    mv.seat
                                );
                            }
                        }
                        Write::FinishMatch { match_id, .. } if *match_id == self.id => {
                            self.finishes += 1;
                            assert_eq!(self.finishes, 1, "the end stored twice");
                        }
                        _ => {}
                    }
                    self.writes.push(write);
                }
                Effect::Send(to, msg) => self.seen(to.contains(&SPECTATOR), msg),
                Effect::BotTurn(turn) => self.turns.push(turn),
                _ => {}
            }
        }
    }

    /// A message sent (`spectator`: to the spectator among others).
    fn seen(&mut self, spectator: bool, msg: ServerMessage) {
        if let ServerMessage::Ack { id, .. } = &msg {
            self.acked.insert(*id);
        }
        match msg {
            ServerMessage::Ack { id, .. } if self.move_ids.contains(&id) => {
                let stored = self.writes.iter().any(|w| {
                    matches!(w, Write::RecordMove(mv) if mv.action_id == i64::try_from(id).ok())
                });
                assert!(
                    stored,
                    "move {id} acknowledged before its row went to the store"
                );
            }
            ServerMessage::State { state, .. } => {
                if state.match_id != self.id {
                    return;
                }
                let [a, b] = state.boards;
                self.shown(0, a);
                self.shown(1, b);
                if spectator {
                    // A state is the whole match: its number is where the next event follows,
                    // above anything the watcher was told before (after a restart too).
                    assert!(
                        state.seq >= self.seq,
                        "a state numbered {} after event {}",
                        state.seq,
                        self.seq
                    );
                    self.seq = state.seq;
                }
                if let Some(result) = state.result {
                    self.reached(&result.result, &result.boards);
                }
            }
            ServerMessage::Moved {
                mv,
                board,
                other,
                seq,
                ..
            } => {
                let (b, o) = if board.board == "A" { (0, 1) } else { (1, 0) };
                self.shown(b, board);
                self.shown(o, other);
                if spectator {
                    assert!(self.told_plies.insert(mv.ply), "ply {} told twice", mv.ply);
                    self.numbered(seq);
                }
            }
            ServerMessage::Ended { result, seq, .. } if spectator => {
                self.numbered(seq);
                self.reached(&result.result, &result.boards);
            }
            ServerMessage::DrawOffers { seq, .. } if spectator => self.numbered(seq),
            _ => {}
        }
    }

    /// A board as a message showed it: the legal moves, which only the player to move is
    /// sent, are kept while the position stays.
    fn shown(&mut self, b: usize, board: BoardState) {
        let kept = self.boards[b]
            .as_ref()
            .is_some_and(|old| old.fen == board.fen && board.legal.is_none());
        if !kept {
            self.boards[b] = Some(board);
        }
    }

    fn numbered(&mut self, seq: u64) {
        assert_eq!(
            seq,
            self.seq + 1,
            "the spectator's events numbered without a gap"
        );
        self.seq = seq;
    }

    /// A result told: what was reached before stands.
    fn reached(&mut self, result: &str, boards: &[String; 2]) {
        if let Some(before) = &self.result {
            assert_eq!(before, result, "the match's result changed");
        } else if result != "*" {
            self.result = Some(result.to_owned());
        }
        for (i, r) in boards.iter().enumerate() {
            if let Some(before) = &self.board_results[i] {
                assert_eq!(before, r, "board {i}'s result changed");
            } else if r != "*" {
                self.board_results[i] = Some(r.clone());
            }
        }
    }
}

fn conn_of(player: usize) -> ConnId {
    ConnId::try_from(player + 1).expect("small")
}

/// A server restarted at this moment, last known alive at server time `alive` (if known): the
/// match it restores from the store is the one the clients were last shown, and no clock lost
/// time to the stop.
fn restarted(w: &mut World, alive: Option<Duration>) -> Hub {
    let stored = w.db.store_and_load(&w.writes, &w.id);
    let (shown_at, shown) = w.confirmed.clone().expect("a match shown");
    // Match time 0 as Unix time, from the clock anchor last stored.
    let anchor = w.writes.iter().rev().find_map(|write| match write {
        Write::SetClockAnchor {
            match_id,
            anchor_ms,
        } if *match_id == w.id => Some(*anchor_ms),
        _ => None,
    });
    let alive_at = match (alive, anchor) {
        (Some(t), Some(anchor)) => {
            let unix = UNIX_ZERO + i64::try_from(t.as_millis()).expect("small");
            u64::try_from(unix - anchor).ok().map(Duration::from_millis)
        }
        _ => None,
    };
    // A new process draws new randomness (for the ids of the matches it creates).
    w.restarts += 1;
    let mut fresh = Hub::new([w.restarts; 32]).with_unix_zero(UNIX_ZERO);
    let fx = fresh.restore(&stored, w.now, alive_at).expect("restored");
    w.pending.extend(fx);
    let back = fresh.public_state(&w.id, w.now).expect("restored");
    same_match(&back, &shown);
    assert_eq!(
        back.clocks.running, shown.clocks.running,
        "the clocks running"
    );
    let down = w.now.saturating_sub(shown_at).as_millis();
    for (i, seat) in SEATS.iter().enumerate() {
        let name: bughouse_protocol::SeatName = seat.parse().expect("a seat");
        let (before, after) = (shown.clocks.remaining_ms[i], back.clocks.remaining_ms[i]);
        if shown.clocks.running.contains(&name) {
            // Charged at most the time up to the stop.
            let least = before.saturating_sub(u64::try_from(down).expect("small"));
            assert!(after >= least, "{seat}'s clock: {after} ms after the restart, {before} ms {down} ms before the stop");
        } else {
            assert_eq!(after, before, "{seat}'s stopped clock");
        }
    }
    fresh
}

/// The same match: moves, positions, result and status.
fn same_match(back: &MatchState, seen: &MatchState) {
    let ucis = |s: &MatchState| -> Vec<String> { s.moves.iter().map(|m| m.uci.clone()).collect() };
    assert_eq!(ucis(back), ucis(seen), "the moves");
    for b in 0..2 {
        assert_eq!(back.boards[b].fen, seen.boards[b].fen, "board {b}");
    }
    assert_eq!(back.result, seen.result, "the result");
    assert_eq!(back.status, seen.status, "the status");
}

/// At the end: everything delivered, what the store holds read back into a fresh hub is the
/// match the hub has.
fn stored_is_seen(w: &mut World) {
    w.deliver();
    let stored = w.db.store_and_load(&w.writes, &w.id);
    let mut fresh = Hub::new([w.restarts.wrapping_add(1); 32]).with_unix_zero(UNIX_ZERO);
    fresh.restore(&stored, w.now, None).expect("restored");
    let back = fresh.public_state(&w.id, w.now).expect("restored");
    same_match(&back, &w.hub.public_state(&w.id, w.now).expect("in memory"));
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 128,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("regressions"))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn whatever_clients_send_results_stand_and_moves_are_stored_once(
        preset in 0..PRESETS.len(),
        bots in prop::array::uniform4(prop::bool::weighted(0.3)),
        steps in proptest::collection::vec(step(), 1..160),
    ) {
        let mut w = World::new(PRESETS[preset], bots);
        for step in &steps {
            w.run(step);
        }
        stored_is_seen(&mut w);
    }
}

/// The property's world itself: legal moves from the lists are taken, and a retried move is
/// acknowledged without a second row.
#[test]
fn the_world_plays_legal_moves_and_a_retry_is_not_stored_again() {
    let mut w = World::new("fide", [false; 4]);
    for _ in 0..6 {
        w.run(&Step::Move {
            board_b: false,
            pick: 3,
        });
        w.run(&Step::Again { player: 0 });
        w.run(&Step::Again { player: 1 });
    }
    assert_eq!(w.plies.len(), 6, "six moves on board A, each stored once");
    assert_eq!(w.told_plies.len(), 6);
    // After a restart the retries are still known: acknowledged, not stored again.
    w.run(&Step::Crash {
        ms: 100,
        lose: false,
        heartbeat: None,
    });
    w.run(&Step::Again { player: 0 });
    w.run(&Step::Again { player: 1 });
    w.deliver();
    assert_eq!(w.plies.len(), 6, "no move stored twice across a restart");
    w.run(&Step::Move {
        board_b: false,
        pick: 3,
    });
    w.deliver();
    assert_eq!(w.plies.len(), 7, "play goes on after the restart");
    // A move whose write was not committed when the server stopped is lost with its ack; sent
    // again, it is played once.
    w.run(&Step::Move {
        board_b: false,
        pick: 3,
    });
    w.run(&Step::Crash {
        ms: 100,
        lose: true,
        heartbeat: Some(50),
    });
    assert_eq!(w.hub.public_state(&w.id, w.now).unwrap().moves.len(), 7);
    w.run(&Step::Again { player: 1 });
    w.deliver();
    assert_eq!(w.plies.len(), 8, "the move sent again is played once");
    stored_is_seen(&mut w);
}
