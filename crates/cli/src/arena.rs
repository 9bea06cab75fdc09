//! `bughouse arena`: two teams play N two-board bughouse matches against each other, in
//! virtual time, one engine thinking at a time (docs/arena.md explains the clock).
//!
//! A team is our in-process bot ([`TeamBot`], one per seat; partners talk), an outside UCI
//! engine that knows bughouse (one process per board), or an outside XBoard engine (one
//! process per board; partners talk through `ptell`, which the arena relays). Matches alternate the seats: team1 plays
//! WhiteA + BlackB in odd matches and BlackA + WhiteB in even ones.

use std::fmt;
use std::fs::File;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::str::FromStr;
use std::time::{Duration, Instant};

use bughouse_bpgn::{termination, write_bpgn};
use bughouse_core::fen::Fen;
use bughouse_core::{
    Bitboard, BoardId, ByColor, Color, Match, MatchResult, Move, Piece, Position, Preset, Reserve,
    Role, Seat, Square, Team, TimeControl, Verdict,
};
use bughouse_engine::{Action, Level, Limits, Talk, TeamBot};
use indicatif::{ProgressBar, ProgressStyle};

use crate::uci_client::{fairy_stockfish_path, EngineError, UciEngine};
use crate::xboard_client::XboardEngine;
use bughouse_engine::xboard::{ptell_to_talk, talk_to_ptell};

/// The variant outside engines are asked to play.
const UCI_VARIANT: &str = "bughouse";
/// A match still going after this many plies (both boards together) is adjudicated a draw.
pub const MAX_PLIES: usize = 1000;
/// The shortest pause before a sitting bot is asked again.
const MIN_RECHECK: Duration = Duration::from_millis(10);
/// How long past his own flag an outside engine may take before it is told to stop.
const UCI_GRACE: Duration = Duration::from_secs(1);
/// A sitting XBoard engine moves anyway when its time left falls to this (Fairy-Stockfish's
/// rule).
const XBOARD_SIT_FLOOR: Duration = Duration::from_secs(1);
/// The shortest wait for a sitting XBoard engine's search before its move is taken.
const XBOARD_MIN_PATIENCE: Duration = Duration::from_millis(50);

/// Options of `bughouse arena`.
#[derive(clap::Args)]
pub struct Args {
    /// Team 1: `bot[:LEVEL]` (our engine), `uci:PATH` (an outside UCI engine that knows
    /// bughouse, one process per board), `xboard:PATH` (an outside XBoard bughouse engine, one
    /// process per board, partners talking), `fairy-stockfish` or `fairy-stockfish-xboard`.
    #[arg(long, value_parser = parse_spec)]
    team1: Spec,
    /// Team 2, as team 1.
    #[arg(long, value_parser = parse_spec)]
    team2: Spec,
    /// How many matches to play.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    matches: u32,
    /// Time control: MINUTES+SECONDS like `1+0` or `3+2`, or SECONDSs+SECONDS like `90s+2`.
    #[arg(long, default_value = "1+0")]
    time: TimeControl,
    /// Rules preset (see `bughouse rules`); crazyhouse is a one-board game and is refused.
    #[arg(long, default_value = "fide", value_parser = parse_preset)]
    rules: Preset,
    /// Write every match as BPGN to this file.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Seed of our bots' random choices (each seat of each match gets its own, derived from it).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Who plays for a team.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Spec {
    /// Our engine at this level.
    Bot(Level),
    /// An outside UCI engine at this path.
    Uci(PathBuf),
    /// An outside XBoard engine at this path.
    Xboard(PathBuf),
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Spec::Bot(level) => write!(f, "bot:{level}"),
            Spec::Uci(path) => write!(f, "uci:{}", path.display()),
            Spec::Xboard(path) => write!(f, "xboard:{}", path.display()),
        }
    }
}

impl FromStr for Spec {
    type Err = String;

