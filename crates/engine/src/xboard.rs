//! Our engine as an XBoard (CECP v2) bughouse engine (`bughouse xboard` runs it on standard
//! input and output), for FICS-style interfaces and with Fairy-Stockfish (or a person) as
//! partner. [`run`] reads commands from any [`BufRead`] and writes the answers to any [`Write`],
//! so that it is tested without processes.
//!
//! One board is searched at a time ([`Searcher`]), as in `bughouse uci`: a capture leaves the
//! board (it goes to the partner, who is not seen), and the interface tells the reserves with
//! `holding`. The partner protocol is Fairy-Stockfish's: messages come as `ptell TEXT` and go
//! out as `tellics ptell TEXT`. Understood: `sit` (hold the move until `go` or `x`, or until
//! the clock is down to [`SIT_FLOOR`]), `go`, `x` (also: the partner is alive again), `move`
//! (move now), `fast`/`slow`, `dead` (the partner is mated: play fast, never sit for him),
//! `help`; `need R` and `dontgive R` are read but do not steer the search (see docs/arena.md).
//! Said: `dead` when our search finds us mated, `x` when that is over, `sit` when we mate by
//! force (the partner should give nothing away meanwhile) and `go` when that is over.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use crate::{clock_secs, Limits, Searcher, Talk, MATE_BOUND};
use bughouse_core::{Color, Move, Position, Role, Rules};

/// A sitting engine moves anyway when its time left falls to this.
pub const SIT_FLOOR: Duration = Duration::from_secs(1);
/// Kept back from the clock for pipe overhead.
const OVERHEAD: Duration = Duration::from_millis(30);
/// The time assumed when the interface sent no `time` or `level`.
const DEFAULT_TIME: Duration = Duration::from_secs(60);

/// The `ptell` text Fairy-Stockfish (or our engine) reads for one of our bot's messages.
pub fn talk_to_ptell(talk: Talk) -> String {
    match talk {
        Talk::Sit => "sit".into(),
        Talk::Go => "go".into(),
        Talk::Need(role) => format!("need {}", role.char()),
        Talk::DontGive(role) => format!("dontgive {}", role.char()),
        Talk::Flag => "flag".into(),
    }
}

/// Our bot's message for a partner's `ptell` text, when there is one: `sit`, `go`, `x` (go on:
/// the reason to sit or to play fast is over), `need R`, `dontgive R`, `flag`.
pub fn ptell_to_talk(text: &str) -> Option<Talk> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let role = |w: Option<&&str>| {
        w.and_then(|w| {
            let mut chars = w.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => Role::from_char(c.to_ascii_lowercase()),
                _ => None,
            }
        })
        .filter(|&r| r != Role::King)
    };
    match words.first().copied()? {
        "sit" => Some(Talk::Sit),
        "go" | "x" => Some(Talk::Go),
        "need" => role(words.get(1)).map(Talk::Need),
        "dontgive" => role(words.get(1)).map(Talk::DontGive),
        "flag" => Some(Talk::Flag),
        _ => None,
    }
}

/// Sets the reserves of the FEN `fen` (brackets after the placement) to `white` and `black`.
fn with_holdings(fen: &str, white: &str, black: &str) -> String {
    let mut fields = fen.splitn(2, ' ');
    let placement = fields.next().unwrap_or("");
    let rest = fields.next().unwrap_or("");
    let board = placement.split('[').next().unwrap_or(placement);
    format!(
        "{board}[{}{}] {rest}",
        white.to_ascii_uppercase(),
        black.to_ascii_lowercase()
    )
}

/// Commands read while a search may be under way that end it without a move: the interface has
/// taken the move away (`force`, `result`: in bughouse, often the other board's end), or
/// changes the game under it.
const ABANDONING: [&str; 7] = [
    "force", "new", "result", "quit", "setboard", "undo", "remove",
];

/// Lines the reading thread has read and the loop not yet handled, of the kinds that concern a
/// search under way: `?` (move now) and [`ABANDONING`] commands. While any is pending, the
/// search's stop flag is set: the search under way stops, and plays its move only if no
/// abandoning command is among them.
#[derive(Default)]
struct Interrupts {
    /// `?` lines and abandoning lines pending.
    pending: Mutex<(usize, usize)>,
    stop: Arc<AtomicBool>,
}

