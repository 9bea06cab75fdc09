//! Swiss pairings: a simple Dutch-like system with a complete backtracking search.
//!
//! See the crate documentation for the rules as an organiser reads them. In short:
//!
//! 1. Teams are ranked by match points, then game points, then team rating (unrated last), then
//!    starting number. A score group is the teams with equal match points.
//! 2. No two teams meet twice. The search below is complete: it finds a pairing without a
//!    repeated encounter whenever one exists, and refuses the round ([`SwissError::NoPairing`])
//!    only when none does.
//! 3. **Look-ahead**: among those, a pairing after which the rounds still to come can all be
//!    paired without repeats is preferred (the teams not yet met must still hold that many
//!    disjoint pairings, byes included; see `Lookahead`). Without it, a Swiss of as many rounds
//!    as a round robin can get stuck: after three rounds of six teams the pairs not yet played
//!    can form two triangles, with no fourth round possible. Each check gives up after a fixed
//!    number of steps and then assumes the best, and if the look-ahead refuses every pairing
//!    the round is paired without it.
//! 4. With an odd number of teams, one gets the bye: the lowest-ranked team among those with
//!    the fewest byes so far (so a team without a bye, while there is one). Only if no
//!    pairing works with that team out is the next team up tried, and only if none works for
//!    any team with the fewest byes does a team with more byes get one.
//! 5. The rest are paired top down. The highest-ranked unpaired team `p` is in the score
//!    group `G` of the unpaired teams with its match points, split into a top half `S1`
//!    (`|G| / 2` teams, rounded down, `p` first) and a bottom half `S2`. `p` tries, in order:
//!    the teams of `S2` from the top (so with no conflicts S1\[i\] meets S2\[i\], and a
//!    conflict moves to the next team of S2, as a Dutch transposition); then the other teams of
//!    `S1` from the bottom; then the unpaired teams of lower score groups from the top (`p`
//!    floats down; the lowest team of an odd score group is the one left to float, and it meets
//!    the highest team of the next group). When the rest cannot be completed the search
//!    backtracks to the last choice; sets of unpaired teams already found impossible are
//!    remembered, which keeps the search fast for the sizes of a bughouse event.
//! 6. A first search also refuses to pair two teams that both have an absolute home or away
//!    preference (below) the same way; only if that fails is the pairing made without that
//!    condition. Priorities, highest first: no repeat, look-ahead, bye, this colour condition,
//!    the order of rule 5.
//! 7. Home and away (which decides colours under each rulebook, see [`crate::seating`]) go by
//!    preference. A team's *home difference* is home matches minus away matches. A team has an
//!    absolute preference for home when its difference is -2 or less or its last two matches
//!    were both away (for away, mirrored), a strong preference when the difference is -1 (+1),
//!    a mild preference for the opposite of its last match when the difference is 0, none
//!    before its first match. The stronger preference is granted; with equal preferences the
//!    teams alternate from the latest round in which one was home and the other away; failing
//!    that the higher-ranked team gets its preference; with no preference at all (the first
//!    round) the higher-ranked team is home on odd tables and away on even ones.
//! 8. Tables are numbered in the order of the higher-ranked team of each pairing.

use std::collections::HashSet;

use crate::points::Points;
use crate::team::TeamId;

/// The most teams a Swiss search handles (one bit per team, and one for the bye).
pub const MAX_TEAMS: usize = 127;

/// How many search steps before giving up; far more than 16 teams ever need.
const STEP_LIMIT: u64 = 20_000_000;

/// A team as the Swiss pairing sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entrant {
    /// The team.
    pub id: TeamId,
    /// Its match points (score groups go by these).
    pub score: Points,
    /// The teams it has met.
    pub met: Vec<TeamId>,
    /// How many byes it has had.
    pub byes: u32,
    /// Per earlier round: `Some(true)` at home, `Some(false)` away, `None` bye or not paired.
    pub home: Vec<Option<bool>>,
}

/// A Swiss round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwissRound {
    /// `(home, away)` per table.
    pub pairs: Vec<(TeamId, TeamId)>,
    /// The team with the bye.
    pub bye: Option<TeamId>,
}