    fn from_str(s: &str) -> Result<Spec, String> {
        if s == "bot" {
            return Ok(Spec::Bot(Level::DEFAULT));
        }
        if s == "fairy-stockfish" {
            return Ok(Spec::Uci(fairy_stockfish_path()));
        }
        if s == "fairy-stockfish-xboard" {
            return Ok(Spec::Xboard(fairy_stockfish_path()));
        }
        if let Some(path) = s.strip_prefix("xboard:") {
            if path.is_empty() {
                return Err(
                    "xboard: needs the engine's path, like xboard:/usr/games/fairy-stockfish"
                        .into(),
                );
            }
            return Ok(Spec::Xboard(PathBuf::from(path)));
        }
        if let Some(level) = s.strip_prefix("bot:") {
            return level
                .parse::<Level>()
                .map(Spec::Bot)
                .map_err(|e| format!("bot:{level}: {e}"));
        }
        if let Some(path) = s.strip_prefix("uci:") {
            if path.is_empty() {
                return Err(
                    "uci: needs the engine's path, like uci:/usr/games/fairy-stockfish".into(),
                );
            }
            return Ok(Spec::Uci(PathBuf::from(path)));
        }
        Err(format!(
            "invalid player {s:?}: expected bot, bot:LEVEL, uci:PATH, xboard:PATH, fairy-stockfish or fairy-stockfish-xboard"
        ))
    }
}

fn parse_spec(s: &str) -> Result<Spec, String> {
    s.parse()
}

fn parse_preset(s: &str) -> Result<Preset, String> {
    let preset = s.parse::<Preset>().map_err(|e| e.to_string())?;
    if preset == Preset::Crazyhouse {
        return Err("crazyhouse is a one-board game; the arena plays two-board bughouse".into());
    }
    Ok(preset)
}

/// What a player decided, and what it cost.
struct Thought {
    outcome: Outcome,
    /// Wall time spent deciding: charged to the player's clock.
    wall: Duration,
    /// Messages for the partner.
    talk: Vec<Said>,
}

/// A message from one partner to the other.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Said {
    /// From our bot.
    Bot(Talk),
    /// From an XBoard engine: the text of its `tellics ptell`.
    Text(String),
}

#[derive(Debug, Clone)]
enum Outcome {
    Move(Move),
    /// Don't move now; ask again after this long (or when the other board changes).
    Sit(Option<Duration>),
    /// The player failed (engine died, illegal move, ...): he loses his game.
    Fail(String),
}

/// One seat's player in one match.
enum Player {
    Bot(Box<TeamBot>),
    Uci {
        engine: Option<UciEngine>,
        /// Why the engine is gone, once it is.
        error: Option<String>,
    },
    Xboard {
        engine: Option<Box<XboardEngine>>,
        /// Why the engine is gone, once it is.
        error: Option<String>,
        /// A move the engine gave while sitting, held until the sit ends, with the reserves
        /// it was searched with.
        held: Option<(Move, ByColor<Reserve>)>,
    },
}

impl Player {
    fn new(spec: &Spec, seed: u64) -> Player {
        match spec {
            Spec::Bot(level) => Player::Bot(Box::new(TeamBot::new(*level, seed))),
            Spec::Uci(path) => match UciEngine::start(path, UCI_VARIANT)
                .and_then(|mut e| e.new_game().map(|()| e))
            {
                Ok(engine) => Player::Uci {
                    engine: Some(engine),
                    error: None,
                },
                Err(e) => Player::Uci {
                    engine: None,
                    error: Some(e.to_string()),
                },
            },
            Spec::Xboard(path) => match XboardEngine::start(path, UCI_VARIANT) {
                Ok(engine) => Player::Xboard {
                    engine: Some(Box::new(engine)),
                    error: None,
                    held: None,
                },
                Err(e) => Player::Xboard {
                    engine: None,
                    error: Some(e.to_string()),
                    held: None,
                },
            },
        }
    }

    /// A message from the partner.
    fn hear(&mut self, said: Said) {
        match (self, said) {
            (Player::Bot(bot), Said::Bot(talk)) => bot.hear(talk),
            (Player::Bot(bot), Said::Text(text)) => {
                if let Some(talk) = ptell_to_talk(&text) {
                    bot.hear(talk);
                }
            }
            (
                Player::Xboard {
                    engine: Some(e), ..
                },
                said,
            ) => {
                let text = match said {
                    Said::Bot(talk) => talk_to_ptell(talk),
                    Said::Text(text) => text,
                };
                // A failure to write shows at the engine's next move.
                let _ = e.ptell(&text);
            }
            _ => {}
        }
    }

