//! An XBoard (CECP v2) bughouse engine in a child process, as `bughouse arena` drives it: the
//! `protover 2` handshake, `variant bughouse`, the board kept in step with `usermove` and
//! `holding` (or `setboard` when it cannot be), `time`/`otim` + `go` per move, the partner
//! protocol (`partner`, `ptell` in, `tellics ptell` out) and every way the engine can misbehave
//! turned into an [`EngineError`].
//!
//! Fairy-Stockfish sits (holds its move after searching) while its partner asked it to (`sit`
//! until `go` or `x`) or while it is mated on its board and its partner is not (`dead` until
//! `x`). It then answers `go` only when told or when its clock is nearly out. The arena cannot
//! let an engine block the machine that long, so it follows that state from the messages it
//! relays ([`PartnerState`]) and takes the move with `force` (which makes Fairy-Stockfish write
//! its best move) after a share of the clock; the move is then held in virtual time until the
//! sit ends (docs/arena.md).

use std::path::Path;
use std::time::{Duration, Instant};

use bughouse_core::{Color, Move, Position, Reserve, Role};

use crate::fen::uci_fen;
use crate::process::EngineProcess;
use crate::EngineError;

/// How long an engine may take to finish `protover 2` (`feature ... done=1`) and `ping`.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long an engine may take to answer `force` with its move once told to stop.
const STOP_GRACE: Duration = Duration::from_secs(1);
/// How long an engine may take to answer `?` (move now) before it is sent `force`.
const MOVE_NOW_GRACE: Duration = Duration::from_millis(200);

/// What the arena knows of an engine's partner state, from the partner messages it relayed.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct PartnerState {
    /// The partner said `sit` and has not said `go` or `x` since.
    pub sit_requested: bool,
    /// The engine said `dead` (it is mated on its board) and has not said `x` since.
    pub we_dead: bool,
    /// The partner said `dead` and has not said `x` since.
    pub partner_dead: bool,
    /// The engine said `sit` (it mates by force) and has not said `x` since: it ignores a
    /// partner's `sit` meanwhile, as Fairy-Stockfish does with a Fairy-Stockfish partner.
    pub we_win: bool,
}

impl PartnerState {
    /// Whether the engine holds its move now (Fairy-Stockfish's rule).
    pub fn sitting(&self) -> bool {
        self.sit_requested || (self.we_dead && !self.partner_dead)
    }

    /// The engine said `text` to its partner.
    pub fn said(&mut self, text: &str) {
        match text.split_whitespace().next() {
            Some("dead") => self.we_dead = true,
            Some("sit") => self.we_win = true,
            Some("x") => {
                self.we_dead = false;
                self.we_win = false;
            }
            _ => {}
        }
    }

    /// The engine was told `text` by its partner.
    pub fn heard(&mut self, text: &str) {
        match text.split_whitespace().next() {
            Some("sit") => self.sit_requested |= !self.we_win,
            Some("go") => self.sit_requested = false,
            Some("dead") => self.partner_dead = true,
            Some("x") => {
                self.partner_dead = false;
                self.sit_requested = false;
            }
            _ => {}
        }
    }
}

/// The answer to one `go`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The move token after `move`, as the engine wrote it.
    pub token: String,
    /// Whether it came only after `force` (the engine was stopped).
    pub forced: bool,
}

/// The holdings as `holding` writes them: `[QNP] [BP]`.
pub fn holding_text(white: &Reserve, black: &Reserve) -> String {
    let part = |r: &Reserve| {
        let mut s = String::new();
        for role in [
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ] {
            for _ in 0..r.count(role) {
                s.push(role.upper_char());
            }
        }
        s
    };
    format!("[{}] [{}]", part(white), part(black))
}

/// A running XBoard engine. Dropping it sends `quit` and kills the process if it lingers.
pub struct XboardEngine {
    process: EngineProcess,
    /// The position the engine has been given and how many moves of its board it has seen
    /// (`None`: give it one with `setboard`).
    view: Option<(Position, usize)>,
    /// `tellics ptell` messages read and not yet handed over.
    said: Vec<String>,
    /// What the arena knows of its partner state.
    pub partner: PartnerState,
    ping: u32,
}

impl XboardEngine {
    /// Starts the engine at `path`: `xboard`, `protover 2` until `feature done=1` (checking
    /// that `variants` lists `variant`), `new`, `variant VARIANT`, `force`.
    ///
    /// # Errors
    ///
    /// [`EngineError`]: it cannot be started, dies, does not answer, or lacks the variant.
    pub fn start(path: &Path, variant: &str) -> Result<XboardEngine, EngineError> {
        let mut engine = XboardEngine {
            process: EngineProcess::spawn(path)?,
            view: None,
            said: Vec::new(),
            partner: PartnerState::default(),
            ping: 0,
        };
        engine.send("xboard")?;
        engine.send("protover 2")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        let mut offered = false;
        loop {
            let line = engine.recv(deadline, "protover 2 with feature done=1")?;
            let Some(features) = line.strip_prefix("feature ") else {
                engine.note(&line);
                continue;
            };
            if let Some(at) = features.find("variants=\"") {
                let list = &features[at + 10..];
                let list = &list[..list.find('"').unwrap_or(list.len())];
                offered |= list.split(',').any(|v| v.trim() == variant);
            }
            let done = features.split_whitespace().any(|w| w == "done=1");
            if done {
                break;
            }
        }
        if !offered {
            return Err(EngineError::Variant(variant.to_owned()));
        }
        engine.send("new")?;
        engine.send(&format!("variant {variant}"))?;
        engine.send("force")?;
        engine.sync()?;
        Ok(engine)
    }

