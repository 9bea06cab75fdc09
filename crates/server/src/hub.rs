//! The live-game state machine: every match, seat and connection of the server, changed only by
//! [`Hub::apply`] with the time passed in. No sockets, no database, no clock inside: the adapter
//! (`http.rs`) turns websocket frames into [`Input`]s, executes the [`Effect`]s in order (stores
//! before sends, so a move is stored before it is acknowledged) and wakes the hub for flags.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::time::Duration;

use bughouse_core::{
    BoardId, DrawClaim, EndReason, Match, MatchError, PartnerTalk, Position, Preset, Rules, Seat,
    TimeControl,
};
use bughouse_protocol::{
    BoardState, ClientFrame, ClientMessage, Clocks, ErrorCode, MatchState, MoveInfo, ResultInfo,
    RuleSetting, SeatInfo, ServerMessage, TalkEntry, TalkKind, MAX_CHAT, MAX_CLIENT_MESSAGE,
    MAX_NAME,
};
use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};
use sha2::{Digest, Sha256};

/// A connection, numbered by the adapter.
pub type ConnId = u64;

/// The most a flag fall waits for a move compensated for lag (see `docs/protocol.md`).
pub const MAX_FLAG_GRACE: Duration = Duration::from_secs(2);

/// Acknowledged action ids a seat's recent actions keep, to answer a resent action again.
const RECENT_ACTIONS: usize = 64;

/// Messages per second a connection may send on average, and the burst it may save up.
const RATE_PER_SEC: f64 = 20.0;
const RATE_BURST: f64 = 40.0;
/// Refusals in a row after which a flooding connection is closed.
const MAX_REFUSALS: u32 = 100;

/// What happens to the hub.
#[derive(Debug, Clone, PartialEq)]
pub enum Input {
    /// A websocket opened.
    Connected(ConnId),
    /// A websocket closed.
    Disconnected(ConnId),
    /// A text frame arrived.
    Text(ConnId, String),
    /// A frame that is not text, or too large, arrived.
    Invalid(ConnId, &'static str),
    /// Time passed: apply flags.
    Tick,
    /// A bot's answer to an [`Effect::BotTurn`].
    Bot(BotReply),
    /// A sitting bot's time to look again.
    BotWake {
        /// The match.
        match_id: String,
        /// The bot's seat.
        seat: Seat,
    },
}

/// The bot levels a seat may be given (1 weakest).
pub const BOT_LEVELS: std::ops::RangeInclusive<u8> = 1..=8;

/// A partner message between a bot and its partner: the kind and, for `need` and
/// `dont_give`, the piece letter.
pub type BotTalk = (TalkKind, Option<String>);

/// A bot's turn: the adapter runs the engine on a copy of the match and answers with
/// [`Input::Bot`].
#[derive(Debug, Clone)]
pub struct BotTurn {
    /// The match.
    pub match_id: String,
    /// The bot's seat.
    pub seat: Seat,
    /// Its level, in [`BOT_LEVELS`].
    pub level: u8,
    /// The number of moves on the bot's board when it was asked: a reply for another count
    /// is stale and dropped.
    pub ply: usize,
    /// The match as it stands.
    pub game: Box<Match>,
    /// Match time now.
    pub at: Duration,
    /// What its partner said since the last turn.
    pub heard: Vec<BotTalk>,
}

impl PartialEq for BotTurn {
    fn eq(&self, other: &BotTurn) -> bool {
        (
            &self.match_id,
            self.seat,
            self.level,
            self.ply,
            self.at,
            &self.heard,
        ) == (
            &other.match_id,
            other.seat,
            other.level,
            other.ply,
            other.at,
            &other.heard,
        )
    }
}

/// What a bot decided on its turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotReply {
    /// The match.
    pub match_id: String,
    /// The bot's seat.
    pub seat: Seat,
    /// [`BotTurn::ply`] of the turn it answers.
    pub ply: usize,
    /// A move in UCI, or `None` to sit (not move now, the clock running).
    pub uci: Option<String>,
    /// What it says to its partner.
    pub talk: Vec<BotTalk>,
}

/// What the adapter must do, in this order.
// Effects live only from `apply` to their execution, most of them `Send`s: boxing the message
// would add an allocation to nearly every one (as for `ServerMessage` itself).
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Send a message to these connections.
    Send(Vec<ConnId>, ServerMessage),
    /// Close a connection.
    Close(ConnId),
    /// Store this, before any later `Send`.
    Store(StoreOp),
    /// Ask a bot for its move.
    BotTurn(BotTurn),
}

/// A write to the database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreOp {
    /// A match was created.
    CreateMatch {
        /// The id.
        id: String,
        /// The preset id, or `custom`.
        preset: String,
        /// The rules.
        rules: Rules,
        /// The time control.
        time_control: TimeControl,
        /// The match it is a rematch of.
        rematch_of: Option<String>,
    },
    /// A seat was taken (or given to a bot).
    SetSeat {
        /// The match.
        match_id: String,
        /// 0..4 in the order WhiteA, BlackA, WhiteB, BlackB.
        seat: u8,
        /// The name.
        name: String,
        /// The SHA-256 of the seat token, hex.
        token_hash: String,
        /// Whether a bot plays it.
        bot: bool,
    },
    /// A seat was left.
    ClearSeat {
        /// The match.
        match_id: String,
        /// The seat index.
        seat: u8,
    },
    /// The clocks started.
    Start {
        /// The match.
        match_id: String,
    },
    /// A move was played.
    Move {
        /// The match.
        match_id: String,
        /// Its index in the record.
        ply: usize,
        /// The seat index.
        seat: u8,
        /// UCI.
        uci: String,
        /// SAN.
        san: String,
        /// Match time of the move, in milliseconds since the clocks started.
        at_ms: u64,
        /// All four clocks right after it.
        remaining_ms: [u64; 4],
        /// The client's id of the action.
        action_id: Option<u64>,
        /// The lag compensation it was given, in milliseconds.
        lag_ms: u64,
    },
    /// An action other than a move that the match must replay on restart.
    Event {
        /// The match.
        match_id: String,
        /// Its place among the match's events, from 0.
        seq: usize,
        /// The number of moves played before it.
        ply: usize,
        /// The seat index.
        seat: u8,
        /// `resign`, `offer_draw`, `withdraw_draw`, `claim_draw`, `flag`.
        kind: String,
        /// The claim, for `claim_draw`.
        detail: String,
        /// Match time, in milliseconds.
        at_ms: u64,
        /// The client's id of the action.
        action_id: Option<u64>,
    },
    /// A message of partner talk was delivered.
    Talk {
        /// The match.
        match_id: String,
        /// The seat that spoke.
        seat: u8,
        /// The message.
        entry: TalkEntry,
        /// The client's id of the action.
        action_id: Option<u64>,
    },
    /// The server time (milliseconds since the server started, negative when before) at which
    /// the match's time was 0: set at the start and at each restore, so that after a crash the
    /// last heartbeat tells how far the clocks had run.
    ClockAnchor {
        /// The match.
        match_id: String,
        /// Server milliseconds of match time 0.
        zero_at_ms: i64,
    },
    /// The match is over.
    Finish {
        /// The match.
        match_id: String,
        /// The result.
        result: ResultInfo,
        /// The record as BPGN, for the archive.
        bpgn: String,
    },
}

#[derive(Clone)]
struct SeatHolder {
    name: String,
    token_hash: String,
    /// The level of the bot that plays the seat.
    bot: Option<u8>,
}

/// What the hub knows of a bot seat between its turns.
#[derive(Default)]
struct BotSeat {
    /// The moves on its board, and in the whole match, when it was last asked.
    asked: Option<(usize, usize)>,
    /// Whether its last answer was to sit.
    sitting: bool,
    /// Partner messages not yet handed over.
    heard: Vec<BotTalk>,
}

struct LiveMatch {
    id: String,
    preset: String,
    game: Match,
    seats: [Option<SeatHolder>; 4],
    /// Every connection watching, seated or not.
    watchers: Vec<ConnId>,
    /// Server time minus match time: the match's clock readings are `now + ahead - epoch`.
    epoch: Duration,
    /// Match time minus server time, when match time is ahead (a match restored soon after the
    /// server started, whose last move came later in match time than the server's uptime).
    ahead: Duration,
    last_moves: [Option<String>; 2],
    finished: bool,
    rematch: [Option<String>; 2],
    /// Events stored so far (their sequence numbers).
    events: usize,
    /// The bots' turns, by seat index.
    bots: [BotSeat; 4],
    /// The number of the last numbered message (`moved`, `ended`, `draw_offers`).
    seq: u64,
    /// The partner talk of both teams, in order (`TalkEntry::n` is the index).
    talk: Vec<(Seat, TalkEntry)>,
    /// Each seat's recently acknowledged action ids, by seat index.
    recent: [VecDeque<Recent>; 4],
    /// Each seat's lag estimate and compensation quota, by seat index.
    lag: [LagSeat; 4],
    /// The result as stored, for a finished match loaded from the store (it wins over what the
    /// replayed record says, which for records stored before flags were kept may be less).
    stored_result: Option<ResultInfo>,
    /// Match time at which the clocks stopped for good, once finished.
    end_time: Option<Duration>,
    /// The lag compensation of each move of the record, in milliseconds.
    move_lag: Vec<u16>,
    /// The seats whose flag fall is stored as an event.
    flags_stored: Vec<Seat>,
}

/// An acknowledged action.
#[derive(Debug, Clone, Copy)]
struct Recent {
    id: u64,
    lag_ms: Option<u64>,
}

/// A seat's lag compensation (see `docs/protocol.md`): the one-way lag of its connection as
/// measured, and the compensation it has left to spend.
#[derive(Debug, Clone, Copy, Default)]
struct LagSeat {
    estimate: Option<Duration>,
    quota: Duration,
}

