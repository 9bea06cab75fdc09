//! The journal of moves, on SQLite: where a move is written first.
//!
//! `moves` is keyed by `(match_id, ply)`, so a transaction holding the moves of 500 matches
//! writes 500 pages of that key's index to the write-ahead log (and the checkpoint writes them
//! again): at 5,000 live matches, 4–5 KB of disk writes and a third of the store's tail
//! latency per move. The journal (`move_journal`, migration 0007) is in the order of its `seq`,
//! SQLite's row id, which the store hands out: the same transaction appends its 500 rows to a
//! few pages at the table's end.
//!
//! - **Folding.** A match's rows are copied into `moves` several dozen at a time, in key order,
//!   so that each page of the index is written once for many moves: when the match has
//!   [`FOLD_AT`] rows in the journal, when it is finished (in the transaction of its end, so
//!   that a finished match is whole in `moves`), or when its oldest row is more than
//!   [`SPAN`] rows behind the newest. Each transaction of writes folds at most its share
//!   ([`FOLD_BUDGET`] rows, or twice its own moves), so no fold ever holds SQLite's one writer
//!   long. A slow store (fewer than [`QUIET_RATE`] moves a second) folds the oldest rows
//!   whatever their age, and all of them, a transaction's own too, while no more than [`QUIET`]
//!   are unfolded: on a quiet store `moves` holds every move at each commit, as before the
//!   journal. Rows stay in the journal after they are folded, until every older row is folded
//!   too; then the oldest part is deleted at once ([`DELETE_EVERY`] rows at least).
//! - **The guard against a second write of a ply**, which `moves`' key gave: the store's memory
//!   holds the plies each match has in the journal, unfolded, and the highest ply it has in
//!   `moves` (read once per match). A ply not above that highest one is looked up in `moves`.
//! - **Reads** ([`Store::load_match`](crate::Store::load_match)) take a match's unfolded rows
//!   from the journal by their `seq`, under the same lock as the writes, so that what they see is
//!   the state between two transactions.
//! - **At every start** ([`Journal::open`]) everything still in the journal is folded and the
//!   journal emptied, before anything else reads or writes: after a crash, a journal row and
//!   its folded copy may both be there, and the fold (`INSERT OR IGNORE`) keeps one.
//!
//! One process owns a SQLite file (as for [`Store::exclusive`](crate::Store::exclusive)): the
//! memory of the journal is that process's. PostgreSQL keeps writing `moves` directly.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::hash::{BuildHasher, Hash, Hasher};
use std::time::Instant;

use sqlx::SqliteConnection;

use crate::write::MOVE_COLUMNS;
use crate::StoredMove;

/// A match is folded once it has this many unfolded rows.
pub(crate) const FOLD_AT: usize = 48;

/// A match whose oldest unfolded row is this many rows behind the journal's newest is folded,
/// whatever its count: the journal holds about this many rows at most (a few MB).
pub(crate) const SPAN: i64 = 150_000;

/// The most rows one transaction folds, unless it wrote more moves than half of this (then
/// twice its own moves, so that folding keeps up with writing).
pub(crate) const FOLD_BUDGET: usize = 512;

/// While no more rows than this are unfolded, a slow store's transaction folds them all, its
/// own too (a quiet store gains nothing from waiting, and `moves` then holds every move at each
/// commit).
pub(crate) const QUIET: usize = 256;

/// Below this many moves a second the store is slow (a few dozen live matches). The size of
/// a transaction says nothing of it: the server's writer commits as soon as the last commit is
/// done, so at 2,000 live matches most of its transactions hold a handful of moves.
pub(crate) const QUIET_RATE: f64 = 200.0;

/// Folded rows are deleted from the journal's oldest end this many at least at a time.
pub(crate) const DELETE_EVERY: i64 = 8_192;

/// How a transaction that writes moves begins: with the write lock, since it reads (the guard)
/// before it writes, and a transaction that reads first cannot write once another connection
/// has written meanwhile (`SQLITE_BUSY_SNAPSHOT`, which no busy timeout waits out).
pub(crate) const BEGIN: &str = "BEGIN IMMEDIATE";

