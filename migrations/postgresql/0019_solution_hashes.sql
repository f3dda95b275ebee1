-- Solutions unique by a hash of their line, and bounded per player (see the
-- SQLite migration of the same number). The unique constraint on the line
-- kept every line a second time in its index, and a B-tree refuses an
-- entry past about 2.7 kB: a long solution could not be recorded at all.
-- `lurd_hash` is the line's SHA-256, as sokod computes it (PostgreSQL's
-- sha256 gives the same bytes, so the rows recorded before get theirs
-- here); `legacy` marks the rows recorded before solutions were bounded,
-- which no new solution removes.
ALTER TABLE solutions ADD COLUMN lurd_hash BYTEA;
ALTER TABLE solutions ADD COLUMN legacy BIGINT NOT NULL DEFAULT 0
    CHECK (legacy = 0 OR legacy = 1);
UPDATE solutions SET lurd_hash = sha256(convert_to(lurd, 'UTF8')), legacy = 1;
ALTER TABLE solutions ADD CONSTRAINT solutions_lurd_hash_length
    CHECK (length(lurd_hash) = 32);
ALTER TABLE solutions DROP CONSTRAINT solutions_user_level_rule_lurd;
CREATE UNIQUE INDEX solutions_line ON solutions (user_id, level_id, rule, lurd_hash);
