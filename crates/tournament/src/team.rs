//! Teams: a name and two players, one of them named first-board player for the whole
//! tournament (M1.3, M1.4; K1C).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A team's index in the tournament, in the order the teams were added (its starting number
/// is one more).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TeamId(pub usize);

impl TeamId {
    /// The starting number: 1 for the first team added. Berger tables number teams this way.
    pub const fn number(self) -> usize {
        self.0 + 1
    }
}

impl fmt::Display for TeamId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// One of the two players of a team.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Slot {
    /// The first-board player ("eerstebordspeler", M1.3; K1C), fixed for the tournament
    /// (M1.4).
    First,
    /// His partner.
    Second,
}

impl Slot {
    /// The other player of the team.
    pub const fn other(self) -> Slot {
        match self {
            Slot::First => Slot::Second,
            Slot::Second => Slot::First,
        }
    }
}

impl fmt::Display for Slot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Slot::First => "first",
            Slot::Second => "second",
        })
    }
}

/// A slot name that is neither `first` nor `second`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown player {0:?}: expected first or second")]
pub struct UnknownSlot(pub String);

impl FromStr for Slot {
    type Err = UnknownSlot;

    fn from_str(s: &str) -> Result<Slot, UnknownSlot> {
        match s {
            "first" | "1" => Ok(Slot::First),
            "second" | "2" => Ok(Slot::Second),
            _ => Err(UnknownSlot(s.to_owned())),
        }
    }
}

/// A player.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Player {
    /// The name.
    pub name: String,
    /// A rating, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<u32>,
}

impl Player {
    /// A player with no rating.
    pub fn new(name: impl Into<String>) -> Player {
        Player {
            name: name.into(),
            rating: None,
        }
    }

    /// A player with a rating.
    pub fn rated(name: impl Into<String>, rating: u32) -> Player {
        Player {
            name: name.into(),
            rating: Some(rating),
        }
    }
}

/// A team of two players, fixed for the tournament.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Team {
    /// The team's name, unique in the tournament (compared without case).
    pub name: String,
    /// The first-board player (M1.3; K1C).
    pub first: Player,
    /// The partner.
    pub second: Player,
}

impl Team {
    /// A team.
    pub fn new(name: impl Into<String>, first: Player, second: Player) -> Team {
        Team {
            name: name.into(),
            first,
            second,
        }
    }

    /// The player in `slot`.
    pub fn player(&self, slot: Slot) -> &Player {
        match slot {
            Slot::First => &self.first,
            Slot::Second => &self.second,
        }
    }

    /// The team's rating: the mean of its players' ratings (rounded down), the one rating if
    /// only one player has one, `None` if neither has. Used to order the first Swiss round and
    /// as the last tie-break.
    pub fn rating(&self) -> Option<u32> {
        match (self.first.rating, self.second.rating) {
            (Some(a), Some(b)) => Some(((u64::from(a) + u64::from(b)) / 2) as u32),
            (Some(a), None) | (None, Some(a)) => Some(a),
            (None, None) => None,
        }
    }
}
