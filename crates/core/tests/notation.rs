//! SAN and UCI: every legal move of random playouts survives writing and reading back, check
//! marks agree with the position, and the explicit forms and errors of both notations.

use bughouse_core::san::{ParseSanError, SanError, SanParseOrMoveError};
use bughouse_core::uci::{IllegalUciMove, ParseUciError, UciError};
use bughouse_core::{Color, Move, Position, Preset, Role, Rules, Square, Verdict};

mod common;
use common::Rng;

const ROLES: [Role; 5] = bughouse_core::RESERVE_ROLES;

#[derive(Default)]
struct Seen {
    moves: usize,
    checks: usize,
    mates: usize,
    disambiguated: usize,
    promotions: usize,
    drops: usize,
    castles: usize,
    en_passant: usize,
}

/// Checks SAN and UCI of every legal move of `pos`.
fn check_all_moves(pos: &Position, seen: &mut Seen) {
    let fen = pos.fen();
    let moves = pos.legal_moves();
    for &m in &moves {
        seen.moves += 1;
        // UCI.
        let uci = m.to_string();
        assert_eq!(pos.parse_uci(&uci), Ok(m), "UCI {uci} in {fen}");
        // The inline text is the squares' and roles' own notation.
        let expected = match (m.dropped_role(), m.promotion_role(), m.from()) {
            (Some(role), _, _) => format!("{}@{}", role.upper_char(), m.to()),
            (None, Some(role), Some(from)) => format!("{from}{}{}", m.to(), role.char()),
            (None, None, Some(from)) => format!("{from}{}", m.king_to()),
            (None, _, None) => panic!("a board move without a from square: {m:?}"),
        };
        assert_eq!(m.uci().as_str(), expected, "in {fen}");
        if let Some(role) = m.dropped_role() {
            // Drops read in either case.
            let lower = format!("{}@{}", role.char(), m.to());
            assert_eq!(pos.parse_uci(&lower), Ok(m), "UCI {lower} in {fen}");
        }

        // SAN.
        let san = pos.san(m);
        assert_eq!(pos.parse_san(&san), Ok(m), "SAN {san} in {fen}");
        let bare = san.trim_end_matches(['+', '#']);
        assert_eq!(pos.parse_san(bare), Ok(m), "SAN {bare} in {fen}");

        // Check and mate marks agree with the position after the move.
        let mut after = pos.clone();
        after.play_unchecked(m);
        let mate = after.verdict() == Verdict::Checkmate;
        assert_eq!(san.ends_with('#'), mate, "{san} in {fen}: mate mark");
        assert_eq!(
            san.ends_with('+'),
            after.is_check() && !mate,
            "{san} in {fen}: check mark"
        );
        if mate {
            assert!(after.is_check(), "{san} in {fen}: mate without check");
            seen.mates += 1;
        } else if after.is_check() {
            seen.checks += 1;
        }

        // The capture mark.
        let capture = pos.captured_role(m).is_some();
        assert_eq!(bare.contains('x'), capture, "{san} in {fen}: capture mark");

        // The form of the move.
        if let Some(role) = m.dropped_role() {
            seen.drops += 1;
            assert_eq!(bare, format!("{}@{}", role.upper_char(), m.to()), "{fen}");
        } else if m.is_castle() {
            seen.castles += 1;
            let king = m.from().expect("castling is a board move");
            let expected = if m.to() > king { "O-O" } else { "O-O-O" };
            assert_eq!(bare, expected, "{fen}");
        } else {
            if let Some(role) = m.promotion_role() {
                seen.promotions += 1;
                assert!(
                    bare.ends_with(&format!("={}", role.upper_char())),
                    "{san} in {fen}"
                );
            }
            if m.is_en_passant() {
                seen.en_passant += 1;
            }
            let role = pos.moving_role(m).expect("a piece moves");
            if role != Role::Pawn {
                assert!(bare.starts_with(role.upper_char()), "{san} in {fen}");
                // Disambiguation is minimal: the move without it is ambiguous.
                let plain = format!(
                    "{}{}{}",
                    role.upper_char(),
                    if capture { "x" } else { "" },
                    m.to()
                );
                if plain != bare {
                    seen.disambiguated += 1;
                    assert!(
                        matches!(
                            pos.parse_san(&plain),
                            Err(SanParseOrMoveError::Move(SanError::Ambiguous { .. }))
                        ),
                        "{san} in {fen}: {plain} must be ambiguous"
                    );
                }
            }
        }
    }
}

