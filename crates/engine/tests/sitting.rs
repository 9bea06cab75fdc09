//! Sitting and partner talk on two-board positions.
//!
//! We are White on board A (team one, with Black on board B). Our opponent is Black on A; his
//! partner is White on B: what White captures on B goes into Black's reserve on A (F3.2).

use std::time::Duration;

use bughouse_core::{parse_bughouse_fen, Match, Role, Rules, Seat, TimeControl};
use bughouse_engine::{Action, Decision, Level, Limits, SearchConfig, Talk, TeamBot};

/// Board A: White's king on h1 cannot move (g1 by the bishop, g2 by the knight, h2 by the
/// pawn) and nothing White has can guard h2: with a queen in hand Black mates by Q@h2 after any
/// White move. Without it Black has nothing quick.
const QUEEN_THREAT_A: &str = "7k/6pp/8/2b5/5n2/6p1/PP6/R6K[] w - - 0 1";
/// Board B, White (the opponents' partner) to move: Nf3xg5 takes Black's queen for free, and
/// it would go to Black on board A.
const QUEEN_EN_PRISE_B: &str = "rnb1kbnr/pppp1ppp/8/4p1q1/4P3/5N2/PPPP1PPP/RNBQKB1R[] w KQkq - 0 1";

/// Board A: N@f7 would be a smothered mate (a knight check, mate under F3.7), but White holds
/// no knight.
const KNIGHT_MATE_A: &str = "6rk/6pp/8/8/8/1P6/P7/K7[] w - - 0 1";
/// Board B, Black (our partner) to move: exd4 takes a white knight for free, and it would come
/// to us.
const KNIGHT_EN_PRISE_B: &str = "rnbqkbnr/pppp1ppp/8/4p3/3N4/8/PPPPPPPP/R1BQKBNR[] b KQkq - 0 1";
/// Board B, Black to move, nothing to take.
const QUIET_B: &str = "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R[] b KQkq - 0 1";

const US: Seat = Seat::WHITE_A;

/// A started match from the two boards, with `ours` and `theirs` seconds left on board A.
fn setup(a: &str, b: &str, ours: u64, theirs: u64) -> Match {
    let rules = Rules::fide();
    let positions = parse_bughouse_fen(&format!("{a} | {b}"), rules).expect("valid FENs");
    let mut m = Match::from_positions(rules, TimeControl::default(), positions);
    m.start(Duration::ZERO).unwrap();
    m.set_remaining(Seat::WHITE_A, Duration::from_secs(ours));
    m.set_remaining(Seat::BLACK_A, Duration::from_secs(theirs));
    m
}

fn decide(m: &Match, bot: &mut TeamBot) -> Decision {
    bot.decide(m, US, Duration::ZERO, Limits::nodes(60_000))
}

fn assert_moves(m: &Match, d: &Decision) {
    match d.action {
        Action::Move(mv) => assert!(m.position(US.board).legal_moves().contains(&mv)),
        Action::Sit => panic!("sat: {d:?}"),
    }
}

#[test]
fn sits_when_every_move_loses_to_the_incoming_queen() {
    let m = setup(QUEEN_THREAT_A, QUEEN_EN_PRISE_B, 60, 30);
    let mut bot = TeamBot::new(Level::MAX, 1);
    let d = decide(&m, &mut bot);
    assert_eq!(d.action, Action::Sit, "{d:?}");
    assert!(d.recheck.is_some());
    assert!(d.talk.contains(&Talk::DontGive(Role::Queen)), "{d:?}");
}

#[test]
fn does_not_sit_behind_on_the_clock() {
    // The same danger, but our clock is behind: sitting would lose on time.
    let m = setup(QUEEN_THREAT_A, QUEEN_EN_PRISE_B, 20, 30);
    let mut bot = TeamBot::new(Level::MAX, 1);
    let d = decide(&m, &mut bot);
    assert_moves(&m, &d);
    assert!(d.talk.contains(&Talk::DontGive(Role::Queen)), "{d:?}");
}