/// The journal's rows of some `seq`s (a JSON array), folded into `moves` in key order.
pub(crate) const FOLD: &str =
    "INSERT OR IGNORE INTO moves (match_id, ply, seat, uci, san, at_ms, clock_ms, \
     remaining_0, remaining_1, remaining_2, remaining_3, action_id, lag_ms) \
     SELECT match_id, ply, seat, uci, san, at_ms, clock_ms, remaining_0, remaining_1, \
     remaining_2, remaining_3, action_id, lag_ms FROM move_journal \
     WHERE seq IN (SELECT value FROM json_each($1)) ORDER BY match_id, ply";

/// Everything in the journal, folded (at the start). Of two rows of one ply (a commit that
/// reported a failure yet wrote, then the write tried again) the newer is kept: it is the one
/// that was acknowledged.
const FOLD_ALL: &str = "INSERT OR IGNORE INTO moves (match_id, ply, seat, uci, san, at_ms, \
     clock_ms, remaining_0, remaining_1, remaining_2, remaining_3, action_id, lag_ms) \
     SELECT match_id, ply, seat, uci, san, at_ms, clock_ms, remaining_0, remaining_1, \
     remaining_2, remaining_3, action_id, lag_ms FROM move_journal \
     ORDER BY match_id, ply, seq DESC";

/// The rows of some `seq`s (a JSON array), as `moves` rows (a read of a live match).
pub(crate) const READ_ROWS: &str = "SELECT match_id, ply, seat, uci, san, at_ms, clock_ms, \
     remaining_0, remaining_1, remaining_2, remaining_3, action_id, lag_ms FROM move_journal \
     WHERE seq IN (SELECT value FROM json_each($1))";

/// The highest ply of a match in `moves`.
pub(crate) const MAX_PLY: &str = "SELECT MAX(ply) FROM moves WHERE match_id = $1";

/// Whether a match's ply is in `moves`.
pub(crate) const PLY_IN_MOVES: &str =
    "SELECT EXISTS (SELECT 1 FROM moves WHERE match_id = $1 AND ply = $2)";

/// The journal's rows below a `seq`, folded, deleted.
pub(crate) const DELETE_BELOW: &str = "DELETE FROM move_journal WHERE seq < $1";

/// What the store's memory says of a ply ([`JournalTx::check_ply`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PlyCheck {
    /// Stored (`true`) or not.
    Known(bool),
    /// The match's highest ply in `moves` must be read first ([`MAX_PLY`], then
    /// [`JournalTx::set_folded_max`] and ask again).
    FoldedMax,
    /// `moves` says ([`PLY_IN_MOVES`]).
    InMoves,
}

/// What a transaction's fold writes ([`JournalTx::plan_fold`]).
#[derive(Debug)]
pub(crate) struct Fold {
    /// The `seq`s to fold ([`FOLD`]'s parameter), if any.
    pub(crate) seqs: Option<String>,
    /// The `seq` below which the journal's rows are deleted ([`DELETE_BELOW`]), if they are.
    pub(crate) delete_below: Option<i64>,
}

/// `INSERT` of `n` moves into the journal, each with its `seq` first, under the condition of a
/// single move: its match is playing.
pub(crate) fn insert_sql(n: usize) -> String {
    crate::batch::insert_rows_sql(
        "move_journal",
        &format!("seq, {MOVE_COLUMNS}"),
        crate::write::MOVE_COLUMN_COUNT + 1,
        2,
        n,
        crate::Backend::Sqlite,
    )
}

/// When the journal folds and deletes (the constants above; tests take smaller ones).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    pub(crate) fold_at: usize,
    pub(crate) span: i64,
    pub(crate) budget: usize,
    pub(crate) delete_every: i64,
    pub(crate) quiet: usize,
    pub(crate) quiet_rate: f64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            fold_at: FOLD_AT,
            span: SPAN,
            budget: FOLD_BUDGET,
            delete_every: DELETE_EVERY,
            quiet: QUIET,
            quiet_rate: QUIET_RATE,
        }
    }
}

