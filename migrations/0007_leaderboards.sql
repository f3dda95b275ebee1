-- Leaderboards of witnessed play. Every row of `solutions` is a solution the
-- server saw played step by step (reference solutions that come with level
-- files live in their own table and never rank). A solution now remembers
-- the hints its game had asked for when it was found, and the rule it was
-- played under, so that a replay plays it the same way.
ALTER TABLE solutions ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
ALTER TABLE solutions ADD COLUMN rule INTEGER NOT NULL DEFAULT 0;

-- Solutions recorded before this migration kept no hint count: those of a
-- game that has had hints count as helped, as nothing tells when they came.
UPDATE solutions SET hints = (SELECT g.hints FROM games g WHERE g.id = solutions.game_id)
WHERE game_id IN (SELECT id FROM games WHERE hints > 0);

-- Each player's best solution of a level, once per board and per kind
-- (`hinted` 0: found without hints, 1: with hints), with (first, second)
-- the counts in the board's order. `board` 0 orders by fewest moves then
-- pushes, 1 by fewest pushes then moves; 2 and 3 are the same for the daily
-- puzzle's board of its own day: only solutions found on the day (UTC) the
-- level is the puzzle of. A board is then a range of one index,
-- and a rank is a count over it: a level with 100,000 players answers
-- without reading their solutions. `listed` is 0 for guests, who are
-- ranked for themselves but not shown to others. Triggers below keep the
-- table in step with solutions and users, whatever writes them.
CREATE TABLE board_entries (
    level_id    INTEGER NOT NULL REFERENCES levels (id) ON DELETE CASCADE,
    board       INTEGER NOT NULL CHECK (board >= 0 AND board <= 3),
    hinted      INTEGER NOT NULL CHECK (hinted = 0 OR hinted = 1),
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    listed      INTEGER NOT NULL CHECK (listed = 0 OR listed = 1),
    first       INTEGER NOT NULL,
    second      INTEGER NOT NULL,
    solved_at   INTEGER NOT NULL,
    solution_id INTEGER NOT NULL REFERENCES solutions (id) ON DELETE CASCADE,
    PRIMARY KEY (level_id, board, hinted, user_id)
) WITHOUT ROWID;
CREATE INDEX board_entries_rank
    ON board_entries (level_id, board, hinted, listed, first, second, solved_at, solution_id);
CREATE INDEX board_entries_user ON board_entries (user_id);
CREATE INDEX board_entries_solution ON board_entries (solution_id);

-- The boards of the solutions recorded so far (all standard-rule games).
INSERT INTO board_entries (level_id, board, hinted, user_id, listed, first, second, solved_at,
                           solution_id)
SELECT level_id, board, hinted, user_id, listed, first, second, solved_at, id FROM (
    SELECT s.level_id, b.board, s.hints > 0 AS hinted, s.user_id, 1 - u.guest AS listed,
           CASE b.board % 2 WHEN 0 THEN s.moves ELSE s.pushes END AS first,
           CASE b.board % 2 WHEN 0 THEN s.pushes ELSE s.moves END AS second,
           s.solved_at, s.id,
           row_number() OVER (
               PARTITION BY s.level_id, b.board, s.hints > 0, s.user_id
               ORDER BY CASE b.board % 2 WHEN 0 THEN s.moves ELSE s.pushes END,
                        CASE b.board % 2 WHEN 0 THEN s.pushes ELSE s.moves END,
                        s.solved_at, s.id) AS place
    FROM solutions s JOIN users u ON u.id = s.user_id
    CROSS JOIN (SELECT 0 AS board UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3) b
    WHERE s.rule = 0 AND (b.board < 2 OR EXISTS (
        SELECT 1 FROM daily d
        WHERE d.day = date(s.solved_at, 'unixepoch') AND d.level_id = s.level_id)))
WHERE place = 1;

