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
//! The engine's search takes a deadline but no stop flag, so a search that may run long
//! (`go infinite`, `go depth N`, or more than [`SINGLE_SEARCH`] of time) is run as a series of
//! searches with growing deadlines (at most [`MAX_SLICE`] each; the transposition table keeps
//! the work of the earlier ones) and `stop` takes effect at the end of the current one.
//!
//! `Level` (1 to 8) plays as the bot levels do on one board ([`Level`]: their depth, nodes,
//! noise and choice among near-best moves; 8, the default, is full strength), and
//! `UCI_LimitStrength` with `UCI_Elo` plays at the level whose published rating is nearest.
//! A level below 8 searches in one piece, bounded by its nodes (at most 5 million, level 7: a
//! few seconds), so there `stop` may wait that long. Changing the level clears the
//! transposition table (the weak levels' scores carry their evaluation noise).

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crate::level::split_mix;
use crate::search::Options;
use crate::{
    mate_in, EngineParams, Level, Limits, SearchConfig, SearchInfo, SearchResult, Searcher,
    PUBLISHED_RATINGS,
};
use bughouse_core::{Color, Move, Position, Rules};

/// A timed search this short runs in one piece (`stop` may wait that long).
pub const SINGLE_SEARCH: Duration = Duration::from_secs(10);
/// The longest piece of a long or endless search at full strength: the most `stop` waits
/// there.
pub const MAX_SLICE: Duration = Duration::from_millis(800);
/// The first piece of a sliced search.
const FIRST_SLICE: Duration = Duration::from_millis(100);
/// Kept back from the clock for process and pipe overhead.
const OVERHEAD: Duration = Duration::from_millis(30);
/// Default transposition table size in MB.
const DEFAULT_HASH: usize = 16;

/// The parameters of one `go`.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Go {
    /// Remaining times of White and Black.
    pub time: [Option<Duration>; 2],
    /// Increments of White and Black.
    pub inc: [Option<Duration>; 2],
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Search to this depth.
    pub depth: Option<u32>,
    /// Search this many nodes.
    pub nodes: Option<u64>,
    /// Search exactly this long.
    pub movetime: Option<Duration>,
    /// Search until `stop`.
    pub infinite: bool,
}

impl Go {
    /// Reads the words after `go`. Unknown words are an error; `ponder` and `searchmoves` are
    /// not supported.
    pub(crate) fn parse(words: &[&str]) -> Result<Go, String> {
        let mut go = Go::default();
        let mut i = 0;
        let value = |i: usize| -> Result<u64, String> {
            let word = words
                .get(i + 1)
                .ok_or_else(|| format!("go {}: missing value", words[i]))?;
            word.parse::<i64>()
                .map(|v| v.max(0) as u64)
                .map_err(|_| format!("go {}: {word:?} is not a number", words[i]))
        };
        while i < words.len() {
            let ms = |v: u64| Some(Duration::from_millis(v).min(crate::MAX_CLOCK));
            match words[i] {
                "infinite" => {
                    go.infinite = true;
                    i += 1;
                    continue;
                }
                "wtime" => go.time[0] = ms(value(i)?),
                "btime" => go.time[1] = ms(value(i)?),
                "winc" => go.inc[0] = ms(value(i)?),
                "binc" => go.inc[1] = ms(value(i)?),
                "movestogo" => go.movestogo = Some(value(i)?.min(u64::from(u32::MAX)) as u32),
                "depth" => go.depth = Some(value(i)?.clamp(1, 200) as u32),
                "nodes" => go.nodes = Some(value(i)?.max(1)),
                "movetime" => go.movetime = ms(value(i)?),
                other => return Err(format!("go: unsupported parameter {other:?}")),
            }
            i += 2;
        }
        Ok(go)
    }

