//! Pairings for 4 to 12 teams over every round: round robin, double round robin and Swiss,
//! with byes and the seats of every preset.

mod common;

use std::collections::{HashMap, HashSet};

use bughouse_core::{Preset, Seat};
use bughouse_tournament::{
    Basis, Choice, Format, Pairing, Slot, SwissError, TeamId, Tournament, TournamentError,
};
use common::{random_record, splitmix_nth, tournament, Rng};

const PRESETS: [Preset; 4] = [
    Preset::Fide,
    Preset::Minerva2014,
    Preset::Knsb1988,
    Preset::UscfScholastic2006,
];

/// The colour rules of the preset, and that teams are WhiteA + BlackB against BlackA + WhiteB.
fn check_seats(t: &Tournament, p: &Pairing) {
    let seats = p.seats();
    assert_eq!(seats.map(|s| s.seat), Seat::ALL);
    // WhiteA and BlackB are one team, BlackA and WhiteB the other.
    assert_eq!(seats[0].team, seats[3].team);
    assert_eq!(seats[1].team, seats[2].team);
    assert_ne!(seats[0].team, seats[1].team);
    for team in [p.home, p.away] {
        let mine: Vec<_> = seats.iter().filter(|s| s.team == team).collect();
        assert_eq!(mine.len(), 2, "{p:?}");
        assert_eq!(mine[0].seat.team(), mine[1].seat.team());
        assert_ne!(mine[0].seat.color, mine[1].seat.color);
        assert_ne!(mine[0].slot, mine[1].slot);
        assert_eq!(mine[0].home, team == p.home);
    }
    let at = |i: usize| (seats[i].team, seats[i].slot);
    match t.preset() {
        Preset::Minerva2014 => {
            // M1.5: the home first-board player has Black, his partner White; M1.3: the
            // first-board players face each other.
            assert_eq!(at(1), (p.home, Slot::First), "BlackA");
            assert_eq!(at(0), (p.away, Slot::First), "WhiteA");
            assert_eq!(at(2), (p.home, Slot::Second), "WhiteB");
            assert_eq!(at(3), (p.away, Slot::Second), "BlackB");
            assert_eq!(p.seating.basis, Basis::HomeFirstBlack);
        }
        Preset::Knsb1988 => {
            // K1C: the first-board players face each other; K1D: the lot gives White.
            assert_eq!(seats[0].slot, Slot::First);
            assert_eq!(seats[1].slot, Slot::First);
            let Basis::Lot(lot) = p.seating.basis else {
                panic!("knsb seats without a lot: {p:?}")
            };
            assert_eq!(lot.roll, splitmix_nth(t.seed(), lot.draw));
            assert_eq!(lot.home_first_white, lot.roll % 2 == 0);
            assert_eq!(seats[0].team == p.home, lot.home_first_white);
        }
        Preset::Fide => {
            assert_eq!(p.seating.basis, Basis::Alternation);
            assert_eq!(seats[0].team, p.home);
        }
        Preset::UscfScholastic2006 => {
            assert_eq!(
                p.seating.basis,
                Basis::TeamChoice {
                    home: Choice::Default,
                    away: Choice::Default
                }
            );
            assert_eq!(at(0), (p.home, Slot::First));
            assert_eq!(at(2), (p.away, Slot::First));
        }
        Preset::Crazyhouse => unreachable!(),
    }
}