/// What the store remembers of the journal (see the module's documentation).
#[derive(Debug, Default)]
pub(crate) struct Journal {
    limits: Limits,
    /// The `seq` of the next row.
    next_seq: i64,
    /// Every match with unfolded rows, and those whose highest folded ply was read.
    matches: HashMap<String, Entry>,
    /// The `seq` of each match's oldest unfolded row.
    oldest: BTreeMap<i64, String>,
    /// Matches to fold first: finished, or with [`FOLD_AT`] rows.
    due: VecDeque<String>,
    /// Every row below this `seq` is deleted.
    deleted_below: i64,
    /// How many rows are unfolded, all matches together.
    unfolded: usize,
    /// How many moves a second are written.
    rate: Rate,
}

/// Moves a second, counted over windows of a second.
#[derive(Debug, Default)]
struct Rate {
    /// The current window's start, and its moves so far.
    window: Option<(Instant, usize)>,
    /// The last whole window's moves a second.
    last: f64,
}

impl Rate {
    fn note(&mut self, moves: usize, now: Instant) {
        match &mut self.window {
            Some((start, count)) => {
                let elapsed = now.saturating_duration_since(*start).as_secs_f64();
                if elapsed >= 1.0 {
                    self.last = *count as f64 / elapsed;
                    self.window = Some((now, moves));
                } else {
                    *count += moves;
                }
            }
            None => self.window = Some((now, moves)),
        }
    }

    /// At least the last whole window's rate, and at least the current window's moves so far
    /// (a burst counts at once); a window that ended long ago counts as its own rate.
    fn moves_per_second(&self, now: Instant) -> f64 {
        match self.window {
            Some((start, count)) => {
                let elapsed = now.saturating_duration_since(start).as_secs_f64();
                if elapsed >= 1.0 {
                    count as f64 / elapsed
                } else {
                    self.last.max(count as f64)
                }
            }
            None => 0.0,
        }
    }
}

#[derive(Debug, Default)]
struct Entry {
    /// The unfolded rows, `(ply, seq)`, oldest first.
    rows: Vec<(i64, i64)>,
    /// The highest ply in `moves`: `None` until read, then `Some(None)` for none.
    folded_max: Option<Option<i64>>,
    /// In [`Journal::due`].
    due: bool,
    /// The match is finished: its entry goes once its rows are folded.
    finished: bool,
}

impl Journal {
    /// Folds whatever an earlier process left in the journal and empties it. Runs before the
    /// store takes any other read or write.
    pub(crate) async fn open(conn: &mut SqliteConnection) -> Result<Journal, sqlx::Error> {
        use sqlx::Connection;
        let mut tx = conn.begin().await?;
        let left = sqlx::query(FOLD_ALL)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        let deleted = sqlx::query("DELETE FROM move_journal")
            .execute(&mut *tx)
            .await?
            .rows_affected();
        tx.commit().await?;
        if deleted > 0 {
            tracing::info!(
                rows = deleted,
                new_in_moves = left,
                "folded the journal of moves left by the last run"
            );
        }
        Ok(Journal {
            next_seq: 1,
            deleted_below: 1,
            ..Journal::default()
        })
    }

    /// The `seq`s of the unfolded rows of one match (`Some`) or of all (`None`), as a JSON
    /// array for [`READ_ROWS`]; `None` when there are none.
    pub(crate) fn unfolded(&self, one: Option<&str>) -> Option<String> {
        let mut seqs = Vec::new();
        match one {
            Some(id) => {
                if let Some(entry) = self.matches.get(id) {
                    seqs.extend(entry.rows.iter().map(|&(_, seq)| seq));
                }
            }
            None => {
                for entry in self.matches.values() {
                    seqs.extend(entry.rows.iter().map(|&(_, seq)| seq));
                }
            }
        }
        (!seqs.is_empty()).then(|| json_array(&seqs))
    }

    /// How many rows are unfolded, and how many matches the journal remembers (tests).
    #[cfg(test)]
    pub(crate) fn counts(&self) -> (usize, usize) {
        (
            self.matches.values().map(|e| e.rows.len()).sum(),
            self.matches.len(),
        )
    }

