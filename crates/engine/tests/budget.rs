//! Time use: how long `TeamBot::budget` gives a move, from both boards' clocks.

use std::time::Duration;

use bughouse_core::{Match, Rules, Seat, TimeControl};
use bughouse_engine::{Level, SearchConfig, TeamBot};

const US: Seat = Seat::WHITE_A;

/// A started match at 1+0 with these seconds left: us, our opponent, our partner, and the
/// opponent across (our partner's opponent).
fn clocks(ours: u64, theirs: u64, partner: u64, across: u64) -> Match {
    let mut m = Match::new(Rules::fide(), TimeControl::default());
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
    assert!(!SearchConfig::BASE.team_clock);
    assert!(!SearchConfig::DROPS.team_clock);
    assert_eq!(SearchConfig::named("default"), Some(SearchConfig::DEFAULT));
}

#[test]
fn team_clock_thinks_less_per_move_when_level() {
    let m = clocks(40, 40, 40, 40);
    let old = bot(SearchConfig::DROPS).budget(&m, US, Duration::ZERO);
    let new = bot(SearchConfig::CLOCK).budget(&m, US, Duration::ZERO);
    assert!(new < old, "{new:?} vs {old:?}");
    // A fortieth of the time left, against a thirtieth.
    assert!(
        new >= Duration::from_millis(900) && new <= Duration::from_millis(1000),
        "{new:?}"
    );
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
