//! Standings on examples worked out by hand.

mod common;

use bughouse_core::Preset;
use bughouse_tournament::{
    Format, GameResult, MatchRecord, Player, Points, Standing, Team, TeamId, Tournament,
};
use common::{enter, Home};

fn pts(s: &str) -> Points {
    Points::parse(s).unwrap()
}

fn four_teams(preset: Preset, ratings: [(u32, u32); 4]) -> Tournament {
    let mut t = Tournament::new("Hand", preset, Format::RoundRobin, None, 11).unwrap();
    for (i, name) in ["A", "B", "C", "D"].into_iter().enumerate() {
        let (r1, r2) = ratings[i];
        t.add_team(Team::new(
            name,
            Player::rated(format!("{name}1"), r1),
            Player::rated(format!("{name}2"), r2),
        ))
        .unwrap();
    }
    t
}

/// `(team name, rank label, MP, GP, Buchholz, SB, direct encounter)` per line.
type Line<'a> = (
    &'a str,
    &'a str,
    &'a str,
    &'a str,
    &'a str,
    &'a str,
    Option<&'a str>,
);

fn assert_table(t: &Tournament, expected: &[Line<'_>]) {
    let standings: Vec<Standing> = t.standings();
    assert_eq!(standings.len(), expected.len());
    for (s, &(name, rank, mp, gp, bh, sb, de)) in standings.iter().zip(expected) {
        let team = &t.team(s.team).unwrap().name;
        assert_eq!(
            (
                team.as_str(),
                s.rank_label(),
                s.match_points,
                s.game_points,
                s.buchholz,
                s.sonneborn_berger,
                s.direct_encounter
            ),
            (
                name,
                rank.to_owned(),
                pts(mp),
                pts(gp),
                pts(bh),
                pts(sb),
                de.map(pts)
            ),
            "line of {name}"
        );
    }
}

fn round_robin_pairs(t: &Tournament) -> Vec<Vec<(String, String)>> {
    t.rounds()
        .iter()
        .map(|r| {
            r.pairings
                .iter()
                .map(|p| {
                    (
                        t.team(p.home).unwrap().name.clone(),
                        t.team(p.away).unwrap().name.clone(),
                    )
                })
                .collect()
        })
        .collect()
}

/// minerva-2014, first-game scoring (M8.2), four teams, single round robin.
///
/// Berger tables: round 1 A-D, B-C; round 2 D-C, A-B; round 3 B-D, C-A. Under M1.5 the home
/// team sits BlackA + WhiteB, so board A `0-1` and board B `1-0` are home wins.
///
/// | round | match | boards (A, B)      | result               |
/// |-------|-------|--------------------|----------------------|
/// | 1     | A-D   | 0-1, *             | A wins (home Black on A) |
/// | 1     | B-C   | *, 1-0             | B wins (home White on B) |
/// | 2     | D-C   | 1-0, *             | C wins (away White on A) |
/// | 2     | A-B   | *, 1/2-1/2         | draw                 |
/// | 3     | B-D   | *, 0-1             | D wins (away Black on B) |
/// | 3     | C-A   | 1-0, 0-1 (at once) | A won both: A wins (F4.4 rule) |
///
/// Match points (= game points under first-game scoring):
/// A = 1 (D) + ½ (B) + 1 (C) = 2.5; B = 1 (C) + ½ (A) + 0 (D) = 1.5;
/// C = 0 (B) + 1 (D) + 0 (A) = 1; D = 0 (A) + 0 (C) + 1 (B) = 1. Total 6 = six matches.
///
/// Buchholz (opponents' match points):
/// A = D 1 + B 1.5 + C 1 = 3.5; B = C 1 + A 2.5 + D 1 = 4.5;
/// C = B 1.5 + D 1 + A 2.5 = 5; D = A 2.5 + C 1 + B 1.5 = 5.
///
/// Sonneborn-Berger (beaten opponents' MP + half of drawn opponents'):
/// A = D 1 + C 1 + ½·B 1.5 = 2.75; B = C 1 + ½·A 2.5 = 2.25; C = D 1 = 1; D = B 1.5 = 1.5.
///
/// Ranking: A 2.5; B 1.5; C and D tie on 1 MP, 1 GP and Buchholz 5; Sonneborn-Berger puts D
/// (1.5) before C (1). No tie reaches direct encounter.
#[test]
fn minerva_by_hand() {
    let mut t = four_teams(Preset::Minerva2014, [(1800, 1800); 4]);
    for _ in 0..3 {
        t.pair_next_round().unwrap();
    }
    let s = |a: &str, b: &str| (a.to_owned(), b.to_owned());
    assert_eq!(
        round_robin_pairs(&t),
        [
            vec![s("A", "D"), s("B", "C")],
            vec![s("D", "C"), s("A", "B")],
            vec![s("B", "D"), s("C", "A")]
        ]
    );
    let games = |a: &str, b: &str| MatchRecord::Games {
        a: a.parse::<GameResult>().unwrap(),
        b: b.parse::<GameResult>().unwrap(),
    };
    t.set_result(1, 1, games("0-1", "*")).unwrap();
    t.set_result(1, 2, games("*", "1-0")).unwrap();
    t.set_result(2, 1, games("1-0", "*")).unwrap();
    t.set_result(2, 2, games("*", "1/2-1/2")).unwrap();
    t.set_result(3, 1, games("*", "0-1")).unwrap();
    t.set_result(3, 2, games("1-0", "0-1")).unwrap();
    assert_table(
        &t,
        &[
            ("A", "1", "2.5", "2.5", "3.5", "2.75", None),
            ("B", "2", "1.5", "1.5", "4.5", "2.25", None),
            ("D", "3", "1", "1", "5", "1.5", None),
            ("C", "4", "1", "1", "5", "1", None),
        ],
    );
    let a = &t.standings()[0];
    assert_eq!((a.played, a.won, a.drawn, a.lost, a.byes), (3, 2, 1, 0, 0));
}

/// knsb-1988, both games count (K11G), four teams, single round robin. The colours come from
/// the lots, so the results are given per board from the home team's side (the test turns
/// them into White-side results with the drawn seats).
///
/// | round | match | home's games (A, B) | game points | match points |
/// |-------|-------|---------------------|-------------|--------------|
/// | 1     | A-D   | win, win            | 2 - 0       | 2 - 0        |
/// | 1     | B-C   | win, loss           | 1 - 1       | 1 - 1        |
/// | 2     | D-C   | win, draw           | 1.5 - 0.5   | 2 - 0        |
/// | 2     | A-B   | draw, draw          | 1 - 1       | 1 - 1        |
/// | 3     | B-D   | win, win            | 2 - 0       | 2 - 0        |
/// | 3     | C-A   | draw, win           | 1.5 - 0.5   | 2 - 0        |
///
/// Match points: A = 2 + 1 + 0 = 3; B = 1 + 1 + 2 = 4; C = 1 + 0 + 2 = 3; D = 0 + 2 + 0 = 2.
/// Game points: A = 2 + 1 + 0.5 = 3.5; B = 1 + 1 + 2 = 4; C = 1 + 0.5 + 1.5 = 3;
/// D = 0 + 1.5 + 0 = 1.5 (total 12 = six matches of two games).
///
/// Buchholz: A = D 2 + B 4 + C 3 = 9; B = C 3 + A 3 + D 2 = 8; C = B 4 + D 2 + A 3 = 9;
/// D = A 3 + C 3 + B 4 = 10.
///
/// Sonneborn-Berger: A = beat D 2 + ½·drew B 4 = 4; B = ½·C 3 + ½·A 3 + beat D 2 = 5;
/// C = ½·B 4 + beat A 3 = 5; D = beat C 3 = 3.
///
/// Ranking: B 4; A and C on 3 match points, A ahead on game points (3.5 to 3); D 2.
#[test]
fn knsb_by_hand() {
    let mut t = four_teams(
        Preset::Knsb1988,
        [(1500, 1500), (1500, 1500), (1600, 1600), (1400, 1400)],
    );
    for _ in 0..3 {
        t.pair_next_round().unwrap();
    }
    use Home::{Draw, Loss, Win};
    enter(&mut t, 1, 1, Win, Win);
    enter(&mut t, 1, 2, Win, Loss);
    enter(&mut t, 2, 1, Win, Draw);
    enter(&mut t, 2, 2, Draw, Draw);
    enter(&mut t, 3, 1, Win, Win);
    enter(&mut t, 3, 2, Draw, Win);
    assert_table(
        &t,
        &[
            ("B", "1", "4", "4", "8", "5", None),
            ("A", "2", "3", "3.5", "9", "4", None),
            ("C", "3", "3", "3", "9", "5", None),
            ("D", "4", "2", "1.5", "10", "3", None),
        ],
    );
    let b = &t.standings()[0];
    assert_eq!((b.won, b.drawn, b.lost), (1, 2, 0));
}

/// fide, four teams: a cycle among A, B, C that direct encounter cannot break, so the rating
/// does, and a full tie shares a rank.
///
/// Round 1 A-D 0-1, B-C 0-1; round 2 D-C 1-0, A-B 0-1; round 3 B-D 0-1, C-A 0-1 (match
/// results from the home team's side). D beats everyone: 3. A beat C, B beat A, C beat B: 1
/// each. Buchholz 5 each (6 - 1), D 3; Sonneborn-Berger 1 each (one beaten opponent with 1),
/// D 3. Direct encounter among A, B, C (they all met): 1 each. Ratings: B 1800; A 1700 and C
/// (1600 + 1800) / 2 = 1700: B is 2nd, A and C share 3rd-4th, listed by starting number.
#[test]
fn fide_cycle_goes_to_rating_and_shares_a_rank() {
    let mut t = four_teams(
        Preset::Fide,
        [(1700, 1700), (1800, 1800), (1600, 1800), (1500, 1500)],
    );
    let m = |s: &str| MatchRecord::parse_match(s).unwrap();
    for (round, results) in [
        (1, ["0-1", "0-1"]),
        (2, ["1-0", "0-1"]),
        (3, ["0-1", "0-1"]),
    ] {
        t.pair_next_round().unwrap();
        for (table, r) in results.into_iter().enumerate() {
            t.set_result(round, table as u32 + 1, m(r)).unwrap();
        }
    }
    assert_table(
        &t,
        &[
            ("D", "1", "3", "3", "3", "3", None),
            ("B", "2", "1", "1", "5", "1", Some("1")),
            ("A", "3-4", "1", "1", "5", "1", Some("1")),
            ("C", "3-4", "1", "1", "5", "1", Some("1")),
        ],
    );
}

/// fide, a Swiss of six teams loaded from a file whose rounds were paired by hand, where
/// direct encounter decides.
///
/// Round 1 A-C 1-0, E-H 1-0, F-G ½; round 2 A-E ½, C-F 1-0, G-H 0-1; round 3 A-G 0-1,
/// C-E ½, F-H 1-0.
///
/// Match points: A = 1 + ½ + 0 = 1.5; C = 0 + 1 + ½ = 1.5; E = 1 + ½ + ½ = 2;
/// F = ½ + 0 + 1 = 1.5; G = ½ + 0 + 1 = 1.5; H = 0 + 1 + 0 = 1 (total 9).
/// Buchholz: A = C 1.5 + E 2 + G 1.5 = 5; C = A 1.5 + F 1.5 + E 2 = 5; E = H 1 + A 1.5 +
/// C 1.5 = 4; F = G 1.5 + C 1.5 + H 1 = 4; G = F 1.5 + H 1 + A 1.5 = 4; H = E 2 + G 1.5 +
/// F 1.5 = 5.
/// Sonneborn-Berger: A = C 1.5 + ½·E 2 = 2.5; C = F 1.5 + ½·E 2 = 2.5; E = H 1 + ½·A 1.5 +
/// ½·C 1.5 = 2.5; F = ½·G 1.5 + H 1 = 1.75; G = ½·F 1.5 + A 1.5 = 2.25; H = G 1.5.
/// A and C tie on everything before direct encounter; A beat C, so A (1) goes before C (0)
/// although C is rated higher. G goes before F on Sonneborn-Berger.
#[test]
fn direct_encounter_decides_before_rating() {
    let mut t = Tournament::new("Hand", Preset::Fide, Format::Swiss, Some(3), 1).unwrap();
    for (name, rating) in [
        ("A", 1500),
        ("C", 2000),
        ("E", 1500),
        ("F", 1500),
        ("G", 1500),
        ("H", 1500),
    ] {
        t.add_team(Team::new(
            name,
            Player::rated(format!("{name}1"), rating),
            Player::rated(format!("{name}2"), rating),
        ))
        .unwrap();
    }
    let id = |n: &str| t.find_team(n).unwrap().0;
    let rounds = [
        [("A", "C", "1-0"), ("E", "H", "1-0"), ("F", "G", "1/2-1/2")],
        [("A", "E", "1/2-1/2"), ("C", "F", "1-0"), ("G", "H", "0-1")],
        [("A", "G", "0-1"), ("C", "E", "1/2-1/2"), ("F", "H", "1-0")],
    ];
    let rounds_json: Vec<serde_json::Value> = rounds
        .iter()
        .enumerate()
        .map(|(r, matches)| {
            serde_json::json!({
                "number": r + 1,
                "pairings": matches.iter().enumerate().map(|(i, (h, a, res))| serde_json::json!({
                    "table": i + 1,
                    "home": id(h),
                    "away": id(a),
                    "seating": {
                        "home_side": "WhiteA+BlackB",
                        "home_white": "first",
                        "away_white": "second",
                        "basis": "alternation"
                    },
                    "result": { "match": res }
                })).collect::<Vec<_>>()
            })
        })
        .collect();
    let mut value: serde_json::Value = serde_json::from_str(&t.to_json()).unwrap();
    value["rounds"] = serde_json::Value::Array(rounds_json);
    let t = Tournament::from_json(&value.to_string()).unwrap();
    assert_table(
        &t,
        &[
            ("E", "1", "2", "2", "4", "2.5", None),
            ("A", "2", "1.5", "1.5", "5", "2.5", Some("1")),
            ("C", "3", "1.5", "1.5", "5", "2.5", Some("0")),
            ("G", "4", "1.5", "1.5", "4", "2.25", None),
            ("F", "5", "1.5", "1.5", "4", "1.75", None),
            ("H", "6", "1", "1", "5", "1.5", None),
        ],
    );
    assert_eq!(t.standings()[1].team, TeamId(0));
}

/// Byes and forfeits: three teams, single round robin, minerva. Berger for three: round 1 B-C
/// (A bye), round 2 A-B (C bye), round 3 C-A (B bye). B forfeits to C (`-+`: the home team
/// forfeits); A-B is a double forfeit (`--`); C-A ends on board B `1-0`, and under M1.5 White
/// on board B is the home partner, so C wins.
///
/// A: bye 1 + double forfeit 0 + loss 0 = 1; B: 0 + 0 + bye 1 = 1; C: forfeit win 1 +
/// bye 1 + win 1 = 3. Buchholz: A = B 1 + C 3 = 4; B = C 3 + A 1 = 4; C = B 1 + A 1 = 2.
/// Sonneborn-Berger: A 0, B 0, C = B 1 + A 1 = 2. A and B tie on MP, GP, Buchholz and SB;
/// they met (the double forfeit, 0 each), so direct encounter is 0 each; unrated both: they
/// share 2nd-3rd.
#[test]
fn byes_and_forfeits() {
    let mut t = Tournament::new("Small", Preset::Minerva2014, Format::RoundRobin, None, 1).unwrap();
    for name in ["A", "B", "C"] {
        t.add_team(Team::new(
            name,
            Player::new(format!("{name}1")),
            Player::new(format!("{name}2")),
        ))
        .unwrap();
    }
    for _ in 0..3 {
        t.pair_next_round().unwrap();
    }
    assert_eq!(t.round(1).unwrap().bye, Some(TeamId(0)));
    assert_eq!(t.round(2).unwrap().bye, Some(TeamId(2)));
    assert_eq!(t.round(3).unwrap().bye, Some(TeamId(1)));
    let m = |s: &str| MatchRecord::parse_match(s).unwrap();
    t.set_result(1, 1, m("-+")).unwrap();
    t.set_result(2, 1, m("--")).unwrap();
    t.set_result(
        3,
        1,
        MatchRecord::Games {
            a: GameResult::Stopped,
            b: GameResult::WhiteWins,
        },
    )
    .unwrap();
    assert_table(
        &t,
        &[
            ("C", "1", "3", "3", "2", "2", None),
            ("A", "2-3", "1", "1", "4", "0", Some("0")),
            ("B", "2-3", "1", "1", "4", "0", Some("0")),
        ],
    );
    let c = &t.standings()[0];
    assert_eq!((c.played, c.won, c.byes), (2, 2, 1));
}
