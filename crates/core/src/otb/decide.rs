//! The decisions: for each claim, the article of the table's rulebook that applies and its
//! consequence, from the facts the table knows (its clocks, its ended games, the illegal moves
//! already upheld) and, when moves were entered, the rules engine's answers. Pure: no state
//! changes here (see [`super::Table`]).

use shakmaty::Color;

use crate::game::{BoardId, Seat};
use crate::outcome::DrawClaim;

use super::article::{Article, Rulebook};
use super::claim::{
    CapturedPiece, Claim, Consequence, Decision, PieceBack, Refusal, Ruling, SetupFault,
};
use super::clock::TableClock;

/// What the rules engine knows when the moves of both boards were entered (the scoresheet).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EngineFacts {
    /// The draw claims available on each board now (repetition F4.1, move count K11F).
    pub draw_claims: [Vec<DrawClaim>; 2],
    /// Whether each seat (WhiteA, BlackA, WhiteB, BlackB) could still mate his opponent by any
    /// sequence of legal moves, counting what he has and could still receive (M5.2, K11E).
    pub could_mate: [bool; 4],
}

/// What a decision is taken from.
#[derive(Debug, Clone, Copy)]
pub struct Facts<'a> {
    /// The table's rulebook.
    pub book: Rulebook,
    /// The clocks.
    pub clock: &'a TableClock,
    /// Which games are over.
    pub ended: [bool; 2],
    /// How many illegal moves of each seat were upheld so far.
    pub illegal_moves: [u32; 4],
    /// The engine's answers, when the moves are known.
    pub engine: Option<&'a EngineFacts>,
}

impl Facts<'_> {
    fn flag_down(&self, seat: Seat) -> bool {
        self.clock.flag(seat).is_some()
    }

    /// Whether `seat` could still win his game (M5.2, K11E): **interp.** while his partner's
    /// game goes on, any piece could still come (F3.7), so yes; otherwise the engine says, or
    /// nobody at the table knows (`None`) and the arbiter hears the players.
    fn could_win(&self, seat: Seat) -> Option<bool> {
        if !self.ended[seat.board.other().index()] {
            return Some(true);
        }
        self.engine.map(|e| e.could_mate[seat.index()])
    }
}

/// The decisions on `claim`, first the one that answers it; a second may follow (K8F).
pub fn decide(claim: Claim, f: &Facts<'_>) -> Vec<Decision> {
    let book = f.book;
    if f.ended[claim.board().index()] {
        return vec![Decision::refused(
            book.match_end_article(),
            Refusal::GameOver,
        )];
    }
    match claim {
        Claim::Flag { claimant } => vec![flag(claimant, f)],
        Claim::BothFlags { claimant } => vec![both_flags(claimant, f)],
        Claim::IllegalMove { claimant, captured } => illegal_move(claimant, captured, f),
        Claim::IllegalMoveWithFlag { claimant } => vec![illegal_move_with_flag(claimant, f)],
        Claim::TakeBack { seat } => vec![take_back(seat, f)],
        Claim::Repetition { claimant } => vec![repetition(claimant, f)],
        Claim::MoveCount { claimant } => vec![move_count(claimant, f)],
        Claim::OpponentCannotMate { claimant } => vec![opponent_cannot_mate(claimant, f)],
        Claim::WrongSetup { board, fault } => vec![wrong_setup(board, fault, f)],
    }
}

fn flag_article(book: Rulebook) -> Article {
    match book {
        Rulebook::Fide => Article::FideLaws6_9,
        Rulebook::Minerva2014 => Article::M5_2,
        Rulebook::Knsb1988 => Article::K11A2,
        Rulebook::UscfScholastic2006 => Article::U15a3,
    }
}

fn both_flags_article(book: Rulebook) -> Article {
    match book {
        Rulebook::Fide => Article::FideLaws6_9,
        Rulebook::Minerva2014 => Article::M5_5,
        Rulebook::Knsb1988 => Article::K11D,
        Rulebook::UscfScholastic2006 => Article::U16b,
    }
}

