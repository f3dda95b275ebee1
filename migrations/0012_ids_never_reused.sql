-- sokod: foreign keys off
-- Ids that are never given twice, and the indexes the sweep of old guests
-- needs. Guests who never played, and long-idle
-- ones, are now deleted by the server; without AUTOINCREMENT SQLite gives a
-- new row max(id) + 1, so deleting the newest user, game or room would
-- hand its id to the next one. These ids key what the server holds in
-- memory (the game cache, the live topics "game:ID" and "room:ID", the
-- watch topics of users) and what browsers hold in their pages, so a reused
-- id could show one player another's game. The three tables are rebuilt
-- with AUTOINCREMENT, which keeps the highest id ever given in
-- sqlite_sequence. Same columns, same rows, same indexes and trigger. The
-- migration runs with foreign keys off so that dropping the old tables
-- does not delete the rows that refer to them; the migrator checks every
-- foreign key before it commits. Triggers of other tables name users in
-- their bodies: with the modern ALTER TABLE, renaming users_new would fail
-- on them while users is gone, so the renames here are the plain ones of
-- legacy_alter_table, which leave every other definition as it is.
PRAGMA legacy_alter_table = ON;

CREATE TABLE users_new (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    username      TEXT UNIQUE COLLATE NOCASE,
    password_hash TEXT,
    guest         INTEGER NOT NULL CHECK (guest IN (0, 1)),
    created_at    INTEGER NOT NULL,
    admin         INTEGER NOT NULL DEFAULT 0 CHECK (admin IN (0, 1)),
    devices_epoch INTEGER NOT NULL DEFAULT 0,
    CHECK ((guest = 1 AND username IS NULL AND password_hash IS NULL)
        OR (guest = 0 AND username IS NOT NULL AND password_hash IS NOT NULL))
);
INSERT INTO users_new (id, username, password_hash, guest, created_at, admin, devices_epoch)
    SELECT id, username, password_hash, guest, created_at, admin, devices_epoch FROM users;
DROP TABLE users;
ALTER TABLE users_new RENAME TO users;

-- A guest that signs up appears on the boards from then on.
CREATE TRIGGER users_listed AFTER UPDATE OF guest ON users WHEN NEW.guest <> OLD.guest
BEGIN
    UPDATE board_entries SET listed = 1 - NEW.guest WHERE user_id = NEW.id;
END;

CREATE TABLE rooms_new (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    host_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    level_id   INTEGER NOT NULL REFERENCES levels (id) ON DELETE CASCADE,
    source     TEXT NOT NULL CHECK (source = 'chosen' OR source = 'random' OR source = 'daily'
                                    OR source = 'generated'),
    round      INTEGER NOT NULL DEFAULT 1,
    created_at INTEGER NOT NULL
);
INSERT INTO rooms_new (id, host_id, level_id, source, round, created_at)
    SELECT id, host_id, level_id, source, round, created_at FROM rooms;
DROP TABLE rooms;
ALTER TABLE rooms_new RENAME TO rooms;

CREATE TABLE games_new (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
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
                       updated_at, hints, room_id, round)
    SELECT id, user_id, level_id, rule, seq, moves, pushes, solved, created_at, updated_at, hints,
           room_id, round
    FROM games;
DROP TABLE games;
ALTER TABLE games_new RENAME TO games;
CREATE UNIQUE INDEX games_user_level ON games (user_id, level_id) WHERE room_id IS NULL;
CREATE UNIQUE INDEX games_room_seat ON games (room_id, round, user_id) WHERE room_id IS NOT NULL;
CREATE INDEX games_level ON games (level_id);

-- What the sweep reads and what its deletes cascade to, by index rather
-- than by scanning a table per deleted row: guests by age, expired
-- sessions, a user's games and rooms, and the solutions of a game (set to
-- NULL when the game goes).
CREATE INDEX users_guests ON users (created_at) WHERE guest = 1;
CREATE INDEX sessions_expiry ON sessions (expires_at);
CREATE INDEX games_user ON games (user_id);
CREATE INDEX rooms_host ON rooms (host_id);
CREATE INDEX solutions_game ON solutions (game_id);

PRAGMA legacy_alter_table = OFF;
