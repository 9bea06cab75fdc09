//! What readers and the organiser ask of the [`Service`]: create, read, register teams, pair,
//! enter results and colours, export. Each change is checked, stored, then kept (see
//! [`Service::change`]); each answers with the tournament as it is now.

use std::collections::BTreeMap;

use bughouse_core::{Preset, TimeControl};
use bughouse_protocol::tournament::{
    AddTeam, CreateTournament, CreatedTournament, GameResult, PairRound, PlayerEntry, SetColours,
    SetResult, TeamSide, TournamentView,
};
use bughouse_store::{StoreError, StoredTournament, TournamentMatch};
use bughouse_tournament::{csv, MatchRecord, Player, Team, Tournament, TournamentError};

use super::view::view;
use super::{cannot_pair, random_bytes, sha256_hex, u32_of, unix_ms, wire, Entry, Error, Service};

/// The longest tournament or team name.
const MAX_NAME: usize = 80;
/// The longest player name (a seat name of the protocol).
const MAX_PLAYER: usize = bughouse_protocol::MAX_NAME;
/// The most teams of a tournament.
const MAX_TEAMS: usize = 128;
/// The most rounds of a tournament.
const MAX_ROUNDS: u32 = 64;
/// The highest rating taken.
const MAX_RATING: u32 = 4000;

fn random_id() -> Result<String, Error> {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    Ok(random_bytes::<10>()?
        .iter()
        .map(|b| char::from(ALPHABET[usize::from(*b) % ALPHABET.len()]))
        .collect())
}

fn check_name(what: &str, name: &str, max: usize) -> Result<String, Error> {
    let name = name.trim();
    if name.is_empty() {
        return Err(Error::Invalid(format!("{what} is empty")));
    }
    if name.chars().count() > max {
        return Err(Error::Invalid(format!(
            "{what} is longer than {max} characters"
        )));
    }
    if name.chars().any(char::is_control) {
        return Err(Error::Invalid(format!("{what} holds control characters")));
    }
    Ok(name.to_owned())
}

fn player(what: &str, p: &PlayerEntry) -> Result<Player, Error> {
    let name = check_name(what, &p.name, MAX_PLAYER)?;
    match p.rating {
        Some(r) if r > MAX_RATING => Err(Error::Invalid(format!(
            "{what}'s rating must be at most {MAX_RATING}"
        ))),
        Some(r) => Ok(Player::rated(name, r)),
        None => Ok(Player::new(name)),
    }
}

/// What a result entry stands for.
fn record(req: &SetResult) -> Result<MatchRecord, Error> {
    let game = |board: &str, g: Option<GameResult>| {
        g.map(wire::game).ok_or_else(|| {
            Error::Invalid(format!(
                "board {board}'s result is missing: give board_a and board_b, or result"
            ))
        })
    };
    match (req.result, req.board_a, req.board_b) {
        (Some(r), None, None) => Ok(wire::match_record(r)),
        (None, a, b) if a.is_some() || b.is_some() => Ok(MatchRecord::Games {
            a: game("A", a)?,
            b: game("B", b)?,
        }),
        (None, _, _) => Err(Error::Invalid(
            "give the games as board_a and board_b (1-0, 0-1, 1/2-1/2 or *), or result \
             (1-0, 0-1, 1/2-1/2 from the home team's side, or a forfeit +-, -+, --)"
                .to_owned(),
        )),
        (Some(_), _, _) => Err(Error::Invalid(
            "give either result or board_a and board_b, not both".to_owned(),
        )),
    }
}

fn check_round(t: &Tournament, round: Option<u32>) -> Result<(), Error> {
    match round {
        Some(r) if t.round(r).is_none() => {
            Err(TournamentError::NoSuchRound(r, t.rounds().len()).into())
        }
        _ => Ok(()),
    }
}