/// Why a Swiss round could not be paired.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SwissError {
    /// Every possible pairing repeats an encounter.
    #[error("no pairing without a repeated encounter exists")]
    NoPairing,
    /// More teams than the search handles.
    #[error("a Swiss pairing handles at most {MAX_TEAMS} teams")]
    TooManyTeams,
    /// The search took too long.
    #[error("the pairing search gave up after {STEP_LIMIT} steps")]
    SearchLimit,
}

/// How a search for this round's pairing ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Found {
    /// A pairing: in `Search::pairs`.
    Yes,
    /// No pairing at all from here.
    Impossible,
    /// Pairings, but the look-ahead refused every one.
    Rejected,
}

struct Search<'a> {
    score: &'a [Points],
    met: &'a [u128],
    absolute: &'a [i8],
    strict: bool,
    /// Sets of unpaired teams known to have no pairing at all.
    failed: HashSet<u128>,
    steps: u64,
    pairs: Vec<(usize, usize)>,
    bye: Option<usize>,
}

fn bits(mask: u128) -> impl Iterator<Item = usize> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(i)
        }
    })
}

impl Search<'_> {
    fn solve(
        &mut self,
        remaining: u128,
        mut lookahead: Option<&mut Lookahead>,
    ) -> Result<Found, SwissError> {
        if remaining == 0 {
            let accepted = lookahead.is_none_or(|l| l.check(&self.pairs, self.bye));
            return Ok(if accepted {
                Found::Yes
            } else {
                Found::Rejected
            });
        }
        if self.failed.contains(&remaining) {
            return Ok(Found::Impossible);
        }
        self.steps += 1;
        if self.steps > STEP_LIMIT {
            return Err(SwissError::SearchLimit);
        }
        let p = remaining.trailing_zeros() as usize;
        let group: Vec<usize> = bits(remaining)
            .filter(|&i| self.score[i] == self.score[p])
            .collect();
        let mut candidates = Vec::with_capacity(remaining.count_ones() as usize);
        if group.len() >= 2 {
            let h = group.len() / 2;
            candidates.extend_from_slice(&group[h..]);
            candidates.extend(group[1..h].iter().rev());
        }
        candidates.extend(bits(remaining).filter(|&i| self.score[i] != self.score[p]));
        let mut rejected = false;
        for q in candidates {
            if self.met[p] & (1 << q) != 0 {
                continue;
            }
            if self.strict && self.absolute[p] != 0 && self.absolute[p] == self.absolute[q] {
                continue;
            }
            self.pairs.push((p, q));
            match self.solve(remaining & !(1 << p) & !(1 << q), lookahead.as_deref_mut())? {
                Found::Yes => return Ok(Found::Yes),
                Found::Rejected => rejected = true,
                Found::Impossible => {}
            }
            self.pairs.pop();
        }
        if rejected {
            Ok(Found::Rejected)
        } else {
            self.failed.insert(remaining);
            Ok(Found::Impossible)
        }
    }
}

/// Steps one look-ahead check may take before it gives up (and assumes the best).
const CHECK_LIMIT: u64 = 100_000;
/// Steps all look-ahead checks of one round may take.
const LOOKAHEAD_LIMIT: u64 = 2_000_000;

/// Whether the rounds after this one can still be paired without a repeated encounter.
///
/// The graph has a vertex per team (by ranking position) joined to every team it has not met;
/// for an odd number of teams one more vertex stands for the bye, joined to the teams that may
/// still get one (those with the fewest byes, widened until there are enough for the rounds
/// left). The rounds left can be paired when the graph, less this round's pairs, holds that
/// many edge-disjoint perfect matchings.
struct Lookahead {
    base: Vec<u128>,
    teams: usize,
    byes: Vec<u32>,
    rounds_after: u32,
    spent: u64,
}

impl Lookahead {
    fn new(met: &[u128], byes: Vec<u32>, rounds_after: u32) -> Lookahead {
        let teams = met.len();
        let all: u128 = (1 << teams) - 1;
        Lookahead {
            base: met
                .iter()
                .enumerate()
                .map(|(i, m)| all & !m & !(1 << i))
                .collect(),
            teams,
            byes,
            rounds_after,
            spent: 0,
        }
    }

