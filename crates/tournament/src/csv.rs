//! CSV export of pairings and standings (RFC 4180: comma-separated, `"`-quoted where needed,
//! CRLF-free `\n` line ends, a header line first).

use crate::result::{MatchRecord, TeamOutcome};
use crate::seating::{Basis, Choice};
use crate::tournament::{Pairing, Round, Tournament};

/// Quotes a field when it holds a comma, a quote or a line break.
pub fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

fn line(fields: &[String]) -> String {
    let mut s = fields
        .iter()
        .map(|f| field(f))
        .collect::<Vec<_>>()
        .join(",");
    s.push('\n');
    s
}

/// What decided the colours, in words: `M1.5`, `lot 3 (roll 123...): home first-board White`,
/// `alternation`, `choice home default, away entered`.
pub fn basis_text(basis: &Basis) -> String {
    match basis {
        Basis::HomeFirstBlack => "M1.5: home first-board player Black".to_owned(),
        Basis::Lot(lot) => format!(
            "K1D lot {} (roll {}): {} first-board player White",
            lot.draw,
            lot.roll,
            if lot.home_first_white { "home" } else { "away" }
        ),
        Basis::Alternation => "F2.1: alternation".to_owned(),
        Basis::TeamChoice { home, away } => {
            let c = |c: &Choice| match c {
                Choice::Default => "default",
                Choice::Entered => "entered",
            };
            format!("U3: team choice (home {}, away {})", c(home), c(away))
        }
    }
}

/// The match result from the home team's side: `1-0`, `0-1`, `1/2-1/2`, or a forfeit `+-`,
/// `-+`, `--`; empty without a result.
pub fn result_text(t: &Tournament, p: &Pairing) -> String {
    match (&p.result, t.score(p)) {
        (Some(MatchRecord::Forfeit(f)), _) => f.as_str().to_owned(),
        (Some(_), Some(score)) => match score.home.outcome {
            TeamOutcome::Win => "1-0",
            TeamOutcome::Draw => "1/2-1/2",
            TeamOutcome::Loss => "0-1",
        }
        .to_owned(),
        _ => String::new(),
    }
}

const PAIRINGS_HEADER: [&str; 20] = [
    "round",
    "table",
    "home",
    "away",
    "white_a",
    "white_a_team",
    "black_a",
    "black_a_team",
    "white_b",
    "white_b_team",
    "black_b",
    "black_b_team",
    "colours",
    "board_a",
    "board_b",
    "result",
    "home_match_points",
    "away_match_points",
    "home_game_points",
    "away_game_points",
];

fn round_lines(t: &Tournament, round: &Round, out: &mut String) {
    let team = |id| t.team(id).map_or_else(String::new, |tm| tm.name.clone());
    for p in &round.pairings {
        let mut fields = vec![
            round.number.to_string(),
            p.table.to_string(),
            team(p.home),
            team(p.away),
        ];
        for seated in p.seats() {
            let tm = t.team(seated.team);
            fields.push(tm.map_or_else(String::new, |tm| tm.player(seated.slot).name.clone()));
            fields.push(tm.map_or_else(String::new, |tm| tm.name.clone()));
        }
        fields.push(basis_text(&p.seating.basis));
        let board = |b| {
            p.result
                .as_ref()
                .and_then(|r| r.game(b))
                .map_or_else(String::new, |g| g.to_string())
        };
        fields.push(board(bughouse_core::BoardId::A));
        fields.push(board(bughouse_core::BoardId::B));
        fields.push(result_text(t, p));
        match t.score(p) {
            Some(s) => fields.extend([
                s.home.match_points.to_string(),
                s.away.match_points.to_string(),
                s.home.game_points.to_string(),
                s.away.game_points.to_string(),
            ]),
            None => fields.extend(std::iter::repeat_n(String::new(), 4)),
        }
        out.push_str(&line(&fields));
    }
    if let Some(bye) = round.bye {
        let s = t.scoring().bye_score();
        let mut fields = vec![
            round.number.to_string(),
            String::new(),
            team(bye),
            "BYE".to_owned(),
        ];
        fields.extend(std::iter::repeat_n(String::new(), 11));
        fields.extend([
            "bye".to_owned(),
            s.match_points.to_string(),
            String::new(),
            s.game_points.to_string(),
            String::new(),
        ]);
        out.push_str(&line(&fields));
    }
}

/// The pairings of one round (`Some(n)`) or of every round, with seats and results.
pub fn pairings_csv(t: &Tournament, round: Option<u32>) -> String {
    let mut out = line(&PAIRINGS_HEADER.map(str::to_owned));
    for r in t.rounds() {
        if round.is_none_or(|n| n == r.number) {
            round_lines(t, r, &mut out);
        }
    }
    out
}

/// The standings.
pub fn standings_csv(t: &Tournament) -> String {
    let mut out = line(
        &[
            "rank",
            "team",
            "first_board",
            "second_board",
            "rating",
            "played",
            "won",
            "drawn",
            "lost",
            "byes",
            "match_points",
            "game_points",
            "buchholz",
            "sonneborn_berger",
            "direct_encounter",
        ]
        .map(str::to_owned),
    );
    for s in t.standings() {
        let Some(team) = t.team(s.team) else { continue };
        out.push_str(&line(&[
            s.rank_label(),
            team.name.clone(),
            team.first.name.clone(),
            team.second.name.clone(),
            s.rating.map_or_else(String::new, |r| r.to_string()),
            s.played.to_string(),
            s.won.to_string(),
            s.drawn.to_string(),
            s.lost.to_string(),
            s.byes.to_string(),
            s.match_points.to_string(),
            s.game_points.to_string(),
            s.buchholz.to_string(),
            s.sonneborn_berger.to_string(),
            s.direct_encounter
                .map_or_else(String::new, |d| d.to_string()),
        ]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting() {
        assert_eq!(field("plain"), "plain");
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }
}
