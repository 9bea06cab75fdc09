//! Our engine as a UCI engine (`bughouse uci` runs it on standard input and output), for GUIs
//! and for other programs' arenas. [`run`] reads commands from any [`BufRead`] and writes the
//! answers to any [`Write`], so that it is tested without processes.
//!
//! One board is searched at a time ([`Searcher`]): under `UCI_Variant bughouse` (the default,
//! fide rules) a capture leaves the board, as the other board is not known; under `crazyhouse`
//! it goes to the capturer's reserve. Positions are read the way Fairy-Stockfish writes them:
//! reserves in brackets (or as a ninth rank), `~` after a promoted piece, drops as `N@f3`.
//!
//! The search runs in its own thread so that `isready` and `stop` are answered while it thinks.
//! `stop` sets the searcher's stop flag ([`Searcher::set_stop_flag`]): the search ends within
//! about a thousand nodes (a millisecond or less) and answers with the best move of its last
//! complete iteration, whatever the limits of its `go` (`infinite`, `depth`, `movetime`, the
//! clocks) and at every level.
//!
//! Every parameter of `go` is read: `searchmoves` (only those root moves), `mate N` (a search of
//! at most `2N + 1` plies, which stops at a mate found), and `ponder`: the engine thinks on the
//! opponent's time, with no limit, until `ponderhit` (then it searches as the clocks say, from
//! the table the pondering filled) or `stop` (then it answers with what the pondering found).
//! `Ponder` is offered as an option, as GUIs look for it before they ponder; set, `bestmove`
//! names the reply to ponder on (`bestmove e2e4 ponder e7e5`, the principal variation's second
//! move).
//!
//! `Level` (1 to 8) plays as the bot levels do on one board ([`Level`]: their depth, nodes,
//! noise and choice among near-best moves; 8, the default, is full strength), and
//! `UCI_LimitStrength` with `UCI_Elo` plays at the level whose published rating is nearest.
//! Changing the level clears the transposition table (the weak levels' scores carry their
//! evaluation noise).

use std::io::{BufRead, Write};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread;

use crate::level::split_mix;
use crate::{EngineParams, Level, SearchConfig, Searcher, PUBLISHED_RATINGS};
use bughouse_core::{Position, Rules};

use error::CommandError;
use go::{parse_position, Go};
use thinking::{search, Flags, Out, Play, Running};

mod error;
mod go;
mod thinking;

/// Default transposition table size in MB.
const DEFAULT_HASH: usize = 16;

struct Engine {
    out: Out,
    rules: Rules,
    hash: usize,
    /// The search configuration (`setoption name Search`, a name of [`SearchConfig::NAMED`]).
    config: SearchConfig,
    /// The evaluation weights and search margins (`setoption name EvalFile`, a file of
    /// `bughouse tune`).
    params: EngineParams,
    position: Position,
    /// The strength level (`setoption name Level`), when `UCI_LimitStrength` is off.
    level: Level,
    /// `setoption name UCI_LimitStrength`: play at the level nearest `elo`.
    limit_strength: bool,
    /// `setoption name UCI_Elo`, on the scale of the levels' published ratings.
    elo: u32,
    /// The state of the random choices of the weak levels: each `go` takes the next seed.
    rng: u64,
    /// The level of the last `go`: a `go` at another level starts from an empty table.
    searched_at: Level,
    /// The searcher, when no search holds it.
    searcher: Option<Searcher>,
    /// The search under way.
    running: Option<Running>,
    /// `setoption name Ponder`: the GUI ponders, so `bestmove` names the reply to ponder on.
    ponder: bool,
}