    /// Gives the time control as `level 0 MIN:SEC INC` (what a FICS-style interface sends at the
    /// start of a game; `time` and `otim` then give the clocks before each `go`).
    ///
    /// # Errors
    ///
    /// [`EngineError`] when writing fails.
    pub fn level(&mut self, base: Duration, increment: Duration) -> Result<(), EngineError> {
        let secs = base.as_secs();
        self.send(&format!(
            "level 0 {}:{:02} {}",
            secs / 60,
            secs % 60,
            increment.as_secs()
        ))
    }

    /// Tells the engine it has a partner (`partner NAME`) and waits until it has answered.
    ///
    /// # Errors
    ///
    /// [`EngineError`] when it died or does not answer `ping`.
    pub fn set_partner(&mut self, name: &str) -> Result<(), EngineError> {
        self.send(&format!("partner {name}"))?;
        self.sync().map(drop)
    }

    /// Passes on a message from the partner (`ptell TEXT`).
    ///
    /// # Errors
    ///
    /// [`EngineError`] when writing fails.
    pub fn ptell(&mut self, text: &str) -> Result<(), EngineError> {
        self.partner.heard(text);
        self.send(&format!("ptell {text}"))
    }

    /// The partner messages the engine wrote since the last call.
    pub fn take_said(&mut self) -> Vec<String> {
        self.collect();
        std::mem::take(&mut self.said)
    }

    /// Reads what is waiting without blocking (partner messages are kept).
    fn collect(&mut self) {
        while let Some(line) = self.process.try_recv() {
            self.note(&line);
        }
    }

    /// Notes a line: a partner message is kept and followed.
    fn note(&mut self, line: &str) {
        if let Some(text) = line.strip_prefix("tellics ptell ") {
            let text = text.trim().to_owned();
            self.partner.said(&text);
            self.said.push(text);
        }
    }

    /// `ping N` until `pong N`; returns the lines read meanwhile (partner messages are kept).
    fn sync(&mut self) -> Result<Vec<String>, EngineError> {
        self.ping += 1;
        let n = self.ping;
        self.send(&format!("ping {n}"))?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        let mut seen = Vec::new();
        loop {
            let line = self.recv(deadline, "ping with pong")?;
            if line.split_whitespace().collect::<Vec<_>>() == ["pong", &n.to_string()] {
                return Ok(seen);
            }
            self.note(&line);
            seen.push(line);
        }
    }

    /// Brings the engine's board to `pos`, in force mode: the moves of this board it has not
    /// seen (`played` holds all of them since the start) as `usermove`, a `holding` before a
    /// drop of a piece it does not know of and whenever the reserves differ, and a `setboard`
    /// when that cannot reach `pos` or the engine refused a command.
    ///
    /// # Errors
    ///
    /// [`EngineError`] when the engine died or does not answer.
    pub fn sync_board(&mut self, pos: &Position, played: &[Move]) -> Result<(), EngineError> {
        self.send("force")?;
        let mut commands = Vec::new();
        let mut ok = false;
        if let Some((mut v, seen)) = self.view.take() {
            if seen <= played.len() {
                ok = true;
                for mv in &played[seen..] {
                    if let Some(role) = mv.dropped_role() {
                        if v.reserve(v.turn()).count(role) == 0 {
                            v.add_to_reserve(v.turn(), role);
                            commands.push(format!(
                                "holding {}",
                                holding_text(v.reserve(Color::White), v.reserve(Color::Black))
                            ));
                        }
                    }
                    if v.play(*mv).is_err() {
                        ok = false;
                        break;
                    }
                    commands.push(format!("usermove {mv}"));
                }
                if ok && v.reserves() != pos.reserves() {
                    commands.push(format!(
                        "holding {}",
                        holding_text(pos.reserve(Color::White), pos.reserve(Color::Black))
                    ));
                }
                ok = ok && v.board() == pos.board() && v.turn() == pos.turn();
            }
        }
        if ok && !commands.is_empty() {
            for c in &commands {
                self.send(c)?;
            }
            let seen = self.sync()?;
            ok = !seen.iter().any(|l| refused(l));
        }
        if !ok {
            self.send(&format!("setboard {}", uci_fen(pos)))?;
            self.sync()?;
        }
        self.view = Some((pos.clone(), played.len()));
        Ok(())
    }