/// knsb: the draws are numbered 0, 1, 2... in pairing order and follow from the seed; fide:
/// each team's White alternates between its players, first-board player first.
fn check_tournament_colours(t: &Tournament) {
    let pairings: Vec<&Pairing> = t.rounds().iter().flat_map(|r| &r.pairings).collect();
    if t.preset() == Preset::Knsb1988 {
        let draws: Vec<u64> = pairings
            .iter()
            .map(|p| match p.seating.basis {
                Basis::Lot(lot) => lot.draw,
                _ => panic!("no lot"),
            })
            .collect();
        assert_eq!(draws, (0..pairings.len() as u64).collect::<Vec<_>>());
        assert_eq!(t.lots_drawn(), pairings.len() as u64);
    }
    if t.preset() == Preset::Fide {
        for id in 0..t.teams().len() {
            let id = TeamId(id);
            let whites: Vec<Slot> = pairings
                .iter()
                .filter(|p| p.involves(id))
                .map(|p| {
                    p.seats()
                        .into_iter()
                        .find(|s| s.team == id && s.seat.color == bughouse_core::Color::White)
                        .unwrap()
                        .slot
                })
                .collect();
            for (k, w) in whites.iter().enumerate() {
                let expected = if k.is_multiple_of(2) {
                    Slot::First
                } else {
                    Slot::Second
                };
                assert_eq!(*w, expected, "team {id} match {k}");
            }
        }
    }
}

/// Each team exactly once per round, in a match or with the bye; the bye only for odd counts.
fn check_round_covers(t: &Tournament, number: u32) {
    let r = t.round(number).unwrap();
    let n = t.teams().len();
    let mut seen = vec![0; n];
    for p in &r.pairings {
        assert_ne!(p.home, p.away);
        seen[p.home.0] += 1;
        seen[p.away.0] += 1;
    }
    assert_eq!(r.bye.is_some(), n % 2 == 1, "round {number}");
    if let Some(b) = r.bye {
        seen[b.0] += 1;
    }
    assert!(seen.iter().all(|&s| s == 1), "round {number}: {seen:?}");
    let tables: Vec<u32> = r.pairings.iter().map(|p| p.table).collect();
    assert_eq!(tables, (1..=n as u32 / 2).collect::<Vec<_>>());
}

fn home_counts(t: &Tournament) -> Vec<(i32, i32)> {
    let mut c = vec![(0, 0); t.teams().len()];
    for p in t.rounds().iter().flat_map(|r| &r.pairings) {
        c[p.home.0].0 += 1;
        c[p.away.0].1 += 1;
    }
    c
}

fn pair_all(t: &mut Tournament) -> u32 {
    let mut rounds = 0;
    loop {
        match t.pair_next_round() {
            Ok(r) => {
                let r = r.clone();
                rounds += 1;
                check_round_covers(t, r.number);
                for p in &r.pairings {
                    check_seats(t, p);
                }
            }
            Err(TournamentError::AllRoundsPaired(total)) => {
                assert_eq!(total, rounds);
                return rounds;
            }
            Err(e) => panic!("{e}"),
        }
    }
}

#[test]
fn round_robin_every_pairing_exactly_once() {
    for preset in PRESETS {
        for n in 4..=12usize {
            let mut t = tournament(preset, Format::RoundRobin, n, None, n as u64);
            let rounds = pair_all(&mut t);
            assert_eq!(rounds as usize, if n.is_multiple_of(2) { n - 1 } else { n });
            let mut met: HashMap<(TeamId, TeamId), u32> = HashMap::new();
            for p in t.rounds().iter().flat_map(|r| &r.pairings) {
                *met.entry((p.home.min(p.away), p.home.max(p.away)))
                    .or_default() += 1;
            }
            assert_eq!(met.len(), n * (n - 1) / 2, "{preset} {n}");
            assert!(met.values().all(|&c| c == 1));
            // Odd: every team has exactly one bye.
            let mut byes = vec![0; n];
            for r in t.rounds() {
                if let Some(b) = r.bye {
                    byes[b.0] += 1;
                }
            }
            assert!(
                byes.iter().all(|&b| b == usize::from(n % 2 == 1)),
                "{byes:?}"
            );
            // Berger tables balance home and away.
            for (h, a) in home_counts(&t) {
                assert!((h - a).abs() <= 1, "{preset} {n}: {h} home, {a} away");
            }
            check_tournament_colours(&t);
        }
    }
}

