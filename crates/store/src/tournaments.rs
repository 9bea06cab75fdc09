//! Tournaments: the tournament file (JSON) with its organiser's secret hash, and the server
//! matches played for its pairings (see `migrations/0002_tournaments.sql`).

use crate::{is_unique_violation, Pool, Store, StoreError};

/// A tournament as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredTournament {
    /// The tournament id (non-empty; the server makes it up).
    pub id: String,
    /// The SHA-256 (hex) of the organiser's secret.
    pub organiser_hash: String,
    /// The time control of its server matches, `M+S`.
    pub time_control: String,
    /// The tournament file, as `bughouse_tournament::Tournament::to_json` writes it.
    pub data_json: String,
    /// When it was created, Unix milliseconds.
    pub created_at_ms: i64,
    /// When it last changed, Unix milliseconds.
    pub updated_at_ms: i64,
    /// The server matches of its pairings, by round and table.
    pub matches: Vec<TournamentMatch>,
}

/// The server match played for one pairing of a tournament.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentMatch {
    /// The round, from 1.
    pub round: i64,
    /// The table, from 1.
    pub table: i64,
    /// The match id.
    pub match_id: String,
}

#[derive(sqlx::FromRow)]
struct TournamentRow {
    id: String,
    organiser_hash: String,
    time_control: String,
    data_json: String,
    created_at_ms: i64,
    updated_at_ms: i64,
}

#[derive(sqlx::FromRow)]
struct LinkRow {
    tournament_id: String,
    round_no: i64,
    table_no: i64,
    match_id: String,
}

