//! The search's margins (`SearchParams`): the defaults are the search as it was written, and
//! the margins change the search the way their names say.

use bughouse_core::{Position, Rules};
use bughouse_engine::{EngineParams, Limits, SearchParams, Searcher};

/// Drops on both sides and a white attack on the king (`nps`'s fourth position), and the
/// issue's position of the depth comparison.
const POSITIONS: [&str; 2] = [
    "r1b2rk1/pp1nqppp/2p1p3/3pP3/3P4/2PB1N2/PP3PPP/R2Q1RK1[BNPbp] w - - 0 12",
    "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[Np] b KQkq - 0 1",
];

/// Nodes to `depth` over both positions, each with a fresh searcher.
fn nodes_to_depth(margins: Option<SearchParams>, depth: u32) -> u64 {
    let mut nodes = 0;
    for fen in POSITIONS {
        let pos = Position::from_fen(fen, Rules::fide()).unwrap();
        let mut s = Searcher::new(4);
        if let Some(margins) = margins {
            s.set_search_params(margins);
            assert_eq!(s.search_params(), &margins);
        }
        let r = s.search(&pos, Limits::depth(depth), &mut |_| {});
        assert!(pos.legal_moves().contains(&r.best.unwrap()));
        assert_eq!(r.depth, depth);
        nodes += r.nodes;
    }
    nodes
}

#[test]
fn the_default_margins_are_the_search_as_it_was() {
    let plain = nodes_to_depth(None, 6);
    assert_eq!(nodes_to_depth(Some(SearchParams::DEFAULT), 6), plain);
    // Set through the one parameter struct of the arena's `bot?eval=FILE`, the same.
    let mut nodes = 0;
    for fen in POSITIONS {
        let pos = Position::from_fen(fen, Rules::fide()).unwrap();
        let mut s = Searcher::new(4);
        s.set_params(EngineParams::from_text("# nothing changed\n").unwrap());
        nodes += s.search(&pos, Limits::depth(6), &mut |_| {}).nodes;
    }
    assert_eq!(nodes, plain);
}

// Node counts are not monotone in every margin (a pruned node changes the bounds and the table
// of the rest of the tree); these three moved the same way at depths 6, 7 and 8.
#[test]
fn the_margins_widen_and_narrow_the_search() {
    let plain = nodes_to_depth(None, 7);
    // Late-move pruning that keeps every quiet move searches more.
    let kept = nodes_to_depth(
        Some(SearchParams {
            lmp_base: 60,
            lmp_factor: 20,
            ..SearchParams::DEFAULT
        }),
        7,
    );
    assert!(kept > plain, "{kept} <= {plain}");
    // A futility margin too wide to prune searches more.
    let futile = nodes_to_depth(
        Some(SearchParams {
            futility_margin: 400,
            ..SearchParams::DEFAULT
        }),
        7,
    );
    assert!(futile > plain, "{futile} <= {plain}");
    // Delta pruning of every capture that does not reach alpha by three pawns searches less
    // (with a margin of 0 the count went up at depths 7 and 8 with `boxed_king = 100`).
    let delta = nodes_to_depth(
        Some(SearchParams {
            qs_delta: -300,
            ..SearchParams::DEFAULT
        }),
        7,
    );
    assert!(delta < plain, "{delta} >= {plain}");
}
