//! BPGN/PGN reading and replaying: no panic on any bytes, under default rules and knsb-1988.
//! Bughouse records that replay are written back as BPGN, read and replayed again.
#![no_main]

use bughouse_bpgn::{read_games, replay, replay_bughouse, write_bpgn};
use bughouse_core::Rules;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for record in read_games(data).take(16).flatten() {
        let _ = replay(&record, None);
        let _ = replay(&record, Some(Rules::knsb_1988()));
        if !record.bughouse {
            continue;
        }
        for rules in [Rules::fide(), Rules::knsb_1988()] {
            let Ok(game) = replay_bughouse(&record, rules) else {
                continue;
            };
            let text = write_bpgn(&game, &record.tags);
            for again in read_games(text.as_bytes()).flatten() {
                let _ = replay(&again, Some(rules));
            }
        }
    }
});
