-- sokod: foreign keys off
-- Games under either rule. A player may hold one game per level and rule
-- (standard, or multi-push: a push moves the whole line of boxes in front
-- of the player), and multi-push solutions get boards of their own: 4 by
-- moves then pushes, 5 by pushes then moves. A solution is now unique per
-- user, level, rule and line, since the same line may be played under
-- both rules. The solutions and board_entries tables are rebuilt for their
-- new constraints (same columns, same rows); the view of a solution's
-- claims and the triggers that offer them are made again around them. The
-- renames are the plain ones of legacy_alter_table, which leave the other
-- definitions that name these tables as they are.
PRAGMA legacy_alter_table = ON;

DROP INDEX games_user_level;
CREATE UNIQUE INDEX games_user_level ON games (user_id, level_id, rule) WHERE room_id IS NULL;

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
    UNIQUE (user_id, level_id, rule, lurd)
);
INSERT INTO solutions_new (id, user_id, level_id, game_id, moves, pushes, lurd, solved_at, hints,
                           rule)
    SELECT id, user_id, level_id, game_id, moves, pushes, lurd, solved_at, hints, rule
    FROM solutions;
DROP TABLE solutions;
ALTER TABLE solutions_new RENAME TO solutions;
CREATE INDEX solutions_level ON solutions (level_id);
CREATE INDEX solutions_game ON solutions (game_id);

CREATE TABLE board_entries_new (
    level_id    INTEGER NOT NULL REFERENCES levels (id) ON DELETE CASCADE,
    board       INTEGER NOT NULL CHECK (board >= 0 AND board <= 5),
    hinted      INTEGER NOT NULL CHECK (hinted = 0 OR hinted = 1),
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    listed      INTEGER NOT NULL CHECK (listed = 0 OR listed = 1),
    first       INTEGER NOT NULL,
    second      INTEGER NOT NULL,
    solved_at   INTEGER NOT NULL,
    solution_id INTEGER NOT NULL REFERENCES solutions (id) ON DELETE CASCADE,
    PRIMARY KEY (level_id, board, hinted, user_id)
) WITHOUT ROWID;
INSERT INTO board_entries_new (level_id, board, hinted, user_id, listed, first, second, solved_at,
                               solution_id)
    SELECT level_id, board, hinted, user_id, listed, first, second, solved_at, solution_id
    FROM board_entries;
DROP TABLE board_entries;
ALTER TABLE board_entries_new RENAME TO board_entries;
CREATE INDEX board_entries_rank
    ON board_entries (level_id, board, hinted, listed, first, second, solved_at, solution_id);
CREATE INDEX board_entries_user ON board_entries (user_id);
CREATE INDEX board_entries_solution ON board_entries (solution_id);

-- The buckets of board_entries (migration 0007), kept as they were.
CREATE TRIGGER board_entries_added AFTER INSERT ON board_entries WHEN NEW.listed = 1
BEGIN
    INSERT INTO board_buckets (level_id, board, hinted, first, players)
        VALUES (NEW.level_id, NEW.board, NEW.hinted, NEW.first, 1)
        ON CONFLICT (level_id, board, hinted, first) DO UPDATE SET players = players + 1;
END;

CREATE TRIGGER board_entries_removed AFTER DELETE ON board_entries WHEN OLD.listed = 1
BEGIN
    UPDATE board_buckets SET players = players - 1
    WHERE level_id = OLD.level_id AND board = OLD.board AND hinted = OLD.hinted
      AND first = OLD.first;
END;

CREATE TRIGGER board_entries_changed AFTER UPDATE OF first, listed ON board_entries
WHEN NEW.first <> OLD.first OR NEW.listed <> OLD.listed
BEGIN
    UPDATE board_buckets SET players = players - 1
    WHERE OLD.listed = 1 AND level_id = OLD.level_id AND board = OLD.board
      AND hinted = OLD.hinted AND first = OLD.first;
    INSERT INTO board_buckets (level_id, board, hinted, first, players)
        SELECT NEW.level_id, NEW.board, NEW.hinted, NEW.first, 1 WHERE NEW.listed = 1
        ON CONFLICT (level_id, board, hinted, first) DO UPDATE SET players = players + 1;
END;

-- The board rows a solution would hold. A standard one: both boards of
-- its kind (0 by moves then pushes, 1 by pushes then moves), and the daily
-- puzzle's two (2 and 3) when it was found on the day (UTC) its level is
-- the puzzle of. A multi-push one: the multi-push boards 4 and 5 only, so
-- that a push moving a line of boxes never ranks against single pushes.
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

-- Offering a solution puts each of its claims on its board where the user
-- has no row yet, or where it beats the user's row (migration 0013).
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

-- The multi-push solutions recorded so far take their boards.
INSERT INTO board_claims (solution_id) SELECT id FROM solutions WHERE rule = 1 ORDER BY id;

PRAGMA legacy_alter_table = OFF;
