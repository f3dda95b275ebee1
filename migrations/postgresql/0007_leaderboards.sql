-- Leaderboards of witnessed play. Every row of `solutions` is a solution the
-- server saw played step by step (reference solutions that come with level
-- files live in their own table and never rank). A solution now remembers
-- the hints its game had asked for when it was found, and the rule it was
-- played under, so that a replay plays it the same way.
ALTER TABLE solutions ADD COLUMN hints BIGINT NOT NULL DEFAULT 0;
ALTER TABLE solutions ADD COLUMN rule BIGINT NOT NULL DEFAULT 0;

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
    level_id    BIGINT NOT NULL REFERENCES levels (id) ON DELETE CASCADE,
    board       BIGINT NOT NULL CHECK (board >= 0 AND board <= 3),
    hinted      BIGINT NOT NULL CHECK (hinted = 0 OR hinted = 1),
    user_id     BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    listed      BIGINT NOT NULL CHECK (listed = 0 OR listed = 1),
    first       BIGINT NOT NULL,
    second      BIGINT NOT NULL,
    solved_at   BIGINT NOT NULL,
    solution_id BIGINT NOT NULL REFERENCES solutions (id) ON DELETE CASCADE,
    PRIMARY KEY (level_id, board, hinted, user_id)
);
CREATE INDEX board_entries_rank
    ON board_entries (level_id, board, hinted, listed, first, second, solved_at, solution_id);
CREATE INDEX board_entries_user ON board_entries (user_id);
CREATE INDEX board_entries_solution ON board_entries (solution_id);

-- The boards of the solutions recorded so far (all standard-rule games).
-- A solution's day is that of its Unix time in UTC, as SQLite's
-- date(solved_at, 'unixepoch') gives it.
INSERT INTO board_entries (level_id, board, hinted, user_id, listed, first, second, solved_at,
                           solution_id)
SELECT level_id, board, hinted, user_id, listed, first, second, solved_at, id FROM (
    SELECT s.level_id, b.board, CASE WHEN s.hints > 0 THEN 1 ELSE 0 END AS hinted, s.user_id,
           1 - u.guest AS listed,
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
        WHERE d.day = to_char(to_timestamp(s.solved_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD')
          AND d.level_id = s.level_id))) AS claims
WHERE place = 1;

-- How many listed players each board has at each value of its first count
-- (moves, or pushes). A board's size is the sum of its buckets, and a
-- rank is the players of the buckets before one's own plus a count among
-- those with the same first count: a few hundred rows to read instead of
-- every entry ahead. Kept by the triggers below.
CREATE TABLE board_buckets (
    level_id BIGINT NOT NULL REFERENCES levels (id) ON DELETE CASCADE,
    board    BIGINT NOT NULL,
    hinted   BIGINT NOT NULL,
    first    BIGINT NOT NULL,
    players  BIGINT NOT NULL,
    PRIMARY KEY (level_id, board, hinted, first)
);
INSERT INTO board_buckets (level_id, board, hinted, first, players)
    SELECT level_id, board, hinted, first, count(*) FROM board_entries WHERE listed = 1
    GROUP BY level_id, board, hinted, first;

-- SQLite's triggers hold their statements; here each trigger runs a
-- PL/pgSQL function of the same name (or one shared by triggers that do
-- the same), with the trigger's WHEN where PostgreSQL allows it.
CREATE FUNCTION board_entries_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO board_buckets (level_id, board, hinted, first, players)
        VALUES (NEW.level_id, NEW.board, NEW.hinted, NEW.first, 1)
        ON CONFLICT (level_id, board, hinted, first)
        DO UPDATE SET players = board_buckets.players + 1;
    RETURN NULL;
END
$$;
CREATE TRIGGER board_entries_added AFTER INSERT ON board_entries
    FOR EACH ROW WHEN (NEW.listed = 1) EXECUTE FUNCTION board_entries_added();

CREATE FUNCTION board_entries_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE board_buckets SET players = players - 1
    WHERE level_id = OLD.level_id AND board = OLD.board AND hinted = OLD.hinted
      AND first = OLD.first;
    RETURN NULL;
END
$$;
CREATE TRIGGER board_entries_removed AFTER DELETE ON board_entries
    FOR EACH ROW WHEN (OLD.listed = 1) EXECUTE FUNCTION board_entries_removed();

