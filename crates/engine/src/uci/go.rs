//! The `go` and `position` commands of the UCI front end: their words read into a [`Go`] and a
//! [`Position`], and the time a `go` gives the search.

use std::time::Duration;

use bughouse_core::{Color, Position, Rules};

use super::error::{CommandError, MoveError};

/// Kept back from the clock for process and pipe overhead.
const OVERHEAD: Duration = Duration::from_millis(30);

/// The parameters of one `go`.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Go {
    /// Remaining times of White and Black.
    pub time: [Option<Duration>; 2],
    /// Increments of White and Black.
    pub inc: [Option<Duration>; 2],
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Search to this depth.
    pub depth: Option<u32>,
    /// Search this many nodes.
    pub nodes: Option<u64>,
    /// Search exactly this long.
    pub movetime: Option<Duration>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Search for a mate in this many moves: a search to `2N + 1` plies at most.
    pub mate: Option<u32>,
    /// Search only these root moves (as written; the legal ones count).
    pub searchmoves: Vec<String>,
    /// Think on the opponent's time until `ponderhit` (then search as the clocks say) or
    /// `stop`.
    pub ponder: bool,
}

/// The words of `go` (after `searchmoves`, the first of them ends the list of moves).
const PARAMETERS: [&str; 12] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

impl Go {
    /// Reads the words after `go`: every parameter of the UCI protocol. Unknown words are an
    /// error.
    pub(crate) fn parse(words: &[&str]) -> Result<Go, CommandError> {
        let mut go = Go::default();
        let mut i = 0;
        let value = |i: usize| -> Result<u64, CommandError> {
            let word = words
                .get(i + 1)
                .ok_or_else(|| CommandError::MissingValue(words[i].to_owned()))?;
            word.parse::<i64>()
                .map(|v| v.max(0) as u64)
                .map_err(|_| CommandError::NotANumber {
                    param: words[i].to_owned(),
                    value: (*word).to_owned(),
                })
        };
        while i < words.len() {
            let ms = |v: u64| Some(Duration::from_millis(v).min(crate::MAX_CLOCK));
            match words[i] {
                "infinite" => {
                    go.infinite = true;
                    i += 1;
                    continue;
                }
                "ponder" => {
                    go.ponder = true;
                    i += 1;
                    continue;
                }
                "searchmoves" => {
                    i += 1;
                    while let Some(word) = words.get(i).filter(|w| !PARAMETERS.contains(w)) {
                        go.searchmoves.push((*word).to_owned());
                        i += 1;
                    }
                    continue;
                }
                "mate" => go.mate = Some(value(i)?.clamp(1, 99) as u32),
                "wtime" => go.time[0] = ms(value(i)?),
                "btime" => go.time[1] = ms(value(i)?),
                "winc" => go.inc[0] = ms(value(i)?),
                "binc" => go.inc[1] = ms(value(i)?),
                "movestogo" => go.movestogo = Some(value(i)?.min(u64::from(u32::MAX)) as u32),
                "depth" => go.depth = Some(value(i)?.clamp(1, 200) as u32),
                "nodes" => go.nodes = Some(value(i)?.max(1)),
                "movetime" => go.movetime = ms(value(i)?),
                other => return Err(CommandError::UnsupportedGo(other.to_owned())),
            }
            i += 2;
        }
        Ok(go)
    }

    /// The depth limit: `depth`, and `mate`'s `2N + 1` plies.
    pub(crate) fn max_depth(&self) -> Option<u32> {
        let mate = self.mate.map(|n| 2 * n + 1);
        match (self.depth, mate) {
            (Some(d), Some(m)) => Some(d.min(m)),
            (d, m) => d.or(m),
        }
    }

    /// How long to think for the side `turn`, if the time is limited.
    pub(crate) fn budget(&self, turn: Color) -> Option<Duration> {
        if let Some(t) = self.movetime {
            return Some(t.saturating_sub(OVERHEAD).max(Duration::from_millis(1)));
        }
        let side = usize::from(turn == Color::Black);
        let left = self.time[side]?;
        let inc = self.inc[side].unwrap_or_default();
        let moves = self.movestogo.unwrap_or(30).clamp(1, 50);
        let share = left / moves + inc * 3 / 4;
        let cap = left.saturating_sub(OVERHEAD) / 2;
        Some(share.min(cap).max(Duration::from_millis(1)))
    }
}

