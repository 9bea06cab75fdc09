//! Between the wire types of [`bughouse_protocol::otb`] and the decisions of
//! [`bughouse_core::otb`]: events in, the table with its record out.

use std::time::Duration;

use bughouse_core::otb::{
    Article, CapturedPiece, Claim, Consequence, Decision, EntryKind, Event, PieceBack, Refusal,
    Rulebook, Ruling, ScoresheetError, SetupFault, Table, TableError,
};
use bughouse_core::{BoardId, Color, MatchResult, Role, Score, Seat, Team};
use bughouse_protocol::otb::{
    CapturedInfo, OtbArticle, OtbClaim, OtbClockFace, OtbConsequence, OtbDecision, OtbEntry,
    OtbEvent, OtbGame, OtbGameResult, OtbMatchResult, OtbRefusal, OtbRulebook, OtbRuling,
    OtbSheetMove, PieceBackFrom, SetupFault as WireFault,
};
use bughouse_protocol::{BoardName, Piece, SeatName};

pub(super) fn rulebook(r: OtbRulebook) -> Rulebook {
    match r {
        OtbRulebook::Fide => Rulebook::Fide,
        OtbRulebook::Minerva2014 => Rulebook::Minerva2014,
        OtbRulebook::Knsb1988 => Rulebook::Knsb1988,
        OtbRulebook::UscfScholastic2006 => Rulebook::UscfScholastic2006,
    }
}

pub(super) fn wire_rulebook(r: Rulebook) -> OtbRulebook {
    match r {
        Rulebook::Fide => OtbRulebook::Fide,
        Rulebook::Minerva2014 => OtbRulebook::Minerva2014,
        Rulebook::Knsb1988 => OtbRulebook::Knsb1988,
        Rulebook::UscfScholastic2006 => OtbRulebook::UscfScholastic2006,
    }
}

fn seat(s: SeatName) -> Seat {
    match s {
        SeatName::WhiteA => Seat::WHITE_A,
        SeatName::BlackA => Seat::BLACK_A,
        SeatName::WhiteB => Seat::WHITE_B,
        SeatName::BlackB => Seat::BLACK_B,
    }
}

fn seat_name(s: Seat) -> SeatName {
    match (s.board, s.color) {
        (BoardId::A, Color::White) => SeatName::WhiteA,
        (BoardId::A, Color::Black) => SeatName::BlackA,
        (BoardId::B, Color::White) => SeatName::WhiteB,
        (BoardId::B, Color::Black) => SeatName::BlackB,
    }
}

fn board(b: BoardName) -> BoardId {
    match b {
        BoardName::A => BoardId::A,
        BoardName::B => BoardId::B,
    }
}

fn board_name(b: BoardId) -> BoardName {
    match b {
        BoardId::A => BoardName::A,
        BoardId::B => BoardName::B,
    }
}

fn role(p: Piece) -> Role {
    match p {
        Piece::Pawn => Role::Pawn,
        Piece::Knight => Role::Knight,
        Piece::Bishop => Role::Bishop,
        Piece::Rook => Role::Rook,
        Piece::Queen => Role::Queen,
    }
}

fn piece(r: Role) -> Piece {
    match r {
        Role::Pawn | Role::King => Piece::Pawn,
        Role::Knight => Piece::Knight,
        Role::Bishop => Piece::Bishop,
        Role::Rook => Piece::Rook,
        Role::Queen => Piece::Queen,
    }
}

