//! What the arena writes: the BPGN of a match and the results table.

use std::io::{self, Write};
use std::time::Duration;

use bughouse_bpgn::write_bpgn;
use bughouse_core::{MatchResult, Preset, Seat, Team};

use crate::{Config, Played, Spec};

/// Formats points without a needless `.0`: `3`, `2.5`.
pub fn points(p: f64) -> String {
    // An empty sum of floats is -0.0.
    let p = p + 0.0;
    if p.fract() == 0.0 {
        format!("{p:.0}")
    } else {
        format!("{p:.1}")
    }
}

impl Played {
    /// The match as BPGN, with the arena's tags (the players as their [`Spec`]s, the round, the
    /// time control, the rules, and the notes as the annotator's).
    pub fn bpgn(&self, config: &Config) -> String {
        let (_, specs) = config.seating(self.number);
        write_bpgn(&self.game, &tags(self, &specs, config.rules))
    }
}

fn tags(p: &Played, specs: &[&Spec; 4], preset: Preset) -> Vec<(String, String)> {
    let mut tags = vec![
        ("Event".to_owned(), "bughouse arena".to_owned()),
        ("Site".to_owned(), "bughouse arena".to_owned()),
        ("Date".to_owned(), "????.??.??".to_owned()),
        ("Round".to_owned(), p.number.to_string()),
    ];
    for (i, seat) in Seat::ALL.iter().enumerate() {
        tags.push((seat.to_string(), specs[i].to_string()));
    }
    let tc = p.game.time_control();
    tags.push((
        "TimeControl".to_owned(),
        format!("{}+{}", tc.base.as_secs(), tc.increment.as_secs()),
    ));
    tags.push(("Variant".to_owned(), "bughouse".to_owned()));
    tags.push(("Rules".to_owned(), preset.id().to_owned()));
    if !p.notes.is_empty() {
        tags.push(("Annotator".to_owned(), p.notes.join("; ")));
    }
    tags
}

/// Writes the results table: a header line, one row per match, each team's wins, draws and
/// losses, and `team1 S1 - S2 team2 (P%)` last. `wall` is the time the whole run took.
///
/// # Errors
///
/// Writing to `out` failed.
pub fn write_results(
    out: &mut impl Write,
    config: &Config,
    played: &[Played],
    wall: Duration,
) -> io::Result<()> {
    writeln!(
        out,
        "team1 = {}, team2 = {}, {} matches, time {}, rules {}, {:.1} s",
        config.team1,
        config.team2,
        played.len(),
        config.time,
        config.rules,
        wall.as_secs_f64()
    )?;
    writeln!(
        out,
        "{:>5}  {:<14} {:<14} {:<7} {:<6} {:>5}  reason",
        "match", "team1", "team2", "result", "winner", "plies"
    )?;
    let seats = |team: Team| {
        let [a, b] = team.seats();
        format!("{a}+{b}")
    };
    let mut wdl = [[0u32; 3]; 2];
    for p in played {
        let (s1, s2) = (p.team1_points(), p.team2_points());
        let winner = if s1 > s2 {
            wdl[0][0] += 1;
            wdl[1][2] += 1;
            "team1"
        } else if s2 > s1 {
            wdl[0][2] += 1;
            wdl[1][0] += 1;
            "team2"
        } else {
            wdl[0][1] += 1;
            wdl[1][1] += 1;
            "draw"
        };
        writeln!(
            out,
            "{:>5}  {:<14} {:<14} {:<7} {:<6} {:>5}  {}",
            p.number,
            seats(p.team1_as),
            seats(p.team1_as.other()),
            p.game.result().map_or("*", MatchResult::pgn),
            winner,
            p.plies(),
            p.reason()
        )?;
    }
    let total1: f64 = played.iter().map(|p| f64::from(p.team1_points())).sum();
    let total2: f64 = played.iter().map(|p| f64::from(p.team2_points())).sum();
    for (i, (team, spec, total)) in [
        ("team1", &config.team1, total1),
        ("team2", &config.team2, total2),
    ]
    .into_iter()
    .enumerate()
    {
        let [w, d, l] = wdl[i];
        writeln!(
            out,
            "{team} {spec}: {w} won, {d} drawn, {l} lost, {} points",
            points(total)
        )?;
    }
    let sum = total1 + total2;
    let pct = if sum > 0.0 {
        100.0 * total1 / sum
    } else {
        50.0
    };
    writeln!(
        out,
        "team1 {} - {} team2 ({pct:.1}%)",
        points(total1),
        points(total2)
    )
}

#[cfg(test)]
mod tests {
    use bughouse_core::TimeControl;
    use bughouse_engine::Level;

    use super::*;

    #[test]
    fn points_drop_a_needless_fraction() {
        assert_eq!(points(3.0), "3");
        assert_eq!(points(57.5), "57.5");
        assert_eq!(points(0.0), "0");
    }

    #[test]
    fn the_last_line_gives_team1_s_share() {
        let config = Config {
            team1: Spec::bot(Level::DEFAULT),
            team2: Spec::bot(Level::DEFAULT),
            time: TimeControl::default(),
            rules: Preset::Fide,
            seed: 1,
        };
        let mut out = Vec::new();
        write_results(&mut out, &config, &[], Duration::ZERO).expect("writes to memory");
        let text = String::from_utf8(out).expect("UTF-8");
        assert_eq!(text.lines().last(), Some("team1 0 - 0 team2 (50.0%)"));
    }
}
