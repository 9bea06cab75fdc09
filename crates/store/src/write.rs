//! Every change to a match, as one type: [`Write`]. Each kind of write has one SQL statement
//! (here) and one binding of its fields ([`bind_write!`]), used by the single write
//! ([`Store::apply`]) and by the batch ([`Store::apply_batch`], batch.rs) alike.
//!
//! The statements are conditional (`INSERT ... SELECT ... WHERE EXISTS`, `UPDATE ... WHERE
//! status ...`): the check of the match's status and the write are one statement, so that no
//! other writer can come between them (and SQLite never has to upgrade a read lock). A write that
//! changed nothing was refused; [`Store::apply`] then says why.

use crate::{
    check_id, check_seat, is_unique_violation, MatchStatus, NewMatch, Pool, Store, StoreError,
    StoredEvent, StoredMove, StoredTalk,
};

/// One change to a match: what the server's hub hands the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Write {
    /// A new match, status `waiting`, no seats taken ([`Store::create_match`]).
    CreateMatch(NewMatch),
    /// A seat given to a player or a bot, replacing whoever had it ([`Store::set_seat`]).
    SetSeat {
        /// The match.
        match_id: String,
        /// The seat, 0..4 (WhiteA, BlackA, WhiteB, BlackB).
        seat: u8,
        /// The player's name.
        name: String,
        /// The hash of the seat's token.
        token_hash: String,
        /// Whether a bot plays it.
        bot: bool,
    },
    /// Which account sits in a seat (`Some`), or that none does any more (`None`: the link
    /// is removed; removing a link that is not there is no error) ([`Store::set_seat_account`]).
    /// The match must exist; its status is not checked.
    SetSeatAccount {
        /// The match.
        match_id: String,
        /// The seat, 0..4.
        seat: u8,
        /// The account, or `None`.
        account_id: Option<i64>,
    },
    /// A seat freed ([`Store::clear_seat`]).
    ClearSeat {
        /// The match.
        match_id: String,
        /// The seat, 0..4.
        seat: u8,
    },
    /// A waiting match starts ([`Store::start_match`]).
    StartMatch {
        /// The match.
        match_id: String,
        /// Unix milliseconds.
        started_at_ms: i64,
    },
    /// A move ([`Store::record_move`]).
    RecordMove(StoredMove),
    /// An event: resignation, draw offer, claim, flag fall ([`Store::record_event`]).
    RecordEvent(StoredEvent),
    /// A message of partner talk ([`Store::record_talk`]).
    RecordTalk(StoredTalk),
    /// The Unix time of a match's time 0 ([`Store::set_clock_anchor`]).
    SetClockAnchor {
        /// The match.
        match_id: String,
        /// Unix milliseconds at which its time was 0.
        anchor_ms: i64,
    },
    /// The end of a match ([`Store::finish_match`]).
    FinishMatch {
        /// The match.
        match_id: String,
        /// `1-0`, `0-1` or `1/2-1/2`.
        result: String,
        /// Why, in words.
        reason: String,
        /// Each board's result from its White side.
        board_results: [String; 2],
        /// The record as BPGN.
        bpgn: String,
        /// Unix milliseconds.
        finished_at_ms: i64,
    },
}

pub(crate) const CREATE_MATCH: &str = "INSERT INTO matches \
     (id, rules_preset, rules_json, base_ms, increment_ms, created_at_ms, rematch_of, rated, \
     allow_bots) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";

pub(crate) const SET_SEAT: &str = "INSERT INTO seats (match_id, seat, name, token_hash, bot) \
     SELECT $1, $2, $3, $4, $5 \
     WHERE EXISTS (SELECT 1 FROM matches WHERE id = $1 AND status <> 'finished') \
     ON CONFLICT (match_id, seat) DO UPDATE \
     SET name = excluded.name, token_hash = excluded.token_hash, bot = excluded.bot";