fn claim(c: OtbClaim) -> Claim {
    match c {
        OtbClaim::Flag { claimant } => Claim::Flag {
            claimant: seat(claimant),
        },
        OtbClaim::BothFlags { claimant } => Claim::BothFlags {
            claimant: seat(claimant),
        },
        OtbClaim::IllegalMove { claimant, captured } => Claim::IllegalMove {
            claimant: seat(claimant),
            captured: captured.map(|c: CapturedInfo| CapturedPiece {
                role: role(c.piece),
                passed: c.passed,
                partner_holds: c.partner_holds,
            }),
        },
        OtbClaim::IllegalMoveWithFlag { claimant } => Claim::IllegalMoveWithFlag {
            claimant: seat(claimant),
        },
        OtbClaim::TakeBack { seat: s } => Claim::TakeBack { seat: seat(s) },
        OtbClaim::Repetition { claimant } => Claim::Repetition {
            claimant: seat(claimant),
        },
        OtbClaim::MoveCount { claimant } => Claim::MoveCount {
            claimant: seat(claimant),
        },
        OtbClaim::OpponentCannotMate { claimant } => Claim::OpponentCannotMate {
            claimant: seat(claimant),
        },
        OtbClaim::WrongSetup { board: b, fault } => Claim::WrongSetup {
            board: board(b),
            fault: match fault {
                WireFault::Position => SetupFault::Position,
                WireFault::ColoursSwapped => SetupFault::ColoursSwapped,
                WireFault::ColoursSwappedOnBothBoards => SetupFault::ColoursSwappedOnBothBoards,
            },
        },
    }
}

/// The core event of a wire event; a scoresheet move is read in `table`'s position.
pub(super) fn event(e: &OtbEvent, table: &Table) -> Result<Event, TableError> {
    Ok(match e.clone() {
        OtbEvent::Move { seat: s, text } => {
            if text.len() > 12 {
                return Err(TableError::Scoresheet(ScoresheetError::Illegal {
                    seat: seat(s),
                    text: text.chars().take(12).collect(),
                    reason: "too long".to_owned(),
                }));
            }
            let mv = table.scoresheet().parse(seat(s), &text)?;
            Event::Move(seat(s), mv)
        }
        OtbEvent::Start => Event::Start,
        OtbEvent::Press { seat: s } => Event::Press(seat(s)),
        OtbEvent::Pause => Event::Pause,
        OtbEvent::Resume => Event::Resume,
        OtbEvent::Observe => Event::Observe,
        OtbEvent::Claim { claim: c } => Event::Claim(claim(c)),
        OtbEvent::Ruling { board: b, ruling } => Event::Ruling {
            board: board(b),
            ruling: match ruling {
                OtbRuling::WhiteWins => Ruling::Win(Color::White),
                OtbRuling::BlackWins => Ruling::Win(Color::Black),
                OtbRuling::Draw => Ruling::Draw,
                OtbRuling::PlayOn => Ruling::PlayOn,
            },
        },
        OtbEvent::Forfeit {
            seat: s,
            deliberate,
        } => Event::Forfeit {
            seat: seat(s),
            deliberate,
        },
    })
}

fn wire_event(e: Event) -> OtbEvent {
    let seat_of = seat_name;
    match e {
        Event::Start => OtbEvent::Start,
        Event::Press(s) => OtbEvent::Press { seat: seat_of(s) },
        Event::Pause => OtbEvent::Pause,
        Event::Resume => OtbEvent::Resume,
        Event::Observe => OtbEvent::Observe,
        Event::Claim(c) => OtbEvent::Claim {
            claim: wire_claim(c),
        },
        Event::Ruling { board: b, ruling } => OtbEvent::Ruling {
            board: board_name(b),
            ruling: match ruling {
                Ruling::Win(Color::White) => OtbRuling::WhiteWins,
                Ruling::Win(Color::Black) => OtbRuling::BlackWins,
                Ruling::Draw => OtbRuling::Draw,
                Ruling::PlayOn => OtbRuling::PlayOn,
            },
        },
        Event::Forfeit {
            seat: s,
            deliberate,
        } => OtbEvent::Forfeit {
            seat: seat_of(s),
            deliberate,
        },
        Event::Move(s, mv) => OtbEvent::Move {
            seat: seat_of(s),
            text: mv.to_string(),
        },
    }
}

