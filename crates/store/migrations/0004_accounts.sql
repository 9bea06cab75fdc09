-- Accounts, sessions and ratings. Portable SQL as in 0001: the same schema on SQLite and
-- PostgreSQL (DOUBLE PRECISION is REAL in SQLite). New tables only; the match tables are not
-- altered: which account sat in a seat is a table of its own.

-- A player's account. Ids are small integers the store hands out (MAX + 1: the two backends share
-- no auto-increment syntax). The name is kept as typed; `username_key`, its lower case, is what
-- makes names unique regardless of case and what look-ups use.
CREATE TABLE accounts (
    id              BIGINT  NOT NULL PRIMARY KEY,
    username        TEXT    NOT NULL,
    username_key    TEXT    NOT NULL UNIQUE,
    -- The password's hash in PHC string form (argon2id), never the password.
    password_hash   TEXT    NOT NULL,
    -- Unix milliseconds.
    created_at_ms   BIGINT  NOT NULL
);

-- A signed-in browser. The cookie holds a random token; only its SHA-256 (hex) is stored.
CREATE TABLE sessions (
    token_hash      TEXT    NOT NULL PRIMARY KEY,
    account_id      BIGINT  NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at_ms   BIGINT  NOT NULL,
    expires_at_ms   BIGINT  NOT NULL
);

CREATE INDEX sessions_by_account ON sessions (account_id);
CREATE INDEX sessions_by_expiry ON sessions (expires_at_ms);

-- The account of a seated player; a seat without a row here is a guest's (or a bot's).
CREATE TABLE seat_accounts (
    match_id        TEXT    NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat            BIGINT  NOT NULL CHECK (seat BETWEEN 0 AND 3),
    account_id      BIGINT  NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    PRIMARY KEY (match_id, seat)
);

CREATE INDEX seat_accounts_by_account ON seat_accounts (account_id, match_id);

-- A player's current Glicko-2 rating (bughouse_rating) and his record in rated matches.
CREATE TABLE player_ratings (
    account_id      BIGINT  NOT NULL PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    rating          DOUBLE PRECISION NOT NULL,
    deviation       DOUBLE PRECISION NOT NULL,
    volatility      DOUBLE PRECISION NOT NULL,
    games           BIGINT  NOT NULL DEFAULT 0,
    wins            BIGINT  NOT NULL DEFAULT 0,
    draws           BIGINT  NOT NULL DEFAULT 0,
    losses          BIGINT  NOT NULL DEFAULT 0,
    -- Unix milliseconds of the last change (idle time since widens the deviation).
    updated_at_ms   BIGINT  NOT NULL
);

CREATE INDEX player_ratings_by_rating ON player_ratings (rating DESC);

-- A team's rating. A team is an unordered pair of accounts, stored in order (lo < hi).
CREATE TABLE team_ratings (
    account_lo      BIGINT  NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    account_hi      BIGINT  NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    rating          DOUBLE PRECISION NOT NULL,
    deviation       DOUBLE PRECISION NOT NULL,
    volatility      DOUBLE PRECISION NOT NULL,
    games           BIGINT  NOT NULL DEFAULT 0,
    wins            BIGINT  NOT NULL DEFAULT 0,
    draws           BIGINT  NOT NULL DEFAULT 0,
    losses          BIGINT  NOT NULL DEFAULT 0,
    updated_at_ms   BIGINT  NOT NULL,
    PRIMARY KEY (account_lo, account_hi),
    CHECK (account_lo < account_hi)
);

CREATE INDEX team_ratings_by_hi ON team_ratings (account_hi);

-- Each rated match once: the guard that makes rating a match idempotent.
CREATE TABLE rated_matches (
    match_id        TEXT    NOT NULL PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    -- Team one's score: 1, 0.5 or 0.
    score           DOUBLE PRECISION NOT NULL,
    rated_at_ms     BIGINT  NOT NULL
);

-- A player's rating after each rated match (the profile's chart), and what the match changed.
CREATE TABLE player_rating_history (
    account_id      BIGINT  NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    match_id        TEXT    NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    at_ms           BIGINT  NOT NULL,
    rating          DOUBLE PRECISION NOT NULL,
    deviation       DOUBLE PRECISION NOT NULL,
    volatility      DOUBLE PRECISION NOT NULL,
    -- The rating's change in this match.
    delta           DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (account_id, match_id)
);

CREATE INDEX player_rating_history_by_time ON player_rating_history (account_id, at_ms);

-- The same for teams.
CREATE TABLE team_rating_history (
    account_lo      BIGINT  NOT NULL,
    account_hi      BIGINT  NOT NULL,
    match_id        TEXT    NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    at_ms           BIGINT  NOT NULL,
    rating          DOUBLE PRECISION NOT NULL,
    deviation       DOUBLE PRECISION NOT NULL,
    volatility      DOUBLE PRECISION NOT NULL,
    delta           DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (account_lo, account_hi, match_id),
    FOREIGN KEY (account_lo, account_hi) REFERENCES team_ratings (account_lo, account_hi)
        ON DELETE CASCADE
);
