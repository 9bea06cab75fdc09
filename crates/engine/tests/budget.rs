//! Time use: how long `TeamBot::budget` gives a move, from both boards' clocks.

use std::time::Duration;

use bughouse_core::{Match, Rules, Seat, TimeControl};
use bughouse_engine::{Level, SearchConfig, TeamBot};

const US: Seat = Seat::WHITE_A;

/// A started match at 1+0 with these seconds left: us, our opponent, our partner, and the
/// opponent across (our partner's opponent).
fn clocks(ours: u64, theirs: u64, partner: u64, across: u64) -> Match {
    let one_minute = TimeControl {
        base: Duration::from_secs(60),
        increment: Duration::ZERO,
    };
    let mut m = Match::new(Rules::fide(), one_minute);
    m.start(Duration::ZERO).unwrap();
    m.set_remaining(US, Duration::from_secs(ours));
    m.set_remaining(US.opponent(), Duration::from_secs(theirs));
    m.set_remaining(US.partner(), Duration::from_secs(partner));
    m.set_remaining(US.partner().opponent(), Duration::from_secs(across));
    m
}

fn bot(config: SearchConfig) -> TeamBot {
    let mut bot = TeamBot::new(Level::MAX, 1);
    bot.set_search_config(config);
    bot
}

#[test]
fn the_clock_switch_is_named() {
    assert!(SearchConfig::named("clock").unwrap().team_clock);
    for name in ["base", "drops", "strong", "default"] {
        assert!(!SearchConfig::named(name).unwrap().team_clock, "{name}");
    }
    assert_eq!(SearchConfig::named("default"), Some(SearchConfig::DEFAULT));
}

#[test]
fn team_clock_thinks_as_before_when_level_or_ahead() {
    for (ours, theirs) in [(40, 40), (40, 30)] {
        let m = clocks(ours, theirs, 40, theirs);
        let old = bot(SearchConfig::DROPS).budget(&m, US, Duration::ZERO);
        let new = bot(SearchConfig::CLOCK).budget(&m, US, Duration::ZERO);
        assert_eq!(new, old);
    }
}

#[test]
fn team_clock_catches_up_harder() {
    // A fifth behind our own opponent: (4/5)² of the usual time before, (4/5)⁴ now.
    let m = clocks(40, 50, 40, 40);
    let old = bot(SearchConfig::DROPS).budget(&m, US, Duration::ZERO);
    let new = bot(SearchConfig::CLOCK).budget(&m, US, Duration::ZERO);
    let ratio = new.as_secs_f64() / old.as_secs_f64();
    assert!((ratio - 0.64).abs() < 0.01, "{new:?} vs {old:?}");
}

#[test]
fn team_clock_catches_up_with_the_opponent_across() {
    // Level with our own opponent, ten seconds behind the one across: he could sit us out.
    let behind = clocks(30, 30, 30, 40);
    let level = clocks(30, 30, 30, 30);
    let clock = bot(SearchConfig::CLOCK);
    assert!(clock.budget(&behind, US, Duration::ZERO) < clock.budget(&level, US, Duration::ZERO));
    // Without the switch only our own board's opponent counts.
    let drops = bot(SearchConfig::DROPS);
    assert_eq!(
        drops.budget(&behind, US, Duration::ZERO),
        drops.budget(&level, US, Duration::ZERO)
    );
}

#[test]
fn at_ten_seconds_a_partner_is_not_always_short_of_time() {
    // 10s+0, all four clocks at 8 s: the partner is "short of time" below 15 s by the fixed
    // rule (a 40% cut at every move of the match), below a quarter of the base with the
    // team's clocks.
    let tc = TimeControl {
        base: Duration::from_secs(10),
        increment: Duration::ZERO,
    };
    let mut m = Match::new(Rules::fide(), tc);
    m.start(Duration::ZERO).unwrap();
    for seat in [US, US.opponent(), US.partner(), US.partner().opponent()] {
        m.set_remaining(seat, Duration::from_secs(8));
    }
    let old = bot(SearchConfig::DROPS).budget(&m, US, Duration::ZERO);
    let new = bot(SearchConfig::CLOCK).budget(&m, US, Duration::ZERO);
    let ratio = old.as_secs_f64() / new.as_secs_f64();
    assert!((ratio - 0.6).abs() < 0.01, "{old:?} vs {new:?}");
}

#[test]
fn race_is_named_and_keeps_the_team_clock() {
    let race = SearchConfig::named("race").unwrap();
    assert!(race.race && race.team_clock);
    for name in ["base", "drops", "clock", "strong", "default"] {
        assert!(!SearchConfig::named(name).unwrap().race, "{name}");
    }
}

