-- game_log's check on kind, as equalities. SQLite built a temporary index
-- for `kind IN (...)` on every insert and rebuilt the table to change it;
-- PostgreSQL has no such cost, and changes the check in place, so that
-- both schemas hold the same check. Same table, same rows.
ALTER TABLE game_log DROP CONSTRAINT game_log_kind_check;
ALTER TABLE game_log ADD CONSTRAINT game_log_kind_check
    CHECK (kind = 'steps' OR kind = 'undo' OR kind = 'redo' OR kind = 'restart');
