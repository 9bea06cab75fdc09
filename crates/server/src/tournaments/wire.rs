//! The protocol's names for the tournament library's values, both ways: the API's enums
//! ([`bughouse_protocol::tournament`]) are the wire's, the library keeps its own.

use bughouse_core::{BoardId, Color, Seat};
use bughouse_protocol::tournament as api;
use bughouse_protocol::SeatName;
use bughouse_tournament::{Forfeit, Format, GameResult, MatchRecord, Outcome, Slot};

pub(super) fn format(f: api::TournamentFormat) -> Format {
    match f {
        api::TournamentFormat::RoundRobin => Format::RoundRobin,
        api::TournamentFormat::DoubleRoundRobin => Format::DoubleRoundRobin,
        api::TournamentFormat::Swiss => Format::Swiss,
    }
}

pub(super) fn format_name(f: Format) -> api::TournamentFormat {
    match f {
        Format::RoundRobin => api::TournamentFormat::RoundRobin,
        Format::DoubleRoundRobin => api::TournamentFormat::DoubleRoundRobin,
        Format::Swiss => api::TournamentFormat::Swiss,
    }
}

pub(super) fn slot(s: api::Slot) -> Slot {
    match s {
        api::Slot::First => Slot::First,
        api::Slot::Second => Slot::Second,
    }
}

pub(super) fn slot_name(s: Slot) -> api::Slot {
    match s {
        Slot::First => api::Slot::First,
        Slot::Second => api::Slot::Second,
    }
}

pub(super) fn game(g: api::GameResult) -> GameResult {
    match g {
        api::GameResult::WhiteWins => GameResult::WhiteWins,
        api::GameResult::BlackWins => GameResult::BlackWins,
        api::GameResult::Draw => GameResult::Draw,
        api::GameResult::Stopped => GameResult::Stopped,
    }
}

pub(super) fn game_name(g: GameResult) -> api::GameResult {
    match g {
        GameResult::WhiteWins => api::GameResult::WhiteWins,
        GameResult::BlackWins => api::GameResult::BlackWins,
        GameResult::Draw => api::GameResult::Draw,
        GameResult::Stopped => api::GameResult::Stopped,
    }
}

/// A match result entered alone (from the home team's side), or a forfeit.
pub(super) fn match_record(m: api::MatchResult) -> MatchRecord {
    match m {
        api::MatchResult::HomeWins => MatchRecord::Match(Outcome::HomeWins),
        api::MatchResult::AwayWins => MatchRecord::Match(Outcome::AwayWins),
        api::MatchResult::Draw => MatchRecord::Match(Outcome::Draw),
        api::MatchResult::AwayForfeits => MatchRecord::Forfeit(Forfeit::AwayForfeits),
        api::MatchResult::HomeForfeits => MatchRecord::Forfeit(Forfeit::HomeForfeits),
        api::MatchResult::BothForfeit => MatchRecord::Forfeit(Forfeit::Both),
    }
}

pub(super) fn seat_name(s: Seat) -> SeatName {
    match (s.board, s.color) {
        (BoardId::A, Color::White) => SeatName::WhiteA,
        (BoardId::A, Color::Black) => SeatName::BlackA,
        (BoardId::B, Color::White) => SeatName::WhiteB,
        (BoardId::B, Color::Black) => SeatName::BlackB,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The protocol's names are the library's own texts, so the API reads and writes what it did
    /// when it parsed and printed those.
    #[test]
    fn names_agree_with_the_library() {
        for &f in api::TournamentFormat::ALL {
            assert_eq!(format(f).id(), f.as_str());
            assert_eq!(format_name(format(f)), f);
            assert_eq!(f.as_str().parse::<Format>(), Ok(format(f)));
        }
        for &s in api::Slot::ALL {
            assert_eq!(slot(s).to_string(), s.as_str());
            assert_eq!(slot_name(slot(s)), s);
        }
        for &g in api::GameResult::ALL {
            assert_eq!(game(g).as_str(), g.as_str());
            assert_eq!(game_name(game(g)), g);
        }
        for &m in api::MatchResult::ALL {
            assert_eq!(MatchRecord::parse_match(m.as_str()), Ok(match_record(m)));
        }
        for seat in Seat::ALL {
            assert_eq!(seat_name(seat), seat.to_string().as_str());
        }
    }
}
