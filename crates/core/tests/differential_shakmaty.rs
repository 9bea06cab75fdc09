//! Differential test against shakmaty's crazyhouse: random playouts under
//! [`Rules::crazyhouse`] must give the same legal move set, check status, checkmate and
//! stalemate at every ply, and the FEN we write must describe the same position shakmaty has.
//!
//! Conventions that differ and are masked:
//! - the halfmove clock: we reset it on every drop (a drop is irreversible), shakmaty only on a
//!   pawn drop; it is checked on its own below;
//! - reserve order in FEN: we write `[QRBNPqrbnp]`, shakmaty `[PNBRQpnbrq]`; positions are
//!   compared as setups, not as strings;
//! - the en passant square: shakmaty keeps the square after every double push, we only when a
//!   capture is legal; both FENs are compared with shakmaty's `EnPassantMode::Legal`, which is
//!   our convention.

use std::path::PathBuf;

use bughouse_core::{Color, Position, Role, Rules, Verdict};
use shakmaty::fen::Fen as ShFen;
use shakmaty::variant::Crazyhouse;
use shakmaty::{CastlingMode, EnPassantMode, Position as _, Setup as ShSetup};

mod common;
use common::Rng;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The start position and the positions of the crazyhouse perft file.
fn start_fens() -> Vec<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/perft/crazyhouse.perft");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut fens = vec![START.to_owned()];
    fens.extend(
        text.lines()
            .filter_map(|l| l.trim().strip_prefix("epd "))
            .map(|epd| epd.trim().to_owned()),
    );
    assert!(fens.len() >= 6, "expected five positions in the perft file");
    fens
}

fn sh_from_fen(fen: &str) -> Crazyhouse {
    fen.parse::<ShFen>()
        .unwrap_or_else(|e| panic!("shakmaty cannot read {fen:?}: {e}"))
        .into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("shakmaty rejects {fen:?}: {e}"))
}

fn sh_fen(pos: &Crazyhouse) -> String {
    ShFen::from_position(pos, EnPassantMode::Legal).to_string()
}

fn our_moves(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

fn sh_moves(pos: &Crazyhouse) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .collect();
    v.sort();
    v
}

fn setup_without_halfmoves(pos: &Crazyhouse) -> ShSetup {
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    setup.halfmoves = 0;
    setup
}

/// Replaces the halfmove field of a FEN with 0.
fn mask_halfmoves(fen: &str) -> String {
    let mut fields: Vec<&str> = fen.split(' ').collect();
    assert_eq!(fields.len(), 6, "full FEN expected: {fen:?}");
    fields[4] = "0";
    fields.join(" ")
}

/// Compares everything the two positions say at this ply.
fn compare(ours: &Position, theirs: &Crazyhouse, context: &str) {
    let fen = ours.fen();
    let a = our_moves(ours);
    let b = sh_moves(theirs);
    if a != b {
        let only_ours: Vec<_> = a.iter().filter(|m| !b.contains(m)).collect();
        let only_theirs: Vec<_> = b.iter().filter(|m| !a.contains(m)).collect();
        panic!(
            "{context}: move sets differ in {fen} (shakmaty: {})\n only ours: {only_ours:?}\n only shakmaty: {only_theirs:?}",
            sh_fen(theirs)
        );
    }
    assert_eq!(
        ours.is_check(),
        theirs.is_check(),
        "{context}: check in {fen}"
    );
    let verdict = ours.verdict();
    assert_eq!(
        verdict == Verdict::Checkmate,
        theirs.is_checkmate(),
        "{context}: checkmate in {fen} (ours: {verdict})"
    );
    assert_eq!(
        verdict == Verdict::Stalemate,
        theirs.is_stalemate(),
        "{context}: stalemate in {fen} (ours: {verdict})"
    );
    assert_ne!(
        verdict,
        Verdict::Waiting,
        "{context}: crazyhouse never waits: {fen}"
    );
    assert_eq!(
        ours.is_checkmate(),
        theirs.is_checkmate(),
        "{context}: {fen}"
    );

    // Our FEN read by shakmaty is shakmaty's position (halfmove clock aside).
    let reread = sh_from_fen(&fen);
    assert_eq!(
        setup_without_halfmoves(&reread),
        setup_without_halfmoves(theirs),
        "{context}: our FEN {fen} is not shakmaty's position {}",
        sh_fen(theirs)
    );
    // And shakmaty's FEN read by us is our position (halfmove clock aside).
    let back = Position::from_fen(&sh_fen(theirs), Rules::crazyhouse()).unwrap_or_else(|e| {
        panic!(
            "{context}: we cannot read shakmaty's {}: {e}",
            sh_fen(theirs)
        )
    });
    assert_eq!(
        mask_halfmoves(&back.fen()),
        mask_halfmoves(&fen),
        "{context}: shakmaty's FEN {} read back",
        sh_fen(theirs)
    );

    // Reserves, role by role.
    for color in Color::ALL {
        let pocket = theirs.pockets().expect("crazyhouse has pockets").get(color);
        for role in [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ] {
            assert_eq!(
                ours.reserve(color).count(role),
                *pocket.get(role),
                "{context}: {color:?} reserve of {role:?} in {fen}"
            );
        }
    }
    assert_eq!(
        ours.promoted(),
        theirs.promoted(),
        "{context}: promoted in {fen}"
    );
    assert_eq!(ours.board(), theirs.board(), "{context}: board in {fen}");
    assert_eq!(ours.turn(), theirs.turn(), "{context}: turn in {fen}");
    assert_eq!(
        ours.ep_square(),
        theirs.ep_square(EnPassantMode::Legal),
        "{context}: legal en passant square in {fen}"
    );
    assert_eq!(
        ours.castling_rights(),
        theirs.castles().castling_rights(),
        "{context}: castling rights in {fen}"
    );
    assert_eq!(
        ours.fullmoves(),
        theirs.fullmoves().get(),
        "{context}: move number in {fen}"
    );
}