-- How many listed players each board has at each value of its first count
-- (moves, or pushes). A board's size is the sum of its buckets, and a
-- rank is the players of the buckets before one's own plus a count among
-- those with the same first count: a few hundred rows to read instead of
-- every entry ahead. Kept by the triggers below.
CREATE TABLE board_buckets (
    level_id INTEGER NOT NULL REFERENCES levels (id) ON DELETE CASCADE,
    board    INTEGER NOT NULL,
    hinted   INTEGER NOT NULL,
    first    INTEGER NOT NULL,
    players  INTEGER NOT NULL,
    PRIMARY KEY (level_id, board, hinted, first)
) WITHOUT ROWID;
INSERT INTO board_buckets (level_id, board, hinted, first, players)
    SELECT level_id, board, hinted, first, count(*) FROM board_entries WHERE listed = 1
    GROUP BY level_id, board, hinted, first;

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

-- A better solution (first may change) or a guest signing up (listed).
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

-- A new solution (or one that moved to another user, when a guest's
-- solutions join an account) takes the user's place on both boards of its
-- kind when it beats what the user had there, and on the daily puzzle's
-- boards when it was found on the puzzle's day. Multi-push solutions are
-- not ranked with standard ones: a push there may move a whole line of
-- boxes.
CREATE TRIGGER solutions_to_boards AFTER INSERT ON solutions WHEN NEW.rule = 0
BEGIN
    INSERT INTO board_entries (level_id, board, hinted, user_id, listed, first, second,
                               solved_at, solution_id)
        SELECT NEW.level_id, 0, NEW.hints > 0, NEW.user_id, 1 - u.guest, NEW.moves, NEW.pushes,
               NEW.solved_at, NEW.id FROM users u WHERE u.id = NEW.user_id
        ON CONFLICT (level_id, board, hinted, user_id) DO UPDATE
        SET first = excluded.first, second = excluded.second, solved_at = excluded.solved_at,
            solution_id = excluded.solution_id
        WHERE (excluded.first, excluded.second, excluded.solved_at, excluded.solution_id)
            < (board_entries.first, board_entries.second, board_entries.solved_at,
               board_entries.solution_id);
    INSERT INTO board_entries (level_id, board, hinted, user_id, listed, first, second,
                               solved_at, solution_id)
        SELECT NEW.level_id, 1, NEW.hints > 0, NEW.user_id, 1 - u.guest, NEW.pushes, NEW.moves,
               NEW.solved_at, NEW.id FROM users u WHERE u.id = NEW.user_id
        ON CONFLICT (level_id, board, hinted, user_id) DO UPDATE
        SET first = excluded.first, second = excluded.second, solved_at = excluded.solved_at,
            solution_id = excluded.solution_id
        WHERE (excluded.first, excluded.second, excluded.solved_at, excluded.solution_id)
            < (board_entries.first, board_entries.second, board_entries.solved_at,
               board_entries.solution_id);
END;

CREATE TRIGGER solutions_to_daily_boards AFTER INSERT ON solutions
WHEN NEW.rule = 0 AND EXISTS (SELECT 1 FROM daily d
    WHERE d.day = date(NEW.solved_at, 'unixepoch') AND d.level_id = NEW.level_id)
BEGIN
    INSERT INTO board_entries (level_id, board, hinted, user_id, listed, first, second,
                               solved_at, solution_id)
        SELECT NEW.level_id, 2, NEW.hints > 0, NEW.user_id, 1 - u.guest, NEW.moves, NEW.pushes,
               NEW.solved_at, NEW.id FROM users u WHERE u.id = NEW.user_id
        ON CONFLICT (level_id, board, hinted, user_id) DO UPDATE
        SET first = excluded.first, second = excluded.second, solved_at = excluded.solved_at,
            solution_id = excluded.solution_id
        WHERE (excluded.first, excluded.second, excluded.solved_at, excluded.solution_id)
            < (board_entries.first, board_entries.second, board_entries.solved_at,
               board_entries.solution_id);
    INSERT INTO board_entries (level_id, board, hinted, user_id, listed, first, second,
                               solved_at, solution_id)
        SELECT NEW.level_id, 3, NEW.hints > 0, NEW.user_id, 1 - u.guest, NEW.pushes, NEW.moves,
               NEW.solved_at, NEW.id FROM users u WHERE u.id = NEW.user_id
        ON CONFLICT (level_id, board, hinted, user_id) DO UPDATE
        SET first = excluded.first, second = excluded.second, solved_at = excluded.solved_at,
            solution_id = excluded.solution_id
        WHERE (excluded.first, excluded.second, excluded.solved_at, excluded.solution_id)
            < (board_entries.first, board_entries.second, board_entries.solved_at,
               board_entries.solution_id);
