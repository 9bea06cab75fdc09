//! `bughouse tournament`, checked by running the binary: a 6-team, 5-round Swiss from `new` to
//! `standings`, and the errors a user meets.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh directory for one test, removed when dropped.
struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let dir =
            std::env::temp_dir().join(format!("bughouse-tournament-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("the temporary directory is created");
        Dir(dir)
    }

    fn file(&self, name: &str) -> String {
        self.0.join(name).to_string_lossy().into_owned()
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bughouse"))
        .arg("tournament")
        .args(args)
        .output()
        .expect("the bughouse binary runs")
}

/// Runs a command that must succeed and returns its standard output.
fn ok(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "bughouse tournament {args:?} failed with {}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

/// Runs a command that must fail with status 2 and returns its standard error.
fn fails(args: &[&str]) -> String {
    let out = run(args);
    assert_eq!(
        out.status.code(),
        Some(2),
        "bughouse tournament {args:?}: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    let err = String::from_utf8(out.stderr).expect("stderr is UTF-8");
    assert!(!err.contains("panicked"), "{err}");
    err
}

const TEAMS: [(&str, &str, &str, &str, &str); 6] = [
    ("Rooks", "Ann", "Bob", "1900", "1700"),
    ("Knights", "Cas", "Dirk", "1850", "1800"),
    ("Bishops", "Eva", "Fem", "1750", "1650"),
    ("Pawns", "Gijs", "Hans", "1600", "1600"),
    ("Queens", "Ida", "Jan", "1500", "1550"),
    ("Kings", "Kees", "Lot", "1400", "1450"),
];

/// One printed match: the teams and the four seats `(seat, player, team, first board)`.
#[derive(Debug)]
struct Printed {
    table: u32,
    home: String,
    away: String,
    seats: Vec<(String, String, String, bool)>,
}

/// Reads the text `pair` and `pairings` print.
fn parse_round(text: &str) -> Vec<Printed> {
    let mut out: Vec<Printed> = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("Table ") {
            let (table, teams) = rest.split_once(": ").expect("Table N: HOME - AWAY");
            let (home, away) = teams.split_once(" - ").expect("HOME - AWAY");
            out.push(Printed {
                table: table.parse().expect("a table number"),
                home: home.to_owned(),
                away: away.to_owned(),
                seats: Vec::new(),
            });
        } else if let Some(seat) = ["WhiteA", "BlackA", "WhiteB", "BlackB"]
            .into_iter()
            .find(|s| line.trim_start().starts_with(s))
        {
            // `  BlackA  Ann (Rooks, first board)`
            let rest = line.trim_start()[seat.len()..].trim();
            let (player, team) = rest.split_once(" (").expect("PLAYER (TEAM)");
            let team = team.trim_end_matches(')');
            let (team, first) = match team.strip_suffix(", first board") {
                Some(t) => (t, true),
                None => (team, false),
            };
            out.last_mut().expect("a table line first").seats.push((
                seat.to_owned(),
                player.to_owned(),
                team.to_owned(),
                first,
            ));
        }
    }
    out
}

#[test]
fn swiss_six_teams_five_rounds_from_new_to_standings() {
    let dir = Dir::new("swiss");
    let file = dir.file("club.json");
    let f = file.as_str();
    let created = ok(&[
        "new",
        f,
        "--name",
        "Club night",
        "--rules",
        "minerva-2014",
        "--format",
        "swiss",
        "--rounds",
        "5",
        "--seed",
        "12",
    ]);
    assert!(
        created.contains("minerva-2014, swiss, 5 rounds, seed 12"),
        "{created}"
    );
    for (name, first, second, r1, r2) in TEAMS {
        let out = ok(&[
            "add-team",
            f,
            "--name",
            name,
            "--first",
            first,
            "--second",
            second,
            "--rating1",
            r1,
            "--rating2",
            r2,
        ]);
        assert!(out.contains(name), "{out}");
    }
    let player_team: HashMap<&str, &str> = TEAMS
        .iter()
        .flat_map(|(team, a, b, _, _)| [(*a, *team), (*b, *team)])
        .collect();
    let first_board: HashSet<&str> = TEAMS.iter().map(|t| t.1).collect();
    let mut met: HashSet<(String, String)> = HashSet::new();
    // Match points by hand: table 1 the home team wins on board A (0-1: Black on board A is
    // the home first-board player, M1.5), table 2 a draw on board B, table 3 the away team
    // wins on board B (0-1: Black on board B is the away partner).
    let mut points: HashMap<String, f64> = HashMap::new();
    for round in 1..=5 {
        let text = ok(&["pair", f]);
        assert!(text.starts_with(&format!("Round {round}\n")), "{text}");
        let matches = parse_round(&text);
        assert_eq!(matches.len(), 3, "{text}");
        let mut playing = HashSet::new();
        for m in &matches {
            assert!(playing.insert(m.home.clone()) && playing.insert(m.away.clone()));
            let key = if m.home < m.away {
                (m.home.clone(), m.away.clone())
            } else {
                (m.away.clone(), m.home.clone())
            };
            assert!(
                met.insert(key),
                "round {round}: {} - {} again",
                m.home,
                m.away
            );
            // minerva-2014: WhiteA away first board, BlackA home first board, WhiteB home
            // partner, BlackB away partner.
            let expect = [
                ("WhiteA", &m.away, true),
                ("BlackA", &m.home, true),
                ("WhiteB", &m.home, false),
                ("BlackB", &m.away, false),
            ];
            assert_eq!(m.seats.len(), 4);
            for ((seat, player, team, first), (eseat, eteam, efirst)) in m.seats.iter().zip(expect)
            {
                assert_eq!(seat, eseat);
                assert_eq!(team, eteam, "{seat} in {text}");
                assert_eq!(*first, efirst);
                assert_eq!(player_team[player.as_str()], team.as_str());
                assert_eq!(first_board.contains(player.as_str()), *first);
            }
        }
        assert_eq!(playing.len(), 6);
        for m in &matches {
            let t = m.table.to_string();
            let (args, home, away): (Vec<&str>, f64, f64) = match m.table {
                1 => (vec!["--board-a", "0-1", "--board-b", "*"], 1.0, 0.0),
                2 => (vec!["--board-b", "1/2-1/2"], 0.5, 0.5),
                _ => (vec!["--board-a", "*", "--board-b", "0-1"], 0.0, 1.0),
            };
            let round_s = round.to_string();
            let mut cmd = vec![
                "result",
                f,
                "--round",
                round_s.as_str(),
                "--table",
                t.as_str(),
            ];
            cmd.extend(args);
            let out = ok(&cmd);
            // f64 prints 1.0 as `1`, as the points are printed.
            assert!(
                out.contains(&format!("match points {home}-{away}")),
                "{out}"
            );
            *points.entry(m.home.clone()).or_default() += home;
            *points.entry(m.away.clone()).or_default() += away;
        }
    }
    assert_eq!(met.len(), 15);
    // A sixth round is refused, without a panic.
    let err = fails(&["pair", f]);
    assert!(err.contains("all 5 rounds are paired"), "{err}");

    let standings = ok(&["standings", f]);
    let lines: Vec<&str> = standings.lines().collect();
    assert_eq!(lines.len(), 7, "{standings}");
    assert!(lines[0].starts_with("Rank  Team"), "{standings}");
    let mut total = 0.0;
    let mut previous = f64::MAX;
    for line in &lines[1..] {
        let cells: Vec<&str> = line.split_whitespace().collect();
        let team = cells[1];
        let mp: f64 = cells[2].parse().expect("match points");
        assert_eq!(mp, points[team], "{team} in\n{standings}");
        assert!(mp <= previous, "sorted by match points:\n{standings}");
        previous = mp;
        total += mp;
    }
    assert_eq!(total, 15.0);

    let csv = ok(&["standings", f, "--csv"]);
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 7);
    assert!(rows[0].starts_with("rank,team,first_board,second_board,rating,played"));
    let pairings = ok(&["pairings", f, "--csv"]);
    assert_eq!(pairings.lines().count(), 16, "{pairings}");
    assert!(pairings
        .lines()
        .skip(1)
        .all(|l| l.contains("M1.5: home first-board player Black")));
    let round2 = ok(&["pairings", f, "--round", "2"]);
    assert!(
        round2.starts_with("Round 2\n") && !round2.contains("Round 3"),
        "{round2}"
    );
    assert_eq!(parse_round(&round2).len(), 3);
    let shown = ok(&["show", f]);
    for needle in [
        "Club night",
        "rules: minerva-2014",
        "Round 5",
        "Standings",
        "Kees (1400)",
    ] {
        assert!(shown.contains(needle), "{needle} in\n{shown}");
    }
}

#[test]
fn knsb_draws_follow_the_seed() {
    let dir = Dir::new("knsb");
    let pairings_of = |name: &str, seed: &str| {
        let file = dir.file(name);
        let f = file.as_str();
        ok(&[
            "new",
            f,
            "--name",
            "Lots",
            "--rules",
            "knsb-1988",
            "--format",
            "round-robin",
            "--seed",
            seed,
        ]);
        for (name, first, second, _, _) in TEAMS {
            ok(&[
                "add-team", f, "--name", name, "--first", first, "--second", second,
            ]);
        }
        for _ in 0..5 {
            ok(&["pair", f]);
        }
        assert!(fails(&["pair", f]).contains("all 5 rounds are paired"));
        ok(&["pairings", f])
    };
    let a = pairings_of("a.json", "99");
    let b = pairings_of("b.json", "99");
    let c = pairings_of("c.json", "100");
    assert_eq!(a, b);
    assert_ne!(a, c);
    assert_eq!(a.matches("K1D lot ").count(), 15);
    // The first-board players face each other on board A.
    for m in parse_round(&a) {
        assert!(m.seats[0].3 && m.seats[1].3, "{m:?}");
    }
    // Both games count: a stopped board is refused, both boards are taken.
    let f = dir.file("a.json");
    let err = fails(&[
        "result",
        &f,
        "--round",
        "1",
        "--table",
        "1",
        "--board-a",
        "1-0",
    ]);
    assert!(err.contains("both games are played out (K11G)"), "{err}");
    let err = fails(&[
        "result", &f, "--round", "1", "--table", "1", "--match", "1-0",
    ]);
    assert!(err.contains("give both games"), "{err}");
    let out = ok(&[
        "result",
        &f,
        "--round",
        "1",
        "--table",
        "1",
        "--board-a",
        "1-0",
        "--board-b",
        "1/2-1/2",
    ]);
    assert!(
        out.contains("game points 1.5-0.5") || out.contains("game points 0.5-1.5"),
        "{out}"
    );
    let out = ok(&[
        "result", &f, "--round", "1", "--table", "2", "--match", "--",
    ]);
    assert!(out.contains("match points 0-0"), "{out}");
}

#[test]
fn clear_errors() {
    let dir = Dir::new("errors");
    let file = dir.file("t.json");
    let f = file.as_str();
    let missing = dir.file("missing.json");
    assert!(fails(&["show", &missing]).contains("cannot read"));
    assert!(fails(&[
        "new",
        f,
        "--name",
        "X",
        "--rules",
        "crazyhouse",
        "--format",
        "swiss",
        "--rounds",
        "3"
    ])
    .contains("single-board"));
    assert!(
        fails(&["new", f, "--name", "X", "--rules", "fide", "--format", "swiss"])
            .contains("needs a number of rounds")
    );
    assert!(fails(&[
        "new", f, "--name", "X", "--rules", "nope", "--format", "swiss", "--rounds", "3"
    ])
    .contains("unknown rules preset"));
    assert!(fails(&[
        "new", f, "--name", "X", "--rules", "fide", "--format", "league", "--rounds", "3"
    ])
    .contains("unknown format"));
    ok(&[
        "new", f, "--name", "X", "--rules", "fide", "--format", "swiss", "--rounds", "3",
    ]);
    assert!(fails(&[
        "new", f, "--name", "X", "--rules", "fide", "--format", "swiss", "--rounds", "3"
    ])
    .contains("--force"));
    assert!(fails(&["pair", f]).contains("at least 2 teams"));
    ok(&[
        "add-team", f, "--name", "A", "--first", "a1", "--second", "a2",
    ]);
    assert!(
        fails(&["add-team", f, "--name", "a", "--first", "x", "--second", "y"])
            .contains("already a team named")
    );
    ok(&[
        "add-team", f, "--name", "B", "--first", "b1", "--second", "b2",
    ]);
    ok(&[
        "add-team", f, "--name", "C", "--first", "c1", "--second", "c2",
    ]);
    assert!(fails(&["standings", f, "--round", "1"]).contains("unexpected argument"));
    let round = ok(&["pair", f]);
    assert!(round.contains("Bye: "), "{round}");
    assert!(
        fails(&["add-team", f, "--name", "D", "--first", "d1", "--second", "d2"])
            .contains("teams are fixed")
    );
    assert!(fails(&["pair", f]).contains("round 1 is not finished"));
    assert!(
        fails(&["result", f, "--round", "2", "--table", "1", "--match", "1-0"])
            .contains("there is no round 2")
    );
    assert!(
        fails(&["result", f, "--round", "1", "--table", "4", "--match", "1-0"])
            .contains("has no table 4")
    );
    assert!(fails(&["result", f, "--round", "1", "--table", "1"]).contains("--match"));
    assert!(fails(&[
        "result",
        f,
        "--round",
        "1",
        "--table",
        "1",
        "--board-a",
        "*"
    ])
    .contains("both boards are *"));
    assert!(
        fails(&["result", f, "--round", "1", "--table", "1", "--match", "2-0"])
            .contains("cannot read result")
    );
    assert!(fails(&[
        "result",
        f,
        "--round",
        "1",
        "--table",
        "1",
        "--board-a",
        "1:0"
    ])
    .contains("cannot read result"));
    assert!(fails(&[
        "choose", f, "--round", "1", "--table", "1", "--team", "A", "--white", "second"
    ])
    .contains("only uscf-scholastic-2006"));
    assert!(fails(&["pairings", f, "--round", "7"]).contains("there is no round 7"));
    // A file that is not a tournament.
    std::fs::write(Path::new(&file), "{\"version\": 1}").unwrap();
    assert!(fails(&["show", f]).contains("cannot read the tournament"));
}

#[test]
fn uscf_team_choice() {
    let dir = Dir::new("uscf");
    let file = dir.file("t.json");
    let f = file.as_str();
    ok(&[
        "new",
        f,
        "--name",
        "U",
        "--rules",
        "uscf",
        "--format",
        "round-robin",
    ]);
    ok(&[
        "add-team", f, "--name", "A", "--first", "a1", "--second", "a2",
    ]);
    ok(&[
        "add-team", f, "--name", "B", "--first", "b1", "--second", "b2",
    ]);
    let round = parse_round(&ok(&["pair", f]));
    // Default: each team's first-board player has White; the home team sits WhiteA + BlackB.
    let seats: Vec<&str> = round[0].seats.iter().map(|s| s.1.as_str()).collect();
    assert_eq!(seats, ["a1", "b2", "b1", "a2"]);
    let out = ok(&[
        "choose", f, "--round", "1", "--table", "1", "--team", "2", "--white", "second",
    ]);
    let round = parse_round(&out);
    let seats: Vec<&str> = round[0].seats.iter().map(|s| s.1.as_str()).collect();
    assert_eq!(seats, ["a1", "b1", "b2", "a2"]);
    assert!(
        out.contains("U3: team choice (home default, away entered)"),
        "{out}"
    );
    ok(&["result", f, "--round", "1", "--table", "1", "--match", "+-"]);
    assert!(fails(&[
        "choose", f, "--round", "1", "--table", "1", "--team", "A", "--white", "second"
    ])
    .contains("already has a result"));
}