/// The lag quota of a time control: what each move adds, where it starts, its cap.
fn lag_quota(tc: TimeControl) -> (Duration, Duration, Duration) {
    // lichess's estimate of a game's length: the base time and 40 increments.
    let estimate = tc.base + tc.increment * 40;
    let gain = Duration::from_millis(u64::try_from(estimate.as_millis() / 180).unwrap_or(u64::MAX))
        .clamp(Duration::from_millis(200), Duration::from_millis(1000));
    (gain, gain * 3, gain * 7)
}

struct Conn {
    match_id: Option<String>,
    seat: Option<Seat>,
    tokens: f64,
    last_refill: Duration,
    refusals: u32,
    /// Moving average of the round trip.
    rtt: Option<Duration>,
}

/// Every live match and connection.
pub struct Hub {
    matches: HashMap<String, LiveMatch>,
    conns: HashMap<ConnId, Conn>,
    /// (flag time in server time, match id): when to look at a match's clocks.
    deadlines: BTreeSet<(Duration, String)>,
    /// Each scheduled match's entry in `deadlines`, to replace it without a scan.
    deadline_of: HashMap<String, Duration>,
    /// The finished matches in memory, which [`Hub::evict_finished`] looks at (not all).
    finished: HashSet<String>,
    /// Matches whose bots must be looked at on the next tick (restored ones).
    bots_pending: HashSet<String>,
    rng: StdRng,
    now: Duration,
    /// The client's id of the action being applied.
    action: Option<u64>,
    /// The lag compensation of the move just played, for its acknowledgement.
    last_lag: Option<Duration>,
}

