//! What players and the arbiter may claim or declare at a table, and what the rulebook decides.

use shakmaty::{Color, Role};

use crate::game::{BoardId, MatchResult, Score, Seat};

use super::article::Article;

/// A piece captured by an illegal move that is to be taken back (M7.7, K8E).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CapturedPiece {
    /// What was captured (as it passes: a promoted piece as a pawn).
    pub role: Role,
    /// Whether it was already passed to the offender's partner.
    pub passed: bool,
    /// Whether the partner still holds it off the board.
    pub partner_holds: bool,
}

/// What is wrong with the set-up (M7.1, M7.2, U8b, U8c).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SetupFault {
    /// The pieces were not set up correctly on this board.
    Position,
    /// This board was started with the colours swapped.
    ColoursSwapped,
    /// Both boards were started with the colours swapped.
    ColoursSwappedOnBothBoards,
}

/// A claim or a declaration by a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Claim {
    /// `claimant` says his opponent's flag is down (K11A2, U15a3, M5.2).
    Flag {
        /// Who claims.
        claimant: Seat,
    },
    /// `claimant` says both flags of his game are down (K11D, U16b; FIDE 6.9).
    BothFlags {
        /// Who claims.
        claimant: Seat,
    },
    /// `claimant` says his opponent's last move, completed by pressing the clock, was illegal
    /// (F4.2, M7.4, K8C, U8).
    IllegalMove {
        /// Who claims.
        claimant: Seat,
        /// The piece that move captured, if it captured one.
        captured: Option<CapturedPiece>,
    },
    /// `claimant` claims an illegal move at the same moment as the offender claims the
    /// claimant's flag (U15a5).
    IllegalMoveWithFlag {
        /// Who claims the illegal move.
        claimant: Seat,
    },
    /// `seat` takes back an illegal move before pressing his clock (M7.3, F3.11, U6).
    TakeBack {
        /// Who takes back.
        seat: Seat,
    },
    /// `claimant` claims a draw by repetition (F4.1).
    Repetition {
        /// Who claims.
        claimant: Seat,
    },
    /// `claimant` claims a draw after 30 moves without capture, drop or pawn move (K11F).
    MoveCount {
        /// Who claims.
        claimant: Seat,
    },
    /// `claimant`, whose flag is down, says his opponent could never have mated (K11E, M5.2).
    OpponentCannotMate {
        /// Who claims (the flagged player).
        claimant: Seat,
    },
    /// A player says the set-up was wrong (M7.1, M7.2, U8b, U8c).
    WrongSetup {
        /// The board.
        board: BoardId,
        /// What was wrong.
        fault: SetupFault,
    },
}

impl Claim {
    /// The board the claim is about.
    pub fn board(&self) -> BoardId {
        match *self {
            Claim::Flag { claimant }
            | Claim::BothFlags { claimant }
            | Claim::IllegalMove { claimant, .. }
            | Claim::IllegalMoveWithFlag { claimant }
            | Claim::Repetition { claimant }
            | Claim::MoveCount { claimant }
            | Claim::OpponentCannotMate { claimant } => claimant.board,
            Claim::TakeBack { seat } => seat.board,
            Claim::WrongSetup { board, .. } => board,
        }
    }
}

/// What the arbiter rules on one board after hearing a claim the table cannot settle alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ruling {
    /// The game is won by this colour.
    Win(Color),
    /// The game is drawn.
    Draw,
    /// The claim is rejected: play on.
    PlayOn,
}

/// Where the piece to take back an illegal capture comes from (M7.7, K8E).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PieceBack {
    /// The capture was not passed yet: the piece goes straight back.
    NotPassed(Role),
    /// The offender takes a piece of that kind back from his partner's reserve at once.
    FromPartnerReserve(Role),
    /// The partner no longer has one: the offender tells his opponent and starts his partner's
    /// clock when the partner is on move; the opponent takes such a piece from the other board
    /// and hands it over; until then the offender's partner may not move.
    FromOtherBoard(Role),
}