impl Service {
    /// Creates a tournament; its organiser secret comes with the answer, and only there.
    pub(crate) async fn create(&self, req: CreateTournament) -> Result<CreatedTournament, Error> {
        let name = check_name("the tournament name", &req.name, MAX_NAME)?;
        let preset: Preset = req
            .preset
            .parse()
            .map_err(|e: bughouse_core::UnknownPreset| Error::Invalid(e.to_string()))?;
        if req.rounds.is_some_and(|r| r > MAX_ROUNDS) {
            return Err(Error::Invalid(format!("at most {MAX_ROUNDS} rounds")));
        }
        let tc_text = req.time_control.unwrap_or_else(|| "5+0".to_owned());
        let time_control: TimeControl = tc_text
            .trim()
            .parse()
            .map_err(|e: bughouse_core::ParseTimeControlError| Error::Invalid(e.to_string()))?;
        let seed = match req.seed {
            Some(s) => s,
            None => u64::from_le_bytes(random_bytes::<8>()?),
        };
        let format = wire::format(req.format);
        let tournament = Tournament::new(name, preset, format, req.rounds, seed)?;
        let secret: String = random_bytes::<24>()?
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let now = unix_ms();
        let mut registry = self.registry.lock().await;
        let mut entry = Entry {
            id: String::new(),
            cannot_pair: cannot_pair(&tournament),
            tournament,
            organiser_hash: sha256_hex(&secret),
            time_control,
            matches: BTreeMap::new(),
            created_at_ms: now,
            updated_at_ms: now,
        };
        // A new id: one this node does not know, and (in a cluster, where another node may
        // have made it) that the store does not hold.
        let id = loop {
            let id = random_id()?;
            if registry.tournaments.contains_key(&id) {
                continue;
            }
            let stored = self
                .store
                .create_tournament(&StoredTournament {
                    id: id.clone(),
                    organiser_hash: entry.organiser_hash.clone(),
                    time_control: entry.time_control.to_string(),
                    data_json: entry.tournament.to_json(),
                    created_at_ms: now,
                    updated_at_ms: now,
                    matches: Vec::new(),
                })
                .await;
            match stored {
                Ok(()) => break id,
                Err(StoreError::TournamentExists(_)) => continue,
                Err(e) => return Err(e.into()),
            }
        };
        entry.id.clone_from(&id);
        let created = CreatedTournament {
            tournament_id: id.clone(),
            organiser_secret: secret,
            tournament: view(&entry),
        };
        registry.tournaments.insert(id, entry);
        Ok(created)
    }

    /// When the tournament last changed, Unix milliseconds (its ETag).
    pub(crate) async fn updated_at(&self, id: &str) -> Result<i64, Error> {
        Ok(self.read(id).await?.entry(id)?.updated_at_ms)
    }

    /// The tournament.
    pub(crate) async fn view(&self, id: &str) -> Result<TournamentView, Error> {
        Ok(view(self.read(id).await?.entry(id)?))
    }

    /// Checks the organiser's secret.
    pub(crate) async fn authorize(&self, id: &str, secret: Option<&str>) -> Result<(), Error> {
        self.read(id).await?.entry(id)?.authorize(secret)
    }

    /// Registers a team (before round 1).
    pub(crate) async fn add_team(
        &self,
        id: &str,
        secret: Option<&str>,
        req: AddTeam,
    ) -> Result<TournamentView, Error> {
        let (turn, mut registry) = self.write(id).await?;
        let entry = registry.organiser_entry(id, secret)?;
        let name = check_name("the team name", &req.name, MAX_NAME)?;
        let team = Team::new(
            name,
            player("the first-board player", &req.first)?,
            player("the second player", &req.second)?,
        );
        if entry.tournament.teams().len() >= MAX_TEAMS {
            return Err(Error::Conflict(format!(
                "a tournament has at most {MAX_TEAMS} teams"
            )));
        }
        self.change(entry, &[], |t| t.add_team(team).map(drop))
            .await?;
        let answer = view(entry);
        drop(registry);
        turn.release().await;
        Ok(answer)
    }

    /// Pairs the next round, with a server match per pairing if `online`.
    pub(crate) async fn pair_round(
        &self,
        id: &str,
        secret: Option<&str>,
        req: PairRound,
    ) -> Result<TournamentView, Error> {
        let (turn, mut registry) = self.write(id).await?;
        let entry = registry.organiser_entry(id, secret)?;
        // Pair on a copy first: the matches are created only for a round that pairs.
        let mut copy = entry.tournament.clone();
        let round = copy.pair_next_round()?.clone();
        let mut links = Vec::new();
        if req.online {
            for p in &round.pairings {
                let match_id = self
                    .hub
                    .create_match(
                        entry.tournament.preset().id(),
                        &entry.time_control.to_string(),
                    )
                    .await?;
                links.push(TournamentMatch {
                    round: i64::from(round.number),
                    table: i64::from(p.table),
                    match_id,
                });
            }
        }
        self.change(entry, &links, |t| t.pair_next_round().map(drop))
            .await?;
        let mut new_links = Vec::new();
        for l in links {
            let key = (u32_of(l.round), u32_of(l.table));
            entry.matches.insert(key, l.match_id.clone());
            new_links.push((l.match_id, key));
        }
        for (match_id, (r, t)) in new_links {
            registry.by_match.insert(match_id, (id.to_owned(), r, t));
        }
        let answer = view(registry.entry(id)?);
        drop(registry);
        turn.release().await;
        Ok(answer)
    }

