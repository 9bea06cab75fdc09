//! Waiting (F3.7) in arena records: every spell in which a player to move had no legal move and
//! waited for a piece, by who waited (our bot or the other engine), whether in check, and how
//! the spell ended: a piece came and he moved, he lost on time, or the match ended otherwise
//! (won or lost for his team).
//!
//! usage: cargo run --release -p bughouse-tune --example waits FILE.bpgn...
//!
//! Each wait of our bot that begins with its partner to move on the other board also counts how
//! long the partner held that move (his whole think on it, which may have begun before the
//! wait: an upper bound): a partner who sits (or thinks long) while ours waits for a piece only
//! he can send leaves both our clocks running and neither of theirs.
//!
//! With `WAITS_SHOW=1` in the environment, each wait of our bot is printed with the position
//! before its last move on that board (`FEN_A | FEN_B`, for `bughouse uci` or a test), that move
//! and the check that made it wait.

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
            let show = std::env::var_os("WAITS_SHOW").is_some();
            // Per board: the match before the last move of each seat there, and that move.
            let mut before: [Vec<(Seat, String, String)>; 2] = [Vec::new(), Vec::new()];
            // Each seat's clock after its last move; and per board, our bot's partner to move
            // there when our bot began to wait on the other board, with that clock.
            let mut clock = [end.time_control().base; 4];
            let mut held: [Option<(Seat, Duration)>; 2] = [None, None];
            for (i, rm) in rec.iter().enumerate() {
                if show {
                    let list = &mut before[rm.seat.board as usize];
                    list.retain(|(s, _, _)| *s != rm.seat);
                    list.push((rm.seat, game.fen(), rm.san.as_str().to_owned()));
                }
                let b = rm.seat.board as usize;
                if let Some((seat, check)) = waiting[b].take() {
                    let who = if bot(seat) { "bot" } else { "other" };
                    *counts
                        .entry(format!("{who} waits{}: a piece came, he moved", cs(check)))
                        .or_default() += 1;
                }
                // Only the partner moves next on his board: he was to move there.
                if let Some((_, before)) = held[b].take_if(|(s, _)| *s == rm.seat) {
                    let hold = before.saturating_sub(rm.clock_left);
                    *counts
                        .entry(format!(
                            "bot waits, its partner to move: he held {}",
                            span(hold)
                        ))
                        .or_default() += 1;
                }
                clock[rm.seat.index()] = rm.clock_left;
                game.play(rm.seat, rm.mv, Duration::from_millis(i as u64 + 1))
                    .expect("replayed before");
                for board in BoardId::ALL {
                    let k = board as usize;
                    if waiting[k].is_none() && game.verdict(board) == Verdict::Waiting {
                        let seat = game.to_move(board);
                        waiting[k] = Some((seat, game.position(board).is_check()));
                        let partner = seat.partner();
                        if bot(seat)
                            && game.game_end(partner.board).is_none()
                            && game.to_move(partner.board) == partner
                        {
                            held[partner.board.index()] = Some((partner, clock[partner.index()]));
                        }
                        if show && bot(seat) {
                            let list = &before[k];
                            let ours = list.iter().find(|(s, _, _)| *s == seat);
                            let check = list.iter().find(|(s, _, _)| *s != seat);
                            if let (Some((_, fen, mv)), Some((_, _, by))) = (ours, check) {
                                println!("{path}: {seat} played {mv} in {fen}; then {by}");
                            }
                        }
                    }
                }
            }
            for _ in held.into_iter().flatten() {
                *counts
                    .entry("bot waits, its partner to move: he had not moved at the end".into())
                    .or_default() += 1;
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

/// A partner's hold, in three bands.
fn span(hold: Duration) -> &'static str {
    if hold < Duration::from_secs(1) {
        "under 1 s"
    } else if hold < Duration::from_secs(5) {
        "1 to 5 s"
    } else {
        "5 s or more"
    }
}

fn cs(check: bool) -> &'static str {
    if check {
        " in check"
    } else {
        ""
    }
}
