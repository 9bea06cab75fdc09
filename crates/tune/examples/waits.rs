//! Waiting (F3.7) in arena records: every spell in which a player to move had no legal move and
//! waited for a piece, by who waited (our bot or the other engine), whether in check, and how
//! the spell ended: a piece came and he moved, he lost on time, or the match ended otherwise
//! (won or lost for his team).
//!
//! usage: cargo run --release -p bughouse-tune --example waits FILE.bpgn...

use std::collections::BTreeMap;
use std::time::Duration;

use bughouse_bpgn::{read_games, replay_bughouse};
use bughouse_core::{BoardId, Match, Rules, Seat, Verdict};

fn main() {
    let rules = Rules::fide();
    let mut counts: BTreeMap<String, u32> = BTreeMap::new();
    for path in std::env::args().skip(1) {
        let text = std::fs::read(&path).expect("read");
        for record in read_games(&text) {
            let Ok(record) = record else { continue };
            let Ok(end) = replay_bughouse(&record, rules) else {
                continue;
            };
            let bot = |s: Seat| record.tag(&s.to_string()).unwrap_or("").starts_with("bot");
            let mut game = Match::new(rules, end.time_control());
            game.start(Duration::ZERO).unwrap();
            // The waiting seat of each board, and whether it began in check.
            let mut waiting: [Option<(Seat, bool)>; 2] = [None, None];
            let rec = end.record().to_vec();
            for (i, rm) in rec.iter().enumerate() {
                let b = rm.seat.board as usize;
                if let Some((seat, check)) = waiting[b].take() {
                    let who = if bot(seat) { "bot" } else { "other" };
                    *counts
                        .entry(format!("{who} waits{}: a piece came, he moved", cs(check)))
                        .or_default() += 1;
                }
                game.play(rm.seat, rm.mv, Duration::from_millis(i as u64 + 1))
                    .expect("replayed before");
                for board in BoardId::ALL {
                    let k = board as usize;
                    if waiting[k].is_none() && game.verdict(board) == Verdict::Waiting {
                        let seat = game.to_move(board);
                        waiting[k] = Some((seat, game.position(board).is_check()));
                    }
                }
            }
            let term = record.termination.clone().unwrap_or_default();
            let result = record.result.clone().unwrap_or_default();
            for (seat, check) in waiting.into_iter().flatten() {
                let who = if bot(seat) { "bot" } else { "other" };
                let name = record.tag(&seat.to_string()).unwrap_or("");
                let flagged = term.contains("on time") && term.starts_with(name);
                // 1-0: WhiteA and BlackB won.
                let first_team = matches!(seat, Seat::WHITE_A | Seat::BLACK_B);
                let won = (result == "1-0") == first_team && result != "1/2-1/2";
                let how = if flagged {
                    "he lost on time".to_owned()
                } else {
                    format!(
                        "the match ended otherwise, his team {}",
                        if won { "won" } else { "lost" }
                    )
                };
                *counts
                    .entry(format!("{who} waits{}: {how}", cs(check)))
                    .or_default() += 1;
            }
        }
    }
    for (k, n) in counts {
        println!("{n:5}  {k}");
    }
}

fn cs(check: bool) -> &'static str {
    if check {
        " in check"
    } else {
        ""
    }
}