    /// Enters or corrects the result of a pairing.
    pub(crate) async fn set_result(
        &self,
        (id, round, table): (&str, u32, u32),
        secret: Option<&str>,
        req: SetResult,
    ) -> Result<TournamentView, Error> {
        let (turn, mut registry) = self.write(id).await?;
        let entry = registry.organiser_entry(id, secret)?;
        let record = record(&req)?;
        self.change(entry, &[], |t| t.set_result(round, table, record).map(drop))
            .await?;
        let answer = view(entry);
        drop(registry);
        turn.release().await;
        Ok(answer)
    }

    /// Enters a team's choice of colours (uscf-scholastic-2006, U3).
    pub(crate) async fn set_colours(
        &self,
        (id, round, table): (&str, u32, u32),
        secret: Option<&str>,
        req: SetColours,
    ) -> Result<TournamentView, Error> {
        let (turn, mut registry) = self.write(id).await?;
        let entry = registry.organiser_entry(id, secret)?;
        let rounds = entry.tournament.rounds().len();
        let pairing = entry
            .tournament
            .round(round)
            .ok_or(TournamentError::NoSuchRound(round, rounds))?
            .table(table)
            .ok_or_else(|| Error::Missing(format!("round {round} has no table {table}")))?;
        let team = match req.team {
            TeamSide::Home => pairing.home,
            TeamSide::Away => pairing.away,
        };
        if entry.matches.contains_key(&(round, table)) {
            return Err(Error::Conflict(
                "this match is played on the server and was created with its seats: colours \
                 are chosen before a round is paired for online play"
                    .to_owned(),
            ));
        }
        let white = wire::slot(req.white);
        self.change(entry, &[], |t| {
            t.set_white_choice(round, table, team, white).map(drop)
        })
        .await?;
        let answer = view(entry);
        drop(registry);
        turn.release().await;
        Ok(answer)
    }

    /// The pairings as CSV, of one round or all.
    pub(crate) async fn pairings_csv(&self, id: &str, round: Option<u32>) -> Result<String, Error> {
        let registry = self.read(id).await?;
        let entry = registry.entry(id)?;
        check_round(&entry.tournament, round)?;
        Ok(csv::pairings_csv(&entry.tournament, round))
    }

    /// The standings as CSV.
    pub(crate) async fn standings_csv(&self, id: &str) -> Result<String, Error> {
        let registry = self.read(id).await?;
        Ok(csv::standings_csv(&registry.entry(id)?.tournament))
    }

    /// The BPGN of the server matches, of one round or all, one after the other, then that of
    /// the pairings whose moves were entered over the board.
    pub(crate) async fn matches_bpgn(&self, id: &str, round: Option<u32>) -> Result<String, Error> {
        let ids: Vec<String> = {
            let registry = self.read(id).await?;
            let entry = registry.entry(id)?;
            check_round(&entry.tournament, round)?;
            entry
                .matches
                .iter()
                .filter(|((r, _), _)| round.is_none_or(|n| n == *r))
                .map(|(_, m)| m.clone())
                .collect()
        };
        let over_the_board = self.otb_bpgn(id, round).await?;
        if ids.is_empty() && over_the_board.is_empty() {
            return Err(Error::Missing(
                "no match of this tournament was played on the server or recorded over the board"
                    .to_owned(),
            ));
        }
        let mut out = String::new();
        for match_id in ids {
            if let Some(text) = self.hub.bpgn(&match_id).await? {
                out.push_str(text.trim_end());
                out.push_str("\n\n");
            }
        }
        for text in over_the_board {
            out.push_str(text.trim_end());
            out.push_str("\n\n");
        }
        Ok(out)
    }
}
