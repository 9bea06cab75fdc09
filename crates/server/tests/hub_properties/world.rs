//! The hub of the property test and what its clients and its store have seen: the match set
//! up, each step played, a step's effects delivered when the next begins.

use super::*;

/// The hub, its match and what the clients and the store have seen so far.
pub(super) struct World {
    pub(super) hub: Hub,
    pub(super) now: Duration,
    pub(super) id: String,
    pub(super) tokens: [Option<String>; 4],
    /// Each player's last frame and its id.
    pub(super) last: [Option<(u64, String)>; 4],
    /// The ids of the actions acknowledged.
    pub(super) acked: HashSet<u64>,
    pub(super) next_id: u64,
    /// The ids of the move frames each player sent.
    pub(super) move_ids: HashSet<u64>,
    /// The last position of each board the clients were shown (A, B).
    pub(super) boards: [Option<BoardState>; 2],
    /// Every write the hub handed to the store, in order.
    pub(super) writes: Vec<Write>,
    /// Move rows stored: by ply, and by action id.
    pub(super) plies: HashSet<i64>,
    pub(super) actions: HashSet<(u8, i64)>,
    pub(super) finishes: usize,
    /// The results told to the spectator, once reached.
    pub(super) result: Option<String>,
    pub(super) board_results: [Option<String>; 2],
    /// The spectator's last numbered event and the plies it was told.
    pub(super) seq: u64,
    pub(super) told_plies: HashSet<usize>,
    /// The database the writes go to, when they are stored (at a crash, at the end).
    pub(super) db: Db,
    pub(super) restarts: u8,
    /// The turns bots were asked for and have not answered.
    pub(super) turns: Vec<BotTurn>,
    /// The effects of the step under way: its writes go to the store and its messages to the
    /// clients when the next step begins (a crash before then may lose them).
    pub(super) pending: Vec<Effect>,
    /// The match as the hub had it when the last step's effects were delivered, and when.
    pub(super) confirmed: Option<(Duration, MatchState)>,
}

/// A real SQLite database in a temporary directory, and how many of the writes it holds.
pub(super) struct Db {
    pub(super) runtime: tokio::runtime::Runtime,
    pub(super) store: Store,
    pub(super) _dir: tempfile::TempDir,
    pub(super) stored: usize,
}

impl Db {
    pub(super) fn new() -> Db {
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
    pub(super) fn store_and_load(
        &mut self,
        writes: &[Write],
        id: &str,
    ) -> bughouse_store::StoredMatch {
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
    pub(super) fn new(preset: &str, bots: [bool; 4]) -> World {
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
            turns: Vec::new(),
            pending: Vec::new(),
            confirmed: None,
        };
        w.pending.extend(fx);
        w.hello(SPECTATOR, None);
        for (i, seat) in SEATS.iter().enumerate() {
            let conn = conn_of(i);
            w.hello(conn, None);
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
            w.tokens[i] = to(&fx, conn).into_iter().find_map(|m| match m {
                ServerMessage::Seated { token, .. } => Some(token),
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
    pub(super) fn deliver(&mut self) {
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

    /// `conn` connects and says hello to the match, with a seat's token or none.
    fn hello(&mut self, conn: ConnId, token: Option<String>) {
        self.apply(Input::Connected(conn));
        let hello = json!({"type": "hello", "match_id": self.id, "token": token});
        self.text(conn, hello.to_string());
    }

    /// Whether a bot holds `player`'s seat (no player took it).
    fn is_bot(&self, player: usize) -> bool {
        self.tokens[player].is_none()
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

    pub(super) fn run(&mut self, step: &Step) {
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
                if self.is_bot(player) {
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
                        let answers: Vec<ServerMessage> = to(&fx, conn)
                            .into_iter()
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
                self.hello(conn, self.tokens[*player].clone());
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
                self.hello(SPECTATOR, None);
                for player in 0..4 {
                    self.hello(conn_of(player), self.tokens[player].clone());
                }
            }
        }
    }
}

fn conn_of(player: usize) -> ConnId {
    ConnId::try_from(player + 1).expect("small")
}
