//! FEN: round trips of random legal positions under every preset, robustness against arbitrary
//! text, and the errors (with their messages) and accepted variants of the format.

use bughouse_core::fen::{Fen, FenError, FenErrorKind, FenField, ParseFenError};
use bughouse_core::{Color, Position, PositionError, Preset, Role, Rules, Square};
use proptest::prelude::*;

mod common;
use common::Rng;

const ROLES: [Role; 5] = bughouse_core::RESERVE_ROLES;

/// A legal position reached by a random playout of `plies` plies under `rules`, with pieces
/// arriving in the reserves now and then as a partner would pass them.
fn random_position(rules: Rules, seed: u64, plies: usize, gifts: usize) -> Position {
    let mut rng = Rng(seed);
    let mut pos = Position::new(rules);
    for _ in 0..gifts {
        let color = if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        pos.add_to_reserve(color, ROLES[rng.below(5)]);
    }
    for _ in 0..plies {
        if rng.below(8) == 0 {
            let color = if rng.below(2) == 0 {
                Color::White
            } else {
                Color::Black
            };
            pos.add_to_reserve(color, ROLES[rng.below(5)]);
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        // Favour board moves half of the time: drops would otherwise be most of the moves.
        let board_moves: Vec<_> = moves.iter().copied().filter(|m| !m.is_drop()).collect();
        let m = if !board_moves.is_empty() && rng.below(2) == 0 {
            board_moves[rng.below(board_moves.len())]
        } else {
            moves[rng.below(moves.len())]
        };
        pos.play_unchecked(m);
    }
    pos
}

fn preset_strategy() -> impl Strategy<Value = Preset> {
    prop::sample::select(Preset::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn fen_round_trip(
        preset in preset_strategy(),
        seed in any::<u64>(),
        plies in 0usize..160,
        gifts in 0usize..12,
    ) {
        let rules = preset.rules();
        let pos = random_position(rules, seed, plies, gifts);
        let fen = pos.fen();
        let back = Position::from_fen(&fen, rules)
            .unwrap_or_else(|e| panic!("{preset}: cannot read back {fen}: {e}"));
        prop_assert_eq!(back.fen(), fen.clone(), "{}", preset);
        if back.castling_rights() == pos.castling_rights() {
            prop_assert_eq!(&back, &pos, "{}: {}", preset, fen);
        } else {
            // The one thing FEN cannot say: under fide a rook that went back to its corner by
            // a board move may not castle, though the letter stays for a rook dropped there
            // later. The FEN leaves such a letter out; everything else is the same.
            prop_assert!(rules.castle_with_dropped_rook, "{}: {}", preset, fen);
            prop_assert_eq!(back.castling_rights(), pos.to_setup().castling);
        }
        prop_assert_eq!(back.to_setup(), pos.to_setup(), "{}: {}", preset, fen);
        // The parsed FEN writes itself the same way, and its setup is the position's.
        let parsed: Fen = fen.parse().expect("our own FEN parses");
        prop_assert_eq!(parsed.to_string(), fen.clone());
        prop_assert_eq!(&parsed.0, &pos.to_setup());
        let from_setup = Position::from_setup(pos.to_setup(), rules);
        prop_assert_eq!(from_setup.as_ref(), Ok(&back));
        // The same legal moves, so the FEN says everything that matters for play.
        prop_assert_eq!(back.legal_moves(), pos.legal_moves(), "{}: {}", preset, fen);
    }

    #[test]
    fn arbitrary_strings_never_panic(s in any::<String>()) {
        let _ = Position::from_fen(&s, Rules::fide());
        let _ = s.parse::<Fen>();
    }

    #[test]
    fn fen_like_strings_never_panic(
        s in "[rnbqkpRNBQKP1-9/~\\[\\]\\- wbKQkqAHah0-9a-h@]{0,100}",
    ) {
        for preset in Preset::ALL {
            let _ = Position::from_fen(&s, preset.rules());
        }
    }

    #[test]
    fn mutated_fens_never_panic(
        seed in any::<u64>(),
        plies in 0usize..60,
        at in any::<prop::sample::Index>(),
        ch in any::<char>(),
        cut in any::<bool>(),
    ) {
        let pos = random_position(Rules::crazyhouse(), seed, plies, 3);
        let fen = pos.fen();
        let mut chars: Vec<char> = fen.chars().collect();
        let i = at.index(chars.len());
        if cut {
            chars.truncate(i);
        } else {
            chars[i] = ch;
        }
        let text: String = chars.into_iter().collect();
        if let Ok(p) = Position::from_fen(&text, Rules::crazyhouse()) {
            // Whatever is accepted is a position that writes a FEN it reads again, and that
            // can be played on.
            let again = Position::from_fen(&p.fen(), Rules::crazyhouse());
            prop_assert_eq!(again.as_ref().ok(), Some(&p), "{}", text);
            for m in p.legal_moves() {
                let mut child = p.clone();
                child.play_unchecked(m);
                let _ = child.verdict();
                let _ = child.fen();
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn any_counters_are_kept_and_played_on(halfmoves in any::<u32>(), fullmoves in any::<u32>()) {
        let fen = format!("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[Nn] b KQkq - {halfmoves} {fullmoves}");
        let pos = Position::from_fen(&fen, Rules::fide()).unwrap();
        prop_assert_eq!(pos.halfmoves(), halfmoves);
        prop_assert_eq!(pos.fullmoves(), fullmoves.max(1));
        for m in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            // Black moved: the move number goes up, at most to u32::MAX.
            prop_assert_eq!(child.fullmoves(), fullmoves.max(1).saturating_add(1));
            let _ = child.fen();
        }
    }
}

#[test]
fn counters_at_their_maximum_do_not_overflow() {
    let mut pos = Position::from_fen(
        "4k3/8/8/8/8/8/8/R3K3 b Q - 4294967295 4294967295",
        Rules::fide(),
    )
    .unwrap();
    for uci in ["e8d8", "e1e2", "d8e8", "a1a2"] {
        let m = pos.parse_uci(uci).unwrap();
        pos.play(m).unwrap();
    }
    assert_eq!(pos.halfmoves(), u32::MAX);
    assert_eq!(pos.fullmoves(), u32::MAX);
    assert_eq!(
        pos.fen(),
        "4k3/8/8/8/8/8/R3K3/8[] b - - 4294967295 4294967295"
    );
    // One more than a u32 is a syntax error.
    let e = syntax("4k3/8/8/8/8/8/8/4K3 w - - 4294967296 1");
    assert_eq!(
        (e.field, e.kind),
        (FenField::Halfmoves, FenErrorKind::BadNumber)
    );
}

fn illegal(fen: &str) -> PositionError {
    match Position::from_fen(fen, Rules::fide()) {
        Err(FenError::Illegal(e)) => e,
        other => panic!("{fen}: expected an illegal position, got {other:?}"),
    }
}

fn syntax(fen: &str) -> ParseFenError {
    match Position::from_fen(fen, Rules::fide()) {
        Err(FenError::Syntax(e)) => e,
        other => panic!("{fen}: expected a syntax error, got {other:?}"),
    }
}

/// The Display text of a FEN error, through `FenError` as a caller sees it.
fn message(fen: &str) -> String {
    Position::from_fen(fen, Rules::fide())
        .expect_err("must be rejected")
        .to_string()
}

fn assert_mentions(fen: &str, words: &[&str]) {
    let msg = message(fen);
    for word in words {
        assert!(
            msg.contains(word),
            "message for {fen:?} is {msg:?}, lacks {word:?}"
        );
    }
}

#[test]
fn rejects_missing_king() {
    let fen = "8/8/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(illegal(fen), PositionError::NoKing(Color::Black));
    assert_mentions(fen, &["Black", "no king"]);
    let fen = "4k3/8/8/8/8/8/8/8[Q] w - - 0 1";
    assert_eq!(illegal(fen), PositionError::NoKing(Color::White));
    assert_mentions(fen, &["White", "no king"]);
}

#[test]
fn rejects_two_kings_of_one_side() {
    let fen = "4k3/8/8/8/8/8/8/3KK3 w - - 0 1";
    assert_eq!(illegal(fen), PositionError::TooManyKings(Color::White, 2));
    assert_mentions(fen, &["White", "2 kings"]);
    let fen = "k3k3/8/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(illegal(fen), PositionError::TooManyKings(Color::Black, 2));
    assert_mentions(fen, &["Black", "2 kings"]);
}

#[test]
fn rejects_king_in_reserve() {
    let e = syntax("4k3/8/8/8/8/8/8/4K3[K] w - - 0 1");
    assert_eq!(e.kind, FenErrorKind::KingInReserve);
    assert_eq!(e.field, FenField::Reserve);
    assert_mentions("4k3/8/8/8/8/8/8/4K3[K] w - - 0 1", &["king", "reserve"]);
}

#[test]
fn rejects_pawn_on_back_rank() {
    let fen = "4k3/8/8/8/8/8/8/P3K3 w - - 0 1";
    assert_eq!(illegal(fen), PositionError::PawnOnBackRank(Square::A1));
    assert_mentions(fen, &["pawn", "a1", "rank 1 or 8"]);
    let fen = "4k2p/8/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(illegal(fen), PositionError::PawnOnBackRank(Square::H8));
    assert_mentions(fen, &["pawn", "h8"]);
}

#[test]
fn rejects_side_not_to_move_in_check() {
    let fen = "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(illegal(fen), PositionError::OppositeCheck(Color::Black));
    assert_mentions(fen, &["Black is in check", "not Black's move"]);
    // The same position with Black to move is fine.
    assert!(Position::from_fen("4k3/4R3/8/8/8/8/8/4K3 b - - 0 1", Rules::fide()).is_ok());
}

#[test]
fn rejects_unknown_reserve_letter() {
    let fen = "4k3/8/8/8/8/8/8/4K3[Qx] w - - 0 1";
    let e = syntax(fen);
    assert_eq!(e.kind, FenErrorKind::UnknownReserveLetter('x'));
    assert_eq!(e.field, FenField::Reserve);
    assert_eq!(e.column, 22, "the column of the x");
    assert_mentions(fen, &["reserve", "'x'", "column 22"]);
    // In the ninth-rank form too.
    let e = syntax("4k3/8/8/8/8/8/8/4K3/Q1 w - - 0 1");
    assert_eq!(e.kind, FenErrorKind::UnknownReserveLetter('1'));
    // An unclosed bracket.
    let e = syntax("4k3/8/8/8/8/8/8/4K3[Q w - - 0 1");
    assert_eq!(e.kind, FenErrorKind::UnclosedReserve);
    assert_mentions("4k3/8/8/8/8/8/8/4K3[Q w - - 0 1", &["'['", "']'"]);
}

#[test]
fn rejects_garbage() {
    let e = syntax("hello world");
    assert_eq!(e.field, FenField::Board);
    assert_eq!(e.kind, FenErrorKind::WrongRankCount(1));
    assert_mentions("hello world", &["invalid FEN", "1 ranks, expected 8"]);

    let e = syntax("");
    assert_eq!(e.kind, FenErrorKind::Empty);
    assert_mentions("   ", &["empty"]);

    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1";
    let e = syntax(fen);
    assert_eq!(e.kind, FenErrorKind::UnexpectedChar('X'));
    assert_eq!(e.column, 43);
    assert_mentions(fen, &["'X'", "board"]);

    // A non-ASCII character is reported whole.
    let e = syntax("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN\u{e9} w KQkq - 0 1");
    assert_eq!(e.kind, FenErrorKind::UnexpectedChar('\u{e9}'));

    let e = syntax("4k3/8/8/8/8/8/8/4K3 x - - 0 1");
    assert_eq!(e.kind, FenErrorKind::BadTurn);
    assert_eq!(e.field, FenField::Turn);
    let e = syntax("4k3/8/8/8/8/8/8/4K3");
    assert_eq!(e.kind, FenErrorKind::MissingTurn);
    assert_mentions("4k3/8/8/8/8/8/8/4K3", &["side to move is missing"]);
    let e = syntax("4k3/8/8/8/8/8/8/4K3 w - - x 1");
    assert_eq!(
        (e.field, e.kind),
        (FenField::Halfmoves, FenErrorKind::BadNumber)
    );
    let e = syntax("4k3/8/8/8/8/8/8/4K3 w - - 0 -1");
    assert_eq!(
        (e.field, e.kind),
        (FenField::Fullmoves, FenErrorKind::BadNumber)
    );
    let e = syntax("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra");
    assert_eq!(e.kind, FenErrorKind::TrailingText);
    let e = syntax("4k3/8/8/8/8/8/8/4K3[]x w - - 0 1");
    assert_eq!(
        (e.field, e.kind),
        (FenField::Reserve, FenErrorKind::UnexpectedChar('x'))
    );
    let e = syntax("~4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(e.kind, FenErrorKind::StrayPromotedMarker);
    assert_mentions("~4k3/8/8/8/8/8/8/4K3 w - - 0 1", &["'~'"]);
}

#[test]
fn rejects_ranks_too_long_or_short() {
    let fen = "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(syntax(fen).kind, FenErrorKind::RankTooLong(7));
    assert_mentions(fen, &["rank 7", "more than 8 squares"]);
    let fen = "4k4/8/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(syntax(fen).kind, FenErrorKind::RankTooLong(8));
    let fen = "4k3/8/8/8/8/8/8/4K3p w - - 0 1";
    assert_eq!(syntax(fen).kind, FenErrorKind::RankTooLong(1));
    let fen = "rnbqkbn/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(syntax(fen).kind, FenErrorKind::RankTooShort(8));
    assert_mentions(fen, &["rank 8", "fewer than 8 squares"]);
    let fen = "4k3/8/8/8/8/8/8/4K2 w - - 0 1";
    assert_eq!(syntax(fen).kind, FenErrorKind::RankTooShort(1));
    // A digit 9 is no rank length, and too few or too many ranks.
    let fen = "4k3/8/9/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(syntax(fen).kind, FenErrorKind::UnexpectedChar('9'));
    let fen = "4k3/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(syntax(fen).kind, FenErrorKind::WrongRankCount(7));
    assert_mentions(fen, &["7 ranks"]);
    let fen = "4k3/8/8/8/8/8/8/8/4K3/ w - - 0 1";
    assert_eq!(syntax(fen).kind, FenErrorKind::WrongRankCount(10));
}

#[test]
fn rejects_bad_castling() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkx - 0 1";
    let e = syntax(fen);
    assert_eq!(
        (e.field, e.kind.clone()),
        (FenField::Castling, FenErrorKind::BadCastling('x'))
    );
    assert_mentions(fen, &["castling", "'x'"]);
    // A letter whose king is not at home.
    let fen = "r3k2r/8/8/8/8/8/8/R4K1R w K - 0 1";
    assert_eq!(illegal(fen), PositionError::BadCastling(Square::H1));
    assert_mentions(fen, &["castling", "h1"]);
    // A letter with no rook: fine under fide (a dropped rook may castle while the king has not
    // moved), wrong where rights once lost never return.
    let fen = "r3k2r/8/8/8/8/8/8/R3K3 w KQkq - 0 1";
    assert!(Position::from_fen(fen, Rules::fide()).is_ok());
    match Position::from_fen(fen, Rules::crazyhouse()) {
        Err(FenError::Illegal(PositionError::BadCastling(sq))) => assert_eq!(sq, Square::H1),
        other => panic!("expected BadCastling under crazyhouse, got {other:?}"),
    }
}

#[test]
fn rejects_bad_en_passant() {
    let fen = "4k3/8/8/8/4P3/8/8/4K3 b - e9 0 1";
    let e = syntax(fen);
    assert_eq!(
        (e.field, e.kind.clone()),
        (FenField::EnPassant, FenErrorKind::BadSquare)
    );
    assert_mentions(fen, &["en passant", "'-' or a square"]);
    let e = syntax("4k3/8/8/8/4P3/8/8/4K3 b - x 0 1");
    assert_eq!(e.kind, FenErrorKind::BadSquare);
    // A square, but not behind a pawn that has just moved two squares.
    let fen = "4k3/8/8/8/4P3/8/8/4K3 b - e4 0 1";
    assert_eq!(illegal(fen), PositionError::BadEnPassant(Square::E4));
    assert_mentions(fen, &["en passant", "e4"]);
    let fen = "4k3/8/8/8/8/8/8/4K3 b - e3 0 1";
    assert_eq!(illegal(fen), PositionError::BadEnPassant(Square::E3));
    // The wrong side's square.
    let fen = "4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1";
    assert_eq!(illegal(fen), PositionError::BadEnPassant(Square::E3));
    // A right square that no pawn can use is accepted and dropped.
    let pos = Position::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1", Rules::fide()).unwrap();
    assert_eq!(pos.ep_square(), None);
    assert_eq!(pos.fen(), "4k3/8/8/8/4P3/8/8/4K3[] b - - 0 1");
    // And kept when a capture is legal.
    let pos = Position::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", Rules::fide()).unwrap();
    assert_eq!(pos.ep_square(), Some(Square::E3));
    assert_eq!(pos.fen(), "4k3/8/8/8/3pP3/8/8/4K3[] b - e3 0 1");
}

#[test]
fn rejects_bad_promoted_marker() {
    let fen = "4k3/8/8/8/4P~3/8/8/4K3 w - - 0 1";
    assert_eq!(illegal(fen), PositionError::BadPromoted(Square::E4));
    assert_mentions(fen, &["e4", "promoted"]);
    let fen = "4k3/8/8/8/8/8/8/4K~3 w - - 0 1";
    assert_eq!(illegal(fen), PositionError::BadPromoted(Square::E1));
}

#[test]
fn reads_ninth_rank_reserve_like_brackets() {
    for rules in [Rules::fide(), Rules::crazyhouse()] {
        let bracket = Position::from_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qn] w KQkq - 0 1",
            rules,
        )
        .unwrap();
        let ninth = Position::from_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/Qn w KQkq - 0 1",
            rules,
        )
        .unwrap();
        assert_eq!(ninth, bracket);
        assert_eq!(
            ninth.fen(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qn] w KQkq - 0 1"
        );
        assert_eq!(ninth.reserve(Color::White).count(Role::Queen), 1);
        assert_eq!(ninth.reserve(Color::Black).count(Role::Knight), 1);

        // An empty ninth rank is an empty reserve, as is `[]` and no reserve at all.
        let empty_ninth = Position::from_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1",
            rules,
        )
        .unwrap();
        let empty_brackets = Position::from_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
            rules,
        )
        .unwrap();
        let plain = Position::from_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            rules,
        )
        .unwrap();
        assert_eq!(empty_ninth, empty_brackets);
        assert_eq!(empty_ninth, plain);
        assert_eq!(empty_ninth, Position::new(rules));
        // `-` for an empty reserve.
        let dash = Position::from_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-] w KQkq - 0 1",
            rules,
        )
        .unwrap();
        assert_eq!(dash, plain);
    }
}