    /// How long to think for the side `turn`, if the time is limited.
    pub(crate) fn budget(&self, turn: Color) -> Option<Duration> {
        if let Some(t) = self.movetime {
            return Some(t.saturating_sub(OVERHEAD).max(Duration::from_millis(1)));
        }
        let side = usize::from(turn == Color::Black);
        let left = self.time[side]?;
        let inc = self.inc[side].unwrap_or_default();
        let moves = self.movestogo.unwrap_or(30).clamp(1, 50);
        let share = left / moves + inc * 3 / 4;
        let cap = left.saturating_sub(OVERHEAD) / 2;
        Some(share.min(cap).max(Duration::from_millis(1)))
    }
}

/// Parses `position startpos|fen FEN [moves M...]` into a position under `rules`.
pub(crate) fn parse_position(words: &[&str], rules: Rules) -> Result<Position, String> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    let mut pos = match setup.split_first() {
        Some((&"startpos", [])) => Position::new(rules),
        Some((&"fen", fen)) if !fen.is_empty() => {
            Position::from_fen(&fen.join(" "), rules).map_err(|e| format!("position fen: {e}"))?
        }
        _ => return Err("position: expected startpos or fen FEN, then optionally moves".into()),
    };
    for (n, token) in moves.iter().enumerate() {
        let m = pos
            .parse_uci(token)
            .map_err(|e| format!("position: move {} ({token}): {e}", n + 1))?;
        pos.play(m)
            .map_err(|e| format!("position: move {} ({token}): {e}", n + 1))?;
    }
    Ok(pos)
}

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