#[derive(Default)]
struct Stats {
    plies: usize,
    drops: usize,
    captures: usize,
    promotions: usize,
    en_passant: usize,
    castles: usize,
    mates: usize,
    stalemates: usize,
}

/// A random legal move. Drops are most of the moves of a crazyhouse position, so board moves,
/// and special moves (castling, en passant, promotions, captures, double pushes) are favoured at times to reach
/// those cases more often.
fn pick(pos: &Position, moves: &[bughouse_core::Move], rng: &mut Rng) -> bughouse_core::Move {
    let choose = |v: Vec<bughouse_core::Move>, rng: &mut Rng| -> Option<bughouse_core::Move> {
        (!v.is_empty()).then(|| v[rng.below(v.len())])
    };
    let special = |m: &bughouse_core::Move| {
        m.is_castle()
            || m.is_en_passant()
            || m.promotion_role().is_some()
            || (m.from().is_some() && pos.captured_role(*m).is_some())
            || (pos.moving_role(*m) == Some(Role::Pawn)
                && m.from().is_some_and(|from| from.distance(m.to()) == 2))
    };
    let picked = match rng.below(4) {
        0 => None,
        1 | 2 => choose(
            moves.iter().copied().filter(|m| !m.is_drop()).collect(),
            rng,
        ),
        _ => choose(moves.iter().copied().filter(special).collect(), rng),
    };
    picked.unwrap_or_else(|| moves[rng.below(moves.len())])
}

fn playout(start: &str, plies: usize, rng: &mut Rng, stats: &mut Stats, game: usize) {
    let mut ours = Position::from_fen(start, Rules::crazyhouse())
        .unwrap_or_else(|e| panic!("cannot read {start:?}: {e}"));
    let mut theirs = sh_from_fen(start);
    for ply in 0..plies {
        let context = format!("game {game} from {start:?}, ply {ply}");
        compare(&ours, &theirs, &context);
        let moves = ours.legal_moves();
        if moves.is_empty() {
            match ours.verdict() {
                Verdict::Checkmate => stats.mates += 1,
                Verdict::Stalemate => stats.stalemates += 1,
                v => panic!("{context}: no move but verdict {v}"),
            }
            return;
        }
        let m = pick(&ours, &moves, rng);
        let uci = m.to_string();
        let sh_move = theirs
            .legal_moves()
            .into_iter()
            .find(|sm| sm.to_uci(CastlingMode::Standard).to_string() == uci)
            .unwrap_or_else(|| panic!("{context}: shakmaty has no {uci}"));

        if m.is_drop() {
            stats.drops += 1;
        }
        if ours.captured_role(m).is_some() {
            stats.captures += 1;
        }
        if m.promotion_role().is_some() {
            stats.promotions += 1;
        }
        if m.is_en_passant() {
            stats.en_passant += 1;
        }
        if m.is_castle() {
            stats.castles += 1;
        }

        let halfmoves_before = ours.halfmoves();
        let irreversible = m.is_drop()
            || ours.captured_role(m).is_some()
            || (ours.moving_role(m) == Some(Role::Pawn) && !m.is_drop());
        let passed = ours.play_unchecked(m);
        theirs.play_unchecked(sh_move);
        stats.plies += 1;

        // Under crazyhouse the captured piece stays on this board's side: nothing is passed.
        assert_eq!(
            passed, None,
            "{context}: {uci} passed a piece under crazyhouse"
        );
        // Our halfmove clock: reset by a capture, a drop or a pawn move, else one more.
        let expected = if irreversible {
            0
        } else {
            halfmoves_before + 1
        };
        assert_eq!(
            ours.halfmoves(),
            expected,
            "{context}: halfmoves after {uci}"
        );
        // Where neither convention resets differently (no drop of a piece), the clocks agree
        // as far as shakmaty's own clock has not been reset differently before; checked
        // cheaply: shakmaty's clock is never below ours.
        assert!(
            theirs.halfmoves() >= ours.halfmoves(),
            "{context}: shakmaty's clock {} below ours {} after {uci}",
            theirs.halfmoves(),
            ours.halfmoves()
        );
    }
    compare(&ours, &theirs, &format!("game {game} from {start:?}, end"));
}