impl Interrupts {
    /// Whether `line` stops a search: `Some(true)` if it abandons it, `Some(false)` for `?`.
    fn kind(line: &str) -> Option<bool> {
        let command = line.split_whitespace().next()?;
        if command == "?" {
            Some(false)
        } else {
            ABANDONING.contains(&command).then_some(true)
        }
    }

    fn pending(&self) -> MutexGuard<'_, (usize, usize)> {
        self.pending.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The reading thread read `line`.
    fn read(&self, line: &str) {
        if let Some(abandons) = Self::kind(line) {
            let mut pending = self.pending();
            if abandons {
                pending.1 += 1;
            } else {
                pending.0 += 1;
            }
            self.stop.store(true, Ordering::Relaxed);
        }
    }

    /// The loop is about to handle `line`.
    fn handled(&self, line: &str) {
        if let Some(abandons) = Self::kind(line) {
            let mut pending = self.pending();
            if abandons {
                pending.1 = pending.1.saturating_sub(1);
            } else {
                pending.0 = pending.0.saturating_sub(1);
            }
            self.stop
                .store(pending.0 + pending.1 > 0, Ordering::Relaxed);
        }
    }

    /// Whether an abandoning command waits: the engine must not move before handling it.
    fn abandoning(&self) -> bool {
        self.pending().1 > 0
    }
}

struct Engine<W: Write> {
    out: W,
    interrupts: Arc<Interrupts>,
    rules: Rules,
    pos: Position,
    searcher: Searcher,
    /// The colour the engine plays; `None` in force mode.
    playing: Option<Color>,
    /// Our time and the opponent's, as `time` and `otim` said.
    ours: Duration,
    theirs: Duration,
    increment: Duration,
    /// Fixed time per move (`st`).
    per_move: Option<Duration>,
    /// Depth limit (`sd`).
    depth: Option<u32>,
    sit_requested: bool,
    partner_dead: bool,
    fast: bool,
    /// We said `dead` / `sit` and not yet `x` / `go`.
    we_dead: bool,
    we_win: bool,
    /// Told `move` by the partner: move at once.
    move_now: bool,
    /// `post`: a thinking line after each iteration of the search.
    post: bool,
    /// The positions before each move played since `new` or `setboard`, for `undo` and
    /// `remove`.
    history: Vec<Position>,
}

impl<W: Write> Engine<W> {
    fn new(out: W) -> Engine<W> {
        let rules = Rules::fide();
        let interrupts = Arc::new(Interrupts::default());
        let mut searcher = Searcher::new(16);
        searcher.set_stop_flag(Some(Arc::clone(&interrupts.stop)));
        Engine {
            out,
            interrupts,
            rules,
            pos: Position::new(rules),
            searcher,
            playing: None,
            ours: DEFAULT_TIME,
            theirs: DEFAULT_TIME,
            increment: Duration::ZERO,
            per_move: None,
            depth: None,
            sit_requested: false,
            partner_dead: false,
            fast: false,
            we_dead: false,
            we_win: false,
            move_now: false,
            post: false,
            history: Vec::new(),
        }
    }

    /// Plays `mv` (legal: read by `parse_uci` or found by the search), keeping the position
    /// before it for `undo`.
    fn play(&mut self, mv: Move) {
        let before = self.pos.clone();
        if self.pos.play(mv).is_ok() {
            self.history.push(before);
        }
    }

    /// Takes back `plies` moves (`undo`: one, `remove`: two), or none when there are fewer
    /// (`command` names the command in the error then). The position comes back as it was,
    /// reserves included: in bughouse the interface tells the reserves again with `holding`.
    fn take_back(&mut self, plies: usize, command: &str) {
        if self.history.len() < plies {
            self.say(&format!("Error (no move to take back): {command}"));
            return;
        }
        let at = self.history.len() - plies;
        self.pos = self.history[at].clone();
        self.history.truncate(at);
    }

    /// Writes one line and flushes it; a closed output is not an error of ours.
    fn say(&mut self, line: &str) {
        let _ = writeln!(self.out, "{line}").and_then(|()| self.out.flush());
    }

    /// Tells the partner `text`.
    fn ptell(&mut self, text: &str) {
        self.say(&format!("tellics ptell {text}"));
    }