pub(crate) const SET_SEAT_ACCOUNT: &str = "INSERT INTO seat_accounts (match_id, seat, account_id) \
     SELECT $1, $2, $3 WHERE EXISTS (SELECT 1 FROM matches WHERE id = $1) \
     ON CONFLICT (match_id, seat) DO UPDATE SET account_id = excluded.account_id";

pub(crate) const CLEAR_SEAT_ACCOUNT: &str =
    "DELETE FROM seat_accounts WHERE match_id = $1 AND seat = $2";

pub(crate) const CLEAR_SEAT: &str = "DELETE FROM seats WHERE match_id = $1 AND seat = $2 \
     AND EXISTS (SELECT 1 FROM matches WHERE id = $1 AND status <> 'finished')";

pub(crate) const START_MATCH: &str = "UPDATE matches SET status = 'playing', started_at_ms = $2 \
     WHERE id = $1 AND status = 'waiting'";

/// The columns of a stored move, in the order of its parameters (the batch inserts many rows of
/// them in one statement).
pub(crate) const MOVE_COLUMNS: &str = "match_id, ply, seat, uci, san, at_ms, clock_ms, \
     remaining_0, remaining_1, remaining_2, remaining_3, action_id, lag_ms";

/// The number of [`MOVE_COLUMNS`].
pub(crate) const MOVE_COLUMN_COUNT: usize = 13;

/// Records one move, only while its match is playing.
pub(crate) const RECORD_MOVE: &str = "INSERT INTO moves (match_id, ply, seat, uci, san, at_ms, \
     clock_ms, remaining_0, remaining_1, remaining_2, remaining_3, action_id, lag_ms) \
     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13 \
     WHERE EXISTS (SELECT 1 FROM matches WHERE id = $1 AND status = 'playing')";

/// Records one event, only while its match is playing.
pub(crate) const RECORD_EVENT: &str =
    "INSERT INTO events (match_id, seq, ply, seat, kind, detail, \
     at_ms, action_id) SELECT $1, $2, $3, $4, $5, $6, $7, $8 \
     WHERE EXISTS (SELECT 1 FROM matches WHERE id = $1 AND status = 'playing')";

/// Records one message of partner talk (players may talk after the end too).
pub(crate) const RECORD_TALK: &str =
    "INSERT INTO talk (match_id, seq, seat, kind, piece, text, at_ms, action_id) \
     SELECT $1, $2, $3, $4, $5, $6, $7, $8 WHERE EXISTS (SELECT 1 FROM matches WHERE id = $1)";

pub(crate) const SET_CLOCK_ANCHOR: &str = "UPDATE matches SET clock_anchor_ms = $2 WHERE id = $1";

pub(crate) const FINISH_MATCH: &str =
    "UPDATE matches SET status = 'finished', result = $2, reason = $3, \
     board_result_a = $4, board_result_b = $5, bpgn = $6, finished_at_ms = $7 \
     WHERE id = $1 AND status <> 'finished'";

/// Binds the thirteen [`MOVE_COLUMNS`] of a move to a query, in order (for one move's statement
/// and for each row of the batch's).
macro_rules! bind_move {
    ($query:expr, $mv:expr) => {{
        let mv: &$crate::StoredMove = $mv;
        $query
            .bind(&mv.match_id)
            .bind(mv.ply)
            .bind(i64::from(mv.seat))
            .bind(&mv.uci)
            .bind(&mv.san)
            .bind(mv.at_ms)
            .bind(mv.clock_ms)
            .bind(mv.remaining_ms[0])
            .bind(mv.remaining_ms[1])
            .bind(mv.remaining_ms[2])
            .bind(mv.remaining_ms[3])
            .bind(mv.action_id)
            .bind(mv.lag_ms)
    }};
}
pub(crate) use bind_move;

