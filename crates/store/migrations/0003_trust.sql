-- What makes results and clocks stand across reconnects and crashes. Portable SQL as in 0001.

-- The client's id of the action that made a move or an event (NULL for a bot's move, a flag
-- fall or an action sent without an id): a resent action is recognised by it after a restart.
ALTER TABLE moves ADD COLUMN action_id BIGINT;
-- The lag compensation the move was given, in milliseconds.
ALTER TABLE moves ADD COLUMN lag_ms BIGINT NOT NULL DEFAULT 0;
ALTER TABLE events ADD COLUMN action_id BIGINT;

-- Unix milliseconds at which the match's time was 0, as the server running it last set it (at
-- the start, and again at each restore): with the last heartbeat, how far the clocks had run
-- when the server died.
ALTER TABLE matches ADD COLUMN clock_anchor_ms BIGINT;

-- Partner talk, kept with the match and shown again to the team after a reload.
CREATE TABLE talk (
    match_id    TEXT    NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    -- Its place among the match's talk (both teams), from 0.
    seq         BIGINT  NOT NULL CHECK (seq >= 0),
    -- The seat that spoke; its partner heard it.
    seat        BIGINT  NOT NULL CHECK (seat BETWEEN 0 AND 3),
    -- need, dont_give, sit, go, flag, text.
    kind        TEXT    NOT NULL,
    piece       TEXT,
    text        TEXT,
    -- Match time, milliseconds.
    at_ms       BIGINT  NOT NULL,
    action_id   BIGINT,
    PRIMARY KEY (match_id, seq)
);

-- When each server node was last alive (Unix milliseconds), written about every second: after a
-- crash, the player to move is charged his thinking up to that moment, not the downtime.
CREATE TABLE heartbeats (
    node        TEXT    NOT NULL PRIMARY KEY,
    alive_at_ms BIGINT  NOT NULL
);
