-- Solutions players submit: found elsewhere and pasted (or loaded from a
-- file), or found by the optimiser from one of their witnessed solutions
-- (`source`), replayed by the core on arrival. They never join the witnessed
-- boards, which hold only what the server saw played; they have a board of
-- their own, and with the witnessed ones and those an admin's upload
-- carried they give a level its best known moves and pushes.
--
-- As witnessed solutions are, they are unique per player, level and rule
-- by the SHA-256 of their line, bounded per player, level and rule (the
-- best by moves, the best by pushes and the latest stay; sokod deletes
-- the others as it adds one), and counted against the player's storage
-- quota.
CREATE TABLE submitted_solutions (
    id           INTEGER PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    level_id     INTEGER NOT NULL REFERENCES levels (id) ON DELETE CASCADE,
    rule         INTEGER NOT NULL DEFAULT 0 CHECK (rule = 0 OR rule = 1),
    moves        INTEGER NOT NULL,
    pushes       INTEGER NOT NULL,
    lurd         TEXT NOT NULL,
    lurd_hash    BLOB NOT NULL CHECK (length(lurd_hash) = 32),
    submitted_at INTEGER NOT NULL,
    source       TEXT NOT NULL DEFAULT 'pasted' CHECK (source IN ('pasted', 'optimised'))
);
CREATE UNIQUE INDEX submitted_line ON submitted_solutions (user_id, level_id, rule, lurd_hash);
CREATE INDEX submitted_level ON submitted_solutions (level_id, rule, moves);
CREATE INDEX reference_level_moves ON reference_solutions (level_id, moves);

CREATE TRIGGER storage_submitted_quota BEFORE INSERT ON submitted_solutions
WHEN (SELECT l.used + length(NEW.lurd) + 32 > l.allowed FROM storage_limits l
      WHERE l.user_id = NEW.user_id)
BEGIN
    SELECT RAISE(ABORT, 'quota_exceeded');
END;
CREATE TRIGGER storage_submitted_added AFTER INSERT ON submitted_solutions
BEGIN
    UPDATE users SET storage_bytes = storage_bytes + length(NEW.lurd) + 32 WHERE id = NEW.user_id;
END;
CREATE TRIGGER storage_submitted_removed AFTER DELETE ON submitted_solutions
BEGIN
    UPDATE users SET storage_bytes = storage_bytes - (length(OLD.lurd) + 32)
    WHERE id = OLD.user_id;
END;
