-- sokod: foreign keys off
-- Solutions unique by a hash of their line, and bounded per player. The
-- unique constraint on (user_id, level_id, rule, lurd) kept every line a
-- second time in its index: a line of four million steps cost 8 MB, not 4.
-- `lurd_hash` is the line's SHA-256, and the unique index holds that
-- instead. sokod computes it, in C: for the rows recorded before, at its
-- next start, before it serves (storage_solutions_hash_lines); until then
-- they are NULL, which the index lets be.
--
-- From now on sokod keeps, per user, level and rule, the solutions the
-- boards hold (the best by moves and by pushes, each kind of board) and the
-- latest: a new solution removes the others (server/play/solutions.c).
-- `legacy` marks the rows recorded before, which no new solution removes:
-- nothing a player had is lost to the bound.
--
-- The table is rebuilt, as SQLite drops a table constraint no other way
-- (same columns and rows, plus the two new ones); the view of a solution's
-- claims and the triggers that offer them are made again as 0015 made
-- them. The renames are the plain ones of legacy_alter_table, which leave
-- the other definitions that name the table (board_entries' key) as they
-- are.
PRAGMA legacy_alter_table = ON;

DROP TRIGGER solutions_to_boards;
DROP TRIGGER solutions_change_user;
DROP VIEW board_claims;

CREATE TABLE solutions_new (
    id        INTEGER PRIMARY KEY,
    user_id   INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    level_id  INTEGER NOT NULL REFERENCES levels (id) ON DELETE CASCADE,
    game_id   INTEGER REFERENCES games (id) ON DELETE SET NULL,
    moves     INTEGER NOT NULL,
    pushes    INTEGER NOT NULL,
    lurd      TEXT NOT NULL,
    solved_at INTEGER NOT NULL,
    hints     INTEGER NOT NULL DEFAULT 0,
    rule      INTEGER NOT NULL DEFAULT 0,
    lurd_hash BLOB CHECK (length(lurd_hash) = 32),
    legacy    INTEGER NOT NULL DEFAULT 0 CHECK (legacy = 0 OR legacy = 1)
);
INSERT INTO solutions_new (id, user_id, level_id, game_id, moves, pushes, lurd, solved_at, hints,
                           rule, legacy)
    SELECT id, user_id, level_id, game_id, moves, pushes, lurd, solved_at, hints, rule, 1
    FROM solutions;
DROP TABLE solutions;
ALTER TABLE solutions_new RENAME TO solutions;
CREATE UNIQUE INDEX solutions_line ON solutions (user_id, level_id, rule, lurd_hash);
CREATE INDEX solutions_level ON solutions (level_id);
CREATE INDEX solutions_game ON solutions (game_id);

-- The board rows a solution would hold (as migration 0015 made them).
CREATE VIEW board_claims AS
SELECT s.level_id, b.board, s.hints > 0 AS hinted, s.user_id, 1 - u.guest AS listed,
       CASE b.board % 2 WHEN 0 THEN s.moves ELSE s.pushes END AS first,
       CASE b.board % 2 WHEN 0 THEN s.pushes ELSE s.moves END AS second,
       s.solved_at, s.id AS solution_id
FROM solutions s JOIN users u ON u.id = s.user_id
CROSS JOIN (SELECT 0 AS board UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3
            UNION ALL SELECT 4 UNION ALL SELECT 5) b
WHERE (s.rule = 1 AND b.board >= 4)
   OR (s.rule = 0 AND (b.board < 2 OR (b.board < 4 AND EXISTS (
        SELECT 1 FROM daily d
        WHERE d.day = date(s.solved_at, 'unixepoch') AND d.level_id = s.level_id))));

CREATE TRIGGER board_claims_offered INSTEAD OF INSERT ON board_claims
BEGIN
    INSERT INTO board_entries (level_id, board, hinted, user_id, listed, first, second,
                               solved_at, solution_id)
        SELECT level_id, board, hinted, user_id, listed, first, second, solved_at, solution_id
        FROM board_claims WHERE solution_id = NEW.solution_id
        ON CONFLICT (level_id, board, hinted, user_id) DO UPDATE
        SET first = excluded.first, second = excluded.second, solved_at = excluded.solved_at,
            solution_id = excluded.solution_id
        WHERE (excluded.first, excluded.second, excluded.solved_at, excluded.solution_id)
            < (board_entries.first, board_entries.second, board_entries.solved_at,
               board_entries.solution_id);
END;

CREATE TRIGGER solutions_to_boards AFTER INSERT ON solutions
BEGIN
    INSERT INTO board_claims (solution_id) VALUES (NEW.id);
END;

CREATE TRIGGER solutions_change_user AFTER UPDATE OF user_id ON solutions
WHEN NEW.user_id <> OLD.user_id
BEGIN
    INSERT INTO board_claims (solution_id) VALUES (NEW.id);
END;

PRAGMA legacy_alter_table = OFF;
