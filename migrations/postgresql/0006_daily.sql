-- The daily puzzle: one generated level per day (UTC), the same on every
-- server, kept in a hidden collection so that games and progress work on it
-- as on any level. A day's row is written once, when the day is first asked.
CREATE TABLE daily (
    day      TEXT PRIMARY KEY,                         -- YYYY-MM-DD, UTC
    level_id BIGINT NOT NULL REFERENCES levels (id),
    created_at BIGINT NOT NULL
);
