//! The opening book ([`bughouse_engine::Book`]), built by searching deeply the positions the
//! bot meets in its first moves, so that in a match it plays them at once.
//!
//! Two trees are grown from the starting position, one for each colour we may play, `plies`
//! half-moves of one board deep. Every position of a tree gets our move: a search of `nodes`
//! nodes with the default configuration, from a fresh searcher (so the move depends neither on
//! the order of the positions nor on `jobs`). Where we move, the tree follows our move; where
//! the opponent moves, it follows each of his likely replies: our own move for him, and the
//! `reply_lines` best moves of the reply engine (Fairy-Stockfish, the opponent the arena
//! measures us against, whose choice varies with its thinking time) at each of `reply_nodes`
//! (its `go nodes` with `MultiPV`, after `ucinewgame`: deterministic with one thread).
//! Captures on a board send the piece to the other board, so a board's reserves stay empty
//! through its exchanges, and every position of the trees is a book position.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::time::Duration;

use bughouse_arena::uci::UciEngine;
use bughouse_arena::{uci_fen, UCI_VARIANT};
use bughouse_core::uci::UciMove;
use bughouse_core::{Color, Move, Position, Rules};
use bughouse_engine::{Book, Limits, Searcher};

use crate::TuneError;

/// How to build the book.
#[derive(Debug, Clone)]
pub struct BookConfig {
    /// The rules (a bughouse preset).
    pub rules: Rules,
    /// Half-moves of one board from the start.
    pub plies: u32,
    /// Nodes of our search per position.
    pub nodes: u64,
    /// The engine whose replies the trees follow besides ours (UCI, `UCI_Variant bughouse`).
    pub reply_engine: Option<PathBuf>,
    /// The reply engine's `go nodes` for each of its searches.
    pub reply_nodes: Vec<u64>,
    /// The reply engine's best moves followed from each of its searches (its `MultiPV`).
    pub reply_lines: usize,
    /// Positions searched at once, each thread with its own searcher and reply engine.
    pub jobs: usize,
}

/// What a position of the trees needs: our move, and (where the opponent moves) his replies.
struct Analysis {
    ours: Move,
    replies: Vec<Move>,
}

/// Builds the book. `progress` gets a line per ply of each tree.
///
/// # Errors
///
/// [`TuneError::ReplyEngine`] when the reply engine cannot be started or fails on a position.
pub fn build_book(
    config: &BookConfig,
    progress: &(dyn Fn(String) + Sync),
) -> Result<Book, TuneError> {
    let mut book = Book::default();
    let mut analysed: HashMap<String, Vec<Move>> = HashMap::new();
    for us in [Color::White, Color::Black] {
        let mut frontier = vec![Position::new(config.rules)];
        for ply in 0..config.plies {
            // Analyse the positions not met before (the other tree may have met some).
            let todo: Vec<&Position> = frontier
                .iter()
                .filter(|p| !analysed.contains_key(&key(p)))
                .collect();
            let done = analyse_all(config, &todo)?;
            for (pos, a) in todo.iter().zip(done) {
                book.insert(pos, a.ours);
                let mut next = vec![a.ours];
                next.extend(a.replies);
                analysed.insert(key(pos), next);
            }
            let mut seen = HashSet::new();
            let mut next = Vec::new();
            for pos in &frontier {
                let moves = &analysed[&key(pos)];
                // Where we move only our move; where he moves every likely reply.
                let follow = if pos.turn() == us {
                    &moves[..1]
                } else {
                    &moves[..]
                };
                for &mv in follow {
                    let mut child = pos.clone();
                    child.play_unchecked(mv);
                    if !child.legal_moves().is_empty() && seen.insert(key(&child)) {
                        next.push(child);
                    }
                }
            }
            progress(format!(
                "playing {us:?}, ply {}: {} positions, {} in the book",
                ply + 1,
                frontier.len(),
                book.len()
            ));
            frontier = next;
        }
    }
    Ok(book)
}

fn key(pos: &Position) -> String {
    Book::key(pos).unwrap_or_else(|| pos.fen())
}

/// Our move and the replies for each position, `jobs` threads at once.
fn analyse_all(config: &BookConfig, todo: &[&Position]) -> Result<Vec<Analysis>, TuneError> {
    let jobs = config.jobs.max(1).min(todo.len().max(1));
    let all = crate::in_jobs(
        jobs,
        |job| {
            let mut engine = match &config.reply_engine {
                Some(path) => Some(UciEngine::start(path, UCI_VARIANT).map_err(|e| {
                    TuneError::ReplyEngine {
                        fen: String::new(),
                        message: e.to_string(),
                    }
                })?),
                None => None,
            };
            let mut out = Vec::new();
            for (i, pos) in todo.iter().enumerate().skip(job).step_by(jobs) {
                out.push((i, analyse(config, pos, engine.as_mut())?));
            }
            Ok(out)
        },
        || TuneError::ReplyEngine {
            fen: String::new(),
            message: "a book thread panicked".to_owned(),
        },
    )?;
    Ok(all.into_iter().map(|(_, a)| a).collect())
}

fn analyse(
    config: &BookConfig,
    pos: &Position,
    engine: Option<&mut UciEngine>,
) -> Result<Analysis, TuneError> {
    // A fresh searcher: the move depends only on the position and the node count.
    let mut searcher = Searcher::new(16);
    let result = searcher.search(pos, Limits::nodes(config.nodes), &mut |_| {});
    let ours = result.best.unwrap_or_else(|| pos.legal_moves()[0]);
    let mut replies = Vec::new();
    if let Some(engine) = engine {
        let fen = uci_fen(pos);
        let fail = |message: String| TuneError::ReplyEngine {
            fen: pos.fen(),
            message,
        };
        for &nodes in &config.reply_nodes {
            engine.new_game().map_err(|e| fail(e.to_string()))?;
            let tokens = engine
                .top_moves_in_nodes(&fen, nodes, config.reply_lines, Duration::from_secs(120))
                .map_err(|e| fail(e.to_string()))?;
            for token in tokens {
                let mv = token
                    .parse::<UciMove>()
                    .ok()
                    .and_then(|m| m.to_move(pos).ok())
                    .ok_or_else(|| fail(format!("answered {token:?}, not a legal move")))?;
                if mv != ours && !replies.contains(&mv) {
                    replies.push(mv);
                }
            }
        }
    }
    Ok(Analysis { ours, replies })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_book_without_reply_engine_is_our_line_from_both_sides() {
        let config = BookConfig {
            rules: Rules::fide(),
            plies: 4,
            nodes: 3_000,
            reply_engine: None,
            reply_nodes: Vec::new(),
            reply_lines: 1,
            jobs: 2,
        };
        let book = build_book(&config, &|_| {}).unwrap();
        // Without another engine both trees are our own line: four positions.
        assert_eq!(book.len(), 4);
        let mut pos = Position::new(Rules::fide());
        for _ in 0..4 {
            let mv = book.lookup(&pos).expect("the line is in the book");
            pos.play_unchecked(mv);
        }
        assert_eq!(book.lookup(&pos), None);
        // The same book from one thread: the moves depend on nothing else.
        let one = build_book(&BookConfig { jobs: 1, ..config }, &|_| {}).unwrap();
        assert_eq!(one.to_text(), book.to_text());
        let read = Book::parse(&book.to_text(), Rules::fide()).unwrap();
        assert_eq!(read.to_text(), book.to_text());
    }
}