fn wire_claim(c: Claim) -> OtbClaim {
    let n = seat_name;
    match c {
        Claim::Flag { claimant } => OtbClaim::Flag {
            claimant: n(claimant),
        },
        Claim::BothFlags { claimant } => OtbClaim::BothFlags {
            claimant: n(claimant),
        },
        Claim::IllegalMove { claimant, captured } => OtbClaim::IllegalMove {
            claimant: n(claimant),
            captured: captured.map(|c| CapturedInfo {
                piece: piece(c.role),
                passed: c.passed,
                partner_holds: c.partner_holds,
            }),
        },
        Claim::IllegalMoveWithFlag { claimant } => OtbClaim::IllegalMoveWithFlag {
            claimant: n(claimant),
        },
        Claim::TakeBack { seat: s } => OtbClaim::TakeBack { seat: n(s) },
        Claim::Repetition { claimant } => OtbClaim::Repetition {
            claimant: n(claimant),
        },
        Claim::MoveCount { claimant } => OtbClaim::MoveCount {
            claimant: n(claimant),
        },
        Claim::OpponentCannotMate { claimant } => OtbClaim::OpponentCannotMate {
            claimant: n(claimant),
        },
        Claim::WrongSetup { board: b, fault } => OtbClaim::WrongSetup {
            board: board_name(b),
            fault: match fault {
                SetupFault::Position => WireFault::Position,
                SetupFault::ColoursSwapped => WireFault::ColoursSwapped,
                SetupFault::ColoursSwappedOnBothBoards => WireFault::ColoursSwappedOnBothBoards,
            },
        },
    }
}

fn article(a: Article) -> OtbArticle {
    // The wire enum writes each article as the rulebook numbers it, as core does.
    OtbArticle::ALL
        .iter()
        .copied()
        .find(|w| w.as_str() == a.code())
        .unwrap_or(OtbArticle::M10_3)
}

fn refusal(r: Refusal) -> OtbRefusal {
    match r {
        Refusal::AlreadyMoved => OtbRefusal::AlreadyMoved,
        Refusal::NoMoveToClaim => OtbRefusal::NoMoveToClaim,
        Refusal::FlagNotDown => OtbRefusal::FlagNotDown,
        Refusal::OwnFlagNotDown => OtbRefusal::OwnFlagNotDown,
        Refusal::NotInRulebook => OtbRefusal::NotInRulebook,
        Refusal::SetupTooLate => OtbRefusal::SetupTooLate,
        Refusal::AlreadyPressed => OtbRefusal::AlreadyPressed,
        Refusal::GameOver => OtbRefusal::GameOver,
        Refusal::NotEstablished => OtbRefusal::NotEstablished,
        Refusal::OpponentCouldMate => OtbRefusal::OpponentCouldMate,
        Refusal::NotRepeated => OtbRefusal::NotRepeated,
    }
}

pub(super) fn match_result(r: MatchResult) -> OtbMatchResult {
    match r {
        MatchResult::Win(Team::One) => OtbMatchResult::TeamOne,
        MatchResult::Win(Team::Two) => OtbMatchResult::TeamTwo,
        MatchResult::Draw => OtbMatchResult::Draw,
    }
}

