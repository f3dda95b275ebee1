-- Saved positions ("snapshots"): a player names a position of one of their
-- games and returns to it later, from any device. A position is kept as
-- the steps that reach it from the level's start (LURD, pushes in upper
-- case), not as an entry of the game's log: a line that never reached the
-- log (played offline on a device whose game moved on elsewhere) can be
-- kept too. Going back to one is a restart and those steps, as entries of
-- the log like any others. The server bounds how many a game holds.
CREATE TABLE snapshots (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    lurd       TEXT NOT NULL,
    moves      INTEGER NOT NULL,
    pushes     INTEGER NOT NULL,
    solved     INTEGER NOT NULL CHECK (solved IN (0, 1)),
    created_at INTEGER NOT NULL
);
CREATE INDEX snapshots_game ON snapshots (game_id, id);
