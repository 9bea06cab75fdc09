//! Every game of the real archives in `../shared/data` replays without a failure, and BPGN
//! written from a replayed match reads back as the same game.

use bughouse_bpgn::{read_games, replay, replay_bughouse, write_bpgn, ReplayResult};
use bughouse_core::Rules;

mod common;
use common::data;

const BPGN: [&str; 4] = [
    "bpgn/fics-2005.bpgn",
    "bpgn/bughousedb-2014-2022.bpgn",
    "bpgn/bughousedb-2020.bpgn",
    "bpgn/engine-selfplay.bpgn",
];

const PGN: [&str; 4] = [
    "crazyhouse/fics-2001-2200plus.pgn",
    "crazyhouse/ficsgamesdb-2011.pgn",
    "crazyhouse/ficsgamesdb-2013-2015.pgn",
    "crazyhouse/lichess.pgn",
];

fn replay_all(name: &str) -> Vec<ReplayResult> {
    let bytes = data(name);
    let mut results = Vec::new();
    let mut errors = Vec::new();
    for (i, game) in read_games(&bytes).enumerate() {
        match game {
            Ok(game) => match replay(&game, None) {
                Ok(r) => results.push(r),
                Err(e) => errors.push(format!("{name}:{}: {e}", i + 1)),
            },
            Err(e) => errors.push(format!("{name}:{}: {e}", i + 1)),
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    results
}

#[test]
fn bpgn_archives_replay() {
    let counts: Vec<usize> = BPGN.iter().map(|n| replay_all(n).len()).collect();
    assert_eq!(counts, [14, 5, 1, 18]);
}

#[test]
fn crazyhouse_archives_replay() {
    let counts: Vec<usize> = PGN.iter().map(|n| replay_all(n).len()).collect();
    assert_eq!(counts, [1291, 6, 83, 3]);
}

#[test]
fn written_bpgn_reads_back_as_the_same_game() {
    for name in BPGN {
        let bytes = data(name);
        for game in read_games(&bytes) {
            let game = game.expect("readable");
            let replayed = replay_bughouse(&game, Rules::fide()).expect("replays");
            let tags: Vec<(String, String)> = game
                .tags
                .iter()
                .filter(|(k, _)| k != "Result")
                .cloned()
                .collect();
            let text = write_bpgn(&replayed, &tags);
            let back: Vec<_> = read_games(text.as_bytes()).collect();
            assert_eq!(back.len(), 1, "{text}");
            let back = back[0].as_ref().expect("written BPGN reads back");
            let again = replay_bughouse(back, Rules::fide()).expect("written BPGN replays");
            assert_eq!(again.record().len(), replayed.record().len());
            for (x, y) in again.record().iter().zip(replayed.record()) {
                assert_eq!((x.seat, x.mv, &x.san), (y.seat, y.mv, &y.san));
            }
            for (x, y) in back.moves.iter().zip(replayed.record()) {
                assert_eq!(x.clock, Some(y.clock_left), "{text}");
            }
            assert_eq!(again.result(), replayed.result());
            for (k, v) in &tags {
                assert_eq!(back.tag(k), Some(v.as_str()), "tag {k}");
            }
        }
    }
}
