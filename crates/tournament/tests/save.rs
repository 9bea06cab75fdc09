//! Saving and loading, CSV export, and the errors a user can run into.

mod common;

use bughouse_core::Preset;
use bughouse_tournament::{
    csv, Format, MatchRecord, Player, ResultError, Team, Tournament, TournamentError,
};
use common::{random_record, tournament, Rng};

fn played(preset: Preset, format: Format, n: usize, rounds: u32) -> Tournament {
    let mut t = tournament(preset, format, n, Some(rounds), 9);
    let mut rng = Rng::new(3);
    for number in 1..=rounds {
        let tables: Vec<u32> = t
            .pair_next_round()
            .unwrap()
            .pairings
            .iter()
            .map(|p| p.table)
            .collect();
        for table in tables {
            let record = random_record(&mut rng, t.scoring().first_game_decides);
            t.set_result(number, table, record).unwrap();
        }
    }
    t
}

#[test]
fn json_round_trip() {
    for preset in [
        Preset::Fide,
        Preset::Minerva2014,
        Preset::Knsb1988,
        Preset::UscfScholastic2006,
    ] {
        let t = played(preset, Format::Swiss, 7, 4);
        let json = t.to_json();
        assert!(json.contains(&format!("\"preset\": \"{}\"", preset.id())));
        let back = Tournament::from_json(&json).unwrap();
        assert_eq!(back, t);
        assert_eq!(back.standings(), t.standings());
    }
}

#[test]
fn knsb_file_records_every_draw() {
    let t = played(Preset::Knsb1988, Format::RoundRobin, 4, 3);
    let json = t.to_json();
    assert_eq!(json.matches("\"lot\"").count(), 6);
    assert!(json.contains("\"lots_drawn\": 6"));
    assert!(json.contains("\"seed\": 9"));
}

#[test]
fn inconsistent_files_are_refused() {
    let t = played(Preset::Knsb1988, Format::Swiss, 6, 2);
    let mut v: serde_json::Value = serde_json::from_str(&t.to_json()).unwrap();
    // A lot that does not follow from the seed.
    let mut tampered = v.clone();
    let roll = &mut tampered["rounds"][0]["pairings"][0]["seating"]["basis"]["lot"]["roll"];
    *roll = serde_json::json!(roll.as_u64().unwrap() ^ 1);
    let err = Tournament::from_json(&tampered.to_string()).unwrap_err();
    assert!(
        err.to_string().contains("does not follow from the seed"),
        "{err}"
    );
    // A team twice in a round.
    let mut twice = v.clone();
    let home = twice["rounds"][0]["pairings"][0]["home"].clone();
    twice["rounds"][0]["pairings"][1]["home"] = home;
    let err = Tournament::from_json(&twice.to_string()).unwrap_err();
    assert!(err.to_string().contains("plays twice"), "{err}");
    // Another version.
    v["version"] = serde_json::json!(2);
    assert_eq!(
        Tournament::from_json(&v.to_string()).unwrap_err(),
        TournamentError::Version(2)
    );
    assert!(matches!(
        Tournament::from_json("{not json"),
        Err(TournamentError::Json(_))
    ));
    let crazy = t.to_json().replace("knsb-1988", "crazyhouse");
    assert_eq!(
        Tournament::from_json(&crazy).unwrap_err(),
        TournamentError::NotBughouse(Preset::Crazyhouse)
    );
    let unknown = t.to_json().replace("knsb-1988", "blitz");
    assert!(Tournament::from_json(&unknown)
        .unwrap_err()
        .to_string()
        .contains("unknown rules preset"));
}

