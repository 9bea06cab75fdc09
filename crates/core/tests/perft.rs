//! Perft against published node counts: the crazyhouse positions of
//! `shared/data/perft/crazyhouse.perft`, and well-known chess positions.
//!
//! A chess position with empty reserves counts the same under crazyhouse rules as in chess only
//! until a captured piece can be dropped: a capture on ply `n` gives the capturer a drop on ply
//! `n + 2`. So from the start position depths 1-4 are the chess numbers, and from Kiwipete
//! (captures possible on ply 1) depths 1-2; deeper counts are checked against shakmaty's
//! crazyhouse and, with drops turned off, against the chess numbers.

use std::path::PathBuf;

use bughouse_core::{perft, Bitboard, Position, Rules};

/// Entries with more nodes than this are skipped in the default (debug) run.
const QUICK_NODE_LIMIT: u64 = 1_000_000;

struct Case {
    id: String,
    epd: String,
    depth: u32,
    nodes: u64,
}

fn perft_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/perft/crazyhouse.perft")
}

/// Reads the `id`, `epd` and `perft D N` lines of a perft file.
fn read_cases() -> Vec<Case> {
    let path = perft_file();
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut cases = Vec::new();
    let mut id = String::new();
    let mut epd: Option<String> = None;
    for (no, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => {
                id = rest.trim().to_owned();
                epd = None;
            }
            "epd" => epd = Some(rest.trim().to_owned()),
            "perft" => {
                let mut parts = rest.split_whitespace();
                let depth = parts.next().and_then(|d| d.parse().ok());
                let nodes = parts.next().and_then(|n| n.parse().ok());
                let (Some(depth), Some(nodes)) = (depth, nodes) else {
                    panic!("line {}: bad perft line {line:?}", no + 1);
                };
                let epd = epd
                    .clone()
                    .unwrap_or_else(|| panic!("line {}: perft before any epd", no + 1));
                cases.push(Case {
                    id: id.clone(),
                    epd,
                    depth,
                    nodes,
                });
            }
            _ => panic!("line {}: unknown line {line:?}", no + 1),
        }
    }
    cases
}

fn run_cases(limit: u64) -> usize {
    let cases = read_cases();
    assert!(
        cases.len() >= 15,
        "expected the five positions to depth 3 or 4"
    );
    let mut run = 0;
    for case in &cases {
        if case.nodes > limit {
            continue;
        }
        let pos = Position::from_fen(&case.epd, Rules::crazyhouse())
            .unwrap_or_else(|e| panic!("{}: cannot read {:?}: {e}", case.id, case.epd));
        let got = perft(&pos, case.depth);
        assert_eq!(
            got, case.nodes,
            "{} ({}) perft {}: got {got}, expected {}",
            case.id, case.epd, case.depth, case.nodes
        );
        run += 1;
    }
    run
}

#[test]
fn crazyhouse_perft_file_quick() {
    let run = run_cases(QUICK_NODE_LIMIT);
    // Every position has at least its depth 1 and 2 entries under the limit.
    assert!(run >= 10, "only {run} entries were checked");
}

#[test]
#[ignore = "slow in debug builds: run with --ignored (or --release)"]
fn crazyhouse_perft_file_full() {
    let run = run_cases(u64::MAX);
    assert_eq!(run, read_cases().len());
}

