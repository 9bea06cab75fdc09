//! Draw claims: F4.1 repetition, K11F 30 moves, refused where the rulebook has none; the
//! arbiter's ruling and the end of the match: M10.3, K15, U18, F3.12; F4.3, M5.1, U7, K11G.

use super::flags::one_flag_of_each_team;
use super::*;

#[test]
fn fide_f4_1_repetition_by_the_arbiter_or_the_moves() {
    let mut t = started(Rulebook::Fide, 300);
    let c = claim(Claim::Repetition {
        claimant: Seat::WHITE_A,
    });
    assert_eq!(
        go(&mut t, c, 500),
        vec![d(Article::F4_1, Consequence::ArbiterDecides)]
    );
    let none = EngineFacts::default();
    assert_eq!(
        go_with(&mut t, c, 600, &none),
        vec![refused(Article::F4_1, Refusal::NotEstablished)]
    );
    let fourfold = EngineFacts {
        draw_claims: [vec![DrawClaim::Repetition], vec![]],
        ..EngineFacts::default()
    };
    // Only the player on move claims (as FIDE 9.2).
    let off_move = claim(Claim::Repetition {
        claimant: Seat::BLACK_A,
    });
    assert_eq!(
        go_with(&mut t, off_move, 700, &fourfold),
        vec![refused(Article::F4_1, Refusal::NotEstablished)]
    );
    assert_eq!(
        go_with(&mut t, c, 800, &fourfold)[0],
        d(Article::F4_1, Consequence::Draw { board: BoardId::A })
    );
}

#[test]
fn knsb_k11f_thirty_moves_by_the_arbiter_or_the_moves() {
    let mut t = started(Rulebook::Knsb1988, 300);
    let c = claim(Claim::MoveCount {
        claimant: Seat::BLACK_B,
    });
    assert_eq!(
        go(&mut t, c, 500),
        vec![d(Article::K11F, Consequence::ArbiterDecides)]
    );
    let thirty = EngineFacts {
        draw_claims: [vec![], vec![DrawClaim::MoveCount]],
        ..EngineFacts::default()
    };
    // Either player of the game claims (K11F).
    assert_eq!(
        go_with(&mut t, c, 600, &thirty)[0],
        d(Article::K11F, Consequence::Draw { board: BoardId::B })
    );
}

#[test]
fn all_draw_claims_refused_where_the_rulebook_has_none() {
    let rep = claim(Claim::Repetition {
        claimant: Seat::WHITE_A,
    });
    let count = claim(Claim::MoveCount {
        claimant: Seat::WHITE_A,
    });
    for (book, event, article) in [
        (Rulebook::Minerva2014, rep, Article::M5_4),
        (Rulebook::Knsb1988, rep, Article::K11),
        (Rulebook::UscfScholastic2006, rep, Article::U16),
        (Rulebook::Fide, count, Article::F4),
        (Rulebook::Minerva2014, count, Article::M5_4),
        (Rulebook::UscfScholastic2006, count, Article::U16),
    ] {
        let mut t = started(book, 300);
        assert_eq!(
            go(&mut t, event, 500),
            vec![refused(article, Refusal::NotInRulebook)],
            "{book}"
        );
    }
}

#[test]
fn all_arbiter_ruling_names_the_arbiter_article_and_ends_the_match_by_rulebook() {
    for (book, article, end) in [
        (Rulebook::Fide, Article::F3_12, Some(Article::F4_3)),
        (Rulebook::Minerva2014, Article::M10_3, Some(Article::M5_1)),
        (Rulebook::Knsb1988, Article::K15, None),
        (
            Rulebook::UscfScholastic2006,
            Article::U18,
            Some(Article::U7),
        ),
    ] {
        let mut t = started(book, 300);
        let ruling = Event::Ruling {
            board: BoardId::A,
            ruling: Ruling::Draw,
        };
        let got = go(&mut t, ruling, 1000);
        assert_eq!(
            got[0],
            d(article, Consequence::Draw { board: BoardId::A }),
            "{book}"
        );
        assert_eq!(
            got.get(1).map(|x| x.article),
            end,
            "{book}: the match ends with the first game unless K11G"
        );
        if end.is_none() {
            assert_eq!(
                go(&mut t, ruling, 1100),
                vec![refused(Article::K15, Refusal::GameOver)]
            );
        }
    }
}

#[test]
fn all_every_claim_and_flag_is_in_the_record_with_its_time() {
    let mut t = one_flag_of_each_team(Rulebook::Knsb1988);
    go(&mut t, flag(Seat::BLACK_A), 3000);
    let kinds: Vec<(Duration, String)> = t
        .record()
        .iter()
        .map(|e| (e.at, format!("{:?}", e.kind)))
        .collect();
    assert_eq!(kinds.len(), 6, "{kinds:?}");
    assert_eq!(kinds[3].0, ms(2000), "White B's flag: {kinds:?}");
    assert_eq!(kinds[4].0, ms(2500), "White A's flag: {kinds:?}");
    assert_eq!(kinds[5].0, ms(3000), "the claim: {kinds:?}");
    assert_eq!(Article::from_code("K11A2"), Some(Article::K11A2));
    for a in Article::ALL {
        assert_eq!(Article::from_code(a.code()), Some(a));
    }
}
