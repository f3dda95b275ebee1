-- Glicko-2 ratings (see the SQLite migration of the same number).
CREATE TABLE level_ratings (
    level_id         BIGINT NOT NULL PRIMARY KEY REFERENCES levels (id) ON DELETE CASCADE,
    rating_milli     BIGINT NOT NULL,
    deviation_milli  BIGINT NOT NULL,
    volatility_micro BIGINT NOT NULL,
    prior            TEXT NOT NULL CHECK (prior IN ('none', 'solver', 'generator')),
    attempts         BIGINT NOT NULL DEFAULT 0, -- rated attempts
    solves           BIGINT NOT NULL DEFAULT 0, -- of them, solved (quickly or not)
    log_seconds_milli BIGINT NOT NULL DEFAULT 0, -- sum of ln(seconds) of those solves
    solvers          BIGINT NOT NULL DEFAULT 0, -- players who solved it, in any game
    updated_at       BIGINT NOT NULL
);
CREATE INDEX level_ratings_rating ON level_ratings (rating_milli);

CREATE TABLE player_ratings (
    user_id          BIGINT NOT NULL PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    rating_milli     BIGINT NOT NULL,
    deviation_milli  BIGINT NOT NULL,
    volatility_micro BIGINT NOT NULL,
    attempts         BIGINT NOT NULL DEFAULT 0,
    updated_at       BIGINT NOT NULL
);

-- A player's rating at the end of each day (UTC midnight, Unix seconds)
-- that had a rated attempt: the statistics screen's chart.
CREATE TABLE rating_history (
    user_id         BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    day             BIGINT NOT NULL,
    rating_milli    BIGINT NOT NULL,
    deviation_milli BIGINT NOT NULL,
    PRIMARY KEY (user_id, day)
);

-- The players who solved each level, so that its solve count is counted
-- once per player whatever sokod later deletes of their solutions.
CREATE TABLE level_solvers (
    level_id BIGINT NOT NULL REFERENCES levels (id) ON DELETE CASCADE,
    user_id  BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (level_id, user_id)
);

-- Each game is rated once: solved (score 1 or 0) or given up (0).
CREATE TABLE rated_games (
    game_id  BIGINT NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    score    BIGINT NOT NULL CHECK (score IN (0, 1)),
    seconds  BIGINT NOT NULL,
    rated_at BIGINT NOT NULL
);

-- The rating pass's cursors: the last solution read, and the last idle
-- game (by its last change, then id).
CREATE TABLE rating_cursor (
    id          BIGINT NOT NULL PRIMARY KEY CHECK (id = 1),
    solution_id BIGINT NOT NULL DEFAULT 0,
    idle_at     BIGINT NOT NULL DEFAULT 0,
    idle_game   BIGINT NOT NULL DEFAULT 0
);
INSERT INTO rating_cursor (id) VALUES (1);

CREATE INDEX games_idle ON games (updated_at, id);