#[test]
fn sits_for_the_knight_the_partner_is_about_to_capture() {
    let m = setup(KNIGHT_MATE_A, KNIGHT_EN_PRISE_B, 60, 30);
    let mut bot = TeamBot::new(Level::MAX, 1);
    let d = decide(&m, &mut bot);
    assert_eq!(d.action, Action::Sit, "{d:?}");
    assert!(d.talk.contains(&Talk::Need(Role::Knight)), "{d:?}");
    // Asked again while still sitting, it does not repeat itself.
    let again = bot.decide(&m, US, Duration::from_secs(1), Limits::nodes(60_000));
    assert_eq!(again.action, Action::Sit);
    assert!(!again.talk.contains(&Talk::Need(Role::Knight)), "{again:?}");
}

#[test]
fn moves_when_no_knight_is_coming() {
    // The control: the same mate wants a knight, but the partner cannot capture one now.
    let m = setup(KNIGHT_MATE_A, QUIET_B, 60, 30);
    let mut bot = TeamBot::new(Level::MAX, 1);
    let d = decide(&m, &mut bot);
    assert_moves(&m, &d);
}

#[test]
fn sitting_is_bounded() {
    // Sitting for the knight, the bot gives up sitting before its lead on the clock is gone.
    let m = setup(KNIGHT_MATE_A, KNIGHT_EN_PRISE_B, 60, 30);
    let mut bot = TeamBot::new(Level::MAX, 1);
    let mut now = Duration::ZERO;
    loop {
        let d = bot.decide(&m, US, now, Limits::nodes(20_000));
        if let Action::Move(_) = d.action {
            break;
        }
        now += d.recheck.expect("a sitting bot asks to be asked again");
        assert!(now < Duration::from_secs(20), "sat too long");
    }
    assert!(m.remaining(US, now) > m.remaining(US.opponent(), now));
}

#[test]
fn obeys_the_partner() {
    let m = setup(KNIGHT_MATE_A, QUIET_B, 60, 30);
    let mut bot = TeamBot::new(Level::MAX, 1);
    bot.hear(Talk::Sit);
    assert_eq!(decide(&m, &mut bot).action, Action::Sit);
    bot.hear(Talk::Go);
    assert_moves(&m, &decide(&m, &mut bot));
    // Behind on the clock, a request to sit is not obeyed.
    let behind = setup(KNIGHT_MATE_A, QUIET_B, 20, 30);
    bot.hear(Talk::Sit);
    assert_moves(&behind, &decide(&behind, &mut bot));
}

#[test]
fn a_need_request_prefers_that_capture() {
    // Two captures of equal worth for White on board A: the knight on c6 or the bishop on f6,
    // each by a pawn. The partner needs a knight.
    let a = "4k3/8/2n2b2/1P4P1/8/8/8/4K3[] w - - 0 1";
    let m = setup(a, QUIET_B, 60, 30);
    for (role, target) in [(Role::Knight, "b5c6"), (Role::Bishop, "g5f6")] {
        let mut bot = TeamBot::new(Level::MAX, 1);
        bot.hear(Talk::Need(role));
        let d = decide(&m, &mut bot);
        let Action::Move(mv) = d.action else {
            panic!("sat")
        };
        assert_eq!(mv.to_string(), target, "{role:?}");
    }
}

#[test]
fn sits_when_mated_whatever_it_does_while_time_is_left() {
    // The queen has already arrived: Q@h2 mates after any White move. A loss on time is no
    // worse, so the bot sits and leaves the partner time to win on board B.
    let a = "7k/6pp/8/2b5/5n2/6p1/PP6/R6K[q] w - - 0 1";
    let m = setup(a, QUIET_B, 20, 30);
    let mut bot = TeamBot::new(Level::MAX, 1);
    assert_eq!(decide(&m, &mut bot).action, Action::Sit);
    // With almost no time left it moves.
    let m = setup(a, QUIET_B, 1, 30);
    let mut bot = TeamBot::new(Level::MAX, 1);
    assert_moves(&m, &decide(&m, &mut bot));
    // With a second and a half: the default bot moves (it sits down to two seconds), the
    // team-clock bot sits on (down to one second, as Fairy-Stockfish does).
    let mut m = setup(a, QUIET_B, 20, 30);
    m.set_remaining(US, Duration::from_millis(1500));
    let mut bot = TeamBot::new(Level::MAX, 1);
    assert_moves(&m, &decide(&m, &mut bot));
    let mut bot = TeamBot::new(Level::MAX, 1);
    bot.set_search_config(SearchConfig::CLOCK);
    assert_eq!(decide(&m, &mut bot).action, Action::Sit);
}

