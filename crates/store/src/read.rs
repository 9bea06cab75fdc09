//! Reading matches back: one match, the live ones, the archive, a BPGN.

use std::collections::HashMap;

use crate::{
    Backend, MatchStatus, Pool, Store, StoreError, StoredEvent, StoredMatch, StoredMove,
    StoredSeat, StoredTalk, SEATS,
};

impl Store {
    /// Every match not finished (waiting or playing), oldest first, each with its seats, moves
    /// (by ply) and events (by seq): what a restarting server resumes.
    pub async fn live_matches(&self) -> Result<Vec<StoredMatch>, StoreError> {
        self.load(None).await
    }

    /// The ids of the matches waiting or in progress (a node of a cluster looks for those that
    /// no node owns).
    pub async fn live_match_ids(&self) -> Result<Vec<String>, StoreError> {
        Ok(with_pool!(self, pool => {
            sqlx::query_scalar(
                "SELECT id FROM matches WHERE status IN ('waiting', 'playing') ORDER BY id",
            )
            .fetch_all(pool)
            .await?
        }))
    }

    /// One match with its seats, moves and events, or `None` if there is no such match.
    pub async fn load_match(&self, match_id: &str) -> Result<Option<StoredMatch>, StoreError> {
        Ok(self.load(Some(match_id)).await?.into_iter().next())
    }

    /// Finished matches, newest first (ties by id, descending), skipping `offset` and returning
    /// at most `limit`. Both must be at least 0.
    pub async fn archive(
        &self,
        limit: i64,
        offset: i64,
    ) -> Result<Vec<bughouse_protocol::ArchiveEntry>, StoreError> {
        if limit < 0 || offset < 0 {
            return Err(StoreError::Invalid(format!(
                "negative limit {limit} or offset {offset}"
            )));
        }
        let rows: Vec<ArchiveRow> = with_pool!(self, pool => {
            sqlx::query_as(
                "SELECT m.id, m.rules_preset, m.result, m.finished_at_ms, \
                 s0.name AS player_0, s1.name AS player_1, s2.name AS player_2, \
                 s3.name AS player_3 \
                 FROM matches m \
                 LEFT JOIN seats s0 ON s0.match_id = m.id AND s0.seat = 0 \
                 LEFT JOIN seats s1 ON s1.match_id = m.id AND s1.seat = 1 \
                 LEFT JOIN seats s2 ON s2.match_id = m.id AND s2.seat = 2 \
                 LEFT JOIN seats s3 ON s3.match_id = m.id AND s3.seat = 3 \
                 WHERE m.status = 'finished' \
                 ORDER BY m.finished_at_ms DESC, m.id DESC \
                 LIMIT $1 OFFSET $2",
            )
            .bind(limit)
            .bind(offset)
            .fetch_all(pool)
            .await?
        });
        rows.into_iter()
            .map(|row| {
                let (Some(result), Some(finished_at)) = (row.result, row.finished_at_ms) else {
                    return Err(StoreError::Corrupt(format!(
                        "finished match {:?} without result or end time",
                        row.id
                    )));
                };
                Ok(bughouse_protocol::ArchiveEntry {
                    match_id: row.id,
                    rules: row.rules_preset,
                    players: [row.player_0, row.player_1, row.player_2, row.player_3],
                    result,
                    finished_at,
                })
            })
            .collect()
    }

    /// The BPGN record of a finished match; `None` if there is no such match or it is not
    /// finished.
    pub async fn bpgn(&self, match_id: &str) -> Result<Option<String>, StoreError> {
        let bpgn: Option<Option<String>> = with_pool!(self, pool => {
            sqlx::query_scalar("SELECT bpgn FROM matches WHERE id = $1")
                .bind(match_id)
                .fetch_optional(pool)
                .await?
        });
        Ok(bpgn.flatten())
    }

    /// The status of a match, `None` if there is no such match.
    pub(crate) async fn status(&self, match_id: &str) -> Result<Option<MatchStatus>, StoreError> {
        let status: Option<String> = with_pool!(self, pool => {
            sqlx::query_scalar("SELECT status FROM matches WHERE id = $1")
                .bind(match_id)
                .fetch_optional(pool)
                .await?
        });
        status.map(|s| s.parse()).transpose()
    }