fn consequence(c: Consequence) -> OtbConsequence {
    match c {
        Consequence::Started => OtbConsequence::Started,
        Consequence::Win { seat: s } => OtbConsequence::Win { seat: seat_name(s) },
        Consequence::Draw { board: b } => OtbConsequence::Draw {
            board: board_name(b),
        },
        Consequence::DrawBoth => OtbConsequence::DrawBoth,
        Consequence::Forfeit { seat: s } => OtbConsequence::Forfeit { seat: seat_name(s) },
        Consequence::ForfeitPossible { seat: s } => {
            OtbConsequence::ForfeitPossible { seat: seat_name(s) }
        }
        Consequence::ReplaceMove {
            offender,
            piece_back,
        } => {
            let (p, from) = match piece_back {
                None => (None, None),
                Some(PieceBack::NotPassed(r)) => (Some(piece(r)), Some(PieceBackFrom::NotPassed)),
                Some(PieceBack::FromPartnerReserve(r)) => {
                    (Some(piece(r)), Some(PieceBackFrom::PartnerReserve))
                }
                Some(PieceBack::FromOtherBoard(r)) => {
                    (Some(piece(r)), Some(PieceBackFrom::OtherBoard))
                }
            };
            OtbConsequence::ReplaceMove {
                offender: seat_name(offender),
                piece_back: p,
                piece_from: from,
            }
        }
        Consequence::TakeBack { seat: s } => OtbConsequence::TakeBack { seat: seat_name(s) },
        Consequence::RestartBoth => OtbConsequence::RestartBoth,
        Consequence::RestartGame { board: b } => OtbConsequence::RestartGame {
            board: board_name(b),
        },
        Consequence::PlayOn => OtbConsequence::PlayOn,
        Consequence::Paused => OtbConsequence::Paused,
        Consequence::Resumed => OtbConsequence::Resumed,
        Consequence::ArbiterDecides => OtbConsequence::ArbiterDecides,
        Consequence::MatchOver(r) => OtbConsequence::MatchOver {
            result: match_result(r),
        },
        Consequence::Refused(r) => OtbConsequence::Refused { why: refusal(r) },
    }
}

fn decision(d: &Decision) -> OtbDecision {
    OtbDecision {
        article: article(d.article),
        consequence: consequence(d.consequence),
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The record of a table on the wire.
pub(super) fn record(table: &Table) -> Vec<OtbEntry> {
    table
        .record()
        .iter()
        .map(|e| {
            let (event, flag) = match e.kind {
                EntryKind::Event(ev) => (Some(wire_event(ev)), None),
                EntryKind::FlagFell(s) => (None, Some(seat_name(s))),
            };
            OtbEntry {
                at_ms: millis(e.at),
                event,
                flag,
                decisions: e.decisions.iter().map(decision).collect(),
            }
        })
        .collect()
}

/// The four clock faces at the table's last time.
pub(super) fn faces(table: &Table) -> Vec<OtbClockFace> {
    let clock = table.clock();
    let now = clock.last();
    Seat::ALL
        .into_iter()
        .map(|s| OtbClockFace {
            seat: seat_name(s),
            remaining_ms: millis(clock.remaining(s, now)),
            running: clock.running(s.board) == Some(s),
            flag_ms: clock.flag(s).map(millis),
        })
        .collect()
}

pub(super) fn game_result(score: Score) -> OtbGameResult {
    match score {
        Score::WhiteWins => OtbGameResult::WhiteWins,
        Score::BlackWins => OtbGameResult::BlackWins,
        Score::Draw => OtbGameResult::Draw,
    }
}

/// Both games' state.
pub(super) fn games(table: &Table) -> Vec<OtbGame> {
    BoardId::ALL
        .into_iter()
        .map(|b| {
            let end = table.game_end(b);
            OtbGame {
                board: board_name(b),
                result: end.map(|e| game_result(e.score)),
                article: end.map(|e| article(e.article)),
            }
        })
        .collect()
}

/// The scoresheet's moves.
pub(super) fn moves(table: &Table) -> Vec<OtbSheetMove> {
    table
        .scoresheet()
        .moves()
        .iter()
        .map(|m| OtbSheetMove {
            seat: seat_name(m.seat),
            number: m.number,
            san: m.san.clone(),
            at_ms: millis(m.at),
        })
        .collect()
}

/// Each seat's upheld illegal moves.
pub(super) fn illegal_moves(table: &Table) -> Vec<u32> {
    Seat::ALL
        .into_iter()
        .map(|s| table.illegal_moves(s))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_article_has_its_wire_value() {
        for a in Article::ALL {
            assert_eq!(article(a).as_str(), a.code());
        }
        assert_eq!(Article::ALL.len(), OtbArticle::ALL.len());
    }
}