#[test]
fn captures_what_a_waiting_partner_can_drop() {
    // Board B: our partner (Black) is in a back-rank rook check he could block only by a drop:
    // under F3.7 he waits for a piece, and his clock runs. On board A, Rxd5 costs us the
    // exchange but sends him a knight he can drop on the back rank; a pawn would be no use.
    let a = "4k3/8/2p5/3n4/8/8/1P6/3RK3[] w - - 0 1";
    let waiting_b = "R5k1/5ppp/8/8/8/8/8/6K1[] b - - 0 1";
    let m = setup(a, waiting_b, 60, 30);
    let mut bot = TeamBot::new(Level::MAX, 1);
    let Action::Move(mv) = decide(&m, &mut bot).action else {
        panic!("sat")
    };
    assert_eq!(mv.to_string(), "d1d5");
    // The control: with the partner free to move, the exchange is not given.
    let m = setup(a, QUIET_B, 60, 30);
    let mut bot = TeamBot::new(Level::MAX, 1);
    let Action::Move(mv) = decide(&m, &mut bot).action else {
        panic!("sat")
    };
    assert_ne!(mv.to_string(), "d1d5");
}

#[test]
fn race_sits_down_to_half_a_second_when_mated_whatever_it_does() {
    let a = "7k/6pp/8/2b5/5n2/6p1/PP6/R6K[q] w - - 0 1";
    let mut m = setup(a, QUIET_B, 20, 30);
    m.set_remaining(US, Duration::from_millis(800));
    let mut bot = TeamBot::new(Level::MAX, 1);
    bot.set_search_config(SearchConfig::CLOCK);
    assert_moves(&m, &decide(&m, &mut bot));
    let mut bot = TeamBot::new(Level::MAX, 1);
    bot.set_search_config(SearchConfig::RACE);
    assert_eq!(decide(&m, &mut bot).action, Action::Sit);
}

#[test]
fn the_low_floor_sits_down_to_a_third_of_a_second_when_mated_whatever_it_does() {
    let a = "7k/6pp/8/2b5/5n2/6p1/PP6/R6K[q] w - - 0 1";
    let mut m = setup(a, QUIET_B, 20, 30);
    m.set_remaining(US, Duration::from_millis(400));
    let mut bot = TeamBot::new(Level::MAX, 1);
    bot.set_search_config(SearchConfig::RACE);
    assert_moves(&m, &decide(&m, &mut bot));
    let mut bot = TeamBot::new(Level::MAX, 1);
    bot.set_search_config(SearchConfig::GUARD_FLOOR);
    assert_eq!(decide(&m, &mut bot).action, Action::Sit);
    m.set_remaining(US, Duration::from_millis(250));
    let mut bot = TeamBot::new(Level::MAX, 1);
    bot.set_search_config(SearchConfig::GUARD_FLOOR);
    assert_moves(&m, &decide(&m, &mut bot));
}

#[test]
fn race_asks_the_partner_to_sit_while_it_mates_by_force() {
    // N@f7 mates at once: the partner (Black on B, to move) is told to sit, as
    // Fairy-Stockfish tells its partner; the default bot says nothing of it.
    let a = "6rk/6pp/8/8/8/1P6/P7/K7[N] w - - 0 1";
    let m = setup(a, QUIET_B, 60, 30);
    let mut bot = TeamBot::new(Level::MAX, 1);
    bot.set_search_config(SearchConfig::RACE);
    let d = decide(&m, &mut bot);
    assert_moves(&m, &d);
    assert!(d.talk.contains(&Talk::Sit), "{d:?}");
    let mut bot = TeamBot::new(Level::MAX, 1);
    let d = decide(&m, &mut bot);
    assert!(!d.talk.contains(&Talk::Sit), "{d:?}");
}