    /// The player's move `mv` was played, the `moves`th of its board.
    fn played(&mut self, mv: Move, moves: usize) {
        if let Player::Xboard {
            engine: Some(e), ..
        } = self
        {
            e.played(mv, moves);
        }
    }

    /// Asks the player for `seat`'s move at virtual time `now`, measuring the wall time.
    fn think(&mut self, m: &Match, seat: Seat, now: Duration) -> Thought {
        let start = Instant::now();
        match self {
            Player::Bot(bot) => {
                let budget = bot.budget(m, seat, now);
                let limits = Limits {
                    deadline: Some(start + budget),
                    max_nodes: None,
                    max_depth: None,
                };
                let decision = bot.decide(m, seat, now, limits);
                let wall = start.elapsed();
                let outcome = match decision.action {
                    Action::Move(mv) => {
                        if m.position(seat.board).legal_moves().contains(&mv) {
                            Outcome::Move(mv)
                        } else {
                            Outcome::Fail(format!("the bot chose the illegal move {mv}"))
                        }
                    }
                    Action::Sit => Outcome::Sit(decision.recheck),
                };
                Thought {
                    outcome,
                    wall,
                    talk: decision.talk.into_iter().map(Said::Bot).collect(),
                }
            }
            Player::Uci { engine, error } => {
                let outcome = match engine.as_mut() {
                    None => Outcome::Fail(error.clone().unwrap_or_else(|| "no engine".into())),
                    Some(e) => {
                        let pos = m.position(seat.board);
                        let clocks = [Color::White, Color::Black]
                            .map(|c| m.remaining(Seat::new(seat.board, c), now));
                        let inc = m.time_control().increment;
                        let timeout = m.remaining(seat, now) + UCI_GRACE;
                        match e.go(&uci_fen(pos), clocks, [inc, inc], timeout) {
                            Ok(best) if best.token == "(none)" || best.token.is_empty() => {
                                Outcome::Fail(format!(
                                    "the engine answered bestmove {:?} with legal moves to play",
                                    best.token
                                ))
                            }
                            Ok(best) => match pos.parse_uci(&best.token) {
                                Ok(mv) => Outcome::Move(mv),
                                Err(err) => Outcome::Fail(format!(
                                    "illegal bestmove {:?} in {}: {err}",
                                    best.token,
                                    uci_fen(pos)
                                )),
                            },
                            Err(err) => {
                                *engine = None;
                                let msg = match err {
                                    EngineError::Timeout(_) => {
                                        "the engine did not answer go, not even after stop"
                                            .to_owned()
                                    }
                                    other => other.to_string(),
                                };
                                *error = Some(msg.clone());
                                Outcome::Fail(msg)
                            }
                        }
                    }
                };
                Thought {
                    outcome,
                    wall: start.elapsed(),
                    talk: Vec::new(),
                }
            }
            Player::Xboard {
                engine,
                error,
                held,
            } => {
                let (outcome, talk) = match engine.as_mut() {
                    None => (
                        Outcome::Fail(error.clone().unwrap_or_else(|| "no engine".into())),
                        Vec::new(),
                    ),
                    Some(e) => {
                        let result = xboard_think(e, held, m, seat, now, start);
                        let talk = e.take_said().into_iter().map(Said::Text).collect();
                        let outcome = match result {
                            Ok(outcome) => outcome,
                            Err(err) => {
                                *engine = None;
                                let msg = match err {
                                    EngineError::Timeout(_) => {
                                        "the engine did not answer go, not even after ? and force"
                                            .to_owned()
                                    }
                                    other => other.to_string(),
                                };
                                *error = Some(msg.clone());
                                Outcome::Fail(msg)
                            }
                        };
                        (outcome, talk)
                    }
                };
                Thought {
                    outcome,
                    wall: start.elapsed(),
                    talk,
                }
            }
        }
    }
}

/// The moves played so far on `board`.
fn board_moves(m: &Match, board: BoardId) -> Vec<Move> {
    m.record()
        .iter()
        .filter(|r| r.seat.board == board)
        .map(|r| r.mv)
        .collect()
}