    /// Other limits (tests).
    #[cfg(test)]
    pub(crate) fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// A transaction's changes to the journal, applied to it when the transaction commits.
    pub(crate) fn begin(&mut self) -> JournalTx<'_> {
        JournalTx {
            journal: self,
            added: Vec::new(),
            added_keys: HashSet::new(),
            finished: Vec::new(),
            folded: Vec::new(),
            due_taken: 0,
            folded_added: false,
            folded_finished: false,
            deleted_below: None,
        }
    }

    fn mark_finished(&mut self, match_id: &str) {
        let Some(entry) = self.matches.get_mut(match_id) else {
            return;
        };
        if entry.rows.is_empty() {
            self.matches.remove(match_id);
            return;
        }
        entry.finished = true;
        if !entry.due {
            entry.due = true;
            self.due.push_back(match_id.to_owned());
        }
    }
}

/// The changes one transaction makes to the journal (see [`Journal::begin`]): dropped without
/// [`JournalTx::commit`], they leave it as it was.
#[derive(Debug)]
pub(crate) struct JournalTx<'j> {
    journal: &'j mut Journal,
    /// Rows appended by the transaction: match, ply, seq.
    added: Vec<(String, i64, i64)>,
    /// Hashes of `added`'s `(match, ply)`, to find a ply written twice in one transaction.
    added_keys: HashSet<u64>,
    /// Matches finished by the transaction.
    finished: Vec<String>,
    /// Matches folded by the transaction (their rows as they were).
    folded: Vec<String>,
    /// How many of the journal's `due` the fold took.
    due_taken: usize,
    /// The fold took the transaction's own rows too (a quiet store).
    folded_added: bool,
    /// The fold took the transaction's own rows of the matches it finished.
    folded_finished: bool,
    /// The new [`Journal::deleted_below`], if the transaction deleted rows.
    deleted_below: Option<i64>,
}

