//! How often the bot missed a mate by checks, or allowed one, in arena records: for every
//! move of a seat whose player tag starts with `bot`, a mate search by checks
//! ([`bughouse_engine::find_mate`]) before the move (the bot's own mate) and after it (the
//! opponent's), with how long each search took.
//!
//! usage: cargo run --release -p bughouse-tune --example mates PLIES NODES FILE.bpgn...
//!
//! With `MATES_DECIDE=1` in the environment, each move that let the opponent mate where another
//! did not is decided again by a level-8 bot with `search=matecheck` (130 ms), and printed.

use std::time::{Duration, Instant};

use bughouse_bpgn::{read_games, replay_bughouse};
use bughouse_core::{Match, Rules, Seat};
use bughouse_engine::{find_mate, MateSearch};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let plies: u32 = args[0].parse().expect("PLIES");
    let nodes: u64 = args[1].parse().expect("NODES");
    let rules = Rules::fide();
    let (mut moves, mut own, mut missed, mut allowed, mut avoidable, mut unknown) =
        (0, 0, 0, 0, 0, 0);
    let mut spent = Duration::ZERO;
    let mut slowest = Duration::ZERO;
    let mut searches = 0u32;
    for path in &args[2..] {
        let text = std::fs::read(path).expect("read");
        for record in read_games(&text) {
            let Ok(record) = record else { continue };
            let Ok(end) = replay_bughouse(&record, rules) else {
                continue;
            };
            let tag = |s: Seat| record.tag(&s.to_string()).unwrap_or("").starts_with("bot");
            let mut game = Match::new(rules, end.time_control());
            game.start(Duration::ZERO).unwrap();
            let rec = end.record().to_vec();
            for (i, rm) in rec.iter().enumerate() {
                let now = Duration::from_millis(i as u64 + 1);
                if tag(rm.seat) {
                    moves += 1;
                    let pos = game.position(rm.seat.board).clone();
                    let t = Instant::now();
                    let before = find_mate(&pos, plies, nodes);
                    let d = t.elapsed();
                    spent += d;
                    slowest = slowest.max(d);
                    searches += 1;
                    let mut child = pos.clone();
                    child.play_unchecked(rm.mv);
                    match before {
                        MateSearch::Mate(line) => {
                            own += 1;
                            // Did the bot keep a forced mate?
                            let kept = child.legal_moves().is_empty()
                                || child.legal_moves().iter().all(|&r| {
                                    let mut c = child.clone();
                                    c.play_unchecked(r);
                                    matches!(
                                        find_mate(&c, line.plies.saturating_sub(2).max(1), nodes),
                                        MateSearch::Mate(_)
                                    )
                                });
                            if !kept {
                                missed += 1;
                            }
                        }
                        MateSearch::Unknown => unknown += 1,
                        MateSearch::None => {}
                    }
                    if !child.legal_moves().is_empty() {
                        let t = Instant::now();
                        let after = find_mate(&child, plies, nodes);
                        let d = t.elapsed();
                        spent += d;
                        slowest = slowest.max(d);
                        searches += 1;
                        if let MateSearch::Mate(_) = after {
                            allowed += 1;
                            // Another move without the opponent's mate?
                            let safe = pos.legal_moves().iter().any(|&m| {
                                let mut c = pos.clone();
                                c.play_unchecked(m);
                                !c.legal_moves().is_empty()
                                    && matches!(find_mate(&c, plies, nodes), MateSearch::None)
                            });
                            if safe {
                                avoidable += 1;
                                if std::env::var_os("MATES_DECIDE").is_some() {
                                    let mut bot = bughouse_engine::TeamBot::new(
                                        bughouse_engine::Level::new(8).unwrap(),
                                        1,
                                    );
                                    bot.set_search_config(
                                        bughouse_engine::SearchConfig::named("matecheck").unwrap(),
                                    );
                                    bot.set_opponents_sit(false);
                                    let d = bot.decide(
                                        &game,
                                        rm.seat,
                                        now,
                                        bughouse_engine::Limits {
                                            deadline: Some(
                                                Instant::now() + Duration::from_millis(130),
                                            ),
                                            ..Default::default()
                                        },
                                    );
                                    let verdict = match d.action {
                                        bughouse_engine::Action::Move(m) => {
                                            let mut c = pos.clone();
                                            c.play_unchecked(m);
                                            format!("{m} {:?}", find_mate(&c, plies, nodes))
                                        }
                                        bughouse_engine::Action::Sit => "sit".into(),
                                    };
                                    println!("{} played {} now {verdict}", pos.fen(), rm.mv);
                                }
                            }
                        }
                    }
                }
                if game.play(rm.seat, rm.mv, now).is_err() {
                    break;
                }
            }
        }
    }
    println!(
        "bot moves {moves}; own mate found {own}, of them not kept {missed}; unknown {unknown}"
    );
    println!("allowed a mate {allowed}, of them avoidable {avoidable}");
    println!(
        "searches {searches}, mean {:.3} ms, slowest {:.1} ms",
        spent.as_secs_f64() * 1000.0 / f64::from(searches.max(1)),
        slowest.as_secs_f64() * 1000.0
    );
}