/// The query of a write: its statement with its fields bound. A macro rather than a function so
/// that it compiles for whichever backend's pool it runs on (see `with_pool!`), and, given a
/// query of its own (`bind_write!(write, direct::query)`), for the SQLite writer's direct
/// connection (direct.rs).
macro_rules! bind_write {
    ($write:expr) => {
        $crate::write::bind_write!($write, sqlx::query)
    };
    ($write:expr, $query:path) => {{
        use $crate::write::*;
        match $write {
            Write::CreateMatch(m) => $query(CREATE_MATCH)
                .bind(&m.id)
                .bind(&m.rules_preset)
                .bind(&m.rules_json)
                .bind(m.base_ms)
                .bind(m.increment_ms)
                .bind(m.created_at_ms)
                .bind(&m.rematch_of)
                .bind(m.rated)
                .bind(m.allow_bots),
            Write::SetSeat {
                match_id,
                seat,
                name,
                token_hash,
                bot,
            } => $query(SET_SEAT)
                .bind(match_id)
                .bind(i64::from(*seat))
                .bind(name)
                .bind(token_hash)
                .bind(*bot),
            Write::SetSeatAccount {
                match_id,
                seat,
                account_id: Some(account_id),
            } => $query(SET_SEAT_ACCOUNT)
                .bind(match_id)
                .bind(i64::from(*seat))
                .bind(*account_id),
            Write::SetSeatAccount {
                match_id,
                seat,
                account_id: None,
            } => $query(CLEAR_SEAT_ACCOUNT)
                .bind(match_id)
                .bind(i64::from(*seat)),
            Write::ClearSeat { match_id, seat } => {
                $query(CLEAR_SEAT).bind(match_id).bind(i64::from(*seat))
            }
            Write::StartMatch {
                match_id,
                started_at_ms,
            } => $query(START_MATCH).bind(match_id).bind(*started_at_ms),
            Write::RecordMove(mv) => bind_move!($query(RECORD_MOVE), mv),
            Write::RecordEvent(ev) => $query(RECORD_EVENT)
                .bind(&ev.match_id)
                .bind(ev.seq)
                .bind(ev.ply)
                .bind(i64::from(ev.seat))
                .bind(&ev.kind)
                .bind(&ev.detail)
                .bind(ev.at_ms)
                .bind(ev.action_id),
            Write::RecordTalk(t) => $query(RECORD_TALK)
                .bind(&t.match_id)
                .bind(t.seq)
                .bind(i64::from(t.seat))
                .bind(&t.kind)
                .bind(&t.piece)
                .bind(&t.text)
                .bind(t.at_ms)
                .bind(t.action_id),
            Write::SetClockAnchor {
                match_id,
                anchor_ms,
            } => $query(SET_CLOCK_ANCHOR).bind(match_id).bind(*anchor_ms),
            Write::FinishMatch {
                match_id,
                result,
                reason,
                board_results,
                bpgn,
                finished_at_ms,
            } => $query(FINISH_MATCH)
                .bind(match_id)
                .bind(result)
                .bind(reason)
                .bind(&board_results[0])
                .bind(&board_results[1])
                .bind(bpgn)
                .bind(*finished_at_ms),
        }
    }};
}
pub(crate) use bind_write;

impl Write {
    /// Whether the write may change no row and still be done (removing a link that is not
    /// there): the batch then does not take it for a refusal.
    pub(crate) fn may_change_nothing(&self) -> bool {
        matches!(
            self,
            Write::SetSeatAccount {
                account_id: None,
                ..
            }
        )
    }

    /// The match the write is about.
    pub fn match_id(&self) -> &str {
        match self {
            Write::CreateMatch(m) => &m.id,
            Write::RecordMove(mv) => &mv.match_id,
            Write::RecordEvent(ev) => &ev.match_id,
            Write::RecordTalk(t) => &t.match_id,
            Write::SetSeat { match_id, .. }
            | Write::SetSeatAccount { match_id, .. }
            | Write::ClearSeat { match_id, .. }
            | Write::StartMatch { match_id, .. }
            | Write::SetClockAnchor { match_id, .. }
            | Write::FinishMatch { match_id, .. } => match_id,
        }
    }

