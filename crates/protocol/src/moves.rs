//! A list of moves in UCI, as one string: the legal moves the server sends the player to move
//! with every `moved` are forty or so short strings, and a `Vec<String>` would allocate each.

use std::fmt::{self, Write as _};

use serde::de::{SeqAccess, Visitor};
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use ts_rs::TS;

/// Moves in UCI (`e2e4`, `N@f3`): on the wire a JSON array of strings, in memory one string of
/// moves separated by spaces.
#[derive(Debug, Clone, PartialEq, Eq, Default, TS)]
#[ts(type = "Array<string>")]
pub struct UciList(String);

impl UciList {
    /// An empty list with room for `n` moves.
    pub fn with_capacity(n: usize) -> UciList {
        UciList(String::with_capacity(n * 6))
    }

    /// The list of moves already written one after the other, separated by single spaces (no
    /// space at either end, none doubled: a list's own form, as a fast reader builds it).
    pub fn from_joined(joined: String) -> UciList {
        debug_assert!(!joined.starts_with(' ') && !joined.ends_with(' ') && !joined.contains("  "));
        UciList(joined)
    }

    /// Appends a move (anything that prints as UCI, without spaces).
    pub fn push(&mut self, mv: impl fmt::Display) {
        if !self.0.is_empty() {
            self.0.push(' ');
        }
        let _ = write!(self.0, "{mv}");
    }

    /// Appends a move's UCI text.
    pub fn push_str(&mut self, uci: &str) {
        if !self.0.is_empty() {
            self.0.push(' ');
        }
        self.0.push_str(uci);
    }

    /// The moves, in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        self.0.split(' ').filter(|m| !m.is_empty())
    }

    /// The number of moves.
    pub fn len(&self) -> usize {
        self.iter().count()
    }

    /// Whether there is no move.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `uci` is one of the moves.
    pub fn contains(&self, uci: &str) -> bool {
        self.iter().any(|m| m == uci)
    }

    /// The `i`-th move.
    pub fn get(&self, i: usize) -> Option<&str> {
        self.iter().nth(i)
    }
}

impl<S: AsRef<str>> FromIterator<S> for UciList {
    fn from_iter<I: IntoIterator<Item = S>>(iter: I) -> UciList {
        let mut list = UciList::default();
        for mv in iter {
            list.push(mv.as_ref());
        }
        list
    }
}

impl Serialize for UciList {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(None)?;
        for mv in self.iter() {
            seq.serialize_element(mv)?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for UciList {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<UciList, D::Error> {
        struct Moves;
        impl<'de> Visitor<'de> for Moves {
            type Value = UciList;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array of moves in UCI")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<UciList, A::Error> {
                let mut list = UciList::default();
                while let Some(mv) = seq.next_element::<&str>()? {
                    if mv.is_empty() || mv.contains(char::is_whitespace) {
                        return Err(serde::de::Error::custom(format!(
                            "{mv:?} is not a move in UCI"
                        )));
                    }
                    list.push(mv);
                }
                Ok(list)
            }
        }
        deserializer.deserialize_seq(Moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_array_of_strings_on_the_wire() {
        let list: UciList = ["e2e4", "N@f3", "e7e8q"].into_iter().collect();
        assert_eq!(list.len(), 3);
        assert_eq!(list.get(1), Some("N@f3"));
        assert!(list.contains("e7e8q") && !list.contains("e2"));
        let json = serde_json::to_string(&list).unwrap();
        assert_eq!(json, r#"["e2e4","N@f3","e7e8q"]"#);
        assert_eq!(serde_json::from_str::<UciList>(&json).unwrap(), list);
        let empty = UciList::default();
        assert_eq!(serde_json::to_string(&empty).unwrap(), "[]");
        assert!(serde_json::from_str::<UciList>("[]").unwrap().is_empty());
        assert!(serde_json::from_str::<UciList>(r#"["e2 e4"]"#).is_err());
        assert!(serde_json::from_str::<UciList>(r#"[""]"#).is_err());
        assert!(serde_json::from_str::<UciList>(r#""e2e4""#).is_err());
    }
}
