-- Games under either rule (see the SQLite migration of the same number). A
-- player may hold one game per level and rule; multi-push solutions get
-- boards of their own (4 by moves then pushes, 5 by pushes then moves); a
-- solution is unique per user, level, rule and line. PostgreSQL alters the
-- constraints in place and replaces the view of a solution's claims, whose
-- columns stay the same.
DROP INDEX games_user_level;
CREATE UNIQUE INDEX games_user_level ON games (user_id, level_id, rule) WHERE room_id IS NULL;

ALTER TABLE solutions DROP CONSTRAINT solutions_user_id_level_id_lurd_key;
ALTER TABLE solutions ADD CONSTRAINT solutions_user_level_rule_lurd
    UNIQUE (user_id, level_id, rule, lurd);

ALTER TABLE board_entries DROP CONSTRAINT board_entries_board_check;
ALTER TABLE board_entries ADD CONSTRAINT board_entries_board_check
    CHECK (board >= 0 AND board <= 5);

-- A standard solution claims boards 0 and 1, and the daily puzzle's 2 and
-- 3 when found on its day; a multi-push one claims 4 and 5 only.
CREATE OR REPLACE VIEW board_claims AS
SELECT s.level_id, b.board, CAST(CASE WHEN s.hints > 0 THEN 1 ELSE 0 END AS BIGINT) AS hinted,
       s.user_id, 1 - u.guest AS listed,
       CASE b.board % 2 WHEN 0 THEN s.moves ELSE s.pushes END AS first,
       CASE b.board % 2 WHEN 0 THEN s.pushes ELSE s.moves END AS second,
       s.solved_at, s.id AS solution_id
FROM solutions s JOIN users u ON u.id = s.user_id
CROSS JOIN (SELECT CAST(0 AS BIGINT) AS board UNION ALL SELECT 1 UNION ALL SELECT 2
            UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5) b
WHERE (s.rule = 1 AND b.board >= 4)
   OR (s.rule = 0 AND (b.board < 2 OR (b.board < 4 AND EXISTS (
        SELECT 1 FROM daily d
        WHERE d.day = to_char(to_timestamp(s.solved_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD')
          AND d.level_id = s.level_id))));

-- The multi-push solutions recorded so far take their boards.
INSERT INTO board_claims (solution_id) SELECT id FROM solutions WHERE rule = 1 ORDER BY id;
