//! Search switches under A/B in the arena (`bot?search=NAME`): what each one changes.

use bughouse_core::{Position, Rules};
use bughouse_engine::{EvalParams, Limits, SearchConfig, Searcher};

/// The hand-set weights of the reserve and the king danger, before `bughouse tune spsa` tuned
/// them (session 36): the switches' node counts below were measured with these, and how many
/// nodes a depth takes depends on the evaluation, so the tests keep them.
const HAND_SET: &str = "reserve_value = 130 350 340 500 900\ntempo = 25\n\
    danger_controlled = 2\ndanger_attackers = 2\ndrop_weight_cap = 14\ndanger_divisor = 5\n";

/// The position of the depth comparison: Black to move, a knight and a pawn in hand.
const MIDDLE: &str = "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[Np] b KQkq - 0 1";

/// Drops on both sides and a white attack on the king: `nps`'s fourth position.
const DROPS_BOTH: &str = "r1b2rk1/pp1nqppp/2p1p3/3pP3/3P4/2PB1N2/PP3PPP/R2Q1RK1[BNPbp] w - - 0 12";

fn nodes_to_depth(config: SearchConfig, depth: u32) -> u64 {
    nodes_to_depth_in(MIDDLE, config, depth)
}

fn nodes_to_depth_in(fen: &str, config: SearchConfig, depth: u32) -> u64 {
    let pos = Position::from_fen(fen, Rules::fide()).unwrap();
    let mut s = Searcher::new(4);
    s.set_config(config);
    s.set_eval_params(EvalParams::from_text(HAND_SET).unwrap());
    let r = s.search(&pos, Limits::depth(depth), &mut |_| {});
    assert!(pos.legal_moves().contains(&r.best.unwrap()), "{config:?}");
    assert_eq!(r.depth, depth);
    r.nodes
}

#[test]
fn each_switch_is_named_and_is_guard_with_that_switch_alone() {
    type Off = fn(&mut SearchConfig);
    let switches: [(&str, Off); 11] = [
        ("guardlean", |c| c.lean_time = false),
        ("guardlong", |c| c.long_time = false),
        ("guardcont", |c| c.cont_history = false),
        ("guardiir", |c| c.iir = false),
        ("guardprune", |c| c.deep_prune = false),
        ("guardsafe", |c| c.safe_check_ext = false),
        ("guardq", |c| c.qs_evasions = false),
        ("guardcp", |c| c.count_pruning = false),
        ("guardqt", |c| c.qs_tt = false),
        ("guardfloor", |c| c.low_floor = false),
        ("guardev", |c| c.evasion_pruning = false),
    ];
    for (name, off) in switches {
        let config = SearchConfig::named(name).unwrap();
        assert_ne!(config, SearchConfig::GUARD, "{name}");
        let mut without = config;
        off(&mut without);
        assert_eq!(without, SearchConfig::GUARD, "{name}");
    }
}

#[test]
fn internal_iterative_reduction_searches_fewer_nodes_to_the_same_depth() {
    let guard = nodes_to_depth(SearchConfig::GUARD, 7);
    let iir = nodes_to_depth(SearchConfig::GUARD_IIR, 7);
    assert!(iir < guard, "{iir} nodes with it, {guard} without");
}

#[test]
fn the_continuation_history_changes_the_search() {
    let guard = nodes_to_depth(SearchConfig::GUARD, 7);
    let cont = nodes_to_depth(SearchConfig::GUARD_CONT, 7);
    assert_ne!(cont, guard);
}

#[test]
fn deeper_pruning_searches_fewer_nodes_to_the_same_depth() {
    let guard = nodes_to_depth(SearchConfig::GUARD, 7);
    let deep = nodes_to_depth(SearchConfig::GUARD_PRUNE, 7);
    assert!(deep < guard, "{deep} nodes with it, {guard} without");
}

#[test]
fn extending_only_safe_checks_searches_fewer_nodes_to_the_same_depth() {
    let guard = nodes_to_depth(SearchConfig::GUARD, 7);
    let fewer = nodes_to_depth(SearchConfig::GUARD_SAFE, 7);
    assert!(fewer < guard, "{fewer} nodes with it, {guard} without");
}

#[test]
fn the_combinations_are_guard_with_their_switches() {
    let si = SearchConfig::named("guardsi").unwrap();
    assert_eq!(
        si,
        SearchConfig {
            safe_check_ext: true,
            iir: true,
            ..SearchConfig::GUARD
        }
    );
    let sil = SearchConfig::named("guardsil").unwrap();
    assert_eq!(
        sil,
        SearchConfig {
            long_time: true,
            ..si
        }
    );
    let sir = SearchConfig::named("guardsir").unwrap();
    assert_eq!(
        sir,
        SearchConfig {
            relative_clock: true,
            ..si
        }
    );
    let sirl = SearchConfig::named("guardsirl").unwrap();
    assert_eq!(
        sirl,
        SearchConfig {
            long_time: true,
            ..sir
        }
    );
}