/// Perft of a chess position under crazyhouse rules.
fn zh_perft(fen: &str, depth: u32) -> u64 {
    let pos = Position::from_fen(fen, Rules::crazyhouse()).expect("valid FEN");
    perft(&pos, depth)
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
// The well-known FEN (`3PN3` on rank 5: a white knight on e5).
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn start_position_matches_chess() {
    // No capture is possible in the first three plies, so no drop either: chess numbers.
    assert_eq!(zh_perft(START, 1), 20);
    assert_eq!(zh_perft(START, 2), 400);
    assert_eq!(zh_perft(START, 3), 8902);
    let pos = Position::new(Rules::crazyhouse());
    assert_eq!(perft(&pos, 3), 8902);
}

#[test]
fn start_position_depth_4_matches_chess() {
    // The first captures are on ply 3 (White) and ply 4 (Black); their drops come on plies 5
    // and 6, so depth 4 is still the chess number.
    assert_eq!(zh_perft(START, 4), 197_281);
}

#[test]
fn kiwipete_matches_chess() {
    // Depth 1 and 2 have no drops (reserves are empty and a capture on ply 1 gives a drop only
    // on ply 3), so they are the chess numbers.
    assert_eq!(zh_perft(KIWIPETE, 1), 48);
    assert_eq!(zh_perft(KIWIPETE, 2), 2039);
}

#[test]
fn kiwipete_depth_3_against_shakmaty() {
    // White can capture on ply 1 and drop on ply 3, so crazyhouse has more nodes than chess's
    // 97862 here; shakmaty's crazyhouse is the reference.
    let ours = zh_perft(KIWIPETE, 3);
    let reference = shakmaty_zh_perft(KIWIPETE, 3);
    assert_eq!(ours, reference);
    assert!(ours > 97_862, "drops after captures must add nodes: {ours}");
}

#[test]
fn start_position_depth_5_against_shakmaty() {
    // Depth 5 is the first where drops appear from the start position.
    if cfg!(debug_assertions) {
        // About 5 million nodes: too slow for the default debug run; a smaller position with
        // the same effect is checked instead (drops two plies after the first capture).
        let fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
        assert_eq!(zh_perft(fen, 3), shakmaty_zh_perft(fen, 3));
    } else {
        assert_eq!(zh_perft(START, 5), shakmaty_zh_perft(START, 5));
    }
}

fn shakmaty_zh_perft(fen: &str, depth: u32) -> u64 {
    use shakmaty::{fen::Fen, variant::Crazyhouse, CastlingMode};
    let pos: Crazyhouse = fen
        .parse::<Fen>()
        .expect("shakmaty reads the FEN")
        .into_position(CastlingMode::Standard)
        .expect("shakmaty accepts the position");
    shakmaty::perft(&pos, depth)
}

#[test]
fn chess_positions_without_drops() {
    // With drops turned off the engine is plain chess: check the classic suite.
    let chess = Rules {
        drops: false,
        ..Rules::crazyhouse()
    };
    let cases: [(&str, &[u64]); 5] = [
        (START, &[20, 400, 8902, 197_281]),
        (KIWIPETE, &[48, 2039, 97_862]),
        // Position 3 of the chessprogramming wiki: en passant and rook endings.
        (
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            &[14, 191, 2812, 43_238],
        ),
        // Position 4: promotions and castling rights lost to captures.
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            &[6, 264, 9467],
        ),
        // Position 5.
        (
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            &[44, 1486, 62_379],
        ),
    ];
    for (fen, counts) in cases {
        let pos = Position::from_fen(fen, chess).expect("valid FEN");
        for (i, &expected) in counts.iter().enumerate() {
            let depth = i as u32 + 1;
            assert_eq!(perft(&pos, depth), expected, "{fen} depth {depth}");
        }
    }
}

/// `legal_moves_to_into` gives exactly the moves of `legal_moves` whose destination is in its
/// masks (board moves by `Move::to`, drops by their square), in the same order, and
/// `legal_moves_into` all of them, each into a list that held other moves: checked with masks
/// of every kind (full, empty, the enemy's pieces, pseudo-random halves) over the positions of
/// the perft file and their children, in and out of check.
#[test]
fn legal_moves_to_into_is_legal_moves_filtered_by_destination() {
    let mut list = bughouse_core::MoveList::new();
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        Bitboard(rng)
    };
    let (mut positions, mut in_check, mut castles, mut en_passant) = (0, 0, 0, 0);
    for case in read_cases().iter().take(40) {
        let root = Position::from_fen(&case.epd, Rules::crazyhouse()).unwrap();
        let mut family = vec![root.clone()];
        for &mv in root.legal_moves().iter() {
            let mut child = root.clone();
            child.play_unchecked(mv);
            family.push(child);
        }
        for pos in &family {
            let all = pos.legal_moves();
            let them = pos.board().by_color(!pos.turn());
            let masks = [
                (Bitboard::FULL, Bitboard::FULL),
                (Bitboard::EMPTY, Bitboard::EMPTY),
                (them, Bitboard::EMPTY),
                (Bitboard::EMPTY, Bitboard::FULL),
                (next(), next()),
                (next(), next()),
                (!them, next()),
            ];
            for (board_to, drop_to) in masks {
                pos.legal_moves_to_into(board_to, drop_to, &mut list);
                let want: Vec<_> = all
                    .iter()
                    .copied()
                    .filter(|mv| {
                        if mv.is_drop() {
                            drop_to.contains(mv.to())
                        } else {
                            board_to.contains(mv.to())
                        }
                    })
                    .collect();
                assert_eq!(list.as_slice(), want.as_slice(), "{}", pos.fen());
            }
            // The list still holds the last mask's moves here: it is cleared first.
            pos.legal_moves_into(&mut list);
            assert_eq!(list, all, "{}", pos.fen());
            positions += 1;
            in_check += usize::from(pos.is_check());
            castles += usize::from(all.iter().any(|mv| mv.is_castle()));
            en_passant += usize::from(pos.ep_square().is_some());
        }
    }
    assert!(positions > 500, "only {positions} positions checked");
    assert!(in_check > 10, "only {in_check} positions in check");
    assert!(castles > 10, "only {castles} positions with castling");
    assert!(en_passant > 0, "no position with en passant");
}