-- A better solution (first may change) or a guest signing up (listed).
CREATE FUNCTION board_entries_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE board_buckets SET players = players - 1
    WHERE OLD.listed = 1 AND level_id = OLD.level_id AND board = OLD.board
      AND hinted = OLD.hinted AND first = OLD.first;
    INSERT INTO board_buckets (level_id, board, hinted, first, players)
        SELECT NEW.level_id, NEW.board, NEW.hinted, NEW.first, 1 WHERE NEW.listed = 1
        ON CONFLICT (level_id, board, hinted, first)
        DO UPDATE SET players = board_buckets.players + 1;
    RETURN NULL;
END
$$;
CREATE TRIGGER board_entries_changed AFTER UPDATE OF first, listed ON board_entries
    FOR EACH ROW WHEN (NEW.first <> OLD.first OR NEW.listed <> OLD.listed)
    EXECUTE FUNCTION board_entries_changed();

-- A new solution (or one that moved to another user, when a guest's
-- solutions join an account) takes the user's place on both boards of its
-- kind when it beats what the user had there, and on the daily puzzle's
-- boards when it was found on the puzzle's day. Multi-push solutions are
-- not ranked with standard ones: a push there may move a whole line of
-- boxes.
-- The trigger's argument names the pair of boards: 0 for boards 0 and 1,
-- 2 for the daily puzzle's 2 and 3. A trigger's WHEN cannot read a table
-- on PostgreSQL, so the daily puzzle's day is checked in the function.
CREATE FUNCTION solutions_claim_boards() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    pair BIGINT := TG_ARGV[0]::BIGINT;
BEGIN
    IF pair = 2 AND NOT EXISTS (SELECT 1 FROM daily d
        WHERE d.day = to_char(to_timestamp(NEW.solved_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD')
          AND d.level_id = NEW.level_id) THEN
        RETURN NULL;
    END IF;
    INSERT INTO board_entries (level_id, board, hinted, user_id, listed, first, second,
                               solved_at, solution_id)
        SELECT NEW.level_id, b.board, CASE WHEN NEW.hints > 0 THEN 1 ELSE 0 END, NEW.user_id,
               1 - u.guest,
               CASE b.board % 2 WHEN 0 THEN NEW.moves ELSE NEW.pushes END,
               CASE b.board % 2 WHEN 0 THEN NEW.pushes ELSE NEW.moves END,
               NEW.solved_at, NEW.id
        FROM users u CROSS JOIN (VALUES (pair), (pair + 1)) AS b (board)
        WHERE u.id = NEW.user_id
        ON CONFLICT (level_id, board, hinted, user_id) DO UPDATE
        SET first = excluded.first, second = excluded.second, solved_at = excluded.solved_at,
            solution_id = excluded.solution_id
        WHERE (excluded.first, excluded.second, excluded.solved_at, excluded.solution_id)
            < (board_entries.first, board_entries.second, board_entries.solved_at,
               board_entries.solution_id);
    RETURN NULL;
END
$$;
CREATE TRIGGER solutions_to_boards AFTER INSERT ON solutions
    FOR EACH ROW WHEN (NEW.rule = 0) EXECUTE FUNCTION solutions_claim_boards(0);
CREATE TRIGGER solutions_to_daily_boards AFTER INSERT ON solutions
    FOR EACH ROW WHEN (NEW.rule = 0) EXECUTE FUNCTION solutions_claim_boards(2);
CREATE TRIGGER solutions_change_user AFTER UPDATE OF user_id ON solutions
    FOR EACH ROW WHEN (NEW.rule = 0 AND NEW.user_id <> OLD.user_id)
    EXECUTE FUNCTION solutions_claim_boards(0);
CREATE TRIGGER solutions_change_user_daily AFTER UPDATE OF user_id ON solutions
    FOR EACH ROW WHEN (NEW.rule = 0 AND NEW.user_id <> OLD.user_id)
    EXECUTE FUNCTION solutions_claim_boards(2);

-- A guest that signs up appears on the boards from then on.
CREATE FUNCTION users_listed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE board_entries SET listed = 1 - NEW.guest WHERE user_id = NEW.id;
    RETURN NULL;
END
$$;
CREATE TRIGGER users_listed AFTER UPDATE OF guest ON users
    FOR EACH ROW WHEN (NEW.guest <> OLD.guest) EXECUTE FUNCTION users_listed();