#[test]
fn csv_export() {
    let mut t = Tournament::new("Csv", Preset::Minerva2014, Format::RoundRobin, None, 1).unwrap();
    t.add_team(Team::new(
        "Rooks, Inc.",
        Player::new("Ann \"the rook\""),
        Player::new("Bob"),
    ))
    .unwrap();
    t.add_team(Team::new(
        "Knights",
        Player::new("Cas"),
        Player::new("Dirk"),
    ))
    .unwrap();
    t.add_team(Team::new("Pawns", Player::new("Eva"), Player::new("Fem")))
        .unwrap();
    t.pair_next_round().unwrap();
    // Round 1: Knights - Pawns, Rooks bye.
    t.set_result(1, 1, MatchRecord::parse_match("0-1").unwrap())
        .unwrap();
    let text = csv::pairings_csv(&t, Some(1));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "round,table,home,away,white_a,white_a_team,black_a,black_a_team,white_b,white_b_team,\
         black_b,black_b_team,colours,board_a,board_b,result,home_match_points,\
         away_match_points,home_game_points,away_game_points"
    );
    // M1.5: home first-board player (Cas) BlackA, partner (Dirk) WhiteB.
    assert_eq!(
        lines[1],
        "1,1,Knights,Pawns,Eva,Pawns,Cas,Knights,Dirk,Knights,Fem,Pawns,\
         M1.5: home first-board player Black,,,0-1,0,1,0,1"
    );
    assert_eq!(lines[2], "1,,\"Rooks, Inc.\",BYE,,,,,,,,,,,,bye,1,,1,");
    assert_eq!(lines.len(), 3);
    let standings = csv::standings_csv(&t);
    let lines: Vec<&str> = standings.lines().collect();
    assert_eq!(
        lines[0],
        "rank,team,first_board,second_board,rating,played,won,drawn,lost,byes,match_points,\
         game_points,buchholz,sonneborn_berger,direct_encounter"
    );
    assert_eq!(
        lines[1],
        "1-2,\"Rooks, Inc.\",\"Ann \"\"the rook\"\"\",Bob,,0,0,0,0,1,1,1,0,0,"
    );
    assert_eq!(lines[2], "1-2,Pawns,Eva,Fem,,1,1,0,0,0,1,1,0,0,");
    assert_eq!(lines[3], "3,Knights,Cas,Dirk,,1,0,0,1,0,0,0,1,0,");
}

#[test]
fn user_errors() {
    assert_eq!(
        Tournament::new("X", Preset::Crazyhouse, Format::Swiss, Some(3), 0).unwrap_err(),
        TournamentError::NotBughouse(Preset::Crazyhouse)
    );
    assert_eq!(
        Tournament::new("X", Preset::Fide, Format::Swiss, None, 0).unwrap_err(),
        TournamentError::RoundsNeeded
    );
    assert_eq!(
        Tournament::new(" ", Preset::Fide, Format::Swiss, Some(1), 0).unwrap_err(),
        TournamentError::EmptyName
    );
    let mut t = tournament(Preset::Knsb1988, Format::Swiss, 4, Some(3), 0);
    assert_eq!(
        t.add_team(Team::new("t1", Player::new("x"), Player::new("y")))
            .unwrap_err(),
        TournamentError::DuplicateTeam("t1".into())
    );
    assert_eq!(
        t.add_team(Team::new("T9", Player::new(""), Player::new("y")))
            .unwrap_err(),
        TournamentError::EmptyPlayerName("T9".into())
    );
    t.pair_next_round().unwrap();
    assert_eq!(
        t.add_team(Team::new("T9", Player::new("x"), Player::new("y")))
            .unwrap_err(),
        TournamentError::TeamsFixed
    );
    let both = |a: &str, b: &str| MatchRecord::Games {
        a: a.parse().unwrap(),
        b: b.parse().unwrap(),
    };
    assert_eq!(
        t.set_result(1, 1, both("1-0", "*")).unwrap_err(),
        TournamentError::Result(ResultError::StoppedGame(bughouse_core::BoardId::B))
    );
    assert_eq!(
        t.set_result(1, 1, MatchRecord::parse_match("1-0").unwrap())
            .unwrap_err(),
        TournamentError::Result(ResultError::MatchResultNeedsGames)
    );
    assert_eq!(
        t.set_result(2, 1, both("1-0", "1-0")).unwrap_err(),
        TournamentError::NoSuchRound(2, 1)
    );
    assert_eq!(
        t.set_result(1, 3, both("1-0", "1-0")).unwrap_err(),
        TournamentError::NoSuchTable {
            round: 1,
            table: 3,
            tables: 2
        }
    );
    t.set_result(1, 1, both("1-0", "1-0")).unwrap();
    t.set_result(1, 2, both("0-1", "1/2-1/2")).unwrap();
    // A correction while the next round is not paired is fine.
    t.set_result(1, 2, both("0-1", "0-1")).unwrap();
    t.pair_next_round().unwrap();
    assert_eq!(
        t.set_result(1, 2, both("1-0", "1-0")).unwrap_err(),
        TournamentError::RoundClosed { round: 1, later: 2 }
    );
    let mut one = Tournament::new("X", Preset::Fide, Format::RoundRobin, None, 0).unwrap();
    assert_eq!(
        one.pair_next_round().unwrap_err(),
        TournamentError::TooFewTeams(0)
    );
    let _ = one;
}