#[test]
fn double_round_robin_every_pairing_twice_with_home_swapped() {
    for preset in PRESETS {
        for n in 4..=12usize {
            let mut t = tournament(preset, Format::DoubleRoundRobin, n, None, 77);
            let rounds = pair_all(&mut t);
            let single = if n.is_multiple_of(2) { n - 1 } else { n };
            assert_eq!(rounds as usize, 2 * single);
            let mut home_away: HashMap<(TeamId, TeamId), u32> = HashMap::new();
            for p in t.rounds().iter().flat_map(|r| &r.pairings) {
                *home_away.entry((p.home, p.away)).or_default() += 1;
            }
            // Every ordered pair once: each pair twice, once at each team's home.
            assert_eq!(home_away.len(), n * (n - 1));
            assert!(home_away.values().all(|&c| c == 1));
            // The second cycle is the first with home and away swapped.
            for r in 1..=single {
                let first = t.round(r as u32).unwrap();
                let second = t.round((r + single) as u32).unwrap();
                let swapped: Vec<_> = first.pairings.iter().map(|p| (p.away, p.home)).collect();
                let got: Vec<_> = second.pairings.iter().map(|p| (p.home, p.away)).collect();
                assert_eq!(got, swapped);
                assert_eq!(first.bye, second.bye);
            }
            for (h, a) in home_counts(&t) {
                assert_eq!(h, a);
            }
            check_tournament_colours(&t);
        }
    }
}

#[test]
fn round_robin_can_be_cut_short_but_not_lengthened() {
    let mut t = tournament(Preset::Fide, Format::RoundRobin, 4, Some(2), 1);
    assert_eq!(pair_all(&mut t), 2);
    let mut t = tournament(Preset::Fide, Format::RoundRobin, 4, Some(4), 1);
    assert!(matches!(
        t.pair_next_round(),
        Err(TournamentError::TooManyRounds { max: 3, .. })
    ));
}

/// Whether the teams can be paired with no repeated encounter, with the bye (odd counts) to
/// one of `bye_candidates`. Plain recursion: no cleverness to share with the crate.
fn exists_pairing(
    teams: &[usize],
    met: &HashSet<(usize, usize)>,
    bye_candidates: &[usize],
) -> bool {
    fn complete(rest: &[usize], met: &HashSet<(usize, usize)>) -> bool {
        let Some((&p, others)) = rest.split_first() else {
            return true;
        };
        others.iter().enumerate().any(|(i, &q)| {
            if met.contains(&(p.min(q), p.max(q))) {
                return false;
            }
            let mut next: Vec<usize> = others.to_vec();
            next.remove(i);
            complete(&next, met)
        })
    }
    if teams.len().is_multiple_of(2) {
        complete(teams, met)
    } else {
        bye_candidates.iter().any(|b| {
            let rest: Vec<usize> = teams.iter().copied().filter(|t| t != b).collect();
            complete(&rest, met)
        })
    }
}

/// The Swiss ranking order before a round: match points, game points, rating, number.
fn swiss_order(t: &Tournament) -> Vec<usize> {
    let standings = t.standings();
    let mut ids: Vec<usize> = (0..t.teams().len()).collect();
    let key = |i: usize| {
        let s = standings.iter().find(|s| s.team.0 == i).unwrap();
        (s.match_points, s.game_points, t.teams()[i].rating())
    };
    ids.sort_by(|&a, &b| key(b).cmp(&key(a)).then(a.cmp(&b)));
    ids
}