impl JournalTx<'_> {
    /// Whether `mv`'s ply is stored already (in `moves`, in the journal, or earlier in this
    /// transaction).
    pub(crate) async fn has_ply(
        &mut self,
        conn: &mut SqliteConnection,
        mv: &StoredMove,
    ) -> Result<bool, sqlx::Error> {
        loop {
            match self.check_ply(mv) {
                PlyCheck::Known(there) => return Ok(there),
                PlyCheck::FoldedMax => {
                    let max: Option<i64> = sqlx::query_scalar(MAX_PLY)
                        .bind(&mv.match_id)
                        .fetch_one(&mut *conn)
                        .await?;
                    self.set_folded_max(&mv.match_id, max);
                }
                PlyCheck::InMoves => {
                    return sqlx::query_scalar(PLY_IN_MOVES)
                        .bind(&mv.match_id)
                        .bind(mv.ply)
                        .fetch_one(&mut *conn)
                        .await;
                }
            }
        }
    }

    /// What the store's memory says of `mv`'s ply, or which of `moves` must be read: the
    /// answer of [`Self::has_ply`], whichever connection reads.
    pub(crate) fn check_ply(&mut self, mv: &StoredMove) -> PlyCheck {
        let key = key_hash(&mv.match_id, mv.ply);
        if self.added_keys.contains(&key)
            && self
                .added
                .iter()
                .any(|(id, ply, _)| *ply == mv.ply && *id == mv.match_id)
        {
            return PlyCheck::Known(true);
        }
        let entry = match self.journal.matches.get_mut(&mv.match_id) {
            Some(entry) => entry,
            None => self.journal.matches.entry(mv.match_id.clone()).or_default(),
        };
        if entry.rows.iter().any(|&(ply, _)| ply == mv.ply) {
            return PlyCheck::Known(true);
        }
        match entry.folded_max {
            // Once per match and process: `moves`' key answers it from its index.
            None => PlyCheck::FoldedMax,
            // Below the highest folded ply: only a gap filled late gets here.
            Some(Some(max)) if mv.ply <= max => PlyCheck::InMoves,
            Some(_) => PlyCheck::Known(false),
        }
    }

    /// The highest ply of `match_id` in `moves`, as read ([`PlyCheck::FoldedMax`]).
    pub(crate) fn set_folded_max(&mut self, match_id: &str, max: Option<i64>) {
        if let Some(entry) = self.journal.matches.get_mut(match_id) {
            entry.folded_max = Some(max);
        }
    }

    /// The `seq` of the next row this transaction appends for `mv` (after [`Self::has_ply`]).
    ///
    /// A `seq` is never handed out twice, even when the transaction does not commit: a commit
    /// that reported a failure yet wrote its rows leaves rows no one remembers, and a second
    /// try must not collide with them (the opening folds such rows like any other, once).
    pub(crate) fn append(&mut self, mv: &StoredMove) -> i64 {
        let seq = self.journal.next_seq;
        self.journal.next_seq += 1;
        self.added_keys.insert(key_hash(&mv.match_id, mv.ply));
        self.added.push((mv.match_id.clone(), mv.ply, seq));
        seq
    }

    /// The transaction finished `match_id`.
    pub(crate) fn finish(&mut self, match_id: &str) {
        self.finished.push(match_id.to_owned());
    }

    /// Folds the rows due (finished matches and full ones first, then those too far behind),
    /// at most this transaction's share, and deletes the journal's oldest folded part when it
    /// has grown enough.
    pub(crate) async fn fold(&mut self, conn: &mut SqliteConnection) -> Result<(), sqlx::Error> {
        let Fold { seqs, delete_below } = self.plan_fold();
        if let Some(seqs) = seqs {
            sqlx::query(FOLD).bind(seqs).execute(&mut *conn).await?;
        }
        if let Some(below) = delete_below {
            sqlx::query(DELETE_BELOW)
                .bind(below)
                .execute(&mut *conn)
                .await?;
        }
        Ok(())
    }

    /// What [`Self::fold`] writes, whichever connection writes it; the transaction's memory of
    /// it is kept for [`Self::commit`].
    pub(crate) fn plan_fold(&mut self) -> Fold {
        let journal = &*self.journal;
        let mut seqs: Vec<i64> = Vec::new();
        let mut chosen: HashSet<&str> = HashSet::new();
        let mut due_taken = 0;
        let limits = journal.limits;
        let slow = journal.rate.moves_per_second(Instant::now()) < limits.quiet_rate;
        let quiet = slow && journal.unfolded + self.added.len() <= limits.quiet;
        if quiet {
            // A quiet store: everything, this transaction's moves too, so that `moves` holds
            // every move at each commit, as it did before the journal.
            for (id, entry) in &journal.matches {
                if !entry.rows.is_empty() {
                    chosen.insert(id.as_str());
                    seqs.extend(entry.rows.iter().map(|&(_, seq)| seq));
                }
            }
            seqs.extend(self.added.iter().map(|&(_, _, seq)| seq));
            due_taken = journal.due.len();
        } else {
            // The matches this transaction finishes, all their rows (its own too): a finished
            // match is whole in `moves` from the commit of its end on.
            for id in &self.finished {
                if let Some((key, entry)) = journal.matches.get_key_value(id) {
                    if !entry.rows.is_empty() && chosen.insert(key.as_str()) {
                        seqs.extend(entry.rows.iter().map(|&(_, seq)| seq));
                    }
                }
            }
            seqs.extend(
                self.added
                    .iter()
                    .filter(|(id, _, _)| self.finished.contains(id))
                    .map(|&(_, _, seq)| seq),
            );
            let budget = limits.budget.max(2 * self.added.len());
            for id in &journal.due {
                let rows = journal.matches.get(id).map_or(0, |e| e.rows.len());
                if rows > 0 && !seqs.is_empty() && seqs.len() + rows > budget {
                    break;
                }
                due_taken += 1;
                if let Some(entry) = journal.matches.get(id) {
                    if !entry.rows.is_empty() && chosen.insert(id.as_str()) {
                        seqs.extend(entry.rows.iter().map(|&(_, seq)| seq));
                    }
                }
            }
            // A slow store has time to spare: it folds the oldest rows, however recent, so that
            // a store whose load fell is soon quiet again.
            let behind = if slow {
                i64::MAX
            } else {
                journal.next_seq - limits.span
            };
            for (&first, id) in &journal.oldest {
                if first >= behind || seqs.len() >= budget {
                    break;
                }
                if chosen.insert(id.as_str()) {
                    if let Some(entry) = journal.matches.get(id) {
                        seqs.extend(entry.rows.iter().map(|&(_, seq)| seq));
                    }
                }
            }
        }
        tracing::debug!(
            slow,
            quiet,
            unfolded = journal.unfolded,
            added = self.added.len(),
            folding = seqs.len(),
            matches = chosen.len(),
            "journal fold"
        );
        let fold = (!seqs.is_empty()).then(|| json_array(&seqs));
        // Every row below the oldest one still unfolded is in `moves` (the transaction's own
        // rows are unfolded unless the store is quiet).
        let mut keep_from = journal
            .oldest
            .iter()
            .find(|(_, id)| !chosen.contains(id.as_str()))
            .map_or(journal.next_seq, |(&seq, _)| seq);
        if !quiet {
            if let Some(&(_, _, first)) = self.added.first() {
                keep_from = keep_from.min(first);
            }
        }
        let deleted_below =
            (keep_from - journal.deleted_below >= journal.limits.delete_every).then_some(keep_from);
        self.folded = chosen.into_iter().map(str::to_owned).collect();
        self.folded_added = quiet;
        self.folded_finished = true;
        self.due_taken = due_taken;
        self.deleted_below = deleted_below;
        Fold {
            seqs: fold,
            delete_below: deleted_below,
        }
    }

    /// The transaction committed: the journal takes its changes.
    pub(crate) fn commit(self) {
        let journal = self.journal;
        journal.rate.note(self.added.len(), Instant::now());
        for _ in 0..self.due_taken {
            if let Some(id) = journal.due.pop_front() {
                if let Some(entry) = journal.matches.get_mut(&id) {
                    entry.due = false;
                }
            }
        }
        for id in &self.folded {
            let Some(entry) = journal.matches.get_mut(id) else {
                continue;
            };
            if let Some(&(_, first)) = entry.rows.first() {
                journal.oldest.remove(&first);
            }
            let top = entry.rows.iter().map(|&(ply, _)| ply).max();
            entry.folded_max = Some(entry.folded_max.flatten().max(top));
            journal.unfolded -= entry.rows.len();
            entry.rows.clear();
            if entry.finished {
                journal.matches.remove(id);
            }
        }
        for (id, ply, seq) in self.added {
            let entry = journal.matches.entry(id.clone()).or_default();
            if self.folded_added || (self.folded_finished && self.finished.contains(&id)) {
                entry.folded_max = Some(entry.folded_max.flatten().max(Some(ply)));
                continue;
            }
            journal.unfolded += 1;
            if entry.rows.is_empty() {
                journal.oldest.insert(seq, id.clone());
            }
            entry.rows.push((ply, seq));
            if entry.rows.len() >= journal.limits.fold_at && !entry.due {
                entry.due = true;
                journal.due.push_back(id);
            }
        }
        for id in &self.finished {
            journal.mark_finished(id);
        }
        if let Some(below) = self.deleted_below {
            journal.deleted_below = below;
        }
    }
}

/// A JSON array of integers.
fn json_array(values: &[i64]) -> String {
    let mut out = String::with_capacity(values.len() * 8 + 2);
    out.push('[');
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&v.to_string());
    }
    out.push(']');
    out
}

/// A hash of a match's ply (the same for the same pair within a process).
fn key_hash(match_id: &str, ply: i64) -> u64 {
    let mut h = KEY_HASHER.build_hasher();
    match_id.hash(&mut h);
    ply.hash(&mut h);
    h.finish()
}

static KEY_HASHER: std::sync::LazyLock<std::collections::hash_map::RandomState> =
    std::sync::LazyLock::new(std::collections::hash_map::RandomState::new);

#[cfg(test)]
mod tests;
