//! The engine never plays an illegal move and never panics: random playouts under every preset,
//! and random two-board matches played through `Match::play`.

use std::time::Duration;

use bughouse_core::{Match, Position, Preset, Rules, Seat, TimeControl};
use bughouse_engine::{Action, Level, Limits, Searcher, TeamBot};

/// splitmix64: a small deterministic generator for the playouts.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[test]
fn search_moves_are_legal_in_random_playouts() {
    let mut searcher = Searcher::new(2);
    let mut seed = 1u64;
    for preset in Preset::ALL {
        let rules = preset.rules();
        for game in 0..8 {
            let mut pos = Position::new(rules);
            // Bughouse boards get pieces from the partner: feed both reserves now and then.
            for ply in 0..80 {
                if rules.sets() == 2 && next(&mut seed).is_multiple_of(5) {
                    let role = bughouse_core::RESERVE_ROLES[(next(&mut seed) % 5) as usize];
                    let color = if next(&mut seed).is_multiple_of(2) {
                        pos.turn()
                    } else {
                        !pos.turn()
                    };
                    pos.add_to_reserve(color, role);
                }
                let moves = pos.legal_moves();
                if ply % 3 == game % 3 || moves.len() < 3 {
                    let result = searcher.search(&pos, Limits::nodes(2_000), &mut |_| {});
                    match result.best {
                        Some(m) => assert!(moves.contains(&m), "{m} illegal in {}", pos.fen()),
                        None => assert!(moves.is_empty(), "no move in {}", pos.fen()),
                    }
                    for m in &result.pv[..1.min(result.pv.len())] {
                        assert!(moves.contains(m));
                    }
                }
                if moves.is_empty() {
                    break;
                }
                let m = moves[(next(&mut seed) % moves.len() as u64) as usize];
                pos.play(m).expect("a legal move plays");
            }
        }
    }
}

#[test]
fn team_bots_play_legal_matches() {
    let mut seed = 7u64;
    for (i, rules) in [
        Rules::fide(),
        Rules::knsb_1988(),
        Rules::uscf_scholastic_2006(),
    ]
    .into_iter()
    .enumerate()
    {
        let mut m = Match::new(rules, TimeControl::default());
        m.start(Duration::ZERO).unwrap();
        let mut bots: Vec<TeamBot> = (0..4)
            .map(|s| {
                TeamBot::with_hash(Level::new((s + 2 * i as u8) % 8 + 1).unwrap(), s as u64, 1)
            })
            .collect();
        let mut now = Duration::ZERO;
        for _ in 0..300 {
            if m.is_over() {
                break;
            }
            let board = if next(&mut seed).is_multiple_of(2) {
                bughouse_core::BoardId::A
            } else {
                bughouse_core::BoardId::B
            };
            if m.game_end(board).is_some() {
                continue;
            }
            let seat = m.to_move(board);
            let idx = Seat::ALL.iter().position(|&s| s == seat).unwrap();
            now += Duration::from_millis(200);
            let d = bots[idx].decide(&m, seat, now, Limits::nodes(2_000));
            for t in &d.talk {
                bots[Seat::ALL.iter().position(|&s| s == seat.partner()).unwrap()].hear(*t);
            }
            let legal = m.position(board).legal_moves();
            let mv = match d.action {
                Action::Move(mv) => {
                    assert!(legal.contains(&mv), "{mv} illegal in {}", m.fen());
                    mv
                }
                Action::Sit => {
                    assert!(d.recheck.is_some());
                    if legal.is_empty() {
                        continue;
                    }
                    // Keep the game going: a random move instead.
                    legal[(next(&mut seed) % legal.len() as u64) as usize]
                }
            };
            m.play(seat, mv, now).expect("legal move accepted");
        }
    }
}

#[test]
fn node_limited_decisions_are_deterministic() {
    let mut m = Match::new(Rules::fide(), TimeControl::default());
    m.start(Duration::ZERO).unwrap();
    for uci in ["e2e4", "d7d5", "e4d5"] {
        let seat = m.to_move(bughouse_core::BoardId::A);
        let mv = m.position(seat.board).parse_uci(uci).unwrap();
        m.play(seat, mv, Duration::from_secs(1)).unwrap();
    }
    for level in [Level::MIN, Level::new(4).unwrap(), Level::MAX] {
        let decide = || {
            let mut bot = TeamBot::with_hash(level, 42, 1);
            bot.decide(
                &m,
                Seat::BLACK_A,
                Duration::from_secs(2),
                Limits::nodes(3_000),
            )
        };
        assert_eq!(decide(), decide(), "level {level}");
    }
}