/// Why a claim does not stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
pub enum Refusal {
    /// The claimant has completed a move since: too late (F4.2, M7.5, K8C, U8a).
    #[error("too late: the claimant has completed a move since")]
    AlreadyMoved,
    /// The opponent has not completed a move to claim against.
    #[error("the opponent has not completed a move")]
    NoMoveToClaim,
    /// The flag claimed is not down.
    #[error("the flag is not down")]
    FlagNotDown,
    /// The claimant's flag is not down (K11E, M5.2 are claims of the flagged player).
    #[error("the claimant's flag is not down")]
    OwnFlagNotDown,
    /// The rulebook has no such claim.
    #[error("the rulebook has no such claim")]
    NotInRulebook,
    /// Too late for a set-up claim: Black completed his third move (M7.1) or both sides moved
    /// (U8b, U8c).
    #[error("too late for a set-up claim")]
    SetupTooLate,
    /// The move was already completed by pressing the clock (M7.4, K8D).
    #[error("the move was already completed by pressing the clock")]
    AlreadyPressed,
    /// The game on that board is already over.
    #[error("the game on that board is over")]
    GameOver,
    /// The engine finds the claimed draw not established by the moves entered.
    #[error("the moves entered do not establish it")]
    NotEstablished,
    /// The engine finds the opponent could still mate.
    #[error("the opponent could still mate")]
    OpponentCouldMate,
    /// The illegal moves were neither repeated nor deliberate (K8F).
    #[error("one illegal move, not declared deliberate: no forfeit")]
    NotRepeated,
}

/// What a decision does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Consequence {
    /// Both games start.
    Started,
    /// The game on `seat`'s board is won by `seat`.
    Win {
        /// The winner.
        seat: Seat,
    },
    /// The game on `board` is drawn.
    Draw {
        /// The board.
        board: BoardId,
    },
    /// Both games are drawn at once (M5.5).
    DrawBoth,
    /// `seat` loses his game by forfeit (K8F).
    Forfeit {
        /// The loser.
        seat: Seat,
    },
    /// The arbiter may declare the game of `seat` lost: his illegal moves are repeated (K8F).
    ForfeitPossible {
        /// The offender.
        seat: Seat,
    },
    /// `offender`'s clock is restarted and he must replace his illegal move by a legal one
    /// (M7.4, M7.6, K8C), the captured piece coming back as said (M7.7, K8E).
    ReplaceMove {
        /// Who made the illegal move.
        offender: Seat,
        /// The captured piece to put back, if any.
        piece_back: Option<PieceBack>,
    },
    /// The move may be taken back: the clock was not pressed (M7.3, F3.11, U6).
    TakeBack {
        /// Who takes back.
        seat: Seat,
    },
    /// Both games start again from the beginning (M7.1, M7.2).
    RestartBoth,
    /// The game on `board` starts again with a correct set-up (U8b).
    RestartGame {
        /// The board.
        board: BoardId,
    },
    /// Nothing changes: play on (M7.2 both boards swapped).
    PlayOn,
    /// The clocks stop for the arbiter (F3.12, U18).
    Paused,
    /// The clocks run again.
    Resumed,
    /// The table cannot settle it alone: the arbiter hears the players and rules.
    ArbiterDecides,
    /// The match is over.
    MatchOver(MatchResult),
    /// The claim does not stand.
    Refused(Refusal),
}

/// A decision: the article that applies and its consequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Decision {
    /// The article.
    pub article: Article,
    /// What happens.
    pub consequence: Consequence,
}

impl Decision {
    /// A decision.
    pub const fn new(article: Article, consequence: Consequence) -> Decision {
        Decision {
            article,
            consequence,
        }
    }

    /// A refusal under `article`.
    pub const fn refused(article: Article, why: Refusal) -> Decision {
        Decision::new(article, Consequence::Refused(why))
    }

    /// The score of the game this decision ends, if it ends one: `(board, score)`.
    pub fn game_score(&self) -> Option<(BoardId, Score)> {
        match self.consequence {
            Consequence::Win { seat } => Some((seat.board, Score::win(seat.color))),
            Consequence::Forfeit { seat } => Some((seat.board, Score::win(!seat.color))),
            Consequence::Draw { board } => Some((board, Score::Draw)),
            _ => None,
        }
    }
}
