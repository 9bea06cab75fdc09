//! The tournament as the API shows it ([`TournamentView`]): names for ids, points as decimal
//! strings, the server match of each pairing.

use bughouse_core::BoardId;
use bughouse_protocol::tournament::{
    ByeView, PairingResult, PairingView, PlayerView, PointsView, RoundView, ScoringView, SeatView,
    StandingView, TeamView, TournamentView,
};
use bughouse_tournament::{csv, Pairing, Player, TeamId, Tournament};

use super::{wire, Entry};

fn team_name(t: &Tournament, id: TeamId) -> String {
    t.team(id).map_or_else(String::new, |tm| tm.name.clone())
}

fn player(p: &Player) -> PlayerView {
    PlayerView {
        name: p.name.clone(),
        rating: p.rating,
    }
}

/// The tournament of `e`.
pub(super) fn view(e: &Entry) -> TournamentView {
    let t = &e.tournament;
    let teams = t
        .teams()
        .iter()
        .enumerate()
        .map(|(i, tm)| TeamView {
            id: i,
            name: tm.name.clone(),
            first: player(&tm.first),
            second: player(&tm.second),
            rating: tm.rating(),
        })
        .collect();
    let rounds = t
        .rounds()
        .iter()
        .map(|r| RoundView {
            number: r.number,
            finished: r.is_finished(),
            pairings: r.pairings.iter().map(|p| pairing(e, r.number, p)).collect(),
            bye: r.bye.map(|b| ByeView {
                team: b.0,
                name: team_name(t, b),
            }),
        })
        .collect();
    let standings = t
        .standings()
        .iter()
        .map(|s| StandingView {
            rank: s.rank_label(),
            team: s.team.0,
            name: team_name(t, s.team),
            played: s.played,
            won: s.won,
            drawn: s.drawn,
            lost: s.lost,
            byes: s.byes,
            match_points: s.match_points.to_string(),
            game_points: s.game_points.to_string(),
            buchholz: s.buchholz.to_string(),
            sonneborn_berger: s.sonneborn_berger.to_string(),
            direct_encounter: s.direct_encounter.map(|p| p.to_string()),
            rating: s.rating,
        })
        .collect();
    let scoring = t.scoring();
    TournamentView {
        id: e.id.clone(),
        name: t.name().to_owned(),
        preset: t.preset().id().to_owned(),
        format: wire::format_name(t.format()),
        planned_rounds: t.planned_rounds(),
        total_rounds: t.total_rounds(),
        time_control: e.time_control.to_string(),
        seed: t.seed(),
        scoring: ScoringView {
            first_game_decides: scoring.first_game_decides,
            win: scoring.win.to_string(),
            draw: scoring.draw.to_string(),
            loss: scoring.loss.to_string(),
        },
        teams,
        rounds,
        standings,
        finished: t.is_finished(),
        teams_fixed: !t.rounds().is_empty(),
        cannot_pair: e.cannot_pair.clone(),
        created_at: e.created_at_ms,
        updated_at: e.updated_at_ms,
    }
}

fn pairing(e: &Entry, round: u32, p: &Pairing) -> PairingView {
    let t = &e.tournament;
    let seats = p
        .seats()
        .iter()
        .map(|s| SeatView {
            seat: wire::seat_name(s.seat),
            team: s.team.0,
            team_name: team_name(t, s.team),
            player: t
                .team(s.team)
                .map_or_else(String::new, |tm| tm.player(s.slot).name.clone()),
            slot: wire::slot_name(s.slot),
            home: s.home,
        })
        .collect();
    let score = t.score(p);
    let points = |home: bool| {
        score.map(|s| {
            let ts = if home { s.home } else { s.away };
            PointsView {
                match_points: ts.match_points.to_string(),
                game_points: ts.game_points.to_string(),
            }
        })
    };
    let result = p.result.as_ref().map(|r| PairingResult {
        board_a: r.game(BoardId::A).map(wire::game_name),
        board_b: r.game(BoardId::B).map(wire::game_name),
        match_result: csv::result_text(t, p),
        text: r.to_string(),
    });
    PairingView {
        table: p.table,
        home: p.home.0,
        away: p.away.0,
        home_name: team_name(t, p.home),
        away_name: team_name(t, p.away),
        seats,
        colours: csv::basis_text(&p.seating.basis),
        result,
        home_points: points(true),
        away_points: points(false),
        match_id: e.matches.get(&(round, p.table)).cloned(),
    }
}