#[test]
fn race_thinks_a_fiftieth_and_less_in_the_opening() {
    // Level clocks, move 1: a fiftieth instead of a thirtieth, times 0.7 in the opening.
    let m = clocks(40, 40, 40, 40);
    let clock = bot(SearchConfig::CLOCK).budget(&m, US, Duration::ZERO);
    let race = bot(SearchConfig::RACE).budget(&m, US, Duration::ZERO);
    let ratio = race.as_secs_f64() / clock.as_secs_f64();
    assert!(
        (ratio - 0.7 * 30.0 / 50.0).abs() < 0.01,
        "{race:?} vs {clock:?}"
    );
    // Past the opening: a fiftieth.
    let rules = Rules::fide();
    let later = "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] w KQkq - 0 12";
    let quiet = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
    let positions =
        bughouse_core::parse_bughouse_fen(&format!("{later} | {quiet}"), rules).unwrap();
    let mut m = Match::from_positions(rules, TimeControl::default(), positions);
    m.start(Duration::ZERO).unwrap();
    let clock = bot(SearchConfig::CLOCK).budget(&m, US, Duration::ZERO);
    let race = bot(SearchConfig::RACE).budget(&m, US, Duration::ZERO);
    let ratio = race.as_secs_f64() / clock.as_secs_f64();
    assert!((ratio - 30.0 / 50.0).abs() < 0.01, "{race:?} vs {clock:?}");
}

/// The budget of `config` over `guard`'s at move 1 with level clocks.
fn first_move_ratio_to_guard(config: SearchConfig) -> f64 {
    let m = clocks(40, 40, 40, 40);
    let guard = bot(SearchConfig::GUARD).budget(&m, US, Duration::ZERO);
    bot(config).budget(&m, US, Duration::ZERO).as_secs_f64() / guard.as_secs_f64()
}

#[test]
fn guardlean_thinks_as_race_does_without_its_team_clock() {
    let lean = SearchConfig::GUARD_LEAN;
    assert!(lean.lean_time && !lean.race && !lean.team_clock);
    // In the opening: 0.7 of a fiftieth instead of a thirtieth.
    let ratio = first_move_ratio_to_guard(lean);
    assert!((ratio - 0.7 * 30.0 / 50.0).abs() < 0.01, "{ratio}");
}

#[test]
fn guardlong_thinks_a_twentieth() {
    let ratio = first_move_ratio_to_guard(SearchConfig::GUARD_LONG);
    assert!((ratio - 30.0 / 20.0).abs() < 0.01, "{ratio}");
}

/// A match just started at `base` seconds a player, no increment, every clock full.
fn fresh(base: u64) -> Match {
    let tc = TimeControl {
        base: Duration::from_secs(base),
        increment: Duration::ZERO,
    };
    let mut m = Match::new(Rules::fide(), tc);
    m.start(Duration::ZERO).unwrap();
    m
}

#[test]
fn relative_clock_thresholds_change_nothing_at_a_minute_and_free_time_at_ten_seconds() {
    let rel = SearchConfig::named("guardsir").unwrap();
    assert!(rel.relative_clock && !rel.team_clock);
    let si = SearchConfig::named("guardsi").unwrap();
    let at = |config, base| bot(config).budget(&fresh(base), US, Duration::ZERO);
    // At 1+0 the thresholds are the fixed 10, 15 and 20 s.
    assert_eq!(at(rel, 60), at(si, 60));
    // At 10s+0 a partner with 10 s is short of time under the fixed 15 s (0.6 of the
    // budget), not under a quarter of the base.
    let ratio = at(rel, 10).as_secs_f64() / at(si, 10).as_secs_f64();
    assert!((ratio - 1.0 / 0.6).abs() < 0.01, "{ratio}");
}

#[test]
fn pace_reads_the_budget_from_a_few_seconds_plus_the_lead_on_the_faster_opponent() {
    let pace = SearchConfig::named("pace").unwrap();
    assert!(pace.pace == Some(Duration::from_secs(8)) && SearchConfig::DEFAULT.pace.is_none());
    let at = |config, m: &Match| bot(config).budget(m, US, Duration::ZERO).as_secs_f64();
    // Level clocks at 40 s: read as 8 s left, not 40.
    let level = clocks(40, 40, 40, 40);
    let ratio = at(pace, &level) / at(SearchConfig::GUARD, &level);
    assert!((ratio - 8.0 / 40.0).abs() < 0.01, "{ratio}");
    // Ten seconds ahead of both opponents: 8 + 10 s.
    let ahead = clocks(40, 30, 40, 30);
    let ratio = at(pace, &ahead) / at(pace, &level);
    assert!((ratio - 18.0 / 8.0).abs() < 0.01, "{ratio}");
    // Ahead of our opponent only: the opponent across, who could sit against us, counts.
    let across = clocks(40, 30, 40, 40);
    assert_eq!(at(pace, &across), at(pace, &level));
    // Below the cap (6 s left, as all through a 10 s game) nothing changes.
    let short = clocks(6, 6, 6, 6);
    assert_eq!(at(pace, &short), at(SearchConfig::GUARD, &short));
    // `pacewide`: the same rule from 20 s.
    let wide = SearchConfig::named("pacewide").unwrap();
    let ratio = at(wide, &level) / at(SearchConfig::GUARD, &level);
    assert!((ratio - 20.0 / 40.0).abs() < 0.01, "{ratio}");
    let ratio = at(wide, &ahead) / at(wide, &level);
    assert!((ratio - 30.0 / 20.0).abs() < 0.01, "{ratio}");
}

