//! The tournament as plain text, as `bughouse tournament` prints it: rounds with their seats,
//! the standings table, the whole tournament.

use std::fmt::Write as _;

use bughouse_core::BoardId;

use crate::{Pairing, Player, Round, Slot, TeamId, Tournament};

/// A player with his rating, if any: `Ann (1850)`.
pub fn player_text(p: &Player) -> String {
    match p.rating {
        Some(r) => format!("{} ({r})", p.name),
        None => p.name.clone(),
    }
}

/// A team's name (`#N` for an id the tournament does not know).
pub fn team_name(t: &Tournament, id: TeamId) -> String {
    t.team(id)
        .map_or_else(|| format!("#{id}"), |tm| tm.name.clone())
}

/// One table of a round: the teams, each seat with its player, the colours' basis, and the
/// result once entered.
pub fn pairing_text(t: &Tournament, p: &Pairing, out: &mut String) {
    let _ = writeln!(
        out,
        "Table {}: {} - {}",
        p.table,
        team_name(t, p.home),
        team_name(t, p.away)
    );
    for s in p.seats() {
        let player = t
            .team(s.team)
            .map_or_else(String::new, |tm| tm.player(s.slot).name.clone());
        let _ = writeln!(
            out,
            "  {:<7} {} ({}{})",
            s.seat.to_string(),
            player,
            team_name(t, s.team),
            if s.slot == Slot::First {
                ", first board"
            } else {
                ""
            }
        );
    }
    let _ = writeln!(
        out,
        "  colours: {}",
        crate::csv::basis_text(&p.seating.basis)
    );
    if let Some(record) = &p.result {
        let games = match (record.game(BoardId::A), record.game(BoardId::B)) {
            (Some(a), Some(b)) => format!("board A {a}, board B {b}: "),
            _ => String::new(),
        };
        match t.score(p) {
            Some(score) => {
                let _ = writeln!(
                    out,
                    "  result: {games}{} (match points {}-{}, game points {}-{})",
                    crate::csv::result_text(t, p),
                    score.home.match_points,
                    score.away.match_points,
                    score.home.game_points,
                    score.away.game_points
                );
            }
            None => {
                let _ = writeln!(out, "  result: {record} (does not score under these rules)");
            }
        }
    }
}

/// A round: its tables and its bye.
pub fn round_text(t: &Tournament, r: &Round) -> String {
    let mut out = format!("Round {}\n", r.number);
    for p in &r.pairings {
        pairing_text(t, p, &mut out);
    }
    if let Some(bye) = r.bye {
        let s = t.scoring().bye_score();
        let _ = writeln!(
            out,
            "Bye: {} (match points {}, game points {})",
            team_name(t, bye),
            s.match_points,
            s.game_points
        );
    }
    out
}

/// The standings as an aligned table (rank, team, match and game points, tie-breaks, rating,
/// games).
pub fn standings_text(t: &Tournament) -> String {
    let rows: Vec<Vec<String>> = t
        .standings()
        .iter()
        .map(|s| {
            vec![
                s.rank_label(),
                team_name(t, s.team),
                s.match_points.to_string(),
                s.game_points.to_string(),
                s.buchholz.to_string(),
                s.sonneborn_berger.to_string(),
                s.direct_encounter
                    .map_or_else(|| "-".to_owned(), |d| d.to_string()),
                s.rating.map_or_else(|| "-".to_owned(), |r| r.to_string()),
                s.played.to_string(),
                s.won.to_string(),
                s.drawn.to_string(),
                s.lost.to_string(),
                s.byes.to_string(),
            ]
        })
        .collect();
    let header: Vec<String> = [
        "Rank", "Team", "MP", "GP", "Buchholz", "SB", "DE", "Rating", "Played", "W", "D", "L",
        "Byes",
    ]
    .map(str::to_owned)
    .to_vec();
    let widths: Vec<usize> = (0..header.len())
        .map(|c| {
            std::iter::once(&header)
                .chain(&rows)
                .map(|r| r[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in std::iter::once(&header).chain(&rows) {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, cell)| {
                let pad = widths[c] - cell.chars().count();
                if c == 1 {
                    format!("{cell}{}", " ".repeat(pad))
                } else {
                    format!("{}{cell}", " ".repeat(pad))
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// The whole tournament: settings, teams, rounds and standings.
pub fn show(t: &Tournament) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", t.name());
    let _ = writeln!(out, "rules: {}", t.preset());
    let _ = writeln!(
        out,
        "format: {}, {} rounds ({} paired)",
        t.format(),
        t.total_rounds(),
        t.rounds().len()
    );
    let s = t.scoring();
    let _ = writeln!(
        out,
        "scoring: {}; match points {}/{}/{} for a win/draw/loss; a bye scores {}",
        if s.first_game_decides {
            "the first game to end decides the match"
        } else {
            "both games count"
        },
        s.win,
        s.draw,
        s.loss,
        s.bye
    );
    let _ = writeln!(out, "seed: {} ({} draws of lots)", t.seed(), t.lots_drawn());
    let _ = writeln!(out, "\nTeams");
    for (i, team) in t.teams().iter().enumerate() {
        let _ = writeln!(
            out,
            "{:>3}. {} ({} first board, {}){}",
            i + 1,
            team.name,
            player_text(&team.first),
            player_text(&team.second),
            team.rating()
                .map_or_else(String::new, |r| format!(", rating {r}"))
        );
    }
    for r in t.rounds() {
        out.push('\n');
        out.push_str(&round_text(t, r));
    }
    if !t.rounds().is_empty() {
        let _ = writeln!(out, "\nStandings");
        out.push_str(&standings_text(t));
    }
    out
}