/// One decision of an XBoard engine (docs/arena.md, "XBoard engines").
fn xboard_think(
    e: &mut XboardEngine,
    held: &mut Option<(Move, ByColor<Reserve>)>,
    m: &Match,
    seat: Seat,
    now: Duration,
    start: Instant,
) -> Result<Outcome, EngineError> {
    let pos = m.position(seat.board);
    let remaining = m.remaining(seat, now);
    let sit_until = |wall: Duration| {
        Outcome::Sit(Some(
            remaining
                .saturating_sub(wall)
                .saturating_sub(XBOARD_SIT_FLOOR),
        ))
    };
    if let Some((mv, reserves)) = held.take() {
        if !e.partner.sitting() || remaining <= XBOARD_SIT_FLOOR + MIN_RECHECK {
            return Ok(Outcome::Move(mv));
        }
        if reserves == *pos.reserves() {
            *held = Some((mv, reserves));
            return Ok(sit_until(Duration::ZERO));
        }
        // The reserves changed while it sat: it searches again (as Fairy-Stockfish does on
        // `holding`); its board is given afresh, since it played the held move itself.
        e.forget_board();
    }
    e.sync_board(pos, &board_moves(m, seat.board))?;
    let theirs = m.remaining(seat.opponent(), now);
    let patience = (remaining / 20).max(XBOARD_MIN_PATIENCE);
    let answer = e.go(remaining, theirs, patience, remaining + UCI_GRACE)?;
    let mv = match pos.parse_uci(&answer.token) {
        Ok(mv) => mv,
        Err(err) => {
            return Ok(Outcome::Fail(format!(
                "illegal move {:?} in {}: {err}",
                answer.token,
                uci_fen(pos)
            )))
        }
    };
    let wall = start.elapsed();
    if answer.forced && e.partner.sitting() && remaining > wall + XBOARD_SIT_FLOOR + MIN_RECHECK {
        *held = Some((mv, *pos.reserves()));
        return Ok(sit_until(wall));
    }
    Ok(Outcome::Move(mv))
}

/// The FEN an outside engine is given: castling rights only where the king and that rook stand
/// on their starting squares. Our rules keep the right of a corner whose rook has left, since a
/// rook dropped there may still castle (F3.5), but X-FEN readers such as Fairy-Stockfish take
/// `Q` to mean the outermost rook on the queen's side wherever it stands, and would castle with
/// it. The engine is given the position again before every move, so a right that comes back
/// with a dropped rook is in the next FEN.
pub(crate) fn uci_fen(pos: &Position) -> String {
    let mut setup = pos.to_setup();
    let mut rights = Bitboard::EMPTY;
    for (color, king, corners) in [
        (Color::White, Square::E1, [Square::A1, Square::H1]),
        (Color::Black, Square::E8, [Square::A8, Square::H8]),
    ] {
        if pos.piece_at(king)
            != Some(Piece {
                color,
                role: Role::King,
            })
        {
            continue;
        }
        for corner in corners {
            if setup.castling.contains(corner)
                && pos.piece_at(corner)
                    == Some(Piece {
                        color,
                        role: Role::Rook,
                    })
            {
                rights.add(corner);
            }
        }
    }
    setup.castling = rights;
    Fen(setup).to_string()
}

/// What a board is doing in the simulation.
enum BoardState {
    /// Its mover is to be asked at the current virtual time.
    Ask,
    /// Its mover has decided; the decision takes effect at `done`.
    Thinking {
        seat: Seat,
        done: Duration,
        outcome: Outcome,
        talk: Vec<Said>,
        /// The other board changed while he was deciding to sit: ask again at `done`.
        changed: bool,
    },
    /// Its mover sits or has no move; ask again at `wake`, or when the other board changes.
    Idle { wake: Option<Duration> },
    /// The game on this board is over.
    Over,
}

impl BoardState {
    /// The next virtual time something happens on this board (besides a flag).
    fn next(&self) -> Option<Duration> {
        match self {
            BoardState::Thinking { done, .. } => Some(*done),
            BoardState::Idle { wake } => *wake,
            BoardState::Ask | BoardState::Over => None,
        }
    }