/// A flag claim: the claimant says his opponent's flag is down.
fn flag(claimant: Seat, f: &Facts<'_>) -> Decision {
    let book = f.book;
    let flagged = claimant.opponent();
    if !f.flag_down(flagged) {
        return Decision::refused(flag_article(book), Refusal::FlagNotDown);
    }
    let board = claimant.board;
    if f.flag_down(claimant) {
        // Both flags of this game down: FIDE 6.9 (blitz), M5.5, K11D, U16b (the claimant's own
        // flag is no longer up, U15a3).
        return Decision::new(both_flags_article(book), Consequence::Draw { board });
    }
    let win = Consequence::Win { seat: claimant };
    match book {
        Rulebook::Fide => Decision::new(Article::FideLaws6_9, win),
        Rulebook::UscfScholastic2006 => Decision::new(Article::U15a3, win),
        Rulebook::Minerva2014 | Rulebook::Knsb1988 => {
            let (lose, draw) = match book {
                Rulebook::Minerva2014 => (Article::M5_2, Article::M5_2),
                _ => (Article::K11A2, Article::K11E),
            };
            match f.could_win(claimant) {
                Some(true) => Decision::new(lose, win),
                Some(false) => Decision::new(draw, Consequence::Draw { board }),
                None => Decision::new(draw, Consequence::ArbiterDecides),
            }
        }
    }
}

fn both_flags(claimant: Seat, f: &Facts<'_>) -> Decision {
    let article = both_flags_article(f.book);
    if !(f.flag_down(claimant) && f.flag_down(claimant.opponent())) {
        return Decision::refused(article, Refusal::FlagNotDown);
    }
    Decision::new(
        article,
        Consequence::Draw {
            board: claimant.board,
        },
    )
}

/// The flagged player says his opponent could never have mated (M5.2, K11E).
fn opponent_cannot_mate(claimant: Seat, f: &Facts<'_>) -> Decision {
    let article = match f.book {
        Rulebook::Fide => return Decision::refused(Article::F3_7, Refusal::NotInRulebook),
        Rulebook::UscfScholastic2006 => {
            return Decision::refused(Article::U24, Refusal::NotInRulebook)
        }
        Rulebook::Minerva2014 => Article::M5_2,
        Rulebook::Knsb1988 => Article::K11E,
    };
    if !f.flag_down(claimant) {
        return Decision::refused(article, Refusal::OwnFlagNotDown);
    }
    match f.could_win(claimant.opponent()) {
        Some(true) => Decision::refused(article, Refusal::OpponentCouldMate),
        Some(false) => Decision::new(
            article,
            Consequence::Draw {
                board: claimant.board,
            },
        ),
        None => Decision::new(article, Consequence::ArbiterDecides),
    }
}

/// Whether `claimant` may still claim against his opponent's last move: the opponent has
/// completed a move and the claimant has not completed one since (his clock runs).
fn may_claim_against_last_move(claimant: Seat, f: &Facts<'_>) -> Result<(), Refusal> {
    if f.clock.presses(claimant.opponent()) == 0 {
        return Err(Refusal::NoMoveToClaim);
    }
    if f.clock.on_turn(claimant.board) != Some(claimant) {
        return Err(Refusal::AlreadyMoved);
    }
    Ok(())
}