/// Runs one `go` on `searcher` and prints the info lines and `bestmove`.
fn search(
    searcher: &mut Searcher,
    pos: &Position,
    go: &Go,
    play: Play,
    stop: &AtomicBool,
    out: &Out,
) {
    let start = Instant::now();
    let hard = go.budget(pos.turn()).map(|b| start + b);
    // Nodes of the earlier pieces of a sliced search.
    let earlier = std::cell::Cell::new(0u64);
    let mut info = |i: &SearchInfo| {
        // The engine counts each search from its own start; a sliced search reports the time
        // and nodes since `go`.
        let mut total = i.clone();
        total.nodes += earlier.get();
        out.say(&info_line(&total, start.elapsed().max(i.elapsed)));
    };
    let best = if play.level == Level::MAX {
        full_strength(searcher, pos, go, hard, stop, &earlier, &mut info)
    } else {
        // A weaker level searches once, within its own depth and nodes (at most 5 million,
        // a few seconds: the most `stop` waits then), and chooses as the level does.
        let params = play.level.params();
        let limits = params.limits(Limits {
            deadline: hard,
            max_nodes: go.nodes,
            max_depth: go.depth,
        });
        let options = Options {
            noise: params.noise,
            exact_root: params.margin > 0,
            ..Options::default()
        };
        let (r, roots) = searcher.search_with(pos, limits, options, &mut info);
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

/// The search of full strength: one piece, or a series of pieces with growing deadlines for a
/// long or endless search (see the module's documentation). Returns the best move.
fn full_strength(
    searcher: &mut Searcher,
    pos: &Position,
    go: &Go,
    hard: Option<Instant>,
    stop: &AtomicBool,
    earlier: &std::cell::Cell<u64>,
    info: &mut dyn FnMut(&SearchInfo),
) -> Option<Move> {
    let start = Instant::now();
    let single = go.nodes.is_some()
        || hard.is_some_and(|h| h.saturating_duration_since(start) <= SINGLE_SEARCH);
    let mut result: Option<SearchResult> = None;
    let mut slice = FIRST_SLICE;
    loop {
        let deadline = if single {
            hard
        } else {
            let end = Instant::now() + slice;
            Some(hard.map_or(end, |h| h.min(end)))
        };
        let limits = Limits {
            deadline,
            max_nodes: go.nodes,
            max_depth: go.depth,
        };
        let r = searcher.search(pos, limits, info);
        earlier.set(earlier.get() + r.nodes);
        let done = single
            || stop.load(Ordering::Relaxed)
            || r.best.is_none()
            || hard.is_some_and(|h| Instant::now() >= h)
            || go.depth.is_some_and(|d| r.depth >= d)
            || mate_in(r.score).is_some() && !go.infinite;
        // A piece cut short below the depth already reached keeps the deeper answer.
        if result.as_ref().is_none_or(|prev| r.depth >= prev.depth) || r.best.is_none() {
            result = Some(r);
        }
        if done {
            break;
        }
        slice = (slice * 2).min(MAX_SLICE);
    }
    result.and_then(|r| r.best)
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
    running: Option<(JoinHandle<Searcher>, Arc<AtomicBool>)>,
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

    /// Stops a running search and waits for its `bestmove`.
    fn finish_search(&mut self) {
        if let Some((handle, stop)) = self.running.take() {
            stop.store(true, Ordering::Relaxed);
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
                self.finish_search();
                return false;
            }
            "stop" => {
                self.finish_search();
                Ok(())
            }
            "ucinewgame" => {
                self.finish_search();
                if let Some(s) = self.searcher.as_mut() {
                    s.clear();
                }
                self.position = Position::new(self.rules);
                Ok(())
            }
            "setoption" => {
                self.finish_search();
                self.setoption(args)
            }
            "position" => {
                self.finish_search();
                parse_position(args, self.rules).map(|pos| self.position = pos)
            }
            "go" => {
                self.finish_search();
                Go::parse(args).map(|go| {
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
                        search(&mut searcher, &pos, &go, play, &flag, &out);
                        searcher
                    });
                    self.running = Some((handle, stop));
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

/// Runs the UCI loop: reads commands from `input` until `quit` or the end of input, and
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
    engine.finish_search();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_reads_every_parameter() {
        let go = Go::parse(&[
            "wtime",
            "60000",
            "btime",
            "-5",
            "winc",
            "1000",
            "binc",
            "0",
            "movestogo",
            "10",
            "depth",
            "7",
            "nodes",
            "5000",
            "movetime",
            "250",
            "infinite",
        ])
        .expect("valid");
        assert_eq!(
            go.time,
            [Some(Duration::from_secs(60)), Some(Duration::ZERO)]
        );
        assert_eq!(go.inc, [Some(Duration::from_secs(1)), Some(Duration::ZERO)]);
        assert_eq!(
            (go.movestogo, go.depth, go.nodes),
            (Some(10), Some(7), Some(5000))
        );
        assert_eq!(go.movetime, Some(Duration::from_millis(250)));
        assert!(go.infinite);
        assert!(Go::parse(&["depth"]).is_err());
        assert!(Go::parse(&["ponder"]).is_err());
        assert!(Go::parse(&["wtime", "soon"]).is_err());
    }

    #[test]
    fn the_budget_is_a_share_of_the_clock_and_never_half_of_it() {
        let go = Go::parse(&["wtime", "60000", "btime", "1000", "winc", "2000"]).expect("valid");
        // 60 s / 30 moves + 3/4 of the increment.
        assert_eq!(go.budget(Color::White), Some(Duration::from_millis(3500)));
        // Black has 1 s: 1000 / 30 ms, well under half of what is left.
        assert_eq!(go.budget(Color::Black), Some(Duration::from_secs(1) / 30));
        let fixed = Go::parse(&["movetime", "500"]).expect("valid");
        assert_eq!(fixed.budget(Color::Black), Some(Duration::from_millis(470)));
        assert_eq!(Go::default().budget(Color::White), None);
    }

    #[test]
    fn positions_read_fen_with_reserves_and_moves() {
        let pos = parse_position(
            &[
                "fen",
                "4k3/8/8/8/8/8/8/Q~3K3[Nn]",
                "w",
                "-",
                "-",
                "0",
                "1",
                "moves",
                "N@e3",
            ],
            Rules::fide(),
        )
        .expect("valid");
        assert_eq!(pos.fen(), "4k3/8/8/8/8/4N3/8/Q~3K3[n] b - - 0 1");
        assert!(parse_position(&["startpos", "moves", "e2e5"], Rules::fide()).is_err());
        assert!(parse_position(&["fen"], Rules::fide()).is_err());
        assert!(parse_position(&[], Rules::fide()).is_err());
    }
}
