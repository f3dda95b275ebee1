-- Administrators, their audit log, and a library they manage: collections
-- and levels can be reordered, described, credited, hidden and deleted
-- without losing anything a player did on them.

-- An admin is an account with the right to upload and manage levels.
ALTER TABLE users ADD COLUMN admin INTEGER NOT NULL DEFAULT 0 CHECK (admin IN (0, 1));

-- Every change an admin makes, from the API or the command line. `actor` is
-- the admin's name at the time (or "command line"); `details` is JSON.
CREATE TABLE audit_log (
    id      INTEGER PRIMARY KEY,
    at      INTEGER NOT NULL,
    user_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
    actor   TEXT NOT NULL,
    action  TEXT NOT NULL,
    target  TEXT NOT NULL DEFAULT '',
    details TEXT NOT NULL DEFAULT '{}'
);

-- Collections are listed by position, then id. `author` credits whoever
-- made them. Hidden ones are not listed to players; deleted ones are kept
-- (with their levels, games and solutions) until restored.
ALTER TABLE collections ADD COLUMN position INTEGER NOT NULL DEFAULT 0;
ALTER TABLE collections ADD COLUMN author TEXT NOT NULL DEFAULT '';
ALTER TABLE collections ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1));
ALTER TABLE collections ADD COLUMN deleted_at INTEGER;

-- The same for levels. A deleted level comes back, games and solutions
-- included, when it is restored or when a level with its canonical hash is
-- imported again. solver_* hold the background solvability check:
-- 'none' (not checked), 'solvable' (with the pushes and moves of the
-- solution found), 'unsolvable' or 'unknown' (the time ran out).
ALTER TABLE levels ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1));
ALTER TABLE levels ADD COLUMN deleted_at INTEGER;
ALTER TABLE levels ADD COLUMN solver_status TEXT NOT NULL DEFAULT 'none'
    CHECK (solver_status IN ('none', 'solvable', 'unsolvable', 'unknown'));
ALTER TABLE levels ADD COLUMN solver_pushes INTEGER;
ALTER TABLE levels ADD COLUMN solver_moves INTEGER;

-- Solutions that came with a level's file and solve it, replayed on import.
CREATE TABLE reference_solutions (
    id         INTEGER PRIMARY KEY,
    level_id   INTEGER NOT NULL REFERENCES levels (id) ON DELETE CASCADE,
    title      TEXT NOT NULL DEFAULT '',
    lurd       TEXT NOT NULL,
    moves      INTEGER NOT NULL,
    pushes     INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (level_id, lurd)
);