    /// Loads one match (`Some(id)`) or every live one (`None`), in one read transaction so that
    /// the match, its seats, moves and events are of the same moment.
    async fn load(&self, one: Option<&str>) -> Result<Vec<StoredMatch>, StoreError> {
        // Only two fixed conditions are ever spliced in; values go through binds.
        let filter = if one.is_some() {
            "id = $1"
        } else {
            "status IN ('waiting', 'playing')"
        };
        let match_sql = format!(
            "SELECT id, rules_preset, rules_json, base_ms, increment_ms, created_at_ms, \
             rematch_of, status, started_at_ms, finished_at_ms, result, reason, board_result_a, \
             board_result_b, clock_anchor_ms, rated, allow_bots FROM matches WHERE {filter} \
             ORDER BY created_at_ms, id"
        );
        let seat_sql = format!(
            "SELECT s.match_id, s.seat, s.name, s.token_hash, s.bot, x.account_id FROM seats s \
             LEFT JOIN seat_accounts x ON x.match_id = s.match_id AND x.seat = s.seat \
             WHERE s.match_id IN (SELECT id FROM matches WHERE {filter})"
        );
        let move_sql = format!(
            "SELECT match_id, ply, seat, uci, san, at_ms, clock_ms, \
             remaining_0, remaining_1, remaining_2, remaining_3, action_id, lag_ms FROM moves \
             WHERE match_id IN (SELECT id FROM matches WHERE {filter}) ORDER BY match_id, ply"
        );
        let event_sql = format!(
            "SELECT match_id, seq, ply, seat, kind, detail, at_ms, action_id FROM events \
             WHERE match_id IN (SELECT id FROM matches WHERE {filter}) ORDER BY match_id, seq"
        );
        let talk_sql = format!(
            "SELECT match_id, seq, seat, kind, piece, text, at_ms, action_id FROM talk \
             WHERE match_id IN (SELECT id FROM matches WHERE {filter}) ORDER BY match_id, seq"
        );
        let postgres = self.backend() == Backend::Postgres;
        // On SQLite, the moves not yet folded from the journal are read by their `seq`
        // (journal.rs), as the journal was when the read's snapshot began: its lock is held
        // until the first read, so that no transaction commits in between.
        let mut journal = match &self.journal {
            Some(journal) => Some(journal.lock().await),
            None => None,
        };
        let mut unfolded = None;
        let (matches, seats, mut moves, events, talk) = with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            if postgres {
                // PostgreSQL's default isolation takes a new snapshot per statement. (SQLite's
                // transaction reads one snapshot from its first read on.)
                sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                    .execute(&mut *tx)
                    .await?;
            }
            // `$1` is in the filter only when loading one match.
            macro_rules! fetch {
                ($sql:expr) => {{
                    let query = sqlx::query_as($sql);
                    let query = match one {
                        Some(id) => query.bind(id),
                        None => query,
                    };
                    query.fetch_all(&mut *tx).await?
                }};
            }
            let matches: Vec<MatchRow> = fetch!(&match_sql);
            // The snapshot is taken: what commits from now on is not in it.
            if let Some(journal) = journal.take() {
                unfolded = journal.unfolded(one);
            }
            #[allow(clippy::type_complexity)]
            let (seats, moves, events, talk): (
                Vec<SeatRow>,
                Vec<MoveRow>,
                Vec<EventRow>,
                Vec<TalkRow>,
            ) = if matches.is_empty() {
                Default::default()
            } else {
                let mut moves: Vec<MoveRow> = fetch!(&move_sql);
                if let Some(seqs) = &unfolded {
                    let more: Vec<MoveRow> = sqlx::query_as(crate::journal::READ_ROWS)
                        .bind(seqs)
                        .fetch_all(&mut *tx)
                        .await?;
                    moves.extend(more);
                }
                (fetch!(&seat_sql), moves, fetch!(&event_sql), fetch!(&talk_sql))
            };
            tx.commit().await?;
            (matches, seats, moves, events, talk)
        });

        if unfolded.is_some() {
            moves.sort_by(|a, b| (&a.match_id, a.ply).cmp(&(&b.match_id, b.ply)));
        }
        let mut index = HashMap::with_capacity(matches.len());
        let mut out = Vec::with_capacity(matches.len());
        for row in matches {
            index.insert(row.id.clone(), out.len());
            out.push(row.into_match()?);
        }
        // Rows of a match missing from `index` can only come from a match that disappeared
        // between statements, which the snapshot rules out; skip them rather than fail.
        for row in seats {
            let seat = seat_index(row.seat, &row.match_id)?;
            if let Some(&i) = index.get(&row.match_id) {
                out[i].seats[usize::from(seat)] = Some(StoredSeat {
                    name: row.name,
                    token_hash: row.token_hash,
                    bot: row.bot,
                    account: row.account_id,
                });
            }
        }
        for row in moves {
            if let Some(&i) = index.get(&row.match_id) {
                let mv = row.into_move()?;
                out[i].moves.push(mv);
            }
        }
        for row in events {
            if let Some(&i) = index.get(&row.match_id) {
                let ev = row.into_event()?;
                out[i].events.push(ev);
            }
        }
        for row in talk {
            if let Some(&i) = index.get(&row.match_id) {
                let t = row.into_talk()?;
                out[i].talk.push(t);
            }
        }
        Ok(out)
    }
}