    /// The other board changed at `now` (a move, or the partner spoke): a sitting or waiting
    /// mover is asked again.
    fn wake(&mut self, now: Duration) {
        match self {
            BoardState::Idle { wake } => *wake = Some(now),
            BoardState::Thinking {
                outcome: Outcome::Sit(_),
                changed,
                ..
            } => *changed = true,
            _ => {}
        }
    }
}

/// One finished match.
struct Played {
    number: u32,
    /// The side of the board team1 played in this match.
    team1_as: Team,
    game: Match,
    /// Player failures and adjudications, for the table.
    notes: Vec<String>,
}

impl Played {
    fn team1_points(&self) -> f32 {
        self.game.points(self.team1_as).unwrap_or(0.0)
    }

    fn team2_points(&self) -> f32 {
        self.game.points(self.team1_as.other()).unwrap_or(0.0)
    }

    fn plies(&self) -> usize {
        self.game.record().len()
    }

    fn reason(&self) -> String {
        let mut reason = termination(&self.game, &[]).unwrap_or_else(|| "unfinished".into());
        if !self.notes.is_empty() {
            reason.push_str(": ");
            reason.push_str(&self.notes.join("; "));
        }
        reason
    }
}

fn seat_index(seat: Seat) -> usize {
    seat.board.index() * 2
        + match seat.color {
            Color::White => 0,
            Color::Black => 1,
        }
}