impl Store {
    /// Stores a new tournament (its `matches` are ignored: a new tournament has none).
    ///
    /// Errors: [`StoreError::TournamentExists`] if the id is taken, [`StoreError::Invalid`] for
    /// an empty id.
    pub async fn create_tournament(&self, t: &StoredTournament) -> Result<(), StoreError> {
        if t.id.is_empty() {
            return Err(StoreError::Invalid("empty tournament id".into()));
        }
        let done = with_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO tournaments \
                 (id, organiser_hash, time_control, data_json, created_at_ms, updated_at_ms) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(&t.id)
            .bind(&t.organiser_hash)
            .bind(&t.time_control)
            .bind(&t.data_json)
            .bind(t.created_at_ms)
            .bind(t.updated_at_ms)
            .execute(pool)
            .await
            .map(drop)
        });
        match done {
            Err(e) if is_unique_violation(&e) => Err(StoreError::TournamentExists(t.id.clone())),
            other => other.map_err(StoreError::from),
        }
    }

    /// Replaces the tournament file of `id` and links the given new matches to it, in one
    /// transaction: both are stored or neither.
    ///
    /// Errors: [`StoreError::NoSuchTournament`]; [`StoreError::Invalid`] if a pairing or a match
    /// is linked already (nothing is then stored).
    pub async fn save_tournament(
        &self,
        id: &str,
        data_json: &str,
        updated_at_ms: i64,
        new_matches: &[TournamentMatch],
    ) -> Result<(), StoreError> {
        self.save_tournament_at(id, None, data_json, updated_at_ms, new_matches)
            .await
    }

    /// [`Store::save_tournament`], only if the stored tournament is still the version read
    /// (its `updated_at_ms` is `read_at_ms`): of two processes changing one version, one
    /// stores and the other is refused.
    ///
    /// Errors: those of [`Store::save_tournament`], and [`StoreError::TournamentChanged`] if
    /// the stored version is another (nothing is then stored).
    pub async fn save_tournament_over(
        &self,
        id: &str,
        read_at_ms: i64,
        data_json: &str,
        updated_at_ms: i64,
        new_matches: &[TournamentMatch],
    ) -> Result<(), StoreError> {
        self.save_tournament_at(id, Some(read_at_ms), data_json, updated_at_ms, new_matches)
            .await
    }

    /// When the tournament `id` last changed (its version), `None` if there is none.
    pub async fn tournament_version(&self, id: &str) -> Result<Option<i64>, StoreError> {
        Ok(with_pool!(self, pool => {
            sqlx::query_scalar("SELECT updated_at_ms FROM tournaments WHERE id = $1")
                .bind(id)
                .fetch_optional(pool)
                .await?
        }))
    }

    async fn save_tournament_at(
        &self,
        id: &str,
        read_at_ms: Option<i64>,
        data_json: &str,
        updated_at_ms: i64,
        new_matches: &[TournamentMatch],
    ) -> Result<(), StoreError> {
        let outcome: Result<u64, sqlx::Error> = with_pool!(self, pool => {
            async {
                let mut tx = pool.begin().await?;
                let n = sqlx::query(
                    "UPDATE tournaments SET data_json = $2, updated_at_ms = $3 \
                     WHERE id = $1 AND ($4 IS NULL OR updated_at_ms = $4)",
                )
                .bind(id)
                .bind(data_json)
                .bind(updated_at_ms)
                .bind(read_at_ms)
                .execute(&mut *tx)
                .await?
                .rows_affected();
                if n == 0 {
                    tx.rollback().await?;
                    return Ok(0);
                }
                for m in new_matches {
                    sqlx::query(
                        "INSERT INTO tournament_matches (tournament_id, round_no, table_no, match_id) \
                         VALUES ($1, $2, $3, $4)",
                    )
                    .bind(id)
                    .bind(m.round)
                    .bind(m.table)
                    .bind(&m.match_id)
                    .execute(&mut *tx)
                    .await?;
                }
                tx.commit().await?;
                Ok(n)
            }
            .await
        });
        match outcome {
            Ok(0) => match (read_at_ms, self.tournament_version(id).await?) {
                (Some(_), Some(_)) => Err(StoreError::TournamentChanged(id.to_owned())),
                _ => Err(StoreError::NoSuchTournament(id.to_owned())),
            },
            Ok(_) => Ok(()),
            Err(e) if is_unique_violation(&e) => Err(StoreError::Invalid(format!(
                "tournament {id:?}: a pairing or match is linked already"
            ))),
            Err(e) if is_check_violation(&e) => Err(StoreError::Invalid(format!(
                "tournament {id:?}: rounds and tables count from 1"
            ))),
            Err(e) => Err(e.into()),
        }
    }

    /// Every tournament with its matches, oldest first (ties by id).
    pub async fn tournaments(&self) -> Result<Vec<StoredTournament>, StoreError> {
        self.load_tournaments(None).await
    }

    /// One tournament with its matches, `None` if there is no such tournament.
    pub async fn load_tournament(&self, id: &str) -> Result<Option<StoredTournament>, StoreError> {
        Ok(self.load_tournaments(Some(id)).await?.into_iter().next())
    }

    async fn load_tournaments(
        &self,
        one: Option<&str>,
    ) -> Result<Vec<StoredTournament>, StoreError> {
        let filter = if one.is_some() { "WHERE id = $1" } else { "" };
        let link_filter = if one.is_some() {
            "WHERE tournament_id = $1"
        } else {
            ""
        };
        let t_sql = format!(
            "SELECT id, organiser_hash, time_control, data_json, created_at_ms, updated_at_ms \
             FROM tournaments {filter} ORDER BY created_at_ms, id"
        );
        let l_sql = format!(
            "SELECT tournament_id, round_no, table_no, match_id FROM tournament_matches \
             {link_filter} ORDER BY tournament_id, round_no, table_no"
        );
        let (rows, links): (Vec<TournamentRow>, Vec<LinkRow>) = with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let rows = {
                let q = sqlx::query_as(&t_sql);
                let q = match one { Some(id) => q.bind(id), None => q };
                q.fetch_all(&mut *tx).await?
            };
            let links = {
                let q = sqlx::query_as(&l_sql);
                let q = match one { Some(id) => q.bind(id), None => q };
                q.fetch_all(&mut *tx).await?
            };
            tx.commit().await?;
            (rows, links)
        });
        let mut out: Vec<StoredTournament> = rows
            .into_iter()
            .map(|r| StoredTournament {
                id: r.id,
                organiser_hash: r.organiser_hash,
                time_control: r.time_control,
                data_json: r.data_json,
                created_at_ms: r.created_at_ms,
                updated_at_ms: r.updated_at_ms,
                matches: Vec::new(),
            })
            .collect();
        for link in links {
            if let Some(t) = out.iter_mut().find(|t| t.id == link.tournament_id) {
                t.matches.push(TournamentMatch {
                    round: link.round_no,
                    table: link.table_no,
                    match_id: link.match_id,
                });
            }
        }
        Ok(out)
    }

    /// The tournament, round and table a match was played for, if any.
    pub async fn tournament_of_match(
        &self,
        match_id: &str,
    ) -> Result<Option<(String, TournamentMatch)>, StoreError> {
        let row: Option<LinkRow> = with_pool!(self, pool => {
            sqlx::query_as(
                "SELECT tournament_id, round_no, table_no, match_id FROM tournament_matches \
                 WHERE match_id = $1",
            )
            .bind(match_id)
            .fetch_optional(pool)
            .await?
        });
        Ok(row.map(|r| {
            (
                r.tournament_id,
                TournamentMatch {
                    round: r.round_no,
                    table: r.table_no,
                    match_id: r.match_id,
                },
            )
        }))
    }
}

fn is_check_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_check_violation())
}
