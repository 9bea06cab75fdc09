//! One seat's player in a match: our bot, an outside UCI engine or an outside XBoard engine,
//! asked for its decision at a virtual time, with the wall time it took.

use std::time::{Duration, Instant};

use bughouse_core::{BoardId, ByColor, Color, Match, Move, Reserve, Seat};
use bughouse_engine::xboard::{ptell_to_talk, talk_to_ptell};
use bughouse_engine::{Action, Limits, SearchConfig, Talk, TeamBot};

use crate::fen::uci_fen;
use crate::uci::UciEngine;
use crate::xboard::XboardEngine;
use crate::{EngineError, Spec, UCI_VARIANT};

/// The shortest pause before a sitting bot is asked again.
pub(crate) const MIN_RECHECK: Duration = Duration::from_millis(10);
/// How long past his own flag an outside engine may take before it is told to stop.
const UCI_GRACE: Duration = Duration::from_secs(1);
/// A sitting XBoard engine moves anyway when its time left falls to this (Fairy-Stockfish's
/// rule).
const XBOARD_SIT_FLOOR: Duration = Duration::from_secs(1);
/// The shortest wait for a sitting XBoard engine's search before its move is taken.
const XBOARD_MIN_PATIENCE: Duration = Duration::from_millis(50);

/// What a player decided, and what it cost.
pub(crate) struct Thought {
    pub(crate) outcome: Outcome,
    /// Wall time spent deciding: charged to the player's clock.
    pub(crate) wall: Duration,
    /// Messages for the partner.
    pub(crate) talk: Vec<Said>,
}

/// A message from one partner to the other.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Said {
    /// From our bot.
    Bot(Talk),
    /// From an XBoard engine: the text of its `tellics ptell`.
    Text(String),
}

#[derive(Debug, Clone)]
pub(crate) enum Outcome {
    Move(Move),
    /// Don't move now; ask again after this long (or when the other board changes).
    Sit(Option<Duration>),
    /// The player failed (engine died, illegal move, ...): he loses his game.
    Fail(String),
}

/// One seat's player in one match.
pub(crate) enum Player {
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
    /// The player of `spec`, facing the team of `opponents`.
    pub(crate) fn new(spec: &Spec, seed: u64, opponents: &Spec) -> Player {
        match spec {
            Spec::Bot(level, options) => {
                let mut bot = TeamBot::new(*level, seed);
                // Our bots and XBoard engines (partners talking) sit; a pair of UCI engines
                // never does.
                bot.set_opponents_sit(!matches!(opponents, Spec::Uci(..)));
                if let Some((_, params)) = &options.eval {
                    bot.set_params(**params);
                }
                if let Some(config) = options.search.as_deref().and_then(SearchConfig::named) {
                    bot.set_search_config(config);
                }
                Player::Bot(Box::new(bot))
            }
            Spec::Uci(path, options) => match UciEngine::start(path, UCI_VARIANT)
                .and_then(|mut e| e.set_options(options).map(|()| e))
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
    pub(crate) fn hear(&mut self, said: Said) {
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
    pub(crate) fn played(&mut self, mv: Move, moves: usize) {
        if let Player::Xboard {
            engine: Some(e), ..
        } = self
        {
            e.played(mv, moves);
        }
    }

    /// Asks the player for `seat`'s move at virtual time `now`, measuring the wall time.
    pub(crate) fn think(&mut self, m: &Match, seat: Seat, now: Duration) -> Thought {
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
pub(crate) fn board_moves(m: &Match, board: BoardId) -> Vec<Move> {
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