fn run(games: usize, max_plies: usize, seed: u64) -> Stats {
    let fens = start_fens();
    let mut rng = Rng(seed);
    let mut stats = Stats::default();
    for game in 0..games {
        let start = &fens[game % fens.len()];
        let plies = max_plies / 2 + rng.below(max_plies / 2 + 1);
        playout(start, plies, &mut rng, &mut stats, game);
    }
    stats
}

#[test]
fn random_playouts_match_shakmaty() {
    let stats = run(300, 150, 0x5eed_0001);
    assert!(stats.plies > 20_000, "too few plies: {}", stats.plies);
    // The playouts must reach the interesting cases.
    assert!(stats.drops > 1000, "drops: {}", stats.drops);
    assert!(stats.captures > 1000, "captures: {}", stats.captures);
    assert!(stats.promotions > 10, "promotions: {}", stats.promotions);
    assert!(stats.castles > 10, "castles: {}", stats.castles);
    assert!(
        stats.en_passant > 0,
        "en passant captures: {}",
        stats.en_passant
    );
    assert!(stats.mates > 0, "mates: {}", stats.mates);
}

#[test]
#[ignore = "long: more seeds and longer games"]
fn random_playouts_match_shakmaty_long() {
    for seed in 1..=20u64 {
        run(300, 300, seed);
    }
}

/// Plays moves given in UCI in both and compares at every ply.
fn replay(start: &str, ucis: &[&str]) -> (Position, Crazyhouse) {
    let mut ours = Position::from_fen(start, Rules::crazyhouse()).expect("valid FEN");
    let mut theirs = sh_from_fen(start);
    for uci in ucis {
        compare(&ours, &theirs, &format!("before {uci}"));
        let m = ours.parse_uci(uci).unwrap_or_else(|e| panic!("{uci}: {e}"));
        let sm = uci
            .parse::<shakmaty::uci::UciMove>()
            .expect("shakmaty reads the UCI")
            .to_move(&theirs)
            .expect("shakmaty finds the move");
        ours.play_unchecked(m);
        theirs.play_unchecked(sm);
    }
    compare(&ours, &theirs, "end");
    (ours, theirs)
}

#[test]
fn en_passant_square_conventions() {
    // A double push with no pawn to capture: shakmaty keeps e3 internally, but with
    // EnPassantMode::Legal neither writes it.
    let (ours, theirs) = replay(START, &["e2e4"]);
    assert_eq!(ours.ep_square(), None);
    assert_eq!(theirs.ep_square(EnPassantMode::Legal), None);
    assert!(ours.fen().contains(" b KQkq - "), "{}", ours.fen());

    // A double push next to an enemy pawn: both name the square.
    let (ours, theirs) = replay(START, &["e2e4", "a7a6", "e4e5", "d7d5"]);
    assert_eq!(ours.ep_square(), Some(bughouse_core::Square::D6));
    assert_eq!(
        theirs.ep_square(EnPassantMode::Legal),
        Some(shakmaty::Square::D6)
    );
    assert!(ours.fen().contains(" w KQkq d6 "), "{}", ours.fen());
    assert!(ours.legal_moves().iter().any(|m| m.is_en_passant()));
}

#[test]
fn drops_promotions_and_mate_match() {
    // Scholar's-mate style drop mate: the queen is captured and dropped.
    let start = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1";
    let (ours, theirs) = replay(start, &["f3f7"]);
    assert_eq!(ours.verdict(), Verdict::Checkmate);
    assert!(theirs.is_checkmate());

    // A drop that blocks is available: not mate, in both.
    let start = "4k3/8/8/8/8/8/8/R3K3[n] b - - 0 1";
    let (ours, theirs) = replay(start, &["e8d7", "a1a7"]);
    assert!(ours.is_check());
    assert!(!theirs.is_checkmate());
    assert_eq!(ours.verdict(), Verdict::Ongoing);

    // A promoted piece goes back to the reserve as a pawn.
    let start = "r3k3/1P6/8/8/8/8/8/4K3[] w q - 0 1";
    let (ours, _) = replay(start, &["b7b8q", "a8b8"]);
    assert_eq!(ours.reserve(Color::Black).count(Role::Pawn), 1);
    assert_eq!(ours.reserve(Color::Black).count(Role::Queen), 0);
}

#[test]
fn stalemate_matches() {
    // Black to move, not in check, no move, empty reserve: stalemate in both.
    let start = "k7/2Q5/1K6/8/8/8/8/8[] b - - 0 1";
    let ours = Position::from_fen(start, Rules::crazyhouse()).expect("valid FEN");
    let theirs = sh_from_fen(start);
    compare(&ours, &theirs, "stalemate");
    assert_eq!(ours.verdict(), Verdict::Stalemate);
    assert!(theirs.is_stalemate());

    // The same with a pawn in reserve: a drop is a move, so no stalemate.
    let start = "k7/2Q5/1K6/8/8/8/8/8[p] b - - 0 1";
    let ours = Position::from_fen(start, Rules::crazyhouse()).expect("valid FEN");
    let theirs = sh_from_fen(start);
    compare(&ours, &theirs, "pawn in reserve");
    assert_eq!(ours.verdict(), Verdict::Ongoing);
}
