-- The boards a solution claims, said once. Migration 0007 kept the boards
-- in step with solutions by four triggers holding eight copies of one
-- upsert (per board, for a new solution and for one that changed user).
-- They become one view of what each solution claims and one statement that
-- offers those claims; the triggers on solutions only name the solution.
-- The rows written are the same, row for row.
DROP TRIGGER solutions_to_boards;
DROP TRIGGER solutions_to_daily_boards;
DROP TRIGGER solutions_change_user;
DROP TRIGGER solutions_change_user_daily;

-- The board rows a solution would hold: both boards of its kind (0 by
-- moves then pushes, 1 by pushes then moves), and the daily puzzle's two
-- (2 and 3) when it was found on the day (UTC) its level is the puzzle of.
-- Multi-push solutions claim nothing: a push there may move a whole line
-- of boxes, so they do not rank with standard ones.
CREATE VIEW board_claims AS
SELECT s.level_id, b.board, s.hints > 0 AS hinted, s.user_id, 1 - u.guest AS listed,
       CASE b.board % 2 WHEN 0 THEN s.moves ELSE s.pushes END AS first,
       CASE b.board % 2 WHEN 0 THEN s.pushes ELSE s.moves END AS second,
       s.solved_at, s.id AS solution_id
FROM solutions s JOIN users u ON u.id = s.user_id
CROSS JOIN (SELECT 0 AS board UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3) b
WHERE s.rule = 0 AND (b.board < 2 OR EXISTS (
    SELECT 1 FROM daily d
    WHERE d.day = date(s.solved_at, 'unixepoch') AND d.level_id = s.level_id));

-- Offering a solution (INSERT INTO board_claims (solution_id) VALUES (id))
-- puts each of its claims on its board where the user has no row yet, or
-- where it beats the user's row: fewer first, then fewer second, then the
-- earlier, then the older solution.
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

-- A new solution, or one that moved to another user (a guest's solutions
-- joining an account), is offered to the boards.
CREATE TRIGGER solutions_to_boards AFTER INSERT ON solutions
BEGIN
    INSERT INTO board_claims (solution_id) VALUES (NEW.id);
END;

CREATE TRIGGER solutions_change_user AFTER UPDATE OF user_id ON solutions
WHEN NEW.user_id <> OLD.user_id
BEGIN
    INSERT INTO board_claims (solution_id) VALUES (NEW.id);
END;
