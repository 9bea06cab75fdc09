//! Board play against drop attacks (`SearchConfig::GUARD`): positions where the search before
//! it (`drops`) walks into a mate by a chain of checking drops and the new one does not.

use bughouse_core::{Move, Position, Rules, Verdict};
use bughouse_engine::{mate_in, Limits, SearchConfig, Searcher};

/// White to move, a queen to take on a7 (`Rxa7`); but then Black mates with two rook drops:
/// `R@e1+ Kh2 R@h1#` (the contact check cannot be blocked, f4 guards g3). Every other white
/// move loses the rook at most.
const BACK_RANK: &str = "6k1/q4ppp/8/8/5p2/7P/R4PP1/6K1[rr] w - - 0 30";

fn position(fen: &str) -> Position {
    Position::from_fen(fen, Rules::fide()).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play(pos: &Position, uci: &str) -> Position {
    let mut p = pos.clone();
    let m = p.parse_uci(uci).unwrap_or_else(|e| panic!("{uci}: {e}"));
    p.play(m).unwrap_or_else(|e| panic!("{uci}: {e}"));
    p
}

fn searcher(config: SearchConfig) -> Searcher {
    let mut s = Searcher::new(4);
    s.set_config(config);
    s
}

fn best(config: SearchConfig, pos: &Position, depth: u32) -> (Move, i32) {
    let r = searcher(config).search(pos, Limits::depth(depth), &mut |_| {});
    (r.best.expect("a move"), r.score)
}

#[test]
fn the_back_rank_line_is_a_mate_by_the_rules() {
    let pos = position(BACK_RANK);
    let p = play(&pos, "a2a7");
    let p = play(&p, "R@e1");
    assert!(p.is_check());
    let replies: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(replies, ["g1h2"]);
    let p = play(&p, "g1h2");
    let p = play(&p, "R@h1");
    assert_eq!(p.verdict(), Verdict::Checkmate);
}

#[test]
fn the_old_search_takes_the_queen_into_a_mate_by_two_drops() {
    let pos = position(BACK_RANK);
    let (mv, score) = best(SearchConfig::DROPS, &pos, 1);
    assert_eq!(mv.to_string(), "a2a7");
    assert!(mate_in(score).is_none(), "{score}");
}

#[test]
fn check_chains_see_the_mate_and_keep_the_rook_home() {
    let pos = position(BACK_RANK);
    for config in [
        SearchConfig::GUARD,
        SearchConfig::RACE_GUARD,
        SearchConfig::GUARD_ALL,
    ] {
        let (mv, score) = best(config, &pos, 1);
        assert_ne!(mv.to_string(), "a2a7", "{config:?}");
        assert!(score > -bughouse_engine::MATE_BOUND, "{mv} {score}");
    }
    // Only the chains do it: the other switches of `guard` alone still take the queen.
    let no_chains = SearchConfig {
        check_chains: false,
        ..SearchConfig::GUARD
    };
    assert_eq!(best(no_chains, &pos, 1).0.to_string(), "a2a7");
}

#[test]
fn the_quiescence_search_scores_the_chain_as_a_mate() {
    // After Rxa7, Black to move: the quiescence search alone (no full-width ply) sees
    // R@e1+ Kh2 R@h1# with the chains and only the first check without.
    let pos = play(&position(BACK_RANK), "a2a7");
    let with = searcher(SearchConfig::GUARD).quiesce(&pos);
    assert_eq!(mate_in(with), Some(2), "{with}");
    // Few quiet evasions and only safe checks keep it: the king has one evasion, and the rook
    // dropped on e1 is not lost there.
    for config in [
        SearchConfig::GUARD_SI_QS,
        SearchConfig::GUARD_SI_QS_SAFE,
        SearchConfig::GUARD_ALL,
    ] {
        let lean = searcher(config).quiesce(&pos);
        assert_eq!(mate_in(lean), Some(2), "{config:?}: {lean}");
    }
    let without = searcher(SearchConfig::DROPS).quiesce(&pos);
    assert!(mate_in(without).is_none(), "{without}");
}

#[test]
fn guard_and_raceguard_are_named() {
    let guard = SearchConfig::named("guard").unwrap();
    assert!(guard.check_chains && guard.guard_king && guard.order_checks);
    assert!(!guard.race);
    let rg = SearchConfig::named("raceguard").unwrap();
    assert!(rg.check_chains && rg.guard_king && rg.order_checks && rg.race && rg.team_clock);
    for name in ["base", "drops", "clock", "race", "strong"] {
        let c = SearchConfig::named(name).unwrap();
        assert!(
            !c.check_chains && !c.guard_king && !c.order_checks,
            "{name}"
        );
    }
}

#[test]
fn the_guarded_search_still_finds_the_drop_mates() {
    // The smothered mate and a contact check, as in tactics.rs, with the new switches.
    for (fen, answer) in [
        ("6rk/6pp/8/8/8/8/8/K7[N] w - - 0 1", "N@f7"),
        ("6k1/5p1p/6p1/8/8/2B5/8/K7[Q] w - - 0 1", "Q@g7"),
    ] {
        for config in [
            SearchConfig::GUARD,
            SearchConfig::GUARD_SI_QS_SAFE,
            SearchConfig::GUARD_ALL,
        ] {
            let (mv, score) = best(config, &position(fen), 3);
            assert_eq!(mv.to_string(), answer, "{fen}");
            assert_eq!(mate_in(score), Some(1), "{fen}");
        }
    }
}