fn playouts(rules: Rules, games: usize, plies: usize, seed: u64) -> Seen {
    let mut rng = Rng(seed);
    let mut seen = Seen::default();
    for _ in 0..games {
        let mut pos = Position::new(rules);
        for _ in 0..plies {
            if rules.capture_destination == bughouse_core::CaptureDestination::Partner
                && rng.below(4) == 0
            {
                // A piece from the partner.
                let color = if rng.below(2) == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                pos.add_to_reserve(color, ROLES[rng.below(5)]);
            }
            check_all_moves(&pos, &mut seen);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Board moves half of the time: drops are most of the moves otherwise.
            let board: Vec<Move> = moves.iter().copied().filter(|m| !m.is_drop()).collect();
            let m = if !board.is_empty() && rng.below(2) == 0 {
                board[rng.below(board.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            pos.play_unchecked(m);
        }
    }
    seen
}

#[test]
fn san_and_uci_round_trip_fide() {
    let seen = playouts(Rules::fide(), 30, 100, 11);
    assert!(seen.moves > 50_000, "moves: {}", seen.moves);
    assert!(seen.checks > 100, "checks: {}", seen.checks);
    assert!(seen.drops > 1000, "drops: {}", seen.drops);
    assert!(seen.disambiguated > 0 && seen.promotions > 0 && seen.castles > 0);
}

#[test]
fn san_and_uci_round_trip_crazyhouse() {
    let seen = playouts(Rules::crazyhouse(), 30, 100, 12);
    assert!(seen.moves > 50_000, "moves: {}", seen.moves);
    assert!(
        seen.checks > 100 && seen.mates > 0,
        "checks {} mates {}",
        seen.checks,
        seen.mates
    );
    assert!(seen.disambiguated > 0 && seen.promotions > 0 && seen.castles > 0);
}

#[test]
fn san_and_uci_round_trip_other_presets() {
    for preset in [
        Preset::Minerva2014,
        Preset::Knsb1988,
        Preset::UscfScholastic2006,
    ] {
        let seen = playouts(preset.rules(), 8, 80, 13);
        assert!(seen.moves > 5_000, "{preset}: moves {}", seen.moves);
    }
}

#[test]
#[ignore = "long: more games"]
fn san_and_uci_round_trip_long() {
    for seed in 100..110 {
        playouts(Rules::fide(), 50, 200, seed);
        playouts(Rules::crazyhouse(), 50, 200, seed);
    }
}

fn pos(fen: &str, rules: Rules) -> Position {
    Position::from_fen(fen, rules).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn uci(p: &Position, text: &str) -> Move {
    p.parse_uci(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn san_drop_with_check() {
    let p = pos("8/8/8/6k1/8/8/8/4K3[N] w - - 0 1", Rules::fide());
    let m = Move::drop(Role::Knight, Square::F3);
    assert_eq!(p.san(m), "N@f3+");
    for text in ["N@f3+", "N@f3", "n@f3", "N@f3+!?"] {
        assert_eq!(p.parse_san(text), Ok(m), "{text}");
    }
    assert_eq!(uci(&p, "N@f3"), m);
}

#[test]
fn san_pawn_drop() {
    let p = pos("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", Rules::crazyhouse());
    let m = Move::drop(Role::Pawn, Square::E4);
    assert_eq!(p.san(m), "P@e4");
    assert_eq!(p.parse_san("P@e4"), Ok(m));
    assert_eq!(p.parse_san("@e4"), Ok(m), "a bare @ is a pawn drop");
    // No pawn drop on the back ranks.
    assert!(matches!(
        p.parse_san("P@e8"),
        Err(SanParseOrMoveError::Move(SanError::Illegal { .. }))
    ));
    // No knight in reserve.
    assert!(matches!(
        p.parse_san("N@e4"),
        Err(SanParseOrMoveError::Move(SanError::Illegal { .. }))
    ));
}

#[test]
fn san_capture_promotion_mate() {
    // The queen mates along the back rank. Under crazyhouse Black's reserve is empty: mate.
    let fen = "3r3k/4P1pp/8/8/8/8/8/4K3[] w - - 0 1";
    let zh = pos(fen, Rules::crazyhouse());
    let m = Move::promotion(Square::E7, Square::D8, Role::Queen);
    assert_eq!(zh.san(m), "exd8=Q#");
    for text in ["exd8=Q#", "exd8=Q", "exd8Q", "ed8=Q", "exd8/Q", "e7xd8=Q#"] {
        assert_eq!(zh.parse_san(text), Ok(m), "{text}");
    }
    assert_eq!(uci(&zh, "e7d8q"), m);
    let mut after = zh.clone();
    after.play(m).unwrap();
    assert_eq!(after.verdict(), Verdict::Checkmate);
    // Under fide a piece Black could still receive could block on e8, f8 or g8: only check.
    let fide = pos(fen, Rules::fide());
    assert_eq!(fide.san(m), "exd8=Q+");
    // Under-promotions.
    let n = Move::promotion(Square::E7, Square::D8, Role::Knight);
    assert_eq!(zh.san(n), "exd8=N");
    assert_eq!(zh.parse_san("exd8=N"), Ok(n));
    assert_eq!(uci(&zh, "e7d8n"), n);
    // A promotion must name its piece.
    assert!(matches!(
        zh.parse_san("exd8"),
        Err(SanParseOrMoveError::Move(SanError::Illegal { .. }))
    ));
}

#[test]
fn san_lenient_promotion_without_equals() {
    let p = pos("k7/4P3/8/8/8/8/8/4K3 w - - 0 1", Rules::fide());
    let m = Move::promotion(Square::E7, Square::E8, Role::Queen);
    assert_eq!(p.san(m), "e8=Q+");
    assert_eq!(p.parse_san("e8Q"), Ok(m));
    assert_eq!(p.parse_san("e8Q+"), Ok(m));
    assert_eq!(p.parse_san("e8=Q"), Ok(m));
    assert_eq!(
        p.parse_san("e8=R"),
        Ok(Move::promotion(Square::E7, Square::E8, Role::Rook))
    );
    assert_eq!(uci(&p, "e7e8q"), m);
    assert_eq!(m.to_string(), "e7e8q");
}

#[test]
fn san_castling() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", Rules::fide());
    let long = Move::castle(Square::E1, Square::A1);
    let short = Move::castle(Square::E1, Square::H1);
    assert_eq!(p.san(long), "O-O-O");
    assert_eq!(p.san(short), "O-O");
    for text in ["O-O-O", "0-0-0", "O-O-O+"] {
        assert_eq!(p.parse_san(text), Ok(long), "{text}");
    }
    for text in ["O-O", "0-0"] {
        assert_eq!(p.parse_san(text), Ok(short), "{text}");
    }
    // UCI: the king's two-square move, or the king taking its rook.
    assert_eq!(long.to_string(), "e1c1");
    assert_eq!(short.to_string(), "e1g1");
    assert_eq!(uci(&p, "e1g1"), short);
    assert_eq!(uci(&p, "e1h1"), short);
    assert_eq!(uci(&p, "e1c1"), long);
    assert_eq!(uci(&p, "e1a1"), long);
    // Without the right, castling is illegal, not a syntax error.
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", Rules::fide());
    assert!(matches!(
        p.parse_san("O-O"),
        Err(SanParseOrMoveError::Move(SanError::Illegal { .. }))
    ));
    assert!(matches!(p.parse_uci("e1g1"), Err(UciError::Illegal(_))));
}

#[test]
fn san_disambiguation() {
    // By file: knights on b8 and f6 can both go to d7.
    let p = pos("1n2k3/8/5n2/8/8/8/8/4K3 b - - 0 1", Rules::fide());
    let nb = uci(&p, "b8d7");
    let nf = uci(&p, "f6d7");
    assert_eq!(p.san(nb), "Nbd7");
    assert_eq!(p.san(nf), "Nfd7");
    assert_eq!(p.parse_san("Nbd7"), Ok(nb));
    assert_eq!(p.parse_san("Nfd7"), Ok(nf));
    assert_eq!(
        p.parse_san("Nb8d7"),
        Ok(nb),
        "superfluous disambiguation is read"
    );
    assert_eq!(p.parse_san("Nb8-d7"), Ok(nb));
    match p.parse_san("Nd7") {
        Err(SanParseOrMoveError::Move(e @ SanError::Ambiguous { .. })) => {
            assert!(e.to_string().contains("ambiguous move Nd7"), "{e}");
        }
        other => panic!("Nd7 must be ambiguous, got {other:?}"),
    }
    // Only one knight reaches e5... none does: Nbe5 is illegal.
    assert!(matches!(
        p.parse_san("Ne5"),
        Err(SanParseOrMoveError::Move(SanError::Illegal { .. }))
    ));

    // By rank: knights on a1 and a5 can both go to b3.
    let p = pos("4k3/8/8/N7/8/8/8/N3K3 w - - 0 1", Rules::fide());
    assert_eq!(p.san(uci(&p, "a1b3")), "N1b3");
    assert_eq!(p.san(uci(&p, "a5b3")), "N5b3");
    assert_eq!(p.parse_san("N5b3"), Ok(uci(&p, "a5b3")));

    // By square: queens on a1, a3 and c1 all reach b2 (three queens: bughouse allows it).
    let p = pos("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", Rules::fide());
    assert_eq!(p.san(uci(&p, "a1b2")), "Qa1b2");
    assert_eq!(p.san(uci(&p, "a3b2")), "Q3b2");
    assert_eq!(p.san(uci(&p, "c1b2")), "Qcb2");
    assert_eq!(p.parse_san("Qa1b2"), Ok(uci(&p, "a1b2")));
    assert!(matches!(
        p.parse_san("Qab2"),
        Err(SanParseOrMoveError::Move(SanError::Ambiguous { .. }))
    ));

    // A pinned piece does not count: the other knight needs no disambiguation.
    let p = pos("4k3/8/8/8/4r3/8/4N3/1N2K3 w - - 0 1", Rules::fide());
    assert_eq!(p.san(uci(&p, "b1c3")), "Nc3");
    assert!(matches!(p.parse_uci("e2c3"), Err(UciError::Illegal(_))));
    // Unpinned, the same knights need it.
    let p = pos("4k3/8/8/8/8/8/4N3/1N2K3 w - - 0 1", Rules::fide());
    assert_eq!(p.san(uci(&p, "b1c3")), "Nbc3");
}

#[test]
fn san_syntax_errors() {
    let p = Position::new(Rules::fide());
    for text in [
        "", "+", "Zz9", "e9", "i4", "e", "Nf", "K@e4", "N@", "N@e", "N@e44", "NN@e4", "O-O-O-O",
        "Nxx3", "e4e5e6", "Qe2=Q",
    ] {
        match p.parse_san(text) {
            Err(SanParseOrMoveError::Syntax(ParseSanError { text: t, reason })) => {
                assert_eq!(t, text);
                let msg = p.parse_san(text).unwrap_err().to_string();
                assert!(msg.contains("invalid SAN") && msg.contains(reason), "{msg}");
            }
            other => panic!("{text:?}: expected a syntax error, got {other:?}"),
        }
    }
}

#[test]
fn san_illegal_moves() {
    let p = Position::new(Rules::fide());
    for text in ["e5", "Nf4", "Ke2", "O-O", "N@f3", "exd5", "Bb5"] {
        match p.parse_san(text) {
            Err(SanParseOrMoveError::Move(SanError::Illegal { san, fen })) => {
                assert_eq!(fen, p.fen());
                let msg = p.parse_san(text).unwrap_err().to_string();
                assert!(msg.contains("illegal move") && msg.contains(&san), "{msg}");
            }
            other => panic!("{text:?}: expected an illegal move, got {other:?}"),
        }
    }
    // Pinned pieces and moves into check.
    let p = pos("4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1", Rules::fide());
    assert!(matches!(
        p.parse_san("Nf3"),
        Err(SanParseOrMoveError::Move(SanError::Illegal { .. }))
    ));
}

#[test]
fn uci_forms() {
    let p = Position::new(Rules::fide());
    let m = uci(&p, "e2e4");
    assert_eq!(m, Move::normal(Square::E2, Square::E4));
    assert_eq!(m.to_string(), "e2e4");
    assert_eq!(p.san(m), "e4");

    let p = pos("k7/4P3/8/8/8/8/8/4K3 w - - 0 1", Rules::fide());
    assert_eq!(
        uci(&p, "e7e8q"),
        Move::promotion(Square::E7, Square::E8, Role::Queen)
    );
    assert_eq!(
        uci(&p, "e7e8n"),
        Move::promotion(Square::E7, Square::E8, Role::Knight)
    );
    // A promotion needs its piece, and a normal move must not have one.
    assert!(matches!(p.parse_uci("e7e8"), Err(UciError::Illegal(_))));
    assert!(matches!(p.parse_uci("e1e2q"), Err(UciError::Illegal(_))));

    let p = pos("4k3/8/8/8/8/8/8/4K2R[Nn] w K - 0 1", Rules::fide());
    let drop = Move::drop(Role::Knight, Square::F3);
    assert_eq!(uci(&p, "N@f3"), drop);
    assert_eq!(uci(&p, "n@f3"), drop);
    assert_eq!(drop.to_string(), "N@f3");
    assert_eq!(uci(&p, "e1g1"), Move::castle(Square::E1, Square::H1));
    // Black's drops are written upper case too.
    let p = pos("4k3/8/8/8/8/8/8/4K3[n] b - - 0 1", Rules::fide());
    let drop = uci(&p, "n@c6");
    assert_eq!(drop.to_string(), "N@c6");
    assert_eq!(p.san(drop), "N@c6");
}

#[test]
fn uci_malformed() {
    let p = Position::new(Rules::fide());
    for text in [
        "", "e2", "e2e", "e2e9", "i2i4", "e2e4x", "e2e4k", "e2e4p", "e2e4qq", "e2e2", "K@e4",
        "X@e4", "N@e9", "N@", "N-f3", "e2-e4", " e2e4", "0000",
    ] {
        match p.parse_uci(text) {
            Err(UciError::Syntax(ParseUciError { text: t, reason })) => {
                assert_eq!(t, text);
                let msg = p.parse_uci(text).unwrap_err().to_string();
                assert!(
                    msg.contains("invalid UCI move") && msg.contains(reason),
                    "{msg}"
                );
            }
            other => panic!("{text:?}: expected a syntax error, got {other:?}"),
        }
    }
}

#[test]
fn uci_illegal() {
    let p = Position::new(Rules::fide());
    for text in ["e2e5", "e1e2", "g1g3", "N@f3", "P@e4", "e7e5", "a1a8q"] {
        match p.parse_uci(text) {
            Err(UciError::Illegal(IllegalUciMove { uci, fen })) => {
                assert_eq!(uci.to_string().to_lowercase(), text.to_lowercase());
                assert_eq!(fen, p.fen());
                let msg = p.parse_uci(text).unwrap_err().to_string();
                assert!(
                    msg.contains("illegal move") && msg.contains(&p.fen()),
                    "{msg}"
                );
            }
            other => panic!("{text:?}: expected an illegal move, got {other:?}"),
        }
    }
}

#[test]
fn en_passant_notation() {
    let mut p = Position::new(Rules::crazyhouse());
    for text in ["e2e4", "a7a6", "e4e5", "d7d5"] {
        let m = uci(&p, text);
        p.play(m).unwrap();
    }
    let ep = uci(&p, "e5d6");
    assert!(ep.is_en_passant());
    assert_eq!(p.san(ep), "exd6");
    assert_eq!(p.parse_san("exd6"), Ok(ep));
    assert_eq!(p.parse_san("ed6"), Ok(ep));
    assert_eq!(ep.to_string(), "e5d6");
}

/// Random strings of the notations' letters (and a few others) on positions of random
/// playouts: reading them as SAN or UCI never panics, and whatever reads as a move is one of
/// the position's legal moves, which writes back to SAN that reads as the same move.
#[test]
fn random_notation_never_panics_and_reads_only_legal_moves() {
    const LETTERS: &[u8] = b"abcdefghKQRBNPkqrbnp12345678900x+#=@-O~!?.:/ eE";
    for preset in [Preset::Fide, Preset::Minerva2014, Preset::Crazyhouse] {
        let rules = preset.rules();
        let mut rng = Rng(77);
        let (mut read, mut tried) = (0usize, 0usize);
        for _ in 0..40 {
            let mut pos = Position::new(rules);
            for _ in 0..60 {
                if rng.below(3) == 0 {
                    pos.add_to_reserve(Color::White, ROLES[rng.below(5)]);
                    pos.add_to_reserve(Color::Black, ROLES[rng.below(5)]);
                }
                for _ in 0..40 {
                    let len = 1 + rng.below(7);
                    let text: String = (0..len)
                        .map(|_| char::from(LETTERS[rng.below(LETTERS.len())]))
                        .collect();
                    tried += 1;
                    let legal = pos.legal_moves();
                    if let Ok(m) = pos.parse_san(&text) {
                        read += 1;
                        assert!(
                            legal.contains(&m),
                            "{text:?} read as {m:?} in {}",
                            pos.fen()
                        );
                        assert_eq!(pos.parse_san(&pos.san(m)), Ok(m), "{}", pos.fen());
                    }
                    if let Ok(m) = pos.parse_uci(&text) {
                        assert!(
                            legal.contains(&m),
                            "{text:?} read as {m:?} in {}",
                            pos.fen()
                        );
                    }
                }
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
        assert!(tried > 50_000, "{preset:?}: {tried} strings");
        assert!(
            read > 40,
            "{preset:?}: only {read} of {tried} strings read as moves"
        );
    }
}
