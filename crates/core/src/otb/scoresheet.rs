//! The optional scoresheet of a table: the moves of both boards as a scorer enters them, checked
//! by the rules engine, captures passed to the partner's reserve. With the moves known, the
//! table answers the claims the moves decide (F4.1 repetition, K11F 30 moves, M5.2 and K11E
//! "could the opponent ever mate") instead of leaving them to the arbiter.

use std::time::Duration;

use crate::game::{could_mate_with_material, BoardId, Seat};
use crate::outcome::BoardGame;
use crate::position::Position;
use crate::rules::Rules;
use crate::types::Move;

use super::decide::EngineFacts;

/// A move that cannot go on the scoresheet.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScoresheetError {
    /// It is the other side's move on that board.
    #[error("it is not {0}'s move on the scoresheet")]
    NotYourTurn(Seat),
    /// Neither SAN nor UCI, or not a legal move in the position.
    #[error("{text:?} is not a legal move for {seat}: {reason}")]
    Illegal {
        /// Who moved.
        seat: Seat,
        /// What was entered.
        text: String,
        /// What the engine said.
        reason: String,
    },
}

/// One move on the scoresheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetMove {
    /// Who moved.
    pub seat: Seat,
    /// The move.
    pub mv: Move,
    /// Its SAN, with `+` or `#`.
    pub san: String,
    /// That board's move number.
    pub number: u32,
    /// The table clock's time it was entered.
    pub at: Duration,
}

/// Both boards' moves, in the order entered.
#[derive(Debug, Clone)]
pub struct Scoresheet {
    games: [BoardGame; 2],
    moves: Vec<SheetMove>,
}

impl Scoresheet {
    /// An empty scoresheet: both boards at the start position.
    pub fn new(rules: Rules) -> Scoresheet {
        Scoresheet {
            games: [
                BoardGame::new(Position::new(rules)),
                BoardGame::new(Position::new(rules)),
            ],
            moves: Vec::new(),
        }
    }

    /// The position on `board`.
    pub fn position(&self, board: BoardId) -> &Position {
        self.games[board.index()].position()
    }

    /// The moves entered, in order.
    pub fn moves(&self) -> &[SheetMove] {
        &self.moves
    }

    /// Whether any move was entered.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Reads `text` (SAN such as `Nf3`, `N@f3`, `exd5`, or UCI such as `g1f3`, `N@f3`) as a move
    /// of `seat`.
    ///
    /// # Errors
    ///
    /// [`ScoresheetError`]: not `seat`'s move, or not a legal move.
    pub fn parse(&self, seat: Seat, text: &str) -> Result<Move, ScoresheetError> {
        let pos = self.position(seat.board);
        if pos.turn() != seat.color {
            return Err(ScoresheetError::NotYourTurn(seat));
        }
        let text = text.trim();
        pos.parse_san(text)
            .or_else(|san| pos.parse_uci(text).map_err(|_| san.to_string()))
            .map_err(|reason| ScoresheetError::Illegal {
                seat,
                text: text.to_owned(),
                reason,
            })
    }

    /// Enters `mv` for `seat` at `at`: played on his board, a capture passed to his partner.
    ///
    /// # Errors
    ///
    /// [`ScoresheetError`]: not `seat`'s move, or illegal.
    pub fn enter(
        &mut self,
        seat: Seat,
        mv: Move,
        at: Duration,
    ) -> Result<&SheetMove, ScoresheetError> {
        let game = &mut self.games[seat.board.index()];
        if game.position().turn() != seat.color {
            return Err(ScoresheetError::NotYourTurn(seat));
        }
        let san = game.position().san(mv);
        let number = game.position().fullmoves();
        let passed = game.play(mv).map_err(|e| ScoresheetError::Illegal {
            seat,
            text: san.clone(),
            reason: e.to_string(),
        })?;
        if let Some(role) = passed {
            let partner = seat.partner();
            self.games[partner.board.index()]
                .position_mut()
                .add_to_reserve(partner.color, role);
        }
        self.moves.push(SheetMove {
            seat,
            mv,
            san,
            number,
            at,
        });
        Ok(self.moves.last().expect("a move was just entered"))
    }

    /// What the engine answers from the moves: the draw claims available on each board, and
    /// whether each seat could still mate with the material on his board and in the reserves
    /// (asked only once his partner's game is over, M5.2, K11E).
    pub fn facts(&self) -> EngineFacts {
        let could_mate =
            Seat::ALL.map(|s| could_mate_with_material(self.position(s.board), s.color));
        EngineFacts {
            draw_claims: [self.games[0].claims(), self.games[1].claims()],
            could_mate,
        }
    }
}
