//! Who sits where: the four seats of a pairing, per rulebook.
//!
//! The teams of a match are always WhiteA + BlackB against BlackA + WhiteB (the two
//! [`bughouse_core::Team`] sides, as BPGN has them): each team has White on one board and Black
//! on the other. A [`Seating`] says which side the home (first-named) team takes and which of
//! each team's players has White; the four seats follow. Per preset:
//!
//! - **minerva-2014** (M1.3, M1.5): the first-board players face each other on board A; the home
//!   team's first-board player has Black, his partner White. So the home first-board player
//!   sits BlackA and his partner WhiteB; the away first-board player WhiteA, his partner BlackB.
//! - **knsb-1988** (K1C, K1D): the first-board players face each other on board A; a draw of
//!   lots decides which of them has White; each partner has the other colour. The draw is the
//!   tournament's [`crate::rng`] output number [`Lot::draw`]: an even roll gives the home
//!   first-board player White. Every draw is kept in the pairing, so it can be checked against
//!   the seed.
//! - **fide** (F2.1): each team has White on one board and Black on the other; nothing says
//!   who. *interp.*: the home team sits WhiteA + BlackB; within each team the White alternates
//!   between the two players: the first-board player has White when he has had White no more
//!   often than Black in the team's earlier matches (so in the team's 1st, 3rd, 5th... match),
//!   the partner otherwise. Since home and away also alternate, the board on which a team has
//!   White alternates with them.
//! - **uscf-scholastic-2006** (U3): each team decides who plays White in each match. The
//!   organiser enters the choice per team per match ([`crate::Tournament::set_white_choice`]);
//!   until then the default is recorded: the first-board player has White, his partner Black.
//!   The home team sits WhiteA + BlackB.

use bughouse_core::{BoardId, Color, Preset, Seat, Team as Side};
use serde::{Deserialize, Serialize};

use crate::team::{Slot, TeamId};

/// One of the two sides of a match: [`bughouse_core::Team::One`] (WhiteA + BlackB) or
/// [`bughouse_core::Team::Two`] (BlackA + WhiteB).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SideId {
    /// WhiteA + BlackB.
    #[serde(rename = "WhiteA+BlackB")]
    One,
    /// BlackA + WhiteB.
    #[serde(rename = "BlackA+WhiteB")]
    Two,
}

impl SideId {
    /// The core team.
    pub const fn side(self) -> Side {
        match self {
            SideId::One => Side::One,
            SideId::Two => Side::Two,
        }
    }

    /// From the core team.
    pub const fn from_side(side: Side) -> SideId {
        match side {
            Side::One => SideId::One,
            Side::Two => SideId::Two,
        }
    }
}

/// A knsb-1988 draw of lots (K1D).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Lot {
    /// The number of the draw in the tournament, from 0.
    pub draw: u64,
    /// The output of the generator: [`crate::rng::nth`]`(seed, draw)`.
    pub roll: u64,
    /// Whether the home team's first-board player drew White (`roll` is even).
    pub home_first_white: bool,
}

impl Lot {
    /// Draw number `draw` of a tournament with this seed.
    pub const fn draw(seed: u64, draw: u64) -> Lot {
        let roll = crate::rng::nth(seed, draw);
        Lot {
            draw,
            roll,
            home_first_white: roll.is_multiple_of(2),
        }
    }
}

/// Whether a uscf team's choice of White was entered by the organiser or is the default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Choice {
    /// The default: the first-board player has White.
    Default,
    /// Entered by the organiser.
    Entered,
}

/// What decided the colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Basis {
    /// minerva-2014, M1.5: the home first-board player has Black.
    HomeFirstBlack,
    /// knsb-1988, K1D: a draw of lots.
    Lot(Lot),
    /// fide, F2.1: each team's White alternates between its players (*interp.*).
    Alternation,
    /// uscf-scholastic-2006, U3: each team's choice.
    TeamChoice {
        /// The home team's.
        home: Choice,
        /// The away team's.
        away: Choice,
    },
}

/// The seats of one pairing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Seating {
    /// The side the home team takes.
    pub home_side: SideId,
    /// The home team's player with White.
    pub home_white: Slot,
    /// The away team's player with White.
    pub away_white: Slot,
    /// What decided it.
    pub basis: Basis,
}

/// A player in a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SeatedPlayer {
    /// The seat.
    pub seat: Seat,
    /// The player's team.
    pub team: TeamId,
    /// Which of the team's players.
    pub slot: Slot,
    /// Whether the player's team is the home (first-named) team.
    pub home: bool,
}

impl Seating {
    /// minerva-2014 (M1.3, M1.5): home first-board player BlackA, partner WhiteB; away
    /// first-board player WhiteA, partner BlackB.
    pub const fn minerva() -> Seating {
        Seating {
            home_side: SideId::Two,
            home_white: Slot::Second,
            away_white: Slot::First,
            basis: Basis::HomeFirstBlack,
        }
    }

    /// knsb-1988 (K1C, K1D): the first-board players on board A, White to the one the lot
    /// gives it.
    pub const fn knsb(lot: Lot) -> Seating {
        if lot.home_first_white {
            Seating {
                home_side: SideId::One,
                home_white: Slot::First,
                away_white: Slot::Second,
                basis: Basis::Lot(lot),
            }
        } else {
            Seating {
                home_side: SideId::Two,
                home_white: Slot::Second,
                away_white: Slot::First,
                basis: Basis::Lot(lot),
            }
        }
    }

