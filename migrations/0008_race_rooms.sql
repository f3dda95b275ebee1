-- sokod: foreign keys off
-- Race rooms: several players race on one level, each on a fresh game of
-- their own per round, checked and logged like every other game. A game now
-- belongs either to its player alone (room_id NULL: one per user and level,
-- as before) or to a round of a room (one per seat and round). The
-- uniqueness of (user_id, level_id) lived in games' own definition, so the
-- table is rebuilt; the migration runs with foreign keys off so that
-- dropping the old table does not delete the logs and solutions that point
-- at it, and the migrator checks every foreign key before it commits.

CREATE TABLE rooms (
    id         INTEGER PRIMARY KEY,
    host_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    level_id   INTEGER NOT NULL REFERENCES levels (id) ON DELETE CASCADE,
    source     TEXT NOT NULL CHECK (source = 'chosen' OR source = 'random' OR source = 'daily'
                                    OR source = 'generated'),
    round      INTEGER NOT NULL DEFAULT 1,
    created_at INTEGER NOT NULL
);

CREATE TABLE games_new (
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
    hints      INTEGER NOT NULL DEFAULT 0,
    room_id    INTEGER REFERENCES rooms (id) ON DELETE CASCADE,
    round      INTEGER NOT NULL DEFAULT 0   -- the room's round; 0 outside rooms
);
INSERT INTO games_new (id, user_id, level_id, rule, seq, moves, pushes, solved, created_at,
                       updated_at, hints)
    SELECT id, user_id, level_id, rule, seq, moves, pushes, solved, created_at, updated_at, hints
    FROM games;
DROP TABLE games;
ALTER TABLE games_new RENAME TO games;
CREATE UNIQUE INDEX games_user_level ON games (user_id, level_id) WHERE room_id IS NULL;
CREATE UNIQUE INDEX games_room_seat ON games (room_id, round, user_id) WHERE room_id IS NOT NULL;
CREATE INDEX games_level ON games (level_id);