#[test]
fn reads_and_writes_promoted_markers() {
    let fen = "4k3/1Q~6/8/8/4b3/8/Kpp5/8/ b - -";
    let pos = Position::from_fen(fen, Rules::crazyhouse()).unwrap();
    assert!(pos.promoted().contains(Square::B7));
    assert_eq!(pos.promoted().count(), 1);
    assert_eq!(pos.role_at(Square::B7), Some(Role::Queen));
    assert_eq!(pos.fen(), "4k3/1Q~6/8/8/4b3/8/Kpp5/8[] b - - 0 1");
    // Capturing it gives a pawn to the capturer under crazyhouse.
    let fen = "4k3/1Q~6/2b5/8/8/8/8/K7[] b - - 0 1";
    let mut pos = Position::from_fen(fen, Rules::crazyhouse()).unwrap();
    let m = pos.parse_uci("c6b7").unwrap();
    pos.play(m).unwrap();
    assert_eq!(pos.reserve(Color::Black).count(Role::Pawn), 1);
    assert_eq!(pos.reserve(Color::Black).count(Role::Queen), 0);
    assert!(pos.promoted().is_empty());
    // Several markers, of both colours.
    let fen = "r~3k2q~/8/8/8/8/8/8/N~3K2B~[Pp] w - - 3 20";
    let pos = Position::from_fen(fen, Rules::fide()).unwrap();
    assert_eq!(pos.promoted().count(), 4);
    assert_eq!(pos.fen(), fen);
}

