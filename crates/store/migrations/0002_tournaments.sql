-- Tournaments run in the browser. Portable SQL as in 0001: the same schema on SQLite and
-- PostgreSQL. The tournament itself (settings, teams, rounds, seats, draws of lots, results) is
-- the JSON of `bughouse_tournament::Tournament::to_json`, stored whole and rewritten on every
-- change; the columns beside it are what the server needs without reading the JSON.

CREATE TABLE tournaments (
    id              TEXT    NOT NULL PRIMARY KEY,
    -- The SHA-256 (hex) of the organiser's secret, never the secret itself.
    organiser_hash  TEXT    NOT NULL,
    -- The time control of the matches played on the server, `M+S`.
    time_control    TEXT    NOT NULL,
    -- The tournament file (bughouse_tournament JSON).
    data_json       TEXT    NOT NULL,
    -- Unix milliseconds.
    created_at_ms   BIGINT  NOT NULL,
    updated_at_ms   BIGINT  NOT NULL
);

-- The server match played for a pairing (round, table) of a tournament. No foreign key to
-- matches: a match row is written by the hub's committer, possibly in a later transaction.
CREATE TABLE tournament_matches (
    tournament_id   TEXT    NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round_no        BIGINT  NOT NULL CHECK (round_no >= 1),
    table_no        BIGINT  NOT NULL CHECK (table_no >= 1),
    match_id        TEXT    NOT NULL UNIQUE,
    PRIMARY KEY (tournament_id, round_no, table_no)
);