    /// fide (F2.1, *interp.*): the home team WhiteA + BlackB, each team's White as given.
    pub const fn fide(home_white: Slot, away_white: Slot) -> Seating {
        Seating {
            home_side: SideId::One,
            home_white,
            away_white,
            basis: Basis::Alternation,
        }
    }

    /// uscf-scholastic-2006 (U3): the home team WhiteA + BlackB, each team's White as chosen.
    pub const fn uscf(home_white: Slot, home: Choice, away_white: Slot, away: Choice) -> Seating {
        Seating {
            home_side: SideId::One,
            home_white,
            away_white,
            basis: Basis::TeamChoice { home, away },
        }
    }

    /// The uscf default: both teams' first-board players have White (U3, recorded as the
    /// teams' choice until the organiser enters another).
    pub const fn uscf_default() -> Seating {
        Seating::uscf(Slot::First, Choice::Default, Slot::First, Choice::Default)
    }

    /// Whether this seating fits `preset`'s rules (used when checking a loaded file).
    pub fn fits(&self, preset: Preset) -> bool {
        match (preset, self.basis) {
            (Preset::Minerva2014, Basis::HomeFirstBlack) => *self == Seating::minerva(),
            (Preset::Knsb1988, Basis::Lot(lot)) => *self == Seating::knsb(lot),
            (Preset::Fide, Basis::Alternation)
            | (Preset::UscfScholastic2006, Basis::TeamChoice { .. }) => {
                self.home_side == SideId::One
            }
            _ => false,
        }
    }

    /// Whether the home team plays on `side`.
    fn is_home(&self, side: Side) -> bool {
        SideId::from_side(side) == self.home_side
    }

    /// The team and player in `seat`.
    pub fn at(&self, seat: Seat, home: TeamId, away: TeamId) -> SeatedPlayer {
        let is_home = self.is_home(seat.team());
        let white = if is_home {
            self.home_white
        } else {
            self.away_white
        };
        SeatedPlayer {
            seat,
            team: if is_home { home } else { away },
            slot: match seat.color {
                Color::White => white,
                Color::Black => white.other(),
            },
            home: is_home,
        }
    }

    /// The four seats, in BPGN order: WhiteA, BlackA, WhiteB, BlackB.
    pub fn seats(&self, home: TeamId, away: TeamId) -> [SeatedPlayer; 4] {
        Seat::ALL.map(|seat| self.at(seat, home, away))
    }

    /// Whether the home team has White on `board`.
    pub fn home_white_on(&self, board: BoardId) -> bool {
        self.is_home(Seat::new(board, Color::White).team())
    }

    /// The core side a team plays on.
    pub fn side_of(&self, home: bool) -> Side {
        if home {
            self.home_side.side()
        } else {
            self.home_side.side().other()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOME: TeamId = TeamId(0);
    const AWAY: TeamId = TeamId(1);

    fn who(s: &Seating, seat: Seat) -> (TeamId, Slot) {
        let p = s.at(seat, HOME, AWAY);
        (p.team, p.slot)
    }

    #[test]
    fn minerva_seats() {
        let s = Seating::minerva();
        assert_eq!(who(&s, Seat::BLACK_A), (HOME, Slot::First));
        assert_eq!(who(&s, Seat::WHITE_A), (AWAY, Slot::First));
        assert_eq!(who(&s, Seat::WHITE_B), (HOME, Slot::Second));
        assert_eq!(who(&s, Seat::BLACK_B), (AWAY, Slot::Second));
    }

    #[test]
    fn knsb_seats_follow_the_lot() {
        for draw in 0..20 {
            let lot = Lot::draw(99, draw);
            let s = Seating::knsb(lot);
            let (white_a, black_a) = (who(&s, Seat::WHITE_A), who(&s, Seat::BLACK_A));
            assert_eq!(white_a.1, Slot::First);
            assert_eq!(black_a.1, Slot::First);
            assert_eq!(white_a.0 == HOME, lot.home_first_white);
            // The partner of the first-board player with White has Black.
            let partner = Seat::WHITE_A.partner();
            assert_eq!(who(&s, partner), (white_a.0, Slot::Second));
        }
    }

    #[test]
    fn every_team_white_on_one_board_black_on_the_other() {
        let seatings = [
            Seating::minerva(),
            Seating::knsb(Lot::draw(1, 0)),
            Seating::knsb(Lot::draw(1, 1)),
            Seating::fide(Slot::First, Slot::Second),
            Seating::fide(Slot::Second, Slot::Second),
            Seating::uscf_default(),
        ];
        for s in seatings {
            let seats = s.seats(HOME, AWAY);
            for team in [HOME, AWAY] {
                let mine: Vec<_> = seats.iter().filter(|p| p.team == team).collect();
                assert_eq!(mine.len(), 2);
                assert_eq!(mine[0].seat.team(), mine[1].seat.team());
                assert_ne!(mine[0].slot, mine[1].slot);
                assert_ne!(mine[0].seat.color, mine[1].seat.color);
            }
        }
    }
}