/// Why a match could not be created.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CreateError {
    /// The rules are unknown.
    #[error(transparent)]
    Rules(#[from] bughouse_core::UnknownPreset),
    /// The time control cannot be read.
    #[error(transparent)]
    TimeControl(#[from] bughouse_core::ParseTimeControlError),
    /// A field of a custom rule set is unknown or cannot take its value.
    #[error(transparent)]
    Field(#[from] bughouse_core::RuleFieldError),
}

/// The number of moves played on `board`.
fn board_plies(game: &Match, board: BoardId) -> usize {
    game.record()
        .iter()
        .filter(|r| r.seat.board == board)
        .count()
}

/// What a bot seat stores in place of a token hash: `bot:LEVEL`. No token hashes to it (a
/// hash is 64 hex digits), so no client can take a bot's seat.
fn bot_marker(level: u8) -> String {
    format!("bot:{level}")
}

/// The level in a bot seat's marker; the strongest level for a marker that has none.
fn bot_level_of(marker: &str) -> u8 {
    marker
        .strip_prefix("bot:")
        .and_then(|l| l.parse().ok())
        .filter(|l| BOT_LEVELS.contains(l))
        .unwrap_or(*BOT_LEVELS.end())
}

/// The id of the preset `rules` are, or `custom`.
fn rules_label(rules: &Rules) -> String {
    rules.preset().map_or("custom", Preset::id).to_owned()
}

/// Every field of a rule set with its value.
pub fn rule_settings(rules: &Rules) -> Vec<RuleSetting> {
    rules
        .describe()
        .into_iter()
        .map(|(field, value)| RuleSetting {
            field: field.to_owned(),
            value,
        })
        .collect()
}

fn seat_index(seat: Seat) -> usize {
    Seat::ALL.iter().position(|s| *s == seat).unwrap_or(0)
}

fn seat_name(seat: Seat) -> String {
    seat.to_string()
}

fn parse_seat(name: &str) -> Option<Seat> {
    Seat::ALL.into_iter().find(|s| s.to_string() == name)
}

fn hash_token(token: &str) -> String {
    let digest = Sha256::digest(token.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

fn error(code: ErrorCode, message: impl Into<String>) -> ServerMessage {
    ServerMessage::Error {
        code,
        message: message.into(),
        id: None,
    }
}

fn talk_kinds(rules: &Rules) -> Vec<TalkKind> {
    match rules.partner_talk {
        PartnerTalk::Anything => vec![
            TalkKind::Need,
            TalkKind::DontGive,
            TalkKind::Sit,
            TalkKind::Go,
            TalkKind::Flag,
            TalkKind::Text,
        ],
        PartnerTalk::MinervaKinds => vec![
            TalkKind::Need,
            TalkKind::DontGive,
            TalkKind::Sit,
            TalkKind::Go,
            TalkKind::Flag,
        ],
        PartnerTalk::PieceRequestsOnly => vec![TalkKind::Need],
    }
}

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

impl LiveMatch {
    /// Whether the match is over and how many of its games have ended: what `after_change`
    /// compares against.
    fn progress(&self) -> (bool, usize) {
        let ended = BoardId::ALL
            .iter()
            .filter(|b| self.game.game_end(**b).is_some())
            .count();
        (self.game.is_over(), ended)
    }

    fn status(&self) -> &'static str {
        if self.finished {
            "finished"
        } else if self.game.is_started() {
            "playing"
        } else {
            "waiting"
        }
    }

    /// Whether `seat` can be taken now (before the start, and empty); the error to send if not.
    fn seat_free(&self, seat: Seat) -> Result<(), (ErrorCode, String)> {
        if self.game.is_started() {
            return Err((ErrorCode::NotAllowed, "the match has started".to_owned()));
        }
        if self.seats[seat_index(seat)].is_some() {
            return Err((ErrorCode::SeatTaken, format!("{seat} is taken")));
        }
        Ok(())
    }

    fn match_time(&self, now: Duration) -> Duration {
        (now + self.ahead).saturating_sub(self.epoch)
    }

    /// The next number of a numbered message.
    fn next_seq(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    /// How long a flag fall waits for a move compensated for lag: as much as the next move of a
    /// seat whose clock runs could be compensated, at most [`MAX_FLAG_GRACE`].
    fn flag_grace(&self) -> Duration {
        BoardId::ALL
            .into_iter()
            .filter(|b| self.game.game_end(*b).is_none())
            .filter_map(|b| self.game.clock(b).running().map(|c| Seat::new(b, c)))
            .map(|seat| {
                let lag = self.lag[seat_index(seat)];
                lag.estimate.unwrap_or(Duration::ZERO).min(lag.quota)
            })
            .max()
            .unwrap_or(Duration::ZERO)
            .min(MAX_FLAG_GRACE)
    }

    /// The team's talk as `seat` may see it: his team's only.
    fn talk_log(&self, seat: Option<Seat>) -> Vec<TalkEntry> {
        let Some(seat) = seat else {
            return Vec::new();
        };
        self.talk
            .iter()
            .filter(|(from, _)| *from == seat || *from == seat.partner())
            .map(|(_, e)| e.clone())
            .collect()
    }

    fn clocks(&self, now: Duration) -> Clocks {
        // A finished match's clocks stay as they stopped.
        let t = match (self.finished, self.end_time) {
            (true, Some(end)) => end,
            _ => self.match_time(now),
        };
        let mut remaining_ms = [0; 4];
        let mut running = Vec::new();
        for (i, seat) in Seat::ALL.into_iter().enumerate() {
            remaining_ms[i] = ms(self.game.remaining(seat, t));
            if self.game.clock(seat.board).running() == Some(seat.color) && !self.finished {
                running.push(seat_name(seat));
            }
        }
        Clocks {
            remaining_ms,
            running,
        }
    }

    fn board_state(&self, board: BoardId, for_seat: Option<Seat>) -> BoardState {
        let pos = self.game.position(board);
        BoardState {
            board: board.to_string(),
            fen: pos.fen(),
            last_move: self.last_moves[board.index()].clone(),
            check: pos.is_check(),
            verdict: pos.verdict().to_string(),
            legal: self.legal(board, for_seat),
        }
    }

    /// The legal moves of a board in UCI, for the seat to move on it only.
    fn legal(&self, board: BoardId, for_seat: Option<Seat>) -> Option<Vec<String>> {
        let pos = self.game.position(board);
        let to_move = Seat::new(board, pos.turn());
        (for_seat == Some(to_move)
            && self.game.is_started()
            && !self.finished
            && self.game.game_end(board).is_none())
        .then(|| pos.legal_moves().iter().map(|m| m.to_string()).collect())
    }

    fn move_info(&self, ply: usize) -> Option<MoveInfo> {
        let r = self.game.record().get(ply)?;
        Some(MoveInfo {
            ply,
            seat: seat_name(r.seat),
            uci: r.mv.to_string(),
            san: r.san.clone(),
            number: r.number,
            clock_ms: ms(r.clock_left),
            lag_ms: self.move_lag.get(ply).map_or(0, |l| u64::from(*l)),
        })
    }

    fn result_info(&self) -> Option<ResultInfo> {
        if let Some(stored) = &self.stored_result {
            return Some(stored.clone());
        }
        // Under knsb-1988 a game may end while the other goes on (K11G): the match result is
        // `*` until both have.
        let result = match self.game.result() {
            Some(result) => result.pgn(),
            None if BoardId::ALL
                .iter()
                .any(|b| self.game.game_end(*b).is_some()) =>
            {
                "*"
            }
            None => return None,
        };
        let boards = BoardId::ALL.map(|b| match self.game.game_end(b) {
            Some(e) if e.reason != EndReason::OtherBoard => e.score.pgn().to_owned(),
            _ => "*".to_owned(),
        });
        let tags: Vec<(String, String)> = Seat::ALL
            .into_iter()
            .filter_map(|s| {
                self.seats[seat_index(s)]
                    .as_ref()
                    .map(|h| (seat_name(s), h.name.clone()))
            })
            .collect();
        let reason = if self.game.rules().match_ends_with_first_game && self.game.is_over() {
            bughouse_bpgn::termination(&self.game, &tags).unwrap_or_else(|| "game over".into())
        } else {
            // Both games were played out (K11G): each has its own reason.
            BoardId::ALL
                .into_iter()
                .filter_map(|b| {
                    self.game
                        .game_end(b)
                        .map(|e| format!("board {b}: {}", e.reason))
                })
                .collect::<Vec<_>>()
                .join("; ")
        };
        Some(ResultInfo {
            result: result.to_owned(),
            boards,
            reason,
        })
    }

    fn state(&self, now: Duration, you: Option<Seat>, connected: &[bool; 4]) -> MatchState {
        MatchState {
            match_id: self.id.clone(),
            rules: self.preset.clone(),
            time_control: self.game.time_control().to_string(),
            status: self.status().to_owned(),
            seats: Seat::ALL
                .into_iter()
                .enumerate()
                .map(|(i, s)| SeatInfo {
                    seat: seat_name(s),
                    name: self.seats[i].as_ref().map(|h| h.name.clone()),
                    bot: self.seats[i].as_ref().is_some_and(|h| h.bot.is_some()),
                    connected: connected[i],
                })
                .collect(),
            boards: BoardId::ALL.map(|b| self.board_state(b, you)),
            clocks: self.clocks(now),
            moves: (0..self.game.record().len())
                .filter_map(|i| self.move_info(i))
                .collect(),
            result: self.result_info(),
            draw_offers: Seat::ALL
                .into_iter()
                .filter(|s| self.game.draw_offered(*s))
                .map(seat_name)
                .collect(),
            talk: talk_kinds(self.game.rules()),
            settings: rule_settings(self.game.rules()),
            seq: self.seq,
            talk_log: self.talk_log(you),
        }
    }

    /// The next moment a flag can fall, in server time, with the grace for a compensated move.
    fn deadline(&self) -> Option<Duration> {
        if self.finished || !self.game.is_started() {
            return None;
        }
        let grace = self.flag_grace();
        BoardId::ALL
            .into_iter()
            .filter(|b| self.game.game_end(*b).is_none())
            .filter_map(|b| {
                self.game
                    .clock(b)
                    .flag_time()
                    .map(|(_, t)| (t + self.epoch + grace).saturating_sub(self.ahead))
            })
            .min()
    }
}

impl Hub {
    /// An empty hub. `seed` seeds the generator of match ids and seat tokens: give it real
    /// entropy in production, a constant in tests.
    pub fn new(seed: [u8; 32]) -> Hub {
        Hub {
            matches: HashMap::new(),
            conns: HashMap::new(),
            deadlines: BTreeSet::new(),
            deadline_of: HashMap::new(),
            finished: HashSet::new(),
            bots_pending: HashSet::new(),
            rng: StdRng::from_seed(seed),
            now: Duration::ZERO,
            action: None,
            last_lag: None,
        }
    }

    /// The number of live (not finished) matches.
    pub fn live_matches(&self) -> usize {
        self.matches.values().filter(|m| !m.finished).count()
    }

    fn random_id(&mut self, bytes: usize) -> String {
        let mut buf = vec![0u8; bytes];
        self.rng.fill_bytes(&mut buf);
        const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
        buf.iter()
            .map(|b| char::from(ALPHABET[usize::from(*b) % ALPHABET.len()]))
            .collect()
    }

    /// Creates a match. Returns its id and the effects (its storage).
    ///
    /// # Errors
    ///
    /// An unknown preset or unreadable time control.
    pub fn create_match(
        &mut self,
        preset: &str,
        time_control: &str,
        now: Duration,
    ) -> Result<(String, Vec<Effect>), CreateError> {
        self.now = now;
        self.create_custom(preset, &BTreeMap::new(), time_control, now)
    }

    /// Creates a match with a preset's rules changed in the `custom` fields (names and values
    /// as [`Rules::set`] takes them). A set equal to some preset carries that preset's id,
    /// any other is `custom`.
    ///
    /// # Errors
    ///
    /// An unknown preset, field or value, or an unreadable time control.
    pub fn create_custom(
        &mut self,
        preset: &str,
        custom: &BTreeMap<String, String>,
        time_control: &str,
        now: Duration,
    ) -> Result<(String, Vec<Effect>), CreateError> {
        self.now = now;
        let preset: Preset = preset.parse()?;
        let mut rules = preset.rules();
        for (field, value) in custom {
            rules.set(field, value)?;
        }
        let tc: TimeControl = time_control.parse()?;
        Ok(self.create_with(rules, tc, None))
    }

    fn create_with(
        &mut self,
        rules: Rules,
        tc: TimeControl,
        rematch_of: Option<String>,
    ) -> (String, Vec<Effect>) {
        let id = loop {
            let id = self.random_id(10);
            if !self.matches.contains_key(&id) {
                break id;
            }
        };
        let label = rules_label(&rules);
        self.matches.insert(
            id.clone(),
            LiveMatch {
                id: id.clone(),
                preset: label.clone(),
                game: Match::new(rules, tc),
                seats: [None, None, None, None],
                watchers: Vec::new(),
                epoch: self.now,
                ahead: Duration::ZERO,
                last_moves: [None, None],
                finished: false,
                rematch: [None, None],
                events: 0,
                bots: Default::default(),
                seq: 0,
                talk: Vec::new(),
                recent: Default::default(),
                lag: [LagSeat {
                    estimate: None,
                    quota: lag_quota(tc).1,
                }; 4],
                stored_result: None,
                end_time: None,
                move_lag: Vec::new(),
                flags_stored: Vec::new(),
            },
        );
        let effects = vec![Effect::Store(StoreOp::CreateMatch {
            id: id.clone(),
            preset: label,
            rules,
            time_control: tc,
            rematch_of,
        })];
        (id, effects)
    }

    /// The state of a match as anyone may see it (no legal moves), for `GET /api/matches/{id}`.
    pub fn public_state(&self, match_id: &str, now: Duration) -> Option<MatchState> {
        let m = self.matches.get(match_id)?;
        Some(m.state(now, None, &self.connected(m)))
    }

    fn connected(&self, m: &LiveMatch) -> [bool; 4] {
        let mut c = [false; 4];
        for conn in &m.watchers {
            if let Some(seat) = self.conns.get(conn).and_then(|c| c.seat) {
                c[seat_index(seat)] = true;
            }
        }
        for (i, s) in m.seats.iter().enumerate() {
            if s.as_ref().is_some_and(|h| h.bot.is_some()) {
                c[i] = true;
            }
        }
        c
    }

    /// The next moment the hub must be woken with [`Input::Tick`], if any.
    pub fn next_deadline(&self) -> Option<Duration> {
        self.deadlines.first().map(|(t, _)| *t)
    }

    /// Applies one input at server time `now`.
    pub fn apply(&mut self, input: Input, now: Duration) -> Vec<Effect> {
        self.now = now;
        let mut fx = Vec::new();
        match input {
            Input::Connected(conn) => {
                self.conns.insert(
                    conn,
                    Conn {
                        match_id: None,
                        seat: None,
                        tokens: RATE_BURST,
                        last_refill: now,
                        refusals: 0,
                        rtt: None,
                    },
                );
            }
            Input::Disconnected(conn) => self.disconnect(conn, &mut fx),
            Input::Invalid(conn, why) => {
                let code = if why.contains("large") {
                    ErrorCode::TooLarge
                } else {
                    ErrorCode::BadMessage
                };
                fx.push(Effect::Send(vec![conn], error(code, why)));
                self.refuse(conn, &mut fx);
            }
            Input::Text(conn, text) => self.text(conn, &text, &mut fx),
            Input::Tick => self.tick(&mut fx),
            Input::Bot(reply) => self.bot_reply(reply, &mut fx),
            Input::BotWake { match_id, seat } => {
                if let Some(b) = self
                    .matches
                    .get_mut(&match_id)
                    .map(|m| &mut m.bots[seat_index(seat)])
                {
                    if b.sitting {
                        // Anything counts as new: ask again.
                        b.asked = b.asked.map(|(ply, _)| (ply, usize::MAX));
                        self.bot_turns(&match_id, &mut fx);
                    }
                }
            }
        }
        fx
    }

    fn refuse(&mut self, conn: ConnId, fx: &mut Vec<Effect>) {
        if let Some(c) = self.conns.get_mut(&conn) {
            c.refusals += 1;
            if c.refusals > MAX_REFUSALS {
                fx.push(Effect::Close(conn));
            }
        }
    }

    fn disconnect(&mut self, conn: ConnId, fx: &mut Vec<Effect>) {
        let Some(c) = self.conns.remove(&conn) else {
            return;
        };
        if let Some(id) = c.match_id {
            if let Some(m) = self.matches.get_mut(&id) {
                m.watchers.retain(|w| *w != conn);
                if c.seat.is_some() {
                    self.broadcast_state(&id, fx);
                }
            }
        }
    }

    fn text(&mut self, conn: ConnId, text: &str, fx: &mut Vec<Effect>) {
        let now = self.now;
        let Some(c) = self.conns.get_mut(&conn) else {
            return;
        };
        // Token bucket.
        let elapsed = now.saturating_sub(c.last_refill).as_secs_f64();
        c.tokens = (c.tokens + elapsed * RATE_PER_SEC).min(RATE_BURST);
        c.last_refill = now;
        if c.tokens < 1.0 {
            fx.push(Effect::Send(
                vec![conn],
                error(ErrorCode::RateLimited, "too many messages; slow down"),
            ));
            self.refuse(conn, fx);
            return;
        }
        c.tokens -= 1.0;
        if text.len() > MAX_CLIENT_MESSAGE {
            fx.push(Effect::Send(
                vec![conn],
                error(
                    ErrorCode::TooLarge,
                    format!("a message may have at most {MAX_CLIENT_MESSAGE} bytes"),
                ),
            ));
            self.refuse(conn, fx);
            return;
        }
        let ClientFrame { id, msg } = match serde_json::from_str(text) {
            Ok(m) => m,
            Err(e) => {
                fx.push(Effect::Send(
                    vec![conn],
                    error(ErrorCode::BadMessage, e.to_string()),
                ));
                self.refuse(conn, fx);
                return;
            }
        };
        let acts = !matches!(
            msg,
            ClientMessage::Hello { .. } | ClientMessage::Ping { .. }
        );
        let id = id.filter(|_| acts);
        if let Some(id) = id {
            if self.answer_again(conn, id, fx) {
                return;
            }
        }
        let before = fx.len();
        self.action = id;
        self.last_lag = None;
        self.message(conn, msg, fx);
        self.action = None;
        let mut refused = false;
        for e in &mut fx[before..] {
            if let Effect::Send(to, ServerMessage::Error { id: err_id, .. }) = e {
                if to == &[conn] {
                    refused = true;
                    *err_id = id;
                }
            }
        }
        if let Some(c) = self.conns.get_mut(&conn) {
            if refused {
                c.refusals += 1;
            } else {
                c.refusals = 0;
            }
        }
        if let (Some(id), false) = (id, refused) {
            self.acknowledge(conn, id, fx);
        }
    }

    /// An action id this connection's seat has had acknowledged: the same `ack` again, and
    /// nothing applied.
    fn answer_again(&self, conn: ConnId, id: u64, fx: &mut Vec<Effect>) -> bool {
        let Some((m, seat)) = self.conns.get(&conn).and_then(|c| {
            let m = self.matches.get(c.match_id.as_deref()?)?;
            Some((m, c.seat?))
        }) else {
            return false;
        };
        let Some(done) = m.recent[seat_index(seat)].iter().find(|r| r.id == id) else {
            return false;
        };
        fx.push(Effect::Send(
            vec![conn],
            ServerMessage::Ack {
                id,
                seq: m.seq,
                lag_ms: done.lag_ms,
            },
        ));
        true
    }

    /// Acknowledges an action that was applied (its effects are stored before the `ack` is
    /// sent) and remembers its id for the seat.
    fn acknowledge(&mut self, conn: ConnId, id: u64, fx: &mut Vec<Effect>) {
        let lag_ms = self.last_lag.take().map(ms);
        let seat = self.conns.get(&conn).and_then(|c| c.seat);
        let m = self
            .conns
            .get(&conn)
            .and_then(|c| c.match_id.as_deref())
            .and_then(|mid| self.matches.get_mut(mid));
        let seq = match m {
            Some(m) => {
                if let Some(seat) = seat {
                    remember(&mut m.recent[seat_index(seat)], Recent { id, lag_ms });
                }
                m.seq
            }
            None => 0,
        };
        fx.push(Effect::Send(
            vec![conn],
            ServerMessage::Ack { id, seq, lag_ms },
        ));
    }

    fn message(&mut self, conn: ConnId, msg: ClientMessage, fx: &mut Vec<Effect>) {
        let now = self.now;
        match msg {
            ClientMessage::Ping { t } => {
                let c = self.conns.get(&conn);
                let lag_ms = c.and_then(|c| c.rtt).map(|rtt| ms(rtt / 2));
                let quota_ms = c
                    .and_then(|c| Some((self.matches.get(c.match_id.as_deref()?)?, c.seat?)))
                    .map(|(m, seat)| ms(m.lag[seat_index(seat)].quota));
                fx.push(Effect::Send(
                    vec![conn],
                    ServerMessage::Pong {
                        t,
                        server_ms: ms(now),
                        lag_ms,
                        quota_ms,
                    },
                ));
            }
            ClientMessage::Hello { match_id, token } => self.hello(conn, &match_id, token, fx),
            other => {
                let Some((id, seat)) = self
                    .conns
                    .get(&conn)
                    .and_then(|c| c.match_id.clone().map(|id| (id, c.seat)))
                else {
                    fx.push(Effect::Send(
                        vec![conn],
                        error(ErrorCode::BadMessage, "send hello with a match id first"),
                    ));
                    return;
                };
                match other {
                    ClientMessage::Sit {
                        seat: name,
                        name: player,
                    } => self.sit(conn, &id, &name, &player, fx),
                    ClientMessage::AddBot { seat, level } => {
                        self.add_bot(conn, &id, &seat, level, fx);
                    }
                    ClientMessage::Stand => self.stand(conn, &id, seat, fx),
                    ClientMessage::Move { uci } => self.play(conn, &id, seat, &uci, fx),
                    ClientMessage::Resign
                    | ClientMessage::OfferDraw
                    | ClientMessage::WithdrawDraw
                    | ClientMessage::ClaimDraw { .. } => self.action(conn, &id, seat, other, fx),
                    ClientMessage::Talk { kind, piece, text } => {
                        self.talk(conn, &id, seat, kind, piece, text, fx)
                    }
                    ClientMessage::Rematch { swap } => self.rematch(conn, &id, seat, swap, fx),
                    ClientMessage::Hello { .. } | ClientMessage::Ping { .. } => {}
                }
            }
        }
    }

    fn hello(&mut self, conn: ConnId, match_id: &str, token: Option<String>, fx: &mut Vec<Effect>) {
        if !self.matches.contains_key(match_id) {
            fx.push(Effect::Send(
                vec![conn],
                error(ErrorCode::NoSuchMatch, format!("no match {match_id:?}")),
            ));
            return;
        }
        // Leave any match this connection watched before.
        let previous = self.conns.get(&conn).and_then(|c| c.match_id.clone());
        if let Some(prev) = previous.filter(|p| p != match_id) {
            if let Some(pm) = self.matches.get_mut(&prev) {
                pm.watchers.retain(|w| *w != conn);
            }
        }
        let Some(m) = self.matches.get_mut(match_id) else {
            return;
        };
        if !m.watchers.contains(&conn) {
            m.watchers.push(conn);
        }
        let seat = token.as_deref().map(hash_token).and_then(|h| {
            Seat::ALL.into_iter().find(|s| {
                m.seats[seat_index(*s)]
                    .as_ref()
                    .is_some_and(|holder| holder.token_hash == h)
            })
        });
        let bad_token = token.is_some() && seat.is_none();
        if let Some(c) = self.conns.get_mut(&conn) {
            c.match_id = Some(match_id.to_owned());
            c.seat = seat;
        }
        if bad_token {
            fx.push(Effect::Send(
                vec![conn],
                error(
                    ErrorCode::BadToken,
                    format!("the token opens no seat of match {match_id}: you are watching"),
                ),
            ));
        }
        if let (Some(seat), Some(rtt)) = (seat, self.conns.get(&conn).and_then(|c| c.rtt)) {
            if let Some(m) = self.matches.get_mut(match_id) {
                m.lag[seat_index(seat)].estimate = Some(rtt / 2);
            }
        }
        if seat.is_some() {
            // The others see him connected again.
            self.broadcast_state(match_id, fx);
        } else {
            self.send_state(conn, match_id, fx);
        }
    }

    fn send_state(&self, conn: ConnId, match_id: &str, fx: &mut Vec<Effect>) {
        let Some(m) = self.matches.get(match_id) else {
            return;
        };
        let you = self.conns.get(&conn).and_then(|c| c.seat);
        let connected = self.connected(m);
        fx.push(Effect::Send(
            vec![conn],
            ServerMessage::State {
                state: m.state(self.now, you, &connected),
                you: you.map(seat_name),
            },
        ));
    }

    fn broadcast_state(&self, match_id: &str, fx: &mut Vec<Effect>) {
        let Some(m) = self.matches.get(match_id) else {
            return;
        };
        for &w in &m.watchers {
            self.send_state(w, match_id, fx);
        }
    }

    fn add_bot(
        &mut self,
        conn: ConnId,
        id: &str,
        seat: &str,
        level: Option<u8>,
        fx: &mut Vec<Effect>,
    ) {
        let Some(seat) = parse_seat(seat) else {
            fx.push(Effect::Send(
                vec![conn],
                error(
                    ErrorCode::BadMessage,
                    "seat must be WhiteA, BlackA, WhiteB or BlackB",
                ),
            ));
            return;
        };
        let level = level.unwrap_or(*BOT_LEVELS.end());
        if !BOT_LEVELS.contains(&level) {
            fx.push(Effect::Send(
                vec![conn],
                error(
                    ErrorCode::BadMessage,
                    format!(
                        "a bot level is {} to {}",
                        BOT_LEVELS.start(),
                        BOT_LEVELS.end()
                    ),
                ),
            ));
            return;
        }
        let Some(m) = self.matches.get_mut(id) else {
            return;
        };
        if let Err((code, message)) = m.seat_free(seat) {
            fx.push(Effect::Send(vec![conn], error(code, message)));
            return;
        }
        let name = format!("Bot {level}");
        m.seats[seat_index(seat)] = Some(SeatHolder {
            name: name.clone(),
            token_hash: bot_marker(level),
            bot: Some(level),
        });
        fx.push(Effect::Store(StoreOp::SetSeat {
            match_id: id.to_owned(),
            seat: seat_index(seat) as u8,
            name,
            token_hash: bot_marker(level),
            bot: true,
        }));
        self.maybe_start(id, fx);
        self.broadcast_state(id, fx);
    }

    fn sit(&mut self, conn: ConnId, id: &str, seat: &str, name: &str, fx: &mut Vec<Effect>) {
        let Some(seat) = parse_seat(seat) else {
            fx.push(Effect::Send(
                vec![conn],
                error(
                    ErrorCode::BadMessage,
                    "seat must be WhiteA, BlackA, WhiteB or BlackB",
                ),
            ));
            return;
        };
        let name = name.trim();
        if name.is_empty() || name.chars().count() > MAX_NAME || name.chars().any(char::is_control)
        {
            fx.push(Effect::Send(
                vec![conn],
                error(
                    ErrorCode::BadMessage,
                    format!("a name has 1 to {MAX_NAME} printable characters"),
                ),
            ));
            return;
        }
        let token = self.random_id(24);
        let Some(m) = self.matches.get_mut(id) else {
            return;
        };
        if let Err((code, message)) = m.seat_free(seat) {
            fx.push(Effect::Send(vec![conn], error(code, message)));
            return;
        }
        // One seat per connection: leave the old one.
        let old = self.conns.get(&conn).and_then(|c| c.seat);
        if let Some(old) = old {
            m.seats[seat_index(old)] = None;
            fx.push(Effect::Store(StoreOp::ClearSeat {
                match_id: id.to_owned(),
                seat: seat_index(old) as u8,
            }));
        }
        let token_hash = hash_token(&token);
        m.seats[seat_index(seat)] = Some(SeatHolder {
            name: name.to_owned(),
            token_hash: token_hash.clone(),
            bot: None,
        });
        fx.push(Effect::Store(StoreOp::SetSeat {
            match_id: id.to_owned(),
            seat: seat_index(seat) as u8,
            name: name.to_owned(),
            token_hash,
            bot: false,
        }));
        if let Some(c) = self.conns.get_mut(&conn) {
            c.seat = Some(seat);
        }
        fx.push(Effect::Send(
            vec![conn],
            ServerMessage::Seated {
                seat: seat_name(seat),
                token,
            },
        ));
        self.maybe_start(id, fx);
        self.broadcast_state(id, fx);
    }

    fn maybe_start(&mut self, id: &str, fx: &mut Vec<Effect>) {
        let now = self.now;
        let Some(m) = self.matches.get_mut(id) else {
            return;
        };
        if m.game.is_started() || m.seats.iter().any(Option::is_none) {
            return;
        }
        // The match starts when all four seats are filled; all four clocks start together
        // (F3.1, M6.4).
        m.epoch = now;
        m.ahead = Duration::ZERO;
        if m.game.start(Duration::ZERO).is_ok() {
            fx.push(Effect::Store(StoreOp::Start {
                match_id: id.to_owned(),
            }));
            fx.push(Effect::Store(StoreOp::ClockAnchor {
                match_id: id.to_owned(),
                zero_at_ms: signed_ms(now, Duration::ZERO),
            }));
            self.schedule(id);
            self.bot_turns(id, fx);
        }
    }

    fn schedule(&mut self, id: &str) {
        if let Some(old) = self.deadline_of.remove(id) {
            self.deadlines.remove(&(old, id.to_owned()));
        }
        if let Some(t) = self.matches.get(id).and_then(LiveMatch::deadline) {
            self.deadlines.insert((t, id.to_owned()));
            self.deadline_of.insert(id.to_owned(), t);
        }
    }

    fn stand(&mut self, conn: ConnId, id: &str, seat: Option<Seat>, fx: &mut Vec<Effect>) {
        let Some(seat) = seat else {
            fx.push(Effect::Send(
                vec![conn],
                error(ErrorCode::NotSeated, "you have no seat"),
            ));
            return;
        };
        let Some(m) = self.matches.get_mut(id) else {
            return;
        };
        if m.game.is_started() {
            fx.push(Effect::Send(
                vec![conn],
                error(
                    ErrorCode::NotAllowed,
                    "the match has started: resign instead",
                ),
            ));
            return;
        }
        m.seats[seat_index(seat)] = None;
        fx.push(Effect::Store(StoreOp::ClearSeat {
            match_id: id.to_owned(),
            seat: seat_index(seat) as u8,
        }));
        // Every connection of that seat loses it.
        for c in self.conns.values_mut() {
            if c.match_id.as_deref() == Some(id) && c.seat == Some(seat) {
                c.seat = None;
            }
        }
        self.broadcast_state(id, fx);
    }

    /// The lag compensation this connection's move may get now (see `docs/protocol.md`): its
    /// measured one-way lag, at most what the seat's quota holds.
    fn compensation(&self, conn: ConnId, id: &str, seat: Seat) -> Duration {
        let quota = self
            .matches
            .get(id)
            .map_or(Duration::ZERO, |m| m.lag[seat_index(seat)].quota);
        self.conns
            .get(&conn)
            .and_then(|c| c.rtt)
            .map_or(Duration::ZERO, |rtt| (rtt / 2).min(quota))
    }

    /// Records a measured round trip for a connection (the adapter measures pings).
    pub fn observe_rtt(&mut self, conn: ConnId, rtt: Duration) {
        let Some(c) = self.conns.get_mut(&conn) else {
            return;
        };
        let avg = match c.rtt {
            None => rtt,
            // Exponential moving average, weight 1/4 for the new sample.
            Some(old) => (old * 3 + rtt) / 4,
        };
        c.rtt = Some(avg);
        if let (Some(id), Some(seat)) = (c.match_id.as_deref(), c.seat) {
            if let Some(m) = self.matches.get_mut(id) {
                m.lag[seat_index(seat)].estimate = Some(avg / 2);
            }
        }
    }

    fn play(
        &mut self,
        conn: ConnId,
        id: &str,
        seat: Option<Seat>,
        uci: &str,
        fx: &mut Vec<Effect>,
    ) {
        let Some(seat) = seat else {
            fx.push(Effect::Send(
                vec![conn],
                error(ErrorCode::NotSeated, "only a seated player can move"),
            ));
            return;
        };
        let compensation = self.compensation(conn, id, seat);
        self.play_as(Some(conn), id, seat, uci, compensation, fx);
    }

    /// Plays `uci` for `seat` now, counted as made up to `compensation` earlier; errors go to
    /// `reply`. Whether the move was played.
    fn play_as(
        &mut self,
        reply: Option<ConnId>,
        id: &str,
        seat: Seat,
        uci: &str,
        compensation: Duration,
        fx: &mut Vec<Effect>,
    ) -> bool {
        let now = self.now;
        let action_id = self.action;
        let Some(m) = self.matches.get_mut(id) else {
            return false;
        };
        if m.finished {
            if let Some(conn) = reply {
                fx.push(Effect::Send(
                    vec![conn],
                    error(ErrorCode::GameOver, "the match is over"),
                ));
            }
            return false;
        }
        let t = m.match_time(now);
        // The move counts as made up to `compensation` earlier, but never before the mover's
        // clock started.
        let started = m
            .game
            .record()
            .iter()
            .rev()
            .find(|r| r.seat.board == seat.board)
            .map_or(Duration::ZERO, |r| r.at);
        let at = t.saturating_sub(compensation).max(started);
        let mv = match m.game.position(seat.board).parse_uci(uci) {
            Ok(mv) => mv,
            Err(e) => {
                let (code, msg) = match e {
                    bughouse_core::uci::UciError::Syntax(e) => {
                        (ErrorCode::BadMessage, e.to_string())
                    }
                    bughouse_core::uci::UciError::Illegal(e) => {
                        if m.game.position(seat.board).turn() != seat.color {
                            (ErrorCode::NotYourTurn, format!("it is not {seat}'s move"))
                        } else {
                            (ErrorCode::IllegalMove, e.to_string())
                        }
                    }
                };
                if let Some(conn) = reply {
                    fx.push(Effect::Send(vec![conn], error(code, msg)));
                }
                return false;
            }
        };
        let before = m.progress();
        match m.game.play(seat, mv, at) {
            Ok(_) => {}
            Err(e) => {
                let code = match e {
                    MatchError::NotYourTurn(_) => ErrorCode::NotYourTurn,
                    MatchError::Illegal(_) => ErrorCode::IllegalMove,
                    MatchError::NotStarted => ErrorCode::NotAllowed,
                    _ => ErrorCode::GameOver,
                };
                if let Some(conn) = reply {
                    fx.push(Effect::Send(vec![conn], error(code, e.to_string())));
                }
                // A flag may have fallen while the move was on its way.
                self.after_change(id, before, fx);
                return false;
            }
        }
        let ply = m.game.record().len() - 1;
        m.last_moves[seat.board.index()] = Some(m.game.record()[ply].mv.to_string());
        // The quota pays for the compensation the move got and gains the time control's share.
        let granted = t.saturating_sub(at);
        let (gain, _, max) = lag_quota(m.game.time_control());
        let lag = &mut m.lag[seat_index(seat)];
        if reply.is_some() {
            lag.quota = (lag.quota.saturating_sub(granted) + gain).min(max);
        }
        m.move_lag
            .push(u16::try_from(granted.as_millis()).unwrap_or(u16::MAX));
        let clocks = m.clocks(now);
        fx.push(Effect::Store(StoreOp::Move {
            match_id: id.to_owned(),
            ply,
            seat: seat_index(seat) as u8,
            uci: m.game.record()[ply].mv.to_string(),
            san: m.game.record()[ply].san.clone(),
            at_ms: ms(at),
            remaining_ms: clocks.remaining_ms,
            action_id,
            lag_ms: ms(granted),
        }));
        self.last_lag = Some(granted);
        let seq = m.next_seq();
        self.send_moved(id, ply, seq, fx);
        self.after_change(id, before, fx);
        true
    }

    fn send_moved(&self, id: &str, ply: usize, seq: u64, fx: &mut Vec<Effect>) {
        let Some(m) = self.matches.get(id) else {
            return;
        };
        let Some(info) = m.move_info(ply) else {
            return;
        };
        let board = m.game.record()[ply].seat.board;
        let clocks = m.clocks(self.now);
        // Both boards as everyone sees them, made once (FEN and all); the players to move get
        // a copy with their legal moves added.
        let seen = m.board_state(board, None);
        let seen_other = m.board_state(board.other(), None);
        let with_legal = |state: &BoardState, b: BoardId, you: Option<Seat>| BoardState {
            legal: m.legal(b, you),
            ..state.clone()
        };
        // Each watcher gets the legal moves of his own board when he is to move.
        let mut plain = Vec::new();
        for &w in &m.watchers {
            let you = self.conns.get(&w).and_then(|c| c.seat);
            let to_move = BoardId::ALL
                .into_iter()
                .find(|b| you == Some(m.game.to_move(*b)));
            if to_move.is_some() && !m.finished {
                fx.push(Effect::Send(
                    vec![w],
                    ServerMessage::Moved {
                        mv: info.clone(),
                        board: with_legal(&seen, board, you),
                        other: with_legal(&seen_other, board.other(), you),
                        clocks: clocks.clone(),
                        seq,
                    },
                ));
            } else {
                plain.push(w);
            }
        }
        if !plain.is_empty() {
            fx.push(Effect::Send(
                plain,
                ServerMessage::Moved {
                    mv: info,
                    board: seen,
                    other: seen_other,
                    clocks,
                    seq,
                },
            ));
        }
    }

    /// What `after_change` compares against: whether the match was over and which games had
    /// ended.
    fn snapshot(&self, id: &str) -> (bool, usize) {
        self.matches.get(id).map_or((false, 0), LiveMatch::progress)
    }

    /// After anything that may end a game: store the flag falls that ended games (so that a
    /// restore replays them), store and announce the end, reschedule flags.
    fn after_change(&mut self, id: &str, before: (bool, usize), fx: &mut Vec<Effect>) {
        let now = self.now;
        let (was_over, ended_before) = before;
        let Some(m) = self.matches.get_mut(id) else {
            return;
        };
        let ended_now = BoardId::ALL
            .iter()
            .filter(|b| m.game.game_end(**b).is_some())
            .count();
        if ended_now > ended_before {
            // Flag falls are no player's action: kept as events, in the order they fell, in
            // the same transaction as the end they cause.
            let mut flags: Vec<(Duration, Seat)> = BoardId::ALL
                .into_iter()
                .filter_map(|b| m.game.game_end(b))
                .filter(|e| {
                    matches!(
                        e.reason,
                        EndReason::Flag | EndReason::FlagOpponentCannotMate | EndReason::BothFlags
                    )
                })
                .filter_map(|e| Some((e.at, e.seat?)))
                .filter(|(_, seat)| !m.flags_stored.contains(seat))
                .collect();
            flags.sort_by_key(|(at, seat)| (*at, seat_index(*seat)));
            for (at, seat) in flags {
                m.flags_stored.push(seat);
                m.events += 1;
                fx.push(Effect::Store(StoreOp::Event {
                    match_id: id.to_owned(),
                    seq: m.events - 1,
                    ply: m.game.record().len(),
                    seat: seat_index(seat) as u8,
                    kind: "flag".to_owned(),
                    detail: String::new(),
                    at_ms: ms(at),
                    action_id: None,
                }));
            }
        }
        if m.game.is_over() && !was_over {
            m.finished = true;
            m.end_time = Some(m.game.ended_at().unwrap_or_else(|| m.match_time(now)));
            self.finished.insert(id.to_owned());
            if let Some(result) = m.result_info() {
                fx.push(Effect::Store(StoreOp::Finish {
                    match_id: id.to_owned(),
                    result: result.clone(),
                    bpgn: bpgn_of(m),
                }));
                let seq = m.next_seq();
                fx.push(Effect::Send(
                    m.watchers.clone(),
                    ServerMessage::Ended {
                        result,
                        clocks: m.clocks(now),
                        seq,
                    },
                ));
            }
        } else if !m.game.is_over() && ended_now > ended_before {
            // knsb-1988: one game ended, the other goes on (K11G).
            let boards = BoardId::ALL.map(|b| {
                m.game
                    .game_end(b)
                    .map_or("*".to_owned(), |e| e.score.pgn().to_owned())
            });
            let reason = BoardId::ALL
                .into_iter()
                .filter_map(|b| {
                    m.game
                        .game_end(b)
                        .map(|e| format!("board {b}: {}", e.reason))
                })
                .collect::<Vec<_>>()
                .join("; ");
            let seq = m.next_seq();
            fx.push(Effect::Send(
                m.watchers.clone(),
                ServerMessage::Ended {
                    result: ResultInfo {
                        result: "*".to_owned(),
                        boards,
                        reason,
                    },
                    clocks: m.clocks(now),
                    seq,
                },
            ));
        }
        self.schedule(id);
        // Everyone gets the new status (finished, or under knsb-1988 one game over).
        if ended_now > ended_before {
            self.broadcast_state(id, fx);
        }
        self.bot_turns(id, fx);
    }

    /// Asks every bot of the match whose move it is: on a new turn, and, when it sat, once
    /// something changed (a move on the other board, a word from its partner).
    fn bot_turns(&mut self, id: &str, fx: &mut Vec<Effect>) {
        let now = self.now;
        let Some(m) = self.matches.get_mut(id) else {
            return;
        };
        if m.finished || !m.game.is_started() || m.game.is_over() {
            return;
        }
        let at = m.match_time(now);
        let total = m.game.record().len();
        for seat in Seat::ALL {
            let i = seat_index(seat);
            let Some(level) = m.seats[i].as_ref().and_then(|h| h.bot) else {
                continue;
            };
            if m.game.game_end(seat.board).is_some() || m.game.to_move(seat.board) != seat {
                m.bots[i].sitting = false;
                continue;
            }
            let ply = board_plies(&m.game, seat.board);
            let b = &mut m.bots[i];
            let due = match b.asked {
                None => true,
                Some((p, t)) => p != ply || (b.sitting && (t != total || !b.heard.is_empty())),
            };
            if !due {
                continue;
            }
            b.asked = Some((ply, total));
            b.sitting = false;
            fx.push(Effect::BotTurn(BotTurn {
                match_id: id.to_owned(),
                seat,
                level,
                ply,
                game: Box::new(m.game.clone()),
                at,
                heard: std::mem::take(&mut b.heard),
            }));
        }
    }

    /// A bot answered: what it says goes to its partner, then its move is played (or it sits).
    /// An answer to a turn that has passed is dropped.
    fn bot_reply(&mut self, reply: BotReply, fx: &mut Vec<Effect>) {
        let BotReply {
            match_id: id,
            seat,
            ply,
            uci,
            talk,
        } = reply;
        let i = seat_index(seat);
        let Some(m) = self.matches.get(&id) else {
            return;
        };
        if m.seats[i].as_ref().and_then(|h| h.bot).is_none() || m.finished {
            return;
        }
        let allowed = talk_kinds(m.game.rules());
        for (kind, piece) in talk {
            if allowed.contains(&kind) && kind != TalkKind::Text {
                self.deliver_talk(&id, seat, kind, piece, None, fx);
            }
        }
        let Some(m) = self.matches.get_mut(&id) else {
            return;
        };
        if m.game.to_move(seat.board) != seat
            || board_plies(&m.game, seat.board) != ply
            || m.game.game_end(seat.board).is_some()
        {
            return;
        }
        match uci {
            Some(uci) => {
                if !self.play_as(None, &id, seat, &uci, Duration::ZERO, fx) {
                    // Not playable (it should never happen): look again when anything changes.
                    if let Some(m) = self.matches.get_mut(&id) {
                        m.bots[i].sitting = true;
                    }
                }
            }
            None => m.bots[i].sitting = true,
        }
    }

    /// Sends a partner message from `from` to its partner: to the partner's connections, or
    /// into the partner bot's ears (and the bot looks again if it sat).
    fn deliver_talk(
        &mut self,
        id: &str,
        from: Seat,
        kind: TalkKind,
        piece: Option<String>,
        text: Option<String>,
        fx: &mut Vec<Effect>,
    ) {
        let now = self.now;
        let action_id = self.action;
        let Some(m) = self.matches.get_mut(id) else {
            return;
        };
        let partner = from.partner();
        let is_bot = |s: Seat| {
            m.seats[seat_index(s)]
                .as_ref()
                .is_some_and(|h| h.bot.is_some())
        };
        let (partner_is_bot, both_bots) = (is_bot(partner), is_bot(partner) && is_bot(from));
        if partner_is_bot && kind != TalkKind::Text {
            m.bots[seat_index(partner)]
                .heard
                .push((kind, piece.clone()));
        }
        if both_bots {
            // Nobody reads two bots' talk (spectators never see a team's talk): not kept.
            self.bot_turns(id, fx);
            return;
        }
        let entry = TalkEntry {
            n: m.talk.len() as u64,
            from: seat_name(from),
            kind,
            piece,
            text,
            at_ms: ms(m.match_time(now)),
        };
        m.talk.push((from, entry.clone()));
        fx.push(Effect::Store(StoreOp::Talk {
            match_id: id.to_owned(),
            seat: seat_index(from) as u8,
            entry: entry.clone(),
            action_id,
        }));
        // Only the two partners: never the opponents, never spectators.
        let team = [from, partner];
        let to: Vec<ConnId> = m
            .watchers
            .iter()
            .copied()
            .filter(|w| {
                self.conns
                    .get(w)
                    .and_then(|c| c.seat)
                    .is_some_and(|s| team.contains(&s))
            })
            .collect();
        if !to.is_empty() {
            fx.push(Effect::Send(to, ServerMessage::Talk { entry }));
        }
        self.bot_turns(id, fx);
    }

    fn action(
        &mut self,
        conn: ConnId,
        id: &str,
        seat: Option<Seat>,
        msg: ClientMessage,
        fx: &mut Vec<Effect>,
    ) {
        let Some(seat) = seat else {
            fx.push(Effect::Send(
                vec![conn],
                error(ErrorCode::NotSeated, "you have no seat"),
            ));
            return;
        };
        let before = self.snapshot(id);
        let now = self.now;
        let action_id = self.action;
        let Some(m) = self.matches.get_mut(id) else {
            return;
        };
        if m.finished {
            fx.push(Effect::Send(
                vec![conn],
                error(ErrorCode::GameOver, "the match is over"),
            ));
            return;
        }
        let t = m.match_time(now);
        let ply = m.game.record().len();
        let (kind, detail, result) = match msg {
            ClientMessage::Resign => ("resign", String::new(), m.game.resign(seat, t).map(|_| ())),
            ClientMessage::OfferDraw => (
                "offer_draw",
                String::new(),
                m.game.agree_draw(seat, t).map(|_| ()),
            ),
            ClientMessage::WithdrawDraw => {
                m.game.withdraw_draw(seat);
                ("withdraw_draw", String::new(), Ok(()))
            }
            ClientMessage::ClaimDraw { claim } => {
                let c = match claim.as_str() {
                    "repetition" => DrawClaim::Repetition,
                    "move-count" | "move_count" => DrawClaim::MoveCount,
                    _ => {
                        fx.push(Effect::Send(
                            vec![conn],
                            error(ErrorCode::BadMessage, "claim is repetition or move-count"),
                        ));
                        return;
                    }
                };
                ("claim_draw", claim.clone(), m.game.claim_draw(seat, c, t))
            }
            _ => return,
        };
        if let Err(e) = result {
            let code = match e {
                MatchError::MatchOver | MatchError::GameOver(_) => ErrorCode::GameOver,
                _ => ErrorCode::NotAllowed,
            };
            fx.push(Effect::Send(vec![conn], error(code, e.to_string())));
            self.after_change(id, before, fx);
            return;
        }
        m.events += 1;
        fx.push(Effect::Store(StoreOp::Event {
            match_id: id.to_owned(),
            seq: m.events - 1,
            ply,
            seat: seat_index(seat) as u8,
            kind: kind.to_owned(),
            detail,
            at_ms: ms(t),
            action_id,
        }));
        let offers: Vec<String> = Seat::ALL
            .into_iter()
            .filter(|s| m.game.draw_offered(*s))
            .map(seat_name)
            .collect();
        let seq = m.next_seq();
        fx.push(Effect::Send(
            m.watchers.clone(),
            ServerMessage::DrawOffers { seats: offers, seq },
        ));
        self.after_change(id, before, fx);
    }

    #[allow(clippy::too_many_arguments)]
    fn talk(
        &mut self,
        conn: ConnId,
        id: &str,
        seat: Option<Seat>,
        kind: TalkKind,
        piece: Option<String>,
        text: Option<String>,
        fx: &mut Vec<Effect>,
    ) {
        let Some(seat) = seat else {
            fx.push(Effect::Send(
                vec![conn],
                error(ErrorCode::NotSeated, "only players talk to partners"),
            ));
            return;
        };
        let Some(m) = self.matches.get(id) else {
            return;
        };
        if !talk_kinds(m.game.rules()).contains(&kind) {
            fx.push(Effect::Send(
                vec![conn],
                error(
                    ErrorCode::NotAllowed,
                    format!("{kind:?} is not allowed under {}", m.preset),
                ),
            ));
            return;
        }
        let piece = match (kind, piece) {
            (TalkKind::Need | TalkKind::DontGive, Some(p))
                if matches!(p.as_str(), "P" | "N" | "B" | "R" | "Q") =>
            {
                Some(p)
            }
            (TalkKind::Need | TalkKind::DontGive, _) => {
                fx.push(Effect::Send(
                    vec![conn],
                    error(ErrorCode::BadMessage, "name the piece: P, N, B, R or Q"),
                ));
                return;
            }
            _ => None,
        };
        let text = match (kind, text) {
            (TalkKind::Text, Some(t)) => {
                let t = t.trim().to_owned();
                if t.is_empty() || t.chars().count() > MAX_CHAT {
                    fx.push(Effect::Send(
                        vec![conn],
                        error(
                            ErrorCode::BadMessage,
                            format!("a message has 1 to {MAX_CHAT} characters"),
                        ),
                    ));
                    return;
                }
                Some(t)
            }
            (TalkKind::Text, None) => {
                fx.push(Effect::Send(
                    vec![conn],
                    error(ErrorCode::BadMessage, "text is missing"),
                ));
                return;
            }
            _ => None,
        };
        self.deliver_talk(id, seat, kind, piece, text, fx);
    }

    fn rematch(
        &mut self,
        conn: ConnId,
        id: &str,
        seat: Option<Seat>,
        swap: bool,
        fx: &mut Vec<Effect>,
    ) {
        if seat.is_none() {
            fx.push(Effect::Send(
                vec![conn],
                error(ErrorCode::NotSeated, "only players ask for a rematch"),
            ));
            return;
        }
        let Some(m) = self.matches.get(id) else {
            return;
        };
        if !m.finished {
            fx.push(Effect::Send(
                vec![conn],
                error(ErrorCode::NotAllowed, "the match is not over"),
            ));
            return;
        }
        let slot = usize::from(swap);
        if let Some(existing) = m.rematch[slot].clone() {
            fx.push(Effect::Send(
                vec![conn],
                ServerMessage::Rematch { match_id: existing },
            ));
            return;
        }
        let rules = *m.game.rules();
        let tc = m.game.time_control();
        // Same teams: each team takes the other colours (WhiteA <-> BlackA, WhiteB <-> BlackB),
        // so partners stay partners. Swapped: the players of board B change places, so each
        // player gets a new partner.
        let mapping: [usize; 4] = if swap { [0, 1, 3, 2] } else { [1, 0, 3, 2] };
        let holders: Vec<Option<SeatHolder>> = m.seats.to_vec();
        let watchers = m.watchers.clone();
        let (new_id, mut created) = self.create_with(rules, tc, Some(id.to_owned()));
        fx.append(&mut created);
        if let Some(nm) = self.matches.get_mut(&new_id) {
            for (old, holder) in holders.into_iter().enumerate() {
                if let Some(holder) = holder {
                    let new_seat = mapping[old];
                    fx.push(Effect::Store(StoreOp::SetSeat {
                        match_id: new_id.clone(),
                        seat: new_seat as u8,
                        name: holder.name.clone(),
                        // The players keep their secret: the same token opens the new seat.
                        token_hash: holder.token_hash.clone(),
                        bot: holder.bot.is_some(),
                    }));
                    nm.seats[new_seat] = Some(holder);
                }
            }
        }
        if let Some(m) = self.matches.get_mut(id) {
            m.rematch[slot] = Some(new_id.clone());
        }
        self.maybe_start(&new_id, fx);
        fx.push(Effect::Send(
            watchers,
            ServerMessage::Rematch { match_id: new_id },
        ));
    }

    fn tick(&mut self, fx: &mut Vec<Effect>) {
        let now = self.now;
        for id in std::mem::take(&mut self.bots_pending) {
            self.bot_turns(&id, fx);
        }
        let due: Vec<String> = self
            .deadlines
            .iter()
            .take_while(|(t, _)| *t <= now)
            .map(|(_, id)| id.clone())
            .collect();
        for id in due {
            let before = self.snapshot(&id);
            if let Some(m) = self.matches.get_mut(&id) {
                // Flags fall on the server, after the grace a move compensated for lag could
                // still claim, so that such a move is not refused by a flag that had not
                // really fallen.
                let t = m.match_time(now).saturating_sub(m.flag_grace());
                m.game.tick(t);
            }
            self.after_change(&id, before, fx);
        }
    }

    /// Rebuilds a stored match (after a restart, or a finished match loaded again): the moves
    /// and events (actions, flag falls) are played again at their recorded match times.
    ///
    /// A finished match comes back finished, with its stored result, whatever the replay says.
    /// A match in progress resumes from `alive_at`, the match time at which the server that ran
    /// it was last known alive (its last heartbeat), or from the last recorded move or action
    /// if that is later or unknown: the player to move is charged his thinking up to then, and
    /// the time the server was down is charged to nobody. Flags that fell by then fall at the
    /// next tick. The effects store the match's new clock anchor.
    ///
    /// # Errors
    ///
    /// The first stored record that does not replay.
    pub fn restore(
        &mut self,
        stored: &bughouse_store::StoredMatch,
        now: Duration,
        alive_at: Option<Duration>,
    ) -> Result<Vec<Effect>, RestoreError> {
        self.now = now;
        // The full rule set is stored as JSON (a custom set has no preset to fall back on);
        // rows written before that column was filled name a preset.
        let rules = match serde_json::from_str::<Rules>(&stored.rules_json) {
            Ok(rules) => rules,
            Err(_) => stored.rules_preset.parse::<Preset>()?.rules(),
        };
        let millis = |v: i64| Duration::from_millis(u64::try_from(v).unwrap_or(0));
        let tc = TimeControl {
            base: millis(stored.base_ms),
            increment: millis(stored.increment_ms),
        };
        let mut game =
            Match::from_positions(rules, tc, [Position::new(rules), Position::new(rules)]);
        let mut seats: [Option<SeatHolder>; 4] = [None, None, None, None];
        for (i, s) in stored.seats.iter().enumerate() {
            if let Some(s) = s {
                seats[i] = Some(SeatHolder {
                    name: s.name.clone(),
                    token_hash: s.token_hash.clone(),
                    bot: s.bot.then(|| bot_level_of(&s.token_hash)),
                });
            }
        }
        let seat_of = |seat: u8, what: String| {
            Seat::ALL
                .get(usize::from(seat))
                .copied()
                .ok_or(RestoreError::Seat { what, seat })
        };
        let mut last_at = Duration::ZERO;
        let mut last_moves = [None, None];
        let mut recent: [VecDeque<Recent>; 4] = Default::default();
        let mut move_lag = Vec::with_capacity(stored.moves.len());
        let mut flags_stored = Vec::new();
        if stored.started_at_ms.is_some() {
            game.start(Duration::ZERO)
                .map_err(|e| RestoreError::Replay("start".into(), e))?;
            let mut events = stored.events.iter().peekable();
            let mut replay = |game: &mut Match, ev: &bughouse_store::StoredEvent| {
                let seat = seat_of(ev.seat, format!("event {}", ev.seq))?;
                if ev.kind == "flag" {
                    flags_stored.push(seat);
                }
                replay_event(game, seat, ev)
            };
            for (ply, mv) in stored.moves.iter().enumerate() {
                while let Some(ev) = events.next_if(|e| e.ply as usize <= ply) {
                    replay(&mut game, ev)?;
                }
                let seat = seat_of(mv.seat, format!("move {ply}"))?;
                let at = millis(mv.at_ms);
                let m = game
                    .position(seat.board)
                    .parse_uci(&mv.uci)
                    .map_err(|e| RestoreError::Move(ply, e.to_string()))?;
                game.play(seat, m, at)
                    .map_err(|e| RestoreError::Replay(format!("move {ply}"), e))?;
                last_moves[seat.board.index()] = Some(mv.uci.clone());
                last_at = at;
                move_lag.push(u16::try_from(mv.lag_ms).unwrap_or(u16::MAX));
            }
            for ev in events {
                replay(&mut game, ev)?;
                last_at = last_at.max(millis(ev.at_ms));
            }
        }
        // What each seat had acknowledged, so that a resent action is answered, not applied.
        let acted = stored
            .moves
            .iter()
            .map(|m| (m.seat, m.action_id, Some(m.lag_ms)))
            .chain(stored.events.iter().map(|e| (e.seat, e.action_id, None)))
            .chain(stored.talk.iter().map(|t| (t.seat, t.action_id, None)));
        for (seat, id, lag) in acted {
            if let (Some(r), Some(id)) = (recent.get_mut(usize::from(seat)), id) {
                remember(
                    r,
                    Recent {
                        id: u64::try_from(id).unwrap_or(0),
                        lag_ms: lag.map(|l| u64::try_from(l).unwrap_or(0)),
                    },
                );
            }
        }
        let mut talk = Vec::with_capacity(stored.talk.len());
        for t in &stored.talk {
            let from = seat_of(t.seat, format!("talk {}", t.seq))?;
            let Ok(kind) = serde_json::from_value(serde_json::Value::String(t.kind.clone())) else {
                return Err(RestoreError::Talk(t.seq, t.kind.clone()));
            };
            talk.push((
                from,
                TalkEntry {
                    n: talk.len() as u64,
                    from: seat_name(from),
                    kind,
                    piece: t.piece.clone(),
                    text: t.text.clone(),
                    at_ms: u64::try_from(t.at_ms).unwrap_or(0),
                },
            ));
        }
        let stored_result = match (&stored.result, &stored.reason, &stored.board_results) {
            (Some(result), Some(reason), Some(boards))
                if stored.status == bughouse_store::MatchStatus::Finished =>
            {
                Some(ResultInfo {
                    result: result.clone(),
                    boards: boards.clone(),
                    reason: reason.clone(),
                })
            }
            _ => None,
        };
        let finished = game.is_over() || stored_result.is_some();
        // A match in progress resumes where its server was last alive: the player to move
        // thought until then.
        let resume_at = if finished || !game.is_started() {
            last_at
        } else {
            last_at.max(alive_at.unwrap_or(Duration::ZERO))
        };
        let end_time = finished.then(|| game.ended_at().unwrap_or(last_at));
        let id = stored.id.clone();
        if finished {
            self.finished.insert(id.clone());
        }
        let (_, quota, _) = lag_quota(tc);
        // Every message numbered before was sent after what caused it was stored, and no stored
        // row causes more than two of them: numbering goes on above anything a client saw.
        let seq = 2 * (stored.moves.len() + stored.events.len() + stored.talk.len()) as u64 + 2;
        let live = LiveMatch {
            id: id.clone(),
            preset: rules_label(&rules),
            game,
            seats,
            watchers: Vec::new(),
            // Match time `resume_at` is now. Server time starts at 0 when the process starts,
            // so right after a restart `now` may be less than `resume_at`: match time is then
            // ahead of server time.
            epoch: now.saturating_sub(resume_at),
            ahead: resume_at.saturating_sub(now),
            last_moves,
            finished,
            rematch: [None, None],
            events: stored.events.len(),
            bots: Default::default(),
            seq,
            talk,
            recent,
            lag: [LagSeat {
                estimate: None,
                quota,
            }; 4],
            stored_result,
            end_time,
            move_lag,
            flags_stored,
        };
        let mut fx = Vec::new();
        if live.game.is_started() && !finished {
            fx.push(Effect::Store(StoreOp::ClockAnchor {
                match_id: id.clone(),
                zero_at_ms: signed_ms(live.epoch, live.ahead),
            }));
        }
        self.matches.insert(id.clone(), live);
        self.schedule(&id);
        self.bots_pending.insert(id);
        Ok(fx)
    }

    /// Whether the match is in memory.
    pub fn has_match(&self, match_id: &str) -> bool {
        self.matches.contains_key(match_id)
    }

    /// Both boards' FEN before the first move and after each move, for replaying a match move
    /// by move (`GET /api/matches/{id}/positions`).
    pub fn positions(&self, match_id: &str) -> Option<Vec<[String; 2]>> {
        let m = self.matches.get(match_id)?;
        let rules = *m.game.rules();
        let mut replay = Match::new(rules, m.game.time_control());
        let _ = replay.start(Duration::ZERO);
        let mut out = vec![[
            replay.position(BoardId::A).fen(),
            replay.position(BoardId::B).fen(),
        ]];
        for (i, r) in m.game.record().iter().enumerate() {
            // Replayed at the recorded times; a move that fails to replay ends the list.
            if replay.play(r.seat, r.mv, r.at).is_err() {
                tracing::error!(match_id, ply = i, "record does not replay");
                break;
            }
            out.push([
                replay.position(BoardId::A).fen(),
                replay.position(BoardId::B).fen(),
            ]);
        }
        Some(out)
    }

    /// The BPGN of a match, if it is in memory.
    pub fn bpgn(&self, match_id: &str) -> Option<String> {
        let m = self.matches.get(match_id)?;
        // A match loaded finished: the archive's record is the one.
        if m.stored_result.is_some() {
            return None;
        }
        Some(bpgn_of(m))
    }

    /// Drops finished matches nobody watches any more (they stay in the database archive).
    pub fn evict_finished(&mut self) {
        let matches = &mut self.matches;
        self.finished.retain(|id| match matches.get(id) {
            Some(m) if m.finished && m.watchers.is_empty() => {
                matches.remove(id);
                false
            }
            Some(m) => m.finished,
            None => false,
        });
    }
}

/// Keeps an acknowledged action among a seat's recent ones.
fn remember(recent: &mut VecDeque<Recent>, action: Recent) {
    if recent.len() == RECENT_ACTIONS {
        recent.pop_front();
    }
    recent.push_back(action);
}

/// Server milliseconds of match time 0: `epoch - ahead`, negative when match time is ahead.
fn signed_ms(epoch: Duration, ahead: Duration) -> i64 {
    let ms = |d: Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
    ms(epoch) - ms(ahead)
}

/// Why a stored match could not be rebuilt.
#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    /// Neither the stored rules nor the preset can be read.
    #[error("rules: {0}")]
    Rules(#[from] bughouse_core::UnknownPreset),
    /// A seat number out of range.
    #[error("{what}: no seat {seat}")]
    Seat {
        /// The record.
        what: String,
        /// The seat number.
        seat: u8,
    },
    /// A stored move cannot be read in its position.
    #[error("move {0}: {1}")]
    Move(usize, String),
    /// A stored move or event does not replay.
    #[error("{0}: {1}")]
    Replay(String, #[source] MatchError),
    /// An event of an unknown kind.
    #[error("event {0}: unknown kind {1:?}")]
    Event(i64, String),
    /// Talk of an unknown kind.
    #[error("talk {0}: unknown kind {1:?}")]
    Talk(i64, String),
}

fn replay_event(
    game: &mut Match,
    seat: Seat,
    ev: &bughouse_store::StoredEvent,
) -> Result<(), RestoreError> {
    let at = Duration::from_millis(u64::try_from(ev.at_ms).unwrap_or(0));
    let r = match ev.kind.as_str() {
        "flag" => {
            // The flag fell at `at`: the clocks say so again.
            game.tick(at);
            Ok(())
        }
        "resign" => game.resign(seat, at),
        "offer_draw" => game.agree_draw(seat, at).map(|_| ()),
        "withdraw_draw" => {
            game.withdraw_draw(seat);
            Ok(())
        }
        "claim_draw" => {
            let claim = if ev.detail == "repetition" {
                DrawClaim::Repetition
            } else {
                DrawClaim::MoveCount
            };
            game.claim_draw(seat, claim, at)
        }
        other => return Err(RestoreError::Event(ev.seq, other.to_owned())),
    };
    r.map_err(|e| RestoreError::Replay(format!("event {} ({})", ev.seq, ev.kind), e))
}

/// The BPGN text of a match.
fn bpgn_of(m: &LiveMatch) -> String {
    let mut tags: Vec<(String, String)> = vec![
        ("Event".into(), "bughouse match".into()),
        ("Site".into(), "bughouse server".into()),
        ("Variant".into(), "bughouse".into()),
        ("Rules".into(), m.preset.clone()),
    ];
    for (i, s) in Seat::ALL.into_iter().enumerate() {
        if let Some(h) = &m.seats[i] {
            tags.push((seat_name(s), h.name.clone()));
        }
    }
    let tc = m.game.time_control();
    tags.push((
        "TimeControl".into(),
        format!("{}+{}", tc.base.as_secs(), tc.increment.as_secs()),
    ));
    bughouse_bpgn::write_bpgn(&m.game, &tags)
}