    /// Whether it is our turn to move.
    fn to_move(&self) -> bool {
        self.playing == Some(self.pos.turn()) && self.pos.has_legal_moves()
    }

    /// How long to hold the move before playing, if we sit now.
    fn sitting(&self) -> Option<Duration> {
        let sit = !self.move_now && (self.sit_requested || (self.we_dead && !self.partner_dead));
        (sit && self.ours > SIT_FLOOR).then(|| self.ours - SIT_FLOOR)
    }

    fn budget(&self) -> Duration {
        if let Some(t) = self.per_move {
            return t.saturating_sub(OVERHEAD).max(Duration::from_millis(1));
        }
        if self.move_now {
            return Duration::from_millis(10);
        }
        let mut t = self.ours / 30 + self.increment * 3 / 4;
        if self.fast || self.partner_dead {
            t /= 3;
        }
        t.min(self.ours.saturating_sub(OVERHEAD) / 2)
            .max(Duration::from_millis(1))
    }

    /// Searches, says what the partner should know, writes and plays the move.
    fn think_and_move(&mut self) {
        let limits = Limits {
            deadline: Some(Instant::now() + self.budget()),
            max_nodes: None,
            max_depth: self.depth,
        };
        let post = self.post;
        let out = &mut self.out;
        let r = self.searcher.search(&self.pos, limits, &mut |i| {
            if post {
                let _ = writeln!(out, "{}", thinking_line(i)).and_then(|()| out.flush());
            }
        });
        if self.interrupts.abandoning() {
            // Stopped by `force`, `result`, `new`...: no move; the loop handles the command.
            self.move_now = false;
            return;
        }
        self.move_now = false;
        if r.score <= -MATE_BOUND && !self.we_dead {
            self.we_dead = true;
            self.ptell("dead");
        } else if r.score > -MATE_BOUND && self.we_dead {
            self.we_dead = false;
            self.ptell("x");
        }
        if r.score >= MATE_BOUND && !self.we_win {
            self.we_win = true;
            self.ptell(&talk_to_ptell(Talk::Sit));
        } else if r.score < MATE_BOUND && self.we_win {
            self.we_win = false;
            self.ptell(&talk_to_ptell(Talk::Go));
        }
        let Some(mv) = r.best else {
            return;
        };
        self.say(&format!("move {mv}"));
        self.play(mv);
    }

    fn heard(&mut self, text: &str) {
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.first().copied() {
            Some("help") => self.ptell(
                "I listen to sit, go, x, move, fast, slow, dead, need R and dontgive R \
                 (heard but not acted on), help.",
            ),
            // Winning by force, it does not sit for its partner (as Fairy-Stockfish).
            Some("sit") => self.sit_requested = !self.we_win,
            Some("go") => self.sit_requested = false,
            Some("x") => {
                self.sit_requested = false;
                self.partner_dead = false;
            }
            Some("dead") => self.partner_dead = true,
            Some("fast") => self.fast = true,
            Some("slow") => self.fast = false,
            Some("move") => {
                self.move_now = true;
                if let Some(token) = words.get(1) {
                    if self.to_move() {
                        match self.pos.parse_uci(token) {
                            Ok(mv) => {
                                self.say(&format!("move {mv}"));
                                self.play(mv);
                                self.move_now = false;
                            }
                            Err(_) => self.ptell("sorry, not possible"),
                        }
                    }
                }
            }
            // `partner`, `time`, `otim`, `need`, `dontgive` and chat need no action.
            _ => {}
        }
    }