#[derive(sqlx::FromRow)]
struct MatchRow {
    id: String,
    rules_preset: String,
    rules_json: String,
    base_ms: i64,
    increment_ms: i64,
    created_at_ms: i64,
    rematch_of: Option<String>,
    status: String,
    started_at_ms: Option<i64>,
    finished_at_ms: Option<i64>,
    result: Option<String>,
    reason: Option<String>,
    board_result_a: Option<String>,
    board_result_b: Option<String>,
    clock_anchor_ms: Option<i64>,
    rated: bool,
    allow_bots: bool,
}

impl MatchRow {
    fn into_match(self) -> Result<StoredMatch, StoreError> {
        let board_results = match (self.board_result_a, self.board_result_b) {
            (Some(a), Some(b)) => Some([a, b]),
            _ => None,
        };
        Ok(StoredMatch {
            status: self.status.parse()?,
            id: self.id,
            rules_preset: self.rules_preset,
            rules_json: self.rules_json,
            base_ms: self.base_ms,
            increment_ms: self.increment_ms,
            created_at_ms: self.created_at_ms,
            rematch_of: self.rematch_of,
            rated: self.rated,
            allow_bots: self.allow_bots,
            started_at_ms: self.started_at_ms,
            seats: Default::default(),
            moves: Vec::new(),
            events: Vec::new(),
            talk: Vec::new(),
            clock_anchor_ms: self.clock_anchor_ms,
            result: self.result,
            reason: self.reason,
            board_results,
            finished_at_ms: self.finished_at_ms,
        })
    }
}

#[derive(sqlx::FromRow)]
struct SeatRow {
    match_id: String,
    seat: i64,
    name: String,
    token_hash: String,
    bot: bool,
    account_id: Option<i64>,
}

#[derive(sqlx::FromRow)]
struct MoveRow {
    match_id: String,
    ply: i64,
    seat: i64,
    uci: String,
    san: String,
    at_ms: i64,
    clock_ms: i64,
    remaining_0: i64,
    remaining_1: i64,
    remaining_2: i64,
    remaining_3: i64,
    action_id: Option<i64>,
    lag_ms: i64,
}

impl MoveRow {
    fn into_move(self) -> Result<StoredMove, StoreError> {
        Ok(StoredMove {
            seat: seat_index(self.seat, &self.match_id)?,
            match_id: self.match_id,
            ply: self.ply,
            uci: self.uci,
            san: self.san,
            at_ms: self.at_ms,
            clock_ms: self.clock_ms,
            remaining_ms: [
                self.remaining_0,
                self.remaining_1,
                self.remaining_2,
                self.remaining_3,
            ],
            action_id: self.action_id,
            lag_ms: self.lag_ms,
        })
    }
}

#[derive(sqlx::FromRow)]
struct EventRow {
    match_id: String,
    seq: i64,
    ply: i64,
    seat: i64,
    kind: String,
    detail: String,
    at_ms: i64,
    action_id: Option<i64>,
}

impl EventRow {
    fn into_event(self) -> Result<StoredEvent, StoreError> {
        Ok(StoredEvent {
            seat: seat_index(self.seat, &self.match_id)?,
            match_id: self.match_id,
            seq: self.seq,
            ply: self.ply,
            kind: self.kind,
            detail: self.detail,
            at_ms: self.at_ms,
            action_id: self.action_id,
        })
    }
}

#[derive(sqlx::FromRow)]
struct TalkRow {
    match_id: String,
    seq: i64,
    seat: i64,
    kind: String,
    piece: Option<String>,
    text: Option<String>,
    at_ms: i64,
    action_id: Option<i64>,
}

impl TalkRow {
    fn into_talk(self) -> Result<StoredTalk, StoreError> {
        Ok(StoredTalk {
            seat: seat_index(self.seat, &self.match_id)?,
            match_id: self.match_id,
            seq: self.seq,
            kind: self.kind,
            piece: self.piece,
            text: self.text,
            at_ms: self.at_ms,
            action_id: self.action_id,
        })
    }
}

#[derive(sqlx::FromRow)]
struct ArchiveRow {
    id: String,
    rules_preset: String,
    result: Option<String>,
    finished_at_ms: Option<i64>,
    player_0: Option<String>,
    player_1: Option<String>,
    player_2: Option<String>,
    player_3: Option<String>,
}

/// A seat number read from the database, checked.
fn seat_index(seat: i64, match_id: &str) -> Result<u8, StoreError> {
    u8::try_from(seat)
        .ok()
        .filter(|&s| s < SEATS)
        .ok_or_else(|| StoreError::Corrupt(format!("match {match_id:?} has a seat {seat}")))
}
