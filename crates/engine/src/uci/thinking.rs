//! What the search thread of `bughouse uci` does with one `go`: the searches (pondering first
//! for `go ponder`), their `info` lines and the `bestmove`; the flags the command loop sets to
//! end them, and the state of a search under way.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use super::Go;
use crate::level::split_mix;
use crate::search::Options;
use crate::{mate_in, Level, Limits, SearchInfo, SearchResult, Searcher};
use bughouse_core::{Move, Position};

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
pub(super) struct Out(pub(super) Arc<Mutex<dyn Write + Send>>);

impl Out {
    /// Writes one line and flushes it; a closed output is not an error of ours.
    pub(super) fn say(&self, line: &str) {
        if let Ok(mut out) = self.0.lock() {
            let _ = writeln!(out, "{line}").and_then(|()| out.flush());
        }
    }
}

/// How one `go` plays: the strength level and the seed of its random choices.
#[derive(Debug, Clone, Copy)]
pub(super) struct Play {
    pub(super) level: Level,
    pub(super) seed: u64,
    /// `setoption name Ponder value true`: `bestmove` names the reply to ponder on.
    pub(super) ponder: bool,
}

/// The flags of a search under way, set by the command loop.
#[derive(Clone, Default)]
pub(super) struct Flags {
    /// `stop`, or a command that needs the engine idle: answer now.
    pub(super) stop: Arc<AtomicBool>,
    /// `ponderhit`: the opponent played the move pondered on; search as the clocks say.
    pub(super) hit: Arc<AtomicBool>,
    /// Ends the pondering (the searcher's stop flag while it ponders): set with `stop` and with
    /// `ponderhit`.
    pub(super) ponder_over: Arc<AtomicBool>,
}

impl Flags {
    pub(super) fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
        // Release: whoever sees the pondering over sees why (`stop`, `hit`).
        self.ponder_over.store(true, Ordering::Release);
    }
}

/// Runs one `go` on `searcher` and prints the info lines and `bestmove`.
///
/// `go ponder` first searches with no time limit until `ponderhit` or `stop`; after
/// `ponderhit` it searches again as the clocks say (from the table the pondering filled),
/// after `stop` it answers with what the pondering found.
pub(super) fn search(
    searcher: &mut Searcher,
    pos: &Position,
    go: &Go,
    play: Play,
    flags: &Flags,
    out: &Out,
) {
    let mut only = Vec::new();
    for token in &go.searchmoves {
        match pos.parse_uci(token) {
            Ok(mv) => only.push(mv),
            Err(e) => out.say(&format!("info string error: go searchmoves {token}: {e}")),
        }
    }
    let mut start = Instant::now();
    let limits = |deadline| Limits {
        deadline,
        max_nodes: go.nodes,
        max_depth: go.max_depth(),
    };
    let mut best = None;
    if go.ponder {
        searcher.set_stop_flag(Some(Arc::clone(&flags.ponder_over)));
        best = think(searcher, pos, limits(None), &only, play, start, out);
        while !flags.ponder_over.load(Ordering::Acquire) {
            thread::sleep(Duration::from_millis(5));
        }
        start = Instant::now();
    }
    let pondered =
        go.ponder && (!flags.hit.load(Ordering::Relaxed) || flags.stop.load(Ordering::Relaxed));
    if !pondered {
        searcher.set_stop_flag(Some(Arc::clone(&flags.stop)));
        let deadline = go.budget(pos.turn()).map(|b| start + b);
        best = think(searcher, pos, limits(deadline), &only, play, start, out);
        // `go infinite` must not answer before `stop`.
        while go.infinite && !flags.stop.load(Ordering::Relaxed) {
            thread::sleep(Duration::from_millis(5));
        }
    }
    match best {
        Some((m, Some(reply))) if play.ponder => out.say(&format!("bestmove {m} ponder {reply}")),
        Some((m, _)) => out.say(&format!("bestmove {m}")),
        None => out.say("bestmove (none)"),
    }
}

/// One search within `limits` among the root moves `only` (empty: all) at the level of
/// `play`, printing its info lines (times since `start`); the move chosen, and the reply the
/// search expects to it (the principal variation's second move) when it has one.
fn think(
    searcher: &mut Searcher,
    pos: &Position,
    limits: Limits,
    only: &[Move],
    play: Play,
    start: Instant,
    out: &Out,
) -> Option<(Move, Option<Move>)> {
    let mut info = |i: &SearchInfo| out.say(&info_line(i, start.elapsed().max(i.elapsed)));
    let mut options = Options {
        only: only.to_vec(),
        ..Options::default()
    };
    let reply = |r: &SearchResult, chosen: Move| match r.pv.as_slice() {
        [first, second, ..] if *first == chosen => Some(*second),
        _ => None,
    };
    if play.level == Level::MAX {
        let r = searcher.search_with(pos, limits, options, &mut info).0;
        return r.best.map(|best| (best, reply(&r, best)));
    }
    // A weaker level searches within its own depth and nodes too, and chooses as the level
    // does.
    let params = play.level.params();
    options.noise = params.noise;
    options.exact_root = params.margin > 0;
    let (r, roots) = searcher.search_with(pos, params.limits(limits), options, &mut info);
    let mut state = play.seed;
    let chosen = r
        .best
        .map(|best| params.choose(best, &roots, &mut || split_mix(&mut state)))?;
    Some((chosen, reply(&r, chosen)))
}

/// A search under way: its thread, its flags, and what of its `go` needs `stop`.
pub(super) struct Running {
    pub(super) handle: JoinHandle<Searcher>,
    pub(super) flags: Flags,
    /// `go infinite`: only `stop` ends it.
    pub(super) infinite: bool,
    /// `go ponder`: endless until `ponderhit`.
    pub(super) ponder: bool,
}

impl Running {
    /// Whether only `stop` would end it.
    pub(super) fn endless(&self) -> bool {
        self.infinite || self.ponder && !self.flags.hit.load(Ordering::Relaxed)
    }
}