fn illegal_move(claimant: Seat, captured: Option<CapturedPiece>, f: &Facts<'_>) -> Vec<Decision> {
    let book = f.book;
    let late = match book {
        Rulebook::Fide => Article::F4_2,
        Rulebook::Minerva2014 => Article::M7_5,
        Rulebook::Knsb1988 => Article::K8C,
        Rulebook::UscfScholastic2006 => Article::U8a,
    };
    if let Err(why) = may_claim_against_last_move(claimant, f) {
        return vec![Decision::refused(late, why)];
    }
    let offender = claimant.opponent();
    match book {
        Rulebook::Fide => vec![Decision::new(
            Article::F4_2,
            Consequence::Win { seat: claimant },
        )],
        Rulebook::UscfScholastic2006 => vec![Decision::new(
            Article::U8,
            Consequence::Win { seat: claimant },
        )],
        Rulebook::Minerva2014 | Rulebook::Knsb1988 => {
            let piece_back = captured.map(|c| {
                if !c.passed {
                    PieceBack::NotPassed(c.role)
                } else if c.partner_holds {
                    PieceBack::FromPartnerReserve(c.role)
                } else {
                    PieceBack::FromOtherBoard(c.role)
                }
            });
            let passed = captured.is_some_and(|c| c.passed);
            let article = match (book, passed) {
                (Rulebook::Minerva2014, false) => Article::M7_4,
                (Rulebook::Minerva2014, true) => Article::M7_7,
                (_, false) => Article::K8C,
                (_, true) => Article::K8E,
            };
            let mut out = vec![Decision::new(
                article,
                Consequence::ReplaceMove {
                    offender,
                    piece_back,
                },
            )];
            if book == Rulebook::Knsb1988 && f.illegal_moves[offender.index()] >= 1 {
                out.push(Decision::new(
                    Article::K8F,
                    Consequence::ForfeitPossible { seat: offender },
                ));
            }
            out
        }
    }
}

/// U15a5: an illegal-move claim and the offender's flag claim at once: the illegal mover loses.
fn illegal_move_with_flag(claimant: Seat, f: &Facts<'_>) -> Decision {
    if f.book != Rulebook::UscfScholastic2006 {
        return Decision::new(f.book.arbiter_article(), Consequence::ArbiterDecides);
    }
    if let Err(why) = may_claim_against_last_move(claimant, f) {
        return Decision::refused(Article::U8a, why);
    }
    Decision::new(Article::U15a5, Consequence::Win { seat: claimant })
}

/// A move taken back before the clock is pressed.
fn take_back(seat: Seat, f: &Facts<'_>) -> Decision {
    let (article, pressed) = match f.book {
        Rulebook::Fide => (Article::F3_11, Article::F4_2),
        Rulebook::Minerva2014 => (Article::M7_3, Article::M7_4),
        // K7 (touch move) and K8D: no taking back without the opponent's consent.
        Rulebook::Knsb1988 => (Article::K8D, Article::K8D),
        Rulebook::UscfScholastic2006 => (Article::U6, Article::U8),
    };
    if f.clock.on_turn(seat.board) != Some(seat) {
        return Decision::refused(pressed, Refusal::AlreadyPressed);
    }
    if f.book == Rulebook::Knsb1988 {
        return Decision::new(article, Consequence::ArbiterDecides);
    }
    Decision::new(article, Consequence::TakeBack { seat })
}

fn repetition(claimant: Seat, f: &Facts<'_>) -> Decision {
    match f.book {
        Rulebook::Fide => {}
        Rulebook::Minerva2014 => return Decision::refused(Article::M5_4, Refusal::NotInRulebook),
        Rulebook::Knsb1988 => return Decision::refused(Article::K11, Refusal::NotInRulebook),
        Rulebook::UscfScholastic2006 => {
            return Decision::refused(Article::U16, Refusal::NotInRulebook)
        }
    }
    engine_draw(claimant, DrawClaim::Repetition, Article::F4_1, f)
}

fn move_count(claimant: Seat, f: &Facts<'_>) -> Decision {
    match f.book {
        Rulebook::Knsb1988 => {}
        Rulebook::Fide => return Decision::refused(Article::F4, Refusal::NotInRulebook),
        Rulebook::Minerva2014 => return Decision::refused(Article::M5_4, Refusal::NotInRulebook),
        Rulebook::UscfScholastic2006 => {
            return Decision::refused(Article::U16, Refusal::NotInRulebook)
        }
    }
    engine_draw(claimant, DrawClaim::MoveCount, Article::K11F, f)
}