    /// Whether the arguments can be stored at all (before any database work).
    pub(crate) fn check(&self) -> Result<(), StoreError> {
        match self {
            Write::CreateMatch(m) => {
                check_id(&m.id)?;
                if m.base_ms < 0 || m.increment_ms < 0 {
                    return Err(StoreError::Invalid(format!(
                        "negative time control {}+{} ms",
                        m.base_ms, m.increment_ms
                    )));
                }
                Ok(())
            }
            Write::SetSeat { seat, .. }
            | Write::ClearSeat { seat, .. }
            | Write::SetSeatAccount { seat, .. } => check_seat(*seat),
            Write::StartMatch { .. } | Write::FinishMatch { .. } | Write::SetClockAnchor { .. } => {
                Ok(())
            }
            Write::RecordMove(mv) => {
                check_seat(mv.seat)?;
                if mv.ply < 0 {
                    return Err(StoreError::Invalid(format!("negative ply {}", mv.ply)));
                }
                Ok(())
            }
            Write::RecordEvent(ev) => {
                check_seat(ev.seat)?;
                if ev.seq < 0 || ev.ply < 0 {
                    return Err(StoreError::Invalid(format!(
                        "negative seq {} or ply {}",
                        ev.seq, ev.ply
                    )));
                }
                Ok(())
            }
            Write::RecordTalk(t) => {
                check_seat(t.seat)?;
                if t.seq < 0 {
                    return Err(StoreError::Invalid(format!("negative talk seq {}", t.seq)));
                }
                Ok(())
            }
        }
    }

    /// What a uniqueness violation means for this write, if it can have one.
    fn duplicate(&self) -> Option<StoreError> {
        match self {
            Write::CreateMatch(m) => Some(StoreError::MatchExists(m.id.clone())),
            Write::RecordMove(mv) => Some(StoreError::DuplicatePly {
                match_id: mv.match_id.clone(),
                ply: mv.ply,
            }),
            Write::RecordEvent(ev) => Some(StoreError::DuplicateEvent {
                match_id: ev.match_id.clone(),
                seq: ev.seq,
            }),
            Write::RecordTalk(t) => Some(StoreError::DuplicateEvent {
                match_id: t.match_id.clone(),
                seq: t.seq,
            }),
            _ => None,
        }
    }

    /// What the write would have done, in words, for [`StoreError::WrongStatus`].
    fn action(&self) -> &'static str {
        match self {
            Write::CreateMatch(_) => "create the match",
            Write::SetSeat { .. } | Write::ClearSeat { .. } => "change a seat",
            Write::SetSeatAccount { .. } => "link a seat to an account",
            Write::StartMatch { .. } => "start the match",
            Write::RecordMove(_) => "record a move",
            Write::RecordEvent(_) => "record an event",
            Write::RecordTalk(_) => "record talk",
            Write::SetClockAnchor { .. } => "set the clock anchor",
            Write::FinishMatch { .. } => "finish the match",
        }
    }
}

impl Store {
    /// Applies one write, durable when this returns.
    ///
    /// Errors: [`StoreError::Invalid`] or [`StoreError::InvalidSeat`] for arguments that can't
    /// be stored; [`StoreError::MatchExists`], [`StoreError::DuplicatePly`],
    /// [`StoreError::DuplicateEvent`] for a second write of the same thing (the first stays as
    /// it was); [`StoreError::NoSuchMatch`]; [`StoreError::WrongStatus`] when the match's status
    /// forbids the write (a move before the start or after the end, a seat change after the end).
    pub async fn apply(&self, write: &Write) -> Result<(), StoreError> {
        write.check()?;
        if let (Some(journal), Some(pool)) = (&self.journal, self.sqlite_writer()) {
            match write {
                Write::RecordMove(mv) => {
                    return self.record_journaled(pool, journal, write, mv).await;
                }
                Write::FinishMatch { match_id, .. } => {
                    return self.finish_journaled(pool, journal, write, match_id).await;
                }
                _ => {}
            }
        }
        let done = with_pool!(self, pool => {
            bind_write!(write).execute(pool).await.map(|done| done.rows_affected())
        });
        match done {
            Err(e) if is_unique_violation(&e) => Err(write.duplicate().unwrap_or(e.into())),
            Err(e) => Err(e.into()),
            Ok(0) => self.refused(write).await,
            Ok(_) => Ok(()),
        }
    }

