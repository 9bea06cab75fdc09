-- The journal of moves (SQLite only; the table exists on PostgreSQL too, since both backends
-- share their migrations, and stays empty there). A move is first appended here, in the order
-- of `seq`, which SQLite keeps as the row id: a transaction of hundreds of moves of as many
-- matches writes a few pages at the end of this table, where `moves`' key `(match_id, ply)`
-- would take one page of its index per move. The store folds a match's journal rows into
-- `moves` several dozen at a time (journal.rs), and at every start all that is left.
CREATE TABLE move_journal (
    seq         INTEGER PRIMARY KEY,
    match_id    TEXT    NOT NULL,
    ply         BIGINT  NOT NULL CHECK (ply >= 0),
    seat        BIGINT  NOT NULL CHECK (seat BETWEEN 0 AND 3),
    uci         TEXT    NOT NULL,
    san         TEXT    NOT NULL,
    at_ms       BIGINT  NOT NULL,
    clock_ms    BIGINT  NOT NULL,
    remaining_0 BIGINT  NOT NULL,
    remaining_1 BIGINT  NOT NULL,
    remaining_2 BIGINT  NOT NULL,
    remaining_3 BIGINT  NOT NULL,
    action_id   BIGINT,
    lag_ms      BIGINT  NOT NULL DEFAULT 0
);