#[test]
fn swiss_never_repeats_a_pairing() {
    let mut refused = 0;
    let mut second_byes = 0;
    for preset in PRESETS {
        for n in 4..=12usize {
            for seed in [1u64, 2, 3] {
                let rounds = if n.is_multiple_of(2) { n - 1 } else { n } as u32;
                let mut t = tournament(preset, Format::Swiss, n, Some(rounds), seed);
                let mut rng = Rng::new(seed * 1000 + n as u64);
                let first_game = t.scoring().first_game_decides;
                let mut max_diff = 0;
                for number in 1..=rounds {
                    // The state before pairing.
                    let mut met = HashSet::new();
                    for p in t.rounds().iter().flat_map(|r| &r.pairings) {
                        met.insert((p.home.0.min(p.away.0), p.home.0.max(p.away.0)));
                    }
                    let mut byes = vec![0u32; n];
                    for r in t.rounds() {
                        if let Some(b) = r.bye {
                            byes[b.0] += 1;
                        }
                    }
                    let order = swiss_order(&t);
                    let all: Vec<usize> = (0..n).collect();
                    let round = match t.pair_next_round() {
                        Ok(r) => r.clone(),
                        Err(TournamentError::Pairing {
                            error: SwissError::NoPairing,
                            ..
                        }) => {
                            // Refused only when no pairing without a repeat exists at all.
                            assert!(!exists_pairing(&all, &met, &all), "{preset} {n} {seed}");
                            assert!(number + 1 >= rounds, "{preset} {n} {seed}: round {number}");
                            refused += 1;
                            break;
                        }
                        Err(e) => panic!("{preset} {n} teams seed {seed}: {e}"),
                    };
                    check_round_covers(&t, number);
                    for p in &round.pairings {
                        let key = (p.home.0.min(p.away.0), p.home.0.max(p.away.0));
                        assert!(!met.contains(&key), "{preset} {n}: repeated {key:?}");
                        check_seats(&t, p);
                    }
                    if let Some(bye) = round.bye {
                        // The lowest-ranked team without a bye for which the rest can be
                        // paired; only if there is none, one with the fewest byes. (The
                        // look-ahead could in principle pass over a team whose bye leaves a
                        // later round unpairable; with these results it never has to.)
                        let fewest = (0..=number)
                            .find(|&b| {
                                (0..n).any(|i| byes[i] == b && exists_pairing(&all, &met, &[i]))
                            })
                            .expect("some bye works");
                        let expected = order
                            .iter()
                            .rev()
                            .copied()
                            .filter(|&i| byes[i] == fewest)
                            .find(|&i| exists_pairing(&all, &met, &[i]))
                            .unwrap();
                        assert_eq!(bye.0, expected, "{preset} {n} round {number}");
                        if fewest > 0 {
                            second_byes += 1;
                        }
                    }
                    for p in &round.pairings {
                        let record = random_record(&mut rng, first_game);
                        t.set_result(number, p.table, record).unwrap();
                    }
                    // Home and away stay within 2 of each other, but in the last two rounds
                    // of a full-length Swiss, where few pairings are left.
                    // Home and away stay within 2 of each other, but in the last two rounds
                    // of a full-length Swiss, where few pairings are left (there a team can
                    // end 5-2).
                    if number + 2 <= rounds {
                        for (h, a) in home_counts(&t) {
                            max_diff = max_diff.max((h - a).abs());
                        }
                    }
                }
                assert!(
                    max_diff <= 2,
                    "{preset} {n} {seed}: home difference {max_diff}"
                );
                check_tournament_colours(&t);
            }
        }
    }
    // The look-ahead keeps even full-length Swisses pairable, with one bye per team.
    eprintln!("{refused} Swiss tournaments stopped early, {second_byes} second byes");
    assert_eq!(refused, 0);
    assert_eq!(second_byes, 0);
}

#[test]
fn swiss_first_round_top_half_against_bottom_half() {
    let mut t = tournament(Preset::Minerva2014, Format::Swiss, 8, Some(3), 5);
    let r = t.pair_next_round().unwrap().clone();
    // Teams are rated in starting order: 1-5, 2-6, 3-7, 4-8, home alternating by table.
    let pairs: Vec<(usize, usize)> = r
        .pairings
        .iter()
        .map(|p| (p.home.number(), p.away.number()))
        .collect();
    assert_eq!(pairs, [(1, 5), (6, 2), (3, 7), (8, 4)]);
}

