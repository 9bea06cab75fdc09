//! The tuner on a small input: four arena matches (our bot against Fairy-Stockfish at 1+0,
//! checked in as BPGN), two iterations. The fit must lower the training error, be the same
//! for the same seed, and its weights must read back.

use bughouse_core::Rules;
use bughouse_engine::EvalParams;
use bughouse_tune::{fit, read_samples, samples_from_bpgn, write_samples, Fitter};

const GAMES: &[u8] = include_bytes!("data/arena-1m.bpgn");

#[test]
fn the_fit_lowers_the_error_and_is_deterministic_for_a_seed() {
    let samples = samples_from_bpgn(GAMES, Rules::fide(), false).expect("the records replay");
    assert!(samples.len() > 100, "{} positions", samples.len());
    assert!(samples.iter().all(|s| [0.0, 0.5, 1.0].contains(&s.result)));
    // Both results occur: each match has a winner, and each board has a White of each team.
    assert!(samples.iter().any(|s| s.result == 1.0));
    assert!(samples.iter().any(|s| s.result == 0.0));
    assert_eq!(
        read_samples(&write_samples(&samples)).expect("reads"),
        samples
    );

    let fitter = Fitter::new(&samples, Rules::fide(), 9).expect("enough quiet positions");
    assert!(fitter.k() > 0.05 && fitter.k() < 4.0, "K {}", fitter.k());
    let mut passes = Vec::new();
    let report = fit(&fitter, &EvalParams::DEFAULT, &[], 2, 9, &mut |it, e| {
        passes.push((it, e))
    });
    assert_eq!(passes.len(), 2);
    assert!(
        report.train_error.1 < report.train_error.0,
        "{:?}",
        report.train_error
    );
    assert_eq!(
        report.train_error.0,
        fitter.train_error(&EvalParams::DEFAULT)
    );
    assert_ne!(report.params, EvalParams::DEFAULT);
    assert_eq!(
        EvalParams::from_text(&report.params.to_text()),
        Ok(report.params)
    );

    let again = fit(
        &Fitter::new(&samples, Rules::fide(), 9).expect("same input"),
        &EvalParams::DEFAULT,
        &[],
        2,
        9,
        &mut |_, _| {},
    );
    assert_eq!(again, report);
    // Only the groups asked for move.
    let some = fit(
        &fitter,
        &EvalParams::DEFAULT,
        &["mobility".to_owned(), "tempo".to_owned()],
        2,
        9,
        &mut |_, _| {},
    );
    let (a, b) = (some.params.to_vec(), EvalParams::DEFAULT.to_vec());
    for i in 0..a.len() {
        let name = EvalParams::name(i);
        if !name.starts_with("mobility") && name != "tempo" {
            assert_eq!(a[i], b[i], "{name} moved");
        }
    }
    assert!(some.train_error.1 <= some.train_error.0);
    // Another seed holds out other positions.
    let other = Fitter::new(&samples, Rules::fide(), 10).expect("same input");
    assert_ne!(
        other.valid_error(&EvalParams::DEFAULT),
        fitter.valid_error(&EvalParams::DEFAULT)
    );
}

#[test]
fn bad_positions_are_refused() {
    assert!(read_samples("1 rnbqkbnr/8/8/8/8/8/8/RNBQKBNR[] w - - 0 1\nx").is_err());
    let samples = read_samples("0.5 not-a-fen").expect("the line reads");
    assert!(Fitter::new(&samples, Rules::fide(), 1).is_err());
    assert!(matches!(
        Fitter::new(&[], Rules::fide(), 1),
        Err(bughouse_tune::TuneError::TooFew(0))
    ));
}