#[test]
fn the_quiescence_switches_are_guardsi_with_them() {
    let si = SearchConfig::named("guardsi").unwrap();
    let siq = SearchConfig::named("guardsiq").unwrap();
    assert_eq!(
        siq,
        SearchConfig {
            qs_evasions: true,
            ..si
        }
    );
    let siqs = SearchConfig::named("guardsiqs").unwrap();
    assert_eq!(
        siqs,
        SearchConfig {
            qs_safe_checks: true,
            ..siq
        }
    );
    assert_eq!(
        SearchConfig::named("guardsiqsl").unwrap(),
        SearchConfig {
            long_time: true,
            ..siqs
        }
    );
}

#[test]
fn few_quiet_evasions_and_safe_checks_search_fewer_nodes_to_the_same_depth() {
    for fen in [MIDDLE, DROPS_BOTH] {
        let si = nodes_to_depth_in(fen, SearchConfig::GUARD_SAFE_IIR, 7);
        let siq = nodes_to_depth_in(fen, SearchConfig::GUARD_SI_QS, 7);
        let siqs = nodes_to_depth_in(fen, SearchConfig::GUARD_SI_QS_SAFE, 7);
        assert!(
            siq < si,
            "{fen}: {siq} nodes with few evasions, {si} without"
        );
        assert!(
            siqs < si,
            "{fen}: {siqs} with safe checks too, {si} without either"
        );
    }
}

#[test]
fn pruning_by_move_count_and_exchange_searches_fewer_nodes_to_the_same_depth() {
    for fen in [MIDDLE, DROPS_BOTH] {
        let guard = nodes_to_depth_in(fen, SearchConfig::GUARD, 7);
        let counted = nodes_to_depth_in(fen, SearchConfig::GUARD_COUNT, 7);
        assert!(
            counted < guard,
            "{fen}: {counted} nodes with it, {guard} without"
        );
    }
}

#[test]
fn the_table_in_the_quiescence_searches_fewer_nodes_to_the_same_depth() {
    assert_eq!(
        SearchConfig::named("guardcpqt").unwrap(),
        SearchConfig {
            qs_tt: true,
            ..SearchConfig::GUARD_COUNT
        }
    );
    for fen in [MIDDLE, DROPS_BOTH] {
        let guard = nodes_to_depth_in(fen, SearchConfig::GUARD, 7);
        let table = nodes_to_depth_in(fen, SearchConfig::GUARD_QS_TT, 7);
        assert!(
            table < guard,
            "{fen}: {table} nodes with it, {guard} without"
        );
    }
}

#[test]
fn pruning_the_checks_that_give_their_piece_away_searches_fewer_nodes_to_the_same_depth() {
    assert_eq!(
        SearchConfig::named("guardx").unwrap(),
        SearchConfig {
            check_pruning: true,
            ..SearchConfig::GUARD_SI_QS_SAFE
        }
    );
    for fen in [MIDDLE, DROPS_BOTH] {
        let siqs = nodes_to_depth_in(fen, SearchConfig::GUARD_SI_QS_SAFE, 7);
        let x = nodes_to_depth_in(fen, SearchConfig::GUARD_SI_QS_CHECKS, 7);
        assert!(x < siqs, "{fen}: {x} nodes with it, {siqs} without");
    }
}

#[test]
fn guardall_is_guardx_with_every_pruning_switch_and_searches_fewer_nodes() {
    let all = SearchConfig::named("guardall").unwrap();
    assert_eq!(
        all,
        SearchConfig {
            count_pruning: true,
            qs_tt: true,
            deep_prune: true,
            strong_reductions: true,
            evasion_pruning: true,
            ..SearchConfig::GUARD_SI_QS_CHECKS
        }
    );
    // The board play against drop attacks stays.
    assert!(all.check_chains && all.guard_king && all.order_checks);
    for fen in [MIDDLE, DROPS_BOTH] {
        let x = nodes_to_depth_in(fen, SearchConfig::GUARD_SI_QS_CHECKS, 7);
        let pruned = nodes_to_depth_in(fen, all, 7);
        assert!(pruned < x, "{fen}: {pruned} nodes with them, {x} without");
    }
}

#[test]
fn threat_is_the_default_with_mate_threats_extended() {
    let threat = SearchConfig::named("threat").unwrap();
    assert!(threat.mate_threat);
    assert_eq!(
        SearchConfig {
            mate_threat: false,
            ..threat
        },
        SearchConfig::DEFAULT
    );
}

#[test]
fn with_mate_threats_extended_the_search_still_parries_a_smothered_drop_mate() {
    // White is a queen and a rook up, but Black holds a knight: N@f2 mates the king boxed in
    // by its own rook and pawns. Every depth must find a move after which Black has no mate.
    let pos =
        Position::from_fen("6k1/5ppp/8/8/8/1Q6/6PP/4R1RK[n] w - - 0 1", Rules::fide()).unwrap();
    for depth in 2..=6 {
        for config in [
            SearchConfig::DEFAULT,
            SearchConfig::named("threat").unwrap(),
        ] {
            let mut s = Searcher::new(4);
            s.set_config(config);
            let r = s.search(&pos, Limits::depth(depth), &mut |_| {});
            let mut after = pos.clone();
            after.play(r.best.unwrap()).unwrap();
            for reply in after.legal_moves() {
                let mut next = after.clone();
                next.play(reply).unwrap();
                assert_ne!(
                    next.verdict(),
                    bughouse_core::Verdict::Checkmate,
                    "depth {depth}, {config:?}: {} allows {reply}",
                    r.best.unwrap()
                );
            }
        }
    }
}