/// A draw claim the moves decide: the engine answers when they were entered, the arbiter
/// otherwise. A repetition is claimed by the player on move (F4.1, as FIDE 9.2).
fn engine_draw(claimant: Seat, claim: DrawClaim, article: Article, f: &Facts<'_>) -> Decision {
    let board = claimant.board;
    match f.engine {
        None => Decision::new(article, Consequence::ArbiterDecides),
        Some(e) => {
            let on_move =
                claim != DrawClaim::Repetition || f.clock.on_turn(board) == Some(claimant);
            if on_move && e.draw_claims[board.index()].contains(&claim) {
                Decision::new(article, Consequence::Draw { board })
            } else {
                Decision::refused(article, Refusal::NotEstablished)
            }
        }
    }
}

fn wrong_setup(board: BoardId, fault: SetupFault, f: &Facts<'_>) -> Decision {
    let presses = |board: BoardId, color: Color| f.clock.presses(Seat::new(board, color));
    match f.book {
        Rulebook::Minerva2014 => match fault {
            SetupFault::Position if presses(board, Color::Black) < 3 => {
                Decision::new(Article::M7_1, Consequence::RestartBoth)
            }
            SetupFault::Position => Decision::refused(Article::M7_1, Refusal::SetupTooLate),
            SetupFault::ColoursSwapped => Decision::new(Article::M7_2, Consequence::RestartBoth),
            SetupFault::ColoursSwappedOnBothBoards => {
                Decision::new(Article::M7_2, Consequence::PlayOn)
            }
        },
        Rulebook::UscfScholastic2006 => {
            let both_moved =
                |b: BoardId| presses(b, Color::White) > 0 && presses(b, Color::Black) > 0;
            let boards: &[BoardId] = match fault {
                SetupFault::ColoursSwappedOnBothBoards => &BoardId::ALL,
                _ => std::slice::from_ref(&board),
            };
            if boards.iter().any(|&b| both_moved(b)) {
                // U8b: void once each side has moved; U8c: the set-up stays.
                return Decision::refused(Article::U8c, Refusal::SetupTooLate);
            }
            let consequence = match fault {
                SetupFault::ColoursSwappedOnBothBoards => Consequence::RestartBoth,
                _ => Consequence::RestartGame { board },
            };
            Decision::new(Article::U8b, consequence)
        }
        Rulebook::Fide | Rulebook::Knsb1988 => {
            Decision::new(f.book.arbiter_article(), Consequence::ArbiterDecides)
        }
    }
}

/// The arbiter's ruling on `board` after hearing the players (F3.12, M10.3, K15, U18).
pub fn ruling(board: BoardId, ruling: Ruling, f: &Facts<'_>) -> Decision {
    let article = f.book.arbiter_article();
    if f.ended[board.index()] {
        return Decision::refused(article, Refusal::GameOver);
    }
    let consequence = match ruling {
        Ruling::Win(color) => Consequence::Win {
            seat: Seat::new(board, color),
        },
        Ruling::Draw => Consequence::Draw { board },
        Ruling::PlayOn => Consequence::PlayOn,
    };
    Decision::new(article, consequence)
}

/// The arbiter declares `seat`'s game lost for illegal moves: under K8F only when they were
/// repeated or deliberate; elsewhere as the arbiter decides where the rulebook is silent.
pub fn forfeit(seat: Seat, deliberate: bool, f: &Facts<'_>) -> Decision {
    if f.ended[seat.board.index()] {
        return Decision::refused(f.book.arbiter_article(), Refusal::GameOver);
    }
    if f.book != Rulebook::Knsb1988 {
        return Decision::new(f.book.arbiter_article(), Consequence::Forfeit { seat });
    }
    if deliberate || f.illegal_moves[seat.index()] >= 2 {
        Decision::new(Article::K8F, Consequence::Forfeit { seat })
    } else {
        Decision::refused(Article::K8F, Refusal::NotRepeated)
    }
}

/// The clocks stopped for the arbiter: F3.12, M10.1 (on a player's request), K15, U18.
pub fn pause_article(book: Rulebook) -> Article {
    match book {
        Rulebook::Fide => Article::F3_12,
        Rulebook::Minerva2014 => Article::M10_1,
        Rulebook::Knsb1988 => Article::K15,
        Rulebook::UscfScholastic2006 => Article::U18,
    }
}