#[test]
fn sitpace_keeps_pace_only_while_the_opponents_can_sit() {
    let sitpace = SearchConfig::named("sitpace").unwrap();
    assert!(sitpace.pace.is_none() && sitpace.pace_sitters == Some(Duration::from_secs(8)));
    assert_eq!(SearchConfig::DEFAULT, sitpace);
    let pace = SearchConfig::named("pace").unwrap();
    let at = |config, sit: bool, m: &Match| {
        let mut b = bot(config);
        b.set_opponents_sit(sit);
        b.budget(m, US, Duration::ZERO)
    };
    for m in [
        clocks(40, 40, 40, 40),
        clocks(40, 30, 40, 30),
        clocks(40, 30, 40, 50),
    ] {
        // Opponents who sit (the default): as `pace`.
        assert_eq!(at(sitpace, true, &m), at(pace, true, &m));
        assert_eq!(
            bot(sitpace).budget(&m, US, Duration::ZERO),
            at(pace, true, &m)
        );
        // Opponents who never sit: as the default.
        assert_eq!(at(sitpace, false, &m), at(SearchConfig::GUARD, false, &m));
    }
    // The two differ where pace matters: level clocks at 40 s.
    let level = clocks(40, 40, 40, 40);
    assert!(at(sitpace, true, &level) < at(sitpace, false, &level));
    // `pace` itself does not ask.
    assert_eq!(at(pace, false, &level), at(pace, true, &level));
    // At 5+0 the cap is 40 s, not 8: a fresh clock of 300 s reads as 40 s left.
    let five = fresh(300);
    let ratio = at(sitpace, true, &five).as_secs_f64() / at(sitpace, false, &five).as_secs_f64();
    assert!((ratio - 40.0 / 300.0).abs() < 0.01, "{ratio}");
}

#[test]
fn guardshort_thinks_a_twentieth_below_a_minute_only() {
    let short = SearchConfig::named("guardshort").unwrap();
    assert!(short.short_long_time && short.relative_clock && !short.long_time);
    assert!(!SearchConfig::named("default").unwrap().short_long_time);
    let at = |config, base| bot(config).budget(&fresh(base), US, Duration::ZERO);
    // At one minute it thinks as the default does (above a minute only its relative
    // thresholds differ, and not with every clock full).
    assert_eq!(at(short, 60), at(SearchConfig::GUARD, 60));
    assert_eq!(at(short, 180), at(SearchConfig::GUARD, 180));
    // At 10s+0: a twentieth instead of a thirtieth, and no longer cut to 0.6 for a partner
    // "short of time" under the fixed 15 s.
    let ratio = at(short, 10).as_secs_f64() / at(SearchConfig::GUARD, 10).as_secs_f64();
    assert!((ratio - 30.0 / 20.0 / 0.6).abs() < 0.01, "{ratio}");
}

/// A started 1+0 match in which, on board B, the opponent across (White B) moved at 5 s and
/// 20 s and our partner (Black B) at 10 s and 21 s, and on board A our opponent replied at 14 s
/// to our move at 12 s: since 21 s the opponent across is to move, and since 14 s we are. Then
/// our stored time is `ours` and his `across` (both clocks run from there).
fn across_to_move(ours: u64, across: u64) -> Match {
    let one_minute = TimeControl {
        base: Duration::from_secs(60),
        increment: Duration::ZERO,
    };
    let mut m = Match::new(Rules::fide(), one_minute);
    let s = Duration::from_secs;
    m.start(Duration::ZERO).unwrap();
    let play = |m: &mut Match, seat: Seat, uci: &str, at: u64| {
        let mv = m.position(seat.board).parse_uci(uci).unwrap();
        m.play(seat, mv, s(at)).unwrap();
    };
    let across_seat = US.partner().opponent();
    play(&mut m, across_seat, "e2e4", 5);
    play(&mut m, US.partner(), "e7e5", 10);
    play(&mut m, US, "e2e4", 12);
    play(&mut m, US.opponent(), "e7e5", 14);
    play(&mut m, across_seat, "g1f3", 20);
    play(&mut m, US.partner(), "b8c6", 21);
    m.set_remaining(US, s(ours));
    m.set_remaining(across_seat, s(across));
    m
}