#[test]
fn accepts_two_sets_of_pieces_under_fide() {
    // Bughouse: pieces of both sets of a colour can end up on one board. 16 white pawns (on
    // ranks 4 and 5), three queens, four rooks, four knights, four bishops.
    let fen = "k7/8/8/PPPPPPPP/PPPPPPPP/QQQ5/RRRRNNNN/BBBBK3 w - - 0 1";
    let pos = Position::from_fen(fen, Rules::fide()).unwrap();
    assert_eq!(pos.board().pawns().count(), 16);
    assert_eq!(pos.board().queens().count(), 3);
    assert_eq!(
        pos.fen(),
        "k7/8/8/PPPPPPPP/PPPPPPPP/QQQ5/RRRRNNNN/BBBBK3[] w - - 0 1"
    );
    assert!(!pos.legal_moves().is_empty());
    // And big reserves next to a full board.
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QQRRBBNNPPPPPPPPqrbnp] w KQkq - 0 1";
    let pos = Position::from_fen(fen, Rules::fide()).unwrap();
    assert_eq!(pos.reserve(Color::White).len(), 16);
    assert_eq!(pos.fen(), fen);
}

#[test]
fn accepts_epd_without_counters() {
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3[Qn] w - -", Rules::crazyhouse()).unwrap();
    assert_eq!(pos.halfmoves(), 0);
    assert_eq!(pos.fullmoves(), 1);
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/4K3[Qn] w - - 0 1");
    // Without castling and en passant fields too.
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b", Rules::fide()).unwrap();
    assert_eq!(pos.turn(), Color::Black);
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/4K3[] b - - 0 1");
    // Only the halfmove counter.
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 7", Rules::fide()).unwrap();
    assert_eq!((pos.halfmoves(), pos.fullmoves()), (7, 1));
    // Extra spaces are harmless.
    let pos = Position::from_fen("  4k3/8/8/8/8/8/8/4K3   w  -  -  0  1  ", Rules::fide()).unwrap();
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/4K3[] w - - 0 1");
}