    /// The end of a match on SQLite, in a transaction that folds the match's rows of the
    /// journal (journal.rs): a finished match is whole in `moves`.
    async fn finish_journaled(
        &self,
        pool: &sqlx::SqlitePool,
        journal: &tokio::sync::Mutex<crate::journal::Journal>,
        write: &Write,
        match_id: &str,
    ) -> Result<(), StoreError> {
        let mut journal = journal.lock().await;
        let mut jtx = journal.begin();
        let mut tx = pool.begin_with(crate::journal::BEGIN).await?;
        let done = bind_write!(write).execute(&mut *tx).await?.rows_affected();
        if done == 0 {
            drop(tx);
            drop(journal);
            return self.refused(write).await;
        }
        jtx.finish(match_id);
        jtx.fold(&mut tx).await?;
        tx.commit().await?;
        jtx.commit();
        Ok(())
    }

    /// One move on SQLite: appended to the journal (journal.rs) in a transaction that also
    /// folds its share of the journal.
    async fn record_journaled(
        &self,
        pool: &sqlx::SqlitePool,
        journal: &tokio::sync::Mutex<crate::journal::Journal>,
        write: &Write,
        mv: &StoredMove,
    ) -> Result<(), StoreError> {
        let mut journal = journal.lock().await;
        let mut jtx = journal.begin();
        let mut tx = pool.begin_with(crate::journal::BEGIN).await?;
        if jtx.has_ply(&mut tx, mv).await? {
            drop(tx);
            drop(journal);
            // As `moves`' key did: a second ply of a playing match; otherwise why not.
            return match self.status(&mv.match_id).await? {
                Some(MatchStatus::Playing) => {
                    Err(write.duplicate().unwrap_or(StoreError::DuplicatePly {
                        match_id: mv.match_id.clone(),
                        ply: mv.ply,
                    }))
                }
                _ => self.refused(write).await,
            };
        }
        let seq = jtx.append(mv);
        let sql = crate::journal::insert_sql(1);
        let done = bind_move!(sqlx::query(&sql).bind(seq), mv)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if done == 0 {
            drop(tx);
            drop(journal);
            return self.refused(write).await;
        }
        jtx.fold(&mut tx).await?;
        tx.commit().await?;
        jtx.commit();
        Ok(())
    }

    /// Why a write changed nothing (or that this was fine: freeing a free seat).
    async fn refused(&self, write: &Write) -> Result<(), StoreError> {
        let match_id = write.match_id();
        let status = self.status(match_id).await?;
        match (write, status) {
            (_, None) => Err(StoreError::NoSuchMatch(match_id.to_owned())),
            (Write::ClearSeat { .. }, Some(status)) if status != MatchStatus::Finished => Ok(()),
            (
                Write::SetSeatAccount {
                    account_id: None, ..
                },
                Some(_),
            ) => Ok(()),
            (Write::RecordTalk(_) | Write::SetClockAnchor { .. }, Some(_)) => {
                Err(StoreError::NoSuchMatch(match_id.to_owned()))
            }
            (_, Some(status)) => Err(StoreError::WrongStatus {
                match_id: match_id.to_owned(),
                status,
                action: write.action(),
            }),
        }
    }

    /// Stores a new match, status `waiting`, no seats taken.
    ///
    /// Errors: [`StoreError::MatchExists`] if the id is taken, [`StoreError::Invalid`] for an
    /// empty id or negative times.
    pub async fn create_match(&self, m: &NewMatch) -> Result<(), StoreError> {
        self.apply(&Write::CreateMatch(m.clone())).await
    }

