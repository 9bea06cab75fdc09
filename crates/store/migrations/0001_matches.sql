-- The match store's schema. One file for both backends: it uses only what SQLite and
-- PostgreSQL both accept in the same sense (TEXT, BIGINT, BOOLEAN, CHECK, composite keys,
-- foreign keys with ON DELETE CASCADE), so the two schemas are the same by construction. Should a
-- later migration need different SQL per backend, split this folder into migrations/sqlite and
-- migrations/postgres, each with this file unchanged (its checksum is recorded in databases).
-- Seats are numbered 0..3: WhiteA, BlackA, WhiteB, BlackB. Times are milliseconds.

CREATE TABLE matches (
    id              TEXT    NOT NULL PRIMARY KEY,
    -- A preset id (`fide`, `knsb-1988`, ...) or `custom`, and the full rules as JSON.
    rules_preset    TEXT    NOT NULL,
    rules_json      TEXT    NOT NULL,
    base_ms         BIGINT  NOT NULL CHECK (base_ms >= 0),
    increment_ms    BIGINT  NOT NULL CHECK (increment_ms >= 0),
    -- Unix milliseconds.
    created_at_ms   BIGINT  NOT NULL,
    -- The match this one is a rematch of; no foreign key, so matches can be pruned one by one.
    rematch_of      TEXT,
    status          TEXT    NOT NULL DEFAULT 'waiting'
                    CHECK (status IN ('waiting', 'playing', 'finished')),
    -- Unix milliseconds, set when play starts and when the match ends.
    started_at_ms   BIGINT,
    finished_at_ms  BIGINT,
    -- `1-0`, `0-1` or `1/2-1/2`; the reason in words; each board's result (`*` if stopped).
    result          TEXT,
    reason          TEXT,
    board_result_a  TEXT,
    board_result_b  TEXT,
    -- The finished match's record as BPGN.
    bpgn            TEXT,
    CHECK (status <> 'playing' OR started_at_ms IS NOT NULL),
    CHECK (status <> 'finished' OR (finished_at_ms IS NOT NULL AND result IS NOT NULL
        AND reason IS NOT NULL AND board_result_a IS NOT NULL AND board_result_b IS NOT NULL
        AND bpgn IS NOT NULL))
);

-- Live matches at start-up, and the archive, newest first.
CREATE INDEX matches_by_status ON matches (status, finished_at_ms DESC, id DESC);

CREATE TABLE seats (
    match_id    TEXT    NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat        BIGINT  NOT NULL CHECK (seat BETWEEN 0 AND 3),
    name        TEXT    NOT NULL,
    -- A hash of the seat's secret token, never the token itself.
    token_hash  TEXT    NOT NULL,
    bot         BOOLEAN NOT NULL,
    PRIMARY KEY (match_id, seat)
);

CREATE TABLE moves (
    match_id    TEXT    NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    -- The index in the match record (both boards), from 0.
    ply         BIGINT  NOT NULL CHECK (ply >= 0),
    seat        BIGINT  NOT NULL CHECK (seat BETWEEN 0 AND 3),
    uci         TEXT    NOT NULL,
    san         TEXT    NOT NULL,
    -- Server time of the move, since the match started.
    at_ms       BIGINT  NOT NULL,
    -- The mover's time left after the move.
    clock_ms    BIGINT  NOT NULL,
    -- All four clocks right after the move, in seat order.
    remaining_0 BIGINT  NOT NULL,
    remaining_1 BIGINT  NOT NULL,
    remaining_2 BIGINT  NOT NULL,
    remaining_3 BIGINT  NOT NULL,
    PRIMARY KEY (match_id, ply)
);

-- Everything besides moves that changes a match's course (resignations, draw offers and their
-- withdrawal, claims, flag falls), in order, so that a restarted server resumes exactly.
CREATE TABLE events (
    match_id    TEXT    NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    -- The event's place among the match's events, from 0.
    seq         BIGINT  NOT NULL CHECK (seq >= 0),
    -- How many moves the record held when it happened.
    ply         BIGINT  NOT NULL CHECK (ply >= 0),
    seat        BIGINT  NOT NULL CHECK (seat BETWEEN 0 AND 3),
    kind        TEXT    NOT NULL,
    detail      TEXT    NOT NULL,
    at_ms       BIGINT  NOT NULL,
    PRIMARY KEY (match_id, seq)
);
