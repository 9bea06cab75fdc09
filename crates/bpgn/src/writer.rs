//! Writing standard BPGN: tags, `1A.` / `1a.` / `1B.` / `1b.` move numbers, SAN with drops,
//! each move's remaining clock (`{179.5}`), the termination comment and the result.

use std::fmt::Write as _;
use std::time::Duration;

use bughouse_core::{BoardId, Color, EndReason, Match, MatchResult, Seat};

use crate::reader::{Record, RecordMove};

/// Formats a clock in seconds with up to three decimals and no trailing zeros: `179.5`, `180`,
/// `118.585`.
pub fn format_clock(d: Duration) -> String {
    let ms = d.as_millis();
    let (s, frac) = (ms / 1000, ms % 1000);
    if frac == 0 {
        format!("{s}")
    } else {
        let f = format!("{frac:03}");
        format!("{s}.{}", f.trim_end_matches('0'))
    }
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The termination comment of a finished match, FICS style: `WhiteA checkmated` names the
/// player by his tag (`[WhiteA "name"]`) when there is one.
pub fn termination(game: &Match, tags: &[(String, String)]) -> Option<String> {
    let name = |seat: Seat| {
        let key = seat.to_string();
        tags.iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.clone())
            .unwrap_or(key)
    };
    let result = game.result()?;
    // The game that decided the match: the first one to end other than by being stopped.
    let deciding = BoardId::ALL
        .into_iter()
        .filter_map(|b| game.game_end(b))
        .filter(|e| e.reason != EndReason::OtherBoard)
        .min_by_key(|e| e.at)?;
    let who = deciding.seat.map(name);
    Some(match (deciding.reason, who) {
        (EndReason::Checkmate, Some(w)) => format!("{w} checkmated"),
        (EndReason::Resignation, Some(w)) => format!("{w} resigns"),
        (EndReason::Flag, Some(w)) => format!("{w} forfeits on time"),
        (EndReason::FlagOpponentCannotMate, Some(w)) => {
            format!("{w} ran out of time and the opponent could never mate; game drawn")
        }
        (EndReason::Stalemate, _) => "Game drawn by stalemate".to_owned(),
        (EndReason::BothFlags, _) => "Game drawn because both players ran out of time".to_owned(),
        (EndReason::Agreement, _) => "Game drawn by mutual agreement".to_owned(),
        (EndReason::Repetition, _) => "Game drawn by repetition".to_owned(),
        (EndReason::MoveCount, _) => "Game drawn by the move-count rule".to_owned(),
        (reason, _) => match result {
            MatchResult::Draw => format!("Game drawn ({reason})"),
            _ => reason.to_string(),
        },
    })
}

/// Writes a match as BPGN with the given tags (in order). The `Result` tag is set from the
/// match; a missing `TimeControl` tag is added from the match, and so is a `FEN` tag for a
/// match set up from other positions than the initial one ([`Match::setup_fen`]).
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use bughouse_core::{BoardId, Match, Rules, Seat, TimeControl};
///
/// let mut game = Match::new(Rules::fide(), TimeControl::default());
/// game.start(Duration::ZERO).unwrap();
/// let m = game.position(BoardId::A).parse_san("e4").unwrap();
/// game.play(Seat::WHITE_A, m, Duration::from_millis(500)).unwrap();
/// let text = bughouse_bpgn::write_bpgn(&game, &[("WhiteA".into(), "ann".into())]);
/// assert!(text.contains("1A. e4 {299.5}"));
/// ```
pub fn write_bpgn(game: &Match, tags: &[(String, String)]) -> String {
    let mut all: Vec<(String, String)> = tags
        .iter()
        .filter(|(k, _)| k != "Result")
        .cloned()
        .collect();
    if let (Some(fen), false) = (game.setup_fen(), all.iter().any(|(k, _)| k == "FEN")) {
        all.push(("FEN".to_owned(), fen.to_owned()));
    }
    if !all.iter().any(|(k, _)| k == "TimeControl") {
        let tc = game.time_control();
        all.push((
            "TimeControl".to_owned(),
            format!("{}+{}", tc.base.as_secs(), tc.increment.as_secs()),
        ));
    }
    let moves = game
        .record()
        .iter()
        .map(|rec| RecordMove {
            board: Some(rec.seat.board),
            color: rec.seat.color,
            number: rec.number,
            san: rec.san.as_str().to_owned(),
            clock: Some(rec.clock_left),
            line: 0,
        })
        .collect();
    let record = Record {
        tags: all,
        moves,
        termination: termination(game, tags),
        result: Some(game.result().map_or("*", MatchResult::pgn).to_owned()),
        line: 0,
        bughouse: true,
    };
    write_record(&record)
}

/// Writes a bughouse record as BPGN: its tags in order (any `Result` tag replaced by the
/// record's result, `*` when it has none), the moves with their board letters and, where known,
/// the mover's remaining clock, the termination comment and the result. What
/// [`read_games`](crate::read_games) reads back; the `line` fields and `bughouse` are ignored.
///
/// For records that are not a running [`Match`], such as an over-the-board table's scoresheet
/// whose clock times come from the table's clock. A move without a board is written on board A.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use bughouse_bpgn::{write_record, Record, RecordMove};
/// use bughouse_core::{BoardId, Color};
///
/// let record = Record {
///     tags: vec![("WhiteA".into(), "ann".into())],
///     moves: vec![RecordMove {
///         board: Some(BoardId::B),
///         color: Color::White,
///         number: 1,
///         san: "d4".into(),
///         clock: Some(Duration::from_millis(178_250)),
///         line: 0,
///     }],
///     termination: None,
///     result: None,
///     line: 0,
///     bughouse: true,
/// };
/// let text = write_record(&record);
/// assert!(text.contains("[Result \"*\"]"));
/// assert!(text.contains("1B. d4 {178.25}"));
/// ```
pub fn write_record(record: &Record) -> String {
    let mut out = String::new();
    let result = record.result.as_deref().unwrap_or("*");
    for (k, v) in &record.tags {
        if k == "Result" {
            continue;
        }
        let _ = writeln!(out, "[{k} \"{}\"]", escape(v));
    }
    let _ = writeln!(out, "[Result \"{result}\"]");
    out.push('\n');

    let mut line_len = 0;
    for rec in &record.moves {
        let b = rec.board.unwrap_or(BoardId::A);
        let letter = match rec.color {
            Color::White => b.char(),
            Color::Black => b.char().to_ascii_lowercase(),
        };
        let mut token = format!("{}{letter}. {}", rec.number, rec.san);
        if let Some(clock) = rec.clock {
            let _ = write!(token, " {{{}}}", format_clock(clock));
        }
        if line_len > 0 && line_len + token.len() + 1 > 80 {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        line_len += token.len();
        out.push_str(&token);
    }
    if line_len > 0 {
        out.push('\n');
    }
    if let Some(t) = &record.termination {
        let _ = write!(out, "{{{t}}} ");
    }
    out.push_str(result);
    out.push_str("\n\n");
    out
}
