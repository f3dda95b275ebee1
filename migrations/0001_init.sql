-- The first schema of sokod: accounts, levels, games and their logs, solutions.
-- Times are Unix seconds (UTC).

-- A user is a guest (no name, no password) until it signs up.
CREATE TABLE users (
    id            INTEGER PRIMARY KEY,
    username      TEXT UNIQUE COLLATE NOCASE,
    password_hash TEXT,
    guest         INTEGER NOT NULL CHECK (guest IN (0, 1)),
    created_at    INTEGER NOT NULL,
    CHECK ((guest = 1 AND username IS NULL AND password_hash IS NULL)
        OR (guest = 0 AND username IS NOT NULL AND password_hash IS NOT NULL))
);

-- Sessions are known only by the hash of their token: the token itself lives
-- in the browser's cookie and nowhere else.
CREATE TABLE sessions (
    token_hash BLOB PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE collections (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    source     TEXT NOT NULL,            -- the file it was imported from
    notes      TEXT NOT NULL DEFAULT '', -- the file's header text
    created_at INTEGER NOT NULL
);

-- A level's board is stored normalised, as the core writes it; the canonical
-- hash is the same for a level and its rotations and mirror images.
CREATE TABLE levels (
    id             INTEGER PRIMARY KEY,
    collection_id  INTEGER NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    position       INTEGER NOT NULL,      -- 1-based place in its file
    title          TEXT NOT NULL DEFAULT '',
    author         TEXT NOT NULL DEFAULT '',
    comment        TEXT NOT NULL DEFAULT '',
    board          TEXT NOT NULL,
    width          INTEGER NOT NULL,
    height         INTEGER NOT NULL,
    boxes          INTEGER NOT NULL,
    canonical_hash TEXT NOT NULL,         -- 16 hexadecimal digits
    created_at     INTEGER NOT NULL,
    UNIQUE (collection_id, position)
);
CREATE INDEX levels_hash ON levels (canonical_hash);

-- One game per user and level. seq, moves, pushes and solved repeat what the
-- log gives, for listings; the log is the truth.
CREATE TABLE games (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    level_id   INTEGER NOT NULL REFERENCES levels (id) ON DELETE CASCADE,
    rule       INTEGER NOT NULL DEFAULT 0, -- 0 standard, 1 multi-push
    seq        INTEGER NOT NULL DEFAULT 0, -- the last entry of the log
    moves      INTEGER NOT NULL DEFAULT 0,
    pushes     INTEGER NOT NULL DEFAULT 0,
    solved     INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (user_id, level_id)
);
CREATE INDEX games_level ON games (level_id);

-- The append-only history of a game, numbered 1, 2, 3 ... per game. An entry
-- is a batch of steps (LURD, pushes in upper case), an undo or a redo of
-- `count` entries, or a restart. `request` keeps the point-mode request
-- ("walk 3 4", "push 2 3 5 3") that produced a batch of steps, so that a
-- retry of that request is recognised.
CREATE TABLE game_log (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    kind       TEXT NOT NULL CHECK (kind IN ('steps', 'undo', 'redo', 'restart')),
    steps      TEXT NOT NULL DEFAULT '',
    count      INTEGER NOT NULL DEFAULT 0,
    request    TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

-- A solution is recorded when a game reaches the solved position: the steps
-- since the last restart.
CREATE TABLE solutions (
    id        INTEGER PRIMARY KEY,
    user_id   INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    level_id  INTEGER NOT NULL REFERENCES levels (id) ON DELETE CASCADE,
    game_id   INTEGER REFERENCES games (id) ON DELETE SET NULL,
    moves     INTEGER NOT NULL,
    pushes    INTEGER NOT NULL,
    lurd      TEXT NOT NULL,
    solved_at INTEGER NOT NULL,
    UNIQUE (user_id, level_id, lurd)
);
CREATE INDEX solutions_level ON solutions (level_id);