END;

CREATE TRIGGER solutions_change_user AFTER UPDATE OF user_id ON solutions
WHEN NEW.rule = 0 AND NEW.user_id <> OLD.user_id
BEGIN
    INSERT INTO board_entries (level_id, board, hinted, user_id, listed, first, second,
                               solved_at, solution_id)
        SELECT NEW.level_id, 0, NEW.hints > 0, NEW.user_id, 1 - u.guest, NEW.moves, NEW.pushes,
               NEW.solved_at, NEW.id FROM users u WHERE u.id = NEW.user_id
        ON CONFLICT (level_id, board, hinted, user_id) DO UPDATE
        SET first = excluded.first, second = excluded.second, solved_at = excluded.solved_at,
            solution_id = excluded.solution_id
        WHERE (excluded.first, excluded.second, excluded.solved_at, excluded.solution_id)
            < (board_entries.first, board_entries.second, board_entries.solved_at,
               board_entries.solution_id);
    INSERT INTO board_entries (level_id, board, hinted, user_id, listed, first, second,
                               solved_at, solution_id)
        SELECT NEW.level_id, 1, NEW.hints > 0, NEW.user_id, 1 - u.guest, NEW.pushes, NEW.moves,
               NEW.solved_at, NEW.id FROM users u WHERE u.id = NEW.user_id
        ON CONFLICT (level_id, board, hinted, user_id) DO UPDATE
        SET first = excluded.first, second = excluded.second, solved_at = excluded.solved_at,
            solution_id = excluded.solution_id
        WHERE (excluded.first, excluded.second, excluded.solved_at, excluded.solution_id)
            < (board_entries.first, board_entries.second, board_entries.solved_at,
               board_entries.solution_id);
END;

CREATE TRIGGER solutions_change_user_daily AFTER UPDATE OF user_id ON solutions
WHEN NEW.rule = 0 AND NEW.user_id <> OLD.user_id AND EXISTS (SELECT 1 FROM daily d
    WHERE d.day = date(NEW.solved_at, 'unixepoch') AND d.level_id = NEW.level_id)
BEGIN
    INSERT INTO board_entries (level_id, board, hinted, user_id, listed, first, second,
                               solved_at, solution_id)
        SELECT NEW.level_id, 2, NEW.hints > 0, NEW.user_id, 1 - u.guest, NEW.moves, NEW.pushes,
               NEW.solved_at, NEW.id FROM users u WHERE u.id = NEW.user_id
        ON CONFLICT (level_id, board, hinted, user_id) DO UPDATE
        SET first = excluded.first, second = excluded.second, solved_at = excluded.solved_at,
            solution_id = excluded.solution_id
        WHERE (excluded.first, excluded.second, excluded.solved_at, excluded.solution_id)
            < (board_entries.first, board_entries.second, board_entries.solved_at,
               board_entries.solution_id);
    INSERT INTO board_entries (level_id, board, hinted, user_id, listed, first, second,
                               solved_at, solution_id)
        SELECT NEW.level_id, 3, NEW.hints > 0, NEW.user_id, 1 - u.guest, NEW.pushes, NEW.moves,
               NEW.solved_at, NEW.id FROM users u WHERE u.id = NEW.user_id
        ON CONFLICT (level_id, board, hinted, user_id) DO UPDATE
        SET first = excluded.first, second = excluded.second, solved_at = excluded.solved_at,
            solution_id = excluded.solution_id
        WHERE (excluded.first, excluded.second, excluded.solved_at, excluded.solution_id)
            < (board_entries.first, board_entries.second, board_entries.solved_at,
               board_entries.solution_id);
END;

-- A guest that signs up appears on the boards from then on.
CREATE TRIGGER users_listed AFTER UPDATE OF guest ON users WHEN NEW.guest <> OLD.guest
BEGIN
    UPDATE board_entries SET listed = 1 - NEW.guest WHERE user_id = NEW.id;
END;