    /// Whether `rounds_after` more rounds can be paired after `pairs` and `bye`; `true` when
    /// the budget runs out.
    fn check(&mut self, pairs: &[(usize, usize)], bye: Option<usize>) -> bool {
        self.spent += 1;
        if self.rounds_after == 0 || self.spent > LOOKAHEAD_LIMIT {
            return true;
        }
        let mut adj = self.base.clone();
        for &(p, q) in pairs {
            adj[p] &= !(1 << q);
            adj[q] &= !(1 << p);
        }
        let mut vertices = self.teams;
        if self.teams % 2 == 1 {
            let mut byes = self.byes.clone();
            if let Some(b) = bye {
                byes[b] += 1;
            }
            let mut sorted = byes.clone();
            sorted.sort_unstable();
            let k = (self.rounds_after as usize).min(sorted.len());
            let threshold = sorted[k.saturating_sub(1)];
            let allowed: u128 = (0..self.teams)
                .filter(|&t| byes[t] <= threshold)
                .fold(0, |m, t| m | 1 << t);
            let d = self.teams;
            for t in bits(allowed) {
                adj[t] |= 1 << d;
            }
            adj.push(allowed);
            vertices += 1;
        }
        let mut f = Factors {
            adj,
            all: u128::MAX >> (128 - vertices),
            steps: 0,
        };
        let answer = f.find(self.rounds_after, None);
        self.spent += f.steps;
        answer.unwrap_or(true)
    }
}

/// A search for edge-disjoint perfect matchings.
struct Factors {
    adj: Vec<u128>,
    all: u128,
    steps: u64,
}

impl Factors {
    fn cut(&mut self, p: usize, q: usize) {
        self.adj[p] &= !(1 << q);
        self.adj[q] &= !(1 << p);
    }

    fn join(&mut self, p: usize, q: usize) {
        self.adj[p] |= 1 << q;
        self.adj[q] |= 1 << p;
    }

    /// Whether `k` more edge-disjoint perfect matchings exist; `None` past the budget. Vertex
    /// 0's partner grows from one matching to the next (`after`), so that no set of matchings
    /// is tried in two orders.
    fn find(&mut self, k: u32, after: Option<usize>) -> Option<bool> {
        if k == 0 {
            return Some(true);
        }
        if self.adj.iter().any(|a| a.count_ones() < k) {
            return Some(false);
        }
        // Vertices 0..=after.
        let above = after.map_or(0, |a| u128::MAX >> (127 - a));
        for q in bits(self.adj[0] & !above) {
            self.cut(0, q);
            let r = self.complete(k, q, self.all & !1 & !(1 << q));
            self.join(0, q);
            if r != Some(false) {
                return r;
            }
        }
        Some(false)
    }

    /// Completes the current matching over `remaining`, then looks for the others.
    fn complete(&mut self, k: u32, first: usize, remaining: u128) -> Option<bool> {
        if remaining == 0 {
            return self.find(k - 1, Some(first));
        }
        self.steps += 1;
        if self.steps > CHECK_LIMIT {
            return None;
        }
        // The vertex with the fewest partners left goes first.
        let p = bits(remaining)
            .min_by_key(|&v| (self.adj[v] & remaining).count_ones())
            .expect("remaining is not empty");
        for q in bits(self.adj[p] & remaining) {
            self.cut(p, q);
            let r = self.complete(k, first, remaining & !(1 << p) & !(1 << q));
            self.join(p, q);
            if r != Some(false) {
                return r;
            }
        }
        Some(false)
    }
}

/// A team's home preference: positive for home, negative for away; 3 absolute, 2 strong,
/// 1 mild, 0 none.
pub fn preference(history: &[Option<bool>]) -> i32 {
    let played: Vec<bool> = history.iter().flatten().copied().collect();
    let Some(&last) = played.last() else {
        return 0;
    };
    let homes = played.iter().filter(|&&h| h).count() as i64;
    let diff = 2 * homes - played.len() as i64;
    let last_two = played.len() >= 2 && played[played.len() - 2] == last;
    if diff <= -2 {
        3
    } else if diff >= 2 {
        -3
    } else if last_two {
        if last {
            -3
        } else {
            3
        }
    } else if diff == -1 {
        2
    } else if diff == 1 {
        -2
    } else if last {
        -1
    } else {
        1
    }
}

