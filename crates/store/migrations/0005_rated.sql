-- Rated or casual, chosen at creation (issue 13). Portable SQL as in 0001: BOOLEAN with a
-- constant default is the same on SQLite and PostgreSQL; existing matches are casual.

-- A rated match: only signed-in players may sit, and its result changes their ratings.
ALTER TABLE matches ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;
-- In a rated match, bots may sit (their ratings are fixed; only the humans' change).
ALTER TABLE matches ADD COLUMN allow_bots BOOLEAN NOT NULL DEFAULT FALSE;

-- Finished rated matches not yet rated, found at start-up.
CREATE INDEX matches_rated ON matches (rated, status);
