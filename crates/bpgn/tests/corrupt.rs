//! Corrupt input never panics the reader or the replay: pieces of the real archives in
//! `../shared/data`, cut, with bytes flipped, deleted and doubled, and with notation tokens
//! (move numbers, drops, comments, clocks, variations, results, tags) spliced in at random
//! places, are read and replayed; every game is either a record that replays or an error
//! that names a line inside the input.

use bughouse_bpgn::{read_games, replay, Record};
use proptest::prelude::*;

mod common;
use common::data;

const FILES: [&str; 5] = [
    "bpgn/fics-2005.bpgn",
    "bpgn/bughousedb-2014-2022.bpgn",
    "bpgn/bughousedb-2020.bpgn",
    "bpgn/engine-selfplay.bpgn",
    "crazyhouse/fics-2001-2200plus.pgn",
];

/// Pieces of notation that readers trip over.
const TOKENS: [&str; 40] = [
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "\"",
    "\\",
    ";",
    "%",
    "$",
    "*",
    ".",
    "...",
    "1A.",
    "99b.",
    "0a.",
    "1-0",
    "0-1",
    "1/2-1/2",
    "P@",
    "N@h8",
    "Q@a1",
    "@",
    "O-O",
    "O-O-O",
    "0-0",
    "e8=Q",
    "exd8=N+",
    "Kxe1#",
    "{12.5}",
    "{-3}",
    "{99999999999999999999}",
    "[Event \"",
    "[TimeControl \"0+0\"]",
    "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]",
    "[Variant \"crazyhouse\"]",
    "\n\n",
    "\u{e9}",
    "\0",
];

/// A small generator of its own, so that one `u64` case seed stands for a whole corruption.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// A window of one archive with `edits` random corruptions.
fn corrupt(files: &[Vec<u8>], seed: u64, edits: usize) -> Vec<u8> {
    let mut rng = Rng(seed);
    let file = &files[rng.below(files.len())];
    let len = 200 + rng.below(6000);
    let start = rng.below(file.len().saturating_sub(len));
    let mut bytes = file[start..(start + len).min(file.len())].to_vec();
    for _ in 0..edits {
        let at = rng.below(bytes.len() + 1);
        match rng.below(6) {
            0 if at < bytes.len() => bytes[at] = rng.next() as u8,
            1 if at < bytes.len() => {
                let n = 1 + rng.below(40).min(bytes.len() - at - 1);
                bytes.drain(at..at + n);
            }
            2 if at < bytes.len() => {
                let n = 1 + rng.below(40).min(bytes.len() - at - 1);
                let copy = bytes[at..at + n].to_vec();
                bytes.splice(at..at, copy);
            }
            3 => bytes.truncate(at),
            _ => {
                let token = TOKENS[rng.below(TOKENS.len())].as_bytes();
                bytes.splice(at..at, token.iter().copied());
            }
        }
    }
    bytes
}

fn lines(bytes: &[u8]) -> usize {
    1 + bytes.iter().filter(|&&b| b == b'\n').count()
}

fn check(bytes: &[u8]) -> Result<(), TestCaseError> {
    let last_line = lines(bytes);
    for game in read_games(bytes).take(1000) {
        match game {
            Ok(record) => check_record(&record, last_line)?,
            Err(e) => {
                prop_assert!(
                    (1..=last_line).contains(&e.line),
                    "error on line {} of {last_line}: {e}",
                    e.line
                );
                prop_assert!(!e.message.is_empty());
            }
        }
    }
    Ok(())
}

fn check_record(record: &Record, last_line: usize) -> Result<(), TestCaseError> {
    if let Err(e) = replay(record, None) {
        prop_assert!(
            e.line <= last_line,
            "replay error on line {} of {last_line}: {e}",
            e.line
        );
        prop_assert!(!e.message.is_empty());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn corrupt_archives_read_and_replay_without_panic(seed in any::<u64>(), edits in 0usize..12) {
        let files: Vec<Vec<u8>> = FILES.iter().map(|f| data(f)).collect();
        let bytes = corrupt(&files, seed, edits);
        check(&bytes)?;
    }
}

#[test]
fn many_corruptions_of_each_archive() {
    // A fixed sweep besides the random cases above: every archive, many seeds, so that a
    // panic found once stays found.
    let files: Vec<Vec<u8>> = FILES.iter().map(|f| data(f)).collect();
    for seed in 0..1500u64 {
        let bytes = corrupt(&files, seed, 1 + (seed % 8) as usize);
        check(&bytes).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    }
}