/// Parses `position startpos|fen FEN [moves M...]` into a position under `rules`.
pub(crate) fn parse_position(words: &[&str], rules: Rules) -> Result<Position, CommandError> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    let mut pos = match setup.split_first() {
        Some((&"startpos", [])) => Position::new(rules),
        Some((&"fen", fen)) if !fen.is_empty() => Position::from_fen(&fen.join(" "), rules)?,
        _ => return Err(CommandError::PositionShape),
    };
    for (n, token) in moves.iter().enumerate() {
        let refused = |source: MoveError| CommandError::Move {
            number: n + 1,
            token: (*token).to_owned(),
            source,
        };
        let m = pos.parse_uci(token).map_err(|e| refused(e.into()))?;
        pos.play(m).map_err(|e| refused(e.into()))?;
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_reads_every_parameter() {
        let go = Go::parse(&[
            "wtime",
            "60000",
            "btime",
            "-5",
            "winc",
            "1000",
            "binc",
            "0",
            "movestogo",
            "10",
            "depth",
            "7",
            "nodes",
            "5000",
            "movetime",
            "250",
            "infinite",
        ])
        .expect("valid");
        assert_eq!(
            go.time,
            [Some(Duration::from_secs(60)), Some(Duration::ZERO)]
        );
        assert_eq!(go.inc, [Some(Duration::from_secs(1)), Some(Duration::ZERO)]);
        assert_eq!(
            (go.movestogo, go.depth, go.nodes),
            (Some(10), Some(7), Some(5000))
        );
        assert_eq!(go.movetime, Some(Duration::from_millis(250)));
        assert!(go.infinite);
        assert!(Go::parse(&["depth"]).is_err());
        assert!(Go::parse(&["wtime", "soon"]).is_err());
        assert!(Go::parse(&["sometime"]).is_err());
        // The moves of `searchmoves` run to the next parameter.
        let go = Go::parse(&[
            "ponder",
            "searchmoves",
            "e2e4",
            "N@f3",
            "mate",
            "3",
            "depth",
            "9",
        ])
        .expect("valid");
        assert!(go.ponder);
        assert_eq!(go.searchmoves, ["e2e4", "N@f3"]);
        assert_eq!((go.mate, go.max_depth()), (Some(3), Some(7)));
        let go = Go::parse(&["mate", "2", "depth", "3", "searchmoves"]).expect("valid");
        assert_eq!(go.max_depth(), Some(3));
        assert!(go.searchmoves.is_empty());
    }

    #[test]
    fn the_budget_is_a_share_of_the_clock_and_never_half_of_it() {
        let go = Go::parse(&["wtime", "60000", "btime", "1000", "winc", "2000"]).expect("valid");
        // 60 s / 30 moves + 3/4 of the increment.
        assert_eq!(go.budget(Color::White), Some(Duration::from_millis(3500)));
        // Black has 1 s: 1000 / 30 ms, well under half of what is left.
        assert_eq!(go.budget(Color::Black), Some(Duration::from_secs(1) / 30));
        let fixed = Go::parse(&["movetime", "500"]).expect("valid");
        assert_eq!(fixed.budget(Color::Black), Some(Duration::from_millis(470)));
        assert_eq!(Go::default().budget(Color::White), None);
    }

    #[test]
    fn positions_read_fen_with_reserves_and_moves() {
        let pos = parse_position(
            &[
                "fen",
                "4k3/8/8/8/8/8/8/Q~3K3[Nn]",
                "w",
                "-",
                "-",
                "0",
                "1",
                "moves",
                "N@e3",
            ],
            Rules::fide(),
        )
        .expect("valid");
        assert_eq!(pos.fen(), "4k3/8/8/8/8/4N3/8/Q~3K3[n] b - - 0 1");
        assert!(parse_position(&["startpos", "moves", "e2e5"], Rules::fide()).is_err());
        assert!(parse_position(&["fen"], Rules::fide()).is_err());
        assert!(parse_position(&[], Rules::fide()).is_err());
    }
}
