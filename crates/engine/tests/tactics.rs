//! Drop mates in one and in two the engine must find. Each position is checked with the rules
//! engine first: the expected mates really are mates under the preset (mate in one: the
//! position after the move is checkmate; mate in two: every defence has a mating reply).

use bughouse_core::{Move, Position, Rules, Verdict};
use bughouse_engine::{mate_in, Limits, SearchConfig, Searcher};

/// (FEN, rules, the mating first moves the rules engine must confirm)
type Puzzle = (&'static str, Rules, &'static [&'static str]);

const ZH: Rules = Rules::crazyhouse();
const FIDE: Rules = Rules::fide();
const MINERVA: Rules = Rules::minerva_2014();

/// Mates in one with a drop. Under fide a mate needs a check no drop could block (F3.7): a
/// knight, a contact or a double check.
const MATE_IN_ONE: [Puzzle; 16] = [
    (
        "rR~b1kbr1/p3npp1/7p/3Q4/4P1P1/1p1P1N1P/P5P1/R1BK3R[NNPPqbpp] w q - 0 21",
        ZH,
        &["N@c7"],
    ),
    (
        "2b1kbn1/r1pqppp1/p6r/1p6/1N6/3P1NPP/PPP1PP2/RN2KB1R[PPqb] b KQ - 0 10",
        ZH,
        &["Q@c1"],
    ),
    (
        "1n2kb1R/R3pp2/2b2np1/4P3/1P1pP3/3pB3/1PP5/1N2K3[QRRNPPqbpppp] b - - 0 27",
        ZH,
        &["Q@e2"],
    ),
    (
        "2bqkb1r/Pp1ppp2/1p4p1/2pp4/6Q1/8/1BpPR2P/4KBR1[NNPPrnnpp] w k - 0 20",
        ZH,
        &["N@d6", "N@f6"],
    ),
    (
        "1n1k2n1/2pp1p2/3p4/2pP2r1/2p1R1nP/8/R1PB1P1P/1N1BK3[QQBBPrpppp] w - - 0 28",
        ZH,
        &["Q@e8"],
    ),
    (
        "2b2bB~r/bp1kp2p/1pp2p2/2p3p1/PnP1pN2/RP1q1pPP/5K2/1N3BNR[Rq] b - - 0 21",
        ZH,
        &["Q@e3"],
    ),
    (
        "r3kbnr/pp1qpp2/1p6/6p1/1NP2P2/1P5p/P1B3PP/RN2K1bR[BPqnpp] b KQkq - 0 14",
        ZH,
        &["Q@f2"],
    ),
    (
        "1nb3r1/4b1pp/2k5/4Pp2/p6P/1Rp3P1/1rP1P3/2BQKBNR[QNNPPPPPp] w K - 0 25",
        ZH,
        &["Q@b6"],
    ),
    (
        "2b1r3/rppn1pQp/2nbk3/1P2p3/1p2P2p/1P1PK3/PP2B1R1/RNB3N1[PPqp] b - - 0 27",
        ZH,
        &["Q@f4"],
    ),
    (
        "2bqkb2/1p2p1p1/r7/p1n2p2/P1P3nR/1P2P3/1PP2PP1/RN2KBN1[Pqrbpp] b Q - 0 12",
        ZH,
        &["Q@d1"],
    ),
    (
        "rn2k1n1/ppp1pp1p/6p1/1P6/5P1r/2B4b/P1nQP1BP/2K4R[QBNPrppp] w q - 0 17",
        ZH,
        &["Q@d8"],
    ),
    (
        "4kb1r/pPpnpppp/1Qb5/1B6/pP2q3/4Pn2/P1P4P/RNBK2NR[RPPp] w - - 1 23",
        ZH,
        &["R@c8"],
    ),
    // F3.7: the smothered mate, a knight check.
    ("6rk/6pp/8/8/8/8/8/K7[N] w - - 0 1", FIDE, &["N@f7"]),
    // F3.7: a contact check with a queen, supported by the bishop.
    ("6k1/5p1p/6p1/8/8/2B5/8/K7[Q] w - - 0 1", FIDE, &["Q@g7"]),
    // F3.7: a contact check with a queen on h7, supported by the knight.
    ("5rk1/5pp1/8/6N1/8/8/8/K7[Q] w - - 0 1", FIDE, &["Q@h7"]),
    // Minerva (classic mate): a back-rank rook drop.
    (
        "6k1/5ppp/8/8/8/8/8/K7[R] w - - 0 1",
        MINERVA,
        &["R@e8", "R@a8", "R@b8", "R@c8", "R@d8"],
    ),
];

/// Mates in two that start with a drop or a check.
const MATE_IN_TWO: [Puzzle; 14] = [
    (
        "rnbknb1r/1p1pp1pp/7n/pP3p2/P3PP2/6PN/1P3K1P/R1Bq1B1R[Pqp] b - - 1 11",
        ZH,
        &["Q@f3"],
    ),
    (
        "2Q2bnR/2nppkp1/3b1p2/3P4/2PP4/8/2P1PK2/1r3BN1[QRBPPrnppppp] w - - 1 17",
        ZH,
        &["P@g6", "B@g6"],
    ),
    (
        "5knr/2np1p1p/8/2P3p1/5p2/1R1PP2B/R2P4/2B2K2[Qqrbbnnppppppp] b - - 0 27",
        ZH,
        &["Q@f3"],
    ),
    (
        "1n1k1bnr/4pppp/1P6/3p4/1p1p1PP1/3P1P1P/RP1P3P/1bB1KBNR[QRqn] w K - 0 20",
        ZH,
        &["Q@c7"],
    ),
    (
        "1nbqk3/rppppp1p/3p4/RPn5/4pP1P/6P1/PB1P2P1/n~1B1KBNn[Rqr] b - - 0 20",
        ZH,
        &["Q@f2"],
    ),
    (
        "r7/1p1b4/p1p1p1kp/8/q1NBP2p/b2P3P/1PP1KPP1/5BNR[RNNPqrpp] w - - 1 25",
        ZH,
        &["R@g7"],
    ),
    (
        "2b5/1p2Rp1p/k1p1p3/2Q1B2n/7P/3P4/bq2PP1P/2N1KBNR[RPPPPrnpp] b K - 0 27",
        ZH,
        &["P@d2"],
    ),
    (
        "1nbqkbn1/1ppnp2r/5p1p/3P4/p5Kb/4P2R/P2N2PP/R1B4R[Pqpppp] b - - 0 21",
        ZH,
        &["d7e5", "h6h5", "P@h5"],
    ),
    (
        "n1Bk2r1/3n2p1/1p1b2Pn/5R2/7r/2p5/2P1KPPP/b4BNR[QPPPPPqppp] b - - 0 28",
        ZH,
        &["Q@d2"],
    ),
    (
        "r3kbnr/2pn2p1/4n3/p4P2/1P4PQ~/n6q/P2PQP1P/R1B1KB1R[PPPPbp] w KQ - 0 19",
        ZH,
        &["P@f7"],
    ),
    (
        "5br1/p2kppp1/7R/1p3br1/5Pnq/P1P5/1P1NP3/R2K1BN1[QNPPbpppp] w - - 0 25",
        ZH,
        &["Q@c6"],
    ),
    (
        "r2qk2r/pppbpp2/8/7p/3N1P2/2b5/PPP1KPPP/Rb3BNR[qnnppp] b kq - 0 12",
        ZH,
        &["d7g4", "Q@e4"],
    ),
    (
        "R1b1k2r/1pp1ppp1/7B/3q4/P3pP2/3N4/1bP2PPP/3K2NR[BPPqrnnpp] b - - 0 24",
        ZH,
        &["N@c3", "Q@c1"],
    ),
    (
        "rn2kbnr/pp2qppp/3p4/2p5/P1P1PP1r/6p1/1P1P4/RbB1KBN1[qnpp] b Qkq - 1 11",
        ZH,
        &["Q@f2"],
    ),
];

fn position(fen: &str, rules: Rules) -> Position {
    Position::from_fen(fen, rules).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn after(pos: &Position, m: Move) -> Position {
    let mut p = pos.clone();
    p.play(m).expect("legal");
    p
}

fn is_mate(pos: &Position) -> bool {
    pos.verdict() == Verdict::Checkmate
}

fn has_mate_in_one(pos: &Position) -> bool {
    pos.legal_moves()
        .into_iter()
        .any(|m| is_mate(&after(pos, m)))
}

/// Every defence after `m` has a mating reply (and there is a defence: it is not a mate in one).
fn mates_in_two(pos: &Position, m: Move) -> bool {
    let p = after(pos, m);
    let replies = p.legal_moves();
    !replies.is_empty() && replies.into_iter().all(|r| has_mate_in_one(&after(&p, r)))
}

#[test]
fn mate_in_one_with_a_drop() {
    let mut searcher = Searcher::new(4);
    for (fen, rules, answers) in MATE_IN_ONE {
        let pos = position(fen, rules);
        for uci in answers {
            let m = pos.parse_uci(uci).unwrap();
            assert!(is_mate(&after(&pos, m)), "{uci} is not mate in {fen}");
        }
        searcher.clear();
        let result = searcher.search(
            &pos,
            Limits {
                max_depth: Some(4),
                max_nodes: Some(200_000),
                ..Limits::default()
            },
            &mut |_| {},
        );
        let best = result.best.expect("a move");
        assert!(is_mate(&after(&pos, best)), "{best} does not mate in {fen}");
        assert_eq!(mate_in(result.score), Some(1), "{fen}");
    }
}

/// Mates in two, with the default search and with the pruning by move count and exchange
/// under A/B (`guardcp`, which prunes checks that give their piece away near the leaves, and
/// `guardcpqt`, with the transposition table in the quiescence too).
#[test]
fn mate_in_two_with_drops() {
    for config in [
        SearchConfig::DEFAULT,
        SearchConfig::GUARD_COUNT,
        SearchConfig::GUARD_COUNT_QS_TT,
    ] {
        mate_in_two_with(config);
    }
}

fn mate_in_two_with(config: SearchConfig) {
    let mut searcher = Searcher::new(4);
    searcher.set_config(config);
    for (fen, rules, answers) in MATE_IN_TWO {
        let pos = position(fen, rules);
        assert!(!has_mate_in_one(&pos), "{fen} has a mate in one");
        for uci in answers {
            let m = pos.parse_uci(uci).unwrap();
            assert!(mates_in_two(&pos, m), "{uci} is not mate in two in {fen}");
        }
        searcher.clear();
        let result = searcher.search(
            &pos,
            Limits {
                max_depth: Some(6),
                max_nodes: Some(1_000_000),
                ..Limits::default()
            },
            &mut |_| {},
        );
        let best = result.best.expect("a move");
        assert!(
            mates_in_two(&pos, best),
            "{best} does not mate in two in {fen} ({config:?})"
        );
        assert_eq!(mate_in(result.score), Some(2), "{fen} ({config:?})");
    }
}

#[test]
fn avoids_a_drop_mate() {
    // Black threatens N@f2# (smothered); White must stop it rather than grab material.
    let pos = position("r5k1/8/8/8/8/8/6PP/q5RK[n] w - - 0 1", MINERVA);
    let threat = pos.clone();
    let mut searcher = Searcher::new(4);
    let result = searcher.search(&pos, Limits::depth(4), &mut |_| {});
    let best = result.best.expect("a move");
    let p = after(&threat, best);
    assert!(!has_mate_in_one(&p), "{best} allows a mate");
}
