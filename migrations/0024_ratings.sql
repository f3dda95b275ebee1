-- Glicko-2 ratings of players and levels (docs/ratings.md). A rated
-- attempt is a match between a player and a level: a game of the standard
-- rule outside race rooms that ended solved, or that was left unsolved
-- after some play. sokod's rating pass (play/ratings.c) reads new
-- solutions and idle games past its cursors, rates each game once
-- (rated_games), and writes both sides' new ratings. Ratings are kept in
-- thousandths of a point (volatility in millionths), so that both backends
-- store and sort the same integers.
CREATE TABLE level_ratings (
    level_id         INTEGER NOT NULL PRIMARY KEY REFERENCES levels (id) ON DELETE CASCADE,
    rating_milli     INTEGER NOT NULL,
    deviation_milli  INTEGER NOT NULL,
    volatility_micro INTEGER NOT NULL,
    prior            TEXT NOT NULL CHECK (prior IN ('none', 'solver', 'generator')),
    attempts         INTEGER NOT NULL DEFAULT 0, -- rated attempts
    solves           INTEGER NOT NULL DEFAULT 0, -- of them, solved (quickly or not)
    log_seconds_milli INTEGER NOT NULL DEFAULT 0, -- sum of ln(seconds) of those solves
    solvers          INTEGER NOT NULL DEFAULT 0, -- players who solved it, in any game
    updated_at       INTEGER NOT NULL
);
CREATE INDEX level_ratings_rating ON level_ratings (rating_milli);

CREATE TABLE player_ratings (
    user_id          INTEGER NOT NULL PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    rating_milli     INTEGER NOT NULL,
    deviation_milli  INTEGER NOT NULL,
    volatility_micro INTEGER NOT NULL,
    attempts         INTEGER NOT NULL DEFAULT 0,
    updated_at       INTEGER NOT NULL
);

-- A player's rating at the end of each day (UTC midnight, Unix seconds)
-- that had a rated attempt: the statistics screen's chart.
CREATE TABLE rating_history (
    user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    day             INTEGER NOT NULL,
    rating_milli    INTEGER NOT NULL,
    deviation_milli INTEGER NOT NULL,
    PRIMARY KEY (user_id, day)
);

-- The players who solved each level, so that its solve count is counted
-- once per player whatever sokod later deletes of their solutions.
CREATE TABLE level_solvers (
    level_id INTEGER NOT NULL REFERENCES levels (id) ON DELETE CASCADE,
    user_id  INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (level_id, user_id)
);

-- Each game is rated once: solved (score 1 or 0) or given up (0).
CREATE TABLE rated_games (
    game_id  INTEGER NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    score    INTEGER NOT NULL CHECK (score IN (0, 1)),
    seconds  INTEGER NOT NULL,
    rated_at INTEGER NOT NULL
);

-- The rating pass's cursors: the last solution read, and the last idle
-- game (by its last change, then id).
CREATE TABLE rating_cursor (
    id          INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
    solution_id INTEGER NOT NULL DEFAULT 0,
    idle_at     INTEGER NOT NULL DEFAULT 0,
    idle_game   INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
INSERT INTO rating_cursor (id) VALUES (1);

CREATE INDEX games_idle ON games (updated_at, id);