/// Plays one match in virtual time. `specs[i]` plays seat `Seat::ALL[i]`.
fn play_match(
    number: u32,
    team1_as: Team,
    specs: &[&Spec; 4],
    preset: Preset,
    tc: TimeControl,
    seed: u64,
    report: &dyn Fn(String),
) -> Played {
    let mut players: Vec<Player> = Seat::ALL
        .iter()
        .enumerate()
        .map(|(i, _)| {
            let seat_seed = seed
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .wrapping_add(u64::from(number) * 4 + i as u64);
            Player::new(specs[i], seat_seed)
        })
        .collect();
    // The two engines of an XBoard team learn they have a partner and greet each other.
    for seat in Seat::ALL {
        let said = match &mut players[seat_index(seat)] {
            Player::Xboard {
                engine: Some(e), ..
            } => {
                let partner = seat.partner().to_string();
                match e
                    .level(tc.base, tc.increment)
                    .and_then(|()| e.set_partner(&partner))
                {
                    Ok(()) => e.take_said(),
                    Err(_) => Vec::new(),
                }
            }
            _ => continue,
        };
        for text in said {
            players[seat_index(seat.partner())].hear(Said::Text(text));
        }
    }
    // BUGHOUSE_ARENA_TALK=1 writes every partner message to standard error.
    let log_talk = std::env::var_os("BUGHOUSE_ARENA_TALK").is_some_and(|v| v == "1");
    let name = |seat: Seat| format!("{seat} ({})", specs[seat_index(seat)]);
    let mut notes = Vec::new();
    let mut game = Match::new(preset.rules(), tc);
    let mut now = Duration::ZERO;
    game.start(now).expect("a new match has not been started");
    let mut states = [BoardState::Ask, BoardState::Ask];

    'sim: while !game.is_over() {
        // Ask every board whose mover has to decide now.
        for board in BoardId::ALL {
            if !matches!(states[board.index()], BoardState::Ask) {
                continue;
            }
            if game.game_end(board).is_some() {
                states[board.index()] = BoardState::Over;
                continue;
            }
            let seat = game.to_move(board);
            if let Some(claim) = game.board_game(board).claims().into_iter().next() {
                // The arena claims every draw the rules allow, for the player to move.
                if game.claim_draw(seat, claim, now).is_ok() {
                    states[board.index()] = BoardState::Over;
                    continue 'sim;
                }
            }
            if game.record().len() >= MAX_PLIES {
                for s in Seat::ALL {
                    let _ = game.agree_draw(s, now);
                }
                notes.push(format!("adjudicated a draw after {MAX_PLIES} plies"));
                if !game.is_over() {
                    notes.push("the rules refused the adjudicated draw".into());
                    break 'sim;
                }
                continue 'sim;
            }
            if game.verdict(board) == Verdict::Waiting {
                states[board.index()] = BoardState::Idle { wake: None };
                continue;
            }
            let thought = players[seat_index(seat)].think(&game, seat, now);
            states[board.index()] = BoardState::Thinking {
                seat,
                done: now + thought.wall,
                outcome: thought.outcome,
                talk: thought.talk,
                changed: false,
            };
        }

        // The next event: a decision taking effect, a sitter waking, or a flag.
        let mut next: Option<Duration> = None;
        for board in BoardId::ALL {
            if game.game_end(board).is_some() {
                states[board.index()] = BoardState::Over;
                continue;
            }
            let flag = game.clock(board).flag_time().map(|(_, t)| t);
            for t in [states[board.index()].next(), flag].into_iter().flatten() {
                next = Some(next.map_or(t, |n: Duration| n.min(t)));
            }
        }
        let Some(t) = next else {
            // No clock runs and nobody acts: cannot happen while the match goes on.
            notes.push("the simulation stalled".into());
            break;
        };
        now = now.max(t);
        for board in game.tick(now) {
            states[board.index()] = BoardState::Over;
        }

        for board in BoardId::ALL {
            if game.is_over() {
                break 'sim;
            }
            let i = board.index();
            match &states[i] {
                BoardState::Idle { wake: Some(w) } if *w <= now => states[i] = BoardState::Ask,
                BoardState::Thinking { done, .. } if *done <= now => {
                    let BoardState::Thinking {
                        seat,
                        outcome,
                        talk,
                        changed,
                        ..
                    } = std::mem::replace(&mut states[i], BoardState::Ask)
                    else {
                        unreachable!("matched Thinking above");
                    };
                    let other = board.other().index();
                    if !talk.is_empty() {
                        let partner = seat.partner();
                        for t in talk {
                            if log_talk {
                                report(format!(
                                    "match {number} {:.3}s {seat} -> {partner}: {t:?}",
                                    now.as_secs_f64()
                                ));
                            }
                            players[seat_index(partner)].hear(t);
                        }
                        // A sitting partner reconsiders what he was told.
                        if game.game_end(partner.board).is_none()
                            && game.to_move(partner.board) == partner
                        {
                            states[other].wake(now);
                        }
                    }
                    match outcome {
                        Outcome::Move(mv) => match game.play(seat, mv, now) {
                            Ok(_) => {
                                let moves = board_moves(&game, board).len();
                                players[seat_index(seat)].played(mv, moves);
                                states[other].wake(now);
                            }
                            Err(e) => {
                                let msg = format!("{}: move {mv} refused: {e}", name(seat));
                                report(format!("match {number}: {msg}"));
                                notes.push(msg);
                                let _ = game.resign(seat, now);
                            }
                        },
                        Outcome::Sit(recheck) => {
                            let wake = if changed {
                                now
                            } else {
                                match recheck {
                                    Some(r) => now + r.max(MIN_RECHECK),
                                    None => {
                                        states[i] = BoardState::Idle { wake: None };
                                        continue;
                                    }
                                }
                            };
                            states[i] = BoardState::Idle { wake: Some(wake) };
                        }
                        Outcome::Fail(e) => {
                            let msg = format!("{} loses: {e}", name(seat));
                            report(format!("match {number}: {msg}"));
                            notes.push(msg);
                            let _ = game.resign(seat, now);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    Played {
        number,
        team1_as,
        game,
        notes,
    }
}

/// Formats points without a needless `.0`: `3`, `2.5`.
fn points(p: f64) -> String {
    // An empty sum of floats is -0.0.
    let p = p + 0.0;
    if p.fract() == 0.0 {
        format!("{p:.0}")
    } else {
        format!("{p:.1}")
    }
}

fn tags(p: &Played, specs: &[&Spec; 4], preset: Preset) -> Vec<(String, String)> {
    let mut tags = vec![
        ("Event".to_owned(), "bughouse arena".to_owned()),
        ("Site".to_owned(), "bughouse arena".to_owned()),
        ("Date".to_owned(), "????.??.??".to_owned()),
        ("Round".to_owned(), p.number.to_string()),
    ];
    for (i, seat) in Seat::ALL.iter().enumerate() {
        tags.push((seat.to_string(), specs[i].to_string()));
    }
    let tc = p.game.time_control();
    tags.push((
        "TimeControl".to_owned(),
        format!("{}+{}", tc.base.as_secs(), tc.increment.as_secs()),
    ));
    tags.push(("Variant".to_owned(), "bughouse".to_owned()));
    tags.push(("Rules".to_owned(), preset.id().to_owned()));
    if !p.notes.is_empty() {
        tags.push(("Annotator".to_owned(), p.notes.join("; ")));
    }
    tags
}

/// Runs `bughouse arena`.
pub fn main(args: Args) -> ExitCode {
    // Every outside engine must start and know bughouse before anything is played.
    for (team, spec) in [("team1", &args.team1), ("team2", &args.team2)] {
        let check = match spec {
            Spec::Uci(path) => UciEngine::start(path, UCI_VARIANT).map(drop),
            Spec::Xboard(path) => XboardEngine::start(path, UCI_VARIANT).map(drop),
            Spec::Bot(_) => Ok(()),
        };
        if let Err(e) = check {
            eprintln!("error: {team} ({spec}): {e}");
            return ExitCode::from(2);
        }
    }
    let mut out = match &args.out {
        Some(path) => match File::create(path) {
            Ok(f) => Some(io::BufWriter::new(f)),
            Err(e) => {
                eprintln!("error: cannot create {}: {e}", path.display());
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    let bar = if io::stderr().is_terminal() {
        let bar = ProgressBar::new(u64::from(args.matches));
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} matches {elapsed} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let report = |line: String| bar.suspend(|| eprintln!("{line}"));
    let started = Instant::now();
    let mut played = Vec::new();
    let (mut score1, mut score2) = (0.0f64, 0.0f64);
    for number in 1..=args.matches {
        let team1_as = if number % 2 == 1 {
            Team::One
        } else {
            Team::Two
        };
        let specs: [&Spec; 4] = Seat::ALL.map(|seat| {
            if seat.team() == team1_as {
                &args.team1
            } else {
                &args.team2
            }
        });
        let p = play_match(
            number, team1_as, &specs, args.rules, args.time, args.seed, &report,
        );
        score1 += f64::from(p.team1_points());
        score2 += f64::from(p.team2_points());
        if let Some(out) = out.as_mut() {
            let text = write_bpgn(&p.game, &tags(&p, &specs, args.rules));
            if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                bar.finish_and_clear();
                eprintln!("error: cannot write the BPGN file: {e}");
                return ExitCode::from(2);
            }
        }
        bar.set_message(format!(
            "team1 {} - {} team2",
            points(score1),
            points(score2)
        ));
        bar.inc(1);
        played.push(p);
    }
    bar.finish_and_clear();
    let wall = started.elapsed();
    let mut stdout = io::stdout().lock();
    let result = print_results(&mut stdout, &args, &played, wall);
    match result.and_then(|()| stdout.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn print_results(
    out: &mut impl Write,
    args: &Args,
    played: &[Played],
    wall: Duration,
) -> io::Result<()> {
    writeln!(
        out,
        "team1 = {}, team2 = {}, {} matches, time {}, rules {}, {:.1} s",
        args.team1,
        args.team2,
        played.len(),
        args.time,
        args.rules,
        wall.as_secs_f64()
    )?;
    writeln!(
        out,
        "{:>5}  {:<14} {:<14} {:<7} {:<6} {:>5}  reason",
        "match", "team1", "team2", "result", "winner", "plies"
    )?;
    let seats = |team: Team| {
        let [a, b] = team.seats();
        format!("{a}+{b}")
    };
    let mut wdl = [[0u32; 3]; 2];
    for p in played {
        let (s1, s2) = (p.team1_points(), p.team2_points());
        let winner = if s1 > s2 {
            wdl[0][0] += 1;
            wdl[1][2] += 1;
            "team1"
        } else if s2 > s1 {
            wdl[0][2] += 1;
            wdl[1][0] += 1;
            "team2"
        } else {
            wdl[0][1] += 1;
            wdl[1][1] += 1;
            "draw"
        };
        writeln!(
            out,
            "{:>5}  {:<14} {:<14} {:<7} {:<6} {:>5}  {}",
            p.number,
            seats(p.team1_as),
            seats(p.team1_as.other()),
            p.game.result().map_or("*", MatchResult::pgn),
            winner,
            p.plies(),
            p.reason()
        )?;
    }
    let total1: f64 = played.iter().map(|p| f64::from(p.team1_points())).sum();
    let total2: f64 = played.iter().map(|p| f64::from(p.team2_points())).sum();
    for (i, (team, spec, total)) in [
        ("team1", &args.team1, total1),
        ("team2", &args.team2, total2),
    ]
    .into_iter()
    .enumerate()
    {
        let [w, d, l] = wdl[i];
        writeln!(
            out,
            "{team} {spec}: {w} won, {d} drawn, {l} lost, {} points",
            points(total)
        )?;
    }
    let sum = total1 + total2;
    let pct = if sum > 0.0 {
        100.0 * total1 / sum
    } else {
        50.0
    };
    writeln!(
        out,
        "team1 {} - {} team2 ({pct:.1}%)",
        points(total1),
        points(total2)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_and_print() {
        assert_eq!("bot".parse::<Spec>(), Ok(Spec::Bot(Level::DEFAULT)));
        let three = Level::new(3).expect("level 3 exists");
        assert_eq!("bot:3".parse::<Spec>(), Ok(Spec::Bot(three)));
        assert_eq!(Spec::Bot(three).to_string(), "bot:3");
        let uci: Spec = "uci:/opt/fsf".parse().expect("a path");
        assert_eq!(uci, Spec::Uci(PathBuf::from("/opt/fsf")));
        assert_eq!(uci.to_string(), "uci:/opt/fsf");
        assert!(matches!(
            "fairy-stockfish".parse::<Spec>(),
            Ok(Spec::Uci(_))
        ));
        assert!("bot:9".parse::<Spec>().is_err());
        assert!("uci:".parse::<Spec>().is_err());
        let xb: Spec = "xboard:/opt/fsf".parse().expect("a path");
        assert_eq!(xb, Spec::Xboard(PathBuf::from("/opt/fsf")));
        assert_eq!(xb.to_string(), "xboard:/opt/fsf");
        assert!(matches!(
            "fairy-stockfish-xboard".parse::<Spec>(),
            Ok(Spec::Xboard(_))
        ));
        assert!("xboard:".parse::<Spec>().is_err());
        assert!("stockfish".parse::<Spec>().is_err());
    }

    #[test]
    fn engines_see_castling_rights_only_with_the_rooks_in_their_corners() {
        let rules = Preset::Fide.rules();
        // The game that showed it: rooks on d1 and g1, rights KQ kept for dropped rooks.
        let fen = "Q1bk1b1r/p3pBpp/4Pn2/2p1q1N1/3nN3/8/PPP2PpP/3RK1R1[p] w KQ - 0 18";
        let pos = Position::from_fen(fen, rules).expect("a legal FEN");
        assert_eq!(
            uci_fen(&pos),
            "Q1bk1b1r/p3pBpp/4Pn2/2p1q1N1/3nN3/8/PPP2PpP/3RK1R1[p] w - - 0 18"
        );
        let start = Position::new(rules);
        assert_eq!(uci_fen(&start), start.fen());
    }

    #[test]
    fn points_drop_a_needless_fraction() {
        assert_eq!(points(3.0), "3");
        assert_eq!(points(57.5), "57.5");
        assert_eq!(points(0.0), "0");
    }

    #[test]
    fn the_last_line_gives_team1_s_share() {
        let args = Args {
            team1: Spec::Bot(Level::DEFAULT),
            team2: Spec::Bot(Level::DEFAULT),
            matches: 0,
            time: TimeControl::default(),
            rules: Preset::Fide,
            out: None,
            seed: 1,
        };
        let mut out = Vec::new();
        print_results(&mut out, &args, &[], Duration::ZERO).expect("writes to memory");
        let text = String::from_utf8(out).expect("UTF-8");
        assert_eq!(text.lines().last(), Some("team1 0 - 0 team2 (50.0%)"));
    }
}