    /// Handles one line; returns false on `quit`.
    fn handle(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return true;
        };
        let centis = |w: Option<&&str>| {
            w.and_then(|w| w.parse::<i64>().ok())
                .map(|c| clock_secs(c as f64 / 100.0))
        };
        match command {
            "post" => self.post = true,
            "nopost" => self.post = false,
            "xboard" | "accepted" | "rejected" | "hard" | "easy" | "random" | "computer"
            | "name" | "ics" | "draw" | "bk" | "hint" | "memory" | "cores" | "rating"
            | "egtpath" => {}
            "undo" => self.take_back(1, command),
            "remove" => self.take_back(2, command),
            "protover" => {
                self.say("feature done=0");
                self.say(
                    "feature myname=\"bughouse\" variants=\"bughouse,crazyhouse\" usermove=1 \
                     setboard=1 time=1 ping=1 colors=0 sigint=0 sigterm=0 draw=0 name=0 \
                     reuse=1 analyze=0",
                );
                self.say("feature done=1");
            }
            "quit" => return false,
            "ping" => self.say(&format!("pong {}", args.join(" "))),
            "new" => {
                self.pos = Position::new(self.rules);
                self.history.clear();
                self.searcher.clear();
                self.playing = Some(Color::Black);
                self.per_move = None;
                self.depth = None;
                self.sit_requested = false;
                self.partner_dead = false;
                self.fast = false;
                self.we_dead = false;
                self.we_win = false;
                self.move_now = false;
            }
            "variant" => match args.first().copied() {
                Some("bughouse") => {
                    self.rules = Rules::fide();
                    self.pos = Position::new(self.rules);
                    self.history.clear();
                }
                Some("crazyhouse") => {
                    self.rules = Rules::crazyhouse();
                    self.pos = Position::new(self.rules);
                    self.history.clear();
                }
                other => self.say(&format!(
                    "Error (unsupported variant): {}",
                    other.unwrap_or("")
                )),
            },
            "force" | "result" => {
                self.playing = None;
                self.move_now = false;
            }
            "go" => self.playing = Some(self.pos.turn()),
            "playother" => self.playing = Some(!self.pos.turn()),
            // Move now: a search under way was already stopped (see [`run`]); a sitting engine
            // moves; otherwise there is nothing to hurry.
            "?" => self.move_now |= self.to_move() && !self.interrupts.abandoning(),
            "time" => {
                if let Some(t) = centis(args.first()) {
                    self.ours = t;
                }
            }
            "otim" => {
                if let Some(t) = centis(args.first()) {
                    self.theirs = t;
                }
            }
            "level" => {
                // level MOVES BASE INC: BASE in minutes or MIN:SEC, INC in seconds.
                if let (Some(base), Some(inc)) = (args.get(1), args.get(2)) {
                    let number = |w: &str, default| w.parse::<f64>().unwrap_or(default);
                    let base = match base.split_once(':') {
                        Some((m, s)) => number(m, 0.0) * 60.0 + number(s, 0.0),
                        None => number(base, 1.0) * 60.0,
                    };
                    self.ours = clock_secs(base);
                    self.theirs = self.ours;
                    self.increment = clock_secs(number(inc, 0.0));
                }
            }
            "st" => {
                self.per_move = args
                    .first()
                    .and_then(|s| s.parse::<f64>().ok())
                    .map(clock_secs);
            }
            "sd" => self.depth = args.first().and_then(|s| s.parse::<u32>().ok()),
            "setboard" => match Position::from_fen(&args.join(" "), self.rules) {
                Ok(pos) => {
                    self.pos = pos;
                    self.history.clear();
                }
                Err(e) => self.say(&format!("tellusererror Illegal position: {e}")),
            },
            "holding" => {
                // holding [WHITE] [BLACK] (optionally a colour and piece after).
                let rest = args.join(" ");
                let (white, black) = split_holding(&rest);
                let fen = with_holdings(&self.pos.fen(), &white, &black);
                match Position::from_fen(&fen, self.rules) {
                    Ok(pos) => self.pos = pos,
                    Err(e) => self.say(&format!("Error (bad holding): {e}")),
                }
            }
            // A partner: greet him as Fairy-Stockfish does (`partner` alone: no partner).
            "partner" => {
                if !args.is_empty() {
                    self.ptell(
                        "partner bughouse is an engine. Ask it 'help' for what it understands.",
                    );
                }
            }
            "ptell" => self.heard(&args.join(" ")),
            "usermove" => self.user_move(args.first().copied().unwrap_or("")),
            other => {
                // A move without `usermove` (protover 1 interfaces).
                if self.pos.parse_uci(other).is_ok() {
                    self.user_move(other);
                } else {
                    self.say(&format!("Error (unknown command): {other}"));
                }
            }
        }
        true
    }

    fn user_move(&mut self, token: &str) {
        match self.pos.parse_uci(token) {
            Ok(mv) => self.play(mv),
            Err(_) => self.say(&format!("Illegal move: {token}")),
        }
    }
}