    /// Sends `time`, `otim` (centiseconds) and `go`, and waits for `move`. Gives up waiting
    /// after `patience` while [`PartnerState::sitting`] (checked as messages come), or after
    /// `timeout`: then sends `?` (move now) and takes a move written within
    /// [`MOVE_NOW_GRACE`], else `force` and a move within [`STOP_GRACE`].
    ///
    /// # Errors
    ///
    /// [`EngineError`] when the engine dies, answers something that is not a move, or no move
    /// even after `force`.
    pub fn go(
        &mut self,
        ours: Duration,
        theirs: Duration,
        patience: Duration,
        timeout: Duration,
    ) -> Result<Answer, EngineError> {
        self.send(&format!("time {}", ours.as_millis() / 10))?;
        self.send(&format!("otim {}", theirs.as_millis() / 10))?;
        self.send("go")?;
        let start = Instant::now();
        loop {
            let limit = if self.partner.sitting() {
                patience.min(timeout)
            } else {
                timeout
            };
            let deadline = start + limit;
            match self.recv(deadline, "go with a move") {
                Ok(line) => {
                    if let Some(token) = move_token(&line) {
                        return Ok(Answer {
                            token,
                            forced: false,
                        });
                    }
                    if let Some(e) = garbage(&line) {
                        return Err(e);
                    }
                    self.note(&line);
                }
                Err(EngineError::Timeout(_)) => {
                    if Instant::now() < start + timeout && !self.partner.sitting() {
                        // It stopped sitting meanwhile: wait on.
                        continue;
                    }
                    // `?` is XBoard's "move now"; Fairy-Stockfish ignores it while it sits but
                    // writes its move on `force`.
                    for (command, grace) in [("?", MOVE_NOW_GRACE), ("force", STOP_GRACE)] {
                        self.send(command)?;
                        let until = Instant::now() + grace;
                        loop {
                            match self.recv(until, "force with a move") {
                                Ok(line) => {
                                    if let Some(token) = move_token(&line) {
                                        return Ok(Answer {
                                            token,
                                            forced: true,
                                        });
                                    }
                                    if let Some(e) = garbage(&line) {
                                        return Err(e);
                                    }
                                    self.note(&line);
                                }
                                Err(EngineError::Timeout(_)) => break,
                                Err(e) => return Err(e),
                            }
                        }
                    }
                    return Err(EngineError::Timeout("go, ? or force with a move"));
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// The engine's move `mv` was played, the `moves`th of its board. (The engine played it
    /// on its board when it wrote it.)
    pub fn played(&mut self, mv: Move, moves: usize) {
        self.view = self
            .view
            .take()
            .and_then(|(mut v, _)| v.play(mv).ok().map(|_| (v, moves)));
    }

    /// The engine's board is not known (it played a move that was not taken): the next
    /// [`XboardEngine::sync_board`] gives it with `setboard`.
    pub fn forget_board(&mut self) {
        self.view = None;
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        self.process.send(line)
    }

    fn recv(&mut self, deadline: Instant, what: &'static str) -> Result<String, EngineError> {
        self.process.recv(deadline, what)
    }
}

/// The move of a `move TOKEN` line.
fn move_token(line: &str) -> Option<String> {
    let mut words = line.split_whitespace();
    (words.next() == Some("move")).then(|| words.next().unwrap_or("").to_owned())
}

/// Whether the engine refused a command we sent (`Illegal move`, `Error`).
fn refused(line: &str) -> bool {
    line.starts_with("Illegal move") || line.starts_with("Error")
}

/// A line that ends the exchange as a failure: the engine resigns or claims a result instead
/// of moving.
fn garbage(line: &str) -> Option<EngineError> {
    let first = line.split_whitespace().next().unwrap_or("");
    if first == "resign" || ["1-0", "0-1", "1/2-1/2"].contains(&first) {
        return Some(EngineError::Answer(line.to_owned()));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_partner_state_follows_fairy_stockfish_s_rules() {
        let mut p = PartnerState::default();
        p.heard("sit");
        assert!(p.sitting());
        p.heard("go");
        assert!(!p.sitting());
        p.said("dead");
        assert!(p.sitting(), "mated: it sits for its partner");
        p.heard("dead");
        assert!(!p.sitting(), "both dead: it plays on");
        p.said("x");
        p.heard("x");
        assert_eq!(p, PartnerState::default());
        p.said("sit");
        p.heard("sit");
        assert!(
            !p.sitting(),
            "winning by force, it does not sit for its partner"
        );
    }

    #[test]
    fn holdings_are_written_strongest_first() {
        let mut white = Reserve::EMPTY;
        white.add(Role::Pawn);
        white.add(Role::Queen);
        let mut black = Reserve::EMPTY;
        black.add(Role::Knight);
        assert_eq!(holding_text(&white, &black), "[QP] [N]");
        assert_eq!(holding_text(&Reserve::EMPTY, &Reserve::EMPTY), "[] []");
    }
}