    /// Gives `seat` (0..4 = WhiteA, BlackA, WhiteB, BlackB) to a player, replacing whoever had
    /// it. Allowed until the match is finished.
    pub async fn set_seat(
        &self,
        match_id: &str,
        seat: u8,
        name: &str,
        token_hash: &str,
        bot: bool,
    ) -> Result<(), StoreError> {
        self.apply(&Write::SetSeat {
            match_id: match_id.to_owned(),
            seat,
            name: name.to_owned(),
            token_hash: token_hash.to_owned(),
            bot,
        })
        .await
    }

    /// Frees `seat`. Freeing a free seat is no error. Allowed until the match is finished.
    pub async fn clear_seat(&self, match_id: &str, seat: u8) -> Result<(), StoreError> {
        self.apply(&Write::ClearSeat {
            match_id: match_id.to_owned(),
            seat,
        })
        .await
    }

    /// Marks a waiting match as playing, started at `started_at_ms` (Unix milliseconds).
    pub async fn start_match(&self, match_id: &str, started_at_ms: i64) -> Result<(), StoreError> {
        self.apply(&Write::StartMatch {
            match_id: match_id.to_owned(),
            started_at_ms,
        })
        .await
    }

    /// Appends a move to a playing match's record. Durable when this returns.
    ///
    /// Errors: [`StoreError::DuplicatePly`] if the match has a move with this ply already (the
    /// stored move stays as it was), [`StoreError::WrongStatus`] unless the match is playing.
    pub async fn record_move(&self, mv: &StoredMove) -> Result<(), StoreError> {
        self.apply(&Write::RecordMove(mv.clone())).await
    }

    /// Appends an event (resignation, draw offer, withdrawal, claim, flag fall) to a playing
    /// match. Durable when this returns.
    ///
    /// Errors: [`StoreError::DuplicateEvent`] if the match has an event with this seq already,
    /// [`StoreError::WrongStatus`] unless the match is playing.
    pub async fn record_event(&self, ev: &StoredEvent) -> Result<(), StoreError> {
        self.apply(&Write::RecordEvent(ev.clone())).await
    }

    /// Appends a message of partner talk to a match's record. Durable when this returns.
    ///
    /// Errors: [`StoreError::NoSuchMatch`], [`StoreError::DuplicateEvent`] if the match has
    /// talk with this seq already.
    pub async fn record_talk(&self, t: &StoredTalk) -> Result<(), StoreError> {
        self.apply(&Write::RecordTalk(t.clone())).await
    }

    /// Records the Unix milliseconds at which a match's time was 0 for the server now running
    /// it (set at the start and again at each restore).
    pub async fn set_clock_anchor(&self, match_id: &str, anchor_ms: i64) -> Result<(), StoreError> {
        self.apply(&Write::SetClockAnchor {
            match_id: match_id.to_owned(),
            anchor_ms,
        })
        .await
    }

    /// Ends a match (waiting or playing) with its result (`1-0`, `0-1`, `1/2-1/2`), the reason in
    /// words, each board's result from its White side (`*` if stopped), the record as BPGN, and
    /// the time (Unix milliseconds). Durable when this returns; the match then shows in
    /// [`Store::archive`] and no longer in [`Store::live_matches`].
    ///
    /// Errors: [`StoreError::WrongStatus`] if it is finished already.
    pub async fn finish_match(
        &self,
        match_id: &str,
        result: &str,
        reason: &str,
        board_results: [&str; 2],
        bpgn: &str,
        finished_at_ms: i64,
    ) -> Result<(), StoreError> {
        self.apply(&Write::FinishMatch {
            match_id: match_id.to_owned(),
            result: result.to_owned(),
            reason: reason.to_owned(),
            board_results: board_results.map(str::to_owned),
            bpgn: bpgn.to_owned(),
            finished_at_ms,
        })
        .await
    }
}
