//! Points, kept exactly in quarters: match and game points move in halves, and
//! Sonneborn-Berger adds half of an opponent's match points, which can be a quarter.

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A number of points, exact to a quarter. Shown and saved as a decimal: `0`, `1.5`, `2.75`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Points(u32);

impl Points {
    /// No points.
    pub const ZERO: Points = Points(0);
    /// Half a point.
    pub const HALF: Points = Points(2);
    /// One point.
    pub const ONE: Points = Points(4);
    /// Two points.
    pub const TWO: Points = Points(8);

    /// `n` whole points.
    pub const fn whole(n: u32) -> Points {
        Points(n * 4)
    }

    /// `n` half points.
    pub const fn halves(n: u32) -> Points {
        Points(n * 2)
    }

    /// `n` quarter points.
    pub const fn quarters(n: u32) -> Points {
        Points(n)
    }

    /// The number of quarter points.
    pub const fn in_quarters(self) -> u32 {
        self.0
    }

    /// Half of these points, rounded down to a quarter (exact for any multiple of a half).
    pub const fn half(self) -> Points {
        Points(self.0 / 2)
    }

    /// Whether this is a whole number of half points.
    pub const fn is_multiple_of_half(self) -> bool {
        self.0.is_multiple_of(2)
    }

    /// The value as a float.
    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / 4.0
    }

    /// Reads a decimal (`1`, `1.5`, `0.25`, `1½`) that is a whole number of quarters.
    pub fn parse(s: &str) -> Option<Points> {
        let s = s.trim();
        if let Some(whole) = s.strip_suffix('½') {
            let w: u32 = if whole.is_empty() {
                0
            } else {
                whole.parse().ok()?
            };
            return w.checked_mul(4)?.checked_add(2).map(Points);
        }
        let value: f64 = s.parse().ok()?;
        Points::from_f64(value)
    }

    fn from_f64(value: f64) -> Option<Points> {
        if !value.is_finite() || value < 0.0 || value > f64::from(u32::MAX / 4) {
            return None;
        }
        let q = value * 4.0;
        if (q - q.round()).abs() > 1e-9 {
            return None;
        }
        // In range and integral: the cast is exact.
        Some(Points(q.round() as u32))
    }
}

impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.0 / 4;
        match self.0 % 4 {
            0 => write!(f, "{whole}"),
            1 => write!(f, "{whole}.25"),
            2 => write!(f, "{whole}.5"),
            _ => write!(f, "{whole}.75"),
        }
    }
}

impl Add for Points {
    type Output = Points;

    fn add(self, rhs: Points) -> Points {
        Points(self.0 + rhs.0)
    }
}

impl AddAssign for Points {
    fn add_assign(&mut self, rhs: Points) {
        self.0 += rhs.0;
    }
}

impl Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        iter.fold(Points::ZERO, Add::add)
    }
}

impl Serialize for Points {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.0.is_multiple_of(4) {
            serializer.serialize_u32(self.0 / 4)
        } else {
            serializer.serialize_f64(self.as_f64())
        }
    }
}

impl<'de> Deserialize<'de> for Points {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Points, D::Error> {
        let value = f64::deserialize(deserializer)?;
        Points::from_f64(value).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "{value} is not a non-negative number of quarter points"
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_and_parse() {
        for (q, text) in [(0, "0"), (2, "0.5"), (4, "1"), (5, "1.25"), (7, "1.75")] {
            assert_eq!(Points::quarters(q).to_string(), text);
            assert_eq!(Points::parse(text), Some(Points::quarters(q)));
        }
        assert_eq!(Points::parse("1½"), Some(Points::halves(3)));
        assert_eq!(Points::parse("½"), Some(Points::HALF));
        assert_eq!(Points::parse("0.3"), None);
        assert_eq!(Points::parse("-1"), None);
    }

    #[test]
    fn json_round_trip() {
        let p = [Points::whole(2), Points::halves(3), Points::quarters(1)];
        let text = serde_json::to_string(&p).unwrap();
        assert_eq!(text, "[2,1.5,0.25]");
        let back: Vec<Points> = serde_json::from_str(&text).unwrap();
        assert_eq!(back, p);
        assert!(serde_json::from_str::<Points>("0.1").is_err());
    }
}
