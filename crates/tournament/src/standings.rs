//! Standings: match points, game points and tie-breaks.
//!
//! Teams are ordered by, in turn:
//!
//! 1. match points;
//! 2. game points (see [`crate::result`]);
//! 3. **Buchholz**: the sum of the match points of the opponents met. A bye adds nothing; a
//!    forfeited match counts its opponent like a played one.
//! 4. **Sonneborn-Berger**: the sum of the match points of the opponents beaten plus half the
//!    match points of those drawn with;
//! 5. **direct encounter**, among the teams still tied on all of the above: the match points
//!    each scored in the matches between them, used only when every two of them have met
//!    (otherwise it does not separate them);
//! 6. team rating (the mean of the players' ratings; unrated last).
//!
//! Teams equal on all six share a rank (shown `3-4`) and are listed by starting number. Only
//! matches with a result count; byes count from the round they are given in.

use std::cmp::Ordering;

use crate::points::Points;
use crate::result::TeamOutcome;
use crate::team::TeamId;
use crate::tournament::{rating_key, Tournament};

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    /// The rank, from 1.
    pub rank: usize,
    /// The last rank of a shared place (equal to `rank` when not shared).
    pub rank_to: usize,
    /// The team.
    pub team: TeamId,
    /// Matches played (with a result; forfeits included, byes not).
    pub played: u32,
    /// Matches won.
    pub won: u32,
    /// Matches drawn.
    pub drawn: u32,
    /// Matches lost.
    pub lost: u32,
    /// Byes.
    pub byes: u32,
    /// Match points.
    pub match_points: Points,
    /// Game points.
    pub game_points: Points,
    /// Buchholz.
    pub buchholz: Points,
    /// Sonneborn-Berger.
    pub sonneborn_berger: Points,
    /// Match points against the other teams of its tie, when every two of them have met.
    pub direct_encounter: Option<Points>,
    /// The team rating.
    pub rating: Option<u32>,
}

impl Standing {
    /// `3`, or `3-4` for a shared place.
    pub fn rank_label(&self) -> String {
        if self.rank == self.rank_to {
            self.rank.to_string()
        } else {
            format!("{}-{}", self.rank, self.rank_to)
        }
    }
}

/// One match from one team's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Encounter {
    pub opponent: TeamId,
    pub outcome: TeamOutcome,
    pub match_points: Points,
}

/// A team's totals.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    pub match_points: Points,
    pub game_points: Points,
    pub byes: u32,
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
    pub encounters: Vec<Encounter>,
}

/// Every team's totals from the results entered so far.
pub(crate) fn tally(t: &Tournament) -> Vec<Tally> {
    let mut tallies = vec![Tally::default(); t.teams().len()];
    let bye = t.scoring().bye_score();
    for round in t.rounds() {
        if let Some(id) = round.bye {
            let tl = &mut tallies[id.0];
            tl.byes += 1;
            tl.match_points += bye.match_points;
            tl.game_points += bye.game_points;
        }
        for p in &round.pairings {
            let Some(score) = t.score(p) else { continue };
            for (id, opponent, s) in [(p.home, p.away, score.home), (p.away, p.home, score.away)] {
                let tl = &mut tallies[id.0];
                tl.match_points += s.match_points;
                tl.game_points += s.game_points;
                match s.outcome {
                    TeamOutcome::Win => tl.won += 1,
                    TeamOutcome::Draw => tl.drawn += 1,
                    TeamOutcome::Loss => tl.lost += 1,
                }
                tl.encounters.push(Encounter {
                    opponent,
                    outcome: s.outcome,
                    match_points: s.match_points,
                });
            }
        }
    }
    tallies
}

/// The standings.
pub(crate) fn standings(t: &Tournament) -> Vec<Standing> {
    let tallies = tally(t);
    let mut rows: Vec<Standing> = tallies
        .iter()
        .enumerate()
        .map(|(i, tl)| {
            let mp = |o: TeamId| tallies[o.0].match_points;
            Standing {
                rank: 0,
                rank_to: 0,
                team: TeamId(i),
                played: tl.encounters.len() as u32,
                won: tl.won,
                drawn: tl.drawn,
                lost: tl.lost,
                byes: tl.byes,
                match_points: tl.match_points,
                game_points: tl.game_points,
                buchholz: tl.encounters.iter().map(|e| mp(e.opponent)).sum(),
                sonneborn_berger: tl
                    .encounters
                    .iter()
                    .map(|e| match e.outcome {
                        TeamOutcome::Win => mp(e.opponent),
                        TeamOutcome::Draw => mp(e.opponent).half(),
                        TeamOutcome::Loss => Points::ZERO,
                    })
                    .sum(),
                direct_encounter: None,
                rating: t.teams()[i].rating(),
            }
        })
        .collect();
    let before_de = |s: &Standing| {
        (
            s.match_points,
            s.game_points,
            s.buchholz,
            s.sonneborn_berger,
        )
    };
    rows.sort_by(|a, b| before_de(b).cmp(&before_de(a)).then(a.team.cmp(&b.team)));
    // Direct encounter within each group tied so far.
    let mut start = 0;
    while start < rows.len() {
        let end = (start..rows.len())
            .find(|&j| before_de(&rows[j]) != before_de(&rows[start]))
            .unwrap_or(rows.len());
        if end - start > 1 {
            let group: Vec<TeamId> = rows[start..end].iter().map(|s| s.team).collect();
            let met =
                |a: TeamId, b: TeamId| tallies[a.0].encounters.iter().any(|e| e.opponent == b);
            let all_met = group
                .iter()
                .enumerate()
                .all(|(i, &a)| group[i + 1..].iter().all(|&b| met(a, b)));
            if all_met {
                for row in &mut rows[start..end] {
                    row.direct_encounter = Some(
                        tallies[row.team.0]
                            .encounters
                            .iter()
                            .filter(|e| group.contains(&e.opponent))
                            .map(|e| e.match_points)
                            .sum(),
                    );
                }
            }
            rows[start..end].sort_by(|a, b| {
                b.direct_encounter
                    .cmp(&a.direct_encounter)
                    .then(rating_key(b.rating).cmp(&rating_key(a.rating)))
                    .then(a.team.cmp(&b.team))
            });
        }
        start = end;
    }
    let full = |s: &Standing| (before_de(s), s.direct_encounter, rating_key(s.rating));
    let mut i = 0;
    while i < rows.len() {
        let end = (i..rows.len())
            .find(|&j| full(&rows[j]).cmp(&full(&rows[i])) != Ordering::Equal)
            .unwrap_or(rows.len());
        for row in &mut rows[i..end] {
            row.rank = i + 1;
            row.rank_to = end;
        }
        i = end;
    }
    rows
}