impl Engine {
    fn new(out: Out) -> Engine {
        Engine {
            out,
            rules: Rules::fide(),
            hash: DEFAULT_HASH,
            config: SearchConfig::DEFAULT,
            params: EngineParams::DEFAULT,
            position: Position::new(Rules::fide()),
            level: Level::MAX,
            limit_strength: false,
            elo: max_elo(),
            rng: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64),
            searched_at: Level::MAX,
            searcher: Some(Searcher::new(DEFAULT_HASH)),
            running: None,
            ponder: false,
        }
    }

    /// The level a `go` plays at: the one nearest `UCI_Elo` under `UCI_LimitStrength`, else
    /// `Level`.
    fn playing_level(&self) -> Level {
        if self.limit_strength {
            Level::nearest(f64::from(self.elo))
        } else {
            self.level
        }
    }

    /// A searcher with the engine's table size and search configuration.
    fn fresh_searcher(&self) -> Searcher {
        let mut searcher = Searcher::new(self.hash);
        searcher.set_config(self.config);
        searcher.set_params(self.params);
        searcher
    }

    /// Waits for the search under way to answer: at once under `stop` (the search's stop
    /// flag), else when it reaches its limits, as Stockfish does for a command that needs the
    /// engine idle (so that a script of several `go`s searches each to its limits); an
    /// endless search is stopped either way.
    fn finish_search(&mut self, stop_now: bool) {
        if let Some(running) = self.running.take() {
            if stop_now || running.endless() {
                running.flags.stop();
            }
            match running.handle.join() {
                Ok(searcher) => self.searcher = Some(searcher),
                Err(_) => {
                    self.out
                        .say("info string error: the search failed; starting a fresh one");
                    self.searcher = Some(self.fresh_searcher());
                }
            }
        }
    }

    fn setoption(&mut self, words: &[&str]) -> Result<(), CommandError> {
        // setoption name NAME [value VALUE]; names may hold spaces.
        let rest = match words.split_first() {
            Some((&"name", rest)) => rest,
            _ => return Err(CommandError::SetOptionShape),
        };
        let at = rest.iter().position(|w| *w == "value");
        let name = rest[..at.unwrap_or(rest.len())].join(" ");
        let value = at.map(|i| rest[i + 1..].join(" ")).unwrap_or_default();
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                self.rules = match value.as_str() {
                    "bughouse" => Rules::fide(),
                    "crazyhouse" => Rules::crazyhouse(),
                    other => return Err(CommandError::UnknownVariant(other.to_owned())),
                };
                self.position = Position::new(self.rules);
                Ok(())
            }
            "hash" => {
                let mb: usize = value
                    .parse()
                    .ok()
                    .filter(|mb| (1..=4096).contains(mb))
                    .ok_or_else(|| CommandError::Hash(value.clone()))?;
                self.hash = mb;
                self.searcher = Some(self.fresh_searcher());
                Ok(())
            }
            "search" => {
                self.config = SearchConfig::named(&value)
                    .ok_or_else(|| CommandError::UnknownSearch(value.clone()))?;
                self.searcher = Some(self.fresh_searcher());
                Ok(())
            }
            // Pondering is the GUI's choice (`go ponder`); nothing to set here.
            "ponder" => {
                self.ponder = boolean("Ponder", value)?;
                Ok(())
            }
            "level" => {
                self.level = value.parse()?;
                Ok(())
            }
            "uci_limitstrength" => {
                self.limit_strength = boolean("UCI_LimitStrength", value)?;
                Ok(())
            }
            "uci_elo" => {
                let (min, max) = (min_elo(), max_elo());
                self.elo = value
                    .parse()
                    .ok()
                    .filter(|elo| (min..=max).contains(elo))
                    .ok_or(CommandError::Elo { value, min, max })?;
                Ok(())
            }
            "evalfile" => {
                self.params = if value.is_empty() || value == "<empty>" {
                    EngineParams::DEFAULT
                } else {
                    EngineParams::from_file(std::path::Path::new(&value)).map_err(|source| {
                        CommandError::EvalFile {
                            path: value,
                            source,
                        }
                    })?
                };
                self.searcher = Some(self.fresh_searcher());
                Ok(())
            }
            _ => Err(CommandError::UnknownOption(name)),
        }
    }

    /// Handles one line; returns false on `quit`.
    fn handle(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return true;
        };
        let out = &self.out;
        let result = match command {
            "uci" => {
                out.say("id name bughouse");
                out.say("id author the bughouse project");
                out.say(
                    "option name UCI_Variant type combo default bughouse var bughouse var crazyhouse",
                );
                out.say(&format!(
                    "option name Hash type spin default {DEFAULT_HASH} min 1 max 4096"
                ));
                out.say(&format!(
                    "option name Search type combo default default{}",
                    SearchConfig::NAMED
                        .map(|(name, _)| format!(" var {name}"))
                        .concat()
                ));
                out.say("option name Ponder type check default false");
                out.say("option name EvalFile type string default <empty>");
                out.say("option name Level type spin default 8 min 1 max 8");
                out.say("option name UCI_LimitStrength type check default false");
                out.say(&format!(
                    "option name UCI_Elo type spin default {max} min {min} max {max}",
                    min = min_elo(),
                    max = max_elo()
                ));
                out.say("uciok");
                Ok(())
            }
            "isready" => {
                out.say("readyok");
                Ok(())
            }
            "debug" => Ok(()),
            "quit" => {
                self.finish_search(true);
                return false;
            }
            "stop" => {
                self.finish_search(true);
                Ok(())
            }
            "ponderhit" => {
                // From now on the search goes as the clocks say: it ends at its limits.
                if let Some(running) = &self.running {
                    running.flags.hit.store(true, Ordering::Relaxed);
                    running.flags.ponder_over.store(true, Ordering::Release);
                }
                Ok(())
            }
            "ucinewgame" => {
                self.finish_search(false);
                if let Some(s) = self.searcher.as_mut() {
                    s.clear();
                }
                self.position = Position::new(self.rules);
                Ok(())
            }
            "setoption" => {
                self.finish_search(false);
                self.setoption(args)
            }
            // The search under way has its own copy of the position: it goes on.
            "position" => parse_position(args, self.rules).map(|pos| self.position = pos),
            "go" => {
                self.finish_search(false);
                Go::parse(args).map(|go| {
                    let (infinite, ponder) = (go.infinite, go.ponder);
                    let flags = Flags::default();
                    let flag = flags.clone();
                    let out = self.out.clone();
                    let pos = self.position.clone();
                    let play = Play {
                        level: self.playing_level(),
                        seed: split_mix(&mut self.rng),
                        ponder: self.ponder,
                    };
                    if play.level != self.searched_at {
                        self.searched_at = play.level;
                        if let Some(s) = self.searcher.as_mut() {
                            s.clear();
                        }
                    }
                    let mut searcher = self
                        .searcher
                        .take()
                        .unwrap_or_else(|| Searcher::new(self.hash));
                    let handle = thread::spawn(move || {
                        search(&mut searcher, &pos, &go, play, &flag, &out);
                        searcher.set_stop_flag(None);
                        searcher
                    });
                    self.running = Some(Running {
                        handle,
                        flags,
                        infinite,
                        ponder,
                    });
                })
            }
            other => Err(CommandError::UnknownCommand(other.to_owned())),
        };
        if let Err(e) = result {
            self.out.say(&format!("info string error: {e}"));
        }
        true
    }
}

/// A `check` option's value: `true` or `false`, in any case.
fn boolean(option: &'static str, value: String) -> Result<bool, CommandError> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(CommandError::NotBool { option, value }),
    }
}

/// The lowest `UCI_Elo`: the published rating of level 1.
fn min_elo() -> u32 {
    PUBLISHED_RATINGS[0].round() as u32
}

/// The highest `UCI_Elo`: the published rating of level 8.
fn max_elo() -> u32 {
    PUBLISHED_RATINGS[PUBLISHED_RATINGS.len() - 1].round() as u32
}

/// Runs the UCI loop: reads commands from `input` until `quit` or the end of input (where a
/// search under way goes on to its limits and answers, and an endless one is stopped), and
/// writes the answers to `output` (from the search thread too, one whole line at a time).
pub fn run<R: BufRead, W: Write + Send + 'static>(input: R, output: W) {
    let mut engine = Engine::new(Out(Arc::new(Mutex::new(output))));
    // Lines are read as bytes: a line that is not UTF-8 gets an error answer, not an exit.
    for line in input.split(b'\n') {
        let Ok(line) = line else { break };
        let line = String::from_utf8_lossy(&line);
        if !engine.handle(line.trim()) {
            return;
        }
    }
    engine.finish_search(false);
}