#[test]
fn accepts_rook_file_castling_letters() {
    let shredder =
        Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", Rules::fide()).unwrap();
    let standard =
        Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", Rules::fide()).unwrap();
    assert_eq!(shredder, standard);
}

#[test]
fn start_position_fen() {
    let pos = Position::new(Rules::fide());
    assert_eq!(
        pos.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
    );
    let fen: Fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        .parse()
        .unwrap();
    assert_eq!(fen.0, pos.to_setup());
}

#[test]
fn rook_back_on_its_corner_loses_its_letter_in_fen() {
    // Under fide the castling letter stays while the king has not moved (a rook dropped on the
    // corner may castle), but a rook that walked back to its corner may not castle. FEN cannot
    // say both, so the letter is left out: reading the FEN back must not allow the castling.
    let mut pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1", Rules::fide()).unwrap();
    for uci in ["h1h2", "e8d8", "h2h1", "d8e8"] {
        let m = pos.parse_uci(uci).unwrap();
        pos.play(m).unwrap();
    }
    assert!(
        pos.parse_uci("e1g1").is_err(),
        "the walked-back rook may not castle"
    );
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/4K2R[] w - - 4 3");
    let back = Position::from_fen(&pos.fen(), Rules::fide()).unwrap();
    assert_eq!(back.legal_moves(), pos.legal_moves());

    // The letter itself survives in the position: once the rook has gone and a rook is dropped
    // on h1, castling is legal again.
    for uci in ["h1h3", "e8d8", "h3a3", "d8e8"] {
        let m = pos.parse_uci(uci).unwrap();
        pos.play(m).unwrap();
    }
    assert_eq!(pos.fen(), "4k3/8/8/8/8/R7/8/4K3[] w K - 8 5");
    pos.add_to_reserve(Color::White, Role::Rook);
    let m = pos.parse_uci("R@h1").unwrap();
    pos.play(m).unwrap();
    let m = pos.parse_uci("e8d8").unwrap();
    pos.play(m).unwrap();
    assert!(
        pos.parse_uci("e1g1").is_ok(),
        "a dropped rook may castle (F3.5)"
    );
    assert_eq!(pos.fen(), "3k4/8/8/8/8/R7/8/4K2R[] w K - 1 6");
    let back = Position::from_fen(&pos.fen(), Rules::fide()).unwrap();
    assert_eq!(back, pos);
}

#[test]
fn equal_play_gives_equal_positions() {
    // A knight that visits a corner leaves nothing behind: the position equals the one where
    // it never went there.
    let start = "4k3/8/8/8/8/8/5N2/4K2R w K - 0 1";
    let play = |ucis: &[&str]| {
        let mut pos = Position::from_fen(start, Rules::fide()).unwrap();
        for uci in ucis {
            let m = pos.parse_uci(uci).unwrap();
            pos.play(m).unwrap();
        }
        pos
    };
    let a = play(&["f2h3", "e8d8", "h3f2", "d8e8"]);
    let b = play(&["f2d3", "e8d8", "d3f2", "d8e8"]);
    assert_eq!(a, b);
    assert_eq!(a.fen(), b.fen());
}
