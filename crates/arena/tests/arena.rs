//! The arena as a library: a match between our bots played in virtual time, its record, and
//! outside engines that cannot play turned into errors (the `bughouse arena` tests of
//! crates/cli run fake and real engines through the binary).

use std::path::Path;

use bughouse_arena::uci::UciEngine;
use bughouse_arena::xboard::XboardEngine;
use bughouse_arena::{Config, EngineError, Spec, UCI_VARIANT};
use bughouse_core::{Preset, Team, TimeControl};
use bughouse_engine::Level;

fn bots() -> Config {
    Config {
        team1: Spec::bot(Level::new(1).expect("level 1")),
        team2: Spec::bot(Level::DEFAULT),
        time: "10s+0".parse::<TimeControl>().expect("a time control"),
        rules: Preset::Fide,
        seed: 7,
    }
}

#[test]
fn seats_alternate_between_matches() {
    let config = bots();
    let (first, specs) = config.seating(1);
    assert_eq!(first, Team::One);
    assert_eq!(specs[0], &config.team1, "team1 is WhiteA in match 1");
    let (second, specs) = config.seating(2);
    assert_eq!(second, Team::Two);
    assert_eq!(specs[0], &config.team2, "team2 is WhiteA in match 2");
}

#[test]
fn a_match_of_bots_ends_and_its_record_replays() {
    let config = bots();
    config.check_engines().expect("bots need no engine");
    let played = config.play(1, &|line| panic!("no failure expected: {line}"));
    assert!(played.game.is_over(), "{}", played.reason());
    assert_eq!(played.team1_points() + played.team2_points(), 1.0);
    let bpgn = played.bpgn(&config);
    assert!(bpgn.contains("[WhiteA \"bot:1\"]"), "{bpgn}");
    let record = bughouse_bpgn::read_games(bpgn.as_bytes())
        .next()
        .expect("one game")
        .expect("it reads");
    bughouse_bpgn::replay(&record, Some(Preset::Fide.rules())).expect("it replays");
    assert_eq!(record.moves.len(), played.plies());
}

#[test]
fn an_engine_that_cannot_start_is_a_start_error() {
    let path = Path::new("/nonexistent/engine");
    let err = UciEngine::start(path, UCI_VARIANT)
        .err()
        .expect("no engine");
    assert!(matches!(err, EngineError::Start { .. }), "{err:?}");
    assert!(err
        .to_string()
        .starts_with("cannot start the engine: /nonexistent/engine: "));
    let err = XboardEngine::start(path, UCI_VARIANT)
        .err()
        .expect("no engine");
    assert!(matches!(err, EngineError::Start { .. }), "{err:?}");
    let config = Config {
        team2: Spec::uci(path),
        ..bots()
    };
    let err = config.check_engines().expect_err("team2 cannot play");
    assert_eq!(err.team, "team2");
    assert!(err
        .to_string()
        .starts_with("team2 (uci:/nonexistent/engine): cannot start the engine: "));
}

#[test]
fn an_engine_that_exits_at_once_died() {
    // `true` starts, answers nothing and exits: the handshake sees it die.
    let Some(path) = ["/bin/true", "/usr/bin/true"]
        .into_iter()
        .map(Path::new)
        .find(|p| p.exists())
    else {
        return;
    };
    for err in [
        UciEngine::start(path, UCI_VARIANT).err(),
        XboardEngine::start(path, UCI_VARIANT).err(),
    ] {
        assert!(matches!(err, Some(EngineError::Died)), "{err:?}");
    }
}