#[test]
fn sitout_hastes_against_a_sitter_across_only() {
    let sitout = SearchConfig::named("sitout").unwrap();
    assert!(sitout.sit_out && !SearchConfig::DEFAULT.sit_out);
    let s = Duration::from_secs;
    let at = |config, m: &Match, now| bot(config).budget(m, US, now).as_secs_f64();
    let m = across_to_move(40, 40);
    // Held 2 s: a think, not a sit (a twentieth of a minute is 3 s): nothing changes.
    assert_eq!(at(sitout, &m, s(23)), at(SearchConfig::GUARD, &m, s(23)));
    // Held 4 s: he sits, and our budget is a fifth of the default's.
    let ratio = at(sitout, &m, s(25)) / at(SearchConfig::GUARD, &m, s(25));
    assert!((ratio - 0.2).abs() < 0.01, "{ratio}");
    // Our partner to move on board B (no sitter there): nothing changes.
    let mut partner_to_move = across_to_move(40, 40);
    let mv = partner_to_move
        .position(US.partner().board)
        .parse_uci("b1c3")
        .unwrap();
    partner_to_move
        .play(US.partner().opponent(), mv, s(22))
        .unwrap();
    assert_eq!(
        at(sitout, &partner_to_move, s(30)),
        at(SearchConfig::GUARD, &partner_to_move, s(30))
    );
}

#[test]
fn sitout_sits_out_a_sitter_across_with_more_time_than_he_has() {
    use bughouse_engine::{Action, Limits};
    let s = Duration::from_secs;
    let decide = |config, m: &Match, now| {
        let mut bot = bot(config);
        bot.decide(m, US, now, Limits::nodes(2_000)).action
    };
    let sitout = SearchConfig::named("sitout").unwrap();
    // At 25 s he has held his move 4 s: we have 40 - 11 = 29 s left, he 20 - 4 = 16 s.
    let ahead = across_to_move(40, 20);
    assert_eq!(decide(sitout, &ahead, s(25)), Action::Sit);
    // The default plays on (the opening gives it no other reason to sit).
    assert!(matches!(
        decide(SearchConfig::GUARD, &ahead, s(25)),
        Action::Move(_)
    ));
    // He has held it only 2 s: a think, we move.
    assert!(matches!(decide(sitout, &ahead, s(23)), Action::Move(_)));
    // Behind him on the clock (9 s against 36 s): we cannot outlast him, we move (fast).
    let behind = across_to_move(20, 40);
    assert!(matches!(decide(sitout, &behind, s(25)), Action::Move(_)));
}

#[test]
fn quickopen_thinks_a_quarter_in_a_quiet_opening_only() {
    let quick = SearchConfig::named("quickopen").unwrap();
    assert!(quick.quick_open && !SearchConfig::DEFAULT.quick_open);
    let at = |config, m: &Match| bot(config).budget(m, US, Duration::ZERO).as_secs_f64();
    // The first move, nothing in hand: a quarter of the default's budget.
    let m = clocks(60, 60, 60, 60);
    let ratio = at(quick, &m) / at(SearchConfig::GUARD, &m);
    assert!((ratio - 0.25).abs() < 0.01, "{ratio}");
    // Our partner took a pawn on board B: a pawn in hand on our board, and the default's time.
    let mut m = clocks(60, 60, 60, 60);
    let s = Duration::from_secs;
    let b = US.partner().board;
    for (i, uci) in ["e2e4", "d7d5", "e4d5"].iter().enumerate() {
        let seat = m.to_move(b);
        let mv = m.position(b).parse_uci(uci).unwrap();
        m.play(seat, mv, s(i as u64 + 1)).unwrap();
    }
    assert!(!m.position(US.board).reserves().iter().all(|r| r.is_empty()));
    assert_eq!(at(quick, &m), at(SearchConfig::GUARD, &m));
    // Past the eighth move of our board: the default's time.
    let mut m = clocks(60, 60, 60, 60);
    for file in "abcdefgh".chars() {
        for uci in [format!("{file}2{file}3"), format!("{file}7{file}6")] {
            let seat = m.to_move(US.board);
            let mv = m.position(US.board).parse_uci(&uci).unwrap();
            m.play(seat, mv, s(0)).unwrap();
        }
    }
    assert_eq!(m.position(US.board).fullmoves(), 9);
    assert_eq!(at(quick, &m), at(SearchConfig::GUARD, &m));
}