/// The two bracketed groups of `holding [WHITE] [BLACK]`.
fn split_holding(text: &str) -> (String, String) {
    let mut groups = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let after = &rest[open + 1..];
        let Some(close) = after.find(']') else { break };
        groups.push(after[..close].to_owned());
        rest = &after[close + 1..];
    }
    let white = groups.first().cloned().unwrap_or_default();
    let black = groups.get(1).cloned().unwrap_or_default();
    (white, black)
}

/// The thinking output of one iteration, as XBoard reads it after `post`: depth, score in
/// centipawns (a mate in N as 100000 + N, mated as -100000 - N, Fairy-Stockfish's way), time in
/// centiseconds, nodes and the principal variation.
fn thinking_line(info: &crate::SearchInfo) -> String {
    let score = match crate::mate_in(info.score) {
        Some(n) if n > 0 => 100_000 + n,
        Some(n) => -100_000 + n,
        None => info.score,
    };
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "{} {score} {} {} {}",
        info.depth,
        info.elapsed.as_millis() / 10,
        info.nodes,
        pv.join(" ")
    )
}

/// Runs the XBoard loop: reads commands from `input` (in a thread of its own, so that a sitting
/// engine can move when its time runs low) until `quit` or the end of input, and writes the
/// answers to `output`.
///
/// The reading thread also stops a search under way ([`Interrupts`]): on `?` the engine plays
/// the best move found so far (a `?` with no search under way makes a sitting engine move, and
/// is otherwise ignored); on `force`, `result`, `new`, `setboard`, `undo`, `remove` or `quit`
/// it plays no move and goes on to the command.
pub fn run<R: BufRead + Send + 'static, W: Write>(input: R, output: W) {
    let (tx, lines): (_, Receiver<String>) = mpsc::channel();
    let mut engine = Engine::new(output);
    let interrupts = Arc::clone(&engine.interrupts);
    let reading = Arc::clone(&interrupts);
    thread::spawn(move || {
        for line in input.split(b'\n') {
            let Ok(line) = line else { break };
            let line = String::from_utf8_lossy(&line).trim().to_owned();
            reading.read(&line);
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    loop {
        let line = if engine.to_move() && !interrupts.abandoning() {
            match engine.sitting() {
                None => {
                    engine.think_and_move();
                    continue;
                }
                Some(wait) => {
                    let since = Instant::now();
                    match lines.recv_timeout(wait) {
                        Ok(line) => {
                            engine.ours = engine.ours.saturating_sub(since.elapsed());
                            line
                        }
                        Err(RecvTimeoutError::Timeout) => {
                            engine.ours = SIT_FLOOR;
                            engine.move_now = true;
                            continue;
                        }
                        Err(RecvTimeoutError::Disconnected) => break,
                    }
                }
            }
        } else {
            match lines.recv() {
                Ok(line) => line,
                Err(_) => break,
            }
        };
        interrupts.handled(&line);
        if !engine.handle(&line) {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn talk_and_ptell_map_both_ways() {
        for talk in [
            Talk::Sit,
            Talk::Go,
            Talk::Need(Role::Knight),
            Talk::DontGive(Role::Queen),
            Talk::Flag,
        ] {
            assert_eq!(ptell_to_talk(&talk_to_ptell(talk)), Some(talk));
        }
        assert_eq!(ptell_to_talk("x"), Some(Talk::Go));
        assert_eq!(ptell_to_talk("need K"), None);
        assert_eq!(ptell_to_talk("time 5000"), None);
        assert_eq!(ptell_to_talk(""), None);
    }

    #[test]
    fn holdings_replace_the_reserves_of_a_fen() {
        assert_eq!(split_holding("[QN] [p]"), ("QN".into(), "p".into()));
        assert_eq!(split_holding("[] [PP] B p"), (String::new(), "PP".into()));
        assert_eq!(
            with_holdings("8/8/8/8/8/8/8/K6k[Qp] w - - 0 1", "N", "BB"),
            "8/8/8/8/8/8/8/K6k[Nbb] w - - 0 1"
        );
        assert_eq!(
            with_holdings("8/8/8/8/8/8/8/K6k w - - 0 1", "", "p"),
            "8/8/8/8/8/8/8/K6k[p] w - - 0 1"
        );
    }
}