/// Whether `a`, ranked above `b`, is at home at table `table` (from 1).
fn a_is_home(a: &Entrant, b: &Entrant, table: usize) -> bool {
    let (pa, pb) = (preference(&a.home), preference(&b.home));
    if pa != pb {
        return pa > pb;
    }
    let rounds = a.home.len().min(b.home.len());
    for i in (0..rounds).rev() {
        if let (Some(x), Some(y)) = (a.home[i], b.home[i]) {
            if x != y {
                return !x;
            }
        }
    }
    match pa {
        0 => table % 2 == 1,
        p => p > 0,
    }
}

/// Pairs a Swiss round. `ranked` is in pairing order (see the module documentation);
/// `rounds_after` is the number of rounds still to come after this one.
pub fn pair(ranked: &[Entrant], rounds_after: u32) -> Result<SwissRound, SwissError> {
    let n = ranked.len();
    if n > MAX_TEAMS {
        return Err(SwissError::TooManyTeams);
    }
    if n < 2 {
        return Ok(SwissRound {
            pairs: Vec::new(),
            bye: ranked.first().map(|e| e.id),
        });
    }
    let position = |id: TeamId| ranked.iter().position(|e| e.id == id);
    let score: Vec<Points> = ranked.iter().map(|e| e.score).collect();
    let met: Vec<u128> = ranked
        .iter()
        .map(|e| {
            e.met
                .iter()
                .filter_map(|&o| position(o))
                .fold(0u128, |m, i| m | 1 << i)
        })
        .collect();
    let absolute: Vec<i8> = ranked
        .iter()
        .map(|e| match preference(&e.home) {
            3 => 1,
            -3 => -1,
            _ => 0,
        })
        .collect();
    let all: u128 = (1 << n) - 1;
    // Bye tiers: fewest byes first, lowest-ranked first within a tier. `None`: no bye.
    let tiers: Vec<Vec<Option<usize>>> = if n.is_multiple_of(2) {
        vec![vec![None]]
    } else {
        let mut counts: Vec<u32> = ranked.iter().map(|e| e.byes).collect();
        counts.sort_unstable();
        counts.dedup();
        counts
            .into_iter()
            .map(|c| {
                (0..n)
                    .rev()
                    .filter(|&i| ranked[i].byes == c)
                    .map(Some)
                    .collect()
            })
            .collect()
    };
    let mut lookahead = Lookahead::new(&met, ranked.iter().map(|e| e.byes).collect(), rounds_after);
    let mut found = None;
    // First with the look-ahead, then (when it refuses everything or gives up) without.
    'levels: for with_lookahead in [true, false] {
        if with_lookahead && rounds_after == 0 {
            continue;
        }
        let mut searches = [true, false].map(|strict| Search {
            score: &score,
            met: &met,
            absolute: &absolute,
            strict,
            failed: HashSet::new(),
            steps: 0,
            pairs: Vec::new(),
            bye: None,
        });
        for tier in &tiers {
            for &bye in tier {
                for search in &mut searches {
                    let remaining = bye.map_or(all, |b| all & !(1 << b));
                    search.pairs.clear();
                    search.bye = bye;
                    let answer = search.solve(remaining, with_lookahead.then_some(&mut lookahead));
                    match answer {
                        Ok(Found::Yes) => {
                            found = Some((std::mem::take(&mut search.pairs), bye));
                            break 'levels;
                        }
                        Ok(Found::Impossible | Found::Rejected) => {}
                        // The look-ahead made the search too long: go on without it.
                        Err(SwissError::SearchLimit) if with_lookahead => continue 'levels,
                        Err(e) => return Err(e),
                    }
                }
            }
        }
    }
    let Some((mut pairs, bye)) = found else {
        return Err(SwissError::NoPairing);
    };
    pairs.sort_unstable();
    let pairs = pairs
        .into_iter()
        .enumerate()
        .map(|(t, (p, q))| {
            let (a, b) = (&ranked[p], &ranked[q]);
            if a_is_home(a, b, t + 1) {
                (a.id, b.id)
            } else {
                (b.id, a.id)
            }
        })
        .collect();
    Ok(SwissRound {
        pairs,
        bye: bye.map(|i| ranked[i].id),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entrant(id: usize, score: u32, met: &[usize], home: &[Option<bool>]) -> Entrant {
        Entrant {
            id: TeamId(id),
            score: Points::halves(score),
            met: met.iter().map(|&m| TeamId(m)).collect(),
            byes: 0,
            home: home.to_vec(),
        }
    }

    #[test]
    fn first_round_top_half_against_bottom_half() {
        let ranked: Vec<_> = (0..6).map(|i| entrant(i, 0, &[], &[])).collect();
        let r = pair(&ranked, 0).unwrap();
        assert_eq!(
            r.pairs,
            [
                (TeamId(0), TeamId(3)),
                (TeamId(4), TeamId(1)),
                (TeamId(2), TeamId(5))
            ]
        );
        assert_eq!(r.bye, None);
    }

    #[test]
    fn odd_count_bye_to_lowest_without_bye() {
        let mut ranked: Vec<_> = (0..5).map(|i| entrant(i, 0, &[], &[])).collect();
        ranked[4].byes = 1;
        let r = pair(&ranked, 0).unwrap();
        assert_eq!(r.bye, Some(TeamId(3)));
    }

    #[test]
    fn transposition_avoids_a_repeat() {
        // One score group, S1 = {0, 1}, S2 = {2, 3}; 0-2 and 1-3 have met: 0 takes 3, 1 takes 2.
        let ranked = vec![
            entrant(0, 0, &[2], &[Some(true)]),
            entrant(1, 0, &[3], &[Some(true)]),
            entrant(2, 0, &[0], &[Some(false)]),
            entrant(3, 0, &[1], &[Some(false)]),
        ];
        let r = pair(&ranked, 0).unwrap();
        assert_eq!(r.pairs, [(TeamId(3), TeamId(0)), (TeamId(2), TeamId(1))]);
    }

    #[test]
    fn lookahead_avoids_a_dead_end() {
        // Rounds 1 and 2 paired {0, 1, 2} against {3, 4, 5}. The natural third round (0-5,
        // 1-3, 2-4) would finish that: the pairs left would be two triangles, and no fourth
        // round could be paired.
        let met: [&[usize]; 6] = [&[3, 4], &[4, 5], &[5, 3], &[0, 2], &[0, 1], &[1, 2]];
        let ranked: Vec<_> = (0..6).map(|i| entrant(i, 0, met[i], &[])).collect();
        let natural = pair(&ranked, 0).unwrap();
        let sorted = |r: &SwissRound| {
            let mut v: Vec<(usize, usize)> = r
                .pairs
                .iter()
                .map(|(a, b)| (a.0.min(b.0), a.0.max(b.0)))
                .collect();
            v.sort_unstable();
            v
        };
        assert_eq!(sorted(&natural), [(0, 5), (1, 3), (2, 4)]);
        let ahead = pair(&ranked, 2).unwrap();
        let same_side = |(a, b): (usize, usize)| (a < 3) == (b < 3);
        assert!(sorted(&ahead).into_iter().any(same_side), "{ahead:?}");
    }

    #[test]
    fn no_pairing_is_reported() {
        let ranked = vec![entrant(0, 0, &[1], &[]), entrant(1, 0, &[0], &[])];
        assert_eq!(pair(&ranked, 0), Err(SwissError::NoPairing));
    }

    #[test]
    fn preferences() {
        assert_eq!(preference(&[]), 0);
        assert_eq!(preference(&[Some(true)]), -2);
        assert_eq!(preference(&[Some(true), Some(false)]), 1);
        assert_eq!(preference(&[Some(false), None, Some(false)]), 3);
        assert_eq!(preference(&[Some(true), Some(true)]), -3);
    }
}
