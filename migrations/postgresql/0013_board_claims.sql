-- The boards a solution claims, said once. Migration 0007 kept the boards
-- in step with solutions by four triggers (per pair of boards, for a new
-- solution and for one that changed user). They become one view of what
-- each solution claims and one statement that offers those claims; the
-- triggers on solutions only name the solution. The rows written are the
-- same, row for row.
DROP TRIGGER solutions_to_boards ON solutions;
DROP TRIGGER solutions_to_daily_boards ON solutions;
DROP TRIGGER solutions_change_user ON solutions;
DROP TRIGGER solutions_change_user_daily ON solutions;
DROP FUNCTION solutions_claim_boards();

-- The board rows a solution would hold: both boards of its kind (0 by
-- moves then pushes, 1 by pushes then moves), and the daily puzzle's two
-- (2 and 3) when it was found on the day (UTC) its level is the puzzle of.
-- Multi-push solutions claim nothing: a push there may move a whole line
-- of boxes, so they do not rank with standard ones. Every column is a
-- BIGINT, as board_entries' are.
CREATE VIEW board_claims AS
SELECT s.level_id, b.board, CAST(CASE WHEN s.hints > 0 THEN 1 ELSE 0 END AS BIGINT) AS hinted,
       s.user_id, 1 - u.guest AS listed,
       CASE b.board % 2 WHEN 0 THEN s.moves ELSE s.pushes END AS first,
       CASE b.board % 2 WHEN 0 THEN s.pushes ELSE s.moves END AS second,
       s.solved_at, s.id AS solution_id
FROM solutions s JOIN users u ON u.id = s.user_id
CROSS JOIN (SELECT CAST(0 AS BIGINT) AS board UNION ALL SELECT 1 UNION ALL SELECT 2
            UNION ALL SELECT 3) b
WHERE s.rule = 0 AND (b.board < 2 OR EXISTS (
    SELECT 1 FROM daily d
    WHERE d.day = to_char(to_timestamp(s.solved_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD')
      AND d.level_id = s.level_id));

-- Offering a solution (INSERT INTO board_claims (solution_id) VALUES (id))
-- puts each of its claims on its board where the user has no row yet, or
-- where it beats the user's row: fewer first, then fewer second, then the
-- earlier, then the older solution.
CREATE FUNCTION board_claims_offered() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO board_entries (level_id, board, hinted, user_id, listed, first, second,
                               solved_at, solution_id)
        SELECT c.level_id, c.board, c.hinted, c.user_id, c.listed, c.first, c.second,
               c.solved_at, c.solution_id
        FROM board_claims c WHERE c.solution_id = NEW.solution_id
        ON CONFLICT (level_id, board, hinted, user_id) DO UPDATE
        SET first = excluded.first, second = excluded.second, solved_at = excluded.solved_at,
            solution_id = excluded.solution_id
        WHERE (excluded.first, excluded.second, excluded.solved_at, excluded.solution_id)
            < (board_entries.first, board_entries.second, board_entries.solved_at,
               board_entries.solution_id);
    RETURN NEW;
END
$$;
CREATE TRIGGER board_claims_offered INSTEAD OF INSERT ON board_claims
    FOR EACH ROW EXECUTE FUNCTION board_claims_offered();

-- A new solution, or one that moved to another user (a guest's solutions
-- joining an account), is offered to the boards. Both triggers run this
-- one function.
CREATE FUNCTION solutions_offer_claims() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO board_claims (solution_id) VALUES (NEW.id);
    RETURN NULL;
END
$$;
CREATE TRIGGER solutions_to_boards AFTER INSERT ON solutions
    FOR EACH ROW EXECUTE FUNCTION solutions_offer_claims();
CREATE TRIGGER solutions_change_user AFTER UPDATE OF user_id ON solutions
    FOR EACH ROW WHEN (NEW.user_id <> OLD.user_id) EXECUTE FUNCTION solutions_offer_claims();
