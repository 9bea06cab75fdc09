-- Over-the-board tables (issue 16): the clock of two physical boards run from a browser, the
-- claims and the arbiter's rulings. Portable SQL as in 0001: the same schema on SQLite and
-- PostgreSQL. A table is its settings plus the events its page sent, in order; the server
-- replays them through bughouse_core::otb to get the clocks and decisions, so nothing derived
-- is stored but the result once the match is over.

CREATE TABLE otb_tables (
    id              TEXT    NOT NULL PRIMARY KEY,
    -- The SHA-256 (hex) of the table's key (whoever holds it runs the clock), never the key.
    key_hash        TEXT    NOT NULL,
    -- The rulebook preset id (fide, minerva-2014, knsb-1988, uscf-scholastic-2006).
    preset          TEXT    NOT NULL,
    base_ms         BIGINT  NOT NULL CHECK (base_ms > 0),
    increment_ms    BIGINT  NOT NULL CHECK (increment_ms >= 0),
    -- Unix milliseconds.
    created_at_ms   BIGINT  NOT NULL,
    -- The tournament pairing the table plays, if any.
    tournament_id   TEXT    NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round_no        BIGINT  NULL CHECK (round_no >= 1),
    table_no        BIGINT  NULL CHECK (table_no >= 1),
    -- Once the match is over: `1-0` (WhiteA + BlackB won), `0-1` or `1/2-1/2`, and the result
    -- of each game (`1-0`, `0-1`, `1/2-1/2`, `*` when stopped by the other board).
    result          TEXT    NULL,
    result_a        TEXT    NULL,
    result_b        TEXT    NULL,
    UNIQUE (tournament_id, round_no, table_no)
);

-- The events of a table in the order applied. `client_id` is the page's id of the event, so
-- that an event sent twice (a retry, an offline queue) is stored once.
CREATE TABLE otb_events (
    table_id        TEXT    NOT NULL REFERENCES otb_tables (id) ON DELETE CASCADE,
    seq             BIGINT  NOT NULL CHECK (seq >= 0),
    client_id       BIGINT  NOT NULL,
    -- The table clock's time of the event, milliseconds.
    at_ms           BIGINT  NOT NULL CHECK (at_ms >= 0),
    -- The event as bughouse_protocol::otb::OtbEvent JSON.
    event_json      TEXT    NOT NULL,
    PRIMARY KEY (table_id, seq),
    UNIQUE (table_id, client_id)
);