#[test]
fn race_obeys_a_sit_only_when_ahead_of_both_opponents() {
    // Asked to sit, 60 s against our opponent's 30 s: the default bot sits; the race bot sits
    // too while the opponent across has less time than we do, and moves when he has more
    // (he may be sitting us out on board B).
    let mut m = setup(KNIGHT_MATE_A, QUIET_B, 60, 30);
    m.set_remaining(Seat::WHITE_B, Duration::from_secs(50));
    let mut bot = TeamBot::new(Level::MAX, 1);
    bot.set_search_config(SearchConfig::RACE);
    bot.hear(Talk::Sit);
    assert_eq!(decide(&m, &mut bot).action, Action::Sit);
    m.set_remaining(Seat::WHITE_B, Duration::from_secs(70));
    let mut bot = TeamBot::new(Level::MAX, 1);
    bot.set_search_config(SearchConfig::RACE);
    bot.hear(Talk::Sit);
    assert_moves(&m, &decide(&m, &mut bot));
    let mut bot = TeamBot::new(Level::MAX, 1);
    bot.hear(Talk::Sit);
    assert_eq!(decide(&m, &mut bot).action, Action::Sit);
}

#[test]
fn sit_only_racing_obeys_a_sit_only_while_the_partners_opponent_is_to_move() {
    // Asked to sit while our partner is to move himself (Black on board B): sitting would run
    // both our clocks and neither of theirs, so `sitracing` moves; the default sits.
    let m = setup(KNIGHT_MATE_A, QUIET_B, 60, 30);
    let mut bot = TeamBot::new(Level::MAX, 1);
    bot.set_search_config(SearchConfig::GUARD_SIT_RACING);
    bot.hear(Talk::Sit);
    assert_moves(&m, &decide(&m, &mut bot));
    let mut bot = TeamBot::new(Level::MAX, 1);
    bot.hear(Talk::Sit);
    assert_eq!(decide(&m, &mut bot).action, Action::Sit);
    // With the partner's opponent (White on board B) to move, it sits as asked.
    let their_turn = "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R[] w KQkq - 0 1";
    let m = setup(KNIGHT_MATE_A, their_turn, 60, 30);
    let mut bot = TeamBot::new(Level::MAX, 1);
    bot.set_search_config(SearchConfig::GUARD_SIT_RACING);
    bot.hear(Talk::Sit);
    assert_eq!(decide(&m, &mut bot).action, Action::Sit);
}

/// Board B, White (the opponents' partner, across from us) to move and in check from the rook
/// on a1: only a drop on b1..g1 would block it, and he holds nothing: he waits for a piece
/// (F3.7), which his partner, our opponent on board A, could only capture after a move of ours.
const WAITING_ACROSS_B: &str = "6k1/8/8/8/8/8/6PP/r6K[] w - - 0 1";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";

#[test]
fn starves_the_waiting_opponent_across_with_more_time_than_he_has() {
    let starve = SearchConfig {
        starve: true,
        ..SearchConfig::DEFAULT
    };
    let mut m = setup(START, WAITING_ACROSS_B, 50, 50);
    m.set_remaining(Seat::WHITE_B, Duration::from_secs(20));
    let mut bot = TeamBot::new(Level::MAX, 1);
    bot.set_search_config(starve);
    let d = decide(&m, &mut bot);
    assert_eq!(d.action, Action::Sit, "{d:?}");
    // Without the switch the bot moves.
    let mut bot = TeamBot::new(Level::MAX, 1);
    assert_moves(&m, &decide(&m, &mut bot));
    // With less time than the waiting player it moves too: his flag would not fall first.
    m.set_remaining(Seat::WHITE_B, Duration::from_secs(55));
    let mut bot = TeamBot::new(Level::MAX, 1);
    bot.set_search_config(starve);
    assert_moves(&m, &decide(&m, &mut bot));
}
