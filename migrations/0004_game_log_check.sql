-- game_log's check on kind, as equalities: SQLite builds a temporary index
-- for `kind IN (...)` on every insert, which made appending a step cost as
-- much as all the rest of its transaction. Same table, same rows.
CREATE TABLE game_log_new (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    kind       TEXT NOT NULL
               CHECK (kind = 'steps' OR kind = 'undo' OR kind = 'redo' OR kind = 'restart'),
    steps      TEXT NOT NULL DEFAULT '',
    count      INTEGER NOT NULL DEFAULT 0,
    request    TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
INSERT INTO game_log_new (game_id, seq, kind, steps, count, request, created_at)
    SELECT game_id, seq, kind, steps, count, request, created_at FROM game_log;
DROP TABLE game_log;
ALTER TABLE game_log_new RENAME TO game_log;