#[test]
fn swiss_waits_for_the_previous_round() {
    let mut t = tournament(Preset::Fide, Format::Swiss, 6, Some(3), 5);
    t.pair_next_round().unwrap();
    t.set_result(
        1,
        2,
        bughouse_tournament::MatchRecord::parse_match("1-0").unwrap(),
    )
    .unwrap();
    assert_eq!(
        t.pair_next_round().unwrap_err(),
        TournamentError::RoundNotFinished {
            round: 1,
            tables: vec![1, 3]
        }
    );
    assert_eq!(
        t.pair_next_round().unwrap_err().to_string(),
        "round 1 is not finished: no result at table 1, 3"
    );
}

#[test]
fn knsb_lots_are_reproducible_from_the_seed() {
    let build = |seed| {
        let mut t = tournament(Preset::Knsb1988, Format::RoundRobin, 6, None, seed);
        pair_all(&mut t);
        t
    };
    let a = build(2024);
    let b = build(2024);
    let c = build(2025);
    assert_eq!(a, b);
    let lots = |t: &Tournament| -> Vec<bool> {
        t.rounds()
            .iter()
            .flat_map(|r| &r.pairings)
            .map(|p| match p.seating.basis {
                Basis::Lot(lot) => lot.home_first_white,
                _ => unreachable!(),
            })
            .collect()
    };
    assert_ne!(lots(&a), lots(&c));
    // Both colours come up.
    assert!(lots(&a).contains(&true) && lots(&a).contains(&false));
}

#[test]
fn uscf_team_choice_is_recorded() {
    let mut t = tournament(Preset::UscfScholastic2006, Format::RoundRobin, 4, None, 0);
    t.pair_next_round().unwrap();
    let p = t.round(1).unwrap().table(1).unwrap().clone();
    let p = t
        .set_white_choice(1, 1, p.away, Slot::Second)
        .unwrap()
        .clone();
    assert_eq!(
        p.seating.basis,
        Basis::TeamChoice {
            home: Choice::Default,
            away: Choice::Entered
        }
    );
    let seats = p.seats();
    assert_eq!((seats[0].team, seats[0].slot), (p.home, Slot::First));
    assert_eq!((seats[2].team, seats[2].slot), (p.away, Slot::Second));
    assert_eq!((seats[1].team, seats[1].slot), (p.away, Slot::First));
    check_seats_any(&t, &p);
    // Only for uscf.
    let mut f = tournament(Preset::Fide, Format::RoundRobin, 4, None, 0);
    f.pair_next_round().unwrap();
    assert_eq!(
        f.set_white_choice(1, 1, TeamId(0), Slot::Second)
            .unwrap_err(),
        TournamentError::NoChoice(Preset::Fide)
    );
}

/// The checks every preset shares (for a seating changed by a team's choice).
fn check_seats_any(_t: &Tournament, p: &Pairing) {
    let seats = p.seats();
    assert_eq!(seats[0].team, seats[3].team);
    assert_eq!(seats[1].team, seats[2].team);
    assert_ne!(seats[0].slot, seats[3].slot);
    assert_ne!(seats[1].slot, seats[2].slot);
}

#[test]
fn swiss_sixteen_teams_full_length() {
    for preset in [Preset::Fide, Preset::Knsb1988] {
        for (n, seed) in [(16usize, 1u64), (16, 2), (15, 3), (13, 4)] {
            let rounds = if n.is_multiple_of(2) { n - 1 } else { n } as u32;
            let mut t = tournament(preset, Format::Swiss, n, Some(rounds), seed);
            let mut rng = Rng::new(seed);
            let mut met = HashSet::new();
            for number in 1..=rounds {
                let round = t.pair_next_round().unwrap().clone();
                check_round_covers(&t, number);
                for p in &round.pairings {
                    assert!(met.insert((p.home.min(p.away), p.home.max(p.away))));
                    let record = random_record(&mut rng, t.scoring().first_game_decides);
                    t.set_result(number, p.table, record).unwrap();
                }
            }
            // Every pair met exactly once: the Swiss became a round robin.
            assert_eq!(met.len(), n * (n - 1) / 2);
        }
    }
}
