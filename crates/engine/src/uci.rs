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
//! `Level` (1 to 8) plays as the bot levels do on one board ([`Level`]: their depth, nodes,
//! noise and choice among near-best moves; 8, the default, is full strength), and
//! `UCI_LimitStrength` with `UCI_Elo` plays at the level whose published rating is nearest.
//! Changing the level clears the transposition table (the weak levels' scores carry their
//! evaluation noise).

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crate::level::split_mix;
use crate::search::Options;
use crate::{
    mate_in, EngineParams, Level, Limits, SearchConfig, SearchInfo, Searcher, PUBLISHED_RATINGS,
};
use bughouse_core::{Position, Rules};

use go::{parse_position, Go};

mod go;

/// Default transposition table size in MB.
const DEFAULT_HASH: usize = 16;

/// The `info` line of one iteration; `elapsed` is the time since `go`.
fn info_line(info: &SearchInfo, elapsed: Duration) -> String {
    let ms = elapsed.as_millis();
    let nps = u128::from(info.nodes) * 1000 / ms.max(1);
    let score = match mate_in(info.score) {
        Some(n) => format!("mate {n}"),
        None => format!("cp {}", info.score),
    };
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    let mut line = format!(
        "info depth {} score {score} nodes {} nps {nps} time {ms}",
        info.depth, info.nodes
    );
    if !pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&pv.join(" "));
    }
    line
}

/// Where answers go: shared by the command loop and the search thread, one line at a time.
#[derive(Clone)]
struct Out(Arc<Mutex<dyn Write + Send>>);

impl Out {
    /// Writes one line and flushes it; a closed output is not an error of ours.
    fn say(&self, line: &str) {
        if let Ok(mut out) = self.0.lock() {
            let _ = writeln!(out, "{line}").and_then(|()| out.flush());
        }
    }
}

/// How one `go` plays: the strength level and the seed of its random choices.
#[derive(Debug, Clone, Copy)]
struct Play {
    level: Level,
    seed: u64,
}

/// Runs one `go` on `searcher` and prints the info lines and `bestmove`; `stop` is the
/// searcher's stop flag.
fn search(
    searcher: &mut Searcher,
    pos: &Position,
    go: &Go,
    play: Play,
    stop: &AtomicBool,
    out: &Out,
) {
    let start = Instant::now();
    let limits = Limits {
        deadline: go.budget(pos.turn()).map(|b| start + b),
        max_nodes: go.nodes,
        max_depth: go.depth,
    };
    let mut info = |i: &SearchInfo| out.say(&info_line(i, start.elapsed().max(i.elapsed)));
    let best = if play.level == Level::MAX {
        searcher.search(pos, limits, &mut info).best
    } else {
        // A weaker level searches within its own depth and nodes too, and chooses as the
        // level does.
        let params = play.level.params();
        let options = Options {
            noise: params.noise,
            exact_root: params.margin > 0,
            ..Options::default()
        };
        let (r, roots) = searcher.search_with(pos, params.limits(limits), options, &mut info);
        let mut state = play.seed;
        r.best
            .map(|best| params.choose(best, &roots, &mut || split_mix(&mut state)))
    };
    // `go infinite` must not answer before `stop`.
    while go.infinite && !stop.load(Ordering::Relaxed) {
        thread::sleep(Duration::from_millis(5));
    }
    match best {
        Some(m) => out.say(&format!("bestmove {m}")),
        None => out.say("bestmove (none)"),
    }
}

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
    /// The search under way: its thread, its stop flag, and whether it is endless (`go
    /// infinite`, which only `stop` ends).
    running: Option<(JoinHandle<Searcher>, Arc<AtomicBool>, bool)>,
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
        if let Some((handle, stop, infinite)) = self.running.take() {
            if stop_now || infinite {
                stop.store(true, Ordering::Relaxed);
            }
            match handle.join() {
                Ok(searcher) => self.searcher = Some(searcher),
                Err(_) => {
                    self.out
                        .say("info string error: the search failed; starting a fresh one");
                    self.searcher = Some(self.fresh_searcher());
                }
            }
        }
    }

    fn setoption(&mut self, words: &[&str]) -> Result<(), String> {
        // setoption name NAME [value VALUE]; names may hold spaces.
        let rest = match words.split_first() {
            Some((&"name", rest)) => rest,
            _ => return Err("setoption: expected name NAME value VALUE".into()),
        };
        let at = rest.iter().position(|w| *w == "value");
        let name = rest[..at.unwrap_or(rest.len())].join(" ");
        let value = at.map(|i| rest[i + 1..].join(" ")).unwrap_or_default();
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                self.rules = match value.as_str() {
                    "bughouse" => Rules::fide(),
                    "crazyhouse" => Rules::crazyhouse(),
                    other => {
                        return Err(format!(
                        "setoption UCI_Variant: unknown variant {other:?} (bughouse, crazyhouse)"
                    ))
                    }
                };
                self.position = Position::new(self.rules);
                Ok(())
            }
            "hash" => {
                let mb: usize = value
                    .parse()
                    .ok()
                    .filter(|mb| (1..=4096).contains(mb))
                    .ok_or_else(|| format!("setoption Hash: {value:?} is not 1-4096"))?;
                self.hash = mb;
                self.searcher = Some(self.fresh_searcher());
                Ok(())
            }
            "search" => {
                self.config = SearchConfig::named(&value).ok_or_else(|| {
                    format!(
                        "setoption Search: unknown search {value:?} ({})",
                        SearchConfig::names()
                    )
                })?;
                self.searcher = Some(self.fresh_searcher());
                Ok(())
            }
            "level" => {
                self.level = value.parse().map_err(|e| format!("setoption Level: {e}"))?;
                Ok(())
            }
            "uci_limitstrength" => {
                self.limit_strength = match value.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(format!(
                            "setoption UCI_LimitStrength: {value:?} is not true or false"
                        ))
                    }
                };
                Ok(())
            }
            "uci_elo" => {
                let (min, max) = (min_elo(), max_elo());
                self.elo = value
                    .parse()
                    .ok()
                    .filter(|elo| (min..=max).contains(elo))
                    .ok_or_else(|| format!("setoption UCI_Elo: {value:?} is not {min}-{max}"))?;
                Ok(())
            }
            "evalfile" => {
                self.params = if value.is_empty() || value == "<empty>" {
                    EngineParams::DEFAULT
                } else {
                    EngineParams::from_file(std::path::Path::new(&value))
                        .map_err(|e| format!("setoption EvalFile: {value}: {e}"))?
                };
                self.searcher = Some(self.fresh_searcher());
                Ok(())
            }
            _ => Err(format!("setoption: unknown option {name:?}")),
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
            "position" => {
                self.finish_search(false);
                parse_position(args, self.rules).map(|pos| self.position = pos)
            }
            "go" => {
                self.finish_search(false);
                Go::parse(args).map(|go| {
                    let infinite = go.infinite;
                    let stop = Arc::new(AtomicBool::new(false));
                    let flag = Arc::clone(&stop);
                    let out = self.out.clone();
                    let pos = self.position.clone();
                    let play = Play {
                        level: self.playing_level(),
                        seed: split_mix(&mut self.rng),
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
                        searcher.set_stop_flag(Some(Arc::clone(&flag)));
                        search(&mut searcher, &pos, &go, play, &flag, &out);
                        searcher.set_stop_flag(None);
                        searcher
                    });
                    self.running = Some((handle, stop, infinite));
                })
            }
            other => Err(format!("unknown command {other:?}")),
        };
        if let Err(e) = result {
            self.out.say(&format!("info string error: {e}"));
        }
        true
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
